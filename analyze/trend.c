/*
 * trend.c - the trend verb: a statistic over days or hours (or any
 * ordered key), its Theil-Sen slope, Mann-Kendall and step verdicts
 * (stats/trend.c) and the change points the report marks on its charts.
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
#include "common/keycat.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "stats/verdict.h"

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
	analyze_add_group_columns(t, cs);
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
	/* why slope_lo/slope_hi are null, as <stat>_ci_reason elsewhere */
	table_add_hidden_col(t, "slope_ci_reason", "slope_ci_reason", -1);
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
	size_t		common_n;	/* > 0: the percentiles compared at
					 * this many samples a point */
	size_t		n_max;		/* then the most a point holds */
	double		common_pct;	/* and the percentile */
	struct stats_trend tv;		/* slope, tests, verdict (verdict.h) */
	bool		have_tv;
};

/*
 * Points whose samples differ by 2x or more: a type 7 tail percentile
 * of fewer samples reads lower (a p99 of 50 lognormal values about 5 %
 * below one of 300: docs/research/verdicts.md), so a change in the
 * samples a day moves it with no change in the path.  Each point's percentile and its
 * se are then those at the smallest point's n (stats/verdict.h: the
 * expected percentile of that many of its samples), which every point
 * estimates alike.  Only with every point's se (pooled percentiles).
 */
static void
trend_common_n(const struct analyze_opts *o2, struct cellset *cs, size_t s,
    struct trend *tr)
{
	size_t lo = SIZE_MAX, hi = 0, j;

	if (!tr->use_se || tr->m < 2 || o2->est != STATS_EST_TYPE7)
		return;
	for (j = 0; j < tr->m; j++) {
		const double *arr;
		size_t na = cell_pooled(&cs->cells[tr->pt[tr->fpt[j]].cell],
		    &arr);

		lo = na < lo ? na : lo;
		hi = na > hi ? na : hi;
	}
	if (lo < 2 || hi < 2 * lo)
		return;
	for (j = 0; j < tr->m; j++) {
		const double *arr;
		size_t na = cell_pooled(&cs->cells[tr->pt[tr->fpt[j]].cell],
		    &arr);

		tr->fy[j] = stats_trend_quantile_at_n(arr, na, lo,
		    o2->stats[s].pct);
		tr->fse[j] = stats_trend_point_se_at_n(arr, na, lo,
		    o2->stats[s].pct);
		if (!isfinite(tr->fy[j]) || !isfinite(tr->fse[j]))
			BUG("trend: no percentile at a common n of %zu", lo);
	}
	tr->common_n = lo;
	tr->n_max = hi;
	tr->common_pct = o2->stats[s].pct;
}


/*
 * The memo of analyze_trend_memo_begin(): each series' tests, by the
 * exact points (x, y and their sampling errors), the threshold and the
 * level.  A report asks for the same series more than once (its day
 * charts mark the change points of the p99 its trend table tests
 * again), and the tests draw STATS_TREND_PERMS simulated series each:
 * 18 % of a no-spec report's CPU, a third of it twice.  The tests are a
 * function of these inputs alone (a fixed seed), so the memo's answer
 * is the one computing them again gives.
 */
struct trend_memo_item {
	double			*xyse;	/* x, y, then se (when has_se): 2 or
					 * 3 times n doubles; owned */
	size_t			n;
	bool			has_se;
	double			threshold_pct, level;
	int			rc;	/* stats_trend_se()'s */
	struct stats_trend	tv;
};

static struct {
	bool			on;
	struct trend_memo_item	*items;	/* owned */
	size_t			n, alloc;
	unsigned long		tested, reused;
} trend_memo;

void
analyze_trend_memo_begin(void)
{
	analyze_trend_memo_end();
	trend_memo.on = true;
	trend_memo.tested = trend_memo.reused = 0;
}

void
analyze_trend_memo_end(void)
{
	size_t i;

	for (i = 0; i < trend_memo.n; i++)
		free(trend_memo.items[i].xyse);
	free(trend_memo.items);
	trend_memo.items = NULL;
	trend_memo.n = trend_memo.alloc = 0;
	trend_memo.on = false;
}

void
analyze_trend_memo_counts(unsigned long *tested, unsigned long *reused)
{
	*tested = trend_memo.tested;
	*reused = trend_memo.reused;
}

static bool
same_doubles(const double *a, const double *b, size_t n)
{
	return !memcmp(a, b, n * sizeof(*a));
}

/* stats_trend_se() through the memo when it is on. */
static int
trend_tests(const double *x, const double *y, const double *se, size_t n,
    double threshold_pct, double level, struct stats_trend *out)
{
	struct trend_memo_item *it;
	size_t i;

	if (!trend_memo.on) {
		trend_memo.tested++;
		return stats_trend_se(x, y, se, n, threshold_pct, level, out);
	}
	for (i = 0; i < trend_memo.n; i++) {
		it = &trend_memo.items[i];
		if (it->n != n || it->has_se != (se != NULL) ||
		    memcmp(&it->threshold_pct, &threshold_pct,
		    sizeof(threshold_pct)) ||
		    memcmp(&it->level, &level, sizeof(level)) ||
		    !same_doubles(it->xyse, x, n) ||
		    !same_doubles(it->xyse + n, y, n) ||
		    (se && !same_doubles(it->xyse + 2 * n, se, n)))
			continue;
		trend_memo.reused++;
		*out = it->tv;
		return it->rc;
	}
	ALLOC_GROW(trend_memo.items, trend_memo.n + 1, trend_memo.alloc);
	it = &trend_memo.items[trend_memo.n++];
	memset(it, 0, sizeof(*it));
	it->n = n;
	it->has_se = se != NULL;
	it->threshold_pct = threshold_pct;
	it->level = level;
	it->xyse = xcalloc(n ? 3 * n : 1, sizeof(double));
	if (n) {
		memcpy(it->xyse, x, n * sizeof(*x));
		memcpy(it->xyse + n, y, n * sizeof(*y));
		if (se)
			memcpy(it->xyse + 2 * n, se, n * sizeof(*se));
	}
	trend_memo.tested++;
	it->rc = stats_trend_se(x, y, se, n, threshold_pct, level, &it->tv);
	*out = it->tv;
	return it->rc;
}

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
	trend_common_n(o2, cs, s, tr);
	tr->have_tv = trend_tests(tr->fx, tr->fy, tr->use_se ? tr->fse :
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
 * Provenance (common/keycat.h: how runs were made, differing in every
 * run) is never what changed; a user who wants it splits by it (--by),
 * which makes it a dimension, skipped here.
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
		if (i < cs->ndims || keycat_is_provenance(key))
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

/*
 * Whether a series with "≥ timeout" points gets no verdict: the fit
 * leaves them out, and on the points left it found no change (stable, or
 * under --threshold).  A point whose statistic is at least the timeout
 * lies beyond the others by a change the fit cannot measure, so calling
 * the series stable would hide it (a p99 series was
 * "stable" across the onset of 1.3 % loss).  A step or drift found on
 * the other points is still reported, with the censored points counted.
 */
static bool
trend_censored_no_verdict(const struct trend *tr)
{
	return tr->ncens > 0 && tr->have_tv &&
	    (tr->tv.verdict == STATS_TREND_STABLE ||
	    tr->tv.verdict == STATS_TREND_SMALL);
}

/* Where a series' censored points are, into v: "from D on" when every
 * point from the first censored one is, else the first and last. */
static void
trend_censored_where(const struct trend *tr, struct strbuf *v)
{
	size_t first = tr->npt, last = 0, k;

	for (k = 0; k < tr->npt; k++)
		if (tr->pt[k].censored) {
			if (first == tr->npt)
				first = k;
			last = k;
		}
	if (first == tr->npt)
		BUG("trend_censored_where: no censored point");
	if (tr->ncens == 1)
		strbuf_addf(v, "on %s", tr->pt[first].lab);
	else if (last == tr->npt - 1 && tr->ncens == tr->npt - first)
		strbuf_addf(v, "from %s on", tr->pt[first].lab);
	else
		strbuf_addf(v, "first on %s, last on %s", tr->pt[first].lab,
		    tr->pt[last].lab);
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
	if (trend_censored_no_verdict(tr)) {
		strbuf_addf(v, "no verdict: %zu of %zu points ≥ timeout (",
		    tr->ncens, tr->npt);
		trend_censored_where(tr, v);
		strbuf_addf(v, "), beyond the others by a change the fit "
		    "cannot measure; the %zu other%s alone: ", tr->m,
		    tr->m == 1 ? "" : "s");
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
	if (tr->common_n && t->verdict != STATS_TREND_TOO_FEW)
		strbuf_addf(v, "; the points hold %zu to %zu samples: each "
		    "p%g compared at %zu samples (its expected type 7 value over "
		    "%zu of them)", tr->common_n, tr->n_max, tr->common_pct,
		    tr->common_n, tr->common_n);
	if (tr->ncens && !trend_censored_no_verdict(tr))
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

/* Why a series has no Sen interval (JSON slope_ci_reason, the mark). */
#define TREND_WHY_FEW	"no Sen interval below the verdicts' minimum of " \
	"points"
#define TREND_WHY_NO_SLOPE	"no slope: fewer than 2 points with a value"

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
	col = analyze_fill_group_columns(t, row, cs, first, o2);
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
			table_mark(t, TREND_WHY_FEW, &sb);
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
	table_set_str(t, row, col++, !tr->have_tv ? "none" :
	    trend_censored_no_verdict(tr) ? "censored" :
	    trend_verdict_word(&tr->tv));
	table_set_int(t, row, col++, (int64_t)tr->ncens);
	if (tr->have_tv && tr->m >= STATS_TREND_MIN_POINTS) {
		table_set_num(t, row, col, tr->tv.mk_p);
		table_set_num(t, row, col + 1, tr->tv.mk_p_hr);
		table_set_num(t, row, col + 2, tr->tv.step_p);
		table_set_num(t, row, col + 3, tr->tv.rho);
	}
	col += 4;
	if (!(tr->have_tv && isfinite(tr->tv.slope)))
		table_set_str(t, row, col, TREND_WHY_NO_SLOPE);
	else if (tr->m < STATS_TREND_MIN_POINTS)
		table_set_str(t, row, col, TREND_WHY_FEW);
	else if (!(isfinite(tr->tv.slope_lo) && isfinite(tr->tv.slope_hi)))
		table_set_str(t, row, col, "no interval");
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
		for (g = i; g < cs->n && analyze_same_group(cs, &cs->cells[i],
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
	    "(docs/research/verdicts.md).", cs.metric_name, key, m.buf,
	    !strcmp(key, "day") ? "day" : key, o->level * 100,
	    STATS_TREND_MIN_POINTS, STATS_TREND_PERMS, STATS_TREND_RHO_MIN,
	    o->threshold_pct);
	if (x.ncens)
		table_add_note(t, "≥ timeout: %zu point%s whose statistic falls "
		    "among the timed-out attempts (the statistic of all "
		    "attempts is at least the timeout); marked in the series "
		    "(JSON: value null, censored true) and left out of the "
		    "slopes and the change-point fit; a series with one whose "
		    "other points show no change gets no verdict (JSON "
		    "verdict_kind censored), never \"stable\".", x.ncens,
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
