/*
 * parquet_stats.h - the Statistics of a Parquet page and column chunk
 * (parquet.thrift Statistics), private to the writer (parquet.c): the
 * running min, max and NaN count that each append updates, their merge
 * from page to chunk, and their bytes as the page header and the footer
 * write them.  The updaters are inline: they run once per value.
 */
#ifndef EXPORT_PARQUET_STATS_H
#define EXPORT_PARQUET_STATS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/strbuf.h"
#include "export/parquet.h"
#include "export/thrift.h"

/* String statistics longer than this are left out rather than cut
 * (a cut max would need a byte incremented, maybe inside a UTF-8
 * character). */
#define PQ_STAT_MAX		512

/* Statistics of a page or a column chunk: the appends update the page's
 * alone, and a page's flush merges them into its chunk's. */
struct pq_stats {
	uint64_t	nans;
	bool		has_minmax;	/* a non-null value other than NaN */
	int64_t		min_i, max_i;
	double		min_d, max_d;
	struct strbuf	min_s, max_s;
};

/* Statistics as written: a chunk's in the footer, a page's in its
 * header. */
struct pq_stat_bytes {
	int64_t		nulls, nans;
	bool		has_minmax;
	unsigned char	*min, *max;	/* PLAIN bytes without length; owned */
	size_t		min_len, max_len;
};

static inline int
pq_bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static inline void
pq_stat_str(struct pq_stats *p, const char *s, size_t len)
{
	if (!p->has_minmax) {
		strbuf_add(&p->min_s, s, len);
		strbuf_add(&p->max_s, s, len);
		p->has_minmax = true;
		return;
	}
	if (pq_bytes_cmp(s, len, p->min_s.buf, p->min_s.len) < 0) {
		strbuf_reset(&p->min_s);
		strbuf_add(&p->min_s, s, len);
	}
	if (pq_bytes_cmp(s, len, p->max_s.buf, p->max_s.len) > 0) {
		strbuf_reset(&p->max_s);
		strbuf_add(&p->max_s, s, len);
	}
}

static inline void
pq_stat_i64(struct pq_stats *p, int64_t v)
{
	if (!p->has_minmax) {
		p->min_i = p->max_i = v;
		p->has_minmax = true;
	} else if (v < p->min_i) {
		p->min_i = v;
	} else if (v > p->max_i) {
		p->max_i = v;
	}
}

static inline void
pq_stat_f64(struct pq_stats *p, double v)
{
	if (isnan(v)) {
		p->nans++;
	} else if (!p->has_minmax) {
		p->min_d = p->max_d = v;
		p->has_minmax = true;
	} else if (v < p->min_d) {
		p->min_d = v;
	} else if (v > p->max_d) {
		p->max_d = v;
	}
}

void pq_stats_merge(struct pq_stats *dst, const struct pq_stats *src,
    enum pq_type type);
void pq_stats_reset(struct pq_stats *p);
void pq_stats_bytes(const struct pq_stats *p, enum pq_type type,
    uint64_t nulls, struct pq_stat_bytes *out);
void pq_stat_bytes_release(struct pq_stat_bytes *st);
void pq_stats_write(struct thrift_writer *tw, int16_t id, enum pq_type type,
    const struct pq_stat_bytes *st);

#endif
