/*
 * contrast.c - the verbs that set two cells against each other: delta
 * (minuend minus subtrahend per statistic, with growth = Δp99/Δp50) and
 * ratio across a condition key.  verbs.c has the table helpers they
 * share (verbs.h).
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

/* --------------------------------------------------------------------
 * delta and ratio share the contrast of two cells.
 */

struct contrast {
	struct cell	*a, *b;		/* a - b or a / b; either may be NULL */
	bool		ratio;
};

/* The reasons a contrast of all attempts has no interval: both are
 * listed in docs/research/intervals.md. */
static const char WHY_ALL_REACHES[] = "all attempts: the order-statistic "
    "interval reaches the timed-out attempts (its upper end ≥ timeout)";
static const char WHY_ALL_TL[] = "all attempts: the trials' intervals are "
    "of their completed attempts; none is drawn over timed-out ones";

/* Does side c have timeouts that --attempts all ranks? */
static bool
side_has_timeouts(const struct cellset *cs, const struct cell *c)
{
	return cs->info->timeout_bound && c->timeouts > 0;
}

/*
 * Statistic s of side c as the contrast reads it: the completed
 * attempts' (cell_compute()) or, with --attempts all on a side with
 * timeouts, that of all attempts, its timeouts ranked at the timeout
 * above every success (cell_all_attempts(); exact where it is not
 * censored, and censored where it reads a timeout: the same rule).
 * A mean of all attempts is unknown (a timeout has no time): NaN.
 */
static void
side_stat(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s, struct cell_stat *v,
    struct cell_info *info)
{
	cell_compute(o, cs, c, s, false, v, info);
	if (!o->attempts_all || v->censored || !side_has_timeouts(cs, c))
		return;
	if (s->kind == STATS_NAME_MEAN) {
		v->value = NAN;
		v->why_missing = "all attempts: no mean of timed-out attempts";
		return;
	}
	v->value = cell_all_attempts(o, cs, c, s);
}

/* Why a contrast of all attempts with a side with timeouts has no
 * interval of statistic s: its order-statistic interval over all the
 * side's attempts (pooled) reaches a timed-out rank, or else the
 * trial-level intervals are of the completed attempts. */
static const char *
all_attempts_why(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s)
{
	struct stats_interval iv;
	const double *x;
	double *all, fill;
	size_t n, i, tmo = 0;
	const char *why = WHY_ALL_TL;

	if (s->kind != STATS_NAME_PCT || !side_has_timeouts(cs, c))
		return s->kind == STATS_NAME_PCT ? NULL : WHY_ALL_TL;
	n = cell_pooled(c, &x);
	for (i = 0; i < c->ntrials; i++)
		if (!c->trials[i].summary_only)
			tmo += (size_t)c->trials[i].timeouts;
	if (!n || !isfinite(c->timeout_ms))
		return WHY_ALL_TL;
	fill = x[n - 1] > c->timeout_ms ? x[n - 1] : c->timeout_ms;
	/* all: owned here */
	all = xmalloc((n + tmo) * sizeof(*all));
	memcpy(all, x, n * sizeof(*all));
	for (i = 0; i < tmo; i++)
		all[n + i] = fill;
	if (stats_sample_interval(all, n + tmo, s->pct,
	    stats_quantile(o->est, all, n + tmo, s->pct), o->level, &iv) ||
	    iv.covers == STATS_COVERS_NONE || !(iv.hi < fill))
		why = WHY_ALL_REACHES;
	free(all);
	return why;
}

/* Value of the contrast for stat s, with its trial-level interval (and
 * what it covers) when o->ci; NaN when a side is missing.  *why says why
 * the value or, when the value is there, the interval is missing.  A
 * censored side: *censored, and the bound it implies in *bound (*dir,
 * cell_contrast_bound()).  *borrowed: the cells of their design the
 * interval's sides borrowed the spread of (the fewer side's), 0 when it
 * is the pair's own. */
static void
contrast_stat(const struct analyze_opts *o, const struct cellset *cs,
    const struct contrast *k, const struct stats_name *s, double *val,
    double *lo, double *hi, enum stats_covers *covers, const char **why,
    bool *censored, double *bound, int *dir, size_t *borrowed)
{
	struct cell_stat va, vb;
	struct cell_info ia, ib;

	*val = *lo = *hi = NAN;
	*covers = STATS_COVERS_NONE;
	*why = NULL;
	*censored = false;
	*bound = NAN;
	*dir = 0;
	*borrowed = 0;
	if (!k->a || !k->b) {
		*why = "not measured";
		return;
	}
	side_stat(o, cs, k->a, s, &va, &ia);
	side_stat(o, cs, k->b, s, &vb, &ib);
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
	if (o->ci && o->attempts_all && (side_has_timeouts(cs, k->a) ||
	    side_has_timeouts(cs, k->b))) {
		const char *wa = all_attempts_why(o, cs, k->a, s);
		const char *wb = all_attempts_why(o, cs, k->b, s);

		*why = wa == WHY_ALL_REACHES || wb == WHY_ALL_REACHES ?
		    WHY_ALL_REACHES : WHY_ALL_TL;
		return;
	}
	if (o->ci) {
		struct stats_interval iv;
		const char *wa, *wb;
		double *ua, *ub, *vua, *vub, ea, eb;
		size_t ta = cell_tl(o, k->a, s, &ua, &vua, &ea, &wa);
		size_t tb = cell_tl(o, k->b, s, &ub, &vub, &eb, &wb);

		if (!ta || !tb) {
			*why = ta ? wb : wa;
		} else {
			struct stats_borrow ba, bb;

			/* each side borrows its design's spread, as its
			 * percentile interval does (analyze/borrow.c) */
			cell_borrow(o, cs, k->a, s, ta, &ba);
			cell_borrow(o, cs, k->b, s, tb, &bb);
			if (s->kind != STATS_NAME_PCT)
				ba.cells = bb.cells = 0;
			if (stats_tl_contrast_borrow(ua, vua, ta, va.value,
			    &ba, ub, vub, tb, vb.value, &bb, k->ratio ?
			    STATS_RATIO : STATS_DELTA, o->level, &iv) == 1)
				*borrowed = ba.cells < bb.cells ? ba.cells :
				    bb.cells;
			cell_contrast_clip(k->a, k->b, k->ratio ? STATS_RATIO :
			    STATS_DELTA, &iv);
			*lo = iv.lo;
			*hi = iv.hi;
			*covers = iv.covers;
			*why = iv.why;
		}
		free(ua);
		free(ub);
		free(vua);
		free(vub);
	}
}

/* Add one column per stat (+ _ge_timeout for connect probes, + _lo/_hi,
 * _ci_covers, _ci_reason, _ci_borrowed with --ci); returns the first one. */
size_t
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
			/* the cells of their design the sides borrowed the
			 * spread of (analyze/borrow.c), 0 none */
			strbuf_reset(&h);
			strbuf_addf(&h, "%s_ci_borrowed", name);
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

/* --attempts all: the caption names the target. */
static void
attempts_note(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs)
{
	size_t i;
	int64_t tmo = 0;

	if (!o->attempts_all)
		return;
	for (i = 0; i < cs->n; i++)
		tmo += cs->cells[i].timeouts;
	table_add_note(t, "--attempts all: each percentile is the percentile "
	    "of all attempts, a timeout ranked at or beyond the timeout above "
	    "every success (refusals and errors have no connect time and are "
	    "left out); where it falls among the timeouts it is ≥ timeout, "
	    "never a number, else it is the completed attempts' percentile at "
	    "rank p over all attempts (1 %% timeouts: p95 of all attempts is "
	    "about the completed attempts' p95.96)%s", tmo ? "; a side with timeouts "
	    "has no interval (JSON: <stat>_ci_reason says why)." : "; no "
	    "attempt timed out here: the same numbers as --attempts completed.");
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
		size_t nbor = 0;
		struct strbuf sb = STRBUF_INIT;

		if (o->stats[j].kind == STATS_NAME_N) {
			v = k->a && k->b ? (k->ratio ? stats_ratio((double)k->a->n,
			    (double)k->b->n) : (double)k->a->n - (double)k->b->n) :
			    NAN;
			lo = hi = NAN;
			why = k->a && k->b ? NULL : "not measured";
		} else {
			contrast_stat(o, cs, k, &o->stats[j], &v, &lo, &hi, &cov,
			    &why, &cens, &bound, &dir, &nbor);
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
			table_set_int(t, row, col++, (int64_t)nbor);
		}
	}
	return col;
}

/* Whether the cells' percentile intervals, and so the contrasts', borrow
 * their design's spread (analyze/borrow.c): borrow_notes() over the
 * cell statistics (each a side's share of a contrast's interval). */
static void
contrast_borrow_note(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs)
{
	size_t i, j, tr, nb = 0, most = 0, lone = 0;

	for (i = 0; i < cs->n; i++) {
		const struct cell *c = &cs->cells[i];

		for (j = tr = 0; j < c->ntrials; j++)
			tr += c->trials[j].n > 0;
		for (j = 0; tr >= STATS_TL_MIN_TRIALS && j < o->nstats; j++) {
			struct stats_borrow b;
			size_t n;

			if (o->stats[j].kind != STATS_NAME_PCT)
				continue;
			n = cell_borrow(o, cs, c, &o->stats[j], tr, &b);
			if (n >= STATS_BORROW_MIN_CELLS)
				nb++;
			else
				lone++;
			if (n > most)
				most = n;
		}
	}
	borrow_notes(t, nb, most, lone, true);
}

void
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
			    "linearized share does not hold: "
			    "docs/research/intervals.md).",
			    nby);
		contrast_borrow_note(t, o, cs);
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
void
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
	double *ua, *ub, *vua, *vub, e;
	const char *wa, *wb;
	size_t ta, tb;

	d50 = a50 - b50;
	if (!*dir || !isfinite(d50) || d50 == 0) {
		*dir = 0;
		return NAN;
	}
	ta = cell_tl(o, k->a, &p50, &ua, &vua, &e, &wa);
	tb = cell_tl(o, k->b, &p50, &ub, &vub, &e, &wb);
	if (ta && tb) {
		struct cell_stat va, vb;
		struct cell_info info;

		cell_compute(o, cs, k->a, &p50, false, &va, &info);
		cell_compute(o, cs, k->b, &p50, false, &vb, &info);
		stats_tl_contrast_v(ua, vua, ta, va.value, ub, vub, tb,
		    vb.value, STATS_DELTA, o->level, &iv);
		if (isfinite(iv.lo) && iv.lo <= 0 && iv.hi >= 0)
			*dir = 0;
	}
	free(ua);
	free(ub);
	free(vua);
	free(vub);
	if (!*dir)
		return NAN;
	if (d50 < 0)
		*dir = -*dir;
	return d99 / d50;
}

/* A side with no p50 interval of its own (two trials, too few for a
 * t interval): the order-statistic interval of its pooled samples. */
static void
p50_sample_range(const struct analyze_opts *o, struct cell *c,
    struct cell_stat *v)
{
	struct stats_interval iv;
	const double *x;
	size_t n;

	if (v->lo <= v->hi)
		return;
	n = cell_pooled(c, &x);
	if (!n || stats_sample_interval(x, n, 50.0, v->value, o->level, &iv) ||
	    iv.covers == STATS_COVERS_NONE)
		return;
	v->lo = iv.lo;
	v->hi = iv.hi;
}

/*
 * Whether dp50 of contrast k is clearly away from 0, with or without
 * --ci: its trial-level interval excludes 0; where there is none (one
 * or two trials a side), the range between the sides' p50 intervals
 * (order statistics of the samples) excludes 0.  Without
 * either, growth divides by a difference that may be noise (a dp50 of
 * 0.013 ms gave a growth of -3.70), so it is withheld; *why says so.
 */
static bool
growth_d50_clear(const struct analyze_opts *o, const struct cellset *cs,
    const struct contrast *k, const char **why)
{
	static const struct stats_name p50 = { STATS_NAME_PCT, 50.0 };
	struct analyze_opts oc = *o;
	struct cell_stat a, b;
	struct cell_info info;
	enum stats_covers covers;
	double val, lo, hi, bound;
	const char *w;
	bool censored;
	int dir;
	size_t nbor;

	oc.ci = true;
	contrast_stat(&oc, cs, k, &p50, &val, &lo, &hi, &covers, &w,
	    &censored, &bound, &dir, &nbor);
	if (covers == STATS_COVERS_NONE || !(lo <= hi)) {
		cell_compute(&oc, cs, k->a, &p50, true, &a, &info);
		cell_compute(&oc, cs, k->b, &p50, true, &b, &info);
		p50_sample_range(o, k->a, &a);
		p50_sample_range(o, k->b, &b);
		stats_contrast_range(a.lo, a.hi, b.lo, b.hi, STATS_DELTA, &lo,
		    &hi);
		if (!isfinite(lo) || !isfinite(hi)) {
			*why = "no interval for Δp50 to tell it from 0";
			return false;
		}
	}
	if (lo <= 0 && hi >= 0) {
		*why = "Δp50 not distinguishable from 0";
		return false;
	}
	return true;
}

/*
 * Growth dp99 / dp50 of contrast k with its trial-level interval: g is
 * withheld (NaN, g->why) when dp50 is not clearly away from 0
 * (growth_d50_clear()), and has no
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
	side_stat(o, cs, k->a, &p50, &a50, &info);
	side_stat(o, cs, k->a, &p99, &a99, &info);
	side_stat(o, cs, k->b, &p50, &b50, &info);
	side_stat(o, cs, k->b, &p99, &b99, &info);
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
	if (!growth_d50_clear(o, cs, k, &g->why)) {
		g->estimate = NAN;
		return;
	}
	/* all attempts with timeouts: no interval (contrast_stat()) */
	if (o->attempts_all && (side_has_timeouts(cs, k->a) ||
	    side_has_timeouts(cs, k->b))) {
		g->why = WHY_ALL_TL;
		return;
	}
	ta = cell_tl(o, k->a, &p50, &ua50, NULL, &e, &w50a);
	tb = cell_tl(o, k->b, &p50, &ub50, NULL, &e, &w50b);
	if (ta && tb) {
		ta99 = cell_tl(o, k->a, &p99, &ua99, NULL, &e, &w99a);
		tb99 = cell_tl(o, k->b, &p99, &ub99, NULL, &e, &w99b);
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
    size_t *nbound, struct side_loss_warn *w)
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
		/* a mark only where the column shows: its footnote under
		 * a table without growth (--stats p50,p75) explained no
		 * cell (growth_ci_reason keeps the reason) */
		if (g.covers == STATS_COVERS_NONE && g.why &&
		    !t->cols[col_growth].md_hidden)
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
	side_loss_fill(t, row, w->a, w->b, k.a, k.b);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s%s%s%s", pair, *cell->cond ? " (" : "",
	    cell->cond, *cell->cond ? ")" : "");
	side_loss_check(w, o, sb.buf, k.a, k.b);
	strbuf_release(&sb);
	return !k.a || !k.b;
}

int
analyze_delta(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct cellset cs;
	const char *unit;
	size_t c, col_stat, col_growth, nmissing = 0, nbound = 0;
	struct side_loss_warn w = { "minuend", "subtrahend", false, 0,
	    STRBUF_INIT };
	int p, ret = 0;

	if (nargs < 1) {
		error("delta needs at least one PAIR, e.g. \"G-G'\" or H-B");
		return -2;
	}
	if (verbs_load(db, o, &cs))
		return -1;
	md_scale(&cs, &unit);
	delta_columns(t, o, &cs, unit, &col_stat, &col_growth);
	side_loss_columns(t, w.a, w.b, cs.info->timeout_bound);
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
			    col_stat, col_growth, &nbound, &w);
		}
		free(pa);
		free(pb);
	}
	/* growth only where its column shows (p50 and p99 shown) */
	contrast_caption(t, o, &cs, t->cols[col_growth].md_hidden ?
	    "Minuend minus subtrahend under the same condition" :
	    "Minuend minus subtrahend under the same condition; growth = "
	    "Δp99 / Δp50 (how much the gap widens in the slow tail)");
	if (nmissing)
		table_add_note(t, "not measured: one side of the pair has no data "
		    "under that condition.");
	/* --attempts all: attempts_note() says what the target is */
	if (!o->attempts_all)
		side_loss_notes(t, &w);
	strbuf_release(&w.text);
	censor_contrast_note(t, &cs, nbound);
	attempts_note(t, o, &cs);
	if (!ret)
		ret = pooling_table_note(db, &cs, &o->where, o->paths,
		    o->npaths, t);
	cellset_release(&cs);
	return ret;
}

/* The ratio table's columns, dec decimals for its statistics; returns
 * where the statistics start. */
size_t
ratio_columns(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs, int dec)
{
	size_t d, col_stat;

	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d < cs->ndims; d++)
		table_add_col(t, cs->dimkeys[d], cs->dimkeys[d], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	table_add_hidden_col(t, "pool", "Pool", -1);
	table_add_hidden_col(t, "across", "across", -1);
	table_add_hidden_col(t, "numerator", "numerator", -1);
	table_add_hidden_col(t, "denominator", "denominator", -1);
	col_stat = add_stat_cols(t, o, "", dec, true, cs->info->timeout_bound);
	table_add_col(t, "n_numerator", "n (num)", -1);
	table_add_col(t, "n_denominator", "n (den)", -1);
	return col_stat;
}

int
analyze_ratio(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct cellset cs;
	const char *slash;
	char *num = NULL, *den = NULL;
	size_t i, d, col_stat, nbound = 0;
	struct side_loss_warn w = { "numerator", "denominator", false, 0,
	    STRBUF_INIT };
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
	if (verbs_load(db, o, &cs)) {
		free(num);
		free(den);
		return -1;
	}
	col_stat = ratio_columns(t, o, &cs, dec);
	side_loss_columns(t, w.a, w.b, cs.info->timeout_bound);

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
		side_loss_fill(t, row, w.a, w.b, k.a, k.b);
		{
			struct strbuf lb = STRBUF_INIT;

			strbuf_addf(&lb, "%s%s%s%s", c->path, *rest ? " (" :
			    "", rest, *rest ? ")" : "");
			side_loss_check(&w, o, lb.buf, k.a, k.b);
			strbuf_release(&lb);
		}
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
	/* --attempts all: attempts_note() says what the target is */
	if (!o->attempts_all)
		side_loss_notes(t, &w);
	strbuf_release(&w.text);
	censor_contrast_note(t, &cs, nbound);
	attempts_note(t, o, &cs);
	if (!ret)
		ret = pooling_table_note(db, &cs, &o->where, o->paths,
		    o->npaths, t);
	cellset_release(&cs);
	free(num);
	free(den);
	return ret;
}
