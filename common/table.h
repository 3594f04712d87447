/*
 * table.h - the table model every command prints (runs, analyze, report)
 * and its three renderers: GitHub-flavoured Markdown, CSV (RFC 4180) and
 * JSON (one array of flat objects, docs/design.md's contract).
 *
 * A cell has a machine value (string, number, integer or null) and may
 * carry a display text that only Markdown shows ("0.108 [0.091, 0.127]",
 * "≥ timeout", "not measured").  Column keys are the JSON/CSV names;
 * headers are what Markdown shows.
 */
#ifndef PATHSTAT_COMMON_TABLE_H
#define PATHSTAT_COMMON_TABLE_H

#include "common/compat.h"

#include <stdio.h>

#include "common/units.h"

struct strbuf;

/* TABLE_TEXT: aligned plain text for a person at a terminal (no
 * Markdown escapes, notes wrapped); TABLE_MD: GitHub-flavoured Markdown
 * for files and reports. */
enum table_format { TABLE_MD, TABLE_CSV, TABLE_JSON, TABLE_TEXT };

enum cell_type { CELL_NULL, CELL_STR, CELL_NUM, CELL_INT };

/* A cell takes 16 bytes, not 32 (a table of 200 k rows holds millions
 * of them): str, num and i share their place, so read the one type says
 * (table_cell_str(), table_num() do), and the display text lives in the
 * table (displays), the cell keeping its index (table_cell_display()). */
struct table_cell {
	union {
		char	*str;		/* CELL_STR value (owned) */
		double	num;		/* CELL_NUM value; NaN/inf render as null */
		int64_t	i;		/* CELL_INT value */
	};
	uint32_t	display;	/* 1 + index in the table's displays of
					 * the Markdown text overriding the
					 * value; 0: none */
	uint8_t		type;		/* enum cell_type */
	bool		str_shared;	/* str is the table's (share_strs), not
					 * the cell's: never free or move it */
	bool		display_raw;	/* display is our own text: no escaping */
	bool		json_raw;	/* CELL_STR holding a JSON value that JSON
					 * emits as is (an array, an object);
					 * CSV quotes it, Markdown shows display */
};

struct table_col {
	char	*key;		/* JSON key and CSV header (owned) */
	char	*header;	/* Markdown header (owned) */
	int	decimals;	/* Markdown decimals for numbers; -1: up to 4 significant */
	bool	md_hidden;	/* left out of Markdown (machine-only columns) */
	bool	json_only;	/* ... and out of CSV: a fact about the
				 * whole table, in JSON's rows */
	bool	right;		/* right-align in Markdown */
};

struct table {
	struct table_col	*cols;
	size_t			ncols, alloc_cols;
	struct table_cell	*cells;		/* nrows * ncols, row-major */
	size_t			nrows, alloc_cells;
	struct strbuf		*notes;		/* caption lines shown under the Markdown table */
	size_t			nnotes, alloc_notes;
	char			**marks;	/* the reasons table_mark() gave
						 * a symbol, in order (owned) */
	size_t			nmarks, alloc_marks;
	char			*empty_why;	/* why the table has no rows, when
						 * its builder knows (owned;
						 * NULL: it does not say) */
	/* A string equal to the one above it in its column is one copy
	 * (the table's, in shared): a table of 200 k rows repeats its
	 * path, condition and method in every row.  Off unless set before
	 * the rows: code that frees or moves a cell's str by hand must not
	 * set it. */
	bool			share_strs;
	char			**shared;	/* the copies; owned */
	size_t			nshared, alloc_shared;
	char			**displays;	/* the cells' display texts
						 * (owned; NULL once its cell
						 * dropped it) */
	size_t			ndisplays, alloc_displays;
	struct unit_choice	shown;		/* the unit Markdown and text show
						 * the metric's values in (name
						 * NULL: none); JSON and CSV keep
						 * the stored unit */
};

void table_init(struct table *t);
void table_release(struct table *t);
/* Add a column; returns its index. */
size_t table_add_col(struct table *t, const char *key, const char *header,
    int decimals);
/* Add a column left out of Markdown (machine-only); returns its index. */
size_t table_add_hidden_col(struct table *t, const char *key,
    const char *header, int decimals);
/* Add a column only JSON shows (json_only), after rows exist: a fact
 * about the whole table, known once it is built; every row gets str
 * (NULL: null).  CSV keeps its columns, the ones an engine's query
 * gives (export/sql.c).  Returns its index. */
size_t table_append_hidden_col(struct table *t, const char *key,
    const char *str);
/* Index of the column with this key, or -1. */
long table_col(const struct table *t, const char *key);
/* Append an empty (all null) row; returns its index. */
size_t table_add_row(struct table *t);
/* Room for nrows rows in all, allocated once (the columns must all
 * exist): a table of 200 k rows grown by doubling holds up to twice the
 * cells it needs at its peak. */
void table_reserve_rows(struct table *t, size_t nrows);
struct table_cell *table_at(struct table *t, size_t row, size_t col);
void table_set_str(struct table *t, size_t row, size_t col, const char *s);
void table_set_num(struct table *t, size_t row, size_t col, double v);
void table_set_int(struct table *t, size_t row, size_t col, int64_t v);
void table_set_null(struct table *t, size_t row, size_t col);
/* A JSON value we composed (valid JSON: an array or object) that the
 * JSON renderer emits as is; give a display for Markdown. */
void table_set_json(struct table *t, size_t row, size_t col,
    const char *json);
/* Markdown-only text for a cell (copied). */
void table_set_display(struct table *t, size_t row, size_t col,
    const char *text);
/* The same for text pathstat composed itself from numbers and fixed
 * words ("0.108 [0.091, 0.127]"), shown without Markdown escaping. */
void table_set_display_raw(struct table *t, size_t row, size_t col,
    const char *text);
/* Add a caption line (printf-style) shown under the Markdown table. */
void table_add_note(struct table *t, const char *fmt, ...)
    PATHSTAT_PRINTF(2, 3);

/* Why a cell has no interval (or no number), said once per table: add
 * the reason's footnote symbol (" †", " ‡", ... in order of first use)
 * to the cell text in out, and on first use a caption line "† why." A
 * table repeating one reason in every row then reads as numbers. */
void table_mark(struct table *t, const char *why, struct strbuf *out);

/* A cell's string (NULL unless it holds one, or col < 0) and number (an
 * integer converted; NaN unless it holds one, or col < 0), for code that
 * reads a table another part built. */
const char *table_str(const struct table *t, size_t row, long col);
double table_num(const struct table *t, size_t row, long col);

/* A cell's string: NULL unless it holds one. */
static inline const char *
table_cell_str(const struct table_cell *c)
{
	return c->type == CELL_STR ? c->str : NULL;
}

/* A cell's Markdown display text of table t, or NULL. */
static inline const char *
table_cell_display(const struct table *t, const struct table_cell *c)
{
	return c->display ? t->displays[c->display - 1] : NULL;
}

/* Copy cell (srow, scol) of src, value and display, to (row, col) of
 * dst (empty: all null). */
void table_copy_cell(struct table *dst, size_t row, size_t col,
    const struct table *src, size_t srow, size_t scol);

/* Render; returns 0 or -1 on a write error. */
int table_render(const struct table *t, enum table_format fmt, FILE *out);
void table_render_sb(const struct table *t, enum table_format fmt,
    struct strbuf *out);
/* CSV for spreadsheets (a report's tables/): text cells through
 * escape_csv_sheet (common/escape.h), numbers exact.  Returns how many cells it changed.
 * --format csv (scripts) stays exact: TABLE_CSV. */
size_t table_render_csv_sheet(const struct table *t, struct strbuf *out);
/* The table as a person reads it at a terminal (common/table_text.c):
 * aligned columns, numbers to the right, no Markdown escapes, control
 * characters made spaces, notes wrapped at 78 columns. */
void table_render_text(const struct table *t, struct strbuf *out);
/* The same, written to fp as it goes (table_flush(); fp NULL: all in
 * out). */
void table_render_text_to(const struct table *t, struct strbuf *out,
    FILE *fp, bool *err);
/* A renderer's line is done: with fp, out's text goes to it once out
 * holds min bytes or more (0: whatever it holds), so the text of a
 * table of 200 k rows is never all in memory at once; a short write
 * sets *err.  Without fp the text stays in out. */
void table_flush(struct strbuf *out, FILE *fp, size_t min, bool *err);
#define TABLE_FLUSH_AT	((size_t)64 * 1024)
/* A cell's shown text without Markdown escaping (the same words and
 * numbers render_md shows). */
void table_cell_text(const struct table *t, size_t r, size_t c,
    struct strbuf *sb);
/* Markdown of the table without the notes. */
void table_render_md_body(const struct table *t, struct strbuf *out);

/* Parse "text", "md", "csv" or "json"; -1 if none of them. */
int table_format_parse(const char *s, enum table_format *out);
/* The format when none is asked for: text when stdout is a terminal
 * (a person reads it), Markdown otherwise (a file, a pipe, a report). */
enum table_format table_format_default(void);

/* Format a number for Markdown with the given decimals (-1: up to 4
 * significant digits; -3: 3 significant digits, UNITS_SIG3). */
void md_number(struct strbuf *sb, double v, int decimals);

#endif
