/*
 * cell.c - the checks that judge a cell (one metric, path and
 * condition in one campaign) or the table its cells form: few-samples,
 * mixed-estimators, missing-cells and unbalanced-trials (outlier-trial
 * is outlier.c).
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/model.h"
#include "stats/stats.h"
#include "stats/verdict.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* The cell's trial numbers: "trial 2", "trials 1, 2, 3", a number that
 * several runs claim as "1 (×2)". */
static void
trial_list(struct strbuf *sb, const struct check_model *m,
    const struct check_cell *c)
{
	size_t i, j, distinct = 0;

	for (i = 0; i < c->nruns; i = j) {
		for (j = i + 1; j < c->nruns && m->runs[c->runs[j]].trial ==
		    m->runs[c->runs[i]].trial; j++)
			;
		distinct++;
	}
	strbuf_addstr(sb, distinct == 1 ? "trial " : "trials ");
	for (i = 0; i < c->nruns; i = j) {
		long t = m->runs[c->runs[i]].trial;

		for (j = i + 1; j < c->nruns && m->runs[c->runs[j]].trial == t;
		    j++)
			;
		strbuf_addf(sb, "%s%ld", i ? ", " : "", t);
		if (j - i > 1)
			strbuf_addf(sb, " (×%zu)", j - i);
	}
}

/* "slowest", "2nd-slowest", "3rd-slowest", "4th-slowest" ... */
static void
slowest(struct strbuf *sb, size_t k)
{
	const char *suffix = "th";

	if (k <= 1) {
		strbuf_addstr(sb, "slowest");
		return;
	}
	if (k % 100 < 11 || k % 100 > 13) {
		if (k % 10 == 1)
			suffix = "st";
		else if (k % 10 == 2)
			suffix = "nd";
		else if (k % 10 == 3)
			suffix = "rd";
	}
	strbuf_addf(sb, "%zu%s-slowest", k, suffix);
}

/* ---------------------------------------------------------------------
 * few-samples
 */

/* Successful samples of a run, from its samples or, for a summary-only
 * run, the tool's attempt count less its failures; -1 if unknown. */
static int64_t
run_n(const struct check_run *r)
{
	if (!r->summary_only)
		return (int64_t)r->n;
	if (r->attempts >= 0)
		return r->attempts - r->failures;
	return -1;
}

static const struct stats_name default_connect[] = {
	{ STATS_NAME_PCT, 99.0 },
};
static const struct stats_name default_http[] = {
	{ STATS_NAME_PCT, 99.0 }, { STATS_NAME_PCT, 99.9 },
};

/* What few-samples found in one cell. */
struct few {
	bool		per_trial;	/* tool percentiles: judged per run */
	size_t		known;		/* runs whose count is known */
	int64_t		pooled;		/* successful samples of all runs */
	int64_t		min_n;		/* of the smallest run, -1: none */
	size_t		nbad;		/* statistics without an interval */
	size_t		pooled_need;	/* per run short, pooled enough: n */
	size_t		short_need;	/* short even pooled: the n needed */
	struct strbuf	need_text;	/* "p99 needs ≥ 299, ..." */
	struct strbuf	rank_text;	/* "its p99 is the 3rd-slowest ..." */
	struct strbuf	pooled_ok;	/* "p99 and p99.9": pooled would do */
	struct strbuf	top_text;	/* "p99 of 300 is the 3rd-slowest" */
	double		top_pct;	/* the highest such percentile */
	size_t		top_need;	/* samples that take it off the top */
	/* runs with samples: enough pooled, but a run short of what the
	 * --pool trials interval needs in each (stats_tl_withhold()) */
	int64_t		min_run;	/* the smallest run with samples */
	size_t		nrun_pos;	/* runs with samples */
	size_t		run_need;	/* the most such a statistic needs */
	struct strbuf	run_text;	/* "p99 needs ≥ 299, ..." */
};

/* The percentiles judged in cell c: --stats, else the metric's. */
static const struct stats_name *
few_stats(const struct check_model *m, const struct check_cell *c,
    size_t *n)
{
	*n = 0;
	if (m->opts && m->opts->stats) {
		*n = m->opts->nstats;
		return m->opts->stats;
	}
	if (c->metric == METRIC_CONNECT_MS) {
		*n = ARRAY_SIZE(default_connect);
		return default_connect;
	}
	if (c->metric == METRIC_HTTP_MS) {
		*n = ARRAY_SIZE(default_http);
		return default_http;
	}
	return NULL;
}

/* A percentile with an interval that still rests on one of the last
 * CHECK_FEW_RANK samples: "p99 of 300 is the 3rd-slowest". */
static void
few_rank_only(struct few *fw, double pct, size_t judged, size_t rank)
{
	strbuf_addf(&fw->top_text, "%sp%g of ", fw->top_text.len ? ", " : "",
	    pct);
	check_fmt_count(&fw->top_text, judged);
	strbuf_addf(&fw->top_text, " is %sthe ", fw->per_trial ? "" :
	    "about ");
	slowest(&fw->top_text, rank);
	if (fw->top_pct == 0.0 || pct > fw->top_pct) {
		fw->top_pct = pct;
		/* the n whose p-th percentile is the (RANK + 1)-th
		 * slowest value */
		fw->top_need = (size_t)ceil((double)(CHECK_FEW_RANK + 1) /
		    (1.0 - pct / 100.0) - 1e-9);
	}
	fw->nbad++;
}

/* Count the cell's samples and judge each statistic against the n its
 * interval needs. */
static void
few_judge(const struct check_model *m, const struct check_cell *c,
    const struct stats_name *stats, size_t nstats, struct few *fw)
{
	size_t i, s;

	fw->min_n = fw->min_run = -1;
	for (i = 0; i < c->nruns; i++) {
		const struct check_run *r = &m->runs[c->runs[i]];
		int64_t n = run_n(r);

		fw->per_trial |= r->tool_pct;
		if (n < 0)
			continue;
		fw->known++;
		fw->pooled += n;
		if (fw->min_n < 0 || n < fw->min_n)
			fw->min_n = n;
		if (n > 0 && (fw->min_run < 0 || n < fw->min_run))
			fw->min_run = n;
		fw->nrun_pos += n > 0;
	}
	for (s = 0; fw->known && s < nstats; s++) {
		double pct = stats[s].pct;
		size_t need = stats_quantile_ci_min_n(pct, CHECK_FEW_LEVEL,
		    STATS_CI_NARROWEST);
		size_t judged = (size_t)(fw->per_trial ? fw->min_n :
		    fw->pooled);

		if (stats[s].kind != STATS_NAME_PCT || !need)
			continue;
		if (judged >= need) {
			size_t rank = check_rank_from_top(pct, judged);

			/* an interval exists, but the value may still be
			 * a single sample near the top */
			if (rank <= CHECK_FEW_RANK)
				few_rank_only(fw, pct, judged, rank);
			/* what analyze --pool trials judges: each run with
			 * samples (3 x 150 probes had no
			 * p99 interval there, pointing here, and nothing
			 * was found on the pooled 450); not for a caller
			 * whose tables pool the runs (a report's week of
			 * 200-probe days is 1,400 probes) */
			if (!(m->opts && m->opts->pooled) &&
			    !fw->per_trial && fw->nrun_pos >= 2 &&
			    (size_t)fw->min_run < need) {
				strbuf_addf(&fw->run_text, "%sp%g needs ≥ ",
				    fw->run_text.len ? ", " : "", pct);
				check_fmt_count(&fw->run_text, need);
				if (need > fw->run_need)
					fw->run_need = need;
				if (rank > CHECK_FEW_RANK)
					fw->nbad++;
			}
			continue;
		}
		if (fw->per_trial && (size_t)fw->pooled >= need) {
			/* the pooled value of all runs would do */
			strbuf_addf(&fw->pooled_ok, "%sp%g", fw->pooled_ok.len ?
			    " and " : "", pct);
			if (need > fw->pooled_need)
				fw->pooled_need = need;
		} else if (need > fw->short_need) {
			fw->short_need = need;
		}
		strbuf_addf(&fw->need_text, "%sp%g needs ≥ ",
		    fw->need_text.len ? ", " : "", pct);
		check_fmt_count(&fw->need_text, need);
		if (judged) {
			strbuf_addf(&fw->rank_text, "%sits p%g is %sthe ",
			    fw->rank_text.len ? ", " : "", pct,
			    fw->per_trial ? "" :
			    "about ");
			slowest(&fw->rank_text, check_rank_from_top(pct,
			    judged));
			strbuf_addstr(&fw->rank_text, fw->per_trial ?
			    " request of the run" : " value");
		}
		fw->nbad++;
	}
}

static void
few_evidence(const struct check_cell *c, const struct few *fw,
    const char *unit, struct strbuf *ev)
{
	if (fw->run_text.len) {
		strbuf_addf(ev, "%s successful %s in each run for the "
		    "interval of analyze --pool trials (each run's "
		    "percentile, then the mean across runs; analyze withholds "
		    "it: \"too few samples\"), and the smallest run here has ",
		    fw->run_text.buf, unit);
		check_fmt_count(ev, (uint64_t)fw->min_run);
		strbuf_addstr(ev, "; the pooled percentile has a value "
		    "but, beyond p25–p75, no interval; ");
	}
	if (fw->need_text.len)
		strbuf_addf(ev, "%s successful samples for any %.0f %% "
		    "interval; ", fw->need_text.buf, 100 * CHECK_FEW_LEVEL);
	if (fw->top_text.len)
		strbuf_addf(ev, "%s%s, within the last %d samples: one "
		    "slow value more or less moves it; ", fw->per_trial ?
		    "with oha's rule sorted[floor(p·n)] per run " : "",
		    fw->top_text.buf, CHECK_FEW_RANK);
	if (fw->per_trial) {
		strbuf_addstr(ev, "the tool's percentiles are per run and the "
		    "smallest run here has ");
		check_fmt_count(ev, (uint64_t)fw->min_n);
		strbuf_addf(ev, " successful %s (%zu run%s, ", unit, c->nruns,
		    c->nruns == 1 ? "" : "s");
		check_fmt_count(ev, (uint64_t)fw->pooled);
		strbuf_addstr(ev, " pooled)");
		if (fw->rank_text.len)
			strbuf_addf(ev, ": with oha's rule sorted[floor(p·n)] "
			    "%s", fw->rank_text.buf);
	} else {
		strbuf_addstr(ev, "this cell has ");
		check_fmt_count(ev, (uint64_t)fw->pooled);
		strbuf_addf(ev, " successful %s in %zu run%s", unit, c->nruns,
		    c->nruns == 1 ? "" : "s");
		if (fw->rank_text.len)
			strbuf_addf(ev, ": %s", fw->rank_text.buf);
	}
}

static void
few_action(const struct check_cell *c, const struct few *fw,
    const char *unit, struct strbuf *act)
{
	if (fw->run_need) {
		strbuf_addstr(act, "collect ≥ ");
		check_fmt_count(act, fw->run_need);
		strbuf_addf(act, " %s in every run for a `--pool trials` "
		    "interval, or publish the percentile without one", unit);
	}
	if (fw->pooled_ok.len) {
		if (act->len)
			strbuf_addstr(act, "; ");
		strbuf_addf(act, "publish the pooled %s of all ",
		    fw->pooled_ok.buf);
		check_fmt_count(act, (uint64_t)fw->pooled);
		strbuf_addf(act, " %s (pathstat analyze --pool pooled: a value, "
		    "with no interval beyond p25–p75) instead of the mean of "
		    "per-run values, or send ≥ ", unit);
		check_fmt_count(act, fw->pooled_need);
		strbuf_addf(act, " %s per run", unit);
	}
	if (fw->top_need && !fw->short_need) {
		if (act->len)
			strbuf_addstr(act, "; ");
		strbuf_addf(act, "send ≥ ");
		check_fmt_count(act, fw->top_need);
		strbuf_addf(act, " %s%s for a p%g that is not one of the "
		    "last few, or publish it as the k-th slowest value it is",
		    unit, fw->per_trial ? " per run" : " in the cell",
		    fw->top_pct);
	}
	if (fw->short_need) {
		if (act->len)
			strbuf_addstr(act, "; for the rest ");
		strbuf_addstr(act, "collect ≥ ");
		check_fmt_count(act, fw->short_need);
		strbuf_addf(act, " %s%s (%s), or publish a lower percentile "
		    "and the max as what they are", unit, fw->per_trial ?
		    " per run" : " in the cell", c->metric ==
		    METRIC_CONNECT_MS ? "pathprobe -n, or more runs" :
		    c->metric == METRIC_HTTP_MS ? "oha -n" :
		    "longer runs (iperf3 -t) or more of them");
	}
}

/* Judge one cell (scope: its campaign text, or the campaigns it
 * pools). */
static void
few_cell(struct check_model *m, const struct check_cell *c, const char *scope)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	const struct stats_name *stats;
	struct check_finding *f;
	struct few fw;
	const char *unit;
	size_t nstats, i;

	memset(&fw, 0, sizeof(fw));
	strbuf_init(&fw.need_text, 0);
	strbuf_init(&fw.rank_text, 0);
	strbuf_init(&fw.pooled_ok, 0);
	strbuf_init(&fw.top_text, 0);
	strbuf_init(&fw.run_text, 0);
	stats = few_stats(m, c, &nstats);
	if (nstats)
		few_judge(m, c, stats, nstats, &fw);
	if (!fw.nbad)
		goto cleanup;
	unit = c->metric == METRIC_CONNECT_MS ? "probes" :
	    c->metric == METRIC_HTTP_MS ? "requests" : "samples";
	f = check_add(m, "few-samples", c->scope, c->metric, c->path,
	    c->cond, -1);
	if (scope) {
		free(f->scope);
		f->scope = xstrdup(scope);
	}
	for (i = 0; i < c->nruns; i++)
		check_add_run(f, &m->runs[c->runs[i]]);
	few_evidence(c, &fw, unit, &ev);
	strbuf_addstr(&cause, "an extreme percentile of few samples is "
	    "one or two single values: it jumps with every GC pause or "
	    "scheduler hiccup and no 95 % interval exists for it (the "
	    "second article's p99 of 300 requests was the 3rd-slowest "
	    "request)");
	few_action(c, &fw, unit, &act);
	check_set_text(f, &ev, &cause, &act);
cleanup:
	strbuf_release(&fw.need_text);
	strbuf_release(&fw.rank_text);
	strbuf_release(&fw.pooled_ok);
	strbuf_release(&fw.top_text);
	strbuf_release(&fw.run_text);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}

/* Is the cell of the metric the caller asks about (opts->metric)? */
static bool
few_wanted(const struct check_model *m, const struct check_cell *c)
{
	return !m->opts || !m->opts->metric ||
	    !strcmp(check_metric_name(c->metric), m->opts->metric);
}

/*
 * The cells as the caller pools them (check_opts.pooled): the cells of
 * one metric, path and condition in campaigns that differ only in the
 * merged tags, their runs together, judged once.  A report table of a
 * week has 1,400 probes in a cell whose days have 200 each.
 */
static void
few_pooled(struct check_model *m)
{
	struct strbuf sc = STRBUF_INIT, ra = STRBUF_INIT;
	bool *done = xcalloc(m->ncells ? m->ncells : 1, sizeof(bool));
	char **scopes = xcalloc(m->ncells ? m->ncells : 1, sizeof(char *));
	/* each campaign's text without the merged tags, once: a cell
	 * compared it with every later cell of its path (quadratic in the
	 * days, 7 % of an 84-day no-spec report's instructions) */
	char **rest = xcalloc(m->nscopes + 1, sizeof(char *));
	size_t ci, cj, ns;

	for (ci = 0; ci < m->nscopes; ci++) {
		strbuf_reset(&ra);
		check_scope_rest(m->opts, m->scopes[ci], &ra);
		rest[ci] = xstrdup(ra.buf);
	}
	for (ci = 0; ci < m->ncells; ci++) {
		struct check_cell pool = m->cells[ci];
		const char *a = rest[m->cells[ci].scope];
		size_t alloc = 0;

		/* a cell pools only with cells of its own metric */
		if (done[ci] || !few_wanted(m, &m->cells[ci]))
			continue;
		pool.runs = NULL;
		pool.nruns = 0;
		ns = 0;
		for (cj = ci; cj < m->ncells; cj++) {
			const struct check_cell *c = &m->cells[cj];

			if (done[cj] || c->metric != pool.metric ||
			    c->path != pool.path || c->cond != pool.cond ||
			    strcmp(a, rest[c->scope]))
				continue;
			done[cj] = true;
			scopes[ns++] = m->scopes[c->scope];
			ALLOC_GROW(pool.runs, pool.nruns + c->nruns, alloc);
			memcpy(pool.runs + pool.nruns, c->runs,
			    c->nruns * sizeof(size_t));
			pool.nruns += c->nruns;
		}
		check_scope_join(scopes, ns, &sc);
		few_cell(m, &pool, sc.buf);
		free(pool.runs);
	}
	for (ci = 0; ci < m->nscopes; ci++)
		free(rest[ci]);
	free(rest);
	free(done);
	free(scopes);
	strbuf_release(&ra);
	strbuf_release(&sc);
}

void
check_few_samples(struct check_model *m)
{
	size_t ci;

	if (m->opts && m->opts->pooled) {
		few_pooled(m);
		return;
	}
	for (ci = 0; ci < m->ncells; ci++)
		if (few_wanted(m, &m->cells[ci]))
			few_cell(m, &m->cells[ci], NULL);
}

/* ---------------------------------------------------------------------
 * mixed-estimators
 */

static bool
run_raw(const struct check_run *r)
{
	return r->n > 0 || r->nfail_rows > 0;
}

void
check_mixed_estimators(struct check_model *m)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	bool *mixed = xcalloc(m->ncells ? m->ncells : 1, sizeof(bool));
	size_t ci, cj, i;

	/* within a cell: raw and summary-only trials, or two estimators */
	for (ci = 0; ci < m->ncells; ci++) {
		const struct check_cell *c = &m->cells[ci];
		size_t raw = 0, tool = 0;
		const char *est = NULL, *other = NULL;
		struct check_finding *f;

		for (i = 0; i < c->nruns; i++) {
			const struct check_run *r = &m->runs[c->runs[i]];

			raw += run_raw(r);
			tool += r->summary_only;
			if (r->tool_est && !est)
				est = r->tool_est;
			else if (r->tool_est && strcmp(est, r->tool_est))
				other = r->tool_est;
		}
		if (!(raw && tool) && !other)
			continue;
		mixed[ci] = true;
		f = check_add(m, "mixed-estimators", c->scope, c->metric,
		    c->path, c->cond, -1);
		for (i = 0; i < c->nruns; i++)
			check_add_run(f, &m->runs[c->runs[i]]);
		if (raw && tool) {
			size_t listed = 0;

			strbuf_addstr(&ev, "trials ");
			for (i = 0; i < c->nruns; i++) {
				const struct check_run *r;

				r = &m->runs[c->runs[i]];
				if (r->summary_only)
					strbuf_addf(&ev, "%s%ld", listed++ ?
					    ", " : "", r->trial);
			}
			strbuf_addf(&ev, " of %zu have only the tool's own "
			    "summary (%s), the others raw samples: a pooled "
			    "percentile leaves those trials out, a mean of "
			    "per-trial values mixes pathstat's estimator with "
			    "the tool's", c->nruns, est ? est : "tool");
		}
		if (other) {
			if (ev.len)
				strbuf_addstr(&ev, "; ");
			strbuf_addf(&ev, "the trials' summaries use two "
			    "estimators (%s and %s)", est, other);
		}
		strbuf_addstr(&cause, "some runs lost their per-request file "
		    "(oha JSON alone, a failed sync) or came from another tool "
		    "version, so the cell's trials were not computed the same "
		    "way");
		strbuf_addstr(&act, "re-sync or re-run the summary-only trials "
		    "with per-request output (oha --db-url or CSV), or publish "
		    "this cell per trial with the tool's estimator and say so");
		check_set_text(f, &ev, &cause, &act);
	}
	/* within a table: summary-only cells next to raw ones */
	for (ci = 0; ci < m->ncells; ci++) {
		const struct check_cell *c = &m->cells[ci];
		size_t raw_cells = 0, tool_runs = 0;
		struct check_finding *f;

		if (mixed[ci])
			continue;
		for (i = 0; i < c->nruns; i++)
			tool_runs += m->runs[c->runs[i]].summary_only;
		if (tool_runs != c->nruns)
			continue;
		for (cj = 0; cj < m->ncells; cj++) {
			const struct check_cell *o = &m->cells[cj];

			if (o->scope != c->scope || o->metric != c->metric ||
			    mixed[cj])
				continue;
			for (i = 0; i < o->nruns; i++)
				if (run_raw(&m->runs[o->runs[i]]))
					break;
			raw_cells += i < o->nruns;
		}
		if (!raw_cells)
			continue;
		f = check_add(m, "mixed-estimators", c->scope, c->metric,
		    c->path, c->cond, -1);
		for (i = 0; i < c->nruns; i++)
			check_add_run(f, &m->runs[c->runs[i]]);
		strbuf_addf(&ev, "this cell has only the tool's own summaries "
		    "(%s, per run) while %zu other cell%s of this metric and "
		    "campaign have raw samples (pooled, pathstat's estimator): "
		    "a table holding both compares two different statistics",
		    m->runs[c->runs[0]].tool_est ?
		    m->runs[c->runs[0]].tool_est : "tool", raw_cells,
		    raw_cells == 1 ? "" : "s");
		strbuf_addstr(&cause, "the per-request files of these runs "
		    "are missing (oha JSON alone) or were never written");
		strbuf_addstr(&act, "re-run with per-request output, or build "
		    "the whole table per trial with the tool's estimator "
		    "(pathstat analyze --pool trials --quantile oha) so every "
		    "cell means the same thing");
		check_set_text(f, &ev, &cause, &act);
	}
	free(mixed);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}

/* ---------------------------------------------------------------------
 * Tables: the cells of one campaign and metric whose conditions have the
 * same keys (a path x condition matrix).
 */

struct table_group {
	size_t	*cells;		/* indices in m->cells */
	size_t	n, alloc;
};

/* Collect the groups; the caller frees each group's cells and the array.
 * The cells come by campaign and metric (group_cells()), so a cell's
 * group is among those since the first of its campaign and metric: a
 * search of every group was cells x campaigns. */
static struct table_group *
table_groups(const struct check_model *m, size_t *ngroups)
{
	struct table_group *g = NULL;
	size_t n = 0, alloc = 0, ci, k, first = 0;

	for (ci = 0; ci < m->ncells; ci++) {
		const struct check_cell *c = &m->cells[ci];

		if (ci && (c->scope != m->cells[ci - 1].scope ||
		    c->metric != m->cells[ci - 1].metric))
			first = n;
		for (k = first; k < n; k++) {
			const struct check_cell *o = &m->cells[g[k].cells[0]];

			if (o->scope == c->scope && o->metric == c->metric &&
			    !strcmp(m->cond_keys[o->cond],
			    m->cond_keys[c->cond]))
				break;
		}
		if (k == n) {
			ALLOC_GROW(g, n + 1, alloc);
			memset(&g[n], 0, sizeof(g[n]));
			n++;
		}
		ALLOC_GROW(g[k].cells, g[k].n + 1, g[k].alloc);
		g[k].cells[g[k].n++] = ci;
	}
	*ngroups = n;
	return g;
}

static void
table_groups_free(struct table_group *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(g[i].cells);
	free(g);
}

static size_t
add_unique(size_t *arr, size_t *n, size_t v)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (arr[i] == v)
			return i;
	arr[*n] = v;
	return (*n)++;
}

/* A table as a path x condition matrix of cells present. */
struct matrix {
	size_t	*paths, *conds;	/* model indices, in order of appearance */
	size_t	np, nc;
	bool	*have;		/* have[p * nc + c] */
	size_t	*per_cond;	/* paths measured in each condition */
	size_t	*per_path;	/* conditions measured on each path */
};

static void
matrix_build(const struct check_model *m, const struct table_group *g,
    struct matrix *x)
{
	size_t i;

	memset(x, 0, sizeof(*x));
	x->paths = xmalloc(g->n * sizeof(size_t));
	x->conds = xmalloc(g->n * sizeof(size_t));
	for (i = 0; i < g->n; i++) {
		add_unique(x->paths, &x->np, m->cells[g->cells[i]].path);
		add_unique(x->conds, &x->nc, m->cells[g->cells[i]].cond);
	}
	x->have = xcalloc(x->np * x->nc, sizeof(bool));
	x->per_cond = xcalloc(x->nc, sizeof(size_t));
	x->per_path = xcalloc(x->np, sizeof(size_t));
	for (i = 0; i < g->n; i++) {
		const struct check_cell *c = &m->cells[g->cells[i]];
		size_t p = add_unique(x->paths, &x->np, c->path);
		size_t k = add_unique(x->conds, &x->nc, c->cond);

		if (x->have[p * x->nc + k])
			continue;
		x->have[p * x->nc + k] = true;
		x->per_cond[k]++;
		x->per_path[p]++;
	}
}

static void
matrix_release(struct matrix *x)
{
	free(x->paths);
	free(x->conds);
	free(x->have);
	free(x->per_cond);
	free(x->per_path);
}

/* The finding for the hole at path p, condition k of x. */
static void
missing_one(struct check_model *m, const struct check_cell *first,
    const struct matrix *x, size_t p, size_t k)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	const char *cond = m->conds[x->conds[k]];
	struct check_finding *f;
	size_t q, listed = 0;

	f = check_add(m, "missing-cells", first->scope, first->metric,
	    x->paths[p], x->conds[k], -1);
	strbuf_addf(&ev, "%s was measured on ", *cond ? cond :
	    "the empty condition");
	for (q = 0; q < x->np; q++)
		if (x->have[q * x->nc + k])
			strbuf_addf(&ev, "%s%s", listed++ ? ", " : "",
			    m->paths[x->paths[q]]);
	strbuf_addf(&ev, " (%zu of %zu paths) but not on %s, which has runs "
	    "in %zu other condition%s of this table", x->per_cond[k], x->np,
	    m->paths[x->paths[p]], x->per_path[p],
	    x->per_path[p] == 1 ? "" : "s");
	strbuf_addstr(&cause, "the path was not measured in this condition: "
	    "skipped on purpose (a path that cannot carry it, e.g. "
	    "PrivateLink without UDP), a run that failed, or files that were "
	    "not synced or ingested");
	strbuf_addstr(&act, "measure it, or make the table say 'not "
	    "measured' with the reason (pathstat prints 'not measured'), "
	    "never a blank or a zero");
	check_set_text(f, &ev, &cause, &act);
}

void
check_missing_cells(struct check_model *m)
{
	struct table_group *g;
	struct matrix x;
	size_t ng, gi, p, k;

	g = table_groups(m, &ng);
	for (gi = 0; gi < ng; gi++) {
		matrix_build(m, &g[gi], &x);
		/* a hole: the condition was measured on 2 or more other
		 * paths, this path in another condition of the table */
		for (p = 0; p < x.np; p++) {
			for (k = 0; k < x.nc; k++) {
				if (x.have[p * x.nc + k] || x.per_cond[k] < 2)
					continue;
				missing_one(m, &m->cells[g[gi].cells[0]], &x,
				    p, k);
			}
		}
		matrix_release(&x);
	}
	table_groups_free(g, ng);
}

/* ---------------------------------------------------------------------
 * unbalanced-trials
 */

/* Are the trial numbers of cells a and b the same set? */
static bool
same_trials(const struct check_model *m, const struct check_cell *a,
    const struct check_cell *b)
{
	size_t i;

	if (a->nruns != b->nruns)
		return false;
	/* runs are ordered by trial within a cell */
	for (i = 0; i < a->nruns; i++)
		if (m->runs[a->runs[i]].trial != m->runs[b->runs[i]].trial)
			return false;
	return true;
}

/* Median successful samples per raw run of a cell, 0 if none.  A UDP
 * run whose rate is the receiver's end-of-test one (rate_side 2) is one
 * value by design, not a short run: it counts as none. */
static double
cell_typical_n(const struct check_model *m, const struct check_cell *c)
{
	double *v = xmalloc((c->nruns ? c->nruns : 1) * sizeof(double));
	size_t i, k = 0;
	double med;

	for (i = 0; i < c->nruns; i++)
		if (m->runs[c->runs[i]].n && m->runs[c->runs[i]].udp_side != 2)
			v[k++] = (double)m->runs[c->runs[i]].n;
	med = k ? stats_median(v, k) : 0.0;
	free(v);
	return med;
}

/* Within a cell: the smallest and the largest raw trial. */
static void
uneven_trials(const struct check_model *m, const struct check_cell *c,
    struct strbuf *ev, struct strbuf *cause, struct strbuf *act)
{
	const struct check_run *lo = NULL, *hi = NULL;
	size_t k;

	for (k = 0; k < c->nruns; k++) {
		const struct check_run *r = &m->runs[c->runs[k]];

		if (!r->n)
			continue;
		if (!lo || r->n < lo->n)
			lo = r;
		if (!hi || r->n > hi->n)
			hi = r;
	}
	if (!lo || (double)lo->n >= CHECK_UNBAL_WITHIN * (double)hi->n)
		return;
	check_next_reason(ev, cause, act);
	strbuf_addf(ev, "trial %ld has ", lo->trial);
	check_fmt_count(ev, lo->n);
	strbuf_addf(ev, " successful samples, trial %ld has ", hi->trial);
	check_fmt_count(ev, hi->n);
	strbuf_addf(ev, ": a pooled percentile weighs trial %ld %.1f× as "
	    "much", hi->trial, (double)hi->n / (double)lo->n);
	strbuf_addstr(cause, "runs of one cell were made with different "
	    "request counts or durations, or one stopped early");
	strbuf_addstr(act, "give every trial the same count or duration, or "
	    "use the per-trial mean (pathstat analyze --pool trials)");
}

/* Across cells: tn samples per run here, up to top_n elsewhere. */
static void
small_cell(double tn, double top_n, struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act)
{
	if (tn <= 0 || top_n < CHECK_UNBAL_ACROSS * tn)
		return;
	check_next_reason(ev, cause, act);
	strbuf_addstr(ev, "its runs have ");
	check_fmt_count(ev, (uint64_t)tn);
	strbuf_addstr(ev, " successful samples each while other cells of "
	    "this table have up to ");
	check_fmt_count(ev, (uint64_t)top_n);
	strbuf_addf(ev, " (%.0f×): the same percentile is a far noisier "
	    "estimate here", top_n / tn);
	strbuf_addstr(cause, "the campaign used different request counts or "
	    "durations per path or condition");
	strbuf_addstr(act, "use one count per run for every cell of a table "
	    "you compare");
}

void
check_unbalanced_trials(struct check_model *m)
{
	struct strbuf ev = STRBUF_INIT, cause = STRBUF_INIT, act = STRBUF_INIT;
	struct table_group *g;
	size_t ng, gi, i, j, k;

	g = table_groups(m, &ng);
	for (gi = 0; gi < ng; gi++) {
		const struct check_cell *mode = NULL;
		size_t best_count = 0;
		double top_n = 0.0;

		/* the trial set most cells of the table share */
		for (i = 0; i < g[gi].n; i++) {
			const struct check_cell *a = &m->cells[g[gi].cells[i]];
			size_t count = 0;
			double tn = cell_typical_n(m, a);

			for (j = 0; j < g[gi].n; j++)
				count += same_trials(m, a,
				    &m->cells[g[gi].cells[j]]);
			if (count > best_count || (count == best_count &&
			    a->nruns > mode->nruns)) {
				mode = a;
				best_count = count;
			}
			if (tn > top_n)
				top_n = tn;
		}
		for (i = 0; i < g[gi].n; i++) {
			const struct check_cell *c = &m->cells[g[gi].cells[i]];
			struct check_finding *f;

			if (best_count >= 2 && !same_trials(m, c, mode)) {
				trial_list(&ev, m, c);
				strbuf_addf(&ev, " where %zu other cell%s of "
				    "this table %s ", best_count,
				    best_count == 1 ? "" : "s",
				    best_count == 1 ? "has" : "have");
				trial_list(&ev, m, mode);
				strbuf_addstr(&cause, "a trial was not run, "
				    "failed, or was not synced, or two runs "
				    "claim one trial number");
				strbuf_addstr(&act, "re-run the missing trial "
				    "(or drop the extra one) so every cell of "
				    "the table rests on the same trials; a "
				    "mean over 2 trials is not comparable with "
				    "one over 3");
			}
			uneven_trials(m, c, &ev, &cause, &act);
			small_cell(cell_typical_n(m, c), top_n, &ev, &cause,
			    &act);
			if (!ev.len)
				continue;
			f = check_add(m, "unbalanced-trials", c->scope,
			    c->metric, c->path, c->cond, -1);
			for (k = 0; k < c->nruns; k++)
				check_add_run(f, &m->runs[c->runs[k]]);
			check_set_text(f, &ev, &cause, &act);
		}
	}
	table_groups_free(g, ng);
	strbuf_release(&ev);
	strbuf_release(&cause);
	strbuf_release(&act);
}
