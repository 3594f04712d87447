/*
 * censor.c - does a quantile of all attempts read a timed-out one?
 *
 * Connect probes that time out have no connect time, only "at least the
 * timeout".  Sorted among all attempts they lie above every success, so
 * the estimator's p-quantile of all N attempts is known only when every
 * order statistic it reads is a success.  The rule is the estimator's own
 * (contracts in stats.h), judged in integer arithmetic on ranks rather
 * than by comparing the failed fraction with 1 - p in floating point
 * (which missed 3 timeouts in 300 at p99: 3/300 > 0.01 is false).
 */
#include "common/compat.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/internal.h"
#include "stats/stats.h"

/* The shortest decimal whose correctly rounded quotient is pct: what
 * strtod() made of the user's "p99.9" (contract in stats.h). */
bool
stats_pct_fraction(double pct, uint64_t *num, uint64_t *den)
{
	uint64_t scale = 1;

	for (int k = 0; k <= 6; k++, scale *= 10) {
		double r = nearbyint(pct * (double)scale);

		if (r >= 0 && (double)(uint64_t)r / (double)scale == pct) {
			*num = (uint64_t)r;
			*den = 100 * scale;
			return true;
		}
	}
	return false;
}

/* ceil((n - 1) * pct / 100), exactly when pct is a short decimal. */
static uint64_t
type7_last_rank(double pct, uint64_t n)
{
	uint64_t num, den;

	if (stats_pct_fraction(pct, &num, &den) &&
	    (num == 0 || n - 1 <= (UINT64_MAX - den) / num))
		return ((n - 1) * num + den - 1) / den;
	return (uint64_t)ceill((long double)(n - 1) * (long double)pct /
	    100.0L);
}

/* The last 0-based rank Harrell-Davis reads: the end of its weight
 * window (ranks beyond it carry under 1e-17 of the weight in all and
 * the estimator skips them). */
static uint64_t
hd_last_rank(double pct, size_t n)
{
	struct hd_cache hc = HD_CACHE_INIT;
	size_t last;

	if (n == 1 || pct == 0)
		return 0;
	if (pct == 100)
		return n - 1;
	stats_hd_cache_get(&hc, n, pct);
	last = hc.first + hc.len - 1;
	stats_hd_cache_release(&hc);
	return last;
}

size_t
stats_last_rank_read(enum stats_estimator est, double pct, size_t n)
{
	uint64_t r;

	if (n == 0 || !stats_pct_ok(pct))
		return 0;
	switch (est) {
	case STATS_EST_OHA:
		return stats_oha_index(pct, n);
	case STATS_EST_HD:
		r = hd_last_rank(pct, n);
		break;
	case STATS_EST_MEAN:
		return n - 1;
	case STATS_EST_TYPE7:
	default:
		r = type7_last_rank(pct, (uint64_t)n);
		break;
	}
	return r >= n ? n - 1 : (size_t)r;
}

bool
stats_censored(enum stats_estimator est, const struct stats_name *s,
    size_t successes, size_t censored)
{
	size_t n = successes + censored;

	if (censored == 0)
		return false;
	switch (s->kind) {
	case STATS_NAME_MAX:
		return true;
	case STATS_NAME_MIN:
		return successes == 0;
	case STATS_NAME_PCT:
		return stats_last_rank_read(est, s->pct, n) >= successes;
	case STATS_NAME_MEAN:
	case STATS_NAME_N:
		break;
	}
	return false;
}
