/*
 * verbs.h - what the table verbs share: verbs.c (percentiles, relative
 * and the helpers), contrast.c (delta, ratio), trials.c and replay.c.
 */
#ifndef PATHSTAT_ANALYZE_VERBS_H
#define PATHSTAT_ANALYZE_VERBS_H

#include "analyze/internal.h"
#include "analyze/pooling.h"
#include "common/strbuf.h"

/* A percentiles table being filled. */
struct pct_ctx {
	const struct analyze_opts *o;
	struct cellset	*cs;
	struct table	*t;
	double		scale;		/* display scale */
	int		dec;		/* Markdown decimals */
	bool		connect;	/* failures are timeouts */
	size_t		ncensored;	/* values shown as "≥ timeout" */
	size_t		ntimeouts;	/* rows with timeouts */
	struct pooling	pool;		/* what each cell pools */
	size_t		ntool;		/* trials with the tool's numbers */
	size_t		covers[3];	/* intervals by enum stats_covers */
	size_t		nby_trials;	/* of them from the trials' own
					 * values (cell_tl_method) */
	size_t		nborrowed;	/* of them borrowing their design's
					 * spread (analyze/borrow.c) */
	size_t		borrow_cells;	/* the most cells one borrowed from */
	size_t		nlone;		/* trial-level percentile intervals
					 * with too few cells of their
					 * design to borrow from */
	bool		udp;		/* side and udp_loss_pct columns */
	size_t		col_udp;	/* the side column */
	size_t		nsender;	/* UDP rows of the sender's rate */
	double		max_loss;	/* the largest UDP loss %, or NaN */
};

/* sideloss.c: each side's loss in delta and ratio tables. */
#define SIDE_LOSS_NAMED	4	/* shifted percentiles named in the note */
struct side_loss_warn {
	const char	*a, *b;		/* the sides' names: "minuend", ... */
	bool		any;		/* some row's side lost attempts */
	size_t		n;		/* shifted percentiles found */
	struct strbuf	text;		/* the first SIDE_LOSS_NAMED, named */
};
/* failures_A, failures_B, (connect:) timeouts_A, timeouts_B (hidden in
 * Markdown), then loss_pct_A, loss_pct_B, at the end of t. */
void side_loss_columns(struct table *t, const char *a, const char *b,
    bool connect);
/* Fill those columns of row for cells ca, cb (either may be NULL). */
void side_loss_fill(struct table *t, size_t row, const char *a,
    const char *b, const struct cell *ca, const struct cell *cb);
/* Note the percentiles of o whose all-attempts rank the sides' loss
 * shifts apart by a tenth of the tail or more, for the row label. */
void side_loss_check(struct side_loss_warn *w, const struct analyze_opts *o,
    const char *label, const struct cell *a, const struct cell *b);
/* The target caption, and the shifted percentiles found. */
void side_loss_notes(struct table *t, const struct side_loss_warn *w);

/* A UDP throughput row: whose rate it is and the datagrams it lost. */
struct udp_row {
	const char	*side;		/* static; NULL: not a UDP row */
	double		loss_pct;	/* lost / sent over its runs, or NaN */
};

/* Does cs hold throughput of a UDP cell (udp.c)? */
bool udp_cellset(const struct cellset *cs);
/* Cell c's side and loss (u->side NULL for a row not UDP); 0 or -1. */
int udp_cell(sqlite3 *db, const struct cell *c, struct udp_row *u);

/* Load o's cells with their values and choose their unit; 0, or -1
 * after printing an error. */
int verbs_load(sqlite3 *db, const struct analyze_opts *o,
    struct cellset *cs);

/* A verb that takes no arguments got none; else print why, false. */
bool verbs_no_args(int nargs, char **args, const char *verb);

/* Add one column per stat (+ _ge_timeout for connect probes, + _lo/_hi,
 * _ci_covers, _ci_reason with --ci); returns the first one. */
size_t add_stat_cols(struct table *t, const struct analyze_opts *o,
    const char *unit, int dec, bool ratio, bool connect);

/* The censoring rule of estimator est, in words (stats_censored()). */
const char *censor_rule(enum stats_estimator est);

/* Can statistic s of a connect metric be "≥ timeout" (percentiles,
 * max)?  Such a statistic has a <stat>_ge_timeout column. */
bool censorable(bool connect, const struct stats_name *s);

/* What the intervals of a table cover, once per kind printed. */
void ci_notes(struct table *t, const struct analyze_opts *o,
    const size_t *covers);

/* The caption of a delta or ratio table (what: how it is made). */
void contrast_caption(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs, const char *what);

/* The delta table's columns; *col_stat and *col_growth get where the
 * statistics and the growth column start. */
void delta_columns(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs, const char *unit, size_t *col_stat,
    size_t *col_growth);

/* The ratio table's columns, dec decimals for its statistics; returns
 * where the statistics start. */
size_t ratio_columns(struct table *t, const struct analyze_opts *o,
    const struct cellset *cs, int dec);

/* The outlier-trial rule in words, made from the constants
 * stats_outlier_trials() uses (stats/verdict.h), so the caption, the
 * report's Methods and docs/analyze.md (tests/cli/t3835) say what the code
 * does. */
void outlier_rule_note(struct table *t);

/* The columns of a percentiles table after the key columns: counts,
 * loss (connect probes), then each statistic with its hidden
 * companions.  Returns the column of n. */
size_t pct_columns(struct table *t, const struct analyze_opts *o,
    const char *unit, int dec, bool connect);

/* The notes under a percentiles table (method, censoring, intervals). */
void pct_notes(const struct pct_ctx *x, const char *unit);

/* <stat>_ci_reason: why an interval asked for is absent (lo NaN), the
 * interval's own why or the censoring; empty when there is one. */
void set_ci_reason(struct table *t, size_t row, size_t col, double lo,
    const char *why);

/* The trials table's columns after the key columns; returns the first
 * (stat). */
size_t trials_columns(struct table *t, int dec, bool connect);

/* The spread columns of a trials row: mean, median, range, largest
 * deviation, and the outlier trials of cell c (vals[i] is its trial
 * tix[i]) as the one rule found them (cells_judge_outliers()). */
void trials_spread(struct table *t, size_t row, size_t col0, const double *vals,
    const long *tno, const bool *cens, size_t n, double scale, int dec,
    const struct cell *c, const size_t *tix);

/* The notes on intervals that borrowed their design's spread and on
 * those whose selection was too small to (analyze/borrow.c); key: the
 * table has <stat>_ci_borrowed. */
void borrow_notes(struct table *t, size_t nborrowed, size_t cells,
    size_t nlone, bool key);

#endif
