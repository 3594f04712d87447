/*
 * filekeys.c - a file's run keys as ingest gives them: worked out from
 * the meta.json chain, the first --layout that matches and --tag; what
 * they say that the reader should know (an alias, a token kept as a
 * tag, keys the content contradicts); why a file has no path ID; and,
 * once the files are stored, runs whose keys collide.  The keys
 * themselves and meta.json are keys.c's; layout patterns, layout.c's.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/db.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "ingest/job.h"
#include "ingest/notes.h"
#include "ingest/tree.h"

/* The folder part of path ("a/b/c.json" -> "a/b"; "c.json" -> "."). */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * The path a layout matches: the file's path below its tree's root; for
 * a file named alone, outside any tree ingested before, its real path
 * (the folders it is in, whatever the working folder), unless the
 * pattern is anchored at the root (its own folder).
 */
static const char *
layout_path(const struct layout *lay, const struct walk_file *wf)
{
	if (wf->lone && !layout_anchored(lay) && wf->path[0] == '/')
		return wf->path + 1;
	return wf->under;
}

/*
 * Keys for one file: the meta.json chain, then the first layout that
 * matches (*matched: its index, or -1), then --tag.  A problem (a broken
 * meta.json, a bad captured value) goes to why and returns -1.
 */
int
filekeys_resolve(struct meta_cache *mc, const struct ingest_opts *o,
    const struct walk_file *wf, struct run_keys *keys, struct strbuf *why,
    int *matched)
{
	char *dir = dir_of(wf->path);
	struct strbuf mwhy = STRBUF_INIT;
	size_t i;
	int ret = 0;

	*matched = -1;
	if (meta_keys_for(mc, dir, wf->root, keys, &mwhy)) {
		/* keys that cannot all be known are not stored */
		strbuf_addf(why, "a meta.json above it is broken (%s)",
		    mwhy.buf);
		ret = -1;
	}
	for (i = 0; i < o->nlayouts; i++) {
		struct strbuf lwhy = STRBUF_INIT;
		struct run_keys lk;
		int m;

		run_keys_init(&lk);
		m = layout_match(o->layouts[i], layout_path(o->layouts[i], wf),
		    &lk, &lwhy);
		if (m != 0) {
			*matched = (int)i;
			if (m < 0) {
				strbuf_addf(why, "%slayout '%s': %s",
				    why->len ? "; " : "", o->layout_texts[i],
				    lwhy.buf);
				ret = -1;
			} else {
				run_keys_merge(keys, &lk);
			}
		}
		run_keys_release(&lk);
		strbuf_release(&lwhy);
		if (m != 0)
			break;
	}
	run_keys_merge(keys, &o->tags);
	strbuf_release(&mwhy);
	free(dir);
	return ret;
}

/* Why no path ID: what the layouts did. */
void
filekeys_no_path(const struct ingest_opts *o, struct strbuf *out)
{
	size_t i;

	if (o->nlayouts == 1) {
		strbuf_addf(out, "no path ID: the layout '%s' does not match "
		    "this file, and no meta.json or --tag gives one",
		    o->layout_texts[0]);
	} else if (o->nlayouts > 1) {
		strbuf_addstr(out, "no path ID: none of the layouts (");
		for (i = 0; i < o->nlayouts; i++)
			strbuf_addf(out, "%s'%s'", i ? ", " : "",
			    o->layout_texts[i]);
		strbuf_addstr(out, ") matches this file, and no meta.json or "
		    "--tag gives one");
	} else {
		strbuf_addstr(out, "no path ID (give it in a meta.json "
		    "\"path\", a --layout with {path}, or --tag path=ID)");
	}
}

/* Does the value the keys give for key agree with the file's?  A
 * layout's dir=bidir is what iperf3 calls --bidir, which the file
 * splits into bidir-up and bidir-down. */
static bool
cond_agrees(const char *key, const char *given, const char *file)
{
	if (!strcmp(given, file))
		return true;
	return !strcmp(key, "dir") && !strcmp(given, "bidir") &&
	    (!strcmp(file, "bidir-up") || !strcmp(file, "bidir-down"));
}

/* One of filekeys_notes()'s messages: said (or put on out) once per file
 * (said holds those said, '\n'-separated); text is then emptied. */
static void
key_note(struct notes *n, const char *relpath, struct strbuf *out,
    struct strbuf *said, enum notes_level level, struct strbuf *text,
    const char *tail)
{
	struct strbuf key = STRBUF_INIT;

	strbuf_addf(&key, "\n%s\n", text->buf);
	if (!strstr(said->buf, key.buf)) {
		strbuf_addstr(said, key.buf + 1);
		if (out)
			strbuf_addf(out, "; %s%s%s", text->buf, tail ? ": " : "",
			    tail ? tail : "");
		else
			notes_add(n, level, text->buf, tail, relpath);
	}
	strbuf_reset(text);
	strbuf_release(&key);
}

/*
 * What a file's keys say that the reader should know, each said once
 * for all the files it concerns (notes): an alias read as a tool, tokens
 * kept as a tag, keys the file's content contradicts (its own win).
 * With out set (a dry run), the same text is appended there for this
 * file instead.
 */
void
filekeys_notes(struct notes *n, const char *relpath,
    const struct run_keys *keys, const struct parse_result *res,
    struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, said = STRBUF_INIT;
	size_t r, i;

	/* one file's runs (two for --bidir) say a thing once */
	strbuf_addch(&said, '\n');
	if (keys->tool_given) {
		strbuf_addf(&text, "tool '%s' read as %s", keys->tool_given,
		    keys->tool);
		key_note(n, relpath, out, &said, NOTES_NOTE, &text, NULL);
	}
	if (keys->unknown) {
		strbuf_addf(&text, "condition '%s' kept as the tag %s=%s",
		    keys->unknown, RUN_KEYS_LABEL, keys->unknown);
		key_note(n, relpath, out, &said, NOTES_NOTE, &text,
		    "not in the condition grammar");
	}
	for (r = 0; res && r < res->nruns; r++) {
		const struct kvset *c = &res->runs[r].cond;

		if (keys->tool && strcmp(keys->tool, res->runs[r].tool)) {
			strbuf_addf(&text, "the keys say tool=%s but the file is "
			    "%s output", keys->tool, res->runs[r].tool);
			key_note(n, relpath, out, &said, NOTES_WARNING, &text,
			    "using the file's");
		}
		for (i = 0; i < c->n; i++) {
			const char *given = kvset_get(&keys->cond,
			    c->items[i].key);

			if (!given || cond_agrees(c->items[i].key, given,
			    c->items[i].value))
				continue;
			strbuf_addf(&text, "the keys say %s=%s but the file "
			    "says %s=%s", c->items[i].key, given,
			    c->items[i].key, c->items[i].value);
			key_note(n, relpath, out, &said, NOTES_WARNING, &text,
			    "using the file's");
		}
	}
	strbuf_release(&text);
	strbuf_release(&said);
}

/* Paths whose key conflicts are named one by one; the rest are counted. */
#define INGEST_CONFLICT_PATHS	20

/*
 * Report runs that share (path, condition, trial, tool, tags, metric)
 * with another run: once per path, with how many runs in how many
 * groups, on which days, and what analysis does with them.  A layout
 * without {trial} over hourly monitoring makes every hour of a day one
 * such group, so one line per group would be hundreds of identical
 * lines; one per path says it once.
 */
void
filekeys_conflicts(sqlite3 *db)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	long long total = 0;
	int paths = 0;

	strbuf_addstr(&sql, "WITH g AS (SELECT path_id, cond_id, trial, tool, "
	    "tagkey, metric, count(*) AS n FROM runs GROUP BY path_id, "
	    "cond_id, trial, tool, tagkey, metric HAVING count(*) > 1), "
	    "c AS (SELECT r.path_id AS path_id, r.trial AS trial, r.tool AS "
	    "tool, c.canon AS cond, g.n AS n, ");
	dim_sql("day", "r", &sql);
	strbuf_addstr(&sql, " AS day FROM runs r JOIN g ON g.path_id = "
	    "r.path_id AND g.cond_id = r.cond_id AND g.trial = r.trial AND "
	    "g.tool = r.tool AND g.tagkey = r.tagkey AND g.metric = r.metric "
	    "JOIN conditions c ON c.id = r.cond_id) "
	    "SELECT p.name, count(*), (SELECT count(*) FROM g WHERE "
	    "g.path_id = c.path_id), min(n), max(n), count(DISTINCT day), "
	    "min(day), max(day), group_concat(DISTINCT trial), "
	    "group_concat(DISTINCT tool), count(DISTINCT cond), min(cond) "
	    "FROM c JOIN paths p ON p.id = c.path_id GROUP BY c.path_id "
	    "ORDER BY p.name COLLATE pathsort");
	st = db_prepare(db, "find conflicting runs", sql.buf);
	strbuf_release(&sql);
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 0);
		long long runs = sqlite3_column_int64(st, 1);
		long long groups = sqlite3_column_int64(st, 2);
		int lo = sqlite3_column_int(st, 3), hi = sqlite3_column_int(st, 4);
		int ndays = sqlite3_column_int(st, 5);
		const char *d0 = (const char *)sqlite3_column_text(st, 6);
		const char *d1 = (const char *)sqlite3_column_text(st, 7);
		const char *cond = (const char *)sqlite3_column_text(st, 11);
		struct strbuf size = STRBUF_INIT, days = STRBUF_INIT;

		total += runs;
		if (paths++ >= INGEST_CONFLICT_PATHS)
			continue;
		if (groups == 1)
			strbuf_addstr(&size, "");
		else if (lo == hi)
			strbuf_addf(&size, " in %lld groups of %d", groups, lo);
		else
			strbuf_addf(&size, " in %lld groups of %d to %d", groups,
			    lo, hi);
		if (!ndays)
			strbuf_addstr(&days, "without a day");
		else if (ndays == 1)
			strbuf_addf(&days, "on 1 day, %s", d0);
		else
			strbuf_addf(&days, "on %d days, %s..%s", ndays, d0, d1);
		warning("conflict: path %s: %lld runs%s share their keys "
		    "(trial %s, tool %s, condition %s) %s: each group has the "
		    "same path, condition, trial, tool and tags (a layout "
		    "without {trial}?); analyze keeps every run, a trial of its "
		    "cell with its samples pooled (--by hour splits hourly "
		    "runs); 'pathstat runs --where path=%s --columns all' lists "
		    "them", path, runs, size.buf,
		    (const char *)sqlite3_column_text(st, 8),
		    (const char *)sqlite3_column_text(st, 9),
		    sqlite3_column_int(st, 10) > 1 ? "several" :
		    (cond && *cond) ? cond : "(none)", days.buf, path);
		strbuf_release(&size);
		strbuf_release(&days);
	}
	sqlite3_finalize(st);
	if (paths > INGEST_CONFLICT_PATHS)
		warning("conflict: and %d more paths", paths -
		    INGEST_CONFLICT_PATHS);
	if (paths > 1)
		warning("conflict: %lld runs on %d paths share their keys with "
		    "another run", total, paths);
}

