/*
 * verbs.c - the table verbs of `pathstat analyze`: percentiles, relative,
 * delta (with growth = Δp99/Δp50), ratio across a condition key, and
 * trial-to-trial spread.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "analyze/pooling.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "stats/verdict.h"

/* The outlier-trial rule in words, made from the constants
 * stats_outlier_trials() uses (stats/verdict.h), so the caption, the
 * report's Methods and the README (tests/cli/t3835) say what the code
 * does. */
static void
outlier_rule_note(struct table *t)
{
	struct strbuf r = STRBUF_INIT;

	md_number(&r, STATS_OUTLIER_MIN_RATIO, 0);
	table_add_note(t, "Outlier trials: ≥ %s× or ≤ 1/%s× the median trial "
	    "and beyond a robust z (log scale) calibrated for that many "
	    "trials (the 95 %% critical value of the largest z of n trials, "
	    "n ≥ %d; from %d trials on, each side's own spread), the ratio "
	    "alone when the trials' spread is 0; the rule of pathstat check's "
	    "outlier-trial and of the report's box charts too.", r.buf, r.buf,
	    STATS_OUTLIER_CAL_MIN, STATS_OUTLIER_SEMI_MIN);
	strbuf_release(&r);
}


static int
load(sqlite3 *db, const struct analyze_opts *o, struct cellset *cs)
{
	struct cells_query q;

	analyze_query(o, true, &q);
	if (cells_load(db, &q, cs))
		return -1;
	cellset_choose_unit(cs, o, false);
	return 0;
}

static bool
no_extra_args(int nargs, char **args, const char *verb)
{
	if (nargs > 0) {
		error("%s takes no arguments (got '%s')", verb, args[0]);
		return false;
	}
	return true;
}

/* Text for a stat that has no value in Markdown. */
static void
missing_text(struct strbuf *sb, const struct cell_stat *v,
    const struct cell *c)
{
	if (v->censored) {
		strbuf_addstr(sb, "≥ timeout");
		if (isfinite(c->timeout_ms))
			strbuf_addf(sb, " (%.0f ms)", c->timeout_ms);
	} else {
		strbuf_addstr(sb, v->why_missing ? v->why_missing : "not measured");
	}
}

static void
caption_common(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs, const char *unit)
{
	struct strbuf m = STRBUF_INIT;

	describe_method(o, cs, &m);
	if (cs->info->source == METRIC_FROM_SUMMARY && cs->info->summary) {
		size_t i, j, nd = 0;

		table_add_note(t, "%s in %s; %s; one value per run, %s: n = "
		    "runs, trials = runs.", cs->metric_name, unit, m.buf,
		    cs->info->summary->what);
		for (i = 0; i < cs->n; i++)
			for (j = 0; j < cs->cells[i].ntrials; j++)
				nd += cs->cells[i].trials[j].derived;
		if (nd)
			table_add_note(t, "%zu run%s without the tool's own "
			    "value: derived from the per-request samples "
			    "(successful requests over the span from the first "
			    "start to the last end).", nd, nd == 1 ? "" : "s");
	}
	else
		table_add_note(t, "%s in %s; %s; n = successful samples, trials "
		    "= runs, failures = %s, left out of the statistics.",
		    cs->metric_name, unit, m.buf, cs->info->failures);
	strbuf_release(&m);
}

/* <stat>_ci_reason: why an interval asked for is absent (lo NaN), the
 * interval's own why or the censoring; empty when there is one. */
static void
set_ci_reason(struct table *t, size_t row, size_t col, double lo,
    const char *why)
{
	if (!isfinite(lo))
		table_set_str(t, row, col, why ? why : "no interval");
}

/* Can statistic s of a connect metric be "≥ timeout" (percentiles,
 * max)?  Such a statistic has a <stat>_ge_timeout column. */
static bool
censorable(bool connect, const struct stats_name *s)
{
	return connect && (s->kind == STATS_NAME_PCT ||
	    s->kind == STATS_NAME_MAX);
}

/* The columns of a percentiles table after the key columns: counts,
 * loss (connect probes), then each statistic with its hidden
 * companions.  Returns the column of n. */
static size_t
pct_columns(struct table *t, const struct analyze_opts *o, const char *unit,
    int dec, bool connect)
{
	struct strbuf h = STRBUF_INIT, k = STRBUF_INIT;
	size_t j, s, col_n;

	col_n = table_add_col(t, "n", "n", -1);
	table_add_col(t, "trials", "trials", -1);
	table_add_col(t, "failures", "failures", -1);
	if (connect) {
		/* of the failures, the ones that censor ("≥ timeout") */
		table_add_col(t, "timeouts", "timeouts", -1);
		table_add_col(t, "loss_pct", "loss %", 1);
	}
	for (j = 0; j < o->nstats; j++) {
		static const char *const suffix[] = {
			"_median", "_min", "_max",
		};
		const char *name = o->stat_names[j];
		enum stats_name_kind kind = o->stats[j].kind;

		/* the count is the n column already: a second "n" key
		 * would make JSON with a duplicate key */
		if (kind == STATS_NAME_N)
			continue;
		strbuf_reset(&h);
		strbuf_addf(&h, "%s (%s)", name, unit);
		table_add_col(t, name, h.buf, dec);
		if (connect && (kind == STATS_NAME_PCT ||
		    kind == STATS_NAME_MAX)) {
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_ge_timeout", name);
			table_add_hidden_col(t, k.buf, k.buf, -1);
		}
		for (s = 0; o->pool == STATS_POOL_PER_TRIAL &&
		    kind != STATS_NAME_N && s < 3; s++) {
			strbuf_reset(&k);
			strbuf_addf(&k, "%s%s", name, suffix[s]);
			table_add_hidden_col(t, k.buf, k.buf, dec);
		}
		if (o->ci && kind != STATS_NAME_N) {
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_lo", name);
			table_add_hidden_col(t, k.buf, k.buf, dec);
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_hi", name);
			table_add_hidden_col(t, k.buf, k.buf, dec);
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_ci_covers", name);
			table_add_hidden_col(t, k.buf, k.buf, -1);
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_ci_reason", name);
			table_add_hidden_col(t, k.buf, k.buf, -1);
		}
	}
	/* the run tags each row pools (analyze/pooling.h) */
	table_add_hidden_col(t, "pooled_over", "pooled_over", -1);
	strbuf_release(&h);
	strbuf_release(&k);
	return col_n;
}

/* A percentiles table being filled. */
struct pct_ctx {
	const struct analyze_opts *o;
	struct cellset	*cs;
	struct table	*t;
	double		scale;		/* display scale */
	int		dec;		/* Markdown decimals */
	bool		connect;	/* failures are timeouts */
	size_t		ncensored;	/* values shown as "≥ timeout" */
	size_t		ntimeouts;	/* rows with timeouts */
	struct pooling	pool;		/* what each cell pools */
	size_t		ntool;		/* trials with the tool's numbers */
	size_t		covers[3];	/* intervals by enum stats_covers */
	size_t		nby_trials;	/* of them from the trials' own
					 * values (cell_tl_method) */
};

/* Statistic s of cell c into the row from column col: the value (and
 * its Markdown), then its companions.  Returns the next column. */
static size_t
pct_value(struct pct_ctx *x, struct cell *c, const struct stats_name *s,
    size_t row, size_t col, struct cell_info *info)
{
	const struct analyze_opts *o = x->o;
	struct table *t = x->t;
	struct strbuf sb = STRBUF_INIT;
	struct cell_stat v;

	if (s->kind == STATS_NAME_N)	/* the n column (pct_columns) */
		return col;
	cell_compute(o, x->cs, c, s, o->ci, &v, info);
	table_set_num(t, row, col, v.value);
	if (!isfinite(v.value) || v.censored) {
		missing_text(&sb, &v, c);
		table_set_display_raw(t, row, col, sb.buf);
		x->ncensored += v.censored;
	} else if (x->scale != 1.0 || o->ci) {
		if (o->ci && !isfinite(v.lo) && v.why_missing) {
			md_number(&sb, v.value * x->scale, x->dec);
			table_mark(t, v.why_missing, &sb);
		} else {
			format_ci(&sb, v.value * x->scale, v.lo * x->scale,
			    v.hi * x->scale, x->dec);
		}
		table_set_display_raw(t, row, col, sb.buf);
	}
	strbuf_release(&sb);
	col++;
	if (x->connect && (s->kind == STATS_NAME_PCT ||
	    s->kind == STATS_NAME_MAX))
		table_set_int(t, row, col++, v.censored);
	if (o->pool == STATS_POOL_PER_TRIAL) {
		table_set_num(t, row, col++, v.median);
		table_set_num(t, row, col++, v.min);
		table_set_num(t, row, col++, v.max);
	}
	if (o->ci) {
		const char *cov = stats_covers_name(v.covers);

		table_set_num(t, row, col++, v.lo);
		table_set_num(t, row, col++, v.hi);
		if (cov)
			table_set_str(t, row, col, cov);
		col++;
		set_ci_reason(t, row, col++, v.lo, v.why_missing);
		x->covers[v.covers]++;
		if (v.covers == STATS_COVERS_TRIALS &&
		    cell_tl_method(o, c, s))
			x->nby_trials++;
	}
	return col;
}

/* The row of cell c: its statistics from col_stat0, keys and counts. */
static void
pct_row(struct pct_ctx *x, struct cell *c, size_t col_n, size_t col_stat0)
{
	struct table *t = x->t;
	struct cell_info info;
	size_t row = table_add_row(t), col = col_stat0, j;

	memset(&info, 0, sizeof(info));
	for (j = 0; j < x->o->nstats; j++)
		col = pct_value(x, c, &x->o->stats[j], row, col, &info);
	fill_key_columns(t, row, x->cs, c, x->o, &info);
	table_set_int(t, row, col_n, (int64_t)c->n);
	table_set_int(t, row, col_n + 1, (int64_t)c->ntrials);
	table_set_int(t, row, col_n + 2, c->failures);
	if (x->connect) {
		double tot = (double)c->n + (double)c->failures;

		table_set_int(t, row, col_n + 3, c->timeouts);
		x->ntimeouts += c->timeouts > 0;
		table_set_num(t, row, col_n + 4, tot > 0 ?
		    100.0 * (double)c->failures / tot : NAN);
	}
	{
		struct strbuf po = STRBUF_INIT;

		pooling_cell_keys(&x->pool, (size_t)(c - x->cs->cells), NULL,
		    0, &po);
		table_set_str(t, row, t->ncols - 1, po.buf);
		strbuf_release(&po);
	}
	x->ntool += info.trials_tool;
	cell_pooled_release(c);
}

/* The censoring rule of estimator est, in words (stats_censored()). */
static const char *
censor_rule(enum stats_estimator est)
{
	switch (est) {
	case STATS_EST_OHA:
		return "that percentile of all N attempts (successes, then "
		    "timeouts sorted above them) is a timed-out one: oha's "
		    "index floor(p·N) ≥ successes";
	case STATS_EST_HD:
		return "Harrell–Davis weighs a timed-out attempt (timeouts "
		    "sorted above the successes, N all of them): its weight "
		    "window reaches rank ≥ successes";
	case STATS_EST_TYPE7:
	case STATS_EST_MEAN:
		break;
	}
	return "that percentile of all N attempts (successes, then timeouts "
	    "sorted above them) interpolates to a timed-out one: "
	    "ceil((N − 1)·p) ≥ successes";
}

/* What the intervals of a table cover, once per kind printed. */
static void
ci_notes(struct table *t, const struct analyze_opts *o, const size_t *covers)
{
	if (covers[STATS_COVERS_TRIALS])
		table_add_note(t, "[lo, hi]: %.0f %% interval covering "
		    "trial-to-trial variation and sampling (<stat>_ci_covers = "
		    "trials): a t interval on trial-level values with trials − 1 "
		    "degrees of freedom (%s), from %d trials; coverage measured in "
		    "docs/coverage.md.", o->level * 100, o->pool ==
		    STATS_POOL_POOLED ? "each trial's share below the pooled "
		    "quantile, linearized" : "the trials' own statistics",
		    STATS_TL_MIN_TRIALS);
	if (covers[STATS_COVERS_SAMPLES])
		table_add_note(t, "[lo, hi] of a single trial: %.0f %% interval "
		    "covering within-run sampling only (<stat>_ci_covers = "
		    "samples), equal-tailed from order statistics (exact "
		    "binomial), of n / VIF samples where the run's samples are "
		    "serially correlated (lag-1 rank autocorrelation above the "
		    "one-sided 5 %% level; VIF the variance inflation of the "
		    "share below the percentile); it says nothing about how "
		    "another run would differ.", o->level * 100);
}

static void
pct_notes(const struct pct_ctx *x, const char *unit)
{
	const struct analyze_opts *o = x->o;
	struct table *t = x->t;

	caption_common(t, o, x->cs, unit);
	if (x->ntimeouts)
		table_add_note(t, "Rows with timeouts: their percentiles are of "
		    "the successful probes; at a loss L the successes' pX is the "
		    "all-attempts p(X·(1 − L)) (1 %% loss: p99 is the "
		    "all-attempts p98.01, 2.7–7.8 %% lower for lognormal times "
		    "of σ 0.1–0.3), so publish loss %% beside them; the ≥ "
		    "timeout rule reads the quantile of all attempts.");
	if (x->ncensored)
		table_add_note(t, "≥ timeout: %s%s; a timeout is loss, never "
		    "an RTT, and refusals and errors censor nothing (JSON and "
		    "CSV keep the successful samples' value with "
		    "<stat>_ge_timeout = 1).", censor_rule(o->est),
		    o->pool == STATS_POOL_PER_TRIAL ? ", judged in each trial "
		    "(one censored trial censors the mean across trials)" :
		    "");
	if (x->ntool)
		tool_cells_note(t, o, x->cs);
	if (o->ci)
		ci_notes(t, o, x->covers);
	if (o->ci && x->nby_trials)
		table_add_note(t, "%zu interval(s) from the trials' own values "
		    "around the pooled estimate (ties at the pooled percentile, "
		    "or trials of unequal size, where the linearized share does "
		    "not hold: docs/intervals.md).", x->nby_trials);
	pooling_note(&x->pool, NULL, 0, true, t);
	if (x->cs->n == 0)
		table_add_note(t, "no runs with metric %s match.",
		    x->cs->metric_name);
}

int
analyze_percentiles(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct cellset cs;
	struct pct_ctx x;
	const char *unit;
	size_t i, col_n, col_stat0;

	if (!no_extra_args(nargs, args, "percentiles"))
		return -2;
	if (load(db, o, &cs))
		return -1;
	memset(&x, 0, sizeof(x));
	if (pooling_scan(db, &cs, &o->where, o->paths, o->npaths, &x.pool)) {
		cellset_release(&cs);
		return -1;
	}
	x.o = o;
	x.cs = &cs;
	x.t = t;
	x.scale = md_scale(&cs, &unit);
	x.dec = cs.shown.decimals;
	x.connect = cs.info->timeout_bound;
	add_key_columns(t, &cs);
	col_n = pct_columns(t, o, unit, x.dec, x.connect);
	col_stat0 = col_n + 3 + (x.connect ? 2 : 0);
	for (i = 0; i < cs.n; i++)
		pct_row(&x, &cs.cells[i], col_n, col_stat0);
	pct_notes(&x, unit);
	pooling_release(&x.pool);
	cellset_release(&cs);
	return 0;
}

int
analyze_relative(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct cellset cs;
	struct stats_name p50 = { STATS_NAME_PCT, 50.0 };
	size_t i, j, col0, ncens = 0;

	if (!no_extra_args(nargs, args, "relative"))
		return -2;
	if (load(db, o, &cs))
		return -1;
	add_key_columns(t, &cs);
	table_add_col(t, "n", "n", -1);
	table_add_col(t, "trials", "trials", -1);
	col0 = t->ncols;
	for (j = 0; j < o->nstats; j++)
		table_add_col(t, o->stat_names[j], o->stat_names[j], 1);
	/* after the statistics, so their columns stay col0 + j */
	for (j = 0; j < o->nstats; j++) {
		struct strbuf k = STRBUF_INIT;

		if (!censorable(cs.info->timeout_bound, &o->stats[j]))
			continue;
		strbuf_addf(&k, "%s_ge_timeout", o->stat_names[j]);
		table_add_hidden_col(t, k.buf, k.buf, -1);
		strbuf_release(&k);
	}
	for (i = 0; i < cs.n; i++) {
		struct cell *c = &cs.cells[i];
		size_t row = table_add_row(t), colf = col0 + o->nstats;
		struct cell_info info;
		struct cell_stat base, v;

		cell_compute(o, &cs, c, &p50, false, &base, &info);
		for (j = 0; j < o->nstats; j++) {
			if (o->stats[j].kind == STATS_NAME_N) {
				table_set_int(t, row, col0 + j, (int64_t)c->n);
				continue;
			}
			cell_compute(o, &cs, c, &o->stats[j], false, &v, &info);
			/* a percentage of a censored value (or of a
			 * censored p50) would be the successes' one */
			if (v.censored || base.censored) {
				table_set_num(t, row, col0 + j, NAN);
				table_set_display(t, row, col0 + j, v.censored ?
				    "≥ timeout" : "p50 ≥ timeout");
				ncens++;
			} else {
				table_set_num(t, row, col0 + j, base.value > 0 ?
				    100.0 * (v.value / base.value) : NAN);
				/* divide first: 100 * 1.7e308 overflows
				 * (issue 22) */
			}
			if (censorable(cs.info->timeout_bound, &o->stats[j]))
				table_set_int(t, row, colf++, v.censored ||
				    base.censored);
		}
		fill_key_columns(t, row, &cs, c, o, &info);
		table_set_int(t, row, col0 - 2, (int64_t)c->n);
		table_set_int(t, row, col0 - 1, (int64_t)c->ntrials);
	}
	{
		struct strbuf m = STRBUF_INIT;

		describe_method(o, &cs, &m);
		table_add_note(t, "%s: each statistic as a percentage of the same "
		    "cell's p50 (p50 = 100); %s.", cs.metric_name, m.buf);
		if (ncens)
			table_add_note(t, "≥ timeout: the statistic of all "
			    "attempts reads a timed-out one (<stat>_ge_timeout "
			    "= 1), so it has no percentage; the successes' "
			    "value would understate it.");
		strbuf_release(&m);
	}
	int ret = pooling_table_note(db, &cs, &o->where, o->paths, o->npaths, t);
	cellset_release(&cs);
	return ret;
}

/* --------------------------------------------------------------------
 * delta and ratio share the contrast of two cells.
 */

struct contrast {
	struct cell	*a, *b;		/* a - b or a / b; either may be NULL */
	bool		ratio;
};

/* Value of the contrast for stat s, with its trial-level interval (and
 * what it covers) when o->ci; NaN when a side is missing.  *why says why
 * the value or, when the value is there, the interval is missing.  A
 * censored side: *censored, and the bound it implies in *bound (*dir,
 * cell_contrast_bound()). */
static void
contrast_stat(const struct analyze_opts *o, const struct cellset *cs,
    const struct contrast *k, const struct stats_name *s, double *val,
    double *lo, double *hi, enum stats_covers *covers, const char **why,
    bool *censored, double *bound, int *dir)
{
	struct cell_stat va, vb;
	struct cell_info ia, ib;

	*val = *lo = *hi = NAN;
	*covers = STATS_COVERS_NONE;
	*why = NULL;
	*censored = false;
	*bound = NAN;
	*dir = 0;
	if (!k->a || !k->b) {
		*why = "not measured";
		return;
	}
	cell_compute(o, cs, k->a, s, false, &va, &ia);
	cell_compute(o, cs, k->b, s, false, &vb, &ib);
	/* a side "≥ timeout": the contrast has no number, nor interval */
	if (va.censored || vb.censored) {
		*why = CELL_WHY_CENSORED;
		*censored = true;
		*bound = cell_contrast_bound(o, cs, k->a, k->b, s, k->ratio,
		    va.censored, vb.censored, dir);
		return;
	}
	if (!isfinite(va.value) || !isfinite(vb.value)) {
		*why = va.why_missing ? va.why_missing : vb.why_missing;
		return;
	}
	*val = k->ratio ? stats_ratio(va.value, vb.value) :
	    stats_delta(va.value, vb.value);
	if (o->ci) {
		struct stats_interval iv;
		const char *wa, *wb;
		double *ua, *ub, ea, eb;
		size_t ta = cell_tl(o, k->a, s, &ua, &ea, &wa);
		size_t tb = cell_tl(o, k->b, s, &ub, &eb, &wb);

		if (!ta || !tb) {
			*why = ta ? wb : wa;
		} else {
			stats_tl_contrast(ua, ta, va.value, ub, tb, vb.value,
			    k->ratio ? STATS_RATIO : STATS_DELTA, o->level, &iv);
			cell_contrast_clip(k->a, k->b, k->ratio ? STATS_RATIO :
			    STATS_DELTA, &iv);
			*lo = iv.lo;
			*hi = iv.hi;
			*covers = iv.covers;
			*why = iv.why;
		}
		free(ua);
		free(ub);
	}
}

/* Add one column per stat (+ _ge_timeout for connect probes, + _lo/_hi,
 * _ci_covers, _ci_reason with --ci); returns the first one. */
static size_t
add_stat_cols(struct table *t, const struct analyze_opts *o, const char *unit,
    int dec, bool ratio, bool connect)
{
	size_t j, first = t->ncols;
	struct strbuf h = STRBUF_INIT;

	for (j = 0; j < o->nstats; j++) {
		const char *name = o->stat_names[j];

		strbuf_reset(&h);
		if (ratio)
			strbuf_addf(&h, "%s ×", name);
		else
			strbuf_addf(&h, "Δ%s (%s)", name, unit);
		table_add_col(t, name, h.buf, dec);
		if (censorable(connect, &o->stats[j])) {
			/* a side's statistic is "≥ timeout" */
			strbuf_reset(&h);
			strbuf_addf(&h, "%s_ge_timeout", name);
			table_add_hidden_col(t, h.buf, h.buf, -1);
		}
		if (o->ci) {
			strbuf_reset(&h);
			strbuf_addf(&h, "%s_lo", name);
			table_add_hidden_col(t, h.buf, h.buf, dec);
			strbuf_reset(&h);
			strbuf_addf(&h, "%s_hi", name);
			table_add_hidden_col(t, h.buf, h.buf, dec);
			strbuf_reset(&h);
			strbuf_addf(&h, "%s_ci_covers", name);
			table_add_hidden_col(t, h.buf, h.buf, -1);
			strbuf_reset(&h);
			strbuf_addf(&h, "%s_ci_reason", name);
			table_add_hidden_col(t, h.buf, h.buf, -1);
		}
	}
	strbuf_release(&h);
	return first;
}

/* The caption line of a delta or ratio with censored statistics. */
static void
censor_contrast_note(struct table *t, const struct cellset *cs,
    size_t nbound)
{
	size_t i, j, any = 0;

	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < t->ncols; j++) {
			size_t len = strlen(t->cols[j].key);

			if (len > 11 && !strcmp(t->cols[j].key + len - 11,
			    "_ge_timeout") && table_num(t, i, (long)j) == 1)
				any++;
		}
	if (!any || !cs->info->timeout_bound)
		return;
	table_add_note(t, "≥ timeout: a side's statistic of all attempts "
	    "reads a timed-out one, so the contrast has no value, interval "
	    "or growth (JSON: null, <stat>_ge_timeout = 1)%s", nbound ?
	    "; where the other side is measured, the bound it implies is "
	    "shown, reading \"≥ timeout\" as at least the timeout: ≥ timeout − "
	    "the other side's statistic of all attempts (a ratio: timeout / "
	    "it; growth: that bound over Δp50)." : ".");
}

/* Fill the stat columns of a contrast row; returns the column after.
 * *nbound counts the censored statistics shown as a bound. */
static size_t
fill_stat_cols(struct table *t, size_t row, size_t col,
    const struct analyze_opts *o, const struct cellset *cs,
    const struct contrast *k, double scale, int dec, size_t *nbound)
{
	size_t j;

	for (j = 0; j < o->nstats; j++) {
		double v, lo, hi, bound = NAN;
		enum stats_covers cov = STATS_COVERS_NONE;
		const char *why;
		bool cens = false;
		int dir = 0;
		struct strbuf sb = STRBUF_INIT;

		if (o->stats[j].kind == STATS_NAME_N) {
			v = k->a && k->b ? (k->ratio ? stats_ratio((double)k->a->n,
			    (double)k->b->n) : (double)k->a->n - (double)k->b->n) :
			    NAN;
			lo = hi = NAN;
			why = k->a && k->b ? NULL : "not measured";
		} else {
			contrast_stat(o, cs, k, &o->stats[j], &v, &lo, &hi, &cov,
			    &why, &cens, &bound, &dir);
		}
		table_set_num(t, row, col, v);
		if (cens && dir) {
			/* the bound, never a value: "≥ 978.016 (minuend ≥
			 * timeout)" */
			double sc = k->ratio ? 1.0 : scale;

			strbuf_addstr(&sb, dir > 0 ? "≥ " : "≤ ");
			md_number(&sb, bound * sc, dec);
			strbuf_addf(&sb, " (%s ≥ timeout)", dir > 0 ?
			    (k->ratio ? "numerator" : "minuend") :
			    (k->ratio ? "denominator" : "subtrahend"));
			table_set_display_raw(t, row, col, sb.buf);
			(*nbound)++;
		} else if (cens) {
			table_set_display(t, row, col, "≥ timeout");
		} else if (!isfinite(v)) {
			table_set_display(t, row, col, why ? why : "not measured");
		} else if (o->ci || (!k->ratio && scale != 1.0)) {
			double sc = k->ratio ? 1.0 : scale;

			format_ci(&sb, v * sc, lo * sc, hi * sc, dec);
			if (o->ci && cov == STATS_COVERS_NONE && why)
				table_mark(t, why, &sb);
			table_set_display_raw(t, row, col, sb.buf);
		}
		strbuf_release(&sb);
		col++;
		if (censorable(cs->info->timeout_bound, &o->stats[j]))
			table_set_int(t, row, col++, cens);
		if (o->ci) {
			table_set_num(t, row, col++, lo);
			table_set_num(t, row, col++, hi);
			if (stats_covers_name(cov))
				table_set_str(t, row, col, stats_covers_name(cov));
			col++;
			set_ci_reason(t, row, col++, lo, why);
		}
	}
	return col;
}

static void
contrast_caption(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs, const char *what)
{
	struct strbuf m = STRBUF_INIT;
	size_t i, j;

	describe_method(o, cs, &m);
	table_add_note(t, "%s: %s; %s.", cs->metric_name, what, m.buf);
	tool_cells_note(t, o, cs);
	if (o->ci) {
		size_t covers[3] = { 0, 1, 0 }, nby = 0;

		ci_notes(t, o, covers);
		for (i = 0; i < cs->n; i++)
			for (j = 0; j < o->nstats; j++)
				nby += cell_tl_method(o, (struct cell *)&cs->cells[i],
				    &o->stats[j]) != NULL;
		if (nby)
			table_add_note(t, "%zu cell statistic(s) take the trials' "
			    "own values for their intervals (ties at the pooled "
			    "percentile, or trials of unequal size, where the "
			    "linearized share does not hold: docs/intervals.md).",
			    nby);
	}
	strbuf_release(&m);
}

/* Does the cellset hold any cell of this path? */
static bool
has_path(const struct cellset *cs, const char *path)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->cells[i].path, path))
			return true;
	return false;
}

/* Split "G-G'" into two path IDs known to cs (IDs may hold '-'). */
static int
split_pair(const struct cellset *cs, const char *pair, char **a, char **b)
{
	const char *p;
	char *l, *r;

	for (p = strchr(pair, '-'); p; p = strchr(p + 1, '-')) {
		l = xstrndup(pair, (size_t)(p - pair));
		r = xstrdup(p + 1);
		if (*l && *r && has_path(cs, l) && has_path(cs, r)) {
			*a = l;
			*b = r;
			return 0;
		}
		free(l);
		free(r);
	}
	p = strchr(pair, '-');
	if (!p || p == pair || !p[1] || strchr(p + 1, '-'))
		return -1;
	*a = xstrndup(pair, (size_t)(p - pair));
	*b = xstrdup(p + 1);
	return 0;
}

/* The delta table's columns; *col_stat and *col_growth get where the
 * statistics and the growth column start. */
static void
delta_columns(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs, const char *unit, size_t *col_stat,
    size_t *col_growth)
{
	size_t i;

	table_add_col(t, "pair", "Pair", -1);
	table_add_col(t, "minuend", "minuend", -1);
	table_add_col(t, "subtrahend", "subtrahend", -1);
	t->cols[1].md_hidden = t->cols[2].md_hidden = true;
	table_add_col(t, "condition", "Condition", -1);
	for (i = 0; i < cs->ndims; i++)
		table_add_col(t, cs->dimkeys[i], cs->dimkeys[i], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	table_add_hidden_col(t, "pool", "Pool", -1);
	*col_stat = add_stat_cols(t, o, unit, cs->shown.decimals, false,
	    cs->info->timeout_bound);
	*col_growth = table_add_col(t, "growth", "growth Δp99/Δp50", 2);
	{
		/* statistics without p50 or p99 (--stats, or throughput's
		 * slow side) ask for no growth: JSON and CSV keep the key
		 * (the contract), Markdown leaves it out */
		bool p50 = false, p99 = false;

		for (i = 0; i < o->nstats; i++) {
			p50 |= o->stats[i].kind == STATS_NAME_PCT &&
			    o->stats[i].pct == 50.0;
			p99 |= o->stats[i].kind == STATS_NAME_PCT &&
			    o->stats[i].pct == 99.0;
		}
		if (!(p50 && p99))
			t->cols[*col_growth].md_hidden = true;
	}
	table_add_col(t, "n_minuend", "n (minuend)", -1);
	table_add_col(t, "n_subtrahend", "n (subtrahend)", -1);
	table_add_col(t, "trials_minuend", "trials_minuend", -1);
	table_add_col(t, "trials_subtrahend", "trials_subtrahend", -1);
	t->cols[t->ncols - 2].md_hidden = t->cols[t->ncols - 1].md_hidden =
	    true;
	/* p50 or p99 of a side "≥ timeout": no growth */
	if (cs->info->timeout_bound)
		table_add_hidden_col(t, "growth_ge_timeout",
		    "growth_ge_timeout", -1);
	if (o->ci) {
		table_add_hidden_col(t, "growth_lo", "growth_lo", 2);
		table_add_hidden_col(t, "growth_hi", "growth_hi", 2);
		table_add_hidden_col(t, "growth_ci_covers", "growth_ci_covers",
		    -1);
		table_add_hidden_col(t, "growth_ci_reason", "growth_ci_reason",
		    -1);
	}
}

/* Has an earlier cell of either path the same condition and dimensions
 * as cell c (so its row is written already)? */
static bool
delta_done(const struct cellset *cs, size_t c, const char *pa,
    const char *pb)
{
	const struct cell *cell = &cs->cells[c];
	size_t prev, d;

	for (prev = 0; prev < c; prev++) {
		const struct cell *o2 = &cs->cells[prev];

		if ((strcmp(o2->path, pa) && strcmp(o2->path, pb)) ||
		    strcmp(o2->cond, cell->cond))
			continue;
		for (d = 0; d < cs->ndims; d++)
			if (strcmp(o2->dims[d], cell->dims[d]))
				break;
		if (d == cs->ndims)
			return true;
	}
	return false;
}

/*
 * The bound on growth that a censored Δp99 implies (only p99 censored):
 * the bound on Δp99 (cell_contrast_bound()) over Δp50 of all attempts, the
 * direction flipped when Δp50 < 0; none (*dir 0) when Δp50's interval
 * holds 0, as for the growth itself.
 */
static double
growth_bound(const struct analyze_opts *o, const struct cellset *cs,
    const struct contrast *k, bool ca, bool cb, int *dir)
{
	static const struct stats_name p50 = { STATS_NAME_PCT, 50.0 };
	static const struct stats_name p99 = { STATS_NAME_PCT, 99.0 };
	struct stats_interval iv;
	double d99 = cell_contrast_bound(o, cs, k->a, k->b, &p99, false, ca,
	    cb, dir), d50;
	double a50 = cell_all_attempts(o, cs, k->a, &p50);
	double b50 = cell_all_attempts(o, cs, k->b, &p50);
	double *ua, *ub, e;
	const char *wa, *wb;
	size_t ta, tb;

	d50 = a50 - b50;
	if (!*dir || !isfinite(d50) || d50 == 0) {
		*dir = 0;
		return NAN;
	}
	ta = cell_tl(o, k->a, &p50, &ua, &e, &wa);
	tb = cell_tl(o, k->b, &p50, &ub, &e, &wb);
	if (ta && tb) {
		struct cell_stat va, vb;
		struct cell_info info;

		cell_compute(o, cs, k->a, &p50, false, &va, &info);
		cell_compute(o, cs, k->b, &p50, false, &vb, &info);
		stats_tl_contrast(ua, ta, va.value, ub, tb, vb.value,
		    STATS_DELTA, o->level, &iv);
		if (isfinite(iv.lo) && iv.lo <= 0 && iv.hi >= 0)
			*dir = 0;
	}
	free(ua);
	free(ub);
	if (!*dir)
		return NAN;
	if (d50 < 0)
		*dir = -*dir;
	return d99 / d50;
}

/*
 * Growth dp99 / dp50 of contrast k with its trial-level interval: g is
 * withheld (NaN, g->why) when dp50's interval contains 0, and has no
 * interval (g->why) with too few trials or without trial-level values
 * for p99 (pooled).  A censored side: *cens says which difference, and
 * *bound (*dir) the bound growth_bound() finds.
 */
static void
growth_stat(const struct analyze_opts *o, const struct cellset *cs,
    const struct contrast *k, struct stats_interval *g, const char **cens,
    double *bound, int *dir)
{
	static const struct stats_name p50 = { STATS_NAME_PCT, 50.0 };
	static const struct stats_name p99 = { STATS_NAME_PCT, 99.0 };
	struct cell_stat a50, a99, b50, b99;
	struct cell_info info;
	double *ua50 = NULL, *ua99 = NULL, *ub50 = NULL, *ub99 = NULL, e;
	const char *w50a, *w50b, *w99a = NULL, *w99b = NULL;
	size_t ta, tb, ta99 = 0, tb99 = 0;

	g->estimate = g->lo = g->hi = g->se = g->df = NAN;
	g->covers = STATS_COVERS_NONE;
	g->why = NULL;
	*cens = NULL;
	*bound = NAN;
	*dir = 0;
	if (!k->a || !k->b)
		return;
	cell_compute(o, cs, k->a, &p50, false, &a50, &info);
	cell_compute(o, cs, k->a, &p99, false, &a99, &info);
	cell_compute(o, cs, k->b, &p50, false, &b50, &info);
	cell_compute(o, cs, k->b, &p99, false, &b99, &info);
	/* Δp99 or Δp50 with a side "≥ timeout": the successes' growth
	 * would understate it by orders of magnitude */
	if (a99.censored || b99.censored || a50.censored || b50.censored) {
		*cens = a50.censored || b50.censored ? "Δp50 ≥ timeout" :
		    "Δp99 ≥ timeout";
		g->why = CELL_WHY_CENSORED;
		if (!a50.censored && !b50.censored)
			*bound = growth_bound(o, cs, k, a99.censored,
			    b99.censored, dir);
		return;
	}
	g->estimate = stats_growth(a99.value - b99.value,
	    a50.value - b50.value);
	if (!isfinite(g->estimate))
		return;
	ta = cell_tl(o, k->a, &p50, &ua50, &e, &w50a);
	tb = cell_tl(o, k->b, &p50, &ub50, &e, &w50b);
	if (ta && tb) {
		ta99 = cell_tl(o, k->a, &p99, &ua99, &e, &w99a);
		tb99 = cell_tl(o, k->b, &p99, &ub99, &e, &w99b);
		stats_tl_growth(ua50, ta99 ? ua99 : NULL, ta, a50.value,
		    a99.value, ub50, tb99 ? ub99 : NULL, tb, b50.value,
		    b99.value, o->level, g);
		if (isfinite(g->estimate) && g->covers == STATS_COVERS_NONE &&
		    !g->why)
			g->why = w99a ? w99a : w99b;
	} else {
		g->why = ta ? w50b : w50a;
	}
	free(ua50);
	free(ua99);
	free(ub50);
	free(ub99);
}

/* The row of pair (pa, pb) under the condition and dimensions of cell;
 * returns whether a side is not measured there. */
static bool
delta_row(struct table *t, const struct analyze_opts *o, struct cellset *cs,
    const char *pair, const char *pa, const char *pb,
    const struct cell *cell, size_t col_stat, size_t col_growth,
    size_t *nbound)
{
	struct contrast k;
	struct stats_interval g;
	struct strbuf sb = STRBUF_INIT;
	const char *unit, *gcens;
	double gbound;
	int gdir;
	long gc;
	double scale = md_scale(cs, &unit);
	size_t row, col, d;

	k.a = cellset_find(cs, pa, cell->cond, cell->dims);
	k.b = cellset_find(cs, pb, cell->cond, cell->dims);
	k.ratio = false;
	row = table_add_row(t);
	table_set_str(t, row, 0, pair);
	table_set_str(t, row, 1, pa);
	table_set_str(t, row, 2, pb);
	table_set_str(t, row, 3, cell->cond);
	col = 4;
	for (d = 0; d < cs->ndims; d++)
		table_set_str(t, row, col++, cell->dims[d]);
	table_set_str(t, row, col++, cs->metric_name);
	table_set_str(t, row, col++, stats_estimator_name(o->est));
	table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	fill_stat_cols(t, row, col_stat, o, cs, &k, scale, cs->shown.decimals,
	    nbound);
	growth_stat(o, cs, &k, &g, &gcens, &gbound, &gdir);
	table_set_num(t, row, col_growth, g.estimate);
	if (gcens && gdir) {
		strbuf_addstr(&sb, gdir > 0 ? "≥ " : "≤ ");
		md_number(&sb, gbound, 2);
		strbuf_addf(&sb, " (%s)", gcens);
		table_set_display_raw(t, row, col_growth, sb.buf);
		(*nbound)++;
	} else if (gcens) {
		strbuf_addf(&sb, "–, censored: %s", gcens);
		table_set_display_raw(t, row, col_growth, sb.buf);
	} else if (!isfinite(g.estimate) && g.why) {
		strbuf_addf(&sb, "–, %s", g.why);
		table_set_display_raw(t, row, col_growth, sb.buf);
	} else if (o->ci && isfinite(g.estimate)) {
		format_ci(&sb, g.estimate, g.lo, g.hi, 2);
		if (g.covers == STATS_COVERS_NONE && g.why)
			table_mark(t, g.why, &sb);
		table_set_display_raw(t, row, col_growth, sb.buf);
	}
	strbuf_release(&sb);
	if ((gc = table_col(t, "growth_ge_timeout")) >= 0)
		table_set_int(t, row, (size_t)gc, gcens != NULL);
	if (o->ci) {
		table_set_num(t, row, (size_t)table_col(t, "growth_lo"), g.lo);
		table_set_num(t, row, (size_t)table_col(t, "growth_hi"), g.hi);
		if (stats_covers_name(g.covers))
			table_set_str(t, row, (size_t)table_col(t,
			    "growth_ci_covers"), stats_covers_name(g.covers));
		set_ci_reason(t, row, (size_t)table_col(t, "growth_ci_reason"),
		    g.lo, g.why ? g.why : !k.a || !k.b ? "not measured" :
		    "Δp50 not distinguishable from 0");
	}
	if (k.a) {
		table_set_int(t, row, col_growth + 1, (int64_t)k.a->n);
		table_set_int(t, row, col_growth + 3, (int64_t)k.a->ntrials);
	}
	if (k.b) {
		table_set_int(t, row, col_growth + 2, (int64_t)k.b->n);
		table_set_int(t, row, col_growth + 4, (int64_t)k.b->ntrials);
	}
	return !k.a || !k.b;
}

int
analyze_delta(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct cellset cs;
	const char *unit;
	size_t c, col_stat, col_growth, nmissing = 0, nbound = 0;
	int p, ret = 0;

	if (nargs < 1) {
		error("delta needs at least one PAIR, e.g. \"G-G'\" or H-B");
		return -2;
	}
	if (load(db, o, &cs))
		return -1;
	md_scale(&cs, &unit);
	delta_columns(t, o, &cs, unit, &col_stat, &col_growth);
	for (p = 0; p < nargs; p++) {
		char *pa = NULL, *pb = NULL;

		if (split_pair(&cs, args[p], &pa, &pb)) {
			/* a pair typed or pasted with a Unicode minus
			 * (U+2212), en dash or prime (U+2032) */
			bool uni = strstr(args[p], "\xe2\x88\x92") ||
			    strstr(args[p], "\xe2\x80\x93") ||
			    strstr(args[p], "\xe2\x80\xb2");

			error("bad pair '%s': want MINUEND-SUBTRAHEND, e.g. "
			    "\"G-G'\"%s", args[p], uni ? " (it holds a "
			    "Unicode minus, dash or prime: type ASCII - and '"
			    ")" : "");
			ret = -2;
			break;
		}
		if (!has_path(&cs, pa) || !has_path(&cs, pb)) {
			size_t row = table_add_row(t);

			table_set_str(t, row, 0, args[p]);
			table_set_str(t, row, 1, pa);
			table_set_str(t, row, 2, pb);
			table_set_str(t, row, 3, "");
			table_set_display(t, row, 3, !has_path(&cs, pa) ?
			    "minuend not measured" : "subtrahend not measured");
			nmissing++;
		}
		/* every condition either side has, in the minuend's order;
		 * one row per (condition, dims) */
		for (c = 0; c < cs.n; c++) {
			const struct cell *cell = &cs.cells[c];

			if ((strcmp(cell->path, pa) &&
			    strcmp(cell->path, pb)) ||
			    delta_done(&cs, c, pa, pb))
				continue;
			nmissing += delta_row(t, o, &cs, args[p], pa, pb, cell,
			    col_stat, col_growth, &nbound);
		}
		free(pa);
		free(pb);
	}
	contrast_caption(t, o, &cs, "Minuend minus subtrahend under the same "
	    "condition; growth = Δp99 / Δp50 (how much the gap widens in the "
	    "slow tail)");
	if (nmissing)
		table_add_note(t, "not measured: one side of the pair has no data "
		    "under that condition.");
	censor_contrast_note(t, &cs, nbound);
	if (!ret)
		ret = pooling_table_note(db, &cs, &o->where, o->paths,
		    o->npaths, t);
	cellset_release(&cs);
	return ret;
}

int
analyze_ratio(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct cellset cs;
	const char *slash;
	char *num = NULL, *den = NULL;
	size_t i, d, col_stat, nbound = 0;
	int dec = 2, ret = 0;

	if (!o->across || !kv_valid_key(o->across)) {
		error("ratio needs --across KEY (e.g. --across c 16/1, --across ka "
		    "off/on)");
		return -2;
	}
	if (nargs != 1 || !(slash = strchr(args[0], '/')) || slash == args[0] ||
	    !slash[1]) {
		error("ratio needs one NUM/DEN argument (e.g. 16/1 or off/on)");
		return -2;
	}
	num = xstrndup(args[0], (size_t)(slash - args[0]));
	den = xstrdup(slash + 1);
	if (load(db, o, &cs)) {
		free(num);
		free(den);
		return -1;
	}
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d < cs.ndims; d++)
		table_add_col(t, cs.dimkeys[d], cs.dimkeys[d], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	table_add_hidden_col(t, "pool", "Pool", -1);
	table_add_hidden_col(t, "across", "across", -1);
	table_add_hidden_col(t, "numerator", "numerator", -1);
	table_add_hidden_col(t, "denominator", "denominator", -1);
	col_stat = add_stat_cols(t, o, "", dec, true, cs.info->timeout_bound);
	table_add_col(t, "n_numerator", "n (num)", -1);
	table_add_col(t, "n_denominator", "n (den)", -1);

	for (i = 0; i < cs.n; i++) {
		struct cell *c = &cs.cells[i];
		char *rest, *ncond, *dcond;
		struct contrast k;
		size_t row, col = 0;
		bool is_num = cond_has(c->cond, o->across, num);
		bool is_den = cond_has(c->cond, o->across, den);

		if (!is_num && !is_den)
			continue;
		ncond = cond_with(c->cond, o->across, num);
		dcond = cond_with(c->cond, o->across, den);
		k.a = cellset_find(&cs, c->path, ncond, c->dims);
		k.b = cellset_find(&cs, c->path, dcond, c->dims);
		k.ratio = true;
		/* the numerator's row carries the pair; a lone denominator gets
		 * its own "not measured" row */
		if (is_den && k.a) {
			free(ncond);
			free(dcond);
			continue;
		}
		rest = cond_with(c->cond, o->across, NULL);
		row = table_add_row(t);
		table_set_str(t, row, col++, c->path);
		table_set_str(t, row, col++, rest);
		for (d = 0; d < cs.ndims; d++)
			table_set_str(t, row, col++, c->dims[d]);
		table_set_str(t, row, col++, cs.metric_name);
		table_set_str(t, row, col++, stats_estimator_name(o->est));
		table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ?
		    "pooled" : "trials");
		table_set_str(t, row, col++, o->across);
		table_set_str(t, row, col++, num);
		table_set_str(t, row, col++, den);
		col = fill_stat_cols(t, row, col_stat, o, &cs, &k, 1.0, dec,
		    &nbound);
		if (k.a)
			table_set_int(t, row, col, (int64_t)k.a->n);
		if (k.b)
			table_set_int(t, row, col + 1, (int64_t)k.b->n);
		free(rest);
		free(ncond);
		free(dcond);
	}
	{
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "Ratio %s=%s over %s=%s, per path, under otherwise "
		    "equal conditions", o->across, num, o->across, den);
		contrast_caption(t, o, &cs, what.buf);
		strbuf_release(&what);
	}
	censor_contrast_note(t, &cs, nbound);
	if (!ret)
		ret = pooling_table_note(db, &cs, &o->where, o->paths,
		    o->npaths, t);
	cellset_release(&cs);
	free(num);
	free(den);
	return ret;
}

/* The trials table's columns after the key columns; returns the first
 * (stat). */
static size_t
trials_columns(struct table *t, int dec, bool connect)
{
	size_t col0 = table_add_col(t, "stat", "Stat", -1);
	struct strbuf h = STRBUF_INIT;

	table_add_col(t, "trials", "Trials", -1);
	/* the unit add_key_columns() put in t->shown */
	strbuf_addf(&h, "Per-trial values (%s)", t->shown.name ?
	    t->shown.name : "");
	table_add_col(t, "values", h.buf, -1);
	strbuf_reset(&h);
	strbuf_addf(&h, "Mean (%s)", t->shown.name ? t->shown.name : "");
	table_add_col(t, "mean", h.buf, dec);
	strbuf_release(&h);
	table_add_col(t, "median", "Median", dec);
	table_add_col(t, "min", "Min", dec);
	table_add_col(t, "max", "Max", dec);
	table_add_col(t, "max_dev_pct", "Max dev. from mean %", 1);
	table_add_col(t, "outliers", "Outlier trials", -1);
	table_add_col(t, "outlier_rule", "rule", -1);
	t->cols[col0 + 4].md_hidden = t->cols[col0 + 5].md_hidden = true;
	t->cols[col0 + 6].md_hidden = true;
	t->cols[col0 + 9].md_hidden = true;
	/* connect probes: the trials whose statistic is "≥ timeout" */
	if (connect)
		table_add_hidden_col(t, "ge_timeout_trials",
		    "ge_timeout_trials", -1);
	return col0;
}

size_t
analyze_trial_values(const struct analyze_opts *o, const struct cellset *cs,
    const struct cell *c, const struct stats_name *s, const char *typed,
    double *vals, long *tno, bool *cens, struct cell_info *info)
{
	size_t k, n = 0;

	memset(info, 0, sizeof(*info));
	for (k = 0; k < c->ntrials; k++) {
		const struct trial *tr = &c->trials[k];
		double v;

		if (tr->n == 0 && !tr->summary_only)
			continue;
		if (tr->n) {
			if (s->kind == STATS_NAME_PCT)
				v = stats_quantile(o->est, tr->values, tr->n,
				    s->pct);
			else if (s->kind == STATS_NAME_MAX)
				v = tr->values[tr->n - 1];
			else if (s->kind == STATS_NAME_MIN)
				v = tr->values[0];
			else if (s->kind == STATS_NAME_N)
				v = (double)tr->n;
			else
				v = stats_mean(tr->values, tr->n);
			info->trials_raw++;
		} else {
			v = trial_tool_stat(tr, typed);
			info->trials_tool++;
		}
		if (!isfinite(v))
			continue;
		if (cens)
			cens[n] = trial_censored(o, cs, tr, s);
		tno[n] = tr->trial;
		vals[n++] = v;
	}
	return n;
}

/* The spread columns of a trials row: mean, median, range, largest
 * deviation, the outlier trials and the rule that found them. */
static void
trials_spread(struct table *t, size_t row, size_t col0, const double *vals,
    const long *tno, const bool *cens, size_t n, double scale, int dec)
{
	struct strbuf outl = STRBUF_INIT, sb = STRBUF_INIT;
	bool *flag = xcalloc(n + 1, sizeof(bool));
	struct stats_spread sp;
	size_t k, ncens = 0;

	for (k = 0; k < n; k++)
		ncens += cens[k];
	if (ncens) {
		/* a trial's value "≥ timeout" is no number: no mean, range,
		 * deviation or outlier test on the successes' values */
		for (k = col0 + 3; k <= col0 + 7; k++)
			table_set_display(t, row, k, "≥ timeout");
		table_set_str(t, row, col0 + 9, "none (trials ≥ timeout)");
		goto cleanup;
	}
	if (!n || stats_spread(vals, n, &sp, flag, NULL) != 0)
		goto cleanup;
	table_set_num(t, row, col0 + 3, sp.mean);
	table_set_num(t, row, col0 + 4, sp.median);
	table_set_num(t, row, col0 + 5, sp.min);
	table_set_num(t, row, col0 + 6, sp.max);
	table_set_num(t, row, col0 + 7, sp.max_dev_pct);
	for (k = 0; k < n; k++)
		if (flag[k])
			strbuf_addf(&outl, "%s%ld", outl.len ? "," : "",
			    tno[k]);
	table_set_str(t, row, col0 + 8, outl.buf);
	table_set_str(t, row, col0 + 9, sp.rule == STATS_OUTLIER_ROBUST_Z ?
	    "2x median and calibrated z" : sp.rule == STATS_OUTLIER_RATIO ?
	    "2x median (MAD 0)" : "none (< 3 trials)");
	if (scale != 1.0) {
		md_number(&sb, sp.mean * scale, dec);
		table_set_display_raw(t, row, col0 + 3, sb.buf);
	}
cleanup:
	strbuf_release(&outl);
	strbuf_release(&sb);
	free(flag);
}

/* The Markdown of a values list with the censored trials as "≥
 * timeout" (the machine text keeps the successes' numbers). */
static void
trials_values_censored(struct table *t, size_t row, size_t col,
    const struct cellset *cs, const double *vals, const bool *cens, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct unit_choice u = cs->shown;
	size_t k, any = 0;

	for (k = 0; k < n; k++)
		any += cens[k];
	if (!any)
		return;
	if (!u.name)
		units_choose(cs->info, NULL, NAN, false, &u);
	for (k = 0; k < n; k++) {
		if (k)
			strbuf_addstr(&sb, ", ");
		if (cens[k])
			strbuf_addstr(&sb, "≥ timeout");
		else
			units_format(&sb, &u, vals[k]);
	}
	table_set_display(t, row, col, sb.buf);
	strbuf_release(&sb);
}

int
analyze_trials(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	const char *unit;
	size_t i, j, col0, ncens = 0;
	double scale;
	int dec, ret;

	if (!no_extra_args(nargs, args, "trials"))
		return -2;
	/* the articles watch p50 and p99 from trial to trial (latency;
	 * common/metric.h has the others) */
	analyze_shown_stats("trials", o, &o2);
	if (load(db, o, &cs))
		return -1;
	dec = cs.shown.decimals;
	scale = md_scale(&cs, &unit);
	add_key_columns(t, &cs);
	col0 = trials_columns(t, dec, cs.info->timeout_bound);
	for (i = 0; i < cs.n; i++) {
		struct cell *c = &cs.cells[i];
		double *vals = xcalloc(c->ntrials + 1, sizeof(double));
		long *tno = xcalloc(c->ntrials + 1, sizeof(long));
		bool *cens = xcalloc(c->ntrials + 1, sizeof(bool));

		for (j = 0; j < o2.nstats; j++) {
			struct cell_info info;
			size_t n, row, k;

			n = analyze_trial_values(o, &cs, c, &o2.stats[j],
			    o2.stat_names[j], vals, tno, cens, &info);
			row = table_add_row(t);
			fill_key_columns(t, row, &cs, c, o, &info);
			table_set_str(t, row, col0, o2.stat_names[j]);
			table_set_int(t, row, col0 + 1, (int64_t)n);
			trials_values_cell(t, row, col0 + 2, &cs, vals, n);
			trials_spread(t, row, col0, vals, tno, cens, n, scale,
			    dec);
			if (cs.info->timeout_bound) {
				struct strbuf ge = STRBUF_INIT;

				for (k = 0; k < n; k++)
					if (cens[k])
						strbuf_addf(&ge, "%s%ld", ge.len ?
						    "," : "", tno[k]);
				table_set_str(t, row, col0 + 10, ge.buf);
				ncens += ge.len > 0;
				trials_values_censored(t, row, col0 + 2, &cs,
				    vals, cens, n);
				strbuf_release(&ge);
			}
		}
		free(vals);
		free(tno);
		free(cens);
	}
	{
		/* the estimator the JSON's estimator column names */
		size_t only, mixed;

		cellset_tool_cells(&cs, &only, &mixed);
		table_add_note(t, "%s: each trial's statistic (%s%s), their "
		    "mean, and the largest deviation of a trial from that mean "
		    "in %%.", cs.metric_name, cs.n && only == cs.n ? "the tool "
		    "summary's own" : stats_estimator_name(o->est),
		    cs.n && only == cs.n ? "" : only || mixed ? "; the tool "
		    "summary's own for trials without samples" : "");
	}
	outlier_rule_note(t);
	if (ncens)
		table_add_note(t, "≥ timeout: that trial's statistic of all its "
		    "attempts reads a timed-out one (%s; ge_timeout_trials "
		    "names them; values keeps the successes' number); a row "
		    "with one has no mean, range or outlier test.",
		    censor_rule(o->est));
	ret = pooling_table_note(db, &cs, &o->where, o->paths, o->npaths, t);
	cellset_release(&cs);
	return ret;
}

/* --------------------------------------------------------------------
 * A table whose numbers an engine computed: `analyze --sql`'s query
 * run elsewhere and its CSV read back (report's from_csv).  The columns
 * are the verbs' own; the Markdown text and notes follow the same rules
 * from the values the CSV holds.
 */

/* An empty cellset that gives the verbs' column code what it reads. */
static int
columns_cellset(const struct analyze_opts *o, struct cellset *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->info = metric_by_name(o->metric);
	if (!cs->info)
		return error("unknown metric '%s'", o->metric ? o->metric : "");
	cs->metric = (int)cs->info->id;
	cs->metric_name = cs->info->name;
	cs->unit = cs->info->unit;
	cs->dimkeys = o->by;
	cs->ndims = o->nby;
	cellset_choose_unit(cs, o, false);
	return 0;
}

int
analyze_columns(const char *verb, const struct analyze_opts *o,
    struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	const char *unit;
	size_t a, b, d;

	if (columns_cellset(o, &cs))
		return -1;
	/* the columns analyze's table would have: its statistics */
	analyze_shown_stats(verb, o, &o2);
	o = &o2;
	md_scale(&cs, &unit);
	if (!strcmp(verb, "percentiles")) {
		add_key_columns(t, &cs);
		pct_columns(t, o, unit, cs.shown.decimals,
		    cs.info->timeout_bound);
	} else if (!strcmp(verb, "delta")) {
		delta_columns(t, o, &cs, unit, &a, &b);
	} else if (!strcmp(verb, "ratio")) {
		table_add_col(t, "path", "Path", -1);
		table_add_col(t, "condition", "Condition", -1);
		for (d = 0; d < cs.ndims; d++)
			table_add_col(t, cs.dimkeys[d], cs.dimkeys[d], -1);
		table_add_hidden_col(t, "metric", "Metric", -1);
		table_add_hidden_col(t, "estimator", "Estimator", -1);
		table_add_hidden_col(t, "pool", "Pool", -1);
		table_add_hidden_col(t, "across", "across", -1);
		table_add_hidden_col(t, "numerator", "numerator", -1);
		table_add_hidden_col(t, "denominator", "denominator", -1);
		add_stat_cols(t, o, "", 2, true, cs.info->timeout_bound);
		table_add_col(t, "n_numerator", "n (num)", -1);
		table_add_col(t, "n_denominator", "n (den)", -1);
	} else if (!strcmp(verb, "trials")) {
		add_key_columns(t, &cs);
		trials_columns(t, cs.shown.decimals, cs.info->timeout_bound);
	} else {
		return error("%s has no --sql form (percentiles, delta, ratio "
		    "and trials have)", verb);
	}
	return 0;
}

/* Does column key name a statistic of o (and which)? */
static const struct stats_name *
stat_col(const struct analyze_opts *o, const char *key)
{
	size_t j;

	for (j = 0; j < o->nstats; j++)
		if (!strcmp(o->stat_names[j], key))
			return &o->stats[j];
	return NULL;
}

static bool
is_null(const struct table *t, size_t r, long c)
{
	return c < 0 || table_at((struct table *)t, r, (size_t)c)->type ==
	    CELL_NULL;
}

/* percentiles: missing and censored values, the display unit. */
static void
replay_percentiles(const struct analyze_opts *o, const struct cellset *cs,
    struct table *t, size_t nrows)
{
	const char *unit;
	double scale = md_scale(cs, &unit);
	long ecol = table_col(t, "estimator"), tcol = table_col(t, "timeouts");
	struct pct_ctx x;
	struct strbuf sb = STRBUF_INIT, k = STRBUF_INIT;
	size_t r, c;

	memset(&x, 0, sizeof(x));
	x.o = o;
	x.cs = (struct cellset *)cs;
	x.t = t;
	for (r = 0; r < t->nrows; r++) {
		const char *est = table_str(t, r, ecol);
		bool tool = est && strstr(est, "tool");

		x.ntool += tool;
		x.ntimeouts += tcol >= 0 && table_num(t, r, tcol) > 0;
		for (c = 0; c < t->ncols; c++) {
			const struct stats_name *s = stat_col(o, t->cols[c].key);
			long ge;
			double v = table_num(t, r, (long)c);

			if (!s || s->kind == STATS_NAME_N)
				continue;
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_ge_timeout", t->cols[c].key);
			ge = table_col(t, k.buf);
			strbuf_reset(&sb);
			if (ge >= 0 && table_num(t, r, ge) == 1) {
				strbuf_addstr(&sb, "≥ timeout");
				x.ncensored++;
			} else if (!isfinite(v)) {
				strbuf_addstr(&sb, tool && o->pool ==
				    STATS_POOL_POOLED ? "summary only: use "
				    "--pool trials" : "no samples");
			} else if (scale != 1.0) {
				md_number(&sb, v * scale, cs->shown.decimals);
			} else {
				continue;
			}
			table_set_display_raw(t, r, c, sb.buf);
		}
	}
	/* the number of tool-only trials is not in the CSV: rows */
	x.ntool = 0;
	/* pct_notes says "no runs match" only when there are no rows */
	{
		struct cellset rows = *cs;

		rows.n = nrows;
		x.cs = &rows;
		pct_notes(&x, unit);
	}
	for (r = 0; r < t->nrows; r++) {
		const char *est = table_str(t, r, ecol);

		if (est && strstr(est, "tool")) {
			table_add_note(t, "Rows whose estimator says tool have "
			    "trials without raw samples: %s", o->pool ==
			    STATS_POOL_PER_TRIAL ? "their statistics are the "
			    "tool's own (oha: sorted[floor(p·n)], no "
			    "interpolation)." : "left out of the pooled "
			    "statistics (use --pool trials to include the "
			    "tool's own numbers).");
			break;
		}
	}
	strbuf_release(&sb);
	strbuf_release(&k);
}

/* delta and ratio: "not measured" where a side is missing, else why a
 * statistic has no value; the display unit. */
static void
replay_contrast(const struct analyze_opts *o, const struct cellset *cs,
    struct table *t, bool ratio)
{
	const char *unit;
	double scale = ratio ? 1.0 : md_scale(cs, &unit);
	long na = table_col(t, ratio ? "n_numerator" : "n_minuend");
	long nb = table_col(t, ratio ? "n_denominator" : "n_subtrahend");
	long pair = table_col(t, "pair"), mcol = table_col(t, "metric");
	long gge = table_col(t, "growth_ge_timeout");
	struct strbuf sb = STRBUF_INIT;
	size_t r, c, r2, nmissing = 0;

	for (r = 0; r < t->nrows; r++) {
		bool missing = is_null(t, r, na) || is_null(t, r, nb);

		if (!ratio && is_null(t, r, mcol)) {
			/* a pair one of whose paths has no cells at all */
			bool a_seen = false;

			for (r2 = 0; r2 < t->nrows; r2++)
				if (!strcmp(table_str(t, r2, pair) ?
				    table_str(t, r2, pair) : "",
				    table_str(t, r, pair) ? table_str(t, r,
				    pair) : "") && !is_null(t, r2, na))
					a_seen = true;
			table_set_display(t, r, 3, a_seen ?
			    "subtrahend not measured" :
			    "minuend not measured");
			nmissing++;
			continue;
		}
		nmissing += missing;
		for (c = 0; c < t->ncols; c++) {
			const struct stats_name *s = stat_col(o, t->cols[c].key);
			double v = table_num(t, r, (long)c);

			if (!s)
				continue;
			strbuf_reset(&sb);
			if (!isfinite(v)) {
				table_set_display(t, r, c, missing ?
				    "not measured" : s->kind != STATS_NAME_N &&
				    cs->info->timeout_bound ? "≥ timeout" :
				    "no samples");
				continue;
			}
			if (ratio || scale == 1.0)
				continue;
			md_number(&sb, v * scale, cs->shown.decimals);
			table_set_display_raw(t, r, c, sb.buf);
		}
	}
	/* growth with a side "≥ timeout" (the query has the flag, not the
	 * bound: that needs the timeout) */
	for (r = 0; !ratio && gge >= 0 && r < t->nrows; r++)
		if (table_num(t, r, gge) == 1)
			table_set_display(t, r, (size_t)table_col(t, "growth"),
			    "–, censored");
	if (ratio) {
		struct strbuf what = STRBUF_INIT;
		long num = table_col(t, "numerator"), den = table_col(t,
		    "denominator");

		strbuf_addf(&what, "Ratio %s=%s over %s=%s, per path, under "
		    "otherwise equal conditions", o->across ? o->across : "",
		    t->nrows ? table_str(t, 0, num) : "", o->across ?
		    o->across : "", t->nrows ? table_str(t, 0, den) : "");
		contrast_caption(t, o, cs, what.buf);
		strbuf_release(&what);
	} else {
		contrast_caption(t, o, cs, "Minuend minus subtrahend under the "
		    "same condition; growth = Δp99 / Δp50 (how much the gap "
		    "widens in the slow tail)");
		if (nmissing)
			table_add_note(t, "not measured: one side of the pair "
			    "has no data under that condition.");
	}
	strbuf_release(&sb);
}

/* trials: the mean in the display unit, and the notes. */
static void
replay_trials(const struct analyze_opts *o, const struct cellset *cs,
    struct table *t)
{
	const char *unit;
	double scale = md_scale(cs, &unit);
	long mean = table_col(t, "mean");
	struct strbuf sb = STRBUF_INIT;
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		double v = table_num(t, r, mean);
		const char *ge = table_str(t, r, table_col(t,
		    "ge_timeout_trials"));

		trials_values_display(t, r, (size_t)table_col(t, "values"),
		    cs);
		/* trials "≥ timeout": no mean (trials_spread()) */
		if (ge && *ge) {
			table_set_display(t, r, (size_t)mean, "≥ timeout");
			continue;
		}
		if (!isfinite(v) || scale == 1.0)
			continue;
		strbuf_reset(&sb);
		md_number(&sb, v * scale, cs->shown.decimals);
		table_set_display_raw(t, r, (size_t)mean, sb.buf);
	}
	table_add_note(t, "%s: each trial's statistic (%s), their mean, and "
	    "the largest deviation of a trial from that mean in %%.",
	    cs->metric_name, stats_estimator_name(o->est));
	outlier_rule_note(t);
	strbuf_release(&sb);
}

int
analyze_replay(const char *verb, const struct analyze_opts *o,
    struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;

	if (columns_cellset(o, &cs))
		return -1;
	analyze_shown_stats(verb, o, &o2);
	if (strcmp(verb, "ratio"))
		cellset_choose_unit_table(&cs, &o2, t);
	if (!strcmp(verb, "percentiles"))
		replay_percentiles(&o2, &cs, t, t->nrows);
	else if (!strcmp(verb, "delta"))
		replay_contrast(&o2, &cs, t, false);
	else if (!strcmp(verb, "ratio"))
		replay_contrast(&o2, &cs, t, true);
	else if (!strcmp(verb, "trials"))
		replay_trials(&o2, &cs, t);
	else
		return error("%s has no --sql form", verb);
	analyze_stats_note(t, &o2);
	return 0;
}

enum cell_type
analyze_column_type(const char *verb, const struct analyze_opts *o,
    const char *key)
{
	static const char *const text[] = {
		"path", "condition", "metric", "estimator", "pool", "pair",
		"minuend", "subtrahend", "across", "numerator", "denominator",
		"stat", "values", "outliers", "outlier_rule", "pooled_over",
		"ge_timeout_trials",
	};
	static const char *const ints[] = {
		"n", "trials", "failures", "timeouts", "n_minuend", "n_subtrahend",
		"trials_minuend", "trials_subtrahend", "n_numerator",
		"n_denominator",
	};
	const struct stats_name *s = stat_col(o, key);
	size_t i, len = strlen(key);

	for (i = 0; i < o->nby; i++)
		if (!strcmp(o->by[i], key))
			return CELL_STR;
	for (i = 0; i < ARRAY_SIZE(text); i++)
		if (!strcmp(text[i], key))
			return CELL_STR;
	for (i = 0; i < ARRAY_SIZE(ints); i++)
		if (!strcmp(ints[i], key))
			return CELL_INT;
	if (len > 11 && !strcmp(key + len - 11, "_ge_timeout"))
		return CELL_INT;
	if ((len > 10 && !strcmp(key + len - 10, "_ci_reason")) ||
	    (len > 10 && !strcmp(key + len - 10, "_ci_covers")))
		return CELL_STR;
	/* percentiles' n statistic is the count */
	if (s && s->kind == STATS_NAME_N && !strcmp(verb, "percentiles"))
		return CELL_INT;
	return CELL_NUM;
}
