/*
 * roots.c - the trees ingest was given: deciding what each PATH stands
 * for (a tree, a folder or a file inside a tree ingested before, or a
 * file alone), recording trees in the roots table (schema/004), and
 * finding the files a walked folder no longer holds.
 */
#include "common/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/db.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/roots.h"

void
roots_release(struct root_list *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->rows[i].name);
		free(r->rows[i].path);
	}
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

int
roots_load(sqlite3 *db, struct root_list *out)
{
	sqlite3_stmt *st;
	int rc;

	roots_release(out);
	if (!db)
		return 0;
	/* a dry run reads an older database as it is: no trees known */
	st = db_prepare(db, "look for the roots table",
	    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND "
	    "name = 'roots'");
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : error("look for the roots "
		    "table: %s", sqlite3_errmsg(db));
	st = db_prepare(db, "read the trees ingested",
	    "SELECT id, name, path FROM roots ORDER BY length(path), path");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct root_row *row;

		ALLOC_GROW(out->rows, out->n + 1, out->alloc);
		row = &out->rows[out->n++];
		row->id = sqlite3_column_int64(st, 0);
		row->name = xstrdup((const char *)sqlite3_column_text(st, 1));
		row->path = xstrdup((const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("read the trees ingested: %s", sqlite3_errmsg(db));
	return 0;
}

static const char *
base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Path of real below the folder dir ("" when the same), or NULL. */
static const char *
below(const char *real, const char *dir)
{
	size_t l = strlen(dir);

	if (!strcmp(real, dir))
		return real + l;
	if (!strcmp(dir, "/"))
		return real + 1;
	if (!strncmp(real, dir, l) && real[l] == '/')
		return real + l + 1;
	return NULL;
}

/* The outermost known tree holding real (itself or above it), or NULL
 * (rows are sorted by path length: the first found is the outermost). */
static const struct root_row *
known_root(const struct root_list *r, const char *real)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (*r->rows[i].name && below(real, r->rows[i].path))
			return &r->rows[i];
	return NULL;
}

static const struct root_row *
root_named(const struct root_list *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->rows[i].name, name))
			return &r->rows[i];
	return NULL;
}

/* The known tree named by the n bytes at name, or NULL. */
static const struct root_row *
root_named_n(const struct root_list *r, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strlen(r->rows[i].name) == n &&
		    !memcmp(r->rows[i].name, name, n))
			return &r->rows[i];
	return NULL;
}

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void
walk_target_release(struct walk_target *t)
{
	free(t->real);
	free(t->root_path);
	free(t->root_name);
	free(t->under);
	memset(t, 0, sizeof(*t));
}

static void
plan_one(const struct root_list *r, const char *arg, struct walk_target *t)
{
	const struct root_row *known, *same;
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->arg = arg;
	t->real = realpath(arg, NULL);
	if (!t->real || stat(t->real, &st) != 0) {
		error_errno("%s: cannot read", arg);
		t->skip = true;
		return;
	}
	t->is_dir = S_ISDIR(st.st_mode);
	known = known_root(r, t->real);
	if (known) {
		t->root_path = xstrdup(known->path);
		t->root_name = xstrdup(known->name);
		t->under = xstrdup(below(t->real, known->path));
		t->known = true;
		return;
	}
	if (t->is_dir) {
		t->root_path = xstrdup(t->real);
		t->root_name = xstrdup(strcmp(t->real, "/") ?
		    base_name(t->real) : "");
		t->under = xstrdup("");
		same = *t->root_name ? root_named(r, t->root_name) : NULL;
		if (same && is_dir(same->path)) {
			/* Stored names would be the same for two trees:
			 * each would replace the other's files. */
			error("%s: not ingested: the database holds another "
			    "tree named '%s' (%s), and stored names begin with "
			    "the tree's name; rename one of the folders, or "
			    "use another --db", arg, same->name, same->path);
			t->skip = true;
		}
		return;
	}
	/* a file alone: its folder is its root */
	{
		char *dir = xstrdup(t->real);
		char *slash = strrchr(dir, '/');

		if (slash && slash != dir)
			*slash = '\0';
		else
			dir[1] = '\0';
		t->root_path = dir;
		t->root_name = xstrdup(strcmp(dir, "/") ? base_name(dir) : "");
		t->under = xstrdup(base_name(t->real));
		t->lone = true;
	}
}

void
roots_plan(const struct root_list *r, char **args, size_t nargs,
    struct walk_target *out)
{
	size_t i;

	for (i = 0; i < nargs; i++)
		plan_one(r, args[i], &out[i]);
}

static void
utc_now(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * Rename the stored names of tree inner's files into outer's, where
 * inner's folder lies below outer's (new_prefix: outer's name and the
 * path of inner below it).  A file both trees hold keeps the row with
 * runs (outer's when both have runs: inner's runs go, named).  An inner
 * with id 0 is no tree but the prefix an ingest before schema 4 stored
 * a tree's files under (the folder as given): renamed the same way.
 */
static int
absorb(sqlite3 *db, struct store *st, const struct root_row *inner,
    const char *outer_name, const char *new_prefix, size_t *removed)
{
	struct both {
		int64_t	iid, oid;	/* files.id in inner, in outer */
		int64_t	iruns, oruns;	/* their runs */
		char	*name;		/* inner's stored name, owned */
	} *both = NULL;
	sqlite3_stmt *pairs = NULL, *ren = NULL, *del = NULL;
	size_t nren = 0, before, nboth = 0, alloc = 0, i;
	int rc, ret = -1;

	pairs = db_prepare(db, "find files both trees hold",
	    "SELECT i.id, o.id, i.relpath, "
	    "(SELECT count(*) FROM runs r WHERE r.file_id = i.id OR "
	    "r.summary_file_id = i.id), "
	    "(SELECT count(*) FROM runs r WHERE r.file_id = o.id OR "
	    "r.summary_file_id = o.id) "
	    "FROM files i JOIN files o ON o.relpath = ?2 || "
	    "substr(i.relpath, length(?1) + 1) "
	    "WHERE substr(i.relpath, 1, length(?1) + 1) = ?1 || '/'");
	ren = db_prepare(db, "rename a tree's files",
	    "UPDATE files SET relpath = ?2 || substr(relpath, length(?1) + 1) "
	    "WHERE substr(relpath, 1, length(?1) + 1) = ?1 || '/'");
	del = db_prepare(db, "forget a tree",
	    "DELETE FROM roots WHERE id = ?1");
	if (!pairs || !ren || !del)
		goto cleanup;
	/* read the pairs first: the table changes as they are settled */
	sqlite3_bind_text(pairs, 1, inner->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(pairs, 2, new_prefix, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(pairs)) == SQLITE_ROW) {
		struct both *b;

		ALLOC_GROW(both, nboth + 1, alloc);
		b = &both[nboth++];
		b->iid = sqlite3_column_int64(pairs, 0);
		b->oid = sqlite3_column_int64(pairs, 1);
		b->name = xstrdup((const char *)sqlite3_column_text(pairs, 2));
		b->iruns = sqlite3_column_int64(pairs, 3);
		b->oruns = sqlite3_column_int64(pairs, 4);
	}
	if (rc != SQLITE_DONE) {
		error("find files both trees hold: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	for (i = 0; i < nboth; i++) {
		const struct both *b = &both[i];

		before = *removed;
		if (b->oruns == 0 || b->iruns == 0) {
			if (store_drop_file(st, b->oruns ? b->iid : b->oid,
			    removed))
				goto cleanup;
			continue;
		}
		if (store_drop_file(st, b->iid, removed))
			goto cleanup;
		warning("removed '%s': '%s%s' holds it too, with runs of its "
		    "own: its %zu runs removed", b->name, new_prefix,
		    b->name + strlen(inner->name), *removed - before);
	}
	sqlite3_bind_text(ren, 1, inner->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(ren, 2, new_prefix, -1, SQLITE_STATIC);
	if (db_step_done(db, ren, "rename a tree's files"))
		goto cleanup;
	nren = (size_t)sqlite3_changes(db);
	if (!inner->id) {
		/* names stored before the database knew its trees */
		if (nren)
			note("%zu files stored as '%s/...' (before this "
			    "database knew its trees) are now named '%s/...', "
			    "as the tree '%s' names them", nren, inner->name,
			    new_prefix, outer_name);
		ret = 0;
		goto cleanup;
	}
	sqlite3_bind_int64(del, 1, inner->id);
	if (db_step_done(db, del, "forget a tree"))
		goto cleanup;
	note("the tree '%s' (%s) is inside '%s': its %zu files are now "
	    "named '%s/...'", inner->name, inner->path, outer_name, nren,
	    new_prefix);
	ret = 0;
cleanup:
	for (i = 0; i < nboth; i++)
		free(both[i].name);
	free(both);
	sqlite3_finalize(pairs);
	sqlite3_finalize(ren);
	sqlite3_finalize(del);
	return ret;
}

/*
 * An ingest before schema 4 stored a tree's files under the folder as
 * it was given ("mig/t1/A/x.json" for `ingest mig/t1`); now they are
 * named from the tree's own name ("t1/A/x.json").  Rename such names,
 * given the same way now, onto the new tree t (in the caller's
 * transaction), unless their first folder is a known tree's name (then
 * they are that tree's).  0 or -1.
 */
static int
map_legacy(sqlite3 *db, struct store *st, const struct root_list *r,
    const struct walk_target *t, size_t *removed)
{
	struct root_row old = { 0, NULL, NULL };
	char *given = xstrdup(t->arg), *p = given, *slash;
	size_t len;
	int ret = 0;

	while (!strncmp(p, "./", 2))
		for (p += 2; *p == '/'; p++)
			;
	len = strlen(p);
	while (len > 1 && p[len - 1] == '/')
		p[--len] = '\0';
	slash = strchr(p, '/');
	if (!*p || !strcmp(p, t->root_name) || !strcmp(p, ".") ||
	    (slash && root_named_n(r, p, (size_t)(slash - p))))
		goto cleanup;
	old.name = p;
	ret = absorb(db, st, &old, t->root_name, t->root_name, removed);
cleanup:
	free(given);
	return ret;
}

static int
record_one(sqlite3 *db, struct store *st, const struct root_list *r,
    const struct walk_target *t, size_t *removed)
{
	const struct root_row *same = root_named(r, t->root_name);
	struct root_move *moves = NULL;
	sqlite3_stmt *up = NULL;
	char now[32];
	size_t i, nmoves = 0;
	int ret = -1;

	utc_now(now, sizeof(now));
	if (db_begin(db))
		return -1;
	if (same && strcmp(same->path, t->root_path))
		note("the tree '%s' was at %s, now at %s: the same tree (the "
		    "same stored names)", same->name, same->path, t->root_path);
	up = db_prepare(db, "record a tree",
	    "INSERT INTO roots (name, path, first_ingested, last_ingested) "
	    "VALUES (?1, ?2, ?3, ?3) ON CONFLICT (name) DO UPDATE SET "
	    "path = excluded.path, last_ingested = excluded.last_ingested");
	if (!up)
		goto cleanup;
	sqlite3_bind_text(up, 1, t->root_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(up, 2, t->root_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(up, 3, now, -1, SQLITE_STATIC);
	if (db_step_done(db, up, "record a tree"))
		goto cleanup;
	/* a tree's files stored under the folder as given, before the
	 * database knew its trees, are its files */
	if (t->is_dir && !*t->under &&
	    map_legacy(db, st, r, t, removed))
		goto cleanup;
	/* known trees inside a new one become part of it */
	nmoves = roots_moves(r, t, 1, &moves);
	for (i = 0; i < nmoves; i++)
		if (absorb(db, st, moves[i].inner, t->root_name, moves[i].to,
		    removed))
			goto cleanup;
	ret = 0;
cleanup:
	roots_moves_free(moves, nmoves);
	sqlite3_finalize(up);
	if (ret || db_commit(db)) {
		db_rollback(db);
		ret = -1;
	}
	return ret;
}

int
roots_warn_unmapped(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "find files under no tree",
	    "SELECT count(*), min(relpath) FROM files f WHERE NOT EXISTS "
	    "(SELECT 1 FROM roots t WHERE substr(f.relpath, 1, "
	    "length(t.name) + 1) = t.name || '/')");
	int64_t n;

	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		error("find files under no tree: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	n = sqlite3_column_int64(st, 0);
	if (n > 0)
		warning("%lld %s stored before this database knew its trees "
		    "(first '%s') %s under no tree given since: they cannot "
		    "be found gone, and a file of the same content is taken "
		    "for a copy of one; give the tree as it was given then "
		    "(the same folder name, from the same folder) to name them "
		    "as its files", (long long)n, n == 1 ? "file" : "files",
		    (const char *)sqlite3_column_text(st, 1), n == 1 ? "is" :
		    "are");
	sqlite3_finalize(st);
	return 0;
}

int
roots_record(sqlite3 *db, struct store *st, struct root_list *r,
    const struct walk_target *targets, size_t ntargets, size_t *removed)
{
	size_t i;

	for (i = 0; i < ntargets; i++) {
		const struct walk_target *t = &targets[i];

		if (t->skip || t->lone || !*t->root_name)
			continue;
		if (record_one(db, st, r, t, removed) || roots_load(db, r))
			return -1;
	}
	return 0;
}

size_t
roots_moves(const struct root_list *r, const struct walk_target *targets,
    size_t ntargets, struct root_move **out)
{
	size_t n = 0, alloc = 0, i, k;

	*out = NULL;
	for (i = 0; i < ntargets; i++) {
		const struct walk_target *t = &targets[i];

		if (t->skip || t->lone || t->known || !*t->root_name)
			continue;
		for (k = 0; k < r->n; k++) {
			const char *rest = below(r->rows[k].path, t->root_path);

			if (!rest || !*rest)
				continue;
			ALLOC_GROW(*out, n + 1, alloc);
			(*out)[n].from = xstrdup(r->rows[k].name);
			(*out)[n].to = xasprintf("%s/%s", t->root_name, rest);
			(*out)[n].inner = &r->rows[k];
			n++;
		}
	}
	return n;
}

void
roots_moves_free(struct root_move *moves, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(moves[i].from);
		free(moves[i].to);
	}
	free(moves);
}

void
gone_list_release(struct gone_list *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->items[i].relpath);
	free(g->items);
	memset(g, 0, sizeof(*g));
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_gone(const void *a, const void *b)
{
	return strcmp(((const struct gone_file *)a)->relpath,
	    ((const struct gone_file *)b)->relpath);
}

bool
gone_list_has(const struct gone_list *g, const char *relpath)
{
	struct gone_file key;

	key.relpath = (char *)(uintptr_t)relpath;
	return g->n && bsearch(&key, g->items, g->n, sizeof(g->items[0]),
	    cmp_gone) != NULL;
}

/* Is the stored file relpath of a tree named name, rooted at path, on
 * disk?  Only "no such file" says no: a folder that cannot be read
 * says nothing. */
static bool
exists_under(const char *path, const char *name, const char *relpath)
{
	struct stat st;
	char *disk = xasprintf("%s/%s", path, relpath + strlen(name) + 1);
	bool there = lstat(disk, &st) == 0 ||
	    (errno != ENOENT && errno != ENOTDIR);

	free(disk);
	return there;
}

bool
roots_file_exists(const struct root_list *r, const char *relpath)
{
	const char *slash = strchr(relpath, '/');
	size_t i;

	if (!slash)
		return true;
	for (i = 0; i < r->n; i++) {
		const struct root_row *row = &r->rows[i];

		if (strlen(row->name) == (size_t)(slash - relpath) &&
		    !strncmp(row->name, relpath, (size_t)(slash - relpath)))
			return exists_under(row->path, row->name, relpath);
	}
	return true;
}

int
roots_find_gone(sqlite3 *db, const struct walk_target *targets,
    size_t ntargets, const struct walk_list *files, struct gone_list *out)
{
	sqlite3_stmt *st = db_prepare(db, "find the files a tree had",
	    "SELECT id, relpath, (SELECT count(*) FROM runs r WHERE "
	    "r.file_id = files.id OR r.summary_file_id = files.id) FROM files "
	    /* "P/" <= relpath < "P0" ('0' follows '/'): the names below
	     * P, found through relpath's index */
	    "WHERE relpath >= ?1 || '/' AND relpath < ?1 || '0'");
	char **seen = NULL;
	size_t i, k;
	int rc, ret = -1;

	if (!st)
		return -1;
	seen = xcalloc(files->n ? files->n : 1, sizeof(*seen));
	for (i = 0; i < files->n; i++)
		seen[i] = files->files[i].relpath;
	if (files->n > 1)
		qsort(seen, files->n, sizeof(*seen), cmp_str);
	for (i = 0; i < ntargets; i++) {
		const struct walk_target *t = &targets[i];
		char *prefix;

		if (t->skip || !t->is_dir || !*t->root_name)
			continue;
		prefix = *t->under ? xasprintf("%s/%s", t->root_name, t->under) :
		    xstrdup(t->root_name);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, prefix, -1, SQLITE_TRANSIENT);
		free(prefix);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *rel = (const char *)sqlite3_column_text(st, 1);
			struct gone_file *g;

			if (files->n && bsearch(&rel, seen, files->n,
			    sizeof(*seen), cmp_str))
				continue;
			if (exists_under(t->root_path, t->root_name, rel))
				continue;
			ALLOC_GROW(out->items, out->n + 1, out->alloc);
			g = &out->items[out->n++];
			g->id = sqlite3_column_int64(st, 0);
			g->relpath = xstrdup(rel);
			g->runs = sqlite3_column_int64(st, 2);
		}
		if (rc != SQLITE_DONE) {
			error("find the files a tree had: %s",
			    sqlite3_errmsg(db));
			goto cleanup;
		}
	}
	/* a folder given twice (or inside another given) finds them twice */
	if (out->n > 1)
		qsort(out->items, out->n, sizeof(out->items[0]), cmp_gone);
	for (i = 0, k = 0; i < out->n; i++) {
		if (k && !strcmp(out->items[k - 1].relpath,
		    out->items[i].relpath)) {
			free(out->items[i].relpath);
			continue;
		}
		out->items[k++] = out->items[i];
	}
	out->n = k;
	out->runs = 0;
	for (i = 0; i < out->n; i++)
		out->runs += out->items[i].runs;
	ret = 0;
cleanup:
	sqlite3_finalize(st);
	free(seen);
	return ret;
}

/* Has the database the root_layouts table (schema 008)?  A dry run
 * reads an older database as it is.  1, 0, or -1 after printing. */
static int
have_layouts_table(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "look for the root_layouts table",
	    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND "
	    "name = 'root_layouts'");
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return error("look for the root_layouts table: %s",
		    sqlite3_errmsg(db));
	return rc == SQLITE_ROW;
}

void
roots_layouts_release(struct root_layouts *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->pattern[i]);
	free(l->pattern);
	memset(l, 0, sizeof(*l));
}

int
roots_layouts_load(sqlite3 *db, const struct root_list *r, const char *name,
    struct root_layouts *out)
{
	const struct root_row *row = name ? root_named(r, name) : NULL;
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc;

	roots_layouts_release(out);
	if (!db || !row)
		return 0;
	rc = have_layouts_table(db);
	if (rc <= 0)
		return rc;
	st = db_prepare(db, "read a tree's layouts", "SELECT pattern FROM "
	    "root_layouts WHERE root_id = ?1 ORDER BY seq");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, row->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(out->pattern, out->n + 1, alloc);
		out->pattern[out->n++] = xstrdup((const char *)
		    sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		roots_layouts_release(out);
		return error("read a tree's layouts: %s", sqlite3_errmsg(db));
	}
	return 0;
}

int
roots_layouts_store(sqlite3 *db, const struct root_list *r, const char *name,
    const char *const *pattern, size_t n)
{
	const struct root_row *row = root_named(r, name);
	sqlite3_stmt *del = NULL, *ins = NULL;
	size_t i;
	int ret = -1;

	if (!row)
		return 0;
	if (db_begin(db))
		return -1;
	del = db_prepare(db, "forget a tree's layouts",
	    "DELETE FROM root_layouts WHERE root_id = ?1");
	ins = db_prepare(db, "record a tree's layouts", "INSERT INTO "
	    "root_layouts (root_id, seq, pattern) VALUES (?1, ?2, ?3)");
	if (!del || !ins)
		goto cleanup;
	sqlite3_bind_int64(del, 1, row->id);
	if (db_step_done(db, del, "forget a tree's layouts"))
		goto cleanup;
	for (i = 0; i < n; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, row->id);
		sqlite3_bind_int64(ins, 2, (sqlite3_int64)i);
		sqlite3_bind_text(ins, 3, pattern[i], -1, SQLITE_STATIC);
		if (db_step_done(db, ins, "record a tree's layouts"))
			goto cleanup;
	}
	ret = 0;
cleanup:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	if (ret || db_commit(db)) {
		db_rollback(db);
		ret = -1;
	}
	return ret;
}
