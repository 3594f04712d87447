/*
 * t-series.c - unit tests for common/series.c's pathstat_series_ok(rows,
 * value, status): the ok samples with a value of one series row, read
 * from its blobs, must be what counting series_rows() WHERE status = 0
 * AND value IS NOT NULL gives (export's count of a run's samples when
 * the run has no sorted copy), for rows of every kind: all ok, failed
 * samples, an ok sample without a value (NaN), several chunks.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/db.h"
#include "common/series.h"
#include "common/strbuf.h"
#include "tests/unit/harness.h"

/* One series row of run 1, metric 2, chunk c: values v (NaN for none)
 * and statuses s (NULL: all ok). */
static void
add_chunk(sqlite3 *db, int c, const double *v, const unsigned char *s,
    size_t n)
{
	struct strbuf sql = STRBUF_INIT;
	size_t i, failed = 0;
	int j;

	for (i = 0; s && i < n; i++)
		failed += s[i] != 0;
	strbuf_addf(&sql, "INSERT INTO series (run_id, metric, chunk, rows, "
	    "failed, value, status) VALUES (1, 2, %d, %zu, %zu, X'", c, n,
	    failed);
	for (i = 0; i < n; i++) {
		unsigned char b[8];

		series_put_f64(b, v[i]);
		for (j = 0; j < 8; j++)
			strbuf_addf(&sql, "%02X", b[j]);
	}
	strbuf_addstr(&sql, "', ");
	if (s) {
		strbuf_addstr(&sql, "X'");
		for (i = 0; i < n; i++)
			strbuf_addf(&sql, "%02X", s[i]);
		strbuf_addstr(&sql, "');");
	} else {
		strbuf_addstr(&sql, "NULL);");
	}
	CHECK(sqlite3_exec(db, sql.buf, NULL, NULL, NULL) == SQLITE_OK,
	    "a series row stored");
	strbuf_release(&sql);
}

/* The first column of the first row of sql, or -1. */
static long long
one(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long x = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("# %s: %s\n", sql, sqlite3_errmsg(db));
		return -1;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		x = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return x;
}

static void
test_ok_count(void)
{
	sqlite3 *db = db_open(":memory:", true);
	double v[SERIES_CHUNK];
	unsigned char s[SERIES_CHUNK];
	size_t i;

	CHECK(db != NULL, "an in-memory database");
	if (!db)
		return;
	/* chunk 0: 56 ok samples, one of them without a value */
	for (i = 0; i < SERIES_CHUNK; i++)
		v[i] = 1.5 * (double)i;
	v[7] = NAN;
	add_chunk(db, 0, v, NULL, SERIES_CHUNK);
	/* chunk 1: 10 samples, 3 failed (NaN as ingest stores them), one
	 * ok without a value */
	for (i = 0; i < 10; i++) {
		v[i] = (double)i;
		s[i] = 0;
	}
	s[1] = s[4] = s[9] = 2;
	v[1] = v[4] = v[9] = NAN;
	v[5] = NAN;
	add_chunk(db, 1, v, s, 10);

	CHECK_EQ_INT(one(db, "SELECT count(*) FROM series_rows(1, 2) "
	    "WHERE status = 0 AND value IS NOT NULL"), 55 + 6,
	    "series_rows: 61 ok samples with a value");
	CHECK_EQ_INT(one(db, "SELECT sum(pathstat_series_ok(rows, value, "
	    "status)) FROM series WHERE run_id = 1 AND metric = 2"), 55 + 6,
	    "pathstat_series_ok: the same 61");
	CHECK_EQ_INT(one(db, "SELECT pathstat_series_ok(rows, value, status) "
	    "FROM series WHERE chunk = 0"), 55,
	    "an all-ok row: its NaN is not counted");
	CHECK_EQ_INT(one(db, "SELECT pathstat_series_ok(rows, value, status) "
	    "FROM series WHERE chunk = 1"), 6,
	    "failed samples and an ok NaN are not counted");
	CHECK_EQ_INT(one(db, "SELECT pathstat_series_ok(3, x'00', NULL)"), 0,
	    "a value blob shorter than rows: only whole values count");
	CHECK_EQ_INT(one(db, "SELECT pathstat_series_ok(2, "
	    "x'000000000000f03f000000000000f03f', x'00')"), 2,
	    "a status blob shorter than rows: the rest are ok");
	sqlite3_close(db);
}

int
main(void)
{
	test_ok_count();
	return test_done();
}
