/*
 * fuzz-probe-csv.c - libFuzzer target: any bytes as pathprobe's CSV
 * output, through ingest_parse_pathprobe(); the parser must not
 * crash, leak or break its contract (fuzz-check.h), and the CSV
 * reader's fast path must agree with libcsv (fuzz-csv.h).  Seeds:
 * tests/fuzz/corpus/probe-csv/.
 */
#include "common/compat.h"

#include <stdint.h>

#include "ingest/internal.h"
#include "tests/fuzz/fuzz-check.h"
#include "tests/fuzz/fuzz-csv.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(ingest_parse_pathprobe, data, size);
	fuzz_csv_same(data, size);
	return 0;
}
