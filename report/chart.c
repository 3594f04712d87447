/*
 * chart.c - the charts of a bundle, one gnuplot script and one data file
 * each (charts/NN-id.gp, .dat), rendered to PNG (pngcairo) and SVG when
 * gnuplot runs: what every chart family shares (script head and output
 * loop, data file heads, labels, keys, captions, the analyze tables
 * charts draw from), and the figure's caption (render.c runs gnuplot
 * and puts the figure in index.md).  It is the
 * core the families (chart_*.c) call; it never calls them: the
 * dispatch to them is chart_kinds.c's.  User text reaches a script
 * only through escape_gnuplot(); data files hold numbers and '#'
 * comments.
 */
#include "common/compat.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/cells.h"
#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/version.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "report/chart.h"
#include "report/internal.h"

/* Okabe & Ito's palette, safe for the common colour-vision deficiencies;
 * dash and point types differ too, so lines stay apart in grey. */
static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
	"#000000", "#999999",
};

/* Longest label (in columns) a key entry or panel title shows. */
#define CHART_LABEL_COLUMNS	48

void
chart_series_free_one(struct series *s)
{
	free(s->label);
	free(s->comment);
	free(s->v);
	free(s->tag);
	memset(s, 0, sizeof(*s));
}

void
chart_series_free(struct series *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].label);
		free(s[i].comment);
		free(s[i].v);
		free(s[i].tag);
	}
	free(s);
}

void
chart_series_push(struct series *s, double v, long tag)
{
	if (s->n + 1 > s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 16;
		s->v = xreallocarray(s->v, s->alloc, sizeof(double));
		s->tag = xreallocarray(s->tag, s->alloc, sizeof(long));
	}
	s->v[s->n] = v;
	s->tag[s->n++] = tag;
}

/* ------------------------------------------------------------------
 * Writing scripts and data
 */

void
chart_gp_num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_add_double(sb, v);
	else
		strbuf_addstr(sb, "NaN");
}

/* "set KEY 'text'" with the text quoted. */
void
chart_gp_set(struct strbuf *sb, const char *what, const char *text)
{
	strbuf_addf(sb, "set %s ", what);
	escape_gnuplot(sb, text);
	strbuf_addch(sb, '\n');
}

/* Display width of the UTF-8 character at p: 2 for East Asian wide
 * ranges (CJK, kana, hangul, fullwidth forms), else 1.  *len gets its
 * byte length (1 for a stray byte). */
static size_t
char_width(const char *p, size_t *len)
{
	const unsigned char *u = (const unsigned char *)p;
	unsigned long cp;

	*len = report_utf8_len(u);
	if (*len <= 1) {
		*len = 1;
		return 1;
	}
	cp = u[0] & (0xff >> (*len + 1));
	for (size_t i = 1; i < *len; i++)
		cp = (cp << 6) | (u[i] & 0x3f);
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/*
 * Break text into lines of at most width columns, at spaces where it
 * can and between characters where it must (CJK has no spaces).  Each
 * line is appended to sb as a quoted literal joined by . "\n" . ;
 * returns the number of lines.
 */
size_t
chart_gp_wrapped(struct strbuf *sb, const char *text, size_t width)
{
	struct strbuf line = STRBUF_INIT;
	const char *p = text, *brk = NULL;
	size_t cols = 0, cols_at_brk = 0, nlines = 0, len;

	if (width < 6)
		width = 6;
	while (*p) {
		size_t w = char_width(p, &len);

		if (*p == ' ') {
			brk = p;
			cols_at_brk = cols;
		}
		if (cols + w > width && cols > 0) {
			/* break at the line's last space, if any */
			if (brk && brk > p - line.len && cols_at_brk > 0) {
				size_t keep = line.len - (size_t)(p - brk);

				strbuf_setlen(&line, keep);
				p = brk + 1;
			}
			if (nlines++)
				strbuf_addstr(sb, " . \"\\n\" . ");
			escape_gnuplot(sb, line.buf);
			strbuf_reset(&line);
			cols = 0;
			brk = NULL;
			continue;
		}
		strbuf_add(&line, p, len);
		cols += w;
		p += len;
	}
	if (line.len || !nlines) {
		if (nlines++)
			strbuf_addstr(sb, " . \"\\n\" . ");
		escape_gnuplot(sb, line.buf);
	}
	strbuf_release(&line);
	return nlines;
}

/* A tic label: 'ID' . "\n" . 'label, wrapped' ... (our own "\n" only);
 * returns its number of lines. */
size_t
chart_gp_tic_label(struct strbuf *sb, const char *id, const char *label,
    const char *extra, size_t width)
{
	size_t n = chart_gp_wrapped(sb, id, width);

	if (label && *label) {
		strbuf_addstr(sb, " . \"\\n\" . ");
		n += chart_gp_wrapped(sb, label, width);
	}
	if (extra && *extra) {
		strbuf_addstr(sb, " . \"\\n\" . ");
		n += chart_gp_wrapped(sb, extra, width);
	}
	return n;
}

/* Columns of text that fit under one of n groups across the chart. */
size_t
chart_group_columns(const struct chart *ch, size_t n)
{
	double px = (double)ch->width * 0.88 / (double)(n ? n : 1);
	double per = 0.68 * (double)ch->b->spec->font_size;

	return px / per < 6 ? 6 : (size_t)(px / per);
}

/* Display label of a cell: "A — Same AZ (baseline)" plus the condition
 * and dimension values when they tell cells apart. */
char *
chart_cell_label(const struct report_section *s, const char *path,
    const char *cond, bool show_cond, const char *dims)
{
	struct strbuf sb = STRBUF_INIT;
	const char *label = report_path_label(s, path);

	strbuf_addstr(&sb, path);
	if (*label)
		strbuf_addf(&sb, " — %s", label);
	if (show_cond)
		strbuf_addf(&sb, " · %s", *cond ? cond : "no condition");
	if (dims && *dims)
		strbuf_addf(&sb, " · %s", dims);
	/* a key entry stays on the page: cut long labels with an ellipsis */
	{
		const char *p = sb.buf;
		size_t cols = 0, len;

		while (*p && cols < CHART_LABEL_COLUMNS) {
			cols += char_width(p, &len);
			p += len;
		}
		if (*p) {
			strbuf_setlen(&sb, (size_t)(p - sb.buf));
			strbuf_addstr(&sb, "…");
		}
	}
	return strbuf_detach(&sb, NULL);
}

void
chart_init(struct chart *ch, struct report_bundle *b, struct report_section *s,
    size_t no)
{
	memset(ch, 0, sizeof(*ch));
	ch->b = b;
	ch->s = s;
	ch->c = s->chart;
	ch->stem = xasprintf("%02zu-%s", no, s->chart->id);
	ch->m = metric_by_name(s->metric);
	ch->unit = ch->m->display_unit;
	ch->scale = ch->m->display_scale;
	ch->dec = ch->m->display_decimals;
	ch->width = s->chart->width ? s->chart->width : b->spec->width;
	ch->height = s->chart->height ? s->chart->height : b->spec->height;
	strbuf_init(&ch->dat, 0);
	strbuf_init(&ch->pre, 0);
	strbuf_init(&ch->plot, 0);
	strbuf_init(&ch->footer, 0);
	strbuf_init(&ch->cap, 0);
	strbuf_init(&ch->what, 0);
	strbuf_init(&ch->note, 0);
	ch->logscale = s->chart->logscale;
	ch->flag_check = NULL;
	ch->flag_cells = NULL;
	ch->nflag_checks = 0;
}

void
chart_release(struct chart *ch)
{
	free(ch->stem);
	strbuf_release(&ch->dat);
	strbuf_release(&ch->note);
	strbuf_release(&ch->pre);
	strbuf_release(&ch->plot);
	strbuf_release(&ch->footer);
	strbuf_release(&ch->cap);
	strbuf_release(&ch->what);
	for (size_t i = 0; i < ch->nflag_checks; i++) {
		free(ch->flag_check[i]);
		strbuf_release(&ch->flag_cells[i]);
	}
	free(ch->flag_check);
	free(ch->flag_cells);
}

/* The check a note's text comes from ("trial 3: pathstat check,
 * burst-cliff: ..."), in name; false for other notes and for the checks
 * a chart does not mark. */
static bool
flag_check_name(const char *text, struct strbuf *name)
{
	static const char pre[] = "pathstat check, ";
	static const char *const unmarked[] = { "few-samples",
	    "missing-cells", "pooled-groups", "mixed-estimator" };
	const char *p = text ? strstr(text, pre) : NULL;
	size_t i;

	strbuf_reset(name);
	if (!p)
		return false;
	p += sizeof(pre) - 1;
	strbuf_add(name, p, strcspn(p, ": "));
	for (i = 0; i < ARRAY_SIZE(unmarked); i++)
		if (!strcmp(name->buf, unmarked[i]))
			return false;
	return name->len > 0;
}

/* Record one flag: where (the cell) under the check's name. */
static void
flag_record(struct chart *ch, const char *where, const char *name)
{
	size_t i;

	for (i = 0; i < ch->nflag_checks; i++)
		if (!strcmp(ch->flag_check[i], name))
			break;
	if (i == ch->nflag_checks) {
		ch->flag_check = xreallocarray(ch->flag_check, i + 1,
		    sizeof(*ch->flag_check));
		ch->flag_cells = xreallocarray(ch->flag_cells, i + 1,
		    sizeof(*ch->flag_cells));
		ch->flag_check[i] = xstrdup(name);
		strbuf_init(&ch->flag_cells[i], 0);
		ch->nflag_checks++;
	}
	strbuf_addf(&ch->flag_cells[i], "%s%s", ch->flag_cells[i].len ?
	    ", " : "", where);
}

size_t
chart_flag_cell(struct chart *ch, const char *path, const char *cond,
    long trial)
{
	struct strbuf name = STRBUF_INIT, where = STRBUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < ch->s->nnotes; i++) {
		const struct report_note *nt = &ch->s->notes[i];

		if (!flag_check_name(nt->text, &name))
			continue;
		if ((nt->metric && ch->m && strcmp(nt->metric, ch->m->name)) ||
		    (nt->path && strcmp(nt->path, path)) ||
		    (nt->condition && strcmp(nt->condition, cond)) ||
		    (trial > 0 && nt->trial != trial))
			continue;
		strbuf_reset(&where);
		strbuf_addstr(&where, path);
		if (*cond)
			strbuf_addf(&where, " · %s", cond);
		if (nt->trial > 0)
			strbuf_addf(&where, ", trial %ld", nt->trial);
		flag_record(ch, where.buf, name.buf);
		n++;
	}
	strbuf_release(&name);
	strbuf_release(&where);
	return n;
}

size_t
chart_flag_marks(struct chart *ch, const char *display, const char *where)
{
	const struct report_footnotes *fn = &ch->b->fn;
	struct strbuf name = STRBUF_INIT;
	const char *p = display;
	size_t n = 0;

	while (p && (p = strstr(p, "[^")) != NULL) {
		char *end;
		unsigned long k = strtoul(p + 2, &end, 10);

		p += 2;
		if (*end != ']' || k == 0 || k > fn->n)
			continue;
		if (!flag_check_name(fn->texts[k - 1], &name))
			continue;
		flag_record(ch, where, name.buf);
		n++;
	}
	strbuf_release(&name);
	return n;
}

void
chart_flag_legend(const struct chart *ch, struct strbuf *sb, bool shorter)
{
	size_t i;

	if (shorter) {
		strbuf_addstr(sb, "pathstat check finding");
		return;
	}
	strbuf_addstr(sb, "flagged by pathstat check: ");
	for (i = 0; i < ch->nflag_checks; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", ch->flag_check[i]);
}

const char *
chart_title(const struct chart *ch)
{
	if (ch->c->title)
		return ch->c->title;
	return ch->m->title;
}

void
chart_choose_unit(struct chart *ch, const double *v, size_t n)
{
	struct unit_choice u;
	double mx = NAN, mn = NAN;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (!(fabs(v[i]) <= mx))
			mx = fabs(v[i]);
		if (v[i] != 0 && !(fabs(v[i]) >= mn))
			mn = fabs(v[i]);
	}
	units_choose(ch->m, report_section_unit(ch->s), mx, true, &u);
	ch->unit = u.name;
	ch->scale = u.scale;
	ch->dec = u.decimals;
	if (u.decimals == UNITS_SIG3) {
		/* gnuplot's labels take one printf format: the decimals
		 * that give the smallest value 3 significant digits (at
		 * most 4: a 50 Mbit/s bar beside a 24 Gbit/s one reads
		 * 0.0503) */
		double low = isfinite(mn) ? mn * u.scale : 0;
		int d = low > 0 ? 2 - (int)floor(log10(low)) : 2;

		ch->dec = d < 0 ? 0 : d > 4 ? 4 : d;
	}
}

void
chart_choose_unit_col(struct chart *ch, const struct table *t, long col)
{
	double *v = xcalloc(t->nrows + 1, sizeof(double));
	size_t r;

	for (r = 0; r < t->nrows; r++)
		v[r] = table_num(t, r, col);
	chart_choose_unit(ch, v, t->nrows);
	free(v);
}

/* The y axis label: "TCP connect time (ms)". */
void
chart_axis_label(const struct chart *ch, struct strbuf *sb)
{
	strbuf_addf(sb, "%s (%s)", ch->m->title,
	    ch->unit);
}

/* The method part of caption and footer. */
static void
method_words(const struct analyze_opts *o, struct strbuf *sb)
{
	strbuf_addf(sb, "estimator %s, %s", stats_estimator_name(o->est),
	    o->pool == STATS_POOL_POOLED ? "pooled" :
	    "per trial, mean across trials");
}

/* The script's head: what it is, the knobs to restyle, the palette. */
static void
script_head(const struct chart *ch, struct strbuf *gp)
{
	const struct report_spec *spec = ch->b->spec;
	size_t i;

	strbuf_addf(gp, "# %s.gp - written by pathstat %s report from the "
	    "spec ", ch->stem, PATHSTAT_VERSION);
	report_gp_comment_text(gp, spec->file);
	strbuf_addstr(gp, " (");
	report_gp_comment_text(gp, ch->c->loc);
	strbuf_addstr(gp, ").\n# ");
	report_gp_comment_text(gp, chart_title(ch));
	strbuf_addf(gp, "\n# Data: %s.dat.  Edit freely, then render again "
	    "with\n#   gnuplot %s.gp\n# in this folder: it writes %s.png "
	    "and %s.svg.\n", ch->stem, ch->stem, ch->stem, ch->stem);
	strbuf_addstr(gp, "\nfont = ");
	escape_gnuplot(gp, spec->font);
	strbuf_addf(gp, "\nfont_size = %ld\nwidth = %ld\nheight = %ld\n",
	    spec->font_size, ch->width, ch->height);
	strbuf_addstr(gp, "small = sprintf(',%d', font_size - 2)\n"
	    "big = sprintf(',%d', font_size + 2)\n");
	strbuf_addstr(gp, "\nset encoding utf8\n"
	    "set datafile missing 'NaN'\n"
	    "# Okabe & Ito's colour-blind-safe palette; dash and point types\n"
	    "# differ as well, so series stay apart in grey print.\n");
	for (i = 0; i < ARRAY_SIZE(palette); i++)
		strbuf_addf(gp, "set linetype %zu lc rgb '%s' lw 2 dt %zu pt "
		    "%zu ps 1.3\n", i + 1, palette[i], i % 5 + 1,
		    (size_t[]){ 7, 5, 9, 11, 13, 15, 4, 6 }[i]);
	strbuf_addf(gp, "set linetype cycle %zu\n", ARRAY_SIZE(palette));
	strbuf_addstr(gp, "set border 3 lw 1 lc rgb '#333333'\n"
	    "set tics nomirror out scale 0.6\n"
	    "set style line 100 lc rgb '#dcdcdc' lw 1 dt 1\n"
	    "set grid ytics ls 100, ls 100\n"
	    "set key noenhanced opaque box lc rgb '#bbbbbb' samplen 2.5\n");
	chart_gp_set(gp, "title", chart_title(ch));
	strbuf_addstr(gp, "set title noenhanced font big\n");
	if (ch->footer.len) {
		strbuf_addstr(gp, "set label 99 ");
		escape_gnuplot(gp, ch->footer.buf);
		strbuf_addstr(gp, " at screen 0.995, screen 0.012 right "
		    "noenhanced font small tc rgb '#666666'\n");
	}
}

/* The output loop: the same drawing once per format. */
static void
script_loop(const struct chart *ch, struct strbuf *gp)
{
	strbuf_addstr(gp, "\ndo for [fmt in 'png svg'] {\n"
	    "\tif (fmt eq 'png') {\n"
	    "\t\tset terminal pngcairo size width, height noenhanced "
	    "background rgb 'white' font sprintf('%s,%d', font, font_size)\n"
	    "\t} else {\n"
	    "\t\tset terminal svg size width, height noenhanced dynamic "
	    "background rgb 'white' font sprintf('%s,%d', font, font_size)\n"
	    "\t}\n"
	    "\tset output ");
	escape_gnuplot(gp, ch->stem);
	strbuf_addstr(gp, " . '.' . fmt\n");
	{
		const char *p = ch->plot.buf, *nl;

		while (*p) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			strbuf_addch(gp, '\t');
			strbuf_add(gp, p, (size_t)(nl - p));
			strbuf_addch(gp, '\n');
			p = *nl ? nl + 1 : nl;
		}
	}
	strbuf_addstr(gp, "\tunset output\n}\n");
}

/* The data file of a plot clause: 'NN-id.dat' first, then '' (the
 * same file again). */
void
chart_plot_source(const struct chart *ch, struct strbuf *sb, bool first)
{
	struct strbuf name = STRBUF_INIT;

	if (!first) {
		strbuf_addstr(sb, "''");
		return;
	}
	strbuf_addf(&name, "%s.dat", ch->stem);
	escape_gnuplot(sb, name.buf);
	strbuf_release(&name);
}

/* Head of the .dat file. */
void
chart_dat_head(struct chart *ch)
{
	strbuf_addf(&ch->dat, "# %s.dat - data of %s.gp, written by pathstat "
	    "report.\n# ", ch->stem, ch->stem);
	report_gp_comment_text(&ch->dat, chart_title(ch));
	strbuf_addstr(&ch->dat, "\n# ");
	report_gp_comment_text(&ch->dat, ch->what.buf);
	strbuf_addch(&ch->dat, '\n');
}

/*
 * A key of n entries between the title and the plot, in as many rows as
 * the labels need at this width; the top margin grows to hold them.
 */
void
chart_key_above(struct chart *ch, char *const *labels, size_t n)
{
	double fs = (double)ch->b->spec->font_size, widest = 0;
	size_t i, per_row, rows;

	for (i = 0; i < n; i++) {
		const char *p = labels[i];
		size_t cols = 0, len;

		while (*p) {
			cols += char_width(p, &len);
			p += len;
		}
		widest = fmax(widest, (double)cols * 0.62 * fs + 6 * fs);
	}
	per_row = widest > 0 ? (size_t)((double)ch->width * 0.9 / widest) : n;
	if (per_row < 1)
		per_row = 1;
	if (per_row > n)
		per_row = n;
	rows = n ? (n + per_row - 1) / per_row : 1;
	ch->key_rows = rows;
	strbuf_addf(&ch->pre, "set tmargin %.1f\n"
	    "set title offset 0,%.1f\n"
	    "set key at graph 0.5, graph 1.02 center bottom horizontal "
	    "maxcols %zu reverse Left noopaque nobox\n",
	    3.5 + 1.25 * (double)rows, 1.25 * (double)rows + 0.2, per_row);
}

/* 1-2-5 tics across [lo, hi] on a log axis (gnuplot shows only powers
 * of ten there, too few when the data span one decade or two).  The
 * loop runs over decade exponents, not over the values, so 1e308, an
 * infinity or a subnormal 5e-324 cannot keep it going; wide
 * spans get powers of ten only, at most about 30 of them. */
void
chart_log_tics(struct strbuf *sb, const char *axis, double lo, double hi)
{
	static const double steps[] = { 1, 2, 5 };
	int e, e0, e1, every;
	size_t k, n = 0;

	if (!(lo > 0) || !(hi > lo))
		return;
	if (!isfinite(hi))
		hi = DBL_MAX;
	e0 = (int)fmax(floor(log10(lo)), -330.0);
	e1 = (int)fmin(ceil(log10(hi)), 310.0);
	every = (e1 - e0) / 30 + 1;
	strbuf_addf(sb, "set %stics (", axis);
	for (e = e0; e <= e1; e++) {
		double dec = pow(10, e);

		if (!(dec > 0) || !isfinite(dec) || (e - e0) % every)
			continue;
		for (k = 0; k < ARRAY_SIZE(steps); k++) {
			double v = steps[k] * dec;

			if (k && e1 - e0 > 12)
				break;
			if (!isfinite(v) || v < lo / 1.05 || v > hi * 1.05)
				continue;
			strbuf_addf(sb, "%s'%g' %g", n++ ? ", " : "", v, v);
		}
	}
	strbuf_addstr(sb, ")\n");
}

/* The largest 1-2-5 step (..., 0.05, 0.1, 0.2, 0.5, 1, ...) at or
 * below v > 0; v itself where no power of ten is at or below it (a
 * subnormal) or v is not finite, the smallest double above 0 when v is
 * not above 0 (a bottom computed from 5e-324 underflowed). */
double
chart_log_floor(double v)
{
	double dec;

	if (!(v > 0))
		return DBL_TRUE_MIN;	/* v underflowed: still above 0 */
	dec = pow(10, floor(log10(v)));
	if (!(dec > 0) || !isfinite(dec) || !isfinite(v))
		return v;
	if (v >= 5 * dec)
		return 5 * dec;
	if (v >= 2 * dec)
		return 2 * dec;
	return dec;
}

bool
chart_log_usable(struct chart *ch, const double *v, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	if (!ch->logscale)
		return false;
	for (i = 0; i < n; i++)
		if (isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	if (!isfinite(lo) || (lo > 0 && hi > lo))
		return true;
	ch->logscale = false;
	strbuf_addstr(&ch->note, lo <= 0 ? "; a linear axis: some values "
	    "are 0 or below, which a log axis cannot show" : "; a linear "
	    "axis: every value is the same");
	return false;
}

/* qsort context of chart_pick: the keys (one sort at a time). */
static const double *pick_key;

static int
pick_cmp(const void *a, const void *b)
{
	double x = pick_key[*(const size_t *)a], y = pick_key[*(const size_t *)b];

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

bool *
chart_pick(const double *key, size_t n, size_t cap, size_t *nkept)
{
	bool *keep = xcalloc(n + 1, sizeof(bool));
	size_t *rank, i;

	*nkept = 0;
	if (n <= cap || cap < 2) {
		for (i = 0; i < n; i++)
			keep[i] = i < cap || n <= cap;
		*nkept = n <= cap ? n : cap;
		return keep;
	}
	rank = xcalloc(n, sizeof(size_t));
	for (i = 0; i < n; i++)
		rank[i] = i;
	pick_key = key;
	qsort(rank, n, sizeof(*rank), pick_cmp);
	pick_key = NULL;
	for (i = 0; i < cap; i++) {
		size_t r = (size_t)((double)i * (double)(n - 1) /
		    (double)(cap - 1) + 0.5);

		if (!keep[rank[r]]) {
			keep[rank[r]] = true;
			(*nkept)++;
		}
	}
	free(rank);
	return keep;
}

/* v, or the largest finite double in its place when it overflowed
 * (an axis end beyond 1.7e308). */
double
chart_finite(double v)
{
	return isfinite(v) ? v : v > 0 ? DBL_MAX : -DBL_MAX;
}

/* ------------------------------------------------------------------
 * The chart's files, and its figure queued for render.c
 */

static const char *const kind_names[] = {
	"bars", "relative", "ecdf", "timeseries", "box", "days", "heatmap",
};

/* Write .dat and .gp, and queue the chart: render.c renders it and
 * adds the figure to index.md. */
int
chart_finish(struct chart *ch)
{
	struct report_bundle *b = ch->b;
	struct strbuf gp = STRBUF_INIT, rel = STRBUF_INIT;
	struct strbuf title = STRBUF_INIT, body = STRBUF_INIT;
	const char *t = chart_title(ch);
	int ret = -1;

	script_head(ch, &gp);
	strbuf_addch(&gp, '\n');
	strbuf_add(&gp, ch->pre.buf, ch->pre.len);
	script_loop(ch, &gp);
	strbuf_addf(&rel, "charts/%s.dat", ch->stem);
	if (report_bundle_write(b, rel.buf, ch->dat.buf, ch->dat.len))
		goto cleanup;
	strbuf_reset(&rel);
	strbuf_addf(&rel, "charts/%s.gp", ch->stem);
	if (report_bundle_write(b, rel.buf, gp.buf, gp.len))
		goto cleanup;

	escape_md(&title, t);
	strbuf_addstr(&body, strchr(".?!:", t[strlen(t) ? strlen(t) - 1 : 0]) ?
	    " " : ". ");
	escape_md(&body, ch->cap.buf);
	escape_md(&body, ch->note.buf);
	if (ch->nflag_checks) {
		size_t i;

		strbuf_addstr(&body, "; " CHART_FLAG_MARK " marks what "
		    "pathstat check flagged (the table's footnotes say what "
		    "it found and what to do): ");
		for (i = 0; i < ch->nflag_checks; i++) {
			if (i)
				strbuf_addstr(&body, "; ");
			escape_md(&body, ch->flag_check[i]);
			strbuf_addstr(&body, " in ");
			escape_md(&body, ch->flag_cells[i].buf);
		}
	}
	report_chart_queue(b, ch->s, ch->stem, kind_names[ch->c->kind],
	    strbuf_detach(&title, NULL), strbuf_detach(&body, NULL));
	ret = 0;
cleanup:
	strbuf_release(&gp);
	strbuf_release(&rel);
	strbuf_release(&title);
	strbuf_release(&body);
	return ret;
}

/* ------------------------------------------------------------------
 * Tables from analyze for a chart
 */

/* One "# <what> <i>: <label>" comment line of a .dat file, the label
 * made safe for a comment. */
void
chart_dat_label(struct chart *ch, const char *what, size_t i, const char *label)
{
	strbuf_addf(&ch->dat, "# %s %zu: ", what, i);
	report_gp_comment_text(&ch->dat, label);
	strbuf_addch(&ch->dat, '\n');
}

/* A string cell, "" when absent (charts print it). */
const char *
chart_str_at(const struct table *t, size_t row, long col)
{
	const char *s = table_str(t, row, col);

	return s ? s : "";
}


/*
 * report_build() for chart ch.  A heatmap shows one path (where path=X,
 * nothing else on path): the made spec draws one per path of each
 * metric read over a month, each table of its path selecting and
 * loading that path's runs anew (10 % of a no-spec report's
 * instructions over a team's 84 days).  Each percentile cell is its
 * path's own, computed from its runs alone, so the table of every path
 * holds the same rows: it is built once (the table memo keeps it for
 * the metric's next heatmap) and each heatmap takes its path's rows.
 * A path with no rows there is built alone, for the same words on why
 * it is empty.  PATHSTAT_DEBUG_NO_HEATMAP_ROWS: each built alone.
 */
static int
chart_build(struct chart *ch, const char *verb, struct analyze_opts *o,
    struct table *t)
{
	struct analyze_opts all;
	struct table whole;
	const char *path = NULL;
	size_t i, n = 0;
	long pc;

	if (ch->c->kind != REPORT_CHART_HEATMAP || strcmp(verb,
	    "percentiles") || o->npaths || getenv(
	    "PATHSTAT_DEBUG_NO_HEATMAP_ROWS"))
		return report_build(ch->b->db, verb, o, 0, NULL, t);
	for (i = 0; i < o->where.n; i++)
		if (!strcmp(o->where.items[i].key, "path")) {
			path = o->where.items[i].value;
			n++;
		}
	if (n != 1 || !*path || where_range(path, NULL, NULL))
		return report_build(ch->b->db, verb, o, 0, NULL, t);
	/* o without its path filter: the items borrowed, the list ours */
	all = *o;
	all.where.items = xcalloc(o->where.n, sizeof(*all.where.items));
	all.where.n = all.where.alloc = 0;
	for (i = 0; i < o->where.n; i++)
		if (strcmp(o->where.items[i].key, "path"))
			all.where.items[all.where.n++] = o->where.items[i];
	table_init(&whole);
	if (report_build(ch->b->db, verb, &all, 0, NULL, &whole) ||
	    (pc = table_col(&whole, "path")) < 0) {
		free(all.where.items);
		table_release(&whole);
		return report_build(ch->b->db, verb, o, 0, NULL, t);
	}
	free(all.where.items);
	table_release(t);
	report_table_rows(t, &whole, pc, path);
	table_release(&whole);
	if (!t->nrows) {
		table_release(t);
		table_init(t);
		return report_build(ch->b->db, verb, o, 0, NULL, t);
	}
	return 0;
}

/* Build the analyze table of the chart's section with verb, extra --by
 * keys appended (NULL-terminated) and pooling forced when pool >= 0.
 * On success the caller releases o and t; on failure nothing is left
 * to release. */
int
chart_table(struct chart *ch, const char *verb, const char *const *extra_by,
    int pool, struct analyze_opts *o, struct table *t)
{
	table_init(t);
	if (report_section_opts(ch->b->spec, ch->s, o))
		return -1;
	return chart_table_opts(ch, verb, extra_by, pool, o, t);
}

int
chart_table_stat(struct chart *ch, const char *verb,
    const char *const *extra_by, int pool, struct analyze_opts *o,
    struct table *t)
{
	struct stats_name sn;
	const char *why = NULL;

	table_init(t);
	if (report_section_opts(ch->b->spec, ch->s, o))
		return -1;
	/* one valid name (else chart_stat_table() says what is wrong) */
	if (ch->c->stat && chart_stat(ch, o) == o->nstats &&
	    !stats_name_parse(ch->c->stat, &sn, &why)) {
		struct strbuf sb = STRBUF_INIT;

		(void)analyze_opts_set_stats(o, ch->c->stat, &sb);
		strbuf_release(&sb);
	}
	return chart_table_opts(ch, verb, extra_by, pool, o, t);
}

int
chart_table_opts(struct chart *ch, const char *verb,
    const char *const *extra_by, int pool, struct analyze_opts *o,
    struct table *t)
{
	size_t i;

	table_init(t);
	for (i = 0; extra_by && extra_by[i]; i++) {
		size_t j;

		for (j = 0; j < o->nby; j++)
			if (!strcmp(o->by[j], extra_by[i]))
				break;
		if (j < o->nby)
			continue;
		o->by = xreallocarray(o->by, o->nby + 1, sizeof(char *));
		o->by[o->nby++] = xstrdup(extra_by[i]);
	}
	if (pool >= 0)
		o->pool = (enum stats_pool)pool;
	if (chart_build(ch, verb, o, t)) {
		analyze_opts_release(o);
		table_release(t);
		return report_spec_error(ch->b->spec, ch->c->loc, "the chart's "
		    "%s table could not be built", verb);
	}
	return 0;
}

/* The dimension values of row r other than those in skip, "k=v, k=v". */
void
chart_dims_text(const struct table *t, const struct analyze_opts *o, size_t r,
    const char *skip, struct strbuf *sb)
{
	size_t i;

	strbuf_reset(sb);
	for (i = 0; i < o->nby; i++) {
		if (skip && !strcmp(o->by[i], skip))
			continue;
		strbuf_addf(sb, "%s%s=%s", sb->len ? ", " : "", o->by[i],
		    chart_str_at(t, r, table_col(t, o->by[i])));
	}
}

/* Do rows of t have more than one condition? */
bool
chart_several_conditions(const struct table *t)
{
	long c = table_col(t, "condition");
	size_t r;

	for (r = 1; r < t->nrows; r++)
		if (strcmp(chart_str_at(t, r, c), chart_str_at(t, 0, c)))
			return true;
	return false;
}

/* "n = 300 per path" style counts of a percentiles table. */
void
chart_count_words(const struct table *t, const char *what, struct strbuf *sb)
{
	long nc = table_col(t, "n"), tc = table_col(t, "trials");
	double nlo = INFINITY, nhi = -INFINITY, tlo = INFINITY, thi = -INFINITY;
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		double n = table_num(t, r, nc), tr = table_num(t, r, tc);

		if (isfinite(n)) {
			nlo = fmin(nlo, n);
			nhi = fmax(nhi, n);
		}
		if (isfinite(tr)) {
			tlo = fmin(tlo, tr);
			thi = fmax(thi, tr);
		}
	}
	if (isfinite(nlo)) {
		if (nlo == nhi)
			strbuf_addf(sb, "; n = %.0f per %s", nlo, what);
		else
			strbuf_addf(sb, "; n = %.0f–%.0f per %s", nlo, nhi,
			    what);
	}
	if (isfinite(tlo)) {
		if (tlo == thi)
			strbuf_addf(sb, "; %.0f trial%s each", tlo, tlo == 1 ?
			    "" : "s");
		else
			strbuf_addf(sb, "; %.0f–%.0f trials each", tlo, thi);
	}
}

/* Caption and footer common part: metric, method, counts, where. */
void
chart_describe(struct chart *ch, const struct analyze_opts *o,
    const char *counts)
{
	struct strbuf w = STRBUF_INIT;

	report_where_text(ch->s, &w);
	strbuf_addf(&ch->cap, "%s (%s) in %s",
	    ch->m->title, ch->s->metric, ch->unit);
	if (o) {
		strbuf_addstr(&ch->cap, "; ");
		method_words(o, &ch->cap);
	}
	strbuf_addstr(&ch->cap, counts);
	if (w.len)
		strbuf_addf(&ch->cap, "; where %s", w.buf);
	strbuf_addstr(&ch->footer, "pathstat");
	if (o) {
		strbuf_addstr(&ch->footer, " · ");
		method_words(o, &ch->footer);
	}
	strbuf_addf(&ch->footer, "%s", counts);
	/* the footer is one line of small print: "; " reads as " · " */
	{
		struct strbuf f = STRBUF_INIT;
		const char *p;

		for (p = ch->footer.buf; *p; p++) {
			if (p[0] == ';' && p[1] == ' ') {
				strbuf_addstr(&f, " ·");
				continue;
			}
			strbuf_addch(&f, *p);
		}
		strbuf_reset(&ch->footer);
		strbuf_add(&ch->footer, f.buf, f.len);
		strbuf_release(&f);
	}
	strbuf_release(&w);
}

/* The statistic a one-statistic chart shows: chart "stat", else the
 * section's first that is not n. */
size_t
chart_stat(const struct chart *ch, const struct analyze_opts *o)
{
	size_t j;

	for (j = 0; j < o->nstats; j++)
		if (ch->c->stat ? !strcmp(o->stat_names[j], ch->c->stat) :
		    o->stats[j].kind != STATS_NAME_N)
			return j;
	return o->nstats;
}

/* Ask analyze for the chart's statistic too (chart "stat" may be one
 * the section does not list): when the chart names one, o gets it and t
 * is built again with it.  Returns 0, or -1 after printing (the caller
 * still releases o and t). */
int
chart_stat_table(struct chart *ch, struct analyze_opts *o, struct table *t)
{
	struct strbuf why = STRBUF_INIT;
	bool again = false;
	int ret = 0;

	/* the table must hold the statistic itself: a section without
	 * "stats" lists the report's defaults in o, but analyze builds
	 * the metric's own (a throughput heatmap of p99 was all NaN) */
	if (ch->c->stat && (chart_stat(ch, o) == o->nstats ||
	    table_col(t, ch->c->stat) < 0)) {
		if (analyze_opts_set_stats(o, ch->c->stat, &why))
			ret = report_spec_error(ch->b->spec, ch->c->loc, "%s",
			    why.buf);
		again = true;
	}
	strbuf_release(&why);
	/* t already has the statistic when the section lists it: building
	 * it again read every sample a second time (a year's day chart) */
	if (!ret && again) {
		table_release(t);
		table_init(t);
		if (chart_build(ch, "percentiles", o, t))
			ret = -1;
	}
	return ret;
}
