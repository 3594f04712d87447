/*
 * borrow.c - intervals that borrow the campaign's trial-to-trial spread.
 * Slow runs come and go (a noisy neighbour, a bad hour): each trial
 * independently 1.5x slower with chance 0.2.  In a third of the cells
 * of 5 trials no trial is slow, the trials agree, and the cell's own t
 * interval is narrow around a value below the population's: printed
 * intervals held 67-88 % (docs/research/coverage.md).  Where a selection holds
 * several cells of one design (the same metric, trial count and
 * similar trial sizes), the spread of their trials' values, pooled, is
 * what each cell's trials would show over many campaigns; a cell's
 * interval takes that spread (empirical Bayes with the trial effect's
 * variance shared), with the degrees of freedom of all of them.  A
 * cell noisier throughout than the rest (its robust spread, the
 * median absolute deviation, above the campaign's) keeps that.  Pure
 * functions; contracts in stats.h.
 */
#include "common/compat.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "common/xalloc.h"
#include "stats/stats.h"

void
stats_borrow_add(struct stats_borrow *b, const double *u, size_t T,
    double estimate)
{
	double m = 0, ss = 0;
	size_t t;

	if (!b || !u || T < STATS_TL_MIN_TRIALS || !(estimate > 0) ||
	    !isfinite(estimate))
		return;
	for (t = 0; t < T; t++)
		m += u[t] / (double)T;
	for (t = 0; t < T; t++)
		ss += (u[t] - m) * (u[t] - m);
	if (!isfinite(ss))
		return;
	/* on the log scale, as the cell's own interval (delta method) */
	b->ss += ss / (estimate * estimate);
	b->df += (double)(T - 1);
	b->cells++;
}

bool
stats_borrow_similar(size_t na, size_t nb)
{
	double a = (double)na, b = (double)nb;

	if (!na || !nb)
		return false;
	return a <= STATS_BORROW_SIZE_RATIO * b &&
	    b <= STATS_BORROW_SIZE_RATIO * a;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* (1.4826 MAD)^2 of u / estimate: the cell's own spread, robust to one
 * slow trial (it marks a cell noisier throughout than the campaign) */
static double
mad_var(const double *u, size_t T, double estimate)
{
	double *v = xmalloc(T * sizeof(double)), med, s;
	size_t t;

	for (t = 0; t < T; t++)
		v[t] = u[t] / estimate;
	qsort(v, T, sizeof(double), cmp_d);
	med = T % 2 ? v[T / 2] : (v[T / 2 - 1] + v[T / 2]) / 2;
	for (t = 0; t < T; t++)
		v[t] = fabs(v[t] - med);
	qsort(v, T, sizeof(double), cmp_d);
	s = 1.4826 * (T % 2 ? v[T / 2] : (v[T / 2 - 1] + v[T / 2]) / 2);
	free(v);
	return s * s;
}

/* The variance of one trial's value over its estimate (log scale) that
 * a cell borrows: the campaign's, floored by its robust own.  NaN when
 * it borrows nothing. */
static double
borrowed_var(const double *u, size_t T, double estimate,
    const struct stats_borrow *b)
{
	double pool, rob;

	if (!b || b->cells < STATS_BORROW_MIN_CELLS || !(b->df > 0) ||
	    T < STATS_TL_MIN_TRIALS || !(estimate > 0))
		return NAN;
	pool = b->ss / b->df;
	rob = mad_var(u, T, estimate) * STATS_BORROW_MAD_K;
	return rob > pool ? rob : pool;
}

int
stats_tl_interval_borrow(const double *u, size_t T, double estimate,
    double level, const struct stats_borrow *b, struct stats_interval *out)
{
	double pool, half, df;

	if (stats_tl_interval(u, T, estimate, level, true, out))
		return -1;
	if (!b || b->cells < STATS_BORROW_MIN_CELLS || !(b->df > 0) ||
	    out->covers != STATS_COVERS_TRIALS || !(estimate > 0))
		return 0;
	pool = borrowed_var(u, T, estimate, b);
	df = b->df;
	half = stats_t_quantile(0.5 + level / 2, df) * sqrt(pool /
	    (double)T);
	out->lo = estimate * exp(-half);
	out->hi = estimate * exp(half);
	out->se = estimate * sqrt(pool / (double)T);
	out->df = df;
	return 0;
}

int
stats_tl_contrast_borrow(const double *ua, const double *vta, size_t ta,
    double ea, const struct stats_borrow *ba, const double *ub,
    const double *vtb, size_t tb, double eb, const struct stats_borrow *bb,
    enum stats_contrast k, double level, struct stats_interval *out)
{
	double sa, sb, va, vb, se, df, q;

	if (stats_tl_contrast_v(ua, vta, ta, ea, ub, vtb, tb, eb, k, level,
	    out))
		return -1;
	if (out->covers != STATS_COVERS_TRIALS)
		return 0;
	sa = borrowed_var(ua, ta, ea, ba);
	sb = borrowed_var(ub, tb, eb, bb);
	if (!isfinite(sa) || !isfinite(sb))
		return 0;
	/* each side's variance of its estimate; the ratio on the log
	 * scale, the difference on the values' own */
	va = sa / (double)ta;
	vb = sb / (double)tb;
	if (k == STATS_DELTA) {
		va *= ea * ea;
		vb *= eb * eb;
	}
	se = sqrt(va + vb);
	/* Welch-Satterthwaite over the two borrowed spreads */
	df = (va + vb) * (va + vb) / (va * va / ba->df + vb * vb / bb->df);
	q = stats_t_quantile(0.5 + level / 2, df);
	if (!(se > 0) || !isfinite(q))
		return 0;
	if (k == STATS_RATIO) {
		out->lo = out->estimate * exp(-q * se);
		out->hi = out->estimate * exp(q * se);
	} else {
		out->lo = out->estimate - q * se;
		out->hi = out->estimate + q * se;
	}
	out->se = se;
	out->df = df;
	return 1;
}
