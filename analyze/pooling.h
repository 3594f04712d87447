/*
 * pooling.h - naming what a cell pools: the run tags (instance type,
 * day, region, az, study, anything the user tagged) whose values differ
 * among the runs of one cell.  A table that pools two instance types or
 * three days says so, in a caption line and a pooled_over column, and
 * `check pooled-groups` tests whether the pooled groups differ more than
 * their trials do.
 */
#ifndef PATHSTAT_ANALYZE_POOLING_H
#define PATHSTAT_ANALYZE_POOLING_H

#include "common/compat.h"

#include <sqlite3.h>

#include "analyze/cells.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/where.h"

/* One key pooled in some cells. */
struct pooling_key {
	char	*key;		/* "instance_type"; owned */
	size_t	ncells;		/* cells whose runs differ in it */
	char	**values;	/* its values in those cells, sorted; owned */
	size_t	nvalues, alloc;
};

struct pooling {
	struct pooling_key *keys;	/* the candidate keys, sorted */
	size_t	nkeys;
	size_t	ncells;			/* cells of the cellset scanned */
	/* per cell, per key: its runs differ in that key */
	bool	*pooled;		/* ncells x nkeys; owned */
	/* per cell, per key: the one value its runs hold ("" when they
	 * lack the key), NULL when they differ or the cell has no runs */
	char	**value;		/* ncells x nkeys; owned */
};

/*
 * The keys a cell may pool: every run tag key but "hour" (hours of one
 * day are no grouping anyone tagged), plus "day" (a tag, else the start
 * time's day), less the keys in skip[0..nskip) (the cells' own --by
 * keys), sorted.  *out gets an array of owned strings.  Returns the
 * count, or -1 after printing an error.
 */
int pooling_candidates(sqlite3 *db, char *const *skip, size_t nskip,
    char ***out);

/* While a command reads a database that does not change (a report),
 * pooling_candidates() reads its tag keys once: between begin(db) and
 * end, from memory after the first time.  reads: the queries since
 * begin. */
void pooling_memo_begin(sqlite3 *db);
void pooling_memo_end(void);
unsigned long pooling_tag_key_reads(void);

/* ... and pooling_scan() reads every run's value of every candidate key
 * once, in one pass over all the runs of db (between begin(db) and end;
 * begin(NULL): each scan joins them for its own runs).  counts: the
 * scans that joined them, and those that looked them up. */
void pooling_runs_memo_begin(sqlite3 *db);
void pooling_runs_memo_end(void);
void pooling_runs_memo_counts(unsigned long *scans, unsigned long *mapped);

/*
 * Scan the runs of cs (metric, where, paths as loaded; cs's cells keyed
 * by its --by dimensions) for the candidate keys each cell pools.
 * Returns 0, or -1 after printing an error.  pooling_release() after.
 */
int pooling_scan(sqlite3 *db, const struct cellset *cs,
    const struct where *where, char *const *paths, size_t npaths,
    struct pooling *out);
void pooling_release(struct pooling *p);

/* The keys cell i pools, ","-joined (skipping skip[0..nskip) and the
 * provenance tags), into sb (nothing when none). */
void pooling_cell_keys(const struct pooling *p, size_t cell,
    char *const *skip, size_t nskip, struct strbuf *sb);

/* A caption line naming what the table's cells pool and how to split
 * them ("pooled over instance_type (c6i.large, c7g.xlarge) in 3 of 5
 * rows, day (...) in ...; --by instance_type,day splits them"), added to
 * t when some cell pools anything but skip[0..nskip); column: the table
 * has a pooled_over column to point to. */
void pooling_note(const struct pooling *p, char *const *skip, size_t nskip,
    bool column, struct table *t);

/* The cell's one value of key k (pooling_scan's keys), or NULL. */
const char *pooling_cell_value(const struct pooling *p, size_t cell,
    const char *key);

/*
 * A caption line when the cells set side by side within a group (same
 * path, condition and dimensions but the last) differ in another key,
 * each holding one value of it: "compare: the values compared also
 * differ in instance_type (A: c6i.large at 2026-W45, c7i.large at
 * 2026-W48; in 2 of 5 groups): the difference may be theirs".  what
 * names the verb's groups ("the values compared", "the days of a
 * series").
 */
void pooling_differ_note(const struct pooling *p, const struct cellset *cs,
    const char *what, struct table *t);

/* Scan cs and add pooling_note() to t: the verbs whose rows have no
 * pooled_over column (relative, delta, ratio, trials) say it in the
 * caption.  Returns 0, or -1 after printing an error. */
int pooling_table_note(sqlite3 *db, const struct cellset *cs,
    const struct where *where, char *const *paths, size_t npaths,
    struct table *t);

#endif
