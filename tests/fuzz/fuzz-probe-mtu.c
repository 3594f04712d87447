/*
 * fuzz-probe-mtu.c - libFuzzer target: any bytes as `pathprobe --mtu`
 * output (mtu.txt), through ingest_parse_pathprobe_mtu(); the parser
 * must not crash, leak or break its contract (fuzz-check.h), and an
 * MTU result must be found with a size or unknown with a reason.
 * Seeds: tests/fuzz/corpus/probe-mtu/.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "ingest/internal.h"
#include "tests/fuzz/fuzz-check.h"

/* The parser again, to look at the MTU result fuzz_parse() frees. */
static void
check_mtu(const uint8_t *data, size_t size)
{
	struct parse_result res;
	const struct parsed_mtu *m;

	parse_result_init(&res);
	if (ingest_parse_pathprobe_mtu((const char *)data, size, &res) == 0) {
		if (res.nruns != 1 || !res.runs[0].mtu)
			abort();
		m = res.runs[0].mtu;
		if (!m->method || !*m->method)
			abort();
		if (m->found ? m->mtu < 68 || m->mtu > 65535 || m->reason :
		    !m->reason || !*m->reason)
			abort();
	}
	parse_result_release(&res);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(ingest_parse_pathprobe_mtu, data, size);
	check_mtu(data, size);
	return 0;
}
