/*
 * internal.h - what the parts of analyze/ share: the options every
 * analyze verb takes, computing a cell's statistics under those options,
 * and the verbs themselves.
 */
#ifndef PATHSTAT_ANALYZE_INTERNAL_H
#define PATHSTAT_ANALYZE_INTERNAL_H

#include "common/compat.h"

#include <sqlite3.h>

#include "analyze/cells.h"
#include "stats/stats.h"
#include "common/table.h"

#include "analyze/analyze.h"

/* A cell's value for one statistic under the options. */
struct cell_stat {
	double	value;		/* pooled value, or the mean across trials */
	double	median, min, max;	/* across trials (pool trials) */
	double	lo, hi;		/* interval when asked and available, else NaN */
	enum stats_covers covers;	/* the variation lo..hi covers */
	bool	censored;	/* connect: the estimator reads a timed-out
				 * attempt (stats_censored()), so the statistic
				 * of all attempts is "≥ timeout" (value is
				 * still the successful samples' one) */
	size_t	censored_trials;	/* --pool trials: trials censored */
	const char *why_missing;	/* static reason (or the cell's outlier_why,
					 * borrowed) when value is NaN (or,
					 * with an interval asked, when lo..hi
					 * is NaN), or NULL */
	/* a trial-level percentile interval: the cells of its design in
	 * the selection (itself included; 0: not computed), and of those
	 * the cells its interval borrowed the spread of (0: its own) */
	size_t	design_cells, borrowed;
};

/* The reason a censored statistic, or a contrast or growth with a
 * censored side, has no number or interval (<stat>_ci_reason). */
#define CELL_WHY_CENSORED "censored: ≥ timeout"

/* How a cell's statistics were obtained (for captions and the
 * estimator column). */
struct cell_info {
	size_t	trials_raw;	/* trials with raw samples */
	size_t	trials_tool;	/* trials with only the tool's own summary */
};

/* Writable names for the default p50/p99 of trials, compare and trend
 * (stat_names is an array of owned strings in analyze_opts). */
extern char name_p50[], name_p99[];

/* Compute statistic s of cell c.  ci: also the interval (stats/interval.c:
 * a t interval on trial-level values from 3 trials, the within-run
 * order-statistic interval for one trial; why_missing says why not). */
void cell_compute(const struct analyze_opts *o, const struct cellset *cs,
    struct cell *c, const struct stats_name *s, bool ci,
    struct cell_stat *out, struct cell_info *info);

/* Borrow a cell's trials as a stats_trials view (raw-sample trials
 * only).  ptrs and ns must hold c->ntrials entries.  Returns the number
 * of trials in the view. */
size_t cell_view(const struct cell *c, const double **ptrs, size_t *ns,
    struct stats_trials *view);

/* The cells query of o: its metric, --where, --by and --paths, with the
 * samples' values loaded when load_values.  q's pointers borrow o's. */
void analyze_query(const struct analyze_opts *o, bool load_values,
    struct cells_query *q);
/* The statistics verb shows (shown.c): o's --stats, else the metric's
 * defaults for the verb (common/metric.h), into o2, a copy of o that
 * borrows its names (o2 is not released).  o already resolved: a copy. */
void analyze_shown_stats(const char *verb, const struct analyze_opts *o,
    struct analyze_opts *o2);
/* The same for trials, compare, trend and variance. */
void analyze_default_stats(const struct analyze_opts *o,
    struct analyze_opts *o2);
/* Append o's statistics as a comma list ("p50,p5,p1,min"). */
void analyze_stats_list(const struct analyze_opts *o, struct strbuf *sb);
/* A table built with the metric's defaults for a reason: say which and
 * why in the caption, and in JSON as stats_default and stats_why (CSV
 * keeps the columns --sql gives). */
void analyze_stats_note(struct table *t, const struct analyze_opts *o);
/* Load cells split by one extra dimension key (appended to --by), and
 * choose their unit.  0, or -1 after printing an error. */
int analyze_load_by(sqlite3 *db, const struct analyze_opts *o,
    const char *key, struct cellset *cs);
/* Group columns shared by compare, trend and variance (compare.c):
 * cells in one group agree in path, condition and every --by key but
 * the last; the columns are path, condition, those keys, and hidden
 * metric, estimator and pool; fill returns the next column. */
bool analyze_same_group(const struct cellset *cs, const struct cell *a,
    const struct cell *b);
void analyze_add_group_columns(struct table *t, const struct cellset *cs);
size_t analyze_fill_group_columns(struct table *t, size_t row,
    const struct cellset *cs, const struct cell *c,
    const struct analyze_opts *o);
/* trend's time key: the last --by that is day or hour ("day" without
 * --by); the other --by keys split the series.  NULL when no --by is. */
const char *analyze_trend_key(const struct analyze_opts *o);
/* A trend's x of a dimension value: "2026-08-28" -> days since
 * 1970-01-01; "07" (hour) -> 7; else NaN. */
double analyze_dim_to_x(const char *key, const char *v);
/* Statistic s of each trial of c that has one (raw samples, else the
 * tool's own number typed as "p99"): values into vals, trial numbers
 * into tno, and, when cens is not NULL, whether each is "≥ timeout"
 * (trial_censored(); the value is then the successes' one), and when
 * tix is not NULL each value's trial index in c->trials; returns the
 * count. */
size_t analyze_trial_values(const struct analyze_opts *o,
    const struct cellset *cs, const struct cell *c,
    const struct stats_name *s, const char *typed, double *vals, long *tno,
    bool *cens, size_t *tix, struct cell_info *info);
/* Statistic s (a percentile, min or max) of all attempts of cell c,
 * its timeouts sorted above every success at the timeout: the value a
 * bound on a contrast with a censored side needs.  Exact when s is not
 * censored (the estimator reads no timed-out rank; Harrell-Davis to
 * within its 1e-17 weight window) and the statistic of the successes
 * when there are no timeouts; NaN for other statistics, an unknown
 * timeout or a trial with only the tool's summary. */
double cell_all_attempts(const struct analyze_opts *o,
    const struct cellset *cs, struct cell *c, const struct stats_name *s);
/*
 * The bound a contrast of a and b (a - b, or a / b when ratio) with one
 * side censored (ca, cb) implies, "≥ timeout" read as at least the
 * timeout (what the flag says): a - b with a censored is at least
 * T - b, with b censored at most a - T; a / b at least T / b, at most
 * a / T; b and a there are the other side's statistic of all attempts
 * (cell_all_attempts()), exact as it is not censored.  *dir gets +1
 * (at least), -1 (at most) or 0 (no bound: both sides censored, or a
 * value or the timeout unknown; NaN returned).
 */
double cell_contrast_bound(const struct analyze_opts *o,
    const struct cellset *cs, struct cell *a, struct cell *b,
    const struct stats_name *s, bool ratio, bool ca, bool cb, int *dir);
/* Connect probes: does statistic s of trial t's attempts (successes,
 * then its timeouts sorted above them) read a timed-out one, so that it
 * is "≥ timeout" (stats_censored())?  False for other metrics and for
 * trials with only the tool's summary. */
bool trial_censored(const struct analyze_opts *o, const struct cellset *cs,
    const struct trial *t, const struct stats_name *s);
/* stats_tl_method() for statistic s of cell c under o's pooling: NULL,
 * or the static note saying its interval comes from the trials' own
 * values (ties at the pooled percentile, unequal trial sizes). */
const char *cell_tl_method(const struct analyze_opts *o, struct cell *c,
    const struct stats_name *s);

/* Smallest and largest raw sample of cell c (+-inf when none): what no
 * interval of its statistics reaches beyond. */
void cell_range(const struct cell *c, double *lo, double *hi);

/* Clip iv, a's statistic against b's as k, to what their samples can
 * make (stats_contrast_range()). */
void cell_contrast_clip(const struct cell *a, const struct cell *b,
    enum stats_contrast k, struct stats_interval *iv);

/*
 * Trial-level values of statistic s of cell c for its intervals
 * (stats_tl_values() over the raw-sample trials).  Returns the number of
 * trials and sets *u (malloc()ed, the caller frees it) and *estimate; 0
 * with *u NULL and *why set when there is no interval for it.  vt (may
 * be NULL): *vt the values' own sampling variances (stats_tl_trial_var,
 * malloc()ed, the caller frees it) for contrasts, or NULL when they
 * are taken as alike (equal trial sizes, pooled, the mean).
 */
size_t cell_tl(const struct analyze_opts *o, struct cell *c,
    const struct stats_name *s, double **u, double **vt, double *estimate,
    const char **why);

/* cell_tl whatever the outlier rule said of c's trials (the spread
 * they lend to the cells of their design, analyze/borrow.c). */
size_t cell_tl_trials(const struct analyze_opts *o, struct cell *c,
    const struct stats_name *s, double **u, double **vt, double *estimate,
    const char **why);

/*
 * The campaign's spread of statistic s that cell c's T trial-level
 * values borrow (analyze/borrow.c): into b the share of every cell of
 * cs of c's design (the same number of trial-level values, median trial
 * sizes within STATS_BORROW_SIZE_RATIO), c included.  Returns the
 * cells, 0 when cs keeps no shares or s is not a percentile or mean.
 */
size_t cell_borrow(const struct analyze_opts *o, const struct cellset *cs,
    const struct cell *c, const struct stats_name *s, size_t T,
    struct stats_borrow *b);

/* Description of the estimator and pooling, for captions; cs (may be
 * NULL) names the tool's own estimator when every cell of it holds only
 * the tool's summaries. */
void describe_method(const struct analyze_opts *o, const struct cellset *cs,
    struct strbuf *sb);
/*
 * Does cell c take the trials' mean of the tool's own statistics by
 * default?  When --pool was not given and no trial of c has raw samples
 * (oha JSON alone), pooling has nothing to pool: the cell is per trial,
 * as --pool trials would make it.
 */
bool cell_summary_default(const struct analyze_opts *o, const struct cell *c);
/* o, or *tmp holding o with --pool trials when cell_summary_default(). */
const struct analyze_opts *cell_opts(const struct analyze_opts *o,
    const struct cell *c, struct analyze_opts *tmp);
/* How many cells of cs hold only the tool's summaries, and how many mix
 * trials with raw samples and without. */
void cellset_tool_cells(const struct cellset *cs, size_t *only,
    size_t *mixed);
/* The note of a table with such cells: what their estimator label
 * means, and how mixed cells were combined (nothing when neither). */
void tool_cells_note(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs);
/* The unit the cellset's tables show (*unit) and its scale: cs->shown,
 * which cellset_choose_unit() set (common/units.h). */
double md_scale(const struct cellset *cs, const char **unit);
/* Choose cs->shown from the largest value the cells hold (samples and
 * the tools' own statistics) and --unit.  chart: the decimals of
 * compare and trend (the metric's display_decimals) for a FIXED
 * metric. */
void cellset_choose_unit(struct cellset *cs, const struct analyze_opts *o,
    bool chart);
/* The same for a table whose numbers an engine computed (analyze
 * --sql's CSV read back): from the largest value of its statistics'
 * columns, then the headers built before the rows ("p50 (Gbit/s)") name
 * the unit chosen. */
void cellset_choose_unit_table(struct cellset *cs,
    const struct analyze_opts *o, struct table *t);
/* Add the standard leading columns (path, condition, dims, metric,
 * estimator, pool) to t. */
void add_key_columns(struct table *t, const struct cellset *cs);
/* Fill them for cell c in row. */
void fill_key_columns(struct table *t, size_t row, const struct cellset *cs,
    const struct cell *c, const struct analyze_opts *o,
    const struct cell_info *info);
/* A trials row's values list: the machine text of vals (stored unit,
 * common/units.h units_machine()) into the cell, and the same list in
 * the table's unit as its Markdown/text display. */
void trials_values_cell(struct table *t, size_t row, size_t col,
    const struct cellset *cs, const double *vals, size_t n);
/* The display of a values list read back from an engine's CSV (the
 * machine text), in the table's unit; left alone if it does not
 * parse. */
void trials_values_display(struct table *t, size_t row, size_t col,
    const struct cellset *cs);
/* Format "v [lo, hi]" for Markdown. */
void format_ci(struct strbuf *sb, double v, double lo, double hi,
    int decimals);

/* The day of each run (analyze/days.c): the tag day, else the UTC date
 * of its start, as --by day reads it. */
struct run_day {
	int64_t	run;
	char	*day;	/* owned */
};
struct daymap {
	struct run_day	*runs;	/* by run id; owned */
	size_t		n;
};
/* Read every run's day; -1 after an error.  daymap_release() frees. */
int daymap_load(sqlite3 *db, struct daymap *m);
/* The day of run, "" when unknown (borrowed from m). */
const char *daymap_day(const struct daymap *m, int64_t run);
void daymap_release(struct daymap *m);
/* One day's value on one side of a comparison: the mean log of its
 * trials' statistic. */
struct day_value {
	const char	*day;	/* borrowed from the caller's day[] */
	double		lv;	/* mean of the log of its trials' values */
	size_t		ntrials;
};
/* Group the positive finite values v[0..n) by day[i] into *out (malloc()ed,
 * the caller frees it; days borrowed from day[]), sorted by day.  Returns
 * the number of days. */
size_t day_values(const char *const *day, const double *v, size_t n,
    struct day_value **out);

/* What one row of `analyze compare` found: trials on each side, the
 * adjusted p of the rank test (max-T or Holm across the rows), value /
 * baseline and its interval. */
struct compare_outcome {
	size_t	nb, nc;		/* trials: baseline, compared value */
	double	p;		/* adjusted p; NaN: no test */
	double	ratio, lo, hi;	/* value / baseline, interval (NaN: none) */
	bool	higher_better;	/* the metric's direction */
	/* the test replicates days (stats_day_contrast()): nb, nc count
	 * days, and no exact Mann-Whitney floor applies */
	bool	by_day;
	size_t	nrows;		/* rows adjusted over, when none of them can
				 * pass (0: not said) */
	/* maxt: adjusted by max-T (analyze_compare_maxt()), floor the
	 * smallest adjusted p any row could reach and let_k the trials a
	 * side that would let one pass (0: 10 or more); else by Holm,
	 * whose floor is m × the smallest p */
	bool	maxt;
	double	floor;
	size_t	let_k;
};

enum compare_verdict {
	COMPARE_BETTER,
	COMPARE_WORSE,
	COMPARE_SAME,
	COMPARE_INCONCLUSIVE,
};

/*
 * The verdict on one comparison (pure; tests/unit/t-compare.c): better
 * or worse when p < 1 - level and the whole interval lies beyond
 * ±threshold_pct; same when it lies within, or the change is significant
 * but smaller; else inconclusive, saying why when the trials can never
 * give p < 1 - level.  The words go to text.
 */
enum compare_verdict analyze_compare_verdict(const struct compare_outcome *r,
    double threshold_pct, double level, struct strbuf *text);

/*
 * The rank test compare runs on two sides' trial-level values (exact
 * Mann-Whitney below 10 trials a side, else Brunner-Munzel): fills test,
 * returns the test's name ("none", p NaN, below 2 a side).
 */
const char *analyze_compare_test(const double *xc, size_t nc,
    const double *xb, size_t nb, struct stats_test *test);

/* The smallest two-sided p exact Mann-Whitney can give with nb and nc
 * trials: 2 / C(nb + nc, nb). */
double analyze_mw_min_p(size_t nb, size_t nc);

/*
 * Holm's adjustment over p[0..n) (NaN: not tested), in place: what
 * compare applies where a row's unit is the day, and what `pathstat plan
 * --detect` simulates.  Where the rows' unit is the trials compare runs
 * the step-down max-T instead, whose power is never below Holm's on the
 * same data (docs/research/verdicts.md), so plan's figure is a lower
 * bound there.
 */
void analyze_compare_adjust(double *p, size_t n);
#define ANALYZE_COMPARE_ADJUST_NAME	"Holm"

/*
 * Step-down permutation max-T across compare's rows whose unit is the
 * trials (analyze/compare_adj.c): adj[0..n) the adjusted p's of r[], and
 * when no row could pass at 1 - level (*floor >= alpha), in *let_k the
 * trials a side (2-9, 0: 10 or more) at which one could.
 */
void analyze_compare_maxt(const struct stats_mt_row *r, size_t n,
    double level, double *adj, double *floor, size_t *let_k);

/* The verbs: each fills t from the database, or returns -1 after
 * printing an error (-2 for a usage error in args). */
int analyze_percentiles(sqlite3 *db, const struct analyze_opts *o,
    int nargs, char **args, struct table *t);
int analyze_relative(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);
int analyze_delta(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);
int analyze_ratio(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);
int analyze_trials(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);
int analyze_compare(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);
int analyze_trend(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);
int analyze_variance(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);
int analyze_mtu(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t);

#endif
