/*
 * trend.c - the trend verdict of a short series (days, runs): an exact
 * Mann-Kendall test for a monotone drift, a simulation-calibrated test
 * for a step beyond the least-squares line, and a practical threshold.
 * Contracts are in stats/verdict.h; the error rates are measured by
 * bench/verdicts.c (docs/verdicts.md).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/stats.h"
#include "stats/verdict.h"

#define MK_EXACT_MAX_N	60

double
stats_mk_exact_p(double s, size_t n)
{
	double *f, *g, tail = 0, total = 0, mx;
	size_t maxinv, k, i, j;
	double inv_obs;

	if (n < 2 || n > MK_EXACT_MAX_N || !isfinite(s))
		return NAN;
	maxinv = n * (n - 1) / 2;
	/* S = maxinv - 2 * inversions; |S| large <=> inversions far from
	 * maxinv / 2.  P(|S| >= |s|) = 2 P(inversions <= (maxinv - |s|) / 2)
	 * by symmetry (capped at 1). */
	inv_obs = ((double)maxinv - fabs(s)) / 2;
	f = xcalloc(maxinv + 1, sizeof(*f));
	g = xcalloc(maxinv + 1, sizeof(*g));
	f[0] = 1;
	/* Mahonian numbers, scaled by 1/k! on the way so nothing overflows:
	 * adding element k spreads each count over k new inversion counts */
	for (k = 2; k <= n; k++) {
		size_t top = k * (k - 1) / 2;
		double run = 0;

		for (i = 0; i <= top; i++) {
			run += i <= (k - 1) * (k - 2) / 2 ? f[i] : 0;
			if (i >= k)
				run -= i - k <= (k - 1) * (k - 2) / 2 ?
				    f[i - k] : 0;
			g[i] = run / (double)k;
		}
		memcpy(f, g, (top + 1) * sizeof(*f));
	}
	mx = floor(inv_obs + 1e-9);
	for (j = 0; j <= maxinv; j++) {
		total += f[j];
		if ((double)j <= mx)
			tail += f[j];
	}
	free(f);
	free(g);
	tail = 2 * tail / total;
	return tail > 1 ? 1 : tail;
}

/* Mann-Kendall S of y (x increasing) and its two-sided p. */
static void
mann_kendall(const double *y, size_t n, struct stats_trend *out)
{
	double s = 0, var, tie = 0, *c;
	bool ties = false;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s += (y[j] > y[i]) - (y[j] < y[i]);
	c = xmalloc(n * sizeof(*c));
	memcpy(c, y, n * sizeof(*c));
	stats_sort(c, n);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		double t;

		while (j < n && c[j] == c[i])
			j++;
		t = (double)(j - i);
		if (j - i > 1) {
			ties = true;
			tie += t * (t - 1) * (2 * t + 5);
		}
		i = j;
	}
	free(c);
	out->mk_s = s;
	if (!ties && n <= MK_EXACT_MAX_N) {
		out->mk_exact = true;
		out->mk_p = stats_mk_exact_p(s, n);
		return;
	}
	var = ((double)n * (double)(n - 1) * (double)(2 * n + 5) - tie) / 18;
	if (!(var > 0)) {
		out->mk_p = 1;
		return;
	}
	/* continuity corrected, as Kendall (1975) and most MK packages */
	out->mk_p = 2 * stats_norm_cdf(-(fabs(s) - 1 > 0 ? fabs(s) - 1 : 0) /
	    sqrt(var));
	if (out->mk_p > 1)
		out->mk_p = 1;
}

/* Residuals of r on (1, x), in place; returns their sum of squares. */
static double
detrend(double *r, const double *x, size_t n, double xm, double sxx)
{
	double rm = 0, sxr = 0, b, rss = 0;

	for (size_t i = 0; i < n; i++)
		rm += r[i];
	rm /= (double)n;
	for (size_t i = 0; i < n; i++)
		sxr += (x[i] - xm) * (r[i] - rm);
	b = sxr / sxx;
	for (size_t i = 0; i < n; i++) {
		r[i] -= rm + b * (x[i] - xm);
		rss += r[i] * r[i];
	}
	return rss;
}

/*
 * The largest share of the residual sum of squares a step explains:
 * max over splits k of <r, s_k>^2 / (|s~_k|^2 rss), r already orthogonal
 * to (1, x), s_k the indicator of points >= k and |s~_k|^2 its squared
 * norm after removing (1, x) (in den[k]).  Monotone in the step's F.
 */
static double
step_stat(const double *r, size_t n, double rss, const double *den,
    size_t *at)
{
	double best = -1, suf = 0;

	*at = 0;
	if (!(rss > 0))
		return 0;
	for (size_t k = n - 1; k >= 2; k--) {
		double v;

		suf += r[k];
		if (n - k < 2 || !(den[k] > 0))
			continue;
		v = suf * suf / (den[k] * rss);
		if (v > best) {
			best = v;
			*at = k;
		}
	}
	return best < 0 ? 0 : best;
}

/* The step test of the series; sets step_at, step_size, step_p. */
static void
step_test(const double *x, const double *y, size_t n, struct stats_trend *out)
{
	double *r = xmalloc(n * sizeof(*r)), *p = xmalloc(n * sizeof(*p));
	double *den = xcalloc(n, sizeof(*den)), *sk = xmalloc(n * sizeof(*sk));
	double xm = 0, sxx = 0, rss, obs, suf = 0;
	struct stats_rng rng;
	size_t at, ge = 0;

	for (size_t i = 0; i < n; i++)
		xm += x[i];
	xm /= (double)n;
	for (size_t i = 0; i < n; i++)
		sxx += (x[i] - xm) * (x[i] - xm);
	for (size_t k = 2; k + 2 <= n; k++) {
		for (size_t i = 0; i < n; i++)
			sk[i] = i >= k;
		den[k] = detrend(sk, x, n, xm, sxx);
	}
	memcpy(r, y, n * sizeof(*r));
	rss = detrend(r, x, n, xm, sxx);
	obs = step_stat(r, n, rss, den, &at);
	out->step_at = at;
	out->step_p = 1;
	out->step_size = 0;
	if (!(obs > 0) || at == 0)
		goto cleanup;
	/* the jump: <r, s_k> / |s~_k|^2 */
	for (size_t i = at; i < n; i++)
		suf += r[i];
	out->step_size = suf / den[at];
	stats_rng_seed(&rng, STATS_TREND_SEED);
	for (size_t b = 0; b < STATS_TREND_PERMS; b++) {
		size_t dummy;
		double prss;

		/* the statistic does not change when a line is added to the
		 * series or it is scaled, so its null distribution under
		 * "a line plus normal noise" is that of pure normal noise on
		 * the same x: exact with or without a drift.  (Permuting the
		 * points cannot reach 2.5 % with 7 points even for a clean
		 * step; permuting the residuals was measured liberal.) */
		for (size_t i = 0; i < n; i++)
			p[i] = stats_rng_normal(&rng);
		prss = detrend(p, x, n, xm, sxx);
		/* ties at the observed value count, with a relative slack for
		 * the rounding of two sums of the same numbers */
		if (step_stat(p, n, prss, den, &dummy) >= obs * (1 - 1e-12))
			ge++;
	}
	out->step_p = (double)(ge + 1) / (double)(STATS_TREND_PERMS + 1);
cleanup:
	free(r);
	free(p);
	free(den);
	free(sk);
}

int
stats_trend(const double *x, const double *y, size_t n, double threshold_pct,
    double level, struct stats_trend *out)
{
	struct stats_theil_sen ts;
	double span;

	memset(out, 0, sizeof(*out));
	out->verdict = STATS_TREND_TOO_FEW;
	out->mk_p = out->step_p = 1;
	out->mean = out->slope = out->slope_lo = out->slope_hi = NAN;
	out->change_pct = out->step_size = out->step_pct = NAN;
	out->mk_s = NAN;
	out->n = n;
	if (n > STATS_TREND_MAX_N || !(level > 0 && level < 1) ||
	    !(threshold_pct >= 0))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]) || !isfinite(y[i]) || (i && !(x[i] > x[i - 1])))
			return -1;
	if (n == 0)
		return 0;
	out->mean = stats_mean(y, n);
	if (n >= 2 && stats_theil_sen(x, y, n, level, &ts) == 0) {
		out->slope = ts.slope;
		out->slope_lo = ts.lo;
		out->slope_hi = ts.hi;
	}
	span = x[n - 1] - x[0];
	out->change_pct = out->mean != 0 ?
	    100 * out->slope * span / fabs(out->mean) : NAN;
	if (n < STATS_TREND_MIN_POINTS)
		return 0;
	mann_kendall(y, n, out);
	step_test(x, y, n, out);
	out->step_pct = out->mean != 0 ?
	    100 * out->step_size / fabs(out->mean) : NAN;
	out->drift = out->mk_p <= STATS_TREND_ALPHA_DRIFT &&
	    fabs(out->change_pct) >= threshold_pct;
	out->step = out->step_p <= STATS_TREND_ALPHA_STEP &&
	    fabs(out->step_pct) >= threshold_pct;
	if (out->drift && out->step)
		out->verdict = STATS_TREND_DRIFT_STEP;
	else if (out->drift)
		out->verdict = STATS_TREND_DRIFT;
	else if (out->step)
		out->verdict = STATS_TREND_STEP;
	else if (out->mk_p <= STATS_TREND_ALPHA_DRIFT ||
	    out->step_p <= STATS_TREND_ALPHA_STEP)
		out->verdict = STATS_TREND_SMALL;
	else
		out->verdict = STATS_TREND_STABLE;
	return 0;
}
