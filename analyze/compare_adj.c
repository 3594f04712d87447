/*
 * compare_adj.c - the multiplicity of `analyze compare`: a step-down
 * permutation max-T (stats_maxt_stepdown()) across the rows whose unit
 * is the trials, with compare's own rank test as each row's statistic.
 * Rows compared with one baseline share its trials, so their tests are
 * correlated; Holm's m × p ignores that, and at 5 trials a side over 7
 * rows no row could pass it (2/252 × 7 = 0.056), where max-T lets one
 * (docs/research/verdicts.md).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>

#include "analyze/internal.h"
#include "common/xalloc.h"
#include "stats/stats.h"

/* compare_test()'s p, as the permutations' statistic. */
static double
maxt_test(const double *xc, size_t nc, const double *xb, size_t nb,
    void *ctx)
{
	struct stats_test t;

	(void)ctx;
	analyze_compare_test(xc, nc, xb, nb, &t);
	return isnan(t.p) ? 1.0 : t.p;
}

/* The smallest adjusted p with m rows of k vs k trials in one family
 * (distinct values: the null is the sizes'). */
static double
floor_at(size_t m, size_t k)
{
	struct stats_mt_row *r = xcalloc(m, sizeof(*r));
	double *v = xmalloc((m + 1) * k * sizeof(*v)), floor;

	for (size_t i = 0; i < (m + 1) * k; i++)
		v[i] = (double)i;
	for (size_t i = 0; i < m; i++) {
		r[i].xb = v;
		r[i].nb = k;
		r[i].xc = v + (i + 1) * k;
		r[i].nc = k;
		r[i].p = r[i].pmin = analyze_mw_min_p(k, k);
	}
	stats_maxt_stepdown(r, m, maxt_test, NULL, STATS_MT_NPERM,
	    STATS_MT_SEED, NULL, 1.0, NULL, &floor);
	free(r);
	free(v);
	return floor;
}

void
analyze_compare_maxt(const struct stats_mt_row *r, size_t n, double level,
    double *adj, double *floor, size_t *let_k)
{
	struct stats_mt_cache *cache = stats_mt_cache_new();
	double alpha = 1.0 - level;
	size_t m = 0;

	*let_k = 0;
	stats_maxt_stepdown(r, n, maxt_test, NULL, STATS_MT_NPERM,
	    STATS_MT_SEED, cache, alpha, adj, floor);
	stats_mt_cache_free(cache);
	for (size_t i = 0; i < n; i++)
		m += !isnan(r[i].p);
	if (!(isfinite(*floor) && *floor >= alpha))
		return;
	/* the exact test's floor goes away from 10 trials a side */
	for (size_t k = 2; k < 10 && !*let_k; k++)
		if (floor_at(m, k) < alpha)
			*let_k = k;
}

double
analyze_mw_min_p(size_t nb, size_t nc)
{
	double comb = 1.0;

	for (size_t m = 1; m <= nb; m++)
		comb = comb * (double)(nc + m) / (double)m;
	return 2.0 / comb;
}

void
analyze_compare_adjust(double *p, size_t n)
{
	stats_holm(p, n);
}
