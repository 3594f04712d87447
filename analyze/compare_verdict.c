/*
 * compare_verdict.c - what one row of `analyze compare` concludes: the
 * rank test on its trial-level values (analyze_compare_test(), which
 * the planner's power and compare's max-T call too) and the verdict
 * from its ratio interval, p and threshold (analyze_compare_verdict(),
 * with the plan command that would size a design able to give one).
 */
#include "common/compat.h"

#include <math.h>

#include "analyze/internal.h"
#include "common/strbuf.h"
#include "stats/stats.h"

/*
 * The rank test on trial-level values: exact Mann-Whitney for few trials
 * (Brunner-Munzel's t approximation is too liberal below ~10 a side),
 * else Brunner-Munzel.  Returns the name of the test whose p it gives:
 * when Brunner-Munzel has no p (samples that do not overlap) the p is
 * Mann-Whitney's, and so is the name; "none" when there is none (fewer
 * than 2 trials a side); test->p is NaN then.
 */
const char *
analyze_compare_test(const double *xc, size_t nc, const double *xb, size_t nb,
    struct stats_test *test)
{
	bool have = false, exact = nb < 10 || nc < 10;
	const char *name = exact ? "mann-whitney" : "brunner-munzel";

	test->p = NAN;
	if (nb < 2 || nc < 2)
		return "none";
	if (exact)
		have = stats_mann_whitney(xc, nc, xb, nb, STATS_MW_AUTO,
		    test) == 0;
	else
		have = stats_brunner_munzel(xc, nc, xb, nb, test) == 0;
	/* BM has no p when the samples do not overlap at all: Mann-Whitney's
	 * then */
	if (have && isnan(test->p)) {
		have = stats_mann_whitney(xc, nc, xb, nb, STATS_MW_AUTO,
		    test) == 0;
		name = "mann-whitney";
	}
	if (!have) {
		test->p = NAN;
		return "none";
	}
	return name;
}

/* The design that would give a verdict, named by the command that
 * sizes it: "; pathstat plan --detect 10% ... says how many". */
static void
plan_hint(struct strbuf *text, double change, size_t groups, bool by_day)
{
	double x = ceil(fabs(change) - 1e-9);

	strbuf_addf(text, "; pathstat plan --detect %.0f%%", x < 1 ? 1 : x);
	if (groups > 2)
		strbuf_addf(text, " --groups %zu", groups);
	if (by_day)
		strbuf_addstr(text, " --unit days");
	strbuf_addstr(text, " says how many");
}

enum compare_verdict
analyze_compare_verdict(const struct compare_outcome *r, double threshold_pct,
    double level, struct strbuf *text)
{
	double thr = threshold_pct / 100.0, alpha = 1.0 - level;
	double change = 100.0 * (r->ratio - 1.0), minp;
	bool exact = !r->by_day && r->nb < 10 && r->nc < 10;
	bool sig = isfinite(r->p) && r->p < alpha;
	bool up = isfinite(r->lo) && r->lo > 1.0 + thr;
	bool down = isfinite(r->hi) && r->hi < 1.0 - thr;
	bool inside = isfinite(r->lo) && isfinite(r->hi) &&
	    r->lo >= 1.0 - thr && r->hi <= 1.0 + thr;
	size_t k;

	minp = analyze_mw_min_p(r->nb, r->nc);
	if (!isfinite(r->ratio)) {
		strbuf_addstr(text, "not compared: a side has no value");
		return COMPARE_INCONCLUSIVE;
	}
	if (r->nb < 2 || r->nc < 2) {
		strbuf_addf(text, "inconclusive: %zu vs %zu %s (need 2 a "
		    "side to see %s spread)", r->nb, r->nc, r->by_day ? "days" :
		    "trials", r->by_day ? "day-to-day" : "trial-to-trial");
		plan_hint(text, change, r->nrows + 1, r->by_day);
		return COMPARE_INCONCLUSIVE;
	}
	if (sig && (up || down)) {
		bool better = up == r->higher_better;

		strbuf_addf(text, "%s: %+.1f %%", better ? "better" : "worse",
		    change);
		return better ? COMPARE_BETTER : COMPARE_WORSE;
	}
	if (inside) {
		strbuf_addf(text, "same: within ±%.0f %%", threshold_pct);
		return COMPARE_SAME;
	}
	if (sig && fabs(r->ratio - 1.0) < thr) {
		strbuf_addf(text, "same: %+.1f %% is below the %.0f %% "
		    "threshold", change, threshold_pct);
		return COMPARE_SAME;
	}
	if (exact && minp >= alpha) {
		for (k = 2; k < 10 && analyze_mw_min_p(k, k) >= alpha; k++)
			;
		strbuf_addf(text, "inconclusive: %zu vs %zu trials can never "
		    "reach p < %.2f (%+.1f %%); %zu a side can", r->nb, r->nc,
		    alpha, change, k);
		plan_hint(text, change, r->nrows + 1, false);
	} else if (exact && r->nrows > 1 && r->maxt) {
		/* max-T's first step: the smallest p any row can have is
		 * not rare enough among the permutations' smallest p's */
		strbuf_addf(text, "inconclusive: no row can pass max-T over "
		    "%zu rows with %zu vs %zu trials (smallest p %.4f, "
		    "adjusted %.3f); ", r->nrows, r->nb, r->nc, minp, r->floor);
		if (r->let_k)
			strbuf_addf(text, "%zu trials a side would let one "
			    "(%+.1f %%)", r->let_k, change);
		else
			strbuf_addf(text, "10 or more trials a side would let "
			    "one (%+.1f %%)", change);
		plan_hint(text, change, r->nrows + 1, false);
	} else if (exact && r->nrows > 1 && minp * (double)r->nrows >= alpha) {
		/* Holm's first step needs the smallest p below alpha / m:
		 * no row of the table can pass, whatever its data */
		for (k = 2; k < 10 && analyze_mw_min_p(k, k) *
		    (double)r->nrows >= alpha; k++)
			;
		strbuf_addf(text, "inconclusive: no row can pass Holm over "
		    "%zu rows with %zu vs %zu trials (smallest p %.4f × %zu = "
		    "%.3f); %zu%s trials a side would let one (%+.1f %%)",
		    r->nrows, r->nb, r->nc, minp, r->nrows,
		    minp * (double)r->nrows, k, k == 10 ? " or more" : "",
		    change);
		plan_hint(text, change, r->nrows + 1, false);
	} else {
		strbuf_addf(text, "inconclusive (%+.1f %%)", change);
	}
	return COMPARE_INCONCLUSIVE;
}
