/*
 * t-report.c - unit tests for report/: the gnuplot string expression
 * (the only way user text reaches a script), read back by its rules and
 * printed back by gnuplot itself for a generated list of strings;
 * file-name slugs, and footnotes attached to table cells from hand-made
 * findings.
 */
#include "common/compat.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "common/table.h"
#include "report/internal.h"
#include "report/report.h"
#include "tests/unit/harness.h"

static void
check_quote(const char *in, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	escape_gnuplot(&sb, in);
	CHECK_EQ_STR(sb.buf, want, what);
	strbuf_release(&sb);
}

/*
 * Read back an expression escape_gnuplot() wrote, by gnuplot's rules
 * for the pieces it may hold: ( piece . piece ... ) or one piece, where
 * a piece is '...' (taken as is, and holding no quote: gnuplot misreads
 * '' at a literal's start) or one of "\047", "\n", "\t" (never a raw
 * quote between double quotes: it confuses gnuplot's @macro scanner).
 * The expression must be one line.  Returns the text (caller frees), or
 * NULL when the expression is not of that shape.
 */
static char *
gp_unquote(const char *e)
{
	struct strbuf out = STRBUF_INIT;
	size_t n = strlen(e);
	const char *p = e, *end = e + n;

	if (strchr(e, '\n') || strchr(e, '\r'))
		goto bad;
	if (n >= 2 && e[0] == '(' && e[n - 1] == ')') {
		p++;
		end--;
	}
	for (;;) {
		if (*p == '\'') {
			const char *q = memchr(p + 1, '\'',
			    (size_t)(end - p - 1));

			if (!q)
				goto bad;
			strbuf_add(&out, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (end - p >= 6 && !strncmp(p, "\"\\047\"", 6)) {
			strbuf_addch(&out, '\'');
			p += 6;
		} else if (end - p >= 4 && !strncmp(p, "\"\\n\"", 4)) {
			strbuf_addch(&out, '\n');
			p += 4;
		} else if (end - p >= 4 && !strncmp(p, "\"\\t\"", 4)) {
			strbuf_addch(&out, '\t');
			p += 4;
		} else {
			goto bad;
		}
		if (p == end)
			break;
		if (*p++ != '.' || p == end)
			goto bad;
	}
	if (end != e + n && !(end[0] == ')' && end + 1 == e + n))
		goto bad;
	return strbuf_detach(&out, NULL);
bad:
	strbuf_release(&out);
	return NULL;
}

/* Text as escape_gnuplot() promises to give it back: control
 * characters but newline and tab as spaces, invalid UTF-8 as '?'. */
static char *
gp_expected(const char *s)
{
	struct strbuf out = STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = report_utf8_len(p);

		if (n == 0)
			strbuf_addch(&out, '?');
		else if (n > 1)
			strbuf_add(&out, p, n);
		else if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			strbuf_addch(&out, ' ');
		else
			strbuf_addch(&out, (char)*p);
		p += n ? n : 1;
	}
	return strbuf_detach(&out, NULL);
}

/* The generated list: the hostile cases of a synced tree, then random
 * strings over the characters that matter to gnuplot. */
static size_t
gen_strings(char ***out)
{
	static const char *const fixed[] = {
		"'Direct' path", "'", "''", "'''", "a''b", "a''''b", "x'",
		"'x'", "it's", "\\", "\\\\", "a\\'b", "\\n", "back\\slash\\",
		"line\nbreak", "\n", "\n\n'", "tab\there", "@macro", "@",
		"`id`", "`touch /tmp/pwned`", "system('touch /tmp/pwned')",
		"x\" ; system(\"touch /tmp/pwned\") ; \"", "\"", "\"\\n\"",
		"x'; system('touch /tmp/pwned'); '", "a\nplot '<touch x'",
		"日本語 中文", "Tōkyō — Ōsaka", "G-G'", "$HOME", "#comment",
		"{a} ^b_c &d", ";", "",
	};
	static const char *const atoms[] = {
		"'", "''", "\"", "\\", "\n", "\t", "@", "`", "system(", "a",
		" ", "é", "東", "$", "#", ";", ".", "(", ")", "\\n", "%s",
	};
	unsigned long seed = 9;
	size_t n = 0, i;
	char **list = xcalloc(ARRAY_SIZE(fixed) + 400, sizeof(char *));

	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		list[n++] = xstrdup(fixed[i]);
	for (i = 0; i < 400; i++) {
		struct strbuf sb = STRBUF_INIT;
		size_t k, len;

		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		len = 1 + (seed >> 33) % 8;
		for (k = 0; k < len; k++) {
			seed = seed * 6364136223846793005UL +
			    1442695040888963407UL;
			strbuf_addstr(&sb, atoms[(seed >> 33) %
			    ARRAY_SIZE(atoms)]);
		}
		list[n++] = strbuf_detach(&sb, NULL);
	}
	*out = list;
	return n;
}

/*
 * Print every generated string through gnuplot itself (print writes the
 * string's value) and compare byte for byte.  Skipped, saying so, when
 * gnuplot cannot run.
 */
static void
test_quote_gnuplot(char **list, size_t n)
{
	struct strbuf gp = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	struct report_run_result res;
	char dir[] = "/tmp/t-report-gp.XXXXXX", path[128];
	char *argv[3], script[] = "quote.gp";
	FILE *fp;
	size_t i;
	int dfd;

	if (!mkdtemp(dir)) {
		CHECK(0, "a temporary folder for gnuplot");
		return;
	}
	strbuf_addstr(&gp, "set encoding utf8\nset print 'out.txt'\n");
	for (i = 0; i < n; i++) {
		char *e = gp_expected(list[i]);

		strbuf_addstr(&gp, "print ");
		escape_gnuplot(&gp, list[i]);
		strbuf_addstr(&gp, "\nprint '--end--'\n");
		strbuf_addf(&want, "%s\n--end--\n", e);
		free(e);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, script);
	fp = fopen(path, "w");
	if (fp) {
		fwrite(gp.buf, 1, gp.len, fp);
		fclose(fp);
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	argv[0] = (char *)report_gnuplot_program();
	argv[1] = script;
	argv[2] = NULL;
	if (report_run_program(dfd, argv, 60, &res) && res.exec_errno) {
		printf("# skip: gnuplot cannot run (%s): the round trip "
		    "through it is not checked\n", strerror(res.exec_errno));
	} else {
		snprintf(path, sizeof(path), "%s/out.txt", dir);
		if (strbuf_read_file(&got, path, 1 << 24))
			strbuf_reset(&got);
		if (res.err.len)
			printf("# gnuplot said: %.300s\n", res.err.buf);
		CHECK_EQ_INT(res.exit_code, 0, "gnuplot reads every quoted "
		    "string without an error");
		CHECK(got.len == want.len && !memcmp(got.buf, want.buf,
		    want.len), "gnuplot prints back every generated string "
		    "exactly");
		for (i = 0; i < got.len && i < want.len; i++) {
			if (got.buf[i] != want.buf[i]) {
				printf("#   first difference at byte %zu: "
				    "got '%.40s', want '%.40s'\n", i,
				    got.buf + i, want.buf + i);
				break;
			}
		}
	}
	report_run_result_release(&res);
	if (dfd >= 0)
		close(dfd);
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", dir, script);
	unlink(path);
	rmdir(dir);
	strbuf_release(&gp);
	strbuf_release(&want);
	strbuf_release(&got);
}

static void
test_quote(void)
{
	struct strbuf sb = STRBUF_INIT;
	char **list;
	size_t n, i, bad = 0;

	check_quote("A", "'A'", "plain text is one literal");
	check_quote("G'", "('G'.\"\\047\")", "a quote is a piece of its own");
	check_quote("'Direct' x", "(\"\\047\".'Direct'.\"\\047\".' x')",
	    "a quote at the start is never '' inside a literal");
	check_quote("x\" ; system(\"touch p\") ; \"",
	    "'x\" ; system(\"touch p\") ; \"'",
	    "double quotes stay literal inside single quotes");
	check_quote("`id`", "'`id`'", "backquotes stay (not expanded in '')");
	check_quote("a\nb\rc\td", "('a'.\"\\n\".'b c'.\"\\t\".'d')",
	    "newline and tab stay (as \"\\n\", \"\\t\"), CR becomes a space");
	check_quote("\x01\x7f", "'  '", "control characters become spaces");
	check_quote("日本語 中文", "'日本語 中文'", "CJK passes through");
	check_quote("Tōkyō — Ōsaka", "'Tōkyō — Ōsaka'", "accents and dashes");
	check_quote("bad\xff\xfe", "'bad?" "?'", "invalid UTF-8 becomes ?");
	check_quote("\xc0\xaf", "'?" "?'", "overlong UTF-8 is invalid");
	check_quote("\xed\xa0\x80", "'?" "?" "?'",
	    "a UTF-16 surrogate is invalid");
	check_quote("\xe6\x97", "'?" "?'", "a cut sequence is invalid");
	check_quote(NULL, "''", "NULL is the empty string");
	check_quote("'", "\"\\047\"", "a lone quote");

	n = gen_strings(&list);
	for (i = 0; i < n; i++) {
		char *back, *want = gp_expected(list[i]);

		strbuf_reset(&sb);
		escape_gnuplot(&sb, list[i]);
		back = gp_unquote(sb.buf);
		if (!back || strcmp(back, want)) {
			if (bad++ < 5)
				printf("#   '%s' -> %s -> '%s'\n", list[i],
				    sb.buf, back ? back : "(not readable)");
		}
		free(back);
		free(want);
	}
	CHECK_EQ_INT(bad, 0, "every generated string reads back from its "
	    "expression (one line, no '' in a literal, only \"\\047\" "
	    "\"\\n\" \"\\t\" double-quoted)");
	test_quote_gnuplot(list, n);
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);

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
	CHECK(strstr(md.buf, "| F [^2] | c=1,ka=off |") != NULL,
	    "F ka=off carries [^2] once although two findings match");
	CHECK(strstr(md.buf, "| F | c=1,ka=on |") != NULL,
	    "F ka=on has no marker");
	CHECK(strstr(md.buf, "| A [^1] | c=1,ka=on |") != NULL,
	    "a finding about another metric is not attached; a scope on "
	    "a column the table lacks does not stop one");
	CHECK(strstr(md.buf, "| x\\|y [^3] |") != NULL,
	    "the marker follows the escaped path text, a blank apart");
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
