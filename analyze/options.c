/*
 * options.c - the table of analyze options (see options.h) and the three
 * things it drives: the command line of `pathstat analyze` (parsed by
 * the common option layer, common/parseopt.c, each option a callback
 * into its setter here), the option lines of its --help, and the
 * command line rebuilt from a struct analyze_opts for provenance.
 * Every check on an option's value is in its setter here;
 * report/spec.c calls the same setters.
 */
#include "common/compat.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/options.h"
#include "common/err.h"
#include "common/kv.h"
#include "common/metric.h"
#include "common/parse.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/units.h"
#include "common/xalloc.h"

/* The field of o an option sets, as a pointer of type T. */
#define FIELD(T, opt, o)	((T *)(void *)((char *)(o) + (opt)->field))
#define CFIELD(T, opt, o)	((const T *)(const void *)\
	((const char *)(o) + (opt)->field))

/* ------------------------------------------------------------------
 * Setters: the one place each option's value is checked
 */

static int
set_text(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	(void)why;
	*FIELD(const char *, opt, o) = value;
	return 0;
}

static int
set_where(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	return where_add(FIELD(struct where, opt, o), value, why);
}

/* --by repeated adds keys (--by day --by instance_type is --by
 * day,instance_type): a key given twice is kept once */
static int
set_by(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	char **old = o->by, **add = NULL;
	size_t nold = o->nby, nadd = 0;
	int ret;

	(void)opt;
	o->by = NULL;
	o->nby = 0;
	ret = analyze_opts_set_list(&add, &nadd, value, why);
	o->by = old;
	o->nby = nold;
	for (size_t i = 0; !ret && i < nadd; i++) {
		size_t j;

		for (j = 0; j < o->nby && strcmp(o->by[j], add[i]); j++)
			;
		if (j < o->nby)
			continue;
		o->by = xreallocarray(o->by, o->nby + 1, sizeof(char *));
		o->by[o->nby++] = xstrdup(add[i]);
	}
	for (size_t i = 0; i < nadd; i++)
		free(add[i]);
	free(add);
	return ret;
}

static int
set_paths(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	(void)opt;
	return analyze_opts_set_paths(o, value, why);
}

static int
set_stats(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	(void)opt;
	return analyze_opts_set_stats(o, value, why);
}

static int
set_quantile(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	enum stats_estimator est;

	(void)opt;
	if (stats_estimator_parse(value, &est) || est == STATS_EST_MEAN) {
		strbuf_addstr(why, "want type7, oha or hd");
		return -1;
	}
	o->est = est;
	return 0;
}

static int
set_pool(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	(void)opt;
	if (!strcmp(value, "pooled")) {
		o->pool = STATS_POOL_POOLED;
	} else if (!strcmp(value, "trials")) {
		o->pool = STATS_POOL_PER_TRIAL;
	} else {
		strbuf_addstr(why, "want pooled or trials");
		return -1;
	}
	return 0;
}

/* --attempts: completed (the successes, default) or all (every
 * attempt, its timeouts at or beyond the timeout) */
static int
set_attempts(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	(void)opt;
	if (!strcmp(value, "completed")) {
		o->attempts_all = false;
	} else if (!strcmp(value, "all")) {
		o->attempts_all = true;
	} else {
		strbuf_addstr(why, "want completed or all");
		return -1;
	}
	return 0;
}

static int
set_format(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	(void)opt;
	if (table_format_parse(value, &o->format)) {
		strbuf_addstr(why, "want text, md, csv or json");
		return -1;
	}
	return 0;
}

/* --unit: a unit pathstat shows; whether the metric has it is checked
 * once the metric is known (units_check() in cmd_analyze, report). */
static int
set_unit(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	(void)opt;
	if (units_check(NULL, value, why))
		return -1;
	o->unit = value;
	return 0;
}

static int
set_sql(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	const struct analyze_sql_printer *p = analyze_sql_printer();

	(void)opt;
	if (!p) {
		strbuf_addstr(why, "no SQL printer in this build");
		return -1;
	}
	if (!p->engine_known(value)) {
		strbuf_addf(why, "want %s", p->engines);
		return -1;
	}
	o->sql = value;
	return 0;
}

static const struct analyze_sql_printer *sql_printer;

void
analyze_sql_install(const struct analyze_sql_printer *p)
{
	sql_printer = p;
}

const struct analyze_sql_printer *
analyze_sql_printer(void)
{
	return sql_printer;
}

/* A flag: no value on a command line, true or false in a spec. */
static int
set_flag(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	if (value && strcmp(value, "true") && strcmp(value, "false")) {
		strbuf_addstr(why, "want true or false");
		return -1;
	}
	*FIELD(bool, opt, o) = !value || !strcmp(value, "true");
	return 0;
}

static int
set_double(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	double d;

	if (parse_double(value, opt->min, opt->max, &d) ||
	    (opt->min_open && d == opt->min)) {
		strbuf_addf(why, "want %g..%g", opt->min, opt->max);
		return -1;
	}
	*FIELD(double, opt, o) = d;
	return 0;
}

static int
set_seed(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	int64_t seed;

	if (parse_int64(value, &seed)) {
		strbuf_addstr(why, "want an integer");
		return -1;
	}
	*FIELD(uint64_t, opt, o) = (uint64_t)seed;
	return 0;
}

/* "5%" or "5": a percentage within [min, max] (min itself refused when
 * min_open). */
static int
set_percent(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	double d;

	if (parse_percent(value, &d, false) || d < opt->min ||
	    (opt->min_open && d == opt->min) || d > opt->max) {
		strbuf_addstr(why, "want a percentage like 5%");
		return -1;
	}
	*FIELD(double, opt, o) = d;
	return 0;
}

/* ------------------------------------------------------------------
 * Getters: a field as command-line text
 */

static bool
get_text(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	const char *s = *(const char *const *)(const void *)((const char *)o +
	    opt->field);

	if (!s)
		return false;
	strbuf_addstr(value, s);
	return true;
}

static bool
get_list(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	char *const *l = *(char **const *)(const void *)((const char *)o +
	    opt->field);
	size_t n = *(const size_t *)(const void *)((const char *)o +
	    opt->count), i;

	for (i = 0; i < n; i++)
		strbuf_addf(value, "%s%s", i ? "," : "", l[i]);
	return n > 0;
}

static bool
get_stats(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	size_t i;

	(void)opt;
	for (i = 0; i < o->nstats; i++)
		strbuf_addf(value, "%s%s", i ? "," : "", o->stat_names[i]);
	return o->stats_given;
}

static bool
get_quantile(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	(void)opt;
	strbuf_addstr(value, stats_estimator_name(o->est));
	return true;
}

static bool
get_pool(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	(void)opt;
	strbuf_addstr(value, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	return true;
}

static bool
get_attempts(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	(void)opt;
	strbuf_addstr(value, o->attempts_all ? "all" : "completed");
	return true;
}

static bool
get_format(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	(void)opt;
	strbuf_addstr(value, o->format == TABLE_CSV ? "csv" :
	    o->format == TABLE_JSON ? "json" : o->format == TABLE_TEXT ?
	    "text" : "md");
	return true;
}

static bool
get_flag(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	(void)value;
	return *CFIELD(bool, opt, o);
}

static bool
get_double(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	strbuf_addf(value, "%g", *CFIELD(double, opt, o));
	return true;
}

static bool
get_seed(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	strbuf_addf(value, "%lld",
	    (long long)(int64_t)*CFIELD(uint64_t, opt, o));
	return true;
}

static bool
get_percent(const struct analyze_option *opt, const struct analyze_opts *o,
    struct strbuf *value)
{
	strbuf_addf(value, "%g%%", *CFIELD(double, opt, o));
	return true;
}

/* ------------------------------------------------------------------
 * The table
 */

#define F(f)	offsetof(struct analyze_opts, f)

/*
 * In help and command-line order.  help NULL: the verb usage line
 * names the option instead.  verbs: the report sections it belongs
 * to.
 */
static const struct analyze_option options[] = {
	{
		.id = ANALYZE_OPT_METRIC, .name = "metric", .arg = "M",
		.type = ANALYZE_ARG_TEXT, .set = set_text, .get = get_text,
		.field = F(metric), .emit = ANALYZE_EMIT_ALWAYS, .help = "",
	},
	{
		.id = ANALYZE_OPT_WHERE, .name = "where", .arg = "K=V",
		.type = ANALYZE_ARG_WHERE, .set = set_where, .field = F(where),
		.emit = ANALYZE_EMIT_SET,
		.help = "keep runs whose path, trial, tool, condition key or "
		    "tag matches (K=V1,V2 for alternatives, K=FROM..TO "
		    "for a range: day=2026-11-01..2026-11-07, hour=9..17)",
	},
	{
		.id = ANALYZE_OPT_BY, .name = "by", .arg = "DIMS",
		.type = ANALYZE_ARG_LIST, .set = set_by, .get = get_list,
		.field = F(by), .count = F(nby), .emit = ANALYZE_EMIT_SET,
		.help = "also split cells by these keys "
		    "(instance_type,day,...; repeated: the keys add up)",
		.spec = "by",
	},
	{
		.id = ANALYZE_OPT_PATHS, .name = "paths", .arg = "A,B,...",
		.type = ANALYZE_ARG_LIST, .set = set_paths, .get = get_list,
		.field = F(paths), .count = F(npaths),
		.emit = ANALYZE_EMIT_SET,
		.help = "the paths to show, in this order",
	},
	{
		.id = ANALYZE_OPT_STATS, .name = "stats", .arg = "LIST",
		.type = ANALYZE_ARG_LIST, .set = set_stats, .get = get_stats,
		.emit = ANALYZE_EMIT_SET,
		.help = "any pNN or pNN.N, min, max, mean, n; default by "
		    "metric: p50,p95,p99,max (lower is better), "
		    "p50,p5,p1,min (higher is better: the slow side), "
		    "mean,min,max (one value per run); trials, compare, "
		    "trend, variance: p50,p99, p50,p5 or mean",
		.spec = "stats", .inherit = true,
	},
	{
		.id = ANALYZE_OPT_QUANTILE, .name = "quantile", .arg = "E",
		.type = ANALYZE_ARG_TEXT, .set = set_quantile,
		.get = get_quantile, .emit = ANALYZE_EMIT_ALWAYS,
		.help = "type7 (default, numpy's linear), oha "
		    "(sorted[floor(p n)]), hd (Harrell-Davis)",
		.spec = "estimator", .inherit = true,
	},
	{
		.id = ANALYZE_OPT_POOL, .name = "pool", .arg = "P",
		.type = ANALYZE_ARG_TEXT, .set = set_pool, .get = get_pool,
		.emit = ANALYZE_EMIT_ALWAYS,
		.help = "pooled (all samples together, default) or trials "
		    "(each trial's statistic, then mean/median/min/max); a "
		    "cell of oha JSON alone is per trial unless --pool is "
		    "given",
		.spec = "pool", .inherit = true,
	},
	{
		.id = ANALYZE_OPT_CI, .name = "ci", .type = ANALYZE_ARG_FLAG,
		.set = set_flag, .get = get_flag, .field = F(ci),
		.emit = ANALYZE_EMIT_SET,
		.help = "95 % intervals, trials as the unit: t on trial values "
		    "(Welch's for deltas, ratios, compare); a cell of one "
		    "trial: order statistics of a percentile",
		.spec = "ci", .inherit = true,
		.no_sql = "intervals are computed by pathstat analyze only",
	},
	{
		.id = ANALYZE_OPT_LEVEL, .name = "level", .arg = "L",
		.type = ANALYZE_ARG_NUMBER, .set = set_double,
		.get = get_double, .field = F(level), .min = 0.5, .max = 0.999,
		.emit = ANALYZE_EMIT_WITH_CI,
		.help = "interval level (default 0.95)", .spec = "level",
		.inherit = true,
		.no_sql = "it sets the level of intervals, which --sql does "
		    "not compute",
	},
	{
		.id = ANALYZE_OPT_ACROSS, .name = "across", .arg = "KEY",
		.type = ANALYZE_ARG_TEXT, .set = set_text, .get = get_text,
		.field = F(across), .emit = ANALYZE_EMIT_SET, .spec = "across",
		.verbs = ",ratio,",
	},
	{
		.id = ANALYZE_OPT_ATTEMPTS, .name = "attempts", .arg = "A",
		.type = ANALYZE_ARG_TEXT, .set = set_attempts,
		.get = get_attempts, .emit = ANALYZE_EMIT_SET,
		.verbs = ",delta,ratio,",
	},
	{
		.id = ANALYZE_OPT_BASELINE, .name = "baseline", .arg = "V",
		.type = ANALYZE_ARG_TEXT, .set = set_text, .get = get_text,
		.field = F(baseline), .emit = ANALYZE_EMIT_SET,
		.spec = "baseline", .verbs = ",compare,",
	},
	{
		.id = ANALYZE_OPT_THRESHOLD, .name = "threshold", .arg = "PCT",
		.type = ANALYZE_ARG_TEXT, .set = set_percent,
		.get = get_percent, .field = F(threshold_pct), .max = 1000,
		.emit = ANALYZE_EMIT_SET, .spec = "threshold",
		.verbs = ",compare,trend,",
		.no_sql = "it sets the verdict's threshold; analyze alone "
		    "gives the verdict (compare's query has no test or "
		    "verdict)",
	},
	{
		.id = ANALYZE_OPT_TARGET, .name = "target", .arg = "PCT",
		.type = ANALYZE_ARG_TEXT, .set = set_percent,
		.get = get_percent, .field = F(target_pct), .max = 100,
		.min_open = true, .emit = ANALYZE_EMIT_SET, .spec = "target",
		.verbs = ",variance,", .no_sql = "variance has no --sql form",
	},
	{
		.id = ANALYZE_OPT_SEED, .name = "seed", .arg = "N",
		.type = ANALYZE_ARG_NUMBER, .set = set_seed, .get = get_seed,
		.field = F(seed), .emit = ANALYZE_EMIT_SET,
		.help = "seed of variance's within-trial bootstrap "
		    "(default fixed: results reproduce)",
		.no_sql = "it seeds the bootstrap, which --sql does not run",
	},
	{
		.id = ANALYZE_OPT_UNIT, .name = "unit", .arg = "U",
		.type = ANALYZE_ARG_TEXT, .set = set_unit, .get = get_text,
		.field = F(unit), .emit = ANALYZE_EMIT_SET,
		.help = "unit of the values shown: auto (default: from the "
		    "data), bit/s, kbit/s, Mbit/s or Gbit/s; JSON/CSV keep "
		    "bit/s",
		.spec = "unit", .inherit = true,
	},
	{
		.id = ANALYZE_OPT_FORMAT, .name = "format", .arg = "F",
		.type = ANALYZE_ARG_TEXT, .set = set_format, .get = get_format,
		.emit = ANALYZE_EMIT_ALWAYS,
		.help = "text (default on a terminal), md (default "
		    "elsewhere), csv or json",
		.no_sql = "the query's result has --format csv's columns",
	},
	{
		.id = ANALYZE_OPT_SQL, .name = "sql", .arg = "ENGINE",
		.type = ANALYZE_ARG_TEXT, .set = set_sql, .get = get_text,
		.field = F(sql), .emit = ANALYZE_EMIT_SET,
		.help = "print the query that computes this table on athena, "
		    "trino, spark or duckdb over pathstat export's tables "
		    "(percentiles, delta, ratio, trials; compare without "
		    "its intervals, test and verdict), instead of it",
	},
	{
		.id = ANALYZE_OPT_DB, .name = "db", .arg = "FILE",
		.type = ANALYZE_ARG_TEXT, .set = set_text, .get = get_text,
		.field = F(db_path), .emit = ANALYZE_EMIT_SET,
		.help = "database (default $PATHSTAT_DB, else ./pathstat.db)",
	},
};

#undef F

const struct analyze_option *
analyze_option_list(size_t *n)
{
	*n = ARRAY_SIZE(options);
	return options;
}

const struct analyze_option *
analyze_option_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (!strcmp(options[i].name, name))
			return &options[i];
	return NULL;
}

const struct analyze_option *
analyze_option_by_spec(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].spec && !strcmp(options[i].spec, key))
			return &options[i];
	return NULL;
}

const struct analyze_option *
analyze_opts_sql_conflict(const struct analyze_opts *o, struct strbuf *why)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const struct analyze_option *opt = &options[i];

		/* the query's result has --format csv's columns */
		if (opt->id == ANALYZE_OPT_FORMAT && o->format == TABLE_CSV)
			continue;
		if (opt->no_sql && (o->given & (UINT32_C(1) << opt->id))) {
			strbuf_addf(why, "--%s: %s", opt->name, opt->no_sql);
			return opt;
		}
		if (opt->id == ANALYZE_OPT_ATTEMPTS && o->attempts_all) {
			strbuf_addstr(why, "--attempts all: the engines' queries "
			    "rank the completed attempts only; pathstat "
			    "analyze alone ranks all attempts");
			return opt;
		}
		if (opt->id == ANALYZE_OPT_QUANTILE &&
		    o->est == STATS_EST_HD) {
			strbuf_addstr(why, "--quantile hd: Harrell-Davis "
			    "weighs every value by a beta integral; --sql "
			    "computes type7 and oha exactly");
			return opt;
		}
	}
	return NULL;
}

bool
analyze_option_for_verb(const struct analyze_option *opt, const char *verb)
{
	const char *at;
	size_t len = strlen(verb);

	if (!opt->verbs)
		return true;
	for (at = strstr(opt->verbs, verb); at; at = strstr(at + 1, verb))
		if (at[-1] == ',' && at[len] == ',')
			return true;
	return false;
}

int
analyze_option_set(const struct analyze_option *opt, struct analyze_opts *o,
    const char *value, struct strbuf *why)
{
	if (opt->type != ANALYZE_ARG_FLAG && !value) {
		strbuf_addstr(why, "a value is required");
		return -1;
	}
	if (opt->set(opt, o, value, why))
		return -1;
	o->given |= UINT32_C(1) << opt->id;
	return 0;
}

/* ------------------------------------------------------------------
 * struct analyze_opts
 */

static void
free_list(char **arr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(arr[i]);
	free(arr);
}

void
analyze_opts_init(struct analyze_opts *o)
{
	struct strbuf why = STRBUF_INIT;

	memset(o, 0, sizeof(*o));
	o->est = STATS_EST_TYPE7;
	o->pool = STATS_POOL_POOLED;
	o->format = TABLE_MD;
	o->level = 0.95;
	o->seed = STATS_BOOT_SEED_DEFAULT;
	o->threshold_pct = 5.0;
	o->target_pct = 5.0;
	analyze_opts_set_stats(o, "p50,p95,p99,max", &why);
	o->stats_given = false;
	strbuf_release(&why);
}

void
analyze_opts_release(struct analyze_opts *o)
{
	size_t i;

	where_release(&o->where);
	free_list(o->by, o->nby);
	free_list(o->paths, o->npaths);
	for (i = 0; i < o->nstats; i++)
		free(o->stat_names[i]);
	memset(o, 0, sizeof(*o));
}

int
analyze_opts_set_list(char ***arr, size_t *n, const char *list,
    struct strbuf *why)
{
	char *copy = xstrdup(list), *p = copy, *item;
	int ret = 0;

	free_list(*arr, *n);
	*arr = NULL;
	*n = 0;
	while ((item = strsep(&p, ",")) != NULL) {
		if (!*item)
			continue;
		if (!kv_valid_value(item)) {
			strbuf_addf(why, "bad item '%s'", item);
			ret = -1;
			break;
		}
		*arr = xreallocarray(*arr, *n + 1, sizeof(char *));
		(*arr)[(*n)++] = xstrdup(item);
	}
	free(copy);
	return ret;
}

int
analyze_opts_set_paths(struct analyze_opts *o, const char *list,
    struct strbuf *why)
{
	char *copy = xstrdup(list), *p = copy, *item;
	int ret = 0;

	free_list(o->paths, o->npaths);
	o->paths = NULL;
	o->npaths = 0;
	while ((item = strsep(&p, ",")) != NULL) {
		if (!*item)
			continue;
		if (!path_id_valid(item)) {
			strbuf_addf(why, "bad path ID '%s': want %s", item,
			    PATH_ID_RULE);
			ret = -1;
			break;
		}
		o->paths = xreallocarray(o->paths, o->npaths + 1,
		    sizeof(char *));
		o->paths[o->npaths++] = xstrdup(item);
	}
	free(copy);
	return ret;
}

int
analyze_opts_set_stats(struct analyze_opts *o, const char *list,
    struct strbuf *why)
{
	char *copy = xstrdup(list), *p = copy, *item;
	size_t i;
	int ret = 0;

	for (i = 0; i < o->nstats; i++)
		free(o->stat_names[i]);
	o->nstats = 0;
	while ((item = strsep(&p, ",")) != NULL) {
		const char *reason = NULL;

		if (!*item)
			continue;
		if (o->nstats == ANALYZE_MAX_STATS) {
			strbuf_addf(why, "more than %d statistics",
			    ANALYZE_MAX_STATS);
			ret = -1;
			break;
		}
		if (stats_name_parse(item, &o->stats[o->nstats], &reason)) {
			strbuf_addf(why, "'%s': %s", item, reason ? reason :
			    "not a statistic (pNN, pNN.N, min, max, mean, n)");
			/* p999, p9999: oha's and others' names for p99.9 */
			if (item[0] == 'p' && strlen(item) > 3 &&
			    strspn(item + 1, "0123456789") ==
			    strlen(item) - 1)
				strbuf_addf(why, "; did you mean p%.2s.%s?",
				    item + 1, item + 3);
			ret = -1;
			break;
		}
		/* a statistic given twice is one column (JSON keys must
		 * be unique) */
		for (i = 0; i < o->nstats; i++)
			if (o->stats[i].kind == o->stats[o->nstats].kind &&
			    (o->stats[i].kind != STATS_NAME_PCT ||
			    o->stats[i].pct == o->stats[o->nstats].pct))
				break;
		if (i < o->nstats)
			continue;
		o->stat_names[o->nstats++] = xstrdup(item);
	}
	if (!ret && o->nstats == 0) {
		strbuf_addstr(why, "no statistics given");
		ret = -1;
	}
	o->stats_given = true;
	free(copy);
	return ret;
}

/* ------------------------------------------------------------------
 * The command line: parsing, help, rebuilding
 */

/* The common layer's callback for every analyze option: the table's
 * own checks (the ones a report spec's values go through too). */
static int
opt_set(const struct parseopt *popt, const char *arg, struct strbuf *why)
{
	return analyze_option_set(popt->data, popt->value, arg, why);
}

/* The table in the layer's terms (popts holds ARRAY_SIZE(options) + 1):
 * every option a callback into o (NULL: for help only); metric_help: what --help says of
 * --metric (the metrics' names, built when help is printed). */
static void
layer_table(struct analyze_opts *o, struct parseopt *popts,
    const char *metric_help)
{
	size_t i;

	memset(popts, 0, (ARRAY_SIZE(options) + 1) * sizeof(*popts));
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const struct analyze_option *opt = &options[i];
		struct parseopt *p = &popts[i];

		p->kind = PARSEOPT_CALLBACK;
		p->name = opt->name;
		p->argh = opt->arg;
		p->help = opt->id == ANALYZE_OPT_METRIC ? metric_help :
		    opt->help;
		p->value = o;
		p->cb = opt_set;
		p->data = opt;
		if (opt->type == ANALYZE_ARG_FLAG)
			p->flags |= PARSEOPT_NOARG;
		if (opt->type == ANALYZE_ARG_WHERE)
			p->flags |= PARSEOPT_WHY_ONLY | PARSEOPT_MANY;
		if (opt->id == ANALYZE_OPT_METRIC)
			p->flags |= PARSEOPT_REQUIRED;
		/* a verb's own option: its verb's usage line names it */
		if (!opt->help)
			p->flags |= PARSEOPT_HIDDEN;
	}
}

int
analyze_opts_parse(struct analyze_opts *o, int argc, char **argv,
    void (*help)(FILE *fp))
{
	struct parseopt popts[ARRAY_SIZE(options) + 1];
	struct parseopt_cmd cmd;
	enum parseopt_result r;
	int nargs;

	layer_table(o, popts, "");
	memset(&cmd, 0, sizeof(cmd));
	cmd.name = "analyze";
	cmd.args = "ARG...";
	cmd.opts = popts;
	cmd.help = help;
	/* options may follow the verb's arguments */
	r = parseopt(&cmd, argc, argv, &nargs);
	if (r == PARSEOPT_HELP)
		return -2;
	return r == PARSEOPT_OK ? nargs : -1;
}

void
analyze_opts_usage(struct strbuf *sb)
{
	struct parseopt popts[ARRAY_SIZE(options) + 1];
	struct parseopt_cmd cmd;

	layer_table(NULL, popts, "");
	memset(&cmd, 0, sizeof(cmd));
	cmd.name = "analyze <verb>";
	cmd.args = "[ARG...]";
	cmd.opts = popts;
	parseopt_usage(&cmd, sb);
}

void
analyze_opts_help(struct strbuf *sb)
{
	struct parseopt popts[ARRAY_SIZE(options) + 1];
	struct strbuf metrics = STRBUF_INIT;

	metric_names_join(&metrics, ", ");
	layer_table(NULL, popts, metrics.buf);
	parseopt_help_options(popts, sb);
	strbuf_release(&metrics);
}

static void
argv_add(char ***argv, size_t *argc, size_t *alloc, const char *s)
{
	ALLOC_GROW(*argv, *argc + 2, *alloc);
	(*argv)[(*argc)++] = xstrdup(s);
	(*argv)[*argc] = NULL;
}

/* --where, once per key: alternatives of one key sit next to each other
 * (where_add splits them), and join again as K=V1,V2. */
static void
argv_where(const struct where *w, char ***argv, size_t *argc,
    size_t *alloc)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < w->n; i++) {
		if (i && !strcmp(w->items[i].key, w->items[i - 1].key)) {
			strbuf_addf(&sb, ",%s", w->items[i].value);
		} else {
			if (sb.len) {
				argv_add(argv, argc, alloc, "--where");
				argv_add(argv, argc, alloc, sb.buf);
			}
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s=%s", w->items[i].key,
			    w->items[i].value);
		}
	}
	if (w->n) {
		argv_add(argv, argc, alloc, "--where");
		argv_add(argv, argc, alloc, sb.buf);
	}
	strbuf_release(&sb);
}

char **
analyze_opts_argv(const struct analyze_opts *o, const char *verb,
    size_t nargs, char *const *args, size_t *argc)
{
	char **argv = NULL;
	size_t n = 0, alloc = 0, i;
	struct strbuf name = STRBUF_INIT, value = STRBUF_INIT;

	argv_add(&argv, &n, &alloc, "pathstat");
	argv_add(&argv, &n, &alloc, "analyze");
	argv_add(&argv, &n, &alloc, verb);
	if (o->db_path) {
		argv_add(&argv, &n, &alloc, "--db");
		argv_add(&argv, &n, &alloc, o->db_path);
	}
	for (i = 0; i < ARRAY_SIZE(options); i++) {
		const struct analyze_option *opt = &options[i];
		bool given = o->given & (UINT32_C(1) << opt->id);

		if (opt->id == ANALYZE_OPT_DB)
			continue;
		if (opt->type == ANALYZE_ARG_WHERE) {
			argv_where(&o->where, &argv, &n, &alloc);
			continue;
		}
		if ((opt->emit == ANALYZE_EMIT_WITH_CI && !o->ci) ||
		    (opt->emit == ANALYZE_EMIT_SET && !given))
			continue;
		strbuf_reset(&value);
		if (!opt->get(opt, o, &value))
			continue;
		strbuf_reset(&name);
		strbuf_addf(&name, "--%s", opt->name);
		argv_add(&argv, &n, &alloc, name.buf);
		if (opt->type != ANALYZE_ARG_FLAG)
			argv_add(&argv, &n, &alloc, value.buf);
	}
	for (i = 0; i < nargs; i++)
		argv_add(&argv, &n, &alloc, args[i]);
	strbuf_release(&name);
	strbuf_release(&value);
	*argc = n;
	return argv;
}

void
analyze_argv_free(char **argv, size_t argc)
{
	size_t i;

	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}
