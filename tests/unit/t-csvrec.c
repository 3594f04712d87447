/*
 * t-csvrec.c - unit tests for ingest/csvrec.c: the fast decimal path
 * must give strtod's bits exactly, integers must not overflow, and
 * records must carry the right line numbers through CR, CRLF, blank
 * lines and quoted line breaks.
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "ingest/csvrec.h"
#include "tests/unit/harness.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* strtod's answer for a plain string, or NAN if it does not take all. */
static double
ref_strtod(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	return *s && !*end && isfinite(v) ? v : NAN;
}

static void
test_double_matches_strtod(void)
{
	char buf[64];
	size_t i, j, len, mismatches = 0, checked = 0;
	double got, want;
	int rc;

	for (i = 0; i < 200000; i++) {
		/* Random plain decimals of 1-22 digits, dot anywhere. */
		size_t ndig = 1 + rng() % 22, dot = rng() % (ndig + 1);

		len = 0;
		if (rng() % 4 == 0)
			buf[len++] = '-';
		for (j = 0; j < ndig; j++) {
			if (j == dot && rng() % 2)
				buf[len++] = '.';
			buf[len++] = (char)('0' + rng() % 10);
		}
		buf[len] = '\0';
		want = ref_strtod(buf);
		rc = ingest_field_double(buf, len, &got);
		checked++;
		if (rc != 0 || memcmp(&got, &want, sizeof(got))) {
			if (mismatches++ < 5)
				printf("# mismatch '%s': %.17g vs %.17g\n", buf,
				    got, want);
		}
	}
	printf("# %zu random decimals compared with strtod\n", checked);
	CHECK_EQ_INT(mismatches, 0, "fast path is bit-identical to strtod");
}

static void
test_double_edges(void)
{
	static const struct {
		const char	*s;
		int		rc;
		double		v;
	} cases[] = {
		{ "0", 0, 0 }, { "0.002626127", 0, 0.002626127 },
		{ "1.", 0, 1 }, { ".5", 0, 0.5 }, { "-0.25", 0, -0.25 },
		{ "+3", 0, 3 }, { "1e-3", 0, 0.001 }, { "9.4e-6", 0, 9.4e-6 },
		{ "1E+16", 0, 1e16 },
		{ "9007199254740993", 0, 9007199254740992.0 },
		{ "0.12345678901234567890123", 0, 0.12345678901234568 },
		{ "", -1, 0 }, { ".", -1, 0 }, { "-", -1, 0 },
		{ "1.2.3", -1, 0 },
		{ "nan", -1, 0 }, { "inf", -1, 0 }, { "1e999", -1, 0 },
		{ "abc", -1, 0 }, { "1,5", -1, 0 }, { "0x", -1, 0 },
	};
	size_t i;
	double v;
	char what[64];

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		v = -1;
		snprintf(what, sizeof(what), "double '%s'", cases[i].s);
		CHECK_EQ_INT(ingest_field_double(cases[i].s,
		    strlen(cases[i].s), &v), cases[i].rc, what);
		if (cases[i].rc == 0)
			CHECK_NEAR(v, cases[i].v, 0, what);
	}
	CHECK_EQ_INT(ingest_field_double("1.5\0" "9", 5, &v), -1,
	    "double with an embedded NUL");
	CHECK_EQ_INT(ingest_field_double("12345", 3, &v), 0,
	    "double reads only len bytes");
	CHECK_NEAR(v, 123, 0, "double reads only len bytes: value");

	CHECK_EQ_INT(ingest_field_nonneg("0.5", 3), 0, "nonneg 0.5");
	CHECK_EQ_INT(ingest_field_nonneg("-0", 2), 0, "nonneg -0");
	CHECK_EQ_INT(ingest_field_nonneg("-0.1", 4), -1, "nonneg -0.1");
	CHECK_EQ_INT(ingest_field_nonneg("-1e-3", 5), -1, "nonneg -1e-3");
	CHECK_EQ_INT(ingest_field_nonneg("1e-3", 4), 0, "nonneg 1e-3");
	CHECK_EQ_INT(ingest_field_nonneg("x", 1), -1, "nonneg x");
	CHECK_EQ_INT(ingest_field_nonneg("0.0000000000000000000000000001",
	    30), 0, "nonneg: 28 decimals");
	CHECK_EQ_INT(ingest_field_nonneg("-000.0000", 9), 0, "nonneg -000.0");
	CHECK_EQ_INT(ingest_field_nonneg("-000.0001", 9), -1,
	    "nonneg -000.0001");
	CHECK_EQ_INT(ingest_field_nonneg(".", 1), -1, "nonneg '.'");
	CHECK_EQ_INT(ingest_field_nonneg("1..2", 4), -1, "nonneg 1..2");
	CHECK_EQ_INT(ingest_field_nonneg("inf", 3), -1, "nonneg inf");
}

static void
test_int64(void)
{
	int64_t v = 0;

	CHECK(!ingest_field_int64("200", 3, &v) && v == 200, "int 200");
	CHECK(!ingest_field_int64("-5", 2, &v) && v == -5, "int -5");
	CHECK(!ingest_field_int64("9223372036854775807", 19, &v) &&
	    v == INT64_MAX, "int INT64_MAX");
	CHECK(ingest_field_int64("9223372036854775808", 19, &v) == -1,
	    "int overflow refused");
	CHECK(ingest_field_int64("99999999999999999999999999999999999", 35,
	    &v) == -1, "int of 35 digits refused");
	CHECK(ingest_field_int64("", 0, &v) == -1, "int empty");
	CHECK(ingest_field_int64("-", 1, &v) == -1, "int '-'");
	CHECK(ingest_field_int64("1.0", 3, &v) == -1, "int 1.0");
	CHECK(ingest_field_int64("12a", 3, &v) == -1, "int 12a");
}

struct seen {
	struct strbuf	out;	/* "line:nfields:terminated:f0|f1;" each */
};

static void
record(const struct csv_rec *rec, void *data)
{
	struct seen *s = data;
	size_t i;

	strbuf_addf(&s->out, "%zu:%zu:%d:", rec->line, rec->nfields,
	    rec->terminated);
	for (i = 0; i < rec->nfields && i < CSV_REC_MAX_FIELDS; i++)
		strbuf_addf(&s->out, "%s%s", i ? "|" : "", rec->field[i]);
	strbuf_addch(&s->out, ';');
}

static void
check_records(const char *in, const char *want, const char *what)
{
	size_t len = strlen(in);
	struct seen s = { STRBUF_INIT };
	struct strbuf why = STRBUF_INIT;

	CHECK_EQ_INT(ingest_csv_each(in, len, 1, NULL, record, &s, &why), 0,
	    what);
	CHECK_EQ_STR(s.out.buf, want, what);
	strbuf_release(&s.out);
	strbuf_release(&why);
}

static void
test_records(void)
{
	struct strbuf big = STRBUF_INIT;
	size_t i;

	check_records("a,b\nc\n", "1:2:1:a|b;2:1:1:c;", "LF");
	check_records("a,b\r\nc\r\n", "1:2:1:a|b;2:1:1:c;", "CRLF");
	check_records("a\rb\rc", "1:1:1:a;2:1:1:b;3:1:0:c;",
	    "CR and an unterminated last line");
	check_records("\n\na\r\n\r\nb\n", "3:1:1:a;5:1:1:b;",
	    "blank lines skipped but counted");
	check_records("\"x\ny\",1\n\"q\"\"\",2\nz\n",
	    "1:2:1:x\ny|1;3:2:1:q\"|2;4:1:1:z;", "quoted line break and quote");
	check_records(" a , b \n", "1:2:1:a|b;", "blanks trimmed");
	check_records("", "", "empty input");

	for (i = 0; i < 20; i++)
		strbuf_addf(&big, "%s%zu", i ? "," : "", i);
	strbuf_addch(&big, '\n');
	check_records(big.buf, "1:20:1:0|1|2|3|4|5|6|7|8|9|10|11|"
	    "12|13|14|15;", "fields past the cap are counted, not kept");
	strbuf_release(&big);
}

int
main(void)
{
	test_double_matches_strtod();
	test_double_edges();
	test_int64();
	test_records();
	return test_done();
}
