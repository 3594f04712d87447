/*
 * iperf3_data.c - what an iperf3 result's parsed JSON says: every
 * interval's sums (throughput, retransmits, jitter, loss) per direction,
 * the end-of-test sums as tool summaries, the test's settings from
 * start.test_start, and the events of --json-stream; iperf's quirks
 * across 3.0-3.22 (its unsigned -1, repeated keys, NaN) read here.
 */
#include "common/compat.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "common/kv.h"
#include "common/xalloc.h"
#include "ingest/internal.h"
#include "ingest/iperf3.h"

#define IPERF3_MAX_STREAMS	1000000	/* largest num_streams taken as P */
#define IPERF3_ESTIMATOR	"iperf3"

/*
 * iperf 3.12-3.13 print -1 as 18446744073709551615, which strtod turns
 * into 2^64; anything this close to 2^64 is that -1.
 */
#define IPERF3_U64_LO	1.8446744073709550e19
#define IPERF3_U64_HI	1.8446744073709553e19

/* ---- cJSON access --------------------------------------------------- */

/*
 * The n-th (from 0) member called name, case-sensitively.  Walks all
 * children, so the repeated keys of iperf 3.7-3.10 (--bidir "sum",
 * "sum_sent", ...) are reachable.  Borrowed; NULL when absent.
 */
static const cJSON *
nth_member(const cJSON *obj, const char *name, int n)
{
	const cJSON *ch;

	if (!cJSON_IsObject(obj))
		return NULL;
	cJSON_ArrayForEach(ch, obj) {
		if (ch->string && !strcmp(ch->string, name) && n-- == 0)
			return ch;
	}
	return NULL;
}

static const cJSON *
member(const cJSON *obj, const char *name)
{
	return nth_member(obj, name, 0);
}

static const cJSON *
object_member(const cJSON *obj, const char *name)
{
	const cJSON *v = member(obj, name);

	return cJSON_IsObject(v) ? v : NULL;
}

/* A finite number that is not iperf's unsigned -1; false otherwise
 * (absent, null from NaN, a string...). */
static bool
num_member(const cJSON *obj, const char *name, double *out)
{
	const cJSON *v = member(obj, name);
	double x;

	if (!cJSON_IsNumber(v))
		return false;
	x = v->valuedouble;
	if (!isfinite(x) || (x >= IPERF3_U64_LO && x <= IPERF3_U64_HI))
		return false;
	*out = x;
	return true;
}

/* A count: a whole number >= 0; -1 printed as 2^64-1 or, by 32-bit
 * builds, as 2^32-1 or 2^32-2 means unknown. */
static bool
count_member(const cJSON *obj, const char *name, double *out)
{
	double x;

	if (!num_member(obj, name, &x) || x < 0 || x != floor(x) ||
	    x == 4294967295.0 || x == 4294967294.0)
		return false;
	*out = x;
	return true;
}

/* iperf writes flags as true/false (3.0+ "omitted") or 0/1 (test_start). */
static bool
flag_member(const cJSON *obj, const char *name)
{
	const cJSON *v = member(obj, name);

	if (cJSON_IsTrue(v))
		return true;
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
	    v->valuedouble != 0;
}

static int64_t
seconds_to_us(double s)
{
	if (!isfinite(s) || fabs(s) > 9.0e12)
		return T_US_UNKNOWN;
	return (int64_t)llround(s * 1e6);
}

/* ---- intervals ------------------------------------------------------ */

static void
dir_add(struct iperf3_dir *d, int metric, int64_t t_us, double value)
{
	struct iperf3_sample *s;

	ALLOC_GROW(d->samples, d->nsamples + 1, d->alloc);
	s = &d->samples[d->nsamples++];
	s->t_us = t_us;
	s->value = value;
	s->metric = metric;
}

/*
 * One interval sum (the sum over streams) for one direction: a throughput
 * sample unless omitted, and retransmits (TCP sender) or jitter and loss
 * (UDP receiver) when the sum carries them.
 */
static void
take_sum(struct iperf3_dir *d, const cJSON *sum)
{
	int64_t t_us = T_US_UNKNOWN;
	double v, start, end, bytes;

	d->ntaken++;
	if (!cJSON_IsObject(sum)) {
		d->nno_sum++;
		return;
	}
	if (flag_member(sum, "omitted")) {
		d->nomitted++;
		return;
	}
	/*
	 * A client whose server is killed prints its last interval twice
	 * (interrupted_sigint_server.client.json of 3.0.11, 3.12 and
	 * 3.17.1).  Consecutive intervals never share start and end, so
	 * such a repeat is dropped rather than counted as a sample.
	 */
	if (num_member(sum, "start", &start) && num_member(sum, "end", &end) &&
	    num_member(sum, "bytes", &bytes)) {
		if (d->has_last && start == d->last_start &&
		    end == d->last_end && bytes == d->last_bytes) {
			d->nrepeated++;
			return;
		}
		d->has_last = true;
		d->last_start = start;
		d->last_end = end;
		d->last_bytes = bytes;
	}
	/* After -O the clock restarts near 0: keep the value as written. */
	if (num_member(sum, "end", &v))
		t_us = seconds_to_us(v);
	if (num_member(sum, "bits_per_second", &v) && v >= 0) {
		dir_add(d, METRIC_THROUGHPUT_BPS, t_us, v);
		d->nthroughput++;
	} else {
		d->nbad_rate++;
	}
	if (count_member(sum, "retransmits", &v))
		dir_add(d, METRIC_RETRANSMITS, t_us, v);
	if (num_member(sum, "jitter_ms", &v) && v >= 0)
		dir_add(d, METRIC_JITTER_MS, t_us, v);
	if (num_member(sum, "lost_percent", &v) && v >= 0)
		dir_add(d, METRIC_LOSS_PCT, t_us, v);
}

/*
 * One element of "intervals" (or the data of an interval event).  The
 * first "sum" is client->server; the server->client one is
 * "sum_bidir_reverse" (3.11+) or a second "sum" key (3.7-3.10 --bidir).
 */
void
iperf3_feed_interval(struct iperf3_ctx *c, const cJSON *iv)
{
	const cJSON *ch, *st, *up = NULL, *second = NULL, *rev = NULL;
	const cJSON *streams = NULL;
	int nsum = 0;

	if (c->nintervals >= IPERF3_MAX_INTERVALS) {
		c->intervals_capped = true;
		return;
	}
	c->nintervals++;
	if (cJSON_IsObject(iv)) {
		cJSON_ArrayForEach(ch, iv) {
			if (!ch->string)
				continue;
			if (!strcmp(ch->string, "sum")) {
				if (nsum == 0)
					up = ch;
				else if (nsum == 1)
					second = ch;
				nsum++;
			} else if (!strcmp(ch->string, "sum_bidir_reverse")) {
				if (!rev)
					rev = ch;
			} else if (!strcmp(ch->string, "streams")) {
				if (!streams)
					streams = ch;
			}
		}
	}
	take_sum(&c->dir[DIR_UP], up);
	if (rev || second) {
		c->bidir_seen = true;
		take_sum(&c->dir[DIR_DOWN], rev ? rev : second);
	}
	if (!c->sender_false && cJSON_IsArray(streams)) {
		cJSON_ArrayForEach(st, streams) {
			if (cJSON_IsFalse(member(st, "sender"))) {
				c->sender_false = true;
				break;
			}
		}
	}
}

void
iperf3_set_error(struct iperf3_ctx *c, const cJSON *v)
{
	if (c->error)
		return;
	if (cJSON_IsString(v) && v->valuestring[0])
		c->error = xstrdup(v->valuestring);
	else if (cJSON_IsString(v))
		c->error = xstrdup("(empty error text)");
	else
		c->error = xstrdup("(error of an unexpected JSON type)");
}

/* ---- end-of-test sums ----------------------------------------------- */

/* A sum block of end for one direction: the plain name for client->server;
 * NAME_bidir_reverse (3.11+) or the second NAME (3.7-3.10) for the other. */
static const cJSON *
end_block(const cJSON *end, const char *name, enum iperf3_dir_id id)
{
	char rev[48];
	const cJSON *b;

	if (id == DIR_UP) {
		b = member(end, name);
	} else {
		snprintf(rev, sizeof(rev), "%s_bidir_reverse", name);
		b = member(end, rev);
		if (!b)
			b = nth_member(end, name, 1);
	}
	return cJSON_IsObject(b) ? b : NULL;
}

bool
iperf3_end_has_sums(const cJSON *end, enum iperf3_dir_id id)
{
	return end_block(end, "sum_sent", id) ||
	    end_block(end, "sum_received", id) || end_block(end, "sum", id);
}

/*
 * A block worth reading.  Interrupted runs and server-side documents
 * leave the side they never heard from at 0 bytes: unknown, not zero.
 */
static bool
block_known(const cJSON *b, bool zero_unknown)
{
	double bytes;

	if (!b)
		return false;
	if (zero_unknown && num_member(b, "bytes", &bytes) && bytes == 0)
		return false;
	return true;
}

/*
 * The receiver's intervals of a UDP test the client sent: the server's
 * document that --get-server-output embeds (server_output_json, when
 * the server ran with -J), each interval's "sum" read as take_sum()
 * reads the client's.  Into d (zeroed by the caller; the caller frees
 * d->samples).  Returns the throughput samples taken.
 */
size_t
iperf3_receiver_intervals(const struct iperf3_ctx *c, struct iperf3_dir *d)
{
	const cJSON *so = object_member(c->doc, "server_output_json");
	const cJSON *ivs = member(so, "intervals"), *iv;

	if (!cJSON_IsArray(ivs))
		return 0;
	cJSON_ArrayForEach(iv, ivs) {
		if (d->nthroughput >= IPERF3_MAX_INTERVALS)
			break;
		take_sum(d, member(iv, "sum"));
	}
	return d->nthroughput;
}

/*
 * What arrived in a UDP test, in bit/s, from end: sum_received (3.11+),
 * else sum's rate (the sender's) less its lost_percent (the receiver's;
 * datagrams are of one size; not after -O, omitted).  *t_us gets the
 * block's end, or
 * T_US_UNKNOWN.
 * NaN when the file does not say (an interrupted test's 0 bytes).
 */
double
iperf3_received_rate(const struct iperf3_ctx *c, enum iperf3_dir_id id,
    bool zero_unknown, bool omitted, int64_t *t_us)
{
	const cJSON *recv = end_block(c->end, "sum_received", id);
	const cJSON *sum = end_block(c->end, "sum", id);
	double v, lost, e;

	*t_us = T_US_UNKNOWN;
	if (recv && block_known(recv, zero_unknown) &&
	    num_member(recv, "bits_per_second", &v) && v >= 0) {
		if (num_member(recv, "end", &e))
			*t_us = seconds_to_us(e);
		return v;
	}
	/* 3.0/3.1 with -O count the omitted seconds' datagrams as lost */
	if (!omitted && sum && block_known(sum, zero_unknown) &&
	    num_member(sum, "bits_per_second", &v) && v >= 0 &&
	    num_member(sum, "lost_percent", &lost) && lost >= 0 &&
	    lost <= 100) {
		if (num_member(sum, "end", &e))
			*t_us = seconds_to_us(e);
		return v * (1 - lost / 100);
	}
	return NAN;
}

static void
summary_num(struct parsed_run *run, const cJSON *b, const char *key,
    const char *metric, const char *stat, bool is_count)
{
	double v;

	if (is_count ? count_member(b, key, &v) : num_member(b, key, &v))
		parsed_run_add_summary(run, metric, stat, v, IPERF3_ESTIMATOR);
}

/*
 * iperf3's end-of-test sums for one direction.  TCP/SCTP: sum_sent and
 * sum_received rates, sum_sent retransmits.  UDP: the receiver's numbers
 * from sum_received (3.11+) or sum (whose rate is the sender's).
 */
void
iperf3_add_end_summaries(const struct iperf3_ctx *c, struct parsed_run *run,
    enum iperf3_dir_id id, bool udp, bool zero_unknown)
{
	const cJSON *sent, *recv, *sum, *rx, *cpu;
	const char *rx_name;
	double v;

	sent = end_block(c->end, "sum_sent", id);
	recv = end_block(c->end, "sum_received", id);
	sum = end_block(c->end, "sum", id);
	if (block_known(sent, zero_unknown)) {
		summary_num(run, sent, "bits_per_second",
		    metric_name(METRIC_THROUGHPUT_BPS), "sum_sent", false);
		if (!udp)
			summary_num(run, sent, "retransmits",
			    metric_name(METRIC_RETRANSMITS), "total", true);
	}
	rx = recv;
	rx_name = "sum_received";
	if (udp && !recv) {
		rx = sum;
		rx_name = "sum";
	}
	if (block_known(rx, zero_unknown)) {
		summary_num(run, rx, "bits_per_second",
		    metric_name(METRIC_THROUGHPUT_BPS), rx_name, false);
		if (udp) {
			summary_num(run, rx, "jitter_ms",
			    metric_name(METRIC_JITTER_MS), "end", false);
			summary_num(run, rx, "lost_percent",
			    metric_name(METRIC_LOSS_PCT), "end", false);
			summary_num(run, rx, "lost_packets", "lost_packets",
			    "end", true);
			summary_num(run, rx, "packets", "packets", "end", true);
		}
	}
	cpu = object_member(c->end, "cpu_utilization_percent");
	if (cpu) {
		summary_num(run, cpu, "host_total", "cpu", "host_total", false);
		if (num_member(cpu, "remote_total", &v) &&
		    !(zero_unknown && v == 0))
			parsed_run_add_summary(run, "cpu", "remote_total", v,
			    IPERF3_ESTIMATOR);
	}
}

void
iperf3_read_setup(struct iperf3_ctx *c, struct iperf3_setup *s)
{
	const cJSON *ts, *v, *start = c->start;
	bool client;
	double x;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->started_at = STARTED_UNKNOWN;
	if (!cJSON_IsObject(start))
		start = NULL;
	ts = object_member(start, "test_start");
	s->test_start = ts;
	client = member(start, "connecting_to") != NULL;
	s->server = !client && member(start, "accepted_connection") != NULL;

	v = member(start, "version");
	if (cJSON_IsString(v))	/* a longer text is cut: fine for a label */
		snprintf(c->res->tool_version, sizeof(c->res->tool_version),
		    "%s", v->valuestring);
	/* a start out of int64_t's range is kept as one out of the
	 * plausible range, for job_parse() to refuse */
	if (num_member(object_member(start, "timestamp"), "timesecs", &x))
		s->started_at = x > -9.0e18 && x < 9.0e18 ? (int64_t)x :
		    INT64_MAX;

	v = member(ts, "protocol");
	if (cJSON_IsString(v) && strlen(v->valuestring) < sizeof(s->proto)) {
		for (i = 0; v->valuestring[i]; i++)
			s->proto[i] = (char)tolower(
			    (unsigned char)v->valuestring[i]);
		s->proto[i] = '\0';
		if (strcmp(s->proto, "tcp") && strcmp(s->proto, "udp") &&
		    strcmp(s->proto, "sctp"))
			s->proto[0] = '\0';
	}
	if (count_member(ts, "num_streams", &x) && x >= 1 &&
	    x <= IPERF3_MAX_STREAMS)
		snprintf(s->streams, sizeof(s->streams), "%lld", (long long)x);
	s->reverse = flag_member(ts, "reverse");
	/* -b: test_start has it from 3.11, start from 3.7; older files do
	 * not record it, and check must then not guess it */
	s->target_bps = s->blksize = -1;
	if (count_member(ts, "target_bitrate", &x) ||
	    count_member(start, "target_bitrate", &x))
		s->target_bps = x;
	if (count_member(ts, "blksize", &x))
		s->blksize = x;
	if (!count_member(ts, "omit", &s->omit))
		s->omit = 0;

	/* --bidir: 3.13+ says so; 3.7-3.12 show it only in the data. */
	s->bidir = flag_member(ts, "bidir") || c->bidir_seen ||
	    iperf3_end_has_sums(c->end, DIR_DOWN) ||
	    (ts && client && !s->reverse && c->sender_false);
	if (s->bidir)
		s->reverse = false;
	if (s->proto[0])
		s->udp = !strcmp(s->proto, "udp");
	else
		s->udp = member(c->end, "sum") != NULL;	/* TCP has none */
}

/* ---- --json-stream events ------------------------------------------- */

/*
 * One event line, parsed.  Takes ownership of ev (keeps start and end
 * trees, frees the rest).  Returns true for the end event.
 */
bool
iperf3_take_event(struct iperf3_ctx *c, cJSON *ev, size_t *nnot_event)
{
	const cJSON *name = member(ev, "event"), *data = member(ev, "data");
	const char *e;

	if (!cJSON_IsString(name)) {
		(*nnot_event)++;
		cJSON_Delete(ev);
		return false;
	}
	e = name->valuestring;
	if (!strcmp(e, "start") && !c->start_tree && cJSON_IsObject(data)) {
		c->start_tree = ev;
		c->start = data;
		return false;
	}
	if (!strcmp(e, "end")) {
		c->end_tree = ev;
		c->end = data;
		return true;
	}
	if (!strcmp(e, "interval"))
		iperf3_feed_interval(c, data);
	else if (!strcmp(e, "error"))
		iperf3_set_error(c, data);
	/* server_output_json/_text and unknown events carry no samples. */
	cJSON_Delete(ev);
	return false;
}

