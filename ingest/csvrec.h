/*
 * csvrec.h - CSV records for the ingest parsers: libcsv splits the bytes,
 * this layer adds line numbers, a cap on field length and on the fields
 * kept per record, and exact number parsing of a field.
 */
#ifndef PATHSTAT_INGEST_CSVREC_H
#define PATHSTAT_INGEST_CSVREC_H

#include "common/compat.h"

struct strbuf;

#define CSV_REC_MAX_FIELDS	16		/* fields kept per record */
#define CSV_FIELD_MAX		(1u << 20)	/* longest field, bytes */

/*
 * One record.  field[] holds the first CSV_REC_MAX_FIELDS fields (none
 * when a field callback is given), NUL-terminated and borrowed for the
 * duration of the callback.
 */
struct csv_rec {
	const char	*field[CSV_REC_MAX_FIELDS];	/* kept fields */
	size_t		flen[CSV_REC_MAX_FIELDS];	/* their lengths */
	size_t		nfields;	/* fields in the record, all of them */
	size_t		line;		/* 1-based line where it starts */
	bool		terminated;	/* false: a last line without '\n' */
};

/* Called once per non-empty record, in input order. */
typedef void (*csv_rec_fn)(const struct csv_rec *rec, void *data);
/* Called for field i (from 0) of the current record as soon as it ends;
 * s is NUL-terminated and valid only during the call. */
typedef void (*csv_field_fn)(size_t i, const char *s, size_t len,
    void *data);

/*
 * Split buf[0..len) into CSV records (RFC 4180 quoting, CR, LF or CRLF
 * line ends, blank lines skipped) and call rec_fn for each.  When
 * field_fn is not NULL every field goes to it instead of being kept in
 * the record (no copy: the fast way for big files).  first_line is the
 * line number of buf[0].  Returns 0 when the whole input was read, or -1
 * when reading stopped early (a field longer than CSV_FIELD_MAX), with
 * the reason, naming the line, appended to why; the records before it
 * were delivered.
 */
int ingest_csv_each(const char *buf, size_t len, size_t first_line,
    csv_field_fn field_fn, csv_rec_fn rec_fn, void *data,
    struct strbuf *why);

/* ingest_csv_each() with libcsv reading every line: what its fast path
 * for plain lines must give, for the tests that compare the two. */
int ingest_csv_each_full(const char *buf, size_t len, size_t first_line,
    csv_field_fn field_fn, csv_rec_fn rec_fn, void *data,
    struct strbuf *why);

/*
 * The whole of s[0..len) as a finite double.  Plain decimals ("0.0026",
 * "-12", "3.") take an exact fast path; anything else goes through
 * strtod.  Returns 0, or -1 for an empty, partial, non-finite or
 * out-of-range number.  The result is bit-identical to strtod's.
 */
int ingest_field_double(const char *s, size_t len, double *out);

/* 0 when s[0..len) is a finite number >= 0 (as ingest_field_double()
 * would read it; "-0" counts as 0), else -1.  Cheaper: no conversion. */
int ingest_field_nonneg(const char *s, size_t len);

/* The whole of s[0..len) as a base-10 int64 (optional '-').  0 or -1. */
int ingest_field_int64(const char *s, size_t len, int64_t *out);

#endif
