/*
 * t-escape.c - unit tests for common/escape.c, one escaper per output
 * language, fed hostile text: quotes, backslashes, newlines, control
 * characters, bytes that are not UTF-8, "]]", "</script>", gnuplot's
 * @, backquote and backslash, SQL's ' and ", shell metacharacters.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "tests/unit/harness.h"

static struct strbuf sb = STRBUF_INIT;

/* Run fn on s into a fresh buffer; returns sb.buf (valid until the
 * next call). */
#define ESC(call) (strbuf_reset(&sb), (call), sb.buf)

static void
test_json(void)
{
	CHECK_EQ_STR(ESC(escape_json(&sb, "")), "\"\"", "json: empty");
	CHECK_EQ_STR(ESC(escape_json(&sb, "plain text")), "\"plain text\"",
	    "json: plain text as it is");
	CHECK_EQ_STR(ESC(escape_json(&sb, "a\"b\\c")), "\"a\\\"b\\\\c\"",
	    "json: quote and backslash escaped");
	CHECK_EQ_STR(ESC(escape_json(&sb, "l1\nl2\r\t\b\f")),
	    "\"l1\\nl2\\r\\t\\b\\f\"", "json: short escapes");
	CHECK_EQ_STR(ESC(escape_json(&sb, "\x01\x1f\x7f")),
	    "\"\\u0001\\u001f\\u007f\"",
	    "json: other control characters and DEL as \\u00XX");
	CHECK_EQ_STR(ESC(escape_json(&sb, "a\xff" "b\xc0\xaf" "c\xed\xa0\x80")),
	    "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffd\"",
	    "json: stray, overlong and surrogate bytes become U+FFFD");
	CHECK_EQ_STR(ESC(escape_json(&sb, "\xe6\x9d\xb1 \xf0\x9f\x98\x80")),
	    "\"\xe6\x9d\xb1 \xf0\x9f\x98\x80\"", "json: valid UTF-8 kept");
	CHECK_EQ_STR(ESC(escape_json(&sb, "trunc\xe6\x9d")),
	    "\"trunc\\ufffd\\ufffd\"",
	    "json: a sequence cut by the end becomes U+FFFD");
	CHECK_EQ_STR(ESC(escape_json(&sb, "</script>]]")),
	    "\"</script>]]\"", "json: no HTML escaping (not embedded)");
}

static void
test_csv(void)
{
	CHECK_EQ_STR(ESC(escape_csv(&sb, "plain")), "plain",
	    "csv: plain field as it is");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "")), "\"\"",
	    "csv: empty quoted (not a missing field)");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "a,b")), "\"a,b\"", "csv: comma");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "say \"hi\"")),
	    "\"say \"\"hi\"\"\"", "csv: quotes doubled");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "l1\nl2")), "\"l1\nl2\"",
	    "csv: LF quoted");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "l1\rl2")), "\"l1\rl2\"",
	    "csv: CR quoted");
	CHECK_EQ_STR(ESC(escape_csv(&sb, " pad")), "\" pad\"",
	    "csv: leading space kept by quoting");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "pad ")), "\"pad \"",
	    "csv: trailing space kept by quoting");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "back\\slash")), "back\\slash",
	    "csv: a backslash is no escape in CSV");
	CHECK_EQ_STR(ESC(escape_csv(&sb, "=1+1")), "=1+1",
	    "csv: exact (for scripts): a formula stays");
	CHECK(escape_csv_sheet(&sb, "x") == 0, "csv sheet: plain, no change");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "=HYPERLINK(\"x\")")),
	    "\"'=HYPERLINK(\"\"x\"\")\"",
	    "csv sheet: = neutralized, then quoted");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "+1")), "'+1", "csv sheet: +");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "-2")), "'-2", "csv sheet: -");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "@SUM(A1)")), "'@SUM(A1)",
	    "csv sheet: @");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "\t=1")), "'\t=1",
	    "csv sheet: tab");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "\r=1")), "\"'\r=1\"",
	    "csv sheet: CR");
	strbuf_reset(&sb);
	CHECK(escape_csv_sheet(&sb, "=1") == 1, "csv sheet: counts a change");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "")), "\"\"",
	    "csv sheet: empty");
	CHECK_EQ_STR(ESC(escape_csv_sheet(&sb, "a=b")), "a=b",
	    "csv sheet: = inside is no formula");
}

static void
test_md(void)
{
	CHECK_EQ_STR(ESC(escape_md(&sb, "plain text")), "plain text",
	    "md: plain");
	CHECK_EQ_STR(ESC(escape_md(&sb, "a|b")), "a\\|b",
	    "md: a pipe cannot split a table cell");
	CHECK_EQ_STR(ESC(escape_md(&sb, "[x](javascript:y) ]]")),
	    "\\[x\\](javascript:y) \\]\\]", "md: no link");
	CHECK_EQ_STR(ESC(escape_md(&sb, "</script>")), "\\</script\\>",
	    "md: no raw HTML");
	CHECK_EQ_STR(ESC(escape_md(&sb, "*_`~#!$\\")),
	    "\\*\\_\\`\\~\\#\\!\\$\\\\", "md: emphasis, code, math, ...");
	CHECK_EQ_STR(ESC(escape_md(&sb, "&lt;")), "&amp;lt;",
	    "md: no entity reaches the reader");
	CHECK_EQ_STR(ESC(escape_md(&sb, "l1\nl2\r\tx\x01\x7f")),
	    "l1 l2  x  ", "md: control characters become spaces");
	CHECK_EQ_STR(ESC(escape_md(&sb, "\xe6\x9d\xb1")), "\xe6\x9d\xb1",
	    "md: UTF-8 kept");
}

static size_t
ref_len(const char *s)
{
	return escape_html_ref_len(s, s + strlen(s));
}

static void
test_html(void)
{
	static const char keep[] = "&amp; &#38; &#x26; & &foo; <b> \"'";

	CHECK_EQ_STR(ESC(escape_html(&sb, "</script><img src=x>")),
	    "&lt;/script&gt;&lt;img src=x&gt;", "html: no element");
	CHECK_EQ_STR(ESC(escape_html(&sb, "\"' onload='x")),
	    "&quot;&#39; onload=&#39;x", "html: no way out of an attribute");
	CHECK_EQ_STR(ESC(escape_html(&sb, "&amp;")), "&amp;amp;",
	    "html: & always escaped");
	CHECK_EQ_STR(ESC(escape_html(&sb, "]]> \xe6\x9d\xb1")),
	    "]]&gt; \xe6\x9d\xb1", "html: ]]> cannot end a CDATA section");
	CHECK_EQ_STR(ESC(escape_html_keep_refs(&sb, keep,
	    keep + strlen(keep))),
	    "&amp; &#38; &#x26; &amp; &amp;foo; &lt;b&gt; &quot;&#39;",
	    "html keep refs: references kept, the rest escaped");
	CHECK(ref_len("&#;") == 0, "html ref: no digits is none");
	CHECK(ref_len("&#12345678;") == 0,
	    "html ref: too many digits is none");
	CHECK(ref_len("&apos;x") == 6, "html ref: &apos;");
	CHECK(ref_len("&#x26;") == 6, "html ref: hexadecimal");
}

static void
test_gnuplot(void)
{
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "plain")), "'plain'",
	    "gnuplot: one literal, no parentheses");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "")), "''", "gnuplot: empty");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, NULL)), "''", "gnuplot: NULL");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "@x `id` \\n $1")),
	    "'@x `id` \\n $1'",
	    "gnuplot: @, backquote and backslash inside a literal");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "it's")), "('it'.\"\\047\".'s')",
	    "gnuplot: a quote never inside a literal");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "''")),
	    "(\"\\047\".\"\\047\")", "gnuplot: quotes only");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "a\nb\tc")),
	    "('a'.\"\\n\".'b'.\"\\t\".'c')", "gnuplot: newline and tab");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "x\x01\x7f\xff" "y")),
	    "'x  ?y'", "gnuplot: control characters and stray bytes");
	CHECK_EQ_STR(ESC(escape_gnuplot(&sb, "'@x")),
	    "(\"\\047\".'@x')", "gnuplot: @ after a quote stays in a literal");
}

static void
test_sql(void)
{
	CHECK_EQ_STR(ESC(escape_sql_literal(&sb, "O'Brien", false)),
	    "'O''Brien'", "sql literal: ' doubled");
	CHECK_EQ_STR(ESC(escape_sql_literal(&sb, "a\\'; DROP TABLE x; --",
	    false)), "'a\\''; DROP TABLE x; --'",
	    "sql literal: a backslash is no escape in standard SQL");
	CHECK_EQ_STR(ESC(escape_sql_literal(&sb, "a\\'; --", true)),
	    "'a\\\\\\'; --'", "sql literal (Spark): \\ and ' escaped");
	CHECK_EQ_STR(ESC(escape_sql_literal(&sb, "say \"x\"", false)),
	    "'say \"x\"'", "sql literal: \" as it is");
	CHECK_EQ_STR(ESC(escape_sql_literal(&sb, "", false)), "''",
	    "sql literal: empty");
	CHECK_EQ_STR(ESC(escape_sql_ident(&sb, "a\"b", '"')), "\"a\"\"b\"",
	    "sql ident: \" doubled");
	CHECK_EQ_STR(ESC(escape_sql_ident(&sb, "it's", '"')), "\"it's\"",
	    "sql ident: ' as it is");
	CHECK_EQ_STR(ESC(escape_sql_ident(&sb, "a`b", '`')), "`a``b`",
	    "sql ident: backquote doubled");
}

static void
test_shell(void)
{
	CHECK_EQ_STR(ESC(escape_shell(&sb, "build/demo.db")), "build/demo.db",
	    "shell: a safe word as it is");
	CHECK_EQ_STR(ESC(escape_shell(&sb, "")), "''", "shell: empty");
	CHECK_EQ_STR(ESC(escape_shell(&sb, "a b")), "'a b'", "shell: space");
	CHECK_EQ_STR(ESC(escape_shell(&sb, "$(rm -rf /)`x`;|&")),
	    "'$(rm -rf /)`x`;|&'", "shell: no expansion in quotes");
	CHECK_EQ_STR(ESC(escape_shell(&sb, "it's")), "'it'\\''s'",
	    "shell: a quote as '\\''");
	CHECK_EQ_STR(ESC(escape_shell(&sb, "l1\nl2")), "'l1\nl2'",
	    "shell: newline in quotes");
}

int
main(void)
{
	test_json();
	test_csv();
	test_md();
	test_html();
	test_gnuplot();
	test_sql();
	test_shell();
	strbuf_release(&sb);
	return test_done();
}
