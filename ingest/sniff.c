/*
 * sniff.c - decide a file's kind from its content, never from its name
 * (except meta.json sidecars).  Tolerates what captured output carries
 * before the document: a BOM, "^C" or escape sequences, stderr lines.
 */
#include "common/compat.h"

#include <string.h>

#include "common/lines.h"
#include "ingest/internal.h"

#define SNIFF_WINDOW	65536	/* bytes looked at; markers sit near the top */
#define JUNK_WINDOW	16384	/* how far junk before a '{' may reach */

static const char *
find_n(const char *hay, size_t len, const char *needle)
{
	size_t nlen = strlen(needle);
	const char *p = hay, *end = hay + len;

	if (nlen == 0 || len < nlen)
		return NULL;
	while ((p = memchr(p, needle[0], (size_t)(end - p))) != NULL) {
		if ((size_t)(end - p) < nlen)
			return NULL;
		if (!memcmp(p, needle, nlen))
			return p;
		p++;
	}
	return NULL;
}

/* The first line that is not blank, a BOM or a comment other than
 * "# pathprobe": returns its start and sets *llen. */
static const char *
first_data_line(const char *buf, size_t len, size_t *llen, bool skip_comments)
{
	const char *p;
	struct lines it;
	size_t n;

	lines_init(&it, buf, len);
	lines_skip_bom(&it);
	while (lines_next(&it, &p, &n)) {
		if (n == 0 || (skip_comments && p[0] == '#'))
			continue;
		*llen = n;
		return p;
	}
	return NULL;
}

static bool
line_is(const char *line, size_t n, const char *want)
{
	return n == strlen(want) && !memcmp(line, want, n);
}

/* Is key (with its quotes) present as a key whose value starts with one
 * of the characters in first?  Tells a result ("successRate": 1.0) from
 * a JSON Schema describing one ("successRate": {"type": ...}). */
static bool
key_with_value(const char *buf, size_t len, const char *key, const char *first)
{
	const char *p = buf, *end = buf + len;

	while ((p = find_n(p, (size_t)(end - p), key)) != NULL) {
		const char *q = p + strlen(key);

		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' ||
		    *q == '\n'))
			q++;
		if (q < end && *q == ':') {
			q++;
			while (q < end && (*q == ' ' || *q == '\t' ||
			    *q == '\r' || *q == '\n'))
				q++;
			if (q < end && strchr(first, *q))
				return true;
		}
		p++;
	}
	return false;
}

static enum ingest_kind
sniff_json(const char *brace, size_t len)
{
	size_t n = len < SNIFF_WINDOW ? len : SNIFF_WINDOW;
	const char *p = brace + 1, *end = brace + n;

	/* iperf3 --json-stream: compact objects, "event" first. */
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) >= 8 && !memcmp(p, "\"event\"", 7))
		return KIND_IPERF3_STREAM;
	/* The first key tells a document cut short after a few bytes:
	 * iperf3 always writes "start" first, oha "summary". */
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if ((size_t)(end - p) >= 7 && !memcmp(p, "\"start\"", 7))
		return KIND_IPERF3_JSON;
	if ((size_t)(end - p) >= 9 && !memcmp(p, "\"summary\"", 9))
		return KIND_OHA_JSON;
	if (find_n(brace, n, "\"intervals\"") ||
	    (find_n(brace, n, "\"start\"") && find_n(brace, n, "\"connected\"")))
		return KIND_IPERF3_JSON;
	if (find_n(brace, n, "\"summary\"") &&
	    (key_with_value(brace, n, "\"successRate\"", "-0123456789n") ||
	    key_with_value(brace, n, "\"total\"", "-0123456789")))
		return KIND_OHA_JSON;
	return KIND_UNKNOWN;
}

enum ingest_kind
ingest_sniff(const char *name, const char *buf, size_t len)
{
	size_t window = len < SNIFF_WINDOW ? len : SNIFF_WINDOW;
	const char *line, *brace;
	size_t llen;
	enum ingest_kind k;

	if (name && !strcmp(name, "meta.json"))
		return KIND_META;
	if (len >= 16 && !memcmp(buf, "SQLite format 3", 16)) {
		/* sqlite_master keeps the CREATE text on the first pages. */
		if (find_n(buf, window, "TABLE oha") ||
		    find_n(buf, window, "TABLE IF NOT EXISTS oha"))
			return KIND_OHA_SQLITE;
		return KIND_UNKNOWN;
	}
	if (memchr(buf, '\0', window))
		return KIND_UNKNOWN;	/* binary, not ours */

	line = first_data_line(buf, window, &llen, false);
	if (line && llen >= 11 && !memcmp(line, "# pathprobe", 11))
		return KIND_PATHPROBE_CSV;
	/* pathprobe --mtu: "mtu=8500 target=... method=udp-df ..." */
	if (line && llen >= 4 && !memcmp(line, "mtu=", 4) &&
	    (find_n(line, llen, " method=") || find_n(line, llen,
	    " route_mtu=")))
		return KIND_PATHPROBE_MTU;
	line = first_data_line(buf, window, &llen, true);
	if (line && (line_is(line, llen, "seq,unix_ns,connect_ms,result") ||
	    line_is(line, llen, "seq,unix_ns,connect_ms,rtt_us,result")))
		return KIND_PATHPROBE_CSV;
	if (line && (line_is(line, llen, "request-start,DNS,DNS+dialup,"
	    "Response-delay,request-duration,bytes,status") ||
	    line_is(line, llen, "request-start,DNS,DNS+dialup,"
	    "request-duration,bytes,status")))
		return KIND_OHA_CSV;

	brace = memchr(buf, '{', window < JUNK_WINDOW ? window : JUNK_WINDOW);
	if (brace) {
		k = sniff_json(brace, len - (size_t)(brace - buf));
		if (k != KIND_UNKNOWN)
			return k;
	}
	if (find_n(buf, window, "Usage: iperf3 [-s|-c host]") ||
	    find_n(buf, window, "iperf3: parameter error"))
		return KIND_IPERF3_USAGE;
	return KIND_UNKNOWN;
}
