/*
 * outlier.c - the one outlier-trial rule: a trial far from the median
 * trial both practically (STATS_OUTLIER_MIN_RATIO) and statistically (a
 * robust z beyond the 95 % critical value for that many trials).
 * `analyze trials` (stats_spread), `check outlier-trial` and the report's
 * box charts all call stats_outlier_trials().  Contracts are in
 * stats/verdict.h; the error rates are measured by bench/verdicts.c.
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
	floor_log = log(STATS_OUTLIER_MIN_RATIO);
	for (size_t i = 0; i < n; i++) {
		double d = lg[i] - m;
		/* a hair of slack so an exact 2x (or 1/2x) counts */
		bool f = fabs(d) >= floor_log * (1 - 1e-12) &&
		    fabs(d) >= crit * s;

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
