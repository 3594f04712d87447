/*
 * plan_power.c - `pathstat plan --detect`: the trials (or days) a side
 * that let compare detect a difference of X % with the power asked.
 * The power is simulated with compare's own pieces, so it follows them:
 * its rank test on trial-level values (analyze_compare_test(): exact
 * Mann-Whitney below 10 a side, Brunner-Munzel above), its t test on
 * the days' values when the day is the unit (stats_day_contrast()), and
 * its multiplicity adjustment over the table's rows
 * (analyze_compare_adjust()).  k groups make k - 1 rows against one
 * shared baseline; one row carries the difference, the others none
 * (the least favourable case for a step-down procedure: only the first
 * step can reject).  Pure arithmetic: no I/O.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "analyze/plan.h"
#include "common/xalloc.h"

/* Repetitions a power is simulated with: its standard error at 0.8 is
 * 0.009.  The seed is fixed (common random numbers across designs). */
#define PLAN_POWER_REPS		2000
#define PLAN_POWER_SEED		37
/* Trials (or days) a side searched one by one, then doubling. */
#define PLAN_POWER_SCAN		24
#define PLAN_POWER_MAX_UNITS	4096

/* One repetition's draw of a side: units values, log scale sd, shifted
 * by shift; as values (exp) for the rank test, logs for days. */
static void
draw_side(struct stats_rng *rng, double *x, size_t units, double sd,
    double shift, bool logs)
{
	size_t i;

	for (i = 0; i < units; i++) {
		double v = shift + sd * stats_rng_normal(rng);

		x[i] = logs ? v : exp(v);
	}
}

double
plan_power(const struct plan_power_ask *a, size_t units)
{
	size_t rows, r, g, hit = 0;
	double *base, *x, *p, shift, alpha;
	struct stats_rng rng;

	if (!a || a->groups < 2 || units < 2 || !(a->sd > 0) ||
	    !(a->detect > 0) || !(a->level > 0 && a->level < 1))
		return NAN;
	rows = a->groups - 1;
	alpha = 1.0 - a->level;
	shift = log1p(a->detect);
	base = xcalloc(units, sizeof(double));
	x = xcalloc(units, sizeof(double));
	p = xcalloc(rows, sizeof(double));
	stats_rng_seed(&rng, PLAN_POWER_SEED);
	for (r = 0; r < a->reps; r++) {
		draw_side(&rng, base, units, a->sd, 0.0, a->by_days);
		for (g = 0; g < rows; g++) {
			struct stats_test test;
			struct stats_day_cmp dc;

			draw_side(&rng, x, units, a->sd, g == 0 ? shift : 0.0,
			    a->by_days);
			if (a->by_days) {
				p[g] = stats_day_contrast(x, units, base, units,
				    false, a->level, &dc) ? NAN : dc.p;
			} else {
				analyze_compare_test(x, units, base, units,
				    &test);
				p[g] = test.p;
			}
		}
		analyze_compare_adjust(p, rows);
		if (isfinite(p[0]) && p[0] < alpha)
			hit++;
	}
	free(base);
	free(x);
	free(p);
	return (double)hit / (double)a->reps;
}

int
plan_power_design(const struct plan_power_ask *a,
    struct plan_power_result *out)
{
	size_t u, lo, hi;
	double pw;

	if (!a || !out)
		return -1;
	memset(out, 0, sizeof(*out));
	if (a->groups < 2 || !(a->sd > 0) || !(a->detect > 0) ||
	    !(a->target > 0 && a->target < 1))
		return -1;
	/* one by one at first: the exact test's smallest p jumps with the
	 * trials, and the test changes at 10 a side */
	for (u = 2; u <= PLAN_POWER_SCAN; u++) {
		pw = plan_power(a, u);
		if (pw >= a->target) {
			out->possible = true;
			out->units = u;
			out->power = pw;
			return 0;
		}
	}
	for (lo = PLAN_POWER_SCAN, hi = 2 * lo; hi <= PLAN_POWER_MAX_UNITS;
	    lo = hi, hi *= 2)
		if (plan_power(a, hi) >= a->target)
			break;
	if (hi > PLAN_POWER_MAX_UNITS) {
		out->why = "more than 4096 a side";
		return 0;
	}
	while (hi - lo > 1) {
		u = lo + (hi - lo) / 2;
		if (plan_power(a, u) >= a->target)
			hi = u;
		else
			lo = u;
	}
	out->possible = true;
	out->units = hi;
	out->power = plan_power(a, hi);
	return 0;
}
