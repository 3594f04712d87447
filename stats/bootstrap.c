/*
 * bootstrap.c - the seeded PRNG (splitmix64 seeding, xoshiro256**)
 * and the trial bootstrap behind intervals on deltas and ratios:
 * trials resampled, then samples within each trial.
 * Pure functions over arrays; contracts are in stats.h.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "stats/internal.h"
#include "stats/stats.h"

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void
stats_rng_seed(struct stats_rng *rng, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&x);
	if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]))
		rng->s[0] = 1;
}

uint64_t
stats_rng_next(struct stats_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

double
stats_rng_uniform(struct stats_rng *rng)
{
	return (double)(stats_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t
stats_rng_below(struct stats_rng *rng, uint64_t bound)
{
	if (bound <= 1)
		return 0;
	if (bound <= UINT32_MAX) {
		uint32_t b = (uint32_t)bound;
		uint64_t m = (stats_rng_next(rng) >> 32) * b;
		uint32_t l = (uint32_t)m;

		if (l < b) {
			uint32_t t = (uint32_t)(-b) % b;

			while (l < t) {
				m = (stats_rng_next(rng) >> 32) * b;
				l = (uint32_t)m;
			}
		}
		return m >> 32;
	} else {
		uint64_t t = (-bound) % bound, r;

		do
			r = stats_rng_next(rng);
		while (r < t);
		return r % bound;
	}
}

double
stats_rng_normal(struct stats_rng *rng)
{
	/* Box-Muller; u1 in (0, 1] keeps the log finite */
	double u1 = 1.0 - stats_rng_uniform(rng);
	double u2 = stats_rng_uniform(rng);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double
stats_rng_exponential(struct stats_rng *rng)
{
	return -log1p(-stats_rng_uniform(rng));
}

/* ---------------------------------------------------------------------
 * Bootstrap
 */

double
stats_delta(double a, double b)
{
	return a - b;
}

double
stats_ratio(double a, double b)
{
	return b == 0 ? NAN : a / b;
}

double
stats_growth(double delta_p99, double delta_p50)
{
	return stats_ratio(delta_p99, delta_p50);
}

/*
 * Index i of the value holding rank k (0-based) in the multiset with
 * cnt[i] copies of value i, i < len, N = sum of cnt.  Walks from the
 * nearer end.
 */
static size_t
rank_index(const uint32_t *cnt, size_t len, size_t N, size_t k)
{
	size_t acc;

	if (k < N / 2) {
		acc = 0;
		for (size_t i = 0; i < len; i++) {
			acc += cnt[i];
			if (acc > k)
				return i;
		}
		return len - 1;
	}
	acc = N;
	for (size_t i = len; i-- > 0;) {
		acc -= cnt[i];
		if (acc <= k)
			return i;
	}
	return 0;
}

/*
 * The statistic of the multiset holding cnt[i] copies of sorted[i]
 * (i < len, N = sum of cnt >= 1): what stats_quantile_unsorted_hd()
 * gives for the expanded array, in O(len) without expanding or selecting.
 */
static double
quantile_counts(enum stats_estimator est, const double *sorted,
    const uint32_t *cnt, size_t len, size_t N, double pct,
    struct hd_cache *hd)
{
	double h, fl, s = 0;
	size_t i, r, end;

	switch (est) {
	case STATS_EST_MEAN:
		for (i = 0; i < len; i++)
			s += (double)cnt[i] * sorted[i];
		return s / (double)N;
	case STATS_EST_OHA:
		return sorted[rank_index(cnt, len, N, stats_oha_index(pct, N))];
	case STATS_EST_TYPE7:
		h = (double)(N - 1) * (pct / 100.0);
		fl = floor(h);
		r = (size_t)fl;
		if (r >= N - 1)
			return sorted[rank_index(cnt, len, N, N - 1)];
		return stats_lerp(sorted[rank_index(cnt, len, N, r)],
		    sorted[rank_index(cnt, len, N, r + 1)], h - fl);
	case STATS_EST_HD:
		if (N == 1 || pct == 0)
			return sorted[rank_index(cnt, len, N, 0)];
		if (pct == 100)
			return sorted[rank_index(cnt, len, N, N - 1)];
		stats_hd_cache_get(hd, N, pct);
		end = hd->first + hd->len;
		r = 0;
		for (i = 0; i < len && r < end; i++) {
			size_t lo = r, hi = r + cnt[i];

			r = hi;
			if (hi <= hd->first)
				continue;
			if (lo < hd->first)
				lo = hd->first;
			if (hi > end)
				hi = end;
			s += sorted[i] * (hd->wcum[hi - hd->first] -
			    hd->wcum[lo - hd->first]);
		}
		return s;
	}
	return NAN;
}

/*
 * Per-group state of a bootstrap run.  Resampling is done on counts: a
 * draw of sample j of trial t adds one to the count of its value in the
 * sorted pool, and the statistic is read off the counts (rank walk), so
 * a replicate costs O(N) draws plus O(N0) sequential work, no sort or
 * selection.
 */
struct boot_group {
	const struct stats_trials *g;	/* borrowed */
	size_t nall;			/* samples in all trials, N0 */
	double *sorted;			/* each trial sorted, one array */
	size_t *off;			/* trial t starts at off[t] */
	double *all;			/* all samples sorted (pooled) */
	uint32_t *pos;			/* sorted[j] is all[pos[j]] */
	uint32_t *cnt;			/* counts, nall entries */
	double *tstat;			/* per-trial statistic */
	struct hd_cache hd;		/* HD weights by sample size */
};

/* Merge the sorted trials of bg into bg->all, recording bg->pos: a
 * T-way merge for up to 16 trials, a sort of tagged values above. */
static void
boot_merge(struct boot_group *bg)
{
	size_t T = bg->g->ntrials, *head;

	if (T > 16) {
		struct tagged *tg = xmalloc(bg->nall * sizeof(*tg));

		for (size_t j = 0; j < bg->nall; j++) {
			tg[j].v = bg->sorted[j];
			tg[j].i = j;
		}
		qsort(tg, bg->nall, sizeof(*tg), stats_cmp_tagged);
		for (size_t r = 0; r < bg->nall; r++) {
			bg->all[r] = tg[r].v;
			bg->pos[tg[r].i] = (uint32_t)r;
		}
		free(tg);
		return;
	}
	head = xcalloc(T, sizeof(*head));

	for (size_t r = 0; r < bg->nall; r++) {
		size_t best = SIZE_MAX;
		double bv = 0;

		/* ties to the lower trial */
		for (size_t t = 0; t < T; t++) {
			double v;

			if (head[t] == bg->g->n[t])
				continue;
			v = bg->sorted[bg->off[t] + head[t]];
			if (best == SIZE_MAX || v < bv) {
				best = t;
				bv = v;
			}
		}
		bg->all[r] = bv;
		bg->pos[bg->off[best] + head[best]++] = (uint32_t)r;
	}
	free(head);
}

static int
boot_group_init(struct boot_group *bg, const struct stats_trials *g,
    const struct stats_boot_opts *o)
{
	memset(bg, 0, sizeof(*bg));
	bg->g = g;
	if (!g || g->ntrials == 0 || !g->trial || !g->n)
		return -1;
	for (size_t t = 0; t < g->ntrials; t++) {
		if (g->n[t] == 0 || !g->trial[t] ||
		    g->n[t] > UINT32_MAX - bg->nall)
			return -1;
		bg->nall += g->n[t];
	}
	bg->sorted = xmalloc(bg->nall * sizeof(double));
	bg->off = xmalloc(g->ntrials * sizeof(size_t));
	bg->cnt = xcalloc(bg->nall, sizeof(uint32_t));
	bg->tstat = xmalloc(g->ntrials * sizeof(double));
	for (size_t t = 0, len = 0; t < g->ntrials; t++) {
		double *seg = bg->sorted + len;

		bg->off[t] = len;
		memcpy(seg, g->trial[t], g->n[t] * sizeof(double));
		stats_sort(seg, g->n[t]);
		bg->tstat[t] = stats_quantile(o->est, seg, g->n[t], o->pct);
		len += g->n[t];
	}
	if (o->pool == STATS_POOL_POOLED) {
		bg->all = xmalloc(bg->nall * sizeof(double));
		bg->pos = xmalloc(bg->nall * sizeof(uint32_t));
		boot_merge(bg);
	}
	return 0;
}

static void
boot_group_release(struct boot_group *bg)
{
	free(bg->sorted);
	free(bg->off);
	free(bg->all);
	free(bg->pos);
	free(bg->cnt);
	free(bg->tstat);
	stats_hd_cache_release(&bg->hd);
	memset(bg, 0, sizeof(*bg));
}

/* The statistic on the data as given. */
static double
boot_point(struct boot_group *bg, const struct stats_boot_opts *o)
{
	if (o->pool == STATS_POOL_PER_TRIAL)
		return stats_mean(bg->tstat, bg->g->ntrials);
	return stats_quantile(o->est, bg->all, bg->nall, o->pct);
}

/* One bootstrap replicate of the statistic. */
static double
boot_replicate(struct boot_group *bg, const struct stats_boot_opts *o,
    struct stats_rng *rng)
{
	const struct stats_trials *g = bg->g;
	size_t T = g->ntrials, len = 0;
	bool within = o->resample == STATS_RESAMPLE_TWO_STAGE;
	double s = 0;

	if (o->pool == STATS_POOL_PER_TRIAL) {
		for (size_t i = 0; i < T; i++) {
			size_t t = stats_rng_below(rng, T), m = g->n[t];

			if (!within) {
				s += bg->tstat[t];
				continue;
			}
			memset(bg->cnt, 0, m * sizeof(*bg->cnt));
			for (size_t j = 0; j < m; j++)
				bg->cnt[stats_rng_below(rng, m)]++;
			s += quantile_counts(o->est, bg->sorted + bg->off[t],
			    bg->cnt, m, m, o->pct, &bg->hd);
		}
		return s / (double)T;
	}
	memset(bg->cnt, 0, bg->nall * sizeof(*bg->cnt));
	for (size_t i = 0; i < T; i++) {
		size_t t = stats_rng_below(rng, T), m = g->n[t];
		const uint32_t *pos = bg->pos + bg->off[t];

		if (within) {
			for (size_t j = 0; j < m; j++)
				bg->cnt[pos[stats_rng_below(rng, m)]]++;
		} else {
			for (size_t j = 0; j < m; j++)
				bg->cnt[pos[j]]++;
		}
		len += m;
	}
	return quantile_counts(o->est, bg->all, bg->cnt, bg->nall, len, o->pct,
	    &bg->hd);
}

static double
contrast(enum stats_contrast c, double a, double b)
{
	return c == STATS_RATIO ? stats_ratio(a, b) : stats_delta(a, b);
}

int
stats_bootstrap(const struct stats_trials *a, const struct stats_trials *b,
    const struct stats_boot_opts *opts, struct stats_boot_result *out)
{
	struct stats_boot_opts o = *opts;
	struct boot_group ga, gb;
	struct stats_rng rng;
	double *rep = NULL, alpha, m = 0, ss = 0;
	size_t nvalid = 0;
	int ret = -1;

	memset(&ga, 0, sizeof(ga));
	memset(&gb, 0, sizeof(gb));
	out->estimate = out->lo = out->hi = out->se = NAN;
	out->B = out->nvalid = 0;
	if (o.B == 0)
		o.B = STATS_BOOT_B_DEFAULT;
	if (o.level == 0)
		o.level = 0.95;
	if (!(o.level > 0 && o.level < 1))
		goto cleanup;
	if (o.est != STATS_EST_MEAN && !stats_pct_ok(o.pct))
		goto cleanup;
	if (boot_group_init(&ga, a, &o) < 0 || boot_group_init(&gb, b, &o) < 0)
		goto cleanup;

	out->estimate = contrast(o.contrast, boot_point(&ga, &o),
	    boot_point(&gb, &o));
	stats_rng_seed(&rng, o.seed);
	rep = xmalloc(o.B * sizeof(*rep));
	for (size_t r = 0; r < o.B; r++) {
		double va = boot_replicate(&ga, &o, &rng);
		double vb = boot_replicate(&gb, &o, &rng);
		double c = contrast(o.contrast, va, vb);

		if (isfinite(c))
			rep[nvalid++] = c;
	}
	out->B = o.B;
	out->nvalid = nvalid;
	if (nvalid >= 2) {
		/* Welford for the standard deviation */
		for (size_t i = 0; i < nvalid; i++) {
			double d = rep[i] - m;

			m += d / (double)(i + 1);
			ss += d * (rep[i] - m);
		}
		out->se = sqrt(ss / (double)(nvalid - 1));
	}
	if (nvalid >= 2 && nvalid * 2 >= o.B) {
		alpha = 1 - o.level;
		stats_sort(rep, nvalid);
		out->lo = stats_quantile_type7(rep, nvalid, 100 * alpha / 2);
		out->hi = stats_quantile_type7(rep, nvalid,
		    100 * (1 - alpha / 2));
	}
	ret = 0;
cleanup:
	free(rep);
	boot_group_release(&ga);
	boot_group_release(&gb);
	return ret;
}
