/*
 * fuzz-check.h - what every ingest fuzz target checks besides "no crash,
 * no leak": the parser contract of ingest/internal.h.  A broken
 * invariant aborts, which libFuzzer reports as a crash with the input.
 */
#ifndef PATHSTAT_TESTS_FUZZ_CHECK_H
#define PATHSTAT_TESTS_FUZZ_CHECK_H

#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/internal.h"

typedef int (*fuzz_parser_fn)(const char *buf, size_t len,
    struct parse_result *res);

/*
 * Run fn on the bytes and check: a rejection (-1) has a reason and no
 * runs; a success (0) has at least one run, a tool version, a reason
 * whenever something is partial, and samples whose seq counts from 0
 * per metric, whose value is finite when ok and NaN otherwise.
 */
static void
fuzz_parse(fuzz_parser_fn fn, const uint8_t *data, size_t size)
{
	struct parse_result res;
	const struct parsed_run *run;
	uint32_t next[METRIC_ID_LIMIT];
	size_t i, j;
	int rc;

	parse_result_init(&res);
	rc = fn((const char *)data, size, &res);
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && (res.nruns || !res.reason.len))
		abort();
	if (rc == 0 && (!res.nruns || !res.tool_version[0] ||
	    (res.partial && !res.reason.len)))
		abort();
	for (i = 0; i < res.nruns; i++) {
		run = &res.runs[i];
		if (!run->tool || (run->partial && !run->reason.len) ||
		    run->failures < 0 || run->attempts < -1)
			abort();
		memset(next, 0, sizeof(next));
		for (j = 0; j < run->nsamples; j++) {
			const struct parsed_sample *s = &run->samples[j];

			if (s->metric == 0 || s->metric >= METRIC_ID_LIMIT ||
			    s->seq != next[s->metric]++)
				abort();
			if (s->status == SAMPLE_OK ? !isfinite(s->value) :
			    !isnan(s->value))
				abort();
		}
		for (j = 0; j < run->ncounts; j++)
			if (!run->counts[j].label || run->counts[j].count < 0)
				abort();
	}
	parse_result_release(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
