/*
 * fuzz-oha-json.c - libFuzzer target: any bytes as oha's JSON summary,
 * through ingest_parse_oha_json(); the parser must not
 * crash, leak or break its contract (fuzz-check.h).  Seeds:
 * tests/fuzz/corpus/oha-json/.
 */
#include "common/compat.h"

#include <stdint.h>

#include "ingest/internal.h"
#include "tests/fuzz/fuzz-check.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(ingest_parse_oha_json, data, size);
	return 0;
}
