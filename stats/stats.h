/*
 * stats.h - pure statistics over arrays of doubles: sorting and selection,
 * quantile estimators (type7, oha, Harrell-Davis), distribution functions
 * (incomplete beta, binomial, normal, Student t), order-statistic
 * confidence intervals, trial-level intervals (what analyze prints), a
 * seedable PRNG, the trial bootstrap, trial spread and outlier flags, and
 * the comparison tests
 * (Mann-Whitney, Brunner-Munzel, Holm, Theil-Sen, PELT, sample size).
 *
 * No I/O, no database, no global state.  Memory is allocated with
 * xmalloc() (fatal on OOM) and every returned buffer says who frees it.
 * Percentiles are passed as percent values in [0, 100] ("p99.9" -> 99.9)
 * everywhere, because the oha rule is defined on that number.
 *
 * One file per section of this header: select.c, dist.c, quantile.c
 * (with statistic names), rank_ci.c, bootstrap.c (with the PRNG),
 * spread.c, tests.c, interval.c.
 */
#ifndef PATHSTAT_STATS_STATS_H
#define PATHSTAT_STATS_STATS_H

#include "common/compat.h"

/* ---------------------------------------------------------------------
 * Sorting and selection
 */

/*
 * Sort x[0..n) ascending in place.  LSD radix sort on the IEEE-754 bit
 * pattern (O(n), n doubles of scratch), insertion sort below 64
 * elements.  NaNs (which callers should not pass) end up last, as a
 * canonical quiet NaN; -0.0 sorts before +0.0.
 */
void stats_sort(double *x, size_t n);

/*
 * Partially order x[0..n) so that x[k] holds the value it would hold
 * after a full sort, everything before it is <= x[k] and everything
 * after it is >= x[k].  Returns x[k].  Introselect: O(n) expected,
 * O(n log n) worst case (heap fallback).  k < n; x must hold no NaN.
 */
double stats_select(double *x, size_t n, size_t k);

/*
 * The idx-th smallest (0-based) of the union of k ascending arrays
 * runs[i][0..n[i]) without merging them: a pooled quantile of sorted
 * trials.  NaN when idx is past the end (or the arrays hold NaN).
 */
double stats_select_runs(const double *const *runs, const size_t *n,
    size_t k, size_t idx);

/* ---------------------------------------------------------------------
 * Quantile estimators.  All take a SORTED array with n >= 1 finite
 * values and pct in [0, 100]; they return NaN when n == 0 or pct is out
 * of range or NaN.
 */

enum stats_estimator {
	STATS_EST_TYPE7,	/* Hyndman-Fan 7, numpy 'linear', R type 7 */
	STATS_EST_OHA,		/* sorted[(size_t)(pct / 100.0 * n)] */
	STATS_EST_HD,		/* Harrell-Davis */
	STATS_EST_MEAN		/* the arithmetic mean (pct ignored) */
};

/* Name of an estimator as used on the command line ("type7", "oha",
 * "hd", "mean"); a static string. */
const char *stats_estimator_name(enum stats_estimator est);
/* Parse such a name; returns 0, or -1 if it is not one. */
int stats_estimator_parse(const char *s, enum stats_estimator *out);

/*
 * Type 7: h = (n - 1) * pct / 100, x[floor h] + (h - floor h) *
 * (x[floor h + 1] - x[floor h]), with numpy's two-sided lerp so that the
 * result matches numpy.percentile(x, pct) to the last bit or two.
 */
double stats_quantile_type7(const double *sorted, size_t n, double pct);

/*
 * The index oha reports for pct: (size_t)(pct / 100.0 * (double)n),
 * evaluated in exactly this double arithmetic (so p99.99 at n = 10000 is
 * index 9998, because 99.99 / 100.0 * 10000 == 9998.999999999998), and
 * clamped to n - 1.  n must be >= 1.
 */
size_t stats_oha_index(double pct, size_t n);
double stats_quantile_oha(const double *sorted, size_t n, double pct);

/*
 * Type 7 or oha's quantile of the union of k ascending arrays, the same
 * value as of their merge, by selection (stats_select_runs): a pooled
 * percentile of sorted trials without copying them.  NaN for another
 * estimator (the caller merges) or when there are no values.
 */
double stats_quantile_runs(enum stats_estimator est,
    const double *const *runs, const size_t *n, size_t k, double pct);

/*
 * Harrell-Davis: sum_i W_i x_(i), W_i = I_{i/n}(a, b) - I_{(i-1)/n}(a, b),
 * a = (n + 1) p, b = (n + 1)(1 - p).  pct 0 and 100 give min and max,
 * n == 1 gives x[0].  Weights are evaluated only in the window of ranks
 * outside which the total weight is below 1e-17 (about +-9 standard
 * deviations of Beta(a, b)), so the cost is O(sqrt(n)) incomplete-beta
 * evaluations of O(sqrt(n)) steps each: O(n) overall, about 0.1 s at
 * n = 10^7.  (The estimator is meant for small n.)
 */
double stats_quantile_hd(const double *sorted, size_t n, double pct);

/* Arithmetic mean of x[0..n) (any order); NaN when n == 0. */
double stats_mean(const double *x, size_t n);

/* Dispatch on est; sorted as above (the mean does not need it sorted). */
double stats_quantile(enum stats_estimator est, const double *sorted,
    size_t n, double pct);

/*
 * The same quantile of an UNSORTED array in O(n) expected time (selection
 * instead of a sort; HD sorts only its weight window).  Reorders x.
 * Use stats_sort() + stats_quantile() when several quantiles are needed.
 */
double stats_quantile_unsorted(enum stats_estimator est, double *x,
    size_t n, double pct);

/* ---------------------------------------------------------------------
 * Statistic names: "p50", "p99.9", "p0", "p100", "median" (= p50), "min",
 * "max", "mean", "n".
 */

enum stats_name_kind {
	STATS_NAME_PCT,		/* a percentile, pct holds the percent */
	STATS_NAME_MIN,
	STATS_NAME_MAX,
	STATS_NAME_MEAN,
	STATS_NAME_N		/* the sample count */
};

struct stats_name {
	enum stats_name_kind kind;	/* what is asked for */
	double pct;			/* percent in [0, 100] (PCT) */
};

/*
 * Parse a statistic name.  A percentile is 'p' followed by digits with at
 * most one '.' and at least one digit before it (no sign, exponent or
 * spaces); its value, converted with strtod in the C locale, must lie in
 * [0, 100].  Returns 0, or -1 with *why set to a static reason ("percent
 * above 100", ...) when why is not NULL.
 */
int stats_name_parse(const char *s, struct stats_name *out, const char **why);

/*
 * The last 0-based order statistic estimator est reads for pct among n
 * sorted values (n >= 1): type 7 ceil((n - 1) p) (floor((n - 1) p) + 1
 * when the interpolation fraction is nonzero), computed exactly from the
 * decimal the percent was written as; oha its own index
 * (stats_oha_index(), in its double arithmetic, since that is the value
 * it reports); Harrell-Davis the end of its weight window (ranks
 * beyond it carry under 1e-17 of the weight in all); the mean n - 1.
 */
size_t stats_last_rank_read(enum stats_estimator est, double pct, size_t n);

/*
 * pct / 100 as the exact fraction *num / *den: the shortest decimal (at
 * most 6 places) whose correctly rounded value is the double pct, which
 * is what "p99.9" parsed into.  Returns false when there is none.
 */
bool stats_pct_fraction(double pct, uint64_t *num, uint64_t *den);

/*
 * Censoring by timeouts (stats/censor.c): censored attempts sort above
 * every success; does statistic s of all successes + censored attempts
 * read one of them?  A percentile: its last rank read >= successes; max:
 * any censored; min: no success; mean and n: never (they are shown with
 * the count of timeouts beside them).
 */
bool stats_censored(enum stats_estimator est, const struct stats_name *s,
    size_t successes, size_t censored);


/* ---------------------------------------------------------------------
 * Distribution functions
 */

/*
 * Regularized incomplete beta I_x(a, b) for a, b > 0, x in [0, 1]:
 * continued fraction (modified Lentz) with the prefactor computed by
 * Loader's saddle-point method, so the relative error stays near 1e-14
 * even for a, b ~ 1e7.  stats_betainc_upper() is 1 - I_x(a, b) computed
 * without cancellation.  NaN on bad arguments.
 */
double stats_betainc(double a, double b, double x);
double stats_betainc_upper(double a, double b, double x);

/* Binomial(n, p) probability mass at k and P(B <= k); n up to 2^53. */
double stats_binom_pmf(double k, double n, double p);
double stats_binom_cdf(double k, double n, double p);

/* Standard normal CDF, upper tail and quantile (0 < p < 1). */
double stats_norm_cdf(double z);
double stats_norm_sf(double z);
double stats_norm_quantile(double p);

/* Student t CDF (df > 0, may be fractional) via the incomplete beta, and
 * its quantile (0 < p < 1). */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);

/* ---------------------------------------------------------------------
 * Distribution-free confidence interval for a quantile from order
 * statistics: B = #{X_i <= xi_p} ~ Binomial(n, p), so for ranks l < u
 * P(X_(l) <= xi_p <= X_(u)) = P(l <= B <= u - 1) for continuous data
 * (with ties the interval is conservative).
 */

enum stats_ci_rule {
	/* fewest ranks u - l reaching the level, i.e. the highest-mass run of
	 * the binomial: available from n = 299 for p99 at 95 %
	 * (docs/design.md) */
	STATS_CI_NARROWEST,
	/* l = largest rank with P(B < l) <= alpha/2, u = smallest rank with
	 * P(B >= u) <= alpha/2: available from n = 367 for p99 at 95 % */
	STATS_CI_EQUAL_TAILED
};

struct stats_rank_ci {
	bool available;		/* false: no ranks in 1..n do */
	size_t lo;		/* 1-based rank of the lower bound */
	size_t hi;		/* 1-based rank of the upper bound */
	double coverage;	/* exact P(l <= B <= u - 1), continuous data */
	/* STATS_CI_EQUAL_TAILED only (else lo, hi): the ends' fractional
	 * ranks, interpolated between neighbouring order statistics so
	 * that each tail is alpha/2 (Hettmansperger & Sheather 1986,
	 * Nyblom 1992) where one rank step moves either end's tail by more
	 * than alpha/2 (P(B = lo) or P(B = hi - 1) > alpha/2), else lo and
	 * hi: rlo in [lo, lo + 1], rhi in [hi - 1, hi]; the end at rank
	 * r + lam is (1 - lam) X(r) + lam X(r + 1) */
	double rlo, rhi;
};

/*
 * Ranks of the level (e.g. 0.95) interval for the pct percentile from n
 * samples.  Exact binomial probabilities (Loader's pmf summed over the
 * +-40 sd window), so n up to 1e7 and more costs O(sqrt(n)).  pct 0 and
 * 100 (min, max) never have an interval.  Returns 0 (also when the
 * interval is not available) or -1 on bad arguments.
 */
int stats_quantile_ci(size_t n, double pct, double level,
    enum stats_ci_rule rule, struct stats_rank_ci *out);

/* Smallest n for which stats_quantile_ci() is available (0 if none
 * below 2^40, e.g. for pct 0 or 100). */
size_t stats_quantile_ci_min_n(double pct, double level,
    enum stats_ci_rule rule);

/* ---------------------------------------------------------------------
 * Pseudo-random numbers: xoshiro256** seeded through splitmix64.  The
 * same seed gives the same stream on every platform.
 */

struct stats_rng {
	uint64_t s[4];		/* xoshiro256** state, never all zero */
};

void stats_rng_seed(struct stats_rng *rng, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *rng);
/* Uniform in [0, 1) with 53 random bits. */
double stats_rng_uniform(struct stats_rng *rng);
/* Uniform integer in [0, bound), bound >= 1, without modulo bias
 * (Lemire's multiply-shift for bound < 2^32, rejection above). */
uint64_t stats_rng_below(struct stats_rng *rng, uint64_t bound);
/* Standard normal (Marsaglia's polar form of Box-Muller). */
double stats_rng_normal(struct stats_rng *rng);
/* Exponential with rate 1 (inversion). */
double stats_rng_exponential(struct stats_rng *rng);

/* ---------------------------------------------------------------------
 * Bootstrap of a delta or ratio between two groups of trials
 */

/*
 * B = 2000 by default: the Monte-Carlo standard error of a 2.5 % or
 * 97.5 % percentile endpoint is about sqrt(0.025 * 0.975 / B) / phi(1.96)
 * = 0.06 bootstrap standard errors (measured over 30 seeds on two cells
 * of 3 x 10,000 samples: 0.04-0.08 SE for p50 and p99 deltas, i.e.
 * 0.0004-0.002 ms on an SE of 0.008-0.027 ms).  So an endpoint printed
 * with two decimals stays put between seeds whenever the bootstrap SE is
 * below about 0.08 in the printed unit, except right at a rounding
 * boundary; Efron & Tibshirani ask for B >= 1000 for percentile
 * intervals, and B = 2000 keeps such a pair of cells at about a second.
 * Use more for wider intervals; the seed makes any B reproducible.
 */
#define STATS_BOOT_B_DEFAULT	2000
/* "pathsta" in ASCII */
#define STATS_BOOT_SEED_DEFAULT	UINT64_C(0x70617468737461)

/* One group (a cell): ntrials trials, trial[t] holds n[t] samples. */
struct stats_trials {
	const double *const *trial;	/* borrowed; ntrials arrays */
	const size_t *n;		/* samples in each trial */
	size_t ntrials;			/* >= 1 */
};

enum stats_pool {
	STATS_POOL_POOLED,	/* statistic of all samples of all trials */
	STATS_POOL_PER_TRIAL	/* per trial, then the mean of those */
};

enum stats_resample {
	/* resample trials with replacement, then the samples within each
	 * resampled trial with replacement (the default) */
	STATS_RESAMPLE_TWO_STAGE,
	/* resample trials with replacement only */
	STATS_RESAMPLE_TRIALS
};

enum stats_contrast {
	STATS_DELTA,		/* stat(a) - stat(b) */
	STATS_RATIO		/* stat(a) / stat(b) */
};

struct stats_boot_opts {
	enum stats_estimator est;	/* quantile estimator, or the mean */
	double pct;			/* percent, unused for the mean */
	enum stats_pool pool;		/* pooled or per-trial mean */
	enum stats_resample resample;	/* two-stage or trials only */
	enum stats_contrast contrast;	/* delta or ratio */
	size_t B;			/* replicates, 0 = default */
	double level;			/* interval level, 0 = 0.95 */
	uint64_t seed;			/* PRNG seed */
};

#define STATS_BOOT_OPTS_INIT { STATS_EST_TYPE7, 50.0, STATS_POOL_POOLED, \
	STATS_RESAMPLE_TWO_STAGE, STATS_DELTA, STATS_BOOT_B_DEFAULT, 0.95, \
	STATS_BOOT_SEED_DEFAULT }

struct stats_boot_result {
	double estimate;	/* the contrast on the data as given */
	double lo;		/* percentile-method interval, lower end */
	double hi;		/* upper end */
	double se;		/* standard deviation of the replicates */
	size_t B;		/* replicates drawn */
	size_t nvalid;		/* replicates with a finite contrast */
};

/*
 * Bootstrap the contrast between groups a and b.  The point estimate is
 * the statistic on the data as given; the interval is the level
 * percentile interval (type 7 quantiles of the finite replicates).
 * Replicates whose contrast is not finite (a ratio over 0) are dropped
 * and counted out of nvalid; lo/hi are NaN when fewer than half are
 * valid.  Within-trial draws are taken from each trial sorted, so a
 * replicate is a set of counts over the sorted pool and the statistic is
 * read off the counts: O(N) draws plus O(N0) sequential work per
 * replicate (N = samples in the resampled cell, N0 in the cell as
 * given), O(T) for per-trial trials-only, after an O(N0 log N0) setup
 * (sorting the trials, merging them); memory O(N0).  No sorting or
 * selection per replicate.
 *
 * Coverage of the 95 % two-stage interval for a delta of pooled medians
 * (simulated, SLOW=1 in tests/unit/t-stats.c): 95 % with 10 trials when
 * trial-to-trial drift and within-trial sampling error are comparable;
 * 92-93 % with 10 trials when drift dominates ((T-1)/T variance, no t
 * correction), 98-99 % when trials are iid (sampling error counted in
 * both stages), and 77-98 % with 3 trials depending on the drift.  With
 * 3 trials no trial bootstrap is calibrated: show the trial spread too.
 *
 * Returns 0, or -1 on bad arguments (no trials, an empty trial, more
 * than 2^32 - 1 samples in a cell, pct out of range).
 */
int stats_bootstrap(const struct stats_trials *a, const struct stats_trials *b,
    const struct stats_boot_opts *opts, struct stats_boot_result *out);

/* Arithmetic the articles publish: a - b, a / b (NaN for b == 0), and
 * the growth of a delta from p50 to p99, dp99 / dp50. */
double stats_delta(double a, double b);
double stats_ratio(double a, double b);
double stats_growth(double delta_p99, double delta_p50);

/* ---------------------------------------------------------------------
 * Trial spread and outliers
 */

enum stats_outlier_rule {
	STATS_OUTLIER_NONE,	/* n < 3, or a value <= 0 / not finite */
	STATS_OUTLIER_RATIO,	/* MAD of the logs == 0: the ratio alone */
	STATS_OUTLIER_ROBUST_Z	/* ratio and calibrated robust z */
};

struct stats_spread {
	size_t n;		/* trials */
	double mean;
	double median;
	double min;
	double max;
	double max_dev_pct;	/* 100 * max |x_i - mean| / |mean| */
	enum stats_outlier_rule rule;	/* how the flags were decided */
	size_t noutliers;	/* flags set */
};

/*
 * Spread of per-trial statistics x[0..n), and its outlier trials by the
 * cell's own part of pathstat's outlier rule, stats_outlier_trials()
 * (stats/verdict.h; the whole rule, which every output names trials by,
 * is stats_outlier_cells()): 2x or more from the median trial and beyond
 * the calibrated robust z of the logs for n trials; score[i] is that z.  Nothing is flagged with
 * n < 3 or a value <= 0 or not finite (rule STATS_OUTLIER_NONE).  flag
 * and score may be NULL, else hold n entries.  Returns 0, or -1 when
 * n == 0.
 */
int stats_spread(const double *x, size_t n, struct stats_spread *out,
    bool *flag, double *score);

/* Median of x[0..n) without reordering it (copies); NaN when n == 0. */
double stats_median(const double *x, size_t n);

/* ---------------------------------------------------------------------
 * Comparisons
 */

struct stats_test {
	double statistic;	/* U of x (MW); W (BM) */
	double p;		/* two-sided p-value */
	double df;		/* degrees of freedom (BM), else NaN */
	double effect;		/* P(X < Y) + P(X = Y) / 2, estimated */
	bool exact;		/* p from the exact distribution (MW) */
};

enum stats_mw_method {
	STATS_MW_AUTO,		/* exact without ties, nx * ny <= 2500 */
	STATS_MW_EXACT,		/* exact; fails on ties or larger */
	STATS_MW_ASYMPTOTIC	/* normal, tie and continuity corrected */
};

/*
 * Mann-Whitney U test of x against y, two-sided.  statistic is U_x =
 * R_x - nx(nx+1)/2 (scipy's U1).  The exact p is 2 P(U >= max(U_x, U_y))
 * capped at 1, from the null distribution by recursion (O((nx ny)^2)
 * time, hence the size limit); the asymptotic one uses the normal with
 * tie correction and continuity correction, as
 * scipy.stats.mannwhitneyu(method='exact' / 'asymptotic').  Ranking is
 * O((nx + ny) log(nx + ny)).  Returns 0, or -1 when a sample is empty or
 * the exact method cannot be used.
 */
int stats_mann_whitney(const double *x, size_t nx, const double *y,
    size_t ny, enum stats_mw_method method, struct stats_test *out);

/*
 * Brunner-Munzel test (unequal variances), two-sided, t distribution with
 * Welch-Satterthwaite df, as scipy.stats.brunnermunzel.  statistic is W
 * (positive when y tends to be larger).  When both rank variances are
 * zero, which happens whenever the samples do not overlap at all, the
 * statistic is +-inf and p, df are NaN, as scipy: report the effect
 * (0 or 1) and use Mann-Whitney's p there.  Returns 0, or -1 unless
 * nx, ny >= 2.
 */
int stats_brunner_munzel(const double *x, size_t nx, const double *y,
    size_t ny, struct stats_test *out);

/*
 * Holm-Bonferroni: replace p[0..n) by the adjusted p-values (step-down,
 * monotone, capped at 1).  NaNs stay NaN and do not count in m.
 */
void stats_holm(double *p, size_t n);

/*
 * Many-to-one multiplicity (stats/multi.c): a step-down permutation
 * min-p (Westfall-Young max-T, each row's p its statistic) over rows
 * compared with a shared baseline.  Rows of one family (same family
 * number) share their baseline's values xb[0..nb); families are
 * permuted independently.  Step j permutes the baseline's and the
 * not-yet-rejected rows' values together, nperm times, and the row's
 * adjusted p is (1 + #{smallest permuted p <= its p}) / (1 + nperm),
 * made monotone.  Valid where the groups' values are exchangeable when
 * they do not differ (the trials of one day).  Deterministic: the
 * permutations come from seed and the step's group sizes.
 */
struct stats_mt_row {
	const double	*xb, *xc;	/* baseline's and row's values
					 * (borrowed) */
	size_t		nb, nc;
	size_t		family;		/* rows sharing xb */
	double		p;		/* raw p; NaN: untested, adj NaN */
	double		pmin;		/* smallest p its test can give
					 * (0: unknown) */
};
/* compare's permutations and their seed: the Monte-Carlo p's standard
 * error at 0.05 is 0.005. */
#define STATS_MT_NPERM	1999
#define STATS_MT_NPERM_S "1999"	/* the same, for messages */
#define STATS_MT_SEED	0x70617468ULL
/* The row test: p of xc[0..nc) against xb[0..nb). */
typedef double (*stats_mt_test_fn)(const double *xc, size_t nc,
    const double *xb, size_t nb, void *ctx);
/* A cache of permutation nulls for rank tests (which, without ties,
 * depend on the group sizes only); optional. */
struct stats_mt_cache;
struct stats_mt_cache *stats_mt_cache_new(void);
void stats_mt_cache_free(struct stats_mt_cache *c);
/* adj[0..n) receives the adjusted p's (adj NULL: *floor alone, the
 * first step only); from the first row whose adjusted p is at least
 * stop (none after it can pass), the rest are read from that step's
 * permutations, conservative, instead of one step each; *floor the smallest adjusted p any row could reach
 * (the smallest pmin of the rows at the first step), NaN when a row's
 * pmin is 0.  Returns 0, or -1 (nperm 0). */
int stats_maxt_stepdown(const struct stats_mt_row *rows, size_t n,
    stats_mt_test_fn test, void *ctx, size_t nperm, uint64_t seed,
    struct stats_mt_cache *cache, double stop, double *adj, double *floor);

/*
 * A comparison whose unit of replication is the day (stats/nested.c):
 * la[0..na) and lb[0..nb) are the log of each day's statistic on each
 * side.  Unpaired: a t test on the two sets of days (2 or more a side):
 * Student's with as many days a side (its standard error is Welch's
 * there), else Welch's.
 * paired: la[i] and lb[i] were measured on the same day, and the test is
 * a one-sample t on their differences (2 or more days).  ratio is
 * exp(mean difference), [lo, hi] its interval at level, p two-sided.
 * Returns -1 (p NaN) when there is no test: too few days, or days that
 * do not differ at all.
 */
struct stats_day_cmp {
	double	ratio, lo, hi;	/* a over b, and its interval */
	double	p, df;		/* two-sided p of the t test, its df */
	bool	paired;		/* by shared days */
};

int stats_day_contrast(const double *la, size_t na, const double *lb,
    size_t nb, bool paired, double level, struct stats_day_cmp *out);

/* n(n-1)/2 slopes: 8.4 M at most */
#define STATS_THEIL_SEN_MAX_N	4096

struct stats_theil_sen {
	double slope;		/* median of pairwise slopes */
	double intercept;	/* median(y) - slope * median(x) */
	double lo;		/* Sen (1968) interval for the slope */
	double hi;
	size_t nslopes;		/* pairs with distinct x */
};

/*
 * Theil-Sen slope of y on x with the level interval from Kendall's tau
 * variance with tie correction (Sen 1968, eq. 2.6), ranks rounded half
 * to even, as scipy.stats.theilslopes(y, x, level).  O(n^2) time and
 * memory, hence n <= STATS_THEIL_SEN_MAX_N (meant for series of days or
 * instance types).  Returns 0, or -1 unless 2 <= n <= the maximum and
 * some x differ.
 */
int stats_theil_sen(const double *x, const double *y, size_t n,
    double level, struct stats_theil_sen *out);

/*
 * Change points in the mean of y[0..n) by PELT (Killick et al. 2012),
 * cost sum (y - segment mean)^2 / sigma^2 (normal, known variance) and
 * penalty 2 log n per change (BIC counting the new mean and the location
 * of each change).  sigma <= 0 estimates it robustly from the first
 * differences (1.4826 MAD(diff y) / sqrt 2, falling back to their
 * standard deviation / sqrt 2 when the MAD is 0).  Segments have at
 * least minseg (>= 1) points.  Exact optimum; O(n) expected, O(n^2) when
 * nothing is pruned (meant for short series: days, runs).
 * Returns the number of changes and sets *cps to a malloc()ed array of
 * the indices where new segments start (ascending; the caller frees it;
 * NULL when there are none), or -1 on bad arguments.
 */
long stats_changepoints(const double *y, size_t n, double sigma,
    size_t minseg, size_t **cps);

/*
 * How many trials give a level (e.g. 0.95) t interval on the mean whose
 * half-width is at most target_pct percent of the mean, judging the
 * spread from the per-trial values x[0..n) (n >= 2): the smallest m >= 2
 * with t_{(1+level)/2, m-1} s / sqrt(m) <= target_pct / 100 |mean|.
 * *now_pct (may be NULL) gets the half-width in percent with the n trials
 * at hand.  Returns m, or 0 on bad arguments or when m would exceed 10^9.
 */
size_t stats_trials_needed(const double *x, size_t n, double target_pct,
    double level, double *now_pct);

/* ---------------------------------------------------------------------
 * Trial-level intervals (interval.c).  Every interval analyze prints
 * comes from here, and tests/sim/coverage.c measures their coverage
 * (docs/research/coverage.md).  Trials are the unit: each trial contributes one
 * value u_t, and the interval is a Student t interval with T - 1 degrees
 * of freedom (Welch-Satterthwaite for two cells).  For --pool trials u_t
 * is the trial's statistic; for a pooled quantile it is the trial's
 * linearized influence on the pooled quantile (the Woodruff / cluster
 * sandwich form used for quantiles of clustered survey samples):
 *
 *   u_t = q + slope * (T n_t / N) * (p - F_t(q)),
 *
 * F_t(q) the share of trial t at or below the pooled quantile q (ties
 * count half), slope = dQ/dp read off the pooled sample between
 * p -+ sqrt(p (1 - p) / N).  The mean of u_t is q up to O(1/N), and its
 * spread carries both the sampling error inside the trials and the
 * trial-to-trial drift, each once.  A pooled mean uses
 * u_t = m + (T n_t / N)(m_t - m).
 */

/* Fewest trials a side for which a trial-level interval is printed:
 * with 2 trials a t interval has 1 degree of freedom (t = 12.7) and
 * its coverage hangs on the normality of two values; the coverage grid
 * (docs/research/coverage.md) starts at 3. */
#define STATS_TL_MIN_TRIALS	3

/*
 * Why no interval is offered for this statistic under this pooling, or
 * NULL when one is.  Pooled quantiles outside p25-p75: the coverage grid
 * (docs/research/coverage.md) put a pooled p99 interval at 70-90 %, because the
 * tail of all requests together is made by the slowest one or two
 * trials, which a handful of trial-level values cannot describe; the
 * mean of the trials' p99 (--pool trials) has a calibrated interval.
 */
const char *stats_tl_unsupported(enum stats_pool pool,
    enum stats_estimator est, double pct);

/*
 * Why no interval is offered for statistic (est, pct) of this cell, or
 * NULL when one is: stats_tl_unsupported; a percentile of fewer samples
 * than give an order-statistic interval at this level (the rule check
 * few-samples states: p99 at 95 % needs 299; --pool trials judges each
 * trial, pooled all of them: iperf3's 3 runs x 30 intervals covered 77 %
 * for p99 before; a short trial among at least STATS_TL_MIN_TRIALS with
 * the samples, STATS_TL_SHORT_FULL of them, is down-weighted instead); a
 * percentile that sits on one plateau of
 * tied values shared by two or more trials (a rate cap: a point mass in
 * the trial-level values, which a t interval on 3 of them does not
 * cover, or of width 0 when all share it).  pooled, npooled as for stats_tl_values
 * (may be NULL, 0 for --pool trials).  Static strings.
 */
const char *stats_tl_withhold(const struct stats_trials *g,
    const double *pooled, size_t npooled, enum stats_pool pool,
    enum stats_estimator est, double pct, double level);

/* The end of a reason that lack of data withholds an interval: the
 * command that sizes the design that would give one. */
#define STATS_WHY_PLAN		"pathstat plan --width W% says how many"
#define STATS_WHY_FEW_SAMPLES	"too few samples for an interval on this " \
	"percentile (see check few-samples); " STATS_WHY_PLAN " a trial"
/* --pool trials: the share of a cell's trials that must have the
 * samples for the percentile (and at least STATS_TL_MIN_TRIALS) for the
 * others, short or crashed, to be down-weighted rather than withhold
 * the cell's interval. */
#define STATS_TL_SHORT_FULL	0.9
#define STATS_WHY_PLATEAU	"the percentile sits on a plateau of equal " \
	"values (a cap) shared by trials: no interval"

/*
 * How stats_tl_values computes a pooled quantile's trial-level values:
 * NULL for the linearized influence below, or a static note when it uses
 * the trials' own quantiles instead (the interval then is the pooled
 * estimate -+ t se of those; with trials of unequal size u holds them
 * rewritten so that se is the size-weighted pooled estimate's, each
 * trial's variance tau^2 + c / n_t, Hartung-Knapp's scale: see
 * docs/research/intervals.md): the pooled quantile sits on a run of ties
 * (the linearized share jumps and the slope is 0 there: a cap's plateau
 * gave [1.053, 1.057] where the trials said [0.91, 1.18]), or
 * trial sizes differ by more than 1.5x (300/300/40 covered 88 %).
 */
const char *stats_tl_method(const struct stats_trials *g,
    const double *pooled, size_t npooled, enum stats_estimator est,
    double pct, enum stats_pool pool);

#define STATS_TL_BY_TRIALS_TIES	"from the trials' own values: ties at " \
	"the pooled percentile"
#define STATS_TL_BY_TRIALS_SIZES "from the trials' own values: trials " \
	"of unequal size"

/*
 * Why a single run has no within-run interval, or NULL: its samples are
 * a time series (series: iperf3's reporting intervals), serially
 * correlated, and the order-statistic interval assumes independent
 * samples (AR(1) rho 0.8 covered 57-65 %).
 */
const char *stats_within_run_withhold(bool series);

#define STATS_WHY_SERIES	"a run's samples are a time series " \
	"(serially correlated): no within-run interval; use ≥ 3 runs"

/* Pooled quantile intervals are offered for these percentiles only. */
#define STATS_TL_POOLED_PCT_MIN	25.0
#define STATS_TL_POOLED_PCT_MAX	75.0

enum stats_covers {
	STATS_COVERS_NONE,	/* no interval */
	STATS_COVERS_TRIALS,	/* trial-to-trial variation and sampling */
	STATS_COVERS_SAMPLES	/* within-run sampling only (one trial) */
};

/* "trials", "samples" or NULL (none). */
const char *stats_covers_name(enum stats_covers c);

struct stats_interval {
	double estimate;	/* the statistic or contrast */
	double lo, hi;		/* NaN when not available */
	double se;		/* standard error (NaN when not available) */
	double df;		/* t degrees of freedom (NaN: none) */
	enum stats_covers covers;	/* what variation lo..hi covers */
	const char *why;	/* static reason when not available, else NULL */
};

/*
 * Trial-level values of statistic (est, pct) of a cell: trials as in
 * stats_trials, each trial sorted ascending; pooled (sorted, npooled
 * values) all of them together, used only for STATS_POOL_POOLED.
 * est STATS_EST_MEAN gives the mean (pct ignored); pct must lie strictly
 * between 0 and 100 for quantiles.  u gets ntrials values (caller's
 * array), *estimate the statistic as analyze prints it (pooled value, or
 * the mean across trials).  Returns 0, or -1 on bad arguments.
 */
int stats_tl_values(const struct stats_trials *g, const double *pooled,
    size_t npooled, enum stats_estimator est, double pct,
    enum stats_pool pool, double *u, double *estimate);

/*
 * Level interval for one cell: estimate -+ t_{T-1} se, se = sd(u) /
 * sqrt(T), or with log_scale (and estimate > 0) estimate * exp(-+ t_{T-1}
 * se / estimate), the same interval for log(estimate), which suits a
 * right-skewed statistic such as a latency quantile; not available below
 * STATS_TL_MIN_TRIALS (why says so).  Returns 0 (also when not
 * available), -1 on bad arguments.
 */
int stats_tl_interval(const double *u, size_t T, double estimate,
    double level, bool log_scale, struct stats_interval *out);

/*
 * The spread of the trials a campaign's cells of one design share
 * (stats/borrow.c): the pooled variance of their trial-level values on
 * the log scale (each cell's sum of squares over its estimate squared)
 * with its degrees of freedom, sum (T - 1), over cells.
 */
struct stats_borrow {
	double	ss;	/* sum over cells of sum_t ((u_t - mean u) / e)^2 */
	double	df;	/* sum over cells of T - 1 */
	size_t	cells;	/* cells added */
};

/* Cells a selection needs of one design before an interval borrows:
 * with one or two the campaign cannot show slow runs that come and go. */
#define STATS_BORROW_MIN_CELLS	3
/* Trial sizes of one design: within this factor of each other. */
#define STATS_BORROW_SIZE_RATIO	1.5
/* A cell's robust own variance, (1.4826 MAD)^2 of its values over its
 * estimate, times this, is the least it borrows: a cell noisier
 * throughout than the campaign keeps its spread (one slow trial among
 * five does not move a median absolute deviation).  Tuned on the
 * harness: 1 left the noisy campaign at 92.0 %, 2 the slow one at
 * 98.3 % (docs/research/coverage.md). */
#define STATS_BORROW_MAD_K	1.5

/* Add one cell's trial-level values u[0..T) around its estimate (T of
 * at least STATS_TL_MIN_TRIALS and estimate > 0, else nothing). */
void stats_borrow_add(struct stats_borrow *b, const double *u, size_t T,
    double estimate);
/* Two cells' trial sizes (median samples per trial) alike enough to
 * share a design. */
bool stats_borrow_similar(size_t na, size_t nb);
/*
 * stats_tl_interval on the log scale, and where b holds at least
 * STATS_BORROW_MIN_CELLS cells, the interval of the campaign's spread:
 * estimate * exp(-+ t_{df} sqrt(s2 / T)) (out->df = b->df), s2 the
 * greater of b->ss / b->df and the cell's robust own variance times
 * STATS_BORROW_MAD_K.  Returns 0 (also when not available), -1 on bad
 * arguments.
 */
int stats_tl_interval_borrow(const double *u, size_t T, double estimate,
    double level, const struct stats_borrow *b, struct stats_interval *out);
/*
 * stats_tl_contrast_v, and where both cells borrow (ba, bb hold at least
 * STATS_BORROW_MIN_CELLS cells each), the interval of the difference
 * (on the values) or ratio (on the log scale) from each cell's borrowed
 * variance as in stats_tl_interval_borrow, Welch-Satterthwaite's degrees
 * of freedom over b->df.  Returns 1 when the interval borrowed, 0 when it
 * is the pair's own (also when not available), -1 on bad arguments.
 */
int stats_tl_contrast_borrow(const double *ua, const double *vta, size_t ta,
    double ea, const struct stats_borrow *ba, const double *ub,
    const double *vtb, size_t tb, double eb, const struct stats_borrow *bb,
    enum stats_contrast k, double level, struct stats_interval *out);

/*
 * Level interval for ea - eb (STATS_DELTA) or ea / eb (STATS_RATIO, on
 * the log scale: ratio * exp(-+ t se_log), se_log from the delta method,
 * needing ea, eb > 0) of two independent cells' trial-level values, Welch
 * t.  Returns 0 (also when not available), -1 on bad arguments.
 */
int stats_tl_contrast(const double *ua, size_t ta, double ea,
    const double *ub, size_t tb, double eb, enum stats_contrast k,
    double level, struct stats_interval *out);

/*
 * stats_tl_contrast with, for either cell (NULL: none), the sampling
 * variances of its trial-level values (stats_tl_trial_var): the t
 * quantile is then the level quantile of |Welch's statistic| itself
 * when the values are normal with those variances (a cell without them
 * taken as all alike, its values' sample variance), exactly (the
 * statistic's quadratic form's eigenvalues, Imhof's integral), and
 * out->df NaN.  Welch's t quantile when neither has them, or above
 * STATS_TL_CAL_MAX trials in all.  --pool trials of unequal size only:
 * at 300/300/40 one trial makes both the estimate's error and most of
 * the spread, Welch's t stays small and its quantile covered 98 %+
 * (docs/research/coverage.md).
 */
int stats_tl_contrast_v(const double *ua, const double *vta, size_t ta,
    double ea, const double *ub, const double *vtb, size_t tb, double eb,
    enum stats_contrast k, double level, struct stats_interval *out);

#define STATS_TL_CAL_MAX	64

/*
 * The sampling variances v[0..T) of the trial-level values u
 * (stats_tl_values) of a percentile under --pool trials of trials of
 * unequal size: v_t = tau^2 + c / n_t, c = slope^2 p (1 - p) from the
 * quantile function of all samples together, tau^2 by DerSimonian-Laird
 * on u (as the pooled estimate of unequal sizes weighs them).  Returns
 * true when it filled v; false (v untouched) for sizes within 1.5x of
 * each other (stats_tl_method's rule), the mean, a pooled cell, fewer
 * than 2 trials or a slope of 0.
 */
bool stats_tl_trial_var(const struct stats_trials *g,
    enum stats_estimator est, double pct, enum stats_pool pool,
    const double *u, double *v);

/*
 * Growth dp99 / dp50 of a delta a - b with its level interval (delta
 * method on the per-trial linear combination (u99 - g u50) / dp50 of each
 * cell, Welch t).  Withheld (estimate NaN, why "Δp50 not distinguishable
 * from 0") when the level interval of dp50 contains 0; the estimate is
 * kept but the interval is not available with too few trials, or when
 * a99 or b99 is NULL (no trial-level values for p99).  Returns 0, -1 on
 * bad arguments.
 */
int stats_tl_growth(const double *a50, const double *a99, size_t ta,
    double ea50, double ea99, const double *b50, const double *b99,
    size_t tb, double eb50, double eb99, double level,
    struct stats_interval *out);

/*
 * Clip an available interval to [lo, hi], what the data can make: a
 * quantile never lies outside its samples' range, a delta of two
 * cells' quantiles never outside [min a - max b, max a - min b] (a t
 * interval on 3 trials printed -163 [-648, 321] where -257 was the
 * least possible).  Nothing happens when lo > hi or NaN.
 */
void stats_interval_clip(struct stats_interval *iv, double lo, double hi);

/* The range a delta (or, for positive values, a ratio) of statistics of
 * cells with sample ranges [alo, ahi], [blo, bhi] can take: [-inf, inf]
 * when unknown. */
void stats_contrast_range(double alo, double ahi, double blo, double bhi,
    enum stats_contrast k, double *lo, double *hi);

/*
 * Within-run interval for one trial's quantile (covers sampling only):
 * the equal-tailed exact binomial order-statistic interval, so that
 * each side misses at most (1 - level) / 2; sorted holds n values.  Not
 * available when no ranks reach the level (p99 at 95 % needs n >= 367).
 */
int stats_sample_interval(const double *sorted, size_t n, double pct,
    double estimate, double level, struct stats_interval *out);

/*
 * Serial correlation within a run.  The lag-1 rank
 * autocorrelation of x[0..n) in sample order: with R_i the ranks (ties
 * averaged) and m = (n + 1) / 2, sum (R_i - m)(R_{i+1} - m) / sum
 * (R_i - m)^2.  About N(0, 1/n) for independent samples.  NaN when
 * n < 3 or every value is equal.  O(n log n), n scratch.
 */
double stats_serial_rank_corr(const double *x, size_t n);

/*
 * The variance inflation of the share of n samples at or below the pct
 * quantile when the samples are a Gaussian-copula AR(1) series whose
 * lag-1 rank autocorrelation is rs (latent rho = 2 sin(pi rs / 6)):
 * 1 + 2 sum_k (1 - k/n) cov(I_0, I_k) / (p (1 - p)), cov(I_0, I_k) =
 * Phi2(z_p, z_p; rho^k) - p^2 (Sheppard's integral).  1 when rs <= 0.
 * n / vif is the effective sample size of that share.
 */
double stats_indicator_vif(double rs, double pct, size_t n);

/* One-sided 5 % normal critical value of rs sqrt(n): above it a run's
 * samples count as serially correlated. */
#define STATS_SERIAL_Z		1.6448536269514722

/*
 * The within-run interval of one trial's pct quantile (sorted[0..n))
 * when its samples may be serially correlated: rs, their lag-1 rank
 * autocorrelation in sample order (stats_serial_rank_corr(); NaN:
 * unknown, taken as independent).  When rs sqrt(n) is below
 * STATS_SERIAL_Z, stats_sample_interval(); else the equal-tailed
 * order-statistic interval of n_eff = n / stats_indicator_vif() samples,
 * its ranks scaled to n (to the nearest rank: outward was conservative,
 * 98.8 % for p95 at rho 0.8, n = 300; an end interpolated by
 * stats_quantile_ci() (rlo, rhi) to the same fraction of n, read off the
 * order statistics linearly), or none (why STATS_WHY_SERIAL) when n_eff
 * samples give no interval for pct.
 */
int stats_sample_interval_serial(const double *sorted, size_t n, double pct,
    double estimate, double level, double rs, struct stats_interval *out);

#define STATS_WHY_SERIAL	"the run's samples are serially correlated " \
	"(lag-1 rank autocorrelation): too few independent samples for a " \
	"within-run interval on this percentile; use ≥ 3 runs"

#endif
