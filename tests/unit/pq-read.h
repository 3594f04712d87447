/*
 * pq-read.h - a small Parquet reader of the subset export/parquet.c
 * writes, for tests only (t-parquet.c, fuzz-parquet.c): a generic Thrift
 * compact-protocol decoder, the footer, data pages v1 and dictionary
 * pages, PLAIN, RLE/bit-packing hybrid, RLE_DICTIONARY,
 * DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT, ZSTD, GZIP and none.
 * Written from parquet-format's spec, apart from the writer, so the two
 * check each other.  Every read is bounds-checked: a malformed file is an
 * error, never a crash.  Header-only (static functions) so a test or a
 * fuzz target needs no build rule of its own.
 */
#ifndef PATHSTAT_TESTS_PQ_READ_H
#define PATHSTAT_TESTS_PQ_READ_H

#include "common/compat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#define PQR_MAX_DEPTH	32
#define PQR_MAX_ITEMS	(1 << 24)

/* A decoded Thrift value. */
struct pqr_tv {
	int		type;		/* compact type id; bools as 1/2 */
	int		id;		/* field id inside a struct */
	int64_t		i;		/* ints; bools as 0/1 */
	const unsigned char *bin;	/* binary: borrowed from the input */
	size_t		len;
	struct pqr_tv	*items;		/* struct fields or list elements */
	size_t		n;
};

struct pqr_in {
	const unsigned char *p;
	size_t		len, pos;
	char		*err;		/* message buffer */
	size_t		errlen;
	bool		failed;
};

static int PATHSTAT_PRINTF(2, 3)
pqr_fail(struct pqr_in *in, const char *fmt, ...)
{
	va_list ap;

	if (!in->failed) {
		va_start(ap, fmt);
		vsnprintf(in->err, in->errlen, fmt, ap);
		va_end(ap);
	}
	in->failed = true;
	return -1;
}

static int
pqr_byte(struct pqr_in *in, unsigned char *b)
{
	*b = 0;
	if (in->pos >= in->len)
		return pqr_fail(in, "truncated at %zu", in->pos);
	*b = in->p[in->pos++];
	return 0;
}

static int
pqr_uleb(struct pqr_in *in, uint64_t *v)
{
	unsigned char b;
	int shift = 0;

	*v = 0;
	do {
		if (pqr_byte(in, &b))
			return -1;
		if (shift > 63)
			return pqr_fail(in, "varint too long");
		*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return 0;
}

static int
pqr_zigzag(struct pqr_in *in, int64_t *v)
{
	uint64_t u;

	if (pqr_uleb(in, &u))
		return -1;
	*v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
	return 0;
}

static void
pqr_tv_free(struct pqr_tv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		pqr_tv_free(&v->items[i]);
	free(v->items);
	v->items = NULL;
	v->n = 0;
}

static int pqr_value(struct pqr_in *in, int type, struct pqr_tv *v, int depth);

static int
pqr_struct(struct pqr_in *in, struct pqr_tv *v, int depth)
{
	unsigned char b;
	int64_t id = 0, lid;
	int type;
	struct pqr_tv *f;

	v->type = 12;
	if (depth > PQR_MAX_DEPTH)
		return pqr_fail(in, "nested too deep");
	for (;;) {
		if (pqr_byte(in, &b))
			return -1;
		if (!b)
			return 0;
		type = b & 0x0f;
		if (b >> 4) {
			id += b >> 4;
		} else {
			if (pqr_zigzag(in, &lid))
				return -1;
			id = lid;
		}
		if (v->n >= PQR_MAX_ITEMS)
			return pqr_fail(in, "too many fields");
		v->items = realloc(v->items, (v->n + 1) * sizeof(*v->items));
		if (!v->items)
			abort();
		f = &v->items[v->n++];
		memset(f, 0, sizeof(*f));
		f->id = (int)id;
		if (type == 1 || type == 2) {
			f->type = type;
			f->i = type == 1;
			continue;
		}
		if (pqr_value(in, type, f, depth + 1))
			return -1;
	}
}

static int
pqr_value(struct pqr_in *in, int type, struct pqr_tv *v, int depth)
{
	unsigned char b;
	uint64_t n, i;
	int et;

	v->type = type;
	switch (type) {
	case 3:
		if (pqr_byte(in, &b))
			return -1;
		v->i = (int8_t)b;
		return 0;
	case 4: case 5: case 6:
		return pqr_zigzag(in, &v->i);
	case 7:
		if (in->len - in->pos < 8 || in->pos > in->len)
			return pqr_fail(in, "truncated double");
		in->pos += 8;
		return 0;
	case 8:
		if (pqr_uleb(in, &n))
			return -1;
		if (n > in->len - in->pos)
			return pqr_fail(in, "binary of %llu bytes past the end",
			    (unsigned long long)n);
		v->bin = in->p + in->pos;
		v->len = (size_t)n;
		in->pos += (size_t)n;
		return 0;
	case 9: case 10:
		if (pqr_byte(in, &b))
			return -1;
		et = b & 0x0f;
		n = b >> 4;
		if (n == 15 && pqr_uleb(in, &n))
			return -1;
		if (n > PQR_MAX_ITEMS || n > in->len - in->pos)
			return pqr_fail(in, "a list of %llu", (unsigned long long)n);
		v->items = calloc(n ? n : 1, sizeof(*v->items));
		if (!v->items)
			abort();
		v->n = (size_t)n;
		for (i = 0; i < n; i++) {
			if (et == 1 || et == 2) {
				if (pqr_byte(in, &b))
					return -1;
				v->items[i].type = et;
				v->items[i].i = b == 1;
				continue;
			}
			if (pqr_value(in, et, &v->items[i], depth + 1))
				return -1;
		}
		return 0;
	case 12:
		return pqr_struct(in, v, depth);
	default:
		return pqr_fail(in, "thrift type %d", type);
	}
}

/* Field id of struct v, or NULL. */
static const struct pqr_tv *
pqr_field(const struct pqr_tv *v, int id)
{
	size_t i;

	if (!v || v->type != 12)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (v->items[i].id == id)
			return &v->items[i];
	return NULL;
}

static int64_t
pqr_int(const struct pqr_tv *v, int64_t dflt)
{
	return v && v->type >= 1 && v->type <= 6 ? v->i : dflt;
}

/* ---------------------------------------------------------------------
 * Decoders
 */

/* Bit-unpack n values of w bits from p (LSB first); false if short. */
static bool
pqr_unpack(const unsigned char *p, size_t len, size_t n, int w, uint64_t *out)
{
	size_t bit = 0, i;
	int k;

	if (w < 0 || w > 64 || ((n * (size_t)w + 7) / 8) > len)
		return false;
	for (i = 0; i < n; i++) {
		uint64_t v = 0;

		for (k = 0; k < w; k++, bit++)
			if (p[bit / 8] >> (bit % 8) & 1)
				v |= UINT64_C(1) << k;
		out[i] = v;
	}
	return true;
}

/* The RLE/bit-packing hybrid: n values of bit width w from in. */
static int
pqr_hybrid(struct pqr_in *in, int w, size_t n, uint64_t *out)
{
	uint64_t h, count, v, *tmp;
	size_t got = 0, nb, i;
	unsigned char b;
	int k;

	if (w < 0 || w > 32)
		return pqr_fail(in, "hybrid bit width %d", w);
	while (got < n) {
		if (pqr_uleb(in, &h))
			return -1;
		if (h & 1) {
			count = (h >> 1) * 8;
			/* only the last group may run past n, by padding */
			if (!count || count > n - got + 7)
				return pqr_fail(in, "bit-packed run of %llu for "
				    "%zu values", (unsigned long long)count,
				    n - got);
			nb = (size_t)count * (size_t)w / 8;
			if (nb > in->len - in->pos)
				return pqr_fail(in, "bit-packed run past the end");
			tmp = malloc((size_t)count * sizeof(*tmp));
			if (!tmp)
				abort();
			pqr_unpack(in->p + in->pos, nb, (size_t)count, w, tmp);
			in->pos += nb;
			for (i = 0; i < count && got < n; i++)
				out[got++] = tmp[i];
			free(tmp);
		} else {
			count = h >> 1;
			if (!count || count > n - got)
				return pqr_fail(in, "RLE run of %llu for %zu "
				    "values", (unsigned long long)count, n - got);
			v = 0;
			for (k = 0; k < (w + 7) / 8; k++) {
				if (pqr_byte(in, &b))
					return -1;
				v |= (uint64_t)b << (8 * k);
			}
			if (w < 64 && v >> w)
				return pqr_fail(in, "RLE value wider than %d bits",
				    w);
			for (i = 0; i < count; i++)
				out[got++] = v;
		}
	}
	return 0;
}

/* DELTA_BINARY_PACKED: up to max values; *n gets the count. */
static int
pqr_delta(struct pqr_in *in, size_t max, int64_t *out, size_t *n)
{
	uint64_t bs, nmb, total, mbn, u, d[256];
	int64_t first, mind;
	uint64_t prev;
	size_t got, k, j, nb;
	unsigned char widths[64];

	if (pqr_uleb(in, &bs) || pqr_uleb(in, &nmb) || pqr_uleb(in, &total) ||
	    pqr_zigzag(in, &first))
		return -1;
	if (!bs || bs % 128 || !nmb || nmb > 64 || bs % nmb ||
	    (bs / nmb) % 32 || bs / nmb > 256)
		return pqr_fail(in, "delta header %llu/%llu",
		    (unsigned long long)bs, (unsigned long long)nmb);
	if (total > max)
		return pqr_fail(in, "delta count %llu > %zu",
		    (unsigned long long)total, max);
	mbn = bs / nmb;
	*n = (size_t)total;
	if (!total)
		return 0;
	out[0] = first;
	prev = (uint64_t)first;
	got = 1;
	while (got < total) {
		if (pqr_zigzag(in, &mind))
			return -1;
		for (k = 0; k < nmb; k++)
			if (pqr_byte(in, &widths[k]))
				return -1;
		for (k = 0; k < nmb && got < total; k++) {
			if (widths[k] > 64)
				return pqr_fail(in, "miniblock width %d",
				    widths[k]);
			nb = (size_t)mbn * widths[k] / 8;
			if (nb > in->len - in->pos)
				return pqr_fail(in, "miniblock past the end");
			pqr_unpack(in->p + in->pos, nb, (size_t)mbn, widths[k],
			    d);
			in->pos += nb;
			for (j = 0; j < mbn && got < total; j++) {
				u = prev + (uint64_t)mind + d[j];
				out[got++] = (int64_t)u;
				prev = u;
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Files
 */

struct pqr_col {
	char		*name;
	int		ptype;		/* Type */
	int		rep;		/* FieldRepetitionType */
	int		ctype;		/* ConvertedType, -1 = none */
	size_t		n;		/* values, nulls included */
	unsigned char	*isnull;
	int64_t		*i64;
	double		*f64;
	char		**str;		/* NUL-terminated copies */
	size_t		*slen;
	/* statistics of each chunk, in row group order */
	size_t		nchunks;
	size_t		*chunk_first;	/* the chunk's first value */
	int64_t		*null_count;	/* -1 = absent */
	char		**min, **max;	/* raw bytes (NULL = absent) */
	size_t		*min_len, *max_len;
	unsigned	encodings;	/* 1 << Encoding, over all chunks */
	int		codec;
};

struct pqr_file {
	int64_t		num_rows;
	size_t		nrg;
	struct pqr_col	*cols;
	size_t		ncols;
	char		**kv_key, **kv_value;
	size_t		nkv;
	char		*created_by;
};

static char *
pqr_strndup(const void *p, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

static void
pqr_free(struct pqr_file *f)
{
	size_t i, j;

	for (i = 0; i < f->ncols; i++) {
		struct pqr_col *c = &f->cols[i];

		free(c->name);
		free(c->isnull);
		free(c->i64);
		free(c->f64);
		for (j = 0; c->str && j < c->n; j++)
			free(c->str[j]);
		free(c->str);
		free(c->slen);
		for (j = 0; j < c->nchunks; j++) {
			free(c->min[j]);
			free(c->max[j]);
		}
		free(c->min);
		free(c->max);
		free(c->min_len);
		free(c->max_len);
		free(c->null_count);
		free(c->chunk_first);
	}
	free(f->cols);
	for (i = 0; i < f->nkv; i++) {
		free(f->kv_key[i]);
		free(f->kv_value[i]);
	}
	free(f->kv_key);
	free(f->kv_value);
	free(f->created_by);
	memset(f, 0, sizeof(*f));
}

static int
pqr_decompress(struct pqr_in *in, int codec, const unsigned char *src,
    size_t slen, unsigned char *dst, size_t dlen)
{
	size_t r;

	switch (codec) {
	case 0:
		if (slen != dlen)
			return pqr_fail(in, "uncompressed sizes differ");
		memcpy(dst, src, slen);
		return 0;
	case 6:
		r = ZSTD_decompress(dst, dlen, src, slen);
		if (ZSTD_isError(r) || r != dlen)
			return pqr_fail(in, "zstd: %s", ZSTD_isError(r) ?
			    ZSTD_getErrorName(r) : "short");
		return 0;
	case 2: {
		z_stream zs;
		int rc;

		memset(&zs, 0, sizeof(zs));
		if (inflateInit2(&zs, 15 + 16) != Z_OK)
			return pqr_fail(in, "inflateInit2");
		zs.next_in = (Bytef *)src;
		zs.avail_in = (uInt)slen;
		zs.next_out = dst;
		zs.avail_out = (uInt)dlen;
		rc = inflate(&zs, Z_FINISH);
		r = zs.total_out;
		inflateEnd(&zs);
		if (rc != Z_STREAM_END || r != dlen)
			return pqr_fail(in, "gzip: %d", rc);
		return 0;
	}
	default:
		return pqr_fail(in, "codec %d", codec);
	}
}

/* Append one value (k of a page's non-null values) to c. */
static void
pqr_grow(struct pqr_col *c, size_t n)
{
	c->isnull = realloc(c->isnull, n ? n : 1);
	c->i64 = realloc(c->i64, (n ? n : 1) * sizeof(*c->i64));
	c->f64 = realloc(c->f64, (n ? n : 1) * sizeof(*c->f64));
	c->str = realloc(c->str, (n ? n : 1) * sizeof(*c->str));
	c->slen = realloc(c->slen, (n ? n : 1) * sizeof(*c->slen));
	if (!c->isnull || !c->i64 || !c->f64 || !c->str || !c->slen)
		abort();
}

/* Decode PLAIN values of c's type: n of them into the k-th slots. */
static int
pqr_plain(struct pqr_in *in, const struct pqr_col *c, size_t n, int64_t *i64,
    double *f64, char **str, size_t *slen)
{
	size_t i, k;
	uint64_t u;
	uint32_t l;

	for (i = 0; i < n; i++) {
		if (c->ptype == 2 || c->ptype == 5) {
			if (in->len - in->pos < 8)
				return pqr_fail(in, "PLAIN past the end");
			u = 0;
			for (k = 0; k < 8; k++)
				u |= (uint64_t)in->p[in->pos + k] << (8 * k);
			in->pos += 8;
			if (c->ptype == 2)
				i64[i] = (int64_t)u;
			else
				memcpy(&f64[i], &u, 8);
		} else if (c->ptype == 6) {
			if (in->len - in->pos < 4)
				return pqr_fail(in, "PLAIN length past the end");
			l = (uint32_t)in->p[in->pos] |
			    (uint32_t)in->p[in->pos + 1] << 8 |
			    (uint32_t)in->p[in->pos + 2] << 16 |
			    (uint32_t)in->p[in->pos + 3] << 24;
			in->pos += 4;
			if (l > in->len - in->pos)
				return pqr_fail(in, "PLAIN bytes past the end");
			str[i] = pqr_strndup(in->p + in->pos, l);
			slen[i] = l;
			in->pos += l;
		} else {
			return pqr_fail(in, "type %d", c->ptype);
		}
	}
	return 0;
}

struct pqr_dict {
	size_t		n;
	int64_t		*i64;
	double		*f64;
	char		**str;
	size_t		*slen;
};

static void
pqr_dict_free(struct pqr_dict *d)
{
	size_t i;

	for (i = 0; d->str && i < d->n; i++)
		free(d->str[i]);
	free(d->i64);
	free(d->f64);
	free(d->str);
	free(d->slen);
	memset(d, 0, sizeof(*d));
}

/* One data page's body (decompressed) into c. */
static int
pqr_data_page(struct pqr_in *page, struct pqr_col *c, size_t nvalues,
    int enc, const struct pqr_dict *dict)
{
	uint64_t *lv = calloc(nvalues ? nvalues : 1, sizeof(*lv));
	uint64_t *idx = NULL;
	size_t nnon = 0, i, k, base = c->n, got, w;
	int64_t *i64 = NULL;
	double *f64 = NULL;
	char **str = NULL;
	size_t *slen = NULL;
	struct pqr_in sub;
	uint32_t l;
	int ret = -1;

	if (!lv)
		abort();
	if (c->rep == 1) {
		if (page->len - page->pos < 4) {
			pqr_fail(page, "no level length");
			goto out;
		}
		l = (uint32_t)page->p[page->pos] |
		    (uint32_t)page->p[page->pos + 1] << 8 |
		    (uint32_t)page->p[page->pos + 2] << 16 |
		    (uint32_t)page->p[page->pos + 3] << 24;
		page->pos += 4;
		if (l > page->len - page->pos) {
			pqr_fail(page, "levels past the end");
			goto out;
		}
		sub = *page;
		sub.len = page->pos + l;
		if (pqr_hybrid(&sub, 1, nvalues, lv)) {
			page->failed = true;
			goto out;
		}
		if (sub.pos != sub.len) {
			pqr_fail(page, "levels: %zu bytes left", sub.len - sub.pos);
			goto out;
		}
		page->pos += l;
	} else {
		for (i = 0; i < nvalues; i++)
			lv[i] = 1;
	}
	for (i = 0; i < nvalues; i++)
		nnon += lv[i] != 0;
	i64 = calloc(nnon + 1, sizeof(*i64));
	f64 = calloc(nnon + 1, sizeof(*f64));
	str = calloc(nnon + 1, sizeof(*str));
	slen = calloc(nnon + 1, sizeof(*slen));
	if (!i64 || !f64 || !str || !slen)
		abort();
	switch (enc) {
	case 0:
		if (pqr_plain(page, c, nnon, i64, f64, str, slen))
			goto out;
		break;
	case 8: case 2:
		if (!dict) {
			pqr_fail(page, "dictionary indices without a dictionary");
			goto out;
		}
		if (page->pos >= page->len) {
			pqr_fail(page, "no bit width");
			goto out;
		}
		w = page->p[page->pos++];
		idx = calloc(nnon + 1, sizeof(*idx));
		if (!idx)
			abort();
		if (pqr_hybrid(page, (int)w, nnon, idx))
			goto out;
		for (i = 0; i < nnon; i++) {
			if (idx[i] >= dict->n) {
				pqr_fail(page, "index %llu of %zu",
				    (unsigned long long)idx[i], dict->n);
				goto out;
			}
			if (dict->str) {
				str[i] = pqr_strndup(dict->str[idx[i]],
				    dict->slen[idx[i]]);
				slen[i] = dict->slen[idx[i]];
			}
			if (dict->i64)
				i64[i] = dict->i64[idx[i]];
			if (dict->f64)
				f64[i] = dict->f64[idx[i]];
		}
		break;
	case 5:
		if (c->ptype != 2) {
			pqr_fail(page, "DELTA_BINARY_PACKED on type %d", c->ptype);
			goto out;
		}
		if (pqr_delta(page, nnon, i64, &got))
			goto out;
		if (got != nnon) {
			pqr_fail(page, "delta: %zu values, want %zu", got, nnon);
			goto out;
		}
		break;
	case 9:
		if (c->ptype != 5 || page->len - page->pos != 8 * nnon) {
			pqr_fail(page, "BYTE_STREAM_SPLIT size");
			goto out;
		}
		for (i = 0; i < nnon; i++) {
			uint64_t u = 0;

			for (k = 0; k < 8; k++)
				u |= (uint64_t)page->p[page->pos + k * nnon + i]
				    << (8 * k);
			memcpy(&f64[i], &u, 8);
		}
		page->pos += 8 * nnon;
		break;
	default:
		pqr_fail(page, "encoding %d", enc);
		goto out;
	}
	if (page->pos != page->len) {
		pqr_fail(page, "%zu bytes left in a page", page->len - page->pos);
		goto out;
	}
	pqr_grow(c, base + nvalues);
	for (i = 0, k = 0; i < nvalues; i++) {
		c->isnull[base + i] = !lv[i];
		c->str[base + i] = NULL;
		c->slen[base + i] = 0;
		c->i64[base + i] = 0;
		c->f64[base + i] = 0;
		if (!lv[i])
			continue;
		c->i64[base + i] = i64[k];
		c->f64[base + i] = f64[k];
		c->str[base + i] = str[k];
		c->slen[base + i] = slen[k];
		str[k++] = NULL;
	}
	c->n = base + nvalues;
	ret = 0;
out:
	for (i = 0; str && i < nnon; i++)
		free(str[i]);
	free(str);
	free(slen);
	free(i64);
	free(f64);
	free(lv);
	free(idx);
	return ret;
}

/* One column chunk's pages into c. */
static int
pqr_chunk(struct pqr_in *in, struct pqr_col *c, const struct pqr_tv *md)
{
	const struct pqr_tv *f, *ph, *dh;
	struct pqr_dict dict;
	struct pqr_in hin, page;
	struct pqr_tv hdr;
	int64_t nvalues = pqr_int(pqr_field(md, 5), -1);
	int64_t start = pqr_int(pqr_field(md, 9), -1);
	int64_t dict_off = pqr_int(pqr_field(md, 11), -1);
	int64_t size = pqr_int(pqr_field(md, 7), -1), got = 0;
	int codec = (int)pqr_int(pqr_field(md, 4), -1);
	unsigned char *buf = NULL;
	size_t pos, end;
	int ret = -1;

	memset(&dict, 0, sizeof(dict));
	c->codec = codec;
	f = pqr_field(md, 2);
	for (pos = 0; f && pos < f->n; pos++)
		if (f->items[pos].i >= 0 && f->items[pos].i < 32)
			c->encodings |= 1u << f->items[pos].i;
	if (dict_off >= 0 && dict_off < start)
		start = dict_off;
	if (nvalues < 0 || start < 4 || size < 0 || (uint64_t)start >
	    in->len || (uint64_t)size > in->len - (uint64_t)start)
		return pqr_fail(in, "column chunk out of the file");
	pos = (size_t)start;
	end = (size_t)start + (size_t)size;
	while (got < nvalues) {
		int64_t usz, csz;
		int type;

		memset(&hdr, 0, sizeof(hdr));
		hin = *in;
		hin.pos = pos;
		hin.len = end;
		if (pqr_struct(&hin, &hdr, 0)) {
			pqr_tv_free(&hdr);
			in->failed = true;
			goto out;
		}
		type = (int)pqr_int(pqr_field(&hdr, 1), -1);
		usz = pqr_int(pqr_field(&hdr, 2), -1);
		csz = pqr_int(pqr_field(&hdr, 3), -1);
		if (usz < 0 || csz < 0 || usz > (1 << 30) ||
		    (uint64_t)csz > end - hin.pos) {
			pqr_tv_free(&hdr);
			pqr_fail(in, "page sizes %lld/%lld", (long long)usz,
			    (long long)csz);
			goto out;
		}
		buf = malloc((size_t)usz + 1);
		if (!buf)
			abort();
		if (pqr_decompress(in, codec, in->p + hin.pos, (size_t)csz, buf,
		    (size_t)usz)) {
			pqr_tv_free(&hdr);
			goto out;
		}
		pos = hin.pos + (size_t)csz;
		memset(&page, 0, sizeof(page));
		page.p = buf;
		page.len = (size_t)usz;
		page.err = in->err;
		page.errlen = in->errlen;
		if (type == 2) {
			dh = pqr_field(&hdr, 7);
			if (!dh || dict.n ||
			    pqr_int(pqr_field(dh, 2), -1) != 0) {
				pqr_tv_free(&hdr);
				pqr_fail(in, "bad dictionary page");
				goto out;
			}
			dict.n = (size_t)pqr_int(pqr_field(dh, 1), 0);
			if (dict.n > (size_t)usz) {
				pqr_tv_free(&hdr);
				pqr_fail(in, "dictionary of %zu", dict.n);
				goto out;
			}
			dict.i64 = calloc(dict.n + 1, sizeof(*dict.i64));
			dict.f64 = calloc(dict.n + 1, sizeof(*dict.f64));
			dict.str = calloc(dict.n + 1, sizeof(*dict.str));
			dict.slen = calloc(dict.n + 1, sizeof(*dict.slen));
			if (!dict.i64 || !dict.f64 || !dict.str || !dict.slen)
				abort();
			if (pqr_plain(&page, c, dict.n, dict.i64, dict.f64,
			    dict.str, dict.slen) || page.pos != page.len) {
				pqr_tv_free(&hdr);
				in->failed = true;
				goto out;
			}
		} else if (type == 0) {
			ph = pqr_field(&hdr, 5);
			if (!ph || pqr_int(pqr_field(ph, 1), -1) < 0 ||
			    pqr_int(pqr_field(ph, 1), -1) > nvalues - got) {
				pqr_tv_free(&hdr);
				pqr_fail(in, "bad data page header");
				goto out;
			}
			if (pqr_data_page(&page, c,
			    (size_t)pqr_int(pqr_field(ph, 1), 0),
			    (int)pqr_int(pqr_field(ph, 2), -1),
			    dict.n || c->encodings & (1u << 8) ? &dict : NULL)) {
				pqr_tv_free(&hdr);
				in->failed = true;
				goto out;
			}
			got += pqr_int(pqr_field(ph, 1), 0);
		} else {
			pqr_tv_free(&hdr);
			pqr_fail(in, "page type %d", type);
			goto out;
		}
		pqr_tv_free(&hdr);
		free(buf);
		buf = NULL;
	}
	ret = 0;
out:
	free(buf);
	pqr_dict_free(&dict);
	return ret;
}

/* Read a whole file from memory.  Returns 0, or -1 with err set. */
static int
pqr_read(const unsigned char *p, size_t len, struct pqr_file *out, char *err,
    size_t errlen)
{
	struct pqr_in in = { p, len, 0, err, errlen, false };
	struct pqr_tv fm;
	const struct pqr_tv *schema, *rgs, *kvs, *cols, *md, *st, *x;
	uint32_t flen;
	size_t i, j, ncols;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	memset(&fm, 0, sizeof(fm));
	if (len < 12 || memcmp(p, "PAR1", 4) || memcmp(p + len - 4, "PAR1", 4))
		return pqr_fail(&in, "no PAR1 magic");
	flen = (uint32_t)p[len - 8] | (uint32_t)p[len - 7] << 8 |
	    (uint32_t)p[len - 6] << 16 | (uint32_t)p[len - 5] << 24;
	if (flen > len - 12)
		return pqr_fail(&in, "footer of %u bytes", flen);
	in.pos = len - 8 - flen;
	in.len = len - 8;
	if (pqr_struct(&in, &fm, 0))
		goto out;
	if (in.pos != in.len) {
		pqr_fail(&in, "footer has %zu bytes left", in.len - in.pos);
		goto out;
	}
	in.len = len;
	schema = pqr_field(&fm, 2);
	if (!schema || schema->type != 9 || schema->n < 1 ||
	    pqr_int(pqr_field(&schema->items[0], 5), -1) !=
	    (int64_t)schema->n - 1) {
		pqr_fail(&in, "bad schema");
		goto out;
	}
	ncols = schema->n - 1;
	out->cols = calloc(ncols ? ncols : 1, sizeof(*out->cols));
	if (!out->cols)
		abort();
	out->ncols = ncols;
	for (i = 0; i < ncols; i++) {
		const struct pqr_tv *se = &schema->items[i + 1];

		x = pqr_field(se, 4);
		if (!x || x->type != 8) {
			pqr_fail(&in, "a column without a name");
			goto out;
		}
		out->cols[i].name = pqr_strndup(x->bin, x->len);
		out->cols[i].ptype = (int)pqr_int(pqr_field(se, 1), -1);
		out->cols[i].rep = (int)pqr_int(pqr_field(se, 3), -1);
		out->cols[i].ctype = (int)pqr_int(pqr_field(se, 6), -1);
	}
	out->num_rows = pqr_int(pqr_field(&fm, 3), -1);
	x = pqr_field(&fm, 6);
	if (x && x->type == 8)
		out->created_by = pqr_strndup(x->bin, x->len);
	kvs = pqr_field(&fm, 5);
	for (i = 0; kvs && i < kvs->n; i++) {
		const struct pqr_tv *k = pqr_field(&kvs->items[i], 1);
		const struct pqr_tv *v = pqr_field(&kvs->items[i], 2);

		out->kv_key = realloc(out->kv_key, (i + 1) * sizeof(char *));
		out->kv_value = realloc(out->kv_value, (i + 1) * sizeof(char *));
		if (!out->kv_key || !out->kv_value)
			abort();
		out->kv_key[i] = k ? pqr_strndup(k->bin, k->len) : NULL;
		out->kv_value[i] = v ? pqr_strndup(v->bin, v->len) : NULL;
		out->nkv = i + 1;
	}
	rgs = pqr_field(&fm, 4);
	if (!rgs || rgs->type != 9) {
		pqr_fail(&in, "no row groups list");
		goto out;
	}
	out->nrg = rgs->n;
	for (i = 0; i < rgs->n; i++) {
		int64_t rows = pqr_int(pqr_field(&rgs->items[i], 3), -1);

		cols = pqr_field(&rgs->items[i], 1);
		if (!cols || cols->n != ncols || rows < 0) {
			pqr_fail(&in, "row group %zu has %zu columns", i,
			    cols ? cols->n : 0);
			goto out;
		}
		for (j = 0; j < ncols; j++) {
			struct pqr_col *c = &out->cols[j];
			size_t before = c->n, k = c->nchunks;

			md = pqr_field(&cols->items[j], 3);
			if (!md || pqr_int(pqr_field(md, 1), -1) != c->ptype) {
				pqr_fail(&in, "chunk %zu/%zu: no metadata", i, j);
				goto out;
			}
			if (pqr_chunk(&in, c, md))
				goto out;
			if (c->n - before != (size_t)rows) {
				pqr_fail(&in, "chunk %zu/%zu: %zu values, %lld "
				    "rows", i, j, c->n - before,
				    (long long)rows);
				goto out;
			}
			c->nchunks++;
			c->null_count = realloc(c->null_count, c->nchunks *
			    sizeof(*c->null_count));
			c->min = realloc(c->min, c->nchunks * sizeof(char *));
			c->max = realloc(c->max, c->nchunks * sizeof(char *));
			c->min_len = realloc(c->min_len, c->nchunks *
			    sizeof(size_t));
			c->max_len = realloc(c->max_len, c->nchunks *
			    sizeof(size_t));
			c->chunk_first = realloc(c->chunk_first, c->nchunks *
			    sizeof(size_t));
			if (!c->null_count || !c->min || !c->max ||
			    !c->min_len || !c->max_len || !c->chunk_first)
				abort();
			c->chunk_first[k] = before;
			st = pqr_field(md, 12);
			c->null_count[k] = pqr_int(pqr_field(st, 3), -1);
			x = pqr_field(st, 6);
			c->min[k] = x ? pqr_strndup(x->bin, x->len) : NULL;
			c->min_len[k] = x ? x->len : 0;
			x = pqr_field(st, 5);
			c->max[k] = x ? pqr_strndup(x->bin, x->len) : NULL;
			c->max_len[k] = x ? x->len : 0;
		}
	}
	for (j = 0; j < ncols; j++)
		if ((int64_t)out->cols[j].n != out->num_rows) {
			pqr_fail(&in, "column %zu: %zu values, %lld rows", j,
			    out->cols[j].n, (long long)out->num_rows);
			goto out;
		}
	ret = 0;
out:
	pqr_tv_free(&fm);
	if (ret)
		pqr_free(out);
	return ret;
}

#endif
