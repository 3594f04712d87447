/*
 * sort.h - sorting arrays of doubles, and of (key, index) pairs.
 */
#ifndef PATHSTAT_COMMON_SORT_H
#define PATHSTAT_COMMON_SORT_H

#include "common/compat.h"

#include <stddef.h>
#include <stdint.h>

/* A key and what it sorts: sort_pairs() orders by key alone. */
struct sort_pair {
	uint64_t	key;
	size_t		val;
};

/* Sort x[0..n) ascending in O(n), NaNs last, -0.0 before +0.0.  Uses a
 * scratch buffer of n doubles. */
void sort_doubles(double *x, size_t n);

/* Merge k ascending arrays runs[i][0..n[i]) into out, which has room for
 * their total length, ascending: O(total log k), with a scratch buffer
 * of the total length.  Equal values keep no particular order. */
void sort_merge(const double *const *runs, const size_t *n, size_t k,
    double *out);

/* Sort p[0..n) by key ascending, stably (pairs of equal keys keep their
 * order), in O(n): an LSD radix sort, 16 bits a pass, passes where every
 * key has the same digit skipped; a scratch buffer of n pairs. */
void sort_pairs(struct sort_pair *p, size_t n);

/* The key of a double that orders as the double does (NaN last). */
uint64_t sort_double_key(double d);

#endif
