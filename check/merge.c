/*
 * merge.c - one finding for one story: a check that fires on the same
 * path and condition in several campaigns that differ only in the tags
 * the caller merges across (day and instance type by default; the tags
 * a report table pools) gives one finding naming the campaigns it
 * covers ("on 7 of 7 days"), not one per campaign.  Also the scope
 * texts such a finding carries: "day=D1,D2,instance_type=T,study=S",
 * the --where grammar with alternatives.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* The tags merged across when the caller names none. */
static const char *const default_keys[] = { "day", "instance_type" };

/* Is key one of the tags findings are merged across? */
static bool
merge_key(const struct check_opts *o, const char *key, size_t len)
{
	const char *const *keys = default_keys;
	size_t i, n = ARRAY_SIZE(default_keys);

	if (o && o->merge_keys) {
		keys = o->merge_keys;
		n = o->nmerge_keys;
	}
	for (i = 0; i < n; i++)
		if (strlen(keys[i]) == len && !strncmp(keys[i], key, len))
			return true;
	return false;
}

/* One "k=v" of a campaign text: its key and value. */
struct scope_kv {
	const char	*k, *v;
	size_t		klen, vlen;
};

/* The k=v pairs of a campaign text (a single value each); returns how
 * many went into kv (at most max). */
static size_t
scope_split(const char *scope, struct scope_kv *kv, size_t max)
{
	const char *p = scope;
	size_t n = 0;

	while (*p && n < max) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=");

		if (klen < len) {
			kv[n].k = p;
			kv[n].klen = klen;
			kv[n].v = p + klen + 1;
			kv[n].vlen = len - klen - 1;
			n++;
		}
		p += len;
		if (*p)
			p++;
	}
	return n;
}

#define SCOPE_MAX_KEYS	8

/* The campaign text without the merged tags: what merged findings
 * share. */
void
check_scope_rest(const struct check_opts *o, const char *scope,
    struct strbuf *sb)
{
	struct scope_kv kv[SCOPE_MAX_KEYS];
	size_t n = scope_split(scope, kv, SCOPE_MAX_KEYS), i;

	strbuf_reset(sb);
	for (i = 0; i < n; i++)
		if (!merge_key(o, kv[i].k, kv[i].klen))
			strbuf_addf(sb, "%s%.*s=%.*s", sb->len ? "," : "",
			    (int)kv[i].klen, kv[i].k, (int)kv[i].vlen,
			    kv[i].v);
}

/* Append value v of key to the list of values vals (one per line). */
static void
add_value(struct strbuf *vals, const char *v, size_t len)
{
	const char *p = vals->buf;

	while (*p) {
		size_t l = strcspn(p, "\n");

		if (l == len && !strncmp(p, v, len))
			return;
		p += l + (p[l] == '\n');
	}
	strbuf_add(vals, v, len);
	strbuf_addch(vals, '\n');
}

/* The values each key takes in the campaigns scopes[0..n), keys in the
 * order of the first campaign (which names every key there is). */
struct scope_keys {
	char		key[SCOPE_MAX_KEYS][64];
	struct strbuf	vals[SCOPE_MAX_KEYS];	/* one value per line */
	size_t		nvals[SCOPE_MAX_KEYS];
	size_t		n;
};

static void
scope_keys_collect(struct scope_keys *sk, char *const *scopes, size_t n)
{
	size_t i, j, k, nkv;

	memset(sk, 0, sizeof(*sk));
	for (i = 0; i < SCOPE_MAX_KEYS; i++)
		strbuf_init(&sk->vals[i], 0);
	for (i = 0; i < n; i++) {
		struct scope_kv kv[SCOPE_MAX_KEYS];

		nkv = scope_split(scopes[i], kv, SCOPE_MAX_KEYS);
		for (j = 0; j < nkv; j++) {
			for (k = 0; k < sk->n; k++)
				if (strlen(sk->key[k]) == kv[j].klen &&
				    !strncmp(sk->key[k], kv[j].k, kv[j].klen))
					break;
			if (k == sk->n) {
				if (sk->n == SCOPE_MAX_KEYS)
					continue;
				snprintf(sk->key[k], sizeof(sk->key[k]),
				    "%.*s", (int)kv[j].klen, kv[j].k);
				sk->n++;
			}
			add_value(&sk->vals[k], kv[j].v, kv[j].vlen);
		}
	}
	for (k = 0; k < sk->n; k++) {
		const char *p = sk->vals[k].buf;

		for (; *p; p++)
			sk->nvals[k] += *p == '\n';
	}
}

static void
scope_keys_release(struct scope_keys *sk)
{
	size_t i;

	for (i = 0; i < SCOPE_MAX_KEYS; i++)
		strbuf_release(&sk->vals[i]);
}

/* "day=D1,D2,instance_type=T": each key once with its values. */
static void
scope_keys_text(const struct scope_keys *sk, struct strbuf *sb)
{
	size_t k;

	strbuf_reset(sb);
	for (k = 0; k < sk->n; k++) {
		const char *p = sk->vals[k].buf;

		strbuf_addf(sb, "%s%s=", sb->len ? "," : "", sk->key[k]);
		while (*p) {
			size_t l = strcspn(p, "\n");

			strbuf_add(sb, p, l);
			p += l + 1;
			if (*p)
				strbuf_addch(sb, ',');
		}
	}
}

void
check_scope_join(char *const *scopes, size_t n, struct strbuf *sb)
{
	struct scope_keys sk;

	scope_keys_collect(&sk, scopes, n);
	scope_keys_text(&sk, sb);
	scope_keys_release(&sk);
}

/* A group of findings that tell one story in several campaigns. */
struct story {
	size_t	*items;		/* indices into the findings */
	size_t	n, alloc;
};

static bool
same_story(const struct check_opts *o, const struct check_finding *a,
    const struct check_finding *b, struct strbuf *ra, struct strbuf *rb)
{
	if (strcmp(a->check, b->check) || strcmp(a->metric, b->metric) ||
	    strcmp(a->path, b->path) || strcmp(a->condition, b->condition))
		return false;
	check_scope_rest(o, a->scope, ra);
	check_scope_rest(o, b->scope, rb);
	return !strcmp(ra->buf, rb->buf);
}

/* How many campaigns of the model hold a cell of f's metric, path and
 * condition whose scope, less the merged tags, is rest; the scope texts
 * of those campaigns go into *all (the caller frees the array, not the
 * strings). */
static size_t
campaigns_with_cell(const struct check_model *m, const struct check_opts *o,
    const struct check_finding *f, const char *rest, char ***all)
{
	struct strbuf r = STRBUF_INIT;
	bool *seen = xcalloc(m->nscopes ? m->nscopes : 1, sizeof(bool));
	size_t i, n = 0;

	*all = xcalloc(m->nscopes ? m->nscopes : 1, sizeof(char *));
	for (i = 0; i < m->ncells; i++) {
		const struct check_cell *c = &m->cells[i];

		if (seen[c->scope] || strcmp(m->paths[c->path], f->path) ||
		    strcmp(m->conds[c->cond], f->condition) ||
		    strcmp(check_metric_name(c->metric), f->metric))
			continue;
		check_scope_rest(o, m->scopes[c->scope], &r);
		if (strcmp(r.buf, rest))
			continue;
		seen[c->scope] = true;
		(*all)[n++] = m->scopes[c->scope];
	}
	free(seen);
	strbuf_release(&r);
	return n;
}

/* "days", "instance types" or "campaigns": what the merged campaigns
 * differ in. */
static const char *
what_differs(const struct scope_keys *sk, bool plural)
{
	size_t k, varying = 0, at = 0;

	for (k = 0; k < sk->n; k++)
		if (sk->nvals[k] > 1) {
			varying++;
			at = k;
		}
	if (varying == 1 && !strcmp(sk->key[at], "day"))
		return plural ? "days" : "day";
	if (varying == 1 && !strcmp(sk->key[at], "instance_type"))
		return plural ? "instance types" : "instance type";
	return plural ? "campaigns" : "campaign";
}

/* A merged finding quotes each campaign's own numbers up to this many
 * campaigns; past it, the first campaign's, and says so. */
#define MERGE_QUOTE_MAX	4

/* "day=D1": the merged tags of one campaign's scope that differ among
 * the story's campaigns (sk), to label its numbers. */
static void
merged_keys_text(const struct check_opts *o, const struct scope_keys *sk,
    const char *scope, struct strbuf *sb)
{
	struct scope_kv kv[SCOPE_MAX_KEYS];
	size_t nkv = scope_split(scope, kv, SCOPE_MAX_KEYS), j, k, w = 0;

	for (j = 0; j < nkv; j++) {
		if (!merge_key(o, kv[j].k, kv[j].klen))
			continue;
		/* only the tags that tell the merged campaigns apart */
		for (k = 0; k < sk->n; k++)
			if (strlen(sk->key[k]) == kv[j].klen &&
			    !strncmp(sk->key[k], kv[j].k, kv[j].klen))
				break;
		if (k < sk->n && sk->nvals[k] < 2)
			continue;
		strbuf_addf(sb, "%s%.*s=%.*s", w++ ? ", " : "",
		    (int)kv[j].klen, kv[j].k, (int)kv[j].vlen, kv[j].v);
	}
	if (!w)
		strbuf_addstr(sb, scope);
}

/* How many campaigns (scopes) the n findings were seen in: campaigns,
 * not findings, since a check may say one thing per run or trial of
 * one day. */
static size_t
campaigns_seen(char *const *scopes, size_t n)
{
	size_t i, j, nseen = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(scopes[j], scopes[i]); j++)
			;
		nseen += j == i;
	}
	return nseen;
}

/* " (day D1, D2; instance_type T)": the values of the merged tags the
 * story was seen with (sk), of those its cell's campaigns (all) differ
 * in, when it was not seen in all of them. */
static void
seen_values_text(const struct check_opts *o, const struct scope_keys *sk,
    const struct scope_keys *all, struct strbuf *ev)
{
	struct strbuf list = STRBUF_INIT;
	size_t j;

	for (j = 0; j < sk->n; j++) {
		if (!merge_key(o, sk->key[j], strlen(sk->key[j])) ||
		    all->nvals[j] < 2)
			continue;
		strbuf_addf(&list, "%s%s ", list.len ? "; " : "", sk->key[j]);
		for (const char *p = sk->vals[j].buf; *p;) {
			size_t l = strcspn(p, "\n");

			strbuf_add(&list, p, l);
			p += l + 1;
			if (*p)
				strbuf_addstr(&list, ", ");
		}
	}
	if (list.len)
		strbuf_addf(ev, " (%s)", list.buf);
	strbuf_release(&list);
}

/* ": <evidence>" or ": day=D1: <evidence>; day=D2: <evidence>": each
 * campaign's own numbers, the first finding of each; once when they
 * all say the same. */
static void
quote_each_campaign(const struct check_model *m, const struct check_opts *o,
    const struct story *s, const struct scope_keys *sk, char *const *scopes,
    struct strbuf *ev)
{
	const struct check_finding *f = &m->out->items[s->items[0]];
	bool same = true;
	size_t i, j;

	for (i = 1; i < s->n; i++)
		same = same && !strcmp(m->out->items[s->items[i]].evidence,
		    f->evidence);
	if (ev->len)
		strbuf_addstr(ev, ": ");
	if (same)
		strbuf_addstr(ev, f->evidence);
	for (i = 0; !same && i < s->n; i++) {
		for (j = 0; j < i && strcmp(scopes[j], scopes[i]); j++)
			;
		if (j < i)
			continue;
		if (i)
			strbuf_addstr(ev, "; ");
		merged_keys_text(o, sk, scopes[i], ev);
		strbuf_addf(ev, ": %s", m->out->items[s->items[i]].evidence);
	}
}

/* ": <evidence> (numbers from day=D1; pathstat check --per-campaign
 * gives each day's)": past MERGE_QUOTE_MAX campaigns, f's numbers
 * alone, saying whose they are and where the others are. */
static void
quote_first_campaign(const struct check_opts *o, const struct check_finding *f,
    const struct scope_keys *all, struct strbuf *ev)
{
	struct scope_kv kv[SCOPE_MAX_KEYS];
	size_t nkv = scope_split(f->scope, kv, SCOPE_MAX_KEYS), j, w = 0;

	strbuf_addf(ev, ": %s", f->evidence);
	strbuf_addstr(ev, " (numbers from ");
	for (j = 0; j < nkv; j++) {
		if (!merge_key(o, kv[j].k, kv[j].klen))
			continue;
		strbuf_addf(ev, "%s%.*s=%.*s", w++ ? ", " : "",
		    (int)kv[j].klen, kv[j].k, (int)kv[j].vlen, kv[j].v);
	}
	strbuf_addf(ev, "; pathstat check --per-campaign gives each %s's)",
	    what_differs(all, false));
}

/* Add the runs of story s's other findings to its first (f), and
 * forget f's trial unless they all name the same one; ix is m's runs by
 * id.  All at once: one at a time was O(runs) each. */
static void
fold_runs(const struct check_model *m, const struct check_run_ix *ix,
    const struct story *s, struct check_finding *f)
{
	const struct check_run **runs;
	size_t i, j, n = 0;

	for (i = 1; i < s->n; i++)
		n += m->out->items[s->items[i]].nruns;
	runs = xcalloc(n + 1, sizeof(*runs));
	n = 0;
	for (i = 1; i < s->n; i++) {
		const struct check_finding *g = &m->out->items[s->items[i]];

		for (j = 0; j < g->nruns; j++) {
			const struct check_run *r = check_run_of(m, ix,
			    g->runs[j]);

			if (r)
				runs[n++] = r;
		}
		if (g->trial != f->trial)
			f->trial = -1;
	}
	check_add_runs(f, runs, n);
	free(runs);
}

/* Fold the findings of story s into its first: runs, files, one scope
 * naming every campaign, the trial when they agree, and the evidence
 * saying in how many of the cell's campaigns it was seen, with each
 * campaign's numbers (up to MERGE_QUOTE_MAX of them). */
static void
fold(struct check_model *m, const struct check_opts *o,
    const struct check_run_ix *ix, struct story *s, struct strbuf *ra)
{
	struct check_finding *f = &m->out->items[s->items[0]];
	struct scope_keys sk, all;
	struct strbuf ev = STRBUF_INIT, sc = STRBUF_INIT;
	char **scopes = xcalloc(s->n, sizeof(char *)), **cells;
	struct strbuf counts = STRBUF_INIT;
	size_t i, ncells, nseen, prefix;
	const char *unit;

	for (i = 0; i < s->n; i++)
		scopes[i] = m->out->items[s->items[i]].scope;
	scope_keys_collect(&sk, scopes, s->n);
	check_scope_rest(o, f->scope, ra);
	ncells = campaigns_with_cell(m, o, f, ra->buf, &cells);
	scope_keys_collect(&all, cells, ncells);
	unit = what_differs(&all, true);
	nseen = campaigns_seen(scopes, s->n);
	/* one campaign in all: no count to give ("in 1 of 1 campaigns"
	 * tells the reader nothing), the evidence alone */
	if (ncells > 1 || nseen > 1)
		strbuf_addf(&ev, "%s %zu of %zu %s", strcmp(unit, "days") ?
		    "in" : "on", nseen, ncells < nseen ? nseen : ncells,
		    unit);
	if (nseen < ncells)
		seen_values_text(o, &sk, &all, &ev);
	prefix = ev.len;
	if (nseen <= MERGE_QUOTE_MAX)
		quote_each_campaign(m, o, s, &sk, scopes, &ev);
	else
		quote_first_campaign(o, f, &all, &ev);
	fold_runs(m, ix, s, f);
	/* counts a cell adds up (failures, slow probes): the cell's, with
	 * each run's after them, never one run's for the whole cell */
	if (check_run_counts_merged(m, f, &counts)) {
		strbuf_setlen(&ev, prefix);
		strbuf_addf(&ev, "%s%s", prefix ? ": " : "", counts.buf);
	}
	strbuf_release(&counts);
	scope_keys_text(&sk, &sc);
	free(f->scope);
	f->scope = strbuf_detach(&sc, NULL);
	free(f->evidence);
	f->evidence = strbuf_detach(&ev, NULL);
	scope_keys_release(&sk);
	scope_keys_release(&all);
	free(scopes);
	free(cells);
}

void
check_finding_release(struct check_finding *f)
{
	size_t j;

	free(f->metric);
	free(f->path);
	free(f->condition);
	free(f->scope);
	free(f->runs);
	for (j = 0; j < f->nfiles; j++)
		free(f->files[j]);
	free(f->files);
	free(f->evidence);
	free(f->cause);
	free(f->action);
}

/*
 * Merge the findings appended since first (one check's) that tell the
 * same story in several campaigns.  Each kept finding stays where its
 * first member was.
 */
void
check_merge(struct check_model *m, size_t first)
{
	const struct check_opts *o = m->opts;
	struct check_findings *out = m->out;
	struct strbuf ra = STRBUF_INIT, rb = STRBUF_INIT;
	struct story *stories = NULL;
	struct check_run_ix *ix = NULL;
	size_t *story_of, nstories = 0, alloc = 0, i, j, k;
	bool *drop;

	if ((o && o->per_campaign) || out->n - first < 2)
		return;
	story_of = xcalloc(out->n, sizeof(size_t));
	drop = xcalloc(out->n, sizeof(bool));
	for (i = first; i < out->n; i++) {
		for (j = 0; j < nstories; j++)
			if (same_story(o, &out->items[stories[j].items[0]],
			    &out->items[i], &ra, &rb))
				break;
		if (j == nstories) {
			ALLOC_GROW(stories, nstories + 1, alloc);
			memset(&stories[nstories++], 0, sizeof(*stories));
		}
		ALLOC_GROW(stories[j].items, stories[j].n + 1,
		    stories[j].alloc);
		stories[j].items[stories[j].n++] = i;
		story_of[i] = j;
	}
	for (j = 0; j < nstories; j++) {
		if (stories[j].n > 1 && !ix)
			ix = check_run_index(m);
		if (stories[j].n > 1)
			fold(m, o, ix, &stories[j], &ra);
		for (i = 1; i < stories[j].n; i++)
			drop[stories[j].items[i]] = true;
	}
	for (i = k = first; i < out->n; i++) {
		if (drop[i]) {
			check_finding_release(&out->items[i]);
			continue;
		}
		out->items[k++] = out->items[i];
	}
	out->n = k;
	for (j = 0; j < nstories; j++)
		free(stories[j].items);
	free(stories);
	free(ix);
	free(story_of);
	free(drop);
	strbuf_release(&ra);
	strbuf_release(&rb);
}
