/*
 * runmemo.h - what cells_load() read of each run, kept while a report
 * runs (analyze/runmemo.c).  A no-spec report loads the same runs'
 * trial data for each grouping of a metric (by day, week, instance
 * type, day and hour, each heatmap's statistic): their sorted values,
 * tool statistics, probe timeout and timeout count, read again through
 * five statements a run each time.  Between begin and end, cells_load()
 * reads a run once per metric and copies it from memory after that.
 * The database must not change while the memo is on.
 */
#ifndef PATHSTAT_ANALYZE_RUNMEMO_H
#define PATHSTAT_ANALYZE_RUNMEMO_H

#include "common/compat.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/cells.h"

/*
 * One run's data for one metric, as cells_load() read it with values
 * (sorted, or the end-of-test value) and without a series.  A kept
 * entry is one allocation with its values and tool statistics; their
 * names are the memo's one copy of each.  A cellset copies what it
 * keeps, never a pointer into the memo.
 */
struct run_memo {
	sqlite3		*db;		/* borrowed: the key's database */
	int64_t		run_id;		/* the key: run, metric */
	int		metric;
	/* the values' sorted copy (sample_values' row) when values is NULL
	 * and n > 0: read from it again, one blob read (the values kept
	 * would double their memory: 6 MB over 84 days) */
	sqlite3_int64	rowid;
	double		*values;	/* n ascending, or NULL: see rowid */
	size_t		n;
	int64_t		fails;		/* failed sample rows (load_values) */
	bool		derived;	/* an end-of-test value derived */
	struct tool_stat *tool;		/* the tool's statistics, ntool */
	size_t		ntool;
	const char	*estimator;	/* NULL if none */
	double		timeout_ms;	/* the probe timeout, NaN if none */
	int64_t		timeouts;	/* -1: not counted */
};

/*
 * begin(keep): start counting; keep runs only when keep (false: each
 * load reads the database, as without the memo, for a test that
 * compares the two bundles).  end: free every kept run (cellsets hold
 * copies, never pointers into the memo) and stop keeping them.
 */
void run_memo_begin(bool keep);
void run_memo_end(void);

/* The kept data of (db, run_id, metric), or NULL; counts a reuse.
 * Borrowed: valid until run_memo_end(). */
const struct run_memo *run_memo_find(sqlite3 *db, int64_t run_id,
    int metric);

/* Keep r (its arrays and names are copied; r stays the caller's).
 * Counts a read, whether kept or not: not when the memo is off, or
 * when it would pass its cap (256 MiB; the run is read again next
 * time). */
void run_memo_add(const struct run_memo *r);

/* Runs read from the database and copied from the memo since begin. */
void run_memo_counts(unsigned long *read, unsigned long *reused);

#endif
