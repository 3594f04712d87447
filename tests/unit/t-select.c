/*
 * t-select.c - a pooled quantile by selection across sorted trials
 * (stats_select_runs, stats_quantile_runs) equals the same estimator on
 * the merged array, bit for bit: ties, runs of equal values across
 * trials, empty trials, one trial, and every rank of small cases; and
 * cells of hundreds of short trials (a campaign's days pooled), which
 * are selected from one copy instead.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "tests/unit/harness.h"

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* k runs of random sizes (some empty) drawn from a few levels (ties)
 * or from a continuous law; checks every rank and a grid of percents. */
static int
one_case(struct stats_rng *rng, size_t k, size_t maxn, bool ties)
{
	double *runs[600], *all;
	const double *cruns[600];
	size_t n[600], total = 0, i, j, at = 0;
	int bad = 0;

	for (i = 0; i < k; i++) {
		n[i] = (size_t)(stats_rng_uniform(rng) * (double)(maxn + 1));
		if (n[i] > maxn)
			n[i] = maxn;
		runs[i] = malloc((n[i] ? n[i] : 1) * sizeof(double));
		for (j = 0; j < n[i]; j++)
			runs[i][j] = ties ?
			    floor(stats_rng_uniform(rng) * 4) :
			    exp(stats_rng_normal(rng));
		qsort(runs[i], n[i], sizeof(double), cmp_d);
		cruns[i] = runs[i];
		total += n[i];
	}
	all = malloc((total ? total : 1) * sizeof(double));
	for (i = 0; i < k; i++) {
		memcpy(all + at, runs[i], n[i] * sizeof(double));
		at += n[i];
	}
	qsort(all, total, sizeof(double), cmp_d);
	for (j = 0; j < total; j++)
		if (stats_select_runs(cruns, n, k, j) != all[j])
			bad++;
	if (!isnan(stats_select_runs(cruns, n, k, total)))
		bad++;
	for (j = 0; j <= 1000; j += 7) {
		double pct = (double)j / 10.0;
		double a = stats_quantile_runs(STATS_EST_TYPE7, cruns, n, k, pct);
		double b = total ? stats_quantile_type7(all, total, pct) : NAN;
		double c = stats_quantile_runs(STATS_EST_OHA, cruns, n, k, pct);
		double d = total ? stats_quantile_oha(all, total, pct) : NAN;

		if (memcmp(&a, &b, sizeof(a)) && !(isnan(a) && isnan(b)))
			bad++;
		if (memcmp(&c, &d, sizeof(c)) && !(isnan(c) && isnan(d)))
			bad++;
	}
	for (i = 0; i < k; i++)
		free(runs[i]);
	free(all);
	return bad;
}

int
main(void)
{
	struct stats_rng rng;
	int bad_ties = 0, bad_cont = 0, bad_small = 0, bad_many = 0, r;
	const double one[] = { 1, 2, 3 }, *cone[] = { one };
	const size_t none[] = { 3 };

	stats_rng_seed(&rng, 24);
	for (r = 0; r < 300; r++) {
		bad_ties += one_case(&rng, 1 + (size_t)(r % 7), 40, true);
		bad_cont += one_case(&rng, 1 + (size_t)(r % 7), 300, false);
		bad_small += one_case(&rng, 2 + (size_t)(r % 3), 3, r % 2);
	}
	for (r = 0; r < 12; r++)
		bad_many += one_case(&rng, 100 + (size_t)r * 40, 1 + (size_t)r * 3,
		    r % 2);
	CHECK_EQ_INT(bad_ties, 0, "selection = merged order statistics and "
	    "type 7 / oha quantiles, runs of tied values across trials");
	CHECK_EQ_INT(bad_cont, 0, "selection = merged, lognormal trials of "
	    "up to 300 values");
	CHECK_EQ_INT(bad_small, 0, "selection = merged, trials of 0-3 values");
	CHECK_EQ_INT(bad_many, 0, "selection = merged, 100-540 trials of "
	    "up to 34 values (by one copy)");
	CHECK_NEAR(stats_quantile_runs(STATS_EST_TYPE7, cone, none, 1, 50), 2,
	    0, "one trial: its own median");
	CHECK(isnan(stats_quantile_runs(STATS_EST_HD, cone, none, 1, 50)),
	    "Harrell-Davis is not done by selection (NaN: the caller merges)");
	return test_done();
}
