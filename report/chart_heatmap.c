/*
 * chart_heatmap.c - a statistic per hour of the day and day, for one
 * path: where a month's trouble sits in time (four lossy hours on one
 * day, a daily busy hour) shows as a patch, which a line per day hides.
 * Cells whose statistic read a timed-out probe are marked, since their
 * colour is a lower bound.  Days on the x axis are labelled as MM-DD,
 * thinned to at most about a dozen labels.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/chart.h"
#include "report/internal.h"

/* At most this many day labels on the x axis. */
#define HEATMAP_MAX_XTICS	12

static int
cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The colour range of the cells' values v (ndays * 24, NaN where no
 * run): gnuplot's own from the data, or one around a single value (all
 * cells equal: an empty range it would only warn about). */
static void
heatmap_cbrange(struct chart *ch, const double *v, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < n; i++)
		if (isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	if (!isfinite(lo)) {
		strbuf_addstr(&ch->pre, "set cbrange [0:1]\n"
		    "set label 'no values' at graph 0.5, graph 0.5 center "
		    "tc rgb '#555555'\n");
	} else if (lo == hi) {
		double pad = lo != 0 ? fabs(lo) * 0.1 : 1.0;

		strbuf_addstr(&ch->pre, "set cbrange [");
		chart_gp_num(&ch->pre, lo - pad);
		strbuf_addch(&ch->pre, ':');
		chart_gp_num(&ch->pre, hi + pad);
		strbuf_addstr(&ch->pre, "]\n");
	}
}

/* The script: MM-DD x tics (every step-th day, rotated), hours up the
 * y axis, a filled box per cell that has a value (not an image: gnuplot
 * 5.4 draws no image of a grid that is mostly NaN, as a campaign run
 * at one hour a day makes), and × on the cells that read a timed-out
 * probe (ncens of them). */
static void
heatmap_script(struct chart *ch, const char *const *days, size_t ndays,
    const char *stat, size_t ncens)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, step;

	step = ndays > HEATMAP_MAX_XTICS ? (ndays + HEATMAP_MAX_XTICS - 1) /
	    HEATMAP_MAX_XTICS : 1;
	strbuf_addstr(&ch->pre, "set xtics rotate by 45 right (");
	for (i = 0; i < ndays; i += step) {
		const char *d = days[i];

		strbuf_addf(&ch->pre, "%s", i ? ", " : "");
		escape_gnuplot(&ch->pre, strlen(d) == 10 ? d + 5 : d);
		strbuf_addf(&ch->pre, " %zu", i);
	}
	strbuf_addstr(&ch->pre, ")\nset ytics 0, 3, 23\n"
	    "set xrange [-0.5:");
	strbuf_addf(&ch->pre, "%zu.5]\nset yrange [-0.5:23.5]\n",
	    ndays ? ndays - 1 : 0);
	strbuf_addstr(&ch->pre, ncens ? "set key at graph 1, graph 1.02 "
	    "right bottom horizontal noopaque nobox\n" : "unset key\n");
	strbuf_addstr(&ch->pre, "set bmargin 6.5\nset grid noxtics noytics\n"
	    "set style fill solid 1.0 noborder\n"
	    "set palette defined (0 '#fff5eb', 0.5 '#fd8d3c', 1 '#7f2704')\n");
	strbuf_addf(&sb, "Day (UTC, %s..%s)", ndays ? days[0] : "",
	    ndays ? days[ndays - 1] : "");
	chart_gp_set(&ch->pre, "xlabel", sb.buf);
	chart_gp_set(&ch->pre, "ylabel", "Hour (UTC)");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s (%s)", stat, ch->unit);
	chart_gp_set(&ch->pre, "cblabel", sb.buf);
	strbuf_addstr(&ch->plot, "plot ");
	chart_plot_source(ch, &ch->plot, true);
	strbuf_addstr(&ch->plot, " using 1:2:(0.5):(0.5):3 with boxxyerror "
	    "fc palette notitle");
	if (ncens) {
		strbuf_addstr(&ch->plot, ", ");
		chart_plot_source(ch, &ch->plot, false);
		strbuf_addstr(&ch->plot, " using ($4 > 0 ? $1 : NaN):2 with "
		    "points pt 2 ps 1.2 lc rgb '#000000' title '≥ timeout'");
	}
	strbuf_addch(&ch->plot, '\n');
	strbuf_release(&sb);
}

int
chart_heatmap(struct chart *ch)
{
	static const char *const by[] = { "day", "hour", NULL };
	struct analyze_opts o;
	struct table t;
	struct strbuf sb = STRBUF_INIT;
	const char **days = NULL, *stat;
	double *v = NULL;
	char *cens = NULL, *gekey = NULL;
	size_t ndays = 0, r, i, h, js, ncens = 0;
	long dc, hc, sc, gc;
	int ret = -1;

	if (chart_table_stat(ch, "percentiles", by, -1, &o, &t))
		return -1;
	if (chart_stat_table(ch, &o, &t))
		goto cleanup;
	js = chart_stat(ch, &o);
	stat = js < o.nstats ? o.stat_names[js] : "p50";
	dc = table_col(&t, "day");
	hc = table_col(&t, "hour");
	sc = table_col(&t, stat);
	gekey = xasprintf("%s_ge_timeout", stat);
	gc = table_col(&t, gekey);
	chart_choose_unit_col(ch, &t, sc);
	days = xcalloc(t.nrows + 1, sizeof(char *));
	for (r = 0; r < t.nrows; r++) {
		const char *d = chart_str_at(&t, r, dc);

		for (i = 0; i < ndays; i++)
			if (!strcmp(days[i], d))
				break;
		if (i == ndays)
			days[ndays++] = d;
	}
	qsort(days, ndays, sizeof(*days), cmp_cstr);
	v = xcalloc(ndays * 24 + 1, sizeof(double));
	cens = xcalloc(ndays * 24 + 1, 1);
	for (i = 0; i < ndays * 24; i++)
		v[i] = NAN;
	for (r = 0; r < t.nrows; r++) {
		const char *d = chart_str_at(&t, r, dc);
		long hour = strtol(chart_str_at(&t, r, hc), NULL, 10);

		if (hour < 0 || hour > 23)
			continue;
		for (i = 0; i < ndays; i++)
			if (!strcmp(days[i], d))
				break;
		v[i * 24 + (size_t)hour] = table_num(&t, r, sc) * ch->scale;
		if (gc >= 0 && table_num(&t, r, gc) > 0) {
			cens[i * 24 + (size_t)hour] = 1;
			ncens++;
		}
	}

	strbuf_addf(&ch->what, "x = day (0 = %s), y = hour (UTC), %s in %s, "
	    "censored (1: read a timed-out probe, a lower bound)",
	    ndays ? days[0] : "", stat, ch->unit);
	chart_dat_head(ch);
	for (i = 0; i < ndays; i++) {
		chart_dat_label(ch, "day", i, days[i]);
		for (h = 0; h < 24; h++) {
			strbuf_addf(&ch->dat, "%zu %zu ", i, h);
			chart_gp_num(&ch->dat, v[i * 24 + h]);
			strbuf_addf(&ch->dat, " %d\n", cens[i * 24 + h]);
		}
		strbuf_addch(&ch->dat, '\n');
	}

	heatmap_cbrange(ch, v, ndays * 24);
	heatmap_script(ch, days, ndays, stat, ncens);

	strbuf_reset(&sb);
	strbuf_addf(&sb, "; %zu days × 24 hours; each cell the %s of that "
	    "hour's runs (blank: no run that hour)", ndays, stat);
	if (ncens)
		strbuf_addf(&sb, "; %zu cell%s marked × read a timed-out probe "
		    "(≥ timeout: the colour is a lower bound)", ncens,
		    ncens == 1 ? "" : "s");
	chart_describe(ch, &o, sb.buf);
	ret = 0;
cleanup:
	analyze_opts_release(&o);
	table_release(&t);
	free(days);
	free(v);
	free(cens);
	free(gekey);
	strbuf_release(&sb);
	return ret;
}
