/*
 * verdict.h - the verdicts pathstat prints, each with a measured false
 * positive rate (docs/research/verdicts.md, `make verdicts`): the trend of a
 * series (drifting, stepped, stable) and the outlier-trial rule that
 * `analyze trials`, `check outlier-trial` and the report's box charts
 * share.
 */
#ifndef PATHSTAT_STATS_VERDICT_H
#define PATHSTAT_STATS_VERDICT_H

#include "common/compat.h"

#include <stdbool.h>
#include <stddef.h>

/* ---------------------------------------------------------------------
 * Trend
 */

/* Below this many points no verdict: the exact Mann-Kendall test cannot
 * reach STATS_TREND_ALPHA_DRIFT two-sided with 4 points (smallest
 * p = 2/4! = 0.083), and a step needs 2 points on each side of a line. */
#define STATS_TREND_MIN_POINTS	5
/* The false-verdict budget on pure noise, 5 %, split between the two
 * questions (Bonferroni): a monotone drift, then a step beyond it (2 %,
 * leaving room for days whose p99 is not quite normal). */
#define STATS_TREND_ALPHA_DRIFT	0.025
#define STATS_TREND_ALPHA_STEP	0.02
/* Draws of the fitted null calibrating the tests; the seed is fixed so
 * the verdict is a function of the data. */
#define STATS_TREND_PERMS	1999
#define STATS_TREND_SEED	0x7472656e64ULL
/* Longest series judged (the Theil-Sen limit). */
#define STATS_TREND_MAX_N	4096
/* Up to this many points the Mann-Kendall S is calibrated on the fitted
 * null too (O(n^2) a draw); beyond, Hamed-Rao's variance correction. */
#define STATS_TREND_MK_SIM_MAX_N	200
/* The lag-1 autocorrelation of the line's residuals is biased low by
 * about (k + 4 rho) / n with k fitted parameters (Marriott and Pope 1954
 * for k = 1); the correction adds it back (k = 3 measured better than 2).
 * The null assumes day effects at least STATS_TREND_RHO_MIN correlated
 * (14 points cannot tell 0.5 from 0) and never more than
 * STATS_TREND_RHO_MAX: a step left in the line's residuals reads as a
 * strong autocorrelation, and with 0.9 a +20 % step over 20 days was
 * named in 87.8 % (docs/research/verdicts.md); day effects as
 * correlated as 0.8 get 9-11 % false verdicts over 14 days with either
 * cap (10.3 % against 9.3 % on the same 300 p50 series). */
#define STATS_TREND_RHO_BIAS	3.0
#define STATS_TREND_RHO_MIN	0.3
#define STATS_TREND_RHO_MAX	0.7
/* With the points' sampling errors, each draw of the null takes its own
 * rho, normal around the fitted one with this many times its standard
 * error sqrt((1 - rho^2) / n), within [STATS_TREND_RHO_MIN,
 * STATS_TREND_RHO_MAX] (below the floor, clipped at 0 before, 5.1-5.2 %
 * false p50 verdicts on 14 AR(1) rho 0.5 days)
 * (docs/research/verdicts.md: the plug-in rho's error at 14 points left 6-7 %
 * false verdicts on correlated days). */
#define STATS_TREND_RHO_SPREAD	1.0
/* Of the residual variance, at least this share is taken as day-to-day
 * (correlated) whatever the points' sampling errors say: a tail
 * percentile's is rough (Maritz-Jarrett's sd of a p99 of 300 samples
 * reads 1.10x the truth, of 50 0.75x; the spacing estimate before it
 * 1.51x and 0.55x), and with 0 a p99 on correlated days got 11.5 %
 * false verdicts, with 0.5 7.5 % (both with the spacing estimate). */
#define STATS_TREND_DAY_SHARE_MIN	0.5
/* A monotone change (Mann-Kendall) with no step beyond the line is
 * called a step when the best split into two means leaves a residual
 * sum of squares below the line's by this many log(n - 3) in n log RSS
 * (the split is chosen among n - 3; at 14 points two means must leave
 * half the line's): 1 (the usual 2 log m of choosing among m) called 21 %
 * of +1 %/day drifts a step, 4 3 % (bench/verdicts.c). */
#define STATS_TREND_SPLIT_PEN	4.0

enum stats_trend_verdict {
	STATS_TREND_TOO_FEW,	/* n < STATS_TREND_MIN_POINTS */
	STATS_TREND_STABLE,	/* neither test significant */
	STATS_TREND_SMALL,	/* significant, but under the threshold */
	STATS_TREND_DRIFT,	/* monotone drift, no step beyond it */
	STATS_TREND_STEP,	/* a step beyond any line, no trend beyond it */
	STATS_TREND_DRIFT_STEP	/* a step, and a trend beyond the step */
};

struct stats_trend {
	enum stats_trend_verdict verdict;
	size_t n;		/* points judged */
	double mean;		/* of y */
	double mk_s;		/* Mann-Kendall S (concordant - discordant) */
	double mk_p;		/* its two-sided p as judged: the larger of the
				 * independent p and the fitted null's */
	double mk_p_iid;	/* the p for independent points */
	bool mk_exact;		/* mk_p_iid exact (no ties, n <= 60) */
	bool mk_sim;		/* mk_p calibrated on the fitted null */
	double mk_p_hr;		/* Hamed-Rao corrected p (stats_mk_hamed_rao) */
	double hr_factor;	/* its n / n* variance factor */
	double rho;		/* lag-1 autocorrelation of the day effects the
				 * null assumes (bias-corrected, clamped) */
	double rho_raw;		/* of the residuals, as measured */
	bool se_used;		/* the points' sampling errors were given */
	double slope;		/* Theil-Sen slope of y on x */
	double slope_lo;	/* Sen's interval at the level asked */
	double slope_hi;
	double change_pct;	/* 100 slope (x_max - x_min) / |mean| */
	size_t step_at;		/* index (in x order) of the step's first point
				 * (0: no split judged) */
	double step_size;	/* the jump in the line + step least squares fit */
	double step_mean_diff;	/* mean after the step - mean before */
	double step_pct;	/* 100 (step_mean_diff, or step_size when there
				 * is also a trend beyond it) / |mean| */
	double step_p;		/* p of the largest step beyond the line */
	double resid_slope;	/* slope of the line beyond the step */
	double resid_change_pct; /* 100 resid_slope span / |mean| */
	double resid_p;		/* p of that line (at the same split) */
	bool drift;		/* judged a drift over the threshold */
	bool step;		/* judged a step over the threshold */
	bool relabeled;		/* a Mann-Kendall change that two means fit
				 * better than a line: called a step */
};

/*
 * Judge the series (x[i], y[i]), i < n, x strictly increasing (a day
 * number, a run index); se[i] (NULL: unknown) the sampling standard
 * error of point i (a day's p99 of 50 probes is noisier than one of 300).
 *
 * The null hypothesis is "no trend and no step": day-to-day effects with
 * a lag-1 autocorrelation (per unit of x) and each point's own sampling
 * error.  Its two parameters are fitted on the residuals of the
 * least-squares line, the autocorrelation bias-corrected
 * (STATS_TREND_RHO_BIAS), within [STATS_TREND_RHO_MIN,
 * STATS_TREND_RHO_MAX], and STATS_TREND_PERMS normal draws of it (fixed
 * seed; with se, each draw's rho spread by STATS_TREND_RHO_SPREAD times
 * its standard error, within the same bounds) calibrate three statistics:
 *   step:  for each split with 2 or more points on each side, the F of a
 *          jump added to the least-squares line; the largest, at
 *          STATS_TREND_ALPHA_STEP (it ignores lines and scale, so the
 *          calibration holds under a drift too);
 *   trend beyond the step: the F of a line added to the step at that
 *          split, at STATS_TREND_ALPHA_DRIFT;
 *   drift: the Mann-Kendall S (for n <= STATS_TREND_MK_SIM_MAX_N; beyond,
 *          Hamed-Rao), never below the exact (no ties, n <= 60) or
 *          tie-corrected normal p for independent points, at
 *          STATS_TREND_ALPHA_DRIFT.
 * A series with a significant step is stepped (the mean after less the
 * mean before), and drifting too only when the trend beyond the step
 * passes; one without is drifting when Mann-Kendall passes, or stepped
 * at the best split of two means (relabeled) when those fit it better
 * than the line by STATS_TREND_SPLIT_PEN.  Either must
 * change the statistic by threshold_pct percent of the mean (Theil-Sen
 * over the span of x; the residual line's over the span).  Pure noise
 * gets a verdict in at most about 5 % of series (docs/research/verdicts.md).
 * level is for Sen's slope interval only.  O(n^2) for the slopes plus
 * O(PERMS n) (O(PERMS n^2) up to 200 points) for the tests.  Returns 0,
 * or -1 on bad arguments (n > STATS_TREND_MAX_N, x not increasing, a
 * value not finite, an se negative or not finite, level not in (0, 1),
 * threshold < 0).
 */
int stats_trend_se(const double *x, const double *y, const double *se,
    size_t n, double threshold_pct, double level, struct stats_trend *out);

/* stats_trend_se() without sampling errors. */
int stats_trend(const double *x, const double *y, size_t n,
    double threshold_pct, double level, struct stats_trend *out);

/*
 * A memo of the normal draws the tests calibrate on, for a command that
 * tests many series (a report): every series draws from the same fixed
 * seeds, so between begin(true) and end each draw is made once and
 * replayed to the next series; the answers are the same bit for bit.
 * Not thread-safe.  counts: the draws made and those replayed since
 * begin (begin(false) only counts).
 */
void stats_trend_noise_memo_begin(bool keep);
void stats_trend_noise_memo_end(void);
void stats_trend_noise_memo_counts(unsigned long *drawn,
    unsigned long *replayed);

/*
 * A memo of the weights of stats_trend_point_se() and _at_n() by the
 * number of values, the sample size and the order statistic (they do
 * not depend on the values), for a command that weighs many points of
 * the same size (a report): between begin(true) and end each set is
 * computed once; the answers are the same bit for bit.  Not
 * thread-safe.  counts: the sets computed and those reused since begin.
 */
void stats_trend_mj_memo_begin(bool keep);
void stats_trend_mj_memo_end(void);
void stats_trend_mj_memo_counts(unsigned long *computed,
    unsigned long *reused);

/* The Hamed and Rao (1998) test: Mann-Kendall's S with Var(S) times
 * n / n* = 1 + 2 / (n (n-1) (n-2)) sum_k (n-k)(n-k-1)(n-k-2) r_k, r_k the
 * lag-k autocorrelations of the ranks of y - slope x (Theil-Sen slope),
 * kept only outside +-z_{1 - alpha/2} / sqrt(n), as pymannkendall's
 * hamed_rao_modification_test. */
struct stats_mk_hr {
	double s;		/* Mann-Kendall S */
	double var_s;		/* its corrected variance (ties corrected) */
	double nns;		/* n / n* */
	double z;		/* (S -+ 1) / sqrt(var_s), 0 at S = 0 */
	double p;		/* two-sided normal p (NaN when n / n* <= 0,
				 * which strong negative correlations give) */
	double slope;		/* the Theil-Sen slope it detrended with */
};

/* For 3 <= n <= STATS_TREND_MAX_N points, x increasing; alpha in (0, 1)
 * screens the autocorrelations (0.05 in pymannkendall).  Returns 0, or -1
 * on bad arguments (out's numbers NaN). */
int stats_mk_hamed_rao(const double *x, const double *y, size_t n,
    double alpha, struct stats_mk_hr *out);

/*
 * Two-sided p of the Mann-Kendall S for n untied points from the exact
 * null distribution (the inversion counts of a random permutation), for
 * 2 <= n <= 60; NaN otherwise.
 */
double stats_mk_exact_p(double s, size_t n);

/*
 * The sampling standard error of the type 7 pct percentile of n sorted
 * values, for stats_trend_se(): Maritz and Jarrett's (the bootstrap
 * standard deviation of the order statistics type 7 interpolates
 * between, in closed form by the incomplete beta, weighted as type 7
 * weighs them).  NaN for n < 2 or pct not in (0, 100).
 */
double stats_trend_point_se(const double *sorted, size_t n, double pct);

/*
 * A percentile compared at a common sample size: the expected type 7
 * pct percentile of m values drawn without replacement from the n sorted
 * ones (an L-estimator with hypergeometric weights, O(n)).  Its
 * expectation is exactly that of the type 7 percentile of m values, so a
 * day of 300 and a day of 50 estimate the same quantity when m = 50
 * (a p99 of 50 reads lower than one of 300: docs/research/verdicts.md).
 * m == 0 or m >= n: the plain type 7 percentile.  NaN for n == 0.
 */
double stats_trend_quantile_at_n(const double *sorted, size_t n, size_t m,
    double pct);

/* Its standard error as stats_trend_se() takes it: the jackknife's (the
 * leave-one-out values in O(n)); m == 0 or m >= n - 1:
 * stats_trend_point_se() (Maritz-Jarrett at m). */
double stats_trend_point_se_at_n(const double *sorted, size_t n, size_t m,
    double pct);

/* ---------------------------------------------------------------------
 * Outlier trials
 */

/* A trial is an outlier only when it is this many times above (or below
 * 1/x) the median trial: a practical size, so the 1-3 % that identically
 * distributed trials differ by is never called an outlier. */
#define STATS_OUTLIER_MIN_RATIO	2.0
/* The critical robust z is calibrated for this many trials; above it the
 * value for STATS_OUTLIER_CAL_MAX is used. */
#define STATS_OUTLIER_CAL_MIN	3
#define STATS_OUTLIER_CAL_MAX	30

/*
 * The critical robust z for n trials: the 95th percentile of
 * max_i |z_i| with z_i = (v_i - median v) / (1.4826 MAD v) over n
 * independent normal values (simulated, `pathstat-verdicts --calibrate`,
 * recorded in stats/outlier.c), so that trials whose logs vary normally
 * by any amount get a flag in at most 5 % of cells.  NaN for n < 3.
 */
double stats_outlier_zcrit(size_t n);
/* From this many trials each side of the median has its own scale. */
#define STATS_OUTLIER_SEMI_MIN	8
/* The critical z for n >= STATS_OUTLIER_SEMI_MIN trials with side
 * scales (the same 95th percentile on normal values); NaN below. */
double stats_outlier_zcrit_semi(size_t n);
/* ... times this on the upper side: the log of a tail percentile of
 * heavy-tailed samples (p99 of Pareto alpha 1.5 trials) is skewed right
 * with an exponential, not normal, upper tail, and with the normal's
 * critical value 6.8 % of cells of 20 identical such trials got a flag
 * (bench/verdicts.c, docs/research/verdicts.md). */
#define STATS_OUTLIER_SEMI_UP	1.25

/*
 * The one outlier-trial rule.  For n >= 3 positive finite values x[0..n)
 * (per-trial statistics), with l_i = log x_i, m = median(l) (type 7) and
 * s = 1.4826 MAD(l) (from STATS_OUTLIER_SEMI_MIN trials on, s is the
 * scale of l_i's side of m: 1.4826 times the median of that side's
 * |l_j - m|, with stats_outlier_zcrit_semi(n)): trial i is flagged when
 *     |l_i - m| >= log STATS_OUTLIER_MIN_RATIO   (practically large)
 * and |l_i - m| >= stats_outlier_zcrit(n) s     (beyond the spread).
 * When s = 0 (half or more of the trials identical) the first condition
 * decides alone.  ratio[i] (may be NULL) gets x_i / exp(m), z[i] (may be
 * NULL) gets (l_i - m) / s (+-inf when s = 0 and l_i != m).  With n < 3,
 * or a value <= 0 or not finite, nothing is flagged and ratio, z are NaN.
 * Returns the number of flags (0 when nothing can be judged).
 */
size_t stats_outlier_trials(const double *x, size_t n, bool *flag,
    double *ratio, double *z);

/*
 * The campaign's outlier rule, for the articles' design of 3-5 trials,
 * where a cell cannot estimate its own between-trial spread: the cells
 * of one campaign, metric, tool and statistic share one.  Each cell's
 * scale is the distance from its median trial (logs) to the nearest
 * other trial, which one outlier among 3 trials does not move (even a
 * third of trials off, the TIME_WAIT design, leaves most cells' nearest
 * pair alone); the campaign's is the median of those over its cells.
 * A trial is flagged when |l_i - m| >= log STATS_OUTLIER_POOL_MIN_RATIO
 * and >= K s, K the 99th percentile of max |l_i - m| / s over cells of
 * normal trials (simulated for 3-5 trials and 4, 8 and 30 cells,
 * interpolated in log cells; bench/verdicts.c measures the rates).
 */
#define STATS_OUTLIER_POOL_MIN_CELLS	4
#define STATS_OUTLIER_POOL_MIN_TRIALS	3
#define STATS_OUTLIER_POOL_MAX_TRIALS	5
#define STATS_OUTLIER_POOL_MIN_RATIO	1.5

/*
 * The pooled scale of ncells cells of k trials each, values x[c * k ..
 * c * k + k) (positive, finite; a cell with another value is skipped).
 * *used gets the cells used.  NaN when k is outside 3-5 or fewer than
 * STATS_OUTLIER_POOL_MIN_CELLS cells can be used.
 */
double stats_outlier_pool_scale(const double *x, size_t k, size_t ncells,
    size_t *used);

/*
 * Judge one cell's k trials x[0..k) against the pooled scale (of used
 * cells), and by the cell's own rule (stats_outlier_trials()) on the
 * same statistic: a trial is flagged when either flags it.  The own
 * rule matters on the tails: a cell of 5 trials two of which are
 * TIME_WAIT trials (p95 4x) in a campaign whose cells spread a little
 * more (K s 5x) passed the pooled test alone, and its --pool trials
 * p75-p99 intervals covered 88.8 % (tests/sim/coverage.c
 * oha-5x10000-bimodal).  flag[i], ratio[i] (x_i / exp(median log), may
 * be NULL) as stats_outlier_trials().  Returns the number of flags; 0
 * when the scale is NaN (then neither rule is applied here).
 */
size_t stats_outlier_pooled(const double *x, size_t k, double scale,
    size_t used, bool *flag, double *ratio);
/* The critical K for k trials and used cells; NaN outside the design. */
double stats_outlier_pool_k(size_t k, size_t used);

/*
 * The grouping check outlier-trial applies, for one statistic: cells
 * with the same group id and the same trial count k[c] (3-5 trials, all
 * values x[c][0..k[c]) positive and finite; other cells are not judged)
 * share the scale stats_outlier_pool_scale() makes of them, and each is
 * judged by stats_outlier_pooled(); a group of fewer than
 * STATS_OUTLIER_POOL_MIN_CELLS cells (a selection of one path) has no
 * shared scale, and each of its cells is judged by its own rule
 * (stats_outlier_trials()) on this statistic alone, so that its tails
 * are judged as the campaign's cells' are.  flag[c] (k[c]
 * entries) and ratio[c] (may be NULL, or a NULL entry) get its
 * results, scale[c] and used[c] (both may be NULL) the group's scale
 * and cell count (NaN and 0 when the cell was not judged; NaN and the
 * group's cells when its own rule alone judged it).  O(ncells^2) at worst (the groups are
 * found by scanning); meant for a campaign's cells.
 */
void stats_outlier_campaign(const double *const *x, const size_t *k,
    const size_t *group, size_t ncells, bool *const *flag,
    double *const *ratio, double *scale, size_t *used);

/* The statistics check outlier-trial judges a trial on: p50, p95, p99
 * (type 7 of its successes), a tail one only where at least
 * STATS_OUTLIER_TAIL_MIN samples lie above it. */
#define STATS_OUTLIER_NSTATS	3
#define STATS_OUTLIER_TAIL_MIN	5

/* Those of sorted[0..n) into st[STATS_OUTLIER_NSTATS] (NaN: not
 * judged; all NaN when n == 0). */
void stats_outlier_trial_stats(const double *sorted, size_t n, double *st);

/* One cell for stats_outlier_cells(). */
struct stats_outlier_cell {
	size_t		k;	/* trials */
	const double	*st;	/* st[t * STATS_OUTLIER_NSTATS + j]:
				 * statistic j of trial t, NaN: none */
	bool		low_only;	/* only a trial below the others is
					 * an outlier (throughput: a trial
					 * cannot beat its path) */
	bool		*flag;	/* out: k entries, the outlier trials */
	/* out, may be NULL: k entries, what flagged each outlier trial:
	 * STATS_OUTLIER_ON_OWN (the cell's own rule on the trials' p50s)
	 * and 1u << j (the campaign's rule on statistic j: p50, p95, p99) */
	unsigned	*on;
	/* out, may be NULL: k * STATS_OUTLIER_NSTATS entries, [t *
	 * STATS_OUTLIER_NSTATS + j] trial t's statistic j over the median
	 * trial's, NaN where the campaign's rule did not judge it */
	double		*ratio;
	/* out: per statistic, the spread the cells shared (NaN: none, the
	 * cell's own rule judged that statistic alone, or nothing did) and
	 * how many cells were judged together (0: not judged) */
	double		scale[STATS_OUTLIER_NSTATS];
	size_t		used[STATS_OUTLIER_NSTATS];
};
#define STATS_OUTLIER_ON_OWN	(1u << STATS_OUTLIER_NSTATS)

/*
 * THE outlier-trial rule of pathstat: `analyze trials`' column and its
 * note, the withdrawal of trial-level intervals, `check outlier-trial`
 * and the report's box charts all call this one function, so they name
 * the same trials.
 * What it flags among these cells, all of one metric
 * and tool in one campaign (a selection): a trial is an outlier when
 * the cell's own rule (stats_outlier_trials() on the trials' p50, all
 * of them positive) flags it, or, for 3-5 trials whose p50s all exist,
 * the campaign's rule (stats_outlier_campaign() over the cells of the
 * same trial count: the shared spread, or the cell's own rule on that
 * statistic; the latter alone with fewer than
 * STATS_OUTLIER_POOL_MIN_CELLS such cells) flags it on its p50, p95
 * or p99; with low_only a
 * trial above the median trial is never one.  Sets each cell's flag[]
 * (and on[], ratio[], scale[], used[]) and returns the number of cells
 * with an outlier trial.
 */
size_t stats_outlier_cells(struct stats_outlier_cell *cells, size_t ncells);

/*
 * Whether nout of njudged cells (of one trial count, 3 or more trials)
 * with an outlier trial say the cause is shared: at least
 * STATS_OUTLIER_SHARED_MIN of them and STATS_OUTLIER_SHARED_SHARE of
 * those judged.  Then a cell whose trials were ALL hit (TIME_WAIT in
 * each, chance 1/27 at 1 in 3 trials) looks like a clean one, and no
 * cell's trial-level interval can be trusted (tests/sim/coverage.c,
 * cell oha-3x10000-bimodal).  On trials without outliers the campaign's
 * rule flags about 1 % of cells, so 2 of 8 or 5 of 50 is rare there
 * (the cell probes-3x300-campaign measures how often).
 */
bool stats_outlier_shared(size_t nout, size_t njudged);
#define STATS_OUTLIER_SHARED_MIN	2
#define STATS_OUTLIER_SHARED_SHARE	0.10

#endif
