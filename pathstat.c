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
#include "cmds.h"
#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/version.h"
#include "common/xalloc.h"
#include "export/export.h"

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
