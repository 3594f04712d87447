/*
 * chart_box.c - boxes of trial-level values: each trial's statistic
 * as a point over the quartiles and range of its cell's trials, outlier
 * trials named.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/chart.h"
#include "report/internal.h"
#include "stats/stats.h"
#include "stats/verdict.h"

/* One box per (path, condition, dimensions but trial) of t: its trials'
 * values in the chart unit, tagged with the trial number; a trial whose
 * statistic is "≥ timeout" (ge, its <stat>_ge_timeout column) is no
 * value and is counted in (*cens)[g] instead.  *ngrp gets the count;
 * the caller frees the groups and *cens. */
static struct series *
box_groups(struct chart *ch, const struct table *t,
    const struct analyze_opts *o, long sc, long ge, size_t *ngrp,
    size_t **cens)
{
	long pc = table_col(t, "path"), cc = table_col(t, "condition");
	long tc = table_col(t, "trial");
	bool sev = chart_several_conditions(t);
	struct series *grp = xcalloc(t->nrows + 1, sizeof(*grp));
	struct strbuf sb = STRBUF_INIT;
	size_t r, g;

	*ngrp = 0;
	*cens = xcalloc(t->nrows + 1, sizeof(size_t));
	for (r = 0; r < t->nrows; r++) {
		long trial = strtol(chart_str_at(t, r, tc), NULL, 10);
		double v = table_num(t, r, sc) * ch->scale;

		chart_dims_text(t, o, r, "trial", &sb);
		strbuf_addf(&sb, "\x1f%s\x1f%s", chart_str_at(t, r, pc),
		    chart_str_at(t, r, cc));
		for (g = 0; g < *ngrp; g++)
			if (!strcmp(grp[g].comment, sb.buf))
				break;
		if (g == *ngrp) {
			grp[g].comment = xstrdup(sb.buf);
			chart_dims_text(t, o, r, "trial", &sb);
			grp[g].label = chart_cell_label(ch->s,
			    chart_str_at(t, r, pc), chart_str_at(t, r, cc),
			    sev, sb.buf);
			(*ngrp)++;
		}
		if (ge >= 0 && table_num(t, r, ge) == 1)
			(*cens)[g]++;
		else if (isfinite(v))
			chart_series_push(&grp[g], v, trial);
	}
	strbuf_release(&sb);
	return grp;
}

/* A sorted copy of the group's values (the caller frees it). */
static double *
box_sorted(const struct series *g)
{
	double *x = xcalloc(g->n + 1, sizeof(double));

	if (g->n)	/* an empty group (every trial censored) has no v */
		memcpy(x, g->v, g->n * sizeof(double));
	stats_sort(x, g->n);
	return x;
}

/* The .dat file: index 0 the boxes (min, quartiles, max, mean), index 1
 * every trial, index 2 the outlier trials (stats_outlier_trials).  Returns
 * how many are named. */
static size_t
box_data(struct chart *ch, const struct series *grp, size_t ngrp,
    const size_t *cens)
{
	size_t g, i, named = 0;

	chart_dat_head(ch);
	for (g = 0; g < ngrp; g++)
		chart_dat_label(ch, "group", g, grp[g].label);
	for (g = 0; g < ngrp; g++) {
		double *x = box_sorted(&grp[g]);

		/* a trial "≥ timeout" has no value: no box of the others
		 * (its quartiles would be low), its own point absent */
		if (cens[g])
			strbuf_addf(&ch->dat, "# censored: group %zu: %zu "
			    "trial(s) ≥ timeout, no box\n", g, cens[g]);
		strbuf_addf(&ch->dat, "%zu", g);
		if (grp[g].n && !cens[g]) {
			double q[5];

			q[0] = x[0];
			q[1] = stats_quantile(STATS_EST_TYPE7, x, grp[g].n, 25);
			q[2] = stats_quantile(STATS_EST_TYPE7, x, grp[g].n, 50);
			q[3] = stats_quantile(STATS_EST_TYPE7, x, grp[g].n, 75);
			q[4] = x[grp[g].n - 1];
			for (i = 0; i < 5; i++) {
				strbuf_addch(&ch->dat, ' ');
				chart_gp_num(&ch->dat, q[i]);
			}
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat, stats_mean(x, grp[g].n));
		} else {
			strbuf_addstr(&ch->dat, " NaN NaN NaN NaN NaN NaN");
		}
		strbuf_addch(&ch->dat, '\n');
		free(x);
	}
	strbuf_addstr(&ch->dat, "\n\n");
	for (g = 0; g < ngrp; g++) {
		for (i = 0; i < grp[g].n; i++) {
			strbuf_addf(&ch->dat, "%zu ", g);
			chart_gp_num(&ch->dat, grp[g].v[i]);
			strbuf_addf(&ch->dat, " %ld\n", grp[g].tag[i]);
		}
	}
	/* index 2: the outlier trials (the rule analyze trials and check
	 * outlier-trial use), to name them */
	strbuf_addstr(&ch->dat, "\n\n");
	for (g = 0; g < ngrp; g++) {
		bool *flag = xcalloc(grp[g].n + 1, sizeof(bool));

		if (!cens[g])
			stats_outlier_trials(grp[g].v, grp[g].n, flag, NULL,
			    NULL);
		for (i = 0; i < grp[g].n; i++) {
			if (!flag[i])
				continue;
			strbuf_addf(&ch->dat, "%zu ", g);
			chart_gp_num(&ch->dat, grp[g].v[i]);
			strbuf_addf(&ch->dat, " %ld\n", grp[g].tag[i]);
			named++;
		}
		free(flag);
	}
	return named;
}

/* The script: axes, one tic per box, candlesticks and points. */
static void
box_script(struct chart *ch, const struct series *grp, size_t ngrp,
    const char *stat, bool sev, size_t named)
{
	struct strbuf y = STRBUF_INIT, tics = STRBUF_INIT, sb = STRBUF_INIT;
	size_t g, nl, lines = 1;

	strbuf_addf(&ch->pre, "set xrange [-0.6:%zu.6]\n"
	    "set style fill solid 0.25 border lc rgb '#333333'\n"
	    "set boxwidth 0.45 absolute\n"
	    KEY_ABOVE,
	    ngrp ? ngrp - 1 : 0);
	if (ch->c->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	else
		strbuf_addstr(&ch->pre, "set offsets 0, 0, graph 0.08, graph "
		    "0.05\n");
	strbuf_addf(&y, "%s of %s per trial (%s)", stat, ch->m->title,
	    ch->unit);
	chart_gp_set(&ch->pre, "ylabel", y.buf);
	for (g = 0; g < ngrp; g++) {
		const char *id = strchr(grp[g].comment, '\x1f') + 1;
		char *pid = xstrndup(id, strcspn(id, "\x1f"));
		const char *cond = strchr(id, '\x1f') + 1;

		if (g)
			strbuf_addstr(&tics, ", \\\n    ");
		strbuf_reset(&sb);
		if (sev)
			strbuf_addstr(&sb, *cond ? cond : "no condition");
		nl = chart_gp_tic_label(&tics, pid,
		    report_path_label(ch->s, pid), sb.buf,
		    chart_group_columns(ch, ngrp));
		if (nl > lines)
			lines = nl;
		strbuf_addf(&tics, " %zu", g);
		free(pid);
	}
	strbuf_addf(&ch->pre, "set bmargin %zu\nset xtics (%s) noenhanced\n",
	    lines + 3, tics.buf);
	strbuf_addstr(&ch->plot, "plot \\\n    ");
	chart_plot_source(ch, &ch->plot, true);
	strbuf_addstr(&ch->plot, " index 0 using 1:3:2:6:5 with candlesticks "
	    "whiskerbars 0.5 lt 1 lw 1.5 title 'quartiles and range of the "
	    "trials', \\\n"
	    "    '' index 0 using 1:4:4:4:4 with candlesticks lt 1 lw 3 "
	    "title 'median', \\\n"
	    "    '' index 1 using 1:2 with points lt 4 pt 7 ps 1.4 "
	    "title 'one trial'");
	if (named)
		strbuf_addstr(&ch->plot, ", \\\n"
		    "    '' index 2 using 1:2:(sprintf('trial %d', $3)) with "
		    "labels left offset 1.2,0 font small tc rgb '#333333' "
		    "notitle");
	strbuf_addch(&ch->plot, '\n');
	strbuf_release(&y);
	strbuf_release(&tics);
	strbuf_release(&sb);
}

/* "; 3 trials per box, n = 1500 per trial; each point ..." */
static void
box_counts(const struct table *t, const struct series *grp, size_t ngrp,
    const char *stat, struct strbuf *counts)
{
	double nlo = INFINITY, nhi = -INFINITY, glo = INFINITY, ghi = 0;
	long nc = table_col(t, "n");
	size_t r, g;

	for (r = 0; r < t->nrows; r++) {
		nlo = fmin(nlo, table_num(t, r, nc));
		nhi = fmax(nhi, table_num(t, r, nc));
	}
	for (g = 0; g < ngrp; g++) {
		glo = fmin(glo, (double)grp[g].n);
		ghi = fmax(ghi, (double)grp[g].n);
	}
	if (glo == ghi)
		strbuf_addf(counts, "; %.0f trials per box", glo);
	else
		strbuf_addf(counts, "; %.0f–%.0f trials per box", glo, ghi);
	if (isfinite(nlo) && nlo == nhi)
		strbuf_addf(counts, ", n = %.0f per trial", nlo);
	else if (isfinite(nlo))
		strbuf_addf(counts, ", n = %.0f–%.0f per trial", nlo, nhi);
	strbuf_addf(counts, "; each point is one trial's %s", stat);
}

int
chart_box(struct chart *ch)
{
	static const char *const by_trial[] = { "trial", NULL };
	struct analyze_opts o;
	struct table t;
	struct series *grp = NULL;
	struct strbuf counts = STRBUF_INIT;
	size_t ngrp = 0, js, named, *cens = NULL;
	const char *stat;
	int ret = -1;

	/* each trial's statistic: cells split by trial, one trial each */
	if (chart_table(ch, "percentiles", by_trial, STATS_POOL_PER_TRIAL, &o,
	    &t))
		return -1;
	if (chart_stat_table(ch, &o, &t))
		goto cleanup;
	js = chart_stat(ch, &o);
	stat = js < o.nstats ? o.stat_names[js] : "";
	chart_choose_unit_col(ch, &t, js < o.nstats ? table_col(&t, stat) :
	    -1);
	{
		struct strbuf k = STRBUF_INIT;

		strbuf_addf(&k, "%s_ge_timeout", stat);
		grp = box_groups(ch, &t, &o, js < o.nstats ? table_col(&t,
		    stat) : -1, table_col(&t, k.buf), &ngrp, &cens);
		strbuf_release(&k);
	}
	strbuf_addf(&ch->what, "index 0: x (group), min, first quartile, "
	    "median, third quartile, max, mean of the trials' %s (in %s); "
	    "index 1: x, one trial's value, trial number; index 2: the same "
	    "for the outlier trials (2x or more from their box's median and "
	    "past a robust z calibrated for that many trials; named on the "
	    "chart); a '# censored' line: that box's trials include one whose "
	    "statistic is ≥ timeout (no value), so it has no box",
	    stat, ch->unit);
	named = box_data(ch, grp, ngrp, cens);
	box_script(ch, grp, ngrp, stat, chart_several_conditions(&t), named);
	box_counts(&t, grp, ngrp, stat, &counts);
	chart_describe(ch, &o, counts.buf);
	ret = 0;
cleanup:
	analyze_opts_release(&o);
	table_release(&t);
	chart_series_free(grp, ngrp);
	free(cens);
	strbuf_release(&counts);
	return ret;
}
