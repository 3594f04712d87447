/*
 * runsel.c - the run-selection iterator (see runsel.h): one SELECT over
 * runs joined with their path, condition and files, its --where and
 * metric filters, dimension and tag columns by name, and the natural
 * order every table and chart uses.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/metric.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"

/* Columns before the dimensions and tags. */
enum {
	COL_ID, COL_PATH, COL_COND, COL_TRIAL, COL_TOOL, COL_METRIC,
	COL_STARTED, COL_PARTIAL, COL_REASON, COL_FAILURES, COL_ATTEMPTS,
	COL_FILE, COL_SUMMARY_FILE, COL_COND_ID, COL_FIRST_EXTRA
};

size_t
runsel_path_rank(char *const *paths, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(paths[i], path))
			return i;
	return n;
}

/* Is dimension i read in the long form (runsel.h)?  Keys with their
 * own rule in dim_sql (path, day, instance ...) are always columns. */
static bool
is_long_dim(const struct runsel_query *q, size_t i)
{
	static const char *const own[] = { "path", "trial", "tool", "day",
	    "hour", "instance" };
	size_t k;

	if (i < RUNSEL_COLUMNS)
		return false;
	for (k = 0; k < ARRAY_SIZE(own); k++)
		if (!strcmp(q->dims[i], own[k]))
			return false;
	return true;
}

static int
cmp_long(const void *a, const void *b)
{
	return strcmp(((const struct runsel_long *)a)->key,
	    ((const struct runsel_long *)b)->key);
}

/* The keys of q read in the long form, sorted, into rs. */
static void
long_keys(struct runsel *rs, const struct runsel_query *q)
{
	size_t i, alloc = 0;

	for (i = 0; i < q->ndims; i++)
		if (is_long_dim(q, i)) {
			ALLOC_GROW(rs->lng, rs->nlong + 1, alloc);
			rs->lng[rs->nlong++] = (struct runsel_long){
			    q->dims[i], i, true };
		}
	for (i = 0; i < q->ntags; i++)
		if (q->ndims + i >= RUNSEL_COLUMNS) {
			ALLOC_GROW(rs->lng, rs->nlong + 1, alloc);
			rs->lng[rs->nlong++] = (struct runsel_long){
			    q->tags[i], i, false };
		}
	if (rs->nlong)
		qsort(rs->lng, rs->nlong, sizeof(*rs->lng), cmp_long);
}

/* Set every long slot of key (tags only unless cond) to value. */
static void
long_set(struct runsel *rs, const char *key, const char *value, bool cond)
{
	struct runsel_long probe = { key, 0, false }, *hit;
	size_t at;

	hit = bsearch(&probe, rs->lng, rs->nlong, sizeof(*rs->lng), cmp_long);
	if (!hit || !value)
		return;
	at = (size_t)(hit - rs->lng);
	while (at > 0 && !strcmp(rs->lng[at - 1].key, key))
		at--;
	for (; at < rs->nlong && !strcmp(rs->lng[at].key, key); at++) {
		const struct runsel_long *l = &rs->lng[at];
		size_t li = l->dim ? l->slot : rs->q->ndims + l->slot;

		if (cond && !l->dim)
			continue;
		free(rs->lval[li]);
		rs->lval[li] = xstrdup(value);
		if (l->dim)
			rs->row.dims[l->slot] = rs->lval[li];
		else
			rs->row.tags[l->slot] = rs->lval[li];
	}
}

/* Read the current run's long values (tags, then condition keys, which
 * win for dimensions as in dim_sql). */
static int
long_read(struct runsel *rs, int64_t run_id, int64_t cond_id)
{
	size_t i, n = rs->q->ndims + rs->q->ntags;
	int rc;

	for (i = 0; i < n; i++)
		FREE_AND_NULL(rs->lval[i]);
	for (i = 0; i < rs->nlong; i++) {
		if (rs->lng[i].dim)
			rs->row.dims[rs->lng[i].slot] = NULL;
		else
			rs->row.tags[rs->lng[i].slot] = NULL;
	}
	sqlite3_reset(rs->lst_tags);
	sqlite3_bind_int64(rs->lst_tags, 1, run_id);
	while ((rc = sqlite3_step(rs->lst_tags)) == SQLITE_ROW)
		long_set(rs, (const char *)sqlite3_column_text(rs->lst_tags, 0),
		    (const char *)sqlite3_column_text(rs->lst_tags, 1), false);
	if (rc != SQLITE_DONE)
		return error("read tags: %s", sqlite3_errmsg(rs->db));
	sqlite3_reset(rs->lst_cond);
	sqlite3_bind_int64(rs->lst_cond, 1, cond_id);
	while ((rc = sqlite3_step(rs->lst_cond)) == SQLITE_ROW)
		long_set(rs, (const char *)sqlite3_column_text(rs->lst_cond, 0),
		    (const char *)sqlite3_column_text(rs->lst_cond, 1), true);
	if (rc != SQLITE_DONE)
		return error("read condition keys: %s", sqlite3_errmsg(rs->db));
	return 0;
}

void
runsel_join_sql(struct strbuf *sql, unsigned flags)
{
	strbuf_addstr(sql, " FROM runs r JOIN paths p ON p.id = r.path_id "
	    "JOIN conditions c ON c.id = r.cond_id");
	if (flags & RUNSEL_JOIN_METRICS)
		strbuf_addstr(sql, " JOIN metrics m ON m.id = r.metric");
	strbuf_addstr(sql, " LEFT JOIN files f ON f.id = r.file_id "
	    "LEFT JOIN files sf ON sf.id = r.summary_file_id");
}

static void
runsel_sql(const struct runsel_query *q, struct strbuf *sql)
{
	const struct metric *m;
	size_t i;

	strbuf_addstr(sql, "SELECT r.id, p.name, c.canon, r.trial, r.tool, "
	    "r.metric, r.started_at, r.status = 'partial', r.reason, "
	    "r.failures, r.attempts, f.relpath, sf.relpath, r.cond_id");
	for (i = 0; i < q->ndims; i++) {
		if (is_long_dim(q, i))
			continue;	/* read per run (long form) */
		strbuf_addstr(sql, ", ");
		dim_sql(q->dims[i], "r", sql);
		strbuf_addf(sql, " AS dim%zu", i);
	}
	for (i = 0; i < q->ntags; i++) {
		if (q->ndims + i >= RUNSEL_COLUMNS)
			continue;
		strbuf_addstr(sql, ", (SELECT value FROM run_tags t "
		    "WHERE t.run_id = r.id AND t.key = ");
		escape_sql_literal(sql, q->tags[i], false);
		strbuf_addch(sql, ')');
	}
	runsel_join_sql(sql, 0);
	strbuf_addstr(sql, " WHERE 1");
	/* Runs that measured the metric: its own runs, or runs with samples
	 * of it (retransmits live in iperf3 throughput runs); for a metric
	 * whose value is the tool's end-of-test summary (metric.h), the runs
	 * that have that summary. */
	m = q->metric ? metric_by_id(q->metric) : NULL;
	if (m && m->source == METRIC_FROM_SUMMARY && m->summary) {
		strbuf_addstr(sql, " AND (EXISTS (SELECT 1 FROM summaries s "
		    "WHERE s.run_id = r.id AND s.metric = ");
		escape_sql_literal(sql, m->summary->metric, false);
		strbuf_addstr(sql, " AND s.stat = ");
		escape_sql_literal(sql, m->summary->stat, false);
		strbuf_addf(sql, " AND s.value IS NOT NULL) OR (%d AND EXISTS "
		    "(SELECT 1 FROM series s WHERE s.run_id = r.id AND "
		    "s.metric = %d AND s.failed < s.rows)))",
		    m->summary->rate_of != 0, m->summary->rate_of);
	} else if (q->metric)
		strbuf_addf(sql, " AND (r.metric = %d OR EXISTS (SELECT 1 FROM "
		    "series s WHERE s.run_id = r.id AND s.metric = %d))",
		    q->metric, q->metric);
	if (q->where)
		where_sql(q->where, "r", sql);
	strbuf_addstr(sql, " ORDER BY p.name COLLATE pathsort, c.canon");
	for (i = 0; i < q->ndims; i++)
		if (!is_long_dim(q, i))
			strbuf_addf(sql, ", dim%zu COLLATE pathsort", i);
	strbuf_addstr(sql, q->by_start ? ", r.trial, r.started_at, r.id" :
	    ", r.trial, r.id");
}

int
runsel_open(struct runsel *rs, sqlite3 *db, const struct runsel_query *q)
{
	struct strbuf sql = STRBUF_INIT;

	memset(rs, 0, sizeof(*rs));
	rs->db = db;
	rs->q = q;
	rs->row.dims = xcalloc(q->ndims + 1, sizeof(char *));
	rs->row.tags = xcalloc(q->ntags + 1, sizeof(char *));
	runsel_sql(q, &sql);
	long_keys(rs, q);
	/* keys read per run (long form) are not in the SQL: never kept */
	if (!rs->nlong) {
		bool replay;
		struct runsel_memo_entry *e = runsel_memo_open(db, q,
		    sql.buf, &replay);

		if (replay) {
			rs->replay = e;
			strbuf_release(&sql);
			return 0;
		}
		rs->rec = e;
	}
	rs->st = db_prepare(db, "select runs", sql.buf);
	strbuf_release(&sql);
	if (!rs->st)
		return -1;
	if (!rs->nlong)
		return 0;
	rs->lval = xcalloc(q->ndims + q->ntags + 1, sizeof(*rs->lval));
	rs->lst_tags = db_prepare(db, "read tags", "SELECT key, value FROM "
	    "run_tags WHERE run_id = ?1");
	rs->lst_cond = db_prepare(db, "read condition keys", "SELECT key, "
	    "value FROM condition_keys WHERE cond_id = ?1");
	return rs->lst_tags && rs->lst_cond ? 0 : -1;
}

static const char *
col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

int
runsel_next(struct runsel *rs)
{
	const struct runsel_query *q = rs->q;
	struct runsel_row *r = &rs->row;
	sqlite3_stmt *st = rs->st;
	size_t i;
	int rc, col;

	if (rs->replay)
		return runsel_memo_row(rs->replay, rs->pos++, r);
	for (;;) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE) {
			if (rs->rec)
				runsel_memo_done(rs->rec);
			rs->rec = NULL;
			return 0;
		}
		if (rc != SQLITE_ROW)
			return error("select runs: %s", sqlite3_errmsg(rs->db));
		r->path = col_text(st, COL_PATH);
		if (!q->npaths || runsel_path_rank(q->paths, q->npaths,
		    r->path) < q->npaths)
			break;
	}
	r->id = sqlite3_column_int64(st, COL_ID);
	r->cond = col_text(st, COL_COND);
	r->trial = (long)sqlite3_column_int64(st, COL_TRIAL);
	r->tool = col_text(st, COL_TOOL);
	r->metric = sqlite3_column_int(st, COL_METRIC);
	r->started_at = sqlite3_column_type(st, COL_STARTED) == SQLITE_NULL ?
	    INT64_MIN : sqlite3_column_int64(st, COL_STARTED);
	r->partial = sqlite3_column_int(st, COL_PARTIAL) != 0;
	r->reason = col_text(st, COL_REASON);
	r->failures = sqlite3_column_int64(st, COL_FAILURES);
	r->attempts = sqlite3_column_type(st, COL_ATTEMPTS) == SQLITE_NULL ?
	    -1 : sqlite3_column_int64(st, COL_ATTEMPTS);
	r->file = col_text(st, COL_FILE);
	r->summary_file = col_text(st, COL_SUMMARY_FILE);
	col = COL_FIRST_EXTRA;
	for (i = 0; i < q->ndims; i++)
		if (!is_long_dim(q, i))
			r->dims[i] = col_text(st, col++);
	for (i = 0; i < q->ntags; i++)
		if (q->ndims + i < RUNSEL_COLUMNS)
			r->tags[i] = col_text(st, col++);
	if (rs->nlong && long_read(rs, r->id, sqlite3_column_int64(st,
	    COL_COND_ID)))
		return -1;
	if (rs->rec && !runsel_memo_add(rs->rec, r)) {
		runsel_memo_drop(rs->rec);
		rs->rec = NULL;
	}
	return 1;
}

void
runsel_close(struct runsel *rs)
{
	size_t i;

	runsel_memo_drop(rs->rec);
	sqlite3_finalize(rs->st);
	sqlite3_finalize(rs->lst_tags);
	sqlite3_finalize(rs->lst_cond);
	if (rs->lval && rs->q)
		for (i = 0; i < rs->q->ndims + rs->q->ntags; i++)
			free(rs->lval[i]);
	free(rs->lval);
	free(rs->lng);
	free(rs->row.dims);
	free(rs->row.tags);
	memset(rs, 0, sizeof(*rs));
}
