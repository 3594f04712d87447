/*
 * parquet.c - the Parquet writer (see parquet.h): page buffers per
 * column, encoded and compressed as they fill; column chunks kept in
 * memory until their row group is written; the footer at the end.
 * Numbers in comments such as "PageHeader 5" are parquet.thrift field ids.
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>
#include <zlib.h>
#include <zstd.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "export/encode.h"
#include "export/parquet.h"
#include "export/parquet_stats.h"
#include "export/thrift.h"

/* parquet.thrift enums */
enum {
	PT_INT64 = 2, PT_DOUBLE = 5, PT_BYTE_ARRAY = 6,		/* Type */
	REP_REQUIRED = 0, REP_OPTIONAL = 1,	/* FieldRepetitionType */
	CT_UTF8 = 0, CT_TIMESTAMP_MICROS = 10,		/* ConvertedType */
	PAGE_DATA = 0, PAGE_DICTIONARY = 2,		/* PageType */
	CODEC_UNCOMPRESSED = 0, CODEC_GZIP = 2, CODEC_ZSTD = 6
};
enum pq_enc {				/* Encoding */
	ENC_PLAIN = 0,
	ENC_RLE = 3,
	ENC_DELTA_BINARY_PACKED = 5,
	ENC_RLE_DICTIONARY = 8,
	ENC_BYTE_STREAM_SPLIT = 9
};

#define PQ_MAGIC		"PAR1"
#define PQ_PAGE_VALUES		(128 * 1024)
#define PQ_PAGE_BYTES		(1024 * 1024)
#define PQ_DICT_BYTES		(1024 * 1024)
#define PQ_ROW_GROUP_BYTES	(64 * 1024 * 1024)
#define PQ_DEFAULT_ZSTD		3
#define PQ_DEFAULT_GZIP		6

/* A chunk's dictionary: distinct strings in first-seen order. */
struct pq_dict {
	struct strbuf	plain;		/* entries, PLAIN: the page's body */
	size_t		*off;		/* entry i at plain.buf + off[i] */
	uint64_t	*hash;		/* entry i's hash */
	size_t		n, alloc;	/* entries */
	uint32_t	*slots;		/* open addressing: entry + 1; 0 free */
	size_t		nslots;		/* a power of two, > 2 n */
};

/* One column's state: the page being filled and the chunk so far. */
struct pq_col {
	struct pq_column def;
	/* the current page */
	size_t		nvals;		/* values, nulls included */
	size_t		nnon;		/* non-null values */
	unsigned char	*levels;	/* definition levels (if optional) */
	int64_t		*i64;		/* non-null values (INT64, TIMESTAMP) */
	double		*f64;		/* non-null values (DOUBLE) */
	uint32_t	*idx;		/* dictionary indices (strings) */
	struct strbuf	plain;		/* PLAIN strings (no dictionary) */
	struct pq_stats	page;		/* its statistics, nulls aside */
	/* the column chunk of the current row group */
	struct pq_dict	dict;
	bool		dict_on;	/* new pages use the dictionary */
	bool		dict_used;	/* some page used it: write it */
	int		dbl_enc;	/* double encoding; -1 = not yet */
	struct strbuf	pages;		/* data pages: headers and bodies */
	uint64_t	uncompressed;	/* pages with uncompressed bodies */
	uint64_t	nvalues;	/* values, nulls included */
	uint64_t	nulls;
	struct pq_stats	chunk;		/* its pages' statistics merged */
	unsigned	encodings;	/* 1 << enum pq_enc, each one used */
	uint64_t	total;		/* values appended to the file */
};

/* A written column chunk, as the footer describes it. */
struct pq_chunk_meta {
	int64_t		data_off;	/* first data page */
	int64_t		dict_off;	/* dictionary page, -1 = none */
	int64_t		compressed, uncompressed;	/* headers included */
	int64_t		nvalues;
	unsigned	encodings;
	struct pq_stat_bytes st;
};

struct pq_row_group {
	struct pq_chunk_meta *chunks;	/* ncols of them; owned */
	int64_t		rows;
	int64_t		offset;		/* first page */
	int64_t		compressed, uncompressed;
};

struct pq_writer {
	FILE		*fp;		/* borrowed */
	char		*path;		/* for messages; owned */
	struct pq_col	*cols;
	size_t		ncols;
	struct pq_options o;
	uint64_t	pos;		/* bytes written */
	uint64_t	rows;		/* rows completed (pq_end_rows) */
	uint64_t	rg_rows;	/* of them in the open row group */
	struct pq_row_group *rgs;
	size_t		nrgs, rgs_alloc;
	ZSTD_CCtx	*zc;
	XXH3_state_t	*hs;		/* hash of the bytes written */
	struct strbuf	body, body2, comp, comp2, head;	/* scratch */
	uint32_t	*lv32;		/* scratch: levels widened */
	bool		failed;		/* a write failed: everything stops */
};

int
pq_codec_parse(const char *s, enum pq_codec *out)
{
	if (!strcmp(s, "zstd"))
		*out = PQ_CODEC_ZSTD;
	else if (!strcmp(s, "gzip"))
		*out = PQ_CODEC_GZIP;
	else if (!strcmp(s, "none"))
		*out = PQ_CODEC_NONE;
	else
		return -1;
	return 0;
}

const char *
pq_codec_name(enum pq_codec c)
{
	switch (c) {
	case PQ_CODEC_ZSTD:
		return "zstd";
	case PQ_CODEC_GZIP:
		return "gzip";
	case PQ_CODEC_NONE:
		break;
	}
	return "none";
}

static int
codec_id(enum pq_codec c)
{
	switch (c) {
	case PQ_CODEC_ZSTD:
		return CODEC_ZSTD;
	case PQ_CODEC_GZIP:
		return CODEC_GZIP;
	case PQ_CODEC_NONE:
		break;
	}
	return CODEC_UNCOMPRESSED;
}

/* ---------------------------------------------------------------------
 * Output
 */

static int
write_bytes(struct pq_writer *w, const void *p, size_t len)
{
	if (w->failed)
		return -1;
	if (len && fwrite(p, 1, len, w->fp) != len) {
		w->failed = true;
		return error_errno("cannot write '%s'", w->path);
	}
	XXH3_128bits_update(w->hs, p, len);
	w->pos += len;
	return 0;
}

/*
 * Compress src into dst (reset first).  Returns 0, or -1 after an error
 * (which only a library failure can cause).
 */
static int
compress_page(struct pq_writer *w, const struct strbuf *src,
    struct strbuf *dst)
{
	strbuf_reset(dst);
	if (w->o.codec == PQ_CODEC_ZSTD) {
		size_t cap = ZSTD_compressBound(src->len), n;

		strbuf_grow(dst, cap);
		n = ZSTD_compressCCtx(w->zc, dst->buf, cap, src->buf, src->len,
		    w->o.level);
		if (ZSTD_isError(n))
			return error("zstd: %s", ZSTD_getErrorName(n));
		strbuf_setlen(dst, n);
	} else if (w->o.codec == PQ_CODEC_GZIP) {
		z_stream zs;
		int rc;

		memset(&zs, 0, sizeof(zs));
		/* 15 + 16: a gzip member (RFC 1952), not a zlib stream */
		if (deflateInit2(&zs, w->o.level, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			return error("zlib: deflateInit2 failed");
		strbuf_grow(dst, deflateBound(&zs, (uLong)src->len) + 32);
		zs.next_in = (Bytef *)src->buf;
		zs.avail_in = (uInt)src->len;
		zs.next_out = (Bytef *)dst->buf;
		zs.avail_out = (uInt)(dst->alloc - 1);
		rc = deflate(&zs, Z_FINISH);
		strbuf_setlen(dst, zs.total_out);
		deflateEnd(&zs);
		if (rc != Z_STREAM_END)
			return error("zlib: deflate: %d", rc);
	} else {
		strbuf_add(dst, src->buf, src->len);
	}
	return 0;
}

/* Append a PageHeader to head: a data page's when st is given (its
 * statistics, of a column of type), else a dictionary page's. */
static void
page_header(struct strbuf *head, int type, size_t uncompressed,
    size_t compressed, size_t nvalues, int encoding, enum pq_type ctype,
    const struct pq_stat_bytes *st)
{
	struct thrift_writer tw;

	thrift_writer_init(&tw, head);
	thrift_struct_begin(&tw);
	thrift_field_i32(&tw, 1, type);
	thrift_field_i32(&tw, 2, (int32_t)uncompressed);
	thrift_field_i32(&tw, 3, (int32_t)compressed);
	if (!st) {
		thrift_field_struct(&tw, 7);	/* DictionaryPageHeader */
		thrift_field_i32(&tw, 1, (int32_t)nvalues);
		thrift_field_i32(&tw, 2, ENC_PLAIN);
		thrift_struct_end(&tw);
	} else {
		thrift_field_struct(&tw, 5);	/* DataPageHeader */
		thrift_field_i32(&tw, 1, (int32_t)nvalues);
		thrift_field_i32(&tw, 2, encoding);
		thrift_field_i32(&tw, 3, ENC_RLE);	/* definition levels */
		thrift_field_i32(&tw, 4, ENC_RLE);	/* repetition levels */
		pq_stats_write(&tw, 5, ctype, st);
		thrift_struct_end(&tw);
	}
	thrift_struct_end(&tw);
}

/* ---------------------------------------------------------------------
 * Dictionary
 */

static void
dict_release(struct pq_dict *d)
{
	strbuf_release(&d->plain);
	free(d->off);
	free(d->hash);
	free(d->slots);
	memset(d, 0, sizeof(*d));
	strbuf_init(&d->plain, 0);
}

static void
dict_rehash(struct pq_dict *d, size_t nslots)
{
	size_t i, j;

	free(d->slots);
	d->slots = xcalloc(nslots, sizeof(*d->slots));
	d->nslots = nslots;
	for (i = 0; i < d->n; i++) {
		j = (size_t)d->hash[i] & (nslots - 1);
		while (d->slots[j])
			j = (j + 1) & (nslots - 1);
		d->slots[j] = (uint32_t)(i + 1);
	}
}

/* The entry holding s, or -1 with *slot where it would go. */
static long
dict_find(const struct pq_dict *d, const char *s, size_t len, uint64_t h,
    size_t *slot)
{
	size_t j = (size_t)h & (d->nslots - 1), e;
	const unsigned char *p;
	uint32_t elen;

	while (d->slots[j]) {
		e = d->slots[j] - 1;
		if (d->hash[e] == h) {
			p = (const unsigned char *)d->plain.buf + d->off[e];
			elen = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
			    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
			if (elen == len && !memcmp(p + 4, s, len))
				return (long)e;
		}
		j = (j + 1) & (d->nslots - 1);
	}
	*slot = j;
	return -1;
}

/* ---------------------------------------------------------------------
 * Pages
 */

/* Encode the page's values (not the levels) into out with enc. */
static void
encode_values(const struct pq_col *c, int enc, struct strbuf *out)
{
	int bw;

	switch (c->def.type) {
	case PQ_INT64:
	case PQ_TIMESTAMP_US:
		if (enc == ENC_DELTA_BINARY_PACKED)
			enc_delta_int64(out, c->i64, c->nnon);
		else
			enc_plain_int64(out, c->i64, c->nnon);
		break;
	case PQ_DOUBLE:
		if (enc == ENC_BYTE_STREAM_SPLIT)
			enc_bss_double(out, c->f64, c->nnon);
		else
			enc_plain_double(out, c->f64, c->nnon);
		break;
	case PQ_STRING:
		if (enc == ENC_RLE_DICTIONARY) {
			bw = enc_bit_width(c->dict.n ? c->dict.n - 1 : 0);
			if (bw < 1)
				bw = 1;
			strbuf_addch(out, bw);
			enc_rle_hybrid(out, c->idx, c->nnon, bw);
		} else {
			strbuf_add(out, c->plain.buf, c->plain.len);
		}
		break;
	}
}

/* The encoding of the page being flushed. */
static int
page_encoding(struct pq_writer *w, struct pq_col *c)
{
	switch (c->def.type) {
	case PQ_INT64:
	case PQ_TIMESTAMP_US:
		return w->o.plain ? ENC_PLAIN : ENC_DELTA_BINARY_PACKED;
	case PQ_STRING:
		return c->dict_on ? ENC_RLE_DICTIONARY : ENC_PLAIN;
	case PQ_DOUBLE:
		break;
	}
	if (w->o.plain || w->o.codec == PQ_CODEC_NONE)
		return ENC_PLAIN;
	if (c->dbl_enc < 0 && c->nnon) {
		/* the chunk's first page decides: compress both ways */
		strbuf_reset(&w->body2);
		enc_plain_double(&w->body2, c->f64, c->nnon);
		if (compress_page(w, &w->body2, &w->comp))
			return -1;
		strbuf_reset(&w->body2);
		enc_bss_double(&w->body2, c->f64, c->nnon);
		if (compress_page(w, &w->body2, &w->comp2))
			return -1;
		c->dbl_enc = w->comp2.len < w->comp.len ?
		    ENC_BYTE_STREAM_SPLIT : ENC_PLAIN;
	}
	return c->dbl_enc < 0 ? ENC_PLAIN : c->dbl_enc;
}

static int page_flush_1(struct pq_writer *w, struct pq_col *c);

/* Encode, compress and append the current page to the chunk; a failure
 * stops the writer. */
static int
page_flush(struct pq_writer *w, struct pq_col *c)
{
	if (w->failed)
		return -1;
	if (page_flush_1(w, c)) {
		w->failed = true;
		return -1;
	}
	return 0;
}

static int
page_flush_1(struct pq_writer *w, struct pq_col *c)
{
	struct pq_stat_bytes st;
	size_t i, lenpos;
	int enc;

	if (!c->nvals)
		return 0;
	strbuf_reset(&w->body);
	strbuf_reset(&w->head);
	if (c->def.optional) {
		for (i = 0; i < c->nvals; i++)
			w->lv32[i] = c->levels[i];
		/* data page v1: levels carry a 4-byte length */
		lenpos = w->body.len;
		strbuf_add(&w->body, "\0\0\0\0", 4);
		enc_rle_hybrid(&w->body, w->lv32, c->nvals, 1);
		enc_put_le32((unsigned char *)w->body.buf + lenpos,
		    (uint32_t)(w->body.len - lenpos - 4));
		c->encodings |= 1u << ENC_RLE;
	}
	enc = page_encoding(w, c);
	if (enc < 0)
		return -1;
	encode_values(c, enc, &w->body);
	if (enc == ENC_RLE_DICTIONARY)
		c->dict_used = true;
	if (w->body.len > INT32_MAX)
		return error("'%s': a page of %zu bytes is too large", w->path,
		    w->body.len);
	if (compress_page(w, &w->body, &w->comp))
		return -1;
	pq_stats_bytes(&c->page, c->def.type, c->nvals - c->nnon, &st);
	page_header(&w->head, PAGE_DATA, w->body.len, w->comp.len, c->nvals,
	    enc, c->def.type, &st);
	pq_stat_bytes_release(&st);
	pq_stats_merge(&c->chunk, &c->page, c->def.type);
	pq_stats_reset(&c->page);
	strbuf_add(&c->pages, w->head.buf, w->head.len);
	strbuf_add(&c->pages, w->comp.buf, w->comp.len);
	c->uncompressed += w->head.len + w->body.len;
	c->encodings |= 1u << enc;
	c->nvalues += c->nvals;
	c->nvals = c->nnon = 0;
	strbuf_reset(&c->plain);
	return 0;
}

/* Make room for one more value in c's page. */
static int
page_room(struct pq_writer *w, struct pq_col *c)
{
	if (c->nvals >= w->o.page_values ||
	    (c->def.type == PQ_STRING && c->plain.len >= w->o.page_bytes))
		return page_flush(w, c);
	return 0;
}

/* ---------------------------------------------------------------------
 * Row groups
 */

static void
chunk_meta_release(struct pq_chunk_meta *m)
{
	pq_stat_bytes_release(&m->st);
}

static void
chunk_reset(struct pq_col *c)
{
	dict_release(&c->dict);
	c->dict_on = c->def.type == PQ_STRING && !c->def.unique;
	c->dict_used = false;
	c->dbl_enc = -1;
	strbuf_reset(&c->pages);
	c->uncompressed = 0;
	c->nvalues = c->nulls = 0;
	pq_stats_reset(&c->chunk);
	c->encodings = 0;
}

/* Write the buffered row group (if it has rows). */
static int
row_group_flush(struct pq_writer *w)
{
	struct pq_row_group *rg;
	struct pq_chunk_meta *m;
	struct pq_col *c;
	size_t i;

	if (w->failed)
		return -1;
	if (!w->rg_rows)
		return 0;
	for (i = 0; i < w->ncols; i++)
		if (page_flush(w, &w->cols[i]))
			return -1;
	ALLOC_GROW(w->rgs, w->nrgs + 1, w->rgs_alloc);
	rg = &w->rgs[w->nrgs++];
	memset(rg, 0, sizeof(*rg));
	rg->chunks = xcalloc(w->ncols, sizeof(*rg->chunks));
	rg->rows = (int64_t)w->rg_rows;
	rg->offset = (int64_t)w->pos;
	for (i = 0; i < w->ncols; i++) {
		c = &w->cols[i];
		m = &rg->chunks[i];
		m->dict_off = -1;
		if (c->dict_used) {
			/* the dictionary page comes first in its chunk */
			m->dict_off = (int64_t)w->pos;
			if (compress_page(w, &c->dict.plain, &w->comp)) {
				w->failed = true;
				return -1;
			}
			strbuf_reset(&w->head);
			page_header(&w->head, PAGE_DICTIONARY,
			    c->dict.plain.len, w->comp.len, c->dict.n,
			    ENC_PLAIN, c->def.type, NULL);
			if (write_bytes(w, w->head.buf, w->head.len) ||
			    write_bytes(w, w->comp.buf, w->comp.len))
				return -1;
			m->compressed += (int64_t)(w->head.len + w->comp.len);
			m->uncompressed += (int64_t)(w->head.len +
			    c->dict.plain.len);
			c->encodings |= 1u << ENC_PLAIN;
		}
		m->data_off = (int64_t)w->pos;
		if (write_bytes(w, c->pages.buf, c->pages.len))
			return -1;
		m->compressed += (int64_t)c->pages.len;
		m->uncompressed += (int64_t)c->uncompressed;
		m->nvalues = (int64_t)c->nvalues;
		m->encodings = c->encodings;
		pq_stats_bytes(&c->chunk, c->def.type, c->nulls, &m->st);
		rg->compressed += m->compressed;
		rg->uncompressed += m->uncompressed;
		chunk_reset(c);
	}
	w->rg_rows = 0;
	return 0;
}

/* Bytes the unwritten row group would take now (roughly). */
static uint64_t
row_group_bytes(const struct pq_writer *w)
{
	const struct pq_col *c;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < w->ncols; i++) {
		c = &w->cols[i];
		n += c->pages.len + c->dict.plain.len + c->plain.len +
		    c->nnon * (c->def.type == PQ_STRING ? 1 : 8) / 4;
	}
	return n;
}

/* ---------------------------------------------------------------------
 * Appending
 */

static struct pq_col *
column(struct pq_writer *w, size_t col, enum pq_type t1, enum pq_type t2)
{
	struct pq_col *c;

	if (col >= w->ncols)
		BUG("parquet: column %zu of %zu", col, w->ncols);
	c = &w->cols[col];
	if (c->def.type != t1 && c->def.type != t2)
		BUG("parquet: column '%s' has another type", c->def.name);
	return c;
}

/* Values c's page can take before it must be flushed (at least 1 after
 * page_room()). */
static size_t
page_left(const struct pq_writer *w, const struct pq_col *c)
{
	return w->o.page_values - c->nvals;
}

/* Count k values of the page as nulls (null) or values. */
static void
add_levels(struct pq_col *c, size_t k, bool null)
{
	if (null && !c->def.optional)
		BUG("parquet: null in required column '%s'", c->def.name);
	if (c->def.optional)
		memset(c->levels + c->nvals, null ? 0 : 1, k);
	if (null)
		c->nulls += k;
	else
		c->nnon += k;
	c->nvals += k;
	c->total += k;
}

void
pq_add_int64(struct pq_writer *w, size_t col, const int64_t *v,
    const unsigned char *isnull, size_t n)
{
	struct pq_col *c = column(w, col, PQ_INT64, PQ_TIMESTAMP_US);
	size_t i, k, j;

	for (i = 0; i < n; i += k) {
		if (page_room(w, c))
			return;
		k = page_left(w, c);
		if (k > n - i)
			k = n - i;
		for (j = 0; j < k; j++) {
			if (isnull && isnull[i + j]) {
				add_levels(c, 1, true);
				continue;
			}
			c->i64[c->nnon] = v[i + j];
			pq_stat_i64(&c->page, v[i + j]);
			add_levels(c, 1, false);
		}
	}
}

void
pq_add_int64_rep(struct pq_writer *w, size_t col, int64_t v, bool null,
    size_t n)
{
	struct pq_col *c = column(w, col, PQ_INT64, PQ_TIMESTAMP_US);
	size_t i, k, j;

	for (i = 0; i < n; i += k) {
		if (page_room(w, c))
			return;
		k = page_left(w, c);
		if (k > n - i)
			k = n - i;
		if (!null) {
			pq_stat_i64(&c->page, v);
			for (j = 0; j < k; j++)
				c->i64[c->nnon + j] = v;
		}
		add_levels(c, k, null);
	}
}

void
pq_add_double(struct pq_writer *w, size_t col, const double *v,
    const unsigned char *isnull, size_t n)
{
	struct pq_col *c = column(w, col, PQ_DOUBLE, PQ_DOUBLE);
	size_t i, k, j;

	for (i = 0; i < n; i += k) {
		if (page_room(w, c))
			return;
		k = page_left(w, c);
		if (k > n - i)
			k = n - i;
		for (j = 0; j < k; j++) {
			if (isnull && isnull[i + j]) {
				add_levels(c, 1, true);
				continue;
			}
			c->f64[c->nnon] = v[i + j];
			pq_stat_f64(&c->page, v[i + j]);
			add_levels(c, 1, false);
		}
	}
}

/* The dictionary index of s, adding it; -1 when the dictionary is full
 * (the chunk then goes on in PLAIN). */
static long
dict_index(struct pq_writer *w, struct pq_col *c, const char *s, size_t len)
{
	struct pq_dict *d = &c->dict;
	uint64_t h = XXH3_64bits(s, len);
	size_t slot = 0;
	long e;

	if (!d->nslots)
		dict_rehash(d, 64);
	e = dict_find(d, s, len, h, &slot);
	if (e >= 0)
		return e;
	if (d->plain.len + 4 + len > w->o.dict_bytes || d->n >= INT32_MAX)
		return -1;
	if (d->n == d->alloc) {
		ALLOC_GROW(d->off, d->n + 1, d->alloc);
		d->hash = xreallocarray(d->hash, d->alloc, sizeof(*d->hash));
	}
	d->off[d->n] = d->plain.len;
	d->hash[d->n] = h;
	enc_plain_bytes(&d->plain, s, len);
	d->slots[slot] = (uint32_t)(d->n + 1);
	d->n++;
	if (2 * d->n >= d->nslots)
		dict_rehash(d, 2 * d->nslots);
	return (long)(d->n - 1);
}

void
pq_add_str_rep(struct pq_writer *w, size_t col, const char *s, size_t len,
    size_t n)
{
	struct pq_col *c = column(w, col, PQ_STRING, PQ_STRING);
	long e = -1;
	size_t i, k, j, room;

	if (!n || w->failed)
		return;
	if (len > INT32_MAX)
		die("parquet: a string of %zu bytes", len);
	if (s && c->dict_on) {
		e = dict_index(w, c, s, len);
		if (e < 0) {
			/* pages are all dictionary or all PLAIN */
			if (page_flush(w, c))
				return;
			c->dict_on = false;
		}
	}
	for (i = 0; i < n; i += k) {
		if (page_room(w, c))
			return;
		k = page_left(w, c);
		if (k > n - i)
			k = n - i;
		if (!s) {
			add_levels(c, k, true);
			continue;
		}
		pq_stat_str(&c->page, s, len);
		if (c->dict_on) {
			for (j = 0; j < k; j++)
				c->idx[c->nnon + j] = (uint32_t)e;
		} else {
			/* PLAIN pages end near page_bytes */
			room = (w->o.page_bytes - c->plain.len) / (4 + len);
			if (k > room)
				k = room ? room : 1;
			for (j = 0; j < k; j++)
				enc_plain_bytes(&c->plain, s, len);
		}
		add_levels(c, k, false);
	}
}

int
pq_end_rows(struct pq_writer *w)
{
	uint64_t n = w->cols[0].total;
	size_t i;

	if (w->failed)
		return -1;
	for (i = 1; i < w->ncols; i++)
		if (w->cols[i].total != n)
			BUG("parquet: column '%s' has %llu values, '%s' %llu",
			    w->cols[i].def.name,
			    (unsigned long long)w->cols[i].total,
			    w->cols[0].def.name, (unsigned long long)n);
	w->rg_rows += n - w->rows;
	w->rows = n;
	if (row_group_bytes(w) >= w->o.row_group_bytes)
		return row_group_flush(w);
	return 0;
}

/* ---------------------------------------------------------------------
 * Footer
 */

static void
footer_schema(struct thrift_writer *tw, const struct pq_writer *w)
{
	const struct pq_column *d;
	size_t i;

	thrift_field_list(tw, 2, THRIFT_STRUCT, w->ncols + 1);
	thrift_elem_struct(tw);			/* the root */
	thrift_field_string(tw, 4, "schema");
	thrift_field_i32(tw, 5, (int32_t)w->ncols);
	thrift_struct_end(tw);
	for (i = 0; i < w->ncols; i++) {
		d = &w->cols[i].def;
		thrift_elem_struct(tw);
		thrift_field_i32(tw, 1, d->type == PQ_DOUBLE ? PT_DOUBLE :
		    d->type == PQ_STRING ? PT_BYTE_ARRAY : PT_INT64);
		thrift_field_i32(tw, 3, d->optional ? REP_OPTIONAL :
		    REP_REQUIRED);
		thrift_field_string(tw, 4, d->name);
		if (d->type == PQ_STRING) {
			thrift_field_i32(tw, 6, CT_UTF8);
			thrift_field_struct(tw, 10);	/* LogicalType */
			thrift_field_struct(tw, 1);	/* STRING */
			thrift_struct_end(tw);
			thrift_struct_end(tw);
		} else if (d->type == PQ_TIMESTAMP_US) {
			thrift_field_i32(tw, 6, CT_TIMESTAMP_MICROS);
			thrift_field_struct(tw, 10);	/* LogicalType */
			thrift_field_struct(tw, 8);	/* TIMESTAMP */
			thrift_field_bool(tw, 1, true);	/* isAdjustedToUTC */
			thrift_field_struct(tw, 2);	/* unit */
			thrift_field_struct(tw, 2);	/* MICROS */
			thrift_struct_end(tw);
			thrift_struct_end(tw);
			thrift_struct_end(tw);
			thrift_struct_end(tw);
		}
		thrift_struct_end(tw);
	}
}

static void
footer_chunk(struct thrift_writer *tw, const struct pq_column *d,
    const struct pq_chunk_meta *m, enum pq_codec codec)
{
	size_t n = 0;
	unsigned bit;

	thrift_elem_struct(tw);			/* ColumnChunk */
	thrift_field_i64(tw, 2, 0);		/* file_offset (deprecated) */
	thrift_field_struct(tw, 3);		/* ColumnMetaData */
	thrift_field_i32(tw, 1, d->type == PQ_DOUBLE ? PT_DOUBLE :
	    d->type == PQ_STRING ? PT_BYTE_ARRAY : PT_INT64);
	for (bit = 0; bit < 16; bit++)
		if (m->encodings & (1u << bit))
			n++;
	thrift_field_list(tw, 2, THRIFT_I32, n);
	for (bit = 0; bit < 16; bit++)
		if (m->encodings & (1u << bit))
			thrift_elem_i32(tw, (int32_t)bit);
	thrift_field_list(tw, 3, THRIFT_BINARY, 1);
	thrift_elem_string(tw, d->name);
	thrift_field_i32(tw, 4, codec_id(codec));
	thrift_field_i64(tw, 5, m->nvalues);
	thrift_field_i64(tw, 6, m->uncompressed);
	thrift_field_i64(tw, 7, m->compressed);
	thrift_field_i64(tw, 9, m->data_off);
	if (m->dict_off >= 0)
		thrift_field_i64(tw, 11, m->dict_off);
	pq_stats_write(tw, 12, d->type, &m->st);
	thrift_struct_end(tw);			/* ColumnMetaData */
	thrift_struct_end(tw);			/* ColumnChunk */
}

int
pq_finish(struct pq_writer *w, const struct pq_kv *kv, size_t nkv)
{
	struct strbuf foot = STRBUF_INIT;
	struct thrift_writer tw;
	unsigned char len[4];
	size_t i, j;
	int ret = -1;

	if (pq_end_rows(w) || row_group_flush(w))
		goto cleanup;
	thrift_writer_init(&tw, &foot);
	thrift_struct_begin(&tw);		/* FileMetaData */
	thrift_field_i32(&tw, 1, 1);		/* version */
	footer_schema(&tw, w);
	thrift_field_i64(&tw, 3, (int64_t)w->rows);
	thrift_field_list(&tw, 4, THRIFT_STRUCT, w->nrgs);
	for (i = 0; i < w->nrgs; i++) {
		const struct pq_row_group *rg = &w->rgs[i];

		thrift_elem_struct(&tw);	/* RowGroup */
		thrift_field_list(&tw, 1, THRIFT_STRUCT, w->ncols);
		for (j = 0; j < w->ncols; j++)
			footer_chunk(&tw, &w->cols[j].def, &rg->chunks[j],
			    w->o.codec);
		thrift_field_i64(&tw, 2, rg->uncompressed);
		thrift_field_i64(&tw, 3, rg->rows);
		thrift_field_i64(&tw, 5, rg->offset);
		thrift_field_i64(&tw, 6, rg->compressed);
		thrift_struct_end(&tw);
	}
	if (nkv) {
		thrift_field_list(&tw, 5, THRIFT_STRUCT, nkv);
		for (i = 0; i < nkv; i++) {
			thrift_elem_struct(&tw);
			thrift_field_string(&tw, 1, kv[i].key);
			thrift_field_string(&tw, 2, kv[i].value);
			thrift_struct_end(&tw);
		}
	}
	thrift_field_string(&tw, 6, "pathstat version " PATHSTAT_VERSION);
	thrift_field_list(&tw, 7, THRIFT_STRUCT, w->ncols);
	for (i = 0; i < w->ncols; i++) {
		thrift_elem_struct(&tw);	/* ColumnOrder */
		thrift_field_struct(&tw, 1);	/* TYPE_ORDER */
		thrift_struct_end(&tw);
		thrift_struct_end(&tw);
	}
	thrift_struct_end(&tw);
	if (foot.len > UINT32_MAX)
		BUG("parquet: a footer of %zu bytes", foot.len);
	enc_put_le32(len, (uint32_t)foot.len);
	if (write_bytes(w, foot.buf, foot.len) || write_bytes(w, len, 4) ||
	    write_bytes(w, PQ_MAGIC, 4))
		goto cleanup;
	if (fflush(w->fp)) {
		w->failed = true;
		error_errno("cannot write '%s'", w->path);
		goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&foot);
	return ret;
}

/* ---------------------------------------------------------------------
 * Life cycle
 */

struct pq_writer *
pq_writer_new(FILE *fp, const char *path, const struct pq_column *cols,
    size_t ncols, const struct pq_options *o)
{
	struct pq_writer *w = xcalloc(1, sizeof(*w));
	struct pq_col *c;
	size_t i;

	if (!ncols)
		BUG("parquet: a schema without columns");
	w->fp = fp;
	w->path = xstrdup(path);
	w->o = *o;
	if (!w->o.page_values)
		w->o.page_values = PQ_PAGE_VALUES;
	if (!w->o.page_bytes)
		w->o.page_bytes = PQ_PAGE_BYTES;
	if (!w->o.dict_bytes)
		w->o.dict_bytes = PQ_DICT_BYTES;
	if (!w->o.row_group_bytes)
		w->o.row_group_bytes = PQ_ROW_GROUP_BYTES;
	if (!w->o.level)
		w->o.level = w->o.codec == PQ_CODEC_GZIP ? PQ_DEFAULT_GZIP :
		    PQ_DEFAULT_ZSTD;
	if (w->o.codec == PQ_CODEC_ZSTD) {
		w->zc = ZSTD_createCCtx();
		if (!w->zc)
			die("zstd: cannot create a compression context");
	}
	w->hs = XXH3_createState();
	if (!w->hs)
		die("xxhash: cannot create a hash state");
	XXH3_128bits_reset(w->hs);
	strbuf_init(&w->body, 0);
	strbuf_init(&w->body2, 0);
	strbuf_init(&w->comp, 0);
	strbuf_init(&w->comp2, 0);
	strbuf_init(&w->head, 0);
	w->lv32 = xreallocarray(NULL, w->o.page_values, sizeof(uint32_t));
	w->ncols = ncols;
	w->cols = xcalloc(ncols, sizeof(*w->cols));
	for (i = 0; i < ncols; i++) {
		c = &w->cols[i];
		c->def = cols[i];
		strbuf_init(&c->plain, 0);
		strbuf_init(&c->pages, 0);
		strbuf_init(&c->page.min_s, 0);
		strbuf_init(&c->page.max_s, 0);
		strbuf_init(&c->chunk.min_s, 0);
		strbuf_init(&c->chunk.max_s, 0);
		strbuf_init(&c->dict.plain, 0);
		if (c->def.optional)
			c->levels = xmalloc(w->o.page_values);
		if (c->def.type == PQ_DOUBLE)
			c->f64 = xreallocarray(NULL, w->o.page_values, 8);
		else if (c->def.type == PQ_STRING)
			c->idx = xreallocarray(NULL, w->o.page_values, 4);
		else
			c->i64 = xreallocarray(NULL, w->o.page_values, 8);
		chunk_reset(c);
	}
	write_bytes(w, PQ_MAGIC, 4);
	return w;
}

void
pq_writer_free(struct pq_writer *w)
{
	struct pq_col *c;
	size_t i, j;

	if (!w)
		return;
	for (i = 0; i < w->ncols; i++) {
		c = &w->cols[i];
		free(c->levels);
		free(c->i64);
		free(c->f64);
		free(c->idx);
		strbuf_release(&c->plain);
		strbuf_release(&c->pages);
		strbuf_release(&c->page.min_s);
		strbuf_release(&c->page.max_s);
		strbuf_release(&c->chunk.min_s);
		strbuf_release(&c->chunk.max_s);
		dict_release(&c->dict);
	}
	for (i = 0; i < w->nrgs; i++) {
		for (j = 0; j < w->ncols; j++)
			chunk_meta_release(&w->rgs[i].chunks[j]);
		free(w->rgs[i].chunks);
	}
	free(w->rgs);
	free(w->cols);
	free(w->lv32);
	free(w->path);
	strbuf_release(&w->body);
	strbuf_release(&w->body2);
	strbuf_release(&w->comp);
	strbuf_release(&w->comp2);
	strbuf_release(&w->head);
	ZSTD_freeCCtx(w->zc);
	XXH3_freeState(w->hs);
	free(w);
}

uint64_t
pq_rows(const struct pq_writer *w)
{
	return w->rows;
}

uint64_t
pq_bytes(const struct pq_writer *w)
{
	return w->pos;
}

void
pq_hash(const struct pq_writer *w, char out[33])
{
	XXH128_hash_t h = XXH3_128bits_digest(w->hs);

	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64,
	    (unsigned long long)h.low64);
}
