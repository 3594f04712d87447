/*
 * tests.c - comparisons: Mann-Whitney (exact and normal),
 * Brunner-Munzel, Holm's correction, Theil-Sen slopes with Sen's
 * interval, PELT change points, and the trials a precision needs.
 * Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

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
	qsort(t, n, sizeof(*t), stats_cmp_tagged);
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
	out->p = 2 * stats_t_tail(fabs(out->statistic), out->df);
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
	qsort(t, m, sizeof(*t), stats_cmp_tagged);
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
