/*
 * t-store.c - unit tests for ingest/store.c's encoding of a run's
 * samples: store_encode_runs() (what a parser thread does before the
 * writer takes the file) must give the database exactly what encoding
 * in store_put_runs() gives, and must free the samples it encoded, so
 * that a file waiting for the writer holds its samples once.  The run
 * has two metrics interleaved, more than two series rows of one,
 * failed samples, values that are not finite, -0.0, and samples with
 * and without a time.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/db.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/internal.h"
#include "ingest/store.h"
#include "ingest/tree.h"
#include "tests/unit/harness.h"

/* A result of one run, filled the same way every time. */
static void
fill(struct parse_result *res)
{
	struct parsed_run *run;
	int i;

	parse_result_init(res);
	run = parse_result_add_run(res, "oha", METRIC_HTTP_MS);
	for (i = 0; i < 150; i++) {
		double v = (double)((i * 37) % 101) / 7.0;
		int st = i % 11 == 0 ? SAMPLE_TIMEOUT : SAMPLE_OK;

		if (i == 5)
			v = -0.0;
		if (i == 6)
			v = INFINITY;
		if (i == 7)
			v = NAN;
		parsed_run_add_sample(run, METRIC_HTTP_MS, i % 3 ? 1000 *
		    (int64_t)i : T_US_UNKNOWN, v, st);
		if (i % 2)
			parsed_run_add_sample(run, METRIC_HTTP_BPS,
			    T_US_UNKNOWN, 1e6 - i, SAMPLE_OK);
	}
}

/* Store res as the file relpath; 0 or -1. */
static int
put(struct store *st, const char *relpath, struct parse_result *res)
{
	struct file_row row = { relpath, "h", 1, "oha-csv", NULL, "ok", NULL,
	    relpath };
	struct run_keys keys;
	size_t removed = 0, nruns = 0, nsamples = 0;
	int64_t file_id;
	int ret;

	run_keys_init(&keys);
	keys.path = xstrdup(relpath);
	ret = store_put_file(st, &row, &file_id, &removed) ? -1 :
	    store_put_runs(st, file_id, KIND_OHA_CSV, res, &keys, &nruns,
	    &nsamples);
	CHECK_EQ_INT(nsamples, 225, "every sample counted");
	run_keys_release(&keys);
	return ret;
}

/* Every column of table for run id, as one text. */
static void
dump(sqlite3 *db, const char *table, int id, struct strbuf *out)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int c;

	strbuf_addf(&sql, "SELECT * FROM %s WHERE run_id = %d ORDER BY rowid",
	    table, id);
	if (sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) != SQLITE_OK) {
		strbuf_addstr(out, sqlite3_errmsg(db));
		strbuf_release(&sql);
		return;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (c = 1; c < sqlite3_column_count(st); c++) {
			const unsigned char *b = sqlite3_column_blob(st, c);
			int k, n = sqlite3_column_bytes(st, c);

			strbuf_addf(out, "%d:", sqlite3_column_type(st, c));
			for (k = 0; b && k < n; k++)
				strbuf_addf(out, "%02x", b[k]);
			strbuf_addch(out, ',');
		}
		strbuf_addch(out, '\n');
	}
	sqlite3_finalize(st);
	strbuf_release(&sql);
}

int
main(void)
{
	sqlite3 *db = db_open(":memory:", true);
	struct store *st = db ? store_open(db) : NULL;
	struct parse_result plain, enc;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const char *tables[] = { "series", "sample_values" };
	size_t t;

	CHECK(st != NULL, "an in-memory database and its store");
	if (!st)
		return test_done();
	fill(&plain);
	fill(&enc);
	store_encode_runs(&enc);
	CHECK(enc.runs[0].enc != NULL, "the run is encoded");
	CHECK(enc.runs[0].samples == NULL, "its samples are freed");
	CHECK_EQ_INT(enc.runs[0].nsamples, 225, "and still counted");
	CHECK_EQ_INT(put(st, "plain", &plain), 0, "stored as parsed");
	CHECK_EQ_INT(put(st, "encoded", &enc), 0, "stored encoded");
	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		strbuf_reset(&a);
		strbuf_reset(&b);
		dump(db, tables[t], 1, &a);
		dump(db, tables[t], 2, &b);
		CHECK(a.len > 0, "the plain run has rows");
		CHECK_EQ_STR(b.buf, a.buf, tables[t]);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	parse_result_release(&plain);
	parse_result_release(&enc);
	store_close(st);
	db_close(db);
	return test_done();
}
