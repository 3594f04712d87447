/*
 * chart.h - what the chart files of report/ share: the chart being
 * written, data series, the helpers that write gnuplot scripts and data
 * files (chart.c), and one entry point per chart family (chart_bars.c,
 * chart_lines.c, chart_box.c, chart_samples.c, chart_heatmap.c), which
 * chart_kinds.c dispatches to.  Private to report/.
 */
#ifndef PATHSTAT_REPORT_CHART_H
#define PATHSTAT_REPORT_CHART_H

#include "common/compat.h"

#include "analyze/analyze.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "report/internal.h"

/* A horizontal key between the title and the plot. */
#define KEY_ABOVE "set tmargin 5\n" \
	"set title offset 0,1.4\n" \
	"set key at graph 0.5, graph 1.02 center bottom horizontal reverse " \
	"Left noopaque nobox\n"

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
	size_t		key_rows;	/* rows of the key above the plot */
	struct strbuf	dat;		/* the .dat file */
	struct strbuf	pre;		/* script: settings before the loop */
	struct strbuf	plot;		/* script: what each output draws */
	struct strbuf	footer;		/* small print under the chart */
	struct strbuf	cap;		/* caption for index.md (plain) */
	struct strbuf	what;		/* the .dat columns, in one line */
	struct strbuf	note;		/* "; ..." after the caption: what
					 * the chart left out or changed */
	bool		logscale;	/* the spec's "log", unless the data
					 * cannot be drawn on one */
	char		**flag_check;	/* checks that flagged cells (owned) */
	struct strbuf	*flag_cells;	/* per check: the cells, "C · P=4,
					 * trial 3, ..." */
	size_t		nflag_checks;
};

/* The mark of a cell pathstat check flagged, on every chart kind that
 * marks one (box, bars), and its words in the legend and caption. */
#define CHART_FLAG_MARK		"▲"
#define CHART_FLAG_STYLE	"pt 9 ps 2.2 lc rgb '#000000'"

/* One data series or group: a cell's label and its numbers. */
struct series {
	char	*label;		/* display text (owned) */
	char	*comment;	/* path, condition ... (owned) */
	double	*v;		/* values (owned) */
	long	*tag;		/* per value: trial number (box), or 0 */
	size_t	n, alloc;
};

/* chart.c: series, scripts, data files, tables from analyze */
/* Free n series and the array. */
void chart_series_free(struct series *s, size_t n);
/* Free one series' contents (the series itself is the caller's). */
void chart_series_free_one(struct series *s);
/* Append value v with its tag to s. */
void chart_series_push(struct series *s, double v, long tag);
/* A number for a data file or script; "NaN" when not finite. */
void chart_gp_num(struct strbuf *sb, double v);
/* "set KEY 'text'" with the text quoted. */
void chart_gp_set(struct strbuf *sb, const char *what, const char *text);
/*
 * Break text into lines of at most width columns, at spaces where it
 * can and between characters where it must (CJK has no spaces).  Each
 * line is appended to sb as a quoted literal joined by . "\n" . ;
 * returns the number of lines.
 */
size_t chart_gp_wrapped(struct strbuf *sb, const char *text, size_t width);
/* A tic label: 'ID' . "\n" . 'label, wrapped' ... (our own "\n" only);
 * returns its number of lines. */
size_t chart_gp_tic_label(struct strbuf *sb, const char *id,
    const char *label, const char *extra, size_t width);
/* Columns of text that fit under one of n groups across the chart. */
size_t chart_group_columns(const struct chart *ch, size_t n);
/* Display label of a cell: "A — Same AZ (baseline)" plus the condition
 * and dimension values when they tell cells apart. */
char *chart_cell_label(const struct report_section *s, const char *path,
    const char *cond, bool show_cond, const char *dims);
/* The y axis label: "TCP connect time (ms)". */
void chart_axis_label(const struct chart *ch, struct strbuf *sb);
/*
 * Choose the chart's unit from the values it draws (stored unit; NaN
 * skipped) and the section's "unit" (common/units.h): unit, scale and
 * the decimals of value labels, one count for the whole chart (3
 * significant digits of its largest value for a bit rate).  Call before
 * anything names the unit or scales a value.
 */
void chart_choose_unit(struct chart *ch, const double *v, size_t n);
/* The same from the values of column col of t. */
void chart_choose_unit_col(struct chart *ch, const struct table *t, long col);
/* The data file of a plot clause: 'NN-id.dat' first, then '' (the
 * same file again). */
void chart_plot_source(const struct chart *ch, struct strbuf *sb,
    bool first);
/* Head of the .dat file. */
void chart_dat_head(struct chart *ch);
/*
 * A key of n entries between the title and the plot, in as many rows as
 * the labels need at this width; the top margin grows to hold them.
 */
void chart_key_above(struct chart *ch, char *const *labels, size_t n);
/* 1-2-5 tics across [lo, hi] on a log axis (gnuplot shows only powers
 * of ten there, too few when the data span one decade or two). */
void chart_log_tics(struct strbuf *sb, const char *axis, double lo,
    double hi);
/* The largest 1-2-5 step at or below v > 0 (a log axis' bottom). */
double chart_log_floor(double v);
/*
 * Keep the log axis the spec asks for only where the n values v (chart
 * unit, NaN skipped) can be drawn on one: none at or below 0 and some
 * span between them.  Otherwise ch->logscale is cleared and the caption
 * says why (all-zero retransmits made gnuplot fail: "x range is
 * invalid").  Returns ch->logscale.
 */
bool chart_log_usable(struct chart *ch, const double *v, size_t n);
/*
 * Which of n items a chart draws when it can draw at most cap: all of
 * them when n <= cap, else cap of them spread evenly over the ranks of
 * key (the lowest, the highest and evenly between; NaN keys rank last),
 * in their original order.  Returns a bool array of n (caller frees);
 * *nkept counts the true ones.
 */
bool *chart_pick(const double *key, size_t n, size_t cap, size_t *nkept);
/* v, or +-DBL_MAX when it is infinite (an axis end past 1.7e308). */
double chart_finite(double v);
/* One "# <what> <i>: <label>" comment line of a .dat file, the label
 * made safe for a comment. */
void chart_dat_label(struct chart *ch, const char *what, size_t i,
    const char *label);
/* A string cell, "" when absent (charts print it). */
const char *chart_str_at(const struct table *t, size_t row, long col);
/* The dimension values of row r other than those in skip, "k=v, k=v". */
void chart_dims_text(const struct table *t, const struct analyze_opts *o,
    size_t r, const char *skip, struct strbuf *sb);
/* Do rows of t have more than one condition? */
bool chart_several_conditions(const struct table *t);
/* "n = 300 per path" style counts of a percentiles table. */
void chart_count_words(const struct table *t, const char *what,
    struct strbuf *sb);
/* Caption and footer common part: metric, method, counts, where. */
void chart_describe(struct chart *ch, const struct analyze_opts *o,
    const char *counts);
/* Ask analyze for the chart's statistic too (chart "stat" may be one
 * the section does not list): when the chart names one, o gets it and t
 * is built again with it.  Returns 0, or -1 after printing (the caller
 * still releases o and t). */
int chart_stat_table(struct chart *ch, struct analyze_opts *o,
    struct table *t);
/*
 * The findings of pathstat check on the chart's section (its table's
 * footnotes) that concern the cell (path, cond) and a chart marks:
 * what the cell's data did (a cliff inside a run, an outlier trial,
 * failures its percentiles leave out, an instance cap ...), not how many
 * samples a statistic needs (few-samples) or which cells are missing.
 * trial > 0: only findings about that trial; 0: any.  Each one found is
 * recorded for the caption and legend (chart_flags_caption); returns
 * how many there are.
 */
size_t chart_flag_cell(struct chart *ch, const char *path, const char *cond,
    long trial);
/* The same for the footnote marks ("[^3]") of a cell's Markdown text,
 * as a pivot table shows them; where names the cell in the caption. */
size_t chart_flag_marks(struct chart *ch, const char *display,
    const char *where);
/* The legend entry of the flags: "flagged by pathstat check:
 * burst-cliff", or short "pathstat check finding" (the caption names
 * the checks), in sb. */
void chart_flag_legend(const struct chart *ch, struct strbuf *sb,
    bool shorter);
/* The chart's title: its own, else the metric's. */
const char *chart_title(const struct chart *ch);
/* Build the analyze table of the chart's section with verb, extra --by
 * keys appended (NULL-terminated) and pooling forced when pool >= 0.
 * On success the caller releases o and t; on failure nothing is left
 * to release. */
int chart_table(struct chart *ch, const char *verb,
    const char *const *extra_by, int pool, struct analyze_opts *o,
    struct table *t);
/* The same with o already the section's options (changed as the chart
 * needs); o is released on failure. */
int chart_table_opts(struct chart *ch, const char *verb,
    const char *const *extra_by, int pool, struct analyze_opts *o,
    struct table *t);
/* chart_table() for a one-statistic chart: its "stat", when the
 * section does not list it, asked for up front (chart_stat_table() then
 * has nothing to build again: every sample was read twice). */
int chart_table_stat(struct chart *ch, const char *verb,
    const char *const *extra_by, int pool, struct analyze_opts *o,
    struct table *t);
/* The statistic a one-statistic chart shows: chart "stat", else the
 * section's first that is not n. */
size_t chart_stat(const struct chart *ch, const struct analyze_opts *o);

/* A chart's life: chart_init() for chart number no of section s, a
 * family fills it, chart_finish() writes .dat and .gp and queues its
 * rendering and figure (render.c; 0, or -1 after printing), chart_release()
 * frees it.  chart_kinds.c runs these for every kind. */
void chart_init(struct chart *ch, struct report_bundle *b,
    struct report_section *s, size_t no);
int chart_finish(struct chart *ch);
void chart_release(struct chart *ch);

/* The chart families: each fills ch (data, script, caption) or returns
 * -1 after printing; chart_kinds.c dispatches to them and chart.c
 * writes and renders the result.  chart.c never calls a family. */
int chart_bars(struct chart *ch, const struct table *pivot);
int chart_relative(struct chart *ch);
int chart_days(struct chart *ch);
int chart_heatmap(struct chart *ch);
/* chart_dates.c: for a chart with day i at x = i, after its axis is
 * set: thinned, rotated MM-DD labels when there are many days; marks on
 * the points of t (a percentiles --by day table) whose statistic stat
 * is censored, and dashed lines at analyze trend's change points.
 * Returns the number of marks. */
void chart_date_axis(struct chart *ch, char *const *days, size_t ndays);
size_t chart_day_marks(struct chart *ch, const struct table *t,
    const char *stat, char *const *days, size_t ndays);
int chart_box(struct chart *ch);
int chart_ecdf(struct chart *ch);
int chart_timeseries(struct chart *ch);

#endif
