/*
 * spread.c - trial-to-trial spread (mean, median, range, largest
 * deviation) and outlier trials.
 * Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"
#include "stats/verdict.h"

double
stats_median(const double *x, size_t n)
{
	double *c, r;

	if (n == 0)
		return NAN;
	c = xmalloc(n * sizeof(*c));
	memcpy(c, x, n * sizeof(*c));
	r = stats_quantile_unsorted_hd(STATS_EST_TYPE7, c, n, 50, NULL);
	free(c);
	return r;
}

int
stats_spread(const double *x, size_t n, struct stats_spread *out, bool *flag,
    double *score)
{
	double *s = NULL, *lg = NULL, *dev = NULL, med_log, mad;
	bool positive = true;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (flag)
			flag[i] = false;
		if (score)
			score[i] = NAN;
	}
	if (n == 0)
		goto cleanup;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	out->n = n;
	out->mean = stats_mean(x, n);
	out->median = stats_quantile_type7(s, n, 50);
	out->min = s[0];
	out->max = s[n - 1];
	out->max_dev_pct = 0;
	for (size_t i = 0; i < n; i++) {
		double d = 100 * fabs(x[i] - out->mean) / fabs(out->mean);

		if (!(d <= out->max_dev_pct))
			out->max_dev_pct = d;	/* NaN propagates */
		if (!(x[i] > 0) || !isfinite(x[i]))
			positive = false;
	}
	out->rule = STATS_OUTLIER_NONE;
	ret = 0;
	if (n < 3 || !positive)
		goto cleanup;

	/* the one rule (stats/verdict.h); the enum says which part of it
	 * could speak: with half or more of the trials equal the MAD is 0
	 * and only the ratio decides */
	lg = xmalloc(n * sizeof(*lg));
	dev = xmalloc(n * sizeof(*dev));
	for (size_t i = 0; i < n; i++)
		lg[i] = log(x[i]);
	med_log = stats_median(lg, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(lg[i] - med_log);
	mad = stats_median(dev, n);
	out->rule = mad > 0 ? STATS_OUTLIER_ROBUST_Z : STATS_OUTLIER_RATIO;
	out->noutliers = stats_outlier_trials(x, n, flag, NULL, score);
cleanup:
	free(s);
	free(lg);
	free(dev);
	return ret;
}
