/*
 * chart_samples.c - charts of raw samples, read as cells with their
 * values (analyze/cells.h): ECDFs per cell on a log axis, and values
 * over time per run with trials overlaid, one panel per cell.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cells.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/chart.h"
#include "report/internal.h"

/* Most panels a time-series chart draws. */
#define CHART_MAX_PANELS	12

/* A new series for a cell of path and cond, labelled with the path. */
static struct series *
series_add(struct series **sr, size_t *n, size_t *alloc, const char *path,
    const char *cond)
{
	struct series *s;

	ALLOC_GROW(*sr, *n + 1, *alloc);
	s = &(*sr)[(*n)++];
	memset(s, 0, sizeof(*s));
	s->comment = xasprintf("%s\x1f%s", path, cond);
	s->label = xstrdup(path);
	return s;
}

/*
 * The successful samples of the section's metric under its where and
 * paths, as cells (analyze/cells.h) in the section's path order: each
 * (path, condition) cell becomes a series of its values, ascending
 * (ecdf); or, when per_run, each run becomes a series of (seconds since
 * its start, value) pairs in sample order (timeseries).  Cells and runs
 * with no such samples are left out; *ncells counts the cells shown.
 * The caller frees the series.
 */
static int
raw_series(struct chart *ch, bool per_run, struct series **out, size_t *nout,
    size_t *ncells)
{
	struct analyze_opts o;
	struct cells_query q;
	struct cellset cs;
	struct series *sr = NULL, *s;
	size_t n = 0, alloc = 0, i, j, k;

	*out = NULL;
	*nout = 0;
	*ncells = 0;
	if (report_section_opts(ch->b->spec, ch->s, &o))
		return -1;
	memset(&q, 0, sizeof(q));
	q.metric = ch->s->metric;
	q.where = &o.where;
	q.paths = o.paths;
	q.npaths = o.npaths;
	q.load_values = true;
	q.series = per_run;
	if (cells_load(ch->b->db, &q, &cs)) {
		analyze_opts_release(&o);
		return -1;
	}
	for (i = 0; i < cs.n; i++) {
		struct cell *c = &cs.cells[i];
		const double *x;
		size_t nx, before = n;

		for (j = 0; per_run && j < c->ntrials; j++) {
			const struct trial *t = &c->trials[j];

			if (!t->n)
				continue;
			s = series_add(&sr, &n, &alloc, c->path, c->cond);
			for (k = 0; k < t->n; k++) {
				chart_series_push(s, t->times[k], t->trial);
				chart_series_push(s, t->values[k], t->trial);
			}
		}
		nx = per_run ? 0 : cell_pooled(c, &x);
		if (nx) {
			s = series_add(&sr, &n, &alloc, c->path, c->cond);
			for (k = 0; k < nx; k++)
				chart_series_push(s, x[k], 0);
		}
		if (n > before)
			(*ncells)++;
	}
	cellset_release(&cs);
	analyze_opts_release(&o);
	*out = sr;
	*nout = n;
	return 0;
}

/* Split a series comment "path\x1fcond" (borrowed pointers into a copy
 * the caller frees). */
static char *
split_cell(const char *comment, const char **path, const char **cond)
{
	char *c = xstrdup(comment), *sep = strchr(c, '\x1f');

	*path = c;
	*cond = "";
	if (sep) {
		*sep = '\0';
		*cond = sep + 1;
	}
	return c;
}

/* The chart's unit from every sample it draws. */
static void
series_unit(struct chart *ch, const struct series *sr, size_t n)
{
	double *mx = xcalloc(n + 1, sizeof(double));
	size_t k, i;

	for (k = 0; k < n; k++) {
		mx[k] = NAN;
		for (i = 0; i < sr[k].n; i++)
			if (isfinite(sr[k].v[i]) && !(fabs(sr[k].v[i]) <=
			    mx[k]))
				mx[k] = fabs(sr[k].v[i]);
	}
	chart_choose_unit(ch, mx, n);
	free(mx);
}

/* At most REPORT_CHART_MAX_LINES of the n series (values ascending):
 * those of the lowest and highest median and evenly between, the
 * others freed; the caption says how many were left out. */
static void
ecdf_cap(struct chart *ch, struct series *sr, size_t *n)
{
	double *med;
	bool *keep;
	size_t k, m = 0, nkept;

	if (*n <= REPORT_CHART_MAX_LINES)
		return;
	med = xcalloc(*n, sizeof(double));
	for (k = 0; k < *n; k++)
		med[k] = sr[k].n ? sr[k].v[sr[k].n / 2] : NAN;
	keep = chart_pick(med, *n, REPORT_CHART_MAX_LINES, &nkept);
	for (k = 0; k < *n; k++) {
		if (keep[k])
			sr[m++] = sr[k];
		else
			chart_series_free_one(&sr[k]);
	}
	strbuf_addf(&ch->note, "; %zu of %zu lines drawn (the cells of the "
	    "lowest and the highest median and evenly between; the table "
	    "has every cell)", m, *n);
	*n = m;
	free(med);
	free(keep);
}

/* The x axis of an ECDF of the n series (values ascending): the y
 * axis' settings, then a log axis where every value is above 0 and
 * they differ (otherwise linear, chart_log_usable says why in the
 * caption), a range around the one value where all are the same. */
static void
ecdf_x_axis(struct chart *ch, const struct series *sr, size_t n)
{
	double *ends = xcalloc(2 * n + 1, sizeof(double));
	double lo = INFINITY, hi = -INFINITY;
	size_t k;

	for (k = 0; k < n; k++) {
		ends[2 * k] = sr[k].v[0] * ch->scale;
		ends[2 * k + 1] = sr[k].v[sr[k].n - 1] * ch->scale;
		lo = fmin(lo, ends[2 * k]);
		hi = fmax(hi, ends[2 * k + 1]);
	}
	chart_log_usable(ch, ends, 2 * n);
	free(ends);
	strbuf_addstr(&ch->pre, "set yrange [0:1]\n"
	    "set ytics 0.1\n"
	    "set bmargin 5\n"
	    "set ylabel 'Fraction of samples at or below x'\n");
	if (lo == hi) {
		double pad = lo != 0 ? fabs(lo) * 0.1 : 1.0;

		strbuf_addstr(&ch->pre, "set xrange [");
		chart_gp_num(&ch->pre, lo - pad);
		strbuf_addch(&ch->pre, ':');
		chart_gp_num(&ch->pre, hi + pad);
		strbuf_addstr(&ch->pre, "]\n");
	} else {
		strbuf_addstr(&ch->pre, "set autoscale xfix\n"
		    "set offsets graph 0.03, graph 0.03, 0, 0\n");
	}
	if (ch->logscale) {
		strbuf_addstr(&ch->pre, "set logscale x\n"
		    "set mxtics 10\n");
		chart_log_tics(&ch->pre, "x", lo, hi);
	}
}

int
chart_ecdf(struct chart *ch)
{
	struct series *sr = NULL;
	struct strbuf counts = STRBUF_INIT, x = STRBUF_INIT;
	const char *each;
	size_t n = 0, ncells = 0, k, i;
	double nlo = INFINITY, nhi = 0;
	bool sev;

	if (raw_series(ch, false, &sr, &n, &ncells))
		return -1;
	if (n == 0) {
		chart_series_free(sr, n);
		return report_spec_error(ch->b->spec, ch->c->loc, "no samples "
		    "for the ECDF");
	}
	ecdf_cap(ch, sr, &n);
	series_unit(ch, sr, n);
	sev = false;
	for (k = 1; k < n; k++) {
		const char *a = strchr(sr[k].comment, '\x1f');
		const char *b = strchr(sr[0].comment, '\x1f');

		if (strcmp(a, b))
			sev = true;
	}
	strbuf_addf(&ch->what, "one index per line: value (in %s), fraction "
	    "of the line's samples at or below it; lines with more than %d "
	    "samples keep every k-th step", ch->unit, REPORT_ECDF_MAX_POINTS);
	chart_dat_head(ch);
	for (k = 0; k < n; k++) {
		const char *path, *cond;
		char *c = split_cell(sr[k].comment, &path, &cond);
		char *label = chart_cell_label(ch->s, path, cond, sev, NULL);

		free(sr[k].label);
		sr[k].label = label;
		strbuf_addf(&ch->dat, "# index %zu: n = %zu: ", k, sr[k].n);
		report_gp_comment_text(&ch->dat, label);
		strbuf_addch(&ch->dat, '\n');
		free(c);
		nlo = fmin(nlo, (double)sr[k].n);
		nhi = fmax(nhi, (double)sr[k].n);
	}
	for (k = 0; k < n; k++) {
		size_t step = sr[k].n / REPORT_ECDF_MAX_POINTS + 1;

		if (k)
			strbuf_addstr(&ch->dat, "\n\n");
		for (i = 0; i < sr[k].n; i++) {
			if ((i + 1) % step && i + 1 != sr[k].n)
				continue;
			chart_gp_num(&ch->dat, sr[k].v[i] * ch->scale);
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat,
			    (double)(i + 1) / (double)sr[k].n);
			strbuf_addch(&ch->dat, '\n');
		}
	}
	ecdf_x_axis(ch, sr, n);
	{
		char **labels = xcalloc(n + 1, sizeof(char *));

		for (k = 0; k < n; k++)
			labels[k] = sr[k].label;
		chart_key_above(ch, labels, n);
		free(labels);
	}
	chart_axis_label(ch, &x);
	chart_gp_set(&ch->pre, "xlabel", x.buf);
	strbuf_addstr(&ch->pre,
	    "set arrow 1 from graph 0, first 0.5 to graph 1, first 0.5 nohead "
	    "dt 3 lc rgb '#777777' back\n"
	    "set arrow 2 from graph 0, first 0.99 to graph 1, first 0.99 "
	    "nohead dt 3 lc rgb '#777777' back\n"
	    "set label 1 'p50' at graph 0.005, first 0.5 offset 0,0.6 font "
	    "small tc rgb '#555555'\n"
	    "set label 2 'p99' at graph 0.005, first 0.99 offset 0,-0.7 "
	    "font small tc rgb '#555555'\n");
	strbuf_addstr(&ch->plot, "plot \\\n");
	for (k = 0; k < n; k++) {
		strbuf_addstr(&ch->plot, "    ");
		chart_plot_source(ch, &ch->plot, k == 0);
		/* a line of one sample is one step: a point, or nothing
		 * would be drawn */
		strbuf_addf(&ch->plot, " index %zu using 1:2 with %s lt %zu "
		    "title ", k, sr[k].n > 1 ? "steps" : "points pt 7 ps 1.5",
		    k + 1);
		escape_gnuplot(&ch->plot, sr[k].label);
		strbuf_addstr(&ch->plot, k + 1 < n ? ", \\\n" : "\n");
	}
	/* an end-of-test metric has one value per run (metric.h) */
	each = ch->m && ch->m->source == METRIC_FROM_SUMMARY ?
	    "every run's end-of-test value" : "every successful sample";
	if (nlo == nhi)
		strbuf_addf(&counts, "; %s, n = %.0f per line", each, nlo);
	else
		strbuf_addf(&counts, "; %s, n = %.0f–%.0f per line", each, nlo,
		    nhi);
	chart_describe(ch, NULL, counts.buf);
	chart_series_free(sr, n);
	strbuf_release(&counts);
	strbuf_release(&x);
	return 0;
}

/* A time-series chart's extent: largest value and time, and the trials
 * its legend names (1..maxtrial, 8 at most). */
struct ts_extent {
	double	ymax, xmax;
	long	maxtrial;
};

/* The .dat file: one index per run, (seconds, value) pairs. */
static void
ts_data(struct chart *ch, const struct series *sr, size_t n, bool sev,
    struct ts_extent *ext)
{
	size_t k, i;

	memset(ext, 0, sizeof(*ext));
	strbuf_addf(&ch->what, "one index per run: seconds since the run "
	    "started, value (in %s)", ch->unit);
	chart_dat_head(ch);
	for (k = 0; k < n; k++) {
		const char *path, *cond;
		char *c = split_cell(sr[k].comment, &path, &cond);
		char *label = chart_cell_label(ch->s, path, cond, sev, NULL);

		strbuf_addf(&ch->dat, "# index %zu: trial %ld: ", k,
		    sr[k].n ? sr[k].tag[0] : 0L);
		report_gp_comment_text(&ch->dat, label);
		strbuf_addch(&ch->dat, '\n');
		free(c);
		free(label);
	}
	for (k = 0; k < n; k++) {
		if (k)
			strbuf_addstr(&ch->dat, "\n\n");
		for (i = 0; i + 1 < sr[k].n; i += 2) {
			chart_gp_num(&ch->dat, sr[k].v[i]);
			strbuf_addch(&ch->dat, ' ');
			chart_gp_num(&ch->dat, sr[k].v[i + 1] * ch->scale);
			strbuf_addch(&ch->dat, '\n');
			ext->ymax = fmax(ext->ymax, sr[k].v[i + 1] * ch->scale);
			ext->xmax = fmax(ext->xmax, sr[k].v[i]);
		}
		if (sr[k].n && sr[k].tag[0] > ext->maxtrial)
			ext->maxtrial = sr[k].tag[0] > 8 ? 8 : sr[k].tag[0];
	}
}

/* Panels whose largest values differ by more than this factor get a
 * y scale each: on one scale a 50 Mbit/s panel beside a 24 Gbit/s one
 * is a flat line at 0. */
#define CHART_PANEL_SCALE_RATIO	10.0

/* The largest value of the panel whose runs are sr[k..end). */
static double
panel_max(const struct chart *ch, const struct series *sr, size_t k,
    size_t end)
{
	double m = 0.0;
	size_t i, j;

	for (i = k; i < end; i++)
		for (j = 1; j < sr[i].n; j += 2)
			if (isfinite(sr[i].v[j]) && sr[i].v[j] * ch->scale > m)
				m = sr[i].v[j] * ch->scale;
	return m;
}

/* Do the panels differ so much that each needs its own y scale? */
static bool
ts_per_panel(const struct chart *ch, const struct series *sr, size_t n)
{
	double lo = INFINITY, hi = 0.0;
	size_t k = 0, end;

	while (k < n) {
		double m;

		for (end = k; end < n && !strcmp(sr[end].comment,
		    sr[k].comment); end++)
			;
		m = panel_max(ch, sr, k, end);
		if (m > 0) {
			lo = fmin(lo, m);
			hi = fmax(hi, m);
		}
		k = end;
	}
	return hi > CHART_PANEL_SCALE_RATIO * lo;
}

/* Axes, the multiplot layout and one legend for the page. */
static void
ts_layout(struct chart *ch, size_t rows, size_t cols,
    const struct ts_extent *ext, bool per_panel)
{
	struct strbuf y = STRBUF_INIT;
	double w = (double)ch->width, h = (double)ch->height;
	size_t i;

	chart_axis_label(ch, &y);
	chart_gp_set(&ch->pre, "ylabel", y.buf);
	strbuf_release(&y);
	strbuf_addstr(&ch->pre, "set xlabel 'Seconds since the run started'\n");
	if (ch->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	else if (!per_panel)
		strbuf_addf(&ch->pre, "set yrange [0:%.6g]\n",
		    chart_finite(ext->ymax * 1.1));
	/* one key for the page, under the title: trials share colours */
	strbuf_addf(&ch->pre, "set xrange [0:%.6g]\n", ext->xmax);
	/* margins in pixels made screen fractions: room at the top for the
	 * title and one key for the page, between rows for tics, labels
	 * and the next row's titles */
	strbuf_addf(&ch->plot, "set multiplot layout %zu, %zu title ", rows,
	    cols);
	escape_gnuplot(&ch->plot, chart_title(ch));
	strbuf_addf(&ch->plot, " font big margins %.4f, %.4f, %.4f, "
	    "%.4f spacing %.4f, %.4f\n", 80 / w, 1 - 20 / w, 70 / h,
	    1 - 125 / h, 90 / w, 135 / h);
	/* one legend for the page, drawn by hand: gnuplot sizes a key to
	 * one panel; trials keep their colour in every panel */
	strbuf_addstr(&ch->pre, "unset key\n");
	for (i = 0; i < (size_t)ext->maxtrial; i++) {
		double x = 0.5 + ((double)i - (double)ext->maxtrial / 2) * 130 /
		    w;
		double yy = 1 - 58 / h;

		strbuf_addf(&ch->plot, "set arrow %zu from screen %.4f, "
		    "screen %.4f to screen %.4f, screen %.4f nohead lt %zu\n",
		    90 + i, x, yy, x + 40 / w, yy, i % 8 + 1);
		strbuf_addf(&ch->plot, "set label %zu 'trial %zu' at screen "
		    "%.4f, screen %.4f left\n", 90 + i, i + 1, x + 48 / w, yy);
	}
	strbuf_addstr(&ch->plot, "unset title\n");
}

/* One panel per cell, a line per run; the legend is drawn once. */
static void
ts_panels(struct chart *ch, const struct series *sr, size_t n, size_t cols,
    bool sev, long maxtrial, bool per_panel)
{
	size_t k, i, p, title_cols;

	/* columns of a panel title: the panel less its axis, at ~0.78 em
	 * per character */
	title_cols = (size_t)fmax(6, ((double)ch->width / (double)cols - 100) /
	    (0.78 * (double)ch->b->spec->font_size));
	for (k = 0, p = 0; k < n; p++) {
		const char *path, *cond;
		char *c = split_cell(sr[k].comment, &path, &cond);
		char *label = chart_cell_label(ch->s, path, cond, sev, NULL);
		size_t end = k;

		while (end < n && !strcmp(sr[end].comment, sr[k].comment))
			end++;
		strbuf_addstr(&ch->plot, "set title ");
		chart_gp_wrapped(&ch->plot, label, title_cols);
		strbuf_addstr(&ch->plot, "\n");
		if (per_panel && !ch->logscale) {
			double m = panel_max(ch, sr, k, end);

			strbuf_addf(&ch->plot, "set yrange [0:%.6g]\n",
			    m > 0 ? chart_finite(m * 1.1) : 1.0);
		}
		if (p == 1) {	/* the legend is on the page once */
			for (i = 0; i < (size_t)maxtrial; i++)
				strbuf_addf(&ch->plot, "unset arrow %zu\n"
				    "unset label %zu\n", 90 + i, 90 + i);
		}
		strbuf_addstr(&ch->plot, "plot \\\n");
		for (i = k; i < end; i++) {
			long trial = sr[i].n ? sr[i].tag[0] : 0;

			strbuf_addstr(&ch->plot, "    ");
			chart_plot_source(ch, &ch->plot, i == k);
			strbuf_addf(&ch->plot, " index %zu using 1:2 with "
			    "lines lt %ld title 'trial %ld'%s\n", i,
			    trial > 0 ? (trial - 1) % 8 + 1 : 1, trial,
			    i + 1 < end ? ", \\" : "");
		}
		free(c);
		free(label);
		k = end;
	}
	strbuf_addstr(&ch->plot, "unset multiplot\n");
}

int
chart_timeseries(struct chart *ch)
{
	struct series *sr = NULL;
	struct strbuf counts = STRBUF_INIT;
	struct ts_extent ext;
	size_t n = 0, ncells = 0, k, cols, rows;
	bool sev = false, per_panel;
	int ret = -1;

	if (raw_series(ch, true, &sr, &n, &ncells))
		return -1;
	series_unit(ch, sr, n);
	if (n == 0) {
		if (ch->m && ch->m->source == METRIC_FROM_SUMMARY)
			report_spec_error(ch->b->spec, ch->c->loc, "%s is one "
			    "end-of-test value per run: it has no values over "
			    "time (bars or box show it)", ch->m->name);
		else
			report_spec_error(ch->b->spec, ch->c->loc, "no samples "
			    "with times for the chart");
		goto cleanup;
	}
	if (ncells > CHART_MAX_PANELS) {
		report_spec_error(ch->b->spec, ch->c->loc, "%zu cells would "
		    "make %zu panels (at most %d): narrow the section's where "
		    "or paths", ncells, ncells, CHART_MAX_PANELS);
		goto cleanup;
	}
	for (k = 1; k < n; k++)
		if (strcmp(strchr(sr[k].comment, '\x1f'),
		    strchr(sr[0].comment, '\x1f')))
			sev = true;
	cols = ncells <= 3 ? ncells : ncells == 4 ? 2 : 3;
	rows = (ncells + cols - 1) / cols;
	if (!ch->c->height)
		ch->height = 140 + 330 * (long)rows;
	ts_data(ch, sr, n, sev, &ext);
	per_panel = ts_per_panel(ch, sr, n);
	ts_layout(ch, rows, cols, &ext, per_panel);
	ts_panels(ch, sr, n, cols, sev, ext.maxtrial, per_panel);
	/* the multiplot draws the title itself */
	strbuf_addstr(&ch->pre, "unset title\n");
	strbuf_addf(&counts, "; each line one run (trial), %zu runs in %zu "
	    "panels; x = seconds since the run started (iperf3: the end of "
	    "each reporting interval)%s", n, ncells, per_panel ?
	    "; each panel has its own y scale (the panels' largest values "
	    "differ more than 10×): compare them by their axes" : "");
	chart_describe(ch, NULL, counts.buf);
	/* panels fill the page: the caption carries the small print */
	strbuf_reset(&ch->footer);
	ret = 0;
cleanup:
	chart_series_free(sr, n);
	strbuf_release(&counts);
	return ret;
}
