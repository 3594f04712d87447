/*
 * detect.c - the pure detectors behind `pathstat check`: a step
 * down that stays down in an interval series, SYN-retransmit modes in a
 * latency sample, the client's own time in probe connect times (connect
 * minus handshake), a plateau at the top of per-path values, and the small
 * conversions the findings quote.  No database, no I/O.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "stats/stats.h"
#include "common/parse.h"
#include "common/xalloc.h"

void
check_detect_cliff(const double *y, size_t n, struct check_cliff *out)
{
	double *sufmax, sum = 0.0;
	size_t i, at;

	memset(out, 0, sizeof(*out));
	out->before = out->after = NAN;
	if (n < 2 * CHECK_CLIFF_MIN_SIDE)
		return;
	for (i = 0; i < n; i++)
		if (!isfinite(y[i]))
			return;
	/* sufmax[i] = max(y[i..n)): "stays down to the end" in O(1) */
	sufmax = xmalloc(n * sizeof(double));
	sufmax[n - 1] = y[n - 1];
	for (i = n - 1; i > 0; i--)
		sufmax[i - 1] = y[i - 1] > sufmax[i] ? y[i - 1] : sufmax[i];
	for (i = 0; i < CHECK_CLIFF_MIN_SIDE; i++)
		sum += y[i];
	for (at = CHECK_CLIFF_MIN_SIDE; at + CHECK_CLIFF_MIN_SIDE <= n; at++) {
		double before = sum / (double)at;

		if (before > 0 && sufmax[at] <= CHECK_CLIFF_RATIO * before) {
			double after = 0.0;
			size_t from = at + 1;

			/* the first low interval may hold the drop itself */
			for (i = from; i < n; i++)
				after += y[i];
			out->found = true;
			out->at = at;
			out->before = before;
			out->after = after / (double)(n - from);
			break;
		}
		sum += y[at];
	}
	free(sufmax);
}

/* First index of sorted[0..n) with a value >= x. */
static size_t
lower_bound(const double *sorted, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The SYN-retransmit modes: median + k s (Linux's 1 s initial RTO,
 * doubling). */
static const double syn_k_s[] = { 1.0, 3.0, 7.0, 15.0 };

static bool
in_syn_window(double v, double median)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(syn_k_s); k++)
		if (v >= median + 1000.0 * syn_k_s[k] - CHECK_SYN_WIN_LO_MS &&
		    v <= median + 1000.0 * syn_k_s[k] + CHECK_SYN_WIN_HI_MS)
			return true;
	return false;
}

/*
 * The run's own upper tail, extrapolated: the log of its quantile taken
 * as linear in the normal z through two upper percentiles of the values
 * outside the modes, as a lognormal tail is: p90 and p99, and from
 * CHECK_SYN_TAIL_N values p99 and p99.9 too, the heavier of the two (a
 * slow mode of 2 % of the requests makes the far tail heavier than the
 * body says).
 */
struct syn_tail {
	double	z[3], l[3];	/* (z, log quantile) at p90, p99, p99.9 */
	bool	far;		/* l[2] is usable */
};

static void
syn_tail_fit(const double *sorted, size_t n, double median,
    struct syn_tail *t)
{
	static const double p[3] = { 90.0, 99.0, 99.9 };
	double *rest = xmalloc((n ? n : 1) * sizeof(*rest));
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (!in_syn_window(sorted[i], median))
			rest[m++] = sorted[i];
	t->far = m >= CHECK_SYN_TAIL_N;
	for (i = 0; i < 3; i++) {
		t->z[i] = stats_norm_quantile(p[i] / 100.0);
		t->l[i] = m && rest[0] > 0 ?
		    log(stats_quantile_type7(rest, m, p[i])) : NAN;
	}
	free(rest);
}

/* Survival at x of the line through points i and j. */
static double
syn_line_sf(const struct syn_tail *t, size_t i, size_t j, double x)
{
	double slope = (t->l[j] - t->l[i]) / (t->z[j] - t->z[i]);

	if (!isfinite(slope))
		return 0.0;
	if (!(slope > 0))
		return log(x) <= t->l[j] ? 1.0 : 0.0;
	return stats_norm_sf(t->z[j] + (log(x) - t->l[j]) / slope);
}

static double
syn_tail_sf(const struct syn_tail *t, double x)
{
	double s;

	if (!(x > 0))
		return 0.0;
	s = syn_line_sf(t, 0, 1, x);
	if (t->far)
		s = fmax(s, syn_line_sf(t, 1, 2, x));
	return s;
}

/* P(X >= k) for X Poisson with mean mu. */
static double
poisson_sf(size_t k, double mu)
{
	double term = exp(-mu), cdf = 0.0;
	size_t i;

	for (i = 0; i < k; i++) {
		cdf += term;
		term *= mu / (double)(i + 1);
	}
	return cdf >= 1.0 ? 0.0 : 1.0 - cdf;
}

/*
 * A mode counts when its values are more than the run's own tail puts
 * there: with mu = n (S(lo) - S(hi)) expected from the extrapolated
 * tail, P(Poisson(mu) >= count) < CHECK_SYN_ALPHA.  Connect times (a
 * narrow body) expect about 0 there, so one retransmit is enough; a
 * heavy-tailed HTTP run expects some of its own requests there.
 */
void
check_detect_syn(const double *sorted, size_t n, double median,
    struct check_syn *out)
{
	struct syn_tail tail;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->lo = out->hi = NAN;
	if (!n || !isfinite(median) || median >= CHECK_SYN_BASE_MAX_MS)
		return;
	syn_tail_fit(sorted, n, median, &tail);
	for (k = 0; k < ARRAY_SIZE(syn_k_s); k++) {
		double lo = median + 1000.0 * syn_k_s[k] - CHECK_SYN_WIN_LO_MS;
		double hi = median + 1000.0 * syn_k_s[k] + CHECK_SYN_WIN_HI_MS;
		size_t a = lower_bound(sorted, n, lo), b = a;
		double mu;

		while (b < n && sorted[b] <= hi)
			b++;
		if (b == a)
			continue;
		mu = (double)n * (syn_tail_sf(&tail, lo) -
		    syn_tail_sf(&tail, hi));
		if (mu > out->expected)
			out->expected = mu;
		if (poisson_sf(b - a, mu) >= CHECK_SYN_ALPHA) {
			out->unexplained += b - a;
			continue;
		}
		out->per_mode[k] = b - a;
		out->count += b - a;
		if (isnan(out->lo) || sorted[a] < out->lo)
			out->lo = sorted[a];
		if (isnan(out->hi) || sorted[b - 1] > out->hi)
			out->hi = sorted[b - 1];
	}
}

void
check_detect_gap(const double *conn, const double *hs, size_t n,
    struct check_gap *out)
{
	double *g, *c, *h;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->p50 = out->p90 = out->max = out->hs_p50 = out->conn_p50 = NAN;
	out->n = n;
	if (!n)
		return;
	g = xmalloc(n * sizeof(double));
	c = xmalloc(n * sizeof(double));
	h = xmalloc(n * sizeof(double));
	for (i = 0; i < n; i++) {
		g[i] = conn[i] - hs[i];
		c[i] = conn[i];
		h[i] = hs[i];
		if (g[i] >= CHECK_BUSY_SLOW_MS)
			out->slow++;
	}
	stats_sort(g, n);
	stats_sort(c, n);
	stats_sort(h, n);
	out->p50 = stats_quantile_type7(g, n, 50.0);
	out->p90 = stats_quantile_type7(g, n, 90.0);
	out->max = g[n - 1];
	out->conn_p50 = stats_quantile_type7(c, n, 50.0);
	out->hs_p50 = stats_quantile_type7(h, n, 50.0);
	if (n >= CHECK_BUSY_MIN_PAIRS) {
		out->large = out->p50 >= CHECK_BUSY_MEDIAN_MS;
		out->erratic = (double)out->slow >=
		    CHECK_BUSY_SLOW_SHARE * (double)n;
	}
	free(g);
	free(c);
	free(h);
}

double
check_size_bytes(const char *size)
{
	size_t len = strlen(size);
	double v, mult = 1.0;

	if (!len)
		return NAN;
	switch (size[len - 1]) {
	case 'b': case 'B':
		len--;
		break;
	case 'k': case 'K':
		mult = 1024.0;
		len--;
		break;
	case 'm': case 'M':
		mult = 1048576.0;
		len--;
		break;
	case 'g': case 'G':
		mult = 1073741824.0;
		len--;
		break;
	default:
		break;
	}
	if (!len || parse_double_n(size, len, &v) || v < 0)
		return NAN;
	return v * mult;
}

size_t
check_plateau(const double *v, size_t n, double tol, bool *in_plateau)
{
	double top = NAN;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]) && (isnan(top) || v[i] > top))
			top = v[i];
	for (i = 0; i < n; i++) {
		bool in = isfinite(v[i]) && isfinite(top) && top > 0 &&
		    v[i] >= top * (1.0 - tol);

		if (in_plateau)
			in_plateau[i] = in;
		k += in;
	}
	return k;
}

size_t
check_rank_from_top(double pct, size_t n)
{
	if (!n)
		return 0;
	return n - stats_oha_index(pct, n);
}

/*
 * Welch's one-way test (Welch 1951): each group weighed by n_k / s_k², so
 * a group whose trials spread more does not make the others look
 * different (the classic F pools one within-group variance; with
 * groups differing only in spread it flagged 2.7 % at its 1 % level).
 * Needs every group to have 3 or more values with some spread (with 2,
 * a group's variance has one degree of freedom and the test loses most
 * of its power); false (out untouched) when one does not, and the
 * classic F decides.
 */
static bool
groups_welch(const double *v, const size_t *g, size_t n, size_t ngroups,
    const double *sum, const size_t *cnt, struct check_groups *out)
{
	double *ss = xcalloc(ngroups + 1, sizeof(double));
	double wsum = 0, wmean = 0, a = 0, lam = 0, k, f, df2;
	bool ok = false;
	size_t i, j;

	for (i = 0; i < n; i++) {
		double m = sum[g[i]] / (double)cnt[g[i]];

		ss[g[i]] += (v[i] - m) * (v[i] - m);
	}
	for (j = 0; j < ngroups; j++) {
		if (!cnt[j])
			continue;
		if (cnt[j] < 3 || !(ss[j] > 0))
			goto done;
	}
	for (j = 0; j < ngroups; j++) {
		double w;

		if (!cnt[j])
			continue;
		w = (double)cnt[j] / (ss[j] / (double)(cnt[j] - 1));
		wsum += w;
		wmean += w * sum[j] / (double)cnt[j];
	}
	wmean /= wsum;
	for (j = 0; j < ngroups; j++) {
		double w, d;

		if (!cnt[j])
			continue;
		w = (double)cnt[j] / (ss[j] / (double)(cnt[j] - 1));
		d = sum[j] / (double)cnt[j] - wmean;
		a += w * d * d;
		lam += (1 - w / wsum) * (1 - w / wsum) /
		    (double)(cnt[j] - 1);
	}
	k = (double)out->ngroups;
	a /= k - 1;
	f = a / (1 + 2 * (k - 2) * lam / (k * k - 1));
	df2 = (k * k - 1) / (3 * lam);
	out->f = f;
	out->p = stats_betainc(df2 / 2, (k - 1) / 2, df2 / (df2 + (k - 1) *
	    f));
	out->welch = true;
	ok = true;
done:
	free(ss);
	return ok;
}

void
check_detect_groups(const double *v, const size_t *g, size_t n,
    size_t ngroups, struct check_groups *out)
{
	double *sum = xcalloc(ngroups + 1, sizeof(double));
	size_t *cnt = xcalloc(ngroups + 1, sizeof(size_t));
	double grand = 0, ssb = 0, ssw = 0, lo = INFINITY, hi = -INFINITY;
	double df1, df2;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	out->f = out->p = out->ratio = out->within_sd = NAN;
	for (i = 0; i < n; i++) {
		sum[g[i]] += v[i];
		cnt[g[i]]++;
		grand += v[i];
	}
	out->n = n;
	for (k = 0; k < ngroups; k++)
		out->ngroups += cnt[k] > 0;
	if (out->ngroups < 2 || n <= out->ngroups)
		goto done;
	grand /= (double)n;
	for (k = 0; k < ngroups; k++) {
		double m;

		if (!cnt[k])
			continue;
		m = sum[k] / (double)cnt[k];
		ssb += (double)cnt[k] * (m - grand) * (m - grand);
		lo = fmin(lo, m);
		hi = fmax(hi, m);
	}
	for (i = 0; i < n; i++) {
		double m = sum[g[i]] / (double)cnt[g[i]];

		ssw += (v[i] - m) * (v[i] - m);
	}
	df1 = (double)(out->ngroups - 1);
	df2 = (double)(n - out->ngroups);
	out->ratio = exp(hi - lo);
	out->within_sd = sqrt(ssw / df2);
	if (ssw <= 0) {
		/* identical trials within every group */
		out->f = ssb > 0 ? INFINITY : NAN;
		out->p = ssb > 0 ? 0.0 : 1.0;
	} else {
		out->f = (ssb / df1) / (ssw / df2);
		out->p = stats_betainc(df2 / 2, df1 / 2, df2 / (df2 + df1 *
		    out->f));
	}
	{
		struct check_groups w = *out;

		/* both must say so: Welch alone is liberal with 3 trials
		 * a group (1.6 % at its 1 % level), the F where spreads
		 * differ (2.7 %) */
		if (groups_welch(v, g, n, ngroups, sum, cnt, &w) &&
		    !(w.p <= out->p)) {
			out->f = w.f;
			out->p = w.p;
		}
		out->welch = w.welch;
	}
	out->differ = out->p < (df2 <= 2 ? CHECK_POOL_ALPHA_FEW_DF :
	    CHECK_POOL_ALPHA) &&
	    out->ratio >= CHECK_POOL_MIN_RATIO;
done:
	free(sum);
	free(cnt);
}
