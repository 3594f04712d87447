/*
 * walk.c - find the files to ingest under the paths given on the command
 * line: sorted, recursive, skipping hidden entries and sync tools'
 * temporary files, following symlinks only inside the tree, entering
 * each folder once; and open them again later, judging what was opened
 * (a regular file, the one the walk saw) rather than the name.
 */
#include "common/compat.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/utf8.h"
#include "common/xalloc.h"
#include "ingest/tree.h"

struct walk_ctx {
	struct walk_list	*out;
	const char		*root;		/* root as given (no trailing '/') */
	const char		*root_real;	/* realpath of the root */
	const char		*rootbase;	/* prefix of relpath: the root's name */
	bool			lone;		/* a file named alone */
	dev_t			*devs;		/* folders entered: (dev, ino) */
	ino_t			*inos;
	bool			*active;	/* folder still being walked */
	size_t			nseen, alloc_seen;
};

void
walk_list_release(struct walk_list *list)
{
	size_t i;

	for (i = 0; i < list->n; i++) {
		free(list->files[i].path);
		free(list->files[i].relpath);
		free(list->files[i].under);
		free(list->files[i].root);
	}
	free(list->files);
	memset(list, 0, sizeof(*list));
}

/* Names that sync tools and editors use while a file is being written:
 * "x.s3sync", "x.tmp", "x.part", "x~", and s3transfer's "x.json.1a2B3c4D"
 * (eight hex digits appended to the real name). */
static bool
is_temp_name(const char *name)
{
	static const char *const suffixes[] = {
		".s3sync", ".tmp", ".temp", ".part", ".partial", ".crdownload",
		".swp", ".download", "~",
	};
	size_t len = strlen(name), i;
	const char *dot;

	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && !strcmp(name + len - sl, suffixes[i]))
			return true;
	}
	dot = strrchr(name, '.');
	if (dot && strlen(dot + 1) == 8 && memchr(name, '.', (size_t)(dot - name))) {
		bool digit = false, letter = false;

		for (i = 1; i <= 8; i++) {
			if (!isxdigit((unsigned char)dot[i]))
				return false;
			if (isdigit((unsigned char)dot[i]))
				digit = true;
			else
				letter = true;
		}
		/* s3transfer mixes digits and letters; "x.20261130" is a date */
		return digit && letter;
	}
	return false;
}

static void
add_file(struct walk_ctx *ctx, const char *path, const char *under,
    const struct stat *st)
{
	struct walk_list *out = ctx->out;
	struct walk_file *f;

	ALLOC_GROW(out->files, out->n + 1, out->alloc);
	f = &out->files[out->n++];
	f->path = xstrdup(path);
	f->under = xstrdup(under);
	f->relpath = *ctx->rootbase ? xasprintf("%s/%s", ctx->rootbase, under) :
	    xstrdup(under);
	f->root = xstrdup(ctx->root);
	f->lone = ctx->lone;
	f->size = (int64_t)st->st_size;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
}

/* Index of the folder st among those entered, or -1. */
static long
seen_dir(struct walk_ctx *ctx, const struct stat *st)
{
	size_t i;

	for (i = 0; i < ctx->nseen; i++)
		if (ctx->devs[i] == st->st_dev && ctx->inos[i] == st->st_ino)
			return (long)i;
	return -1;
}

/* Record the folder st as entered and being walked; returns its index. */
static size_t
mark_dir(struct walk_ctx *ctx, const struct stat *st)
{
	if (ctx->nseen == ctx->alloc_seen) {
		ctx->alloc_seen = ctx->alloc_seen ? ctx->alloc_seen * 2 : 64;
		ctx->devs = xreallocarray(ctx->devs, ctx->alloc_seen, sizeof(dev_t));
		ctx->inos = xreallocarray(ctx->inos, ctx->alloc_seen, sizeof(ino_t));
		ctx->active = xreallocarray(ctx->active, ctx->alloc_seen,
		    sizeof(bool));
	}
	ctx->devs[ctx->nseen] = st->st_dev;
	ctx->inos[ctx->nseen] = st->st_ino;
	ctx->active[ctx->nseen] = true;
	return ctx->nseen++;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
inside(const char *real, const char *root_real)
{
	size_t rl = strlen(root_real);

	if (!strcmp(root_real, "/"))
		return true;
	return !strncmp(real, root_real, rl) && (real[rl] == '/' || !real[rl]);
}

static void walk_dir(struct walk_ctx *ctx, const char *path, const char *under,
    const struct stat *want);

static void
walk_entry(struct walk_ctx *ctx, const char *path, const char *under,
    const char *name)
{
	struct stat st;
	long seen;

	/* Sidecars are read by the meta cache, which judges them by the
	 * same rules when it opens them (tree_open_inside()). */
	if (!strcmp(name, "meta.json"))
		return;
	if (lstat(path, &st) != 0) {
		error_errno("%s: cannot stat", path);
		ctx->out->errors++;
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);

		if (!real) {
			error_errno("%s: broken symlink", path);
			ctx->out->errors++;
			return;
		}
		if (!inside(real, ctx->root_real)) {
			warning("%s: skipped: symlink leads out of the tree to '%s'",
			    path, real);
			free(real);
			return;
		}
		/* The target as resolved (not the link again, which may
		 * have changed since): what is opened later must be it. */
		if (stat(real, &st) != 0) {
			error_errno("%s: cannot stat", path);
			ctx->out->errors++;
			free(real);
			return;
		}
		seen = S_ISDIR(st.st_mode) ? seen_dir(ctx, &st) : -1;
		if (seen >= 0 && ctx->active[seen]) {
			/* A link to a folder being walked never ends. */
			error("%s: symlink loop: '%s' is already being walked",
			    path, real);
			ctx->out->errors++;
			free(real);
			return;
		}
		if (seen >= 0) {
			warning("%s: skipped: it leads to '%s', a folder "
			    "already walked", path, real);
			free(real);
			return;
		}
		free(real);
	}
	if (S_ISDIR(st.st_mode)) {
		if (seen_dir(ctx, &st) >= 0) {
			warning("%s: skipped: folder already walked", path);
			return;
		}
		walk_dir(ctx, path, under, &st);
	} else if (S_ISREG(st.st_mode)) {
		add_file(ctx, path, under, &st);
	} else {
		warning("%s: skipped: not a regular file", path);
	}
}

/*
 * Walk the folder at path, which the caller found to be want (stat).
 * It is opened once and judged by what was opened: a folder swapped
 * since (for a link out of the tree, say) is not walked.
 */
static void
walk_dir(struct walk_ctx *ctx, const char *path, const char *under,
    const struct stat *want)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0, i, me;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		error_errno("%s: cannot open folder", path);
		ctx->out->errors++;
		return;
	}
	if (fstat(fd, &st) != 0 || st.st_dev != want->st_dev ||
	    st.st_ino != want->st_ino) {
		error("%s: skipped: the folder changed while the tree was "
		    "being walked", path);
		ctx->out->errors++;
		close(fd);
		return;
	}
	me = mark_dir(ctx, &st);
	d = fdopendir(fd);
	if (!d) {
		error_errno("%s: cannot open folder", path);
		ctx->out->errors++;
		close(fd);
		ctx->active[me] = false;
		return;
	}
	while ((errno = 0, de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;	/* hidden, ".", ".." */
		if (is_temp_name(de->d_name))
			continue;
		if (!utf8_valid(de->d_name)) {
			/* stored names reach JSON output, which must be
			 * valid UTF-8; a lossy rewrite would name no file */
			struct strbuf shown = STRBUF_INIT;

			utf8_add_escaped(&shown, de->d_name);
			error("%s/%s: skipped: the name is not valid UTF-8 "
			    "(rename it)", path, shown.buf);
			ctx->out->errors++;
			strbuf_release(&shown);
			continue;
		}
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(de->d_name);
	}
	if (errno) {
		error_errno("%s: cannot read folder", path);
		ctx->out->errors++;
	}
	closedir(d);
	/* qsort(NULL, 0, ...) is undefined: an empty folder has no names */
	if (n > 1)
		qsort(names, n, sizeof(names[0]), cmp_names);
	for (i = 0; i < n; i++) {
		char *child = xasprintf("%s/%s", path, names[i]);
		char *cunder = *under ? xasprintf("%s/%s", under, names[i]) :
		    xstrdup(names[i]);

		walk_entry(ctx, child, cunder, names[i]);
		free(child);
		free(cunder);
		free(names[i]);
	}
	free(names);
	ctx->active[me] = false;
}

/* "a//b/" -> "a/b"; "./x" -> "x"; keeps a lone "/" or ".". */
static char *
clean_path(const char *p)
{
	char *out = xmalloc(strlen(p) + 1), *o = out;
	const char *s = p;

	while (s[0] == '.' && s[1] == '/')
		for (s += 2; *s == '/'; s++)
			;
	for (; *s; s++) {
		if (*s == '/' && o > out && o[-1] == '/')
			continue;
		*o++ = *s;
	}
	while (o > out + 1 && o[-1] == '/')
		o--;
	*o = '\0';
	if (!*out) {
		free(out);
		return xstrdup(".");
	}
	return out;
}

void
walk_target(const struct walk_target *t, struct walk_list *out)
{
	struct walk_ctx ctx;
	struct stat st;
	char *path = NULL;

	memset(&ctx, 0, sizeof(ctx));
	ctx.out = out;
	if (t->skip)
		return;
	/* stat what was resolved: the walk judges what it opens again */
	if (stat(t->real, &st) != 0) {
		error_errno("%s: cannot read", t->arg);
		out->errors++;
		return;
	}
	ctx.root_real = t->root_path;
	ctx.rootbase = t->root_name;
	if (t->is_dir && !*t->under) {
		/* The tree itself: walked under the name it was given by,
		 * which messages repeat.  A file's stored name, its identity
		 * in the database, is the root folder's own name and the path
		 * below it, taken from the resolved root: "results",
		 * "./results/", "/abs/results", "x/../results" and "." inside
		 * it all give "results/A/f", whatever the working folder. */
		path = clean_path(t->arg);
		ctx.root = path;
		walk_dir(&ctx, path, "", &st);
	} else if (t->is_dir) {
		/* A folder inside a tree ingested before: walked as that
		 * tree's part, from the real paths (meta.json is read up to
		 * the tree's root). */
		ctx.root = t->root_path;
		walk_dir(&ctx, t->real, t->under, &st);
	} else if (S_ISREG(st.st_mode)) {
		/* One file: inside a tree ingested before it is that tree's
		 * file; alone, its own folder is its root, and its stored name
		 * that folder's name and its own. */
		ctx.root = t->root_path;
		ctx.lone = t->lone;
		add_file(&ctx, t->real, t->under, &st);
	} else {
		error("%s: not a file or folder", t->arg);
		out->errors++;
	}
	free(ctx.devs);
	free(ctx.inos);
	free(ctx.active);
	free(path);
}

/*
 * Open path for reading without blocking on a FIFO or a device (the open
 * itself), and check on the open descriptor that it is a regular file.
 * Returns the descriptor, -2 when path does not exist, or -1 with the
 * reason in why.
 */
static int
open_regular(const char *path, struct stat *st, struct strbuf *why)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return -2;
		strbuf_addf(why, "cannot read: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, st) != 0) {
		strbuf_addf(why, "cannot read: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		strbuf_addf(why, "not a regular file (%s)",
		    S_ISFIFO(st->st_mode) ? "a FIFO" : S_ISDIR(st->st_mode) ?
		    "a folder" : S_ISSOCK(st->st_mode) ? "a socket" :
		    "a device");
		close(fd);
		return -1;
	}
	return fd;
}

int
walk_open(const struct walk_file *wf, struct strbuf *why)
{
	struct stat st;
	int fd = open_regular(wf->path, &st, why);

	if (fd == -2) {
		strbuf_addstr(why, "vanished while the tree was being read");
		return -1;
	}
	if (fd < 0)
		return -1;
	if (st.st_dev != wf->dev || st.st_ino != wf->ino) {
		strbuf_addstr(why, "replaced by another file since the tree "
		    "was walked (not read; run ingest again)");
		close(fd);
		return -1;
	}
	return fd;
}

int
tree_open_inside(const char *path, const char *root_real, struct strbuf *why)
{
	struct stat st, rst;
	char *real = NULL;
	int fd = open_regular(path, &st, why);

	if (fd < 0)
		return fd;
	real = realpath(path, NULL);
	if (!real) {
		strbuf_addf(why, "cannot resolve: %s", strerror(errno));
		goto fail;
	}
	if (!inside(real, root_real)) {
		strbuf_addf(why, "symlink leads out of the tree to '%s'", real);
		goto fail;
	}
	/* the name resolved inside the tree; was that what was opened? */
	if (stat(real, &rst) != 0 || rst.st_dev != st.st_dev ||
	    rst.st_ino != st.st_ino) {
		strbuf_addstr(why, "changed while it was being read");
		goto fail;
	}
	free(real);
	return fd;
fail:
	free(real);
	close(fd);
	return -1;
}
