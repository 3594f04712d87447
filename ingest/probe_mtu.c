/*
 * probe_mtu.c - parser for `pathprobe --mtu` output (pathstat-collect
 * keeps it as mtu/mtu.txt): one line of key=value pairs,
 *
 *   mtu=8500 target=10.1.0.5:33434 addr=10.1.0.5 route_mtu=9001 probes=4
 *       method=udp-df start=2026-08-28T01:02:03Z
 *   mtu=unknown ... reason=no-answer
 *
 * becomes one run of the metric path_mtu: one sample (the MTU in bytes,
 * or no value with the status "unmeasured"), the route MTU and the
 * number of datagrams as tool summaries, and the rest as the run's MTU
 * result (struct parsed_mtu), where an unknown MTU keeps its reason.
 */
#include "common/compat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/lines.h"
#include "common/xalloc.h"
#include "ingest/csvrec.h"
#include "ingest/internal.h"

#define MTU_TOOL	"pathprobe"
#define MTU_MIN		68	/* the smallest MTU IPv4 allows */
#define MTU_MAX		65535	/* the largest IP packet */
#define MTU_TEXT_MAX	255	/* longest target, addr, method or reason */

/* What the reason= tokens pathprobe writes mean, in words. */
static const struct {
	const char	*token;
	const char	*words;
} mtu_reasons[] = {
	{ "no-answer", "no answer to UDP probes with the DF bit set (UDP or "
	    "ICMP filtered on the way; an NLB behind PrivateLink forwards no "
	    "ICMP)" },
	{ "error:EHOSTUNREACH", "host unreachable: a router or the host "
	    "answered EHOSTUNREACH" },
	{ "error:ENETUNREACH", "network unreachable: a router answered "
	    "ENETUNREACH" },
	{ "error:EACCES", "administratively prohibited: a router or "
	    "firewall answered EACCES" },
};

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Printable ASCII without blanks: what a token of the line may hold. */
static bool
token_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > MTU_TEXT_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return false;
	return true;
}

/* reason= token to words; the caller frees the result. */
static char *
reason_words(const char *tok, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mtu_reasons); i++)
		if (strlen(mtu_reasons[i].token) == len &&
		    !memcmp(mtu_reasons[i].token, tok, len))
			return xstrdup(mtu_reasons[i].words);
	if (len > 6 && !memcmp(tok, "error:", 6))
		return xasprintf("the probes were answered with %.*s",
		    (int)(len - 6), tok + 6);
	return xasprintf("pathprobe said: %.*s", (int)len, tok);
}

/* The first line that is not blank (after a BOM); *llen its length
 * without CR.  *more: another non-blank line follows. */
static const char *
mtu_line(const char *buf, size_t len, size_t *llen, bool *more)
{
	const char *p, *line = NULL;
	struct lines it;
	size_t n;

	*more = false;
	lines_init(&it, buf, len);
	lines_skip_bom(&it);
	while (lines_next(&it, &p, &n)) {
		while (n && is_blank(p[n - 1]))
			n--;
		if (n) {
			if (line) {
				*more = true;
				break;
			}
			line = p;
			*llen = n;
		}
	}
	return line;
}

/* Say why key's value is bad; returns -1. */
static int
bad_value(const char *key, size_t klen, const char *val, size_t vlen,
    struct strbuf *why)
{
	size_t i;

	/* the key matched a known name, so it is printable; the value
	 * may hold anything: shown with '?' for what is not */
	strbuf_addf(why, "bad %.*s value '", (int)klen, key);
	for (i = 0; i < vlen && i < 40; i++)
		strbuf_addch(why, val[i] >= ' ' && val[i] <= '~' ? val[i] :
		    '?');
	strbuf_addch(why, '\'');
	return -1;
}

/* Parse an integer in [lo, hi]; 0 or -1. */
static int
int_in(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *out)
{
	int64_t v;

	if (ingest_field_int64(s, len, &v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/*
 * One key=value of the line into mtu (and *started); *have_mtu says
 * whether mtu= was read.  Returns 0, or -1 with a message in why for a
 * known key with a bad value or a key given twice.
 */
static int
mtu_pair(const char *key, size_t klen, const char *val, size_t vlen,
    struct parsed_mtu *mtu, bool *have_mtu, int64_t *started,
    struct strbuf *why)
{
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(key, k, klen))
	char **text = NULL;

	if (KEY("mtu")) {
		if (*have_mtu)
			goto twice;
		if (vlen == 7 && !memcmp(val, "unknown", 7)) {
			mtu->found = false;
		} else if (!int_in(val, vlen, MTU_MIN, MTU_MAX, &mtu->mtu)) {
			mtu->found = true;
		} else {
			goto bad;
		}
		*have_mtu = true;
		return 0;
	}
	if (KEY("route_mtu")) {
		if (mtu->route_mtu >= 0)
			goto twice;
		return int_in(val, vlen, MTU_MIN, MTU_MAX, &mtu->route_mtu) ?
		    bad_value(key, klen, val, vlen, why) : 0;
	}
	if (KEY("probes")) {
		if (mtu->probes >= 0)
			goto twice;
		return int_in(val, vlen, 0, INT32_MAX, &mtu->probes) ?
		    bad_value(key, klen, val, vlen, why) : 0;
	}
	if (KEY("start")) {
		if (*started != STARTED_UNKNOWN)
			goto twice;
		return ingest_parse_utc(val, vlen, started) ?
		    bad_value(key, klen, val, vlen, why) : 0;
	}
	if (KEY("method"))
		text = &mtu->method;
	else if (KEY("target"))
		text = &mtu->target;
	else if (KEY("addr"))
		text = &mtu->addr;
	else if (KEY("reason"))
		text = &mtu->reason;
	if (!text)
		return 0;	/* a key of a later pathprobe */
	if (*text)
		goto twice;
	if (!token_ok(val, vlen))
		goto bad;
	*text = text == &mtu->reason ? reason_words(val, vlen) :
	    xstrndup(val, vlen);
	return 0;
bad:
	return bad_value(key, klen, val, vlen, why);
twice:
	strbuf_addf(why, "'%.*s' given twice", (int)klen, key);
	return -1;
#undef KEY
}

/*
 * One run per file; a line without a valid mtu= is rejected, a bad value
 * of another known key is left out and the file marked partial.
 */
int
ingest_parse_pathprobe_mtu(const char *buf, size_t len,
    struct parse_result *res)
{
	struct strbuf why = STRBUF_INIT, notes = STRBUF_INIT;
	struct parsed_mtu *mtu;
	struct parsed_run *run;
	const char *line, *p, *end;
	int64_t started = STARTED_UNKNOWN;
	bool more, have_mtu = false;
	size_t llen = 0;
	int ret = -1;

	line = mtu_line(buf, len, &llen, &more);
	if (!line)
		return parse_reject(res, "empty pathprobe --mtu output");
	mtu = xcalloc(1, sizeof(*mtu));
	mtu->route_mtu = mtu->probes = -1;
	for (p = line, end = line + llen; p < end;) {
		const char *tok, *eq;
		size_t k;

		while (p < end && is_blank(*p))
			p++;
		if (p == end)
			break;
		tok = p;
		while (p < end && !is_blank(*p))
			p++;
		eq = memchr(tok, '=', (size_t)(p - tok));
		strbuf_reset(&why);
		if (!eq) {
			strbuf_addf(&notes, "%snot a key=value pair: '",
			    notes.len ? "; " : "");
			for (k = 0; tok + k < p && k < 40; k++)
				strbuf_addch(&notes, tok[k] >= ' ' &&
				    tok[k] <= '~' ? tok[k] : '?');
			strbuf_addch(&notes, '\'');
			continue;
		}
		if (!mtu_pair(tok, (size_t)(eq - tok), eq + 1,
		    (size_t)(p - eq - 1), mtu, &have_mtu, &started, &why))
			continue;
		if (eq - tok == 3 && !memcmp(tok, "mtu", 3)) {
			/* the result itself is unreadable or ambiguous */
			parse_reject(res, "pathprobe --mtu output: %s",
			    why.buf);
			goto cleanup;
		}
		strbuf_addf(&notes, "%s%s (left out)", notes.len ? "; " : "",
		    why.buf);
	}
	if (!have_mtu) {
		parse_reject(res, "pathprobe --mtu output without 'mtu='");
		goto cleanup;
	}
	if (!mtu->found && !mtu->reason)
		mtu->reason = xstrdup("no reason recorded (an older pathprobe "
		    "wrote none; its stderr.txt may say)");
	if (mtu->found && mtu->reason) {
		free(mtu->reason);
		mtu->reason = NULL;
		strbuf_addf(&notes, "%sa reason beside a measured MTU (left "
		    "out)", notes.len ? "; " : "");
	}
	if (!mtu->method)
		mtu->method = xstrdup("not recorded");
	if (more)
		strbuf_addf(&notes, "%slines after the first ignored",
		    notes.len ? "; " : "");
	snprintf(res->tool_version, sizeof(res->tool_version),
	    "pathprobe --mtu");
	run = parse_result_add_run(res, MTU_TOOL, METRIC_PATH_MTU);
	run->started_at = started;
	run->attempts = 1;
	run->failures = mtu->found ? 0 : 1;
	parsed_run_add_sample(run, METRIC_PATH_MTU, 0, mtu->found ?
	    (double)mtu->mtu : NAN, mtu->found ? SAMPLE_OK :
	    SAMPLE_UNMEASURED);
	if (mtu->route_mtu >= 0)
		parsed_run_add_summary(run, "mtu", "route_mtu",
		    (double)mtu->route_mtu, "tool");
	if (mtu->probes >= 0)
		parsed_run_add_summary(run, "mtu", "probes",
		    (double)mtu->probes, "tool");
	if (notes.len)
		parsed_run_mark_partial(run, "%s", notes.buf);
	run->mtu = mtu;
	mtu = NULL;
	ret = 0;
cleanup:
	if (mtu) {
		free(mtu->method);
		free(mtu->reason);
		free(mtu->target);
		free(mtu->addr);
		free(mtu);
	}
	strbuf_release(&why);
	strbuf_release(&notes);
	return ret;
}
