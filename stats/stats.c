/*
 * stats.c - the statistics behind pathstat's numbers: sorting/selection,
 * quantile estimators, special functions and distributions, order-
 * statistic intervals, the PRNG and trial bootstrap, trial spread, and
 * the comparison tests.  Pure functions over arrays; contracts are in
 * stats.h.  Sections follow the header's order.
 */
#include "common/compat.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "common/sort.h"
#include "common/parse.h"
#include "common/xalloc.h"

/* log(2 pi), log(sqrt(2 pi)), 1 / sqrt(2) */
#define LN_2PI		1.837877066409345483560659472811
#define LN_SQRT_2PI	0.918938533204672741780329736406
#define SQRT1_2		0.707106781186547524400844362105

/* ---------------------------------------------------------------------
 * Sorting and selection
 */

void
stats_sort(double *x, size_t n)
{
	sort_doubles(x, n);
}

/* A value with where it came from, for rank computations. */
struct tagged {
	double v;	/* the value */
	size_t i;	/* its index in the caller's combined order */
};

static int
cmp_tagged(const void *pa, const void *pb)
{
	const struct tagged *a = pa, *b = pb;

	if (a->v < b->v)
		return -1;
	if (a->v > b->v)
		return 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static inline void
swap_d(double *x, size_t i, size_t j)
{
	double t = x[i];

	x[i] = x[j];
	x[j] = t;
}

static void
insertion_sort_d(double *x, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;

		while (j > 0 && x[j - 1] > v) {
			x[j] = x[j - 1];
			j--;
		}
		x[j] = v;
	}
}

double
stats_select(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	unsigned depth = 0;

	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	while (hi > lo) {
		size_t mid, i, j;
		double pv;

		if (hi - lo < 16) {
			insertion_sort_d(x + lo, hi - lo + 1);
			break;
		}
		if (depth-- == 0) {
			/* introselect fallback: the radix sort is O(n) */
			stats_sort(x + lo, hi - lo + 1);
			break;
		}
		mid = lo + (hi - lo) / 2;
		if (x[mid] < x[lo])
			swap_d(x, mid, lo);
		if (x[hi] < x[lo])
			swap_d(x, hi, lo);
		if (x[hi] < x[mid])
			swap_d(x, hi, mid);
		pv = x[mid];
		/* Hoare partition; x[lo] <= pv <= x[hi] act as sentinels */
		i = lo;
		j = hi;
		for (;;) {
			while (x[i] < pv)
				i++;
			while (x[j] > pv)
				j--;
			if (i >= j)
				break;
			swap_d(x, i, j);
			i++;
			j--;
		}
		/* now x[lo..j] <= pv <= x[j+1..hi] (and i >= j) */
		if (i == j) {
			/* x[i] == pv sits between the two parts */
			if (k == i)
				break;
			if (k < i)
				hi = i - 1;
			else
				lo = i + 1;
		} else if (k <= j) {
			hi = j;
		} else {
			lo = j + 1;
		}
	}
	return x[k];
}

/* Smallest of x[0..n), n >= 1. */
static double
min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

static double
max_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

/* ---------------------------------------------------------------------
 * Special functions: Loader's saddle-point binomial density, log beta,
 * the regularized incomplete beta.
 */

/* log(n!) - log(sqrt(2 pi n) (n/e)^n), exact at the half integers up to
 * 15 (values from mpmath at 40 digits), series above (Loader 2000). */
static double
stirlerr(double n)
{
	static const double halves[31] = {
		0.0,
		0.1534264097200273452913839,	/* 0.5 */
		0.08106146679532725821967026,	/* 1.0 */
		0.0548141210519176538961387,	/* 1.5 */
		0.04134069595540929409382208,	/* 2.0 */
		0.03316287351993628748511051,	/* 2.5 */
		0.02767792568499833914878929,	/* 3.0 */
		0.02374616365629749597133028,	/* 3.5 */
		0.02079067210376509311152277,	/* 4.0 */
		0.01848845053267318523077936,	/* 4.5 */
		0.01664469118982119216319487,	/* 5.0 */
		0.01513497322191737887351384,	/* 5.5 */
		0.01387612882307074799874573,	/* 6.0 */
		0.01281046524292022692425066,	/* 6.5 */
		0.01189670994589177009505572,	/* 7.0 */
		0.01110455975820691732663076,	/* 7.5 */
		0.01041126526197209649747857,	/* 8.0 */
		0.009799416126158803298390373,	/* 8.5 */
		0.009255462182712732917728637,	/* 9.0 */
		0.008768700134139385462955047,	/* 9.5 */
		0.008330563433362871256469319,	/* 10.0 */
		0.007934114564314020547249562,	/* 10.5 */
		0.007573675487951840794972024,	/* 11.0 */
		0.007244554301320383179546197,	/* 11.5 */
		0.006942840107209529865664153,	/* 12.0 */
		0.006665247032707682442356181,	/* 12.5 */
		0.006408994188004207068439631,	/* 13.0 */
		0.006171712263039457647534605,	/* 13.5 */
		0.005951370112758847735624416,	/* 14.0 */
		0.005746216513010115682026102,	/* 14.5 */
		0.00555473355196280137103869,	/* 15.0 */
	};
	const double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260,
	    s3 = 1.0 / 1680, s4 = 1.0 / 1188;
	double nn;

	if (n <= 15.0) {
		nn = n + n;
		if (nn == floor(nn))
			return halves[(int)nn];
		return lgamma(n + 1.0) - (n + 0.5) * log(n) + n - LN_SQRT_2PI;
	}
	nn = n * n;
	if (n > 500)
		return (s0 - s1 / nn) / n;
	if (n > 80)
		return (s0 - (s1 - s2 / nn) / nn) / n;
	if (n > 35)
		return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n;
	return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

/* The deviance term x log(x / np) + np - x, without cancellation. */
static double
bd0(double x, double np)
{
	if (fabs(x - np) < 0.1 * (x + np)) {
		double v = (x - np) / (x + np), s = (x - np) * v, ej, s1;

		if (fabs(s) < DBL_MIN)
			return s;
		ej = 2 * x * v;
		v = v * v;
		for (int j = 1; j < 1000; j++) {
			ej *= v;
			s1 = s + ej / (2 * j + 1);
			if (s1 == s)
				return s1;
			s = s1;
		}
	}
	return x * log(x / np) + np - x;
}

/* log of the binomial density at real x for real n, p with q = 1 - p
 * given separately (Loader 2000; R's dbinom_raw). */
static double
ldbinom(double x, double n, double p, double q)
{
	double lc, lf;

	if (p == 0)
		return x == 0 ? 0 : -INFINITY;
	if (q == 0)
		return x == n ? 0 : -INFINITY;
	if (x == 0) {
		if (n == 0)
			return 0;
		return p < 0.1 ? -bd0(n, n * q) - n * p : n * log(q);
	}
	if (x == n)
		return q < 0.1 ? -bd0(n, n * p) - n * q : n * log(p);
	if (x < 0 || x > n)
		return -INFINITY;
	lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) -
	    bd0(n - x, n * q);
	/* log(2 pi x (n - x) / n); log1p(-x/n) would lose digits near x = n */
	if (x < 0.5 * n)
		lf = LN_2PI + log(x) + log1p(-x / n);
	else
		lf = LN_2PI + log(x) + log((n - x) / n);
	return lc - 0.5 * lf;
}

/* log B(a, b) without the cancellation of lgamma differences (R's lbeta). */
static double
lbeta(double a, double b)
{
	double p = a < b ? a : b, q = a < b ? b : a, corr;

	if (p >= 10) {
		corr = stirlerr(p) + stirlerr(q) - stirlerr(p + q);
		return -0.5 * log(q) + LN_SQRT_2PI + corr +
		    (p - 0.5) * log(p / (p + q)) + q * log1p(-p / (p + q));
	}
	if (q >= 10) {
		corr = stirlerr(q) - stirlerr(p + q);
		return lgamma(p) + corr + p - p * log(p + q) +
		    (q - 0.5) * log1p(-p / (p + q));
	}
	return lgamma(p) + lgamma(q) - lgamma(p + q);
}

/* log of x^a y^b / B(a, b), y = 1 - x given exactly by the caller. */
static double
lbeta_front(double a, double b, double x, double y)
{
	if (a <= 2 || b <= 2)
		return a * log(x) + b * log(y) - lbeta(a, b);
	/* x^(a-1) y^(b-1) / B(a, b) = (a + b - 1) dbinom(a - 1; a + b - 2) */
	return log(a + b - 1) + ldbinom(a - 1, a + b - 2, x, y) + log(x) +
	    log(y);
}

/* The continued fraction of I_x(a, b) (Numerical Recipes' betacf with
 * modified Lentz), to be used for x < (a + 1) / (a + b + 2). */
static double
betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;
	double big = a > b ? a : b;
	long maxit = 1000 + (long)(20 * sqrt(big));

	d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (long m = 1; m <= maxit; m++) {
		double dm = (double)m, m2 = 2 * dm, aa, del;

		aa = dm * (b - dm) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + dm) * (qab + dm) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/*
 * I_x(a, b) into *lower and 1 - I_x(a, b) into *upper, each with full
 * relative accuracy (the one the continued fraction computes is exact,
 * the other is 1 minus it, which is accurate because it is >= 1/2 or
 * so).  y = 1 - x is passed separately so callers with exact y (i/n,
 * binomial q) keep it exact.
 */
static void
betainc2(double a, double b, double x, double y, double *lower,
    double *upper)
{
	double v;

	if (x <= 0) {
		*lower = 0;
		*upper = 1;
		return;
	}
	if (y <= 0) {
		*lower = 1;
		*upper = 0;
		return;
	}
	if (x < (a + 1) / (a + b + 2)) {
		v = exp(lbeta_front(a, b, x, y)) * betacf(a, b, x) / a;
		*lower = v;
		*upper = 1 - v;
	} else {
		v = exp(lbeta_front(b, a, y, x)) * betacf(b, a, y) / b;
		*upper = v;
		*lower = 1 - v;
	}
}

double
stats_betainc(double a, double b, double x)
{
	double lo, up;

	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1))
		return NAN;
	betainc2(a, b, x, 1 - x, &lo, &up);
	return lo;
}

double
stats_betainc_upper(double a, double b, double x)
{
	double lo, up;

	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1))
		return NAN;
	betainc2(a, b, x, 1 - x, &lo, &up);
	return up;
}

double
stats_binom_pmf(double k, double n, double p)
{
	if (!(p >= 0 && p <= 1) || !(n >= 0) || k != floor(k) ||
	    n != floor(n))
		return NAN;
	return exp(ldbinom(k, n, p, 1 - p));
}

double
stats_binom_cdf(double k, double n, double p)
{
	double lo, up;

	if (!(p >= 0 && p <= 1) || !(n >= 0) || n != floor(n) || isnan(k))
		return NAN;
	k = floor(k);
	if (k < 0)
		return 0;
	if (k >= n)
		return 1;
	/* P(B <= k) = I_{1-p}(n - k, k + 1) */
	betainc2(n - k, k + 1, 1 - p, p, &lo, &up);
	return lo;
}

double
stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z * SQRT1_2);
}

double
stats_norm_sf(double z)
{
	return 0.5 * erfc(z * SQRT1_2);
}

/* Acklam's rational approximation (rel. error 1.2e-9) for p <= 0.5,
 * polished by two Halley steps on erfc. */
static double
norm_quantile_lower(double p)
{
	static const double a[6] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[5] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[6] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[4] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double q, r, z;

	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		z = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		    q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) *
		    q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		z = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) *
		    r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r +
		    b[3]) * r + b[4]) * r + 1);
	}
	for (int i = 0; i < 2; i++) {
		double e = stats_norm_cdf(z) - p;
		double u = e * sqrt(2 * M_PI) * exp(z * z / 2);

		z = z - u / (1 + z * u / 2);
	}
	return z;
}

double
stats_norm_quantile(double p)
{
	if (!(p > 0 && p < 1))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (p <= 0.5)
		return norm_quantile_lower(p);
	return -norm_quantile_lower(1 - p);
}

/* P(T > t) for t >= 0: (1/2) I_{df/(df+t^2)}(df/2, 1/2). */
static double
t_tail(double t, double df)
{
	double lo, up, t2 = t * t;

	if (isinf(df))
		return stats_norm_sf(t);
	if (isinf(t))
		return 0;
	betainc2(df / 2, 0.5, df / (df + t2), t2 / (df + t2), &lo, &up);
	return 0.5 * lo;
}

double
stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (t >= 0)
		return 1 - t_tail(t, df);
	return t_tail(-t, df);
}

double
stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, tail;

	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	tail = 1 - p;
	while (t_tail(hi, df) > tail) {
		lo = hi;
		hi *= 2;
		if (hi > 1e300)
			return INFINITY;
	}
	/* bisection: t_tail is decreasing; 200 halvings reach the ulp */
	for (int i = 0; i < 200; i++) {
		double mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (t_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* ---------------------------------------------------------------------
 * Quantile estimators
 */

static const char *const estimator_names[] = {
	[STATS_EST_TYPE7] = "type7",
	[STATS_EST_OHA] = "oha",
	[STATS_EST_HD] = "hd",
	[STATS_EST_MEAN] = "mean",
};

const char *
stats_estimator_name(enum stats_estimator est)
{
	if ((size_t)est >= ARRAY_SIZE(estimator_names))
		return "?";
	return estimator_names[est];
}

int
stats_estimator_parse(const char *s, enum stats_estimator *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(estimator_names); i++) {
		if (s && !strcmp(s, estimator_names[i])) {
			*out = (enum stats_estimator)i;
			return 0;
		}
	}
	return -1;
}

static bool
pct_ok(double pct)
{
	return pct >= 0 && pct <= 100;
}

/* numpy's _lerp: exact at both ends and monotone in t. */
static double
lerp(double a, double b, double t)
{
	double diff = b - a;

	if (t >= 0.5)
		return b - diff * (1 - t);
	return a + diff * t;
}

double
stats_quantile_type7(const double *sorted, size_t n, double pct)
{
	double h, fl;
	size_t i;

	if (n == 0 || !pct_ok(pct))
		return NAN;
	h = (double)(n - 1) * (pct / 100.0);
	fl = floor(h);
	i = (size_t)fl;
	if (i >= n - 1)
		return sorted[n - 1];
	return lerp(sorted[i], sorted[i + 1], h - fl);
}

size_t
stats_oha_index(double pct, size_t n)
{
	double v = pct / 100.0 * (double)n;
	size_t i;

	if (!(v > 0))
		return 0;
	i = v >= (double)n ? n : (size_t)v;
	return i >= n ? n - 1 : i;
}

double
stats_quantile_oha(const double *sorted, size_t n, double pct)
{
	if (n == 0 || !pct_ok(pct))
		return NAN;
	return sorted[stats_oha_index(pct, n)];
}

/*
 * Harrell-Davis weights for n sorted values at fraction p (0 < p < 1):
 * returns the window length w and sets *first to the 0-based rank of
 * the first weighted value and *wout to a malloc()ed array of w weights
 * (the caller frees it).  Ranks outside the window carry less than 1e-17
 * of total weight.
 */
static size_t
hd_weights(size_t n, double p, size_t *first, double **wout)
{
	const double eps = 1e-17;
	double a = (double)(n + 1) * p, b = (double)(n + 1) * (1 - p);
	double dn = (double)n, lo, up, prev_lo, prev_up, *w;
	size_t ilo, ihi, l, h;

	/* ilo: largest i with I(i/n) < eps (I(0) = 0 qualifies) */
	l = 0;
	h = n;
	while (h - l > 1) {
		size_t m = l + (h - l) / 2;

		betainc2(a, b, (double)m / dn, (double)(n - m) / dn, &lo, &up);
		if (lo < eps)
			l = m;
		else
			h = m;
	}
	ilo = l;
	/* ihi: smallest i with 1 - I(i/n) < eps (i = n qualifies) */
	l = ilo;
	h = n;
	while (h - l > 1) {
		size_t m = l + (h - l) / 2;

		betainc2(a, b, (double)m / dn, (double)(n - m) / dn, &lo, &up);
		if (up < eps)
			h = m;
		else
			l = m;
	}
	ihi = h;
	/* weights W_i for i in (ilo, ihi], value rank i - 1 (0-based) */
	w = xmalloc((ihi - ilo) * sizeof(*w));
	betainc2(a, b, (double)ilo / dn, (double)(n - ilo) / dn, &prev_lo,
	    &prev_up);
	for (size_t i = ilo + 1; i <= ihi; i++) {
		betainc2(a, b, (double)i / dn, (double)(n - i) / dn, &lo, &up);
		/* difference the tail that is small, so nothing cancels */
		if (prev_up < 0.5)
			w[i - ilo - 1] = prev_up - up;
		else
			w[i - ilo - 1] = lo - prev_lo;
		prev_lo = lo;
		prev_up = up;
	}
	*first = ilo;
	*wout = w;
	return ihi - ilo;
}

static double
dot(const double *w, const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += w[i] * x[i];
	return s;
}

double
stats_quantile_hd(const double *sorted, size_t n, double pct)
{
	double *w = NULL, r;
	size_t first, len;

	if (n == 0 || !pct_ok(pct))
		return NAN;
	if (n == 1 || pct == 0)
		return sorted[0];
	if (pct == 100)
		return sorted[n - 1];
	len = hd_weights(n, pct / 100.0, &first, &w);
	r = dot(w, sorted + first, len);
	free(w);
	return r;
}

double
stats_mean(const double *x, size_t n)
{
	double s = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	if (isinf(s)) {
		/* finite values near DBL_MAX overflow the sum but not the
		 * mean: add each value's share instead (a true infinity
		 * among them keeps it infinite) */
		s = 0;
		for (size_t i = 0; i < n; i++)
			s += x[i] / (double)n;
		return s;
	}
	return s / (double)n;
}

double
stats_quantile(enum stats_estimator est, const double *sorted, size_t n,
    double pct)
{
	switch (est) {
	case STATS_EST_TYPE7:
		return stats_quantile_type7(sorted, n, pct);
	case STATS_EST_OHA:
		return stats_quantile_oha(sorted, n, pct);
	case STATS_EST_HD:
		return stats_quantile_hd(sorted, n, pct);
	case STATS_EST_MEAN:
		return stats_mean(sorted, n);
	}
	return NAN;
}

/* Harrell-Davis weights kept between calls with the same n and pct (the
 * bootstrap's replicates). */
struct hd_cache {
	size_t n;		/* sample size the weights are for, 0: none */
	double pct;		/* percent they are for */
	size_t first;		/* 0-based rank of the first weight */
	size_t len;		/* weights */
	double *w;		/* owned */
	double *wcum;		/* owned, len + 1 partial sums of w */
};

#define HD_CACHE_INIT { 0, 0, 0, 0, NULL, NULL }

static void
hd_cache_release(struct hd_cache *c)
{
	FREE_AND_NULL(c->w);
	FREE_AND_NULL(c->wcum);
	c->n = 0;
}

/* Make c hold the weights for n values at pct (0 < pct < 100). */
static void
hd_cache_get(struct hd_cache *c, size_t n, double pct)
{
	if (c->n == n && c->pct == pct)
		return;
	hd_cache_release(c);
	c->len = hd_weights(n, pct / 100.0, &c->first, &c->w);
	c->wcum = xmalloc((c->len + 1) * sizeof(*c->wcum));
	c->wcum[0] = 0;
	for (size_t i = 0; i < c->len; i++)
		c->wcum[i + 1] = c->wcum[i] + c->w[i];
	c->n = n;
	c->pct = pct;
}

/* Quantile of unsorted x (reordered); hd may be NULL. */
static double
quantile_unsorted(enum stats_estimator est, double *x, size_t n, double pct,
    struct hd_cache *hd)
{
	struct hd_cache local = HD_CACHE_INIT;
	double h, fl, v, r;
	size_t i;

	if (n == 0 || (est != STATS_EST_MEAN && !pct_ok(pct)))
		return NAN;
	switch (est) {
	case STATS_EST_MEAN:
		return stats_mean(x, n);
	case STATS_EST_OHA:
		return stats_select(x, n, stats_oha_index(pct, n));
	case STATS_EST_TYPE7:
		h = (double)(n - 1) * (pct / 100.0);
		fl = floor(h);
		i = (size_t)fl;
		if (i >= n - 1)
			return max_of(x, n);
		v = stats_select(x, n, i);
		return lerp(v, min_of(x + i + 1, n - i - 1), h - fl);
	case STATS_EST_HD:
		if (n == 1 || pct == 0)
			return min_of(x, n);
		if (pct == 100)
			return max_of(x, n);
		if (!hd)
			hd = &local;
		hd_cache_get(hd, n, pct);
		stats_select(x, n, hd->first);
		if (hd->len > 1)
			stats_select(x + hd->first, n - hd->first,
			    hd->len - 1);
		stats_sort(x + hd->first, hd->len);
		r = dot(hd->w, x + hd->first, hd->len);
		hd_cache_release(&local);
		return r;
	}
	return NAN;
}

double
stats_quantile_unsorted(enum stats_estimator est, double *x, size_t n,
    double pct)
{
	return quantile_unsorted(est, x, n, pct, NULL);
}

/* ---------------------------------------------------------------------
 * Statistic names
 */

static int
name_fail(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -1;
}

int
stats_name_parse(const char *s, struct stats_name *out, const char **why)
{
	const char *p;
	size_t before = 0, after = 0;
	bool dot_seen = false;
	double v;

	if (!s || !*s)
		return name_fail(why, "empty statistic name");
	if (!strcmp(s, "min") || !strcmp(s, "max") || !strcmp(s, "mean") ||
	    !strcmp(s, "n")) {
		out->kind = s[0] == 'n' ? STATS_NAME_N :
		    !strcmp(s, "min") ? STATS_NAME_MIN :
		    !strcmp(s, "max") ? STATS_NAME_MAX : STATS_NAME_MEAN;
		out->pct = NAN;
		return 0;
	}
	if (!strcmp(s, "median")) {
		out->kind = STATS_NAME_PCT;
		out->pct = 50;
		return 0;
	}
	if (s[0] != 'p')
		return name_fail(why, "expected p<percent>, min, max, mean, "
		    "median or n");
	p = s + 1;
	if (*p == '-')
		return name_fail(why, "percent below 0");
	if (!*p)
		return name_fail(why, "missing percent after 'p'");
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			if (dot_seen)
				after++;
			else
				before++;
		} else if (*p == '.' && !dot_seen) {
			dot_seen = true;
		} else {
			return name_fail(why,
			    "percent is not a decimal number");
		}
	}
	if (before == 0 || (dot_seen && after == 0))
		return name_fail(why, "percent is not a decimal number");
	if (parse_double(s + 1, 0, HUGE_VAL, &v) < 0)
		return name_fail(why, "percent is not a decimal number");
	if (v > 100)
		return name_fail(why, "percent above 100");
	out->kind = STATS_NAME_PCT;
	out->pct = v;
	return 0;
}

/* ---------------------------------------------------------------------
 * Order-statistic confidence intervals
 */

int
stats_quantile_ci(size_t n, double pct, double level,
    enum stats_ci_rule rule, struct stats_rank_ci *out)
{
	double p, q, dn, mean, sd, *pmf = NULL, alpha, mass;
	size_t klo, khi, w;
	int ret = -1;

	out->available = false;
	out->lo = out->hi = 0;
	out->coverage = NAN;
	if (n == 0 || !pct_ok(pct) || !(level > 0 && level < 1))
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
		pmf[k - klo] = exp(ldbinom((double)k, dn, p, q));

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

/* ---------------------------------------------------------------------
 * PRNG: splitmix64 seeding, xoshiro256** (Blackman & Vigna 2018)
 */

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void
stats_rng_seed(struct stats_rng *rng, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&x);
	if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]))
		rng->s[0] = 1;
}

uint64_t
stats_rng_next(struct stats_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

double
stats_rng_uniform(struct stats_rng *rng)
{
	return (double)(stats_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t
stats_rng_below(struct stats_rng *rng, uint64_t bound)
{
	if (bound <= 1)
		return 0;
	if (bound <= UINT32_MAX) {
		uint32_t b = (uint32_t)bound;
		uint64_t m = (stats_rng_next(rng) >> 32) * b;
		uint32_t l = (uint32_t)m;

		if (l < b) {
			uint32_t t = (uint32_t)(-b) % b;

			while (l < t) {
				m = (stats_rng_next(rng) >> 32) * b;
				l = (uint32_t)m;
			}
		}
		return m >> 32;
	} else {
		uint64_t t = (-bound) % bound, r;

		do
			r = stats_rng_next(rng);
		while (r < t);
		return r % bound;
	}
}

double
stats_rng_normal(struct stats_rng *rng)
{
	/* Box-Muller; u1 in (0, 1] keeps the log finite */
	double u1 = 1.0 - stats_rng_uniform(rng);
	double u2 = stats_rng_uniform(rng);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double
stats_rng_exponential(struct stats_rng *rng)
{
	return -log1p(-stats_rng_uniform(rng));
}

/* ---------------------------------------------------------------------
 * Bootstrap
 */

double
stats_delta(double a, double b)
{
	return a - b;
}

double
stats_ratio(double a, double b)
{
	return b == 0 ? NAN : a / b;
}

double
stats_growth(double delta_p99, double delta_p50)
{
	return stats_ratio(delta_p99, delta_p50);
}

/*
 * Index i of the value holding rank k (0-based) in the multiset with
 * cnt[i] copies of value i, i < len, N = sum of cnt.  Walks from the
 * nearer end.
 */
static size_t
rank_index(const uint32_t *cnt, size_t len, size_t N, size_t k)
{
	size_t acc;

	if (k < N / 2) {
		acc = 0;
		for (size_t i = 0; i < len; i++) {
			acc += cnt[i];
			if (acc > k)
				return i;
		}
		return len - 1;
	}
	acc = N;
	for (size_t i = len; i-- > 0;) {
		acc -= cnt[i];
		if (acc <= k)
			return i;
	}
	return 0;
}

/*
 * The statistic of the multiset holding cnt[i] copies of sorted[i]
 * (i < len, N = sum of cnt >= 1): what quantile_unsorted() gives for the
 * expanded array, in O(len) without expanding or selecting.
 */
static double
quantile_counts(enum stats_estimator est, const double *sorted,
    const uint32_t *cnt, size_t len, size_t N, double pct,
    struct hd_cache *hd)
{
	double h, fl, s = 0;
	size_t i, r, end;

	switch (est) {
	case STATS_EST_MEAN:
		for (i = 0; i < len; i++)
			s += (double)cnt[i] * sorted[i];
		return s / (double)N;
	case STATS_EST_OHA:
		return sorted[rank_index(cnt, len, N, stats_oha_index(pct, N))];
	case STATS_EST_TYPE7:
		h = (double)(N - 1) * (pct / 100.0);
		fl = floor(h);
		r = (size_t)fl;
		if (r >= N - 1)
			return sorted[rank_index(cnt, len, N, N - 1)];
		return lerp(sorted[rank_index(cnt, len, N, r)],
		    sorted[rank_index(cnt, len, N, r + 1)], h - fl);
	case STATS_EST_HD:
		if (N == 1 || pct == 0)
			return sorted[rank_index(cnt, len, N, 0)];
		if (pct == 100)
			return sorted[rank_index(cnt, len, N, N - 1)];
		hd_cache_get(hd, N, pct);
		end = hd->first + hd->len;
		r = 0;
		for (i = 0; i < len && r < end; i++) {
			size_t lo = r, hi = r + cnt[i];

			r = hi;
			if (hi <= hd->first)
				continue;
			if (lo < hd->first)
				lo = hd->first;
			if (hi > end)
				hi = end;
			s += sorted[i] * (hd->wcum[hi - hd->first] -
			    hd->wcum[lo - hd->first]);
		}
		return s;
	}
	return NAN;
}

/*
 * Per-group state of a bootstrap run.  Resampling is done on counts: a
 * draw of sample j of trial t adds one to the count of its value in the
 * sorted pool, and the statistic is read off the counts (rank walk), so
 * a replicate costs O(N) draws plus O(N0) sequential work, no sort or
 * selection.
 */
struct boot_group {
	const struct stats_trials *g;	/* borrowed */
	size_t nall;			/* samples in all trials, N0 */
	double *sorted;			/* each trial sorted, one array */
	size_t *off;			/* trial t starts at off[t] */
	double *all;			/* all samples sorted (pooled) */
	uint32_t *pos;			/* sorted[j] is all[pos[j]] */
	uint32_t *cnt;			/* counts, nall entries */
	double *tstat;			/* per-trial statistic */
	struct hd_cache hd;		/* HD weights by sample size */
};

/* Merge the sorted trials of bg into bg->all, recording bg->pos: a
 * T-way merge for up to 16 trials, a sort of tagged values above. */
static void
boot_merge(struct boot_group *bg)
{
	size_t T = bg->g->ntrials, *head;

	if (T > 16) {
		struct tagged *tg = xmalloc(bg->nall * sizeof(*tg));

		for (size_t j = 0; j < bg->nall; j++) {
			tg[j].v = bg->sorted[j];
			tg[j].i = j;
		}
		qsort(tg, bg->nall, sizeof(*tg), cmp_tagged);
		for (size_t r = 0; r < bg->nall; r++) {
			bg->all[r] = tg[r].v;
			bg->pos[tg[r].i] = (uint32_t)r;
		}
		free(tg);
		return;
	}
	head = xcalloc(T, sizeof(*head));

	for (size_t r = 0; r < bg->nall; r++) {
		size_t best = SIZE_MAX;
		double bv = 0;

		/* ties to the lower trial */
		for (size_t t = 0; t < T; t++) {
			double v;

			if (head[t] == bg->g->n[t])
				continue;
			v = bg->sorted[bg->off[t] + head[t]];
			if (best == SIZE_MAX || v < bv) {
				best = t;
				bv = v;
			}
		}
		bg->all[r] = bv;
		bg->pos[bg->off[best] + head[best]++] = (uint32_t)r;
	}
	free(head);
}

static int
boot_group_init(struct boot_group *bg, const struct stats_trials *g,
    const struct stats_boot_opts *o)
{
	memset(bg, 0, sizeof(*bg));
	bg->g = g;
	if (!g || g->ntrials == 0 || !g->trial || !g->n)
		return -1;
	for (size_t t = 0; t < g->ntrials; t++) {
		if (g->n[t] == 0 || !g->trial[t] ||
		    g->n[t] > UINT32_MAX - bg->nall)
			return -1;
		bg->nall += g->n[t];
	}
	bg->sorted = xmalloc(bg->nall * sizeof(double));
	bg->off = xmalloc(g->ntrials * sizeof(size_t));
	bg->cnt = xcalloc(bg->nall, sizeof(uint32_t));
	bg->tstat = xmalloc(g->ntrials * sizeof(double));
	for (size_t t = 0, len = 0; t < g->ntrials; t++) {
		double *seg = bg->sorted + len;

		bg->off[t] = len;
		memcpy(seg, g->trial[t], g->n[t] * sizeof(double));
		stats_sort(seg, g->n[t]);
		bg->tstat[t] = stats_quantile(o->est, seg, g->n[t], o->pct);
		len += g->n[t];
	}
	if (o->pool == STATS_POOL_POOLED) {
		bg->all = xmalloc(bg->nall * sizeof(double));
		bg->pos = xmalloc(bg->nall * sizeof(uint32_t));
		boot_merge(bg);
	}
	return 0;
}

static void
boot_group_release(struct boot_group *bg)
{
	free(bg->sorted);
	free(bg->off);
	free(bg->all);
	free(bg->pos);
	free(bg->cnt);
	free(bg->tstat);
	hd_cache_release(&bg->hd);
	memset(bg, 0, sizeof(*bg));
}

/* The statistic on the data as given. */
static double
boot_point(struct boot_group *bg, const struct stats_boot_opts *o)
{
	if (o->pool == STATS_POOL_PER_TRIAL)
		return stats_mean(bg->tstat, bg->g->ntrials);
	return stats_quantile(o->est, bg->all, bg->nall, o->pct);
}

/* One bootstrap replicate of the statistic. */
static double
boot_replicate(struct boot_group *bg, const struct stats_boot_opts *o,
    struct stats_rng *rng)
{
	const struct stats_trials *g = bg->g;
	size_t T = g->ntrials, len = 0;
	bool within = o->resample == STATS_RESAMPLE_TWO_STAGE;
	double s = 0;

	if (o->pool == STATS_POOL_PER_TRIAL) {
		for (size_t i = 0; i < T; i++) {
			size_t t = stats_rng_below(rng, T), m = g->n[t];

			if (!within) {
				s += bg->tstat[t];
				continue;
			}
			memset(bg->cnt, 0, m * sizeof(*bg->cnt));
			for (size_t j = 0; j < m; j++)
				bg->cnt[stats_rng_below(rng, m)]++;
			s += quantile_counts(o->est, bg->sorted + bg->off[t],
			    bg->cnt, m, m, o->pct, &bg->hd);
		}
		return s / (double)T;
	}
	memset(bg->cnt, 0, bg->nall * sizeof(*bg->cnt));
	for (size_t i = 0; i < T; i++) {
		size_t t = stats_rng_below(rng, T), m = g->n[t];
		const uint32_t *pos = bg->pos + bg->off[t];

		if (within) {
			for (size_t j = 0; j < m; j++)
				bg->cnt[pos[stats_rng_below(rng, m)]]++;
		} else {
			for (size_t j = 0; j < m; j++)
				bg->cnt[pos[j]]++;
		}
		len += m;
	}
	return quantile_counts(o->est, bg->all, bg->cnt, bg->nall, len, o->pct,
	    &bg->hd);
}

static double
contrast(enum stats_contrast c, double a, double b)
{
	return c == STATS_RATIO ? stats_ratio(a, b) : stats_delta(a, b);
}

int
stats_bootstrap(const struct stats_trials *a, const struct stats_trials *b,
    const struct stats_boot_opts *opts, struct stats_boot_result *out)
{
	struct stats_boot_opts o = *opts;
	struct boot_group ga, gb;
	struct stats_rng rng;
	double *rep = NULL, alpha, m = 0, ss = 0;
	size_t nvalid = 0;
	int ret = -1;

	memset(&ga, 0, sizeof(ga));
	memset(&gb, 0, sizeof(gb));
	out->estimate = out->lo = out->hi = out->se = NAN;
	out->B = out->nvalid = 0;
	if (o.B == 0)
		o.B = STATS_BOOT_B_DEFAULT;
	if (o.level == 0)
		o.level = 0.95;
	if (!(o.level > 0 && o.level < 1))
		goto cleanup;
	if (o.est != STATS_EST_MEAN && !pct_ok(o.pct))
		goto cleanup;
	if (boot_group_init(&ga, a, &o) < 0 || boot_group_init(&gb, b, &o) < 0)
		goto cleanup;

	out->estimate = contrast(o.contrast, boot_point(&ga, &o),
	    boot_point(&gb, &o));
	stats_rng_seed(&rng, o.seed);
	rep = xmalloc(o.B * sizeof(*rep));
	for (size_t r = 0; r < o.B; r++) {
		double va = boot_replicate(&ga, &o, &rng);
		double vb = boot_replicate(&gb, &o, &rng);
		double c = contrast(o.contrast, va, vb);

		if (isfinite(c))
			rep[nvalid++] = c;
	}
	out->B = o.B;
	out->nvalid = nvalid;
	if (nvalid >= 2) {
		/* Welford for the standard deviation */
		for (size_t i = 0; i < nvalid; i++) {
			double d = rep[i] - m;

			m += d / (double)(i + 1);
			ss += d * (rep[i] - m);
		}
		out->se = sqrt(ss / (double)(nvalid - 1));
	}
	if (nvalid >= 2 && nvalid * 2 >= o.B) {
		alpha = 1 - o.level;
		stats_sort(rep, nvalid);
		out->lo = stats_quantile_type7(rep, nvalid, 100 * alpha / 2);
		out->hi = stats_quantile_type7(rep, nvalid,
		    100 * (1 - alpha / 2));
	}
	ret = 0;
cleanup:
	free(rep);
	boot_group_release(&ga);
	boot_group_release(&gb);
	return ret;
}

/* ---------------------------------------------------------------------
 * Trial spread and outliers
 */

double
stats_median(const double *x, size_t n)
{
	double *c, r;

	if (n == 0)
		return NAN;
	c = xmalloc(n * sizeof(*c));
	memcpy(c, x, n * sizeof(*c));
	r = quantile_unsorted(STATS_EST_TYPE7, c, n, 50, NULL);
	free(c);
	return r;
}

int
stats_spread(const double *x, size_t n, struct stats_spread *out, bool *flag,
    double *score)
{
	double *s = NULL, *lg = NULL, *dev = NULL, med_log, mad;
	bool positive = true;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (flag)
			flag[i] = false;
		if (score)
			score[i] = NAN;
	}
	if (n == 0)
		goto cleanup;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	out->n = n;
	out->mean = stats_mean(x, n);
	out->median = stats_quantile_type7(s, n, 50);
	out->min = s[0];
	out->max = s[n - 1];
	out->max_dev_pct = 0;
	for (size_t i = 0; i < n; i++) {
		double d = 100 * fabs(x[i] - out->mean) / fabs(out->mean);

		if (!(d <= out->max_dev_pct))
			out->max_dev_pct = d;	/* NaN propagates */
		if (!(x[i] > 0) || !isfinite(x[i]))
			positive = false;
	}
	out->rule = STATS_OUTLIER_NONE;
	ret = 0;
	if (n < 3 || !positive)
		goto cleanup;

	mad = 0;
	med_log = 0;
	if (n >= 4) {
		lg = xmalloc(n * sizeof(*lg));
		dev = xmalloc(n * sizeof(*dev));
		for (size_t i = 0; i < n; i++)
			lg[i] = log(x[i]);
		med_log = stats_median(lg, n);
		for (size_t i = 0; i < n; i++)
			dev[i] = fabs(lg[i] - med_log);
		mad = stats_median(dev, n);
	}
	if (n >= 4 && mad > 0) {
		out->rule = STATS_OUTLIER_ROBUST_Z;
		for (size_t i = 0; i < n; i++) {
			double z = (lg[i] - med_log) / (1.4826 * mad);
			bool f = fabs(z) >= STATS_OUTLIER_Z;

			if (score)
				score[i] = z;
			if (flag)
				flag[i] = f;
			out->noutliers += f;
		}
	} else {
		out->rule = STATS_OUTLIER_RATIO;
		for (size_t i = 0; i < n; i++) {
			double r = x[i] / out->median;
			bool f = r >= STATS_OUTLIER_RATIO_MAX ||
			    r <= 1 / STATS_OUTLIER_RATIO_MAX;

			if (score)
				score[i] = r;
			if (flag)
				flag[i] = f;
			out->noutliers += f;
		}
	}
cleanup:
	free(s);
	free(lg);
	free(dev);
	return ret;
}

/* ---------------------------------------------------------------------
 * Comparisons
 */

/*
 * Average ranks (1-based, ties get their mean rank) of the values
 * a[0..na) followed by b[0..nb) into rank[0..na+nb).  Returns the tie
 * term sum(t^3 - t) over groups of ties; *ties says if there were any.
 */
static double
rank_avg(const double *a, size_t na, const double *b, size_t nb,
    double *rank, bool *ties)
{
	size_t n = na + nb;
	struct tagged *t = xmalloc(n * sizeof(*t));
	double tie_term = 0;

	for (size_t i = 0; i < na; i++) {
		t[i].v = a[i];
		t[i].i = i;
	}
	for (size_t i = 0; i < nb; i++) {
		t[na + i].v = b[i];
		t[na + i].i = na + i;
	}
	qsort(t, n, sizeof(*t), cmp_tagged);
	*ties = false;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		double r, c;

		while (j < n && t[j].v == t[i].v)
			j++;
		r = ((double)i + 1 + (double)j) / 2;	/* mean of i+1..j */
		c = (double)(j - i);
		if (j - i > 1) {
			*ties = true;
			tie_term += c * c * c - c;
		}
		for (size_t k = i; k < j; k++)
			rank[t[k].i] = r;
		i = j;
	}
	free(t);
	return tie_term;
}

/* P(U >= u) for the Mann-Whitney U of samples of sizes m and n without
 * ties: the null distribution by the recursion p_{i,j}(u) =
 * i/(i+j) p_{i-1,j}(u - j) + j/(i+j) p_{i,j-1}(u), rows over i. */
static double
mw_exact_sf(size_t m, size_t n, double u)
{
	size_t a = m < n ? m : n, bsz = m < n ? n : m, len = a * bsz + 1;
	double *prev, *cur, *tmp, sf = 0;

	/* rows indexed by j in 0..a, each a vector over u in 0..len-1 */
	prev = xcalloc((a + 1) * len, sizeof(double));
	cur = xcalloc((a + 1) * len, sizeof(double));
	for (size_t j = 0; j <= a; j++)
		prev[j * len] = 1;		/* i = 0: U = 0 */
	for (size_t i = 1; i <= bsz; i++) {
		cur[0] = 1;			/* j = 0: U = 0 */
		memset(cur + 1, 0, (len - 1) * sizeof(double));
		for (size_t j = 1; j <= a; j++) {
			double *c = cur + j * len;
			const double *up = prev + j * len;
			const double *left = cur + (j - 1) * len;
			double wi = (double)i / (double)(i + j);
			double wj = (double)j / (double)(i + j);
			size_t top = i * j;

			for (size_t v = 0; v <= top; v++) {
				/* X (size i) largest: it beats all j of Y */
				double pv = v >= j ? up[v - j] : 0;
				double pl = v <= (i * (j - 1)) ? left[v] : 0;

				c[v] = wi * pv + wj * pl;
			}
			for (size_t v = top + 1; v < len; v++)
				c[v] = 0;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	{
		const double *d = prev + a * len;

		for (size_t v = len; v-- > 0;) {
			if ((double)v < u)
				break;
			sf += d[v];
		}
	}
	free(prev);
	free(cur);
	return sf;
}

int
stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
    enum stats_mw_method method, struct stats_test *out)
{
	double *rank = NULL, rx = 0, tie_term, u1, u2, u, n1, n2, n, mu, s;
	bool ties;

	out->statistic = out->p = out->df = out->effect = NAN;
	out->exact = false;
	if (nx == 0 || ny == 0)
		return -1;
	rank = xmalloc((nx + ny) * sizeof(*rank));
	tie_term = rank_avg(x, nx, y, ny, rank, &ties);
	for (size_t i = 0; i < nx; i++)
		rx += rank[i];
	free(rank);
	n1 = (double)nx;
	n2 = (double)ny;
	n = n1 + n2;
	u1 = rx - n1 * (n1 + 1) / 2;
	u2 = n1 * n2 - u1;
	u = u1 > u2 ? u1 : u2;
	out->statistic = u1;
	out->effect = u2 / (n1 * n2);
	if (method == STATS_MW_EXACT && (ties || nx * ny > 2500))
		return -1;
	if (method != STATS_MW_ASYMPTOTIC && !ties && nx * ny <= 2500) {
		out->exact = true;
		out->p = 2 * mw_exact_sf(nx, ny, u);
	} else {
		mu = n1 * n2 / 2;
		s = sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
		out->p = s > 0 ? 2 * stats_norm_sf((u - mu - 0.5) / s) : 1;
	}
	if (out->p > 1)
		out->p = 1;
	return 0;
}

int
stats_brunner_munzel(const double *x, size_t nx, const double *y, size_t ny,
    struct stats_test *out)
{
	double *rc = NULL, *rx = NULL, *ry = NULL;
	double mcx = 0, mcy = 0, mx = 0, my = 0, sx = 0, sy = 0, n1, n2;
	double var, dfn, dfd;
	bool ties;

	out->statistic = out->p = out->df = out->effect = NAN;
	out->exact = false;
	if (nx < 2 || ny < 2)
		return -1;
	rc = xmalloc((nx + ny) * sizeof(*rc));
	rx = xmalloc(nx * sizeof(*rx));
	ry = xmalloc(ny * sizeof(*ry));
	rank_avg(x, nx, y, ny, rc, &ties);
	rank_avg(x, nx, NULL, 0, rx, &ties);
	rank_avg(y, ny, NULL, 0, ry, &ties);
	n1 = (double)nx;
	n2 = (double)ny;
	for (size_t i = 0; i < nx; i++) {
		mcx += rc[i];
		mx += rx[i];
	}
	for (size_t i = 0; i < ny; i++) {
		mcy += rc[nx + i];
		my += ry[i];
	}
	mcx /= n1;
	mcy /= n2;
	mx /= n1;
	my /= n2;
	for (size_t i = 0; i < nx; i++) {
		double d = rc[i] - rx[i] - mcx + mx;

		sx += d * d;
	}
	for (size_t i = 0; i < ny; i++) {
		double d = rc[nx + i] - ry[i] - mcy + my;

		sy += d * d;
	}
	sx /= n1 - 1;
	sy /= n2 - 1;
	free(rc);
	free(rx);
	free(ry);

	out->effect = (mcy - (n2 + 1) / 2) / n1;
	var = n1 * sx + n2 * sy;
	if (var == 0) {
		double diff = mcy - mcx;

		out->statistic = diff > 0 ? INFINITY : diff < 0 ? -INFINITY :
		    NAN;
		return 0;
	}
	out->statistic = n1 * n2 * (mcy - mcx) / ((n1 + n2) * sqrt(var));
	dfn = var * var;
	dfd = (n1 * sx) * (n1 * sx) / (n1 - 1) +
	    (n2 * sy) * (n2 * sy) / (n2 - 1);
	out->df = dfn / dfd;
	out->p = 2 * t_tail(fabs(out->statistic), out->df);
	if (out->p > 1)
		out->p = 1;
	return 0;
}

void
stats_holm(double *p, size_t n)
{
	struct tagged *t = xmalloc((n ? n : 1) * sizeof(*t));
	size_t m = 0;
	double run = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(p[i]))
			continue;
		t[m].v = p[i];
		t[m].i = i;
		m++;
	}
	qsort(t, m, sizeof(*t), cmp_tagged);
	for (size_t j = 0; j < m; j++) {
		double adj = (double)(m - j) * t[j].v;

		if (adj > 1)
			adj = 1;
		if (adj > run)
			run = adj;
		p[t[j].i] = run;
	}
	free(t);
}

/* sum k(k-1)(2k+5) over groups of equal values in x[0..n). */
static double
sen_tie_sum(const double *x, size_t n)
{
	double *s = xmalloc(n * sizeof(*s)), sum = 0;

	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		double k;

		while (j < n && s[j] == s[i])
			j++;
		k = (double)(j - i);
		if (j - i > 1)
			sum += k * (k - 1) * (2 * k + 5);
		i = j;
	}
	free(s);
	return sum;
}

int
stats_theil_sen(const double *x, const double *y, size_t n, double level,
    struct stats_theil_sen *out)
{
	double *sl = NULL, dn, z, sig, r;
	size_t nt = 0;
	long ru, rl;
	int ret = -1;

	out->slope = out->intercept = out->lo = out->hi = NAN;
	out->nslopes = 0;
	if (n < 2 || n > STATS_THEIL_SEN_MAX_N || !(level > 0 && level < 1))
		goto cleanup;
	sl = xmalloc(n * (n - 1) / 2 * sizeof(*sl));
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (x[i] > x[j])
				sl[nt++] = (y[i] - y[j]) / (x[i] - x[j]);
	if (nt == 0)
		goto cleanup;
	stats_sort(sl, nt);
	out->nslopes = nt;
	out->slope = stats_quantile_type7(sl, nt, 50);
	out->intercept = stats_median(y, n) - out->slope * stats_median(x, n);
	/* Sen (1968) eq. 2.6; indices rounded half to even as numpy */
	dn = (double)n;
	z = stats_norm_quantile((1 - level) / 2);
	sig = sqrt((dn * (dn - 1) * (2 * dn + 5) - sen_tie_sum(x, n) -
	    sen_tie_sum(y, n)) / 18.0);
	r = rint(((double)nt - z * sig) / 2);
	ru = r > (double)(nt - 1) ? (long)(nt - 1) : (long)r;
	r = rint(((double)nt + z * sig) / 2) - 1;
	rl = r < 0 ? 0 : (long)r;
	if (rl >= 0 && ru >= 0 && (size_t)rl < nt && (size_t)ru < nt) {
		out->lo = sl[rl];
		out->hi = sl[ru];
	}
	ret = 0;
cleanup:
	free(sl);
	return ret;
}

/* Robust noise level of y for the change-point cost. */
static double
noise_sigma(const double *y, size_t n)
{
	double *d, med, mad, sigma, m = 0, ss = 0;

	if (n < 3)
		return 0;
	d = xmalloc((n - 1) * sizeof(*d));
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = y[i + 1] - y[i];
	med = stats_median(d, n - 1);
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(d[i] - med);
	mad = stats_median(d, n - 1);
	sigma = 1.4826 * mad / sqrt(2.0);
	if (sigma == 0) {
		for (size_t i = 0; i + 1 < n; i++) {
			double v = y[i + 1] - y[i];

			m += v;
			ss += v * v;
		}
		m /= (double)(n - 1);
		ss = ss / (double)(n - 1) - m * m;
		sigma = ss > 0 ? sqrt(ss * (double)(n - 1) / (double)(n - 2)) /
		    sqrt(2.0) : 0;
	}
	free(d);
	return sigma;
}

long
stats_changepoints(const double *y, size_t n, double sigma, size_t minseg,
    size_t **cps)
{
	double *s1 = NULL, *s2 = NULL, *f = NULL, *fc = NULL, beta, inv;
	size_t *last = NULL, *cand = NULL, *keep = NULL, ncand = 0, nout = 0;
	long ret = -1;

	*cps = NULL;
	if (n == 0 || minseg == 0)
		goto cleanup;
	if (sigma <= 0)
		sigma = noise_sigma(y, n);
	if (!(sigma > 0) || n < 2 * minseg) {
		ret = 0;	/* constant series or too short to split */
		goto cleanup;
	}
	inv = 1 / (sigma * sigma);
	beta = 2 * log((double)n);
	s1 = xmalloc((n + 1) * sizeof(*s1));
	s2 = xmalloc((n + 1) * sizeof(*s2));
	f = xmalloc((n + 1) * sizeof(*f));
	fc = xmalloc((n + 1) * sizeof(*fc));
	last = xmalloc((n + 1) * sizeof(*last));
	cand = xmalloc((n + 1) * sizeof(*cand));
	keep = xmalloc((n + 1) * sizeof(*keep));
	/* centre the sums on y[0] so the cost subtraction does not cancel */
	s1[0] = s2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		double v = y[i] - y[0];

		s1[i + 1] = s1[i] + v;
		s2[i + 1] = s2[i] + v * v;
	}
	f[0] = -beta;
	cand[ncand++] = 0;
	for (size_t t = minseg; t <= n; t++) {
		double best = INFINITY;
		size_t arg = 0, nk = 0;

		/* tau = t - minseg becomes a candidate once f[tau] exists */
		if (t - minseg >= minseg)
			cand[ncand++] = t - minseg;
		for (size_t c = 0; c < ncand; c++) {
			size_t tau = cand[c];
			double len = (double)(t - tau), sum = s1[t] - s1[tau];
			double cost = (s2[t] - s2[tau] - sum * sum / len) * inv;

			if (cost < 0)
				cost = 0;	/* rounding */
			fc[c] = f[tau] + cost;
			if (fc[c] + beta < best) {
				best = fc[c] + beta;
				arg = tau;
			}
		}
		f[t] = best;
		last[t] = arg;
		/* PELT pruning: drop tau with f[tau] + C(tau, t) > f[t] */
		for (size_t c = 0; c < ncand; c++)
			if (fc[c] <= f[t])
				keep[nk++] = cand[c];
		memcpy(cand, keep, nk * sizeof(*cand));
		ncand = nk;
	}
	for (size_t t = n; t > 0; t = last[t])
		if (last[t] > 0)
			nout++;
	if (nout) {
		size_t k = nout;

		*cps = xmalloc(nout * sizeof(**cps));
		for (size_t t = n; t > 0; t = last[t])
			if (last[t] > 0)
				(*cps)[--k] = last[t];
	}
	ret = (long)nout;
cleanup:
	free(s1);
	free(s2);
	free(f);
	free(fc);
	free(last);
	free(cand);
	free(keep);
	return ret;
}

size_t
stats_trials_needed(const double *x, size_t n, double target_pct,
    double level, double *now_pct)
{
	double mean, ss = 0, sd, target, z, m0, p;
	size_t m;

	if (now_pct)
		*now_pct = NAN;
	if (n < 2 || !(target_pct > 0) || !(level > 0 && level < 1))
		return 0;
	mean = stats_mean(x, n);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	sd = sqrt(ss / (double)(n - 1));
	p = (1 + level) / 2;
	if (now_pct)
		*now_pct = 100 * stats_t_quantile(p, (double)(n - 1)) * sd /
		    sqrt((double)n) / fabs(mean);
	if (!(mean != 0) || !isfinite(sd))
		return 0;
	target = target_pct / 100 * fabs(mean);
	if (sd == 0)
		return 2;
	/* t > z, so the normal answer is a lower bound to start from */
	z = stats_norm_quantile(p);
	m0 = (z * sd / target) * (z * sd / target);
	if (m0 > 1e9)
		return 0;
	m = m0 < 2 ? 2 : (size_t)m0;
	while (stats_t_quantile(p, (double)(m - 1)) * sd / sqrt((double)m) >
	    target) {
		if (++m > 1000000000)
			return 0;
	}
	return m;
}
