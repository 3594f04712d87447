/*
 * store.c - the database side of ingest.  Every function runs inside the
 * caller's per-file transaction, so a failure leaves nothing half-done.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/db.h"
#include "common/err.h"
#include "common/series.h"
#include "common/sort.h"
#include "common/xalloc.h"
#include "ingest/store.h"

enum stmt_id {
	S_FILE_STATE, S_SAME_CONTENT, S_FILE_UPSERT, S_FILE_ID,
	S_DEL_SUMMARIES, S_DEL_COUNTS, S_COUNT_SAMPLES_OF_FILE,
	S_DEL_SAMPLES_OF_FILE,
	S_UNLINK_SAMPLE_FILE, S_DEL_TAGS_OF_FILE, S_DEL_RUNS_OF_FILE,
	S_UNLINK_SUMMARY_FILE, S_DEL_TAGS_OF_SUMFILE, S_DEL_RUNS_OF_SUMFILE,
	S_PATH_INS, S_PATH_ID, S_COND_INS, S_COND_ID, S_COND_KEY,
	S_RUN_INS, S_TAG_INS, S_SERIES_INS,
	S_SUMMARY_INS, S_COUNT_INS,
	S_PAIR_FOR_SAMPLES, S_PAIR_FOR_SUMMARY, S_ATTACH_SAMPLES,
	S_ATTACH_SUMMARY, S_VALUES_INS, S_FILE_RUNS, S_FILE_DEL, S_MTU_INS,
	S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
	[S_FILE_STATE] = "SELECT id, hash, keys, status, ingested_at FROM files "
	    "WHERE relpath = ?1",
	[S_FILE_RUNS] = "SELECT count(*) FROM runs WHERE file_id = ?1 OR "
	    "summary_file_id = ?1",
	[S_FILE_DEL] = "DELETE FROM files WHERE id = ?1",
	[S_SAME_CONTENT] = "SELECT relpath, keys FROM files WHERE hash = ?1 "
	    "AND relpath <> ?2 AND status IN ('ok', 'partial') "
	    "ORDER BY keys IS ?3 DESC, relpath LIMIT 1",
	[S_FILE_UPSERT] = "INSERT INTO files (relpath, hash, size, kind, "
	    "tool_version, status, reason, keys, ingested_at) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
	    "ON CONFLICT (relpath) DO UPDATE SET hash = excluded.hash, "
	    "size = excluded.size, kind = excluded.kind, "
	    "tool_version = excluded.tool_version, status = excluded.status, "
	    "reason = excluded.reason, keys = excluded.keys, "
	    "ingested_at = excluded.ingested_at",
	[S_FILE_ID] = "SELECT id FROM files WHERE relpath = ?1",
	[S_DEL_SUMMARIES] = "DELETE FROM summaries WHERE file_id = ?1",
	[S_DEL_COUNTS] = "DELETE FROM run_counts WHERE file_id = ?1",
	[S_COUNT_SAMPLES_OF_FILE] = "SELECT coalesce(sum(rows), 0) FROM "
	    "series WHERE run_id IN (SELECT id FROM runs WHERE file_id = ?1)",
	[S_DEL_SAMPLES_OF_FILE] = "DELETE FROM series WHERE run_id IN "
	    "(SELECT id FROM runs WHERE file_id = ?1)",
	/* a run that also has a summary file survives without its samples */
	[S_UNLINK_SAMPLE_FILE] = "UPDATE runs SET file_id = NULL WHERE "
	    "file_id = ?1 AND summary_file_id IS NOT NULL AND summary_file_id <> ?1",
	[S_DEL_TAGS_OF_FILE] = "DELETE FROM run_tags WHERE run_id IN "
	    "(SELECT id FROM runs WHERE file_id = ?1)",
	[S_DEL_RUNS_OF_FILE] = "DELETE FROM runs WHERE file_id = ?1",
	[S_UNLINK_SUMMARY_FILE] = "UPDATE runs SET summary_file_id = NULL, "
	    "attempts = NULL, failures = (SELECT coalesce(sum(failed), 0) "
	    "FROM series s WHERE s.run_id = runs.id) "
	    "WHERE summary_file_id = ?1 AND file_id IS NOT NULL",
	[S_DEL_TAGS_OF_SUMFILE] = "DELETE FROM run_tags WHERE run_id IN "
	    "(SELECT id FROM runs WHERE summary_file_id = ?1 AND file_id IS NULL)",
	[S_DEL_RUNS_OF_SUMFILE] = "DELETE FROM runs WHERE summary_file_id = ?1 "
	    "AND file_id IS NULL",
	[S_PATH_INS] = "INSERT OR IGNORE INTO paths (name) VALUES (?1)",
	[S_PATH_ID] = "SELECT id FROM paths WHERE name = ?1",
	[S_COND_INS] = "INSERT OR IGNORE INTO conditions (canon) VALUES (?1)",
	[S_COND_ID] = "SELECT id FROM conditions WHERE canon = ?1",
	[S_COND_KEY] = "INSERT OR IGNORE INTO condition_keys (cond_id, key, value) "
	    "VALUES (?1, ?2, ?3)",
	[S_RUN_INS] = "INSERT INTO runs (file_id, summary_file_id, path_id, "
	    "cond_id, trial, tool, metric, started_at, status, reason, failures, "
	    "attempts, tagkey) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
	    "?11, ?12, ?13)",
	[S_TAG_INS] = "INSERT OR REPLACE INTO run_tags (run_id, key, value) "
	    "VALUES (?1, ?2, ?3)",
	[S_SERIES_INS] = "INSERT INTO series (run_id, metric, chunk, rows, "
	    "failed, value, t_us, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	    "?8)",
	[S_VALUES_INS] = "INSERT OR REPLACE INTO sample_values (run_id, "
	    "metric, rows, failures, sorted) VALUES (?1, ?2, ?3, ?4, ?5)",
	[S_SUMMARY_INS] = "INSERT OR REPLACE INTO summaries (run_id, metric, "
	    "stat, value, estimator, file_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[S_COUNT_INS] = "INSERT OR REPLACE INTO run_counts (run_id, kind, label, "
	    "count, file_id) VALUES (?1, ?2, ?3, ?4, ?5)",
	[S_MTU_INS] = "INSERT OR REPLACE INTO mtu_results (run_id, status, mtu, "
	    "route_mtu, method, reason, target, addr, probes) VALUES (?1, ?2, "
	    "?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	/* oha: one run can come from a JSON summary and a per-request file */
	[S_PAIR_FOR_SAMPLES] = "SELECT id FROM runs WHERE path_id = ?1 AND "
	    "cond_id = ?2 AND trial = ?3 AND tool = ?4 AND tagkey = ?5 AND "
	    "file_id IS NULL AND summary_file_id IS NOT NULL ORDER BY id LIMIT 1",
	[S_PAIR_FOR_SUMMARY] = "SELECT r.id FROM runs r JOIN files f ON "
	    "f.id = r.file_id WHERE r.path_id = ?1 AND r.cond_id = ?2 AND "
	    "r.trial = ?3 AND r.tool = ?4 AND r.tagkey = ?5 AND "
	    "r.summary_file_id IS NULL AND f.kind IN ('oha-csv', 'oha-sqlite') "
	    "ORDER BY r.id LIMIT 1",
	[S_ATTACH_SAMPLES] = "UPDATE runs SET file_id = ?2, "
	    "started_at = coalesce(started_at, ?3), "
	    "status = CASE WHEN ?4 = 'partial' THEN 'partial' ELSE status END, "
	    "reason = CASE WHEN ?5 IS NULL THEN reason WHEN reason IS NULL "
	    "THEN ?5 ELSE reason || '; ' || ?5 END WHERE id = ?1",
	[S_ATTACH_SUMMARY] = "UPDATE runs SET summary_file_id = ?2, "
	    "failures = ?3, attempts = ?4, "
	    "started_at = coalesce(started_at, ?5), "
	    "status = CASE WHEN ?6 = 'partial' THEN 'partial' ELSE status END, "
	    "reason = CASE WHEN ?7 IS NULL THEN reason WHEN reason IS NULL "
	    "THEN ?7 ELSE reason || '; ' || ?7 END WHERE id = ?1",
};

struct store {
	sqlite3		*db;
	sqlite3_stmt	*st[S_COUNT];
	size_t		samples_removed;	/* by store_forget_file(), since
						 * store_take_samples_removed() */
};

struct store *
store_open(sqlite3 *db)
{
	struct store *s = xcalloc(1, sizeof(*s));
	size_t i;

	s->db = db;
	for (i = 0; i < S_COUNT; i++) {
		s->st[i] = db_prepare(db, "ingest statement", stmt_sql[i]);
		if (!s->st[i]) {
			store_close(s);
			return NULL;
		}
	}
	return s;
}

void
store_close(struct store *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < S_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	free(s);
}

void
file_state_release(struct file_state *fs)
{
	free(fs->hash);
	free(fs->keys);
	free(fs->status);
	free(fs->ingested_at);
	memset(fs, 0, sizeof(*fs));
}

static sqlite3_stmt *
use(struct store *s, enum stmt_id id)
{
	sqlite3_reset(s->st[id]);
	sqlite3_clear_bindings(s->st[id]);
	return s->st[id];
}

static char *
col_text_dup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t ? xstrdup((const char *)t) : NULL;
}

int
store_file_state(struct store *s, const char *relpath, struct file_state *out)
{
	sqlite3_stmt *st = use(s, S_FILE_STATE);
	int rc;

	memset(out, 0, sizeof(*out));
	sqlite3_bind_text(st, 1, relpath, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->hash = col_text_dup(st, 1);
		out->keys = col_text_dup(st, 2);
		out->status = col_text_dup(st, 3);
		out->ingested_at = col_text_dup(st, 4);
	} else if (rc != SQLITE_DONE) {
		return error("look up file '%s': %s", relpath,
		    sqlite3_errmsg(s->db));
	}
	sqlite3_reset(st);
	return 0;
}

char *
store_same_content(struct store *s, const char *hash, const char *relpath,
    const char *keys, char **their_keys)
{
	sqlite3_stmt *st = use(s, S_SAME_CONTENT);
	char *res = NULL;

	*their_keys = NULL;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, relpath, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, keys, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		res = col_text_dup(st, 0);
		*their_keys = col_text_dup(st, 1);
	}
	sqlite3_reset(st);
	return res;
}

static int
run_file_stmt(struct store *s, enum stmt_id id, int64_t file_id)
{
	sqlite3_stmt *st = use(s, id);

	sqlite3_bind_int64(st, 1, file_id);
	if (db_step_done(s->db, st, "remove a file's runs"))
		return -1;
	sqlite3_reset(st);
	return 0;
}

int
store_file_runs(struct store *s, int64_t file_id, int64_t *nruns)
{
	sqlite3_stmt *st = use(s, S_FILE_RUNS);

	sqlite3_bind_int64(st, 1, file_id);
	if (sqlite3_step(st) != SQLITE_ROW)
		return error("count a file's runs: %s", sqlite3_errmsg(s->db));
	*nruns = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

int
store_forget_file(struct store *s, int64_t file_id, size_t *removed)
{
	static const enum stmt_id order[] = {
		S_DEL_SUMMARIES, S_DEL_COUNTS, S_DEL_SAMPLES_OF_FILE,
		S_UNLINK_SAMPLE_FILE, S_DEL_TAGS_OF_FILE, S_DEL_RUNS_OF_FILE,
		S_UNLINK_SUMMARY_FILE, S_DEL_TAGS_OF_SUMFILE,
		S_DEL_RUNS_OF_SUMFILE,
	};
	sqlite3_stmt *st = use(s, S_COUNT_SAMPLES_OF_FILE);
	size_t i;

	sqlite3_bind_int64(st, 1, file_id);
	if (sqlite3_step(st) != SQLITE_ROW)
		return error("count a file's samples: %s",
		    sqlite3_errmsg(s->db));
	s->samples_removed += (size_t)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (run_file_stmt(s, order[i], file_id))
			return -1;
		if (order[i] == S_DEL_RUNS_OF_FILE ||
		    order[i] == S_DEL_RUNS_OF_SUMFILE)
			*removed += (size_t)sqlite3_changes(s->db);
	}
	return 0;
}

size_t
store_take_samples_removed(struct store *s)
{
	size_t n = s->samples_removed;

	s->samples_removed = 0;
	return n;
}

int
store_drop_file(struct store *s, int64_t file_id, size_t *removed)
{
	if (store_forget_file(s, file_id, removed))
		return -1;
	return run_file_stmt(s, S_FILE_DEL, file_id);
}

static void
utc_now(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void
bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int
store_put_file(struct store *s, const struct file_row *row, int64_t *file_id,
    size_t *removed)
{
	struct file_state fs;
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (store_file_state(s, row->relpath, &fs))
		return -1;
	if (fs.id && store_forget_file(s, fs.id, removed)) {
		file_state_release(&fs);
		return -1;
	}
	file_state_release(&fs);
	utc_now(now, sizeof(now));
	st = use(s, S_FILE_UPSERT);
	sqlite3_bind_text(st, 1, row->relpath, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, row->hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, row->size);
	sqlite3_bind_text(st, 4, row->kind, -1, SQLITE_STATIC);
	bind_text_or_null(st, 5, row->tool_version && *row->tool_version ?
	    row->tool_version : NULL);
	sqlite3_bind_text(st, 6, row->status, -1, SQLITE_STATIC);
	bind_text_or_null(st, 7, row->reason && *row->reason ? row->reason : NULL);
	sqlite3_bind_text(st, 8, row->keys, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, now, -1, SQLITE_TRANSIENT);
	if (db_step_done(s->db, st, "record file"))
		return -1;
	st = use(s, S_FILE_ID);
	sqlite3_bind_text(st, 1, row->relpath, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW)
		return error("record file '%s': %s", row->relpath,
		    sqlite3_errmsg(s->db));
	*file_id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

/* Insert-or-get the id of a name in a small dictionary table. */
static int
dict_id(struct store *s, enum stmt_id ins, enum stmt_id sel, const char *name,
    int64_t *id, bool *created)
{
	sqlite3_stmt *st = use(s, ins);

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (db_step_done(s->db, st, "add a path or condition"))
		return -1;
	if (created)
		*created = sqlite3_changes(s->db) > 0;
	st = use(s, sel);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW)
		return error("look up '%s': %s", name, sqlite3_errmsg(s->db));
	*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

static int
cond_id(struct store *s, const struct kvset *cond, int64_t *id)
{
	struct strbuf canon = STRBUF_INIT;
	bool created = false;
	size_t i;
	int ret = -1;

	kvset_join(cond, &canon, ",");
	if (dict_id(s, S_COND_INS, S_COND_ID, canon.buf, id, &created))
		goto cleanup;
	for (i = 0; created && i < cond->n; i++) {
		sqlite3_stmt *st = use(s, S_COND_KEY);

		sqlite3_bind_int64(st, 1, *id);
		sqlite3_bind_text(st, 2, cond->items[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, cond->items[i].value, -1, SQLITE_STATIC);
		if (db_step_done(s->db, st, "record condition keys"))
			goto cleanup;
	}
	ret = 0;
cleanup:
	strbuf_release(&canon);
	return ret;
}

/* Tag values may contain ';' or '\': escape them in the identity text. */
static void
tagkey_of(const struct kvset *tags, struct strbuf *out)
{
	size_t i;
	const char *p;

	for (i = 0; i < tags->n; i++) {
		if (i)
			strbuf_addch(out, ';');
		strbuf_addstr(out, tags->items[i].key);
		strbuf_addch(out, '=');
		for (p = tags->items[i].value; *p; p++) {
			if (*p == ';' || *p == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
	}
}

/* One series row: samples first .. first + n - 1 of blobs vb, tb, sb,
 * of which failed have a status other than ok and any_t says whether
 * one has a time (else the t_us blob is NULL). */
static int
put_chunk(struct store *s, int64_t run_id, unsigned m, size_t first,
    size_t n, const unsigned char *vb, const unsigned char *tb,
    const unsigned char *sb, size_t failed, bool any_t)
{
	sqlite3_stmt *st = use(s, S_SERIES_INS);

	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, (int)m);
	sqlite3_bind_int64(st, 3, (int64_t)(first / SERIES_CHUNK));
	sqlite3_bind_int64(st, 4, (int64_t)n);
	sqlite3_bind_int64(st, 5, (int64_t)failed);
	sqlite3_bind_blob64(st, 6, vb + 8 * first, 8 * n, SQLITE_STATIC);
	if (any_t)
		sqlite3_bind_blob64(st, 7, tb + 8 * first, 8 * n,
		    SQLITE_STATIC);
	if (failed)
		sqlite3_bind_blob64(st, 8, sb + first, n, SQLITE_STATIC);
	if (db_step_done(s->db, st, "store samples"))
		return -1;
	sqlite3_reset(st);
	return 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define STORE_HOST_LE	1
#else
#define STORE_HOST_LE	0
#endif

/* x at out, little-endian: a plain 8-byte store on a little-endian
 * host (series_put_i64() is a call and a byte loop per sample). */
static inline void
put_le64(unsigned char *out, uint64_t x)
{
	if (STORE_HOST_LE)
		memcpy(out, &x, sizeof(x));
	else
		series_put_i64(out, (int64_t)x);
}

/*
 * One metric's samples, in seq order, as the series rows' column blobs
 * (schema 009) into e.  A value that is not finite, or of a failed
 * sample, is stored as NaN (NULL in the samples view); -0.0 as 0.0, as
 * a REAL of integral value read back from the old samples table.  Each
 * chunk's failures and times are counted as the blobs are filled, not
 * read back from them.
 */
static void
enc_series_blobs(const struct parsed_run *run, unsigned m,
    struct enc_series *e)
{
	size_t cap = e->rows ? e->rows : 1, nchunks = cap / SERIES_CHUNK + 1;
	size_t i, n = 0, c;

	e->vb = xmalloc(8 * cap);
	e->tb = xmalloc(8 * cap);
	e->sb = xmalloc(cap);
	e->failed = xcalloc(nchunks, sizeof(*e->failed));
	e->any_t = xcalloc(nchunks, sizeof(*e->any_t));
	for (i = 0; i < run->nsamples; i++) {
		const struct parsed_sample *ps = &run->samples[i];
		double v = ps->value;
		uint64_t u;

		if (ps->metric != m)
			continue;
		if (ps->status != SAMPLE_OK || !isfinite(v))
			v = NAN;
		if (v == 0)
			v = 0.0;
		memcpy(&u, &v, sizeof(u));
		put_le64(e->vb + 8 * n, u);
		put_le64(e->tb + 8 * n, (uint64_t)(ps->t_us == T_US_UNKNOWN ?
		    SERIES_T_NONE : ps->t_us));
		c = n / SERIES_CHUNK;
		e->any_t[c] |= ps->t_us != T_US_UNKNOWN &&
		    ps->t_us != SERIES_T_NONE;
		e->failed[c] += ps->status != 0;
		e->sb[n] = (unsigned char)ps->status;
		n++;
	}
}

/*
 * One metric's successful values, sorted, as the sample_values blob
 * (schema 002) into e: status ok and a finite value (the others are the
 * rows enc_series_blobs() stores as failed).  -0.0 is stored as 0.0, as
 * SQLite stores a REAL of integral value in the samples row.
 */
static void
enc_sorted(const struct parsed_run *run, unsigned m, struct enc_series *e)
{
	double *v = xmalloc((e->rows ? e->rows : 1) * sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < run->nsamples; i++) {
		const struct parsed_sample *ps = &run->samples[i];

		if (ps->metric == m && ps->status == SAMPLE_OK &&
		    isfinite(ps->value))
			v[n++] = ps->value == 0 ? 0.0 : ps->value;
	}
	sort_doubles(v, n);
	e->nsorted = n;
	if (STORE_HOST_LE) {
		/* the doubles are their own little-endian bytes */
		e->sorted = (unsigned char *)v;
		return;
	}
	e->sorted = xmalloc((n ? n : 1) * sizeof(*v));
	db_pack_doubles(v, n, e->sorted);
	free(v);
}

/* The run's samples encoded, one entry per metric, in metric order;
 * caller frees with run_enc_free(). */
static struct run_enc *
enc_build(const struct parsed_run *run)
{
	struct run_enc *enc = xcalloc(1, sizeof(*enc));
	size_t rows[METRIC_ID_LIMIT] = { 0 }, i;
	unsigned m;

	for (i = 0; i < run->nsamples; i++)
		if (run->samples[i].metric < ARRAY_SIZE(rows))
			rows[run->samples[i].metric]++;
	for (m = 1; m < ARRAY_SIZE(rows); m++)
		enc->n += rows[m] != 0;
	enc->s = xcalloc(enc->n ? enc->n : 1, sizeof(*enc->s));
	for (i = 0, m = 1; m < ARRAY_SIZE(rows); m++) {
		struct enc_series *e = &enc->s[i];

		if (!rows[m])
			continue;
		e->metric = m;
		e->rows = rows[m];
		enc_series_blobs(run, m, e);
		enc_sorted(run, m, e);
		i++;
	}
	return enc;
}

void
store_encode_runs(struct parse_result *res)
{
	size_t r;

	for (r = 0; r < res->nruns; r++) {
		struct parsed_run *run = &res->runs[r];

		if (run->enc)
			continue;
		run->enc = enc_build(run);
		FREE_AND_NULL(run->samples);
		run->alloc_samples = 0;
	}
}

/* The series rows of each metric of the run, SERIES_CHUNK to a row. */
static int
put_series(struct store *s, int64_t run_id, const struct run_enc *enc)
{
	size_t k, i, n;

	for (k = 0; k < enc->n; k++) {
		const struct enc_series *e = &enc->s[k];

		n = e->rows;
		for (i = 0; i < n; i += SERIES_CHUNK)
			if (put_chunk(s, run_id, e->metric, i, n - i <
			    SERIES_CHUNK ? n - i : SERIES_CHUNK, e->vb, e->tb,
			    e->sb, e->failed[i / SERIES_CHUNK],
			    e->any_t[i / SERIES_CHUNK]))
				return -1;
	}
	return 0;
}

/* The sorted copy of each metric's successful values (sample_values),
 * counting the rows put_series() stored as failed. */
static int
put_values(struct store *s, int64_t run_id, const struct run_enc *enc)
{
	size_t k;

	for (k = 0; k < enc->n; k++) {
		const struct enc_series *e = &enc->s[k];
		sqlite3_stmt *st = use(s, S_VALUES_INS);

		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, (int)e->metric);
		sqlite3_bind_int64(st, 3, (int64_t)e->rows);
		sqlite3_bind_int64(st, 4, (int64_t)(e->rows - e->nsorted));
		if (e->nsorted)
			sqlite3_bind_blob64(st, 5, e->sorted, 8 * e->nsorted,
			    SQLITE_STATIC);
		else
			sqlite3_bind_zeroblob(st, 5, 0);
		if (db_step_done(s->db, st, "store sorted sample values"))
			return -1;
		sqlite3_reset(st);
	}
	return 0;
}

/* pathprobe --mtu's result beside its run (schema 006); none for
 * other runs.  Its row goes with the run (trigger runs_delete_mtu). */
static int
put_mtu(struct store *s, int64_t run_id, const struct parsed_run *run)
{
	const struct parsed_mtu *m = run->mtu;
	sqlite3_stmt *st;

	if (!m)
		return 0;
	st = use(s, S_MTU_INS);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, m->found ? "found" : "unknown", -1,
	    SQLITE_STATIC);
	if (m->found)
		sqlite3_bind_int64(st, 3, m->mtu);
	else
		sqlite3_bind_null(st, 3);
	if (m->route_mtu >= 0)
		sqlite3_bind_int64(st, 4, m->route_mtu);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_text(st, 5, m->method, -1, SQLITE_STATIC);
	bind_text_or_null(st, 6, m->reason);
	bind_text_or_null(st, 7, m->target);
	bind_text_or_null(st, 8, m->addr);
	if (m->probes >= 0)
		sqlite3_bind_int64(st, 9, m->probes);
	else
		sqlite3_bind_null(st, 9);
	return db_step_done(s->db, st, "store the path MTU result");
}

static int
put_summaries(struct store *s, int64_t run_id, int64_t file_id,
    const struct parsed_run *run)
{
	size_t i;

	for (i = 0; i < run->nsummaries; i++) {
		const struct parsed_summary *ps = &run->summaries[i];
		sqlite3_stmt *st = use(s, S_SUMMARY_INS);

		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, ps->metric, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, ps->stat, -1, SQLITE_STATIC);
		if (isfinite(ps->value))
			sqlite3_bind_double(st, 4, ps->value);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_text(st, 5, ps->estimator, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, file_id);
		if (db_step_done(s->db, st, "store tool summaries"))
			return -1;
	}
	for (i = 0; i < run->ncounts; i++) {
		const struct parsed_count *pc = &run->counts[i];
		sqlite3_stmt *st = use(s, S_COUNT_INS);

		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, pc->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, pc->label, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, pc->count);
		sqlite3_bind_int64(st, 5, file_id);
		if (db_step_done(s->db, st, "store status and error counts"))
			return -1;
	}
	return 0;
}

static int
put_tags(struct store *s, int64_t run_id, const struct kvset *tags)
{
	size_t i;

	for (i = 0; i < tags->n; i++) {
		sqlite3_stmt *st = use(s, S_TAG_INS);

		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, tags->items[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, tags->items[i].value, -1, SQLITE_STATIC);
		if (db_step_done(s->db, st, "store run tags"))
			return -1;
	}
	return 0;
}

/* An existing oha run this file completes, or 0. */
static int
find_pair(struct store *s, enum stmt_id id, int64_t path_id, int64_t cid,
    long trial, const char *tool, const char *tagkey, int64_t *run_id)
{
	sqlite3_stmt *st = use(s, id);
	int rc;

	sqlite3_bind_int64(st, 1, path_id);
	sqlite3_bind_int64(st, 2, cid);
	sqlite3_bind_int64(st, 3, trial);
	sqlite3_bind_text(st, 4, tool, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, tagkey, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*run_id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return error("look up the matching oha run: %s",
		    sqlite3_errmsg(s->db));
	return 0;
}

static void
bind_started(sqlite3_stmt *st, int i, int64_t started)
{
	if (started == STARTED_UNKNOWN)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, started);
}

int
store_put_runs(struct store *s, int64_t file_id, enum ingest_kind kind,
    const struct parse_result *res, const struct run_keys *keys,
    size_t *nruns, size_t *nsamples)
{
	bool is_oha_summary = kind == KIND_OHA_JSON;
	bool is_oha_requests = kind == KIND_OHA_CSV || kind == KIND_OHA_SQLITE;
	int64_t path_id;
	size_t r;

	if (dict_id(s, S_PATH_INS, S_PATH_ID, keys->path, &path_id, NULL))
		return -1;
	for (r = 0; r < res->nruns; r++) {
		const struct parsed_run *run = &res->runs[r];
		struct kvset cond = KVSET_INIT, tags = KVSET_INIT;
		struct strbuf tagkey = STRBUF_INIT;
		const struct run_enc *enc;
		struct run_enc *own = NULL;	/* owned: enc when built here */
		int64_t cid, run_id = 0;
		long trial = keys->trial >= 0 ? keys->trial : 1;
		const char *status = run->partial ? "partial" : "ok";
		const char *reason = run->reason.len ? run->reason.buf : NULL;
		sqlite3_stmt *st;
		int ret = -1;

		kvset_copy(&cond, &keys->cond);
		kvset_merge(&cond, &run->cond);	/* the file knows best */
		kvset_copy(&tags, &keys->tags);
		kvset_merge(&tags, &run->tags);
		tagkey_of(&tags, &tagkey);
		if (cond_id(s, &cond, &cid))
			goto next;
		if (is_oha_requests || is_oha_summary) {
			if (find_pair(s, is_oha_requests ? S_PAIR_FOR_SAMPLES :
			    S_PAIR_FOR_SUMMARY, path_id, cid, trial, run->tool,
			    tagkey.buf, &run_id))
				goto next;
		}
		if (run_id && is_oha_requests) {
			st = use(s, S_ATTACH_SAMPLES);
			sqlite3_bind_int64(st, 1, run_id);
			sqlite3_bind_int64(st, 2, file_id);
			bind_started(st, 3, run->started_at);
			sqlite3_bind_text(st, 4, status, -1, SQLITE_STATIC);
			bind_text_or_null(st, 5, reason);
			if (db_step_done(s->db, st, "join oha requests to their summary"))
				goto next;
		} else if (run_id && is_oha_summary) {
			st = use(s, S_ATTACH_SUMMARY);
			sqlite3_bind_int64(st, 1, run_id);
			sqlite3_bind_int64(st, 2, file_id);
			sqlite3_bind_int64(st, 3, run->failures);
			if (run->attempts >= 0)
				sqlite3_bind_int64(st, 4, run->attempts);
			else
				sqlite3_bind_null(st, 4);
			bind_started(st, 5, run->started_at);
			sqlite3_bind_text(st, 6, status, -1, SQLITE_STATIC);
			bind_text_or_null(st, 7, reason);
			if (db_step_done(s->db, st, "join an oha summary to its requests"))
				goto next;
		} else {
			st = use(s, S_RUN_INS);
			if (is_oha_summary) {
				sqlite3_bind_null(st, 1);
				sqlite3_bind_int64(st, 2, file_id);
			} else {
				sqlite3_bind_int64(st, 1, file_id);
				sqlite3_bind_null(st, 2);
			}
			sqlite3_bind_int64(st, 3, path_id);
			sqlite3_bind_int64(st, 4, cid);
			sqlite3_bind_int64(st, 5, trial);
			sqlite3_bind_text(st, 6, run->tool, -1, SQLITE_STATIC);
			sqlite3_bind_int(st, 7, run->metric);
			bind_started(st, 8, run->started_at);
			sqlite3_bind_text(st, 9, status, -1, SQLITE_STATIC);
			bind_text_or_null(st, 10, reason);
			sqlite3_bind_int64(st, 11, run->failures);
			if (run->attempts >= 0)
				sqlite3_bind_int64(st, 12, run->attempts);
			else
				sqlite3_bind_null(st, 12);
			sqlite3_bind_text(st, 13, tagkey.buf, -1, SQLITE_STATIC);
			if (db_step_done(s->db, st, "store run"))
				goto next;
			run_id = sqlite3_last_insert_rowid(s->db);
			if (put_tags(s, run_id, &tags))
				goto next;
			(*nruns)++;
		}
		/* encoded here when no parser thread did it */
		enc = run->enc ? run->enc : (own = enc_build(run));
		if (put_series(s, run_id, enc) ||
		    put_values(s, run_id, enc) ||
		    put_summaries(s, run_id, file_id, run) ||
		    put_mtu(s, run_id, run))
			goto next;
		*nsamples += run->nsamples;
		ret = 0;
next:
		run_enc_free(own);
		kvset_release(&cond);
		kvset_release(&tags);
		strbuf_release(&tagkey);
		if (ret)
			return -1;
	}
	return 0;
}
