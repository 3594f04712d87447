/*
 * tree.h - the parts of ingest/ that deal with the synced tree rather
 * than file contents: walking folders, reading meta.json sidecars, and
 * layout patterns that turn a file's path into run keys.
 */
#ifndef PATHSTAT_INGEST_TREE_H
#define PATHSTAT_INGEST_TREE_H

#include "common/compat.h"

#include <sys/types.h>

#include "common/kv.h"
#include "common/strbuf.h"

/* One file found by the walk. */
struct walk_file {
	char	*path;		/* path to open (as given + below), owned */
	char	*relpath;	/* stored name: <root's base name>/<path under root>, owned */
	char	*under;		/* path under the root (what layouts match), owned */
	char	*root;		/* the root folder the file belongs to, owned */
	bool	lone;		/* named alone, outside any tree ingested:
				 * its root is its own folder */
	int64_t	size;		/* bytes on disk at walk time */
	dev_t	dev;		/* the file the walk saw (a link's target): */
	ino_t	ino;		/* what walk_open() must find again */
};

struct walk_list {
	struct walk_file	*files;
	size_t			n, alloc;
	size_t			errors;		/* problems reported while walking */
};

/*
 * What one PATH given to ingest stands for, decided before the walk
 * (ingest/roots.c): the tree it belongs to and where in it it is.  A
 * folder is its own tree's root unless it lies inside a tree ingested
 * before; a file named alone outside any such tree has its own folder
 * as its root.
 */
struct walk_target {
	const char	*arg;		/* as given, borrowed */
	char		*real;		/* its real path, owned */
	bool		is_dir;
	char		*root_path;	/* real path of its tree's root, owned */
	char		*root_name;	/* stored names begin with it and '/':
					 * the root's own name ("" for "/"), owned */
	char		*under;		/* its path below root_path, "" when
					 * it is the root, owned */
	bool		lone;		/* a file outside any tree ingested */
	bool		known;		/* the root is in the database's roots */
	bool		skip;		/* refused (said why): not walked */
};

/*
 * Collect the files of target t into out: a folder is walked
 * recursively in sorted order; hidden entries (".x") and temporary
 * files left by sync tools are skipped; symlinks are followed only when
 * they resolve inside the tree's root, and a folder is entered once (a
 * link to a folder being walked is a loop, reported; one to a folder
 * walked before is skipped).  Names that are not valid UTF-8 are
 * refused.  meta.json files are left to the meta cache.  Problems are
 * printed with error() and counted in out->errors; the walk goes on.
 * Release with walk_list_release().
 */
void walk_target(const struct walk_target *t, struct walk_list *out);
void walk_list_release(struct walk_list *list);

/*
 * Open a file the walk found, for reading: never blocks (a FIFO put in
 * its place), and what was opened must be the regular file the walk saw
 * (not one swapped in since, such as a link out of the tree).  Returns a
 * descriptor the caller closes, or -1 with the reason in why.
 */
int walk_open(const struct walk_file *wf, struct strbuf *why);
/*
 * Open path for reading under the walk's rules when the walk has not
 * seen it (meta.json): a regular file (never blocks), whose name
 * resolves inside root_real (a realpath) to the very file opened.
 * Returns a descriptor the caller closes, -2 when path does not exist,
 * or -1 with the reason in why.
 */
int tree_open_inside(const char *path, const char *root_real,
    struct strbuf *why);

/* The tag that keeps condition tokens the grammar does not know. */
#define RUN_KEYS_LABEL	"label"
/* Tags one meta.json, layout or --tag list may give a run: every key
 * is a column of run_view and of export's runs. */
#define RUN_TAGS_MAX	128

/* Run keys before the file's own content adds to them. */
struct run_keys {
	char		*path;		/* path ID or NULL, owned */
	long		trial;		/* -1 when not given */
	char		*tool;		/* tool named by meta/layout (an alias
					 * resolved: "pathprobe"), or NULL, owned */
	char		*tool_given;	/* the alias as written ("probe") when
					 * it differs from tool, or NULL, owned */
	char		*unknown;	/* condition tokens the grammar does not
					 * know, '_'-joined: kept as the tag
					 * RUN_KEYS_LABEL; NULL if none, owned */
	struct kvset	cond;		/* condition keys */
	struct kvset	tags;		/* instance_type, region, day, ... */
};

void run_keys_init(struct run_keys *k);
void run_keys_release(struct run_keys *k);
/* Overlay src onto dst: src's keys win. */
void run_keys_merge(struct run_keys *dst, const struct run_keys *src);
/* Canonical text of the keys (stored in files.keys to notice changes). */
void run_keys_canon(const struct run_keys *k, struct strbuf *out);
/*
 * Set one key from text: "path", "trial", "condition"/"cond" (the {cond}
 * grammar), "tool", else a tag.  In a condition, a token that names a
 * tool (ingest_tool_canon()) sets the tool, and a token the grammar
 * does not know is kept in k->unknown and the tag RUN_KEYS_LABEL
 * rather than refused.  Returns 0, or -1 with the reason in why.
 */
int run_keys_set(struct run_keys *k, const char *key, const char *value,
    struct strbuf *why);
/*
 * Describe how the keys stored for a file (old, run_keys_canon() text)
 * differ from k, for a person: "trial 1 -> 3, tag day 2026-09-01 ->
 * (none)".  Appends nothing when they are the same.
 */
void run_keys_diff(const char *old, const struct run_keys *k,
    struct strbuf *out);
/*
 * Append the keys for a person, as --tag would give them: "path=A
 * trial=1 tool=pathprobe condition=P=4,proto=tcp day=2026-09-01"; keys
 * not given are left out ("(no keys)" when none is).  cond, when not
 * NULL, is said as the condition instead of k's.
 */
void run_keys_describe(const struct run_keys *k, const char *cond,
    struct strbuf *out);

/*
 * The tool a name given in keys stands for: "iperf3" for iperf3 and
 * iperf, "oha", "pathprobe" for pathprobe and probe; NULL for any
 * other name.  INGEST_TOOL_ALIASES lists them for messages and --help.
 */
const char *ingest_tool_canon(const char *name);
#define INGEST_TOOL_ALIASES \
	"iperf3 (also iperf), oha, pathprobe (also probe)"

/* meta.json sidecars, cached per folder. */
struct meta_cache;
struct meta_cache *meta_cache_new(void);
void meta_cache_free(struct meta_cache *mc);
/*
 * Merge into out the keys of every meta.json from stop_dir down to dir
 * (nearer wins).  dir must be stop_dir or below it.  A meta.json is
 * read under the walk's rules (a regular file inside the tree; see
 * tree_open_inside()).  One that is refused or broken is reported once
 * (error()); then nothing is merged (keys half known are not keys), the
 * first such file and its reason go to why, and -1 is returned.
 */
int meta_keys_for(struct meta_cache *mc, const char *dir, const char *stop_dir,
    struct run_keys *out, struct strbuf *why);
/*
 * Parse one meta.json text into keys (exported for tests and fuzzing):
 * one JSON object and nothing after it, valid UTF-8, no NUL.  All or
 * nothing: on -1 (reason in why) out is unchanged.
 */
int meta_parse(const char *buf, size_t len, struct run_keys *out,
    struct strbuf *why);

/* Layout patterns ({path}, {trial}, {cond}, {tool}, {tag:NAME}, {*}, {**}). */
struct layout;
/* Compile; NULL with the reason in why. Free with layout_free(). */
struct layout *layout_compile(const char *pattern, struct strbuf *why);
void layout_free(struct layout *lay);
/*
 * Match the end of path (a '/'-separated path under the root) against the
 * pattern and set the captured keys in out.  Returns 1 on a match, 0 if
 * the pattern does not match, -1 if a captured value is invalid (reason
 * in why).
 */
int layout_match(const struct layout *lay, const char *path,
    struct run_keys *out, struct strbuf *why);
/* Does the pattern start with '/' (matched from the root)? */
bool layout_anchored(const struct layout *lay);

#endif
