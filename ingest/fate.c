/*
 * fate.c - what ingest does with one file, and why: unchanged, kept as
 * stored (its keys would change without --rekey, or it is unreadable or
 * bad now while the database has its runs), rejected, skipped (not a
 * result, or a copy of a file stored under another name) or stored.
 * The same rules serve the real run (write.c) and the dry run (dry.c).
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "ingest/job.h"
#include "ingest/roots.h"
#include "ingest/store.h"

static bool
status_good(const char *status)
{
	return status && (!strcmp(status, "ok") || !strcmp(status, "partial"));
}

/*
 * Decide the file's fate from the database as it is (fs: what it has
 * under this name).  Parses the file when needed.  0, or -1 on a
 * database error.
 */
int
job_decide(struct ingest_ctx *c, struct ingest_job *job,
    const struct file_state *fs, struct decision *d)
{
	const struct ingest_opts *o = c->o;
	const struct walk_file *wf = job->wf;
	struct parse_result *res = &job->res;
	char *dup = NULL, *dup_keys = NULL;	/* ours, freed at done */

	d->stored_good = fs->id && status_good(fs->status);
	if (!job->read_failed && job_is_unchanged(o, job, fs)) {
		d->fate = FATE_UNCHANGED;
		return 0;
	}
	/* said when it is kept or replaced (not looked up for the many
	 * unchanged files of a re-ingest) */
	if (d->stored_good && c->st &&
	    store_file_runs(c->st, fs->id, &d->stored_runs))
		return -1;
	if (job->read_failed) {
		d->fate = FATE_UNREADABLE;
		strbuf_addstr(&d->reason, job->read_why.buf);
		goto done;
	}
	/* keys that give no path ID, or a bad value, reject the file (and
	 * so keep what it gave before): that is the news, not a diff */
	if (d->stored_good && job->keys.path && !job->key_error)
		run_keys_diff(fs->keys, &job->keys, &d->diff);
	if (d->diff.len && !o->rekey) {
		d->fate = FATE_KEYS_CHANGE;
		return 0;
	}
	d->fate = FATE_REJECT;
	if (job->gzip_bad) {
		/* the bytes are the file's: recorded, so the next run says
		 * it again rather than finding nothing */
		strbuf_addf(&d->reason, "%s%s", job->why.buf,
		    job->read_why.buf);
		goto done;
	}
	if (job->clen == 0 && job_is_log_name(wf->relpath)) {
		/* an empty stderr.log beside the results: nothing said */
		d->fate = FATE_SKIP;
		strbuf_addstr(&d->reason, "empty, and its name is a log's, not "
		    "a result's");
		goto done;
	}
	if (job->clen == 0) {
		/* A tool that wrote nothing failed: say so, do not skip. */
		strbuf_addf(&d->reason, "%s%s", job->why.buf, job->inflated ?
		    "empty after gzip decompression" : "empty file (the tool "
		    "wrote nothing)");
		goto done;
	}
	if (job->kind == KIND_UNKNOWN) {
		d->fate = FATE_SKIP;
		strbuf_addstr(&d->reason, "not a known result format");
		goto done;
	}
	/* the same content under another name is a copy, unless that
	 * file is gone (then this is it, renamed), or it was filed under
	 * other keys: then both are runs someone filed, and merging them
	 * would drop one (whichever the walk met second) */
	dup = c->st ? store_same_content(c->st, job->hash, wf->relpath,
	    job->keytext.buf, &dup_keys) : NULL;
	if (dup && (gone_list_has(c->gone, dup) ||
	    !roots_file_exists(c->roots, dup))) {
		free(dup);
		dup = NULL;
	}
	if (dup && job->keys.path && !job->key_error && dup_keys &&
	    strcmp(dup_keys, job->keytext.buf)) {
		struct strbuf diff = STRBUF_INIT;

		run_keys_diff(dup_keys, &job->keys, &diff);
		/* said by write.c (a warning) and dry.c when stored */
		strbuf_addf(&d->copy, "same content as '%s', which has "
		    "other keys (%s): stored as its own runs", dup, diff.buf);
		strbuf_release(&diff);
		free(dup);
		dup = NULL;
	}
	if (dup) {
		d->fate = FATE_SKIP;
		strbuf_addf(&d->reason, "same content as '%s', already "
		    "ingested", dup);
		free(dup);
		goto done;
	}
	if (!job->parsed)
		job_parse(job);
	if (job->parse_rc) {
		strbuf_addf(&d->reason, "%s%s", job->why.buf,
		    res->reason.len ? res->reason.buf : "rejected");
		goto done;
	}
	if (job->key_error) {
		/* a value the layout captured is not a valid key */
		strbuf_add(&d->reason, job->why.buf, job->why.len - 2);
		goto done;
	}
	if (!job->keys.path) {
		strbuf_addstr(&d->reason, job->why.buf);
		filekeys_no_path(o, &d->reason);
		goto done;
	}
	if (res->nruns == 0) {
		strbuf_addf(&d->reason, "%s%s", job->why.buf,
		    res->reason.len ? res->reason.buf : "no runs in this file");
		goto done;
	}
	d->fate = FATE_STORE;
	free(dup_keys);
	return 0;
done:
	free(dup_keys);
	/* a file read before keeps its runs until it is good again, or
	 * gone and pruned */
	d->keep = d->stored_good && d->fate != FATE_STORE;
	return 0;
}

void
decision_init(struct decision *d)
{
	memset(d, 0, sizeof(*d));
	strbuf_init(&d->reason, 0);
	strbuf_init(&d->copy, 0);
	strbuf_init(&d->diff, 0);
}

void
decision_release(struct decision *d)
{
	strbuf_release(&d->reason);
	strbuf_release(&d->copy);
	strbuf_release(&d->diff);
}

const char *
fate_word(enum fate f)
{
	switch (f) {
	case FATE_UNREADABLE: return "unreadable";
	case FATE_REJECT: return "rejected";
	case FATE_SKIP: return "skipped";
	case FATE_UNCHANGED: return "unchanged";
	case FATE_KEYS_CHANGE: return "keys change";
	case FATE_STORE: return "stored";
	}
	return "?";
}

/* "1 run" / "2 runs" */
const char *
ingest_runs_word(int64_t n)
{
	return n == 1 ? "run" : "runs";
}

