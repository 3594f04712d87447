/*
 * write.c - the database writes of an ingest: each file's fate recorded
 * in one transaction (a stored file with its runs, a rejected or skipped
 * one with its reason, a file read before left as it is), the run
 * counts (added, replaced, removed), and the files gone from a tree,
 * removed one transaction each with --prune.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/db.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "ingest/job.h"
#include "ingest/notes.h"
#include "ingest/roots.h"
#include "ingest/store.h"

/*
 * Files stored in one write transaction: committing each file alone
 * wrote the same index pages to the log again and again (the log grew
 * to 2.6 times the database).  A batch ends at whichever bound comes
 * first; a killed ingest loses at most that batch, which the next
 * ingest stores again, and another ingest waiting for the database
 * waits at most about INGEST_BATCH_S.
 */
#define INGEST_BATCH_FILES	256
#define INGEST_BATCH_SAMPLES	131072
#define INGEST_BATCH_S		0.25

/* Gone files named one by one when --prune is not given; the rest are
 * counted (--dry-run lists them all). */
#define INGEST_GONE_NAMED	10

/* Record a file that gave no runs (skipped or rejected), in the
 * caller's transaction. */
static int
record_only(struct ingest_ctx *c, struct file_row *row)
{
	int64_t id;

	return store_put_file(c->st, row, &id, &c->stats->removed);
}

/* Add a stored file's runs to the counts: removed runs out, added in. */
static void
count_runs(struct ingest_stats *s, size_t removed, size_t added)
{
	size_t same = removed < added ? removed : added;

	s->replaced += same;
	s->added += added - same;
	s->removed += removed - same;
}

/* Is item one of the "; "-separated items of list? */
static bool
reason_has(const struct strbuf *list, const char *item)
{
	size_t il = strlen(item);
	const char *p = list->buf;

	while ((p = strstr(p, item)) != NULL) {
		if ((p == list->buf || (p >= list->buf + 2 &&
		    !memcmp(p - 2, "; ", 2))) &&
		    (p[il] == '\0' || !strncmp(p + il, "; ", 2)))
			return true;
		p++;
	}
	return false;
}

/*
 * "its 3 runs (900 samples) replaced by 3 (900)"; a file of samples
 * whose run another file holds (oha's requests beside its JSON summary)
 * replaces samples, not runs: "its 200 samples replaced by 1000".
 */
static void
say_replaced(const char *relpath, size_t runs, size_t samples,
    size_t nruns, size_t nsamples)
{
	if (!runs && !nruns)
		note("%s: content changed: its %zu %s replaced by %zu",
		    relpath, samples, samples == 1 ? "sample" : "samples",
		    nsamples);
	else
		note("%s: content changed: its %zu %s (%zu %s) replaced by "
		    "%zu (%zu)", relpath, runs,
		    ingest_runs_word((int64_t)runs), samples, samples == 1 ?
		    "sample" : "samples", nruns, nsamples);
}

/* Store a parsed file and its runs (in the caller's transaction). */
static int
store_parsed(struct ingest_ctx *c, struct ingest_job *job,
    struct file_row *row, const struct decision *d, bool content_changed)
{
	const struct parse_result *res = &job->res;
	struct ingest_stats *stats = c->stats;
	struct strbuf reason = STRBUF_INIT;
	bool partial = res->partial;
	size_t r, nruns = 0, nsamples = 0, removed = 0, sremoved;
	int64_t file_id;
	int ret = 0;

	/* each reason once: a --bidir file's two runs were cut at the
	 * same byte, and so was the file */
	strbuf_addstr(&reason, res->reason.buf);
	for (r = 0; r < res->nruns; r++) {
		partial |= res->runs[r].partial;
		if (!res->runs[r].reason.len)
			continue;
		if (reason_has(&reason, res->runs[r].reason.buf))
			continue;
		if (reason.len)
			strbuf_addstr(&reason, "; ");
		strbuf_addstr(&reason, res->runs[r].reason.buf);
	}
	row->status = partial ? "partial" : "ok";
	row->reason = reason.len ? reason.buf : NULL;
	(void)store_take_samples_removed(c->st);
	if (store_put_file(c->st, row, &file_id, &removed) ||
	    store_put_runs(c->st, file_id, job->kind, res, &job->keys, &nruns,
	    &nsamples)) {
		error("%s: not stored (database error above)", row->relpath);
		ret = -1;
		goto cleanup;
	}
	sremoved = store_take_samples_removed(c->st);
	c->batch_samples += nsamples + sremoved;
	stats->stored++;
	count_runs(stats, removed, nruns);
	stats->samples += nsamples;
	if (d->diff.len) {
		struct strbuf text = STRBUF_INIT;

		strbuf_addf(&text, "keys changed (%s)", d->diff.buf);
		notes_add(c->notes, NOTES_NOTE, text.buf, "runs re-keyed "
		    "(--rekey)", row->relpath);
		strbuf_release(&text);
	} else if (content_changed) {
		say_replaced(row->relpath, removed, sremoved, nruns, nsamples);
	}
	if (d->copy.len)
		warning("%s: %s", row->relpath, d->copy.buf);
	if (partial) {
		stats->partial++;
		note("%s: partial: %s", row->relpath, reason.buf);
	}
	filekeys_notes(c->notes, row->relpath, &job->keys, res, NULL);
cleanup:
	strbuf_release(&reason);
	return ret;
}

/*
 * Say that a file read before is left as stored, and why: once for all
 * the files left so for the same reason (a layout that no longer
 * matches leaves every file it named).
 */
static void
say_kept(struct ingest_ctx *c, const struct ingest_job *job,
    const struct decision *d)
{
	struct strbuf text = STRBUF_INIT;

	if (d->fate == FATE_UNREADABLE)
		strbuf_addstr(&text, d->reason.buf);
	else
		strbuf_addf(&text, "now %s: %s", fate_word(d->fate),
		    d->reason.buf);
	notes_add(c->notes, NOTES_ERROR, text.buf, !job->keys.path ?
	    "the runs it gave before are kept (give it a path ID again, or "
	    "remove it and run ingest --prune)" : "the runs it gave before "
	    "are kept (restore it, or remove it and run ingest --prune)",
	    job->wf->relpath);
	strbuf_release(&text);
}

/* Open the batch's transaction if none is, and the file's savepoint. */
static int
batch_enter(struct ingest_ctx *c)
{
	if (!c->batch_open) {
		if (db_begin(c->db))
			return -1;
		c->batch_open = true;
		c->batch_files = 0;
		c->batch_samples = 0;
		c->batch_t0 = ingest_now();
	}
	if (db_exec(c->db, "begin a file", "SAVEPOINT ingest_file")) {
		(void)job_flush(c);
		return -1;
	}
	return 0;
}

/* Close the file's savepoint, kept (ret 0) or rolled back, and commit
 * the batch when it is full or the file failed.  0 or -1. */
static int
batch_leave(struct ingest_ctx *c, int ret)
{
	if (ret) {
		(void)db_exec(c->db, "roll a file back",
		    "ROLLBACK TO ingest_file");
		(void)db_exec(c->db, "roll a file back",
		    "RELEASE ingest_file");
		(void)job_flush(c);
		return -1;
	}
	if (db_exec(c->db, "store a file", "RELEASE ingest_file")) {
		db_rollback(c->db);
		c->batch_open = false;
		return -1;
	}
	c->batch_files++;
	if (c->batch_files >= INGEST_BATCH_FILES ||
	    c->batch_samples >= INGEST_BATCH_SAMPLES ||
	    ingest_now() - c->batch_t0 >= INGEST_BATCH_S)
		return job_flush(c);
	return 0;
}

int
job_flush(struct ingest_ctx *c)
{
	if (!c->batch_open)
		return 0;
	c->batch_open = false;
	if (db_commit(c->db)) {
		db_rollback(c->db);
		return -1;
	}
	return 0;
}

/*
 * Returns -1 only for database errors (the walk stops); a bad file is
 * recorded, counted and reported, and returns 0.  The decision (is the
 * file unchanged, is its content stored under another name) and the
 * writes are in one transaction, so two ingests at once never both
 * store a file, and a killed ingest leaves no file half-stored: each
 * file is a savepoint in the batch's transaction (job_flush() commits
 * it), and a database error rolls that file back and commits the files
 * before it.
 */
int
job_finish(struct ingest_ctx *c, struct ingest_job *job)
{
	const struct walk_file *wf = job->wf;
	struct ingest_stats *stats = c->stats;
	struct decision d;
	struct file_state fs;
	struct file_row row;
	int ret = 0;

	memset(&row, 0, sizeof(row));
	memset(&fs, 0, sizeof(fs));
	decision_init(&d);
	err_capture_flush(&job->msgs);
	if (!job->read_failed)
		stats->bytes += job->raw.len;
	if (batch_enter(c)) {
		decision_release(&d);
		return -1;
	}
	if (store_file_state(c->st, wf->relpath, &fs) ||
	    job_decide(c, job, &fs, &d)) {
		ret = -1;
		goto cleanup;
	}
	if (job->matched >= 0 && !job->read_failed)
		c->layout_hits[job->matched]++;
	if (d.keep) {
		say_kept(c, job, &d);
		stats->kept++;
		goto cleanup;
	}
	row.relpath = wf->relpath;
	row.hash = job->hash;
	row.size = (int64_t)job->raw.len;
	row.keys = job->keytext.buf;
	row.kind = ingest_kind_name(job->kind);
	row.tool_version = job->parsed ? job->res.tool_version : NULL;
	switch (d.fate) {
	case FATE_UNREADABLE:
		error("%s: %s", wf->relpath, d.reason.buf);
		stats->rejected++;
		break;
	case FATE_UNCHANGED:
		stats->unchanged++;
		break;
	case FATE_KEYS_CHANGE: {
		struct strbuf text = STRBUF_INIT;

		strbuf_addf(&text, "keys would change (%s)", d.diff.buf);
		notes_add(c->notes, NOTES_ERROR, text.buf, "kept as stored; "
		    "--rekey applies the new keys", wf->relpath);
		strbuf_release(&text);
		stats->kept++;
		break;
	}
	case FATE_REJECT:
		row.status = "rejected";
		row.reason = d.reason.buf;
		/* said once for the files one reason rejects (a layout
		 * that fits none of them: hundreds) */
		notes_add(c->notes, NOTES_ERROR, d.reason.buf, NULL,
		    wf->relpath);
		stats->rejected++;
		ret = record_only(c, &row);
		break;
	case FATE_SKIP:
		row.status = "skipped";
		row.reason = d.reason.buf;
		note("%s: skipped: %s", wf->relpath, d.reason.buf);
		stats->skipped++;
		ret = record_only(c, &row);
		break;
	case FATE_STORE:
		ret = store_parsed(c, job, &row, &d, d.stored_good &&
		    strcmp(fs.hash, job->hash));
		break;
	}
cleanup:
	ret = batch_leave(c, ret);
	file_state_release(&fs);
	decision_release(&d);
	return ret;
}

/*
 * Files the database has under the folders walked that are gone: said
 * (the first INGEST_GONE_NAMED named), or with --prune removed, each
 * named, every one in its own transaction.  A dry run lists them all
 * on stdout.  0, or -1 on a database error.
 */
int
ingest_report_gone(struct ingest_ctx *c, const struct gone_list *gone)
{
	const struct ingest_opts *o = c->o;
	size_t i;

	if (!gone->n)
		return 0;
	if (o->dry_run) {
		for (i = 0; i < gone->n; i++)
			printf("%s: gone: its %lld %s %s\n",
			    gone->items[i].relpath,
			    (long long)gone->items[i].runs,
			    ingest_runs_word(gone->items[i].runs), o->prune ?
			    "would be removed" : "kept until --prune");
		return 0;
	}
	if (!o->prune) {
		for (i = 0; i < gone->n && i < INGEST_GONE_NAMED; i++)
			warning("%s: gone from the tree: its %lld %s kept",
			    gone->items[i].relpath,
			    (long long)gone->items[i].runs,
			    ingest_runs_word(gone->items[i].runs));
		warning("%zu %s gone: %s %lld %s kept; --prune removes %s%s",
		    gone->n, gone->n == 1 ? "file" : "files", gone->n == 1 ?
		    "its" : "their", (long long)gone->runs,
		    ingest_runs_word(gone->runs), gone->n == 1 ? "it" : "them",
		    gone->n > INGEST_GONE_NAMED ? " (--dry-run lists every "
		    "one)" : "");
		return 0;
	}
	for (i = 0; i < gone->n; i++) {
		size_t removed = 0;

		if (db_begin(c->db))
			return -1;
		if (store_drop_file(c->st, gone->items[i].id, &removed) ||
		    db_commit(c->db)) {
			db_rollback(c->db);
			return -1;
		}
		c->stats->removed += removed;
		note("%s: gone: removed, with its %zu %s",
		    gone->items[i].relpath, removed,
		    ingest_runs_word((int64_t)removed));
	}
	return 0;
}

