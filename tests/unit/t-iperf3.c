/*
 * t-iperf3.c - unit tests for the iperf3 parser: every reference sample
 * against tests/fixtures/iperf3-expected.txt (derived by
 * iperf3-expected.py with Python's json module), hand-checked values for
 * a few files, and synthetic inputs: junk, truncation, NaN, huge numbers.
 */
#include "common/compat.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/kv.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/internal.h"
#include "tests/unit/harness.h"

#define FIXTURES	"tests/fixtures/reference/iperf3"
#define EXPECTED	"tests/fixtures/iperf3-expected.txt"
#define MAX_FILE	(16 * 1024 * 1024)

static char what[2048];

#define WHAT(...) (snprintf(what, sizeof(what), __VA_ARGS__), what)

/* ---- helpers ---------------------------------------------------------- */

static int
parse_buf(const char *buf, size_t len, struct parse_result *res)
{
	parse_result_init(res);
	return ingest_parse_iperf3(buf, len, res);
}

static int
parse_str(const char *s, struct parse_result *res)
{
	return parse_buf(s, strlen(s), res);
}

/* Read a fixture into sb; returns 0 or -1 (and a failed check). */
static int
read_fixture(const char *rel, struct strbuf *sb)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", FIXTURES, rel);
	ret = strbuf_read_file(sb, path.buf, MAX_FILE);
	if (ret)
		CHECK(0, WHAT("read %s", path.buf));
	strbuf_release(&path);
	return ret;
}

/* Returns a string the caller must free(). */
static char *
cond_text(const struct parsed_run *run)
{
	struct strbuf sb = STRBUF_INIT;

	kvset_join(&run->cond, &sb, ",");
	if (!sb.len)
		strbuf_addstr(&sb, "-");
	return strbuf_detach(&sb, NULL);
}

static size_t
count_metric(const struct parsed_run *run, int metric)
{
	size_t i, n = 0;

	for (i = 0; i < run->nsamples; i++)
		if (run->samples[i].metric == metric)
			n++;
	return n;
}

/* The k-th (from 0; SIZE_MAX = last) sample of a metric, or NULL. */
static const struct parsed_sample *
nth_sample(const struct parsed_run *run, int metric, size_t k)
{
	const struct parsed_sample *last = NULL;
	size_t i, n = 0;

	for (i = 0; i < run->nsamples; i++) {
		if (run->samples[i].metric != metric)
			continue;
		if (n++ == k)
			return &run->samples[i];
		last = &run->samples[i];
	}
	return k == SIZE_MAX ? last : NULL;
}

static const struct parsed_summary *
find_summary(const struct parsed_run *run, const char *metric,
    const char *stat)
{
	size_t i;

	for (i = 0; i < run->nsummaries; i++)
		if (!strcmp(run->summaries[i].metric, metric) &&
		    !strcmp(run->summaries[i].stat, stat))
			return &run->summaries[i];
	return NULL;
}

static double
summary_value(const struct parsed_run *run, const char *metric,
    const char *stat)
{
	const struct parsed_summary *s = find_summary(run, metric, stat);

	return s ? s->value : NAN;
}

static const char *
status_of(int rc, const struct parse_result *res)
{
	if (rc)
		return "rejected";
	return res->partial ? "partial" : "ok";
}

static bool
reason_has(const struct parse_result *res, const char *text)
{
	return strstr(res->reason.buf, text) != NULL;
}

/* ---- the expected table --------------------------------------------- */

/* Next space-separated field of *p, NUL-terminated in place, or "". */
static char *
field(char **p)
{
	char *s = *p, *e;

	while (*s == ' ')
		s++;
	e = s;
	while (*e && *e != ' ')
		e++;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static long long
num_field(char **p)
{
	int64_t v = 0;
	const char *s = field(p);

	if (parse_int64(s, &v))
		CHECK(0, WHAT("expected file: bad integer '%s'", s));
	return (long long)v;
}

static double
dbl_field(char **p)
{
	double v = NAN;
	const char *s = field(p);

	if (parse_double(s, -HUGE_VAL, HUGE_VAL, &v))
		CHECK(0, WHAT("expected file: bad number '%s'", s));
	return v;
}

static bool
rel_near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want) + 1e-12;
}

/* State while checking one file's records. */
struct expect_file {
	char		name[256];	/* fixture path under FIXTURES */
	int		rc;		/* what the parser returned */
	struct parse_result res;	/* its result */
	bool		active;		/* res holds a result */
};

static void
expect_close(struct expect_file *ef)
{
	if (ef->active)
		parse_result_release(&ef->res);
	ef->active = false;
}

static const struct parsed_run *
expect_run(struct expect_file *ef, long long i)
{
	if (i < 0 || (size_t)i >= ef->res.nruns) {
		CHECK(0, WHAT("%s: run %lld exists", ef->name, i));
		return NULL;
	}
	return &ef->res.runs[i];
}

static void
expect_line(struct expect_file *ef, char *line, struct strbuf *seen)
{
	char *p = line, *kind = field(&p), *cond;
	const struct parsed_run *run;
	const struct parsed_sample *s;
	struct strbuf sb = STRBUF_INIT;
	long long i, n;
	double v, sum;
	size_t k;

	if (!strcmp(kind, "file")) {
		expect_close(ef);
		snprintf(ef->name, sizeof(ef->name), "%s", field(&p));
		strbuf_addf(seen, "\n%s\n", ef->name);
		if (read_fixture(ef->name, &sb))
			goto cleanup;
		ef->rc = parse_buf(sb.buf, sb.len, &ef->res);
		ef->active = true;
		CHECK_EQ_STR(status_of(ef->rc, &ef->res), field(&p),
		    WHAT("%s: status (%s)", ef->name, ef->res.reason.buf));
		CHECK_EQ_INT(ef->res.nruns, num_field(&p),
		    WHAT("%s: runs", ef->name));
		goto cleanup;
	}
	if (!ef->active)
		goto cleanup;
	if (!strcmp(kind, "reason")) {
		CHECK(reason_has(&ef->res, p), WHAT("%s: reason has '%s' "
		    "(got '%s')", ef->name, p, ef->res.reason.buf));
		goto cleanup;
	}
	run = expect_run(ef, num_field(&p));
	if (!run)
		goto cleanup;
	if (!strcmp(kind, "run")) {
		cond = cond_text(run);
		CHECK_EQ_STR(cond, field(&p), WHAT("%s: condition", ef->name));
		free(cond);
		CHECK_EQ_INT(count_metric(run, METRIC_THROUGHPUT_BPS),
		    num_field(&p), WHAT("%s: throughput samples", ef->name));
		CHECK_EQ_INT(count_metric(run, METRIC_RETRANSMITS),
		    num_field(&p), WHAT("%s: retransmit samples", ef->name));
		CHECK_EQ_INT(count_metric(run, METRIC_JITTER_MS),
		    num_field(&p), WHAT("%s: jitter samples", ef->name));
		CHECK_EQ_INT(count_metric(run, METRIC_LOSS_PCT),
		    num_field(&p), WHAT("%s: loss samples", ef->name));
		n = num_field(&p);
		CHECK_EQ_INT(run->started_at, n < 0 ? STARTED_UNKNOWN : n,
		    WHAT("%s: started_at", ef->name));
		CHECK_EQ_STR(run->tool, "iperf3", WHAT("%s: tool", ef->name));
		CHECK_EQ_INT(run->metric, METRIC_THROUGHPUT_BPS,
		    WHAT("%s: primary metric", ef->name));
	} else if (!strcmp(kind, "first") || !strcmp(kind, "last")) {
		s = nth_sample(run, METRIC_THROUGHPUT_BPS,
		    kind[0] == 'f' ? 0 : SIZE_MAX);
		i = num_field(&p);
		v = dbl_field(&p);
		CHECK(s && llabs(s->t_us - i) <= 1,
		    WHAT("%s: %s sample at %lld us", ef->name, kind, i));
		CHECK(s && rel_near(s->value, v, 1e-15),
		    WHAT("%s: %s sample = %.17g", ef->name, kind, v));
	} else if (!strcmp(kind, "bpssum")) {
		v = dbl_field(&p);
		sum = 0;
		for (k = 0; k < run->nsamples; k++)
			if (run->samples[k].metric == METRIC_THROUGHPUT_BPS)
				sum += run->samples[k].value;
		CHECK(rel_near(sum, v, 1e-12),
		    WHAT("%s: sum of throughput samples = %.17g (got %.17g)",
		    ef->name, v, sum));
	} else if (!strcmp(kind, "nsum")) {
		CHECK_EQ_INT(run->nsummaries, num_field(&p),
		    WHAT("%s: summaries", ef->name));
	} else if (!strcmp(kind, "summary")) {
		char *metric = field(&p), *stat = field(&p);
		const struct parsed_summary *ps;

		v = dbl_field(&p);
		ps = find_summary(run, metric, stat);
		CHECK(ps && rel_near(ps->value, v, 1e-15) &&
		    !strcmp(ps->estimator, "iperf3"),
		    WHAT("%s: summary %s/%s = %.17g", ef->name, metric, stat,
		    v));
	} else if (!strcmp(kind, "param")) {
		char *stat = field(&p);
		const struct parsed_summary *ps;

		v = dbl_field(&p);
		ps = find_summary(run, "iperf3", stat);
		CHECK(ps && ps->value == v && !strcmp(ps->estimator, "tool"),
		    WHAT("%s: parameter %s = %.17g", ef->name, stat, v));
	} else {
		CHECK(0, WHAT("expected file: unknown record '%s'", kind));
	}
cleanup:
	strbuf_release(&sb);
}

/* Every fixture file under rel (a folder relative to FIXTURES) appended
 * to out, one "NAME\n" line each. */
static void
list_fixtures(const char *rel, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, sub = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d;

	strbuf_addf(&path, "%s%s%s", FIXTURES, *rel ? "/" : "", rel);
	d = opendir(path.buf);
	if (!d) {
		CHECK(0, WHAT("open %s", path.buf));
		goto cleanup;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    !strcmp(de->d_name, "README.cmds") ||
		    !strcmp(de->d_name, "SOURCES"))
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", FIXTURES, sub.buf);
		if (stat(path.buf, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			list_fixtures(sub.buf, out);
		else
			strbuf_addf(out, "%s\n", sub.buf);
	}
	closedir(d);
cleanup:
	strbuf_release(&path);
	strbuf_release(&sub);
}

static void
test_expected_table(void)
{
	struct strbuf text = STRBUF_INIT, seen = STRBUF_INIT, all = STRBUF_INIT;
	struct expect_file ef;
	char *p, *nl, *line;
	size_t nfiles = 0, nlisted = 0;

	memset(&ef, 0, sizeof(ef));
	if (strbuf_read_file(&text, EXPECTED, MAX_FILE)) {
		CHECK(0, "read " EXPECTED);
		goto cleanup;
	}
	for (p = text.buf; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line = p;
		if (!*line || *line == '#')
			continue;
		if (!strncmp(line, "file ", 5))
			nfiles++;
		expect_line(&ef, line, &seen);
		if (!nl)
			break;
	}
	expect_close(&ef);

	/* Every sample file must be in the table, and only those. */
	list_fixtures("", &all);
	for (p = all.buf; *p; p = nl + 1) {
		char name[256];

		nl = strchr(p, '\n');
		if (!nl)
			break;
		nlisted++;
		*nl = '\0';
		snprintf(name, sizeof(name), "\n%s\n", p);
		CHECK(strstr(seen.buf, name) != NULL,
		    WHAT("fixture %s has an expected record", p));
	}
	CHECK(nfiles == nlisted && nfiles >= 76, WHAT("expected table covers "
	    "the %zu sample files (%zu listed)", nlisted, nfiles));
cleanup:
	strbuf_release(&text);
	strbuf_release(&seen);
	strbuf_release(&all);
}

/* ---- hand-checked samples ------------------------------------------- */

static void
test_tcp_p1_by_hand(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct parse_result res;
	const struct parsed_run *run;
	char *cond;

	/*
	 * Values read off 3.12/tcp_P1.json: intervals[0].sum ends at
	 * 1.001017 s with 13177684711.3495 bit/s and 59 retransmits,
	 * intervals[1].sum ends at 2.000938 s with 9962258780.88693 bit/s;
	 * end.sum_sent 11570852310.266485 bit/s, 66 retransmits;
	 * sum_received 11538290653.959677 bit/s.
	 */
	if (read_fixture("3.12/tcp_P1.json", &sb))
		return;
	CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0, "tcp_P1: parsed");
	CHECK(!res.partial, "tcp_P1: ok");
	CHECK_EQ_STR(res.tool_version, "iperf 3.12", "tcp_P1: tool version");
	CHECK_EQ_INT(res.nruns, 1, "tcp_P1: one run");
	if (res.nruns == 1) {
		run = &res.runs[0];
		cond = cond_text(run);
		CHECK_EQ_STR(cond, "P=1,proto=tcp", "tcp_P1: condition");
		free(cond);
		CHECK_EQ_INT(run->started_at, 1796029061, "tcp_P1: started_at");
		CHECK_EQ_INT(run->nsamples, 4,
		    "tcp_P1: 2 rates + 2 retransmits");
		CHECK_EQ_INT(run->samples[0].t_us, 1001017, "tcp_P1: t[0]");
		CHECK_NEAR(run->samples[0].value, 13177684711.3495, 1e-3,
		    "tcp_P1: rate[0]");
		CHECK_EQ_INT(run->samples[0].seq, 0, "tcp_P1: seq[0]");
		CHECK_NEAR(nth_sample(run, METRIC_RETRANSMITS, 0)->value, 59, 0,
		    "tcp_P1: retransmits[0]");
		CHECK_EQ_INT(nth_sample(run, METRIC_THROUGHPUT_BPS, 1)->t_us,
		    2000938, "tcp_P1: t[1]");
		CHECK_NEAR(nth_sample(run, METRIC_THROUGHPUT_BPS, 1)->value,
		    9962258780.88693, 1e-3, "tcp_P1: rate[1]");
		CHECK_EQ_INT(nth_sample(run, METRIC_THROUGHPUT_BPS, 1)->seq, 1,
		    "tcp_P1: seq[1]");
		CHECK_NEAR(summary_value(run, "throughput_bps", "sum_sent"),
		    11570852310.266485, 1e-3, "tcp_P1: sum_sent");
		CHECK_NEAR(summary_value(run, "throughput_bps", "sum_received"),
		    11538290653.959677, 1e-3, "tcp_P1: sum_received");
		CHECK_NEAR(summary_value(run, "retransmits", "total"), 66, 0,
		    "tcp_P1: retransmits total");
	}
	parse_result_release(&res);
	strbuf_release(&sb);
}

static void
test_externals_by_hand(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct parse_result res;
	char *cond;
	size_t k, n;

	/*
	 * Cut at 8192 bytes: `tr -d '\r' < file | grep -c '"sum":'` gives 16
	 * and the 16th is cut inside its sum, so 15 intervals are complete.
	 */
	if (!read_fixture("external/cloudpilot_3.9_reverse_truncated_8192.res",
	    &sb)) {
		CHECK_EQ_INT(sb.len, 8192, "truncated file is 8192 bytes");
		CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0,
		    "truncated: kept");
		CHECK(res.partial && reason_has(&res, "truncated JSON at byte "
		    "8192: kept 15 complete intervals, no end-of-test summary"),
		    WHAT("truncated: reason '%s'", res.reason.buf));
		if (res.nruns == 1) {
			cond = cond_text(&res.runs[0]);
			CHECK_EQ_STR(cond, "P=1,dir=reverse,proto=tcp",
			    "truncated: -R condition");
			free(cond);
			CHECK_EQ_INT(count_metric(&res.runs[0],
			    METRIC_THROUGHPUT_BPS), 15,
			    "truncated: 15 samples");
			CHECK(res.runs[0].partial, "truncated: run partial");
			/* the test's parameters only (metric "iperf3") */
			for (k = 0, n = 0; k < res.runs[0].nsummaries; k++)
				n += strcmp(res.runs[0].summaries[k].metric,
				    "iperf3") != 0;
			CHECK_EQ_INT(n, 0, "truncated: no end-of-test "
			    "summaries");
		}
		parse_result_release(&res);
	}
	strbuf_reset(&sb);

	/* Two documents: lines 1-430 and 431-860 (grep -n '^[{}]'). */
	if (!read_fixture("external/cloudpilot_3.9_two_concatenated_docs.res",
	    &sb)) {
		CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0,
		    "two docs: kept");
		CHECK_EQ_STR(res.reason.buf, "file holds 2 JSON documents; "
		    "used the first, 1 more not ingested", "two docs: reason");
		CHECK(res.nruns == 1 && !res.runs[0].partial,
		    "two docs: the first document's run is whole");
		parse_result_release(&res);
	}
	strbuf_reset(&sb);

	if (!read_fixture("external/cloudpilot_3.9_no_test_start_no_error.res",
	    &sb)) {
		CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), -1,
		    "3.9 failure: rejected");
		CHECK_EQ_STR(res.reason.buf, "iperf3 run never started: no "
		    "test_start, no intervals (iperf 3.9 writes no error key; "
		    "see its stderr)", "3.9 failure: reason");
		CHECK_EQ_INT(res.nruns, 0, "3.9 failure: no runs");
		parse_result_release(&res);
	}
	strbuf_reset(&sb);

	/* "^C" before '{', CRLF, 11 intervals (grep -c '"sum":'), SIGINT. */
	if (!read_fixture(
	    "external/cloudpilot_3.6_sigint_ctrlC_prefix_crlf.res", &sb)) {
		CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0,
		    "^C prefix: kept");
		CHECK_EQ_STR(res.reason.buf,
		    "interrupt - the client has terminated", "^C: reason");
		CHECK(res.nruns == 1 && count_metric(&res.runs[0],
		    METRIC_THROUGHPUT_BPS) == 11, "^C: 11 samples");
		/* receiver bytes 0 on an interrupted run: not a summary */
		CHECK(res.nruns == 1 && !find_summary(&res.runs[0],
		    "throughput_bps", "sum_received"),
		    "^C: 0-byte sum_received skipped");
		parse_result_release(&res);
	}
	strbuf_reset(&sb);

	/* 3.0.11 server, UDP: lost_percent is -nan in 3 of 4 intervals. */
	if (!read_fixture("3.0.11/server_side_udp_lowrate.json", &sb)) {
		CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0, "-nan: kept");
		CHECK(!res.partial, "-nan in lost_percent is not partial");
		if (res.nruns == 1) {
			cond = cond_text(&res.runs[0]);
			CHECK_EQ_STR(cond, "P=1,proto=udp,side=server",
			    "-nan: server condition");
			free(cond);
			CHECK_EQ_INT(count_metric(&res.runs[0],
			    METRIC_LOSS_PCT), 1, "-nan: one loss sample");
			CHECK_EQ_INT(count_metric(&res.runs[0],
			    METRIC_JITTER_MS), 4, "-nan: four jitter samples");
		}
		parse_result_release(&res);
	}
	strbuf_release(&sb);
}

/* ---- synthetic inputs ------------------------------------------------ */

#define START_TCP \
	"\"start\":{\"version\":\"iperf 3.9\"," \
	"\"connecting_to\":{\"host\":\"h\",\"port\":5201}," \
	"\"timestamp\":{\"timesecs\":1600000000}," \
	"\"test_start\":{\"protocol\":\"TCP\",\"num_streams\":1," \
	"\"reverse\":0}}"
#define IV(end, bps) \
	"{\"streams\":[],\"sum\":{\"start\":0,\"end\":" end \
	",\"seconds\":1,\"bytes\":1,\"bits_per_second\":" bps \
	",\"retransmits\":3,\"omitted\":false}}"
#define END_TCP \
	"\"end\":{\"sum_sent\":{\"bytes\":10,\"bits_per_second\":80," \
	"\"retransmits\":3},\"sum_received\":{\"bytes\":10," \
	"\"bits_per_second\":79}}"
#define DOC(intervals) \
	"{" START_TCP ",\"intervals\":[" intervals "]," END_TCP "}"

static void
test_empty_and_junk(void)
{
	struct parse_result res;
	static const char *const rejects[] = {
		"", "   \n\t\r\n", "{", "{\"", "[]", "{}", "null", "\"x\"",
		"^C", "{\"start\":", "{\"start\":{}}",
		"{\"start\":{},\"intervals\":[],\"end\":{}}",
		"iperf3: parameter error - some option\n"
		    "Usage: iperf3 [-s|-c host] [options]\n",
		"{\"event\":\"error\",\"data\":\"boom\"}\n"
		    "{\"event\":\"end\",\"data\":{}}\n",
		"{\"intervals\":[],\"end\":{},\"error\":\"x\"}",
	};
	size_t i;

	CHECK_EQ_INT(parse_buf(NULL, 0, &res), -1, "NULL buffer rejected");
	CHECK(res.reason.len > 0, "NULL buffer: reason given");
	parse_result_release(&res);
	for (i = 0; i < ARRAY_SIZE(rejects); i++) {
		CHECK_EQ_INT(parse_str(rejects[i], &res), -1,
		    WHAT("rejected: '%.40s'", rejects[i]));
		CHECK(res.nruns == 0 && res.reason.len > 0,
		    WHAT("rejected with a reason: '%.40s' -> '%s'", rejects[i],
		    res.reason.buf));
		parse_result_release(&res);
	}
	parse_str(rejects[12], &res);
	CHECK(reason_has(&res, "usage"), "usage text named");
	parse_result_release(&res);
	parse_str(rejects[13], &res);
	CHECK_EQ_STR(res.reason.buf, "iperf3 error: boom",
	    "error-only stream: the error text");
	parse_result_release(&res);
}

static void
test_document_shapes(void)
{
	struct parse_result res;
	const struct parsed_run *run;

	CHECK_EQ_INT(parse_str(DOC(IV("1", "100") "," IV("2", "200")), &res),
	    0, "synthetic document parsed");
	CHECK(!res.partial, WHAT("synthetic document ok (%s)",
	    res.reason.buf));
	parse_result_release(&res);

	/* Junk around, CRLF, trailing whitespace: still ok. */
	CHECK_EQ_INT(parse_str("^[[F\r\nwarning: x {not json\r\n"
	    DOC(IV("1", "100")) "\r\n\r\n", &res), 0, "junk prefix");
	CHECK(!res.partial, WHAT("junk prefix and trailing blanks: ok (%s)",
	    res.reason.buf));
	parse_result_release(&res);

	CHECK_EQ_INT(parse_str(DOC(IV("1", "100")) "\n^C\n", &res), 0,
	    "trailing text");
	CHECK(res.partial && reason_has(&res, "trailing text after the JSON "
	    "document ignored"), WHAT("trailing text: '%s'", res.reason.buf));
	parse_result_release(&res);

	CHECK_EQ_INT(parse_str(DOC(IV("1", "100")) DOC(IV("1", "5"))
	    "\n" DOC(IV("1", "6")), &res), 0, "three documents");
	CHECK(reason_has(&res, "file holds 3 JSON documents; used the first, "
	    "2 more not ingested"), WHAT("three documents: '%s'",
	    res.reason.buf));
	CHECK(res.nruns == 1 && res.runs[0].samples[0].value == 100,
	    "three documents: the first is used");
	parse_result_release(&res);

	/* intervals not an array, sum not an object */
	CHECK_EQ_INT(parse_str("{" START_TCP ",\"intervals\":{\"sum\":{}},"
	    END_TCP "}", &res), 0, "intervals object: end sums kept");
	CHECK(res.partial && reason_has(&res, "\"intervals\" is not an array"),
	    WHAT("intervals object: '%s'", res.reason.buf));
	CHECK(res.nruns == 1 && res.runs[0].nsamples == 0 &&
	    res.runs[0].nsummaries >= 2, "intervals object: summaries only");
	parse_result_release(&res);
	CHECK_EQ_INT(parse_str("{" START_TCP ",\"intervals\":\"x\",\"end\":{}}",
	    &res), -1, "intervals string and no end: rejected");
	parse_result_release(&res);
	CHECK_EQ_INT(parse_str(DOC("{\"sum\":5}," IV("2", "200")
	    ",{\"sum\":[1]},7,null"), &res), 0, "sum not an object");
	CHECK(res.partial && reason_has(&res, "4 of 5 intervals have no sum"),
	    WHAT("sum not an object: '%s'", res.reason.buf));
	CHECK(res.nruns == 1 && count_metric(&res.runs[0],
	    METRIC_THROUGHPUT_BPS) == 1, "sum not an object: one sample");
	parse_result_release(&res);

	/* Omitted intervals are skipped; all omitted and error: rejected. */
	CHECK_EQ_INT(parse_str("{" START_TCP ",\"intervals\":[{\"sum\":"
	    "{\"end\":1,\"bits_per_second\":5,\"omitted\":true}}],\"end\":{},"
	    "\"error\":\"interrupt - the client has terminated\"}", &res), -1,
	    "only omitted intervals and an error: rejected");
	CHECK_EQ_STR(res.reason.buf, "iperf3 error: interrupt - the client "
	    "has terminated", "omitted + error: reason");
	parse_result_release(&res);

	/* Missing end: partial. */
	CHECK_EQ_INT(parse_str("{" START_TCP ",\"intervals\":[" IV("1", "9")
	    "]}", &res), 0, "no end: kept");
	CHECK(res.partial && reason_has(&res, "no end-of-test summary"),
	    "no end: partial");
	parse_result_release(&res);

	/* SCTP, -P 3, server side, -R. */
	CHECK_EQ_INT(parse_str("{\"start\":{\"accepted_connection\":{},"
	    "\"test_start\":{\"protocol\":\"SCTP\",\"num_streams\":3,"
	    "\"reverse\":1}},\"intervals\":[" IV("1", "9") "]," END_TCP "}",
	    &res), 0, "sctp server -R");
	if (res.nruns == 1) {
		char *cond = cond_text(&res.runs[0]);

		CHECK_EQ_STR(cond, "P=3,dir=reverse,proto=sctp,side=server",
		    "sctp server -R: condition");
		free(cond);
	}
	parse_result_release(&res);

	/* No test_start but data: kept, partial. */
	CHECK_EQ_INT(parse_str("{\"start\":{},\"intervals\":[" IV("1", "9")
	    "]}", &res), 0, "no test_start: kept");
	CHECK(res.nruns == 1 && res.runs[0].cond.n == 0 &&
	    reason_has(&res, "no test_start"), "no test_start: no keys");
	parse_result_release(&res);
	(void)run;
}

static void
test_numbers(void)
{
	struct parse_result res;
	const struct parsed_run *run;
	const struct parsed_sample *s;

	/* nan/inf tokens outside strings become null; inside strings not. */
	CHECK_EQ_INT(parse_str(DOC(IV("1", "nan") "," IV("2", "-nan") ","
	    IV("3", "inf") "," IV("4", "-inf") "," IV("5", "NaN") ","
	    IV("6", "7")), &res), 0, "nan tokens parsed");
	CHECK(res.nruns == 1 && count_metric(&res.runs[0],
	    METRIC_THROUGHPUT_BPS) == 1, "nan tokens: one usable sample");
	CHECK(res.partial && reason_has(&res, "5 intervals without a usable "
	    "bits_per_second"), WHAT("nan tokens: '%s'", res.reason.buf));
	parse_result_release(&res);
	CHECK_EQ_INT(parse_str("{" START_TCP ",\"intervals\":[" IV("1", "2")
	    "],\"end\":{},\"error\":\"nan inf -nan\"}", &res), 0,
	    "nan inside a string");
	CHECK(reason_has(&res, "nan inf -nan"), "nan inside a string kept");
	parse_result_release(&res);

	/* Huge numbers, iperf's unsigned -1, negative times. */
	CHECK_EQ_INT(parse_str(DOC(
	    "{\"sum\":{\"end\":1e308,\"bits_per_second\":1e308,"
	    "\"retransmits\":18446744073709551615,\"omitted\":false}},"
	    "{\"sum\":{\"end\":-1.5,\"seconds\":-1,"
	    "\"bits_per_second\":18446744073709551615,"
	    "\"retransmits\":4294967295}},"
	    "{\"sum\":{\"end\":2,\"bits_per_second\":-5,\"retransmits\":-1}},"
	    "{\"sum\":{\"end\":1e999,\"bits_per_second\":1e999}},"
	    "{\"sum\":{\"end\":-2.25,\"bits_per_second\":12,"
	    "\"retransmits\":4}}"), &res), 0, "huge numbers");
	run = res.nruns == 1 ? &res.runs[0] : NULL;
	CHECK(run && count_metric(run, METRIC_THROUGHPUT_BPS) == 2,
	    "huge numbers: 1e308 and 12 kept");
	s = run ? nth_sample(run, METRIC_THROUGHPUT_BPS, 0) : NULL;
	CHECK(s && s->value == 1e308 && s->t_us == T_US_UNKNOWN,
	    "1e308 s: time unknown");
	s = run ? nth_sample(run, METRIC_THROUGHPUT_BPS, 1) : NULL;
	CHECK(s && s->value == 12 && s->t_us == -2250000,
	    "negative end time kept as written");
	CHECK(run && count_metric(run, METRIC_RETRANSMITS) == 1,
	    "2^64-1, 2^32-1 and -1 retransmits are unknown");
	CHECK(res.partial && reason_has(&res, "3 intervals without a usable"),
	    WHAT("huge numbers: '%s'", res.reason.buf));
	parse_result_release(&res);

	/* %g numbers as iperf 3.0 prints them. */
	CHECK_EQ_INT(parse_str(DOC(IV("1.00003", "9.50062e+08")), &res), 0,
	    "%g numbers");
	s = res.nruns ? nth_sample(&res.runs[0], METRIC_THROUGHPUT_BPS, 0) :
	    NULL;
	CHECK(s && s->value == 9.50062e+08 && s->t_us == 1000030,
	    "%g numbers read");
	parse_result_release(&res);
}

static void
test_bidir_duplicate_keys(void)
{
	struct parse_result res;
	char *c0, *c1;

	/* iperf 3.7-3.10 --bidir: two "sum" keys, repeated end sums, no
	 * test_start.bidir. */
	CHECK_EQ_INT(parse_str("{" START_TCP ",\"intervals\":[{\"streams\":["
	    "{\"sender\":true},{\"sender\":false}],"
	    "\"sum\":{\"end\":1,\"bits_per_second\":100,\"retransmits\":1,"
	    "\"sender\":true},"
	    "\"sum\":{\"end\":1,\"bits_per_second\":40,\"sender\":false}}],"
	    "\"end\":{\"sum_sent\":{\"bytes\":1,\"bits_per_second\":101,"
	    "\"retransmits\":1},\"sum_received\":{\"bytes\":1,"
	    "\"bits_per_second\":99},\"sum_sent\":{\"bytes\":1,"
	    "\"bits_per_second\":41},\"sum_received\":{\"bytes\":1,"
	    "\"bits_per_second\":39}}}", &res), 0, "3.7 bidir parsed");
	CHECK_EQ_INT(res.nruns, 2, "3.7 bidir: two runs");
	if (res.nruns == 2) {
		c0 = cond_text(&res.runs[0]);
		c1 = cond_text(&res.runs[1]);
		CHECK_EQ_STR(c0, "P=1,dir=bidir-up,proto=tcp", "bidir up cond");
		CHECK_EQ_STR(c1, "P=1,dir=bidir-down,proto=tcp",
		    "bidir down cond");
		free(c0);
		free(c1);
		CHECK_NEAR(res.runs[0].samples[0].value, 100, 0, "up sample");
		CHECK_NEAR(res.runs[1].samples[0].value, 40, 0, "down sample");
		CHECK_NEAR(summary_value(&res.runs[0], "throughput_bps",
		    "sum_received"), 99, 0, "up sum_received: first");
		CHECK_NEAR(summary_value(&res.runs[1], "throughput_bps",
		    "sum_received"), 39, 0, "down sum_received: second");
		CHECK_NEAR(summary_value(&res.runs[1], "throughput_bps",
		    "sum_sent"), 41, 0, "down sum_sent: second");
		CHECK(!res.partial, "3.7 bidir: ok");
	}
	parse_result_release(&res);
}

static void
test_streams(void)
{
	struct strbuf sb = STRBUF_INIT, full = STRBUF_INIT;
	struct parse_result res;
	size_t n;
	const char *endline;

	if (read_fixture("3.17.1/stream_tcp_P1.jsonl", &sb) ||
	    read_fixture("3.17.1/tcp_P1.json", &full))
		goto cleanup;

	/* --json-stream-full-output: the document after end is ignored. */
	strbuf_add(&sb, full.buf, full.len);
	CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0, "full output");
	CHECK(!res.partial && res.nruns == 1 &&
	    count_metric(&res.runs[0], METRIC_THROUGHPUT_BPS) == 2,
	    WHAT("full output: ok, the stream's 2 samples (%s)",
	    res.reason.buf));
	parse_result_release(&res);

	/* Two tests in one stream file. */
	strbuf_reset(&sb);
	read_fixture("3.17.1/stream_tcp_P1.jsonl", &sb);
	n = sb.len;
	strbuf_add(&sb, sb.buf, n);
	CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0, "two streams");
	CHECK(reason_has(&res, "file holds 2 iperf3 tests; used the first, "
	    "1 more not ingested"), WHAT("two streams: '%s'", res.reason.buf));
	parse_result_release(&res);

	/* Cut before the end event; a broken line and a junk line. */
	endline = strstr(sb.buf, "{\"event\":\"end\"");
	if (endline) {
		n = (size_t)(endline - sb.buf);
		CHECK_EQ_INT(parse_buf(sb.buf, n, &res), 0, "no end event");
		CHECK(res.partial && reason_has(&res, "no end-of-test summary"),
		    WHAT("no end event: '%s'", res.reason.buf));
		parse_result_release(&res);
	}
	CHECK_EQ_INT(parse_str("{\"event\":\"start\",\"data\":{\"test_start\":"
	    "{\"protocol\":\"UDP\",\"num_streams\":2}}}\r\n"
	    "iperf_json_finish: pthread_mutex_lock: Success\n"
	    "{\"event\":\"interval\",\"data\":{\"sum\":{\"end\":1,"
	    "\"bits_per_second\":5,\"jitter_ms\":0.5,\"lost_percent\":null}}}\n"
	    "{\"event\":\"interval\",\"data\":{\"sum\":{\"end\":2,\n"
	    "^C{\"event\":\"error\",\"data\":\"interrupt - the client has "
	    "terminated\"}\n{\"event\":\"end\",\"data\":{}}\n", &res), 0,
	    "stream with junk");
	CHECK(res.nruns == 1 && count_metric(&res.runs[0],
	    METRIC_THROUGHPUT_BPS) == 1 && count_metric(&res.runs[0],
	    METRIC_JITTER_MS) == 1 && count_metric(&res.runs[0],
	    METRIC_LOSS_PCT) == 0, "stream with junk: samples");
	CHECK(reason_has(&res, "interrupt - the client has terminated") &&
	    reason_has(&res, "1 unparseable line ignored") &&
	    reason_has(&res, "1 non-event line ignored"),
	    WHAT("stream with junk: '%s'", res.reason.buf));
	if (res.nruns == 1) {
		char *cond = cond_text(&res.runs[0]);

		CHECK_EQ_STR(cond, "P=2,proto=udp", "stream: condition");
		free(cond);
	}
	parse_result_release(&res);
cleanup:
	strbuf_release(&sb);
	strbuf_release(&full);
}

/*
 * Every 97-byte prefix of a real file: never a crash, never "ok", and
 * never more samples than the whole file gives.
 */
static void
test_truncations(void)
{
	static const char *const files[] = {
		"3.12/tcp_P1.json", "3.12/tcp_bidir.json",
		"3.0.11/server_side_udp_lowrate.json",
		"3.17.1/stream_tcp_P2_bidir.jsonl",
		"external/cloudpilot_3.6_sigint_ctrlC_prefix_crlf.res",
	};
	struct strbuf sb = STRBUF_INIT;
	struct parse_result res;
	size_t f, cut, r, trimmed, full_n, n, bad;
	int rc;

	for (f = 0; f < ARRAY_SIZE(files); f++) {
		strbuf_reset(&sb);
		if (read_fixture(files[f], &sb))
			continue;
		trimmed = sb.len;
		while (trimmed && strchr(" \t\r\n", sb.buf[trimmed - 1]))
			trimmed--;
		parse_buf(sb.buf, sb.len, &res);
		full_n = 0;
		for (r = 0; r < res.nruns; r++)
			full_n += count_metric(&res.runs[r],
			    METRIC_THROUGHPUT_BPS);
		parse_result_release(&res);
		bad = 0;
		for (cut = 0; cut < trimmed; cut += 97) {
			rc = parse_buf(sb.buf, cut, &res);
			n = 0;
			for (r = 0; r < res.nruns; r++)
				n += count_metric(&res.runs[r],
				    METRIC_THROUGHPUT_BPS);
			if ((rc == 0 && !res.partial) || n > full_n ||
			    (rc == 0 && !res.nruns) || (rc && res.nruns) ||
			    !res.reason.len)
				bad++;
			parse_result_release(&res);
		}
		CHECK_EQ_INT(bad, 0, WHAT("%s: every 97-byte prefix is partial "
		    "or rejected, with no extra samples", files[f]));
	}
	strbuf_release(&sb);
}

/* Deterministic garbage, and garbage spliced into a real file. */
static void
test_garbage(void)
{
	struct strbuf sb = STRBUF_INIT, real = STRBUF_INIT;
	struct parse_result res;
	uint32_t x = 2463534242u;
	size_t i, round, odd = 0;
	int rc;

	read_fixture("3.12/udp_bidir_b100M.json", &real);
	for (round = 0; round < 300; round++) {
		strbuf_reset(&sb);
		if (round % 2 && real.len) {
			strbuf_add(&sb, real.buf, real.len);
			for (i = 0; i < 8; i++) {
				x ^= x << 13, x ^= x >> 17, x ^= x << 5;
				sb.buf[x % sb.len] = (char)(x >> 24);
			}
		} else {
			for (i = 0; i < 64 + round * 7; i++) {
				x ^= x << 13, x ^= x >> 17, x ^= x << 5;
				strbuf_addch(&sb, i % 50 == 0 ? '{' :
				    i % 50 == 1 ? '"' : (char)(x & 0xff));
			}
		}
		rc = parse_buf(sb.buf, sb.len, &res);
		if ((rc == 0) != (res.nruns > 0) || !(rc == 0 || rc == -1))
			odd++;
		parse_result_release(&res);
	}
	CHECK_EQ_INT(odd, 0, "garbage: runs if and only if accepted");
	strbuf_release(&sb);
	strbuf_release(&real);
}

static void
test_many_documents(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct parse_result res;
	size_t i;

	strbuf_addstr(&sb, DOC(IV("1", "1")));
	for (i = 0; i < 1500; i++)
		strbuf_addstr(&sb, "{}");
	CHECK_EQ_INT(parse_buf(sb.buf, sb.len, &res), 0, "1501 documents");
	CHECK(reason_has(&res, "file holds more than 1001 JSON documents"),
	    WHAT("document count capped: '%s'", res.reason.buf));
	parse_result_release(&res);
	strbuf_release(&sb);
}

int
main(void)
{
	test_expected_table();
	test_tcp_p1_by_hand();
	test_externals_by_hand();
	test_empty_and_junk();
	test_document_shapes();
	test_numbers();
	test_bidir_duplicate_keys();
	test_streams();
	test_truncations();
	test_garbage();
	test_many_documents();
	return test_done();
}
