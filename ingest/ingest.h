/*
 * ingest.h - public entry point of ingest/: the ingest command.
 * Everything else in this folder is private (internal.h).
 */
#ifndef PATHSTAT_INGEST_INGEST_H
#define PATHSTAT_INGEST_INGEST_H

int cmd_ingest(int argc, char **argv);

#endif
