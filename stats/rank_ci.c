/*
 * rank_ci.c - distribution-free confidence intervals for one
 * percentile from order statistics (binomial ranks), and the smallest n
 * that has one.
 * Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <math.h>

#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

/*
 * Nyblom's (1992) interpolation weight of the end between X(r) and
 * X(r + 1) of n samples for the p quantile, whose tail is to be beta
 * where pi_r = P(B <= r - 1) <= beta < pi_{r+1} = P(B <= r):
 * lam = 1 / (1 + r q (pi_{r+1} - beta) / ((n - r) p (beta - pi_r))),
 * passed as a = pi_{r+1} - beta > 0 and b = beta - pi_r >= 0 (the
 * difference of two tails, so no cancellation near 1).
 */
static double
rank_ci_lambda(size_t n, size_t r, double p, double a, double b)
{
	double num = (double)(n - r) * p * b, den = num +
	    (double)r * (1 - p) * a;

	if (!(den > 0) || !(b > 0))
		return 0;
	return num >= den ? 1 : num / den;
}

/* The equal-tailed interval's fractional ranks: below = P(B <= l - 1),
 * pl = P(B = l), above = P(B >= u), pu = P(B = u - 1).  Both ends move
 * where either step exceeds alpha/2: interpolating only that end left
 * the other conservative (the p99 of n_eff ~ 400 AR(1) samples missed
 * 0.8 % below), interpolating every end lost the middle percentiles'
 * margin (stats_sample_interval_serial(), docs/research/coverage.md). */
static void
rank_ci_interp(struct stats_rank_ci *out, size_t n, double p, double half,
    double below, double pl, double above, double pu)
{
	size_t l = out->lo, r = out->hi - 1;
	bool both = pl > half || pu > half;

	out->rlo = (double)l;
	out->rhi = (double)out->hi;
	if (l < n && both)
		out->rlo += rank_ci_lambda(n, l, p, below + pl - half,
		    half - below);
	if (r >= 1 && both)
		out->rhi = (double)r + rank_ci_lambda(n, r, p, half - above,
		    above + pu - half);
	if (out->rhi < out->rlo)
		out->rlo = out->rhi = 0.5 * (out->rlo + out->rhi);
}

int
stats_quantile_ci(size_t n, double pct, double level,
    enum stats_ci_rule rule, struct stats_rank_ci *out)
{
	double p, q, dn, mean, sd, *pmf = NULL, alpha, mass;
	size_t klo, khi, w;
	int ret = -1;

	out->available = false;
	out->lo = out->hi = 0;
	out->rlo = out->rhi = 0;
	out->coverage = NAN;
	if (n == 0 || !stats_pct_ok(pct) || !(level > 0 && level < 1))
		return -1;
	p = pct / 100.0;
	q = 1 - p;
	if (p <= 0 || p >= 1 || n < 2)
		return 0;
	alpha = 1 - level;
	dn = (double)n;
	mean = dn * p;
	sd = sqrt(dn * p * q);
	/* Beyond 40 sd (+10 for small means) the binomial mass is far below
	 * 1e-60, negligible next to the double rounding of the sums. */
	klo = mean - 40 * sd - 10 <= 0 ? 0 : (size_t)(mean - 40 * sd - 10);
	khi = mean + 40 * sd + 10 >= dn ? n : (size_t)(mean + 40 * sd + 10);
	w = khi - klo + 1;
	pmf = xmalloc(w * sizeof(*pmf));
	for (size_t k = klo; k <= khi; k++)
		pmf[k - klo] = exp(stats_ldbinom((double)k, dn, p, q));

	if (rule == STATS_CI_NARROWEST) {
		/* grow the highest-mass run of k in [1, n-1] from the mode */
		size_t kmin = klo > 1 ? klo : 1;
		size_t kmax = khi < n - 1 ? khi : n - 1;
		size_t mode = (size_t)floor((dn + 1) * p), lk, hk;

		if (mode < kmin)
			mode = kmin;
		if (mode > kmax)
			mode = kmax;
		lk = hk = mode;
		mass = pmf[mode - klo];
		while (mass < level) {
			double pl = lk > kmin ? pmf[lk - 1 - klo] : -1;
			double ph = hk < kmax ? pmf[hk + 1 - klo] : -1;

			if (pl < 0 && ph < 0)
				break;
			/* on a tie (symmetric p = 0.5) extend upwards */
			if (ph >= pl * (1 - 1e-12)) {
				hk++;
				mass += ph;
			} else {
				lk--;
				mass += pl;
			}
		}
		if (mass >= level) {
			/* sum again from the small end for the report */
			double s = 0;
			size_t i = lk, j = hk;

			while (i <= j) {
				if (pmf[i - klo] <= pmf[j - klo])
					s += pmf[i++ - klo];
				else
					s += pmf[j-- - klo];
			}
			out->available = true;
			out->lo = lk;
			out->hi = hk + 1;
			out->rlo = (double)lk;
			out->rhi = (double)(hk + 1);
			out->coverage = s;
		}
	} else {
		/* lower: largest l >= 1 with P(B <= l - 1) <= alpha/2 */
		double cum = 0, tail = 0, below = -1, above = -1;
		size_t l = 0, u = 0;

		/* mass outside the window counts as 0 */
		if (klo >= 1) {
			l = klo;
			below = 0;
		}
		if (khi < n) {
			u = khi + 1;
			above = 0;
		}

		for (size_t k = klo; k <= khi && k < n; k++) {
			if (cum + pmf[k - klo] > alpha / 2)
				break;
			cum += pmf[k - klo];
			l = k + 1;
			below = cum;
		}
		/* upper: smallest u <= n with P(B >= u) <= alpha/2 */
		for (size_t k = khi; k >= klo && k >= 1; k--) {
			if (tail + pmf[k - klo] > alpha / 2)
				break;
			tail += pmf[k - klo];
			u = k;
			above = tail;
		}
		if (below >= 0 && above >= 0 && l >= 1 && u <= n && l < u) {
			out->available = true;
			out->lo = l;
			out->hi = u;
			out->coverage = 1 - below - above;
			rank_ci_interp(out, n, p, alpha / 2, below,
			    pmf[l - klo], above, pmf[u - 1 - klo]);
		}
	}
	ret = 0;
	free(pmf);
	return ret;
}

size_t
stats_quantile_ci_min_n(double pct, double level, enum stats_ci_rule rule)
{
	struct stats_rank_ci ci;
	double p = pct / 100.0, big, alpha = 1 - level, guess;
	size_t n;

	if (!(p > 0 && p < 1) || !(level > 0 && level < 1))
		return 0;
	big = p > 0.5 ? p : 1 - p;
	/* narrowest needs p^n + q^n <= alpha, equal-tailed max^n <= alpha/2 */
	guess = log(rule == STATS_CI_NARROWEST ? alpha : alpha / 2) / log(big);
	if (!(guess < 1e12))
		return 0;
	n = guess < 3 ? 2 : (size_t)guess - 1;
	while (n > 2 && stats_quantile_ci(n - 1, pct, level, rule, &ci) == 0 &&
	    ci.available)
		n--;
	for (;;) {
		if (stats_quantile_ci(n, pct, level, rule, &ci) < 0)
			return 0;
		if (ci.available)
			return n;
		if (++n > (UINT64_C(1) << 40))
			return 0;
	}
}
