/*
 * fuzz-csv.h - for the CSV parsers' fuzz targets: ingest_csv_each(),
 * whose fast path splits plain lines itself, must give exactly what
 * libcsv alone gives (ingest_csv_each_full()): the same records, fields,
 * line numbers, return and reason, read both ways.  A difference aborts.
 */
#ifndef PATHSTAT_TESTS_FUZZ_CSV_H
#define PATHSTAT_TESTS_FUZZ_CSV_H

#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "ingest/csvrec.h"

/* What one reading gave, and whether its fields came one by one. */
struct fuzz_csv_trace {
	struct strbuf	out;
	bool		by_field;
};

static void
fuzz_csv_rec(const struct csv_rec *rec, void *data)
{
	struct fuzz_csv_trace *t = data;
	size_t i;

	strbuf_addf(&t->out, "%zu:%zu:%d:", rec->line, rec->nfields,
	    rec->terminated);
	for (i = 0; !t->by_field && i < rec->nfields &&
	    i < CSV_REC_MAX_FIELDS; i++) {
		strbuf_addf(&t->out, "%zu=", rec->flen[i]);
		strbuf_add(&t->out, rec->field[i], rec->flen[i]);
	}
	strbuf_addch(&t->out, ';');
}

static void
fuzz_csv_field(size_t i, const char *s, size_t len, void *data)
{
	struct fuzz_csv_trace *t = data;

	strbuf_addf(&t->out, "%zu#%zu=", i, len);
	strbuf_add(&t->out, s, len);
}

/* One reading into t->out (emptied first). */
static void
fuzz_csv_read(const uint8_t *data, size_t size, bool full,
    struct fuzz_csv_trace *t)
{
	struct strbuf why = STRBUF_INIT;
	int rc;

	strbuf_reset(&t->out);
	rc = (full ? ingest_csv_each_full : ingest_csv_each)(
	    (const char *)data, size, 1, t->by_field ? fuzz_csv_field : NULL,
	    fuzz_csv_rec, t, &why);
	strbuf_addf(&t->out, "rc %d why %s", rc, why.buf);
	strbuf_release(&why);
}

static void
fuzz_csv_same(const uint8_t *data, size_t size)
{
	struct fuzz_csv_trace a = { STRBUF_INIT, false };
	struct fuzz_csv_trace b = { STRBUF_INIT, false };
	int mode;

	for (mode = 0; mode < 2; mode++) {
		a.by_field = b.by_field = mode;
		fuzz_csv_read(data, size, false, &a);
		fuzz_csv_read(data, size, true, &b);
		if (a.out.len != b.out.len ||
		    memcmp(a.out.buf, b.out.buf, a.out.len))
			abort();
	}
	strbuf_release(&a.out);
	strbuf_release(&b.out);
}

#endif
