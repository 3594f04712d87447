/*
 * oha_sqlite.c - parser for oha's --db-url SQLite file (v1.4.6+): table
 * oha, one row per successful request.  One http_ms sample per row in
 * start order, and one run per distinct `run` value (v1.9+ appends runs
 * to the same file).  The file is read in memory, read-only.
 */
#include "common/compat.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sort.h"
#include "common/xalloc.h"
#include "ingest/internal.h"
#include "ingest/oha_btree.h"
#include "ingest/oha_common.h"

#define SQLITE_HEADER_SIZE	100

enum oha_row_bad {
	OHA_ROW_OK = 0,
	OHA_ROW_BAD_START,
	OHA_ROW_BAD_DURATION,
	OHA_ROW_BAD_STATUS,
};

static const char *const oha_row_bad_name[] = {
	"", "start", "duration", "status",
};

struct oha_row {
	double		start;		/* s since the run start, 0 if bad */
	double		duration;	/* s (latency-corrected if asked) */
	int64_t		run;		/* Unix s of the run start, or 0 */
	size_t		idx;		/* position in table order */
	int		status;		/* HTTP status */
	enum oha_row_bad bad;		/* why it is skipped, or OK */
};

struct oha_cols {
	bool	start, duration, status;	/* required */
	bool	url;		/* v1.5+ */
	bool	run;		/* v1.9+ */
};

static int
oha_row_cmp(const void *a, const void *b)
{
	const struct oha_row *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Are rows in oha_row_cmp() order already? */
static bool
oha_rows_sorted(const struct oha_row *rows, size_t nrows)
{
	size_t i;

	for (i = 1; i < nrows; i++)
		if (oha_row_cmp(&rows[i - 1], &rows[i]) > 0)
			return false;
	return true;
}

/*
 * Put rows in oha_row_cmp() order by insertion while that stays cheap:
 * oha writes a request when it ends, so with several connections the
 * starts are nearly in order (on the bench tree a row is on average one
 * or two places from its own, at most ~120), and shifting a row past a
 * few later starters costs far less than two radix sorts and a move of
 * every row.  Rows further out of order (shifts past 4 a row read so
 * far, plus some slack) make it stop and return false before moving row
 * i: rows[0..i) are then those of idx < i in oha_row_cmp() order and the
 * rest in idx order, so rows with equal (run, start) are still in idx
 * order, all oha_rows_sort() needs.  The work is linear either way.
 * The radix sort puts a start of -0.0 before 0.0, oha_row_cmp() does
 * not: with a -0.0 start the caller uses the radix sort alone.
 */
static bool
oha_rows_settle(struct oha_row *rows, size_t nrows)
{
	size_t i, j, shifts = 0;
	struct oha_row r;

	for (i = 1; i < nrows; i++) {
		if (oha_row_cmp(&rows[i - 1], &rows[i]) <= 0)
			continue;
		r = rows[i];
		for (j = i; j > 0 && oha_row_cmp(&rows[j - 1], &r) > 0; j--)
			;
		shifts += i - j;
		if (shifts > 4 * i + 4096)
			return false;
		memmove(&rows[j + 1], &rows[j], (i - j) * sizeof(*rows));
		rows[j] = r;
	}
	return true;
}

/*
 * Put *rows in oha_row_cmp() order: by start, then stably by run (rows
 * with equal keys are in idx order to begin with, so they stay in it).
 * Two radix sorts of (key, index) pairs and one move of the rows:
 * qsort() with oha_row_cmp() was a third of ingest's instructions on a
 * tree of shuffled rows.  start is >= 0 (or 0 for a bad row), so its key is its
 * order; a run's key flips the sign bit.
 */
static void
oha_rows_sort(struct oha_row **rows, size_t nrows)
{
	struct sort_pair *p = xreallocarray(NULL, nrows ? nrows : 1,
	    sizeof(*p));
	struct oha_row *out;
	size_t i;

	for (i = 0; i < nrows; i++) {
		p[i].key = sort_double_key((*rows)[i].start);
		p[i].val = i;
	}
	sort_pairs(p, nrows);
	for (i = 0; i < nrows; i++)
		p[i].key = (uint64_t)(*rows)[p[i].val].run ^
		    UINT64_C(0x8000000000000000);
	sort_pairs(p, nrows);
	out = xreallocarray(NULL, nrows ? nrows : 1, sizeof(*out));
	for (i = 0; i < nrows; i++)
		out[i] = (*rows)[p[i].val];
	free(*rows);
	*rows = out;
	free(p);
}

/* A column value that is a number (INTEGER or REAL). */
static bool
val_number(const struct oha_val *v, double *out)
{
	if (v->type != SQLITE_INTEGER && v->type != SQLITE_FLOAT)
		return false;
	*out = v->d;
	return isfinite(*out);
}

/*
 * Fill *row from a row's (start, duration, status[, run]).  Returns
 * false when the row cannot even be given to a run.
 */
static bool
oha_fill_row(const struct oha_val *v, bool has_run, struct oha_row *row)
{
	double d;

	memset(row, 0, sizeof(*row));
	if (has_run) {
		if (v[3].type != SQLITE_INTEGER)
			return false;
		row->run = v[3].i;
	}
	if (!val_number(&v[0], &d) || d < 0 || d >= OHA_MAX_SECONDS) {
		row->bad = OHA_ROW_BAD_START;
		return true;
	}
	row->start = d;
	if (!val_number(&v[1], &d) || d < 0 || d >= OHA_MAX_SECONDS) {
		row->bad = OHA_ROW_BAD_DURATION;
		return true;
	}
	row->duration = d;
	if (v[2].type != SQLITE_INTEGER || !oha_status_valid(v[2].i)) {
		row->bad = OHA_ROW_BAD_STATUS;
		return true;
	}
	row->status = (int)v[2].i;
	return true;
}

/*
 * The current result row's columns as oha_fill_row() takes them.  Each
 * column is fetched once as an sqlite3_value and read from there: every
 * sqlite3_column_*() call takes the statement's mutex and checks for a
 * failed malloc, and two calls a column were a sixth of a parse.
 */
static void
oha_stmt_vals(sqlite3_stmt *st, int ncols, struct oha_val *v)
{
	int c;

	for (c = 0; c < ncols; c++) {
		sqlite3_value *x = sqlite3_column_value(st, c);

		memset(&v[c], 0, sizeof(v[c]));
		v[c].type = sqlite3_value_type(x);
		if (v[c].type == SQLITE_INTEGER)
			v[c].i = sqlite3_value_int64(x);
		if (v[c].type == SQLITE_INTEGER || v[c].type == SQLITE_FLOAT)
			v[c].d = sqlite3_value_double(x);
	}
}

/* Which of oha's columns table oha has.  Returns 0, or -1 with the
 * rejection already written to res. */
static int
oha_columns(sqlite3 *db, struct oha_cols *cols, struct parse_result *res)
{
	sqlite3_stmt *st = NULL;
	const char *name;
	int rc, ret = -1;

	memset(cols, 0, sizeof(*cols));
	rc = sqlite3_prepare_v2(db, "SELECT type FROM main.sqlite_master "
	    "WHERE name = 'oha' COLLATE NOCASE", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		parse_reject(res, "cannot read database: %s",
		    sqlite3_errmsg(db));
		goto cleanup;
	}
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			parse_reject(res, "no table 'oha' in the database");
		else
			parse_reject(res, "cannot read database: %s",
			    sqlite3_errmsg(db));
		goto cleanup;
	}
	name = (const char *)sqlite3_column_text(st, 0);
	if (!name || strcmp(name, "table")) {
		parse_reject(res, "'oha' is a %s, not a table",
		    name ? name : "?");
		goto cleanup;
	}
	sqlite3_finalize(st);
	st = NULL;

	rc = sqlite3_prepare_v2(db, "SELECT lower(name) FROM "
	    "pragma_table_info('oha')", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		parse_reject(res, "cannot read the columns of oha: %s",
		    sqlite3_errmsg(db));
		goto cleanup;
	}
	for (;;) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		name = (const char *)sqlite3_column_text(st, 0);
		if (!name)
			continue;
		cols->start |= !strcmp(name, "start");
		cols->duration |= !strcmp(name, "duration");
		cols->status |= !strcmp(name, "status");
		cols->url |= !strcmp(name, "url");
		cols->run |= !strcmp(name, "run");
	}
	if (rc != SQLITE_DONE) {
		parse_reject(res, "cannot read the columns of oha: %s",
		    sqlite3_errmsg(db));
		goto cleanup;
	}
	if (!cols->start || !cols->duration || !cols->status) {
		parse_reject(res, "table oha has no '%s' column: not oha's",
		    !cols->start ? "start" : !cols->duration ? "duration" :
		    "status");
		goto cleanup;
	}
	ret = 0;
cleanup:
	sqlite3_finalize(st);	/* NULL-safe */
	return ret;
}

/*
 * Emit the runs from rows (sorted by run, start): one per run value,
 * tagged oha_run=<run> when the file holds several.  Returns how many.
 */
static size_t
oha_emit_runs(struct oha_row *rows, size_t nrows, const struct oha_cols *cols,
    struct parse_result *res)
{
	struct oha_status_tally *tally = xcalloc(1, sizeof(*tally));
	struct parsed_run *run;
	size_t i, j, k, ndistinct = 0, nruns = 0, good, first_bad;
	char label[32];

	for (i = 0; i < nrows; i++)
		if (i == 0 || rows[i].run != rows[i - 1].run)
			ndistinct++;
	for (i = 0; i < nrows; i = j) {
		good = 0;
		first_bad = SIZE_MAX;
		for (j = i; j < nrows && rows[j].run == rows[i].run; j++) {
			if (!rows[j].bad)
				good++;
			else if (first_bad == SIZE_MAX ||
			    rows[j].idx < rows[first_bad].idx)
				first_bad = j;
		}
		if (!good) {
			parse_result_mark_partial(res, "run %lld: all %zu rows "
			    "bad", (long long)rows[i].run, j - i);
			continue;
		}
		run = parse_result_add_run(res, "oha", METRIC_HTTP_MS);
		nruns++;
		if (cols->run) {
			run->started_at = rows[i].run;
			if (ndistinct > 1) {
				snprintf(label, sizeof(label), "%lld",
				    (long long)rows[i].run);
				kvset_set(&run->tags, "oha_run", label);
			}
		}
		ALLOC_GROW(run->samples, good, run->alloc_samples);
		for (k = i; k < j; k++) {
			if (rows[k].bad)
				continue;
			parsed_run_add_sample(run, METRIC_HTTP_MS,
			    llround(rows[k].start * 1e6),
			    rows[k].duration * 1000.0, SAMPLE_OK);
			oha_status_tally_add(tally, rows[k].status);
		}
		oha_status_tally_flush(tally, run);
		/* Errors are never stored in the table: attempts unknown. */
		run->failures = 0;
		run->attempts = -1;
		if (good < j - i) {
			parsed_run_mark_partial(run, "skipped %zu bad row%s of "
			    "%zu (first: row %zu, bad %s)", j - i - good,
			    j - i - good == 1 ? "" : "s", j - i,
			    rows[first_bad].idx + 1,
			    oha_row_bad_name[rows[first_bad].bad]);
			if (ndistinct > 1)
				parse_result_mark_partial(res, "run %lld: %s",
				    (long long)rows[i].run, run->reason.buf);
			else
				parse_result_mark_partial(res, "%s",
				    run->reason.buf);
		}
	}
	free(tally);
	return nruns;
}

/*
 * An in-memory, read-only connection to the database image data[0..len)
 * (borrowed: it must outlive the connection), locked down for an
 * untrusted file.  NULL, with the rejection written to res, if SQLite
 * cannot load it.
 */
static sqlite3 *
oha_open(unsigned char *data, size_t len, struct parse_result *res)
{
	sqlite3 *db = NULL;
	int rc;

	/* NOMUTEX: the connection lives and dies in one parse, on one
	 * thread; the per-call mutex was ~5 % of ingest's CPU. */
	rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		parse_reject(res, "cannot open an in-memory database: %s",
		    db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		goto fail;
	}
	/* The file is untrusted: no triggers, views or unsafe functions
	 * (the options exist from SQLite 3.26, 3.31 and 3.35). */
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
#ifdef SQLITE_DBCONFIG_DEFENSIVE
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
#endif
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
#endif
#ifdef SQLITE_DBCONFIG_ENABLE_VIEW
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)NULL);
#endif
	rc = sqlite3_deserialize(db, "main", data, (sqlite3_int64)len,
	    (sqlite3_int64)len, SQLITE_DESERIALIZE_READONLY);
	if (rc != SQLITE_OK) {
		parse_reject(res, "cannot load database: %s",
		    sqlite3_errmsg(db));
		goto fail;
	}
	/* Read the pages in place in data (SQLite's memory-mapped reads
	 * of an in-memory database) instead of copying each into the
	 * page cache first.  Best effort: without it the rows are the
	 * same, only slower. */
	sqlite3_exec(db, "PRAGMA main.mmap_size = 2147483647", NULL, NULL,
	    NULL);
	return db;
fail:
	sqlite3_close(db);	/* NULL-safe */
	return NULL;
}

/* The rows read so far, in table order. */
struct oha_scan {
	struct oha_row	*rows;		/* owned */
	size_t		nrows, alloc;
	size_t		seen;		/* rows read */
	size_t		unattributed;	/* of them without a valid run */
	bool		has_run;
	bool		negzero;	/* a start of -0.0 */
};

/* Take one row's (start, duration, status[, run]). */
static void
oha_scan_add(void *arg, const struct oha_val *v)
{
	struct oha_scan *sc = arg;
	struct oha_row *row;

	ALLOC_GROW(sc->rows, sc->nrows + 1, sc->alloc);
	row = &sc->rows[sc->nrows];
	if (oha_fill_row(v, sc->has_run, row)) {
		row->idx = sc->seen;
		sc->negzero |= signbit(row->start) != 0;
		sc->nrows++;
	} else {
		sc->unattributed++;
	}
	sc->seen++;
}

/*
 * Where oha_btree_scan() finds the columns the SELECT reads: the root
 * page of table oha and its columns' record positions.  False when the
 * table is not one it reads as SQLite does: a generated or hidden
 * column (the record's positions are then not the columns'), a column
 * read that is the rowid's alias (stored as NULL), or a status or run
 * whose type is not an integer one (SQLite would convert a REAL
 * column's integers to REAL on reading).
 */
static bool
oha_layout(sqlite3 *db, bool has_run, uint32_t *root, int *ncols, int *pos)
{
	static const char *const want[] = { "start", "duration", "status",
	    "run" };
	sqlite3_stmt *st = NULL;
	bool ok = false;
	int k, found = 0, nwant = has_run ? 4 : 3;

	if (sqlite3_prepare_v2(db, "SELECT rootpage FROM main.sqlite_master "
	    "WHERE type = 'table' AND name = 'oha' COLLATE NOCASE", -1, &st,
	    NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW ||
	    sqlite3_column_type(st, 0) != SQLITE_INTEGER)
		goto cleanup;
	*root = (uint32_t)sqlite3_column_int64(st, 0);
	if (sqlite3_column_int64(st, 0) < 1 ||
	    sqlite3_column_int64(st, 0) > UINT32_MAX)
		goto cleanup;
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "SELECT lower(name), upper(coalesce(type, "
	    "'')), pk, hidden FROM pragma_table_xinfo('oha') ORDER BY cid",
	    -1, &st, NULL) != SQLITE_OK)
		goto cleanup;
	for (*ncols = 0; sqlite3_step(st) == SQLITE_ROW; (*ncols)++) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);

		if (!name || !type || sqlite3_column_int(st, 3) != 0)
			goto cleanup;
		for (k = 0; k < nwant; k++) {
			if (strcmp(name, want[k]))
				continue;
			if (sqlite3_column_int(st, 2) != 0 ||
			    (k >= 2 && !strstr(type, "INT")))
				goto cleanup;
			pos[k] = *ncols;
			found++;
		}
	}
	ok = found == nwant;
cleanup:
	sqlite3_finalize(st);	/* NULL-safe */
	return ok;
}

/*
 * The parser; by_sqlite makes SQLite read every row (the tests compare
 * both readers), else the rows are read from the pages when
 * oha_layout() and oha_btree_scan() allow it.
 */
static int
parse_oha_sqlite(const char *buf, size_t len, struct parse_result *res,
    bool by_sqlite)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	unsigned char *copy = NULL, *data;
	struct oha_scan sc;
	struct oha_val vals[OHA_BTREE_MAX_COLS];
	struct oha_row *rows = NULL;
	size_t nrows = 0, unattributed = 0, seen = 0;
	struct oha_cols cols;
	bool negzero = false;	/* a start of -0.0 */
	uint32_t root = 0;
	int rc = SQLITE_DONE, ret = -1, ncols = 0;
	int pos[OHA_BTREE_MAX_COLS];

	memset(&sc, 0, sizeof(sc));
	if (len < SQLITE_HEADER_SIZE || memcmp(buf, "SQLite format 3", 16)) {
		parse_reject(res, "not an SQLite database");
		goto cleanup;
	}
	/*
	 * sqlite3_deserialize() keeps buf and, being read-only, never
	 * writes to it, hence the cast.  A WAL-mode file (header bytes
	 * 18-19 = 2) cannot be opened in memory: read a private copy
	 * marked as a rollback-journal file instead; rows still in a -wal
	 * file next to it were not given to us either way.
	 */
	data = (unsigned char *)(uintptr_t)buf;
	if (buf[18] == 2 || buf[19] == 2) {
		copy = xmalloc(len);	/* freed at cleanup */
		memcpy(copy, buf, len);
		copy[18] = copy[19] = 1;
		data = copy;
	}
	db = oha_open(data, len, res);
	if (!db)
		goto cleanup;
	if (oha_columns(db, &cols, res))
		goto cleanup;

	rc = sqlite3_prepare_v2(db, cols.run ?
	    "SELECT start, duration, status, run FROM main.oha" :
	    "SELECT start, duration, status FROM main.oha", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		parse_reject(res, "cannot read table oha: %s",
		    sqlite3_errmsg(db));
		goto cleanup;
	}
	sc.has_run = cols.run;
	rc = SQLITE_ROW;
	if (!by_sqlite && oha_layout(db, cols.run, &root, &ncols, pos)) {
		if (oha_btree_scan(data, len, root, ncols, pos, cols.run ? 4 : 3,
		    oha_scan_add, &sc)) {
			rc = SQLITE_DONE;
		} else {
			/* SQLite reads it all again, and judges it */
			sc.nrows = sc.seen = sc.unattributed = 0;
			sc.negzero = false;
		}
	}
	while (rc == SQLITE_ROW) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		oha_stmt_vals(st, cols.run ? 4 : 3, vals);
		oha_scan_add(&sc, vals);
	}
	rows = sc.rows;
	sc.rows = NULL;
	nrows = sc.nrows;
	seen = sc.seen;
	unattributed = sc.unattributed;
	negzero = sc.negzero;
	/* A corrupt file is rejected even after some rows: rows read from
	 * a damaged b-tree cannot be trusted either. */
	if (rc != SQLITE_DONE) {
		parse_reject(res, "cannot read table oha after %zu rows: %s",
		    seen, sqlite3_errmsg(db));
		goto cleanup;
	}
	if (seen == 0) {
		parse_reject(res, "table oha has no rows (oha stores "
		    "successful requests only)");
		goto cleanup;
	}
	if (unattributed)
		parse_result_mark_partial(res, "skipped %zu row%s without a "
		    "valid run", unattributed, unattributed == 1 ? "" : "s");

	if (negzero ? !oha_rows_sorted(rows, nrows) :
	    !oha_rows_settle(rows, nrows))
		oha_rows_sort(&rows, nrows);
	if (oha_emit_runs(rows, nrows, &cols, res) == 0) {
		parse_result_release(res);	/* rejected: no runs */
		parse_reject(res, "no valid row in table oha (%zu rows)",
		    seen);
		goto cleanup;
	}
	snprintf(res->tool_version, sizeof(res->tool_version), "%s",
	    cols.run ? "oha >=1.9" : cols.url ? "oha >=1.5 <1.9" :
	    "oha >=1.4.6 <1.5");
	ret = 0;
cleanup:
	sqlite3_finalize(st);	/* NULL-safe, before closing db */
	sqlite3_close(db);	/* NULL-safe */
	free(copy);
	free(rows);
	free(sc.rows);
	return ret;
}

int
ingest_parse_oha_sqlite(const char *buf, size_t len, struct parse_result *res)
{
	return parse_oha_sqlite(buf, len, res, false);
}

int
oha_sqlite_parse_by_sqlite(const char *buf, size_t len,
    struct parse_result *res)
{
	return parse_oha_sqlite(buf, len, res, true);
}
