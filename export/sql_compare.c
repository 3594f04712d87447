/*
 * sql_compare.c - the final SELECT of `analyze compare --by KEY --sql`:
 * each value of KEY (the last --by key) set against the baseline
 * (--baseline, else the least value in the whole table, as
 * analyze/compare.c picks it), per path, condition and other --by
 * keys, one row per statistic (n is none): both statistics, their
 * difference and ratio, the trials with a value of it on either side
 * and the other keys in which the two cells differ (also_differ).  The
 * columns with no exact query form (the intervals, the test, the adjusted p,
 * the verdict) are analyze's alone: the query's header says so.
 */
#include "common/compat.h"

#include <stdio.h>
#include <string.h>

#include "common/strbuf.h"
#include "export/internal.h"
#include "export/sql_internal.h"

/* The compared key's column: the last --by key's. */
static void
key_col(struct q *x, const char *alias)
{
	addf(x, "%s.d%zu", alias, x->o->nby);
}

/* nt: how many trials of each cell have a value of each statistic
 * (analyze's trial_values(): the trial's own samples, else the tool's
 * number); bl: the baseline value; ks: the statistics compared. */
static void
compare_ctes(struct q *x)
{
	size_t j, k = 0;

	/* per trial: already there with --pool trials (sql_cell_stats()) */
	if (!x->trials)
		sql_trial_ctes(x);
	add(x, ",\n-- the trials with a value of each statistic, per cell\n"
	    "nt AS (\n  SELECT ");
	sql_cell_keys(x, "");
	for (j = 0; j < x->nst; j++)
		addf(x, ", count(s%zu) AS nt%zu", j + 1, j + 1);
	add(x, "\n  FROM tt\n  GROUP BY ");
	sql_cell_keys(x, "");
	add(x, "\n),\n-- the baseline: ");
	if (x->o->baseline) {
		add(x, "--baseline\nbl AS (\n  SELECT ");
		lit(x, x->o->baseline);
		add(x, " AS v\n");
	} else {
		add(x, "the least value of the table (one for all rows)\n"
		    "bl AS (\n  SELECT min(");
		key_col(x, "cs");
		add(x, ") AS v FROM cs\n");
	}
	add(x, "),\n-- the statistics compared (n is not one)\nks AS (\n");
	for (j = 0; j < x->nst; j++) {
		if (x->st[j].s.kind == STATS_NAME_N)
			continue;
		addf(x, "  %sSELECT %zu AS k, ", k++ ? "UNION ALL " : "",
		    j + 1);
		lit(x, x->st[j].label);
		add(x, " AS stat\n");
	}
	if (!k)
		add(x, "  SELECT 0 AS k, '' AS stat FROM bl WHERE 1 = 0\n");
	add(x, ")\n");
}

/* Is a statistic other than n compared (else the query has no rows,
 * and its columns are NULLs of their type)? */
static bool
any_compared(const struct q *x)
{
	size_t j;

	for (j = 0; j < x->nst; j++)
		if (x->st[j].s.kind != STATS_NAME_N)
			return true;
	return false;
}

/* CASE ks.k WHEN j THEN <tmpl, $1 the statistic's number> ... END: the
 * column of the row's statistic. */
static void
by_stat(struct q *x, const char *tmpl)
{
	char num[24];
	size_t j;

	if (!any_compared(x)) {
		add(x, "CAST(NULL AS DOUBLE)");
		return;
	}
	add(x, "CASE ks.k");
	for (j = 0; j < x->nst; j++) {
		if (x->st[j].s.kind == STATS_NAME_N)
			continue;
		snprintf(num, sizeof(num), "%zu", j + 1);
		addf(x, " WHEN %s THEN ", num);
		expand(x, tmpl, num, NULL, NULL);
	}
	add(x, " END");
}

/* The statistic of the row's cells: value over baseline as a
 * difference or a ratio, none when a side is "≥ timeout". */
static void
compare_contrast(struct q *x, bool is_ratio)
{
	size_t j;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (!any_compared(x)) {
		add(x, "CAST(NULL AS DOUBLE)");
		return;
	}
	add(x, "CASE ks.k");
	for (j = 0; j < x->nst; j++) {
		if (x->st[j].s.kind == STATS_NAME_N)
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		strbuf_addf(&a, "c.s%zu", j + 1);
		strbuf_addf(&b, "b.s%zu", j + 1);
		addf(x, " WHEN %zu THEN CASE WHEN b.ge%zu = 1 OR c.ge%zu = 1 "
		    "THEN NULL ELSE ", j + 1, j + 1, j + 1);
		if (is_ratio)
			sql_ratio(x, a.buf, b.buf);
		else
			addf(x, "%s - %s", a.buf, b.buf);
		add(x, " END");
	}
	add(x, " END");
	strbuf_release(&a);
	strbuf_release(&b);
}

/* also_differ: "k: a vs b; ..." for each tag (in name order) of which
 * each cell has one value and the two differ (analyze's
 * compare_confounds(); "(none)" for a run without it). */
static void
also_differ(struct q *x)
{
	size_t j;

	if (!x->npk) {
		add(x, "''");
		return;
	}
	add(x, "substr(");
	for (j = 0; j < x->npk; j++) {
		struct strbuf k = STRBUF_INIT;

		strbuf_addf(&k, "; %s: ", x->pkeys[j]);
		addf(x, "%sCASE WHEN b.ng%zu = 1 AND c.ng%zu = 1 AND b.gv%zu <> "
		    "c.gv%zu THEN ", j ? " || " : "", j + 1, j + 1, j + 1, j + 1);
		lit(x, k.buf);
		addf(x, " || CASE WHEN b.gv%zu = '' THEN '(none)' ELSE b.gv%zu "
		    "END || ' vs ' || CASE WHEN c.gv%zu = '' THEN '(none)' ELSE "
		    "c.gv%zu END ELSE '' END", j + 1, j + 1, j + 1, j + 1);
		strbuf_release(&k);
	}
	add(x, ", 3)");
}

static void
as(struct q *x, const char *name)
{
	add(x, " AS ");
	ident(x, name);
}

void
sql_compare_select(struct q *x)
{
	size_t i, nby = x->o->nby;

	compare_ctes(x);
	add(x, "SELECT c.path AS ");
	ident(x, "path");
	add(x, ", c.condition AS ");
	ident(x, "condition");
	for (i = 0; i + 1 < nby; i++) {
		addf(x, ", c.d%zu", i + 1);
		as(x, x->o->by[i]);
	}
	sql_method_cols(x, "c", true);
	add(x, ",\n  ");
	lit(x, x->o->by[nby - 1]);
	as(x, "by");
	add(x, ", b.");
	addf(x, "d%zu", nby);
	as(x, "baseline");
	add(x, ", ");
	key_col(x, "c");
	as(x, "value");
	add(x, ", ks.stat");
	as(x, "stat");
	add(x, ",\n  ");
	by_stat(x, "CASE WHEN b.ge$1 = 1 THEN NULL ELSE b.s$1 END");
	as(x, "baseline_stat");
	add(x, ",\n  ");
	by_stat(x, "CASE WHEN c.ge$1 = 1 THEN NULL ELSE c.s$1 END");
	as(x, "value_stat");
	add(x, ",\n  ");
	compare_contrast(x, false);
	as(x, "diff");
	add(x, ",\n  ");
	compare_contrast(x, true);
	as(x, "ratio");
	add(x, ",\n  ");
	by_stat(x, "coalesce(nb.nt$1, 0)");
	as(x, "trials_baseline");
	add(x, ", ");
	by_stat(x, "coalesce(nc.nt$1, 0)");
	as(x, "trials_value");
	if (x->connect) {
		add(x, ",\n  ");
		by_stat(x, "b.ge$1");
		as(x, "baseline_ge_timeout");
		add(x, ", ");
		by_stat(x, "c.ge$1");
		as(x, "value_ge_timeout");
	}
	add(x, ",\n  ");
	also_differ(x);
	as(x, "also_differ");
	add(x, "\nFROM cs c\nCROSS JOIN bl\nJOIN cs b ON b.path = c.path AND "
	    "b.condition = c.condition");
	for (i = 0; i + 1 < nby; i++)
		addf(x, " AND b.d%zu = c.d%zu", i + 1, i + 1);
	addf(x, " AND b.d%zu = bl.v\nCROSS JOIN ks\nLEFT JOIN nt nb ON ", nby);
	sql_cell_join(x, "nb", "b", true, true);
	add(x, "\nLEFT JOIN nt nc ON ");
	sql_cell_join(x, "nc", "c", true, true);
	add(x, "\nWHERE ");
	key_col(x, "c");
	add(x, " <> bl.v\nORDER BY ");
	sql_path_order(x, "c.path");
	add(x, ", c.condition");
	sql_dims_order(x, "c", NULL);
	add(x, ", ks.k");
}
