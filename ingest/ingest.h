/*
 * ingest.h - public entry point of ingest/: the ingest command, and the
 * names of the input kinds it knows.  Everything else in this folder is
 * private (internal.h).
 */
#ifndef PATHSTAT_INGEST_INGEST_H
#define PATHSTAT_INGEST_INGEST_H

#include "common/compat.h"

int cmd_ingest(int argc, char **argv);

/*
 * The name ingest stores in files.kind for input kind i, from 1
 * ("iperf3-json", ...); NULL past the last.  pathstat --list kinds
 * prints them, so a new input format needs no list kept by hand.
 * Static storage.
 */
const char *ingest_kind_at(size_t i);

#endif
