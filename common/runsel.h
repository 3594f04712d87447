/*
 * runsel.h - selecting runs from the database: the one join of runs,
 * paths, conditions and files that analyze's cells, the hygiene checks
 * and report's charts read, filtered by --where and a metric, with
 * --by dimension and tag columns, in one natural order, and the path
 * order a user gave.  Rows are read one at a time (runsel_next); what a
 * row points to is valid until the next call.
 */
#ifndef PATHSTAT_COMMON_RUNSEL_H
#define PATHSTAT_COMMON_RUNSEL_H

#include "common/compat.h"

#include <sqlite3.h>

#include "common/strbuf.h"
#include "common/where.h"

struct runsel_query {
	int		metric;		/* runs that measured this metric id
					 * (their own, or samples of it);
					 * 0: every run */
	const struct where *where;	/* filters; NULL: none */
	char *const	*dims;		/* dimension keys (where.h's dim_sql:
					 * day, instance, a tag ...): one
					 * column each, ordered by (the
					 * first RUNSEL_COLUMNS; see below) */
	size_t		ndims;
	char *const	*tags;		/* tag keys read as they are (NULL
					 * when a run lacks one); not ordered
					 * by */
	size_t		ntags;
	char *const	*paths;		/* only these paths (the order is the
					 * caller's, see runsel_path_rank);
					 * NULL: all */
	size_t		npaths;
	bool		by_start;	/* runs of one trial by start time,
					 * then id (else by id) */
};

/* One run.  Strings are borrowed until the next runsel_next(). */
struct runsel_row {
	int64_t		id;		/* runs.id */
	const char	*path;		/* path ID */
	const char	*cond;		/* canonical condition ("" = none) */
	long		trial;
	const char	*tool;		/* iperf3, oha, pathprobe */
	int		metric;		/* the run's primary metric id */
	int64_t		started_at;	/* Unix seconds, INT64_MIN if unknown */
	bool		partial;	/* stored as partial */
	const char	*reason;	/* why partial, or NULL */
	int64_t		failures;	/* runs.failures */
	int64_t		attempts;	/* runs.attempts, -1 if unknown */
	const char	*file;		/* the samples' file, or NULL */
	const char	*summary_file;	/* the summaries' file, or NULL */
	const char	**dims;		/* ndims values, NULL when unset */
	const char	**tags;		/* ntags values, NULL when unset */
};

/*
 * SQLite returns at most 2,000 columns, and a database may hold more
 * tag keys than that (pooling asks about every one).  The first
 * RUNSEL_COLUMNS dimensions and tags are result columns; the rest, when
 * plain condition or tag keys, are read per run from condition_keys and
 * run_tags (the long form), and are not ordered by.
 */
#define RUNSEL_COLUMNS	200

/* A key read in the long form: its slot in row.dims (dim) or row.tags. */
struct runsel_long {
	const char	*key;		/* borrowed from the query */
	size_t		slot;
	bool		dim;		/* a condition key wins over a tag */
};

struct runsel_memo_entry;

struct runsel {
	sqlite3		*db;		/* borrowed */
	/* runsel_memo_begin(): the kept rows replayed (borrowed from the
	 * memo; no statement then) and the next one's index, or the entry
	 * being recorded (owned until runsel_memo_done) */
	const struct runsel_memo_entry *replay;
	size_t		pos;
	struct runsel_memo_entry *rec;
	sqlite3_stmt	*st;
	const struct runsel_query *q;	/* borrowed */
	struct runsel_row row;		/* the current run */
	struct runsel_long *lng;	/* sorted by key */
	size_t		nlong;
	char		**lval;		/* the current run's long values */
	sqlite3_stmt	*lst_tags, *lst_cond;
};

/*
 * Start selecting the runs of q (borrowed until runsel_close), ordered
 * by path (natural order: pathsort), condition, the dimensions, trial,
 * then start time when by_start, then id.  Returns 0, or -1 after
 * printing an error.  runsel_close() in both cases.
 */
int runsel_open(struct runsel *rs, sqlite3 *db, const struct runsel_query *q);
/* The next run into rs->row: 1, 0 when done, -1 after printing. */
int runsel_next(struct runsel *rs);
void runsel_close(struct runsel *rs);

/*
 * A memo of the run selections read to their end (runsel_memo.c), for a
 * command that selects the same runs many times from a database that
 * does not change meanwhile (a report): between begin(true) and end, a
 * runsel_open of the same SQL and path list replays the kept rows.
 * Selections with keys read in the long form are neither kept nor
 * counted.  counts: the selections read from the database and those
 * replayed since begin (begin(false) only counts).
 */
void runsel_memo_begin(bool keep);
void runsel_memo_end(void);
void runsel_memo_counts(unsigned long *read, unsigned long *replayed);
/* runsel.c's side: the entry to replay (*replay set) or to record into
 * (NULL when the memo is off); add a row to it (false: past the memo's
 * cap, drop it); done: read to its end, the memo takes it; drop: not
 * read to its end; row i of a kept entry into r (0 past its end). */
struct runsel_memo_entry *runsel_memo_open(sqlite3 *db,
    const struct runsel_query *q, const char *sql, bool *replay);
bool runsel_memo_add(struct runsel_memo_entry *e, const struct runsel_row *r);
void runsel_memo_done(struct runsel_memo_entry *e);
void runsel_memo_drop(struct runsel_memo_entry *e);
int runsel_memo_row(const struct runsel_memo_entry *e, size_t i,
    struct runsel_row *r);

/*
 * The one join, for a query that needs columns runsel_row does not have
 * (runs' table, export's fingerprints): appends " FROM runs r JOIN paths
 * p ... LEFT JOIN files sf ...", with the aliases r (runs), p (paths),
 * c (conditions), m (metrics, with RUNSEL_JOIN_METRICS), f (the
 * samples' file) and sf (the summaries' file), and no WHERE.  runsel_open
 * selects through the same join.
 */
#define RUNSEL_JOIN_METRICS	1u	/* also join metrics m (its name) */
void runsel_join_sql(struct strbuf *sql, unsigned flags);

/* Position of path in paths[0..n), or n when it is not there. */
size_t runsel_path_rank(char *const *paths, size_t n, const char *path);

#endif
