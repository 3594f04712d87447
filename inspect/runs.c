/*
 * runs.c - `pathstat runs`: list the runs in the database with their
 * keys, tags, sample counts, status and source file, as md, csv or json.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/keycat.h"
#include "common/parseopt.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "inspect/inspect.h"

/* The columns Markdown shows by default (with the tags whose value
 * differs between the runs listed): what tells runs apart. */
static const char *const compact_cols[] = {
	"path", "condition", "trial", "tool", "metric", "samples", "failures",
	"status",
};

/* Every tag key in use, sorted: one column each. */
static int
tag_keys(sqlite3 *db, char ***keys, size_t *nkeys)
{
	sqlite3_stmt *st = db_prepare(db, "list tag keys",
	    "SELECT DISTINCT key FROM run_tags ORDER BY key");
	size_t alloc = 0;

	*keys = NULL;
	*nkeys = 0;
	if (!st)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(*keys, *nkeys + 1, alloc);
		(*keys)[(*nkeys)++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return 0;
}

static void
set_text_col(struct table *t, size_t row, size_t col, sqlite3_stmt *st, int i)
{
	const unsigned char *v = sqlite3_column_text(st, i);

	if (v)
		table_set_str(t, row, col, (const char *)v);
}

/* Does the comma-separated list name name? */
static bool
list_names(const char *list, const char *name)
{
	size_t l = strlen(name);

	while (list && *list) {
		size_t n = strcspn(list, ",");

		if (n == l && !strncmp(list, name, l))
			return true;
		list += n + (list[n] == ',');
	}
	return false;
}

/*
 * Add to keys the time keys (day, hour, week, month) that columns names
 * and no tag is called: they are derived from the start time and day as
 * --where and --by derive them (where.c), so --columns hour shows what
 * --by hour splits on.  Returns how many were added; they are the last
 * of keys.
 */
static size_t
derived_keys(const char *columns, char ***keys, size_t *nkeys)
{
	static const char *const time_keys[] = { "day", "hour", "week",
	    "month" };
	size_t i, j, added = 0;

	for (i = 0; i < ARRAY_SIZE(time_keys); i++) {
		bool have = false;

		if (!list_names(columns, time_keys[i]))
			continue;
		for (j = 0; j < *nkeys; j++)
			have = have || !strcmp((*keys)[j], time_keys[i]);
		if (have)
			continue;
		*keys = xreallocarray(*keys, *nkeys + 1, sizeof(**keys));
		(*keys)[(*nkeys)++] = xstrdup(time_keys[i]);
		added++;
	}
	return added;
}

static int
list_runs(sqlite3 *db, const struct where *w, const char *columns,
    struct table *t)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL, *tagst = NULL;
	char **keys = NULL;
	size_t nkeys = 0, i, base, nderived;
	int ret = -1, rc;

	if (tag_keys(db, &keys, &nkeys))
		goto cleanup;
	nderived = derived_keys(columns, &keys, &nkeys);
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	table_add_col(t, "trial", "Trial", -1);
	table_add_col(t, "tool", "Tool", -1);
	table_add_col(t, "metric", "Metric", -1);
	base = t->ncols;
	for (i = 0; i < nkeys; i++)
		table_add_col(t, keys[i], keys[i], -1);
	table_add_col(t, "samples", "Samples", -1);
	table_add_col(t, "failures", "Failures", -1);
	table_add_col(t, "status", "Status", -1);
	table_add_col(t, "reason", "Reason", -1);
	table_add_col(t, "started_utc", "Started (UTC)", -1);
	table_add_col(t, "file", "File", -1);
	table_add_col(t, "summary_file", "Summary file", -1);
	table_add_col(t, "conflict", "Conflict", -1);
	t->cols[table_col(t, "reason")].md_hidden = true;
	t->cols[table_col(t, "summary_file")].md_hidden = true;

	strbuf_addstr(&sql,
	    "SELECT r.id, p.name, c.canon, r.trial, r.tool, m.name, "
	    "(SELECT coalesce(sum(s.rows - s.failed), 0) FROM series s WHERE s.run_id = r.id AND s.metric = r.metric), "
	    "r.failures, r.status, r.reason, "
	    "strftime('%Y-%m-%dT%H:%M:%SZ', r.started_at, 'unixepoch'), "
	    "coalesce(f.relpath, sf.relpath), CASE WHEN f.id IS NULL THEN NULL "
	    "ELSE sf.relpath END, "
	    "(SELECT count(*) FROM runs r2 WHERE r2.path_id = r.path_id AND "
	    "r2.cond_id = r.cond_id AND r2.trial = r.trial AND r2.tool = r.tool "
	    "AND r2.tagkey = r.tagkey AND r2.metric = r.metric) > 1, "
	    "r.attempts, f.id IS NULL");
	for (i = nkeys - nderived; i < nkeys; i++) {
		strbuf_addstr(&sql, ", ");
		dim_sql(keys[i], "r", &sql);
	}
	runsel_join_sql(&sql, RUNSEL_JOIN_METRICS);
	strbuf_addstr(&sql, " WHERE 1");
	where_sql(w, "r", &sql);
	strbuf_addstr(&sql, " ORDER BY p.name COLLATE pathsort, c.canon, r.tool, "
	    "r.trial, r.id");
	st = db_prepare(db, "list runs", sql.buf);
	tagst = db_prepare(db, "read run tags",
	    "SELECT key, value FROM run_tags WHERE run_id = ?1");
	if (!st || !tagst)
		goto cleanup;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t row = table_add_row(t);

		set_text_col(t, row, 0, st, 1);
		set_text_col(t, row, 1, st, 2);
		table_set_int(t, row, 2, sqlite3_column_int64(st, 3));
		set_text_col(t, row, 3, st, 4);
		set_text_col(t, row, 4, st, 5);
		sqlite3_reset(tagst);
		sqlite3_bind_int64(tagst, 1, sqlite3_column_int64(st, 0));
		while (sqlite3_step(tagst) == SQLITE_ROW) {
			long col = table_col(t, (const char *)
			    sqlite3_column_text(tagst, 0));

			if (col >= (long)base)
				table_set_str(t, row, (size_t)col, (const char *)
				    sqlite3_column_text(tagst, 1));
		}
		table_set_int(t, row, base + nkeys, sqlite3_column_int64(st, 6));
		/* a run of the tool's summary alone (oha JSON): no samples,
		 * but the tool counted its requests; "0" would read empty */
		if (sqlite3_column_int64(st, 6) == 0 &&
		    sqlite3_column_type(st, 14) != SQLITE_NULL &&
		    sqlite3_column_int64(st, 14) > 0 &&
		    sqlite3_column_int(st, 15)) {
			struct strbuf d = STRBUF_INIT;

			strbuf_addf(&d, "%lld (%s's count; summary only)",
			    (long long)(sqlite3_column_int64(st, 14) -
			    sqlite3_column_int64(st, 7)), (const char *)
			    sqlite3_column_text(st, 4));
			table_set_display(t, row, base + nkeys, d.buf);
			strbuf_release(&d);
		}
		table_set_int(t, row, base + nkeys + 1, sqlite3_column_int64(st, 7));
		set_text_col(t, row, base + nkeys + 2, st, 8);
		set_text_col(t, row, base + nkeys + 3, st, 9);
		set_text_col(t, row, base + nkeys + 4, st, 10);
		set_text_col(t, row, base + nkeys + 5, st, 11);
		set_text_col(t, row, base + nkeys + 6, st, 12);
		table_set_int(t, row, base + nkeys + 7, sqlite3_column_int(st, 13));
		if (sqlite3_column_int(st, 13))
			table_set_display(t, row, base + nkeys + 7, "CONFLICT");
		else
			table_set_display(t, row, base + nkeys + 7, "");
		for (i = nkeys - nderived; i < nkeys; i++)
			set_text_col(t, row, base + i, st,
			    16 + (int)(i - (nkeys - nderived)));
	}
	if (rc != SQLITE_DONE) {
		error("list runs: %s", sqlite3_errmsg(db));
		goto cleanup;
	}
	ret = 0;
cleanup:
	sqlite3_finalize(st);
	sqlite3_finalize(tagst);
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	strbuf_release(&sql);
	return ret;
}

static int
list_files(sqlite3 *db, struct table *t)
{
	sqlite3_stmt *st = db_prepare(db, "list files",
	    "SELECT relpath, kind, tool_version, status, reason, size, "
	    "(SELECT count(*) FROM runs r WHERE r.file_id = files.id OR "
	    "r.summary_file_id = files.id), ingested_at "
	    "FROM files ORDER BY relpath COLLATE pathsort");
	int rc, i;

	if (!st)
		return -1;
	table_add_col(t, "file", "File", -1);
	table_add_col(t, "kind", "Kind", -1);
	table_add_col(t, "tool_version", "Tool version", -1);
	table_add_col(t, "status", "Status", -1);
	table_add_col(t, "reason", "Reason", -1);
	table_add_col(t, "size", "Bytes", -1);
	table_add_col(t, "runs", "Runs", -1);
	table_add_col(t, "ingested_at", "Ingested (UTC)", -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t row = table_add_row(t);

		for (i = 0; i < 5; i++)
			set_text_col(t, row, (size_t)i, st, i);
		table_set_int(t, row, 5, sqlite3_column_int64(st, 5));
		table_set_int(t, row, 6, sqlite3_column_int64(st, 6));
		set_text_col(t, row, 7, st, 7);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("list files: %s", sqlite3_errmsg(db));
	return 0;
}

/* Does column c of t hold more than one value (NULL counts as one)? */
static bool
col_varies(const struct table *t, size_t c)
{
	size_t r;

	for (r = 1; r < t->nrows; r++) {
		const struct table_cell *a = &t->cells[c];
		const struct table_cell *b = &t->cells[r * t->ncols + c];

		if (a->type != b->type || (a->type == CELL_STR &&
		    strcmp(a->str, b->str)))
			return true;
	}
	return false;
}

/*
 * Markdown's compact view of the runs table: the compact columns, the
 * tags that differ between rows, and conflict when a row has one; the
 * others are hidden and named in a note, with the tags every run shares.
 */
static void
compact(struct table *t)
{
	struct strbuf hidden = STRBUF_INIT, same = STRBUF_INIT;
	struct strbuf prov = STRBUF_INIT;
	long first_tag = table_col(t, "metric") + 1;
	long last_tag = table_col(t, "samples");
	size_t c, i;

	for (c = 0; c < t->ncols; c++) {
		const char *k = t->cols[c].key;
		bool tag = (long)c >= first_tag && (long)c < last_tag;
		bool show = false;

		for (i = 0; i < ARRAY_SIZE(compact_cols); i++)
			if (!strcmp(k, compact_cols[i]))
				show = true;
		/* provenance (command lines, session, kernel) differs from
		 * run to run without telling measurements apart */
		if (tag && t->nrows && col_varies(t, c)) {
			if (!keycat_is_provenance(k))
				show = true;
			else
				strbuf_addf(&prov, "%s%s", prov.len ? ", " :
				    "", k);
		}
		if (!strcmp(k, "conflict"))
			for (i = 0; i < t->nrows; i++)
				if (t->cells[i * t->ncols + c].type ==
				    CELL_INT && t->cells[i * t->ncols + c].i)
					show = true;
		if (show)
			continue;
		t->cols[c].md_hidden = true;
		if (tag) {
			/* the same on every row, or no row has the tag */
			if (keycat_is_provenance(k)) {
				if (t->nrows && !col_varies(t, c))
					strbuf_addf(&prov, "%s%s", prov.len ?
					    ", " : "", k);
				continue;
			}
			if (t->nrows && t->cells[c].type == CELL_STR)
				strbuf_addf(&same, "%s%s=%s", same.len ?
				    ", " : "", k, t->cells[c].str);
			continue;
		}
		strbuf_addf(&hidden, "%s%s", hidden.len ? ", " : "", k);
	}
	if (same.len)
		table_add_note(t, "Every run listed has %s.", same.buf);
	if (prov.len)
		table_add_note(t, "Not shown: how the runs were made (%s; "
		    "--columns all or --columns KEY shows them).", prov.buf);
	if (hidden.len)
		table_add_note(t, "Not shown: %s (--columns all shows every "
		    "column, --columns LIST the ones named).", hidden.buf);
	strbuf_release(&hidden);
	strbuf_release(&same);
	strbuf_release(&prov);
}

/*
 * Keep only the columns named in list (comma-separated keys of t, in
 * that order; "all": every column, shown in Markdown too).  Returns 0,
 * or -1 after naming an unknown column and the ones that exist.
 */
static int
select_columns(struct table *t, const char *list)
{
	struct table out;
	struct strbuf name = STRBUF_INIT, known = STRBUF_INIT;
	size_t *pick = NULL, n = 0, alloc = 0, c, r;
	const char *p = list;
	int ret = -1;

	if (!strcmp(list, "all")) {
		for (c = 0; c < t->ncols; c++)
			t->cols[c].md_hidden = false;
		return 0;
	}
	table_init(&out);
	for (;;) {
		size_t len = strcspn(p, ",");
		long col;

		strbuf_reset(&name);
		strbuf_add(&name, p, len);
		col = table_col(t, name.buf);
		if (col < 0) {
			for (c = 0; c < t->ncols; c++)
				strbuf_addf(&known, "%s%s", c ? ", " : "",
				    t->cols[c].key);
			error("--columns: no column '%s' (columns: %s, or all)",
			    name.buf, known.buf);
			goto cleanup;
		}
		ALLOC_GROW(pick, n + 1, alloc);
		pick[n++] = (size_t)col;
		if (!p[len])
			break;
		p += len + 1;
	}
	for (c = 0; c < n; c++)
		table_add_col(&out, t->cols[pick[c]].key,
		    t->cols[pick[c]].header, t->cols[pick[c]].decimals);
	for (r = 0; r < t->nrows; r++) {
		size_t row = table_add_row(&out);

		for (c = 0; c < n; c++)
			table_copy_cell(&out, row, c, t, r, pick[c]);
	}
	table_release(t);
	*t = out;
	table_init(&out);
	ret = 0;
cleanup:
	table_release(&out);
	strbuf_release(&name);
	strbuf_release(&known);
	free(pick);
	return ret;
}

/* --columns: names separated by commas (checked against the table
 * later, when its columns are known), or all. */
static int
opt_columns(const struct parseopt *opt, const char *arg, struct strbuf *why)
{
	if (!*arg || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,") ||
	    *arg == ',') {
		strbuf_addstr(why, "want column names separated by commas, "
		    "or all");
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

/* What `pathstat runs` was asked. */
struct runs_args {
	struct where		where;		/* --where */
	enum table_format	fmt;		/* --format */
	const char		*db_path;	/* --db; borrowed */
	const char		*columns;	/* --columns; borrowed */
	bool			files;		/* --files */
};

/* The options of `pathstat runs`, parsed into a. */
static enum parseopt_result
runs_parse(struct runs_args *a, int argc, char **argv)
{
	const struct parseopt opts[] = {
		OPT_DB(&a->db_path),
		OPT_WHERE(&a->where, "keep runs whose path, trial, tool, "
		    "condition key or tag matches; VALUE may be a list "
		    "(path=A,B)"),
		OPT_FORMAT(&a->fmt),
		OPT_CALLBACK(0, "columns", &a->columns, "LIST|all",
		    opt_columns, 0, "only these columns, in this order, in "
		    "every format (all: every column).  Without it, text and "
		    "md show path, condition, trial, tool, metric, the tags "
		    "that differ between the runs, samples, failures, status "
		    "(and conflict when there is one); csv and json keep "
		    "every column, the stable contract"),
		OPT_FLAG(0, "files", &a->files, "list files, not runs"),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = {
		.name = "runs",
		.intro =
		    "List what the database holds: one row per run (path, "
		    "condition,\ntrial, tool, each tag, samples (successful), "
		    "failures, status,\nsource file).  Runs that claim the "
		    "same path, condition, trial, tool and tags are marked as "
		    "conflicts.  --files lists the ingested files instead, "
		    "with their status (ok, partial, rejected, skipped) and "
		    "reason.",
		.opts = opts,
	};
	int nargs;

	return parseopt(&cmd, argc, argv, &nargs);
}

int
cmd_runs(int argc, char **argv)
{
	struct runs_args a = { WHERE_INIT, TABLE_MD, NULL, NULL, false };
	struct where *w = &a.where;
	struct strbuf why = STRBUF_INIT;
	struct table t;
	enum parseopt_result r;
	sqlite3 *db = NULL;
	int ret = PATHSTAT_EXIT_OK;

	err_set_prefix("pathstat runs");
	table_init(&t);
	a.fmt = table_format_default();
	r = runs_parse(&a, argc, argv);
	if (r != PARSEOPT_OK) {
		ret = parseopt_exit(r);
		goto cleanup;
	}
	db = db_open_readonly(db_default_path(a.db_path));
	if (!db) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (!a.files && w->n) {
		struct keycat_query kq = { w, NULL, 0, NULL, 0 };
		int rc = keycat_check(db, &kq, &why);

		if (rc) {
			if (rc > 0)
				error("%s", why.buf);
			ret = rc > 0 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
			goto cleanup;
		}
	}
	if (a.files ? list_files(db, &t) : list_runs(db, w, a.columns, &t)) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
	if (!a.files && w->n && t.nrows == 0) {
		/* every name exists (above): together they match nothing */
		error("no run matches all the --where filters together");
		ret = PATHSTAT_EXIT_FAIL;
	}
	if (a.columns && select_columns(&t, a.columns)) {
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	if (!a.columns && !a.files &&
	    (a.fmt == TABLE_MD || a.fmt == TABLE_TEXT))
		compact(&t);
	if (table_render(&t, a.fmt, stdout)) {
		ret = PATHSTAT_EXIT_FAIL;
		goto cleanup;
	}
cleanup:
	table_release(&t);
	where_release(w);
	strbuf_release(&why);
	db_close(db);
	return ret;
}
