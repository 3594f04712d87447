/*
 * t-interval.c - tests of stats/interval.c against the golden fixture
 * tests/fixtures/stats/interval.txt (numpy/scipy, written by
 * gen_interval.py beside it), its edges (too few trials, withheld
 * growth, pooled tails), the intervals that borrow a campaign's spread
 * (tests/fixtures/stats/borrow.txt, gen_borrow.py), and the first
 * coverage round's finding: with a 10 %
 * trial-to-trial drift and 3 trials the pooled order-statistic interval
 * analyze printed covered a third of the time, the trial-level one
 * covers near the nominal 95 %.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/stats.h"
#include "stats/verdict.h"
#include "tests/unit/harness.h"

#define FIX	"tests/fixtures/stats/interval.txt"
#define FIX_OUTLIER	"tests/fixtures/stats/outlier.txt"
#define FIX_SERIAL	"tests/fixtures/stats/serial.txt"
#define FIX_UNEQUAL	"tests/fixtures/stats/unequal.txt"
#define FIX_WELCHQ	"tests/fixtures/stats/welchq.txt"
#define FIX_BORROW	"tests/fixtures/stats/borrow.txt"

/* Fields of one fixture line (into a static buffer). */
static char line[65536];
static char *tok[4096];
static size_t ntok;

static bool
next_record(FILE *f)
{
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		ntok = 0;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		while (*p && ntok < ARRAY_SIZE(tok)) {
			while (*p == ' ' || *p == '\n')
				*p++ = '\0';
			if (!*p)
				break;
			tok[ntok++] = p;
			while (*p && *p != ' ' && *p != '\n')
				p++;
		}
		if (ntok)
			return true;
	}
	return false;
}

static double
num(size_t i)
{
	return i < ntok ? strtod(tok[i], NULL) : NAN;
}

static bool
close_to(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	/* stats_t_quantile() is good to about 1e-9 relative */
	return fabs(got - want) <= 1e-8 * fabs(want) + 1e-12;
}

#define CHECK_CLOSE(got, want, what) do { \
	double g_ = (got), w_ = (want); \
	CHECK(close_to(g_, w_), what); \
	if (!close_to(g_, w_)) \
		printf("#   got %.17g, want %.17g\n", g_, w_); \
} while (0)

static void
read_array(size_t *at, size_t n, double *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = num((*at)++);
}

/* stats_outlier_cells() against gen_outlier.py's numpy oracle of the
 * rule check outlier-trial states (stats/verdict.h): the trials each
 * campaign's rule flags, and how many cells have one. */
static void
test_outlier_golden(void)
{
	FILE *f = fopen(FIX_OUTLIER, "r");
	size_t ncases = 0;

	if (!f) {
		printf("# cannot open %s\n", FIX_OUTLIER);
		CHECK(0, "outlier fixture opens");
		return;
	}
	while (next_record(f)) {
		struct stats_outlier_cell oc[64];
		double st[64][15];
		bool fl[64][5];
		size_t nc, c, t, at = 2, nout, bad = 0;

		if (strcmp(tok[0], "cells"))
			continue;
		nc = (size_t)num(1);
		if (nc > 64) {
			CHECK(0, "outlier fixture: at most 64 cells");
			break;
		}
		memset(oc, 0, sizeof(oc));
		for (c = 0; c < nc; c++) {
			oc[c].k = (size_t)num(at++);
			oc[c].low_only = num(at++) != 0;
			if (oc[c].k > 5)
				oc[c].k = 5;
			read_array(&at, 3 * oc[c].k, st[c]);
			oc[c].st = st[c];
			oc[c].flag = fl[c];
		}
		nout = stats_outlier_cells(oc, nc);
		for (c = 0; c < nc; c++)
			for (t = 0; t < oc[c].k; t++)
				if (fl[c][t] != (num(at++) != 0)) {
					printf("#   case %zu cell %zu trial %zu: "
					    "got %d\n", ncases, c, t, fl[c][t]);
					bad++;
				}
		CHECK(bad == 0, "outlier trials = numpy oracle");
		CHECK_EQ_INT(nout, (size_t)num(at), "cells with an outlier "
		    "trial = numpy oracle");
		ncases++;
	}
	fclose(f);
	CHECK(ncases >= 12, "outlier fixture: all cases read");
	CHECK(stats_outlier_shared(2, 8) && !stats_outlier_shared(1, 8) &&
	    !stats_outlier_shared(4, 50) && stats_outlier_shared(5, 50),
	    "a shared cause: 2 cells and 10 % of them");
}

/* The within-run interval of serially correlated samples against
 * gen_serial.py (scipy's rankdata, bivariate normal cdf and binomial). */
static void
test_serial_golden(void)
{
	FILE *f = fopen(FIX_SERIAL, "r");
	static double x[4096];
	size_t counts[4] = { 0 };
	double worst = 0;

	if (!f) {
		printf("# cannot open %s\n", FIX_SERIAL);
		CHECK(0, "serial fixture opens");
		return;
	}
	while (next_record(f)) {
		size_t at = 1, n;

		if (!strcmp(tok[0], "serial")) {
			n = (size_t)num(at++);
			read_array(&at, n, x);
			CHECK_CLOSE(stats_serial_rank_corr(x, n), num(at),
			    "lag-1 rank autocorrelation = scipy rankdata");
			counts[0]++;
		} else if (!strcmp(tok[0], "vif")) {
			double rs = num(1), pct = num(2), want = num(4);
			double got = stats_indicator_vif(rs, pct,
			    (size_t)num(3));
			double e = fabs(got - want) / want;

			if (e > worst)
				worst = e;
			CHECK(e < 1e-6, "indicator VIF = scipy's bivariate "
			    "normal cdf (1e-6)");
			if (e >= 1e-6)
				printf("#   rs %g p%g: got %.12g want %.12g\n",
				    rs, pct, got, want);
			counts[1]++;
		} else if (!strcmp(tok[0], "sint")) {
			struct stats_interval iv;
			double pct = num(1), level = num(2), rs = num(3);

			at = 4;
			n = (size_t)num(at++);
			read_array(&at, n, x);
			stats_sample_interval_serial(x, n, pct, NAN, level, rs,
			    &iv);
			CHECK_CLOSE(iv.lo, num(at), "serial within-run interval: "
			    "lo = scipy (nan: withheld)");
			CHECK_CLOSE(iv.hi, num(at + 1), "serial within-run "
			    "interval: hi = scipy");
			CHECK(isnan(num(at)) == (iv.why != NULL),
			    "withheld exactly when scipy has no ranks, saying why");
			counts[2]++;
		} else if (!strcmp(tok[0], "interp")) {
			struct stats_rank_ci ci;

			CHECK(stats_quantile_ci((size_t)num(1), num(2), num(3),
			    STATS_CI_EQUAL_TAILED, &ci) == 0, "rank interval");
			CHECK(ci.available == (num(4) > 0),
			    "interpolated ranks: available as scipy's");
			if (ci.available) {
				CHECK(ci.lo == (size_t)num(4) &&
				    ci.hi == (size_t)num(5),
				    "equal-tailed ranks = scipy's binomial");
				CHECK(fabs(ci.rlo - num(6)) < 1e-9 &&
				    fabs(ci.rhi - num(7)) < 1e-9,
				    "interpolated ranks = Nyblom's weight from "
				    "scipy's binomial (1e-9)");
				if (!(fabs(ci.rhi - num(7)) < 1e-9))
					printf("#   n %g p%g: rhi %.12g want "
					    "%.12g\n", num(1), num(2), ci.rhi,
					    num(7));
			}
			counts[3]++;
		}
	}
	fclose(f);
	printf("# serial fixture: %zu series, %zu VIFs (worst relative "
	    "error %.2g), %zu intervals, %zu interpolated rank pairs\n",
	    counts[0], counts[1], worst, counts[2], counts[3]);
	CHECK(counts[0] >= 6 && counts[1] >= 48 && counts[2] >= 25 &&
	    counts[3] >= 10, "serial fixture: all records read");
	CHECK(isnan(stats_serial_rank_corr(x, 2)), "2 samples: no "
	    "autocorrelation");
	CHECK(stats_indicator_vif(NAN, 50, 300) == 1, "unknown: independent");
}

static void
test_goldens(void)
{
	FILE *f = fopen(FIX, "r");
	double a[4][64], x[4096], e[4];
	size_t counts[5] = { 0 };

	if (!f) {
		printf("# cannot open %s (run from the repository root)\n", FIX);
		CHECK(0, "fixture opens");
		return;
	}
	while (next_record(f)) {
		struct stats_interval iv;
		size_t at = 1, ta, tb, i;

		if (!strcmp(tok[0], "tint")) {
			double level = num(at++);
			bool lg = num(at++) != 0;

			ta = (size_t)num(at++);
			read_array(&at, ta, a[0]);
			stats_tl_interval(a[0], ta, num(at), level, lg, &iv);
			CHECK_CLOSE(iv.lo, num(at + 1), "t interval: lo = scipy");
			CHECK_CLOSE(iv.hi, num(at + 2), "t interval: hi = scipy");
			CHECK(iv.covers == STATS_COVERS_TRIALS,
			    "t interval covers trials");
			counts[0]++;
		} else if (!strcmp(tok[0], "contrast")) {
			bool ratio = !strcmp(tok[at++], "ratio");
			double level = num(at++);

			ta = (size_t)num(at++);
			tb = (size_t)num(at++);
			read_array(&at, ta, a[0]);
			read_array(&at, tb, a[1]);
			stats_tl_contrast(a[0], ta, num(at), a[1], tb,
			    num(at + 1), ratio ? STATS_RATIO : STATS_DELTA, level,
			    &iv);
			CHECK_CLOSE(iv.lo, num(at + 2), ratio ?
			    "ratio: lo = Welch on the log scale (scipy)" :
			    "delta: lo = Welch (scipy)");
			CHECK_CLOSE(iv.hi, num(at + 3), "contrast: hi = scipy");
			counts[1]++;
		} else if (!strcmp(tok[0], "growth")) {
			double level = num(at++);

			ta = (size_t)num(at++);
			tb = (size_t)num(at++);
			read_array(&at, ta, a[0]);
			read_array(&at, ta, a[1]);
			read_array(&at, tb, a[2]);
			read_array(&at, tb, a[3]);
			read_array(&at, 4, e);
			stats_tl_growth(a[0], a[1], ta, e[0], e[1], a[2], a[3], tb,
			    e[2], e[3], level, &iv);
			CHECK_CLOSE(iv.estimate, num(at), "growth = numpy "
			    "(NaN: withheld)");
			CHECK_CLOSE(iv.lo, num(at + 1), "growth lo = scipy");
			CHECK_CLOSE(iv.hi, num(at + 2), "growth hi = scipy");
			if (isnan(num(at)))
				CHECK_EQ_STR(iv.why, "Δp50 not distinguishable from 0",
				    "withheld growth says why");
			counts[2]++;
		} else if (!strcmp(tok[0], "pooled")) {
			double pct = num(at++), *tr[16], u[16], est;
			size_t n, ns[16];
			struct stats_trials st;

			ta = (size_t)num(at++);
			n = (size_t)num(at++);
			for (i = 0; i < ta; i++) {
				tr[i] = x + i * n;
				read_array(&at, n, tr[i]);
				ns[i] = n;
			}
			{
				double *pool = xmalloc(ta * n * sizeof(double));

				memcpy(pool, x, ta * n * sizeof(double));
				stats_sort(pool, ta * n);
				for (i = 0; i < ta; i++)
					stats_sort(tr[i], n);
				st.trial = (const double *const *)tr;
				st.n = ns;
				st.ntrials = ta;
				CHECK(stats_tl_values(&st, pool, ta * n,
				    STATS_EST_TYPE7, pct, STATS_POOL_POOLED, u,
				    &est) == 0, "pooled values");
				free(pool);
			}
			CHECK_CLOSE(est, num(at), "pooled quantile = numpy");
			for (i = 0; i < ta; i++)
				CHECK_CLOSE(u[i], num(at + 1 + i),
				    "trial's linearized value = numpy");
			counts[3]++;
		} else if (!strcmp(tok[0], "sample")) {
			double pct = num(at++), level = num(at++);
			size_t n = (size_t)num(at++);

			read_array(&at, n, x);
			stats_sort(x, n);
			stats_sample_interval(x, n, pct, NAN, level, &iv);
			CHECK_CLOSE(iv.lo, num(at), "within-run lo = equal-tailed "
			    "binomial ranks (scipy)");
			CHECK_CLOSE(iv.hi, num(at + 1), "within-run hi");
			CHECK(isnan(num(at)) ? iv.covers == STATS_COVERS_NONE :
			    iv.covers == STATS_COVERS_SAMPLES,
			    "within-run interval covers samples");
			counts[4]++;
		} else {
			CHECK(0, "known fixture tag");
		}
	}
	fclose(f);
	CHECK(counts[0] && counts[1] && counts[2] && counts[3] && counts[4],
	    "every kind of record was read");
}

static void
test_edges(void)
{
	static const double u[3] = { 1.0, 1.1, 0.9 };
	struct stats_interval iv;

	stats_tl_interval(u, 2, 1.05, 0.95, false, &iv);
	CHECK(iv.covers == STATS_COVERS_NONE && isnan(iv.lo),
	    "2 trials: no interval");
	CHECK_EQ_STR(iv.why, "2 trials: collect ≥ 3 trials for a trial-level "
	    "interval; pathstat plan --width W% says how many",
	    "2 trials: says how many to collect, and what sizes them");
	stats_tl_contrast(u, 3, 1.0, u, 1, 1.0, STATS_DELTA, 0.95, &iv);
	CHECK_EQ_STR(iv.why, "1 trial: collect ≥ 3 trials for a trial-level "
	    "interval; pathstat plan --width W% says how many",
	    "a delta with 1 trial a side: says why");
	stats_tl_contrast(u, 3, -1.0, u, 3, 1.0, STATS_RATIO, 0.95, &iv);
	CHECK(iv.covers == STATS_COVERS_NONE, "ratio of a negative: none");
	CHECK(stats_tl_unsupported(STATS_POOL_POOLED, STATS_EST_TYPE7, 99.0)
	    != NULL, "pooled p99: no interval offered");
	CHECK(stats_tl_unsupported(STATS_POOL_PER_TRIAL, STATS_EST_TYPE7,
	    99.0) == NULL, "--pool trials p99: offered");
	CHECK(stats_tl_unsupported(STATS_POOL_POOLED, STATS_EST_TYPE7, 50.0)
	    == NULL, "pooled p50: offered");
	CHECK_EQ_STR(stats_covers_name(STATS_COVERS_TRIALS), "trials",
	    "covers name: trials");
	CHECK_EQ_STR(stats_covers_name(STATS_COVERS_SAMPLES), "samples",
	    "covers name: samples");
	CHECK(stats_covers_name(STATS_COVERS_NONE) == NULL, "covers: none");
}

/*
 * The first coverage finding: 3 trials of 300 lognormal samples (sigma 0.3)
 * with a trial effect N(0, 0.1) on the log scale; the pooled p50's true
 * value is 1.  The pooled order-statistic interval (what `percentiles
 * --ci` printed) covered 32 %; the trial-level one must cover 90-99 %
 * over 400 seeded campaigns (Monte-Carlo SE about 1.1 %).
 */
static void
test_finding_pooled_coverage(void)
{
	enum { T = 3, N = 300, REPS = 400 };
	struct stats_rng rng;
	double *tr[T], pool[T * N], u[T], est;
	size_t ns[T], t, i, old_cov = 0, new_cov = 0;
	struct stats_trials st;
	int r;

	stats_rng_seed(&rng, 14);
	for (t = 0; t < T; t++) {
		tr[t] = xmalloc(N * sizeof(double));
		ns[t] = N;
	}
	st.trial = (const double *const *)tr;
	st.n = ns;
	st.ntrials = T;
	for (r = 0; r < REPS; r++) {
		struct stats_rank_ci rc;
		struct stats_interval iv;

		for (t = 0; t < T; t++) {
			double b = 0.1 * stats_rng_normal(&rng);

			for (i = 0; i < N; i++)
				tr[t][i] = exp(b + 0.3 * stats_rng_normal(&rng));
			stats_sort(tr[t], N);
			memcpy(pool + t * N, tr[t], N * sizeof(double));
		}
		stats_sort(pool, T * N);
		stats_quantile_ci(T * N, 50, 0.95, STATS_CI_NARROWEST, &rc);
		old_cov += pool[rc.lo - 1] <= 1.0 && 1.0 <= pool[rc.hi - 1];
		stats_tl_values(&st, pool, T * N, STATS_EST_TYPE7, 50,
		    STATS_POOL_POOLED, u, &est);
		stats_tl_interval(u, T, est, 0.95, true, &iv);
		new_cov += iv.lo <= 1.0 && 1.0 <= iv.hi;
	}
	for (t = 0; t < T; t++)
		free(tr[t]);
	printf("# pooled p50, 3 trials, sigma_b 0.1: order-statistic interval "
	    "covers %.1f %%, trial-level %.1f %%\n", 100.0 * (double)old_cov / REPS,
	    100.0 * (double)new_cov / REPS);
	CHECK(old_cov < REPS / 2, "the old pooled interval covers below 50 %");
	CHECK(new_cov >= REPS * 90 / 100 && new_cov <= REPS * 99 / 100,
	    "the trial-level interval covers 90-99 %");
}

/* Whether a reason is the one wanted (static strings, compared by
 * text). */
static bool
is_why(const char *got, const char *want)
{
	return got && !strcmp(got, want);
}

/* Rate-capped trials (most values at the cap) put the
 * pooled p50 on a run of ties, where the linearized share jumps and the
 * slope of the quantile function is 0, so every u_t was the pooled
 * quantile and the interval had width 0.  The trials' own p50s are then
 * the trial-level values.  Oracle by hand: type 7 p50 of 8 values is
 * the mean of the 4th and 5th; sd(183, 183, 179) / sqrt(3) = 4 / 3. */
static void
test_ties(void)
{
	double a1[8] = { 120, 150, 183, 183, 183, 183, 183, 183 };
	double a2[8] = { 120, 150, 183, 183, 183, 183, 183, 183 };
	double a3[8] = { 140, 160, 179, 179, 179, 179, 179, 183 };
	const double *tr[3] = { a1, a2, a3 };
	size_t ns[3] = { 8, 8, 8 }, i;
	double pool[24], u[3], est;
	struct stats_trials st = { tr, ns, 3 };
	struct stats_interval iv;

	memcpy(pool, a1, sizeof(a1));
	memcpy(pool + 8, a2, sizeof(a2));
	memcpy(pool + 16, a3, sizeof(a3));
	stats_sort(pool, 24);
	CHECK(is_why(stats_tl_method(&st, pool, 24, STATS_EST_TYPE7, 50,
	    STATS_POOL_POOLED), STATS_TL_BY_TRIALS_TIES),
	    "ties at the pooled p50: the trials' own values, said so");
	CHECK(stats_tl_values(&st, pool, 24, STATS_EST_TYPE7, 50,
	    STATS_POOL_POOLED, u, &est) == 0, "tied values");
	CHECK_CLOSE(est, 183, "pooled p50 is still the pooled one");
	CHECK_CLOSE(u[0], 183, "u_1 = trial 1's p50");
	CHECK_CLOSE(u[2], 179, "u_3 = trial 3's p50");
	stats_tl_interval(u, 3, est, 0.95, true, &iv);
	CHECK_CLOSE(iv.se, 4.0 / 3.0, "se from the trials' p50s, not 0");
	CHECK(iv.hi - iv.lo > 10, "the interval is not zero-width");
	/* two trials on one plateau (183, 183): withheld */
	CHECK(is_why(stats_tl_withhold(&st, NULL, 0, STATS_POOL_PER_TRIAL,
	    STATS_EST_TYPE7, 50, 0.95), STATS_WHY_PLATEAU),
	    "two trials' p50 on one plateau (183, 183): withheld");
	/* every trial's p50 on the same plateau: withheld */
	a3[2] = 183;
	for (i = 3; i < 7; i++)
		a3[i] = 183;
	stats_sort(a3, 8);
	CHECK(is_why(stats_tl_withhold(&st, NULL, 0, STATS_POOL_PER_TRIAL,
	    STATS_EST_TYPE7, 50, 0.95), STATS_WHY_PLATEAU),
	    "every trial's p50 on one plateau: withheld, with the reason");
	CHECK(is_why(stats_tl_withhold(&st, NULL, 0, STATS_POOL_PER_TRIAL,
	    STATS_EST_TYPE7, 10, 0.95), STATS_WHY_FEW_SAMPLES),
	    "p10 of 8 samples a trial: too few (needs 29)");
	/* continuous values: the linearization, no note */
	{
		double c[3][300], cp[900];
		const double *ct[3] = { c[0], c[1], c[2] };
		size_t cn[3] = { 300, 300, 40 };
		struct stats_trials cs = { ct, cn, 3 };
		struct stats_rng rng;
		size_t t;

		stats_rng_seed(&rng, 20);
		for (t = 0; t < 3; t++) {
			for (i = 0; i < 300; i++)
				c[t][i] = exp(0.3 * stats_rng_normal(&rng));
			stats_sort(c[t], 300);
			memcpy(cp + 300 * t, c[t], sizeof(c[t]));
		}
		stats_sort(cp, 900);
		cn[2] = 300;
		CHECK(stats_tl_method(&cs, cp, 900, STATS_EST_TYPE7, 50,
		    STATS_POOL_POOLED) == NULL,
		    "continuous, equal trials: the linearized share");
		CHECK(stats_tl_withhold(&cs, cp, 900, STATS_POOL_PER_TRIAL,
		    STATS_EST_TYPE7, 99, 0.95) == NULL,
		    "p99 of 300 a trial: an interval (299 needed)");
		CHECK(stats_tl_withhold(&cs, cp, 900, STATS_POOL_POOLED,
		    STATS_EST_TYPE7, 99, 0.95) != NULL,
		    "pooled p99: still none");
		/* trial 3 of 40: sizes apart by more than 1.5 x */
		cn[2] = 40;
		stats_sort(c[2], 40);
		memcpy(cp, c[0], sizeof(c[0]));
		memcpy(cp + 300, c[1], sizeof(c[1]));
		memcpy(cp + 600, c[2], 40 * sizeof(double));
		stats_sort(cp, 640);
		CHECK(is_why(stats_tl_method(&cs, cp, 640, STATS_EST_TYPE7, 50,
		    STATS_POOL_POOLED), STATS_TL_BY_TRIALS_SIZES),
		    "300/300/40: the trials' own values, said so");
		CHECK(is_why(stats_tl_withhold(&cs, NULL, 0, STATS_POOL_PER_TRIAL,
		    STATS_EST_TYPE7, 99, 0.95), STATS_WHY_FEW_SAMPLES),
		    "p99 with a trial of 40: too few samples");	}
	/* a short trial among many: down-weighted, not withheld */
	{
		static double big[300], small[150];
		const double *trs[63];
		size_t tn[63], t;

		for (i = 0; i < 300; i++)
			big[i] = 1 + (double)i / 300;
		for (i = 0; i < 150; i++)
			small[i] = 1 + (double)i / 150;
		for (t = 0; t < 63; t++) {
			trs[t] = t == 17 ? small : big;
			tn[t] = t == 17 ? 150 : 300;
		}
		{
			struct stats_trials g = { trs, tn, 63 };

			CHECK(stats_tl_withhold(&g, NULL, 0,
			    STATS_POOL_PER_TRIAL, STATS_EST_TYPE7, 99,
			    0.95) == NULL, "p99, one trial of 150 among 63 "
			    "of 300: an interval (the short one weighed)");
			g.ntrials = 9;
			trs[3] = trs[5] = small;
			tn[3] = tn[5] = 150;
			CHECK(is_why(stats_tl_withhold(&g, NULL, 0,
			    STATS_POOL_PER_TRIAL, STATS_EST_TYPE7, 99, 0.95),
			    STATS_WHY_FEW_SAMPLES), "p99, 2 short trials of 9: "
			    "fewer than 90 % have the samples, withheld");
		}
	}
	CHECK(is_why(stats_within_run_withhold(true), STATS_WHY_SERIES) &&
	    stats_within_run_withhold(false) == NULL,
	    "a time series has no within-run interval");
}

/* Near ties again: at a rate cap iperf3's values are not equal
 * but near (bits_per_second = the same bytes * 8 / interval lengths
 * that differ by tens of microseconds: 183.491-183.507 Mbit/s), and
 * equality alone found no tie, so a pooled p50 on the cap got the
 * linearization's too-narrow interval and two runs on one cap a t
 * interval.  Values within 1e-4 of the percentile (stats/interval.c
 * TIE_RTOL) are tied; 2e-4 apart are not.  Oracle by hand: the runs
 * below, counted. */
static void
test_near_ties(void)
{
	/* two runs at one cap of 183.5 Mbit/s, jittered by <= 44 ppm, and
	 * one at 179.3 */
	double a1[8] = { 120, 150, 183.491, 183.495, 183.499, 183.502,
	    183.504, 183.507 };
	double a2[8] = { 125, 160, 183.493, 183.496, 183.497, 183.500,
	    183.503, 183.506 };
	double a3[8] = { 140, 160, 179.291, 179.294, 179.297, 179.300,
	    179.303, 183.5 };
	const double *tr[3] = { a1, a2, a3 };
	size_t ns[3] = { 8, 8, 8 }, i;
	double pool[24], u[3], est;
	struct stats_trials st = { tr, ns, 3 };
	struct stats_interval iv;

	memcpy(pool, a1, sizeof(a1));
	memcpy(pool + 8, a2, sizeof(a2));
	memcpy(pool + 16, a3, sizeof(a3));
	stats_sort(pool, 24);
	CHECK(is_why(stats_tl_method(&st, pool, 24, STATS_EST_TYPE7, 50,
	    STATS_POOL_POOLED), STATS_TL_BY_TRIALS_TIES),
	    "near ties (44 ppm) at the pooled p50: the trials' own values");
	CHECK(stats_tl_values(&st, pool, 24, STATS_EST_TYPE7, 50,
	    STATS_POOL_POOLED, u, &est) == 0, "near-tied values");
	CHECK_CLOSE(u[2], 179.2955, "u_3 = trial 3's own p50");
	stats_tl_interval(u, 3, est, 0.95, true, &iv);
	CHECK(iv.hi - iv.lo > 5, "the interval is as wide as the trials "
	    "say, not the linearization's");
	CHECK(is_why(stats_tl_withhold(&st, NULL, 0, STATS_POOL_PER_TRIAL,
	    STATS_EST_TYPE7, 50, 0.95), STATS_WHY_PLATEAU),
	    "two runs' p50 on one jittered cap (183.5005, 183.4985): withheld");
	/* the second run's cap 1.5e-4 above the first's: two plateaus of
	 * their own, an interval */
	for (i = 2; i < 8; i++)
		a2[i] = a1[i] * (1 + 1.5e-4);
	CHECK(stats_tl_withhold(&st, NULL, 0, STATS_POOL_PER_TRIAL,
	    STATS_EST_TYPE7, 50, 0.95) == NULL,
	    "p50s 1.5e-4 apart: caps of their own, an interval");
	/* 0.5e-4 apart: one cap */
	for (i = 2; i < 8; i++)
		a2[i] = a1[i] * (1 + 0.5e-4);
	CHECK(is_why(stats_tl_withhold(&st, NULL, 0, STATS_POOL_PER_TRIAL,
	    STATS_EST_TYPE7, 50, 0.95), STATS_WHY_PLATEAU),
	    "p50s 0.5e-4 apart: one cap, withheld");
	/* values 2.5e-4 apart (a grid coarser than the tolerance): at most
	 * one within 1e-4 of a value, no run, no plateau */
	for (i = 2; i < 8; i++) {
		a1[i] = 183.5 * (1 + 2.5e-4 * (double)i);
		a2[i] = 183.5 * (1 + 2.5e-4 * (double)i + 1.25e-4);
	}
	CHECK(stats_tl_withhold(&st, NULL, 0, STATS_POOL_PER_TRIAL,
	    STATS_EST_TYPE7, 50, 0.95) == NULL,
	    "values 2.5e-4 apart: no run of ties, an interval");
	/* latency recorded to 1 us around 20 ms (1e-4 of it: 2 us), a
	 * narrow lognormal (sigma 0.03) of 400,000 a trial: about 1300
	 * values within 2 us of each p50, above the 632 a run needs, but a
	 * tenth of those within 20 us, no point mass (TIE_WIDE); the three
	 * p50s within 2 us of each other are no shared plateau */
	{
		enum { N = 400000 };
		double *c[3], *cp = xmalloc(3 * N * sizeof(double));
		const double *ct[3];
		size_t cn[3] = { N, N, N }, t, k;
		struct stats_trials cs = { ct, cn, 3 };
		struct stats_rng rng;
		static const double pcts[2] = { 50, 99 };

		stats_rng_seed(&rng, 2712);
		for (t = 0; t < 3; t++) {
			c[t] = xmalloc(N * sizeof(double));
			ct[t] = c[t];
			for (i = 0; i < N; i++)
				c[t][i] = round(20000 * exp(0.03 *
				    stats_rng_normal(&rng))) / 1000;
			stats_sort(c[t], N);
			memcpy(cp + (size_t)N * t, c[t], N * sizeof(double));
		}
		stats_sort(cp, 3 * (size_t)N);
		for (k = 0; k < 2; k++) {
			CHECK(stats_tl_method(&cs, cp, 3 * (size_t)N,
			    STATS_EST_TYPE7, pcts[k], STATS_POOL_POOLED) == NULL,
			    "latency to 1 us: no tie at the pooled percentile");
			CHECK(stats_tl_withhold(&cs, cp, 3 * (size_t)N,
			    STATS_POOL_PER_TRIAL, STATS_EST_TYPE7, pcts[k],
			    0.95) == NULL,
			    "latency to 1 us: no plateau, the interval stays");
		}
		for (t = 0; t < 3; t++)
			free(c[t]);
		free(cp);
	}
}

/* No interval beyond what the samples can make. */
static void
test_clip(void)
{
	struct stats_interval iv = { -163, -648, 321, 1, 2,
	    STATS_COVERS_TRIALS, NULL };
	double lo, hi;

	stats_contrast_range(100, 400, 300, 357, STATS_DELTA, &lo, &hi);
	CHECK_CLOSE(lo, -257, "least delta: min a - max b");
	CHECK_CLOSE(hi, 100, "largest delta: max a - min b");
	stats_interval_clip(&iv, lo, hi);
	CHECK_CLOSE(iv.lo, -257, "clipped below");
	CHECK_CLOSE(iv.hi, 100, "clipped above");
	stats_contrast_range(1, 2, 4, 8, STATS_RATIO, &lo, &hi);
	CHECK_CLOSE(lo, 0.125, "least ratio: min a / max b");
	CHECK_CLOSE(hi, 0.5, "largest ratio: max a / min b");
	iv.covers = STATS_COVERS_NONE;
	iv.lo = -1000;
	stats_interval_clip(&iv, -257, 100);
	CHECK(iv.lo == -1000, "no interval: nothing clipped");
}

/* The campaign's rule applies the cell's own rule to the statistic too:
 * two TIME_WAIT trials' p95s (5x) among trials 1 % apart
 * are flagged however wide the campaign's spread (K s ~ 96x here);
 * trials spread 15-30 % are not, whatever the scale. */
static void
test_outlier_pooled_own(void)
{
	static const double tw[5] = { 1.0, 4.95, 0.996, 5.0, 1.004 };
	static const double wide[5] = { 1.0, 0.85, 1.15, 0.75, 1.3 };
	bool f[5];
	double sc = 0.14, k = stats_outlier_pool_k(5, 8);

	CHECK(exp(k * sc) > 50, "the campaign's bar is far above 5x");
	CHECK_EQ_INT(stats_outlier_pooled(tw, 5, sc, 8, f, NULL), 2,
	    "two TIME_WAIT trials flagged by the cell's own spread");
	CHECK(!f[0] && f[1] && !f[2] && f[3] && !f[4],
	    "the flags are trials 2 and 4");
	CHECK_EQ_INT(stats_outlier_pooled(wide, 5, sc, 8, f, NULL), 0,
	    "trials 15-30 % apart: no flag");
	CHECK_EQ_INT(stats_outlier_pooled(tw, 5, NAN, 8, f, NULL), 0,
	    "no campaign scale: neither rule here");
}

/* Read one cell of a record: T sizes, then the trials' samples, into
 * x (sorted each) and a sorted pooled copy (caller frees *pool); the
 * view st points into x. */
static void
read_cell(size_t *at, size_t T, double *x, size_t *ns, const double **tr,
    double **pool, size_t *N, struct stats_trials *st)
{
	size_t t, off = 0;

	for (t = 0; t < T; t++)
		ns[t] = (size_t)num((*at)++);
	for (t = 0; t < T; t++) {
		read_array(at, ns[t], x + off);
		stats_sort(x + off, ns[t]);
		tr[t] = x + off;
		off += ns[t];
	}
	*pool = xmalloc(off * sizeof(double));
	memcpy(*pool, x, off * sizeof(double));
	stats_sort(*pool, off);
	*N = off;
	st->trial = tr;
	st->n = ns;
	st->ntrials = T;
}

/*
 * The pooled percentile of trials of unequal size, against
 * gen_unequal.py's numpy/scipy oracle of the rule (size- and
 * drift-weighted variance, Hartung-Knapp scale): the estimate, its
 * standard error (the sd of the values stats_tl_values gives over
 * sqrt(T)), the interval analyze prints, and delta and ratio of two
 * such cells.  The rule before (the plain sd of the trials' values)
 * differs from the oracle in every record.
 */
static void
test_unequal_golden(void)
{
	FILE *f = fopen(FIX_UNEQUAL, "r");
	static double xa[4096], xb[4096];
	size_t counts[2] = { 0 };

	if (!f) {
		printf("# cannot open %s (run from the repository root)\n",
		    FIX_UNEQUAL);
		CHECK(0, "unequal fixture opens");
		return;
	}
	while (next_record(f)) {
		struct stats_interval iv;
		struct stats_trials sa, sb;
		const double *ta[8], *tb[8];
		size_t na[8], nb[8], Na, Nb, at = 1, T, t;
		double *pa = NULL, *pb = NULL, ua[8], ub[8], ea, eb, m, sd;

		if (!strcmp(tok[0], "unequal")) {
			double pct = num(at++), level = num(at++);

			T = (size_t)num(at++);
			read_cell(&at, T, xa, na, ta, &pa, &Na, &sa);
			CHECK(stats_tl_method(&sa, pa, Na, STATS_EST_TYPE7, pct,
			    STATS_POOL_POOLED) != NULL,
			    "unequal sizes: from the trials' own values");
			CHECK(stats_tl_values(&sa, pa, Na, STATS_EST_TYPE7, pct,
			    STATS_POOL_POOLED, ua, &ea) == 0, "unequal values");
			CHECK_CLOSE(ea, num(at), "pooled quantile = numpy");
			m = stats_mean(ua, T);
			CHECK_CLOSE(m, num(at), "the values' mean is the estimate");
			sd = 0;
			for (t = 0; t < T; t++)
				sd += (ua[t] - m) * (ua[t] - m);
			sd = sqrt(sd / (double)(T - 1) / (double)T);
			CHECK_CLOSE(sd, num(at + 1), "se = the oracle's "
			    "size- and drift-weighted se");
			CHECK(fabs(num(at + 4) - num(at + 1)) > 0.02 * num(at + 1),
			    "the rule before (plain sd) differs by > 2 %");
			stats_tl_interval(ua, T, ea, level, true, &iv);
			CHECK_CLOSE(iv.lo, num(at + 2), "unequal interval lo = "
			    "scipy");
			CHECK_CLOSE(iv.hi, num(at + 3), "unequal interval hi = "
			    "scipy");
			counts[0]++;
		} else if (!strcmp(tok[0], "ucontrast")) {
			bool ratio = !strcmp(tok[at++], "ratio");
			double pct = num(at++), level = num(at++);

			T = (size_t)num(at++);
			read_cell(&at, T, xa, na, ta, &pa, &Na, &sa);
			read_cell(&at, T, xb, nb, tb, &pb, &Nb, &sb);
			stats_tl_values(&sa, pa, Na, STATS_EST_TYPE7, pct,
			    STATS_POOL_POOLED, ua, &ea);
			stats_tl_values(&sb, pb, Nb, STATS_EST_TYPE7, pct,
			    STATS_POOL_POOLED, ub, &eb);
			stats_tl_contrast(ua, T, ea, ub, T, eb, ratio ?
			    STATS_RATIO : STATS_DELTA, level, &iv);
			CHECK_CLOSE(iv.estimate, num(at), "unequal contrast");
			CHECK_CLOSE(iv.lo, num(at + 1), "unequal contrast lo = "
			    "scipy (Welch)");
			CHECK_CLOSE(iv.hi, num(at + 2), "unequal contrast hi");
			counts[1]++;
		} else {
			CHECK(0, "known unequal fixture tag");
		}
		free(pa);
		free(pb);
	}
	fclose(f);
	CHECK(counts[0] >= 4 && counts[1] >= 4, "unequal fixture: all "
	    "records read");
}

/*
 * --pool trials of trials of unequal size: the trials' own
 * variances (stats_tl_trial_var) and the delta and ratio with the t
 * quantile from Welch's statistic's own distribution under them
 * (stats_tl_contrast_v), against gen_welchq.py's numpy/scipy oracle
 * (eigvalsh, quad, brentq, checked there against a Monte-Carlo).  Welch's
 * t quantile, the rule before, differs from the oracle in every record.
 */
static void
test_welchq_golden(void)
{
	FILE *f = fopen(FIX_WELCHQ, "r");
	static double xa[4096], xb[4096];
	size_t counts[2] = { 0 };

	if (!f) {
		printf("# cannot open %s (run from the repository root)\n",
		    FIX_WELCHQ);
		CHECK(0, "welchq fixture opens");
		return;
	}
	while (next_record(f)) {
		struct stats_interval iv, old;
		struct stats_trials sa, sb;
		const double *ta[8], *tb[8];
		size_t na[8], nb[8], Na, Nb, at = 1, T, t;
		double *pa = NULL, *pb = NULL, ua[8], ub[8], va[8], vb[8], ea,
		    eb;
		bool hva, hvb;

		if (!strcmp(tok[0], "wvar")) {
			double pct = num(at++);

			T = (size_t)num(at++);
			read_cell(&at, T, xa, na, ta, &pa, &Na, &sa);
			CHECK(stats_tl_values(&sa, NULL, 0, STATS_EST_TYPE7, pct,
			    STATS_POOL_PER_TRIAL, ua, &ea) == 0, "trial values");
			CHECK(stats_tl_trial_var(&sa, STATS_EST_TYPE7, pct,
			    STATS_POOL_PER_TRIAL, ua, va), "unequal sizes, "
			    "--pool trials: variances");
			for (t = 0; t < T; t++)
				CHECK_CLOSE(va[t], num(at + t), "v_t = tau^2 + "
				    "c / n_t = numpy");
			CHECK(!stats_tl_trial_var(&sa, STATS_EST_TYPE7, pct,
			    STATS_POOL_POOLED, ua, va), "pooled: none");
			CHECK(!stats_tl_trial_var(&sa, STATS_EST_MEAN, pct,
			    STATS_POOL_PER_TRIAL, ua, va), "the mean: none");
			counts[0]++;
		} else if (!strcmp(tok[0], "wcontrast")) {
			bool ratio = !strcmp(tok[at++], "ratio");
			double pct = num(at++), level = num(at++);
			enum stats_contrast k = ratio ? STATS_RATIO :
			    STATS_DELTA;

			T = (size_t)num(at++);
			read_cell(&at, T, xa, na, ta, &pa, &Na, &sa);
			read_cell(&at, T, xb, nb, tb, &pb, &Nb, &sb);
			stats_tl_values(&sa, NULL, 0, STATS_EST_TYPE7, pct,
			    STATS_POOL_PER_TRIAL, ua, &ea);
			stats_tl_values(&sb, NULL, 0, STATS_EST_TYPE7, pct,
			    STATS_POOL_PER_TRIAL, ub, &eb);
			hva = stats_tl_trial_var(&sa, STATS_EST_TYPE7, pct,
			    STATS_POOL_PER_TRIAL, ua, va);
			hvb = stats_tl_trial_var(&sb, STATS_EST_TYPE7, pct,
			    STATS_POOL_PER_TRIAL, ub, vb);
			CHECK(hva, "cell a: unequal sizes");
			stats_tl_contrast_v(ua, hva ? va : NULL, T, ea, ub,
			    hvb ? vb : NULL, T, eb, k, level, &iv);
			CHECK(iv.covers == STATS_COVERS_TRIALS, "an interval");
			CHECK_CLOSE(iv.estimate, num(at), "welchq estimate");
			CHECK_CLOSE(iv.lo, num(at + 1), "welchq lo = scipy");
			CHECK_CLOSE(iv.hi, num(at + 2), "welchq hi = scipy");
			CHECK(isnan(iv.df), "no t df");
			stats_tl_contrast(ua, T, ea, ub, T, eb, k, level, &old);
			CHECK_CLOSE(old.lo, num(at + 3), "Welch lo (the rule "
			    "before) = scipy");
			CHECK(fabs(old.lo - iv.lo) > 1e-3 * fabs(iv.hi - iv.lo),
			    "the rule before differs");
			counts[1]++;
		} else {
			CHECK(0, "known welchq fixture tag");
		}
		free(pa);
		free(pb);
	}
	fclose(f);
	CHECK(counts[0] >= 4 && counts[1] >= 6, "welchq fixture: all "
	    "records read");
}

/* Equal variances in two cells of equal size: Welch's statistic is
 * then the pooled two-sample t, of 2 (T - 1) df exactly. */
static void
test_welchq_equal(void)
{
	double ua[3] = { 1.0, 1.1, 0.7 }, ub[3] = { 0.9, 1.0, 1.3 };
	double v[3] = { 2, 2, 2 }, v4[3] = { 1, 1, 7.5 };
	struct stats_interval iv, w;

	stats_tl_contrast_v(ua, v, 3, 0.93, ub, v, 3, 1.07, STATS_DELTA,
	    0.95, &iv);
	CHECK(fabs((iv.hi - iv.estimate) / iv.se -
	    stats_t_quantile(0.975, 4)) < 1e-8, "equal variances: t_4");
	stats_tl_contrast_v(ua, v4, 3, 0.93, ub, v4, 3, 1.07, STATS_DELTA,
	    0.95, &iv);
	stats_tl_contrast(ua, 3, 0.93, ub, 3, 1.07, STATS_DELTA, 0.95, &w);
	CHECK(iv.hi - iv.lo < w.hi - w.lo, "one noisy trial a side: "
	    "narrower than Welch's");
	stats_tl_contrast_v(ua, NULL, 3, 0.93, ub, NULL, 3, 1.07,
	    STATS_DELTA, 0.95, &iv);
	CHECK(iv.lo == w.lo && iv.hi == w.hi && iv.df == w.df,
	    "no variances: Welch's, bit for bit");
}

/* Sizes within 1.5x (297 against 300 successes: a failure or two) get
 * no variances, as the pooled rule (stats_tl_method) has it; 300 and
 * 199 do. */
static void
test_welchq_sizes(void)
{
	static double x[3][300];
	const double *tr[3] = { x[0], x[1], x[2] };
	size_t n[3] = { 300, 297, 300 }, t, i;
	struct stats_trials st = { tr, n, 3 };
	double u[3], v[3], e;

	for (t = 0; t < 3; t++)
		for (i = 0; i < 300; i++)
			x[t][i] = 10 + (double)i / 30 + (double)t / 7;
	stats_tl_values(&st, NULL, 0, STATS_EST_TYPE7, 50,
	    STATS_POOL_PER_TRIAL, u, &e);
	CHECK(!stats_tl_trial_var(&st, STATS_EST_TYPE7, 50,
	    STATS_POOL_PER_TRIAL, u, v), "297 / 300: Welch's, no variances");
	n[1] = 200;
	stats_tl_values(&st, NULL, 0, STATS_EST_TYPE7, 50,
	    STATS_POOL_PER_TRIAL, u, &e);
	CHECK(!stats_tl_trial_var(&st, STATS_EST_TYPE7, 50,
	    STATS_POOL_PER_TRIAL, u, v), "200 / 300 (1.5x): no variances");
	n[1] = 199;
	stats_tl_values(&st, NULL, 0, STATS_EST_TYPE7, 50,
	    STATS_POOL_PER_TRIAL, u, &e);
	CHECK(stats_tl_trial_var(&st, STATS_EST_TYPE7, 50,
	    STATS_POOL_PER_TRIAL, u, v) && v[1] > v[0] && v[0] == v[2],
	    "199 / 300: variances, the smaller trial's larger");
}

/* One cborrow record: the delta or ratio of the campaign's cells 1 and
 * 2, each side borrowing the campaign's spread. */
static void
borrow_contrast_record(void)
{
	struct stats_borrow b;
	struct stats_interval iv;
	bool ratio = !strcmp(tok[1], "ratio");
	double level = num(2), e[2] = { NAN, NAN }, u[2][16];
	size_t K = (size_t)num(3), T = (size_t)num(4), at = 5, c, t;

	if (T > 16 || ntok != 5 + K * (T + 1) + 3)
		return;
	memset(&b, 0, sizeof(b));
	for (c = 0; c < K; c++) {
		double ec = num(at++), uc[16];

		for (t = 0; t < T; t++)
			uc[t] = num(at++);
		stats_borrow_add(&b, uc, T, ec);
		if (c < 2) {
			e[c] = ec;
			memcpy(u[c], uc, T * sizeof(double));
		}
	}
	stats_tl_contrast_borrow(u[0], NULL, T, e[0], &b, u[1], NULL, T, e[1],
	    &b, ratio ? STATS_RATIO : STATS_DELTA, level, &iv);
	CHECK_CLOSE(iv.lo, num(at), ratio ? "cborrow ratio lo" :
	    "cborrow delta lo");
	CHECK_CLOSE(iv.hi, num(at + 1), ratio ? "cborrow ratio hi" :
	    "cborrow delta hi");
	CHECK_CLOSE(iv.df, num(at + 2), "cborrow df");
}

/*
 * borrow.txt: a cell's interval borrows the spread of the campaign's
 * cells of its design (3 or more), with their degrees of freedom; a
 * cell none of whose trials was slow gets a wider interval than its
 * own; two cells borrow nothing; a cell noisier throughout keeps its
 * robust own spread.
 */
static void
test_borrow_golden(void)
{
	FILE *f = fopen(FIX_BORROW, "r");
	size_t nrec = 0, ncon = 0;

	CHECK(f != NULL, "open " FIX_BORROW);
	if (!f)
		return;
	while (next_record(f)) {
		struct stats_borrow b;
		struct stats_interval iv, own;
		double level = num(1), e0 = NAN, u0[16];
		size_t K = (size_t)num(2), T = (size_t)num(3), at = 4, c, t;
		char what[96];

		if (!strcmp(tok[0], "cborrow")) {
			borrow_contrast_record();
			ncon++;
			continue;
		}
		if (strcmp(tok[0], "borrow") || T > 16 ||
		    ntok != 4 + K * (T + 1) + 3)
			continue;
		memset(&b, 0, sizeof(b));
		for (c = 0; c < K; c++) {
			double e = num(at++), u[16];

			for (t = 0; t < T; t++)
				u[t] = num(at++);
			stats_borrow_add(&b, u, T, e);
			if (c == 0) {
				e0 = e;
				memcpy(u0, u, T * sizeof(double));
			}
		}
		CHECK(b.cells == K, "borrow: every cell added");
		stats_tl_interval_borrow(u0, T, e0, level, &b, &iv);
		snprintf(what, sizeof(what), "borrow %zu: K %zu, T %zu lo",
		    nrec, K, T);
		CHECK_CLOSE(iv.lo, num(at), what);
		snprintf(what, sizeof(what), "borrow %zu: hi", nrec);
		CHECK_CLOSE(iv.hi, num(at + 1), what);
		snprintf(what, sizeof(what), "borrow %zu: df", nrec);
		CHECK_CLOSE(iv.df, num(at + 2), what);
		CHECK(iv.covers == STATS_COVERS_TRIALS, "borrow: covers trials");
		stats_tl_interval(u0, T, e0, level, true, &own);
		if (nrec == 0)
			CHECK(iv.hi - iv.lo > 1.5 * (own.hi - own.lo),
			    "borrow: a cell none of whose trials was slow, "
			    "over 1.5 times its own interval's width");
		if (K < STATS_BORROW_MIN_CELLS)
			CHECK(iv.lo == own.lo && iv.hi == own.hi,
			    "borrow: two cells, the cell's own interval");
		nrec++;
	}
	fclose(f);
	CHECK(nrec == 5, "borrow.txt: 5 records");
	CHECK(ncon == 8, "borrow.txt: 8 contrast records");
}

/* What adds to a campaign's spread and what is one design. */
static void
test_borrow_edges(void)
{
	struct stats_borrow b;
	struct stats_interval iv;
	const double u[3] = { 9, 10, 11 };

	memset(&b, 0, sizeof(b));
	stats_borrow_add(&b, u, 2, 10);
	stats_borrow_add(&b, u, 3, 0);
	stats_borrow_add(&b, u, 3, NAN);
	CHECK(b.cells == 0 && b.df == 0, "borrow: 2 values, estimate 0 or "
	    "NaN add nothing");
	stats_borrow_add(&b, u, 3, 10);
	CHECK(b.cells == 1 && b.df == 2 && close_to(b.ss, 0.02),
	    "borrow: 9, 10, 11 around 10 add 0.02 on 2 df");
	CHECK(stats_borrow_similar(300, 450) && stats_borrow_similar(450,
	    300) && !stats_borrow_similar(300, 451) &&
	    !stats_borrow_similar(0, 300), "borrow: sizes within 1.5x");
	/* too few trials: no interval, borrowed or not */
	b.cells = 8;
	b.df = 32;
	stats_tl_interval_borrow(u, 2, 10, 0.95, &b, &iv);
	CHECK(iv.covers == STATS_COVERS_NONE && iv.why != NULL,
	    "borrow: 2 trials still have no interval");
}

int
main(void)
{
	test_goldens();
	test_outlier_golden();
	test_outlier_pooled_own();
	test_serial_golden();
	test_unequal_golden();
	test_welchq_golden();
	test_welchq_equal();
	test_welchq_sizes();
	test_edges();
	test_finding_pooled_coverage();
	test_ties();
	test_near_ties();
	test_clip();
	test_borrow_golden();
	test_borrow_edges();
	return test_done();
}
