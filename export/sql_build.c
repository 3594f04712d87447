/*
 * sql_build.c - the pieces every `analyze --sql` query shares: keys
 * (--where, --by, --paths), the statistics of a group, the CTEs of runs,
 * samples, trials and cells (analyze/cells.c's reading of the tables)
 * and the columns every table has.
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
#include "export/sql_internal.h"
#include "stats/verdict.h"

/* ------------------------------------------------------------------
 * Small spellings
 */

/* A double literal with the very bits of v: exponent form is a DOUBLE
 * in all four engines (a plain 0.99 is a DECIMAL in some). */
void
sql_dbl(struct strbuf *sb, double v)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_add_double(&t, v);
	strbuf_addstr(sb, t.buf);
	if (!strchr(t.buf, 'e') && !strchr(t.buf, 'E'))
		strbuf_addstr(sb, "e0");
	strbuf_release(&t);
}

/* Text safe inside a "--" comment: no line breaks or control bytes. */
void
sql_comment_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addch(sb, (unsigned char)*s < 0x20 || *s == 0x7f ?
		    '?' : *s);
}

/* ------------------------------------------------------------------
 * Keys: --where, --by, --paths
 */

bool
sql_fixed_key(const char *key)
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
	} else if (sql_fixed_key(key)) {
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
			    sql_fixed_key(key) || !strcmp(key, "trial"))) {
				range_clause(x, alias, col && !sql_fixed_key(key) &&
				    strcmp(key, "trial") ? col : key, key, v);
			} else if (!strcmp(key, "trial")) {
				/* as stored: an integer */
				if (parse_int64(v, &trial))
					add(x, "1 = 0");
				else
					addf(x, "%s.trial = %lld", alias,
					    (long long)trial);
			} else if (sql_fixed_key(key)) {
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
void
sql_cell_keys(struct q *x, const char *alias)
{
	size_t i;
	const char *dot = *alias ? "." : "";

	addf(x, "%s%spath, %s%scondition", alias, dot, alias, dot);
	for (i = 0; i < x->o->nby; i++)
		addf(x, ", %s%sd%zu", alias, dot, i + 1);
}

/* a.path = b.path AND ... over the cell's keys (cond: whether
 * condition takes part). */
void
sql_cell_join(struct q *x, const char *a, const char *b, bool path, bool cond)
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
void
sql_path_order(struct q *x, const char *expr)
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
void
sql_dims_order(struct q *x, const char *a, const char *b)
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
void
sql_agg_quantile(struct q *x, enum stats_estimator est, const char *expr,
    double pct)
{
	struct strbuf arr = STRBUF_INIT, p = STRBUF_INIT, n = STRBUF_INIT,
	    h = STRBUF_INIT, i = STRBUF_INIT, e = STRBUF_INIT;
	const struct dialect *d = x->d;

	sql_dbl(&p, pct / 100.0);
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
void
sql_agg_stat(struct q *x, const struct stats_name *s, const char *expr)
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
	sql_agg_quantile(x, x->o->est, expr, s->pct);
}

/* Does a group's SELECT take all its percentiles from one aggregate
 * (the dialect's type7_list)?  Type 7 with two or more percentiles. */
bool
sql_type7_list(const struct q *x)
{
	size_t j, npct = 0;

	if (x->o->est != STATS_EST_TYPE7 || !x->d->type7_list)
		return false;
	for (j = 0; j < x->nst; j++)
		if (x->st[j].s.kind == STATS_NAME_PCT)
			npct++;
	return npct >= 2;
}

/* The position (1-based) of statistic j's fraction among the distinct
 * fractions of x's percentiles, in their first order. */
static size_t
list_index(const struct q *x, size_t j)
{
	size_t i, k = 0;

	for (i = 0; i < x->nst; i++) {
		const struct stats_name *s = &x->st[i].s;
		size_t m;

		if (s->kind != STATS_NAME_PCT)
			continue;
		for (m = 0; m < i; m++)
			if (x->st[m].s.kind == STATS_NAME_PCT &&
			    x->st[m].s.pct == s->pct)
				break;
		if (m == i)
			k++;	/* first of its fraction */
		if (s->pct == x->st[j].s.pct)
			return k;
	}
	BUG("statistic %zu is not a percentile", j);
}

/*
 * The body of a CTE of x's statistics s1, s2, ... of each group of v
 * by keys (a list of v's columns), from "  SELECT" to the GROUP BY
 * without a line break.  With sql_type7_list(), a subquery takes all
 * the percentiles from one aggregate over the array of their distinct
 * fractions (pa) and the SELECT around it picks each from pa.
 */
static void
group_stats(struct q *x, const char *keys)
{
	struct strbuf fr = STRBUF_INIT, ix = STRBUF_INIT;
	size_t j, nfr = 0;
	bool list = sql_type7_list(x);

	addf(x, "  SELECT %s", keys);
	for (j = 0; j < x->nst; j++) {
		add(x, ",\n    ");
		if (!list) {
			sql_agg_stat(x, &x->st[j].s, "value");
			addf(x, " AS s%zu", j + 1);
		} else if (x->st[j].s.kind == STATS_NAME_PCT) {
			strbuf_reset(&ix);
			strbuf_addf(&ix, "%zu", list_index(x, j));
			expand(x, x->d->element, "pa", ix.buf, NULL);
			addf(x, " AS s%zu", j + 1);
		} else {
			addf(x, "s%zu", j + 1);
		}
	}
	if (!list) {
		addf(x, "\n  FROM v\n  GROUP BY %s", keys);
		goto cleanup;
	}
	/* the distinct fractions, in the order list_index() counts */
	for (j = 0; j < x->nst; j++) {
		if (x->st[j].s.kind != STATS_NAME_PCT ||
		    list_index(x, j) <= nfr)
			continue;
		if (nfr++)
			strbuf_addstr(&fr, ", ");
		sql_dbl(&fr, x->st[j].s.pct / 100.0);
	}
	addf(x, "\n  FROM (\n    SELECT %s,\n      ", keys);
	expand(x, x->d->type7_list, "value", fr.buf, NULL);
	add(x, " AS pa");
	for (j = 0; j < x->nst; j++) {
		if (x->st[j].s.kind == STATS_NAME_PCT)
			continue;
		add(x, ",\n      ");
		sql_agg_stat(x, &x->st[j].s, "value");
		addf(x, " AS s%zu", j + 1);
	}
	addf(x, "\n    FROM v\n    GROUP BY %s\n  ) a", keys);
cleanup:
	strbuf_release(&fr);
	strbuf_release(&ix);
}

/* NULL-safe a / b (no engine's own rule for a zero divisor). */
void
sql_ratio(struct q *x, const char *a, const char *b)
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
 * columns as sql_base_ctes(), so every verb reads them alike.
 */
static void
end_ctes(struct q *x)
{
	const struct metric_summary *ms = x->m->summary;
	const struct metric *rm = ms->rate_of ? metric_by_id(ms->rate_of) :
	    NULL;

	add(x, "WITH\n-- each run's end-of-test value: ");
	sql_comment_text(x->sb, ms->what);
	add(x, "\ne0 AS (\n  SELECT m.run_id, max(m.value) * ");
	sql_dbl(x->sb, ms->scale);
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
	sql_cell_keys(x, "t");
	add(x, ", t.run_id, e.value\n  FROM e\n  JOIN t ON t.run_id = "
	    "e.run_id\n),\n");
}

/* k: each run's samples of the metric; u: the tool's own statistics of
 * it; t: the trials (the metric's own runs, or runs with samples of it)
 * with their cell, successful samples and failures; v: the successful
 * values (sql_base_ctes() adds c: the cells) */
static void
sample_ctes(struct q *x)
{
	size_t j;
	/* the tool's own numbers of each statistic: for a trial of them
	 * alone (per trial, trials, compare's trial counts) */
	bool tool = x->trials || x->sumdef || !strcmp(x->verb, "trials") ||
	    !strcmp(x->verb, "compare");

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
	sql_cell_keys(x, "t");
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
void
sql_base_ctes(struct q *x)
{
	size_t i;

	if (x->m->source == METRIC_FROM_SUMMARY && x->m->summary)
		end_ctes(x);
	else
		sample_ctes(x);
	add(x, "-- the cells: path, condition and --by keys\nc AS (\n  "
	    "SELECT ");
	sql_cell_keys(x, "");
	add(x, ", count(*) AS trials, sum(n) AS n, sum(failures) AS "
	    "failures,\n    sum(CASE WHEN tool_only = 0 THEN timeouts ELSE 0 "
	    "END) AS timeouts,\n    sum(CASE WHEN n > 0 THEN 1 ELSE 0 END) AS "
	    "raw_trials, sum(tool_only) AS tool_trials");
	/* how many values of each tag a cell pools */
	for (i = 0; i < x->npk; i++)
		addf(x, "%scount(DISTINCT g%zu) AS ng%zu", i ? ", " :
		    ",\n    ", i + 1, i + 1);
	/* compare: the one value of each tag a cell does not pool */
	for (i = 0; i < x->npk && !strcmp(x->verb, "compare"); i++)
		addf(x, ", min(g%zu) AS gv%zu", i + 1, i + 1);
	add(x, "\n  FROM t\n  GROUP BY ");
	sql_cell_keys(x, "");
	add(x, "\n)");
}

/* pt: each trial's statistics; tt: with the tool's own numbers for a
 * trial without samples. */
void
sql_trial_ctes(struct q *x)
{
	size_t j;

	add(x, ",\n-- each trial's statistics\npt AS (\n");
	group_stats(x, "run_id");
	add(x, "\n),\ntt AS (\n  SELECT ");
	sql_cell_keys(x, "t");
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
void
sql_censor_cond(struct q *x, const struct stats_name *s, const char *succ,
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
		sql_dbl(&e, s->pct / 100.0);
		addf(x, " AND %s * CAST(%s + %s AS DOUBLE) >= CAST(%s AS DOUBLE)",
		    e.buf, succ, tmo, succ);
	} else if (stats_pct_fraction(s->pct, &num, &den)) {
		addf(x, " AND CAST(%s + %s - 1 AS BIGINT) * %llu > CAST(%s - 1 "
		    "AS BIGINT) * %llu", succ, tmo, (unsigned long long)num, succ,
		    (unsigned long long)den);
	} else {
		sql_dbl(&e, s->pct / 100.0);
		addf(x, " AND ceil(CAST(%s + %s - 1 AS DOUBLE) * %s) >= %s", succ,
		    tmo, e.buf, succ);
	}
	add(x, " THEN 1 ELSE 0 END");
	strbuf_release(&e);
}

/* Is statistic s flagged "≥ timeout" at all (connect: percentiles, max)? */
bool
sql_censorable(const struct q *x, const struct stats_name *s)
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
	sql_cell_keys(x, "t");
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
	sql_cell_keys(x, "t");
	add(x, "\n)");
}

void
sql_cell_stats(struct q *x)
{
	size_t j;
	struct strbuf e = STRBUF_INIT;

	if (x->trials) {
		sql_trial_ctes(x);
		add(x, ",\n-- across trials: the mean, with median, min and "
		    "max\np AS (\n  SELECT ");
		sql_cell_keys(x, "");
		for (j = 0; j < x->nst; j++) {
			strbuf_reset(&e);
			strbuf_addf(&e, "s%zu", j + 1);
			addf(x, ",\n    avg(s%zu) AS s%zu, ", j + 1, j + 1);
			sql_agg_quantile(x, STATS_EST_TYPE7, e.buf, 50.0);
			addf(x, " AS s%zu_med, min(s%zu) AS s%zu_min, "
			    "max(s%zu) AS s%zu_max", j + 1, j + 1, j + 1,
			    j + 1, j + 1);
			if (sql_censorable(x, &x->st[j].s)) {
				add(x, ",\n    max(");
				sql_censor_cond(x, &x->st[j].s, "n", "timeouts");
				addf(x, ") AS ge%zu", j + 1);
			}
		}
		add(x, "\n  FROM tt\n  GROUP BY ");
		sql_cell_keys(x, "");
		add(x, "\n)");
	} else {
		struct strbuf *sb = x->sb;

		/* the cell's keys as text, for group_stats() */
		x->sb = &e;
		sql_cell_keys(x, "");
		x->sb = sb;
		add(x, ",\n-- pooled: all successful samples of the cell "
		    "together\np AS (\n");
		group_stats(x, e.buf);
		add(x, "\n)");
		if (x->sumdef)
			tool_cell_cte(x);
	}
	add(x, ",\ncs AS (\n  SELECT ");
	sql_cell_keys(x, "c");
	add(x, ", c.trials, c.n, c.failures, c.timeouts, c.raw_trials, "
	    "c.tool_trials");
	for (j = 0; j < x->npk; j++)
		addf(x, ", c.ng%zu", j + 1);
	for (j = 0; j < x->npk && !strcmp(x->verb, "compare"); j++)
		addf(x, ", c.gv%zu", j + 1);
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
		 * attempt (sql_censor_cond()) */
		if (!sql_censorable(x, s)) {
			addf(x, ", 0 AS ge%zu", j + 1);
		} else if (x->trials) {
			addf(x, ", coalesce(p.ge%zu, 0) AS ge%zu", j + 1,
			    j + 1);
		} else {
			add(x, ",\n      ");
			sql_censor_cond(x, s, "c.n", "c.timeouts");
			addf(x, " AS ge%zu", j + 1);
		}
	}
	add(x, "\n  FROM c\n  LEFT JOIN p ON ");
	sql_cell_join(x, "p", "c", true, true);
	if (x->sumdef && !x->trials) {
		add(x, "\n  LEFT JOIN q ON ");
		sql_cell_join(x, "q", "c", true, true);
	}
	add(x, "\n)\n");
	strbuf_release(&e);
}

/* ------------------------------------------------------------------
 * The verbs' final SELECTs
 */

const char *
sql_pool_name(const struct q *x)
{
	return x->trials ? "trials" : "pooled";
}

/* metric, estimator (with +tool / tool as analyze writes it when
 * per_cell), pool. */
void
sql_method_cols(struct q *x, const char *alias, bool per_cell)
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
		lit(x, sql_pool_name(x));
	add(x, " AS ");
	ident(x, "pool");
}

/* An end-of-test metric's n counts runs: analyze's n_counts column. */
void
sql_n_counts_col(struct q *x)
{
	if (x->m->source != METRIC_FROM_SUMMARY)
		return;
	add(x, ", 'runs' AS ");
	ident(x, "n_counts");
}

void
sql_dim_cols(struct q *x, const char *a, const char *b)
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
