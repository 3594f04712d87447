/*
 * inspect.h - public entry points of inspect/: the commands that show
 * what is in the database (runs and files) without computing statistics.
 */
#ifndef PATHSTAT_INSPECT_INSPECT_H
#define PATHSTAT_INSPECT_INSPECT_H

int cmd_runs(int argc, char **argv);

#endif
