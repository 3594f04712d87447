/*
 * fuzz-parquet.c - libFuzzer target for the Parquet writer's encoders
 * (export/): the bytes choose the options (codec, PLAIN only, page,
 * dictionary and row-group sizes) and the rows (integers from 1 to 8
 * bytes, any 64-bit double, strings that repeat or not, nulls, batch
 * sizes); the file is written in memory and read back with the tests'
 * own reader (tests/unit/pq-read.h), and every value, null and row count
 * must come back bit for bit.  The hybrid and delta encoders are also
 * round-tripped on their own.  A mismatch aborts.
 * Seeds: tests/fuzz/corpus/parquet/.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "export/encode.h"
#include "export/parquet.h"
#include "tests/unit/pq-read.h"

#define MAX_ROWS 4096

struct input {
	const uint8_t	*p;
	size_t		len, pos;
};

static uint8_t
take(struct input *in)
{
	return in->pos < in->len ? in->p[in->pos++] : 0;
}

static uint64_t
take_n(struct input *in, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)take(in) << (8 * i);
	return v;
}

struct rows {
	int64_t		i[MAX_ROWS];
	double		d[MAX_ROWS];
	unsigned char	inull[MAX_ROWS], dnull[MAX_ROWS], snull[MAX_ROWS];
	char		s[MAX_ROWS][24];
	size_t		slen[MAX_ROWS];
	size_t		n;
};

static const struct pq_column cols[] = {
	{ "i", PQ_INT64, true, false },
	{ "d", PQ_DOUBLE, true, false },
	{ "s", PQ_STRING, true, false },
	{ "r", PQ_INT64, false, false },
};

static void
round_trip_encoders(struct input *in)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t v[300];
	uint64_t back[300];
	int64_t d[300], dback[300];
	struct pqr_in r;
	char err[128];
	size_t n = take(in) % 300, i, got;
	int w = take(in) % 33;

	for (i = 0; i < n; i++) {
		v[i] = (uint32_t)take_n(in, take(in) % 5);
		if (w < 32)
			v[i] &= (UINT32_C(1) << w) - 1;
		d[i] = (int64_t)take_n(in, 1 + take(in) % 8);
	}
	enc_rle_hybrid(&sb, v, n, w);
	memset(&r, 0, sizeof(r));
	r.p = (const unsigned char *)sb.buf;
	r.len = sb.len;
	r.err = err;
	r.errlen = sizeof(err);
	if (pqr_hybrid(&r, w, n, back) || r.pos != r.len)
		abort();
	for (i = 0; i < n; i++)
		if (back[i] != v[i])
			abort();
	strbuf_reset(&sb);
	enc_delta_int64(&sb, d, n);
	memset(&r, 0, sizeof(r));
	r.p = (const unsigned char *)sb.buf;
	r.len = sb.len;
	r.err = err;
	r.errlen = sizeof(err);
	if (pqr_delta(&r, n, dback, &got) || got != n || r.pos != r.len)
		abort();
	for (i = 0; i < n; i++)
		if (dback[i] != d[i])
			abort();
	strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rows rows;
	struct input in = { data, size, 0 };
	struct pq_options o;
	struct pq_writer *w;
	struct pqr_file f;
	char *buf = NULL, err[256];
	size_t len = 0, k, j, r;
	uint8_t b;
	FILE *fp;

	round_trip_encoders(&in);
	memset(&o, 0, sizeof(o));
	b = take(&in);
	o.codec = b % 3 == 0 ? PQ_CODEC_ZSTD : b % 3 == 1 ? PQ_CODEC_GZIP :
	    PQ_CODEC_NONE;
	o.plain = (b >> 2) & 1;
	o.page_values = 1 + take(&in) % 200;
	o.page_bytes = 1 + take(&in) * 4u;
	o.dict_bytes = 1 + take(&in);
	o.row_group_bytes = 64 + take(&in) * 64u;
	rows.n = 0;
	fp = open_memstream(&buf, &len);
	if (!fp)
		return 0;
	w = pq_writer_new(fp, "memory", cols, ARRAY_SIZE(cols), &o);
	while (in.pos < in.len && rows.n < MAX_ROWS) {
		b = take(&in);
		k = 1 + b % 64;
		if (k > MAX_ROWS - rows.n)
			k = MAX_ROWS - rows.n;
		for (j = 0; j < k; j++) {
			r = rows.n + j;
			b = take(&in);
			rows.inull[r] = b & 1;
			rows.i[r] = (int64_t)take_n(&in, 1 + (b >> 1) % 8);
			if (b & 0x10)
				rows.i[r] = ~rows.i[r];
			rows.dnull[r] = (b >> 5) & 1;
			{
				uint64_t u = take_n(&in, (b & 0x40) ? 8 : 2);

				memcpy(&rows.d[r], &u, 8);
			}
			rows.snull[r] = (b & 0x80) && (take(&in) & 1);
			if (r && !(take(&in) & 3)) {
				/* a repeat: dictionaries and RLE runs */
				memcpy(rows.s[r], rows.s[r - 1], 24);
				rows.slen[r] = rows.slen[r - 1];
			} else {
				rows.slen[r] = take(&in) % 24;
				for (size_t c = 0; c < rows.slen[r]; c++)
					rows.s[r][c] = (char)take(&in);
			}
		}
		pq_add_int64(w, 0, rows.i + rows.n, rows.inull + rows.n, k);
		pq_add_double(w, 1, rows.d + rows.n, rows.dnull + rows.n, k);
		for (j = 0; j < k; j++) {
			r = rows.n + j;
			pq_add_str_rep(w, 2, rows.snull[r] ? NULL : rows.s[r],
			    rows.slen[r], 1);
		}
		pq_add_int64_rep(w, 3, (int64_t)k, false, k);
		rows.n += k;
		if (pq_end_rows(w))
			abort();
	}
	if (pq_finish(w, NULL, 0))
		abort();
	pq_writer_free(w);
	fclose(fp);
	if (pqr_read((unsigned char *)buf, len, &f, err, sizeof(err))) {
		fprintf(stderr, "fuzz-parquet: read back: %s\n", err);
		abort();
	}
	if (f.num_rows != (int64_t)rows.n || f.ncols != ARRAY_SIZE(cols))
		abort();
	for (r = 0; r < rows.n; r++) {
		if (f.cols[0].isnull[r] != rows.inull[r] ||
		    (!rows.inull[r] && f.cols[0].i64[r] != rows.i[r]))
			abort();
		if (f.cols[1].isnull[r] != rows.dnull[r] || (!rows.dnull[r] &&
		    memcmp(&f.cols[1].f64[r], &rows.d[r], 8)))
			abort();
		if (f.cols[2].isnull[r] != rows.snull[r] || (!rows.snull[r] &&
		    (f.cols[2].slen[r] != rows.slen[r] ||
		    memcmp(f.cols[2].str[r], rows.s[r], rows.slen[r]))))
			abort();
		if (f.cols[3].isnull[r])
			abort();
	}
	pqr_free(&f);
	free(buf);
	return 0;
}
