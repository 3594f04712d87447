/*
 * metric.h - the metrics pathstat knows, in one table (common/metric.c):
 * the id stored in samples.metric and runs.metric, the name users type,
 * the stored unit, the title, how values are shown (unit family, display
 * unit and scale, decimals), which direction is better and where the
 * values come from.  Ingest, analyze, check and report all read it; a
 * new metric is one row there plus a schema migration inserting the same
 * id, name and unit (tests/unit/t-metric.c holds the two together).
 *
 * The sample status codes (samples.status) live here too: what a sample
 * row's integer columns mean is one concept.
 */
#ifndef PATHSTAT_COMMON_METRIC_H
#define PATHSTAT_COMMON_METRIC_H

#include "common/compat.h"

struct strbuf;

/* Metric ids: the same numbers as the metrics table (schema/001, 003,
 * 006). */
enum metric_id {
	METRIC_CONNECT_MS = 1,
	METRIC_HTTP_MS = 2,
	METRIC_THROUGHPUT_BPS = 3,
	METRIC_JITTER_MS = 4,
	METRIC_LOSS_PCT = 5,
	METRIC_RETRANSMITS = 6,
	METRIC_RPS = 7,
	METRIC_HANDSHAKE_MS = 8,	/* kernel RTT of a probe (schema/003) */
	METRIC_PATH_MTU = 9,		/* pathprobe --mtu (schema/006) */
	METRIC_HTTP_BPS = 10,		/* oha's response bytes/s x 8
					 * (schema/007) */
};

/* Largest metric id + 1: arrays indexed by id have this many entries. */
#define METRIC_ID_LIMIT	11

/* Where a metric's values come from. */
enum metric_source {
	METRIC_FROM_SAMPLES,	/* raw samples: one per probe, request or
				 * reporting interval */
	METRIC_FROM_SUMMARY,	/* the tool's end-of-test summary: one
				 * value per run */
};

/* The family of units a metric can be shown in.  A FIXED metric is
 * shown in its display unit; for BITRATE, common/units.c chooses the
 * step from the data (bit/s ... Gbit/s), display_unit and
 * display_scale being what is shown when there is no data. */
enum metric_family {
	METRIC_FAMILY_FIXED,	/* only display_unit */
	METRIC_FAMILY_BITRATE,	/* bit/s, kbit/s, Mbit/s, Gbit/s (SI) */
};

/* Where a METRIC_FROM_SUMMARY metric's one value per run is: the
 * summaries row (metric, stat), times scale. */
struct metric_summary {
	const char	*metric;	/* summaries.metric ("rps", "http") */
	const char	*stat;		/* summaries.stat ("requests_per_sec") */
	double		scale;		/* stored value x scale = the metric's
					 * unit (bytes/s -> bit/s: 8) */
	const char	*what;		/* the value in words, for captions:
					 * "oha's summary.requestsPerSec" */
	/* A run without that summary but with successful samples of this
	 * metric (oha's per-request CSV or SQLite, no JSON) gets the value
	 * derived from them: successes over the span from the first start
	 * to the last end (t_us + value ms); 0: none. */
	int		rate_of;
};

struct metric {
	enum metric_id	id;		/* samples.metric */
	const char	*name;		/* "connect_ms": what users type */
	const char	*unit;		/* stored unit, as metrics.unit */
	const char	*title;		/* "TCP connect time": captions, axes */
	enum metric_family family;	/* the units it may be shown in */
	const char	*display_unit;	/* unit tables and charts show */
	double		display_scale;	/* stored value x scale = shown */
	int		decimals;	/* analyze's Markdown tables
					 * (percentiles, delta, trials) */
	int		display_decimals; /* charts' value labels, compare
					 * and trend tables, pivot
					 * differences */
	bool		higher_better;	/* throughput, rates; else lower */
	enum metric_source source;	/* samples or tool summaries */
	const char	*failures;	/* what a failed sample is, for
					 * captions */
	bool		timeout_bound;	/* a failed attempt is a timeout or
					 * loss (connect probes): the share
					 * of failures is loss, and high
					 * percentiles of all attempts lie
					 * at or beyond the timeout */
	const struct metric_summary *summary; /* METRIC_FROM_SUMMARY: the
					 * value per run; else NULL */
	bool		series;		/* a run's samples are a time series
					 * (iperf3's reporting intervals):
					 * serially correlated, so a single
					 * run has no within-run interval */
};

/* The metric with this name or id; NULL when there is none.  Static
 * storage. */
const struct metric *metric_by_name(const char *name);
const struct metric *metric_by_id(int id);
/* Name of a metric id ("connect_ms"), or "?" when unknown; static. */
const char *metric_name(int id);
/* Every metric in id order; *n gets the count.  Static storage. */
const struct metric *metric_list(size_t *n);
/* Append every metric name, in id order, separated by sep. */
void metric_names_join(struct strbuf *sb, const char *sep);

/* Append "unknown metric 'NAME' (known: a, b, ...)" and, for a near
 * miss, "; did you mean 'X'?" (common/suggest.h). */
void metric_unknown(struct strbuf *sb, const char *name);

/*
 * The statistics shown of a metric when none are asked for (analyze
 * without --stats, its --sql, report's automatic sections): one rule,
 * here, from the metric's facts.  Lower is better (latency): the median
 * and the slow tail, p95 and p99.  Higher is better (throughput,
 * rates): the median and the slow side, p5 and p1 -- p99 of throughput
 * is its fastest tail, what a path gives on its best second.  One value
 * per run (METRIC_FROM_SUMMARY): a handful of runs has no percentiles
 * (p99 of 3 runs is the best run), so the mean of the runs and the
 * slowest and fastest.
 */
enum metric_stats_use {
	METRIC_STATS_TABLE,	/* a table per cell: percentiles, delta,
				 * ratio, relative */
	METRIC_STATS_TRIALS,	/* a statistic followed per trial or
				 * across a dimension: trials, compare,
				 * trend, variance */
	METRIC_STATS_DELTA,	/* report's delta chart: the table's
				 * without the extreme */
};

/* "p50,p95,p99,max": the list analyze_opts_set_stats() reads; static. */
const char *metric_default_stats(const struct metric *m,
    enum metric_stats_use use);
/* Why those, in a sentence for captions; NULL when the plain rule for
 * latency applies (lower is better, samples), which needs no words.
 * Static. */
const char *metric_default_stats_why(const struct metric *m);

/* Sample status: the same numbers as the sample_status table. */
enum sample_status {
	SAMPLE_OK = 0,
	SAMPLE_TIMEOUT = 1,
	SAMPLE_REFUSED = 2,
	SAMPLE_UNREACHABLE = 3,
	SAMPLE_ERROR = 4,
	SAMPLE_HTTP_ERROR = 5,
	SAMPLE_UNMEASURED = 6,	/* the attempt succeeded but gave no value
				 * of this metric (a probe whose SYN was
				 * retransmitted has no handshake_ms) */
};

/* Name of a sample status ("timeout"), or NULL when unknown; static. */
const char *sample_status_name(int status);

#endif
