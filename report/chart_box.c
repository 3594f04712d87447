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

/*
 * The outlier trials of each group by pathstat's one rule
 * (stats_outlier_cells(), through the cells of `analyze trials` with the
 * section's options: the whole cell, not its trials split one a box
 * row): out[g] the trial numbers "2,3" (owned, "" for none); NULL
 * after an error (printed).  The caller frees each entry and out.
 */
static char **
box_outliers(struct chart *ch, const struct series *grp, size_t ngrp)
{
	struct analyze_opts o;
	struct table t;
	struct strbuf sb = STRBUF_INIT;
	char **out;
	long pc, cc, oc;
	size_t g, r;

	if (chart_table(ch, "trials", NULL, -1, &o, &t))
		return NULL;
	out = xcalloc(ngrp + 1, sizeof(char *));
	pc = table_col(&t, "path");
	cc = table_col(&t, "condition");
	oc = table_col(&t, "outliers");
	for (g = 0; g < ngrp; g++) {
		for (r = 0; r < t.nrows && oc >= 0; r++) {
			chart_dims_text(&t, &o, r, "trial", &sb);
			strbuf_addf(&sb, "\x1f%s\x1f%s", chart_str_at(&t, r,
			    pc), chart_str_at(&t, r, cc));
			if (!strcmp(sb.buf, grp[g].comment))
				break;
		}
		out[g] = xstrdup(oc >= 0 && r < t.nrows ? chart_str_at(&t, r,
		    oc) : "");
	}
	strbuf_release(&sb);
	analyze_opts_release(&o);
	table_release(&t);
	return out;
}

/* Whether trial number tag is in the list "2,3". */
static bool
box_listed(const char *list, long tag)
{
	while (list && *list) {
		char *end;
		long v = strtol(list, &end, 10);

		if (end == list)
			return false;
		if (v == tag)
			return true;
		list = *end == ',' ? end + 1 : end;
	}
	return false;
}

/* The .dat file: index 0 the boxes (min, quartiles, max, mean), index 1
 * every trial, index 2 the outlier trials (outl[g], box_outliers()).
 * Returns how many are named, and in named_g[g] how many of group g. */
static size_t
box_data(struct chart *ch, const struct series *grp, size_t ngrp,
    const size_t *cens, char *const *outl, size_t *named_g)
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
		for (i = 0; i < grp[g].n; i++) {
			if (cens[g] || !box_listed(outl[g], grp[g].tag[i]))
				continue;
			strbuf_addf(&ch->dat, "%zu ", g);
			chart_gp_num(&ch->dat, grp[g].v[i]);
			strbuf_addf(&ch->dat, " %ld\n", grp[g].tag[i]);
			named++;
			named_g[g]++;
		}
	}
	return named;
}

/* The condition of a group ("dims\x1fpath\x1fcond"). */
static const char *
box_cond(const struct series *g)
{
	const char *p = strchr(g->comment, '\x1f');

	return strchr(p + 1, '\x1f') + 1;
}

/* The path of a group (the caller frees it). */
static char *
box_path(const struct series *g)
{
	const char *id = strchr(g->comment, '\x1f') + 1;

	return xstrndup(id, strcspn(id, "\x1f"));
}

/* Order the groups by condition (stable), so that each condition's boxes
 * are neighbours: a panel each.  cens follows its groups. */
static void
box_by_condition(struct series *grp, size_t *cens, size_t ngrp)
{
	size_t i, j;

	for (i = 1; i < ngrp; i++) {
		struct series g = grp[i];
		size_t c = cens[i];

		for (j = i; j > 0 && strcmp(box_cond(&grp[j - 1]),
		    box_cond(&g)) > 0; j--) {
			grp[j] = grp[j - 1];
			cens[j] = cens[j - 1];
		}
		grp[j] = g;
		cens[j] = c;
	}
}

/*
 * "set yrange [lo:hi]" from the values of groups [from, to): the data's
 * range with 8 % of it (at least 5 % of the largest value, so that a
 * spread of 0.1 % does not fill the panel) as padding,
 * never below 0 for values that are not (every metric here is
 * non-negative), and from 0 when the data come that close to it anyway;
 * on a log axis from the 1-2-5 step below the smallest value.
 */
static void
box_yrange(struct strbuf *sb, const struct series *grp, size_t from,
    size_t to, bool logscale)
{
	double lo = INFINITY, hi = -INFINITY, pad, ylo, yhi;
	size_t g, i;

	for (g = from; g < to; g++)
		for (i = 0; i < grp[g].n; i++)
			if (isfinite(grp[g].v[i]) && (!logscale ||
			    grp[g].v[i] > 0)) {
				lo = fmin(lo, grp[g].v[i]);
				hi = fmax(hi, grp[g].v[i]);
			}
	if (!isfinite(lo)) {
		strbuf_addstr(sb, logscale ? "set yrange [1:10]\n" :
		    "set yrange [0:1]\n");
		return;
	}
	if (logscale) {
		strbuf_addstr(sb, "set yrange [");
		chart_gp_num(sb, chart_log_floor(lo * 0.9));
		strbuf_addch(sb, ':');
		chart_gp_num(sb, chart_finite(hi * 1.25));
		strbuf_addstr(sb, "]\n");
		return;
	}
	pad = fmax((hi - lo) * 0.08, fabs(hi) * 0.05);
	if (pad <= 0)
		pad = 1;
	ylo = lo - pad;
	yhi = hi + pad;
	if (lo >= 0 && (ylo < 0 || ylo < 0.2 * yhi))
		ylo = 0;
	strbuf_addstr(sb, "set yrange [");
	chart_gp_num(sb, chart_finite(ylo));
	strbuf_addch(sb, ':');
	chart_gp_num(sb, chart_finite(yhi));
	strbuf_addstr(sb, "]\n");
}

/* The plot clauses of the boxes, the trials and (named) the outlier
 * trials' names. */
static void
box_plot(struct chart *ch, bool named, bool flagged, bool key)
{
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
	if (flagged) {
		struct strbuf t = STRBUF_INIT;

		chart_flag_legend(ch, &t, true);
		strbuf_addstr(&ch->plot, ", \\\n    '' index 3 using 1:2 with "
		    "points " CHART_FLAG_STYLE " ");
		if (key) {
			strbuf_addstr(&ch->plot, "title ");
			escape_gnuplot(&ch->plot, t.buf);
		} else {
			strbuf_addstr(&ch->plot, "notitle");
		}
		strbuf_release(&t);
	}
	strbuf_addch(&ch->plot, '\n');
}

/* Index 3 of the .dat: each trial pathstat check flagged (x, value,
 * trial), after index 2's named outliers (named; a NaN row when there
 * are none); flagged[g] gets how many of group g.  Returns the count. */
static size_t
box_flags(struct chart *ch, const struct series *grp, size_t ngrp,
    size_t named, size_t *flagged)
{
	size_t g, i, n = 0;

	for (g = 0; g < ngrp; g++) {
		char *pid = box_path(&grp[g]);

		for (i = 0; i < grp[g].n; i++) {
			if (!grp[g].tag[i] || !chart_flag_cell(ch, pid,
			    box_cond(&grp[g]), grp[g].tag[i]))
				continue;
			/* an empty index 2 would run its blank lines into
			 * index 3's: gnuplot would find no index 3 */
			if (!n)
				strbuf_addf(&ch->dat, "%s# index 3: x, value, "
				    "trial number of each trial pathstat check "
				    "flagged (marked %s on the chart)\n", named ?
				    "\n\n" : "NaN NaN 0\n\n\n", CHART_FLAG_MARK);
			strbuf_addf(&ch->dat, "%zu ", g);
			chart_gp_num(&ch->dat, grp[g].v[i]);
			strbuf_addf(&ch->dat, " %ld\n", grp[g].tag[i]);
			flagged[g]++;
			n++;
		}
		free(pid);
	}
	return n;
}

/* The script of one panel: axes, one tic per box, candlesticks and
 * points. */
static void
box_script(struct chart *ch, const struct series *grp, size_t ngrp,
    const char *stat, bool sev, size_t named, size_t nflag)
{
	struct strbuf y = STRBUF_INIT, tics = STRBUF_INIT, sb = STRBUF_INIT;
	size_t g, nl, lines = 1;

	strbuf_addf(&ch->pre, "set xrange [-0.6:%zu.6]\n"
	    "set style fill solid 0.25 border lc rgb '#333333'\n"
	    "set boxwidth 0.45 absolute\n"
	    KEY_ABOVE,
	    ngrp ? ngrp - 1 : 0);
	if (ch->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	box_yrange(&ch->pre, grp, 0, ngrp, ch->logscale);
	strbuf_addf(&y, "%s of %s per trial (%s)", stat, ch->m->title,
	    ch->unit);
	chart_gp_set(&ch->pre, "ylabel", y.buf);
	for (g = 0; g < ngrp; g++) {
		char *pid = box_path(&grp[g]);
		const char *cond = box_cond(&grp[g]);

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
	box_plot(ch, named != 0, nflag != 0, true);
	strbuf_release(&y);
	strbuf_release(&tics);
	strbuf_release(&sb);
}

/* The legend of a page of panels, drawn by hand in one row at screen
 * height y (gnuplot sizes a key to one panel): a box, a median and a
 * trial's point, each with its words. */
static void
box_legend(struct chart *ch, double y, bool flagged)
{
	struct strbuf fl = STRBUF_INIT;
	const char *words[4] = { "quartiles and range of the trials",
	    "median", "one trial", NULL };
	double w = (double)ch->width, h = (double)ch->height;
	double fs = (double)ch->b->spec->font_size, tw[4], total = 0, x;
	double bh = fs * 0.45 / h;
	size_t i, n = flagged ? 4 : 3;

	if (flagged) {
		/* the checks by name where the row has room */
		chart_flag_legend(ch, &fl, false);
		for (i = 0, total = 0; i < 3; i++)
			total += 74 + 0.62 * fs * (double)strlen(words[i]);
		if (total + 38 + 0.62 * fs * (double)strlen(fl.buf) > w - 40) {
			strbuf_reset(&fl);
			chart_flag_legend(ch, &fl, true);
		}
		total = 0;
		words[3] = fl.buf;
	}
	for (i = 0; i < n; i++) {
		tw[i] = 0.62 * fs * (double)strlen(words[i]);
		total += 30 + 8 + tw[i] + (i + 1 < n ? 36 : 0);
	}
	x = 0.5 - total / 2 / w;
	for (i = 0; i < n; i++) {
		if (i < 2)
			strbuf_addf(&ch->plot, "set object %zu rect from "
			    "screen %.4f, screen %.4f to screen %.4f, screen "
			    "%.4f fc rgb '#0072B2' fs solid 0.25 border lc "
			    "rgb '#333333' lw %s front\n", 90 + i, x + 2 / w,
			    y - bh, x + 28 / w, y + bh, i ? "3" : "1");
		else
			strbuf_addf(&ch->plot, "set label %zu '' at screen "
			    "%.4f, screen %.4f point %s\n", (size_t)(i == 2 ? 92 : 97),
			    x + 15 / w, y, i == 2 ? "lt 4 pt 7 ps 1.4" :
			    CHART_FLAG_STYLE);
		strbuf_addf(&ch->plot, "set label %zu ", 93 + i);
		escape_gnuplot(&ch->plot, words[i]);
		strbuf_addf(&ch->plot, " at screen %.4f, screen %.4f left "
		    "noenhanced\n", x + 38 / w, y);
		x += (30 + 8 + tw[i] + 36) / w;
	}
	strbuf_addstr(&ch->plot, "unset key\n");
	strbuf_release(&fl);
}

/* Most panels (conditions) a box chart draws side by side. */
#define BOX_MAX_PANELS	12

/*
 * Small multiples: one panel per condition (groups ordered by
 * box_by_condition), each with its own x axis of paths and its own y
 * range from its data, so a 1 MB cell's 10 ms does not flatten a 1 KB
 * cell's 0.3 ms and no axis holds 30 crowded labels.  The key is drawn
 * once, under the page's title; the caption carries the small print.
 * named[g] counts the outlier trials of group g, flagged[g] its trials
 * pathstat check flagged.  Returns the number of panels.
 */
static size_t
box_panels(struct chart *ch, const struct series *grp, size_t ngrp,
    const char *stat, const size_t *named, const size_t *flagged)
{
	struct strbuf y = STRBUF_INIT, tics = STRBUF_INIT;
	size_t np = 0, cols, rows, most = 0, lines = 1, p, g, k, end;
	size_t width_cols;
	double w = (double)ch->width, h, fs = (double)ch->b->spec->font_size;
	double line_px = fs * 1.45, pw;
	bool ids_only;

	for (k = 0; k < ngrp; k = end, np++) {
		for (end = k; end < ngrp && !strcmp(box_cond(&grp[end]),
		    box_cond(&grp[k])); end++)
			;
		if (end - k > most)
			most = end - k;
	}
	/* as many columns as leave each box 60 pixels, at most 3 */
	cols = np < 3 ? np : 3;
	while (cols > 1 && (w - 100) / (double)cols / (double)most < 60)
		cols--;
	rows = (np + cols - 1) / cols;
	if (!ch->c->height)
		ch->height = 150 + 300 * (long)rows;
	h = (double)ch->height;
	pw = (w - 115 - 80 * (double)(cols - 1)) / (double)cols;
	/* a box's column of text: its label wrapped, or the path ID alone
	 * when the label would not fit in 8 columns */
	width_cols = (size_t)fmax(1, pw / (double)most / (0.68 * fs));
	ids_only = width_cols < 8;
	for (g = 0; g < ngrp && !ids_only; g++) {
		char *pid = box_path(&grp[g]);

		strbuf_reset(&tics);
		k = chart_gp_tic_label(&tics, pid, report_path_label(ch->s,
		    pid), NULL, width_cols);
		if (k > lines)
			lines = k;
		free(pid);
	}

	strbuf_addstr(&ch->pre, "set style fill solid 0.25 border lc rgb "
	    "'#333333'\nset boxwidth 0.45 absolute\nunset title\n");
	if (ch->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	strbuf_addf(&y, "%s per trial (%s)", stat, ch->unit);
	strbuf_addf(&ch->plot, "set multiplot layout %zu, %zu title ", rows,
	    cols);
	escape_gnuplot(&ch->plot, chart_title(ch));
	/* margins in pixels made screen fractions: the title and the key
	 * at the top; under each row its tic labels and the next row's
	 * panel titles */
	strbuf_addf(&ch->plot, " font big margins %.4f, %.4f, %.4f, %.4f "
	    "spacing %.4f, %.4f\n", 100 / w, 1 - 15 / w,
	    (20 + line_px * (double)lines) / h, 1 - 110 / h, 80 / w,
	    (30 + line_px * (double)lines + fs * 2.2) / h);
	box_legend(ch, 1 - 52 / h, ch->nflag_checks != 0);
	for (k = 0, p = 0; k < ngrp; k = end, p++) {
		const char *cond = box_cond(&grp[k]);
		size_t nnamed = 0, nflag = 0;

		for (end = k; end < ngrp && !strcmp(box_cond(&grp[end]),
		    cond); end++) {
			nnamed += named[end];
			nflag += flagged[end];
		}
		strbuf_addstr(&ch->plot, "set title ");
		chart_gp_wrapped(&ch->plot, *cond ? cond : "no condition",
		    (size_t)fmax(6, (pw - 20) / (0.68 * fs)));
		strbuf_addstr(&ch->plot, " noenhanced\n");
		if (p % cols == 0)
			chart_gp_set(&ch->plot, "ylabel", y.buf);
		else
			strbuf_addstr(&ch->plot, "unset ylabel\n");
		strbuf_addf(&ch->plot, "set xrange [%.1f:%.1f]\n",
		    (double)k - 0.6, (double)(end - 1) + 0.6);
		box_yrange(&ch->plot, grp, k, end, ch->logscale);
		strbuf_reset(&tics);
		for (g = k; g < end; g++) {
			char *pid = box_path(&grp[g]);

			if (g > k)
				strbuf_addstr(&tics, ", \\\n    ");
			chart_gp_tic_label(&tics, pid, ids_only ? NULL :
			    report_path_label(ch->s, pid), NULL, width_cols);
			strbuf_addf(&tics, " %zu", g);
			free(pid);
		}
		strbuf_addf(&ch->plot, "set xtics (%s) noenhanced\n", tics.buf);
		box_plot(ch, nnamed != 0, nflag != 0, false);
		if (p == 0)	/* the legend is on the page once */
			strbuf_addstr(&ch->plot, "unset object 90\n"
			    "unset object 91\nunset label 92\nunset label 93\n"
			    "unset label 94\nunset label 95\nunset label 96\n"
			    "unset label 97\n");
	}
	strbuf_addstr(&ch->plot, "unset multiplot\n");
	strbuf_release(&y);
	strbuf_release(&tics);
	return np;
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

/* At most REPORT_CHART_MAX_GROUPS boxes (those of the lowest and the
 * highest median trial and evenly between, in their order; the others
 * freed, the caption says so), and no log axis the values cannot be
 * drawn on. */
static void
box_cap(struct chart *ch, struct series *grp, size_t *cens, size_t *ngrp)
{
	double *key = xcalloc(*ngrp + 1, sizeof(double)), *all;
	bool *keep;
	size_t g, m = 0, nkept, nall = 0, i;

	for (g = 0; g < *ngrp; g++) {
		double *v = box_sorted(&grp[g]);

		key[g] = grp[g].n ? v[grp[g].n / 2] : NAN;
		free(v);
	}
	keep = chart_pick(key, *ngrp, REPORT_CHART_MAX_GROUPS, &nkept);
	for (g = 0; g < *ngrp; g++) {
		if (!keep[g]) {
			chart_series_free_one(&grp[g]);
			continue;
		}
		cens[m] = cens[g];
		grp[m++] = grp[g];
	}
	if (m < *ngrp)
		strbuf_addf(&ch->note, "; %zu of %zu boxes drawn (those of the "
		    "lowest and the highest median and evenly between; the "
		    "table has every cell)", m, *ngrp);
	*ngrp = m;
	for (g = 0; g < m; g++)
		nall += grp[g].n;
	all = xcalloc(nall + 1, sizeof(double));
	for (g = 0, nall = 0; g < m; g++)
		for (i = 0; i < grp[g].n; i++)
			all[nall++] = grp[g].v[i];
	chart_log_usable(ch, all, nall);
	free(all);
	free(key);
	free(keep);
}

int
chart_box(struct chart *ch)
{
	static const char *const by_trial[] = { "trial", NULL };
	struct analyze_opts o;
	struct table t;
	struct series *grp = NULL;
	struct strbuf counts = STRBUF_INIT;
	size_t ngrp = 0, js, named, *cens = NULL, *named_g = NULL;
	size_t g, nconds = 0, panels = 0, nflag, *flag_g = NULL;
	char **outl = NULL;
	bool sev;
	const char *stat;
	int ret = -1;

	/* each trial's statistic: cells split by trial, one trial each */
	if (chart_table_stat(ch, "percentiles", by_trial, STATS_POOL_PER_TRIAL,
	    &o, &t))
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
	    "for the outlier trials (pathstat's one rule, as analyze trials' "
	    "outliers column and check outlier-trial name them; named on the "
	    "chart); a '# censored' line: that box's trials include one whose "
	    "statistic is ≥ timeout (no value), so it has no box",
	    stat, ch->unit);
	sev = chart_several_conditions(&t);
	if (sev)
		box_by_condition(grp, cens, ngrp);
	box_cap(ch, grp, cens, &ngrp);
	for (g = 0; sev && g < ngrp; g++)
		if (!g || strcmp(box_cond(&grp[g]), box_cond(&grp[g - 1])))
			nconds++;
	named_g = xcalloc(ngrp + 1, sizeof(size_t));
	flag_g = xcalloc(ngrp + 1, sizeof(size_t));
	outl = box_outliers(ch, grp, ngrp);
	if (!outl)
		goto cleanup;
	named = box_data(ch, grp, ngrp, cens, outl, named_g);
	nflag = box_flags(ch, grp, ngrp, named, flag_g);
	if (nconds > 1 && nconds <= BOX_MAX_PANELS)
		panels = box_panels(ch, grp, ngrp, stat, named_g, flag_g);
	else
		box_script(ch, grp, ngrp, stat, sev, named, nflag);
	box_counts(&t, grp, ngrp, stat, &counts);
	if (panels)
		strbuf_addf(&counts, "; one panel per condition (%zu), each "
		    "with its own y axis from its data", panels);
	chart_describe(ch, &o, counts.buf);
	/* panels fill the page: the caption carries the small print */
	if (panels)
		strbuf_reset(&ch->footer);
	ret = 0;
cleanup:
	analyze_opts_release(&o);
	table_release(&t);
	chart_series_free(grp, ngrp);
	free(cens);
	free(named_g);
	free(flag_g);
	for (g = 0; outl && g < ngrp; g++)
		free(outl[g]);
	free(outl);
	strbuf_release(&counts);
	return ret;
}
