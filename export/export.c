/*
 * export.c - `pathstat export`: the database as Parquet datasets
 * (samples/, runs/, summaries/, findings/ and manifest.json) that
 * Athena, Trino, Spark and DuckDB read, written incrementally; and
 * `--ddl ENGINE`, the statements that make them tables.
 */
#include "common/compat.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "cmds.h"
#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/outdir.h"
#include "common/parse.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "export/internal.h"

#define EXPORT_USAGE \
	"usage: pathstat export [--db FILE] [--where KEY=VALUE]...\n" \
	"                       [--partition-by KEYS] " \
	"[--codec zstd|gzip|none]\n" \
	"                       [--basic-encodings] [--file-size SIZE] " \
	"[--force]\n" \
	"                       [--quiet] [--writer NAME] --out DIR\n" \
	"   or: pathstat export [--db FILE] --ddl athena|trino|spark|duckdb\n" \
	"                       [--out DIR | --location URI] [--where ...]\n" \
	"                       [--partition-by KEYS]\n"

static void
export_usage(FILE *fp)
{
	fputs(EXPORT_USAGE, fp);
	fputs("\n"
	    "Write the database as Parquet for Athena, Trino, Spark and\n"
	    "DuckDB: DIR/samples/ (one row per sample), runs/ (one per run),\n"
	    "summaries/ (the tools' own statistics) and findings/ (what\n"
	    "'pathstat check' reports), in Hive-style partition folders\n"
	    "(day=2026-08-28/), and DIR/manifest.json with each file's\n"
	    "content hash.  Run it again and only partitions whose runs\n"
	    "changed are written; files appear under their names only when\n"
	    "complete.\n"
	    "\n"
	    "  --db FILE            database (default $PATHSTAT_DB, else\n"
	    "                       ./pathstat.db)\n"
	    "  --out DIR            where the datasets go (created; an\n"
	    "                       existing DIR must be empty or hold an\n"
	    "                       earlier export)\n"
	    "  --where KEY=VALUE    export only the runs that match (as in\n"
	    "                       analyze)\n"
	    "  --partition-by KEYS  partition folders, e.g. day or\n"
	    "                       day,instance_type; 'none' for one folder\n"
	    "                       (default: day when runs have one, else\n"
	    "                       none)\n"
	    "  --codec C            zstd (default), gzip or none\n"
	    "  --basic-encodings    only PLAIN and dictionary encodings, for\n"
	    "                       readers without DELTA_BINARY_PACKED or\n"
	    "                       BYTE_STREAM_SPLIT\n"
	    "  --file-size SIZE     start a new part file past SIZE bytes\n"
	    "                       (k, m, g; default 256m)\n"
	    "  --force              rewrite every partition\n"
	    "  -q, --quiet          no progress notes\n"
	    "  --writer NAME        one of several machines exporting into\n"
	    "                       one dataset: part-NAME-NNNNN.parquet\n"
	    "                       and DIR/manifests/NAME.json; runs\n"
	    "                       another writer's manifest lists are\n"
	    "                       left out\n"
	    "  --ddl ENGINE         print CREATE statements for athena,\n"
	    "                       trino, spark or duckdb instead of\n"
	    "                       exporting\n"
	    "  --location URI       where the engine finds the datasets\n"
	    "                       (s3://bucket/prefix); DuckDB may use\n"
	    "                       --out DIR\n"
	    "\n"
	    "With --writer NAME, machines that each ingest into their own\n"
	    "database export into one dataset; a run is in it once (the\n"
	    "first writer that exported it keeps it).\n", fp);
}

struct export_cli {
	const char	*db_path;
	const char	*out;
	const char	*location;
	const char	*partition_by;	/* as given; NULL = the default */
	struct where	where;
	char		**where_text;	/* --where as typed, for the manifest */
	size_t		nwhere_text;
	struct export_opts opts;
	int		dirfd;		/* DIR, open while writing */
	bool		force, quiet;
	bool		ddl;
	enum export_engine engine;
};

/* Parse "256m", "64k", "1g", "1048576" into bytes; -1 if bad. */
static int
parse_size(const char *s, size_t *out)
{
	struct strbuf num = STRBUF_INIT;
	size_t len = strlen(s), mult = 1;
	long v;
	int ret = -1;

	if (!len)
		return -1;
	switch (s[len - 1]) {
	case 'k': case 'K':
		mult = 1024;
		break;
	case 'm': case 'M':
		mult = 1024 * 1024;
		break;
	case 'g': case 'G':
		mult = 1024 * 1024 * 1024;
		break;
	default:
		break;
	}
	strbuf_add(&num, s, mult > 1 ? len - 1 : len);
	if (!parse_long(num.buf, 1, LONG_MAX / 1024 / 1024 / 1024, &v) &&
	    (uint64_t)v * mult >= 4096) {
		*out = (size_t)v * mult;
		ret = 0;
	}
	strbuf_release(&num);
	return ret;
}

/* Split "a,b" into *keys. */
static void
split_keys(const char *list, char ***keys, size_t *n)
{
	char *copy = xstrdup(list), *p = copy, *k;

	*keys = NULL;
	*n = 0;
	while ((k = strsep(&p, ",")) != NULL) {
		if (!*k)
			continue;
		*keys = xreallocarray(*keys, *n + 1, sizeof(**keys));
		(*keys)[(*n)++] = xstrdup(k);
	}
	free(copy);
}

static void
free_keys(char **keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/*
 * The partition keys: --partition-by, else the manifest's (for --ddl
 * with --out), else day when a selected run has one.  Returns 0, or -2
 * after a usage error.
 */
static int
choose_pkeys(sqlite3 *db, const struct export_cli *cli,
    const struct manifest *old, const struct export_model *m, char ***keys,
    size_t *n)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;

	*keys = NULL;
	*n = 0;
	if (cli->partition_by) {
		if (!strcmp(cli->partition_by, "none"))
			return 0;
		split_keys(cli->partition_by, keys, n);
		for (i = 0; i < *n; i++) {
			if (!export_check_key(db, (*keys)[i], &why))
				continue;
			error("bad --partition-by: %s", why.buf);
			strbuf_release(&why);
			return -2;
		}
		for (i = 0; i + 1 < *n; i++) {
			size_t j;

			for (j = i + 1; j < *n; j++)
				if (!strcmp((*keys)[i], (*keys)[j])) {
					error("bad --partition-by: '%s' "
					    "twice", (*keys)[i]);
					return -2;
				}
		}
		return 0;
	}
	if (cli->ddl && old) {
		*keys = xcalloc(old->npkeys ? old->npkeys : 1, sizeof(**keys));
		for (i = 0; i < old->npkeys; i++)
			(*keys)[i] = xstrdup(old->pkeys[i]);
		*n = old->npkeys;
		return 0;
	}
	if (export_model_has_key(m, "day")) {
		*keys = xcalloc(1, sizeof(**keys));
		(*keys)[0] = xstrdup("day");
		*n = 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * The output folder
 */

static bool
dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool empty = true;

	if (!d)
		return errno == ENOENT;
	while (empty && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* Whether name is one of our part files (tmp: its hidden temporary
 * form): part-NNNNN.parquet, or part-WRITER-NNNNN.parquet with a
 * writer, so a writer never takes another's files for its own. */
static bool
is_part_name(const char *name, const char *writer, bool tmp)
{
	const char *p = name;
	int i;

	if (tmp && *p++ != '.')
		return false;
	if (strncmp(p, "part-", 5))
		return false;
	p += 5;
	if (writer) {
		size_t n = strlen(writer);

		if (strncmp(p, writer, n) || p[n] != '-')
			return false;
		p += n + 1;
	}
	for (i = 0; i < 5; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return !strcmp(p + 5, tmp ? ".parquet.tmp" : ".parquet");
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files to keep (relative to DIR), sorted, for remove_stale(). */
struct keep {
	char	**path;
	size_t	n;
};

/*
 * Under DIR/<rel> (DIR open as dirfd, named dir): remove our temporary
 * files, our part files that the manifest no longer lists (a partition
 * gone or with fewer files, an earlier --partition-by, a killed run's
 * leftovers) and then folders left empty.  Never touches a name we do
 * not write, nor anything but a regular file, and never follows a link
 * (a linked folder is left alone: what it points to is not ours).
 * Counts removed part files in *removed.
 */
static int
remove_stale(int dirfd, const char *dir, const char *rel,
    const char *writer, const struct keep *keep, size_t *removed)
{
	struct strbuf shown = STRBUF_INIT, sub = STRBUF_INIT;
	struct dirent *de;
	struct stat stt;
	const char *key;
	DIR *d = NULL;
	int fd, ret = 0, rc;

	strbuf_addf(&shown, "%s/%s", dir, rel);
	fd = outdir_open_path(dirfd, dir, rel, 0);
	if (fd < 0) {
		strbuf_release(&shown);
		return fd == -2 ? 0 : -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		ret = error_errno("cannot read '%s'", shown.buf);
		goto cleanup;
	}
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", rel, de->d_name);
		if (fstatat(fd, de->d_name, &stt, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(stt.st_mode)) {
			if (remove_stale(dirfd, dir, sub.buf, writer, keep,
			    removed))
				ret = -1;
			/* only a folder we emptied, or an empty one */
			unlinkat(fd, de->d_name, AT_REMOVEDIR);
			continue;
		}
		if (!S_ISREG(stt.st_mode)) {
			/* a link or FIFO planted at our temporary name:
			 * reported and removed (the entry, not its target) */
			if (is_part_name(de->d_name, writer, true)) {
				strbuf_reset(&shown);
				strbuf_addf(&shown, "%s/%s", dir, sub.buf);
				if (outdir_clear_planted(fd, de->d_name,
				    shown.buf))
					ret = -1;
			}
			continue;
		}
		key = sub.buf;
		if (is_part_name(de->d_name, writer, true) ||
		    (is_part_name(de->d_name, writer, false) &&
		    !bsearch(&key, keep->path, keep->n, sizeof(*keep->path),
		    cmp_strp))) {
			strbuf_reset(&shown);
			strbuf_addf(&shown, "%s/%s", dir, sub.buf);
			rc = outdir_remove_regular(fd, de->d_name, shown.buf);
			if (rc < 0)
				ret = -1;
			else if (rc > 0 && !is_part_name(de->d_name, writer, true))
				(*removed)++;
		}
	}
cleanup:
	if (d)
		closedir(d);
	strbuf_release(&shown);
	strbuf_release(&sub);
	return ret;
}

/* Whether e's files are all there, regular files reached through real
 * folders, with the sizes it records. */
static bool
files_intact(int dirfd, const struct manifest_entry *e)
{
	struct stat stt;
	size_t i;
	bool ok = e->files.n > 0;

	for (i = 0; i < e->files.n && ok; i++)
		ok = !outdir_stat_path(dirfd, e->files.items[i].path, &stt) &&
		    S_ISREG(stt.st_mode) &&
		    (uint64_t)stt.st_size == e->files.items[i].bytes;
	return ok;
}

static void
copy_entry(const struct manifest_entry *src, struct manifest_entry *dst)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	dst->ds = src->ds;
	dst->dir = xstrdup(src->dir);
	memcpy(dst->fingerprint, src->fingerprint, 33);
	dst->runs = src->runs;
	for (i = 0; i < src->files.n; i++) {
		struct export_file *f;

		ALLOC_GROW(dst->files.items, dst->files.n + 1,
		    dst->files.alloc);
		f = &dst->files.items[dst->files.n++];
		*f = src->files.items[i];
		f->path = xstrdup(src->files.items[i].path);
	}
}

/* Write text to the manifest name in the folder dirfd (named dir):
 * manifest.json, or a writer's NAME.json in DIR/manifests (temporary
 * name ".NAME.tmp", then rename, by the rules of common/outdir.h)
 * unless it already holds exactly that.  Sets *wrote. */
static int
write_manifest(int dirfd, const char *dir, const char *name,
    const struct strbuf *text, bool *wrote)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT, old = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT, tmpname = STRBUF_INIT;
	int fd = -1, ret = -1;

	*wrote = false;
	strbuf_addf(&tmpname, ".%s.tmp", name);
	strbuf_addf(&path, "%s/%s", dir, name);
	strbuf_addf(&tmp, "%s/%s", dir, tmpname.buf);
	if (!outdir_read_regular(dirfd, name, 1 << 30, &old,
	    &why) && old.len == text->len &&
	    !memcmp(old.buf, text->buf, text->len)) {
		ret = 0;
		goto cleanup;
	}
	fd = outdir_create(dirfd, tmpname.buf, tmp.buf);
	if (fd < 0)
		goto cleanup;
	if (outdir_write_all(fd, text->buf, text->len, tmp.buf))
		goto cleanup;
	if (fsync(fd)) {
		error_errno("cannot write '%s'", tmp.buf);
		goto cleanup;
	}
	if (close(fd)) {
		fd = -1;
		error_errno("cannot write '%s'", tmp.buf);
		goto cleanup;
	}
	fd = -1;
	if (outdir_rename(dirfd, tmpname.buf, dirfd, name, path.buf))
		goto cleanup;
	*wrote = true;
	ret = 0;
cleanup:
	if (ret)
		outdir_remove_regular(dirfd, tmpname.buf, tmp.buf);
	if (fd >= 0)
		close(fd);
	strbuf_release(&tmpname);
	strbuf_release(&path);
	strbuf_release(&tmp);
	strbuf_release(&old);
	strbuf_release(&why);
	return ret;
}

/* ---------------------------------------------------------------------
 * Several writers, one dataset (--writer)
 */

/* Whether name is a writer name: 1..EXPORT_WRITER_MAX bytes of
 * [A-Za-z0-9_.-], not starting with '.' or '-'. */
static bool
writer_name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || len > EXPORT_WRITER_MAX || name[0] == '.' ||
	    name[0] == '-')
		return false;
	for (i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_.-", name[i]))
			return false;
	return true;
}

/* The other writers' manifests in DIR/manifests, by name. */
struct writers {
	struct manifest	*mf;
	char		**name;		/* owned */
	size_t		n;
};

static void
writers_release(struct writers *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		manifest_release(&w->mf[i]);
		free(w->name[i]);
	}
	free(w->mf);
	free(w->name);
	memset(w, 0, sizeof(*w));
}

/*
 * Read every NAME.json in the folder mfd (DIR/manifests, shown as
 * shown) but self's into w, sorted by name.  Other entries are left
 * alone.  0, or -1 after an error (a manifest that is not one, or a
 * link or FIFO at NAME.json).
 */
static int
read_writers(int mfd, const char *shown, const char *self, struct writers *w)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	char **names = NULL;
	size_t n = 0, i, len;
	int fd, ret = -1;

	memset(w, 0, sizeof(*w));
	fd = dup(mfd);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return error_errno("cannot read '%s'", shown);
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json") ||
		    !writer_name_ok(de->d_name, len - 5) ||
		    (self && len - 5 == strlen(self) &&
		    !strncmp(de->d_name, self, len - 5)))
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_strp);
	w->mf = xcalloc(n ? n : 1, sizeof(*w->mf));
	w->name = xcalloc(n ? n : 1, sizeof(*w->name));
	for (i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", shown, names[i]);
		if (manifest_read_at(mfd, names[i], path.buf, &w->mf[w->n]))
			goto cleanup;
		strbuf_reset(&name);
		strbuf_add(&name, names[i], strlen(names[i]) - 5);
		w->name[w->n++] = strbuf_detach(&name, NULL);
	}
	ret = 0;
cleanup:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&name);
	strbuf_release(&path);
	return ret;
}

/* Every writer's manifest in DIR/manifests, for --ddl; none when DIR
 * has no manifests/.  0, or -1 after an error. */
static int
read_all_writers(const char *dir, struct writers *w)
{
	struct strbuf shown = STRBUF_INIT;
	int dirfd, mfd = -1, ret = -1;

	memset(w, 0, sizeof(*w));
	strbuf_addf(&shown, "%s/manifests", dir);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		ret = errno == ENOENT ? 0 : error_errno("cannot open '%s'",
		    dir);
		goto cleanup;
	}
	mfd = outdir_open_sub(dirfd, "manifests", shown.buf, 0);
	if (mfd == -2) {
		ret = 0;
		goto cleanup;
	}
	if (mfd >= 0)
		ret = read_writers(mfd, shown.buf, NULL, w);
cleanup:
	if (mfd >= 0)
		close(mfd);
	if (dirfd >= 0)
		close(dirfd);
	strbuf_release(&shown);
	return ret;
}

/* A run id another writer exported, and which writer. */
struct owner {
	const char	*id;
	const char	*writer;
};

static int
cmp_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : strcmp(x->writer, y->writer);
}

/*
 * Leave out of m the runs another writer's manifest lists, so no run is
 * in the dataset twice: a run belongs to the first writer that exported
 * it.  A run this writer's own manifest (old) lists too was exported
 * by both without seeing the other (the manifests were not synced in
 * between): the writer whose name sorts first keeps it, the other
 * leaves it out at its next export.  Counts what it left out.
 */
static size_t
leave_out_others(struct export_model *m, const struct writers *w,
    const struct manifest *old, const char *self)
{
	struct owner *own = NULL, key;
	const struct owner *hit;
	char **mine = old->run_ids;
	size_t n = 0, i, j, lo, hi, left = 0;

	for (i = 0; i < w->n; i++)
		for (j = 0; j < w->mf[i].nrun_ids; j++) {
			own = xreallocarray(own, n + 1, sizeof(*own));
			own[n].id = w->mf[i].run_ids[j];
			own[n++].writer = w->name[i];
		}
	if (!n)
		return 0;
	qsort(own, n, sizeof(*own), cmp_owner);
	if (old->nrun_ids)
		qsort(mine, old->nrun_ids, sizeof(*mine), cmp_strp);
	for (i = 0; i < m->nall; i++) {
		struct export_run *r = &m->all[i];
		const char *id = r->run_id;

		if (!r->selected)
			continue;
		key.id = r->run_id;
		key.writer = "";
		/* the first writer (by name) that lists it: the lower
		 * bound of (id, "") */
		lo = 0;
		hi = n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_owner(&own[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == n || strcmp(own[lo].id, id))
			continue;
		hit = &own[lo];
		if (old->nrun_ids && bsearch(&id, mine, old->nrun_ids,
		    sizeof(*mine), cmp_strp) && strcmp(self, hit->writer) < 0)
			continue;
		r->selected = false;
		left++;
	}
	free(own);
	export_model_reselect(m);
	return left;
}

/* ---------------------------------------------------------------------
 * Export
 */

struct tally {
	size_t		written, kept;	/* partitions */
	uint64_t	rows, bytes;	/* of the written ones */
};

/* One dataset partition to export or keep. */
struct plan_item {
	enum export_dataset	ds;
	const struct export_part *part;		/* NULL for findings */
	char			fingerprint[33];
	const struct manifest_entry *prev;	/* kept: the old entry */
};

/* pathstat check on its own connection, beside the writing. */
struct check_job {
	const char		*db_path;
	const struct where	*where;
	struct check_findings	findings;
	struct err_capture	msgs;		/* printed after the join */
	int			rc;
};

static void *
check_thread(void *arg)
{
	struct check_job *job = arg;
	sqlite3 *db;

	err_capture_begin(&job->msgs);
	db = db_open_readonly(job->db_path);
	job->rc = db ? analyze_check(db, job->where, &job->findings) : -1;
	db_close(db);
	err_capture_end();
	return NULL;
}

/* Whether the old manifest's entry can stand for this partition. */
static const struct manifest_entry *
reusable(const struct export_cli *cli, const struct manifest *old,
    enum export_dataset ds, const char *dir, const char *fingerprint)
{
	const struct manifest_entry *prev = manifest_find(old, ds, dir);

	if (cli->force || !prev || strcmp(prev->fingerprint, fingerprint) ||
	    !files_intact(cli->dirfd, prev))
		return NULL;
	return prev;
}

/* Write (or keep) one planned partition; adds its entry to mf. */
static int
export_item(sqlite3 *db, const struct export_model *m,
    const struct plan_item *it, const struct check_findings *findings,
    const struct export_cli *cli, struct manifest *mf, struct tally *t)
{
	struct manifest_entry e;
	size_t i;

	if (it->prev) {
		copy_entry(it->prev, &e);
		manifest_add(mf, &e);
		t->kept++;
		return 0;
	}
	memset(&e, 0, sizeof(e));
	e.ds = it->ds;
	e.dir = xstrdup(it->part ? it->part->dir : "");
	e.runs = it->part ? it->part->n : 0;
	memcpy(e.fingerprint, it->fingerprint, 33);
	if (!cli->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[Kpathstat export: %s/%s",
		    export_dataset_name(it->ds), e.dir);
	if (export_write_part(db, m, it->ds, it->part, findings, cli->dirfd,
	    cli->out, &cli->opts, &e.files)) {
		free(e.dir);
		export_files_release(&e.files);
		return -1;
	}
	for (i = 0; i < e.files.n; i++) {
		t->rows += e.files.items[i].rows;
		t->bytes += e.files.items[i].bytes;
	}
	t->written++;
	manifest_add(mf, &e);
	return 0;
}

static void
mbytes(struct strbuf *sb, uint64_t b)
{
	if (b >= 1000000)
		strbuf_addf(sb, "%.1f MB", (double)b / 1e6);
	else
		strbuf_addf(sb, "%.1f kB", (double)b / 1e3);
}

static void
report(const struct export_cli *cli, const struct tally *t, size_t removed,
    size_t nruns, bool wrote)
{
	struct strbuf sb = STRBUF_INIT;
	int ds;

	for (ds = 0; ds < DS_COUNT; ds++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: %zu partition%s written",
		    export_dataset_name((enum export_dataset)ds),
		    t[ds].written, t[ds].written == 1 ? "" : "s");
		if (t[ds].written) {
			strbuf_addf(&sb, " (%llu rows, ",
			    (unsigned long long)t[ds].rows);
			mbytes(&sb, t[ds].bytes);
			strbuf_addch(&sb, ')');
		}
		strbuf_addf(&sb, ", %zu unchanged", t[ds].kept);
		note("%s", sb.buf);
	}
	if (removed)
		note("removed %zu part file%s no longer exported", removed,
		    removed == 1 ? "" : "s");
	note("%zu runs in '%s'%s", nruns, cli->out, wrote ? "" :
	    "; nothing changed");
	strbuf_release(&sb);
}

/*
 * Open DIR for writing (created), locked against a second export, as
 * cli->dirfd; with --writer also DIR/manifests as *mfd.  Reads this
 * export's earlier manifest into old (*had_old) and, with --writer,
 * the other writers' into others.  Refuses a DIR that is neither empty
 * nor ours (-2), or that holds the other layout.  0, -1 or -2.
 */
static int
open_out(struct export_cli *cli, int *mfd, struct manifest *old,
    bool *had_old, struct writers *others)
{
	struct strbuf shown = STRBUF_INIT, name = STRBUF_INIT;
	struct stat stt;
	bool empty;
	int rc, ret = -1;

	*mfd = -1;
	*had_old = false;
	memset(old, 0, sizeof(*old));
	memset(others, 0, sizeof(*others));
	empty = dir_is_empty(cli->out);
	if (mkdir(cli->out, 0777) && errno != EEXIST) {
		error_errno("cannot create '%s'", cli->out);
		goto cleanup;
	}
	/* one export at a time into a folder */
	cli->dirfd = open(cli->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cli->dirfd < 0) {
		error_errno("cannot open '%s'", cli->out);
		goto cleanup;
	}
	if (flock(cli->dirfd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			error("another export is writing '%s'", cli->out);
		else
			error_errno("cannot lock '%s'", cli->out);
		goto cleanup;
	}
	if (!cli->opts.writer) {
		strbuf_addf(&shown, "%s/manifest.json", cli->out);
		rc = manifest_read_at(cli->dirfd, "manifest.json", shown.buf,
		    old);
		if (rc < 0)
			goto cleanup;
		if (rc == 1 && !empty) {
			error("'%s' is not empty and holds no manifest.json: "
			    "not an export of pathstat (several machines "
			    "export into one folder with --writer); give an "
			    "empty or new folder", cli->out);
			ret = -2;
			goto cleanup;
		}
		*had_old = rc == 0;
		ret = 0;
		goto cleanup;
	}
	/* --writer: DIR/manifests/NAME.json, and no manifest.json */
	if (!fstatat(cli->dirfd, "manifest.json", &stt, AT_SYMLINK_NOFOLLOW)) {
		error("'%s' holds one machine's export (manifest.json): "
		    "writers share a folder only when each exports with "
		    "--writer; give a new folder", cli->out);
		ret = -2;
		goto cleanup;
	}
	strbuf_addf(&shown, "%s/manifests", cli->out);
	if (!empty && fstatat(cli->dirfd, "manifests", &stt,
	    AT_SYMLINK_NOFOLLOW)) {
		error("'%s' is not empty and holds no manifests/: not an "
		    "export of pathstat; give an empty or new folder",
		    cli->out);
		ret = -2;
		goto cleanup;
	}
	*mfd = outdir_open_sub(cli->dirfd, "manifests", shown.buf,
	    OUTDIR_CREATE);
	if (*mfd < 0)
		goto cleanup;
	strbuf_addf(&name, "%s.json", cli->opts.writer);
	strbuf_reset(&shown);
	strbuf_addf(&shown, "%s/manifests/%s", cli->out, name.buf);
	rc = manifest_read_at(*mfd, name.buf, shown.buf, old);
	if (rc < 0)
		goto cleanup;
	*had_old = rc == 0;
	strbuf_reset(&shown);
	strbuf_addf(&shown, "%s/manifests", cli->out);
	if (read_writers(*mfd, shown.buf, cli->opts.writer, others))
		goto cleanup;
	ret = 0;
cleanup:
	strbuf_release(&shown);
	strbuf_release(&name);
	return ret;
}

/* With other writers: their partition keys, which this export must
 * share (their folders and ours make one table).  0, or -2 when
 * --partition-by asks for others or two writers disagree. */
static int
writers_pkeys(const struct export_cli *cli, const struct writers *w,
    char ***keys, size_t *n)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	for (i = 0; i < w->n && !ret; i++) {
		strbuf_reset(&b);
		for (k = 0; k < w->mf[i].npkeys; k++)
			strbuf_addf(&b, "%s%s", k ? "," : "",
			    w->mf[i].pkeys[k]);
		if (!b.len)
			strbuf_addstr(&b, "none");
		if (i == 0) {
			strbuf_add(&a, b.buf, b.len);
			continue;
		}
		if (strcmp(a.buf, b.buf)) {
			error("writers '%s' and '%s' partition by %s and by "
			    "%s: one dataset has one partitioning",
			    w->name[0], w->name[i], a.buf, b.buf);
			ret = -2;
		}
	}
	if (!ret && w->n && cli->partition_by) {
		strbuf_reset(&b);
		strbuf_addstr(&b, cli->partition_by);
		if (strcmp(a.buf, b.buf)) {
			error("bad --partition-by '%s': writer '%s' "
			    "partitions by %s, and one dataset has one "
			    "partitioning", cli->partition_by, w->name[0],
			    a.buf);
			ret = -2;
		}
	}
	if (!ret && w->n) {
		*keys = xcalloc(w->mf[0].npkeys ? w->mf[0].npkeys : 1,
		    sizeof(**keys));
		for (k = 0; k < w->mf[0].npkeys; k++)
			(*keys)[k] = xstrdup(w->mf[0].pkeys[k]);
		*n = w->mf[0].npkeys;
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

static int
run_export(sqlite3 *db, struct export_cli *cli)
{
	struct export_model m;
	struct manifest old, mf;
	struct writers others;
	struct check_job job;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf mname = STRBUF_INIT, mshown = STRBUF_INIT;
	struct keep keep = { NULL, 0 };
	struct tally t[DS_COUNT];
	struct plan_item *plan = NULL;
	char **pkeys = NULL;
	size_t npkeys = 0, nplan = 0, i, j, removed = 0, left = 0;
	pthread_t tid;
	bool wrote, started = false, had_old;
	int ret = PATHSTAT_EXIT_FAIL, rc, ds, lockfd = -1, mfd = -1, mdirfd;

	memset(&m, 0, sizeof(m));
	memset(&old, 0, sizeof(old));
	memset(&mf, 0, sizeof(mf));
	memset(&others, 0, sizeof(others));
	memset(&job, 0, sizeof(job));
	job.findings = (struct check_findings)CHECK_FINDINGS_INIT;
	job.msgs = (struct err_capture)ERR_CAPTURE_INIT;
	memset(t, 0, sizeof(t));
	cli->dirfd = -1;
	rc = export_model_load(db, &cli->where, &m);
	if (rc) {
		ret = rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (!m.nruns) {
		error(cli->where.n ? "no runs match the --where filters" :
		    "the database holds no runs");
		goto cleanup;
	}

	/* a bad --partition-by is a usage error before DIR is made */
	if (choose_pkeys(db, cli, NULL, &m, &pkeys, &npkeys)) {
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}

	/* DIR: new, empty, or an earlier export of ours */
	rc = open_out(cli, &mfd, &old, &had_old, &others);
	lockfd = cli->dirfd;
	if (rc) {
		ret = rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (cli->opts.writer) {
		mdirfd = mfd;
		strbuf_addf(&mname, "%s.json", cli->opts.writer);
		strbuf_addf(&mshown, "%s/manifests", cli->out);
	} else {
		mdirfd = lockfd;
		strbuf_addstr(&mname, "manifest.json");
		strbuf_addstr(&mshown, cli->out);
	}
	if (others.n) {
		/* the other writers' partitioning is the dataset's */
		free_keys(pkeys, npkeys);
		pkeys = NULL;
		npkeys = 0;
		if (writers_pkeys(cli, &others, &pkeys, &npkeys)) {
			ret = PATHSTAT_EXIT_USAGE;
			goto cleanup;
		}
		left = leave_out_others(&m, &others, &old, cli->opts.writer);
	}
	export_model_partition(&m, pkeys, npkeys);
	mf.pkeys = xcalloc(npkeys ? npkeys : 1, sizeof(*mf.pkeys));
	for (i = 0; i < npkeys; i++)
		mf.pkeys[i] = xstrdup(pkeys[i]);
	mf.npkeys = npkeys;
	mf.where = xcalloc(cli->nwhere_text ? cli->nwhere_text : 1,
	    sizeof(*mf.where));
	for (i = 0; i < cli->nwhere_text; i++)
		mf.where[i] = xstrdup(cli->where_text[i]);
	mf.nwhere = cli->nwhere_text;

	/* a link or FIFO planted at our temporary name goes, even when
	 * the manifest is not rewritten */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/.%s.tmp", mshown.buf, mname.buf);
	strbuf_reset(&text);
	strbuf_addf(&text, ".%s.tmp", mname.buf);
	if (outdir_clear_planted(mdirfd, text.buf, path.buf))
		goto cleanup;
	strbuf_reset(&text);
	if (!had_old) {
		/* mark DIR as ours before the first file, so a run killed
		 * half way can be repeated into it */
		manifest_json(&mf, &m, &cli->opts, &text);
		if (write_manifest(mdirfd, mshown.buf, mname.buf, &text,
		    &wrote))
			goto cleanup;
		strbuf_reset(&text);
	}

	/* the plan: every partition's fingerprint, and what can stay */
	plan = xcalloc(3 * m.nparts + 1, sizeof(*plan));
	for (ds = DS_SAMPLES; ds <= DS_SUMMARIES; ds++)
		for (i = 0; i < m.nparts; i++) {
			struct plan_item *it = &plan[nplan++];

			it->ds = (enum export_dataset)ds;
			it->part = &m.parts[i];
			export_fingerprint(&m, it->ds, it->part, &cli->opts,
			    NULL, it->fingerprint);
			it->prev = reusable(cli, &old, it->ds, it->part->dir,
			    it->fingerprint);
			strbuf_addstr(&text, it->fingerprint);
		}
	/* findings come from the same runs: unchanged runs, same findings
	 * (check itself is the slow part, so it runs only when needed) */
	for (i = 0; i < cli->nwhere_text; i++)
		strbuf_addf(&text, "\n%s", cli->where_text[i]);
	plan[nplan].ds = DS_FINDINGS;
	export_fingerprint(&m, DS_FINDINGS, NULL, &cli->opts, text.buf,
	    plan[nplan].fingerprint);
	plan[nplan].prev = reusable(cli, &old, DS_FINDINGS, "",
	    plan[nplan].fingerprint);
	if (!plan[nplan].prev) {
		job.db_path = db_default_path(cli->db_path);
		job.where = &cli->where;
		if (pthread_create(&tid, NULL, check_thread, &job)) {
			error("cannot start a thread for the checks");
			goto cleanup;
		}
		started = true;
	}
	nplan++;

	for (i = 0; i + 1 < nplan; i++)
		if (export_item(db, &m, &plan[i], NULL, cli, &mf,
		    &t[plan[i].ds]))
			goto cleanup;
	if (started) {
		pthread_join(tid, NULL);
		started = false;
		err_capture_flush(&job.msgs);
		if (job.rc)
			goto cleanup;
	}
	if (export_item(db, &m, &plan[nplan - 1], &job.findings, cli, &mf,
	    &t[DS_FINDINGS]))
		goto cleanup;
	if (!cli->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);

	/* what the new manifest lists stays; our other files go */
	for (i = 0; i < mf.n; i++)
		for (j = 0; j < mf.items[i].files.n; j++) {
			keep.path = xreallocarray(keep.path, keep.n + 1,
			    sizeof(*keep.path));
			keep.path[keep.n++] = mf.items[i].files.items[j].path;
		}
	if (keep.n)	/* qsort(NULL, 0) is undefined */
		qsort(keep.path, keep.n, sizeof(*keep.path), cmp_strp);
	for (ds = 0; ds < DS_COUNT; ds++)
		if (remove_stale(lockfd, cli->out, export_dataset_name((enum
		    export_dataset)ds), cli->opts.writer, &keep, &removed))
			goto cleanup;

	strbuf_reset(&text);
	manifest_json(&mf, &m, &cli->opts, &text);
	if (write_manifest(mdirfd, mshown.buf, mname.buf, &text, &wrote))
		goto cleanup;
	if (left)
		note("left out %zu run%s that other writers exported "
		    "(manifests/*.json): each run is in the dataset once",
		    left, left == 1 ? "" : "s");
	if (!cli->quiet)
		report(cli, t, removed, m.nruns, wrote);
	ret = PATHSTAT_EXIT_OK;
cleanup:
	if (started) {
		pthread_join(tid, NULL);
		err_capture_flush(&job.msgs);
	}
	if (ret != PATHSTAT_EXIT_OK && !cli->quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (lockfd >= 0)
		close(lockfd);
	if (mfd >= 0)
		close(mfd);
	writers_release(&others);
	strbuf_release(&mname);
	strbuf_release(&mshown);
	export_model_release(&m);
	manifest_release(&old);
	manifest_release(&mf);
	check_findings_release(&job.findings);
	strbuf_release(&job.msgs.text);
	free_keys(pkeys, npkeys);
	free(keep.path);
	free(plan);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* ---------------------------------------------------------------------
 * --ddl
 */

static int
run_ddl(sqlite3 *db, struct export_cli *cli)
{
	struct export_model m;
	struct manifest old;
	struct writers all;
	struct strbuf path = STRBUF_INIT, loc = STRBUF_INIT;
	char **pkeys = NULL, *real = NULL;
	size_t npkeys = 0, i, j;
	bool have_old = false;
	int ret = PATHSTAT_EXIT_FAIL, rc;

	memset(&m, 0, sizeof(m));
	memset(&old, 0, sizeof(old));
	memset(&all, 0, sizeof(all));
	if (cli->out) {
		strbuf_addf(&path, "%s/manifest.json", cli->out);
		rc = manifest_read(cli->out, &old);
		if (rc < 0)
			goto cleanup;
		have_old = rc == 0;
		/* several writers' dataset: their manifests, for the
		 * partitioning and every writer's partitions */
		if (!have_old && read_all_writers(cli->out, &all))
			goto cleanup;
		if (have_old && !cli->where.n && old.nwhere) {
			/* the DDL describes what that export selected */
			struct strbuf why = STRBUF_INIT;

			for (i = 0; i < old.nwhere; i++) {
				if (!where_add(&cli->where, old.where[i], &why))
					continue;
				error("'%s': bad where '%s': %s", path.buf,
				    old.where[i], why.buf);
				strbuf_release(&why);
				goto cleanup;
			}
			strbuf_release(&why);
		}
	}
	if (cli->location) {
		strbuf_addstr(&loc, cli->location);
	} else if (cli->out) {
		real = realpath(cli->out, NULL);
		if (!real) {
			error_errno("cannot find '%s'", cli->out);
			goto cleanup;
		}
		strbuf_addstr(&loc, real);
	} else {
		error("--ddl needs --location URI or --out DIR");
		fputs(EXPORT_USAGE, stderr);
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	rc = export_model_load(db, &cli->where, &m);
	if (rc) {
		ret = rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (!m.nruns) {
		error(cli->where.n ? "no runs match the --where filters" :
		    "the database holds no runs");
		goto cleanup;
	}
	if (all.n ? writers_pkeys(cli, &all, &pkeys, &npkeys) :
	    choose_pkeys(db, cli, have_old ? &old : NULL, &m, &pkeys,
	    &npkeys)) {
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	export_model_partition(&m, pkeys, npkeys);
	/* the tables declare every writer's key columns */
	for (i = 0; i < all.n; i++)
		for (j = 0; j < all.mf[i].nkey_cols; j++) {
			if (!export_model_add_key(&m, all.mf[i].key_keys[j],
			    all.mf[i].key_cols[j]))
				continue;
			error("'%s/manifests/%s.json': the key '%s' is column "
			    "'%s' there and not here, or the name is another "
			    "column's: make the DDL from a database that has "
			    "every key", cli->out, all.name[i],
			    all.mf[i].key_keys[j], all.mf[i].key_cols[j]);
			goto cleanup;
		}
	/* Athena's projection spans every writer's days and values */
	for (i = 0; i < all.n; i++)
		for (j = 0; j < all.mf[i].n; j++) {
			if (all.mf[i].items[j].ds == DS_FINDINGS ||
			    !export_model_add_dir(&m, all.mf[i].items[j].dir))
				continue;
			error("'%s/manifests/%s.json': partition '%s' does not "
			    "have the keys %s", cli->out, all.name[i],
			    all.mf[i].items[j].dir, all.mf[i].npkeys ?
			    all.mf[i].pkeys[0] : "none");
			goto cleanup;
		}
	rc = export_ddl(stdout, cli->engine, loc.buf, !cli->location, &m);
	if (rc) {
		ret = rc == -2 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	ret = PATHSTAT_EXIT_OK;
cleanup:
	export_model_release(&m);
	manifest_release(&old);
	writers_release(&all);
	free_keys(pkeys, npkeys);
	free(real);
	strbuf_release(&path);
	strbuf_release(&loc);
	return ret;
}

static const char *const export_codecs[] = { "zstd", "gzip", "none", NULL };
static const char *const export_engines[] = { "athena", "trino", "spark",
	"duckdb", NULL };

static int
opt_codec(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	(void)why;
	return pq_codec_parse(arg, opt->value);
}

/* --ddl ENGINE: print the DDL instead (opt->value: the export_cli) */
static int
opt_ddl(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct export_cli *cli = opt->value;

	(void)why;
	if (export_engine_parse(arg, &cli->engine))
		return -1;
	cli->ddl = true;
	return 0;
}

static int
opt_file_size(const struct parseopt *opt, const char *arg,
    struct strbuf *why)
{
	if (parse_size(arg, opt->value)) {
		strbuf_addstr(why, "want bytes, at least 4k (k, m, g "
		    "suffixes)");
		return -1;
	}
	return 0;
}

/* --where, kept as typed too for the manifest (opt->value: the
 * export_cli) */
static int
opt_where(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	struct export_cli *cli = opt->value;

	if (where_add(&cli->where, arg, why))
		return -1;
	cli->where_text = xreallocarray(cli->where_text, cli->nwhere_text + 1,
	    sizeof(*cli->where_text));
	cli->where_text[cli->nwhere_text++] = (char *)arg;
	return 0;
}

/* --writer NAME (opt->value: the writer name's slot) */
static int
opt_writer(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	if (!writer_name_ok(arg, strlen(arg))) {
		strbuf_addf(why, "want 1 to %d of A-Z a-z 0-9 _ . -, not "
		    "starting with . or -", EXPORT_WRITER_MAX);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

static void
export_help(FILE *fp)
{
	export_usage(fp);
}

int
cmd_export(int argc, char **argv)
{
	struct export_cli cli;
	/* export_usage() prints the help; the table parses */
	const struct parseopt opts[] = {
		OPT_DB(&cli.db_path),
		OPT_STRING(0, "out", &cli.out, "DIR", NULL),
		OPT_CALLBACK(0, "where", &cli, "KEY=VALUE", opt_where,
		    PARSEOPT_WHY_ONLY | PARSEOPT_MANY, NULL),
		OPT_STRING(0, "partition-by", &cli.partition_by, "KEYS", NULL),
		OPT_ENUM_CB(0, "codec", &cli.opts.codec, export_codecs,
		    opt_codec, NULL),
		OPT_FLAG(0, "basic-encodings", &cli.opts.basic, NULL),
		OPT_CALLBACK(0, "file-size", &cli.opts.file_bytes, "SIZE",
		    opt_file_size, 0, NULL),
		OPT_FLAG(0, "force", &cli.force, NULL),
		OPT_FLAG('q', "quiet", &cli.quiet, NULL),
		OPT_ENUM_CB(0, "ddl", &cli, export_engines, opt_ddl, NULL),
		OPT_STRING(0, "location", &cli.location, "URI", NULL),
		OPT_CALLBACK(0, "writer", &cli.opts.writer, "NAME", opt_writer,
		    0, NULL),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = { .name = "export", .opts = opts,
	    .help = export_help };
	enum parseopt_result pr;
	sqlite3 *db = NULL;
	int nargs, ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat export");
	memset(&cli, 0, sizeof(cli));
	cli.opts.codec = PQ_CODEC_ZSTD;
	cli.opts.file_bytes = EXPORT_FILE_BYTES;
	pr = parseopt(&cmd, argc, argv, &nargs);
	if (pr != PARSEOPT_OK) {
		ret = parseopt_exit(pr);
		goto cleanup;
	}
	if (!cli.ddl && !cli.out) {
		error("--out DIR is required (or --ddl ENGINE)");
		fputs(EXPORT_USAGE, stderr);
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	if (!cli.ddl && cli.location) {
		error("--location goes with --ddl");
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	if (cli.ddl && cli.opts.writer) {
		error("--writer goes with an export, not --ddl (the DDL "
		    "reads every writer's manifest in --out DIR)");
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	if (cli.out && !*cli.out) {
		error("--out: an empty folder name");
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	db = db_open_readonly(db_default_path(cli.db_path));
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	ret = cli.ddl ? run_ddl(db, &cli) : run_export(db, &cli);
cleanup:
	db_close(db);
	where_release(&cli.where);
	free(cli.where_text);
	return ret;
}
