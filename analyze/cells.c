/*
 * cells.c - read runs, samples and tool summaries for one metric into
 * cells.  Samples are read run by run through the samples primary key
 * (run_id, metric, seq) and sorted once here, so every later statistic
 * works on sorted arrays.
 */
#include "common/compat.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cells.h"
#include "analyze/stats.h"
#include "common/db.h"
#include "common/err.h"
#include "common/kv.h"
#include "common/sort.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

static void
trial_release(struct trial *t)
{
	free(t->values);
	free(t->tool);
	free(t->tool_estimator);
	free(t->file);
}

void
cellset_release(struct cellset *cs)
{
	size_t i, j;

	for (i = 0; i < cs->n; i++) {
		struct cell *c = &cs->cells[i];

		for (j = 0; j < c->ntrials; j++)
			trial_release(&c->trials[j]);
		for (j = 0; j < cs->ndims; j++)
			free(c->dims[j]);
		if (!c->pooled_alias)
			free(c->pooled);
		free(c->dims);
		free(c->trials);
		free(c->path);
		free(c->cond);
	}
	for (j = 0; j < cs->ndims; j++)
		free(cs->dimkeys[j]);
	free(cs->dimkeys);
	free(cs->cells);
	memset(cs, 0, sizeof(*cs));
}

struct cell *
cellset_find(struct cellset *cs, const char *path, const char *cond,
    char *const *dims)
{
	size_t i, j;

	for (i = 0; i < cs->n; i++) {
		struct cell *c = &cs->cells[i];

		if (strcmp(c->path, path) || strcmp(c->cond, cond))
			continue;
		for (j = 0; j < cs->ndims; j++)
			if (strcmp(c->dims[j], dims[j]))
				break;
		if (j == cs->ndims)
			return c;
	}
	return NULL;
}

size_t
cell_pooled(struct cell *c, const double **out)
{
	size_t i, raw = 0, at = 0;

	if (!c->pooled_ready) {
		for (i = 0; i < c->ntrials; i++)
			if (c->trials[i].n)
				raw++;
		if (raw == 1) {
			/* one trial: its sorted array is the pooled one */
			for (i = 0; i < c->ntrials; i++)
				if (c->trials[i].n) {
					c->pooled = c->trials[i].values;
					c->npooled = c->trials[i].n;
				}
			c->pooled_alias = true;
		} else if (raw > 1) {
			/* the trials are sorted: merge them (O(n log k), about
			 * twice as fast as sorting the concatenation) */
			const double **runs = xmalloc(raw * sizeof(*runs));
			size_t *ns = xmalloc(raw * sizeof(*ns));

			for (i = 0; i < c->ntrials; i++) {
				if (!c->trials[i].n)
					continue;
				runs[at] = c->trials[i].values;
				ns[at] = c->trials[i].n;
				c->npooled += c->trials[i].n;
				at++;
			}
			c->pooled = xmalloc(c->npooled * sizeof(double));
			sort_merge(runs, ns, raw, c->pooled);
			free(runs);
			free(ns);
		}
		c->pooled_ready = true;
	}
	*out = c->pooled;
	return c->npooled;
}

void
cell_pooled_release(struct cell *c)
{
	if (!c->pooled_alias)
		free(c->pooled);
	c->pooled = NULL;
	c->npooled = 0;
	c->pooled_ready = false;
	c->pooled_alias = false;
}

double
trial_tool_stat(const struct trial *t, const char *stat)
{
	size_t i;

	for (i = 0; i < t->ntool; i++)
		if (!strcmp(t->tool[i].stat, stat))
			return t->tool[i].value;
	return NAN;
}

bool
cond_has(const char *cond, const char *key, const char *value)
{
	struct kvset s = KVSET_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *v;
	bool res;

	cond_parse(cond, &s, &why);
	v = kvset_get(&s, key);
	res = v && (!value || !strcmp(v, value));
	kvset_release(&s);
	strbuf_release(&why);
	return res;
}

char *
cond_with(const char *cond, const char *key, const char *value)
{
	struct kvset s = KVSET_INIT;
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;

	cond_parse(cond, &s, &why);
	if (value)
		kvset_set(&s, key, value);
	else
		kvset_remove(&s, key);
	kvset_join(&s, &out, ",");
	kvset_release(&s);
	strbuf_release(&why);
	return strbuf_detach(&out, NULL);
}

static int
metric_info(const char *name, struct cellset *out)
{
	struct strbuf known = STRBUF_INIT;
	int ret;

	out->info = metric_by_name(name);
	if (out->info) {
		out->metric = (int)out->info->id;
		out->metric_name = out->info->name;
		out->unit = out->info->unit;
		return 0;
	}
	metric_names_join(&known, ", ");
	ret = error("unknown metric '%s' (known: %s)", name, known.buf);
	strbuf_release(&known);
	return ret;
}

/* Position of path in the user's order, or npaths if absent. */
static size_t
path_rank(const struct cells_query *q, const char *path)
{
	size_t i;

	for (i = 0; i < q->npaths; i++)
		if (!strcmp(q->paths[i], path))
			return i;
	return q->npaths;
}

/*
 * A run's values from sample_values (schema 002): the sorted copy ingest
 * keeps.  Returns 1 when it was used, 0 when it is missing or no longer
 * matches the samples rows (then the caller reads the rows), -1 on a
 * database error.  seq runs 0 .. rows - 1 in what ingest stored, so a
 * row added by hand shows in min(seq) or max(seq); deletes and updates
 * drop the copy by trigger.
 */
static int
load_sorted(sqlite3_stmt *st, struct trial *t, int64_t run_id, int metric,
    int64_t *fails)
{
	int64_t rows, failures;
	size_t n;
	int rc, ret = 0;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, metric);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		goto done;
	if (rc != SQLITE_ROW) {
		ret = -1;
		goto done;
	}
	rows = sqlite3_column_int64(st, 0);
	failures = sqlite3_column_int64(st, 1);
	n = (size_t)sqlite3_column_bytes(st, 2) / sizeof(double);
	if (rows <= 0 || failures < 0 || failures > rows ||
	    (size_t)(rows - failures) != n ||
	    (size_t)sqlite3_column_bytes(st, 2) != n * sizeof(double) ||
	    sqlite3_column_type(st, 3) != SQLITE_INTEGER ||
	    sqlite3_column_int64(st, 3) != 0 ||
	    sqlite3_column_type(st, 4) != SQLITE_INTEGER ||
	    sqlite3_column_int64(st, 4) != rows - 1)
		goto done;
	if (n) {
		t->values = xmalloc(n * sizeof(double));
		db_unpack_doubles(sqlite3_column_blob(st, 2), n, t->values);
	}
	t->n = n;
	*fails = failures;
	ret = 1;
done:
	sqlite3_reset(st);
	return ret;
}

static int
load_values(sqlite3_stmt *sorted, sqlite3_stmt *st, struct trial *t,
    int64_t run_id, int metric, bool primary)
{
	size_t alloc = 0;
	int64_t fails = 0;
	int rc;

	rc = sorted ? load_sorted(sorted, t, run_id, metric, &fails) : 0;
	if (rc < 0)
		return -1;
	if (rc == 0) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, metric);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (sqlite3_column_int(st, 1) != 0 ||
			    sqlite3_column_type(st, 0) == SQLITE_NULL) {
				fails++;
				continue;
			}
			ALLOC_GROW(t->values, t->n + 1, alloc);
			t->values[t->n++] = sqlite3_column_double(st, 0);
		}
		if (rc != SQLITE_DONE)
			return -1;
		stats_sort(t->values, t->n);
	}
	/* For the run's own metric runs.failures is the full count (oha
	 * errors have no sample rows); for others count failed rows. */
	if (!primary)
		t->failures = fails;
	return 0;
}

static int
load_tool_stats(sqlite3_stmt *st, struct trial *t, int64_t run_id,
    const char *metric)
{
	size_t alloc = 0;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct tool_stat *ts;
		const char *stat = (const char *)sqlite3_column_text(st, 0);

		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			continue;
		ALLOC_GROW(t->tool, t->ntool + 1, alloc);
		ts = &t->tool[t->ntool++];
		snprintf(ts->stat, sizeof(ts->stat), "%s", stat);
		ts->value = sqlite3_column_double(st, 1);
		if (!t->tool_estimator)
			t->tool_estimator = xstrdup((const char *)
			    sqlite3_column_text(st, 2));
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

static char *
col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *v = sqlite3_column_text(st, i);

	return xstrdup(v ? (const char *)v : "");
}

int
cells_load(sqlite3 *db, const struct cells_query *q, struct cellset *out)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *runs = NULL, *vals = NULL, *tool = NULL, *tmo = NULL;
	sqlite3_stmt *sorted = NULL;
	struct cell *cur = NULL;
	size_t i;
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	if (metric_info(q->metric, out))
		goto cleanup;
	out->ndims = q->nby;
	out->dimkeys = xcalloc(q->nby ? q->nby : 1, sizeof(char *));
	for (i = 0; i < q->nby; i++)
		out->dimkeys[i] = xstrdup(q->by[i]);

	/* Runs that measured the metric: its own runs, or runs with samples
	 * of it (jitter and retransmits live in iperf3 throughput runs). */
	strbuf_addf(&sql, "SELECT r.id, p.name, c.canon, r.trial, r.started_at, "
	    "r.failures, r.metric = %d, r.status = 'partial', "
	    "coalesce(f.relpath, sf.relpath)", out->metric);
	for (i = 0; i < q->nby; i++) {
		strbuf_addstr(&sql, ", ");
		dim_sql(q->by[i], "r", &sql);
	}
	strbuf_addf(&sql, " FROM runs r JOIN paths p ON p.id = r.path_id "
	    "JOIN conditions c ON c.id = r.cond_id "
	    "LEFT JOIN files f ON f.id = r.file_id "
	    "LEFT JOIN files sf ON sf.id = r.summary_file_id "
	    "WHERE (r.metric = %d OR EXISTS (SELECT 1 FROM samples s WHERE "
	    "s.run_id = r.id AND s.metric = %d))", out->metric, out->metric);
	where_sql(q->where, "r", &sql);
	strbuf_addstr(&sql, " ORDER BY p.name COLLATE pathsort, c.canon");
	for (i = 0; i < q->nby; i++)
		strbuf_addf(&sql, ", %zu COLLATE pathsort", 10 + i);
	strbuf_addstr(&sql, ", r.trial, r.id");
	runs = db_prepare(db, "select runs", sql.buf);
	vals = db_prepare(db, "read samples", "SELECT value, status FROM "
	    "samples WHERE run_id = ?1 AND metric = ?2");
	if (q->load_values)
		sorted = db_prepare(db, "read sorted values", "SELECT v.rows, "
		    "v.failures, v.sorted, (SELECT min(seq) FROM samples s "
		    "WHERE s.run_id = ?1 AND s.metric = ?2), (SELECT max(seq) "
		    "FROM samples s WHERE s.run_id = ?1 AND s.metric = ?2) "
		    "FROM sample_values v "
		    "WHERE v.run_id = ?1 AND v.metric = ?2");
	tool = db_prepare(db, "read tool summaries", "SELECT stat, value, "
	    "estimator FROM summaries WHERE run_id = ?1 AND metric = ?2");
	tmo = db_prepare(db, "read probe timeout", "SELECT value FROM summaries "
	    "WHERE run_id = ?1 AND metric = ?2 AND stat = 'timeout_s'");
	if (!runs || !vals || !tool || !tmo)
		goto cleanup;
	while ((rc = sqlite3_step(runs)) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(runs, 1);
		const char *cond = (const char *)sqlite3_column_text(runs, 2);
		struct trial *t;
		bool same = cur && !strcmp(cur->path, path) && !strcmp(cur->cond, cond);
		int64_t run_id = sqlite3_column_int64(runs, 0);

		if (q->npaths && path_rank(q, path) == q->npaths)
			continue;
		for (i = 0; same && i < q->nby; i++) {
			const unsigned char *d = sqlite3_column_text(runs, (int)(9 + i));

			same = !strcmp(cur->dims[i], d ? (const char *)d : "");
		}
		if (!same) {
			ALLOC_GROW(out->cells, out->n + 1, out->alloc);
			cur = &out->cells[out->n++];
			memset(cur, 0, sizeof(*cur));
			cur->path = xstrdup(path);
			cur->cond = xstrdup(cond);
			cur->dims = xcalloc(q->nby ? q->nby : 1, sizeof(char *));
			for (i = 0; i < q->nby; i++)
				cur->dims[i] = col_dup(runs, (int)(9 + i));
			cur->timeout_ms = NAN;
		}
		ALLOC_GROW(cur->trials, cur->ntrials + 1, cur->alloc_trials);
		t = &cur->trials[cur->ntrials++];
		memset(t, 0, sizeof(*t));
		t->run_id = run_id;
		t->trial = (long)sqlite3_column_int64(runs, 3);
		t->started_at = sqlite3_column_type(runs, 4) == SQLITE_NULL ?
		    INT64_MIN : sqlite3_column_int64(runs, 4);
		t->failures = sqlite3_column_int64(runs, 5);
		t->partial = sqlite3_column_int(runs, 7) != 0;
		t->file = col_dup(runs, 8);
		if (q->load_values && load_values(sorted, vals, t, run_id,
		    out->metric, sqlite3_column_int(runs, 6) != 0)) {
			error("read samples of run %lld: %s", (long long)run_id,
			    sqlite3_errmsg(db));
			goto cleanup;
		}
		if (load_tool_stats(tool, t, run_id, out->metric_name)) {
			error("read summaries of run %lld: %s", (long long)run_id,
			    sqlite3_errmsg(db));
			goto cleanup;
		}
		t->summary_only = q->load_values && t->n == 0 && t->ntool > 0;
		cur->n += t->n;
		cur->failures += t->failures;
		if (out->info->timeout_bound) {
			sqlite3_reset(tmo);
			sqlite3_bind_int64(tmo, 1, run_id);
			sqlite3_bind_text(tmo, 2, out->metric_name, -1,
			    SQLITE_STATIC);
			if (sqlite3_step(tmo) == SQLITE_ROW &&
			    sqlite3_column_type(tmo, 0) != SQLITE_NULL) {
				double ms = sqlite3_column_double(tmo, 0) * 1000.0;

				if (isnan(cur->timeout_ms) || ms < cur->timeout_ms)
					cur->timeout_ms = ms;
			}
		}
	}
	if (rc != SQLITE_DONE) {
		error("select runs: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	/* The user's path order wins over the natural one. */
	if (q->npaths) {
		size_t a, b;

		for (a = 1; a < out->n; a++) {
			struct cell tmp = out->cells[a];
			size_t ra = path_rank(q, tmp.path);

			for (b = a; b > 0 && path_rank(q, out->cells[b - 1].path) > ra; b--)
				out->cells[b] = out->cells[b - 1];
			out->cells[b] = tmp;
		}
	}
	ret = 0;
cleanup:
	sqlite3_finalize(runs);
	sqlite3_finalize(vals);
	sqlite3_finalize(sorted);
	sqlite3_finalize(tool);
	sqlite3_finalize(tmo);
	strbuf_release(&sql);
	if (ret)
		cellset_release(out);
	return ret;
}
