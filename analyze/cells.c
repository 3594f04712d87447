/*
 * cells.c - read runs, samples and tool summaries for one metric into
 * cells.  A run's values come from its sorted copy (sample_values), else
 * from its series rows, sorted once here, so every later statistic works
 * on sorted arrays.
 */
#include "common/compat.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analyze/cells.h"
#include "analyze/runmemo.h"
#include "stats/stats.h"
#include "stats/verdict.h"
#include "common/db.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/kv.h"
#include "common/runsel.h"
#include "common/series.h"
#include "common/sort.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* A trial's own arrays (its strings are the cellset's). */
static void
trial_release(struct trial *t)
{
	if (!t->values_borrowed)
		free(t->values);
	free(t->times);
	free(t->tool);
}

void
cellset_release(struct cellset *cs)
{
	size_t i, j;

	for (i = 0; i < cs->n; i++) {
		struct cell *c = &cs->cells[i];

		for (j = 0; j < c->ntrials; j++)
			trial_release(&c->trials[j]);
		if (!c->pooled_alias)
			free(c->pooled);
		free(c->outlier_why);
		free(c->outlier);
		free(c->outlier_on);
		free(c->trials);
	}
	for (j = 0; j < cs->ndims; j++)
		free(cs->dimkeys[j]);
	free(cs->dimkeys);
	for (j = 0; j < cs->names_cap; j++)
		free(cs->names[j]);
	free(cs->names);
	for (j = 0; j < cs->ndimblocks; j++)
		free(cs->dimblocks[j]);
	free(cs->dimblocks);
	for (j = 0; j < cs->nvalblocks; j++)
		free(cs->valblocks[j]);
	free(cs->valblocks);
	cellset_borrow_release(cs);
	free(cs->cells);
	memset(cs, 0, sizeof(*cs));
}

/* The cellset's one copy of s (NULL: NULL), made on first use: a cell's
 * path, condition and key values, a trial's tool statistics' names and
 * estimator.  Borrowed: cellset_release() frees it. */
static char *
cells_intern(struct cellset *cs, const char *s)
{
	size_t i;

	if (!s)
		return NULL;
	/* at most half full, so a probe ends soon */
	if (2 * (cs->nnames + 1) > cs->names_cap) {
		size_t cap = cs->names_cap ? 2 * cs->names_cap : 64;
		char **tab = xcalloc(cap, sizeof(*tab));

		for (i = 0; i < cs->names_cap; i++)
			if (cs->names[i])
				tab[hash_name_slot(tab, cap, cs->names[i])] =
				    cs->names[i];
		free(cs->names);
		cs->names = tab;
		cs->names_cap = cap;
	}
	i = hash_name_slot(cs->names, cs->names_cap, s);
	if (!cs->names[i]) {
		cs->names[i] = xstrdup(s);
		cs->nnames++;
	}
	return cs->names[i];
}

/* Cells carved from one block of dims arrays. */
#define CELLS_DIMS_BLOCK 1024

/* A new cell's dims array (ndims pointers, at least one, NULL each),
 * from the cellset's blocks: borrowed, cellset_release() frees it. */
static char **
cells_dims(struct cellset *cs)
{
	size_t w = cs->ndims ? cs->ndims : 1;

	if (!cs->ndimblocks || cs->dims_used == CELLS_DIMS_BLOCK) {
		ALLOC_GROW(cs->dimblocks, cs->ndimblocks + 1,
		    cs->alloc_dimblocks);
		cs->dimblocks[cs->ndimblocks++] = xcalloc(CELLS_DIMS_BLOCK * w,
		    sizeof(char *));
		cs->dims_used = 0;
	}
	return cs->dimblocks[cs->ndimblocks - 1] + w * cs->dims_used++;
}

/* The sorted values' first block and the largest: they double from one
 * to the other, in huge pages (2 MiB each) from twice one up. */
#define CELLS_VALUES_FIRST	((size_t)256 << 10)
#define CELLS_VALUES_MAX	((size_t)64 << 20)
#define CELLS_HUGE_PAGE		((size_t)2 << 20)

/*
 * Room for n values from the cellset's blocks, for a run's sorted copy:
 * borrowed, cellset_release() frees it.  2 M samples in arrays of their
 * own (400 KB a run) cost 4,700 page faults, a quarter of analyze's CPU
 * time; a block of 4 MiB or more is aligned to 2 MiB and advised into
 * huge pages where the system has them (Linux's MADV_HUGEPAGE), 2 MiB a
 * fault: 1,600 faults in all.  Only the pages written are resident (a
 * huge page whole: smaller blocks keep a small cellset's memory to its
 * values), and a block's unused end is less than the trial that did
 * not fit.
 */
static double *
cells_values(struct cellset *cs, size_t n)
{
	size_t bytes = n * sizeof(double), size;
	void *p = NULL;

	if (cs->nvalblocks && cs->vals_size - cs->vals_used >= bytes) {
		p = (unsigned char *)cs->valblocks[cs->nvalblocks - 1] +
		    cs->vals_used;
		cs->vals_used += bytes;
		return p;
	}
	size = cs->nvalblocks ? 2 * cs->vals_size : CELLS_VALUES_FIRST;
	if (size > CELLS_VALUES_MAX)
		size = CELLS_VALUES_MAX;
	if (size < bytes)
		size = (bytes + CELLS_HUGE_PAGE - 1) / CELLS_HUGE_PAGE *
		    CELLS_HUGE_PAGE;
	if (size >= 2 * CELLS_HUGE_PAGE &&
	    posix_memalign(&p, CELLS_HUGE_PAGE, size) == 0) {
#ifdef MADV_HUGEPAGE
		/* advice only: without huge pages it is 4 KiB a fault */
		(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	} else {
		p = xmalloc(size);
	}
	ALLOC_GROW(cs->valblocks, cs->nvalblocks + 1, cs->alloc_valblocks);
	cs->valblocks[cs->nvalblocks++] = p;
	cs->vals_size = size;
	cs->vals_used = bytes;
	return p;
}

static bool
cell_is(const struct cell *c, size_t ndims, const char *path,
    const char *cond, char *const *dims)
{
	size_t j;

	if (strcmp(c->path, path) || strcmp(c->cond, cond))
		return false;
	for (j = 0; j < ndims; j++)
		if (strcmp(c->dims[j], dims[j]))
			return false;
	return true;
}

/* Callers look runs up in the order the run selection gives them, which
 * is the cells' order: the cell found last, or the one after it, is
 * almost always the one (a year of hourly runs by day: 43,800 runs
 * against 1,825 cells, quadratic when searched from the start). */
struct cell *
cellset_find(struct cellset *cs, const char *path, const char *cond,
    char *const *dims)
{
	size_t i, k;

	for (k = 0; k < 2; k++) {
		i = cs->last + k;
		if (i < cs->n && cell_is(&cs->cells[i], cs->ndims, path, cond,
		    dims)) {
			cs->last = i;
			return &cs->cells[i];
		}
	}
	for (i = 0; i < cs->n; i++)
		if (cell_is(&cs->cells[i], cs->ndims, path, cond, dims)) {
			cs->last = i;
			return &cs->cells[i];
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
	metric_unknown(&known, name);
	ret = error("%s", known.buf);
	strbuf_release(&known);
	return ret;
}

/* Is this host little-endian, as the stored blobs are? */
static bool
host_le(void)
{
	const uint16_t one = 1;
	unsigned char b;

	memcpy(&b, &one, 1);
	return b == 1;
}

/* n values from the sorted copy at rowid into out, through *blob (opened
 * on first use, moved after).  Returns 0, or -1 on a database error. */
static int
read_sorted_blob(sqlite3 *db, sqlite3_blob **blob, sqlite3_int64 rowid,
    double *out, size_t n)
{
	int bytes = (int)(n * sizeof(double));
	int rc = *blob ? sqlite3_blob_reopen(*blob, rowid) :
	    sqlite3_blob_open(db, "main", "sample_values", "sorted", rowid, 0,
	    blob);

	if (rc != SQLITE_OK || sqlite3_blob_bytes(*blob) != bytes ||
	    sqlite3_blob_read(*blob, out, bytes, 0) != SQLITE_OK)
		return -1;
	/* in place: the loop reads each value's 8 bytes first */
	if (!host_le())
		db_unpack_doubles((const unsigned char *)out, n, out);
	return 0;
}

/*
 * A run's values from sample_values (schema 002): the sorted copy ingest
 * keeps.  Returns 1 when it was used, 0 when it is missing or no longer
 * matches the series rows (then the caller reads the rows), -1 on a
 * database error.  Deletes and updates of series drop the copy by
 * trigger.  Ingest writes a run's chunks 0 .. last, SERIES_CHUNK samples
 * each but the last (1 .. SERIES_CHUNK), so the copy matches when the
 * first chunk is 0 and last * SERIES_CHUNK + the last's rows is the
 * copy's rows: a chunk inserted by hand (no trigger fires) goes below 0
 * or past the last (the primary key refuses the others), and moves one
 * of them.  That reads two ends of the series index and one row; summing
 * every chunk's rows read all the run's series pages, twice the cost of
 * its sorted copy.  The blob is read through
 * rd->blob straight into the trial's array (sqlite3_column_blob()
 * first copied it out of its overflow pages, then we copied it again).
 */
static int
load_sorted(sqlite3_stmt *st, sqlite3_blob **blob, struct cellset *cs,
    struct trial *t, int64_t run_id, int metric, int64_t *fails,
    sqlite3_int64 *rowid_out)
{
	int64_t rows, failures, bytes, chunk, last;
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
	rows = sqlite3_column_int64(st, 1);
	failures = sqlite3_column_int64(st, 2);
	bytes = sqlite3_column_int64(st, 3);
	chunk = sqlite3_column_int64(st, 6);
	last = sqlite3_column_int64(st, 7);
	if (rows <= 0 || failures < 0 || failures > rows ||
	    sqlite3_column_int(st, 4) != 1 ||
	    bytes != (rows - failures) * (int64_t)sizeof(double) ||
	    sqlite3_column_type(st, 5) != SQLITE_INTEGER ||
	    sqlite3_column_int64(st, 5) != 0 ||
	    sqlite3_column_type(st, 6) != SQLITE_INTEGER || chunk < 0 ||
	    chunk > rows / SERIES_CHUNK ||
	    sqlite3_column_type(st, 7) != SQLITE_INTEGER || last <= 0 ||
	    last > SERIES_CHUNK || chunk * SERIES_CHUNK + last != rows)
		goto done;
	n = (size_t)(rows - failures);
	if (n) {
		sqlite3_int64 rowid = sqlite3_column_int64(st, 0);

		/* on an error the room stays carved, unused */
		t->values = cells_values(cs, n);
		if (read_sorted_blob(sqlite3_db_handle(st), blob, rowid,
		    t->values, n)) {
			t->values = NULL;
			ret = -1;
			goto done;
		}
		t->values_borrowed = true;
		*rowid_out = rowid;
	}
	t->n = n;
	*fails = failures;
	ret = 1;
done:
	sqlite3_reset(st);
	return ret;
}

/* The run's sorted values into t, its failed rows into *fails_out,
 * and the row of the sorted copy they came from into *rowid (left
 * alone when they came from the series rows). */
static int
load_values(sqlite3_stmt *sorted, sqlite3_blob **blob, sqlite3_stmt *st,
    struct cellset *cs, struct trial *t, int64_t run_id, bool primary,
    int64_t *fails_out, sqlite3_int64 *rowid)
{
	size_t alloc = 0;
	int64_t fails = 0;
	int rc;

	rc = sorted ? load_sorted(sorted, blob, cs, t, run_id, cs->metric,
	    &fails, rowid) : 0;
	if (rc < 0)
		return -1;
	if (rc == 0) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, cs->metric);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (sqlite3_column_int(st, 1) != SAMPLE_OK ||
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
	*fails_out = fails;
	return 0;
}

/* Series: a run's successful samples that have a time, in sample order,
 * with their times in seconds since the run started. */
static int
load_series(sqlite3_stmt *st, struct trial *t, int64_t run_id, int metric)
{
	size_t alloc = 0, talloc = 0;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, metric);
	sqlite3_bind_int(st, 3, SAMPLE_OK);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(t->values, t->n + 1, alloc);
		ALLOC_GROW(t->times, t->n + 1, talloc);
		t->values[t->n] = sqlite3_column_double(st, 0);
		t->times[t->n++] = (double)sqlite3_column_int64(st, 1) / 1e6;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The statements that read a run's values, summaries and timeout. */
struct readers {
	sqlite3_stmt	*vals;		/* samples rows */
	sqlite3_stmt	*sorted;	/* sample_values' sorted copy */
	sqlite3_blob	*blob;		/* reads its blobs; NULL until the first */
	sqlite3_stmt	*series;	/* samples with times, in order */
	sqlite3_stmt	*tool;		/* the tool's summaries */
	sqlite3_stmt	*tmo;		/* the probes' timeout */
	sqlite3_stmt	*end;		/* a summary metric's value per run */
	sqlite3_stmt	*ntmo;		/* how many probes timed out */
	struct tool_stat *scratch;	/* a run's tool statistics as read; owned */
	size_t		alloc_scratch;
};

/* The run's tool statistics: read into the readers' scratch array,
 * then copied to one of exactly their count (grown by doubling from
 * one, a run's four took room for four after blocks of one and two). */
static int
load_tool_stats(struct readers *rd, struct cellset *cs, struct trial *t,
    int64_t run_id)
{
	sqlite3_stmt *st = rd->tool;
	size_t n = 0;
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, cs->metric_name, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct tool_stat *ts;

		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			continue;
		ALLOC_GROW(rd->scratch, n + 1, rd->alloc_scratch);
		ts = &rd->scratch[n++];
		ts->stat = cells_intern(cs, (const char *)
		    sqlite3_column_text(st, 0));
		ts->value = sqlite3_column_double(st, 1);
		if (!t->tool_estimator)
			t->tool_estimator = cells_intern(cs, (const char *)
			    sqlite3_column_text(st, 2));
	}
	if (n) {
		t->tool = xmalloc(n * sizeof(*t->tool));
		memcpy(t->tool, rd->scratch, n * sizeof(*t->tool));
		t->ntool = n;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
readers_prepare(sqlite3 *db, const struct cells_query *q,
    struct readers *rd)
{
	memset(rd, 0, sizeof(*rd));
	rd->vals = db_prepare(db, "read samples", "SELECT value, status FROM "
	    "series_rows(?1, ?2)");
	if (q->load_values && !q->series)
		rd->sorted = db_prepare(db, "read sorted values", "SELECT "
		    "v.rowid, v.rows, v.failures, length(v.sorted), "
		    "typeof(v.sorted) = 'blob', "
		    "(SELECT min(s.chunk) FROM series s WHERE "
		    "s.run_id = ?1 AND s.metric = ?2), (SELECT max(s.chunk) "
		    "FROM series s WHERE s.run_id = ?1 AND s.metric = ?2), "
		    "(SELECT s.rows FROM series s WHERE s.run_id = ?1 AND "
		    "s.metric = ?2 ORDER BY s.chunk DESC LIMIT 1) FROM "
		    "sample_values v WHERE v.run_id = ?1 AND v.metric = ?2");
	if (q->series)
		rd->series = db_prepare(db, "read sample series", "SELECT "
		    "value, t_us FROM series_rows(?1, ?2) WHERE "
		    "status = ?3 AND value IS NOT NULL AND "
		    "t_us IS NOT NULL ORDER BY seq");
	rd->tool = db_prepare(db, "read tool summaries", "SELECT stat, value, "
	    "estimator FROM summaries WHERE run_id = ?1 AND metric = ?2");
	rd->tmo = db_prepare(db, "read probe timeout", "SELECT value FROM "
	    "summaries WHERE run_id = ?1 AND metric = ?2 AND "
	    "stat = 'timeout_s'");
	/* the tool's own value, else (metric_summary.rate_of) the rate of
	 * the run's successful samples over the span of their starts and
	 * ends, marked derived */
	rd->end = db_prepare(db, "read end-of-test values", "SELECT * FROM "
	    "(SELECT value, 0 AS derived FROM summaries WHERE run_id = ?1 AND "
	    "metric = ?2 AND stat = ?3 AND value IS NOT NULL UNION ALL "
	    "SELECT count(*) / ((max(t_us + value * 1000.0) - min(t_us)) / "
	    "1e6), 1 FROM series_rows(?1, ?4) WHERE "
	    "?4 != 0 AND status = 0 AND value IS NOT NULL AND t_us IS NOT "
	    "NULL HAVING count(*) > 0 AND max(t_us + value * 1000.0) > "
	    "min(t_us)) ORDER BY derived LIMIT 1");
	rd->ntmo = db_prepare(db, "count timeouts", "SELECT count(*) FROM "
	    "series_rows(?1, ?2) WHERE status = ?3");
	if (!rd->vals || !rd->tool || !rd->tmo || !rd->end ||
	    !rd->ntmo ||
	    (q->load_values && !q->series && !rd->sorted) ||
	    (q->series && !rd->series))
		return -1;
	return 0;
}

static void
readers_release(struct readers *rd)
{
	sqlite3_finalize(rd->vals);
	sqlite3_finalize(rd->sorted);
	sqlite3_blob_close(rd->blob);
	sqlite3_finalize(rd->series);
	sqlite3_finalize(rd->tool);
	sqlite3_finalize(rd->tmo);
	sqlite3_finalize(rd->end);
	sqlite3_finalize(rd->ntmo);
	free(rd->scratch);
}

/* The cell run r belongs to: the last one when the keys match (rows come
 * in cell order), else a new one. */
static struct cell *
cell_of(struct cellset *cs, const struct runsel_row *r)
{
	struct cell *c = cs->n ? &cs->cells[cs->n - 1] : NULL;
	bool same = c && !strcmp(c->path, r->path) && !strcmp(c->cond,
	    r->cond);
	size_t i;

	for (i = 0; same && i < cs->ndims; i++)
		same = !strcmp(c->dims[i], r->dims[i] ? r->dims[i] : "");
	if (same)
		return c;
	ALLOC_GROW(cs->cells, cs->n + 1, cs->alloc);
	c = &cs->cells[cs->n++];
	memset(c, 0, sizeof(*c));
	c->path = cells_intern(cs, r->path);
	c->cond = cells_intern(cs, r->cond);
	c->dims = cells_dims(cs);
	for (i = 0; i < cs->ndims; i++)
		c->dims[i] = cells_intern(cs, r->dims[i] ? r->dims[i] : "");
	c->timeout_ms = NAN;
	return c;
}

/* The run's probe timeout in ms, NaN if it has none. */
static double
load_timeout(sqlite3_stmt *st, int64_t run_id, const char *metric)
{
	double ms = NAN;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		ms = sqlite3_column_double(st, 0) * 1000.0;
	return ms;
}

/*
 * A metric whose value is the tool's end-of-test summary (metric.h): the
 * run's one value, a trial of n = 1, so a cell's n counts runs.  It has
 * no time, so a series has none; it has no failures of its own.
 */
static int
load_end_value(sqlite3_stmt *st, const struct metric *m, struct trial *t,
    int64_t run_id)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, m->summary->metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, m->summary->stat, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, m->summary->rate_of);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		t->derived = sqlite3_column_int(st, 1) != 0;
		t->values = xmalloc(sizeof(double));
		t->values[0] = sqlite3_column_double(st, 0) *
		    (t->derived ? 1.0 : m->summary->scale);
		t->n = 1;
		rc = SQLITE_DONE;
	}
	t->failures = 0;
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* How many of a run's failed probes timed out: only those censor a
 * percentile (a refusal or an error is fast, not a connect time beyond
 * the timeout).  Returns the count, or -1 on a database error. */
static int64_t
count_timeouts(sqlite3_stmt *st, int64_t run_id, int metric)
{
	int64_t n = -1;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, metric);
	sqlite3_bind_int(st, 3, SAMPLE_TIMEOUT);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return n;
}

/* Trial t from the memo's m, what read_trial() read of its run: the
 * same failures and tool statistics, the names interned, the values
 * carved from the cellset's blocks: read again from the sorted copy's
 * row (one blob read, a fifth of a run's statements), else copied (an
 * end-of-test value its own array, as read).  Returns 0, or -1 after
 * printing an error. */
static int
trial_from_memo(sqlite3 *db, struct readers *rd, struct cellset *cs,
    struct trial *t, const struct run_memo *m, bool primary)
{
	size_t i;

	if (cs->info->source == METRIC_FROM_SUMMARY && cs->info->summary) {
		t->failures = 0;
		t->derived = m->derived;
		if (m->n) {
			t->values = xmalloc(sizeof(double));
			t->values[0] = m->values[0];
		}
	} else {
		if (m->n) {
			t->values = cells_values(cs, m->n);
			t->values_borrowed = true;
			if (!m->values) {
				if (read_sorted_blob(db, &rd->blob, m->rowid,
				    t->values, m->n))
					return error("read samples of run "
					    "%lld: %s", (long long)t->run_id,
					    sqlite3_errmsg(db));
			} else
				memcpy(t->values, m->values, m->n *
				    sizeof(double));
		}
		if (!primary)
			t->failures = m->fails;
	}
	t->n = m->n;
	if (m->ntool) {
		t->tool = xmalloc(m->ntool * sizeof(*t->tool));
		for (i = 0; i < m->ntool; i++) {
			t->tool[i].stat = cells_intern(cs, m->tool[i].stat);
			t->tool[i].value = m->tool[i].value;
		}
		t->ntool = m->ntool;
	}
	t->tool_estimator = cells_intern(cs, m->estimator);
	return 0;
}

/* Trial t of run r from the database, with what q asks to be read;
 * *fails: its failed sample rows when its values were read. */
static int
read_trial(sqlite3 *db, const struct cells_query *q, struct readers *rd,
    const struct runsel_row *r, struct cellset *cs, struct trial *t,
    int64_t *fails, sqlite3_int64 *rowid)
{
	int rc = 0;

	if (cs->info->source == METRIC_FROM_SUMMARY && cs->info->summary) {
		t->failures = 0;
		if (q->load_values && !q->series)
			rc = load_end_value(rd->end, cs->info, t, r->id);
	} else if (q->series)
		rc = load_series(rd->series, t, r->id, cs->metric);
	else if (q->load_values)
		rc = load_values(rd->sorted, &rd->blob, rd->vals, cs, t,
		    r->id, r->metric == cs->metric, fails, rowid);
	if (rc)
		return error("read samples of run %lld: %s", (long long)r->id,
		    sqlite3_errmsg(db));
	if (load_tool_stats(rd, cs, t, r->id))
		return error("read summaries of run %lld: %s",
		    (long long)r->id, sqlite3_errmsg(db));
	return 0;
}

/*
 * Add run r as a trial of its cell, with what q asks to be read.  Its
 * values (sorted, not a series) come from the run memo when a report
 * read them before (analyze/runmemo.h), else from the database, and
 * the memo keeps what was read.
 */
static int
load_trial(sqlite3 *db, const struct cells_query *q, struct readers *rd,
    const struct runsel_row *r, struct cellset *cs)
{
	struct cell *c = cell_of(cs, r);
	struct trial *t;
	const struct run_memo *m = NULL;
	bool memo = q->load_values && !q->series;
	bool bound = cs->info->timeout_bound;
	int64_t fails = 0, timeouts = -1;
	sqlite3_int64 rowid = 0;
	double tmo = NAN;

	/* most cells of a fine --by (trial, hour) have one trial */
	ALLOC_GROW_FROM(c->trials, c->ntrials + 1, c->alloc_trials, 1);
	t = &c->trials[c->ntrials++];
	memset(t, 0, sizeof(*t));
	t->run_id = r->id;
	t->trial = r->trial;
	t->started_at = r->started_at;
	t->failures = r->failures;
	t->partial = r->partial;
	if (memo)
		m = run_memo_find(db, r->id, cs->metric);
	if (m ? trial_from_memo(db, rd, cs, t, m, r->metric == cs->metric) :
	    read_trial(db, q, rd, r, cs, t, &fails, &rowid))
		return -1;
	t->summary_only = q->load_values && !q->series && t->n == 0 &&
	    t->ntool > 0;
	if (bound && t->failures > 0) {
		t->timeouts = m && m->timeouts >= 0 ? m->timeouts :
		    count_timeouts(rd->ntmo, r->id, cs->metric);
		if (t->timeouts < 0)
			return error("count timeouts of run %lld: %s",
			    (long long)r->id, sqlite3_errmsg(db));
		timeouts = t->timeouts;
		if (t->timeouts > t->failures)
			t->timeouts = t->failures;
	}
	c->n += t->n;
	c->failures += t->failures;
	c->timeouts += t->timeouts;
	if (bound) {
		tmo = m ? m->timeout_ms : load_timeout(rd->tmo, r->id,
		    cs->metric_name);
		if (!isnan(tmo) && (isnan(c->timeout_ms) ||
		    tmo < c->timeout_ms))
			c->timeout_ms = tmo;
	}
	if (memo && !m) {
		/* values from the sorted copy (carved from the cellset's
		 * blocks) are read from its row again */
		struct run_memo keep = { db, r->id, cs->metric, rowid,
		    t->values_borrowed ? NULL : t->values, t->n, fails,
		    t->derived,
		    t->tool, t->ntool, t->tool_estimator, tmo, timeouts };

		run_memo_add(&keep);
	}
	return 0;
}

/* The user's path order wins over the natural one (a stable sort, so
 * conditions and dimensions keep theirs). */
static void
order_paths(const struct cells_query *q, struct cellset *cs)
{
	size_t a, b;

	for (a = 1; q->npaths && a < cs->n; a++) {
		struct cell tmp = cs->cells[a];
		size_t ra = runsel_path_rank(q->paths, q->npaths, tmp.path);

		for (b = a; b > 0 && runsel_path_rank(q->paths, q->npaths,
		    cs->cells[b - 1].path) > ra; b--)
			cs->cells[b] = cs->cells[b - 1];
		cs->cells[b] = tmp;
	}
}

double
cell_serial_rs(const struct cellset *cs, struct cell *c)
{
	sqlite3_stmt *st;
	double *x = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	if (c->serial_done)
		return c->serial_rs;
	c->serial_done = true;
	c->serial_rs = NAN;
	if (c->ntrials != 1 || c->trials[0].n < 3 || !cs->db)
		return NAN;
	st = db_prepare(cs->db, "read samples in order", "SELECT value FROM "
	    "series_rows(?1, ?2) WHERE status = ?3 AND "
	    "value IS NOT NULL ORDER BY seq");
	if (!st)
		return NAN;
	sqlite3_bind_int64(st, 1, c->trials[0].run_id);
	sqlite3_bind_int(st, 2, cs->metric);
	sqlite3_bind_int(st, 3, SAMPLE_OK);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(x, n + 1, alloc);
		x[n++] = sqlite3_column_double(st, 0);
	}
	if (rc != SQLITE_DONE)
		error("read samples in order: %s", sqlite3_errmsg(cs->db));
	else
		c->serial_rs = stats_serial_rank_corr(x, n);
	sqlite3_finalize(st);
	free(x);
	return c->serial_rs;
}

/* The statistics a trial is judged on: of its samples, else the
 * tool's own p50, p95, p99. */
static void
trial_outlier_stats(const struct trial *t, double *st)
{
	static const char *const name[STATS_OUTLIER_NSTATS] = { "p50",
	    "p95", "p99" };
	size_t j;

	if (t->n) {
		stats_outlier_trial_stats(t->values, t->n, st);
		return;
	}
	for (j = 0; j < STATS_OUTLIER_NSTATS; j++)
		st[j] = t->summary_only ? trial_tool_stat(t, name[j]) : NAN;
}

/* "trial 2 is an outlier" or "trials 1, 3 are outliers", with the
 * rest of the reason; the caller frees it. */
static char *
outlier_reason(const struct cell *c, const bool *flag)
{
	struct strbuf sb = STRBUF_INIT;
	size_t t, n = 0;

	for (t = 0; t < c->ntrials; t++)
		n += flag[t];
	strbuf_addstr(&sb, n > 1 ? "trials " : "trial ");
	for (t = 0, n = 0; t < c->ntrials; t++)
		if (flag[t])
			strbuf_addf(&sb, "%s%ld", n++ ? ", " : "",
			    c->trials[t].trial);
	strbuf_addstr(&sb, n > 1 ? " are outliers" : " is an outlier");
	strbuf_addstr(&sb, " (check outlier-trial): no interval");
	return strbuf_detach(&sb, NULL);
}

void
cells_judge_outliers(struct cellset *cs)
{
	struct stats_outlier_cell *oc;
	double **st;
	size_t i, t, *nout, *njudged, nk = 0;

	if (!cs->n)
		return;
	oc = xcalloc(cs->n, sizeof(*oc));
	st = xcalloc(cs->n, sizeof(*st));
	for (i = 0; i < cs->n; i++) {
		struct cell *c = &cs->cells[i];
		size_t k = c->ntrials ? c->ntrials : 1;

		st[i] = xmalloc(k * STATS_OUTLIER_NSTATS * sizeof(double));
		for (t = 0; t < c->ntrials; t++)
			trial_outlier_stats(&c->trials[t],
			    st[i] + t * STATS_OUTLIER_NSTATS);
		oc[i].k = c->ntrials;
		oc[i].st = st[i];
		oc[i].low_only = cs->info && cs->info->higher_better;
		/* the cell takes flag and on below */
		oc[i].flag = xcalloc(k, sizeof(bool));
		oc[i].on = xcalloc(k, sizeof(unsigned));
		if (c->ntrials > nk)
			nk = c->ntrials;
	}
	stats_outlier_cells(oc, cs->n);
	/* by trial count: cells judged (3 trials or more), and those with
	 * an outlier trial */
	nout = xcalloc(nk + 1, sizeof(size_t));
	njudged = xcalloc(nk + 1, sizeof(size_t));
	for (i = 0; i < cs->n; i++) {
		struct cell *c = &cs->cells[i];
		bool any = false;

		if (c->ntrials < 3)
			continue;
		njudged[c->ntrials]++;
		for (t = 0; t < c->ntrials; t++)
			any = any || oc[i].flag[t];
		if (any) {
			nout[c->ntrials]++;
			free(c->outlier_why);
			c->outlier_why = outlier_reason(c, oc[i].flag);
		}
	}
	for (i = 0; i < cs->n; i++) {
		struct cell *c = &cs->cells[i];
		size_t k = c->ntrials, n;

		if (k < 3 || c->outlier_why)
			continue;
		n = nout[k];
		if (stats_outlier_shared(n, njudged[k])) {
			struct strbuf sb = STRBUF_INIT;

			/* TIME_WAIT only where each request opens a
			 * connection: not with keep-alive on */
			strbuf_addf(&sb, "%zu of the %zu cells of %zu trials "
			    "have an outlier trial (check outlier-trial): a "
			    "cause they share (%s) may have hit every trial "
			    "of this one: no interval", n, njudged[k], k,
			    cond_has(c->cond, "ka", "on") ? "CPU contention, a "
			    "noisy neighbour; not TIME_WAIT: keep-alive is on" :
			    "TIME_WAIT");
			c->outlier_why = strbuf_detach(&sb, NULL);
		}
	}
	for (i = 0; i < cs->n; i++) {
		struct cell *c = &cs->cells[i];
		bool any = false;

		free(st[i]);
		free(c->outlier);
		free(c->outlier_on);
		for (t = 0; t < c->ntrials; t++)
			any = any || oc[i].flag[t];
		/* a cell of no outlier (every cell of one or two trials)
		 * keeps no verdicts: two allocations a cell less */
		if (!any) {
			free(oc[i].flag);
			free(oc[i].on);
			oc[i].flag = NULL;
			oc[i].on = NULL;
		}
		c->outlier = oc[i].flag;
		c->outlier_on = oc[i].on;
	}
	free(st);
	free(oc);
	free(nout);
	free(njudged);
}

int
cells_load(sqlite3 *db, const struct cells_query *q, struct cellset *out)
{
	struct runsel_query rq;
	struct runsel rs;
	struct readers rd;
	size_t i;
	int rc, ret = -1;

	memset(out, 0, sizeof(*out));
	memset(&rs, 0, sizeof(rs));
	memset(&rd, 0, sizeof(rd));
	if (metric_info(q->metric, out))
		goto cleanup;
	out->ndims = q->nby;
	out->dimkeys = xcalloc(q->nby ? q->nby : 1, sizeof(char *));
	for (i = 0; i < q->nby; i++)
		out->dimkeys[i] = xstrdup(q->by[i]);
	memset(&rq, 0, sizeof(rq));
	rq.metric = out->metric;
	rq.where = q->where;
	rq.dims = q->by;
	rq.ndims = q->nby;
	rq.paths = q->paths;
	rq.npaths = q->npaths;
	/* runs that share a trial number (days pooled) in the order they
	 * ran, not the order they were ingested: the same tree gives the
	 * same table however it was loaded, and an engine can sort so */
	rq.by_start = true;
	if (runsel_open(&rs, db, &rq) || readers_prepare(db, q, &rd))
		goto cleanup;
	while ((rc = runsel_next(&rs)) > 0)
		if (load_trial(db, q, &rd, &rs.row, out))
			goto cleanup;
	if (rc < 0)
		goto cleanup;
	order_paths(q, out);
	if (q->load_values && !q->series) {
		cells_judge_outliers(out);
		cellset_borrow_init(out);
	}
	out->db = db;
	ret = 0;
cleanup:
	runsel_close(&rs);
	readers_release(&rd);
	if (ret)
		cellset_release(out);
	return ret;
}
