/*
 * t-common.c - unit tests for common/: condition grammar, kv sets,
 * checked number parsing, the table renderers and their escaping, the
 * schema migration, sorting and merging doubles, the packed doubles of
 * sample_values, captured messages, BUG(), and the name hash and its
 * slot search.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/hash.h"
#include "common/kv.h"
#include "common/parse.h"
#include "common/sort.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/utf8.h"
#include "common/where.h"
#include "tests/unit/harness.h"

static void
check_cond(const char *text, const char *want)
{
	struct kvset s = KVSET_INIT;
	struct strbuf why = STRBUF_INIT, got = STRBUF_INIT;
	char what[256];

	if (cond_parse(text, &s, &why) == 0)
		kvset_join(&s, &got, ",");
	else
		strbuf_addstr(&got, "ERROR");
	snprintf(what, sizeof(what), "cond '%s' -> '%s'", text, want);
	CHECK_EQ_STR(got.buf, want, what);
	kvset_release(&s);
	strbuf_release(&why);
	strbuf_release(&got);
}

static void
test_cond(void)
{
	check_cond("ka-on_c1_1k", "c=1,ka=on,size=1k");
	check_cond("ka-off_c16_1m", "c=16,ka=off,size=1m");
	check_cond("P4,tcp", "P=4,proto=tcp");
	check_cond("udp", "proto=udp");
	check_cond("1024b", "size=1024b");
	check_cond("1KB", "size=1k");
	check_cond("c=16,ka=off", "c=16,ka=off");
	check_cond("reverse", "dir=reverse");
	check_cond("bidir_P2", "P=2,dir=bidir");
	check_cond("", "");
	check_cond("banana", "ERROR");
	check_cond("k=", "ERROR");
	check_cond("=v", "ERROR");
	/* iperf3's -b rate, one spelling however it was written */
	check_cond("udp_b200M", "b=200M,proto=udp");
	check_cond("b200m", "b=200M");
	check_cond("b-200M", "b=200M");
	check_cond("b=200000000", "b=200M");
	check_cond("b1.5G", "b=1500M");
	check_cond("b0", "b=0");
	check_cond("b1048576", "b=1048576");
	check_cond("b=fast", "b=fast");
	check_cond("b200X", "ERROR");
}

static void
check_rate(const char *in, const char *want)
{
	char out[32], what[128];

	if (cond_rate_canon(in, out, sizeof(out)))
		snprintf(out, sizeof(out), "ERROR");
	snprintf(what, sizeof(what), "rate '%s' -> '%s'", in, want);
	CHECK_EQ_STR(out, want, what);
}

static void
test_rate(void)
{
	struct kvset s = KVSET_INIT;
	struct strbuf why = STRBUF_INIT;

	check_rate("200M", "200M");
	check_rate("200000000", "200M");
	check_rate("200000k", "200M");
	check_rate("2g", "2G");
	check_rate("0.5k", "500");
	check_rate("1.25M", "1250K");
	check_rate("3t", "3T");
	check_rate("3000T", "3000T");
	check_rate("0", "0");
	check_rate("0.5", "ERROR");
	check_rate("", "ERROR");
	check_rate("M", "ERROR");
	check_rate("1MB", "ERROR");
	check_rate("99999999999999999999", "ERROR");
	check_rate("9999999999T", "ERROR");
	CHECK_EQ_INT(cond_token_parse("probe", &s, &why), 1,
	    "a token the grammar does not know: 1, nothing set");
	CHECK_EQ_INT(s.n, 0, "nothing set for it");
	CHECK_EQ_INT(cond_token_parse("=v", &s, &why), -1,
	    "an unsafe token: -1 with a reason");
	CHECK(why.len > 0, "the reason is given");
	kvset_release(&s);
	strbuf_release(&why);
}

static void
test_kvset(void)
{
	struct kvset a = KVSET_INIT, b = KVSET_INIT;
	struct strbuf sb = STRBUF_INIT;

	kvset_set(&a, "region", "ap-northeast-1");
	kvset_set(&a, "az", "apne1-az1");
	kvset_set(&b, "region", "ap-northeast-3");
	kvset_set(&b, "day", "2026-08-28");
	kvset_merge(&a, &b);
	kvset_join(&a, &sb, ";");
	CHECK_EQ_STR(sb.buf, "az=apne1-az1;day=2026-08-28;region=ap-northeast-3",
	    "kvset merge: sorted, src wins");
	CHECK(kvset_remove(&a, "day") && !kvset_get(&a, "day"), "kvset remove");
	CHECK(!kv_valid_value("a,b") && !kv_valid_key("a=b") &&
	    !kv_valid_value(" x") && kv_valid_value("G'"),
	    "unsafe keys and values refused");
	kvset_release(&a);
	kvset_release(&b);
	strbuf_release(&sb);
}

static void
test_parse(void)
{
	long l = 0;
	double d = 0;

	CHECK(parse_long("42", 0, 100, &l) == 0 && l == 42, "parse_long ok");
	CHECK(parse_long("42x", 0, 100, &l) < 0, "parse_long trailing junk");
	CHECK(parse_long("", 0, 100, &l) < 0, "parse_long empty");
	CHECK(parse_long("101", 0, 100, &l) < 0, "parse_long range");
	CHECK(parse_long("99999999999999999999", 0, 100, &l) < 0,
	    "parse_long overflow");
	CHECK(parse_double("0.2", 0, 10, &d) == 0 && d == 0.2, "parse_double");
	CHECK(parse_double("nan", -1e9, 1e9, &d) < 0, "parse_double nan refused");
	CHECK(parse_double("1e999", -1e9, 1e9, &d) < 0, "parse_double inf");
	CHECK(parse_percent("5%", &d, true) == 0 && fabs(d - 0.05) < 1e-15,
	    "parse_percent 5%");
}

static void
test_table(void)
{
	struct table t;
	struct strbuf sb = STRBUF_INIT;
	size_t r;

	table_init(&t);
	table_add_col(&t, "path", "Path", -1);
	table_add_col(&t, "p50", "p50", 3);
	table_add_col(&t, "n", "n", -1);
	r = table_add_row(&t);
	table_set_str(&t, r, 0, "a|b`c*\nd");
	table_set_num(&t, r, 1, 0.0645);
	table_set_int(&t, r, 2, 300);
	r = table_add_row(&t);
	table_set_str(&t, r, 0, "x,\"y\"");
	table_set_num(&t, r, 1, NAN);
	table_set_display(&t, r, 1, "not measured");
	table_add_note(&t, "estimator: type7");

	table_render_sb(&t, TABLE_JSON, &sb);
	CHECK_EQ_STR(sb.buf, "[\n  {\"path\": \"a|b`c*\\nd\", \"p50\": 0.0645, "
	    "\"n\": 300},\n  {\"path\": \"x,\\\"y\\\"\", \"p50\": null, "
	    "\"n\": null}\n]\n", "table json");
	strbuf_reset(&sb);
	table_render_sb(&t, TABLE_CSV, &sb);
	CHECK_EQ_STR(sb.buf, "path,p50,n\n\"a|b`c*\nd\",0.0645,300\n"
	    "\"x,\"\"y\"\"\",,\n", "table csv quoting");
	strbuf_reset(&sb);
	table_render_sb(&t, TABLE_MD, &sb);
	CHECK(strstr(sb.buf, "| a\\|b\\`c\\* d | 0.065 | 300 |") != NULL,
	    "markdown escapes pipes, backticks, stars; newline dropped");
	CHECK(strstr(sb.buf, "| not measured |") != NULL,
	    "markdown display text");
	CHECK(strstr(sb.buf, "_estimator: type7_") != NULL, "markdown note");
	table_release(&t);
	strbuf_release(&sb);
}

/* A cell of 16 bytes (a table of 200 k rows holds millions): the value's
 * kinds share one place and the display text is the table's. */
static void
test_table_cell(void)
{
	struct table t, u;
	struct strbuf sb = STRBUF_INIT;
	size_t r;

	CHECK(sizeof(struct table_cell) == 16, "a table cell is 16 bytes");
	table_init(&t);
	table_init(&u);
	table_add_col(&t, "a", "a", 2);
	table_add_col(&t, "b", "b", -1);
	table_add_col(&u, "a", "a", 2);
	table_add_col(&u, "b", "b", -1);
	r = table_add_row(&t);
	table_set_str(&t, r, 0, "was text");
	table_set_num(&t, r, 0, 1.5);
	CHECK(table_cell_str(table_at(&t, r, 0)) == NULL,
	    "a number set over a string holds no string");
	CHECK(table_num(&t, r, 0) == 1.5, "... and the number");
	table_set_display(&t, r, 0, "first");
	table_set_display_raw(&t, r, 0, "1.50 [1.2, 1.8]");
	CHECK(t.ndisplays == 1, "a display set again keeps its slot");
	CHECK_EQ_STR(table_cell_display(&t, table_at(&t, r, 0)),
	    "1.50 [1.2, 1.8]", "the display set last");
	table_set_json(&t, r, 1, "[1,2]");
	r = table_add_row(&t);
	table_set_display(&t, r, 1, "gone");
	table_set_display(&t, r, 1, NULL);
	CHECK(table_cell_display(&t, table_at(&t, r, 1)) == NULL,
	    "a display removed");
	table_set_int(&t, r, 0, 7);
	for (r = 0; r < t.nrows; r++) {
		table_add_row(&u);
		table_copy_cell(&u, r, 0, &t, r, 0);
		table_copy_cell(&u, r, 1, &t, r, 1);
	}
	table_release(&t);
	table_render_sb(&u, TABLE_MD, &sb);
	CHECK(strstr(sb.buf, "| 1.50 [1.2, 1.8] | \\[1,2\\] |\n| 7 | – |") !=
	    NULL, "a copied cell keeps its value and display");
	strbuf_reset(&sb);
	table_render_sb(&u, TABLE_JSON, &sb);
	CHECK(strstr(sb.buf, "\"b\": [1,2]") != NULL,
	    "a copied JSON value stays JSON");
	table_release(&u);
	strbuf_release(&sb);
}

/*
 * The database lives in a folder of its own under $TMPDIR, so that the
 * -wal and -shm files SQLite keeps beside it (a read-only connection
 * leaves them) go with it, and rmdir() proves nothing else was left.
 */
static void
test_schema(void)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4200], side[4300];
	sqlite3 *db;
	sqlite3_stmt *st;
	size_t i;

	snprintf(dir, sizeof(dir), "%s/pathstat-t-common-XXXXXX",
	    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/t.db", dir);
	db = db_open(path, true);
	CHECK(db != NULL, "db_open creates and migrates");
	if (db) {
		st = db_prepare(db, "version", "PRAGMA user_version");
		CHECK(st && sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int(st, 0) == db_schema_version(),
		    "user_version is the newest schema");
		sqlite3_finalize(st);
		db_close(db);
		db = db_open(path, false);
		CHECK(db != NULL, "re-open of a current database");
		db_close(db);
		db = db_open_readonly(path);
		CHECK(db != NULL, "read-only open");
		db_close(db);
	}
	for (i = 0; i < ARRAY_SIZE(suffix); i++) {
		snprintf(side, sizeof(side), "%s%s", path, suffix[i]);
		unlink(side);
	}
	CHECK(rmdir(dir) == 0, "the test leaves nothing behind");
}

/*
 * A read-only connection sorts ~7 MB of rows in memory, past its 2 MiB
 * cache (as the run query at 84 days of a team campaign): SQLite's
 * memory high-water shows it, where a spilled sort stays near 2 MiB.
 * First of the tests: the sort size is set before SQLite's first use.
 */
static void
test_sort_in_memory(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4200], side[4300];
	sqlite3_int64 cur = 0, hi = 0;
	sqlite3_stmt *st = NULL;
	sqlite3 *db;
	int first = 0, rows = 0;

	snprintf(dir, sizeof(dir), "%s/pathstat-t-common-XXXXXX",
	    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/t.db", dir);
	db_close(db_open(path, true));
	db = db_open_readonly(path);
	CHECK(db != NULL, "read-only open");
	if (db)
		st = db_prepare(db, "sort", "WITH RECURSIVE n(i) AS (SELECT 1 "
		    "UNION ALL SELECT i + 1 FROM n WHERE i < 40000) SELECT i, "
		    "printf('%0160d', i) FROM n ORDER BY -i");
	sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &cur, &hi, 1);
	while (st && sqlite3_step(st) == SQLITE_ROW)
		if (!rows++)
			first = sqlite3_column_int(st, 0);
	sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &cur, &hi, 0);
	CHECK(rows == 40000 && first == 40000, "the sort's rows, in order");
	CHECK(hi > 6 * 1024 * 1024, "a 7 MB sort stays in memory");
	sqlite3_finalize(st);
	db_close(db);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
	unlink(path);
	CHECK(rmdir(dir) == 0, "the sort test leaves nothing behind");
}

static void
test_where(void)
{
	struct where w = WHERE_INIT;
	struct strbuf why = STRBUF_INIT, sql = STRBUF_INIT;

	CHECK(where_add(&w, "path=A,B", &why) == 0, "where path=A,B");
	CHECK_EQ_INT(w.n, 2, "two alternatives");
	CHECK(where_add(&w, "target=", &why) == 0, "where target= (unset)");
	CHECK_EQ_INT(w.n, 3, "one more filter");
	CHECK_EQ_STR(w.items[2].value, "", "an empty value");
	where_sql(&w, "r", &sql);
	CHECK(strstr(sql.buf, ", '') = ''") != NULL,
	    "an empty value matches runs without the key");
	CHECK(strstr(sql.buf, "= 'A' OR ") != NULL, "alternatives are OR-ed");
	CHECK(where_add(&w, "=x", &why) != 0, "a key is required");
	CHECK(where_add(&w, "novalue", &why) != 0, "'=' is required");
	where_release(&w);
	strbuf_release(&why);
	strbuf_release(&sql);
}

/* Ranges: ends checked and normalized, text or numeric SQL, ISO weeks
 * as SQLite computes them (against Python's isocalendar()). */
static void
test_where_range(void)
{
	static const char *const iso[][2] = {
		{ "2026-11-01", "2026-W44" }, { "2026-11-02", "2026-W45" },
		{ "2026-01-01", "2026-W01" }, { "2024-12-30", "2025-W01" },
		{ "2027-01-03", "2026-W53" }, { "2021-01-03", "2020-W53" },
	};
	struct where w = WHERE_INIT;
	struct strbuf why = STRBUF_INIT, sql = STRBUF_INIT;
	char *lo = NULL, *hi = NULL;
	sqlite3 *db = NULL;
	size_t i;

	CHECK(where_range("2026-11-01..2026-11-07", &lo, &hi), "a range");
	CHECK_EQ_STR(lo, "2026-11-01", "its start");
	CHECK_EQ_STR(hi, "2026-11-07", "its end");
	free(lo);
	free(hi);
	CHECK(!where_range("..", NULL, NULL), "'..' alone is no range");
	CHECK(!where_range("1..2..3", NULL, NULL), "nor two of them");
	CHECK(where_add(&w, "hour=9..17", &why) == 0, "hour=9..17");
	CHECK_EQ_STR(w.items[0].value, "09..17", "hours as two digits");
	CHECK(where_add(&w, "day=2026-11-20..", &why) == 0, "an open end");
	where_sql(&w, "r", &sql);
	CHECK(strstr(sql.buf, "AS REAL) >= 09") != NULL, "hours as numbers");
	CHECK(strstr(sql.buf, ">= '2026-11-20' AND") == NULL &&
	    strstr(sql.buf, ">= '2026-11-20')") != NULL, "days as text, open");
	strbuf_reset(&why);
	CHECK(where_add(&w, "day=2026-11-9..2026-11-10", &why) != 0 &&
	    strstr(why.buf, "YYYY-MM-DD"), "a day written short is refused");
	strbuf_reset(&why);
	CHECK(where_add(&w, "c=16..2", &why) != 0 &&
	    strstr(why.buf, "16 comes after 2"), "backwards, as numbers");
	strbuf_reset(&why);
	CHECK(where_add(&w, "hour=9..24", &why) != 0, "hour 24 is refused");
	strbuf_reset(&why);
	CHECK(where_add(&w, "week=2026-45..", &why) != 0, "a week needs its W");
	where_release(&w);

	CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK, "an empty db");
	CHECK(sqlite3_exec(db, "CREATE TABLE run_tags(run_id, key, value); "
	    "CREATE TABLE runs(id, started_at)", NULL, NULL, NULL) ==
	    SQLITE_OK, "tables for dim_sql");
	for (i = 0; i < ARRAY_SIZE(iso); i++) {
		sqlite3_stmt *st = NULL;
		char *ins = sqlite3_mprintf("INSERT INTO runs VALUES (%d, "
		    "strftime('%%s', %Q))", (int)i, iso[i][0]);

		sqlite3_exec(db, ins, NULL, NULL, NULL);
		sqlite3_free(ins);
		strbuf_reset(&sql);
		strbuf_addstr(&sql, "SELECT ");
		dim_sql("week", "r", &sql);
		strbuf_addf(&sql, " FROM runs r WHERE id = %zu", i);
		if (sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) ==
		    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
			CHECK_EQ_STR((const char *)sqlite3_column_text(st, 0),
			    iso[i][1], "ISO week of a day");
		else
			CHECK(0, "the week query runs");
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	strbuf_release(&why);
	strbuf_release(&sql);
}

/* sort_merge() of k sorted runs equals sorting their concatenation. */
static void
test_sort_merge(void)
{
	enum { MAXK = 9, MAXN = 300 };
	double *runs[MAXK], *all, *merged;
	const double *cruns[MAXK];
	size_t n[MAXK], k, i, j, total, bad = 0;
	unsigned seed = 12345;
	unsigned char packed[8 * 3];
	double back[3], some[3] = { -0.5, 1e-300, 6.02e23 };

	all = malloc(MAXK * MAXN * sizeof(double));
	merged = malloc(MAXK * MAXN * sizeof(double));
	for (k = 0; k <= MAXK; k++) {
		total = 0;
		for (i = 0; i < k; i++) {
			/* sizes 0, 1, 2 and larger, values with ties */
			seed = seed * 1103515245u + 12345u;
			n[i] = i < 3 ? i : seed % MAXN;
			runs[i] = malloc((n[i] ? n[i] : 1) * sizeof(double));
			for (j = 0; j < n[i]; j++) {
				seed = seed * 1103515245u + 12345u;
				runs[i][j] = (double)((seed >> 8) % 500) / 7.0
				    - 20;
			}
			sort_doubles(runs[i], n[i]);
			memcpy(all + total, runs[i], n[i] * sizeof(double));
			total += n[i];
			cruns[i] = runs[i];
		}
		sort_doubles(all, total);
		sort_merge(cruns, n, k, merged);
		if (total && memcmp(all, merged, total * sizeof(double)))
			bad++;
		for (i = 0; i < k; i++)
			free(runs[i]);
	}
	CHECK(bad == 0, "sort_merge of 0 to 9 sorted runs equals sorting them");
	free(all);
	free(merged);
	db_pack_doubles(some, 3, packed);
	CHECK(packed[0] == 0x00 && packed[7] == 0xbf,
	    "packed doubles are little-endian IEEE 754 (-0.5 = bf e0 00..)");
	db_unpack_doubles(packed, 3, back);
	CHECK(!memcmp(back, some, sizeof(some)), "packed doubles unpack");
}

static int
pair_cmp(const void *a, const void *b)
{
	const struct sort_pair *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->val > y->val) - (x->val < y->val);
}

/* sort_pairs() is a stable sort by key: it equals qsort() by (key, val)
 * on pairs whose val runs 0 .. n - 1, for keys with ties, keys that
 * differ only in a high or a low digit, and sizes 0, 1, 2 and larger;
 * and sort_double_key() orders as doubles do. */
static void
test_sort_pairs(void)
{
	static const unsigned shape[] = { 0, 1, 2, 3 };
	static const size_t sizes[] = { 0, 1, 2, 17, 1000, 70000 };
	struct sort_pair *a, *b;
	size_t i, si, bad = 0;
	unsigned seed = 777, sh;
	double d[] = { -1e300, -2.5, -0.0, 0.0, 5e-324, 1.0, 3.5, 1e300 };

	a = malloc(70000 * sizeof(*a));
	b = malloc(70000 * sizeof(*b));
	for (sh = 0; sh < ARRAY_SIZE(shape); sh++) {
		for (si = 0; si < ARRAY_SIZE(sizes); si++) {
			size_t n = sizes[si];

			for (i = 0; i < n; i++) {
				uint64_t r;

				seed = seed * 1103515245u + 12345u;
				r = (uint64_t)(seed >> 4) % 97;
				a[i].key = shape[sh] == 0 ? r :
				    shape[sh] == 1 ? r << 57 :
				    shape[sh] == 2 ? (r << 40) | 5 :
				    ((uint64_t)seed << 32) ^ r;
				a[i].val = i;
			}
			memcpy(b, a, n * sizeof(*a));
			sort_pairs(a, n);
			if (n)
				qsort(b, n, sizeof(*b), pair_cmp);
			if (n && memcmp(a, b, n * sizeof(*a)))
				bad++;
		}
	}
	CHECK(bad == 0, "sort_pairs is qsort by (key, original position)");
	for (i = 1; i < ARRAY_SIZE(d); i++)
		if (!(sort_double_key(d[i - 1]) < sort_double_key(d[i])))
			bad++;
	CHECK(bad == 0, "sort_double_key orders as the doubles do");
	free(a);
	free(b);
}

/* Messages captured on a thread are counted when flushed, not before. */
static void
test_err_capture(void)
{
	struct err_capture c = ERR_CAPTURE_INIT;
	unsigned long before = err_count();

	err_capture_begin(&c);
	error("captured %d", 1);
	warning("captured too");
	err_capture_end();
	CHECK(err_count() == before && c.errors == 1,
	    "a captured error is not counted yet");
	CHECK(strstr(c.text.buf, ": captured 1\n") &&
	    strstr(c.text.buf, ": warning: captured too\n"),
	    "captured lines are kept in order with their prefix");
	fclose(stderr);		/* the flush goes nowhere */
	err_capture_flush(&c);
	CHECK(err_count() == before + 1 && c.errors == 0 && c.text.len == 0,
	    "flush counts the error and empties the capture");
	strbuf_release(&c.text);
}

/* UTF-8 checks (RFC 3629), the path-ID grammar, and JSON output that is
 * always valid UTF-8. */
static void
test_utf8_ids(void)
{
	struct strbuf sb = STRBUF_INIT;
	/* a buffer with no NUL after it: the bounded check must stop */
	char cut[3] = { 'a', (char)0xe6, (char)0x97 };
	char long_id[PATH_ID_MAX + 2];

	CHECK(utf8_valid("plain, 東京, Ōsaka, \xf0\x9f\x98\x80"),
	    "utf8: ASCII, CJK, accents and a 4-byte emoji are valid");
	CHECK(!utf8_valid("\xc0\xaf") && !utf8_valid("\xed\xa0\x80") &&
	    !utf8_valid("\xf4\x90\x80\x80") && !utf8_valid("a\xff"),
	    "utf8: overlong, surrogate, past U+10FFFF and stray bytes are not");
	CHECK_EQ_INT(utf8_invalid_at(cut, sizeof(cut)), 1,
	    "utf8: a sequence cut by the end of the buffer is found there");
	CHECK_EQ_INT(utf8_invalid_at("ab\0c", 4), 2,
	    "utf8: a NUL inside the buffer is refused");
	CHECK_EQ_INT(utf8_invalid_at("東京", 6), 6, "utf8: valid to the end");
	utf8_add_escaped(&sb, "N\xff\\x\n" "東");
	CHECK_EQ_STR(sb.buf, "N\\xff\\x5cx\\x0a東",
	    "utf8: messages show bad bytes, backslashes and controls as \\xNN");
	strbuf_reset(&sb);
	utf8_add_shown(&sb, "a\\b\n\tc\x1b[1m\xe2\x80\xae\xc2\x85\xff");
	CHECK_EQ_STR(sb.buf, "a\\b\n\tc\\x1b[1m\\u202E\\u0085\\xff",
	    "utf8: for a terminal, lines, tabs and backslashes stay, ESC, "
	    "C1 and bidirectional controls are shown");
	strbuf_reset(&sb);

	CHECK(path_id_valid("A;B") && path_id_valid("G'") &&
	    path_id_valid("x y") && path_id_valid("a=b") &&
	    path_id_valid("東京"), "path IDs: ; ' inner blanks = and CJK are in");
	CHECK(!path_id_valid("") && !path_id_valid("a,b") &&
	    !path_id_valid(" a") && !path_id_valid("a ") &&
	    !path_id_valid("a\tb") && !path_id_valid("a\xff"),
	    "path IDs: empty, ',', outer blanks, controls and bad UTF-8 are out");
	memset(long_id, 'x', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	CHECK(!path_id_valid(long_id), "path IDs: 257 bytes are too long");
	long_id[PATH_ID_MAX] = '\0';
	CHECK(path_id_valid(long_id), "path IDs: 256 bytes are fine");

	escape_json(&sb, "a\xff" "b\xc0\xaf\\\"\x01" "東");
	CHECK_EQ_STR(sb.buf, "\"a\\ufffdb\\ufffd\\ufffd\\\\\\\"\\u0001東\"",
	    "escape_json: bytes that are not UTF-8 become U+FFFD");
	strbuf_reset(&sb);
	escape_json(&sb, "r\xe2\x80\xae" "n\xc2\x85");
	CHECK_EQ_STR(sb.buf, "\"r\\u202en\\u0085\"",
	    "escape_json: C1 and bidirectional controls as JSON escapes");
	strbuf_release(&sb);
}

/*
 * Run fn in a child with stderr into a pipe; *text gets what it printed
 * (up to size - 1 bytes), and the return is its wait status.
 */
static int
in_child(void (*fn)(void), char *text, size_t size)
{
	int fds[2], status = 0;
	ssize_t r, got = 0;
	pid_t pid;

	text[0] = '\0';
	if (pipe(fds))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		err_set_prefix("pathstat test");
		fn();
		_exit(0);
	}
	close(fds[1]);
	while (got < (ssize_t)size - 1 &&
	    (r = read(fds[0], text + got, size - 1 - (size_t)got)) > 0)
		got += r;
	text[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return status;
}

static void
bug_plain(void)
{
	BUG("an invariant %d", 42);
}

static void
bug_table_col_late(void)
{
	struct table t;

	table_init(&t);
	table_add_col(&t, "a", NULL, 0);
	table_add_row(&t);
	table_add_col(&t, "b", NULL, 0);
}

static void
bug_table_at(void)
{
	struct table t;

	table_init(&t);
	table_add_col(&t, "a", NULL, 0);
	table_at(&t, 3, 0);
}

static void
bug_strbuf_setlen(void)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "abc");
	strbuf_setlen(&sb, sb.alloc + 1);
}

/* BUG() aborts (not exit 1, a user error's status) and names file:line;
 * a caller's misuse of the table and strbuf APIs is a BUG(). */
static void
test_bug(void)
{
	static const struct {
		void (*fn)(void);
		const char *where, *says, *name;
	} cases[] = {
		{ bug_plain, "tests/unit/t-common.c:", ": an invariant 42\n",
		  "BUG()" },
		{ bug_table_col_late, "common/table.c:", "after the first row",
		  "a column added after a row" },
		{ bug_table_at, "common/table.c:", "table_at(3, 0) outside 0 rows",
		  "a cell outside the table" },
		{ bug_strbuf_setlen, "common/strbuf.c:", "strbuf_setlen: ",
		  "strbuf_setlen beyond the buffer" },
	};
	char buf[512], what[160];
	size_t i;
	int status;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		status = in_child(cases[i].fn, buf, sizeof(buf));
		snprintf(what, sizeof(what), "%s: aborts (a BUG, not exit 1)",
		    cases[i].name);
		CHECK(status != -1 && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGABRT, what);
		snprintf(what, sizeof(what), "%s: prints BUG: file:line", cases[i].name);
		CHECK(strstr(buf, "pathstat test: BUG: ") &&
		    strstr(buf, cases[i].where) && strstr(buf, cases[i].says),
		    what);
		if (!strstr(buf, cases[i].says))
			printf("#   stderr: %s\n", buf);
	}
}

/* FNV-1a's published 64-bit vectors, and the slot search: found by
 * content (not by pointer), wrapping past the table's end, and the one
 * empty slot left once the rest are full. */
static void
test_hash(void)
{
	static char names[][16] = {
		"p50", "p99", "oha", "iperf3", "ka-on_c1_1k", "", "a",
	};
	char *tab[8] = { NULL };
	char copy[sizeof(names[0])];
	size_t i, slot, free_slot = 8;

	CHECK(hash_name("") == UINT64_C(0xcbf29ce484222325),
	    "hash_name(\"\") is FNV-1a's offset basis");
	CHECK(hash_name("a") == UINT64_C(0xaf63dc4c8601ec8c),
	    "hash_name(\"a\")");
	CHECK(hash_name("foobar") == UINT64_C(0x85944171f73967e8),
	    "hash_name(\"foobar\")");

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		slot = hash_name_slot(tab, ARRAY_SIZE(tab), names[i]);
		CHECK(!tab[slot], "a new name gets an empty slot");
		tab[slot] = names[i];
	}
	for (i = 0; i < ARRAY_SIZE(tab); i++)
		if (!tab[i])
			free_slot = i;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		memcpy(copy, names[i], sizeof(copy));
		slot = hash_name_slot(tab, ARRAY_SIZE(tab), copy);
		CHECK(tab[slot] == names[i], "a name finds its own slot");
	}
	CHECK_EQ_INT(hash_name_slot(tab, ARRAY_SIZE(tab), "p95"), free_slot,
	    "a name not there gets the one empty slot");
}

int
main(void)
{
	test_sort_in_memory();
	test_cond();
	test_rate();
	test_kvset();
	test_parse();
	test_table();
	test_table_cell();
	test_where();
	test_where_range();
	test_schema();
	test_sort_merge();
	test_sort_pairs();
	test_err_capture();
	test_utf8_ids();
	test_hash();
	test_bug();
	return test_done();
}
