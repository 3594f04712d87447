/*
 * internal.h - what the parts of report/ share: the parsed spec, the
 * bundle being written, section tables and the chart writer, and
 * running gnuplot.
 */
#ifndef PATHSTAT_REPORT_INTERNAL_H
#define PATHSTAT_REPORT_INTERNAL_H

#include "common/compat.h"

#include <stdio.h>
#include <sys/types.h>

#include <cJSON.h>
#include <sqlite3.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "report/report.h"

struct analyze_opts;

/* Seconds one gnuplot run may take before it is killed. */
#define REPORT_GNUPLOT_TIMEOUT_S	60.0
/* gnuplot runs at once: the default's cap (one per CPU up to it) and
 * the most --jobs takes. */
#define REPORT_DEFAULT_JOBS	8
#define REPORT_MAX_JOBS		64
/* Largest spec file read. */
#define REPORT_SPEC_MAX_BYTES		((size_t)1 << 20)
/* Sections nest at most this deep (groups inside groups). */
#define REPORT_MAX_DEPTH		4
/* Chart sizes accepted from a spec, in pixels. */
#define REPORT_CHART_MIN_PX		200
#define REPORT_CHART_MAX_PX		4000
/* An ECDF curve keeps at most this many points (evenly thinned). */
#define REPORT_ECDF_MAX_POINTS		1000
/* At most this many lines on an ECDF and groups of bars or boxes on a
 * chart (10,000 paths timed gnuplot out, and no reader tells 10,000
 * lines apart): the rest are left out and the caption says so. */
#define REPORT_CHART_MAX_LINES		20
#define REPORT_CHART_MAX_GROUPS		40

/* ------------------------------------------------------------------
 * The spec (spec.c)
 */

enum report_sec_type {
	REPORT_SEC_GROUP,	/* a heading with sections of its own */
	REPORT_SEC_TEXT,	/* a paragraph (and optional heading) */
	REPORT_SEC_VERB,	/* one analyze verb's table */
	REPORT_SEC_PIVOT,	/* paths down, condition columns across */
	REPORT_SEC_CHART,	/* a chart with no table */
	REPORT_SEC_CALENDAR,	/* days or weeks down, paths across
				 * (month.c) */
};

/* What a calendar section shows (month.c). */
enum report_calendar {
	REPORT_CAL_DAYS,	/* each day's statistics, a column per path */
	REPORT_CAL_LOSS,	/* each day's loss %, a column per path */
	REPORT_CAL_WEEKS,	/* each path's weeks, week-over-week change */
};

enum report_chart_kind {
	REPORT_CHART_BARS,	/* grouped bars: stats or pivot columns */
	REPORT_CHART_RELATIVE,	/* each stat as % of the cell's p50 */
	REPORT_CHART_ECDF,	/* ECDF of raw samples per path, log x */
	REPORT_CHART_TIMESERIES,	/* values over time, trials overlaid */
	REPORT_CHART_BOX,	/* box of trial-level values per path */
	REPORT_CHART_DAYS,	/* a statistic per day, line per path */
	REPORT_CHART_HEATMAP,	/* a statistic per hour and day, one path
				 * (chart_heatmap.c) */
};

struct report_path {
	char	*id;		/* path ID as stored (owned) */
	char	*label;		/* human label, "" when none (owned) */
};

struct report_kv {
	char	*key;		/* owned */
	char	*value;		/* owned; may list alternatives "A,B" */
};

/* One column of a pivot table. */
struct report_pivot_col {
	char	*key;		/* CSV column key (owned) */
	char	*label;		/* Markdown header (owned) */
	char	*cond;		/* "k=v,k=v" the cell's condition holds
				 * (owned); NULL for a derived column */
	char	*stat;		/* statistic shown (owned), e.g. "p50" */
	char	derive;		/* 0, 'd' (a - b) or 'r' (a / b), or 's':
				 * static, the spec's own values */
	size_t	a, b;		/* operand columns of a derived column */
	char	*metric;	/* a condition column's own metric (owned);
				 * NULL: the section's */
	char	**vpath, **vtext; /* static: path IDs and their cell text
				 * (owned), nvalues of them */
	double	*vnum;		/* static: the value as a number, or NaN */
	size_t	nvalues;
};

struct report_chart {
	enum report_chart_kind	kind;
	char	*loc;		/* JSON location of the chart (owned) */
	char	*id;		/* file stem without number (owned) */
	char	*title;		/* chart title (owned) */
	char	*stat;		/* box, days: the statistic (owned) */
	bool	logscale;	/* log axis: x for ecdf, else y */
	long	width, height;	/* pixels; 0: the spec's default */
};

/* A footnote given in the spec (owned strings). */
struct report_note {
	char	*path;		/* NULL: any path */
	char	*condition;	/* NULL: any condition */
	long	trial;		/* 0: not about one trial */
	char	*metric;	/* NULL: any metric */
	char	*scope;		/* "k=v,k=v" a row's --by columns must match
				 * (check's findings), NULL: any */
	char	*text;
};

struct report_section {
	enum report_sec_type	type;
	char	*loc;		/* JSON location (owned): sections[2] */
	char	*id;		/* file stem (slug), or NULL for text/group */
	char	*title;		/* heading, or NULL */
	char	*text;		/* paragraph, or NULL */
	int	depth;		/* 0: top-level section */

	/* the query (verb, pivot, chart); inherited unless set */
	char	*verb;		/* analyze verb (owned); pivot: "percentiles" */
	char	*metric;	/* owned */
	struct report_kv *where;	/* filters: inherited, own (owned) */
	size_t	nwhere;
	struct report_path *paths;	/* order and labels (owned) */
	size_t	npaths;
	bool	paths_own;	/* listed by this section itself */
	struct report_kv *opts;	/* analyze options by long name
				 * ("quantile", "stats", "by", "across" ...)
				 * with their command-line text, checked by
				 * the option table: inherited, then own
				 * (owned) */
	size_t	nopts;
	char	**args;		/* verb arguments: delta pairs, ratio NUM/DEN */
	char	**arg_labels;	/* delta: label of each pair or NULL (owned) */
	size_t	nargs;

	char	*from_csv;	/* the table's rows from this CSV (an
				 * engine's result of analyze --sql), as the
				 * spec gives it, or NULL (owned) */

	enum report_calendar calendar;	/* calendar: what it shows */
	struct report_pivot_col *cols;	/* pivot columns (owned) */
	size_t	ncols;
	struct report_chart *chart;	/* chart of this section, or NULL */
	struct report_note *notes;	/* footnotes, inherited then own */
	size_t	nnotes;

	struct report_section *children;	/* group: its sections */
	size_t	nchildren;
};

struct report_spec {
	char	*file;		/* the spec's path as given (owned) */
	char	*text;		/* its bytes, NUL-terminated (owned) */
	size_t	len;
	cJSON	*json;		/* the parsed document (owned) */
	char	*title;		/* owned */
	char	**intro;	/* paragraphs (owned) */
	size_t	nintro;
	char	*font;		/* chart font family (owned) */
	long	font_size;	/* points */
	long	width, height;	/* default chart size in pixels */
	struct report_section root;	/* a group holding the sections */
	bool	generated;	/* made from the database (autospec.c), not
				 * read from a file */
	char	*baseline;	/* generated: the --baseline it was made
				 * with, or NULL (owned) */
};

/* Read and check a spec.  Returns 0, or -1 after printing
 * "FILE: LOCATION: what is wrong".  Release with report_spec_release. */
int report_spec_load(const char *file, struct report_spec *spec);
/* The same for a spec held in memory (text, NUL-terminated), called name
 * in messages. */
int report_spec_load_text(const char *name, const char *text,
    struct report_spec *spec);
void report_spec_release(struct report_spec *spec);

/* The text of the analyze option name ("stats") the section sets or
 * inherits, or NULL. */
const char *report_section_opt(const struct report_section *s,
    const char *name);

/*
 * The table of section s from its from_csv file (relative to the spec):
 * t gets analyze's columns for the section (analyze_columns()), the
 * file's rows typed as analyze types them, only the section's paths in
 * its order, and analyze's Markdown text and notes.  Returns 0, or -1
 * after "SPEC: LOCATION: from_csv 'FILE': what" (a missing column, a
 * row of another metric, estimator or pooling, a bad number, a listed
 * path without rows).
 */
int report_table_from_csv(const struct report_spec *spec,
    const struct report_section *s, const struct analyze_opts *o,
    struct table *t);

/*
 * analyze_build() through the report's table memo (tablememo.c): between
 * begin(true) and end, a build with the same verb, arguments and options
 * (every field) gets a copy of the table the first one built.  Failed
 * builds are not kept.  counts: tables built and copied since begin
 * (begin(false) only counts).
 */
int report_build(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct table *t);
/* A copy of src into dst (not initialised) with only the rows whose
 * column col holds the string value: their cells, and src's columns,
 * display texts, notes and marks. */
void report_table_rows(struct table *dst, const struct table *src, long col,
    const char *value);
void report_table_memo_begin(bool keep);
void report_table_memo_end(void);
void report_table_memo_counts(unsigned long *built, unsigned long *copied);

/* Report a problem at a spec location; returns -1. */
int report_spec_error(const struct report_spec *spec, const char *loc,
    const char *fmt, ...) PATHSTAT_PRINTF(3, 4);

/* Length of the valid UTF-8 sequence at p (1 to 4), or 0 when the bytes
 * there are not one (overlong, surrogate, past U+10FFFF, truncated). */
size_t report_utf8_len(const unsigned char *p);

/* Lowercase ASCII letters, digits and '-' from s, at most max bytes
 * (the caller frees); "x" when nothing is left. */
char *report_slug(const char *s, size_t max);

/* ------------------------------------------------------------------
 * The bundle being written (bundle.c)
 *
 * Everything is written into a private folder inside the bundle folder
 * (DIR/.pathstat-report-XXXXXX, mode 0700, made by this run), gnuplot
 * included, and moved into place at the end by renameat(): nothing is
 * ever written through a name in DIR, so a symlink, FIFO or hard link
 * planted there is replaced, never followed.  DIR is opened once and
 * every later step works relative to that descriptor; its tables/ and
 * charts/ must be real folders (a symlink there is refused).
 *
 * What the bundle owns is proven by content, not by a list: its
 * provenance.json records each file's XXH3-128 hash.  An existing file
 * is replaced without --force, and a file the new bundle no longer has
 * is removed, only when it is a regular file with exactly the bytes the
 * previous bundle recorded for it; anything else (changed by hand, never
 * written by pathstat, a link) is left alone, and replacing it needs
 * --force.  A forged provenance.json can claim only files whose bytes
 * its writer already knows, in a folder it can already write.
 */

/* One file of the bundle. */
struct report_file {
	char	*rel;		/* "index.md", "charts/01-x.png" (owned) */
	char	*hash;		/* "xxh3-128:<hex>" of its bytes, or NULL
				 * until known (gnuplot's images; owned) */
};

struct report_bundle {
	const char	*dir;		/* output folder as given */
	int		dirfd;		/* that folder, opened once, or -1 */
	char		*stage;		/* the private folder's name (owned) */
	int		stagefd;	/* the private folder, or -1 */
	int		stage_tables;	/* its tables/ and charts/, or -1 */
	int		stage_charts;
	const char	*db_path;	/* database path as used */
	sqlite3		*db;
	struct report_spec *spec;
	struct strbuf	index;		/* index.md being built */
	size_t		head_len;	/* its title and intro: the contents
					 * list goes after them (toc.c) */
	struct report_footnotes fn;	/* footnotes of index.md */
	size_t		ntables;	/* tables numbered so far */
	size_t		nfiles_no;	/* file number prefix (NN-) so far */
	size_t		ncharts;	/* figures numbered so far */
	struct report_file *files;	/* written, relative to dir (owned) */
	size_t		nfiles, alloc_files;
	cJSON		*prov_tables;	/* provenance: one entry per table */
	cJSON		*prov_charts;	/* provenance: one entry per chart */
	bool		render;		/* run gnuplot */
	bool		checks;		/* footnote pathstat check's findings */
	bool		html;		/* write index.html too (--html) */
	size_t		nchecked;	/* findings attached as notes */
	struct check_cache *check_cache;	/* the checks' runs and findings
					 * per --where, shared by the
					 * tables (owned) */
	struct report_paths_memo *paths_memo;	/* the paths with data of
					 * each metric and where, shared
					 * by the sections (owned) */
	size_t		npaths_memo, alloc_paths_memo;
	char		*gnuplot_version;	/* "gnuplot 5.4 ...", or NULL */
	char		*gnuplot_missing;	/* why it cannot run, or NULL */
	size_t		nrendered;	/* charts rendered */
	size_t		nfailed;	/* charts gnuplot failed on */
	size_t		nmissing;	/* sections that could not be made */
	struct report_footnotes *methods;	/* the Methods section's
						 * entries, M1... (owned) */
	double		timeout_s;	/* per gnuplot run */
	struct report_chart_job *jobs;	/* the charts' gnuplot runs, in
					 * the order of the charts (owned;
					 * render.c) */
	size_t		njobs, alloc_jobs;
	size_t		next_job;	/* the first not started yet */
	size_t		max_jobs;	/* gnuplot runs at once (--jobs) */
};

/* Set the descriptors of b to -1 (nothing open yet). */
void report_bundle_init(struct report_bundle *b);
/* Prepare b->dir: create it, or accept an empty folder or a previous
 * bundle (provenance.json, a regular file); refuse anything else unless
 * force, and refuse always when its tables/ or charts/ is not a real
 * folder.  Opens it and makes the private folder.  Sets *prev to the
 * previous bundle's provenance (cJSON_Delete it) or NULL. */
int report_bundle_prepare(struct report_bundle *b, bool force, cJSON **prev);
/* Write data as rel ("index.md", "tables/NAME" or "charts/NAME") into
 * the private folder and remember it for provenance.json.  Returns 0 or
 * -1 after printing. */
int report_bundle_write(struct report_bundle *b, const char *rel,
    const char *data, size_t len);
/* Remember rel as written into the private folder by someone on our
 * behalf (gnuplot's images). */
void report_bundle_add_file(struct report_bundle *b, const char *rel);
/* Append the bytes of rel, a file of this bundle written so far, to out.
 * Returns 0; -2 when the bundle has no such file; -3 when it is larger
 * than max; -1 after printing. */
int report_bundle_read(struct report_bundle *b, const char *rel, size_t max,
    struct strbuf *out);
/*
 * Move every file of the bundle into b->dir and remove the files of the
 * previous bundle (prev, or NULL) that this one did not write, by the
 * rule above.  Nothing is moved when any file would replace one that is
 * not the previous bundle's own (unless force).  Returns 0, or -1 after
 * printing.
 */
int report_bundle_commit(struct report_bundle *b, const cJSON *prev,
    bool force);
/* Remove what is left of the private folder, close the descriptors and
 * free b's file list. */
void report_bundle_release(struct report_bundle *b);
/* The database's content hash: XXH3-128 over the sorted (content hash,
 * keys, status) of every stored file, "xxh3-128:<hex>".  Caller frees;
 * NULL after printing an error. */
char *report_db_hash(sqlite3 *db);
/* Write provenance.json. */
int report_write_provenance(struct report_bundle *b, int argc, char **argv);

/* ------------------------------------------------------------------
 * Section tables (section.c; what a section says of itself, shared with
 * pivot.c, month.c and the charts: section_text.c, and its unit:
 * spec_section.c)
 */

/* Fill o from a section's query (metric, where, paths and its analyze
 * options).  Returns 0 or -1 after printing; on success the caller
 * releases o with analyze_opts_release(). */
int report_section_opts(const struct report_spec *spec,
    const struct report_section *s, struct analyze_opts *o);
/* The unit a section's spec forces ("unit", own or inherited), or NULL
 * (chosen from the data, common/units.h); borrowed. */
const char *report_section_unit(const struct report_section *s);
/* The paths with data of one metric under one where (section.c reads
 * them, bundle.c frees the memo): a report's sections ask for the same
 * ones, and reading every run of the metric for each was 3-4 % of a
 * no-spec report. */
struct report_paths_memo {
	char	*key;		/* "metric id|where_sql() text"; owned */
	char	**paths;	/* owned */
	size_t	npaths;
};
void report_paths_memo_free(struct report_bundle *b);

/* Check that every path of the section has data for its metric under
 * its where; -1 after naming the path and the section. */
int report_check_paths(struct report_bundle *b, const struct report_section *s);
/* Does section s (weeks, trend) read its where's period (day, week or
 * month) with the time before it, as report_section_opts() queries it? */
bool report_period_context(const struct report_section *s);
/* The section's where as text: "day=2026-08-28, target unset". */
void report_where_text(const struct report_section *s, struct strbuf *sb);
/* Label of path id in the section ("" when none). */
const char *report_path_label(const struct report_section *s, const char *id);

/* Append "; name = lo–hi what" (or "= lo what") to sb. */
void report_caption_range(struct strbuf *sb, const char *name, int64_t lo,
    int64_t hi, const char *what);
/* "A — Same AZ (baseline)" as Markdown (escaped here). */
void report_path_md(struct strbuf *sb, const char *id, const char *label);
/* The start of every caption: metric, unit (the table's, NULL: the
 * registry's display unit), estimator and pooling (as t's estimator
 * column names it, when t is not NULL: the tool's own numbers). */
void report_caption_method(const struct report_section *s,
    const struct analyze_opts *o, const struct table *t, const char *unit,
    struct strbuf *cap);
/* "; where day=..., target unset" when the section has a where. */
void report_caption_where(const struct report_section *s,
    struct strbuf *cap);

/* A pivot's spec columns may select by tags as well as conditions
 * ("via=nlb"): add each key of theirs that is no condition key of the
 * database to o's --by (owned there), so the percentiles table's rows
 * carry it.  Returns 0, or -1 after a database error. */
int report_pivot_by(struct report_bundle *b, const struct report_section *s,
    struct analyze_opts *o);
/*
 * Pivot tables (pivot.c): build pt from t (a percentiles table of
 * section s) and its caption.  Returns 0, or -1 after naming the spec
 * location (a column that matches two cells of one path).
 */
int report_pivot_build(struct report_bundle *b, struct report_section *s,
    const struct analyze_opts *o, const struct table *t, struct table *pt,
    struct strbuf *cap);

/*
 * Calendar tables (month.c): build pt from t (a percentiles table of
 * section s split by day, or by week) and its caption.  Returns 0, or
 * -1 after naming the spec location.
 */
int report_calendar_build(struct report_bundle *b, struct report_section *s,
    const struct analyze_opts *o, const struct table *t, struct table *pt,
    struct strbuf *cap);

/* Append text as one Markdown paragraph: escaped, on one line, and
 * unable to open a list, a heading or a code block. */
void report_md_paragraph(struct strbuf *md, const char *text);
/* Append the section's heading ("##" at depth 0, deeper below) and
 * paragraph to md, escaped. */
void report_section_heading(struct strbuf *md, const struct report_section *s);
/* Write one verb or pivot section (tables/NN-id.md + .csv, index.md,
 * provenance) and its chart.  Returns 0 or -1. */
int report_section_table(struct report_bundle *b, struct report_section *s);

/* The number n of the Methods entry (Mn) saying text, added when new
 * (footnote.c). */
size_t report_methods_ref(struct report_footnotes *m, const char *text);
/* Append the Methods section, "## Methods" and one paragraph per entry
 * (footnote.c). */
void report_methods_render(const struct report_footnotes *m,
    struct strbuf *md);

/* Append the footnote marker [^n] to the Markdown of a cell, keeping
 * the text it shows (footnote.c). */
void report_cell_mark(struct table *t, size_t row, size_t col, size_t n);

/* ------------------------------------------------------------------
 * Charts (chart_kinds.c: the kinds; chart.c: their core)
 */

/* Write the chart of section s: .dat and .gp, and queue its gnuplot
 * run and its figure in index.md (render.c).  pivot is the pivot
 * table for a bars chart on a pivot section, else NULL.  Returns 0, or
 * -1 after printing. */
int report_chart_write(struct report_bundle *b, struct report_section *s,
    const struct table *pivot, size_t no);

/*
 * The charts' gnuplot runs (render.c).  chart.c queues each chart
 * once its .gp and .dat are written: its place in index.md (the
 * index's length then), the Markdown of its figure without the number
 * (title_md, and body_md: what follows the title in the caption; both
 * taken), and what provenance.json says of it.  Up to b->max_jobs run
 * at once while the report goes on.  report_charts_finish(), after the
 * last section, waits for them and then, in the charts' order, numbers
 * the figures and puts each in its place: the figure, or where gnuplot
 * failed the section's "Missing" note; messages come in that order
 * too, so the bundle and stderr are the same whatever N is.  Returns
 * the number of sections that failed.
 */
void report_chart_queue(struct report_bundle *b, struct report_section *s,
    const char *stem, const char *kind, char *title_md, char *body_md);
size_t report_charts_finish(struct report_bundle *b);
/* Kill the runs still going (after an error) and free the queue. */
void report_charts_release(struct report_bundle *b);
/* Append to md the note that section s could not be made
 * (section_text.c). */
void report_failed_marker(struct report_bundle *b,
    const struct report_section *s, struct strbuf *md);

/* ------------------------------------------------------------------
 * Running programs (gnuplot.c)
 */

struct report_run_result {
	struct strbuf	err;		/* stdout and stderr (64 KiB at most) */
	int		exit_code;	/* exit status, 128 + signal */
	int		exec_errno;	/* errno if it did not start, or 0 */
	bool		timed_out;	/* killed after the timeout */
};

/*
 * Run argv[0] (looked up in PATH, no shell) in the folder open as dirfd
 * (-1: here) with stdin on /dev/null and stdout and stderr captured into
 * res->err; kill it after timeout_s seconds.  Returns 0 when it exited
 * 0, else -1 (res says why).  Release res with
 * report_run_result_release().
 */
int report_run_program(int dirfd, char *const argv[], double timeout_s,
    struct report_run_result *res);
void report_run_result_release(struct report_run_result *res);

/* A program running in the background: start it with
 * report_job_start(), then call report_jobs_wait() until it no longer
 * runs; res says how it went (release it). */
struct report_job {
	pid_t		pid;
	int		errfd;		/* its stdout and stderr, or -1 */
	double		deadline;	/* CLOCK_MONOTONIC seconds */
	bool		running;	/* started and not yet reaped */
	struct report_run_result res;
};
/* Start argv as report_run_program() does.  0 when it runs, else -1
 * with j->res.exec_errno set. */
int report_job_start(int dirfd, char *const argv[], double timeout_s,
    struct report_job *j);
/* Read the outputs of the n jobs, reap those that ended and kill those
 * past their deadline (all of them when interrupted).  block: return
 * once one of them has ended (or none runs); else do what can be done
 * without waiting. */
void report_jobs_wait(struct report_job *const *jobs, size_t n, bool block);
/* The private folder's name in the bundle folder: this prefix, then six
 * lower-case letters or digits. */
#define REPORT_STAGE_PREFIX	".pathstat-report-"
/*
 * Interruption (interrupt.c): SIGINT, SIGTERM and SIGHUP set a flag that
 * report_interrupted() returns (the signal, or 0) and interrupt db's
 * running statement; report_signals_finish(), once the private folder
 * is removed, re-raises the signal caught (with its default action).
 */
void report_signals_install(sqlite3 *db);
/* Before db is closed: a later signal no longer interrupts it. */
void report_signals_unwatch(void);
int report_interrupted(void);
void report_signals_finish(void);
/* Remove the private folders of interrupted reports from the folder
 * dirfd (dir in messages): our name, a real folder owned by us, and
 * unlocked (a running report holds its own); each named on stderr. */
void report_sweep_stages(int dirfd, const char *dir);
/* Remove every entry of the folder fd but folders (report/interrupt.c). */
void report_empty_dir(int fd);
/* $PATHSTAT_GNUPLOT, else "gnuplot" (borrowed). */
const char *report_gnuplot_program(void);
/* $PATHSTAT_GNUPLOT_TIMEOUT seconds, else REPORT_GNUPLOT_TIMEOUT_S. */
double report_gnuplot_timeout(void);

#endif
