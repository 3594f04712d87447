/*
 * internal.h - what the parts of ingest/ share: the parse result every
 * format parser fills, the sniffer, and the parsers themselves.
 *
 * Parsers are pure: bytes in, struct parse_result out.  They never print,
 * never touch the database and never exit; a parser returns 0 when it
 * produced runs (status ok or partial) and -1 when the file is rejected,
 * with the reason in res->reason.  The caller owns res and releases it
 * with parse_result_release().
 */
#ifndef PATHSTAT_INGEST_INTERNAL_H
#define PATHSTAT_INGEST_INTERNAL_H

#include "common/compat.h"

#include "common/kv.h"
#include "common/metric.h"
#include "common/strbuf.h"

enum ingest_kind {
	KIND_UNKNOWN = 0,
	KIND_IPERF3_JSON,	/* iperf3 -J (client or server) */
	KIND_IPERF3_STREAM,	/* iperf3 --json-stream, one event per line */
	KIND_OHA_JSON,		/* oha --output-format json / -j */
	KIND_OHA_CSV,		/* oha --output-format csv */
	KIND_OHA_SQLITE,	/* oha --db-url */
	KIND_PATHPROBE_CSV,	/* pathprobe output */
	KIND_PATHPROBE_MTU,	/* pathprobe --mtu output (mtu.txt) */
	KIND_META,		/* a meta.json sidecar */
	KIND_IPERF3_USAGE,	/* iperf3 printed usage text: no result */
};

#define T_US_UNKNOWN INT64_MIN	/* sample time not known */
#define STARTED_UNKNOWN INT64_MIN

struct parsed_sample {
	int64_t		t_us;	/* µs since the run start, or T_US_UNKNOWN */
	double		value;	/* metric unit; NaN when status != SAMPLE_OK */
	uint32_t	seq;	/* order within (run, metric), from 0 */
	uint8_t		metric;	/* enum metric_id */
	uint8_t		status;	/* enum sample_status */
};

struct parsed_summary {
	char	metric[24];	/* a metric name (common/metric.h) or a
				 * summary group: "http", "cpu", ... */
	char	stat[32];	/* "p50", "p99.9", "sum_received", "success_rate" */
	double	value;		/* NaN stored as NULL */
	char	estimator[16];	/* "oha", "iperf3", "tool" */
};

struct parsed_count {
	char	kind[8];	/* "status" or "error" */
	char	*label;		/* owned */
	int64_t	count;
};

/* What `pathprobe --mtu` said about a path (mtu.txt), beside the run's
 * one path_mtu sample.  Strings are owned. */
struct parsed_mtu {
	bool	found;		/* an MTU was measured */
	int64_t	mtu;		/* bytes, when found */
	int64_t	route_mtu;	/* the route MTU toward the host, or -1 */
	int64_t	probes;		/* datagrams sent, or -1 */
	char	*method;	/* "udp-df" */
	char	*reason;	/* why unknown, in words; NULL when found */
	char	*target;	/* host:port, or NULL */
	char	*addr;		/* resolved address, or NULL */
};

/*
 * One metric of a run's samples encoded for the database
 * (store_encode_run()): the series rows' column blobs and the sorted
 * copy, as store_put_runs() binds them.
 */
struct enc_series {
	unsigned	metric;
	size_t		rows;		/* samples, failed ones included */
	size_t		nsorted;	/* of them ok with a finite value */
	/* owned: rows x 8 bytes (values), rows x 8 (times), rows x 1
	 * (statuses), per schema 009 */
	unsigned char	*vb, *tb, *sb;
	size_t		*failed;	/* owned: per chunk, samples not ok */
	bool		*any_t;		/* owned: per chunk, one has a time */
	unsigned char	*sorted;	/* owned: nsorted x 8, ascending */
};

/* A run's encoded samples: one entry per metric with samples, in metric
 * order. */
struct run_enc {
	struct enc_series	*s;	/* owned */
	size_t			n;
};

struct parsed_run {
	const char	*tool;		/* static: "iperf3", "oha", "pathprobe" */
	int		metric;		/* primary metric (enum metric_id) */
	struct kvset	cond;		/* condition keys from content: proto, P, dir, side */
	struct kvset	tags;		/* tags from content (rarely used) */
	int64_t		started_at;	/* Unix seconds UTC, or STARTED_UNKNOWN */
	bool		partial;	/* only part of the run is usable */
	struct strbuf	reason;		/* why partial */
	int64_t		failures;	/* failed attempts of the primary metric */
	int64_t		attempts;	/* attempts made, -1 if unknown */
	struct parsed_sample	*samples;
	size_t			nsamples, alloc_samples;
	struct parsed_summary	*summaries;
	size_t			nsummaries, alloc_summaries;
	struct parsed_count	*counts;
	size_t			ncounts, alloc_counts;
	uint32_t	next_seq[METRIC_ID_LIMIT];	/* next seq, per metric */
	struct parsed_mtu	*mtu;	/* pathprobe --mtu's result, owned,
					 * or NULL */
	/* owned, or NULL: the samples encoded by store_encode_run(),
	 * which frees samples (nsamples stays) */
	struct run_enc	*enc;
};

struct parse_result {
	struct parsed_run	*runs;
	size_t			nruns, alloc_runs;
	char			tool_version[64];	/* "iperf 3.12", "oha", "pathprobe 1" */
	bool			partial;	/* file-level: something was left out */
	struct strbuf		reason;		/* why partial, or why rejected */
};

void parse_result_init(struct parse_result *res);
/* Free enc (may be NULL) and all it owns. */
void run_enc_free(struct run_enc *enc);
void parse_result_release(struct parse_result *res);
/* Append a run initialised for tool/metric; returns a pointer valid until
 * the next parse_result_add_run(). */
struct parsed_run *parse_result_add_run(struct parse_result *res,
    const char *tool, int metric);
/* Add a sample; seq is assigned per metric in call order. */
void parsed_run_add_sample(struct parsed_run *run, int metric, int64_t t_us,
    double value, int status);
void parsed_run_add_summary(struct parsed_run *run, const char *metric,
    const char *stat, double value, const char *estimator);
void parsed_run_add_count(struct parsed_run *run, const char *kind,
    const char *label, int64_t count);
/* Append to the run's reason ("; "-separated) and mark it partial. */
void parsed_run_mark_partial(struct parsed_run *run, const char *fmt, ...)
    PATHSTAT_PRINTF(2, 3);
/* Same for the whole file. */
void parse_result_mark_partial(struct parse_result *res, const char *fmt, ...)
    PATHSTAT_PRINTF(2, 3);
/* Drop the runs built so far, set the rejection reason and return -1
 * (for "return parse_reject(...)"). */
int parse_reject(struct parse_result *res, const char *fmt, ...)
    PATHSTAT_PRINTF(2, 3);

/* "YYYY-MM-DDTHH:MM:SS[.fff][Z|+HH:MM|-HH:MM]" (a space for T is
 * accepted) in s[0..len) to Unix seconds, fractions dropped.  0 or -1. */
int ingest_parse_utc(const char *s, size_t len, int64_t *out);

/* Name of a kind ("iperf3-json"), as stored in files.kind. */
const char *ingest_kind_name(enum ingest_kind kind);

/*
 * Decide a file's kind from its content.  name is the file's base name,
 * used only to recognise meta.json sidecars.  Returns KIND_UNKNOWN when
 * nothing matches.
 */
enum ingest_kind ingest_sniff(const char *name, const char *buf, size_t len);

/* The parsers (see the comment at the top for the contract). */
int ingest_parse_iperf3(const char *buf, size_t len, struct parse_result *res);
int ingest_parse_oha_json(const char *buf, size_t len, struct parse_result *res);
int ingest_parse_oha_csv(const char *buf, size_t len, struct parse_result *res);
int ingest_parse_oha_sqlite(const char *buf, size_t len, struct parse_result *res);
int ingest_parse_pathprobe(const char *buf, size_t len, struct parse_result *res);
int ingest_parse_pathprobe_mtu(const char *buf, size_t len,
    struct parse_result *res);

#endif
