/*
 * month.c - calendar sections: a month of monitoring read as a
 * calendar, not as a list.  "days": one row per day, a column per path
 * and statistic (30 rows where `percentiles --by day` gives 150);
 * "loss": each day's loss % the same way, so a lossy day stands out
 * beside latency; "weeks": each path's ISO weeks with the week-over-week
 * change of the first statistic and its interval.  All three lay out a
 * `percentiles --by day` (or `--by week`) table the section's query
 * built; censored cells keep the "≥ timeout" analyze gives them.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/options.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/units.h"
#include "common/xalloc.h"
#include "report/internal.h"

static int
cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct values of column col of t, in order of appearance
 * (borrowed from t); sorted when sort. */
static const char **
distinct_col(const struct table *t, long col, bool sort, size_t *n)
{
	const char **v = xcalloc(t->nrows + 1, sizeof(char *));
	size_t r, i;

	*n = 0;
	for (r = 0; r < t->nrows; r++) {
		const char *s = table_str(t, r, col);

		if (!s)
			s = "";
		for (i = 0; i < *n; i++)
			if (!strcmp(v[i], s))
				break;
		if (i == *n)
			v[(*n)++] = s;
	}
	if (sort)
		qsort(v, *n, sizeof(*v), cmp_cstr);
	return v;
}

/* Row of t for (path, cond, key value) or SIZE_MAX. */
static size_t
find_row(const struct table *t, long pc, long cc, long kc, const char *path,
    const char *cond, const char *key)
{
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		const char *p = table_str(t, r, pc), *c = table_str(t, r, cc);
		const char *k = table_str(t, r, kc);

		if (p && !strcmp(p, path) && !strcmp(c ? c : "", cond) && k &&
		    !strcmp(k, key))
			return r;
	}
	return SIZE_MAX;
}

/* Copy cell (r, sc) of t into (row, col) of pt with its display
 * ("≥ timeout" for a censored one), or "–" when there is none. */
static void
copy_value(const struct table *t, size_t r, long sc, struct table *pt,
    size_t row, size_t col, int decimals)
{
	const struct table_cell *v;
	struct strbuf sb = STRBUF_INIT;

	if (r == SIZE_MAX || sc < 0) {
		table_set_null(pt, row, col);
		table_set_display_raw(pt, row, col, "–");
		return;
	}
	v = &t->cells[r * t->ncols + (size_t)sc];
	if (v->type == CELL_NUM)
		table_set_num(pt, row, col, v->num);
	else if (v->type == CELL_INT)
		table_set_num(pt, row, col, (double)v->i);
	if (v->display)
		strbuf_addstr(&sb, table_cell_display(t, v));
	else if (v->type == CELL_NUM)
		md_number(&sb, v->num, decimals);
	else if (v->type == CELL_INT)
		md_number(&sb, (double)v->i, decimals);
	else
		strbuf_addstr(&sb, "–");
	table_set_display_raw(pt, row, col, sb.buf);
	strbuf_release(&sb);
}

/* "A" or "A c=16" when the table holds several conditions. */
static char *
cell_name(const char *path, const char *cond, bool several)
{
	if (several && *cond)
		return xasprintf("%s %s", path, cond);
	return xstrdup(path);
}

/* days and loss: a row per day, a column per (path, condition) and
 * statistic. */
static void
days_build(const struct report_section *s, const struct analyze_opts *o,
    const struct table *t, struct table *pt, struct strbuf *cap)
{
	long pc = table_col(t, "path"), cc = table_col(t, "condition");
	long dc = table_col(t, "day");
	bool loss = s->calendar == REPORT_CAL_LOSS;
	const char *unit = t->shown.name ? t->shown.name :
	    metric_by_name(s->metric)->display_unit;
	const char **days, **paths, **conds;
	size_t ndays, npaths, nconds, d, p, c, k, col, row;
	size_t nstats = loss ? 1 : o->nstats, censored = 0, lossy = 0;
	struct strbuf sb = STRBUF_INIT;

	days = distinct_col(t, dc, true, &ndays);
	paths = distinct_col(t, pc, false, &npaths);
	conds = distinct_col(t, cc, true, &nconds);
	table_add_col(pt, "day", "Day", -1);
	for (p = 0; p < npaths; p++)
		for (c = 0; c < nconds; c++)
			for (k = 0; k < nstats; k++) {
				char *name = cell_name(paths[p], conds[c],
				    nconds > 1);
				char *key, *label;

				if (loss) {
					key = xasprintf("%s_loss_pct", name);
					label = xasprintf("%s loss %%", name);
				} else {
					key = xasprintf("%s_%s", name,
					    o->stat_names[k]);
					label = xasprintf("%s %s (%s)", name,
					    o->stat_names[k], unit);
				}
				table_add_col(pt, key, label, -1);
				free(key);
				free(label);
				free(name);
			}
	for (d = 0; d < ndays; d++) {
		row = table_add_row(pt);
		table_set_str(pt, row, 0, days[d]);
		col = 1;
		for (p = 0; p < npaths; p++)
			for (c = 0; c < nconds; c++) {
				size_t r = find_row(t, pc, cc, dc, paths[p],
				    conds[c], days[d]);

				for (k = 0; k < nstats; k++, col++) {
					long sc = table_col(t, loss ?
					    "loss_pct" : o->stat_names[k]);
					const struct table_cell *v;

					copy_value(t, r, sc, pt, row, col,
					    loss ? 1 : (sc >= 0 ?
					    t->cols[sc].decimals : 3));
					if (r == SIZE_MAX || sc < 0)
						continue;
					v = &t->cells[r * t->ncols +
					    (size_t)sc];
					if (!loss && v->display && strstr(
					    table_cell_display(t, v), "≥"))
						censored++;
					if (loss && v->type == CELL_NUM &&
					    v->num > 0)
						lossy++;
				}
			}
	}
	report_caption_method(s, o, t, unit, cap);
	if (loss) {
		strbuf_addstr(cap, "; each cell is the share of one path's "
		    "attempts on that day that failed (timeouts, refusals "
		    "and errors)");
		if (lossy)
			strbuf_addf(cap, "; %zu day-path cell%s lost probes",
			    lossy, lossy == 1 ? "" : "s");
	} else {
		strbuf_addstr(cap, "; each cell is one path's statistic over "
		    "its runs of that day (UTC)");
		if (censored)
			strbuf_addf(cap, "; %zu cell%s read a timed-out probe: "
			    "≥ timeout, a lower bound, not a latency",
			    censored, censored == 1 ? "" : "s");
	}
	strbuf_addf(cap, "; %zu days, %s..%s", ndays, ndays ? days[0] : "",
	    ndays ? days[ndays - 1] : "");
	report_caption_where(s, cap);
	free(days);
	free(paths);
	free(conds);
	strbuf_release(&sb);
}

/* "+1.2 %" */
static void
add_pct(struct strbuf *sb, double v)
{
	strbuf_addf(sb, "%+.1f %%", 100.0 * v);
}

/* weeks: a row per (path, condition, week) with its statistics and the
 * week-over-week change of the first one.  The interval of the change
 * comes from the two weeks' own intervals of the statistic (--ci):
 * [lo_k / hi_k-1 - 1, hi_k / lo_k-1 - 1], which covers the ratio at
 * least as often as the two intervals together cover their values: a
 * conservative interval, not an exact one. */
static void
weeks_build(const struct report_section *s, const struct analyze_opts *o,
    const struct table *t, struct table *pt, struct strbuf *cap)
{
	long pc = table_col(t, "path"), cc = table_col(t, "condition");
	long wc = table_col(t, "week"), nc = table_col(t, "n");
	const char *unit = t->shown.name ? t->shown.name :
	    metric_by_name(s->metric)->display_unit;
	const char *first = o->nstats ? o->stat_names[0] : "p50";
	long sc0 = table_col(t, first);
	struct strbuf sb = STRBUF_INIT;
	char *lo_key = xasprintf("%s_lo", first), *hi_key = xasprintf("%s_hi",
	    first);
	long loc = table_col(t, lo_key), hic = table_col(t, hi_key);
	char *ge_key = xasprintf("%s_ge_timeout", first);
	long gec = table_col(t, ge_key);
	size_t r, k, row, nchg = 0;
	const char *pp = NULL, *pcnd = NULL;
	size_t prev = SIZE_MAX;

	table_add_col(pt, "path", "Path", -1);
	table_add_col(pt, "week", "Week", -1);
	table_add_col(pt, "condition", "Condition", -1);
	table_add_col(pt, "n", "n", -1);
	for (k = 0; k < o->nstats; k++) {
		char *label = xasprintf("%s (%s)", o->stat_names[k], unit);

		table_add_col(pt, o->stat_names[k], label, -1);
		free(label);
	}
	{
		char *key = xasprintf("%s_wow", first);
		char *label = xasprintf("%s week-over-week", first);

		table_add_col(pt, key, label, -1);
		free(key);
		free(label);
	}
	for (r = 0; r < t->nrows; r++) {
		const char *p = table_str(t, r, pc), *c = table_str(t, r, cc);
		size_t col;

		if (!c)
			c = "";
		row = table_add_row(pt);
		table_set_str(pt, row, 0, p ? p : "");
		strbuf_reset(&sb);
		report_path_md(&sb, p ? p : "", report_path_label(s, p ? p :
		    ""));
		table_set_display_raw(pt, row, 0, sb.buf);
		table_set_str(pt, row, 1, table_str(t, r, wc) ?
		    table_str(t, r, wc) : "");
		table_set_str(pt, row, 2, c);
		if (!*c)
			table_set_display_raw(pt, row, 2, "–");
		copy_value(t, r, nc, pt, row, 3, 0);
		for (k = 0, col = 4; k < o->nstats; k++, col++) {
			long sc = table_col(t, o->stat_names[k]);

			copy_value(t, r, sc, pt, row, col, sc >= 0 ?
			    t->cols[sc].decimals : 3);
		}
		/* the change from the same cell's previous week */
		strbuf_reset(&sb);
		if (prev != SIZE_MAX && pp && p && !strcmp(pp, p) &&
		    !strcmp(pcnd, c) && sc0 >= 0) {
			const struct table_cell *a = &t->cells[prev * t->ncols +
			    (size_t)sc0], *b = &t->cells[r * t->ncols +
			    (size_t)sc0];

			/* a censored week (≥ timeout) has no change */
			if (a->type == CELL_NUM && b->type == CELL_NUM &&
			    !(gec >= 0 && (table_num(t, prev, gec) > 0 ||
			    table_num(t, r, gec) > 0)) && a->num > 0) {
				double ch = b->num / a->num - 1.0;

				table_set_num(pt, row, col, ch);
				add_pct(&sb, ch);
				if (loc >= 0 && hic >= 0) {
					double alo = table_num(t, prev, loc);
					double ahi = table_num(t, prev, hic);
					double blo = table_num(t, r, loc);
					double bhi = table_num(t, r, hic);

					if (isfinite(alo) && isfinite(ahi) &&
					    isfinite(blo) && isfinite(bhi) &&
					    alo > 0 && ahi > 0) {
						strbuf_addstr(&sb, " [");
						add_pct(&sb, blo / ahi - 1.0);
						strbuf_addstr(&sb, ", ");
						add_pct(&sb, bhi / alo - 1.0);
						strbuf_addch(&sb, ']');
					}
				}
				nchg++;
			} else {
				strbuf_addstr(&sb, "–");
			}
		} else {
			strbuf_addstr(&sb, "–");
		}
		table_set_display_raw(pt, row, col, sb.buf);
		pp = p;
		pcnd = c;
		prev = r;
	}
	report_caption_method(s, o, t, unit, cap);
	strbuf_addf(cap, "; weeks are ISO 8601 weeks (Monday to Sunday, UTC); "
	    "week-over-week is the change of %s from the same path's "
	    "previous week", first);
	if (loc >= 0 && hic >= 0)
		strbuf_addf(cap, ", in brackets an interval of it from the two "
		    "weeks' %s intervals (conservative: it covers at least as "
		    "often as they both do)", first);
	strbuf_addstr(cap, "; a week cut by the start or end of the data "
	    "holds fewer days");
	report_caption_where(s, cap);
	(void)nchg;
	free(lo_key);
	free(hi_key);
	free(ge_key);
	strbuf_release(&sb);
}

int
report_calendar_build(struct report_bundle *b, struct report_section *s,
    const struct analyze_opts *o, const struct table *t, struct table *pt,
    struct strbuf *cap)
{
	(void)b;
	table_init(pt);
	pt->shown = t->shown;
	if (s->calendar == REPORT_CAL_WEEKS)
		weeks_build(s, o, t, pt, cap);
	else
		days_build(s, o, t, pt, cap);
	return 0;
}
