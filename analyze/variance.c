/*
 * variance.c - the variance verb: where a cell's spread comes from
 * (within trials, between trials, between days or other keys) and how
 * many trials a target precision needs.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/internal.h"
#include "analyze/pooling.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "stats/verdict.h"

/* Sample variance of x[0..n) (n - 1 in the denominator); NaN if n < 2. */
static double
var_of(const double *x, size_t n)
{
	double m = 0, s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s / (double)(n - 1);
}

/*
 * Pooled within-group variance of values grouped by label: sum over
 * groups of (n_g - 1) var_g / sum (n_g - 1).  Group means go to gm.
 */
static double
pooled_within(const double *v, char *const *lab, size_t n, double *gm,
    size_t *ngroups)
{
	size_t i, j, dfs = 0;
	double ss = 0;
	bool *done = xcalloc(n + 1, sizeof(bool));

	*ngroups = 0;
	for (i = 0; i < n; i++) {
		double m = 0;
		size_t k = 0;

		if (done[i])
			continue;
		for (j = i; j < n; j++)
			if (!done[j] && !strcmp(lab[j], lab[i])) {
				m += v[j];
				k++;
			}
		m /= (double)k;
		for (j = i; j < n; j++)
			if (!done[j] && !strcmp(lab[j], lab[i])) {
				ss += (v[j] - m) * (v[j] - m);
				done[j] = true;
			}
		dfs += k - 1;
		gm[(*ngroups)++] = m;
	}
	free(done);
	return dfs ? ss / (double)dfs : NAN;
}

#define VARIANCE_BOOT_B	200	/* replicates for one trial's sampling error */

/*
 * Bootstrap standard error of statistic st of one trial.  The mean's
 * and a type 7 percentile's are the bootstrap's own in closed form (the
 * limit of ever more resamples): the plug-in standard deviation over
 * sqrt(n), and Maritz and Jarrett's (stats_trend_point_se(), which
 * reads only the ranks near the percentile).  200 resamples cost 200
 * passes over the trial: 15 s for an oha run of 500 k requests, where
 * the closed forms take milliseconds.  Other statistics and estimators
 * are resampled.
 */
static double
trial_boot_se(const struct analyze_opts *o, const struct stats_name *st,
    const struct trial *tr, struct stats_rng *rng)
{
	double *buf, *reps, sd;
	size_t b, i;

	if (tr->n < 2)
		return NAN;
	if (st->kind == STATS_NAME_MEAN) {
		double m = stats_mean(tr->values, tr->n), ss = 0;

		for (i = 0; i < tr->n; i++)
			ss += (tr->values[i] - m) * (tr->values[i] - m);
		return sqrt(ss / (double)tr->n) / sqrt((double)tr->n);
	}
	if (st->kind == STATS_NAME_PCT && o->est == STATS_EST_TYPE7)
		return stats_trend_point_se(tr->values, tr->n, st->pct);
	buf = xmalloc(tr->n * sizeof(double));
	reps = xmalloc(VARIANCE_BOOT_B * sizeof(double));
	for (b = 0; b < VARIANCE_BOOT_B; b++) {
		for (i = 0; i < tr->n; i++)
			buf[i] = tr->values[stats_rng_below(rng, tr->n)];
		reps[b] = st->kind == STATS_NAME_MEAN ? stats_mean(buf, tr->n) :
		    stats_quantile_unsorted(o->est, buf, tr->n, st->pct);
	}
	sd = sqrt(var_of(reps, VARIANCE_BOOT_B));
	free(buf);
	free(reps);
	return sd;
}

/* Each trial's statistic in a group of cells split by day and instance,
 * with the sampling error of that statistic and its day and instance. */
struct var_trials {
	double	*v;		/* the trials' statistic */
	double	*se2;		/* its squared bootstrap standard error */
	char	**day, **inst;	/* borrowed from the cells */
	char	**dayinst;	/* "day|instance"; owned */
	size_t	n;
	double	mean;		/* of v */
	size_t	ncens;		/* trials whose statistic is "≥ timeout" */
};

/* The cells' day and instance are dimensions d0 and d0 + 1 (after the
 * user's --by keys). */
static void
var_trials_collect(const struct analyze_opts *o, const struct stats_name *st,
    const struct cellset *cs, size_t from, size_t to, size_t d0,
    struct stats_rng *rng, struct var_trials *vt)
{
	size_t cap = 0, k, j;

	memset(vt, 0, sizeof(*vt));
	for (k = from; k < to; k++)
		cap += cs->cells[k].ntrials;
	vt->v = xcalloc(cap + 1, sizeof(double));
	vt->se2 = xcalloc(cap + 1, sizeof(double));
	vt->day = xcalloc(cap + 1, sizeof(char *));
	vt->inst = xcalloc(cap + 1, sizeof(char *));
	vt->dayinst = xcalloc(cap + 1, sizeof(char *));
	for (k = from; k < to; k++) {
		const struct cell *c = &cs->cells[k];

		for (j = 0; j < c->ntrials; j++) {
			const struct trial *tr = &c->trials[j];
			double x, se;

			if (!tr->n)
				continue;
			vt->ncens += trial_censored(o, cs, tr, st);
			x = st->kind == STATS_NAME_MEAN ? stats_mean(tr->values,
			    tr->n) : stats_quantile(o->est, tr->values, tr->n,
			    st->pct);
			/* sampling error of the trial's own statistic: the
			 * spread of a small bootstrap within the trial
			 * (order-statistic interval widths are dominated by
			 * the max in the tail) */
			se = trial_boot_se(o, st, tr, rng);
			vt->v[vt->n] = x;
			vt->se2[vt->n] = se * se;
			vt->day[vt->n] = c->dims[d0];
			vt->inst[vt->n] = c->dims[d0 + 1];
			vt->dayinst[vt->n] = xasprintf("%s|%s", c->dims[d0],
			    c->dims[d0 + 1]);
			vt->mean += x;
			vt->n++;
		}
	}
	if (vt->n)
		vt->mean /= (double)vt->n;
}

static void
var_trials_release(struct var_trials *vt)
{
	size_t k;

	for (k = 0; k < vt->n; k++)
		free(vt->dayinst[k]);
	free(vt->v);
	free(vt->se2);
	free(vt->day);
	free(vt->inst);
	free(vt->dayinst);
}

/* Distinct values of l[0..n). */
static size_t
count_distinct(char *const *l, size_t n)
{
	size_t a, b, k = 0;

	for (a = 0; a < n; a++) {
		for (b = 0; b < a; b++)
			if (!strcmp(l[b], l[a]))
				break;
		k += b == a;
	}
	return k;
}

/* Variance components, by the method of moments level by level: what a
 * level adds beyond the noise of the level below it (NaN when the level
 * has one value). */
struct var_levels {
	double	within;		/* sampling error of one trial */
	double	trials;		/* between trials of one day and instance */
	double	days;		/* between days of one instance */
	double	instances;	/* between instances */
	size_t	ninst;		/* instances seen */
};

static void
var_levels(const struct var_trials *vt, struct var_levels *lv)
{
	double *gm = xcalloc(vt->n + 1, sizeof(double));
	double *dm = xcalloc(vt->n + 1, sizeof(double));
	char **dl = xcalloc(vt->n + 1, sizeof(char *));
	bool *seen = xcalloc(vt->n + 1, sizeof(bool));
	size_t k, a, b, nd = 0, ng;
	double btw;

	lv->within = 0;
	lv->days = lv->instances = NAN;
	for (k = 0; k < vt->n; k++)
		lv->within += isfinite(vt->se2[k]) ? vt->se2[k] : 0;
	lv->within /= (double)vt->n;
	btw = pooled_within(vt->v, vt->dayinst, vt->n, gm, &ng);
	lv->trials = isfinite(btw) ? fmax(0, btw - lv->within) : NAN;
	/* day means within an instance */
	for (a = 0; a < vt->n; a++) {
		double m = 0;
		size_t cnt = 0;

		if (seen[a])
			continue;
		for (b = a; b < vt->n; b++)
			if (!strcmp(vt->dayinst[b], vt->dayinst[a])) {
				m += vt->v[b];
				cnt++;
				seen[b] = true;
			}
		dm[nd] = m / (double)cnt;
		dl[nd++] = vt->inst[a];
	}
	lv->ninst = count_distinct(dl, nd);
	if (nd > lv->ninst) {
		double bd = pooled_within(dm, dl, nd, gm, &ng);

		lv->days = isfinite(bd) ? fmax(0, bd - (isfinite(lv->trials) ?
		    lv->trials : 0) - lv->within) : NAN;
	}
	if (lv->ninst >= 2) {
		double *im = xcalloc(lv->ninst + 1, sizeof(double));
		size_t ni;

		pooled_within(dm, dl, nd, im, &ni);
		lv->instances = fmax(0, var_of(im, ni) - (isfinite(lv->days) ?
		    lv->days : 0) - (isfinite(lv->trials) ? lv->trials : 0) -
		    lv->within);
		free(im);
	}
	free(gm);
	free(dm);
	free(dl);
	free(seen);
}

static size_t
variance_columns(struct table *t, const struct analyze_opts *o, bool connect)
{
	size_t col0, d;

	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d < o->nby; d++)
		table_add_col(t, o->by[d], o->by[d], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	col0 = table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "trials", "Trials", -1);
	table_add_col(t, "days", "Days", -1);
	table_add_col(t, "instances", "Instances", -1);
	table_add_col(t, "mean", "Mean", 3);
	table_add_col(t, "cv_within_trial_pct", "Within trial %", 2);
	table_add_col(t, "cv_between_trials_pct", "Between trials %", 2);
	table_add_col(t, "cv_between_days_pct", "Between days %", 2);
	table_add_col(t, "cv_between_instances_pct", "Between instances %",
	    2);
	table_add_col(t, "halfwidth_now_pct", "±% now", 2);
	table_add_col(t, "trials_needed", "Trials for target", -1);
	/* the run tags the row pools beyond day and instance */
	table_add_hidden_col(t, "pooled_over", "pooled_over", -1);
	/* connect probes: trials whose statistic is "≥ timeout" */
	if (connect)
		table_add_hidden_col(t, "trials_ge_timeout",
		    "trials_ge_timeout", -1);
	t->cols[col0 + 4].md_hidden = true;
	return col0;
}

/* The row of one cell group and statistic. */
static void
variance_row(const struct analyze_opts *o, const char *stat,
    const struct cellset *cs, const struct cell *first,
    const struct var_trials *vt, size_t col0, const char *pooled_over,
    struct table *t)
{
	struct var_levels lv;
	double now = NAN, mean = fabs(vt->mean);
	size_t needed, row, d;

	var_levels(vt, &lv);
	needed = vt->n >= 2 ? stats_trials_needed(vt->v, vt->n, o->target_pct,
	    o->level, &now) : 0;
	row = table_add_row(t);
	if (cs->info->timeout_bound)
		table_set_int(t, row, col0 + 12, (int64_t)vt->ncens);
	table_set_str(t, row, 0, first->path);
	table_set_str(t, row, 1, first->cond);
	for (d = 0; d < o->nby; d++)
		table_set_str(t, row, 2 + d, first->dims[d]);
	table_set_str(t, row, 2 + o->nby, cs->metric_name);
	table_set_str(t, row, 3 + o->nby, stats_estimator_name(o->est));
	table_set_str(t, row, col0 + 11, pooled_over);
	table_set_str(t, row, col0, stat);
	table_set_int(t, row, col0 + 1, (int64_t)vt->n);
	table_set_int(t, row, col0 + 2, (int64_t)count_distinct(vt->day,
	    vt->n));
	table_set_int(t, row, col0 + 3, (int64_t)lv.ninst);
	table_set_num(t, row, col0 + 4, vt->mean);
	table_set_num(t, row, col0 + 5, 100 * sqrt(lv.within) / mean);
	table_set_num(t, row, col0 + 6, 100 * sqrt(lv.trials) / mean);
	table_set_num(t, row, col0 + 7, 100 * sqrt(lv.days) / mean);
	table_set_num(t, row, col0 + 8, 100 * sqrt(lv.instances) / mean);
	table_set_num(t, row, col0 + 9, now);
	if (needed)
		table_set_int(t, row, col0 + 10, (int64_t)needed);
	else
		table_set_display(t, row, col0 + 10, vt->n < 2 ?
		    "need 2 trials" : "–");
	if (vt->ncens) {
		size_t k;

		/* a trial "≥ timeout": its value is the successes' one, so
		 * no spread of it is the spread of the statistic */
		for (k = 4; k <= 10; k++) {
			table_set_null(t, row, col0 + k);
			table_set_display(t, row, col0 + k, "≥ timeout");
		}
	}
}

/* Same group of variance cells: path, condition and the --by keys. */
static bool
variance_same_group(const struct cell *a, const struct cell *b, size_t nby)
{
	size_t d;

	if (strcmp(a->path, b->path) || strcmp(a->cond, b->cond))
		return false;
	for (d = 0; d < nby; d++)
		if (strcmp(a->dims[d], b->dims[d]))
			return false;
	return true;
}

/* The groups' cells without day and instance (counts only), and what
 * each pools (analyze/pooling.h). */
static int
variance_pooling(sqlite3 *db, const struct analyze_opts *o,
    struct cellset *groups, struct pooling *pool)
{
	struct cells_query q;

	analyze_query(o, false, &q);
	if (cells_load(db, &q, groups))
		return -1;
	if (pooling_scan(db, groups, &o->where, o->paths, o->npaths, pool)) {
		cellset_release(groups);
		return -1;
	}
	return 0;
}

int
analyze_variance(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	/* the levels variance splits itself: not "pooled" */
	static char dim_day[] = "day", dim_instance[] = "instance",
	    dim_iid[] = "instance_id", dim_host[] = "hostname";
	char *const levels[] = { dim_day, dim_instance, dim_iid, dim_host };
	char **by;
	struct analyze_opts o2;
	struct cellset cs, groups;
	struct cells_query q;
	struct stats_rng rng;
	struct pooling pool;
	struct strbuf po = STRBUF_INIT;
	size_t i, g, s, col0, d, npooled = 0, nvcens = 0;

	if (nargs > 0) {
		error("variance takes no arguments (got '%s')", args[0]);
		return -2;
	}
	analyze_default_stats(o, &o2);
	stats_rng_seed(&rng, o->seed);
	/* Trials keep their day and instance (instance_id, else hostname)
	 * as the last two dimensions, after the user's --by keys; cells are
	 * grouped on the rest. */
	by = xcalloc(o->nby + 2, sizeof(char *));
	for (d = 0; d < o->nby; d++)
		by[d] = o->by[d];
	by[o->nby] = dim_day;
	by[o->nby + 1] = dim_instance;
	analyze_query(o, true, &q);
	q.by = by;
	q.nby = o->nby + 2;
	if (cells_load(db, &q, &cs)) {
		free(by);
		return -1;
	}
	if (variance_pooling(db, o, &groups, &pool)) {
		cellset_release(&cs);
		free(by);
		return -1;
	}
	col0 = variance_columns(t, o, cs.info->timeout_bound);
	for (i = 0; i < cs.n; i = g) {
		const struct cell *gc;

		for (g = i; g < cs.n && variance_same_group(&cs.cells[g], &cs.cells[i],
		    o->nby); g++)
			;
		strbuf_reset(&po);
		gc = cellset_find(&groups, cs.cells[i].path, cs.cells[i].cond,
		    cs.cells[i].dims);
		if (gc)
			pooling_cell_keys(&pool, (size_t)(gc - groups.cells),
			    levels, ARRAY_SIZE(levels), &po);
		npooled += po.len > 0;
		for (s = 0; s < o2.nstats; s++) {
			const struct stats_name *st = &o2.stats[s];
			struct var_trials vt;

			if (st->kind != STATS_NAME_PCT &&
			    st->kind != STATS_NAME_MEAN)
				continue;
			var_trials_collect(o, st, &cs, i, g, o->nby, &rng, &vt);
			nvcens += vt.n && vt.ncens;
			if (vt.n)
				variance_row(o, o2.stat_names[s], &cs,
				    &cs.cells[i], &vt, col0, po.buf, t);
			var_trials_release(&vt);
		}
	}
	table_add_note(t, "%s: spread of each trial's statistic, as a "
	    "coefficient of variation (%% of the mean), split by level with "
	    "the method of moments: within trial = sampling error of one "
	    "trial's statistic (its bootstrap standard deviation within the "
	    "trial, in closed form for the mean and type 7 percentiles); between trials, days and instances = what "
	    "each level adds beyond the one below (0 when it adds nothing; – "
	    "when there is only one value at that level).  Instances are told "
	    "apart by the tag 'instance', else 'instance_id', else "
	    "'hostname'.", cs.metric_name);
	table_add_note(t, "Trials for target: smallest number of trials for a "
	    "%.0f %% t interval of ±%.1f %% on the mean of the trial "
	    "statistics; ±%% now: that half-width with the trials at hand.",
	    o->level * 100, o->target_pct);
	if (nvcens)
		table_add_note(t, "≥ timeout: in %zu row(s) some trial's "
		    "statistic of all its attempts reads a timed-out one "
		    "(trials_ge_timeout counts them): no spread, mean or trial "
		    "count is given for it.", nvcens);
	if (npooled) {
		table_add_note(t, "Between trials %% includes any difference "
		    "between the groups a row pools (pooled_over): it is not "
		    "trial-to-trial noise there.");
		pooling_note(&pool, levels, ARRAY_SIZE(levels), true, t);
	}
	pooling_release(&pool);
	cellset_release(&groups);
	cellset_release(&cs);
	strbuf_release(&po);
	free(by);
	return 0;
}
