/*
 * cmds.h - every pathstat subcommand's entry point, one place to see the
 * CLI (git's builtin.h).  Each returns a PATHSTAT_EXIT_* code.
 */
#ifndef PATHSTAT_CMDS_H
#define PATHSTAT_CMDS_H

int cmd_ingest(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_plan(int argc, char **argv);

#endif
