/*
 * borrow.c - the spread of the trials a selection's cells of one design
 * share, which each cell's trial-level percentile interval borrows
 * (stats_tl_interval_borrow(), stats/borrow.c): slow runs that come and
 * go (a noisy neighbour, a bad hour) leave some cells' trials agreeing
 * and their own interval narrow around a value below the population's.
 * One design: the same metric (a cellset is one), the same number of
 * trial-level values, and median trial sizes within
 * STATS_BORROW_SIZE_RATIO of each other.  Each cell's share (its sum of
 * squares on the log scale) is computed once per statistic and kept in
 * the cellset; a cell withdrawn for an outlier trial still lends its
 * trials' spread.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "common/xalloc.h"

/* One cell's share of the campaign's spread of one statistic. */
struct borrow_cell {
	double	ss;	/* sum of squares of u / estimate; NaN: none */
	size_t	T;	/* trial-level values */
	size_t	nmed;	/* median samples per trial */
};

/* The shares of every cell for one statistic (kind, pct), pool and
 * estimator. */
struct borrow_stat {
	enum stats_name_kind	kind;
	double			pct;
	enum stats_pool		pool;
	enum stats_estimator	est;
	struct borrow_cell	*cell;	/* cs->n; owned */
};

struct borrow_cache {
	struct borrow_stat	*stat;	/* owned */
	size_t			n, alloc;
};

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Median samples per trial over the trials with raw samples, 0 if none. */
static size_t
median_trial_n(const struct cell *c)
{
	size_t *n = xcalloc(c->ntrials + 1, sizeof(size_t)), k = 0, i, m;

	for (i = 0; i < c->ntrials; i++)
		if (c->trials[i].n)
			n[k++] = c->trials[i].n;
	qsort(n, k, sizeof(size_t), cmp_size);
	m = k ? n[k / 2] : 0;
	free(n);
	return m;
}

/* Cell x's share of statistic s's spread, whatever the outlier rule
 * said of its trials. */
static void
share_of(const struct analyze_opts *o, struct cell *x,
    const struct stats_name *s, struct borrow_cell *out)
{
	struct stats_borrow one;
	double *u, e;
	const char *why;
	bool ready = x->pooled_ready;
	size_t T;

	memset(&one, 0, sizeof(one));
	out->ss = NAN;
	out->T = 0;
	out->nmed = median_trial_n(x);
	T = cell_tl_trials(o, x, s, &u, NULL, &e, &why);
	if (T) {
		stats_borrow_add(&one, u, T, e);
		if (one.cells) {
			out->ss = one.ss;
			out->T = T;
		}
	}
	free(u);
	/* as the verbs do row by row: no pooled array kept for it */
	if (!ready)
		cell_pooled_release(x);
}

static struct borrow_stat *
stat_shares(const struct analyze_opts *o, const struct cellset *cs,
    const struct stats_name *s)
{
	struct borrow_cache *bc = cs->borrow;
	struct borrow_stat *st;
	size_t i;

	for (i = 0; i < bc->n; i++) {
		st = &bc->stat[i];
		if (st->kind == s->kind && st->pool == o->pool &&
		    st->est == o->est && (s->kind != STATS_NAME_PCT ||
		    st->pct == s->pct))
			return st;
	}
	if (bc->n == bc->alloc) {
		bc->alloc = bc->alloc ? 2 * bc->alloc : 4;
		bc->stat = xrealloc(bc->stat, bc->alloc * sizeof(*bc->stat));
	}
	st = &bc->stat[bc->n++];
	st->kind = s->kind;
	st->pct = s->pct;
	st->pool = o->pool;
	st->est = o->est;
	st->cell = xcalloc(cs->n + 1, sizeof(*st->cell));
	for (i = 0; i < cs->n; i++)
		share_of(o, &cs->cells[i], s, &st->cell[i]);
	return st;
}

size_t
cell_borrow(const struct analyze_opts *o, const struct cellset *cs,
    const struct cell *c, const struct stats_name *s, size_t T,
    struct stats_borrow *b)
{
	const struct borrow_stat *st;
	size_t i, me, nmed;

	memset(b, 0, sizeof(*b));
	if (!cs || !cs->borrow || (s->kind != STATS_NAME_PCT &&
	    s->kind != STATS_NAME_MEAN) || T < STATS_TL_MIN_TRIALS)
		return 0;
	me = (size_t)(c - cs->cells);
	if (me >= cs->n)
		return 0;
	st = stat_shares(o, cs, s);
	nmed = st->cell[me].nmed ? st->cell[me].nmed : median_trial_n(c);
	for (i = 0; i < cs->n; i++) {
		const struct borrow_cell *x = &st->cell[i];

		if (x->T != T || !isfinite(x->ss) ||
		    !stats_borrow_similar(x->nmed, nmed))
			continue;
		b->ss += x->ss;
		b->df += (double)(x->T - 1);
		b->cells++;
	}
	return b->cells;
}

void
cellset_borrow_init(struct cellset *cs)
{
	if (!cs->borrow)
		cs->borrow = xcalloc(1, sizeof(*cs->borrow));
}

void
cellset_borrow_release(struct cellset *cs)
{
	size_t i;

	if (!cs->borrow)
		return;
	for (i = 0; i < cs->borrow->n; i++)
		free(cs->borrow->stat[i].cell);
	free(cs->borrow->stat);
	free(cs->borrow);
	cs->borrow = NULL;
}
