/*
 * t-compare.c - unit tests of analyze_compare_verdict(), the rule that
 * turns one row of `pathstat analyze compare` into better, worse, same or
 * inconclusive.  Expected words are written by hand from the rule in
 * docs/analyze.md ("the whole interval beyond the practical threshold"); the
 * smallest p an exact two-sided Mann-Whitney test can reach is
 * 2 / C(nb + nc, nb) (3 vs 3 trials: 2/20 = 0.1; 4 vs 4: 2/70 = 0.029).
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/internal.h"
#include "common/strbuf.h"
#include "stats/stats.h"
#include "tests/unit/harness.h"

/* Mann-Whitney's p, as max-T's row statistic. */
static double
mw_p(const double *xc, size_t nc, const double *xb, size_t nb, void *ctx)
{
	struct stats_test t;

	(void)ctx;
	return stats_mann_whitney(xc, nc, xb, nb, STATS_MW_AUTO, &t) ? NAN :
	    t.p;
}

/* |got - want| within 4 standard errors of a Monte-Carlo p of
 * STATS_MT_NPERM permutations, plus its granularity. */
static bool
mc_near(double got, double want)
{
	return fabs(got - want) <= 4 * sqrt(want * (1 - want) /
	    (STATS_MT_NPERM + 1.0)) + 1.0 / (STATS_MT_NPERM + 1.0);
}

/*
 * stats_maxt_stepdown(), where its value is known exactly: one row alone
 * is a permutation test of its own p (Mann-Whitney exact: P(p* <= 2/252)
 * = 2/252); two rows of independent families, min of two independent
 * p's: 1 - (1 - 2/252)^2.
 */
static void
test_maxt(void)
{
	double b[5] = { 1, 2, 3, 4, 5 }, c[5] = { 6, 7, 8, 9, 10 };
	double d[5] = { 11, 12, 13, 14, 15 }, e[5] = { 1.5, 2.5, 3.5, 11, 12 };
	double pmin = 2.0 / 252.0, adj[3], adj2[3], floor;
	struct stats_mt_row r[3] = {
		{ b, c, 5, 5, 0, 2.0 / 252.0, 2.0 / 252.0 },
		{ c, d, 5, 5, 1, 2.0 / 252.0, 2.0 / 252.0 },
		{ b, e, 5, 5, 0, NAN, 2.0 / 252.0 },
	};
	struct stats_mt_cache *cache = stats_mt_cache_new();

	r[0].p = mw_p(c, 5, b, 5, NULL);
	CHECK(fabs(r[0].p - pmin) < 1e-12, "max-T: the separated row's p");
	CHECK_EQ_INT(stats_maxt_stepdown(r, 1, mw_p, NULL, STATS_MT_NPERM,
	    STATS_MT_SEED, NULL, 2.0, adj, &floor), 0, "max-T: one row runs");
	CHECK(mc_near(adj[0], pmin), "max-T: one row alone, its own p");
	CHECK(mc_near(floor, pmin), "max-T: one row, its floor its pmin");
	stats_maxt_stepdown(r, 3, mw_p, NULL, STATS_MT_NPERM, STATS_MT_SEED,
	    NULL, 2.0, adj, &floor);
	CHECK(mc_near(adj[0], 1 - (1 - pmin) * (1 - pmin)) && adj[0] ==
	    adj[1], "max-T: two independent families, min of two p's");
	CHECK(isnan(adj[2]), "max-T: an untested row stays NaN");
	CHECK(adj[0] >= r[0].p, "max-T: never below the row's p");
	stats_maxt_stepdown(r, 3, mw_p, NULL, STATS_MT_NPERM, STATS_MT_SEED,
	    cache, 2.0, adj2, &floor);
	CHECK(!memcmp(adj, adj2, sizeof(adj)), "max-T: cached or not, the "
	    "same p's (the permutations are the sizes')");
	stats_maxt_stepdown(r, 3, mw_p, NULL, STATS_MT_NPERM, STATS_MT_SEED,
	    cache, 2.0, adj2, &floor);
	CHECK(!memcmp(adj, adj2, sizeof(adj)), "max-T: deterministic");
	r[1].pmin = 0;
	stats_maxt_stepdown(r, 3, mw_p, NULL, STATS_MT_NPERM, STATS_MT_SEED,
	    NULL, 2.0, NULL, &floor);
	CHECK(isnan(floor), "max-T: a row without a floor, no floor");
	CHECK_EQ_INT(stats_maxt_stepdown(r, 3, mw_p, NULL, 0, STATS_MT_SEED,
	    NULL, 2.0, adj, &floor), -1, "max-T: no permutations, an error");
	stats_mt_cache_free(cache);
}

/* The verdict and its words for one outcome, 5 % threshold, level 0.95. */
static enum compare_verdict
verdict(size_t nb, size_t nc, double p, double ratio, double lo, double hi,
    bool higher_better, struct strbuf *text)
{
	struct compare_outcome r;

	memset(&r, 0, sizeof(r));
	r.nb = nb;
	r.nc = nc;
	r.p = p;
	r.ratio = ratio;
	r.lo = lo;
	r.hi = hi;
	r.higher_better = higher_better;
	strbuf_reset(text);
	return analyze_compare_verdict(&r, 5.0, 0.95, text);
}

int
main(void)
{
	struct strbuf t = STRBUF_INIT;

	CHECK_EQ_INT(verdict(1, 3, 0.01, 1.2, 1.1, 1.3, true, &t),
	    COMPARE_INCONCLUSIVE, "one baseline trial: inconclusive");
	CHECK_EQ_STR(t.buf, "inconclusive: 1 vs 3 trials (need 2 a side to "
	    "see trial-to-trial spread); pathstat plan --detect 20% says "
	    "how many", "one trial: says why, and what sizes the design");

	CHECK_EQ_INT(verdict(10, 10, 0.01, 1.12, 1.08, 1.16, true, &t),
	    COMPARE_BETTER, "throughput up beyond 5 %: better");
	CHECK_EQ_STR(t.buf, "better: +12.0 %", "better: the change");
	CHECK_EQ_INT(verdict(10, 10, 0.01, 1.12, 1.08, 1.16, false, &t),
	    COMPARE_WORSE, "latency up beyond 5 %: worse");
	CHECK_EQ_STR(t.buf, "worse: +12.0 %", "worse: the change");
	CHECK_EQ_INT(verdict(10, 10, 0.01, 0.8, 0.7, 0.9, false, &t),
	    COMPARE_BETTER, "latency down beyond 5 %: better");
	CHECK_EQ_STR(t.buf, "better: -20.0 %", "better: a drop");

	/* significant, but the interval reaches into the threshold */
	CHECK_EQ_INT(verdict(10, 10, 0.01, 1.12, 1.04, 1.2, true, &t),
	    COMPARE_INCONCLUSIVE, "interval crosses +5 %: no verdict");
	CHECK_EQ_STR(t.buf, "inconclusive (+12.0 %)",
	    "inconclusive: the change");
	/* beyond the threshold, but not significant after Holm */
	CHECK_EQ_INT(verdict(10, 10, 0.2, 1.12, 1.08, 1.16, true, &t),
	    COMPARE_INCONCLUSIVE, "p = 0.2: no verdict");

	CHECK_EQ_INT(verdict(3, 3, NAN, 1.01, 0.97, 1.03, true, &t),
	    COMPARE_SAME, "interval within ±5 %: same, whatever the test");
	CHECK_EQ_STR(t.buf, "same: within ±5 %", "same: the threshold");
	CHECK_EQ_INT(verdict(10, 10, 0.001, 1.03, 1.01, 1.07, true, &t),
	    COMPARE_SAME, "significant +3 %: same");
	CHECK_EQ_STR(t.buf, "same: +3.0 % is below the 5 % threshold",
	    "same: below the threshold");

	/* 3 vs 3: the smallest exact p is 0.1, never below 0.05 */
	CHECK_EQ_INT(verdict(3, 3, 0.1, 1.5, 1.2, 1.9, true, &t),
	    COMPARE_INCONCLUSIVE, "3 vs 3 trials: inconclusive");
	CHECK_EQ_STR(t.buf, "inconclusive: 3 vs 3 trials can never reach "
	    "p < 0.05 (+50.0 %); 4 a side can; pathstat plan --detect 50% "
	    "says how many", "3 vs 3: says it can never be significant");
	/* 4 vs 4: 2/70 < 0.05, so only "inconclusive" */
	CHECK_EQ_INT(verdict(4, 4, 0.2, 1.5, 0.9, 2.1, true, &t),
	    COMPARE_INCONCLUSIVE, "4 vs 4, p = 0.2: inconclusive");
	CHECK_EQ_STR(t.buf, "inconclusive (+50.0 %)",
	    "4 vs 4 could reach p < 0.05");
	/* 4 vs 4 at p = 0.029 (all of one side above the other) */
	CHECK_EQ_INT(verdict(4, 4, 2.0 / 70.0, 1.5, 1.2, 1.9, true, &t),
	    COMPARE_BETTER, "4 vs 4, p = 2/70: better");

	/* Holm over 7 rows at 5 vs 5 trials: the smallest exact p, 2/252,
	 * times 7 is 0.056, so no row can pass; 6 a side (2/924 x 7 =
	 * 0.015) could.  The row says so instead of "inconclusive". */
	{
		struct compare_outcome r;

		memset(&r, 0, sizeof(r));
		r.nb = r.nc = 5;
		r.p = 7 * 2.0 / 252.0;
		r.ratio = 1.146;
		r.lo = 1.02;
		r.hi = 1.3;
		r.nrows = 7;
		strbuf_reset(&t);
		CHECK_EQ_INT(analyze_compare_verdict(&r, 5.0, 0.95, &t),
		    COMPARE_INCONCLUSIVE, "no row can pass Holm: inconclusive");
		CHECK_EQ_STR(t.buf, "inconclusive: no row can pass Holm over 7 "
		    "rows with 5 vs 5 trials (smallest p 0.0079 × 7 = 0.056); "
		    "6 trials a side would let one (+14.6 %); pathstat plan "
		    "--detect 15% --groups 8 says how many",
		    "no row can pass Holm: says so and what would");
		/* max-T: its own floor, and the trials it found would
		 * let one pass; 10 or more when none below did */
		r.maxt = true;
		r.nrows = 13;
		r.p = r.floor = 0.064;
		r.let_k = 6;
		strbuf_reset(&t);
		CHECK_EQ_INT(analyze_compare_verdict(&r, 5.0, 0.95, &t),
		    COMPARE_INCONCLUSIVE, "no row can pass max-T: inconclusive");
		CHECK_EQ_STR(t.buf, "inconclusive: no row can pass max-T over "
		    "13 rows with 5 vs 5 trials (smallest p 0.0079, adjusted "
		    "0.064); 6 trials a side would let one (+14.6 %); pathstat plan "
		    "--detect 15% --groups 14 says how many",
		    "no row can pass max-T: says so and what would");
		r.let_k = 0;
		strbuf_reset(&t);
		analyze_compare_verdict(&r, 5.0, 0.95, &t);
		CHECK_EQ_STR(t.buf, "inconclusive: no row can pass max-T over "
		    "13 rows with 5 vs 5 trials (smallest p 0.0079, adjusted "
		    "0.064); 10 or more trials a side would let one (+14.6 %); pathstat plan "
		    "--detect 15% --groups 14 says how many",
		    "max-T, no k below 10: says 10 or more");
		r.maxt = false;
		r.nrows = 7;
		r.p = 7 * 2.0 / 252.0;
		/* over days there is no exact floor: the words as before */
		r.by_day = true;
		r.nb = r.nc = 3;
		strbuf_reset(&t);
		analyze_compare_verdict(&r, 5.0, 0.95, &t);
		CHECK_EQ_STR(t.buf, "inconclusive (+14.6 %)",
		    "over days: no Mann-Whitney floor");
		r.nb = 1;
		strbuf_reset(&t);
		analyze_compare_verdict(&r, 5.0, 0.95, &t);
		CHECK_EQ_STR(t.buf, "inconclusive: 1 vs 3 days (need 2 a side "
		    "to see day-to-day spread); pathstat plan --detect 15% "
		    "--groups 8 --unit days says how many",
		    "over days: days counted");
	}

	/* no interval (too few trials for the bootstrap): never same */
	CHECK_EQ_INT(verdict(10, 10, 0.3, 1.01, NAN, NAN, true, &t),
	    COMPARE_INCONCLUSIVE, "no interval: inconclusive");
	strbuf_release(&t);
	test_maxt();
	return test_done();
}
