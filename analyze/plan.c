/*
 * plan.c - `pathstat plan`: how many trials, and samples per trial, a
 * campaign needs for an interval of +-W % on a percentile, and what it
 * costs in minutes, before it runs.  The spreads come from a pilot
 * already ingested (each cell's trials) or from --model; the arithmetic
 * is analyze/plan_model.c's (analyze/plan.h), and tests/sim/plan.c
 * checks its promises against pathstat's own interval code.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cells.h"
#include "analyze/plan.h"
#include "cmds.h"
#include "common/db.h"
#include "common/err.h"
#include "common/exit.h"
#include "common/keycat.h"
#include "common/metric.h"
#include "common/parse.h"
#include "common/parseopt.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/xalloc.h"

/* One pilot trial gives no trial-to-trial spread: the range of trials
 * is given for a spread of 0 up to this (log scale, about 10 %). */
#define PLAN_BETWEEN_CEIL	0.1

static const char *const model_keys[] = { "median", "within", "trial",
	"day", "loss", NULL };
enum { MK_MEDIAN, MK_WITHIN, MK_TRIAL, MK_DAY, MK_LOSS, MK_N };

struct plan_opts {
	const char *db_path, *metric, *stat, *width, *model, *pool;
	long per_trial;
	double spacing;		/* seconds per attempt; NaN: by the tool */
	double level;
	struct where where;
	enum table_format fmt;
	/* parsed */
	const struct metric *m;
	struct plan_ask ask;
	double mv[MK_N];	/* --model values, NaN where not given */
};

/* What one cell's pilot (or the model) says. */
struct plan_fit {
	double median, within, between, loss, day;
	const char *within_from, *between_from, *loss_from, *day_from;
	bool between_range;	/* one trial: between in [0, CEIL] */
	const char *why;	/* the pilot cannot be used, or NULL */
};

static int
parse_number_pct(const char *s, double *out, bool pct_means_fraction)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !isfinite(v))
		return -1;
	if (*end == '%') {
		end++;
		if (pct_means_fraction)
			v /= 100.0;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

/* --model KEY=VALUE,...: into o->mv; 0, or -1 with why. */
static int
parse_model(struct plan_opts *o, struct strbuf *why)
{
	char *spec = xstrdup(o->model), *tok, *save = spec;
	int ret = -1;
	size_t k;

	for (tok = spec; tok && *tok; tok = save) {
		char *eq, *comma = strchr(tok, ',');

		save = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		eq = strchr(tok, '=');
		if (!eq) {
			strbuf_addf(why, "'%s' is not KEY=VALUE", tok);
			goto cleanup;
		}
		*eq = '\0';
		for (k = 0; model_keys[k] && strcmp(model_keys[k], tok); k++)
			;
		if (!model_keys[k]) {
			strbuf_addf(why, "unknown key '%s' (known: median, "
			    "within, trial, day, loss)", tok);
			goto cleanup;
		}
		if (parse_number_pct(eq + 1, &o->mv[k], k != MK_MEDIAN) ||
		    o->mv[k] < 0 || (k == MK_LOSS && o->mv[k] >= 1) ||
		    (k == MK_MEDIAN && o->mv[k] <= 0)) {
			strbuf_addf(why, "%s: bad value '%s'", tok, eq + 1);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	free(spec);
	return ret;
}

/* The checks after parsing; 0, or -1 with why (a usage error). */
static int
check_opts(struct plan_opts *o, struct strbuf *why)
{
	struct stats_name s;
	const char *r = NULL;
	double w;

	if (!o->metric || !o->stat || !o->width) {
		strbuf_addstr(why, "--metric, --stat and --width are required");
		return -1;
	}
	o->m = metric_by_name(o->metric);
	if (!o->m) {
		metric_unknown(why, o->metric);
		return -1;
	}
	if (stats_name_parse(o->stat, &s, &r) || s.kind != STATS_NAME_PCT ||
	    !(s.pct > 0 && s.pct < 100)) {
		strbuf_addf(why, "--stat '%s': plan takes a percentile from "
		    "p0.1 to p99.9 or median%s%s", o->stat, r ? ": " : "",
		    r ? r : "");
		return -1;
	}
	if (parse_number_pct(o->width, &w, false) || !(w > 0 && w < 100)) {
		strbuf_addf(why, "--width '%s': a percent in (0, 100), e.g. 5%%",
		    o->width);
		return -1;
	}
	o->ask.pct = s.pct;
	o->ask.width = w / 100.0;
	o->ask.level = o->level;
	o->ask.per_trial = (size_t)o->per_trial;
	if (!o->pool)
		o->ask.pool = stats_tl_unsupported(STATS_POOL_POOLED,
		    STATS_EST_TYPE7, s.pct) ? STATS_POOL_PER_TRIAL :
		    STATS_POOL_POOLED;
	else if (!strcmp(o->pool, "trials"))
		o->ask.pool = STATS_POOL_PER_TRIAL;
	else if (!strcmp(o->pool, "pooled"))
		o->ask.pool = STATS_POOL_POOLED;
	else {
		strbuf_addf(why, "--pool '%s' (known: pooled, trials)",
		    o->pool);
		return -1;
	}
	if (o->model && parse_model(o, why))
		return -1;
	return 0;
}

/* The pilot's spreads of cell c for o's percentile (plan_fit()); fills
 * f. */
static void
fit_cell(const struct plan_opts *o, const struct cell *c,
    struct plan_fit *f)
{
	const double **tv = xcalloc(c->ntrials + 1, sizeof(*tv));
	size_t *tn = xcalloc(c->ntrials + 1, sizeof(size_t));
	size_t *tmo = xcalloc(c->ntrials + 1, sizeof(size_t));
	struct stats_trials g;
	struct plan_model m;
	bool one = false;
	size_t t;
	int rc;

	memset(f, 0, sizeof(*f));
	for (t = 0; t < c->ntrials; t++) {
		tv[t] = c->trials[t].values;
		tn[t] = c->trials[t].n;
		tmo[t] = o->m->timeout_bound && c->trials[t].timeouts > 0 ?
		    (size_t)c->trials[t].timeouts : 0;
	}
	g.trial = tv;
	g.n = tn;
	g.ntrials = c->ntrials;
	rc = plan_fit(&g, tmo, o->ask.pct, &m, &one);
	f->loss = m.loss;
	f->loss_from = "pilot";
	if (rc) {
		f->why = rc == 1 ? PLAN_WHY_CENSORED : PLAN_WHY_NO_SPREAD;
		goto cleanup;
	}
	f->within = m.within;
	f->within_from = "pilot";
	f->median = c->ntrials && c->trials[0].n ?
	    stats_quantile_type7(c->trials[0].values, c->trials[0].n, 50.0) :
	    NAN;
	f->between = one ? PLAN_BETWEEN_CEIL : m.between;
	f->between_range = one;
	f->between_from = one ? "one pilot trial: assumed 0-0.1" : "pilot";
cleanup:
	free(tv);
	free(tn);
	free(tmo);
}

/* --model's values override the pilot's (or stand alone). */
static void
apply_model(const struct plan_opts *o, struct plan_fit *f)
{
	if (!isnan(o->mv[MK_MEDIAN]))
		f->median = o->mv[MK_MEDIAN];
	if (!isnan(o->mv[MK_WITHIN])) {
		f->within = o->mv[MK_WITHIN];
		f->within_from = "command line";
	}
	if (!isnan(o->mv[MK_TRIAL])) {
		f->between = o->mv[MK_TRIAL];
		f->between_from = "command line";
		f->between_range = false;
	}
	if (!isnan(o->mv[MK_LOSS])) {
		f->loss = o->mv[MK_LOSS];
		f->loss_from = "command line";
	}
	f->day = isnan(o->mv[MK_DAY]) ? NAN : o->mv[MK_DAY];
	f->day_from = isnan(o->mv[MK_DAY]) ? "not estimated (one day)" :
	    "command line (recorded, not yet used)";
}

/* Seconds per attempt and where that comes from. */
static double
spacing_of(const struct plan_opts *o, const struct plan_fit *f,
    const char **from)
{
	if (!isnan(o->spacing)) {
		*from = "command line";
		return o->spacing;
	}
	if (o->m->series) {
		*from = "a 1 s reporting interval (iperf3 -i 1)";
		return 1.0;
	}
	if (o->m->timeout_bound) {
		*from = "pathprobe's 0.2 s between probes";
		return 0.2;
	}
	if (!strcmp(o->m->unit, "ms") && f->median > 0) {
		*from = "the median, back to back (one connection)";
		return f->median / 1000.0;
	}
	*from = "1 s per sample (give --spacing)";
	return 1.0;
}

static const char *
ordinal_suffix(size_t k)
{
	if (k % 100 >= 11 && k % 100 <= 13)
		return "th";
	return k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd" :
	    "th";
}

/* "the 3rd slowest of 300": the rank the percentile is read at among
 * the N samples it is computed from (its last rank read). */
static void
rank_text(const struct plan_opts *o, size_t N, struct strbuf *sb)
{
	size_t r = stats_last_rank_read(STATS_EST_TYPE7, o->ask.pct, N), k;
	bool low = o->ask.pct < 50;
	const char *word = o->m->higher_better ? (low ? "lowest" : "highest") :
	    (low ? "fastest" : "slowest");

	k = low ? r + 1 : N - r;
	if (k == 1)
		strbuf_addf(sb, "the %s of %zu", word, N);
	else
		strbuf_addf(sb, "the %zu%s %s of %zu", k, ordinal_suffix(k),
		    word, N);
}

enum {
	C_PATH, C_COND, C_STAT, C_POOL, C_TRIALS, C_TLO, C_THI, C_PER,
	C_WIDTH, C_TARGET, C_MIN, C_RANK, C_WITHIN, C_WFROM, C_BETWEEN,
	C_BFROM, C_DAY, C_DFROM, C_LOSS, C_LFROM, C_SPACING, C_SFROM,
	C_NOTE, C_NCOLS
};

static void
add_cols(struct table *t)
{
	static const char *const cols[C_NCOLS][2] = {
		{ "path", "Path" }, { "condition", "Condition" },
		{ "stat", "Stat" }, { "pool", "Pool" },
		{ "trials", "Trials" }, { "trials_lo", "Trials (low)" },
		{ "trials_hi", "Trials (high)" },
		{ "per_trial", "Per trial" }, { "width_pct", "± %" },
		{ "target_pct", "Asked ± %" }, { "minutes", "Minutes" },
		{ "rank", "Read at" }, { "within", "Within" },
		{ "within_from", "from" }, { "between", "Between trials" },
		{ "between_from", "from" }, { "day", "Day" },
		{ "day_from", "from" }, { "loss", "Loss" },
		{ "loss_from", "from" }, { "spacing_s", "Spacing (s)" },
		{ "spacing_from", "from" }, { "note", "Note" },
	};
	size_t i;

	for (i = 0; i < C_NCOLS; i++) {
		if (i == C_DAY || i == C_DFROM || i == C_SPACING ||
		    i == C_SFROM || i == C_TARGET || i == C_POOL)
			table_add_hidden_col(t, cols[i][0], cols[i][1], -1);
		else
			table_add_col(t, cols[i][0], cols[i][1],
			    i == C_WIDTH || i == C_MIN ? 1 : -1);
	}
}

/* The design for f and its trials at a trial spread of between. */
static void
design_at(const struct plan_opts *o, const struct plan_fit *f,
    double between, struct plan_design *d)
{
	struct plan_model m = { f->within, between, f->loss };

	plan_design(&m, &o->ask, d);
}

/* One row: cell c's plan (c NULL: the model alone). */
static void
fill_row(const struct plan_opts *o, const struct cell *c,
    const struct plan_fit *f, struct table *t)
{
	struct strbuf sb = STRBUF_INIT, note = STRBUF_INIT;
	struct plan_design d, lo;
	const char *sfrom;
	double spacing = spacing_of(o, f, &sfrom);
	size_t r = table_add_row(t), N;

	table_set_str(t, r, C_PATH, c ? c->path : "(model)");
	table_set_str(t, r, C_COND, c ? c->cond : "");
	table_set_str(t, r, C_STAT, o->stat);
	table_set_str(t, r, C_POOL, o->ask.pool == STATS_POOL_POOLED ?
	    "pooled" : "trials");
	table_set_num(t, r, C_TARGET, 100.0 * o->ask.width);
	table_set_num(t, r, C_WITHIN, f->within);
	table_set_str(t, r, C_WFROM, f->within_from);
	table_set_str(t, r, C_LFROM, f->loss_from);
	table_set_num(t, r, C_LOSS, f->loss);
	table_set_num(t, r, C_DAY, f->day);
	table_set_str(t, r, C_DFROM, f->day_from);
	table_set_num(t, r, C_SPACING, spacing);
	table_set_str(t, r, C_SFROM, sfrom);
	if (f->why) {
		table_set_str(t, r, C_NOTE, f->why);
		goto cleanup;
	}
	table_set_num(t, r, C_BETWEEN, f->between);
	table_set_str(t, r, C_BFROM, f->between_from);
	design_at(o, f, f->between, &d);
	if (!d.possible) {
		table_set_str(t, r, C_NOTE, d.why);
		goto cleanup;
	}
	if (f->between_range) {
		design_at(o, f, 0.0, &lo);
		table_set_int(t, r, C_TLO, (int64_t)lo.trials);
		table_set_int(t, r, C_THI, (int64_t)d.trials);
		strbuf_addf(&sb, "%zu-%zu", lo.trials, d.trials);
		table_set_display_raw(t, r, C_TRIALS, sb.buf);
		strbuf_addstr(&note, "one pilot trial: no trial-to-trial "
		    "spread, so a range (minutes for the high end); add 2 "
		    "runs of each path to estimate it. ");
	} else {
		table_set_int(t, r, C_TRIALS, (int64_t)d.trials);
		table_set_int(t, r, C_TLO, (int64_t)d.trials);
		table_set_int(t, r, C_THI, (int64_t)d.trials);
	}
	table_set_int(t, r, C_PER, (int64_t)d.per_trial);
	table_set_num(t, r, C_WIDTH, 100.0 * d.width);
	table_set_num(t, r, C_MIN, (double)d.trials * (double)d.per_trial *
	    spacing / 60.0);
	N = o->ask.pool == STATS_POOL_POOLED ? d.trials * d.per_trial :
	    d.per_trial;
	strbuf_setlen(&sb, 0);
	rank_text(o, N, &sb);
	table_set_str(t, r, C_RANK, sb.buf);
	if (fmin(o->ask.pct, 100 - o->ask.pct) / 100.0 * (double)N < 10)
		strbuf_addf(&note, "a %s from fewer than %.0f samples (under "
		    "10 beyond it). ", o->stat, ceil(10.0 / (fmin(o->ask.pct,
		    100 - o->ask.pct) / 100.0) - 1e-9));
	if (o->m->series)
		strbuf_addstr(&note, "a run's samples are a time series "
		    "(serially correlated): the part within a trial is "
		    "optimistic. ");
	if (d.uncensored > 1)
		strbuf_addf(&note, "≥ %zu probes a trial keep it clear of "
		    "the timeouts. ", d.uncensored);
	if (note.len) {
		strbuf_setlen(&note, note.len - 1);
		table_set_str(t, r, C_NOTE, note.buf);
	}
cleanup:
	strbuf_release(&sb);
	strbuf_release(&note);
}

static enum parseopt_result
plan_parse(struct plan_opts *o, int argc, char **argv)
{
	static const char *const pools[] = { "pooled", "trials", NULL };
	int pool = -1, nargs;
	enum parseopt_result r;
	const struct parseopt opts[] = {
		OPT_DB(&o->db_path),
		OPT_STRING_REQ(0, "metric", &o->metric, "M",
		    "the metric to plan for (connect_ms, latency_ms, ...)"),
		OPT_STRING_REQ(0, "stat", &o->stat, "S",
		    "the percentile (p50, median, p95, p99, ...)"),
		OPT_STRING_REQ(0, "width", &o->width, "W%",
		    "the interval's half-width asked, in percent of the "
		    "statistic (5%: ±5 %)"),
		OPT_ENUM(0, "pool", &pool, pools, "pooled (p25-p75 only) or "
		    "the mean of the trials' percentile (trials; the default "
		    "outside p25-p75)"),
		OPT_INT(0, "per-trial", &o->per_trial, "N", 0, 1e9,
		    "attempts per trial (probes, requests, seconds of "
		    "iperf3); default the pilot's, raised to what the "
		    "interval and the timeouts need"),
		OPT_DOUBLE(0, "spacing", &o->spacing, "SECONDS", 1e-6, 1e6,
		    "seconds per attempt, for minutes (default: 0.2 for "
		    "probes, 1 for iperf3 intervals, the median for "
		    "requests)"),
		OPT_DOUBLE(0, "level", &o->level, "L", 0.5, 0.999,
		    "interval level (default 0.95)"),
		OPT_STRING(0, "model", &o->model, "K=V,...",
		    "spreads stated instead of (or over) the pilot's: "
		    "median=, within= and trial= (log-scale sd within a "
		    "trial and between trials), day=, loss= (a share or "
		    "percent); with within and trial the database is not "
		    "read"),
		OPT_WHERE(&o->where, "plan from the pilot runs that match"),
		OPT_FORMAT(&o->fmt),
		OPT_END(),
	};
	const struct parseopt_cmd cmd = {
		.name = "plan",
		.intro =
		    "How many trials, and attempts per trial, give an "
		    "interval of ±W % on a percentile, and the minutes "
		    "that takes, before the campaign runs: from a pilot "
		    "already ingested (each path's runs) or a model given "
		    "with --model.  The interval is the one analyze prints "
		    "(trial-level t on the log scale, withheld below 3 "
		    "trials and below the samples an order-statistic "
		    "interval needs).  See docs/plan.md.",
		.opts = opts,
	};

	r = parseopt(&cmd, argc, argv, &nargs);
	if (r == PARSEOPT_OK && pool >= 0)
		o->pool = pools[pool];
	if (r == PARSEOPT_OK && nargs > 0) {
		parseopt_usage_error(&cmd, "takes no arguments (got '%s')",
		    argv[0]);
		r = PARSEOPT_ERROR;
	}
	return r;
}

/* Rows from the pilot's cells; 0, 1 (usage), -1 (failure). */
static int
plan_pilot(const struct plan_opts *o, struct table *t)
{
	struct keycat_query kq = { &o->where, NULL, 0, NULL, 0 };
	struct cells_query q;
	struct cellset cs;
	struct strbuf why = STRBUF_INIT;
	struct plan_fit f;
	sqlite3 *db;
	size_t i;
	int rc;

	db = db_open_readonly(db_default_path(o->db_path));
	if (!db)
		return -1;
	memset(&cs, 0, sizeof(cs));
	memset(&q, 0, sizeof(q));
	rc = keycat_check(db, &kq, &why);
	if (rc) {
		if (rc > 0)
			error("%s", why.buf);
		goto cleanup;
	}
	q.metric = o->metric;
	q.where = &o->where;
	q.load_values = true;
	if (cells_load(db, &q, &cs)) {
		rc = -1;
		goto cleanup;
	}
	if (cs.n == 0) {
		error("no pilot runs of %s match (ingest a few runs of each "
		    "path, or give --model within=,trial=)", o->metric);
		rc = -1;
		goto cleanup;
	}
	for (i = 0; i < cs.n; i++) {
		fit_cell(o, &cs.cells[i], &f);
		apply_model(o, &f);
		fill_row(o, &cs.cells[i], &f, t);
	}
cleanup:
	cellset_release(&cs);
	strbuf_release(&why);
	db_close(db);
	return rc;
}

int
cmd_plan(int argc, char **argv)
{
	struct plan_opts o;
	struct strbuf why = STRBUF_INIT;
	struct plan_fit f;
	struct table t;
	enum parseopt_result r;
	int ret = PATHSTAT_EXIT_OK, rc, k;

	err_set_prefix("pathstat plan");
	memset(&o, 0, sizeof(o));
	o.where = (struct where)WHERE_INIT;
	o.fmt = table_format_default();
	o.spacing = NAN;
	o.level = 0.95;
	for (k = 0; k < MK_N; k++)
		o.mv[k] = NAN;
	table_init(&t);
	r = plan_parse(&o, argc, argv);
	if (r != PARSEOPT_OK) {
		ret = parseopt_exit(r);
		goto cleanup;
	}
	if (check_opts(&o, &why)) {
		error("%s; see 'pathstat plan --help'", why.buf);
		ret = PATHSTAT_EXIT_USAGE;
		goto cleanup;
	}
	add_cols(&t);
	if (!isnan(o.mv[MK_WITHIN]) && !isnan(o.mv[MK_TRIAL])) {
		memset(&f, 0, sizeof(f));
		f.median = NAN;
		f.loss_from = "assumed 0";
		apply_model(&o, &f);
		fill_row(&o, NULL, &f, &t);
	} else {
		rc = plan_pilot(&o, &t);
		if (rc) {
			ret = rc > 0 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
			goto cleanup;
		}
	}
	table_add_note(&t, "Trials and attempts per trial for a %.0f %% "
	    "interval of ±%g %% on %s (%s), the interval analyze prints; "
	    "minutes at the spacing per attempt.  Within and between: "
	    "log-scale spreads (docs/plan.md).", 100 * o.level,
	    100 * o.ask.width,
	    o.stat, o.ask.pool == STATS_POOL_POOLED ? "pooled" :
	    "the mean of the trials' percentile");
	if (table_render(&t, o.fmt, stdout))
		ret = PATHSTAT_EXIT_FAIL;
cleanup:
	table_release(&t);
	where_release(&o.where);
	strbuf_release(&why);
	return ret;
}
