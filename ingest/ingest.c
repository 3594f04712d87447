/*
 * ingest.c - `pathstat ingest`: its options, then one run: open the
 * database, plan the paths given against the trees it knows and settle
 * their layouts (those remembered for a tree, or --layout remembered),
 * walk them, hand the files to the loop (loop.c) and close with the
 * summary.  Nothing leaves the database without a word: a file that was
 * read before keeps its runs while it is unreadable, its keys change
 * only with --rekey, and the runs of a file gone from its tree go only
 * with --prune; every summary counts the runs added, replaced and
 * removed.
 */
#include "common/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/job.h"
#include "ingest/notes.h"
#include "ingest/roots.h"
#include "ingest/store.h"
#include "ingest/tree.h"

/* Leave the database file (and its -wal/-shm) out of the walk. */
static bool
is_db_file(const char *path, const char *db_real)
{
	char *real;
	bool same = false;
	size_t l;

	if (!db_real)
		return false;
	real = realpath(path, NULL);
	if (!real)
		return false;
	l = strlen(db_real);
	if (!strncmp(real, db_real, l) && (!real[l] || !strcmp(real + l, "-wal") ||
	    !strcmp(real + l, "-shm") || !strcmp(real + l, "-journal")))
		same = true;
	free(real);
	return same;
}

/* A --layout that no file matched was shadowed by an earlier one, or
 * fits none of the names. */
static void
report_unused_layouts(const struct ingest_ctx *c, size_t nfiles)
{
	size_t i;

	for (i = 0; nfiles && i < c->o->nlayouts; i++)
		if (!c->layout_hits[i])
			warning("--layout '%s' matched no file%s",
			    c->o->layout_texts[i], i ? " (or an earlier "
			    "layout matched each first)" : "");
}

static int64_t
count_runs_in_db(sqlite3 *db)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (!db)
		return 0;
	st = db_prepare(db, "count runs", "SELECT count(*) FROM runs");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* --tag KEY=VALUE into o->tags (opt->value: the struct ingest_opts);
 * -1 with the reason in why. */
static int
opt_tag(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct run_keys *tags = &((struct ingest_opts *)opt->value)->tags;
	const char *eq = strchr(arg, '=');
	char *key;
	int ret = 0;

	if (!eq || eq == arg) {
		strbuf_addstr(why, "want KEY=VALUE");
		return -1;
	}
	key = xstrndup(arg, (size_t)(eq - arg));
	if (run_keys_set(tags, key, eq + 1, why)) {
		ret = -1;
	} else if (tags->unknown) {
		/* a name may hold tokens of its own; a command line says
		 * what it means */
		strbuf_addf(why, "'%s' is not in the condition grammar (k=v, "
		    "name-value, cN, PN, bRATE, a size, tcp/udp, reverse, "
		    "bidir); for a tag say --tag %s=%s", tags->unknown,
		    RUN_KEYS_LABEL, tags->unknown);
		ret = -1;
	}
	free(key);
	return ret;
}

/* --layout PATTERN, compiled, after those given before it. */
static int
opt_layout(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct ingest_opts *o = opt->value;
	struct layout *lay = layout_compile(arg, why);

	if (!lay)
		return -1;
	o->layouts = xreallocarray(o->layouts, o->nlayouts + 1,
	    sizeof(*o->layouts));
	o->layout_texts = xreallocarray(o->layout_texts, o->nlayouts + 1,
	    sizeof(*o->layout_texts));
	o->layouts[o->nlayouts] = lay;
	o->layout_texts[o->nlayouts++] = arg;
	return 0;
}

/* The --layout patterns joined for a note: "'a', 'b'". */
static void
layouts_words(struct strbuf *sb, const char *const *pattern, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s--layout '%s'", i ? " " : "", pattern[i]);
}

/*
 * No --layout given: the layouts the trees given were ingested with
 * (schema 008) become o's, when the trees that have some agree (a
 * folder of a tree is that tree's); *stored owns their text.  Trees
 * with different layouts in one ingest take none, said.  0 or -1.
 */
static int
use_stored_layouts(sqlite3 *db, const struct root_list *roots,
    const struct walk_target *targets, size_t ntargets,
    struct ingest_opts *o, struct root_layouts *stored)
{
	struct root_layouts l = ROOT_LAYOUTS_INIT;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	const char *from = NULL;
	size_t i, j;
	int ret = -1;

	for (i = 0; i < ntargets; i++) {
		const struct walk_target *t = &targets[i];

		if (t->skip || t->lone || !*t->root_name)
			continue;
		if (roots_layouts_load(db, roots, t->root_name, &l))
			goto cleanup;
		if (!l.n)
			continue;
		if (!from) {
			*stored = l;
			memset(&l, 0, sizeof(l));
			from = t->root_name;
			continue;
		}
		for (j = 0; j < l.n && l.n == stored->n; j++)
			if (strcmp(l.pattern[j], stored->pattern[j]))
				break;
		if (j < l.n || l.n != stored->n) {
			warning("the trees '%s' and '%s' were ingested with "
			    "different layouts: none is used (give --layout)",
			    from, t->root_name);
			roots_layouts_release(stored);
			ret = 0;
			goto cleanup;
		}
		roots_layouts_release(&l);
	}
	for (i = 0; i < stored->n; i++) {
		struct layout *lay = layout_compile(stored->pattern[i], &why);

		if (!lay) {
			warning("the layout '%s' stored for '%s' no longer "
			    "compiles (%s): give --layout", stored->pattern[i],
			    from, why.buf);
			continue;
		}
		o->layouts = xreallocarray(o->layouts, o->nlayouts + 1,
		    sizeof(*o->layouts));
		o->layout_texts = xreallocarray(o->layout_texts,
		    o->nlayouts + 1, sizeof(*o->layout_texts));
		o->layouts[o->nlayouts] = lay;
		o->layout_texts[o->nlayouts++] = stored->pattern[i];
	}
	if (o->nlayouts) {
		layouts_words(&sb, (const char *const *)stored->pattern,
		    stored->n);
		note("'%s' was ingested with %s: using %s (a new --layout "
		    "replaces %s)", from, sb.buf, stored->n == 1 ? "it" :
		    "them", stored->n == 1 ? "it" : "them");
	}
	ret = 0;
cleanup:
	roots_layouts_release(&l);
	strbuf_release(&sb);
	strbuf_release(&why);
	return ret;
}

/* --layout given: they become the layouts of each tree given, with a
 * note where they replace others.  0 or -1. */
static int
remember_layouts(sqlite3 *db, const struct root_list *roots,
    const struct walk_target *targets, size_t ntargets,
    const struct ingest_opts *o)
{
	struct root_layouts old = ROOT_LAYOUTS_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i, j;
	int ret = -1;

	for (i = 0; i < ntargets; i++) {
		const struct walk_target *t = &targets[i];

		if (t->skip || t->lone || !*t->root_name)
			continue;
		for (j = 0; j < i; j++)
			if (!targets[j].skip && !targets[j].lone &&
			    !strcmp(targets[j].root_name, t->root_name))
				break;
		if (j < i)
			continue;
		if (roots_layouts_load(db, roots, t->root_name, &old))
			goto cleanup;
		for (j = 0; j < old.n && old.n == o->nlayouts; j++)
			if (strcmp(old.pattern[j], o->layout_texts[j]))
				break;
		if (old.n && (old.n != o->nlayouts || j < old.n)) {
			strbuf_reset(&a);
			strbuf_reset(&b);
			layouts_words(&a, (const char *const *)old.pattern,
			    old.n);
			layouts_words(&b, o->layout_texts, o->nlayouts);
			note("'%s' was ingested with %s: its layouts are now "
			    "%s", t->root_name, a.buf, b.buf);
		}
		if (roots_layouts_store(db, roots, t->root_name,
		    o->layout_texts, o->nlayouts))
			goto cleanup;
	}
	ret = 0;
cleanup:
	roots_layouts_release(&old);
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

/* The options of `pathstat ingest`, parsed into o; the paths are left
 * in argv[0..*npaths). */
static enum parseopt_result
ingest_parse(struct ingest_opts *o, int argc, char **argv, int *npaths)
{
	const struct parseopt opts[] = {
		OPT_DB(&o->db_path),
		OPT_CALLBACK(0, "layout", o, "PATTERN", opt_layout,
		    PARSEOPT_MANY, "map a file's path to run keys, e.g.\n"
		    "'{tag:instance_type}/{path}/{cond}/trial{trial}/{*}'\n"
		    "or '{path}_{cond}_run{trial}.json'; placeholders {path} "
		    "{trial} {cond} {tool} {tag:NAME} {*} {**}; repeatable: "
		    "the first that matches a file applies"),
		OPT_CALLBACK(0, "tag", o, "KEY=VALUE", opt_tag,
		    PARSEOPT_MANY, "set a run key for every file (path, trial, "
		    "condition, or any tag such as instance_type); "
		    "repeatable"),
		OPT_FLAG('n', "dry-run", &o->dry_run, "print per file which "
		    "layout matched, the keys it would get and what would "
		    "happen; write nothing"),
		OPT_FLAG(0, "prune", &o->prune, "remove the runs of files gone "
		    "from the folders given"),
		OPT_FLAG(0, "rekey", &o->rekey, "let a file's keys change from "
		    "what is stored (another layout, a moved meta.json); "
		    "without it such files are kept as they are, with the "
		    "change named"),
		OPT_FLAG(0, "force", &o->force, "re-read files even when "
		    "content and keys are unchanged"),
		OPT_FLAG('q', "quiet", &o->quiet, "print errors only"),
		OPT_INT(0, "jobs", &o->jobs, "N", 1, 64, "parse up to N files "
		    "at once (default: one per online CPU, at most 4, the "
		    "files read ahead); the database and the output are the "
		    "same for every N"),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = {
		.name = "ingest",
		.args = "PATH...",
		.args_name = "paths",
		.intro = "Load benchmark results into the database: iperf3 -J "
		    "and --json-stream,\noha JSON, CSV and --db-url SQLite, "
		    "pathprobe CSV and --mtu results\n(plain or .gz).\n"
		    "Folders are walked recursively; each file is sniffed by "
		    "its content.",
		.outro = "Keys come from meta.json files in the folders above "
		    "a file, up to its tree's root (nearer wins), then the "
		    "first --layout that matches, then --tag.  A folder or "
		    "file inside a tree ingested before is read as part of "
		    "it.  In {cond}, a tool name (" INGEST_TOOL_ALIASES ") "
		    "sets the tool, and a token the grammar does not know is "
		    "kept as the tag " RUN_KEYS_LABEL ".  A file without a "
		    "path ID is rejected.\nExit status: 0 all good, 1 some "
		    "file rejected, unreadable or left as stored (the rest is "
		    "done), 2 usage error.",
		.opts = opts,
	};
	enum parseopt_result r;

	/* options may follow the paths (pathstat ingest TREE -q), as in
	 * analyze and git; '--' ends them for a path named -x */
	r = parseopt(&cmd, argc, argv, npaths);
	if (r == PARSEOPT_OK && *npaths == 0) {
		parseopt_usage_error(&cmd, "no files or folders to ingest");
		r = PARSEOPT_ERROR;
	}
	return r;
}

/* One ingest's state, from the database opened to the files done. */
struct ingest_run {
	struct ingest_opts	*o;
	struct ingest_stats	stats;
	struct ingest_ctx	ctx;
	struct walk_list	files;	/* every file the walk found */
	struct walk_target	*targets; /* the paths given, planned */
	size_t			ntargets;
	struct root_list	roots;	/* the trees the database knows */
	struct root_layouts	stored;	/* their remembered layouts */
	struct gone_list	gone;	/* files no longer there */
	struct meta_cache	*mc;
	struct root_move	*moves;	/* dry run: trees taken over */
	struct store		*st;	/* the writer */
	struct store		*rst;	/* the producer's reader */
	sqlite3			*db;	/* st's connection */
	sqlite3			*rdb;	/* rst's connection */
	bool			rollback; /* db is new and writes through a
					   * rollback journal until it is
					   * closed (ingest_journal()) */
	const struct walk_file	**todo;	/* the files to read */
	size_t			ntodo;
	const char		*db_path; /* borrowed */
	char			*db_real; /* realpath of it; owned */
};

static void
ingest_run_init(struct ingest_run *r, struct ingest_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->roots = (struct root_list)ROOT_LIST_INIT;
	r->stored = (struct root_layouts)ROOT_LAYOUTS_INIT;
}

/*
 * The end of an ingest that created its database (ingest_journal()):
 * what it wrote is made durable at once, and the database goes back to
 * WAL, as every other open leaves it.  Under synchronous = FULL the
 * switch is a transaction of its own, whose sync writes out every page
 * written before it too.  If another connection holds the database now,
 * the switch is left to the next open and the file is synced here.
 */
static void
ingest_journal_end(sqlite3 *db, const char *path)
{
	sqlite3_stmt *st = NULL;
	bool wal = false;
	int fd;

	(void)sqlite3_exec(db, "PRAGMA synchronous = FULL", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *mode = sqlite3_column_text(st, 0);

		wal = mode && !strcmp((const char *)mode, "wal");
	}
	sqlite3_finalize(st);
	if (wal)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

static void
ingest_run_release(struct ingest_run *r)
{
	size_t i;

	roots_moves_free(r->moves, r->ctx.nmoves);
	notes_free(r->ctx.notes);
	free(r->ctx.layout_hits);
	store_close(r->rst);
	db_close(r->rdb);
	free(r->todo);
	store_close(r->st);
	if (r->rollback)
		ingest_journal_end(r->db, r->db_path);
	db_close(r->db);
	meta_cache_free(r->mc);
	walk_list_release(&r->files);
	for (i = 0; i < r->ntargets; i++)
		walk_target_release(&r->targets[i]);
	free(r->targets);
	roots_release(&r->roots);
	gone_list_release(&r->gone);
	roots_layouts_release(&r->stored);
	free(r->db_real);
}

/*
 * A database this ingest creates is written through a rollback journal
 * instead of the write-ahead log: in WAL mode every page was written
 * twice (to the log, then by the checkpoint, which reads it back), but
 * a rollback journal keeps only the old content of pages that existed
 * before each transaction, and a new database's pages are nearly all
 * appended.  Each file's transaction stays atomic and a killed ingest
 * leaves a consistent database the next one resumes (SQLite rolls a
 * hot journal back on open).  It is not synced while it is written
 * (synchronous = OFF), but once, at the end (ingest_journal_end()):
 * with FULL, each batch's commit waited for three or four syncs, which
 * on a busy disk took longer than parsing and storing the batch.  What
 * a power failure during that first ingest can cost is that ingest's
 * database, possibly damaged; it held nothing else, and the raw files
 * it was read from are still there to ingest again (docs/ingest.md).
 * A killed ingest loses nothing more than before: the system has its
 * writes.  The switch needs the database to itself: when another
 * connection has it open already (two ingests starting at once), it
 * stays in WAL with its usual syncs.  Returns whether it switched.
 */
static bool
ingest_journal(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	bool on = false;

	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = DELETE", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *mode = sqlite3_column_text(st, 0);

		on = mode && !strcmp((const char *)mode, "delete");
	}
	sqlite3_finalize(st);
	if (on && db_exec(db, "set synchronous", "PRAGMA synchronous = OFF")) {
		(void)sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL,
		    NULL);
		on = false;
	}
	return on;
}

/* Open the database (as it is for a dry run, which migrates nothing
 * and may have none) and load its trees; 0 or -1. */
static int
ingest_open(struct ingest_run *r)
{
	struct stat sb;
	int version;
	bool is_new;

	r->db_path = db_default_path(r->o->db_path);
	if (!r->o->dry_run) {
		is_new = stat(r->db_path, &sb) ? errno == ENOENT :
		    S_ISREG(sb.st_mode) && sb.st_size == 0;
		r->db = db_open(r->db_path, true);
		if (!r->db)
			return -1;
		r->rollback = is_new && ingest_journal(r->db);
	} else if (stat(r->db_path, &sb) == 0) {
		r->db = db_open_as_is(r->db_path, &version);
		if (!r->db)
			return -1;
	}
	r->db_real = realpath(r->db_path, NULL);
	r->st = r->db ? store_open(r->db) : NULL;
	if ((r->db && !r->st) || roots_load(r->db, &r->roots))
		return -1;
	return 0;
}

/* Test hooks (tests/cli/t1100, t1600): a file that vanishes, or is
 * swapped for another (FROM:TO renames FROM over TO), between the walk
 * and its read, which no test can time otherwise. */
static void
test_hooks_after_walk(void)
{
	const char *vanish = getenv("PATHSTAT_TEST_UNLINK_AFTER_WALK");
	const char *swap = getenv("PATHSTAT_TEST_RENAME_AFTER_WALK");

	if (vanish && *vanish)
		unlink(vanish);
	if (swap && strchr(swap, ':')) {
		char *from = xstrndup(swap, strcspn(swap, ":"));

		if (rename(from, strchr(swap, ':') + 1) != 0)
			warning("test hook: cannot rename '%s': %s", from,
			    strerror(errno));
		free(from);
	}
}

/*
 * Plan the paths given against the trees known, settle the layouts,
 * walk them and find the files gone.  0; 1 when a path was skipped or
 * could not be walked (the rest goes on); -1 on a database error.
 */
static int
ingest_plan(struct ingest_run *r, char **paths, size_t npaths)
{
	struct ingest_opts *o = r->o;
	size_t i, absorbed = 0;
	int ret = 0;

	r->ntargets = npaths;
	r->targets = xcalloc(npaths, sizeof(*r->targets));
	roots_plan(&r->roots, paths, npaths, r->targets);
	if (!o->nlayouts && use_stored_layouts(r->db, &r->roots, r->targets,
	    npaths, o, &r->stored))
		return -1;
	if (!o->dry_run && (roots_record(r->db, r->st, &r->roots, r->targets,
	    npaths, &absorbed) || roots_warn_unmapped(r->db)))
		return -1;
	if (!o->dry_run && !r->stored.n && o->nlayouts &&
	    remember_layouts(r->db, &r->roots, r->targets, npaths, o))
		return -1;
	r->stats.removed += absorbed;
	for (i = 0; i < npaths; i++) {
		if (r->targets[i].skip)
			ret = 1;
		walk_target(&r->targets[i], &r->files);
	}
	if (r->files.errors)
		ret = 1;
	if (r->db && roots_find_gone(r->db, r->targets, npaths, &r->files,
	    &r->gone))
		return -1;
	test_hooks_after_walk();
	return ret;
}

/*
 * Read, parse and store (or, dry, describe) every file the walk found
 * but the database itself and the collector's sidecars; then the notes,
 * the unused layouts and the files gone.  0, or 1 when something went
 * wrong (said).
 */
static int
ingest_read(struct ingest_run *r)
{
	struct err_capture quiet = ERR_CAPTURE_INIT;
	struct ingest_ctx *ctx = &r->ctx;
	bool show_progress;
	double t0;
	size_t i;
	int ret = 0;

	r->mc = meta_cache_new();
	show_progress = !r->o->quiet && !r->o->dry_run &&
	    isatty(STDERR_FILENO);
	t0 = ingest_now();
	r->todo = xcalloc(r->files.n ? r->files.n : 1, sizeof(*r->todo));
	for (i = 0; i < r->files.n; i++) {
		if (is_db_file(r->files.files[i].path, r->db_real))
			continue;
		if (job_is_sidecar(r->files.files[i].path)) {
			r->stats.sidecars++;
			continue;
		}
		r->todo[r->ntodo++] = &r->files.files[i];
	}
	/* The producer's look-ups for unchanged files use a connection of
	 * their own (WAL: it reads while this one writes); without one it
	 * parses every file and job_finish() alone decides (quietly).  A
	 * dry run parses every file: it shows the keys the content adds.
	 * So does an ingest into a new database: it has no file unchanged,
	 * and under a rollback journal a reader would wait for the writer's
	 * transaction, which waits for the reader's file. */
	if (!r->o->dry_run && !r->rollback) {
		err_capture_begin(&quiet);
		r->rdb = db_open_readonly(r->db_path);
		r->rst = r->rdb ? store_open(r->rdb) : NULL;
		err_capture_end();
		strbuf_release(&quiet.text);
	}
	ctx->o = r->o;
	ctx->stats = &r->stats;
	ctx->notes = notes_new();
	ctx->gone = &r->gone;
	ctx->roots = &r->roots;
	ctx->db = r->db;
	ctx->st = r->st;
	ctx->layout_hits = xcalloc(r->o->nlayouts ? r->o->nlayouts : 1,
	    sizeof(*ctx->layout_hits));
	if (r->o->dry_run) {
		ctx->nmoves = roots_moves(&r->roots, r->targets, r->ntargets,
		    &r->moves);
		ctx->moves = r->moves;
		for (i = 0; i < ctx->nmoves; i++)
			note("the tree '%s' (%s) is inside a tree given: its "
			    "files would be named '%s/...'", r->moves[i].from,
			    r->moves[i].inner->path, r->moves[i].to);
	}
	if (ingest_files(ctx, r->rst, r->mc, r->todo, r->ntodo, r->files.n,
	    show_progress, t0))
		ret = 1;
	if (show_progress)
		ingest_progress(&r->stats, r->files.n, r->files.n, t0, true);
	notes_flush(ctx->notes);
	report_unused_layouts(ctx, r->ntodo);
	if (ingest_report_gone(ctx, &r->gone))
		ret = 1;
	if (r->stats.rejected || r->stats.kept || err_count())
		ret = 1;
	return ret;
}

/*
 * The listing's reader has left (EPIPE): what is still buffered for it
 * goes nowhere, so that closing standard output does not turn the
 * ingest's exit status into a failure.
 */
static void
stdout_reader_gone(void)
{
	int fd;

	if (fflush(stdout) == 0 || errno != EPIPE)
		return;
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return;
	if (dup2(fd, STDOUT_FILENO) >= 0)
		clearerr(stdout);
	close(fd);
}

/* The closing lines: what a dry run would have done, or what was done
 * (with the run view refreshed and the conflicts named); 0 or 1. */
static int
ingest_summary(struct ingest_run *r)
{
	const struct ingest_stats *s = &r->stats;
	int ret = 0;

	if (r->o->dry_run) {
		note("dry run, nothing written: %zu files: %zu new, %zu changed, "
		    "%zu re-keyed, %zu unchanged, %zu skipped, %zu rejected, "
		    "%zu kept as stored; %zu gone (%lld %s)", s->files,
		    s->fresh, s->changed, s->rekeyed, s->unchanged,
		    s->skipped, s->rejected, s->kept, r->gone.n,
		    (long long)r->gone.runs, ingest_runs_word(r->gone.runs));
		return 0;
	}
	if (store_refresh_run_view(r->db))
		ret = 1;
	filekeys_conflicts(r->db);
	note("%zu files: %zu stored (%zu partial), %zu unchanged, %zu skipped, "
	    "%zu rejected, %zu kept as stored; runs: %zu added, %zu replaced, "
	    "%zu removed, %lld in the database; %zu samples", s->files,
	    s->stored, s->partial, s->unchanged, s->skipped, s->rejected,
	    s->kept, s->added, s->replaced, s->removed,
	    (long long)count_runs_in_db(r->db), s->samples);
	if (s->sidecars)
		note("%zu collector sidecar files (cmd.txt, stderr.txt, "
		    "exit_status, ...) passed over", s->sidecars);
	return ret;
}

int
cmd_ingest(int argc, char **argv)
{
	struct ingest_opts o;
	struct ingest_run r;
	enum parseopt_result pr;
	int npaths, rc, ret = PATHSTAT_EXIT_OK;
	void (*old_pipe)(int);
	size_t i;

	err_set_prefix("pathstat ingest");
	/* A reader that leaves (ingest 2>&1 | head -1) ends the listing,
	 * not the ingest: writes to it fail (EPIPE) instead of killing us
	 * between two files, and the exit status is the ingest's. */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	memset(&o, 0, sizeof(o));
	run_keys_init(&o.tags);
	ingest_run_init(&r, &o);
	pr = ingest_parse(&o, argc, argv, &npaths);
	if (pr != PARSEOPT_OK) {
		ret = parseopt_exit(pr);
		goto cleanup;
	}
	err_set_quiet(o.quiet);
	if (ingest_open(&r)) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	rc = ingest_plan(&r, argv, (size_t)npaths);
	if (rc < 0) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	/* a path skipped or a file refused fails the ingest, not the rest */
	if (ingest_read(&r))
		rc = 1;
	if (ingest_summary(&r) || rc)
		ret = PATHSTAT_EXIT_FAIL;
cleanup:
	ingest_run_release(&r);
	for (i = 0; i < o.nlayouts; i++)
		layout_free(o.layouts[i]);
	free(o.layouts);
	free(o.layout_texts);
	run_keys_release(&o.tags);
	err_set_quiet(false);
	stdout_reader_gone();
	if (old_pipe != SIG_ERR)
		signal(SIGPIPE, old_pipe);
	return ret;
}
