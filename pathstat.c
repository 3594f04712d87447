/*
 * pathstat.c - main(): global options, the subcommand table and the
 * exit-status policy (git's git.c, got's got.c).
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <sqlite3.h>

#include "analyze/options.h"
#include "analyze/analyze.h"
#include "check/check.h"
#include "cmds.h"
#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/version.h"
#include "common/xalloc.h"
#include "export/export.h"
#include "ingest/ingest.h"

struct pathstat_cmd {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*summary;
};

/* Sorted by name; matched exactly, never by prefix. */
static const struct pathstat_cmd commands[] = {
	{ "analyze",	cmd_analyze,	"percentiles, deltas, ratios, trial spread, comparisons" },
	{ "check",	cmd_check,	"measurement hygiene: pitfalls before they reach an article" },
	{ "export",	cmd_export,	"Parquet for Athena, Trino, Spark and DuckDB, and their DDL" },
	{ "ingest",	cmd_ingest,	"load a synced results tree into the database" },
	{ "keys",	cmd_keys,	"the keys and values --where and --by can take, with run counts" },
	{ "plan",	cmd_plan,	"the trials and samples a campaign needs, before it runs" },
	{ "report",	cmd_report,	"an article bundle: index.md, tables, gnuplot charts" },
	{ "runs",	cmd_runs,	"list the runs in the database" },
};

static void
usage(FILE *fp)
{
	size_t i;

	fprintf(fp,
	    "usage: pathstat [--version] [--help] <command> [<args>]\n"
	    "\n"
	    "Turn raw network benchmark results (iperf3, oha, pathprobe) into\n"
	    "a SQLite database and article-ready numbers.\n"
	    "\n"
	    "commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "   %-10s %s\n", commands[i].name,
		    commands[i].summary);
	fprintf(fp,
	    "\n"
	    "'pathstat <command> --help' describes one command, as does\n"
	    "pathstat-<command>(1); the overview is pathstat(1).\n"
	    "The database is --db FILE, else $PATHSTAT_DB, else ./pathstat.db.\n");
}

/*
 * "unknown command 'X'", with the command it is a near miss of, then the
 * usage; returns the usage exit code.
 */
static int
unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	strbuf_addf(&sb, "pathstat: unknown command '%s'", name);
	suggest_append(&sb, name, names, ARRAY_SIZE(names));
	fprintf(stderr, "%s\n\n", sb.buf);
	strbuf_release(&sb);
	usage(stderr);
	return PATHSTAT_EXIT_USAGE;
}

/*
 * pathstat --list WHAT: the names of one registry, one per line, for the
 * completion, the manual pages and the tests that hold them to the
 * program (as git --list-cmds): commands, verbs (analyze's), metrics,
 * checks or kinds (the input formats ingest knows, as files.kind names
 * them).  A maintainer's tool: not in the usage.  Returns the exit
 * code.
 */
static int
list_names(const char *what)
{
	size_t i, n;

	if (!what) {
		what = "";
	} else if (!strcmp(what, "commands")) {
		for (i = 0; i < ARRAY_SIZE(commands); i++)
			printf("%s\n", commands[i].name);
	} else if (!strcmp(what, "verbs")) {
		const char *v;

		for (i = 0; (v = analyze_verb_name(i)); i++)
			printf("%s\n", v);
	} else if (!strcmp(what, "metrics")) {
		const struct metric *m = metric_list(&n);

		for (i = 0; i < n; i++)
			printf("%s\n", m[i].name);
	} else if (!strcmp(what, "kinds")) {
		const char *k;

		for (i = 1; (k = ingest_kind_at(i)); i++)
			printf("%s\n", k);
	} else if (!strcmp(what, "checks")) {
		const struct check_info *c = check_list(&n);

		for (i = 0; i < n; i++)
			printf("%s\n", c[i].id);
	} else {
		what = "";
	}
	if (!*what) {
		fprintf(stderr, "usage: pathstat --list "
		    "commands|verbs|metrics|checks|kinds\n");
		return PATHSTAT_EXIT_USAGE;
	}
	return err_finish_stdout() ? PATHSTAT_EXIT_FAIL : PATHSTAT_EXIT_OK;
}

static cJSON_Hooks json_hooks = { xmalloc, free };

int
main(int argc, char **argv)
{
	const char *name;
	size_t i;
	int ret;

	err_watch_stdout();
	if (argc < 2) {
		usage(stderr);
		return PATHSTAT_EXIT_USAGE;
	}
	/* cJSON's allocations die like ours on exhaustion: a full memory is
	 * "out of memory", never "invalid JSON" */
	cJSON_InitHooks(&json_hooks);
	/* analyze --sql prints export's queries; analyze does not link to
	 * export (the folders stay a DAG, t0310) */
	analyze_sql_install(&export_sql_printer);
	name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "-V") ||
	    !strcmp(name, "version")) {
		/* the schema named: a database this binary writes is
		 * refused by a binary whose schema is older */
		printf("pathstat %s (schema %d, sqlite %s)\n",
		    PATHSTAT_VERSION, db_schema_version(),
		    sqlite3_libversion());
		return err_finish_stdout() ? PATHSTAT_EXIT_FAIL : PATHSTAT_EXIT_OK;
	}
	if (!strcmp(name, "--list"))
		return list_names(argc == 3 ? argv[2] : NULL);
	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    !strcmp(name, "help")) {
		if (!strcmp(name, "help") && argc > 2) {
			for (i = 0; i < ARRAY_SIZE(commands); i++) {
				if (!strcmp(argv[2], commands[i].name)) {
					char help[] = "--help";
					char *args[] = { argv[2], help, NULL };

					ret = commands[i].fn(2, args);
					if (err_finish_stdout() &&
					    ret == PATHSTAT_EXIT_OK)
						ret = PATHSTAT_EXIT_FAIL;
					return ret;
				}
			}
			/* help for a command that does not exist is no help */
			return unknown_command(argv[2]);
		}
		usage(stdout);
		return err_finish_stdout() ? PATHSTAT_EXIT_FAIL : PATHSTAT_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(name, commands[i].name))
			continue;
		ret = commands[i].fn(argc - 1, argv + 1);
		/* a lost stdout is a failure, even after check's findings */
		if (err_finish_stdout() && ret != PATHSTAT_EXIT_USAGE)
			ret = PATHSTAT_EXIT_FAIL;
		return ret;
	}
	if (name[0] != '-')
		return unknown_command(name);
	fprintf(stderr, "pathstat: unknown option '%s'\n\n", name);
	usage(stderr);
	return PATHSTAT_EXIT_USAGE;
}
