/*
 * bundle.c - the output folder: deciding whether it may be written
 * (new, empty, or a previous bundle; anything else only with --force),
 * writing files without following planted symlinks, removing only the
 * files a previous bundle listed as its own, and provenance.json with
 * the database's content hash and the commands that reproduce it all.
 */
#include "common/compat.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "common/db.h"
#include "common/err.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/version.h"
#include "common/xalloc.h"
#include "report/internal.h"

#define PROVENANCE_NAME		"provenance.json"
#define PROVENANCE_GENERATOR	"pathstat report"

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

/* Number of entries in dir other than . and .., or -1. */
static long
dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* The previous bundle's provenance.json, or NULL if dir has none that
 * pathstat report wrote. */
static cJSON *
previous_provenance(const char *dir)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	cJSON *json = NULL;
	const cJSON *gen;

	strbuf_addf(&path, "%s/%s", dir, PROVENANCE_NAME);
	if (strbuf_read_file(&sb, path.buf, (size_t)64 << 20) == 0)
		json = cJSON_ParseWithLength(sb.buf, sb.len);
	gen = json ? cJSON_GetObjectItemCaseSensitive(json, "generator") : NULL;
	if (json && !(cJSON_IsString(gen) &&
	    !strcmp(gen->valuestring, PROVENANCE_GENERATOR))) {
		cJSON_Delete(json);
		json = NULL;
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return json;
}

int
report_bundle_prepare(const char *dir, bool force, cJSON **prev)
{
	struct strbuf sub = STRBUF_INIT;
	struct stat st;
	long n;
	int ret = -1;

	*prev = NULL;
	if (stat(dir, &st) < 0) {
		if (errno != ENOENT) {
			error_errno("cannot use '%s'", dir);
			goto cleanup;
		}
		if (mkdir_p(dir))
			goto cleanup;
	} else if (!S_ISDIR(st.st_mode)) {
		error("cannot write the bundle into '%s': not a folder", dir);
		goto cleanup;
	} else {
		n = dir_entries(dir);
		if (n < 0) {
			error_errno("cannot read folder '%s'", dir);
			goto cleanup;
		}
		*prev = previous_provenance(dir);
		if (n > 0 && !*prev && !force) {
			error("refusing to write into '%s': it is not empty "
			    "and holds no pathstat bundle (%s); use --force "
			    "to write there anyway", dir, PROVENANCE_NAME);
			goto cleanup;
		}
	}
	strbuf_addf(&sub, "%s/tables", dir);
	if (mkdir(sub.buf, 0777) < 0 && errno != EEXIST) {
		error_errno("cannot create folder '%s'", sub.buf);
		goto cleanup;
	}
	strbuf_reset(&sub);
	strbuf_addf(&sub, "%s/charts", dir);
	if (mkdir(sub.buf, 0777) < 0 && errno != EEXIST) {
		error_errno("cannot create folder '%s'", sub.buf);
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&sub);
	if (ret) {
		cJSON_Delete(*prev);
		*prev = NULL;
	}
	return ret;
}

void
report_bundle_add_file(struct report_bundle *b, const char *rel)
{
	size_t i;

	for (i = 0; i < b->nfiles; i++)
		if (!strcmp(b->files[i], rel))
			return;
	ALLOC_GROW(b->files, b->nfiles + 1, b->alloc_files);
	b->files[b->nfiles++] = xstrdup(rel);
}

int
report_bundle_write(struct report_bundle *b, const char *rel,
    const char *data, size_t len)
{
	struct strbuf path = STRBUF_INIT;
	size_t off = 0;
	int fd, ret = -1;

	strbuf_addf(&path, "%s/%s", b->dir, rel);
	/* O_NOFOLLOW: a symlink planted in the folder is not written through */
	fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0666);
	if (fd < 0) {
		error_errno("cannot write '%s'", path.buf);
		goto cleanup;
	}
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			error_errno("cannot write '%s'", path.buf);
			close(fd);
			goto cleanup;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		error_errno("cannot write '%s'", path.buf);
		goto cleanup;
	}
	report_bundle_add_file(b, rel);
	ret = 0;
cleanup:
	strbuf_release(&path);
	return ret;
}

/* A file name report could have written: index.md, provenance.json,
 * tables/NAME or charts/NAME with a plain NAME. */
static bool
ours(const char *rel)
{
	const char *name;

	if (!strcmp(rel, "index.md") || !strcmp(rel, PROVENANCE_NAME))
		return true;
	if (!strncmp(rel, "tables/", 7))
		name = rel + 7;
	else if (!strncmp(rel, "charts/", 7))
		name = rel + 7;
	else
		return false;
	return *name && *name != '.' && !strchr(name, '/') &&
	    !strchr(name, '\\');
}

void
report_bundle_prune(struct report_bundle *b, const cJSON *prev)
{
	const cJSON *files, *e;
	struct strbuf path = STRBUF_INIT;
	size_t i;

	files = cJSON_GetObjectItemCaseSensitive(prev, "files");
	cJSON_ArrayForEach(e, files) {
		bool keep = false;

		if (!cJSON_IsString(e) || !ours(e->valuestring))
			continue;
		for (i = 0; i < b->nfiles && !keep; i++)
			keep = !strcmp(b->files[i], e->valuestring);
		if (keep)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", b->dir, e->valuestring);
		if (unlink(path.buf) < 0 && errno != ENOENT)
			warning("cannot remove '%s' of the previous bundle: %s",
			    path.buf, strerror(errno));
	}
	strbuf_release(&path);
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

	if (!h) {
		fputs("pathstat: out of memory\n", stderr);
		exit(1);
	}
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

void
report_shell_quote(struct strbuf *sb, const char *s)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_-+=./:,%@";
	const char *p;

	if (*s && strspn(s, safe) == strlen(s)) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
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
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
report_write_provenance(struct report_bundle *b, int argc, char **argv)
{
	cJSON *root = cJSON_CreateObject(), *o, *arr;
	struct strbuf sb = STRBUF_INIT;
	char *hash = NULL, *text = NULL;
	XXH128_canonical_t canon;
	size_t i;
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

	hash = report_db_hash(b->db);
	if (!hash)
		goto cleanup;
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
	    "SELECT count(*) FROM samples"));

	o = cJSON_AddObjectToObject(root, "spec");
	cJSON_AddStringToObject(o, "path", b->spec->file);
	XXH128_canonicalFromHash(&canon, XXH3_128bits(b->spec->text,
	    b->spec->len));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "xxh3-128:");
	for (i = 0; i < sizeof(canon.digest); i++)
		strbuf_addf(&sb, "%02x", canon.digest[i]);
	cJSON_AddStringToObject(o, "content_hash", sb.buf);
	cJSON_AddItemToObject(o, "document", cJSON_Duplicate(b->spec->json, 1));

	/* how to make it all again */
	arr = cJSON_AddArrayToObject(root, "commands");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "pathstat");	/* argv[0] is "report" */
	for (i = 0; i < (size_t)argc; i++) {
		strbuf_addch(&sb, ' ');
		report_shell_quote(&sb, argv[i]);
	}
	cJSON_AddItemToArray(arr, cJSON_CreateString(sb.buf));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "pathstat report --db ");
	report_shell_quote(&sb, b->db_path);
	strbuf_addstr(&sb, " --spec ");
	report_shell_quote(&sb, b->spec->file);
	strbuf_addstr(&sb, " --out ");
	report_shell_quote(&sb, b->dir);
	cJSON_AddItemToArray(arr, cJSON_CreateString(sb.buf));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "cd ");
	report_shell_quote(&sb, b->dir);
	strbuf_addstr(&sb, "/charts && for f in *.gp; do gnuplot \"$f\"; done");
	cJSON_AddItemToArray(arr, cJSON_CreateString(sb.buf));
	cJSON_AddItemToObject(root, "tables", b->prov_tables);
	b->prov_tables = NULL;
	cJSON_AddItemToObject(root, "charts", b->prov_charts);
	b->prov_charts = NULL;

	report_bundle_add_file(b, PROVENANCE_NAME);
	qsort(b->files, b->nfiles, sizeof(char *), cmp_str);
	arr = cJSON_AddArrayToObject(root, "files");
	for (i = 0; i < b->nfiles; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(b->files[i]));

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
	free(hash);
	strbuf_release(&sb);
	return ret;
}
