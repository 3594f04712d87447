/*
 * coverage.c - the coverage harness for every interval `pathstat
 * analyze` prints.  It draws seeded campaigns in which a
 * trial's samples share a random effect (lognormal samples, sigma 0.3
 * within a trial, a trial-level offset N(0, sigma_b) on the log scale),
 * runs the library's own interval functions on them (stats/interval.c,
 * the same calls analyze makes) and counts how often the 95 % interval
 * holds the true value:
 *
 *   percentiles --ci (pooled and --pool trials), delta --ci, ratio --ci
 *   (compare's difference and ratio are the same two functions), the
 *   growth dp99 / dp50 of a delta, and the within-run interval printed
 *   for a single trial.
 *
 * Two paths: B, and A = 1.3 x B (the same shape).  True values: for the
 * pooled statistic the quantile of the population of all requests over
 * trials, exp(z_p sqrt(sigma^2 + sigma_b^2)); for --pool trials the mean
 * over trials of the trial's quantile, exp(z_p sigma + sigma_b^2 / 2);
 * for a single trial its own quantile.  Markdown tables on stdout, one
 * per interval and sample size: rows trials, columns sigma_b, each cell
 * "p50 / p99" in percent, with the share of repetitions where the
 * interval was printed when that is below 100 %.  With --check LO,HI the
 * exit status is 1 when any printed interval's coverage lies outside
 * (judged where at least MIN_JUDGED intervals were printed).
 *
 *   coverage [--reps R] [--seed S] [--n LIST] [--trials LIST]
 *            [--sigma-b LIST] [--check LO,HI]
 *   coverage --cells NAMES|all [--reps R] [--seed S] [--check LO,HI]
 *            [--borrow 0|1]
 *
 * In a campaign of 3 or more cells of one design (ncamp), A's
 * percentile interval, and the delta and ratio of A and B, borrow the
 * spread of the trials the campaign's cells share
 * (stats_tl_interval_borrow(), stats_tl_contrast_borrow(), analyze's
 * calls); --borrow 0 measures the cells' own intervals instead.
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/stats.h"
#include "stats/verdict.h"
#include "tests/sim/ar1cap.h"

#define SIGMA_W		0.3
#define SCALE_A		1.3
#define LEVEL		0.95
#define MAXLIST		16
#define MIN_JUDGED	50	/* printed intervals a cell needs for --check */

enum kind { K_PCT, K_DELTA, K_RATIO, K_GROWTH, K_SAMPLE, NKIND };
static const char *const kind_name[NKIND] = {
	"percentiles --ci", "delta --ci (and compare's difference)",
	"ratio --ci (and compare's ratio)", "growth Δp99/Δp50 (delta)",
	"percentiles --ci of a single trial (within-run)",
};

/* Counts for one grid point, one interval kind, pool and percentile. */
struct tally {
	long reps, printed, covered;
};

struct list {
	double v[MAXLIST];
	size_t n;
};

static int
parse_list(const char *s, struct list *l)
{
	char *end;

	l->n = 0;
	while (*s) {
		if (l->n == MAXLIST)
			return -1;
		errno = 0;
		l->v[l->n++] = strtod(s, &end);
		if (end == s || errno)
			return -1;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return l->n ? 0 : -1;
}

/* One path's campaign: T trials of n sorted samples, and all pooled. */
struct cell {
	double **trial;
	size_t *n;
	double *pooled;
	double b0;		/* the first trial's random effect */
	struct stats_trials st;
};

static void
draw(struct stats_rng *rng, struct cell *c, size_t T, size_t n, double sb,
    double scale)
{
	size_t t, i;

	for (t = 0; t < T; t++) {
		double b = sb * stats_rng_normal(rng);

		if (t == 0)
			c->b0 = b;
		for (i = 0; i < n; i++)
			c->trial[t][i] = scale * exp(b + SIGMA_W *
			    stats_rng_normal(rng));
		stats_sort(c->trial[t], n);
		memcpy(c->pooled + t * n, c->trial[t], n * sizeof(double));
		c->n[t] = n;
	}
	stats_sort(c->pooled, T * n);
	c->st.trial = (const double *const *)c->trial;
	c->st.n = c->n;
	c->st.ntrials = T;
}

static void
cell_alloc(struct cell *c, size_t T, size_t n)
{
	size_t t;

	c->trial = xcalloc(T, sizeof(double *));
	for (t = 0; t < T; t++)
		c->trial[t] = xmalloc(n * sizeof(double));
	c->n = xcalloc(T, sizeof(size_t));
	c->pooled = xmalloc(T * n * sizeof(double));
}

static void
cell_free(struct cell *c, size_t T)
{
	size_t t;

	for (t = 0; t < T; t++)
		free(c->trial[t]);
	free(c->trial);
	free(c->n);
	free(c->pooled);
}

/* E[X_(k)] (1-based) of n samples exp(SIGMA_W Z): the integral of the
 * quantile function against the Beta(k, n - k + 1) density, by the
 * midpoint rule over +-14 standard deviations of that Beta. */
static double
order_stat_mean(size_t k, size_t n)
{
	double a = (double)k, b = (double)(n - k + 1), m = a / (a + b);
	double sd = sqrt(a * b / ((a + b) * (a + b) * (a + b + 1)));
	double lo = m - 14 * sd, hi = m + 14 * sd, du, sum = 0;
	double lbeta = lgamma(a) + lgamma(b) - lgamma(a + b);
	int i, steps = 20000;

	if (lo < 0)
		lo = 0;
	if (hi > 1)
		hi = 1;
	du = (hi - lo) / steps;
	for (i = 0; i < steps; i++) {
		double u = lo + (i + 0.5) * du;

		sum += exp(SIGMA_W * stats_norm_quantile(u) + (a - 1) * log(u) +
		    (b - 1) * log1p(-u) - lbeta) * du;
	}
	return sum;
}

/*
 * The true statistic of a path with this scale.  Pooled: the quantile of
 * all requests over all trials.  --pool trials: the mean over trials of
 * the trial's type 7 quantile of n samples, E[exp(b)] E[type 7], which
 * holds the estimator's own small-sample bias (type 7 p99 of 300
 * lognormal samples reads about 1 % low): that mean is what the "mean
 * of the trials' p99" estimates however many trials there are.
 */
static double
truth(double scale, double pct, enum stats_pool pool, double sb, size_t n)
{
	double z = stats_norm_quantile(pct / 100.0), h, g;
	size_t j;

	if (pool == STATS_POOL_POOLED)
		return scale * exp(z * sqrt(SIGMA_W * SIGMA_W + sb * sb));
	h = (double)(n - 1) * pct / 100.0;
	j = (size_t)h;
	g = h - (double)j;
	return scale * exp(sb * sb / 2) * ((1 - g) * order_stat_mean(j + 1, n) +
	    (g > 0 ? g * order_stat_mean(j + 2, n) : 0));
}

static void
count(struct tally *ty, const struct stats_interval *iv, double want)
{
	ty->reps++;
	if (iv->covers == STATS_COVERS_NONE || !isfinite(iv->lo))
		return;
	ty->printed++;
	ty->covered += iv->lo <= want && want <= iv->hi;
}

/* [kind][pool][pct 0/1] for one grid point */
typedef struct tally point_t[NKIND][2][2];

static void
run_point(struct stats_rng *rng, size_t T, size_t n, double sb, long reps,
    point_t pt)
{
	static const double pcts[2] = { 50.0, 99.0 };
	struct cell a, b;
	double *ua[2], *ub[2], ea[2], eb[2];
	double tru[2][2];
	long r;
	int pool, k;

	cell_alloc(&a, T, n);
	cell_alloc(&b, T, n);
	for (k = 0; k < 2; k++) {
		ua[k] = xmalloc(T * sizeof(double));
		ub[k] = xmalloc(T * sizeof(double));
	}
	memset(pt, 0, sizeof(point_t));
	for (pool = 0; pool < 2; pool++)
		for (k = 0; k < 2; k++)
			tru[pool][k] = truth(1.0, pcts[k], pool ?
			    STATS_POOL_PER_TRIAL : STATS_POOL_POOLED, sb, n);
	for (r = 0; r < reps; r++) {
		draw(rng, &a, T, n, sb, SCALE_A);
		draw(rng, &b, T, n, sb, 1.0);
		for (pool = 0; pool < 2; pool++) {
			enum stats_pool pl = pool ? STATS_POOL_PER_TRIAL :
			    STATS_POOL_POOLED;
			struct stats_interval iv;
			double ta[2], tb[2];
			bool unsup[2];

			for (k = 0; k < 2; k++) {
				ta[k] = tru[pool][k] * SCALE_A;
				tb[k] = tru[pool][k];
				stats_tl_values(&a.st, a.pooled, T * n,
				    STATS_EST_TYPE7, pcts[k], pl, ua[k], &ea[k]);
				stats_tl_values(&b.st, b.pooled, T * n,
				    STATS_EST_TYPE7, pcts[k], pl, ub[k], &eb[k]);
				/* what analyze withholds counts as not printed */
				unsup[k] = stats_tl_withhold(&a.st, a.pooled,
				    T * n, pl, STATS_EST_TYPE7, pcts[k],
				    LEVEL) != NULL || stats_tl_withhold(&b.st,
				    b.pooled, T * n, pl, STATS_EST_TYPE7,
				    pcts[k], LEVEL) != NULL;
				stats_tl_interval(ua[k], unsup[k] ? 0 : T, ea[k],
				    LEVEL, true, &iv);
				count(&pt[K_PCT][pool][k], &iv, ta[k]);
				stats_tl_contrast(ua[k], unsup[k] ? 0 : T, ea[k],
				    ub[k], T, eb[k], STATS_DELTA, LEVEL, &iv);
				count(&pt[K_DELTA][pool][k], &iv, ta[k] - tb[k]);
				stats_tl_contrast(ua[k], unsup[k] ? 0 : T, ea[k],
				    ub[k], T, eb[k], STATS_RATIO, LEVEL, &iv);
				count(&pt[K_RATIO][pool][k], &iv, ta[k] / tb[k]);
				if (pool == 0) {
					stats_sample_interval(a.trial[0], n,
					    pcts[k], NAN, LEVEL, &iv);
					count(&pt[K_SAMPLE][0][k], &iv, SCALE_A *
					    exp(a.b0 + SIGMA_W *
					    stats_norm_quantile(pcts[k] / 100)));
				}
			}
			stats_tl_growth(ua[0], unsup[1] ? NULL : ua[1], T, ea[0],
			    ea[1], ub[0], unsup[1] ? NULL : ub[1], T, eb[0], eb[1],
			    LEVEL, &iv);
			count(&pt[K_GROWTH][pool][0], &iv, (ta[1] - tb[1]) /
			    (ta[0] - tb[0]));
		}
	}
	for (k = 0; k < 2; k++) {
		free(ua[k]);
		free(ub[k]);
	}
	cell_free(&a, T);
	cell_free(&b, T);
}

struct grid {
	struct list ns, ts, sbs;
	point_t *pts;		/* [n][T][sb] */
	double lo, hi;		/* --check band, percent */
	bool check;
	long nbad;
};

static struct tally *
at(struct grid *g, size_t in, size_t it, size_t is, int kind, int pool,
    int k)
{
	return &g->pts[(in * g->ts.n + it) * g->sbs.n + is][kind][pool][k];
}

static void
cell_text(struct grid *g, const struct tally *ty, char *buf, size_t len)
{
	double cov, pr;

	if (ty->printed == 0) {
		snprintf(buf, len, "–");
		return;
	}
	cov = 100.0 * (double)ty->covered / (double)ty->printed;
	pr = 100.0 * (double)ty->printed / (double)ty->reps;
	/* fewer than MIN_JUDGED printed intervals cannot tell 95 % from
	 * 100 % (one standard error is 3 points and more): shown, not held
	 * to the band */
	if (g->check && ty->printed >= MIN_JUDGED && (cov < g->lo ||
	    cov > g->hi)) {
		g->nbad++;
		if (pr < 100)
			snprintf(buf, len, "**%.1f** (%.0f%%)", cov, pr);
		else
			snprintf(buf, len, "**%.1f**", cov);
	} else if (pr < 100) {
		snprintf(buf, len, "%.1f (%.0f%%)", cov, pr);
	} else {
		snprintf(buf, len, "%.1f", cov);
	}
}

static void
print_tables(struct grid *g)
{
	size_t in, it, is;
	int kind, pool;
	char c50[40], c99[40];

	for (kind = 0; kind < NKIND; kind++)
		for (pool = 0; pool < (kind == K_SAMPLE ? 1 : 2); pool++)
			for (in = 0; in < g->ns.n; in++) {
				printf("\n### %s%s, %.0f samples per trial\n\n",
				    kind_name[kind], kind == K_SAMPLE ? "" :
				    pool ? ", --pool trials" : ", pooled",
				    g->ns.v[in]);
				printf("| trials |");
				for (is = 0; is < g->sbs.n; is++)
					printf(" σ_b = %g |", g->sbs.v[is]);
				printf("\n|---|");
				for (is = 0; is < g->sbs.n; is++)
					printf("---|");
				printf("\n");
				/* the within-run interval is of trial 1 alone:
				 * one row, from the first grid point's draws */
				for (it = 0; it < (kind == K_SAMPLE ? 1 :
				    g->ts.n); it++) {
					printf("| %.0f |", kind == K_SAMPLE ? 1 :
					    g->ts.v[it]);
					for (is = 0; is < g->sbs.n; is++) {
						cell_text(g, at(g, in, it, is, kind,
						    pool, 0), c50, sizeof(c50));
						if (kind == K_GROWTH) {
							printf(" %s |", c50);
							continue;
						}
						cell_text(g, at(g, in, it, is, kind,
						    pool, 1), c99, sizeof(c99));
						printf(" %s / %s |", c50, c99);
					}
					printf("\n");
				}
			}
}

/* A key of one grid point for its PRNG stream. */
static uint64_t
point_key(double n, double T, double sb)
{
	uint64_t k = (uint64_t)n * UINT64_C(0x9E3779B97F4A7C15);

	k ^= (uint64_t)T * UINT64_C(0xBF58476D1CE4E5B9);
	k ^= (uint64_t)llround(sb * 1e6) * UINT64_C(0x94D049BB133111EB);
	return k;
}

/* ---------------------------------------------------------------------
 * Named cells: our users' designs.  The grid above is iid
 * lognormal; these are what campaigns look like: probes with timeouts,
 * iperf3's few autocorrelated intervals with plateaus (ties), oha with a
 * TIME_WAIT-like bimodal trial, unequal trial sizes, heavy tails.  Each
 * cell is a design of T trials (their sizes may differ) drawn for two
 * paths, B (scale 1) and A (scale 1.3), with
 *
 *   z_i     AR(1) with rho on the normal scale (z_0 ~ N(0, 1)),
 *   x_i     lognormal exp(sigma z_i), or Pareto (1 - Phi(z_i))^(-1/alpha),
 *           times `factor` with probability `share` in a bimodal trial
 *           (each trial is one with probability `hit`: TIME_WAIT),
 *   v_i     scale e^{b_t} x_i, b_t ~ N(0, sigma_b); a failure (timeout)
 *           when v_i > the timeout; else min(v_i, scale cap) rounded to
 *           `grain` (plateaus: many values equal).
 *
 * True values by Monte Carlo with their own seed: pooled, the quantile
 * of the population of all successful requests (the trials weighted by
 * their sizes, 2000 draws of each trial); --pool trials, the mean over
 * the design's trials of the expected type 7 quantile of that trial
 * (averaged over many draws of it); a single trial, its own quantile
 * given its b_t.  Deltas and ratios from those, A against B.
 */

#define MAXT		8
#define NPCT		5

static const double cell_pcts[NPCT] = { 25, 50, 75, 95, 99 };

struct design {
	const char	*name;
	const char	*what;
	size_t		T;
	size_t		n[MAXT];	/* attempts per trial */
	double		sigma_b;
	bool		pareto;		/* else lognormal */
	double		shape;		/* sigma, or alpha */
	double		rho;		/* AR(1) within a trial */
	double		timeout_share;	/* of path B's x at b = 0, 0: none */
	double		cap_q;		/* cap at this quantile of x, 0: none */
	double		grain;		/* rounding, 0: none */
	double		hit;		/* chance a trial is bimodal */
	double		share, factor;	/* of a bimodal trial */
	bool		series;		/* samples are a time series */
	const char	*ungated;	/* not held to --check: why */
	size_t		ncamp;		/* cells of the campaign analyze
					 * judges outlier trials over (A, B
					 * and ncamp - 2 more of the design);
					 * 0: A and B alone */
	double		camp_sb_lo;	/* > 0: the ncamp - 2 other cells'
					 * sigma_b is uniform in [camp_sb_lo,
					 * sigma_b] (a noisy campaign whose
					 * cells differ; A and B the noisiest) */
};

/* Why the slow-trial cell alone is not held to the band. */
#define SLOW_UNGATED "A and B alone are two cells of the design, too few " \
    "to borrow the spread a campaign's cells share, and analyze says so " \
    "(\"cannot see slow runs that come and go\"): a cell none of whose " \
    "trials was slow (a third of them at 5 trials) has trials that agree " \
    "and an interval that misses (docs/research/coverage.md)"

static const struct design designs[] = {
	{ "probes-3x300", "pathprobe: 3 trials × 300, σ 0.3, σ_b 0.1, "
	    "no timeouts", 3, { 300, 300, 300 }, 0.1, false, 0.3, 0, 0, 0, 0,
	    0, 0, 0, false, NULL, 0, 0 },
	{ "probes-3x300-1pct", "pathprobe: 3 × 300, 1 % of B's attempts "
	    "time out", 3, { 300, 300, 300 }, 0.1, false, 0.3, 0, 0.01, 0, 0,
	    0, 0, 0, false, NULL, 0, 0 },
	{ "probes-3x300-2pct", "pathprobe: 3 × 300, 2 % of B's attempts "
	    "time out", 3, { 300, 300, 300 }, 0.1, false, 0.3, 0, 0.02, 0, 0,
	    0, 0, 0, false, NULL, 0, 0 },
	{ "iperf3-3x30", "iperf3: 3 runs × 30 intervals, AR(1) ρ 0.8, "
	    "60 % at the cap (near ties: the cap ± 20 ppm, as iperf3 writes "
	    "it)", 3, { 30, 30, 30 }, 0.05, false, 0.1,
	    0.8, 0, 0.4, 0.001, 0, 0, 0, true, NULL, 0, 0 },
	{ "oha-3x10000-bimodal", "oha: 3 × 10,000, each trial bimodal with "
	    "chance 1/3 (30 % of its requests 5× slower: TIME_WAIT), in a "
	    "campaign of 8 such cells", 3,
	    { 10000, 10000, 10000 }, 0.05, false, 0.3, 0, 0, 0, 0, 1.0 / 3,
	    0.3, 5, false, NULL, 8, 0 },
	{ "unequal-300-300-40", "trials of 300, 300 and 40, no trial "
	    "effect", 3, { 300, 300, 40 }, 0, false, 0.3, 0, 0, 0, 0, 0, 0, 0,
	    false, NULL, 0, 0 },
	{ "unequal-300-300-40-sb0.3", "trials of 300, 300, 40, σ_b 0.3",
	    3, { 300, 300, 40 }, 0.3, false, 0.3, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0 },
	{ "unequal-300-150-75", "trials of 300, 150, 75, σ_b 0.1", 3,
	    { 300, 150, 75 }, 0.1, false, 0.3, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0 },
	{ "lognormal-s1", "heavy tail: lognormal σ 1, 3 × 300, σ_b 0.1",
	    3, { 300, 300, 300 }, 0.1, false, 1.0, 0, 0, 0, 0, 0, 0, 0,
	    false, NULL, 0, 0 },
	{ "pareto-1.5", "heavy tail: Pareto α 1.5, 3 × 300, σ_b 0.1", 3,
	    { 300, 300, 300 }, 0.1, true, 1.5, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0 },
	{ "ar0.8-3x300", "3 trials of 300, AR(1) ρ 0.8 (iperf3-like "
	    "intervals; the within-run row is trial 1 alone)", 3,
	    { 300, 300, 300 }, 0.1, false, 0.3, 0.8, 0, 0, 0, 0, 0, 0, true, NULL, 0, 0 },
	/* new cells go last: a cell's stream is seeded by its place in
	 * this table, so the cells above keep what they drew */
	{ "probes-3x300-campaign", "pathprobe: 3 × 300, σ 0.3, σ_b 0.1, no "
	    "timeouts, in a campaign of 8 such cells (what judging outlier "
	    "trials costs where there are none)", 3, { 300, 300, 300 }, 0.1,
	    false, 0.3, 0, 0, 0, 0, 0, 0, 0, false, NULL, 8, 0 },
	{ "probe-ar0-300", "pathprobe: one run's probes independent (AR(1) "
	    "ρ 0), 300 samples: the within-run row (trial 1 alone), whose "
	    "interval widens when the run's lag-1 rank autocorrelation is "
	    "significant", 3, { 300, 300, 300 }, 0.1, false, 0.3, 0, 0, 0, 0,
	    0, 0, 0, false, NULL, 0, 0 },
	{ "probe-ar0.5-300", "pathprobe: probes AR(1) ρ 0.5, 300 samples",
	    3, { 300, 300, 300 }, 0.1, false, 0.3, 0.5, 0, 0, 0, 0, 0, 0,
	    false, NULL, 0, 0 },
	{ "probe-ar0.8-300", "pathprobe: probes AR(1) ρ 0.8, 300 samples",
	    3, { 300, 300, 300 }, 0.1, false, 0.3, 0.8, 0, 0, 0, 0, 0, 0,
	    false, NULL, 0, 0 },
	{ "probe-ar0-1000", "pathprobe: probes independent, 1000 samples",
	    3, { 1000, 1000, 1000 }, 0.1, false, 0.3, 0, 0, 0, 0, 0, 0, 0,
	    false, NULL, 0, 0 },
	{ "probe-ar0.5-1000", "pathprobe: probes AR(1) ρ 0.5, 1000 samples",
	    3, { 1000, 1000, 1000 }, 0.1, false, 0.3, 0.5, 0, 0, 0, 0, 0, 0,
	    false, NULL, 0, 0 },
	{ "probe-ar0.8-1000", "pathprobe: probes AR(1) ρ 0.8, 1000 samples",
	    3, { 1000, 1000, 1000 }, 0.1, false, 0.3, 0.8, 0, 0, 0, 0, 0, 0,
	    false, NULL, 0, 0 },
	{ "oha-5x10000-bimodal", "oha: 5 × 10,000, each trial bimodal with "
	    "chance 1/3 (30 % of its requests 5× slower: TIME_WAIT), in a "
	    "campaign of 8 such cells", 5,
	    { 10000, 10000, 10000, 10000, 10000 }, 0.05, false, 0.3, 0, 0, 0,
	    0, 1.0 / 3, 0.3, 5, false, NULL, 8, 0 },
	{ "iperf3-3x30-trialcaps", "iperf3: 3 runs × 30 intervals, AR(1) "
	    "ρ 0.8, 60 % at the run's own cap (moved with its trial effect: "
	    "plateaus 183, 181, 179), ± 20 ppm", 3, { 30, 30, 30 }, 0.05,
	    false, 0.1, 0.8, 0, 0.4, 0.001, 0, 0, 0, true, NULL, 0, 0 },
	/* a selection of one pair (--where path=P2, A and B alone): too
	 * few cells to share a spread, each judged by its own rule on
	 * p50, p95 and p99 */
	{ "oha-3x10000-bimodal-pair", "oha: 3 × 10,000, each trial bimodal "
	    "with chance 1/3 (TIME_WAIT), A and B alone in the selection: "
	    "each cell's own rule on p50, p95, p99 judges its trials", 3,
	    { 10000, 10000, 10000 }, 0.05, false, 0.3, 0, 0, 0, 0, 1.0 / 3,
	    0.3, 5, false, "a cell none of whose trials was hit (8 in 27) "
	    "or all (1 in 27) shows no outlier trial, and a selection of "
	    "two cells has no campaign to say TIME_WAIT hit others; its "
	    "interval describes the trials it has, not the design's mix",
	    2, 0 },
	{ "probes-3x300-pair", "pathprobe: 3 × 300, σ 0.3, σ_b 0.1, no "
	    "timeouts, A and B alone in the selection (what the cells' own "
	    "rule on p50, p95, p99 costs where there are no outliers)", 3,
	    { 300, 300, 300 }, 0.1, false, 0.3, 0, 0, 0, 0, 0, 0, 0, false,
	    NULL, 2, 0 },
	/* a noisy but clean campaign (a machine at load 20: every trial a
	 * little different): what the one outlier rule costs there */
	{ "oha-3x2000-noisy-campaign", "oha: 3 × 2,000, lognormal σ 0.6, "
	    "no outliers, in a campaign of 8 cells whose trial effects "
	    "differ: σ_b 0.1 for A and B, uniform in 0.05–0.1 for the other "
	    "6 (a loaded machine: every trial a little different)", 3,
	    { 2000, 2000, 2000 }, 0.1, false, 0.6, 0, 0, 0, 0, 0, 0, 0,
	    false, NULL, 8, 0.05 },
	/* slow runs that come and go: each trial independently 1.5x
	 * slower (all its requests) with chance 0.2, a noisy neighbour */
	{ "slow-5x300", "pathprobe: 5 × 300, σ 0.3, σ_b 0.05, each trial "
	    "independently 1.5× slower with chance 0.2 (a noisy neighbour), "
	    "A and B alone in the selection", 5,
	    { 300, 300, 300, 300, 300 }, 0.05, false, 0.3, 0, 0, 0, 0, 0.2,
	    1.0, 1.5, false, SLOW_UNGATED, 2, 0 },
	{ "slow-5x300-campaign", "the same, in a campaign of 8 such cells "
	    "that the outlier rule judges together", 5,
	    { 300, 300, 300, 300, 300 }, 0.05, false, 0.3, 0, 0, 0, 0, 0.2,
	    1.0, 1.5, false, NULL, 8, 0 },
	{ "slow-3x300-campaign", "pathprobe: 3 × 300, σ 0.3, σ_b 0.05, each "
	    "trial 1.5× slower with chance 0.2, in a campaign of 8 such "
	    "cells", 3, { 300, 300, 300 }, 0.05, false, 0.3, 0, 0, 0, 0, 0.2,
	    1.0, 1.5, false, NULL, 8, 0 },
};

/*
 * iperf3's throughput at a cap is near, not equal (stats/interval.c
 * TIE_RTOL): an interval at the cap carries the same bytes over its own
 * measured length, so its bits_per_second is the cap times 1 ± tens of
 * ppm (iperf 3.12, -b 900M on loopback: 17 of 18 such intervals within
 * 22 ppm of their median).  A value at the cap is cap × (1 + jitter
 * (2u − 1)) after the grain, u uniform from a hash of the value's
 * normal score (ar1cap_jitter_u, tests/sim/ar1cap.h), not from the
 * cell's stream: the cell draws
 * what it drew with equal values at the cap, so its table with and
 * without the jitter tells what the tie rule makes of near ties alone.
 * per_trial: each run has a cap of its own, moved with its trial
 * effect.
 */
static const struct {
	const char	*name;
	double		jitter;
	bool		per_trial;
} cap_kinds[] = {
	{ "iperf3-3x30", 2e-5, false },
	{ "iperf3-3x30-trialcaps", 2e-5, true },
};

static void
cap_kind(const struct design *d, double *jitter, bool *per_trial)
{
	size_t i;

	*jitter = 0;
	*per_trial = false;
	for (i = 0; i < ARRAY_SIZE(cap_kinds); i++)
		if (!strcmp(cap_kinds[i].name, d->name)) {
			*jitter = cap_kinds[i].jitter;
			*per_trial = cap_kinds[i].per_trial;
		}
}

/*
 * What the campaign's outlier rule may cost or must do, held with
 * --check: the share of campaigns in which A's trial-level intervals are
 * withdrawn (its own outlier trial or a shared cause), in percent.  The
 * TIME_WAIT campaigns print too few intervals to be held to the band, so
 * a rule that lets them through again shows here first (at 5
 * trials 1.8 % were printed, covering 88.8 %; seed 14 printed 12 of the
 * first 1000, none of 200, hence 1000 repetitions for it in
 * coverage-small); the clean campaign bounds
 * what judging outlier trials costs where there are none.
 */
static const struct {
	const char	*name;
	double		lo, hi;
} gate_bounds[] = {
	{ "oha-3x10000-bimodal", 98.0, 100.0 },
	{ "oha-5x10000-bimodal", 99.5, 100.0 },
	{ "probes-3x300-campaign", 0.0, 1.0 },
	{ "probes-3x300-pair", 0.0, 1.0 },
	/* a noisy but clean campaign: the one rule's false rate per cell
	 * (0.2 % of 1000 at seed 14) */
	{ "oha-3x2000-noisy-campaign", 0.0, 2.0 },
	/* slow runs that come and go: at least half the cells printed */
	{ "slow-5x300-campaign", 0.0, 50.0 },
};

/* Base value x for a normal score z (before the trial effect). */
static double
base_x(const struct design *d, double z)
{
	if (d->pareto)
		return pow(0.5 * erfc(z / sqrt(2.0)), -1.0 / d->shape);
	return exp(d->shape * z);
}

/* Population quantile of x for trial slot t (p in (0, 1)), by the
 * closed form, the bimodal trial by bisection on its mixture cdf. */
static double
base_cdf(const struct design *d, int bim, double x)
{
	double f, g;

	if (x <= 0)
		return 0;
	if (d->pareto)
		f = x < 1 ? 0 : 1 - pow(x, -d->shape);
	else
		f = stats_norm_cdf(log(x) / d->shape);
	if (!bim)
		return f;
	g = base_cdf(d, 0, x / d->factor);
	return (1 - d->share) * f + d->share * g;
}

static double
base_quantile(const struct design *d, int bim, double p)
{
	double lo = 1e-12, hi = 1e12, m;
	int i;

	if (!bim)
		return d->pareto ? pow(1 - p, -1.0 / d->shape) :
		    exp(d->shape * stats_norm_quantile(p));
	for (i = 0; i < 200; i++) {
		m = sqrt(lo * hi);
		if (base_cdf(d, 1, m) < p)
			lo = m;
		else
			hi = m;
	}
	return sqrt(lo * hi);
}

/* The transform after the trial effect b: cap and grain (not the
 * cap's jitter, 20 ppm). */
static double
finish(const struct design *d, double scale, double b, double v)
{
	double jitter;
	bool per_trial;

	cap_kind(d, &jitter, &per_trial);
	if (d->cap_q > 0) {
		double cap = scale * (per_trial ? exp(b) : 1) *
		    base_quantile(d, 0, d->cap_q);

		if (v > cap)
			v = cap;
	}
	if (d->grain > 0)
		v = floor(v / d->grain + 0.5) * d->grain;
	return v;
}

static double
timeout_of(const struct design *d)
{
	return d->timeout_share > 0 ?
	    base_quantile(d, 0, 1 - d->timeout_share) : INFINITY;
}

/* Draw trial t's successes (ascending) into out; returns their count. */
static size_t
draw_trial_rs(struct stats_rng *rng, const struct design *d, bool bim,
    size_t n, double scale, double b, double *out, double *rs)
{
	double z = stats_rng_normal(rng), tmo = timeout_of(d), jitter;
	double cap;
	bool per_trial;
	size_t i, k = 0;

	cap_kind(d, &jitter, &per_trial);
	cap = d->cap_q > 0 ? scale * (per_trial ? exp(b) : 1) *
	    base_quantile(d, 0, d->cap_q) : INFINITY;
	for (i = 0; i < n; i++) {
		double x, v;
		bool capped = false;

		if (i)
			z = ar1cap_next(rng, z, d->rho);
		x = base_x(d, z);
		if (bim && stats_rng_uniform(rng) < d->share)
			x *= d->factor;
		v = scale * exp(b) * x;
		if (v > tmo)
			continue;
		if (v > cap) {
			v = cap;
			capped = true;
		}
		if (d->grain > 0)
			v = floor(v / d->grain + 0.5) * d->grain;
		if (capped)
			v = ar1cap_near_tie(v, jitter, z);
		out[k++] = v;
	}
	/* what analyze reads from the run's samples in order */
	if (rs)
		*rs = stats_serial_rank_corr(out, k);
	stats_sort(out, k);
	return k;
}

static size_t
draw_trial(struct stats_rng *rng, const struct design *d, bool bim,
    size_t n, double scale, double b, double *out)
{
	return draw_trial_rs(rng, d, bim, n, scale, b, out, NULL);
}

/* Trial t's own pct quantile of successes given b (a single trial's
 * truth): truncation at the timeout moves the share. */
static double
trial_truth(const struct design *d, bool bim, double scale, double b,
    double pct)
{
	double p = pct / 100, tmo = timeout_of(d);

	if (isfinite(tmo))
		p *= base_cdf(d, bim, tmo / (scale * exp(b)));
	return finish(d, scale, b, scale * exp(b) * base_quantile(d, bim, p));
}

struct truths {
	double pooled[NPCT], trials[NPCT];
};

static void
truths_of(const struct design *d, double scale, uint64_t seed,
    struct truths *tr)
{
	struct stats_rng rng;
	size_t t, g, k, maxn = 0, G = 2000, m, np = 0, cap = 0;
	double *pool = NULL, *buf;

	stats_rng_seed(&rng, seed);
	memset(tr, 0, sizeof(*tr));
	for (t = 0; t < d->T; t++)
		if (d->n[t] > maxn)
			maxn = d->n[t];
	for (t = 0; t < d->T; t++)
		cap += G * (size_t)ceil(500.0 * (double)d->n[t] / (double)maxn);
	pool = xmalloc(cap * sizeof(double));
	buf = xmalloc(maxn * sizeof(double));
	for (t = 0; t < d->T; t++) {
		size_t R = 3000000 / d->n[t];

		m = (size_t)ceil(500.0 * (double)d->n[t] / (double)maxn);
		for (g = 0; g < G; g++)
			np += draw_trial(&rng, d, stats_rng_uniform(&rng) <
			    d->hit, m, scale, d->sigma_b *
			    stats_rng_normal(&rng), pool + np);
		if (R < 300)
			R = 300;
		if (R > 20000)
			R = 20000;
		for (g = 0; g < R; g++) {
			size_t n = draw_trial(&rng, d,
			    stats_rng_uniform(&rng) < d->hit, d->n[t], scale,
			    d->sigma_b * stats_rng_normal(&rng), buf);

			for (k = 0; k < NPCT; k++)
				tr->trials[k] += stats_quantile_type7(buf, n,
				    cell_pcts[k]) / (double)R / (double)d->T;
		}
	}
	stats_sort(pool, np);
	for (k = 0; k < NPCT; k++)
		tr->pooled[k] = stats_quantile_type7(pool, np, cell_pcts[k]);
	free(pool);
	free(buf);
}

/* One path's draw of a design. */
struct dcell {
	double *trial[MAXT];
	size_t n[MAXT];
	double *pooled, b[MAXT];
	double rs;		/* trial 0's lag-1 rank autocorrelation */
	bool hit[MAXT];
	size_t N;
	struct stats_trials st;
};

static void
dcell_draw_sb(struct stats_rng *rng, const struct design *d, double scale,
    double sb, struct dcell *c)
{
	size_t t;

	c->N = 0;
	for (t = 0; t < d->T; t++) {
		c->b[t] = sb * stats_rng_normal(rng);
		c->hit[t] = stats_rng_uniform(rng) < d->hit;
		c->n[t] = draw_trial_rs(rng, d, c->hit[t], d->n[t], scale,
		    c->b[t], c->trial[t], t ? NULL : &c->rs);
		memcpy(c->pooled + c->N, c->trial[t], c->n[t] * sizeof(double));
		c->N += c->n[t];
	}
	stats_sort(c->pooled, c->N);
	c->st.trial = (const double *const *)c->trial;
	c->st.n = c->n;
	c->st.ntrials = d->T;
}

static void
dcell_draw(struct stats_rng *rng, const struct design *d, double scale,
    struct dcell *c)
{
	dcell_draw_sb(rng, d, scale, d->sigma_b, c);
}


/* What analyze withholds for a cell's statistic (stats/interval.c). */
static const char *
tl_withhold(const struct dcell *c, enum stats_pool pl, double pct)
{
	return stats_tl_withhold(&c->st, c->pooled, c->N, pl, STATS_EST_TYPE7,
	    pct, LEVEL);
}
#define TL_WITHHOLD(c, pl, pct) tl_withhold(c, pl, pct)

/* The within-run interval of one trial, as analyze prints it. */
static void
sample_interval(const struct design *d, const double *sorted, size_t n,
    double rs, double pct, struct stats_interval *iv)
{
	const char *why = stats_within_run_withhold(d->series);

	stats_sample_interval_serial(sorted, n, pct, NAN, LEVEL, rs, iv);
	if (why) {
		iv->lo = iv->hi = NAN;
		iv->covers = STATS_COVERS_NONE;
		iv->why = why;
	}
}
#define SAMPLE_INTERVAL(d, s, n, rs, pct, iv) \
	sample_interval(d, s, n, rs, pct, iv)

enum { CK_PCT, CK_DELTA, CK_RATIO, CK_GROWTH, CK_SAMPLE, NCK };

/* [kind][pool][pct] */
typedef struct tally ctally_t[NCK][2][NPCT];

/* Reasons analyze withdraws a cell's intervals for an outlier trial
 * (analyze/cells.c cells_judge_outliers(), the rule of check
 * outlier-trial). */
static const char WHY_OUTLIER[] = "trial N is an outlier (check "
    "outlier-trial): no interval";
static const char WHY_SHARED[] = "M of the 8 cells of its trial count have an "
    "outlier trial (check outlier-trial): a cause they share (TIME_WAIT) "
    "may have hit every trial of this one: no interval";

/*
 * Judge the campaign's cells as analyze does: A (a), B (b) and
 * d->ncamp - 2 more drawn into scratch (stats of their trials only).
 * *ga, *gb get why A's, B's intervals are withdrawn, or NULL.
 */
/* --borrow 0: each cell's own interval (what analyze printed before) */
static bool noborrow;

/* The campaign's spread of trial-level values per pool and percentile,
 * as analyze borrows it (stats_borrow_add() over the cells of one
 * design; cells whose statistic has no interval add nothing). */
static void
campaign_spread(const struct design *d, const struct dcell *x,
    struct stats_borrow cb[2][NPCT])
{
	double u[MAXT], e;
	int pool, k;

	for (pool = 0; pool < 2; pool++) {
		enum stats_pool pl = pool ? STATS_POOL_PER_TRIAL :
		    STATS_POOL_POOLED;

		for (k = 0; k < NPCT; k++) {
			if (TL_WITHHOLD(x, pl, cell_pcts[k]) ||
			    stats_tl_values(&x->st, x->pooled, x->N,
			    STATS_EST_TYPE7, cell_pcts[k], pl, u, &e))
				continue;
			stats_borrow_add(&cb[pool][k], u, d->T, e);
		}
	}
}

static void
campaign_judge(struct stats_rng *rng, const struct design *d,
    const struct dcell *a, const struct dcell *b, struct dcell *scratch,
    double *st, bool *flag, struct stats_outlier_cell *oc,
    const char **ga, const char **gb, struct stats_borrow cb[2][NPCT])
{
	size_t c, t, nout;
	bool shared;

	*ga = *gb = NULL;
	memset(cb, 0, 2 * NPCT * sizeof(cb[0][0]));
	if (!d->ncamp)
		return;
	for (c = 0; c < d->ncamp; c++) {
		const struct dcell *x = c == 0 ? a : c == 1 ? b : scratch;

		if (c >= 2 && d->camp_sb_lo > 0)
			dcell_draw_sb(rng, d, 1.0, d->camp_sb_lo +
			    stats_rng_uniform(rng) * (d->sigma_b -
			    d->camp_sb_lo), scratch);
		else if (c >= 2)
			dcell_draw(rng, d, 1.0, scratch);
		for (t = 0; t < d->T; t++)
			stats_outlier_trial_stats(x->trial[t], x->n[t],
			    st + (c * d->T + t) * STATS_OUTLIER_NSTATS);
		campaign_spread(d, x, cb);
		oc[c].k = d->T;
		oc[c].st = st + c * d->T * STATS_OUTLIER_NSTATS;
		oc[c].low_only = false;
		oc[c].flag = flag + c * d->T;
	}
	nout = stats_outlier_cells(oc, d->ncamp);
	shared = stats_outlier_shared(nout, d->ncamp);
	for (c = 0; c < 2; c++) {
		const char **g = c ? gb : ga;

		for (t = 0; t < d->T; t++)
			if (oc[c].flag[t])
				*g = WHY_OUTLIER;
		if (!*g && shared)
			*g = WHY_SHARED;
	}
}

static void
design_run(const struct design *d, uint64_t seed, long reps, ctally_t ct,
    const char **whys, long *by_trials, long *gates)
{
	struct stats_rng rng;
	struct truths ta, tb;
	struct dcell a, b, s;
	double *cst = NULL;
	bool *cflag = NULL;
	struct stats_outlier_cell *oc = NULL;
	const char *ga, *gb;
	struct stats_borrow cb[2][NPCT];
	double *ua[NPCT], *ub[NPCT], ea[NPCT], eb[NPCT], *vta, *vtb;
	size_t t, total = 0;
	long r;
	int pool, k;

	memset(ct, 0, sizeof(ctally_t));
	truths_of(d, SCALE_A, seed ^ UINT64_C(0x5A5A5A5A), &ta);
	truths_of(d, 1.0, seed ^ UINT64_C(0xA5A5A5A5), &tb);
	for (t = 0; t < d->T; t++) {
		a.trial[t] = xmalloc(d->n[t] * sizeof(double));
		b.trial[t] = xmalloc(d->n[t] * sizeof(double));
		total += d->n[t];
	}
	a.pooled = xmalloc(total * sizeof(double));
	b.pooled = xmalloc(total * sizeof(double));
	if (d->ncamp) {
		for (t = 0; t < d->T; t++)
			s.trial[t] = xmalloc(d->n[t] * sizeof(double));
		s.pooled = xmalloc(total * sizeof(double));
		cst = xmalloc(d->ncamp * d->T * STATS_OUTLIER_NSTATS *
		    sizeof(double));
		cflag = xmalloc(d->ncamp * d->T * sizeof(bool));
		oc = xcalloc(d->ncamp, sizeof(*oc));
	}
	for (k = 0; k < NPCT; k++) {
		ua[k] = xmalloc(d->T * sizeof(double));
		ub[k] = xmalloc(d->T * sizeof(double));
	}
	vta = xmalloc(2 * d->T * sizeof(double));
	vtb = vta + d->T;
	stats_rng_seed(&rng, seed);
	for (r = 0; r < reps; r++) {
		dcell_draw(&rng, d, SCALE_A, &a);
		dcell_draw(&rng, d, 1.0, &b);
		campaign_judge(&rng, d, &a, &b, &s, cst, cflag, oc, &ga, &gb,
		    cb);
		gates[0] += ga == WHY_OUTLIER;
		gates[1] += ga == WHY_SHARED;
		gates[2] += a.rs * sqrt((double)a.n[0]) >= STATS_SERIAL_Z;
		for (pool = 0; pool < 2; pool++) {
			enum stats_pool pl = pool ? STATS_POOL_PER_TRIAL :
			    STATS_POOL_POOLED;
			const double *tva = pool ? ta.trials : ta.pooled;
			const double *tvb = pool ? tb.trials : tb.pooled;
			struct stats_interval iv;
			size_t Ta[NPCT], Tb[NPCT];

			for (k = 0; k < NPCT; k++) {
				const char *wa, *wb;
				const struct stats_borrow *bcell;
				bool hva, hvb;

				stats_tl_values(&a.st, a.pooled, a.N,
				    STATS_EST_TYPE7, cell_pcts[k], pl, ua[k],
				    &ea[k]);
				stats_tl_values(&b.st, b.pooled, b.N,
				    STATS_EST_TYPE7, cell_pcts[k], pl, ub[k],
				    &eb[k]);
				wa = ga ? ga : TL_WITHHOLD(&a, pl, cell_pcts[k]);
				wb = gb ? gb : TL_WITHHOLD(&b, pl, cell_pcts[k]);
				if (wa && !ga)
					whys[pool * NPCT + k] = wa;
				if (!pool && !wa && stats_tl_method(&a.st, a.pooled,
				    a.N, STATS_EST_TYPE7, cell_pcts[k], pl))
					by_trials[k]++;
				Ta[k] = wa ? 0 : d->T;
				Tb[k] = wb ? 0 : d->T;
				/* analyze's call: a campaign of 3 or more cells
				 * of the design lends its spread */
				bcell = noborrow ? NULL : &cb[pool][k];
				stats_tl_interval_borrow(ua[k], Ta[k], ea[k],
				    LEVEL, bcell, &iv);
				count(&ct[CK_PCT][pool][k], &iv, tva[k]);
				/* as analyze's cell_tl: --pool trials of
				 * unequal size carry each value's variance */
				hva = stats_tl_trial_var(&a.st, STATS_EST_TYPE7,
				    cell_pcts[k], pl, ua[k], vta);
				hvb = stats_tl_trial_var(&b.st, STATS_EST_TYPE7,
				    cell_pcts[k], pl, ub[k], vtb);
				stats_tl_contrast_borrow(ua[k], hva ? vta :
				    NULL, Ta[k], ea[k], bcell, ub[k], hvb ?
				    vtb : NULL, Tb[k], eb[k], bcell,
				    STATS_DELTA, LEVEL, &iv);
				count(&ct[CK_DELTA][pool][k], &iv,
				    tva[k] - tvb[k]);
				stats_tl_contrast_borrow(ua[k], hva ? vta :
				    NULL, Ta[k], ea[k], bcell, ub[k], hvb ?
				    vtb : NULL, Tb[k], eb[k], bcell,
				    STATS_RATIO, LEVEL, &iv);
				count(&ct[CK_RATIO][pool][k], &iv,
				    tva[k] / tvb[k]);
				if (pool == 0) {
					SAMPLE_INTERVAL(d, a.trial[0], a.n[0],
					    a.rs, cell_pcts[k], &iv);
					if (iv.why)
						whys[2 * NPCT + k] = iv.why;
					count(&ct[CK_SAMPLE][0][k], &iv,
					    trial_truth(d, a.hit[0], SCALE_A, a.b[0],
					    cell_pcts[k]));
				}
			}
			/* growth: p50 (k 1) and p99 (k 4) */
			stats_tl_growth(ua[1], Ta[4] ? ua[4] : NULL, Ta[1],
			    ea[1], ea[4], ub[1], Tb[4] ? ub[4] : NULL, Tb[1],
			    eb[1], eb[4], LEVEL, &iv);
			count(&ct[CK_GROWTH][pool][0], &iv, (tva[4] - tvb[4]) /
			    (tva[1] - tvb[1]));
		}
	}
	for (k = 0; k < NPCT; k++) {
		free(ua[k]);
		free(ub[k]);
	}
	free(vta);
	for (t = 0; t < d->T; t++) {
		free(a.trial[t]);
		free(b.trial[t]);
	}
	free(a.pooled);
	free(b.pooled);
	if (d->ncamp) {
		for (t = 0; t < d->T; t++)
			free(s.trial[t]);
		free(s.pooled);
	}
	free(cst);
	free(cflag);
	free(oc);
}

static const char *const ck_name[NCK] = {
	"percentiles", "delta", "ratio", "growth", "single trial",
};

static void
designs_print(struct grid *g, const struct design *d, ctally_t ct,
    const char **whys, const long *by_trials, const long *gates)
{
	char buf[48];
	int kind, pool, k;
	bool check = g->check;

	printf("\n### %s\n\n%s.%s%s\n\n| interval | p25 | p50 | p75 | p95 | "
	    "p99 |\n|---|---|---|---|---|---|\n", d->name, d->what,
	    d->ungated ? "  Not held to the band: " : "",
	    d->ungated ? d->ungated : "");
	if (d->ungated)
		g->check = false;
	for (kind = 0; kind < NCK; kind++)
		for (pool = 0; pool < (kind == CK_SAMPLE ? 1 : 2); pool++) {
			printf("| %s%s |", ck_name[kind], kind == CK_SAMPLE ?
			    " (trial 1, within-run)" : pool ?
			    ", --pool trials" : ", pooled");
			for (k = 0; k < NPCT; k++) {
				if (kind == CK_GROWTH && k != 1) {
					printf(" |");
					continue;
				}
				cell_text(g, &ct[kind][pool][kind == CK_GROWTH ?
				    0 : k], buf, sizeof(buf));
				printf(" %s |", buf);
			}
			printf("\n");
		}
	for (pool = 0; pool < 2; pool++)
		for (k = 0; k < NPCT; k++)
			if (whys[pool * NPCT + k])
				printf("\n%s p%g: withheld (%s)", pool ?
				    "--pool trials" : "pooled", cell_pcts[k],
				    whys[pool * NPCT + k]);
	for (k = 0; k < NPCT; k++)
		if (by_trials[k])
			printf("\npooled p%g: from the trials' own values (ties "
			    "or unequal sizes) in %.0f %% of repetitions",
			    cell_pcts[k], 100.0 * (double)by_trials[k] /
			    (double)ct[CK_PCT][0][k].reps);
	if (stats_within_run_withhold(d->series))
		printf("\nsingle trial: withheld (%s)",
		    stats_within_run_withhold(d->series));
	else
		printf("\nsingle trial: serially correlated (lag-1 rank "
		    "autocorrelation × √n ≥ %.3f), so widened or withheld, in "
		    "%.1f %% of repetitions", STATS_SERIAL_Z, 100.0 *
		    (double)gates[2] / (double)ct[CK_PCT][0][0].reps);
	if (!stats_within_run_withhold(d->series))
		for (k = 0; k < NPCT; k++)
			if (whys[2 * NPCT + k])
				printf("\nsingle trial p%g: withheld when "
				    "not printed (%s)", cell_pcts[k],
				    whys[2 * NPCT + k]);
	if (d->ncamp) {
		double w = 100.0 * (double)(gates[0] + gates[1]) /
		    (double)ct[CK_PCT][0][0].reps;

		printf("\nA's trial-level intervals: withheld in %.1f %% of "
		    "repetitions (%s) and in %.1f %% more (%s)",
		    100.0 * (double)gates[0] / (double)ct[CK_PCT][0][0].reps,
		    WHY_OUTLIER, 100.0 * (double)gates[1] /
		    (double)ct[CK_PCT][0][0].reps, WHY_SHARED);
		for (size_t i = 0; i < ARRAY_SIZE(gate_bounds); i++) {
			if (strcmp(gate_bounds[i].name, d->name))
				continue;
			printf("; held to %g–%g %% withheld", gate_bounds[i].lo,
			    gate_bounds[i].hi);
			if (check && (w < gate_bounds[i].lo ||
			    w > gate_bounds[i].hi)) {
				printf(": **outside**");
				g->nbad++;
			}
		}
	}
	printf("\n");
	g->check = check;
}

/* Whether name is one of the comma-separated names (or they are "all"). */
static bool
named(const char *names, const char *name)
{
	size_t len = strlen(name);
	const char *p = names;

	if (!strcmp(names, "all"))
		return true;
	while (*p) {
		size_t k = strcspn(p, ",");

		if (k == len && !strncmp(p, name, len))
			return true;
		p += k;
		if (*p == ',')
			p++;
	}
	return false;
}

/* Run the named designs (names, or "all"); 0, or -1 on an unknown name. */
static int
designs_main(struct grid *g, const char *names, unsigned long long seed,
    long reps)
{
	size_t i;
	bool any = false;

	printf("Coverage of the nominal %.0f %% intervals in %%, our users' "
	    "designs, %ld repetitions a cell, seed %llu; (x %%) = share of "
	    "repetitions where the interval is printed, when not all; – = "
	    "never printed.%s\n", LEVEL * 100, reps, seed,
	    g->check ? "  Bold: outside the band checked." : "");
	for (i = 0; i < ARRAY_SIZE(designs); i++) {
		ctally_t ct;
		const char *whys[3 * NPCT] = { 0 };
		long by_trials[NPCT] = { 0 }, gates[3] = { 0 };

		if (!named(names, designs[i].name))
			continue;
		any = true;
		design_run(&designs[i], seed ^ (UINT64_C(0x9E3779B97F4A7C15) *
		    (i + 1)), reps, ct, whys, by_trials, gates);
		designs_print(g, &designs[i], ct, whys, by_trials, gates);
	}
	return any ? 0 : -1;
}

static int
usage(void)
{
	fprintf(stderr, "usage: coverage [--reps R] [--seed S] [--n LIST] "
	    "[--trials LIST] [--sigma-b LIST] [--check LO,HI]\n"
	    "       coverage --cells NAMES|all [--reps R] [--seed S] "
	    "[--check LO,HI] [--borrow 0|1]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	struct grid g;
	struct stats_rng rng;
	struct list band;
	unsigned long long seed = 14;
	long reps = 500;
	const char *cells = NULL;
	size_t in, it, is;
	int i;

	memset(&g, 0, sizeof(g));
	parse_list("300,10000", &g.ns);
	parse_list("3,5,10,20", &g.ts);
	parse_list("0,0.03,0.1,0.3", &g.sbs);
	for (i = 1; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!v)
			return usage();
		if (!strcmp(argv[i], "--reps")) {
			reps = strtol(v, &end, 10);
			if (*end || reps < 1)
				return usage();
		} else if (!strcmp(argv[i], "--seed")) {
			seed = strtoull(v, &end, 10);
			if (*end)
				return usage();
		} else if (!strcmp(argv[i], "--n")) {
			if (parse_list(v, &g.ns))
				return usage();
		} else if (!strcmp(argv[i], "--trials")) {
			if (parse_list(v, &g.ts))
				return usage();
		} else if (!strcmp(argv[i], "--sigma-b")) {
			if (parse_list(v, &g.sbs))
				return usage();
		} else if (!strcmp(argv[i], "--cells")) {
			cells = v;
		} else if (!strcmp(argv[i], "--borrow")) {
			if (!v || (strcmp(v, "0") && strcmp(v, "1")))
				return usage();
			noborrow = !strcmp(v, "0");
		} else if (!strcmp(argv[i], "--check")) {
			if (parse_list(v, &band) || band.n != 2)
				return usage();
			g.lo = band.v[0];
			g.hi = band.v[1];
			g.check = true;
		} else {
			return usage();
		}
	}
	if (cells) {
		if (designs_main(&g, cells, seed, reps))
			return usage();
		goto done;
	}
	for (it = 0; it < g.ts.n; it++)
		if (g.ts.v[it] < 1)
			return usage();
	g.pts = xcalloc(g.ns.n * g.ts.n * g.sbs.n, sizeof(point_t));
	for (in = 0; in < g.ns.n; in++)
		for (it = 0; it < g.ts.n; it++)
			for (is = 0; is < g.sbs.n; is++) {
				/* a stream per grid point, so that a grid split
				 * over several runs (--n 300, --n 10000) draws
				 * what the whole grid would */
				stats_rng_seed(&rng, seed ^ point_key(g.ns.v[in],
				    g.ts.v[it], g.sbs.v[is]));
				run_point(&rng, (size_t)g.ts.v[it],
				    (size_t)g.ns.v[in], g.sbs.v[is], reps,
				    g.pts[(in * g.ts.n + it) * g.sbs.n + is]);
			}
	printf("Coverage of the nominal %.0f %% intervals in %%, %ld "
	    "repetitions per grid point, seed %llu; p50 / p99 in each cell; "
	    "(x %%) = share of repetitions where the interval is printed, "
	    "when not all; – = never printed.%s\n", LEVEL * 100, reps, seed,
	    g.check ? "  Bold: outside the band checked." : "");
	print_tables(&g);
	free(g.pts);
done:
	if (g.check && g.nbad) {
		fprintf(stderr, "coverage: %ld printed interval(s) outside "
		    "%g-%g %% (or a campaign's share withheld outside its "
		    "bounds)\n", g.nbad, g.lo, g.hi);
		return 1;
	}
	return 0;
}
