/*
 * view.c - run_view, the view people open the database for, with one
 * column per tag key (instance_type, day, ...; at most VIEW_TAG_COLUMNS).  SQL has no dynamic
 * columns, so ingest writes the view again whenever the set of tag keys
 * changed (schema/004-roots.sql has its form without tags).
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/store.h"

/* At most this many tag columns (the keys most runs have): SQLite
 * returns at most 2,000 columns, and a database may hold more keys.
 * Every tag stays in the "tags" column. */
#define VIEW_TAG_COLUMNS	200
#define STR_(x)	#x
#define STR(x)	STR_(x)

/* run_view's own columns, in order; the tag columns come after metric. */
static const char *const head_cols[] = {
	"run_id", "path", "condition", "trial", "tool", "metric",
};
static const char *const tail_cols[] = {
	"status", "reason", "failures", "attempts", "started_utc", "tags",
	"file", "summary_file",
};

static const char *const head_sql =
	"r.id AS run_id, p.name AS path, c.canon AS condition, r.trial, "
	"r.tool, m.name AS metric";
static const char *const tail_sql =
	"r.status, r.reason, r.failures, r.attempts, "
	"strftime('%Y-%m-%dT%H:%M:%SZ', r.started_at, 'unixepoch') AS "
	"started_utc, r.tagkey AS tags, f.relpath AS file, "
	"sf.relpath AS summary_file";

/* Is name (case-insensitively, as SQL compares names) taken?  cols has
 * ncols entries, NULL where no name was given yet. */
static bool
col_taken(const char *name, char **cols, size_t ncols)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(head_cols); i++)
		if (!strcasecmp(name, head_cols[i]))
			return true;
	for (i = 0; i < ARRAY_SIZE(tail_cols); i++)
		if (!strcasecmp(name, tail_cols[i]))
			return true;
	for (i = 0; i < ncols; i++)
		if (cols[i] && !strcasecmp(name, cols[i]))
			return true;
	return false;
}

static bool
all_lower(const char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			return false;
	return true;
}

/*
 * The view's SQL for the tag keys in the database.  A tag's column has
 * the tag's own name; one that a column already has (status, file, ...,
 * or another tag's, compared as SQL compares names: ignoring case) is
 * named "tag:NAME", then "tag:NAME:2" and so on.  Keys in lower case
 * are named first, so a tag Day never takes the column of a tag day.
 */
static int
view_sql(sqlite3 *db, struct strbuf *sql)
{
	sqlite3_stmt *st = db_prepare(db, "list tag keys",
	    "SELECT key FROM (SELECT key, count(*) AS n FROM run_tags "
	    "GROUP BY key ORDER BY n DESC, key LIMIT " STR(VIEW_TAG_COLUMNS)
	    ") ORDER BY key");
	char **keys = NULL, **cols = NULL;
	size_t nkeys = 0, alloc = 0, i;
	int rc, pass, ret = -1;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(keys, nkeys + 1, alloc);
		keys[nkeys++] = xstrdup((const char *)sqlite3_column_text(st,
		    0));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		error("list tag keys: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	cols = xcalloc(nkeys ? nkeys : 1, sizeof(*cols));
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nkeys; i++) {
			struct strbuf name = STRBUF_INIT;
			int k = 1;

			if (cols[i] || (pass == 0 && !all_lower(keys[i])))
				continue;
			strbuf_addstr(&name, keys[i]);
			while (col_taken(name.buf, cols, nkeys)) {
				strbuf_reset(&name);
				strbuf_addf(&name, k == 1 ? "tag:%s" :
				    "tag:%s:%d", keys[i], k);
				k++;
			}
			cols[i] = strbuf_detach(&name, NULL);
		}
	}
	strbuf_addf(sql, "CREATE VIEW run_view AS\nSELECT %s", head_sql);
	for (i = 0; i < nkeys; i++) {
		strbuf_addstr(sql, ",\n       (SELECT value FROM run_tags t "
		    "WHERE t.run_id = r.id AND t.key = ");
		escape_sql_literal(sql, keys[i], false);
		strbuf_addstr(sql, ") AS ");
		escape_sql_ident(sql, cols[i], '"');
	}
	strbuf_addf(sql, ",\n       %s\n"
	    "FROM runs r\n"
	    "JOIN paths p ON p.id = r.path_id\n"
	    "JOIN conditions c ON c.id = r.cond_id\n"
	    "JOIN metrics m ON m.id = r.metric\n"
	    "LEFT JOIN files f ON f.id = r.file_id\n"
	    "LEFT JOIN files sf ON sf.id = r.summary_file_id", tail_sql);
	ret = 0;
cleanup:
	for (i = 0; i < nkeys; i++) {
		free(keys[i]);
		if (cols)
			free(cols[i]);
	}
	free(keys);
	free(cols);
	return ret;
}

int
store_refresh_run_view(sqlite3 *db)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	bool same = false;
	int ret = -1;

	if (db_begin(db))
		return -1;
	if (view_sql(db, &sql))
		goto cleanup;
	st = db_prepare(db, "read run_view",
	    "SELECT sql FROM sqlite_schema WHERE type = 'view' AND "
	    "name = 'run_view'");
	if (!st)
		goto cleanup;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		same = !strcmp((const char *)sqlite3_column_text(st, 0),
		    sql.buf);
	sqlite3_finalize(st);
	if (!same && (db_exec(db, "replace run_view",
	    "DROP VIEW IF EXISTS run_view") ||
	    db_exec(db, "replace run_view", sql.buf)))
		goto cleanup;
	ret = 0;
cleanup:
	if (ret || db_commit(db)) {
		db_rollback(db);
		ret = -1;
	}
	strbuf_release(&sql);
	return ret;
}
