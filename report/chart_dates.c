/*
 * chart_dates.c - what a chart with a day per x position adds to its
 * script after the axis is drawn (chart_lines.c's own tic loop is left
 * as it is): day labels a month can hold (thinned to about a dozen,
 * MM-DD, rotated), a mark on each point whose statistic read a
 * timed-out probe (its value is a lower bound, not a latency), and a
 * dashed line at each change point `analyze trend` finds.
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

/* At most about this many day labels. */
#define DATES_MAX_XTICS		12
/* gnuplot label and arrow tags of the marks, above the charts' own. */
#define DATES_TAG_BASE		200

void
chart_date_axis(struct chart *ch, char *const *days, size_t ndays)
{
	size_t i, step;

	if (ndays <= DATES_MAX_XTICS)
		return;
	step = (ndays + DATES_MAX_XTICS - 1) / DATES_MAX_XTICS;
	/* replaces the set xtics before it: one label every step days */
	strbuf_addstr(&ch->pre, "set xtics rotate by 45 right (");
	for (i = 0; i < ndays; i += step) {
		const char *d = days[i];

		if (i)
			strbuf_addstr(&ch->pre, ", ");
		escape_gnuplot(&ch->pre, strlen(d) == 10 ? d + 5 : d);
		strbuf_addf(&ch->pre, " %zu", i);
	}
	strbuf_addstr(&ch->pre, ") noenhanced\n");
	strbuf_addf(&ch->pre, "set xlabel 'Day (UTC, %s..%s)'\n",
	    strlen(days[0]) == 10 ? days[0] : "",
	    strlen(days[ndays - 1]) == 10 ? days[ndays - 1] : "");
}

static size_t
day_index(char *const *days, size_t ndays, const char *d)
{
	size_t i;

	for (i = 0; i < ndays; i++)
		if (!strcmp(days[i], d))
			return i;
	return ndays;
}

/* analyze trend by day of the section's statistics when they list the
 * chart's (each statistic's series is fitted on its own, from a fixed
 * seed: the same change points), else of the chart's statistic alone.
 * As chart_table(): 0, or -1 after saying why. */
static int
day_trend(struct chart *ch, const char *stat, struct analyze_opts *o,
    struct table *t)
{
	static const char *const by_day[] = { "day", NULL };
	struct strbuf why = STRBUF_INIT;
	int bad;

	size_t i;

	table_init(t);
	if (report_section_opts(ch->b->spec, ch->s, o))
		return -1;
	/* the section lists it: its own list, the table a trend section
	 * of the same options builds (the report's table memo copies it) */
	for (i = 0; i < o->nstats; i++)
		if (!strcmp(o->stat_names[i], stat))
			return chart_table_opts(ch, "trend", by_day, -1, o, t);
	bad = analyze_opts_set_stats(o, stat, &why);
	strbuf_release(&why);
	if (bad) {	/* not a list trend takes alone: the section's */
		analyze_opts_release(o);
		return chart_table(ch, "trend", by_day, -1, o, t);
	}
	return chart_table_opts(ch, "trend", by_day, -1, o, t);
}

size_t
chart_day_marks(struct chart *ch, const struct table *t, const char *stat,
    char *const *days, size_t ndays)
{
	struct analyze_opts o;
	struct table tr;
	char *gekey = xasprintf("%s_ge_timeout", stat);
	long dc = table_col(t, "day"), sc = table_col(t, stat);
	long gc = table_col(t, gekey), pc = table_col(t, "path");
	size_t r, tag = DATES_TAG_BASE, ncens = 0, nchange = 0;

	/* censored points: a cross on the point, and the words once */
	for (r = 0; gc >= 0 && r < t->nrows; r++) {
		size_t i = day_index(days, ndays, chart_str_at(t, r, dc));
		double y = table_num(t, r, sc) * ch->scale;

		if (table_num(t, r, gc) <= 0 || i == ndays || !isfinite(y))
			continue;
		strbuf_addf(&ch->pre, "set label %zu '≥ timeout' at %zu, ",
		    tag++, i);
		chart_gp_num(&ch->pre, y);
		/* the words end left of the cross: a loss bar's label
		 * (chart_lines.c) starts right of its day */
		strbuf_addstr(&ch->pre, " right point pt 2 ps 2 lc rgb "
		    "'#000000' offset -0.6,0.6 noenhanced font small\n");
		ncens++;
	}
	free(gekey);
	/* change points: analyze trend's, for the chart's statistic; on a
	 * month's axis only (a few days have none worth the query) */
	if (ndays > DATES_MAX_XTICS && day_trend(ch, stat, &o, &tr) == 0) {
		long cpc = table_col(&tr, "change_points");
		long stc = table_col(&tr, "stat");
		long tpc = table_col(&tr, "path");

		for (r = 0; cpc >= 0 && r < tr.nrows; r++) {
			const char *cp = chart_str_at(&tr, r, cpc);
			char *list, *p, *d;

			if (stc >= 0 && strcmp(chart_str_at(&tr, r, stc), stat))
				continue;
			list = xstrdup(cp);
			p = list;
			while ((d = strsep(&p, ", ")) != NULL) {
				size_t i = day_index(days, ndays, d);

				if (!*d || i == ndays)
					continue;
				strbuf_addf(&ch->pre, "set arrow %zu from %zu, "
				    "graph 0 to %zu, graph 1 nohead dt 3 lw 1.5 "
				    "lc rgb '#555555'\n", tag++, i, i);
				strbuf_addf(&ch->pre, "set label %zu ", tag++);
				{
					struct strbuf l = STRBUF_INIT;

					strbuf_addf(&l, "%s changes %s",
					    chart_str_at(&tr, r, tpc),
					    strlen(d) == 10 ? d + 5 : d);
					escape_gnuplot(&ch->pre, l.buf);
					strbuf_release(&l);
				}
				strbuf_addf(&ch->pre, " at %zu, graph 0.96 left "
				    "offset 0.4,0 noenhanced font small tc rgb "
				    "'#555555'\n", i);
				nchange++;
			}
			free(list);
		}
		analyze_opts_release(&o);
		table_release(&tr);
	}
	(void)pc;
	if (ncens)
		strbuf_addf(&ch->cap, "; × marks %zu point%s that read a "
		    "timed-out probe (≥ timeout: a lower bound, not a "
		    "latency)", ncens, ncens == 1 ? "" : "s");
	if (nchange)
		strbuf_addf(&ch->cap, "; dashed: %zu change point%s analyze "
		    "trend finds", nchange, nchange == 1 ? "" : "s");
	return ncens + nchange;
}
