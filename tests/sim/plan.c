/*
 * plan.c - the validation harness of `pathstat plan` (analyze/plan.h).
 * Each repetition draws a pilot from a design's true generator, fits
 * the planner's model to it (plan_fit, what the command does with an
 * ingested pilot), asks plan_design for the campaign that gives a 95 %
 * interval of +-W %, then simulates that campaign twice -- from the
 * pilot's fitted model (the promise the planner makes) and from the
 * true generator (whether the model fits the design) -- and analyzes
 * each with pathstat's own interval code (stats_tl_withhold,
 * stats_tl_values, stats_tl_interval on the log scale, as analyze
 * --ci).  It reports the median over repetitions of the achieved upper
 * half-width (hi / estimate - 1, what plan predicts) over the width
 * asked, the median design and the share of campaigns whose interval
 * was withheld.  With --check the exit status is 1 when the fitted
 * model's median ratio lies outside 0.85-1.15.
 *
 *   plan [--reps R] [--seed S] [--check]
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plan.h"
#include "common/xalloc.h"
#include "stats/stats.h"

#define LEVEL		0.95
#define TIMEOUT_VALUE	2000.0	/* a timed-out probe, above every success */

struct truth {
	const char *name;
	double within, between, loss;	/* log-normal body, trial sd, loss */
	double slow_share, slow_factor;	/* a slow mode (oha), 0: none */
	size_t pilot_trials, pilot_n;
};

struct ask_row {
	const struct truth *truth;
	double pct, width;
	enum stats_pool pool;
};

static const struct truth probes = { "probes with 0.5 % timeouts",
	0.3, 0.05, 0.005, 0, 1, 3, 300 };
static const struct truth oha = { "oha heavy tail (7 % slow mode x5)",
	0.25, 0.05, 0, 0.07, 5, 3, 1000 };

static const struct ask_row rows[] = {
	{ &probes, 50, 0.05, STATS_POOL_POOLED },
	{ &probes, 95, 0.05, STATS_POOL_PER_TRIAL },
	{ &probes, 95, 0.10, STATS_POOL_PER_TRIAL },
	{ &oha, 50, 0.03, STATS_POOL_POOLED },
	{ &oha, 95, 0.10, STATS_POOL_PER_TRIAL },
	{ &oha, 99, 0.10, STATS_POOL_PER_TRIAL },
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median_of(double *x, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* One trial of n attempts: values[0..n) sorted (timeouts at
 * TIMEOUT_VALUE on top); returns the timeouts. */
static size_t
draw_trial(struct stats_rng *r, const struct truth *tr,
    const struct plan_model *m, double *values, size_t n)
{
	double within = m ? m->within : tr->within;
	double between = m ? m->between : tr->between;
	double loss = m ? m->loss : tr->loss;
	double shift = between * stats_rng_normal(r);
	size_t i, tmo = 0;

	for (i = 0; i < n; i++) {
		double v = 10.0 * exp(shift + within * stats_rng_normal(r));

		if (!m && tr->slow_share > 0 &&
		    stats_rng_uniform(r) < tr->slow_share)
			v *= tr->slow_factor;
		if (stats_rng_uniform(r) < loss) {
			v = TIMEOUT_VALUE;
			tmo++;
		}
		values[i] = v;
	}
	stats_sort(values, n);
	return tmo;
}

/* Simulate T x n from m (NULL: the truth) and analyze it: the achieved
 * hi / estimate - 1, or NaN when the interval is withheld. */
static double
campaign(struct stats_rng *r, const struct ask_row *a,
    const struct plan_model *m, size_t T, size_t n)
{
	double *all = xcalloc(T * n, sizeof(double)), *u = xcalloc(T,
	    sizeof(double)), est, got = NAN;
	const double **tv = xcalloc(T, sizeof(*tv));
	size_t *tn = xcalloc(T, sizeof(size_t)), t, tmo = 0;
	struct stats_name s = { STATS_NAME_PCT, a->pct };
	struct stats_trials g;
	struct stats_interval iv;
	double *pooled = NULL;

	for (t = 0; t < T; t++) {
		size_t k = draw_trial(r, a->truth, m, all + t * n, n);

		tv[t] = all + t * n;
		tn[t] = n;
		tmo += k;
		/* analyze withholds a censored trial's (or cell's) value */
		if (a->pool == STATS_POOL_PER_TRIAL &&
		    stats_censored(STATS_EST_TYPE7, &s, n - k, k))
			goto cleanup;
	}
	g.trial = tv;
	g.n = tn;
	g.ntrials = T;
	if (a->pool == STATS_POOL_POOLED) {
		pooled = xcalloc(T * n, sizeof(double));
		memcpy(pooled, all, T * n * sizeof(double));
		stats_sort(pooled, T * n);
		if (stats_censored(STATS_EST_TYPE7, &s, T * n - tmo, tmo))
			goto cleanup;
	}
	if (stats_tl_withhold(&g, pooled, pooled ? T * n : 0, a->pool,
	    STATS_EST_TYPE7, a->pct, LEVEL))
		goto cleanup;
	if (stats_tl_values(&g, pooled, pooled ? T * n : 0, STATS_EST_TYPE7,
	    a->pct, a->pool, u, &est))
		goto cleanup;
	stats_tl_interval(u, T, est, LEVEL, true, &iv);
	if (isfinite(iv.hi) && est > 0)
		got = iv.hi / est - 1;
cleanup:
	free(all);
	free(u);
	free(tv);
	free(tn);
	free(pooled);
	return got;
}

/* The pilot's fitted model; false when it gives none. */
static bool
pilot_fit(struct stats_rng *r, const struct ask_row *a, struct plan_model *m)
{
	const struct truth *tr = a->truth;
	double *v = xcalloc(tr->pilot_trials * tr->pilot_n, sizeof(double));
	const double **tv = xcalloc(tr->pilot_trials, sizeof(*tv));
	size_t *tn = xcalloc(tr->pilot_trials, sizeof(size_t));
	size_t *tmo = xcalloc(tr->pilot_trials, sizeof(size_t)), t;
	struct stats_trials g;
	bool one, ok;

	for (t = 0; t < tr->pilot_trials; t++) {
		double *x = v + t * tr->pilot_n;

		tmo[t] = draw_trial(r, tr, NULL, x, tr->pilot_n);
		tv[t] = x;	/* successes first: timeouts sort on top */
		tn[t] = tr->pilot_n - tmo[t];
	}
	g.trial = tv;
	g.n = tn;
	g.ntrials = tr->pilot_trials;
	ok = plan_fit(&g, tmo, a->pct, m, &one) == 0 && !one;
	free(v);
	free(tv);
	free(tn);
	free(tmo);
	return ok;
}

static bool
run_row(const struct ask_row *a, long reps, uint64_t seed)
{
	double *fit = xcalloc((size_t)reps, sizeof(double));
	double *tru = xcalloc((size_t)reps, sizeof(double));
	double *dt = xcalloc((size_t)reps, sizeof(double));
	double *dn = xcalloc((size_t)reps, sizeof(double));
	size_t nf = 0, nt = 0, nd = 0, wf = 0, wt = 0;
	struct stats_rng r;
	double mf, mt;
	long i;

	stats_rng_seed(&r, seed);
	for (i = 0; i < reps; i++) {
		struct plan_model m;
		struct plan_ask ask = { a->pct, a->pool, a->width, LEVEL, 0 };
		struct plan_design d;
		double g;

		if (!pilot_fit(&r, a, &m) || plan_design(&m, &ask, &d) ||
		    !d.possible)
			continue;
		dt[nd] = (double)d.trials;
		dn[nd++] = (double)d.per_trial;
		g = campaign(&r, a, &m, d.trials, d.per_trial);
		if (isnan(g))
			wf++;
		else
			fit[nf++] = g / a->width;
		g = campaign(&r, a, NULL, d.trials, d.per_trial);
		if (isnan(g))
			wt++;
		else
			tru[nt++] = g / a->width;
	}
	mf = median_of(fit, nf);
	mt = median_of(tru, nt);
	printf("| %s | p%g | %s | ±%g %% | %zu / %ld | %g × %g | %.2f | %.2f "
	    "| %.1f / %.1f |\n", a->truth->name, a->pct,
	    a->pool == STATS_POOL_POOLED ? "pooled" : "trials",
	    100 * a->width, nd, reps, median_of(dt, nd), median_of(dn, nd),
	    mf, mt, nd ? 100.0 * (double)wf / (double)nd : NAN,
	    nd ? 100.0 * (double)wt / (double)nd : NAN);
	free(fit);
	free(tru);
	free(dt);
	free(dn);
	return nd > 0 && mf >= 0.85 && mf <= 1.15;
}

int
main(int argc, char **argv)
{
	long reps = 200;
	uint64_t seed = 37;
	bool check = false, all_ok = true;
	size_t i;
	int k;

	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--reps") && k + 1 < argc)
			reps = strtol(argv[++k], NULL, 10);
		else if (!strcmp(argv[k], "--seed") && k + 1 < argc)
			seed = strtoull(argv[++k], NULL, 10);
		else if (!strcmp(argv[k], "--check"))
			check = true;
		else {
			fprintf(stderr, "usage: plan [--reps R] [--seed S] "
			    "[--check]\n");
			return 2;
		}
	}
	if (reps < 1) {
		fprintf(stderr, "plan: --reps must be >= 1\n");
		return 2;
	}
	printf("| Design | Stat | Pool | Asked | Planned (reps) | Trials × "
	    "per trial (median) | Achieved / asked, fitted model | Achieved "
	    "/ asked, true generator | Withheld %%, fitted / true |\n"
	    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!run_row(&rows[i], reps, seed + i))
			all_ok = false;
	printf("\n_%ld repetitions a row, seed %llu; the median over "
	    "repetitions of the achieved hi / estimate - 1 over the width "
	    "asked (target 0.85-1.15)._\n", reps, (unsigned long long)seed);
	return check && !all_ok ? 1 : 0;
}
