/*
 * keycat.c - the keys and values runs have, read with the same SQL as
 * --where and --by (where.c's dim_sql), so what is accepted is what
 * they can match; see keycat.h.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/db.h"
#include "common/err.h"
#include "common/keycat.h"
#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/xalloc.h"

/* At most this many values are named in a message. */
#define KEYCAT_MAX_NAMED	20

struct names {
	char	**v;
	size_t	n, alloc;
};

static void
names_release(struct names *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static bool
names_has(const struct names *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

static void
names_add(struct names *l, const char *s)
{
	if (names_has(l, s))
		return;
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrdup(s);
}

/*
 * The memo of keycat_memo_begin: the keys, and the values of each key
 * asked about, of one database, read once while the memo is on.  A
 * report validates every section against the same read-only database:
 * without the memo it listed the keys (and the values of each key a
 * section names) once per section.
 */
struct memo_values {
	char		*key;		/* owned */
	struct names	vals;		/* owned */
};

static struct {
	sqlite3			*db;	/* NULL: memo off */
	bool			have_keys;
	struct names		keys;	/* owned */
	struct memo_values	*values;	/* owned */
	size_t			nvalues, alloc;
	unsigned long		queries;	/* catalogue queries run */
} memo;

static void
names_copy(struct names *to, const struct names *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		names_add(to, from->v[i]);
}

/* Append the first column of every row of sql; -1 after printing. */
static int
names_query(sqlite3 *db, const char *what, const char *sql, struct names *l)
{
	sqlite3_stmt *st = db_prepare(db, what, sql);
	int rc;

	memo.queries++;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (sqlite3_column_type(st, 0) != SQLITE_NULL)
			names_add(l, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", what, sqlite3_errmsg(db));
	return 0;
}

static int all_keys_read(sqlite3 *db, struct names *l);

/* Every key in the order `pathstat keys` lists them: the run's own, the
 * condition keys, the tags, then day, hour and instance; from the memo
 * when it is on for db. */
static int
all_keys(sqlite3 *db, struct names *l)
{
	if (memo.db != db)
		return all_keys_read(db, l);
	if (!memo.have_keys) {
		if (all_keys_read(db, &memo.keys)) {
			names_release(&memo.keys);
			return -1;
		}
		memo.have_keys = true;
	}
	names_copy(l, &memo.keys);
	return 0;
}

static int
all_keys_read(sqlite3 *db, struct names *l)
{
	struct names q = { NULL, 0, 0 };
	size_t i;

	names_add(l, "path");
	names_add(l, "trial");
	names_add(l, "tool");
	if (names_query(db, "list condition and tag keys",
	    "SELECT key FROM (SELECT DISTINCT ck.key AS key, 1 AS cond "
	    "FROM condition_keys ck WHERE ck.cond_id IN (SELECT cond_id FROM "
	    "runs) UNION SELECT DISTINCT key, 0 FROM run_tags) "
	    "GROUP BY key ORDER BY max(cond) DESC, key", &q)) {
		names_release(&q);
		return -1;
	}
	/* day and hour fall back to the start time, week and month to
	 * the day: listed last */
	for (i = 0; i < q.n; i++)
		if (strcmp(q.v[i], "day") && strcmp(q.v[i], "hour") &&
		    strcmp(q.v[i], "week") && strcmp(q.v[i], "month"))
			names_add(l, q.v[i]);
	names_release(&q);
	names_add(l, "day");
	names_add(l, "hour");
	names_add(l, "week");
	names_add(l, "month");
	/* instance falls back to instance_id and hostname (where.c) */
	if (names_has(l, "instance_id") || names_has(l, "hostname"))
		names_add(l, "instance");
	return 0;
}

/* "(keys: a, b, c)" or "(values of k: ...)", at most KEYCAT_MAX_NAMED. */
static void
names_list(struct strbuf *sb, const char *label, const struct names *l)
{
	size_t i;

	strbuf_addf(sb, " (%s:", label);
	for (i = 0; i < l->n; i++) {
		if (i == KEYCAT_MAX_NAMED) {
			strbuf_addf(sb, ", ... %zu in all", l->n);
			break;
		}
		strbuf_addf(sb, "%s %s", i ? "," : "", l->v[i]);
	}
	strbuf_addch(sb, ')');
}

static int
check_key(const struct names *keys, const char *opt, const char *key,
    struct strbuf *why)
{
	if (names_has(keys, key))
		return 0;
	strbuf_addf(why, "%sno run has the key '%s'", opt, key);
	suggest_append(why, key, (const char *const *)keys->v, keys->n);
	names_list(why, "keys", keys);
	return 1;
}

int
keycat_has_key(sqlite3 *db, const char *key, struct strbuf *why)
{
	struct names keys = { NULL, 0, 0 };
	int ret;

	if (all_keys(db, &keys)) {
		names_release(&keys);
		return -1;
	}
	ret = check_key(&keys, "", key, why) ? 0 : 1;
	names_release(&keys);
	return ret;
}

static int key_values_read(sqlite3 *db, const char *key, struct names *l);

/* The values key takes among the runs, in natural order; from the memo
 * when it is on for db. */
static int
key_values(sqlite3 *db, const char *key, struct names *l)
{
	struct memo_values *m;
	size_t i;

	if (memo.db != db)
		return key_values_read(db, key, l);
	for (i = 0; i < memo.nvalues; i++)
		if (!strcmp(memo.values[i].key, key)) {
			names_copy(l, &memo.values[i].vals);
			return 0;
		}
	ALLOC_GROW(memo.values, memo.nvalues + 1, memo.alloc);
	m = &memo.values[memo.nvalues];
	memset(m, 0, sizeof(*m));
	if (key_values_read(db, key, &m->vals)) {
		names_release(&m->vals);
		return -1;
	}
	m->key = xstrdup(key);
	memo.nvalues++;
	names_copy(l, &m->vals);
	return 0;
}

static int
key_values_read(sqlite3 *db, const char *key, struct names *l)
{
	struct strbuf sql = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sql, "SELECT DISTINCT v FROM (SELECT ");
	dim_sql(key, "r", &sql);
	strbuf_addstr(&sql, " AS v FROM runs r) WHERE v IS NOT NULL "
	    "ORDER BY v COLLATE pathsort");
	ret = names_query(db, "list the values of a key", sql.buf, l);
	strbuf_release(&sql);
	return ret;
}

/* 0 when some run has key=value, 1 (why says what exists), -1. */
static int
check_value(sqlite3 *db, const char *opt, const char *key,
    const char *value, struct strbuf *why)
{
	struct names vals = { NULL, 0, 0 };
	struct strbuf label = STRBUF_INIT;
	int ret = -1;

	if (key_values(db, key, &vals))
		goto cleanup;
	ret = 0;
	if (where_range(value, NULL, NULL)) {
		/* a range: some run must fall in it */
		struct where one = WHERE_INIT;
		struct kv it = { (char *)key, (char *)value };
		int rc;

		one.items = &it;
		one.n = 1;
		rc = keycat_matches(db, &one);
		if (rc < 0) {
			ret = -1;
			goto cleanup;
		}
		if (rc)
			goto cleanup;
		ret = 1;
		strbuf_addf(why, "%sno run has %s in %s", opt, key, value);
		strbuf_addf(&label, "values of %s", key);
		names_list(why, label.buf, &vals);
		goto cleanup;
	}
	if (names_has(&vals, value))
		goto cleanup;
	ret = 1;
	if (!strcmp(key, "path"))
		strbuf_addf(why, "%sno run has the path '%s'", opt, value);
	else
		strbuf_addf(why, "%sno run has %s=%s", opt, key, value);
	suggest_append(why, value, (const char *const *)vals.v, vals.n);
	if (!strcmp(key, "path"))
		strbuf_addstr(&label, "paths");
	else
		strbuf_addf(&label, "values of %s", key);
	names_list(why, label.buf, &vals);
cleanup:
	names_release(&vals);
	strbuf_release(&label);
	return ret;
}

int
keycat_has_value(sqlite3 *db, const char *opt, const char *key,
    const char *value, struct strbuf *why)
{
	int rc = check_value(db, opt, key, value, why);

	return rc < 0 ? -1 : !rc;
}

int
keycat_check(sqlite3 *db, const struct keycat_query *q, struct strbuf *why)
{
	struct names keys = { NULL, 0, 0 };
	size_t i;
	int ret = -1, rc;

	if (all_keys(db, &keys))
		goto cleanup;
	ret = 1;
	for (i = 0; q->where && i < q->where->n; i++) {
		const struct kv *it = &q->where->items[i];

		/* An empty value stands for the runs without the key: every
		 * run lacks a key none has, so a shared spec can say
		 * target= on a database without targets.  A near miss of a
		 * key that exists is still worth a word. */
		if (!*it->value) {
			const char *near = names_has(&keys, it->key) ? NULL :
			    suggest_best(it->key, (const char *const *)keys.v,
			    keys.n);

			if (near)
				warning("--where %s=: no run has the key '%s', so "
				    "it keeps every run; did you mean '%s'?",
				    it->key, it->key, near);
			continue;
		}
		if (check_key(&keys, "bad --where: ", it->key, why))
			goto cleanup;
		rc = check_value(db, "bad --where: ", it->key, it->value, why);
		if (rc) {
			ret = rc;
			goto cleanup;
		}
	}
	for (i = 0; i < q->nby; i++)
		if (check_key(&keys, "bad --by: ", q->by[i], why))
			goto cleanup;
	for (i = 0; i < q->npaths; i++) {
		rc = check_value(db, "bad --paths: ", "path", q->paths[i], why);
		if (rc) {
			ret = rc;
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	names_release(&keys);
	return ret;
}

int
keycat_is_condition_key(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st = db_prepare(db, "look for a condition key",
	    "SELECT 1 FROM condition_keys WHERE key = ?1 AND cond_id IN "
	    "(SELECT cond_id FROM runs) LIMIT 1");
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return error("look for a condition key: %s", sqlite3_errmsg(db));
}

int
keycat_matches(sqlite3 *db, const struct where *w)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	strbuf_addstr(&sql, "SELECT 1 FROM runs r WHERE 1");
	where_sql(w, "r", &sql);
	strbuf_addstr(&sql, " LIMIT 1");
	st = db_prepare(db, "match runs", sql.buf);
	strbuf_release(&sql);
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return error("match runs: %s", sqlite3_errmsg(db));
}

void
keycat_memo_begin(sqlite3 *db)
{
	keycat_memo_end();
	memo.db = db;
}

void
keycat_memo_end(void)
{
	size_t i;

	for (i = 0; i < memo.nvalues; i++) {
		free(memo.values[i].key);
		names_release(&memo.values[i].vals);
	}
	free(memo.values);
	names_release(&memo.keys);
	memo.db = NULL;
	memo.have_keys = false;
	memo.values = NULL;
	memo.nvalues = memo.alloc = 0;
}

unsigned long
keycat_queries(void)
{
	return memo.queries;
}

const char keycat_provenance_list[] = KEYCAT_PROVENANCE_LIST;

bool
keycat_is_provenance(const char *key)
{
	static const char *const keys[] = {
		"command", "collector", "collector_command", "hostname",
		"kernel", "session", "pathprobe_version", "iperf3_version",
		"oha_version",
	};
	size_t i;

	for (i = 0; key && i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}
