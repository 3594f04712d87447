/*
 * t-stats.c - tests of stats/ against golden fixtures written
 * by tests/fixtures/stats/gen_golden.py (numpy, scipy, mpmath), the
 * articles' published numbers, brute-force oracles written here, and
 * coverage simulations.  Runs from the repository root.  SLOW=1 adds the
 * full 1000-repetition bootstrap coverage study; STATS_BENCH=1 prints
 * timings of the large-n paths.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats/stats.h"
#include "common/xalloc.h"
#include "tests/unit/harness.h"

#define FIXDIR	"tests/fixtures/stats/"

/* ---------------------------------------------------------------------
 * Fixture reading: one record per line, fields separated by spaces.
 */

struct fx {
	FILE *f;		/* the open fixture */
	char *buf;		/* getline buffer, owned */
	size_t bufsz;
	char **tok;		/* fields of the current line, into buf */
	size_t ntok, alloc;
};

static int
fx_open(struct fx *fx, const char *name)
{
	char path[256];

	memset(fx, 0, sizeof(*fx));
	snprintf(path, sizeof(path), FIXDIR "%s", name);
	fx->f = fopen(path, "r");
	if (!fx->f) {
		printf("# cannot open %s (run from the repository root)\n",
		    path);
		CHECK(0, "fixture opens");
		return -1;
	}
	return 0;
}

/* Next record; returns its field count, 0 at the end of the file. */
static size_t
fx_next(struct fx *fx)
{
	for (;;) {
		ssize_t len = getline(&fx->buf, &fx->bufsz, fx->f);
		char *p;

		if (len < 0)
			return 0;
		fx->ntok = 0;
		if (fx->buf[0] == '#' || fx->buf[0] == '\n')
			continue;
		p = fx->buf;
		while (*p) {
			while (*p == ' ' || *p == '\n')
				*p++ = '\0';
			if (!*p)
				break;
			ALLOC_GROW(fx->tok, fx->ntok + 1, fx->alloc);
			fx->tok[fx->ntok++] = p;
			while (*p && *p != ' ' && *p != '\n')
				p++;
		}
		if (fx->ntok)
			return fx->ntok;
	}
}

static void
fx_close(struct fx *fx)
{
	if (fx->f)
		fclose(fx->f);
	free(fx->buf);
	free(fx->tok);
	memset(fx, 0, sizeof(*fx));
}

static double
num(const char *s)
{
	return strtod(s, NULL);
}

/* got within rel * |want| + abs of want; NaN matches NaN, inf inf. */
static bool
near(double got, double want, double rel, double abs_tol)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= rel * fabs(want) + abs_tol;
}

#define CHECK_REL(got, want, rel, abs_tol, what) do { \
	double g__ = (got), w__ = (want); \
	bool ok__ = near(g__, w__, (rel), (abs_tol)); \
	CHECK(ok__, what); \
	if (!ok__) \
		printf("#   got %.17g, want %.17g (rel err %.3g)\n", g__, w__, \
		    fabs(g__ - w__) / fabs(w__)); \
} while (0)

/* Named data sets from data.txt / boot.txt / compare.txt. */
struct dset {
	char name[48];		/* tag-qualified name, e.g. "x:small" */
	double *v;		/* owned */
	size_t n;
};

static struct dset dsets[64];
static size_t ndsets;

static void
dset_add(const char *tag, const char *name, char **tok, size_t n)
{
	struct dset *d;

	if (ndsets == ARRAY_SIZE(dsets))
		return;
	d = &dsets[ndsets++];
	snprintf(d->name, sizeof(d->name), "%s:%s", tag, name);
	d->n = n;
	d->v = xmalloc((n ? n : 1) * sizeof(double));
	for (size_t i = 0; i < n; i++)
		d->v[i] = num(tok[i]);
}

static const struct dset *
dset_get(const char *tag, const char *name)
{
	char key[48];

	snprintf(key, sizeof(key), "%s:%s", tag, name);
	for (size_t i = 0; i < ndsets; i++)
		if (!strcmp(dsets[i].name, key))
			return &dsets[i];
	printf("# no data set %s\n", key);
	return NULL;
}

static void
dsets_free(void)
{
	for (size_t i = 0; i < ndsets; i++)
		free(dsets[i].v);
	ndsets = 0;
}

static double *
copy_of(const double *x, size_t n)
{
	double *c = xmalloc((n ? n : 1) * sizeof(*c));

	memcpy(c, x, n * sizeof(*c));
	return c;
}

static double
max_abs(const double *x, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		if (fabs(x[i]) > m)
			m = fabs(x[i]);
	return m;
}

/* ---------------------------------------------------------------------
 * Quantiles
 */

static void
test_sort_select(void)
{
	struct stats_rng rng;
	double x[1000], y[1000], small[7] = { 3, -0.0, 0.0, -1e300, 1e-300,
		INFINITY, -INFINITY };
	bool ok = true;

	stats_rng_seed(&rng, 99);
	for (size_t i = 0; i < ARRAY_SIZE(x); i++) {
		/* mixed signs, magnitudes and ties */
		x[i] = (double)(stats_rng_below(&rng, 200) - 100) *
		    pow(10, (double)stats_rng_below(&rng, 9) - 4.0);
		y[i] = x[i];
	}
	stats_sort(x, ARRAY_SIZE(x));
	for (size_t i = 1; i < ARRAY_SIZE(x); i++)
		if (x[i - 1] > x[i])
			ok = false;
	CHECK(ok, "radix sort orders 1000 mixed-sign values");
	for (size_t k = 0; k < ARRAY_SIZE(y); k += 37) {
		double *c = copy_of(y, ARRAY_SIZE(y));

		if (stats_select(c, ARRAY_SIZE(y), k) != x[k])
			ok = false;
		free(c);
	}
	CHECK(ok, "select agrees with the sort at every 37th rank");
	stats_sort(small, ARRAY_SIZE(small));
	CHECK(small[0] == -INFINITY && small[1] == -1e300 &&
	    signbit(small[2]) && small[3] == 0 && small[4] == 1e-300 &&
	    small[5] == 3 && small[6] == INFINITY,
	    "sort handles -0, +-inf, tiny and huge values");
	{
		/* patterns that defeat naive pivots: sorted, reversed,
		 * organ pipe, few distinct values */
		const size_t n = 100000;
		double *a = xmalloc(n * sizeof(*a)), *srt, *c;
		bool good = true;

		for (int pat = 0; pat < 4; pat++) {
			for (size_t i = 0; i < n; i++) {
				double v = (double)i;

				a[i] = pat == 0 ? v : pat == 1 ? (double)n - v :
				    pat == 2 ? (i < n / 2 ? v : (double)n - v) :
				    (double)(i % 3);
			}
			srt = copy_of(a, n);
			stats_sort(srt, n);
			for (size_t k = 0; k < n; k += 9973) {
				c = copy_of(a, n);
				if (stats_select(c, n, k) != srt[k])
					good = false;
				free(c);
			}
			free(srt);
		}
		free(a);
		CHECK(good, "select on sorted, reversed, organ-pipe, 3-valued");
	}
	{
		double same[500];

		for (size_t i = 0; i < ARRAY_SIZE(same); i++)
			same[i] = 7.5;
		CHECK(stats_select(same, ARRAY_SIZE(same), 250) == 7.5,
		    "select on 500 identical values");
	}
}

static void
test_quantile_fixtures(void)
{
	struct fx fx;
	size_t bad_t7 = 0, bad_oha = 0, bad_hd = 0, bad_un = 0, nq = 0;

	if (fx_open(&fx, "data.txt") < 0)
		return;
	while (fx_next(&fx))
		if (!strcmp(fx.tok[0], "data"))
			dset_add("data", fx.tok[1], fx.tok + 2, fx.ntok - 2);
	fx_close(&fx);

	if (fx_open(&fx, "quantiles.txt") < 0)
		return;
	while (fx_next(&fx)) {
		const struct dset *d;
		enum stats_estimator est;
		double *s, *u, want, got, gotu, scale, pct;
		char what[160];

		if (!strcmp(fx.tok[0], "idx")) {
			struct stats_name nm;
			char name[32];

			snprintf(name, sizeof(name), "p%s", fx.tok[1]);
			stats_name_parse(name, &nm, NULL);
			snprintf(what, sizeof(what), "oha index %s n=%s is %s",
			    name, fx.tok[2], fx.tok[3]);
			CHECK_EQ_INT(stats_oha_index(nm.pct,
			    (size_t)num(fx.tok[2])), (long long)num(fx.tok[3]),
			    what);
			continue;
		}
		d = dset_get("data", fx.tok[1]);
		if (!d || stats_estimator_parse(fx.tok[2], &est) < 0)
			continue;
		nq++;
		pct = num(fx.tok[3]);
		want = num(fx.tok[4]);
		s = copy_of(d->v, d->n);
		u = copy_of(d->v, d->n);
		stats_sort(s, d->n);
		got = stats_quantile(est, s, d->n, pct);
		gotu = stats_quantile_unsorted(est, u, d->n, pct);
		scale = max_abs(d->v, d->n);
		snprintf(what, sizeof(what), "%s %s p%s = %.17g", fx.tok[1],
		    fx.tok[2], fx.tok[3], want);
		switch (est) {
		case STATS_EST_TYPE7:
			/* numpy's lerp, so equal to a few ulp */
			if (!near(got, want, 4e-16, 4e-16 * scale)) {
				bad_t7++;
				CHECK_REL(got, want, 4e-16, 4e-16 * scale,
				    what);
			}
			break;
		case STATS_EST_OHA:
			if (got != want) {
				bad_oha++;
				CHECK_REL(got, want, 0, 0, what);
			}
			break;
		default:
			if (!near(got, want, 1e-12, 1e-13 * scale)) {
				bad_hd++;
				CHECK_REL(got, want, 1e-12, 1e-13 * scale,
				    what);
			}
			break;
		}
		if (!near(gotu, got, 1e-13, 1e-14 * scale)) {
			bad_un++;
			snprintf(what, sizeof(what), "%s %s p%s unsorted path",
			    fx.tok[1], fx.tok[2], fx.tok[3]);
			CHECK_REL(gotu, got, 1e-13, 1e-14 * scale, what);
		}
		free(s);
		free(u);
	}
	fx_close(&fx);
	printf("# %zu quantile records\n", nq);
	CHECK(nq >= 290, "quantile fixture has all records");
	CHECK_EQ_INT(bad_t7, 0, "type7 == numpy.percentile (all sets, pcts)");
	CHECK_EQ_INT(bad_oha, 0, "oha == sorted[int(p/100*n)] (all sets)");
	CHECK_EQ_INT(bad_hd, 0, "hd == mpmath / scipy hdquantiles to 1e-12");
	CHECK_EQ_INT(bad_un, 0, "selection path == sorted path");
}

static void
test_names(void)
{
	static const struct {
		const char *s;
		int ok;
		enum stats_name_kind kind;
		double pct;
	} cases[] = {
		{ "p50", 0, STATS_NAME_PCT, 50 },
		{ "p99.9", 0, STATS_NAME_PCT, 99.9 },
		{ "p99.99", 0, STATS_NAME_PCT, 99.99 },
		{ "p0", 0, STATS_NAME_PCT, 0 },
		{ "p100", 0, STATS_NAME_PCT, 100 },
		{ "p100.0", 0, STATS_NAME_PCT, 100 },
		{ "median", 0, STATS_NAME_PCT, 50 },
		{ "min", 0, STATS_NAME_MIN, 0 },
		{ "max", 0, STATS_NAME_MAX, 0 },
		{ "mean", 0, STATS_NAME_MEAN, 0 },
		{ "n", 0, STATS_NAME_N, 0 },
		{ "p101", -1, 0, 0 },
		{ "p100.01", -1, 0, 0 },
		{ "p-1", -1, 0, 0 },
		{ "pabc", -1, 0, 0 },
		{ "p", -1, 0, 0 },
		{ "p.5", -1, 0, 0 },
		{ "p5.", -1, 0, 0 },
		{ "p1e1", -1, 0, 0 },
		{ "p 50", -1, 0, 0 },
		{ "p+50", -1, 0, 0 },
		{ "p50%", -1, 0, 0 },
		{ "P50", -1, 0, 0 },
		{ "avg", -1, 0, 0 },
		{ "", -1, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct stats_name nm = { STATS_NAME_N, -1 };
		const char *why = NULL;
		char what[96];
		int rc = stats_name_parse(cases[i].s, &nm, &why);
		bool ok = rc == cases[i].ok;

		if (ok && rc == 0) {
			ok = nm.kind == cases[i].kind &&
			    (nm.kind != STATS_NAME_PCT ||
			    nm.pct == cases[i].pct);
		}
		if (ok && rc < 0)
			ok = why && *why;
		snprintf(what, sizeof(what), "name '%s' %s%s%s", cases[i].s,
		    cases[i].ok ? "rejected" : "accepted", why ? ": " : "",
		    why ? why : "");
		CHECK(ok, what);
	}
	{
		const char *why = NULL;
		struct stats_name nm;

		stats_name_parse("p101", &nm, &why);
		CHECK_EQ_STR(why, "percent above 100", "p101 reason");
		stats_name_parse("p-1", &nm, &why);
		CHECK_EQ_STR(why, "percent below 0", "p-1 reason");
		stats_name_parse("pabc", &nm, &why);
		CHECK_EQ_STR(why, "percent is not a decimal number",
		    "pabc reason");
	}
}

/* ---------------------------------------------------------------------
 * Distributions and order-statistic intervals
 */

static void
test_special(void)
{
	struct fx fx;
	size_t nbad = 0, nrec = 0;

	if (fx_open(&fx, "special.txt") < 0)
		return;
	while (fx_next(&fx)) {
		const char *t = fx.tok[0];
		char what[200];

		nrec++;
		if (!strcmp(t, "betainc")) {
			double a = num(fx.tok[1]), b = num(fx.tok[2]);
			double x = num(fx.tok[3]);

			snprintf(what, sizeof(what), "I_%s(%s, %s)", fx.tok[3],
			    fx.tok[1], fx.tok[2]);
			CHECK_REL(stats_betainc(a, b, x), num(fx.tok[4]),
			    1e-12, 1e-300, what);
			snprintf(what, sizeof(what), "1 - I_%s(%s, %s)",
			    fx.tok[3], fx.tok[1], fx.tok[2]);
			CHECK_REL(stats_betainc_upper(a, b, x), num(fx.tok[5]),
			    1e-12, 1e-300, what);
		} else if (!strcmp(t, "binom")) {
			double k = num(fx.tok[1]), n = num(fx.tok[2]);
			double p = num(fx.tok[3]);

			snprintf(what, sizeof(what), "binom cdf(%s; %s, %s)",
			    fx.tok[1], fx.tok[2], fx.tok[3]);
			CHECK_REL(stats_binom_cdf(k, n, p), num(fx.tok[4]),
			    1e-11, 1e-300, what);
			snprintf(what, sizeof(what), "binom pmf(%s; %s, %s)",
			    fx.tok[1], fx.tok[2], fx.tok[3]);
			CHECK_REL(stats_binom_pmf(k, n, p), num(fx.tok[5]),
			    1e-11, 1e-300, what);
		} else if (!strcmp(t, "norm")) {
			snprintf(what, sizeof(what), "norm ppf(%s)", fx.tok[1]);
			CHECK_REL(stats_norm_quantile(num(fx.tok[1])),
			    num(fx.tok[2]), 1e-14, 1e-15, what);
		} else if (!strcmp(t, "t")) {
			snprintf(what, sizeof(what), "t cdf(%s; df %s)",
			    fx.tok[1], fx.tok[2]);
			CHECK_REL(stats_t_cdf(num(fx.tok[1]), num(fx.tok[2])),
			    num(fx.tok[3]), 1e-12, 1e-300, what);
		} else if (!strcmp(t, "tq")) {
			snprintf(what, sizeof(what), "t ppf(%s; df %s)",
			    fx.tok[1], fx.tok[2]);
			CHECK_REL(stats_t_quantile(num(fx.tok[1]),
			    num(fx.tok[2])), num(fx.tok[3]), 1e-11, 0, what);
		} else {
			nrec--;
			nbad++;
		}
	}
	fx_close(&fx);
	CHECK(nrec > 70 && nbad == 0, "special-function fixture read whole");
	/* the complement identity at an awkward point */
	CHECK_NEAR(stats_betainc(3, 4, 0.2) + stats_betainc_upper(3, 4, 0.2),
	    1.0, 1e-15, "I + (1 - I) == 1");
	CHECK(isnan(stats_betainc(-1, 2, 0.5)), "betainc rejects a <= 0");
}

static void
test_rank_ci(void)
{
	struct fx fx;
	size_t nrec = 0, nbad = 0;

	if (fx_open(&fx, "rankci.txt") < 0)
		return;
	while (fx_next(&fx)) {
		struct stats_rank_ci ci;
		enum stats_ci_rule rule;
		char what[160];
		bool ok;

		if (!strcmp(fx.tok[0], "minn")) {
			rule = !strcmp(fx.tok[3], "equal") ?
			    STATS_CI_EQUAL_TAILED : STATS_CI_NARROWEST;
			snprintf(what, sizeof(what), "p%s %s interval needs "
			    "n >= %s", fx.tok[1], fx.tok[3], fx.tok[4]);
			CHECK_EQ_INT(stats_quantile_ci_min_n(num(fx.tok[1]),
			    num(fx.tok[2]), rule), (long long)num(fx.tok[4]),
			    what);
			continue;
		}
		nrec++;
		rule = !strcmp(fx.tok[4], "equal") ? STATS_CI_EQUAL_TAILED :
		    STATS_CI_NARROWEST;
		stats_quantile_ci((size_t)num(fx.tok[1]), num(fx.tok[2]),
		    num(fx.tok[3]), rule, &ci);
		ok = ci.available == (num(fx.tok[5]) == 1) &&
		    ci.lo == (size_t)num(fx.tok[6]) &&
		    ci.hi == (size_t)num(fx.tok[7]) &&
		    near(ci.coverage, num(fx.tok[8]), 1e-9, 0);
		if (!ok) {
			nbad++;
			snprintf(what, sizeof(what), "ci n=%s p%s %s: [%s, %s]",
			    fx.tok[1], fx.tok[2], fx.tok[4], fx.tok[6],
			    fx.tok[7]);
			CHECK(ok, what);
			printf("#   got avail %d [%zu, %zu] cov %.17g, want "
			    "cov %s\n", ci.available, ci.lo, ci.hi,
			    ci.coverage, fx.tok[8]);
		}
	}
	fx_close(&fx);
	printf("# %zu rank-interval records\n", nrec);
	CHECK(nrec > 150, "rank-interval fixture read whole");
	CHECK_EQ_INT(nbad, 0, "rank intervals == brute force over scipy binom");

	/* docs/analyze.md's threshold (p99 needs n >= 299), spelled out */
	{
		struct stats_rank_ci ci;

		stats_quantile_ci(298, 99, 0.95, STATS_CI_NARROWEST, &ci);
		CHECK(!ci.available, "p99 at n=298: no 95% interval");
		stats_quantile_ci(299, 99, 0.95, STATS_CI_NARROWEST, &ci);
		CHECK(ci.available && ci.hi == 299 && ci.coverage >= 0.95,
		    "p99 at n=299: interval up to the maximum");
		CHECK_NEAR(ci.coverage, 1 - pow(0.99, 299) -
		    stats_binom_cdf((double)(ci.lo - 1), 299, 0.99), 1e-12,
		    "n=299 coverage == 1 - 0.99^299 - P(B < lo)");
		stats_quantile_ci(300, 0, 0.95, STATS_CI_NARROWEST, &ci);
		CHECK(!ci.available, "min has no interval");
		CHECK(stats_quantile_ci(0, 50, 0.95, STATS_CI_NARROWEST,
		    &ci) < 0, "n=0 rejected");
	}
}

/* ---------------------------------------------------------------------
 * PRNG and bootstrap
 */

struct group {
	double *trial[8];	/* borrowed from dsets */
	size_t n[8];
	size_t ntrials;
	struct stats_trials st;	/* view over the above */
};

static void
test_rng_boot(void)
{
	struct fx fx;
	struct group groups[3];
	const char gnames[3] = { 'B', 'H', 'Z' };

	memset(groups, 0, sizeof(groups));
	if (fx_open(&fx, "boot.txt") < 0)
		return;
	while (fx_next(&fx)) {
		const char *t = fx.tok[0];
		char what[200];

		if (!strcmp(t, "rng")) {
			struct stats_rng rng;
			bool ok = true;

			stats_rng_seed(&rng, strtoull(fx.tok[1], NULL, 10));
			for (size_t i = 2; i < fx.ntok; i++)
				if (stats_rng_next(&rng) !=
				    strtoull(fx.tok[i], NULL, 10))
					ok = false;
			snprintf(what, sizeof(what), "xoshiro256** stream, "
			    "seed %s", fx.tok[1]);
			CHECK(ok, what);
		} else if (!strcmp(t, "below")) {
			struct stats_rng rng;
			uint64_t bound = strtoull(fx.tok[2], NULL, 10);
			bool ok = true;

			stats_rng_seed(&rng, strtoull(fx.tok[1], NULL, 10));
			for (size_t i = 3; i < fx.ntok; i++)
				if (stats_rng_below(&rng, bound) !=
				    strtoull(fx.tok[i], NULL, 10))
					ok = false;
			CHECK(ok, "Lemire bounded draws match the Python port");
		} else if (!strcmp(t, "g")) {
			for (size_t k = 0; k < 3; k++) {
				struct group *g = &groups[k];
				char nm[32];

				if (fx.tok[1][0] != gnames[k] || fx.tok[1][1])
					continue;
				snprintf(nm, sizeof(nm), "%s%s", fx.tok[1],
				    fx.tok[2]);
				dset_add("g", nm, fx.tok + 3, fx.ntok - 3);
				g->trial[g->ntrials] = dsets[ndsets - 1].v;
				g->n[g->ntrials] = dsets[ndsets - 1].n;
				g->ntrials++;
				g->st.trial = (const double *const *)g->trial;
				g->st.n = g->n;
				g->st.ntrials = g->ntrials;
			}
		} else if (!strcmp(t, "boot")) {
			struct stats_boot_opts o = STATS_BOOT_OPTS_INIT;
			struct stats_boot_result res;
			const struct stats_trials *ga = NULL, *gb = NULL;

			for (size_t k = 0; k < 3; k++) {
				if (fx.tok[1][0] == gnames[k])
					ga = &groups[k].st;
				if (fx.tok[2][0] == gnames[k])
					gb = &groups[k].st;
			}
			stats_estimator_parse(fx.tok[3], &o.est);
			o.pct = num(fx.tok[4]);
			o.pool = !strcmp(fx.tok[5], "pertrial") ?
			    STATS_POOL_PER_TRIAL : STATS_POOL_POOLED;
			o.resample = !strcmp(fx.tok[6], "trials") ?
			    STATS_RESAMPLE_TRIALS : STATS_RESAMPLE_TWO_STAGE;
			o.contrast = !strcmp(fx.tok[7], "ratio") ? STATS_RATIO :
			    STATS_DELTA;
			o.B = (size_t)num(fx.tok[8]);
			o.seed = strtoull(fx.tok[9], NULL, 10);
			if (stats_bootstrap(ga, gb, &o, &res) < 0) {
				CHECK(0, "bootstrap runs");
				continue;
			}
			snprintf(what, sizeof(what), "boot %s-%s %s p%s %s %s "
			    "%s", fx.tok[1], fx.tok[2], fx.tok[3], fx.tok[4],
			    fx.tok[5], fx.tok[6], fx.tok[7]);
			CHECK_REL(res.estimate, num(fx.tok[10]), 1e-12, 1e-15,
			    what);
			CHECK_REL(res.lo, num(fx.tok[11]), 1e-9, 1e-15,
			    "  lower end == Python replica");
			CHECK_REL(res.hi, num(fx.tok[12]), 1e-9, 1e-15,
			    "  upper end == Python replica");
			CHECK_REL(res.se, num(fx.tok[13]), 1e-9, 1e-15,
			    "  replicate sd == Python replica");
			CHECK_EQ_INT(res.nvalid, (long long)num(fx.tok[14]),
			    "  valid replicates == Python replica");
		}
	}
	fx_close(&fx);

	/* determinism and argument checks */
	{
		struct stats_boot_opts o = STATS_BOOT_OPTS_INIT;
		struct stats_boot_result r1, r2, r3;
		struct stats_trials empty = { NULL, NULL, 0 };

		o.B = 300;
		stats_bootstrap(&groups[1].st, &groups[0].st, &o, &r1);
		stats_bootstrap(&groups[1].st, &groups[0].st, &o, &r2);
		o.seed++;
		stats_bootstrap(&groups[1].st, &groups[0].st, &o, &r3);
		CHECK(r1.lo == r2.lo && r1.hi == r2.hi,
		    "same seed, same interval");
		CHECK(r1.lo != r3.lo || r1.hi != r3.hi,
		    "another seed, another draw");
		CHECK(r1.lo <= r1.estimate && r1.estimate <= r1.hi,
		    "estimate inside its interval");
		CHECK(stats_bootstrap(&empty, &groups[0].st, &o, &r1) < 0,
		    "a group without trials is rejected");
		o.pct = 101;
		CHECK(stats_bootstrap(&groups[1].st, &groups[0].st, &o,
		    &r1) < 0, "pct 101 is rejected");
	}
}

/* ---------------------------------------------------------------------
 * Articles
 */

static double
round_to(double v, int decimals)
{
	double s = pow(10, decimals);

	return round(v * s) / s;
}

static void
test_articles(void)
{
	struct fx fx;
	size_t nrec = 0;

	if (fx_open(&fx, "articles.txt") < 0)
		return;
	while (fx_next(&fx)) {
		char what[200];

		if (!strcmp(fx.tok[0], "ohaidx")) {
			struct stats_name nm;

			stats_name_parse(fx.tok[1], &nm, NULL);
			snprintf(what, sizeof(what), "article: oha %s at n=%s "
			    "is sorted[%s]", fx.tok[1], fx.tok[2], fx.tok[3]);
			CHECK_EQ_INT(stats_oha_index(nm.pct,
			    (size_t)num(fx.tok[2])), (long long)num(fx.tok[3]),
			    what);
			continue;
		}
		if (!strcmp(fx.tok[0], "art")) {
			double a = num(fx.tok[3]), b = num(fx.tok[4]), v;

			nrec++;
			if (!strcmp(fx.tok[1], "delta"))
				v = stats_delta(a, b);
			else if (!strcmp(fx.tok[1], "ratio"))
				v = stats_ratio(a, b);
			else
				v = stats_growth(a, b);
			snprintf(what, sizeof(what), "article: %s %s(%s, %s) "
			    "= %s", fx.tok[2], fx.tok[1], fx.tok[3], fx.tok[4],
			    fx.tok[5]);
			CHECK_NEAR(round_to(v, (int)num(fx.tok[6])),
			    num(fx.tok[5]), 1e-9, what);
		}
	}
	fx_close(&fx);
	CHECK(nrec >= 20, "articles fixture read whole");
	/* 300 samples: p99 is the third slowest value */
	CHECK_EQ_INT(300 - stats_oha_index(99, 300), 3,
	    "article: oha p99 of 300 is the 3rd slowest");
	CHECK(isnan(stats_ratio(1, 0)), "ratio over 0 is NaN");
}

/* ---------------------------------------------------------------------
 * Trial spread
 */

static void
test_spread(void)
{
	struct stats_spread sp;
	bool flag[8];
	double score[8];
	const double calm[3] = { 2.021, 2.05, 1.98 };
	const double tw[3] = { 0.5, 0.52, 6.0 };
	const double four[4] = { 1.0, 1.02, 0.98, 5.0 };
	const double mad0[4] = { 1.0, 1.0, 1.0, 5.0 };
	const double mad0b[5] = { 2.0, 2.0, 2.0, 2.5, 1.9 };
	const double two[2] = { 1.0, 10.0 };
	const double neg[4] = { 1.0, -1.0, 2.0, 3.0 };
	const double spread8[8] = { 1.0, 1.1, 0.9, 1.05, 0.95, 1.02, 0.97,
		1.6 };

	stats_spread(calm, 3, &sp, flag, score);
	CHECK(sp.rule == STATS_OUTLIER_ROBUST_Z && sp.noutliers == 0,
	    "3 calm trials: the calibrated rule, no outlier");
	CHECK_NEAR(sp.mean, (2.021 + 2.05 + 1.98) / 3, 1e-15, "spread mean");
	CHECK_NEAR(sp.median, 2.021, 0, "spread median");
	CHECK_NEAR(sp.max_dev_pct, 100 * (sp.mean - 1.98) / sp.mean, 1e-12,
	    "largest deviation from the mean in %");
	CHECK_NEAR(score[2], log(1.98 / 2.021) / (1.4826 * log(2.05 /
	    2.021)), 1e-12, "score: robust z of the logs");

	stats_spread(tw, 3, &sp, flag, score);
	CHECK(flag[2] && !flag[0] && !flag[1] && sp.noutliers == 1,
	    "TIME_WAIT trial (12x) flagged among 3, the others not");
	CHECK(fabs(score[0]) < 1, "the fast trials are not dragged to 0.15x");
	CHECK_NEAR(sp.max_dev_pct, 100 * (6.0 - 7.02 / 3) / (7.02 / 3),
	    1e-12, "max deviation with an outlier");

	stats_spread(four, 4, &sp, flag, score);
	CHECK(sp.rule == STATS_OUTLIER_ROBUST_Z && flag[3] && !flag[0] &&
	    sp.noutliers == 1, "robust z flags the 5x trial among 4");
	CHECK(fabs(score[3]) > 50, "its robust z is large");

	stats_spread(mad0, 4, &sp, flag, score);
	CHECK(sp.rule == STATS_OUTLIER_RATIO && flag[3] && sp.noutliers == 1,
	    "MAD = 0 falls back to the ratio rule");
	stats_spread(mad0b, 5, &sp, flag, score);
	CHECK(sp.rule == STATS_OUTLIER_RATIO && sp.noutliers == 0,
	    "MAD = 0 with small deviations: nothing flagged");

	stats_spread(two, 2, &sp, flag, score);
	CHECK(sp.rule == STATS_OUTLIER_NONE && !flag[0] && !flag[1] &&
	    isnan(score[0]), "2 trials: no flags");
	CHECK_NEAR(sp.max_dev_pct, 100 * 4.5 / 5.5, 1e-12,
	    "2 trials still report the deviation");
	stats_spread(neg, 4, &sp, flag, score);
	CHECK(sp.rule == STATS_OUTLIER_NONE, "a value <= 0: no log scale");
	stats_spread(spread8, 8, &sp, flag, score);
	CHECK(!flag[7] && sp.noutliers == 0,
	    "8 trials: a 1.6x trial is under the 2x floor");
	CHECK(stats_spread(NULL, 0, &sp, NULL, NULL) < 0, "n=0 rejected");
}

/* ---------------------------------------------------------------------
 * Comparisons
 */

static void
test_compare(void)
{
	struct fx fx;

	if (fx_open(&fx, "compare.txt") < 0)
		return;
	while (fx_next(&fx)) {
		const char *t = fx.tok[0];
		char what[200];

		if (!strcmp(t, "x") || !strcmp(t, "y") || !strcmp(t, "tx") ||
		    !strcmp(t, "ty")) {
			dset_add(t, fx.tok[1], fx.tok + 2, fx.ntok - 2);
		} else if (!strcmp(t, "mw") || !strcmp(t, "mwa")) {
			const struct dset *x = dset_get("x", fx.tok[1]);
			const struct dset *y = dset_get("y", fx.tok[1]);
			struct stats_test r;
			enum stats_mw_method m = !strcmp(t, "mw") ?
			    STATS_MW_EXACT : STATS_MW_ASYMPTOTIC;

			if (!x || !y)
				continue;
			snprintf(what, sizeof(what), "mannwhitneyu %s %s",
			    fx.tok[1], fx.tok[2]);
			CHECK(stats_mann_whitney(x->v, x->n, y->v, y->n, m,
			    &r) == 0 && r.exact == (m == STATS_MW_EXACT), what);
			CHECK_REL(r.statistic, num(fx.tok[3]), 0, 0, "  U");
			CHECK_REL(r.p, num(fx.tok[4]), 1e-10, 1e-300, "  p");
		} else if (!strcmp(t, "bm")) {
			const struct dset *x = dset_get("x", fx.tok[1]);
			const struct dset *y = dset_get("y", fx.tok[1]);
			struct stats_test r;

			if (!x || !y)
				continue;
			snprintf(what, sizeof(what), "brunnermunzel %s W",
			    fx.tok[1]);
			stats_brunner_munzel(x->v, x->n, y->v, y->n, &r);
			CHECK_REL(r.statistic, num(fx.tok[2]), 1e-12, 0, what);
			CHECK_REL(r.df, num(fx.tok[3]), 1e-10, 0, "  df");
			/* scipy's p = 2 min(cdf, 1 - cdf) loses digits */
			CHECK_REL(r.p, num(fx.tok[4]), 1e-9, 1e-15, "  p");
		} else if (!strcmp(t, "ts")) {
			const struct dset *x = dset_get("tx", fx.tok[1]);
			const struct dset *y = dset_get("ty", fx.tok[1]);
			struct stats_theil_sen r;

			if (!x || !y)
				continue;
			snprintf(what, sizeof(what), "theilslopes %s slope",
			    fx.tok[1]);
			CHECK(stats_theil_sen(x->v, y->v, x->n, 0.95, &r) == 0,
			    "theil-sen runs");
			CHECK_REL(r.slope, num(fx.tok[2]), 1e-12, 1e-15, what);
			CHECK_REL(r.intercept, num(fx.tok[3]), 1e-12, 1e-14,
			    "  intercept");
			CHECK_REL(r.lo, num(fx.tok[4]), 1e-12, 1e-15, "  low");
			CHECK_REL(r.hi, num(fx.tok[5]), 1e-12, 1e-15, "  high");
		} else if (!strcmp(t, "holm")) {
			size_t m = (size_t)num(fx.tok[2]);
			double p[16];
			bool ok = true;

			for (size_t i = 0; i < m; i++)
				p[i] = num(fx.tok[3 + i]);
			stats_holm(p, m);
			for (size_t i = 0; i < m; i++)
				if (!near(p[i], num(fx.tok[3 + m + i]), 1e-15,
				    0))
					ok = false;
			snprintf(what, sizeof(what), "holm %s", fx.tok[1]);
			CHECK(ok, what);
		} else if (!strcmp(t, "need")) {
			double x[16], now;
			size_t n = fx.ntok - 5, m;

			for (size_t i = 0; i < n; i++)
				x[i] = num(fx.tok[5 + i]);
			m = stats_trials_needed(x, n, num(fx.tok[2]), 0.95,
			    &now);
			snprintf(what, sizeof(what), "trials needed for "
			    "+-%s%% (%s): %s", fx.tok[2], fx.tok[1], fx.tok[3]);
			CHECK_EQ_INT(m, (long long)num(fx.tok[3]), what);
			CHECK_REL(now, num(fx.tok[4]), 1e-10, 0,
			    "  half-width now");
		}
	}
	fx_close(&fx);
	{
		double p[4] = { 0.01, NAN, 0.04, 0.03 };

		stats_holm(p, 4);
		CHECK(isnan(p[1]) && near(p[0], 0.03, 1e-15, 0) &&
		    near(p[3], 0.06, 1e-15, 0) && near(p[2], 0.06, 1e-15, 0),
		    "holm: NaN stays NaN, m counts the rest");
	}
	{
		const double x[3] = { 1, 2, 3 }, y[3] = { 4, 5, 6 };
		struct stats_test r;

		CHECK(stats_mann_whitney(x, 3, y, 0, STATS_MW_AUTO, &r) < 0,
		    "mann-whitney rejects an empty sample");
		stats_mann_whitney(x, 3, y, 3, STATS_MW_AUTO, &r);
		CHECK(r.exact && near(r.p, 0.1, 1e-15, 0) && r.effect == 1,
		    "3 vs 3 separated: exact p = 2/20");
		stats_brunner_munzel(x, 3, y, 3, &r);
		CHECK(isinf(r.statistic) && isnan(r.p) && r.effect == 1,
		    "brunner-munzel under separation: inf, NaN, effect 1");
	}
}

/* Optimal partitioning (Jackson et al. 2005), O(n^2): what PELT must
 * reproduce exactly.  Returns the change count, indices into cp. */
static size_t
op_changepoints(const double *y, size_t n, double sigma, size_t minseg,
    size_t *cp)
{
	double *f = xmalloc((n + 1) * sizeof(*f)), beta = 2 * log((double)n);
	size_t *last = xmalloc((n + 1) * sizeof(*last)), k = 0, nc = 0;

	f[0] = -beta;
	for (size_t t = 1; t <= n; t++) {
		f[t] = INFINITY;
		for (size_t tau = 0; tau + minseg <= t; tau++) {
			double s = 0, s2 = 0, c;

			if (tau != 0 && tau < minseg)
				continue;
			for (size_t i = tau; i < t; i++) {
				s += y[i] - y[0];
				s2 += (y[i] - y[0]) * (y[i] - y[0]);
			}
			c = (s2 - s * s / (double)(t - tau)) / (sigma * sigma);
			if (c < 0)
				c = 0;
			if (f[tau] + c + beta < f[t]) {
				f[t] = f[tau] + c + beta;
				last[t] = tau;
			}
		}
	}
	for (size_t t = n; t > 0; t = last[t])
		if (last[t] > 0)
			nc++;
	k = nc;
	for (size_t t = n; t > 0; t = last[t])
		if (last[t] > 0)
			cp[--k] = last[t];
	free(f);
	free(last);
	return nc;
}

static void
test_changepoints(void)
{
	struct stats_rng rng;
	double y[120];
	size_t *cps = NULL, want[120];
	long nc;
	bool all_same = true;

	stats_rng_seed(&rng, 11);
	for (size_t i = 0; i < 30; i++)
		y[i] = 8.9 + 0.05 * stats_rng_normal(&rng);
	for (size_t i = 30; i < 60; i++)
		y[i] = 9.3 + 0.05 * stats_rng_normal(&rng);
	nc = stats_changepoints(y, 60, 0, 2, &cps);
	CHECK(nc == 1 && cps && cps[0] == 30, "one mean shift at day 30");
	free(cps);

	for (size_t i = 0; i < 40; i++)
		y[i] = 1.33 + 0.02 * stats_rng_normal(&rng);
	nc = stats_changepoints(y, 40, 0, 2, &cps);
	CHECK(nc == 0 && !cps, "no change in pure noise");
	free(cps);

	for (size_t i = 0; i < 12; i++)
		y[i] = i < 4 ? 0.5 : i < 8 ? 0.9 : 0.5;
	nc = stats_changepoints(y, 12, 0, 2, &cps);
	CHECK(nc == 2 && cps && cps[0] == 4 && cps[1] == 8,
	    "piecewise-constant series: changes at 4 and 8");
	free(cps);

	/* PELT's pruning must not change the optimum: compare with the
	 * exhaustive recursion on random series with random shifts */
	for (int rep = 0; rep < 40; rep++) {
		size_t n = 20 + stats_rng_below(&rng, 100), m;
		size_t minseg = 1 + stats_rng_below(&rng, 3);
		double level = 0;

		for (size_t i = 0; i < n; i++) {
			if (stats_rng_below(&rng, 15) == 0)
				level += stats_rng_normal(&rng) * 2;
			y[i] = level + stats_rng_normal(&rng);
		}
		nc = stats_changepoints(y, n, 1.0, minseg, &cps);
		m = op_changepoints(y, n, 1.0, minseg, want);
		if (nc != (long)m)
			all_same = false;
		for (size_t i = 0; all_same && i < m; i++)
			if (cps[i] != want[i])
				all_same = false;
		free(cps);
	}
	CHECK(all_same, "PELT == optimal partitioning on 40 random series");
	CHECK(stats_changepoints(y, 0, 0, 2, &cps) < 0, "n=0 rejected");
}

/* ---------------------------------------------------------------------
 * Coverage simulations
 */

enum dist { D_LOGNORMAL, D_EXPONENTIAL, D_NORMAL };
static const char *const dist_names[] = { "lognormal", "exponential",
	"normal" };

static double
draw(enum dist d, struct stats_rng *rng)
{
	switch (d) {
	case D_LOGNORMAL:
		return exp(stats_rng_normal(rng));
	case D_EXPONENTIAL:
		return stats_rng_exponential(rng);
	case D_NORMAL:
		return stats_rng_normal(rng);
	}
	return NAN;
}

static double
true_quantile(enum dist d, double p)
{
	switch (d) {
	case D_LOGNORMAL:
		return exp(stats_norm_quantile(p));
	case D_EXPONENTIAL:
		return -log1p(-p);
	case D_NORMAL:
		return stats_norm_quantile(p);
	}
	return NAN;
}

static void
test_os_coverage(void)
{
	struct stats_rng rng;
	double x[300];
	const size_t n = ARRAY_SIZE(x), reps = 1000;
	const double pcts[2] = { 50, 99 };

	stats_rng_seed(&rng, 2026);
	for (int d = 0; d < 3; d++) {
		for (int k = 0; k < 2; k++) {
			struct stats_rank_ci ci;
			double q = true_quantile((enum dist)d, pcts[k] / 100);
			size_t hit = 0;
			char what[160];

			stats_quantile_ci(n, pcts[k], 0.95, STATS_CI_NARROWEST,
			    &ci);
			for (size_t r = 0; r < reps; r++) {
				for (size_t i = 0; i < n; i++)
					x[i] = draw((enum dist)d, &rng);
				stats_sort(x, n);
				if (x[ci.lo - 1] <= q && q <= x[ci.hi - 1])
					hit++;
			}
			snprintf(what, sizeof(what), "order-statistic 95%% CI "
			    "for p%g, %s, n=%zu: covers %zu/%zu (exact %.4f)",
			    pcts[k], dist_names[d], n, hit, reps, ci.coverage);
			CHECK(hit >= 930 && hit <= 970, what);
		}
	}
}

/*
 * Trials for one group of the bootstrap coverage study: ntrials trials
 * of m lognormal samples whose log-location is mu + b_t, b_t ~ N(0,
 * tau^2) (trial-to-trial drift), log-scale sigma.  The pooled population
 * is lognormal(mu, sqrt(sigma^2 + tau^2)), median exp(mu).
 */
static void
make_trials(struct stats_rng *rng, double *buf, size_t ntrials, size_t m,
    double mu, double tau, double sigma)
{
	for (size_t t = 0; t < ntrials; t++) {
		double b = tau * stats_rng_normal(rng);

		for (size_t j = 0; j < m; j++)
			buf[t * m + j] = exp(mu + b +
			    sigma * stats_rng_normal(rng));
	}
}

/* Coverage of the two-stage bootstrap interval for the delta of pooled
 * medians; returns hits out of reps. */
static size_t
boot_coverage(size_t ntrials, size_t m, double tau, double sigma,
    size_t B, size_t reps, enum stats_resample rs, uint64_t seed)
{
	struct stats_rng rng;
	const double mu_a = log(1.33), mu_b = log(0.509);
	const double truth = 1.33 - 0.509;
	double *a = xmalloc(ntrials * m * sizeof(*a));
	double *b = xmalloc(ntrials * m * sizeof(*b));
	const double **ta = xmalloc(ntrials * sizeof(*ta));
	const double **tb = xmalloc(ntrials * sizeof(*tb));
	size_t *ns = xmalloc(ntrials * sizeof(*ns)), hit = 0;
	struct stats_trials ga, gb;
	struct stats_boot_opts o = STATS_BOOT_OPTS_INIT;
	struct stats_boot_result res;

	for (size_t t = 0; t < ntrials; t++) {
		ta[t] = a + t * m;
		tb[t] = b + t * m;
		ns[t] = m;
	}
	ga.trial = ta;
	gb.trial = tb;
	ga.n = gb.n = ns;
	ga.ntrials = gb.ntrials = ntrials;
	o.B = B;
	o.resample = rs;
	stats_rng_seed(&rng, seed);
	for (size_t r = 0; r < reps; r++) {
		make_trials(&rng, a, ntrials, m, mu_a, tau, sigma);
		make_trials(&rng, b, ntrials, m, mu_b, tau, sigma);
		o.seed = seed + r;
		stats_bootstrap(&ga, &gb, &o, &res);
		if (res.lo <= truth && truth <= res.hi)
			hit++;
	}
	free(a);
	free(b);
	free(ta);
	free(tb);
	free(ns);
	return hit;
}

static void
test_boot_coverage(void)
{
	/*
	 * Ten trials of 50 samples, trial-to-trial drift tau = 0.2 on the
	 * log scale against a within-trial sigma of 0.5: drift dominates
	 * the error of a pooled median, as in the articles (a trial's p50
	 * moves by several percent, its sampling error at n = 10,000 is
	 * well under 1 %).  This is the regime the two-stage bootstrap is
	 * for; see the SLOW=1 study for where it is not.
	 */
	size_t hit = boot_coverage(10, 50, 0.2, 0.5, 200, 1000,
	    STATS_RESAMPLE_TWO_STAGE, 77);
	char what[160];

	snprintf(what, sizeof(what), "two-stage bootstrap 95%% CI for a "
	    "delta of medians (10 trials x 50, B=200): covers %zu/1000", hit);
	CHECK(hit >= 930 && hit <= 970, what);
}

static void
test_boot_coverage_slow(void)
{
	/*
	 * Only the first regime, the fast test's at full size, is asserted:
	 * the others map where the two-stage interval is off.  With T
	 * trials it estimates the drift variance with a (T-1)/T factor and
	 * no t correction, and it counts the sampling error twice (once in
	 * the spread of the resampled trials, once within them), so it
	 * under-covers when drift dominates and over-covers for iid trials.
	 */
	static const struct {
		size_t ntrials, m;
		double tau, sigma;
		bool assert_it;	/* the regime of the default test */
		const char *what;
	} reg[] = {
		{ 10, 50, 0.2, 0.5, true, "10 trials, drift > sampling" },
		{ 10, 200, 0.2, 0.5, false, "10 trials, drift >> sampling" },
		{ 10, 200, 0.0, 0.5, false, "10 trials, no drift (iid)" },
		{ 3, 1000, 0.0, 0.5, false, "3 trials, no drift (iid)" },
		{ 3, 1000, 0.05, 0.5, false, "3 trials, drift ~ sampling" },
		{ 3, 1000, 0.2, 0.5, false, "3 trials, drift dominates" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(reg); i++) {
		for (int rs = 0; rs < 2; rs++) {
			size_t hit = boot_coverage(reg[i].ntrials, reg[i].m,
			    reg[i].tau, reg[i].sigma, STATS_BOOT_B_DEFAULT,
			    1000,
			    rs ? STATS_RESAMPLE_TRIALS :
			    STATS_RESAMPLE_TWO_STAGE, 1000 + i);
			char what[200];

			snprintf(what, sizeof(what), "slow: %s bootstrap, %s "
			    "(x%zu, tau %.2f, B=%d): covers %zu/1000",
			    rs ? "trials-only" : "two-stage", reg[i].what,
			    reg[i].m, reg[i].tau, STATS_BOOT_B_DEFAULT, hit);
			if (reg[i].assert_it && !rs)
				CHECK(hit >= 930 && hit <= 970, what);
			else
				printf("# %s\n", what);
		}
	}
}

/* ---------------------------------------------------------------------
 * Timings (STATS_BENCH=1)
 */

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static void
bench(void)
{
	struct stats_rng rng;
	const size_t big = 20000000, n10 = 10000000;
	double *x = xmalloc(big * sizeof(*x)), *y, t0, q;
	struct stats_boot_opts o = STATS_BOOT_OPTS_INIT;
	struct stats_boot_result res;
	double *tr[6];
	size_t ns[3] = { 10000, 10000, 10000 };
	struct stats_trials ga, gb;

	stats_rng_seed(&rng, 5);
	for (size_t i = 0; i < big; i++)
		x[i] = round(exp(log(0.077) + 0.3 * stats_rng_normal(&rng)) *
		    1e6) / 1e6;
	y = copy_of(x, big);
	t0 = now_s();
	stats_sort(y, big);
	printf("# bench: stats_sort 20M: %.3f s\n", now_s() - t0);
	memcpy(y, x, big * sizeof(*y));
	t0 = now_s();
	qsort(y, big, sizeof(*y), cmp_double);
	printf("# bench: qsort 20M: %.3f s\n", now_s() - t0);
	memcpy(y, x, n10 * sizeof(*y));
	t0 = now_s();
	stats_sort(y, n10);
	q = stats_quantile_type7(y, n10, 50) + stats_quantile_type7(y, n10,
	    99) + stats_quantile_type7(y, n10, 99.9) +
	    stats_quantile_oha(y, n10, 99);
	printf("# bench: sort + type7 p50,p99,p99.9 + oha p99 of 10M: "
	    "%.3f s (%g)\n", now_s() - t0, q);
	t0 = now_s();
	q = stats_quantile_hd(y, n10, 99);
	printf("# bench: hd p99 of 10M sorted: %.3f s (%g)\n", now_s() - t0,
	    q);
	memcpy(y, x, n10 * sizeof(*y));
	t0 = now_s();
	q = stats_quantile_unsorted(STATS_EST_TYPE7, y, n10, 99);
	printf("# bench: type7 p99 of 10M by selection: %.3f s (%g)\n",
	    now_s() - t0, q);
	for (size_t i = 0; i < 6; i++)
		tr[i] = x + i * 10000;
	ga.trial = (const double *const *)tr;
	gb.trial = (const double *const *)(tr + 3);
	ga.n = gb.n = ns;
	ga.ntrials = gb.ntrials = 3;
	for (int e = 0; e < 3; e++) {
		static const enum stats_estimator ests[3] = { STATS_EST_TYPE7,
			STATS_EST_OHA, STATS_EST_HD };

		o.est = ests[e];
		o.pct = 99;
		t0 = now_s();
		stats_bootstrap(&ga, &gb, &o, &res);
		printf("# bench: bootstrap 2 cells x 3 x 10,000, B=2000, "
		    "pooled %s p99: %.3f s\n", stats_estimator_name(o.est),
		    now_s() - t0);
	}
	o.est = STATS_EST_TYPE7;
	o.pool = STATS_POOL_PER_TRIAL;
	o.resample = STATS_RESAMPLE_TWO_STAGE;
	t0 = now_s();
	stats_bootstrap(&ga, &gb, &o, &res);
	printf("# bench: same, per-trial two-stage type7 p99: %.3f s\n",
	    now_s() - t0);
	{
		size_t *cps = NULL;

		t0 = now_s();
		stats_changepoints(x, 100000, 0, 2, &cps);
		printf("# bench: PELT on 100,000 points: %.3f s\n",
		    now_s() - t0);
		free(cps);
	}
	{
		struct stats_rank_ci ci;

		t0 = now_s();
		stats_quantile_ci(n10, 99.9, 0.95, STATS_CI_NARROWEST, &ci);
		printf("# bench: rank CI n=10M p99.9: %.4f s\n", now_s() - t0);
	}
	free(x);
	free(y);
}

int
main(void)
{
	const char *slow = getenv("SLOW"), *b = getenv("STATS_BENCH");

	test_sort_select();
	test_quantile_fixtures();
	test_names();
	test_special();
	test_rank_ci();
	test_rng_boot();
	test_articles();
	test_spread();
	test_compare();
	test_changepoints();
	test_os_coverage();
	test_boot_coverage();
	if (slow && *slow && strcmp(slow, "0"))
		test_boot_coverage_slow();
	if (b && *b && strcmp(b, "0"))
		bench();
	dsets_free();
	return test_done();
}
