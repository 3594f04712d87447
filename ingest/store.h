/*
 * store.h - writing what one file held into the database, in the
 * caller's transaction: the files row, its runs, their tags, samples,
 * summaries and counts; and taking a changed file's old runs out again.
 */
#ifndef PATHSTAT_INGEST_STORE_H
#define PATHSTAT_INGEST_STORE_H

#include "common/compat.h"

#include <sqlite3.h>

#include "ingest/internal.h"
#include "ingest/tree.h"

struct store;

/* Prepare the statements; NULL after printing an error. */
struct store *store_open(sqlite3 *db);
void store_close(struct store *st);

/* What the database knows of a relative path. */
struct file_state {
	int64_t	id;		/* files.id, 0 if the path is new */
	char	*hash;		/* owned, NULL if new */
	char	*keys;		/* owned, NULL if new */
	char	*status;	/* owned, NULL if new */
	char	*ingested_at;	/* owned, NULL if new */
};
void file_state_release(struct file_state *fs);
int store_file_state(struct store *st, const char *relpath,
    struct file_state *out);
/* Relative path of another ingested (ok/partial) file with this hash, or
 * NULL, one stored under keys (canonical text) first; *their_keys gets
 * its keys (NULL with no such file).  The caller frees both. */
char *store_same_content(struct store *st, const char *hash,
    const char *relpath, const char *keys, char **their_keys);

struct file_row {
	const char	*relpath;
	const char	*hash;
	int64_t		size;
	const char	*kind;
	const char	*tool_version;	/* may be NULL */
	const char	*status;	/* ok, partial, rejected, skipped */
	const char	*reason;	/* may be NULL */
	const char	*keys;
};

/*
 * Record the file (insert or update by relpath) after removing whatever
 * an earlier version of it contributed, adding the number of runs that
 * removed to *removed.  Sets *file_id.  0 or -1.
 */
int store_put_file(struct store *st, const struct file_row *row,
    int64_t *file_id, size_t *removed);
/* The number of runs the file with this id contributed to. 0 or -1. */
int store_file_runs(struct store *st, int64_t file_id, int64_t *nruns);
/*
 * Take out what the file contributed (its runs; a run another file
 * completes keeps that file's part), adding the number of runs deleted
 * to *removed; store_drop_file() then deletes its files row too.  In
 * the caller's transaction.  0 or -1.
 */
int store_forget_file(struct store *st, int64_t file_id, size_t *removed);
int store_drop_file(struct store *st, int64_t file_id, size_t *removed);
/*
 * The samples store_forget_file() deleted since the last call (a
 * request file of oha replaced gives no run of its own: its run is its
 * summary's, and its samples are what changed); resets the count.
 */
size_t store_take_samples_removed(struct store *st);
/*
 * Write run_view again, with one column per tag key in the database,
 * when the tag keys changed (ingest/view.c).  Its own transaction.
 * 0 or -1.
 */
int store_refresh_run_view(sqlite3 *db);

/*
 * Store the runs of res for the file, with keys (path, trial, condition,
 * tags) already merged with the content's own.  An oha JSON and an oha
 * per-request file with the same keys become one run.  Adds the number
 * of runs and samples written to *nruns and *nsamples.  0 or -1.
 */
/*
 * Encode each run's samples as store_put_runs() writes them (run->enc)
 * and free the samples: the work a parser thread can do before the
 * writer takes the file.  Runs encoded already are left as they are.
 */
void store_encode_runs(struct parse_result *res);
int store_put_runs(struct store *st, int64_t file_id, enum ingest_kind kind,
    const struct parse_result *res, const struct run_keys *keys,
    size_t *nruns, size_t *nsamples);

#endif
