/*
 * analyze.c - `pathstat analyze <verb>`: the options every verb shares,
 * the verb table, and computing one statistic of one cell (pooled or per
 * trial, with its interval and the "≥ timeout" rule for connect times).
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
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "export/export.h"

#define ANALYZE_USAGE \
	"usage: pathstat analyze <verb> [--db FILE] --metric M [--where K=V]... [--by DIMS]\n" \
	"                        [--stats LIST] [--quantile type7|oha|hd] [--pool pooled|trials]\n" \
	"                        [--paths A,B,...] [--ci] [--level 0.95] [--seed N]\n" \
	"                        [--boot-reps B] [--format md|csv|json] [ARGS]\n" \
	"       pathstat analyze percentiles|delta|ratio|trials ... --sql athena|trino|spark|duckdb\n" \
	"verbs: percentiles, delta PAIR..., ratio --across KEY NUM/DEN, trials,\n" \
	"       relative, compare --by KEY [--baseline V] [--threshold 5%],\n" \
	"       trend --by day|hour [--threshold 5%], variance [--target 5%],\n" \
	"       mtu (no --metric)\n"

char name_p50[] = "p50", name_p99[] = "p99";

void
describe_method(const struct analyze_opts *o, struct strbuf *sb)
{
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
	*unit = cs->info->display_unit;
	return cs->info->display_scale;
}

void
add_key_columns(struct table *t, const struct cellset *cs)
{
	size_t i;

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
}

void
fill_key_columns(struct table *t, size_t row, const struct cellset *cs,
    const struct cell *c, const struct analyze_opts *o,
    const struct cell_info *info)
{
	size_t i, col = 0;
	struct strbuf est = STRBUF_INIT;

	table_set_str(t, row, col++, c->path);
	table_set_str(t, row, col++, c->cond);
	for (i = 0; i < cs->ndims; i++)
		table_set_str(t, row, col++, c->dims[i]);
	table_set_str(t, row, col++, cs->metric_name);
	if (info && info->trials_tool && !info->trials_raw)
		strbuf_addstr(&est, "tool");
	else if (info && info->trials_tool)
		strbuf_addf(&est, "%s+tool", stats_estimator_name(o->est));
	else
		strbuf_addstr(&est, stats_estimator_name(o->est));
	table_set_str(t, row, col++, est.buf);
	table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	strbuf_release(&est);
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

/* Connect probes: when more than 1 - p of the attempts failed, the
 * p-quantile of all attempts lies at or beyond the timeout. */
static bool
censored_by_failures(const struct cellset *cs, const struct cell *c,
    const struct stats_name *s)
{
	double total, frac, p;

	if (!cs->info->timeout_bound || c->failures <= 0)
		return false;
	total = (double)c->n + (double)c->failures;
	frac = (double)c->failures / total;
	switch (s->kind) {
	case STATS_NAME_MAX:
		return true;
	case STATS_NAME_PCT:
		p = s->pct / 100.0;
		return frac > 1.0 - p;
	default:
		return false;
	}
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

void
cell_compute(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s, bool ci,
    struct cell_stat *out, struct cell_info *info)
{
	size_t i, k = 0;
	double *vals;
	char typed[32];

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
	/* The value of the successful samples is still computed (the JSON
	 * contract: statistics of successful samples); the flag tells the
	 * reader that the percentile of all attempts lies beyond it. */
	out->censored = censored_by_failures(cs, c, s);
	/* The name the tool's own summary uses: "p99", "p99.9". */
	if (s->kind == STATS_NAME_PCT && *stat_label(o, s) == 'p')
		snprintf(typed, sizeof(typed), "%s", stat_label(o, s));
	else if (s->kind == STATS_NAME_PCT)
		snprintf(typed, sizeof(typed), "p%g", s->pct);
	else
		typed[0] = '\0';
	if (o->pool == STATS_POOL_POOLED) {
		const double *x;
		size_t n = cell_pooled(c, &x);
		struct stats_rank_ci r;

		if (n == 0) {
			out->why_missing = info->trials_tool ?
			    "summary only: use --pool trials" : "no samples";
			return;
		}
		out->value = stat_of(o, s, x, n);
		if (ci && s->kind == STATS_NAME_PCT) {
			if (stats_quantile_ci(n, s->pct, o->level,
			    STATS_CI_NARROWEST, &r) == 0 && r.available) {
				out->lo = x[r.lo - 1];
				out->hi = x[r.hi - 1];
			} else {
				out->why_missing = "n too small";
			}
		}
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
		if (ci && k >= 2) {
			double sd = 0, half;

			for (i = 0; i < k; i++)
				sd += (vals[i] - sp.mean) * (vals[i] - sp.mean);
			sd = sqrt(sd / (double)(k - 1));
			half = stats_t_quantile(0.5 + o->level / 2, (double)(k - 1)) *
			    sd / sqrt((double)k);
			out->lo = sp.mean - half;
			out->hi = sp.mean + half;
		} else if (ci) {
			out->why_missing = "one trial: no interval";
		}
	}
	free(vals);
}

struct verb {
	const char	*name;
	int		(*fn)(sqlite3 *, const struct analyze_opts *, int, char **,
			    struct table *);
	const char	*summary;
};

static const struct verb verbs[] = {
	{ "compare",	analyze_compare,	"a dimension's values against a baseline" },
	{ "delta",	analyze_delta,		"differences between paths: G-G' H-B" },
	{ "mtu",	analyze_mtu,		"path MTU per path (pathprobe --mtu)" },
	{ "percentiles", analyze_percentiles,	"percentile tables per path and condition" },
	{ "ratio",	analyze_ratio,		"ratios across a condition key: c 16/1" },
	{ "relative",	analyze_relative,	"each percentile as % of the cell's p50" },
	{ "trend",	analyze_trend,		"statistic over days or hours: slope, drift/step verdict" },
	{ "trials",	analyze_trials,		"trial-to-trial spread and outlier trials" },
	{ "variance",	analyze_variance,	"spread within/between trials, days, instances" },
};

int
analyze_build(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct table *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(verbs[i].name, verb))
			return verbs[i].fn(db, o, nargs, args, t);
	error("unknown verb '%s'", verb);
	return -2;
}

static void
analyze_usage(FILE *fp, bool full)
{
	size_t i;

	fputs(ANALYZE_USAGE, fp);
	if (!full)
		return;
	fputs("\nverbs:\n", fp);
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		fprintf(fp, "   %-12s %s\n", verbs[i].name, verbs[i].summary);
	fputs("\n", fp);
	analyze_options_help(fp);
	fputs("\n'pathstat analyze <verb> --help' shows this help.\n", fp);
}

/*
 * --sql: print the query that computes the table on an engine over the
 * exported datasets (export/sql.c).  The options it cannot honour are a
 * usage error, saying why.  Returns an exit code.
 */
static int
analyze_sql(const struct analyze_opts *o, const char *verb, int nargs,
    char **args)
{
	struct strbuf why = STRBUF_INIT;
	sqlite3 *db = NULL;
	int rc, ret = PATHSTAT_EXIT_USAGE;

	if (!export_sql_verb(verb)) {
		error("--sql: %s has no query form (percentiles, delta, ratio "
		    "and trials have)", verb);
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
	rc = export_sql_print(stdout, db, verb, o, nargs, args);
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
	sqlite3 *db = NULL;
	int first, rc, ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat analyze");
	analyze_opts_init(&o);
	table_init(&t);
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") ||
		    !strcmp(argv[1], "--help"))) {
			analyze_usage(stdout, true);
			goto cleanup;
		}
		error("no verb given");
		analyze_usage(stderr, false);
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	verb = argv[1];
	first = analyze_opts_parse(&o, argc - 1, argv + 1);
	if (first == -2) {
		analyze_usage(stdout, true);
		goto cleanup;
	}
	if (first < 0)
		goto usage;
	/* mtu has one metric of its own */
	if (!o.metric && !strcmp(verb, "mtu"))
		o.metric = metric_name(METRIC_PATH_MTU);
	if (!o.metric) {
		metric_names_join(&why, ", ");
		error("--metric is required (%s)", why.buf);
		goto usage;
	}
	if (o.sql) {
		ret = analyze_sql(&o, verb, argc - 1 - first, argv + 1 +
		    first);
		if (ret == PATHSTAT_EXIT_USAGE)
			goto usage;
		goto cleanup;
	}
	db = db_open_readonly(db_default_path(o.db_path));
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	rc = analyze_build(db, verb, &o, argc - 1 - first, argv + 1 + first,
	    &t);
	if (rc == -2)
		goto usage;
	if (rc < 0 || table_render(&t, o.format, stdout))
		ret = PATHSTAT_EXIT_FAIL;
	goto cleanup;
usage:
	analyze_usage(stderr, false);
	ret = PATHSTAT_EXIT_USAGE;
cleanup:
	db_close(db);
	table_release(&t);
	analyze_opts_release(&o);
	strbuf_release(&why);
	return ret;
}
