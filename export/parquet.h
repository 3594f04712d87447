/*
 * parquet.h - pathstat's own Parquet writer: flat schemas of required or
 * optional INT64, DOUBLE, UTF-8 string and UTC-microsecond timestamp
 * columns; data pages v1; dictionary + RLE for strings (PLAIN when the
 * dictionary stops paying), DELTA_BINARY_PACKED for integers,
 * BYTE_STREAM_SPLIT or PLAIN for doubles (whichever compresses smaller
 * on the chunk's first page); ZSTD, GZIP or no compression; min, max,
 * null (and NaN) counts per column chunk; a Thrift compact footer with
 * key-value metadata.  Written from parquet-format's parquet.thrift,
 * README.md, Encodings.md and Compression.md.
 *
 * Rows are appended column by column in batches: add the same number of
 * values to every column, then call pq_end_rows(), which may flush a row
 * group.  A batch is never split across row groups.
 */
#ifndef PATHSTAT_EXPORT_PARQUET_H
#define PATHSTAT_EXPORT_PARQUET_H

#include "common/compat.h"

#include <stdio.h>

enum pq_type {
	PQ_INT64,		/* INT64 */
	PQ_DOUBLE,		/* DOUBLE */
	PQ_STRING,		/* BYTE_ARRAY, logical type STRING (UTF8) */
	PQ_TIMESTAMP_US		/* INT64, TIMESTAMP(isAdjustedToUTC, MICROS) */
};

enum pq_codec {
	PQ_CODEC_NONE,
	PQ_CODEC_GZIP,
	PQ_CODEC_ZSTD
};

struct pq_column {
	const char	*name;		/* borrowed; must outlive the writer */
	enum pq_type	type;
	bool		optional;	/* may hold nulls */
	bool		unique;		/* strings that rarely repeat: PLAIN,
					 * no dictionary */
};

struct pq_options {
	enum pq_codec	codec;
	int		level;		/* codec level; 0 = the default */
	bool		plain;		/* only PLAIN and dictionary encodings,
					 * for readers without DELTA_* and
					 * BYTE_STREAM_SPLIT */
	size_t		page_values;	/* values per data page (0: 128 Ki) */
	size_t		page_bytes;	/* string bytes a page (0: 1 MiB) */
	size_t		dict_bytes;	/* a dictionary's size before the
					 * chunk falls back to PLAIN
					 * (0: 1 MiB) */
	size_t		row_group_bytes;	/* compressed bytes that end a
						 * row group (0: 64 MiB) */
};

struct pq_kv {
	const char	*key;		/* borrowed */
	const char	*value;		/* borrowed */
};

struct pq_writer;

/* Codec names as the command line spells them: "zstd", "gzip", "none". */
int pq_codec_parse(const char *s, enum pq_codec *out);
const char *pq_codec_name(enum pq_codec c);

/*
 * Start a file on fp (borrowed, opened for writing, positioned at 0):
 * writes the magic.  cols is copied (the names are borrowed).  Returns a
 * writer to pass to pq_writer_free(); never NULL (allocation failure
 * exits).  Write errors are reported by the calls that meet them.
 */
struct pq_writer *pq_writer_new(FILE *fp, const char *path,
    const struct pq_column *cols, size_t ncols, const struct pq_options *o);
void pq_writer_free(struct pq_writer *w);

/*
 * Append n values to column col.  isnull may be NULL (no nulls); a
 * non-NULL entry marks a null, whose value is ignored.  Nulls in a
 * required column are a programming error (die).
 */
void pq_add_int64(struct pq_writer *w, size_t col, const int64_t *v,
    const unsigned char *isnull, size_t n);
void pq_add_double(struct pq_writer *w, size_t col, const double *v,
    const unsigned char *isnull, size_t n);
/* n copies of one value; s NULL for n nulls. */
void pq_add_int64_rep(struct pq_writer *w, size_t col, int64_t v, bool null,
    size_t n);
void pq_add_str_rep(struct pq_writer *w, size_t col, const char *s,
    size_t len, size_t n);

/* Every column has the same number of rows: the batch is complete.  May
 * write a row group.  Returns 0, or -1 after reporting a write error. */
int pq_end_rows(struct pq_writer *w);

/*
 * Write the last row group and the footer with the key-value metadata
 * (kv[0..nkv), borrowed), then flush fp (not closed).  Returns 0, or -1
 * after reporting an error.
 */
int pq_finish(struct pq_writer *w, const struct pq_kv *kv, size_t nkv);

/* Rows appended so far, and bytes written to fp so far. */
uint64_t pq_rows(const struct pq_writer *w);
uint64_t pq_bytes(const struct pq_writer *w);
/* XXH3-128 of the bytes written so far, as 32 hex digits. */
void pq_hash(const struct pq_writer *w, char out[33]);

#endif
