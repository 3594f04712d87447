/*
 * pooling.c - which run tags differ among the runs a cell pools (see
 * pooling.h).  One pass over the runs of the cellset with every
 * candidate key as a dimension; a cell pools a key when two of its runs
 * hold different values of it (a run without the key counts as the
 * value "" beside one with it).
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/pooling.h"
#include "common/db.h"
#include "common/err.h"
#include "common/hash.h"
#include "common/keycat.h"
#include "common/runsel.h"
#include "common/xalloc.h"

/* At most this many values of a key are named in the caption. */
#define POOLING_NOTE_VALUES	4

static bool
in_list(char *const *l, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The run tag keys of the database, distinct, in key order (while the
 * memo is on, read once for its database). */
static struct {
	sqlite3		*db;		/* borrowed; NULL: the memo is off */
	char		**keys;		/* owned */
	size_t		n;
	bool		have;		/* keys are read */
	unsigned long	reads;		/* queries since begin */
} tagkeys;

void
pooling_memo_begin(sqlite3 *db)
{
	pooling_memo_end();
	tagkeys.db = db;
}

void
pooling_memo_end(void)
{
	while (tagkeys.n)
		free(tagkeys.keys[--tagkeys.n]);
	free(tagkeys.keys);
	memset(&tagkeys, 0, sizeof(tagkeys));
}

unsigned long
pooling_tag_key_reads(void)
{
	return tagkeys.reads;
}

/* The keys into *out (owned strings) and *n, from the memo or db.
 * Returns 0, or -1 after printing an error. */
static int
tag_keys(sqlite3 *db, char ***out, size_t *nout)
{
	sqlite3_stmt *st;
	char **keys = NULL;
	size_t n = 0, alloc = 0, i;
	int rc;

	*out = NULL;
	*nout = 0;
	if (tagkeys.have && tagkeys.db == db) {
		keys = xcalloc(tagkeys.n + 1, sizeof(*keys));
		for (i = 0; i < tagkeys.n; i++)
			keys[i] = xstrdup(tagkeys.keys[i]);
		*out = keys;
		*nout = tagkeys.n;
		return 0;
	}
	tagkeys.reads++;
	st = db_prepare(db, "read tag keys", "SELECT DISTINCT key FROM "
	    "run_tags ORDER BY key");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);

		if (!k)
			continue;
		ALLOC_GROW(keys, n + 1, alloc);
		keys[n++] = xstrdup(k);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		while (n)
			free(keys[--n]);
		free(keys);
		return error("read tag keys: %s", sqlite3_errmsg(db));
	}
	if (tagkeys.db == db) {
		tagkeys.keys = xcalloc(n + 1, sizeof(*keys));
		for (i = 0; i < n; i++)
			tagkeys.keys[i] = xstrdup(keys[i]);
		tagkeys.n = n;
		tagkeys.have = true;
	}
	*out = keys;
	*nout = n;
	return 0;
}

int
pooling_candidates(sqlite3 *db, char *const *skip, size_t nskip,
    char ***out)
{
	char **all, **keys = NULL;
	size_t nall, n = 0, alloc = 0, i;
	bool day = false;

	*out = NULL;
	if (tag_keys(db, &all, &nall))
		return -1;
	for (i = 0; i < nall; i++) {
		const char *k = all[i];

		if (!strcmp(k, "hour") || in_list(skip, nskip, k)) {
			free(all[i]);
			continue;
		}
		day |= !strcmp(k, "day");
		ALLOC_GROW(keys, n + 1, alloc);
		keys[n++] = all[i];
	}
	free(all);
	if (!day && !in_list(skip, nskip, "day")) {
		ALLOC_GROW(keys, n + 1, alloc);
		keys[n++] = xstrdup("day");
	}
	if (n)
		qsort(keys, n, sizeof(*keys), cmp_str);
	*out = keys;
	return (int)n;
}

/* Add v to key k's values (sorted, once). */
static void
add_value(struct pooling_key *k, const char *v)
{
	size_t at;

	for (at = 0; at < k->nvalues; at++) {
		int c = strcmp(k->values[at], v);

		if (!c)
			return;
		if (c > 0)
			break;
	}
	ALLOC_GROW(k->values, k->nvalues + 1, k->alloc);
	memmove(k->values + at + 1, k->values + at, (k->nvalues - at) *
	    sizeof(*k->values));
	k->values[at] = xstrdup(v);
	k->nvalues++;
}
/* The cell of cs that run r (its first nby dims the cells' own) belongs
 * to, or NULL. */
static const struct cell *
row_cell(const struct cellset *cs, const struct runsel_row *r, size_t nby)
{
	char **cdims = xcalloc(nby + 1, sizeof(char *));
	const struct cell *c;
	size_t i;

	for (i = 0; i < nby; i++)
		cdims[i] = (char *)(r->dims[i] ? r->dims[i] : "");
	c = cellset_find((struct cellset *)cs, r->path, r->cond, cdims);
	free(cdims);
	return c;
}


/*
 * The memo of pooling_runs_memo_begin(): every run's value of every
 * candidate key (each tag key but hour, and day), read in one pass over
 * all runs.  A no-spec report scans pooling for each of its ~28 tables,
 * each time joining every candidate key of every selected run again
 * (15 % of its instructions over 21 days); a key's value is the run's
 * own (dim_sql), whatever the table's metric, --where or paths, so the
 * table's scan now selects its runs with the cells' own dimensions
 * only and looks the rest up here.
 */
static struct {
	sqlite3		*db;		/* borrowed; NULL: the memo is off */
	bool		have;		/* read (or tried: failed) */
	bool		failed;		/* the read failed: scan as before */
	char		**keys;		/* owned, sorted */
	size_t		nkeys;
	int64_t		*ids;		/* owned, ascending */
	size_t		nruns;
	/* run i's value of key k: strs[val[i * nkeys + k] - 1], or none
	 * at 0; owned */
	uint32_t	*val;
	char		**strs;		/* the distinct values; owned */
	size_t		nstrs, astrs;
	uint32_t	*slot;		/* hash of strs: index + 1, 0 empty */
	size_t		cap;		/* slots, a power of 2 */
	unsigned long	scans, mapped;	/* tables scanned from the database,
					 * and from the memo */
} runtags;

void
pooling_runs_memo_begin(sqlite3 *db)
{
	pooling_runs_memo_end();
	runtags.db = db;
}

void
pooling_runs_memo_end(void)
{
	size_t i;

	for (i = 0; i < runtags.nkeys; i++)
		free(runtags.keys[i]);
	for (i = 0; i < runtags.nstrs; i++)
		free(runtags.strs[i]);
	free(runtags.keys);
	free(runtags.ids);
	free(runtags.val);
	free(runtags.strs);
	free(runtags.slot);
	memset(&runtags, 0, sizeof(runtags));
}

void
pooling_runs_memo_counts(unsigned long *scans, unsigned long *mapped)
{
	*scans = runtags.scans;
	*mapped = runtags.mapped;
}

/* The index + 1 of v among the distinct values (added when new). */
static uint32_t
runtags_value(const char *v)
{
	size_t i, at;

	if (2 * (runtags.nstrs + 1) > runtags.cap) {
		size_t cap = runtags.cap ? 2 * runtags.cap : 256;

		free(runtags.slot);
		runtags.slot = xcalloc(cap, sizeof(uint32_t));
		runtags.cap = cap;
		for (i = 0; i < runtags.nstrs; i++) {
			at = (size_t)(hash_name(runtags.strs[i]) & (cap - 1));
			while (runtags.slot[at])
				at = (at + 1) & (cap - 1);
			runtags.slot[at] = (uint32_t)(i + 1);
		}
	}
	for (at = (size_t)(hash_name(v) & (runtags.cap - 1)); runtags.slot[at];
	    at = (at + 1) & (runtags.cap - 1))
		if (!strcmp(runtags.strs[runtags.slot[at] - 1], v))
			return runtags.slot[at];
	ALLOC_GROW(runtags.strs, runtags.nstrs + 1, runtags.astrs);
	runtags.strs[runtags.nstrs++] = xstrdup(v);
	runtags.slot[at] = (uint32_t)runtags.nstrs;
	return (uint32_t)runtags.nstrs;
}

static int
cmp_run(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Read every run's candidate values into the memo.  Returns 0, or -1
 * (printed) and the memo stays unused. */
static int
runtags_read(sqlite3 *db)
{
	struct runsel_query rq;
	struct runsel rs;
	int64_t *order = NULL;
	uint32_t *val = NULL;
	size_t alloc = 0, n = 0, i, k, nk;
	int nc, rc, ret = -1;

	runtags.have = true;
	runtags.failed = true;
	memset(&rs, 0, sizeof(rs));
	nc = pooling_candidates(db, NULL, 0, &runtags.keys);
	if (nc < 0)
		return -1;
	nk = runtags.nkeys = (size_t)nc;
	memset(&rq, 0, sizeof(rq));
	rq.dims = runtags.keys;
	rq.ndims = nk;
	if (runsel_open(&rs, db, &rq))
		goto cleanup;
	while ((rc = runsel_next(&rs)) > 0) {
		if (n + 1 > alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			order = xreallocarray(order, alloc, 2 * sizeof(int64_t));
			val = xreallocarray(val, alloc, (nk + 1) *
			    sizeof(uint32_t));
		}
		/* (id, row) pairs, sorted by id below */
		order[2 * n] = rs.row.id;
		order[2 * n + 1] = (int64_t)n;
		for (k = 0; k < nk; k++)
			val[n * nk + k] = rs.row.dims[k] ?
			    runtags_value(rs.row.dims[k]) : 0;
		n++;
	}
	if (rc < 0)
		goto cleanup;
	qsort(order, n, 2 * sizeof(int64_t), cmp_run);
	runtags.ids = xcalloc(n + 1, sizeof(int64_t));
	runtags.val = xcalloc(n * nk + 1, sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		runtags.ids[i] = order[2 * i];
		if (nk)
			memcpy(runtags.val + i * nk, val + (size_t)order[2 * i +
			    1] * nk, nk * sizeof(uint32_t));
	}
	runtags.nruns = n;
	runtags.failed = false;
	ret = 0;
cleanup:
	runsel_close(&rs);
	free(order);
	free(val);
	return ret;
}

/* Run id's value of the memo's key k (NULL: none); false when the memo
 * does not hold the run. */
static bool
runtags_lookup(int64_t id, size_t k, const char **v)
{
	size_t lo = 0, hi = runtags.nruns, mid;
	uint32_t x;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (runtags.ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == runtags.nruns || runtags.ids[lo] != id)
		return false;
	x = runtags.val[lo * runtags.nkeys + k];
	*v = x ? runtags.strs[x - 1] : NULL;
	return true;
}

/* The memo's index of each of out's keys into slot (nkeys of them);
 * false when the memo cannot answer for cs's database. */
static bool
runtags_ready(sqlite3 *db, const struct pooling *out, size_t *slot)
{
	size_t j, k;

	if (!runtags.db || runtags.db != db)
		return false;
	if (!runtags.have)
		(void)runtags_read(db);
	if (runtags.failed)
		return false;
	for (j = 0; j < out->nkeys; j++) {
		for (k = 0; k < runtags.nkeys && strcmp(runtags.keys[k],
		    out->keys[j].key); k++)
			;
		if (k == runtags.nkeys)
			return false;
		slot[j] = k;
	}
	return true;
}


/* The values of out's pooled keys, in a second pass over the cells'
 * runs (row i: cell rcell[i], values rvals[i * nkeys ...]): only cells
 * that pool the key contribute; and their count of cells, whose first
 * values are dropped. */
static void
pooled_values(struct pooling *out, const size_t *rcell, char **rvals,
    size_t nrows, char **first)
{
	size_t i, j, nk = out->nkeys;

	for (i = 0; i < nrows; i++)
		for (j = 0; j < nk; j++)
			if (out->pooled[rcell[i] * nk + j])
				add_value(&out->keys[j], rvals[i * nk + j] ?
				    rvals[i * nk + j] : "(none)");
	for (i = 0; i < out->ncells; i++)
		for (j = 0; j < nk; j++) {
			out->keys[j].ncells += out->pooled[i * nk + j];
			if (out->pooled[i * nk + j]) {
				free(first[i * nk + j]);
				first[i * nk + j] = NULL;
			}
		}
}

int
pooling_scan(sqlite3 *db, const struct cellset *cs,
    const struct where *where, char *const *paths, size_t npaths,
    struct pooling *out)
{
	struct runsel_query rq;
	struct runsel rs;
	char **cand = NULL, **dims = NULL, **first = NULL, **rvals = NULL;
	size_t *rcell = NULL, *slot = NULL, nrows = 0, alloc_rows = 0;
	size_t i, j, nby = cs->ndims;
	bool mapped;
	int nc, rc, ret = -1;

	memset(out, 0, sizeof(*out));
	memset(&rs, 0, sizeof(rs));
	nc = pooling_candidates(db, cs->dimkeys, nby, &cand);
	if (nc < 0)
		return -1;
	out->nkeys = (size_t)nc;
	out->ncells = cs->n;
	out->keys = xcalloc(out->nkeys + 1, sizeof(*out->keys));
	out->pooled = xcalloc(cs->n * out->nkeys + 1, sizeof(bool));
	for (j = 0; j < out->nkeys; j++)
		out->keys[j].key = cand[j];
	free(cand);
	if (!out->nkeys || !cs->n)
		return 0;
	/* the cells' own dimensions, then every candidate key (or, from
	 * the memo, the cells' own only: the cells' selection, which the
	 * run selection memo replays) */
	slot = xcalloc(out->nkeys + 1, sizeof(size_t));
	mapped = runtags_ready(db, out, slot);
	*(mapped ? &runtags.mapped : &runtags.scans) += 1;
	dims = xcalloc(nby + out->nkeys, sizeof(char *));
	for (i = 0; i < nby; i++)
		dims[i] = cs->dimkeys[i];
	for (j = 0; j < out->nkeys; j++)
		dims[nby + j] = out->keys[j].key;
	/* the first value each cell showed of each key (borrowed from
	 * per-cell copies below): with a cell's runs in any order, a key
	 * it does not pool has one value, and one it pools none */
	first = xcalloc(cs->n * out->nkeys + 1, sizeof(char *));
	memset(&rq, 0, sizeof(rq));
	rq.metric = cs->metric;
	rq.where = where;
	rq.dims = dims;
	rq.ndims = mapped ? nby : nby + out->nkeys;
	rq.paths = paths;
	rq.npaths = npaths;
	rq.by_start = mapped;
	if (runsel_open(&rs, db, &rq))
		goto cleanup;
	while ((rc = runsel_next(&rs)) > 0) {
		const struct runsel_row *r = &rs.row;
		const struct cell *c = row_cell(cs, r, nby);
		size_t ci;

		if (!c)
			continue;
		ci = (size_t)(c - cs->cells);
		/* each row's cell and values, for the second pass below
		 * (once read from the database again) */
		if (nrows + 1 > alloc_rows) {
			alloc_rows = alloc_rows ? 2 * alloc_rows : 256;
			rcell = xreallocarray(rcell, alloc_rows,
			    sizeof(size_t));
			rvals = xreallocarray(rvals, alloc_rows * out->nkeys,
			    sizeof(char *));
		}
		rcell[nrows] = ci;
		for (j = 0; j < out->nkeys; j++) {
			const char *rv = mapped ? NULL : r->dims[nby + j];
			const char *v;
			char **f = &first[ci * out->nkeys + j];

			if (mapped && !runtags_lookup(r->id, slot[j], &rv)) {
				for (; j < out->nkeys; j++)
					rvals[nrows * out->nkeys + j] = NULL;
				error("pooling: run %lld is not among the runs "
				    "read", (long long)r->id);
				nrows++;
				goto cleanup;
			}
			v = rv ? rv : "";
			rvals[nrows * out->nkeys + j] = rv ? xstrdup(rv) : NULL;
			if (!*f)
				*f = xstrdup(v);
			else if (strcmp(*f, v))
				out->pooled[ci * out->nkeys + j] = true;
		}
		nrows++;
	}
	if (rc < 0)
		goto cleanup;
	runsel_close(&rs);
	pooled_values(out, rcell, rvals, nrows, first);
	out->value = first;
	first = NULL;
	ret = 0;
cleanup:
	runsel_close(&rs);
	for (i = 0; rvals && i < nrows * out->nkeys; i++)
		free(rvals[i]);
	free(rvals);
	free(rcell);
	for (i = 0; first && i < cs->n * out->nkeys; i++)
		free(first[i]);
	free(first);
	free(dims);
	free(slot);
	if (ret)
		pooling_release(out);
	return ret;
}

void
pooling_release(struct pooling *p)
{
	size_t i, j;

	for (j = 0; j < p->nkeys; j++) {
		for (i = 0; i < p->keys[j].nvalues; i++)
			free(p->keys[j].values[i]);
		free(p->keys[j].values);
		free(p->keys[j].key);
	}
	for (i = 0; p->value && i < p->ncells * p->nkeys; i++)
		free(p->value[i]);
	free(p->value);
	free(p->keys);
	free(p->pooled);
	memset(p, 0, sizeof(*p));
}

const char *
pooling_cell_value(const struct pooling *p, size_t cell, const char *key)
{
	size_t j;

	if (!p->value || cell >= p->ncells)
		return NULL;
	for (j = 0; j < p->nkeys; j++)
		if (!strcmp(p->keys[j].key, key))
			return p->value[cell * p->nkeys + j];
	return NULL;
}

/* Same path, condition and dimensions but the last? */
static bool
same_group(const struct cellset *cs, size_t a, size_t b)
{
	const struct cell *x = &cs->cells[a], *y = &cs->cells[b];
	size_t d;

	if (strcmp(x->path, y->path) || strcmp(x->cond, y->cond))
		return false;
	for (d = 0; d + 1 < cs->ndims; d++)
		if (strcmp(x->dims[d], y->dims[d]))
			return false;
	return true;
}

void
pooling_differ_note(const struct pooling *p, const struct cellset *cs,
    const char *what, struct table *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, g, j, ngroups = 0, shown = 0;

	if (!p->value || !cs->ndims)
		return;
	for (i = 0; i < cs->n; i = g) {
		for (g = i; g < cs->n && same_group(cs, i, g); g++)
			;
		ngroups++;
	}
	for (j = 0; j < p->nkeys; j++) {
		size_t groups = 0, ex_a = 0, ex_b = 0;

		if (in_list(cs->dimkeys, cs->ndims, p->keys[j].key) ||
		    keycat_is_provenance(p->keys[j].key))
			continue;
		for (i = 0; i < cs->n; i = g) {
			bool differ = false;

			for (g = i; g < cs->n && same_group(cs, i, g); g++) {
				const char *a = p->value[i * p->nkeys + j];
				const char *b = p->value[g * p->nkeys + j];

				if (a && b && strcmp(a, b) && !differ) {
					differ = true;
					if (!groups) {
						ex_a = i;
						ex_b = g;
					}
				}
			}
			groups += differ;
		}
		if (!groups)
			continue;
		strbuf_addf(&sb, "%s%s (%s: %s at %s, %s at %s; in %zu of %zu "
		    "group%s)", shown ? "; " : "", p->keys[j].key,
		    cs->cells[ex_a].path, p->value[ex_a * p->nkeys + j][0] ?
		    p->value[ex_a * p->nkeys + j] : "(none)",
		    cs->cells[ex_a].dims[cs->ndims - 1],
		    p->value[ex_b * p->nkeys + j][0] ?
		    p->value[ex_b * p->nkeys + j] : "(none)",
		    cs->cells[ex_b].dims[cs->ndims - 1], groups, ngroups,
		    ngroups == 1 ? "" : "s");
		shown++;
	}
	if (shown)
		table_add_note(t, "Confounded: %s also differ in %s: a "
		    "difference may be theirs (--by KEY splits them, --where "
		    "KEY=VALUE keeps one).", what, sb.buf);
	strbuf_release(&sb);
}

void
pooling_cell_keys(const struct pooling *p, size_t cell, char *const *skip,
    size_t nskip, struct strbuf *sb)
{
	size_t j;
	bool any = false;

	for (j = 0; cell < p->ncells && j < p->nkeys; j++) {
		/* provenance (how runs were made) differs in every run: the
		 * caption names it, a row's pooled_over does not (export's
		 * --sql has no column for it either) */
		if (!p->pooled[cell * p->nkeys + j] ||
		    in_list(skip, nskip, p->keys[j].key) ||
		    keycat_is_provenance(p->keys[j].key))
			continue;
		strbuf_addf(sb, "%s%s", any ? "," : "", p->keys[j].key);
		any = true;
	}
}

void
pooling_note(const struct pooling *p, char *const *skip, size_t nskip,
    bool column, struct table *t)
{
	struct strbuf sb = STRBUF_INIT, keys = STRBUF_INIT;
	struct strbuf prov = STRBUF_INIT;
	size_t i, j, shown = 0, nprov = 0;

	/* the keys that tell measurements apart, with their values; the
	 * provenance tags (how runs were made: command lines, session,
	 * kernel) only named, last */
	for (j = 0; j < p->nkeys; j++) {
		const struct pooling_key *k = &p->keys[j];

		if (!k->ncells || in_list(skip, nskip, k->key))
			continue;
		if (keycat_is_provenance(k->key)) {
			strbuf_addf(&prov, "%s%s", nprov++ ? ", " : "",
			    k->key);
			continue;
		}
		strbuf_addstr(&sb, shown ? "; " : "");
		strbuf_addf(&sb, "%s (", k->key);
		for (i = 0; i < k->nvalues && i < POOLING_NOTE_VALUES; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", k->values[i]);
		if (k->nvalues > POOLING_NOTE_VALUES)
			strbuf_addf(&sb, ", … %zu values", k->nvalues);
		strbuf_addf(&sb, ") in %zu of %zu %s", k->ncells, p->ncells,
		    column ? "rows" : "cells");
		strbuf_addf(&keys, "%s%s", shown ? "," : "", k->key);
		shown++;
	}
	if (shown)
		table_add_note(t, "Pooled: these %s mix runs that differ in "
		    "%s; each is one number over them%s. --by %s splits them, "
		    "--where KEY=VALUE keeps one; `pathstat check --only "
		    "pooled-groups` tests whether they differ more than their "
		    "trials do.%s%s%s", column ? "rows" : "cells", sb.buf,
		    column ? " (JSON and CSV name them per row in pooled_over)" :
		    "", keys.buf, nprov ? " Their runs also differ in how they "
		    "were made (" : "", prov.buf, nprov ? ")." : "");
	else if (nprov)
		table_add_note(t, "These %s mix runs that differ only in how "
		    "they were made (%s), not in what they measured.",
		    column ? "rows" : "cells", prov.buf);
	strbuf_release(&sb);
	strbuf_release(&keys);
	strbuf_release(&prov);
}

int
pooling_table_note(sqlite3 *db, const struct cellset *cs,
    const struct where *where, char *const *paths, size_t npaths,
    struct table *t)
{
	struct pooling p;

	if (pooling_scan(db, cs, where, paths, npaths, &p))
		return -1;
	pooling_note(&p, NULL, 0, false, t);
	pooling_release(&p);
	return 0;
}
