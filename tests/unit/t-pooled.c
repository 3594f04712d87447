/*
 * t-pooled.c - check pooled-groups' test (check_detect_groups()): its
 * F and p against the t distribution (F(1, df) = t²), and its error
 * rates by seeded simulation: the share of cells flagged when the groups
 * do not differ (false positives) and when they differ by 10 % and 2×
 * (power).  Each trial is 300 lognormal samples (σ = 0.3 within a
 * trial) with a trial-level random effect σ_b on the log scale; its p50
 * is the value tested, as the check does.  The table printed here is
 * the one in docs/checks.md (pooled-groups).  SLOW=1: 10,000
 * repetitions instead of 500.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "common/xalloc.h"
#include "stats/stats.h"
#include "tests/unit/harness.h"

#define SAMPLES	300

static void
known_values(void)
{
	const double v[] = { 1, 2, 3, 4, 5, 6 };
	const size_t g[] = { 0, 0, 0, 1, 1, 1 };
	const double same[] = { 1, 2, 3, 1, 2, 3 };
	struct check_groups r;
	double p_t;

	check_detect_groups(v, g, 6, 2, &r);
	/* ssb = 13.5, ssw = 4, df 1 and 4: F = 13.5 */
	CHECK_NEAR(r.f, 13.5, 1e-12, "F of {1,2,3} vs {4,5,6} is 13.5");
	p_t = 2 * (1 - stats_t_cdf(sqrt(13.5), 4));
	CHECK_NEAR(r.p, p_t, 1e-9, "p equals the two-sided t test's (F = t²)");
	CHECK_NEAR(r.ratio, exp(3.0), 1e-12, "ratio: exp of the mean gap");
	check_detect_groups(same, g, 6, 2, &r);
	CHECK_NEAR(r.f, 0.0, 1e-12, "equal groups: F = 0");
	CHECK(!r.differ, "equal groups do not differ");
	{
		const double one[] = { 1, 2 };
		const size_t g1[] = { 0, 1 };

		check_detect_groups(one, g1, 2, 2, &r);
		CHECK(isnan(r.p) && !r.differ,
		    "one trial per group: no test (nothing to compare with)");
	}
}

/* One trial's p50: SAMPLES lognormal values around exp(mu). */
static double
trial_p50(struct stats_rng *rng, double mu, double *buf)
{
	size_t i;

	for (i = 0; i < SAMPLES; i++)
		buf[i] = exp(mu + 0.3 * stats_rng_normal(rng));
	return stats_quantile_unsorted(STATS_EST_TYPE7, buf, SAMPLES, 50.0);
}

/* Share of cells flagged: ngroups groups of ntrials trials, group k's
 * log mean shifted by k * effect. */
static double
flagged(struct stats_rng *rng, size_t ngroups, size_t ntrials,
    double sigma_b, double effect, size_t reps)
{
	size_t n = ngroups * ntrials, r, k, i, hits = 0;
	double *v = xmalloc(n * sizeof(double)), buf[SAMPLES];
	size_t *g = xmalloc(n * sizeof(size_t));

	for (r = 0; r < reps; r++) {
		struct check_groups res;

		for (k = 0; k < ngroups; k++)
			for (i = 0; i < ntrials; i++) {
				double mu = (double)k * effect + sigma_b *
				    stats_rng_normal(rng);

				v[k * ntrials + i] = log(trial_p50(rng, mu, buf));
				g[k * ntrials + i] = k;
			}
		check_detect_groups(v, g, n, ngroups, &res);
		hits += res.differ;
	}
	free(v);
	free(g);
	return 100.0 * (double)hits / (double)reps;
}

static void
simulation(void)
{
	static const size_t designs[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 },
	    { 2, 5 }, { 3, 3 } };
	static const double sb[] = { 0, 0.03, 0.1 };
	size_t reps = getenv("SLOW") ? 10000 : 500, d, s;
	struct stats_rng rng;
	double worst = 0;

	stats_rng_seed(&rng, 20261201);
	printf("# pooled-groups, %zu repetitions: %% of cells flagged\n", reps);
	printf("# | groups × trials | σ_b | no difference | 10 %% | 2× |\n");
	for (d = 0; d < ARRAY_SIZE(designs); d++)
		for (s = 0; s < ARRAY_SIZE(sb); s++) {
			double fp = flagged(&rng, designs[d][0], designs[d][1],
			    sb[s], 0, reps);
			double p10 = flagged(&rng, designs[d][0], designs[d][1],
			    sb[s], log(1.10), reps);
			double p2 = flagged(&rng, designs[d][0], designs[d][1],
			    sb[s], log(2.0), reps);

			printf("# | %zu × %zu | %.2f | %.1f | %.1f | %.1f |\n",
			    designs[d][0], designs[d][1], sb[s], fp, p10, p2);
			if (fp > worst)
				worst = fp;
			/* with 3 or more degrees of freedom within groups */
			if (designs[d][0] * designs[d][1] - designs[d][0] >= 3)
				CHECK(p2 >= 90.0, "a 2x difference between "
				    "groups is flagged in at least 90 % of cells");
		}
	printf("# worst false-positive rate: %.1f %%\n", worst);
	/* the test's size is 1 %; 2.5 % leaves room for the simulation's
	 * own error at 500 repetitions (about ±0.9 %) */
	CHECK(worst <= 2.5, "no design flags more than 2.5 % of cells on "
	    "noise");
}

int
main(void)
{
	known_values();
	simulation();
	return test_done();
}
