/*
 * sql_cells.c - the final SELECTs of `analyze percentiles --sql` and
 * `analyze trials --sql`: a row per cell (trials: per cell and
 * statistic, with the spread and outlier trials of stats_spread()).
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

void
sql_percentiles_select(struct q *x)
{
	size_t j;
	struct strbuf name = STRBUF_INIT;

	add(x, "SELECT cs.path AS ");
	ident(x, "path");
	add(x, ", cs.condition AS ");
	ident(x, "condition");
	sql_dim_cols(x, "cs", NULL);
	sql_method_cols(x, "cs", true);
	sql_n_counts_col(x);
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
	sql_path_order(x, "cs.path");
	add(x, ", cs.condition");
	sql_dims_order(x, "cs", NULL);
	strbuf_release(&name);
}


/* tl: one row per trial and statistic; ts: their spread; tm: the MAD
 * of the logs; tf: each trial's outlier flag by the cell's own rule on
 * the row's statistic (stats_outlier_trials()).  analyze trials names
 * the one rule's outliers (stats_outlier_cells(): with 3-5 trials also
 * the spread the selection's cells share, on p50, p95 and p99), which
 * this query does not compute: a trial it flags there may be missing
 * here (docs/checks.md). */
static void
trials_spread_ctes(struct q *x)
{
	size_t j;

	add(x, ",\n-- one row per trial and statistic\ntl AS (\n");
	for (j = 0; j < x->nst; j++) {
		addf(x, "  %sSELECT ", j ? "UNION ALL " : "");
		sql_cell_keys(x, "");
		addf(x, ", %zu AS k, trial, started_at, run_id, s%zu AS x, "
		    "ln(CASE WHEN s%zu > 0 THEN s%zu END) AS lx", j + 1,
		    j + 1, j + 1, j + 1);
		/* connect probes: the trial's statistic "≥ timeout"
		 * (trial_censored()) */
		if (x->connect) {
			add(x, ", ");
			if (sql_censorable(x, &x->st[j].s))
				sql_censor_cond(x, &x->st[j].s, "n", "timeouts");
			else
				add(x, "0");
			add(x, " AS ge");
		}
		addf(x, "\n    FROM tt WHERE s%zu IS NOT NULL\n", j + 1);
	}
	add(x, "),\n-- the spread: mean, median, range; the median of the "
	    "logs for the robust z\nts AS (\n  SELECT ");
	sql_cell_keys(x, "");
	add(x, ", k, count(*) AS nt, ");
	if (x->connect)
		add(x, "sum(ge) AS nge, ");
	add(x, "avg(x) AS mean,\n    ");
	sql_agg_quantile(x, STATS_EST_TYPE7, "x", 50.0);
	add(x, " AS median,\n    min(x) AS mn, max(x) AS mx,\n    ");
	sql_agg_quantile(x, STATS_EST_TYPE7, "lx", 50.0);
	add(x, " AS medlog\n  FROM tl\n  GROUP BY ");
	sql_cell_keys(x, "");
	add(x, ", k\n),\n-- the median absolute deviation of the logs\n"
	    "tm AS (\n  SELECT ");
	sql_cell_keys(x, "");
	add(x, ", k,\n    ");
	sql_agg_quantile(x, STATS_EST_TYPE7, "dev", 50.0);
	add(x, " AS mad\n  FROM (SELECT ");
	sql_cell_keys(x, "tl");
	add(x, ", tl.k, abs(tl.lx - ts.medlog) AS dev\n    FROM tl JOIN ts "
	    "ON ");
	sql_cell_join(x, "tl", "ts", true, true);
	add(x, " AND tl.k = ts.k) d\n  GROUP BY ");
	sql_cell_keys(x, "");
	add(x, ", k\n),\n-- each trial's outlier flag (stats_outlier_trials()): "
	    "2x or more from the\n-- median trial and beyond the robust z "
	    "calibrated for that many trials\ntf AS (\n  SELECT tl.*, "
	    "ts.mean, ts.nt,\n    CASE WHEN ts.nt < 3 OR ts.mn <= 0 THEN 0\n"
	    "      WHEN abs(tl.lx - ts.medlog) >= ");
	sql_dbl(x->sb, log(STATS_OUTLIER_MIN_RATIO) * (1 - 1e-12));
	add(x, "\n        AND abs(tl.lx - ts.medlog) >= CASE ts.nt");
	for (size_t n = STATS_OUTLIER_CAL_MIN; n < STATS_OUTLIER_CAL_MAX; n++) {
		addf(x, " WHEN %zu THEN ", n);
		sql_dbl(x->sb, stats_outlier_zcrit(n));
	}
	add(x, " ELSE ");
	sql_dbl(x->sb, stats_outlier_zcrit(STATS_OUTLIER_CAL_MAX));
	add(x, " END * ");
	sql_dbl(x->sb, 1.4826);
	add(x, " * tm.mad\n      THEN 1 ELSE 0 END AS outlier\n  FROM tl\n  JOIN ts ON ");
	sql_cell_join(x, "tl", "ts", true, true);
	add(x, " AND tl.k = ts.k\n  JOIN tm ON ");
	sql_cell_join(x, "tl", "tm", true, true);
	add(x, " AND tl.k = tm.k\n)");
}

/* tv: each cell's per-trial values as analyze prints them, the largest
 * deviation and the outlier trials; ks: the statistics' labels. */
static void
trials_values_ctes(struct q *x)
{
	size_t j;
	struct strbuf e = STRBUF_INIT, fmt = STRBUF_INIT, ord = STRBUF_INIT;
	struct unit_choice mu;

	add(x, ",\n-- the per-trial values as analyze "
	    "prints them, in trial order\ntv AS (\n  SELECT ");
	sql_cell_keys(x, "");
	add(x, ", k,\n    ");
	dialect_expand(&ord, x->d->order3, "trial", "started_at", "run_id");
	/* the stored unit, as analyze's JSON and CSV (common/units.h) */
	units_machine(x->m, &mu);
	strbuf_addf(&fmt, "%%.%df", mu.decimals);
	strbuf_reset(&e);
	strbuf_addstr(&e, "x");
	if (mu.scale != 1.0) {
		strbuf_addstr(&e, " * ");
		sql_dbl(&e, mu.scale);
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
	sql_cell_keys(x, "");
	add(x, ", k\n),\nks AS (\n");
	for (j = 0; j < x->nst; j++) {
		addf(x, "  %sSELECT %zu AS k, ", j ? "UNION ALL " : "", j + 1);
		lit(x, x->st[j].label);
		add(x, " AS stat\n");
	}
	add(x, ")");
	strbuf_release(&e);
	strbuf_release(&fmt);
	strbuf_release(&ord);
}

/* The trials verb: each trial's statistic, their spread and outlier
 * trials (stats_spread()). */
void
sql_trials_select(struct q *x)
{
	size_t j;

	sql_trial_ctes(x);
	trials_spread_ctes(x);
	trials_values_ctes(x);
	add(x, "\nSELECT c.path AS ");
	ident(x, "path");
	add(x, ", c.condition AS ");
	ident(x, "condition");
	sql_dim_cols(x, "c", NULL);
	sql_method_cols(x, "c", true);
	sql_n_counts_col(x);
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
	sql_cell_join(x, "ts", "c", true, true);
	add(x, " AND ts.k = ks.k\nLEFT JOIN tm ON ");
	sql_cell_join(x, "tm", "c", true, true);
	add(x, " AND tm.k = ks.k\nLEFT JOIN tv ON ");
	sql_cell_join(x, "tv", "c", true, true);
	add(x, " AND tv.k = ks.k\nORDER BY ");
	sql_path_order(x, "c.path");
	add(x, ", c.condition");
	sql_dims_order(x, "c", NULL);
	add(x, ", ks.k");
}
