/*
 * series.c - the column-blob storage of samples (schema 009): the byte
 * layout, the table-valued function series_rows(run_id, metric) that
 * pathstat's SQL reads them with, and the aggregate migration 009 packs
 * the old samples rows with.  The layout is described in series.h and
 * in schema/009-series.sql, whose samples view decodes it in plain SQL.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/metric.h"
#include "common/series.h"
#include "common/xalloc.h"

void
series_put_i64(unsigned char *out, int64_t x)
{
	uint64_t u = (uint64_t)x;
	int b;

	for (b = 0; b < 8; b++)
		out[b] = (unsigned char)(u >> (8 * b));
}

int64_t
series_get_i64(const unsigned char *in)
{
	uint64_t u = 0;
	int b;

	for (b = 7; b >= 0; b--)
		u = (u << 8) | in[b];
	return (int64_t)u;
}

void
series_put_f64(unsigned char *out, double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	series_put_i64(out, (int64_t)u);
}

double
series_get_f64(const unsigned char *in)
{
	uint64_t u = (uint64_t)series_get_i64(in);
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

/* ---- series_rows(run_id, metric): the stored rows, in seq order ---- */

enum { SR_SEQ, SR_T_US, SR_VALUE, SR_STATUS, SR_RUN_ID, SR_METRIC };

struct srows_vtab {
	sqlite3_vtab	base;
	sqlite3		*db;
	sqlite3_stmt	*read;	/* owned; finalized by srows_disconnect() */
};

struct srows_cursor {
	sqlite3_vtab_cursor base;
	sqlite3_int64	run_id;
	sqlite3_int64	metric;
	size_t		n, i, alloc;
	/* owned: the series decoded, n of each */
	int64_t		*t_us;
	double		*value;
	unsigned char	*status;
};

static int
srows_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
    sqlite3_vtab **out, char **err)
{
	struct srows_vtab *vt;
	int rc;

	(void)aux;
	(void)argc;
	(void)argv;
	(void)err;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(seq INTEGER, "
	    "t_us INTEGER, value REAL, status INTEGER, run_id HIDDEN, "
	    "metric HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	vt = sqlite3_malloc(sizeof(*vt));
	if (!vt)
		return SQLITE_NOMEM;
	memset(vt, 0, sizeof(*vt));
	vt->db = db;
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	*out = &vt->base;
	return SQLITE_OK;
}

static int
srows_disconnect(sqlite3_vtab *base)
{
	struct srows_vtab *vt = (struct srows_vtab *)base;

	sqlite3_finalize(vt->read);
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* Both arguments are required, as equalities; rows come in seq order. */
static int
srows_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
	int run = -1, metric = -1, i;

	(void)base;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];

		if (c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (c->iColumn == SR_RUN_ID || c->iColumn == SR_METRIC) {
			if (!c->usable)
				return SQLITE_CONSTRAINT;
			if (c->iColumn == SR_RUN_ID)
				run = i;
			else
				metric = i;
		}
	}
	if (run < 0 || metric < 0) {
		sqlite3_free(base->zErrMsg);
		base->zErrMsg = sqlite3_mprintf("series_rows needs a run id "
		    "and a metric");
		return SQLITE_ERROR;
	}
	info->aConstraintUsage[run].argvIndex = 1;
	info->aConstraintUsage[run].omit = 1;
	info->aConstraintUsage[metric].argvIndex = 2;
	info->aConstraintUsage[metric].omit = 1;
	if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == SR_SEQ &&
	    !info->aOrderBy[0].desc)
		info->orderByConsumed = 1;
	info->estimatedCost = 10.0;
	info->estimatedRows = 1000;
	return SQLITE_OK;
}

static int
srows_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
	struct srows_cursor *c = sqlite3_malloc(sizeof(*c));

	(void)base;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static void
srows_drop_blobs(struct srows_cursor *c)
{
	FREE_AND_NULL(c->value);
	FREE_AND_NULL(c->t_us);
	FREE_AND_NULL(c->status);
	c->n = c->i = c->alloc = 0;
}

static int
srows_close(sqlite3_vtab_cursor *base)
{
	struct srows_cursor *c = (struct srows_cursor *)base;

	srows_drop_blobs(c);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* Append one series row (a chunk) from st's columns to c's arrays; a
 * chunk whose value blob is short is left out, as damaged. */
static void
srows_add_chunk(struct srows_cursor *c, sqlite3_stmt *st)
{
	sqlite3_int64 rows = sqlite3_column_int64(st, 0);
	const unsigned char *v = sqlite3_column_blob(st, 1);
	size_t vlen = (size_t)sqlite3_column_bytes(st, 1);
	const unsigned char *t = sqlite3_column_blob(st, 2);
	size_t tlen = (size_t)sqlite3_column_bytes(st, 2);
	const unsigned char *stat = sqlite3_column_blob(st, 3);
	size_t slen = (size_t)sqlite3_column_bytes(st, 3);
	size_t n, k, need;

	if (rows <= 0 || !v || vlen / 8 < (size_t)rows)
		return;
	n = (size_t)rows;
	need = c->n + n;
	if (need > c->alloc) {
		c->alloc = need > 2 * c->alloc ? need : 2 * c->alloc;
		c->value = xreallocarray(c->value, c->alloc, sizeof(*c->value));
		c->t_us = xreallocarray(c->t_us, c->alloc, sizeof(*c->t_us));
		c->status = xrealloc(c->status, c->alloc);
	}
	for (k = 0; k < n; k++) {
		c->value[c->n + k] = series_get_f64(v + 8 * k);
		c->t_us[c->n + k] = t && tlen / 8 >= n ?
		    series_get_i64(t + 8 * k) : SERIES_T_NONE;
		c->status[c->n + k] = stat && slen >= n ? stat[k] : 0;
	}
	c->n = need;
}

static int
srows_filter(sqlite3_vtab_cursor *base, int idx, const char *idxstr,
    int argc, sqlite3_value **argv)
{
	struct srows_cursor *c = (struct srows_cursor *)base;
	struct srows_vtab *vt = (struct srows_vtab *)base->pVtab;
	int rc;

	(void)idx;
	(void)idxstr;
	srows_drop_blobs(c);
	if (argc != 2 || sqlite3_value_type(argv[0]) == SQLITE_NULL ||
	    sqlite3_value_type(argv[1]) == SQLITE_NULL)
		return SQLITE_OK;
	c->run_id = sqlite3_value_int64(argv[0]);
	c->metric = sqlite3_value_int64(argv[1]);
	if (!vt->read && sqlite3_prepare_v3(vt->db, "SELECT rows, value, "
	    "t_us, status FROM series WHERE run_id = ?1 AND metric = ?2 "
	    "ORDER BY chunk", -1, SQLITE_PREPARE_PERSISTENT, &vt->read,
	    NULL) != SQLITE_OK) {
		sqlite3_free(base->pVtab->zErrMsg);
		base->pVtab->zErrMsg = sqlite3_mprintf("%s",
		    sqlite3_errmsg(vt->db));
		return SQLITE_ERROR;
	}
	sqlite3_bind_int64(vt->read, 1, c->run_id);
	sqlite3_bind_int64(vt->read, 2, c->metric);
	while ((rc = sqlite3_step(vt->read)) == SQLITE_ROW)
		srows_add_chunk(c, vt->read);
	sqlite3_reset(vt->read);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int
srows_next(sqlite3_vtab_cursor *base)
{
	((struct srows_cursor *)base)->i++;
	return SQLITE_OK;
}

static int
srows_eof(sqlite3_vtab_cursor *base)
{
	struct srows_cursor *c = (struct srows_cursor *)base;

	return c->i >= c->n;
}

static int
srows_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	struct srows_cursor *c = (struct srows_cursor *)base;
	int64_t t;
	double v;

	switch (col) {
	case SR_SEQ:
		sqlite3_result_int64(ctx, (sqlite3_int64)c->i);
		break;
	case SR_T_US:
		t = c->t_us[c->i];
		if (t == SERIES_T_NONE)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int64(ctx, t);
		break;
	case SR_VALUE:
		v = c->value[c->i];
		if (isnan(v))
			sqlite3_result_null(ctx);
		else
			sqlite3_result_double(ctx, v);
		break;
	case SR_STATUS:
		sqlite3_result_int(ctx, c->status[c->i]);
		break;
	case SR_RUN_ID:
		sqlite3_result_int64(ctx, c->run_id);
		break;
	default:
		sqlite3_result_int64(ctx, c->metric);
		break;
	}
	return SQLITE_OK;
}

static int
srows_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((struct srows_cursor *)base)->i;
	return SQLITE_OK;
}

static const sqlite3_module srows_module = {
	.iVersion = 0,
	.xCreate = NULL,	/* eponymous only: series_rows(run, metric) */
	.xConnect = srows_connect,
	.xBestIndex = srows_best_index,
	.xDisconnect = srows_disconnect,
	.xDestroy = srows_disconnect,
	.xOpen = srows_open,
	.xClose = srows_close,
	.xFilter = srows_filter,
	.xNext = srows_next,
	.xEof = srows_eof,
	.xColumn = srows_column,
	.xRowid = srows_rowid,
};

/* ---- pathstat_series_pack(kind, seq, x): migration 009's packer ---- */

struct pack_item {
	sqlite3_int64	seq;
	sqlite3_value	*x;	/* owned (sqlite3_value_dup) */
};

struct pack_state {
	char		kind;	/* 'v', 't' or 's' */
	struct pack_item *items;
	size_t		n, alloc;
};

static void
pack_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct pack_state **ps = sqlite3_aggregate_context(ctx, sizeof(*ps));
	const unsigned char *kind = sqlite3_value_text(argv[0]);
	struct pack_state *s;

	(void)argc;
	if (!ps)
		return;
	if (!*ps) {
		*ps = xcalloc(1, sizeof(**ps));
		(*ps)->kind = kind ? (char)kind[0] : 'v';
	}
	s = *ps;
	ALLOC_GROW(s->items, s->n + 1, s->alloc);
	s->items[s->n].seq = sqlite3_value_int64(argv[1]);
	s->items[s->n].x = sqlite3_value_dup(argv[2]);
	if (!s->items[s->n].x) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	s->n++;
}

static int
pack_item_cmp(const void *a, const void *b)
{
	const struct pack_item *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Encode item i of s into out (8 or 1 bytes); true when it is not the
 * column's "nothing here" value (NULL time, status 0). */
static bool
pack_one(const struct pack_state *s, size_t i, unsigned char *out)
{
	sqlite3_value *x = s->items[i].x;
	bool null = sqlite3_value_type(x) == SQLITE_NULL;
	sqlite3_int64 k;
	double v;

	switch (s->kind) {
	case 't':
		series_put_i64(out, null ? SERIES_T_NONE : sqlite3_value_int64(x));
		return !null;
	case 's':
		k = sqlite3_value_int64(x);
		out[0] = (unsigned char)(k < 0 || k > 255 ? SAMPLE_ERROR : k);
		return out[0] != 0;
	default:
		v = null ? NAN : sqlite3_value_double(x);
		series_put_f64(out, v == 0 ? 0.0 : v);
		return true;
	}
}

static void
pack_final(sqlite3_context *ctx)
{
	struct pack_state **ps = sqlite3_aggregate_context(ctx, 0);
	struct pack_state *s = ps ? *ps : NULL;
	size_t width, i;
	unsigned char *blob;
	bool any = false;

	if (!s) {
		sqlite3_result_null(ctx);
		return;
	}
	width = s->kind == 's' ? 1 : 8;
	qsort(s->items, s->n, sizeof(*s->items), pack_item_cmp);
	blob = xmalloc(s->n * width + 1);
	for (i = 0; i < s->n; i++)
		any |= pack_one(s, i, blob + i * width);
	if (any || s->kind == 'v')
		sqlite3_result_blob(ctx, blob, (int)(s->n * width), free);
	else {
		sqlite3_result_null(ctx);
		free(blob);
	}
	for (i = 0; i < s->n; i++)
		sqlite3_value_free(s->items[i].x);
	free(s->items);
	free(s);
}

/* ---- pathstat_series_ok(rows, value, status) ---- */

/*
 * The samples of one series row that are ok (status 0) and have a value
 * (not NaN): what a count(*) of series_rows() WHERE status = 0 AND value
 * IS NOT NULL gives for the row, read from its two blobs in place,
 * without making a row per sample.  Blobs shorter than rows count the
 * samples they hold (a short value blob), or as ok (a short status).
 */
static void
ok_count(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_int64 rows = sqlite3_value_int64(argv[0]), n = 0, i;
	const unsigned char *v = sqlite3_value_blob(argv[1]);
	sqlite3_int64 nv = sqlite3_value_bytes(argv[1]) / 8;
	const unsigned char *st = sqlite3_value_type(argv[2]) == SQLITE_NULL ?
	    NULL : sqlite3_value_blob(argv[2]);
	sqlite3_int64 ns = st ? sqlite3_value_bytes(argv[2]) : 0;

	(void)argc;
	if (rows > nv)
		rows = nv;
	for (i = 0; i < rows; i++)
		if ((i >= ns || st[i] == 0) && !isnan(series_get_f64(v + 8 * i)))
			n++;
	sqlite3_result_int64(ctx, n);
}

int
series_register(sqlite3 *db)
{
	int rc;

	rc = sqlite3_create_module(db, "series_rows", &srows_module, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "pathstat_series_pack", 3,
		    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, NULL, pack_step,
		    pack_final);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "pathstat_series_ok", 3,
		    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
		    ok_count, NULL, NULL);
	return rc;
}
