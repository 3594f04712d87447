/*
 * chart.c - the charts of a bundle, one gnuplot script and one data file
 * each (charts/NN-id.gp, .dat), rendered to PNG (pngcairo) and SVG when
 * gnuplot runs.  Numbers come from analyze_build() (bars, relative, box,
 * days) or straight from the samples (ECDF, throughput over time).
 * User text reaches a script only through report_gp_quote(); data
 * files hold numbers and '#' comments.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/cells.h"
#include "common/db.h"
#include "common/err.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/version.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "report/internal.h"

/* Okabe & Ito's palette, safe for the common colour-vision deficiencies;
 * dash and point types differ too, so lines stay apart in grey. */
static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
	"#000000", "#999999",
};

/* A box chart names a trial whose value is this many times its box's
 * median (or less than the inverse). */
#define BOX_NAME_RATIO		1.25

/* A horizontal key between the title and the plot. */
#define KEY_ABOVE "set tmargin 5\n" \
	"set title offset 0,1.4\n" \
	"set key at graph 0.5, graph 1.02 center bottom horizontal reverse " \
	"Left noopaque nobox\n"

/* Longest label (in columns) a key entry or panel title shows. */
#define CHART_LABEL_COLUMNS	48

/* Most panels a time-series chart draws. */
#define CHART_MAX_PANELS	12

struct chart {
	struct report_bundle	*b;
	struct report_section	*s;
	const struct report_chart *c;
	const struct metric *m;		/* the section's metric */
	char		*stem;		/* "03-connect" (owned) */
	const char	*unit;		/* chart unit: ms, Gbit/s ... */
	double		scale;		/* metric unit -> chart unit */
	int		dec;		/* decimals of value labels */
	long		width, height;	/* pixels */
	struct strbuf	dat;		/* the .dat file */
	struct strbuf	pre;		/* script: settings before the loop */
	struct strbuf	plot;		/* script: what each output draws */
	struct strbuf	footer;		/* small print under the chart */
	struct strbuf	cap;		/* caption for index.md (plain) */
	struct strbuf	what;		/* the .dat columns, in one line */
};

/* One data series or group: a cell's label and its numbers. */
struct series {
	char	*label;		/* display text (owned) */
	char	*comment;	/* path, condition ... (owned) */
	double	*v;		/* values (owned) */
	long	*tag;		/* per value: trial number (box), or 0 */
	size_t	n, alloc;
};

static void
series_free(struct series *s, size_t n)
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

static void
series_push(struct series *s, double v, long tag)
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

static void
gp_num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_add_double(sb, v);
	else
		strbuf_addstr(sb, "NaN");
}

/* "set KEY 'text'" with the text quoted. */
static void
gp_set(struct strbuf *sb, const char *what, const char *text)
{
	strbuf_addf(sb, "set %s ", what);
	report_gp_quote(sb, text);
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
static size_t
gp_wrapped(struct strbuf *sb, const char *text, size_t width)
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
			report_gp_quote(sb, line.buf);
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
		report_gp_quote(sb, line.buf);
	}
	strbuf_release(&line);
	return nlines;
}

/* A tic label: 'ID' . "\n" . 'label, wrapped' ... (our own "\n" only);
 * returns its number of lines. */
static size_t
gp_tic_label(struct strbuf *sb, const char *id, const char *label,
    const char *extra, size_t width)
{
	size_t n = gp_wrapped(sb, id, width);

	if (label && *label) {
		strbuf_addstr(sb, " . \"\\n\" . ");
		n += gp_wrapped(sb, label, width);
	}
	if (extra && *extra) {
		strbuf_addstr(sb, " . \"\\n\" . ");
		n += gp_wrapped(sb, extra, width);
	}
	return n;
}

/* Columns of text that fit under one of n groups across the chart. */
static size_t
group_columns(const struct chart *ch, size_t n)
{
	double px = (double)ch->width * 0.88 / (double)(n ? n : 1);
	double per = 0.68 * (double)ch->b->spec->font_size;

	return px / per < 6 ? 6 : (size_t)(px / per);
}

/* Display label of a cell: "A — Same AZ (baseline)" plus the condition
 * and dimension values when they tell cells apart. */
static char *
cell_label(const struct report_section *s, const char *path,
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

static void
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
}

static void
chart_release(struct chart *ch)
{
	free(ch->stem);
	strbuf_release(&ch->dat);
	strbuf_release(&ch->pre);
	strbuf_release(&ch->plot);
	strbuf_release(&ch->footer);
	strbuf_release(&ch->cap);
	strbuf_release(&ch->what);
}

static const char *
chart_title(const struct chart *ch)
{
	if (ch->c->title)
		return ch->c->title;
	return ch->m->title;
}

/* The y axis label: "TCP connect time (ms)". */
static void
axis_label(const struct chart *ch, struct strbuf *sb)
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
	report_gp_quote(gp, spec->font);
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
	gp_set(gp, "title", chart_title(ch));
	strbuf_addstr(gp, "set title noenhanced font big\n");
	if (ch->footer.len) {
		strbuf_addstr(gp, "set label 99 ");
		report_gp_quote(gp, ch->footer.buf);
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
	report_gp_quote(gp, ch->stem);
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
static void
plot_source(const struct chart *ch, struct strbuf *sb, bool first)
{
	struct strbuf name = STRBUF_INIT;

	if (!first) {
		strbuf_addstr(sb, "''");
		return;
	}
	strbuf_addf(&name, "%s.dat", ch->stem);
	report_gp_quote(sb, name.buf);
	strbuf_release(&name);
}

/* Head of the .dat file. */
static void
dat_head(struct chart *ch)
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
static void
key_above(struct chart *ch, char *const *labels, size_t n)
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
	strbuf_addf(&ch->pre, "set tmargin %.1f\n"
	    "set title offset 0,%.1f\n"
	    "set key at graph 0.5, graph 1.02 center bottom horizontal "
	    "maxcols %zu reverse Left noopaque nobox\n",
	    3.5 + 1.25 * (double)rows, 1.25 * (double)rows + 0.2, per_row);
}

/* 1-2-5 tics across [lo, hi] on a log axis (gnuplot shows only powers
 * of ten there, too few when the data span one decade or two). */
static void
log_tics(struct strbuf *sb, const char *axis, double lo, double hi)
{
	static const double steps[] = { 1, 2, 5 };
	double dec;
	size_t k, n = 0;

	if (!(lo > 0) || !(hi > lo))
		return;
	strbuf_addf(sb, "set %stics (", axis);
	for (dec = pow(10, floor(log10(lo))); dec <= hi * 10; dec *= 10) {
		for (k = 0; k < ARRAY_SIZE(steps); k++) {
			double v = steps[k] * dec;

			if (v < lo / 1.05 || v > hi * 1.05)
				continue;
			strbuf_addf(sb, "%s'%g' %g", n++ ? ", " : "", v, v);
		}
	}
	strbuf_addstr(sb, ")\n");
}

/* ------------------------------------------------------------------
 * Rendering and the figure in index.md
 */

/* The lines of text, each once (both outputs repeat gnuplot's
 * warnings), without the last newline. */
static void
unique_lines(const char *text, struct strbuf *out)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);
		const char *seen = out->buf;
		bool dup = false;

		while (!dup && (seen = strstr(seen, line)) != NULL) {
			dup = (seen == out->buf || seen[-1] == '\n') &&
			    (seen[len] == '\n' || seen[len] == '\0');
			seen++;
		}
		if (len && !dup)
			strbuf_addf(out, "%s%s", out->len ? "\n" : "", line);
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

static int
chart_render(struct chart *ch, bool *rendered)
{
	struct report_bundle *b = ch->b;
	struct report_run_result res;
	struct strbuf gp = STRBUF_INIT, rel = STRBUF_INIT;
	char *argv[3];
	int ret = 0;

	*rendered = false;
	if (!b->render)
		return 0;
	strbuf_addf(&gp, "%s.gp", ch->stem);
	argv[0] = (char *)report_gnuplot_program();
	argv[1] = gp.buf;
	argv[2] = NULL;
	/* in the bundle's private charts folder (bundle.c) */
	if (report_run_program(b->stage_charts, argv, b->timeout_s, &res)) {
		if (res.exec_errno) {
			/* gone since we looked: treat as not installed */
			b->render = false;
		} else {
			ret = error("gnuplot failed on charts/%s.gp%s%s",
			    ch->stem, res.timed_out ? " (timed out)" : "",
			    res.err.len ? ":" : "");
			if (res.err.len)
				fprintf(stderr, "%s%s", res.err.buf,
				    res.err.buf[res.err.len - 1] == '\n' ? "" :
				    "\n");
			b->nfailed++;
		}
	} else {
		if (res.err.len) {
			struct strbuf msg = STRBUF_INIT;

			unique_lines(res.err.buf, &msg);
			warning("gnuplot on charts/%s.gp said: %s", ch->stem,
			    msg.buf);
			strbuf_release(&msg);
		}
		strbuf_addf(&rel, "charts/%s.png", ch->stem);
		report_bundle_add_file(b, rel.buf);
		strbuf_reset(&rel);
		strbuf_addf(&rel, "charts/%s.svg", ch->stem);
		report_bundle_add_file(b, rel.buf);
		b->nrendered++;
		*rendered = true;
	}
	report_run_result_release(&res);
	strbuf_release(&gp);
	strbuf_release(&rel);
	return ret;
}

static const char *const kind_names[] = {
	"bars", "relative", "ecdf", "timeseries", "box", "days",
};

/* Write .dat and .gp, render, and add the figure to index.md. */
static int
chart_finish(struct chart *ch)
{
	struct report_bundle *b = ch->b;
	struct strbuf gp = STRBUF_INIT, rel = STRBUF_INIT, *md = &b->index;
	cJSON *entry;
	bool rendered = false;
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
	if (chart_render(ch, &rendered))
		goto cleanup;

	b->ncharts++;
	strbuf_addstr(md, "\n![Figure ");
	strbuf_addf(md, "%zu: ", b->ncharts);
	md_escape(md, chart_title(ch));
	strbuf_addf(md, "](charts/%s.png)\n\n_Figure %zu: ", ch->stem,
	    b->ncharts);
	md_escape(md, chart_title(ch));
	strbuf_addstr(md, strchr(".?!:", chart_title(ch)[strlen(chart_title(ch))
	    ? strlen(chart_title(ch)) - 1 : 0]) ? " " : ". ");
	md_escape(md, ch->cap.buf);
	strbuf_addf(md, "._ [SVG](charts/%s.svg) · [data](charts/%s.dat) · "
	    "[gnuplot script](charts/%s.gp)\n", ch->stem, ch->stem, ch->stem);
	if (!rendered)
		strbuf_addf(md, "\n_Not rendered: gnuplot was not available. "
		    "To draw this figure, install gnuplot (Debian: `sudo "
		    "apt-get install gnuplot-nox`) and run `gnuplot %s.gp` in "
		    "the `charts` folder._\n", ch->stem);

	entry = cJSON_CreateObject();
	cJSON_AddNumberToObject(entry, "figure", (double)b->ncharts);
	cJSON_AddStringToObject(entry, "kind", kind_names[ch->c->kind]);
	cJSON_AddStringToObject(entry, "spec_location", ch->c->loc);
	cJSON_AddStringToObject(entry, "script", rel.buf);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "charts/%s.dat", ch->stem);
	cJSON_AddStringToObject(entry, "data", rel.buf);
	cJSON_AddBoolToObject(entry, "rendered", rendered);
	/* from where report ran, like every other command recorded */
	strbuf_reset(&rel);
	strbuf_addstr(&rel, "cd ");
	report_shell_quote(&rel, b->dir);
	strbuf_addf(&rel, "/charts && gnuplot %s.gp", ch->stem);
	cJSON_AddStringToObject(entry, "command", rel.buf);
	cJSON_AddItemToArray(b->prov_charts, entry);
	ret = 0;
cleanup:
	strbuf_release(&gp);
	strbuf_release(&rel);
	return ret;
}

/* ------------------------------------------------------------------
 * Tables from analyze for a chart
 */

/* One "# <what> <i>: <label>" comment line of a .dat file, the label
 * made safe for a comment. */
static void
dat_label(struct chart *ch, const char *what, size_t i, const char *label)
{
	strbuf_addf(&ch->dat, "# %s %zu: ", what, i);
	report_gp_comment_text(&ch->dat, label);
	strbuf_addch(&ch->dat, '\n');
}

/* A string cell, "" when absent (charts print it). */
static const char *
str_at(const struct table *t, size_t row, long col)
{
	const char *s = table_str(t, row, col);

	return s ? s : "";
}


/* Build the analyze table of the chart's section with verb, extra --by
 * keys appended (NULL-terminated) and pooling forced when pool >= 0.
 * On success the caller releases o and t; on failure nothing is left
 * to release. */
static int
chart_table(struct chart *ch, const char *verb, const char *const *extra_by,
    int pool, struct analyze_opts *o, struct table *t)
{
	size_t i;

	table_init(t);
	if (report_section_opts(ch->b->spec, ch->s, o))
		return -1;
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
	if (analyze_build(ch->b->db, verb, o, 0, NULL, t)) {
		analyze_opts_release(o);
		table_release(t);
		return report_spec_error(ch->b->spec, ch->c->loc, "the chart's "
		    "%s table could not be built", verb);
	}
	return 0;
}

/* The dimension values of row r other than those in skip, "k=v, k=v". */
static void
dims_text(const struct table *t, const struct analyze_opts *o, size_t r,
    const char *skip, struct strbuf *sb)
{
	size_t i;

	strbuf_reset(sb);
	for (i = 0; i < o->nby; i++) {
		if (skip && !strcmp(o->by[i], skip))
			continue;
		strbuf_addf(sb, "%s%s=%s", sb->len ? ", " : "", o->by[i],
		    str_at(t, r, table_col(t, o->by[i])));
	}
}

/* Do rows of t have more than one condition? */
static bool
several_conditions(const struct table *t)
{
	long c = table_col(t, "condition");
	size_t r;

	for (r = 1; r < t->nrows; r++)
		if (strcmp(str_at(t, r, c), str_at(t, 0, c)))
			return true;
	return false;
}

/* "n = 300 per path" style counts of a percentiles table. */
static void
count_words(const struct table *t, const char *what, struct strbuf *sb)
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
static void
describe(struct chart *ch, const struct analyze_opts *o, const char *counts)
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

/* ------------------------------------------------------------------
 * Grouped bars
 */

struct bars {
	size_t		ngroups, nseries;
	char		**gid;		/* group path ID (borrowed) */
	char		**glabel;	/* group label (owned) */
	char		**gextra;	/* condition/dims, or NULL (owned) */
	char		**sname;	/* series names (owned) */
	double		*v;		/* ngroups * nseries, chart unit */
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
}

static void
bars_script(struct chart *ch, const struct bars *br)
{
	double width = 0.8, bw = width / (double)br->nseries;
	size_t g, k, lines = 1, cols = group_columns(ch, br->ngroups);
	struct strbuf y = STRBUF_INIT, tics = STRBUF_INIT;

	for (g = 0; g < br->ngroups; g++) {
		size_t n;

		if (g)
			strbuf_addstr(&tics, ", \\\n    ");
		n = gp_tic_label(&tics, br->gid[g], report_path_label(ch->s,
		    br->gid[g]), br->gextra[g], cols);
		strbuf_addf(&tics, " %zu", g);
		if (n > lines)
			lines = n;
	}
	strbuf_addf(&ch->pre, "set style fill solid 0.9 border lc rgb "
	    "'#333333'\nset boxwidth %.4f absolute\nset xrange [-0.6:%zu.4]\n"
	    "set bmargin %zu\n"
	    KEY_ABOVE,
	    bw * 0.92, br->ngroups - 1, lines + 3);
	if (ch->c->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	else
		strbuf_addstr(&ch->pre, "set yrange [0:*]\n"
		    "set offsets 0, 0, graph 0.06, 0\n");
	axis_label(ch, &y);
	gp_set(&ch->pre, "ylabel", y.buf);
	strbuf_addf(&ch->pre, "set xtics (%s) noenhanced\n", tics.buf);
	/* cells with no data say so instead of showing nothing */
	for (g = 0; g < br->ngroups; g++) {
		for (k = 0; k < br->nseries; k++) {
			double x = (double)g - width / 2 +
			    bw * ((double)k + 0.5);

			if (isfinite(br->v[g * br->nseries + k]))
				continue;
			strbuf_addf(&ch->pre, "set label 'not measured' at "
			    "%.4f, graph 0.03 left rotate by 90 font small "
			    "tc rgb '#555555' noenhanced\n", x);
		}
	}
	strbuf_addstr(&ch->plot, "plot \\\n");
	for (k = 0; k < br->nseries; k++) {
		double off = -width / 2 + bw * ((double)k + 0.5);

		strbuf_addstr(&ch->plot, "    ");
		plot_source(ch, &ch->plot, k == 0);
		strbuf_addf(&ch->plot, " using ($1%+.4f):%zu with boxes "
		    "lt %zu dt solid title ", off, k + 2, k + 1);
		report_gp_quote(&ch->plot, br->sname[k]);
		strbuf_addf(&ch->plot, ", \\\n    '' using ($1%+.4f):%zu:"
		    "(sprintf('%%.%df', $%zu)) with labels offset 0,0.6 "
		    "font small notitle%s\n", off, k + 2, ch->dec, k + 2,
		    k + 1 < br->nseries ? ", \\" : "");
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
	strbuf_addf(&ch->what, " (in %s; NaN = not measured)", ch->unit);
	dat_head(ch);
	for (g = 0; g < br->ngroups; g++) {
		dat_label(ch, "group", g, br->glabel[g]);
	}
	for (g = 0; g < br->ngroups; g++) {
		strbuf_addf(&ch->dat, "%zu", g);
		for (k = 0; k < br->nseries; k++) {
			strbuf_addch(&ch->dat, ' ');
			gp_num(&ch->dat, br->v[g * br->nseries + k]);
		}
		strbuf_addch(&ch->dat, '\n');
	}
}

static int
chart_bars(struct chart *ch, const struct table *pivot)
{
	struct analyze_opts o;
	struct table t;
	struct bars br;
	struct strbuf sb = STRBUF_INIT, counts = STRBUF_INIT;
	size_t r, k, j;
	int ret = -1;

	memset(&br, 0, sizeof(br));
	table_init(&t);
	if (pivot) {
		/* series: the pivot's condition columns; groups: its rows */
		if (report_section_opts(ch->b->spec, ch->s, &o))
			return -1;
		br.sname = xcalloc(pivot->ncols + 1, sizeof(char *));
		for (k = 0; k < ch->s->ncols || (!ch->s->ncols && k + 2 <
		    pivot->ncols); k++) {
			if (ch->s->ncols && ch->s->cols[k].derive)
				continue;
			br.sname[br.nseries++] =
			    xstrdup(pivot->cols[k + 2].header);
		}
		br.ngroups = pivot->nrows;
		br.gid = xcalloc(br.ngroups + 1, sizeof(char *));
		br.glabel = xcalloc(br.ngroups + 1, sizeof(char *));
		br.gextra = xcalloc(br.ngroups + 1, sizeof(char *));
		br.v = xcalloc(br.ngroups * br.nseries + 1, sizeof(double));
		for (r = 0; r < pivot->nrows; r++) {
			br.gid[r] = (char *)str_at(pivot, r, 0);
			br.glabel[r] = cell_label(ch->s, br.gid[r], "", false,
			    NULL);
			for (k = 0, j = 0; k + 2 < pivot->ncols; k++) {
				if (ch->s->ncols && ch->s->cols[k].derive)
					continue;
				br.v[r * br.nseries + j++] = table_num(pivot, r,
				    (long)k + 2) * ch->scale;
			}
		}
		strbuf_addstr(&counts, "; bars as in the table above");
	} else {
		long pc, cc;
		bool sev;

		if (chart_table(ch, "percentiles", NULL, -1, &o, &t))
			return -1;
		pc = table_col(&t, "path");
		cc = table_col(&t, "condition");
		sev = several_conditions(&t);
		br.sname = xcalloc(o.nstats + 1, sizeof(char *));
		for (j = 0; j < o.nstats; j++)
			if (o.stats[j].kind == STATS_NAME_PCT)
				br.sname[br.nseries++] =
				    xstrdup(o.stat_names[j]);
		if (!br.nseries) {
			report_spec_error(ch->b->spec, ch->c->loc, "a bars "
			    "chart shows percentiles: the section's stats "
			    "have none");
			goto cleanup;
		}
		br.ngroups = t.nrows;
		br.gid = xcalloc(br.ngroups + 1, sizeof(char *));
		br.glabel = xcalloc(br.ngroups + 1, sizeof(char *));
		br.gextra = xcalloc(br.ngroups + 1, sizeof(char *));
		br.v = xcalloc(br.ngroups * br.nseries + 1, sizeof(double));
		for (r = 0; r < t.nrows; r++) {
			dims_text(&t, &o, r, NULL, &sb);
			br.gid[r] = (char *)str_at(&t, r, pc);
			br.glabel[r] = cell_label(ch->s, br.gid[r], str_at(&t,
			    r, cc), sev, sb.buf);
			if (sev || sb.len) {
				struct strbuf e = STRBUF_INIT;

				if (sev)
					strbuf_addstr(&e, *str_at(&t, r, cc) ?
					    str_at(&t, r, cc) : "no condition");
				if (sb.len)
					strbuf_addf(&e, "%s%s", e.len ? ", " :
					    "", sb.buf);
				br.gextra[r] = strbuf_detach(&e, NULL);
			}
			for (k = 0; k < br.nseries; k++)
				br.v[r * br.nseries + k] = table_num(&t, r,
				    table_col(&t, br.sname[k])) * ch->scale;
		}
		count_words(&t, "bar", &counts);
	}
	describe(ch, &o, counts.buf);
	bars_data(ch, &br);
	bars_script(ch, &br);
	ret = 0;
cleanup:
	analyze_opts_release(&o);
	table_release(&t);
	bars_free(&br);
	strbuf_release(&sb);
	strbuf_release(&counts);
	return ret;
}

/* ------------------------------------------------------------------
 * Lines over categories: relative (x = statistics) and days (x = days)
 */

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
	dat_head(ch);
	for (i = 0; i < ln->nx; i++) {
		dat_label(ch, "x", i, ln->x[i]);
	}
	for (k = 0; k < ln->nlines; k++) {
		dat_label(ch, "column", k + 2, ln->label[k]);
	}
	for (i = 0; i < ln->nx; i++) {
		strbuf_addf(&ch->dat, "%zu", i);
		for (k = 0; k < ln->nlines; k++) {
			strbuf_addch(&ch->dat, ' ');
			gp_num(&ch->dat, ln->v[k * ln->nx + i]);
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
	gp_set(&ch->pre, "ylabel", ylabel);
	gp_set(&ch->pre, "xlabel", xlabel);
	strbuf_addstr(&ch->pre, "set xtics (");
	for (i = 0; i < ln->nx; i++) {
		if (i)
			strbuf_addstr(&ch->pre, ", ");
		report_gp_quote(&ch->pre, ln->x[i]);
		strbuf_addf(&ch->pre, " %zu", i);
	}
	strbuf_addstr(&ch->pre, ") noenhanced\n");
	key_above(ch, ln->label, ln->nlines);
	strbuf_addstr(&ch->plot, "plot \\\n");
	for (k = 0; k < ln->nlines; k++) {
		strbuf_addstr(&ch->plot, "    ");
		plot_source(ch, &ch->plot, k == 0);
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

static int
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
	sev = several_conditions(&t);
	ln.x = xcalloc(o.nstats + 1, sizeof(char *));
	for (j = 0; j < o.nstats; j++)
		if (o.stats[j].kind != STATS_NAME_N)
			ln.x[ln.nx++] = xstrdup(o.stat_names[j]);
	ln.label = xcalloc(t.nrows + 1, sizeof(char *));
	ln.v = xcalloc(t.nrows * ln.nx + 1, sizeof(double));
	for (r = 0; r < t.nrows; r++) {
		dims_text(&t, &o, r, NULL, &sb);
		ln.label[ln.nlines] = cell_label(ch->s, str_at(&t, r, pc),
		    str_at(&t, r, cc), sev, sb.buf);
		for (j = 0; j < ln.nx; j++)
			ln.v[ln.nlines * ln.nx + j] = table_num(&t, r,
			    table_col(&t, ln.x[j]));
		ln.nlines++;
	}
	count_words(&t, "line", &counts);
	strbuf_addstr(&counts, "; each statistic as % of the same cell's p50 "
	    "(p50 = 100)");
	describe(ch, &o, counts.buf);
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

/* The statistic a one-statistic chart shows: chart "stat", else the
 * section's first that is not n. */
static size_t
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
static int
stat_table(struct chart *ch, struct analyze_opts *o, struct table *t)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (ch->c->stat && chart_stat(ch, o) == o->nstats) {
		if (analyze_opts_set_stats(o, ch->c->stat, &why))
			ret = report_spec_error(ch->b->spec, ch->c->loc, "%s",
			    why.buf);
	}
	strbuf_release(&why);
	if (!ret && ch->c->stat) {
		table_release(t);
		table_init(t);
		if (analyze_build(ch->b->db, "percentiles", o, 0, NULL, t))
			ret = -1;
	}
	return ret;
}

static int
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
	if (stat_table(ch, &o, &t))
		goto cleanup;
	js = chart_stat(ch, &o);
	pc = table_col(&t, "path");
	cc = table_col(&t, "condition");
	dc = table_col(&t, "day");
	sc = js < o.nstats ? table_col(&t, o.stat_names[js]) : -1;
	sev = several_conditions(&t);
	days = xcalloc(t.nrows + 1, sizeof(char *));
	keys = xcalloc(t.nrows + 1, sizeof(char *));
	for (r = 0; r < t.nrows; r++) {
		const char *d = str_at(&t, r, dc);

		for (i = 0; i < ndays; i++)
			if (!strcmp(days[i], d))
				break;
		if (i == ndays)
			days[ndays++] = xstrdup(d);
	}
	qsort(days, ndays, sizeof(char *), cmp_str);
	/* one line per cell (path, condition, other dimensions) */
	for (r = 0; r < t.nrows; r++) {
		dims_text(&t, &o, r, "day", &sb);
		strbuf_addf(&sb, "\x1f%s\x1f%s", str_at(&t, r, pc),
		    str_at(&t, r, cc));
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
		dims_text(&t, &o, r, "day", &sb);
		strbuf_addf(&sb, "\x1f%s\x1f%s", str_at(&t, r, pc),
		    str_at(&t, r, cc));
		for (k = 0; k < nkeys; k++)
			if (!strcmp(keys[k], sb.buf))
				break;
		for (i = 0; i < ln.nx; i++)
			if (!strcmp(ln.x[i], str_at(&t, r, dc)))
				break;
		if (!ln.label[k]) {
			dims_text(&t, &o, r, "day", &sb);
			ln.label[k] = cell_label(ch->s, str_at(&t, r, pc),
			    str_at(&t, r, cc), sev, sb.buf);
		}
		ln.v[k * ln.nx + i] = table_num(&t, r, sc) * ch->scale;
	}
	ln.nlines = nkeys;
	count_words(&t, "point", &counts);
	strbuf_addf(&counts, "; %s per day", js < o.nstats ?
	    o.stat_names[js] : "?");
	describe(ch, &o, counts.buf);
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

/* ------------------------------------------------------------------
 * Box of trial-level values
 */

static int
chart_box(struct chart *ch)
{
	static const char *const by_trial[] = { "trial", NULL };
	struct analyze_opts o;
	struct table t;
	struct series *grp = NULL;
	struct strbuf sb = STRBUF_INIT, counts = STRBUF_INIT, y = STRBUF_INIT;
	struct strbuf tics = STRBUF_INIT;
	size_t ngrp = 0, r, g, i, js, named = 0, lines = 1;
	long pc, cc, tc, sc;
	bool sev;
	int ret = -1;

	/* each trial's statistic: cells split by trial, one trial each */
	if (chart_table(ch, "percentiles", by_trial, STATS_POOL_PER_TRIAL, &o,
	    &t))
		return -1;
	if (stat_table(ch, &o, &t))
		goto cleanup;
	js = chart_stat(ch, &o);
	pc = table_col(&t, "path");
	cc = table_col(&t, "condition");
	tc = table_col(&t, "trial");
	sc = js < o.nstats ? table_col(&t, o.stat_names[js]) : -1;
	sev = several_conditions(&t);
	grp = xcalloc(t.nrows + 1, sizeof(*grp));
	for (r = 0; r < t.nrows; r++) {
		long trial = strtol(str_at(&t, r, tc), NULL, 10);
		double v = table_num(&t, r, sc) * ch->scale;

		dims_text(&t, &o, r, "trial", &sb);
		strbuf_addf(&sb, "\x1f%s\x1f%s", str_at(&t, r, pc),
		    str_at(&t, r, cc));
		for (g = 0; g < ngrp; g++)
			if (!strcmp(grp[g].comment, sb.buf))
				break;
		if (g == ngrp) {
			grp[g].comment = xstrdup(sb.buf);
			dims_text(&t, &o, r, "trial", &sb);
			grp[g].label = cell_label(ch->s, str_at(&t, r, pc),
			    str_at(&t, r, cc), sev, sb.buf);
			ngrp++;
		}
		if (isfinite(v))
			series_push(&grp[g], v, trial);
	}
	strbuf_addf(&ch->what, "index 0: x (group), min, first quartile, "
	    "median, third quartile, max, mean of the trials' %s (in %s); "
	    "index 1: x, one trial's value, trial number; index 2: the same "
	    "for trials more than 1.25x or less than 1/1.25 of their box's "
	    "median (named on the chart)", js < o.nstats ?
	    o.stat_names[js] : "", ch->unit);
	dat_head(ch);
	for (g = 0; g < ngrp; g++) {
		dat_label(ch, "group", g, grp[g].label);
	}
	for (g = 0; g < ngrp; g++) {
		double *x = xcalloc(grp[g].n + 1, sizeof(double));

		memcpy(x, grp[g].v, grp[g].n * sizeof(double));
		stats_sort(x, grp[g].n);
		strbuf_addf(&ch->dat, "%zu", g);
		if (grp[g].n) {
			double q[5];

			q[0] = x[0];
			q[1] = stats_quantile(STATS_EST_TYPE7, x, grp[g].n, 25);
			q[2] = stats_quantile(STATS_EST_TYPE7, x, grp[g].n, 50);
			q[3] = stats_quantile(STATS_EST_TYPE7, x, grp[g].n, 75);
			q[4] = x[grp[g].n - 1];
			for (i = 0; i < 5; i++) {
				strbuf_addch(&ch->dat, ' ');
				gp_num(&ch->dat, q[i]);
			}
			strbuf_addch(&ch->dat, ' ');
			gp_num(&ch->dat, stats_mean(x, grp[g].n));
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
			gp_num(&ch->dat, grp[g].v[i]);
			strbuf_addf(&ch->dat, " %ld\n", grp[g].tag[i]);
		}
	}
	/* index 2: the trials far from their siblings, to name them */
	strbuf_addstr(&ch->dat, "\n\n");
	for (g = 0; g < ngrp; g++) {
		for (i = 0; i < grp[g].n; i++) {
			double *all = xcalloc(grp[g].n + 1, sizeof(double));
			double med, ratio;

			memcpy(all, grp[g].v, grp[g].n * sizeof(double));
			stats_sort(all, grp[g].n);
			med = stats_quantile(STATS_EST_TYPE7, all, grp[g].n,
			    50);
			free(all);
			ratio = grp[g].v[i] / med;
			if (!(ratio > BOX_NAME_RATIO ||
			    ratio < 1 / BOX_NAME_RATIO))
				continue;
			strbuf_addf(&ch->dat, "%zu ", g);
			gp_num(&ch->dat, grp[g].v[i]);
			strbuf_addf(&ch->dat, " %ld\n", grp[g].tag[i]);
			named++;
		}
	}

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
	strbuf_addf(&y, "%s of %s per trial (%s)", js < o.nstats ?
	    o.stat_names[js] : "", ch->m->title,
	    ch->unit);
	gp_set(&ch->pre, "ylabel", y.buf);
	for (g = 0; g < ngrp; g++) {
		const char *id = strchr(grp[g].comment, '\x1f') + 1;
		char *pid = xstrndup(id, strcspn(id, "\x1f"));
		const char *cond = strchr(id, '\x1f') + 1;
		size_t nl;

		if (g)
			strbuf_addstr(&tics, ", \\\n    ");
		strbuf_reset(&sb);
		if (sev)
			strbuf_addstr(&sb, *cond ? cond : "no condition");
		nl = gp_tic_label(&tics, pid, report_path_label(ch->s, pid),
		    sb.buf, group_columns(ch, ngrp));
		if (nl > lines)
			lines = nl;
		strbuf_addf(&tics, " %zu", g);
		free(pid);
	}
	strbuf_addf(&ch->pre, "set bmargin %zu\nset xtics (%s) noenhanced\n",
	    lines + 3, tics.buf);
	strbuf_addstr(&ch->plot, "plot \\\n    ");
	plot_source(ch, &ch->plot, true);
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
	{
		double nlo = INFINITY, nhi = -INFINITY, glo = INFINITY, ghi = 0;
		long nc = table_col(&t, "n");

		for (r = 0; r < t.nrows; r++) {
			nlo = fmin(nlo, table_num(&t, r, nc));
			nhi = fmax(nhi, table_num(&t, r, nc));
		}
		for (g = 0; g < ngrp; g++) {
			glo = fmin(glo, (double)grp[g].n);
			ghi = fmax(ghi, (double)grp[g].n);
		}
		if (glo == ghi)
			strbuf_addf(&counts, "; %.0f trials per box", glo);
		else
			strbuf_addf(&counts, "; %.0f–%.0f trials per box", glo,
			    ghi);
		if (isfinite(nlo) && nlo == nhi)
			strbuf_addf(&counts, ", n = %.0f per trial", nlo);
		else if (isfinite(nlo))
			strbuf_addf(&counts, ", n = %.0f–%.0f per trial", nlo,
			    nhi);
	}
	strbuf_addf(&counts, "; each point is one trial's %s", js < o.nstats ?
	    o.stat_names[js] : "");
	describe(ch, &o, counts.buf);
	ret = 0;
cleanup:
	analyze_opts_release(&o);
	table_release(&t);
	series_free(grp, ngrp);
	strbuf_release(&sb);
	strbuf_release(&counts);
	strbuf_release(&y);
	strbuf_release(&tics);
	return ret;
}

/* ------------------------------------------------------------------
 * Raw samples: ECDF and values over time
 */

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
				series_push(s, t->times[k], t->trial);
				series_push(s, t->values[k], t->trial);
			}
		}
		nx = per_run ? 0 : cell_pooled(c, &x);
		if (nx) {
			s = series_add(&sr, &n, &alloc, c->path, c->cond);
			for (k = 0; k < nx; k++)
				series_push(s, x[k], 0);
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

static int
chart_ecdf(struct chart *ch)
{
	struct series *sr = NULL;
	struct strbuf counts = STRBUF_INIT, x = STRBUF_INIT;
	size_t n = 0, ncells = 0, k, i;
	double nlo = INFINITY, nhi = 0;
	bool sev;

	if (raw_series(ch, false, &sr, &n, &ncells))
		return -1;
	if (n == 0) {
		series_free(sr, n);
		return report_spec_error(ch->b->spec, ch->c->loc, "no samples "
		    "for the ECDF");
	}
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
	dat_head(ch);
	for (k = 0; k < n; k++) {
		const char *path, *cond;
		char *c = split_cell(sr[k].comment, &path, &cond);
		char *label = cell_label(ch->s, path, cond, sev, NULL);

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
			gp_num(&ch->dat, sr[k].v[i] * ch->scale);
			strbuf_addch(&ch->dat, ' ');
			gp_num(&ch->dat, (double)(i + 1) / (double)sr[k].n);
			strbuf_addch(&ch->dat, '\n');
		}
	}
	strbuf_addstr(&ch->pre, "set yrange [0:1]\n"
	    "set ytics 0.1\n"
	    "set bmargin 5\n"
	    "set ylabel 'Fraction of samples at or below x'\n"
	    "set autoscale xfix\n"
	    "set offsets graph 0.03, graph 0.03, 0, 0\n");
	{
		char **labels = xcalloc(n + 1, sizeof(char *));

		for (k = 0; k < n; k++)
			labels[k] = sr[k].label;
		key_above(ch, labels, n);
		free(labels);
	}
	if (ch->c->logscale) {
		double lo = INFINITY, hi = -INFINITY;

		for (k = 0; k < n; k++) {
			if (!sr[k].n)
				continue;
			lo = fmin(lo, sr[k].v[0] * ch->scale);
			hi = fmax(hi, sr[k].v[sr[k].n - 1] * ch->scale);
		}
		strbuf_addstr(&ch->pre, "set logscale x\n"
		    "set mxtics 10\n");
		log_tics(&ch->pre, "x", lo, hi);
	}
	axis_label(ch, &x);
	gp_set(&ch->pre, "xlabel", x.buf);
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
		plot_source(ch, &ch->plot, k == 0);
		strbuf_addf(&ch->plot, " index %zu using 1:2 with steps lt %zu "
		    "title ", k, k + 1);
		report_gp_quote(&ch->plot, sr[k].label);
		strbuf_addstr(&ch->plot, k + 1 < n ? ", \\\n" : "\n");
	}
	if (nlo == nhi)
		strbuf_addf(&counts, "; every successful sample, n = %.0f per "
		    "line", nlo);
	else
		strbuf_addf(&counts, "; every successful sample, n = %.0f–%.0f "
		    "per line", nlo, nhi);
	describe(ch, NULL, counts.buf);
	series_free(sr, n);
	strbuf_release(&counts);
	strbuf_release(&x);
	return 0;
}

static int
chart_timeseries(struct chart *ch)
{
	struct series *sr = NULL;
	struct strbuf counts = STRBUF_INIT, y = STRBUF_INIT;
	size_t n = 0, ncells = 0, k, i, p, cols, rows, title_cols;
	double ymax = 0, xmax = 0;
	long maxtrial = 0;	/* legend: trials 1..maxtrial (8 at most) */
	bool sev = false;
	int ret = -1;

	if (raw_series(ch, true, &sr, &n, &ncells))
		return -1;
	if (n == 0) {
		report_spec_error(ch->b->spec, ch->c->loc, "no samples with "
		    "times for the chart");
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
	strbuf_addf(&ch->what, "one index per run: seconds since the run "
	    "started, value (in %s)", ch->unit);
	dat_head(ch);
	for (k = 0; k < n; k++) {
		const char *path, *cond;
		char *c = split_cell(sr[k].comment, &path, &cond);
		char *label = cell_label(ch->s, path, cond, sev, NULL);

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
			gp_num(&ch->dat, sr[k].v[i]);
			strbuf_addch(&ch->dat, ' ');
			gp_num(&ch->dat, sr[k].v[i + 1] * ch->scale);
			strbuf_addch(&ch->dat, '\n');
			ymax = fmax(ymax, sr[k].v[i + 1] * ch->scale);
			xmax = fmax(xmax, sr[k].v[i]);
		}
		if (sr[k].n && sr[k].tag[0] > maxtrial)
			maxtrial = sr[k].tag[0] > 8 ? 8 : sr[k].tag[0];
	}
	axis_label(ch, &y);
	gp_set(&ch->pre, "ylabel", y.buf);
	strbuf_addstr(&ch->pre, "set xlabel 'Seconds since the run started'\n");
	if (ch->c->logscale)
		strbuf_addstr(&ch->pre, "set logscale y\n");
	else
		strbuf_addf(&ch->pre, "set yrange [0:%.6g]\n", ymax * 1.1);
	/* one key for the page, under the title: trials share colours */
	strbuf_addf(&ch->pre, "set xrange [0:%.6g]\n", xmax);
	/* margins in pixels made screen fractions: room at the top for the
	 * title and one key for the page, between rows for tics, labels
	 * and the next row's titles */
	{
		double w = (double)ch->width, h = (double)ch->height;

		strbuf_addf(&ch->plot, "set multiplot layout %zu, %zu title ",
		    rows, cols);
		report_gp_quote(&ch->plot, chart_title(ch));
		strbuf_addf(&ch->plot, " font big margins %.4f, %.4f, %.4f, "
		    "%.4f spacing %.4f, %.4f\n", 80 / w, 1 - 20 / w, 70 / h,
		    1 - 125 / h, 90 / w, 135 / h);
		/* one legend for the page, drawn by hand: gnuplot sizes a key
		 * to one panel; trials keep their colour in every panel */
		strbuf_addstr(&ch->pre, "unset key\n");
		for (i = 0; i < (size_t)maxtrial; i++) {
			double x = 0.5 +
			    ((double)i - (double)maxtrial / 2) * 130 / w;
			double yy = 1 - 58 / h;

			strbuf_addf(&ch->plot, "set arrow %zu from screen "
			    "%.4f, screen %.4f to screen %.4f, screen %.4f "
			    "nohead lt %zu\n", 90 + i, x, yy, x + 40 / w, yy,
			    i % 8 + 1);
			strbuf_addf(&ch->plot, "set label %zu 'trial %zu' at "
			    "screen %.4f, screen %.4f left\n", 90 + i, i + 1,
			    x + 48 / w, yy);
		}
	}
	strbuf_addstr(&ch->plot, "unset title\n");
	/* columns of a panel title: the panel less its axis, at ~0.78 em
	 * per character */
	title_cols = (size_t)fmax(6, ((double)ch->width / (double)cols - 100) /
	    (0.78 * (double)ch->b->spec->font_size));
	for (k = 0, p = 0; k < n; p++) {
		const char *path, *cond;
		char *c = split_cell(sr[k].comment, &path, &cond);
		char *label = cell_label(ch->s, path, cond, sev, NULL);
		size_t end = k;

		while (end < n && !strcmp(sr[end].comment, sr[k].comment))
			end++;
		strbuf_addstr(&ch->plot, "set title ");
		gp_wrapped(&ch->plot, label, title_cols);
		strbuf_addstr(&ch->plot, "\n");
		if (p == 1) {	/* the legend is on the page once */
			for (i = 0; i < (size_t)maxtrial; i++)
				strbuf_addf(&ch->plot, "unset arrow %zu\n"
				    "unset label %zu\n", 90 + i, 90 + i);
		}
		strbuf_addstr(&ch->plot, "plot \\\n");
		for (i = k; i < end; i++) {
			long trial = sr[i].n ? sr[i].tag[0] : 0;

			strbuf_addstr(&ch->plot, "    ");
			plot_source(ch, &ch->plot, i == k);
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
	/* the multiplot draws the title itself */
	strbuf_addstr(&ch->pre, "unset title\n");
	strbuf_addf(&counts, "; each line one run (trial), %zu runs in %zu "
	    "panels; x = seconds since the run started (iperf3: the end of "
	    "each reporting interval)", n, ncells);
	describe(ch, NULL, counts.buf);
	/* panels fill the page: the caption carries the small print */
	strbuf_reset(&ch->footer);
	ret = 0;
cleanup:
	series_free(sr, n);
	strbuf_release(&counts);
	strbuf_release(&y);
	return ret;
}

int
report_chart_write(struct report_bundle *b, struct report_section *s,
    const struct table *pivot, size_t no)
{
	struct chart ch;
	int ret = -1;

	chart_init(&ch, b, s, no);
	switch (s->chart->kind) {
	case REPORT_CHART_BARS:
		ret = chart_bars(&ch, pivot);
		break;
	case REPORT_CHART_RELATIVE:
		ret = chart_relative(&ch);
		break;
	case REPORT_CHART_ECDF:
		ret = chart_ecdf(&ch);
		break;
	case REPORT_CHART_TIMESERIES:
		ret = chart_timeseries(&ch);
		break;
	case REPORT_CHART_BOX:
		ret = chart_box(&ch);
		break;
	case REPORT_CHART_DAYS:
		ret = chart_days(&ch);
		break;
	}
	if (!ret)
		ret = chart_finish(&ch);
	chart_release(&ch);
	return ret;
}
