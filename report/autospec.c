/*
 * autospec.c - the report spec pathstat writes from what the database
 * holds, for `pathstat report` without --spec and `pathstat report
 * --init`.  It reads every metric's runs through the run-selection
 * iterator (the join analyze reads) and decides from them, never from a
 * fixed list: which studies and metrics there are, the campaign (day and
 * instance type) the tables hold when those vary, which conditions and
 * paths there are, whether cells have several trials, whether the
 * baseline path has data, and what can be compared across days and
 * instance types.  The result is an ordinary spec document, read back by
 * the same reader as a user's own.
 */
#include "common/compat.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/metric.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/xalloc.h"
#include "report/autospec.h"
#include "report/internal.h"

/* More (path, condition) cells than this under one metric: a table and
 * an ECDF per condition, so a chart stays readable. */
#define AS_MAX_CHART_CELLS	8
/* Values a paragraph lists before "and N more". */
#define AS_MAX_LISTED		6
/* Paths named when --baseline names none that exists. */
#define AS_MAX_PATHS_NAMED	20

/* The campaign keys: a group per study; day and instance type are held
 * at one value in the tables and compared in sections of their own. */
enum { F_PATH, F_COND, F_STUDY, F_DAY, F_ITYPE, F_TAG0 };
static char key_study[] = "study", key_day[] = "day",
    key_itype[] = "instance_type";
static char *const camp_keys[] = { key_study, key_day, key_itype };

/* One run of a metric. */
struct arun {
	char	*path;		/* path ID (owned) */
	char	*cond;		/* canonical condition, "" none (owned) */
	char	*camp[3];	/* study, day, instance type; NULL when
				 * unset (owned) */
	char	**tags;		/* one per ctx.tagkeys, NULL unset (owned) */
	bool	samples;	/* holds successful samples of the metric
				 * (not only a tool's summary) */
};

/* The runs of one metric, in the iterator's natural order. */
struct mruns {
	const struct metric *m;
	struct arun	*r;
	size_t		n, alloc;
};

/* Runs picked from one mruns (borrowed pointers). */
struct sel {
	const struct arun **r;
	size_t		n, alloc;
};

/* Distinct values, in order of first appearance; NULL is a value (the
 * key unset).  The strings are borrowed from the runs. */
struct slist {
	const char	**v;
	size_t		*count;		/* runs with each value */
	size_t		n, alloc, alloc_count;
};

struct ctx {
	char		**tagkeys;	/* every tag key (owned) */
	size_t		ntagkeys;
	struct mruns	per[METRIC_ID_LIMIT];	/* metrics with runs */
	size_t		nper;
	const char	*baseline;	/* path, or NULL */
};

static bool
str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static const char *
field(const struct ctx *x, const struct arun *r, size_t f)
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

static size_t
slist_find(const struct slist *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (str_eq(l->v[i], s))
			return i;
	return l->n;
}

static void
slist_add(struct slist *l, const char *s)
{
	size_t i = slist_find(l, s);

	if (i == l->n) {
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		ALLOC_GROW(l->count, l->n + 1, l->alloc_count);
		l->v[l->n] = s;
		l->count[l->n++] = 0;
	}
	l->count[i]++;
}

static void
slist_release(struct slist *l)
{
	free(l->v);
	free(l->count);
	memset(l, 0, sizeof(*l));
}

/* The distinct values of field f among the runs of s. */
static void
distinct(const struct ctx *x, const struct sel *s, size_t f, struct slist *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < s->n; i++)
		slist_add(out, field(x, s->r[i], f));
}

static void
sel_add(struct sel *s, const struct arun *r)
{
	ALLOC_GROW(s->r, s->n + 1, s->alloc);
	s->r[s->n++] = r;
}

/* The runs of s whose field f is v. */
static void
sel_where(const struct ctx *x, const struct sel *s, size_t f, const char *v,
    struct sel *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < s->n; i++)
		if (str_eq(field(x, s->r[i], f), v))
			sel_add(out, s->r[i]);
}

static int
cmp_str_null_last(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	if (!x || !y)
		return !x - !y;
	return strcmp(x, y);
}

/* ------------------------------------------------------------------
 * Reading the runs
 */

static int
read_tag_keys(sqlite3 *db, struct ctx *x)
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
		for (i = 0; i < ARRAY_SIZE(camp_keys); i++)
			if (!strcmp(k, camp_keys[i]))
				break;
		if (i < ARRAY_SIZE(camp_keys))
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

/* Every run of metric m, into mr (left empty when there is none). */
static int
read_metric(sqlite3 *db, struct ctx *x, const struct metric *m,
    struct mruns *mr)
{
	struct runsel_query q;
	struct runsel rs;
	sqlite3_stmt *has;
	size_t i;
	int rc;

	memset(mr, 0, sizeof(*mr));
	mr->m = m;
	memset(&q, 0, sizeof(q));
	q.metric = (int)m->id;
	q.dims = camp_keys;
	q.ndims = ARRAY_SIZE(camp_keys);
	q.tags = x->tagkeys;
	q.ntags = x->ntagkeys;
	/* an ECDF needs samples: oha JSON alone has none */
	has = db_prepare(db, "find samples", "SELECT 1 FROM samples WHERE "
	    "run_id = ?1 AND metric = ?2 AND value IS NOT NULL LIMIT 1");
	if (!has)
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
		for (i = 0; i < ARRAY_SIZE(camp_keys); i++)
			r->camp[i] = dup_or_null(rs.row.dims[i]);
		r->tags = xcalloc(x->ntagkeys + 1, sizeof(char *));
		for (i = 0; i < x->ntagkeys; i++)
			r->tags[i] = dup_or_null(rs.row.tags[i]);
		sqlite3_reset(has);
		sqlite3_bind_int64(has, 1, rs.row.id);
		sqlite3_bind_int(has, 2, (int)m->id);
		r->samples = sqlite3_step(has) == SQLITE_ROW;
	}
	runsel_close(&rs);
	sqlite3_finalize(has);
	return rc < 0 ? -1 : 0;
}

static void
ctx_release(struct ctx *x)
{
	size_t i, j, k;

	for (i = 0; i < x->nper; i++) {
		for (j = 0; j < x->per[i].n; j++) {
			struct arun *r = &x->per[i].r[j];

			free(r->path);
			free(r->cond);
			for (k = 0; k < ARRAY_SIZE(camp_keys); k++)
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
}

/* ------------------------------------------------------------------
 * Words
 */

/* "a, b and c" (conditions, which hold commas: "a; b and c"), at most
 * AS_MAX_LISTED then "and N more"; NULL reads unset. */
static void
add_list(struct strbuf *sb, const struct slist *l, const char *unset)
{
	size_t i, shown = l->n > AS_MAX_LISTED + 2 ? AS_MAX_LISTED : l->n;
	bool semi = false;

	for (i = 0; i < l->n; i++)
		if (l->v[i] && strchr(l->v[i], ','))
			semi = true;
	for (i = 0; i < shown; i++) {
		if (i)
			strbuf_addstr(sb, i + 1 == l->n ? " and " : semi ?
			    "; " : ", ");
		strbuf_addstr(sb, l->v[i] ? (*l->v[i] ? l->v[i] :
		    "no condition") : unset);
	}
	if (shown < l->n)
		strbuf_addf(sb, " and %zu more", l->n - shown);
}

static const char *
plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* ------------------------------------------------------------------
 * Building the document
 */

/* Append a section {"type", "id", "title", "text"} to arr (id and text
 * may be NULL). */
static cJSON *
section_new(cJSON *arr, const char *type, const char *id, const char *title,
    const char *text)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", type);
	if (id) {
		char *slug = report_slug(id, 40);

		cJSON_AddStringToObject(s, "id", slug);
		free(slug);
	}
	if (title)
		cJSON_AddStringToObject(s, "title", title);
	if (text && *text)
		cJSON_AddStringToObject(s, "text", text);
	cJSON_AddItemToArray(arr, s);
	return s;
}

/* {"kind": kind, "title": title} (and "stat") as the section's chart. */
static void
add_chart(cJSON *sec, const char *kind, const char *stat, const char *title)
{
	cJSON *c = cJSON_AddObjectToObject(sec, "chart");

	cJSON_AddStringToObject(c, "kind", kind);
	if (stat)
		cJSON_AddStringToObject(c, "stat", stat);
	cJSON_AddStringToObject(c, "title", title);
}

/* where[key] = value, "" when value is NULL (runs that lack the key). */
static void
where_set(cJSON *where, const char *key, const char *value)
{
	cJSON_AddStringToObject(where, key, value ? value : "");
}

/* The where that selects exactly the runs of condition cond among the
 * conditions of conds: its own keys, and "" (unset) for every other
 * key they use. */
static void
where_condition(cJSON *sec, const char *cond, const struct slist *conds)
{
	cJSON *w = cJSON_AddObjectToObject(sec, "where");
	char *copy, *tok, *save = NULL;
	size_t i;

	copy = xstrdup(cond);
	/* the canonical text: k=v pairs, sorted, ','-joined */
	for (tok = copy; tok && *tok; tok = save) {
		char *eq, *comma = strchr(tok, ',');

		save = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		where_set(w, tok, eq + 1);
	}
	free(copy);
	for (i = 0; i < conds->n; i++) {
		char *c = xstrdup(conds->v[i]);

		for (tok = c; tok && *tok; tok = save) {
			char *eq, *comma = strchr(tok, ',');

			save = comma ? comma + 1 : NULL;
			if (comma)
				*comma = '\0';
			eq = strchr(tok, '=');
			if (eq)
				*eq = '\0';
			if (!cJSON_GetObjectItemCaseSensitive(w, tok))
				where_set(w, tok, NULL);
		}
		free(c);
	}
}

/* The (day, instance type) pair with the most runs of s: the campaign
 * the tables hold.  Ties go to the earliest day, then instance type. */
static void
main_campaign(const struct ctx *x, const struct sel *s, const char **day,
    const char **itype)
{
	size_t i, j, best = 0, bestn = 0, n = 0;
	const char **pd = xcalloc(s->n + 1, sizeof(char *));
	const char **pi = xcalloc(s->n + 1, sizeof(char *));
	size_t *cnt = xcalloc(s->n + 1, sizeof(size_t));

	for (i = 0; i < s->n; i++) {
		const char *d = field(x, s->r[i], F_DAY);
		const char *t = field(x, s->r[i], F_ITYPE);

		for (j = 0; j < n; j++)
			if (str_eq(pd[j], d) && str_eq(pi[j], t))
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
			c = cmp_str_null_last(&pd[j], &pd[best]);
			if (!c)
				c = cmp_str_null_last(&pi[j], &pi[best]);
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

/* The cells (path, condition) of s, in order, with their run counts;
 * paths and conds get the distinct paths and conditions (conditions
 * sorted). */
struct cells {
	const char	**path, **cond;
	size_t		*runs;
	size_t		n, alloc_p, alloc_c, alloc_r;
};

static size_t
cells_find(const struct cells *c, const char *path, const char *cond)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->path[i], path) && !strcmp(c->cond[i], cond))
			return i;
	return c->n;
}

static void
cells_of(const struct sel *s, struct cells *c)
{
	size_t i, j;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < s->n; i++) {
		j = cells_find(c, s->r[i]->path, s->r[i]->cond);
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

static void
cells_release(struct cells *c)
{
	free(c->path);
	free(c->cond);
	free(c->runs);
}

/* The tag keys (other than the campaign's) that take more than one
 * value inside one cell of s: what its tables pool across. */
static void
pooled_keys(const struct ctx *x, const struct sel *s, const struct cells *c,
    struct strbuf *sb)
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
				} else if (!str_eq(first, r->tags[k])) {
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

/* Does some cell of s hold runs under value v of field f and under
 * another value? */
static bool
comparable(const struct ctx *x, const struct sel *s, size_t f, const char *v)
{
	struct cells c;
	size_t i, j;
	bool any = false;

	cells_of(s, &c);
	for (j = 0; j < c.n && !any; j++) {
		bool base = false, other = false;

		for (i = 0; i < s->n; i++) {
			const struct arun *r = s->r[i];

			if (strcmp(r->path, c.path[j]) ||
			    strcmp(r->cond, c.cond[j]))
				continue;
			if (str_eq(field(x, r, f), v))
				base = true;
			else
				other = true;
		}
		any = base && other;
	}
	cells_release(&c);
	return any;
}

/*
 * Where can the values of campaign field f be compared?  s holds the
 * runs at the other campaign field's main value (o = its field, ov its
 * value); when no cell there has runs under two values of f, the other
 * values of o are tried, busiest first, among all the runs (all): the
 * comparison lives wherever runs share conditions, not only in the
 * campaign the tables hold.  *scope gets the value of o chosen (ov when
 * s itself compares), *base the baseline (v when that value has it,
 * else the first in order); false when nowhere.
 */
static bool
compare_scope(const struct ctx *x, const struct sel *s, const struct sel *all,
    size_t f, const char *v, size_t o, const char *ov, bool vother,
    const char **scope, const char **base)
{
	struct slist others, vals;
	size_t i, j, best;
	bool found = false;

	*scope = ov;
	*base = v;
	if (comparable(x, s, f, v))
		return true;
	if (!vother)
		return false;
	distinct(x, all, o, &others);
	/* busiest first: runs per value, ties in order of appearance */
	while (!found && others.n) {
		struct sel tmp;

		for (i = best = 0; i < others.n; i++)
			if (others.count[i] > others.count[best])
				best = i;
		if (!str_eq(others.v[best], ov)) {
			sel_where(x, all, o, others.v[best], &tmp);
			distinct(x, &tmp, f, &vals);
			j = slist_find(&vals, v);
			if (vals.n > 1 && comparable(x, &tmp, f, j < vals.n ?
			    v : vals.v[0])) {
				*scope = others.v[best];
				*base = j < vals.n ? v : vals.v[0];
				found = true;
			}
			slist_release(&vals);
			free(tmp.r);
		}
		others.v[best] = others.v[others.n - 1];
		others.count[best] = others.count[others.n - 1];
		others.n--;
	}
	slist_release(&others);
	return found;
}

/* Which statistics a section of metric m shows: the metric's defaults
 * (common/metric.h says which and why), for a table, per trial and in
 * comparisons, or for the delta chart. */
enum as_stats { AS_STATS_TABLE, AS_STATS_TRIALS, AS_STATS_COMPARE,
	AS_STATS_DELTA };

static const char *
stats_for(const struct metric *m, enum as_stats use)
{
	switch (use) {
	case AS_STATS_TABLE:
		return metric_default_stats(m, METRIC_STATS_TABLE);
	case AS_STATS_TRIALS:
	case AS_STATS_COMPARE:
		return metric_default_stats(m, METRIC_STATS_TRIALS);
	case AS_STATS_DELTA:
		return metric_default_stats(m, METRIC_STATS_DELTA);
	}
	BUG("stats_for: use %d", (int)use);
}

/* The words that say so under a percentiles heading, into sb; nothing
 * for latency, whose statistics need none. */
static void
stats_words(const struct metric *m, struct strbuf *sb)
{
	const char *why = metric_default_stats_why(m);

	if (!why)
		return;
	strbuf_addf(sb, "%c%s.", toupper((unsigned char)why[0]), why + 1);
	if (m->source == METRIC_FROM_SUMMARY)
		strbuf_addstr(sb, " Each run's value is in the trial-to-trial "
		    "spread below.");
}

/* A section comparing the values of campaign field f (day or instance
 * type) against the main one, v; the other campaign key stays at its
 * main value (the group's where already says so), or at the value
 * compare_scope() found (all: every run of the group). */
static void
compare_section(const struct ctx *x, cJSON *arr, const struct sel *s,
    const struct sel *all, size_t f, const char *v, bool vother,
    const char *stem, const struct slist *vals, const struct metric *m)
{
	bool day = f == F_DAY;
	size_t o = day ? F_ITYPE : F_DAY;
	const char *key = camp_keys[f - F_STUDY];
	const char *okey = camp_keys[o - F_STUDY];
	const char *ov = s->n ? field(x, s->r[0], o) : NULL, *scope, *base;
	struct strbuf title = STRBUF_INIT, text = STRBUF_INIT, id = STRBUF_INIT;
	cJSON *sec, *w;
	bool ok;

	strbuf_addf(&id, "%s-%s", stem, day ? "days" : "instance-types");
	ok = compare_scope(x, s, all, f, v, o, ov, vother, &scope, &base);
	strbuf_addf(&title, "%s against %s", day ? "Days" : "Instance types",
	    (ok ? base : v) ? (ok ? base : v) : "unset");
	if (ok && vother && !str_eq(scope, ov))
		strbuf_addf(&title, " on %s", scope ? scope : "unset");
	if (!ok) {
		strbuf_addf(&text, "Runs on %zu %s (", vals->n, day ? "days" :
		    "instance types");
		add_list(&text, vals, "unset");
		strbuf_addf(&text, "), but no path and condition was measured "
		    "on %s and on another: nothing to compare.", v ? v :
		    "unset");
		section_new(arr, "text", NULL, title.buf, text.buf);
		goto cleanup;
	}
	strbuf_addf(&text, "Each %s against %s, for the paths and conditions "
	    "measured on both; the ratio's interval covers trial-to-trial "
	    "variation (the caption names its method), and the verdict "
	    "says whether the difference is real.",
	    day ? "day" : "instance type", base ? base : "unset");
	if (vother && !str_eq(scope, ov))
		strbuf_addf(&text, " The runs on %s share no condition across "
		    "%s, so this compares those %s %s, where they do.",
		    ov ? ov : "unset", day ? "days" : "instance types",
		    day ? "on" : "of", scope ? scope : "unset");
	sec = section_new(arr, "compare", id.buf, title.buf, text.buf);
	w = cJSON_AddObjectToObject(sec, "where");
	cJSON_AddNullToObject(w, key);
	if (vother && !str_eq(scope, ov))
		where_set(w, okey, scope);
	cJSON_AddStringToObject(sec, "by", key);
	if (base)
		cJSON_AddStringToObject(sec, "baseline", base);
	cJSON_AddStringToObject(sec, "stats", stats_for(m, AS_STATS_COMPARE));
cleanup:
	strbuf_release(&title);
	strbuf_release(&text);
	strbuf_release(&id);
}

/* Deltas of every path against the baseline, where it has data. */
static void
delta_section(const struct ctx *x, cJSON *arr, const struct mruns *mr,
    const struct cells *c, const struct slist *paths, const char *stem,
    const char *where_words)
{
	struct strbuf title = STRBUF_INIT, text = STRBUF_INIT, id = STRBUF_INIT;
	const char *b = x->baseline;
	cJSON *sec, *pairs = NULL;
	size_t i, j, n = 0;

	strbuf_addf(&title, "Against the baseline %s", b);
	strbuf_addf(&id, "%s-delta", stem);
	if (slist_find(paths, b) == paths->n) {
		strbuf_addf(&text, "The baseline path %s has no %s runs%s: no "
		    "differences to show.", b, mr->m->name, where_words);
		section_new(arr, "text", NULL, title.buf, text.buf);
		goto cleanup;
	}
	for (i = 0; i < paths->n; i++) {
		bool shared = false;

		if (!strcmp(paths->v[i], b))
			continue;
		for (j = 0; j < c->n && !shared; j++)
			shared = !strcmp(c->path[j], paths->v[i]) &&
			    cells_find(c, b, c->cond[j]) < c->n;
		if (!shared)
			continue;
		if (!pairs) {
			if (mr->m->source == METRIC_FROM_SUMMARY)
				strbuf_addf(&text, "Each path minus %s under "
				    "the same condition: the difference of the "
				    "means of their runs (one value per run).",
				    b);
			else if (mr->m->higher_better)
				strbuf_addf(&text, "Each path minus %s under "
				    "the same condition, per statistic; higher "
				    "is better, so p5 and p1 are the slow "
				    "side.", b);
			else
				strbuf_addf(&text, "Each path minus %s under "
				    "the same condition, per statistic; growth "
				    "= Δp99 / Δp50 says how the gap widens "
				    "into the tail.", b);
			sec = section_new(arr, "delta", id.buf, title.buf,
			    text.buf);
			cJSON_AddStringToObject(sec, "stats",
			    stats_for(mr->m, AS_STATS_DELTA));
			pairs = cJSON_AddArrayToObject(sec, "pairs");
		}
		{
			cJSON *p = cJSON_CreateObject();

			cJSON_AddStringToObject(p, "minuend", paths->v[i]);
			cJSON_AddStringToObject(p, "subtrahend", b);
			cJSON_AddItemToArray(pairs, p);
		}
		n++;
	}
	if (!n) {
		strbuf_addf(&text, "No other path shares a condition with the "
		    "baseline %s here: no differences to show.", b);
		section_new(arr, "text", NULL, title.buf, text.buf);
	}
cleanup:
	strbuf_release(&title);
	strbuf_release(&text);
	strbuf_release(&id);
}

/* Does a run of s (under condition cond; NULL: any) hold samples? */
static bool
with_samples(const struct sel *s, const char *cond)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->r[i]->samples && (!cond || !strcmp(s->r[i]->cond, cond)))
			return true;
	return false;
}

/* The percentile table (bars) and ECDF of the runs of one condition
 * (cond, or every condition when NULL); k numbers it. */
static void
distribution_sections(cJSON *arr, const struct mruns *mr, const char *cond,
    const struct slist *conds, const char *stem, size_t k, bool ecdf)
{
	const struct metric *m = mr->m;
	struct strbuf title = STRBUF_INIT, id = STRBUF_INIT, ct = STRBUF_INIT;
	struct strbuf words = STRBUF_INIT;
	const char *cw = cond ? (*cond ? cond : "no condition") : NULL;
	cJSON *sec;

	strbuf_addf(&id, "%s-pct", stem);
	if (cond)
		strbuf_addf(&id, "-%zu", k);
	strbuf_addstr(&title, "Percentiles");
	strbuf_addf(&ct, "%s by path", m->title);
	if (cw) {
		strbuf_addf(&title, ", %s", cw);
		strbuf_addf(&ct, ", %s", cw);
	}
	stats_words(m, &words);
	sec = section_new(arr, "percentiles", id.buf, title.buf,
	    words.len ? words.buf : NULL);
	cJSON_AddStringToObject(sec, "stats", stats_for(m, AS_STATS_TABLE));
	if (cond)
		where_condition(sec, cond, conds);
	/* bars show percentiles; a value per run has its runs' box chart
	 * in the trials section */
	if (m->source != METRIC_FROM_SUMMARY)
		add_chart(sec, "bars", NULL, ct.buf);
	/* an ECDF needs the samples; a tool's summaries have none */
	if (m->source != METRIC_FROM_SAMPLES || !ecdf)
		goto cleanup;
	strbuf_reset(&id);
	strbuf_reset(&title);
	strbuf_reset(&ct);
	strbuf_addf(&id, "%s-ecdf", stem);
	if (cond)
		strbuf_addf(&id, "-%zu", k);
	strbuf_addstr(&title, "Distribution (ECDF)");
	strbuf_addf(&ct, "%s, ECDF per path", m->title);
	if (cw) {
		strbuf_addf(&title, ", %s", cw);
		strbuf_addf(&ct, ", %s", cw);
	}
	sec = section_new(arr, "chart", id.buf, title.buf, NULL);
	if (cond)
		where_condition(sec, cond, conds);
	add_chart(sec, "ecdf", NULL, ct.buf);
cleanup:
	strbuf_release(&title);
	strbuf_release(&id);
	strbuf_release(&ct);
	strbuf_release(&words);
}

/* The path MTU's group: one result per run, so no percentiles or
 * trials, but analyze mtu's "Path | MTU (measured)" table, per day
 * when the runs span several (a change across days shows). */
static void
mtu_group(const struct ctx *x, cJSON *arr, const struct mruns *mr,
    const struct sel *s, const char *study)
{
	struct slist days, paths;
	struct strbuf text = STRBUF_INIT, id = STRBUF_INIT;
	cJSON *grp, *sec, *by;

	distinct(x, s, F_DAY, &days);
	distinct(x, s, F_PATH, &paths);
	strbuf_addf(&text, "%zu pathprobe --mtu result%s for %zu path%s (",
	    s->n, plural(s->n), paths.n, plural(paths.n));
	add_list(&text, &paths, "unset");
	strbuf_addstr(&text, ").");
	strbuf_addf(&id, "%s%smtu", study ? study : "", study ? "-" : "");
	{
		struct strbuf title = STRBUF_INIT;

		strbuf_addf(&title, "%s (%s)", mr->m->title, mr->m->name);
		grp = section_new(arr, "group", NULL, title.buf, text.buf);
		strbuf_release(&title);
	}
	cJSON_AddStringToObject(grp, "metric", mr->m->name);
	sec = section_new(cJSON_AddArrayToObject(grp, "sections"), "mtu",
	    id.buf, days.n > 1 ? "Path MTU per day" : "Path MTU", NULL);
	if (days.n > 1) {
		by = cJSON_AddArrayToObject(sec, "by");
		cJSON_AddItemToArray(by, cJSON_CreateString("day"));
	}
	slist_release(&days);
	slist_release(&paths);
	strbuf_release(&text);
	strbuf_release(&id);
}

/* One metric's group over the runs s (one study's). */
static void
metric_group(const struct ctx *x, cJSON *arr, const struct mruns *mr,
    const struct sel *s, const char *study)
{
	const struct metric *m = mr->m;
	struct slist days, itypes, paths, conds, allpaths;
	struct sel ms, tmp;
	struct cells c;
	struct strbuf text = STRBUF_INIT, stem = STRBUF_INIT;
	struct strbuf words = STRBUF_INIT, pooled = STRBUF_INIT;
	const char *mday, *mit;
	bool vday, vit;
	size_t i, maxruns = 0;
	cJSON *grp, *w, *sub;

	distinct(x, s, F_DAY, &days);
	distinct(x, s, F_ITYPE, &itypes);
	distinct(x, s, F_PATH, &allpaths);
	vday = days.n > 1;
	vit = itypes.n > 1;
	main_campaign(x, s, &mday, &mit);
	/* the runs the tables hold: the main campaign's */
	memset(&ms, 0, sizeof(ms));
	for (i = 0; i < s->n; i++)
		if ((!vday || str_eq(s->r[i]->camp[1], mday)) &&
		    (!vit || str_eq(s->r[i]->camp[2], mit)))
			sel_add(&ms, s->r[i]);
	distinct(x, &ms, F_PATH, &paths);
	distinct(x, &ms, F_COND, &conds);
	qsort(conds.v, conds.n, sizeof(*conds.v), cmp_str_null_last);
	cells_of(&ms, &c);
	for (i = 0; i < c.n; i++)
		if (c.runs[i] > maxruns)
			maxruns = c.runs[i];
	pooled_keys(x, &ms, &c, &pooled);

	/* the group's paragraph: what its tables hold */
	strbuf_addf(&text, "%zu run%s of %zu path%s (", ms.n, plural(ms.n),
	    paths.n, plural(paths.n));
	add_list(&text, &paths, "unset");
	strbuf_addstr(&text, ")");
	if (conds.n > 1 || (conds.n == 1 && *conds.v[0])) {
		strbuf_addf(&text, " under %zu condition%s (", conds.n,
		    plural(conds.n));
		add_list(&text, &conds, "unset");
		strbuf_addstr(&text, ")");
	}
	strbuf_addch(&text, '.');
	if (vday || vit) {
		strbuf_addstr(&words, " on");
		if (vday)
			strbuf_addf(&words, " %s", mday ? mday : "no day");
		if (vit)
			strbuf_addf(&words, "%s %s", vday ? " and" : "",
			    mit ? mit : "no instance type");
		strbuf_addf(&text, " The tables hold the runs%s, the campaign "
		    "with the most runs; the comparisons below set the other ",
		    words.buf);
		if (vday && vit)
			strbuf_addstr(&text, "days and instance types");
		else
			strbuf_addstr(&text, vday ? "days" : "instance types");
		strbuf_addstr(&text, " against it.");
		if (allpaths.n > paths.n) {
			struct slist only;

			memset(&only, 0, sizeof(only));
			for (i = 0; i < allpaths.n; i++)
				if (slist_find(&paths, allpaths.v[i]) ==
				    paths.n)
					slist_add(&only, allpaths.v[i]);
			strbuf_addstr(&text, " Measured only outside it: ");
			add_list(&text, &only, "unset");
			strbuf_addch(&text, '.');
			slist_release(&only);
		}
	}
	if (pooled.len)
		strbuf_addf(&text, " Each cell pools runs that differ in: %s.",
		    pooled.buf);
	/* said once, here, rather than as a failed chart per condition */
	if (m->source == METRIC_FROM_SAMPLES && !with_samples(&ms, NULL))
		strbuf_addstr(&text, " No run here holds per-request samples "
		    "(only the tool's summary, as oha's JSON gives): each "
		    "table cell is the mean across trials of the tool's own "
		    "percentiles, and there is no distribution (ECDF) to "
		    "draw.");
	else if (m->source == METRIC_FROM_SAMPLES)
		for (i = 0; i < conds.n; i++)
			if (!with_samples(&ms, conds.v[i])) {
				strbuf_addstr(&text, " Conditions whose runs hold "
				    "only the tool's summary (no per-request "
				    "samples) get no ECDF.");
				break;
			}

	strbuf_addf(&stem, "%s%s%s", study ? study : "", study ? "-" : "",
	    m->name);
	{
		struct strbuf title = STRBUF_INIT;

		strbuf_addf(&title, "%s (%s)", m->title, m->name);
		grp = section_new(arr, "group", NULL, title.buf, text.buf);
		strbuf_release(&title);
	}
	cJSON_AddStringToObject(grp, "metric", m->name);
	if (vday || vit) {
		w = cJSON_AddObjectToObject(grp, "where");
		if (vday)
			where_set(w, "day", mday);
		if (vit)
			where_set(w, "instance_type", mit);
	}
	sub = cJSON_AddArrayToObject(grp, "sections");

	if (c.n <= AS_MAX_CHART_CELLS || conds.n < 2) {
		distribution_sections(sub, mr, NULL, &conds, stem.buf, 0,
		    with_samples(&ms, NULL));
	} else {
		for (i = 0; i < conds.n; i++)
			distribution_sections(sub, mr, conds.v[i], &conds,
			    stem.buf, i + 1, with_samples(&ms, conds.v[i]));
	}
	if (x->baseline)
		delta_section(x, sub, mr, &c, &paths, stem.buf,
		    words.len ? words.buf : "");
	if (maxruns > 1) {
		struct strbuf id = STRBUF_INIT, ct = STRBUF_INIT;
		cJSON *sec;

		strbuf_addf(&id, "%s-trials", stem.buf);
		strbuf_addf(&ct, m->source == METRIC_FROM_SUMMARY ?
		    "%s: each run's value" : "%s: each trial's p50", m->title);
		sec = section_new(sub, "trials", id.buf,
		    "Trial-to-trial spread", "Each trial's own statistic, "
		    "their mean and range, and trials far from their "
		    "siblings.");
		cJSON_AddStringToObject(sec, "stats",
		    stats_for(m, AS_STATS_TRIALS));
		add_chart(sec, "box", m->source == METRIC_FROM_SUMMARY ?
		    "mean" : "p50", ct.buf);
		strbuf_release(&id);
		strbuf_release(&ct);
	}
	if (vday) {
		if (vit)
			sel_where(x, s, F_ITYPE, mit, &tmp);
		else
			tmp = *s;
		slist_release(&days);
		distinct(x, &tmp, F_DAY, &days);
		compare_section(x, sub, &tmp, s, F_DAY, mday, vit, stem.buf,
		    &days, m);
		if (vit)
			free(tmp.r);
	}
	if (vit) {
		slist_release(&itypes);
		if (vday)
			sel_where(x, s, F_DAY, mday, &tmp);
		else
			tmp = *s;
		distinct(x, &tmp, F_ITYPE, &itypes);
		compare_section(x, sub, &tmp, s, F_ITYPE, mit, vday, stem.buf,
		    &itypes, m);
		if (vday)
			free(tmp.r);
	}
	cells_release(&c);
	free(ms.r);
	slist_release(&days);
	slist_release(&itypes);
	slist_release(&paths);
	slist_release(&conds);
	slist_release(&allpaths);
	strbuf_release(&text);
	strbuf_release(&stem);
	strbuf_release(&words);
	strbuf_release(&pooled);
}

/* A metric's runs s on AUTOSPEC_MONTH_DAYS days or more, with samples
 * to split by hour: its month group (autospec_month.c) goes into arr.
 * Returns false, with nothing written, for a campaign of a few days. */
static bool
month_group(const struct ctx *x, cJSON *arr, const struct mruns *mr,
    const struct sel *s, const char *study)
{
	struct slist days, paths, itypes;
	struct autospec_month am;
	const char **dv, **iv;
	size_t i, nd = 0, ni = 0, best = 0;
	bool done = false;

	if (mr->m->source == METRIC_FROM_SUMMARY)
		return false;
	distinct(x, s, F_DAY, &days);
	if (days.n < AUTOSPEC_MONTH_DAYS) {
		slist_release(&days);
		return false;
	}
	distinct(x, s, F_PATH, &paths);
	distinct(x, s, F_ITYPE, &itypes);
	dv = xcalloc(days.n + 1, sizeof(char *));
	iv = xcalloc(itypes.n + 1, sizeof(char *));
	for (i = 0; i < days.n; i++)
		if (days.v[i])
			dv[nd++] = days.v[i];
	qsort(dv, nd, sizeof(*dv), cmp_str_null_last);
	for (i = 0; i < itypes.n; i++) {
		if (!itypes.v[i])
			continue;
		if (!ni || itypes.count[i] > itypes.count[best])
			best = i;
		iv[ni++] = itypes.v[i];
	}
	if (nd >= AUTOSPEC_MONTH_DAYS) {
		memset(&am, 0, sizeof(am));
		am.m = mr->m;
		am.study = study;
		am.nruns = s->n;
		am.days = dv;
		am.ndays = nd;
		am.paths = paths.v;
		am.npaths = paths.n;
		am.itypes = iv;
		am.nitypes = ni;
		am.main_itype = ni ? itypes.v[best] : NULL;
		autospec_month_group(arr, &am);
		done = true;
	}
	free(dv);
	free(iv);
	slist_release(&days);
	slist_release(&paths);
	slist_release(&itypes);
	return done;
}

/* One study's group (study NULL: the runs without a study tag; all is
 * false when there are no study tags at all: then the metric groups go
 * straight into arr). */
static void
study_group(const struct ctx *x, cJSON *arr, const char *study, bool all)
{
	struct strbuf text = STRBUF_INIT, title = STRBUF_INIT;
	struct slist metrics, days, itypes;
	struct sel s[METRIC_ID_LIMIT];
	size_t i, j;
	cJSON *sub = arr;

	memset(&metrics, 0, sizeof(metrics));
	memset(&days, 0, sizeof(days));
	memset(&itypes, 0, sizeof(itypes));
	for (i = 0; i < x->nper; i++) {
		const struct mruns *mr = &x->per[i];

		memset(&s[i], 0, sizeof(s[i]));
		for (j = 0; j < mr->n; j++) {
			if (all && !str_eq(mr->r[j].camp[0], study))
				continue;
			sel_add(&s[i], &mr->r[j]);
			slist_add(&days, mr->r[j].camp[1]);
			slist_add(&itypes, mr->r[j].camp[2]);
		}
		if (s[i].n)
			slist_add(&metrics, mr->m->name);
	}
	if (all) {
		cJSON *grp, *w;

		if (study)
			strbuf_addf(&title, "Study %s", study);
		else
			strbuf_addstr(&title, "Runs without a study tag");
		strbuf_addf(&text, "%zu metric%s (", metrics.n,
		    plural(metrics.n));
		add_list(&text, &metrics, "unset");
		strbuf_addf(&text, "); %zu day%s (", days.n, plural(days.n));
		add_list(&text, &days, "no day");
		strbuf_addf(&text, "); %zu instance type%s (", itypes.n,
		    plural(itypes.n));
		add_list(&text, &itypes, "none given");
		strbuf_addstr(&text, ").");
		grp = section_new(arr, "group", NULL, title.buf, text.buf);
		w = cJSON_AddObjectToObject(grp, "where");
		where_set(w, "study", study);
		sub = cJSON_AddArrayToObject(grp, "sections");
	}
	for (i = 0; i < x->nper; i++) {
		if (s[i].n && x->per[i].m->id == METRIC_PATH_MTU)
			mtu_group(x, sub, &x->per[i], &s[i], study);
		else if (s[i].n && month_group(x, sub, &x->per[i], &s[i],
		    study))
			;
		else if (s[i].n)
			metric_group(x, sub, &x->per[i], &s[i], study);
		free(s[i].r);
	}
	slist_release(&metrics);
	slist_release(&days);
	slist_release(&itypes);
	strbuf_release(&text);
	strbuf_release(&title);
}

/* ------------------------------------------------------------------
 * Printing: two-space indents, short lists and objects on one line, as
 * a person would write the spec (cJSON's own printer uses tabs).
 */

static void print_value(const cJSON *v, size_t indent, struct strbuf *out);

static bool
is_container(const cJSON *v)
{
	return cJSON_IsObject(v) || cJSON_IsArray(v);
}

/* v on one line, when it holds no container and fits in width. */
static bool
print_inline(const cJSON *v, size_t width, struct strbuf *out)
{
	const cJSON *e;
	size_t start = out->len;
	bool obj = cJSON_IsObject(v);

	cJSON_ArrayForEach(e, v)
		if (is_container(e))
			return false;
	strbuf_addstr(out, obj ? "{ " : "[");
	cJSON_ArrayForEach(e, v) {
		if (e != v->child)
			strbuf_addstr(out, ", ");
		if (obj) {
			escape_json(out, e->string);
			strbuf_addstr(out, ": ");
		}
		print_value(e, 0, out);
	}
	strbuf_addstr(out, obj ? " }" : "]");
	if (!v->child) {
		strbuf_setlen(out, start);
		strbuf_addstr(out, obj ? "{}" : "[]");
	}
	if (out->len - start > width) {
		strbuf_setlen(out, start);
		return false;
	}
	return true;
}

static void
print_value(const cJSON *v, size_t indent, struct strbuf *out)
{
	const cJSON *e;
	bool obj = cJSON_IsObject(v);

	if (cJSON_IsString(v)) {
		escape_json(out, v->valuestring);
		return;
	}
	if (cJSON_IsNumber(v)) {
		strbuf_add_double(out, v->valuedouble);
		return;
	}
	if (!is_container(v)) {
		strbuf_addstr(out, cJSON_IsTrue(v) ? "true" : cJSON_IsFalse(v) ?
		    "false" : "null");
		return;
	}
	if (print_inline(v, indent < 72 ? 78 - indent : 8, out))
		return;
	strbuf_addstr(out, obj ? "{\n" : "[\n");
	cJSON_ArrayForEach(e, v) {
		strbuf_addf(out, "%*s", (int)(indent + 2), "");
		if (obj) {
			escape_json(out, e->string);
			strbuf_addstr(out, ": ");
		}
		print_value(e, indent + 2, out);
		strbuf_addstr(out, e->next ? ",\n" : "\n");
	}
	strbuf_addf(out, "%*s%c", (int)indent, "", obj ? '}' : ']');
}

void
report_autospec_print(const cJSON *doc, struct strbuf *out)
{
	print_value(doc, 0, out);
	strbuf_addch(out, '\n');
}

/* Does path name a path the database holds?  1 yes, 0 no (and sb gets
 * the paths it holds, ", "-separated, at most AS_MAX_PATHS_NAMED), -1
 * after printing. */
static int
path_known(sqlite3 *db, const char *path, struct strbuf *sb)
{
	sqlite3_stmt *st = db_prepare(db, "list paths", "SELECT name FROM "
	    "paths WHERE id IN (SELECT path_id FROM runs) ORDER BY name "
	    "COLLATE pathsort");
	size_t n = 0;
	int rc, found = 0;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);

		if (!strcmp(p, path))
			found = 1;
		if (n < AS_MAX_PATHS_NAMED)
			strbuf_addf(sb, "%s%s", n ? ", " : "", p);
		else if (n == AS_MAX_PATHS_NAMED)
			strbuf_addstr(sb, ", ...");
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error("list paths: %s", sqlite3_errmsg(db));
	return found;
}

/* Build the spec document of everything db holds (*out, cJSON_Delete
 * it), titled after title (the database's file name).  Returns 0, or
 * -1 after printing (no runs at all included). */
static int
build(sqlite3 *db, const char *title, const char *baseline, cJSON **out)
{
	struct ctx x;
	struct slist studies;
	struct strbuf sb = STRBUF_INIT;
	size_t n, i, j, nruns = 0;
	const struct metric *ms = metric_list(&n);
	cJSON *doc = NULL, *intro, *arr;
	int ret = -1;

	*out = NULL;
	memset(&x, 0, sizeof(x));
	memset(&studies, 0, sizeof(studies));
	x.baseline = baseline;
	if (read_tag_keys(db, &x))
		goto cleanup;
	for (i = 0; i < n && x.nper < ARRAY_SIZE(x.per); i++) {
		struct mruns *mr = &x.per[x.nper++];

		if (read_metric(db, &x, &ms[i], mr))
			goto cleanup;
		nruns += mr->n;
		for (j = 0; j < mr->n; j++)
			slist_add(&studies, mr->r[j].camp[0]);
	}
	if (!nruns) {
		error("the database holds no runs: nothing to report (pathstat "
		    "ingest stores them)");
		goto cleanup;
	}
	qsort(studies.v, studies.n, sizeof(*studies.v), cmp_str_null_last);

	doc = cJSON_CreateObject();
	strbuf_addf(&sb, "What %s holds", title);
	cJSON_AddStringToObject(doc, "title", sb.buf);
	intro = cJSON_AddArrayToObject(doc, "intro");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "pathstat wrote this report from what the database "
	    "holds, without a spec: ");
	if (studies.n > 1 || studies.v[0])
		strbuf_addstr(&sb, "for each study (the tag study), ");
	strbuf_addstr(&sb, "each metric's percentiles and the distribution of "
	    "its samples");
	if (baseline)
		strbuf_addf(&sb, ", each path's difference from the baseline "
		    "path %s", baseline);
	strbuf_addstr(&sb, ", the spread between trials where a cell has "
	    "several, and comparisons across days and instance types where "
	    "those vary. Findings of pathstat check are footnotes on the "
	    "cells they concern.");
	cJSON_AddItemToArray(intro, cJSON_CreateString(sb.buf));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "To change it, pathstat report --init > spec.json "
	    "prints this spec; edit it (docs/report.md says how) and run "
	    "pathstat report --spec spec.json --out DIR.");
	if (!baseline)
		strbuf_addstr(&sb, " No baseline path was given: --baseline "
		    "PATH adds each path's difference from it.");
	cJSON_AddItemToArray(intro, cJSON_CreateString(sb.buf));
	arr = cJSON_AddArrayToObject(doc, "sections");
	if (studies.n == 1 && !studies.v[0]) {
		study_group(&x, arr, NULL, false);
	} else {
		for (i = 0; i < studies.n; i++)
			study_group(&x, arr, studies.v[i], true);
	}
	*out = doc;
	doc = NULL;
	ret = 0;
cleanup:
	cJSON_Delete(doc);
	slist_release(&studies);
	strbuf_release(&sb);
	ctx_release(&x);
	return ret;
}

int
report_autospec_spec(const char *db_path, const char *baseline,
    struct report_spec *spec, char **text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *base = strrchr(db_path, '/');
	sqlite3 *db = db_open_readonly(db_path);
	cJSON *doc = NULL;
	int rc, ret = -1;

	*text = NULL;
	if (!db)
		goto cleanup;
	if (baseline) {
		rc = path_known(db, baseline, &sb);
		if (rc < 0)
			goto cleanup;
		if (rc == 0) {
			error("--baseline: no path '%s' in the database (paths: "
			    "%s)", baseline, sb.len ? sb.buf : "none");
			ret = -2;
			goto cleanup;
		}
	}
	if (build(db, base ? base + 1 : db_path, baseline, &doc))
		goto cleanup;
	strbuf_reset(&sb);
	report_autospec_print(doc, &sb);
	*text = strbuf_detach(&sb, NULL);
	if (spec) {
		if (report_spec_load_text(REPORT_AUTOSPEC_NAME, *text, spec))
			goto cleanup;
		spec->generated = true;
		spec->baseline = baseline ? xstrdup(baseline) : NULL;
	}
	ret = 0;
cleanup:
	cJSON_Delete(doc);
	strbuf_release(&sb);
	db_close(db);
	return ret;
}
