/*
 * plan.h - the campaign planner's model and design search (`pathstat
 * plan`, analyze/plan.c; tests/sim/plan.c checks it).  A statistic's
 * trial-level values are taken as log-normal around the statistic:
 *
 *   log u_t = log q + trial effect (sd `between`) + sampling error of
 *             the trial's quantile, variance within^2 p (1 - p) /
 *             (n (1 - loss)^2 phi(z_s)^2), z_s = Phi^-1(p / (1 - loss)),
 *
 * within the log-scale spread of one trial's successes (a log-normal
 * sd), n the attempts a trial makes.  The interval pathstat prints on T
 * such values is q exp(-+ t_{T-1} sd / sqrt T) (stats_tl_interval with
 * log_scale), so its median relative half-width over campaigns is
 * predicted as exp(t_{T-1} sqrt(c_{T-1} var / T)) - 1, c_k = (1 -
 * 2 / (9k))^3 the median of a sample variance with k degrees of freedom
 * over the variance (Wilson-Hilferty).  Pure arithmetic over stats/: no I/O.
 */
#ifndef PATHSTAT_ANALYZE_PLAN_H
#define PATHSTAT_ANALYZE_PLAN_H

#include "common/compat.h"

#include "stats/stats.h"

struct plan_model {
	double within;		/* log-scale sd of one trial's successes */
	double between;		/* log-scale sd of the trials' statistic */
	double loss;		/* share of attempts that time out, [0, 1) */
	double rho;		/* lag-1 autocorrelation of a trial's
				 * series, [0, PLAN_RHO_MAX]: its n
				 * attempts count as n (1 - rho) / (1 +
				 * rho) independent ones (0: independent) */
	size_t between_trials;	/* pilot trials between was estimated
				 * from (plan_fit; 0: stated, as given) */
};

/* The one-sided level of the upper confidence bound plan_fit puts on
 * the pilot's trial-to-trial variance (chi-square with trials - 1
 * degrees of freedom): chosen by tests/sim/plan.c (docs/plan.md). */
#ifndef PLAN_PILOT_UPPER
#define PLAN_PILOT_UPPER	0.50
#endif

/* The largest rho used: beyond it a trial's series is one long swing. */
#define PLAN_RHO_MAX		0.95

struct plan_ask {
	double pct;		/* the percentile, (0, 100) */
	enum stats_pool pool;	/* pooled or per-trial mean */
	double width;		/* relative half-width asked (0.05: +-5 %) */
	double level;		/* interval level (0.95) */
	size_t per_trial;	/* attempts per trial; 0: the fewest
				 * trials for which the attempts
				 * reaching the width number at most
				 * 10,000, and those attempts */
};

struct plan_design {
	bool possible;		/* false: why says so */
	const char *why;	/* static reason, or NULL */
	size_t trials;		/* T >= STATS_TL_MIN_TRIALS */
	size_t per_trial;	/* attempts per trial */
	double width;		/* predicted relative half-width at T */
	size_t min_samples;	/* fewest samples the interval needs
				 * (per trial, or pooled) */
	size_t uncensored;	/* plan_uncensored() (0: loss 0) */
};

#define PLAN_MAX_TRIALS		100000
#define PLAN_WHY_CENSORED	"the percentile lies among the timeouts " \
	"at this loss rate: no number of probes measures it"
#define PLAN_WHY_POOLED_TAIL	"no pooled interval outside p25-p75: " \
	"plan --pool trials"

/* Predicted median relative half-width of the interval of T trials of n
 * attempts (NaN below STATS_TL_MIN_TRIALS or on bad arguments). */
double plan_width(const struct plan_model *m, double pct, size_t n,
    size_t T, double level);

/* Fewest attempts n0 per trial from which on (checked up to 4 n0) the
 * percentile of a trial of n attempts reads a success, not a timeout,
 * with probability >= 0.95 when each attempt times out with probability
 * loss; 1 for loss 0; 0 when none up to 10^6 does. */
size_t plan_uncensored(double loss, double pct);

/* The smallest design meeting ask under m: per_trial as asked (or
 * chosen, see struct plan_ask), raised to what the interval and
 * censoring rules need, and the fewest trials.  Fills out; returns 0, -1 on bad arguments. */
int plan_design(const struct plan_model *m, const struct plan_ask *ask,
    struct plan_design *out);

/*
 * Fit the model to a pilot: g's trials hold each trial's successes
 * sorted, timeouts[t] (NULL: none) its timeouts.  within: the median
 * over trials of 20 or more successes of (log Q(p_s) - log Q(0.5)) /
 * z(p_s), p_s = p / (1 - loss) (near the median, |z| < 0.5, the
 * interquartile range over 2 z(0.75)); between: the sd of the trials'
 * log Q(p_s) less a trial quantile's sampling variance (0 when that is
 * more, at m->rho as given: plan_fit keeps it); loss: all timeouts
 * over all attempts.  The variance of the trials' log Q(p_s) is taken
 * at its PLAN_PILOT_UPPER upper confidence bound (a few trials put it
 * below the truth half the time); m->between_trials says from how many
 * trials.  With fewer than 2 such
 * trials *one_trial is set and between left 0.  Returns 0; 1 when the
 * percentile lies among the timeouts; 2 when no trial has 20 positive
 * successes (m->loss is set in every case).
 */
int plan_fit(const struct stats_trials *g, const size_t *timeouts,
    double pct, struct plan_model *m, bool *one_trial);

/* The lag-1 autocorrelation of each trial's series (series: the trials'
 * values in time order, not sorted) -- sum (x_i - mean)(x_{i+1} - mean)
 * over sum (x_i - mean)^2, numpy's acf at lag 1 -- and their median
 * over the trials of PLAN_MIN_SERIES or more values with some spread,
 * clamped to [0, PLAN_RHO_MAX]; NaN when no trial has. */
double plan_series_rho(const struct stats_trials *series);

/* The fewest values a trial's series needs for its rho. */
#define PLAN_MIN_SERIES		10

/* The variance of a trial's log statistic: between^2 plus the sampling
 * variance of the quantile of n attempts (NaN on bad arguments). */
double plan_trial_var(const struct plan_model *m, double pct, size_t n);

/* What --detect asks (analyze/plan_power.c). */
struct plan_power_ask {
	double detect;		/* relative difference (0.10: 10 %) */
	double sd;		/* log-scale sd of a unit's value: a trial's
				 * (plan_trial_var), or a day's */
	size_t groups;		/* k >= 2: k - 1 rows against a baseline */
	bool by_days;		/* the day is the unit: compare's t test on
				 * the days' values */
	double level;		/* 1 - alpha (0.95) */
	double target;		/* power asked (0.8) */
	size_t reps;		/* repetitions simulated */
};

struct plan_power_result {
	bool possible;
	const char *why;	/* static, when !possible */
	size_t units;		/* trials (or days) a side */
	double power;		/* simulated at units */
};

/* The power compare has at units trials (days) a side: the share of
 * repetitions in which the row carrying the difference passes compare's
 * test after its adjustment over k - 1 rows (seeded; NaN on bad
 * arguments). */
double plan_power(const struct plan_power_ask *a, size_t units);

/* The fewest units a side with plan_power() >= target; 0, -1 on bad
 * arguments. */
int plan_power_design(const struct plan_power_ask *a,
    struct plan_power_result *out);

#define PLAN_WHY_NO_SPREAD	"no pilot trial has 20 positive samples " \
	"to estimate the spread within a trial"

#endif
