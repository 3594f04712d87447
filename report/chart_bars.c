/*
 * chart_bars.c - grouped bars: percentiles per path (the articles' bar
 * charts), or the columns of a pivot table per row.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/chart.h"
#include "report/internal.h"

struct bars {
	size_t		ngroups, nseries;
	char		**gid;		/* group path ID (borrowed) */
	char		**glabel;	/* group label (owned) */
	char		**gextra;	/* condition/dims, or NULL (owned) */
	char		**sname;	/* series names (owned) */
	double		*v;		/* ngroups * nseries, chart unit */
	bool		*cens;		/* ngroups * nseries: "≥ timeout" (v
					 * NaN: never drawn as a value) */
	bool		*flag;		/* ngroups * nseries: a bar pathstat
					 * check flagged (all of a group's
					 * when the finding is the cell's) */
	bool		*gflag;		/* ngroups: the whole group flagged */
	size_t		nflag;		/* how many marks */
};

static void
bars_free(struct bars *br)
{
	size_t i;

	for (i = 0; i < br->ngroups; i++) {
		free(br->glabel[i]);
		free(br->gextra[i]);
	}
	for (i = 0; i < br->nseries; i++)
		free(br->sname[i]);
	free(br->gid);
	free(br->glabel);
	free(br->gextra);
	free(br->sname);
	free(br->v);
	free(br->cens);
	free(br->flag);
	free(br->gflag);
}

/* The bottom of a log axis of bars: well below the smallest bar (at
 * least half a decade, on a 1-2-5 step) so that 0.102 is not a sliver
 * above 0.1; NaN when no bar is above 0. */
static double
bars_log_bottom(const struct bars *br)
{
	double lo = INFINITY;
	size_t i;

	for (i = 0; i < br->ngroups * br->nseries; i++)
		if (isfinite(br->v[i]) && br->v[i] > 0)
			lo = fmin(lo, br->v[i]);
	return isfinite(lo) ? chart_log_floor(lo / sqrt(10.0)) : NAN;
}

/* Where the mark of flagged bar k of group g sits: half way up the bar
 * itself, inside it and clear of its value label above it (on a log
 * axis half way between the axis' bottom and its top, in log terms);
 * NaN when the bar has no value. */
static double
bars_flag_y(const struct chart *ch, const struct bars *br, size_t g, size_t k)
{
	double v = br->v[g * br->nseries + k], bottom;

	if (!isfinite(v))
		return NAN;
	if (!ch->logscale)
		return v / 2;
	bottom = bars_log_bottom(br);
	return isfinite(bottom) && v > bottom ? sqrt(bottom * v) : NAN;
}

static void
bars_script(struct chart *ch, const struct bars *br)
{
	double width = 0.8, bw = width / (double)br->nseries;
	size_t g, k, lines = 1, cols = chart_group_columns(ch, br->ngroups);
	struct strbuf y = STRBUF_INIT, tics = STRBUF_INIT;

	for (g = 0; g < br->ngroups; g++) {
		size_t n;

		if (g)
			strbuf_addstr(&tics, ", \\\n    ");
		n = chart_gp_tic_label(&tics, br->gid[g],
		    report_path_label(ch->s, br->gid[g]), br->gextra[g], cols);
		strbuf_addf(&tics, " %zu", g);
		if (n > lines)
			lines = n;
	}
	strbuf_addf(&ch->pre, "set style fill solid 0.9 border lc rgb "
	    "'#333333'\nset boxwidth %.4f absolute\nset xrange [-0.6:%zu.4]\n"
	    "set bmargin %zu\n"
	    KEY_ABOVE,
	    bw * 0.92, br->ngroups - 1, lines + 3);
	if (ch->logscale) {
		/* bars grow from the bottom of a log axis: start it well
		 * below the smallest bar (at least half a decade, on a 1-2-5
		 * step) so that 0.102 is not a sliver above 0.1 */
		double hi = 0.0, bottom = bars_log_bottom(br);
		size_t i;

		for (i = 0; i < br->ngroups * br->nseries; i++)
			if (isfinite(br->v[i]) && br->v[i] > 0)
				hi = fmax(hi, br->v[i]);
		strbuf_addstr(&ch->pre, "set logscale y\n");
		if (isfinite(bottom)) {
			strbuf_addf(&ch->pre, "set yrange [%.6g:%.6g]\n",
			    bottom, chart_finite(hi * 2.0));
			chart_log_tics(&ch->pre, "y", bottom,
			    chart_finite(hi * 2.0));
		}
	} else {
		double hi = 0.0;
		size_t i;

		for (i = 0; i < br->ngroups * br->nseries; i++)
			if (isfinite(br->v[i]))
				hi = fmax(hi, br->v[i]);
		/* all bars 0 (no retransmits): an axis to 1, not an empty
		 * range gnuplot warns about */
		strbuf_addstr(&ch->pre, hi > 0 ? "set yrange [0:*]\n"
		    "set offsets 0, 0, graph 0.06, 0\n" : "set yrange [0:1]\n");
	}
	chart_axis_label(ch, &y);
	chart_gp_set(&ch->pre, "ylabel", y.buf);
	strbuf_addf(&ch->pre, "set xtics (%s) noenhanced\n", tics.buf);
	/* cells with no data say so instead of showing nothing */
	for (g = 0; g < br->ngroups; g++) {
		for (k = 0; k < br->nseries; k++) {
			double x = (double)g - width / 2 +
			    bw * ((double)k + 0.5);

			if (isfinite(br->v[g * br->nseries + k]))
				continue;
			strbuf_addf(&ch->pre, "set label '%s' at "
			    "%.4f, graph 0.03 left rotate by 90 font small "
			    "tc rgb '#555555' noenhanced\n",
			    br->cens[g * br->nseries + k] ? "≥ timeout" :
			    "not measured", x);
		}
	}
	strbuf_addstr(&ch->plot, "plot \\\n");
	for (k = 0; k < br->nseries; k++) {
		double off = -width / 2 + bw * ((double)k + 0.5);
		const char *idx = br->nflag ? " index 0" : "";

		strbuf_addstr(&ch->plot, "    ");
		chart_plot_source(ch, &ch->plot, k == 0);
		strbuf_addf(&ch->plot, "%s using ($1%+.4f):%zu with boxes "
		    "lt %zu dt solid title ", idx, off, k + 2, k + 1);
		escape_gnuplot(&ch->plot, br->sname[k]);
		strbuf_addf(&ch->plot, ", \\\n    ''%s using ($1%+.4f):%zu:"
		    "(sprintf('%%.%df', $%zu)) with labels offset 0,0.6 "
		    "font small notitle%s\n", idx, off, k + 2, ch->dec, k + 2,
		    k + 1 < br->nseries || br->nflag ? ", \\" : "");
	}
	if (br->nflag) {
		struct strbuf key = STRBUF_INIT;

		chart_flag_legend(ch, &key, true);
		strbuf_addstr(&ch->plot, "    '' index 1 using 1:2 with points "
		    CHART_FLAG_STYLE " title ");
		escape_gnuplot(&ch->plot, key.buf);
		strbuf_addch(&ch->plot, '\n');
		strbuf_release(&key);
	}
	strbuf_release(&y);
	strbuf_release(&tics);
}

static void
bars_data(struct chart *ch, const struct bars *br)
{
	size_t g, k;

	strbuf_addstr(&ch->what, "columns: x (group index), then one column "
	    "per series:");
	for (k = 0; k < br->nseries; k++)
		strbuf_addf(&ch->what, " %s", br->sname[k]);
	strbuf_addf(&ch->what, " (in %s; NaN = not measured, or ≥ timeout "
	    "where a '# censored' line says so: the statistic of all "
	    "attempts reads a timed-out one and has no value)", ch->unit);
	chart_dat_head(ch);
	for (g = 0; g < br->ngroups; g++) {
		chart_dat_label(ch, "group", g, br->glabel[g]);
	}
	for (g = 0; g < br->ngroups; g++) {
		for (k = 0; k < br->nseries; k++)
			if (br->cens[g * br->nseries + k])
				strbuf_addf(&ch->dat, "# censored: group %zu "
				    "%s ≥ timeout\n", g, br->sname[k]);
		strbuf_addf(&ch->dat, "%zu", g);
		for (k = 0; k < br->nseries; k++) {
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat, br->v[g * br->nseries + k]);
		}
		strbuf_addch(&ch->dat, '\n');
	}
	if (!br->nflag)
		return;
	strbuf_addf(&ch->dat, "\n\n# index 1: x, y of each mark (%s) of a "
	    "bar or group pathstat check flagged\n", CHART_FLAG_MARK);
	/* a flagged group marks each of its bars: one mark over the
	 * group would sit between bars or in a shorter bar's label */
	for (g = 0; g < br->ngroups; g++) {
		for (k = 0; k < br->nseries; k++) {
			double bw = 0.8 / (double)br->nseries;

			double y = bars_flag_y(ch, br, g, k);

			/* no bar (≥ timeout, not measured): no mark; the
			 * caption names the cell */
			if ((!br->gflag[g] && !br->flag[g * br->nseries + k]) ||
			    !isfinite(y))
				continue;
			chart_gp_num(&ch->dat, (double)g - 0.4 +
			    bw * ((double)k + 0.5));
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat, y);
			strbuf_addch(&ch->dat, '\n');
		}
	}
}

/* The arrays of ngroups groups of nseries bars (nseries set). */
static void
bars_alloc(struct bars *br, size_t ngroups)
{
	br->ngroups = ngroups;
	br->gid = xcalloc(ngroups + 1, sizeof(char *));
	br->glabel = xcalloc(ngroups + 1, sizeof(char *));
	br->gextra = xcalloc(ngroups + 1, sizeof(char *));
	br->v = xcalloc(ngroups * br->nseries + 1, sizeof(double));
	br->cens = xcalloc(ngroups * br->nseries + 1, sizeof(bool));
	br->flag = xcalloc(ngroups * br->nseries + 1, sizeof(bool));
	br->gflag = xcalloc(ngroups + 1, sizeof(bool));
}

/* Series: the pivot's condition columns; groups: its rows.  A cell the
 * pivot shows as "≥ timeout" has no number (pivot.c); one whose
 * footnotes hold a finding of pathstat check is flagged. */
static void
bars_from_pivot(struct chart *ch, const struct table *pivot, struct bars *br)
{
	size_t r, k, j;

	br->sname = xcalloc(pivot->ncols + 1, sizeof(char *));
	for (k = 0; k < ch->s->ncols || (!ch->s->ncols && k + 2 <
	    pivot->ncols); k++) {
		if (ch->s->ncols && ch->s->cols[k].derive)
			continue;
		br->sname[br->nseries++] = xstrdup(pivot->cols[k + 2].header);
	}
	bars_alloc(br, pivot->nrows);
	for (r = 0; r < pivot->nrows; r++) {
		br->gid[r] = (char *)chart_str_at(pivot, r, 0);
		br->glabel[r] = chart_cell_label(ch->s, br->gid[r], "", false,
		    NULL);
		for (k = 0, j = 0; k + 2 < pivot->ncols; k++) {
			const char *d;
			size_t i = r * br->nseries + j;

			if (ch->s->ncols && ch->s->cols[k].derive)
				continue;
			d = table_cell_display(pivot,
			    &pivot->cells[r * pivot->ncols + k + 2]);
			br->cens[i] = d && !strncmp(d, "≥ timeout",
			    strlen("≥ timeout"));
			if (d && strstr(d, "[^")) {
				struct strbuf w = STRBUF_INIT;

				strbuf_addf(&w, "%s · %s", br->gid[r],
				    br->sname[j]);
				if (chart_flag_marks(ch, d, w.buf)) {
					br->flag[i] = true;
					br->nflag++;
				}
				strbuf_release(&w);
			}
			br->v[i] = table_num(pivot, r, (long)k + 2);
			j++;
		}
	}
}

/* The text under group r of t: its condition (when they differ) and
 * dimensions, or NULL (the caller frees it). */
static char *
bars_extra(const struct table *t, size_t r, long cc, bool sev,
    const struct strbuf *dims)
{
	struct strbuf e = STRBUF_INIT;

	if (!sev && !dims->len)
		return NULL;
	if (sev)
		strbuf_addstr(&e, *chart_str_at(t, r, cc) ?
		    chart_str_at(t, r, cc) : "no condition");
	if (dims->len)
		strbuf_addf(&e, "%s%s", e.len ? ", " : "", dims->buf);
	return strbuf_detach(&e, NULL);
}

/* Series: the section's percentiles; groups: the rows of t, its
 * percentiles table.  A "≥ timeout" statistic is no bar (the successes'
 * value is not the statistic); a cell pathstat check flagged is marked.
 * Returns 0, or -1 after printing (no percentile to draw). */
static int
bars_from_table(struct chart *ch, const struct table *t,
    const struct analyze_opts *o, struct bars *br)
{
	long pc = table_col(t, "path"), cc = table_col(t, "condition");
	bool sev = chart_several_conditions(t);
	struct strbuf sb = STRBUF_INIT, ge = STRBUF_INIT;
	size_t r, k, j;

	br->sname = xcalloc(o->nstats + 1, sizeof(char *));
	for (j = 0; j < o->nstats; j++)
		if (o->stats[j].kind == STATS_NAME_PCT)
			br->sname[br->nseries++] = xstrdup(o->stat_names[j]);
	if (!br->nseries) {
		report_spec_error(ch->b->spec, ch->c->loc, "a bars chart shows "
		    "percentiles: the section's stats have none");
		return -1;
	}
	bars_alloc(br, t->nrows);
	for (r = 0; r < t->nrows; r++) {
		chart_dims_text(t, o, r, NULL, &sb);
		br->gid[r] = (char *)chart_str_at(t, r, pc);
		if (chart_flag_cell(ch, br->gid[r], chart_str_at(t, r, cc), 0)) {
			br->gflag[r] = true;
			br->nflag++;
		}
		br->glabel[r] = chart_cell_label(ch->s, br->gid[r],
		    chart_str_at(t, r, cc), sev, sb.buf);
		br->gextra[r] = bars_extra(t, r, cc, sev, &sb);
		for (k = 0; k < br->nseries; k++) {
			size_t i = r * br->nseries + k;
			long gc;

			strbuf_reset(&ge);
			strbuf_addf(&ge, "%s_ge_timeout", br->sname[k]);
			gc = table_col(t, ge.buf);
			br->cens[i] = gc >= 0 && table_num(t, r, gc) == 1;
			br->v[i] = br->cens[i] ? NAN : table_num(t, r,
			    table_col(t, br->sname[k]));
		}
	}
	strbuf_release(&sb);
	strbuf_release(&ge);
	return 0;
}

/* At most REPORT_CHART_MAX_GROUPS groups: those of the lowest and the
 * highest first bar and evenly between, in their order (the others
 * freed); the caption says how many were left out. */
static void
bars_cap(struct chart *ch, struct bars *br)
{
	double *key;
	bool *keep;
	size_t g, m = 0, k, ns = br->nseries, nkept, nflag = 0;

	if (br->ngroups <= REPORT_CHART_MAX_GROUPS)
		return;
	key = xcalloc(br->ngroups + 1, sizeof(double));
	for (g = 0; g < br->ngroups; g++)
		key[g] = br->v[g * ns];
	keep = chart_pick(key, br->ngroups, REPORT_CHART_MAX_GROUPS, &nkept);
	for (g = 0; g < br->ngroups; g++) {
		if (!keep[g]) {
			free(br->glabel[g]);
			free(br->gextra[g]);
			continue;
		}
		br->gid[m] = br->gid[g];
		br->glabel[m] = br->glabel[g];
		br->gextra[m] = br->gextra[g];
		br->gflag[m] = br->gflag[g];
		nflag += br->gflag[m];
		for (k = 0; k < ns; k++) {
			br->v[m * ns + k] = br->v[g * ns + k];
			br->cens[m * ns + k] = br->cens[g * ns + k];
			br->flag[m * ns + k] = br->flag[g * ns + k];
			nflag += br->flag[m * ns + k];
		}
		m++;
	}
	strbuf_addf(&ch->note, "; %zu of %zu groups drawn (those of the "
	    "lowest and the highest %s and evenly between; the table has "
	    "every cell)", m, br->ngroups, ns ? br->sname[0] : "value");
	br->ngroups = m;
	br->nflag = nflag;
	free(key);
	free(keep);
}

int
chart_bars(struct chart *ch, const struct table *pivot)
{
	struct analyze_opts o;
	struct table t;
	struct bars br;
	struct strbuf counts = STRBUF_INIT;
	size_t r;
	int ret = -1;

	memset(&br, 0, sizeof(br));
	table_init(&t);
	if (pivot) {
		if (report_section_opts(ch->b->spec, ch->s, &o))
			return -1;
		bars_from_pivot(ch, pivot, &br);
		strbuf_addstr(&counts, "; bars as in the table above");
	} else {
		if (chart_table(ch, "percentiles", NULL, -1, &o, &t))
			return -1;
		if (bars_from_table(ch, &t, &o, &br))
			goto cleanup;
		chart_count_words(&t, "bar", &counts);
	}
	/* the unit from the bars themselves, then the values in it */
	chart_choose_unit(ch, br.v, br.ngroups * br.nseries);
	for (r = 0; r < br.ngroups * br.nseries; r++)
		br.v[r] *= ch->scale;
	bars_cap(ch, &br);
	chart_log_usable(ch, br.v, br.ngroups * br.nseries);
	chart_describe(ch, &o, counts.buf);
	bars_data(ch, &br);
	bars_script(ch, &br);
	ret = 0;
cleanup:
	analyze_opts_release(&o);
	table_release(&t);
	bars_free(&br);
	strbuf_release(&counts);
	return ret;
}
