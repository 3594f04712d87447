/*
 * job.h - what the parts of `pathstat ingest` share: its options, its
 * counts, one file on its way through it (struct ingest_job), the fate
 * decided for it, and the context one ingest shares while it decides.
 * A file is prepared (read, keyed, sniffed, parsed: job.c, with its keys
 * from filekeys.c), its fate decided (fate.c) from the database as it
 * is, then written (write.c) or, in a dry run, described (dry.c), in
 * walk order by the loop (loop.c) that cmd_ingest (ingest.c) runs.
 */
#ifndef PATHSTAT_INGEST_JOB_H
#define PATHSTAT_INGEST_JOB_H

#include "common/compat.h"

#include <sqlite3.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "ingest/internal.h"
#include "ingest/notes.h"
#include "ingest/roots.h"
#include "ingest/store.h"
#include "ingest/tree.h"

/* The command line of one ingest (ingest.c parses it). */
struct ingest_opts {
	const char	*db_path;
	struct layout	**layouts;	/* --layout, in the order given */
	const char	**layout_texts;	/* their patterns, borrowed */
	size_t		nlayouts;
	struct run_keys	tags;		/* from --tag: win over everything */
	bool		force;		/* re-ingest unchanged files too */
	bool		quiet;		/* errors only */
	bool		dry_run;	/* say what would happen, write nothing */
	bool		prune;		/* remove the runs of files gone */
	bool		rekey;		/* let a stored file's keys change */
	int		jobs;		/* --jobs: parser threads, 0 default */
};

/* What one ingest did, counted for its summary: files, then runs. */
struct ingest_stats {
	size_t	files, stored, partial, unchanged, skipped, rejected;
	size_t	kept;		/* read before, left as stored: unreadable
				 * now, or its keys would change */
	size_t	sidecars;	/* collector sidecars passed over quietly */
	size_t	added, replaced, removed;	/* runs */
	size_t	samples;
	size_t	bytes;
	size_t	changed;	/* dry run: files whose content changed */
	size_t	rekeyed;	/* dry run: files whose keys would change */
	size_t	fresh;		/* dry run: files new to the database */
};

/*
 * One file on its way through ingest.  A parser thread (one of up to
 * --jobs) reads it, works out its keys, sniffs it and runs the parser
 * (pure: bytes in, parse_result out) up to INGEST_AHEAD files ahead of
 * the main thread,
 * which decides each file's fate and writes the database in job_finish()
 * (or says what it would do, job_dry()), in walk order.  Every message
 * is printed there too (the parsers', a broken meta.json, are
 * captured in msgs), so the database and the output are the same as
 * when one file was done at a time.
 */
struct ingest_job {
	const struct walk_file	*wf;
	struct strbuf	raw;		/* the file's bytes */
	struct strbuf	inflated_buf;	/* its content when gzip */
	struct strbuf	why;		/* key problems, "; "-terminated */
	struct strbuf	keytext;	/* canonical run keys */
	struct run_keys	keys;
	struct parse_result	res;
	const char	*content;	/* raw or inflated, not owned */
	size_t		clen;
	char		hash[33];	/* XXH3-128 of raw, hex */
	enum ingest_kind	kind;
	bool		read_failed;	/* read_why says why */
	bool		gzip_bad;	/* read, but its gzip data are not:
					 * read_why says why */
	struct strbuf	read_why;
	bool		inflated, key_error;
	int		matched;	/* index of the layout that matched,
					 * or -1 */
	bool		parsed;		/* res and parse_rc set */
	int		parse_rc;	/* the parser's return */
	struct err_capture	msgs;	/* printed by job_finish() */
};

/* What ingest does with one file, and why. */
enum fate {
	FATE_UNREADABLE,	/* the file cannot be read */
	FATE_UNCHANGED,		/* content and keys as stored */
	FATE_KEYS_CHANGE,	/* its stored keys would change: not without
				 * --rekey */
	FATE_REJECT,		/* recorded as rejected */
	FATE_SKIP,		/* recorded as skipped */
	FATE_STORE,		/* stored: new, changed, or re-keyed */
};

struct decision {
	enum fate	fate;
	struct strbuf	reason;		/* why rejected or skipped, or the
					 * read error */
	struct strbuf	diff;		/* how the keys change, if they do */
	struct strbuf	copy;		/* a file stored with the same content
					 * under other keys: said when this
					 * one is stored too */
	bool		stored_good;	/* the database has runs from it */
	int64_t		stored_runs;	/* how many */
	bool		keep;		/* stored_good, and the fate would lose
					 * them: left as stored instead */
};

/* Everything one ingest shares while it decides the files' fates. */
struct ingest_ctx {
	const struct ingest_opts	*o;
	struct ingest_stats	*stats;
	struct notes		*notes;
	const struct gone_list	*gone;
	const struct root_list	*roots;
	sqlite3			*db;	/* NULL: a dry run without a database */
	struct store		*st;
	const struct root_move	*moves;	/* a dry run: trees a new one would
					 * take over (roots_moves()) */
	size_t			nmoves;
	size_t			*layout_hits;	/* files per --layout */
	/* the write transaction job_finish() keeps open across files
	 * (job_flush() commits it): how many files and samples it holds,
	 * and when it began (ingest_now()) */
	bool			batch_open;
	size_t			batch_files;
	size_t			batch_samples;
	double			batch_t0;
};

/* ---- job.c: one file read, keyed, sniffed and parsed ---------------- */

/* Start job for the file wf (borrowed: it outlives the job); release
 * with job_release(), which frees everything the job holds. */
void job_init(struct ingest_job *job, const struct walk_file *wf);
void job_release(struct ingest_job *job);
/*
 * Reuse one read buffer from file to file: a fresh buffer for each file
 * costs the kernel zeroing new pages for every byte read.  Lend gives
 * the job *spare (emptied) to read into, leaving *spare empty; keep
 * takes the job's buffer back into *spare (its old one freed), unless
 * it grew past a cap, before job_release().
 */
void job_lend_buffer(struct ingest_job *job, struct strbuf *spare);
void job_keep_buffer(struct ingest_job *job, struct strbuf *spare);
/*
 * Read, hash, key and sniff the file (the keys from o and mc); prints
 * nothing.  Returns whether it should be parsed: known kind, not empty,
 * and not unchanged (looked up in st, which may be NULL: then
 * job_finish() decides).
 */
bool job_prepare(struct ingest_job *job, struct store *st,
    struct meta_cache *mc, const struct ingest_opts *o);
/* job_prepare() in two steps: read and hash (false if unreadable), then
 * key, sniff and look up; a parser thread does the second in walk order,
 * under the lock that guards mc and st (loop.c). */
bool job_read(struct ingest_job *job);
bool job_classify(struct ingest_job *job, struct store *st,
    struct meta_cache *mc, const struct ingest_opts *o);
/* Run the parser the kind calls for: job->res and job->parse_rc. */
void job_parse(struct ingest_job *job);
/* Is the file as the database has it in fs (same content and keys, not
 * rejected), and not --force? */
bool job_is_unchanged(const struct ingest_opts *o,
    const struct ingest_job *job, const struct file_state *fs);
/* Is path (its base name) one of the collector's sidecar files, passed
 * over quietly? */
bool job_is_sidecar(const char *path);
bool job_is_log_name(const char *path);

/* ---- filekeys.c: a file's run keys and what is said of them ---------- */

/*
 * Keys for one file into keys: the meta.json chain (mc), then the first
 * of o's layouts that matches (*matched: its index, or -1), then --tag.
 * A problem goes to why and returns -1.
 */
int filekeys_resolve(struct meta_cache *mc, const struct ingest_opts *o,
    const struct walk_file *wf, struct run_keys *keys, struct strbuf *why,
    int *matched);
/* Append to out why a file has no path ID: what the layouts did. */
void filekeys_no_path(const struct ingest_opts *o, struct strbuf *out);
/*
 * What a file's keys say that the reader should know (a tool alias, a
 * token kept as a tag, keys its content res contradicts), each said once
 * in n; with out set (a dry run), appended to out for this file instead.
 * res may be NULL.
 */
void filekeys_notes(struct notes *n, const char *relpath,
    const struct run_keys *keys, const struct parse_result *res,
    struct strbuf *out);
/* Warn of runs in db that share all their keys with another run, once
 * per path. */
void filekeys_conflicts(sqlite3 *db);

/* ---- fate.c: what ingest does with one file, and why ------------------ */

/*
 * Decide the file's fate into d from the database as it is (fs: what it
 * has under this name).  Parses the file when needed.  0, or -1 on a
 * database error.
 */
int job_decide(struct ingest_ctx *c, struct ingest_job *job,
    const struct file_state *fs, struct decision *d);
void decision_init(struct decision *d);
void decision_release(struct decision *d);
/* The fate in a word ("rejected"); static text. */
const char *fate_word(enum fate f);
/* "run" for 1, else "runs"; static text. */
const char *ingest_runs_word(int64_t n);

/* ---- write.c: the database writes ------------------------------------- */

/*
 * Decide the file's fate and write it in one transaction; counts and
 * reports it.  Returns -1 only for database errors (the walk stops).
 */
int job_finish(struct ingest_ctx *c, struct ingest_job *job);
/* Commit the files job_finish() stored since the last commit; 0, or -1
 * after printing (they are rolled back). */
int job_flush(struct ingest_ctx *c);
/*
 * The files gone from the folders walked: warned of, listed (dry run) or
 * with --prune removed, each in its own transaction.  0, or -1 on a
 * database error.
 */
int ingest_report_gone(struct ingest_ctx *c, const struct gone_list *gone);

/* ---- dry.c: --dry-run ------------------------------------------------- */

/* Print on stdout what ingest would do with the file; writes nothing.
 * 0, or -1 on a database error. */
int job_dry(struct ingest_ctx *c, struct ingest_job *job);

/* ---- loop.c: the files in walk order, and the progress line ----------- */

/*
 * Prepare, parse and finish (or, dry, describe) todo[0..ntodo) in
 * order, a producer thread reading ahead; rst (may be NULL) is its
 * read-only store.  Progress on stderr when show_progress (total files,
 * started at t0).  Returns -1 when a database error stopped the walk.
 */
int ingest_files(struct ingest_ctx *c, struct store *rst,
    struct meta_cache *mc, const struct walk_file **todo, size_t ntodo,
    size_t total, bool show_progress, double t0);
/* Seconds since the epoch, with microseconds. */
double ingest_now(void);
/* The progress line on stderr (final: erase it). */
void ingest_progress(const struct ingest_stats *s, size_t done,
    size_t total, double t0, bool final);

#endif
