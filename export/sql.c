/*
 * sql.c - `pathstat analyze percentiles|delta|ratio|trials ... --sql
 * ENGINE`: the query that computes the same table as `analyze --format
 * csv` on Athena, Trino, Spark or DuckDB over the tables `pathstat
 * export --ddl` makes.  The cells, failures, estimators and pooling are
 * analyze's (analyze/cells.c, analyze/verbs.c); each engine's spellings
 * are in dialect.c.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/options.h"
#include "analyze/pooling.h"
#include "common/err.h"
#include "common/kv.h"
#include "common/metric.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/units.h"
#include "common/xalloc.h"
#include "export/export.h"
#include "export/internal.h"
#include "stats/verdict.h"

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

static void
lit(struct q *x, const char *s)
{
	dialect_string(x->sb, x->d, s);
}

static void
ident(struct q *x, const char *s)
{
	dialect_ident(x->sb, x->d, s);
}

/* A double literal with the very bits of v: exponent form is a DOUBLE
 * in all four engines (a plain 0.99 is a DECIMAL in some). */
static void
dbl(struct strbuf *sb, double v)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_add_double(&t, v);
	strbuf_addstr(sb, t.buf);
	if (!strchr(t.buf, 'e') && !strchr(t.buf, 'E'))
		strbuf_addstr(sb, "e0");
	strbuf_release(&t);
}

/* Text safe inside a "--" comment: no line breaks or control bytes. */
static void
comment_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addch(sb, (unsigned char)*s < 0x20 || *s == 0x7f ?
		    '?' : *s);
}

static void
add(struct q *x, const char *s)
{
	strbuf_addstr(x->sb, s);
}

static void PATHSTAT_PRINTF(2, 3)
addf(struct q *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(x->sb, fmt, ap);
	va_end(ap);
}

static void
expand(struct q *x, const char *tmpl, const char *a1, const char *a2,
    const char *a3)
{
	dialect_expand(x->sb, tmpl, a1, a2, a3);
}

/* A table of the export: pathstat.samples, or samples (DuckDB views). */
static void
table(struct q *x, const char *name)
{
	addf(x, "%s%s", x->d->schema, name);
}

/* ------------------------------------------------------------------
 * Keys: --where, --by, --paths
 */

static bool
fixed_key(const char *key)
{
	return !strcmp(key, "path") || !strcmp(key, "trial") ||
	    !strcmp(key, "tool");
}

/* Dimension key's value on alias (a runs, samples or summaries row);
 * NULL where the run lacks it. */
static void
key_expr(struct q *x, const char *alias, const char *key, const char *col)
{
	if (!strcmp(key, "trial")) {
		addf(x, "CAST(%s.trial AS %s)", alias, x->d->t_text);
	} else if (fixed_key(key)) {
		addf(x, "%s.%s", alias, key);
	} else {
		addf(x, "%s.", alias);
		ident(x, col);
	}
}

/* Is s a number (a range of numbers compares as numbers)? */
static bool
range_number(const char *s)
{
	double d;

	return *s && !parse_double(s, -1e300, 1e300, &d);
}

/* "(lhs >= lo AND lhs <= hi)" for the range value v (where.h), lhs the
 * column (a CAST to DOUBLE when both ends are numbers, as where.c
 * compares them; days, weeks and months compare as text). */
static void
range_clause(struct q *x, const char *alias, const char *col,
    const char *key, const char *v)
{
	char *lo = NULL, *hi = NULL;
	bool num, time = !strcmp(key, "day") || !strcmp(key, "week") ||
	    !strcmp(key, "month");
	int end;

	where_range(v, &lo, &hi);
	num = !time && (!*lo || range_number(lo)) && (!*hi ||
	    range_number(hi));
	add(x, "(");
	for (end = 0; end < 2; end++) {
		const char *e = end ? hi : lo;

		if (!*e)
			continue;
		if (end && *lo)
			add(x, " AND ");
		if (num && strcmp(key, "trial"))
			add(x, "CAST(");
		addf(x, "%s.", alias);
		ident(x, col);
		if (num && strcmp(key, "trial"))
			add(x, " AS DOUBLE)");
		add(x, end ? " <= " : " >= ");
		if (num)	/* checked: a number; 09 spelled 9 */
			addf(x, "%.17g", strtod(e, NULL));
		else
			lit(x, e);
	}
	add(x, ")");
	free(lo);
	free(hi);
}

/* " AND (...)" for each --where key and --paths, on alias. */
static void
where_clause(struct q *x, const char *alias)
{
	const struct where *w = &x->o->where;
	bool *done = xcalloc(w->n + 1, sizeof(bool));
	size_t i, j;

	for (i = 0; i < w->n; i++) {
		const char *key = w->items[i].key;
		const char *col = export_model_column(&x->model, key);

		if (done[i])
			continue;
		add(x, " AND (");
		for (j = i; j < w->n; j++) {
			const char *v = w->items[j].value;
			int64_t trial;

			if (done[j] || strcmp(w->items[j].key, key))
				continue;
			if (j != i)
				add(x, " OR ");
			done[j] = true;
			if (*v && where_range(v, NULL, NULL) && (col ||
			    fixed_key(key) || !strcmp(key, "trial"))) {
				range_clause(x, alias, col && !fixed_key(key) &&
				    strcmp(key, "trial") ? col : key, key, v);
			} else if (!strcmp(key, "trial")) {
				/* as stored: an integer */
				if (parse_int64(v, &trial))
					add(x, "1 = 0");
				else
					addf(x, "%s.trial = %lld", alias,
					    (long long)trial);
			} else if (fixed_key(key)) {
				if (!*v) {
					add(x, "1 = 0");
					continue;
				}
				addf(x, "%s.%s = ", alias, key);
				lit(x, v);
			} else if (!col) {
				/* no run has the key */
				add(x, *v ? "1 = 0" : "1 = 1");
			} else if (!*v) {
				addf(x, "%s.", alias);
				ident(x, col);
				add(x, " IS NULL");
			} else {
				addf(x, "%s.", alias);
				ident(x, col);
				add(x, " = ");
				lit(x, v);
			}
		}
		add(x, ")");
	}
	if (x->o->npaths) {
		addf(x, " AND %s.path IN (", alias);
		for (i = 0; i < x->o->npaths; i++) {
			if (i)
				add(x, ", ");
			lit(x, x->o->paths[i]);
		}
		add(x, ")");
	}
	free(done);
}

/* The cell's keys as the CTEs name them: path, condition, d1, ... */
static void
cell_keys(struct q *x, const char *alias)
{
	size_t i;
	const char *dot = *alias ? "." : "";

	addf(x, "%s%spath, %s%scondition", alias, dot, alias, dot);
	for (i = 0; i < x->o->nby; i++)
		addf(x, ", %s%sd%zu", alias, dot, i + 1);
}

/* a.path = b.path AND ... over the cell's keys (cond: whether
 * condition takes part). */
static void
cell_join(struct q *x, const char *a, const char *b, bool path, bool cond)
{
	size_t i;
	const char *and = "";

	if (path) {
		addf(x, "%s.path = %s.path", a, b);
		and = " AND ";
	}
	if (cond) {
		addf(x, "%s%s.condition = %s.condition", and, a, b);
		and = " AND ";
	}
	for (i = 0; i < x->o->nby; i++) {
		addf(x, "%s%s.d%zu = %s.d%zu", and, a, i + 1, b, i + 1);
		and = " AND ";
	}
	if (!*and)
		add(x, "1 = 1");
}

/* The order of paths: --paths' order, else digit runs by value. */
static void
path_order(struct q *x, const char *expr)
{
	size_t i;

	if (x->o->npaths) {
		addf(x, "CASE %s", expr);
		for (i = 0; i < x->o->npaths; i++) {
			add(x, " WHEN ");
			lit(x, x->o->paths[i]);
			addf(x, " THEN %zu", i);
		}
		add(x, " END");
		return;
	}
	expand(x, x->d->natural, expr, NULL, NULL);
}

/* ", natural(d1), ..." for ORDER BY (the dimensions sort as paths do). */
static void
dims_order(struct q *x, const char *a, const char *b)
{
	size_t i;
	struct strbuf e = STRBUF_INIT;

	for (i = 0; i < x->o->nby; i++) {
		strbuf_reset(&e);
		if (b)
			strbuf_addf(&e, "coalesce(%s.d%zu, %s.d%zu)", a, i + 1,
			    b, i + 1);
		else
			strbuf_addf(&e, "%s.d%zu", a, i + 1);
		add(x, ", ");
		expand(x, x->d->natural, e.buf, NULL, NULL);
	}
	strbuf_release(&e);
}

/* ------------------------------------------------------------------
 * Statistics of a group
 */

/* A quantile of the group's non-NULL values of expr at pct (percent). */
static void
agg_quantile(struct q *x, enum stats_estimator est, const char *expr,
    double pct)
{
	struct strbuf arr = STRBUF_INIT, p = STRBUF_INIT, n = STRBUF_INIT,
	    h = STRBUF_INIT, i = STRBUF_INIT, e = STRBUF_INIT;
	const struct dialect *d = x->d;

	dbl(&p, pct / 100.0);
	if (est == STATS_EST_TYPE7 && d->type7) {
		expand(x, d->type7, expr, p.buf, NULL);
		goto cleanup;
	}
	dialect_expand(&arr, d->sorted, expr, NULL, NULL);
	strbuf_addf(&n, "count(%s)", expr);
	addf(x, "CASE WHEN %s = 0 THEN NULL ELSE ", n.buf);
	if (est == STATS_EST_OHA) {
		/* sorted[floor(p n)], the last one at most (0-based) */
		strbuf_addf(&i, "CAST(least(floor(%s * CAST(%s AS DOUBLE)), "
		    "%s - 1) + 1 AS %s)", p.buf, n.buf, n.buf, d->t_index);
		expand(x, d->element, arr.buf, i.buf, NULL);
	} else {
		/* type 7: h = (n - 1) p, x[floor h] + (h - floor h) *
		 * (x[floor h + 1] - x[floor h]) (0-based) */
		strbuf_addf(&h, "CAST(%s - 1 AS DOUBLE) * %s", n.buf, p.buf);
		strbuf_addf(&i, "CAST(floor(%s) + 1 AS %s)", h.buf,
		    d->t_index);
		expand(x, d->element, arr.buf, i.buf, NULL);
		addf(x, " + (%s - floor(%s)) * (", h.buf, h.buf);
		strbuf_addf(&e, "CAST(least(floor(%s) + 2, %s) AS %s)", h.buf,
		    n.buf, d->t_index);
		expand(x, d->element, arr.buf, e.buf, NULL);
		add(x, " - ");
		expand(x, d->element, arr.buf, i.buf, NULL);
		add(x, ")");
	}
	add(x, " END");
cleanup:
	strbuf_release(&arr);
	strbuf_release(&p);
	strbuf_release(&n);
	strbuf_release(&h);
	strbuf_release(&i);
	strbuf_release(&e);
}

/* Statistic s of the group's values of expr (analyze's stat_of()). */
static void
agg_stat(struct q *x, const struct stats_name *s, const char *expr)
{
	switch (s->kind) {
	case STATS_NAME_MIN:
		addf(x, "min(%s)", expr);
		return;
	case STATS_NAME_MAX:
		addf(x, "max(%s)", expr);
		return;
	case STATS_NAME_MEAN:
		addf(x, "avg(%s)", expr);
		return;
	case STATS_NAME_N:
		addf(x, "count(%s)", expr);
		return;
	case STATS_NAME_PCT:
		break;
	}
	agg_quantile(x, x->o->est, expr, s->pct);
}

/* NULL-safe a / b (no engine's own rule for a zero divisor). */
static void
ratio(struct q *x, const char *a, const char *b)
{
	addf(x, "CASE WHEN %s = 0 THEN NULL ELSE %s / %s END", b, a, b);
}

/* ------------------------------------------------------------------
 * The CTEs every verb shares: runs, their samples, the cells
 */

static void
metric_is(struct q *x, const char *alias)
{
	addf(x, "%s.metric = ", alias);
	lit(x, x->m->name);
}

/* The cell keys of t from runs alias r: path, condition, --by keys and
 * the tags a cell may pool. */
static void
run_keys(struct q *x)
{
	size_t i;

	add(x, "r.run_id, r.path, r.condition");
	for (i = 0; i < x->o->nby; i++) {
		add(x, ", coalesce(");
		key_expr(x, "r", x->o->by[i], x->dimcol[i]);
		addf(x, ", '') AS d%zu", i + 1);
	}
	for (i = 0; i < x->npk; i++) {
		add(x, i ? ", coalesce(" : ",\n    coalesce(");
		key_expr(x, "r", x->pkeys[i], x->pcol[i]);
		addf(x, ", '') AS g%zu", i + 1);
	}
}

/*
 * An end-of-test metric (common/metric.h, METRIC_FROM_SUMMARY): each run
 * is one trial of n = 1, its value the tool's summary row times the
 * metric's scale, else (metric_summary.rate_of) the rate of the run's
 * successful samples over the span of their starts and ends, as
 * analyze/cells.c reads it (load_end_value) and common/runsel.c selects
 * the runs.  No failures, no tool-only trials.  The same CTE names and
 * columns as base_ctes(), so every verb reads them alike.
 */
static void
end_ctes(struct q *x)
{
	const struct metric_summary *ms = x->m->summary;
	const struct metric *rm = ms->rate_of ? metric_by_id(ms->rate_of) :
	    NULL;

	add(x, "WITH\n-- each run's end-of-test value: ");
	comment_text(x->sb, ms->what);
	add(x, "\ne0 AS (\n  SELECT m.run_id, max(m.value) * ");
	dbl(x->sb, ms->scale);
	add(x, " AS value\n  FROM ");
	table(x, "summaries");
	add(x, " m\n  WHERE m.metric = ");
	lit(x, ms->metric);
	add(x, " AND m.stat = ");
	lit(x, ms->stat);
	add(x, " AND m.value IS NOT NULL\n  GROUP BY m.run_id\n),\n");
	if (rm) {
		add(x, "-- a run without it (no JSON summary): its successful "
		    "requests over the span\n-- from the first start to the "
		    "last end\ne AS (\n  SELECT run_id, value FROM e0\n  "
		    "UNION ALL\n  SELECT s.run_id, CAST(count(*) AS DOUBLE) / "
		    "((max(s.t_us + s.value * 1e3) - min(s.t_us)) / 1e6) AS "
		    "value\n  FROM ");
		table(x, "samples");
		add(x, " s\n  LEFT JOIN e0 ON e0.run_id = s.run_id\n  WHERE "
		    "s.metric = ");
		lit(x, rm->name);
		add(x, " AND s.status = 'ok' AND s.value IS NOT NULL AND "
		    "s.t_us IS NOT NULL\n    AND e0.run_id IS NULL\n  GROUP "
		    "BY s.run_id\n  HAVING max(s.t_us + s.value * 1e3) > "
		    "min(s.t_us)\n),\n");
	} else {
		add(x, "e AS (\n  SELECT run_id, value FROM e0\n),\n");
	}
	add(x, "-- no tool-only trials: the summary is the value\nu AS (\n  "
	    "SELECT run_id, 0 AS ntool FROM e WHERE 1 = 0\n),\n-- the "
	    "trials: runs with the value, each n = 1, no failures\nt AS (\n"
	    "  SELECT ");
	run_keys(x);
	add(x, ",\n    r.trial, r.started_at, 1 AS n, 0 AS failures, 0 AS "
	    "tool_only, 0 AS timeouts\n  FROM ");
	table(x, "runs");
	add(x, " r\n  JOIN e ON e.run_id = r.run_id\n  WHERE 1 = 1");
	where_clause(x, "r");
	add(x, "\n),\n-- the values, with their cell\nv AS (\n  SELECT ");
	cell_keys(x, "t");
	add(x, ", t.run_id, e.value\n  FROM e\n  JOIN t ON t.run_id = "
	    "e.run_id\n),\n");
}

/* k: each run's samples of the metric; u: the tool's own statistics of
 * it; t: the trials (the metric's own runs, or runs with samples of it)
 * with their cell, successful samples and failures; v: the successful
 * values (base_ctes() adds c: the cells) */
static void
sample_ctes(struct q *x)
{
	size_t j;
	bool tool = x->trials || x->sumdef || !strcmp(x->verb, "trials");

	add(x, "WITH\n-- each run's samples of the metric: rows, and failed "
	    "ones (left out, as analyze does)\nk AS (\n  SELECT s.run_id, "
	    "count(*) AS nrows,\n    sum(CASE WHEN s.status = 'ok' AND "
	    "s.value IS NOT NULL THEN 0 ELSE 1 END) AS failed,\n    sum(CASE "
	    "WHEN s.status = 'timeout' THEN 1 ELSE 0 END) AS timeouts\n  FROM ");
	table(x, "samples");
	add(x, " s\n  WHERE ");
	metric_is(x, "s");
	where_clause(x, "s");
	add(x, "\n  GROUP BY s.run_id\n),\n-- the tool's own statistics: a "
	    "run without samples has only these\nu AS (\n  SELECT "
	    "m.run_id, count(*) AS ntool");
	for (j = 0; tool && j < x->nst; j++) {
		if (!*x->st[j].tool)
			continue;
		addf(x, ",\n    max(CASE WHEN m.stat = ");
		lit(x, x->st[j].tool);
		addf(x, " THEN m.value END) AS s%zu", j + 1);
		if (x->st[j].tool_p50)
			addf(x, ",\n    max(CASE WHEN m.stat = 'p50' THEN "
			    "m.value END) AS s%zu_p50", j + 1);
	}
	add(x, "\n  FROM ");
	table(x, "summaries");
	add(x, " m\n  WHERE ");
	metric_is(x, "m");
	add(x, " AND m.value IS NOT NULL");
	where_clause(x, "m");
	add(x, "\n  GROUP BY m.run_id\n),\n-- the trials: the metric's own "
	    "runs, and runs with samples of it\nt AS (\n  SELECT ");
	run_keys(x);
	add(x, ",\n    r.trial, r.started_at,\n    coalesce(k.nrows, 0) - "
	    "coalesce(k.failed, 0) AS n,\n    CASE WHEN ");
	metric_is(x, "r");
	add(x, " THEN r.failures ELSE coalesce(k.failed, 0) END AS "
	    "failures,\n    CASE WHEN coalesce(k.nrows, 0) - "
	    "coalesce(k.failed, 0) = 0 AND u.ntool > 0 THEN 1 ELSE 0 END "
	    "AS tool_only,\n    coalesce(k.timeouts, 0) AS timeouts\n  FROM ");
	table(x, "runs");
	add(x, " r\n  LEFT JOIN k ON k.run_id = r.run_id\n  LEFT JOIN u ON "
	    "u.run_id = r.run_id\n  WHERE (");
	metric_is(x, "r");
	add(x, " OR k.run_id IS NOT NULL)");
	where_clause(x, "r");
	add(x, "\n),\n-- the successful values, with their cell\nv AS (\n  "
	    "SELECT ");
	cell_keys(x, "t");
	add(x, ", t.run_id, s.value\n  FROM ");
	table(x, "samples");
	add(x, " s\n  JOIN t ON t.run_id = s.run_id\n  WHERE ");
	metric_is(x, "s");
	add(x, " AND s.status = 'ok' AND s.value IS NOT NULL");
	where_clause(x, "s");
	add(x, "\n),\n");
}

/* The runs, their values and the cells: end_ctes() or sample_ctes(),
 * then c. */
static void
base_ctes(struct q *x)
{
	size_t i;

	if (x->m->source == METRIC_FROM_SUMMARY && x->m->summary)
		end_ctes(x);
	else
		sample_ctes(x);
	add(x, "-- the cells: path, condition and --by keys\nc AS (\n  "
	    "SELECT ");
	cell_keys(x, "");
	add(x, ", count(*) AS trials, sum(n) AS n, sum(failures) AS "
	    "failures,\n    sum(CASE WHEN tool_only = 0 THEN timeouts ELSE 0 "
	    "END) AS timeouts,\n    sum(CASE WHEN n > 0 THEN 1 ELSE 0 END) AS "
	    "raw_trials, sum(tool_only) AS tool_trials");
	/* how many values of each tag a cell pools */
	for (i = 0; i < x->npk; i++)
		addf(x, "%scount(DISTINCT g%zu) AS ng%zu", i ? ", " :
		    ",\n    ", i + 1, i + 1);
	add(x, "\n  FROM t\n  GROUP BY ");
	cell_keys(x, "");
	add(x, "\n)");
}

/* pt: each trial's statistics; tt: with the tool's own numbers for a
 * trial without samples. */
static void
trial_ctes(struct q *x)
{
	size_t j;

	add(x, ",\n-- each trial's statistics\npt AS (\n  SELECT run_id");
	for (j = 0; j < x->nst; j++) {
		add(x, ",\n    ");
		agg_stat(x, &x->st[j].s, "value");
		addf(x, " AS s%zu", j + 1);
	}
	add(x, "\n  FROM v\n  GROUP BY run_id\n),\ntt AS (\n  SELECT ");
	cell_keys(x, "t");
	add(x, ", t.run_id, t.trial, t.started_at, t.n, t.timeouts");
	for (j = 0; j < x->nst; j++) {
		const struct qstat *s = &x->st[j];

		addf(x, ",\n    CASE WHEN t.n > 0 THEN pt.s%zu", j + 1);
		if (*s->tool && s->tool_p50)
			addf(x, " WHEN t.tool_only = 1 THEN coalesce("
			    "u.s%zu_p50, u.s%zu)", j + 1, j + 1);
		else if (*s->tool)
			addf(x, " WHEN t.tool_only = 1 THEN u.s%zu", j + 1);
		addf(x, " END AS s%zu", j + 1);
	}
	add(x, "\n  FROM t\n  LEFT JOIN pt ON pt.run_id = t.run_id\n  LEFT "
	    "JOIN u ON u.run_id = t.run_id\n)");
}

/*
 * Connect probes: does statistic s of all attempts, with the timeouts
 * sorted above the successes, read a timed-out one?  stats_censored()
 * in integer arithmetic on columns: succ successes, tmo timeouts.
 * Type 7: ceil((N - 1) num / den) >= succ, i.e. (N - 1) num > (succ -
 * 1) den; oha: its double index floor(p N) >= succ, i.e. p N >= succ.
 * (Harrell-Davis has no query form.)
 */
static void
censor_cond(struct q *x, const struct stats_name *s, const char *succ,
    const char *tmo)
{
	struct strbuf e = STRBUF_INIT;
	uint64_t num, den;

	addf(x, "CASE WHEN %s > 0", tmo);
	if (s->kind == STATS_NAME_MAX) {
		/* any timeout */
	} else if (s->kind == STATS_NAME_MIN) {
		addf(x, " AND %s = 0", succ);
	} else if (x->o->est == STATS_EST_OHA) {
		dbl(&e, s->pct / 100.0);
		addf(x, " AND %s * CAST(%s + %s AS DOUBLE) >= CAST(%s AS DOUBLE)",
		    e.buf, succ, tmo, succ);
	} else if (stats_pct_fraction(s->pct, &num, &den)) {
		addf(x, " AND CAST(%s + %s - 1 AS BIGINT) * %llu > CAST(%s - 1 "
		    "AS BIGINT) * %llu", succ, tmo, (unsigned long long)num, succ,
		    (unsigned long long)den);
	} else {
		dbl(&e, s->pct / 100.0);
		addf(x, " AND ceil(CAST(%s + %s - 1 AS DOUBLE) * %s) >= %s", succ,
		    tmo, e.buf, succ);
	}
	add(x, " THEN 1 ELSE 0 END");
	strbuf_release(&e);
}

/* Is statistic s flagged "≥ timeout" at all (connect: percentiles, max)? */
static bool
censorable(const struct q *x, const struct stats_name *s)
{
	return x->connect && (s->kind == STATS_NAME_PCT ||
	    s->kind == STATS_NAME_MAX);
}

/* cs: each cell's statistics under --pool (analyze's cell_compute()),
 * with the "≥ timeout" flags of connect probes: pooled over the cell,
 * or per trial (one censored trial censors the mean across trials). */
/* q: a cell whose trials are all the tool's summaries (no samples),
 * when --pool is not given: the mean of the trials' own statistics, as
 * analyze shows such a cell by default (per trial). */
static void
tool_cell_cte(struct q *x)
{
	size_t j;

	add(x, ",\n-- a cell with only the tool's summaries: per trial, the "
	    "mean of the tool's numbers\nq AS (\n  SELECT ");
	cell_keys(x, "t");
	for (j = 0; j < x->nst; j++) {
		const struct qstat *s = &x->st[j];

		if (!*s->tool)
			addf(x, ",\n    CAST(NULL AS DOUBLE) AS s%zu", j + 1);
		else if (s->tool_p50)
			addf(x, ",\n    avg(coalesce(u.s%zu_p50, u.s%zu)) AS "
			    "s%zu", j + 1, j + 1, j + 1);
		else
			addf(x, ",\n    avg(u.s%zu) AS s%zu", j + 1, j + 1);
	}
	add(x, "\n  FROM t\n  JOIN u ON u.run_id = t.run_id\n  WHERE "
	    "t.tool_only = 1\n  GROUP BY ");
	cell_keys(x, "t");
	add(x, "\n)");
}

static void
cell_stats(struct q *x)
{
	size_t j;
	struct strbuf e = STRBUF_INIT;

	if (x->trials) {
		trial_ctes(x);
		add(x, ",\n-- across trials: the mean, with median, min and "
		    "max\np AS (\n  SELECT ");
		cell_keys(x, "");
		for (j = 0; j < x->nst; j++) {
			strbuf_reset(&e);
			strbuf_addf(&e, "s%zu", j + 1);
			addf(x, ",\n    avg(s%zu) AS s%zu, ", j + 1, j + 1);
			agg_quantile(x, STATS_EST_TYPE7, e.buf, 50.0);
			addf(x, " AS s%zu_med, min(s%zu) AS s%zu_min, "
			    "max(s%zu) AS s%zu_max", j + 1, j + 1, j + 1,
			    j + 1, j + 1);
			if (censorable(x, &x->st[j].s)) {
				add(x, ",\n    max(");
				censor_cond(x, &x->st[j].s, "n", "timeouts");
				addf(x, ") AS ge%zu", j + 1);
			}
		}
		add(x, "\n  FROM tt\n  GROUP BY ");
		cell_keys(x, "");
		add(x, "\n)");
	} else {
		add(x, ",\n-- pooled: all successful samples of the cell "
		    "together\np AS (\n  SELECT ");
		cell_keys(x, "");
		for (j = 0; j < x->nst; j++) {
			add(x, ",\n    ");
			agg_stat(x, &x->st[j].s, "value");
			addf(x, " AS s%zu", j + 1);
		}
		add(x, "\n  FROM v\n  GROUP BY ");
		cell_keys(x, "");
		add(x, "\n)");
		if (x->sumdef)
			tool_cell_cte(x);
	}
	add(x, ",\ncs AS (\n  SELECT ");
	cell_keys(x, "c");
	add(x, ", c.trials, c.n, c.failures, c.timeouts, c.raw_trials, "
	    "c.tool_trials");
	for (j = 0; j < x->npk; j++)
		addf(x, ", c.ng%zu", j + 1);
	for (j = 0; j < x->nst; j++) {
		const struct stats_name *s = &x->st[j].s;

		if (s->kind == STATS_NAME_N)
			addf(x, ",\n    c.n AS s%zu", j + 1);
		else if (x->sumdef && !x->trials)
			addf(x, ",\n    CASE WHEN c.raw_trials = 0 AND "
			    "c.tool_trials > 0 THEN q.s%zu ELSE p.s%zu END AS "
			    "s%zu", j + 1, j + 1, j + 1);
		else
			addf(x, ",\n    p.s%zu", j + 1);
		if (x->trials && s->kind != STATS_NAME_N)
			addf(x, ", p.s%zu_med, p.s%zu_min, p.s%zu_max", j + 1,
			    j + 1, j + 1);
		/* connect probes: the estimator reads a timed-out
		 * attempt (censor_cond()) */
		if (!censorable(x, s)) {
			addf(x, ", 0 AS ge%zu", j + 1);
		} else if (x->trials) {
			addf(x, ", coalesce(p.ge%zu, 0) AS ge%zu", j + 1,
			    j + 1);
		} else {
			add(x, ",\n      ");
			censor_cond(x, s, "c.n", "c.timeouts");
			addf(x, " AS ge%zu", j + 1);
		}
	}
	add(x, "\n  FROM c\n  LEFT JOIN p ON ");
	cell_join(x, "p", "c", true, true);
	if (x->sumdef && !x->trials) {
		add(x, "\n  LEFT JOIN q ON ");
		cell_join(x, "q", "c", true, true);
	}
	add(x, "\n)\n");
	strbuf_release(&e);
}

/* ------------------------------------------------------------------
 * The verbs' final SELECTs
 */

static const char *
pool_name(const struct q *x)
{
	return x->trials ? "trials" : "pooled";
}

/* metric, estimator (with +tool / tool as analyze writes it when
 * per_cell), pool. */
static void
method_cols(struct q *x, const char *alias, bool per_cell)
{
	const char *est = stats_estimator_name(x->o->est);

	add(x, ",\n  ");
	lit(x, x->m->name);
	add(x, " AS ");
	ident(x, "metric");
	add(x, ",\n  ");
	if (per_cell && x->o->pool == STATS_POOL_PER_TRIAL) {
		addf(x, "CASE WHEN %s.tool_trials > 0 AND %s.raw_trials = 0 "
		    "THEN 'tool' WHEN %s.tool_trials > 0 THEN '%s+tool' ELSE "
		    "'%s' END", alias, alias, alias, est, est);
	} else if (per_cell) {
		/* pooled: the tool's trials are left out of a mixed cell,
		 * so its estimator is the one asked for (as analyze says) */
		addf(x, "CASE WHEN %s.tool_trials > 0 AND %s.raw_trials = 0 "
		    "THEN 'tool' ELSE '%s' END", alias, alias, est);
	} else {
		lit(x, est);
	}
	add(x, " AS ");
	ident(x, "estimator");
	add(x, ", ");
	/* analyze shows a cell of only the tool's summaries per trial
	 * when --pool is not given */
	if (per_cell && x->sumdef)
		addf(x, "CASE WHEN %s.tool_trials > 0 AND %s.raw_trials = 0 "
		    "THEN 'trials' ELSE 'pooled' END", alias, alias);
	else
		lit(x, pool_name(x));
	add(x, " AS ");
	ident(x, "pool");
}

/* An end-of-test metric's n counts runs: analyze's n_counts column. */
static void
n_counts_col(struct q *x)
{
	if (x->m->source != METRIC_FROM_SUMMARY)
		return;
	add(x, ", 'runs' AS ");
	ident(x, "n_counts");
}

static void
dim_cols(struct q *x, const char *a, const char *b)
{
	size_t i;

	for (i = 0; i < x->o->nby; i++) {
		if (b)
			addf(x, ", coalesce(%s.d%zu, %s.d%zu) AS ", a, i + 1,
			    b, i + 1);
		else
			addf(x, ", %s.d%zu AS ", a, i + 1);
		ident(x, x->o->by[i]);
	}
}

static void
percentiles_select(struct q *x)
{
	size_t j;
	struct strbuf name = STRBUF_INIT;

	add(x, "SELECT cs.path AS ");
	ident(x, "path");
	add(x, ", cs.condition AS ");
	ident(x, "condition");
	dim_cols(x, "cs", NULL);
	method_cols(x, "cs", true);
	n_counts_col(x);
	add(x, ",\n  cs.n AS ");
	ident(x, "n");
	add(x, ", cs.trials AS ");
	ident(x, "trials");
	add(x, ", cs.failures AS ");
	ident(x, "failures");
	if (x->connect) {
		add(x, ", cs.timeouts AS ");
		ident(x, "timeouts");
		add(x, ",\n  CASE WHEN cs.n + cs.failures > 0 THEN 100e0 * "
		    "CAST(cs.failures AS DOUBLE) / CAST(cs.n + cs.failures AS "
		    "DOUBLE) END AS ");
		ident(x, "loss_pct");
	}
	for (j = 0; j < x->nst; j++) {
		const struct qstat *s = &x->st[j];

		/* --stats ...,n is the n column itself (analyze's
		 * pct_columns()) */
		if (!s->shown || s->s.kind == STATS_NAME_N)
			continue;
		addf(x, ",\n  cs.s%zu AS ", j + 1);
		ident(x, s->label);
		if (x->connect && (s->s.kind == STATS_NAME_PCT ||
		    s->s.kind == STATS_NAME_MAX)) {
			strbuf_reset(&name);
			strbuf_addf(&name, "%s_ge_timeout", s->label);
			addf(x, ", cs.ge%zu AS ", j + 1);
			ident(x, name.buf);
		}
		if (x->trials && s->s.kind != STATS_NAME_N) {
			static const char *const sfx[] = { "med", "min",
			    "max" };
			static const char *const col[] = { "_median", "_min",
			    "_max" };
			size_t k;

			for (k = 0; k < 3; k++) {
				strbuf_reset(&name);
				strbuf_addf(&name, "%s%s", s->label, col[k]);
				addf(x, ", cs.s%zu_%s AS ", j + 1, sfx[k]);
				ident(x, name.buf);
			}
		}
	}
	/* the tags whose values differ among the cell's runs, ","-joined */
	if (x->npk) {
		add(x, ",\n  substr(");
		for (j = 0; j < x->npk; j++) {
			addf(x, "%sCASE WHEN cs.ng%zu > 1 THEN ", j ? " || " :
			    "", j + 1);
			strbuf_reset(&name);
			strbuf_addf(&name, ",%s", x->pkeys[j]);
			lit(x, name.buf);
			add(x, " ELSE '' END");
		}
		add(x, ", 2) AS ");
	} else {
		add(x, ",\n  '' AS ");
	}
	ident(x, "pooled_over");
	add(x, "\nFROM cs\nORDER BY ");
	path_order(x, "cs.path");
	add(x, ", cs.condition");
	dims_order(x, "cs", NULL);
	strbuf_release(&name);
}

/* Statistic j of a contrast a op b (NULL when a side is missing or is
 * "≥ timeout"). */
static void
contrast(struct q *x, size_t j, bool is_ratio)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (x->st[j].s.kind == STATS_NAME_N) {
		add(x, "CASE WHEN a.path IS NULL OR b.path IS NULL THEN NULL "
		    "ELSE ");
		if (is_ratio)
			ratio(x, "CAST(a.n AS DOUBLE)", "CAST(b.n AS DOUBLE)");
		else
			add(x, "CAST(a.n AS DOUBLE) - CAST(b.n AS DOUBLE)");
		add(x, " END");
		goto cleanup;
	}
	addf(x, "CASE WHEN a.ge%zu = 1 OR b.ge%zu = 1 THEN NULL ELSE ",
	    j + 1, j + 1);
	strbuf_addf(&a, "a.s%zu", j + 1);
	strbuf_addf(&b, "b.s%zu", j + 1);
	if (is_ratio)
		ratio(x, a.buf, b.buf);
	else
		addf(x, "%s - %s", a.buf, b.buf);
	add(x, " END");
cleanup:
	strbuf_release(&a);
	strbuf_release(&b);
}

/* Statistic j's "≥ timeout" flag of a contrast: a side has it (0 when
 * a side is missing, as analyze). */
static void
contrast_ge(struct q *x, size_t j)
{
	addf(x, "CASE WHEN a.ge%zu = 1 OR b.ge%zu = 1 THEN 1 ELSE 0 END",
	    j + 1, j + 1);
}

static void
contrast_cols(struct q *x, bool is_ratio)
{
	struct strbuf name = STRBUF_INIT;
	size_t j;

	for (j = 0; j < x->nst; j++) {
		if (!x->st[j].shown)
			continue;
		add(x, ",\n  ");
		contrast(x, j, is_ratio);
		add(x, " AS ");
		ident(x, x->st[j].label);
		if (censorable(x, &x->st[j].s)) {
			strbuf_reset(&name);
			strbuf_addf(&name, "%s_ge_timeout", x->st[j].label);
			add(x, ", ");
			contrast_ge(x, j);
			add(x, " AS ");
			ident(x, name.buf);
		}
	}
	strbuf_release(&name);
}

/* Split "G-G'" into two path IDs the database knows (IDs may hold
 * '-'), else at its one '-'.  The caller frees *a and *b. */
static int
split_pair(sqlite3 *db, const char *pair, char **a, char **b)
{
	sqlite3_stmt *st = NULL;
	const char *p;
	int rc, ret = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM paths WHERE name "
	    "IN (?1, ?2)", -1, &st, NULL) != SQLITE_OK)
		return error("read paths: %s", sqlite3_errmsg(db));
	for (p = strchr(pair, '-'); p; p = strchr(p + 1, '-')) {
		if (p == pair || !p[1])
			continue;
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, pair, (int)(p - pair),
		    SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, p + 1, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW && sqlite3_column_int(st, 0) ==
		    (strncmp(pair, p + 1, (size_t)(p - pair)) ||
		    strlen(p + 1) != (size_t)(p - pair) ? 2 : 1)) {
			*a = xstrndup(pair, (size_t)(p - pair));
			*b = xstrdup(p + 1);
			ret = 0;
			goto cleanup;
		}
	}
	p = strchr(pair, '-');
	if (!p || p == pair || !p[1] || strchr(p + 1, '-'))
		goto cleanup;
	*a = xstrndup(pair, (size_t)(p - pair));
	*b = xstrdup(p + 1);
	ret = 0;
cleanup:
	sqlite3_finalize(st);
	return ret;
}

/* Does a come before b in the tables' path order? */
static int
path_before(sqlite3 *db, const struct analyze_opts *o, const char *a,
    const char *b, bool *before)
{
	sqlite3_stmt *st = NULL;
	size_t i, ra = o->npaths, rb = o->npaths;

	if (o->npaths) {
		for (i = 0; i < o->npaths; i++) {
			if (!strcmp(o->paths[i], a) && ra == o->npaths)
				ra = i;
			if (!strcmp(o->paths[i], b) && rb == o->npaths)
				rb = i;
		}
		*before = ra <= rb;
		return 0;
	}
	if (sqlite3_prepare_v2(db, "SELECT ?1 <= ?2 COLLATE pathsort", -1,
	    &st, NULL) != SQLITE_OK)
		return error("compare paths: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, a, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, b, -1, SQLITE_TRANSIENT);
	*before = sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static int
delta_select(struct q *x, sqlite3 *db, int nargs, char **args)
{
	size_t i, g50 = x->nst - 2, g99 = x->nst - 1;
	int p, ret = 0;

	add(x, ",\ndelta AS (\n");
	for (p = 0; p < nargs; p++) {
		char *pa = NULL, *pb = NULL;
		bool a_first = true;

		if (split_pair(db, args[p], &pa, &pb)) {
			error("bad pair '%s': want MINUEND-SUBTRAHEND, e.g. "
			    "\"G-G'\"", args[p]);
			return -2;
		}
		if (path_before(db, x->o, pa, pb, &a_first)) {
			ret = -1;
			goto next;
		}
		if (p)
			add(x, "  UNION ALL\n");
		/* a path without cells: one row saying so, first */
		addf(x, "  SELECT %d AS o_pair, 0 AS o_side, '' AS o_cond", p);
		for (i = 0; i < x->o->nby; i++)
			addf(x, ", '' AS d%zu", i + 1);
		add(x, ",\n    ");
		lit(x, args[p]);
		add(x, " AS pair, ");
		lit(x, pa);
		add(x, " AS minuend, ");
		lit(x, pb);
		add(x, " AS subtrahend, '' AS condition");
		for (i = 0; i < x->o->nby; i++)
			addf(x, ", CAST(NULL AS %s) AS c_d%zu", x->d->t_text,
			    i + 1);
		addf(x, ",\n    CAST(NULL AS %s) AS metric, CAST(NULL AS %s) "
		    "AS estimator, CAST(NULL AS %s) AS pool", x->d->t_text,
		    x->d->t_text, x->d->t_text);
		for (i = 0; i < x->nst; i++)
			if (x->st[i].shown) {
				addf(x, ", CAST(NULL AS DOUBLE) AS s%zu",
				    i + 1);
				if (censorable(x, &x->st[i].s))
					addf(x, ", CAST(NULL AS BIGINT) AS "
					    "g%zu", i + 1);
			}
		add(x, ",\n    CAST(NULL AS DOUBLE) AS growth");
		if (x->connect)
			add(x, ", CAST(NULL AS BIGINT) AS gg");
		add(x, ", CAST(NULL AS BIGINT) AS n_a, CAST(NULL AS BIGINT) AS "
		    "n_b, CAST(NULL AS BIGINT) AS t_a, CAST(NULL AS BIGINT) AS "
		    "t_b\n  FROM cs\n"
		    "  HAVING sum(CASE WHEN cs.path = ");
		lit(x, pa);
		add(x, " THEN 1 ELSE 0 END) = 0 OR sum(CASE WHEN cs.path = ");
		lit(x, pb);
		add(x, " THEN 1 ELSE 0 END) = 0\n  UNION ALL\n");
		/* a row per condition and --by value either side has, in the
		 * order of the first path's cells, then the second's */
		addf(x, "  SELECT %d, CASE WHEN %s.path IS NOT NULL THEN 1 "
		    "ELSE 2 END, coalesce(a.condition, b.condition)", p,
		    a_first ? "a" : "b");
		for (i = 0; i < x->o->nby; i++)
			addf(x, ", coalesce(a.d%zu, b.d%zu)", i + 1, i + 1);
		add(x, ",\n    ");
		lit(x, args[p]);
		add(x, ", ");
		lit(x, pa);
		add(x, ", ");
		lit(x, pb);
		add(x, ", coalesce(a.condition, b.condition)");
		for (i = 0; i < x->o->nby; i++)
			addf(x, ", coalesce(a.d%zu, b.d%zu)", i + 1, i + 1);
		add(x, ",\n    ");
		lit(x, x->m->name);
		add(x, ", ");
		lit(x, stats_estimator_name(x->o->est));
		add(x, ", ");
		lit(x, pool_name(x));
		for (i = 0; i < x->nst; i++) {
			if (!x->st[i].shown)
				continue;
			add(x, ",\n    ");
			contrast(x, i, false);
			if (censorable(x, &x->st[i].s)) {
				add(x, ", ");
				contrast_ge(x, i);
			}
		}
		add(x, ",\n    ");
		{
			struct strbuf d99 = STRBUF_INIT, d50 = STRBUF_INIT;
			struct strbuf *sb = x->sb;

			x->sb = &d99;
			contrast(x, g99, false);
			x->sb = &d50;
			contrast(x, g50, false);
			x->sb = sb;
			ratio(x, d99.buf, d50.buf);
			strbuf_release(&d99);
			strbuf_release(&d50);
		}
		/* growth: Δp50 or Δp99 with a side "≥ timeout" */
		if (x->connect)
			addf(x, ", CASE WHEN a.ge%zu = 1 OR b.ge%zu = 1 OR a.ge%zu = 1 "
			    "OR b.ge%zu = 1 THEN 1 ELSE 0 END", g50 + 1,
			    g50 + 1, g99 + 1, g99 + 1);
		add(x, ",\n    a.n, b.n, a.trials, b.trials\n  FROM (SELECT * "
		    "FROM cs WHERE cs.path = ");
		lit(x, pa);
		add(x, ") a\n  FULL OUTER JOIN (SELECT * FROM cs WHERE cs.path "
		    "= ");
		lit(x, pb);
		add(x, ") b ON ");
		cell_join(x, "a", "b", false, true);
		add(x, "\n");
next:
		free(pa);
		free(pb);
		if (ret)
			return ret;
	}
	add(x, ")\nSELECT pair AS ");
	ident(x, "pair");
	add(x, ", minuend AS ");
	ident(x, "minuend");
	add(x, ", subtrahend AS ");
	ident(x, "subtrahend");
	add(x, ", condition AS ");
	ident(x, "condition");
	for (i = 0; i < x->o->nby; i++) {
		addf(x, ", c_d%zu AS ", i + 1);
		ident(x, x->o->by[i]);
	}
	add(x, ",\n  metric AS ");
	ident(x, "metric");
	add(x, ", estimator AS ");
	ident(x, "estimator");
	add(x, ", pool AS ");
	ident(x, "pool");
	for (i = 0; i < x->nst; i++) {
		struct strbuf name = STRBUF_INIT;

		if (!x->st[i].shown)
			continue;
		addf(x, ", s%zu AS ", i + 1);
		ident(x, x->st[i].label);
		if (censorable(x, &x->st[i].s)) {
			strbuf_addf(&name, "%s_ge_timeout", x->st[i].label);
			addf(x, ", g%zu AS ", i + 1);
			ident(x, name.buf);
		}
		strbuf_release(&name);
	}
	add(x, ",\n  growth AS ");
	ident(x, "growth");
	add(x, ", n_a AS ");
	ident(x, "n_minuend");
	add(x, ", n_b AS ");
	ident(x, "n_subtrahend");
	add(x, ", t_a AS ");
	ident(x, "trials_minuend");
	add(x, ", t_b AS ");
	ident(x, "trials_subtrahend");
	if (x->connect) {
		add(x, ", gg AS ");
		ident(x, "growth_ge_timeout");
	}
	add(x, "\nFROM delta\nORDER BY o_pair, o_side, o_cond");
	for (i = 0; i < x->o->nby; i++) {
		struct strbuf e = STRBUF_INIT;

		strbuf_addf(&e, "d%zu", i + 1);
		add(x, ", ");
		expand(x, x->d->natural, e.buf, NULL, NULL);
		strbuf_release(&e);
	}
	return 0;
}

/* The condition without key=value: ",k=v," taken out of ",cond,". */
static void
cond_without(struct q *x, const char *key, const char *value)
{
	struct strbuf item = STRBUF_INIT;

	strbuf_addf(&item, ",%s=%s,", key, value);
	add(x, "CASE WHEN cs.condition = ");
	strbuf_setlen(&item, item.len - 1);
	lit(x, item.buf + 1);
	add(x, " THEN '' ELSE substr(replace(',' || cs.condition || ',', ");
	strbuf_addch(&item, ',');
	lit(x, item.buf);
	add(x, ", ','), 2, length(cs.condition) - ");
	addf(x, "%zu) END", item.len - 1);
	strbuf_release(&item);
}

static void
ratio_side(struct q *x, const char *name, const char *value)
{
	struct strbuf item = STRBUF_INIT;

	addf(x, ",\n%s AS (\n  SELECT cs.*, ", name);
	cond_without(x, x->o->across, value);
	add(x, " AS rest\n  FROM cs\n  WHERE ");
	strbuf_addf(&item, ",%s=%s,", x->o->across, value);
	{
		struct strbuf needle = STRBUF_INIT;

		dialect_string(&needle, x->d, item.buf);
		expand(x, x->d->contains, "',' || cs.condition || ','",
		    needle.buf, NULL);
		strbuf_release(&needle);
	}
	add(x, "\n)");
	strbuf_release(&item);
}

static int
ratio_select(struct q *x, int nargs, char **args)
{
	const char *slash;
	char *num = NULL, *den = NULL;
	size_t i;

	if (!x->o->across || !kv_valid_key(x->o->across)) {
		error("ratio needs --across KEY (e.g. --across c 16/1, "
		    "--across ka off/on)");
		return -2;
	}
	if (nargs != 1 || !(slash = strchr(args[0], '/')) ||
	    slash == args[0] || !slash[1]) {
		error("ratio needs one NUM/DEN argument (e.g. 16/1 or off/on)");
		return -2;
	}
	num = xstrndup(args[0], (size_t)(slash - args[0]));
	den = xstrdup(slash + 1);
	ratio_side(x, "rn", num);
	ratio_side(x, "rd", den);
	add(x, "\nSELECT coalesce(a.path, b.path) AS ");
	ident(x, "path");
	add(x, ", coalesce(a.rest, b.rest) AS ");
	ident(x, "condition");
	dim_cols(x, "a", "b");
	method_cols(x, "a", false);
	add(x, ",\n  ");
	lit(x, x->o->across);
	add(x, " AS ");
	ident(x, "across");
	add(x, ", ");
	lit(x, num);
	add(x, " AS ");
	ident(x, "numerator");
	add(x, ", ");
	lit(x, den);
	add(x, " AS ");
	ident(x, "denominator");
	contrast_cols(x, true);
	add(x, ",\n  a.n AS ");
	ident(x, "n_numerator");
	add(x, ", b.n AS ");
	ident(x, "n_denominator");
	add(x, "\nFROM rn a\nFULL OUTER JOIN rd b ON a.path = b.path AND "
	    "a.rest = b.rest");
	for (i = 0; i < x->o->nby; i++)
		addf(x, " AND a.d%zu = b.d%zu", i + 1, i + 1);
	add(x, "\nORDER BY ");
	path_order(x, "coalesce(a.path, b.path)");
	add(x, ", coalesce(a.condition, b.condition)");
	dims_order(x, "a", "b");
	free(num);
	free(den);
	return 0;
}

/* The trials verb: each trial's statistic, their spread and outlier
 * trials (stats_spread()). */
static void
trials_select(struct q *x)
{
	size_t j;
	struct strbuf e = STRBUF_INIT, fmt = STRBUF_INIT, ord = STRBUF_INIT;
	struct unit_choice mu;

	trial_ctes(x);
	add(x, ",\n-- one row per trial and statistic\ntl AS (\n");
	for (j = 0; j < x->nst; j++) {
		addf(x, "  %sSELECT ", j ? "UNION ALL " : "");
		cell_keys(x, "");
		addf(x, ", %zu AS k, trial, started_at, run_id, s%zu AS x, "
		    "ln(CASE WHEN s%zu > 0 THEN s%zu END) AS lx", j + 1,
		    j + 1, j + 1, j + 1);
		/* connect probes: the trial's statistic "≥ timeout"
		 * (trial_censored()) */
		if (x->connect) {
			add(x, ", ");
			if (censorable(x, &x->st[j].s))
				censor_cond(x, &x->st[j].s, "n", "timeouts");
			else
				add(x, "0");
			add(x, " AS ge");
		}
		addf(x, "\n    FROM tt WHERE s%zu IS NOT NULL\n", j + 1);
	}
	add(x, "),\n-- the spread: mean, median, range; the median of the "
	    "logs for the robust z\nts AS (\n  SELECT ");
	cell_keys(x, "");
	add(x, ", k, count(*) AS nt, ");
	if (x->connect)
		add(x, "sum(ge) AS nge, ");
	add(x, "avg(x) AS mean,\n    ");
	agg_quantile(x, STATS_EST_TYPE7, "x", 50.0);
	add(x, " AS median,\n    min(x) AS mn, max(x) AS mx,\n    ");
	agg_quantile(x, STATS_EST_TYPE7, "lx", 50.0);
	add(x, " AS medlog\n  FROM tl\n  GROUP BY ");
	cell_keys(x, "");
	add(x, ", k\n),\n-- the median absolute deviation of the logs\n"
	    "tm AS (\n  SELECT ");
	cell_keys(x, "");
	add(x, ", k,\n    ");
	agg_quantile(x, STATS_EST_TYPE7, "dev", 50.0);
	add(x, " AS mad\n  FROM (SELECT ");
	cell_keys(x, "tl");
	add(x, ", tl.k, abs(tl.lx - ts.medlog) AS dev\n    FROM tl JOIN ts "
	    "ON ");
	cell_join(x, "tl", "ts", true, true);
	add(x, " AND tl.k = ts.k) d\n  GROUP BY ");
	cell_keys(x, "");
	add(x, ", k\n),\n-- each trial's outlier flag (stats_outlier_trials()): "
	    "2x or more from the\n-- median trial and beyond the robust z "
	    "calibrated for that many trials\ntf AS (\n  SELECT tl.*, "
	    "ts.mean, ts.nt,\n    CASE WHEN ts.nt < 3 OR ts.mn <= 0 THEN 0\n"
	    "      WHEN abs(tl.lx - ts.medlog) >= ");
	dbl(x->sb, log(STATS_OUTLIER_MIN_RATIO) * (1 - 1e-12));
	add(x, "\n        AND abs(tl.lx - ts.medlog) >= CASE ts.nt");
	for (size_t n = STATS_OUTLIER_CAL_MIN; n < STATS_OUTLIER_CAL_MAX; n++) {
		addf(x, " WHEN %zu THEN ", n);
		dbl(x->sb, stats_outlier_zcrit(n));
	}
	add(x, " ELSE ");
	dbl(x->sb, stats_outlier_zcrit(STATS_OUTLIER_CAL_MAX));
	add(x, " END * ");
	dbl(x->sb, 1.4826);
	add(x, " * tm.mad\n      THEN 1 ELSE 0 END AS outlier\n  FROM tl\n  JOIN ts ON ");
	cell_join(x, "tl", "ts", true, true);
	add(x, " AND tl.k = ts.k\n  JOIN tm ON ");
	cell_join(x, "tl", "tm", true, true);
	add(x, " AND tl.k = tm.k\n),\n-- the per-trial values as analyze "
	    "prints them, in trial order\ntv AS (\n  SELECT ");
	cell_keys(x, "");
	add(x, ", k,\n    ");
	dialect_expand(&ord, x->d->order3, "trial", "started_at", "run_id");
	/* the stored unit, as analyze's JSON and CSV (common/units.h) */
	units_machine(x->m, &mu);
	strbuf_addf(&fmt, "%%.%df", mu.decimals);
	strbuf_reset(&e);
	strbuf_addstr(&e, "x");
	if (mu.scale != 1.0) {
		strbuf_addstr(&e, " * ");
		dbl(&e, mu.scale);
	}
	{
		struct strbuf f = STRBUF_INIT;

		dialect_expand(&f, x->d->format, e.buf, fmt.buf, NULL);
		expand(x, x->d->join, f.buf, ord.buf, ", ");
		strbuf_release(&f);
	}
	/* a mean of 0: no deviation in percent (analyze's NaN) */
	add(x, " AS vals,\n    max(CASE WHEN mean = 0 THEN NULL ELSE 100e0 * "
	    "abs(x - mean) / abs(mean) END) AS dev,\n    ");
	strbuf_reset(&e);
	addf(x, "CASE WHEN sum(outlier) = 0 THEN '' ELSE ");
	strbuf_addf(&e, "CASE WHEN outlier = 1 THEN CAST(trial AS %s) END",
	    x->d->t_text);
	expand(x, x->d->join, e.buf, ord.buf, ",");
	add(x, " END AS outl");
	if (x->connect) {
		strbuf_reset(&e);
		strbuf_addf(&e, "CASE WHEN ge = 1 THEN CAST(trial AS %s) END",
		    x->d->t_text);
		add(x, ",\n    CASE WHEN sum(ge) = 0 THEN '' ELSE ");
		expand(x, x->d->join, e.buf, ord.buf, ",");
		add(x, " END AS getr");
	}
	add(x, "\n  FROM tf\n  GROUP BY ");
	cell_keys(x, "");
	add(x, ", k\n),\nks AS (\n");
	for (j = 0; j < x->nst; j++) {
		addf(x, "  %sSELECT %zu AS k, ", j ? "UNION ALL " : "", j + 1);
		lit(x, x->st[j].label);
		add(x, " AS stat\n");
	}
	add(x, ")\nSELECT c.path AS ");
	ident(x, "path");
	add(x, ", c.condition AS ");
	ident(x, "condition");
	dim_cols(x, "c", NULL);
	method_cols(x, "c", true);
	n_counts_col(x);
	add(x, ",\n  ks.stat AS ");
	ident(x, "stat");
	add(x, ", coalesce(ts.nt, 0) AS ");
	ident(x, "trials");
	add(x, ", coalesce(tv.vals, '') AS ");
	ident(x, "values");
	/* a trial "≥ timeout": no spread nor outlier test (analyze's
	 * trials_spread()) */
	{
		static const char *const col[] = { "ts.mean", "ts.median",
		    "ts.mn", "ts.mx", "tv.dev", "tv.outl" };
		static const char *const name[] = { "mean", "median", "min",
		    "max", "max_dev_pct", "outliers" };

		for (j = 0; j < ARRAY_SIZE(col); j++) {
			add(x, j == 0 ? ",\n  " : j == 5 ? ",\n  " : ", ");
			if (x->connect)
				addf(x, "CASE WHEN ts.nge = 0 THEN %s END",
				    col[j]);
			else
				add(x, col[j]);
			add(x, " AS ");
			ident(x, name[j]);
		}
	}
	add(x, ",\n  CASE WHEN ts.nt IS NULL THEN NULL ");
	if (x->connect)
		add(x, "WHEN ts.nge > 0 THEN 'none (trials ≥ timeout)' ");
	add(x, "WHEN ts.nt < 3 OR ts.mn <= 0 THEN 'none (< 3 trials)'\n    "
	    "WHEN tm.mad > 0 THEN '2x median and calibrated z' ELSE '2x "
	    "median (MAD 0)' END AS ");
	ident(x, "outlier_rule");
	if (x->connect) {
		add(x, ",\n  coalesce(tv.getr, '') AS ");
		ident(x, "ge_timeout_trials");
	}
	add(x, "\nFROM c\nCROSS JOIN ks\nLEFT JOIN ts ON ");
	cell_join(x, "ts", "c", true, true);
	add(x, " AND ts.k = ks.k\nLEFT JOIN tm ON ");
	cell_join(x, "tm", "c", true, true);
	add(x, " AND tm.k = ks.k\nLEFT JOIN tv ON ");
	cell_join(x, "tv", "c", true, true);
	add(x, " AND tv.k = ks.k\nORDER BY ");
	path_order(x, "c.path");
	add(x, ", c.condition");
	dims_order(x, "c", NULL);
	add(x, ", ks.k");
	strbuf_release(&e);
	strbuf_release(&fmt);
	strbuf_release(&ord);
}

/* ------------------------------------------------------------------
 * Entry
 */

bool
export_engine_known(const char *name)
{
	enum export_engine e;

	return export_engine_parse(name, &e) == 0;
}

bool
export_sql_verb(const char *verb)
{
	return !strcmp(verb, "percentiles") || !strcmp(verb, "delta") ||
	    !strcmp(verb, "ratio") || !strcmp(verb, "trials");
}

/* The statistics: the user's (trials: p50 and p99 unless --stats), and
 * for delta p50 and p99 for the growth. */
static void
set_stats(struct q *x)
{
	static char p50[] = "p50", p99[] = "p99";
	const struct analyze_opts *o = x->o;
	bool trials_verb = !strcmp(x->verb, "trials");
	size_t j;

	x->nst = 0;
	if (trials_verb && !o->stats_given && !o->stats_resolved) {
		x->st[0].s.kind = x->st[1].s.kind = STATS_NAME_PCT;
		x->st[0].s.pct = 50.0;
		x->st[1].s.pct = 99.0;
		x->st[0].label = p50;
		x->st[1].label = p99;
		x->nst = 2;
	} else {
		for (j = 0; j < o->nstats; j++) {
			x->st[j].s = o->stats[j];
			x->st[j].label = o->stat_names[j];
		}
		x->nst = o->nstats;
	}
	for (j = 0; j < x->nst; j++)
		x->st[j].shown = true;
	if (!strcmp(x->verb, "delta")) {
		x->st[x->nst].s.kind = x->st[x->nst + 1].s.kind =
		    STATS_NAME_PCT;
		x->st[x->nst].s.pct = 50.0;
		x->st[x->nst + 1].s.pct = 99.0;
		x->st[x->nst].label = p50;
		x->st[x->nst + 1].label = p99;
		x->nst += 2;
	}
	/* the tool summary's name of each (analyze: trials_values() for
	 * the trials verb, tool_stat_of() for --pool trials) */
	for (j = 0; j < x->nst; j++) {
		struct qstat *s = &x->st[j];

		s->tool[0] = '\0';
		s->tool_p50 = false;
		/* an end-of-test value has no tool statistics of its own */
		if (x->m->source == METRIC_FROM_SUMMARY)
			continue;
		if (trials_verb) {
			snprintf(s->tool, sizeof(s->tool), "%s", s->label);
			continue;
		}
		switch (s->s.kind) {
		case STATS_NAME_MIN:
			snprintf(s->tool, sizeof(s->tool), "min");
			break;
		case STATS_NAME_MAX:
			snprintf(s->tool, sizeof(s->tool), "max");
			break;
		case STATS_NAME_MEAN:
			snprintf(s->tool, sizeof(s->tool), "mean");
			break;
		case STATS_NAME_N:
			break;
		case STATS_NAME_PCT:
			if (s->label[0] == 'p')
				snprintf(s->tool, sizeof(s->tool), "%s",
				    s->label);
			else
				snprintf(s->tool, sizeof(s->tool), "p%g",
				    s->s.pct);
			/* tool_stat_of(): the summary's p50 first */
			s->tool_p50 = s->s.pct == 50.0 && strcmp(s->tool,
			    "p50");
			break;
		}
	}
}

/* The comment on top: the command, the engine, the method. */
static void
header(struct q *x, int nargs, char **args)
{
	char **argv;
	size_t argc, i;

	argv = analyze_opts_argv(x->o, x->verb, (size_t)nargs, args, &argc);
	add(x, "--");
	for (i = 0; i < argc; i++) {
		/* the command that prints the same table */
		if (!strcmp(argv[i], "--sql") && i + 1 < argc) {
			i++;
			continue;
		}
		add(x, " ");
		if (i && !strcmp(argv[i - 1], "--format"))
			add(x, "csv");
		else
			comment_text(x->sb, argv[i]);
	}
	analyze_argv_free(argv, argc);
	addf(x, "\n-- %s, over the tables of `pathstat export --ddl %s` "
	    "(schema %d):\n-- the same columns and rows as `pathstat analyze "
	    "... --format csv`.\n", x->d->name, x->o->sql,
	    EXPORT_SCHEMA_VERSION);
	if (x->o->est == STATS_EST_TYPE7 && x->d->type7)
		add(x, "-- type 7 percentiles: the engine's exact "
		    "interpolating aggregate.\n");
	else if (x->o->est == STATS_EST_TYPE7)
		add(x, "-- type 7 percentiles: sorted values, interpolated "
		    "(this engine has no exact\n-- percentile; "
		    "approx_percentile would not give analyze's numbers).\n");
	else
		add(x, "-- oha's percentiles: sorted[floor(p n)], no "
		    "interpolation.\n");
	if (!strcmp(x->verb, "trials") || x->trials)
		add(x, "-- Trials with the same number (several days pooled) "
		    "in the order they ran, as analyze\n-- lists them.\n");
}

int
export_sql_print(FILE *fp, sqlite3 *db, const char *verb,
    const struct analyze_opts *o, int nargs, char **args)
{
	struct q x;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	enum export_engine engine;
	size_t i;
	int ret = -1;

	memset(&x, 0, sizeof(x));
	x.sb = &sb;
	x.o = o;
	x.verb = verb;
	x.trials = o->pool == STATS_POOL_PER_TRIAL;
	x.sumdef = o->pool == STATS_POOL_POOLED &&
	    !(o->given & (1u << ANALYZE_OPT_POOL));
	if (!o->sql || export_engine_parse(o->sql, &engine)) {
		error("unknown engine '%s' (known: %s)", o->sql ? o->sql : "",
		    EXPORT_ENGINES);
		return -2;
	}
	x.d = export_dialect(engine);
	x.m = metric_by_name(o->metric);
	if (!x.m) {
		metric_names_join(&why, ", ");
		error("unknown metric '%s' (known: %s)", o->metric, why.buf);
		ret = -2;
		goto cleanup;
	}
	x.connect = x.m->timeout_bound;
	if (x.m->source == METRIC_FROM_SUMMARY)
		x.sumdef = false;
	if ((!strcmp(verb, "percentiles") || !strcmp(verb, "trials")) &&
	    nargs > 0) {
		error("%s takes no arguments (got '%s')", verb, args[0]);
		ret = -2;
		goto cleanup;
	}
	if (!strcmp(verb, "delta") && nargs < 1) {
		error("delta needs at least one PAIR, e.g. \"G-G'\" or H-B");
		ret = -2;
		goto cleanup;
	}
	if (export_model_load_keys(db, &x.model))
		goto cleanup;
	for (i = 0; i < o->where.n; i++) {
		strbuf_reset(&why);
		if (export_check_key(db, o->where.items[i].key, &why)) {
			error("bad --where: %s", why.buf);
			ret = -2;
			goto cleanup;
		}
	}
	x.dimcol = xcalloc(o->nby + 1, sizeof(*x.dimcol));
	for (i = 0; i < o->nby; i++) {
		strbuf_reset(&why);
		if (export_check_key(db, o->by[i], &why)) {
			error("bad --by: %s", why.buf);
			ret = -2;
			goto cleanup;
		}
		x.dimcol[i] = export_model_column(&x.model, o->by[i]);
		if (!x.dimcol[i] && !fixed_key(o->by[i])) {
			error("bad --by: no run has the key '%s'", o->by[i]);
			ret = -2;
			goto cleanup;
		}
	}
	if (!strcmp(verb, "percentiles")) {
		int nk = pooling_candidates(db, o->by, o->nby, &x.pkeys);

		if (nk < 0)
			goto cleanup;
		x.pcol = xcalloc((size_t)nk + 1, sizeof(*x.pcol));
		for (i = 0; i < (size_t)nk; i++) {
			x.pcol[x.npk] = export_model_column(&x.model,
			    x.pkeys[i]);
			if (!x.pcol[x.npk] && !fixed_key(x.pkeys[i])) {
				free(x.pkeys[i]);
				continue;
			}
			x.pkeys[x.npk++] = x.pkeys[i];
		}
	}
	set_stats(&x);
	header(&x, nargs, args);
	base_ctes(&x);
	if (!strcmp(verb, "trials")) {
		trials_select(&x);
	} else {
		cell_stats(&x);
		if (!strcmp(verb, "percentiles")) {
			percentiles_select(&x);
		} else if (!strcmp(verb, "delta")) {
			ret = delta_select(&x, db, nargs, args);
			if (ret)
				goto cleanup;
		} else {
			ret = ratio_select(&x, nargs, args);
			if (ret)
				goto cleanup;
		}
	}
	add(&x, ";\n");
	fputs(sb.buf, fp);
	ret = 0;
cleanup:
	for (i = 0; i < x.npk; i++)
		free(x.pkeys[i]);
	free(x.pkeys);
	free(x.pcol);
	export_model_release(&x.model);
	free(x.dimcol);
	strbuf_release(&sb);
	strbuf_release(&why);
	return ret;
}
