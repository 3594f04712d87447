/*
 * table.c - table model and its Markdown, CSV and JSON renderers.
 */
#include "common/compat.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/xalloc.h"

void
table_init(struct table *t)
{
	memset(t, 0, sizeof(*t));
}

/* Free the cell's string, if it owns one; the cell is then null. */
static void
cell_release_str(struct table_cell *c)
{
	if (c->type == CELL_STR && !c->str_shared)
		free(c->str);
	c->str = NULL;
	c->type = CELL_NULL;
	c->str_shared = false;
	c->json_raw = false;
}

void
table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncols; i++) {
		free(t->cols[i].key);
		free(t->cols[i].header);
	}
	for (i = 0; i < t->nrows * t->ncols; i++)
		cell_release_str(&t->cells[i]);
	for (i = 0; i < t->ndisplays; i++)
		free(t->displays[i]);
	free(t->displays);
	for (i = 0; i < t->nnotes; i++)
		strbuf_release(&t->notes[i]);
	for (i = 0; i < t->nmarks; i++)
		free(t->marks[i]);
	for (i = 0; i < t->nshared; i++)
		free(t->shared[i]);
	free(t->shared);
	free(t->marks);
	free(t->empty_why);
	free(t->cols);
	free(t->cells);
	free(t->notes);
	table_init(t);
}

size_t
table_add_col(struct table *t, const char *key, const char *header,
    int decimals)
{
	struct table_col *c;

	if (t->nrows)
		BUG("table_add_col(%s) after the first row: every column "
		    "exists before any row", key);
	ALLOC_GROW(t->cols, t->ncols + 1, t->alloc_cols);
	c = &t->cols[t->ncols];
	memset(c, 0, sizeof(*c));
	c->key = xstrdup(key);
	c->header = xstrdup(header ? header : key);
	c->decimals = decimals;
	return t->ncols++;
}

size_t
table_add_hidden_col(struct table *t, const char *key, const char *header,
    int decimals)
{
	size_t col = table_add_col(t, key, header, decimals);

	t->cols[col].md_hidden = true;
	return col;
}

size_t
table_append_hidden_col(struct table *t, const char *key, const char *str)
{
	struct table_cell *old = t->cells;
	size_t r, col, nrows = t->nrows, oldn = t->ncols;

	/* table_add_col() refuses a column once rows exist: set the rows
	 * aside, add it, and put them back one column wider */
	t->cells = NULL;
	t->nrows = t->alloc_cells = 0;
	col = table_add_hidden_col(t, key, key, -1);
	t->cols[col].json_only = true;
	for (r = 0; r < nrows; r++) {
		table_add_row(t);
		memcpy(&t->cells[r * t->ncols], &old[r * oldn],
		    oldn * sizeof(*old));
		if (str)
			table_set_str(t, r, col, str);
	}
	free(old);
	return col;
}

long
table_col(const struct table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i].key, key))
			return (long)i;
	return -1;
}

size_t
table_add_row(struct table *t)
{
	size_t need = (t->nrows + 1) * t->ncols;

	ALLOC_GROW(t->cells, need, t->alloc_cells);
	memset(&t->cells[t->nrows * t->ncols], 0,
	    t->ncols * sizeof(t->cells[0]));
	return t->nrows++;
}

void
table_reserve_rows(struct table *t, size_t nrows)
{
	size_t need = nrows * t->ncols;

	if (need <= t->alloc_cells)
		return;
	t->cells = xreallocarray(t->cells, need, sizeof(t->cells[0]));
	t->alloc_cells = need;
}

struct table_cell *
table_at(struct table *t, size_t row, size_t col)
{
	if (row >= t->nrows || col >= t->ncols)
		BUG("table_at(%zu, %zu) outside %zu rows x %zu columns", row,
		    col, t->nrows, t->ncols);
	return &t->cells[row * t->ncols + col];
}

/* With share_strs, the copy of s the cell above holds (it becomes the
 * table's), else NULL. */
static char *
shared_above(struct table *t, size_t row, size_t col, const char *s)
{
	struct table_cell *up;

	if (!t->share_strs || row == 0)
		return NULL;
	up = table_at(t, row - 1, col);
	if (up->type != CELL_STR || up->json_raw || strcmp(up->str, s))
		return NULL;
	if (!up->str_shared) {
		ALLOC_GROW(t->shared, t->nshared + 1, t->alloc_shared);
		t->shared[t->nshared++] = up->str;
		up->str_shared = true;
	}
	return up->str;
}

void
table_set_str(struct table *t, size_t row, size_t col, const char *s)
{
	struct table_cell *c = table_at(t, row, col);

	cell_release_str(c);
	if (!s)
		return;
	c->type = CELL_STR;
	c->str = shared_above(t, row, col, s);
	if (c->str)
		c->str_shared = true;
	else
		c->str = xstrdup(s);
}

void
table_set_json(struct table *t, size_t row, size_t col, const char *json)
{
	table_set_str(t, row, col, json);
	table_at(t, row, col)->json_raw = json != NULL;
}

void
table_set_num(struct table *t, size_t row, size_t col, double v)
{
	struct table_cell *c = table_at(t, row, col);

	cell_release_str(c);
	c->type = isfinite(v) ? CELL_NUM : CELL_NULL;
	c->num = v;
}

void
table_set_int(struct table *t, size_t row, size_t col, int64_t v)
{
	struct table_cell *c = table_at(t, row, col);

	cell_release_str(c);
	c->type = CELL_INT;
	c->i = v;
}

void
table_set_null(struct table *t, size_t row, size_t col)
{
	struct table_cell *c = table_at(t, row, col);

	cell_release_str(c);
}

void
table_set_display(struct table *t, size_t row, size_t col, const char *text)
{
	struct table_cell *c = table_at(t, row, col);

	c->display_raw = false;
	if (c->display) {
		/* the cell's slot in displays is its own: reuse it */
		free(t->displays[c->display - 1]);
		t->displays[c->display - 1] = text ? xstrdup(text) : NULL;
		if (!text)
			c->display = 0;
		return;
	}
	if (!text)
		return;
	if (t->ndisplays >= UINT32_MAX)
		BUG("table_set_display: more than %lu display texts",
		    (unsigned long)UINT32_MAX);
	ALLOC_GROW(t->displays, t->ndisplays + 1, t->alloc_displays);
	t->displays[t->ndisplays++] = xstrdup(text);
	c->display = (uint32_t)t->ndisplays;
}

void
table_set_display_raw(struct table *t, size_t row, size_t col,
    const char *text)
{
	table_set_display(t, row, col, text);
	table_at(t, row, col)->display_raw = true;
}

void
table_copy_cell(struct table *dst, size_t row, size_t col,
    const struct table *src, size_t srow, size_t scol)
{
	const struct table_cell *s;

	if (srow >= src->nrows || scol >= src->ncols)
		BUG("table_copy_cell(%zu, %zu) outside %zu rows x %zu columns",
		    srow, scol, src->nrows, src->ncols);
	s = &src->cells[srow * src->ncols + scol];
	switch ((enum cell_type)s->type) {
	case CELL_NULL:
		table_set_null(dst, row, col);
		break;
	case CELL_STR:
		if (s->json_raw)
			table_set_json(dst, row, col, s->str);
		else
			table_set_str(dst, row, col, s->str);
		break;
	case CELL_NUM:
		table_set_num(dst, row, col, s->num);
		break;
	case CELL_INT:
		table_set_int(dst, row, col, s->i);
		break;
	}
	table_set_display(dst, row, col, table_cell_display(src, s));
	table_at(dst, row, col)->display_raw = s->display_raw;
}

void
table_add_note(struct table *t, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(t->notes, t->nnotes + 1, t->alloc_notes);
	strbuf_init(&t->notes[t->nnotes], 0);
	va_start(ap, fmt);
	strbuf_vaddf(&t->notes[t->nnotes], fmt, ap);
	va_end(ap);
	t->nnotes++;
}

void
table_mark(struct table *t, const char *why, struct strbuf *out)
{
	/* the footnote symbols of typesetting, then numbers */
	static const char *const sym[] = { "†", "‡", "§", "‖", "¶" };
	size_t i, nsym = sizeof(sym) / sizeof(sym[0]);
	struct strbuf s = STRBUF_INIT;

	for (i = 0; i < t->nmarks && strcmp(t->marks[i], why); i++)
		;
	if (i < nsym)
		strbuf_addstr(&s, sym[i]);
	else
		strbuf_addf(&s, "(%zu)", i + 1);
	if (i == t->nmarks) {
		ALLOC_GROW(t->marks, t->nmarks + 1, t->alloc_marks);
		t->marks[t->nmarks++] = xstrdup(why);
		table_add_note(t, "%s %s.", s.buf, why);
	}
	strbuf_addf(out, " %s", s.buf);
	strbuf_release(&s);
}

const char *
table_str(const struct table *t, size_t row, long col)
{
	const struct table_cell *c;

	if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
		return NULL;
	c = &t->cells[row * t->ncols + (size_t)col];
	return c->type == CELL_STR ? c->str : NULL;
}

double
table_num(const struct table *t, size_t row, long col)
{
	const struct table_cell *c;

	if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
		return NAN;
	c = &t->cells[row * t->ncols + (size_t)col];
	if (c->type == CELL_NUM)
		return c->num;
	if (c->type == CELL_INT)
		return (double)c->i;
	return NAN;
}

int
table_format_parse(const char *s, enum table_format *out)
{
	if (!strcmp(s, "md") || !strcmp(s, "markdown"))
		*out = TABLE_MD;
	else if (!strcmp(s, "csv"))
		*out = TABLE_CSV;
	else if (!strcmp(s, "json"))
		*out = TABLE_JSON;
	else if (!strcmp(s, "text"))
		*out = TABLE_TEXT;
	else
		return -1;
	return 0;
}

void
md_number(struct strbuf *sb, double v, int decimals)
{
	if (!isfinite(v)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	if (decimals >= 0) {
		strbuf_addf(sb, "%.*f", decimals, v);
		return;
	}
	/* auto: 4 significant digits (3 for -3, common/units.h), never
	 * exponent form for table values; the integer digits are all kept */
	if (v == 0) {
		strbuf_addstr(sb, "0");
	} else {
		double a = fabs(v);
		int d = (decimals == -3 ? 2 : 3) - (int)floor(log10(a));

		if (d < 0)
			d = 0;
		if (d > 9)
			d = 9;
		strbuf_addf(sb, "%.*f", d, v);
	}
}

/* A cell as JSON, CSV, or CSV for spreadsheets (sheet: text that looks
 * like a formula neutralized, counted in *neutral). */
static void
cell_text_as(const struct table_cell *c, struct strbuf *sb, bool json,
    bool sheet, size_t *neutral)
{
	switch ((enum cell_type)c->type) {
	case CELL_NULL:
		strbuf_addstr(sb, json ? "null" : "");
		break;
	case CELL_STR:
		if (json && c->json_raw)
			strbuf_addstr(sb, c->str);
		else if (json)
			escape_json(sb, c->str);
		else if (sheet)
			*neutral += escape_csv_sheet(sb, c->str);
		else
			escape_csv(sb, c->str);
		break;
	case CELL_NUM:
		strbuf_add_double(sb, c->num);
		break;
	case CELL_INT:
		strbuf_addf(sb, "%lld", (long long)c->i);
		break;
	}
}

static void
cell_text(const struct table_cell *c, struct strbuf *sb, bool json)
{
	size_t unused = 0;

	cell_text_as(c, sb, json, false, &unused);
}

void
table_flush(struct strbuf *out, FILE *fp, size_t min, bool *err)
{
	if (!fp || !out->len || out->len < min)
		return;
	if (fwrite(out->buf, 1, out->len, fp) != out->len && err)
		*err = true;
	strbuf_reset(out);
}

static size_t
render_csv_as(const struct table *t, struct strbuf *out, bool sheet,
    FILE *fp, bool *err)
{
	size_t r, c, k, neutral = 0;

	for (c = k = 0; c < t->ncols; c++) {
		if (t->cols[c].json_only)
			continue;
		if (k++)
			strbuf_addch(out, ',');
		escape_csv(out, t->cols[c].key);
	}
	strbuf_addch(out, '\n');
	for (r = 0; r < t->nrows; r++) {
		for (c = k = 0; c < t->ncols; c++) {
			if (t->cols[c].json_only)
				continue;
			if (k++)
				strbuf_addch(out, ',');
			cell_text_as(&t->cells[r * t->ncols + c], out, false,
			    sheet, &neutral);
		}
		strbuf_addch(out, '\n');
		table_flush(out, fp, TABLE_FLUSH_AT, err);
	}
	return neutral;
}

static void
render_csv(const struct table *t, struct strbuf *out, FILE *fp, bool *err)
{
	render_csv_as(t, out, false, fp, err);
}

size_t
table_render_csv_sheet(const struct table *t, struct strbuf *out)
{
	return render_csv_as(t, out, true, NULL, NULL);
}

static void
render_json(const struct table *t, struct strbuf *out, FILE *fp, bool *err)
{
	size_t r, c;

	strbuf_addch(out, '[');
	for (r = 0; r < t->nrows; r++) {
		strbuf_addstr(out, r ? ",\n  {" : "\n  {");
		for (c = 0; c < t->ncols; c++) {
			if (c)
				strbuf_addstr(out, ", ");
			escape_json(out, t->cols[c].key);
			strbuf_addstr(out, ": ");
			cell_text(&t->cells[r * t->ncols + c], out, true);
		}
		strbuf_addch(out, '}');
		table_flush(out, fp, TABLE_FLUSH_AT, err);
	}
	strbuf_addstr(out, t->nrows ? "\n]\n" : "]\n");
}

/* A cell as a person reads it; escaped for Markdown when md (text pathstat
 * composed itself, display_raw, never is). */
static void
shown_text(const struct table *t, size_t r, size_t c, bool md,
    struct strbuf *sb)
{
	const struct table_cell *cell = &t->cells[r * t->ncols + c];
	const char *display = table_cell_display(t, cell);

	if (display) {
		if (md && !cell->display_raw)
			escape_md(sb, display);
		else
			strbuf_addstr(sb, display);
		return;
	}
	switch ((enum cell_type)cell->type) {
	case CELL_NULL:
		strbuf_addstr(sb, "–");
		break;
	case CELL_STR:
		if (md)
			escape_md(sb, *cell->str ? cell->str : "–");
		else
			strbuf_addstr(sb, *cell->str ? cell->str : "–");
		break;
	case CELL_NUM:
		md_number(sb, cell->num, t->cols[c].decimals);
		break;
	case CELL_INT:
		strbuf_addf(sb, "%lld", (long long)cell->i);
		break;
	}
}

void
table_cell_text(const struct table *t, size_t r, size_t c,
    struct strbuf *sb)
{
	shown_text(t, r, c, false, sb);
}

static void
md_cell(const struct table *t, size_t r, size_t c, struct strbuf *sb)
{
	shown_text(t, r, c, true, sb);
}

static void
render_md_body(const struct table *t, struct strbuf *out, FILE *fp,
    bool *err)
{
	size_t r, c;
	bool any = false;

	strbuf_addch(out, '|');
	for (c = 0; c < t->ncols; c++) {
		if (t->cols[c].md_hidden)
			continue;
		strbuf_addch(out, ' ');
		escape_md(out, t->cols[c].header);
		strbuf_addstr(out, " |");
		any = true;
	}
	if (!any)
		strbuf_addstr(out, " |");
	strbuf_addstr(out, "\n|");
	for (c = 0; c < t->ncols; c++) {
		if (t->cols[c].md_hidden)
			continue;
		strbuf_addstr(out, t->cols[c].right ? " ---: |" : " --- |");
	}
	strbuf_addch(out, '\n');
	for (r = 0; r < t->nrows; r++) {
		strbuf_addch(out, '|');
		for (c = 0; c < t->ncols; c++) {
			if (t->cols[c].md_hidden)
				continue;
			strbuf_addch(out, ' ');
			md_cell(t, r, c, out);
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
		table_flush(out, fp, TABLE_FLUSH_AT, err);
	}
}

void
table_render_md_body(const struct table *t, struct strbuf *out)
{
	render_md_body(t, out, NULL, NULL);
}

static void
render_md(const struct table *t, struct strbuf *out, FILE *fp, bool *err)
{
	size_t i;

	render_md_body(t, out, fp, err);
	if (t->nrows == 0)
		strbuf_addstr(out, "\n_(no rows)_\n");
	if (t->nnotes)
		strbuf_addch(out, '\n');
	for (i = 0; i < t->nnotes; i++) {
		strbuf_addstr(out, "_");
		escape_md(out, t->notes[i].buf);
		strbuf_addstr(out, "_\n");
		if (i + 1 < t->nnotes)
			strbuf_addch(out, '\n');
	}
}

/* The table in fmt into out; with fp, written to it as it goes
 * (table_flush()). */
static void
render_to(const struct table *t, enum table_format fmt, struct strbuf *out,
    FILE *fp, bool *err)
{
	switch (fmt) {
	case TABLE_MD:
		render_md(t, out, fp, err);
		break;
	case TABLE_CSV:
		render_csv(t, out, fp, err);
		break;
	case TABLE_JSON:
		render_json(t, out, fp, err);
		break;
	case TABLE_TEXT:
		table_render_text_to(t, out, fp, err);
		break;
	}
}

void
table_render_sb(const struct table *t, enum table_format fmt,
    struct strbuf *out)
{
	render_to(t, fmt, out, NULL, NULL);
}

/* Rows go out 64 KiB at a time: the text of a table of 200 k rows
 * (500 bytes a row of JSON) was all in memory before the first byte
 * was written. */
int
table_render(const struct table *t, enum table_format fmt, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	bool err = false;

	render_to(t, fmt, &sb, out, &err);
	table_flush(&sb, out, 0, &err);
	strbuf_release(&sb);
	return err ? -1 : 0;
}
