/*
 * exit.h - the exit codes every pathstat command uses (documented in
 * pathstat.1 and each one tested in tests/cli).
 */
#ifndef PATHSTAT_COMMON_EXIT_H
#define PATHSTAT_COMMON_EXIT_H

#define PATHSTAT_EXIT_OK	0	/* everything done */
#define PATHSTAT_EXIT_FAIL	1	/* some input rejected or a runtime error; the rest done */
#define PATHSTAT_EXIT_USAGE	2	/* bad invocation */
#define PATHSTAT_EXIT_PROBE_LOSS 3	/* pathprobe: ran, but some probes failed */
#define PATHSTAT_EXIT_FINDINGS	3	/* check: ran, and found pitfalls */

#endif
