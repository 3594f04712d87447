/*
 * table_text.c - the "shown text" renderer of common/table.h: a table as
 * a person reads it at a terminal, the way ministat or git print theirs.
 * Columns are aligned (numbers to the right), nothing is Markdown-escaped
 * (`connect_ms`, not `connect\_ms`; `p < 0.05`, not `p \< 0.05`), and the
 * notes are wrapped at word boundaries.  Text from the database can hold
 * anything, so C0 controls become spaces, C1 and bidirectional ones
 * \uXXXX, and bytes that are not UTF-8 become U+FFFD: nothing reaches
 * the terminal as an escape.
 */
#include "common/compat.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/strbuf.h"
#include "common/table.h"
#include "common/utf8.h"
#include "common/xalloc.h"

#define TEXT_GAP	"  "
#define TEXT_WIDTH	78

/* s made safe for a terminal, appended to sb; returns its width in
 * columns (one per character: the tables' own symbols are narrow). */
static size_t
text_safe(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0, n;

	while (*p) {
		n = utf8_len(p);
		if (n == 0) {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			p++;
		} else if (n == 1) {
			strbuf_addch(sb, *p < 0x20 || *p == 0x7f ? ' ' : *p);
			p++;
		} else if (utf8_is_control(utf8_decode(p, n))) {
			/* a C1 or bidirectional control: shown, not applied */
			strbuf_addf(sb, "\\u%04X", (unsigned)utf8_decode(p, n));
			p += n;
			w += 5;
		} else {
			strbuf_add(sb, p, n);
			p += n;
		}
		w++;
	}
	return w;
}

/* Is every value of column c a number (or empty)? */
static bool
numeric_col(const struct table *t, size_t c)
{
	size_t r;
	bool any = false;

	for (r = 0; r < t->nrows; r++) {
		const struct table_cell *cell = &t->cells[r * t->ncols + c];

		if (cell->type == CELL_STR)
			return false;
		any |= cell->type != CELL_NULL;
	}
	return any;
}

static void
pad(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_addch(out, ' ');
}

/* Drop the spaces that end the last line of out. */
static void
trim_line(struct strbuf *out)
{
	while (out->len && out->buf[out->len - 1] == ' ')
		out->len--;
	out->buf[out->len] = '\0';
}

/* One note, wrapped at TEXT_WIDTH on spaces (a word longer than the
 * line stays whole). */
static void
wrap_note(struct strbuf *out, const char *note)
{
	struct strbuf safe = STRBUF_INIT;
	const char *p, *word;
	size_t col = 0, w, len;

	text_safe(&safe, note);
	for (p = safe.buf; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		word = p;
		while (*p && *p != ' ')
			p++;
		len = (size_t)(p - word);
		/* width: characters, not bytes */
		w = 0;
		{
			size_t i;

			for (i = 0; i < len; i++)
				w += ((unsigned char)word[i] & 0xc0) != 0x80;
		}
		if (col && col + 1 + w > TEXT_WIDTH) {
			strbuf_addch(out, '\n');
			col = 0;
		} else if (col) {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, word, len);
		col += w;
	}
	strbuf_addch(out, '\n');
	strbuf_release(&safe);
}

/* The shown text of cell (r, c) made safe, in sb (reset first); r 0 is
 * the header, r + 1 row r.  Returns its width. */
static size_t
text_of(const struct table *t, size_t r, size_t c, struct strbuf *raw,
    struct strbuf *sb)
{
	strbuf_reset(sb);
	if (r == 0)
		return text_safe(sb, t->cols[c].header);
	strbuf_reset(raw);
	table_cell_text(t, r - 1, c, raw);
	return text_safe(sb, raw->buf);
}

/*
 * Two passes over the cells: their widths first (columns align on the
 * widest), then each cell's text again as its line is written.  The
 * text of every cell was kept between the passes: a strbuf and a heap
 * block a cell, more than the table itself for a table of 200 k rows.
 * With fp, the lines go to it as they are made (table_flush()).
 */
void
table_render_text_to(const struct table *t, struct strbuf *out, FILE *fp,
    bool *err)
{
	size_t nc = t->ncols, r, c, i, w;
	size_t *width = xcalloc(nc + 1, sizeof(size_t));
	bool *right = xcalloc(nc + 1, sizeof(bool));
	struct strbuf raw = STRBUF_INIT, cell = STRBUF_INIT;
	bool first;

	for (c = 0; c < nc; c++) {
		if (t->cols[c].md_hidden)
			continue;
		right[c] = t->cols[c].right || numeric_col(t, c);
		for (r = 0; r <= t->nrows; r++) {
			w = text_of(t, r, c, &raw, &cell);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (r = 0; r <= t->nrows; r++) {
		first = true;
		for (c = 0; c < nc; c++) {
			if (t->cols[c].md_hidden)
				continue;
			w = text_of(t, r, c, &raw, &cell);
			if (!first)
				strbuf_addstr(out, TEXT_GAP);
			first = false;
			if (right[c])
				pad(out, width[c] - w);
			strbuf_addstr(out, cell.buf);
			if (!right[c])
				pad(out, width[c] - w);
		}
		trim_line(out);
		strbuf_addch(out, '\n');
		if (r == 0) {
			/* the rule under the headers */
			first = true;
			for (c = 0; c < nc; c++) {
				if (t->cols[c].md_hidden)
					continue;
				if (!first)
					strbuf_addstr(out, TEXT_GAP);
				first = false;
				for (i = 0; i < width[c]; i++)
					strbuf_addch(out, '-');
			}
			strbuf_addch(out, '\n');
		}
		table_flush(out, fp, TABLE_FLUSH_AT, err);
	}
	if (t->nrows == 0)
		strbuf_addstr(out, "(no rows)\n");
	for (i = 0; i < t->nnotes; i++) {
		strbuf_addch(out, '\n');
		wrap_note(out, t->notes[i].buf);
	}
	strbuf_release(&raw);
	strbuf_release(&cell);
	free(width);
	free(right);
}

void
table_render_text(const struct table *t, struct strbuf *out)
{
	table_render_text_to(t, out, NULL, NULL);
}

enum table_format
table_format_default(void)
{
	return isatty(STDOUT_FILENO) ? TABLE_TEXT : TABLE_MD;
}
