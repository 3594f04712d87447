/*
 * ingest.h - public entry points of ingest/: the ingest and runs
 * commands.  Everything else in this folder is private (internal.h).
 */
#ifndef PATHSTAT_INGEST_INGEST_H
#define PATHSTAT_INGEST_INGEST_H

int cmd_ingest(int argc, char **argv);
int cmd_runs(int argc, char **argv);

#endif
