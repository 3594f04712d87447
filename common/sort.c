/*
 * sort.c - sorting doubles: an LSD radix sort on order-preserving 64-bit
 * keys (6 passes of 11 bits, passes where every key has the same digit
 * skipped), used by analyze's statistics and by ingest's sorted copy of
 * each run's values.  Moved here from analyze/stats.c unchanged.
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
#define RADIX_PASSES	((64 + RADIX_BITS - 1) / RADIX_BITS)

void
sort_doubles(double *x, size_t n)
{
	uint64_t small[64];
	uint64_t *tmp = NULL;
	size_t *cnt = NULL;
	void *src, *dst;

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

	/* one pass builds every digit's histogram */
	cnt = xcalloc(RADIX_PASSES * RADIX_SIZE, sizeof(*cnt));
	for (size_t i = 0; i < n; i++) {
		uint64_t k = sort_key(x[i]);

		key_store(x, i, k);
		for (unsigned d = 0; d < RADIX_PASSES; d++)
			cnt[d * RADIX_SIZE +
			    ((k >> (RADIX_BITS * d)) & (RADIX_SIZE - 1))]++;
	}
	tmp = xmalloc(n * sizeof(*tmp));
	src = x;
	dst = tmp;
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
		if (trivial)
			continue;	/* every key has the same digit */
		for (size_t i = 0; i < n; i++) {
			uint64_t k = key_load(src, i);

			key_store(dst, off[(k >> (RADIX_BITS * d)) &
			    (RADIX_SIZE - 1)]++, k);
		}
		{
			void *t = src;

			src = dst;
			dst = t;
		}
	}
	for (size_t i = 0; i < n; i++)
		x[i] = sort_unkey(key_load(src, i));
	free(tmp);
	free(cnt);
}
