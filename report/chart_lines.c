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

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/chart.h"
#include "report/internal.h"

struct lines {
	size_t		nx, nlines;
	char		**x;		/* x category names (owned) */
	char		**label;	/* line labels (owned) */
	double		*v;		/* nlines * nx, chart unit */
	bool		*cens;		/* nlines * nx: "≥ timeout" (v NaN) */
	/* a second series on the right axis (the days chart's loss %):
	 * ny2 columns of nx values after the lines, each drawn as bars
	 * in the colour of line y2lt[k] (NULL: none) */
	size_t		ny2;
	char		**y2label;	/* owned */
	double		*y2;		/* ny2 * nx */
	size_t		*y2lt;		/* its line's index */
	const char	*y2axis;	/* the right axis' label */
};

/* Is statistic stat of row r of t "≥ timeout" (<stat>_ge_timeout)? */
static bool
lines_censored(const struct table *t, size_t r, const char *stat)
{
	struct strbuf k = STRBUF_INIT;
	long gc;

	strbuf_addf(&k, "%s_ge_timeout", stat);
	gc = table_col(t, k.buf);
	strbuf_release(&k);
	return gc >= 0 && table_num(t, r, gc) == 1;
}

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
	free(ln->cens);
	for (i = 0; i < ln->ny2; i++)
		free(ln->y2label[i]);
	free(ln->y2label);
	free(ln->y2);
	free(ln->y2lt);
}

/* A value label beside a point, moved up or down to clear the others. */
struct vlabel {
	double	y;		/* the value, on the axis' scale */
	double	at;		/* where the label goes */
	size_t	line;		/* its line */
};

static int
vlabel_cmp(const void *a, const void *b)
{
	const struct vlabel *x = a, *y = b;

	return x->y < y->y ? -1 : x->y > y->y;
}

/*
 * Spread the labels l[0..n) (sorted by y) so that neighbours are at
 * least gap apart, each group of crowded labels centred on its values,
 * and all within [lo, hi].  Returns false when they cannot fit.
 */
static bool
vlabel_spread(struct vlabel *l, size_t n, double gap, double lo, double hi)
{
	size_t i, j, a, b, passes = 0;
	bool moved = true;

	if (!((double)n * gap <= hi - lo))
		return false;
	for (i = 0; i < n; i++)
		l[i].at = l[i].y;
	while (moved) {
		/* each pass merges crowded runs; n * n + 8 passes are
		 * plenty unless rounding (huge or tiny values) keeps two
		 * labels from ever settling */
		if (passes++ > n * n + 8)
			return false;
		moved = false;
		for (i = 0; i + 1 < n; i++) {
			double mean = 0.0, start;

			if (l[i + 1].at - l[i].at >= gap - 1e-12)
				continue;
			/* the crowded run around i and i+1 */
			for (a = i; a > 0 && l[a].at - l[a - 1].at < gap +
			    1e-12; a--)
				;
			for (b = i + 1; b + 1 < n && l[b + 1].at - l[b].at <
			    gap + 1e-12; b++)
				;
			for (j = a; j <= b; j++)
				mean += l[j].y;
			mean /= (double)(b - a + 1);
			start = mean - gap * (double)(b - a) / 2;
			if (start < lo + gap / 2)
				start = lo + gap / 2;
			if (start + gap * (double)(b - a) > hi - gap / 2)
				start = hi - gap / 2 - gap * (double)(b - a);
			for (j = a; j <= b; j++)
				l[j].at = start + gap * (double)(j - a);
			moved = true;
			break;
		}
	}
	return true;
}

/* A linear axis' end: v rounded down (up) to a 1-2-5 step of the span. */
static double
nice_step(double span)
{
	double e = pow(10, floor(log10(span / 5))), f = span / 5 / e;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * e;
}

/*
 * The y range (set here, never left to gnuplot's autoscale, which ran
 * a relative chart to -500 %) and the value labels, each beside its
 * point and clear of the others: at most 24 points, and none on x
 * skip_x (the relative chart's p50, 100 by definition).
 */
static void
lines_axis_labels(struct chart *ch, const struct lines *ln, int labels_dec,
    bool from_zero, size_t skip_x)
{
	double lo = INFINITY, hi = -INFINITY, ylo, yhi, gap, plot_px, fs;
	struct vlabel *l = xcalloc(ln->nlines + 1, sizeof(*l));
	bool logy = ch->logscale;
	size_t i, k, n, rows, lab = 200;

	for (i = 0; i < ln->nx * ln->nlines; i++)
		if (isfinite(ln->v[i]) && (!logy || ln->v[i] > 0)) {
			lo = fmin(lo, ln->v[i]);
			hi = fmax(hi, ln->v[i]);
		}
	if (!isfinite(lo))
		goto cleanup;
	if (logy) {
		ylo = chart_log_floor(lo / 1.5);
		yhi = chart_finite(hi * 1.5);
		strbuf_addf(&ch->pre, "set yrange [%.6g:%.6g]\n", ylo, yhi);
		chart_log_tics(&ch->pre, "y", ylo, yhi);
		ylo = log10(ylo);
		yhi = log10(yhi);
	} else {
		double span = hi - (from_zero ? 0.0 : lo), step;

		if (!(span > 0))
			span = fabs(hi) > 0 ? fabs(hi) : 1.0;
		span = chart_finite(span);
		step = nice_step(span);
		ylo = from_zero ? 0.0 : fmax(0.0, floor((lo - 0.08 * span) /
		    step) * step);
		yhi = chart_finite(ceil((hi + 0.1 * span) / step) * step);
		strbuf_addf(&ch->pre, "set yrange [%.6g:%.6g]\n", ylo, yhi);
	}
	if (ln->nx * ln->nlines > 24)
		goto cleanup;
	/* the plot's height in pixels: the page less title, key rows and
	 * x axis, in lines of text at ~1.6 px per point of font */
	fs = (double)ch->b->spec->font_size * 1.6;
	rows = ch->key_rows ? ch->key_rows : 1;
	plot_px = (double)ch->height - (8.5 + 1.25 * (double)rows) * fs;
	if (plot_px < 4 * fs)
		goto cleanup;
	gap = (yhi - ylo) * 1.15 * (double)(ch->b->spec->font_size - 2) *
	    1.4 / plot_px;
	for (i = 0; i < ln->nx; i++) {
		if (i == skip_x)
			continue;
		for (k = n = 0; k < ln->nlines; k++) {
			double v = ln->v[k * ln->nx + i];

			if (!isfinite(v) || (logy && v <= 0))
				continue;
			l[n].y = logy ? log10(v) : v;
			l[n++].line = k;
		}
		qsort(l, n, sizeof(*l), vlabel_cmp);
		if (!vlabel_spread(l, n, gap, ylo, yhi))
			continue;	/* no room: the table has them */
		for (k = 0; k < n; k++) {
			double v = ln->v[l[k].line * ln->nx + i];

			strbuf_addf(&ch->pre, "set label %zu '%.*f' at first "
			    "%zu, first %.6g left offset 0.8,0.55 font small "
			    "tc lt %zu noenhanced front\n", lab++, labels_dec, v,
			    i, logy ? pow(10, l[k].at) : l[k].at,
			    l[k].line + 1);
		}
	}
cleanup:
	free(l);
}

static void
lines_write(struct chart *ch, const struct lines *ln, const char *ylabel,
    const char *xlabel, const char *xwhat, int labels_dec, bool from_zero,
    size_t skip_x)
{
	size_t i, k;

	chart_log_usable(ch, ln->v, ln->nx * ln->nlines);
	strbuf_addf(&ch->what, "columns: x (index of the %s), then one "
	    "column per line (NaN = not measured, or ≥ timeout where a '# "
	    "censored' line says so: no value)", xwhat);
	if (ln->ny2)
		strbuf_addf(&ch->what, ", then one column per line that "
		    "lost probes: its loss %% per %s (right axis, bars)",
		    xwhat);
	chart_dat_head(ch);
	for (i = 0; i < ln->nx; i++) {
		chart_dat_label(ch, "x", i, ln->x[i]);
	}
	for (k = 0; k < ln->nlines; k++) {
		chart_dat_label(ch, "column", k + 2, ln->label[k]);
	}
	for (k = 0; k < ln->ny2; k++)
		chart_dat_label(ch, "column", ln->nlines + k + 2,
		    ln->y2label[k]);
	for (i = 0; i < ln->nx; i++) {
		for (k = 0; ln->cens && k < ln->nlines; k++)
			if (ln->cens[k * ln->nx + i])
				strbuf_addf(&ch->dat, "# censored: x %zu column "
				    "%zu ≥ timeout\n", i, k + 2);
		strbuf_addf(&ch->dat, "%zu", i);
		for (k = 0; k < ln->nlines; k++) {
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat, ln->v[k * ln->nx + i]);
		}
		for (k = 0; k < ln->ny2; k++) {
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat, ln->y2[k * ln->nx + i]);
		}
		strbuf_addch(&ch->dat, '\n');
	}

	strbuf_addf(&ch->pre, "set xrange [-0.3:%zu.6]\n"
	    "set bmargin 5\n", ln->nx - 1);
	if (ch->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	chart_gp_set(&ch->pre, "ylabel", ylabel);
	chart_gp_set(&ch->pre, "xlabel", xlabel);
	strbuf_addstr(&ch->pre, "set xtics (");
	for (i = 0; i < ln->nx; i++) {
		if (i)
			strbuf_addstr(&ch->pre, ", ");
		escape_gnuplot(&ch->pre, ln->x[i]);
		strbuf_addf(&ch->pre, " %zu", i);
	}
	strbuf_addstr(&ch->pre, ") noenhanced\n");
	if (ln->ny2) {
		char **all = xcalloc(ln->nlines + ln->ny2 + 1, sizeof(char *));

		for (k = 0; k < ln->nlines; k++)
			all[k] = ln->label[k];
		for (k = 0; k < ln->ny2; k++)
			all[ln->nlines + k] = ln->y2label[k];
		chart_key_above(ch, all, ln->nlines + ln->ny2);
		free(all);
		double top = 0;

		for (i = 0; i < ln->ny2 * ln->nx; i++)
			if (isfinite(ln->y2[i]))
				top = fmax(top, ln->y2[i]);
		/* the right axis from 0: a bar's height is its share, with
		 * room above the highest for its label */
		strbuf_addstr(&ch->pre, "set ytics nomirror\nset y2range [0:");
		chart_gp_num(&ch->pre, top > 0 ? chart_finite(top * 1.25) :
		    1.0);
		strbuf_addstr(&ch->pre, "]\nset y2tics\nset style fill "
		    "transparent solid 0.35 noborder\nset boxwidth 0.6\n");
		chart_gp_set(&ch->pre, "y2label", ln->y2axis);
	} else {
		chart_key_above(ch, ln->label, ln->nlines);
	}
	lines_axis_labels(ch, ln, labels_dec, from_zero, skip_x);
	strbuf_addstr(&ch->plot, "plot \\\n");
	/* bars first, so the lines are drawn over them */
	for (k = 0; k < ln->ny2; k++) {
		strbuf_addstr(&ch->plot, "    ");
		chart_plot_source(ch, &ch->plot, k == 0);
		strbuf_addf(&ch->plot, " using 1:%zu axes x1y2 with boxes lt %zu "
		    "title ", ln->nlines + k + 2, ln->y2lt[k] + 1);
		escape_gnuplot(&ch->plot, ln->y2label[k]);
		strbuf_addstr(&ch->plot, ", \\\n");
	}
	for (k = 0; k < ln->nlines; k++) {
		strbuf_addstr(&ch->plot, "    ");
		chart_plot_source(ch, &ch->plot, k == 0 && !ln->ny2);
		strbuf_addf(&ch->plot, " using 1:%zu with linespoints lt %zu "
		    "title ", k + 2, k + 1);
		escape_gnuplot(&ch->plot, ln->label[k]);
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
	ln.cens = xcalloc(t.nrows * ln.nx + 1, sizeof(bool));
	for (r = 0; r < t.nrows; r++) {
		chart_dims_text(&t, &o, r, NULL, &sb);
		ln.label[ln.nlines] = chart_cell_label(ch->s,
		    chart_str_at(&t, r, pc), chart_str_at(&t, r, cc), sev,
		    sb.buf);
		/* relative gives a censored statistic no number */
		for (j = 0; j < ln.nx; j++) {
			ln.cens[ln.nlines * ln.nx + j] = lines_censored(&t, r,
			    ln.x[j]);
			ln.v[ln.nlines * ln.nx + j] = table_num(&t, r,
			    table_col(&t, ln.x[j]));
		}
		ln.nlines++;
	}
	chart_count_words(&t, "line", &counts);
	strbuf_addstr(&counts, "; each statistic as % of the same cell's p50 "
	    "(p50 = 100)");
	chart_describe(ch, &o, counts.buf);
	strbuf_addstr(&ch->pre, "set arrow 1 from graph 0, first 100 to graph "
	    "1, first 100 nohead dt 3 lw 1 lc rgb '#777777' back\n");
	for (j = 0; j < ln.nx && strcmp(ln.x[j], "p50"); j++)
		;
	lines_write(ch, &ln, "% of the cell's p50 (p50 = 100)", "Statistic",
	    "statistic", 1, false, j);
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


/* The day's loss % per line key (keys as chart_days() builds them), as a
 * right-axis series of each line that lost anything: a lossy day stands
 * beside its latency on the same x axis. */
static void
days_loss(struct lines *ln, const struct table *t,
    const struct analyze_opts *o, long pc, long cc, long dc,
    char *const *keys)
{
	struct strbuf sb = STRBUF_INIT;
	double *v = xcalloc(ln->nlines * ln->nx + 1, sizeof(double));
	long lc = table_col(t, "loss_pct");
	size_t r, i, k;

	for (i = 0; i < ln->nlines * ln->nx; i++)
		v[i] = NAN;
	for (r = 0; r < t->nrows; r++) {
		chart_dims_text(t, o, r, "day", &sb);
		strbuf_addf(&sb, "\x1f%s\x1f%s", chart_str_at(t, r, pc),
		    chart_str_at(t, r, cc));
		for (k = 0; k < ln->nlines && strcmp(keys[k], sb.buf); k++)
			;
		for (i = 0; i < ln->nx &&
		    strcmp(ln->x[i], chart_str_at(t, r, dc)); i++)
			;
		if (k < ln->nlines && i < ln->nx)
			v[k * ln->nx + i] = table_num(t, r, lc);
	}
	ln->y2 = xcalloc(ln->nlines * ln->nx + 1, sizeof(double));
	ln->y2label = xcalloc(ln->nlines + 1, sizeof(char *));
	ln->y2lt = xcalloc(ln->nlines + 1, sizeof(size_t));
	for (k = 0; k < ln->nlines; k++) {
		bool lost = false;

		for (i = 0; i < ln->nx; i++)
			lost |= isfinite(v[k * ln->nx + i]) &&
			    v[k * ln->nx + i] > 0;
		if (!lost)
			continue;
		memcpy(ln->y2 + ln->ny2 * ln->nx, v + k * ln->nx,
		    ln->nx * sizeof(double));
		ln->y2label[ln->ny2] = xasprintf("%s loss %%", ln->label[k]);
		ln->y2lt[ln->ny2++] = k;
	}
	ln->y2axis = "Loss per day (%, bars)";
	free(v);
	strbuf_release(&sb);
}

/* gnuplot label tags of the loss marks (the date marks use 200 up). */
#define LOSS_TAG_BASE		600
/* At most this many lossy days named on the chart (the largest). */
#define LOSS_MAX_MARKS		6

/* Name the lossiest days on the chart, beside their bars, and say in the
 * caption what the bars are. */
static void
loss_marks(struct chart *ch, const struct lines *ln)
{
	struct vlabel *top = xcalloc(ln->ny2 * ln->nx + 1, sizeof(*top));
	struct strbuf l = STRBUF_INIT;
	size_t i, k, n = 0, ndays = 0;

	for (k = 0; k < ln->ny2; k++)
		for (i = 0; i < ln->nx; i++) {
			double v = ln->y2[k * ln->nx + i];

			if (!isfinite(v) || v <= 0)
				continue;
			top[n].y = -v;		/* largest first */
			top[n].at = (double)i;
			top[n++].line = k;
		}
	ndays = n;
	qsort(top, n, sizeof(*top), vlabel_cmp);
	if (n > LOSS_MAX_MARKS)
		n = LOSS_MAX_MARKS;
	for (i = 0; i < n; i++) {
		const char *d = ln->x[(size_t)top[i].at];
		char *path = ln->label[ln->y2lt[top[i].line]];

		strbuf_reset(&l);
		strbuf_addf(&l, "%s %s: %.1f %% lost", path, strlen(d) == 10 ?
		    d + 5 : d, -top[i].y);
		strbuf_addf(&ch->pre, "set label %zu ", LOSS_TAG_BASE + i);
		escape_gnuplot(&ch->pre, l.buf);
		strbuf_addf(&ch->pre, " at %zu, second ", (size_t)top[i].at);
		chart_gp_num(&ch->pre, -top[i].y);
		strbuf_addf(&ch->pre, " left offset 0.5,0.4 noenhanced font "
		    "small tc lt %zu front\n", ln->y2lt[top[i].line] + 1);
	}
	strbuf_addf(&ch->cap, "; bars (right axis): loss %% per day of the "
	    "%zu path%s that lost probes, %zu lossy day-path%s", ln->ny2,
	    ln->ny2 == 1 ? "" : "s", ndays, ndays == 1 ? "" : "s");
	if (n)
		strbuf_addf(&ch->cap, ", the most %s on %s (%.1f %%)",
		    ln->label[ln->y2lt[top[0].line]],
		    ln->x[(size_t)top[0].at], -top[0].y);
	free(top);
	strbuf_release(&l);
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
	long pc, cc, dc, sc, lc;
	bool sev;
	int ret = -1;

	memset(&ln, 0, sizeof(ln));
	if (chart_table(ch, "percentiles", by_day, -1, &o, &t))
		return -1;
	lc = table_col(&t, "loss_pct");
	if (chart_stat_table(ch, &o, &t))
		goto cleanup;
	js = chart_stat(ch, &o);
	pc = table_col(&t, "path");
	cc = table_col(&t, "condition");
	dc = table_col(&t, "day");
	sc = js < o.nstats ? table_col(&t, o.stat_names[js]) : -1;
	sev = chart_several_conditions(&t);
	chart_choose_unit_col(ch, &t, sc);
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
	ln.cens = xcalloc(nkeys * ln.nx + 1, sizeof(bool));
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
		/* "≥ timeout": the successes' value is no point */
		ln.cens[k * ln.nx + i] = js < o.nstats &&
		    lines_censored(&t, r, o.stat_names[js]);
		ln.v[k * ln.nx + i] = ln.cens[k * ln.nx + i] ? NAN :
		    table_num(&t, r, sc) * ch->scale;
	}
	ln.nlines = nkeys;
	if (lc >= 0)
		days_loss(&ln, &t, &o, pc, cc, dc, keys);
	chart_count_words(&t, "point", &counts);
	strbuf_addf(&counts, "; %s per day", js < o.nstats ?
	    o.stat_names[js] : "?");
	chart_describe(ch, &o, counts.buf);
	strbuf_addf(&y, "%s of %s (%s)", js < o.nstats ? o.stat_names[js] : "",
	    ch->m->title, ch->unit);
	lines_write(ch, &ln, y.buf, "Day (UTC)", "day", ch->dec, true,
	    SIZE_MAX);
	/* a month's dates, censored points, change points (chart_dates.c) */
	chart_date_axis(ch, ln.x, ln.nx);
	if (js < o.nstats)
		chart_day_marks(ch, &t, o.stat_names[js], ln.x, ln.nx);
	if (ln.ny2)
		loss_marks(ch, &ln);
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

