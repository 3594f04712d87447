/*
 * fuzz-oha-sqlite.c - libFuzzer target: any bytes as an oha --db-url
 * SQLite file, through ingest_parse_oha_sqlite(); the parser must not
 * crash, leak or break its contract (fuzz-check.h), and reading the
 * table from the pages must give what SQLite's reader gives
 * (fuzz-oha-sqlite-same.h; a difference aborts).  Seeds:
 * tests/fuzz/corpus/oha-sqlite/.
 */
#include "common/compat.h"

#include <stdint.h>

#include "ingest/internal.h"
#include "tests/fuzz/fuzz-check.h"
#include "tests/fuzz/fuzz-oha-sqlite-same.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	bool same;

	fuzz_parse(ingest_parse_oha_sqlite, data, size);
	same = oha_sqlite_same(data, size, &a, &b);
	strbuf_release(&a);
	strbuf_release(&b);
	if (!same)
		abort();
	return 0;
}
