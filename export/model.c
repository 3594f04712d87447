/*
 * model.c - what an export holds, read from the database: the key
 * columns (every dimension `analyze --by` can group by, named once for
 * the whole database), the runs with their stable ids and key values,
 * and their Hive-style partitions.
 */
#include "common/compat.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "common/db.h"
#include "common/err.h"
#include "common/keycat.h"
#include "common/parse.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "export/internal.h"

/* Names the fixed columns of some dataset use: a key column never takes
 * one of them (it becomes key_<name>). */
static const char *const reserved[] = {
	"action", "attempts", "cause", "check", "condition", "estimator",
	"evidence", "failures", "file", "file_hash", "file_kind", "files",
	"metric", "path", "reason", "run_id", "run_ids", "samples", "scope",
	"seq", "severity", "started_at", "stat", "status", "summary_file",
	"summary_file_hash", "t_us", "tags", "tool", "tool_version", "trial",
	"value",
};

/* Dimensions that are fixed columns, never key columns. */
static bool
is_fixed_dim(const char *key)
{
	return !strcmp(key, "path") || !strcmp(key, "trial") ||
	    !strcmp(key, "tool");
}

static bool
is_reserved(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		if (!strcmp(reserved[i], name))
			return true;
	return false;
}

bool
export_value_needs_escape(const char *v)
{
	const unsigned char *p;

	if (!strcmp(v, EXPORT_HIVE_NULL) || strlen(v) > EXPORT_VALUE_MAX)
		return true;
	for (p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f || strchr("\"#%'*/:=?\\{[]^", *p))
			return true;
	return false;
}

/* v as a folder name's value, escaped: whole when that is at most
 * EXPORT_VALUE_MAX bytes, else its first 64 bytes' worth and "~" and a
 * hash of all of it (a folder name has at most 255 bytes: a 300-byte
 * tag made every export fail).  The literal Hive null name
 * gets its first '_' escaped, so it reads back as itself, not NULL. */
void
export_escape_value(const char *v, struct strbuf *sb)
{
	const unsigned char *p;
	size_t start = sb->len;

	p = (const unsigned char *)v;
	if (!strcmp(v, EXPORT_HIVE_NULL)) {
		strbuf_addstr(sb, "%5F");
		p++;
	}
	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || strchr("\"#%'*/:=?\\{[]^", *p))
			strbuf_addf(sb, "%%%02X", *p);
		else
			strbuf_addch(sb, *p);
	}
	if (sb->len - start > EXPORT_VALUE_MAX) {
		size_t keep = 64;

		/* cut on a character, never inside %XX or a UTF-8 one */
		while (keep > 0 && (sb->buf[start + keep - 1] == '%' ||
		    (keep >= 2 && sb->buf[start + keep - 2] == '%') ||
		    ((unsigned char)sb->buf[start + keep] & 0xc0) == 0x80))
			keep--;
		strbuf_setlen(sb, start + keep);
		strbuf_addf(sb, "~%016llx",
		    (unsigned long long)XXH3_64bits(v, strlen(v)));
	}
}

/* Text of column i, or NULL. */
static const char *
col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static char *
col_dup(sqlite3_stmt *st, int i)
{
	const char *s = col_text(st, i);

	return s ? xstrdup(s) : NULL;
}

#define EXPORT_KEY_COLUMNS_STR	"200"

/* Every condition key and tag in the database, sorted, into *out: at
 * most EXPORT_KEY_COLUMNS of them (the keys most rows have), since
 * SQLite returns at most 2,000 columns and a database may hold more
 * keys; every tag stays in the tags column. */
static int
db_keys(sqlite3 *db, char ***out, size_t *n)
{
	sqlite3_stmt *st = db_prepare(db, "list keys",
	    "SELECT key FROM (SELECT key, count(*) AS n FROM (SELECT key "
	    "FROM condition_keys UNION ALL SELECT key FROM run_tags) GROUP BY "
	    "key ORDER BY n DESC, key LIMIT " EXPORT_KEY_COLUMNS_STR ") "
	    "ORDER BY 1");
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[(*n)++] = xstrdup(col_text(st, 0));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("list keys: %s", sqlite3_errmsg(db));
	return 0;
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* day, hour, week, month: keys every run has (where.c derives them). */
static bool
is_time_key(const char *key)
{
	return !strcmp(key, "day") || !strcmp(key, "hour") ||
	    !strcmp(key, "week") || !strcmp(key, "month");
}

void
export_model_known_keys(sqlite3 *db, struct strbuf *sb)
{
	char **keys = NULL;
	size_t n = 0, i;

	strbuf_addstr(sb, "path, trial, tool, day, hour, week, month, "
	    "instance");
	if (db_keys(db, &keys, &n))
		return;
	for (i = 0; i < n; i++)
		if (!is_fixed_dim(keys[i]) && !is_time_key(keys[i]) &&
		    strcmp(keys[i], "instance"))
			strbuf_addf(sb, ", %s", keys[i]);
	free_strv(keys, n);
}

int
export_check_key(sqlite3 *db, const char *key, struct strbuf *why)
{
	static const char *const derived[] = { "path", "trial", "tool", "day",
	    "hour", "week", "month", "instance" };
	struct strbuf near = STRBUF_INIT;
	char **keys = NULL;
	size_t n = 0, i;
	bool found = is_fixed_dim(key) || is_time_key(key) ||
	    !strcmp(key, "instance");

	if (!found && db_keys(db, &keys, &n) == 0)
		for (i = 0; i < n && !found; i++)
			found = !strcmp(keys[i], key);
	if (!found && !suggest_append(&near, key, (const char *const *)keys,
	    n))
		suggest_append(&near, key, derived, ARRAY_SIZE(derived));
	free_strv(keys, n);
	if (found)
		return 0;
	strbuf_addf(why, "unknown key '%s'%s (known: ", key, near.buf);
	strbuf_release(&near);
	export_model_known_keys(db, why);
	strbuf_addch(why, ')');
	return -1;
}

/* The column name of key: lower case, [a-z0-9_], not a fixed name, nor
 * one of done[0..ndone)'s (those without a name yet are skipped). */
static char *
column_name(const char *key, const struct export_key *done, size_t ndone)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p;
	size_t base, i, k = 1;
	bool clash;

	for (p = (const unsigned char *)key; *p; p++) {
		if (isalnum(*p) && *p < 0x80)
			strbuf_addch(&sb, tolower(*p));
		else
			strbuf_addch(&sb, '_');
	}
	if (!sb.len || isdigit((unsigned char)sb.buf[0]) ||
	    is_reserved(sb.buf)) {
		struct strbuf pre = STRBUF_INIT;

		strbuf_addf(&pre, "key_%s", sb.buf);
		strbuf_release(&sb);
		sb = pre;
	}
	base = sb.len;
	do {
		clash = false;
		for (i = 0; i < ndone && !clash; i++)
			clash = done[i].column && !strcmp(done[i].column,
			    sb.buf);
		if (clash) {
			strbuf_setlen(&sb, base);
			strbuf_addf(&sb, "_%zu", ++k);
		}
	} while (clash);
	return strbuf_detach(&sb, NULL);
}

/*
 * Leave the provenance tags (common/keycat.h: command lines, session,
 * kernel, host, tool versions) out of m's key columns: every run
 * differs in them, so as columns they only widen each row; the runs'
 * tags column keeps them.  Called after the columns are named, so a
 * key's column has one name with or without them.
 */
static void
drop_provenance(struct export_model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nkeys; i++) {
		if (keycat_is_provenance(m->keys[i].key)) {
			free(m->keys[i].key);
			free(m->keys[i].column);
			continue;
		}
		m->keys[n++] = m->keys[i];
	}
	m->nkeys = n;
}

static int
load_keys(sqlite3 *db, bool provenance, struct export_model *m)
{
	char **keys = NULL;
	size_t n = 0, i, alloc = 0;
	bool have_instance = false;
	const char *extra[] = { "day", "hour", "week", "month", "instance" };
	int pass;

	if (db_keys(db, &keys, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (!strcmp(keys[i], "instance") ||
		    !strcmp(keys[i], "instance_id") ||
		    !strcmp(keys[i], "hostname"))
			have_instance = true;
	/* day and hour fall back to the start time, week and month to
	 * the day; instance exists when
	 * one of its tags does */
	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		size_t j;
		bool dup = false;

		if (!strcmp(extra[i], "instance") && !have_instance)
			continue;
		for (j = 0; j < n; j++)
			dup = dup || !strcmp(keys[j], extra[i]);
		if (!dup) {
			keys = xreallocarray(keys, n + 1, sizeof(*keys));
			keys[n++] = xstrdup(extra[i]);
		}
	}
	qsort(keys, n, sizeof(*keys), cmp_strp);
	for (i = 0; i < n; i++) {
		if (is_fixed_dim(keys[i]))
			continue;
		ALLOC_GROW(m->keys, m->nkeys + 1, alloc);
		m->keys[m->nkeys].key = xstrdup(keys[i]);
		m->keys[m->nkeys].column = NULL;
		m->nkeys++;
	}
	free_strv(keys, n);
	/* a key that is a column name already keeps it; then the others,
	 * in key order, get theirs (Instance-Type never takes the name of
	 * a tag instance_type) */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < m->nkeys; i++) {
			char *c;

			if (m->keys[i].column)
				continue;
			c = column_name(m->keys[i].key, m->keys, m->nkeys);
			if (pass == 0 && strcmp(c, m->keys[i].key)) {
				free(c);
				continue;
			}
			m->keys[i].column = c;
		}
	if (!provenance)
		drop_provenance(m);
	return 0;
}

/* Columns of the runs query, before the key columns. */
enum {
	Q_ID, Q_PATH, Q_COND, Q_TRIAL, Q_TOOL, Q_METRIC, Q_STARTED, Q_STATUS,
	Q_REASON, Q_FAILURES, Q_ATTEMPTS, Q_TAGS, Q_FILE, Q_FILE_HASH,
	Q_FILE_KIND, Q_TOOL_VERSION, Q_SFILE, Q_SFILE_HASH, Q_FINGER, Q_OK,
	Q_SELECTED, Q_KEYS
};

static void
build_query(const struct export_model *m, const struct where *w,
    struct strbuf *sql)
{
	size_t i;

	strbuf_addstr(sql,
	    "SELECT r.id, p.name, c.canon, r.trial, r.tool, m.name, "
	    "r.started_at, r.status, r.reason, r.failures, r.attempts, "
	    "r.tagkey, f.relpath, f.hash, coalesce(f.kind, sf.kind), "
	    "coalesce(f.tool_version, sf.tool_version), sf.relpath, sf.hash, "
	    /* what else tells a re-ingested or edited run: ingest times,
	     * and the sample counts the samples triggers keep honest */
	    "coalesce(f.ingested_at, '') || '|' || "
	    "coalesce(sf.ingested_at, '') || '|' || coalesce((SELECT "
	    "group_concat(x, ';') FROM (SELECT sv.metric || ':' || sv.rows || "
	    "':' || sv.failures AS x FROM sample_values sv WHERE sv.run_id = "
	    "r.id ORDER BY sv.metric)), ''), "
	    "coalesce((SELECT sv.rows - sv.failures FROM sample_values sv "
	    "WHERE sv.run_id = r.id AND sv.metric = r.metric), "
	    /* no sorted copy: count the series rows' ok samples in their
	     * blobs, not a row per sample */
	    "(SELECT coalesce(sum(pathstat_series_ok(s.rows, s.value, "
	    "s.status)), 0) FROM series s WHERE s.run_id = r.id AND "
	    "s.metric = r.metric)), "
	    "CASE WHEN 1");
	where_sql(w, "r", sql);
	strbuf_addstr(sql, " THEN 1 ELSE 0 END");
	for (i = 0; i < m->nkeys; i++) {
		strbuf_addstr(sql, ", ");
		dim_sql(m->keys[i].key, "r", sql);
	}
	runsel_join_sql(sql, RUNSEL_JOIN_METRICS);
	strbuf_addstr(sql, " ORDER BY r.id");
}

/*
 * The stable id: a hash of what the run is (its keys) and where its data
 * came from (the files' content hashes), never of database row ids, so a
 * fresh database from the same tree gives the same ids.
 */
static void
stable_id(const struct export_run *r, unsigned salt, char out[17])
{
	struct strbuf sb = STRBUF_INIT;
	XXH64_hash_t h;

	strbuf_addf(&sb, "pathstat run\n%s\n%s\n%lld\n%s\n%s\n%s\n%s\n%s",
	    r->path, r->condition, (long long)r->trial, r->tool, r->metric,
	    r->tags, r->file_hash ? r->file_hash : "",
	    r->summary_file_hash ? r->summary_file_hash : "");
	if (salt)
		strbuf_addf(&sb, "\n#%u", salt);
	h = XXH3_64bits(sb.buf, sb.len);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	strbuf_release(&sb);
}

static void
run_release(struct export_run *r, size_t nkeys)
{
	size_t i;

	free(r->path);
	free(r->condition);
	free(r->tool);
	free(r->metric);
	free(r->status);
	free(r->reason);
	free(r->tags);
	free(r->file);
	free(r->file_hash);
	free(r->file_kind);
	free(r->tool_version);
	free(r->summary_file);
	free(r->summary_file_hash);
	free(r->fingerprint);
	if (r->keyval)
		for (i = 0; i < nkeys; i++)
			free(r->keyval[i]);
	free(r->keyval);
}

static void
read_run(sqlite3_stmt *st, size_t nkeys, struct export_run *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->db_id = sqlite3_column_int64(st, Q_ID);
	r->path = col_dup(st, Q_PATH);
	r->condition = col_dup(st, Q_COND);
	r->trial = sqlite3_column_int64(st, Q_TRIAL);
	r->tool = col_dup(st, Q_TOOL);
	r->metric = col_dup(st, Q_METRIC);
	r->has_started = sqlite3_column_type(st, Q_STARTED) != SQLITE_NULL;
	r->started_at = sqlite3_column_int64(st, Q_STARTED);
	if (r->has_started && !start_plausible(r->started_at)) {
		/* stored by a version that took any start: in µs it would
		 * overflow, and no clock gave it */
		warning("run %lld: its stored start %lld (Unix seconds) is "
		    "outside 2000-01-01..2100-01-01 UTC: exported as unknown",
		    (long long)r->db_id, (long long)r->started_at);
		r->has_started = false;
		r->started_at = 0;
	}
	r->status = col_dup(st, Q_STATUS);
	r->reason = col_dup(st, Q_REASON);
	r->failures = sqlite3_column_int64(st, Q_FAILURES);
	r->attempts = sqlite3_column_type(st, Q_ATTEMPTS) == SQLITE_NULL ? -1 :
	    sqlite3_column_int64(st, Q_ATTEMPTS);
	r->tags = col_dup(st, Q_TAGS);
	r->file = col_dup(st, Q_FILE);
	r->file_hash = col_dup(st, Q_FILE_HASH);
	r->file_kind = col_dup(st, Q_FILE_KIND);
	r->tool_version = col_dup(st, Q_TOOL_VERSION);
	r->summary_file = col_dup(st, Q_SFILE);
	r->summary_file_hash = col_dup(st, Q_SFILE_HASH);
	r->fingerprint = col_dup(st, Q_FINGER);
	r->ok_samples = sqlite3_column_int64(st, Q_OK);
	r->selected = sqlite3_column_int(st, Q_SELECTED) != 0;
	if (!r->path)
		r->path = xstrdup("");
	if (!r->condition)
		r->condition = xstrdup("");
	if (!r->tool)
		r->tool = xstrdup("");
	if (!r->metric)
		r->metric = xstrdup("");
	if (!r->status)
		r->status = xstrdup("");
	if (!r->tags)
		r->tags = xstrdup("");
	if (!r->fingerprint)
		r->fingerprint = xstrdup("");
	r->keyval = xcalloc(nkeys ? nkeys : 1, sizeof(*r->keyval));
	for (i = 0; i < nkeys; i++) {
		r->keyval[i] = col_dup(st, Q_KEYS + (int)i);
		/* stored values are never empty: '' means unset */
		if (r->keyval[i] && !*r->keyval[i])
			FREE_AND_NULL(r->keyval[i]);
	}
}

static const struct export_run *ids_base;

/* Order run indices by run_id, then by database order. */
static int
cmp_idx(const void *pa, const void *pb)
{
	const struct export_run *a = &ids_base[*(const size_t *)pa];
	const struct export_run *b = &ids_base[*(const size_t *)pb];
	int c = strcmp(a->run_id, b->run_id);

	if (c)
		return c;
	return a->db_id < b->db_id ? -1 : a->db_id > b->db_id;
}

/* Give every run its stable id; a clash (two runs alike in every key
 * and file) salts the later run's id, in database order, until none is
 * left. */
static void
assign_ids(struct export_model *m)
{
	size_t *idx = xcalloc(m->nall ? m->nall : 1, sizeof(*idx));
	unsigned *salt = xcalloc(m->nall ? m->nall : 1, sizeof(*salt));
	size_t i;
	bool clash;

	for (i = 0; i < m->nall; i++) {
		stable_id(&m->all[i], 0, m->all[i].run_id);
		idx[i] = i;
	}
	ids_base = m->all;
	do {
		clash = false;
		qsort(idx, m->nall, sizeof(*idx), cmp_idx);
		for (i = 1; i < m->nall; i++) {
			struct export_run *r = &m->all[idx[i]];

			if (strcmp(r->run_id, m->all[idx[i - 1]].run_id))
				continue;
			salt[idx[i]]++;
			stable_id(r, salt[idx[i]], r->run_id);
			warning("runs.id %lld has the keys and files of "
			    "another run; its run_id is salted",
			    (long long)r->db_id);
			clash = true;
		}
	} while (clash);
	ids_base = NULL;
	free(idx);
	free(salt);
}

/* The value of partition key k for run r, or NULL. */
static const char *
pkey_value(const struct export_model *m, size_t k, const struct export_run *r,
    char *buf, size_t bufsize)
{
	const char *key = m->pkeys[k];

	if (!strcmp(key, "path"))
		return r->path;
	if (!strcmp(key, "tool"))
		return r->tool;
	if (!strcmp(key, "trial")) {
		snprintf(buf, bufsize, "%lld", (long long)r->trial);
		return buf;
	}
	if (m->pkey_index[k] == (size_t)-1)
		return NULL;
	return r->keyval[m->pkey_index[k]];
}

static const char *
pkey_column(const struct export_model *m, size_t k)
{
	return m->pkey_index[k] == (size_t)-1 ? m->pkeys[k] :
	    m->keys[m->pkey_index[k]].column;
}

/* The partition folder of run r, into sb. */
static void
part_dir(const struct export_model *m, const struct export_run *r,
    struct strbuf *sb)
{
	char buf[32];
	const char *v;
	size_t k;

	for (k = 0; k < m->npkeys; k++) {
		if (k)
			strbuf_addch(sb, '/');
		strbuf_addf(sb, "%s=", pkey_column(m, k));
		v = pkey_value(m, k, r, buf, sizeof(buf));
		if (v)
			export_escape_value(v, sb);
		else
			strbuf_addstr(sb, EXPORT_HIVE_NULL);
	}
}

/* Sort support: each selected run's partition folder, by index. */
static char **sort_dirs;

static int
cmp_run(const void *pa, const void *pb)
{
	const struct export_run *a = pa, *b = pb;
	int c;

	c = strcmp(sort_dirs[a->part], sort_dirs[b->part]);
	if (!c)
		c = strcmp(a->metric, b->metric);
	if (!c)
		c = strcmp(a->path, b->path);
	if (!c)
		c = strcmp(a->condition, b->condition);
	if (!c)
		c = strcmp(a->tool, b->tool);
	if (!c && a->trial != b->trial)
		c = a->trial < b->trial ? -1 : 1;
	if (!c)
		c = strcmp(a->tags, b->tags);
	if (!c)
		c = strcmp(a->run_id, b->run_id);
	return c;
}

static int
cmp_runp(const void *pa, const void *pb)
{
	return cmp_run(*(struct export_run *const *)pa,
	    *(struct export_run *const *)pb);
}

static void
make_parts(struct export_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];
	const char *v;
	size_t i, k, alloc = 0;

	/* run i's folder, temporarily indexed by part = i */
	sort_dirs = xcalloc(m->nruns ? m->nruns : 1, sizeof(*sort_dirs));
	for (i = 0; i < m->nruns; i++) {
		strbuf_reset(&sb);
		part_dir(m, m->runs[i], &sb);
		sort_dirs[i] = xstrdup(sb.buf);
		m->runs[i]->part = i;
	}
	qsort(m->runs, m->nruns, sizeof(*m->runs), cmp_runp);
	for (i = 0; i < m->nruns; i++) {
		struct export_run *r = m->runs[i];
		const char *dir = sort_dirs[r->part];

		if (!m->nparts || strcmp(m->parts[m->nparts - 1].dir, dir)) {
			struct export_part *p;

			ALLOC_GROW(m->parts, m->nparts + 1, alloc);
			p = &m->parts[m->nparts++];
			p->dir = xstrdup(dir);
			p->first = i;
			p->n = 0;
			p->opaque = false;
			p->values = xcalloc(m->npkeys ? m->npkeys : 1,
			    sizeof(*p->values));
			for (k = 0; k < m->npkeys; k++) {
				v = pkey_value(m, k, r, buf, sizeof(buf));
				p->values[k] = v ? xstrdup(v) : NULL;
			}
		}
		m->parts[m->nparts - 1].n++;
	}
	for (i = 0; i < m->nruns; i++)
		free(sort_dirs[m->runs[i]->part]);
	for (i = 0; i < m->nparts; i++) {
		size_t j;

		for (j = m->parts[i].first; j < m->parts[i].first +
		    m->parts[i].n; j++)
			m->runs[j]->part = i;
	}
	free(sort_dirs);
	sort_dirs = NULL;
	strbuf_release(&sb);
}

int
export_model_load(sqlite3 *db, const struct where *w, bool provenance,
    struct export_model *m)
{
	struct strbuf sql = STRBUF_INIT, why = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	size_t i, alloc = 0, nsel = 0;
	int ret = -1, rc;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < w->n; i++) {
		if (export_check_key(db, w->items[i].key, &why)) {
			error("bad --where: %s", why.buf);
			ret = -2;
			goto cleanup;
		}
		/* a value no run has is a typo, not an empty export */
		if (!*w->items[i].value)
			continue;
		rc = keycat_has_value(db, "bad --where: ", w->items[i].key,
		    w->items[i].value, &why);
		if (rc <= 0) {
			if (rc == 0)
				error("%s", why.buf);
			ret = rc == 0 ? -2 : -1;
			goto cleanup;
		}
	}
	if (load_keys(db, provenance, m))
		goto cleanup;
	build_query(m, w, &sql);
	st = db_prepare(db, "list runs", sql.buf);
	if (!st)
		goto cleanup;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(m->all, m->nall + 1, alloc);
		read_run(st, m->nkeys, &m->all[m->nall]);
		nsel += m->all[m->nall].selected;
		m->nall++;
	}
	if (rc != SQLITE_DONE) {
		error("list runs: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	assign_ids(m);
	m->runs = xcalloc(nsel ? nsel : 1, sizeof(*m->runs));
	for (i = 0; i < m->nall; i++)
		if (m->all[i].selected)
			m->runs[m->nruns++] = &m->all[i];
	ret = 0;
cleanup:
	sqlite3_finalize(st);
	strbuf_release(&sql);
	strbuf_release(&why);
	return ret;
}

int
export_model_add_dir(struct export_model *m, const char *dir)
{
	struct export_part *p;
	char *copy, *rest, *seg, *eq;
	size_t i, k = 0;
	int ret = 0;

	for (i = 0; i < m->nparts; i++)
		if (!strcmp(m->parts[i].dir, dir))
			return 0;
	m->parts = xreallocarray(m->parts, m->nparts + 1, sizeof(*m->parts));
	p = &m->parts[m->nparts++];
	memset(p, 0, sizeof(*p));
	p->dir = xstrdup(dir);
	p->first = m->nruns;
	p->values = xcalloc(m->npkeys ? m->npkeys : 1, sizeof(*p->values));
	rest = copy = xstrdup(dir);
	while (*dir && (seg = strsep(&rest, "/")) != NULL) {
		eq = strchr(seg, '=');
		if (!eq || k >= m->npkeys) {
			ret = -1;
			break;
		}
		eq++;
		if (strchr(eq, '~'))
			p->opaque = true;
		/* a value with %XX stays escaped: the DDL then projects
		 * nothing, as for this writer's own escaped values */
		p->values[k++] = strcmp(eq, EXPORT_HIVE_NULL) ? xstrdup(eq) :
		    NULL;
	}
	if (k != m->npkeys)
		ret = -1;
	free(copy);
	return ret;
}

int
export_model_add_key(struct export_model *m, const char *key,
    const char *column)
{
	struct export_key *k;
	size_t i;

	for (i = 0; i < m->nkeys; i++) {
		if (!strcmp(m->keys[i].key, key))
			return strcmp(m->keys[i].column, column) ? -1 : 0;
		if (!strcmp(m->keys[i].column, column))
			return -1;
	}
	for (i = 0; i < m->nextra; i++) {
		if (!strcmp(m->extra[i].key, key))
			return strcmp(m->extra[i].column, column) ? -1 : 0;
		if (!strcmp(m->extra[i].column, column))
			return -1;
	}
	for (i = 0; i < m->npkeys; i++)
		if (!strcmp(m->pkeys[i], key))
			return 0;
	m->extra = xreallocarray(m->extra, m->nextra + 1, sizeof(*m->extra));
	k = &m->extra[m->nextra++];
	k->key = xstrdup(key);
	k->column = xstrdup(column);
	return 0;
}

void
export_model_reselect(struct export_model *m)
{
	size_t i;

	m->nruns = 0;
	for (i = 0; i < m->nall; i++)
		if (m->all[i].selected)
			m->runs[m->nruns++] = &m->all[i];
}

void
export_model_partition(struct export_model *m, char **pkeys, size_t npkeys)
{
	size_t i, k;

	m->npkeys = npkeys;
	m->pkeys = xcalloc(npkeys ? npkeys : 1, sizeof(*m->pkeys));
	m->pkey_index = xcalloc(npkeys ? npkeys : 1, sizeof(*m->pkey_index));
	for (k = 0; k < npkeys; k++) {
		m->pkeys[k] = xstrdup(pkeys[k]);
		m->pkey_index[k] = (size_t)-1;
		for (i = 0; i < m->nkeys; i++)
			if (!strcmp(m->keys[i].key, pkeys[k]))
				m->pkey_index[k] = i;
	}
	make_parts(m);
}

void
export_model_release(struct export_model *m)
{
	size_t i, k;

	for (i = 0; i < m->nkeys; i++) {
		free(m->keys[i].key);
		free(m->keys[i].column);
	}
	free(m->keys);
	if (m->pkeys)
		free_strv(m->pkeys, m->npkeys);
	free(m->pkey_index);
	free(m->runs);
	for (i = 0; i < m->nall; i++)
		run_release(&m->all[i], m->nkeys);
	free(m->all);
	for (i = 0; i < m->nparts; i++) {
		for (k = 0; k < m->npkeys; k++)
			free(m->parts[i].values[k]);
		free(m->parts[i].values);
		free(m->parts[i].dir);
	}
	free(m->parts);
	for (i = 0; i < m->nextra; i++) {
		free(m->extra[i].key);
		free(m->extra[i].column);
	}
	free(m->extra);
	memset(m, 0, sizeof(*m));
}

int
export_model_load_keys(sqlite3 *db, struct export_model *m)
{
	memset(m, 0, sizeof(*m));
	return load_keys(db, false, m);
}

const char *
export_model_column(const struct export_model *m, const char *key)
{
	size_t i;

	for (i = 0; i < m->nkeys; i++)
		if (!strcmp(m->keys[i].key, key))
			return m->keys[i].column;
	return NULL;
}

bool
export_model_has_key(const struct export_model *m, const char *key)
{
	size_t i, j;

	for (i = 0; i < m->nkeys; i++) {
		if (strcmp(m->keys[i].key, key))
			continue;
		for (j = 0; j < m->nruns; j++)
			if (m->runs[j]->keyval[i])
				return true;
	}
	return false;
}

static int
cmp_db_id(const void *key, const void *elem)
{
	int64_t id = *(const int64_t *)key;
	const struct export_run *r = elem;

	return id < r->db_id ? -1 : id > r->db_id;
}

const char *
export_model_run_id(const struct export_model *m, int64_t db_id)
{
	const struct export_run *r = bsearch(&db_id, m->all, m->nall,
	    sizeof(*m->all), cmp_db_id);

	return r ? r->run_id : NULL;
}

bool
export_model_run_selected(const struct export_model *m, int64_t db_id)
{
	const struct export_run *r = bsearch(&db_id, m->all, m->nall,
	    sizeof(*m->all), cmp_db_id);

	return r && r->selected;
}
