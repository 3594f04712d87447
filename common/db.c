/*
 * db.c - database open, migration to the compiled-in schema, and SQLite
 * helpers with uniform error messages.
 */
#include "common/compat.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/db.h"
#include "common/err.h"
#include "common/infile.h"
#include "common/series.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "schema/schema.h"

const char *
db_default_path(const char *opt)
{
	const char *env;

	if (opt && *opt)
		return opt;
	env = getenv("PATHSTAT_DB");
	if (env && *env)
		return env;
	return DB_DEFAULT_NAME;
}

int
db_schema_version(void)
{
	return schema_nmigrations ?
	    schema_migrations[schema_nmigrations - 1].version : 0;
}

int
db_exec(sqlite3 *db, const char *what, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: %s", what, msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

sqlite3_stmt *
db_prepare(sqlite3 *db, const char *what, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		error("prepare %s: %s", what, sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

int
db_step_done(sqlite3 *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return error("%s: %s", what, sqlite3_errmsg(db));
	return 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DB_HOST_LE	1
#else
#define DB_HOST_LE	0
#endif

void
db_pack_doubles(const double *x, size_t n, unsigned char *out)
{
	size_t i;
	int b;

	if (DB_HOST_LE) {
		memcpy(out, x, n * sizeof(double));
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t u;

		memcpy(&u, &x[i], sizeof(u));
		for (b = 0; b < 8; b++)
			out[8 * i + (size_t)b] = (unsigned char)(u >> (8 * b));
	}
}

void
db_unpack_doubles(const unsigned char *in, size_t n, double *x)
{
	size_t i;
	int b;

	if (DB_HOST_LE) {
		memcpy(x, in, n * sizeof(double));
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t u = 0;

		for (b = 7; b >= 0; b--)
			u = (u << 8) | in[8 * i + (size_t)b];
		memcpy(&x[i], &u, sizeof(u));
	}
}

/*
 * Two writers (two ingests into one database) take turns per file: the
 * busy handler below waits for the lock, and a BEGIN that still finds it
 * taken (the other holds it for long) is tried again, so a user's work
 * is not thrown away because someone else is writing.
 */
int
db_begin(sqlite3 *db)
{
	int tries, rc = SQLITE_OK;

	for (tries = 0; tries < DB_BEGIN_TRIES; tries++) {
		rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
	}
	return error("begin transaction: %s%s", sqlite3_errmsg(db),
	    (rc & 0xff) == SQLITE_BUSY ? " (another program kept the "
	    "database locked throughout)" : "");
}

int
db_commit(sqlite3 *db)
{
	return db_exec(db, "commit", "COMMIT");
}

void
db_rollback(sqlite3 *db)
{
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

static int
db_user_version(sqlite3 *db, int *out)
{
	sqlite3_stmt *st = db_prepare(db, "read schema version",
	    "PRAGMA user_version");
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		error("read schema version: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/* user_version into *out, printing nothing: the SQLite result code
 * (the caller says what failed, or tries another way). */
static int
db_peek_version(sqlite3 *db, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int(st, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* A database with tables but user_version 0 was not made by pathstat. */
static int
db_is_empty(sqlite3 *db, bool *empty)
{
	sqlite3_stmt *st = db_prepare(db, "inspect database",
	    "SELECT count(*) FROM sqlite_master");

	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		error("inspect database: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	*empty = sqlite3_column_int(st, 0) == 0;
	sqlite3_finalize(st);
	return 0;
}

/* Check that version have (of the file at path) is one we can use. */
static int
db_version_ok(sqlite3 *db, const char *path, int have)
{
	bool empty;

	if (have < 0)
		return error("'%s' has schema version %d, which no pathstat "
		    "writes: it is not a pathstat database, or it was "
		    "changed by hand (PRAGMA user_version)", path, have);
	if (have > db_schema_version())
		return error("database '%s' has schema version %d, newer than "
		    "this pathstat knows (%d): upgrade pathstat", path, have,
		    db_schema_version());
	if (have == 0) {
		if (db_is_empty(db, &empty))
			return -1;
		if (!empty)
			return error("'%s' is an SQLite database but not a "
			    "pathstat one (user_version 0 and tables present)",
			    path);
	}
	return 0;
}

/*
 * Is the file at path ours (or empty)?  user_version and the table
 * count are read in one read transaction, which writes nothing: read
 * apart, another pathstat creating the same new database between the
 * two reads made it look foreign (version 0, tables present).  0, or -1
 * after printing why; *have is the version read.
 */
static int
db_check_ours(sqlite3 *db, const char *path, int *have)
{
	int ret;

	if (db_exec(db, "read the schema version", "BEGIN"))
		return -1;
	ret = db_user_version(db, have) || db_version_ok(db, path, *have) ?
	    -1 : 0;
	if (db_exec(db, "read the schema version", ret ? "ROLLBACK" :
	    "COMMIT"))
		ret = -1;
	return ret;
}

/* The first column of sql's first row as 0 or 1 (anything else: 0);
 * -1 after printing an error. */
static int
db_query_one(sqlite3 *db, const char *what, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, what, sql);
	int rc, ret;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		ret = sqlite3_column_int(st, 0) == 1;
	else if (rc == SQLITE_DONE)
		ret = 0;
	else
		ret = error("%s: %s", what, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return ret;
}

/*
 * Bring the database to the newest schema.  All missing migrations run
 * in one exclusive transaction, and the version is read again once the
 * lock is held: two programs opening a new database at once then see
 * either nothing done (and do it all) or everything done, never half.
 */
static int
db_migrate(sqlite3 *db, const char *path)
{
	int have;
	size_t i;

	if (db_user_version(db, &have) || db_version_ok(db, path, have))
		return -1;
	if (have == db_schema_version())
		return 0;
	if (db_exec(db, "lock the database to update its schema",
	    "BEGIN EXCLUSIVE"))
		return -1;
	if (db_user_version(db, &have) || db_version_ok(db, path, have))
		goto fail;
	for (i = 0; i < schema_nmigrations; i++) {
		const struct schema_migration *m = &schema_migrations[i];
		char pragma[64];

		if (m->version <= have)
			continue;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
		    m->version);
		switch (m->skip_if ? db_query_one(db, m->name, m->skip_if) : 0) {
		case 0:
			if (db_exec(db, m->name, m->sql))
				goto fail;
			break;
		case 1:		/* the database has it already */
			break;
		default:
			goto fail;
		}
		if (db_exec(db, "set schema version", pragma))
			goto fail;
	}
	if (db_commit(db))
		goto fail;
	return 0;
fail:
	db_rollback(db);
	return -1;
}

/*
 * "pathsort" collation: digit runs compare by value, so paths sort
 * A, B, G, G', H, L2, L10 and trials 2 before 10.
 */
static int
natural_cmp(void *arg, int la, const void *va, int lb, const void *vb)
{
	const unsigned char *a = va, *b = vb;
	int i = 0, j = 0;

	(void)arg;
	while (i < la && j < lb) {
		if (isdigit(a[i]) && isdigit(b[j])) {
			int si = i, sj = j, di, dj;

			while (si < la && a[si] == '0')
				si++;
			while (sj < lb && b[sj] == '0')
				sj++;
			for (i = si; i < la && isdigit(a[i]); i++)
				;
			for (j = sj; j < lb && isdigit(b[j]); j++)
				;
			di = i - si;
			dj = j - sj;
			if (di != dj)
				return di < dj ? -1 : 1;
			if (di && memcmp(a + si, b + sj, (size_t)di))
				return memcmp(a + si, b + sj, (size_t)di) < 0 ? -1 : 1;
			continue;
		}
		if (a[i] != b[j])
			return a[i] < b[j] ? -1 : 1;
		i++;
		j++;
	}
	if (la - i != lb - j)
		return la - i < lb - j ? -1 : 1;
	return 0;
}

int
db_pathsort_cmp(const char *a, const char *b)
{
	return natural_cmp(NULL, (int)strlen(a), a, (int)strlen(b), b);
}

static double
db_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * SQLite's busy handler: wait for another connection's lock, up to
 * DB_BUSY_WAIT_S.  It polls every 0.5 to 2 ms (not SQLite's default
 * back-off to 100 ms): a writer committing file after file frees the
 * lock only for a moment, and a long sleeper would never see it.  After
 * a second it says on stderr what it is waiting for (again every 30 s).
 * arg is the connection.  One connection per thread, so the state of
 * the current wait is per thread.
 */
static int
db_busy(void *arg, int count)
{
	static _Thread_local double start, said;
	static _Thread_local unsigned int seed;
	struct timespec ts;
	double now = db_now();

	if (count == 0) {
		start = now;
		said = 0;
		if (!seed)
			seed = (unsigned int)getpid() * 2654435761u;
	}
	if (now - start > DB_BUSY_WAIT_S)
		return 0;
	if (now - start >= 1 && (said == 0 || now - said >= 30)) {
		const char *file = sqlite3_db_filename(arg, "main");

		note("waiting for the database '%s': another program is "
		    "writing to it (%.0f s so far)", file && *file ? file :
		    "?", now - start);
		said = now;
	}
	seed = seed * 1103515245u + 12345u;
	ts.tv_sec = 0;
	ts.tv_nsec = 500000 + (long)((seed >> 8) % 1500000);
	nanosleep(&ts, NULL);
	return 1;
}

/*
 * SQLite sorts in memory up to the larger of the main cache (2 MiB for
 * readers) and SQLITE_CONFIG_PMASZ pages, then writes sorted pieces to
 * a temporary file and merges them back.  check's run query (6 tags a
 * run, 20,160 runs; common/runsel.c) spilled so at 84 days of the team
 * campaign: check's CPU for 4x the days 4.21-4.50x with the spill,
 * 4.09x without (689 -> 667 ms at 84 days), peak RSS the same.
 * 16 MiB of 4 KiB pages keeps such sorts in memory while a sort of
 * one run's millions of samples still spills rather than holding them
 * all (a temp_store of MEMORY would).
 * Process-wide, so set before SQLite's first use (it is refused
 * after, harmlessly).
 */
#define DB_SORT_PAGES	4096

static void
db_sort_config(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	(void)sqlite3_config(SQLITE_CONFIG_PMASZ, DB_SORT_PAGES);
}

static sqlite3 *
db_open_flags(const char *path, int flags)
{
	struct strbuf why = STRBUF_INIT;
	sqlite3 *db = NULL;

	/* SQLite would open a FIFO named as the database and wait on it
	 * forever: only a regular file (or none, to create) is opened.  A
	 * URI is made from a path that was opened, so checked, before. */
	if (!(flags & SQLITE_OPEN_URI) && infile_check(path, &why) < 0) {
		error("cannot open database '%s': %s", path, why.buf);
		strbuf_release(&why);
		return NULL;
	}
	db_sort_config();
	/* One thread per connection: no need for SQLite's per-call mutex,
	 * which cost ~8 % of a sample scan (docs/research/bench.md). */
	if (sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX,
	    NULL) != SQLITE_OK) {
		error("cannot open database '%s': %s", path,
		    db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_handler(db, db_busy, db);
	sqlite3_extended_result_codes(db, 1);
	sqlite3_create_collation(db, "pathsort", SQLITE_UTF8, NULL, natural_cmp);
	if (series_register(db) != SQLITE_OK) {
		error("cannot open database '%s': %s", path,
		    sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/*
 * Switch to WAL.  The switch needs the file to itself and SQLite does
 * not call the busy handler for it, so when a second program opens a
 * new database at the same moment it is tried again here, as the
 * handler would.
 */
static int
db_set_wal(sqlite3 *db)
{
	double start = db_now();
	int count = 0;

	for (;;) {
		sqlite3_stmt *st = NULL;
		int rc;

		rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1,
		    &st, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		sqlite3_finalize(st);
		/* the mode it answers is the mode it has: an in-memory
		 * database stays "memory", as before */
		if (rc == SQLITE_ROW)
			return 0;
		if (((rc & 0xff) != SQLITE_BUSY &&
		    (rc & 0xff) != SQLITE_LOCKED) ||
		    db_now() - start > DB_BUSY_WAIT_S || !db_busy(db, count++))
			return error("set journal mode: %s",
			    sqlite3_errmsg(db));
	}
}

sqlite3 *
db_open(const char *path, bool create)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	sqlite3 *db;

	int have;

	db = db_open_flags(path, flags);
	if (!db)
		return NULL;
	/* Nothing is written to a file before it is known to be ours:
	 * switching to WAL rewrites the header of any SQLite file, and a
	 * foreign one (an oha --db-url run named by --db) must leave as
	 * it came.  Reading user_version and the table count writes
	 * nothing; db_migrate() checks again under its lock. */
	if (db_check_ours(db, path, &have)) {
		sqlite3_close(db);
		return NULL;
	}
	/* WAL + NORMAL: each file's transaction is atomic and a killed
	 * ingest leaves a consistent database; NORMAL is enough for that.
	 * 16 MiB of page cache: ingest appends to the samples b-tree, and
	 * 64 MiB was no faster on the bench tree while it was most of
	 * ingest's peak RSS (91 -> 41 MB). */
	if (db_set_wal(db) ||
	    db_exec(db, "set synchronous", "PRAGMA synchronous = NORMAL") ||
	    db_exec(db, "set foreign keys", "PRAGMA foreign_keys = ON") ||
	    db_exec(db, "set cache size", "PRAGMA cache_size = -16384") ||
	    db_exec(db, "set temp store", "PRAGMA temp_store = MEMORY") ||
	    db_migrate(db, path)) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* "file:" and path with every byte but [A-Za-z0-9/._~-] as %XX: a
 * name with '?', '#' or '%' is still that name.  Caller frees. */
static char *
db_uri(const char *path, const char *query)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path), o = 0;
	char *uri = xmalloc(5 + 3 * n + strlen(query) + 1);
	const unsigned char *p;

	memcpy(uri, "file:", 5);
	o = 5;
	for (p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("/._~-", *p)) {
			uri[o++] = (char)*p;
		} else {
			uri[o++] = '%';
			uri[o++] = hex[*p >> 4];
			uri[o++] = hex[*p & 15];
		}
	}
	memcpy(uri + o, query, strlen(query) + 1);
	return uri;
}

/* The folder path is in, for a message: its dirname, or ".".  Caller
 * frees. */
static char *
db_folder(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * A WAL database that SQLite cannot read without writing its -shm
 * beside it (a folder this user cannot write, a read-only mount): read
 * it as immutable when it has no write-ahead log left to apply, and say
 * so; else name the folder and what to do.  *db is replaced (NULL after
 * printing an error).  0 when it can be read.
 */
static int
db_reopen_immutable(sqlite3 **db, const char *path)
{
	struct strbuf wal = STRBUF_INIT;
	struct stat st;
	char *uri = NULL, *dir = db_folder(path);
	int ret = -1;

	sqlite3_close(*db);
	*db = NULL;
	strbuf_addf(&wal, "%s-wal", path);
	if (stat(wal.buf, &st) == 0 && st.st_size > 0) {
		error("cannot read database '%s': it has changes in '%s' that "
		    "SQLite applies only by writing beside it, and the folder "
		    "'%s' is not writable for this user: copy the database "
		    "with its -wal file to a folder you can write, or have its "
		    "owner run a pathstat command on it once", path, wal.buf,
		    dir);
		goto cleanup;
	}
	uri = db_uri(path, "?immutable=1");
	*db = db_open_flags(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
	if (!*db)
		goto cleanup;
	note("database '%s': read as it is on disk (immutable), since the "
	    "folder '%s' is not writable for this user; an ingest into it "
	    "meanwhile is not seen", path, dir);
	ret = 0;
cleanup:
	strbuf_release(&wal);
	free(uri);
	free(dir);
	return ret;
}

/* Did reading fail for want of writing beside the file (its -shm),
 * in a folder this user cannot write? */
static bool
db_needs_folder(int rc, const char *path)
{
	char *dir;
	bool ro;

	if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN)
		return false;
	dir = db_folder(path);
	ro = access(dir, W_OK) != 0;
	free(dir);
	return ro;
}

/*
 * A database with a hot journal beside it: a program writing it through
 * a rollback journal was stopped in the middle of a transaction (an
 * ingest that creates its database writes it that way), and SQLite reads
 * it only after rolling that transaction back, which a read-only
 * connection cannot do (SQLITE_READONLY_ROLLBACK).  Roll it back with a
 * read-write connection, as the next ingest would, when the file says it
 * is a pathstat database (its header's user_version, a schema version,
 * is not 0) and this user may write it and its folder; say so.  0, or -1
 * after an error naming the file and what to do.
 */
static int
db_roll_back(const char *path)
{
	unsigned char head[100];
	char *dir = db_folder(path);
	sqlite3 *rw = NULL;
	ssize_t got = -1;
	int fd, have = 0, ret = -1;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd >= 0) {
		got = read(fd, head, sizeof(head));
		close(fd);
	}
	if (got != (ssize_t)sizeof(head) ||
	    memcmp(head, "SQLite format 3", 16) ||
	    !(head[60] | head[61] | head[62] | head[63])) {
		error("cannot read database '%s': a program was stopped while "
		    "writing it, its unfinished change is in '%s-journal', and "
		    "the file is not known to be a pathstat database: open it "
		    "once with the program that wrote it", path, path);
		goto cleanup;
	}
	if (access(path, W_OK) || access(dir, W_OK)) {
		error("cannot read database '%s': an ingest into it was "
		    "stopped in the middle of a file, and SQLite reads it only "
		    "after rolling that file back from '%s-journal', which "
		    "needs write access to it and to the folder '%s': have its "
		    "owner run 'pathstat ingest' on it once", path, path, dir);
		goto cleanup;
	}
	rw = db_open_flags(path, SQLITE_OPEN_READWRITE);
	if (!rw)
		goto cleanup;
	if (db_peek_version(rw, &have) != SQLITE_OK) {
		error("cannot read database '%s': rolling back its unfinished "
		    "change: %s", path, sqlite3_errmsg(rw));
		goto cleanup;
	}
	note("database '%s': an ingest into it was stopped in the middle of "
	    "a file; that file's unfinished change was rolled back (the next "
	    "'pathstat ingest' stores the file again)", path);
	ret = 0;
cleanup:
	sqlite3_close(rw);
	free(dir);
	return ret;
}

sqlite3 *
db_open_readonly(const char *path)
{
	struct stat stbuf;
	sqlite3 *db;
	int have, rc, rc_first;	/* rc_first: not SQLITE_OK when read as
				 * immutable */

	if (stat(path, &stbuf) != 0) {
		error("cannot open database '%s': %s%s", path, strerror(errno),
		    errno == ENOENT ? " (run 'pathstat ingest' first, or "
		    "give --db or $PATHSTAT_DB)" : "");
		return NULL;
	}
	db = db_open_flags(path, SQLITE_OPEN_READONLY);
	if (!db)
		return NULL;
	rc = rc_first = db_peek_version(db, &have);
	if (rc == SQLITE_READONLY_ROLLBACK) {
		sqlite3_close(db);
		if (db_roll_back(path))
			return NULL;
		db = db_open_flags(path, SQLITE_OPEN_READONLY);
		if (!db)
			return NULL;
		rc = rc_first = db_peek_version(db, &have);
	}
	if (db_needs_folder(rc, path)) {
		if (db_reopen_immutable(&db, path))
			return NULL;
		rc = db_peek_version(db, &have);
	}
	if (rc != SQLITE_OK) {
		error("read schema version: %s", sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	if (have <= 0 || have > db_schema_version()) {
		if (have == 0)
			error("'%s' is not a pathstat database", path);
		else
			db_version_ok(db, path, have);
		sqlite3_close(db);
		return NULL;
	}
	if (have < db_schema_version() && rc_first != SQLITE_OK) {
		error("database '%s' has schema version %d, older than this "
		    "pathstat's %d, and upgrading it needs a folder you can "
		    "write: copy it to one, or read it with the pathstat that "
		    "wrote it", path, have, db_schema_version());
		sqlite3_close(db);
		return NULL;
	}
	if (have < db_schema_version()) {
		/* Older schema: reopen read-write to migrate it forward,
		 * and say so: an older pathstat refuses it after */
		sqlite3_close(db);
		db = db_open(path, false);
		if (db)
			warning("database '%s' upgraded in place from schema "
			    "version %d to %d: an older pathstat cannot read it "
			    "now", path, have, db_schema_version());
		return db;
	}
	/* Readers scan once (sample_values blobs are read once per run): a
	 * larger cache only adds RSS (analyze on the bench tree: 64 MiB
	 * gave 254 MB peak, 8 MiB 195 MB, at the same speed; analyze --by
	 * trial of 10,000 one-run cells: 8 MiB cost 0.7 KB a cell, 2 MiB
	 * none, and the team campaign's report takes the same CPU). */
	db_exec(db, "set cache size", "PRAGMA cache_size = -2048");
	return db;
}

sqlite3 *
db_open_as_is(const char *path, int *version)
{
	sqlite3 *db;
	int rc;

	db = db_open_flags(path, SQLITE_OPEN_READONLY);
	if (!db)
		return NULL;
	/* a dry run reads a shared WAL database in a folder it cannot
	 * write as the read commands do: immutable, when nothing waits in
	 * its -wal */
	rc = db_peek_version(db, version);
	if (db_needs_folder(rc, path)) {
		if (db_reopen_immutable(&db, path))
			return NULL;
		rc = db_peek_version(db, version);
	}
	if (rc == SQLITE_READONLY_ROLLBACK) {
		/* a dry run writes nothing, not even a rollback */
		error("cannot read database '%s' for a dry run: an ingest into "
		    "it was stopped in the middle of a file, and its unfinished "
		    "change in '%s-journal' must be rolled back first: a read "
		    "command (pathstat runs) or the next ingest does it", path,
		    path);
		goto fail;
	}
	if (rc != SQLITE_OK) {
		error("read schema version: %s", sqlite3_errmsg(db));
		goto fail;
	}
	if (*version == 0) {
		error("'%s' is not a pathstat database", path);
		goto fail;
	}
	if (db_version_ok(db, path, *version))
		goto fail;
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

void
db_close(sqlite3 *db)
{
	if (db)
		sqlite3_close(db);
}
