/*
 * probe_csv.c - parser for pathprobe's CSV output (docs/design.md,
 * "pathprobe output"), formats 1 and 2: one connect_ms sample per probe,
 * failed probes kept with their status (a timeout is loss, not a slow
 * connect), one handshake_ms sample per probe of a format 2 file that
 * has any rtt_us (the kernel's SYN->SYN/ACK RTT; a probe without one is
 * kept as failed, with its status or "unmeasured"), and the header
 * comment's parameters as tool summaries.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/lines.h"
#include "common/strbuf.h"
#include "ingest/csvrec.h"
#include "ingest/internal.h"

#define PROBE_TOOL	"pathprobe"
#define PROBE_COLUMNS	"seq,unix_ns,connect_ms,result"
#define PROBE_COLUMNS2	"seq,unix_ns,connect_ms,rtt_us,result"
#define PROBE_RTT_US_MAX 3600000000LL	/* an hour: larger is not an RTT */
#define PROBE_ERRNAME_MAX 31		/* longest errno name accepted */

/* What the "# pathprobe 1 key=value ..." comment says. */
struct probe_header {
	bool	seen;		/* the comment was there */
	int	version;	/* its format number, 1 or 2 */
	int64_t	count;		/* probes planned, or -1 */
	double	interval_s;	/* schedule step, or -1 */
	double	timeout_s;	/* connect timeout, or -1 */
	int	resolve_each;	/* DNS inside the timing: 1, 0, or -1 */
	int64_t	start;		/* Unix s, or STARTED_UNKNOWN */
};

enum probe_state {
	PROBE_COLS,		/* waiting for the column header */
	PROBE_ROWS,		/* reading probes */
	PROBE_NOT_OURS,		/* the first record was something else */
};

struct probe_ctx {
	struct parsed_run	*run;	/* the one run being filled */
	enum probe_state	state;
	size_t			ncols;	/* 4 (format 1) or 5 (format 2) */
	size_t			rows;	/* valid probe rows */
	size_t			bad;	/* skipped rows */
	char			first_bad[96];	/* where/why the first */
	size_t			cut_line;	/* bad last line, no '\n' */
	size_t			nrtt;	/* rows with an rtt_us */
	bool			have_base;	/* base_ns is set */
	int64_t			base_ns;	/* first valid probe's ns */
	int64_t			last_seq, last_ns;	/* previous row's */
	size_t			ndup, dup_line;	/* seq not increasing */
	size_t			nback, back_line;	/* time going back */
};

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool
digits_at(const char *s, size_t n, int *out)
{
	int v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static int
days_in_month(int year, int month)
{
	static const int days[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

int
ingest_parse_utc(const char *s, size_t len, int64_t *out)
{
	struct tm tm;
	int y, mo, d, h, mi, sec, oh = 0, om = 0, sign = 0;
	size_t i = 19;
	time_t t;

	if (len < 20 || !digits_at(s, 4, &y) || s[4] != '-' ||
	    !digits_at(s + 5, 2, &mo) || s[7] != '-' ||
	    !digits_at(s + 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') ||
	    !digits_at(s + 11, 2, &h) || s[13] != ':' ||
	    !digits_at(s + 14, 2, &mi) || s[16] != ':' ||
	    !digits_at(s + 17, 2, &sec))
		return -1;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 ||
	    d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 60)
		return -1;
	if (s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			continue;
		if (i == 20)
			return -1;
	}
	if (i + 1 == len && s[i] == 'Z') {
		sign = 0;
	} else if (i + 6 == len && (s[i] == '+' || s[i] == '-') &&
	    digits_at(s + i + 1, 2, &oh) && s[i + 3] == ':' &&
	    digits_at(s + i + 4, 2, &om) && oh <= 23 && om <= 59) {
		sign = s[i] == '+' ? 1 : -1;
	} else {
		return -1;
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = timegm(&tm);
	if (t == (time_t)-1)
		return -1;
	*out = (int64_t)t - sign * (oh * 3600 + om * 60);
	return 0;
}

/*
 * Parse the tokens after "# pathprobe" (line[0..len)) into h.  Returns
 * 0, or -1 for a format version other than 1 or 2.  Unknown keys are
 * ignored; a known key with a bad value is noted in res.
 */
static int
probe_parse_header(const char *line, size_t len, struct probe_header *h,
    struct parse_result *res)
{
	const char *p = line, *end = line + len, *tok, *eq;
	size_t klen, vlen;
	int64_t iv;
	double dv;
	bool first = true, ok;

	h->seen = true;
	while (p < end) {
		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		tok = p;
		while (p < end && !is_blank(*p))
			p++;
		if (first) {
			first = false;
			if (ingest_field_int64(tok, (size_t)(p - tok), &iv) ||
			    (iv != 1 && iv != 2))
				return -1;
			h->version = (int)iv;
			continue;
		}
		eq = memchr(tok, '=', (size_t)(p - tok));
		if (!eq)
			continue;
		klen = (size_t)(eq - tok);
		vlen = (size_t)(p - eq - 1);
		ok = true;
		if (klen == 5 && !memcmp(tok, "count", 5)) {
			ok = !ingest_field_int64(eq + 1, vlen, &iv) && iv >= 0;
			if (ok)
				h->count = iv;
		} else if (klen == 10 && !memcmp(tok, "interval_s", 10)) {
			ok = !ingest_field_double(eq + 1, vlen, &dv) && dv >= 0;
			if (ok)
				h->interval_s = dv;
		} else if (klen == 9 && !memcmp(tok, "timeout_s", 9)) {
			ok = !ingest_field_double(eq + 1, vlen, &dv) && dv >= 0;
			if (ok)
				h->timeout_s = dv;
		} else if (klen == 12 && !memcmp(tok, "resolve_each", 12)) {
			ok = vlen == 1 && (eq[1] == '0' || eq[1] == '1');
			if (ok)
				h->resolve_each = eq[1] - '0';
		} else if (klen == 5 && !memcmp(tok, "start", 5)) {
			ok = !ingest_parse_utc(eq + 1, vlen, &iv);
			if (ok)
				h->start = iv;
		}
		if (!ok)
			parse_result_mark_partial(res, "bad header value "
			    "'%.*s'", (int)(p - tok > 60 ? 60 : p - tok), tok);
	}
	return first ? -1 : 0;
}

/* A bad row is skipped; a bad last line without a line break is a
 * write that was cut short and is reported as such. */
static void
probe_bad(struct probe_ctx *ctx, const struct csv_rec *rec, const char *why)
{
	if (!rec->terminated) {
		ctx->cut_line = rec->line;
		return;
	}
	if (ctx->bad++)
		return;
	snprintf(ctx->first_bad, sizeof(ctx->first_bad), "line %zu: %s",
	    rec->line, why);
}

/* An errno name as pathprobe writes it: letters, digits, '_'. */
static bool
probe_errname_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > PROBE_ERRNAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= 'a' && s[i] <= 'z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_')
			return false;
	return true;
}

static void
probe_record(const struct csv_rec *rec, void *data)
{
	struct probe_ctx *ctx = data;
	const char *result;
	size_t rc;		/* the result column */
	int64_t seq, ns, rtt = -1;
	double ms = 0;
	int status;

	switch (ctx->state) {
	case PROBE_COLS:
		ctx->state = PROBE_NOT_OURS;
		if ((rec->nfields == 4 || rec->nfields == 5) &&
		    !strcmp(rec->field[0], "seq") &&
		    !strcmp(rec->field[1], "unix_ns") &&
		    !strcmp(rec->field[2], "connect_ms") &&
		    (rec->nfields == 4 || !strcmp(rec->field[3], "rtt_us")) &&
		    !strcmp(rec->field[rec->nfields - 1], "result")) {
			ctx->state = PROBE_ROWS;
			ctx->ncols = rec->nfields;
		}
		return;
	case PROBE_NOT_OURS:
		return;
	case PROBE_ROWS:
		break;
	}
	if (rec->field[0][0] == '#')
		return;		/* a comment line */
	if (rec->nfields != ctx->ncols) {
		probe_bad(ctx, rec, "wrong field count");
		return;
	}
	rc = ctx->ncols - 1;
	if (ingest_field_int64(rec->field[0], rec->flen[0], &seq) || seq < 0) {
		probe_bad(ctx, rec, "bad seq");
		return;
	}
	if (ingest_field_int64(rec->field[1], rec->flen[1], &ns) || ns <= 0) {
		probe_bad(ctx, rec, "bad unix_ns");
		return;
	}
	/* rtt_us: a positive integer, and only where the probe is ok. */
	if (ctx->ncols == 5 && rec->flen[3]) {
		if (ingest_field_int64(rec->field[3], rec->flen[3], &rtt) ||
		    rtt <= 0 || rtt > PROBE_RTT_US_MAX) {
			probe_bad(ctx, rec, "bad rtt_us");
			return;
		}
		if (strcmp(rec->field[rc], "ok")) {
			probe_bad(ctx, rec, "rtt_us on a failed probe");
			return;
		}
	}
	result = rec->field[rc];
	if (!strcmp(result, "ok")) {
		status = SAMPLE_OK;
		if (ingest_field_double(rec->field[2], rec->flen[2], &ms) ||
		    ms < 0) {
			probe_bad(ctx, rec, "ok without a valid connect_ms");
			return;
		}
	} else if (!strcmp(result, "timeout")) {
		status = SAMPLE_TIMEOUT;
	} else if (!strcmp(result, "refused")) {
		status = SAMPLE_REFUSED;
	} else if (!strcmp(result, "unreachable")) {
		status = SAMPLE_UNREACHABLE;
	} else if (!strncmp(result, "error:", 6) &&
	    probe_errname_ok(result + 6, rec->flen[rc] - 6)) {
		status = SAMPLE_ERROR;
	} else {
		probe_bad(ctx, rec, "unknown result");
		return;
	}
	/* pathprobe numbers its probes 0, 1, 2 ...: a seq that does not
	 * grow is a repeated row (a file concatenated with itself, a
	 * collector restarted into it) and would count twice */
	if (ctx->have_base && seq <= ctx->last_seq) {
		if (!ctx->ndup++)
			ctx->dup_line = rec->line;
		return;
	}
	if (ctx->have_base && ns < ctx->last_ns && !ctx->nback++)
		ctx->back_line = rec->line;
	ctx->last_seq = seq;
	ctx->last_ns = ns;
	if (!ctx->have_base) {
		ctx->have_base = true;
		ctx->base_ns = ns;
	}
	/* Both positive, so the difference cannot overflow. */
	parsed_run_add_sample(ctx->run, METRIC_CONNECT_MS,
	    (ns - ctx->base_ns) / 1000, ms, status);
	/* Every probe gets a handshake_ms row, so the figure's failures
	 * show beside it: a failed probe's status, or "unmeasured" for an
	 * ok one without rtt_us (its SYN was retransmitted, Karn's rule).
	 * probe_drop_handshake() removes them again from a file without
	 * any rtt_us (a platform with no such figure). */
	if (ctx->ncols == 5) {
		if (rtt > 0)
			ctx->nrtt++;
		parsed_run_add_sample(ctx->run, METRIC_HANDSHAKE_MS,
		    (ns - ctx->base_ns) / 1000, rtt > 0 ? (double)rtt /
		    1000.0 : NAN, rtt > 0 ? SAMPLE_OK : status == SAMPLE_OK ?
		    SAMPLE_UNMEASURED : status);
	}
	if (status == SAMPLE_ERROR)
		parsed_run_add_count(ctx->run, "error", result + 6, 1);
	if (status != SAMPLE_OK)
		ctx->run->failures++;
	ctx->rows++;
}

/*
 * Leading lines before the column header: blank lines and comments, the
 * first "# pathprobe" one being the header comment.  Sets *off to the
 * first other line and *line to its number; returns 0, or -1 (with the
 * rejection in res) for a header comment of another format version.
 */
static int
probe_preamble(const char *buf, size_t len, struct probe_header *h,
    size_t *off, size_t *line, struct parse_result *res)
{
	struct lines it;
	const char *p;
	size_t n;

	*line = 1;
	lines_init(&it, buf, len);
	lines_skip_bom(&it);
	while (lines_next(&it, &p, &n)) {
		while (n && is_blank(p[n - 1]))
			n--;
		if (n && p[0] != '#') {
			*off = (size_t)(p - buf);	/* the data starts here */
			return 0;
		}
		if (!h->seen && n >= 11 && !memcmp(p, "# pathprobe", 11) &&
		    (n == 11 || is_blank(p[11])) &&
		    probe_parse_header(p + 11, n - 11, h, res)) {
			parse_reject(res, "unsupported pathprobe output: "
			    "'%.*s'", (int)(n > 40 ? 40 : n), p);
			return -1;
		}
		(*line)++;
	}
	*off = len;
	return 0;
}

/* A format 2 file none of whose rows has an rtt_us: pathprobe ran where
 * the kernel gives no such figure (or every probe failed), so the run
 * has no handshake_ms at all rather than only failed ones. */
static void
probe_drop_handshake(struct parsed_run *run)
{
	size_t i, n = 0;

	for (i = 0; i < run->nsamples; i++)
		if (run->samples[i].metric != METRIC_HANDSHAKE_MS)
			run->samples[n++] = run->samples[i];
	run->nsamples = n;
	run->next_seq[METRIC_HANDSHAKE_MS] = 0;
}

/*
 * One run per file.  Tags stay empty (they come from meta.json and the
 * layout); target and addr are not numbers, so they are not summaries
 * either.  Rows with a bad field are skipped and reported; a file with
 * no valid row is rejected.
 */
int
ingest_parse_pathprobe(const char *buf, size_t len, struct parse_result *res)
{
	struct probe_header h = { false, 0, -1, -1, -1, -1, STARTED_UNKNOWN };
	struct probe_ctx ctx;
	struct strbuf why = STRBUF_INIT;
	struct parsed_run *run;
	size_t off, line, records;
	int stopped, ret = -1;

	memset(&ctx, 0, sizeof(ctx));
	if (probe_preamble(buf, len, &h, &off, &line, res))
		goto cleanup;
	run = parse_result_add_run(res, PROBE_TOOL, METRIC_CONNECT_MS);
	ctx.run = run;
	snprintf(res->tool_version, sizeof(res->tool_version), "pathprobe %d",
	    h.version ? h.version : 1);
	stopped = ingest_csv_each(buf + off, len - off, line, NULL,
	    probe_record, &ctx, &why);
	if (ctx.state != PROBE_ROWS) {
		parse_result_release(res);	/* rejected: no runs */
		parse_reject(res, "not pathprobe output: no '%s' (format 1) "
		    "or '%s' (format 2) header line", PROBE_COLUMNS,
		    PROBE_COLUMNS2);
		goto cleanup;
	}
	/* The columns say which format the rows are in. */
	snprintf(res->tool_version, sizeof(res->tool_version), "pathprobe %d",
	    ctx.ncols == 5 ? 2 : 1);
	if (h.version && h.version != (ctx.ncols == 5 ? 2 : 1))
		parsed_run_mark_partial(run, "the comment says format %d "
		    "but the columns are format %d's", h.version,
		    ctx.ncols == 5 ? 2 : 1);
	if (ctx.rows == 0) {
		parse_result_release(res);
		if (ctx.bad)
			parse_reject(res, "no valid probe row: %zu bad (first "
			    "at %s)", ctx.bad, ctx.first_bad);
		else if (ctx.cut_line)
			parse_reject(res, "no valid probe row: only a cut "
			    "line %zu", ctx.cut_line);
		else
			parse_reject(res, "no probe rows after the header");
		goto cleanup;
	}
	if (ctx.nrtt == 0)
		probe_drop_handshake(run);
	run->attempts = (int64_t)ctx.rows;
	if (h.start != STARTED_UNKNOWN)
		run->started_at = h.start;
	else	/* rows > 0, so base_ns is set */
		run->started_at = ctx.base_ns / 1000000000;
	if (h.timeout_s >= 0)
		parsed_run_add_summary(run, "connect_ms", "timeout_s",
		    h.timeout_s, "tool");
	if (h.interval_s >= 0)
		parsed_run_add_summary(run, "connect_ms", "interval_s",
		    h.interval_s, "tool");
	if (h.count >= 0)
		parsed_run_add_summary(run, "connect_ms", "count",
		    (double)h.count, "tool");
	/* 1: each connect_ms holds a DNS lookup (check's busy-client
	 * leaves such runs alone). */
	if (h.resolve_each >= 0)
		parsed_run_add_summary(run, "connect_ms", "resolve_each",
		    (double)h.resolve_each, "tool");

	if (ctx.ndup)
		parsed_run_mark_partial(run, "skipped %zu row%s whose seq "
		    "repeats or goes back (first at line %zu): counted once",
		    ctx.ndup, ctx.ndup == 1 ? "" : "s", ctx.dup_line);
	if (ctx.nback)
		parsed_run_mark_partial(run, "unix_ns goes back at %zu row%s "
		    "(first at line %zu): the clock stepped; times since the "
		    "start may be negative", ctx.nback, ctx.nback == 1 ? "" :
		    "s", ctx.back_line);
	if (ctx.bad)
		parsed_run_mark_partial(run, "skipped %zu bad row%s of %zu "
		    "(first at %s)", ctx.bad, ctx.bad == 1 ? "" : "s",
		    ctx.bad + ctx.rows, ctx.first_bad);
	if (ctx.cut_line)
		parsed_run_mark_partial(run, "last line %zu cut short",
		    ctx.cut_line);
	if (stopped)
		parsed_run_mark_partial(run, "rest of the file ignored: %s",
		    why.buf);
	records = ctx.rows + ctx.bad;
	if (h.count > 0 && (size_t)h.count > records)
		parsed_run_mark_partial(run, "interrupted: %zu of %lld probes",
		    records, (long long)h.count);
	else if (h.count > 0 && (size_t)h.count < records)
		parsed_run_mark_partial(run, "%zu probes but the header says "
		    "count=%lld", records, (long long)h.count);
	if (run->partial)
		parse_result_mark_partial(res, "%s", run->reason.buf);
	ret = 0;
cleanup:
	strbuf_release(&why);
	return ret;
}
