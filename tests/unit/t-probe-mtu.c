/*
 * t-probe-mtu.c - unit tests for the `pathprobe --mtu` parser
 * (ingest/probe_mtu.c): the fixtures under tests/fixtures/pathprobe-mtu/
 * (found, unknown with and without a reason, old lines), sniffing, and
 * hostile or damaged lines.  An unknown MTU must stay unknown, with a
 * reason, never 0.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/strbuf.h"
#include "ingest/internal.h"
#include "tests/unit/harness.h"
#include "tests/unit/parse-helpers.h"

#define FIX	"tests/fixtures/pathprobe-mtu/"

static const struct parsed_mtu *
mtu_of(const struct parse_result *res)
{
	return res->nruns == 1 ? res->runs[0].mtu : NULL;
}

static void
test_found(struct parse_result *res)
{
	const struct parsed_mtu *m;
	const struct parsed_run *run;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe_mtu, FIX "found.txt",
	    res), 0, "found: parsed");
	m = mtu_of(res);
	if (!m) {
		CHECK(0, "found: one run with an MTU result");
		return;
	}
	run = &res->runs[0];
	CHECK_EQ_STR(run->tool, "pathprobe", "found: tool");
	CHECK_EQ_INT(run->metric, METRIC_PATH_MTU, "found: metric path_mtu");
	CHECK_EQ_STR(res->tool_version, "pathprobe --mtu", "found: version");
	CHECK(m->found && m->mtu == 8500, "found: 8500 bytes");
	CHECK_EQ_INT(m->route_mtu, 9001, "found: route MTU 9001");
	CHECK_EQ_INT(m->probes, 4, "found: 4 datagrams");
	CHECK_EQ_STR(m->method, "udp-df", "found: method");
	CHECK_EQ_STR(m->target, "10.1.0.5:33434", "found: target");
	CHECK_EQ_STR(m->addr, "10.1.0.5", "found: addr");
	CHECK(m->reason == NULL, "found: no reason");
	CHECK_EQ_INT(run->started_at, 1787878923,
	    "found: start 2026-08-28T01:02:03Z");
	CHECK(run->nsamples == 1 && run->samples[0].status == SAMPLE_OK &&
	    run->samples[0].value == 8500.0 && run->samples[0].t_us == 0,
	    "found: one path_mtu sample of 8500");
	CHECK(run->failures == 0 && run->attempts == 1, "found: 1 attempt");
	CHECK_NEAR(summary_value(run, "mtu", "route_mtu"), 9001, 0,
	    "found: route_mtu as a tool summary");
	CHECK(!res->partial && !run->partial, "found: complete");
}

static void
test_unknown(struct parse_result *res)
{
	const struct parsed_mtu *m;
	const struct parsed_run *run;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe_mtu, FIX "unknown.txt",
	    res), 0, "unknown: parsed");
	m = mtu_of(res);
	if (!m) {
		CHECK(0, "unknown: one run with an MTU result");
		return;
	}
	run = &res->runs[0];
	CHECK(!m->found, "unknown: not found");
	CHECK(m->reason && strstr(m->reason, "no answer to UDP probes") &&
	    strstr(m->reason, "PrivateLink"),
	    "unknown: no-answer in words, naming PrivateLink");
	CHECK(run->nsamples == 1 && run->samples[0].status ==
	    SAMPLE_UNMEASURED && isnan(run->samples[0].value),
	    "unknown: one unmeasured sample, no value (never 0)");
	CHECK(run->failures == 1 && run->attempts == 1,
	    "unknown: counted as one failure");
	CHECK_EQ_STR(m->target, "vpce-0a1b.example:33434", "unknown: target");

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe_mtu, FIX
	    "unreachable.txt", res), 0, "unreachable: parsed");
	m = mtu_of(res);
	CHECK(m && !m->found && m->reason && strstr(m->reason,
	    "EHOSTUNREACH"), "unreachable: the errno named");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=unknown "
	    "method=udp-df reason=error:EPERM\n", res), 0,
	    "another errno: parsed");
	m = mtu_of(res);
	CHECK(m && m->reason && !strcmp(m->reason,
	    "the probes were answered with EPERM"), "another errno: named");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=unknown "
	    "method=udp-df reason=later-token\n", res), 0,
	    "a later reason token: parsed");
	m = mtu_of(res);
	CHECK(m && m->reason && !strcmp(m->reason,
	    "pathprobe said: later-token"), "a later reason token: kept");
}

static void
test_old_lines(struct parse_result *res)
{
	const struct parsed_mtu *m;

	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe_mtu, FIX
	    "format-old.txt", res), 0, "old found line: parsed");
	m = mtu_of(res);
	CHECK(m && m->found && m->mtu == 1500 && m->route_mtu == 1500,
	    "old found line: 1500");
	CHECK(res->nruns == 1 && res->runs[0].started_at == STARTED_UNKNOWN,
	    "old found line: start unknown");
	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe_mtu, FIX
	    "unknown-old.txt", res), 0, "old unknown line: parsed");
	m = mtu_of(res);
	CHECK(m && !m->found && m->reason &&
	    strstr(m->reason, "no reason recorded"),
	    "old unknown line: unknown, 'no reason recorded'");
	CHECK_EQ_INT(parse_file(ingest_parse_pathprobe_mtu, FIX
	    "ipv6-crlf.txt", res), 0, "IPv6, CRLF: parsed");
	m = mtu_of(res);
	CHECK(m && m->mtu == 65535 && !strcmp(m->addr, "::1") &&
	    !strcmp(m->target, "[::1]:33434"), "IPv6, CRLF: 65535 via ::1");
	CHECK(!res->partial && !res->runs[0].partial, "IPv6, CRLF: complete");
}

static void
test_bad(struct parse_result *res)
{
	const struct parsed_mtu *m;

	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "", res), -1,
	    "empty: rejected");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "\n \n", res), -1,
	    "blank lines: rejected");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=0 "
	    "method=udp-df\n", res), -1, "mtu=0: rejected, never stored");
	CHECK(strstr(res->reason.buf, "bad mtu value '0'") != NULL,
	    "mtu=0: why");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=70000\n",
	    res), -1, "mtu above 65535: rejected");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=\n", res), -1,
	    "mtu= empty: rejected");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=1500 "
	    "mtu=9001\n", res), -1, "mtu twice: rejected (ambiguous)");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "route_mtu=9001 "
	    "method=udp-df\n", res), -1, "no mtu=: rejected");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=9001 "
	    "route_mtu=x target=a\001b probes=-1 start=yesterday "
	    "method=udp-df junk reason=no-answer\nmore\n", res), 0,
	    "bad side values: kept what is valid");
	m = mtu_of(res);
	CHECK(m && m->found && m->mtu == 9001 && m->route_mtu == -1 &&
	    m->probes == -1 && !m->target && !m->reason,
	    "bad side values: left out");
	CHECK(res->nruns == 1 && res->runs[0].partial &&
	    strstr(res->runs[0].reason.buf, "bad route_mtu value 'x'") &&
	    strstr(res->runs[0].reason.buf, "not a key=value pair: 'junk'") &&
	    strstr(res->runs[0].reason.buf, "a reason beside a measured MTU") &&
	    strstr(res->runs[0].reason.buf, "lines after the first ignored"),
	    "bad side values: the run is partial and says why");
	printf("# %s\n", res->nruns ? res->runs[0].reason.buf : "");
	CHECK_EQ_INT(parse_str(ingest_parse_pathprobe_mtu, "mtu=1500\n", res),
	    0, "no method: parsed");
	m = mtu_of(res);
	CHECK(m && !strcmp(m->method, "not recorded"),
	    "no method: 'not recorded', not blank");
}

static void
test_sniff(void)
{
	static const char found[] = "mtu=8500 target=h:1 route_mtu=9001 "
	    "method=udp-df\n";
	static const char bom[] = "\xef\xbb\xbfmtu=unknown method=udp-df\n";
	static const char prose[] = "mtu=1500 is what the docs say\n";

	CHECK_EQ_INT(ingest_sniff("mtu.txt", found, sizeof(found) - 1),
	    KIND_PATHPROBE_MTU, "sniff: an mtu.txt line");
	CHECK_EQ_INT(ingest_sniff("anything.log", found, sizeof(found) - 1),
	    KIND_PATHPROBE_MTU, "sniff: by content, not name");
	CHECK_EQ_INT(ingest_sniff("x", bom, sizeof(bom) - 1),
	    KIND_PATHPROBE_MTU, "sniff: after a BOM");
	CHECK_EQ_INT(ingest_sniff("mtu.txt", prose, sizeof(prose) - 1),
	    KIND_UNKNOWN, "sniff: 'mtu=' prose without method= or route_mtu=");
	CHECK_EQ_STR(ingest_kind_name(KIND_PATHPROBE_MTU), "pathprobe-mtu",
	    "kind name");
}

int
main(void)
{
	struct parse_result res;

	parse_result_init(&res);
	test_found(&res);
	test_unknown(&res);
	test_old_lines(&res);
	test_bad(&res);
	test_sniff();
	parse_result_release(&res);
	return test_done();
}
