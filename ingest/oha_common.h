/*
 * oha_common.h - what oha's three parsers (JSON, CSV, SQLite) share: the
 * status-code tally and the limits on times read from a file.
 */
#ifndef PATHSTAT_INGEST_OHA_COMMON_H
#define PATHSTAT_INGEST_OHA_COMMON_H

#include "common/compat.h"

struct parsed_run;

/* Times in oha's per-request output are seconds since the run start; a
 * larger value is corrupt (and would overflow t_us). */
#define OHA_MAX_SECONDS	1e9

#define OHA_STATUS_MIN	100	/* hyper's StatusCode range */
#define OHA_STATUS_MAX	999

struct oha_status_tally {
	int64_t	n[OHA_STATUS_MAX + 1];	/* responses per code */
};

static inline bool
oha_status_valid(int64_t code)
{
	return code >= OHA_STATUS_MIN && code <= OHA_STATUS_MAX;
}

/* code must satisfy oha_status_valid(). */
static inline void
oha_status_tally_add(struct oha_status_tally *t, int64_t code)
{
	t->n[code]++;
}

/* Add every non-zero code to run as a ("status", "<code>") count, in
 * ascending order, and zero the tally. */
void oha_status_tally_flush(struct oha_status_tally *t,
    struct parsed_run *run);

#endif
