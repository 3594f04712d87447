/*
 * verbs.c - the percentile verbs of `pathstat analyze` (percentiles and
 * relative) and the table helpers every verb's table shares (verbs.h):
 * delta and ratio are in contrast.c, trials in trials.c, the tables an
 * engine's numbers fill in replay.c.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "analyze/pooling.h"
#include "analyze/verbs.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "stats/verdict.h"

/* The outlier-trial rule in words, made from the constants
 * stats_outlier_trials() uses (stats/verdict.h), so the caption, the
 * report's Methods and docs/analyze.md (tests/cli/t3835) say what the code
 * does. */
void
outlier_rule_note(struct table *t)
{
	struct strbuf r = STRBUF_INIT, p = STRBUF_INIT;

	md_number(&r, STATS_OUTLIER_MIN_RATIO, 0);
	md_number(&p, STATS_OUTLIER_POOL_MIN_RATIO, 1);
	table_add_note(t, "Outlier trials: ≥ %s× or ≤ 1/%s× the median trial "
	    "and beyond a robust z (log scale) calibrated for that many "
	    "trials (the 95 %% critical value of the largest z of n trials, "
	    "n ≥ %d; from %d trials on, each side's own spread) on the "
	    "trials' p50, the ratio alone when the trials' spread is 0; with "
	    "%d–%d trials also a trial whose p50, p95 or p99 is ≥ %s× or ≤ "
	    "1/%s× the median trial and beyond the spread the selection's "
	    "cells of that trial count share (%d cells or more; with fewer, "
	    "the rule above on each of them).  One rule names a cell's "
	    "outlier trials on every row of it (the rule column: on which "
	    "statistics), in pathstat check's outlier-trial, in the "
	    "withdrawal of trial-level intervals and in the report's box "
	    "charts.", r.buf, r.buf, STATS_OUTLIER_CAL_MIN,
	    STATS_OUTLIER_SEMI_MIN, STATS_OUTLIER_POOL_MIN_TRIALS,
	    STATS_OUTLIER_POOL_MAX_TRIALS, p.buf, p.buf,
	    STATS_OUTLIER_POOL_MIN_CELLS);
	strbuf_release(&r);
	strbuf_release(&p);
}

int
verbs_load(sqlite3 *db, const struct analyze_opts *o, struct cellset *cs)
{
	struct cells_query q;

	analyze_query(o, true, &q);
	if (cells_load(db, &q, cs))
		return -1;
	cellset_choose_unit(cs, o, false);
	return 0;
}

bool
verbs_no_args(int nargs, char **args, const char *verb)
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
void
set_ci_reason(struct table *t, size_t row, size_t col, double lo,
    const char *why)
{
	if (!isfinite(lo))
		table_set_str(t, row, col, why ? why : "no interval");
}

/* Can statistic s of a connect metric be "≥ timeout" (percentiles,
 * max)?  Such a statistic has a <stat>_ge_timeout column. */
bool
censorable(bool connect, const struct stats_name *s)
{
	return connect && (s->kind == STATS_NAME_PCT ||
	    s->kind == STATS_NAME_MAX);
}

/* The columns of a percentiles table after the key columns: counts,
 * loss (connect probes), then each statistic with its hidden
 * companions.  Returns the column of n. */
size_t
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
			/* the cells of its design whose spread the
			 * interval borrowed (analyze/borrow.c), 0 none */
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_ci_borrowed", name);
			table_add_hidden_col(t, k.buf, k.buf, -1);
		}
	}
	/* the run tags each row pools (analyze/pooling.h) */
	table_add_hidden_col(t, "pooled_over", "pooled_over", -1);
	strbuf_release(&h);
	strbuf_release(&k);
	return col_n;
}

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
		table_set_int(t, row, col++, (int64_t)v.borrowed);
		x->covers[v.covers]++;
		x->nborrowed += v.borrowed > 0;
		if (v.borrowed > x->borrow_cells)
			x->borrow_cells = v.borrowed;
		x->nlone += v.design_cells && !v.borrowed;
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
		table_set_str(t, row, x->udp ? x->col_udp - 1 : t->ncols - 1,
		    po.buf);
		strbuf_release(&po);
	}
	x->ntool += info.trials_tool;
	cell_pooled_release(c);
}

/* The censoring rule of estimator est, in words (stats_censored()). */
const char *
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
void
ci_notes(struct table *t, const struct analyze_opts *o, const size_t *covers)
{
	if (covers[STATS_COVERS_TRIALS])
		table_add_note(t, "[lo, hi]: %.0f %% interval covering "
		    "trial-to-trial variation and sampling (<stat>_ci_covers = "
		    "trials): a t interval on trial-level values with trials − 1 "
		    "degrees of freedom (%s), from %d trials; coverage measured in "
		    "docs/research/coverage.md.", o->level * 100, o->pool ==
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
		    "share below the percentile; where one rank step of those "
		    "samples moves a tail by more than half the level, both "
		    "ends are interpolated between two order statistics, "
		    "Nyblom 1992); it says nothing about how another run "
		    "would differ.", o->level * 100);
}

/* Whether trial-level percentile intervals borrowed their design's
 * spread (analyze/borrow.c), once a table. */
void
borrow_notes(struct table *t, size_t nborrowed, size_t cells, size_t nlone,
    bool key)
{
	if (nborrowed)
		table_add_note(t, "%zu interval(s) borrowed the spread of the "
		    "trials of the selection's cells of their design (the "
		    "same metric, trial count and trial sizes within %gx; up "
		    "to %zu cells%s): slow runs "
		    "that come and go (a noisy neighbour, a bad hour) widen "
		    "the intervals of cells none of whose trials was slow "
		    "(docs/research/intervals.md).", nborrowed,
		    STATS_BORROW_SIZE_RATIO, cells, key ?
		    ", <stat>_ci_borrowed = cells" : "");
	if (nlone)
		table_add_note(t, "%zu interval(s) from fewer than %d cells of "
		    "their design (the same metric, trial count and trial "
		    "sizes): a selection this small cannot see slow runs that "
		    "come and go (a trial now and then slower), and where "
		    "none of a cell's trials was slow its interval misses "
		    "more often than it says; select the campaign's other "
		    "cells of that design to borrow their spread "
		    "(docs/research/intervals.md).", nlone, STATS_BORROW_MIN_CELLS);
}

/* The side and UDP loss of the row just added for cell c. */
static int
udp_row(struct pct_ctx *x, sqlite3 *db, const struct cell *c)
{
	struct udp_row u;
	size_t row = x->t->nrows - 1;

	if (udp_cell(db, c, &u))
		return -1;
	if (!u.side)
		return 0;
	table_set_str(x->t, row, x->col_udp, u.side);
	table_set_num(x->t, row, x->col_udp + 1, u.loss_pct);
	x->nsender += !strcmp(u.side, "sender") || !strncmp(u.side, "mixed",
	    5);
	if (isfinite(u.loss_pct) && !(u.loss_pct <= x->max_loss))
		x->max_loss = u.loss_pct;
	return 0;
}

/* What the side and UDP loss % columns say. */
static void
udp_note(const struct pct_ctx *x)
{
	table_add_note(x->t, "side: whose rate a UDP row is.  receiver: what "
	    "arrived (the receiver's intervals, which --get-server-output "
	    "carries when the server runs with -J); receiver (end of test): "
	    "one value a run, the receiver's end-of-test rate, since the "
	    "client's own intervals are the rate it sent%s.  UDP loss %%: "
	    "lost / sent datagrams of the row's runs (the receiver's "
	    "end-of-test counts)%s.", x->nsender ? "; sender: the file has "
	    "no receiver's count, or the database was filled before "
	    "pathstat read it (ingest --force reads it again)" : "",
	    x->max_loss >= 1 ? "; `pathstat check --only udp-loss` flags "
	    "a large one" : "");
}

void
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
	if (x->udp)
		udp_note(x);
	if (o->ci)
		ci_notes(t, o, x->covers);
	if (o->ci && x->nby_trials)
		table_add_note(t, "%zu interval(s) from the trials' own values "
		    "around the pooled estimate (ties at the pooled percentile, "
		    "or trials of unequal size, where the linearized share does "
		    "not hold: docs/research/intervals.md).", x->nby_trials);
	if (o->ci)
		borrow_notes(t, x->nborrowed, x->borrow_cells, x->nlone, true);
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

	if (!verbs_no_args(nargs, args, "percentiles"))
		return -2;
	if (verbs_load(db, o, &cs))
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
	x.udp = udp_cellset(&cs);
	x.max_loss = NAN;
	if (x.udp) {
		x.col_udp = table_add_col(t, "side", "side", -1);
		table_add_col(t, "udp_loss_pct", "UDP loss %", 1);
	}
	table_reserve_rows(t, cs.n);
	for (i = 0; i < cs.n; i++) {
		pct_row(&x, &cs.cells[i], col_n, col_stat0);
		if (x.udp && udp_row(&x, db, &cs.cells[i])) {
			pooling_release(&x.pool);
			cellset_release(&cs);
			return -1;
		}
	}
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

	if (!verbs_no_args(nargs, args, "relative"))
		return -2;
	if (verbs_load(db, o, &cs))
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
				/* divide first: 100 * 1.7e308 overflows */
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
