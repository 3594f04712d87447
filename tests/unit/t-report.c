/*
 * t-report.c - unit tests for report/: the gnuplot string literal (the
 * only way user text reaches a script), file-name slugs, and footnotes
 * attached to table cells from hand-made findings.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/table.h"
#include "report/internal.h"
#include "report/report.h"
#include "tests/unit/harness.h"

static void
check_quote(const char *in, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	report_gp_quote(&sb, in);
	CHECK_EQ_STR(sb.buf, want, what);
	strbuf_release(&sb);
}

/* A quoted literal is one line, starts and ends with a single quote, and
 * every quote inside comes in pairs: so it cannot end early. */
static int
literal_sound(const char *lit)
{
	size_t n = strlen(lit), i;

	if (n < 2 || lit[0] != '\'' || lit[n - 1] != '\'')
		return 0;
	for (i = 1; i + 1 < n; i++) {
		if (lit[i] == '\n' || lit[i] == '\r')
			return 0;
		if (lit[i] == '\'') {
			if (lit[i + 1] != '\'' || i + 2 >= n)
				return 0;
			i++;
		}
	}
	return 1;
}

static void
test_quote(void)
{
	static const char *const nasty[] = {
		"x\" ; system(\"touch /tmp/pwned\") ; \"",
		"x'; system('touch /tmp/pwned'); '",
		"`touch /tmp/pwned`",
		"@macro ; reset",
		"a\nplot '<touch /tmp/pwned'",
		"back\\slash\\",
		"'",
		"''",
		"tab\there\r\n",
		"\x1b[31mred",
		"",
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	check_quote("A", "'A'", "plain text is quoted");
	check_quote("G'", "'G'''", "a single quote is doubled");
	check_quote("x\" ; system(\"touch p\") ; \"",
	    "'x\" ; system(\"touch p\") ; \"'",
	    "double quotes stay literal inside single quotes");
	check_quote("`id`", "'`id`'", "backquotes stay (not expanded in '')");
	check_quote("a\nb\rc\td", "'a b c d'",
	    "line breaks and tabs become spaces");
	check_quote("\x01\x7f", "'  '", "control characters become spaces");
	check_quote("日本語 中文", "'日本語 中文'", "CJK passes through");
	check_quote("Tōkyō — Ōsaka", "'Tōkyō — Ōsaka'", "accents and dashes");
	check_quote("bad\xff\xfe", "'bad?" "?'", "invalid UTF-8 becomes ?");
	check_quote("\xc0\xaf", "'?" "?'", "overlong UTF-8 is invalid");
	check_quote("\xed\xa0\x80", "'?" "?" "?'",
	    "a UTF-16 surrogate is invalid");
	check_quote("\xe6\x97", "'?" "?'", "a cut sequence is invalid");
	check_quote(NULL, "''", "NULL is the empty string");
	for (i = 0; i < ARRAY_SIZE(nasty); i++) {
		char what[64];

		strbuf_reset(&sb);
		report_gp_quote(&sb, nasty[i]);
		snprintf(what, sizeof(what), "hostile text %zu gives one sound "
		    "literal", i);
		CHECK(literal_sound(sb.buf), what);
	}
	strbuf_reset(&sb);
	report_gp_comment_text(&sb, "a\nb'c");
	CHECK_EQ_STR(sb.buf, "a b'c", "comment text: one line, quotes kept");
	strbuf_release(&sb);
}

static void
test_utf8(void)
{
	CHECK_EQ_INT(report_utf8_len((const unsigned char *)"a"), 1, "ASCII");
	CHECK_EQ_INT(report_utf8_len((const unsigned char *)"é"), 2, "2 bytes");
	CHECK_EQ_INT(report_utf8_len((const unsigned char *)"語"), 3, "3 bytes");
	CHECK_EQ_INT(report_utf8_len((const unsigned char *)"😀"), 4, "4 bytes");
	CHECK_EQ_INT(report_utf8_len((const unsigned char *)"\xf4\x90\x80\x80"),
	    0, "past U+10FFFF");
	CHECK_EQ_INT(report_utf8_len((const unsigned char *)"\x80"), 0,
	    "lone continuation byte");
}

static void
test_slug(void)
{
	char *s;

	s = report_slug("Latency: TCP connect time", 40);
	CHECK_EQ_STR(s, "latency-tcp-connect-time", "slug of a title");
	free(s);
	s = report_slug("../../etc/passwd", 40);
	CHECK_EQ_STR(s, "etc-passwd", "slug drops path separators and dots");
	free(s);
	s = report_slug("日本語", 40);
	CHECK_EQ_STR(s, "x", "slug of nothing ASCII is x");
	free(s);
	s = report_slug("abcdefghij", 4);
	CHECK_EQ_STR(s, "abcd", "slug is bounded");
	free(s);
}

/* A percentiles-shaped table: path, condition, metric, p50. */
static void
fill(struct table *t)
{
	static const char *const rows[][2] = {
		{ "A", "c=1,ka=on" }, { "F", "c=1,ka=off" },
		{ "F", "c=1,ka=on" }, { "x|y", "c=1,ka=off" },
	};
	size_t i;

	table_init(t);
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_col(t, "p50", "p50 (ms)", 3);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		size_t r = table_add_row(t);

		table_set_str(t, r, 0, rows[i][0]);
		table_set_str(t, r, 1, rows[i][1]);
		table_set_str(t, r, 2, "http_ms");
		table_set_num(t, r, 3, 0.5 + (double)i);
	}
}

static void
test_footnotes(void)
{
	struct report_finding f[] = {
		{ "F", "c=1,ka=off", 2, "http_ms",
		    "TIME_WAIT <b>exhaustion</b>", NULL },
		{ "F", "c=1,ka=off", 2, NULL, "TIME_WAIT <b>exhaustion</b>",
		    NULL },
		{ "A", NULL, 0, "connect_ms", "another metric: no marker",
		    NULL },
		{ "x|y", NULL, 0, NULL, "a | in the path", NULL },
		{ "Z", NULL, 0, NULL, "no such path", NULL },
		/* scoped to a day the table has no column for: still attached */
		{ "A", "c=1,ka=on", 0, NULL, "scoped", "day=2026-08-29" },
	};
	struct report_footnotes fn = REPORT_FOOTNOTES_INIT;
	struct table t;
	struct strbuf md = STRBUF_INIT;
	size_t n;

	fill(&t);
	n = report_footnotes_attach(&fn, &t, f, ARRAY_SIZE(f));
	CHECK_EQ_INT(n, 4, "four markers: F twice (same note), x|y, A scoped");
	CHECK_EQ_INT(fn.n, 3, "three distinct footnotes");
	table_render_md_body(&t, &md);
	CHECK(strstr(md.buf, "| F[^2] | c=1,ka=off |") != NULL,
	    "F ka=off carries [^2] once although two findings match");
	CHECK(strstr(md.buf, "| F | c=1,ka=on |") != NULL,
	    "F ka=on has no marker");
	CHECK(strstr(md.buf, "| A[^1] | c=1,ka=on |") != NULL,
	    "a finding about another metric is not attached; a scope on "
	    "a column the table lacks does not stop one");
	CHECK(strstr(md.buf, "| x\\|y[^3] |") != NULL,
	    "the marker follows the escaped path text");
	strbuf_reset(&md);
	report_footnotes_render(&fn, &md);
	CHECK_EQ_STR(md.buf, "\n[^1]: scoped\n[^2]: trial 2: TIME\\_WAIT "
	    "\\<b\\>exhaustion\\</b\\>\n[^3]: a \\| in the path\n",
	    "definitions are numbered in order of use, escaped, name the "
	    "trial");
	CHECK_EQ_INT(report_footnote_ref(&fn, "a | in the path"), 3,
	    "the same text keeps its number");
	CHECK_EQ_INT(report_footnote_ref(&fn, "new"), 4, "a new text is next");
	table_release(&t);
	report_footnotes_release(&fn);
	strbuf_release(&md);
}

int
main(void)
{
	test_quote();
	test_utf8();
	test_slug();
	test_footnotes();
	return test_done();
}
