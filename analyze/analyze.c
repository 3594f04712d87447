/*
 * analyze.c - `pathstat analyze <verb>`: the options every verb shares,
 * the key columns and captions of its tables, the verb table, checking
 * the names a command gives, --sql and cmd_analyze.  One statistic of one
 * cell is computed in compute.c.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/internal.h"
#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/keycat.h"
#include "common/kv.h"
#include "common/metric.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/units.h"
#include "common/xalloc.h"

void
analyze_query(const struct analyze_opts *o, bool load_values,
    struct cells_query *q)
{
	memset(q, 0, sizeof(*q));
	q->metric = o->metric;
	q->where = &o->where;
	q->by = o->by;
	q->nby = o->nby;
	q->paths = o->paths;
	q->npaths = o->npaths;
	q->load_values = load_values;
}

/* The tool whose summaries cell c holds ("oha"), else "tool". */
static const char *
cell_tool_name(const struct cell *c)
{
	size_t i;

	for (i = 0; i < c->ntrials; i++)
		if (c->trials[i].summary_only && c->trials[i].tool_estimator)
			return c->trials[i].tool_estimator;
	return "tool";
}

bool
cell_summary_default(const struct analyze_opts *o, const struct cell *c)
{
	size_t i, tool = 0;

	if (o->pool != STATS_POOL_POOLED ||
	    (o->given & (1u << ANALYZE_OPT_POOL)))
		return false;
	for (i = 0; i < c->ntrials; i++) {
		if (c->trials[i].n)
			return false;
		tool += c->trials[i].summary_only;
	}
	return tool > 0;
}

const struct analyze_opts *
cell_opts(const struct analyze_opts *o, const struct cell *c,
    struct analyze_opts *tmp)
{
	if (!cell_summary_default(o, c))
		return o;
	*tmp = *o;
	tmp->pool = STATS_POOL_PER_TRIAL;
	return tmp;
}

void
cellset_tool_cells(const struct cellset *cs, size_t *only, size_t *mixed)
{
	size_t i, j, raw, tool;

	*only = *mixed = 0;
	/* a table replayed from an engine's CSV has rows but no cells */
	if (!cs->cells)
		return;
	for (i = 0; i < cs->n; i++) {
		const struct cell *c = &cs->cells[i];

		for (j = raw = tool = 0; j < c->ntrials; j++) {
			raw += c->trials[j].n > 0;
			tool += !c->trials[j].n && c->trials[j].summary_only;
		}
		if (tool && !raw)
			(*only)++;
		else if (tool)
			(*mixed)++;
	}
}

void
tool_cells_note(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs)
{
	size_t only, mixed, i;
	const char *tool = "tool";

	cellset_tool_cells(cs, &only, &mixed);
	for (i = 0; cs->cells && i < cs->n; i++)
		if (strcmp(cell_tool_name(&cs->cells[i]), "tool"))
			tool = cell_tool_name(&cs->cells[i]);
	if (only)
		table_add_note(t, "Estimator “%s, mean of N trials”: the "
		    "cell's runs have no per-request samples (just the tool "
		    "summary, as %s's JSON gives), so its value is the mean across "
		    "trials of %s's own statistics (%s), never pooled; with "
		    "--ci, its interval is a t interval on those trial values "
		    "(trials − 1 degrees of freedom).", tool, tool, tool,
		    !strcmp(tool, "oha") ? "oha's own percentiles: "
		    "sorted[floor(p·n)], no interpolation" : "the tool's own "
		    "rule");
	if (mixed && o->pool == STATS_POOL_POOLED)
		table_add_note(t, "Mixed cells (some trials with per-request "
		    "samples, some with %s's summary only): pooled over the "
		    "trials with samples; the summary-only trials are left out "
		    "(their estimator label counts them; --pool trials takes "
		    "each trial's own statistic, the tool's for those).", tool);
	else if (mixed)
		table_add_note(t, "Mixed cells (estimator “%s + %s”): each "
		    "trial with samples gives its %s statistic, each "
		    "summary-only trial %s's own, then the mean across them.",
		    stats_estimator_name(o->est), tool,
		    stats_estimator_name(o->est), tool);
}

void
describe_method(const struct analyze_opts *o, const struct cellset *cs,
    struct strbuf *sb)
{
	size_t only = 0, mixed = 0;

	if (cs)
		cellset_tool_cells(cs, &only, &mixed);
	if (cs && cs->n && only == cs->n) {
		const char *tool = cell_tool_name(&cs->cells[0]);

		strbuf_addf(sb, "estimator %s's own (the tool's summary", tool);
		if (!strcmp(tool, "oha"))
			strbuf_addstr(sb, ": oha's own percentiles, "
			    "sorted[floor(p·n)], no interpolation");
		strbuf_addstr(sb, "); per trial, then the mean across trials "
		    "(median, min and max across trials alongside)");
		return;
	}
	switch (o->est) {
	case STATS_EST_TYPE7:
		strbuf_addstr(sb, "estimator type7 (linear interpolation between "
		    "order statistics, numpy's default)");
		break;
	case STATS_EST_OHA:
		strbuf_addstr(sb, "estimator oha (sorted[floor(p·n)], oha's own "
		    "rule, no interpolation)");
		break;
	case STATS_EST_HD:
		strbuf_addstr(sb, "estimator hd (Harrell–Davis)");
		break;
	case STATS_EST_MEAN:
		strbuf_addstr(sb, "mean");
		break;
	}
	if (o->pool == STATS_POOL_POOLED)
		strbuf_addstr(sb, "; pooled: all samples of all trials together");
	else
		strbuf_addstr(sb, "; per trial, then the mean across trials "
		    "(median, min and max across trials alongside)");
}

double
md_scale(const struct cellset *cs, const char **unit)
{
	if (!cs->shown.name) {
		/* not chosen (a cellset built by hand): the registry's */
		*unit = cs->info->display_unit;
		return cs->info->display_scale;
	}
	*unit = cs->shown.name;
	return cs->shown.scale;
}

void
cellset_choose_unit(struct cellset *cs, const struct analyze_opts *o,
    bool chart)
{
	double mx = NAN;
	size_t i, j, k;

	for (i = 0; i < cs->n; i++) {
		const struct cell *c = &cs->cells[i];

		for (j = 0; j < c->ntrials; j++) {
			const struct trial *t = &c->trials[j];

			/* values are sorted ascending, but a series is
			 * not: sorted, the largest |value| is at an end */
			if (!t->times && t->n) {
				double lo = fabs(t->values[0]),
				    hi = fabs(t->values[t->n - 1]);

				if (isfinite(lo) && !(lo <= mx))
					mx = lo;
				if (isfinite(hi) && !(hi <= mx))
					mx = hi;
			} else
			for (k = 0; k < t->n; k++)
				if (isfinite(t->values[k]) &&
				    !(fabs(t->values[k]) <= mx))
					mx = fabs(t->values[k]);
			for (k = 0; k < t->ntool; k++)
				if (isfinite(t->tool[k].value) &&
				    !(fabs(t->tool[k].value) <= mx))
					mx = fabs(t->tool[k].value);
		}
	}
	units_choose(cs->info, o->unit, mx, chart, &cs->shown);
}

void
cellset_choose_unit_table(struct cellset *cs, const struct analyze_opts *o,
    struct table *t)
{
	struct strbuf old = STRBUF_INIT, repl = STRBUF_INIT, h = STRBUF_INIT;
	const char *was = cs->shown.name, *p;
	double mx = NAN, v;
	size_t r, c, j;

	for (c = 0; c < t->ncols; c++) {
		bool stat = false;

		for (j = 0; j < o->nstats; j++)
			if (o->stats[j].kind != STATS_NAME_N &&
			    !strcmp(o->stat_names[j], t->cols[c].key))
				stat = true;
		if (!stat && strcmp(t->cols[c].key, "mean"))
			continue;
		for (r = 0; r < t->nrows; r++) {
			v = table_num(t, r, (long)c);
			if (isfinite(v) && !(fabs(v) <= mx))
				mx = fabs(v);
		}
	}
	units_choose(cs->info, o->unit, mx, false, &cs->shown);
	t->shown = cs->shown;
	if (!was || !strcmp(was, cs->shown.name))
		goto cleanup;
	strbuf_addf(&old, "(%s)", was);
	strbuf_addf(&repl, "(%s)", cs->shown.name);
	for (c = 0; c < t->ncols; c++) {
		p = strstr(t->cols[c].header, old.buf);
		if (!p)
			continue;
		strbuf_reset(&h);
		strbuf_add(&h, t->cols[c].header, (size_t)(p -
		    t->cols[c].header));
		strbuf_addstr(&h, repl.buf);
		strbuf_addstr(&h, p + old.len);
		free(t->cols[c].header);
		t->cols[c].header = strbuf_detach(&h, NULL);
	}
cleanup:
	strbuf_release(&old);
	strbuf_release(&repl);
	strbuf_release(&h);
}

void
add_key_columns(struct table *t, const struct cellset *cs)
{
	size_t i;

	/* what the table's numbers are shown in, for report's captions */
	t->shown = cs->shown;
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (i = 0; i < cs->ndims; i++)
		table_add_col(t, cs->dimkeys[i], cs->dimkeys[i], -1);
	table_add_col(t, "metric", "Metric", -1);
	table_add_col(t, "estimator", "Estimator", -1);
	table_add_col(t, "pool", "Pool", -1);
	t->cols[table_col(t, "metric")].md_hidden = true;
	t->cols[table_col(t, "estimator")].md_hidden = true;
	t->cols[table_col(t, "pool")].md_hidden = true;
	/* an end-of-test metric's n counts runs, not samples: say so in
	 * JSON and CSV as the caption does in Markdown */
	if (cs->info && cs->info->source == METRIC_FROM_SUMMARY)
		table_add_hidden_col(t, "n_counts", "n counts", -1);
}

void
fill_key_columns(struct table *t, size_t row, const struct cellset *cs,
    const struct cell *c, const struct analyze_opts *o,
    const struct cell_info *info)
{
	size_t i, col = 0;
	struct strbuf est = STRBUF_INIT;
	struct analyze_opts tmp;
	const char *tool;

	table_set_str(t, row, col++, c->path);
	table_set_str(t, row, col++, c->cond);
	for (i = 0; i < cs->ndims; i++)
		table_set_str(t, row, col++, c->dims[i]);
	table_set_str(t, row, col++, cs->metric_name);
	o = cell_opts(o, c, &tmp);
	if (info && info->trials_tool && !info->trials_raw)
		strbuf_addstr(&est, "tool");
	else if (info && info->trials_tool && o->pool == STATS_POOL_PER_TRIAL)
		strbuf_addf(&est, "%s+tool", stats_estimator_name(o->est));
	else
		strbuf_addstr(&est, stats_estimator_name(o->est));
	table_set_str(t, row, col, est.buf);
	/* Markdown: the estimator in words, shown once a row holds a
	 * tool's own numbers (a summary-only or mixed cell) */
	strbuf_reset(&est);
	tool = cell_tool_name(c);
	if (info && info->trials_tool && !info->trials_raw)
		strbuf_addf(&est, "%s, mean of %zu trial%s", tool,
		    info->trials_tool, info->trials_tool == 1 ? "" : "s");
	else if (info && info->trials_tool && o->pool == STATS_POOL_PER_TRIAL)
		strbuf_addf(&est, "%s + %s, mean of %zu trials",
		    stats_estimator_name(o->est), tool, info->trials_raw +
		    info->trials_tool);
	else if (info && info->trials_tool)
		strbuf_addf(&est, "%s, pooled over %zu of %zu trials (%zu %s "
		    "summar%s left out)", stats_estimator_name(o->est),
		    info->trials_raw, info->trials_raw + info->trials_tool,
		    info->trials_tool, tool, info->trials_tool == 1 ? "y" :
		    "ies");
	else if (o->pool == STATS_POOL_POOLED)
		strbuf_addf(&est, "%s, pooled", stats_estimator_name(o->est));
	else
		strbuf_addf(&est, "%s, mean of %zu trial%s",
		    stats_estimator_name(o->est), c->ntrials, c->ntrials == 1 ?
		    "" : "s");
	table_set_display_raw(t, row, col, est.buf);
	if (info && info->trials_tool)
		t->cols[col].md_hidden = false;
	col++;
	table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	if (cs->info && cs->info->source == METRIC_FROM_SUMMARY)
		table_set_str(t, row, col++, "runs");
	strbuf_release(&est);
}

void
trials_values_cell(struct table *t, size_t row, size_t col,
    const struct cellset *cs, const double *vals, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct unit_choice mu;
	size_t k;

	units_machine(cs->info, &mu);
	for (k = 0; k < n; k++) {
		if (k)
			strbuf_addstr(&sb, ", ");
		units_format(&sb, &mu, vals[k]);
	}
	table_set_str(t, row, col, sb.buf);
	trials_values_display(t, row, col, cs);
	strbuf_release(&sb);
}

void
trials_values_display(struct table *t, size_t row, size_t col,
    const struct cellset *cs)
{
	const char *p = table_str(t, row, (long)col);
	struct strbuf sb = STRBUF_INIT;
	struct unit_choice u;
	char *end;
	double v;

	u = cs->shown;
	if (!u.name)
		units_choose(cs->info, NULL, NAN, false, &u);
	while (p && *p) {
		v = strtod(p, &end);
		if (end == p)
			goto cleanup;
		if (sb.len)
			strbuf_addstr(&sb, ", ");
		units_format(&sb, &u, v);
		p = end;
		if (*p == ',')
			p++;
		while (*p == ' ')
			p++;
	}
	if (p && *p == '\0')
		table_set_display_raw(t, row, col, sb.buf);
cleanup:
	strbuf_release(&sb);
}

void
format_ci(struct strbuf *sb, double v, double lo, double hi, int decimals)
{
	md_number(sb, v, decimals);
	if (isfinite(lo) && isfinite(hi)) {
		strbuf_addstr(sb, " [");
		md_number(sb, lo, decimals);
		strbuf_addstr(sb, ", ");
		md_number(sb, hi, decimals);
		strbuf_addch(sb, ']');
	}
}

struct verb {
	const char	*name;
	int		(*fn)(sqlite3 *, const struct analyze_opts *, int, char **,
			    struct table *);
	const char	*args;		/* its own arguments and options, for
					 * its usage line; NULL: none */
	const char	*summary;
};

static const struct verb verbs[] = {
	{ "compare",	analyze_compare,
	  "--by KEY [--baseline V] [--threshold 5%]",
	  "a dimension's values against a baseline" },
	{ "delta",	analyze_delta,		"[--attempts completed|all] PAIR...",
	  "differences between paths: G-G' H-B" },
	{ "mtu",	analyze_mtu,		NULL,
	  "path MTU per path (pathprobe --mtu; no --metric)" },
	{ "percentiles", analyze_percentiles,	NULL,
	  "percentile tables per path and condition" },
	{ "ratio",	analyze_ratio,
	  "--across KEY [--attempts completed|all] NUM/DEN",
	  "ratios across a condition key: c 16/1" },
	{ "relative",	analyze_relative,	NULL,
	  "each percentile as % of the cell's p50" },
	{ "trend",	analyze_trend,
	  "--by day|hour [--by KEY] [--threshold 5%]",
	  "statistic over days or hours: slope, drift/step verdict" },
	{ "trials",	analyze_trials,		NULL,
	  "trial-to-trial spread and outlier trials" },
	{ "variance",	analyze_variance,	"[--by KEYS] [--target 5%]",
	  "spread within/between trials, days, instances" },
};

/* How many runs q selects; -1 after a database error. */
static int64_t
count_runs(sqlite3 *db, const struct runsel_query *q)
{
	struct runsel rs;
	int64_t n = 0;
	int rc;

	if (runsel_open(&rs, db, q)) {
		runsel_close(&rs);
		return -1;
	}
	while ((rc = runsel_next(&rs)) > 0)
		n++;
	runsel_close(&rs);
	return rc < 0 ? -1 : n;
}

const char *
analyze_verb_name(size_t i)
{
	return i < ARRAY_SIZE(verbs) ? verbs[i].name : NULL;
}

/* The verb named verb, or NULL after printing an error naming the
 * verbs (and the near miss). */
static const struct verb *
find_verb(const char *verb)
{
	const char *names[ARRAY_SIZE(verbs)];
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verbs); i++) {
		if (!strcmp(verbs[i].name, verb))
			return &verbs[i];
		names[i] = verbs[i].name;
	}
	strbuf_addf(&sb, "unknown verb '%s'", verb);
	suggest_append(&sb, verb, names, ARRAY_SIZE(names));
	strbuf_addstr(&sb, " (verbs:");
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		strbuf_addf(&sb, "%s %s", i ? "," : "", verbs[i].name);
	strbuf_addch(&sb, ')');
	error("%s", sb.buf);
	strbuf_release(&sb);
	return NULL;
}

/*
 * A table without rows although every name exists (analyze_validate):
 * say what was looked for, how many runs have the metric, and whether
 * the runs that match measured something else or nothing matched at
 * all (or, when the metric's runs are there, that the verb made no row
 * of them).  Returns the exit code (1).
 */
static int
analyze_matched_nothing(sqlite3 *db, const char *verb,
    const struct analyze_opts *o, const char *why)
{
	const struct metric *m = metric_by_name(o->metric);
	struct runsel_query q;
	struct strbuf what = STRBUF_INIT;
	int64_t nmetric, nwhere, nsel;
	size_t i;

	memset(&q, 0, sizeof(q));
	q.metric = m ? (int)m->id : 0;
	nmetric = count_runs(db, &q);
	q.metric = 0;
	q.where = &o->where;
	q.paths = o->paths;
	q.npaths = o->npaths;
	nwhere = count_runs(db, &q);
	for (i = 0; i < o->where.n; i++)
		strbuf_addf(&what, "%s%s=%s", i ? ", " : " where ",
		    o->where.items[i].key, o->where.items[i].value);
	if (o->npaths) {
		strbuf_addf(&what, " on path%s ", o->npaths > 1 ? "s" : "");
		for (i = 0; i < o->npaths; i++)
			strbuf_addf(&what, "%s%s", i ? "," : "", o->paths[i]);
	}
	q.metric = m ? (int)m->id : 0;
	nsel = count_runs(db, &q);
	if (nsel > 0)
		error("%s: no rows from the %lld %s runs%s%s%s", verb,
		    (long long)nsel, o->metric, what.buf, why ? ": " : "",
		    why ? why : "");
	else if (nwhere > 0)
		error("no %s runs%s (%lld runs have %s; the %lld that match "
		    "measured other metrics)", o->metric, what.buf,
		    (long long)nmetric, o->metric, (long long)nwhere);
	else
		error("no %s runs%s (%lld runs have %s; no run matches these "
		    "filters together)", o->metric, what.buf,
		    (long long)nmetric, o->metric);
	strbuf_release(&what);
	return PATHSTAT_EXIT_FAIL;
}

/*
 * A delta pair's paths must exist: some split at a '-' (IDs may hold
 * one) whose both sides are paths of runs.  A text without '-' is left
 * to the verb, which says what a pair looks like.  Returns 0, 1 with the
 * message in why, -1.
 */
static int
check_pair(sqlite3 *db, const char *pair, struct strbuf *why)
{
	struct strbuf tmp = STRBUF_INIT, opt = STRBUF_INIT;
	const char *p, *first = strchr(pair, '-');
	char *l = NULL, *r = NULL;
	int ret = 0, a, b;

	for (p = first; p; p = strchr(p + 1, '-')) {
		l = xstrndup(pair, (size_t)(p - pair));
		r = xstrdup(p + 1);
		a = *l ? keycat_has_value(db, "", "path", l, &tmp) : 0;
		b = a > 0 && *r ? keycat_has_value(db, "", "path", r, &tmp) : 0;
		if (a < 0 || b < 0) {
			ret = -1;
			goto cleanup;
		}
		if (a && b)
			goto cleanup;
		FREE_AND_NULL(l);
		FREE_AND_NULL(r);
	}
	if (!first || first == pair || !first[1])
		goto cleanup;
	/* name the side that is not a path, split at the first '-' */
	l = xstrndup(pair, (size_t)(first - pair));
	r = xstrdup(first + 1);
	strbuf_addf(&opt, "bad pair '%s': ", pair);
	strbuf_reset(&tmp);
	a = keycat_has_value(db, opt.buf, "path", l, &tmp);
	if (a > 0) {
		strbuf_reset(&tmp);
		a = keycat_has_value(db, opt.buf, "path", r, &tmp);
	}
	if (a < 0) {
		ret = -1;
	} else if (a == 0) {
		strbuf_addstr(why, tmp.buf);
		ret = 1;
	}
cleanup:
	free(l);
	free(r);
	strbuf_release(&tmp);
	strbuf_release(&opt);
	return ret;
}

/* What a verb's own arguments and options name must exist too: delta's
 * pairs, compare's --baseline, ratio's --across key and values, trend's
 * time key.  Returns 0, 1 with the message in why, -1. */
static int
check_verb_args(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct strbuf *why)
{
	const char *key = o->nby ? o->by[o->nby - 1] : NULL;
	int i, rc = 0;

	if (!strcmp(verb, "delta")) {
		for (i = 0; i < nargs && !rc; i++)
			rc = check_pair(db, args[i], why);
		return rc;
	}
	if (!strcmp(verb, "compare") && key) {
		/* compare sets a key's values side by side within one path
		 * and condition: a path or a condition key would leave every
		 * value alone in its group, a table without rows */
		rc = strcmp(key, "path") ? keycat_is_condition_key(db, key) : 1;
		if (rc < 0)
			return -1;
		if (rc) {
			strbuf_addf(why, "compare --by %s: compare sets the values "
			    "of a tag (instance_type, day, az ...) side by side "
			    "within a path and condition; %s", key,
			    !strcmp(key, "path") ? "paths are compared with "
			    "delta A-B" : "a condition key is compared with "
			    "ratio --across KEY NUM/DEN");
			return 1;
		}
	}
	if (!strcmp(verb, "compare") && key && o->baseline) {
		rc = keycat_has_value(db, "bad --baseline: ", key, o->baseline,
		    why);
		return rc < 0 ? -1 : !rc;
	}
	if (!strcmp(verb, "trend") && key && !analyze_trend_key(o)) {
		strbuf_addf(why, "trend --by needs day or hour among its keys, "
		    "not only '%s': a trend is a statistic over time; other "
		    "--by keys split the series (compare --by %s sets the "
		    "values of a key side by side)", key, key);
		return 1;
	}
	if (!strcmp(verb, "ratio") && o->across && kv_valid_key(o->across)) {
		const char *slash = nargs == 1 ? strchr(args[0], '/') : NULL;
		char *num;

		strbuf_addstr(why, "bad --across: ");
		rc = keycat_has_key(db, o->across, why);
		if (rc <= 0)
			return rc < 0 ? -1 : 1;
		strbuf_reset(why);
		if (!slash || slash == args[0] || !slash[1])
			return 0;
		num = xstrndup(args[0], (size_t)(slash - args[0]));
		rc = keycat_has_value(db, "bad ratio: ", o->across, num, why);
		if (rc > 0)
			rc = keycat_has_value(db, "bad ratio: ", o->across,
			    slash + 1, why);
		free(num);
		return rc < 0 ? -1 : !rc;
	}
	return 0;
}

/*
 * What the options name must exist: the metric, and every --where key
 * and value, --by key and --paths path among the runs of db (keycat.h),
 * and what the verb's arguments name.  Returns 0, -2 after printing a
 * usage error, -1 after a database error.
 */
static int
analyze_validate(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args)
{
	struct keycat_query q;
	struct strbuf why = STRBUF_INIT;
	int rc;

	if (o->metric && !metric_by_name(o->metric)) {
		metric_unknown(&why, o->metric);
		error("%s", why.buf);
		strbuf_release(&why);
		return -2;
	}
	memset(&q, 0, sizeof(q));
	q.where = &o->where;
	q.by = o->by;
	q.nby = o->nby;
	q.paths = o->paths;
	q.npaths = o->npaths;
	rc = keycat_check(db, &q, &why);
	if (rc == 0)
		rc = check_verb_args(db, verb, o, nargs, args, &why);
	if (rc > 0)
		error("%s", why.buf);
	strbuf_release(&why);
	return rc > 0 ? -2 : rc;
}

int
analyze_build(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct table *t)
{
	const struct verb *v = find_verb(verb);
	struct analyze_opts o2;
	int rc;

	if (!v)
		return -2;
	rc = analyze_validate(db, verb, o, nargs, args);
	if (rc)
		return rc;
	analyze_shown_stats(verb, o, &o2);
	rc = v->fn(db, &o2, nargs, args, t);
	if (!rc)
		analyze_stats_note(t, &o2);
	return rc;
}

/*
 * The usage, generated as every command's is (common/parseopt.c): the
 * option table's line (analyze/options.c), then a line per verb with
 * arguments or options of its own (the verb table above); full: the
 * verbs, the option lines and what the metrics are.
 */
static void
analyze_usage(FILE *fp, bool full)
{
	struct strbuf sb = STRBUF_INIT;
	const struct metric *ms;
	size_t i, k, nm;

	analyze_opts_usage(&sb);
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (verbs[i].args)
			strbuf_addf(&sb, "       pathstat analyze %s %s\n",
			    verbs[i].name, verbs[i].args);
	if (!full)
		goto cleanup;
	strbuf_addstr(&sb, "\nverbs:\n");
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		strbuf_addf(&sb, "   %-12s %s\n", verbs[i].name,
		    verbs[i].summary);
	strbuf_addch(&sb, '\n');
	analyze_opts_help(&sb);
	strbuf_addstr(&sb, "\nOne value per run (n = runs), from the tools' "
	    "end-of-test summaries:\n ");
	ms = metric_list(&nm);
	for (i = 0, k = 0; i < nm; i++)
		if (ms[i].source == METRIC_FROM_SUMMARY)
			strbuf_addf(&sb, "%s %s", k++ ? "," : "", ms[i].name);
	strbuf_addstr(&sb, ".\nNames no run has (keys, values, paths, "
	    "metrics) are usage errors;\n'pathstat keys' lists what there "
	    "is.\n\n'pathstat analyze <verb> --help' shows this help.\n");
cleanup:
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

static void
analyze_help(FILE *fp)
{
	analyze_usage(fp, true);
}

/*
 * --sql compare: where the table on this database has no rows for a
 * reason compare gives (no path and condition under two values of the
 * key), the query has none either: say why, as a comment above it and
 * on stderr, as analyze itself would.
 */
static void
sql_empty_why(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args)
{
	struct table t;

	if (strcmp(verb, "compare"))
		return;
	table_init(&t);
	if (!analyze_build(db, verb, o, nargs, args, &t) && !t.nrows &&
	    t.empty_why) {
		printf("-- on this database the query gives no rows: %s.\n",
		    t.empty_why);
		warning("compare: the query gives no rows on this database: "
		    "%s", t.empty_why);
	}
	table_release(&t);
}

/*
 * --sql: print the query that computes the table on an engine over the
 * exported datasets (export/sql*.c).  The options it cannot honour are a
 * usage error, saying why.  Returns an exit code.
 */
static int
analyze_sql(const struct analyze_opts *o, const char *verb, int nargs,
    char **args)
{
	const struct analyze_sql_printer *p = analyze_sql_printer();
	struct strbuf why = STRBUF_INIT;
	struct analyze_opts o2;
	sqlite3 *db = NULL;
	int rc, ret = PATHSTAT_EXIT_USAGE;

	/* set_sql refused --sql without a printer */
	if (!p)
		BUG("--sql parsed with no SQL printer installed");
	if (!p->has_verb(verb)) {
		error("--sql: %s has no query form (percentiles, delta, ratio, "
		    "trials and compare have)", verb);
		goto cleanup;
	}
	if (analyze_opts_sql_conflict(o, &why)) {
		error("--sql cannot honour %s", why.buf);
		goto cleanup;
	}
	db = db_open_readonly(db_default_path(o->db_path));
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	/* the query selects what the table would: the same names must
	 * exist */
	rc = analyze_validate(db, verb, o, nargs, args);
	if (rc) {
		ret = rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	/* the statistics the table would show, and why, as it says */
	analyze_shown_stats(verb, o, &o2);
	if (o2.stats_why) {
		strbuf_reset(&why);
		analyze_stats_list(&o2, &why);
		printf("-- statistics %s, the default for %s: %s.\n", why.buf,
		    o2.metric, o2.stats_why);
	}
	sql_empty_why(db, verb, o, nargs, args);
	rc = p->print(stdout, db, verb, &o2, nargs, args);
	ret = rc == -2 ? PATHSTAT_EXIT_USAGE : rc ? PATHSTAT_EXIT_FAIL :
	    PATHSTAT_EXIT_OK;
cleanup:
	db_close(db);
	strbuf_release(&why);
	return ret;
}

int
cmd_analyze(int argc, char **argv)
{
	struct analyze_opts o;
	struct strbuf why = STRBUF_INIT;
	struct table t;
	const char *verb;
	char **args;
	sqlite3 *db = NULL;
	int nargs, rc, ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat analyze");
	analyze_opts_init(&o);
	table_init(&t);
	/* rendered and released here, no cell's str taken by hand: a
	 * string repeated down a column (path, method) is one copy */
	t.share_strs = true;
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") ||
		    !strcmp(argv[1], "--help") ||
		    !strcmp(argv[1], "--list-options"))) {
			/* the options without a verb: argv[0] stands in */
			if (analyze_opts_parse(&o, argc, argv,
			    analyze_help) == -1)
				ret = PATHSTAT_EXIT_USAGE;
			goto cleanup;
		}
		error("no verb given");
		analyze_usage(stderr, false);
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	verb = argv[1];
	nargs = analyze_opts_parse(&o, argc - 1, argv + 1, analyze_help);
	args = argv + 1;
	if (nargs == -2)
		goto cleanup;
	if (nargs < 0) {
		/* the layer's line names it and points to --help */
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	/* mtu has one metric of its own */
	if (!o.metric && !strcmp(verb, "mtu"))
		o.metric = metric_name(METRIC_PATH_MTU);
	if (!find_verb(verb))
		goto usage;
	if (!o.metric) {
		metric_names_join(&why, ", ");
		error("--metric is required (%s)", why.buf);
		goto usage;
	}
	if (!metric_by_name(o.metric)) {
		metric_unknown(&why, o.metric);
		error("%s", why.buf);
		goto usage;
	}
	if (o.attempts_all && strcmp(verb, "delta") && strcmp(verb, "ratio")) {
		error("--attempts all: only delta and ratio take it");
		goto usage;
	}
	if (o.attempts_all && !metric_by_name(o.metric)->timeout_bound) {
		error("--attempts all: %s records no timed-out attempts to "
		    "rank (connect_ms does)", o.metric);
		goto usage;
	}
	if (units_check(metric_by_name(o.metric), o.unit, &why)) {
		error("--unit %s: %s", o.unit, why.buf);
		goto usage;
	}
	if (o.sql) {
		ret = analyze_sql(&o, verb, nargs, args);
		if (ret == PATHSTAT_EXIT_USAGE)
			goto usage;
		goto cleanup;
	}
	/* a person at a terminal reads text, a pipe or file gets Markdown */
	if (!(o.given & (UINT32_C(1) << ANALYZE_OPT_FORMAT)))
		o.format = table_format_default();
	db = db_open_readonly(db_default_path(o.db_path));
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	/* trials and trend: CSV is the long form (analyze/long.c) */
	if (o.format == TABLE_CSV && analyze_long_verb(verb))
		rc = analyze_long(db, verb, &o, nargs, args, &t);
	else
		rc = analyze_build(db, verb, &o, nargs, args, &t);
	if (rc == -2)
		goto usage;
	if (rc < 0 || table_render(&t, o.format, stdout))
		ret = PATHSTAT_EXIT_FAIL;
	else if (t.nrows == 0)
		ret = analyze_matched_nothing(db, verb, &o, t.empty_why);
	goto cleanup;
usage:
	/* the error above names the one thing wrong; the whole usage
	 * block would bury it */
	fputs("pathstat analyze: see 'pathstat analyze --help'\n", stderr);
	ret = PATHSTAT_EXIT_USAGE;
cleanup:
	db_close(db);
	table_release(&t);
	analyze_opts_release(&o);
	strbuf_release(&why);
	return ret;
}
