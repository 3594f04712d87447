/*
 * fuzz-oha-csv.c - libFuzzer target: any bytes as oha's per-request
 * CSV, through ingest_parse_oha_csv(); the parser must not
 * crash, leak or break its contract (fuzz-check.h), and the CSV
 * reader's fast path must agree with libcsv (fuzz-csv.h).  Seeds:
 * tests/fuzz/corpus/oha-csv/.
 */
#include "common/compat.h"

#include <stdint.h>

#include "ingest/internal.h"
#include "tests/fuzz/fuzz-check.h"
#include "tests/fuzz/fuzz-csv.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(ingest_parse_oha_csv, data, size);
	fuzz_csv_same(data, size);
	return 0;
}
