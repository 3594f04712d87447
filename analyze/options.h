/*
 * options.h - the options every analyze verb takes, in one table
 * (analyze/options.c): each option's name, argument, validator, the
 * field of struct analyze_opts it sets, its help text, its report spec
 * key and how it is written back into a command line.  The command
 * line of `pathstat analyze` (on the common option layer,
 * common/parseopt.h), the report spec parser and the argv
 * that provenance.json records are all driven by it, so an option and
 * its checks exist once.
 */
#ifndef PATHSTAT_ANALYZE_OPTIONS_H
#define PATHSTAT_ANALYZE_OPTIONS_H

#include "common/compat.h"

#include <stdio.h>

#include <sqlite3.h>

#include "stats/stats.h"
#include "common/table.h"
#include "common/where.h"

struct strbuf;

#define ANALYZE_MAX_STATS 32

/* The options, in the table's order (help and command-line order). */
enum analyze_opt_id {
	ANALYZE_OPT_METRIC,
	ANALYZE_OPT_WHERE,
	ANALYZE_OPT_BY,
	ANALYZE_OPT_PATHS,
	ANALYZE_OPT_STATS,
	ANALYZE_OPT_QUANTILE,
	ANALYZE_OPT_POOL,
	ANALYZE_OPT_CI,
	ANALYZE_OPT_LEVEL,
	ANALYZE_OPT_ACROSS,
	ANALYZE_OPT_ATTEMPTS,
	ANALYZE_OPT_BASELINE,
	ANALYZE_OPT_THRESHOLD,
	ANALYZE_OPT_TARGET,
	ANALYZE_OPT_SEED,
	ANALYZE_OPT_UNIT,
	ANALYZE_OPT_FORMAT,
	ANALYZE_OPT_SQL,
	ANALYZE_OPT_DB,
	ANALYZE_OPT_COUNT
};

struct analyze_opts {
	const char		*db_path;	/* --db; borrowed */
	const char		*metric;	/* --metric; borrowed */
	struct where		where;		/* --where */
	char			**by;		/* --by keys; owned */
	size_t			nby;
	char			**paths;	/* --paths order; owned */
	size_t			npaths;
	struct stats_name	stats[ANALYZE_MAX_STATS];	/* --stats */
	char			*stat_names[ANALYZE_MAX_STATS]; /* as typed;
								 * owned */
	size_t			nstats;
	enum stats_estimator	est;		/* --quantile */
	enum stats_pool		pool;		/* --pool */
	enum table_format	format;		/* --format */
	bool			ci;		/* --ci */
	double			level;		/* --level (0.95) */
	uint64_t		seed;		/* --seed */
	double			threshold_pct;	/* --threshold (compare) */
	const char		*baseline;	/* --baseline (compare);
						 * borrowed */
	double			target_pct;	/* --target (variance) */
	const char		*across;	/* --across KEY (ratio);
						 * borrowed */
	bool			attempts_all;	/* --attempts all (delta,
						 * ratio): percentiles of
						 * all attempts */
	const char		*sql;		/* --sql ENGINE: print the query
						 * instead; borrowed */
	const char		*unit;		/* --unit: the unit tables show
						 * (common/units.h), NULL or
						 * "auto": chosen from the data;
						 * borrowed */
	bool			stats_given;	/* --stats was given */
	bool			stats_resolved;	/* stats are the metric's
						 * defaults for the verb
						 * (analyze_shown_stats()) */
	const char		*stats_why;	/* ... and why, for captions;
						 * NULL: latency's plain rule
						 * (static) */
	uint32_t		given;		/* bit 1 << analyze_opt_id for
						 * each option set through the
						 * table */
};

/* How an option's argument is written (and what a report spec holds). */
enum analyze_arg {
	ANALYZE_ARG_FLAG,	/* none (spec: true or false) */
	ANALYZE_ARG_TEXT,	/* one word (spec: a string) */
	ANALYZE_ARG_NUMBER,	/* a number (spec: a number) */
	ANALYZE_ARG_LIST,	/* a comma list (spec: a string or a list
				 * of strings) */
	ANALYZE_ARG_WHERE,	/* K=V, repeatable (spec: its own form) */
};

/* When an option is written back into a command line. */
enum analyze_emit {
	ANALYZE_EMIT_ALWAYS,	/* every time (the defaults made visible) */
	ANALYZE_EMIT_SET,	/* when given and not empty */
	ANALYZE_EMIT_WITH_CI,	/* with --ci */
};

struct analyze_option {
	enum analyze_opt_id	id;
	const char		*name;	/* long option: "level" for --level */
	const char		*arg;	/* argument in help: "L"; NULL: flag */
	enum analyze_arg	type;
	/* Check text and set the field; -1 with the reason in why ("want
	 * 0.5..0.999").  value is NULL for a flag given on a command line,
	 * "true" or "false" from a spec. */
	int			(*set)(const struct analyze_option *opt,
				    struct analyze_opts *o, const char *value,
				    struct strbuf *why);
	/* The field's value as command-line text; false when there is
	 * nothing to write (an unset string). */
	bool			(*get)(const struct analyze_option *opt,
				    const struct analyze_opts *o,
				    struct strbuf *value);
	size_t			field;	/* offsetof the field it sets */
	size_t			count;	/* lists: offsetof their count */
	double			min, max; /* numbers: the accepted range */
	bool			min_open;	/* min itself is refused */
	enum analyze_emit	emit;
	const char		*help;	/* help lines, NULL: not listed */
	const char		*spec;	/* report spec key, NULL: none */
	bool			inherit; /* spec: groups pass it down */
	const char		*verbs;	/* spec: the verbs it applies to
					 * (",compare,"), NULL: all */
	const char		*no_sql; /* why --sql cannot honour it when
					 * given; NULL: it can */
};

/* The table (static storage); *n gets its size. */
const struct analyze_option *analyze_option_list(size_t *n);
/* The option with this long name or this report spec key; NULL. */
const struct analyze_option *analyze_option_find(const char *name);
const struct analyze_option *analyze_option_by_spec(const char *key);
/*
 * With --sql: the first option given that the query cannot honour (the
 * table's no_sql, --quantile hd, --format other than csv), with "--NAME:
 * reason" in why; NULL when every one is honoured.
 */
const struct analyze_option *analyze_opts_sql_conflict(
    const struct analyze_opts *o, struct strbuf *why);
/* Does opt apply to verb (a report section's)? */
bool analyze_option_for_verb(const struct analyze_option *opt,
    const char *verb);
/* Check value and set opt's field in o, marking it given; -1 with the
 * reason in why. */
int analyze_option_set(const struct analyze_option *opt,
    struct analyze_opts *o, const char *value, struct strbuf *why);

/* Defaults: type7, pooled, stats p50 p95 p99 max, 95 %, B = 2000, md. */
void analyze_opts_init(struct analyze_opts *o);
void analyze_opts_release(struct analyze_opts *o);
/* Set --stats from "p50,p95,p99,max"; -1 with the reason in why. */
int analyze_opts_set_stats(struct analyze_opts *o, const char *list,
    struct strbuf *why);
/* Set a comma list (--by) into the array and its count; -1 on a bad
 * item. */
int analyze_opts_set_list(char ***arr, size_t *n, const char *list,
    struct strbuf *why);
/* Set --paths from "A,B,..."; each ID must follow the one path-ID
 * grammar (path_id_valid(), the same as ingest's); -1 with the reason
 * in why. */
int analyze_opts_set_paths(struct analyze_opts *o, const char *list,
    struct strbuf *why);

/*
 * Parse the options of `pathstat analyze <verb>` (argv[0] is the verb;
 * options may follow the verb's arguments) on the common option layer
 * (common/parseopt.h), each through the table's own check.  Returns the
 * number of positional arguments, moved to argv[0..n); -1 after printing
 * a usage error (one line); -2 after --help (help(stdout)) or
 * --list-options.
 */
int analyze_opts_parse(struct analyze_opts *o, int argc, char **argv,
    void (*help)(FILE *fp));
/* `pathstat analyze --help` from the table, on the layer
 * (common/parseopt.h): the usage line (the verbs' own options, hidden
 * from it, are for their verbs' lines), and the option lines with
 * --metric's names. */
void analyze_opts_usage(struct strbuf *sb);
void analyze_opts_help(struct strbuf *sb);

/*
 * The argv of `pathstat analyze verb` with o's options (in the table's
 * order, --db first) and the positional args: the command that prints
 * the same table.  *argc gets the count; free with analyze_argv_free().
 */
char **analyze_opts_argv(const struct analyze_opts *o, const char *verb,
    size_t nargs, char *const *args, size_t *argc);
void analyze_argv_free(char **argv, size_t argc);

/*
 * --sql ENGINE prints the query form of a table.  export/sql.c writes it
 * from the options above: export depends on analyze, never the reverse
 * (a folder cycle, tests/cli/t0310), so main() installs
 * export's printer here before a command runs.  Without one, --sql is
 * refused as not built in.
 */
struct analyze_sql_printer {
	const char *engines;	/* as typed: "athena, trino, spark, duckdb" */
	bool (*engine_known)(const char *name);
	bool (*has_verb)(const char *verb);
	/* 0; -1 after an error; -2 after a usage error */
	int (*print)(FILE *fp, sqlite3 *db, const char *verb,
	    const struct analyze_opts *o, int nargs, char **args);
};
void analyze_sql_install(const struct analyze_sql_printer *p);
/* The installed printer, or NULL. */
const struct analyze_sql_printer *analyze_sql_printer(void);

#endif
