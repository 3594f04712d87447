/*
 * model.h - what the parts of `pathstat check` share: the runs in
 * scope, each summarised once from its samples (so no rule reads samples
 * again), grouped into cells; the thresholds every rule uses (docs/
 * checks.md says why each has its value); and the pure detectors the unit
 * tests call directly.
 */
#ifndef PATHSTAT_CHECK_MODEL_H
#define PATHSTAT_CHECK_MODEL_H

#include "common/compat.h"

#include <sqlite3.h>

#include "check/check.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "stats/verdict.h"

/* burst-cliff: the intervals from some point to the end all stay at or
 * below this fraction of the mean before it ... */
#define CHECK_CLIFF_RATIO	0.5
/* ... with at least this many intervals before and after the point. */
#define CHECK_CLIFF_MIN_SIDE	3
/* run-order: a run is "down" at or below this fraction of the best earlier
 * run of its condition on the same instance ... */
#define CHECK_ORDER_DOWN	0.5
/* ... and down runs share a floor when within this of its median ... */
#define CHECK_ORDER_FLOOR_TOL	0.20
/* ... and it is the instance's baseline only when no later run rises
 * above it and the paths on it sit within this of each other (their
 * median levels): a campaign of paths rate-limited at 90-100 Mbit/s is
 * paths, not credits. */
#define CHECK_ORDER_FLOOR_PATHS	0.05
/* instance-cap: paths within this fraction of the fastest one ... */
#define CHECK_CAP_TOL		0.015
/* ... or every path of the column (3 or more) within this: then all of
 * them are at the instance's rate (12.17-12.55 Gbit/s is one cap, not
 * 4 paths capped and 3 slower) ... */
#define CHECK_CAP_ALL_TOL	0.04
/* ... at least this many of them ... */
#define CHECK_CAP_MIN_PATHS	3
/* ... for oha only with bodies of at least this many bytes. */
#define CHECK_CAP_MIN_BODY	65536.0
/* instance-cap, two paths: the two fastest paths within this fraction
 * of each other ... */
#define CHECK_CAP2_TOL		0.003
/* ... in every TCP condition measured on both, at least this many ... */
#define CHECK_CAP2_MIN_CONDS	2
/* ... each run flat (its intervals after the first vary by at most this
 * coefficient of variation) and its trials' p50s within this fraction
 * of each other ... */
#define CHECK_CAP2_FLAT_CV	0.005
#define CHECK_CAP2_FLAT_TRIALS	0.005
/* ... with at least one other path in the table. */
#define CHECK_CAP2_MIN_TABLE	3
/* udp-sender-limited: UDP paths within this fraction of each other. */
#define CHECK_UDP_TOL		0.005
/* ... unless their files record a target rate (-b) that every path
 * reached to within this fraction: then the rate is the one asked for. */
#define CHECK_UDP_TARGET_TOL	0.05
/* udp-loss: a UDP run that lost this share of its datagrams (%) or
 * more, and at least CHECK_UDP_LOSS_MIN of them (docs/checks.md: a
 * path that truly loses half that share is flagged in at most 0.33 %
 * of runs under independent drops, at any datagram count). */
#define CHECK_UDP_LOSS_PCT	1.0
#define CHECK_UDP_LOSS_MIN	20
/* outlier-trial: stats_outlier_trials() (stats/verdict.h), the rule
 * analyze trials and the box charts share, on each trial's p50; and with
 * 3-5 trials stats_outlier_pooled() against the spread of the
 * campaign's cells of the same metric, tool and trial count, on p50,
 * p95 and p99 (a TIME_WAIT trial moves the tail, not the median), each
 * judged where at least this many samples lie above it. */
#define CHECK_OUTLIER_NSTATS	STATS_OUTLIER_NSTATS
#define CHECK_OUTLIER_TAIL_MIN	STATS_OUTLIER_TAIL_MIN
/* few-samples: the interval level whose existence needs the samples. */
#define CHECK_FEW_LEVEL		0.95
/* ... and a percentile that is one of the last this many samples (p99 of
 * 300 is the 3rd-slowest, p99.9 of 3,000 too: one GC pause moves it) is
 * flagged even where an interval exists. */
#define CHECK_FEW_RANK		3
/* syn-retransmit: values at the median plus k seconds (k = 1, 3, 7, 15:
 * Linux's 1 s initial SYN RTO doubling) within [-LO, +HI] ms, on runs
 * whose median is below BASE_MAX ms (so the mode is far above the bulk). */
#define CHECK_SYN_WIN_LO_MS	100.0
#define CHECK_SYN_WIN_HI_MS	200.0
#define CHECK_SYN_BASE_MAX_MS	500.0
/* ... and when the run's own tail, extrapolated (lognormal through its
 * p90 and p99 outside the modes, and from TAIL_N values through p99 and
 * p99.9 too, the heavier), puts there fewer values than found:
 * P(Poisson >= count) < ALPHA.  A heavy-tailed HTTP run has requests
 * near median + 1 s of its own; connect times expect none there. */
#define CHECK_SYN_TAIL_N	1000
#define CHECK_SYN_ALPHA		1e-6
/* busy-client: per probe, gap = connect_ms - handshake_ms (the client's
 * own time); judged on runs with at least MIN_PAIRS probes that have
 * both.  A finding when the median gap is MEDIAN_MS or more, or when
 * SLOW_SHARE or more of the probes have a gap of SLOW_MS or more. */
#define CHECK_BUSY_MIN_PAIRS	30
#define CHECK_BUSY_MEDIAN_MS	0.5
#define CHECK_BUSY_SLOW_MS	1.0
#define CHECK_BUSY_SLOW_SHARE	0.10
/* pooled-groups: the groups of trials a cell pools (by one run tag)
 * differ more than their trials do: one-way F test on the logarithm of
 * each trial's p50 below this p ... */
#define CHECK_POOL_ALPHA	0.01
/* ... or this p when 2 degrees of freedom or fewer are left within the
 * groups (2 groups of 2 trials): the F's within-group variance then
 * rests on a trial pair a group and flagged 2.0 % of cells whose groups
 * differ only in spread and 2.8 % with TIME_WAIT-like trials at 1 %
 * (bench/verdicts.c) */
#define CHECK_POOL_ALPHA_FEW_DF	0.0025
/* ... and the groups' geometric means this many times apart at least
 * (docs/checks.md: the false-positive rate measured on noise). */
#define CHECK_POOL_MIN_RATIO	1.05

/* unbalanced-trials: a trial with fewer than this fraction of the
 * successful samples of its cell's largest trial ... */
#define CHECK_UNBAL_WITHIN	0.5
/* ... or cells of one table whose per-trial sample counts differ by this
 * factor or more. */
#define CHECK_UNBAL_ACROSS	10.0

/* A step down that stays down, found in an interval series. */
struct check_cliff {
	bool	found;
	size_t	at;	/* first interval at the low level */
	double	before;	/* mean of the intervals before it */
	double	after;	/* mean of those after it (it may hold the drop) */
};

/* Values sitting in SYN-retransmit modes (median + 1, 3, 7, 15 s). */
struct check_syn {
	size_t	count;		/* values in any mode */
	size_t	per_mode[4];	/* in the 1 s, 3 s, 7 s, 15 s modes */
	double	lo, hi;		/* smallest and largest such value */
	size_t	unexplained;	/* values there the run's tail explains
				 * (not counted) */
	double	expected;	/* the most the tail puts in one mode */
};

/* The client's own time in a probe run's connect times: per probe with
 * both figures, connect_ms - handshake_ms (ms). */
struct check_gap {
	size_t	n;		/* probes with both figures */
	double	p50, p90;	/* type 7 of the gaps, NaN when n = 0 */
	double	max;		/* largest gap */
	size_t	slow;		/* gaps >= CHECK_BUSY_SLOW_MS */
	double	hs_p50;		/* median handshake_ms of those probes */
	double	conn_p50;	/* median connect_ms of those probes */
	bool	large;		/* p50 >= CHECK_BUSY_MEDIAN_MS */
	bool	erratic;	/* slow >= CHECK_BUSY_SLOW_SHARE of n */
};

/* One run, summarised.  Indices point into struct check_model. */
struct check_run {
	int64_t	id;		/* runs.id */
	size_t	path;		/* in paths */
	size_t	cond;		/* in conds */
	size_t	scope;		/* in scopes: its campaign */
	size_t	instance;	/* in instances: its machine */
	long	trial;
	char	*tool;		/* iperf3, oha, pathprobe; owned */
	int	metric;		/* the run's primary metric id */
	int64_t	started_at;	/* Unix seconds, INT64_MIN if unknown */
	bool	partial;	/* stored as partial */
	char	*reason;	/* why partial; owned, or NULL */
	int64_t	failures;	/* runs.failures (oha errors, failed probes) */
	int64_t	attempts;	/* runs.attempts, -1 if the tool did not say */
	char	*file;		/* samples' file, relative; owned, or NULL */
	char	*summary_file;	/* the summary's file; owned, or NULL */

	/* From the primary metric's samples. */
	size_t	n;		/* successful samples */
	int64_t	nfail_rows;	/* failed sample rows (status != ok) */
	char	*fail_detail;	/* "2 timeout, 1 refused"; owned, or NULL */
	double	p50;		/* type 7 of the successes, NaN if none */
	double	*series;	/* throughput: values in time order; owned */
	size_t	nseries;
	struct check_cliff cliff;	/* throughput runs */
	double	cliff_t_s;	/* seconds into the run the cliff starts */
	struct check_syn syn;	/* connect_ms and http_ms runs */
	struct check_gap gap;	/* pathprobe format 2 runs */

	/* p50, p95, p99 (CHECK_OUTLIER_STATS) for outlier-trial: type 7 of
	 * the successes where CHECK_OUTLIER_TAIL_MIN or more lie above
	 * it, else NaN; for a summary-only run the tool's own. */
	double	stat[3];

	/* From the tool's own summaries. */
	double	tool_p50;	/* the tool's p50 of the metric, NaN */
	double	tool_tail[2];	/* the tool's p95 and p99, NaN */
	bool	tool_pct;	/* the tool printed percentiles (oha) */
	char	*tool_est;	/* their estimator; owned, or NULL */
	double	success_rate;	/* oha successRate, NaN if none */
	double	bytes_per_s;	/* oha sizePerSec, NaN if none */
	double	timeout_s;	/* pathprobe's timeout, NaN if none */
	double	target_bps;	/* iperf3 -b in bit/s (0 = unlimited), NaN
				 * when the file does not record it */
	double	udp_lost, udp_sent;	/* iperf3 UDP: the receiver's
					 * lost_packets and packets, NaN */
	double	udp_side;	/* iperf3 UDP rate_side, NaN if none */
	bool	resolve_each;	/* pathprobe timed a DNS lookup too */
	char	*errors;	/* oha's errors as text; owned, or NULL */
	bool	summary_only;	/* no samples, only the tool's summary */
};

/* Runs of one metric, path and condition in one campaign. */
struct check_cell {
	size_t	scope, path, cond;	/* model indices */
	int	metric;
	size_t	*runs;		/* in check_model.runs, by trial, start */
	size_t	nruns, alloc;
};

struct check_model {
	sqlite3			*db;		/* borrowed */
	const struct where	*where;		/* the runs in scope; borrowed */
	const struct check_opts	*opts;		/* borrowed, may be NULL */
	struct check_findings	*out;		/* where findings go */
	struct check_run	*runs;
	size_t			nruns, alloc_runs;
	char			**paths;	/* natural order; owned */
	size_t			npaths, alloc_paths;
	char			**conds;	/* canonical texts; owned */
	char			**cond_keys;	/* their keys, ","-joined */
	size_t			nconds, alloc_conds;
	char			**scopes;	/* campaign texts; owned */
	size_t			nscopes, alloc_scopes;
	char			**instances;	/* campaign + instance; owned */
	size_t			ninstances, alloc_instances;
	struct check_cell	*cells;
	size_t			ncells, alloc_cells;
};

/* load.c */
/* Load the runs matching w with their summaries into m (zeroed but for db,
 * opts and out).  Returns 0, or -1 after printing an error. */
int check_model_load(struct check_model *m, const struct where *w);
void check_model_release(struct check_model *m);
/* The metric's name ("metric?" when unknown); static. */
const char *check_metric_name(int metric);
/* The condition's value of key, written to buf (size len); NULL if absent. */
const char *check_cond_get(const struct check_model *m, size_t cond,
    const char *key, char *buf, size_t len);

/* Pure detectors (no database), for the rules and the unit tests. */
/* Find the first point from which y[0..n) stays at or below
 * CHECK_CLIFF_RATIO of the mean before it to the end (at least
 * CHECK_CLIFF_MIN_SIDE values on each side).  O(n). */
void check_detect_cliff(const double *y, size_t n, struct check_cliff *out);
/* Count values of sorted[0..n) in SYN-retransmit modes above median. */
void check_detect_syn(const double *sorted, size_t n, double median,
    struct check_syn *out);
/* The gap figures of n probes: conn[i] and hs[i] are one probe's
 * connect_ms and handshake_ms.  Sorts copies; fills every field of out
 * (figures NaN when n is 0; flags false below CHECK_BUSY_MIN_PAIRS). */
void check_detect_gap(const double *conn, const double *hs, size_t n,
    struct check_gap *out);
/* Groups of trial values: a one-way analysis of variance. */
struct check_groups {
	size_t	ngroups;	/* groups with at least one value */
	size_t	n;		/* values */
	double	f, p;		/* the statistic and p of the test with the
				 * larger p (NaN: no test) */
	double	ratio;		/* exp(largest - smallest group mean) */
	double	within_sd;	/* pooled within-group SD of the values */
	bool	welch;		/* Welch's test was run too (every group has
				 * 3 values or more, with spread) */
	bool	differ;		/* p < CHECK_POOL_ALPHA (_FEW_DF with 2
				 * degrees of freedom within) and ratio >=
				 * CHECK_POOL_MIN_RATIO */
};
/* Test whether groups g[0..n) (0 .. ngroups - 1) of the values v[0..n)
 * (logarithms of trial p50s) differ more than the values within a group
 * do: the classic F = between / within mean square, df ngroups - 1 and
 * n - ngroups (at least 1: some group has two trials), and when every
 * group has three or more values with some spread also Welch's
 * heteroscedastic one-way test; the larger p of the two decides.  Fills out; p is NaN when there is no test. */
void check_detect_groups(const double *v, const size_t *g, size_t n,
    size_t ngroups, struct check_groups *out);

/* Bytes of an oha body size token ("1k", "1m", "1024b", "2g"), binary
 * multiples; NaN when it is not one. */
double check_size_bytes(const char *size);
/* The plateau at the top of v[0..n): how many values lie within tol
 * (a fraction) below the largest; in_plateau (n entries, may be NULL)
 * marks them.  NaN values are never in it. */
size_t check_plateau(const double *v, size_t n, double tol, bool *in_plateau);
/* Which "k-th slowest" value oha reports as percentile pct of n samples
 * (1 = the slowest). */
size_t check_rank_from_top(double pct, size_t n);

/* check.c: findings */
/* Append a finding for a cell (path/cond are model indices; trial -1 for
 * the whole cell); the caller adds runs and sets the texts. */
struct check_finding *check_add(struct check_model *m, const char *id,
    size_t scope, int metric, size_t path, size_t cond, long trial);
/* Add a run's id and files to f (duplicates ignored). */
void check_add_run(struct check_finding *f, const struct check_run *r);
/* check_add_run() of each of runs[0..n) in order, in O(m log m) for m
 * the runs f holds and n (a finding over a year's runs of a path holds
 * 8,760; merging one check's findings over the days adds each day's). */
void check_add_runs(struct check_finding *f,
    const struct check_run *const *runs, size_t n);
/* The model's runs by id (check_run_index(); the caller frees it), and
 * the first of m's runs (in m->runs order) with this id, or NULL, in
 * O(log n). */
struct check_run_ix;
struct check_run_ix *check_run_index(const struct check_model *m);
const struct check_run *check_run_of(const struct check_model *m,
    const struct check_run_ix *ix, int64_t id);
/* Set the texts; each strbuf is detached into f (and re-initialised). */
/* Append "; " to each non-empty text, so the next reason can follow. */
void check_next_reason(struct strbuf *ev, struct strbuf *cause,
    struct strbuf *act);
void check_set_text(struct check_finding *f, struct strbuf *evidence,
    struct strbuf *cause, struct strbuf *action);

/* merge.c: free what one finding owns (not f itself). */
void check_finding_release(struct check_finding *f);
/* merge.c: merge the findings out->items[first..] of one check that tell
 * the same story in several campaigns (check_opts.merge_keys). */
void check_merge(struct check_model *m, size_t first);
/* One scope text naming every campaign of scopes[0..n): each tag once
 * with its values ("day=D1,D2,study=S"), into sb. */
void check_scope_join(char *const *scopes, size_t n, struct strbuf *sb);
/* The campaign text scope without the merged tags, into sb. */
void check_scope_rest(const struct check_opts *o, const char *scope,
    struct strbuf *sb);

/* check_fmt: numbers the way findings print them. */
/* A value of a metric with its unit: "10.46 Gbit/s", "12.3 Mbit/s" (bit
 * rates per magnitude, Gbit/s from 0.1), "0.666 ms". */
void check_fmt_value(struct strbuf *sb, int metric, double v);
/* A count with thousands separators: "2,995". */
void check_fmt_count(struct strbuf *sb, uint64_t n);
/* "HH:MM UTC" of a Unix time, or "?" when unknown. */
void check_fmt_time(struct strbuf *sb, int64_t t);

/* The rules (run.c: per run; cell.c: per cell and table;
 * scope.c: across paths and in time order). */
void check_burst_cliff(struct check_model *m);
void check_run_order(struct check_model *m);
/* run-order's rule without findings: the number of runs it would flag
 * (needs only runs[].path, cond, instance, metric, started_at, p50,
 * cliff and npaths, nconds, ninstances; bench/verdicts.c). */
size_t check_run_order_count(struct check_model *m);
void check_instance_cap(struct check_model *m);
void check_outlier_trial(struct check_model *m);
void check_few_samples(struct check_model *m);
void check_hidden_failures(struct check_model *m);
/* A hidden-failures or busy-client finding f that merged several runs
 * (merge.c): the cell's counts summed over its runs ("27 of 900 probes
 * failed over 3 runs (9 of 300 in each)"), into ev.  False, with nothing
 * written, for any other check. */
bool check_run_counts_merged(const struct check_model *m,
    const struct check_finding *f, struct strbuf *ev);
void check_syn_retransmit(struct check_model *m);
void check_busy_client(struct check_model *m);
void check_udp_sender(struct check_model *m);
void check_udp_loss(struct check_model *m);
void check_mixed_estimators(struct check_model *m);
void check_missing_cells(struct check_model *m);
void check_unbalanced_trials(struct check_model *m);
void check_pooled_groups(struct check_model *m);

#endif
