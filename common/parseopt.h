/*
 * parseopt.h - one option layer for every pathstat command, in the
 * spirit of git's parse-options: a command describes its options in a
 * table (name, kind, help, range, where the value goes) and the layer
 * parses argv against it, prints --help from it and lists it for the
 * bash completion (the hidden --list-options), so an option exists once.
 */
#ifndef PATHSTAT_COMMON_PARSEOPT_H
#define PATHSTAT_COMMON_PARSEOPT_H

#include "common/compat.h"

#include <stdio.h>

struct strbuf;
struct parseopt;

/* What an option takes and where its value goes (struct parseopt.value). */
enum parseopt_kind {
	PARSEOPT_END = 0,	/* ends the table */
	PARSEOPT_FLAG,		/* bool *: set true; no argument */
	PARSEOPT_STRING,	/* const char **: the argument, borrowed from
				 * argv; the last one given wins */
	PARSEOPT_INT,		/* long *: base 10 within [min, max] */
	PARSEOPT_DOUBLE,	/* double *: a finite number in [min, max] */
	PARSEOPT_LIST,		/* struct parseopt_list *: every argument
				 * given, in order (repeatable) */
	PARSEOPT_ENUM,		/* int *: index of the argument in choices
				 * (or, with a callback, the callback) */
	PARSEOPT_CALLBACK,	/* cb decides; value is cb's */
};

/*
 * A callback checks arg (NULL for an option that takes none) and stores
 * it through opt->value; 0, or -1 with the reason in why (no prefix, no
 * option name: the layer adds them).
 */
typedef int (*parseopt_cb)(const struct parseopt *opt, const char *arg,
    struct strbuf *why);

/* Flags of one option. */
/* not in --help nor the usage line */
#define PARSEOPT_HIDDEN		0x1u
/* errors read "bad --x: why", not "bad --x 'arg': why" (the reason
 * quotes what it needs) */
#define PARSEOPT_WHY_ONLY	0x2u
/* a callback that takes no argument */
#define PARSEOPT_NOARG		0x4u
/* a callback that may be repeated: "[--x V]..." in the usage line */
#define PARSEOPT_MANY		0x8u
/* a command cannot run without it: "--x V", not "[--x V]", in the
 * usage line (the command checks that it was given) */
#define PARSEOPT_REQUIRED	0x10u

/* One option.  Build tables with the OPT_* macros below. */
struct parseopt {
	enum parseopt_kind kind;
	char		short_name;	/* 'q' for -q; 0: none */
	const char	*name;		/* "db" for --db; NULL: -x */
	const char	*argh;		/* its argument in help: "FILE";
					 * NULL for an enum: the choices
					 * joined by '|' */
	const char	*help;		/* one paragraph, wrapped by the
					 * layer; "\n" forces a break */
	void		*value;		/* where it goes: see kind */
	double		min, max;	/* INT and DOUBLE: the range */
	const char *const *choices;	/* ENUM: NULL-terminated */
	parseopt_cb	cb;		/* CALLBACK; ENUM: optional, run
					 * instead of the choice check */
	const void	*data;		/* for the callback */
	unsigned	flags;		/* PARSEOPT_* above */
};

/* The arguments a LIST option collected (borrowed from argv). */
struct parseopt_list {
	const char		**items;
	size_t			n, alloc;
};
#define PARSEOPT_LIST_INIT { NULL, 0, 0 }
void parseopt_list_release(struct parseopt_list *l);

#define OPT_END() { PARSEOPT_END, 0, NULL, NULL, NULL, NULL, 0, 0, NULL, \
	NULL, NULL, 0 }
#define OPT_FLAG(s, l, v, h) { PARSEOPT_FLAG, (s), (l), NULL, (h), (v), \
	0, 0, NULL, NULL, NULL, 0 }
#define OPT_STRING(s, l, v, a, h) { PARSEOPT_STRING, (s), (l), (a), (h), \
	(v), 0, 0, NULL, NULL, NULL, 0 }
/* a string the command cannot run without (PARSEOPT_REQUIRED) */
#define OPT_STRING_REQ(s, l, v, a, h) { PARSEOPT_STRING, (s), (l), (a), \
	(h), (v), 0, 0, NULL, NULL, NULL, PARSEOPT_REQUIRED }
#define OPT_INT(s, l, v, a, lo, hi, h) { PARSEOPT_INT, (s), (l), (a), (h), \
	(v), (lo), (hi), NULL, NULL, NULL, 0 }
#define OPT_DOUBLE(s, l, v, a, lo, hi, h) { PARSEOPT_DOUBLE, (s), (l), (a), \
	(h), (v), (lo), (hi), NULL, NULL, NULL, 0 }
#define OPT_LIST(s, l, v, a, h) { PARSEOPT_LIST, (s), (l), (a), (h), (v), \
	0, 0, NULL, NULL, NULL, 0 }
#define OPT_ENUM(s, l, v, c, h) { PARSEOPT_ENUM, (s), (l), NULL, (h), (v), \
	0, 0, (c), NULL, NULL, 0 }
#define OPT_ENUM_CB(s, l, v, c, cb, h) { PARSEOPT_ENUM, (s), (l), NULL, \
	(h), (v), 0, 0, (c), (cb), NULL, 0 }
#define OPT_CALLBACK(s, l, v, a, cb, fl, h) { PARSEOPT_CALLBACK, (s), (l), \
	(a), (h), (v), 0, 0, NULL, (cb), NULL, (fl) }

/* The options every database reader shares (runs, keys, check, ...). */
#define OPT_DB(v) OPT_STRING(0, "db", (v), "FILE", \
	"database (default $PATHSTAT_DB, else ./pathstat.db)")
/* value: struct where *; help: what the filter keeps */
#define OPT_WHERE(v, h) OPT_CALLBACK(0, "where", (v), "KEY=VALUE", \
	parseopt_where, PARSEOPT_WHY_ONLY | PARSEOPT_MANY, (h))
/* value: enum table_format * */
#define OPT_FORMAT(v) OPT_ENUM_CB(0, "format", (v), parseopt_formats, \
	parseopt_format, "text (default on a terminal), md (default " \
	"elsewhere), csv or json")

/* --where K=V into a struct where (value). */
int parseopt_where(const struct parseopt *opt, const char *arg,
    struct strbuf *why);
/* --format into an enum table_format (value). */
int parseopt_format(const struct parseopt *opt, const char *arg,
    struct strbuf *why);
extern const char *const parseopt_formats[];

/* A command's command line. */
struct parseopt_cmd {
	const char	*name;		/* "runs": "pathstat runs" */
	const char	*args;		/* positional synopsis after the
					 * options ("PATH..."); NULL: the
					 * command takes none */
	const char	*intro;		/* help between the usage
					 * and the options; NULL */
	void		(*extra)(FILE *fp); /* printed after intro (lists
					 * of names); NULL */
	const char	*outro;		/* help after the options */
	const struct parseopt *opts;	/* ends with OPT_END() */
	unsigned	flags;		/* PARSEOPT_STOP_AT_NON_OPTION */
	const char	*args_name;	/* what the arguments are, in
					 * messages ("paths"); NULL:
					 * "arguments" */
	void		(*help)(FILE *fp); /* prints the whole --help
					 * instead of the generated one
					 * (analyze: its verbs); NULL */
	const char *const *forms;	/* NULL-terminated: one usage
					 * line each ("usage:", then
					 * "or:"), for a command whose
					 * required options depend on
					 * each other.  A form names
					 * options by long name: "+out"
					 * required, "-init" left out,
					 * the rest optional ("+out
					 * -init").  NULL: one line
					 * from PARSEOPT_REQUIRED. */
};
/*
 * Build a struct parseopt_cmd with designated initializers (.name,
 * .args, .intro, .extra, .outro, .opts, .flags, .args_name, .help).
 */
/* The first positional argument ends the options (a verb's own come
 * after it); by default options and arguments may mix, except with
 * POSIXLY_CORRECT set, where (as with getopt) the first argument ends
 * them and an option after it is a usage error ("'-q' after the paths:
 * give options before them"). */
#define PARSEOPT_STOP_AT_NON_OPTION	0x1u

/* What parseopt() found. */
enum parseopt_result {
	PARSEOPT_OK = 0,	/* parsed; *nargs positional arguments left */
	PARSEOPT_HELP,		/* --help (or --list-options) printed on
				 * stdout: exit 0 */
	PARSEOPT_ERROR,		/* one line printed on stderr: exit 2 */
};

/*
 * Parse argv[1..argc) (argv[0] is the command) against cmd's table,
 * storing each value where its option says.  The positional arguments
 * are moved to argv[0..*nargs) in their order.  -h/--help prints the
 * help; the hidden --list-options prints one line per option for the
 * completion ("--db=", "--format=text|md|csv|json", "--files", "-q").
 * A usage error prints one line, "pathstat CMD: what; see 'pathstat CMD
 * --help'", naming what exists.  Nothing is allocated but what the
 * options' own values hold (LIST items, callbacks' structures).
 */
enum parseopt_result parseopt(const struct parseopt_cmd *cmd, int argc,
    char **argv, int *nargs);

/* The exit code for a result other than PARSEOPT_OK. */
int parseopt_exit(enum parseopt_result r);

/* The help text (usage, intro, extra, options, outro) on fp. */
void parseopt_help(const struct parseopt_cmd *cmd, FILE *fp);
/* The usage line(s) alone. */
void parseopt_usage(const struct parseopt_cmd *cmd, struct strbuf *sb);
/* The option lines alone (as --help prints them). */
void parseopt_help_options(const struct parseopt *opts, struct strbuf *sb);
/* The --list-options lines. */
void parseopt_list_options(const struct parseopt *opts, FILE *fp);

/*
 * Print "pathstat CMD: <fmt>; see 'pathstat CMD --help'" on stderr as
 * one line (a usage error found after parsing); returns
 * PATHSTAT_EXIT_USAGE.
 */
int parseopt_usage_error(const struct parseopt_cmd *cmd, const char *fmt,
    ...) PATHSTAT_PRINTF(2, 3);

#endif
