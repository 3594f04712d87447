/*
 * report.c - `pathstat report --spec FILE --out DIR`: read the spec,
 * open the database read-only, write every section's table and chart
 * into the bundle folder, then index.md and provenance.json.  Missing
 * gnuplot is a warning (scripts and data are still written), not an
 * error.
 */
#include "common/compat.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/pooling.h"
#include "analyze/runmemo.h"
#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/exit.h"
#include "common/keycat.h"
#include "common/parseopt.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/version.h"
#include "common/xalloc.h"
#include "report/autospec.h"
#include "report/html.h"
#include "report/internal.h"
#include "report/report.h"
#include "stats/verdict.h"

/* Ask gnuplot its version; on failure say why in b->gnuplot_missing. */
static void
probe_gnuplot(struct report_bundle *b)
{
	struct report_run_result res;
	char *argv[3];
	char opt[] = "--version";

	argv[0] = (char *)report_gnuplot_program();
	argv[1] = opt;
	argv[2] = NULL;
	if (report_run_program(-1, argv, b->timeout_s, &res) == 0) {
		size_t len = strcspn(res.err.buf, "\r\n");

		b->gnuplot_version = xstrndup(res.err.buf, len);
		b->render = true;
	} else if (res.exec_errno) {
		b->gnuplot_missing = xasprintf("'%s' cannot be run: %s",
		    argv[0], strerror(res.exec_errno));
	} else {
		b->gnuplot_missing = xasprintf("'%s --version' %s", argv[0],
		    res.timed_out ? "timed out" : "failed");
	}
	report_run_result_release(&res);
}

/* Write every section below s; returns the number that failed. */
static size_t
walk(struct report_bundle *b, struct report_section *s)
{
	size_t i, bad = 0;

	for (i = 0; i < s->nchildren && !report_interrupted(); i++) {
		struct report_section *c = &s->children[i];

		switch (c->type) {
		case REPORT_SEC_GROUP:
			report_section_heading(&b->index, c);
			bad += walk(b, c);
			break;
		case REPORT_SEC_TEXT:
			report_section_heading(&b->index, c);
			break;
		case REPORT_SEC_VERB:
		case REPORT_SEC_PIVOT:
		case REPORT_SEC_CALENDAR:
			if (report_section_table(b, c)) {
				report_failed_marker(b, c, &b->index);
				bad++;
			}
			break;
		case REPORT_SEC_CHART:
			if (report_check_paths(b, c)) {
				report_failed_marker(b, c, &b->index);
				bad++;
				break;
			}
			report_section_heading(&b->index, c);
			if (report_chart_write(b, c, NULL, ++b->nfiles_no)) {
				report_failed_marker(b, c, &b->index);
				bad++;
			}
			break;
		}
	}
	return bad;
}

/* A spec whose top-level where names a period (day, week, month) says
 * so under the intro: texts written for the whole database (--init's
 * "21 days") do not, and the weeks and trend read the time before it. */
static void
index_period(const struct report_spec *spec, struct strbuf *md)
{
	const struct report_section *r = &spec->root;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < r->nwhere; i++) {
		const char *k = r->where[i].key;

		if (*r->where[i].value && (!strcmp(k, "day") ||
		    !strcmp(k, "week") || !strcmp(k, "month")))
			strbuf_addf(&sb, "%s%s=%s", sb.len ? ", " : "", k,
			    r->where[i].value);
	}
	if (sb.len) {
		strbuf_addstr(md, "\n**Period:** ");
		escape_md(md, sb.buf);
		strbuf_addstr(md, ". The tables hold that period; the weeks "
		    "and trend tables also hold the time before it, the "
		    "context their verdicts need: the previous week of a "
		    "week-over-week change, the level a step in the period "
		    "leaves.\n");
	}
	strbuf_release(&sb);
}

static void
index_head(struct report_bundle *b)
{
	struct report_spec *spec = b->spec;
	struct strbuf *md = &b->index;
	size_t i;

	strbuf_addstr(md, "# ");
	escape_md(md, spec->title);
	strbuf_addch(md, '\n');
	for (i = 0; i < spec->nintro; i++) {
		strbuf_addch(md, '\n');
		report_md_paragraph(md, spec->intro[i]);
		strbuf_addch(md, '\n');
	}
	index_period(spec, md);
}

static void
index_tail(struct report_bundle *b, const char *hash)
{
	struct strbuf *md = &b->index;

	report_methods_render(b->methods, md);
	strbuf_addstr(md, "\n---\n\n_Made by pathstat ");
	escape_md(md, PATHSTAT_VERSION);
	if (b->spec->generated) {
		strbuf_addstr(md, " from a spec it made from the database "
		    "(`pathstat report --init` prints it, to edit)");
	} else {
		/* a code span: strip backquotes so it cannot end early; the
		 * file's name only, as published pages go elsewhere (where
		 * it was is in provenance.json) */
		const char *p = strrchr(b->spec->file, '/');

		strbuf_addstr(md, " from the spec `");
		for (p = p && p[1] ? p + 1 : b->spec->file; *p; p++)
			strbuf_addch(md, *p == '`' || *p == '\n' ? '?' : *p);
		strbuf_addch(md, '`');
	}
	strbuf_addstr(md, " and a database with content hash `");
	strbuf_addstr(md, hash ? hash : "unknown");
	strbuf_addstr(md, "`. [provenance.json](provenance.json) lists the "
	    "versions and the commands that print every table again; each "
	    "chart's `.gp` script and `.dat` data sit beside its images in "
	    "[charts/](charts/)._\n");
	report_footnotes_render(&b->fn, md);
}

/* The spec made from the database (autospec.c), as a PATHSTAT_EXIT_*
 * code: an unknown --baseline is a usage error. */
static int
made_spec(const char *db_path, const char *baseline, struct report_spec *spec,
    char **text)
{
	int rc = report_autospec_spec(db_path, baseline, spec, text);

	return rc == 0 ? PATHSTAT_EXIT_OK : rc == -2 ? PATHSTAT_EXIT_USAGE :
	    PATHSTAT_EXIT_FAIL;
}

/* Open the database and the bundle folder for b (spec, dir and db_path
 * set), and find gnuplot unless no_render.  Returns 0, or -1 after
 * printing; *prev gets the previous bundle's provenance or NULL. */
/*
 * A report reads the same runs' pages again and again: each section,
 * chart and check selects its runs and their summaries through the
 * database again (an 84-day team campaign: 38 MB, read 335,000 times
 * a 4 KiB page from a reader's 2 MiB cache).  The report's connection
 * keeps up to 64 MiB of pages (only what it reads is allocated), and
 * in WAL mode reads in one transaction: one snapshot for every memo
 * (runsel.h, runmemo.h: the database must not change while they are
 * on) and one lock, not a lock and unlock of the file for each of
 * 70,000 statements.  A WAL reader does not hold back a writer (in a
 * rollback journal it would, so there each statement reads alone).
 * PATHSTAT_DEBUG_NO_READ_CACHE: as any reader, for a test that
 * compares the two bundles.
 */
static void
read_cache(sqlite3 *db)
{
	sqlite3_stmt *st;
	bool wal = false;

	if (getenv("PATHSTAT_DEBUG_NO_READ_CACHE"))
		return;
	(void)db_exec(db, "set cache size", "PRAGMA cache_size = -65536");
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st,
	    NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW)
		wal = !strcmp((const char *)sqlite3_column_text(st, 0) ?
		    (const char *)sqlite3_column_text(st, 0) : "", "wal");
	sqlite3_finalize(st);
	if (wal)
		(void)db_exec(db, "begin reading", "BEGIN");
}

/* PATHSTAT_DEBUG_PAGES: the pages read into the cache so far. */
static void
debug_pages(sqlite3 *db)
{
	int cur = 0, hi = 0;

	if (!getenv("PATHSTAT_DEBUG_PAGES"))
		return;
	sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 0);
	fprintf(stderr, "pathstat report: debug: %d database pages read\n",
	    cur);
}

static int
bundle_start(struct report_bundle *b, bool force, bool no_render,
    cJSON **prev)
{
	b->timeout_s = report_gnuplot_timeout();
	b->prov_tables = cJSON_CreateArray();
	b->prov_charts = cJSON_CreateArray();
	b->db = db_open_readonly(b->db_path);
	if (b->db) {
		report_signals_install(b->db);
		read_cache(b->db);
	}
	if (!b->db || report_bundle_prepare(b, force, prev))
		return -1;
	if (!no_render)
		probe_gnuplot(b);
	return 0;
}

/* What was written, on stderr: charts left unrendered, then the counts
 * and the time since t0. */
static void
report_summary(const struct report_bundle *b, bool no_render,
    const struct timespec *t0, size_t bad)
{
	struct timespec t1;

	if (!no_render && b->gnuplot_missing && b->ncharts)
		warning("charts not rendered: %s; the bundle has each chart's "
		    ".gp script and .dat data, and index.md says how to render "
		    "them (Debian: sudo apt-get install gnuplot-nox)",
		    b->gnuplot_missing);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	note("wrote %s/index.md: %zu table%s, %zu chart%s (%zu rendered), "
	    "%zu footnote%s in %.2f s%s", b->dir, b->ntables,
	    b->ntables == 1 ? "" : "s", b->ncharts, b->ncharts == 1 ? "" : "s",
	    b->nrendered, b->fn.n, b->fn.n == 1 ? "" : "s",
	    (double)(t1.tv_sec - t0->tv_sec) +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e9, bad ? "; with errors" :
	    "");
	if (b->nmissing)
		warning("%zu section%s could not be made; index.md marks "
		    "%s place", b->nmissing, b->nmissing == 1 ? "" : "s",
		    b->nmissing == 1 ? "its" : "their");
}

/* gnuplot runs at once: jobs (--jobs), else one per online CPU but at
 * most REPORT_DEFAULT_JOBS. */
static size_t
default_jobs(long jobs)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (jobs > 0)
		return (size_t)jobs;
	if (n < 1)
		return 1;
	return n > REPORT_DEFAULT_JOBS ? REPORT_DEFAULT_JOBS : (size_t)n;
}

/* The command line of `pathstat report`. */
struct report_cli {
	const char	*db_opt, *spec_file, *out, *baseline;
	bool		html, force, no_render, no_checks, init;
	long		jobs;		/* --jobs, or 0: one per CPU */
};

/*
 * Parse argv into cli: the option table is also the --help (and the
 * completion's list).  true to go on; false after --help or a usage
 * error, with the exit code in *ret.
 */
static bool
report_parse(struct report_cli *cli, int argc, char **argv, int *ret)
{
	const struct parseopt opts[] = {
		OPT_STRING(0, "spec", &cli->spec_file, "FILE", "the report "
		    "spec (JSON; see docs/report.md); default: one made from "
		    "the database"),
		OPT_STRING(0, "out", &cli->out, "DIR", "the bundle folder "
		    "(required unless --init): created, empty, or a "
		    "previous bundle"),
		OPT_FLAG(0, "init", &cli->init, "print the spec made from the "
		    "database (to edit) and write no bundle"),
		OPT_STRING(0, "baseline", &cli->baseline, "PATH", "the path "
		    "the made spec's deltas subtract"),
		OPT_FLAG(0, "html", &cli->html, "also write DIR/index.html: "
		    "the same report as one self-contained page (charts, "
		    "styles and table data inside; opens offline)"),
		OPT_FLAG(0, "force", &cli->force, "write into a folder that "
		    "holds other files (they are left alone; same-named "
		    "files are replaced)"),
		OPT_FLAG(0, "no-render", &cli->no_render, "write the .gp and "
		    ".dat files, do not run gnuplot"),
		OPT_FLAG(0, "no-checks", &cli->no_checks, "no footnotes from "
		    "the hygiene checks (pathstat check runs under each "
		    "table's filters and its findings become footnotes on "
		    "the cells they concern)"),
		OPT_INT(0, "jobs", &cli->jobs, "N", 1, REPORT_MAX_JOBS,
		    "run up to N gnuplot programs at once (default: one per "
		    "online CPU, at most 8); the bundle is the same for every "
		    "N"),
		OPT_DB(&cli->db_opt),
		OPT_END(),
	};
	/* --out is required, but not with --init (which writes no bundle) */
	static const char *const forms[] = {
		"+out -init",
		"+init -spec -out -html -force -no-render -no-checks -jobs",
		NULL,
	};
	const struct parseopt_cmd cmd = {
		.name = "report",
		.forms = forms,
		.intro =
		    "Write an article-ready bundle: DIR/index.md (GitHub-"
		    "flavoured Markdown), every table as Markdown and CSV in "
		    "DIR/tables, every chart as a gnuplot script, its data, "
		    "PNG and SVG in DIR/charts, and DIR/provenance.json "
		    "(versions, the database's content hash, the spec, the "
		    "commands that reproduce each table).\n\n"
		    "Without --spec, the bundle shows what the database "
		    "holds: per study, each metric's percentiles and ECDF, "
		    "deltas against the --baseline path, the spread between "
		    "trials, and comparisons across days and instance types "
		    "where those vary.  --init prints that spec, to edit and "
		    "give back with --spec.",
		.outro =
		    "gnuplot runs as a program (no shell) from DIR/charts; "
		    "$PATHSTAT_GNUPLOT names another binary, "
		    "$PATHSTAT_GNUPLOT_TIMEOUT its time limit in seconds "
		    "(default 60).  Without gnuplot the command still "
		    "succeeds and index.md says how to render the charts.",
		.opts = opts,
	};
	enum parseopt_result pr;
	int nargs;

	pr = parseopt(&cmd, argc, argv, &nargs);
	*ret = PATHSTAT_EXIT_USAGE;
	if (pr != PARSEOPT_OK)
		*ret = parseopt_exit(pr);
	else if (cli->init && (cli->spec_file || cli->out))
		parseopt_usage_error(&cmd, "--init prints the spec made "
		    "from the database; it takes no %s", cli->spec_file ?
		    "--spec" : "--out");
	else if (cli->spec_file && cli->baseline)
		parseopt_usage_error(&cmd, "--baseline is for the spec "
		    "made from the database; a spec of your own names its "
		    "delta pairs");
	else if (!cli->init && !cli->out)
		parseopt_usage_error(&cmd, "--out DIR is required");
	else if (!cli->init && !*cli->out)
		parseopt_usage_error(&cmd, "--out: empty folder name");
	else
		*ret = PATHSTAT_EXIT_OK;
	return *ret == PATHSTAT_EXIT_OK && pr == PARSEOPT_OK;
}

/*
 * Start (on) or end the memos of trend's tests: each series draws the
 * same normals (PATHSTAT_DEBUG_NO_NOISE_MEMO: each drawn again) and
 * points of the same size are weighed alike (PATHSTAT_DEBUG_NO_MJ_MEMO:
 * each weighed again).
 */
static void
trend_memos(bool on)
{
	if (on) {
		stats_trend_noise_memo_begin(
		    !getenv("PATHSTAT_DEBUG_NO_NOISE_MEMO"));
		stats_trend_mj_memo_begin(!getenv("PATHSTAT_DEBUG_NO_MJ_MEMO"));
		return;
	}
	stats_trend_noise_memo_end();
	stats_trend_mj_memo_end();
}

/*
 * The counts of the report's memos, each printed at its end when its
 * variable is set (tests read them to see a memo do its work):
 * "pathstat report: debug: <n> <what>[, <m> <what2>]", in this order.
 */
struct debug_count {
	const char	*env;	/* PATHSTAT_DEBUG_<NAME> asks for the line */
	void		(*two)(unsigned long *, unsigned long *);
				/* the two counts, or NULL: one() */
	unsigned long	(*one)(void);	/* the one count */
	const char	*what;	/* what the first count counts */
	const char	*what2;	/* the second's, with two() */
};

static const struct debug_count debug_counts[] = {
	{ "PATHSTAT_DEBUG_NOISE", stats_trend_noise_memo_counts, NULL,
	    "normal draws made", "replayed" },
	{ "PATHSTAT_DEBUG_MJ", stats_trend_mj_memo_counts, NULL,
	    "point weight sets computed", "reused" },
	{ "PATHSTAT_DEBUG_POOLING", pooling_runs_memo_counts, NULL,
	    "pooling scans joined the keys", "looked them up" },
	{ "PATHSTAT_DEBUG_RUNSEL", runsel_memo_counts, NULL,
	    "run selections read", "replayed" },
	{ "PATHSTAT_DEBUG_TABLES", report_table_memo_counts, NULL,
	    "tables built", "copied" },
	{ "PATHSTAT_DEBUG_TAGKEYS", NULL, pooling_tag_key_reads,
	    "tag key queries", NULL },
	{ "PATHSTAT_DEBUG_RUNS", run_memo_counts, NULL,
	    "runs' trial data read", "from the memo" },
	{ "PATHSTAT_DEBUG_KEYCAT", NULL, keycat_queries,
	    "key catalogue queries", NULL },
	{ "PATHSTAT_DEBUG_TREND", analyze_trend_memo_counts, NULL,
	    "trend series tested", "from the memo" },
};

/* The debug_counts[] lines asked for; before pooling's memos end (their
 * ends clear their counts; the others' counts outlive them). */
static void
debug_counts_print(void)
{
	unsigned long a, b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(debug_counts); i++) {
		const struct debug_count *d = &debug_counts[i];

		if (!getenv(d->env))
			continue;
		if (d->two) {
			d->two(&a, &b);
			fprintf(stderr, "pathstat report: debug: %lu %s, "
			    "%lu %s\n", a, d->what, b, d->what2);
		} else {
			fprintf(stderr, "pathstat report: debug: %lu %s\n",
			    d->one(), d->what);
		}
	}
}

/*
 * Write the bundle for cli (spec loaded into spec) into b: every
 * section, index.md (and index.html), provenance.json, then the whole
 * bundle in place of the previous one.  An exit code.
 */
static int
report_make(struct report_bundle *b, const struct report_cli *cli,
    struct report_spec *spec, int argc, char **argv,
    const struct timespec *t0)
{
	cJSON *prev = NULL;
	char *hash = NULL;
	size_t bad;
	bool committed = false;

	b->spec = spec;
	b->dir = cli->out;
	b->html = cli->html;
	b->checks = !cli->no_checks;
	b->max_jobs = default_jobs(cli->jobs);
	if (bundle_start(b, cli->force, cli->no_render, &prev)) {
		cJSON_Delete(prev);
		return PATHSTAT_EXIT_FAIL;
	}
	index_head(b);
	b->head_len = b->index.len;
	/* every section validates against the same read-only database:
	 * its keys and values are read once */
	keycat_memo_begin(b->db);
	/* PATHSTAT_DEBUG_NO_TREND_MEMO: each series tested again (a test
	 * compares the two bundles) */
	if (!getenv("PATHSTAT_DEBUG_NO_TREND_MEMO"))
		analyze_trend_memo_begin();
	trend_memos(true);
	/* sections, charts and checks select the same runs again and again
	 * (PATHSTAT_DEBUG_NO_RUNSEL_MEMO: each read from the database, for
	 * a test that compares the two bundles) */
	runsel_memo_begin(!getenv("PATHSTAT_DEBUG_NO_RUNSEL_MEMO"));
	/* ... and build the same tables (PATHSTAT_DEBUG_NO_TABLE_MEMO:
	 * each built again) */
	report_table_memo_begin(!getenv("PATHSTAT_DEBUG_NO_TABLE_MEMO"));
	/* ... and ask for the tag keys each pooling caption may name
	 * (PATHSTAT_DEBUG_NO_TAGKEY_MEMO: each time) */
	pooling_memo_begin(getenv("PATHSTAT_DEBUG_NO_TAGKEY_MEMO") ? NULL :
	    b->db);
	/* ... and their runs' values of those keys
	 * (PATHSTAT_DEBUG_NO_POOLING_MEMO: joined for each table) */
	pooling_runs_memo_begin(getenv("PATHSTAT_DEBUG_NO_POOLING_MEMO") ?
	    NULL : b->db);
	/* ... and load the same runs' trial data for each grouping
	 * (PATHSTAT_DEBUG_NO_RUN_MEMO: each read again) */
	run_memo_begin(!getenv("PATHSTAT_DEBUG_NO_RUN_MEMO"));
	bad = walk(b, &spec->root);
	bad += report_charts_finish(b);
	keycat_memo_end();
	analyze_trend_memo_end();
	trend_memos(false);
	debug_counts_print();
	runsel_memo_end();
	report_table_memo_end();
	pooling_memo_end();
	pooling_runs_memo_end();
	run_memo_end();
	debug_pages(b->db);
	hash = report_db_hash(b->db);
	index_tail(b, hash);
	report_toc_insert(&b->index, b->head_len);
	if (report_interrupted()) {
		/* nothing is moved in: the private folder goes at release */
		error("interrupted by %s: nothing written into '%s'",
		    report_interrupted() == SIGINT ? "SIGINT" :
		    report_interrupted() == SIGTERM ? "SIGTERM" : "SIGHUP",
		    b->dir);
		bad++;
	} else if (report_bundle_write(b, "index.md", b->index.buf,
	    b->index.len) ||
	    (b->html && report_html_write(b)) ||
	    report_write_provenance(b, argc, argv))
		bad++;
	else if (report_bundle_commit(b, prev, cli->force))
		bad++;
	else
		committed = true;
	/* a refused bundle wrote nothing: it said so, and says no "wrote" */
	if (committed)
		report_summary(b, cli->no_render, t0, bad);
	cJSON_Delete(prev);
	free(hash);
	return bad ? PATHSTAT_EXIT_FAIL : PATHSTAT_EXIT_OK;
}

int
cmd_report(int argc, char **argv)
{
	struct report_cli cli;
	struct report_spec spec;
	struct report_bundle b;
	struct timespec t0;
	char *gen = NULL;
	int ret;

	err_set_prefix("pathstat report");
	memset(&cli, 0, sizeof(cli));
	memset(&b, 0, sizeof(b));
	report_bundle_init(&b);
	memset(&spec, 0, sizeof(spec));
	strbuf_init(&b.index, 0);
	report_footnotes_init(&b.fn);
	b.methods = xcalloc(1, sizeof(*b.methods));
	report_footnotes_init(b.methods);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!report_parse(&cli, argc, argv, &ret))
		goto cleanup;
	if (cli.init) {
		ret = made_spec(db_default_path(cli.db_opt), cli.baseline, NULL,
		    &gen);
		if (ret == PATHSTAT_EXIT_OK)
			fputs(gen, stdout);
		goto cleanup;
	}
	b.db_path = db_default_path(cli.db_opt);
	if (cli.spec_file)
		ret = report_spec_load(cli.spec_file, &spec) ?
		    PATHSTAT_EXIT_FAIL : PATHSTAT_EXIT_OK;
	else
		ret = made_spec(b.db_path, cli.baseline, &spec, &gen);
	if (ret == PATHSTAT_EXIT_OK)
		ret = report_make(&b, &cli, &spec, argc, argv, &t0);
cleanup:
	report_charts_release(&b);
	report_signals_unwatch();
	db_close(b.db);
	cJSON_Delete(b.prov_tables);
	cJSON_Delete(b.prov_charts);
	free(gen);
	free(b.gnuplot_version);
	free(b.gnuplot_missing);
	report_bundle_release(&b);
	strbuf_release(&b.index);
	report_footnotes_release(&b.fn);
	if (b.methods)
		report_footnotes_release(b.methods);
	free(b.methods);
	report_spec_release(&spec);
	/* the private folder is gone: now die of the signal caught, if any */
	report_signals_finish();
	return ret;
}
