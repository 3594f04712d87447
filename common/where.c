/*
 * where.c - --where filters and --by dimensions as SQL over the runs
 * table, with every value quoted by sqlite3_mprintf("%Q").
 */
#include "common/compat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/strbuf.h"
#include "common/err.h"
#include "common/where.h"
#include "common/xalloc.h"

void
where_release(struct where *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		free(w->items[i].key);
		free(w->items[i].value);
	}
	free(w->items);
	memset(w, 0, sizeof(*w));
}

int
where_add(struct where *w, const char *text, struct strbuf *why)
{
	const char *eq = strchr(text, '=');
	char *key, *vals, *p, *v;

	if (!eq || eq == text) {
		strbuf_addf(why, "'%s' is not KEY=VALUE", text);
		return -1;
	}
	key = xstrndup(text, (size_t)(eq - text));
	if (!kv_valid_key(key)) {
		strbuf_addf(why, "bad key in '%s'", text);
		free(key);
		return -1;
	}
	/* an empty alternative (target= or target=,nlb) stands for the
	 * runs that lack the key */
	vals = xstrdup(eq + 1);
	p = vals;
	while ((v = strsep(&p, ",")) != NULL) {
		ALLOC_GROW(w->items, w->n + 1, w->alloc);
		w->items[w->n].key = xstrdup(key);
		w->items[w->n].value = xstrdup(v);
		w->n++;
	}
	free(key);
	free(vals);
	return 0;
}

static void
add_quoted(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	if (!s)
		die("out of memory in sqlite3_vmprintf");
	strbuf_addstr(sb, s);
	sqlite3_free(s);
}

void
dim_sql(const char *key, const char *a, struct strbuf *sql)
{
	if (!strcmp(key, "path")) {
		add_quoted(sql, "(SELECT name FROM paths WHERE id = %s.path_id)", a);
	} else if (!strcmp(key, "trial")) {
		add_quoted(sql, "CAST(%s.trial AS TEXT)", a);
	} else if (!strcmp(key, "tool")) {
		add_quoted(sql, "%s.tool", a);
	} else if (!strcmp(key, "day") || !strcmp(key, "hour")) {
		add_quoted(sql, "coalesce((SELECT value FROM run_tags t WHERE "
		    "t.run_id = %s.id AND t.key = %Q), strftime(%Q, %s.started_at, "
		    "'unixepoch'))", a, key, !strcmp(key, "day") ? "%Y-%m-%d" :
		    "%H", a);
	} else if (!strcmp(key, "instance")) {
		/* one machine: the tag instance, else instance_id, else hostname */
		add_quoted(sql, "coalesce((SELECT value FROM run_tags t WHERE "
		    "t.run_id = %s.id AND t.key = 'instance'), (SELECT value FROM "
		    "run_tags t WHERE t.run_id = %s.id AND t.key = 'instance_id'), "
		    "(SELECT value FROM run_tags t WHERE t.run_id = %s.id AND "
		    "t.key = 'hostname'))", a, a, a);
	} else {
		add_quoted(sql, "coalesce((SELECT value FROM condition_keys ck "
		    "WHERE ck.cond_id = %s.cond_id AND ck.key = %Q), (SELECT value "
		    "FROM run_tags t WHERE t.run_id = %s.id AND t.key = %Q))", a,
		    key, a, key);
	}
}

void
where_sql(const struct where *w, const char *alias, struct strbuf *sql)
{
	size_t i, j;
	bool *done = xcalloc(w->n ? w->n : 1, sizeof(bool));

	for (i = 0; i < w->n; i++) {
		if (done[i])
			continue;
		strbuf_addstr(sql, " AND (");
		for (j = i; j < w->n; j++) {
			if (done[j] || strcmp(w->items[j].key, w->items[i].key))
				continue;
			if (j != i)
				strbuf_addstr(sql, " OR ");
			if (!*w->items[j].value) {
				/* stored values are never empty: '' is
				 * "unset" */
				strbuf_addstr(sql, "coalesce(");
				dim_sql(w->items[j].key, alias, sql);
				strbuf_addstr(sql, ", '') = ''");
			} else {
				dim_sql(w->items[j].key, alias, sql);
				add_quoted(sql, " = %Q", w->items[j].value);
			}
			done[j] = true;
		}
		strbuf_addch(sql, ')');
	}
	free(done);
}
