/*
 * t-check.c - tests of `pathstat check`'s detectors (check/detect.c)
 * on planted and clean series, the thresholds the documentation
 * quotes, and analyze_check() itself on a small database built here
 * row by row (what report/ calls).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "check/check.h"
#include "check/model.h"
#include "common/db.h"
#include "common/series.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "stats/stats.h"
#include "tests/unit/harness.h"

/* The planted run of samples/tree: C, P=4, trial 3 (Gbit/s). */
static void
planted_cliff(double *y)
{
	size_t i;

	for (i = 0; i < 30; i++)
		y[i] = i < 16 ? 10.46 + 0.05 * sin((double)i) :
		    i == 16 ? 1.21 : 0.768 + 0.003 * cos((double)i);
	y[0] = 8.2;	/* slow start */
}

static void
test_cliff(void)
{
	struct check_cliff c;
	struct stats_rng rng;
	double y[40];
	size_t i, trial, found = 0;

	planted_cliff(y);
	check_detect_cliff(y, 30, &c);
	CHECK(c.found, "cliff: the planted run is found");
	CHECK_EQ_INT(c.at, 16, "cliff: the low level starts at interval 16");
	CHECK_NEAR(c.after, 0.768, 0.005, "cliff: 0.77 Gbit/s after");
	CHECK(c.before > 10.0 && c.before < 10.5, "cliff: ~10.4 before");

	/* the drop falls exactly on an interval boundary */
	for (i = 0; i < 30; i++)
		y[i] = i < 16 ? 10.5 : 0.77;
	check_detect_cliff(y, 30, &c);
	CHECK(c.found && c.at == 16, "cliff: boundary drop at interval 16");

	/* three low intervals at the end are enough, two are not */
	for (i = 0; i < 30; i++)
		y[i] = i < 27 ? 4.96 : 0.77;
	check_detect_cliff(y, 30, &c);
	CHECK(c.found && c.at == 27, "cliff: 3 low intervals at the end");
	y[27] = 4.96;
	check_detect_cliff(y, 30, &c);
	CHECK(!c.found, "cliff: 2 low intervals are not a cliff");

	/* a dip that recovers is not a cliff */
	for (i = 0; i < 30; i++)
		y[i] = i >= 10 && i < 15 ? 0.7 : 10.0;
	check_detect_cliff(y, 30, &c);
	CHECK(!c.found, "cliff: a dip that recovers is not one");

	/* a step to 0.6x stays above half the level before */
	for (i = 0; i < 30; i++)
		y[i] = i < 15 ? 10.0 : 6.0;
	check_detect_cliff(y, 30, &c);
	CHECK(!c.found, "cliff: a step to 0.6x is not one");

	/* too short, or not finite */
	check_detect_cliff(y, 5, &c);
	CHECK(!c.found, "cliff: 5 intervals are too few");
	y[3] = NAN;
	check_detect_cliff(y, 30, &c);
	CHECK(!c.found, "cliff: a NaN interval is not judged");

	/* clean series: AR(1) noise of 2 %, a slow first interval */
	stats_rng_seed(&rng, 42);
	for (trial = 0; trial < 2000; trial++) {
		double x = 0.0;

		for (i = 0; i < 30; i++) {
			x = 0.6 * x + 0.8 * stats_rng_normal(&rng);
			y[i] = 10.0 * (1.0 + 0.02 * x);
		}
		y[0] *= 0.55;
		check_detect_cliff(y, 30, &c);
		found += c.found;
	}
	CHECK_EQ_INT(found, 0, "cliff: none in 2000 clean AR(1) series");
}

static void
test_syn(void)
{
	double v[300];
	struct check_syn s;
	size_t i;

	for (i = 0; i < 300; i++)
		v[i] = 8.5 + 1.0 * (double)i / 300.0;
	v[296] = 1008.9;
	v[297] = 1009.3;
	v[298] = 1010.1;
	v[299] = 3012.6;
	check_detect_syn(v, 300, 8.9, &s);
	CHECK_EQ_INT(s.count, 4, "syn: 3 values at +1 s and 1 at +3 s");
	CHECK_EQ_INT(s.per_mode[0], 3, "syn: 3 in the 1 s mode");
	CHECK_EQ_INT(s.per_mode[1], 1, "syn: 1 in the 3 s mode");
	CHECK_NEAR(s.lo, 1008.9, 1e-9, "syn: smallest such value");
	CHECK_NEAR(s.hi, 3012.6, 1e-9, "syn: largest such value");

	v[296] = 500.0;
	v[297] = 700.0;
	v[298] = 1300.0;
	v[299] = 2000.0;
	check_detect_syn(v, 300, 8.9, &s);
	CHECK_EQ_INT(s.count, 0, "syn: slow values outside the modes");
	check_detect_syn(v, 300, 600.0, &s);
	CHECK_EQ_INT(s.count, 0, "syn: not judged above a 500 ms median");
}

static void
test_gap(void)
{
	double conn[40], hs[40];
	struct check_gap g;
	size_t i;

	/* 40 probes at a 2 ms RTT, 0.05 ms of client time each, but 4 (10 %)
	 * with 1.5 ms: gaps sorted are 36 x 0.05 then 4 x 1.5, so type 7's
	 * p50 (h = 19.5) is 0.05 and p90 (h = 35.1) 0.05 + 0.1 x 1.45. */
	for (i = 0; i < 40; i++) {
		hs[i] = 2.0 + 0.001 * (double)i;
		conn[i] = hs[i] + (i % 10 == 3 ? 1.5 : 0.05);
	}
	check_detect_gap(conn, hs, 40, &g);
	CHECK_EQ_INT(g.n, 40, "gap: 40 pairs");
	CHECK_EQ_INT(g.slow, 4, "gap: 4 of them 1 ms or more");
	CHECK_NEAR(g.p50, 0.05, 1e-12, "gap: median");
	CHECK_NEAR(g.p90, 0.05 + 0.1 * 1.45, 1e-12, "gap: p90 (type 7)");
	CHECK_NEAR(g.max, 1.5, 1e-12, "gap: max");
	CHECK_NEAR(g.hs_p50, 2.0195, 1e-12, "gap: median handshake");
	CHECK(!g.large && g.erratic, "gap: 10 % slow is erratic, not large");
	conn[3] = hs[3] + 0.999;
	check_detect_gap(conn, hs, 40, &g);
	CHECK(!g.erratic && g.slow == 3, "gap: 3 of 40 (7.5 %) is not");
	for (i = 0; i < 40; i++)
		conn[i] = hs[i] + 0.5;
	check_detect_gap(conn, hs, 40, &g);
	CHECK(g.large && !g.erratic, "gap: a median of 0.5 ms is large");
	check_detect_gap(conn, hs, CHECK_BUSY_MIN_PAIRS - 1, &g);
	CHECK(!g.large && !g.erratic && g.n == CHECK_BUSY_MIN_PAIRS - 1,
	    "gap: not judged below 30 pairs");
	check_detect_gap(conn, hs, 0, &g);
	CHECK(isnan(g.p50) && g.n == 0, "gap: no pairs, no figures");
}

static void
test_small(void)
{
	double v[4] = { 12.41, 12.37, 12.43, 9.9 };
	bool in[4];

	CHECK_EQ_INT(check_plateau(v, 4, CHECK_CAP_TOL, in), 3,
	    "plateau: 3 paths within 1.5 % of the top");
	CHECK(in[0] && in[1] && in[2] && !in[3], "plateau: the right 3");
	v[2] = 10.6;
	CHECK_EQ_INT(check_plateau(v, 4, CHECK_CAP_TOL, in), 2,
	    "plateau: article 1's A and B alone are 2");
	v[1] = NAN;
	CHECK_EQ_INT(check_plateau(v, 4, CHECK_CAP_TOL, NULL), 1,
	    "plateau: NaN is never in it");

	CHECK_NEAR(check_size_bytes("1k"), 1024.0, 0, "size 1k");
	CHECK_NEAR(check_size_bytes("1m"), 1048576.0, 0, "size 1m");
	CHECK_NEAR(check_size_bytes("1024b"), 1024.0, 0, "size 1024b");
	CHECK_NEAR(check_size_bytes("2g"), 2147483648.0, 0, "size 2g");
	CHECK(isnan(check_size_bytes("k")), "size 'k' is not one");
	CHECK(isnan(check_size_bytes("big")), "size 'big' is not one");
	CHECK(isnan(check_size_bytes("")), "size '' is not one");

	CHECK_EQ_INT(check_rank_from_top(99.0, 300), 3,
	    "oha's p99 of 300 is the 3rd-slowest (article 2, 5.3)");
	CHECK_EQ_INT(check_rank_from_top(99.0, 200), 2, "p99 of 200: 2nd");
	CHECK_EQ_INT(check_rank_from_top(99.9, 500), 1,
	    "p99.9 of 500: the slowest");
	CHECK_EQ_INT(check_rank_from_top(99.0, 10000), 100, "p99 of 10,000");

	/* the thresholds docs/checks.md quotes */
	CHECK_EQ_INT(stats_quantile_ci_min_n(99.0, CHECK_FEW_LEVEL,
	    STATS_CI_NARROWEST), 299, "p99 needs 299 samples");
	CHECK_EQ_INT(stats_quantile_ci_min_n(99.9, CHECK_FEW_LEVEL,
	    STATS_CI_NARROWEST), 2995, "p99.9 needs 2,995 samples");
}

/* ---------------------------------------------------------------------
 * analyze_check() on a database built by hand
 */

static int
exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);

	if (rc != SQLITE_OK)
		printf("# %s: %s\n", sql, msg ? msg : "?");
	sqlite3_free(msg);
	return rc;
}

/* Add iperf3 P=4 run id of path C with these intervals (Gbit/s). */
static void
add_run(sqlite3 *db, long id, long trial, const double *y, size_t n)
{
	struct strbuf sql = STRBUF_INIT;
	size_t i;
	int k;

	strbuf_addf(&sql, "INSERT INTO files (id, relpath, hash, size, kind, "
	    "status, ingested_at) VALUES (%ld, 'C/trial%ld/tcp_P4.json', "
	    "'h%ld', 1, 'iperf3-json', 'ok', '2026-08-28T00:00:00Z');", id,
	    trial, id);
	strbuf_addf(&sql, "INSERT INTO runs (id, file_id, path_id, cond_id, "
	    "trial, tool, metric, started_at, status) VALUES (%ld, %ld, 1, 1, "
	    "%ld, 'iperf3', 3, %ld, 'ok');", id, id, trial,
	    1787878800L + 60 * trial);
	strbuf_addf(&sql, "INSERT INTO run_tags VALUES (%ld, 'day', "
	    "'2026-08-28'), (%ld, 'instance_type', 'c6i.large');", id, id);
	/* the series row (schema 009; n fits one): values and times as blob
	 * literals */
	strbuf_addf(&sql, "INSERT INTO series (run_id, metric, chunk, rows, "
	    "failed, value, t_us) VALUES (%ld, 3, 0, %zu, 0, X'", id, n);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n; i++) {
			unsigned char b[8];
			int j;

			if (k == 0)
				series_put_f64(b, y[i] * 1e9);
			else
				series_put_i64(b, (int64_t)((i + 1) * 1000000));
			for (j = 0; j < 8; j++)
				strbuf_addf(&sql, "%02X", b[j]);
		}
		strbuf_addstr(&sql, k == 0 ? "', X'" : "');");
	}
	exec(db, sql.buf);
	strbuf_release(&sql);
}

/* few-samples on the 90 throughput samples of test_api's cell: a p99
 * needs 299; with opts.metric it judges that metric's cells only (a
 * report table asks for its own metric's notes). */
static void
test_few_metric(sqlite3 *db)
{
	struct check_findings f = CHECK_FINDINGS_INIT;
	struct check_opts o;
	struct stats_name p99;
	const char *why = NULL;
	char *only[] = { (char *)"few-samples" };

	CHECK_EQ_INT(stats_name_parse("p99", &p99, &why), 0, "few: p99");
	memset(&o, 0, sizeof(o));
	o.only = only;
	o.nonly = 1;
	o.stats = &p99;
	o.nstats = 1;
	CHECK_EQ_INT(analyze_check_opts(db, NULL, &o, &f), 0, "few: runs");
	CHECK(f.n == 1 && !strcmp(f.items[0].metric, "throughput_bps"),
	    "few: every metric: the throughput cell's p99 of 90");
	check_findings_release(&f);
	o.metric = "throughput_bps";
	CHECK_EQ_INT(analyze_check_opts(db, NULL, &o, &f), 0, "few: runs");
	CHECK_EQ_INT(f.n, 1, "few: metric throughput_bps: the same finding");
	check_findings_release(&f);
	o.metric = "connect_ms";
	o.pooled = true;
	CHECK_EQ_INT(analyze_check_opts(db, NULL, &o, &f), 0, "few: runs");
	CHECK_EQ_INT(f.n, 0, "few: metric connect_ms, pooled: the throughput "
	    "cell is not judged");
	check_findings_release(&f);
	o.pooled = false;
	CHECK_EQ_INT(analyze_check_opts(db, NULL, &o, &f), 0, "few: runs");
	CHECK_EQ_INT(f.n, 0, "few: metric connect_ms: not judged either");
	check_findings_release(&f);
}

static void
test_api(void)
{
	struct check_findings f = CHECK_FINDINGS_INIT;
	struct check_opts o;
	struct table t;
	struct strbuf json = STRBUF_INIT;
	const struct check_finding *x;
	char *only[] = { (char *)"outlier-trial" };
	double y[30];
	sqlite3 *db = db_open(":memory:", true);
	size_t i;

	CHECK(db != NULL, "api: an in-memory database");
	if (!db)
		return;
	exec(db, "INSERT INTO paths (id, name) VALUES (1, 'C');"
	    "INSERT INTO conditions (id, canon) VALUES (1, 'P=4,proto=tcp');"
	    "INSERT INTO condition_keys VALUES (1, 'P', '4'), "
	    "(1, 'proto', 'tcp');");
	for (i = 0; i < 30; i++)
		y[i] = 10.5 + 0.02 * sin((double)i);
	add_run(db, 1, 1, y, 30);
	add_run(db, 2, 2, y, 30);
	planted_cliff(y);
	add_run(db, 3, 3, y, 30);

	CHECK_EQ_INT(analyze_check(db, NULL, &f), 0, "api: analyze_check runs");
	CHECK_EQ_INT(f.n, 1, "api: one finding");
	if (f.n == 1) {
		x = &f.items[0];
		CHECK_EQ_STR(x->check, "burst-cliff", "api: its check id");
		CHECK_EQ_INT(x->severity, CHECK_WARNING, "api: a warning");
		CHECK_EQ_STR(x->metric, "throughput_bps", "api: its metric");
		CHECK_EQ_STR(x->path, "C", "api: its path");
		CHECK_EQ_STR(x->condition, "P=4,proto=tcp",
		    "api: its condition");
		CHECK_EQ_INT(x->trial, 3, "api: its trial");
		CHECK_EQ_STR(x->scope, "day=2026-08-28,instance_type=c6i.large",
		    "api: its scope");
		CHECK(x->nruns == 1 && x->runs[0] == 3, "api: run 3");
		CHECK(x->nfiles == 1 && !strcmp(x->files[0],
		    "C/trial3/tcp_P4.json"), "api: its file");
		CHECK(strstr(x->evidence, "at 16 s") != NULL,
		    "api: evidence says when");
		CHECK(strstr(x->evidence, "0.77 Gbit/s") != NULL,
		    "api: evidence says how low");
		CHECK(x->cause && strstr(x->cause, "burst credits") != NULL,
		    "api: the likely cause");
		CHECK(x->action && *x->action, "api: what to do");
	}
	table_init(&t);
	check_findings_table(&f, &t);
	table_render_sb(&t, TABLE_JSON, &json);
	CHECK(strstr(json.buf, "\"check\": \"burst-cliff\"") &&
	    strstr(json.buf, "\"trial\": 3") &&
	    strstr(json.buf, "\"runs\": \"3\"") &&
	    strstr(json.buf, "\"action\":"), "api: the JSON contract keys");
	table_release(&t);
	strbuf_release(&json);
	check_findings_release(&f);
	CHECK(f.n == 0 && f.items == NULL, "api: release re-initialises");

	memset(&o, 0, sizeof(o));
	o.only = only;
	o.nonly = 1;
	CHECK_EQ_INT(analyze_check_opts(db, NULL, &o, &f), 0, "api: --only");
	CHECK_EQ_INT(f.n, 0, "api: --only outlier-trial: the cliff trial's "
	    "p50 is 0.9x its siblings, no finding");
	check_findings_release(&f);
	test_few_metric(db);
	db_close(db);
}

int
main(void)
{
	test_cliff();
	test_syn();
	test_gap();
	test_small();
	test_api();
	return test_done();
}
