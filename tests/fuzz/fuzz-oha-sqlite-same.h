/*
 * fuzz-oha-sqlite-same.h - for the oha SQLite parser's fuzz target and
 * unit tests: ingest_parse_oha_sqlite(), which reads oha's table from
 * the file's pages when it can, must give exactly what SQLite's own
 * reader gives (oha_sqlite_parse_by_sqlite()): the same return,
 * reasons, runs, samples and counts.
 */
#ifndef PATHSTAT_TESTS_FUZZ_OHA_SQLITE_SAME_H
#define PATHSTAT_TESTS_FUZZ_OHA_SQLITE_SAME_H

#include "common/compat.h"

#include <stdint.h>
#include <string.h>

#include "common/strbuf.h"
#include "ingest/internal.h"
#include "ingest/oha_btree.h"

/* Everything a parse gave, as text into out (appended). */
static void PATHSTAT_UNUSED
oha_result_text(int rc, const struct parse_result *res, struct strbuf *out)
{
	size_t r, i;

	strbuf_addf(out, "rc %d partial %d version '%s' reason '%s'\n", rc,
	    res->partial, res->tool_version, res->reason.buf);
	for (r = 0; r < res->nruns; r++) {
		const struct parsed_run *run = &res->runs[r];

		strbuf_addf(out, "run %s %d %lld %d '%s' %lld %lld\n",
		    run->tool, run->metric, (long long)run->started_at,
		    run->partial, run->reason.buf, (long long)run->failures,
		    (long long)run->attempts);
		for (i = 0; i < run->tags.n; i++)
			strbuf_addf(out, "tag %s=%s\n", run->tags.items[i].key,
			    run->tags.items[i].value);
		for (i = 0; i < run->ncounts; i++)
			strbuf_addf(out, "count %s %s %lld\n",
			    run->counts[i].kind, run->counts[i].label,
			    (long long)run->counts[i].count);
		for (i = 0; i < run->nsamples; i++) {
			const struct parsed_sample *s = &run->samples[i];
			uint64_t u;

			memcpy(&u, &s->value, sizeof(u));
			strbuf_addf(out, "%u %u %u %lld %016llx\n", s->seq,
			    s->metric, s->status, (long long)s->t_us,
			    (unsigned long long)u);
		}
	}
}

/* One reading of data[0..size) into out (emptied first). */
static void PATHSTAT_UNUSED
oha_sqlite_read(const uint8_t *data, size_t size, bool by_sqlite,
    struct strbuf *out)
{
	struct parse_result res;
	int rc;

	parse_result_init(&res);
	rc = (by_sqlite ? oha_sqlite_parse_by_sqlite :
	    ingest_parse_oha_sqlite)((const char *)data, size, &res);
	strbuf_reset(out);
	oha_result_text(rc, &res, out);
	parse_result_release(&res);
}

/*
 * Do both readers agree on data[0..size)?  Sets *a and *b to their
 * texts.  SQLite's own answer on an image whose last page is cut short
 * differs from one connection to the next ("after 16 rows", then
 * "after 425"); the page reader leaves such an image to SQLite, so it
 * is read by SQLite both ways and not compared.  Nor is SQLite's own
 * message when it cannot read the schema, before either reader starts
 * on oha's table: on one damaged image it was "malformed database
 * schema (?)" on one connection and "database disk image is malformed"
 * on the next, alternating (the seed schema-message.db); both readers
 * reject, with a reason from the same SQLite call.
 */
static bool PATHSTAT_UNUSED
oha_sqlite_same(const uint8_t *data, size_t size, struct strbuf *a,
    struct strbuf *b)
{
	static const char schema_fail[] =
	    "rc -1 partial 0 version '' reason 'cannot read database: ";
	size_t page = size >= 18 ? (size_t)data[16] << 8 | data[17] : 0;

	if (page == 1)
		page = 65536;
	oha_sqlite_read(data, size, false, a);
	oha_sqlite_read(data, size, true, b);
	if (page && size % page)
		return true;
	if (!strncmp(a->buf, schema_fail, strlen(schema_fail)) &&
	    !strncmp(b->buf, schema_fail, strlen(schema_fail)) &&
	    !strchr(a->buf, '\n')[1] && !strchr(b->buf, '\n')[1])
		return true;
	return a->len == b->len && !memcmp(a->buf, b->buf, a->len);
}

#endif
