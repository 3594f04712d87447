/*
 * long.c - the long ("tidy") form of `analyze trials` and `analyze
 * trend` that --format csv prints: one row per path, condition,
 * dimensions, statistic and trial (trials) or point (trend), with the
 * value at full precision in the stored unit and a unit column, so a
 * spreadsheet or pandas reads it without parsing "50.3, 50.1, 49.8"
 * lists.  The Markdown, text and JSON forms stay wide (one row per
 * statistic); the numbers are computed by the same functions.
 *
 * Columns (docs/pathstat-analyze.1, docs/analyze.md):
 *   trials: path, condition, <by keys>, metric, unit, estimator, pool,
 *           stat, trial, run_id, started_at, value, outlier
 *   trend:  path, condition, <by keys but the last>, metric, unit,
 *           estimator, pool, by, point, stat, value (empty when
 *           censored: "≥ timeout"), n, trials, censored (0 or 1)
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/internal.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

bool
analyze_long_verb(const char *verb)
{
	return !strcmp(verb, "trials") || !strcmp(verb, "trend");
}

/* The leading columns: path, condition, dims (all, or all but the
 * last), metric, unit, estimator, pool. */
static void
long_key_columns(struct table *t, const struct cellset *cs, size_t ndims)
{
	size_t d;

	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d < ndims; d++)
		table_add_col(t, cs->dimkeys[d], cs->dimkeys[d], -1);
	table_add_col(t, "metric", "Metric", -1);
	table_add_col(t, "unit", "Unit", -1);
	table_add_col(t, "estimator", "Estimator", -1);
	table_add_col(t, "pool", "Pool", -1);
}

/* Fill them for cell c; returns the next column. */
static size_t
long_key_fill(struct table *t, size_t row, const struct cellset *cs,
    const struct cell *c, size_t ndims, const struct analyze_opts *o,
    const struct cell_info *info)
{
	size_t d, col = 0;
	const char *est = stats_estimator_name(o->est);
	struct strbuf sb = STRBUF_INIT;

	table_set_str(t, row, col++, c->path);
	/* an empty condition is an empty string, never a missing value */
	table_set_str(t, row, col++, c->cond ? c->cond : "");
	for (d = 0; d < ndims; d++)
		table_set_str(t, row, col++, c->dims[d]);
	table_set_str(t, row, col++, cs->metric_name);
	table_set_str(t, row, col++, cs->unit);
	if (info && info->trials_tool && !info->trials_raw)
		strbuf_addstr(&sb, "tool");
	else if (info && info->trials_tool)
		strbuf_addf(&sb, "%s+tool", est);
	else
		strbuf_addstr(&sb, est);
	table_set_str(t, row, col++, sb.buf);
	table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	strbuf_release(&sb);
	return col;
}

/* Unix seconds as ISO 8601 UTC ("2026-09-10T03:00:00Z"); NULL unknown. */
static void
iso_time(struct table *t, size_t row, size_t col, int64_t when)
{
	char buf[32];
	struct tm tm;
	time_t tt = (time_t)when;

	if (when == INT64_MIN || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return;
	table_set_str(t, row, col, buf);
}

/* trials: each trial's statistic, one row each. */
static int
long_trials(sqlite3 *db, const struct analyze_opts *o, struct table *t)
{
	struct analyze_opts o2;
	struct cells_query q;
	struct cellset cs;
	size_t i, j, k, col;

	analyze_default_stats(o, &o2);
	analyze_query(o, true, &q);
	if (cells_load(db, &q, &cs))
		return -1;
	long_key_columns(t, &cs, cs.ndims);
	table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "trial", "Trial", -1);
	table_add_col(t, "run_id", "Run", -1);
	table_add_col(t, "started_at", "Started", -1);
	table_add_col(t, "value", "Value", -1);
	table_add_col(t, "outlier", "Outlier", -1);
	/* connect probes: the value is the successes' one, "≥ timeout" */
	if (cs.info->timeout_bound)
		table_add_col(t, "ge_timeout", "≥ timeout", -1);
	for (i = 0; i < cs.n; i++) {
		struct cell *c = &cs.cells[i];
		double *vals = xcalloc(c->ntrials + 1, sizeof(double));
		long *tno = xcalloc(c->ntrials + 1, sizeof(long));
		size_t *idx = xcalloc(c->ntrials + 1, sizeof(size_t));
		bool *flag = xcalloc(c->ntrials + 1, sizeof(bool));
		bool *cens = xcalloc(c->ntrials + 1, sizeof(bool));

		for (j = 0; j < o2.nstats; j++) {
			struct cell_info info, one_info;
			size_t n = 0;

			memset(&info, 0, sizeof(info));
			/* trial by trial, through the same function as the
			 * wide table (a cell of one trial), so each value
			 * keeps its run */
			for (k = 0; k < c->ntrials; k++) {
				struct cell one = *c;
				long tn;

				one.trials = &c->trials[k];
				one.ntrials = 1;
				if (analyze_trial_values(o, &cs, &one,
				    &o2.stats[j], o2.stat_names[j], &vals[n],
				    &tn, &cens[n], NULL, &one_info) != 1)
					continue;
				tno[n] = tn;
				idx[n++] = k;
				info.trials_raw += one_info.trials_raw;
				info.trials_tool += one_info.trials_tool;
			}
			memset(flag, 0, (c->ntrials + 1) * sizeof(bool));
			for (k = 0; k < n && !cens[k]; k++)
				;
			/* no outlier test with a trial "≥ timeout" (as the
			 * wide table); else the one rule's verdict on the
			 * cell (cells_judge_outliers()), as the wide table */
			for (size_t m = 0; n && k == n && c->outlier &&
			    m < n; m++)
				flag[m] = c->outlier[idx[m]];
			for (k = 0; k < n; k++) {
				const struct trial *tr = &c->trials[idx[k]];
				size_t row = table_add_row(t);

				col = long_key_fill(t, row, &cs, c, cs.ndims, o,
				    &info);
				table_set_str(t, row, col++, o2.stat_names[j]);
				table_set_int(t, row, col++, tno[k]);
				table_set_int(t, row, col++, tr->run_id);
				iso_time(t, row, col++, tr->started_at);
				table_set_num(t, row, col++, vals[k]);
				table_set_int(t, row, col++, flag[k]);
				if (cs.info->timeout_bound)
					table_set_int(t, row, col++, cens[k]);
			}
		}
		free(vals);
		free(tno);
		free(idx);
		free(flag);
		free(cens);
	}
	cellset_release(&cs);
	return 0;
}

/* trend: each point of each series, one row each (the points the wide
 * table's Series lists). */
static int
long_trend(sqlite3 *db, const struct analyze_opts *o, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	const char *key = analyze_trend_key(o);
	size_t i, s, col, nd;

	if (!key)
		return error("trend needs --by day or --by hour");
	analyze_default_stats(o, &o2);
	if (analyze_load_by(db, o, key, &cs))
		return -1;
	nd = cs.ndims ? cs.ndims - 1 : 0;
	long_key_columns(t, &cs, nd);
	table_add_col(t, "by", "By", -1);
	table_add_col(t, "point", "Point", -1);
	table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "value", "Value", -1);
	table_add_col(t, "n", "n", -1);
	table_add_col(t, "trials", "Trials", -1);
	table_add_col(t, "censored", "Censored", -1);
	for (i = 0; i < cs.n; i++) {
		struct cell *c = &cs.cells[i];
		const char *d = c->dims[cs.ndims - 1];

		if (!isfinite(analyze_dim_to_x(key, d)))
			continue;
		for (s = 0; s < o2.nstats; s++) {
			struct cell_stat v;
			struct cell_info info;
			size_t row;

			if (o2.stats[s].kind == STATS_NAME_N)
				continue;
			cell_compute(&o2, &cs, c, &o2.stats[s], false, &v,
			    &info);
			if (!isfinite(v.value))
				continue;
			row = table_add_row(t);
			col = long_key_fill(t, row, &cs, c, nd, &o2, &info);
			table_set_str(t, row, col++, key);
			table_set_str(t, row, col++, d);
			table_set_str(t, row, col++, o2.stat_names[s]);
			/* a censored point is "≥ timeout", never a number */
			if (v.censored)
				table_set_null(t, row, col++);
			else
				table_set_num(t, row, col++, v.value);
			table_set_int(t, row, col++, (int64_t)c->n);
			table_set_int(t, row, col++, (int64_t)c->ntrials);
			table_set_int(t, row, col++, v.censored);
		}
		cell_pooled_release(c);
	}
	cellset_release(&cs);
	return 0;
}

int
analyze_long(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct table *t)
{
	struct analyze_opts o2;
	int rc;

	if (nargs > 0) {
		error("%s takes no arguments (got '%s')", verb, args[0]);
		return -2;
	}
	analyze_shown_stats(verb, o, &o2);
	if (!strcmp(verb, "trials"))
		rc = long_trials(db, &o2, t);
	else if (!strcmp(verb, "trend"))
		rc = long_trend(db, &o2, t);
	else {
		error("%s has no long form", verb);
		return -2;
	}
	if (!rc)
		analyze_stats_note(t, &o2);
	return rc;
}
