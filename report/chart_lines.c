/*
 * chart_lines.c - lines over categories: the relative chart (each
 * statistic as % of the cell's p50, x = statistics) and a statistic per
 * day (x = days, one line per path).
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

struct lines {
	size_t		nx, nlines;
	char		**x;		/* x category names (owned) */
	char		**label;	/* line labels (owned) */
	double		*v;		/* nlines * nx, chart unit */
};

static void
lines_free(struct lines *ln)
{
	size_t i;

	for (i = 0; i < ln->nx; i++)
		free(ln->x[i]);
	for (i = 0; i < ln->nlines; i++)
		free(ln->label[i]);
	free(ln->x);
	free(ln->label);
	free(ln->v);
}

static void
lines_write(struct chart *ch, const struct lines *ln, const char *ylabel,
    const char *xlabel, const char *xwhat, int labels_dec, bool from_zero)
{
	size_t i, k;

	strbuf_addf(&ch->what, "columns: x (index of the %s), then one "
	    "column per line (NaN = not measured)", xwhat);
	chart_dat_head(ch);
	for (i = 0; i < ln->nx; i++) {
		chart_dat_label(ch, "x", i, ln->x[i]);
	}
	for (k = 0; k < ln->nlines; k++) {
		chart_dat_label(ch, "column", k + 2, ln->label[k]);
	}
	for (i = 0; i < ln->nx; i++) {
		strbuf_addf(&ch->dat, "%zu", i);
		for (k = 0; k < ln->nlines; k++) {
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat, ln->v[k * ln->nx + i]);
		}
		strbuf_addch(&ch->dat, '\n');
	}

	strbuf_addf(&ch->pre, "set xrange [-0.3:%zu.3]\n"
	    "set bmargin 5\n", ln->nx - 1);
	if (ch->c->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	else if (from_zero)
		strbuf_addstr(&ch->pre, "set yrange [0:*]\n"
		    "set offsets 0, 0, graph 0.08, 0\n");
	else
		strbuf_addstr(&ch->pre, "set offsets 0, 0, graph 0.08, graph "
		    "0.05\n");
	chart_gp_set(&ch->pre, "ylabel", ylabel);
	chart_gp_set(&ch->pre, "xlabel", xlabel);
	strbuf_addstr(&ch->pre, "set xtics (");
	for (i = 0; i < ln->nx; i++) {
		if (i)
			strbuf_addstr(&ch->pre, ", ");
		report_gp_quote(&ch->pre, ln->x[i]);
		strbuf_addf(&ch->pre, " %zu", i);
	}
	strbuf_addstr(&ch->pre, ") noenhanced\n");
	chart_key_above(ch, ln->label, ln->nlines);
	strbuf_addstr(&ch->plot, "plot \\\n");
	for (k = 0; k < ln->nlines; k++) {
		strbuf_addstr(&ch->plot, "    ");
		chart_plot_source(ch, &ch->plot, k == 0);
		strbuf_addf(&ch->plot, " using 1:%zu with linespoints lt %zu "
		    "title ", k + 2, k + 1);
		report_gp_quote(&ch->plot, ln->label[k]);
		/* few points: print each value beside its point */
		if (ln->nx * ln->nlines <= 24)
			strbuf_addf(&ch->plot, ", \\\n    '' using 1:%zu:"
			    "(sprintf('%%.%df', $%zu)) with labels left offset "
			    "0.8,0.5 font small tc lt %zu notitle", k + 2,
			    labels_dec, k + 2, k + 1);
		strbuf_addstr(&ch->plot, k + 1 < ln->nlines ? ", \\\n" : "\n");
	}
}

int
chart_relative(struct chart *ch)
{
	struct analyze_opts o;
	struct table t;
	struct lines ln;
	struct strbuf sb = STRBUF_INIT, counts = STRBUF_INIT;
	size_t r, j;
	long pc, cc;
	bool sev;

	memset(&ln, 0, sizeof(ln));
	if (chart_table(ch, "relative", NULL, -1, &o, &t))
		return -1;
	pc = table_col(&t, "path");
	cc = table_col(&t, "condition");
	sev = chart_several_conditions(&t);
	ln.x = xcalloc(o.nstats + 1, sizeof(char *));
	for (j = 0; j < o.nstats; j++)
		if (o.stats[j].kind != STATS_NAME_N)
			ln.x[ln.nx++] = xstrdup(o.stat_names[j]);
	ln.label = xcalloc(t.nrows + 1, sizeof(char *));
	ln.v = xcalloc(t.nrows * ln.nx + 1, sizeof(double));
	for (r = 0; r < t.nrows; r++) {
		chart_dims_text(&t, &o, r, NULL, &sb);
		ln.label[ln.nlines] = chart_cell_label(ch->s,
		    chart_str_at(&t, r, pc), chart_str_at(&t, r, cc), sev,
		    sb.buf);
		for (j = 0; j < ln.nx; j++)
			ln.v[ln.nlines * ln.nx + j] = table_num(&t, r,
			    table_col(&t, ln.x[j]));
		ln.nlines++;
	}
	chart_count_words(&t, "line", &counts);
	strbuf_addstr(&counts, "; each statistic as % of the same cell's p50 "
	    "(p50 = 100)");
	chart_describe(ch, &o, counts.buf);
	strbuf_addstr(&ch->pre, "set arrow 1 from graph 0, first 100 to graph "
	    "1, first 100 nohead dt 3 lw 1 lc rgb '#777777' back\n");
	lines_write(ch, &ln, "% of the cell's p50 (p50 = 100)", "Statistic",
	    "statistic", 1, false);
	analyze_opts_release(&o);
	table_release(&t);
	lines_free(&ln);
	strbuf_release(&sb);
	strbuf_release(&counts);
	return 0;
}
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}


int
chart_days(struct chart *ch)
{
	static const char *const by_day[] = { "day", NULL };
	struct analyze_opts o;
	struct table t;
	struct lines ln;
	struct strbuf sb = STRBUF_INIT, counts = STRBUF_INIT, y = STRBUF_INIT;
	char **days = NULL, **keys = NULL;
	size_t ndays = 0, nkeys = 0, r, i, k, js;
	long pc, cc, dc, sc;
	bool sev;
	int ret = -1;

	memset(&ln, 0, sizeof(ln));
	if (chart_table(ch, "percentiles", by_day, -1, &o, &t))
		return -1;
	if (chart_stat_table(ch, &o, &t))
		goto cleanup;
	js = chart_stat(ch, &o);
	pc = table_col(&t, "path");
	cc = table_col(&t, "condition");
	dc = table_col(&t, "day");
	sc = js < o.nstats ? table_col(&t, o.stat_names[js]) : -1;
	sev = chart_several_conditions(&t);
	days = xcalloc(t.nrows + 1, sizeof(char *));
	keys = xcalloc(t.nrows + 1, sizeof(char *));
	for (r = 0; r < t.nrows; r++) {
		const char *d = chart_str_at(&t, r, dc);

		for (i = 0; i < ndays; i++)
			if (!strcmp(days[i], d))
				break;
		if (i == ndays)
			days[ndays++] = xstrdup(d);
	}
	qsort(days, ndays, sizeof(char *), cmp_str);
	/* one line per cell (path, condition, other dimensions) */
	for (r = 0; r < t.nrows; r++) {
		chart_dims_text(&t, &o, r, "day", &sb);
		strbuf_addf(&sb, "\x1f%s\x1f%s", chart_str_at(&t, r, pc),
		    chart_str_at(&t, r, cc));
		for (k = 0; k < nkeys; k++)
			if (!strcmp(keys[k], sb.buf))
				break;
		if (k == nkeys)
			keys[nkeys++] = xstrdup(sb.buf);
	}
	ln.nx = ndays;
	ln.x = days;
	days = NULL;
	ln.label = xcalloc(nkeys + 1, sizeof(char *));
	ln.v = xcalloc(nkeys * ln.nx + 1, sizeof(double));
	for (i = 0; i < nkeys * ln.nx; i++)
		ln.v[i] = NAN;
	for (r = 0; r < t.nrows; r++) {
		chart_dims_text(&t, &o, r, "day", &sb);
		strbuf_addf(&sb, "\x1f%s\x1f%s", chart_str_at(&t, r, pc),
		    chart_str_at(&t, r, cc));
		for (k = 0; k < nkeys; k++)
			if (!strcmp(keys[k], sb.buf))
				break;
		for (i = 0; i < ln.nx; i++)
			if (!strcmp(ln.x[i], chart_str_at(&t, r, dc)))
				break;
		if (!ln.label[k]) {
			chart_dims_text(&t, &o, r, "day", &sb);
			ln.label[k] = chart_cell_label(ch->s,
			    chart_str_at(&t, r, pc), chart_str_at(&t, r, cc),
			    sev, sb.buf);
		}
		ln.v[k * ln.nx + i] = table_num(&t, r, sc) * ch->scale;
	}
	ln.nlines = nkeys;
	chart_count_words(&t, "point", &counts);
	strbuf_addf(&counts, "; %s per day", js < o.nstats ?
	    o.stat_names[js] : "?");
	chart_describe(ch, &o, counts.buf);
	strbuf_addf(&y, "%s of %s (%s)", js < o.nstats ? o.stat_names[js] : "",
	    ch->m->title, ch->unit);
	lines_write(ch, &ln, y.buf, "Day (UTC)", "day", ch->dec, true);
	ret = 0;
cleanup:
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	for (i = 0; days && i < ndays; i++)
		free(days[i]);
	free(days);
	analyze_opts_release(&o);
	table_release(&t);
	lines_free(&ln);
	strbuf_release(&sb);
	strbuf_release(&counts);
	strbuf_release(&y);
	return ret;
}

