/*
 * quantile.c - the quantile estimators (type 7, oha's
 * sorted[floor(p n)], Harrell-Davis), the mean, quantiles of unsorted
 * values, and statistic names ("p99.9", "max").
 * Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

static const char *const estimator_names[] = {
	[STATS_EST_TYPE7] = "type7",
	[STATS_EST_OHA] = "oha",
	[STATS_EST_HD] = "hd",
	[STATS_EST_MEAN] = "mean",
};

const char *
stats_estimator_name(enum stats_estimator est)
{
	if ((size_t)est >= ARRAY_SIZE(estimator_names))
		return "?";
	return estimator_names[est];
}

int
stats_estimator_parse(const char *s, enum stats_estimator *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(estimator_names); i++) {
		if (s && !strcmp(s, estimator_names[i])) {
			*out = (enum stats_estimator)i;
			return 0;
		}
	}
	return -1;
}

bool
stats_pct_ok(double pct)
{
	return pct >= 0 && pct <= 100;
}

/* numpy's _lerp: exact at both ends and monotone in t. */
double
stats_lerp(double a, double b, double t)
{
	double diff = b - a;

	if (t >= 0.5)
		return b - diff * (1 - t);
	return a + diff * t;
}

double
stats_quantile_type7(const double *sorted, size_t n, double pct)
{
	double h, fl;
	size_t i;

	if (n == 0 || !stats_pct_ok(pct))
		return NAN;
	h = (double)(n - 1) * (pct / 100.0);
	fl = floor(h);
	i = (size_t)fl;
	if (i >= n - 1)
		return sorted[n - 1];
	return stats_lerp(sorted[i], sorted[i + 1], h - fl);
}

double
stats_quantile_runs(enum stats_estimator est, const double *const *runs,
    const size_t *n, size_t k, double pct)
{
	size_t total = 0, i;
	double h, fl;

	for (i = 0; i < k; i++)
		total += n[i];
	if (total == 0 || !stats_pct_ok(pct))
		return NAN;
	switch (est) {
	case STATS_EST_OHA:
		return stats_select_runs(runs, n, k, stats_oha_index(pct,
		    total));
	case STATS_EST_TYPE7:
		/* stats_quantile_type7's arithmetic, on selected ranks */
		h = (double)(total - 1) * (pct / 100.0);
		fl = floor(h);
		i = (size_t)fl;
		if (i >= total - 1)
			return stats_select_runs(runs, n, k, total - 1);
		return stats_lerp(stats_select_runs(runs, n, k, i),
		    stats_select_runs(runs, n, k, i + 1), h - fl);
	default:
		return NAN;
	}
}

size_t
stats_oha_index(double pct, size_t n)
{
	double v = pct / 100.0 * (double)n;
	size_t i;

	if (!(v > 0))
		return 0;
	i = v >= (double)n ? n : (size_t)v;
	return i >= n ? n - 1 : i;
}

double
stats_quantile_oha(const double *sorted, size_t n, double pct)
{
	if (n == 0 || !stats_pct_ok(pct))
		return NAN;
	return sorted[stats_oha_index(pct, n)];
}

/*
 * Harrell-Davis weights for n sorted values at fraction p (0 < p < 1):
 * returns the window length w and sets *first to the 0-based rank of
 * the first weighted value and *wout to a malloc()ed array of w weights
 * (the caller frees it).  Ranks outside the window carry less than 1e-17
 * of total weight.
 */
static size_t
hd_weights(size_t n, double p, size_t *first, double **wout)
{
	const double eps = 1e-17;
	double a = (double)(n + 1) * p, b = (double)(n + 1) * (1 - p);
	double dn = (double)n, lo, up, prev_lo, prev_up, *w;
	size_t ilo, ihi, l, h;

	/* ilo: largest i with I(i/n) < eps (I(0) = 0 qualifies) */
	l = 0;
	h = n;
	while (h - l > 1) {
		size_t m = l + (h - l) / 2;

		stats_betainc2(a, b, (double)m / dn, (double)(n - m) / dn,
		    &lo, &up);
		if (lo < eps)
			l = m;
		else
			h = m;
	}
	ilo = l;
	/* ihi: smallest i with 1 - I(i/n) < eps (i = n qualifies) */
	l = ilo;
	h = n;
	while (h - l > 1) {
		size_t m = l + (h - l) / 2;

		stats_betainc2(a, b, (double)m / dn, (double)(n - m) / dn,
		    &lo, &up);
		if (up < eps)
			h = m;
		else
			l = m;
	}
	ihi = h;
	/* weights W_i for i in (ilo, ihi], value rank i - 1 (0-based) */
	w = xmalloc((ihi - ilo) * sizeof(*w));
	stats_betainc2(a, b, (double)ilo / dn, (double)(n - ilo) / dn, &prev_lo,
	    &prev_up);
	for (size_t i = ilo + 1; i <= ihi; i++) {
		stats_betainc2(a, b, (double)i / dn, (double)(n - i) / dn,
		    &lo, &up);
		/* difference the tail that is small, so nothing cancels */
		if (prev_up < 0.5)
			w[i - ilo - 1] = prev_up - up;
		else
			w[i - ilo - 1] = lo - prev_lo;
		prev_lo = lo;
		prev_up = up;
	}
	*first = ilo;
	*wout = w;
	return ihi - ilo;
}

static double
dot(const double *w, const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += w[i] * x[i];
	return s;
}

double
stats_quantile_hd(const double *sorted, size_t n, double pct)
{
	double *w = NULL, r;
	size_t first, len;

	if (n == 0 || !stats_pct_ok(pct))
		return NAN;
	if (n == 1 || pct == 0)
		return sorted[0];
	if (pct == 100)
		return sorted[n - 1];
	len = hd_weights(n, pct / 100.0, &first, &w);
	r = dot(w, sorted + first, len);
	free(w);
	return r;
}

double
stats_mean(const double *x, size_t n)
{
	double s = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	if (isinf(s)) {
		/* finite values near DBL_MAX overflow the sum but not the
		 * mean: add each value's share instead (a true infinity
		 * among them keeps it infinite) */
		s = 0;
		for (size_t i = 0; i < n; i++)
			s += x[i] / (double)n;
		return s;
	}
	return s / (double)n;
}

double
stats_quantile(enum stats_estimator est, const double *sorted, size_t n,
    double pct)
{
	switch (est) {
	case STATS_EST_TYPE7:
		return stats_quantile_type7(sorted, n, pct);
	case STATS_EST_OHA:
		return stats_quantile_oha(sorted, n, pct);
	case STATS_EST_HD:
		return stats_quantile_hd(sorted, n, pct);
	case STATS_EST_MEAN:
		return stats_mean(sorted, n);
	}
	return NAN;
}

void
stats_hd_cache_release(struct hd_cache *c)
{
	FREE_AND_NULL(c->w);
	FREE_AND_NULL(c->wcum);
	c->n = 0;
}

/* Make c hold the weights for n values at pct (0 < pct < 100). */
void
stats_hd_cache_get(struct hd_cache *c, size_t n, double pct)
{
	if (c->n == n && c->pct == pct)
		return;
	stats_hd_cache_release(c);
	c->len = hd_weights(n, pct / 100.0, &c->first, &c->w);
	c->wcum = xmalloc((c->len + 1) * sizeof(*c->wcum));
	c->wcum[0] = 0;
	for (size_t i = 0; i < c->len; i++)
		c->wcum[i + 1] = c->wcum[i] + c->w[i];
	c->n = n;
	c->pct = pct;
}

/* Quantile of unsorted x (reordered); hd may be NULL. */
double
stats_quantile_unsorted_hd(enum stats_estimator est, double *x, size_t n,
    double pct, struct hd_cache *hd)
{
	struct hd_cache local = HD_CACHE_INIT;
	double h, fl, v, r;
	size_t i;

	if (n == 0 || (est != STATS_EST_MEAN && !stats_pct_ok(pct)))
		return NAN;
	switch (est) {
	case STATS_EST_MEAN:
		return stats_mean(x, n);
	case STATS_EST_OHA:
		return stats_select(x, n, stats_oha_index(pct, n));
	case STATS_EST_TYPE7:
		h = (double)(n - 1) * (pct / 100.0);
		fl = floor(h);
		i = (size_t)fl;
		if (i >= n - 1)
			return stats_max_of(x, n);
		v = stats_select(x, n, i);
		return stats_lerp(v, stats_min_of(x + i + 1, n - i - 1),
		    h - fl);
	case STATS_EST_HD:
		if (n == 1 || pct == 0)
			return stats_min_of(x, n);
		if (pct == 100)
			return stats_max_of(x, n);
		if (!hd)
			hd = &local;
		stats_hd_cache_get(hd, n, pct);
		stats_select(x, n, hd->first);
		if (hd->len > 1)
			stats_select(x + hd->first, n - hd->first,
			    hd->len - 1);
		stats_sort(x + hd->first, hd->len);
		r = dot(hd->w, x + hd->first, hd->len);
		stats_hd_cache_release(&local);
		return r;
	}
	return NAN;
}

double
stats_quantile_unsorted(enum stats_estimator est, double *x, size_t n,
    double pct)
{
	return stats_quantile_unsorted_hd(est, x, n, pct, NULL);
}

/* ---------------------------------------------------------------------
 * Statistic names
 */

static int
name_fail(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -1;
}

int
stats_name_parse(const char *s, struct stats_name *out, const char **why)
{
	const char *p;
	size_t before = 0, after = 0;
	bool dot_seen = false;
	double v;

	if (!s || !*s)
		return name_fail(why, "empty statistic name");
	if (!strcmp(s, "min") || !strcmp(s, "max") || !strcmp(s, "mean") ||
	    !strcmp(s, "n")) {
		out->kind = s[0] == 'n' ? STATS_NAME_N :
		    !strcmp(s, "min") ? STATS_NAME_MIN :
		    !strcmp(s, "max") ? STATS_NAME_MAX : STATS_NAME_MEAN;
		out->pct = NAN;
		return 0;
	}
	if (!strcmp(s, "median")) {
		out->kind = STATS_NAME_PCT;
		out->pct = 50;
		return 0;
	}
	if (s[0] != 'p')
		return name_fail(why, "expected p<percent>, min, max, mean, "
		    "median or n");
	p = s + 1;
	if (*p == '-')
		return name_fail(why, "percent below 0");
	if (!*p)
		return name_fail(why, "missing percent after 'p'");
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			if (dot_seen)
				after++;
			else
				before++;
		} else if (*p == '.' && !dot_seen) {
			dot_seen = true;
		} else {
			return name_fail(why,
			    "percent is not a decimal number");
		}
	}
	if (before == 0 || (dot_seen && after == 0))
		return name_fail(why, "percent is not a decimal number");
	if (parse_double(s + 1, 0, HUGE_VAL, &v) < 0)
		return name_fail(why, "percent is not a decimal number");
	if (v > 100)
		return name_fail(why, "percent above 100");
	out->kind = STATS_NAME_PCT;
	out->pct = v;
	return 0;
}
