/*
 * metric.c - the table of metrics every stage reads (see metric.h), and
 * the names of the sample status codes.  Rows are in id order and the
 * ids match the metrics table (schema/001-initial.sql, 003, 006).
 */
#include "common/compat.h"

#include <string.h>

#include "common/err.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/suggest.h"

/*
 * Two decimals rules are in use and both are kept as they print today:
 * analyze's tables give each metric its own (loss in %, counts), while
 * charts, compare and trend show the display unit with 3 decimals (2 for
 * Gbit/s).
 */
/*
 * End-of-test values, one per run: iperf3's receiver-side sums (the
 * client's JSON carries them for UDP even though its intervals have no
 * jitter or loss) and oha's summary.  Per-interval jitter and loss that
 * a server-side iperf3 file holds stay in samples (export, sample_view)
 * but are not what these metrics analyze: one definition per metric.
 */
static const struct metric_summary summary_jitter = {
	"jitter_ms", "end", 1.0,
	"iperf3's end-of-test jitter (the receiver's sum)", 0,
};
static const struct metric_summary summary_loss = {
	"loss_pct", "end", 1.0,
	"iperf3's end-of-test lost_percent (the receiver's sum)", 0,
};
static const struct metric_summary summary_rps = {
	"rps", "requests_per_sec", 1.0, "oha's summary.requestsPerSec",
	METRIC_HTTP_MS,
};
static const struct metric_summary summary_http_bps = {
	"http", "size_per_sec_bytes", 8.0,
	"oha's summary.sizePerSec x 8 (response bytes per second, = "
	"requests per second x response size)", 0,
};

static const struct metric metrics[] = {
	{
		.id = METRIC_CONNECT_MS, .name = "connect_ms", .unit = "ms",
		.title = "TCP connect time", .family = METRIC_FAMILY_FIXED,
		.display_unit = "ms", .display_scale = 1.0, .decimals = 3,
		.display_decimals = 3, .source = METRIC_FROM_SAMPLES,
		.failures = "timeouts, refusals and errors",
		.timeout_bound = true,
	},
	{
		.id = METRIC_HTTP_MS, .name = "http_ms", .unit = "ms",
		.title = "HTTP request latency", .family = METRIC_FAMILY_FIXED,
		.display_unit = "ms", .display_scale = 1.0, .decimals = 3,
		.display_decimals = 3, .source = METRIC_FROM_SAMPLES,
		.failures = "failed requests (oha's errorDistribution)",
	},
	{
		.id = METRIC_THROUGHPUT_BPS, .name = "throughput_bps",
		.unit = "bit/s", .title = "Throughput",
		.family = METRIC_FAMILY_BITRATE, .display_unit = "Gbit/s",
		.display_scale = 1e-9, .decimals = 2, .display_decimals = 2,
		.higher_better = true, .source = METRIC_FROM_SAMPLES,
		.failures = "failed samples", .series = true,
	},
	{
		.id = METRIC_JITTER_MS, .name = "jitter_ms", .unit = "ms",
		.title = "UDP jitter", .family = METRIC_FAMILY_FIXED,
		.display_unit = "ms", .display_scale = 1.0, .decimals = 3,
		.display_decimals = 3, .source = METRIC_FROM_SUMMARY,
		.failures = "failed samples", .summary = &summary_jitter,
	},
	{
		.id = METRIC_LOSS_PCT, .name = "loss_pct", .unit = "%",
		.title = "UDP loss", .family = METRIC_FAMILY_FIXED,
		.display_unit = "%", .display_scale = 1.0, .decimals = 2,
		.display_decimals = 3, .source = METRIC_FROM_SUMMARY,
		.failures = "failed samples", .summary = &summary_loss,
	},
	{
		.id = METRIC_RETRANSMITS, .name = "retransmits",
		.unit = "count", .title = "TCP retransmits",
		.family = METRIC_FAMILY_FIXED, .display_unit = "count",
		.display_scale = 1.0, .decimals = 1, .display_decimals = 3,
		.source = METRIC_FROM_SAMPLES, .failures = "failed samples",
		.series = true,
	},
	{
		.id = METRIC_RPS, .name = "rps", .unit = "req/s",
		.title = "Requests per second", .family = METRIC_FAMILY_FIXED,
		.display_unit = "req/s", .display_scale = 1.0, .decimals = 1,
		.display_decimals = 3, .higher_better = true,
		.source = METRIC_FROM_SUMMARY, .failures = "failed samples",
		.summary = &summary_rps,
	},
	{
		.id = METRIC_HANDSHAKE_MS, .name = "handshake_ms",
		.unit = "ms", .title = "TCP handshake RTT (kernel)",
		.family = METRIC_FAMILY_FIXED, .display_unit = "ms",
		.display_scale = 1.0, .decimals = 3, .display_decimals = 3,
		.source = METRIC_FROM_SAMPLES,
		.failures = "probes without a kernel RTT (failed, or the SYN "
		    "was retransmitted)",
	},
	{
		.id = METRIC_PATH_MTU, .name = "path_mtu", .unit = "bytes",
		.title = "Path MTU (measured)", .family = METRIC_FAMILY_FIXED,
		.display_unit = "bytes", .display_scale = 1.0,
		.higher_better = true, .source = METRIC_FROM_SAMPLES,
		.failures = "runs that could not measure it",
	},
	{
		.id = METRIC_HTTP_BPS, .name = "http_bps", .unit = "bit/s",
		.title = "HTTP response throughput",
		.family = METRIC_FAMILY_BITRATE, .display_unit = "Gbit/s",
		.display_scale = 1e-9, .decimals = 2, .display_decimals = 2,
		.higher_better = true, .source = METRIC_FROM_SUMMARY,
		.failures = "failed samples", .summary = &summary_http_bps,
	},
};

const struct metric *
metric_by_name(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(metrics); i++)
		if (!strcmp(metrics[i].name, name))
			return &metrics[i];
	return NULL;
}

const struct metric *
metric_by_id(int id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(metrics); i++)
		if ((int)metrics[i].id == id)
			return &metrics[i];
	return NULL;
}

const char *
metric_name(int id)
{
	const struct metric *m = metric_by_id(id);

	return m ? m->name : "?";
}

const struct metric *
metric_list(size_t *n)
{
	*n = ARRAY_SIZE(metrics);
	return metrics;
}

void
metric_names_join(struct strbuf *sb, const char *sep)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(metrics); i++)
		strbuf_addf(sb, "%s%s", i ? sep : "", metrics[i].name);
}

void
metric_unknown(struct strbuf *sb, const char *name)
{
	const char *names[ARRAY_SIZE(metrics)];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(metrics); i++)
		names[i] = metrics[i].name;
	strbuf_addf(sb, "unknown metric '%s' (known: ", name ? name : "");
	metric_names_join(sb, ", ");
	strbuf_addch(sb, ')');
	if (name)
		suggest_append(sb, name, names, ARRAY_SIZE(names));
}

const char *
metric_default_stats(const struct metric *m, enum metric_stats_use use)
{
	/* indexed by enum metric_stats_use */
	static const char *const lower[] = { "p50,p95,p99,max", "p50,p99",
		"p50,p95,p99" };
	static const char *const higher[] = { "p50,p5,p1,min", "p50,p5",
		"p50,p5,p1" };
	static const char *const runs_lower[] = { "mean,max,min", "mean",
		"mean" };
	static const char *const runs_higher[] = { "mean,min,max", "mean",
		"mean" };

	if ((size_t)use >= ARRAY_SIZE(lower))
		BUG("metric_default_stats: use %d", (int)use);
	if (m->source == METRIC_FROM_SUMMARY)
		return m->higher_better ? runs_higher[use] : runs_lower[use];
	return m->higher_better ? higher[use] : lower[use];
}

const char *
metric_default_stats_why(const struct metric *m)
{
	if (m->source == METRIC_FROM_SUMMARY)
		return m->higher_better ? "one value per run, so the mean of "
		    "the runs, the slowest (min) and the fastest (max): "
		    "percentiles of a few runs would only name one of them "
		    "(p99 of 3 is the best run); higher is better" :
		    "one value per run, so the mean of the runs, the slowest "
		    "(max) and the fastest (min): percentiles of a few runs "
		    "would only name one of them (p99 of 3 is the worst run)";
	if (m->higher_better)
		return "higher is better, so the slow side is the low "
		    "percentiles: p5 and p1 are the values 5 % and 1 % of "
		    "the samples fell below, min the slowest; p50 the median";
	return NULL;
}

const char *
sample_status_name(int status)
{
	static const char *const names[] = {
		"ok", "timeout", "refused", "unreachable", "error",
		"http_error", "unmeasured",
	};

	if (status < 0 || (size_t)status >= ARRAY_SIZE(names))
		return NULL;
	return names[status];
}
