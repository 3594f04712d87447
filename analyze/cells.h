/*
 * cells.h - loading cells from the database: a cell is one metric for
 * one path under one condition (and one value of each --by dimension),
 * holding its trials (one per run) with their successful samples sorted,
 * their failure counts, and the tool's own summaries for runs that have
 * no raw samples (oha JSON alone).  The verbs compute on cells, and
 * report's charts draw raw samples from them.
 */
#ifndef PATHSTAT_ANALYZE_CELLS_H
#define PATHSTAT_ANALYZE_CELLS_H

#include "common/compat.h"

#include <sqlite3.h>

#include "common/metric.h"
#include "common/units.h"
#include "common/where.h"

/* 16 bytes, not 40: a campaign's runs name the same few statistics,
 * so the name is the cellset's one copy (cellset names, below). */
struct tool_stat {
	const char	*stat;	/* "p50", "p99.9", "min", "max", "mean";
				 * interned: the cellset owns it */
	double		value;	/* in the metric's unit */
};

struct trial {
	int64_t			run_id;
	long			trial;		/* the run's trial number */
	int64_t			started_at;	/* Unix seconds, INT64_MIN if unknown */
	/* successful samples, ascending (series: in sample order); owned,
	 * or the cellset's when values_borrowed */
	double			*values;
	/* series: each value's time in seconds since the run started;
	 * owned, else NULL */
	double			*times;
	size_t			n;
	int64_t			failures;	/* failed attempts (timeouts, refusals, errors) */
	int64_t			timeouts;	/* of those, timeouts: connect
						 * probes only (timeout_bound) */
	bool			partial;	/* the run is stored as partial */
	bool			summary_only;	/* no raw samples: only tool stats */
	bool			derived;	/* an end-of-test value derived
						 * from the run's samples, not
						 * the tool's (metric.h rate_of) */
	bool			values_borrowed;	/* values are carved from
							 * the cellset's blocks */
	struct tool_stat	*tool;		/* the tool's own statistics, ntool
						 * exactly; owned */
	size_t			ntool;
	const char		*tool_estimator;	/* e.g. "oha"; interned (the
							 * cellset owns it), NULL if none */
};

/* A cell's strings are interned: a fine --by (trial, hour) makes a cell
 * of each run, and its path, condition and key values repeat from cell
 * to cell (each was a copy of its own, 32 bytes of heap or more). */
struct cell {
	char		*path;		/* path ID; interned (the cellset owns it) */
	char		*cond;		/* canonical condition; interned */
	/* value of each --by dimension ("" if unset), interned; the array
	 * is carved from the cellset's blocks (the cellset owns it) */
	char		**dims;
	struct trial	*trials;
	size_t		ntrials, alloc_trials;
	size_t		n;		/* successful samples over all trials */
	int64_t		failures;	/* failed attempts over all trials */
	int64_t		timeouts;	/* of those, timeouts (the only failures
					 * that censor a percentile) */
	double		timeout_ms;	/* connect probes' timeout, NaN if unknown */
	double		*pooled;	/* all raw samples sorted, built on demand; owned
					 * (aliases trials[0].values when pooled_alias) */
	size_t		npooled;
	bool		pooled_ready;	/* pooled/npooled are valid */
	bool		pooled_alias;	/* pooled is a trial's array, not owned */
	bool		serial_done;	/* serial_rs has been read (beside the
					 * other flags: 8 bytes a cell less) */
	/* a cell of one trial: the lag-1 rank autocorrelation of its
	 * successes in sample order (stats_serial_rank_corr()), which its
	 * within-run interval needs, once cell_serial_rs() has read it */
	double		serial_rs;
	/* why its trial-level intervals are withdrawn: an outlier trial
	 * (check outlier-trial's rule, cells_judge_outliers()); owned, or
	 * NULL */
	char		*outlier_why;
	/* the rule's verdict on each trial (ntrials entries, by trial
	 * index): outlier[t] flagged, outlier_on[t] what flagged it
	 * (stats_outlier_cells()'s on[]); owned, NULL until
	 * cells_judge_outliers() and for a cell none of whose trials it
	 * flagged */
	bool		*outlier;
	unsigned	*outlier_on;
};

struct cellset {
	const struct metric *info;	/* the metric (common/metric.h) */
	int		metric;		/* its id */
	const char	*metric_name;	/* its name (static) */
	const char	*unit;		/* its stored unit (static) */
	struct unit_choice shown;	/* the unit tables show it in
					 * (cellset_choose_unit(), analyze/) */
	char		**dimkeys;	/* --by keys; owned */
	size_t		ndims;
	struct cell	*cells;
	size_t		n, alloc;
	size_t		last;		/* cellset_find's last hit */
	sqlite3		*db;		/* borrowed: where cells_load read
					 * them (cell_serial_rs() reads more) */
	/* each cell's share of the spread its design's cells lend each
	 * other's intervals, per statistic (analyze/borrow.c); owned,
	 * NULL: intervals borrow nothing */
	struct borrow_cache *borrow;
	/* the cells' strings, each once (cells_intern()): an open-addressing
	 * hash set of names_cap slots (a power of 2, or 0), nnames used;
	 * owned with the strings */
	char		**names;
	size_t		nnames, names_cap;
	/* the cells' dims arrays, carved from blocks of ndims pointers for
	 * CELLS_DIMS_BLOCK cells (one allocation each, not one a cell);
	 * owned */
	char		***dimblocks;
	size_t		ndimblocks, alloc_dimblocks;
	size_t		dims_used;	/* cells carved from the last block */
	/* the trials' sorted values read from their copy, carved from
	 * blocks that double in size (one allocation each, not one a
	 * trial: cells_load()); owned */
	void		**valblocks;
	size_t		nvalblocks, alloc_valblocks;
	size_t		vals_size;	/* bytes of the last block */
	size_t		vals_used;	/* of those, carved */
};

struct cells_query {
	const char		*metric;	/* metric name */
	const struct where	*where;
	char			**by;		/* dimension keys */
	size_t			nby;
	char			**paths;	/* order (and filter) of paths, or NULL */
	size_t			npaths;
	bool			load_values;	/* false: counts only */
	/* values in sample order with their times, only those that have
	 * one (charts over time; not for statistics) */
	bool			series;
};

/*
 * Load every cell matching q (its runs come from common/runsel.h),
 * ordered by path (q->paths order, else natural order), condition,
 * dimensions; a cell's trials by trial number, start time, then run.
 * Returns 0, or
 * -1 after printing an error.  Release with cellset_release().
 */
int cells_load(sqlite3 *db, const struct cells_query *q, struct cellset *out);
void cellset_release(struct cellset *cs);
/* Let cs's trial-level percentile intervals borrow the spread of the
 * cells of their design (analyze/borrow.c); cells_load() calls it for
 * sorted values.  Release with cellset_release(). */
void cellset_borrow_init(struct cellset *cs);
void cellset_borrow_release(struct cellset *cs);
/*
 * Judge the trials of cs's cells by the rule `check outlier-trial`
 * applies (stats_outlier_cells(): each cell's own spread, and with 3-5
 * trials the spread the selection's cells of the same trial count
 * share, on the trials' p50, p95 and p99), and set outlier_why of each
 * cell whose trial-level intervals are to be withdrawn: a cell with an
 * outlier trial (naming it), and, when the cells of that trial count
 * with one say the cause is shared (stats_outlier_shared()), every
 * other cell of that trial count too (a cause the trials share, such as
 * TIME_WAIT on the client, may have hit every trial of a cell, which no
 * comparison of its trials can see).  Needs the values loaded, sorted
 * (not series).  cells_load() calls it.
 */
void cells_judge_outliers(struct cellset *cs);

/*
 * The lag-1 rank autocorrelation of the successes of c's one trial in
 * sample order (stats_serial_rank_corr()), read from cs->db on first use
 * and kept in c: what a within-run interval needs.
 * NaN for a cell of more trials, fewer than 3 samples, or after a
 * database error (printed).
 */
double cell_serial_rs(const struct cellset *cs, struct cell *c);

/* Borrowed pointer to the cell with these keys, or NULL. */
struct cell *cellset_find(struct cellset *cs, const char *path,
    const char *cond, char *const *dims);
/* All raw samples of the cell, sorted (cached in the cell).  Returns the
 * count; *out is borrowed from the cell. */
size_t cell_pooled(struct cell *c, const double **out);
/* Free the cell's pooled array (built again on demand): a verb that is
 * done with a cell keeps memory to the trials' arrays. */
void cell_pooled_release(struct cell *c);
/* A tool statistic of a trial by name, NaN if absent. */
double trial_tool_stat(const struct trial *t, const char *stat);
/* Does cell's condition hold key=value?  (Canonical text: k=v,k=v) */
bool cond_has(const char *cond, const char *key, const char *value);
/* Condition text with key's value replaced by value (key added if
 * missing); the caller frees the result. */
char *cond_with(const char *cond, const char *key, const char *value);

#endif
