/*
 * t-probe-csv.c - unit tests for the pathprobe CSV parser
 * (ingest/probe_csv.c): the fixtures under tests/fixtures/pathprobe/,
 * formats 1 and 2 (rtt_us -> handshake_ms), values checked by hand, the
 * header comment, and hostile input.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/strbuf.h"
#include "ingest/internal.h"
#include "tests/unit/harness.h"
#include "tests/unit/parse-helpers.h"

#define FIX	"tests/fixtures/pathprobe/"
#define START	1787878923	/* 2026-08-28T01:02:03Z, fixtures' start= */
#define COLS	"seq,unix_ns,connect_ms,result\n"
#define COLS2	"seq,unix_ns,connect_ms,rtt_us,result\n"

/* The samples of one metric of run, in order, into v (at most max);
 * returns how many there are. */
static size_t
metric_samples(const struct parsed_run *run, int metric,
    const struct parsed_sample **v, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < run->nsamples; i++) {
		if (run->samples[i].metric != metric)
			continue;
		if (n < max)
			v[n] = &run->samples[i];
		n++;
	}
	return n;
}

static void
test_all_ok(struct parse_result *res)
{
	const struct parsed_run *run;
	const struct parsed_summary *s;
	size_t i;
	bool seq_ok = true, t_ok = true;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX "all-ok.csv", res),
	    0, "all-ok: parsed");
	if (res->nruns != 1)
		return;
	run = &res->runs[0];
	CHECK_EQ_STR(res->tool_version, "pathprobe 1", "all-ok: version");
	CHECK_EQ_STR(run->tool, "pathprobe", "all-ok: tool");
	CHECK_EQ_INT(run->metric, METRIC_CONNECT_MS, "all-ok: connect_ms");
	CHECK_EQ_INT(run->nsamples, 20, "all-ok: 20 samples");
	CHECK_EQ_INT(run->attempts, 20, "all-ok: 20 attempts");
	CHECK_EQ_INT(run->failures, 0, "all-ok: no failures");
	CHECK_EQ_INT(run->started_at, START, "all-ok: started_at from start=");
	CHECK(!run->partial && !res->partial, "all-ok: complete");
	CHECK_EQ_INT(run->tags.n, 0, "all-ok: no tags from the file");
	CHECK_EQ_INT(run->cond.n, 0, "all-ok: no condition from the file");
	CHECK_NEAR(run->samples[11].value, 1.904, 1e-12, "all-ok: row 11 ms");
	for (i = 0; i < run->nsamples; i++) {
		seq_ok &= run->samples[i].seq == i &&
		    run->samples[i].status == SAMPLE_OK;
		t_ok &= run->samples[i].t_us == (int64_t)i * 200000;
	}
	CHECK(seq_ok, "all-ok: seq and status");
	CHECK(t_ok, "all-ok: t_us = seq * 200 ms from the first probe");
	s = find_summary(run, "connect_ms", "timeout_s");
	CHECK(s && s->value == 0.4 && !strcmp(s->estimator, "tool"),
	    "all-ok: timeout_s summary, estimator tool");
	CHECK_NEAR(summary_value(run, "connect_ms", "interval_s"), 0.2, 0,
	    "all-ok: interval_s");
	CHECK_NEAR(summary_value(run, "connect_ms", "count"), 20, 0,
	    "all-ok: count");
	CHECK_EQ_INT(run->nsummaries, 3, "all-ok: only numeric parameters");
}

static void
test_mixed(struct parse_result *res)
{
	static const int want[] = {
		SAMPLE_OK, SAMPLE_TIMEOUT, SAMPLE_OK, SAMPLE_REFUSED,
		SAMPLE_OK, SAMPLE_ERROR, SAMPLE_UNREACHABLE, SAMPLE_OK,
		SAMPLE_TIMEOUT, SAMPLE_ERROR, SAMPLE_ERROR, SAMPLE_OK,
	};
	const struct parsed_run *run;
	bool st_ok = true, nan_ok = true;
	size_t i;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX "mixed.csv", res),
	    0, "mixed: parsed");
	if (res->nruns != 1)
		return;
	run = &res->runs[0];
	CHECK_EQ_INT(run->nsamples, 12, "mixed: every probe is a sample");
	for (i = 0; i < run->nsamples && i < ARRAY_SIZE(want); i++) {
		st_ok &= run->samples[i].status == want[i];
		if (want[i] != SAMPLE_OK)
			nan_ok &= isnan(run->samples[i].value) != 0;
	}
	CHECK(st_ok, "mixed: statuses");
	CHECK(nan_ok, "mixed: failed probes have no value");
	CHECK_EQ_INT(run->failures, 7, "mixed: 7 failures");
	CHECK_EQ_INT(run->attempts, 12, "mixed: 12 attempts");
	CHECK_EQ_INT(count_of(run, "error", "EHOSTUNREACH"), 2,
	    "mixed: EHOSTUNREACH counted");
	CHECK_EQ_INT(count_of(run, "error", "ENETUNREACH"), 1,
	    "mixed: ENETUNREACH counted");
	CHECK_EQ_INT(run->ncounts, 2, "mixed: only errno names counted");
	CHECK_NEAR(run->samples[11].value, 412.5, 0,
	    "mixed: connect_ms above the timeout is kept");
	CHECK(!res->partial, "mixed: complete");
}

static void
test_damaged(struct parse_result *res)
{
	const struct parsed_run *run;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX "truncated.csv",
	    res), 0, "truncated: parsed");
	run = &res->runs[0];
	CHECK_EQ_INT(run->nsamples, 120, "truncated: 120 probes");
	CHECK(run->partial && res->partial, "truncated: partial");
	CHECK(contains(run->reason.buf, "interrupted: 120 of 300 probes"),
	    "truncated: interrupted");
	CHECK(contains(run->reason.buf, "last line 123 cut short"),
	    "truncated: cut line");
	CHECK_EQ_INT(run->failures, 8, "truncated: timeouts counted");

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX "header-only.csv",
	    res), -1, "header only: rejected");
	CHECK(contains(res->reason.buf, "no probe rows"), "header only: why");
	CHECK_EQ_INT(res->nruns, 0, "header only: no runs");

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX "no-comment.csv",
	    res), 0, "no comment: parsed");
	run = &res->runs[0];
	CHECK_EQ_INT(run->nsamples, 3, "no comment: 3 probes");
	CHECK_EQ_INT(run->started_at, START,
	    "no comment: started_at from the first unix_ns");
	CHECK_EQ_INT(run->nsummaries, 0, "no comment: no parameters");
	CHECK_EQ_STR(res->tool_version, "pathprobe 1", "no comment: version");

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX "crlf.csv", res),
	    0, "crlf: parsed");
	run = &res->runs[0];
	CHECK_EQ_INT(run->nsamples, 4, "crlf: 4 probes");
	CHECK_NEAR(run->samples[3].value, 5.5, 0, "crlf: value without CR");
	CHECK_EQ_INT(run->samples[2].status, SAMPLE_TIMEOUT, "crlf: timeout");
	CHECK(!res->partial, "crlf: complete");

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX "bad-rows.csv",
	    res), 0, "bad rows: parsed");
	run = &res->runs[0];
	CHECK_EQ_INT(run->nsamples, 2, "bad rows: 2 good rows");
	CHECK_EQ_INT(run->attempts, 2, "bad rows: attempts = good rows");
	CHECK(contains(run->reason.buf, "skipped 9 bad rows of 11 (first at "
	    "line 4: ok without a valid connect_ms)"), "bad rows: reason");
	CHECK(!contains(run->reason.buf, "count="),
	    "bad rows: the comment line is not a probe");
}

/* Run the parser on s; returns the parse result code. */
static int
probe(const char *s, struct parse_result *res)
{
	return parse_str(ingest_parse_pathprobe, s, res);
}

static void
test_header(struct parse_result *res)
{
	CHECK_EQ_INT(probe("# pathprobe 1 start=2024-02-29T23:59:59Z\n" COLS
	    "0,1709251199000000000,1.5,ok\n", res), 0, "leap day: ok");
	CHECK_EQ_INT(res->runs[0].started_at, 1709251199, "leap day: time");

	CHECK_EQ_INT(probe("# pathprobe 1 start=2026-08-28T10:02:03.250+09:00"
	    "\n" COLS "0,1787878923000000000,1.5,ok\n", res), 0,
	    "offset: ok");
	CHECK_EQ_INT(res->runs[0].started_at, START,
	    "+09:00 and a fraction: same instant");

	CHECK_EQ_INT(probe("# pathprobe 1 count=abc start=2023-02-29T00:00:00Z"
	    " interval_s=-1 timeout_s=nan\n" COLS
	    "0,1787878923500000000,1.5,ok\n", res), 0, "bad header values: ok");
	CHECK(res->partial, "bad header values: file partial");
	CHECK(contains(res->reason.buf, "'count=abc'") &&
	    contains(res->reason.buf, "'start=2023-02-29T00:00:00Z'") &&
	    contains(res->reason.buf, "'interval_s=-1'") &&
	    contains(res->reason.buf, "'timeout_s=nan'"),
	    "bad header values: each named");
	CHECK_EQ_INT(res->runs[0].started_at, START,
	    "bad start=: falls back to the first probe");
	CHECK_EQ_INT(res->runs[0].nsummaries, 0, "bad values not stored");

	CHECK_EQ_INT(probe("# pathprobe 3 count=1\n" COLS2
	    "0,1787878923000000000,1.5,7,ok\n", res), -1,
	    "format version 3 rejected");
	CHECK(contains(res->reason.buf, "unsupported pathprobe output: "
	    "'# pathprobe 3"), "version 3: why");
	CHECK_EQ_INT(probe("# pathprobe 1 count=1\n" COLS2
	    "0,1787878923000000000,1.5,7,ok\n", res), 0,
	    "comment 1, columns 2: parsed by the columns");
	CHECK(res->partial && contains(res->reason.buf, "the comment says "
	    "format 1 but the columns are format 2's"), "... and said");
	CHECK_EQ_STR(res->tool_version, "pathprobe 2", "... version 2");
	CHECK_EQ_INT(probe("# pathprobe\n" COLS "0,1,1.5,ok\n", res), -1,
	    "no version rejected");

	CHECK_EQ_INT(probe("\xef\xbb\xbf\n# pathprobe 1 count=1 "
	    "target=[::1]:80\n# another comment\n\n" COLS
	    "0,1787878923000000000,1.5,ok\n", res), 0,
	    "BOM, blank lines, comments: ok");
	CHECK(!res->partial, "BOM etc: complete");
}

static void
test_hostile(struct parse_result *res)
{
	static const char *const rejected[] = {
		"", "\n", "garbage", "#\n", "# pathprobe 1\n",
		"seq,unix_ns,connect_ms\n0,1,2\n",
		"seq,unix_ns,connect_ms,result,extra\n0,1,2,ok,x\n",
		COLS "0,1787878923000000000,,ok\n",
		COLS "0,1787878923000000000,NaN,ok\n",
		COLS "0,99999999999999999999,1.0,ok\n",
		COLS "0,1787878923000000000,1.0,ok",
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	char what[96];

	for (i = 0; i < ARRAY_SIZE(rejected); i++) {
		snprintf(what, sizeof(what), "probe rejects '%.30s'",
		    rejected[i]);
		/* The last one is a complete row without its line break:
		 * it is kept, so it parses. */
		if (i + 1 == ARRAY_SIZE(rejected)) {
			CHECK_EQ_INT(probe(rejected[i], res), 0,
			    "unterminated but complete last row kept");
			continue;
		}
		CHECK_EQ_INT(probe(rejected[i], res), -1, what);
		CHECK(res->nruns == 0 && res->reason.len, what);
	}

	strbuf_addstr(&sb, COLS);
	strbuf_addstr(&sb, "0,1787878923000000000,1e308,ok\n"); /* kept */
	strbuf_addstr(&sb, "1,1787878923200000000,1.5"); /* 10k columns */
	for (i = 0; i < 10000; i++)
		strbuf_addstr(&sb, ",ok");
	strbuf_addstr(&sb, "\n2,1787878923400000000,\"1.5\n\",ok\n");
	strbuf_addstr(&sb, "3,1787878923600000000,\"2\"\"\",ok\n");
	strbuf_addstr(&sb, "4,1787878923800000000,,error:E\"X\n");
	strbuf_addstr(&sb, "5,1787878924000000000,,error:ECONNRESET\n");
	strbuf_addstr(&sb, "6,9223372036854775807,2.5,ok\n");
	strbuf_addstr(&sb, "7,1787878924400000000,2.5,ok");
	parse_result_release(res);
	CHECK_EQ_INT(ingest_parse_pathprobe(sb.buf, sb.len, res), 0,
	    "hostile: good rows kept");
	CHECK_EQ_INT(res->runs[0].nsamples, 4, "hostile: 4 good rows");
	CHECK(contains(res->runs[0].reason.buf, "skipped 4 bad rows of 8 "
	    "(first at line 3: wrong field count)"), "hostile: reason");
	printf("# %s\n", res->runs[0].reason.buf);
	CHECK_EQ_INT(count_of(&res->runs[0], "error", "ECONNRESET"), 1,
	    "hostile: errno name counted");
	CHECK_EQ_INT(res->runs[0].samples[2].t_us,
	    (9223372036854775807 - 1787878923000000000) / 1000,
	    "hostile: large unix_ns without overflow");
	parse_result_release(res);

	strbuf_reset(&sb);
	strbuf_addstr(&sb, COLS);
	strbuf_add(&sb, "0,1787878923000000000,1.5,ok\n1,17878789\0"
	    "23200000000,1.5,ok\n", 50);
	CHECK_EQ_INT(ingest_parse_pathprobe(sb.buf, sb.len, res), 0,
	    "NUL in a field: ok");
	CHECK_EQ_INT(res->runs[0].nsamples, 1, "NUL in a field: row skipped");
	strbuf_release(&sb);
}

/* A real format-2 file: pathprobe on loopback (fixtures README). */
static void
test_format2_real(struct parse_result *res)
{
	static const double want_ms[] = { 0.087, 0.080, 0.103, 0.047, 0.080,
	    0.069 };
	static const double want_rtt[] = { 0.026, 0.028, 0.032, 0.012,
	    0.026, 0.026 };
	const struct parsed_sample *c[8], *h[8];
	const struct parsed_run *run;
	bool vals = true, seqs = true;
	size_t i;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX
	    "format2-loopback.csv", res), 0, "format 2 loopback: parsed");
	if (res->nruns != 1)
		return;
	run = &res->runs[0];
	CHECK_EQ_STR(res->tool_version, "pathprobe 2", "format 2: version");
	CHECK_EQ_INT(run->metric, METRIC_CONNECT_MS,
	    "format 2: the run's metric is still connect_ms");
	CHECK_EQ_INT(metric_samples(run, METRIC_CONNECT_MS, c, 8), 6,
	    "format 2: 6 connect_ms samples");
	CHECK_EQ_INT(metric_samples(run, METRIC_HANDSHAKE_MS, h, 8), 6,
	    "format 2: 6 handshake_ms samples");
	CHECK_EQ_INT(run->attempts, 6, "format 2: 6 attempts");
	CHECK_EQ_INT(run->failures, 0, "format 2: no failures");
	CHECK_EQ_INT(run->started_at, 1796100843,
	    "format 2: 2026-12-01T04:54:03Z");
	CHECK(!res->partial, "format 2: complete");
	for (i = 0; i < 6; i++) {
		vals &= fabs(c[i]->value - want_ms[i]) < 1e-12 &&
		    fabs(h[i]->value - want_rtt[i]) < 1e-12;
		seqs &= c[i]->seq == i && h[i]->seq == i &&
		    h[i]->t_us == c[i]->t_us && h[i]->status == SAMPLE_OK;
	}
	CHECK(vals, "format 2: connect_ms and rtt_us / 1000 row by row");
	CHECK(seqs, "format 2: seq per metric, same t_us as the probe");
	CHECK_EQ_INT(h[3]->t_us, (1796100843739081556 - 1796100843138839586)
	    / 1000, "format 2: t_us of row 3");
}

/* Failures and an ok row without rtt_us (a retransmitted SYN). */
static void
test_format2_mixed(struct parse_result *res)
{
	const struct parsed_sample *c[10], *h[10];
	const struct parsed_run *run;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe, FIX
	    "format2-mixed.csv", res), 0, "format 2 mixed: parsed");
	if (res->nruns != 1)
		return;
	run = &res->runs[0];
	CHECK_EQ_INT(metric_samples(run, METRIC_CONNECT_MS, c, 10), 8,
	    "format 2 mixed: a connect_ms sample per probe");
	CHECK_EQ_INT(metric_samples(run, METRIC_HANDSHAKE_MS, h, 10), 8,
	    "format 2 mixed: a handshake_ms row per probe");
	CHECK_EQ_INT(run->failures, 4, "format 2 mixed: 4 failures");
	CHECK_EQ_INT(c[4]->status, SAMPLE_OK, "row 4 ok without rtt_us");
	CHECK_NEAR(c[4]->value, 1009.564, 1e-12, "row 4: its connect_ms");
	CHECK_EQ_INT(h[4]->status, SAMPLE_UNMEASURED,
	    "row 4: its handshake_ms unmeasured (SYN retransmitted)");
	CHECK(isnan(h[4]->value), "... with no value");
	CHECK_NEAR(h[0]->value, 8.874, 1e-12, "8874 us = 8.874 ms");
	CHECK_NEAR(h[6]->value, 8.012, 1e-12, "row 6's rtt");
	CHECK_EQ_INT(h[6]->t_us, 1200000, "... at t = 1.2 s");
	CHECK_EQ_INT(h[6]->seq, 6, "... with the probe's seq");
	CHECK_EQ_INT(c[1]->status, SAMPLE_TIMEOUT, "row 1 timeout");
	CHECK(h[1]->status == SAMPLE_TIMEOUT && h[3]->status ==
	    SAMPLE_REFUSED && h[5]->status == SAMPLE_ERROR &&
	    h[7]->status == SAMPLE_UNREACHABLE,
	    "failed probes: handshake_ms rows with the probe's status");
	CHECK(!res->partial, "format 2 mixed: complete");
}

static void
test_format2_bad(struct parse_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	const struct parsed_sample *h[4];

	strbuf_addstr(&sb, "# pathprobe 2 count=9\n" COLS2);
	strbuf_addstr(&sb, "0,1787878923000000000,1.5,1400,ok\n");
	strbuf_addstr(&sb, "1,1787878923200000000,1.5,0,ok\n");
	strbuf_addstr(&sb, "2,1787878923400000000,1.5,-3,ok\n");
	strbuf_addstr(&sb, "3,1787878923600000000,1.5,1.5,ok\n");
	strbuf_addstr(&sb, "4,1787878923800000000,,800,timeout\n");
	strbuf_addstr(&sb, "5,1787878924000000000,1.5,x,ok\n");
	strbuf_addstr(&sb, "6,1787878924200000000,1.5,99999999999,ok\n");
	strbuf_addstr(&sb, "7,1787878924400000000,1.5,ok\n");
	strbuf_addstr(&sb, "8,1787878924600000000,2.5,,ok\n");
	parse_result_release(res);
	CHECK_EQ_INT(ingest_parse_pathprobe(sb.buf, sb.len, res), 0,
	    "format 2 bad rtt_us: good rows kept");
	if (res->nruns == 1) {
		CHECK_EQ_INT(metric_samples(&res->runs[0], METRIC_HANDSHAKE_MS,
		    h, 4), 2, "format 2 bad: a handshake row per kept probe");
		CHECK(h[0]->status == SAMPLE_OK && h[1]->status ==
		    SAMPLE_UNMEASURED, "... one measured, one not");
		CHECK_EQ_INT(res->runs[0].attempts, 2,
		    "format 2 bad: rows 0 and 8 kept");
		CHECK(contains(res->runs[0].reason.buf, "skipped 7 bad rows "
		    "of 9 (first at line 4: bad rtt_us)"),
		    "format 2 bad: reason");
		printf("# %s\n", res->runs[0].reason.buf);
	}
	CHECK_EQ_INT(probe("# pathprobe 2\n" COLS2
	    "0,1787878923000000000,,800,timeout\n", res), -1,
	    "rtt_us on a failed probe: no valid row");
	CHECK(contains(res->reason.buf, "rtt_us on a failed probe"),
	    "... and why");
	CHECK_EQ_INT(probe("seq,unix_ns,connect_ms,rtt,result\n"
	    "0,1787878923000000000,1.5,7,ok\n", res), -1,
	    "an unknown fourth column is not ours");
	CHECK_EQ_INT(probe(COLS2 "0,1787878923000000000,1.5,7,ok\n", res), 0,
	    "format 2 without the comment");
	CHECK_EQ_STR(res->tool_version, "pathprobe 2", "... is format 2");
	/* No rtt_us anywhere (not Linux, or every probe failed): no
	 * handshake_ms rows at all, rather than only unmeasured ones. */
	CHECK_EQ_INT(probe(COLS2 "0,1787878923000000000,1.5,,ok\n"
	    "1,1787878923200000000,,,timeout\n", res), 0,
	    "format 2 without any rtt_us");
	if (res->nruns == 1) {
		CHECK_EQ_INT(metric_samples(&res->runs[0], METRIC_HANDSHAKE_MS,
		    h, 4), 0, "... has no handshake_ms rows");
		CHECK_EQ_INT(metric_samples(&res->runs[0], METRIC_CONNECT_MS,
		    h, 4), 2, "... and its connect_ms rows");
	}
	strbuf_release(&sb);
}

int
main(void)
{
	struct parse_result res;

	parse_result_init(&res);
	test_all_ok(&res);
	test_mixed(&res);
	test_damaged(&res);
	test_header(&res);
	test_hostile(&res);
	test_format2_real(&res);
	test_format2_mixed(&res);
	test_format2_bad(&res);
	parse_result_release(&res);
	return test_done();
}
