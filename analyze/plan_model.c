/*
 * plan_model.c - the planner's arithmetic (analyze/plan.h): predicted
 * interval width of a design, the attempts a tail percentile needs to
 * stay clear of the timeouts, and the smallest design for a width.
 * The rules are pathstat's own: the t quantile and the log-scale
 * trial-level interval (stats_tl_interval), the trials below which no
 * interval is printed (STATS_TL_MIN_TRIALS), the percentiles a pooled
 * interval is offered for (stats_tl_unsupported), the samples an
 * order-statistic interval needs (stats_quantile_ci_min_n, the rule
 * stats_tl_withhold applies) and censoring (stats_censored).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plan.h"
#include "common/xalloc.h"

/* Cap of the attempts searched for an uncensored percentile. */
/* Fewest successes a pilot trial needs for its within-trial spread. */
#define PLAN_MIN_PILOT		20
/* Most attempts a trial is given when --per-trial is not. */
#define PLAN_PER_TRIAL_CAP	10000
#define PLAN_MAX_ATTEMPTS	((size_t)1000000)

/* n / n_eff of a series with lag-1 autocorrelation rho: (1 + rho) /
 * (1 - rho), rho clamped to [0, PLAN_RHO_MAX] (an independent sample
 * is 1). */
static double
rho_factor(double rho)
{
	if (!(rho > 0))
		return 1.0;
	if (rho > PLAN_RHO_MAX)
		rho = PLAN_RHO_MAX;
	return (1.0 + rho) / (1.0 - rho);
}

/* The sampling variance of log u_t times n: within^2 p (1 - p) over
 * the squared density of all attempts at the quantile (log scale);
 * NaN when the percentile lies among the timeouts. */
static double
sampling_coef(const struct plan_model *m, double p)
{
	double ps = p / (1.0 - m->loss), z, dens;

	if (!(ps < 1))
		return NAN;
	z = stats_norm_quantile(ps);
	dens = (1.0 - m->loss) * exp(-0.5 * z * z) / 2.5066282746310002;
	return m->within * m->within * p * (1.0 - p) / (dens * dens) *
	    rho_factor(m->rho);
}

double
plan_trial_var(const struct plan_model *m, double pct, size_t n)
{
	if (!m || n == 0 || !(pct > 0 && pct < 100) ||
	    !(m->loss >= 0 && m->loss < 1))
		return NAN;
	return m->between * m->between + sampling_coef(m, pct / 100.0) /
	    (double)n;
}

static double
t_of(size_t T, double level)
{
	return stats_t_quantile(0.5 + level / 2.0, (double)(T - 1));
}

/* The median of the sample variance over the variance with k degrees
 * of freedom, chi2_{0.5,k} / k, by Wilson-Hilferty ((1 - 2/(9k))^3:
 * within 1.3 % of the exact value at k = 2, closer above): the printed
 * half-width is t s / sqrt T, and half of the campaigns get an s below
 * this times sigma. */
static double
chi2_median_ratio(size_t k)
{
	double c = 1.0 - 2.0 / (9.0 * (double)k);

	return c * c * c;
}

/* The upper confidence bound of a variance from a sample variance with
 * k degrees of freedom, as a factor: k / chi2_{1-level,k}, the
 * chi-square quantile by Wilson-Hilferty (k (1 - 2/(9k) + z
 * sqrt(2/(9k)))^3: within 1 % of the exact 0.446 at k = 2, level 0.8;
 * closer above). */
static double
var_upper_factor(size_t k, double level)
{
	double h = 2.0 / (9.0 * (double)k);
	double c = 1.0 - h + stats_norm_quantile(1.0 - level) * sqrt(h);

	if (!(c > 0.05))
		c = 0.05;
	return 1.0 / (c * c * c);
}

double
plan_width(const struct plan_model *m, double pct, size_t n, size_t T,
    double level)
{
	double p = pct / 100.0, v;

	if (!m || T < STATS_TL_MIN_TRIALS || n == 0 || !(p > 0 && p < 1) ||
	    !(m->loss >= 0 && m->loss < 1) || !(level > 0 && level < 1))
		return NAN;
	v = m->between * m->between + sampling_coef(m, p) / (double)n;
	return expm1(t_of(T, level) * sqrt(v * chi2_median_ratio(T - 1) /
	    (double)T));
}

/* P(a trial of n attempts reads a success at pct): the timeouts K ~
 * Binomial(n, loss) leave it uncensored while K < n - r, r the last
 * 0-based rank type 7 reads (stats_censored's rule). */
static double
uncensored_prob(double loss, const struct stats_name *s, size_t n)
{
	size_t r = stats_last_rank_read(STATS_EST_TYPE7, s->pct, n);

	/* n - r timeouts put a timeout at rank r: stats_censored()'s
	 * rule, asked at the edge */
	if (r >= n || !stats_censored(STATS_EST_TYPE7, s, r, n - r))
		return 0.0;
	return stats_binom_cdf((double)(n - r - 1), (double)n, loss);
}

size_t
plan_uncensored(double loss, double pct)
{
	struct stats_name s = { STATS_NAME_PCT, pct };
	size_t n, start = 0;

	if (!(loss > 0))
		return 1;
	if (!(loss < 1) || pct / 100.0 >= 1.0 - loss)
		return 0;
	/* a trial too short to hold a rank beyond the percentile is
	 * skipped (one probe of a p99 is "uncensored" 99 % of the time);
	 * the answer is where a run of uncensored sizes starts that lasts
	 * to 4x its start (the probability wiggles with the rank's
	 * rounding at first, then climbs) */
	n = (size_t)ceil(1.0 / (1.0 - pct / 100.0));
	for (; n <= PLAN_MAX_ATTEMPTS; n++) {
		if (uncensored_prob(loss, &s, n) < 0.95)
			start = 0;
		else if (start == 0)
			start = n;
		if (start && n >= 4 * start)
			return start;
	}
	return 0;
}

static size_t
ceil_div(size_t need, double rate)
{
	return (size_t)ceil((double)need / rate - 1e-9);
}

int
plan_design(const struct plan_model *m, const struct plan_ask *ask,
    struct plan_design *out)
{
	size_t n, T, unc, need, floor_n;
	double succ, a;

	if (!m || !ask || !out || !(ask->pct > 0 && ask->pct < 100) ||
	    !(ask->width > 0) || !(m->loss >= 0 && m->loss < 1))
		return -1;
	memset(out, 0, sizeof(*out));
	out->why = stats_tl_unsupported(ask->pool, STATS_EST_TYPE7, ask->pct);
	if (out->why) {
		out->why = PLAN_WHY_POOLED_TAIL;
		return 0;
	}
	unc = plan_uncensored(m->loss, ask->pct);
	out->uncensored = m->loss > 0 ? unc : 0;
	if (unc == 0) {
		out->why = PLAN_WHY_CENSORED;
		return 0;
	}
	succ = 1.0 - m->loss;
	need = stats_quantile_ci_min_n(ask->pct, ask->level,
	    STATS_CI_NARROWEST);
	out->min_samples = need;
	floor_n = unc;
	if (ask->pool == STATS_POOL_PER_TRIAL && floor_n < ceil_div(need, succ))
		floor_n = ceil_div(need, succ);
	a = sampling_coef(m, ask->pct / 100.0);
	for (T = STATS_TL_MIN_TRIALS; T <= PLAN_MAX_TRIALS; T++) {
		double c = log1p(ask->width) / t_of(T, ask->level) /
		    sqrt(chi2_median_ratio(T - 1));
		double den = (double)T * c * c - m->between * m->between;

		if (ask->per_trial) {
			n = ask->per_trial > floor_n ? ask->per_trial : floor_n;
		} else {
			/* the fewest attempts that reach the width with T
			 * trials, if no more than the cap */
			if (!(den > 0) || a / den > (double)PLAN_PER_TRIAL_CAP)
				continue;
			n = (size_t)ceil(a / den);
			if (n < floor_n)
				n = floor_n;
		}
		if (ask->pool == STATS_POOL_POOLED &&
		    (double)T * (double)n * succ < (double)need) {
			if (ask->per_trial)
				continue;
			n = ceil_div(need, succ * (double)T);
		}
		if (plan_width(m, ask->pct, n, T, ask->level) <=
		    ask->width * (1 + 1e-12)) {
			out->possible = true;
			out->trials = T;
			out->per_trial = n;
			out->width = plan_width(m, ask->pct, n, T, ask->level);
			return 0;
		}
	}
	out->why = "more than 100,000 trials";
	return 0;
}

/* log Q(ps) of a sorted trial, or NaN when the value read is <= 0. */
static double
log_q(const double *v, size_t n, double ps)
{
	double q = stats_quantile_type7(v, n, 100.0 * ps);

	return q > 0 ? log(q) : NAN;
}

/* Within-trial log-scale spread of one trial at the percentile asked:
 * the log-normal sd that puts its quantile ps where it is (near the
 * median, the interquartile range's). */
static double
trial_within(const double *v, size_t n, double ps)
{
	double z = stats_norm_quantile(ps);

	if (n < PLAN_MIN_PILOT)
		return NAN;
	if (fabs(z) < 0.5)
		return (log_q(v, n, 0.75) - log_q(v, n, 0.25)) /
		    1.3489795003921634;
	return (log_q(v, n, ps) - log_q(v, n, 0.5)) / z;
}

int
plan_fit(const struct stats_trials *g, const size_t *timeouts, double pct,
    struct plan_model *m, bool *one_trial)
{
	double *w = xcalloc(g->ntrials + 1, sizeof(double));
	double *lq = xcalloc(g->ntrials + 1, sizeof(double));
	double ps, z, mean = 0, ss = 0, samp, succ = 0, tmo = 0;
	size_t t, nw = 0, nq = 0;
	double rho = m->rho;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->rho = rho;
	*one_trial = false;
	for (t = 0; t < g->ntrials; t++) {
		succ += (double)g->n[t];
		tmo += timeouts ? (double)timeouts[t] : 0;
	}
	m->loss = succ + tmo > 0 ? tmo / (succ + tmo) : 0;
	ps = pct / 100.0 / (1.0 - m->loss);
	if (!(ps < 1)) {
		ret = 1;
		goto cleanup;
	}
	for (t = 0; t < g->ntrials; t++) {
		double v = trial_within(g->trial[t], g->n[t], ps);

		if (isfinite(v) && v > 0)
			w[nw++] = v;
		if (g->n[t] >= PLAN_MIN_PILOT &&
		    isfinite(log_q(g->trial[t], g->n[t], ps)))
			lq[nq++] = log_q(g->trial[t], g->n[t], ps);
	}
	if (nw == 0) {
		ret = 2;
		goto cleanup;
	}
	m->within = stats_median(w, nw);
	if (nq < 2) {
		*one_trial = true;
		goto cleanup;
	}
	for (t = 0; t < nq; t++)
		mean += lq[t] / (double)nq;
	for (t = 0; t < nq; t++)
		ss += (lq[t] - mean) * (lq[t] - mean) / (double)(nq - 1);
	/* a few trials' variance lies below the truth half the time:
	 * plan with its upper bound */
	ss *= var_upper_factor(nq - 1, PLAN_PILOT_UPPER);
	m->between_trials = nq;
	/* less the sampling variance of a trial's quantile */
	z = stats_norm_quantile(ps);
	samp = m->within * m->within * ps * (1 - ps) * rho_factor(m->rho) /
	    (succ / (double)g->ntrials * exp(-z * z) / 6.283185307179586);
	m->between = ss > samp ? sqrt(ss - samp) : 0;
cleanup:
	free(w);
	free(lq);
	return ret;
}

/* Lag-1 autocorrelation of x[0..n) in order; NaN without spread. */
static double
lag1(const double *x, size_t n)
{
	double mean = 0, num = 0, den = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (i = 0; i < n; i++) {
		den += (x[i] - mean) * (x[i] - mean);
		if (i + 1 < n)
			num += (x[i] - mean) * (x[i + 1] - mean);
	}
	return den > 0 ? num / den : NAN;
}

double
plan_series_rho(const struct stats_trials *series)
{
	double *r = xcalloc(series->ntrials + 1, sizeof(double)), rho = NAN;
	size_t t, k = 0;

	for (t = 0; t < series->ntrials; t++) {
		double v;

		if (series->n[t] < PLAN_MIN_SERIES)
			continue;
		v = lag1(series->trial[t], series->n[t]);
		if (isfinite(v))
			r[k++] = v;
	}
	if (k) {
		rho = stats_median(r, k);
		rho = rho < 0 ? 0 : rho > PLAN_RHO_MAX ? PLAN_RHO_MAX : rho;
	}
	free(r);
	return rho;
}
