/*
 * replay.c - analyze's tables from numbers an engine computed: the
 * columns `analyze --sql`'s query gives (analyze_columns) and the table
 * rebuilt from its CSV (analyze_replay, report's from_csv).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/internal.h"
#include "analyze/pooling.h"
#include "analyze/verbs.h"
#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "stats/verdict.h"

/* --------------------------------------------------------------------
 * A table whose numbers an engine computed: `analyze --sql`'s query
 * run elsewhere and its CSV read back (report's from_csv).  The columns
 * are the verbs' own; the Markdown text and notes follow the same rules
 * from the values the CSV holds.
 */

/* An empty cellset that gives the verbs' column code what it reads. */
static int
columns_cellset(const struct analyze_opts *o, struct cellset *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->info = metric_by_name(o->metric);
	if (!cs->info)
		return error("unknown metric '%s'", o->metric ? o->metric : "");
	cs->metric = (int)cs->info->id;
	cs->metric_name = cs->info->name;
	cs->unit = cs->info->unit;
	cs->dimkeys = o->by;
	cs->ndims = o->nby;
	cellset_choose_unit(cs, o, false);
	return 0;
}

int
analyze_columns(const char *verb, const struct analyze_opts *o,
    struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	const char *unit;
	size_t a, b;

	if (columns_cellset(o, &cs))
		return -1;
	/* the columns analyze's table would have: its statistics */
	analyze_shown_stats(verb, o, &o2);
	o = &o2;
	md_scale(&cs, &unit);
	if (!strcmp(verb, "percentiles")) {
		add_key_columns(t, &cs);
		pct_columns(t, o, unit, cs.shown.decimals,
		    cs.info->timeout_bound);
	} else if (!strcmp(verb, "delta")) {
		delta_columns(t, o, &cs, unit, &a, &b);
	} else if (!strcmp(verb, "ratio")) {
		ratio_columns(t, o, &cs, 2);
	} else if (!strcmp(verb, "trials")) {
		add_key_columns(t, &cs);
		trials_columns(t, cs.shown.decimals, cs.info->timeout_bound);
	} else {
		return error("%s has no --sql form (percentiles, delta, ratio "
		    "and trials have)", verb);
	}
	return 0;
}

/* Does column key name a statistic of o (and which)? */
static const struct stats_name *
stat_col(const struct analyze_opts *o, const char *key)
{
	size_t j;

	for (j = 0; j < o->nstats; j++)
		if (!strcmp(o->stat_names[j], key))
			return &o->stats[j];
	return NULL;
}

static bool
is_null(const struct table *t, size_t r, long c)
{
	return c < 0 || table_at((struct table *)t, r, (size_t)c)->type ==
	    CELL_NULL;
}

/* percentiles: missing and censored values, the display unit. */
static void
replay_percentiles(const struct analyze_opts *o, const struct cellset *cs,
    struct table *t, size_t nrows)
{
	const char *unit;
	double scale = md_scale(cs, &unit);
	long ecol = table_col(t, "estimator"), tcol = table_col(t, "timeouts");
	struct pct_ctx x;
	struct strbuf sb = STRBUF_INIT, k = STRBUF_INIT;
	size_t r, c;

	memset(&x, 0, sizeof(x));
	x.o = o;
	x.cs = (struct cellset *)cs;
	x.t = t;
	for (r = 0; r < t->nrows; r++) {
		const char *est = table_str(t, r, ecol);
		bool tool = est && strstr(est, "tool");

		x.ntool += tool;
		x.ntimeouts += tcol >= 0 && table_num(t, r, tcol) > 0;
		for (c = 0; c < t->ncols; c++) {
			const struct stats_name *s = stat_col(o, t->cols[c].key);
			long ge;
			double v = table_num(t, r, (long)c);

			if (!s || s->kind == STATS_NAME_N)
				continue;
			strbuf_reset(&k);
			strbuf_addf(&k, "%s_ge_timeout", t->cols[c].key);
			ge = table_col(t, k.buf);
			strbuf_reset(&sb);
			if (ge >= 0 && table_num(t, r, ge) == 1) {
				strbuf_addstr(&sb, "≥ timeout");
				x.ncensored++;
			} else if (!isfinite(v)) {
				strbuf_addstr(&sb, tool && o->pool ==
				    STATS_POOL_POOLED ? "summary only: use "
				    "--pool trials" : "no samples");
			} else if (scale != 1.0) {
				md_number(&sb, v * scale, cs->shown.decimals);
			} else {
				continue;
			}
			table_set_display_raw(t, r, c, sb.buf);
		}
	}
	/* the number of tool-only trials is not in the CSV: rows */
	x.ntool = 0;
	/* pct_notes says "no runs match" only when there are no rows */
	{
		struct cellset rows = *cs;

		rows.n = nrows;
		x.cs = &rows;
		pct_notes(&x, unit);
	}
	for (r = 0; r < t->nrows; r++) {
		const char *est = table_str(t, r, ecol);

		if (est && strstr(est, "tool")) {
			table_add_note(t, "Rows whose estimator says tool have "
			    "trials without raw samples: %s", o->pool ==
			    STATS_POOL_PER_TRIAL ? "their statistics are the "
			    "tool's own (oha: sorted[floor(p·n)], no "
			    "interpolation)." : "left out of the pooled "
			    "statistics (use --pool trials to include the "
			    "tool's own numbers).");
			break;
		}
	}
	strbuf_release(&sb);
	strbuf_release(&k);
}

/* delta and ratio: "not measured" where a side is missing, else why a
 * statistic has no value; the display unit. */
static void
replay_contrast(const struct analyze_opts *o, const struct cellset *cs,
    struct table *t, bool ratio)
{
	const char *unit;
	double scale = ratio ? 1.0 : md_scale(cs, &unit);
	long na = table_col(t, ratio ? "n_numerator" : "n_minuend");
	long nb = table_col(t, ratio ? "n_denominator" : "n_subtrahend");
	long pair = table_col(t, "pair"), mcol = table_col(t, "metric");
	long gge = table_col(t, "growth_ge_timeout");
	struct strbuf sb = STRBUF_INIT;
	size_t r, c, r2, nmissing = 0;

	for (r = 0; r < t->nrows; r++) {
		bool missing = is_null(t, r, na) || is_null(t, r, nb);

		if (!ratio && is_null(t, r, mcol)) {
			/* a pair one of whose paths has no cells at all */
			bool a_seen = false;

			for (r2 = 0; r2 < t->nrows; r2++)
				if (!strcmp(table_str(t, r2, pair) ?
				    table_str(t, r2, pair) : "",
				    table_str(t, r, pair) ? table_str(t, r,
				    pair) : "") && !is_null(t, r2, na))
					a_seen = true;
			table_set_display(t, r, 3, a_seen ?
			    "subtrahend not measured" :
			    "minuend not measured");
			nmissing++;
			continue;
		}
		nmissing += missing;
		for (c = 0; c < t->ncols; c++) {
			const struct stats_name *s = stat_col(o, t->cols[c].key);
			double v = table_num(t, r, (long)c);

			if (!s)
				continue;
			strbuf_reset(&sb);
			if (!isfinite(v)) {
				table_set_display(t, r, c, missing ?
				    "not measured" : s->kind != STATS_NAME_N &&
				    cs->info->timeout_bound ? "≥ timeout" :
				    "no samples");
				continue;
			}
			if (ratio || scale == 1.0)
				continue;
			md_number(&sb, v * scale, cs->shown.decimals);
			table_set_display_raw(t, r, c, sb.buf);
		}
	}
	/* growth with a side "≥ timeout" (the query has the flag, not the
	 * bound: that needs the timeout) */
	for (r = 0; !ratio && gge >= 0 && r < t->nrows; r++)
		if (table_num(t, r, gge) == 1)
			table_set_display(t, r, (size_t)table_col(t, "growth"),
			    "–, censored");
	if (ratio) {
		struct strbuf what = STRBUF_INIT;
		long num = table_col(t, "numerator"), den = table_col(t,
		    "denominator");

		strbuf_addf(&what, "Ratio %s=%s over %s=%s, per path, under "
		    "otherwise equal conditions", o->across ? o->across : "",
		    t->nrows ? table_str(t, 0, num) : "", o->across ?
		    o->across : "", t->nrows ? table_str(t, 0, den) : "");
		contrast_caption(t, o, cs, what.buf);
		strbuf_release(&what);
	} else {
		long g = table_col(t, "growth");

		contrast_caption(t, o, cs, g >= 0 && t->cols[g].md_hidden ?
		    "Minuend minus subtrahend under the same condition" :
		    "Minuend minus subtrahend under the same condition; "
		    "growth = Δp99 / Δp50 (how much the gap widens in the "
		    "slow tail)");
		if (nmissing)
			table_add_note(t, "not measured: one side of the pair "
			    "has no data under that condition.");
	}
	strbuf_release(&sb);
}

/* trials: the mean in the display unit, and the notes. */
static void
replay_trials(const struct analyze_opts *o, const struct cellset *cs,
    struct table *t)
{
	const char *unit;
	double scale = md_scale(cs, &unit);
	long mean = table_col(t, "mean");
	struct strbuf sb = STRBUF_INIT;
	size_t r;

	for (r = 0; r < t->nrows; r++) {
		double v = table_num(t, r, mean);
		const char *ge = table_str(t, r, table_col(t,
		    "ge_timeout_trials"));

		trials_values_display(t, r, (size_t)table_col(t, "values"),
		    cs);
		/* trials "≥ timeout": no mean (trials_spread()) */
		if (ge && *ge) {
			table_set_display(t, r, (size_t)mean, "≥ timeout");
			continue;
		}
		if (!isfinite(v) || scale == 1.0)
			continue;
		strbuf_reset(&sb);
		md_number(&sb, v * scale, cs->shown.decimals);
		table_set_display_raw(t, r, (size_t)mean, sb.buf);
	}
	table_add_note(t, "%s: each trial's statistic (%s), their mean, and "
	    "the largest deviation of a trial from that mean in %%.",
	    cs->metric_name, stats_estimator_name(o->est));
	outlier_rule_note(t);
	strbuf_release(&sb);
}

int
analyze_replay(const char *verb, const struct analyze_opts *o,
    struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;

	if (columns_cellset(o, &cs))
		return -1;
	analyze_shown_stats(verb, o, &o2);
	if (strcmp(verb, "ratio"))
		cellset_choose_unit_table(&cs, &o2, t);
	if (!strcmp(verb, "percentiles"))
		replay_percentiles(&o2, &cs, t, t->nrows);
	else if (!strcmp(verb, "delta"))
		replay_contrast(&o2, &cs, t, false);
	else if (!strcmp(verb, "ratio"))
		replay_contrast(&o2, &cs, t, true);
	else if (!strcmp(verb, "trials"))
		replay_trials(&o2, &cs, t);
	else
		return error("%s has no --sql form", verb);
	analyze_stats_note(t, &o2);
	return 0;
}

enum cell_type
analyze_column_type(const char *verb, const struct analyze_opts *o,
    const char *key)
{
	static const char *const text[] = {
		"path", "condition", "metric", "estimator", "pool", "pair",
		"minuend", "subtrahend", "across", "numerator", "denominator",
		"stat", "values", "outliers", "outlier_rule", "pooled_over",
		"ge_timeout_trials",
	};
	static const char *const ints[] = {
		"n", "trials", "failures", "timeouts", "n_minuend", "n_subtrahend",
		"trials_minuend", "trials_subtrahend", "n_numerator",
		"n_denominator",
	};
	const struct stats_name *s = stat_col(o, key);
	size_t i, len = strlen(key);

	for (i = 0; i < o->nby; i++)
		if (!strcmp(o->by[i], key))
			return CELL_STR;
	for (i = 0; i < ARRAY_SIZE(text); i++)
		if (!strcmp(text[i], key))
			return CELL_STR;
	for (i = 0; i < ARRAY_SIZE(ints); i++)
		if (!strcmp(ints[i], key))
			return CELL_INT;
	if ((len > 11 && !strcmp(key + len - 11, "_ge_timeout")) ||
	    (len > 12 && !strcmp(key + len - 12, "_ci_borrowed")))
		return CELL_INT;
	if ((len > 10 && !strcmp(key + len - 10, "_ci_reason")) ||
	    (len > 10 && !strcmp(key + len - 10, "_ci_covers")))
		return CELL_STR;
	/* percentiles' n statistic is the count */
	if (s && s->kind == STATS_NAME_N && !strcmp(verb, "percentiles"))
		return CELL_INT;
	return CELL_NUM;
}
