/*
 * compare.c - the verbs that set values of one dimension side by side:
 * compare (a baseline against each other value, with bootstrap
 * intervals, a rank test on trial-level values, Holm correction and a
 * practical threshold), and the group columns trend.c and variance.c
 * share with it.  A row's test and verdict: compare_verdict.c.
 */
#include "common/compat.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/internal.h"
#include "analyze/pooling.h"
#include "analyze/verbs.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/keycat.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "stats/verdict.h"

/* Days a side the verdict of a comparison across days asks for: with
 * 3 days of 3 trials a side, a 1.35x difference is found in most
 * repetitions at a day-to-day sd of 0.1 on the log scale, and no
 * difference is called in 5 % or fewer (docs/research/verdicts.md, "Comparing
 * groups measured on their own days"). */
#define COMPARE_DAYS_ADVISED	3

int
analyze_load_by(sqlite3 *db, const struct analyze_opts *o, const char *key,
    struct cellset *cs)
{
	struct cells_query q;
	char **by = xcalloc(o->nby + 1, sizeof(char *));
	char *key_copy = xstrdup(key);
	size_t i, n = 0;
	int ret;

	for (i = 0; i < o->nby; i++)
		if (strcmp(o->by[i], key))
			by[n++] = o->by[i];
	by[n++] = key_copy;
	analyze_query(o, true, &q);
	q.by = by;
	q.nby = n;
	ret = cells_load(db, &q, cs);
	if (!ret)
		cellset_choose_unit(cs, o, true);
	free(by);
	free(key_copy);
	return ret;
}

/* Per-trial values of statistic s for cell c (raw trials, else the tool's
 * own numbers).  Returns the count; *out is malloc()ed, caller frees.
 * dm (may be NULL): *days the day of each value (malloc()ed array of
 * strings borrowed from dm, the caller frees the array). */
static size_t
trial_values(const struct analyze_opts *o, const struct cell *c,
    const struct stats_name *s, const char *typed, double **out,
    const struct daymap *dm, const char ***days)
{
	double *v = xcalloc(c->ntrials + 1, sizeof(double));
	const char **d = xcalloc(c->ntrials + 1, sizeof(char *));
	size_t i, n = 0;

	for (i = 0; i < c->ntrials; i++) {
		const struct trial *t = &c->trials[i];
		double x = NAN;

		if (t->n) {
			switch (s->kind) {
			case STATS_NAME_PCT:
				x = stats_quantile(o->est, t->values, t->n, s->pct);
				break;
			case STATS_NAME_MIN:
				x = t->values[0];
				break;
			case STATS_NAME_MAX:
				x = t->values[t->n - 1];
				break;
			case STATS_NAME_MEAN:
				x = stats_mean(t->values, t->n);
				break;
			case STATS_NAME_N:
				x = (double)t->n;
				break;
			}
		} else if (t->summary_only) {
			x = trial_tool_stat(t, typed);
		}
		if (isfinite(x)) {
			d[n] = dm ? daymap_day(dm, t->run_id) : "";
			v[n++] = x;
		}
	}
	*out = v;
	if (days)
		*days = d;
	else
		free(d);
	return n;
}

/* Same keys except the last dimension? */
bool
analyze_same_group(const struct cellset *cs, const struct cell *a, const struct cell *b)
{
	size_t d;

	if (strcmp(a->path, b->path) || strcmp(a->cond, b->cond))
		return false;
	for (d = 0; d + 1 < cs->ndims; d++)
		if (strcmp(a->dims[d], b->dims[d]))
			return false;
	return true;
}

void
analyze_add_group_columns(struct table *t, const struct cellset *cs)
{
	size_t d;

	t->shown = cs->shown;
	table_add_col(t, "path", "Path", -1);
	table_add_col(t, "condition", "Condition", -1);
	for (d = 0; d + 1 < cs->ndims; d++)
		table_add_col(t, cs->dimkeys[d], cs->dimkeys[d], -1);
	table_add_hidden_col(t, "metric", "Metric", -1);
	table_add_hidden_col(t, "estimator", "Estimator", -1);
	table_add_hidden_col(t, "pool", "Pool", -1);
}

size_t
analyze_fill_group_columns(struct table *t, size_t row, const struct cellset *cs,
    const struct cell *c, const struct analyze_opts *o)
{
	size_t d, col = 0, raw = 0, tool = 0;
	struct analyze_opts tmp;
	struct strbuf est = STRBUF_INIT;

	/* the estimator of the numbers the row was built from, as
	 * percentiles names it: oha's own numbers are "tool" */
	for (d = 0; d < c->ntrials; d++) {
		raw += c->trials[d].n > 0;
		tool += !c->trials[d].n && c->trials[d].summary_only;
	}
	o = cell_opts(o, c, &tmp);
	strbuf_addstr(&est, tool && !raw ? "tool" : stats_estimator_name(o->est));
	if (tool && raw && o->pool == STATS_POOL_PER_TRIAL)
		strbuf_addstr(&est, "+tool");
	table_set_str(t, row, col++, c->path);
	table_set_str(t, row, col++, c->cond);
	for (d = 0; d + 1 < cs->ndims; d++)
		table_set_str(t, row, col++, c->dims[d]);
	table_set_str(t, row, col++, cs->metric_name);
	table_set_str(t, row, col++, est.buf);
	table_set_str(t, row, col++, o->pool == STATS_POOL_POOLED ? "pooled" :
	    "trials");
	strbuf_release(&est);
	return col;
}

/* The trial-level interval of a's statistic s against b's (values va,
 * vb) as a difference or ratio (stats/interval.c); lo, hi NaN and
 * iv->why set when there is none.  A percentile's borrows the spread
 * of the cells of each side's design in cs as delta's and ratio's do
 * (stats_tl_contrast_borrow(), analyze/borrow.c): returns the cells the
 * fewer side borrowed from, 0 for the pair's own; *design the fewer
 * side's cells of its design. */
static size_t
tl_contrast(const struct analyze_opts *o, const struct cellset *cs,
    const struct stats_name *s, struct cell *a, struct cell *b, double va,
    double vb, enum stats_contrast k, struct stats_interval *iv,
    size_t *design)
{
	double *ua, *ub, *vua, *vub, ea, eb;
	const char *wa, *wb;
	size_t ta = cell_tl(o, a, s, &ua, &vua, &ea, &wa);
	size_t tb = cell_tl(o, b, s, &ub, &vub, &eb, &wb);
	size_t n = 0;

	*design = 0;
	if (ta && tb) {
		struct stats_borrow ba, bb;

		cell_borrow(o, cs, a, s, ta, &ba);
		cell_borrow(o, cs, b, s, tb, &bb);
		if (s->kind != STATS_NAME_PCT)
			ba.cells = bb.cells = 0;
		*design = ba.cells < bb.cells ? ba.cells : bb.cells;
		if (stats_tl_contrast_borrow(ua, vua, ta, va, &ba, ub, vub,
		    tb, vb, &bb, k, o->level, iv) == 1)
			n = *design;
		cell_contrast_clip(a, b, k, iv);
	} else {
		iv->estimate = k == STATS_RATIO ? stats_ratio(va, vb) : va - vb;
		iv->lo = iv->hi = iv->se = iv->df = NAN;
		iv->covers = STATS_COVERS_NONE;
		iv->why = ta ? wb : wa;
	}
	free(ua);
	free(ub);
	free(vua);
	free(vub);
	return n;
}

/* One row of the table and what its verdict needs (after the
 * adjustment across rows). */
struct cmp_row {
	size_t			row;	/* table row */
	size_t			base, cell;	/* the cells compared, in cs */
	struct compare_outcome	out;	/* p is the raw one until adjusted */
	/* its trial values when its test is on them (max-T permutes
	 * them); owned, or NULL */
	double			*xb, *xc;
	size_t			family;	/* rows sharing baseline and stat */
	const char		*censored;	/* the side "≥ timeout", or NULL */
	char			*no_verdict;	/* the verdict when the design
						 * has none; owned, or NULL */
	bool			tail_pooled;	/* tail_pooled(): no interval */
	const char		*stat;	/* its name, as typed (borrowed) */
};

/* How a row's days decide its unit of replication. */
enum day_mode {
	DAYS_TRIALS,	/* both sides on the same one day (or days unknown):
			 * the trials, as before */
	DAYS_ONE,	/* different days, one of them alone on its side: no
			 * day-to-day spread, so no verdict */
	DAYS_WELCH,	/* different days, 2 or more a side: Welch on days */
	DAYS_PAIRED	/* the same 2 or more days on both sides: paired t */
};

struct day_row {
	enum day_mode		mode;
	size_t			nb, nc;	/* days: baseline, value */
	struct stats_day_cmp	dc;	/* DAYS_WELCH, DAYS_PAIRED */
	char			*why;	/* DAYS_ONE: the verdict; owned */
};

struct cmp_ctx {
	const struct analyze_opts *o;	/* as given */
	const struct analyze_opts *o2;	/* with the default stats */
	const struct cellset	*cs;
	const char		*key;	/* the compared dimension */
	double			scale;	/* display scale */
	int			dec;	/* display decimals */
	struct table		*t;
	struct cmp_row		*rows;
	size_t			nrows, alloc;
	size_t			ncens;	/* rows with a side "≥ timeout" */
	size_t			nby_trials; /* intervals from the trials'
					 * own values (cell_tl_method) */
	const char		*baseline;	/* --baseline, else the first
						 * value of the whole table */
	size_t			nobase;	/* groups of two or more values
					 * without the baseline */
	size_t			ngroups, nsingle; /* groups (paths and
					 * conditions), those of one value */
	/* the runs' days, when the compared key is not the day itself
	 * (nor an hour or trial within it); else days.n is 0 */
	struct daymap		days;
	bool			by_days;
	size_t			nday_rows, none_rows;	/* rows of DAYS_WELCH or
					 * DAYS_PAIRED, of DAYS_ONE */
	size_t			ntail;	/* rows of tail_pooled() */
	/* rows whose trials' intervals borrowed their design's spread
	 * (tl_contrast), the most cells one borrowed from, and rows of
	 * a percentile with fewer than STATS_BORROW_MIN_CELLS */
	size_t			nborrow, borrow_most, nlone;
	bool			maxt;	/* p_adj by max-T, else Holm */
};

/*
 * Is statistic s of cells a and b a pooled percentile beyond p25-p75 on
 * either side?  It has no interval (stats_tl_unsupported()), so it can
 * never be better or worse: 35 of 35 p99 rows of a team's three weeks
 * read "inconclusive", one at -10.1 % with p(Holm) 0.000.  Its verdict
 * says what gives one (--pool trials).  (Taking it per trial by default
 * would part analyze from its --sql query, which computes the pooled
 * table: not done.)
 */
static bool
tail_pooled(const struct analyze_opts *o, const struct stats_name *s,
    const struct cell *a, const struct cell *b)
{
	struct analyze_opts ta, tb;

	return s->kind == STATS_NAME_PCT &&
	    (stats_tl_unsupported(cell_opts(o, a, &ta)->pool, o->est, s->pct) ||
	    stats_tl_unsupported(cell_opts(o, b, &tb)->pool, o->est, s->pct));
}

static void
compare_columns(struct table *t, const struct cellset *cs, const char *key,
    int dec)
{
	struct strbuf h = STRBUF_INIT;
	const char *unit;
	size_t col0;

	md_scale(cs, &unit);
	analyze_add_group_columns(t, cs);
	col0 = table_add_col(t, "by", "by", -1);
	t->cols[col0].md_hidden = true;
	table_add_col(t, "baseline", "Baseline", -1);
	table_add_col(t, "value", key, -1);
	table_add_col(t, "stat", "Stat", -1);
	/* the unit is the table's (common/units.h): say it in the headers */
	strbuf_addf(&h, "Baseline value (%s)", unit);
	table_add_col(t, "baseline_stat", h.buf, dec);
	strbuf_reset(&h);
	strbuf_addf(&h, "Value (%s)", unit);
	table_add_col(t, "value_stat", h.buf, dec);
	strbuf_reset(&h);
	strbuf_addf(&h, "Difference (%s)", unit);
	table_add_col(t, "diff", h.buf, dec);
	strbuf_release(&h);
	table_add_hidden_col(t, "diff_lo", "diff_lo", dec);
	table_add_hidden_col(t, "diff_hi", "diff_hi", dec);
	table_add_hidden_col(t, "diff_ci_reason", "diff_ci_reason", -1);
	table_add_col(t, "ratio", "Ratio [95 % CI]", 3);
	table_add_hidden_col(t, "ratio_lo", "ratio_lo", 3);
	table_add_hidden_col(t, "ratio_hi", "ratio_hi", 3);
	table_add_hidden_col(t, "ratio_ci_covers", "ratio_ci_covers", -1);
	table_add_hidden_col(t, "ratio_ci_reason", "ratio_ci_reason", -1);
	table_add_hidden_col(t, "test", "test", -1);
	table_add_col(t, "p", "p", 3);
	table_add_col(t, "p_adj", "p (adjusted)", 3);
	table_add_col(t, "verdict", "Verdict", -1);
	table_add_col(t, "trials_baseline", "trials (base)", -1);
	table_add_col(t, "trials_value", "trials", -1);
	/* connect probes: either side's statistic is "≥ timeout" (then no
	 * difference, ratio, test or verdict) */
	if (cs->info->timeout_bound) {
		table_add_hidden_col(t, "baseline_ge_timeout",
		    "baseline_ge_timeout", -1);
		table_add_hidden_col(t, "value_ge_timeout", "value_ge_timeout",
		    -1);
	}
	table_add_hidden_col(t, "also_differ", "also_differ", -1);
	/* the unit of replication of the row's test and interval:
	 * "trials", "days" or "shared days", and the days a side */
	table_add_hidden_col(t, "unit", "unit", -1);
	table_add_hidden_col(t, "days_baseline", "days_baseline", -1);
	table_add_hidden_col(t, "days_value", "days_value", -1);
}

/* "2026-09-01" or "2026-09-01 … 2026-09-03" */
static void
day_span(struct strbuf *sb, const struct day_value *v, size_t n)
{
	strbuf_addstr(sb, n && v[0].day[0] ? v[0].day : "(unknown)");
	if (n > 1)
		strbuf_addf(sb, " … %s", v[n - 1].day);
}

/*
 * The unit of replication of one row (dr): the days of the trial values
 * xb[0..nb) (days db) and xc[0..nc) (days dc).  Trials of one day share
 * its day effect; comparing groups measured on different days, the day
 * is the unit: a t test on each side's day values (2 or more days a
 * side), a paired t where both sides share their days, and no verdict
 * with one day alone on a side (the day-to-day spread is unknown, and
 * would be read as a difference of the key).  dr->why is malloc()ed,
 * the caller frees it.
 */
static void
row_days(struct cmp_ctx *x, const char *bname, const char *cname,
    const char **db, const double *xb, size_t nb, const char **dc,
    const double *xc, size_t nc, struct day_row *dr)
{
	struct day_value *vb, *vc;
	size_t kb = day_values(db, xb, nb, &vb);
	size_t kc = day_values(dc, xc, nc, &vc);
	bool same = kb == kc;
	size_t i;

	memset(dr, 0, sizeof(*dr));
	dr->nb = kb;
	dr->nc = kc;
	for (i = 0; same && i < kb; i++)
		same = !strcmp(vb[i].day, vc[i].day);
	if (!kb || !kc || (same && kb == 1)) {
		dr->mode = DAYS_TRIALS;
	} else if (same || (kb >= 2 && kc >= 2)) {
		double *la = xcalloc(kc + 1, sizeof(double));
		double *lb = xcalloc(kb + 1, sizeof(double));

		for (i = 0; i < kc; i++)
			la[i] = vc[i].lv;
		for (i = 0; i < kb; i++)
			lb[i] = vb[i].lv;
		dr->mode = same ? DAYS_PAIRED : DAYS_WELCH;
		stats_day_contrast(la, kc, lb, kb, same, x->o->level, &dr->dc);
		free(la);
		free(lb);
	} else {
		struct strbuf sb = STRBUF_INIT;

		dr->mode = DAYS_ONE;
		strbuf_addf(&sb, "no verdict about the %s: measured on "
		    "different days (%s: %zu day, ", x->key, bname, kb);
		day_span(&sb, vb, kb);
		strbuf_addf(&sb, "; %s: %zu day%s, ", cname, kc,
		    kc == 1 ? "" : "s");
		day_span(&sb, vc, kc);
		strbuf_addf(&sb, "), so a day-to-day difference would read as "
		    "one between them; %d days a side or more would separate "
		    "them, or both on the same days", COMPARE_DAYS_ADVISED);
		dr->why = strbuf_detach(&sb, NULL);
	}
	free(vb);
	free(vc);
}

/* Each row's other keys in which the two cells differ, one value each
 * ("instance_type: c6i.large vs c7i.large"; never a provenance key,
 * common/keycat.h, as the --sql query has none), into also_differ, and the
 * caption saying so (week 1 against week 4 may also be one
 * instance type against another). */
static void
compare_confounds(sqlite3 *db, struct cmp_ctx *x)
{
	struct pooling pl;
	long col = table_col(x->t, "also_differ");

	if (col < 0 || pooling_scan(db, x->cs, &x->o->where, x->o->paths,
	    x->o->npaths, &pl))
		return;
	for (size_t i = 0; i < x->nrows; i++) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t j = 0; j < pl.nkeys; j++) {
			const char *k = pl.keys[j].key;
			const char *a = pooling_cell_value(&pl, x->rows[i].base, k);
			const char *b = pooling_cell_value(&pl, x->rows[i].cell, k);

			/* provenance (hostname, session, ...) differs
			 * between any two sessions: not what changed */
			if (keycat_is_provenance(k))
				continue;
			if (a && b && strcmp(a, b) && strcmp(k, x->key))
				strbuf_addf(&sb, "%s%s: %s vs %s", sb.len ?
				    "; " : "", k, a[0] ? a : "(none)",
				    b[0] ? b : "(none)");
		}
		table_set_str(x->t, x->rows[i].row, (size_t)col, sb.buf);
		strbuf_release(&sb);
	}
	pooling_differ_note(&pl, x->cs, "the values compared", x->t);
	pooling_release(&pl);
}

/* Markdown text of v in the display unit. */
static void
display_num(struct cmp_ctx *x, size_t row, size_t col, double v)
{
	struct strbuf sb = STRBUF_INIT;

	md_number(&sb, v * x->scale, x->dec);
	table_set_display_raw(x->t, row, col, sb.buf);
	strbuf_release(&sb);
}

/* The baseline, value and difference columns from col, with their
 * Markdown: "≥ timeout" for a censored side (cens: either is) and the
 * bound it implies on the difference (ddir, dbound: cell_contrast_bound()). */
static void
set_values(struct cmp_ctx *x, size_t row, size_t col,
    const struct cell_stat *vb, const struct cell_stat *vc, bool cens,
    int ddir, double dbound)
{
	struct table *t = x->t;
	struct strbuf sb = STRBUF_INIT;

	table_set_num(t, row, col, vb->censored ? NAN : vb->value);
	table_set_num(t, row, col + 1, vc->censored ? NAN : vc->value);
	table_set_num(t, row, col + 2, cens ? NAN : vc->value - vb->value);
	if (x->scale != 1.0 && !cens) {
		display_num(x, row, col, vb->value);
		display_num(x, row, col + 1, vc->value);
		display_num(x, row, col + 2, vc->value - vb->value);
	} else if (cens) {
		if (vb->censored)
			table_set_display(t, row, col, "≥ timeout");
		else if (x->scale != 1.0)
			display_num(x, row, col, vb->value);
		if (vc->censored)
			table_set_display(t, row, col + 1, "≥ timeout");
		else if (x->scale != 1.0)
			display_num(x, row, col + 1, vc->value);
		if (ddir) {
			strbuf_addstr(&sb, ddir > 0 ? "≥ " : "≤ ");
			md_number(&sb, dbound * x->scale, x->dec);
			table_set_display_raw(t, row, col + 2, sb.buf);
		} else {
			table_set_display(t, row, col + 2, "–, censored");
		}
	}
	strbuf_release(&sb);
}

/* What the row's days (dr) change: the days' interval and test in place
 * of the trials' (bro, bd, test, *name), or none with one day a side.
 * Returns the ratio_ci_covers text (static), NULL for none. */
static const char *
row_unit(struct cmp_ctx *x, const struct day_row *dr,
    struct stats_interval *bro, struct stats_interval *bd,
    struct stats_test *test, const char **name)
{
	if (dr->mode == DAYS_WELCH || dr->mode == DAYS_PAIRED) {
		bro->lo = dr->dc.lo;
		bro->hi = dr->dc.hi;
		bro->covers = isfinite(bro->lo) ? STATS_COVERS_TRIALS :
		    STATS_COVERS_NONE;
		bro->why = "no day-to-day spread";
		bd->lo = bd->hi = NAN;
		bd->why = "over days: see the ratio's interval";
		test->p = dr->dc.p;
		*name = dr->mode == DAYS_PAIRED ? "paired-t-days" : "t-days";
		x->nday_rows++;
		return isfinite(bro->lo) ? "days" : NULL;
	}
	if (dr->mode == DAYS_ONE) {
		bro->lo = bro->hi = bd->lo = bd->hi = NAN;
		bro->covers = STATS_COVERS_NONE;
		bro->why = bd->why = "one day a side: day-to-day spread "
		    "unknown";
		test->p = NAN;
		*name = "none";
		x->none_rows++;
		return NULL;
	}
	return stats_covers_name(bro->covers);
}

/* The ratio's five columns from col: the ratio with its interval (or
 * the bound "≥ timeout" implies: cens, rdir, rbound), lo, hi, what the
 * interval covers and why there is none. */
static void
set_ratio(struct table *t, size_t row, size_t col, double ratio,
    const struct stats_interval *bro, const char *covers, const char *cens,
    int rdir, double rbound)
{
	struct strbuf sb = STRBUF_INIT;

	table_set_num(t, row, col, ratio);
	if (cens && rdir) {
		strbuf_addstr(&sb, rdir > 0 ? "≥ " : "≤ ");
		md_number(&sb, rbound, 3);
		strbuf_addf(&sb, " (%s ≥ timeout)", cens);
	} else if (cens) {
		strbuf_addstr(&sb, "–, censored");
	} else {
		format_ci(&sb, ratio, bro->lo, bro->hi, 3);
		if (isfinite(ratio) && bro->covers == STATS_COVERS_NONE &&
		    bro->why)
			table_mark(t, bro->why, &sb);
	}
	table_set_display_raw(t, row, col++, sb.buf);
	table_set_num(t, row, col++, bro->lo);
	table_set_num(t, row, col++, bro->hi);
	if (covers)
		table_set_str(t, row, col, covers);
	col++;
	if (!isfinite(bro->lo))
		table_set_str(t, row, col, bro->why ? bro->why : "no interval");
	strbuf_release(&sb);
}

/* The row's unit columns, and what its verdict takes from its days
 * (have: the days were read). */
static void
row_record_days(struct cmp_ctx *x, struct cmp_row *cr,
    const struct day_row *dr, bool have)
{
	size_t col = (size_t)table_col(x->t, "unit");

	cr->out.by_day = dr->mode == DAYS_WELCH || dr->mode == DAYS_PAIRED;
	cr->out.nrows = 0;
	if (cr->out.by_day) {
		cr->out.nb = dr->nb;
		cr->out.nc = dr->nc;
	}
	cr->no_verdict = NULL;
	if (dr->why) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s (%+.1f %%)", dr->why, 100.0 *
		    (cr->out.ratio - 1.0));
		cr->no_verdict = strbuf_detach(&sb, NULL);
	}
	table_set_str(x->t, cr->row, col, dr->mode == DAYS_PAIRED ?
	    "shared days" : dr->mode == DAYS_TRIALS ? "trials" : "days");
	if (have) {
		table_set_int(x->t, cr->row, col + 1, (int64_t)dr->nb);
		table_set_int(x->t, cr->row, col + 2, (int64_t)dr->nc);
	}
}

/* What one row computes before it goes into the table: the two sides'
 * values, the difference's and the ratio's intervals, the test. */
struct row_calc {
	struct cell_stat vb, vc;	/* the baseline's, the value's */
	struct stats_interval bd, bro;	/* difference, ratio */
	struct stats_test test;
	const char *test_name;
	const char *cens;	/* the censored side ("both"), or NULL */
	double ratio;
	double dbound, rbound;	/* the bounds "≥ timeout" implies */
	int ddir, rdir;
	size_t nb, nc;		/* trial-level values a side */
};

/* A side at "≥ timeout": the successes' value is no value, so no
 * difference, ratio, interval or test; the bounds the timeout implies
 * (value over baseline) instead. */
static void
row_censored(struct cmp_ctx *x, const struct cell *base, struct cell *c,
    const struct stats_name *st, struct row_calc *rc)
{
	const struct analyze_opts *o2 = x->o2;
	size_t last = x->cs->ndims - 1;

	rc->cens = rc->vb.censored && rc->vc.censored ? "both" :
	    rc->vb.censored ? base->dims[last] : c->dims[last];
	rc->dbound = cell_contrast_bound(o2, x->cs, c, (struct cell *)base,
	    st, false, rc->vc.censored, rc->vb.censored, &rc->ddir);
	rc->rbound = cell_contrast_bound(o2, x->cs, c, (struct cell *)base,
	    st, true, rc->vc.censored, rc->vb.censored, &rc->rdir);
	rc->bd.lo = rc->bd.hi = rc->bro.lo = rc->bro.hi = NAN;
	rc->bd.covers = rc->bro.covers = STATS_COVERS_NONE;
	rc->bd.why = rc->bro.why = CELL_WHY_CENSORED;
	rc->test.p = NAN;
	rc->test_name = "none";
	rc->ratio = NAN;
}

/* Both sides valued or "–": the difference's and the ratio's
 * intervals (how many cells the ratio's borrowed from, *nbor, of a
 * design of *ndesign) and the test on the trial values xb and xc.
 * Returns whether both sides have a value. */
static bool
row_contrast(struct cmp_ctx *x, const struct cell *base, struct cell *c,
    const struct stats_name *st, const double *xb, const double *xc,
    struct row_calc *rc, size_t *nbor, size_t *ndesign)
{
	const struct analyze_opts *o2 = x->o2;
	bool valued;

	tl_contrast(o2, x->cs, st, c, (struct cell *)base, rc->vc.value,
	    rc->vb.value, STATS_DELTA, &rc->bd, ndesign);
	*nbor = tl_contrast(o2, x->cs, st, c, (struct cell *)base,
	    rc->vc.value, rc->vb.value, STATS_RATIO, &rc->bro, ndesign);
	if (rc->bro.covers != STATS_COVERS_NONE &&
	    (cell_tl_method(o2, c, st) ||
	    cell_tl_method(o2, (struct cell *)base, st)))
		x->nby_trials++;
	/* a side without a value ("–") has nothing to test: no p from the
	 * trials' own numbers beside it */
	valued = isfinite(rc->vc.value) && isfinite(rc->vb.value);
	rc->test_name = analyze_compare_test(xc, valued ? rc->nc : 0, xb,
	    valued ? rc->nb : 0, &rc->test);
	rc->ratio = stats_ratio(rc->vc.value, rc->vb.value);
	return valued;
}

/* The table's row of statistic s of c against base, from rc; covers:
 * what the ratio's interval covers.  Returns the row. */
static size_t
row_cells(struct cmp_ctx *x, const struct cell *base, const struct cell *c,
    size_t s, const struct row_calc *rc, const char *covers)
{
	const struct analyze_opts *o2 = x->o2;
	struct table *t = x->t;
	size_t last = x->cs->ndims - 1, row, col;

	row = table_add_row(t);
	col = analyze_fill_group_columns(t, row, x->cs, c, o2);
	table_set_str(t, row, col++, x->key);
	table_set_str(t, row, col++, base->dims[last]);
	table_set_str(t, row, col++, c->dims[last]);
	table_set_str(t, row, col++, o2->stat_names[s]);
	set_values(x, row, col, &rc->vb, &rc->vc, rc->cens != NULL, rc->ddir,
	    rc->dbound);
	col += 3;
	table_set_num(t, row, col++, rc->bd.lo);
	table_set_num(t, row, col++, rc->bd.hi);
	if (!isfinite(rc->bd.lo))
		table_set_str(t, row, col, rc->bd.why ? rc->bd.why :
		    "no interval");
	col++;
	set_ratio(t, row, col, rc->ratio, &rc->bro, covers, rc->cens,
	    rc->rdir, rc->rbound);
	col += 5;
	table_set_str(t, row, col++, rc->test_name);
	table_set_num(t, row, col++, rc->test.p);
	table_set_int(t, row, col + 2, (int64_t)rc->nb);
	table_set_int(t, row, col + 3, (int64_t)rc->nc);
	if (x->cs->info->timeout_bound) {
		table_set_int(t, row, col + 4, rc->vb.censored);
		table_set_int(t, row, col + 5, rc->vc.censored);
	}
	return row;
}

/* The row comparing statistic s of cell c with the baseline. */
static void
compare_row(struct cmp_ctx *x, const struct cell *base, struct cell *c,
    size_t s)
{
	const struct analyze_opts *o2 = x->o2;
	const struct stats_name *st = &o2->stats[s];
	struct row_calc rc;
	struct cell_info info;
	struct cmp_row *cr;
	const char *covers, **db = NULL, **dc = NULL;
	double *xb, *xc;
	size_t row;
	bool valued = false;
	size_t nbor = 0, ndesign = 0;
	struct day_row dr;
	const struct daymap *dm = x->by_days ? &x->days : NULL;

	memset(&rc, 0, sizeof(rc));
	rc.dbound = rc.rbound = NAN;
	cell_compute(o2, x->cs, (struct cell *)base, st, false, &rc.vb, &info);
	cell_compute(o2, x->cs, c, st, false, &rc.vc, &info);
	rc.nb = trial_values(o2, base, st, o2->stat_names[s], &xb, dm, &db);
	rc.nc = trial_values(o2, c, st, o2->stat_names[s], &xc, dm, &dc);
	memset(&dr, 0, sizeof(dr));
	if (rc.vb.censored || rc.vc.censored)
		row_censored(x, base, c, st, &rc);
	else
		valued = row_contrast(x, base, c, st, xb, xc, &rc, &nbor,
		    &ndesign);
	if (valued && dm)
		row_days(x, base->dims[x->cs->ndims - 1],
		    c->dims[x->cs->ndims - 1], db, xb, rc.nb, dc, xc, rc.nc,
		    &dr);
	covers = row_unit(x, &dr, &rc.bro, &rc.bd, &rc.test, &rc.test_name);
	/* days as the unit: the days' interval, no trial spread borrowed */
	if (dr.mode == DAYS_TRIALS && rc.bro.covers == STATS_COVERS_TRIALS &&
	    st->kind == STATS_NAME_PCT) {
		x->nborrow += nbor > 0;
		x->nlone += !nbor && ndesign < STATS_BORROW_MIN_CELLS;
		if (nbor > x->borrow_most)
			x->borrow_most = nbor;
	}
	row = row_cells(x, base, c, s, &rc, covers);
	ALLOC_GROW(x->rows, x->nrows + 1, x->alloc);
	cr = &x->rows[x->nrows++];
	cr->row = row;
	cr->censored = rc.cens;
	x->ncens += rc.cens != NULL;
	cr->base = (size_t)(base - x->cs->cells);
	cr->cell = (size_t)(c - x->cs->cells);
	cr->out.nb = rc.nb;
	cr->out.nc = rc.nc;
	cr->out.p = rc.test.p;
	cr->out.ratio = rc.ratio;
	cr->out.lo = rc.bro.lo;
	cr->out.hi = rc.bro.hi;
	cr->out.higher_better = x->cs->info->higher_better;
	cr->tail_pooled = !rc.cens && tail_pooled(o2, st, base, c);
	cr->stat = o2->stat_names[s];
	x->ntail += cr->tail_pooled;
	row_record_days(x, cr, &dr, dm && valued);
	/* the trials are the unit, and max-T may permute them */
	cr->xb = cr->xc = NULL;
	cr->family = cr->base * o2->nstats + s;
	if (dr.mode == DAYS_TRIALS && isfinite(rc.test.p)) {
		cr->xb = xb;
		cr->xc = xc;
		xb = xc = NULL;
	}
	free(dr.why);
	free(xb);
	free(xc);
	free(db);
	free(dc);
}

/* The rows of one group (same keys but the compared one): each value
 * against the baseline (--baseline, else the first value in order). */
static void
compare_group(struct cmp_ctx *x, size_t from, size_t to)
{
	const struct cellset *cs = x->cs;
	const struct cell *base = NULL;
	size_t j, s;

	x->ngroups++;
	/* one value of the key: nothing to set beside it, whatever the
	 * baseline */
	if (to - from < 2) {
		x->nsingle++;
		return;
	}
	for (j = from; j < to; j++) {
		const char *v = cs->cells[j].dims[cs->ndims - 1];

		if (x->baseline && !strcmp(v, x->baseline))
			base = &cs->cells[j];
	}
	if (!base) {
		x->nobase++;
		return;
	}
	for (j = from; j < to; j++) {
		if (&cs->cells[j] == base)
			continue;
		for (s = 0; s < x->o2->nstats; s++)
			if (x->o2->stats[s].kind != STATS_NAME_N)
				compare_row(x, base, &cs->cells[j], s);
	}
}

/*
 * The rows' p adjusted across the table into p[]: max-T when every
 * tested row's unit is its trials (their permutation is valid: one day,
 * or days unknown), else Holm.  Sets x->maxt, and each row's floor.
 */
static void
compare_adjust(struct cmp_ctx *x, double *p)
{
	struct stats_mt_row *mr = xcalloc(x->nrows + 1, sizeof(*mr));
	double floor = 1.0, alpha = 1.0 - x->o->level;
	size_t i, m = 0, let_k = 0;
	bool trials = true;

	for (i = 0; i < x->nrows; i++) {
		const struct cmp_row *r = &x->rows[i];
		/* the smallest p its exact test could reach */
		double f = r->out.by_day || r->out.nb >= 10 ||
		    r->out.nc >= 10 ? 0.0 : analyze_mw_min_p(r->out.nb,
		    r->out.nc);

		p[i] = r->out.p;
		mr[i] = (struct stats_mt_row){ r->xb, r->xc, r->out.nb,
		    r->out.nc, r->family, r->out.p, f };
		if (isfinite(r->out.p)) {
			m++;
			floor = f < floor ? f : floor;
			trials = trials && r->xb;
		}
	}
	x->maxt = trials && m > 1;
	if (x->maxt) {
		analyze_compare_maxt(mr, x->nrows, x->o->level, p, &floor,
		    &let_k);
	} else {
		stats_holm(p, x->nrows);
		floor *= (double)m;
	}
	for (i = 0; i < x->nrows; i++) {
		struct compare_outcome *o = &x->rows[i].out;

		/* no row can pass when even the smallest p any row's exact
		 * test could reach, adjusted, is not below alpha */
		o->nrows = m > 1 && isfinite(floor) && floor >= alpha ? m : 0;
		o->maxt = x->maxt;
		o->floor = floor;
		o->let_k = let_k;
	}
	free(mr);
}

/* The adjustment across the rows of the table, then each row's verdict. */
static void
compare_verdicts(struct cmp_ctx *x)
{
	double *p = xcalloc(x->nrows + 1, sizeof(double));
	long col_p = table_col(x->t, "p_adj");
	long col_v = table_col(x->t, "verdict");
	struct strbuf v = STRBUF_INIT;
	size_t i;

	compare_adjust(x, p);
	for (i = 0; i < x->nrows; i++) {
		struct cmp_row *r = &x->rows[i];

		r->out.p = p[i];
		table_set_num(x->t, r->row, (size_t)col_p, p[i]);
		strbuf_reset(&v);
		if (r->censored && !strcmp(r->censored, "both"))
			strbuf_addstr(&v, "no verdict: both ≥ timeout");
		else if (r->censored)
			strbuf_addf(&v, "no verdict: %s ≥ timeout",
			    r->censored);
		else if (r->no_verdict)
			strbuf_addstr(&v, r->no_verdict);
		else if (analyze_compare_verdict(&r->out,
		    x->o->threshold_pct, x->o->level, &v) ==
		    COMPARE_INCONCLUSIVE && r->tail_pooled &&
		    isfinite(r->out.ratio)) {
			strbuf_reset(&v);
			strbuf_addf(&v, "inconclusive: a pooled %s has no "
			    "interval, so no verdict; --pool trials gives one "
			    "(%+.1f %%)", r->stat, 100.0 *
			    (r->out.ratio - 1.0));
		}
		table_set_str(x->t, r->row, (size_t)col_v, v.buf);
	}
	strbuf_release(&v);
	free(p);
}

/* The groups with one value of the key: a note, and when no group has
 * two, why the table has no rows (t->empty_why, which analyze's error
 * gives and --sql's comment). */
static void
compare_single_notes(struct cmp_ctx *x)
{
	struct strbuf why = STRBUF_INIT;

	if (!x->nsingle)
		return;
	if (x->nsingle < x->ngroups) {
		table_add_note(x->t, "%zu path%s and condition%s measured "
		    "under one %s only: not compared.", x->nsingle,
		    x->nsingle == 1 ? "" : "s", x->nsingle == 1 ? "" : "s",
		    x->key);
		return;
	}
	strbuf_addf(&why, "no path and condition has runs under two values "
	    "of %s (", x->key);
	if (x->ngroups == 1)
		strbuf_addstr(&why, "the one there has one");
	else
		strbuf_addf(&why, "each of the %zu has one", x->ngroups);
	strbuf_addstr(&why, "): compare sets a key's values side by side "
	    "within a path and condition; delta A-B compares paths");
	table_add_note(x->t, "%c%s.", toupper((unsigned char)why.buf[0]),
	    why.buf + 1);
	free(x->t->empty_why);
	x->t->empty_why = strbuf_detach(&why, NULL);
}

static void
compare_notes(struct cmp_ctx *x)
{
	const struct analyze_opts *o = x->o;
	struct strbuf m = STRBUF_INIT, tr = STRBUF_INIT;
	size_t tlo = 0, thi = 0;

	describe_method(x->o2, x->cs, &m);
	table_add_note(x->t, "%s by %s against the baseline (%s%s); %s.",
	    x->cs->metric_name, x->key, x->baseline ? x->baseline : "none",
	    o->baseline ? "" : ": no --baseline, so the first value in "
	    "order, one for the whole table", m.buf);
	if (x->nobase)
		table_add_note(x->t, "%zu path%s and condition%s without a run "
		    "on the baseline %s: not compared (--baseline picks "
		    "another).", x->nobase, x->nobase == 1 ? "" : "s",
		    x->nobase == 1 ? "" : "s", x->baseline ? x->baseline :
		    "none");
	compare_single_notes(x);
	/* the trials the rows compare, as counted, not the minimum the
	 * interval needs */
	for (size_t i = 0; i < x->nrows; i++) {
		size_t a = x->cs->cells[x->rows[i].base].ntrials;
		size_t b = x->cs->cells[x->rows[i].cell].ntrials;

		tlo = !i || (a < b ? a : b) < tlo ? (a < b ? a : b) : tlo;
		thi = !i || (a > b ? a : b) > thi ? (a > b ? a : b) : thi;
	}
	if (!x->nrows)
		strbuf_addstr(&tr, "no trials");
	else if (tlo == thi)
		strbuf_addf(&tr, "%zu trials a side", tlo);
	else
		strbuf_addf(&tr, "%zu–%zu trials a side", tlo, thi);
	table_add_note(x->t, "Ratio = value / baseline with a %.0f %% interval "
	    "covering trial-to-trial variation and sampling (ratio_ci_covers = "
	    "trials): Welch t on trial-level values, which needs %d trials "
	    "a side (the rows compare %s; docs/research/coverage.md).  Test on trial-level values (JSON and CSV name "
	    "the one whose p is shown in their test column): exact Mann–Whitney U below 10 "
	    "trials a side, else Brunner–Munzel (Mann–Whitney where the two "
	    "sides do not overlap, as Brunner–Munzel then has no p); p_adj "
	    "adjusted across the rows %s.", o->level * 100,
	    STATS_TL_MIN_TRIALS, tr.buf, x->maxt ? "by a step-down "
	    "permutation max-T (the rows share their baseline's trials, "
	    "which the trials of each step's rows and baseline are "
	    "permuted among; " STATS_MT_NPERM_S " permutations, fixed seed)" :
	    "with Holm "
	    "(the rows' unit is not the trials of one day everywhere, so "
	    "their permutation does not apply)");
	strbuf_release(&tr);
	if (x->ntail)
		table_add_note(x->t, "%zu row(s) of a pooled percentile beyond "
		    "p25–p75: it has no interval (docs/research/coverage.md), "
		    "so no "
		    "better/worse; --pool trials (each trial's value, then "
		    "their mean) gives one and a verdict.", x->ntail);
	if (x->nday_rows || x->none_rows)
		table_add_note(x->t, "Days are the unit where the sides were "
		    "measured on different days (unit, days_baseline, "
		    "days_value): trials of one day share its day effect, so "
		    "the test and interval are over days, each day's mean log "
		    "statistic of its trials: a t test (t-days: Student's with "
		    "as many days a side, else Welch's), or a "
		    "paired t on the days both sides share (paired-t-days); "
		    "with one day alone on a side the day-to-day spread is "
		    "unknown, and the row has no verdict about the %s "
		    "(docs/research/verdicts.md).", x->key);
	if (!x->by_days)
		table_add_note(x->t, "The verdicts are about the %ss compared, "
		    "as measured: a %s-to-%s difference is part of what they "
		    "see, and says nothing of the path on other %ss.", x->key,
		    x->key, x->key, x->key);
	if (x->ncens)
		table_add_note(x->t, "≥ timeout: the statistic of all attempts "
		    "reads a timed-out one (baseline_ge_timeout, "
		    "value_ge_timeout); the successes' value would understate "
		    "it, so such a row has no difference, ratio, test or "
		    "verdict; where the other side is measured, the bound it "
		    "implies is shown, reading \"≥ timeout\" as at least the "
		    "timeout (ratio ≥ timeout / baseline's statistic of all "
		    "attempts).");
	if (x->nby_trials)
		table_add_note(x->t, "%zu interval(s) from the trials' own "
		    "values (ties at the pooled percentile, or trials of unequal "
		    "size, where the pooled linearization does not hold: "
		    "docs/research/intervals.md).", x->nby_trials);
	/* each row's difference and ratio, as delta's and ratio's; the
	 * verdict's test and p_adj are the trials' own */
	borrow_notes(x->t, x->nborrow, x->borrow_most, x->nlone, false);
	table_add_note(x->t, "Verdict: better/worse when the adjusted p < "
	    "%.2f and the whole interval lies beyond ±%.0f %%; same when the "
	    "interval lies within ±%.0f %% (or the change is significant but "
	    "smaller); else inconclusive (too few trials or too much spread "
	    "to tell).", 1.0 - o->level, o->threshold_pct, o->threshold_pct);
	strbuf_release(&m);
}

int
analyze_compare(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	struct cmp_ctx x;
	const char *unit;
	size_t i, g;

	if (nargs > 0) {
		error("compare takes no arguments (got '%s')", args[0]);
		return -2;
	}
	if (o->nby == 0) {
		error("compare needs --by KEY (instance_type, day, region, az "
		    "or a tag)");
		return -2;
	}
	memset(&x, 0, sizeof(x));
	x.key = o->by[o->nby - 1];
	analyze_default_stats(o, &o2);
	if (analyze_load_by(db, o, x.key, &cs))
		return -1;
	/* the day is the unit of replication unless it is the key itself
	 * (or a part of one: hour, trial) */
	x.by_days = strcmp(x.key, "day") && strcmp(x.key, "hour") &&
	    strcmp(x.key, "trial");
	if (x.by_days && daymap_load(db, &x.days)) {
		cellset_release(&cs);
		return -1;
	}
	x.o = o;
	x.o2 = &o2;
	x.cs = &cs;
	x.t = t;
	x.scale = md_scale(&cs, &unit);
	x.dec = cs.shown.decimals;
	compare_columns(t, &cs, x.key, x.dec);
	/* one baseline per table: a group's own first value would make
	 * each path's rows compare against a different day */
	x.baseline = o->baseline;
	for (i = 0; !o->baseline && i < cs.n; i++) {
		const char *v = cs.cells[i].dims[cs.ndims - 1];

		if (!x.baseline || strcmp(v, x.baseline) < 0)
			x.baseline = v;
	}
	for (i = 0; i < cs.n; i = g) {
		for (g = i; g < cs.n && analyze_same_group(&cs, &cs.cells[i],
		    &cs.cells[g]); g++)
			;
		compare_group(&x, i, g);
	}
	compare_verdicts(&x);
	compare_notes(&x);
	compare_confounds(db, &x);
	for (i = 0; i < x.nrows; i++) {
		free(x.rows[i].no_verdict);
		free(x.rows[i].xb);
		free(x.rows[i].xc);
	}
	free(x.rows);
	daymap_release(&x.days);
	cellset_release(&cs);
	return 0;
}
