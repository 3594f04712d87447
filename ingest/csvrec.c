/*
 * csvrec.c - CSV records on top of libcsv for the ingest parsers (oha
 * CSV, pathprobe): line numbers for messages, bounded field growth, and
 * number parsing that is exact and fast enough for millions of rows.
 * Plain lines (no quotes, CR, blanks or tabs) are split here without
 * libcsv, which was most of a CSV parse; t-csvrec checks the two agree.
 */
#include "common/compat.h"

#include <csv.h>
#include <string.h>

#include "common/lines.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "ingest/csvrec.h"

#define CSV_BLOCK	65536	/* libcsv grows a field buffer by this */

struct csv_state {
	csv_field_fn	field_fn;	/* caller's field callback or NULL */
	csv_rec_fn	rec_fn;		/* the caller's record callback */
	void		*data;		/* their argument */
	char		*rbuf;		/* kept fields, NUL-separated */
	size_t		rlen, ralloc;	/* bytes used / allocated in rbuf */
	char		*fbuf;		/* the fast path's field, NUL added */
	size_t		falloc;		/* bytes allocated in fbuf */
	size_t		off[CSV_REC_MAX_FIELDS];	/* offsets in rbuf */
	size_t		flen[CSV_REC_MAX_FIELDS];	/* field lengths */
	size_t		nfields;	/* fields seen in this record */
	size_t		line;		/* line the parser has reached */
	size_t		rec_line;	/* line where this record began */
	int		prev_term;	/* previous record's terminator */
	bool		quotes;		/* fields may span lines */
};

/*
 * libcsv grows a field's buffer through this: refusing past CSV_FIELD_MAX
 * makes csv_parse() stop with CSV_ENOMEM, so a hostile field cannot take
 * all memory.  Below the cap a failure is a real OOM, which xrealloc()
 * treats as fatal like everywhere else.
 */
static void *
csv_realloc_capped(void *p, size_t n)
{
	if (n > (size_t)CSV_FIELD_MAX + 1)
		return NULL;
	return xrealloc(p, n);
}

/* Field i of the record: to the caller's field callback, or kept.  s is
 * NUL-terminated. */
static void
take_field(struct csv_state *st, const char *s, size_t n)
{
	size_t i = st->nfields;

	if (i == 0)
		st->rec_line = st->line;
	if (st->field_fn) {
		st->field_fn(i, s, n, st->data);
	} else if (i < CSV_REC_MAX_FIELDS) {
		ALLOC_GROW(st->rbuf, st->rlen + n + 1, st->ralloc);
		memcpy(st->rbuf + st->rlen, s, n);
		st->rbuf[st->rlen + n] = '\0';
		st->off[i] = st->rlen;
		st->flen[i] = n;
		st->rlen += n + 1;
	}
	st->nfields++;
	/* Quoted line breaks inside the field still move the line count. */
	if (st->quotes)
		st->line += lines_count(s, n);
}

static void
on_field(void *f, size_t n, void *v)
{
	take_field(v, f ? f : "", n);
}

/* c is the terminator ('\r' or '\n'), or -1 for a last line without one. */
static void
on_record(int c, void *v)
{
	struct csv_state *st = v;
	struct csv_rec rec;
	size_t i, kept;

	if (st->nfields == 0) {
		/* A blank line, or the LF of a CRLF pair. */
		if (!(c == '\n' && st->prev_term == '\r'))
			st->line++;
		st->prev_term = c;
		return;
	}
	kept = st->field_fn ? 0 : st->nfields < CSV_REC_MAX_FIELDS ?
	    st->nfields : CSV_REC_MAX_FIELDS;
	for (i = 0; i < kept; i++) {
		rec.field[i] = st->rbuf + st->off[i];
		rec.flen[i] = st->flen[i];
	}
	rec.nfields = st->nfields;
	rec.line = st->rec_line;
	rec.terminated = c != -1;
	st->rec_fn(&rec, st->data);
	if (c != -1)
		st->line++;
	st->prev_term = c;
	st->nfields = 0;
	st->rlen = 0;
}

/*
 * What a byte is to the fast path (csv_fast()).  ODD: one libcsv gives
 * a meaning of its own (a quote, CR, the blank and tab it trims from an
 * unquoted field) or NUL, which is rare enough to leave to it too.
 */
enum { CSV_B_PLAIN = 0, CSV_B_COMMA, CSV_B_LF, CSV_B_ODD };

static const unsigned char csv_byte[256] = {
	['\0'] = CSV_B_ODD, ['\t'] = CSV_B_ODD, ['\n'] = CSV_B_LF,
	['\r'] = CSV_B_ODD, [' '] = CSV_B_ODD, ['"'] = CSV_B_ODD,
	[','] = CSV_B_COMMA,
};

/* Most commas a line may have for the fast path, and longest line:
 * well inside libcsv's first field buffer, so that it would not have
 * refused any of its fields either. */
#define CSV_FAST_COMMAS	64
#define CSV_FAST_LINE	(CSV_BLOCK / 2)

/*
 * The well-formed common case without libcsv: lines of plain bytes
 * (csv_byte[]), split at commas, ended by LF.  Gives the records, as
 * libcsv would, up to the first line it cannot take (an ODD byte, more
 * than CSV_FAST_COMMAS commas or CSV_FAST_LINE bytes) and returns where
 * that line starts, len when it took all; st is then as libcsv would
 * have left it at that line's start, so libcsv can go on from there.
 */
static size_t
csv_fast(const char *buf, size_t len, struct csv_state *st)
{
	const unsigned char *u = (const unsigned char *)buf;
	size_t comma[CSV_FAST_COMMAS + 1];
	size_t start = 0, i, k, ncomma, from, n;
	unsigned char b = CSV_B_PLAIN;

	while (start < len) {
		ncomma = 0;
		for (i = start; i < len; i++) {
			b = csv_byte[u[i]];
			if (b == CSV_B_PLAIN)
				continue;
			if (b != CSV_B_COMMA)
				break;
			if (ncomma == CSV_FAST_COMMAS)
				return start;
			comma[ncomma++] = i;
		}
		if ((i < len && b == CSV_B_ODD) || i - start > CSV_FAST_LINE)
			return start;
		if (i == start) {
			on_record('\n', st);	/* a blank line */
			start = i + 1;
			continue;
		}
		comma[ncomma] = i;
		for (k = 0, from = start; k <= ncomma; k++) {
			n = comma[k] - from;
			ALLOC_GROW(st->fbuf, n + 1, st->falloc);
			memcpy(st->fbuf, buf + from, n);
			st->fbuf[n] = '\0';
			take_field(st, st->fbuf, n);
			from = comma[k] + 1;
		}
		on_record(i < len ? '\n' : -1, st);
		start = i + 1;
	}
	return len;
}

/* libcsv on buf[0..len), st set up and maybe advanced by csv_fast(). */
static int
csv_full(const char *buf, size_t len, struct csv_state *st,
    struct strbuf *why)
{
	struct csv_parser p;
	size_t done;
	int ret = 0;

	st->quotes = len && memchr(buf, '"', len) != NULL;
	if (csv_init(&p, CSV_APPEND_NULL | CSV_REPALL_NL))
		return -1;	/* only fails for a NULL parser */
	csv_set_realloc_func(&p, csv_realloc_capped);
	csv_set_blk_size(&p, CSV_BLOCK);

	done = csv_parse(&p, buf, len, on_field, on_record, st);
	if (done < len) {
		if (csv_error(&p) == CSV_ENOMEM)
			strbuf_addf(why, "field longer than %u bytes at line "
			    "%zu", CSV_FIELD_MAX, st->line);
		else
			strbuf_addf(why, "CSV error at line %zu: %s", st->line,
			    csv_strerror(csv_error(&p)));
		ret = -1;
		goto cleanup;
	}
	if (csv_fini(&p, on_field, on_record, st)) {
		strbuf_addf(why, "CSV error at end of input: %s",
		    csv_strerror(csv_error(&p)));
		ret = -1;
	}
cleanup:
	csv_free(&p);		/* frees libcsv's field buffer */
	return ret;
}

static int
csv_each(const char *buf, size_t len, size_t first_line,
    csv_field_fn field_fn, csv_rec_fn rec_fn, void *data,
    struct strbuf *why, bool fast)
{
	struct csv_state st;
	size_t off = 0;
	int ret = 0;

	memset(&st, 0, sizeof(st));
	st.field_fn = field_fn;
	st.rec_fn = rec_fn;
	st.data = data;
	st.line = first_line;
	if (fast)
		off = csv_fast(buf, len, &st);
	if (off < len)
		ret = csv_full(buf + off, len - off, &st, why);
	free(st.rbuf);
	free(st.fbuf);
	return ret;
}

int
ingest_csv_each(const char *buf, size_t len, size_t first_line,
    csv_field_fn field_fn, csv_rec_fn rec_fn, void *data,
    struct strbuf *why)
{
	return csv_each(buf, len, first_line, field_fn, rec_fn, data, why,
	    true);
}

int
ingest_csv_each_full(const char *buf, size_t len, size_t first_line,
    csv_field_fn field_fn, csv_rec_fn rec_fn, void *data,
    struct strbuf *why)
{
	return csv_each(buf, len, first_line, field_fn, rec_fn, data, why,
	    false);
}

/* 10^0 .. 10^22 are exact in a double. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#define EXACT_MANT_MAX	(UINT64_C(1) << 53)

/* strtod through parse_double_n(), refusing an embedded NUL it would
 * silently stop at. */
static int
field_double_slow(const char *s, size_t len, double *out)
{
	if (memchr(s, '\0', len))
		return -1;
	return parse_double_n(s, len, out);
}

/* Accumulate the decimal digits at *pp into *m; returns how many. */
static inline size_t
scan_digits(const char **pp, const char *end, uint64_t *m)
{
	const char *p = *pp;
	uint64_t v = *m;
	unsigned int d;
	size_t n;

	for (; p < end; p++) {
		d = (unsigned int)(unsigned char)*p - '0';
		if (d >= 10)
			break;
		v = v * 10 + d;	/* wraps past 19 digits: caller checks */
	}
	*m = v;
	n = (size_t)(p - *pp);
	*pp = p;
	return n;
}

/*
 * Clinger's fast path: a mantissa below 2^53 and a power of ten up to
 * 10^22 are both exact, so one IEEE division rounds correctly and gives
 * strtod's result.  At most 19 digits cannot overflow m.  Returns 0 and
 * sets *m, *frac, *neg for a plain decimal, -1 for anything else (long
 * mantissas, exponents, "inf", junk), which the callers hand to strtod.
 */
static inline int
plain_decimal(const char *s, size_t len, uint64_t *m, size_t *frac,
    bool *neg)
{
	const char *p = s, *end = s + len;
	size_t ndigits;

	*m = 0;
	*frac = 0;
	*neg = false;
	if (p < end && (*p == '-' || *p == '+')) {
		*neg = *p == '-';
		p++;
	}
	ndigits = scan_digits(&p, end, m);
	if (p < end && *p == '.') {
		p++;
		*frac = scan_digits(&p, end, m);
		ndigits += *frac;
	}
	if (p != end || ndigits == 0 || ndigits > 19 || *m > EXACT_MANT_MAX)
		return -1;
	return 0;
}

int
ingest_field_double(const char *s, size_t len, double *out)
{
	uint64_t m;
	size_t frac;
	bool neg;
	double v;

	if (plain_decimal(s, len, &m, &frac, &neg))
		return field_double_slow(s, len, out);
	v = (double)m / pow10_exact[frac];
	*out = neg ? -v : v;
	return 0;
}

int
ingest_field_nonneg(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	bool neg = false, dot = false, digits = false, nonzero = false;
	double v;

	/* A plain decimal of any length is finite: only its sign
	 * matters, so scan without converting. */
	if (p < end && (*p == '-' || *p == '+')) {
		neg = *p == '-';
		p++;
	}
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			digits = true;
			nonzero |= *p != '0';
		} else if (*p == '.' && !dot) {
			dot = true;
		} else {
			break;
		}
	}
	if (p == end && digits)
		return neg && nonzero ? -1 : 0;
	return field_double_slow(s, len, &v) || v < 0 ? -1 : 0;
}

int
ingest_field_int64(const char *s, size_t len, int64_t *out)
{
	const char *p = s, *end = s + len;
	char tmp[32];
	int64_t v = 0;
	size_t digits = 0;
	bool neg = false;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	for (; p < end; p++) {
		unsigned int d = (unsigned int)(unsigned char)*p - '0';

		if (d >= 10)
			return -1;
		if (++digits > 18)
			break;
		v = v * 10 + (int64_t)d;
	}
	if (digits == 0)
		return -1;
	if (digits <= 18) {
		*out = neg ? -v : v;
		return 0;
	}
	/* 19 digits or more: let strtoll decide about overflow. */
	if (len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	return parse_int64(tmp, out);
}
