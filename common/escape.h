/*
 * escape.h - one escaper per output language: every byte of text that
 * comes from a user, a synced tree or a database goes into JSON, CSV,
 * Markdown, HTML, gnuplot, SQL or a shell command line through one of
 * these, and nowhere else.  Each appends to a strbuf; each says what it
 * escapes and why.  tests/unit/t-escape.c feeds them hostile text.
 */
#ifndef PATHSTAT_COMMON_ESCAPE_H
#define PATHSTAT_COMMON_ESCAPE_H

#include "common/compat.h"

struct strbuf;

/*
 * A JSON string literal, quotes included (RFC 8259).  " and \ escaped;
 * \n \r \t \b \f as their short escapes, every other control character
 * (U+0000..U+001F, and DEL) as \u00XX; valid UTF-8 passes unchanged; a
 * byte that is not part of valid UTF-8 (a database written by hand or by
 * an older ingest) becomes \ufffd, so the output is always valid UTF-8
 * and valid JSON.  The strictest of the three escapers this replaced.
 * '/' is not escaped: no JSON of ours is embedded in HTML.
 */
void escape_json(struct strbuf *sb, const char *s);

/*
 * One CSV field (RFC 4180): quoted, with " doubled, when it holds a
 * comma, a quote, a CR or an LF, starts or ends with a space, or is
 * empty (so an empty string differs from a missing field); otherwise as
 * it is.  Exact: for scripts (--format csv).
 */
void escape_csv(struct strbuf *sb, const char *s);
/*
 * One CSV field for a spreadsheet: text starting with =, +, -, @, a tab
 * or a CR (a formula to Excel, LibreOffice and Sheets: CSV injection)
 * gets a leading ' so it is shown, not run; then escape_csv.  Returns 1
 * when it did that, else 0.
 */
size_t escape_csv_sheet(struct strbuf *sb, const char *s);

/*
 * Inline Markdown text (CommonMark + GitHub tables): \ ` * _ [ ] < > |
 * ~ # ! $ backslash-escaped (emphasis, code, links, raw HTML, table
 * cells, strike-through, headings, images, math), & as &amp; (no
 * entity reaches the reader as a character), and every control
 * character (tab, CR, LF included) made a space: one table cell or one
 * line stays one.
 */
void escape_md(struct strbuf *sb, const char *s);

/*
 * Text for HTML, in element content or a quoted attribute value:
 * & < > " ' as &amp; &lt; &gt; &quot; &#39;.  Nothing else changes.
 */
void escape_html(struct strbuf *sb, const char *s);
/*
 * p..end escaped for HTML again, keeping the character references it
 * already holds (escape_html_ref_len): for SVG text that gnuplot has
 * escaped once.  A bare & < > " ' is escaped as escape_html does.
 */
void escape_html_keep_refs(struct strbuf *sb, const char *p,
    const char *end);
/* Length of the character reference at p ("&amp;", "&#38;", "&#x26;"),
 * or 0 when p does not start one that HTML reads the same way. */
size_t escape_html_ref_len(const char *p, const char *end);

/*
 * A gnuplot string expression that gives back s: runs of text in
 * single-quoted literals (which expand nothing: no backquote command,
 * no @macro, no backslash escape), each ', LF and tab as "\047", "\n",
 * "\t", joined with '.' in parentheses (no parentheses around one
 * piece).  Other control characters become spaces, bytes that are not
 * valid UTF-8 '?'.  NULL is the empty string.  See escape.c for why a
 * quote is never doubled inside a literal.
 */
void escape_gnuplot(struct strbuf *sb, const char *s);
/* s for a gnuplot comment line: control characters as spaces, invalid
 * UTF-8 as '?'. */
void escape_gnuplot_comment(struct strbuf *sb, const char *s);

/*
 * An SQL string literal: '...' with ' doubled (standard SQL, SQLite,
 * DuckDB, Trino, Athena), or, when backslash is true (Spark SQL, whose
 * literals read backslash escapes), ' and \ written \' and \\.
 */
void escape_sql_literal(struct strbuf *sb, const char *s, bool backslash);
/* An SQL identifier in quote ('"' standard, '`' Spark/Hive): the quote
 * character inside doubled. */
void escape_sql_ident(struct strbuf *sb, const char *s, char quote);

/*
 * One POSIX shell word: as it is when non-empty and made only of
 * letters, digits and _ - + = . / : , % @; otherwise in single quotes,
 * each ' written '\'' (no expansion happens inside single quotes).
 */
void escape_shell(struct strbuf *sb, const char *s);

#endif
