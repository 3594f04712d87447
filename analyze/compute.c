/*
 * compute.c - one statistic of one cell: pooled or per trial (the
 * trials' own values, or a tool's summary numbers), its interval, and
 * the "≥ timeout" rule for connect times (a statistic that reads a
 * timed-out probe is censored, never a number).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "common/err.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

size_t
cell_view(const struct cell *c, const double **ptrs, size_t *ns,
    struct stats_trials *view)
{
	size_t i, k = 0;

	for (i = 0; i < c->ntrials; i++) {
		if (!c->trials[i].n)
			continue;
		ptrs[k] = c->trials[i].values;
		ns[k] = c->trials[i].n;
		k++;
	}
	view->trial = ptrs;
	view->n = ns;
	view->ntrials = k;
	return k;
}

/* One statistic of a sorted array. */
static double
stat_of(const struct analyze_opts *o, const struct stats_name *s,
    const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	switch (s->kind) {
	case STATS_NAME_MIN:
		return x[0];
	case STATS_NAME_MAX:
		return x[n - 1];
	case STATS_NAME_MEAN:
		return stats_mean(x, n);
	case STATS_NAME_N:
		return (double)n;
	case STATS_NAME_PCT:
		break;
	}
	return stats_quantile(o->est, x, n, s->pct);
}

/*
 * A pooled statistic read off the cell's sorted trials without merging
 * them (the merge and its copies were most of analyze's time
 * on 20 M samples): min, max, and type 7's and oha's quantiles by
 * selection, the same values as of the merged array.  False when the
 * cell has no samples or the statistic needs every value (the mean,
 * Harrell-Davis): the caller merges.
 */
static bool
pooled_stat_of_trials(const struct analyze_opts *o, const struct stats_name *s,
    const struct cell *c, double *value)
{
	const double **runs;
	size_t *ns, i, k = 0;
	bool done = false;

	if (s->kind == STATS_NAME_MEAN || s->kind == STATS_NAME_N ||
	    (s->kind == STATS_NAME_PCT && o->est != STATS_EST_TYPE7 &&
	    o->est != STATS_EST_OHA))
		return false;
	runs = xmalloc((c->ntrials ? c->ntrials : 1) * sizeof(*runs));
	ns = xmalloc((c->ntrials ? c->ntrials : 1) * sizeof(*ns));
	for (i = 0; i < c->ntrials; i++)
		if (c->trials[i].n) {
			runs[k] = c->trials[i].values;
			ns[k++] = c->trials[i].n;
		}
	if (k == 0)
		goto cleanup;
	done = true;
	switch (s->kind) {
	case STATS_NAME_MIN:
		*value = runs[0][0];
		for (i = 1; i < k; i++)
			if (runs[i][0] < *value)
				*value = runs[i][0];
		break;
	case STATS_NAME_MAX:
		*value = runs[0][ns[0] - 1];
		for (i = 1; i < k; i++)
			if (runs[i][ns[i] - 1] > *value)
				*value = runs[i][ns[i] - 1];
		break;
	default:
		*value = stats_quantile_runs(o->est, runs, ns, k, s->pct);
		break;
	}
cleanup:
	free(runs);
	free(ns);
	return done;
}

/* The tool's own value of a statistic for a summary-only trial. */
static double
tool_stat_of(const struct trial *t, const struct stats_name *s,
    const char *typed)
{
	switch (s->kind) {
	case STATS_NAME_MIN:
		return trial_tool_stat(t, "min");
	case STATS_NAME_MAX:
		return trial_tool_stat(t, "max");
	case STATS_NAME_MEAN:
		return trial_tool_stat(t, "mean");
	case STATS_NAME_N:
		return NAN;
	case STATS_NAME_PCT:
		break;
	}
	if (s->pct == 50.0 && isfinite(trial_tool_stat(t, "p50")))
		return trial_tool_stat(t, "p50");
	return trial_tool_stat(t, typed);
}

/*
 * Connect probes: is statistic s of all attempts beyond what the
 * successes say?  Timeouts sort above every success and the estimator's
 * own rule decides whether it reads one (stats_censored(): oha's index,
 * type 7's ceil((N - 1) p), Harrell-Davis's weight window), with N =
 * successes + timeouts; refusals and errors are failures, not connect
 * times, and censor nothing.  Pooled: over the cell's raw trials; per
 * trial: each trial on its own, since a trial's censored value enters
 * the mean across trials.  *ntrials gets the trials censored.
 */
bool
trial_censored(const struct analyze_opts *o, const struct cellset *cs,
    const struct trial *t, const struct stats_name *s)
{
	return cs->info->timeout_bound && !t->summary_only && t->timeouts > 0 &&
	    stats_censored(o->est, s, t->n, (size_t)t->timeouts);
}

static bool
censored_by_timeouts(const struct analyze_opts *o, const struct cellset *cs,
    const struct cell *c, const struct stats_name *s, size_t *ntrials)
{
	size_t i, succ = 0, tmo = 0;

	*ntrials = 0;
	if (!cs->info->timeout_bound || c->timeouts <= 0)
		return false;
	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];

		if (t->summary_only)
			continue;
		succ += t->n;
		tmo += (size_t)t->timeouts;
		if (o->pool == STATS_POOL_PER_TRIAL &&
		    trial_censored(o, cs, t, s))
			(*ntrials)++;
	}
	if (o->pool == STATS_POOL_PER_TRIAL)
		return *ntrials > 0;
	return stats_censored(o->est, s, succ, tmo);
}

/* Statistic s of the sorted successes x[0..n) and tmo timeouts, those
 * at timeout_ms above every success. */
static double
stat_with_timeouts(const struct analyze_opts *o, const struct stats_name *s,
    const double *x, size_t n, size_t tmo, double timeout_ms)
{
	double *all, v;
	size_t i;

	if (tmo == 0)
		return stat_of(o, s, x, n);
	all = xmalloc((n + tmo) * sizeof(double));
	if (n)
		memcpy(all, x, n * sizeof(double));
	for (i = 0; i < tmo; i++)
		all[n + i] = n && x[n - 1] > timeout_ms ? x[n - 1] : timeout_ms;
	v = stat_of(o, s, all, n + tmo);
	free(all);
	return v;
}

double
cell_all_attempts(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s)
{
	double sum = 0, v;
	size_t i, k = 0;

	if (s->kind != STATS_NAME_PCT && s->kind != STATS_NAME_MIN &&
	    s->kind != STATS_NAME_MAX)
		return NAN;
	if (!cs->info->timeout_bound || c->timeouts <= 0) {
		struct cell_stat cv;
		struct cell_info info;

		cell_compute(o, cs, c, s, false, &cv, &info);
		return cv.value;
	}
	if (!isfinite(c->timeout_ms))
		return NAN;
	if (o->pool == STATS_POOL_POOLED) {
		const double *x;
		size_t n = cell_pooled(c, &x), tmo = 0;

		for (i = 0; i < c->ntrials; i++)
			if (!c->trials[i].summary_only)
				tmo += (size_t)c->trials[i].timeouts;
		return n ? stat_with_timeouts(o, s, x, n, tmo, c->timeout_ms) :
		    NAN;
	}
	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];

		if (t->summary_only)
			return NAN;
		if (t->n == 0)
			continue;
		v = stat_with_timeouts(o, s, t->values, t->n,
		    (size_t)t->timeouts, c->timeout_ms);
		sum += v;
		k++;
	}
	return k ? sum / (double)k : NAN;
}

double
cell_contrast_bound(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *a, struct cell *b, const struct stats_name *s, bool ratio,
    bool ca, bool cb, int *dir)
{
	struct cell *cens = ca ? a : b, *other = ca ? b : a;
	double t = cens->timeout_ms, v;

	*dir = 0;
	if (ca == cb || !isfinite(t) || t <= 0)
		return NAN;
	v = cell_all_attempts(o, cs, other, s);
	if (!isfinite(v) || (ratio && v <= 0))
		return NAN;
	*dir = ca ? 1 : -1;
	if (ratio)
		return ca ? t / v : v / t;
	return ca ? t - v : v - t;
}

static const char *
stat_label(const struct analyze_opts *o, const struct stats_name *s)
{
	size_t i;

	for (i = 0; i < o->nstats; i++)
		if (&o->stats[i] == s)
			return o->stat_names[i];
	return "";
}

/* The name the tool's own summary uses for s: "p99", "p99.9"; "" for
 * other statistics. */
static void
typed_name(const struct analyze_opts *o, const struct stats_name *s,
    char *typed, size_t size)
{
	if (s->kind == STATS_NAME_PCT && *stat_label(o, s) == 'p')
		snprintf(typed, size, "%s", stat_label(o, s));
	else if (s->kind == STATS_NAME_PCT)
		snprintf(typed, size, "p%g", s->pct);
	else
		typed[0] = '\0';
}

size_t
cell_tl(const struct analyze_opts *o, struct cell *c,
    const struct stats_name *s, double **u, double **vt, double *estimate,
    const char **why)
{
	/* an outlier trial (check outlier-trial): the trials are not
	 * alike, and no t interval on them holds */
	if (c->outlier_why) {
		*u = NULL;
		if (vt)
			*vt = NULL;
		*estimate = NAN;
		*why = c->outlier_why;
		return 0;
	}
	return cell_tl_trials(o, c, s, u, vt, estimate, why);
}

size_t
cell_tl_trials(const struct analyze_opts *o, struct cell *c,
    const struct stats_name *s, double **u, double **vt, double *estimate,
    const char **why)
{
	const double **ptrs = xcalloc(c->ntrials + 1, sizeof(double *));
	size_t *ns = xcalloc(c->ntrials + 1, sizeof(size_t));
	struct stats_trials view;
	enum stats_estimator est = s->kind == STATS_NAME_MEAN ?
	    STATS_EST_MEAN : o->est;
	const double *pooled = NULL;
	size_t T = 0, npooled = 0, i;
	struct analyze_opts tmp;
	char typed[32];

	*u = NULL;
	if (vt)
		*vt = NULL;
	*estimate = NAN;
	*why = NULL;
	if (s->kind != STATS_NAME_PCT && s->kind != STATS_NAME_MEAN) {
		*why = "no interval for this statistic";
		goto cleanup;
	}
	typed_name(o, s, typed, sizeof(typed));
	o = cell_opts(o, c, &tmp);
	T = cell_view(c, ptrs, ns, &view);
	if (T == 0 && o->pool == STATS_POOL_PER_TRIAL) {
		/* summary-only: the trials' own (the tool's) values are the
		 * trial-level values, their mean the estimate */
		*u = xmalloc((c->ntrials + 1) * sizeof(double));
		for (i = 0; i < c->ntrials; i++) {
			double v = c->trials[i].summary_only ?
			    tool_stat_of(&c->trials[i], s, typed) : NAN;

			if (isfinite(v))
				(*u)[T++] = v;
		}
		if (T == c->ntrials && T > 0) {
			*estimate = stats_mean(*u, T);
			goto cleanup;
		}
		free(*u);
		*u = NULL;
		T = 0;
		*why = "trials without a value: no interval";
		goto cleanup;
	}
	if (T == 0 || (T < c->ntrials && o->pool == STATS_POOL_PER_TRIAL)) {
		*why = T ? "trials with only the tool's summary: no interval" :
		    "no raw samples for an interval";
		T = 0;
		goto cleanup;
	}
	if (o->pool == STATS_POOL_POOLED)
		npooled = cell_pooled(c, &pooled);
	/* one rule for what has no interval (stats_tl_withhold): pooled
	 * tails, too few samples for the percentile, plateaus */
	if (T >= 2 && (*why = stats_tl_withhold(&view, pooled, npooled,
	    o->pool, est, s->kind == STATS_NAME_PCT ? s->pct : 50.0, o->level)))
	{
		T = 0;
		goto cleanup;
	}
	*u = xmalloc(T * sizeof(double));
	if (stats_tl_values(&view, pooled, npooled, est, s->pct, o->pool, *u,
	    estimate)) {
		free(*u);
		*u = NULL;
		*why = "no interval for this statistic";
		T = 0;
	} else if (vt) {
		/* --pool trials of unequal size: each value's own variance,
		 * for the contrasts' calibrated quantile */
		*vt = xmalloc(T * sizeof(double));
		if (!stats_tl_trial_var(&view, est, s->pct, o->pool, *u,
		    *vt)) {
			free(*vt);
			*vt = NULL;
		}
	}
cleanup:
	free(ptrs);
	free(ns);
	return T;
}

const char *
cell_tl_method(const struct analyze_opts *o, struct cell *c,
    const struct stats_name *s)
{
	const double **ptrs;
	size_t *ns, npooled;
	struct stats_trials view;
	const double *pooled = NULL;
	const char *how;

	if (o->pool != STATS_POOL_POOLED || s->kind != STATS_NAME_PCT)
		return NULL;
	ptrs = xcalloc(c->ntrials + 1, sizeof(double *));
	ns = xcalloc(c->ntrials + 1, sizeof(size_t));
	cell_view(c, ptrs, ns, &view);
	npooled = cell_pooled(c, &pooled);
	how = stats_tl_method(&view, pooled, npooled, o->est, s->pct,
	    o->pool);
	free(ptrs);
	free(ns);
	return how;
}

void
cell_range(const struct cell *c, double *lo, double *hi)
{
	size_t i;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];

		if (!t->n)
			continue;
		if (t->values[0] < *lo)
			*lo = t->values[0];
		if (t->values[t->n - 1] > *hi)
			*hi = t->values[t->n - 1];
	}
}

void
cell_contrast_clip(const struct cell *a, const struct cell *b,
    enum stats_contrast k, struct stats_interval *iv)
{
	double alo, ahi, blo, bhi, lo, hi;

	cell_range(a, &alo, &ahi);
	cell_range(b, &blo, &bhi);
	stats_contrast_range(alo, ahi, blo, bhi, k, &lo, &hi);
	stats_interval_clip(iv, lo, hi);
}

/* Copy an interval into a cell's statistic. */
static void
set_interval(struct cell_stat *out, const struct stats_interval *iv)
{
	out->lo = iv->lo;
	out->hi = iv->hi;
	out->covers = iv->covers;
	if (iv->covers == STATS_COVERS_NONE && !out->why_missing)
		out->why_missing = iv->why;
}

/* The trial-level interval of statistic s of cell c from its T values
 * u around out->value: a percentile's borrows the spread of the cells
 * of its design in the selection where there are enough of them
 * (out->borrowed), else says how many there are (out->design_cells). */
static void
tl_interval(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s, const double *u, size_t T,
    struct cell_stat *out, struct stats_interval *iv)
{
	struct stats_borrow b;
	size_t n = 0;

	if (s->kind == STATS_NAME_PCT)
		n = cell_borrow(o, cs, c, s, T, &b);
	if (s->kind != STATS_NAME_PCT || !cs->borrow) {
		stats_tl_interval(u, T, out->value, o->level,
		    s->kind == STATS_NAME_PCT, iv);
		return;
	}
	stats_tl_interval_borrow(u, T, out->value, o->level, &b, iv);
	if (iv->covers != STATS_COVERS_TRIALS)
		return;
	out->design_cells = n ? n : 1;
	if (n >= STATS_BORROW_MIN_CELLS)
		out->borrowed = n;
}

/* The interval of statistic s of cell c (value already set): within-run
 * for a single trial's percentile, else trial-level. */
static void
cell_interval(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s, struct cell_stat *out)
{
	struct stats_interval iv;
	const char *why;
	double *u, est, lo, hi;
	size_t T, i, raw = 0, at = 0;

	for (i = 0; i < c->ntrials; i++)
		if (c->trials[i].n) {
			raw++;
			at = i;
		}
	if (raw == 1 && c->ntrials == 1 && s->kind == STATS_NAME_PCT) {
		if ((why = stats_within_run_withhold(cs->info &&
		    cs->info->series))) {
			out->why_missing = why;
			return;
		}
		/* widened, or withheld, where the run's samples are
		 * serially correlated */
		stats_sample_interval_serial(c->trials[at].values,
		    c->trials[at].n, s->pct, out->value, o->level,
		    cell_serial_rs(cs, c), &iv);
		set_interval(out, &iv);
		return;
	}
	T = cell_tl(o, c, s, &u, NULL, &est, &why);
	if (T == 0) {
		out->why_missing = why;
		return;
	}
	tl_interval(o, cs, c, s, u, T, out, &iv);
	/* never beyond what the samples can make */
	cell_range(c, &lo, &hi);
	stats_interval_clip(&iv, lo, hi);
	set_interval(out, &iv);
	free(u);
}

/* --pool trials: why the raw trials give statistic s no interval (an
 * outlier trial, stats_tl_withhold), or NULL. */
static const char *
trials_withhold(const struct analyze_opts *o, const struct cell *c,
    const struct stats_name *s)
{
	const double **ptrs;
	size_t *ns;
	struct stats_trials view;
	const char *why = NULL;

	if (c->outlier_why)
		return c->outlier_why;
	if (s->kind != STATS_NAME_PCT)
		return NULL;
	ptrs = xcalloc(c->ntrials + 1, sizeof(double *));
	ns = xcalloc(c->ntrials + 1, sizeof(size_t));
	if (cell_view(c, ptrs, ns, &view) >= 2)
		why = stats_tl_withhold(&view, NULL, 0, STATS_POOL_PER_TRIAL,
		    o->est, s->pct, o->level);
	free(ptrs);
	free(ns);
	return why;
}

void
cell_compute(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s, bool ci,
    struct cell_stat *out, struct cell_info *info)
{
	size_t i, k = 0;
	double *vals;
	char typed[32];
	struct analyze_opts tmp;

	memset(out, 0, sizeof(*out));
	memset(info, 0, sizeof(*info));
	out->value = out->median = out->min = out->max = NAN;
	out->lo = out->hi = NAN;
	for (i = 0; i < c->ntrials; i++) {
		if (c->trials[i].n)
			info->trials_raw++;
		else if (c->trials[i].summary_only)
			info->trials_tool++;
	}
	if (s->kind == STATS_NAME_N) {
		out->value = (double)c->n;
		return;
	}
	typed_name(o, s, typed, sizeof(typed));
	/* The value of the successful samples is still computed (the JSON
	 * contract: statistics of successful samples); the flag tells the
	 * reader that the percentile of all attempts lies beyond it. */
	out->censored = censored_by_timeouts(o, cs, c, s,
	    &out->censored_trials);
	/* and has no interval: its bounds would be of the successes */
	if (out->censored && ci) {
		out->why_missing = CELL_WHY_CENSORED;
		ci = false;
	}
	/* after typed_name(), which knows s by its place in o->stats */
	o = cell_opts(o, c, &tmp);
	if (o->pool == STATS_POOL_POOLED) {
		const double *x;
		size_t n;

		if (pooled_stat_of_trials(o, s, c, &out->value))
			goto pooled_done;
		n = cell_pooled(c, &x);
		if (n == 0) {
			out->why_missing = info->trials_tool ?
			    "summary only: use --pool trials" : "no samples";
			return;
		}
		out->value = stat_of(o, s, x, n);
pooled_done:
		if (ci)
			cell_interval(o, cs, c, s, out);
		return;
	}
	/* per trial, then across trials */
	vals = xmalloc((c->ntrials ? c->ntrials : 1) * sizeof(double));
	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];
		double v = t->n ? stat_of(o, s, t->values, t->n) :
		    t->summary_only ? tool_stat_of(t, s, typed) : NAN;

		if (isfinite(v))
			vals[k++] = v;
	}
	if (k == 0) {
		out->why_missing = "no samples";
	} else {
		struct stats_spread sp;

		stats_spread(vals, k, &sp, NULL, NULL);
		out->value = sp.mean;
		out->median = sp.median;
		out->min = sp.min;
		out->max = sp.max;
		if (ci && k == 1 && info->trials_raw == 1) {
			cell_interval(o, cs, c, s, out);
		} else if (ci && (out->why_missing = trials_withhold(o, c, s))) {
			/* no interval: why_missing says why */
		} else if (ci) {
			struct stats_interval iv;
			double lo, hi;

			/* the trials' own values, the tool's numbers too */
			tl_interval(o, cs, c, s, vals, k, out, &iv);
			cell_range(c, &lo, &hi);
			if (!info->trials_tool)
				stats_interval_clip(&iv, lo, hi);
			set_interval(out, &iv);
		}
	}
	free(vals);
}
