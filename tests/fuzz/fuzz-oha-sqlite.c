/*
 * fuzz-oha-sqlite.c - libFuzzer target: any bytes as an oha --db-url
 * SQLite file, through ingest_parse_oha_sqlite(); the parser must not
 * crash, leak or break its contract (fuzz-check.h).  Seeds:
 * tests/fuzz/corpus/oha-sqlite/.
 */
#include "common/compat.h"

#include <stdint.h>

#include "ingest/internal.h"
#include "tests/fuzz/fuzz-check.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(ingest_parse_oha_sqlite, data, size);
	return 0;
}
