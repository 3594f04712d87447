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

void
table_render_text(const struct table *t, struct strbuf *out)
{
	size_t nc = t->ncols, r, c, i;
	struct strbuf *text = xcalloc(nc * (t->nrows + 1) + 1, sizeof(*text));
	size_t *width = xcalloc(nc + 1, sizeof(size_t));
	size_t *cw = xcalloc(nc * (t->nrows + 1) + 1, sizeof(size_t));
	bool *right = xcalloc(nc + 1, sizeof(bool));
	struct strbuf raw = STRBUF_INIT;
	bool first;

	/* every shown text and its width first: columns align on the
	 * widest */
	for (c = 0; c < nc; c++) {
		if (t->cols[c].md_hidden)
			continue;
		right[c] = t->cols[c].right || numeric_col(t, c);
		strbuf_init(&text[c], 0);
		cw[c] = text_safe(&text[c], t->cols[c].header);
		width[c] = cw[c];
		for (r = 0; r < t->nrows; r++) {
			i = (r + 1) * nc + c;
			strbuf_reset(&raw);
			table_cell_text(t, r, c, &raw);
			strbuf_init(&text[i], 0);
			cw[i] = text_safe(&text[i], raw.buf);
			if (cw[i] > width[c])
				width[c] = cw[i];
		}
	}
	for (r = 0; r <= t->nrows; r++) {
		first = true;
		for (c = 0; c < nc; c++) {
			if (t->cols[c].md_hidden)
				continue;
			i = r * nc + c;
			if (!first)
				strbuf_addstr(out, TEXT_GAP);
			first = false;
			if (right[c])
				pad(out, width[c] - cw[i]);
			strbuf_addstr(out, text[i].buf);
			if (!right[c])
				pad(out, width[c] - cw[i]);
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
	}
	if (t->nrows == 0)
		strbuf_addstr(out, "(no rows)\n");
	for (i = 0; i < t->nnotes; i++) {
		strbuf_addch(out, '\n');
		wrap_note(out, t->notes[i].buf);
	}
	for (i = 0; i < nc * (t->nrows + 1); i++)
		strbuf_release(&text[i]);
	strbuf_release(&raw);
	free(text);
	free(width);
	free(cw);
	free(right);
}

enum table_format
table_format_default(void)
{
	return isatty(STDOUT_FILENO) ? TABLE_TEXT : TABLE_MD;
}
