/*
 * bundle.c - the output folder: deciding whether it may be written
 * (new, empty, or a previous bundle; anything else only with --force),
 * writing every file into a private folder inside it and moving them
 * into place at the end, so nothing outside it is ever written or
 * removed; removing only the files a previous bundle provably wrote
 * (the rule is in internal.h); and provenance.json with the database's
 * content hash and the commands that reproduce it all.
 */
#include "common/compat.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "check/check.h"
#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/outdir.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/version.h"
#include "common/xalloc.h"
#include "report/internal.h"

#define PROVENANCE_NAME		"provenance.json"
#define PROVENANCE_GENERATOR	"pathstat report"
/* Prefix of the private folder a run writes into (hidden: a leftover of
 * a killed run is not taken for part of the bundle). */
#define STAGE_PREFIX		REPORT_STAGE_PREFIX
/* Largest provenance.json, and largest file hashed to compare. */
#define PROVENANCE_MAX_BYTES	((size_t)64 << 20)
#define HASH_MAX_BYTES		((off_t)1 << 30)

/* mkdir -p: create dir and any missing parents. */
static int
mkdir_p(const char *dir)
{
	char *copy = xstrdup(dir), *p;
	int ret = 0;

	for (p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) < 0 && errno != EEXIST) {
			ret = error_errno("cannot create folder '%s'", copy);
			goto cleanup;
		}
		*p = '/';
	}
	if (mkdir(copy, 0777) < 0 && errno != EEXIST)
		ret = error_errno("cannot create folder '%s'", copy);
cleanup:
	free(copy);
	return ret;
}

void
report_bundle_init(struct report_bundle *b)
{
	b->dirfd = -1;
	b->stagefd = -1;
	b->stage_tables = -1;
	b->stage_charts = -1;
}

/* "xxh3-128:<hex>" of a hash state's digest, appended to sb. */
static void
hash_hex(XXH3_state_t *h, struct strbuf *sb)
{
	XXH128_canonical_t canon;
	size_t i;

	XXH128_canonicalFromHash(&canon, XXH3_128bits_digest(h));
	strbuf_addstr(sb, "xxh3-128:");
	for (i = 0; i < sizeof(canon.digest); i++)
		strbuf_addf(sb, "%02x", canon.digest[i]);
}

static XXH3_state_t *
hash_new(void)
{
	XXH3_state_t *h = XXH3_createState();

	if (!h)
		die("out of memory for a hash state");
	XXH3_128bits_reset(h);
	return h;
}

/* The hash of data, as a string the caller frees. */
static char *
hash_data(const void *data, size_t len)
{
	XXH3_state_t *h = hash_new();
	struct strbuf sb = STRBUF_INIT;

	XXH3_128bits_update(h, data, len);
	hash_hex(h, &sb);
	XXH3_freeState(h);
	return strbuf_detach(&sb, NULL);
}

/* The hash of the regular file name in dirfd (see open_regular_at), as
 * a string the caller frees; NULL when it is absent (*absent set), not
 * a regular file, or unreadable (reason in why). */
static char *
hash_file_at(int dirfd, const char *name, bool *absent, struct strbuf *why)
{
	XXH3_state_t *h;
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char buf[65536];
	ssize_t r;
	int fd;

	*absent = false;
	fd = outdir_open_regular(dirfd, name, &st, why);
	if (fd == -2)
		*absent = true;
	if (fd < 0)
		return NULL;
	if (st.st_size > HASH_MAX_BYTES) {
		strbuf_addstr(why, "it is larger than any file a bundle "
		    "writes");
		close(fd);
		return NULL;
	}
	h = hash_new();
	while ((r = read(fd, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			strbuf_addstr(why, strerror(errno));
			XXH3_freeState(h);
			close(fd);
			return NULL;
		}
		XXH3_128bits_update(h, buf, (size_t)r);
	}
	close(fd);
	hash_hex(h, &sb);
	XXH3_freeState(h);
	return strbuf_detach(&sb, NULL);
}

/* The previous bundle's provenance.json in the folder dirfd, or NULL if
 * it has none that pathstat report wrote (or it is no regular file:
 * then *odd says why, for the refusal message). */
static cJSON *
previous_provenance(int dirfd, struct strbuf *odd)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	cJSON *json = NULL;
	const cJSON *gen;
	int fd;

	fd = outdir_open_regular(dirfd, PROVENANCE_NAME, &st, odd);
	if (fd < 0)
		return NULL;
	if (strbuf_read_fd(&sb, fd, PROVENANCE_MAX_BYTES) == 0)
		json = cJSON_ParseWithLength(sb.buf, sb.len);
	close(fd);
	gen = json ? cJSON_GetObjectItemCaseSensitive(json, "generator") : NULL;
	if (json && !(cJSON_IsString(gen) &&
	    !strcmp(gen->valuestring, PROVENANCE_GENERATOR))) {
		cJSON_Delete(json);
		json = NULL;
	}
	strbuf_release(&sb);
	return json;
}

static const char *const bundle_subdirs[] = { "tables", "charts" };

/*
 * Open the bundle's folder sub (tables, charts) in b->dirfd, creating it
 * when create: never through a symlink.  Returns the descriptor, -2 when
 * absent and not created, or -1 after printing.
 */
static int
open_subdir(struct report_bundle *b, const char *sub, bool create)
{
	struct strbuf shown = STRBUF_INIT;
	int fd;

	/* a linked tables/ or charts/ is refused, even with --force */
	strbuf_addf(&shown, "%s/%s", b->dir, sub);
	fd = outdir_open_sub(b->dirfd, sub, shown.buf,
	    create ? OUTDIR_CREATE : 0);
	strbuf_release(&shown);
	return fd;
}

/* Make the private folder: DIR/.pathstat-report-XXXXXX, mode 0700, with
 * tables/ and charts/ inside. */
static int
make_stage(struct report_bundle *b)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned long seed = (unsigned long)getpid() ^
	    (unsigned long)time(NULL) ^ (unsigned long)(uintptr_t)b;
	int tries;

	for (tries = 0; tries < 100 && !b->stage; tries++) {
		char name[sizeof(STAGE_PREFIX) + 6];
		size_t i;

		memcpy(name, STAGE_PREFIX, sizeof(STAGE_PREFIX) - 1);
		for (i = 0; i < 6; i++) {
			seed = seed * 6364136223846793005UL +
			    1442695040888963407UL;
			name[sizeof(STAGE_PREFIX) - 1 + i] =
			    chars[(seed >> 33) % (sizeof(chars) - 1)];
		}
		name[sizeof(name) - 1] = '\0';
		if (mkdirat(b->dirfd, name, 0700) == 0)
			b->stage = xstrdup(name);
		else if (errno != EEXIST)
			return error_errno("cannot create a folder in '%s'",
			    b->dir);
	}
	if (!b->stage)
		return error("cannot create a private folder in '%s'", b->dir);
	b->stagefd = openat(b->dirfd, b->stage, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (b->stagefd < 0)
		return error_errno("cannot open '%s/%s'", b->dir, b->stage);
	/* held while we run: the next report's sweep leaves it alone */
	if (flock(b->stagefd, LOCK_EX | LOCK_NB) < 0)
		return error_errno("cannot lock '%s/%s'", b->dir, b->stage);
	if (mkdirat(b->stagefd, "tables", 0700) < 0 ||
	    mkdirat(b->stagefd, "charts", 0700) < 0)
		return error_errno("cannot create folders in '%s/%s'", b->dir,
		    b->stage);
	b->stage_tables = openat(b->stagefd, "tables", O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	b->stage_charts = openat(b->stagefd, "charts", O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (b->stage_tables < 0 || b->stage_charts < 0)
		return error_errno("cannot open folders in '%s/%s'", b->dir,
		    b->stage);
	return 0;
}

int
report_bundle_prepare(struct report_bundle *b, bool force, cJSON **prev)
{
	struct strbuf odd = STRBUF_INIT;
	struct stat st;
	size_t i;
	long n;
	int fd, ret = -1;

	*prev = NULL;
	if (stat(b->dir, &st) < 0) {
		if (errno != ENOENT) {
			error_errno("cannot use '%s'", b->dir);
			goto cleanup;
		}
		if (mkdir_p(b->dir))
			goto cleanup;
	}
	/* --out itself is the user's choice (it may be a link to where
	 * they keep bundles); everything below it is judged from here */
	b->dirfd = open(b->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (b->dirfd < 0) {
		if (errno == ENOTDIR)
			error("cannot write the bundle into '%s': not a folder",
			    b->dir);
		else
			error_errno("cannot open folder '%s'", b->dir);
		goto cleanup;
	}
	/* before the folder is judged empty: a stale private folder
	 * alone would make it "not empty" */
	report_sweep_stages(b->dirfd, b->dir);
	n = outdir_entries(b->dirfd);
	if (n < 0) {
		error_errno("cannot read folder '%s'", b->dir);
		goto cleanup;
	}
	*prev = previous_provenance(b->dirfd, &odd);
	if (n > 0 && !*prev && !force) {
		if (odd.len)
			error("refusing to write into '%s': its %s is no "
			    "previous bundle's (%s); use --force to write "
			    "there anyway", b->dir, PROVENANCE_NAME, odd.buf);
		else
			error("refusing to write into '%s': it is not empty "
			    "and holds no pathstat bundle (%s); use --force "
			    "to write there anyway", b->dir, PROVENANCE_NAME);
		goto cleanup;
	}
	/* refuse a symlinked tables/ or charts/ before any work is done */
	for (i = 0; i < ARRAY_SIZE(bundle_subdirs); i++) {
		fd = open_subdir(b, bundle_subdirs[i], false);
		if (fd == -1)
			goto cleanup;
		if (fd >= 0)
			close(fd);
	}
	if (make_stage(b))
		goto cleanup;
	ret = 0;
cleanup:
	strbuf_release(&odd);
	if (ret) {
		cJSON_Delete(*prev);
		*prev = NULL;
	}
	return ret;
}

static struct report_file *
find_file(struct report_bundle *b, const char *rel)
{
	size_t i;

	for (i = 0; i < b->nfiles; i++)
		if (!strcmp(b->files[i].rel, rel))
			return &b->files[i];
	return NULL;
}

void
report_bundle_add_file(struct report_bundle *b, const char *rel)
{
	struct report_file *f = find_file(b, rel);

	if (f) {
		FREE_AND_NULL(f->hash);	/* written again: hash it again */
		return;
	}
	ALLOC_GROW(b->files, b->nfiles + 1, b->alloc_files);
	b->files[b->nfiles].rel = xstrdup(rel);
	b->files[b->nfiles].hash = NULL;
	b->nfiles++;
}

/*
 * Split rel into the folder that holds it (fd of the private folder when
 * stage, else of DIR's own, which *close_fd says to close) and its name.
 * Returns the name (inside rel), or NULL when rel is not a name a bundle
 * writes: index.md, provenance.json, tables/NAME or charts/NAME, with a
 * plain NAME.
 */
static const char *
split_rel(struct report_bundle *b, const char *rel, bool stage, int *fd,
    bool *close_fd)
{
	const char *slash = strchr(rel, '/'), *name;
	size_t i;

	*close_fd = false;
	*fd = -1;
	if (!slash) {
		if (strcmp(rel, "index.md") && strcmp(rel, "index.html") &&
		    strcmp(rel, PROVENANCE_NAME))
			return NULL;
		*fd = stage ? b->stagefd : b->dirfd;
		return rel;
	}
	name = slash + 1;
	if (!*name || *name == '.' || strchr(name, '/') || strchr(name, '\\'))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(bundle_subdirs); i++) {
		const char *sub = bundle_subdirs[i];

		if (strlen(sub) != (size_t)(slash - rel) ||
		    strncmp(rel, sub, strlen(sub)))
			continue;
		if (stage) {
			*fd = i == 0 ? b->stage_tables : b->stage_charts;
			return name;
		}
		*fd = open_subdir(b, sub, false);
		if (*fd < 0)
			return NULL;
		*close_fd = true;
		return name;
	}
	return NULL;
}

int
report_bundle_write(struct report_bundle *b, const char *rel,
    const char *data, size_t len)
{
	struct strbuf shown = STRBUF_INIT;
	const char *name;
	bool close_dir;
	int dirfd, fd;

	name = split_rel(b, rel, true, &dirfd, &close_dir);
	if (!name)
		return error("cannot write '%s': not a name a bundle holds",
		    rel);
	/* a fresh name in our own folder: O_EXCL, no link followed */
	strbuf_addf(&shown, "%s/%s", b->dir, rel);
	fd = outdir_create(dirfd, name, shown.buf);
	if (fd < 0 || outdir_write_all(fd, data, len, shown.buf)) {
		if (fd >= 0)
			close(fd);
		strbuf_release(&shown);
		return -1;
	}
	strbuf_release(&shown);
	if (close(fd) < 0)
		return error_errno("cannot write '%s/%s'", b->dir, rel);
	report_bundle_add_file(b, rel);
	find_file(b, rel)->hash = hash_data(data, len);
	return 0;
}

int
report_bundle_read(struct report_bundle *b, const char *rel, size_t max,
    struct strbuf *out)
{
	struct strbuf why = STRBUF_INIT;
	const char *name;
	struct stat st;
	bool close_dir;
	int dirfd, fd, ret = -1;

	if (!find_file(b, rel))
		return -2;
	name = split_rel(b, rel, true, &dirfd, &close_dir);
	if (!name)
		return -2;
	fd = outdir_open_regular(dirfd, name, &st, &why);
	if (fd == -2) {
		ret = -2;	/* gnuplot did not write it */
	} else if (fd < 0) {
		error("cannot read '%s' back: %s", rel, why.buf);
	} else if ((size_t)st.st_size > max) {
		ret = -3;
	} else if (strbuf_read_fd(out, fd, max)) {
		error_errno("cannot read '%s' back", rel);
	} else {
		ret = 0;
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&why);
	return ret;
}

/* The hash the previous bundle recorded for rel, or NULL. */
static const char *
prev_hash(const cJSON *prev, const char *rel)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(prev, "file_hashes");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(h, rel);

	return cJSON_IsString(e) ? e->valuestring : NULL;
}

/*
 * May the entry rel of DIR be replaced or removed without --force?  Yes
 * when it is absent, or a regular file whose bytes hash to what the
 * previous bundle recorded for it (provenance.json itself: when it is
 * the file prev was read from, a regular file).  Else no, and why says
 * what it is.
 */
static bool
ours_now(struct report_bundle *b, const cJSON *prev, const char *rel,
    bool *absent, struct strbuf *why)
{
	const char *name, *want = prev ? prev_hash(prev, rel) : NULL;
	char *have = NULL;
	bool close_dir, ok = false;
	struct stat st;
	int dirfd;

	*absent = false;
	name = split_rel(b, rel, false, &dirfd, &close_dir);
	if (!name) {
		/* its folder is missing (so is it), or it is refused */
		*absent = dirfd == -2;
		if (!*absent)
			strbuf_addstr(why, "its folder is not the bundle's");
		return *absent;
	}
	if (!strcmp(rel, PROVENANCE_NAME) && prev) {
		int fd = outdir_open_regular(dirfd, name, &st, why);

		*absent = fd == -2;
		ok = fd != -1;
		if (fd >= 0)
			close(fd);
		goto done;
	}
	have = hash_file_at(dirfd, name, absent, why);
	if (*absent) {
		ok = true;
	} else if (have && !want) {
		strbuf_addstr(why, !prev ? "there is no previous bundle" :
		    !cJSON_GetObjectItemCaseSensitive(prev, "file_hashes") ?
		    "the previous bundle recorded no content hashes (an older "
		    "pathstat made it)" : "the previous bundle did not write "
		    "it");
	} else if (have && strcmp(have, want)) {
		strbuf_addstr(why, "it changed since the previous bundle wrote "
		    "it");
	} else if (have) {
		ok = true;
	}
done:
	free(have);
	if (close_dir)
		close(dirfd);
	return ok;
}

/* Move rel from the private folder into DIR (renameat replaces whatever
 * entry has the name, never what it points to). */
static int
move_in(struct report_bundle *b, const char *rel)
{
	const char *name;
	bool close_src, close_dst;
	int src, dst, ret = 0;

	name = split_rel(b, rel, true, &src, &close_src);
	if (!name || !split_rel(b, rel, false, &dst, &close_dst))
		return error("cannot move '%s' into '%s'", rel, b->dir);
	if (renameat(src, name, dst, name) < 0)
		ret = error_errno("cannot put '%s' into '%s'", rel, b->dir);
	if (close_dst)
		close(dst);
	return ret;
}

/* Remove the previous bundle's files this one did not write, if they
 * are provably its own (see ours_now). */
static void
prune(struct report_bundle *b, const cJSON *prev)
{
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(prev, "files");
	const cJSON *e;
	struct strbuf why = STRBUF_INIT;
	size_t kept = 0;

	cJSON_ArrayForEach(e, files) {
		const char *rel, *name;
		bool absent, close_dir;
		int dirfd;

		if (!cJSON_IsString(e))
			continue;
		rel = e->valuestring;
		if (find_file(b, rel) || !strcmp(rel, PROVENANCE_NAME))
			continue;
		strbuf_reset(&why);
		if (!ours_now(b, prev, rel, &absent, &why)) {
			if (!split_rel(b, rel, true, &dirfd, &close_dir))
				continue;	/* not a name we write */
			if (kept++ < 5)
				warning("left '%s/%s' in place: %s", b->dir,
				    rel, why.buf);
			continue;
		}
		if (absent)
			continue;
		name = split_rel(b, rel, false, &dirfd, &close_dir);
		if (name && unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
			warning("cannot remove '%s/%s' of the previous bundle: "
			    "%s", b->dir, rel, strerror(errno));
		if (close_dir)
			close(dirfd);
	}
	if (kept > 5)
		warning("left %zu more files of the previous bundle in place",
		    kept - 5);
	strbuf_release(&why);
}

int
report_bundle_commit(struct report_bundle *b, const cJSON *prev, bool force)
{
	struct strbuf why = STRBUF_INIT;
	size_t i, conflicts = 0;
	int fd, ret = -1;

	/* the folders must still be real folders, or absent */
	for (i = 0; i < ARRAY_SIZE(bundle_subdirs); i++) {
		fd = open_subdir(b, bundle_subdirs[i], false);
		if (fd == -1)
			goto cleanup;
		if (fd >= 0)
			close(fd);
	}
	/* first decide, then write: a refusal changes nothing */
	for (i = 0; i < b->nfiles; i++) {
		bool absent;

		strbuf_reset(&why);
		if (ours_now(b, prev, b->files[i].rel, &absent, &why) || force)
			continue;
		if (conflicts++ < 5)
			error("refusing to replace '%s/%s': %s; use --force to "
			    "replace it", b->dir, b->files[i].rel, why.buf);
	}
	if (conflicts) {
		if (conflicts > 5)
			error("and %zu more files", conflicts - 5);
		error("nothing written into '%s'", b->dir);
		goto cleanup;
	}
	for (i = 0; i < ARRAY_SIZE(bundle_subdirs); i++) {
		fd = open_subdir(b, bundle_subdirs[i], true);
		if (fd < 0)
			goto cleanup;
		close(fd);
	}
	ret = 0;
	for (i = 0; i < b->nfiles; i++)
		if (move_in(b, b->files[i].rel))
			ret = -1;
	if (prev)
		prune(b, prev);
cleanup:
	strbuf_release(&why);
	return ret;
}

void
report_paths_memo_free(struct report_bundle *b)
{
	size_t i, j;

	for (i = 0; i < b->npaths_memo; i++) {
		for (j = 0; j < b->paths_memo[i].npaths; j++)
			free(b->paths_memo[i].paths[j]);
		free(b->paths_memo[i].paths);
		free(b->paths_memo[i].key);
	}
	free(b->paths_memo);
	b->paths_memo = NULL;
	b->npaths_memo = b->alloc_paths_memo = 0;
}

void
report_bundle_release(struct report_bundle *b)
{
	size_t i;

	if (b->stage_tables >= 0) {
		report_empty_dir(b->stage_tables);
		close(b->stage_tables);
	}
	if (b->stage_charts >= 0) {
		report_empty_dir(b->stage_charts);
		close(b->stage_charts);
	}
	if (b->stagefd >= 0) {
		report_empty_dir(b->stagefd);	/* index.md, provenance.json */
		unlinkat(b->stagefd, "tables", AT_REMOVEDIR);
		unlinkat(b->stagefd, "charts", AT_REMOVEDIR);
		close(b->stagefd);
	}
	if (b->stage && b->dirfd >= 0 &&
	    unlinkat(b->dirfd, b->stage, AT_REMOVEDIR) < 0 && errno != ENOENT)
		warning("cannot remove '%s/%s': %s", b->dir, b->stage,
		    strerror(errno));
	if (b->dirfd >= 0)
		close(b->dirfd);
	check_cache_free(b->check_cache);
	b->check_cache = NULL;
	report_paths_memo_free(b);
	free(b->stage);
	for (i = 0; i < b->nfiles; i++) {
		free(b->files[i].rel);
		free(b->files[i].hash);
	}
	free(b->files);
	b->files = NULL;
	b->nfiles = b->alloc_files = 0;
	b->stage = NULL;
	report_bundle_init(b);
}

char *
report_db_hash(sqlite3 *db)
{
	sqlite3_stmt *st;
	XXH3_state_t *h = XXH3_createState();
	XXH128_canonical_t canon;
	struct strbuf out = STRBUF_INIT;
	size_t i;
	int rc;

	if (!h)
		die("out of memory for a hash state");
	st = db_prepare(db, "hash the stored files", "SELECT hash, keys, "
	    "status FROM files WHERE status IN ('ok', 'partial') "
	    "ORDER BY hash, keys, status");
	if (!st) {
		XXH3_freeState(h);
		return NULL;
	}
	XXH3_128bits_reset(h);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int c;

		for (c = 0; c < 3; c++) {
			const unsigned char *v = sqlite3_column_text(st, c);
			size_t n = (size_t)sqlite3_column_bytes(st, c);

			if (v)
				XXH3_128bits_update(h, v, n);
			XXH3_128bits_update(h, c < 2 ? "\t" : "\n", 1);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		error("hash the stored files: %s", sqlite3_errmsg(db));
		XXH3_freeState(h);
		return NULL;
	}
	XXH128_canonicalFromHash(&canon, XXH3_128bits_digest(h));
	XXH3_freeState(h);
	strbuf_addstr(&out, "xxh3-128:");
	for (i = 0; i < sizeof(canon.digest); i++)
		strbuf_addf(&out, "%02x", canon.digest[i]);
	return strbuf_detach(&out, NULL);
}

static int64_t
count_of(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, "count", sql);
	int64_t n = -1;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* UTC time for provenance: $SOURCE_DATE_EPOCH when set (reproducible
 * builds' convention), else now. */
static void
generated_at(struct strbuf *sb)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char buf[32];
	int64_t v;

	if (env && !parse_int64(env, &v) && v >= 0)
		t = (time_t)v;
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strbuf_addstr(sb, buf);
}

static int
cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct report_file *)a)->rel,
	    ((const struct report_file *)b)->rel);
}

/* Hash a file someone else wrote into the private folder (gnuplot). */
static int
hash_staged(struct report_bundle *b, struct report_file *f)
{
	struct strbuf why = STRBUF_INIT;
	const char *name;
	bool close_dir, absent;
	int dirfd, ret = 0;

	name = split_rel(b, f->rel, true, &dirfd, &close_dir);
	f->hash = name ? hash_file_at(dirfd, name, &absent, &why) : NULL;
	if (!f->hash)
		ret = error("cannot read '%s' back: %s", f->rel, why.len ?
		    why.buf : "not written");
	strbuf_release(&why);
	return ret;
}

/* provenance.json's "database": where, its content hash, its counts.
 * 0, or -1 when it cannot be hashed. */
static int
prov_database(struct report_bundle *b, cJSON *root)
{
	char *hash = report_db_hash(b->db);
	cJSON *o;

	if (!hash)
		return -1;
	o = cJSON_AddObjectToObject(root, "database");
	cJSON_AddStringToObject(o, "path", b->db_path);
	cJSON_AddStringToObject(o, "content_hash", hash);
	cJSON_AddStringToObject(o, "content_hash_of", "XXH3-128 over the "
	    "stored files' (content hash, run keys, status), sorted: the "
	    "same inputs ingested with the same keys give the same hash");
	cJSON_AddNumberToObject(o, "schema_version", (double)count_of(b->db,
	    "PRAGMA user_version"));
	cJSON_AddNumberToObject(o, "files", (double)count_of(b->db,
	    "SELECT count(*) FROM files WHERE status IN ('ok', 'partial')"));
	cJSON_AddNumberToObject(o, "runs", (double)count_of(b->db,
	    "SELECT count(*) FROM runs"));
	cJSON_AddNumberToObject(o, "samples", (double)count_of(b->db,
	    "SELECT coalesce(sum(rows), 0) FROM series"));
	free(hash);
	return 0;
}

/* provenance.json's "spec": its file or how to print it again, its
 * hash and the document itself. */
static void
prov_spec(const struct report_bundle *b, cJSON *root)
{
	cJSON *o = cJSON_AddObjectToObject(root, "spec");
	struct strbuf sb = STRBUF_INIT;
	XXH128_canonical_t canon;
	size_t i;

	if (b->spec->generated) {
		/* made from the database: how to print it again */
		cJSON_AddNullToObject(o, "path");
		strbuf_addstr(&sb, "pathstat report --db ");
		escape_shell(&sb, b->db_path);
		if (b->spec->baseline) {
			strbuf_addstr(&sb, " --baseline ");
			escape_shell(&sb, b->spec->baseline);
		}
		strbuf_addstr(&sb, " --init");
		cJSON_AddStringToObject(o, "generated_by", sb.buf);
	} else {
		cJSON_AddStringToObject(o, "path", b->spec->file);
	}
	XXH128_canonicalFromHash(&canon, XXH3_128bits(b->spec->text,
	    b->spec->len));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "xxh3-128:");
	for (i = 0; i < sizeof(canon.digest); i++)
		strbuf_addf(&sb, "%02x", canon.digest[i]);
	cJSON_AddStringToObject(o, "content_hash", sb.buf);
	cJSON_AddItemToObject(o, "document", cJSON_Duplicate(b->spec->json, 1));
	strbuf_release(&sb);
}

/* provenance.json's "commands": how to make it all again (argv as
 * given, the report with the spec it used, the charts' rendering). */
static void
prov_commands(const struct report_bundle *b, cJSON *root, int argc,
    char **argv)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "commands");
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(&sb, "pathstat");	/* argv[0] is "report" */
	for (i = 0; i < (size_t)argc; i++) {
		strbuf_addch(&sb, ' ');
		escape_shell(&sb, argv[i]);
	}
	cJSON_AddItemToArray(arr, cJSON_CreateString(sb.buf));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "pathstat report --db ");
	escape_shell(&sb, b->db_path);
	if (!b->spec->generated) {
		strbuf_addstr(&sb, " --spec ");
		escape_shell(&sb, b->spec->file);
	} else if (b->spec->baseline) {
		strbuf_addstr(&sb, " --baseline ");
		escape_shell(&sb, b->spec->baseline);
	}
	strbuf_addstr(&sb, " --out ");
	escape_shell(&sb, b->dir);
	if (b->html)
		strbuf_addstr(&sb, " --html");
	cJSON_AddItemToArray(arr, cJSON_CreateString(sb.buf));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "cd ");
	escape_shell(&sb, b->dir);
	strbuf_addstr(&sb, "/charts && for f in *.gp; do gnuplot \"$f\"; done");
	cJSON_AddItemToArray(arr, cJSON_CreateString(sb.buf));
	strbuf_release(&sb);
}

/* provenance.json's "files" (itself among them) and "file_hashes",
 * what proves a file is the bundle's own (see internal.h).  0 or -1. */
static int
prov_files(struct report_bundle *b, cJSON *root)
{
	cJSON *arr, *o;
	size_t i;

	report_bundle_add_file(b, PROVENANCE_NAME);
	qsort(b->files, b->nfiles, sizeof(b->files[0]), cmp_file);
	arr = cJSON_AddArrayToObject(root, "files");
	for (i = 0; i < b->nfiles; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(b->files[i].rel));
	o = cJSON_AddObjectToObject(root, "file_hashes");
	for (i = 0; i < b->nfiles; i++) {
		struct report_file *f = &b->files[i];

		if (!strcmp(f->rel, PROVENANCE_NAME))
			continue;
		if (!f->hash && hash_staged(b, f))
			return -1;
		cJSON_AddStringToObject(o, f->rel, f->hash);
	}
	return 0;
}

int
report_write_provenance(struct report_bundle *b, int argc, char **argv)
{
	cJSON *root = cJSON_CreateObject();
	struct strbuf sb = STRBUF_INIT;
	char *text = NULL;
	int ret = -1;

	cJSON_AddStringToObject(root, "generator", PROVENANCE_GENERATOR);
	cJSON_AddStringToObject(root, "pathstat_version", PATHSTAT_VERSION);
	cJSON_AddStringToObject(root, "sqlite_version", sqlite3_libversion());
	if (b->gnuplot_version)
		cJSON_AddStringToObject(root, "gnuplot_version",
		    b->gnuplot_version);
	else
		cJSON_AddNullToObject(root, "gnuplot_version");
	generated_at(&sb);
	cJSON_AddStringToObject(root, "generated_at", sb.buf);
	if (prov_database(b, root))
		goto cleanup;
	prov_spec(b, root);
	prov_commands(b, root, argc, argv);
	cJSON_AddItemToObject(root, "tables", b->prov_tables);
	b->prov_tables = NULL;
	cJSON_AddItemToObject(root, "charts", b->prov_charts);
	b->prov_charts = NULL;
	if (prov_files(b, root))
		goto cleanup;

	text = cJSON_Print(root);
	if (!text) {
		error("cannot format %s", PROVENANCE_NAME);
		goto cleanup;
	}
	strbuf_reset(&sb);
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	ret = report_bundle_write(b, PROVENANCE_NAME, sb.buf, sb.len);
cleanup:
	cJSON_Delete(root);
	cJSON_free(text);
	strbuf_release(&sb);
	return ret;
}
