/*
 * parse-helpers.h - what the ingest parser tests share: loading a
 * fixture, running a parser on bytes, finding a summary or count in a
 * run, and comparing a result with an oracle's .expect file
 * (tests/fixtures/oha/oracle.py describes the format).
 */
#ifndef PATHSTAT_TESTS_PARSE_HELPERS_H
#define PATHSTAT_TESTS_PARSE_HELPERS_H

#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kv.h"
#include "common/strbuf.h"
#include "ingest/internal.h"
#include "tests/unit/harness.h"

typedef int (*parser_fn)(const char *buf, size_t len,
    struct parse_result *res);

/* Read path into sb (reset first); a missing fixture fails a check. */
static int PATHSTAT_UNUSED
load(struct strbuf *sb, const char *path)
{
	strbuf_reset(sb);
	if (strbuf_read_file(sb, path, (size_t)1 << 30)) {
		CHECK(0, path);
		printf("#   cannot read '%s'\n", path);
		return -1;
	}
	return 0;
}

/* Parse a NUL-terminated string; res must be initialised (released
 * first, so a test can reuse one). */
static int PATHSTAT_UNUSED
parse_str(parser_fn fn, const char *s, struct parse_result *res)
{
	parse_result_release(res);
	return fn(s, strlen(s), res);
}

/* Parse fixture path into res (released first).  -2 if unreadable. */
static int PATHSTAT_UNUSED
parse_file(parser_fn fn, const char *path, struct parse_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = -2;

	parse_result_release(res);
	if (!load(&sb, path))
		rc = fn(sb.buf, sb.len, res);
	strbuf_release(&sb);
	return rc;
}

/* The summary (metric, stat) of run, or NULL. */
static const struct parsed_summary * PATHSTAT_UNUSED
find_summary(const struct parsed_run *run, const char *metric,
    const char *stat)
{
	size_t i;

	for (i = 0; i < run->nsummaries; i++)
		if (!strcmp(run->summaries[i].metric, metric) &&
		    !strcmp(run->summaries[i].stat, stat))
			return &run->summaries[i];
	return NULL;
}

/* The summary's value, or -12345 when it is missing. */
static double PATHSTAT_UNUSED
summary_value(const struct parsed_run *run, const char *metric,
    const char *stat)
{
	const struct parsed_summary *s = find_summary(run, metric, stat);

	return s ? s->value : -12345;
}

/* The count (kind, label) of run, or -1 when missing. */
static int64_t PATHSTAT_UNUSED
count_of(const struct parsed_run *run, const char *kind, const char *label)
{
	size_t i;

	for (i = 0; i < run->ncounts; i++)
		if (!strcmp(run->counts[i].kind, kind) &&
		    !strcmp(run->counts[i].label, label))
			return run->counts[i].count;
	return -1;
}

static bool PATHSTAT_UNUSED
contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* Split line on tabs into f[] (at most max); returns the count.  The
 * line is modified. */
static size_t PATHSTAT_UNUSED
split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line, *tab;

	while (n < max) {
		f[n++] = p;
		tab = strchr(p, '\t');
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

static double PATHSTAT_UNUSED
expect_number(const char *s)
{
	return strcmp(s, "null") ? strtod(s, NULL) : NAN;
}

/*
 * Compare res (from a successful parse) with an oracle .expect file, one
 * check per expectation, plus checks that nothing extra was produced.
 */
static void PATHSTAT_UNUSED
check_expect(const struct parse_result *res, const char *expect_path)
{
	struct strbuf sb = STRBUF_INIT;
	const struct parsed_run *run = NULL;
	char *line, *nl, *f[6], what[256];
	size_t n, nsum = 0, ncount = 0, runs = 0;
	const char *name = strrchr(expect_path, '/');

	name = name ? name + 1 : expect_path;
	if (load(&sb, expect_path))
		return;
	for (line = sb.buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (line[0] == '#')
			continue;
		n = split_tabs(line, f, ARRAY_SIZE(f));
		snprintf(what, sizeof(what), "%.60s: %.20s%s%.60s%s%.60s",
		    name, f[0], n > 1 ? " " : "", n > 1 ? f[1] : "",
		    n > 2 ? " " : "", n > 2 ? f[2] : "");
		if (!strcmp(f[0], "tool_version")) {
			CHECK_EQ_STR(res->tool_version, f[1], what);
		} else if (!strcmp(f[0], "file_partial")) {
			CHECK_EQ_INT(res->partial, strtol(f[1], NULL, 10),
			    what);
		} else if (!strcmp(f[0], "run")) {
			if (run) {
				snprintf(what, sizeof(what), "%.60s: run %zu "
				    "has %zu summaries, %zu counts", name,
				    runs - 1, nsum, ncount);
				CHECK(run->nsummaries == nsum &&
				    run->ncounts == ncount, what);
			}
			nsum = ncount = 0;
			run = runs < res->nruns ? &res->runs[runs] : NULL;
			runs++;
			CHECK(run != NULL, what);
			if (!run)
				break;
		} else if (!run) {
			CHECK(0, what);
			break;
		} else if (!strcmp(f[0], "run_partial")) {
			CHECK_EQ_INT(run->partial, strtol(f[1], NULL, 10),
			    what);
		} else if (!strcmp(f[0], "started_at")) {
			CHECK_EQ_INT(run->started_at, strcmp(f[1], "unknown") ?
			    strtoll(f[1], NULL, 10) : STARTED_UNKNOWN, what);
		} else if (!strcmp(f[0], "tag") && n == 3) {
			CHECK_EQ_STR(kvset_get(&run->tags, f[1]), f[2], what);
		} else if (!strcmp(f[0], "failures")) {
			CHECK_EQ_INT(run->failures, strtoll(f[1], NULL, 10),
			    what);
		} else if (!strcmp(f[0], "attempts")) {
			CHECK_EQ_INT(run->attempts, strtoll(f[1], NULL, 10),
			    what);
		} else if (!strcmp(f[0], "summary") && n == 4) {
			const struct parsed_summary *s =
			    find_summary(run, f[1], f[2]);

			nsum++;
			CHECK(s && !strcmp(s->estimator, "oha"), what);
			/* Bit-exact: both sides do the same double ops. */
			CHECK_NEAR(s ? s->value : -12345, expect_number(f[3]),
			    0, what);
		} else if (!strcmp(f[0], "count") && n == 4) {
			ncount++;
			CHECK_EQ_INT(count_of(run, f[1], f[2]),
			    strtoll(f[3], NULL, 10), what);
		} else if (!strcmp(f[0], "samples")) {
			CHECK_EQ_INT(run->nsamples, strtoll(f[1], NULL, 10),
			    what);
		} else if (!strcmp(f[0], "sample") && n == 4) {
			size_t seq = (size_t)strtoull(f[1], NULL, 10);
			const struct parsed_sample *s = seq < run->nsamples ?
			    &run->samples[seq] : NULL;

			/* One check per sample keeps the output short. */
			if (!s || s->seq != seq ||
			    s->t_us != strtoll(f[2], NULL, 10) ||
			    s->value != strtod(f[3], NULL) ||
			    s->status != SAMPLE_OK || s->metric != run->metric)
				CHECK(0, what);
		} else {
			CHECK(0, what);
		}
	}
	if (run) {
		snprintf(what, sizeof(what), "%.60s: run %zu has %zu "
		    "summaries, %zu counts", name, runs - 1, nsum, ncount);
		CHECK(run->nsummaries == nsum && run->ncounts == ncount, what);
		if (!(run->nsummaries == nsum && run->ncounts == ncount))
			printf("#   got %zu summaries, %zu counts\n",
			    run->nsummaries, run->ncounts);
	}
	snprintf(what, sizeof(what), "%.60s: %zu runs", name, runs);
	CHECK_EQ_INT(res->nruns, runs, what);
	strbuf_release(&sb);
}

#endif
