/*
 * t-parquet.c - the Parquet writer (export/): the Thrift compact protocol
 * and the encodings against the bytes parquet-format's documents give
 * (Encodings.md's examples, Thrift's compact-protocol spec), and whole
 * files written and read back through tests/unit/pq-read.h, every value
 * bit for bit, with each column chunk's statistics.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "export/encode.h"
#include "export/parquet.h"
#include "export/thrift.h"
#include "tests/unit/harness.h"
#include "tests/unit/pq-read.h"

static bool
bytes_are(const struct strbuf *sb, const unsigned char *want, size_t n)
{
	size_t i;

	if (sb->len != n || memcmp(sb->buf, want, n)) {
		printf("#   got ");
		for (i = 0; i < sb->len; i++)
			printf("%02x ", (unsigned char)sb->buf[i]);
		printf("\n#  want ");
		for (i = 0; i < n; i++)
			printf("%02x ", want[i]);
		printf("\n");
		return false;
	}
	return true;
}

static void
test_thrift(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct thrift_writer tw;
	static const unsigned char leb[] = { 0xdf, 0x89, 0x03 };
	static const unsigned char zz[] = { 0x00, 0x01, 0x02, 0x03, 0x04 };
	static const unsigned char st[] = {
		0x15, 0x02,		/* field 1 i32 = 1 (zigzag 2) */
		0x11,			/* field 2 bool true */
		0x06, 0x28, 0x06,	/* field 20 i64 (long form) = 3 */
		0x19, 0x25, 0x02, 0x04,	/* field 21 list<i32> [1, 2] */
		0x19, 0xf8, 0x0f,	/* field 22 list<binary> of 15 */
	};
	int i;

	/* Thrift's example: 50399 is DF 89 03 */
	thrift_put_uleb(&sb, 50399);
	CHECK(bytes_are(&sb, leb, sizeof(leb)), "ULEB-128 of 50399");
	strbuf_reset(&sb);
	thrift_put_zigzag(&sb, 0);
	thrift_put_zigzag(&sb, -1);
	thrift_put_zigzag(&sb, 1);
	thrift_put_zigzag(&sb, -2);
	thrift_put_zigzag(&sb, 2);
	CHECK(bytes_are(&sb, zz, sizeof(zz)), "zigzag 0 -1 1 -2 2");
	strbuf_reset(&sb);
	thrift_put_zigzag(&sb, INT64_MIN);
	CHECK(sb.len == 10 && (unsigned char)sb.buf[9] == 0x01,
	    "zigzag INT64_MIN: ten bytes");

	strbuf_reset(&sb);
	thrift_writer_init(&tw, &sb);
	thrift_struct_begin(&tw);
	thrift_field_i32(&tw, 1, 1);
	thrift_field_bool(&tw, 2, true);
	thrift_field_i64(&tw, 20, 3);
	thrift_field_list(&tw, 21, THRIFT_I32, 2);
	thrift_elem_i32(&tw, 1);
	thrift_elem_i32(&tw, 2);
	thrift_field_list(&tw, 22, THRIFT_BINARY, 15);
	CHECK(bytes_are(&sb, st, sizeof(st)),
	    "field headers: short form, bool in the type, long form, lists");
	for (i = 0; i < 15; i++)
		thrift_elem_string(&tw, "");
	thrift_struct_end(&tw);
	CHECK(sb.len == sizeof(st) + 15 + 1 && sb.buf[sb.len - 1] == 0,
	    "struct ends with a stop byte");
	strbuf_release(&sb);
}

static void
test_rle(void)
{
	struct strbuf sb = STRBUF_INIT;
	/* Encodings.md: 0..7 at bit width 3 pack to 10001000 11000110
	 * 11111010; one group of 8: header (1 << 1) | 1 */
	static const uint32_t v[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const unsigned char want[] = { 0x03, 0x88, 0xc6, 0xfa };
	static const unsigned char run[] = { 0xc8, 0x01, 0x05 };
	/* a run at width 29 repeats its value in 4 bytes, little-endian */
	static const unsigned char wide[] = { 0x10, 0x78, 0x56, 0x34, 0x12 };
	uint32_t r[100], mixed[200];
	uint64_t back[200];
	struct pqr_in in;
	char err[128];
	size_t i;

	enc_rle_hybrid(&sb, v, 8, 3);
	CHECK(bytes_are(&sb, want, sizeof(want)),
	    "hybrid: Encodings.md's bit-packing example");
	for (i = 0; i < 100; i++)
		r[i] = 5;
	strbuf_reset(&sb);
	enc_rle_hybrid(&sb, r, 100, 3);
	CHECK(bytes_are(&sb, run, sizeof(run)),
	    "hybrid: 100 fives are one RLE run (header 200, value 5)");
	for (i = 0; i < 8; i++)
		r[i] = 0x12345678;
	strbuf_reset(&sb);
	enc_rle_hybrid(&sb, r, 8, 29);
	CHECK(bytes_are(&sb, wide, sizeof(wide)),
	    "hybrid: an RLE run at width 29 holds its value in 4 bytes");

	/* literals, a run, literals: values survive a round trip */
	for (i = 0; i < 200; i++)
		mixed[i] = i < 3 ? (uint32_t)i : i < 40 ? 6 : (uint32_t)(i * 7 % 13);
	for (i = 0; i < 200; i += 7) {
		size_t n = 200 - i;
		int w;

		for (w = 4; w <= 32; w += 28) {
			strbuf_reset(&sb);
			enc_rle_hybrid(&sb, mixed + i, n, w);
			memset(&in, 0, sizeof(in));
			in.p = (const unsigned char *)sb.buf;
			in.len = sb.len;
			in.err = err;
			in.errlen = sizeof(err);
			if (pqr_hybrid(&in, w, n, back) || in.pos != in.len) {
				CHECK(0, "hybrid round trip");
				printf("#   from %zu, width %d: %s\n", i, w,
				    in.failed ? err : "bytes left");
				goto done;
			}
			for (size_t k = 0; k < n; k++)
				if (back[k] != mixed[i + k]) {
					CHECK(0, "hybrid round trip");
					printf("#   value %zu\n", i + k);
					goto done;
				}
		}
	}
	CHECK(1, "hybrid round trips: literals, runs, padding, widths 4 and 32");
done:
	strbuf_release(&sb);
}

static void
test_delta(void)
{
	struct strbuf sb = STRBUF_INIT;
	/* Encodings.md's examples, with our block of 128 values in 4
	 * miniblocks: header 128, 4, count, first value */
	static const int64_t ex1[] = { 1, 2, 3, 4, 5 };
	static const unsigned char want1[] = {
		0x80, 0x01, 0x04, 0x05, 0x02,	/* header */
		0x02, 0x00, 0x00, 0x00, 0x00	/* min delta 1, widths 0 */
	};
	static const int64_t ex2[] = { 7, 5, 3, 1, 2, 3, 4, 5 };
	static const unsigned char want2[] = {
		0x80, 0x01, 0x04, 0x08, 0x0e,	/* header: 8 values from 7 */
		0x03, 0x02, 0x00, 0x00, 0x00,	/* min delta -2; width 2 */
		0xc0, 0x3f, 0, 0, 0, 0, 0, 0	/* 0 0 0 3 3 3 3, padded */
	};
	int64_t v[1000], back[1000];
	struct pqr_in in;
	char err[128];
	size_t got, i, n;
	bool ok = true;

	enc_delta_int64(&sb, ex1, 5);
	CHECK(bytes_are(&sb, want1, sizeof(want1)), "delta: example 1");
	strbuf_reset(&sb);
	enc_delta_int64(&sb, ex2, 8);
	CHECK(bytes_are(&sb, want2, sizeof(want2)), "delta: example 2");

	/* wrapping deltas: INT64_MIN after INT64_MAX, and random steps */
	for (i = 0; i < 1000; i++)
		v[i] = i % 97 == 0 ? INT64_MAX : i % 89 == 0 ? INT64_MIN :
		    (int64_t)(i * 2654435761u % 100000) - 50000;
	for (n = 0; n <= 1000 && ok; n += n < 300 ? 1 : 233) {
		strbuf_reset(&sb);
		enc_delta_int64(&sb, v, n);
		memset(&in, 0, sizeof(in));
		in.p = (const unsigned char *)sb.buf;
		in.len = sb.len;
		in.err = err;
		in.errlen = sizeof(err);
		if (pqr_delta(&in, n, back, &got) || got != n ||
		    in.pos != in.len) {
			ok = false;
			printf("#   n %zu: %s\n", n, in.failed ? err : "size");
			break;
		}
		for (i = 0; i < n && ok; i++)
			if (back[i] != v[i]) {
				ok = false;
				printf("#   n %zu value %zu\n", n, i);
			}
	}
	CHECK(ok, "delta round trips, 0..300 values and more, extremes");
	strbuf_release(&sb);
}

static void
test_bss(void)
{
	struct strbuf sb = STRBUF_INIT;
	double v[2];
	uint64_t a = UINT64_C(0x0706050403020100), b = UINT64_C(0x1716151413121110);
	static const unsigned char want[] = {
		0x00, 0x10, 0x01, 0x11, 0x02, 0x12, 0x03, 0x13,
		0x04, 0x14, 0x05, 0x15, 0x06, 0x16, 0x07, 0x17
	};

	memcpy(&v[0], &a, 8);
	memcpy(&v[1], &b, 8);
	enc_bss_double(&sb, v, 2);
	CHECK(bytes_are(&sb, want, sizeof(want)),
	    "BYTE_STREAM_SPLIT: byte k of every value, stream by stream");
	strbuf_release(&sb);
}

/* ---------------------------------------------------------------------
 * Whole files
 */

#define NROWS 20000

struct table_data {
	int64_t		i[NROWS];
	double		d[NROWS];
	const char	*s[NROWS];	/* NULL = null */
	char		u[NROWS][24];
	int64_t		t[NROWS];
	unsigned char	inull[NROWS], dnull[NROWS], tnull[NROWS];
};

static uint64_t rng = 88172645463325252u;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
make_data(struct table_data *td, char long_str[700])
{
	static const char *words[] = { "ok", "timeout", "refused", "",
		"\xc3\xa9-utf8", "unreachable", NULL };
	uint64_t u;
	size_t r;

	memset(long_str, 'z', 699);
	long_str[699] = '\0';
	words[6] = long_str;
	for (r = 0; r < NROWS; r++) {
		td->inull[r] = next() % 10 == 0;
		td->i[r] = r % 1000 == 1 ? INT64_MIN : r % 1000 == 2 ?
		    INT64_MAX : (int64_t)(next() % 2000000) - 1000000;
		td->dnull[r] = next() % 17 == 0;
		u = next();
		switch (r % 9) {
		case 0:
			memcpy(&td->d[r], &u, 8);	/* any bits, NaNs too */
			break;
		case 1:
			td->d[r] = r % 2 ? -0.0 : 0.0;
			break;
		case 2:
			td->d[r] = r % 4 ? INFINITY : -INFINITY;
			break;
		default:
			td->d[r] = (double)(u % 1000000) / 1000.0;
		}
		/* long runs of one string, with nulls, some unique */
		td->s[r] = (r / 50) % 8 == 7 ? NULL :
		    words[(r / 50 + (r % 300 == 0)) % 7];
		snprintf(td->u[r], sizeof(td->u[r]), "u-%zu-%llu", r,
		    (unsigned long long)(next() % 1000));
		td->tnull[r] = r % 300 < 3;
		td->t[r] = 1787876523000000 + (int64_t)r * 1000;
	}
}

static const struct pq_column cols[] = {
	{ "i", PQ_INT64, true, false },
	{ "d", PQ_DOUBLE, true, false },
	{ "s", PQ_STRING, true, false },
	{ "u", PQ_STRING, false, true },
	{ "t", PQ_TIMESTAMP_US, true, false },
	{ "c", PQ_INT64, false, false },
};

/* Write td with options o in batches of batch rows; returns the file. */
static char *
write_file(const struct table_data *td, const struct pq_options *o,
    size_t batch, size_t *len, int *rc)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	struct pq_writer *w;
	struct pq_kv kv[] = { { "k", "v" }, { "pathstat.x", "{\"a\": 1}" } };
	size_t r, k, j;

	w = pq_writer_new(fp, "memory", cols, ARRAY_SIZE(cols), o);
	*rc = 0;
	for (r = 0; r < NROWS; r += k) {
		k = NROWS - r < batch ? NROWS - r : batch;
		pq_add_int64(w, 0, td->i + r, td->inull + r, k);
		pq_add_double(w, 1, td->d + r, td->dnull + r, k);
		for (j = 0; j < k; j++)
			pq_add_str_rep(w, 2, td->s[r + j], td->s[r + j] ?
			    strlen(td->s[r + j]) : 0, 1);
		for (j = 0; j < k; j++)
			pq_add_str_rep(w, 3, td->u[r + j], strlen(td->u[r + j]),
			    1);
		pq_add_int64(w, 4, td->t + r, td->tnull + r, k);
		pq_add_int64_rep(w, 5, 42, false, k);
		if (pq_end_rows(w))
			*rc = -1;
	}
	if (pq_finish(w, kv, 2))
		*rc = -1;
	pq_writer_free(w);
	fclose(fp);
	return buf;
}

static bool
same_double(double a, double b)
{
	return !memcmp(&a, &b, 8);
}

/* Every value and every chunk's null count equal what was written. */
static bool
check_file(const struct table_data *td, const struct pqr_file *f,
    const char *what)
{
	size_t r, k, c;
	int64_t nulls;
	char why[200] = "";

	if (f->ncols != ARRAY_SIZE(cols) || f->num_rows != NROWS) {
		snprintf(why, sizeof(why), "%zu columns, %lld rows", f->ncols,
		    (long long)f->num_rows);
		goto bad;
	}
	for (r = 0; r < NROWS; r++) {
		const struct pqr_col *ci = &f->cols[0], *cd = &f->cols[1];
		const struct pqr_col *cs = &f->cols[2], *cu = &f->cols[3];
		const struct pqr_col *ct = &f->cols[4], *cc = &f->cols[5];

		if (ci->isnull[r] != td->inull[r] ||
		    (!td->inull[r] && ci->i64[r] != td->i[r]) ||
		    cd->isnull[r] != td->dnull[r] ||
		    (!td->dnull[r] && !same_double(cd->f64[r], td->d[r])) ||
		    cs->isnull[r] != !td->s[r] ||
		    (td->s[r] && strcmp(cs->str[r], td->s[r])) ||
		    cu->isnull[r] || strcmp(cu->str[r], td->u[r]) ||
		    ct->isnull[r] != td->tnull[r] ||
		    (!td->tnull[r] && ct->i64[r] != td->t[r]) ||
		    cc->isnull[r] || cc->i64[r] != 42) {
			snprintf(why, sizeof(why), "row %zu differs", r);
			goto bad;
		}
	}
	/* null counts per chunk add up to the nulls written */
	for (c = 0; c < f->ncols; c++) {
		nulls = 0;
		for (k = 0; k < f->cols[c].nchunks; k++) {
			if (f->cols[c].null_count[k] < 0) {
				snprintf(why, sizeof(why), "column %zu: no "
				    "null_count", c);
				goto bad;
			}
			nulls += f->cols[c].null_count[k];
		}
		for (r = 0; r < NROWS; r++)
			nulls -= f->cols[c].isnull[r];
		if (nulls) {
			snprintf(why, sizeof(why), "column %zu: null_count off "
			    "by %lld", c, (long long)nulls);
			goto bad;
		}
	}
	return true;
bad:
	printf("#   %s: %s\n", what, why);
	return false;
}

/* Each chunk's min and max bound its values, and are met by one. */
static bool
check_stats(const struct pqr_file *f, const char *what)
{
	size_t c, k, r, end;
	bool ok = true, lo, hi, any;

	for (c = 0; c < f->ncols && ok; c++) {
		const struct pqr_col *col = &f->cols[c];

		for (k = 0; k < col->nchunks && ok; k++) {
			end = k + 1 < col->nchunks ? col->chunk_first[k + 1] :
			    col->n;
			lo = hi = any = false;
			for (r = col->chunk_first[k]; r < end; r++) {
				if (col->isnull[r])
					continue;
				if (col->ptype == 5 && isnan(col->f64[r]))
					continue;
				any = true;
				if (!col->min[k] || !col->max[k]) {
					/* only long strings go without */
					ok = col->ptype == 6;
					break;
				}
				if (col->ptype == 2) {
					int64_t mn, mx, x = col->i64[r];

					memcpy(&mn, col->min[k], 8);
					memcpy(&mx, col->max[k], 8);
					ok = ok && x >= mn && x <= mx;
					lo = lo || x == mn;
					hi = hi || x == mx;
				} else if (col->ptype == 5) {
					double mn, mx, x = col->f64[r];

					memcpy(&mn, col->min[k], 8);
					memcpy(&mx, col->max[k], 8);
					ok = ok && x >= mn && x <= mx;
					lo = lo || x == mn;
					hi = hi || x == mx;
					/* zeros: min -0.0, max +0.0 */
					if (x == 0 && ((mn == 0 && !signbit(mn)) ||
					    (mx == 0 && signbit(mx))))
						ok = false;
				} else {
					size_t l = col->slen[r];
					int a = memcmp(col->str[r], col->min[k],
					    l < col->min_len[k] ? l :
					    col->min_len[k]);
					int b = memcmp(col->str[r], col->max[k],
					    l < col->max_len[k] ? l :
					    col->max_len[k]);

					if (a < 0 || (!a && l < col->min_len[k]) ||
					    b > 0 || (!b && l > col->max_len[k]))
						ok = false;
					lo = lo || (l == col->min_len[k] && !a);
					hi = hi || (l == col->max_len[k] && !b);
				}
			}
			if (ok && any && col->min[k] && (!lo || !hi))
				ok = false;
			if (!ok)
				printf("#   %s: column %s chunk %zu statistics\n",
				    what, col->name, k);
		}
	}
	return ok;
}

static void
test_files(void)
{
	static struct table_data td;
	static char long_str[700];
	static const enum pq_codec codecs[] = {
		PQ_CODEC_ZSTD, PQ_CODEC_GZIP, PQ_CODEC_NONE
	};
	struct pq_options o;
	struct pqr_file f;
	char what[160], err[256];
	size_t len, c, variant;
	char *buf;
	int rc;

	make_data(&td, long_str);
	for (c = 0; c < ARRAY_SIZE(codecs); c++) {
		for (variant = 0; variant < 4; variant++) {
			memset(&o, 0, sizeof(o));
			o.codec = codecs[c];
			o.plain = variant == 1;
			if (variant >= 2) {
				/* many pages and row groups; the dictionary
				 * falls back to PLAIN */
				o.page_values = variant == 2 ? 1000 : 7;
				o.page_bytes = 300;
				o.dict_bytes = 40;
				o.row_group_bytes = variant == 2 ? 20000 : 3000;
			}
			snprintf(what, sizeof(what), "%s, %s", pq_codec_name(
			    o.codec), variant == 0 ? "defaults" : variant == 1 ?
			    "PLAIN only" : variant == 2 ?
			    "small pages and row groups" : "tiny pages");
			buf = write_file(&td, &o, variant == 3 ? 37 : 5000, &len,
			    &rc);
			CHECK(rc == 0, "a file written without error");
			if (pqr_read((unsigned char *)buf, len, &f, err,
			    sizeof(err))) {
				CHECK(0, what);
				printf("#   read: %s\n", err);
				free(buf);
				continue;
			}
			CHECK(check_file(&td, &f, what), what);
			CHECK(check_stats(&f, what), "statistics bound the "
			    "values and are met");
			if (variant == 0) {
				CHECK(f.nrg == 1 && f.cols[2].encodings ==
				    ((1u << 0) | (1u << 3) | (1u << 8)),
				    "strings: dictionary, RLE levels");
				CHECK(f.cols[0].encodings & (1u << 5),
				    "integers: DELTA_BINARY_PACKED");
				CHECK(f.cols[3].encodings == 1u,
				    "a unique column: PLAIN, no dictionary");
				CHECK(f.nkv == 2 && !strcmp(f.kv_key[1],
				    "pathstat.x") && !strcmp(f.kv_value[1],
				    "{\"a\": 1}"), "key-value metadata");
				CHECK(f.created_by && !strncmp(f.created_by,
				    "pathstat version ", 17),
				    "created_by: 'pathstat version ...'");
				CHECK(f.cols[4].ctype == 10 && f.cols[2].ctype == 0,
				    "TIMESTAMP_MICROS and UTF8 annotations");
			}
			if (variant == 1)
				CHECK(!(f.cols[0].encodings & ~((1u << 0) |
				    (1u << 3))) && !(f.cols[1].encodings &
				    ~((1u << 0) | (1u << 3))),
				    "PLAIN only: no delta, no byte stream split");
			if (variant == 2)
				CHECK(f.nrg > 1 && (f.cols[2].encodings & 1u),
				    "row groups, and PLAIN after the dictionary "
				    "filled");
			pqr_free(&f);
			free(buf);
		}
	}
}

/* Doubles whose high bytes repeat: byte stream split pays, and is
 * chosen; PLAIN where it does not. */
static void
test_double_choice(void)
{
	static const struct pq_column one[] = { { "d", PQ_DOUBLE, false, false } };
	static double v[50000];
	struct pq_options o;
	struct pq_writer *w;
	struct pqr_file f;
	char *buf = NULL, err[256];
	size_t len = 0, i, pass;
	uint64_t u;
	FILE *fp;
	bool same;

	uint64_t table[16];

	for (i = 0; i < 16; i++)
		table[i] = next() >> 2;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < 50000; i++) {
			u = pass == 0 ? UINT64_C(0x40f0000000000000) |
			    (next() & 0xffffffff) : table[next() % 16];
			memcpy(&v[i], &u, 8);
		}
		memset(&o, 0, sizeof(o));
		o.codec = PQ_CODEC_ZSTD;
		buf = NULL;
		fp = open_memstream(&buf, &len);
		w = pq_writer_new(fp, "memory", one, 1, &o);
		pq_add_double(w, 0, v, NULL, 50000);
		pq_end_rows(w);
		pq_finish(w, NULL, 0);
		pq_writer_free(w);
		fclose(fp);
		if (pqr_read((unsigned char *)buf, len, &f, err, sizeof(err))) {
			CHECK(0, "doubles read back");
			printf("#   %s\n", err);
			free(buf);
			continue;
		}
		same = f.cols[0].n == 50000;
		for (i = 0; same && i < 50000; i++)
			same = same_double(f.cols[0].f64[i], v[i]);
		CHECK(same, "doubles read back bit for bit");
		if (pass == 0)
			CHECK(f.cols[0].encodings == 1u << 9,
			    "random low bytes: BYTE_STREAM_SPLIT chosen");
		else
			CHECK(f.cols[0].encodings == 1u << 0,
			    "16 values over and over: PLAIN chosen");
		pqr_free(&f);
		free(buf);
	}
}

static void
test_empty_and_errors(void)
{
	struct pq_options o;
	struct pqr_file f;
	struct pq_writer *w;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *fp;
	int rc;

	memset(&o, 0, sizeof(o));
	o.codec = PQ_CODEC_ZSTD;
	fp = open_memstream(&buf, &len);
	w = pq_writer_new(fp, "memory", cols, ARRAY_SIZE(cols), &o);
	rc = pq_finish(w, NULL, 0);
	pq_writer_free(w);
	fclose(fp);
	CHECK(rc == 0, "an empty file is written");
	rc = pqr_read((unsigned char *)buf, len, &f, err, sizeof(err));
	CHECK(rc == 0 && f.num_rows == 0 && f.nrg == 0 && f.ncols == 6,
	    "an empty file: no row groups, the schema");
	if (!rc)
		pqr_free(&f);
	free(buf);

	fp = fopen("/dev/full", "wb");
	if (!fp) {
		printf("ok - skip /dev/full: not here\n");
		return;
	}
	setvbuf(fp, NULL, _IONBF, 0);
	w = pq_writer_new(fp, "/dev/full", cols, ARRAY_SIZE(cols), &o);
	pq_add_int64_rep(w, 0, 1, false, 10);
	pq_add_double(w, 1, (double[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, NULL,
	    10);
	pq_add_str_rep(w, 2, "x", 1, 10);
	pq_add_str_rep(w, 3, "y", 1, 10);
	pq_add_int64_rep(w, 4, 1, false, 10);
	pq_add_int64_rep(w, 5, 1, false, 10);
	pq_end_rows(w);
	rc = pq_finish(w, NULL, 0);
	pq_writer_free(w);
	fclose(fp);
	CHECK(rc == -1, "a full disk is an error, not a silent short file");
}

int
main(void)
{
	test_thrift();
	test_rle();
	test_delta();
	test_bss();
	test_files();
	test_double_choice();
	test_empty_and_errors();
	return test_done();
}
