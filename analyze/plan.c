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
#include "analyze/internal.h"
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
	"day", "loss", "rho", NULL };
enum { MK_MEDIAN, MK_WITHIN, MK_TRIAL, MK_DAY, MK_LOSS, MK_RHO, MK_N };

struct plan_opts {
	const char *db_path, *metric, *stat, *width, *model, *pool;
	const char *detect, *between, *unit;
	long per_trial, groups, per_day;
	double power;		/* --power: the power asked (0.8) */
	double spacing;		/* seconds per attempt; NaN: by the tool */
	double level;
	struct where where;
	enum table_format fmt;
	/* parsed */
	const struct metric *m;
	struct plan_ask ask;
	double detect_x;	/* --detect as a share (0.10) */
	bool by_days;		/* the day is the unit */
	double mv[MK_N];	/* --model values, NaN where not given */
};

/* What one cell's pilot (or the model) says. */
struct plan_fit {
	double median, within, between, loss, day;
	double rho;		/* lag-1 autocorrelation within a trial */
	double attempts;	/* the pilot's attempts per trial (median) */
	bool day_range;		/* no day spread: days for 0 to CEIL */
	const char *within_from, *between_from, *loss_from, *day_from;
	char between_buf[80];	/* between_from of a pilot's estimate */
	const char *rho_from;
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
			    "within, trial, day, loss, rho)", tok);
			goto cleanup;
		}
		if (parse_number_pct(eq + 1, &o->mv[k], k != MK_MEDIAN) ||
		    o->mv[k] < 0 || (k == MK_LOSS && o->mv[k] >= 1) ||
		    (k == MK_MEDIAN && o->mv[k] <= 0) ||
		    (k == MK_RHO && o->mv[k] > PLAN_RHO_MAX)) {
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

	if (!o->metric || !o->stat || !o->width == !o->detect) {
		strbuf_addstr(why, "--metric, --stat and one of --width or "
		    "--detect are required");
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
	if (o->width && (parse_number_pct(o->width, &w, false) ||
	    !(w > 0 && w < 100))) {
		strbuf_addf(why, "--width '%s': a percent in (0, 100), e.g. 5%%",
		    o->width);
		return -1;
	}
	if (o->detect && (parse_number_pct(o->detect, &o->detect_x, true) ||
	    !strchr(o->detect, '%') || !(o->detect_x > 0 && o->detect_x < 10))) {
		strbuf_addf(why, "--detect '%s': a difference in percent, "
		    "e.g. 10%%", o->detect);
		return -1;
	}
	if (!o->detect)
		o->detect_x = NAN;
	else
		w = 10.0;	/* unused: --detect plans no width */
	o->by_days = o->unit ? !strcmp(o->unit, "days") :
	    o->between && !strcmp(o->between, "day");
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
	double **sorted = xcalloc(c->ntrials + 1, sizeof(*sorted));
	double *att = xcalloc(c->ntrials + 1, sizeof(double));
	size_t *tn = xcalloc(c->ntrials + 1, sizeof(size_t));
	size_t *tmo = xcalloc(c->ntrials + 1, sizeof(size_t));
	struct stats_trials g;
	struct plan_model m;
	bool one = false;
	size_t t;
	int rc;

	memset(f, 0, sizeof(*f));
	memset(&m, 0, sizeof(m));
	for (t = 0; t < c->ntrials; t++) {
		tv[t] = c->trials[t].values;
		tn[t] = c->trials[t].n;
		tmo[t] = o->m->timeout_bound && c->trials[t].timeouts > 0 ?
		    (size_t)c->trials[t].timeouts : 0;
		att[t] = (double)(tn[t] + tmo[t]);
	}
	f->attempts = c->ntrials ? stats_median(att, c->ntrials) : NAN;
	g.trial = tv;
	g.n = tn;
	g.ntrials = c->ntrials;
	f->rho_from = "not a series (independent samples)";
	if (o->m->series) {
		/* loaded in time order (plan_pilot): the serial
		 * correlation from that, the rest from sorted copies */
		m.rho = plan_series_rho(&g);
		f->rho_from = "pilot (lag-1, median over runs)";
		if (isnan(m.rho)) {
			m.rho = 0;
			f->rho_from = "no pilot run of 10 intervals: "
			    "assumed 0";
		}
		for (t = 0; t < c->ntrials; t++) {
			sorted[t] = xcalloc(tn[t] + 1, sizeof(double));
			memcpy(sorted[t], tv[t], tn[t] * sizeof(double));
			stats_sort(sorted[t], tn[t]);
			tv[t] = sorted[t];
		}
	}
	f->rho = m.rho;
	rc = plan_fit(&g, tmo, o->ask.pct, &m, &one);
	f->loss = m.loss;
	f->loss_from = "pilot";
	if (rc) {
		f->why = rc == 1 ? PLAN_WHY_CENSORED : PLAN_WHY_NO_SPREAD;
		goto cleanup;
	}
	f->within = m.within;
	f->within_from = "pilot";
	f->median = c->ntrials && tn[0] ?
	    stats_quantile_type7(tv[0], tn[0], 50.0) : NAN;
	f->between = one ? PLAN_BETWEEN_CEIL : m.between;
	f->between_range = one;
	f->between_from = "one pilot trial: assumed 0-0.1";
	if (!one) {
		snprintf(f->between_buf, sizeof(f->between_buf),
		    "pilot, %zu trials, %.0f %% upper bound", m.between_trials,
		    100.0 * PLAN_PILOT_UPPER);
		f->between_from = f->between_buf;
	}
cleanup:
	for (t = 0; t < c->ntrials; t++)
		free(sorted[t]);
	free(sorted);
	free(tv);
	free(att);
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
	if (!isnan(o->mv[MK_RHO])) {
		f->rho = o->mv[MK_RHO];
		f->rho_from = "command line";
	}
	f->day = o->mv[MK_DAY];
	f->day_range = false;
	if (!isnan(f->day))
		f->day_from = o->by_days ? "command line" :
		    "command line (not used: trials are the unit)";
	else if (o->by_days) {
		f->day = PLAN_BETWEEN_CEIL;
		f->day_range = true;
		f->day_from = "not estimated: assumed 0-0.1 (give --model day=)";
	} else
		f->day_from = "not estimated (one day)";
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
	C_RHO, C_RFROM, C_NOTE, C_NCOLS
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
		{ "spacing_from", "from" }, { "rho", "Serial ρ" },
		{ "rho_from", "from" }, { "note", "Note" },
	};
	size_t i;

	for (i = 0; i < C_NCOLS; i++) {
		if (i == C_DAY || i == C_DFROM || i == C_SPACING ||
		    i == C_SFROM || i == C_TARGET || i == C_POOL ||
		    i == C_RHO || i == C_RFROM)
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
	struct plan_model m = { f->within, between, f->loss, f->rho, 0 };

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
	table_set_num(t, r, C_RHO, f->rho);
	table_set_str(t, r, C_RFROM, f->rho_from);
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
	if (o->m->series || f->rho > 0)
		strbuf_addf(&note, "a run's samples are a series with "
		    "lag-1 autocorrelation ρ %.2f (%s): %zu count as %.0f "
		    "independent ones. ", f->rho, f->rho_from, d.per_trial,
		    (double)d.per_trial * (1 - fmin(f->rho, PLAN_RHO_MAX)) /
		    (1 + fmin(f->rho, PLAN_RHO_MAX)));
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

enum {
	D_PATH, D_COND, D_STAT, D_UNIT, D_TRIALS, D_TLO, D_THI, D_DAYS,
	D_DLO, D_DHI, D_PERDAY, D_PER, D_GROUPS, D_DETECT, D_POWER, D_TARGET,
	D_TEST, D_ADJUST, D_MIN, D_WITHIN, D_WFROM, D_BETWEEN, D_BFROM,
	D_DAY, D_DFROM, D_LOSS, D_LFROM, D_SPACING, D_SFROM, D_RHO, D_RFROM,
	D_NOTE, D_NCOLS
};

static void
add_detect_cols(struct table *t)
{
	static const char *const cols[D_NCOLS][2] = {
		{ "path", "Path" }, { "condition", "Condition" },
		{ "stat", "Stat" }, { "unit", "Unit" },
		{ "trials", "Trials a side" }, { "trials_lo", "Trials (low)" },
		{ "trials_hi", "Trials (high)" }, { "days", "Days a side" },
		{ "days_lo", "Days (low)" }, { "days_hi", "Days (high)" },
		{ "trials_per_day", "Trials a day" },
		{ "per_trial", "Per trial" }, { "groups", "Groups" },
		{ "detect_pct", "Detect %" }, { "power", "Power" },
		{ "target_power", "Power asked" }, { "test", "Test" },
		{ "adjustment", "Adjusted by" }, { "minutes", "Minutes" },
		{ "within", "Within" }, { "within_from", "from" },
		{ "between", "Between trials" }, { "between_from", "from" },
		{ "day", "Day" }, { "day_from", "from" }, { "loss", "Loss" },
		{ "loss_from", "from" }, { "spacing_s", "Spacing (s)" },
		{ "spacing_from", "from" }, { "rho", "Serial ρ" },
		{ "rho_from", "from" }, { "note", "Note" },
	};
	size_t i;

	for (i = 0; i < D_NCOLS; i++) {
		if (i == D_TLO || i == D_THI || i == D_DLO || i == D_DHI ||
		    i == D_TARGET || i == D_ADJUST || i == D_SPACING ||
		    i == D_SFROM || i == D_DFROM || i == D_LFROM ||
		    i == D_RHO || i == D_RFROM)
			table_add_hidden_col(t, cols[i][0], cols[i][1], -1);
		else
			table_add_col(t, cols[i][0], cols[i][1],
			    i == D_MIN ? 1 : i == D_POWER ? 2 : -1);
	}
}

/* The trials (days) a side for the detect ask at spreads between and
 * day; 0, or -1 (res->why says why when !res->possible). */
static int
detect_at(const struct plan_opts *o, const struct plan_fit *f, size_t n,
    double between, double day, struct plan_power_result *res)
{
	struct plan_model m = { f->within, between, f->loss, f->rho, 0 };
	struct plan_power_ask a;
	double v = plan_trial_var(&m, o->ask.pct, n);

	memset(&a, 0, sizeof(a));
	a.detect = o->detect_x;
	a.groups = (size_t)o->groups;
	a.by_days = o->by_days;
	a.sd = o->by_days ? sqrt(day * day + v / (double)o->per_day) :
	    sqrt(v);
	a.level = o->level;
	a.target = o->power;
	a.reps = 2000;
	return plan_power_design(&a, res);
}

/* Attempts per trial under --detect: --per-trial, else the pilot's,
 * else the order-statistic interval's floor; raised to what keeps the
 * percentile clear of the timeouts.  0: none can. */
static size_t
detect_per_trial(const struct plan_opts *o, const struct plan_fit *f)
{
	size_t n = (size_t)o->per_trial, unc = plan_uncensored(f->loss,
	    o->ask.pct);

	if (!n && f->attempts > 0)
		n = (size_t)f->attempts;
	if (!n)
		n = stats_quantile_ci_min_n(o->ask.pct, o->level,
		    STATS_CI_NARROWEST);
	return unc == 0 ? 0 : n > unc ? n : unc;
}

/* A "lo-hi" or a number in column c (and its lo, hi columns). */
static void
set_range(struct table *t, size_t r, size_t c, size_t lo, size_t hi)
{
	struct strbuf sb = STRBUF_INIT;

	table_set_int(t, r, c + 1, (int64_t)lo);
	table_set_int(t, r, c + 2, (int64_t)hi);
	if (lo == hi) {
		table_set_int(t, r, c, (int64_t)hi);
	} else {
		strbuf_addf(&sb, "%zu-%zu", lo, hi);
		table_set_display_raw(t, r, c, sb.buf);
	}
	strbuf_release(&sb);
}

/* One --detect row: cell c's (c NULL: the model alone). */
static void
fill_detect_row(const struct plan_opts *o, const struct cell *c,
    const struct plan_fit *f, struct table *t)
{
	struct strbuf note = STRBUF_INIT;
	struct plan_power_result hi, lo;
	const char *sfrom;
	double spacing = spacing_of(o, f, &sfrom);
	size_t r = table_add_row(t), n, per_unit;

	table_set_str(t, r, D_PATH, c ? c->path : "(model)");
	table_set_str(t, r, D_COND, c ? c->cond : "");
	table_set_str(t, r, D_STAT, o->stat);
	table_set_str(t, r, D_UNIT, o->by_days ? "days" : "trials");
	table_set_int(t, r, D_GROUPS, o->groups);
	table_set_num(t, r, D_DETECT, 100.0 * o->detect_x);
	table_set_num(t, r, D_TARGET, o->power);
	table_set_str(t, r, D_TEST, o->by_days ? "t-days" :
	    "mann-whitney (< 10 a side), else brunner-munzel");
	table_set_str(t, r, D_ADJUST, ANALYZE_COMPARE_ADJUST_NAME);
	table_set_num(t, r, D_WITHIN, f->within);
	table_set_str(t, r, D_WFROM, f->within_from);
	table_set_num(t, r, D_LOSS, f->loss);
	table_set_str(t, r, D_LFROM, f->loss_from);
	table_set_num(t, r, D_DAY, f->day);
	table_set_str(t, r, D_DFROM, f->day_from);
	table_set_num(t, r, D_SPACING, spacing);
	table_set_str(t, r, D_SFROM, sfrom);
	table_set_num(t, r, D_RHO, f->rho);
	table_set_str(t, r, D_RFROM, f->rho_from);
	if (f->why) {
		table_set_str(t, r, D_NOTE, f->why);
		goto cleanup;
	}
	table_set_num(t, r, D_BETWEEN, f->between);
	table_set_str(t, r, D_BFROM, f->between_from);
	n = detect_per_trial(o, f);
	if (n == 0) {
		table_set_str(t, r, D_NOTE, PLAN_WHY_CENSORED);
		goto cleanup;
	}
	if (detect_at(o, f, n, f->between, f->day, &hi) || !hi.possible) {
		table_set_str(t, r, D_NOTE, hi.why ? hi.why : "no design");
		goto cleanup;
	}
	lo = hi;
	if (f->between_range || f->day_range)
		detect_at(o, f, n, f->between_range ? 0.0 : f->between,
		    f->day_range ? 0.0 : f->day, &lo);
	per_unit = o->by_days ? (size_t)o->per_day : 1;
	set_range(t, r, D_TRIALS, lo.units * per_unit, hi.units * per_unit);
	if (o->by_days) {
		set_range(t, r, D_DAYS, lo.units, hi.units);
		table_set_int(t, r, D_PERDAY, o->per_day);
	}
	table_set_int(t, r, D_PER, (int64_t)n);
	table_set_num(t, r, D_POWER, hi.power);
	table_set_num(t, r, D_MIN, (double)o->groups * (double)(hi.units *
	    per_unit) * (double)n * spacing / 60.0);
	if (f->between_range)
		strbuf_addstr(&note, "one pilot trial: no trial-to-trial "
		    "spread, so a range (power and minutes for the high "
		    "end); add 2 runs of each path to estimate it. ");
	if (f->day_range)
		strbuf_addstr(&note, "no day-to-day spread known: a range "
		    "for 0-0.1 (give --model day=). ");
	if (o->groups > 2)
		strbuf_addf(&note, "%ld groups: %ld rows against one "
		    "baseline, adjusted by %s as compare does. ", o->groups,
		    o->groups - 1, ANALYZE_COMPARE_ADJUST_NAME);
	if (note.len) {
		strbuf_setlen(&note, note.len - 1);
		table_set_str(t, r, D_NOTE, note.buf);
	}
cleanup:
	strbuf_release(&note);
}

static enum parseopt_result
plan_parse(struct plan_opts *o, int argc, char **argv)
{
	static const char *const pools[] = { "pooled", "trials", NULL };
	static const char *const units[] = { "trials", "days", NULL };
	static const char *const forms[] = {
		"+width -detect -between -groups -unit -per-day -power",
		"+detect -width -pool",
		NULL,
	};
	int pool = -1, unit = -1, nargs;
	enum parseopt_result r;
	const struct parseopt opts[] = {
		OPT_DB(&o->db_path),
		OPT_STRING_REQ(0, "metric", &o->metric, "M",
		    "the metric to plan for (connect_ms, latency_ms, ...)"),
		OPT_STRING_REQ(0, "stat", &o->stat, "S",
		    "the percentile (p50, median, p95, p99, ...)"),
		OPT_STRING(0, "width", &o->width, "W%",
		    "the interval's half-width asked, in percent of the "
		    "statistic (5%: ±5 %)"),
		OPT_STRING(0, "detect", &o->detect, "X%",
		    "instead of --width: the trials (or days) a side that "
		    "let compare detect a difference of X % with the power "
		    "asked"),
		OPT_STRING(0, "between", &o->between, "KEY",
		    "--detect: what is compared (path, a condition key, "
		    "day, ...); its values in the pilot give the groups, "
		    "and day makes the day the unit"),
		OPT_INT(0, "groups", &o->groups, "K", 2, 1000,
		    "--detect: groups compared (K - 1 rows against a "
		    "baseline, adjusted for multiplicity as compare does; "
		    "default the values of --between in the pilot, else 2)"),
		OPT_ENUM(0, "unit", &unit, units, "--detect: the unit of "
		    "replication, trials or days (days: the sides come from "
		    "different days; the default for --between day)"),
		OPT_INT(0, "per-day", &o->per_day, "N", 1, 100000,
		    "--detect with days as the unit: trials a day (default "
		    "3)"),
		OPT_DOUBLE(0, "power", &o->power, "P", 0.5, 0.99,
		    "--detect: the power asked (default 0.8)"),
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
		    "percent), rho= (lag-1 autocorrelation of a trial's "
		    "series: n samples count as n (1 - rho) / (1 + rho)); "
		    "with within and trial the database is not read"),
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
		.forms = forms,
	};

	r = parseopt(&cmd, argc, argv, &nargs);
	if (r == PARSEOPT_OK && pool >= 0)
		o->pool = pools[pool];
	if (r == PARSEOPT_OK && unit >= 0)
		o->unit = units[unit];
	if (r == PARSEOPT_OK && nargs > 0) {
		parseopt_usage_error(&cmd, "takes no arguments (got '%s')",
		    argv[0]);
		r = PARSEOPT_ERROR;
	}
	return r;
}

/* The groups --between KEY has among cs's cells (by path, else by the
 * --by dimension KEY, the first): at least 2. */
static long
count_groups(const struct plan_opts *o, const struct cellset *cs)
{
	long k = 0;
	size_t i, j;

	for (i = 0; i < cs->n; i++) {
		const char *v = strcmp(o->between, "path") ?
		    cs->cells[i].dims[0] : cs->cells[i].path;

		for (j = 0; j < i; j++)
			if (!strcmp(v, strcmp(o->between, "path") ?
			    cs->cells[j].dims[0] : cs->cells[j].path))
				break;
		if (j == i)
			k++;
	}
	return k < 2 ? 2 : k;
}

/* One row of cell c (NULL: the model), for --width or --detect. */
static void
plan_row(const struct plan_opts *o, const struct cell *c,
    const struct plan_fit *f, struct table *t)
{
	if (o->detect)
		fill_detect_row(o, c, f, t);
	else
		fill_row(o, c, f, t);
}

/* Rows from the pilot's cells; 0, 1 (usage), -1 (failure). */
static int
plan_pilot(struct plan_opts *o, struct table *t)
{
	char *by[1] = { (char *)(uintptr_t)o->between };
	bool use_by = o->between && strcmp(o->between, "path");
	struct keycat_query kq = { &o->where, use_by ? by : NULL,
		use_by ? 1 : 0, NULL, 0 };
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
	/* a series' values in time order, for its serial correlation
	 * (fit_cell sorts copies) */
	q.series = o->m->series;
	q.by = use_by ? by : NULL;
	q.nby = use_by ? 1 : 0;
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
	if (o->detect && !o->groups)
		o->groups = o->between ? count_groups(o, &cs) : 2;
	for (i = 0; i < cs.n; i++) {
		fit_cell(o, &cs.cells[i], &f);
		apply_model(o, &f);
		plan_row(o, &cs.cells[i], &f, t);
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
	o.power = 0.8;
	o.per_day = 3;
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
	if (o.detect)
		add_detect_cols(&t);
	else
		add_cols(&t);
	if (!isnan(o.mv[MK_WITHIN]) && !isnan(o.mv[MK_TRIAL])) {
		memset(&f, 0, sizeof(f));
		f.median = NAN;
		f.attempts = NAN;
		f.loss_from = "assumed 0";
		f.rho_from = "assumed 0 (independent samples)";
		if (o.detect && !o.groups)
			o.groups = 2;
		apply_model(&o, &f);
		plan_row(&o, NULL, &f, &t);
	} else {
		rc = plan_pilot(&o, &t);
		if (rc) {
			ret = rc > 0 ? PATHSTAT_EXIT_USAGE : PATHSTAT_EXIT_FAIL;
			goto cleanup;
		}
	}
	if (o.detect)
		table_add_note(&t, "Trials (days) a side for a power of "
		    "%.0f %% to detect a difference of %g %% on %s with "
		    "compare's test at p < %.2f, adjusted by %s over %ld - 1 "
		    "rows; minutes for all %ld groups (docs/plan.md).",
		    100 * o.power, 100 * o.detect_x, o.stat, 1 - o.level,
		    ANALYZE_COMPARE_ADJUST_NAME, o.groups, o.groups);
	else
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
