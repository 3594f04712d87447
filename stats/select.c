/*
 * select.c - sorting and selection of doubles: the sort every
 * statistic starts from, quickselect for one order statistic, smallest
 * and largest.
 * Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>

#include "common/sort.h"
#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

void
stats_sort(double *x, size_t n)
{
	sort_doubles(x, n);
}

int
stats_cmp_tagged(const void *pa, const void *pb)
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
double
stats_min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double
stats_max_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

/* Values of sorted x[0..n) below v (lower bound) or at most v (upper). */
static size_t
count_below(const double *x, size_t n, double v, bool or_equal)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (or_equal ? x[m] <= v : x[m] < v)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/*
 * Whether copying the k runs' total values into one array and selecting
 * there (about 4 * total steps) costs less than the search of
 * stats_select_runs (about k^2 log^2 n steps).  A cell pooling every
 * day's trials has k growing with the days: the search is quadratic in
 * them, the copy linear.
 */
static bool
copy_pays(const size_t *n, size_t k, size_t total)
{
	size_t r, most = 0, lg = 1;
	double search;

	if (k <= 8)
		return false;
	for (r = 0; r < k; r++)
		if (n[r] > most)
			most = n[r];
	while (most >>= 1)
		lg++;
	search = (double)k * (double)k * (double)lg * (double)lg;
	return search > 4.0 * (double)total;
}

/*
 * The idx-th smallest of the k runs by one copy and quickselect, into
 * *out; false (nothing set) if a value is NaN, which the search reports
 * its own way.
 */
static bool
select_by_copy(const double *const *runs, const size_t *n, size_t k,
    size_t total, size_t idx, double *out)
{
	double *all = xmalloc(total * sizeof(*all));	/* owned, freed here */
	size_t r, at = 0;
	bool ok = true;

	for (r = 0; r < k && ok; r++)
		for (size_t i = 0; i < n[r]; i++) {
			if (isnan(runs[r][i])) {
				ok = false;
				break;
			}
			all[at++] = runs[r][i];
		}
	if (ok)
		*out = stats_select(all, total, idx);
	free(all);
	return ok;
}

double
stats_select_runs(const double *const *runs, const size_t *n, size_t k,
    size_t idx)
{
	size_t r, total = 0;
	double v;

	for (r = 0; r < k; r++)
		total += n[r];
	if (idx >= total)
		return NAN;
	if (copy_pays(n, k, total) &&
	    select_by_copy(runs, n, k, total, idx, &v))
		return v;
	/*
	 * The answer is an element of some run: search each run for the
	 * element e with (values below e) <= idx < (values at most e), a
	 * test monotone along the run.  O(k^2 log^2 n), against the merge's
	 * O(n log k) with its copies; k is a cell's trial count.
	 */
	for (r = 0; r < k; r++) {
		size_t lo = 0, hi = n[r];

		while (lo < hi) {
			size_t m = lo + (hi - lo) / 2, below = 0, upto = 0, j;
			double e = runs[r][m];

			for (j = 0; j < k; j++) {
				below += count_below(runs[j], n[j], e, false);
				upto += count_below(runs[j], n[j], e, true);
			}
			if (upto <= idx)
				lo = m + 1;
			else if (below > idx)
				hi = m;
			else
				return e;
		}
	}
	return NAN;	/* NaN among the values: no total order */
}
