/*
 * coverage.c - the coverage harness for every interval `pathstat
 * analyze` prints (issue 14).  It draws seeded campaigns in which a
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
 * exit status is 1 when any printed interval's coverage lies outside.
 *
 *   coverage [--reps R] [--seed S] [--n LIST] [--trials LIST]
 *            [--sigma-b LIST] [--check LO,HI]
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/stats.h"

#define SIGMA_W		0.3
#define SCALE_A		1.3
#define LEVEL		0.95
#define MAXLIST		16

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
				unsup[k] = stats_tl_unsupported(pl,
				    STATS_EST_TYPE7, pcts[k]) != NULL;
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
	if (g->check && (cov < g->lo || cov > g->hi)) {
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

static int
usage(void)
{
	fprintf(stderr, "usage: coverage [--reps R] [--seed S] [--n LIST] "
	    "[--trials LIST] [--sigma-b LIST] [--check LO,HI]\n");
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
	if (g.check && g.nbad) {
		fprintf(stderr, "coverage: %ld printed interval(s) outside "
		    "%g-%g %%\n", g.nbad, g.lo, g.hi);
		return 1;
	}
	return 0;
}
