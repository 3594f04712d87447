/*
 * t-metric.c - unit tests for common/metric.c: the registry agrees with
 * the schema's metrics and sample_status tables (an in-memory database
 * built by the migrations), lookups by name and id, the joined name list,
 * and rows that make sense (units, scales, decimals).
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "common/db.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "stats/stats.h"
#include "tests/unit/harness.h"

/* Every row of the schema's metrics table is a registry row with the
 * same id, name and unit, and the registry has no row the schema lacks. */
static void
test_schema_metrics(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "metrics",
	    "SELECT id, name, unit FROM metrics ORDER BY id");
	size_t rows = 0, n;
	char what[128];

	metric_list(&n);
	CHECK(st != NULL, "select the schema's metrics");
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int id = sqlite3_column_int(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *unit = (const char *)sqlite3_column_text(st, 2);
		const struct metric *m = metric_by_id(id);

		snprintf(what, sizeof(what), "schema metric %d (%s) is in the "
		    "registry", id, name);
		CHECK(m != NULL, what);
		if (m) {
			snprintf(what, sizeof(what), "metric %d: name", id);
			CHECK_EQ_STR(m->name, name, what);
			snprintf(what, sizeof(what), "metric %d: unit", id);
			CHECK_EQ_STR(m->unit, unit, what);
		}
		CHECK(id > 0 && id < METRIC_ID_LIMIT,
		    "id below METRIC_ID_LIMIT");
		rows++;
	}
	sqlite3_finalize(st);
	CHECK_EQ_INT(rows, n, "the registry has the schema's metrics, no more");
}

static void
test_schema_status(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "sample_status",
	    "SELECT id, name FROM sample_status ORDER BY id");
	int max = -1;
	char what[128];

	CHECK(st != NULL, "select the schema's sample statuses");
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int id = sqlite3_column_int(st, 0);

		snprintf(what, sizeof(what), "sample status %d: name", id);
		CHECK_EQ_STR(sample_status_name(id),
		    (const char *)sqlite3_column_text(st, 1), what);
		if (id > max)
			max = id;
	}
	sqlite3_finalize(st);
	CHECK(sample_status_name(max + 1) == NULL,
	    "no status past the schema's");
	CHECK(sample_status_name(-1) == NULL, "no negative status");
	CHECK_EQ_INT(SAMPLE_OK, 0, "ok is 0");
}

static void
test_lookups(void)
{
	struct strbuf sb = STRBUF_INIT;
	const struct metric *all, *m;
	size_t n, i, j;

	all = metric_list(&n);
	for (i = 0; i < n; i++) {
		m = &all[i];
		CHECK(metric_by_name(m->name) == m, m->name);
		CHECK(metric_by_id((int)m->id) == m, "by id");
		CHECK_EQ_STR(metric_name((int)m->id), m->name, "metric_name");
		CHECK(m->title && *m->title, "a title");
		CHECK(m->display_unit && *m->display_unit, "a display unit");
		CHECK(m->display_scale > 0 && isfinite(m->display_scale),
		    "a positive display scale");
		CHECK(m->decimals >= 0 && m->decimals <= 6 &&
		    m->display_decimals >= 0 && m->display_decimals <= 6,
		    "decimals 0..6");
		CHECK(m->failures && *m->failures, "failures described");
		CHECK(i == 0 || all[i - 1].id < m->id, "rows in id order");
		for (j = 0; j < i; j++)
			CHECK(strcmp(all[j].name, m->name) != 0,
			    "names are unique");
		/* a fixed family shows the stored unit as it is */
		if (m->family == METRIC_FAMILY_FIXED)
			CHECK(!strcmp(m->unit, m->display_unit) &&
			    m->display_scale == 1.0,
			    "fixed: the stored unit is shown");
	}
	CHECK(metric_by_name("bogus_ms") == NULL, "unknown name");
	CHECK(metric_by_name(NULL) == NULL, "NULL name");
	CHECK(metric_by_id(0) == NULL, "id 0 is no metric");
	CHECK_EQ_STR(metric_name(99), "?", "unknown id");
	m = metric_by_name("throughput_bps");
	CHECK(m && m->family == METRIC_FAMILY_BITRATE && m->higher_better &&
	    !strcmp(m->display_unit, "Gbit/s") && m->display_scale == 1e-9,
	    "throughput: bit/s family, shown in Gbit/s, higher is better");
	m = metric_by_name("connect_ms");
	CHECK(m && m->timeout_bound && !m->higher_better,
	    "connect_ms: failures bound by a timeout, lower is better");
	m = metric_by_name("rps");
	CHECK(m && m->source == METRIC_FROM_SUMMARY,
	    "rps comes from tool summaries");
	metric_names_join(&sb, ", ");
	CHECK(!strncmp(sb.buf, "connect_ms, http_ms, throughput_bps, "
	    "jitter_ms, loss_pct, retransmits, rps", 74),
	    "joined names, in id order");
	for (i = 0, j = 0; sb.buf[i]; i++)
		j += sb.buf[i] == ',';
	CHECK_EQ_INT(j + 1, n, "one name per metric");
	strbuf_release(&sb);
}

/* Does the comma list hold a percentile above p50 (the fast tail of a
 * higher-is-better metric)? */
static bool
has_high_pct(const char *list)
{
	return strstr(list, "p95") || strstr(list, "p99");
}

/* The default statistics: every list parses, a value per run
 * gets no percentile at all (p99 of 3 runs is one run), a higher-is-
 * better metric no p95 or p99 (its fastest tail), latency its slow
 * tail; the words say why wherever the rule is not latency's. */
static void
test_default_stats(void)
{
	const struct metric *ms;
	size_t i, n, u;
	char what[160];

	ms = metric_list(&n);
	for (i = 0; i < n; i++) {
		const struct metric *m = &ms[i];
		const char *why = metric_default_stats_why(m);

		for (u = METRIC_STATS_TABLE; u <= METRIC_STATS_DELTA; u++) {
			const char *list = metric_default_stats(m,
			    (enum metric_stats_use)u);
			char copy[64], *p = copy, *item;
			bool parsed = true, pct = false;

			snprintf(copy, sizeof(copy), "%s", list);
			while ((item = strsep(&p, ",")) != NULL) {
				struct stats_name sn;
				const char *r = NULL;

				parsed &= stats_name_parse(item, &sn, &r) == 0;
				pct |= sn.kind == STATS_NAME_PCT;
			}
			snprintf(what, sizeof(what), "%s use %zu: '%s' parses",
			    m->name, u, list);
			CHECK(parsed, what);
			snprintf(what, sizeof(what), "%s use %zu: '%s' fits",
			    m->name, u, list);
			if (m->source == METRIC_FROM_SUMMARY)
				CHECK(!pct, what);
			else if (m->higher_better)
				CHECK(!has_high_pct(list) && strstr(list,
				    "p50") && strstr(list, "p5"), what);
			else
				CHECK(strstr(list, "p99") != NULL, what);
		}
		snprintf(what, sizeof(what), "%s: the defaults' words", m->name);
		CHECK((why != NULL) == (m->higher_better ||
		    m->source == METRIC_FROM_SUMMARY), what);
	}
	CHECK(!strcmp(metric_default_stats(metric_by_name("connect_ms"),
	    METRIC_STATS_TABLE), "p50,p95,p99,max"),
	    "latency keeps p50,p95,p99,max");
	CHECK(!strcmp(metric_default_stats(metric_by_name("throughput_bps"),
	    METRIC_STATS_TABLE), "p50,p5,p1,min"),
	    "throughput: p50,p5,p1,min");
	CHECK(!strcmp(metric_default_stats(metric_by_name("rps"),
	    METRIC_STATS_TABLE), "mean,min,max"), "rps: mean,min,max");
	CHECK(!strcmp(metric_default_stats(metric_by_name("rps"),
	    METRIC_STATS_TRIALS), "mean"), "rps per trial: mean");
}

int
main(void)
{
	sqlite3 *db = db_open(":memory:", true);

	CHECK(db != NULL, "an in-memory database with the migrations");
	if (db) {
		test_schema_metrics(db);
		test_schema_status(db);
		db_close(db);
	}
	test_lookups();
	test_default_stats();
	return test_done();
}
