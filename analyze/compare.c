/*
 * compare.c - the verbs that set values of one dimension side by side:
 * compare (a baseline against each other value, with bootstrap
 * intervals, a rank test on trial-level values, Holm correction and a
 * practical threshold), trend (a statistic over days or hours, its
 * Theil-Sen slope and change points) and variance (where a cell's spread
 * comes from, and how many trials a target precision needs).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/internal.h"
#include "analyze/pooling.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "stats/verdict.h"

void
analyze_default_stats(const struct analyze_opts *o, struct analyze_opts *o2)
{

	*o2 = *o;
	if (o->stats_given)
		return;
	memset(o2->stats, 0, sizeof(o2->stats));
	o2->stats[0].kind = STATS_NAME_PCT;
	o2->stats[0].pct = 50.0;
	o2->stats[1].kind = STATS_NAME_PCT;
	o2->stats[1].pct = 99.0;
	o2->stat_names[0] = name_p50;
	o2->stat_names[1] = name_p99;
	o2->nstats = 2;
}

int
analyze_load_by(sqlite3 *db, const struct analyze_opts *o, const char *key,
    struct cellset *cs)
{
	struct cells_query q;
	char **by = xcalloc(o->nby + 1, sizeof(char *));
	char *key_copy = xstrdup(key);
	size_t i, n = 0;
	int ret;

	for (i = 0; i < o->nby; i++)
		if (strcmp(o->by[i], key))
			by[n++] = o->by[i];
	by[n++] = key_copy;
	analyze_query(o, true, &q);
	q.by = by;
	q.nby = n;
	ret = cells_load(db, &q, cs);
	if (!ret)
		cellset_choose_unit(cs, o, true);
	free(by);
	free(key_copy);
	return ret;
}

/* Per-trial values of statistic s for cell c (raw trials, else the tool's
 * own numbers).  Returns the count; *out is malloc()ed, caller frees. */
static size_t
trial_values(const struct analyze_opts *o, const struct cell *c,
    const struct stats_name *s, const char *typed, double **out)
{
	double *v = xcalloc(c->ntrials + 1, sizeof(double));
	size_t i, n = 0;

	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];
		double x = NAN;

		if (t->n) {
			switch (s->kind) {
			case STATS_NAME_PCT:
				x = stats_quantile(o->est, t->values, t->n, s->pct);
				break;
			case STATS_NAME_MIN:
				x = t->values[0];
				break;
			case STATS_NAME_MAX:
				x = t->values[t->n - 1];
				break;
			case STATS_NAME_MEAN:
				x = stats_mean(t->values, t->n);
				break;
			case STATS_NAME_N:
				x = (double)t->n;
				break;
			}
		} else if (t->summary_only) {
			x = trial_tool_stat(t, typed);
		}
		if (isfinite(x))
			v[n++] = x;
	}
	*out = v;
	return n;
}

/* Same keys except the last dimension? */
static bool
same_group(const struct cellset *cs, const struct cell *a, const struct cell *b)
{
	size_t d;

	if (strcmp(a->path, b->path) || strcmp(a->cond, b->cond))
		return false;
	for (d = 0; d + 1 < cs->ndims; d++)
		if (strcmp(a->dims[d], b->dims[d]))
			return false;
	return true;
}

static void
add_group_columns(struct table *t, const struct cellset *cs)
{
	size_t d;

	t->shown = cs->shown;
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d + 1 < cs->ndims; d++)
		table_add_col(t, cs->dimkeys[d], cs->dimkeys[d], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	table_add_hidden_col(t, "pool", "Pool", -1);
}

static size_t
fill_group_columns(struct table *t, size_t row, const struct cellset *cs,
    const struct cell *c, const struct analyze_opts *o)
{
	size_t d, col = 0, raw = 0, tool = 0;
	struct analyze_opts tmp;
	struct strbuf est = STRBUF_INIT;

	/* the estimator of the numbers the row was built from, as
	 * percentiles names it: oha's own numbers are "tool" */
	for (d = 0; d < c->ntrials; d++) {
		raw += c->trials[d].n > 0;
		tool += !c->trials[d].n && c->trials[d].summary_only;
	}
	o = cell_opts(o, c, &tmp);
	strbuf_addstr(&est, tool && !raw ? "tool" : stats_estimator_name(o->est));
	if (tool && raw && o->pool == STATS_POOL_PER_TRIAL)
		strbuf_addstr(&est, "+tool");
	table_set_str(t, row, col++, c->path);
	table_set_str(t, row, col++, c->cond);
	for (d = 0; d + 1 < cs->ndims; d++)
		table_set_str(t, row, col++, c->dims[d]);
	table_set_str(t, row, col++, cs->metric_name);
	table_set_str(t, row, col++, est.buf);
	table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	strbuf_release(&est);
	return col;
}

/* The trial-level interval of a's statistic s against b's (values va,
 * vb) as a difference or ratio (stats/interval.c); lo, hi NaN and
 * iv->why set when there is none. */
static void
tl_contrast(const struct analyze_opts *o, const struct stats_name *s,
    struct cell *a, struct cell *b, double va, double vb,
    enum stats_contrast k, struct stats_interval *iv)
{
	double *ua, *ub, ea, eb;
	const char *wa, *wb;
	size_t ta = cell_tl(o, a, s, &ua, &ea, &wa);
	size_t tb = cell_tl(o, b, s, &ub, &eb, &wb);

	if (ta && tb) {
		stats_tl_contrast(ua, ta, va, ub, tb, vb, k, o->level, iv);
		cell_contrast_clip(a, b, k, iv);
	} else {
		iv->estimate = k == STATS_RATIO ? stats_ratio(va, vb) : va - vb;
		iv->lo = iv->hi = iv->se = iv->df = NAN;
		iv->covers = STATS_COVERS_NONE;
		iv->why = ta ? wb : wa;
	}
	free(ua);
	free(ub);
}

/*
 * The rank test on trial-level values: exact Mann-Whitney for few trials
 * (Brunner-Munzel's t approximation is too liberal below ~10 a side),
 * else Brunner-Munzel.  Returns the name of the test whose p it gives:
 * when Brunner-Munzel has no p (samples that do not overlap) the p is
 * Mann-Whitney's, and so is the name; "none" when there is none (fewer
 * than 2 trials a side); test->p is NaN then.
 */
static const char *
compare_test(const double *xc, size_t nc, const double *xb, size_t nb,
    struct stats_test *test)
{
	bool have = false, exact = nb < 10 || nc < 10;
	const char *name = exact ? "mann-whitney" : "brunner-munzel";

	test->p = NAN;
	if (nb < 2 || nc < 2)
		return "none";
	if (exact)
		have = stats_mann_whitney(xc, nc, xb, nb, STATS_MW_AUTO,
		    test) == 0;
	else
		have = stats_brunner_munzel(xc, nc, xb, nb, test) == 0;
	/* BM has no p when the samples do not overlap at all: Mann-Whitney's
	 * then */
	if (have && isnan(test->p)) {
		have = stats_mann_whitney(xc, nc, xb, nb, STATS_MW_AUTO,
		    test) == 0;
		name = "mann-whitney";
	}
	if (!have) {
		test->p = NAN;
		return "none";
	}
	return name;
}

enum compare_verdict
analyze_compare_verdict(const struct compare_outcome *r, double threshold_pct,
    double level, struct strbuf *text)
{
	double thr = threshold_pct / 100.0, alpha = 1.0 - level;
	double change = 100.0 * (r->ratio - 1.0), minp = 2.0, comb = 1.0;
	bool sig = isfinite(r->p) && r->p < alpha;
	bool up = isfinite(r->lo) && r->lo > 1.0 + thr;
	bool down = isfinite(r->hi) && r->hi < 1.0 - thr;
	bool inside = isfinite(r->lo) && isfinite(r->hi) &&
	    r->lo >= 1.0 - thr && r->hi <= 1.0 + thr;
	size_t m;

	/* The smallest two-sided p exact Mann-Whitney can give with these
	 * trial counts: 2 / C(nb + nc, nb). */
	for (m = 1; m <= r->nb; m++)
		comb = comb * (double)(r->nc + m) / (double)m;
	minp /= comb;
	if (!isfinite(r->ratio)) {
		strbuf_addstr(text, "not compared: a side has no value");
		return COMPARE_INCONCLUSIVE;
	}
	if (r->nb < 2 || r->nc < 2) {
		strbuf_addf(text, "inconclusive: %zu vs %zu trials (need 2 a "
		    "side to see trial-to-trial spread)", r->nb, r->nc);
		return COMPARE_INCONCLUSIVE;
	}
	if (sig && (up || down)) {
		bool better = up == r->higher_better;

		strbuf_addf(text, "%s: %+.1f %%", better ? "better" : "worse",
		    change);
		return better ? COMPARE_BETTER : COMPARE_WORSE;
	}
	if (inside) {
		strbuf_addf(text, "same: within ±%.0f %%", threshold_pct);
		return COMPARE_SAME;
	}
	if (sig && fabs(r->ratio - 1.0) < thr) {
		strbuf_addf(text, "same: %+.1f %% is below the %.0f %% "
		    "threshold", change, threshold_pct);
		return COMPARE_SAME;
	}
	if (r->nb < 10 && r->nc < 10 && minp >= alpha)
		strbuf_addf(text, "inconclusive: %zu vs %zu trials can never "
		    "reach p < %.2f (%+.1f %%)", r->nb, r->nc, alpha, change);
	else
		strbuf_addf(text, "inconclusive (%+.1f %%)", change);
	return COMPARE_INCONCLUSIVE;
}

/* One row of the table and what its verdict needs (after Holm). */
struct cmp_row {
	size_t			row;	/* table row */
	size_t			base, cell;	/* the cells compared, in cs */
	struct compare_outcome	out;	/* p is the raw one until Holm */
	const char		*censored;	/* the side "≥ timeout", or NULL */
};

struct cmp_ctx {
	const struct analyze_opts *o;	/* as given */
	const struct analyze_opts *o2;	/* with the default stats */
	const struct cellset	*cs;
	const char		*key;	/* the compared dimension */
	double			scale;	/* display scale */
	int			dec;	/* display decimals */
	struct table		*t;
	struct cmp_row		*rows;
	size_t			nrows, alloc;
	size_t			ncens;	/* rows with a side "≥ timeout" */
	size_t			nby_trials; /* intervals from the trials'
					 * own values (cell_tl_method) */
	const char		*baseline;	/* --baseline, else the first
						 * value of the whole table */
	size_t			nobase;	/* groups without the baseline */
};

static void
compare_columns(struct table *t, const struct cellset *cs, const char *key,
    int dec)
{
	struct strbuf h = STRBUF_INIT;
	const char *unit;
	size_t col0;

	md_scale(cs, &unit);
	add_group_columns(t, cs);
	col0 = table_add_col(t, "by", "by", -1);
	t->cols[col0].md_hidden = true;
	table_add_col(t, "baseline", "Baseline", -1);
	table_add_col(t, "value", key, -1);
	table_add_col(t, "stat", "Stat", -1);
	/* the unit is the table's (common/units.h): say it in the headers */
	strbuf_addf(&h, "Baseline value (%s)", unit);
	table_add_col(t, "baseline_stat", h.buf, dec);
	strbuf_reset(&h);
	strbuf_addf(&h, "Value (%s)", unit);
	table_add_col(t, "value_stat", h.buf, dec);
	strbuf_reset(&h);
	strbuf_addf(&h, "Difference (%s)", unit);
	table_add_col(t, "diff", h.buf, dec);
	strbuf_release(&h);
	table_add_hidden_col(t, "diff_lo", "diff_lo", dec);
	table_add_hidden_col(t, "diff_hi", "diff_hi", dec);
	table_add_hidden_col(t, "diff_ci_reason", "diff_ci_reason", -1);
	table_add_col(t, "ratio", "Ratio [95 % CI]", 3);
	table_add_hidden_col(t, "ratio_lo", "ratio_lo", 3);
	table_add_hidden_col(t, "ratio_hi", "ratio_hi", 3);
	table_add_hidden_col(t, "ratio_ci_covers", "ratio_ci_covers", -1);
	table_add_hidden_col(t, "ratio_ci_reason", "ratio_ci_reason", -1);
	table_add_hidden_col(t, "test", "test", -1);
	table_add_col(t, "p", "p", 3);
	table_add_col(t, "p_holm", "p (Holm)", 3);
	table_add_col(t, "verdict", "Verdict", -1);
	table_add_col(t, "trials_baseline", "trials (base)", -1);
	table_add_col(t, "trials_value", "trials", -1);
	/* connect probes: either side's statistic is "≥ timeout" (then no
	 * difference, ratio, test or verdict) */
	if (cs->info->timeout_bound) {
		table_add_hidden_col(t, "baseline_ge_timeout",
		    "baseline_ge_timeout", -1);
		table_add_hidden_col(t, "value_ge_timeout", "value_ge_timeout",
		    -1);
	}
	table_add_hidden_col(t, "also_differ", "also_differ", -1);
}

/* Each row's other keys in which the two cells differ, one value each
 * ("instance_type: c6i.large vs c7i.large"), into also_differ, and the
 * caption saying so (issue 25: week 1 against week 4 may also be one
 * instance type against another). */
static void
compare_confounds(sqlite3 *db, struct cmp_ctx *x)
{
	struct pooling pl;
	long col = table_col(x->t, "also_differ");

	if (col < 0 || pooling_scan(db, x->cs, &x->o->where, x->o->paths,
	    x->o->npaths, &pl))
		return;
	for (size_t i = 0; i < x->nrows; i++) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t j = 0; j < pl.nkeys; j++) {
			const char *k = pl.keys[j].key;
			const char *a = pooling_cell_value(&pl, x->rows[i].base, k);
			const char *b = pooling_cell_value(&pl, x->rows[i].cell, k);

			if (a && b && strcmp(a, b) && strcmp(k, x->key))
				strbuf_addf(&sb, "%s%s: %s vs %s", sb.len ?
				    "; " : "", k, a[0] ? a : "(none)",
				    b[0] ? b : "(none)");
		}
		table_set_str(x->t, x->rows[i].row, (size_t)col, sb.buf);
		strbuf_release(&sb);
	}
	pooling_differ_note(&pl, x->cs, "the values compared", x->t);
	pooling_release(&pl);
}

/* Markdown text of v in the display unit. */
static void
display_num(struct cmp_ctx *x, size_t row, size_t col, double v)
{
	struct strbuf sb = STRBUF_INIT;

	md_number(&sb, v * x->scale, x->dec);
	table_set_display_raw(x->t, row, col, sb.buf);
	strbuf_release(&sb);
}

/* The row comparing statistic s of cell c with the baseline. */
static void
compare_row(struct cmp_ctx *x, const struct cell *base, struct cell *c,
    size_t s)
{
	const struct analyze_opts *o2 = x->o2;
	const struct stats_name *st = &o2->stats[s];
	struct table *t = x->t;
	struct cell_stat vb, vc;
	struct cell_info info;
	struct stats_interval bd, bro;
	struct stats_test test;
	struct strbuf sb = STRBUF_INIT;
	struct cmp_row *cr;
	const char *test_name, *cens = NULL;
	double *xb, *xc, ratio, dbound = NAN, rbound = NAN;
	int ddir = 0, rdir = 0;
	size_t nb, nc, row, col;
	bool valued;

	cell_compute(o2, x->cs, (struct cell *)base, st, false, &vb, &info);
	cell_compute(o2, x->cs, c, st, false, &vc, &info);
	nb = trial_values(o2, base, st, o2->stat_names[s], &xb);
	nc = trial_values(o2, c, st, o2->stat_names[s], &xc);
	if (vb.censored || vc.censored) {
		/* "≥ timeout" on a side: the successes' value is no value,
		 * so no difference, ratio, interval or test */
		cens = vb.censored && vc.censored ? "both" : vb.censored ?
		    base->dims[x->cs->ndims - 1] : c->dims[x->cs->ndims - 1];
		/* the bounds "≥ timeout" implies (value over baseline) */
		dbound = cell_contrast_bound(o2, x->cs, c, (struct cell *)base,
		    st, false, vc.censored, vb.censored, &ddir);
		rbound = cell_contrast_bound(o2, x->cs, c, (struct cell *)base,
		    st, true, vc.censored, vb.censored, &rdir);
		bd.lo = bd.hi = bro.lo = bro.hi = NAN;
		bd.covers = bro.covers = STATS_COVERS_NONE;
		bd.why = bro.why = CELL_WHY_CENSORED;
		test.p = NAN;
		test_name = "none";
		ratio = NAN;
	} else {
		tl_contrast(o2, st, c, (struct cell *)base, vc.value, vb.value,
		    STATS_DELTA, &bd);
		tl_contrast(o2, st, c, (struct cell *)base, vc.value, vb.value,
		    STATS_RATIO, &bro);
		if (bro.covers != STATS_COVERS_NONE &&
		    (cell_tl_method(o2, c, st) ||
		    cell_tl_method(o2, (struct cell *)base, st)))
			x->nby_trials++;
		/* a side without a value ("–") has nothing to test: no p
		 * from the trials' own numbers beside it */
		valued = isfinite(vc.value) && isfinite(vb.value);
		test_name = compare_test(xc, valued ? nc : 0, xb,
		    valued ? nb : 0, &test);
		ratio = stats_ratio(vc.value, vb.value);
	}
	row = table_add_row(t);
	col = fill_group_columns(t, row, x->cs, c, o2);
	table_set_str(t, row, col++, x->key);
	table_set_str(t, row, col++, base->dims[x->cs->ndims - 1]);
	table_set_str(t, row, col++, c->dims[x->cs->ndims - 1]);
	table_set_str(t, row, col++, o2->stat_names[s]);
	table_set_num(t, row, col, vb.censored ? NAN : vb.value);
	table_set_num(t, row, col + 1, vc.censored ? NAN : vc.value);
	table_set_num(t, row, col + 2, cens ? NAN : vc.value - vb.value);
	if (x->scale != 1.0 && !cens) {
		display_num(x, row, col, vb.value);
		display_num(x, row, col + 1, vc.value);
		display_num(x, row, col + 2, vc.value - vb.value);
	} else if (cens) {
		if (vb.censored)
			table_set_display(t, row, col, "≥ timeout");
		else if (x->scale != 1.0)
			display_num(x, row, col, vb.value);
		if (vc.censored)
			table_set_display(t, row, col + 1, "≥ timeout");
		else if (x->scale != 1.0)
			display_num(x, row, col + 1, vc.value);
		if (ddir) {
			strbuf_addstr(&sb, ddir > 0 ? "≥ " : "≤ ");
			md_number(&sb, dbound * x->scale, x->dec);
			table_set_display_raw(t, row, col + 2, sb.buf);
			strbuf_reset(&sb);
		} else {
			table_set_display(t, row, col + 2, "–, censored");
		}
	}
	col += 3;
	table_set_num(t, row, col++, bd.lo);
	table_set_num(t, row, col++, bd.hi);
	if (!isfinite(bd.lo))
		table_set_str(t, row, col, bd.why ? bd.why : "no interval");
	col++;
	table_set_num(t, row, col, ratio);
	if (cens && rdir) {
		strbuf_addstr(&sb, rdir > 0 ? "≥ " : "≤ ");
		md_number(&sb, rbound, 3);
		strbuf_addf(&sb, " (%s ≥ timeout)", cens);
	} else if (cens) {
		strbuf_addstr(&sb, "–, censored");
	} else {
		format_ci(&sb, ratio, bro.lo, bro.hi, 3);
		if (isfinite(ratio) && bro.covers == STATS_COVERS_NONE &&
		    bro.why)
			table_mark(t, bro.why, &sb);
	}
	table_set_display_raw(t, row, col++, sb.buf);
	table_set_num(t, row, col++, bro.lo);
	table_set_num(t, row, col++, bro.hi);
	if (stats_covers_name(bro.covers))
		table_set_str(t, row, col, stats_covers_name(bro.covers));
	col++;
	if (!isfinite(bro.lo))
		table_set_str(t, row, col, bro.why ? bro.why : "no interval");
	col++;
	table_set_str(t, row, col++, test_name);
	table_set_num(t, row, col++, test.p);
	table_set_int(t, row, col + 2, (int64_t)nb);
	table_set_int(t, row, col + 3, (int64_t)nc);
	if (x->cs->info->timeout_bound) {
		table_set_int(t, row, col + 4, vb.censored);
		table_set_int(t, row, col + 5, vc.censored);
	}
	ALLOC_GROW(x->rows, x->nrows + 1, x->alloc);
	cr = &x->rows[x->nrows++];
	cr->row = row;
	cr->censored = cens;
	x->ncens += cens != NULL;
	cr->base = (size_t)(base - x->cs->cells);
	cr->cell = (size_t)(c - x->cs->cells);
	cr->out.nb = nb;
	cr->out.nc = nc;
	cr->out.p = test.p;
	cr->out.ratio = ratio;
	cr->out.lo = bro.lo;
	cr->out.hi = bro.hi;
	cr->out.higher_better = x->cs->info->higher_better;
	strbuf_release(&sb);
	free(xb);
	free(xc);
}

/* The rows of one group (same keys but the compared one): each value
 * against the baseline (--baseline, else the first value in order). */
static void
compare_group(struct cmp_ctx *x, size_t from, size_t to)
{
	const struct cellset *cs = x->cs;
	const struct cell *base = NULL;
	size_t j, s;

	for (j = from; j < to; j++) {
		const char *v = cs->cells[j].dims[cs->ndims - 1];

		if (x->baseline && !strcmp(v, x->baseline))
			base = &cs->cells[j];
	}
	if (!base) {
		x->nobase++;
		return;
	}
	for (j = from; j < to; j++) {
		if (&cs->cells[j] == base)
			continue;
		for (s = 0; s < x->o2->nstats; s++)
			if (x->o2->stats[s].kind != STATS_NAME_N)
				compare_row(x, base, &cs->cells[j], s);
	}
}

/* Holm across the rows of the table, then each row's verdict. */
static void
compare_verdicts(struct cmp_ctx *x)
{
	double *p = xcalloc(x->nrows + 1, sizeof(double));
	long col_p = table_col(x->t, "p_holm");
	long col_v = table_col(x->t, "verdict");
	struct strbuf v = STRBUF_INIT;
	size_t i;

	for (i = 0; i < x->nrows; i++)
		p[i] = x->rows[i].out.p;
	stats_holm(p, x->nrows);
	for (i = 0; i < x->nrows; i++) {
		struct cmp_row *r = &x->rows[i];

		r->out.p = p[i];
		table_set_num(x->t, r->row, (size_t)col_p, p[i]);
		strbuf_reset(&v);
		if (r->censored && !strcmp(r->censored, "both"))
			strbuf_addstr(&v, "no verdict: both ≥ timeout");
		else if (r->censored)
			strbuf_addf(&v, "no verdict: %s ≥ timeout",
			    r->censored);
		else
			analyze_compare_verdict(&r->out, x->o->threshold_pct,
			    x->o->level, &v);
		table_set_str(x->t, r->row, (size_t)col_v, v.buf);
	}
	strbuf_release(&v);
	free(p);
}

static void
compare_notes(struct cmp_ctx *x)
{
	const struct analyze_opts *o = x->o;
	struct strbuf m = STRBUF_INIT;

	describe_method(x->o2, x->cs, &m);
	table_add_note(x->t, "%s by %s against the baseline (%s%s); %s.",
	    x->cs->metric_name, x->key, x->baseline ? x->baseline : "none",
	    o->baseline ? "" : ": no --baseline, so the first value in "
	    "order, one for the whole table", m.buf);
	if (x->nobase)
		table_add_note(x->t, "%zu path%s and condition%s without a run "
		    "on the baseline %s: not compared (--baseline picks "
		    "another).", x->nobase, x->nobase == 1 ? "" : "s",
		    x->nobase == 1 ? "" : "s", x->baseline ? x->baseline :
		    "none");
	table_add_note(x->t, "Ratio = value / baseline with a %.0f %% interval "
	    "covering trial-to-trial variation and sampling (ratio_ci_covers = "
	    "trials): Welch t on trial-level values, from %d trials a side "
	    "(docs/coverage.md).  Test on trial-level values (JSON and CSV name "
	    "the one whose p is shown in their test column): exact Mann–Whitney U below 10 "
	    "trials a side, else Brunner–Munzel (Mann–Whitney where the two "
	    "sides do not overlap, as Brunner–Munzel then has no p); p "
	    "adjusted with Holm across the rows.", o->level * 100,
	    STATS_TL_MIN_TRIALS);
	if (x->ncens)
		table_add_note(x->t, "≥ timeout: the statistic of all attempts "
		    "reads a timed-out one (baseline_ge_timeout, "
		    "value_ge_timeout); the successes' value would understate "
		    "it, so such a row has no difference, ratio, test or "
		    "verdict; where the other side is measured, the bound it "
		    "implies is shown, reading \"≥ timeout\" as at least the "
		    "timeout (ratio ≥ timeout / baseline's statistic of all "
		    "attempts).");
	if (x->nby_trials)
		table_add_note(x->t, "%zu interval(s) from the trials' own "
		    "values (ties at the pooled percentile, or trials of unequal "
		    "size, where the pooled linearization does not hold: "
		    "docs/intervals.md).", x->nby_trials);
	table_add_note(x->t, "Verdict: better/worse when the adjusted p < "
	    "%.2f and the whole interval lies beyond ±%.0f %%; same when the "
	    "interval lies within ±%.0f %% (or the change is significant but "
	    "smaller); else inconclusive (too few trials or too much spread "
	    "to tell).", 1.0 - o->level, o->threshold_pct, o->threshold_pct);
	strbuf_release(&m);
}

int
analyze_compare(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	struct cmp_ctx x;
	const char *unit;
	size_t i, g;

	if (nargs > 0) {
		error("compare takes no arguments (got '%s')", args[0]);
		return -2;
	}
	if (o->nby == 0) {
		error("compare needs --by KEY (instance_type, day, region, az "
		    "or a tag)");
		return -2;
	}
	memset(&x, 0, sizeof(x));
	x.key = o->by[o->nby - 1];
	analyze_default_stats(o, &o2);
	if (analyze_load_by(db, o, x.key, &cs))
		return -1;
	x.o = o;
	x.o2 = &o2;
	x.cs = &cs;
	x.t = t;
	x.scale = md_scale(&cs, &unit);
	x.dec = cs.shown.decimals;
	compare_columns(t, &cs, x.key, x.dec);
	/* one baseline per table: a group's own first value would make
	 * each path's rows compare against a different day */
	x.baseline = o->baseline;
	for (i = 0; !o->baseline && i < cs.n; i++) {
		const char *v = cs.cells[i].dims[cs.ndims - 1];

		if (!x.baseline || strcmp(v, x.baseline) < 0)
			x.baseline = v;
	}
	for (i = 0; i < cs.n; i = g) {
		for (g = i; g < cs.n && same_group(&cs, &cs.cells[i],
		    &cs.cells[g]); g++)
			;
		compare_group(&x, i, g);
	}
	compare_verdicts(&x);
	compare_notes(&x);
	compare_confounds(db, &x);
	free(x.rows);
	cellset_release(&cs);
	return 0;
}

double
analyze_dim_to_x(const char *key, const char *v)
{
	struct tm tm;
	char *end;

	if (!strcmp(key, "day")) {
		long y, m, d;

		/* YYYY-MM-DD, checked field by field */
		if (strlen(v) != 10 || v[4] != '-' || v[7] != '-')
			return NAN;
		y = strtol(v, &end, 10);
		if (end != v + 4)
			return NAN;
		m = strtol(v + 5, &end, 10);
		if (end != v + 7 || m < 1 || m > 12)
			return NAN;
		d = strtol(v + 8, &end, 10);
		if (end != v + 10 || d < 1 || d > 31)
			return NAN;
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = (int)y - 1900;
		tm.tm_mon = (int)m - 1;
		tm.tm_mday = (int)d;
		return (double)(timegm(&tm) / 86400);
	}
	{
		double x = strtod(v, &end);

		return end != v && !*end ? x : NAN;
	}
}

static void
trend_columns(struct table *t, const struct cellset *cs, const char *key)
{
	struct strbuf h = STRBUF_INIT;
	const char *unit;
	size_t col0;

	md_scale(cs, &unit);
	add_group_columns(t, cs);
	col0 = table_add_col(t, "by", "by", -1);
	t->cols[col0].md_hidden = true;
	table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "points", "Points", -1);
	strbuf_addf(&h, "Series (%s)", unit);
	table_add_col(t, "series", h.buf, -1);
	strbuf_reset(&h);
	strbuf_addf(&h, "Theil–Sen slope (%s per %s)", unit, key);
	table_add_col(t, "slope", h.buf, 4);
	strbuf_release(&h);
	table_add_col(t, "slope_lo", "slope_lo", 4);
	table_add_col(t, "slope_hi", "slope_hi", 4);
	t->cols[col0 + 5].md_hidden = t->cols[col0 + 6].md_hidden = true;
	table_add_col(t, "slope_pct", "Slope % of mean", 2);
	table_add_col(t, "change_points", "Change points", -1);
	table_add_col(t, "verdict", "Verdict", -1);
	/* machine-only: the verdict's parts (docs/design.md's contract) */
	table_add_hidden_col(t, "step_at", "step_at", -1);
	table_add_hidden_col(t, "step_pct", "step_pct", 2);
	table_add_hidden_col(t, "changed_with", "changed_with", -1);
	table_add_hidden_col(t, "verdict_kind", "verdict_kind", -1);
	table_add_hidden_col(t, "censored_points", "censored_points", -1);
	table_add_hidden_col(t, "mk_p", "mk_p", -1);
	table_add_hidden_col(t, "mk_p_hamed_rao", "mk_p_hamed_rao", -1);
	table_add_hidden_col(t, "step_p", "step_p", -1);
	table_add_hidden_col(t, "rho", "rho", -1);
}

const char *
analyze_trend_key(const struct analyze_opts *o)
{
	size_t i;

	if (!o->nby)
		return "day";
	for (i = o->nby; i > 0; i--)
		if (!strcmp(o->by[i - 1], "day") || !strcmp(o->by[i - 1], "hour"))
			return o->by[i - 1];
	return NULL;
}

/* One trend series: statistic s of cells [from, to) of cs, whose last
 * dimension (key) gives x.  Every point is kept in x order; the fit
 * (fx, fy, fse) holds those with a value that is not censored. */
struct trend_point {
	double		x, y;		/* y: NaN when censored */
	const char	*lab;		/* the dimension value (borrowed) */
	size_t		cell;		/* index in cs */
	size_t		n;		/* successful samples */
	bool		censored;	/* "≥ timeout": out of the fit */
};

struct trend {
	struct trend_point *pt;		/* owned */
	size_t		npt;
	double		*fx, *fy, *fse;	/* the fit's points; owned */
	size_t		*fpt;		/* their index in pt; owned */
	size_t		m;		/* points in the fit */
	size_t		ncens;		/* censored points */
	bool		use_se;		/* every fit point has its se */
	struct stats_trend tv;		/* slope, tests, verdict (verdict.h) */
	bool		have_tv;
};

static void
trend_series(const struct analyze_opts *o2, struct cellset *cs,
    const char *key, size_t from, size_t to, size_t s, struct trend *tr)
{
	size_t npt = to - from, k, j;

	memset(tr, 0, sizeof(*tr));
	tr->pt = xcalloc(npt + 1, sizeof(*tr->pt));
	tr->fx = xcalloc(npt + 1, sizeof(double));
	tr->fy = xcalloc(npt + 1, sizeof(double));
	tr->fse = xcalloc(npt + 1, sizeof(double));
	tr->fpt = xcalloc(npt + 1, sizeof(size_t));
	tr->use_se = true;
	for (k = from; k < to; k++) {
		struct cell_stat v;
		struct cell_info info;
		struct trend_point p;
		const char *d = cs->cells[k].dims[cs->ndims - 1];
		double xv = analyze_dim_to_x(key, d);

		cell_compute(o2, cs, &cs->cells[k], &o2->stats[s], false, &v,
		    &info);
		if (!isfinite(v.value) || !isfinite(xv))
			continue;
		/* insert in x order (labels such as hours need not sort as
		 * numbers); a repeated x is not a new point */
		for (j = tr->npt; j > 0 && tr->pt[j - 1].x > xv; j--)
			;
		if (j > 0 && tr->pt[j - 1].x == xv)
			continue;
		memset(&p, 0, sizeof(p));
		p.x = xv;
		p.censored = v.censored;
		p.y = v.censored ? NAN : v.value;
		p.lab = d;
		p.cell = k;
		p.n = cs->cells[k].n;
		memmove(tr->pt + j + 1, tr->pt + j, (tr->npt - j) *
		    sizeof(*tr->pt));
		tr->pt[j] = p;
		tr->npt++;
	}
	for (j = 0; j < tr->npt; j++) {
		struct cell *c = &cs->cells[tr->pt[j].cell];
		const double *arr;
		size_t na;

		if (tr->pt[j].censored) {
			tr->ncens++;
			continue;
		}
		tr->fx[tr->m] = tr->pt[j].x;
		tr->fy[tr->m] = tr->pt[j].y;
		tr->fpt[tr->m] = j;
		/* the point's sampling error: a pooled percentile's, from its
		 * order statistics (a day of 50 probes is noisier than one of
		 * 300); else none for the whole series */
		tr->fse[tr->m] = NAN;
		if (o2->pool == STATS_POOL_POOLED &&
		    o2->stats[s].kind == STATS_NAME_PCT &&
		    (na = cell_pooled(c, &arr)) >= 2)
			tr->fse[tr->m] = stats_trend_point_se(arr, na,
			    o2->stats[s].pct);
		if (!isfinite(tr->fse[tr->m]))
			tr->use_se = false;
		tr->m++;
	}
	tr->have_tv = stats_trend_se(tr->fx, tr->fy, tr->use_se ? tr->fse :
	    NULL, tr->m, o2->threshold_pct, o2->level, &tr->tv) == 0;
}

static void
trend_release(struct trend *tr)
{
	free(tr->pt);
	free(tr->fx);
	free(tr->fy);
	free(tr->fse);
	free(tr->fpt);
}

/* The point the step starts at, or NULL. */
static const struct trend_point *
trend_step_point(const struct trend *tr)
{
	if (!tr->have_tv || !tr->tv.step_at || tr->tv.step_at >= tr->m)
		return NULL;
	return &tr->pt[tr->fpt[tr->tv.step_at]];
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Median samples of the fit's points [from, to). */
static size_t
median_n(const struct trend *tr, size_t from, size_t to)
{
	size_t *v = xcalloc(to - from + 1, sizeof(*v)), med;

	for (size_t i = from; i < to; i++)
		v[i - from] = tr->pt[tr->fpt[i]].n;
	qsort(v, to - from, sizeof(*v), cmp_size);
	med = v[(to - from) / 2];
	free(v);
	return med;
}

/*
 * What changes with the series: keys that switch at the step (every
 * point before holds one value, every point after another: "instance_type
 * c6i.large → c7i.large"), the samples a point when they change by 2×
 * or more there, and keys whose values vary along the series otherwise
 * ("mixes instance_type: c6i.large, c7i.large").  Into sb, "; "-joined.
 */
static void
trend_changed(const struct pooling *pl, const struct cellset *cs,
    const struct trend *tr, struct strbuf *sb)
{
	size_t at = trend_step_point(tr) && tr->tv.step ? tr->tv.step_at : 0;
	size_t j, i;

	for (j = 0; pl && j < pl->nkeys; j++) {
		const char *key = pl->keys[j].key, *a = NULL, *b = NULL;
		bool clean = at > 0, varies = false, mixed = false;

		for (i = 0; i < cs->ndims; i++)
			if (!strcmp(cs->dimkeys[i], key))
				break;
		if (i < cs->ndims)
			continue;
		for (i = 0; i < tr->m; i++) {
			const char *v = pooling_cell_value(pl,
			    tr->pt[tr->fpt[i]].cell, key);
			const char **side = at && i >= at ? &b : &a;

			if (!v) {
				mixed = true;
				clean = false;
				continue;
			}
			if (!*side)
				*side = v;
			else if (strcmp(*side, v))
				clean = false;
			if (i && !varies) {
				const char *v0 = pooling_cell_value(pl,
				    tr->pt[tr->fpt[0]].cell, key);

				varies = v0 && strcmp(v0, v);
			}
		}
		if (clean && a && b && strcmp(a, b)) {
			strbuf_addf(sb, "%s%s %s → %s", sb->len ? "; " : "",
			    key, a[0] ? a : "(none)", b[0] ? b : "(none)");
		} else if (varies || mixed) {
			const struct pooling_key *k = &pl->keys[j];

			strbuf_addf(sb, "%smixes %s", sb->len ? "; " : "", key);
			for (i = 0; i < k->nvalues && i < 4; i++)
				strbuf_addf(sb, "%s%s", i ? ", " : " (",
				    k->values[i]);
			if (k->nvalues)
				strbuf_addch(sb, ')');
		}
	}
	if (at) {
		size_t nb = median_n(tr, 0, at), na = median_n(tr, at, tr->m);

		if (nb && na && (nb >= 2 * na || na >= 2 * nb))
			strbuf_addf(sb, "%ssamples a point %zu → %zu",
			    sb->len ? "; " : "", nb, na);
	}
}

/* The verdict of one series, with its evidence (see stats/verdict.h). */
static void
trend_verdict(const struct analyze_opts *o2, const struct trend *tr,
    const char *changed, struct strbuf *v)
{
	const struct stats_trend *t = &tr->tv;
	const struct trend_point *sp = trend_step_point(tr);
	const char *at = sp ? sp->lab : "?";

	if (!tr->have_tv) {
		strbuf_addstr(v, "no verdict (the points are not in order)");
		return;
	}
	switch (t->verdict) {
	case STATS_TREND_TOO_FEW:
		strbuf_addf(v, "no verdict: %zu point%s (need %d: fewer cannot "
		    "reach 5 %% false verdicts)", tr->m, tr->m == 1 ? "" : "s",
		    STATS_TREND_MIN_POINTS);
		break;
	case STATS_TREND_STABLE:
		strbuf_addf(v, "stable (Mann–Kendall p = %.2g, step p = %.2g)",
		    t->mk_p, t->step_p);
		break;
	case STATS_TREND_SMALL:
		strbuf_addf(v, "stable within ±%g %% (changed %+.1f %% over "
		    "the span, step %+.1f %%: under --threshold)",
		    o2->threshold_pct, t->change_pct, t->step_pct);
		break;
	case STATS_TREND_DRIFT:
		strbuf_addf(v, "drifting %s, %+.1f %% over the span "
		    "(Mann–Kendall p = %.2g)", t->slope > 0 ? "up" : "down",
		    t->change_pct, t->mk_p);
		break;
	case STATS_TREND_STEP:
		if (t->relabeled)
			strbuf_addf(v, "step at %s, %+.1f %% (Mann–Kendall p = "
			    "%.2g; two means fit better than a line)", at,
			    t->step_pct, t->mk_p);
		else
			strbuf_addf(v, "step at %s, %+.1f %% (step p = %.2g)",
			    at, t->step_pct, t->step_p);
		break;
	case STATS_TREND_DRIFT_STEP:
		strbuf_addf(v, "step at %s, %+.1f %%, and drifting %s beyond "
		    "it, %+.1f %% over the span", at, t->step_pct,
		    t->resid_slope > 0 ? "up" : "down", t->resid_change_pct);
		break;
	}
	if (changed && *changed && t->verdict != STATS_TREND_TOO_FEW)
		strbuf_addf(v, "; %s %s", t->verdict == STATS_TREND_STEP ||
		    t->verdict == STATS_TREND_DRIFT_STEP ? "with it:" :
		    "the series", changed);
	if (tr->ncens)
		strbuf_addf(v, "; %zu point%s ≥ timeout left out", tr->ncens,
		    tr->ncens == 1 ? "" : "s");
}

/* The series as JSON: an array of points, each with its value in the
 * stored unit (null when censored), censoring and whether the fit used
 * it; and as text for Markdown. */
static void
trend_series_text(const struct trend *tr, double scale, int dec,
    struct strbuf *json, struct strbuf *md)
{
	size_t k, f = 0;

	strbuf_addch(json, '[');
	for (k = 0; k < tr->npt; k++) {
		const struct trend_point *p = &tr->pt[k];
		bool in_fit = f < tr->m && tr->fpt[f] == k;

		f += in_fit;
		strbuf_addstr(json, k ? ", {\"point\": " : "{\"point\": ");
		escape_json(json, p->lab);
		strbuf_addstr(json, ", \"value\": ");
		if (p->censored)
			strbuf_addstr(json, "null");
		else
			strbuf_add_double(json, p->y);
		strbuf_addf(json, ", \"censored\": %s, \"n\": %zu, "
		    "\"in_fit\": %s}", p->censored ? "true" : "false", p->n,
		    in_fit ? "true" : "false");
		if (k)
			strbuf_addstr(md, "; ");
		strbuf_addf(md, "%s: ", p->lab);
		if (p->censored)
			strbuf_addstr(md, "≥ timeout");
		else
			md_number(md, p->y * scale, dec);
	}
	strbuf_addch(json, ']');
}

static const char *trend_verdict_word(const struct stats_trend *t);

/* The row of one trend series: its points, slope, step and verdict. */
static void
trend_row(const struct analyze_opts *o2, const struct cellset *cs,
    const struct cell *first, const char *key, size_t s,
    const struct trend *tr, const struct pooling *pl, double scale,
    int dec, struct table *t)
{
	struct strbuf ser = STRBUF_INIT, cps = STRBUF_INIT, v = STRBUF_INIT;
	struct strbuf js = STRBUF_INIT, ch = STRBUF_INIT;
	const struct trend_point *sp = trend_step_point(tr);
	size_t row, col;

	trend_series_text(tr, scale, dec, &js, &ser);
	if (sp && tr->tv.step)
		strbuf_addstr(&cps, sp->lab);
	trend_changed(pl, cs, tr, &ch);
	trend_verdict(o2, tr, ch.buf, &v);
	row = table_add_row(t);
	col = fill_group_columns(t, row, cs, first, o2);
	table_set_str(t, row, col++, key);
	table_set_str(t, row, col++, o2->stat_names[s]);
	table_set_int(t, row, col++, (int64_t)tr->m);
	table_set_json(t, row, col, js.buf);
	table_set_display(t, row, col++, ser.buf);
	if (tr->have_tv && isfinite(tr->tv.slope)) {
		struct strbuf sb = STRBUF_INIT;

		/* Below the verdicts' minimum Sen's interval clamps to the
		 * extreme pairwise slopes ([x, x] at 2 points): none. */
		bool sen = tr->m >= STATS_TREND_MIN_POINTS;

		table_set_num(t, row, col, tr->tv.slope);
		table_set_num(t, row, col + 1, sen ? tr->tv.slope_lo : NAN);
		table_set_num(t, row, col + 2, sen ? tr->tv.slope_hi : NAN);
		table_set_num(t, row, col + 3, tr->tv.mean != 0 ?
		    100.0 * tr->tv.slope / tr->tv.mean : NAN);
		/* a bit rate's slope has the table's significant digits */
		format_ci(&sb, tr->tv.slope * scale, sen ? tr->tv.slope_lo *
		    scale : NAN, sen ? tr->tv.slope_hi * scale : NAN,
		    dec == UNITS_SIG3 ? dec : 4);
		if (!sen)
			table_mark(t, "no Sen interval below the verdicts' "
			    "minimum of points", &sb);
		table_set_display_raw(t, row, col, sb.buf);
		strbuf_release(&sb);
	}
	col += 4;
	table_set_str(t, row, col++, cps.buf);
	table_set_str(t, row, col++, v.buf);
	if (sp && tr->tv.step) {
		table_set_str(t, row, col, sp->lab);
		table_set_num(t, row, col + 1, tr->tv.step_pct);
	}
	col += 2;
	table_set_str(t, row, col++, ch.buf);
	table_set_str(t, row, col++, tr->have_tv ? trend_verdict_word(&tr->tv) :
	    "none");
	table_set_int(t, row, col++, (int64_t)tr->ncens);
	if (tr->have_tv && tr->m >= STATS_TREND_MIN_POINTS) {
		table_set_num(t, row, col, tr->tv.mk_p);
		table_set_num(t, row, col + 1, tr->tv.mk_p_hr);
		table_set_num(t, row, col + 2, tr->tv.step_p);
		table_set_num(t, row, col + 3, tr->tv.rho);
	}
	strbuf_release(&ser);
	strbuf_release(&cps);
	strbuf_release(&v);
	strbuf_release(&js);
	strbuf_release(&ch);
}

static const char *
trend_verdict_word(const struct stats_trend *t)
{
	switch (t->verdict) {
	case STATS_TREND_TOO_FEW:
		return "none";
	case STATS_TREND_STABLE:
	case STATS_TREND_SMALL:
		return "stable";
	case STATS_TREND_DRIFT:
		return "drift";
	case STATS_TREND_STEP:
		return "step";
	case STATS_TREND_DRIFT_STEP:
		return "step+drift";
	}
	return "none";
}

/* Every series of the trend: cs loaded by key, pooling scanned; fn gets
 * each with its first cell and statistic. */
static void
trend_each(const struct analyze_opts *o2, struct cellset *cs,
    const char *key, void (*fn)(void *, const struct cell *, size_t,
    const struct trend *), void *arg)
{
	size_t i, g, s;

	for (i = 0; i < cs->n; i = g) {
		for (g = i; g < cs->n && same_group(cs, &cs->cells[i],
		    &cs->cells[g]); g++)
			;
		for (s = 0; s < o2->nstats; s++) {
			struct trend tr;

			if (o2->stats[s].kind == STATS_NAME_N)
				continue;
			trend_series(o2, cs, key, i, g, s, &tr);
			fn(arg, &cs->cells[i], s, &tr);
			trend_release(&tr);
		}
		for (size_t k = i; k < g; k++)
			cell_pooled_release(&cs->cells[k]);
	}
}

struct trend_ctx {
	const struct analyze_opts *o2;
	const struct cellset *cs;
	const struct pooling *pl;
	const char *key;
	double scale;
	struct table *t;
	size_t ncens;
	/* analyze_trend_changes(): the change points found */
	struct analyze_change_point *cp;
	size_t ncp, alloc;
};

static void
trend_row_cb(void *arg, const struct cell *first, size_t s,
    const struct trend *tr)
{
	struct trend_ctx *x = arg;

	trend_row(x->o2, x->cs, first, x->key, s, tr, x->pl, x->scale,
	    x->cs->shown.decimals, x->t);
	x->ncens += tr->ncens;
}

static int
trend_load(sqlite3 *db, const struct analyze_opts *o, const char **key,
    struct analyze_opts *o2, struct cellset *cs, struct pooling *pl,
    bool *have_pl)
{
	*key = analyze_trend_key(o);
	if (!*key) {
		error("trend needs --by day or --by hour (other --by keys split "
		    "the series)");
		return -2;
	}
	analyze_default_stats(o, o2);
	if (analyze_load_by(db, o, *key, cs))
		return -1;
	*have_pl = pooling_scan(db, cs, &o->where, o->paths, o->npaths,
	    pl) == 0;
	return 0;
}

int
analyze_trend(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	struct pooling pl;
	struct strbuf m = STRBUF_INIT;
	struct trend_ctx x;
	const char *key, *unit;
	bool have_pl = false;
	int rc;

	if (nargs > 0) {
		error("trend takes no arguments (got '%s')", args[0]);
		return -2;
	}
	if ((rc = trend_load(db, o, &key, &o2, &cs, &pl, &have_pl)))
		return rc;
	memset(&x, 0, sizeof(x));
	x.o2 = &o2;
	x.cs = &cs;
	x.pl = have_pl ? &pl : NULL;
	x.key = key;
	x.scale = md_scale(&cs, &unit);
	x.t = t;
	trend_columns(t, &cs, key);
	trend_each(&o2, &cs, key, trend_row_cb, &x);
	describe_method(&o2, &cs, &m);
	table_add_note(t, "%s over %s; %s.  Slope: Theil–Sen (median of "
	    "pairwise slopes) per %s with Sen's %.0f %% interval.  Verdicts "
	    "(from %d points), each calibrated on %d draws of a null fitted "
	    "to the series (day effects correlated day to day, ρ ≥ %.1f, "
	    "plus each point's own sampling error): a step when a jump "
	    "beyond the least-squares line (largest F over the splits, 2 or "
	    "more points a side) rejects at 2 %% and is --threshold (%g %%) "
	    "or more of the mean; then drifting too only when a line beyond "
	    "that step rejects at 2.5 %%; without a step, drifting when "
	    "Mann–Kendall rejects at 2.5 %% and the Theil–Sen change over "
	    "the span is --threshold or more, unless two means fit the "
	    "series better than a line by the penalty of choosing their "
	    "split: then a step there.  On pure noise, independent "
	    "or correlated days, about 5 %% of series get a verdict "
	    "(docs/verdicts.md).", cs.metric_name, key, m.buf,
	    !strcmp(key, "day") ? "day" : key, o->level * 100,
	    STATS_TREND_MIN_POINTS, STATS_TREND_PERMS, STATS_TREND_RHO_MIN,
	    o->threshold_pct);
	if (x.ncens)
		table_add_note(t, "≥ timeout: %zu point%s whose statistic falls "
		    "among the timed-out attempts (the statistic of all "
		    "attempts is at least the timeout); marked in the series "
		    "(JSON: value null, censored true) and left out of the "
		    "slopes and the change-point fit.", x.ncens,
		    x.ncens == 1 ? "" : "s");
	if (have_pl) {
		pooling_differ_note(&pl, &cs, "the points of a series", t);
		pooling_release(&pl);
	}
	strbuf_release(&m);
	cellset_release(&cs);
	return 0;
}

static void
trend_cp_cb(void *arg, const struct cell *first, size_t s,
    const struct trend *tr)
{
	struct trend_ctx *x = arg;
	const struct trend_point *sp = trend_step_point(tr);
	struct analyze_change_point *c;
	struct strbuf ch = STRBUF_INIT;

	if (!sp || !tr->tv.step)
		return;
	ALLOC_GROW(x->cp, x->ncp + 1, x->alloc);
	c = &x->cp[x->ncp++];
	memset(c, 0, sizeof(*c));
	c->path = xstrdup(first->path);
	c->cond = xstrdup(first->cond);
	c->stat = xstrdup(x->o2->stat_names[s]);
	c->at = xstrdup(sp->lab);
	c->x = sp->x;
	c->step_pct = tr->tv.step_pct;
	c->drift_too = tr->tv.drift;
	trend_changed(x->pl, x->cs, tr, &ch);
	c->changed = strbuf_detach(&ch, NULL);
}

int
analyze_trend_changes(sqlite3 *db, const struct analyze_opts *o,
    struct analyze_change_point **out, size_t *n)
{
	struct analyze_opts o2;
	struct cellset cs;
	struct pooling pl;
	struct trend_ctx x;
	const char *key;
	bool have_pl = false;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = trend_load(db, o, &key, &o2, &cs, &pl, &have_pl)))
		return -1;
	memset(&x, 0, sizeof(x));
	x.o2 = &o2;
	x.cs = &cs;
	x.pl = have_pl ? &pl : NULL;
	x.key = key;
	trend_each(&o2, &cs, key, trend_cp_cb, &x);
	if (have_pl)
		pooling_release(&pl);
	cellset_release(&cs);
	*out = x.cp;
	*n = x.ncp;
	return 0;
}

void
analyze_change_points_free(struct analyze_change_point *cp, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(cp[i].path);
		free(cp[i].cond);
		free(cp[i].stat);
		free(cp[i].at);
		free(cp[i].changed);
	}
	free(cp);
}

/* Sample variance of x[0..n) (n - 1 in the denominator); NaN if n < 2. */
static double
var_of(const double *x, size_t n)
{
	double m = 0, s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s / (double)(n - 1);
}

/*
 * Pooled within-group variance of values grouped by label: sum over
 * groups of (n_g - 1) var_g / sum (n_g - 1).  Group means go to gm.
 */
static double
pooled_within(const double *v, char *const *lab, size_t n, double *gm,
    size_t *ngroups)
{
	size_t i, j, dfs = 0;
	double ss = 0;
	bool *done = xcalloc(n + 1, sizeof(bool));

	*ngroups = 0;
	for (i = 0; i < n; i++) {
		double m = 0;
		size_t k = 0;

		if (done[i])
			continue;
		for (j = i; j < n; j++)
			if (!done[j] && !strcmp(lab[j], lab[i])) {
				m += v[j];
				k++;
			}
		m /= (double)k;
		for (j = i; j < n; j++)
			if (!done[j] && !strcmp(lab[j], lab[i])) {
				ss += (v[j] - m) * (v[j] - m);
				done[j] = true;
			}
		dfs += k - 1;
		gm[(*ngroups)++] = m;
	}
	free(done);
	return dfs ? ss / (double)dfs : NAN;
}

#define VARIANCE_BOOT_B	200	/* replicates for one trial's sampling error */

/* Bootstrap standard error of statistic st of one trial. */
static double
trial_boot_se(const struct analyze_opts *o, const struct stats_name *st,
    const struct trial *tr, struct stats_rng *rng)
{
	double *buf, *reps, sd;
	size_t b, i;

	if (tr->n < 2)
		return NAN;
	buf = xmalloc(tr->n * sizeof(double));
	reps = xmalloc(VARIANCE_BOOT_B * sizeof(double));
	for (b = 0; b < VARIANCE_BOOT_B; b++) {
		for (i = 0; i < tr->n; i++)
			buf[i] = tr->values[stats_rng_below(rng, tr->n)];
		reps[b] = st->kind == STATS_NAME_MEAN ? stats_mean(buf, tr->n) :
		    stats_quantile_unsorted(o->est, buf, tr->n, st->pct);
	}
	sd = sqrt(var_of(reps, VARIANCE_BOOT_B));
	free(buf);
	free(reps);
	return sd;
}

/* Each trial's statistic in a group of cells split by day and instance,
 * with the sampling error of that statistic and its day and instance. */
struct var_trials {
	double	*v;		/* the trials' statistic */
	double	*se2;		/* its squared bootstrap standard error */
	char	**day, **inst;	/* borrowed from the cells */
	char	**dayinst;	/* "day|instance"; owned */
	size_t	n;
	double	mean;		/* of v */
	size_t	ncens;		/* trials whose statistic is "≥ timeout" */
};

/* The cells' day and instance are dimensions d0 and d0 + 1 (after the
 * user's --by keys). */
static void
var_trials_collect(const struct analyze_opts *o, const struct stats_name *st,
    const struct cellset *cs, size_t from, size_t to, size_t d0,
    struct stats_rng *rng, struct var_trials *vt)
{
	size_t cap = 0, k, j;

	memset(vt, 0, sizeof(*vt));
	for (k = from; k < to; k++)
		cap += cs->cells[k].ntrials;
	vt->v = xcalloc(cap + 1, sizeof(double));
	vt->se2 = xcalloc(cap + 1, sizeof(double));
	vt->day = xcalloc(cap + 1, sizeof(char *));
	vt->inst = xcalloc(cap + 1, sizeof(char *));
	vt->dayinst = xcalloc(cap + 1, sizeof(char *));
	for (k = from; k < to; k++) {
		const struct cell *c = &cs->cells[k];

		for (j = 0; j < c->ntrials; j++) {
			const struct trial *tr = &c->trials[j];
			double x, se;

			if (!tr->n)
				continue;
			vt->ncens += trial_censored(o, cs, tr, st);
			x = st->kind == STATS_NAME_MEAN ? stats_mean(tr->values,
			    tr->n) : stats_quantile(o->est, tr->values, tr->n,
			    st->pct);
			/* sampling error of the trial's own statistic: the
			 * spread of a small bootstrap within the trial
			 * (order-statistic interval widths are dominated by
			 * the max in the tail) */
			se = trial_boot_se(o, st, tr, rng);
			vt->v[vt->n] = x;
			vt->se2[vt->n] = se * se;
			vt->day[vt->n] = c->dims[d0];
			vt->inst[vt->n] = c->dims[d0 + 1];
			vt->dayinst[vt->n] = xasprintf("%s|%s", c->dims[d0],
			    c->dims[d0 + 1]);
			vt->mean += x;
			vt->n++;
		}
	}
	if (vt->n)
		vt->mean /= (double)vt->n;
}

static void
var_trials_release(struct var_trials *vt)
{
	size_t k;

	for (k = 0; k < vt->n; k++)
		free(vt->dayinst[k]);
	free(vt->v);
	free(vt->se2);
	free(vt->day);
	free(vt->inst);
	free(vt->dayinst);
}

/* Distinct values of l[0..n). */
static size_t
count_distinct(char *const *l, size_t n)
{
	size_t a, b, k = 0;

	for (a = 0; a < n; a++) {
		for (b = 0; b < a; b++)
			if (!strcmp(l[b], l[a]))
				break;
		k += b == a;
	}
	return k;
}

/* Variance components, by the method of moments level by level: what a
 * level adds beyond the noise of the level below it (NaN when the level
 * has one value). */
struct var_levels {
	double	within;		/* sampling error of one trial */
	double	trials;		/* between trials of one day and instance */
	double	days;		/* between days of one instance */
	double	instances;	/* between instances */
	size_t	ninst;		/* instances seen */
};

static void
var_levels(const struct var_trials *vt, struct var_levels *lv)
{
	double *gm = xcalloc(vt->n + 1, sizeof(double));
	double *dm = xcalloc(vt->n + 1, sizeof(double));
	char **dl = xcalloc(vt->n + 1, sizeof(char *));
	bool *seen = xcalloc(vt->n + 1, sizeof(bool));
	size_t k, a, b, nd = 0, ng;
	double btw;

	lv->within = 0;
	lv->days = lv->instances = NAN;
	for (k = 0; k < vt->n; k++)
		lv->within += isfinite(vt->se2[k]) ? vt->se2[k] : 0;
	lv->within /= (double)vt->n;
	btw = pooled_within(vt->v, vt->dayinst, vt->n, gm, &ng);
	lv->trials = isfinite(btw) ? fmax(0, btw - lv->within) : NAN;
	/* day means within an instance */
	for (a = 0; a < vt->n; a++) {
		double m = 0;
		size_t cnt = 0;

		if (seen[a])
			continue;
		for (b = a; b < vt->n; b++)
			if (!strcmp(vt->dayinst[b], vt->dayinst[a])) {
				m += vt->v[b];
				cnt++;
				seen[b] = true;
			}
		dm[nd] = m / (double)cnt;
		dl[nd++] = vt->inst[a];
	}
	lv->ninst = count_distinct(dl, nd);
	if (nd > lv->ninst) {
		double bd = pooled_within(dm, dl, nd, gm, &ng);

		lv->days = isfinite(bd) ? fmax(0, bd - (isfinite(lv->trials) ?
		    lv->trials : 0) - lv->within) : NAN;
	}
	if (lv->ninst >= 2) {
		double *im = xcalloc(lv->ninst + 1, sizeof(double));
		size_t ni;

		pooled_within(dm, dl, nd, im, &ni);
		lv->instances = fmax(0, var_of(im, ni) - (isfinite(lv->days) ?
		    lv->days : 0) - (isfinite(lv->trials) ? lv->trials : 0) -
		    lv->within);
		free(im);
	}
	free(gm);
	free(dm);
	free(dl);
	free(seen);
}

static size_t
variance_columns(struct table *t, const struct analyze_opts *o, bool connect)
{
	size_t col0, d;

	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d < o->nby; d++)
		table_add_col(t, o->by[d], o->by[d], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	col0 = table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "trials", "Trials", -1);
	table_add_col(t, "days", "Days", -1);
	table_add_col(t, "instances", "Instances", -1);
	table_add_col(t, "mean", "Mean", 3);
	table_add_col(t, "cv_within_trial_pct", "Within trial %", 2);
	table_add_col(t, "cv_between_trials_pct", "Between trials %", 2);
	table_add_col(t, "cv_between_days_pct", "Between days %", 2);
	table_add_col(t, "cv_between_instances_pct", "Between instances %",
	    2);
	table_add_col(t, "halfwidth_now_pct", "±% now", 2);
	table_add_col(t, "trials_needed", "Trials for target", -1);
	/* the run tags the row pools beyond day and instance */
	table_add_hidden_col(t, "pooled_over", "pooled_over", -1);
	/* connect probes: trials whose statistic is "≥ timeout" */
	if (connect)
		table_add_hidden_col(t, "trials_ge_timeout",
		    "trials_ge_timeout", -1);
	t->cols[col0 + 4].md_hidden = true;
	return col0;
}

/* The row of one cell group and statistic. */
static void
variance_row(const struct analyze_opts *o, const char *stat,
    const struct cellset *cs, const struct cell *first,
    const struct var_trials *vt, size_t col0, const char *pooled_over,
    struct table *t)
{
	struct var_levels lv;
	double now = NAN, mean = fabs(vt->mean);
	size_t needed, row, d;

	var_levels(vt, &lv);
	needed = vt->n >= 2 ? stats_trials_needed(vt->v, vt->n, o->target_pct,
	    o->level, &now) : 0;
	row = table_add_row(t);
	if (cs->info->timeout_bound)
		table_set_int(t, row, col0 + 12, (int64_t)vt->ncens);
	table_set_str(t, row, 0, first->path);
	table_set_str(t, row, 1, first->cond);
	for (d = 0; d < o->nby; d++)
		table_set_str(t, row, 2 + d, first->dims[d]);
	table_set_str(t, row, 2 + o->nby, cs->metric_name);
	table_set_str(t, row, 3 + o->nby, stats_estimator_name(o->est));
	table_set_str(t, row, col0 + 11, pooled_over);
	table_set_str(t, row, col0, stat);
	table_set_int(t, row, col0 + 1, (int64_t)vt->n);
	table_set_int(t, row, col0 + 2, (int64_t)count_distinct(vt->day,
	    vt->n));
	table_set_int(t, row, col0 + 3, (int64_t)lv.ninst);
	table_set_num(t, row, col0 + 4, vt->mean);
	table_set_num(t, row, col0 + 5, 100 * sqrt(lv.within) / mean);
	table_set_num(t, row, col0 + 6, 100 * sqrt(lv.trials) / mean);
	table_set_num(t, row, col0 + 7, 100 * sqrt(lv.days) / mean);
	table_set_num(t, row, col0 + 8, 100 * sqrt(lv.instances) / mean);
	table_set_num(t, row, col0 + 9, now);
	if (needed)
		table_set_int(t, row, col0 + 10, (int64_t)needed);
	else
		table_set_display(t, row, col0 + 10, vt->n < 2 ?
		    "need 2 trials" : "–");
	if (vt->ncens) {
		size_t k;

		/* a trial "≥ timeout": its value is the successes' one, so
		 * no spread of it is the spread of the statistic */
		for (k = 4; k <= 10; k++) {
			table_set_null(t, row, col0 + k);
			table_set_display(t, row, col0 + k, "≥ timeout");
		}
	}
}

/* Same group of variance cells: path, condition and the --by keys. */
static bool
variance_same_group(const struct cell *a, const struct cell *b, size_t nby)
{
	size_t d;

	if (strcmp(a->path, b->path) || strcmp(a->cond, b->cond))
		return false;
	for (d = 0; d < nby; d++)
		if (strcmp(a->dims[d], b->dims[d]))
			return false;
	return true;
}

/* The groups' cells without day and instance (counts only), and what
 * each pools (analyze/pooling.h). */
static int
variance_pooling(sqlite3 *db, const struct analyze_opts *o,
    struct cellset *groups, struct pooling *pool)
{
	struct cells_query q;

	analyze_query(o, false, &q);
	if (cells_load(db, &q, groups))
		return -1;
	if (pooling_scan(db, groups, &o->where, o->paths, o->npaths, pool)) {
		cellset_release(groups);
		return -1;
	}
	return 0;
}

int
analyze_variance(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	/* the levels variance splits itself: not "pooled" */
	static char dim_day[] = "day", dim_instance[] = "instance",
	    dim_iid[] = "instance_id", dim_host[] = "hostname";
	char *const levels[] = { dim_day, dim_instance, dim_iid, dim_host };
	char **by;
	struct analyze_opts o2;
	struct cellset cs, groups;
	struct cells_query q;
	struct stats_rng rng;
	struct pooling pool;
	struct strbuf po = STRBUF_INIT;
	size_t i, g, s, col0, d, npooled = 0, nvcens = 0;

	if (nargs > 0) {
		error("variance takes no arguments (got '%s')", args[0]);
		return -2;
	}
	analyze_default_stats(o, &o2);
	stats_rng_seed(&rng, o->seed);
	/* Trials keep their day and instance (instance_id, else hostname)
	 * as the last two dimensions, after the user's --by keys; cells are
	 * grouped on the rest. */
	by = xcalloc(o->nby + 2, sizeof(char *));
	for (d = 0; d < o->nby; d++)
		by[d] = o->by[d];
	by[o->nby] = dim_day;
	by[o->nby + 1] = dim_instance;
	analyze_query(o, true, &q);
	q.by = by;
	q.nby = o->nby + 2;
	if (cells_load(db, &q, &cs)) {
		free(by);
		return -1;
	}
	if (variance_pooling(db, o, &groups, &pool)) {
		cellset_release(&cs);
		free(by);
		return -1;
	}
	col0 = variance_columns(t, o, cs.info->timeout_bound);
	for (i = 0; i < cs.n; i = g) {
		const struct cell *gc;

		for (g = i; g < cs.n && variance_same_group(&cs.cells[g], &cs.cells[i],
		    o->nby); g++)
			;
		strbuf_reset(&po);
		gc = cellset_find(&groups, cs.cells[i].path, cs.cells[i].cond,
		    cs.cells[i].dims);
		if (gc)
			pooling_cell_keys(&pool, (size_t)(gc - groups.cells),
			    levels, ARRAY_SIZE(levels), &po);
		npooled += po.len > 0;
		for (s = 0; s < o2.nstats; s++) {
			const struct stats_name *st = &o2.stats[s];
			struct var_trials vt;

			if (st->kind != STATS_NAME_PCT &&
			    st->kind != STATS_NAME_MEAN)
				continue;
			var_trials_collect(o, st, &cs, i, g, o->nby, &rng, &vt);
			nvcens += vt.n && vt.ncens;
			if (vt.n)
				variance_row(o, o2.stat_names[s], &cs,
				    &cs.cells[i], &vt, col0, po.buf, t);
			var_trials_release(&vt);
		}
	}
	table_add_note(t, "%s: spread of each trial's statistic, as a "
	    "coefficient of variation (%% of the mean), split by level with "
	    "the method of moments: within trial = sampling error of one "
	    "trial's statistic (standard deviation of 200 bootstrap resamples "
	    "within the trial); between trials, days and instances = what "
	    "each level adds beyond the one below (0 when it adds nothing; – "
	    "when there is only one value at that level).  Instances are told "
	    "apart by the tag 'instance', else 'instance_id', else "
	    "'hostname'.", cs.metric_name);
	table_add_note(t, "Trials for target: smallest number of trials for a "
	    "%.0f %% t interval of ±%.1f %% on the mean of the trial "
	    "statistics; ±%% now: that half-width with the trials at hand.",
	    o->level * 100, o->target_pct);
	if (nvcens)
		table_add_note(t, "≥ timeout: in %zu row(s) some trial's "
		    "statistic of all its attempts reads a timed-out one "
		    "(trials_ge_timeout counts them): no spread, mean or trial "
		    "count is given for it.", nvcens);
	if (npooled) {
		table_add_note(t, "Between trials %% includes any difference "
		    "between the groups a row pools (pooled_over): it is not "
		    "trial-to-trial noise there.");
		pooling_note(&pool, levels, ARRAY_SIZE(levels), true, t);
	}
	pooling_release(&pool);
	cellset_release(&groups);
	cellset_release(&cs);
	strbuf_release(&po);
	free(by);
	return 0;
}
