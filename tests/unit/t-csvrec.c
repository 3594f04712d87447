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
#include <dirent.h>
#include <sys/stat.h>

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

/* ---- the fast path against libcsv ------------------------------------ */

/* Append s[0..n) to out with its length, so NULs and '|' show. */
static void
add_field(struct strbuf *out, const char *s, size_t n)
{
	strbuf_addf(out, "%zu=", n);
	strbuf_add(out, s, n);
	strbuf_addch(out, '|');
}

/* What one reading gave, and whether its fields came one by one. */
struct trace {
	struct strbuf	out;
	bool		by_field;
};

static void
diff_record(const struct csv_rec *rec, void *data)
{
	struct trace *t = data;
	struct strbuf *out = &t->out;
	size_t i;

	strbuf_addf(out, "%zu:%zu:%d:", rec->line, rec->nfields,
	    rec->terminated);
	for (i = 0; !t->by_field && i < rec->nfields &&
	    i < CSV_REC_MAX_FIELDS; i++) {
		if (rec->field[i][rec->flen[i]] != '\0')
			strbuf_addstr(out, "(no NUL)");
		add_field(out, rec->field[i], rec->flen[i]);
	}
	strbuf_addstr(out, ";\n");
}

static void
diff_field(size_t i, const char *s, size_t len, void *data)
{
	struct strbuf *out = &((struct trace *)data)->out;

	strbuf_addf(out, "%zu#", i);
	if (s[len] != '\0')
		strbuf_addstr(out, "(no NUL)");
	add_field(out, s, len);
}

/* Everything one reading gives: return, why, records (and fields). */
static void
csv_trace(const char *in, size_t len, bool full, bool by_field,
    struct trace *t)
{
	struct strbuf why = STRBUF_INIT;
	int rc;

	strbuf_reset(&t->out);
	t->by_field = by_field;
	rc = (full ? ingest_csv_each_full : ingest_csv_each)(in, len, 7,
	    by_field ? diff_field : NULL, diff_record, t, &why);
	strbuf_addf(&t->out, "rc %d why %s\n", rc, why.buf);
	strbuf_release(&why);
}

static size_t diff_inputs, diff_files, diff_bad;

/* The fast path and libcsv alone must give the same, both ways of
 * reading; a difference is printed once. */
static void
csv_same(const char *in, size_t len, const char *what)
{
	struct trace a = { STRBUF_INIT, false }, b = { STRBUF_INIT, false };
	int mode;

	for (mode = 0; mode < 2; mode++) {
		csv_trace(in, len, false, mode, &a);
		csv_trace(in, len, true, mode, &b);
		if (a.out.len != b.out.len ||
		    memcmp(a.out.buf, b.out.buf, a.out.len)) {
			if (diff_bad++ < 3)
				printf("# differs (%s, %s): fast:\n%s# libcsv:\n"
				    "%s", what, mode ? "fields" : "records",
				    a.out.buf, b.out.buf);
		}
	}
	diff_inputs++;
	strbuf_release(&a.out);
	strbuf_release(&b.out);
}

/* Each file under dir (recursively) named *.csv, or every file when
 * all: whole, and cut short in two places. */
static void
csv_same_files(const char *dir, bool all)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	struct dirent *de;
	struct stat sta;
	DIR *d = opendir(dir);
	size_t n;

	if (!d) {
		CHECK(0, "differential: open a fixture folder");
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		if (stat(path.buf, &sta))
			continue;
		if (S_ISDIR(sta.st_mode)) {
			csv_same_files(path.buf, all);
			continue;
		}
		n = strlen(de->d_name);
		if (!all && (n < 4 || strcmp(de->d_name + n - 4, ".csv")))
			continue;
		strbuf_reset(&sb);
		if (strbuf_read_file(&sb, path.buf, (size_t)1 << 26) < 0) {
			CHECK(0, "differential: read a fixture");
			continue;
		}
		diff_files++;
		csv_same(sb.buf, sb.len, path.buf);
		csv_same(sb.buf, sb.len / 2, path.buf);
		if (sb.len)
			csv_same(sb.buf, sb.len - 1, path.buf);
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&sb);
}

/*
 * ingest_csv_each()'s fast path for plain lines against libcsv reading
 * everything: the same records, fields, line numbers, return and reason
 * on the tests' CSV files, the fuzz corpora, edge cases and random
 * input from the bytes that matter to a CSV reader.
 */
static void
test_fast_same(void)
{
	static const char *const edge[] = {
		"", "\n", "\n\n", ",", ",\n", "a,", "a,\n", ",a", "a,,b\n",
		"a\n\nb", "a\nb", "a\r\nb\n", "a\n\r\nb\n", "a\rb\n",
		" a,b\n", "a ,b\n", "a,\tb\n", "\ta\n", "a \n", " \n",
		"\"a\",b\n", "a,\"b\nc\"\nd\n", "a\"b\n", "x\ny\n\"q\"\"\"\n",
		"1,2,3\n4,5,6\n7,8", "ä,ö\n", "\xef\xbb\xbf" "a,b\n",
	};
	static const char alphabet[] = "ab1.,,,\n\n\r\" \t";
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, n;

	for (i = 0; i < ARRAY_SIZE(edge); i++)
		csv_same(edge[i], strlen(edge[i]), edge[i]);
	csv_same("a\0b,c\n", 6, "NUL in a field");
	csv_same("a,b\nc\0", 6, "NUL on the last line");

	for (i = 0; i < 100; i++)	/* more commas than the fast path takes */
		strbuf_addstr(&sb, i ? ",x" : "x");
	strbuf_addstr(&sb, "\nlast\n");
	csv_same(sb.buf, sb.len, "100 fields");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "a,b\n");	/* a field libcsv refuses */
	for (i = 0; i < CSV_FIELD_MAX + 10; i++)
		strbuf_addch(&sb, 'x');
	strbuf_addstr(&sb, "\nc\n");
	csv_same(sb.buf, sb.len, "a field too long");
	csv_same(sb.buf, 40000, "a long line");

	for (i = 0; i < 30000; i++) {
		strbuf_reset(&sb);
		n = rng() % 40;
		for (j = 0; j < n; j++)
			strbuf_addch(&sb, rng() % 4 ? alphabet[rng() % 7] :
			    alphabet[rng() % (sizeof(alphabet) - 1)]);
		csv_same(sb.buf, sb.len, "random");
	}
	strbuf_release(&sb);

	csv_same_files("tests/fixtures", false);
	csv_same_files("tests/fuzz/corpus/oha-csv", true);
	csv_same_files("tests/fuzz/corpus/probe-csv", true);
	printf("# differential: %zu inputs, %zu of them files\n",
	    diff_inputs, diff_files);
	CHECK(diff_files >= 30, "differential: the fixtures were read");
	CHECK_EQ_INT(diff_bad, 0, "fast path and libcsv agree");
}

int
main(void)
{
	test_double_matches_strtod();
	test_double_edges();
	test_int64();
	test_records();
	test_fast_same();
	return test_done();
}
