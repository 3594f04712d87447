/*
 * roots.h - the trees ingest was given (the roots table, schema/004):
 * what each PATH on the command line stands for, recording new trees,
 * and the files the database has under a tree that the tree no longer
 * holds (gone), which --prune removes.
 */
#ifndef PATHSTAT_INGEST_ROOTS_H
#define PATHSTAT_INGEST_ROOTS_H

#include "common/compat.h"

#include <sqlite3.h>

#include "ingest/store.h"
#include "ingest/tree.h"

struct root_row {
	int64_t	id;		/* roots.id */
	char	*name;		/* the folder's own name, owned */
	char	*path;		/* its real path, owned */
};

struct root_list {
	struct root_row	*rows;
	size_t		n, alloc;
};

#define ROOT_LIST_INIT { NULL, 0, 0 }

/* Load the roots table (db may be NULL: no roots).  0 or -1. */
int roots_load(sqlite3 *db, struct root_list *out);
void roots_release(struct root_list *r);

/*
 * Decide what each of args[0..nargs) stands for (struct walk_target):
 * a folder inside a known tree is part of it, any other folder is a
 * tree of its own (refused, with skip set and the reason printed, when
 * a different tree of that name is in the database and still exists);
 * a file inside a known tree is that tree's, any other file's root is
 * its own folder.  A path that cannot be resolved is reported (error())
 * and skipped.  out has nargs entries; release each with
 * walk_target_release().
 */
void roots_plan(const struct root_list *r, char **args, size_t nargs,
    struct walk_target *out);
void walk_target_release(struct walk_target *t);

/*
 * Record the trees among targets in the roots table, each in its own
 * transaction: a new tree is added (one that moved keeps its name and
 * gets its new path, with a note), a known one gets its time; a known
 * tree that lies inside a new one becomes part of it: its files' stored
 * names are renamed into the new tree's (where both trees hold a file,
 * the one with runs stays; if both have runs, the new tree's, and the
 * other's runs are removed, named, and added to *removed).  So are the
 * files an ingest before schema 4 stored under the new tree's folder
 * as given ("mig/t1/..." for mig/t1, now "t1/...").  Then r is loaded
 * again.  0 or -1 (a database error).
 */
int roots_record(sqlite3 *db, struct store *st, struct root_list *r,
    const struct walk_target *targets, size_t ntargets, size_t *removed);

/*
 * Warn of files the database names under no tree (stored before
 * schema 4 knew trees, and not mapped onto one since: see
 * roots_record()), with the first and what to do.  0 or -1.
 */
int roots_warn_unmapped(sqlite3 *db);

/*
 * The known trees that lie inside a new tree among targets, which
 * roots_record() takes over: for each, the prefix its files' stored
 * names would get (to: "results/2026-09-01") for the one they have
 * (from: "2026-09-01").  A dry run looks files up by what they are
 * named now.  Sets *out (the caller frees it with roots_moves_free())
 * and returns how many.
 */
struct root_move {
	char	*from;		/* the inner tree's name, owned */
	char	*to;		/* the names its files would begin with, owned */
	const struct root_row	*inner;	/* borrowed from the list */
};
size_t roots_moves(const struct root_list *r, const struct walk_target *t,
    size_t ntargets, struct root_move **out);
void roots_moves_free(struct root_move *moves, size_t n);

/* A file the database has under a walked folder that is no longer there. */
struct gone_file {
	char	*relpath;	/* stored name, owned */
	int64_t	id;		/* files.id */
	int64_t	runs;		/* runs it contributed to */
};

struct gone_list {
	struct gone_file	*items;	/* sorted by relpath, unique */
	size_t			n, alloc;
	int64_t			runs;	/* sum of items[].runs */
};

/*
 * The files stored under each walked folder among targets that the walk
 * (files) did not find and that do not exist (a file the walk passed
 * over but that is there, such as a link now leading out of the tree, is
 * not gone).  0 or -1.
 */
int roots_find_gone(sqlite3 *db, const struct walk_target *targets,
    size_t ntargets, const struct walk_list *files, struct gone_list *out);
bool gone_list_has(const struct gone_list *g, const char *relpath);
void gone_list_release(struct gone_list *g);

/*
 * Does the stored file relpath still exist where its tree is?  True
 * when its tree is not known (nothing says it is gone).
 */
bool roots_file_exists(const struct root_list *r, const char *relpath);

/* The --layout patterns a tree was ingested with (schema 008), in the
 * order given. */
struct root_layouts {
	char	**pattern;	/* owned */
	size_t	n;
};
#define ROOT_LAYOUTS_INIT { NULL, 0 }
/* The layouts of the known tree called name into out (none when the
 * tree is not known, or the database predates them).  0 or -1. */
int roots_layouts_load(sqlite3 *db, const struct root_list *r,
    const char *name, struct root_layouts *out);
/* Make pattern[0..n) the layouts of the known tree called name (one
 * transaction; nothing when the tree is not known).  0 or -1. */
int roots_layouts_store(sqlite3 *db, const struct root_list *r,
    const char *name, const char *const *pattern, size_t n);
void roots_layouts_release(struct root_layouts *l);

#endif
