/*
 * sql_contrast.c - the final SELECTs of `analyze delta --sql` (pairs of
 * paths; growth is left to analyze) and `analyze ratio --sql` (across a
 * condition key).
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
			sql_ratio(x, "CAST(a.n AS DOUBLE)", "CAST(b.n AS DOUBLE)");
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
		sql_ratio(x, a.buf, b.buf);
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
		if (sql_censorable(x, &x->st[j].s)) {
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

/* delta's row for a pair with a path without cells, saying so (first
 * among the pair's rows). */
static void
delta_missing_row(struct q *x, int p, const char *pair, const char *pa,
    const char *pb)
{
	size_t i;

	addf(x, "  SELECT %d AS o_pair, 0 AS o_side, '' AS o_cond", p);
	for (i = 0; i < x->o->nby; i++)
		addf(x, ", '' AS d%zu", i + 1);
	add(x, ",\n    ");
	lit(x, pair);
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
			if (sql_censorable(x, &x->st[i].s))
				addf(x, ", CAST(NULL AS BIGINT) AS "
				    "g%zu", i + 1);
		}
	add(x, ",\n    CAST(NULL AS BIGINT) AS n_a, CAST(NULL AS BIGINT) AS "
	    "n_b, CAST(NULL AS BIGINT) AS t_a, CAST(NULL AS BIGINT) AS "
	    "t_b\n  FROM cs\n"
	    "  HAVING sum(CASE WHEN cs.path = ");
	lit(x, pa);
	add(x, " THEN 1 ELSE 0 END) = 0 OR sum(CASE WHEN cs.path = ");
	lit(x, pb);
	add(x, " THEN 1 ELSE 0 END) = 0\n");
}

/* delta's rows for pair p (pa - pb): a row per condition and --by value
 * either side has, in the order of the first path's cells, then the
 * second's. */
static void
delta_pair_rows(struct q *x, int p, const char *pair, const char *pa,
    const char *pb, bool a_first)
{
	size_t i;

	addf(x, "  SELECT %d, CASE WHEN %s.path IS NOT NULL THEN 1 "
	    "ELSE 2 END, coalesce(a.condition, b.condition)", p,
	    a_first ? "a" : "b");
	for (i = 0; i < x->o->nby; i++)
		addf(x, ", coalesce(a.d%zu, b.d%zu)", i + 1, i + 1);
	add(x, ",\n    ");
	lit(x, pair);
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
	lit(x, sql_pool_name(x));
	for (i = 0; i < x->nst; i++) {
		if (!x->st[i].shown)
			continue;
		add(x, ",\n    ");
		contrast(x, i, false);
		if (sql_censorable(x, &x->st[i].s)) {
			add(x, ", ");
			contrast_ge(x, i);
		}
	}
	add(x, ",\n    a.n, b.n, a.trials, b.trials\n  FROM (SELECT * "
	    "FROM cs WHERE cs.path = ");
	lit(x, pa);
	add(x, ") a\n  FULL OUTER JOIN (SELECT * FROM cs WHERE cs.path "
	    "= ");
	lit(x, pb);
	add(x, ") b ON ");
	sql_cell_join(x, "a", "b", false, true);
	add(x, "\n");
}

/* delta's table from the CTE delta, in analyze's columns and order. */
static void
delta_outer(struct q *x)
{
	size_t i;

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
		if (sql_censorable(x, &x->st[i].s)) {
			strbuf_addf(&name, "%s_ge_timeout", x->st[i].label);
			addf(x, ", g%zu AS ", i + 1);
			ident(x, name.buf);
		}
		strbuf_release(&name);
	}
	add(x, ",\n  n_a AS ");
	ident(x, "n_minuend");
	add(x, ", n_b AS ");
	ident(x, "n_subtrahend");
	add(x, ", t_a AS ");
	ident(x, "trials_minuend");
	add(x, ", t_b AS ");
	ident(x, "trials_subtrahend");
	add(x, "\nFROM delta\nORDER BY o_pair, o_side, o_cond");
	for (i = 0; i < x->o->nby; i++) {
		struct strbuf e = STRBUF_INIT;

		strbuf_addf(&e, "d%zu", i + 1);
		add(x, ", ");
		expand(x, x->d->natural, e.buf, NULL, NULL);
		strbuf_release(&e);
	}
}

int
sql_delta_select(struct q *x, sqlite3 *db, int nargs, char **args)
{
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
		delta_missing_row(x, p, args[p], pa, pb);
		add(x, "  UNION ALL\n");
		delta_pair_rows(x, p, args[p], pa, pb, a_first);
next:
		free(pa);
		free(pb);
		if (ret)
			return ret;
	}
	delta_outer(x);
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

int
sql_ratio_select(struct q *x, int nargs, char **args)
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
	sql_dim_cols(x, "a", "b");
	sql_method_cols(x, "a", false);
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
	sql_path_order(x, "coalesce(a.path, b.path)");
	add(x, ", coalesce(a.condition, b.condition)");
	sql_dims_order(x, "a", "b");
	free(num);
	free(den);
	return 0;
}
