/*
 * runmemo.c - each run's trial data a report has read, per metric (see
 * runmemo.h).  Over a 21-day team campaign the no-spec report's
 * sections, charts and heatmaps load 45,360 trials of 7,560 runs and
 * metrics: six loads of each.  Reading one took five statements (the
 * sorted copy's row and its series' ends, the tool's summaries, the
 * probe timeout, the timeout count), a sixth of the report's
 * instructions; the blob read of its values a fiftieth of that.  So an
 * entry keeps the sorted copy's row and what the statements said, not
 * the values (1 MB over 21 days, 4 MB over 84, where the values too
 * took 3 and 15).  Kept in an open-addressing hash table on (run,
 * metric).
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/runmemo.h"
#include "common/hash.h"
#include "common/xalloc.h"

/* The most bytes the memo keeps (like the run selection and table
 * memos): past it, a run is read from the database each time. */
#define RUN_MEMO_MAX_BYTES	((size_t)256 << 20)

static struct {
	bool		on;		/* keeping runs */
	struct run_memo	**slot;		/* cap slots, NULL: empty; owned */
	size_t		n, cap;		/* cap: a power of 2, or 0 */
	/* the entries' names (statistics, estimators), each once: an
	 * open-addressing set of names_cap slots (a power of 2, or 0);
	 * owned with the strings */
	char		**names;
	size_t		nnames, names_cap;
	size_t		bytes;		/* over every entry and name */
	unsigned long	read, reused;
} memo;

void
run_memo_end(void)
{
	size_t i;

	/* an entry is one allocation with its arrays */
	for (i = 0; i < memo.cap; i++)
		free(memo.slot[i]);
	free(memo.slot);
	for (i = 0; i < memo.names_cap; i++)
		free(memo.names[i]);
	free(memo.names);
	memo.slot = NULL;
	memo.names = NULL;
	memo.n = memo.cap = memo.nnames = memo.names_cap = memo.bytes = 0;
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

/* The memo's one copy of s (NULL: NULL); borrowed, run_memo_end()
 * frees it. */
static const char *
name_intern(const char *s)
{
	size_t i;

	if (!s)
		return NULL;
	if (2 * (memo.nnames + 1) > memo.names_cap) {
		size_t cap = memo.names_cap ? 2 * memo.names_cap : 64;
		char **tab = xcalloc(cap, sizeof(*tab));

		for (i = 0; i < memo.names_cap; i++)
			if (memo.names[i])
				tab[hash_name_slot(tab, cap, memo.names[i])] =
				    memo.names[i];
		free(memo.names);
		memo.names = tab;
		memo.names_cap = cap;
	}
	i = hash_name_slot(memo.names, memo.names_cap, s);
	if (!memo.names[i]) {
		memo.names[i] = xstrdup(s);
		memo.nnames++;
		memo.bytes += strlen(s) + 1 + 2 * sizeof(char *);
	}
	return memo.names[i];
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
	memo.bytes += (cap - memo.cap) * sizeof(*tab);
	free(memo.slot);
	memo.slot = tab;
	memo.cap = cap;
}

void
run_memo_add(const struct run_memo *r)
{
	struct run_memo *e;
	size_t nval = r->values ? r->n : 0, bytes, i;

	memo.read++;
	if (!memo.on)
		return;
	/* the entry, then its values, then its tool statistics (each
	 * 8-byte aligned, as the entry is) */
	bytes = sizeof(*e) + nval * sizeof(double) +
	    r->ntool * sizeof(*r->tool);
	if (memo.bytes + bytes > RUN_MEMO_MAX_BYTES)
		return;
	memo_grow();
	i = key_slot(memo.slot, memo.cap, r->db, r->run_id, r->metric);
	if (memo.slot[i])
		return;
	e = xmalloc(bytes);
	*e = *r;
	e->values = nval ? memcpy(e + 1, r->values, nval * sizeof(double)) :
	    NULL;
	e->tool = NULL;
	if (r->ntool) {
		e->tool = (struct tool_stat *)((double *)(e + 1) + nval);
		for (i = 0; i < r->ntool; i++) {
			e->tool[i].stat = name_intern(r->tool[i].stat);
			e->tool[i].value = r->tool[i].value;
		}
	}
	e->estimator = name_intern(r->estimator);
	memo.slot[key_slot(memo.slot, memo.cap, e->db, e->run_id,
	    e->metric)] = e;
	memo.n++;
	memo.bytes += bytes;
}
