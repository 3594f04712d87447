/*
 * autospec_runs.c - the runs a generated spec is made from: each
 * metric's runs read through the run-selection iterator (the join
 * analyze reads) with their campaign keys (study, day, instance type)
 * and tags, the helpers that select and count them, and the choice of
 * the campaign every table of a study holds.  autospec.c decides the
 * sections from them.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/db.h"
#include "common/err.h"
#include "common/keycat.h"
#include "common/metric.h"
#include "common/runsel.h"
#include "common/series.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/autospec_runs.h"

static char key_study[] = "study", key_day[] = "day",
    key_itype[] = "instance_type";
char *const autospec_camp_keys[3] = { key_study, key_day, key_itype };

bool
autospec_str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

const char *
autospec_field(const struct ctx *x, const struct arun *r, size_t f)
{
	switch (f) {
	case F_PATH:
		return r->path;
	case F_COND:
		return r->cond;
	case F_STUDY:
	case F_DAY:
	case F_ITYPE:
		return r->camp[f - F_STUDY];
	default:
		return f - F_TAG0 < x->ntagkeys ? r->tags[f - F_TAG0] : NULL;
	}
}

size_t
autospec_slist_find(const struct slist *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (autospec_str_eq(l->v[i], s))
			return i;
	return l->n;
}

void
autospec_slist_add(struct slist *l, const char *s)
{
	size_t i = autospec_slist_find(l, s);

	if (i == l->n) {
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		ALLOC_GROW(l->count, l->n + 1, l->alloc_count);
		l->v[l->n] = s;
		l->count[l->n++] = 0;
	}
	l->count[i]++;
}

void
autospec_slist_release(struct slist *l)
{
	free(l->v);
	free(l->count);
	memset(l, 0, sizeof(*l));
}

/* The distinct values of field f among the runs of s. */
void
autospec_distinct(const struct ctx *x, const struct sel *s, size_t f,
    struct slist *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < s->n; i++)
		autospec_slist_add(out, autospec_field(x, s->r[i], f));
}

void
autospec_sel_add(struct sel *s, const struct arun *r)
{
	ALLOC_GROW(s->r, s->n + 1, s->alloc);
	s->r[s->n++] = r;
}

/* The runs of s whose field f is v. */
void
autospec_sel_where(const struct ctx *x, const struct sel *s, size_t f,
    const char *v, struct sel *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < s->n; i++)
		if (autospec_str_eq(autospec_field(x, s->r[i], f), v))
			autospec_sel_add(out, s->r[i]);
}

int
autospec_cmp_str(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	if (!x || !y)
		return !x - !y;
	return strcmp(x, y);
}

/* ------------------------------------------------------------------
 * Reading the runs
 */

int
autospec_read_tag_keys(sqlite3 *db, struct ctx *x)
{
	sqlite3_stmt *st = db_prepare(db, "list tag keys",
	    "SELECT DISTINCT key FROM run_tags ORDER BY key");
	size_t alloc = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		size_t i;

		/* the campaign keys have columns of their own */
		for (i = 0; i < ARRAY_SIZE(autospec_camp_keys); i++)
			if (!strcmp(k, autospec_camp_keys[i]))
				break;
		if (i < ARRAY_SIZE(autospec_camp_keys))
			continue;
		ALLOC_GROW(x->tagkeys, x->ntagkeys + 1, alloc);
		x->tagkeys[x->ntagkeys++] = xstrdup(k);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("list tag keys: %s", sqlite3_errmsg(db));
	return 0;
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * A made spec wants each run's value of every tag key: asked of the
 * run selection, that is one subquery per key and run (a tenth of a
 * no-spec report's instructions over a team's 21 days).  run_tags'
 * primary key (run_id, key) hands them over in run order in one pass.
 */
int
autospec_read_run_tags(sqlite3 *db, struct ctx *x)
{
	sqlite3_stmt *st = db_prepare(db, "read tags", "SELECT run_id, key, "
	    "value FROM run_tags ORDER BY run_id, key");
	size_t alloc = 0, alloc_k = 0, alloc_v = 0;
	int rc = SQLITE_DONE;

	if (!st)
		return -1;
	/* no tag key but the campaign's: nothing to look up */
	while (x->ntagkeys && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 1);
		const char *v = (const char *)sqlite3_column_text(st, 2);
		char **hit;

		/* the campaign keys are columns of their own, not tags */
		hit = k && v ? bsearch(&k, x->tagkeys, x->ntagkeys,
		    sizeof(*x->tagkeys), cmp_key) : NULL;
		if (!hit)
			continue;
		ALLOC_GROW(x->tagrun, x->ntagrows + 1, alloc);
		ALLOC_GROW(x->tagkey, x->ntagrows + 1, alloc_k);
		ALLOC_GROW(x->tagval, x->ntagrows + 1, alloc_v);
		x->tagrun[x->ntagrows] = sqlite3_column_int64(st, 0);
		x->tagkey[x->ntagrows] = (size_t)(hit - x->tagkeys);
		x->tagval[x->ntagrows++] = xstrdup(v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("read tags: %s", sqlite3_errmsg(db));
	x->read_all = true;
	return 0;
}

/* Run id's tags from x's one read into tags (ntagkeys, all NULL). */
static void
run_tags_of(const struct ctx *x, int64_t id, char **tags)
{
	size_t lo = 0, hi = x->ntagrows, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->tagrun[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < x->ntagrows && x->tagrun[lo] == id; lo++)
		tags[x->tagkey[lo]] = xstrdup(x->tagval[lo]);
}

/*
 * An ECDF needs samples with a value, which the spec asked of each
 * run, decoding its series (series_rows()): 2.3 % of a no-spec report
 * over a team's 84 days.  One pass over the series table answers for
 * every run and metric: a (run, metric) pair has one when a chunk
 * series_rows() would read (its value blob holding its rows) holds a
 * value that is not NaN (NULL).
 */
int
autospec_read_samples(sqlite3 *db, struct ctx *x)
{
	sqlite3_stmt *st = db_prepare(db, "find samples", "SELECT run_id, "
	    "metric, rows, value FROM series ORDER BY run_id, metric, chunk");
	size_t alloc = 0, alloc_m = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		int metric = sqlite3_column_int(st, 1);
		sqlite3_int64 rows = sqlite3_column_int64(st, 2), k;
		const unsigned char *v = sqlite3_column_blob(st, 3);
		size_t vlen = (size_t)sqlite3_column_bytes(st, 3);

		if (x->nspairs && x->srun[x->nspairs - 1] == id &&
		    x->smetric[x->nspairs - 1] == metric)
			continue;	/* one chunk had a value */
		/* a short value blob: series_rows() leaves it out */
		if (rows <= 0 || !v || vlen / 8 < (size_t)rows)
			continue;
		for (k = 0; k < rows; k++)
			if (!isnan(series_get_f64(v + 8 * k)))
				break;
		if (k == rows)
			continue;
		ALLOC_GROW(x->srun, x->nspairs + 1, alloc);
		ALLOC_GROW(x->smetric, x->nspairs + 1, alloc_m);
		x->srun[x->nspairs] = id;
		x->smetric[x->nspairs++] = metric;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("find samples: %s", sqlite3_errmsg(db));
	x->samples_read = true;
	return 0;
}

/* Does run id hold a sample of metric with a value (x's one read)? */
static bool
has_samples(const struct ctx *x, int64_t id, int metric)
{
	size_t lo = 0, hi = x->nspairs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->srun[mid] < id || (x->srun[mid] == id &&
		    x->smetric[mid] < metric))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nspairs && x->srun[lo] == id &&
	    x->smetric[lo] == metric;
}

/* The index of campaign key k in autospec_camp_keys, or 3. */
static size_t
camp_index(const char *k)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(autospec_camp_keys); i++)
		if (!strcmp(k, autospec_camp_keys[i]))
			break;
	return i;
}

/*
 * Each metric's run selection computed every run's campaign keys
 * (study, day, instance type: a condition key, else a tag; the day
 * tag, else the start time's day) in SQL, one lookup per key and run,
 * and sorted the runs by them: 7 % of a no-spec report over a team's
 * 84 days.  Read once here, they are looked up for each run and the
 * runs sorted in C in the selection's own order (autospec_read_metric).
 */
int
autospec_read_camp_keys(sqlite3 *db, struct ctx *x)
{
	sqlite3_stmt *st = db_prepare(db, "read campaign tags", "SELECT "
	    "run_id, key, value FROM run_tags WHERE key IN ('study', 'day', "
	    "'instance_type') ORDER BY run_id, key");
	size_t a1 = 0, a2 = 0, a3 = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 2);

		if (!v)
			continue;
		ALLOC_GROW(x->crun, x->ncrows + 1, a1);
		ALLOC_GROW(x->ckey, x->ncrows + 1, a2);
		ALLOC_GROW(x->cval, x->ncrows + 1, a3);
		x->crun[x->ncrows] = sqlite3_column_int64(st, 0);
		x->ckey[x->ncrows] = camp_index((const char *)
		    sqlite3_column_text(st, 1));
		x->cval[x->ncrows++] = xstrdup(v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("read campaign tags: %s", sqlite3_errmsg(db));
	st = db_prepare(db, "read campaign conditions", "SELECT c.canon, "
	    "ck.key, ck.value FROM condition_keys ck JOIN conditions c ON "
	    "c.id = ck.cond_id WHERE ck.key IN ('study', 'instance_type') "
	    "ORDER BY c.canon, ck.key");
	if (!st)
		return -1;
	a1 = a2 = a3 = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 2);

		if (!c || !v)
			continue;
		ALLOC_GROW(x->ccond, x->nccrows + 1, a1);
		ALLOC_GROW(x->cckey, x->nccrows + 1, a2);
		ALLOC_GROW(x->ccval, x->nccrows + 1, a3);
		x->ccond[x->nccrows] = xstrdup(c);
		x->cckey[x->nccrows] = camp_index((const char *)
		    sqlite3_column_text(st, 1));
		x->ccval[x->nccrows++] = xstrdup(v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("read campaign conditions: %s",
		    sqlite3_errmsg(db));
	x->day_of = db_prepare(db, "day of a start", "SELECT "
	    "strftime('%Y-%m-%d', ?1, 'unixepoch')");
	if (!x->day_of)
		return -1;
	x->camp_read = true;
	return 0;
}

/* Run row's campaign keys into camp (owned), as the selection's dims
 * (dim_sql) give them.  Returns 0, or -1 after printing. */
static int
camp_of(const struct ctx *x, const struct runsel_row *row, char **camp)
{
	const char *v[3] = { NULL, NULL, NULL };
	size_t lo = 0, hi = x->nccrows, mid, i;
	int rc;

	/* the condition's keys first: they win over the tags */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(x->ccond[mid], row->cond) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < x->nccrows && !strcmp(x->ccond[lo], row->cond); lo++)
		if (x->cckey[lo] != 1 && x->cckey[lo] < 3)
			v[x->cckey[lo]] = x->ccval[lo];
	lo = 0;
	hi = x->ncrows;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->crun[mid] < row->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < x->ncrows && x->crun[lo] == row->id; lo++)
		if (x->ckey[lo] < 3 && !v[x->ckey[lo]])
			v[x->ckey[lo]] = x->cval[lo];
	for (i = 0; i < 3; i++)
		camp[i] = dup_or_null(v[i]);
	if (camp[1])
		return 0;
	/* no day tag: the start time's (UTC), NULL without one */
	sqlite3_reset(x->day_of);
	if (row->started_at == INT64_MIN)
		sqlite3_bind_null(x->day_of, 1);
	else
		sqlite3_bind_int64(x->day_of, 1, row->started_at);
	rc = sqlite3_step(x->day_of);
	if (rc != SQLITE_ROW)
		return error("day of a start: %s",
		    sqlite3_errmsg(sqlite3_db_handle(x->day_of)));
	camp[1] = dup_or_null((const char *)sqlite3_column_text(x->day_of,
	    0));
	return 0;
}

/* A run with the selection's sort keys beside its campaign keys. */
struct sorted_run {
	struct arun	r;
	long		trial;
	int64_t		id;
};

static int
cmp_nat(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;	/* NULL first, as SQLite sorts it */
	return db_pathsort_cmp(a, b);
}

/* The run selection's order: path (pathsort), condition, the campaign
 * keys (pathsort), trial, id. */
static int
cmp_sorted_run(const void *pa, const void *pb)
{
	const struct sorted_run *a = pa, *b = pb;
	size_t i;
	int c;

	if ((c = cmp_nat(a->r.path, b->r.path)) ||
	    (c = strcmp(a->r.cond, b->r.cond)))
		return c;
	for (i = 0; i < ARRAY_SIZE(autospec_camp_keys); i++)
		if ((c = cmp_nat(a->r.camp[i], b->r.camp[i])))
			return c;
	if (a->trial != b->trial)
		return a->trial < b->trial ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Every run of metric m, into mr (left empty when there is none). */
int
autospec_read_metric(sqlite3 *db, struct ctx *x, const struct metric *m,
    struct mruns *mr)
{
	struct runsel_query q;
	struct runsel rs;
	sqlite3_stmt *has;
	struct sorted_run *sk = NULL;
	size_t i, alloc_sk = 0;
	int rc;

	memset(mr, 0, sizeof(*mr));
	mr->m = m;
	memset(&q, 0, sizeof(q));
	q.metric = (int)m->id;
	if (!x->camp_read) {
		q.dims = autospec_camp_keys;
		q.ndims = ARRAY_SIZE(autospec_camp_keys);
	}
	if (!x->read_all) {
		q.tags = x->tagkeys;
		q.ntags = x->ntagkeys;
	}
	/* an ECDF needs samples: oha JSON alone has none */
	has = x->samples_read ? NULL : db_prepare(db, "find samples",
	    "SELECT 1 FROM series_rows(?1, ?2) WHERE value IS NOT NULL "
	    "LIMIT 1");
	if (!has && !x->samples_read)
		return -1;
	if (runsel_open(&rs, db, &q)) {
		runsel_close(&rs);
		sqlite3_finalize(has);
		return -1;
	}
	while ((rc = runsel_next(&rs)) > 0) {
		struct arun *r;

		ALLOC_GROW(mr->r, mr->n + 1, mr->alloc);
		r = &mr->r[mr->n++];
		r->path = xstrdup(rs.row.path);
		r->cond = xstrdup(rs.row.cond ? rs.row.cond : "");
		if (x->camp_read) {
			ALLOC_GROW(sk, mr->n, alloc_sk);
			sk[mr->n - 1].trial = rs.row.trial;
			sk[mr->n - 1].id = rs.row.id;
			x->camp_from_all++;
			if (camp_of(x, &rs.row, r->camp)) {
				r->tags = xcalloc(x->ntagkeys + 1,
				    sizeof(char *));
				rc = -1;
				break;
			}
		} else {
			for (i = 0; i < ARRAY_SIZE(autospec_camp_keys); i++)
				r->camp[i] = dup_or_null(rs.row.dims[i]);
			x->camp_from_sel++;
		}
		r->tags = xcalloc(x->ntagkeys + 1, sizeof(char *));
		if (x->read_all) {
			run_tags_of(x, rs.row.id, r->tags);
			x->tags_from_all++;
		} else {
			for (i = 0; i < x->ntagkeys; i++)
				r->tags[i] = dup_or_null(rs.row.tags[i]);
			x->tags_one_by_one++;
		}
		if (x->samples_read) {
			r->samples = has_samples(x, rs.row.id, (int)m->id);
			x->samples_from_all++;
			continue;
		}
		sqlite3_reset(has);
		sqlite3_bind_int64(has, 1, rs.row.id);
		sqlite3_bind_int(has, 2, (int)m->id);
		r->samples = sqlite3_step(has) == SQLITE_ROW;
		x->samples_one_by_one++;
	}
	runsel_close(&rs);
	sqlite3_finalize(has);
	if (rc >= 0 && x->camp_read && mr->n) {
		/* the selection's order with the campaign keys */
		for (i = 0; i < mr->n; i++)
			sk[i].r = mr->r[i];
		qsort(sk, mr->n, sizeof(*sk), cmp_sorted_run);
		for (i = 0; i < mr->n; i++)
			mr->r[i] = sk[i].r;
	}
	free(sk);
	return rc < 0 ? -1 : 0;
}

int
autospec_read_once(sqlite3 *db, struct ctx *x)
{
	/* every run's tags (PATHSTAT_DEBUG_NO_SPEC_TAGS_ONCE: with each
	 * metric's runs), campaign keys (PATHSTAT_DEBUG_NO_SPEC_KEYS_ONCE:
	 * each metric's selection reads and sorts by them) and which hold
	 * samples (PATHSTAT_DEBUG_NO_SPEC_SAMPLES_ONCE: each run's asked
	 * for), for a test that compares the bundles */
	if (!getenv("PATHSTAT_DEBUG_NO_SPEC_TAGS_ONCE") &&
	    autospec_read_run_tags(db, x))
		return -1;
	if (!getenv("PATHSTAT_DEBUG_NO_SPEC_KEYS_ONCE") &&
	    autospec_read_camp_keys(db, x))
		return -1;
	if (!getenv("PATHSTAT_DEBUG_NO_SPEC_SAMPLES_ONCE") &&
	    autospec_read_samples(db, x))
		return -1;
	return 0;
}

void
autospec_debug_counts(const struct ctx *x)
{
	if (getenv("PATHSTAT_DEBUG_SPEC_TAGS"))
		fprintf(stderr, "pathstat report: debug: %lu runs' tags read "
		    "with the run, %lu from one read of all\n",
		    x->tags_one_by_one, x->tags_from_all);
	if (getenv("PATHSTAT_DEBUG_SPEC_KEYS"))
		fprintf(stderr, "pathstat report: debug: %lu runs' campaign "
		    "keys from their selection, %lu from one read of all\n",
		    x->camp_from_sel, x->camp_from_all);
	if (getenv("PATHSTAT_DEBUG_SPEC_SAMPLES"))
		fprintf(stderr, "pathstat report: debug: %lu runs' samples "
		    "asked for, %lu from one read of all\n",
		    x->samples_one_by_one, x->samples_from_all);
}

void
autospec_ctx_release(struct ctx *x)
{
	size_t i, j, k;

	for (i = 0; i < x->nper; i++) {
		for (j = 0; j < x->per[i].n; j++) {
			struct arun *r = &x->per[i].r[j];

			free(r->path);
			free(r->cond);
			for (k = 0; k < ARRAY_SIZE(autospec_camp_keys); k++)
				free(r->camp[k]);
			for (k = 0; k < x->ntagkeys; k++)
				free(r->tags[k]);
			free(r->tags);
		}
		free(x->per[i].r);
	}
	for (i = 0; i < x->ntagkeys; i++)
		free(x->tagkeys[i]);
	free(x->tagkeys);
	for (i = 0; i < x->ntagrows; i++)
		free(x->tagval[i]);
	free(x->tagrun);
	free(x->tagkey);
	free(x->tagval);
	free(x->srun);
	free(x->smetric);
	for (i = 0; i < x->ncrows; i++)
		free(x->cval[i]);
	for (i = 0; i < x->nccrows; i++) {
		free(x->ccond[i]);
		free(x->ccval[i]);
	}
	free(x->crun);
	free(x->ckey);
	free(x->cval);
	free(x->ccond);
	free(x->cckey);
	free(x->ccval);
	sqlite3_finalize(x->day_of);
}

/* The (day, instance type) pair with the most runs of s: the campaign
 * the tables hold.  Ties go to the earliest day, then instance type. */
void
autospec_main_campaign(const struct ctx *x, const struct sel *s,
    const char **day, const char **itype)
{
	size_t i, j, best = 0, bestn = 0, n = 0;
	const char **pd = xcalloc(s->n + 1, sizeof(char *));
	const char **pi = xcalloc(s->n + 1, sizeof(char *));
	size_t *cnt = xcalloc(s->n + 1, sizeof(size_t));

	for (i = 0; i < s->n; i++) {
		const char *d = autospec_field(x, s->r[i], F_DAY);
		const char *t = autospec_field(x, s->r[i], F_ITYPE);

		for (j = 0; j < n; j++)
			if (autospec_str_eq(pd[j], d) &&
			    autospec_str_eq(pi[j], t))
				break;
		if (j == n) {
			pd[n] = d;
			pi[n++] = t;
		}
		cnt[j]++;
	}
	for (j = 0; j < n; j++) {
		int c = 0;

		if (cnt[j] < bestn)
			continue;
		if (cnt[j] == bestn) {
			c = autospec_cmp_str(&pd[j], &pd[best]);
			if (!c)
				c = autospec_cmp_str(&pi[j], &pi[best]);
			if (c >= 0)
				continue;
		}
		best = j;
		bestn = cnt[j];
	}
	*day = n ? pd[best] : NULL;
	*itype = n ? pi[best] : NULL;
	free(pd);
	free(pi);
	free(cnt);
}

/*
 * The one campaign (day, instance type) every table of a study holds,
 * chosen once for all its metrics: the pair on which the most of its
 * metrics were measured, then the one with the most runs of them, then
 * the earliest day and instance type.  s[i] are the study's runs of
 * metric i (ns metrics).  A metric measured on AUTOSPEC_MONTH_DAYS days
 * or more is read over its whole period instead and takes no part.
 */
void
autospec_study_campaign(const struct ctx *x, const struct sel *s, size_t ns,
    const char **day, const char **itype)
{
	size_t i, j, k, n = 0, best = 0, total = 0;
	const char **pd, **pi;
	size_t *nmet, *nrun, *last;

	for (i = 0; i < ns; i++)
		total += s[i].n;
	pd = xcalloc(total + 1, sizeof(char *));
	pi = xcalloc(total + 1, sizeof(char *));
	nmet = xcalloc(total + 1, sizeof(size_t));
	nrun = xcalloc(total + 1, sizeof(size_t));
	last = xcalloc(total + 1, sizeof(size_t));
	for (i = 0; i < ns; i++) {
		for (k = 0; k < s[i].n; k++) {
			const char *d = autospec_field(x, s[i].r[k], F_DAY);
			const char *t = autospec_field(x, s[i].r[k], F_ITYPE);

			for (j = 0; j < n; j++)
				if (autospec_str_eq(pd[j], d) &&
			    autospec_str_eq(pi[j], t))
					break;
			if (j == n) {
				pd[n] = d;
				pi[n++] = t;
			}
			nrun[j]++;
			/* metric i counted once */
			if (last[j] != i + 1) {
				last[j] = i + 1;
				nmet[j]++;
			}
		}
	}
	for (j = 1; j < n; j++) {
		int c;

		if (nmet[j] != nmet[best]) {
			if (nmet[j] > nmet[best])
				best = j;
			continue;
		}
		if (nrun[j] != nrun[best]) {
			if (nrun[j] > nrun[best])
				best = j;
			continue;
		}
		c = autospec_cmp_str(&pd[j], &pd[best]);
		if (!c)
			c = autospec_cmp_str(&pi[j], &pi[best]);
		if (c < 0)
			best = j;
	}
	*day = n ? pd[best] : NULL;
	*itype = n ? pi[best] : NULL;
	free(pd);
	free(pi);
	free(nmet);
	free(nrun);
	free(last);
}

/* Does s hold a run of the campaign (day, itype)? */
bool
autospec_sel_has_campaign(const struct ctx *x, const struct sel *s,
    const char *day, const char *itype)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (autospec_str_eq(autospec_field(x, s->r[i], F_DAY), day) &&
		    autospec_str_eq(autospec_field(x, s->r[i], F_ITYPE), itype))
			return true;
	return false;
}


size_t
autospec_cells_find(const struct cells *c, const char *path, const char *cond)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->path[i], path) && !strcmp(c->cond[i], cond))
			return i;
	return c->n;
}

void
autospec_cells_of(const struct sel *s, struct cells *c)
{
	size_t i, j;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < s->n; i++) {
		j = autospec_cells_find(c, s->r[i]->path, s->r[i]->cond);
		if (j == c->n) {
			ALLOC_GROW(c->path, c->n + 1, c->alloc_p);
			ALLOC_GROW(c->cond, c->n + 1, c->alloc_c);
			ALLOC_GROW(c->runs, c->n + 1, c->alloc_r);
			c->path[c->n] = s->r[i]->path;
			c->cond[c->n] = s->r[i]->cond;
			c->runs[c->n++] = 0;
		}
		c->runs[j]++;
	}
}

void
autospec_cells_release(struct cells *c)
{
	free(c->path);
	free(c->cond);
	free(c->runs);
}

/* The tag keys (other than the campaign's) that take more than one
 * value inside one cell of s: what its tables pool across. */
void
autospec_pooled_keys(const struct ctx *x, const struct sel *s,
    const struct cells *c, struct strbuf *sb)
{
	size_t k, i, j, n = 0;

	for (k = 0; k < x->ntagkeys; k++) {
		bool pooled = false;

		for (j = 0; j < c->n && !pooled; j++) {
			const char *first = NULL;
			bool seen = false;

			for (i = 0; i < s->n && !pooled; i++) {
				const struct arun *r = s->r[i];

				if (strcmp(r->path, c->path[j]) ||
				    strcmp(r->cond, c->cond[j]))
					continue;
				if (!seen) {
					first = r->tags[k];
					seen = true;
				} else if (!autospec_str_eq(first,
				    r->tags[k])) {
					pooled = true;
				}
			}
		}
		if (!pooled)
			continue;
		strbuf_addstr(sb, n++ ? ", " : "");
		strbuf_addstr(sb, x->tagkeys[k]);
	}
}


static char *
cell_id(const struct arun *r, const char *metric)
{
	return xasprintf("%s\x1f%s\x1f%s\x1f%s\x1f%s", metric, r->path,
	    r->cond, r->camp[1] ? r->camp[1] : "",
	    r->camp[2] ? r->camp[2] : "");
}

static int
cmp_cell_id(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Does tag key k set some runs apart from untagged runs of their cell
 * (same metric, path, condition, day and instance type)?  The values
 * of the runs it sets apart go to vals. */
static bool
side_tag(const struct ctx *x, const char *study, bool all, size_t k,
    struct slist *vals)
{
	char **unset = NULL, *id;
	size_t n = 0, alloc = 0, i, j;

	for (i = 0; i < x->nper; i++)
		for (j = 0; j < x->per[i].n; j++) {
			const struct arun *r = &x->per[i].r[j];

			if (all && !autospec_str_eq(r->camp[0], study))
				continue;
			if (r->tags[k])
				continue;
			ALLOC_GROW(unset, n + 1, alloc);
			unset[n++] = cell_id(r, x->per[i].m->name);
		}
	if (n)	/* qsort's array may not be NULL, even for no element */
		qsort(unset, n, sizeof(*unset), cmp_cell_id);
	for (i = 0; n && i < x->nper; i++)
		for (j = 0; j < x->per[i].n; j++) {
			const struct arun *r = &x->per[i].r[j];

			if (!r->tags[k] ||
			    (all && !autospec_str_eq(r->camp[0], study)))
				continue;
			id = cell_id(r, x->per[i].m->name);
			if (bsearch(&id, unset, n, sizeof(*unset),
			    cmp_cell_id) &&
			    autospec_slist_find(vals, r->tags[k]) == vals->n)
				autospec_slist_add(vals, r->tags[k]);
			free(id);
		}
	for (i = 0; i < n; i++)
		free(unset[i]);
	free(unset);
	return vals->n > 0;
}

size_t
autospec_side_tags(const struct ctx *x, const char *study, bool all,
    cJSON *where, struct strbuf *text, bool *side)
{
	size_t k, found = 0;

	for (k = 0; k < x->ntagkeys; k++) {
		struct slist vals;

		side[k] = false;
		if (keycat_is_provenance(x->tagkeys[k]))
			continue;
		memset(&vals, 0, sizeof(vals));
		side[k] = false;
		if (side_tag(x, study, all, k, &vals)) {
			side[k] = true;
			qsort(vals.v, vals.n, sizeof(*vals.v),
			    autospec_cmp_str);
			cJSON_AddStringToObject(where, x->tagkeys[k], "");
			strbuf_addf(text, " Runs tagged %s (", x->tagkeys[k]);
			for (size_t i = 0; i < vals.n; i++)
				strbuf_addf(text, "%s%s", i ? ", " : "",
				    vals.v[i]);
			strbuf_addf(text, ") share their cells with runs "
			    "that lack the tag and are left out of these "
			    "tables (a pivot column \"%s=%s\" in a spec "
			    "shows them).", x->tagkeys[k], vals.v[0]);
			found++;
		}
		autospec_slist_release(&vals);
	}
	return found;
}

bool
autospec_on_side(const struct ctx *x, const struct arun *r, const bool *side)
{
	size_t k;

	for (k = 0; side && k < x->ntagkeys; k++)
		if (side[k] && r->tags[k])
			return true;
	return false;
}
