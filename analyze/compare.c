/*
 * compare.c - the verbs that set values of one dimension side by side:
 * compare (a baseline against each other value, with bootstrap
 * intervals, a rank test on trial-level values, Holm correction and a
 * practical threshold), trend (a statistic over days or hours, its
 * Theil-Sen slope and change points) and variance (where a cell's spread
 * comes from, and how many trials a target precision needs).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/internal.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* The stats to use: --stats, else p50 and p99. */
static void
default_stats(const struct analyze_opts *o, struct analyze_opts *o2)
{

	*o2 = *o;
	if (o->stats_given)
		return;
	memset(o2->stats, 0, sizeof(o2->stats));
	o2->stats[0].kind = STATS_NAME_PCT;
	o2->stats[0].pct = 50.0;
	o2->stats[1].kind = STATS_NAME_PCT;
	o2->stats[1].pct = 99.0;
	o2->stat_names[0] = name_p50;
	o2->stat_names[1] = name_p99;
	o2->nstats = 2;
}

/* Load cells split by one extra dimension key (appended to --by). */
static int
load_by(sqlite3 *db, const struct analyze_opts *o, const char *key,
    struct cellset *cs)
{
	struct cells_query q;
	char **by = xcalloc(o->nby + 1, sizeof(char *));
	char *key_copy = xstrdup(key);
	size_t i, n = 0;
	int ret;

	for (i = 0; i < o->nby; i++)
		if (strcmp(o->by[i], key))
			by[n++] = o->by[i];
	by[n++] = key_copy;
	memset(&q, 0, sizeof(q));
	q.metric = o->metric;
	q.where = &o->where;
	q.by = by;
	q.nby = n;
	q.paths = o->paths;
	q.npaths = o->npaths;
	q.load_values = true;
	ret = cells_load(db, &q, cs);
	free(by);
	free(key_copy);
	return ret;
}

/* Per-trial values of statistic s for cell c (raw trials, else the tool's
 * own numbers).  Returns the count; *out is malloc()ed, caller frees. */
static size_t
trial_values(const struct analyze_opts *o, const struct cell *c,
    const struct stats_name *s, const char *typed, double **out)
{
	double *v = xcalloc(c->ntrials + 1, sizeof(double));
	size_t i, n = 0;

	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];
		double x = NAN;

		if (t->n) {
			switch (s->kind) {
			case STATS_NAME_PCT:
				x = stats_quantile(o->est, t->values, t->n, s->pct);
				break;
			case STATS_NAME_MIN:
				x = t->values[0];
				break;
			case STATS_NAME_MAX:
				x = t->values[t->n - 1];
				break;
			case STATS_NAME_MEAN:
				x = stats_mean(t->values, t->n);
				break;
			case STATS_NAME_N:
				x = (double)t->n;
				break;
			}
		} else if (t->summary_only) {
			x = trial_tool_stat(t, typed);
		}
		if (isfinite(x))
			v[n++] = x;
	}
	*out = v;
	return n;
}

/* Same keys except the last dimension? */
static bool
same_group(const struct cellset *cs, const struct cell *a, const struct cell *b)
{
	size_t d;

	if (strcmp(a->path, b->path) || strcmp(a->cond, b->cond))
		return false;
	for (d = 0; d + 1 < cs->ndims; d++)
		if (strcmp(a->dims[d], b->dims[d]))
			return false;
	return true;
}

static void
add_group_columns(struct table *t, const struct cellset *cs)
{
	size_t d;

	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d + 1 < cs->ndims; d++)
		table_add_col(t, cs->dimkeys[d], cs->dimkeys[d], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	table_add_hidden_col(t, "pool", "Pool", -1);
}

static size_t
fill_group_columns(struct table *t, size_t row, const struct cellset *cs,
    const struct cell *c, const struct analyze_opts *o)
{
	size_t d, col = 0;

	table_set_str(t, row, col++, c->path);
	table_set_str(t, row, col++, c->cond);
	for (d = 0; d + 1 < cs->ndims; d++)
		table_set_str(t, row, col++, c->dims[d]);
	table_set_str(t, row, col++, cs->metric_name);
	table_set_str(t, row, col++, stats_estimator_name(o->est));
	table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	return col;
}

static void
boot_contrast(const struct analyze_opts *o, const struct stats_name *s,
    const struct cell *a, const struct cell *b, enum stats_contrast k,
    struct stats_boot_result *br)
{
	const double **pa = xcalloc(a->ntrials + 1, sizeof(double *));
	const double **pb = xcalloc(b->ntrials + 1, sizeof(double *));
	size_t *na = xcalloc(a->ntrials + 1, sizeof(size_t));
	size_t *nb = xcalloc(b->ntrials + 1, sizeof(size_t));
	struct stats_trials ta, tb;
	struct stats_boot_opts bo = STATS_BOOT_OPTS_INIT;

	br->estimate = br->lo = br->hi = NAN;
	if (cell_view(a, pa, na, &ta) && cell_view(b, pb, nb, &tb) &&
	    (s->kind == STATS_NAME_PCT || s->kind == STATS_NAME_MEAN)) {
		bo.est = s->kind == STATS_NAME_MEAN ? STATS_EST_MEAN : o->est;
		bo.pct = s->kind == STATS_NAME_PCT ? s->pct : 50.0;
		bo.pool = o->pool;
		bo.contrast = k;
		bo.B = o->B;
		bo.level = o->level;
		bo.seed = o->seed;
		if (stats_bootstrap(&ta, &tb, &bo, br))
			br->lo = br->hi = NAN;
	}
	free(pa);
	free(pb);
	free(na);
	free(nb);
}

struct cmp_row {
	size_t	row;		/* table row */
	size_t	nb, nc;		/* trials: baseline, value */
	double	p;		/* raw p, NaN if no test */
	double	ratio, rlo, rhi;	/* value / baseline and interval */
	bool	better_up;	/* higher is better for this metric */
};

int
analyze_compare(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	struct cmp_row *rows = NULL;
	double *praw = NULL;
	size_t nrows = 0, alloc = 0, i, j, g, col0;
	const char *key, *unit;
	double scale;
	int dec = 3;

	if (nargs > 0) {
		error("compare takes no arguments (got '%s')", args[0]);
		return -2;
	}
	if (o->nby == 0) {
		error("compare needs --by KEY (instance_type, day, region, az or a "
		    "tag)");
		return -2;
	}
	key = o->by[o->nby - 1];
	default_stats(o, &o2);
	if (load_by(db, o, key, &cs))
		return -1;
	scale = md_scale(&cs, &unit);
	dec = cs.info->display_decimals;
	add_group_columns(t, &cs);
	col0 = table_add_col(t, "by", "by", -1);
	t->cols[col0].md_hidden = true;
	table_add_col(t, "baseline", "Baseline", -1);
	table_add_col(t, "value", key, -1);
	table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "baseline_stat", "Baseline value", dec);
	table_add_col(t, "value_stat", "Value", dec);
	table_add_col(t, "diff", "Difference", dec);
	table_add_hidden_col(t, "diff_lo", "diff_lo", dec);
	table_add_hidden_col(t, "diff_hi", "diff_hi", dec);
	table_add_col(t, "ratio", "Ratio [95 % CI]", 3);
	table_add_hidden_col(t, "ratio_lo", "ratio_lo", 3);
	table_add_hidden_col(t, "ratio_hi", "ratio_hi", 3);
	table_add_hidden_col(t, "test", "test", -1);
	table_add_col(t, "p", "p", 3);
	table_add_col(t, "p_holm", "p (Holm)", 3);
	table_add_col(t, "verdict", "Verdict", -1);
	table_add_col(t, "trials_baseline", "trials (base)", -1);
	table_add_col(t, "trials_value", "trials", -1);

	for (i = 0; i < cs.n; i = g) {
		const struct cell *base = NULL;
		const char *bname;

		for (g = i; g < cs.n && same_group(&cs, &cs.cells[i], &cs.cells[g]); g++)
			;
		/* baseline: --baseline, else the first value in order */
		for (j = i; j < g; j++) {
			const char *v = cs.cells[j].dims[cs.ndims - 1];

			if (o->baseline ? !strcmp(v, o->baseline) : !base)
				base = &cs.cells[j];
		}
		if (!base)
			continue;
		bname = base->dims[cs.ndims - 1];
		for (j = i; j < g; j++) {
			struct cell *c = &cs.cells[j];
			size_t s;

			if (c == base)
				continue;
			for (s = 0; s < o2.nstats; s++) {
				const struct stats_name *st = &o2.stats[s];
				struct cell_stat vb, vc;
				struct cell_info info;
				struct stats_boot_result bd, bro;
				struct stats_test test;
				double *xb, *xc;
				size_t nb, nc, row, col;
				bool have_test = false;
				struct cmp_row *cr;

				if (st->kind == STATS_NAME_N)
					continue;
				cell_compute(&o2, &cs, (struct cell *)base, st, false,
				    &vb, &info);
				cell_compute(&o2, &cs, c, st, false, &vc, &info);
				nb = trial_values(&o2, base, st, o2.stat_names[s], &xb);
				nc = trial_values(&o2, c, st, o2.stat_names[s], &xc);
				boot_contrast(&o2, st, c, base, STATS_DELTA, &bd);
				boot_contrast(&o2, st, c, base, STATS_RATIO, &bro);
				/* Exact Mann-Whitney for few trials (Brunner-Munzel's
				 * t approximation is too liberal below ~10 per side). */
				if (nb >= 2 && nc >= 2) {
					if (nb < 10 || nc < 10)
						have_test = stats_mann_whitney(xc, nc, xb,
						    nb, STATS_MW_AUTO, &test) == 0;
					else
						have_test = stats_brunner_munzel(xc, nc,
						    xb, nb, &test) == 0;
					/* BM has no p when the samples do not
					 * overlap at all: Mann-Whitney's then */
					if (have_test && isnan(test.p))
						have_test = stats_mann_whitney(xc, nc,
						    xb, nb, STATS_MW_AUTO, &test) == 0;
				}
				row = table_add_row(t);
				col = fill_group_columns(t, row, &cs, c, &o2);
				table_set_str(t, row, col++, key);
				table_set_str(t, row, col++, bname);
				table_set_str(t, row, col++, c->dims[cs.ndims - 1]);
				table_set_str(t, row, col++, o2.stat_names[s]);
				table_set_num(t, row, col++, vb.value);
				table_set_num(t, row, col++, vc.value);
				table_set_num(t, row, col, vc.value - vb.value);
				if (scale != 1.0) {
					struct strbuf sb = STRBUF_INIT;

					md_number(&sb, vb.value * scale, dec);
					table_set_display_raw(t, row, col - 2, sb.buf);
					strbuf_reset(&sb);
					md_number(&sb, vc.value * scale, dec);
					table_set_display_raw(t, row, col - 1, sb.buf);
					strbuf_reset(&sb);
					md_number(&sb, (vc.value - vb.value) * scale, dec);
					table_set_display_raw(t, row, col, sb.buf);
					strbuf_release(&sb);
				}
				col++;
				table_set_num(t, row, col++, bd.lo);
				table_set_num(t, row, col++, bd.hi);
				table_set_num(t, row, col, stats_ratio(vc.value, vb.value));
				{
					struct strbuf sb = STRBUF_INIT;

					format_ci(&sb, stats_ratio(vc.value, vb.value),
					    bro.lo, bro.hi, 3);
					table_set_display_raw(t, row, col, sb.buf);
					strbuf_release(&sb);
				}
				col++;
				table_set_num(t, row, col++, bro.lo);
				table_set_num(t, row, col++, bro.hi);
				table_set_str(t, row, col++, !have_test ? "none" :
				    (nb < 10 || nc < 10) ? "mann-whitney" :
				    "brunner-munzel");
				table_set_num(t, row, col++, have_test ? test.p : NAN);
				table_set_int(t, row, col + 2, (int64_t)nb);
				table_set_int(t, row, col + 3, (int64_t)nc);
				ALLOC_GROW(rows, nrows + 1, alloc);
				cr = &rows[nrows++];
				cr->row = row;
				cr->nb = nb;
				cr->nc = nc;
				cr->p = have_test ? test.p : NAN;
				cr->ratio = stats_ratio(vc.value, vb.value);
				cr->rlo = bro.lo;
				cr->rhi = bro.hi;
				cr->better_up = cs.info->higher_better;
				free(xb);
				free(xc);
			}
		}
	}
	/* Holm across the rows of this table, then the verdicts. */
	praw = xcalloc(nrows + 1, sizeof(double));
	for (i = 0; i < nrows; i++)
		praw[i] = rows[i].p;
	stats_holm(praw, nrows);
	for (i = 0; i < nrows; i++) {
		struct cmp_row *r = &rows[i];
		double thr = o->threshold_pct / 100.0, alpha = 1.0 - o->level;
		bool sig = isfinite(praw[i]) && praw[i] < alpha;
		bool up = isfinite(r->rlo) && r->rlo > 1.0 + thr;
		bool down = isfinite(r->rhi) && r->rhi < 1.0 - thr;
		bool inside = isfinite(r->rlo) && isfinite(r->rhi) &&
		    r->rlo >= 1.0 - thr && r->rhi <= 1.0 + thr;
		struct strbuf v = STRBUF_INIT;
		long col_p = table_col(t, "p_holm"), col_v = table_col(t, "verdict");

		table_set_num(t, r->row, (size_t)col_p, praw[i]);
		/* The smallest two-sided p exact Mann-Whitney can give with
		 * these trial counts: 2 / C(nb + nc, nb). */
		double minp = 2.0, comb = 1.0;
		size_t m;

		for (m = 1; m <= r->nb; m++)
			comb = comb * (double)(r->nc + m) / (double)m;
		minp /= comb;
		if (r->nb < 2 || r->nc < 2)
			strbuf_addf(&v, "inconclusive: %zu vs %zu trials (need 2 a "
			    "side to see trial-to-trial spread)", r->nb, r->nc);
		else if (sig && (up || down))
			strbuf_addf(&v, "%s: %+.1f %%", (up == r->better_up) ?
			    "better" : "worse", 100.0 * (r->ratio - 1.0));
		else if (inside)
			strbuf_addf(&v, "same: within ±%.0f %%", o->threshold_pct);
		else if (sig && fabs(r->ratio - 1.0) < thr)
			strbuf_addf(&v, "same: %+.1f %% is below the %.0f %% threshold",
			    100.0 * (r->ratio - 1.0), o->threshold_pct);
		else if (r->nb < 10 && r->nc < 10 && minp >= alpha)
			strbuf_addf(&v, "inconclusive: %zu vs %zu trials can never "
			    "reach p < %.2f (%+.1f %%)", r->nb, r->nc, alpha,
			    100.0 * (r->ratio - 1.0));
		else
			strbuf_addf(&v, "inconclusive (%+.1f %%)",
			    100.0 * (r->ratio - 1.0));
		table_set_str(t, r->row, (size_t)col_v, v.buf);
		strbuf_release(&v);
	}
	{
		struct strbuf m = STRBUF_INIT;

		describe_method(&o2, &m);
		table_add_note(t, "%s by %s against the baseline (%s); %s.",
		    cs.metric_name, key, o->baseline ? o->baseline :
		    "first value in order", m.buf);
		table_add_note(t, "Ratio = value / baseline with a %.0f %% bootstrap "
		    "interval (trials as the unit, B = %zu, seed %llu).  Test on "
		    "trial-level values: exact Mann–Whitney U below 10 trials a side, "
		    "else Brunner–Munzel; p adjusted with Holm across the rows.",
		    o->level * 100, o->B, (unsigned long long)o->seed);
		table_add_note(t, "Verdict: better/worse when the adjusted p < %.2f "
		    "and the whole interval lies beyond ±%.0f %%; same when the "
		    "interval lies within ±%.0f %% (or the change is significant "
		    "but smaller); else inconclusive (too few trials or too much "
		    "spread to tell).", 1.0 - o->level, o->threshold_pct,
		    o->threshold_pct);
		strbuf_release(&m);
	}
	free(rows);
	free(praw);
	cellset_release(&cs);
	return 0;
}

/* "2026-08-28" -> days since 1970-01-01; "07" (hour) -> 7; else NaN. */
static double
dim_to_x(const char *key, const char *v)
{
	struct tm tm;
	char *end;

	if (!strcmp(key, "day")) {
		long y, m, d;

		/* YYYY-MM-DD, checked field by field */
		if (strlen(v) != 10 || v[4] != '-' || v[7] != '-')
			return NAN;
		y = strtol(v, &end, 10);
		if (end != v + 4)
			return NAN;
		m = strtol(v + 5, &end, 10);
		if (end != v + 7 || m < 1 || m > 12)
			return NAN;
		d = strtol(v + 8, &end, 10);
		if (end != v + 10 || d < 1 || d > 31)
			return NAN;
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = (int)y - 1900;
		tm.tm_mon = (int)m - 1;
		tm.tm_mday = (int)d;
		return (double)(timegm(&tm) / 86400);
	}
	{
		double x = strtod(v, &end);

		return end != v && !*end ? x : NAN;
	}
}

int
analyze_trend(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	const char *key, *unit;
	size_t i, g, s, col0;
	double scale;
	int dec = 3;

	if (nargs > 0) {
		error("trend takes no arguments (got '%s')", args[0]);
		return -2;
	}
	key = o->nby ? o->by[o->nby - 1] : "day";
	default_stats(o, &o2);
	if (load_by(db, o, key, &cs))
		return -1;
	scale = md_scale(&cs, &unit);
	dec = cs.info->display_decimals;
	add_group_columns(t, &cs);
	col0 = table_add_col(t, "by", "by", -1);
	t->cols[col0].md_hidden = true;
	table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "points", "Points", -1);
	table_add_col(t, "series", "Series", -1);
	table_add_col(t, "slope", "Theil–Sen slope per unit", 4);
	table_add_col(t, "slope_lo", "slope_lo", 4);
	table_add_col(t, "slope_hi", "slope_hi", 4);
	t->cols[col0 + 5].md_hidden = t->cols[col0 + 6].md_hidden = true;
	table_add_col(t, "slope_pct", "Slope % of mean", 2);
	table_add_col(t, "change_points", "Change points", -1);
	table_add_col(t, "verdict", "Verdict", -1);

	for (i = 0; i < cs.n; i = g) {
		for (g = i; g < cs.n && same_group(&cs, &cs.cells[i], &cs.cells[g]); g++)
			;
		for (s = 0; s < o2.nstats; s++) {
			size_t npt = g - i, k, m = 0, row, col;
			double *x = xcalloc(npt, sizeof(double));
			double *y = xcalloc(npt, sizeof(double));
			const char **lab = xcalloc(npt, sizeof(char *));
			struct strbuf ser = STRBUF_INIT, cps = STRBUF_INIT;
			struct strbuf verdict = STRBUF_INIT;
			struct stats_theil_sen ts;
			size_t *cp = NULL;
			long ncp = 0;
			bool have_ts = false;
			double mean = 0;

			if (o2.stats[s].kind == STATS_NAME_N) {
				free(x);
				free(y);
				free(lab);
				continue;
			}
			for (k = i; k < g; k++) {
				struct cell_stat v;
				struct cell_info info;
				double xv = dim_to_x(key, cs.cells[k].dims[cs.ndims - 1]);

				cell_compute(&o2, &cs, &cs.cells[k], &o2.stats[s], false,
				    &v, &info);
				if (!isfinite(v.value) || !isfinite(xv))
					continue;
				x[m] = xv;
				y[m] = v.value;
				lab[m] = cs.cells[k].dims[cs.ndims - 1];
				mean += v.value;
				m++;
			}
			if (m)
				mean /= (double)m;
			for (k = 0; k < m; k++) {
				if (k)
					strbuf_addstr(&ser, "; ");
				strbuf_addf(&ser, "%s: ", lab[k]);
				md_number(&ser, y[k] * scale, dec);
			}
			if (m >= 3)
				have_ts = stats_theil_sen(x, y, m, o->level, &ts) == 0;
			if (m >= 4)
				ncp = stats_changepoints(y, m, 0, 2, &cp);
			for (k = 0; ncp > 0 && k < (size_t)ncp; k++) {
				if (k)
					strbuf_addstr(&cps, ", ");
				strbuf_addstr(&cps, lab[cp[k]]);
			}
			if (m < 3)
				strbuf_addstr(&verdict, "too few points (need 3)");
			else if (ncp > 0)
				strbuf_addf(&verdict, "stepped at %s", cps.buf);
			else if (have_ts && (ts.lo > 0 || ts.hi < 0))
				strbuf_addf(&verdict, "drifting %s",
				    ts.slope > 0 ? "up" : "down");
			else
				strbuf_addstr(&verdict, "stable");
			row = table_add_row(t);
			col = fill_group_columns(t, row, &cs, &cs.cells[i], &o2);
			table_set_str(t, row, col++, key);
			table_set_str(t, row, col++, o2.stat_names[s]);
			table_set_int(t, row, col++, (int64_t)m);
			table_set_str(t, row, col++, ser.buf);
			if (have_ts) {
				table_set_num(t, row, col, ts.slope);
				table_set_num(t, row, col + 1, ts.lo);
				table_set_num(t, row, col + 2, ts.hi);
				table_set_num(t, row, col + 3, mean != 0 ?
				    100.0 * ts.slope / mean : NAN);
				{
					struct strbuf sb = STRBUF_INIT;

					format_ci(&sb, ts.slope * scale, ts.lo * scale,
					    ts.hi * scale, 4);
					table_set_display_raw(t, row, col, sb.buf);
					strbuf_release(&sb);
				}
			}
			col += 4;
			table_set_str(t, row, col++, cps.buf);
			table_set_str(t, row, col++, verdict.buf);
			free(cp);
			free(x);
			free(y);
			free(lab);
			strbuf_release(&ser);
			strbuf_release(&cps);
			strbuf_release(&verdict);
		}
	}
	{
		struct strbuf m = STRBUF_INIT;

		describe_method(&o2, &m);
		table_add_note(t, "%s over %s; %s.  Slope: Theil–Sen (median of "
		    "pairwise slopes) per %s with Sen's %.0f %% interval; change "
		    "points: PELT on the series (normal mean-change cost, penalty "
		    "2 log n, segments of 2 or more points).", cs.metric_name, key,
		    m.buf, !strcmp(key, "day") ? "day" : key, o->level * 100);
		strbuf_release(&m);
	}
	cellset_release(&cs);
	return 0;
}

/* Sample variance of x[0..n) (n - 1 in the denominator); NaN if n < 2. */
static double
var_of(const double *x, size_t n)
{
	double m = 0, s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s / (double)(n - 1);
}

/*
 * Pooled within-group variance of values grouped by label: sum over
 * groups of (n_g - 1) var_g / sum (n_g - 1).  Group means go to gm.
 */
static double
pooled_within(const double *v, char *const *lab, size_t n, double *gm,
    size_t *ngroups)
{
	size_t i, j, dfs = 0;
	double ss = 0;
	bool *done = xcalloc(n + 1, sizeof(bool));

	*ngroups = 0;
	for (i = 0; i < n; i++) {
		double m = 0;
		size_t k = 0;

		if (done[i])
			continue;
		for (j = i; j < n; j++)
			if (!done[j] && !strcmp(lab[j], lab[i])) {
				m += v[j];
				k++;
			}
		m /= (double)k;
		for (j = i; j < n; j++)
			if (!done[j] && !strcmp(lab[j], lab[i])) {
				ss += (v[j] - m) * (v[j] - m);
				done[j] = true;
			}
		dfs += k - 1;
		gm[(*ngroups)++] = m;
	}
	free(done);
	return dfs ? ss / (double)dfs : NAN;
}

#define VARIANCE_BOOT_B	200	/* replicates for one trial's sampling error */

/* Bootstrap standard error of statistic st of one trial. */
static double
trial_boot_se(const struct analyze_opts *o, const struct stats_name *st,
    const struct trial *tr, struct stats_rng *rng)
{
	double *buf, *reps, sd;
	size_t b, i;

	if (tr->n < 2)
		return NAN;
	buf = xmalloc(tr->n * sizeof(double));
	reps = xmalloc(VARIANCE_BOOT_B * sizeof(double));
	for (b = 0; b < VARIANCE_BOOT_B; b++) {
		for (i = 0; i < tr->n; i++)
			buf[i] = tr->values[stats_rng_below(rng, tr->n)];
		reps[b] = st->kind == STATS_NAME_MEAN ? stats_mean(buf, tr->n) :
		    stats_quantile_unsorted(o->est, buf, tr->n, st->pct);
	}
	sd = sqrt(var_of(reps, VARIANCE_BOOT_B));
	free(buf);
	free(reps);
	return sd;
}

int
analyze_variance(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	struct cells_query q;
	static char dim_day[] = "day", dim_instance[] = "instance";
	char *by[2] = { dim_day, dim_instance };
	struct stats_rng rng;
	size_t i, g, s, col0;
	int ret = 0;

	if (nargs > 0) {
		error("variance takes no arguments (got '%s')", args[0]);
		return -2;
	}
	default_stats(o, &o2);
	stats_rng_seed(&rng, o->seed);
	/* Trials keep their day and instance (instance_id, else hostname)
	 * as the last two dimensions; cells are grouped on the rest. */
	memset(&q, 0, sizeof(q));
	q.metric = o->metric;
	q.where = &o->where;
	q.by = by;
	q.nby = 2;
	q.paths = o->paths;
	q.npaths = o->npaths;
	q.load_values = true;
	if (cells_load(db, &q, &cs))
		return -1;
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	col0 = table_add_col(t, "stat", "Stat", -1);
	table_add_col(t, "trials", "Trials", -1);
	table_add_col(t, "days", "Days", -1);
	table_add_col(t, "instances", "Instances", -1);
	table_add_col(t, "mean", "Mean", 3);
	table_add_col(t, "cv_within_trial_pct", "Within trial %", 2);
	table_add_col(t, "cv_between_trials_pct", "Between trials %", 2);
	table_add_col(t, "cv_between_days_pct", "Between days %", 2);
	table_add_col(t, "cv_between_instances_pct", "Between instances %", 2);
	table_add_col(t, "halfwidth_now_pct", "±% now", 2);
	table_add_col(t, "trials_needed", "Trials for target", -1);
	t->cols[col0 + 4].md_hidden = true;

	for (i = 0; i < cs.n; i = g) {
		for (g = i; g < cs.n && !strcmp(cs.cells[g].path, cs.cells[i].path) &&
		    !strcmp(cs.cells[g].cond, cs.cells[i].cond); g++)
			;
		for (s = 0; s < o2.nstats; s++) {
			const struct stats_name *st = &o2.stats[s];
			size_t cap = 0, n = 0, k, j, ndays = 0, ninst = 0, row;
			double *v = NULL, *se2 = NULL, *gm = NULL, mean = 0;
			char **day = NULL, **inst = NULL, **dayinst = NULL;
			double wvar = 0, btv, bdv = NAN, biv = NAN, now = NAN;
			size_t needed;

			if (st->kind != STATS_NAME_PCT && st->kind != STATS_NAME_MEAN)
				continue;
			for (k = i; k < g; k++)
				cap += cs.cells[k].ntrials;
			v = xcalloc(cap + 1, sizeof(double));
			se2 = xcalloc(cap + 1, sizeof(double));
			gm = xcalloc(cap + 1, sizeof(double));
			day = xcalloc(cap + 1, sizeof(char *));
			inst = xcalloc(cap + 1, sizeof(char *));
			dayinst = xcalloc(cap + 1, sizeof(char *));
			for (k = i; k < g; k++) {
				struct cell *c = &cs.cells[k];

				for (j = 0; j < c->ntrials; j++) {
					struct trial *tr = &c->trials[j];
					double x, se;

					if (!tr->n)
						continue;
					x = st->kind == STATS_NAME_MEAN ?
					    stats_mean(tr->values, tr->n) :
					    stats_quantile(o->est, tr->values, tr->n,
					    st->pct);
					/* sampling error of the trial's own statistic:
					 * the spread of a small bootstrap within the
					 * trial (order-statistic interval widths are
					 * dominated by the max in the tail) */
					se = trial_boot_se(o, st, tr, &rng);
					v[n] = x;
					se2[n] = se * se;
					day[n] = c->dims[0];
					inst[n] = c->dims[1];
					dayinst[n] = xasprintf("%s|%s", c->dims[0],
					    c->dims[1]);
					mean += x;
					n++;
				}
			}
			if (n == 0)
				goto next;
			mean /= (double)n;
			for (k = 0; k < n; k++)
				wvar += isfinite(se2[k]) ? se2[k] : 0;
			wvar /= (double)n;
			/* Method of moments, level by level: what a level adds
			 * beyond the noise of the level below it. */
			{
				size_t ng;
				double btw = pooled_within(v, dayinst, n, gm, &ng);

				btv = isfinite(btw) ? fmax(0, btw - wvar) : NAN;
				/* day means within an instance */
				{
					double *dm = xcalloc(n + 1, sizeof(double));
					char **dl = xcalloc(n + 1, sizeof(char *));
					size_t nd = 0, a, b;
					bool *seen = xcalloc(n + 1, sizeof(bool));

					for (a = 0; a < n; a++) {
						double m = 0;
						size_t cnt = 0;

						if (seen[a])
							continue;
						for (b = a; b < n; b++)
							if (!strcmp(dayinst[b], dayinst[a])) {
								m += v[b];
								cnt++;
								seen[b] = true;
							}
						dm[nd] = m / (double)cnt;
						dl[nd] = inst[a];
						nd++;
					}
					for (a = 0; a < nd; a++) {
						bool first = true;

						for (b = 0; b < a; b++)
							if (!strcmp(dl[b], dl[a]))
								first = false;
						ninst += first;
					}
					if (nd > ninst) {
						double bd = pooled_within(dm, dl, nd, gm, &ng);

						bdv = isfinite(bd) ? fmax(0, bd -
						    (isfinite(btv) ? btv : 0) - wvar) : NAN;
					}
					if (ninst >= 2) {
						double *im = xcalloc(ninst + 1, sizeof(double));
						size_t ni;

						pooled_within(dm, dl, nd, im, &ni);
						biv = fmax(0, var_of(im, ni) -
						    (isfinite(bdv) ? bdv : 0) -
						    (isfinite(btv) ? btv : 0) - wvar);
						free(im);
					}
					free(dm);
					free(dl);
					free(seen);
				}
			}
			for (k = 0; k < n; k++) {
				bool first = true;

				for (j = 0; j < k; j++)
					if (!strcmp(day[j], day[k]))
						first = false;
				ndays += first;
			}
			needed = n >= 2 ? stats_trials_needed(v, n, o->target_pct,
			    o->level, &now) : 0;
			row = table_add_row(t);
			table_set_str(t, row, 0, cs.cells[i].path);
			table_set_str(t, row, 1, cs.cells[i].cond);
			table_set_str(t, row, 2, cs.metric_name);
			table_set_str(t, row, 3, stats_estimator_name(o->est));
			table_set_str(t, row, col0, o2.stat_names[s]);
			table_set_int(t, row, col0 + 1, (int64_t)n);
			table_set_int(t, row, col0 + 2, (int64_t)ndays);
			table_set_int(t, row, col0 + 3, (int64_t)ninst);
			table_set_num(t, row, col0 + 4, mean);
			table_set_num(t, row, col0 + 5, 100 * sqrt(wvar) / fabs(mean));
			table_set_num(t, row, col0 + 6, 100 * sqrt(btv) / fabs(mean));
			table_set_num(t, row, col0 + 7, 100 * sqrt(bdv) / fabs(mean));
			table_set_num(t, row, col0 + 8, 100 * sqrt(biv) / fabs(mean));
			table_set_num(t, row, col0 + 9, now);
			if (needed)
				table_set_int(t, row, col0 + 10, (int64_t)needed);
			else
				table_set_display(t, row, col0 + 10, n < 2 ?
				    "need 2 trials" : "–");
next:
			for (k = 0; k < n; k++)
				free(dayinst[k]);
			free(v);
			free(se2);
			free(gm);
			free(day);
			free(inst);
			free(dayinst);
		}
	}
	table_add_note(t, "%s: spread of each trial's statistic, as a coefficient "
	    "of variation (%% of the mean), split by level with the method of "
	    "moments: within trial = sampling error of one trial's statistic "
	    "(standard deviation of 200 bootstrap resamples within the trial); between trials, days and "
	    "instances = what each level adds beyond the one below (0 when it "
	    "adds nothing; – when there is only one value at that level).  "
	    "Instances are told apart by the tag 'instance', else 'instance_id', "
	    "else 'hostname'.", cs.metric_name);
	table_add_note(t, "Trials for target: smallest number of trials for a "
	    "%.0f %% t interval of ±%.1f %% on the mean of the trial statistics; "
	    "±%% now: that half-width with the trials at hand.", o->level * 100,
	    o->target_pct);
	cellset_release(&cs);
	return ret;
}
