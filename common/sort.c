/*
 * sort.c - sorting doubles: an LSD radix sort on order-preserving 64-bit
 * keys (6 passes of 11 bits, passes where every key has the same digit
 * skipped), used by analyze's statistics and by ingest's sorted copy of
 * each run's values (moved here from the statistics library unchanged); and a
 * k-way merge of sorted arrays, for pooling a cell's sorted trials.
 */
#include "common/compat.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/sort.h"
#include "common/xalloc.h"

#define SIGN_BIT	UINT64_C(0x8000000000000000)

/* Map a double to an unsigned key with the same order (NaN last). */
static inline uint64_t
sort_key(double d)
{
	uint64_t u;

	if (isnan(d))
		return UINT64_MAX;
	memcpy(&u, &d, sizeof(u));
	return (u & SIGN_BIT) ? ~u : (u | SIGN_BIT);
}

static inline double
sort_unkey(uint64_t k)
{
	uint64_t u = (k & SIGN_BIT) ? (k & ~SIGN_BIT) : ~k;
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/* Keys live either in a uint64_t buffer or in the caller's double array;
 * memcpy keeps that free of aliasing games and compiles to a move. */
static inline uint64_t
key_load(const void *base, size_t i)
{
	uint64_t k;

	memcpy(&k, (const unsigned char *)base + i * sizeof(k), sizeof(k));
	return k;
}

static inline void
key_store(void *base, size_t i, uint64_t k)
{
	memcpy((unsigned char *)base + i * sizeof(k), &k, sizeof(k));
}

static void
insertion_sort_keys(uint64_t *k, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t v = k[i];
		size_t j = i;

		while (j > 0 && k[j - 1] > v) {
			k[j] = k[j - 1];
			j--;
		}
		k[j] = v;
	}
}

#define RADIX_BITS	11		/* 6 passes over 64-bit keys */
#define RADIX_SIZE	(1u << RADIX_BITS)
#define RADIX_MASK	(RADIX_SIZE - 1)
#define RADIX_PASSES	((64 + RADIX_BITS - 1) / RADIX_BITS)

/* Count each digit of k in its pass's histogram; spelt out, as -O2
 * leaves a loop over the passes rolled. */
static inline void
radix_count(size_t *cnt, uint64_t k)
{
	cnt[0 * RADIX_SIZE + (k & RADIX_MASK)]++;
	cnt[1 * RADIX_SIZE + ((k >> (1 * RADIX_BITS)) & RADIX_MASK)]++;
	cnt[2 * RADIX_SIZE + ((k >> (2 * RADIX_BITS)) & RADIX_MASK)]++;
	cnt[3 * RADIX_SIZE + ((k >> (3 * RADIX_BITS)) & RADIX_MASK)]++;
	cnt[4 * RADIX_SIZE + ((k >> (4 * RADIX_BITS)) & RADIX_MASK)]++;
	cnt[5 * RADIX_SIZE + ((k >> (5 * RADIX_BITS)) & RADIX_MASK)]++;
}

/* One scatter pass over digit d: from src (keys, or x's doubles when
 * from_x, keyed as read) to dst (keys, or doubles when to_x). */
static inline void
radix_pass(const void *src, void *dst, size_t n, size_t *off, unsigned d,
    bool from_x, bool to_x)
{
	unsigned shift = RADIX_BITS * d;

	for (size_t i = 0; i < n; i++) {
		uint64_t k = key_load(src, i);
		size_t at;

		if (from_x) {
			double v;

			memcpy(&v, &k, sizeof(v));
			k = sort_key(v);
		}
		at = off[(k >> shift) & RADIX_MASK]++;
		if (to_x) {
			double v = sort_unkey(k);

			memcpy((unsigned char *)dst + at * sizeof(v), &v,
			    sizeof(v));
		} else {
			key_store(dst, at, k);
		}
	}
}

/*
 * One pass counts every digit; passes where every key has the same
 * digit are skipped.  The keys are made as the first pass reads x, and
 * the last pass turns them back into doubles as it writes x, so no pass
 * of its own does either: with an odd number of passes to make, the
 * keys are first laid out in the scratch buffer, so that the passes
 * still end in x.
 */
void
sort_doubles(double *x, size_t n)
{
	uint64_t small[64];
	uint64_t *tmp = NULL;
	size_t *cnt = NULL;
	unsigned pass[RADIX_PASSES], np = 0;
	void *src, *dst;
	bool keyed = false;

	if (n < 2)
		return;
	if (n <= ARRAY_SIZE(small)) {
		for (size_t i = 0; i < n; i++)
			small[i] = sort_key(x[i]);
		insertion_sort_keys(small, n);
		for (size_t i = 0; i < n; i++)
			x[i] = sort_unkey(small[i]);
		return;
	}

	cnt = xcalloc(RADIX_PASSES * RADIX_SIZE, sizeof(*cnt));
	for (size_t i = 0; i < n; i++)
		radix_count(cnt, sort_key(x[i]));
	for (unsigned d = 0; d < RADIX_PASSES; d++) {
		size_t *off = cnt + d * RADIX_SIZE, sum = 0;
		bool trivial = false;

		for (unsigned b = 0; b < RADIX_SIZE; b++) {
			size_t c = off[b];

			if (c == n)
				trivial = true;
			off[b] = sum;
			sum += c;
		}
		if (!trivial)
			pass[np++] = d;
	}
	if (np == 0) {		/* every key is the same */
		for (size_t i = 0; i < n; i++)
			x[i] = sort_unkey(sort_key(x[i]));	/* one NaN */
		goto cleanup;
	}
	tmp = xmalloc(n * sizeof(*tmp));
	src = x;
	dst = tmp;
	if (np % 2) {
		for (size_t i = 0; i < n; i++)
			tmp[i] = sort_key(x[i]);
		keyed = true;
		src = tmp;
		dst = x;
	}
	for (unsigned p = 0; p < np; p++) {
		void *t = src;

		size_t *off = cnt + pass[p] * RADIX_SIZE;

		/* constant flags: each call is compiled for its case */
		if (p == 0 && !keyed)
			radix_pass(src, dst, n, off, pass[p], true, false);
		else if (p + 1 == np)
			radix_pass(src, dst, n, off, pass[p], false, true);
		else
			radix_pass(src, dst, n, off, pass[p], false, false);
		src = dst;
		dst = t;
	}
cleanup:
	free(tmp);
	free(cnt);
}

/* Merge ascending a[0..na) and b[0..nb) into out; the comparison picks
 * with a conditional move rather than a branch (the branch is taken at
 * random on interleaved data). */
static void
merge_two(const double *a, size_t na, const double *b, size_t nb,
    double *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb) {
		double x = a[i], y = b[j];
		bool take_b = y < x;

		out[k++] = take_b ? y : x;
		j += take_b;
		i += !take_b;
	}
	memcpy(out + k, a + i, (na - i) * sizeof(*a));
	k += na - i;
	memcpy(out + k, b + j, (nb - j) * sizeof(*b));
}

void
sort_merge(const double *const *runs, const size_t *n, size_t k, double *out)
{
	size_t total = 0, passes = 0, nseg, i, w;
	size_t *seg;
	double *tmp = NULL, *src, *dst, *t;

	for (i = 0; i < k; i++)
		total += n[i];
	if (total == 0)
		return;
	for (nseg = k; nseg > 1; nseg = (nseg + 1) / 2)
		passes++;
	if (passes)
		tmp = xmalloc(total * sizeof(*tmp));
	/* start where an even number of passes ends in out */
	src = passes % 2 ? tmp : out;
	dst = passes % 2 ? out : tmp;
	seg = xmalloc((k + 1) * sizeof(*seg));
	seg[0] = 0;
	for (i = 0; i < k; i++) {
		memcpy(src + seg[i], runs[i], n[i] * sizeof(*src));
		seg[i + 1] = seg[i] + n[i];
	}
	for (nseg = k; nseg > 1; nseg = w) {
		for (i = 0, w = 0; i < nseg; i += 2, w++) {
			size_t lo = seg[i], mid = seg[i + 1];

			if (i + 1 < nseg)
				merge_two(src + lo, mid - lo, src + mid,
				    seg[i + 2] - mid, dst + lo);
			else
				memcpy(dst + lo, src + lo,
				    (mid - lo) * sizeof(*src));
			seg[w] = lo;
		}
		seg[w] = total;
		t = src;
		src = dst;
		dst = t;
	}
	free(seg);
	free(tmp);
}

uint64_t
sort_double_key(double d)
{
	return sort_key(d);
}

#define PAIR_BITS	16
#define PAIR_SIZE	(1u << PAIR_BITS)

void
sort_pairs(struct sort_pair *p, size_t n)
{
	struct sort_pair *tmp, *src = p, *dst;
	size_t *count;
	unsigned pass;

	if (n < 2)
		return;
	tmp = xreallocarray(NULL, n, sizeof(*tmp));
	count = xcalloc(PAIR_SIZE, sizeof(*count));
	dst = tmp;
	for (pass = 0; pass < 64 / PAIR_BITS; pass++) {
		unsigned shift = pass * PAIR_BITS;
		size_t i, sum = 0;
		struct sort_pair *swap;

		memset(count, 0, PAIR_SIZE * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(src[i].key >> shift) & (PAIR_SIZE - 1)]++;
		if (count[(src[0].key >> shift) & (PAIR_SIZE - 1)] == n)
			continue;	/* every key has this digit */
		for (i = 0; i < PAIR_SIZE; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & (PAIR_SIZE - 1)]++] =
			    src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != p)
		memcpy(p, src, n * sizeof(*p));
	free(count);
	free(tmp);
}
