/*
 * oha_btree.h - the rows of oha's table read straight from the pages of
 * the database image, for oha_sqlite.c: SQLite's own reader stepped
 * through each row with several calls a column, most of a parse of the
 * bench tree.  Only a plain, healthy table is read here; anything else
 * is left to SQLite, whose answer is the parser's.
 */
#ifndef PATHSTAT_INGEST_OHA_BTREE_H
#define PATHSTAT_INGEST_OHA_BTREE_H

#include "common/compat.h"

#include <stddef.h>
#include <stdint.h>

/* A column's value, as sqlite3_value_type() and its readers give it. */
struct oha_val {
	int	type;	/* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_NULL, or
			 * SQLITE_TEXT for text and blobs alike */
	int64_t	i;	/* SQLITE_INTEGER */
	double	d;	/* SQLITE_INTEGER (as a double) and SQLITE_FLOAT */
};

#define OHA_BTREE_MAX_COLS	4

/* Called for each row in table order with vals[k] the row's column
 * pos[k]; returns nothing, cannot fail. */
typedef void oha_btree_row_fn(void *arg, const struct oha_val *vals);

/*
 * Read every row of the rowid table whose b-tree has its root at page
 * root of the database image data[0..len): ncols columns a row, of
 * which the npos (<= OHA_BTREE_MAX_COLS) at record positions pos[] are
 * passed to row().  Returns 1 when every row was read, or 0 as soon as
 * something is not as a plain, healthy table has it (an overflowing
 * row, a page of another kind or out of bounds, a page seen twice, a
 * record shorter than the table, a reserved serial type, sizes that do
 * not add up): then the rows passed so far are to be dropped and the
 * table read by SQLite.  The image's header must have been accepted by
 * SQLite already.
 */
int oha_btree_scan(const unsigned char *data, size_t len, uint32_t root,
    int ncols, const int *pos, int npos, oha_btree_row_fn *row, void *arg);

struct parse_result;

/* ingest_parse_oha_sqlite() with every row read by SQLite: what the
 * tests compare the page reader with (oha_sqlite.c). */
int oha_sqlite_parse_by_sqlite(const char *buf, size_t len,
    struct parse_result *res);

#endif
