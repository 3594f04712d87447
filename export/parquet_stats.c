/*
 * parquet_stats.c - the Statistics of a Parquet page and column chunk
 * (see parquet_stats.h): merge, reset, their bytes, and the thrift
 * struct the page header and the footer write.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "export/encode.h"
#include "export/parquet_stats.h"

/* Merge the page's statistics src into its chunk's dst. */
void
pq_stats_merge(struct pq_stats *dst, const struct pq_stats *src,
    enum pq_type type)
{
	dst->nans += src->nans;
	if (!src->has_minmax)
		return;
	switch (type) {
	case PQ_INT64:
	case PQ_TIMESTAMP_US:
		pq_stat_i64(dst, src->min_i);
		pq_stat_i64(dst, src->max_i);
		break;
	case PQ_DOUBLE:
		pq_stat_f64(dst, src->min_d);
		pq_stat_f64(dst, src->max_d);
		break;
	case PQ_STRING:
		pq_stat_str(dst, src->min_s.buf, src->min_s.len);
		pq_stat_str(dst, src->max_s.buf, src->max_s.len);
		break;
	}
}

void
pq_stats_reset(struct pq_stats *p)
{
	p->nans = 0;
	p->has_minmax = false;
	strbuf_reset(&p->min_s);
	strbuf_reset(&p->max_s);
}

static unsigned char *
dup_bytes(const void *p, size_t len)
{
	unsigned char *q = xmalloc(len ? len : 1);

	memcpy(q, p, len);
	return q;
}

/* Fill out with p's statistics as written, for a column of type with
 * nulls nulls; pq_stat_bytes_release() frees them. */
void
pq_stats_bytes(const struct pq_stats *p, enum pq_type type, uint64_t nulls,
    struct pq_stat_bytes *out)
{
	unsigned char b[8];
	double d;
	uint64_t u;

	memset(out, 0, sizeof(*out));
	out->nulls = (int64_t)nulls;
	out->nans = (int64_t)p->nans;
	if (!p->has_minmax)
		return;
	switch (type) {
	case PQ_INT64:
	case PQ_TIMESTAMP_US:
		enc_put_le64(b, (uint64_t)p->min_i);
		out->min = dup_bytes(b, 8);
		enc_put_le64(b, (uint64_t)p->max_i);
		out->max = dup_bytes(b, 8);
		out->min_len = out->max_len = 8;
		break;
	case PQ_DOUBLE:
		/* zeros: -0.0 as a min, +0.0 as a max (parquet.thrift,
		 * ColumnOrder) */
		d = p->min_d == 0 ? -0.0 : p->min_d;
		memcpy(&u, &d, 8);
		enc_put_le64(b, u);
		out->min = dup_bytes(b, 8);
		d = p->max_d == 0 ? 0.0 : p->max_d;
		memcpy(&u, &d, 8);
		enc_put_le64(b, u);
		out->max = dup_bytes(b, 8);
		out->min_len = out->max_len = 8;
		break;
	case PQ_STRING:
		if (p->min_s.len > PQ_STAT_MAX || p->max_s.len > PQ_STAT_MAX)
			return;
		out->min = dup_bytes(p->min_s.buf, p->min_s.len);
		out->max = dup_bytes(p->max_s.buf, p->max_s.len);
		out->min_len = p->min_s.len;
		out->max_len = p->max_s.len;
		break;
	}
	out->has_minmax = true;
}

void
pq_stat_bytes_release(struct pq_stat_bytes *st)
{
	free(st->min);
	free(st->max);
	st->min = st->max = NULL;
}

/* Write st as the Statistics struct in field id of the open struct. */
void
pq_stats_write(struct thrift_writer *tw, int16_t id, enum pq_type type,
    const struct pq_stat_bytes *st)
{
	thrift_field_struct(tw, id);		/* Statistics */
	if (st->has_minmax && type != PQ_STRING) {
		/* the deprecated pair: signed order, as ours */
		thrift_field_binary(tw, 1, st->max, st->max_len);
		thrift_field_binary(tw, 2, st->min, st->min_len);
	}
	thrift_field_i64(tw, 3, st->nulls);
	if (st->has_minmax) {
		thrift_field_binary(tw, 5, st->max, st->max_len);
		thrift_field_binary(tw, 6, st->min, st->min_len);
	}
	if (type == PQ_DOUBLE)
		thrift_field_i64(tw, 9, st->nans);
	thrift_struct_end(tw);			/* Statistics */
}
