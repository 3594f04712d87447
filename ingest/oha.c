/*
 * oha.c - parser for oha's JSON summary (--output-format json, -j before
 * v1.9), every version from v0.5.4 to v1.16: tool summaries and the
 * status/error distributions of one run, never samples.  The per-request
 * forms are in oha_csv.c and oha_sqlite.c.
 */
#include "common/compat.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/parse.h"
#include "common/strbuf.h"
#include "ingest/internal.h"

#define OHA_EST		"oha"		/* estimator of all oha computed */
#define OHA_DEADLINE	"aborted due to deadline"
#define OHA_MAX_LABELS	1024		/* labels kept per distribution */
#define OHA_MAX_COUNT	9007199254740992.0	/* 2^53, exact */
#define OHA_BAD_LISTED	6		/* bad fields named in a reason */

/*
 * Where each value goes: (metric, stat), all with estimator "oha".
 * oha reports seconds; latencies are stored in ms (scale 1000) so they
 * compare with samples.  metrics.latency_ms (v1.15+) is already ms,
 * rounded to 1 µs, and is kept apart under "http_ms_metrics" so the two
 * roundings are never mixed.
 *
 *   summary.fastest/slowest/average  http_ms min/max/mean
 *   latencyPercentiles.pN            http_ms pN
 *   metrics.latency_ms.K             http_ms_metrics K
 *   summary.successRate              http success_rate (0-1)
 *   summary.total                    http total_s
 *   summary.totalData                http total_data_bytes
 *   summary.sizePerRequest           http size_per_request_bytes
 *   summary.sizePerSec               http size_per_sec_bytes
 *   summary.requestsPerSec           rps requests_per_sec
 *   rps.mean/stddev/min/max, .pN     rps mean/stddev/min/max, pN
 *   firstBytePercentiles.pN          http_first_byte_ms pN
 *   details.firstByte                http_first_byte_ms mean/min/max
 *   details.DNSDialup, DNSLookup     dns_dialup_ms, dns_lookup_ms mean/min/max
 *   latencyPercentiles[Not]Successful http_ms_[not_]successful pN
 */

struct oha_json_ctx {
	struct parsed_run	*run;	/* the one run being filled */
	struct strbuf		bad;	/* fields with unexpected values */
	size_t			nbad;	/* how many */
};

static void
oha_bad(struct oha_json_ctx *ctx, const char *where, const char *key)
{
	if (ctx->nbad++ >= OHA_BAD_LISTED)
		return;
	if (ctx->bad.len)
		strbuf_addstr(&ctx->bad, ", ");
	strbuf_addstr(&ctx->bad, where);
	if (key) {
		if (*where)
			strbuf_addch(&ctx->bad, '.');
		strbuf_add(&ctx->bad, key, strnlen(key, 40));
	}
}

static const cJSON *
oha_get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* The member key of obj if it is an object; NULL (noted as bad when it
 * exists with another type) otherwise. */
static const cJSON *
oha_object(struct oha_json_ctx *ctx, const cJSON *obj, const char *where,
    const char *key)
{
	const cJSON *it = obj ? oha_get(obj, key) : NULL;

	if (!it || cJSON_IsObject(it))
		return it;
	if (!cJSON_IsNull(it))
		oha_bad(ctx, where, key);
	return NULL;
}

/* A number or null (oha writes NaN and ±inf as null): 0 with *out set
 * (NaN for null), -1 for anything else. */
static int
oha_number(const cJSON *it, double scale, double *out)
{
	double v;

	if (cJSON_IsNull(it)) {
		*out = NAN;
		return 0;
	}
	if (!cJSON_IsNumber(it))
		return -1;
	v = it->valuedouble * scale;
	if (!isfinite(v))
		return -1;	/* 1e999 and such: not written by oha */
	*out = v;
	return 0;
}

/* Store member key of obj, if present, as (metric, stat). */
static void
oha_put(struct oha_json_ctx *ctx, const cJSON *obj, const char *where,
    const char *key, const char *metric, const char *stat, double scale)
{
	const cJSON *it;
	double v;

	if (!obj)
		return;
	it = oha_get(obj, key);
	if (!it)
		return;		/* not in this version */
	if (oha_number(it, scale, &v)) {
		oha_bad(ctx, where, key);
		return;
	}
	parsed_run_add_summary(ctx->run, metric, stat, v, OHA_EST);
}

/* A percentile key: "p" and a plain number from 0 to 100 ("p99.9"). */
static bool
oha_pkey(const char *key)
{
	double p;

	if (!key || key[0] != 'p' || strlen(key) >= 16 ||
	    strspn(key + 1, "0123456789.") != strlen(key + 1))
		return false;
	return !parse_double(key + 1, 0, 100, &p);
}

/* Every "pN" member of a percentile map (7 keys before v0.6.4, 9
 * after) under metric, scaled. */
static void
oha_put_percentiles(struct oha_json_ctx *ctx, const cJSON *map,
    const char *where, const char *metric, double scale)
{
	const cJSON *it;
	double v;

	if (!map)
		return;
	cJSON_ArrayForEach(it, map) {
		if (!oha_pkey(it->string) || oha_number(it, scale, &v)) {
			oha_bad(ctx, where, it->string);
			continue;
		}
		parsed_run_add_summary(ctx->run, metric, it->string, v,
		    OHA_EST);
	}
}

/* A details triple {average, fastest, slowest} in s, as ms. */
static void
oha_put_triple(struct oha_json_ctx *ctx, const cJSON *details,
    const char *key, const char *metric)
{
	const cJSON *t = oha_object(ctx, details, "details", key);

	oha_put(ctx, t, key, "average", metric, "mean", 1000.0);
	oha_put(ctx, t, key, "fastest", metric, "min", 1000.0);
	oha_put(ctx, t, key, "slowest", metric, "max", 1000.0);
}

/*
 * A {label: count} distribution into run counts of kind; returns the
 * sum, and adds the deadline-abort part of it to *deadline.  Status
 * labels must be HTTP codes.
 */
static int64_t
oha_put_counts(struct oha_json_ctx *ctx, const cJSON *map, const char *where,
    const char *kind, int64_t *deadline)
{
	const cJSON *it;
	int64_t sum = 0, n;
	size_t labels = 0;
	long code;

	cJSON_ArrayForEach(it, map) {
		if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0) ||
		    it->valuedouble > OHA_MAX_COUNT ||
		    it->valuedouble != floor(it->valuedouble) ||
		    !it->string ||
		    (!strcmp(kind, "status") &&
		    parse_long(it->string, 100, 999, &code)) ||
		    labels >= OHA_MAX_LABELS) {
			oha_bad(ctx, where, it->string);
			continue;
		}
		n = (int64_t)it->valuedouble;
		parsed_run_add_count(ctx->run, kind, it->string, n);
		labels++;
		if (sum <= INT64_MAX - n)
			sum += n;
		if (deadline && !strcmp(it->string, OHA_DEADLINE))
			*deadline += n;
	}
	return sum;
}

/*
 * What the keys tell about the version: each marker appeared in one
 * release and never went away.  Writes "oha >=A" or "oha >=A <B" (B
 * only when the absence of B's marker is meaningful, i.e. its parent
 * object is there).
 */
static void
oha_version(const cJSON *root, char *out, size_t size)
{
	const cJSON *lat = oha_get(root, "latencyPercentiles");
	const cJSON *rps = oha_get(root, "rps");
	const cJSON *details = oha_get(root, "details");
	struct {
		const char	*version;
		bool		present;
		bool		checkable;
	} m[] = {
		{ "0.6.4", lat && oha_get(lat, "p99.9"), cJSON_IsObject(lat) },
		{ "1.4.5", rps && oha_get(rps, "min"), cJSON_IsObject(rps) },
		{ "1.13", oha_get(root, "firstBytePercentiles") ||
		    oha_get(root, "firstByteHistogram") ||
		    (details && oha_get(details, "firstByte")), true },
		{ "1.15", oha_get(root, "metrics") != NULL, true },
	};
	const char *lower = "0.5.4", *upper = NULL;
	size_t i, hi = 0;

	for (i = 0; i < ARRAY_SIZE(m); i++)
		if (m[i].present) {
			lower = m[i].version;
			hi = i + 1;
		}
	if (hi < ARRAY_SIZE(m) && m[hi].checkable)
		upper = m[hi].version;
	if (upper)
		snprintf(out, size, "oha >=%s <%s", lower, upper);
	else
		snprintf(out, size, "oha >=%s", lower);
}

/* The first byte in [p, end) that is not JSON white space, or end. */
static const char *
skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
	    *p == '\n'))
		p++;
	return p;
}

/* summary.*: the run's own totals, the latency min/max/mean. */
static void
oha_put_summary(struct oha_json_ctx *ctx, const cJSON *summary)
{
	oha_put(ctx, summary, "summary", "successRate", "http",
	    "success_rate", 1.0);
	oha_put(ctx, summary, "summary", "total", "http", "total_s", 1.0);
	oha_put(ctx, summary, "summary", "fastest", "http_ms", "min", 1000.0);
	oha_put(ctx, summary, "summary", "slowest", "http_ms", "max", 1000.0);
	oha_put(ctx, summary, "summary", "average", "http_ms", "mean",
	    1000.0);
	oha_put(ctx, summary, "summary", "requestsPerSec", "rps",
	    "requests_per_sec", 1.0);
	oha_put(ctx, summary, "summary", "totalData", "http",
	    "total_data_bytes", 1.0);
	oha_put(ctx, summary, "summary", "sizePerRequest", "http",
	    "size_per_request_bytes", 1.0);
	oha_put(ctx, summary, "summary", "sizePerSec", "http",
	    "size_per_sec_bytes", 1.0);
}

/* metrics.latency_ms (v1.15+), already in ms: kept apart. */
static void
oha_put_metrics(struct oha_json_ctx *ctx, const cJSON *root)
{
	const cJSON *metrics, *lm, *it;
	double v;

	/* metrics.success_rate and requests_per_sec repeat the summary's. */
	metrics = oha_object(ctx, root, "", "metrics");
	if (!metrics)
		return;
	lm = oha_object(ctx, metrics, "metrics", "latency_ms");
	cJSON_ArrayForEach(it, lm) {
		if (!it->string || strlen(it->string) >= 16 ||
		    oha_number(it, 1.0, &v)) {
			oha_bad(ctx, "metrics.latency_ms", it->string);
			continue;
		}
		parsed_run_add_summary(ctx->run, "http_ms_metrics",
		    it->string, v, OHA_EST);
	}
}

/* The latency percentile maps: all requests, the first byte, and the
 * successful and failed ones apart. */
static void
oha_put_latency_percentiles(struct oha_json_ctx *ctx, const cJSON *root)
{
	const cJSON *lat = oha_object(ctx, root, "", "latencyPercentiles");

	oha_put_percentiles(ctx, lat, "latencyPercentiles", "http_ms",
	    1000.0);
	oha_put_percentiles(ctx, oha_object(ctx, root, "",
	    "firstBytePercentiles"), "firstBytePercentiles",
	    "http_first_byte_ms", 1000.0);
	/* --stats-success-breakdown; schema.json misspells the names. */
	oha_put_percentiles(ctx, oha_object(ctx, root, "",
	    "latencyPercentilesSuccessful"), "latencyPercentilesSuccessful",
	    "http_ms_successful", 1000.0);
	oha_put_percentiles(ctx, oha_object(ctx, root, "",
	    "latencyPercentileSuccessful"), "latencyPercentileSuccessful",
	    "http_ms_successful", 1000.0);
	oha_put_percentiles(ctx, oha_object(ctx, root, "",
	    "latencyPercentilesNotSuccessful"),
	    "latencyPercentilesNotSuccessful", "http_ms_not_successful",
	    1000.0);
	oha_put_percentiles(ctx, oha_object(ctx, root, "",
	    "latencyPercentileNotSuccessful"),
	    "latencyPercentileNotSuccessful", "http_ms_not_successful",
	    1000.0);
}

/* rps.*: requests per second over the run's windows. */
static void
oha_put_rps(struct oha_json_ctx *ctx, const cJSON *root)
{
	const cJSON *rps = oha_object(ctx, root, "", "rps");

	oha_put(ctx, rps, "rps", "mean", "rps", "mean", 1.0);
	oha_put(ctx, rps, "rps", "stddev", "rps", "stddev", 1.0);
	oha_put(ctx, rps, "rps", "min", "rps", "min", 1.0);
	oha_put(ctx, rps, "rps", "max", "rps", "max", 1.0);
	oha_put_percentiles(ctx, oha_object(ctx, rps, "rps", "percentiles"),
	    "rps.percentiles", "rps", 1.0);
}

/* details.*: connection set-up and first byte, each a triple. */
static void
oha_put_details(struct oha_json_ctx *ctx, const cJSON *root)
{
	const cJSON *details = oha_object(ctx, root, "", "details");

	oha_put_triple(ctx, details, "DNSDialup", "dns_dialup_ms");
	oha_put_triple(ctx, details, "DNSLookup", "dns_lookup_ms");
	oha_put_triple(ctx, details, "firstByte", "http_first_byte_ms");
}

/*
 * The status and error distributions as counts, and from them the run's
 * attempts and failures.  Deadline aborts ("aborted due to deadline", -z
 * mode, v1.2+) are the requests in flight when oha's timer fired: they
 * say nothing about the path, and oha leaves them out of successRate
 * too.  They are kept as error counts and in attempts (oha counts them
 * in requestsPerSec), but not in failures.
 */
static void
oha_put_attempts(struct oha_json_ctx *ctx, const cJSON *root)
{
	const cJSON *codes, *errors;
	int64_t deadline = 0, nstatus, nerror;

	codes = oha_object(ctx, root, "", "statusCodeDistribution");
	errors = oha_object(ctx, root, "", "errorDistribution");
	nstatus = oha_put_counts(ctx, codes, "statusCodeDistribution",
	    "status", NULL);
	nerror = oha_put_counts(ctx, errors, "errorDistribution", "error",
	    &deadline);
	ctx->run->failures = nerror - deadline;
	if (codes && errors) {
		ctx->run->attempts = nstatus + nerror;
	} else {
		ctx->run->attempts = -1;
		parsed_run_mark_partial(ctx->run, "no %s: attempts unknown",
		    codes ? "errorDistribution" : "statusCodeDistribution");
	}
}

/*
 * Parse oha's JSON summary in buf (len bytes, junk before the document
 * skipped) into one run of summaries and counts, without samples (see
 * internal.h for the contract).  Returns 0, or -1 through
 * parse_reject().  The caller releases res.
 */
int
ingest_parse_oha_json(const char *buf, size_t len, struct parse_result *res)
{
	struct oha_json_ctx ctx = { NULL, STRBUF_INIT, 0 };
	cJSON *root = NULL;
	const cJSON *summary;
	const char *brace, *end = NULL;
	int ret = -1;

	/* Junk before the document (a BOM, "^C", a shell prompt) is
	 * skipped; oha itself writes nothing else to stdout. */
	brace = len ? memchr(buf, '{', len) : NULL;
	if (!brace) {
		parse_reject(res, "not oha JSON: no '{' in the file");
		goto cleanup;
	}
	root = cJSON_ParseWithLengthOpts(brace, len - (size_t)(brace - buf),
	    &end, 0);
	if (!root) {
		parse_reject(res, "invalid JSON near byte %zu",
		    end ? (size_t)(end - buf) : (size_t)(brace - buf));
		goto cleanup;
	}
	summary = oha_get(root, "summary");
	if (!cJSON_IsObject(root) || !cJSON_IsObject(summary)) {
		parse_reject(res, "not oha JSON: no \"summary\" object");
		goto cleanup;
	}

	ctx.run = parse_result_add_run(res, "oha", METRIC_HTTP_MS);
	oha_version(root, res->tool_version, sizeof(res->tool_version));
	/* in this order: it is the order of the fields a reason names */
	oha_put_summary(&ctx, summary);
	oha_put_metrics(&ctx, root);
	oha_put_latency_percentiles(&ctx, root);
	oha_put_rps(&ctx, root);
	oha_put_details(&ctx, root);
	oha_put_attempts(&ctx, root);

	if (ctx.nbad)
		parsed_run_mark_partial(ctx.run, "ignored %zu unexpected "
		    "value%s: %s%s", ctx.nbad, ctx.nbad == 1 ? "" : "s",
		    ctx.bad.buf, ctx.nbad > OHA_BAD_LISTED ? ", ..." : "");
	if (ctx.run->partial)
		parse_result_mark_partial(res, "%s", ctx.run->reason.buf);
	if (memchr(brace, '\0', (size_t)(end - brace)))
		parse_result_mark_partial(res, "NUL bytes inside the JSON "
		    "document");
	end = skip_space(end, buf + len);
	if (end < buf + len)
		parse_result_mark_partial(res, "text after the JSON document "
		    "(byte %zu)", (size_t)(end - buf));
	ret = 0;
cleanup:
	cJSON_Delete(root);	/* NULL-safe */
	strbuf_release(&ctx.bad);
	return ret;
}
