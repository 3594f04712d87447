/*
 * interval.c - the intervals analyze prints: trial-level t intervals
 * (one cell, two cells' delta or ratio, the growth of a delta) on
 * per-trial values, and the within-run order-statistic interval for a
 * single trial.  Trials are the unit because requests inside a trial are
 * not independent of each other (a trial-level random effect): an
 * interval that treats every request as independent covered 32 % at a
 * 10 % trial-to-trial drift.  Coverage is measured by
 * tests/sim/coverage.c and committed in docs/research/coverage.md.  What is
 * withheld, and where the pooled linearization gives way to the trials'
 * own values (ties, unequal trial sizes), is decided here once
 * (stats_tl_withhold, stats_tl_method), for analyze and the harness
 * alike.  Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* Why there is no trial-level interval with t trials (t < the minimum). */
static const char *
too_few(size_t t)
{
	static const char *const why[] = {
		"no trials: no interval",
		"1 trial: collect ≥ " STR(STATS_TL_MIN_TRIALS)
		    " trials for a trial-level interval; " STATS_WHY_PLAN,
		"2 trials: collect ≥ " STR(STATS_TL_MIN_TRIALS)
		    " trials for a trial-level interval; " STATS_WHY_PLAN,
	};

	return t < ARRAY_SIZE(why) ? why[t] : "too few trials for a "
	    "trial-level interval";
}

const char *
stats_covers_name(enum stats_covers c)
{
	switch (c) {
	case STATS_COVERS_TRIALS:
		return "trials";
	case STATS_COVERS_SAMPLES:
		return "samples";
	case STATS_COVERS_NONE:
		break;
	}
	return NULL;
}

const char *
stats_tl_unsupported(enum stats_pool pool, enum stats_estimator est,
    double pct)
{
	if (pool == STATS_POOL_POOLED && est != STATS_EST_MEAN &&
	    (pct < STATS_TL_POOLED_PCT_MIN || pct > STATS_TL_POOLED_PCT_MAX))
		return "no pooled interval beyond p25–p75: use --pool trials";
	return NULL;
}

static void
interval_none(struct stats_interval *out, double estimate, const char *why)
{
	out->estimate = estimate;
	out->lo = out->hi = out->se = out->df = NAN;
	out->covers = STATS_COVERS_NONE;
	out->why = why;
}

/* Mean and sample variance of u[0..n), n >= 2. */
static void
mean_var(const double *u, size_t n, double *mean, double *var)
{
	double m, v = 0;
	size_t i;

	/* stats_mean: values near DBL_MAX overflow a plain sum (identical
	 * trials at 1.7e308 gave the interval [0, null]) */
	m = stats_mean(u, n);
	for (i = 0; i < n; i++)
		v += (u[i] - m) * (u[i] - m);
	*mean = m;
	*var = v / (double)(n - 1);
}

/* Mean and sample standard deviation of u[0..n), n >= 2, scaled by the
 * largest deviation so that values near DBL_MAX do not overflow the
 * squares (the variance itself may not fit in a double there). */
static void
mean_sd(const double *u, size_t n, double *mean, double *sd)
{
	double m = stats_mean(u, n), sc = 0, v = 0, d;
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(u[i] - m) > sc)
			sc = fabs(u[i] - m);
	if (sc > 0 && isfinite(sc))
		for (i = 0; i < n; i++) {
			d = (u[i] - m) / sc;
			v += d * d;
		}
	*mean = m;
	*sd = sc > 0 ? sc * sqrt(v / (double)(n - 1)) : 0;
}

/* Values of sorted[0..n) below q, and equal to it. */
static void
count_at(const double *sorted, size_t n, double q, size_t *below,
    size_t *equal)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (sorted[m] < q)
			lo = m + 1;
		else
			hi = m;
	}
	*below = lo;
	hi = n;
	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (sorted[m] <= q)
			lo = m + 1;
		else
			hi = m;
	}
	*equal = lo - *below;
}

/*
 * Values within this share of a percentile's magnitude count as tied
 * with it (tied_at, shared_plateau) when they are a point mass there.
 * Throughput at a rate cap is not one value: iperf3 writes
 * bits_per_second = bytes * 8 / the interval's measured length
 * (iperf3-format-notes: `seconds` is end - start), and at a cap the
 * intervals carry the same byte count over lengths that differ by the
 * timer's tens of microseconds.  Measured with iperf 3.12, -b 900M on
 * loopback on a loaded 2-core machine: 18 of 30 one-second intervals
 * carried 112459776 bytes, 17 of them within 22 ppm of their median,
 * one at -82 ppm (899.64-899.70 Mbit/s).  With equality alone none of
 * that was a plateau: three runs at a 900 Mbit/s cap printed --pool
 * trials p50 "900 [900, 900]", and tests/sim/coverage.c's iperf3 cell
 * with such jitter covered 70 % (--pool trials p50) and 34 % (p75).
 * 1e-4 takes in 100 us on a 1 s interval.
 */
#define TIE_RTOL	1e-4

/*
 * A run of near ties is a point mass only if it holds at least
 * TIE_MASS of the values within TIE_WIDE tolerances of the percentile.
 * 1e-4 of a latency of 20 ms is 2 us: continuous values recorded to
 * 1 us put about a tenth of those within 10 tolerances into the window
 * (a locally flat density), and at large n that tenth is a "run" (3
 * trials of 400,000 lognormal sigma 0.03 values: 1325 within 2 us of
 * p50, where 632 make a run, 0.12 of those within 20 us; their p50s
 * 20.001, 20.001, 20.000 ms would have been withheld as one plateau).
 * A cap's plateau holds nearly all of them (iperf3's next byte count,
 * one 128 KiB block, is 1.2e-3 away at 900 Mbit/s, farther at lower
 * rates), and half where two runs' caps fall within 1e-3 of each other
 * (TIE_MASS 0.5 turned those into the linearization in the coverage
 * harness's per-trial-caps cell: pooled p25/p50 0.2 points lower).
 * Equal values are judged as before, without this test: values rounded
 * coarsely are ties.
 */
#define TIE_WIDE	10
#define TIE_MASS	0.25

/* Values of sorted[0..n) below lo, and in [lo, hi]. */
static void
count_band(const double *sorted, size_t n, double lo, double hi,
    size_t *below, size_t *in)
{
	size_t b_lo, e_lo, b_hi, e_hi;

	count_at(sorted, n, lo, &b_lo, &e_lo);
	count_at(sorted, n, hi, &b_hi, &e_hi);
	*below = b_lo;
	*in = b_hi + e_hi - b_lo;
}

/* Whether a and b are one value within TIE_RTOL (a plateau's jitter). */
static bool
near_tie(double a, double b)
{
	return fabs(a - b) <= TIE_RTOL * fmax(fabs(a), fabs(b));
}

/* Whether the pct quantile q of sorted[0..n) sits on a run of tied
 * values wider than two binomial standard deviations of the count below
 * it: there the share below q jumps, and neither a linearized share nor
 * the slope of the quantile function means anything (a rate cap's
 * plateau, values rounded coarsely).  Tied: equal to q, or within
 * TIE_RTOL of it where those are a point mass (TIE_MASS).  Ties of two
 * or three among continuous values are not such a run. */
static bool
tied_at(const double *sorted, size_t n, double q, double pct)
{
	double p = pct / 100.0, run = 2 * sqrt((double)n * p * (1 - p));
	double tol = TIE_RTOL * fabs(q);
	size_t below, k, wide;

	count_at(sorted, n, q, &below, &k);
	if (k >= 2 && (double)k >= run)
		return true;
	count_band(sorted, n, q - tol, q + tol, &below, &k);
	if (k < 2 || (double)k < run)
		return false;
	count_band(sorted, n, q - TIE_WIDE * tol, q + TIE_WIDE * tol, &below,
	    &wide);
	return (double)k >= TIE_MASS * (double)wide;
}

/* Whether two or more trials' own pct quantiles sit on runs of ties at
 * the same value (within TIE_RTOL: one cap, its jitter): one plateau (a
 * link's rate cap) shared by the trials.
 * Their trial-level values then have a point mass at the cap, and a t
 * interval on 3 such values covered 86-90 % (iperf3 3 x 30 with 60 % of
 * the intervals at the cap; a zero-width interval when all share it).
 * Trials on plateaus of their own (183, 181, 179) vary like any values.
 * O(T^2 + T log n), T small. */
static bool
shared_plateau(const struct stats_trials *g, enum stats_estimator est,
    double pct)
{
	size_t t, k;
	double q[64];
	bool tied[64];
	size_t T = g->ntrials < 64 ? g->ntrials : 64;

	for (t = 0; t < T; t++) {
		tied[t] = false;
		if (!g->n[t])
			continue;
		q[t] = stats_quantile(est, g->trial[t], g->n[t], pct);
		tied[t] = tied_at(g->trial[t], g->n[t], q[t], pct);
		for (k = 0; k < t; k++)
			if (tied[t] && tied[k] && near_tie(q[k], q[t]))
				return true;
	}
	return false;
}

/* Trial sizes this far apart (largest / smallest) make the pooled
 * quantile's u_t unequal in variance: with 3 trials of 300, 300 and 40
 * the pooled p50 interval covered 88 %. */
#define UNEQUAL_SIZES	1.5

static bool
sizes_unequal(const struct stats_trials *g)
{
	size_t t, lo = SIZE_MAX, hi = 0;

	for (t = 0; t < g->ntrials; t++) {
		if (g->n[t] < lo)
			lo = g->n[t];
		if (g->n[t] > hi)
			hi = g->n[t];
	}
	return g->ntrials && (double)hi > UNEQUAL_SIZES * (double)lo;
}

const char *
stats_tl_method(const struct stats_trials *g, const double *pooled,
    size_t npooled, enum stats_estimator est, double pct,
    enum stats_pool pool)
{
	if (!g || pool != STATS_POOL_POOLED || est == STATS_EST_MEAN ||
	    !(pct > 0 && pct < 100) || !pooled || npooled == 0)
		return NULL;
	if (tied_at(pooled, npooled, stats_quantile(est, pooled, npooled, pct),
	    pct))
		return STATS_TL_BY_TRIALS_TIES;
	if (sizes_unequal(g))
		return STATS_TL_BY_TRIALS_SIZES;
	return NULL;
}

const char *
stats_tl_withhold(const struct stats_trials *g, const double *pooled,
    size_t npooled, enum stats_pool pool, enum stats_estimator est,
    double pct, double level)
{
	size_t t, need;
	const char *why;

	if ((why = stats_tl_unsupported(pool, est, pct)))
		return why;
	if (!g || est == STATS_EST_MEAN || !(pct > 0 && pct < 100))
		return NULL;
	/* the rule check few-samples states: a percentile has a level
	 * interval only from the sample size where the order statistics
	 * give one (p99 at 95 %: 299) */
	need = stats_quantile_ci_min_n(pct, level, STATS_CI_NARROWEST);
	if (pool == STATS_POOL_POOLED) {
		if (pooled && npooled < need)
			return STATS_WHY_FEW_SAMPLES;
	} else {
		/* a crashed or short trial among many (150 of 300 probes
		 * among 63 trials) is down-weighted, not a reason to
		 * withhold the cell: its value enters with its own larger
		 * variance (the contrasts weigh it by tau^2 + c / n_t,
		 * stats_tl_trial_var; a cell's interval by the spread it
		 * adds), so long as STATS_TL_SHORT_FULL of the trials, and
		 * at least STATS_TL_MIN_TRIALS, have the samples */
		size_t full = 0, raw = 0;

		for (t = 0; t < g->ntrials; t++) {
			raw += g->n[t] > 0;
			full += g->n[t] >= need;
		}
		if (full < raw && (full < STATS_TL_MIN_TRIALS ||
		    (double)full < STATS_TL_SHORT_FULL * (double)raw))
			return STATS_WHY_FEW_SAMPLES;
	}
	if (shared_plateau(g, est, pct))
		return STATS_WHY_PLATEAU;
	return NULL;
}

const char *
stats_within_run_withhold(bool series)
{
	return series ? STATS_WHY_SERIES : NULL;
}

/* The slope of the quantile function of sorted[0..N) at p, over about
 * one binomial standard error on either side of p (type 7 reads). */
static double
quantile_slope(const double *sorted, size_t N, double p)
{
	double h = sqrt(p * (1 - p) / (double)N), plo, phi;

	if (h < 1.0 / (double)N)
		h = 1.0 / (double)N;
	plo = p - h < 0 ? 0 : p - h;
	phi = p + h > 1 ? 1 : p + h;
	return (stats_quantile_type7(sorted, N, 100 * phi) -
	    stats_quantile_type7(sorted, N, 100 * plo)) / (phi - plo);
}

/*
 * The pooled percentile of trials of unequal size from the trials' own
 * values u[0..T).  The pooled estimate weighs a trial by its
 * size, nearly sum (n_t / N) u_t, but the plain sample variance of u
 * weighs them alike: at 300/300/40 without a trial effect the trial of
 * 40 held 80 % of that variance, the standard error was 1.5x the pooled
 * estimate's, and delta and ratio covered 98.1-99.0 %.  Here each
 * trial's value has variance v_t = tau^2 + c / n_t: c / n_t its own
 * sampling variance (c = slope^2 p (1 - p), the slope of the pooled
 * quantile function), tau^2 the trials' drift, by DerSimonian-Laird's
 * moments.  The scale is the Hartung-Knapp one, s^2 = sum w_t (u_t -
 * ubar_w)^2 / (T - 1) with w_t = 1 / v_t (the residuals made alike in
 * variance, so s^2 has T - 1 degrees of freedom), and the pooled
 * estimate's variance s^2 sum (n_t / N)^2 v_t.  u is rewritten in place
 * as T values with that variance of their mean (and mean estimate), the
 * residuals rotated (Householder) from the weights' direction onto the
 * equal one, so the t interval and Welch's contrast need no weights.
 * Equal sizes: the same weights for all, u unchanged (never called).
 * Nothing changes where c is not a positive finite number (a slope of
 * 0 on a plateau of ties).
 */
static void
reweight_by_size(const size_t *n, size_t T, double N, double c,
    double estimate, double *u)
{
	double *w = xmalloc(3 * T * sizeof(double)), *r = w + T, *a = r + T;
	double s0 = 0, s1 = 0, s2 = 0, q = 0, tau2, m, sw = 0, na = 0;
	double nn = 0, dot = 0, k2 = 0, e = 1 / sqrt((double)T);
	size_t t;

	if (!(c > 0 && isfinite(c)) || T < 2)
		goto cleanup;
	/* DerSimonian-Laird: fixed weights n_t / c first */
	for (t = 0; t < T; t++) {
		w[t] = (double)n[t] / c;
		s0 += w[t] * u[t];
		s1 += w[t];
		s2 += w[t] * w[t];
	}
	m = s0 / s1;
	for (t = 0; t < T; t++)
		q += w[t] * (u[t] - m) * (u[t] - m);
	tau2 = (q - (double)(T - 1)) / (s1 - s2 / s1);
	if (!(tau2 > 0))
		tau2 = 0;
	s0 = 0;
	for (t = 0; t < T; t++) {
		double v = tau2 + c / (double)n[t];

		w[t] = 1 / v;
		s0 += w[t] * u[t];
		sw += w[t];
		k2 += ((double)n[t] / N) * ((double)n[t] / N) * v;
	}
	m = s0 / sw;
	for (t = 0; t < T; t++) {
		r[t] = sqrt(w[t]) * (u[t] - m);
		a[t] = sqrt(w[t]);
		na += w[t];
	}
	/* r is orthogonal to a (sum w_t (u_t - m) = 0); the reflection
	 * taking a / |a| to (1, .., 1) / sqrt(T) keeps |r| and makes the
	 * values sum to 0 */
	na = sqrt(na);
	for (t = 0; t < T; t++) {
		a[t] = a[t] / na - e;
		nn += a[t] * a[t];
		dot += a[t] * r[t];
	}
	k2 *= (double)T;
	for (t = 0; t < T; t++) {
		double d = nn > 0 ? r[t] - 2 * a[t] * dot / nn : r[t];

		r[t] = estimate + sqrt(k2) * d;
		if (!isfinite(r[t]))
			goto cleanup;
	}
	memcpy(u, r, T * sizeof(double));
cleanup:
	free(w);
}

static bool
sizes_equal(const struct stats_trials *g)
{
	size_t t;

	for (t = 1; t < g->ntrials; t++)
		if (g->n[t] != g->n[0])
			return false;
	return true;
}

/*
 * --pool trials, trials of unequal size (more than 1.5x apart, as
 * stats_tl_method's rule: 297 against 300 successes stay Welch's): the
 * sampling variance
 * of each trial's own percentile u_t, v_t = tau^2 + c / n_t, as
 * reweight_by_size takes it (c = slope^2 p (1 - p) from the quantile
 * function of all the trials' samples together, tau^2 by
 * DerSimonian-Laird's moments on u).
 */
bool
stats_tl_trial_var(const struct stats_trials *g, enum stats_estimator est,
    double pct, enum stats_pool pool, const double *u, double *v)
{
	size_t t, T, N = 0, off = 0;
	double *all, p, slope, c, s0 = 0, s1 = 0, s2 = 0, q = 0, m, tau2;
	bool ok = false;

	if (!g || !u || !v || g->ntrials < 2 || pool != STATS_POOL_PER_TRIAL ||
	    est == STATS_EST_MEAN || !(pct > 0 && pct < 100) ||
	    !sizes_unequal(g))
		return false;
	T = g->ntrials;
	for (t = 0; t < T; t++) {
		if (g->n[t] == 0 || !isfinite(u[t]))
			return false;
		N += g->n[t];
	}
	all = xmalloc(N * sizeof(double));
	for (t = 0; t < T; t++) {
		memcpy(all + off, g->trial[t], g->n[t] * sizeof(double));
		off += g->n[t];
	}
	stats_sort(all, N);
	p = pct / 100.0;
	slope = quantile_slope(all, N, p);
	c = slope * slope * p * (1 - p);
	if (!(c > 0 && isfinite(c)))
		goto cleanup;
	for (t = 0; t < T; t++) {
		double w = (double)g->n[t] / c;

		s0 += w * u[t];
		s1 += w;
		s2 += w * w;
	}
	m = s0 / s1;
	for (t = 0; t < T; t++)
		q += (double)g->n[t] / c * (u[t] - m) * (u[t] - m);
	tau2 = (q - (double)(T - 1)) / (s1 - s2 / s1);
	if (!(tau2 > 0))
		tau2 = 0;
	for (t = 0; t < T; t++)
		v[t] = tau2 + c / (double)g->n[t];
	ok = true;
cleanup:
	free(all);
	return ok;
}

/* Eigenvalues of the symmetric n x n matrix a (row-major, destroyed)
 * into ev[0..n), cyclic Jacobi. */
static void
sym_eigenvalues(double *a, size_t n, double *ev)
{
	size_t i, j, k, sweep;

	for (sweep = 0; sweep < 100; sweep++) {
		double off = 0, diag = 0;

		for (i = 0; i < n; i++) {
			diag += a[i * n + i] * a[i * n + i];
			for (j = i + 1; j < n; j++)
				off += a[i * n + j] * a[i * n + j];
		}
		if (off <= 1e-30 * diag || off == 0)
			break;
		for (i = 0; i < n; i++) {
			for (j = i + 1; j < n; j++) {
				double aij = a[i * n + j], th, tt, cs, sn;

				if (aij == 0)
					continue;
				th = (a[j * n + j] - a[i * n + i]) / (2 * aij);
				tt = (th >= 0 ? 1 : -1) /
				    (fabs(th) + sqrt(th * th + 1));
				cs = 1 / sqrt(tt * tt + 1);
				sn = tt * cs;
				for (k = 0; k < n; k++) {
					double x = a[k * n + i], y = a[k * n + j];

					a[k * n + i] = cs * x - sn * y;
					a[k * n + j] = sn * x + cs * y;
				}
				for (k = 0; k < n; k++) {
					double x = a[i * n + k], y = a[j * n + k];

					a[i * n + k] = cs * x - sn * y;
					a[j * n + k] = sn * x + cs * y;
				}
			}
		}
	}
	for (i = 0; i < n; i++)
		ev[i] = a[i * n + i];
}

/* P(sum lam_i X_i >= 0), X_i independent chi^2_1: Imhof's integral,
 * 1/2 + 1/pi int_0^inf sin(theta(u)) / (u rho(u)) du, by the
 * trapezoid rule in y = log u (the integrand is analytic in a strip of
 * half-width pi/2 around the real y axis, so the rule converges
 * geometrically; step 0.1), from u = e^-30 (the integrand there below
 * n e^-30) until 1 / rho, which bounds the rest, is below 1e-17. */
static double
imhof_nonneg(const double *lam, size_t n)
{
	double mx = 0, sum = 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++)
		if (fabs(lam[i]) > mx)
			mx = fabs(lam[i]);
	if (!(mx > 0))
		return 1;
	for (k = -300; k <= 400; k++) {
		double u = exp(0.1 * k), th = 0, lr = 0;

		for (i = 0; i < n; i++) {
			double l = lam[i] / mx;

			if (fabs(l) < 1e-12)
				continue;
			th += 0.5 * atan(l * u);
			lr += 0.25 * log1p(l * l * u * u);
		}
		sum += sin(th) * exp(-lr);
		if (k > 0 && lr > 39.2)
			break;
	}
	return 0.5 + 0.1 * sum / M_PI;
}

/*
 * P(|t| <= q) for Welch's statistic t = (mean a - mean b) / sqrt(s_a^2 /
 * ta + s_b^2 / tb) of independent normal values of variances va[0..ta),
 * vb[0..tb) (any means: t's distribution under equal ones).  |t| <= q
 * exactly when the quadratic form z' (q^2 Q - L L') z >= 0, Q the two
 * variance estimates' form, L the difference of means; its eigenvalues
 * on the scale of the variances feed Imhof.  work: (ta + tb)^2 + ta + tb.
 */
static double
welch_cdf(const double *va, size_t ta, const double *vb, size_t tb,
    double q, double *work)
{
	size_t n = ta + tb, i, j;
	double *a = work, *ev = work + n * n;

	for (i = 0; i < n; i++) {
		bool ia = i < ta;
		double vi = ia ? va[i] : vb[i - ta];
		double li = ia ? 1 / (double)ta : -1 / (double)tb;

		for (j = 0; j < n; j++) {
			bool ja = j < ta;
			double vj = ja ? va[j] : vb[j - ta];
			double lj = ja ? 1 / (double)ta : -1 / (double)tb;
			double qij = 0;

			if (ia == ja) {
				double T = (double)(ia ? ta : tb);

				qij = ((i == j ? 1 : 0) - 1 / T) /
				    (T * (T - 1));
			}
			a[i * n + j] = sqrt(vi * vj) * (q * q * qij - li * lj);
		}
	}
	sym_eigenvalues(a, n, ev);
	return imhof_nonneg(ev, n);
}

/* The level quantile of |t| above (regula falsi, Illinois: a
 * bracket that shrinks from both sides); NaN when it fails. */
static double
welch_quantile(const double *va, size_t ta, const double *vb, size_t tb,
    double level)
{
	size_t n = ta + tb, k;
	double *work = xmalloc((n * n + n) * sizeof(double));
	double lo = 0, hi = 2, flo = -level, fhi, x = NAN;
	int side = 0;

	while ((fhi = welch_cdf(va, ta, vb, tb, hi, work) - level) < 0) {
		lo = hi;
		flo = fhi;
		hi *= 2;
		if (hi > 1e6)
			goto cleanup;
	}
	x = hi;
	for (k = 0; k < 100 && hi - lo > 1e-14 * hi; k++) {
		double fx;

		x = hi - fhi * (hi - lo) / (fhi - flo);
		if (!(x > lo && x < hi))
			x = (lo + hi) / 2;
		fx = welch_cdf(va, ta, vb, tb, x, work) - level;
		if (fx == 0)
			break;
		if (fx < 0) {
			lo = x;
			flo = fx;
			if (side < 0)
				fhi /= 2;
			side = -1;
		} else {
			hi = x;
			fhi = fx;
			if (side > 0)
				flo /= 2;
			side = 1;
		}
	}
cleanup:
	free(work);
	return x;
}

int
stats_tl_values(const struct stats_trials *g, const double *pooled,
    size_t npooled, enum stats_estimator est, double pct,
    enum stats_pool pool, double *u, double *estimate)
{
	size_t t, T, N = 0;
	double q, p, slope;

	if (!g || !u || !estimate || g->ntrials == 0)
		return -1;
	T = g->ntrials;
	if (est != STATS_EST_MEAN && !(pct > 0 && pct < 100))
		return -1;
	for (t = 0; t < T; t++) {
		if (g->n[t] == 0)
			return -1;
		N += g->n[t];
	}
	if (pool == STATS_POOL_PER_TRIAL ||
	    stats_tl_method(g, pooled, npooled, est, pct, pool)) {
		/* pooled, ties at the quantile or unequal trial sizes: the
		 * trials' own values around the pooled estimate */
		if (pool == STATS_POOL_POOLED) {
			for (t = 0; t < T; t++)
				u[t] = stats_quantile(est, g->trial[t], g->n[t],
				    pct);
			*estimate = stats_quantile(est, pooled, N, pct);
			if (!sizes_equal(g)) {
				p = pct / 100.0;
				slope = quantile_slope(pooled, N, p);
				reweight_by_size(g->n, T, (double)N,
				    slope * slope * p * (1 - p), *estimate, u);
			}
			return 0;
		}

		for (t = 0; t < T; t++) {
			u[t] = est == STATS_EST_MEAN ?
			    stats_mean(g->trial[t], g->n[t]) :
			    stats_quantile(est, g->trial[t], g->n[t], pct);
		}
		*estimate = stats_mean(u, T);
		return 0;
	}
	if (!pooled || npooled != N)
		return -1;
	if (est == STATS_EST_MEAN) {
		double m = stats_mean(pooled, N);

		for (t = 0; t < T; t++)
			u[t] = m + (double)T * (double)g->n[t] / (double)N *
			    (stats_mean(g->trial[t], g->n[t]) - m);
		*estimate = m;
		return 0;
	}
	q = stats_quantile(est, pooled, N, pct);
	p = pct / 100.0;
	slope = quantile_slope(pooled, N, p);
	for (t = 0; t < T; t++) {
		size_t below, equal;
		double f;

		count_at(g->trial[t], g->n[t], q, &below, &equal);
		f = ((double)below + 0.5 * (double)equal) / (double)g->n[t];
		u[t] = q + slope * (double)T * (double)g->n[t] / (double)N *
		    (p - f);
	}
	*estimate = q;
	return 0;
}

int
stats_tl_interval(const double *u, size_t T, double estimate, double level,
    bool log_scale, struct stats_interval *out)
{
	double m, v, half;

	if (!out || !(level > 0 && level < 1) || (T && !u))
		return -1;
	interval_none(out, estimate, NULL);
	if (T < STATS_TL_MIN_TRIALS) {
		out->why = too_few(T);
		return 0;
	}
	mean_sd(u, T, &m, &v);
	out->se = v / sqrt((double)T);
	out->df = (double)(T - 1);
	half = stats_t_quantile(0.5 + level / 2, out->df) * out->se;
	if (log_scale && estimate > 0) {
		/* delta method on log(estimate): right-skewed like the
		 * estimate itself, and never below 0 */
		out->lo = estimate * exp(-half / estimate);
		out->hi = estimate * exp(half / estimate);
	} else {
		out->lo = estimate - half;
		out->hi = estimate + half;
	}
	if (!isfinite(out->lo) || !isfinite(out->hi)) {
		/* an end past the range of doubles: say so, never
		 * "covers trials" with no ends */
		interval_none(out, estimate, "an end of the interval lies "
		    "beyond the range of a double");
		return 0;
	}
	out->covers = STATS_COVERS_TRIALS;
	return 0;
}

/*
 * The level quantile of |Welch's t| when a cell's trial-level values
 * have the variances vta[0..ta) (NULL: all alike, the sample variance
 * sa2 of its values) and the other's vtb, each divided by its scale^2
 * (the estimate^2 for a ratio's log scale); NaN when it fails.
 */
static double
calibrated_quantile(const double *vta, double sa2, size_t ta,
    const double *vtb, double sb2, size_t tb, double sca, double scb,
    double level)
{
	double *v = xmalloc((ta + tb) * sizeof(double)), q = NAN;
	size_t t;

	for (t = 0; t < ta; t++)
		v[t] = (vta ? vta[t] : sa2) / sca;
	for (t = 0; t < tb; t++)
		v[ta + t] = (vtb ? vtb[t] : sb2) / scb;
	for (t = 0; t < ta + tb; t++)
		if (!(v[t] > 0 && isfinite(v[t])))
			goto cleanup;
	q = welch_quantile(v, ta, v + ta, tb, level);
cleanup:
	free(v);
	return q;
}

/* Welch: the standard error of a difference of two means with
 * variances va, vb of the means and ta, tb values, and its df. */
static void
welch(double va, size_t ta, double vb, size_t tb, double *se, double *df)
{
	double d = va * va / (double)(ta - 1) + vb * vb / (double)(tb - 1);

	*se = sqrt(va + vb);
	/* both spreads 0: any df gives a zero-width interval */
	*df = d > 0 ? (va + vb) * (va + vb) / d : (double)(ta + tb - 2);
}

int
stats_tl_contrast(const double *ua, size_t ta, double ea, const double *ub,
    size_t tb, double eb, enum stats_contrast k, double level,
    struct stats_interval *out)
{
	return stats_tl_contrast_v(ua, NULL, ta, ea, ub, NULL, tb, eb, k,
	    level, out);
}

int
stats_tl_contrast_v(const double *ua, const double *vta, size_t ta,
    double ea, const double *ub, const double *vtb, size_t tb, double eb,
    enum stats_contrast k, double level, struct stats_interval *out)
{
	double ma, va, mb, vb, se, df, tq;

	if (!out || !(level > 0 && level < 1) || (ta && !ua) || (tb && !ub))
		return -1;
	interval_none(out, k == STATS_RATIO ? stats_ratio(ea, eb) :
	    stats_delta(ea, eb), NULL);
	if (ta < STATS_TL_MIN_TRIALS || tb < STATS_TL_MIN_TRIALS) {
		out->why = too_few(ta < tb ? ta : tb);
		return 0;
	}
	mean_var(ua, ta, &ma, &va);
	mean_var(ub, tb, &mb, &vb);
	if (k == STATS_RATIO && !(ea > 0 && eb > 0)) {
		out->why = "a ratio of values ≤ 0: no interval";
		return 0;
	}
	tq = (vta || vtb) && ta + tb <= STATS_TL_CAL_MAX ?
	    calibrated_quantile(vta, va, ta, vtb, vb, tb,
	    k == STATS_RATIO ? ea * ea : 1, k == STATS_RATIO ? eb * eb : 1,
	    level) : NAN;
	va /= (double)ta;
	vb /= (double)tb;
	if (k == STATS_RATIO) {
		va /= ea * ea;
		vb /= eb * eb;
	}
	welch(va, ta, vb, tb, &se, &df);
	if (isfinite(tq)) {
		/* the Welch statistic's own quantile: no t df */
		df = NAN;
	} else {
		tq = stats_t_quantile(0.5 + level / 2, df);
	}
	out->se = se;
	out->df = df;
	if (k == STATS_RATIO) {
		out->lo = out->estimate * exp(-tq * se);
		out->hi = out->estimate * exp(tq * se);
	} else {
		out->lo = out->estimate - tq * se;
		out->hi = out->estimate + tq * se;
	}
	out->covers = STATS_COVERS_TRIALS;
	return 0;
}

int
stats_tl_growth(const double *a50, const double *a99, size_t ta,
    double ea50, double ea99, const double *b50, const double *b99,
    size_t tb, double eb50, double eb99, double level,
    struct stats_interval *out)
{
	struct stats_interval d50;
	double d99, g, ma, va, mb, vb, se, df, tq, *w;
	size_t i;

	if (!out || !(level > 0 && level < 1))
		return -1;
	if (stats_tl_contrast(a50, ta, ea50, b50, tb, eb50, STATS_DELTA,
	    level, &d50))
		return -1;
	d99 = ea99 - eb99;
	g = stats_growth(d99, d50.estimate);
	interval_none(out, g, d50.why);
	if (d50.covers == STATS_COVERS_NONE || !isfinite(g))
		return 0;
	if (d50.lo <= 0 && d50.hi >= 0) {
		out->estimate = NAN;
		out->why = "Δp50 not distinguishable from 0";
		return 0;
	}
	if (!a99 || !b99)
		return 0;
	w = xmalloc((ta > tb ? ta : tb) * sizeof(*w));
	for (i = 0; i < ta; i++)
		w[i] = (a99[i] - g * a50[i]) / d50.estimate;
	mean_var(w, ta, &ma, &va);
	for (i = 0; i < tb; i++)
		w[i] = (b99[i] - g * b50[i]) / d50.estimate;
	mean_var(w, tb, &mb, &vb);
	free(w);
	welch(va / (double)ta, ta, vb / (double)tb, tb, &se, &df);
	tq = stats_t_quantile(0.5 + level / 2, df);
	out->se = se;
	out->df = df;
	out->lo = g - tq * se;
	out->hi = g + tq * se;
	out->covers = STATS_COVERS_TRIALS;
	return 0;
}

void
stats_interval_clip(struct stats_interval *iv, double lo, double hi)
{
	if (!iv || iv->covers == STATS_COVERS_NONE || !(lo <= hi))
		return;
	if (iv->lo < lo)
		iv->lo = lo;
	if (iv->hi > hi)
		iv->hi = hi;
	if (iv->lo > iv->hi)
		iv->lo = iv->hi;
}

void
stats_contrast_range(double alo, double ahi, double blo, double bhi,
    enum stats_contrast k, double *lo, double *hi)
{
	*lo = -INFINITY;
	*hi = INFINITY;
	if (!(alo <= ahi && blo <= bhi))
		return;
	if (k == STATS_DELTA) {
		*lo = alo - bhi;
		*hi = ahi - blo;
	} else if (alo > 0 && blo > 0) {
		*lo = alo / bhi;
		*hi = ahi / blo;
	}
}

int
stats_sample_interval(const double *sorted, size_t n, double pct,
    double estimate, double level, struct stats_interval *out)
{
	struct stats_rank_ci r;

	if (!out || (n && !sorted))
		return -1;
	interval_none(out, estimate, NULL);
	if (stats_quantile_ci(n, pct, level, STATS_CI_EQUAL_TAILED, &r))
		return -1;
	if (!r.available) {
		out->why = "n too small for an order-statistic interval";
		return 0;
	}
	out->lo = sorted[r.lo - 1];
	out->hi = sorted[r.hi - 1];
	out->covers = STATS_COVERS_SAMPLES;
	return 0;
}

/* A value and its place in sample order, for ranking. */
struct ranked {
	double v;
	size_t at;
};

static int
ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

double
stats_serial_rank_corr(const double *x, size_t n)
{
	struct ranked *r;
	double *rank, m, num = 0, den = 0;
	size_t i, j;

	if (!x || n < 3)
		return NAN;
	r = xmalloc(n * sizeof(*r));
	rank = xmalloc(n * sizeof(*rank));
	for (i = 0; i < n; i++) {
		r[i].v = x[i];
		r[i].at = i;
	}
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		/* ranks i + 1 .. j, averaged over the ties */
		for (size_t k = i; k < j; k++)
			rank[r[k].at] = 0.5 * (double)(i + 1 + j);
	}
	m = 0.5 * (double)(n + 1);
	for (i = 0; i < n; i++) {
		den += (rank[i] - m) * (rank[i] - m);
		if (i + 1 < n)
			num += (rank[i] - m) * (rank[i + 1] - m);
	}
	free(r);
	free(rank);
	return den > 0 ? num / den : NAN;
}

/* Phi2(z, z; r) - Phi(z)^2 for 0 <= r < 1: (1 / 2 pi) times the
 * integral over theta in [0, asin r] of exp(-z^2 / (1 + sin theta)),
 * Simpson's rule on 64 intervals (the integrand is smooth there). */
static double
orthant_cov(double z, double r)
{
	double a = asin(r), h = a / 64, s = 0;

	for (int i = 0; i <= 64; i++) {
		double f = exp(-z * z / (1 + sin(h * i)));

		s += f * (i == 0 || i == 64 ? 1 : i % 2 ? 4 : 2);
	}
	return s * h / 3 / (2 * M_PI);
}

double
stats_indicator_vif(double rs, double pct, size_t n)
{
	double p = pct / 100, z, rho, rk, sum = 0;

	if (!(rs > 0) || !(p > 0 && p < 1) || n < 2)
		return 1;
	if (rs > 1)
		rs = 1;
	rho = 2 * sin(M_PI * rs / 6);
	if (rho > 0.999)
		rho = 0.999;
	z = stats_norm_quantile(p);
	rk = rho;
	for (size_t k = 1; k < n && rk > 1e-7; k++, rk *= rho)
		sum += (1 - (double)k / (double)n) * orthant_cov(z, rk);
	return 1 + 2 * sum / (p * (1 - p));
}

/* The value at fractional 1-based rank r of sorted[0..n), n >= 1:
 * linear between the neighbouring order statistics, clamped to 1..n. */
static double
sorted_at_rank(const double *sorted, size_t n, double r)
{
	size_t k;
	double f;

	if (!(r > 1))
		return sorted[0];
	if (!(r < (double)n))
		return sorted[n - 1];
	k = (size_t)floor(r);
	f = r - (double)k;
	return f > 0 ? (1 - f) * sorted[k - 1] + f * sorted[k] :
	    sorted[k - 1];
}

int
stats_sample_interval_serial(const double *sorted, size_t n, double pct,
    double estimate, double level, double rs, struct stats_interval *out)
{
	struct stats_rank_ci r;
	double vif, ne, lo, hi;
	size_t nf;

	if (!out || (n && !sorted))
		return -1;
	if (!(rs * sqrt((double)n) >= STATS_SERIAL_Z))
		return stats_sample_interval(sorted, n, pct, estimate, level,
		    out);
	interval_none(out, estimate, NULL);
	vif = stats_indicator_vif(rs, pct, n);
	ne = (double)n / vif;
	nf = (size_t)floor(ne);
	if (stats_quantile_ci(nf, pct, level, STATS_CI_EQUAL_TAILED, &r))
		return -1;
	if (!r.available) {
		out->why = STATS_WHY_SERIAL;
		return 0;
	}
	/* the ranks of nf samples as shares, scaled to n: to the nearest
	 * rank (outward was conservative, 98.8 % for p95 at rho 0.8, n =
	 * 300), or, for an end interpolated between two order statistics
	 * of nf samples (stats_quantile_ci()), to the same fraction of n */
	lo = r.rlo * (double)n / (double)nf;
	hi = r.rhi * (double)n / (double)nf;
	if (r.rlo == (double)r.lo)
		lo = floor(lo + 0.5);
	if (r.rhi == (double)r.hi)
		hi = floor(hi + 0.5);
	out->lo = sorted_at_rank(sorted, n, lo);
	out->hi = sorted_at_rank(sorted, n, hi);
	out->covers = STATS_COVERS_SAMPLES;
	return 0;
}
