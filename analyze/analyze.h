/*
 * analyze.h - the public face of analyze/: `pathstat analyze` and the
 * table builders report/ calls to put the same numbers in a bundle.
 */
#ifndef PATHSTAT_ANALYZE_ANALYZE_H
#define PATHSTAT_ANALYZE_ANALYZE_H

#include "common/compat.h"

#include <sqlite3.h>

#include "analyze/stats.h"
#include "common/table.h"
#include "common/where.h"

#define ANALYZE_MAX_STATS 32

struct analyze_opts {
	const char		*db_path;
	const char		*metric;	/* --metric */
	struct where		where;		/* --where */
	char			**by;		/* --by keys; owned */
	size_t			nby;
	char			**paths;	/* --paths order; owned */
	size_t			npaths;
	struct stats_name	stats[ANALYZE_MAX_STATS];	/* --stats */
	char			*stat_names[ANALYZE_MAX_STATS];	/* as typed; owned */
	size_t			nstats;
	enum stats_estimator	est;		/* --quantile */
	enum stats_pool		pool;		/* --pool */
	enum table_format	format;		/* --format */
	bool			ci;		/* --ci */
	double			level;		/* --level (0.95) */
	size_t			B;		/* --boot-reps */
	uint64_t		seed;		/* --seed */
	double			threshold_pct;	/* --threshold (compare) */
	const char		*baseline;	/* --baseline (compare) */
	double			target_pct;	/* --target (variance) */
	const char		*across;	/* --across KEY (ratio) */
	bool			stats_given;	/* --stats was given */
	bool			metric_given;
};

/* Defaults: type7, pooled, stats p50 p95 p99 max, 95 %, B = 2000, md. */
void analyze_opts_init(struct analyze_opts *o);
void analyze_opts_release(struct analyze_opts *o);
/* Set --stats from "p50,p95,p99,max"; -1 with the reason in why. */
int analyze_opts_set_stats(struct analyze_opts *o, const char *list,
    struct strbuf *why);
/* Set a comma list (--by, --paths) into the array and its count;
 * -1 on a bad item. */
int analyze_opts_set_list(char ***arr, size_t *n, const char *list,
    struct strbuf *why);

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
