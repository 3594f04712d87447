/*
 * outlier.c - the one outlier-trial rule: a trial far from the median
 * trial both practically (STATS_OUTLIER_MIN_RATIO) and statistically (a
 * robust z beyond the 95 % critical value for that many trials).
 * `analyze trials` (stats_spread), `check outlier-trial` and the report's
 * box charts all call stats_outlier_trials().  With 3-5 trials a cell
 * cannot estimate its own spread, and `check outlier-trial` also judges
 * each trial against the spread its campaign's cells share
 * (stats_outlier_pooled()).  Contracts are in stats/verdict.h; the
 * error rates are measured by bench/verdicts.c.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/stats.h"
#include "stats/verdict.h"

/*
 * 95th percentile of max_i |v_i - median v| / (1.4826 MAD v) over n iid
 * normal values, n = 3..30 (type 7 medians, as stats_median()).  Made by
 * `build/bench/verdicts --calibrate` (400,000 draws per n, seed 14);
 * the statistic does not depend on the normal's mean or spread.
 */
static const double zcrit[] = {
	/* n = 3 .. 30 */
	21.72,	/* n = 3 */
	6.89,	/* n = 4 */
	7.92,	/* n = 5 */
	5.53,	/* n = 6 */
	5.87,	/* n = 7 */
	4.94,	/* n = 8 */
	5.07,	/* n = 9 */
	4.59,	/* n = 10 */
	4.66,	/* n = 11 */
	4.35,	/* n = 12 */
	4.44,	/* n = 13 */
	4.23,	/* n = 14 */
	4.28,	/* n = 15 */
	4.12,	/* n = 16 */
	4.17,	/* n = 17 */
	4.05,	/* n = 18 */
	4.09,	/* n = 19 */
	4.00,	/* n = 20 */
	4.03,	/* n = 21 */
	3.95,	/* n = 22 */
	3.97,	/* n = 23 */
	3.91,	/* n = 24 */
	3.94,	/* n = 25 */
	3.88,	/* n = 26 */
	3.91,	/* n = 27 */
	3.86,	/* n = 28 */
	3.87,	/* n = 29 */
	3.84,	/* n = 30 */
};

/*
 * From 8 trials on each side of the median has its own scale (1.4826
 * times the median of that side's distances), so a right-skewed
 * statistic (p99 of heavy-tailed samples: Pareto trials' p99s spread
 * upwards) is judged against its own upper spread: with one MAD for
 * both sides 10 % of cells of 20 identical Pareto alpha 1.5 trials of
 * 300 samples got a p99 flag.  95th percentile of max_i |z_i| with
 * those side scales over n iid normal values, n = 8..30 (numpy, 200,000
 * draws per n, seed 14).
 */
static const double zcrit_semi[] = {
	4.78, 4.18, 6.05, 5.23, 4.89, 4.36, 5.36, 4.85, 4.74, 4.36,	/* 8-17 */
	5.00, 4.61, 4.59, 4.29, 4.77, 4.46, 4.47, 4.24, 4.58, 4.34,	/* 18-27 */
	4.40, 4.18, 4.47,						/* 28-30 */
};

double
stats_outlier_zcrit_semi(size_t n)
{
	if (n < STATS_OUTLIER_SEMI_MIN)
		return NAN;
	if (n > STATS_OUTLIER_CAL_MAX)
		n = STATS_OUTLIER_CAL_MAX;
	return zcrit_semi[n - STATS_OUTLIER_SEMI_MIN];
}

/* 1.4826 x the median of the positive (side > 0) or negative distances
 * of lg from m; NaN when that side is empty. */
static double
side_scale(const double *lg, size_t n, double m, int side, double *buf)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double d = lg[i] - m;

		if ((side > 0 && d > 0) || (side < 0 && d < 0))
			buf[k++] = fabs(d);
	}
	return k ? 1.4826 * stats_median(buf, k) : NAN;
}

double
stats_outlier_zcrit(size_t n)
{
	if (n < STATS_OUTLIER_CAL_MIN)
		return NAN;
	if (n > STATS_OUTLIER_CAL_MAX)
		n = STATS_OUTLIER_CAL_MAX;
	return zcrit[n - STATS_OUTLIER_CAL_MIN];
}

size_t
stats_outlier_trials(const double *x, size_t n, bool *flag, double *ratio,
    double *z)
{
	double *lg = NULL, *dev = NULL, m, s, crit, floor_log;
	double s_up = NAN, s_dn = NAN;
	size_t nflag = 0;

	for (size_t i = 0; i < n; i++) {
		if (flag)
			flag[i] = false;
		if (ratio)
			ratio[i] = NAN;
		if (z)
			z[i] = NAN;
	}
	if (n < 3)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return 0;
	lg = xmalloc(n * sizeof(*lg));
	dev = xmalloc(n * sizeof(*dev));
	for (size_t i = 0; i < n; i++)
		lg[i] = log(x[i]);
	m = stats_median(lg, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(lg[i] - m);
	s = 1.4826 * stats_median(dev, n);
	crit = stats_outlier_zcrit(n);
	if (n >= STATS_OUTLIER_SEMI_MIN) {
		s_up = side_scale(lg, n, m, 1, dev);
		s_dn = side_scale(lg, n, m, -1, dev);
		crit = stats_outlier_zcrit_semi(n);
	}
	floor_log = log(STATS_OUTLIER_MIN_RATIO);
	for (size_t i = 0; i < n; i++) {
		double d = lg[i] - m;

		if (n >= STATS_OUTLIER_SEMI_MIN) {
			s = d > 0 ? s_up : s_dn;
			if (isnan(s))
				s = 0;
		}
		/* a hair of slack so an exact 2x (or 1/2x) counts */
		bool f = fabs(d) >= floor_log * (1 - 1e-12) &&
		    fabs(d) >= crit * s * (n >= STATS_OUTLIER_SEMI_MIN &&
		    d > 0 ? STATS_OUTLIER_SEMI_UP : 1.0);

		if (ratio)
			ratio[i] = exp(d);
		if (z)
			z[i] = s > 0 ? d / s : d == 0 ? 0 : d > 0 ?
			    INFINITY : -INFINITY;
		if (flag)
			flag[i] = f;
		nflag += f;
	}
	free(lg);
	free(dev);
	return nflag;
}

/* ---------------------------------------------------------------------
 * The campaign's rule
 */

/*
 * 99th percentile of max_i |l_i - m| / s over cells of k iid normal
 * trials, s the median over the cells of each cell's distance from its
 * median to the nearest other trial, for 4, 8 and 30 cells (numpy,
 * 20,000 campaigns each, seed 2; bench/verdicts.c measures the rates
 * the rule gives).
 */
static const double pool_cells[3] = { 4, 8, 30 };
static const double pool_k[3][3] = {
	{ 20.35, 14.58, 10.45 },	/* 3 trials */
	{ 33.92, 23.95, 16.22 },	/* 4 trials */
	{ 48.19, 32.66, 21.05 },	/* 5 trials */
};

double
stats_outlier_pool_k(size_t k, size_t used)
{
	const double *row;
	double lc;

	if (k < STATS_OUTLIER_POOL_MIN_TRIALS ||
	    k > STATS_OUTLIER_POOL_MAX_TRIALS ||
	    used < STATS_OUTLIER_POOL_MIN_CELLS)
		return NAN;
	row = pool_k[k - STATS_OUTLIER_POOL_MIN_TRIALS];
	if ((double)used >= pool_cells[2])
		return row[2];
	lc = log((double)used);
	for (size_t i = 0; i < 2; i++) {
		double a = log(pool_cells[i]), b = log(pool_cells[i + 1]);

		if (lc <= b)
			return row[i] + (row[i + 1] - row[i]) * (lc - a) /
			    (b - a);
	}
	return row[2];
}

/* The nearest-neighbour distance of the median of k logs (k <= 5). */
static double
cell_scale(const double *x, size_t k, bool *ok)
{
	double lg[STATS_OUTLIER_POOL_MAX_TRIALS] = { 0 };
	double d[STATS_OUTLIER_POOL_MAX_TRIALS] = { 0 };
	double m;

	*ok = false;
	for (size_t i = 0; i < k; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return NAN;
		lg[i] = log(x[i]);
	}
	m = stats_median(lg, k);
	for (size_t i = 0; i < k; i++)
		d[i] = fabs(lg[i] - m);
	stats_sort(d, k);
	*ok = true;
	/* odd k: d[0] is the median's own 0 */
	return k % 2 ? d[1] : d[0];
}

double
stats_outlier_pool_scale(const double *x, size_t k, size_t ncells,
    size_t *used)
{
	double *c, s = NAN;
	size_t n = 0;

	*used = 0;
	if (k < STATS_OUTLIER_POOL_MIN_TRIALS ||
	    k > STATS_OUTLIER_POOL_MAX_TRIALS || !ncells)
		return NAN;
	c = xmalloc(ncells * sizeof(*c));
	for (size_t i = 0; i < ncells; i++) {
		bool ok;
		double v = cell_scale(x + i * k, k, &ok);

		if (ok)
			c[n++] = v;
	}
	if (n >= STATS_OUTLIER_POOL_MIN_CELLS) {
		s = stats_median(c, n);
		*used = n;
	}
	free(c);
	return s;
}

size_t
stats_outlier_pooled(const double *x, size_t k, double scale, size_t used,
    bool *flag, double *ratio)
{
	double lg[STATS_OUTLIER_POOL_MAX_TRIALS] = { 0 }, m, crit;
	size_t nflag = 0;

	for (size_t i = 0; i < k; i++) {
		if (flag)
			flag[i] = false;
		if (ratio)
			ratio[i] = NAN;
	}
	crit = stats_outlier_pool_k(k, used);
	if (!isfinite(scale) || !isfinite(crit) ||
	    k > STATS_OUTLIER_POOL_MAX_TRIALS)
		return 0;
	for (size_t i = 0; i < k; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return 0;
		lg[i] = log(x[i]);
	}
	m = stats_median(lg, k);
	for (size_t i = 0; i < k; i++) {
		double d = fabs(lg[i] - m);
		bool f = d >= log(STATS_OUTLIER_POOL_MIN_RATIO) * (1 - 1e-12) &&
		    d >= crit * scale;

		if (ratio)
			ratio[i] = exp(lg[i] - m);
		if (flag)
			flag[i] = f;
		nflag += f;
	}
	return nflag;
}
