/*
 * oha_common.c - helpers shared by the oha parsers (see oha_common.h).
 */
#include "common/compat.h"

#include <stdio.h>
#include <string.h>

#include "ingest/internal.h"
#include "ingest/oha_common.h"

void
oha_status_tally_flush(struct oha_status_tally *t, struct parsed_run *run)
{
	char label[16];	/* an int in decimal, with room GCC can prove */
	int code;

	for (code = OHA_STATUS_MIN; code <= OHA_STATUS_MAX; code++) {
		if (!t->n[code])
			continue;
		snprintf(label, sizeof(label), "%d", code);
		parsed_run_add_count(run, "status", label, t->n[code]);
		t->n[code] = 0;
	}
}
