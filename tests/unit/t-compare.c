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
#include "tests/unit/harness.h"

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
	return test_done();
}
