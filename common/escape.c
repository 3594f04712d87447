/*
 * escape.c - one escaper per output language (escape.h says what each
 * escapes).  These replace the copies that lived in common/table.c,
 * export/manifest.c, export/datasets.c, export/dialect.c, ingest/view.c,
 * report/gnuplot.c, report/html.c, report/svg.c and report/bundle.c.
 */
#include "common/compat.h"

#include <string.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/utf8.h"

void
escape_json(struct strbuf *sb, const char *s)
{
	const unsigned char *p;

	strbuf_addch(sb, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		size_t n = utf8_len(p);

		/* JSON is UTF-8: a stray byte becomes U+FFFD, never itself */
		if (n == 0) {
			strbuf_addstr(sb, "\\ufffd");
			continue;
		}
		/* a C1 or bidirectional control as JSON's own escape: the
		 * same string to a parser, inert on a terminal */
		if (n > 1 && utf8_is_control(utf8_decode(p, n))) {
			strbuf_addf(sb, "\\u%04x", (unsigned)utf8_decode(p, n));
			p += n - 1;
			continue;
		}
		if (n > 1) {
			strbuf_add(sb, p, n);
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '"': strbuf_addstr(sb, "\\\""); break;
		case '\\': strbuf_addstr(sb, "\\\\"); break;
		case '\n': strbuf_addstr(sb, "\\n"); break;
		case '\r': strbuf_addstr(sb, "\\r"); break;
		case '\t': strbuf_addstr(sb, "\\t"); break;
		case '\b': strbuf_addstr(sb, "\\b"); break;
		case '\f': strbuf_addstr(sb, "\\f"); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				strbuf_addf(sb, "\\u%04x", *p);
			else
				strbuf_addch(sb, (char)*p);
		}
	}
	strbuf_addch(sb, '"');
}

void
escape_csv(struct strbuf *sb, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && *s &&
	    s[strlen(s) - 1] != ' ') {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '"');
}

size_t
escape_csv_sheet(struct strbuf *sb, const char *s)
{
	struct strbuf tmp = STRBUF_INIT;

	/* what a spreadsheet takes for the start of a formula */
	if (!*s || !strchr("=+-@\t\r", *s)) {
		escape_csv(sb, s);
		return 0;
	}
	strbuf_addch(&tmp, '\'');
	strbuf_addstr(&tmp, s);
	escape_csv(sb, tmp.buf);
	strbuf_release(&tmp);
	return 1;
}

void
escape_md(struct strbuf *sb, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		size_t n = utf8_len(p);

		/* a C1 or bidirectional control is shown, not applied */
		if (n > 1 && utf8_is_control(utf8_decode(p, n))) {
			strbuf_addf(sb, "\\u%04X", (unsigned)utf8_decode(p, n));
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '\\': case '`': case '*': case '_': case '[': case ']':
		case '<': case '>': case '|': case '~': case '#': case '!':
		case '$':
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, (char)*p);
			break;
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				strbuf_addch(sb, ' ');
			else
				strbuf_addch(sb, (char)*p);
		}
	}
}

/* The HTML form of c, or NULL when c stands for itself. */
static const char *
html_entity(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

void
escape_html(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		const char *e = html_entity(*s);

		if (e)
			strbuf_addstr(sb, e);
		else
			strbuf_addch(sb, *s);
	}
}

size_t
escape_html_ref_len(const char *p, const char *end)
{
	static const char *const named[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&apos;",
	};
	const char *q;
	size_t i, digits = 0;

	for (i = 0; i < ARRAY_SIZE(named); i++)
		if ((size_t)(end - p) >= strlen(named[i]) &&
		    !memcmp(p, named[i], strlen(named[i])))
			return strlen(named[i]);
	if (end - p < 4 || p[1] != '#')
		return 0;
	q = p + 2;
	if (*q == 'x' || *q == 'X') {
		for (q++; q < end && digits < 6 && ((*q >= '0' && *q <= '9') ||
		    (*q >= 'a' && *q <= 'f') || (*q >= 'A' && *q <= 'F')); q++)
			digits++;
	} else {
		for (; q < end && digits < 7 && *q >= '0' && *q <= '9'; q++)
			digits++;
	}
	return digits && q < end && *q == ';' ? (size_t)(q + 1 - p) : 0;
}

void
escape_html_keep_refs(struct strbuf *sb, const char *p, const char *end)
{
	while (p < end) {
		const char *e;
		size_t n;

		if (*p == '&' && (n = escape_html_ref_len(p, end)) != 0) {
			strbuf_add(sb, p, n);
			p += n;
			continue;
		}
		e = html_entity(*p);
		if (e)
			strbuf_addstr(sb, e);
		else
			strbuf_addch(sb, *p);
		p++;
	}
}

/* Append the character at p (n bytes: utf8_len(p)) as gnuplot shows
 * it, invalid UTF-8 as '?' and other control characters as a space;
 * returns the next character. */
static const unsigned char *
gnuplot_char(struct strbuf *sb, const unsigned char *p, size_t n)
{
	if (n == 0) {
		strbuf_addch(sb, '?');
		return p + 1;
	}
	if (n > 1) {
		strbuf_add(sb, p, n);
		return p + n;
	}
	strbuf_addch(sb, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
	return p + 1;
}

/*
 * gnuplot reads '' inside a single-quoted literal as a quote only now
 * and then: at a literal's start, or twice in a row, it ends the literal
 * ('''Direct'' x' is '' and then a stray token).  So a quote is never
 * written inside a literal: the text is cut at each quote, newline and
 * tab; the runs go into single-quoted literals (which expand nothing: no
 * backquotes, no @macros, no backslash escapes) and those three
 * characters into the double-quoted escapes "\047", "\n" and "\t",
 * all joined with '.' inside parentheses.  Not "'": gnuplot's @macro
 * scanner counts that quote as opening a literal and would then expand
 * an @name in the next one.  No quote, backquote or @ appears outside a
 * single-quoted literal.  The result is a string expression wherever
 * gnuplot takes a string (titles, labels, tic labels, plot titles,
 * variables), and it gives back every string of valid UTF-8 without
 * other control characters exactly (tests/unit/t-report.c prints a
 * generated list through gnuplot).
 */
void
escape_gnuplot(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t start = sb->len, pieces = 0;
	bool open = false;

	strbuf_addch(sb, '(');
	while (*p) {
		size_t n = utf8_len(p);
		const char *special = NULL;

		if (*p == '\'')
			special = "\"\\047\"";
		else if (*p == '\n')
			special = "\"\\n\"";
		else if (*p == '\t')
			special = "\"\\t\"";
		if (special) {
			if (open)
				strbuf_addch(sb, '\'');
			if (pieces++)
				strbuf_addch(sb, '.');
			strbuf_addstr(sb, special);
			open = false;
			p++;
			continue;
		}
		if (!open) {
			if (pieces++)
				strbuf_addch(sb, '.');
			strbuf_addch(sb, '\'');
			open = true;
		}
		p = gnuplot_char(sb, p, n);
	}
	if (open)
		strbuf_addch(sb, '\'');
	if (pieces == 0) {
		strbuf_addstr(sb, "''");
		pieces = 1;
	}
	strbuf_addch(sb, ')');
	/* one piece needs no parentheses: keep scripts readable */
	if (pieces == 1) {
		memmove(sb->buf + start, sb->buf + start + 1,
		    sb->len - start - 2);
		strbuf_setlen(sb, sb->len - 2);
	}
}

/* s on a gnuplot comment line: one line of plain text, with the same
 * characters escape_gnuplot() would show. */
void
escape_gnuplot_comment(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p)
		p = gnuplot_char(sb, p, utf8_len(p));
}

void
escape_sql_literal(struct strbuf *sb, const char *s, bool backslash)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, backslash ? "\\'" : "''");
		else if (*s == '\\' && backslash)
			strbuf_addstr(sb, "\\\\");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
}

void
escape_sql_ident(struct strbuf *sb, const char *s, char quote)
{
	strbuf_addch(sb, quote);
	for (; *s; s++) {
		if (*s == quote)
			strbuf_addch(sb, quote);
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, quote);
}

void
escape_shell(struct strbuf *sb, const char *s)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_-+=./:,%@";
	const char *p;

	if (*s && strspn(s, safe) == strlen(s)) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}
