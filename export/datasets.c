/*
 * datasets.c - the four datasets' columns (samples, runs, summaries,
 * findings), their files (part-[WRITER-]NNNNN.parquet, written under a hidden
 * temporary name and renamed when complete) and the fingerprint that
 * tells an incremental export whether a partition changed.
 */
#include "common/compat.h"

#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "check/check.h"
#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/outdir.h"
#include "common/series.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "export/internal.h"

/* The fixed columns. */
enum field {
	F_KEY,			/* a key column */
	F_RUN_ID, F_PATH, F_CONDITION, F_TRIAL, F_TOOL, F_METRIC,
	F_SEQ, F_T_US, F_VALUE, F_STATUS,
	F_STARTED_AT, F_REASON, F_SAMPLES, F_FAILURES, F_ATTEMPTS, F_TAGS,
	F_FILE, F_FILE_HASH, F_FILE_KIND, F_TOOL_VERSION, F_SUMMARY_FILE,
	F_SUMMARY_FILE_HASH,
	F_STAT, F_ESTIMATOR,
	F_CHECK, F_SEVERITY, F_SCOPE, F_RUN_IDS, F_FILES, F_EVIDENCE,
	F_CAUSE, F_ACTION
};

struct fixed_col {
	const char	*name;
	enum field	field;
	enum pq_type	type;
	bool		optional;
	bool		unique;
};

/* The column tables are docs/export.md's: keep them in step. */
static const struct fixed_col samples_cols[] = {
	{ "run_id",	F_RUN_ID,	PQ_STRING,	false, false },
	{ "path",	F_PATH,		PQ_STRING,	false, false },
	{ "condition",	F_CONDITION,	PQ_STRING,	false, false },
	{ "trial",	F_TRIAL,	PQ_INT64,	false, false },
	{ "tool",	F_TOOL,		PQ_STRING,	false, false },
	{ "metric",	F_METRIC,	PQ_STRING,	false, false },
	{ "seq",	F_SEQ,		PQ_INT64,	false, false },
	{ "t_us",	F_T_US,		PQ_INT64,	true,  false },
	{ "value",	F_VALUE,	PQ_DOUBLE,	true,  false },
	{ "status",	F_STATUS,	PQ_STRING,	false, false },
};

static const struct fixed_col runs_cols[] = {
	{ "run_id",	F_RUN_ID,	PQ_STRING,	false, true },
	{ "path",	F_PATH,		PQ_STRING,	false, false },
	{ "condition",	F_CONDITION,	PQ_STRING,	false, false },
	{ "trial",	F_TRIAL,	PQ_INT64,	false, false },
	{ "tool",	F_TOOL,		PQ_STRING,	false, false },
	{ "metric",	F_METRIC,	PQ_STRING,	false, false },
	{ "started_at",	F_STARTED_AT,	PQ_TIMESTAMP_US, true, false },
	{ "status",	F_STATUS,	PQ_STRING,	false, false },
	{ "reason",	F_REASON,	PQ_STRING,	true,  false },
	{ "samples",	F_SAMPLES,	PQ_INT64,	false, false },
	{ "failures",	F_FAILURES,	PQ_INT64,	false, false },
	{ "attempts",	F_ATTEMPTS,	PQ_INT64,	true,  false },
	{ "tags",	F_TAGS,		PQ_STRING,	false, false },
	{ "file",	F_FILE,		PQ_STRING,	true,  true },
	{ "file_hash",	F_FILE_HASH,	PQ_STRING,	true,  true },
	{ "file_kind",	F_FILE_KIND,	PQ_STRING,	true,  false },
	{ "tool_version", F_TOOL_VERSION, PQ_STRING,	true,  false },
	{ "summary_file", F_SUMMARY_FILE, PQ_STRING,	true,  true },
	{ "summary_file_hash", F_SUMMARY_FILE_HASH, PQ_STRING, true, true },
};

static const struct fixed_col summaries_cols[] = {
	{ "run_id",	F_RUN_ID,	PQ_STRING,	false, false },
	{ "path",	F_PATH,		PQ_STRING,	false, false },
	{ "condition",	F_CONDITION,	PQ_STRING,	false, false },
	{ "trial",	F_TRIAL,	PQ_INT64,	false, false },
	{ "tool",	F_TOOL,		PQ_STRING,	false, false },
	{ "metric",	F_METRIC,	PQ_STRING,	false, false },
	{ "stat",	F_STAT,		PQ_STRING,	false, false },
	{ "value",	F_VALUE,	PQ_DOUBLE,	true,  false },
	{ "estimator",	F_ESTIMATOR,	PQ_STRING,	false, false },
	{ "file",	F_FILE,		PQ_STRING,	true,  false },
};

static const struct fixed_col findings_cols[] = {
	{ "check",	F_CHECK,	PQ_STRING,	false, false },
	{ "severity",	F_SEVERITY,	PQ_STRING,	false, false },
	{ "metric",	F_METRIC,	PQ_STRING,	false, false },
	{ "path",	F_PATH,		PQ_STRING,	false, false },
	{ "condition",	F_CONDITION,	PQ_STRING,	false, false },
	{ "trial",	F_TRIAL,	PQ_INT64,	true,  false },
	{ "scope",	F_SCOPE,	PQ_STRING,	false, false },
	{ "run_ids",	F_RUN_IDS,	PQ_STRING,	false, false },
	{ "files",	F_FILES,	PQ_STRING,	false, false },
	{ "evidence",	F_EVIDENCE,	PQ_STRING,	false, true },
	{ "cause",	F_CAUSE,	PQ_STRING,	false, false },
	{ "action",	F_ACTION,	PQ_STRING,	false, false },
};

const char *
export_dataset_name(enum export_dataset ds)
{
	static const char *const names[] = {
		"samples", "runs", "summaries", "findings"
	};

	return (size_t)ds < ARRAY_SIZE(names) ? names[ds] : "?";
}

const char *
export_type_name(enum pq_type t)
{
	switch (t) {
	case PQ_INT64:
		return "int64";
	case PQ_DOUBLE:
		return "double";
	case PQ_STRING:
		return "string";
	case PQ_TIMESTAMP_US:
		return "timestamp_us";
	}
	return "?";
}

static const struct fixed_col *
fixed_cols(enum export_dataset ds, size_t *n)
{
	switch (ds) {
	case DS_SAMPLES:
		*n = ARRAY_SIZE(samples_cols);
		return samples_cols;
	case DS_RUNS:
		*n = ARRAY_SIZE(runs_cols);
		return runs_cols;
	case DS_SUMMARIES:
		*n = ARRAY_SIZE(summaries_cols);
		return summaries_cols;
	case DS_FINDINGS:
	case DS_COUNT:
		break;
	}
	*n = ARRAY_SIZE(findings_cols);
	return findings_cols;
}

static void
cols_add(struct export_cols *cols, const char *name, enum pq_type type,
    bool optional, bool unique, int field, long key)
{
	struct export_col *c;

	ALLOC_GROW(cols->items, cols->n + 1, cols->alloc);
	c = &cols->items[cols->n++];
	c->name = name;
	c->type = type;
	c->optional = optional;
	c->unique = unique;
	c->field = field;
	c->key = key;
}

static bool
is_partition_key(const struct export_model *m, size_t key)
{
	size_t k;

	for (k = 0; k < m->npkeys; k++)
		if (m->pkey_index[k] == key)
			return true;
	return false;
}

static bool
is_partition_field(const struct export_model *m, const char *name)
{
	size_t k;

	for (k = 0; k < m->npkeys; k++)
		if (m->pkey_index[k] == (size_t)-1 &&
		    !strcmp(m->pkeys[k], name))
			return true;
	return false;
}

void
export_dataset_cols(const struct export_model *m, enum export_dataset ds,
    const struct export_part *part, struct export_cols *cols)
{
	const struct fixed_col *f;
	size_t n, i, j, first, count;
	bool used;

	f = fixed_cols(ds, &n);
	for (i = 0; i < n; i++) {
		/* a partition's own column lives in its folder name */
		if (ds != DS_FINDINGS && is_partition_field(m, f[i].name))
			continue;
		cols_add(cols, f[i].name, f[i].type, f[i].optional, f[i].unique,
		    (int)f[i].field, -1);
	}
	if (ds == DS_FINDINGS)
		return;
	first = part ? part->first : 0;
	count = part ? part->n : m->nruns;
	for (i = 0; i < m->nkeys; i++) {
		if (is_partition_key(m, i))
			continue;
		used = false;
		for (j = first; j < first + count && !used; j++)
			used = m->runs[j]->keyval[i] != NULL;
		if (used)
			cols_add(cols, m->keys[i].column, PQ_STRING, true,
			    false, F_KEY, (long)i);
	}
	/* the DDL over several writers: their keys this database lacks
	 * (never written: key -2 marks them) */
	for (i = 0; !part && i < m->nextra; i++)
		cols_add(cols, m->extra[i].column, PQ_STRING, true, false,
		    F_KEY, -2);
}

void
export_cols_release(struct export_cols *cols)
{
	free(cols->items);
	memset(cols, 0, sizeof(*cols));
}

void
export_files_release(struct export_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->items[i].path);
	free(f->items);
	memset(f, 0, sizeof(*f));
}

/* ---------------------------------------------------------------------
 * Fingerprints
 */

static void
hash_str(XXH3_state_t *hs, const char *s)
{
	/* NULL and "" differ; a separator keeps fields apart */
	if (s)
		XXH3_128bits_update(hs, s, strlen(s) + 1);
	else
		XXH3_128bits_update(hs, "\xff", 1);
}

static void
hash_int(XXH3_state_t *hs, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	hash_str(hs, buf);
}

void
export_fingerprint(const struct export_model *m, enum export_dataset ds,
    const struct export_part *part, const struct export_opts *o,
    const char *extra, char out[33])
{
	XXH3_state_t *hs = XXH3_createState();
	struct export_cols cols = { NULL, 0, 0 };
	const struct export_run *r;
	XXH128_hash_t h;
	size_t i, k;

	if (!hs)
		die("xxhash: cannot create a hash state");
	XXH3_128bits_reset(hs);
	hash_str(hs, "pathstat-export");
	hash_int(hs, EXPORT_SCHEMA_VERSION);
	hash_int(hs, EXPORT_WRITER_VERSION);
	hash_str(hs, PATHSTAT_VERSION);
	hash_str(hs, export_dataset_name(ds));
	hash_str(hs, pq_codec_name(o->codec));
	hash_int(hs, o->basic);
	hash_int(hs, (int64_t)o->file_bytes);
	hash_str(hs, part ? part->dir : "");
	export_dataset_cols(m, ds, part, &cols);
	for (i = 0; i < cols.n; i++) {
		hash_str(hs, cols.items[i].name);
		hash_int(hs, cols.items[i].type);
		hash_int(hs, cols.items[i].key >= 0 ? 1 : 0);
		if (cols.items[i].key >= 0)
			hash_str(hs, m->keys[cols.items[i].key].key);
	}
	export_cols_release(&cols);
	hash_str(hs, extra);
	for (i = 0; part && i < part->n; i++) {
		r = m->runs[part->first + i];
		hash_int(hs, r->db_id);
		hash_str(hs, r->run_id);
		hash_str(hs, r->path);
		hash_str(hs, r->condition);
		hash_int(hs, r->trial);
		hash_str(hs, r->tool);
		hash_str(hs, r->metric);
		hash_int(hs, r->has_started ? r->started_at : INT64_MIN);
		hash_str(hs, r->status);
		hash_str(hs, r->reason);
		hash_int(hs, r->failures);
		hash_int(hs, r->attempts);
		hash_int(hs, r->ok_samples);
		hash_str(hs, r->tags);
		hash_str(hs, r->file);
		hash_str(hs, r->file_hash);
		hash_str(hs, r->file_kind);
		hash_str(hs, r->tool_version);
		hash_str(hs, r->summary_file);
		hash_str(hs, r->summary_file_hash);
		hash_str(hs, r->fingerprint);
		for (k = 0; k < m->nkeys; k++)
			hash_str(hs, r->keyval[k]);
	}
	h = XXH3_128bits_digest(hs);
	XXH3_freeState(hs);
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64,
	    (unsigned long long)h.low64);
}

/* ---------------------------------------------------------------------
 * Writing
 */

/* id -> name of the metrics or sample_status table. */
struct names {
	char	**name;		/* indexed by id; NULL = unknown; owned */
	size_t	n;
};

/* Load "SELECT id, text ..." (sql) into out. */
static int
names_load(sqlite3 *db, const char *what, const char *sql, struct names *out)
{
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	memset(out, 0, sizeof(*out));
	st = db_prepare(db, what, sql);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > 1024)
			continue;
		if ((size_t)id >= out->n) {
			out->name = xreallocarray(out->name, (size_t)id + 1,
			    sizeof(*out->name));
			memset(out->name + out->n, 0,
			    ((size_t)id + 1 - out->n) * sizeof(*out->name));
			out->n = (size_t)id + 1;
		}
		free(out->name[id]);
		out->name[id] = sqlite3_column_text(st, 1) ? xstrdup((const
		    char *)sqlite3_column_text(st, 1)) : NULL;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", what, sqlite3_errmsg(db));
	return 0;
}

static void
names_release(struct names *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		free(nm->name[i]);
	free(nm->name);
	memset(nm, 0, sizeof(*nm));
}

/* The name of id; unknown ids as "#<id>" in buf. */
static const char *
names_get(const struct names *nm, int64_t id, char *buf, size_t size)
{
	if (id >= 0 && (size_t)id < nm->n && nm->name[id])
		return nm->name[id];
	snprintf(buf, size, "#%lld", (long long)id);
	return buf;
}

/* The file being written: its writer, FILE and names. */
struct part_file {
	FILE		*fp;
	struct pq_writer *w;
	struct strbuf	tmp, final;	/* absolute-ish paths */
	struct strbuf	rel;		/* relative to DIR */
};

/* What every file of the part shares. */
struct part_ctx {
	sqlite3			*db;
	const struct export_model *m;
	enum export_dataset	ds;
	const struct export_part *part;
	const struct export_opts *o;
	const char		*dir;		/* DIR, in messages */
	int			folderfd;	/* DIR/<ds>[/<part dir>] */
	struct strbuf		folder;		/* its name, in messages */
	struct strbuf		relfolder;	/* <ds>[/<part dir>] */
	struct export_cols	cols;
	struct pq_column	*pqcols;
	struct pq_kv		kv[6];
	size_t			nkv;
	struct strbuf		kv_keys, kv_units;
	struct part_file	cur;
	bool			open;
	size_t			nfiles;		/* files begun */
	struct export_files	*out;
	size_t			out_first;	/* this part's first entry */
	struct names		metrics, units, status;
};

/* Part file i's name: part-NNNNN.parquet, part-WRITER-NNNNN.parquet
 * with --writer (so writers sharing a folder never collide), and with
 * tmp its hidden temporary name (a leading '.', a ".tmp" suffix). */
static void
part_name(const struct export_opts *o, size_t i, bool tmp, char *buf,
    size_t size)
{
	int n;

	n = snprintf(buf, size, "%spart-%s%s%05zu.parquet%s", tmp ? "." : "",
	    o->writer ? o->writer : "", o->writer ? "-" : "", i,
	    tmp ? ".tmp" : "");
	if (n < 0 || (size_t)n >= size)
		BUG("part file name of writer '%s' too long", o->writer);
}

static int
file_begin(struct part_ctx *x)
{
	struct part_file *f = &x->cur;
	struct pq_options po;

	char name[EXPORT_PART_NAME_MAX];
	int fd;

	strbuf_reset(&f->tmp);
	strbuf_reset(&f->final);
	strbuf_reset(&f->rel);
	part_name(x->o, x->nfiles, true, name, sizeof(name));
	strbuf_addf(&f->tmp, "%s/%s", x->folder.buf, name);
	part_name(x->o, x->nfiles, false, name, sizeof(name));
	strbuf_addf(&f->final, "%s/%s", x->folder.buf, name);
	strbuf_addf(&f->rel, "%s/%s", x->relfolder.buf, name);
	part_name(x->o, x->nfiles, true, name, sizeof(name));
	/* x->nfiles counts it from here, so a failure removes it */
	fd = outdir_create(x->folderfd, name, f->tmp.buf);
	if (fd < 0)
		return -1;
	x->nfiles++;
	f->fp = fdopen(fd, "wb");
	if (!f->fp) {
		close(fd);
		return error_errno("cannot write '%s'", f->tmp.buf);
	}
	memset(&po, 0, sizeof(po));
	po.codec = x->o->codec;
	po.plain = x->o->basic;
	po.row_group_bytes = x->o->file_bytes / 4 < 64u * 1024 * 1024 ?
	    x->o->file_bytes / 4 : 64u * 1024 * 1024;
	f->w = pq_writer_new(f->fp, f->tmp.buf, x->pqcols, x->cols.n, &po);
	x->open = true;
	return 0;
}

/* Finish the open file: footer, fsync, close; record it (still under
 * its temporary name). */
static int
file_end(struct part_ctx *x)
{
	struct part_file *f = &x->cur;
	struct export_file *e;
	int ret = 0;

	if (!x->open)
		return 0;
	x->open = false;
	if (pq_finish(f->w, x->kv, x->nkv))
		ret = -1;
	if (!ret && fsync(fileno(f->fp)))
		ret = error_errno("cannot write '%s'", f->tmp.buf);
	if (fclose(f->fp) && !ret)
		ret = error_errno("cannot write '%s'", f->tmp.buf);
	f->fp = NULL;
	if (!ret) {
		ALLOC_GROW(x->out->items, x->out->n + 1, x->out->alloc);
		e = &x->out->items[x->out->n++];
		e->path = xstrdup(f->rel.buf);
		e->rows = pq_rows(f->w);
		e->bytes = pq_bytes(f->w);
		pq_hash(f->w, e->hash);
	}
	pq_writer_free(f->w);
	f->w = NULL;
	return ret;
}

/* After a batch: start the next file when this one is big enough. */
static int
batch_done(struct part_ctx *x)
{
	if (pq_end_rows(x->cur.w))
		return -1;
	if (pq_bytes(x->cur.w) >= x->o->file_bytes) {
		if (file_end(x) || file_begin(x))
			return -1;
	}
	return 0;
}

/* Add n copies of run r's value of a per-run column. */
static void
add_run_col(struct part_ctx *x, size_t ci, const struct export_run *r,
    size_t n)
{
	const struct export_col *c = &x->cols.items[ci];
	struct pq_writer *w = x->cur.w;
	const char *s = NULL;
	bool is_int = false, null = false;
	int64_t v = 0;

	switch ((enum field)c->field) {
	case F_KEY:
		s = r->keyval[c->key];
		break;
	case F_RUN_ID:
		s = r->run_id;
		break;
	case F_PATH:
		s = r->path;
		break;
	case F_CONDITION:
		s = r->condition;
		break;
	case F_TRIAL:
		is_int = true;
		v = r->trial;
		break;
	case F_TOOL:
		s = r->tool;
		break;
	case F_METRIC:
		s = r->metric;
		break;
	case F_STARTED_AT:
		is_int = true;
		/* model.c took a start outside 2000..2100 as unknown, so
		 * this cannot overflow */
		null = !r->has_started;
		v = r->has_started ? r->started_at * 1000000 : 0;
		break;
	case F_STATUS:
		s = r->status;
		break;
	case F_REASON:
		s = r->reason;
		break;
	case F_SAMPLES:
		is_int = true;
		v = r->ok_samples;
		break;
	case F_FAILURES:
		is_int = true;
		v = r->failures;
		break;
	case F_ATTEMPTS:
		is_int = true;
		null = r->attempts < 0;
		v = r->attempts;
		break;
	case F_TAGS:
		s = r->tags;
		break;
	case F_FILE:
		s = r->file ? r->file : r->summary_file;
		break;
	case F_FILE_HASH:
		s = r->file ? r->file_hash : r->summary_file_hash;
		break;
	case F_FILE_KIND:
		s = r->file_kind;
		break;
	case F_TOOL_VERSION:
		s = r->tool_version;
		break;
	case F_SUMMARY_FILE:
		s = r->file ? r->summary_file : NULL;
		break;
	case F_SUMMARY_FILE_HASH:
		s = r->file ? r->summary_file_hash : NULL;
		break;
	default:
		die("export: column '%s' is not per run", c->name);
	}
	if (is_int)
		pq_add_int64_rep(w, ci, v, null, n);
	else
		pq_add_str_rep(w, ci, s, s ? strlen(s) : 0, n);
}

#define BATCH	65536

/*
 * A run's series rows decoded in C, sample by sample: what
 * "series_rows(run, metric) ORDER BY metric, seq" gives for each metric
 * with a chunk 0, without SQLite sorting every sample of the run and
 * taking each value through a virtual table's column calls (most of
 * export's CPU).  Like series_rows, a chunk with a short value blob is
 * left out and seq counts the samples kept; a NaN value or a time of
 * SERIES_T_NONE is NULL.  The blobs stay st's until its next step.
 */
struct chunk_rd {
	sqlite3_stmt *st;	/* "SELECT metric, chunk, rows, value, t_us,
				 * status FROM series WHERE run_id = ?1
				 * ORDER BY metric, chunk", not owned */
	const unsigned char *v, *t, *s;	/* the chunk's blobs (t, s or NULL) */
	int64_t metric, seq;
	size_t n, k;		/* samples in the chunk, the next one */
	bool any;		/* a row was read */
	bool skip;		/* the metric has no chunk 0 */
};

/* Step rd to a chunk with samples: SQLITE_ROW, SQLITE_DONE or an error. */
static int
chunk_next(struct chunk_rd *rd)
{
	sqlite3_stmt *st = rd->st;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t metric = sqlite3_column_int64(st, 0);
		sqlite3_int64 rows = sqlite3_column_int64(st, 2);
		size_t vlen, tlen, slen, n;

		if (!rd->any || metric != rd->metric) {
			rd->any = true;
			rd->metric = metric;
			rd->seq = 0;
			rd->skip = sqlite3_column_int64(st, 1) != 0;
		}
		rd->v = sqlite3_column_blob(st, 3);
		vlen = (size_t)sqlite3_column_bytes(st, 3);
		rd->t = sqlite3_column_blob(st, 4);
		tlen = (size_t)sqlite3_column_bytes(st, 4);
		rd->s = sqlite3_column_blob(st, 5);
		slen = (size_t)sqlite3_column_bytes(st, 5);
		if (rd->skip || rows <= 0 || !rd->v || vlen / 8 < (size_t)rows)
			continue;
		n = (size_t)rows;
		if (rd->t && tlen / 8 < n)
			rd->t = NULL;
		if (rd->s && slen < n)
			rd->s = NULL;
		rd->n = n;
		rd->k = 0;
		return SQLITE_ROW;
	}
	return rc;
}

/* The samples of run r, in batches. */
static int
write_samples(struct part_ctx *x, sqlite3_stmt *st, const struct export_run *r)
{
	static int64_t seq[BATCH], tus[BATCH], met[BATCH], sts[BATCH];
	static double val[BATCH];
	static unsigned char tnull[BATCH], vnull[BATCH];
	const struct export_col *c;
	struct chunk_rd rd;
	char buf[32];
	const char *s;
	size_t n, ci, a, b;
	int rc = SQLITE_ROW;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, r->db_id);
	memset(&rd, 0, sizeof(rd));
	rd.st = st;
	while (rc == SQLITE_ROW) {
		for (n = 0; n < BATCH; n++) {
			int64_t t;
			double v;

			if (rd.k == rd.n && (rc = chunk_next(&rd)) != SQLITE_ROW)
				break;
			met[n] = rd.metric;
			seq[n] = rd.seq++;
			t = rd.t ? series_get_i64(rd.t + 8 * rd.k) :
			    SERIES_T_NONE;
			tnull[n] = t == SERIES_T_NONE;
			tus[n] = tnull[n] ? 0 : t;
			v = series_get_f64(rd.v + 8 * rd.k);
			vnull[n] = (unsigned char)(isnan(v) != 0);
			val[n] = vnull[n] ? 0 : v;
			sts[n] = rd.s ? rd.s[rd.k] : 0;
			rd.k++;
		}
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return error("read samples of run %s: %s", r->run_id,
			    sqlite3_errmsg(x->db));
		if (!n)
			break;
		for (ci = 0; ci < x->cols.n; ci++) {
			c = &x->cols.items[ci];
			switch ((enum field)c->field) {
			case F_SEQ:
				pq_add_int64(x->cur.w, ci, seq, NULL, n);
				break;
			case F_T_US:
				pq_add_int64(x->cur.w, ci, tus, tnull, n);
				break;
			case F_VALUE:
				pq_add_double(x->cur.w, ci, val, vnull, n);
				break;
			case F_METRIC:
			case F_STATUS:
				/* runs of one metric or status at a time */
				for (a = 0; a < n; a = b) {
					const int64_t *id = c->field ==
					    F_METRIC ? met : sts;

					for (b = a + 1; b < n && id[b] == id[a];
					    b++)
						;
					s = names_get(c->field == F_METRIC ?
					    &x->metrics : &x->status, id[a],
					    buf, sizeof(buf));
					pq_add_str_rep(x->cur.w, ci, s,
					    strlen(s), b - a);
				}
				break;
			default:
				add_run_col(x, ci, r, n);
			}
		}
		if (batch_done(x))
			return -1;
	}
	return 0;
}

static int
write_run_row(struct part_ctx *x, const struct export_run *r)
{
	size_t ci;

	for (ci = 0; ci < x->cols.n; ci++)
		add_run_col(x, ci, r, 1);
	return batch_done(x);
}

static int
write_summaries(struct part_ctx *x, sqlite3_stmt *st,
    const struct export_run *r)
{
	const struct export_col *c;
	const char *s;
	size_t ci;
	double v;
	int rc;
	unsigned char null;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, r->db_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (ci = 0; ci < x->cols.n; ci++) {
			c = &x->cols.items[ci];
			switch ((enum field)c->field) {
			case F_METRIC:
			case F_STAT:
			case F_ESTIMATOR:
			case F_FILE:
				s = (const char *)sqlite3_column_text(st,
				    c->field == F_METRIC ? 0 :
				    c->field == F_STAT ? 1 :
				    c->field == F_ESTIMATOR ? 3 : 4);
				pq_add_str_rep(x->cur.w, ci, s, s ? strlen(s) :
				    0, 1);
				break;
			case F_VALUE:
				null = sqlite3_column_type(st, 2) ==
				    SQLITE_NULL;
				v = sqlite3_column_double(st, 2);
				pq_add_double(x->cur.w, ci, &v, &null, 1);
				break;
			default:
				add_run_col(x, ci, r, 1);
			}
		}
		if (batch_done(x))
			return -1;
	}
	if (rc != SQLITE_DONE)
		return error("read summaries of run %s: %s", r->run_id,
		    sqlite3_errmsg(x->db));
	return 0;
}

/* run_ids of a finding: the stable ids, ","-joined. */
static void
finding_run_ids(const struct export_model *m, const struct check_finding *f,
    struct strbuf *sb)
{
	const char *id;
	size_t i;

	for (i = 0; i < f->nruns; i++) {
		if (i)
			strbuf_addch(sb, ',');
		id = export_model_run_id(m, f->runs[i]);
		if (id)
			strbuf_addstr(sb, id);
		else
			strbuf_addf(sb, "#%lld", (long long)f->runs[i]);
	}
}

static void
finding_files(const struct check_finding *f, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < f->nfiles; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, f->files[i]);
	}
}

static int
write_findings(struct part_ctx *x, const struct check_findings *f)
{
	struct strbuf sb = STRBUF_INIT;
	const struct check_finding *fi;
	const char *s;
	size_t i, ci;

	for (i = 0; f && i < f->n; i++) {
		size_t ri;
		bool mine = !x->o->writer || !f->items[i].nruns;

		fi = &f->items[i];
		/* a writer leaves out a finding on runs that are all
		 * another writer's: that writer reports it */
		for (ri = 0; !mine && ri < fi->nruns; ri++)
			mine = export_model_run_selected(x->m, fi->runs[ri]);
		if (!mine)
			continue;
		for (ci = 0; ci < x->cols.n; ci++) {
			strbuf_reset(&sb);
			switch ((enum field)x->cols.items[ci].field) {
			case F_TRIAL:
				pq_add_int64_rep(x->cur.w, ci, fi->trial,
				    fi->trial < 0, 1);
				continue;
			case F_CHECK:
				s = fi->check;
				break;
			case F_SEVERITY:
				s = check_severity_name(fi->severity);
				break;
			case F_METRIC:
				s = fi->metric;
				break;
			case F_PATH:
				s = fi->path;
				break;
			case F_CONDITION:
				s = fi->condition;
				break;
			case F_SCOPE:
				s = fi->scope;
				break;
			case F_RUN_IDS:
				finding_run_ids(x->m, fi, &sb);
				s = sb.buf;
				break;
			case F_FILES:
				finding_files(fi, &sb);
				s = sb.buf;
				break;
			case F_EVIDENCE:
				s = fi->evidence;
				break;
			case F_CAUSE:
				s = fi->cause;
				break;
			case F_ACTION:
				s = fi->action;
				break;
			default:
				die("export: no finding column '%s'",
				    x->cols.items[ci].name);
			}
			if (!s)
				s = "";
			pq_add_str_rep(x->cur.w, ci, s, strlen(s), 1);
		}
		if (batch_done(x)) {
			strbuf_release(&sb);
			return -1;
		}
	}
	strbuf_release(&sb);
	return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* The files' key-value metadata: schema version, dataset, partition,
 * which dimension each key column holds, the metrics' units. */
static void
make_kv(struct part_ctx *x)
{
	const struct export_col *c;
	size_t i, n = 0;

	strbuf_addch(&x->kv_keys, '{');
	for (i = 0; i < x->cols.n; i++) {
		c = &x->cols.items[i];
		if (c->key < 0)
			continue;
		if (n++)
			strbuf_addstr(&x->kv_keys, ", ");
		escape_json(&x->kv_keys, c->name);
		strbuf_addstr(&x->kv_keys, ": ");
		escape_json(&x->kv_keys, x->m->keys[c->key].key);
	}
	strbuf_addch(&x->kv_keys, '}');
	x->nkv = 0;
	x->kv[x->nkv++] = (struct pq_kv){ "pathstat.schema_version",
	    STR(EXPORT_SCHEMA_VERSION) };
	x->kv[x->nkv++] = (struct pq_kv){ "pathstat.dataset",
	    export_dataset_name(x->ds) };
	x->kv[x->nkv++] = (struct pq_kv){ "pathstat.partition",
	    x->part ? x->part->dir : "" };
	x->kv[x->nkv++] = (struct pq_kv){ "pathstat.key_columns",
	    x->kv_keys.buf };
	if (x->ds == DS_SAMPLES || x->ds == DS_SUMMARIES) {
		strbuf_addch(&x->kv_units, '{');
		for (i = 0, n = 0; i < x->metrics.n; i++) {
			if (!x->metrics.name[i])
				continue;
			if (n++)
				strbuf_addstr(&x->kv_units, ", ");
			escape_json(&x->kv_units, x->metrics.name[i]);
			strbuf_addstr(&x->kv_units, ": ");
			escape_json(&x->kv_units, i < x->units.n &&
			    x->units.name[i] ? x->units.name[i] : "");
		}
		strbuf_addch(&x->kv_units, '}');
		x->kv[x->nkv++] = (struct pq_kv){ "pathstat.metric_units",
		    x->kv_units.buf };
	}
}

/* Remove the temporary files of this part's files (after an error):
 * only regular files, in the part's own folder. */
static void
remove_tmps(struct part_ctx *x)
{
	struct strbuf sb = STRBUF_INIT;
	char name[EXPORT_PART_NAME_MAX];
	size_t i;

	if (x->folderfd < 0)
		return;
	for (i = 0; i < x->nfiles; i++) {
		part_name(x->o, i, true, name, sizeof(name));
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", x->folder.buf, name);
		if (outdir_remove_regular(x->folderfd, name, sb.buf) < 0)
			warning("left '%s' behind", sb.buf);
	}
	strbuf_release(&sb);
}

static int
write_rows(struct part_ctx *x, const struct check_findings *findings)
{
	const char *sql = NULL;
	sqlite3_stmt *st = NULL;
	size_t i;
	int ret = 0;

	if (x->ds == DS_FINDINGS)
		return write_findings(x, findings);
	if (x->ds == DS_SAMPLES)
		sql = "SELECT metric, chunk, rows, value, t_us, status "
		    "FROM series WHERE run_id = ?1 ORDER BY metric, chunk";
	else if (x->ds == DS_SUMMARIES)
		sql = "SELECT s.metric, s.stat, s.value, s.estimator, "
		    "f.relpath FROM summaries s LEFT JOIN files f ON f.id = "
		    "s.file_id WHERE s.run_id = ?1 ORDER BY s.metric, s.stat";
	if (sql) {
		st = db_prepare(x->db, export_dataset_name(x->ds), sql);
		if (!st)
			return -1;
	}
	for (i = 0; i < x->part->n && !ret; i++) {
		const struct export_run *r = x->m->runs[x->part->first + i];

		if (x->ds == DS_SAMPLES)
			ret = write_samples(x, st, r);
		else if (x->ds == DS_SUMMARIES)
			ret = write_summaries(x, st, r);
		else
			ret = write_run_row(x, r);
	}
	sqlite3_finalize(st);
	return ret;
}

int
export_write_part(sqlite3 *db, const struct export_model *m,
    enum export_dataset ds, const struct export_part *part,
    const struct check_findings *findings, int dirfd, const char *dir,
    const struct export_opts *o, struct export_files *out)
{
	struct part_ctx x;
	size_t i;
	int ret = -1;

	memset(&x, 0, sizeof(x));
	x.db = db;
	x.m = m;
	x.ds = ds;
	x.part = ds == DS_FINDINGS ? NULL : part;
	x.o = o;
	x.dir = dir;
	x.out = out;
	x.out_first = out->n;
	x.folderfd = -1;
	strbuf_init(&x.folder, 0);
	strbuf_init(&x.relfolder, 0);
	strbuf_init(&x.kv_keys, 0);
	strbuf_init(&x.kv_units, 0);
	strbuf_init(&x.cur.tmp, 0);
	strbuf_init(&x.cur.final, 0);
	strbuf_init(&x.cur.rel, 0);
	strbuf_addstr(&x.relfolder, export_dataset_name(ds));
	if (x.part && *x.part->dir)
		strbuf_addf(&x.relfolder, "/%s", x.part->dir);
	strbuf_addf(&x.folder, "%s/%s", dir, x.relfolder.buf);
	if (names_load(db, "read metrics", "SELECT id, name FROM metrics",
	    &x.metrics) ||
	    names_load(db, "read metrics", "SELECT id, unit FROM metrics",
	    &x.units) ||
	    names_load(db, "read sample_status",
	    "SELECT id, name FROM sample_status", &x.status))
		goto cleanup;
	export_dataset_cols(m, ds, x.part, &x.cols);
	x.pqcols = xcalloc(x.cols.n, sizeof(*x.pqcols));
	for (i = 0; i < x.cols.n; i++) {
		x.pqcols[i].name = x.cols.items[i].name;
		x.pqcols[i].type = x.cols.items[i].type;
		x.pqcols[i].optional = x.cols.items[i].optional;
		x.pqcols[i].unique = x.cols.items[i].unique;
	}
	make_kv(&x);
	/* real folders only: a planted link is replaced, never followed */
	x.folderfd = outdir_open_path(dirfd, dir, x.relfolder.buf,
	    OUTDIR_CREATE | OUTDIR_REPLACE);
	if (x.folderfd < 0 || file_begin(&x) || write_rows(&x, findings) ||
	    file_end(&x))
		goto fail;
	/* every file complete: now they may appear under their names */
	for (i = 0; i < x.nfiles; i++) {
		char tmp[EXPORT_PART_NAME_MAX], final[EXPORT_PART_NAME_MAX];

		part_name(x.o, i, true, tmp, sizeof(tmp));
		part_name(x.o, i, false, final, sizeof(final));
		strbuf_reset(&x.cur.final);
		strbuf_addf(&x.cur.final, "%s/%s", x.folder.buf, final);
		if (outdir_rename(x.folderfd, tmp, x.folderfd, final,
		    x.cur.final.buf))
			goto fail;
	}
	ret = 0;
	goto cleanup;
fail:
	if (x.open) {
		pq_writer_free(x.cur.w);
		if (x.cur.fp)
			fclose(x.cur.fp);
		x.open = false;
	}
	remove_tmps(&x);
	while (out->n > x.out_first)
		free(out->items[--out->n].path);
cleanup:
	if (x.folderfd >= 0)
		close(x.folderfd);
	names_release(&x.metrics);
	names_release(&x.units);
	names_release(&x.status);
	export_cols_release(&x.cols);
	free(x.pqcols);
	strbuf_release(&x.folder);
	strbuf_release(&x.relfolder);
	strbuf_release(&x.kv_keys);
	strbuf_release(&x.kv_units);
	strbuf_release(&x.cur.tmp);
	strbuf_release(&x.cur.final);
	strbuf_release(&x.cur.rel);
	return ret;
}
