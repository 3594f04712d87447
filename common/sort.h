/*
 * sort.h - sorting arrays of doubles.
 */
#ifndef PATHSTAT_COMMON_SORT_H
#define PATHSTAT_COMMON_SORT_H

#include "common/compat.h"

#include <stddef.h>

/* Sort x[0..n) ascending in O(n), NaNs last, -0.0 before +0.0.  Uses a
 * scratch buffer of n doubles. */
void sort_doubles(double *x, size_t n);

/* Merge k ascending arrays runs[i][0..n[i]) into out, which has room for
 * their total length, ascending: O(total log k), with a scratch buffer
 * of the total length.  Equal values keep no particular order. */
void sort_merge(const double *const *runs, const size_t *n, size_t k,
    double *out);

#endif
