/*
 * check.h - the public face of check/: `pathstat check` and the
 * measurement hygiene findings report/ attaches to table cells by
 * (metric, path, condition).  A finding names the runs, the evidence in
 * numbers, the likely cause and what to do.  Everything else in this
 * folder is private (model.h).
 */
#ifndef PATHSTAT_CHECK_CHECK_H
#define PATHSTAT_CHECK_CHECK_H

#include "common/compat.h"

#include <sqlite3.h>

#include "common/table.h"
#include "common/where.h"
#include "stats/stats.h"

enum check_severity {
	CHECK_NOTICE,		/* state it beside the numbers */
	CHECK_WARNING		/* the numbers mislead as they stand */
};

/* One pitfall seen in one cell (or one run of it). */
struct check_finding {
	const char	*check;		/* id, e.g. "burst-cliff"; static */
	enum check_severity severity;
	char		*metric;	/* metric name; owned */
	char		*path;		/* path ID; owned */
	char		*condition;	/* canonical ("" = none); owned */
	long		trial;		/* trial, -1 = the whole cell */
	char		*scope;		/* the campaign's tags, e.g.
					 * "day=D,instance_type=T,study=S";
					 * owned */
	int64_t		*runs;		/* runs.id, ascending; owned */
	size_t		nruns;
	char		**files;	/* the runs' files, relative; owned */
	size_t		nfiles;
	char		*evidence;	/* what was seen, in numbers; owned */
	char		*cause;		/* the likely cause; owned */
	char		*action;	/* what to do; owned */
};

struct check_findings {
	struct check_finding	*items;	/* in check_list() order; within a
					 * check, by cell (run-order: by
					 * time) */
	size_t			n, alloc;
};

#define CHECK_FINDINGS_INIT { NULL, 0, 0 }

/* Which checks to run and how (NULL opts to analyze_check_opts() or
 * zeroed fields mean the defaults).  Everything is borrowed. */
struct check_opts {
	char			**only;	/* check ids to run; NULL = all */
	size_t			nonly;
	const struct stats_name	*stats;	/* percentiles few-samples judges
					 * for every metric; NULL = p99 for
					 * connect_ms, p99 and p99.9 for
					 * http_ms */
	size_t			nstats;
	/* A check that tells the same story on a path and condition in
	 * several campaigns differing only in these tags gives one finding
	 * naming them all (its scope lists each tag's values: "day=D1,D2,
	 * instance_type=T,study=S").  NULL = day and instance_type. */
	const char *const	*merge_keys;
	size_t			nmerge_keys;
	bool			per_campaign;	/* no merging at all */
	/* The caller pools cells across merge_keys (a report table does):
	 * few-samples judges the cells so pooled, not each campaign's. */
	bool			pooled;
	/* few-samples judges this metric's cells only ("connect_ms"; NULL:
	 * every metric's): a report table's notes are of its own metric,
	 * and judging the others' cells for each table was a third of the
	 * report's hygiene checks */
	const char		*metric;
};

/* One check: its id and a one-line summary (for --help and --only). */
struct check_info {
	const char		*id;
	enum check_severity	severity;
	const char		*summary;
};

/* The checks in the order they run and are reported; *n gets the count.
 * Static storage. */
const struct check_info *check_list(size_t *n);
/* "warning" or "notice"; static. */
const char *check_severity_name(enum check_severity s);

/*
 * Run every check over the runs matching w (NULL: all runs) and append
 * the findings to out (initialised with CHECK_FINDINGS_INIT).  Returns
 * 0, or -1 after printing an error (SQLite); out then holds what was
 * found before the error and must still be released.
 */
int analyze_check(sqlite3 *db, const struct where *w,
    struct check_findings *out);
/* The same with options; opts may be NULL. */
int analyze_check_opts(sqlite3 *db, const struct where *w,
    const struct check_opts *opts, struct check_findings *out);
/*
 * What analyze_check_opts() learnt of the runs under one --where, kept
 * for the next call under the same filter (a report runs the checks for
 * every table: a year's five tables ran the same checks five times).
 * The model of the runs and the findings of every check that reads no
 * option are kept; few-samples (the statistics, the pooling) and the
 * merging of campaigns (merge_keys) are redone for each call, so the
 * findings are those of an uncached call.  Valid while the database
 * does not change.
 */
struct check_cache;

/* A new, empty cache; free it with check_cache_free(). */
struct check_cache *check_cache_new(void);
/* Free c and everything it holds; NULL is fine. */
void check_cache_free(struct check_cache *c);
/* analyze_check_opts() through cache (NULL: no cache). */
int analyze_check_cached(sqlite3 *db, const struct where *w,
    const struct check_opts *opts, struct check_cache *cache,
    struct check_findings *out);
/* Free the findings' contents and re-initialise out. */
void check_findings_release(struct check_findings *out);
/*
 * Put the findings in t (initialised, empty) as one row each, columns
 * check, severity, metric, path, condition, trial (null when -1), scope,
 * runs ("12,13"), files (", "-joined), evidence, cause, action: the JSON
 * and CSV contract of `pathstat check`.
 */
void check_findings_table(const struct check_findings *f, struct table *t);

int cmd_check(int argc, char **argv);

#endif
