/*
 * dry.c - `pathstat ingest --dry-run`: per file, one line on stdout with
 * the layout that matched, the keys its runs would get and its fate as
 * fate.c decides it, from the database as it is (a tree the ingest
 * would take over looked up under its old name).  Writes nothing.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kv.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/job.h"
#include "ingest/roots.h"
#include "ingest/store.h"

/* Append the keys a file's runs would get to out: with its content's
 * (with_content: the runs would be stored), or as given.  A file of
 * several runs (--bidir) gives each run's condition, '/'-separated. */
static void
describe_runs(const struct ingest_job *job, bool with_content,
    struct strbuf *out)
{
	const struct parse_result *res = &job->res;
	struct strbuf conds = STRBUF_INIT;
	struct run_keys k;
	size_t r;

	run_keys_init(&k);
	run_keys_merge(&k, &job->keys);
	if (!with_content || !job->parsed || job->parse_rc ||
	    res->nruns == 0) {
		run_keys_describe(&k, NULL, out);
		run_keys_release(&k);
		return;
	}
	if (k.trial < 0)
		k.trial = 1;	/* what store_put_runs() stores */
	free(k.tool);
	k.tool = xstrdup(res->runs[0].tool);
	kvset_merge(&k.tags, &res->runs[0].tags);
	for (r = 0; r < res->nruns; r++) {
		struct kvset cond = KVSET_INIT;

		kvset_copy(&cond, &job->keys.cond);
		kvset_merge(&cond, &res->runs[r].cond);
		if (r)
			strbuf_addstr(&conds, " / ");
		kvset_join(&cond, &conds, ",");
		kvset_release(&cond);
	}
	run_keys_describe(&k, conds.buf, out);
	strbuf_release(&conds);
	run_keys_release(&k);
}

/* What the database has for relpath, or for the name it has now in a
 * tree the ingest would take over. */
static int
dry_file_state(const struct ingest_ctx *c, const char *relpath,
    struct file_state *fs)
{
	size_t i, l;

	if (store_file_state(c->st, relpath, fs))
		return -1;
	for (i = 0; !fs->id && i < c->nmoves; i++) {
		char *now;
		int rc;

		l = strlen(c->moves[i].to);
		if (strncmp(relpath, c->moves[i].to, l) || relpath[l] != '/')
			continue;
		now = xasprintf("%s%s", c->moves[i].from, relpath + l);
		file_state_release(fs);
		rc = store_file_state(c->st, now, fs);
		free(now);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * A dry run: print on stdout what ingest would do with the file, as
 * "name: which layout: keys: fate[; notes]".  Writes nothing.
 */
int
job_dry(struct ingest_ctx *c, struct ingest_job *job)
{
	const struct ingest_opts *o = c->o;
	const struct walk_file *wf = job->wf;
	struct ingest_stats *stats = c->stats;
	struct strbuf line = STRBUF_INIT;
	struct decision d;
	struct file_state fs;
	int ret = 0;

	memset(&fs, 0, sizeof(fs));
	decision_init(&d);
	err_capture_flush(&job->msgs);
	if (c->st && dry_file_state(c, wf->relpath, &fs)) {
		ret = -1;
		goto cleanup;
	}
	if (job_decide(c, job, &fs, &d)) {
		ret = -1;
		goto cleanup;
	}
	strbuf_addf(&line, "%s: ", wf->relpath);
	if (job->read_failed)
		strbuf_addstr(&line, "not read");
	else if (job->matched >= 0)
		strbuf_addf(&line, "layout %d", job->matched + 1);
	else if (o->nlayouts)
		strbuf_addf(&line, "no layout matches '%s'", wf->lone ?
		    wf->path : wf->under);
	else
		strbuf_addstr(&line, "no --layout");
	if (job->matched >= 0 && !job->read_failed)
		c->layout_hits[job->matched]++;
	strbuf_addstr(&line, ": ");
	if (!job->read_failed)
		describe_runs(job, !d.keep && (d.fate == FATE_STORE ||
		    d.fate == FATE_UNCHANGED || d.fate == FATE_KEYS_CHANGE),
		    &line);
	else
		strbuf_addstr(&line, "(no keys)");
	strbuf_addstr(&line, ": ");
	if (d.keep) {
		strbuf_addf(&line, "kept as stored: its %lld %s, read on %s "
		    "(now %s: %s)", (long long)d.stored_runs,
		    ingest_runs_word(d.stored_runs), fs.ingested_at,
		    fate_word(d.fate), d.reason.buf);
		stats->kept++;
	} else {
		switch (d.fate) {
		case FATE_UNREADABLE:
		case FATE_REJECT:
		case FATE_SKIP:
			strbuf_addf(&line, "%s: %s", fate_word(d.fate),
			    d.reason.buf);
			if (d.fate == FATE_SKIP)
				stats->skipped++;
			else
				stats->rejected++;
			break;
		case FATE_UNCHANGED:
			strbuf_addstr(&line, "unchanged");
			stats->unchanged++;
			break;
		case FATE_KEYS_CHANGE:
			strbuf_addf(&line, "keys would change (%s): kept as "
			    "stored without --rekey", d.diff.buf);
			stats->kept++;
			break;
		case FATE_STORE:
			if (d.diff.len) {
				strbuf_addf(&line, "re-keyed (%s)", d.diff.buf);
				stats->rekeyed++;
			} else if (fs.id && strcmp(fs.hash, job->hash)) {
				strbuf_addstr(&line, "content changed");
				if (d.stored_good)
					strbuf_addf(&line, ": its %lld %s "
					    "replaced", (long long)d.stored_runs,
					    ingest_runs_word(d.stored_runs));
				stats->changed++;
			} else if (fs.id) {
				strbuf_addstr(&line, "read again (--force)");
				stats->changed++;
			} else {
				strbuf_addstr(&line, "new");
				stats->fresh++;
			}
			if (d.copy.len)
				strbuf_addf(&line, "; %s", d.copy.buf);
			stats->stored++;
			break;
		}
	}
	if (!job->read_failed)
		filekeys_notes(NULL, wf->relpath, &job->keys,
		    d.fate == FATE_STORE ? &job->res : NULL, &line);
	printf("%s\n", line.buf);
cleanup:
	file_state_release(&fs);
	decision_release(&d);
	strbuf_release(&line);
	return ret;
}

