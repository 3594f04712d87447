/*
 * t-probe.c - unit tests for pathprobe's own helpers (collect/): its
 * option values through common/parse.c, the type 7 quantile, result
 * names, the CSV row format (µs rounding, rtt_us), the absolute schedule,
 * time and target formatting.  pathprobe links libc only, so its sources
 * are compiled in here.
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "collect/probe_net.c"
#include "collect/probe_util.c"
#include "common/parse.h"
#include "tests/unit/harness.h"

static void
test_parse(void)
{
	long l = -7;
	double d = -7;

	CHECK(parse_long("300", 1, 1000, &l) == 0 && l == 300,
	    "parse_long 300");
	CHECK(parse_long("0", 1, 1000, &l) == -1, "below min");
	CHECK(parse_long("1001", 1, 1000, &l) == -1, "above max");
	CHECK(parse_long("12x", 1, 1000, &l) == -1, "trailing junk");
	CHECK(parse_long("", 1, 1000, &l) == -1, "empty");
	CHECK(parse_long(" 5", 1, 1000, &l) == 0 && l == 5,
	    "leading blank accepted by strtol");
	CHECK(parse_long("99999999999999999999", 1, 1000, &l) == -1,
	    "overflow");
	CHECK(parse_double("0.2", 0.0001, 10, &d) == 0 &&
	    d == 0.2, "parse_double 0.2");
	CHECK(parse_double("1e-3", 0.0001, 10, &d) == 0 &&
	    d == 0.001, "exponent form");
	CHECK(parse_double("nan", 0.0001, 10, &d) == -1, "nan");
	CHECK(parse_double("inf", 0.0001, 10, &d) == -1, "inf");
	CHECK(parse_double("0.2s", 0.0001, 10, &d) == -1, "unit");
	CHECK(parse_double("1e999", 0.0001, 1e300, &d) == -1,
	    "ERANGE");
	CHECK(parse_double("0", 0.0001, 10, &d) == -1, "below min");
	/* Underflow (ERANGE with a tiny result) is a number, as everywhere
	 * else in pathstat; the range check then decides. */
	CHECK(parse_double("1e-320", 0, 1, &d) == 0 && d < 1e-300,
	    "underflow is not an error");
	CHECK(parse_double("1e-320", 0.0001, 10, &d) == -1,
	    "underflow below -i's minimum");
}

static void
test_quantile(void)
{
	/* numpy.percentile(v, q) with the default (linear) method. */
	double v[] = { 1, 2, 3, 4, 10 };
	double one[] = { 8.894 };

	CHECK_NEAR(collect_quantile7(v, 5, 0.5), 3.0, 1e-12, "p50 odd n");
	CHECK_NEAR(collect_quantile7(v, 5, 0.95), 8.8, 1e-12, "p95");
	CHECK_NEAR(collect_quantile7(v, 5, 0.99), 9.76, 1e-12, "p99");
	CHECK_NEAR(collect_quantile7(v, 5, 1.0), 10.0, 1e-12, "p100 = max");
	CHECK_NEAR(collect_quantile7(v, 5, 0.0), 1.0, 1e-12, "p0 = min");
	CHECK_NEAR(collect_quantile7(v, 4, 0.5), 2.5, 1e-12, "p50 even n");
	CHECK_NEAR(collect_quantile7(one, 1, 0.99), 8.894, 1e-12, "n = 1");
	CHECK(isnan(collect_quantile7(v, 0, 0.5)), "n = 0 is NaN");
}

static void
test_results(void)
{
	char buf[64];

	CHECK_EQ_INT(collect_classify(0), PROBE_OK, "0 -> ok");
	CHECK_EQ_INT(collect_classify(ECONNREFUSED), PROBE_REFUSED, "refused");
	CHECK_EQ_INT(collect_classify(ETIMEDOUT), PROBE_TIMEOUT, "ETIMEDOUT");
	CHECK_EQ_INT(collect_classify(ENETUNREACH), PROBE_UNREACHABLE,
	    "ENETUNREACH");
	CHECK_EQ_INT(collect_classify(EHOSTUNREACH), PROBE_UNREACHABLE,
	    "EHOSTUNREACH");
	CHECK_EQ_INT(collect_classify(EACCES), PROBE_ERROR, "EACCES");
	CHECK_EQ_STR(collect_result_text(PROBE_ERROR, EACCES, NULL, buf,
	    sizeof(buf)), "error:EACCES", "error:EACCES");
	CHECK_EQ_STR(collect_result_text(PROBE_ERROR, EADDRNOTAVAIL, NULL,
	    buf, sizeof(buf)), "error:EADDRNOTAVAIL", "error:EADDRNOTAVAIL");
	CHECK_EQ_STR(collect_result_text(PROBE_ERROR, 0, "EAI_NONAME", buf,
	    sizeof(buf)), "error:EAI_NONAME", "resolver error name");
	CHECK_EQ_STR(collect_result_text(PROBE_ERROR, 4242, NULL, buf,
	    sizeof(buf)), "error:errno4242", "unknown errno");
	CHECK_EQ_STR(collect_result_text(PROBE_TIMEOUT, 0, NULL, buf,
	    sizeof(buf)), "timeout", "timeout");
	CHECK_EQ_STR(collect_result_text(PROBE_UNREACHABLE, 0, NULL, buf,
	    sizeof(buf)), "unreachable", "unreachable");
}

static void
check_row_rtt(int64_t dur_ns, int64_t rtt_us, int result, const char *want)
{
	struct probe_row r;
	char buf[128], what[96];

	memset(&r, 0, sizeof(r));
	r.seq = 7;
	r.unix_ns = 1787876523200000000LL;
	r.dur_ns = dur_ns;
	r.rtt_us = rtt_us;
	r.result = result;
	if (collect_format_row(&r, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "OVERFLOW");
	snprintf(what, sizeof(what), "row for %lld ns, rtt %lld",
	    (long long)dur_ns, (long long)rtt_us);
	CHECK_EQ_STR(buf, want, what);
}

static void
check_row(int64_t dur_ns, int result, const char *want)
{
	check_row_rtt(dur_ns, -1, result, want);
}

static void
test_rows(void)
{
	struct probe_row r;
	char small[8];

	check_row(8894000, PROBE_OK, "7,1787876523200000000,8.894,,ok\n");
	check_row(8894499, PROBE_OK, "7,1787876523200000000,8.894,,ok\n");
	check_row(8894500, PROBE_OK, "7,1787876523200000000,8.895,,ok\n");
	check_row(999999, PROBE_OK, "7,1787876523200000000,1.000,,ok\n");
	check_row(21000, PROBE_OK, "7,1787876523200000000,0.021,,ok\n");
	check_row(0, PROBE_OK, "7,1787876523200000000,0.000,,ok\n");
	check_row(12345678901LL, PROBE_OK,
	    "7,1787876523200000000,12345.679,,ok\n");
	check_row(400000000, PROBE_TIMEOUT,
	    "7,1787876523200000000,,,timeout\n");
	check_row(5000, PROBE_REFUSED, "7,1787876523200000000,,,refused\n");
	check_row_rtt(21000, 14, PROBE_OK,
	    "7,1787876523200000000,0.021,14,ok\n");
	check_row_rtt(21000, 0, PROBE_OK,
	    "7,1787876523200000000,0.021,0,ok\n");
	check_row_rtt(400000000, 14, PROBE_TIMEOUT,
	    "7,1787876523200000000,,,timeout\n");
	memset(&r, 0, sizeof(r));
	CHECK(collect_format_row(&r, small, sizeof(small)) == -1,
	    "a row that does not fit is refused");
}

static void
test_schedule(void)
{
	int64_t start = 5 * NS_PER_SEC, iv = 200000000;

	CHECK_EQ_INT(collect_due_ns(start, iv, 0), start, "probe 0 at start");
	CHECK_EQ_INT(collect_due_ns(start, iv, 1), start + iv, "probe 1");
	/* Absolute: probe 299 is due at start + 299 * 0.2 s exactly, no
	 * matter how long earlier probes took. */
	CHECK_EQ_INT(collect_due_ns(start, iv, 299), start + 59800000000LL,
	    "probe 299 at start + 59.8 s");
	CHECK_EQ_INT(collect_due_ns(0, 86400LL * NS_PER_SEC, 100000),
	    8640000000LL * NS_PER_SEC, "no overflow at the limits");
}

static void
test_text(void)
{
	char buf[64];

	collect_utc_iso(1787878923123456789LL, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "2026-08-28T01:02:03Z",
	    "start= format, seconds truncated");
	collect_utc_iso(0, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "1970-01-01T00:00:00Z", "epoch");
	collect_target_text("10.0.0.5", "5201", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "10.0.0.5:5201", "IPv4 target");
	collect_target_text("fd00::5", "5201", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "[fd00::5]:5201", "IPv6 target in brackets");
	collect_target_text("vpce-1.example", "80", buf, sizeof(buf));
	CHECK_EQ_STR(buf, "vpce-1.example:80", "name target");
}

static void
test_resolve(void)
{
	struct probe_addr a;
	const char *ename = NULL;

	CHECK(collect_resolve("127.0.0.1", "5201", AF_UNSPEC, SOCK_STREAM,
	    &a, true, NULL) == 0 && a.family == AF_INET &&
	    !strcmp(a.text, "127.0.0.1"), "numeric IPv4");
	CHECK(collect_resolve("::1", "5201", AF_UNSPEC, SOCK_STREAM, &a,
	    true, NULL) == 0 && a.family == AF_INET6 &&
	    !strcmp(a.text, "::1"), "numeric IPv6");
	CHECK(collect_resolve("127.0.0.1", "5201", AF_INET6, SOCK_STREAM, &a,
	    true, &ename) == -1 && ename, "-6 with an IPv4 literal fails");
	CHECK(collect_parse_bind("127.0.0.1", AF_INET, &a) == 0 &&
	    a.family == AF_INET, "bind address");
}

int
main(void)
{
	test_parse();
	test_quantile();
	test_results();
	test_rows();
	test_schedule();
	test_text();
	test_resolve();
	return test_done();
}
