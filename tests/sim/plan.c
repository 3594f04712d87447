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
 * was withheld.  A second table does the same for --detect: the trials
 * a side planned for 80 % power, the power promised, the share of one
 * campaign a repetition (fitted model, true generator) whose row passes
 * compare's test after compare's adjustment, and the smallest design
 * that reaches 80 % from the true generator.  With --check the exit
 * status is 1 when the fitted model's median ratio lies outside
 * 0.85-1.15, its achieved power more than 0.10 from the promise, the
 * true generator's more than 0.10 from 80 % (the pilot's spread is
 * planned at an upper bound for that), or the median plan above 1.25
 * times the smallest design.  The iperf3 design
 * draws each run as coverage.c does (tests/sim/ar1cap.h: AR(1) capped
 * with near ties); its pilot's rho comes from the runs in time order
 * (plan_series_rho, as the command reads a series metric), and the
 * fitted model's campaign is an AR(1) at that rho, uncapped.
 *
 *   plan [--reps R] [--seed S] [--check]
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "analyze/plan.h"
#include "common/xalloc.h"
#include "stats/stats.h"
#include "tests/sim/ar1cap.h"

#define LEVEL		0.95
#define TIMEOUT_VALUE	2000.0	/* a timed-out probe, above every success */

struct truth {
	const char *name;
	double within, between, loss;	/* log-normal body, trial sd, loss */
	double slow_share, slow_factor;	/* a slow mode (oha), 0: none */
	size_t pilot_trials, pilot_n;
	/* iperf3: a run's intervals are an AR(1) series with lag-1
	 * correlation rho on the normal scale (0: independent), capped
	 * at the body's cap_q quantile (0: no cap) with near ties
	 * (tests/sim/ar1cap.h, the generator coverage.c draws iperf3
	 * from) */
	double rho, cap_q, jitter;
};

struct ask_row {
	const struct truth *truth;
	double pct, width;
	enum stats_pool pool;
};

static const struct truth probes = { "probes with 0.5 % timeouts",
	0.3, 0.05, 0.005, 0, 1, 3, 300, 0, 0, 0 };
static const struct truth oha = { "oha heavy tail (7 % slow mode x5)",
	0.25, 0.05, 0, 0.07, 5, 3, 1000, 0, 0, 0 };
/* coverage.c's iperf3-3x30: 3 runs x 30 intervals, AR(1) rho 0.8, sd
 * 0.1, trial sd 0.05, 60 % of the intervals at the cap (2e-5 near
 * ties) */
static const struct truth iperf3 = { "iperf3 capped AR(1) (ρ 0.8, 60 % "
	"at the cap)", 0.1, 0.05, 0, 0, 1, 3, 30, 0.8, 0.4, 2e-5 };

static const struct ask_row rows[] = {
	{ &probes, 50, 0.05, STATS_POOL_POOLED },
	{ &probes, 95, 0.05, STATS_POOL_PER_TRIAL },
	{ &probes, 95, 0.10, STATS_POOL_PER_TRIAL },
	{ &oha, 50, 0.03, STATS_POOL_POOLED },
	{ &oha, 95, 0.10, STATS_POOL_PER_TRIAL },
	{ &oha, 99, 0.10, STATS_POOL_PER_TRIAL },
	{ &iperf3, 10, 0.05, STATS_POOL_PER_TRIAL },
	{ &iperf3, 25, 0.05, STATS_POOL_POOLED },
};

/* --detect: a difference of detect between k groups, at 80 % power. */
struct detect_row {
	const struct truth *truth;
	double pct, detect;
	size_t groups;
};

static const struct detect_row detect_rows[] = {
	{ &probes, 50, 0.10, 2 },
	{ &probes, 95, 0.10, 8 },
	{ &oha, 95, 0.15, 2 },
};

#define POWER_TARGET	0.8

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

/* One trial of n attempts from m (NULL: the truth): values[0..n) in
 * time order (timeouts at TIMEOUT_VALUE); returns the timeouts.  The
 * fitted model's series is AR(1) at its rho, uncapped. */
static size_t
draw_series(struct stats_rng *r, const struct truth *tr,
    const struct plan_model *m, double *values, size_t n)
{
	double within = m ? m->within : tr->within;
	double between = m ? m->between : tr->between;
	double loss = m ? m->loss : tr->loss;
	double rho = m ? m->rho : tr->rho;
	double shift = between * stats_rng_normal(r), z = 0;
	double cap = !m && tr->cap_q > 0 ? 10.0 * exp(tr->within *
	    stats_norm_quantile(tr->cap_q)) : INFINITY;
	size_t i, tmo = 0;

	for (i = 0; i < n; i++) {
		double v;

		z = i && rho > 0 ? ar1cap_next(r, z, rho) :
		    stats_rng_normal(r);
		v = 10.0 * exp(shift + within * z);
		if (v > cap)
			v = ar1cap_near_tie(cap, tr->jitter, z);
		if (!m && tr->slow_share > 0 &&
		    stats_rng_uniform(r) < tr->slow_share)
			v *= tr->slow_factor;
		if (stats_rng_uniform(r) < loss) {
			v = TIMEOUT_VALUE;
			tmo++;
		}
		values[i] = v;
	}
	return tmo;
}

/* draw_series(), sorted. */
static size_t
draw_trial(struct stats_rng *r, const struct truth *tr,
    const struct plan_model *m, double *values, size_t n)
{
	size_t tmo = draw_series(r, tr, m, values, n);

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

	memset(m, 0, sizeof(*m));
	for (t = 0; t < tr->pilot_trials; t++) {
		double *x = v + t * tr->pilot_n;

		tmo[t] = draw_series(r, tr, NULL, x, tr->pilot_n);
		tv[t] = x;
		tn[t] = tr->pilot_n;
	}
	g.trial = tv;
	g.n = tn;
	g.ntrials = tr->pilot_trials;
	/* a series' rho from the runs in time order, as the command
	 * reads a series metric; then sorted (timeouts on top) */
	if (tr->rho > 0)
		m->rho = plan_series_rho(&g);
	if (isnan(m->rho))
		m->rho = 0;
	for (t = 0; t < tr->pilot_trials; t++) {
		stats_sort(v + t * tr->pilot_n, tr->pilot_n);
		tn[t] = tr->pilot_n - tmo[t];
	}
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

/* One compared campaign of k groups of T trials of n attempts from m
 * (NULL: the truth), the first non-baseline group's values times 1 +
 * detect: whether compare's test, after compare's adjustment over the
 * k - 1 rows, finds that row (p < 1 - LEVEL). */
static bool
detect_campaign(struct stats_rng *r, const struct detect_row *a,
    const struct plan_model *m, size_t T, size_t n)
{
	size_t k = a->groups, g, t;
	double *v = xcalloc(n, sizeof(double));
	double *u = xcalloc(k * T, sizeof(double));
	double *p = xcalloc(k, sizeof(double));
	bool hit;

	for (g = 0; g < k; g++)
		for (t = 0; t < T; t++) {
			draw_trial(r, a->truth, m, v, n);
			u[g * T + t] = stats_quantile_type7(v, n, a->pct) *
			    (g == 1 ? 1.0 + a->detect : 1.0);
		}
	for (g = 1; g < k; g++) {
		struct stats_test test;

		analyze_compare_test(u + g * T, T, u, T, &test);
		p[g - 1] = test.p;
	}
	analyze_compare_adjust(p, k - 1);
	hit = isfinite(p[0]) && p[0] < 1.0 - LEVEL;
	free(v);
	free(u);
	free(p);
	return hit;
}

/* Power at T a side from the truth, over reps campaigns. */
static double
true_power(const struct detect_row *a, size_t T, size_t n, long reps,
    uint64_t seed)
{
	struct stats_rng r;
	long i, hit = 0;

	stats_rng_seed(&r, seed);
	for (i = 0; i < reps; i++)
		hit += detect_campaign(&r, a, NULL, T, n);
	return (double)hit / (double)reps;
}

/* The --detect row: pilot, fit, plan (as the command does), then the
 * planned campaign from the fitted model and from the truth; and the
 * smallest design the truth needs.  true: within the targets. */
static bool
run_detect_row(const struct detect_row *a, long reps, uint64_t seed)
{
	struct ask_row as = { a->truth, a->pct, 0.1, STATS_POOL_PER_TRIAL };
	double *dt = xcalloc((size_t)reps, sizeof(double)), promised = 0;
	double pf, pt, tmed, tmin_power = 0;
	size_t nd = 0, hf = 0, ht = 0, n = 0, tmin;
	struct stats_rng r;
	long i;

	stats_rng_seed(&r, seed);
	for (i = 0; i < reps; i++) {
		struct plan_model m;
		struct plan_power_ask pa;
		struct plan_power_result d;
		size_t unc;

		if (!pilot_fit(&r, &as, &m))
			continue;
		unc = plan_uncensored(m.loss, a->pct);
		n = a->truth->pilot_n > unc ? a->truth->pilot_n : unc;
		memset(&pa, 0, sizeof(pa));
		pa.detect = a->detect;
		pa.sd = sqrt(plan_trial_var(&m, a->pct, n));
		pa.groups = a->groups;
		pa.level = LEVEL;
		pa.target = POWER_TARGET;
		pa.reps = 500;
		if (plan_power_design(&pa, &d) || !d.possible)
			continue;
		dt[nd++] = (double)d.units;
		promised += d.power;
		hf += detect_campaign(&r, a, &m, d.units, n);
		ht += detect_campaign(&r, a, NULL, d.units, n);
	}
	promised = nd ? promised / (double)nd : NAN;
	pf = nd ? (double)hf / (double)nd : NAN;
	pt = nd ? (double)ht / (double)nd : NAN;
	tmed = median_of(dt, nd);
	n = plan_uncensored(a->truth->loss, a->pct);
	n = a->truth->pilot_n > n ? a->truth->pilot_n : n;
	for (tmin = 2; tmin < 200; tmin++) {
		tmin_power = true_power(a, tmin, n, reps, seed + 1000);
		if (tmin_power >= POWER_TARGET)
			break;
	}
	printf("| %s | p%g | %g %% | %zu | %zu / %ld | %g | %.2f | %.2f | "
	    "%.2f | %zu (%.2f) |\n", a->truth->name, a->pct,
	    100 * a->detect, a->groups, nd, reps, tmed, promised, pf, pt,
	    tmin, tmin_power);
	free(dt);
	return nd > 0 && fabs(pf - promised) <= 0.10 &&
	    fabs(pt - POWER_TARGET) <= 0.10 && tmed <= 1.25 * (double)tmin;
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
	printf("\n| Design | Stat | Detect | Groups | Planned (reps) | "
	    "Trials a side (median) | Power promised (mean) | Achieved, "
	    "fitted model | Achieved, true generator | Smallest design, "
	    "true generator (its power) |\n"
	    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (i = 0; i < sizeof(detect_rows) / sizeof(detect_rows[0]); i++)
		if (!run_detect_row(&detect_rows[i], reps, seed + 100 + i))
			all_ok = false;
	printf("\n_--detect: %ld repetitions a row (pilot, fit, plan, one "
	    "campaign each); achieved power: the share of campaigns whose "
	    "row passed compare's test after its adjustment (target: fitted "
	    "within 0.10 of the promise, true within 0.10 of 0.80); the "
	    "smallest design: the fewest trials a "
	    "side reaching 80 %% from the true generator (target: the median "
	    "plan at most 1.25 times it)._\n", reps);
	return check && !all_ok ? 1 : 0;
}
