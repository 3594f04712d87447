/*
 * keys.c - `pathstat keys`: every key a run can be selected or split by
 * (--where, --by) with its values and how many runs have each: path,
 * trial and tool, the condition keys, the tags, and day, hour and
 * instance as --where and --by derive them.  The values come from the
 * same SQL as --where and --by (dim_sql), so what is listed is what
 * they match.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/keycat.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/table.h"
#include "common/where.h"
#include "common/xalloc.h"

/* At most this many values are named in a "no such value" message. */
#define KEYS_MAX_NAMED	20

/* One key, and where its values come from. */
struct key_def {
	char		*key;		/* owned */
	const char	*kind;		/* static text: run, condition, tag, ... */
};

/* One value of one key (value NULL: runs without the key). */
struct key_value {
	size_t		key;		/* index into the key list */
	char		*value;		/* owned, or NULL */
	int64_t		runs;
};

struct key_list {
	struct key_def		*defs;
	size_t			n, alloc;
};

struct value_list {
	struct key_value	*items;
	size_t			n, alloc;
};

static void
key_list_release(struct key_list *kl)
{
	size_t i;

	for (i = 0; i < kl->n; i++)
		free(kl->defs[i].key);
	free(kl->defs);
	memset(kl, 0, sizeof(*kl));
}

static void
value_list_release(struct value_list *vl)
{
	size_t i;

	for (i = 0; i < vl->n; i++)
		free(vl->items[i].value);
	free(vl->items);
	memset(vl, 0, sizeof(*vl));
}

static long
key_find(const struct key_list *kl, const char *key)
{
	size_t i;

	for (i = 0; i < kl->n; i++)
		if (!strcmp(kl->defs[i].key, key))
			return (long)i;
	return -1;
}

static void
key_add(struct key_list *kl, const char *key, const char *kind)
{
	ALLOC_GROW(kl->defs, kl->n + 1, kl->alloc);
	kl->defs[kl->n].key = xstrdup(key);
	kl->defs[kl->n].kind = kind;
	kl->n++;
}

/* Run the one-column query sql; 1 if it gives a row, 0 if not, -1. */
static int
db_has_row(sqlite3 *db, const char *what, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, what, sql);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return error("%s: %s", what, sqlite3_errmsg(db));
}

/*
 * Every key in the order they are listed: the run's own keys, the
 * condition keys and the tags (sorted; a key that is both is listed
 * once, as --where reads the condition first), then the derived ones.
 */
static int
collect_keys(sqlite3 *db, struct key_list *kl)
{
	sqlite3_stmt *st;
	int rc, has;

	key_add(kl, "path", "run");
	key_add(kl, "trial", "run");
	key_add(kl, "tool", "run");
	st = db_prepare(db, "list condition and tag keys",
	    "SELECT key, max(cond) FROM ("
	    "SELECT DISTINCT ck.key AS key, 1 AS cond FROM condition_keys ck "
	    "WHERE ck.cond_id IN (SELECT cond_id FROM runs) "
	    "UNION SELECT DISTINCT key, 0 FROM run_tags) "
	    "GROUP BY key ORDER BY max(cond) DESC, key");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);

		if (key_find(kl, key) >= 0)
			continue;
		/* day and hour fall back to the start time: listed below */
		if (!strcmp(key, "day") || !strcmp(key, "hour") ||
		    !strcmp(key, "week") || !strcmp(key, "month"))
			continue;
		key_add(kl, key, sqlite3_column_int(st, 1) ? "condition" :
		    keycat_is_provenance(key) ? "provenance tag" : "tag");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("list condition and tag keys: %s", sqlite3_errmsg(db));

	has = db_has_row(db, "look for start times or day tags",
	    "SELECT 1 FROM runs WHERE started_at IS NOT NULL UNION ALL "
	    "SELECT 1 FROM run_tags WHERE key IN ('day', 'hour') LIMIT 1");
	if (has < 0)
		return -1;
	if (has) {
		key_add(kl, "day", "tag, else start time");
		key_add(kl, "hour", "tag, else start time");
		key_add(kl, "week", "tag, else the day's ISO week");
		key_add(kl, "month", "tag, else the day's month");
	}
	/* instance: only when it is more than the tag of that name */
	has = db_has_row(db, "look for instance tags",
	    "SELECT 1 FROM run_tags WHERE key IN ('instance_id', 'hostname') "
	    "LIMIT 1");
	if (has < 0)
		return -1;
	if (has) {
		long i = key_find(kl, "instance");

		if (i >= 0)
			kl->defs[i].kind = "tag, else instance_id or hostname";
		else
			key_add(kl, "instance", "instance_id or hostname tag");
	}
	return 0;
}

/* Append the values of key k among the runs w keeps, with run counts. */
static int
collect_values(sqlite3 *db, const struct key_list *kl, size_t k,
    const struct where *w, struct value_list *out)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	strbuf_addstr(&sql, "SELECT v, count(*) FROM (SELECT ");
	dim_sql(kl->defs[k].key, "r", &sql);
	strbuf_addstr(&sql, " AS v FROM runs r WHERE 1");
	where_sql(w, "r", &sql);
	/* natural order (A, B, G, G', L2; trial 2 before 10), none last */
	strbuf_addstr(&sql, ") GROUP BY v ORDER BY v IS NULL, v COLLATE pathsort");
	st = db_prepare(db, "count runs per value", sql.buf);
	if (!st)
		goto cleanup;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		struct key_value *kv;

		ALLOC_GROW(out->items, out->n + 1, out->alloc);
		kv = &out->items[out->n++];
		kv->key = k;
		kv->value = v ? xstrdup((const char *)v) : NULL;
		kv->runs = sqlite3_column_int64(st, 1);
	}
	if (rc != SQLITE_DONE) {
		error("count runs per value of '%s': %s", kl->defs[k].key,
		    sqlite3_errmsg(db));
		goto cleanup;
	}
	ret = 0;
cleanup:
	sqlite3_finalize(st);
	strbuf_release(&sql);
	return ret;
}

static int
collect_all_values(sqlite3 *db, const struct key_list *kl,
    const struct where *w, struct value_list *out)
{
	size_t k;

	for (k = 0; k < kl->n; k++)
		if (collect_values(db, kl, k, w, out))
			return -1;
	return 0;
}

/*
 * A --where that names a key no run has, or a value no run has, is a
 * usage error naming what exists (an empty value, "runs without the
 * key", is always allowed).  Returns 0, or -1 with the message in why.
 */
static int
check_where(const struct where *w, const struct key_list *kl,
    const struct value_list *all, struct strbuf *why)
{
	size_t i, j, named;
	long k;

	for (i = 0; i < w->n; i++) {
		const char *key = w->items[i].key, *value = w->items[i].value;
		bool found = false;

		k = key_find(kl, key);
		if (k < 0) {
			const char **names = xcalloc(kl->n + 1, sizeof(char *));

			for (j = 0; j < kl->n; j++)
				names[j] = kl->defs[j].key;
			strbuf_addf(why, "no run has the key '%s'", key);
			suggest_append(why, key, names, kl->n);
			free(names);
			strbuf_addstr(why, " (keys:");
			for (j = 0; j < kl->n; j++)
				strbuf_addf(why, "%s %s", j ? "," : "",
				    kl->defs[j].key);
			strbuf_addch(why, ')');
			return -1;
		}
		if (!*value)
			continue;
		for (j = 0; j < all->n && !found; j++)
			found = all->items[j].key == (size_t)k &&
			    all->items[j].value &&
			    !strcmp(all->items[j].value, value);
		if (found)
			continue;
		strbuf_addf(why, "no run has %s=%s (values of %s:", key, value,
		    key);
		for (j = 0, named = 0; j < all->n; j++) {
			if (all->items[j].key != (size_t)k || !all->items[j].value)
				continue;
			if (named == KEYS_MAX_NAMED) {
				strbuf_addstr(why, ", ...");
				break;
			}
			strbuf_addf(why, "%s %s", named ? "," : "",
			    all->items[j].value);
			named++;
		}
		strbuf_addch(why, ')');
		return -1;
	}
	return 0;
}

/* A provenance tag's values (command lines, sessions) are one row,
 * "N values", unless all is set (CSV and JSON, which keep every value
 * for scripts): in text and Markdown every run has its own. */
static void
fill_table(const struct key_list *kl, const struct value_list *vl,
    int64_t nruns, bool all, struct table *t)
{
	struct strbuf sb = STRBUF_INIT, folded = STRBUF_INIT;
	size_t i, row;

	table_add_col(t, "key", "Key", -1);
	table_add_col(t, "kind", "From", -1);
	table_add_col(t, "value", "Value", -1);
	table_add_col(t, "runs", "Runs", -1);
	t->cols[3].right = true;
	for (i = 0; i < vl->n; i++) {
		size_t j;
		bool valued = false;

		/* a key none of the runs kept has would show only "(none)" */
		for (j = 0; j < vl->n && !valued; j++)
			valued = vl->items[j].key == vl->items[i].key &&
			    vl->items[j].value;
		if (!valued)
			continue;
		if (!all && keycat_is_provenance(kl->defs[vl->items[i].key].key)) {
			size_t nv = 0;
			int64_t runs = 0;

			/* the first value stands for the key */
			for (j = 0; j < i; j++)
				if (vl->items[j].key == vl->items[i].key)
					break;
			if (j < i)
				continue;
			for (j = i; j < vl->n; j++)
				if (vl->items[j].key == vl->items[i].key &&
				    vl->items[j].value) {
					nv++;
					runs += vl->items[j].runs;
				}
			row = table_add_row(t);
			table_set_str(t, row, 0, kl->defs[vl->items[i].key].key);
			table_set_str(t, row, 1, kl->defs[vl->items[i].key].kind);
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%zu value%s", nv, nv == 1 ? "" : "s");
			table_set_str(t, row, 2, sb.buf);
			table_set_int(t, row, 3, runs);
			strbuf_addf(&folded, "%s%s", folded.len ? ", " : "",
			    kl->defs[vl->items[i].key].key);
			continue;
		}
		row = table_add_row(t);
		table_set_str(t, row, 0, kl->defs[vl->items[i].key].key);
		table_set_str(t, row, 1, kl->defs[vl->items[i].key].kind);
		if (vl->items[i].value) {
			table_set_str(t, row, 2, vl->items[i].value);
		} else {
			table_set_null(t, row, 2);
			table_set_display_raw(t, row, 2, "(none)");
		}
		table_set_int(t, row, 3, vl->items[i].runs);
	}
	table_add_note(t, "%lld runs. --where KEY=VALUE keeps the runs with "
	    "that value (KEY= those without the key); --by KEY splits by it.",
	    (long long)nruns);
	if (folded.len)
		table_add_note(t, "How the runs were made (%s) is counted, not "
		    "listed: --format csv or json lists each value.",
		    folded.buf);
	strbuf_release(&sb);
	strbuf_release(&folded);
}

static int
count_runs(sqlite3 *db, const struct where *w, int64_t *n)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int ret = -1;

	strbuf_addstr(&sql, "SELECT count(*) FROM runs r WHERE 1");
	where_sql(w, "r", &sql);
	st = db_prepare(db, "count runs", sql.buf);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		*n = sqlite3_column_int64(st, 0);
		ret = 0;
	} else if (st) {
		error("count runs: %s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	strbuf_release(&sql);
	return ret;
}

/* The options of `pathstat keys`, parsed into w, fmt and db_path. */
static enum parseopt_result
keys_parse(struct where *w, enum table_format *fmt, const char **db_path,
    int argc, char **argv)
{
	const struct parseopt opts[] = {
		OPT_DB(db_path),
		OPT_WHERE(w, "count only the runs that match; VALUE may be a "
		    "list (path=A,B)"),
		OPT_FORMAT(fmt),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = {
		.name = "keys",
		.intro =
		    "List the keys runs can be selected by (--where "
		    "KEY=VALUE) and split by (--by KEY): path, trial, tool, "
		    "each condition key, each tag, and day, hour and instance "
		    "as those options derive them; with each value and the "
		    "number of runs that have it.  A run without the key "
		    "counts under no value ('(none)'; --where KEY= selects "
		    "those runs).",
		.opts = opts,
	};
	int nargs;

	return parseopt(&cmd, argc, argv, &nargs);
}

int
cmd_keys(int argc, char **argv)
{
	struct where w = WHERE_INIT, none = WHERE_INIT;
	struct strbuf why = STRBUF_INIT;
	struct key_list kl = { NULL, 0, 0 };
	struct value_list all = { NULL, 0, 0 }, kept = { NULL, 0, 0 };
	struct table t;
	enum table_format fmt = table_format_default();
	enum parseopt_result r;
	const char *db_path = NULL;
	sqlite3 *db = NULL;
	int64_t nruns = 0;
	int ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat keys");
	table_init(&t);
	r = keys_parse(&w, &fmt, &db_path, argc, argv);
	if (r != PARSEOPT_OK) {
		ret = parseopt_exit(r);
		goto cleanup;
	}
	db_path = db_default_path(db_path);
	db = db_open_readonly(db_path);
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (count_runs(db, &none, &nruns)) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (nruns == 0) {
		error("no runs in '%s' (run 'pathstat ingest' first)", db_path);
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (collect_keys(db, &kl) || collect_all_values(db, &kl, &none, &all)) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (check_where(&w, &kl, &all, &why)) {
		error("bad --where: %s", why.buf);
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	if (w.n) {
		if (count_runs(db, &w, &nruns) ||
		    collect_all_values(db, &kl, &w, &kept)) {
			ret = PATHSTAT_EXIT_FAIL;
			goto cleanup;
		}
		if (nruns == 0) {
			error("no run matches all the --where filters together");
			ret = PATHSTAT_EXIT_FAIL;
			goto cleanup;
		}
	}
	fill_table(&kl, w.n ? &kept : &all, nruns,
	    fmt == TABLE_CSV || fmt == TABLE_JSON, &t);
	if (table_render(&t, fmt, stdout))
		ret = PATHSTAT_EXIT_FAIL;
cleanup:
	table_release(&t);
	where_release(&w);
	strbuf_release(&why);
	key_list_release(&kl);
	value_list_release(&all);
	value_list_release(&kept);
	db_close(db);
	return ret;
}
