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
#include "report/autospec_runs.h"
#include "report/internal.h"

/* More (path, condition) cells than this under one metric: a table and
 * an ECDF per condition, so a chart stays readable. */
#define AS_MAX_CHART_CELLS	8
/* Values a paragraph lists before "and N more". */
#define AS_MAX_LISTED		6
/* Paths named when --baseline names none that exists. */
#define AS_MAX_PATHS_NAMED	20

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

/* Does some cell of s hold runs under value v of field f and under
 * another value? */
static bool
comparable(const struct ctx *x, const struct sel *s, size_t f, const char *v)
{
	struct cells c;
	size_t i, j;
	bool any = false;

	autospec_cells_of(s, &c);
	for (j = 0; j < c.n && !any; j++) {
		bool base = false, other = false;

		for (i = 0; i < s->n; i++) {
			const struct arun *r = s->r[i];

			if (strcmp(r->path, c.path[j]) ||
			    strcmp(r->cond, c.cond[j]))
				continue;
			if (autospec_str_eq(autospec_field(x, r, f), v))
				base = true;
			else
				other = true;
		}
		any = base && other;
	}
	autospec_cells_release(&c);
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
	autospec_distinct(x, all, o, &others);
	/* busiest first: runs per value, ties in order of appearance */
	while (!found && others.n) {
		struct sel tmp;

		for (i = best = 0; i < others.n; i++)
			if (others.count[i] > others.count[best])
				best = i;
		if (!autospec_str_eq(others.v[best], ov)) {
			autospec_sel_where(x, all, o, others.v[best], &tmp);
			autospec_distinct(x, &tmp, f, &vals);
			j = autospec_slist_find(&vals, v);
			if (vals.n > 1 && comparable(x, &tmp, f, j < vals.n ?
			    v : vals.v[0])) {
				*scope = others.v[best];
				*base = j < vals.n ? v : vals.v[0];
				found = true;
			}
			autospec_slist_release(&vals);
			free(tmp.r);
		}
		others.v[best] = others.v[others.n - 1];
		others.count[best] = others.count[others.n - 1];
		others.n--;
	}
	autospec_slist_release(&others);
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
	const char *key = autospec_camp_keys[f - F_STUDY];
	const char *okey = autospec_camp_keys[o - F_STUDY];
	const char *ov = s->n ? autospec_field(x, s->r[0], o) : NULL;
	const char *scope, *base;
	struct strbuf title = STRBUF_INIT, text = STRBUF_INIT, id = STRBUF_INIT;
	cJSON *sec, *w;
	bool ok;

	strbuf_addf(&id, "%s-%s", stem, day ? "days" : "instance-types");
	ok = compare_scope(x, s, all, f, v, o, ov, vother, &scope, &base);
	strbuf_addf(&title, "%s against %s", day ? "Days" : "Instance types",
	    (ok ? base : v) ? (ok ? base : v) : "unset");
	if (ok && vother && !autospec_str_eq(scope, ov))
		strbuf_addf(&title, " on %s", scope ? scope : "unset");
	if (!ok) {
		strbuf_addf(&text, "Runs on %zu %s (", vals->n, day ? "days" :
		    "instance types");
		add_list(&text, vals, "unset");
		strbuf_addf(&text, "), but no path and condition was measured "
		    "on %s and on another: nothing to compare.", v ? v :
		    "unset");
		autospec_section(arr, "text", NULL, title.buf, text.buf);
		goto cleanup;
	}
	strbuf_addf(&text, "Each %s against %s, for the paths and conditions "
	    "measured on both; the ratio's interval covers trial-to-trial "
	    "variation (the caption names its method), and the verdict "
	    "says whether the difference is real.",
	    day ? "day" : "instance type", base ? base : "unset");
	if (vother && !autospec_str_eq(scope, ov))
		strbuf_addf(&text, " The runs on %s share no condition across "
		    "%s, so this compares those %s %s, where they do.",
		    ov ? ov : "unset", day ? "days" : "instance types",
		    day ? "on" : "of", scope ? scope : "unset");
	sec = autospec_section(arr, "compare", id.buf, title.buf, text.buf);
	w = cJSON_AddObjectToObject(sec, "where");
	cJSON_AddNullToObject(w, key);
	if (vother && !autospec_str_eq(scope, ov))
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
	if (autospec_slist_find(paths, b) == paths->n) {
		strbuf_addf(&text, "The baseline path %s has no %s runs%s: no "
		    "differences to show.", b, mr->m->name, where_words);
		autospec_section(arr, "text", NULL, title.buf, text.buf);
		goto cleanup;
	}
	for (i = 0; i < paths->n; i++) {
		bool shared = false;

		if (!strcmp(paths->v[i], b))
			continue;
		for (j = 0; j < c->n && !shared; j++)
			shared = !strcmp(c->path[j], paths->v[i]) &&
			    autospec_cells_find(c, b, c->cond[j]) < c->n;
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
			sec = autospec_section(arr, "delta", id.buf, title.buf,
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
		autospec_section(arr, "text", NULL, title.buf, text.buf);
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
	sec = autospec_section(arr, "percentiles", id.buf, title.buf,
	    words.len ? words.buf : NULL);
	cJSON_AddStringToObject(sec, "stats", stats_for(m, AS_STATS_TABLE));
	if (cond)
		where_condition(sec, cond, conds);
	/* bars show percentiles; a value per run has its runs' box chart
	 * in the trials section */
	if (m->source != METRIC_FROM_SUMMARY)
		autospec_chart(sec, "bars", NULL, ct.buf);
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
	sec = autospec_section(arr, "chart", id.buf, title.buf, NULL);
	if (cond)
		where_condition(sec, cond, conds);
	autospec_chart(sec, "ecdf", NULL, ct.buf);
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

	autospec_distinct(x, s, F_DAY, &days);
	autospec_distinct(x, s, F_PATH, &paths);
	strbuf_addf(&text, "%zu pathprobe --mtu result%s for %zu path%s (",
	    s->n, plural(s->n), paths.n, plural(paths.n));
	add_list(&text, &paths, "unset");
	strbuf_addstr(&text, ").");
	strbuf_addf(&id, "%s%smtu", study ? study : "", study ? "-" : "");
	{
		struct strbuf title = STRBUF_INIT;

		strbuf_addf(&title, "%s (%s)", mr->m->title, mr->m->name);
		grp = autospec_section(arr, "group", NULL, title.buf, text.buf);
		strbuf_release(&title);
	}
	cJSON_AddStringToObject(grp, "metric", mr->m->name);
	sec = autospec_section(cJSON_AddArrayToObject(grp, "sections"), "mtu",
	    id.buf, days.n > 1 ? "Path MTU per day" : "Path MTU", NULL);
	if (days.n > 1) {
		by = cJSON_AddArrayToObject(sec, "by");
		cJSON_AddItemToArray(by, cJSON_CreateString("day"));
	}
	autospec_slist_release(&days);
	autospec_slist_release(&paths);
	strbuf_release(&text);
	strbuf_release(&id);
}

/* "2026-08-28 and c6i.large" */
static void
campaign_words(struct strbuf *sb, const char *const camp[2])
{
	strbuf_addf(sb, "%s and %s", camp[0] ? camp[0] : "no day",
	    camp[1] ? camp[1] : "no instance type");
}

/* What one metric's group is made from: its runs in the study, those
 * its tables hold (its campaign's) and what they fill. */
struct mgroup {
	const struct metric *m;
	const struct sel *s;		/* the study's runs of the metric */
	struct sel	ms;		/* those the tables hold */
	struct slist	paths, conds;	/* of ms (conditions sorted) */
	struct slist	allpaths;	/* of s */
	struct cells	c;		/* of ms */
	const char	*mday, *mit;	/* the campaign the tables hold */
	bool		vday, vit;	/* s spans days, instance types */
	bool		own;		/* not the study's campaign: the
					 * metric's own with most runs */
	size_t		maxruns;	/* most runs of one cell */
};

/* The campaign of the metric's tables and what its runs there fill. */
static void
mgroup_init(const struct ctx *x, struct mgroup *g, const struct mruns *mr,
    const struct sel *s, const char *const camp[2])
{
	struct slist days, itypes;
	size_t i;

	memset(g, 0, sizeof(*g));
	g->m = mr->m;
	g->s = s;
	autospec_distinct(x, s, F_DAY, &days);
	autospec_distinct(x, s, F_ITYPE, &itypes);
	autospec_distinct(x, s, F_PATH, &g->allpaths);
	g->vday = days.n > 1;
	g->vit = itypes.n > 1;
	autospec_slist_release(&days);
	autospec_slist_release(&itypes);
	g->own = !autospec_sel_has_campaign(x, s, camp[0], camp[1]);
	if (g->own) {
		autospec_main_campaign(x, s, &g->mday, &g->mit);
	} else {
		g->mday = camp[0];
		g->mit = camp[1];
	}
	for (i = 0; i < s->n; i++)
		if ((!g->vday || autospec_str_eq(s->r[i]->camp[1], g->mday)) &&
		    (!g->vit || autospec_str_eq(s->r[i]->camp[2], g->mit)))
			autospec_sel_add(&g->ms, s->r[i]);
	autospec_distinct(x, &g->ms, F_PATH, &g->paths);
	autospec_distinct(x, &g->ms, F_COND, &g->conds);
	qsort(g->conds.v, g->conds.n, sizeof(*g->conds.v), autospec_cmp_str);
	autospec_cells_of(&g->ms, &g->c);
	for (i = 0; i < g->c.n; i++)
		if (g->c.runs[i] > g->maxruns)
			g->maxruns = g->c.runs[i];
}

static void
mgroup_release(struct mgroup *g)
{
	autospec_cells_release(&g->c);
	free(g->ms.r);
	autospec_slist_release(&g->paths);
	autospec_slist_release(&g->conds);
	autospec_slist_release(&g->allpaths);
}

/* The paragraph's words on the campaign the tables hold: the study's
 * (or, not measured there, the metric's own), what is compared against
 * it, paths measured only outside it.  words gets " on DAY and TYPE". */
static void
mgroup_campaign_text(const struct ctx *x, const struct mgroup *g,
    const char *const camp[2], struct strbuf *words, struct strbuf *text)
{
	size_t i;

	if (!g->vday && !g->vit) {
		const char *own_camp[2];

		if (!g->own || !g->ms.n)
			return;
		own_camp[0] = autospec_field(x, g->ms.r[0], F_DAY);
		own_camp[1] = autospec_field(x, g->ms.r[0], F_ITYPE);
		strbuf_addstr(text, " Measured only on ");
		campaign_words(text, own_camp);
		strbuf_addstr(text, ", not on the campaign the other tables "
		    "hold (");
		campaign_words(text, camp);
		strbuf_addstr(text, ").");
		return;
	}
	strbuf_addstr(words, " on");
	if (g->vday)
		strbuf_addf(words, " %s", g->mday ? g->mday : "no day");
	if (g->vit)
		strbuf_addf(words, "%s %s", g->vday ? " and" : "",
		    g->mit ? g->mit : "no instance type");
	if (g->own) {
		strbuf_addstr(text, " Not measured on the campaign the other "
		    "tables hold (");
		campaign_words(text, camp);
		strbuf_addf(text, "): these tables hold the runs%s, the "
		    "campaign with the most of its runs; the comparisons "
		    "below set the other ", words->buf);
	} else {
		strbuf_addf(text, " The tables hold the runs%s, the campaign "
		    "every table here holds (the introduction says how it is "
		    "chosen); the comparisons below set the other ",
		    words->buf);
	}
	if (g->vday && g->vit)
		strbuf_addstr(text, "days and instance types");
	else
		strbuf_addstr(text, g->vday ? "days" : "instance types");
	strbuf_addstr(text, " against it.");
	if (g->allpaths.n > g->paths.n) {
		struct slist only;

		memset(&only, 0, sizeof(only));
		for (i = 0; i < g->allpaths.n; i++)
			if (autospec_slist_find(&g->paths, g->allpaths.v[i]) ==
			    g->paths.n)
				autospec_slist_add(&only, g->allpaths.v[i]);
		strbuf_addstr(text, " Measured only outside it: ");
		add_list(text, &only, "unset");
		strbuf_addch(text, '.');
		autospec_slist_release(&only);
	}
}

/* The group's paragraph: what its tables hold. */
static void
mgroup_text(const struct ctx *x, const struct mgroup *g,
    const char *const camp[2], struct strbuf *words, struct strbuf *text)
{
	struct strbuf pooled = STRBUF_INIT;
	size_t i;

	strbuf_addf(text, "%zu run%s of %zu path%s (", g->ms.n,
	    plural(g->ms.n), g->paths.n, plural(g->paths.n));
	add_list(text, &g->paths, "unset");
	strbuf_addstr(text, ")");
	if (g->conds.n > 1 || (g->conds.n == 1 && *g->conds.v[0])) {
		strbuf_addf(text, " under %zu condition%s (", g->conds.n,
		    plural(g->conds.n));
		add_list(text, &g->conds, "unset");
		strbuf_addstr(text, ")");
	}
	strbuf_addch(text, '.');
	mgroup_campaign_text(x, g, camp, words, text);
	autospec_pooled_keys(x, &g->ms, &g->c, &pooled);
	if (pooled.len)
		strbuf_addf(text, " Each cell pools runs that differ in: %s.",
		    pooled.buf);
	strbuf_release(&pooled);
	/* said once, here, rather than as a failed chart per condition */
	if (g->m->source == METRIC_FROM_SAMPLES && !with_samples(&g->ms, NULL))
		strbuf_addstr(text, " No run here holds per-request samples "
		    "(only the tool's summary, as oha's JSON gives): each "
		    "table cell is the mean across trials of the tool's own "
		    "percentiles, and there is no distribution (ECDF) to "
		    "draw.");
	else if (g->m->source == METRIC_FROM_SAMPLES)
		for (i = 0; i < g->conds.n; i++)
			if (!with_samples(&g->ms, g->conds.v[i])) {
				strbuf_addstr(text, " Conditions whose runs "
				    "hold only the tool's summary (no "
				    "per-request samples) get no ECDF.");
				break;
			}
}

/* The trials section with its box chart, where a cell has several. */
static void
mgroup_trials(cJSON *sub, const struct mgroup *g, const char *stem)
{
	const struct metric *m = g->m;
	struct strbuf id = STRBUF_INIT, ct = STRBUF_INIT;
	cJSON *sec;

	if (g->maxruns <= 1)
		return;
	strbuf_addf(&id, "%s-trials", stem);
	strbuf_addf(&ct, m->source == METRIC_FROM_SUMMARY ?
	    "%s: each run's value" : "%s: each trial's p50", m->title);
	sec = autospec_section(sub, "trials", id.buf, "Trial-to-trial spread",
	    "Each trial's own statistic, their mean and range, and trials "
	    "far from their siblings.");
	cJSON_AddStringToObject(sec, "stats", stats_for(m, AS_STATS_TRIALS));
	autospec_chart(sec, "box", m->source == METRIC_FROM_SUMMARY ?
	    "mean" : "p50", ct.buf);
	strbuf_release(&id);
	strbuf_release(&ct);
}

/* The comparisons across days (f F_DAY) or instance types (F_ITYPE),
 * the other key held at the campaign's value where it varies too. */
static void
mgroup_compare(const struct ctx *x, cJSON *sub, const struct mgroup *g,
    size_t f, const char *stem)
{
	bool day = f == F_DAY, vother = day ? g->vit : g->vday;
	const char *v = day ? g->mday : g->mit;
	struct sel tmp;
	struct slist vals;

	if (vother)
		autospec_sel_where(x, g->s, day ? F_ITYPE : F_DAY, day ?
		    g->mit : g->mday, &tmp);
	else
		tmp = *g->s;
	autospec_distinct(x, &tmp, f, &vals);
	compare_section(x, sub, &tmp, g->s, f, v, vother, stem, &vals, g->m);
	autospec_slist_release(&vals);
	if (vother)
		free(tmp.r);
}

/* One metric's group over the runs s (one study's); camp is the study's
 * campaign (day, instance type: autospec_study_campaign), which its
 * tables hold when the metric was measured on it. */
static void
metric_group(const struct ctx *x, cJSON *arr, const struct mruns *mr,
    const struct sel *s, const char *study, const char *const camp[2])
{
	const struct metric *m = mr->m;
	struct mgroup g;
	struct strbuf text = STRBUF_INIT, stem = STRBUF_INIT;
	struct strbuf words = STRBUF_INIT, title = STRBUF_INIT;
	size_t i;
	cJSON *grp, *w, *sub;

	mgroup_init(x, &g, mr, s, camp);
	mgroup_text(x, &g, camp, &words, &text);
	strbuf_addf(&stem, "%s%s%s", study ? study : "", study ? "-" : "",
	    m->name);
	strbuf_addf(&title, "%s (%s)", m->title, m->name);
	grp = autospec_section(arr, "group", NULL, title.buf, text.buf);
	cJSON_AddStringToObject(grp, "metric", m->name);
	if (g.vday || g.vit) {
		w = cJSON_AddObjectToObject(grp, "where");
		if (g.vday)
			where_set(w, "day", g.mday);
		if (g.vit)
			where_set(w, "instance_type", g.mit);
	}
	sub = cJSON_AddArrayToObject(grp, "sections");

	if (g.c.n <= AS_MAX_CHART_CELLS || g.conds.n < 2) {
		distribution_sections(sub, mr, NULL, &g.conds, stem.buf, 0,
		    with_samples(&g.ms, NULL));
	} else {
		for (i = 0; i < g.conds.n; i++)
			distribution_sections(sub, mr, g.conds.v[i], &g.conds,
			    stem.buf, i + 1, with_samples(&g.ms,
			    g.conds.v[i]));
	}
	if (x->baseline)
		delta_section(x, sub, mr, &g.c, &g.paths, stem.buf,
		    words.len ? words.buf : "");
	mgroup_trials(sub, &g, stem.buf);
	if (g.vday)
		mgroup_compare(x, sub, &g, F_DAY, stem.buf);
	if (g.vit)
		mgroup_compare(x, sub, &g, F_ITYPE, stem.buf);
	mgroup_release(&g);
	strbuf_release(&text);
	strbuf_release(&stem);
	strbuf_release(&words);
	strbuf_release(&title);
}

/* Is the metric read as monitoring (month_group): samples to split by
 * hour, on AUTOSPEC_MONTH_DAYS days or more? */
static bool
month_metric(const struct ctx *x, const struct mruns *mr, const struct sel *s)
{
	struct slist days;
	size_t i, nd = 0;

	if (mr->m->source == METRIC_FROM_SUMMARY)
		return false;
	autospec_distinct(x, s, F_DAY, &days);
	for (i = 0; i < days.n; i++)
		if (days.v[i])
			nd++;
	autospec_slist_release(&days);
	return nd >= AUTOSPEC_MONTH_DAYS;
}

/* Which instance types of iv[0..ni) lack which of the days dv[0..nd)
 * among runs s: "r7i.large lacks 5 of 21 days (2026-11-08..2026-11-12)",
 * "; "-joined into sb (runs of adjacent days of the data as a range). */
static void
month_gaps(const struct ctx *x, const struct sel *s, const char **dv,
    size_t nd, const char **iv, size_t ni, struct strbuf *sb)
{
	bool *has = xcalloc(nd + 1, sizeof(bool));
	size_t i, d, r, miss;

	for (i = 0; i < ni; i++) {
		memset(has, 0, (nd + 1) * sizeof(bool));
		for (r = 0; r < s->n; r++) {
			const char *it = autospec_field(x, s->r[r], F_ITYPE);
			const char *day = autospec_field(x, s->r[r], F_DAY);

			if (!it || !day || strcmp(it, iv[i]))
				continue;
			for (d = 0; d < nd && strcmp(dv[d], day); d++)
				;
			has[d] = true;
		}
		for (d = miss = 0; d < nd; d++)
			miss += !has[d];
		if (!miss)
			continue;
		strbuf_addf(sb, "%s%s lacks %zu of %zu days (", sb->len ? "; " :
		    "", iv[i], miss, nd);
		for (d = 0, miss = 0; d < nd; d++) {
			size_t e = d;

			if (has[d])
				continue;
			while (e + 1 < nd && !has[e + 1])
				e++;
			strbuf_addf(sb, "%s%s", miss++ ? ", " : "", dv[d]);
			if (e > d)
				strbuf_addf(sb, "..%s", dv[e]);
			d = e;
		}
		strbuf_addch(sb, ')');
	}
	free(has);
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
	struct strbuf gaps = STRBUF_INIT;
	const char **dv, **iv;
	size_t i, nd = 0, ni = 0, best = 0;
	bool done = false;

	if (!month_metric(x, mr, s))
		return false;
	autospec_distinct(x, s, F_DAY, &days);
	autospec_distinct(x, s, F_PATH, &paths);
	autospec_distinct(x, s, F_ITYPE, &itypes);
	dv = xcalloc(days.n + 1, sizeof(char *));
	iv = xcalloc(itypes.n + 1, sizeof(char *));
	for (i = 0; i < days.n; i++)
		if (days.v[i])
			dv[nd++] = days.v[i];
	qsort(dv, nd, sizeof(*dv), autospec_cmp_str);
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
		if (ni > 1)
			month_gaps(x, s, dv, nd, iv, ni, &gaps);
		am.gaps = gaps.len ? gaps.buf : NULL;
		autospec_month_group(arr, &am);
		done = true;
	}
	free(dv);
	free(iv);
	strbuf_release(&gaps);
	autospec_slist_release(&days);
	autospec_slist_release(&paths);
	autospec_slist_release(&itypes);
	return done;
}

/* One study's group (study NULL: the runs without a study tag; all is
 * false when there are no study tags at all: then the metric groups go
 * straight into arr). */
static void
study_group(const struct ctx *x, cJSON *arr, const char *study, bool all)
{
	struct strbuf text = STRBUF_INIT, title = STRBUF_INIT;
	struct strbuf side_text = STRBUF_INIT;
	bool *side = xcalloc(x->ntagkeys + 1, sizeof(*side));
	cJSON *w = cJSON_CreateObject();
	struct slist metrics, days, itypes;
	struct sel s[METRIC_ID_LIMIT], camp_sel[METRIC_ID_LIMIT];
	const char *camp[2];
	size_t i, j, ncamp = 0;
	cJSON *sub = arr;

	memset(&metrics, 0, sizeof(metrics));
	memset(&days, 0, sizeof(days));
	memset(&itypes, 0, sizeof(itypes));
	/* the tables hold the runs without a tag that sets runs apart */
	if (all)
		where_set(w, "study", study);
	autospec_side_tags(x, study, all, w, &side_text, side);
	for (i = 0; i < x->nper; i++) {
		const struct mruns *mr = &x->per[i];

		memset(&s[i], 0, sizeof(s[i]));
		for (j = 0; j < mr->n; j++) {
			if (all && !autospec_str_eq(mr->r[j].camp[0], study))
				continue;
			if (autospec_on_side(x, &mr->r[j], side))
				continue;
			autospec_sel_add(&s[i], &mr->r[j]);
			autospec_slist_add(&days, mr->r[j].camp[1]);
			autospec_slist_add(&itypes, mr->r[j].camp[2]);
		}
		if (s[i].n)
			autospec_slist_add(&metrics, mr->m->name);
	}
	/* one campaign for every table of the study, chosen once */
	for (i = 0; i < x->nper; i++)
		if (s[i].n && x->per[i].m->id != METRIC_PATH_MTU &&
		    !month_metric(x, &x->per[i], &s[i]))
			camp_sel[ncamp++] = s[i];
	autospec_study_campaign(x, camp_sel, ncamp, &camp[0], &camp[1]);
	if (all) {
		cJSON *grp;

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
		if (ncamp && (days.n > 1 || itypes.n > 1)) {
			strbuf_addstr(&text, " Every table below holds the "
			    "runs on ");
			campaign_words(&text, camp);
			strbuf_addstr(&text, " unless it says otherwise.");
		}
		if (side_text.len)
			strbuf_addstr(&text, side_text.buf);
		grp = autospec_section(arr, "group", NULL, title.buf, text.buf);
		cJSON_AddItemToObject(grp, "where", w);
		w = NULL;
		sub = cJSON_AddArrayToObject(grp, "sections");
	}
	for (i = 0; i < x->nper; i++) {
		if (s[i].n && x->per[i].m->id == METRIC_PATH_MTU)
			mtu_group(x, sub, &x->per[i], &s[i], study);
		else if (s[i].n && month_group(x, sub, &x->per[i], &s[i],
		    study))
			;
		else if (s[i].n)
			metric_group(x, sub, &x->per[i], &s[i], study, camp);
	}
	for (i = 0; i < x->nper; i++)
		free(s[i].r);
	autospec_slist_release(&metrics);
	autospec_slist_release(&days);
	autospec_slist_release(&itypes);
	strbuf_release(&text);
	strbuf_release(&title);
	strbuf_release(&side_text);
	cJSON_Delete(w);
	free(side);
}

/* Do the runs of some metric span several days or instance types? */
static bool
several_campaigns(const struct ctx *x)
{
	size_t i, j;

	for (i = 0; i < x->nper; i++)
		for (j = 1; j < x->per[i].n; j++)
			if (!autospec_str_eq(x->per[i].r[j].camp[1],
			    x->per[i].r[0].camp[1]) ||
			    !autospec_str_eq(x->per[i].r[j].camp[2],
			    x->per[i].r[0].camp[2]))
				return true;
	return false;
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
	if (autospec_read_tag_keys(db, &x))
		goto cleanup;
	if (autospec_read_once(db, &x))
		goto cleanup;
	for (i = 0; i < n && x.nper < ARRAY_SIZE(x.per); i++) {
		struct mruns *mr = &x.per[x.nper++];

		if (autospec_read_metric(db, &x, &ms[i], mr))
			goto cleanup;
		nruns += mr->n;
		for (j = 0; j < mr->n; j++)
			autospec_slist_add(&studies, mr->r[j].camp[0]);
	}
	autospec_debug_counts(&x);
	if (!nruns) {
		error("the database holds no runs: nothing to report (pathstat "
		    "ingest stores them)");
		goto cleanup;
	}
	qsort(studies.v, studies.n, sizeof(*studies.v), autospec_cmp_str);

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
	if (several_campaigns(&x))
		strbuf_addstr(&sb, " One rule picks the campaign the tables "
		    "hold, once per study and the same for every metric: the "
		    "day and instance type on which the most of the study's "
		    "metrics were measured, then the one with the most runs, "
		    "then the earliest. A metric not measured then holds its "
		    "own campaign with the most runs, and says so; one "
		    "measured on 7 days or more is read over its whole "
		    "period.");
	cJSON_AddItemToArray(intro, cJSON_CreateString(sb.buf));
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "To change it, pathstat report --init > spec.json "
	    "prints this spec; edit it (docs/report.md says how) and run "
	    "pathstat report --spec spec.json --out DIR.");
	if (!baseline)
		strbuf_addstr(&sb, " No baseline path was given: --baseline "
		    "PATH adds each path's difference from it.");
	cJSON_AddItemToArray(intro, cJSON_CreateString(sb.buf));
	if (studies.n == 1 && !studies.v[0]) {
		cJSON *w = cJSON_CreateObject();
		bool *side = xcalloc(x.ntagkeys + 1, sizeof(*side));

		strbuf_reset(&sb);
		if (autospec_side_tags(&x, NULL, false, w, &sb, side)) {
			cJSON_AddItemToArray(intro,
			    cJSON_CreateString(sb.buf + 1));
			cJSON_AddItemToObject(doc, "where", w);
		} else {
			cJSON_Delete(w);
		}
		free(side);
	}
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
	autospec_slist_release(&studies);
	strbuf_release(&sb);
	autospec_ctx_release(&x);
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
