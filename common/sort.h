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

#endif
