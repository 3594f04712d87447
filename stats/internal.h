/*
 * internal.h - what the files of stats/ share and nothing outside it
 * includes: values tagged with their position for rank work, the
 * Harrell-Davis weight cache, and the helpers one file lends another.
 */
#ifndef PATHSTAT_STATS_INTERNAL_H
#define PATHSTAT_STATS_INTERNAL_H

#include "common/compat.h"

#include "stats/stats.h"

/* A value with where it came from, for rank computations. */
struct tagged {
	double v;	/* the value */
	size_t i;	/* its index in the caller's combined order */
};

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

/* select.c */
/* qsort() order of struct tagged: by value, then by index. */
int stats_cmp_tagged(const void *pa, const void *pb);
/* Smallest and largest of x[0..n), n >= 1. */
double stats_min_of(const double *x, size_t n);
double stats_max_of(const double *x, size_t n);

/* dist.c */
/* log of the binomial density at real x for real n, p with q = 1 - p
 * given separately (Loader 2000; R's dbinom_raw). */
double stats_ldbinom(double x, double n, double p, double q);
/* I_x(a, b) into *lower and 1 - I_x(a, b) into *upper, y = 1 - x. */
void stats_betainc2(double a, double b, double x, double y, double *lower,
    double *upper);
/* P(T > t) for t >= 0 with df degrees of freedom. */
double stats_t_tail(double t, double df);

/* quantile.c */
/* Is pct a percentile, 0..100? */
bool stats_pct_ok(double pct);
/* numpy's _lerp: exact at both ends and monotone in t. */
double stats_lerp(double a, double b, double t);
/* Free the cache's weights (it stays usable). */
void stats_hd_cache_release(struct hd_cache *c);
/* Make c hold the weights for n values at pct (0 < pct < 100). */
void stats_hd_cache_get(struct hd_cache *c, size_t n, double pct);
/* Quantile of unsorted x (reordered); hd may be NULL. */
double stats_quantile_unsorted_hd(enum stats_estimator est, double *x,
    size_t n, double pct, struct hd_cache *hd);

#endif
