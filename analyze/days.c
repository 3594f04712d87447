/*
 * days.c - the day each run was measured on (the tag day, else the UTC
 * date of its start, as --by day reads it), for compare's day-level
 * test: trials of one day share its day effect, so a comparison of
 * groups measured on different days replicates days, not trials.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "common/db.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"

static int
cmp_run(const void *a, const void *b)
{
	const struct run_day *x = a, *y = b;

	return x->run < y->run ? -1 : x->run > y->run;
}

int
daymap_load(sqlite3 *db, struct daymap *m)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	strbuf_addstr(&sql, "SELECT r.id, ");
	dim_sql("day", "r", &sql);
	strbuf_addstr(&sql, " FROM runs r");
	st = db_prepare(db, "read the runs' days", sql.buf);
	strbuf_release(&sql);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(st, 1);

		ALLOC_GROW(m->runs, m->n + 1, alloc);
		m->runs[m->n].run = sqlite3_column_int64(st, 0);
		m->runs[m->n].day = xstrdup(d ? d : "");
		m->n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		daymap_release(m);
		return error("read the runs' days: %s", sqlite3_errmsg(db));
	}
	if (m->n)
		qsort(m->runs, m->n, sizeof(*m->runs), cmp_run);
	return 0;
}

const char *
daymap_day(const struct daymap *m, int64_t run)
{
	struct run_day key = { run, NULL }, *r;

	if (!m->n)
		return "";
	r = bsearch(&key, m->runs, m->n, sizeof(*m->runs), cmp_run);
	return r ? r->day : "";
}

void
daymap_release(struct daymap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->runs[i].day);
	free(m->runs);
	memset(m, 0, sizeof(*m));
}

struct tagged_day {
	const char	*day;
	double		v;
};

static int
cmp_tagged(const void *a, const void *b)
{
	const struct tagged_day *x = a, *y = b;

	return strcmp(x->day, y->day);
}

size_t
day_values(const char *const *day, const double *v, size_t n,
    struct day_value **out)
{
	struct tagged_day *t = xcalloc(n + 1, sizeof(*t));
	struct day_value *dv = xcalloc(n + 1, sizeof(*dv));
	size_t i, j, k = 0, m = 0;

	for (i = 0; i < n; i++)
		if (v[i] > 0 && isfinite(v[i])) {
			t[m].day = day[i];
			t[m].v = log(v[i]);
			m++;
		}
	qsort(t, m, sizeof(*t), cmp_tagged);
	for (i = 0; i < m; i = j) {
		double s = 0;

		for (j = i; j < m && !strcmp(t[j].day, t[i].day); j++)
			s += t[j].v;
		dv[k].day = t[i].day;
		dv[k].lv = s / (double)(j - i);
		dv[k].ntrials = j - i;
		k++;
	}
	free(t);
	*out = dv;
	return k;
}
