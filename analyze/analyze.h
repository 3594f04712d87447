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

/*
 * For a table whose numbers an engine computed from `analyze --sql`'s
 * query (report's from_csv), percentiles, delta, ratio or trials only:
 * analyze_columns() adds to t the columns `analyze VERB --format csv`
 * prints with o (trials: --format json's; its CSV is the long form) (no
 * rows); once the caller has filled the rows,
 * analyze_replay() sets the Markdown text (display unit, "≥ timeout",
 * "not measured") and the notes as the verb would.  0, or -1 after an
 * error.
 */
int analyze_columns(const char *verb, const struct analyze_opts *o,
    struct table *t);
int analyze_replay(const char *verb, const struct analyze_opts *o,
    struct table *t);
/* The type of column key in such a table: text, integer or number. */
enum cell_type analyze_column_type(const char *verb,
    const struct analyze_opts *o, const char *key);

/*
 * The long ("tidy") form of trials and trend for --format csv
 * (analyze/long.c): one row per path, condition, dimensions, statistic
 * and trial (trials) or point (trend), with the value at full precision
 * in the stored unit and a unit column.  Whether verb has one; then
 * fill t like a verb (0, -1 after an error, -2 for a usage error).
 */
bool analyze_long_verb(const char *verb);
int analyze_long(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct table *t);

/* The name of verb i in the verb table, in name order ("compare"); NULL
 * past the last.  Static storage. */
const char *analyze_verb_name(size_t i);

int cmd_analyze(int argc, char **argv);

/*
 * The change points analyze trend finds (for the month report's day
 * chart): one per series with a step, in the trend table's order.  o as
 * for `analyze trend` (--by day [--by KEY ...], --stats, --where ...).
 * changed names what switches with the step ("instance_type c6i.large →
 * c7i.large; samples a point 300 → 50", "" when nothing).  Returns 0 and
 * sets *out (analyze_change_points_free()) and *n, or -1 after printing
 * an error.
 */
struct analyze_change_point {
	char	*path, *cond;	/* the series' path and condition */
	char	*stat;		/* "p50" */
	char	*at;		/* the first point of the new level: "2026-11-18" */
	double	x;		/* its x: days since 1970-01-01, or the hour */
	double	step_pct;	/* the step in % of the series' mean */
	bool	drift_too;	/* a trend beyond the step as well */
	char	*changed;	/* what changes with it, "" when nothing */
};

int analyze_trend_changes(sqlite3 *db, const struct analyze_opts *o,
    struct analyze_change_point **out, size_t *n);
void analyze_change_points_free(struct analyze_change_point *cp, size_t n);

/*
 * A memo of trend's tests by their series (analyze/trend.c), for a
 * report that asks for the same series in several sections (a table and
 * a chart's change points): on from begin to end, which frees it.  The
 * counts: the series tested, and those answered from the memo.
 */
void analyze_trend_memo_begin(void);
void analyze_trend_memo_end(void);
void analyze_trend_memo_counts(unsigned long *tested, unsigned long *reused);

#endif
