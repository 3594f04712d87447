/*
 * where.c - --where filters and --by dimensions as SQL over the runs
 * table, with every value an SQL literal by escape_sql_literal
 * (common/escape.c).
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/parse.h"
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

/* Is s all digits, n of them? */
static bool
digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Is end a well-formed end of a range of key (day 2026-11-01, week
 * 2026-W45, month 2026-11, hour 0-23)?  A wrong form would compare as
 * text and select the wrong runs without a word. */
static bool
range_end_ok(const char *key, const char *end)
{
	size_t l = strlen(end);
	long h;

	if (!l)
		return true;
	if (!strcmp(key, "day"))
		return l == 10 && digits(end, 4) && end[4] == '-' &&
		    digits(end + 5, 2) && end[7] == '-' && digits(end + 8, 2);
	if (!strcmp(key, "week"))
		return l == 8 && digits(end, 4) && end[4] == '-' &&
		    end[5] == 'W' && digits(end + 6, 2);
	if (!strcmp(key, "month"))
		return l == 7 && digits(end, 4) && end[4] == '-' &&
		    digits(end + 5, 2);
	if (!strcmp(key, "hour"))
		return !parse_long(end, 0, 23, &h);
	return true;
}

bool
where_range(const char *value, char **lo, char **hi)
{
	const char *dots = strstr(value, "..");

	if (!dots || strstr(dots + 2, ".."))
		return false;
	if (dots == value && !dots[2])
		return false;
	if (lo)
		*lo = xstrndup(value, (size_t)(dots - value));
	if (hi)
		*hi = xstrdup(dots + 2);
	return true;
}

/* Is s a number (then a range compares numerically)? */
static bool
is_number(const char *s)
{
	double d;

	return *s && !parse_double(s, -1e300, 1e300, &d);
}

/* Check and normalize the range FROM..TO of key into *out (hours as
 * two digits, as the hour key reads them); -1 with why. */
static int
range_value(const char *key, const char *v, char **out, struct strbuf *why)
{
	char *lo = NULL, *hi = NULL;
	int ret = -1;

	where_range(v, &lo, &hi);
	if (!range_end_ok(key, lo) || !range_end_ok(key, hi)) {
		strbuf_addf(why, "bad range '%s=%s': %s", key, v,
		    !strcmp(key, "day") ? "want FROM..TO as YYYY-MM-DD" :
		    !strcmp(key, "week") ? "want FROM..TO as YYYY-Www "
		    "(2026-W45)" : !strcmp(key, "month") ? "want FROM..TO as "
		    "YYYY-MM" : "want FROM..TO as hours 0-23");
		goto cleanup;
	}
	if (!strcmp(key, "hour")) {
		long h;

		if (*lo && !parse_long(lo, 0, 23, &h)) {
			free(lo);
			lo = xasprintf("%02ld", h);
		}
		if (*hi && !parse_long(hi, 0, 23, &h)) {
			free(hi);
			hi = xasprintf("%02ld", h);
		}
	}
	if (*lo && *hi && ((is_number(lo) && is_number(hi)) ?
	    strtod(lo, NULL) > strtod(hi, NULL) : strcmp(lo, hi) > 0)) {
		strbuf_addf(why, "bad range '%s=%s': %s comes after %s", key, v,
		    lo, hi);
		goto cleanup;
	}
	*out = xasprintf("%s..%s", lo, hi);
	ret = 0;
cleanup:
	free(lo);
	free(hi);
	return ret;
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
		char *val = NULL;

		if (where_range(v, NULL, NULL)) {
			if (range_value(key, v, &val, why)) {
				free(key);
				free(vals);
				return -1;
			}
		} else {
			val = xstrdup(v);
		}
		ALLOC_GROW(w->items, w->n + 1, w->alloc);
		w->items[w->n].key = xstrdup(key);
		w->items[w->n].value = val;
		w->n++;
	}
	free(key);
	free(vals);
	return 0;
}

void
dim_sql(const char *key, const char *a, struct strbuf *sql)
{
	if (!strcmp(key, "path")) {
		strbuf_addf(sql, "(SELECT name FROM paths WHERE id = %s.path_id)", a);
	} else if (!strcmp(key, "trial")) {
		strbuf_addf(sql, "CAST(%s.trial AS TEXT)", a);
	} else if (!strcmp(key, "tool")) {
		strbuf_addf(sql, "%s.tool", a);
	} else if (!strcmp(key, "week") || !strcmp(key, "month")) {
		/* a tag of that name, else derived from the run's day: the
		 * ISO 8601 week (2026-W45: the week of its Thursday, whose
		 * year it takes) or the month (2026-11) */
		strbuf_addf(sql, "coalesce((SELECT value FROM run_tags t WHERE "
		    "t.run_id = %s.id AND t.key = ", a);
		escape_sql_literal(sql, key, false);
		strbuf_addstr(sql, "), ");
		if (!strcmp(key, "month")) {
			strbuf_addstr(sql, "substr(");
			dim_sql("day", a, sql);
			strbuf_addstr(sql, ", 1, 7))");
			return;
		}
		strbuf_addstr(sql, "(SELECT printf('%s-W%02d', strftime('%Y', "
		    "th), (CAST(strftime('%j', th) AS INTEGER) - 1) / 7 + 1) "
		    "FROM (SELECT date(d, printf('%+d days', 3 - (CAST("
		    "strftime('%w', d) AS INTEGER) + 6) % 7)) AS th FROM "
		    "(SELECT ");
		dim_sql("day", a, sql);
		strbuf_addstr(sql, " AS d))))");
	} else if (!strcmp(key, "day") || !strcmp(key, "hour")) {
		strbuf_addf(sql, "coalesce((SELECT value FROM run_tags t WHERE "
		    "t.run_id = %s.id AND t.key = ", a);
		escape_sql_literal(sql, key, false);
		strbuf_addstr(sql, "), strftime(");
		escape_sql_literal(sql, !strcmp(key, "day") ? "%Y-%m-%d" : "%H",
		    false);
		strbuf_addf(sql, ", %s.started_at, 'unixepoch'))", a);
	} else if (!strcmp(key, "instance")) {
		/* one machine: the tag instance, else instance_id, else hostname */
		strbuf_addf(sql, "coalesce((SELECT value FROM run_tags t WHERE "
		    "t.run_id = %s.id AND t.key = 'instance'), (SELECT value FROM "
		    "run_tags t WHERE t.run_id = %s.id AND t.key = 'instance_id'), "
		    "(SELECT value FROM run_tags t WHERE t.run_id = %s.id AND "
		    "t.key = 'hostname'))", a, a, a);
	} else {
		strbuf_addf(sql, "coalesce((SELECT value FROM condition_keys ck "
		    "WHERE ck.cond_id = %s.cond_id AND ck.key = ", a);
		escape_sql_literal(sql, key, false);
		strbuf_addf(sql, "), (SELECT value FROM run_tags t WHERE "
		    "t.run_id = %s.id AND t.key = ", a);
		escape_sql_literal(sql, key, false);
		strbuf_addstr(sql, "))");
	}
}

/* "(dim >= lo AND dim <= hi)", numerically when both ends are numbers
 * (c=1..16, trial=2..10, hour=09..17), else as text (ISO days, weeks
 * and months sort as text). */
static void
range_sql(const char *key, const char *value, const char *alias,
    struct strbuf *sql)
{
	char *lo = NULL, *hi = NULL;
	bool num;

	where_range(value, &lo, &hi);
	num = (!*lo || is_number(lo)) && (!*hi || is_number(hi)) &&
	    strcmp(key, "day") && strcmp(key, "week") && strcmp(key, "month");
	strbuf_addch(sql, '(');
	if (num)
		strbuf_addstr(sql, "CAST(");
	dim_sql(key, alias, sql);
	if (num)
		strbuf_addstr(sql, " AS REAL)");
	if (*lo) {
		strbuf_addstr(sql, " >= ");
		if (num)
			strbuf_addstr(sql, lo);
		else
			escape_sql_literal(sql, lo, false);
	} else {
		strbuf_addstr(sql, " IS NOT NULL");
	}
	if (*hi) {
		strbuf_addstr(sql, " AND ");
		if (num)
			strbuf_addstr(sql, "CAST(");
		dim_sql(key, alias, sql);
		if (num)
			strbuf_addstr(sql, " AS REAL)");
		strbuf_addstr(sql, " <= ");
		if (num)
			strbuf_addstr(sql, hi);
		else
			escape_sql_literal(sql, hi, false);
	}
	strbuf_addch(sql, ')');
	free(lo);
	free(hi);
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
			} else if (where_range(w->items[j].value, NULL,
			    NULL)) {
				range_sql(w->items[j].key, w->items[j].value,
				    alias, sql);
			} else {
				dim_sql(w->items[j].key, alias, sql);
				strbuf_addstr(sql, " = ");
				escape_sql_literal(sql, w->items[j].value,
				    false);
			}
			done[j] = true;
		}
		strbuf_addch(sql, ')');
	}
	free(done);
}
