/*
 * oha_btree.c - oha's table read from the pages of the database image
 * (the SQLite file format, https://sqlite.org/fileformat2.html): the
 * table's b-tree walked in key order, which is the order of SQLite's
 * full scan, and each row's record decoded in place.  It accepts less
 * than SQLite does, never more: every check SQLite makes on the way
 * (page kinds and bounds, cell counts, the depth of the tree, record
 * header sizes) is made here too, and whatever SQLite would find odd,
 * or that this reader does not handle (overflow pages, a record shorter
 * than the table, reserved serial types), makes it give up, so that
 * the caller reads the table with SQLite instead.
 */
#include "common/compat.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "ingest/oha_btree.h"

/* SQLite's BTCURSOR_MAX_DEPTH: a deeper tree is corrupt to it. */
#define BT_MAX_DEPTH	19

struct bt {
	const unsigned char	*data;	/* the image, borrowed */
	uint32_t	pagesize, usable, npages, root;
	unsigned char	*seen;		/* owned: a bit a page */
	int		ncols;
	signed char	*slot;		/* owned: ncols entries, the index
					 * into pos[] of each record position,
					 * or -1 */
	oha_btree_row_fn	*row;
	void		*arg;
};

static uint32_t
be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* An SQLite varint at p (before end) into *out; its length, or 0 if it
 * runs past end. */
static inline size_t
varint(const unsigned char *p, const unsigned char *end, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	/* nearly every varint of oha's rows is one byte */
	if (p < end && !(p[0] & 0x80)) {
		*out = p[0];
		return 1;
	}
	for (i = 0; i < 8; i++) {
		if (p + i >= end)
			return 0;
		v = (v << 7) | (p[i] & 0x7f);
		if (!(p[i] & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	if (p + 8 >= end)
		return 0;
	*out = (v << 8) | p[8];
	return 9;
}

/* The big-endian two's-complement integer of n (1..8) bytes at p, in
 * whole-word shifts the compiler turns into a byte swap: the loop of a
 * byte a step was a third of reading oha's rows. */
static inline int64_t
be_int(const unsigned char *p, size_t n)
{
	uint64_t v;
	size_t i;

	switch (n) {
	case 8:
		return (int64_t)((uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 |
		    (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
		    (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
		    (uint64_t)p[6] << 8 | (uint64_t)p[7]);
	case 1:
		return (int8_t)p[0];
	case 2:
		return (int16_t)(uint16_t)((unsigned)p[0] << 8 | p[1]);
	default:
		v = (p[0] & 0x80) ? UINT64_MAX : 0;
		for (i = 0; i < n; i++)
			v = (v << 8) | p[i];
		return (int64_t)v;
	}
}

/* The value of serial type t at p (its n bytes checked by the caller). */
static void
decode(uint64_t t, const unsigned char *p, struct oha_val *v)
{
	static const size_t ilen[] = { 0, 1, 2, 3, 4, 6, 8 };
	uint64_t u;

	memset(v, 0, sizeof(*v));
	if (t == 0) {
		v->type = SQLITE_NULL;
	} else if (t <= 6 || t == 8 || t == 9) {
		v->type = SQLITE_INTEGER;
		v->i = t == 8 ? 0 : t == 9 ? 1 : be_int(p, ilen[t]);
		v->d = (double)v->i;
	} else if (t == 7) {
		u = (uint64_t)be_int(p, 8);
		memcpy(&v->d, &u, sizeof(v->d));
		/* SQLite reads a stored NaN as NULL */
		v->type = v->d != v->d ? SQLITE_NULL : SQLITE_FLOAT;
		if (v->type == SQLITE_NULL)
			v->d = 0;
	} else {
		v->type = SQLITE_TEXT;
	}
}

/* The bytes of serial type t's value; 0 for a reserved type, which
 * *bad flags. */
static uint64_t
serial_len(uint64_t t, bool *bad)
{
	static const uint64_t len[] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0 };

	if (t < 10)
		return len[t];
	if (t < 12) {
		*bad = true;
		return 0;
	}
	return (t - 12) / 2;
}

/* Decode the record of payload size n at p and pass the row on; 0 if it
 * is not whole and as the table has it. */
static int
bt_record(struct bt *b, const unsigned char *p, uint64_t n)
{
	struct oha_val vals[OHA_BTREE_MAX_COLS];
	const unsigned char *h, *hend, *end = p + n;
	uint64_t hsize, t, off;
	bool bad = false;
	size_t k;
	int col;

	k = varint(p, end, &hsize);
	if (!k || hsize > n || hsize < k)
		return 0;
	h = p + k;
	hend = p + hsize;
	off = hsize;
	for (col = 0; h < hend; col++) {
		uint64_t sz;

		k = varint(h, hend, &t);
		if (!k)
			return 0;
		h += k;
		sz = serial_len(t, &bad);
		if (bad || sz > n - off)
			return 0;
		if (col < b->ncols && b->slot[col] >= 0)
			decode(t, p + off, &vals[b->slot[col]]);
		off += sz;
	}
	/* a short record would take its last columns' defaults from the
	 * schema, and SQLite calls a record whose values do not end where
	 * its payload does corrupt */
	if (col < b->ncols || off != n)
		return 0;
	b->row(b->arg, vals);
	return 1;
}

/* Walk the b-tree page pgno, depth levels below the root. */
static int
bt_page(struct bt *b, uint32_t pgno, int depth)
{
	const unsigned char *pg, *ph;
	uint32_t hdr, ncell, first, i, off;
	bool leaf;

	if (depth > BT_MAX_DEPTH || pgno < 1 || pgno > b->npages ||
	    (b->seen[(pgno - 1) / 8] & (1u << ((pgno - 1) % 8))))
		return 0;
	b->seen[(pgno - 1) / 8] |= (unsigned char)(1u << ((pgno - 1) % 8));
	pg = b->data + (size_t)(pgno - 1) * b->pagesize;
	hdr = pgno == 1 ? 100 : 0;
	ph = pg + hdr;
	if (ph[0] != 0x0d && ph[0] != 0x05)
		return 0;	/* not a table b-tree page */
	leaf = ph[0] == 0x0d;
	ncell = be16(ph + 3);
	first = hdr + (leaf ? 8 : 12) + 2 * ncell;
	if (ncell > (b->pagesize - 8) / 6 || first > b->usable ||
	    (ncell < 1 && (pgno != b->root || !leaf)))
		return 0;
	for (i = 0; i < ncell; i++) {
		off = be16(ph + (leaf ? 8 : 12) + 2 * i);
		if (off < first || off > b->usable - 4)
			return 0;
		if (leaf) {
			const unsigned char *c = pg + off, *end = pg + b->usable;
			uint64_t n, rowid;
			size_t k1, k2;

			k1 = varint(c, end, &n);
			k2 = k1 ? varint(c + k1, end, &rowid) : 0;
			if (!k2 || n > b->usable - 35 ||
			    n > (uint64_t)(end - (c + k1 + k2)))
				return 0;	/* overflows, or past the page */
			if (!bt_record(b, c + k1 + k2, n))
				return 0;
		} else if (!bt_page(b, be32(pg + off), depth + 1)) {
			return 0;
		}
	}
	return leaf || bt_page(b, be32(ph + 8), depth + 1);
}

int
oha_btree_scan(const unsigned char *data, size_t len, uint32_t root,
    int ncols, const int *pos, int npos, oha_btree_row_fn *row, void *arg)
{
	struct bt b;
	uint32_t hdr_pages;
	int ok, j;

	memset(&b, 0, sizeof(b));
	if (len < 100 || npos > OHA_BTREE_MAX_COLS || ncols < 1)
		return 0;
	for (j = 0; j < npos; j++)
		if (pos[j] < 0 || pos[j] >= ncols)
			return 0;
	b.pagesize = be16(data + 16);
	if (b.pagesize == 1)
		b.pagesize = 65536;
	if (b.pagesize < 512 || b.pagesize > 65536 ||
	    (b.pagesize & (b.pagesize - 1)) || len % b.pagesize ||
	    data[20] > b.pagesize - 480 || data[21] != 64 || data[22] != 32 ||
	    data[23] != 32 || len / b.pagesize > UINT32_MAX)
		return 0;
	b.usable = b.pagesize - data[20];
	b.npages = (uint32_t)(len / b.pagesize);
	/* the page count SQLite would use: the header's when it is valid */
	hdr_pages = be32(data + 28);
	if (hdr_pages && !memcmp(data + 24, data + 92, 4) &&
	    hdr_pages != b.npages)
		return 0;
	b.data = data;
	b.root = root;
	b.ncols = ncols;
	b.slot = xmalloc((size_t)ncols);
	memset(b.slot, -1, (size_t)ncols);
	for (j = 0; j < npos; j++) {
		if (b.slot[pos[j]] >= 0) {
			free(b.slot);
			return 0;	/* a column asked for twice */
		}
		b.slot[pos[j]] = (signed char)j;
	}
	b.row = row;
	b.arg = arg;
	b.seen = xcalloc(b.npages / 8 + 1, 1);
	ok = bt_page(&b, root, 0);
	free(b.seen);
	free(b.slot);
	return ok;
}
