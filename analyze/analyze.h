/*
 * analyze.h - the public face of analyze/: `pathstat analyze` and the
 * table builders report/ calls to put the same numbers in a bundle.
 */
#ifndef PATHSTAT_ANALYZE_ANALYZE_H
#define PATHSTAT_ANALYZE_ANALYZE_H

#include "common/compat.h"

#include <sqlite3.h>

#include "analyze/options.h"
#include "common/table.h"
#include "common/where.h"
#include "stats/stats.h"

/*
 * Build the table of one verb ("percentiles", "delta", "ratio",
 * "trials", "relative", "compare", "trend", "variance") with its
 * positional arguments.  Returns 0; -1 after printing an error; -2 for
 * a usage error (bad arguments for the verb).
 */
int analyze_build(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct table *t);

int cmd_analyze(int argc, char **argv);

#endif
