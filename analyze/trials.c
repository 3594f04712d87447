/*
 * trials.c - the trials verb: each trial's statistic, their mean, median
 * and range, and the trials far from their siblings (stats/verdict.c's
 * outlier rule).
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

/* The trials table's columns after the key columns; returns the first
 * (stat). */
size_t
trials_columns(struct table *t, int dec, bool connect)
{
	size_t col0 = table_add_col(t, "stat", "Stat", -1);
	struct strbuf h = STRBUF_INIT;

	table_add_col(t, "trials", "Trials", -1);
	/* the unit add_key_columns() put in t->shown */
	strbuf_addf(&h, "Per-trial values (%s)", t->shown.name ?
	    t->shown.name : "");
	table_add_col(t, "values", h.buf, -1);
	strbuf_reset(&h);
	strbuf_addf(&h, "Mean (%s)", t->shown.name ? t->shown.name : "");
	table_add_col(t, "mean", h.buf, dec);
	strbuf_release(&h);
	table_add_col(t, "median", "Median", dec);
	table_add_col(t, "min", "Min", dec);
	table_add_col(t, "max", "Max", dec);
	table_add_col(t, "max_dev_pct", "Max dev. from mean %", 1);
	table_add_col(t, "outliers", "Outlier trials", -1);
	table_add_col(t, "outlier_rule", "rule", -1);
	t->cols[col0 + 4].md_hidden = t->cols[col0 + 5].md_hidden = true;
	t->cols[col0 + 6].md_hidden = true;
	t->cols[col0 + 9].md_hidden = true;
	/* connect probes: the trials whose statistic is "≥ timeout" */
	if (connect)
		table_add_hidden_col(t, "ge_timeout_trials",
		    "ge_timeout_trials", -1);
	return col0;
}

size_t
analyze_trial_values(const struct analyze_opts *o, const struct cellset *cs,
    const struct cell *c, const struct stats_name *s, const char *typed,
    double *vals, long *tno, bool *cens, size_t *tix, struct cell_info *info)
{
	size_t k, n = 0;

	memset(info, 0, sizeof(*info));
	for (k = 0; k < c->ntrials; k++) {
		const struct trial *tr = &c->trials[k];
		double v;

		if (tr->n == 0 && !tr->summary_only)
			continue;
		if (tr->n) {
			if (s->kind == STATS_NAME_PCT)
				v = stats_quantile(o->est, tr->values, tr->n,
				    s->pct);
			else if (s->kind == STATS_NAME_MAX)
				v = tr->values[tr->n - 1];
			else if (s->kind == STATS_NAME_MIN)
				v = tr->values[0];
			else if (s->kind == STATS_NAME_N)
				v = (double)tr->n;
			else
				v = stats_mean(tr->values, tr->n);
			info->trials_raw++;
		} else {
			v = trial_tool_stat(tr, typed);
			info->trials_tool++;
		}
		if (!isfinite(v))
			continue;
		if (cens)
			cens[n] = trial_censored(o, cs, tr, s);
		if (tix)
			tix[n] = k;
		tno[n] = tr->trial;
		vals[n++] = v;
	}
	return n;
}

/* What flagged a trial (stats_outlier_cells()'s on bits) into sb:
 * "p95, p99", "p50 (the cell's own spread)". */
static void
outlier_on_text(struct strbuf *sb, unsigned on)
{
	static const char *const name[STATS_OUTLIER_NSTATS] = { "p50", "p95",
	    "p99" };
	size_t j, n = 0;

	for (j = 0; j < STATS_OUTLIER_NSTATS; j++)
		if (on & (1u << j))
			strbuf_addf(sb, "%s%s", n++ ? ", " : "", name[j]);
	if (on & STATS_OUTLIER_ON_OWN)
		strbuf_addf(sb, "%sp50 against the cell's own spread",
		    n ? "; " : "");
}

/* The outlier columns of a trials row: the trials of cell c the one
 * rule flagged (every row of the cell names the same ones), and on
 * which statistics. */
static void
trials_outliers(struct table *t, size_t row, size_t col0, const long *tno,
    size_t n, const struct cell *c, const size_t *tix)
{
	struct strbuf outl = STRBUF_INIT, disp = STRBUF_INIT;
	struct strbuf rule = STRBUF_INIT;
	size_t k;

	for (k = 0; k < n && c->outlier; k++) {
		if (!c->outlier[tix[k]])
			continue;
		strbuf_addf(&outl, "%s%ld", outl.len ? "," : "", tno[k]);
		strbuf_addf(&disp, "%s%ld (", disp.len ? ", " : "", tno[k]);
		outlier_on_text(&disp, c->outlier_on[tix[k]]);
		strbuf_addch(&disp, ')');
		strbuf_addf(&rule, "%strial %ld on ", rule.len ? "; " : "",
		    tno[k]);
		outlier_on_text(&rule, c->outlier_on[tix[k]]);
	}
	table_set_str(t, row, col0 + 8, outl.buf);
	if (disp.len)
		table_set_display(t, row, col0 + 8, disp.buf);
	if (c->ntrials < 3)
		table_set_str(t, row, col0 + 9, "none (< 3 trials)");
	else if (rule.len)
		table_set_str(t, row, col0 + 9, rule.buf);
	else
		table_set_str(t, row, col0 + 9, "check outlier-trial's rule: "
		    "none");
	strbuf_release(&outl);
	strbuf_release(&disp);
	strbuf_release(&rule);
}

void
trials_spread(struct table *t, size_t row, size_t col0, const double *vals,
    const long *tno, const bool *cens, size_t n, double scale, int dec,
    const struct cell *c, const size_t *tix)
{
	struct strbuf sb = STRBUF_INIT;
	struct stats_spread sp;
	size_t k, ncens = 0;

	for (k = 0; k < n; k++)
		ncens += cens[k];
	if (ncens) {
		/* a trial's value "≥ timeout" is no number: no mean, range,
		 * deviation or outlier test on the successes' values */
		for (k = col0 + 3; k <= col0 + 7; k++)
			table_set_display(t, row, k, "≥ timeout");
		table_set_str(t, row, col0 + 9, "none (trials ≥ timeout)");
		goto cleanup;
	}
	if (!n || stats_spread(vals, n, &sp, NULL, NULL) != 0)
		goto cleanup;
	table_set_num(t, row, col0 + 3, sp.mean);
	table_set_num(t, row, col0 + 4, sp.median);
	table_set_num(t, row, col0 + 5, sp.min);
	table_set_num(t, row, col0 + 6, sp.max);
	table_set_num(t, row, col0 + 7, sp.max_dev_pct);
	trials_outliers(t, row, col0, tno, n, c, tix);
	if (scale != 1.0) {
		md_number(&sb, sp.mean * scale, dec);
		table_set_display_raw(t, row, col0 + 3, sb.buf);
	}
cleanup:
	strbuf_release(&sb);
}

/* The Markdown of a values list with the censored trials as "≥
 * timeout" (the machine text keeps the successes' numbers). */
static void
trials_values_censored(struct table *t, size_t row, size_t col,
    const struct cellset *cs, const double *vals, const bool *cens, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct unit_choice u = cs->shown;
	size_t k, any = 0;

	for (k = 0; k < n; k++)
		any += cens[k];
	if (!any)
		return;
	if (!u.name)
		units_choose(cs->info, NULL, NAN, false, &u);
	for (k = 0; k < n; k++) {
		if (k)
			strbuf_addstr(&sb, ", ");
		if (cens[k])
			strbuf_addstr(&sb, "≥ timeout");
		else
			units_format(&sb, &u, vals[k]);
	}
	table_set_display(t, row, col, sb.buf);
	strbuf_release(&sb);
}

int
analyze_trials(sqlite3 *db, const struct analyze_opts *o, int nargs,
    char **args, struct table *t)
{
	struct analyze_opts o2;
	struct cellset cs;
	const char *unit;
	size_t i, j, col0, ncens = 0;
	double scale;
	int dec, ret;

	if (!verbs_no_args(nargs, args, "trials"))
		return -2;
	/* the articles watch p50 and p99 from trial to trial (latency;
	 * common/metric.h has the others) */
	analyze_shown_stats("trials", o, &o2);
	if (verbs_load(db, o, &cs))
		return -1;
	dec = cs.shown.decimals;
	scale = md_scale(&cs, &unit);
	add_key_columns(t, &cs);
	col0 = trials_columns(t, dec, cs.info->timeout_bound);
	for (i = 0; i < cs.n; i++) {
		struct cell *c = &cs.cells[i];
		double *vals = xcalloc(c->ntrials + 1, sizeof(double));
		long *tno = xcalloc(c->ntrials + 1, sizeof(long));
		size_t *tix = xcalloc(c->ntrials + 1, sizeof(size_t));
		bool *cens = xcalloc(c->ntrials + 1, sizeof(bool));

		for (j = 0; j < o2.nstats; j++) {
			struct cell_info info;
			size_t n, row, k;

			n = analyze_trial_values(o, &cs, c, &o2.stats[j],
			    o2.stat_names[j], vals, tno, cens, tix, &info);
			row = table_add_row(t);
			fill_key_columns(t, row, &cs, c, o, &info);
			table_set_str(t, row, col0, o2.stat_names[j]);
			table_set_int(t, row, col0 + 1, (int64_t)n);
			trials_values_cell(t, row, col0 + 2, &cs, vals, n);
			trials_spread(t, row, col0, vals, tno, cens, n, scale,
			    dec, c, tix);
			if (cs.info->timeout_bound) {
				struct strbuf ge = STRBUF_INIT;

				for (k = 0; k < n; k++)
					if (cens[k])
						strbuf_addf(&ge, "%s%ld", ge.len ?
						    "," : "", tno[k]);
				table_set_str(t, row, col0 + 10, ge.buf);
				ncens += ge.len > 0;
				trials_values_censored(t, row, col0 + 2, &cs,
				    vals, cens, n);
				strbuf_release(&ge);
			}
		}
		free(vals);
		free(tno);
		free(tix);
		free(cens);
	}
	{
		/* the estimator the JSON's estimator column names */
		size_t only, mixed;

		cellset_tool_cells(&cs, &only, &mixed);
		table_add_note(t, "%s: each trial's statistic (%s%s), their "
		    "mean, and the largest deviation of a trial from that mean "
		    "in %%.", cs.metric_name, cs.n && only == cs.n ? "the tool "
		    "summary's own" : stats_estimator_name(o->est),
		    cs.n && only == cs.n ? "" : only || mixed ? "; the tool "
		    "summary's own for trials without samples" : "");
	}
	outlier_rule_note(t);
	{
		/* what the other verbs withdraw for (cells_judge_outliers(),
		 * check outlier-trial's rule): on p50, p95 and p99 together,
		 * and with 4 or more cells of 3-5 trials against the spread
		 * they share, which the column above, one statistic and one
		 * cell at a time, cannot see */
		struct strbuf w = STRBUF_INIT;

		for (i = 0; i < cs.n; i++) {
			const struct cell *c = &cs.cells[i];

			if (!c->outlier_why)
				continue;
			strbuf_addf(&w, "%s%s%s%s: %s", w.len ? "; " : "",
			    c->path, c->cond[0] ? " " : "", c->cond,
			    c->outlier_why);
		}
		if (w.len)
			table_add_note(t, "Trial-level intervals withdrawn in "
			    "the other tables (check outlier-trial's rule: each "
			    "trial's p50, p95 and p99, over the selection's "
			    "cells of that trial count): %s.", w.buf);
		strbuf_release(&w);
	}
	if (ncens)
		table_add_note(t, "≥ timeout: that trial's statistic of all its "
		    "attempts reads a timed-out one (%s; ge_timeout_trials "
		    "names them; values keeps the successes' number); a row "
		    "with one has no mean, range or outlier test.",
		    censor_rule(o->est));
	ret = pooling_table_note(db, &cs, &o->where, o->paths, o->npaths, t);
	cellset_release(&cs);
	return ret;
}
