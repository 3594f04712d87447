/*
 * outlier.c - the outlier-trial check: a trial of a cell that is off
 * from the others, by the cell's own rule and by the campaign's
 * (stats_outlier_campaign(), which analyze shares), with its likely
 * cause by the direction it is off in.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "stats/stats.h"
#include "stats/verdict.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

static bool
keep_alive_off(const struct check_model *m, size_t cond)
{
	char buf[16];
	const char *ka = check_cond_get(m, cond, "ka", buf, sizeof(buf));

	return ka && !strcmp(ka, "off");
}

/* A trial's p50: of its samples, else the tool's own. */
static double
trial_p50(const struct check_run *r)
{
	return r->n ? r->p50 : r->summary_only ? r->tool_p50 : NAN;
}

/* Why a trial is off and what to do, by the direction it is off in;
 * wide: the cell's own rule found the trials 2x or more apart (the
 * campaign's rule says only that they disagree). */
static void
outlier_cause(struct check_model *m, const struct check_cell *c,
    double ratio, bool wide, struct strbuf *cause, struct strbuf *act)
{
	if (ratio > 1.0 && keep_alive_off(m, c->cond) &&
	    (c->metric == METRIC_HTTP_MS || c->metric == METRIC_CONNECT_MS)) {
		strbuf_addstr(cause, "TIME_WAIT exhaustion on the client: with "
		    "keep-alive off every request opens a new connection, and "
		    "each closed one stays in TIME_WAIT for about 60 s; trials "
		    "run back to back pile up tens of thousands of such ports "
		    "until finding a free one gets slow (the second "
		    "article: 1 in 3-4 trials 3-25× slower)");
		strbuf_addstr(act, "set net.ipv4.tcp_tw_reuse=1 (and a wide "
		    "net.ipv4.ip_local_port_range) on the client, or close "
		    "connections with RST (SO_LINGER 0, a load generator's "
		    "--rst option), or wait over 60 s between trials; then "
		    "re-run this trial instead of averaging it in");
	} else if (ratio < 1.0 && c->metric == METRIC_THROUGHPUT_BPS) {
		strbuf_addstr(cause, "something outside the path during that "
		    "trial: the instance's network burst credits running out, "
		    "competing traffic or a noisy neighbour");
		strbuf_addstr(act, "look at this run's interval series "
		    "(burst-cliff), re-run the trial on a fresh instance, and "
		    "until then report the median across trials, not the mean");
	} else if (ratio < 1.0) {
		strbuf_addf(cause, "the trials disagree%s and this one is the "
		    "fast one: the other trials measured something besides "
		    "the path (with keep-alive off, TIME_WAIT exhaustion in "
		    "back-to-back trials; otherwise CPU contention or a noisy "
		    "neighbour)", wide ? " by 2× or more" : "");
		strbuf_addstr(act, "re-run the trials with the cause removed "
		    "(net.ipv4.tcp_tw_reuse=1 for keep-alive off); until then "
		    "do not average them: show the spread");
	} else {
		strbuf_addstr(cause, "something transient on the client, the "
		    "server or the path during that trial (CPU contention, a "
		    "GC pause, a noisy neighbour, a route change)");
		strbuf_addstr(act, "re-run the trial; until then report the "
		    "median across trials, not the mean, and say that one "
		    "trial was off");
	}
}

static void
outlier_text(struct check_model *m, const struct check_cell *c,
    const struct check_run *r, double med, const double *x, size_t k,
    struct strbuf *ev, struct strbuf *cause, struct strbuf *act)
{
	double ratio = trial_p50(r) / med, mean = 0.0;
	size_t i;

	for (i = 0; i < k; i++)
		mean += x[i];
	mean /= (double)k;
	strbuf_addf(ev, "trial %ld's p50 is ", r->trial);
	check_fmt_value(ev, c->metric, trial_p50(r));
	strbuf_addf(ev, ", %.1f× the median trial's ", ratio);
	check_fmt_value(ev, c->metric, med);
	strbuf_addstr(ev, " (the trials' p50s: ");
	for (i = 0; i < k; i++) {
		if (i)
			strbuf_addstr(ev, ", ");
		check_fmt_value(ev, c->metric, x[i]);
	}
	strbuf_addstr(ev, "); a mean over trials would carry it into the "
	    "table as ");
	check_fmt_value(ev, c->metric, mean);
	outlier_cause(m, c, ratio, true, cause, act);
}

static const double outlier_pct[CHECK_OUTLIER_NSTATS] = { 50, 95, 99 };

/* What the one rule (stats_outlier_cells()) found for each run (index
 * in m->runs). */
struct camp_flags {
	unsigned	*mask;		/* its on bits; 0: not an outlier */
	double		*ratio;		/* [run * NSTATS + j]: to the median */
	double		*scale;		/* [run * NSTATS + j]: pooled scale */
	size_t		*cells;		/* [run * NSTATS + j]: cells pooled */
};

/* Cells in the order their groups (campaign, metric, tool) are judged. */
struct camp_key {
	const struct check_model *m;
	size_t	cell;
};

static int
camp_cmp(const void *va, const void *vb)
{
	const struct camp_key *a = va, *b = vb;
	const struct check_cell *x = &a->m->cells[a->cell];
	const struct check_cell *y = &b->m->cells[b->cell];
	int c;

	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	c = strcmp(a->m->runs[x->runs[0]].tool, a->m->runs[y->runs[0]].tool);
	if (c)
		return c;
	return (a->cell > b->cell) - (a->cell < b->cell);
}

/* The one rule (stats_outlier_cells(), which analyze calls) over the
 * cells k[0..nc) of one group: one campaign, metric and tool. */
static void
camp_group(const struct check_model *m, const struct camp_key *k, size_t nc,
    struct camp_flags *cf)
{
	size_t ci, g, t, j, at;
	struct stats_outlier_cell *oc = xcalloc(nc, sizeof(*oc));
	double **st = xcalloc(nc, sizeof(*st));

	for (ci = 0; ci < nc; ci++) {
		const struct check_cell *c = &m->cells[k[ci].cell];
		size_t kk = c->nruns;

		st[ci] = xmalloc(kk * STATS_OUTLIER_NSTATS * sizeof(double));
		for (t = 0; t < c->nruns; t++)
			for (j = 0; j < STATS_OUTLIER_NSTATS; j++)
				st[ci][t * STATS_OUTLIER_NSTATS + j] =
				    m->runs[c->runs[t]].stat[j];
		oc[ci].k = c->nruns;
		oc[ci].st = st[ci];
		/* a throughput trial cannot beat its path: when one is far
		 * above the others, they are the ones off (run-order and
		 * burst-cliff say why); as analyze's cells_judge_outliers() */
		oc[ci].low_only = metric_by_id(c->metric) &&
		    metric_by_id(c->metric)->higher_better;
		oc[ci].flag = xcalloc(kk, sizeof(bool));
		oc[ci].on = xcalloc(kk, sizeof(unsigned));
		oc[ci].ratio = xmalloc(kk * STATS_OUTLIER_NSTATS *
		    sizeof(double));
	}
	stats_outlier_cells(oc, nc);
	for (g = 0; g < nc; g++) {
		const struct check_cell *c = &m->cells[k[g].cell];

		for (t = 0; t < c->nruns; t++) {
			if (oc[g].flag[t])
				cf->mask[c->runs[t]] = oc[g].on[t];
			for (j = 0; j < STATS_OUTLIER_NSTATS; j++) {
				at = c->runs[t] * CHECK_OUTLIER_NSTATS + j;
				cf->ratio[at] = oc[g].ratio[t *
				    STATS_OUTLIER_NSTATS + j];
				cf->scale[at] = oc[g].scale[j];
				cf->cells[at] = oc[g].used[j];
			}
		}
		free(st[g]);
		free(oc[g].flag);
		free(oc[g].on);
		free(oc[g].ratio);
	}
	free(oc);
	free(st);
}

/* The one rule over every group of cells (campaign, metric, tool): the
 * cells sorted by group, so each group is found once, not by a pass
 * over every cell for each. */
static void
camp_judge(const struct check_model *m, struct camp_flags *cf)
{
	struct camp_key *k = xcalloc(m->ncells + 1, sizeof(*k));
	size_t ci, n = 0, at, end;

	for (ci = 0; ci < m->ncells; ci++)
		if (m->cells[ci].nruns) {
			k[n].m = m;
			k[n++].cell = ci;
		}
	qsort(k, n, sizeof(*k), camp_cmp);
	for (at = 0; at < n; at = end) {
		const struct check_cell *a = &m->cells[k[at].cell];

		for (end = at + 1; end < n; end++) {
			const struct check_cell *b = &m->cells[k[end].cell];

			if (a->scope != b->scope || a->metric != b->metric ||
			    strcmp(m->runs[a->runs[0]].tool,
			    m->runs[b->runs[0]].tool))
				break;
		}
		camp_group(m, k + at, end - at, cf);
	}
	free(k);
}


/* The evidence of a trial the campaign's rule flagged. */
static void
camp_text(struct check_model *m, const struct check_cell *c, size_t at,
    const struct camp_flags *cf, struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act)
{
	const struct check_run *r = &m->runs[c->runs[at]];
	unsigned mask = cf->mask[c->runs[at]];
	double lead = NAN, scale = NAN, k;
	size_t j, i, used = 0, listed = 0;

	strbuf_addf(ev, "trial %ld's ", r->trial);
	for (j = 0; j < CHECK_OUTLIER_NSTATS; j++) {
		size_t a = c->runs[at] * CHECK_OUTLIER_NSTATS + j;

		if (!(mask & (1u << j)))
			continue;
		if (listed++)
			strbuf_addstr(ev, ", ");
		strbuf_addf(ev, "p%g is ", outlier_pct[j]);
		check_fmt_value(ev, c->metric, r->stat[j]);
		strbuf_addf(ev, " (%.2f× the median trial's; the trials': ",
		    cf->ratio[a]);
		for (i = 0; i < c->nruns; i++) {
			if (i)
				strbuf_addstr(ev, ", ");
			check_fmt_value(ev, c->metric,
			    m->runs[c->runs[i]].stat[j]);
		}
		strbuf_addch(ev, ')');
		if (isnan(lead)) {
			lead = cf->ratio[a];
			scale = cf->scale[a];
			used = cf->cells[a];
		}
	}
	if (!isfinite(scale)) {
		/* fewer cells than share a spread: the cell's own rule */
		strbuf_addf(ev, "; %s%zu cell%s of %zu trials of this metric "
		    "and tool %s in this campaign (of the runs selected), "
		    "fewer than the %d that share a spread, so the cell's "
		    "own rule decides on each of its p50, p95 and p99 (the "
		    "rule analyze trials marks with): %g× the median trial "
		    "or more, and beyond the robust z calibrated for %zu "
		    "trials; the cell's trial-level interval treats its "
		    "trials as alike and is withdrawn: publish it without "
		    "one, or recompute it without this trial", used == 1 ?
		    "" : "only ", used,
		    used == 1 ? "" : "s", c->nruns, used == 1 ? "is" : "are",
		    STATS_OUTLIER_POOL_MIN_CELLS, STATS_OUTLIER_MIN_RATIO,
		    c->nruns);
		outlier_cause(m, c, lead, true, cause, act);
		return;
	}
	k = stats_outlier_pool_k(c->nruns, used);
	strbuf_addf(ev, "; in the %zu cells of %zu trials of this metric and "
	    "tool in this campaign a trial lies a typical %.2g %% from its "
	    "cell's nearest trial, so beyond %.3g× (and %.1f× at least) is "
	    "not noise, nor is 2× where the cell's other trials agree "
	    "closely (its own spread); the cell's trial-level interval "
	    "treats its trials "
	    "as alike and is withdrawn: publish it without one, or "
	    "recompute it without this trial", used, c->nruns,
	    100.0 * (exp(scale) - 1.0), exp(k * scale),
	    STATS_OUTLIER_POOL_MIN_RATIO);
	outlier_cause(m, c, lead, false, cause, act);
}

void
check_outlier_trial(struct check_model *m)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	double *x = NULL;
	size_t *who = NULL, alloc = 0, ci, i, k;
	size_t nr = m->nruns ? m->nruns : 1;
	struct camp_flags cf;

	cf.mask = xcalloc(nr, sizeof(unsigned));
	cf.ratio = xmalloc(nr * CHECK_OUTLIER_NSTATS * sizeof(double));
	cf.scale = xmalloc(nr * CHECK_OUTLIER_NSTATS * sizeof(double));
	cf.cells = xcalloc(nr * CHECK_OUTLIER_NSTATS, sizeof(size_t));
	for (i = 0; i < nr * CHECK_OUTLIER_NSTATS; i++)
		cf.ratio[i] = cf.scale[i] = NAN;
	camp_judge(m, &cf);
	for (ci = 0; ci < m->ncells; ci++) {
		const struct check_cell *c = &m->cells[ci];
		double med;

		if (c->nruns < 3)
			continue;
		if (c->nruns > alloc) {
			alloc = c->nruns;
			x = xreallocarray(x, alloc, sizeof(double));
			who = xreallocarray(who, alloc, sizeof(size_t));
		}
		for (i = k = 0; i < c->nruns; i++) {
			double v = trial_p50(&m->runs[c->runs[i]]);

			if (!isfinite(v) || v <= 0)
				continue;
			x[k] = v;
			who[k++] = c->runs[i];
		}
		if (k < 3)
			continue;
		med = stats_median(x, k);
		for (i = 0; i < k; i++) {
			const struct check_run *r = &m->runs[who[i]];
			struct check_finding *f;
			unsigned mask = cf.mask[who[i]];

			if (!mask)
				continue;
			f = check_add(m, "outlier-trial", c->scope, c->metric,
			    c->path, c->cond, r->trial);
			check_add_run(f, r);
			/* the cell's own spread: its p50s 2x apart; else
			 * the statistics the campaign's rule flagged */
			if (mask & STATS_OUTLIER_ON_OWN)
				outlier_text(m, c, r, med, x, k, &ev, &cause,
				    &act);
			else
				camp_text(m, c, i, &cf, &ev, &cause, &act);
			check_set_text(f, &ev, &cause, &act);
		}
	}
	free(x);
	free(who);
	free(cf.mask);
	free(cf.ratio);
	free(cf.scale);
	free(cf.cells);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}
