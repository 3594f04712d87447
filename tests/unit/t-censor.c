/*
 * t-censor.c - the "≥ timeout" rule (stats/censor.c) at every boundary
 * the censoring design lists, against tests/fixtures/stats/censor.txt
 * (written by
 * gen_censor.py from numpy's type 7 definition in exact fractions and
 * oha's double index, independent of this code), and Harrell-Davis's
 * window on cases far from its edge.  Runs from the repository root.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "tests/unit/harness.h"

static struct stats_name
pct_name(const char *text)
{
	struct stats_name s;
	char buf[40];

	snprintf(buf, sizeof(buf), "p%s", text);
	if (stats_name_parse(buf, &s, NULL))
		s.kind = STATS_NAME_N;
	return s;
}

static void
fixture_cases(void)
{
	FILE *f = fopen("tests/fixtures/stats/censor.txt", "r");
	char line[256], what[160];
	size_t cases = 0;

	CHECK(f != NULL, "censor.txt opens (run from the repository root)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long n, t;
		char pct[16];
		int t7, oha;
		struct stats_name s;

		if (line[0] == '#' || sscanf(line, "case %lu %lu %15s %d %d",
		    &n, &t, pct, &t7, &oha) != 5)
			continue;
		s = pct_name(pct);
		snprintf(what, sizeof(what), "type7 p%s, %lu of %lu timed out: "
		    "%s", pct, t, n, t7 ? "censored" : "not censored");
		CHECK_EQ_INT(stats_censored(STATS_EST_TYPE7, &s, n - t, t), t7,
		    what);
		snprintf(what, sizeof(what), "oha p%s, %lu of %lu timed out: "
		    "%s", pct, t, n, oha ? "censored" : "not censored");
		CHECK_EQ_INT(stats_censored(STATS_EST_OHA, &s, n - t, t), oha,
		    what);
		cases++;
	}
	fclose(f);
	CHECK(cases >= 25, "censor.txt has its cases");
}

/* The floating-point rule this replaces, failures / N > 1 - p. */
static bool
old_rule(size_t n, size_t t, double pct)
{
	return (double)t / (double)n > 1.0 - pct / 100.0;
}

static void
design_boundaries(void)
{
	struct stats_name p99 = pct_name("99"), p95 = pct_name("95");

	/* the old rule missed these; the estimators read the timeout */
	CHECK(!old_rule(300, 3, 99) && stats_censored(STATS_EST_TYPE7, &p99,
	    297, 3), "300 probes, 3 timeouts: p99 censored (old rule: not)");
	CHECK(!old_rule(20, 1, 95) && stats_censored(STATS_EST_OHA, &p95, 19,
	    1), "20 probes, 1 timeout: oha p95 censored (old rule: not)");
	CHECK_EQ_INT(stats_last_rank_read(STATS_EST_OHA, 99, 300), 297,
	    "oha p99 of 300 reads index 297");
	CHECK_EQ_INT(stats_last_rank_read(STATS_EST_TYPE7, 99, 300), 297,
	    "type 7 p99 of 300 interpolates up to index 297");
	CHECK_EQ_INT(stats_last_rank_read(STATS_EST_TYPE7, 50, 301), 150,
	    "type 7 p50 of 301 reads index 150 only");
	CHECK_EQ_INT(stats_last_rank_read(STATS_EST_OHA, 99.99, 10000), 9998,
	    "oha p99.99 of 10000: its own double index 9998");
	CHECK_EQ_INT(stats_last_rank_read(STATS_EST_TYPE7, 99.9, 1001), 999,
	    "type 7 p99.9 of 1001: h = 999 exactly, no interpolation");
}

static void
other_stats(void)
{
	struct stats_name mx = { STATS_NAME_MAX, 0 }, mn = { STATS_NAME_MIN, 0 };
	struct stats_name mean = { STATS_NAME_MEAN, 0 }, p50 = pct_name("50");

	CHECK(stats_censored(STATS_EST_TYPE7, &mx, 999, 1),
	    "max with one timeout is censored");
	CHECK(!stats_censored(STATS_EST_TYPE7, &mx, 1000, 0),
	    "max without timeouts is not");
	CHECK(!stats_censored(STATS_EST_TYPE7, &mn, 1, 9),
	    "min with one success is not censored");
	CHECK(stats_censored(STATS_EST_TYPE7, &mn, 0, 9),
	    "min with no success is");
	CHECK(!stats_censored(STATS_EST_TYPE7, &mean, 10, 90),
	    "the mean is never flagged (timeouts shown beside it)");
	CHECK(!stats_censored(STATS_EST_TYPE7, &p50, 300, 0),
	    "no timeouts, nothing censored");
}

/* Harrell-Davis weighs every rank, but reads only its window (outside
 * it, under 1e-17 of the weight): cases far from the window's edge. */
static void
harrell_davis(void)
{
	struct stats_name p50 = pct_name("50"), p99 = pct_name("99"),
	    p95 = pct_name("95"), p100 = pct_name("100"), p0 = pct_name("0");

	CHECK(!stats_censored(STATS_EST_HD, &p50, 299, 1),
	    "hd p50, 1 timeout in 300: not censored");
	CHECK(!stats_censored(STATS_EST_HD, &p50, 297, 3),
	    "hd p50, 3 timeouts in 300: not censored");
	CHECK(stats_censored(STATS_EST_HD, &p99, 297, 3),
	    "hd p99, 3 timeouts in 300: censored");
	CHECK(stats_censored(STATS_EST_HD, &p95, 297, 3),
	    "hd p95, 3 timeouts in 300: censored (about 1e-3 of its weight)");
	CHECK(stats_censored(STATS_EST_HD, &p99, 999, 1),
	    "hd p99, 1 timeout in 1000: censored");
	CHECK(stats_censored(STATS_EST_HD, &p100, 9, 1),
	    "hd p100 is the max");
	CHECK(!stats_censored(STATS_EST_HD, &p0, 9, 1),
	    "hd p0 is the min");
	CHECK(stats_last_rank_read(STATS_EST_HD, 50, 1) == 0,
	    "hd of one value reads it");
}

int
main(void)
{
	fixture_cases();
	design_boundaries();
	other_stats();
	harrell_davis();
	return test_done();
}
