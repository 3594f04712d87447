/*
 * fuzz-iperf3.c - libFuzzer target for the iperf3 parser: any bytes in,
 * ingest_parse_iperf3() must return 0 or -1 without crashing, reading out
 * of bounds or leaking, and a result is always released.
 */
#include "common/compat.h"

#include <stdlib.h>

#include "ingest/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parse_result res;
	int rc;

	parse_result_init(&res);
	rc = ingest_parse_iperf3((const char *)data, size, &res);
	if ((rc == 0) != (res.nruns > 0) || (rc != 0 && rc != -1))
		abort();	/* runs exactly when the file is accepted */
	parse_result_release(&res);
	return 0;
}
