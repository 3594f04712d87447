/*
 * t-oha.c - unit tests for the oha parsers (ingest/oha.c, oha_csv.c,
 * oha_sqlite.c): every fixture against the Python oracle's .expect file,
 * hand-checked values, and hostile input.  PATHSTAT_BENCH=1 also times
 * the CSV parser on a generated 1M-row file.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/internal.h"
#include "tests/unit/harness.h"
#include "tests/unit/parse-helpers.h"
#include "tests/fuzz/fuzz-oha-sqlite-same.h"

#define REF	"tests/fixtures/reference/oha/"
#define FIX	"tests/fixtures/oha/"
#define EXP	"tests/fixtures/oha/expect/"

/* Parse a fixture and compare with its oracle expectations. */
static void
check_fixture(parser_fn fn, const char *dir, const char *name)
{
	struct parse_result res;
	char path[256], expect[256], what[300];
	int rc;

	snprintf(path, sizeof(path), "%s%s", dir, name);
	snprintf(expect, sizeof(expect), "%s%s.expect", EXP, name);
	parse_result_init(&res);
	rc = parse_file(fn, path, &res);
	snprintf(what, sizeof(what), "%s parses", name);
	CHECK_EQ_INT(rc, 0, what);
	if (rc)
		printf("#   reason: %s\n", res.reason.buf);
	else
		check_expect(&res, expect);
	parse_result_release(&res);
}

static void
test_json_oracle(void)
{
	static const char *const ref[] = {
		"synthetic-v1.15.0-normal.json",
		"synthetic-v1.15.0-single.json",
		"synthetic-v1.15.0-all_failed.json",
		"synthetic-v1.15.0-deadline_only.json",
	};
	static const char *const fix[] = {
		"v0.5.4.json", "v1.4.5-crlf-junk.json",
		"v1.13-breakdown.json", "deadline-v1.2.json",
		"bad-types.json",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ref); i++)
		check_fixture(ingest_parse_oha_json, REF, ref[i]);
	for (i = 0; i < ARRAY_SIZE(fix); i++)
		check_fixture(ingest_parse_oha_json, FIX, fix[i]);
}

/* Values read off the sample files by hand. */
static void
test_json_by_hand(void)
{
	struct parse_result res;
	const struct parsed_run *run;

	parse_result_init(&res);
	CHECK_EQ_INT(parse_file(ingest_parse_oha_json,
	    REF "synthetic-v1.15.0-normal.json", &res), 0, "normal.json ok");
	run = &res.runs[0];
	CHECK_EQ_INT(res.nruns, 1, "normal: one run");
	CHECK_EQ_STR(run->tool, "oha", "normal: tool");
	CHECK_EQ_INT(run->metric, METRIC_HTTP_MS, "normal: metric http_ms");
	CHECK_EQ_INT(run->nsamples, 0, "normal: no samples from a summary");
	CHECK_NEAR(summary_value(run, "http_ms", "p50"), 1.209934, 1e-12,
	    "normal: p50 = 1.209934 ms");
	CHECK_NEAR(summary_value(run, "http_ms", "p99.99"), 31.133511, 1e-12,
	    "normal: p99.99 = 31.133511 ms");
	CHECK_NEAR(summary_value(run, "http_ms", "min"), 0.901104, 1e-12,
	    "normal: fastest as min, ms");
	CHECK_NEAR(summary_value(run, "http_ms_metrics", "p50"), 1.21, 0,
	    "normal: metrics.latency_ms.p50 kept apart, 1.21");
	CHECK_NEAR(summary_value(run, "http", "success_rate"), 1.0, 0,
	    "normal: success rate");
	CHECK_NEAR(summary_value(run, "rps", "requests_per_sec"),
	    544.2715958805171, 1e-9, "normal: requestsPerSec");
	CHECK_NEAR(summary_value(run, "rps", "min"), 34.74382733346233, 1e-9,
	    "normal: rps.min");
	CHECK_NEAR(summary_value(run, "dns_lookup_ms", "mean"), 0.0073875,
	    1e-15, "normal: 7.3875e-6 s read as 0.0073875 ms");
	CHECK_EQ_INT(count_of(run, "status", "200"), 19, "normal: 19 x 200");
	CHECK_EQ_INT(count_of(run, "status", "404"), 1, "normal: 1 x 404");
	CHECK_EQ_INT(run->attempts, 20, "normal: 20 attempts");
	CHECK_EQ_INT(run->failures, 0, "normal: a 404 is not a failure");
	CHECK_EQ_STR(find_summary(run, "http_ms", "p50")->estimator, "oha",
	    "normal: estimator oha");
	CHECK_EQ_STR(res.tool_version, "oha >=1.15", "normal: version");
	CHECK(!res.partial && !run->partial, "normal: not partial");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_json,
	    REF "synthetic-v1.15.0-all_failed.json", &res), 0,
	    "all_failed: still a run");
	run = &res.runs[0];
	CHECK_EQ_INT(run->failures, 200, "all_failed: 200 failures");
	CHECK_EQ_INT(run->attempts, 200, "all_failed: 200 attempts");
	CHECK_EQ_INT(run->nsamples, 0, "all_failed: no samples");
	CHECK(isnan(summary_value(run, "http_ms", "p50")),
	    "all_failed: p50 null -> NaN");
	CHECK_NEAR(summary_value(run, "http", "success_rate"), 0, 0,
	    "all_failed: success rate 0");
	CHECK(!res.partial, "all_failed: not partial");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_json,
	    REF "synthetic-v1.15.0-deadline_only.json", &res), 0,
	    "deadline_only: ok");
	run = &res.runs[0];
	CHECK(isnan(summary_value(run, "http", "success_rate")),
	    "deadline_only: success_rate null stored as NaN (NULL)");
	CHECK_EQ_INT(count_of(run, "error", "aborted due to deadline"), 50,
	    "deadline_only: deadline aborts kept as a count");
	CHECK_EQ_INT(run->failures, 0, "deadline_only: aborts are no failures");
	CHECK_EQ_INT(run->attempts, 50, "deadline_only: but are attempts");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_json,
	    REF "synthetic-v1.15.0-single.json", &res), 0, "single: ok");
	run = &res.runs[0];
	CHECK_NEAR(summary_value(run, "http_ms", "p10"), 2.0, 1e-12,
	    "single: p10 = the one value");
	CHECK(isnan(summary_value(run, "rps", "stddev")),
	    "single: rps.stddev null");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_json,
	    FIX "v1.4.5-crlf-junk.json", &res), 0, "junk around: ok");
	CHECK(res.partial && !res.runs[0].partial,
	    "junk around: file partial for the trailing text, run complete");
	CHECK(contains(res.reason.buf, "text after the JSON"),
	    "junk around: reason");
	CHECK_EQ_INT(res.runs[0].failures, 1,
	    "junk around: 1 reset, 20 deadline aborts not failures");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_json, FIX "v0.5.4.json",
	    &res), 0, "v0.5.4: ok");
	CHECK(find_summary(&res.runs[0], "http_ms", "p99.9") == NULL,
	    "v0.5.4: no p99.9 before v0.6.4");
	CHECK_EQ_STR(res.tool_version, "oha >=0.5.4 <0.6.4", "v0.5.4: version");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_json, FIX "bad-types.json",
	    &res), 0, "bad types: kept what it could");
	CHECK(res.runs[0].partial, "bad types: partial");
	CHECK(contains(res.runs[0].reason.buf, "summary.successRate"),
	    "bad types: names the field");
	CHECK_NEAR(summary_value(&res.runs[0], "http", "total_s"), 1.5, 0,
	    "bad types: good fields kept");
	parse_result_release(&res);
}

static void
test_json_hostile(void)
{
	static const char *const rejected[] = {
		"", "garbage", "{", "{}", "[]", "{\"summary\": 1}",
		"{\"summary\": {\"total\": NaN}}",
		"{\"summary\": {\"total\": 0.5}", "\"summary\"",
		"{\"Summary\": {}}", "{\"summary\": \"{}\"}",
	};
	struct parse_result res;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	char what[128];

	parse_result_init(&res);
	for (i = 0; i < ARRAY_SIZE(rejected); i++) {
		snprintf(what, sizeof(what), "rejects '%.40s'", rejected[i]);
		CHECK_EQ_INT(parse_str(ingest_parse_oha_json, rejected[i],
		    &res), -1, what);
		CHECK(res.reason.len > 0 && res.nruns == 0, what);
	}
	/* Junk before the first '{' is skipped, junk after it noted. */
	CHECK_EQ_INT(parse_str(ingest_parse_oha_json,
	    "[{\"summary\":{}}]", &res), 0, "'[' before the document: ok");
	CHECK(contains(res.reason.buf, "text after the JSON document"),
	    "']' after it: noted");
	CHECK_EQ_INT(parse_str(ingest_parse_oha_json,
	    "{\"summary\": {}} ]extra {", &res), 0, "junk after: ok");
	CHECK(res.partial && contains(res.reason.buf, "text after the JSON "
	    "document (byte 16)"), "junk after: partial");
	CHECK_EQ_INT(parse_str(ingest_parse_oha_json,
	    "{\"summary\": {}}\r\n\r\n", &res), 0, "minimal summary ok");
	CHECK(!contains(res.reason.buf, "text after"),
	    "trailing CRLF is not junk");
	CHECK_EQ_INT(res.runs[0].attempts, -1,
	    "no distributions: attempts unknown");
	CHECK(res.runs[0].partial, "no distributions: partial");

	CHECK_EQ_INT(parse_str(ingest_parse_oha_json,
	    "{\"summary\":{\"total\":1e999,\"slowest\":1e306,"
	    "\"successRate\":-0.0},\"statusCodeDistribution\":"
	    "{\"200\":1e300,\"201\":3},\"errorDistribution\":"
	    "{\"a \\\"quoted\\\"\\nmessage\":2}}", &res), 0,
	    "huge numbers: ok");
	CHECK(find_summary(&res.runs[0], "http", "total_s") == NULL,
	    "1e999 (inf) is not stored");
	CHECK(find_summary(&res.runs[0], "http_ms", "max") == NULL,
	    "1e306 s overflows in ms: not stored");
	CHECK_EQ_INT(count_of(&res.runs[0], "status", "200"), -1,
	    "count 1e300 refused");
	CHECK_EQ_INT(count_of(&res.runs[0], "error", "a \"quoted\"\nmessage"),
	    2, "error message with quotes and a newline kept");
	CHECK_EQ_INT(res.runs[0].attempts, 5, "attempts from valid counts");
	CHECK(res.runs[0].partial, "huge numbers: partial");

	/* Nesting far past cJSON's limit. */
	strbuf_addstr(&sb, "{\"summary\":{},\"x\":");
	for (i = 0; i < 5000; i++)
		strbuf_addch(&sb, '[');
	CHECK_EQ_INT(ingest_parse_oha_json(sb.buf, sb.len, &res), -1,
	    "deep nesting rejected");
	parse_result_release(&res);

	/* 10,000 error labels: capped, not quadratic forever. */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "{\"summary\":{},\"statusCodeDistribution\":{},"
	    "\"errorDistribution\":{");
	for (i = 0; i < 10000; i++)
		strbuf_addf(&sb, "%s\"e%zu\":1", i ? "," : "", i);
	strbuf_addstr(&sb, "}}");
	CHECK_EQ_INT(ingest_parse_oha_json(sb.buf, sb.len, &res), 0,
	    "10k error labels: ok");
	CHECK_EQ_INT(res.runs[0].ncounts, 1024, "labels capped at 1024");
	CHECK(res.runs[0].partial, "labels over the cap: partial");
	parse_result_release(&res);

	/* cJSON takes a NUL for white space: keep the run, but say so (a
	 * block of zeros is what a crash leaves in a file). */
	strbuf_reset(&sb);
	strbuf_add(&sb, "{\"summary\":{\"total\":1.0,\0\"x\":2}}", 33);
	CHECK_EQ_INT(ingest_parse_oha_json(sb.buf, sb.len, &res), 0,
	    "NUL inside the document: parsed");
	CHECK(res.partial && contains(res.reason.buf, "NUL"),
	    "NUL inside the document: partial");
	parse_result_release(&res);

	/* A document cut in half (a synced file still being written). */
	if (!load(&sb, REF "synthetic-v1.15.0-normal.json")) {
		CHECK_EQ_INT(ingest_parse_oha_json(sb.buf, sb.len / 2, &res),
		    -1, "half a document rejected");
		CHECK(contains(res.reason.buf, "invalid JSON"),
		    "half a document: reason");
		parse_result_release(&res);
	}
	strbuf_release(&sb);
}

static void
test_csv(void)
{
	struct parse_result res;
	const struct parsed_run *run;

	check_fixture(ingest_parse_oha_csv, FIX, "small.csv");
	check_fixture(ingest_parse_oha_csv, FIX, "crlf.csv");
	check_fixture(ingest_parse_oha_csv, FIX, "six-col.csv");

	parse_result_init(&res);
	CHECK_EQ_INT(parse_file(ingest_parse_oha_csv, FIX "small.csv", &res),
	    0, "small.csv ok");
	run = &res.runs[0];
	CHECK_EQ_INT(run->nsamples, 20, "small: 20 samples");
	CHECK_NEAR(run->samples[0].value, 1.315798, 1e-12,
	    "small: duration in ms");
	CHECK_EQ_INT(run->samples[0].t_us, 163, "small: start in µs");
	CHECK_NEAR(run->samples[13].value, 31.133511, 1e-12,
	    "small: the outlier");
	CHECK_EQ_INT(count_of(run, "status", "404"), 1,
	    "small: a 404 is counted");
	CHECK_EQ_INT(run->samples[7].status, SAMPLE_OK,
	    "small: and is a success for oha");
	CHECK_EQ_INT(run->failures, 0, "small: failures 0");
	CHECK_EQ_INT(run->attempts, -1, "small: attempts unknown");
	CHECK_EQ_INT(run->started_at, STARTED_UNKNOWN, "small: no start time");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_csv, FIX "bad-rows.csv",
	    &res), 0, "bad rows: ok");
	run = &res.runs[0];
	CHECK_EQ_INT(run->nsamples, 4, "bad rows: 4 good rows kept");
	CHECK(run->partial && res.partial, "bad rows: partial");
	CHECK(contains(run->reason.buf, "skipped 9 bad rows of 13 (first at "
	    "line 3: 6 fields, want 7)"), "bad rows: count and first line");
	CHECK(contains(run->reason.buf, "last line 15 cut short"),
	    "bad rows: cut last line");
	CHECK_NEAR(run->samples[1].value, 1.3, 1e-12,
	    "bad rows: quoted fields are fine");
	CHECK_NEAR(run->samples[2].value, 1.0, 1e-12,
	    "bad rows: 1e-3 read through strtod");
	parse_result_release(&res);
}

static void
test_csv_hostile(void)
{
	static const char *const rejected[] = {
		"", "\n\n", "garbage", "a,b,c\n1,2,3\n",
		"request-start,DNS,DNS+dialup,Response-delay,request-duration,"
		    "bytes,status\n",
		"request-start,DNS,DNS+dialup,Response-delay,request-duration,"
		    "bytes,status\n1,2,3\nNaN,0,0,0,NaN,1,200\n",
		"REQUEST-START,DNS,DNS+dialup,Response-delay,request-duration,"
		    "bytes,status\n0,0,0,0,0.1,1,200\n",
		"request-start,DNS,DNS+dialup,Response-delay,request-duration,"
		    "bytes,status\n0.1,0,0,0,0.0",
	};
	static const char hdr[] = "request-start,DNS,DNS+dialup,"
	    "Response-delay,request-duration,bytes,status\n";
	struct parse_result res;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	char what[128];

	parse_result_init(&res);
	for (i = 0; i < ARRAY_SIZE(rejected); i++) {
		snprintf(what, sizeof(what), "csv rejects '%.30s'",
		    rejected[i]);
		CHECK_EQ_INT(parse_str(ingest_parse_oha_csv, rejected[i], &res),
		    -1, what);
		CHECK(res.nruns == 0 && res.reason.len, what);
	}

	/* Huge numbers, NaN strings, a 10k-column line, and a quoted field
	 * holding quotes and line breaks (the line count must follow). */
	strbuf_addstr(&sb, hdr);
	strbuf_addstr(&sb, "0.1,0,0,0,1e308,1,200\n");	/* line 2 */
	strbuf_addstr(&sb, "0.1,0,0,0,NaN,1,200\n");		/* line 3 */
	strbuf_addstr(&sb, "0.1,0,0,0,0.002,99999999999999999999,200\n");
	strbuf_addstr(&sb, "0.1,0,0,0,0.002,1,200");		/* line 5 */
	for (i = 0; i < 10000; i++)
		strbuf_addstr(&sb, ",1");
	strbuf_addstr(&sb, "\n0.1,\"a \"\"q\"\"\nb\nc\",0,0,0.002,1,200\n");
	strbuf_addstr(&sb, "0.25,0,0,0,0.002,1,200\n");	/* line 9 */
	strbuf_addstr(&sb, "0.5,0,0,0,0.003,1,201\n");	/* line 10 */
	strbuf_addstr(&sb, "0.5,0,0,0,0.003,1,2010\n");	/* line 11 */
	CHECK_EQ_INT(ingest_parse_oha_csv(sb.buf, sb.len, &res), 0,
	    "hostile csv: the good rows kept");
	CHECK_EQ_INT(res.runs[0].nsamples, 2, "hostile csv: 2 good rows");
	CHECK(contains(res.runs[0].reason.buf, "skipped 6 bad rows of 8 "
	    "(first at line 2: bad request-duration)"),
	    "hostile csv: reason");
	CHECK_EQ_INT(res.runs[0].samples[0].t_us, 250000,
	    "hostile csv: row after the multi-line field");
	CHECK_EQ_INT(count_of(&res.runs[0], "status", "201"), 1,
	    "hostile csv: status counted");
	parse_result_release(&res);

	strbuf_reset(&sb);
	strbuf_addstr(&sb, hdr);
	strbuf_addstr(&sb, "0.1,0,0,0,1e308,1,200\n");
	strbuf_addstr(&sb, "0.1,0,0,0,0.002,1,200\n0.2,0,0,0,0.002,1,200\n");
	CHECK_EQ_INT(ingest_parse_oha_csv(sb.buf, sb.len, &res), 0,
	    "line numbers: ok");
	CHECK(contains(res.runs[0].reason.buf, "line 2: bad "
	    "request-duration"), "1e308 s is not a duration");
	parse_result_release(&res);

	/* Lines are counted through a quoted field's line breaks. */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, hdr);
	strbuf_addstr(&sb, "0.1,\"0\r\n1\n2\",0,0,0.002,1,200\r\n");
	strbuf_addstr(&sb, "0.2,0,0,0,0.002,1,200\r\n0.3,0,0");
	CHECK_EQ_INT(ingest_parse_oha_csv(sb.buf, sb.len, &res), 0,
	    "multi-line field: ok");
	CHECK(contains(res.runs[0].reason.buf, "first at line 2:") &&
	    contains(res.runs[0].reason.buf, "last line 6 cut short"),
	    "multi-line field: line numbers");
	printf("# %s\n", res.runs[0].reason.buf);
	parse_result_release(&res);

	/* A field over the 1 MiB cap stops the reader, keeps what came
	 * before. */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, hdr);
	strbuf_addstr(&sb, "0.1,0,0,0,0.002,1,200\n\"");
	for (i = 0; i < (1u << 20) + 10; i++)
		strbuf_addch(&sb, 'x');
	strbuf_addstr(&sb, "\"\n0.2,0,0,0,0.002,1,200\n");
	CHECK_EQ_INT(ingest_parse_oha_csv(sb.buf, sb.len, &res), 0,
	    "giant field: earlier rows kept");
	CHECK_EQ_INT(res.runs[0].nsamples, 1, "giant field: 1 row");
	CHECK(contains(res.runs[0].reason.buf, "field longer than"),
	    "giant field: reason");
	parse_result_release(&res);

	/* A NUL byte inside a number is not a number. */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, hdr);
	strbuf_add(&sb, "0.1,0,0,0,0.002\0" "5,1,200\n", 24);
	strbuf_addstr(&sb, "0.2,0,0,0,0.002,1,200\n");
	CHECK_EQ_INT(ingest_parse_oha_csv(sb.buf, sb.len, &res), 0,
	    "NUL in a field: ok");
	CHECK_EQ_INT(res.runs[0].nsamples, 1, "NUL in a field: row skipped");
	parse_result_release(&res);
	strbuf_release(&sb);
}

static void
test_sqlite(void)
{
	static const char *const dbs[] = {
		"v1.4.6.db", "v1.5.db", "v1.9.db", "v1.9-one-run.db", "wal.db",
	};
	struct parse_result res;
	struct strbuf sb = STRBUF_INIT, copy = STRBUF_INIT;
	const struct parsed_run *run;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dbs); i++)
		check_fixture(ingest_parse_oha_sqlite, FIX, dbs[i]);

	parse_result_init(&res);
	CHECK_EQ_INT(parse_file(ingest_parse_oha_sqlite, FIX "v1.9.db", &res),
	    0, "v1.9: ok");
	CHECK_EQ_INT(res.nruns, 2, "v1.9: one run per run value");
	CHECK_EQ_STR(kvset_get(&res.runs[0].tags, "oha_run"), "1787876523",
	    "v1.9: first run tagged");
	CHECK_EQ_INT(res.runs[1].started_at, 1787876583,
	    "v1.9: started_at = run");
	CHECK_NEAR(res.runs[1].samples[0].value, 1.3, 1e-12,
	    "v1.9: samples in start order");
	CHECK_EQ_INT(count_of(&res.runs[1], "status", "500"), 1,
	    "v1.9: status counts per run");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_sqlite, FIX "v1.9-one-run.db",
	    &res), 0, "one run: ok");
	CHECK_EQ_INT(res.runs[0].tags.n, 0, "one run: no tag");
	CHECK_EQ_INT(res.runs[0].started_at, 1787876523, "one run: started_at");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_sqlite, FIX "v1.4.6.db",
	    &res), 0, "v1.4.6: ok");
	run = &res.runs[0];
	CHECK_EQ_INT(run->started_at, STARTED_UNKNOWN,
	    "v1.4.6: no run column, no start");
	CHECK_EQ_INT(run->samples[0].t_us, 50, "v1.4.6: sorted by start");
	CHECK_EQ_INT(count_of(run, "status", "503"), 1, "v1.4.6: 503 counted");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_sqlite, FIX "bad-rows.db",
	    &res), 0, "bad rows db: ok");
	run = &res.runs[0];
	CHECK_EQ_INT(run->nsamples, 2, "bad rows db: 2 good rows");
	CHECK(contains(run->reason.buf, "skipped 4 bad rows of 6 (first: "
	    "row 3, bad start)"), "bad rows db: run reason");
	CHECK(contains(res.reason.buf, "1 row without a valid run"),
	    "bad rows db: file reason");

	CHECK_EQ_INT(parse_file(ingest_parse_oha_sqlite, FIX "not-oha.db",
	    &res), -1, "no oha table: rejected");
	CHECK(contains(res.reason.buf, "no table 'oha'"), "no oha table: why");
	CHECK_EQ_INT(parse_file(ingest_parse_oha_sqlite, FIX "view-oha.db",
	    &res), -1, "oha view: rejected");
	CHECK_EQ_INT(parse_file(ingest_parse_oha_sqlite, FIX "empty.db",
	    &res), -1, "empty table: rejected");

	CHECK_EQ_INT(parse_str(ingest_parse_oha_sqlite, "", &res), -1,
	    "empty input rejected");
	CHECK_EQ_INT(parse_str(ingest_parse_oha_sqlite, "SQLite format 3",
	    &res), -1, "bare magic rejected");

	if (!load(&sb, FIX "v1.9.db")) {
		strbuf_add(&copy, sb.buf, sb.len);
		CHECK_EQ_INT(ingest_parse_oha_sqlite(sb.buf, sb.len, &res), 0,
		    "from a buffer");
		CHECK(!memcmp(sb.buf, copy.buf, sb.len),
		    "the buffer is not modified");
		parse_result_release(&res);

		CHECK_EQ_INT(ingest_parse_oha_sqlite(sb.buf, 4096, &res), -1,
		    "truncated database rejected");
		CHECK(res.reason.len > 0, "truncated: reason from SQLite");
		printf("# truncated: %s\n", res.reason.buf);
		parse_result_release(&res);

		/* Scribble over the data page. */
		memset(sb.buf + 4096 + 8, 0xff, 200);
		CHECK_EQ_INT(ingest_parse_oha_sqlite(sb.buf, sb.len, &res), -1,
		    "corrupt page rejected");
		printf("# corrupt page: %s\n", res.reason.buf);
		parse_result_release(&res);

		memcpy(sb.buf, copy.buf, sb.len);
		memset(sb.buf + 100, 0xa5, 3000);	/* the schema page */
		CHECK_EQ_INT(ingest_parse_oha_sqlite(sb.buf, sb.len, &res), -1,
		    "corrupt schema rejected");
		printf("# corrupt schema: %s\n", res.reason.buf);
		parse_result_release(&res);
	}
	strbuf_release(&sb);
	strbuf_release(&copy);
}

/* One oha row for test_sqlite_order(): its start, its run, and where it
 * is in the table (its duration in ms, to find it in the samples). */
struct order_row {
	double	start;
	int64_t	run;
	size_t	idx;
};

/* The order the parser must give: by run, then start, then table order
 * (-0.0 before 0.0, as the radix sort has it). */
static int
order_cmp(const void *a, const void *b)
{
	const struct order_row *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (signbit(x->start) != signbit(y->start))
		return signbit(x->start) ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Write rows[0..n) as table oha of an in-memory database (columns
 * without a type: a REAL column would store -0.0 as 0), parse its
 * bytes, and check every run's samples come in order_cmp() order. */
static void
check_order(const char *what, struct order_row *rows, size_t n)
{
	struct parse_result res;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	unsigned char *img = NULL;
	sqlite3_int64 len = 0;
	size_t i, k = 0, r, bad = 0;
	char msg[128];

	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db, "CREATE TABLE oha (start, duration, status, run); "
	    "BEGIN", NULL, NULL, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO oha VALUES (?, ?, 200, ?)",
	    -1, &st, NULL)) {
		CHECK(0, "order: make a database");
		goto cleanup;
	}
	for (i = 0; i < n; i++) {
		sqlite3_bind_double(st, 1, rows[i].start);
		sqlite3_bind_double(st, 2, (double)rows[i].idx / 1000.0);
		sqlite3_bind_int64(st, 3, rows[i].run);
		if (sqlite3_step(st) != SQLITE_DONE)
			bad++;
		sqlite3_reset(st);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	img = sqlite3_serialize(db, "main", &len, 0);
	parse_result_init(&res);
	if (bad || !img ||
	    ingest_parse_oha_sqlite((const char *)img, (size_t)len, &res)) {
		snprintf(msg, sizeof(msg), "%s: parses", what);
		CHECK(0, msg);
		parse_result_release(&res);
		goto cleanup;
	}
	qsort(rows, n, sizeof(*rows), order_cmp);
	for (r = 0; r < res.nruns; r++)
		for (i = 0; i < res.runs[r].nsamples && k < n; i++, k++)
			if (llround(res.runs[r].samples[i].value) !=
			    (long long)rows[k].idx)
				bad++;
	snprintf(msg, sizeof(msg), "%s: %zu rows in order", what, n);
	CHECK(bad == 0 && k == n, msg);
	parse_result_release(&res);
cleanup:
	sqlite3_free(img);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/*
 * Rows in table order as oha leaves them (nearly by start: each request
 * is written when it ends), shuffled, with runs interleaved, and with
 * starts of -0.0 and 0.0: the samples come by run, then start, then
 * table order, whichever way the parser sorts.  Many equal starts, so a
 * sort that loses the table order among them shows.
 */
static void
test_sqlite_order(void)
{
	size_t n = 20000, i;
	struct order_row *rows = calloc(n, sizeof(*rows));
	uint64_t x = 12345;

	if (!rows)
		return;
	for (i = 0; i < n; i++) {	/* nearly in order, ties */
		rows[i].idx = i;
		rows[i].run = 1787876523;
		rows[i].start = (double)(i / 3 + (i * 7919) % 5) * 0.001;
	}
	check_order("nearly in order", rows, n);
	for (i = 0; i < n; i++) {	/* shuffled, ties */
		x = x * 6364136223846793005u + 1442695040888963407u;
		rows[i].idx = i;
		rows[i].run = 1787876523;
		rows[i].start = (double)(x >> 33 & 63) * 0.001;
	}
	check_order("shuffled", rows, n);
	for (i = 0; i < n; i++) {	/* two runs interleaved */
		rows[i].idx = i;
		rows[i].run = 1787876523 + (int64_t)(i % 2) * 60;
		rows[i].start = (double)(i / 4) * 0.001;
	}
	check_order("two runs", rows, n);
	for (i = 0; i < 40; i++) {	/* -0.0 and 0.0, out of order */
		rows[i].idx = i;
		rows[i].run = 1787876523;
		rows[i].start = i % 3 == 0 ? -0.0 : i % 3 == 1 ? 0.0 :
		    (double)(40 - i) * 0.001;
	}
	check_order("-0.0 and 0.0", rows, 40);
	free(rows);
}

/* A 1M-row oha CSV like oha writes, parsed and timed (best of 5). */
static void
bench_csv(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct parse_result res;
	struct timespec a, b;
	double best = 1e9, s, t = 0;
	size_t i, n = 1000000;
	int k;

	strbuf_addstr(&sb, "request-start,DNS,DNS+dialup,Response-delay,"
	    "request-duration,bytes,status\n");
	for (i = 0; i < n; i++) {
		t += 0.000100 + (double)(i % 7) * 0.0000131;
		if (i % 50 == 0)
			strbuf_addf(&sb, "%.9f,0.000006%03zu,0.000321%03zu,"
			    "0.00%07zu,0.00%07zu,11,200\n", t, i % 1000,
			    i % 997, 1000000 + i % 999983,
			    1000210 + i % 999983);
		else
			strbuf_addf(&sb, "%.9f,0,0,0.00%07zu,0.00%07zu,11,%d\n",
			    t, 1000000 + i % 999983, 1000210 + i % 999983,
			    i % 97 ? 200 : 404);
	}
	for (k = 0; k < 5; k++) {
		parse_result_init(&res);
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (ingest_parse_oha_csv(sb.buf, sb.len, &res) ||
		    res.runs[0].nsamples != n)
			CHECK(0, "bench: parse");
		clock_gettime(CLOCK_MONOTONIC, &b);
		s = (double)(b.tv_sec - a.tv_sec) +
		    (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		if (s < best)
			best = s;
		printf("# bench: %zu rows, %.1f MB in %.3f s = %.2f M rows/s\n",
		    n, (double)sb.len / 1e6, s, (double)n / s / 1e6);
		parse_result_release(&res);
	}
	printf("# bench best: %.2f M rows/s (%.0f MB/s)\n",
	    (double)n / best / 1e6, (double)sb.len / best / 1e6);
	strbuf_release(&sb);
}

/* Counts the rows oha_btree_scan() passes on. */
static void
count_row(void *arg, const struct oha_val *v)
{
	(void)v;
	(*(size_t *)arg)++;
}

/* Both readers agree on img[0..len) (what names it in a failure). */
static bool
pages_same(const unsigned char *img, size_t len, const char *what)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	bool same = oha_sqlite_same(img, len, &a, &b);

	if (!same) {
		printf("# %s: the page reader gave:\n%.400s\n# SQLite's:\n"
		    "%.400s\n", what, a.buf, b.buf);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return same;
}

/* Flip a few bytes of img (copied into buf) at random, rounds times,
 * from seed; how many readings disagreed. */
static size_t
mutants(const unsigned char *img, size_t len, unsigned char *buf,
    size_t rounds, uint64_t seed, const char *what)
{
	size_t r, k, bad = 0;
	uint64_t x = seed;

	for (r = 0; r < rounds; r++) {
		memcpy(buf, img, len);
		for (k = 0; k < 1 + r % 4; k++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			/* past the header most of the time: the pages */
			buf[(x >> 33) % len] ^= (unsigned char)(1 + (x >> 13) %
			    255);
		}
		if (!pages_same(buf, len, what))
			bad++;
	}
	return bad;
}

/*
 * ingest_parse_oha_sqlite() reads oha's table from the file's pages,
 * and SQLite's reader only when the table is not a plain, healthy one:
 * both must give the same result on every fixture, on oha's own schema
 * over several levels of b-tree pages (where the page reader must be the
 * one that reads), and on thousands of copies with bytes flipped
 * anywhere (the page reader must then give up wherever SQLite
 * would complain).
 */
static void
test_sqlite_pages(void)
{
	static const char *const dbs[] = {
		"v1.4.6.db", "v1.5.db", "v1.9.db", "v1.9-one-run.db", "wal.db",
		"bad-rows.db", "empty.db", "not-oha.db", "view-oha.db",
	};
	struct strbuf sb = STRBUF_INIT;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	unsigned char *img = NULL, *buf = NULL;
	sqlite3_int64 len = 0;
	size_t i, n = 0, bad = 0;
	int pos[4] = { 1, 4, 5, 7 };
	char msg[160];

	for (i = 0; i < ARRAY_SIZE(dbs); i++) {
		snprintf(msg, sizeof(msg), FIX "%s", dbs[i]);
		if (load(&sb, msg))
			continue;
		CHECK(pages_same((unsigned char *)sb.buf, sb.len, dbs[i]),
		    "both readers agree on a fixture");
		buf = xreallocarray(buf, sb.len, 1);
		snprintf(msg, sizeof(msg), "%s: both readers agree with bytes "
		    "flipped", dbs[i]);
		CHECK_EQ_INT(mutants((unsigned char *)sb.buf, sb.len, buf, 300,
		    i + 1, dbs[i]), 0, msg);
	}

	/* oha's schema (v1.9+), 3000 rows: a root over leaf pages */
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db, "CREATE TABLE oha (url TEXT NOT NULL, start REAL "
	    "NOT NULL, start_latency_correction REAL, end REAL NOT NULL, "
	    "duration REAL NOT NULL, status INTEGER NOT NULL, len_bytes "
	    "INTEGER NOT NULL, run INTEGER NOT NULL); BEGIN", NULL, NULL,
	    NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO oha VALUES ('http://h/', ?1, "
	    "NULL, ?1 + ?2, ?2, ?3, 1024, ?4)", -1, &st, NULL)) {
		CHECK(0, "pages: make a database");
		goto cleanup;
	}
	for (i = 0; i < 3000; i++) {
		sqlite3_bind_double(st, 1, (double)i / 100.0 +
		    (double)(i % 7) / 1000.0);
		if (i % 97)
			sqlite3_bind_double(st, 2, 0.001 * (double)(i % 13));
		else
			sqlite3_bind_int64(st, 2, 2);	/* an integral REAL */
		sqlite3_bind_int64(st, 3, i % 101 ? 200 : 503);
		sqlite3_bind_int64(st, 4, i < 1500 ? 1787876523 : 1787877000);
		if (sqlite3_step(st) != SQLITE_DONE)
			bad++;
		sqlite3_reset(st);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	img = sqlite3_serialize(db, "main", &len, 0);
	CHECK(!bad && img && len > 4 * 4096, "pages: several pages");
	if (!img)
		goto cleanup;
	CHECK_EQ_INT(oha_btree_scan(img, (size_t)len, 2, 8, pos, 4, count_row,
	    &n), 1, "the page reader reads oha's table");
	CHECK_EQ_INT(n, 3000, "every row");
	CHECK(pages_same(img, (size_t)len, "3000 rows"),
	    "both readers agree on 3000 rows");
	buf = xreallocarray(buf, (size_t)len, 1);
	CHECK_EQ_INT(mutants(img, (size_t)len, buf, 800, 99, "3000 rows"), 0,
	    "3000 rows: both readers agree with bytes flipped");
cleanup:
	free(buf);
	sqlite3_free(img);
	sqlite3_finalize(st);
	sqlite3_close(db);
	strbuf_release(&sb);
}

int
main(void)
{
	test_json_oracle();
	test_json_by_hand();
	test_json_hostile();
	test_csv();
	test_csv_hostile();
	test_sqlite();
	test_sqlite_order();
	test_sqlite_pages();
	if (getenv("PATHSTAT_BENCH"))
		bench_csv();
	return test_done();
}
