/*
 * t-verdicts.c - the trend verdict and the outlier-trial rule
 * (stats/verdict.h): the exact Mann-Kendall null against a brute-force
 * count over every permutation, the verdicts on series whose answer is
 * known, their false-verdict rate on seeded noise (the
 * findings the earlier rules fail), and the outlier rule's
 * boundaries.  The full error-rate tables are bench/verdicts.c's.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/verdict.h"
#include "tests/unit/harness.h"

/* ---------------------------------------------------------------------
 * Mann-Kendall's exact null, by enumeration (the oracle)
 */

static size_t mk_count[64];	/* S + 32 -> permutations */

static void
enumerate(int *p, size_t k, size_t n)
{
	if (k == n) {
		int s = 0;

		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++)
				s += (p[j] > p[i]) - (p[j] < p[i]);
		mk_count[s + 32]++;
		return;
	}
	for (size_t i = k; i < n; i++) {
		int t = p[k];

		p[k] = p[i];
		p[i] = t;
		enumerate(p, k + 1, n);
		p[i] = p[k];
		p[k] = t;
	}
}

static void
test_mk_exact(void)
{
	for (size_t n = 2; n <= 7; n++) {
		int p[8];
		double total = 0;
		bool good = true;

		memset(mk_count, 0, sizeof(mk_count));
		for (size_t i = 0; i < n; i++)
			p[i] = (int)i;
		enumerate(p, 0, n);
		for (size_t i = 0; i < 64; i++)
			total += (double)mk_count[i];
		for (int s = 0; s <= (int)(n * (n - 1) / 2); s++) {
			double tail = 0, got;

			for (int v = -32; v < 32; v++)
				if (abs(v) >= s)
					tail += (double)mk_count[v + 32];
			tail /= total;
			if (tail > 1)
				tail = 1;
			got = stats_mk_exact_p(s, n);
			if (fabs(got - tail) > 1e-12)
				good = false;
		}
		CHECK(good, "exact Mann-Kendall p = enumeration over n! "
		    "permutations");
	}
	CHECK_NEAR(stats_mk_exact_p(10, 5), 2.0 / 120, 1e-15,
	    "n = 5, S = 10: p = 2/5!");
	CHECK_NEAR(stats_mk_exact_p(6, 4), 2.0 / 24, 1e-15,
	    "n = 4, S = 6: p = 2/4! > 0.05 (why 5 points are needed)");
	CHECK(isnan(stats_mk_exact_p(1, 61)), "n > 60: no exact p");
}

/* ---------------------------------------------------------------------
 * Hamed-Rao against tests/fixtures/stats/hamed_rao.txt (numpy/scipy,
 * gen_hamed_rao.py)
 */

static size_t
read_vec(FILE *f, char tag, double *v, size_t max)
{
	char line[4096], *p, *end;
	size_t n = 0;

	if (!fgets(line, sizeof(line), f) || line[0] != tag)
		return 0;
	for (p = line + 1; n < max; p = end) {
		double d = strtod(p, &end);

		if (end == p)
			break;
		v[n++] = d;
	}
	return n;
}

static void
test_hamed_rao(void)
{
	FILE *f = fopen("tests/fixtures/stats/hamed_rao.txt", "r");
	char line[256], what[160];
	size_t cases = 0;

	CHECK(f != NULL, "hamed_rao.txt opens (run from the repository root)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long n;
		double alpha, s, nns, var_s, p, x[128], y[128];
		struct stats_mk_hr hr;
		bool same_p;

		if (line[0] == '#' || sscanf(line, "case %lu %lf %lf %lf %lf "
		    "%lf", &n, &alpha, &s, &nns, &var_s, &p) != 6)
			continue;
		if (read_vec(f, 'x', x, 128) != n || read_vec(f, 'y', y, 128)
		    != n) {
			CHECK(false, "a case has its x and y");
			break;
		}
		CHECK(stats_mk_hamed_rao(x, y, n, alpha, &hr) == 0 &&
		    hr.s == s, "Hamed-Rao: S as scipy");
		snprintf(what, sizeof(what), "n = %lu, alpha %.2f: n/n* = %.6g "
		    "as numpy", n, alpha, nns);
		CHECK_NEAR(hr.nns, nns, 1e-9 * fmax(1, fabs(nns)), what);
		CHECK_NEAR(hr.var_s, var_s, 1e-9 * fmax(1, fabs(var_s)),
		    "its corrected Var(S)");
		same_p = isnan(p) ? isnan(hr.p) : fabs(hr.p - p) <=
		    1e-9 * fmax(p, 1e-300) + 1e-15;
		snprintf(what, sizeof(what), "n = %lu, alpha %.2f: p = %.6g as "
		    "scipy", n, alpha, p);
		CHECK(same_p, what);
		cases++;
	}
	fclose(f);
	CHECK(cases >= 20, "hamed_rao.txt has its cases");
}

/* ---------------------------------------------------------------------
 * Trend verdicts
 */

/* type 7 p50 of 300 lognormal samples (sigma 0.3) with a 2 % wobble */
static double
day_p50(struct stats_rng *rng, double scale)
{
	double s[300];

	scale *= exp(0.02 * stats_rng_normal(rng));
	for (size_t i = 0; i < 300; i++)
		s[i] = scale * exp(0.3 * stats_rng_normal(rng));
	stats_sort(s, 300);
	return stats_quantile_type7(s, 300, 50);
}

static void
test_trend_known(void)
{
	double x[32], y[32];
	struct stats_trend t, t2;
	struct stats_rng rng;

	for (size_t i = 0; i < 32; i++)
		x[i] = (double)i;
	/* 3 monotone points: before the verdict rework, "drifting" */
	y[0] = 1;
	y[1] = 1.5;
	y[2] = 2;
	CHECK(stats_trend(x, y, 3, 5, 0.95, &t) == 0 &&
	    t.verdict == STATS_TREND_TOO_FEW && !t.drift && !t.step,
	    "3 monotone points: no verdict");
	CHECK_NEAR(t.slope, 0.5, 1e-15, "but the slope is still measured");
	y[3] = 2.5;
	CHECK(stats_trend(x, y, 4, 5, 0.95, &t) == 0 &&
	    t.verdict == STATS_TREND_TOO_FEW, "4 points: no verdict");

	/* +1 %/day over 14 days: drifting, not stepped (before: stepped) */
	stats_rng_seed(&rng, 1401);
	for (size_t i = 0; i < 14; i++)
		y[i] = day_p50(&rng, pow(1.01, (double)i));
	CHECK(stats_trend(x, y, 14, 5, 0.95, &t) == 0 &&
	    t.verdict == STATS_TREND_DRIFT && t.drift && !t.step &&
	    t.slope > 0, "+1 %/day over 14 days: drifting up");
	CHECK(t.change_pct > 5 && t.change_pct < 25,
	    "its change over the span is about 13 %");
	CHECK(stats_trend(x, y, 14, 30, 0.95, &t) == 0 &&
	    t.verdict == STATS_TREND_SMALL && !t.drift,
	    "under --threshold 30 %: significant but too small");
	stats_trend(x, y, 14, 5, 0.95, &t);
	stats_trend(x, y, 14, 5, 0.95, &t2);
	CHECK(t.step_p == t2.step_p && t.mk_p == t2.mk_p,
	    "the permutation p is a function of the data (fixed seed)");

	/* a 40 % step at day 10 of 20 */
	for (size_t i = 0; i < 20; i++)
		y[i] = day_p50(&rng, i < 10 ? 1.0 : 1.4);
	CHECK(stats_trend(x, y, 20, 5, 0.95, &t) == 0 && t.step &&
	    t.step_at == 10, "a 40 % step: stepped at its first point");
	CHECK(t.step_pct > 20, "its size, in % of the mean");
	CHECK(t.verdict == STATS_TREND_STEP && !t.drift,
	    "a pure step is a step, not also a drift (Mann-Kendall "
	    "passes a step; the trend beyond it does not)");
	CHECK(t.mk_p_iid <= STATS_TREND_ALPHA_DRIFT,
	    "(Mann-Kendall alone would have called it a drift)");
	CHECK_NEAR(t.step_pct, 100 * t.step_mean_diff / t.mean, 1e-9,
	    "a step alone is the mean after less the mean before");

	/* a step the step-beyond-the-line test misses (p 0.03) but
	 * Mann-Kendall finds: two means fit it far better than a line, so
	 * a step at its split (before: "drifting", +25 %) */
	{
		static const double ys[14] = { 10.3, 10.19, 9.52, 9.98,
		    10.12, 10.73, 10.27, 12.05, 11.66, 11.9, 12.21, 12.2,
		    11.96, 12.29 };

		CHECK(stats_trend(x, ys, 14, 5, 0.95, &t) == 0 &&
		    t.verdict == STATS_TREND_STEP && t.relabeled &&
		    t.step_at == 7 && !t.drift, "a step Mann-Kendall finds "
		    "is a step when two means fit better than a line");
		CHECK(t.step_p > STATS_TREND_ALPHA_STEP &&
		    t.mk_p <= STATS_TREND_ALPHA_DRIFT, "(found by "
		    "Mann-Kendall, not by the step beyond the line)");
		CHECK_NEAR(t.step_pct, 100 * t.step_mean_diff / t.mean, 1e-9,
		    "its size is the means' difference");
	}
	for (size_t i = 0; i < 14; i++)
		y[i] = 10 * pow(1.02, (double)i) * (1 + 0.01 * ((double)((i * 7) % 5) -
		    2.0) / 2);
	CHECK(stats_trend(x, y, 14, 5, 0.95, &t) == 0 &&
	    t.verdict == STATS_TREND_DRIFT && !t.relabeled,
	    "a steady +2 %/day rise stays a drift");

	/* a step and a drift beyond it */
	for (size_t i = 0; i < 20; i++)
		y[i] = day_p50(&rng, (i < 10 ? 1.0 : 1.4) *
		    pow(1.03, (double)i));
	CHECK(stats_trend(x, y, 20, 5, 0.95, &t) == 0 &&
	    t.verdict == STATS_TREND_DRIFT_STEP && t.step_at == 10 &&
	    t.resid_change_pct > 20, "a step and +3 %/day: both, the drift "
	    "measured beyond the step");

	/* correlated days: the null is fitted, Hamed-Rao is reported */
	CHECK(t.rho >= STATS_TREND_RHO_MIN && t.mk_sim &&
	    isfinite(t.mk_p_hr), "the null's rho is at least the floor");

	/* bad input */
	y[1] = NAN;
	CHECK(stats_trend(x, y, 5, 5, 0.95, &t) < 0, "a NaN is rejected");
	y[1] = 1;
	x[1] = 0;
	CHECK(stats_trend(x, y, 5, 5, 0.95, &t) < 0,
	    "x not increasing is rejected");
	x[1] = 1;
	CHECK(stats_trend(x, y, 5, -1, 0.95, &t) < 0,
	    "a negative threshold is rejected");
	for (size_t i = 0; i < 8; i++)
		y[i] = 3;
	CHECK(stats_trend(x, y, 8, 5, 0.95, &t) == 0 &&
	    t.verdict == STATS_TREND_STABLE, "a constant series: stable");
}

/* Seeded noise series: before the verdict rework about 30 % got "stepped". */
static void
test_trend_noise(void)
{
	static const size_t ns[] = { 5, 7, 14, 30 };
	struct stats_rng rng;
	double x[32], y[32];

	for (size_t i = 0; i < 32; i++)
		x[i] = (double)i;
	stats_rng_seed(&rng, 2650);
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		size_t called = 0, reps = 300;

		for (size_t r = 0; r < reps; r++) {
			struct stats_trend t;

			for (size_t i = 0; i < ns[k]; i++)
				y[i] = 1 + 0.03 * stats_rng_normal(&rng);
			stats_trend(x, y, ns[k], 0, 0.95, &t);
			called += t.drift || t.step;
		}
		/* 5 % plus three standard errors at 300 series */
		CHECK(called <= 26, "pure noise, --threshold 0: at most "
		    "about 5 % of series get a verdict");
	}
}

/* Correlated days with their sampling errors: 14 days
 * whose 5 % day effects follow AR(1) rho 0.5, each the p50 of 300
 * lognormal samples with its se; the null's rho spread keeps them near
 * 5 % (bench/verdicts: 4.8 % at 400 series), where Mann-Kendall for
 * independent points rejects in about 11 %.  And the verdict is still a
 * function of the data. */
static void
test_trend_correlated(void)
{
	struct stats_rng rng;
	double x[14], y[14], se[14], s[300];
	size_t called = 0, mk_iid = 0, bad = 0, reps = 300;
	struct stats_trend t, t2;

	for (size_t i = 0; i < 14; i++)
		x[i] = (double)i;
	stats_rng_seed(&rng, 2620);
	for (size_t r = 0; r < reps; r++) {
		double u = 0;

		for (size_t i = 0; i < 14; i++) {
			double z = stats_rng_normal(&rng), scale;

			u = i == 0 ? z : 0.5 * u + sqrt(0.75) * z;
			scale = exp(0.05 * u);
			for (size_t k = 0; k < 300; k++)
				s[k] = scale * exp(0.3 * stats_rng_normal(&rng));
			stats_sort(s, 300);
			y[i] = stats_quantile_type7(s, 300, 50);
			se[i] = stats_trend_point_se(s, 300, 50);
		}
		if (stats_trend_se(x, y, se, 14, 0, 0.95, &t) != 0)
			bad++;
		called += t.drift || t.step;
		mk_iid += t.mk_p_iid <= STATS_TREND_ALPHA_DRIFT;
	}
	CHECK(bad == 0, "every correlated series is judged");
	/* 5 % plus three standard errors at 300 series */
	CHECK(called <= 26, "AR(1) rho 0.5 days with their se, --threshold "
	    "0: at most about 5 % of series get a verdict");
	CHECK(mk_iid > called, "(Mann-Kendall for independent points "
	    "rejects more of them)");
	stats_trend_se(x, y, se, 14, 0, 0.95, &t);
	stats_trend_se(x, y, se, 14, 0, 0.95, &t2);
	CHECK(t.step_p == t2.step_p && t.mk_p == t2.mk_p &&
	    t.resid_p == t2.resid_p, "with the rho spread, the p is still a "
	    "function of the data (fixed seed)");
}

/* The null's rho mixture stays within the floor it assumes:
 * series 363 of test_trend_correlated's generator (14 AR(1)
 * rho 0.5 days of 5 % effects, p50s of 300 samples) is fitted at the
 * floor, rho 0.3; with the mixture's draws clipped at 0, as before,
 * Mann-Kendall's p was 0.0245 and the series was called drifting at
 * --threshold 0; with draws kept at 0.3 or above it is 0.0315 (bench:
 * 5.1 -> 4.6 % false p50 verdicts on such days at 2,000 repetitions). */
static void
test_trend_rho_floor(void)
{
	struct stats_rng rng;
	double x[14], y[14], se[14], s[300];
	struct stats_trend t;

	for (size_t i = 0; i < 14; i++)
		x[i] = (double)i;
	stats_rng_seed(&rng, 2620);
	for (size_t r = 0; r <= 363; r++) {
		double u = 0;

		for (size_t i = 0; i < 14; i++) {
			double z = stats_rng_normal(&rng), scale;

			u = i == 0 ? z : 0.5 * u + sqrt(0.75) * z;
			scale = exp(0.05 * u);
			for (size_t k = 0; k < 300; k++)
				s[k] = scale * exp(0.3 * stats_rng_normal(&rng));
			if (r < 363)
				continue;
			stats_sort(s, 300);
			y[i] = stats_quantile_type7(s, 300, 50);
			se[i] = stats_trend_point_se(s, 300, 50);
		}
	}
	CHECK(stats_trend_se(x, y, se, 14, 0, 0.95, &t) == 0 &&
	    t.rho == STATS_TREND_RHO_MIN && t.mk_p_iid < 0.025,
	    "correlated days fitted at the rho floor, Mann-Kendall for "
	    "independent points rejecting");
	CHECK(t.mk_p > 0.028 && t.mk_p < 0.035 && !t.drift && !t.step,
	    "the null's rho draws stay at or above the floor: Mann-Kendall "
	    "p 0.0315, no verdict (0.0245 and drifting with draws clipped "
	    "at 0)");
}

/* The same verdicts whether the normals are drawn or replayed from the
 * memo (a report's): two series with their se on days with gaps (each
 * gap its own autocorrelation), the second first tested between the
 * first and its replay. */
static bool
same_trend(const struct stats_trend *a, const struct stats_trend *b)
{
	return a->step_p == b->step_p && a->mk_p == b->mk_p &&
	    a->resid_p == b->resid_p && a->slope == b->slope &&
	    a->rho == b->rho && a->step_at == b->step_at &&
	    a->verdict == b->verdict && a->drift == b->drift &&
	    a->step == b->step;
}

static void
test_trend_noise_memo(void)
{
	static const double x[12] = { 0, 1, 2, 4, 5, 6, 9, 10, 11, 12, 15, 16 };
	double y[12], y2[12], se[12];
	struct stats_trend off, off2, on, on2, again;
	unsigned long drawn, replayed;

	for (size_t i = 0; i < 12; i++) {
		y[i] = 10 + 0.3 * sin((double)i) + (i >= 7 ? 1.5 : 0);
		y2[i] = 20 - 0.05 * x[i] + 0.4 * cos(3.0 * (double)i);
		se[i] = 0.2 + 0.01 * (double)i;
	}
	stats_trend_noise_memo_begin(false);
	CHECK(stats_trend_se(x, y, se, 12, 0, 0.95, &off) == 0 &&
	    stats_trend_se(x, y2, se, 12, 0, 0.95, &off2) == 0,
	    "two series with gaps judged without the memo");
	stats_trend_noise_memo_counts(&drawn, &replayed);
	CHECK(drawn > 0 && replayed == 0, "without the memo every normal is "
	    "drawn");
	stats_trend_noise_memo_begin(true);
	CHECK(stats_trend_se(x, y, se, 12, 0, 0.95, &on) == 0 &&
	    stats_trend_se(x, y2, se, 12, 0, 0.95, &on2) == 0 &&
	    stats_trend_se(x, y, se, 12, 0, 0.95, &again) == 0,
	    "... and with it");
	stats_trend_noise_memo_counts(&drawn, &replayed);
	stats_trend_noise_memo_end();
	CHECK(replayed >= 2 * drawn, "with the memo most normals are "
	    "replayed");
	CHECK(same_trend(&off, &on) && same_trend(&off, &again) &&
	    same_trend(&off2, &on2), "the same p values, slopes and "
	    "verdicts with the memo as without");
	CHECK(off.step_p != off2.step_p || off.mk_p != off2.mk_p,
	    "each series its own p values");
}

/* The same point se whether the weights are computed or reused from
 * the memo (a report's): values of three sizes, two sets of values of
 * one size, at the size itself and at a smaller common one. */
static void
test_point_se_memo(void)
{
	static const size_t sizes[3] = { 50, 300, 1440 };
	double s[1440], s2[1440], off[3][4], on[3][4];
	unsigned long computed, reused;
	bool same = true, differ = false;

	for (size_t i = 0; i < 1440; i++) {
		s[i] = 1 + 0.01 * (double)i + 0.5 * sin((double)i) * 0.001;
		s2[i] = 2 + 0.02 * (double)i * (double)i / 1440.0;
	}
	for (int memo = 0; memo < 2; memo++) {
		double (*r)[4] = memo ? on : off;

		stats_trend_mj_memo_begin(memo);
		for (int pass = 0; pass < 2; pass++)
			for (size_t z = 0; z < 3; z++) {
				r[z][0] = stats_trend_point_se(s, sizes[z], 99);
				r[z][1] = stats_trend_point_se(s2, sizes[z], 99);
				r[z][2] = stats_trend_point_se(s, sizes[z], 50);
				r[z][3] = stats_trend_point_se_at_n(s, sizes[z],
				    40, 99);
			}
		stats_trend_mj_memo_counts(&computed, &reused);
		stats_trend_mj_memo_end();
		if (!memo)
			CHECK(computed > 0 && reused == 0, "without the memo "
			    "every weight set is computed");
		else
			CHECK(reused > computed, "with it most are reused");
	}
	for (size_t z = 0; z < 3; z++)
		for (size_t c = 0; c < 4; c++)
			same &= memcmp(&off[z][c], &on[z][c], sizeof(double)) ==
			    0 && isfinite(on[z][c]);
	for (size_t z = 0; z < 3; z++)
		differ |= on[z][0] != on[z][1];
	CHECK(same, "the same se bit for bit with the memo as without");
	CHECK(differ, "values of the same size get their own se");
}

/* ---------------------------------------------------------------------
 * A percentile at a common sample size: the expected
 * type 7 percentile of m of the n values, against the brute-force mean
 * over every m-subset (the oracle)
 */

static double subset_sum;
static size_t subset_count;

static void
subsets(const double *v, size_t n, size_t m, size_t from, double *pick,
    size_t k, double pct)
{
	if (k == m) {
		/* a subset of sorted values, taken in order, is sorted */
		subset_sum += stats_quantile_type7(pick, m, pct);
		subset_count++;
		return;
	}
	for (size_t i = from; i + (m - k) <= n; i++) {
		pick[k] = v[i];
		subsets(v, n, m, i + 1, pick, k + 1, pct);
	}
}

/* The bootstrap variance of the k-th of m values drawn with replacement
 * from v[0..n), by enumerating all n^m draws (the oracle). */
static double
boot_var(const double *v, size_t n, size_t m, size_t k)
{
	size_t idx[8] = { 0 }, total = 1;
	double s1 = 0, s2 = 0, d[8];

	for (size_t i = 0; i < m; i++)
		total *= n;
	for (size_t t = 0; t < total; t++) {
		size_t c = t;

		for (size_t i = 0; i < m; i++) {
			idx[i] = c % n;
			c /= n;
			d[i] = v[idx[i]];
		}
		stats_sort(d, m);
		s1 += d[k - 1];
		s2 += d[k - 1] * d[k - 1];
	}
	s1 /= (double)total;
	return s2 / (double)total - s1 * s1;
}

/* Maritz-Jarrett's se of a point (stats_trend_point_se_at_n) against the
 * enumerated bootstrap: where type 7 lands on an order statistic, its
 * standard deviation; between two, type 7's weighted mean of theirs. */
static void
test_point_se_mj(void)
{
	double v[6] = { 1.0, 1.3, 1.4, 2.0, 2.9, 4.5 };
	bool good = true;

	for (size_t m = 3; m <= 6; m++)
		for (size_t k = 1; k <= m; k++) {
			double pct = 100.0 * (double)(k - 1) / (double)(m - 1);
			double want = sqrt(boot_var(v, m, m, k));
			double got;

			if (k == 1 || k == m)
				continue;	/* pct 0 and 100: no se */
			got = stats_trend_point_se(v, m, pct);
			if (!(fabs(got - want) <= 1e-9 * want))
				good = false;
		}
	CHECK(good, "Maritz-Jarrett's se is the bootstrap standard deviation "
	    "of the order statistic (every resample of the first n of 6 "
	    "values, n 3..6)");
	CHECK(fabs(stats_trend_point_se(v, 5, 60) -
	    (0.6 * sqrt(boot_var(v, 5, 5, 3)) + 0.4 *
	    sqrt(boot_var(v, 5, 5, 4)))) < 1e-9,
	    "between two order statistics, type 7's weights (p60 of 5)");
	CHECK(stats_trend_point_se(v, 6, 50) ==
	    stats_trend_point_se_at_n(v, 6, 6, 50) &&
	    isnan(stats_trend_point_se(v, 1, 50)) &&
	    isnan(stats_trend_point_se(v, 6, 100)),
	    "the point's own n; NaN for one value or pct 100");
}

static void
test_quantile_at_n(void)
{
	static const double pcts[] = { 50, 90, 99, 1 };
	double v[10], pick[10];
	struct stats_rng rng;
	bool good = true;
	double lo300 = 0, lo50 = 0, at50 = 0, at50_sq = 0, se50 = 0, sd;

	stats_rng_seed(&rng, 2663);
	for (size_t i = 0; i < 10; i++)
		v[i] = exp(0.3 * stats_rng_normal(&rng));
	stats_sort(v, 10);
	for (size_t m = 1; m <= 10; m++)
		for (size_t j = 0; j < 4; j++) {
			double got = stats_trend_quantile_at_n(v, 10, m,
			    pcts[j]);

			subset_sum = 0;
			subset_count = 0;
			subsets(v, 10, m, 0, pick, 0, pcts[j]);
			if (!(fabs(got - subset_sum / (double)subset_count) <=
			    1e-12 * fabs(got)))
				good = false;
		}
	CHECK(good, "the percentile at m of 10 values is the mean over "
	    "every m-subset of their type 7 percentile (m 1..10; p1, p50, "
	    "p90, p99)");
	CHECK(stats_trend_quantile_at_n(v, 10, 0, 99) ==
	    stats_quantile_type7(v, 10, 99) &&
	    stats_trend_quantile_at_n(v, 10, 10, 99) ==
	    stats_quantile_type7(v, 10, 99) &&
	    stats_trend_point_se_at_n(v, 10, 0, 99) ==
	    stats_trend_point_se(v, 10, 99),
	    "m 0 or m >= n: the plain type 7 percentile and its se");
	CHECK(isnan(stats_trend_quantile_at_n(v, 0, 5, 99)),
	    "no values: NaN");
	/* the bias it removes: over 400 draws, the p99 of 50 lognormal
	 * (sigma 0.3) values reads lower than the p99 of 300; the p99 of
	 * 300 at a common 50 reads as the p99 of 50 (within 1 %) */
	for (size_t r = 0; r < 400; r++) {
		static double s[300];

		for (size_t i = 0; i < 300; i++)
			s[i] = exp(0.3 * stats_rng_normal(&rng));
		stats_sort(s, 300);
		lo300 += stats_quantile_type7(s, 300, 99);
		at50 += stats_trend_quantile_at_n(s, 300, 50, 99);
		{
			double a = stats_trend_quantile_at_n(s, 300, 50, 99);

			at50_sq += a * a;
			se50 += stats_trend_point_se_at_n(s, 300, 50, 99);
		}
		for (size_t i = 0; i < 50; i++)
			s[i] = exp(0.3 * stats_rng_normal(&rng));
		stats_sort(s, 50);
		lo50 += stats_quantile_type7(s, 50, 99);
	}
	CHECK(lo50 < 0.97 * lo300, "a p99 of 50 reads at least 3 % below "
	    "a p99 of 300");
	CHECK(fabs(at50 / lo50 - 1) < 0.01, "a p99 of 300 at a common 50 "
	    "reads as a p99 of 50");
	sd = sqrt(at50_sq / 400 - (at50 / 400) * (at50 / 400));
	CHECK(se50 / 400 > 0.85 * sd && se50 / 400 < 1.15 * sd,
	    "its jackknife se reads its standard deviation over the 400 "
	    "draws within 15 %");
}

/* ---------------------------------------------------------------------
 * Outlier trials
 */

static void
test_outlier(void)
{
	const double slow[5] = { 1.00, 1.01, 3.0, 0.99, 1.02 };
	const double same[5] = { 1.00, 1.01, 1.02, 0.99, 0.985 };
	const double two[2] = { 1, 10 };
	const double tie[4] = { 1, 1, 1, 2 };
	const double tie_small[4] = { 1, 1, 1, 1.9 };
	const double wide[3] = { 1, 1.5, 3.2 };
	const double bad[3] = { 1, -1, 5 };
	bool flag[8];
	double ratio[8], z[8];
	struct stats_rng rng;
	size_t hits = 0, noise = 0;

	CHECK(stats_outlier_trials(slow, 5, flag, ratio, z) == 1 && flag[2],
	    "a 3x trial among four siblings is flagged");
	CHECK_NEAR(ratio[2], 3.0 / 1.01, 1e-12, "its ratio to the median");
	CHECK(stats_outlier_trials(same, 5, flag, NULL, NULL) == 0,
	    "1-2 % apart: nothing (before: robust z flagged such cells)");
	CHECK(stats_outlier_trials(two, 2, flag, ratio, NULL) == 0 &&
	    isnan(ratio[0]), "2 trials: nothing can be judged");
	CHECK(stats_outlier_trials(tie, 4, flag, NULL, z) == 1 && flag[3] &&
	    isinf(z[3]), "MAD 0: a 2x trial is flagged on its ratio");
	CHECK(stats_outlier_trials(tie_small, 4, flag, NULL, NULL) == 0,
	    "MAD 0: a 1.9x trial is under the floor");
	CHECK(stats_outlier_trials(wide, 3, flag, NULL, NULL) == 0,
	    "3 widely spread trials: the spread explains the 3.2x one");
	CHECK(stats_outlier_trials(bad, 3, flag, NULL, NULL) == 0,
	    "a value <= 0: nothing");
	CHECK(stats_outlier_zcrit(2) != stats_outlier_zcrit(2),
	    "no critical z below 3 trials");
	CHECK(stats_outlier_zcrit(100) == stats_outlier_zcrit(30),
	    "above 30 trials the 30-trial value");
	CHECK(stats_outlier_zcrit(5) > 3.5 && stats_outlier_zcrit(30) > 3.5,
	    "the calibrated z is above the 3.5 that flagged noise");

	/* seeded: 300 cells of 5 trials with a 30 % trial effect, and 300
	 * with a 3x trial among identical siblings */
	stats_rng_seed(&rng, 5600);
	for (size_t r = 0; r < 300; r++) {
		double v[5];

		for (size_t i = 0; i < 5; i++)
			v[i] = exp(0.3 * stats_rng_normal(&rng));
		noise += stats_outlier_trials(v, 5, flag, NULL, NULL) > 0;
		for (size_t i = 0; i < 5; i++)
			v[i] = (i ? 1 : 3) * exp(0.022 * stats_rng_normal(&rng));
		stats_outlier_trials(v, 5, flag, NULL, NULL);
		hits += flag[0];
	}
	CHECK(noise <= 26, "trial effect sigma 0.3, 5 trials: at most about "
	    "5 % of cells flagged");
	CHECK(hits >= 285, "a 3x trial among 4 siblings: flagged in 95 % "
	    "or more");
}

/* The campaign's rule at 3 trials: the nearest-trial scale, a 2x trial
 * and a TIME_WAIT-like tail among trials 1-2 % apart. */
static void
test_outlier_pooled(void)
{
	/* 5 cells of 3 trials; cell 4's trial 1 is 1.95x its siblings */
	const double x[] = {
		1.00, 1.01, 1.03,	1.00, 0.99, 1.02,	2.0, 2.02, 1.98,
		5.0, 5.1, 4.95,		1.00, 1.95, 1.01,
	};
	bool f[3];
	double r[3], sc, k;
	size_t used;

	sc = stats_outlier_pool_scale(x, 3, 5, &used);
	CHECK_EQ_INT(used, 5, "pooled scale from 5 cells");
	/* nearest-trial distances: log 1.01, log(1.00/0.99), log(2.02/2.0)
	 * (= log 1.01), log(5.0/4.95), log(1.01): median log 1.01 */
	CHECK_NEAR(sc, log(1.01), 1e-12, "scale: the median nearest distance");
	k = stats_outlier_pool_k(3, 5);
	CHECK(k > 14.58 && k < 20.35, "K for 5 cells between 4 and 8 cells'");
	CHECK_EQ_INT(stats_outlier_pooled(x + 12, 3, sc, used, f, r), 1,
	    "a 1.95x trial among trials 1 % apart is flagged");
	CHECK(f[1] && !f[0] && !f[2], "... the 1.95x one");
	CHECK_NEAR(r[1], 1.95 / 1.01, 1e-12, "ratio to the median trial");
	CHECK_EQ_INT(stats_outlier_pooled(x, 3, sc, used, f, NULL), 0,
	    "a 3 % spread is not");
	CHECK(isnan(stats_outlier_pool_scale(x, 3, 3, &used)) && used == 0,
	    "fewer than 4 cells: no pooled scale");
	CHECK(isnan(stats_outlier_pool_k(6, 30)), "6 trials: not this rule");
	CHECK_EQ_INT(stats_outlier_pooled(x, 3, NAN, 0, f, r), 0,
	    "no scale: nothing flagged");
}

/* From 8 trials each side has its own scale: a right-skewed set of
 * trials (the upper ones spread more) is not flagged on its upper
 * side, a low trial beyond the tight lower side is. */
static void
test_outlier_semi(void)
{
	const double up[] = { 1.0, 1.01, 0.99, 1.02, 0.98, 1.0, 1.005, 1.3,
	    1.6, 2.1, 1.45, 2.4 };
	double lo[12];
	bool f[12];

	CHECK(stats_outlier_zcrit_semi(7) != stats_outlier_zcrit_semi(7),
	    "below 8 trials: no side-scale z");
	CHECK_NEAR(stats_outlier_zcrit_semi(20), 4.59, 1e-12,
	    "side-scale z for 20 trials");
	CHECK_EQ_INT(stats_outlier_trials(up, 12, f, NULL, NULL), 0,
	    "a long upper side is its own scale: no flag");
	memcpy(lo, up, sizeof(lo));
	lo[0] = 0.4;
	CHECK_EQ_INT(stats_outlier_trials(lo, 12, f, NULL, NULL), 1,
	    "a trial 2.5x below a tight lower side is flagged");
	CHECK(f[0], "... the low one");
}

int
main(void)
{
	test_mk_exact();
	test_hamed_rao();
	test_trend_known();
	test_trend_noise();
	test_trend_correlated();
	test_trend_rho_floor();
	test_trend_noise_memo();
	test_point_se_memo();
	test_quantile_at_n();
	test_point_se_mj();
	test_outlier();
	test_outlier_pooled();
	test_outlier_semi();
	return test_done();
}
