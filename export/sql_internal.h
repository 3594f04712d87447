/*
 * sql_internal.h - what the files of `analyze --sql` share (sql.c the
 * entry, sql_build.c the CTEs every verb reads, sql_cells.c percentiles
 * and trials, sql_contrast.c delta and ratio, sql_compare.c compare):
 * the query being written and the builders that add to it.
 */
#ifndef PATHSTAT_EXPORT_SQL_INTERNAL_H
#define PATHSTAT_EXPORT_SQL_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <sqlite3.h>

#include "analyze/options.h"
#include "common/strbuf.h"
#include "export/internal.h"
#include "stats/stats.h"


/* A statistic the query computes: the user's (shown) and, for delta's
 * growth, p50 and p99. */
struct qstat {
	struct stats_name s;
	const char	*label;		/* column name: as typed; borrowed */
	char		tool[40];	/* the tool summary's name for it ("" =
					 * none) */
	bool		tool_p50;	/* prefer the summary's p50 */
	bool		shown;		/* a column of the table */
};

/* The query being written. */
struct q {
	const struct dialect *d;
	const struct analyze_opts *o;
	const struct metric *m;
	const char	*verb;
	struct export_model model;	/* key columns only */
	struct strbuf	*sb;		/* the query */
	struct qstat	st[ANALYZE_MAX_STATS + 2];
	size_t		nst;
	const char	**dimcol;	/* each --by key's column (NULL: path,
					 * trial or tool) */
	bool		trials;		/* --pool trials */
	bool		sumdef;		/* --pool not given: a cell with only
					 * the tool's summaries is per trial
					 * (analyze's cell_summary_default()) */
	bool		connect;	/* failures are timeouts */
	/* percentiles: the run tags a cell may pool (analyze/pooling.h)
	 * and their columns */
	char		**pkeys;	/* owned */
	const char	**pcol;		/* borrowed from model */
	size_t		npk;
};

/* ------------------------------------------------------------------
 * Small spellings
 */

static inline void
lit(struct q *x, const char *s)
{
	dialect_string(x->sb, x->d, s);
}

static inline void
ident(struct q *x, const char *s)
{
	dialect_ident(x->sb, x->d, s);
}

static inline void
add(struct q *x, const char *s)
{
	strbuf_addstr(x->sb, s);
}

static inline void PATHSTAT_PRINTF(2, 3)
addf(struct q *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(x->sb, fmt, ap);
	va_end(ap);
}

static inline void
expand(struct q *x, const char *tmpl, const char *a1, const char *a2,
    const char *a3)
{
	dialect_expand(x->sb, tmpl, a1, a2, a3);
}

/* A table of the export: pathstat.samples, or samples (DuckDB views). */
static inline void
table(struct q *x, const char *name)
{
	addf(x, "%s%s", x->d->schema, name);
}

/* sql_build.c: spellings */
void sql_dbl(struct strbuf *sb, double v);
void sql_comment_text(struct strbuf *sb, const char *s);

/* sql_build.c: keys, orders and the statistics of a group */
bool sql_fixed_key(const char *key);
void sql_cell_keys(struct q *x, const char *alias);
void sql_cell_join(struct q *x, const char *a, const char *b, bool path,
    bool cond);
void sql_path_order(struct q *x, const char *expr);
void sql_dims_order(struct q *x, const char *a, const char *b);
void sql_agg_quantile(struct q *x, enum stats_estimator est,
    const char *expr, double pct);
void sql_agg_stat(struct q *x, const struct stats_name *s, const char *expr);
bool sql_type7_list(const struct q *x);
void sql_ratio(struct q *x, const char *a, const char *b);

/* sql_build.c: the CTEs (k, u, t, v, c; pt, tt; p, q, cs) */
void sql_base_ctes(struct q *x);
void sql_trial_ctes(struct q *x);
void sql_censor_cond(struct q *x, const struct stats_name *s,
    const char *succ, const char *tmo);
bool sql_censorable(const struct q *x, const struct stats_name *s);
void sql_cell_stats(struct q *x);

/* sql_build.c: columns every table has */
const char *sql_pool_name(const struct q *x);
void sql_method_cols(struct q *x, const char *alias, bool per_cell);
void sql_n_counts_col(struct q *x);
void sql_dim_cols(struct q *x, const char *a, const char *b);

/* The verbs' final SELECTs: 0, -1 after an error, -2 a usage error. */
void sql_percentiles_select(struct q *x);		/* sql_cells.c */
void sql_trials_select(struct q *x);			/* sql_cells.c */
int sql_delta_select(struct q *x, sqlite3 *db, int nargs, char **args);
int sql_ratio_select(struct q *x, int nargs, char **args);
void sql_compare_select(struct q *x);			/* sql_compare.c */


#endif
