/*
 * multi.c - many-to-one multiplicity: a step-down permutation min-p
 * (Westfall and Young's max-T with each row's p as its statistic) for
 * rows that share a baseline.  Pure functions over arrays; contracts
 * are in stats.h.
 *
 * Why not Holm: rows compared with one baseline share its trials, so
 * their tests are positively correlated, and Holm's m × p pays for
 * independence they do not have.  The permutation distribution of the
 * smallest p sees the correlation.  Each step permutes the trials of
 * the baseline and of the rows not yet rejected only (the closed
 * family's intersection hypothesis: those groups exchangeable), so the
 * rejected rows' differences do not enter the null.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

/* One permutation null, cached: the sizes it was drawn for and its
 * sorted smallest p's. */
struct mt_entry {
	size_t		*key, nkey;	/* owned */
	stats_mt_test_fn test;
	double		*minp;		/* nperm, sorted; owned */
};

struct stats_mt_cache {
	struct mt_entry	*e;		/* owned */
	size_t		n, alloc;
};

struct stats_mt_cache *
stats_mt_cache_new(void)
{
	return xcalloc(1, sizeof(struct stats_mt_cache));
}

void
stats_mt_cache_free(struct stats_mt_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].key);
		free(c->e[i].minp);
	}
	free(c->e);
	free(c);
}

static int
cmp_dbl(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The permutation context of one step: the active rows, grouped by
 * family, and the pooled values of each family. */
struct mt_step {
	const struct stats_mt_row *rows;
	const size_t	*act;	/* active rows, by family then index */
	size_t		nact;
	bool		ranks;	/* no ties: permute ranks (cacheable) */
};

/* The key of a step: per family its baseline size and its rows' sizes,
 * which is all a rank test's null depends on without ties. */
static size_t
step_key(const struct mt_step *s, size_t *key)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nact; i++) {
		const struct stats_mt_row *r = &s->rows[s->act[i]];

		if (!i || r->family != s->rows[s->act[i - 1]].family) {
			key[n++] = SIZE_MAX;
			key[n++] = r->nb;
		}
		key[n++] = r->nc;
	}
	return n;
}

/* Draw nperm permutations of the step's families and store each one's
 * smallest p in minp[0..nperm), sorted. */
static void
step_null(const struct mt_step *s, stats_mt_test_fn test, void *ctx,
    size_t nperm, struct stats_rng *rng, double *minp)
{
	size_t tot = 0;
	double *pool, *v;

	for (size_t i = 0; i < s->nact; i++) {
		const struct stats_mt_row *r = &s->rows[s->act[i]];

		tot += r->nc + r->nb;
	}
	pool = xmalloc((tot ? tot : 1) * sizeof(*pool));
	for (size_t b = 0; b < nperm; b++) {
		double lo = 1.0;
		size_t i = 0;

		while (i < s->nact) {
			const struct stats_mt_row *f = &s->rows[s->act[i]];
			size_t j = i, n = f->nb, off;

			/* the family's values: its baseline, then its rows */
			v = pool;
			memcpy(v, f->xb, f->nb * sizeof(*v));
			for (; j < s->nact && s->rows[s->act[j]].family ==
			    f->family; j++) {
				const struct stats_mt_row *r =
				    &s->rows[s->act[j]];

				memcpy(v + n, r->xc, r->nc * sizeof(*v));
				n += r->nc;
			}
			if (s->ranks)
				for (size_t k = 0; k < n; k++)
					v[k] = (double)k;
			for (size_t k = n; k > 1; k--) {
				size_t q = (size_t)stats_rng_below(rng, k);
				double t = v[k - 1];

				v[k - 1] = v[q];
				v[q] = t;
			}
			off = f->nb;
			for (size_t k = i; k < j; k++) {
				const struct stats_mt_row *r =
				    &s->rows[s->act[k]];
				double p = test(v + off, r->nc, v, f->nb, ctx);

				off += r->nc;
				if (p < lo)
					lo = p;
			}
			i = j;
		}
		minp[b] = lo;
	}
	qsort(minp, nperm, sizeof(*minp), cmp_dbl);
	free(pool);
}

/* Whether a family's values (its baseline and active rows) have ties. */
static bool
step_ties(const struct mt_step *s)
{
	bool ties = false;
	size_t i = 0, tot = 0;
	double *v;

	for (size_t k = 0; k < s->nact; k++)
		tot += s->rows[s->act[k]].nb + s->rows[s->act[k]].nc;
	v = xmalloc((tot ? tot : 1) * sizeof(*v));
	while (i < s->nact && !ties) {
		const struct stats_mt_row *f = &s->rows[s->act[i]];
		size_t j = i, n = f->nb;

		memcpy(v, f->xb, f->nb * sizeof(*v));
		for (; j < s->nact && s->rows[s->act[j]].family == f->family;
		    j++) {
			memcpy(v + n, s->rows[s->act[j]].xc,
			    s->rows[s->act[j]].nc * sizeof(*v));
			n += s->rows[s->act[j]].nc;
		}
		qsort(v, n, sizeof(*v), cmp_dbl);
		for (size_t k = 1; k < n && !ties; k++)
			ties = v[k] == v[k - 1];
		i = j;
	}
	free(v);
	return ties;
}

/* The sorted null of a step: from the cache when its key is there,
 * else drawn (and kept when the cache may hold it).  Borrowed from the
 * cache, or owned by *own. */
static const double *
step_dist(struct stats_mt_cache *c, const struct mt_step *s,
    stats_mt_test_fn test, void *ctx, size_t nperm, uint64_t seed,
    double **own)
{
	size_t *key = xmalloc((3 * s->nact + 1) * sizeof(*key));
	size_t nkey = step_key(s, key);
	struct stats_rng rng;
	struct mt_entry *e;
	double *minp;

	*own = NULL;
	if (c && s->ranks)
		for (size_t i = 0; i < c->n; i++)
			if (c->e[i].test == test && c->e[i].nkey == nkey &&
			    !memcmp(c->e[i].key, key, nkey * sizeof(*key))) {
				free(key);
				return c->e[i].minp;
			}
	minp = xmalloc(nperm * sizeof(*minp));
	/* the same sizes draw the same permutations, cached or not */
	stats_rng_seed(&rng, seed ^ (uint64_t)nkey * 0x9e3779b97f4a7c15ULL);
	step_null(s, test, ctx, nperm, &rng, minp);
	if (!c || !s->ranks) {
		free(key);
		*own = minp;
		return minp;
	}
	ALLOC_GROW(c->e, c->n + 1, c->alloc);
	e = &c->e[c->n++];
	e->key = key;
	e->nkey = nkey;
	e->test = test;
	e->minp = minp;
	return minp;
}

/* (1 + #{minp <= p}) / (1 + nperm): the Monte-Carlo p of the smallest
 * p, never 0. */
static double
mc_p(const double *minp, size_t nperm, double p)
{
	size_t lo = 0, hi = nperm;
	double lim = p * (1.0 + 1e-9);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (minp[mid] <= lim)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (double)(1 + lo) / (double)(1 + nperm);
}

/* Sort the active rows act[0..n) by family, then position (insertion
 * sort: a table has few rows). */
static void
sort_by_family(const struct stats_mt_row *rows, size_t *act, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		size_t a = act[i], k = i;

		while (k > 0 && (rows[act[k - 1]].family > rows[a].family ||
		    (rows[act[k - 1]].family == rows[a].family &&
		    act[k - 1] > a))) {
			act[k] = act[k - 1];
			k--;
		}
		act[k] = a;
	}
}

int
stats_maxt_stepdown(const struct stats_mt_row *rows, size_t n,
    stats_mt_test_fn test, void *ctx, size_t nperm, uint64_t seed,
    struct stats_mt_cache *cache, double stop, double *adj, double *floor)
{
	struct tagged *t = xmalloc((n ? n : 1) * sizeof(*t));
	size_t *act = xmalloc((n ? n : 1) * sizeof(*act));
	size_t m = 0;
	double run = 0, pmin = 1.0;

	*floor = NAN;
	if (nperm == 0) {
		free(t);
		free(act);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (adj)
			adj[i] = NAN;
		if (isnan(rows[i].p))
			continue;
		t[m].v = rows[i].p;
		t[m].i = i;
		m++;
		if (rows[i].pmin < pmin)
			pmin = rows[i].pmin;
	}
	qsort(t, m, sizeof(*t), stats_cmp_tagged);
	/* step j: the rows from the j-th smallest p on are exchangeable
	 * with their baselines under the step's hypothesis */
	for (size_t j = 0; j < m; j++) {
		struct mt_step s = { rows, act, m - j, false };
		const double *minp;
		double *own, a;

		for (size_t k = j; k < m; k++)
			act[k - j] = t[k].i;
		sort_by_family(rows, act, m - j);
		s.ranks = !step_ties(&s);
		minp = step_dist(cache, &s, test, ctx, nperm, seed, &own);
		if (!j && pmin > 0)
			*floor = mc_p(minp, nperm, pmin);
		if (!adj) {
			free(own);
			break;
		}
		/* from the first row at or above stop none can pass: the
		 * rest read this step's null (single-step over a superset
		 * of their sets: conservative), one draw instead of m - j */
		for (size_t k = j; k < m && (k == j || run >= stop); k++) {
			a = mc_p(minp, nperm, t[k].v);
			/* never below the row's own p (the Monte-Carlo error
			 * could put it there) */
			if (a < t[k].v)
				a = t[k].v;
			if (a > run)
				run = a;
			adj[t[k].i] = run > 1 ? 1 : run;
			if (k > j)
				j = k;
		}
		free(own);
	}
	free(t);
	free(act);
	return 0;
}
