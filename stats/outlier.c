/*
 * outlier.c - the one outlier-trial rule: a trial far from the median
 * trial both practically (STATS_OUTLIER_MIN_RATIO) and statistically (a
 * robust z beyond the 95 % critical value for that many trials).
 * `analyze trials` (stats_spread), `check outlier-trial` and the report's
 * box charts all call stats_outlier_trials().  With 3-5 trials a cell
 * cannot estimate its own spread, and `check outlier-trial` also judges
 * each trial against the spread its campaign's cells share
 * (stats_outlier_pooled()), and by its own rule on each of p50, p95
 * and p99 there; a selection with fewer cells than share a spread
 * gets that own rule on each statistic alone.  Contracts are in
 * stats/verdict.h; the
 * error rates are measured by bench/verdicts.c.
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

/*
 * From 8 trials on each side of the median has its own scale (1.4826
 * times the median of that side's distances), so a right-skewed
 * statistic (p99 of heavy-tailed samples: Pareto trials' p99s spread
 * upwards) is judged against its own upper spread: with one MAD for
 * both sides 10 % of cells of 20 identical Pareto alpha 1.5 trials of
 * 300 samples got a p99 flag.  95th percentile of max_i |z_i| with
 * those side scales over n iid normal values, n = 8..30 (numpy, 200,000
 * draws per n, seed 14).
 */
static const double zcrit_semi[] = {
	4.78, 4.18, 6.05, 5.23, 4.89, 4.36, 5.36, 4.85, 4.74, 4.36,	/* 8-17 */
	5.00, 4.61, 4.59, 4.29, 4.77, 4.46, 4.47, 4.24, 4.58, 4.34,	/* 18-27 */
	4.40, 4.18, 4.47,						/* 28-30 */
};

double
stats_outlier_zcrit_semi(size_t n)
{
	if (n < STATS_OUTLIER_SEMI_MIN)
		return NAN;
	if (n > STATS_OUTLIER_CAL_MAX)
		n = STATS_OUTLIER_CAL_MAX;
	return zcrit_semi[n - STATS_OUTLIER_SEMI_MIN];
}

/* 1.4826 x the median of the positive (side > 0) or negative distances
 * of lg from m; NaN when that side is empty. */
static double
side_scale(const double *lg, size_t n, double m, int side, double *buf)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double d = lg[i] - m;

		if ((side > 0 && d > 0) || (side < 0 && d < 0))
			buf[k++] = fabs(d);
	}
	return k ? 1.4826 * stats_median(buf, k) : NAN;
}

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
	double s_up = NAN, s_dn = NAN;
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
	if (n >= STATS_OUTLIER_SEMI_MIN) {
		s_up = side_scale(lg, n, m, 1, dev);
		s_dn = side_scale(lg, n, m, -1, dev);
		crit = stats_outlier_zcrit_semi(n);
	}
	floor_log = log(STATS_OUTLIER_MIN_RATIO);
	for (size_t i = 0; i < n; i++) {
		double d = lg[i] - m;

		if (n >= STATS_OUTLIER_SEMI_MIN) {
			s = d > 0 ? s_up : s_dn;
			if (isnan(s))
				s = 0;
		}
		/* a hair of slack so an exact 2x (or 1/2x) counts */
		bool f = fabs(d) >= floor_log * (1 - 1e-12) &&
		    fabs(d) >= crit * s * (n >= STATS_OUTLIER_SEMI_MIN &&
		    d > 0 ? STATS_OUTLIER_SEMI_UP : 1.0);

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

/* ---------------------------------------------------------------------
 * The campaign's rule
 */

/*
 * 99th percentile of max_i |l_i - m| / s over cells of k iid normal
 * trials, s the median over the cells of each cell's distance from its
 * median to the nearest other trial, for 4, 8 and 30 cells (numpy,
 * 20,000 campaigns each, seed 2; bench/verdicts.c measures the rates
 * the rule gives).
 */
static const double pool_cells[3] = { 4, 8, 30 };
static const double pool_k[3][3] = {
	{ 20.35, 14.58, 10.45 },	/* 3 trials */
	{ 33.92, 23.95, 16.22 },	/* 4 trials */
	{ 48.19, 32.66, 21.05 },	/* 5 trials */
};

double
stats_outlier_pool_k(size_t k, size_t used)
{
	const double *row;
	double lc;

	if (k < STATS_OUTLIER_POOL_MIN_TRIALS ||
	    k > STATS_OUTLIER_POOL_MAX_TRIALS ||
	    used < STATS_OUTLIER_POOL_MIN_CELLS)
		return NAN;
	row = pool_k[k - STATS_OUTLIER_POOL_MIN_TRIALS];
	if ((double)used >= pool_cells[2])
		return row[2];
	lc = log((double)used);
	for (size_t i = 0; i < 2; i++) {
		double a = log(pool_cells[i]), b = log(pool_cells[i + 1]);

		if (lc <= b)
			return row[i] + (row[i + 1] - row[i]) * (lc - a) /
			    (b - a);
	}
	return row[2];
}

/* The nearest-neighbour distance of the median of k logs (k <= 5). */
static double
cell_scale(const double *x, size_t k, bool *ok)
{
	double lg[STATS_OUTLIER_POOL_MAX_TRIALS] = { 0 };
	double d[STATS_OUTLIER_POOL_MAX_TRIALS] = { 0 };
	double m;

	*ok = false;
	for (size_t i = 0; i < k; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return NAN;
		lg[i] = log(x[i]);
	}
	m = stats_median(lg, k);
	for (size_t i = 0; i < k; i++)
		d[i] = fabs(lg[i] - m);
	stats_sort(d, k);
	*ok = true;
	/* odd k: d[0] is the median's own 0 */
	return k % 2 ? d[1] : d[0];
}

double
stats_outlier_pool_scale(const double *x, size_t k, size_t ncells,
    size_t *used)
{
	double *c, s = NAN;
	size_t n = 0;

	*used = 0;
	if (k < STATS_OUTLIER_POOL_MIN_TRIALS ||
	    k > STATS_OUTLIER_POOL_MAX_TRIALS || !ncells)
		return NAN;
	c = xmalloc(ncells * sizeof(*c));
	for (size_t i = 0; i < ncells; i++) {
		bool ok;
		double v = cell_scale(x + i * k, k, &ok);

		if (ok)
			c[n++] = v;
	}
	if (n >= STATS_OUTLIER_POOL_MIN_CELLS) {
		s = stats_median(c, n);
		*used = n;
	}
	free(c);
	return s;
}

size_t
stats_outlier_pooled(const double *x, size_t k, double scale, size_t used,
    bool *flag, double *ratio)
{
	double lg[STATS_OUTLIER_POOL_MAX_TRIALS] = { 0 }, m, crit;
	bool own[STATS_OUTLIER_POOL_MAX_TRIALS] = { false };
	size_t nflag = 0;

	for (size_t i = 0; i < k; i++) {
		if (flag)
			flag[i] = false;
		if (ratio)
			ratio[i] = NAN;
	}
	crit = stats_outlier_pool_k(k, used);
	if (!isfinite(scale) || !isfinite(crit) ||
	    k > STATS_OUTLIER_POOL_MAX_TRIALS)
		return 0;
	for (size_t i = 0; i < k; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return 0;
		lg[i] = log(x[i]);
	}
	m = stats_median(lg, k);
	/* the cell's own rule on this statistic too: a cell of
	 * 5 trials two of which are TIME_WAIT trials (p95 4x the others)
	 * can estimate that its tail is bimodal, where a campaign whose
	 * cells happen to spread a little more (a scale of 5 %, K s 5x)
	 * would let it pass */
	stats_outlier_trials(x, k, own, NULL, NULL);
	for (size_t i = 0; i < k; i++) {
		double d = fabs(lg[i] - m);
		bool f = own[i] || (d >= log(STATS_OUTLIER_POOL_MIN_RATIO) *
		    (1 - 1e-12) && d >= crit * scale);

		if (ratio)
			ratio[i] = exp(lg[i] - m);
		if (flag)
			flag[i] = f;
		nflag += f;
	}
	return nflag;
}

/* ---------------------------------------------------------------------
 * The rule check outlier-trial applies, for analyze and the harness
 */

/* Can cell c be judged by the campaign's rule: 3-5 positive values? */
static bool
camp_ok(const double *x, size_t k)
{
	if (k < STATS_OUTLIER_POOL_MIN_TRIALS ||
	    k > STATS_OUTLIER_POOL_MAX_TRIALS)
		return false;
	for (size_t i = 0; i < k; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
	return true;
}

void
stats_outlier_campaign(const double *const *x, const size_t *k,
    const size_t *group, size_t ncells, bool *const *flag,
    double *const *ratio, double *scale, size_t *used)
{
	size_t nc = ncells ? ncells : 1, ci, cj, n, t, g;
	bool *done = xcalloc(nc, sizeof(bool));
	size_t *grp = xmalloc(nc * sizeof(size_t));
	double *v = xmalloc(nc * STATS_OUTLIER_POOL_MAX_TRIALS *
	    sizeof(double));

	for (ci = 0; ci < ncells; ci++) {
		for (t = 0; t < k[ci]; t++) {
			flag[ci][t] = false;
			if (ratio && ratio[ci])
				ratio[ci][t] = NAN;
		}
		if (scale)
			scale[ci] = NAN;
		if (used)
			used[ci] = 0;
	}
	for (ci = 0; ci < ncells; ci++) {
		size_t kk = k[ci], u;
		double sc;

		if (done[ci] || !camp_ok(x[ci], kk))
			continue;
		for (cj = ci, n = 0; cj < ncells; cj++) {
			if (done[cj] || group[cj] != group[ci] ||
			    k[cj] != kk || !camp_ok(x[cj], kk))
				continue;
			done[cj] = true;
			memcpy(v + n * kk, x[cj], kk * sizeof(double));
			grp[n++] = cj;
		}
		sc = stats_outlier_pool_scale(v, kk, n, &u);
		if (!isfinite(sc)) {
			/* too few cells to share a spread (a selection of
			 * one path): the cell's own rule on this statistic
			 * alone, as stats_outlier_pooled() applies it
			 * beside the shared one */
			for (g = 0; g < n; g++) {
				cj = grp[g];
				stats_outlier_trials(v + g * kk, kk, flag[cj],
				    ratio ? ratio[cj] : NULL, NULL);
				if (used)
					used[cj] = n;
			}
			continue;
		}
		for (g = 0; g < n; g++) {
			cj = grp[g];
			stats_outlier_pooled(v + g * kk, kk, sc, u, flag[cj],
			    ratio ? ratio[cj] : NULL);
			if (scale)
				scale[cj] = sc;
			if (used)
				used[cj] = u;
		}
	}
	free(done);
	free(grp);
	free(v);
}

void
stats_outlier_trial_stats(const double *sorted, size_t n, double *st)
{
	st[0] = st[1] = st[2] = NAN;
	if (!n)
		return;
	st[0] = stats_quantile_type7(sorted, n, 50.0);
	if ((double)n * 0.05 >= STATS_OUTLIER_TAIL_MIN)
		st[1] = stats_quantile_type7(sorted, n, 95.0);
	if ((double)n * 0.01 >= STATS_OUTLIER_TAIL_MIN)
		st[2] = stats_quantile_type7(sorted, n, 99.0);
}

/* The cell's own rule on the trials' p50s that exist (xs[0..k)),
 * into cl->flag and cl->on. */
static void
cells_own(struct stats_outlier_cell *cl, const double *xs, bool *own,
    double *p50)
{
	size_t t, n = 0;
	double med;

	for (t = 0; t < cl->k; t++)
		if (isfinite(xs[t]) && xs[t] > 0)
			p50[n++] = xs[t];
	if (n < 3)
		return;
	med = stats_median(p50, n);
	stats_outlier_trials(p50, n, own, NULL, NULL);
	for (t = n = 0; t < cl->k; t++) {
		if (!(isfinite(xs[t]) && xs[t] > 0))
			continue;
		if (own[n++] && !(cl->low_only && xs[t] > med)) {
			cl->flag[t] = true;
			if (cl->on)
				cl->on[t] |= STATS_OUTLIER_ON_OWN;
		}
	}
}

/* The campaign's flags of cell cl (f, r: [j * k + t]) into its flag[],
 * on[] and ratio[], where every trial's p50 exists (xs: [j * k + t]). */
static void
cells_campaign(struct stats_outlier_cell *cl, const double *xs,
    const bool *f, const double *r)
{
	size_t t, j;

	for (t = 0; t < cl->k; t++)
		if (!(isfinite(xs[t]) && xs[t] > 0))
			return;
	for (t = 0; t < cl->k; t++) {
		unsigned mask = 0;
		int first = -1;

		for (j = 0; j < STATS_OUTLIER_NSTATS; j++) {
			if (cl->ratio)
				cl->ratio[t * STATS_OUTLIER_NSTATS + j] =
				    r[j * cl->k + t];
			if (!f[j * cl->k + t])
				continue;
			mask |= 1u << j;
			if (first < 0)
				first = (int)j;
		}
		/* the first statistic flagged says the direction */
		if (first < 0 || (cl->low_only && r[(size_t)first * cl->k +
		    t] > 1))
			continue;
		cl->flag[t] = true;
		if (cl->on)
			cl->on[t] |= mask;
	}
}

size_t
stats_outlier_cells(struct stats_outlier_cell *cells, size_t ncells)
{
	size_t nc = ncells ? ncells : 1, c, t, j, kmax = 1, nout = 0;
	const double **x = xcalloc(nc, sizeof(*x));
	double **xs = xcalloc(nc, sizeof(*xs)), **r = xcalloc(nc, sizeof(*r));
	bool **f = xcalloc(nc, sizeof(*f)), **fj = xcalloc(nc, sizeof(*fj));
	double **rj = xcalloc(nc, sizeof(*rj));
	size_t *k = xcalloc(nc, sizeof(size_t));
	size_t *grp = xcalloc(nc, sizeof(size_t));
	size_t *used = xcalloc(nc, sizeof(size_t));
	double *scale = xcalloc(nc, sizeof(double));
	bool *own;
	double *p50;

	for (c = 0; c < ncells; c++)
		if (cells[c].k > kmax)
			kmax = cells[c].k;
	own = xmalloc(kmax * sizeof(bool));
	p50 = xmalloc(kmax * sizeof(double));
	for (c = 0; c < ncells; c++) {
		struct stats_outlier_cell *cl = &cells[c];
		size_t kk = cl->k ? cl->k : 1;

		xs[c] = xmalloc(STATS_OUTLIER_NSTATS * kk * sizeof(double));
		f[c] = xcalloc(STATS_OUTLIER_NSTATS * kk, sizeof(bool));
		r[c] = xmalloc(STATS_OUTLIER_NSTATS * kk * sizeof(double));
		for (t = 0; t < cl->k; t++) {
			cl->flag[t] = false;
			if (cl->on)
				cl->on[t] = 0;
			for (j = 0; j < STATS_OUTLIER_NSTATS; j++) {
				xs[c][j * cl->k + t] =
				    cl->st[t * STATS_OUTLIER_NSTATS + j];
				if (cl->ratio)
					cl->ratio[t * STATS_OUTLIER_NSTATS +
					    j] = NAN;
			}
		}
		cells_own(cl, xs[c], own, p50);
		k[c] = cl->k;
	}
	/* the campaign's rule, statistic by statistic, where every
	 * trial's p50 exists (as check outlier-trial) */
	for (j = 0; j < STATS_OUTLIER_NSTATS; j++) {
		for (c = 0; c < ncells; c++) {
			x[c] = xs[c] + j * cells[c].k;
			fj[c] = f[c] + j * cells[c].k;
			rj[c] = r[c] + j * cells[c].k;
		}
		stats_outlier_campaign(x, k, grp, ncells, fj, rj, scale, used);
		for (c = 0; c < ncells; c++) {
			cells[c].scale[j] = scale[c];
			cells[c].used[j] = used[c];
		}
	}
	for (c = 0; c < ncells; c++) {
		bool any = false;

		if (cells[c].k)
			cells_campaign(&cells[c], xs[c], f[c], r[c]);
		for (t = 0; t < cells[c].k; t++)
			any = any || cells[c].flag[t];
		nout += any;
		free(xs[c]);
		free(f[c]);
		free(r[c]);
	}
	free(x);
	free(xs);
	free(f);
	free(r);
	free(fj);
	free(rj);
	free(k);
	free(grp);
	free(used);
	free(scale);
	free(own);
	free(p50);
	return nout;
}

bool
stats_outlier_shared(size_t nout, size_t njudged)
{
	return nout >= STATS_OUTLIER_SHARED_MIN && (double)nout >=
	    STATS_OUTLIER_SHARED_SHARE * (double)njudged;
}
