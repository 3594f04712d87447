/*
 * db.h - opening the pathstat database (migrating it to the current
 * schema) and small SQLite helpers that report errors with the
 * statement's purpose and sqlite3_errmsg().
 */
#ifndef PATHSTAT_COMMON_DB_H
#define PATHSTAT_COMMON_DB_H

#include "common/compat.h"

#include <sqlite3.h>

#define DB_DEFAULT_NAME "pathstat.db"
/* How long one wait for another connection's lock may last (seconds),
 * and how many such waits db_begin() makes before it gives up. */
#define DB_BUSY_WAIT_S	60
#define DB_BEGIN_TRIES	10

/* The database path: opt if given, else $PATHSTAT_DB, else ./pathstat.db.
 * Returns a borrowed string. */
const char *db_default_path(const char *opt);

/* Open (creating when create is true) and migrate to the newest schema.
 * Returns NULL after printing an error.  Close with db_close(). */
sqlite3 *db_open(const char *path, bool create);
/* Open an existing database read-only (it must exist and be a pathstat DB
 * at a schema this binary knows).  Returns NULL after printing an error. */
sqlite3 *db_open_readonly(const char *path);
/* Open an existing database read-only as it is: never migrated (a dry
 * run writes nothing), so its schema may be older than this binary's;
 * *version says which.  Returns NULL after printing an error. */
sqlite3 *db_open_as_is(const char *path, int *version);
void db_close(sqlite3 *db);

/* The schema version this binary writes. */
int db_schema_version(void);

/* Run SQL without results; on failure print "<what>: <errmsg>", return -1. */
int db_exec(sqlite3 *db, const char *what, const char *sql);
/* Prepare; on failure print and return NULL.  Finalize with sqlite3_finalize. */
sqlite3_stmt *db_prepare(sqlite3 *db, const char *what, const char *sql);
/* The "pathsort" collation's order of a and b (<0, 0, >0): digit runs
 * compare by value (L2 before L10, 01 equal to 1). */
int db_pathsort_cmp(const char *a, const char *b);
/* Step a statement expected to finish (no rows): 0 or -1 after printing. */
int db_step_done(sqlite3 *db, sqlite3_stmt *st, const char *what);

/*
 * sample_values.sorted (schema 002) holds doubles as IEEE 754 binary64,
 * little-endian, whatever the host.  Pack n values into out (8 n bytes)
 * and unpack them again.
 */
void db_pack_doubles(const double *x, size_t n, unsigned char *out);
void db_unpack_doubles(const unsigned char *in, size_t n, double *x);

/* BEGIN IMMEDIATE, waiting while another program writes (see
 * DB_BUSY_WAIT_S and DB_BEGIN_TRIES); 0, or -1 after printing. */
int db_begin(sqlite3 *db);
int db_commit(sqlite3 *db);
void db_rollback(sqlite3 *db);

#endif
