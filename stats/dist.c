/*
 * dist.c - special functions and distributions: Loader's
 * saddle-point binomial density, log beta, the regularized incomplete
 * beta, the binomial, normal and Student t distributions.
 * Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <float.h>
#include <math.h>

#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

/* log(2 pi), log(sqrt(2 pi)), 1 / sqrt(2) */
#define LN_2PI		1.837877066409345483560659472811
#define LN_SQRT_2PI	0.918938533204672741780329736406
#define SQRT1_2		0.707106781186547524400844362105

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
double
stats_ldbinom(double x, double n, double p, double q)
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
	return log(a + b - 1) + stats_ldbinom(a - 1, a + b - 2, x, y) + log(x) +
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
void
stats_betainc2(double a, double b, double x, double y, double *lower,
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
	stats_betainc2(a, b, x, 1 - x, &lo, &up);
	return lo;
}

double
stats_betainc_upper(double a, double b, double x)
{
	double lo, up;

	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1))
		return NAN;
	stats_betainc2(a, b, x, 1 - x, &lo, &up);
	return up;
}

double
stats_binom_pmf(double k, double n, double p)
{
	if (!(p >= 0 && p <= 1) || !(n >= 0) || k != floor(k) ||
	    n != floor(n))
		return NAN;
	return exp(stats_ldbinom(k, n, p, 1 - p));
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
	stats_betainc2(n - k, k + 1, 1 - p, p, &lo, &up);
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
double
stats_t_tail(double t, double df)
{
	double lo, up, t2 = t * t;

	if (isinf(df))
		return stats_norm_sf(t);
	if (isinf(t))
		return 0;
	stats_betainc2(df / 2, 0.5, df / (df + t2), t2 / (df + t2), &lo, &up);
	return 0.5 * lo;
}

double
stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (t >= 0)
		return 1 - stats_t_tail(t, df);
	return stats_t_tail(-t, df);
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
	while (stats_t_tail(hi, df) > tail) {
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
		if (stats_t_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}
