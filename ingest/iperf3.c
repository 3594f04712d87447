/*
 * iperf3.c - the iperf3 parser: -J documents (iperf 3.0-3.22, client or
 * server side, possibly wrapped in terminal junk, cut short or several to
 * a file) and --json-stream event lines.  Each test becomes one run per
 * direction, with one sample per reported interval and iperf3's own
 * end-of-test sums as tool summaries.
 */
#include "common/compat.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cJSON.h>

#include "common/kv.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/internal.h"

#define IPERF3_MAX_INTERVALS	10000000	/* intervals read per file */
#define IPERF3_MAX_DOCS		1000	/* further documents or tests counted */
#define IPERF3_MAX_STREAMS	1000000	/* largest num_streams taken as P */
/* cJSON costs about 41 times the text it parses (issue 22): a document
 * larger than IPERF3_TREE_MAX is read member by member and interval by
 * interval, and no one member may exceed IPERF3_PIECE_MAX, so a file
 * costs about twice its size, whatever it holds. */
#define IPERF3_TREE_MAX		((size_t)8 << 20)
#define IPERF3_PIECE_MAX	((size_t)16 << 20)
#define IPERF3_ESTIMATOR	"iperf3"

/*
 * iperf 3.12-3.13 print -1 as 18446744073709551615, which strtod turns
 * into 2^64; anything this close to 2^64 is that -1.
 */
#define IPERF3_U64_LO	1.8446744073709550e19
#define IPERF3_U64_HI	1.8446744073709553e19

enum iperf3_dir_id {
	DIR_UP = 0,	/* client to server: "sum", the first "sum" */
	DIR_DOWN = 1,	/* server to client: sum_bidir_reverse, 2nd "sum" */
};

struct iperf3_sample {
	int64_t	t_us;	/* interval end in µs, or T_US_UNKNOWN */
	double	value;	/* in the metric's unit */
	int	metric;	/* enum metric_id */
};

/* What the intervals gave for one direction. */
struct iperf3_dir {
	struct iperf3_sample	*samples;	/* owned, in interval order */
	size_t			nsamples, alloc;
	size_t	ntaken;		/* intervals with this direction's sum key */
	size_t	nthroughput;	/* throughput samples taken */
	size_t	nomitted;	/* omitted intervals skipped */
	size_t	nbad_rate;	/* intervals without a usable bits_per_second */
	size_t	nno_sum;	/* intervals whose sum is absent or no object */
	size_t	nrepeated;	/* intervals dropped as repeats */
	bool	has_last;	/* last_* hold the previous kept interval */
	double	last_start;	/* previous kept sum: start (s) */
	double	last_end;	/* its end (s) */
	double	last_bytes;	/* its bytes */
};

/* One file being parsed; every tree here is freed by ctx_release(). */
struct iperf3_ctx {
	struct parse_result	*res;
	cJSON		*doc;		/* owned: the parsed -J document */
	cJSON		*start_tree;	/* owned: the tree holding start */
	cJSON		*end_tree;	/* owned: the tree holding end */
	const cJSON	*start;		/* borrowed from one of the trees */
	const cJSON	*end;		/* borrowed from one of the trees */
	char		*error;		/* owned: the first "error" text */
	struct iperf3_dir dir[2];	/* indexed by enum iperf3_dir_id */
	size_t	nintervals;		/* interval objects read */
	bool	intervals_capped;	/* more than IPERF3_MAX_INTERVALS */
	bool	intervals_not_array;	/* "intervals" was some other type */
	bool	bidir_seen;		/* a server->client interval sum */
	bool	sender_false;		/* a stream with sender:false */
	bool	salvaged;		/* the document did not parse */
	struct strbuf	salvage_note;	/* why, and what was kept */
	struct strbuf	file_notes;	/* "; "-joined: what else was left */
};

static void
ctx_init(struct iperf3_ctx *c, struct parse_result *res)
{
	memset(c, 0, sizeof(*c));
	c->res = res;
	strbuf_init(&c->salvage_note, 0);
	strbuf_init(&c->file_notes, 0);
}

static void
ctx_release(struct iperf3_ctx *c)
{
	size_t i;

	cJSON_Delete(c->doc);
	cJSON_Delete(c->start_tree);
	cJSON_Delete(c->end_tree);
	free(c->error);
	for (i = 0; i < ARRAY_SIZE(c->dir); i++)
		free(c->dir[i].samples);
	strbuf_release(&c->salvage_note);
	strbuf_release(&c->file_notes);
}

/* Note something about the file as a whole (extra documents, junk
 * lines); finish() adds it to the reason after the runs' own reasons. */
static void
file_note(struct iperf3_ctx *c, const char *fmt, ...) PATHSTAT_PRINTF(2, 3);

static void
file_note(struct iperf3_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->file_notes.len)
		strbuf_addstr(&c->file_notes, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(&c->file_notes, fmt, ap);
	va_end(ap);
}

/* ---- bytes ---------------------------------------------------------- */

static bool
is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	    ch == '\f' || ch == '\v';
}

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && is_ws(*p))
		p++;
	return p;
}

static const char *
find_n(const char *hay, const char *end, const char *needle)
{
	size_t nlen = strlen(needle);
	const char *p = hay;

	while (p < end && (size_t)(end - p) >= nlen) {
		p = memchr(p, needle[0], (size_t)(end - p));
		if (!p || (size_t)(end - p) < nlen)
			return NULL;
		if (!memcmp(p, needle, nlen))
			return p;
		p++;
	}
	return NULL;
}

/*
 * The first '{' that opens an object: followed (after blanks) by a key or
 * by '}'.  What comes before it is terminal junk ("^C", "^[[F"), stderr
 * lines or usage text.  Returns NULL when there is none.
 */
static const char *
find_doc_start(const char *p, const char *end)
{
	const char *q;

	while (p < end) {
		p = memchr(p, '{', (size_t)(end - p));
		if (!p)
			return NULL;
		q = skip_ws(p + 1, end);
		if (q < end && (*q == '"' || *q == '}'))
			return p;
		p++;
	}
	return NULL;
}

static bool
is_word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.';
}

/* Length of a NaN or infinity token at p ("nan", "-nan", "inf",
 * "-infinity", any case), or 0. */
static size_t
nonfinite_token(const char *p, const char *end)
{
	static const char *const words[] = { "infinity", "nan", "inf" };
	const char *q = p;
	size_t i, n;

	if (q < end && (*q == '-' || *q == '+'))
		q++;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		n = strlen(words[i]);
		if ((size_t)(end - q) >= n && !strncasecmp(q, words[i], n) &&
		    (q + n == end || !is_word_char(q[n])))
			return (size_t)(q - p) + n;
	}
	return 0;
}

/*
 * Append p..end to out with every NaN/infinity token outside strings
 * (iperf 3.0.x and 3.1.0-3.1.2 print "-nan") replaced by null, which
 * cJSON reads.  A raw newline always ends a string: JSON strings cannot
 * hold one, so a broken line cannot hide the rest of the file.
 */
static void
copy_without_nonfinite(const char *p, const char *end, struct strbuf *out)
{
	const char *run = p;
	bool in_str = false;
	char prev = '\0', ch;
	size_t n;

	while (p < end) {
		ch = *p;
		if (ch == '\n') {
			in_str = false;
		} else if (in_str) {
			if (ch == '\\' && p + 1 < end && p[1] != '\n') {
				prev = p[1];
				p += 2;
				continue;
			}
			if (ch == '"')
				in_str = false;
		} else if (ch == '"') {
			in_str = true;
		} else if (ch && strchr("-+nNiI", ch) && !is_word_char(prev)) {
			n = nonfinite_token(p, end);
			if (n) {
				strbuf_add(out, run, (size_t)(p - run));
				strbuf_addstr(out, "null");
				p += n;
				run = p;
				prev = 'l';
				continue;
			}
		}
		prev = ch;
		p++;
	}
	strbuf_add(out, run, (size_t)(p - run));
}

/*
 * Given p at '{', return the byte after its matching '}', or NULL when the
 * data ends first (the document was cut short).  Strings are skipped with
 * their escapes; nothing else is checked.
 */
static const char *
scan_object_end(const char *p, const char *end)
{
	size_t depth = 0;
	bool in_str = false;

	for (; p < end; p++) {
		if (in_str) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_str = false;
		} else if (*p == '"') {
			in_str = true;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (depth)
				depth--;
			if (!depth)
				return p + 1;
		}
	}
	return NULL;
}

static size_t
line_of(const char *base, const char *p)
{
	size_t line = 1;

	for (; base < p; base++)
		if (*base == '\n')
			line++;
	return line;
}

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
take_sum(struct iperf3_ctx *c, const cJSON *sum, enum iperf3_dir_id id)
{
	struct iperf3_dir *d = &c->dir[id];
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
static void
feed_interval(struct iperf3_ctx *c, const cJSON *iv)
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
	take_sum(c, up, DIR_UP);
	if (rev || second) {
		c->bidir_seen = true;
		take_sum(c, rev ? rev : second, DIR_DOWN);
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

static void
set_error(struct iperf3_ctx *c, const cJSON *v)
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

static bool
end_has_sums(const cJSON *end, enum iperf3_dir_id id)
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
static void
add_end_summaries(const struct iperf3_ctx *c, struct parsed_run *run,
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

/* ---- building the runs ---------------------------------------------- */

/* Mark the run partial and say why in the file's reason too (once). */
static void
note_run(struct parse_result *res, size_t run_index, const char *msg)
{
	parsed_run_mark_partial(&res->runs[run_index], "%s", msg);
	if (!res->partial || !strstr(res->reason.buf, msg))
		parse_result_mark_partial(res, "%s", msg);
}

static void
note_runf(struct parse_result *res, size_t run_index, const char *fmt, ...)
    PATHSTAT_PRINTF(3, 4);

static void
note_runf(struct parse_result *res, size_t run_index, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	note_run(res, run_index, msg.buf);
	strbuf_release(&msg);
}

/* The test's settings, read from start.test_start. */
struct iperf3_setup {
	const cJSON	*test_start;	/* borrowed, or NULL */
	char		proto[8];	/* "tcp", "udp", "sctp" or "" */
	char		streams[24];	/* num_streams as text, or "" */
	bool		reverse;	/* -R */
	bool		bidir;		/* --bidir, from any evidence */
	bool		server;		/* a server-side document */
	bool		udp;		/* read end sums the UDP way */
	int64_t		started_at;	/* timesecs, or STARTED_UNKNOWN */
	double		target_bps;	/* -b in bit/s (0 = unlimited), or
					 * -1 when the file does not say */
	double		blksize;	/* -l in bytes, or -1 */
};

static void
read_setup(struct iperf3_ctx *c, struct iperf3_setup *s)
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
	if (num_member(object_member(start, "timestamp"), "timesecs", &x) &&
	    x >= 0 && x < 9.0e18)
		s->started_at = (int64_t)x;

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

	/* --bidir: 3.13+ says so; 3.7-3.12 show it only in the data. */
	s->bidir = flag_member(ts, "bidir") || c->bidir_seen ||
	    end_has_sums(c->end, DIR_DOWN) ||
	    (ts && client && !s->reverse && c->sender_false);
	if (s->bidir)
		s->reverse = false;
	if (s->proto[0])
		s->udp = !strcmp(s->proto, "udp");
	else
		s->udp = member(c->end, "sum") != NULL;	/* TCP has none */
}

static void
copy_samples(struct parsed_run *run, const struct iperf3_dir *d)
{
	size_t i;

	for (i = 0; i < d->nsamples; i++)
		parsed_run_add_sample(run, d->samples[i].metric,
		    d->samples[i].t_us, d->samples[i].value, SAMPLE_OK);
}

static void
build_run(struct iperf3_ctx *c, const struct iperf3_setup *s,
    enum iperf3_dir_id id)
{
	struct parse_result *res = c->res;
	const struct iperf3_dir *d = &c->dir[id];
	struct parsed_run *run;
	size_t ri, missing;

	run = parse_result_add_run(res, "iperf3", METRIC_THROUGHPUT_BPS);
	ri = res->nruns - 1;
	if (s->proto[0])
		kvset_set(&run->cond, "proto", s->proto);
	if (s->streams[0])
		kvset_set(&run->cond, "P", s->streams);
	if (s->bidir)
		kvset_set(&run->cond, "dir",
		    id == DIR_UP ? "bidir-up" : "bidir-down");
	else if (s->reverse)
		kvset_set(&run->cond, "dir", "reverse");
	if (s->server)
		kvset_set(&run->cond, "side", "server");
	run->started_at = s->started_at;
	copy_samples(run, d);
	add_end_summaries(c, run, id, s->udp, c->error || s->server);
	/* the test's own parameters, so that check reads what was asked
	 * for instead of guessing it */
	if (s->target_bps >= 0)
		parsed_run_add_summary(run, "iperf3", "target_bitrate",
		    s->target_bps, "tool");
	if (s->blksize >= 0)
		parsed_run_add_summary(run, "iperf3", "blksize", s->blksize,
		    "tool");

	if (c->error)
		note_run(res, ri, c->error);
	if (c->salvaged)
		note_run(res, ri, c->salvage_note.buf);
	if (!s->test_start)
		note_run(res, ri, "no test_start: protocol, streams and "
		    "direction unknown");
	if (c->intervals_not_array)
		note_run(res, ri, "\"intervals\" is not an array");
	missing = c->nintervals - d->ntaken + d->nno_sum;
	if (missing && c->nintervals)
		note_runf(res, ri, "%zu of %zu intervals have no sum for this "
		    "direction", missing, c->nintervals);
	if (d->nrepeated)
		note_runf(res, ri, "%zu repeated interval%s dropped",
		    d->nrepeated, d->nrepeated == 1 ? "" : "s");
	if (d->nbad_rate)
		note_runf(res, ri, "%zu intervals without a usable "
		    "bits_per_second (NaN or null) skipped", d->nbad_rate);
	if (!d->nthroughput)
		note_run(res, ri, "no usable intervals");
	if (!end_has_sums(c->end, id) && !(c->salvaged && !c->end))
		note_run(res, ri, "no end-of-test summary");
	if (c->intervals_capped)
		note_runf(res, ri, "more than %d intervals: the rest ignored",
		    IPERF3_MAX_INTERVALS);
}

/*
 * Decide the outcome from what was read: reject an error with nothing
 * usable and a test that never ran; otherwise build one run (two for
 * --bidir).  Returns 0 or -1 (parse_reject).
 */
static int
decide(struct iperf3_ctx *c)
{
	struct iperf3_setup s;
	size_t usable;
	bool sums;

	read_setup(c, &s);
	usable = c->dir[DIR_UP].nthroughput +
	    (s.bidir ? c->dir[DIR_DOWN].nthroughput : 0);
	sums = end_has_sums(c->end, DIR_UP) ||
	    (s.bidir && end_has_sums(c->end, DIR_DOWN));
	if (c->error && !usable)
		return parse_reject(c->res, "iperf3 error: %s", c->error);
	if (!usable && !sums) {
		if (c->salvaged)
			return parse_reject(c->res, "%s; nothing usable",
			    c->salvage_note.buf);
		if (!s.test_start && !c->nintervals)
			return parse_reject(c->res, "iperf3 run never started: "
			    "no test_start, no intervals (iperf 3.9 writes no "
			    "error key; see its stderr)");
		return parse_reject(c->res, "no usable intervals and no "
		    "end-of-test summary");
	}
	build_run(c, &s, DIR_UP);
	if (s.bidir)
		build_run(c, &s, DIR_DOWN);
	return 0;
}

/* decide(), then the file-level notes: after the runs' reasons, or after
 * the rejection reason (without making a rejected file partial). */
static int
finish(struct iperf3_ctx *c)
{
	int ret = decide(c);

	if (!c->file_notes.len)
		return ret;
	if (ret)
		strbuf_addf(&c->res->reason, "; %s", c->file_notes.buf);
	else
		parse_result_mark_partial(c->res, "%s", c->file_notes.buf);
	return ret;
}

/* ---- -J documents ------------------------------------------------------ */

/*
 * After a complete document: count further complete documents (a server
 * without -1, appended runs) and note any other trailing text.
 */
static void
note_trailing(struct iperf3_ctx *c, const char *p, const char *end)
{
	const char *pe = NULL;
	size_t ndocs = 0;
	bool junk = false, capped = false;
	cJSON *more;

	for (;;) {
		p = skip_ws(p, end);
		if (p >= end)
			break;
		if (*p != '{') {
			junk = true;
			p = find_doc_start(p, end);
			if (!p)
				break;
			continue;
		}
		if (ndocs >= IPERF3_MAX_DOCS) {
			capped = true;
			break;
		}
		if ((size_t)(end - p) > IPERF3_TREE_MAX) {
			/* only counted: its braces, not a 41x tree */
			pe = scan_object_end(p, end);
			if (!pe) {
				junk = true;
				break;
			}
		} else {
			more = cJSON_ParseWithLengthOpts(p, (size_t)(end - p),
			    &pe, 0);
			if (!more) {
				junk = true;
				break;
			}
			cJSON_Delete(more);
		}
		ndocs++;
		p = pe;
	}
	if (capped)
		file_note(c, "file holds more than %zu "
		    "JSON documents; used the first, the rest not ingested",
		    ndocs + 1);
	else if (ndocs)
		file_note(c, "file holds %zu JSON "
		    "documents; used the first, %zu more not ingested",
		    ndocs + 1, ndocs);
	if (junk)
		file_note(c, "trailing text after the JSON document ignored");
}

/* Parse one value at p (within end); NULL when it is cut short or broken. */
static cJSON *
parse_value_at(const char **pp, const char *end)
{
	const char *pe = NULL;
	cJSON *v;

	if (*pp >= end)
		return NULL;
	v = cJSON_ParseWithLengthOpts(*pp, (size_t)(end - *pp), &pe, 0);
	if (v)
		*pp = pe;
	return v;
}

/* Is the value at p (an object or array) larger than IPERF3_PIECE_MAX?
 * Scalars are short by nature (cJSON stops at their end). */
static bool
piece_too_large(const char *p, const char *end)
{
	const char *e;

	if (*p != '{' && *p != '[')
		return false;
	if ((size_t)(end - p) <= IPERF3_PIECE_MAX)
		return false;
	e = scan_object_end(p, p + IPERF3_PIECE_MAX);
	return e == NULL;
}

/*
 * Walk the "intervals" array at p ('[') element by element, feeding each
 * complete one.  Returns the byte after ']', or NULL when the array is cut
 * short or broken (or an element is too large: *big set).
 */
static const char *
walk_intervals(struct iperf3_ctx *c, const char *p, const char *end,
    bool *big)
{
	cJSON *iv;

	p++;
	for (;;) {
		p = skip_ws(p, end);
		if (p >= end)
			return NULL;
		if (*p == ']')
			return p + 1;
		if (*p == ',') {
			p++;
			continue;
		}
		if (piece_too_large(p, end)) {
			*big = true;
			return NULL;
		}
		iv = parse_value_at(&p, end);
		if (!iv)
			return NULL;
		feed_interval(c, iv);
		cJSON_Delete(iv);
	}
}

/*
 * Read the document's top-level members one by one: keep start, every
 * complete interval, end and error (the first of each, as for a whole
 * document).  Returns the byte after the closing '}' when the whole
 * object was read, else NULL with *stop where it stopped (*big set when
 * a member was larger than IPERF3_PIECE_MAX, named in big_key).
 */
static const char *
walk_members(struct iperf3_ctx *c, const char *doc, const char *end,
    const char **stop, bool *big, struct strbuf *big_key, bool *any)
{
	const char *p = doc + 1, *ks, *done = NULL;
	size_t klen;
	cJSON *v;

	*big = *any = false;
	for (;;) {
		p = skip_ws(p, end);
		if (p >= end)
			break;
		if (*p == '}') {
			done = p + 1;
			break;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != '"')
			break;
		ks = ++p;
		while (p < end && *p != '"')
			p += *p == '\\' && p + 1 < end ? 2 : 1;
		if (p >= end)
			break;
		klen = (size_t)(p - ks);
		p = skip_ws(p + 1, end);
		if (p >= end || *p != ':')
			break;
		p = skip_ws(p + 1, end);
		if (p >= end)
			break;
		if (klen == 9 && !memcmp(ks, "intervals", 9)) {
			*any = true;
			if (*p == '[') {
				p = walk_intervals(c, p, end, big);
				if (!p) {
					if (*big)
						strbuf_addstr(big_key,
						    "an interval");
					break;
				}
				continue;
			}
			c->intervals_not_array = true;
		}
		if (piece_too_large(p, end)) {
			*big = true;
			strbuf_addf(big_key, "'%.*s'", (int)(klen > 40 ? 40 :
			    klen), ks);
			break;
		}
		v = parse_value_at(&p, end);
		if (!v)
			break;
		if (klen == 5 && !memcmp(ks, "start", 5) && !c->start_tree) {
			c->start_tree = v;
			c->start = v;
			*any = true;
		} else if (klen == 3 && !memcmp(ks, "end", 3) && !c->end_tree) {
			c->end_tree = v;
			c->end = v;
			*any = true;
		} else {
			if (klen == 5 && !memcmp(ks, "error", 5)) {
				set_error(c, v);
				*any = true;
			}
			cJSON_Delete(v);
		}
	}
	*stop = p;
	return done;
}

/*
 * The document did not parse (cut at 8192 bytes, junk inside), or is
 * too large to parse whole: read its top-level members one by one and
 * keep start, every complete interval, end and error if they are
 * complete.
 */
static int
walk_document(struct iperf3_ctx *c, const char *base, const char *doc,
    const char *end, size_t file_len)
{
	struct strbuf big_key = STRBUF_INIT;
	const char *p, *obj_end, *done;
	bool big, any;
	int ret;

	done = walk_members(c, doc, end, &p, &big, &big_key, &any);
	if (big) {
		ret = parse_reject(c->res, "%s is larger than %zu MiB: too "
		    "large to read (a member of an iperf3 result is small; "
		    "the file is not one)", big_key.buf,
		    IPERF3_PIECE_MAX >> 20);
		strbuf_release(&big_key);
		return ret;
	}
	strbuf_release(&big_key);
	if (done) {
		/* a valid document, read piece by piece */
		if (!any)
			return parse_reject(c->res, "JSON object is not an "
			    "iperf3 result (no start, intervals or end)");
		note_trailing(c, done, end);
		return finish(c);
	}
	obj_end = scan_object_end(doc, end);
	c->salvaged = true;
	if (obj_end)
		strbuf_addf(&c->salvage_note, "invalid JSON at line %zu",
		    line_of(base, p < end ? p : end));
	else
		strbuf_addf(&c->salvage_note, "truncated JSON at byte %zu",
		    file_len);
	strbuf_addf(&c->salvage_note, ": kept %zu complete intervals%s",
	    c->nintervals, c->end ? " and the end-of-test summary" :
	    ", no end-of-test summary");
	if (obj_end)
		note_trailing(c, obj_end, end);
	return finish(c);
}

static int
parse_document(struct iperf3_ctx *c, const char *base, const char *doc,
    const char *end, size_t file_len)
{
	const cJSON *ch, *intervals = NULL, *iv;
	const char *pe = NULL;

	if ((size_t)(end - doc) > IPERF3_TREE_MAX)
		return walk_document(c, base, doc, end, file_len);
	c->doc = cJSON_ParseWithLengthOpts(doc, (size_t)(end - doc), &pe, 0);
	if (!c->doc)
		return walk_document(c, base, doc, end, file_len);
	/* Repeated top-level keys: the first one counts. */
	cJSON_ArrayForEach(ch, c->doc) {
		if (!ch->string)
			continue;
		if (!strcmp(ch->string, "start") && !c->start)
			c->start = ch;
		else if (!strcmp(ch->string, "intervals") && !intervals)
			intervals = ch;
		else if (!strcmp(ch->string, "end") && !c->end)
			c->end = ch;
		else if (!strcmp(ch->string, "error"))
			set_error(c, ch);
	}
	if (!c->start && !intervals && !c->end && !c->error)
		return parse_reject(c->res, "JSON object is not an iperf3 "
		    "result (no start, intervals or end)");
	if (cJSON_IsArray(intervals)) {
		cJSON_ArrayForEach(iv, intervals)
			feed_interval(c, iv);
	} else if (intervals) {
		c->intervals_not_array = true;
	}
	note_trailing(c, pe, end);
	return finish(c);
}

/* ---- --json-stream ---------------------------------------------------- */

/*
 * One event line, parsed.  Takes ownership of ev (keeps start and end
 * trees, frees the rest).  Returns true for the end event.
 */
static bool
take_event(struct iperf3_ctx *c, cJSON *ev, size_t *nnot_event)
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
		feed_interval(c, data);
	else if (!strcmp(e, "error"))
		set_error(c, data);
	/* server_output_json/_text and unknown events carry no samples. */
	cJSON_Delete(ev);
	return false;
}

/*
 * --json-stream: one compact object per line.  Whatever follows the end
 * event is ignored: --json-stream-full-output (3.20+) appends the whole
 * -J document there, which repeats the events, so it needs no partial
 * mark.  Only a further start event (a second test) is counted.
 */
static int
parse_stream(struct iperf3_ctx *c, const char *p, const char *end)
{
	const char *nl, *le, *q, *brace;
	size_t nbad = 0, njunk = 0, nnot_event = 0, nmore = 0;
	bool ended = false;
	cJSON *ev;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		le = nl ? nl : end;
		q = skip_ws(p, le);
		p = nl ? nl + 1 : end;
		if (q >= le)
			continue;
		brace = memchr(q, '{', (size_t)(le - q));
		if (ended) {
			if (brace && (size_t)(le - brace) >= 17 &&
			    !memcmp(brace, "{\"event\":\"start\"", 16) &&
			    nmore < IPERF3_MAX_DOCS)
				nmore++;
			continue;
		}
		if (!brace) {
			njunk++;
			continue;
		}
		ev = cJSON_ParseWithLengthOpts(brace, (size_t)(le - brace),
		    NULL, 0);
		if (!ev) {
			nbad++;
			continue;
		}
		ended = take_event(c, ev, &nnot_event);
	}
	if (nbad)
		file_note(c, "%zu unparseable line%s ignored", nbad,
		    nbad == 1 ? "" : "s");
	if (njunk + nnot_event)
		file_note(c, "%zu non-event line%s ignored",
		    njunk + nnot_event, njunk + nnot_event == 1 ? "" : "s");
	if (nmore)
		file_note(c, "file holds %s%zu iperf3 "
		    "tests; used the first, %zu more not ingested",
		    nmore >= IPERF3_MAX_DOCS ? "at least " : "", nmore + 1,
		    nmore);
	return finish(c);
}

/* ---- entry point ------------------------------------------------------ */

static bool
first_key_is(const char *brace, const char *end, const char *key)
{
	const char *p = skip_ws(brace + 1, end);
	size_t n = strlen(key);

	return (size_t)(end - p) >= n + 2 && p[0] == '"' &&
	    !memcmp(p + 1, key, n) && p[n + 1] == '"';
}

/*
 * Parse an iperf3 -J document or --json-stream output held in buf (len
 * bytes, not necessarily NUL-terminated).  Fills res with one run per
 * direction (see internal.h for the contract); returns 0, or -1 through
 * parse_reject() with the reason.  The caller releases res.
 */
int
ingest_parse_iperf3(const char *buf, size_t len, struct parse_result *res)
{
	struct iperf3_ctx c;
	struct strbuf copy = STRBUF_INIT;
	const char *doc, *end;
	size_t off;
	int ret;

	ctx_init(&c, res);
	if (!buf || !len) {
		ret = parse_reject(res, "empty file");
		goto cleanup;
	}
	doc = find_doc_start(buf, buf + len);
	if (!doc) {
		if (find_n(buf, buf + len, "Usage: iperf3") ||
		    find_n(buf, buf + len, "parameter error"))
			ret = parse_reject(res, "no JSON: iperf3 printed its "
			    "usage text (a parameter error)");
		else
			ret = parse_reject(res, "no JSON object found");
		goto cleanup;
	}
	/* Work on a NUL-terminated copy that cJSON can read. */
	off = (size_t)(doc - buf);
	strbuf_grow(&copy, len + 16);
	strbuf_add(&copy, buf, off);
	copy_without_nonfinite(doc, buf + len, &copy);
	doc = copy.buf + off;
	end = copy.buf + copy.len;
	if (first_key_is(doc, end, "event"))
		ret = parse_stream(&c, doc, end);
	else
		ret = parse_document(&c, copy.buf, doc, end, len);
cleanup:
	ctx_release(&c);
	strbuf_release(&copy);
	return ret;
}
