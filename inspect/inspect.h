/*
 * inspect.h - public entry points of inspect/: the commands that show
 * what is in the database (runs, files, the keys runs can be selected
 * by) without computing statistics.
 */
#ifndef PATHSTAT_INSPECT_INSPECT_H
#define PATHSTAT_INSPECT_INSPECT_H

int cmd_runs(int argc, char **argv);
int cmd_keys(int argc, char **argv);

#endif
