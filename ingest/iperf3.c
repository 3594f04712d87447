/*
 * iperf3.c - the iperf3 parser's entry point and its JSON walker: -J
 * documents (iperf 3.0-3.22, client or server side, possibly wrapped in
 * terminal junk, cut short or several to a file) and --json-stream event
 * lines.  It finds the document, reads it whole or, when it is large or
 * broken, member by member and interval by interval, and hands what it
 * parsed to iperf3_data.c; iperf3_runs.c makes the runs.  Each test
 * becomes one run per direction, with one sample per reported interval
 * and iperf3's own end-of-test sums as tool summaries.
 */
#include "common/compat.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cJSON.h>

#include "common/lines.h"
#include "common/strbuf.h"
#include "ingest/internal.h"
#include "ingest/iperf3.h"

#define IPERF3_MAX_DOCS		1000	/* further documents or tests counted */
/* cJSON costs about 41 times the text it parses: a document
 * larger than IPERF3_TREE_MAX is read member by member and interval by
 * interval, and no one member may exceed IPERF3_PIECE_MAX, so a file
 * costs about twice its size, whatever it holds. */
#define IPERF3_TREE_MAX		((size_t)8 << 20)
#define IPERF3_PIECE_MAX	((size_t)16 << 20)

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
		iperf3_file_note(c, "file holds more than %zu "
		    "JSON documents; used the first, the rest not ingested",
		    ndocs + 1);
	else if (ndocs)
		iperf3_file_note(c, "file holds %zu JSON "
		    "documents; used the first, %zu more not ingested",
		    ndocs + 1, ndocs);
	if (junk)
		iperf3_file_note(c, "trailing text after the JSON document "
		    "ignored");
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
		iperf3_feed_interval(c, iv);
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
				iperf3_set_error(c, v);
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
		return iperf3_finish(c);
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
	return iperf3_finish(c);
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
			iperf3_set_error(c, ch);
	}
	if (!c->start && !intervals && !c->end && !c->error)
		return parse_reject(c->res, "JSON object is not an iperf3 "
		    "result (no start, intervals or end)");
	if (cJSON_IsArray(intervals)) {
		cJSON_ArrayForEach(iv, intervals)
			iperf3_feed_interval(c, iv);
	} else if (intervals) {
		c->intervals_not_array = true;
	}
	note_trailing(c, pe, end);
	return iperf3_finish(c);
}

/* ---- --json-stream ---------------------------------------------------- */

/*
 * --json-stream: one compact object per line.  Whatever follows the end
 * event is ignored: --json-stream-full-output (3.20+) appends the whole
 * -J document there, which repeats the events, so it needs no partial
 * mark.  Only a further start event (a second test) is counted.
 */
static int
parse_stream(struct iperf3_ctx *c, const char *p, const char *end)
{
	const char *line, *le, *q, *brace;
	size_t n, nbad = 0, njunk = 0, nnot_event = 0, nmore = 0;
	bool ended = false;
	struct lines it;
	cJSON *ev;

	lines_init(&it, p, (size_t)(end - p));
	while (lines_next(&it, &line, &n)) {
		le = line + n;
		q = skip_ws(line, le);
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
		ended = iperf3_take_event(c, ev, &nnot_event);
	}
	if (nbad)
		iperf3_file_note(c, "%zu unparseable line%s ignored", nbad,
		    nbad == 1 ? "" : "s");
	if (njunk + nnot_event)
		iperf3_file_note(c, "%zu non-event line%s ignored",
		    njunk + nnot_event, njunk + nnot_event == 1 ? "" : "s");
	if (nmore)
		iperf3_file_note(c, "file holds %s%zu iperf3 "
		    "tests; used the first, %zu more not ingested",
		    nmore >= IPERF3_MAX_DOCS ? "at least " : "", nmore + 1,
		    nmore);
	return iperf3_finish(c);
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
