/*
 * runmemo.c - each run's trial data a report has read, per metric (see
 * runmemo.h).  Over a 21-day team campaign the no-spec report's
 * sections, charts and heatmaps load 45,360 trials of 7,560 runs and
 * metrics: six loads of each.  Reading one took five statements (the
 * sorted copy's row and its series' ends, the tool's summaries, the
 * probe timeout, the timeout count), a sixth of the report's
 * instructions; copying its values from memory costs a hundredth of
 * that.  Kept in an open-addressing hash table on (run, metric).
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/runmemo.h"
#include "common/xalloc.h"

/* The most bytes the memo keeps (like the run selection and table
 * memos): past it, a run is read from the database each time. */
#define RUN_MEMO_MAX_BYTES	((size_t)256 << 20)

static struct {
	bool		on;		/* keeping runs */
	struct run_memo	**slot;		/* cap slots, NULL: empty; owned */
	size_t		n, cap;		/* cap: a power of 2, or 0 */
	size_t		bytes;		/* over every entry */
	unsigned long	read, reused;
} memo;

static void
entry_free(struct run_memo *e)
{
	size_t i;

	if (!e)
		return;
	free(e->values);
	/* a kept entry's names are its own copies */
	for (i = 0; i < e->ntool; i++)
		free((char *)e->tool[i].stat);
	free(e->tool);
	free((char *)e->estimator);
	free(e);
}

void
run_memo_end(void)
{
	size_t i;

	for (i = 0; i < memo.cap; i++)
		entry_free(memo.slot[i]);
	free(memo.slot);
	memo.slot = NULL;
	memo.n = memo.cap = memo.bytes = 0;
	memo.on = false;
}

void
run_memo_begin(bool keep)
{
	run_memo_end();
	memo.on = keep;
	memo.read = memo.reused = 0;
}

void
run_memo_counts(unsigned long *read, unsigned long *reused)
{
	*read = memo.read;
	*reused = memo.reused;
}

static size_t
key_hash(int64_t run_id, int metric)
{
	uint64_t h = (uint64_t)run_id * UINT64_C(0x9e3779b97f4a7c15);

	h ^= (uint64_t)(unsigned)metric * UINT64_C(0xc2b2ae3d27d4eb4f);
	h ^= h >> 29;
	return (size_t)h;
}

/* The slot of (db, run_id, metric): its own, or the empty one it
 * would take (the table is at most half full). */
static size_t
key_slot(struct run_memo *const *tab, size_t cap, sqlite3 *db,
    int64_t run_id, int metric)
{
	size_t i = key_hash(run_id, metric) & (cap - 1);

	while (tab[i] && (tab[i]->run_id != run_id ||
	    tab[i]->metric != metric || tab[i]->db != db))
		i = (i + 1) & (cap - 1);
	return i;
}

const struct run_memo *
run_memo_find(sqlite3 *db, int64_t run_id, int metric)
{
	struct run_memo *e;

	if (!memo.on || !memo.n)
		return NULL;
	e = memo.slot[key_slot(memo.slot, memo.cap, db, run_id, metric)];
	if (e)
		memo.reused++;
	return e;
}

/* Room for one more entry: the table doubled when half full. */
static void
memo_grow(void)
{
	struct run_memo **tab;
	size_t cap, i;

	if (2 * (memo.n + 1) <= memo.cap)
		return;
	cap = memo.cap ? 2 * memo.cap : 1024;
	tab = xcalloc(cap, sizeof(*tab));
	for (i = 0; i < memo.cap; i++) {
		struct run_memo *e = memo.slot[i];

		if (e)
			tab[key_slot(tab, cap, e->db, e->run_id, e->metric)] =
			    e;
	}
	free(memo.slot);
	memo.slot = tab;
	memo.cap = cap;
}

/* What r costs kept: the entry, its arrays and strings, a slot. */
static size_t
entry_bytes(const struct run_memo *r)
{
	size_t b = sizeof(*r) + 2 * sizeof(r) + r->n * sizeof(double) +
	    r->ntool * sizeof(*r->tool), i;

	for (i = 0; i < r->ntool; i++)
		b += strlen(r->tool[i].stat) + 1;
	if (r->estimator)
		b += strlen(r->estimator) + 1;
	return b;
}

void
run_memo_add(const struct run_memo *r)
{
	struct run_memo *e;
	size_t bytes, i;

	memo.read++;
	if (!memo.on)
		return;
	bytes = entry_bytes(r);
	if (memo.bytes + bytes > RUN_MEMO_MAX_BYTES)
		return;
	memo_grow();
	i = key_slot(memo.slot, memo.cap, r->db, r->run_id, r->metric);
	if (memo.slot[i])
		return;
	e = xmalloc(sizeof(*e));
	*e = *r;
	e->values = NULL;
	if (r->n) {
		e->values = xmalloc(r->n * sizeof(double));
		memcpy(e->values, r->values, r->n * sizeof(double));
	}
	e->tool = NULL;
	if (r->ntool) {
		e->tool = xmalloc(r->ntool * sizeof(*e->tool));
		for (i = 0; i < r->ntool; i++) {
			e->tool[i].stat = xstrdup(r->tool[i].stat);
			e->tool[i].value = r->tool[i].value;
		}
	}
	e->estimator = r->estimator ? xstrdup(r->estimator) : NULL;
	memo.slot[key_slot(memo.slot, memo.cap, e->db, e->run_id,
	    e->metric)] = e;
	memo.n++;
	memo.bytes += bytes;
}
