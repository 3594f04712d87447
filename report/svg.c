/*
 * svg.c - gnuplot's SVG made fit to sit inside an HTML page (html.h):
 * one pass over the document as a stream of tags and text, re-emitting
 * only what a chart is drawn with.  Several charts share one page, so
 * every id gets the chart's prefix and so does every reference to one.
 * The page forbids scripts anyway (its Content-Security-Policy); this
 * is the first wall, not the only one.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "report/html.h"

/* Elements nest at most this deep. */
#define SVG_MAX_DEPTH	64
/* Longest element or attribute name. */
#define SVG_MAX_NAME	64

/* What a chart is drawn with; title and desc are dropped with their
 * content (a page gives the chart its own caption). */
static const char *const svg_elements[] = {
	"svg", "g", "defs", "path", "rect", "circle", "ellipse", "line",
	"polyline", "polygon", "text", "tspan", "use", "clipPath", "symbol",
	"marker", "linearGradient", "radialGradient", "stop", "pattern",
	"title", "desc",
	/* gnuplot's boxed labels; no filter that loads (feImage) */
	"filter", "feFlood", "feComposite", "feOffset", "feGaussianBlur",
	"feMerge", "feMergeNode", "feBlend", "feColorMatrix",
};

struct svg_ctx {
	const char	*p, *end;
	const char	*prefix;
	struct strbuf	*out;
	struct strbuf	*why;
	char		stack[SVG_MAX_DEPTH][SVG_MAX_NAME + 1];
	size_t		depth;
	size_t		skip;	/* inside a dropped element: its depth, or 0 */
	bool		root_done;
};

static int
fail(struct svg_ctx *c, const char *what)
{
	if (!c->why->len)
		strbuf_addstr(c->why, what);
	return -1;
}

static bool
is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static bool
is_name_char(char ch, bool first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    ch == '_' || ch == ':' || (!first && ((ch >= '0' && ch <= '9') ||
	    ch == '-' || ch == '.'));
}

static bool
starts_with(const struct svg_ctx *c, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(c->end - c->p) >= n && !memcmp(c->p, s, n);
}

static bool
starts_with_ci(const char *p, const char *end, const char *s)
{
	size_t i, n = strlen(s);

	if ((size_t)(end - p) < n)
		return false;
	for (i = 0; i < n; i++) {
		char a = p[i];

		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (a != s[i])
			return false;
	}
	return true;
}

/* Skip past the first occurrence of s; -1 when there is none. */
static int
skip_past(struct svg_ctx *c, const char *s, const char *what)
{
	size_t n = strlen(s);

	for (; c->p + n <= c->end; c->p++) {
		if (!memcmp(c->p, s, n)) {
			c->p += n;
			return 0;
		}
	}
	return fail(c, what);
}

/* A name at c->p into buf; -1 when there is none or it is too long. */
static int
read_name(struct svg_ctx *c, char *buf)
{
	size_t n = 0;

	if (c->p >= c->end || !is_name_char(*c->p, true))
		return fail(c, "a tag or attribute without a name");
	while (c->p < c->end && is_name_char(*c->p, false)) {
		if (n == SVG_MAX_NAME)
			return fail(c, "a name too long");
		buf[n++] = *c->p++;
	}
	buf[n] = '\0';
	return 0;
}

/* Append v, a coordinate in pixels, to a tenth of a pixel: "12.3",
 * "12", "-0.5". */
static void
add_coord(struct strbuf *out, long tenths)
{
	if (tenths < 0) {
		strbuf_addch(out, '-');
		tenths = -tenths;
	}
	strbuf_addf(out, "%ld", tenths / 10);
	if (tenths % 10)
		strbuf_addf(out, ".%ld", tenths % 10);
}

/* gnuplot writes a line as absolute "M x,y L x,y L x,y ..." with two
 * decimals, a step curve of an ECDF as thousands of them: append d
 * (v..vend) to out as the same line to a tenth of a pixel, a point that
 * repeats the last one left out, a segment along an axis as H or V.  A
 * third of the bytes, the same picture.  Z (a filled box's outline)
 * closes as before.  Returns false, out unchanged, for a d of anything
 * else (curves, relative moves): then it goes in as it is. */
static bool
compact_path(struct strbuf *out, const char *v, const char *vend)
{
	struct strbuf d = STRBUF_INIT;
	const char *p = v;
	long px = 0, py = 0, sx = 0, sy = 0;
	bool have = false;

	while (p < vend) {
		char cmd, *e;
		double x, y;
		long tx, ty;
		char num[32];
		size_t n;

		while (p < vend && (*p == ' ' || *p == '\t' || *p == '\n' ||
		    *p == '\r'))
			p++;
		if (p >= vend)
			break;
		cmd = *p++;
		if (cmd == 'Z') {
			/* back to the start of the line, which is drawn */
			strbuf_addch(&d, 'Z');
			px = sx;
			py = sy;
			continue;
		}
		if (cmd != 'M' && cmd != 'L')
			goto fail;
		n = strspn(p, "0123456789.-");
		if (!n || n >= sizeof(num) || p + n >= vend || p[n] != ',')
			goto fail;
		memcpy(num, p, n);
		num[n] = '\0';
		x = strtod(num, &e);
		if (*e)
			goto fail;
		p += n + 1;
		n = strspn(p, "0123456789.-");
		if (!n || n >= sizeof(num) || p + n > vend)
			goto fail;
		memcpy(num, p, n);
		num[n] = '\0';
		y = strtod(num, &e);
		if (*e || x < -1e6 || x > 1e6 || y < -1e6 || y > 1e6)
			goto fail;
		p += n;
		tx = (long)(x * 10.0 + (x < 0 ? -0.5 : 0.5));
		ty = (long)(y * 10.0 + (y < 0 ? -0.5 : 0.5));
		if (cmd == 'L' && have && tx == px && ty == py)
			continue;
		if (cmd == 'L' && have && ty == py) {
			strbuf_addch(&d, 'H');
			add_coord(&d, tx);
		} else if (cmd == 'L' && have && tx == px) {
			strbuf_addch(&d, 'V');
			add_coord(&d, ty);
		} else {
			strbuf_addch(&d, cmd);
			add_coord(&d, tx);
			strbuf_addch(&d, ',');
			add_coord(&d, ty);
		}
		px = tx;
		py = ty;
		if (cmd == 'M') {
			sx = tx;
			sy = ty;
		}
		have = true;
	}
	strbuf_add(out, d.buf, d.len);
	strbuf_release(&d);
	return true;
fail:
	strbuf_release(&d);
	return false;
}

/* The value v..vend of attribute name, checked and emitted: ids and
 * references to them get the prefix; nothing may point outside the
 * document or run. */
static int
attr_value(struct svg_ctx *c, const char *name, const char *v,
    const char *vend)
{
	struct strbuf *out = c->out;
	const char *q;

	for (q = v; q < vend; q++) {
		if (starts_with_ci(q, vend, "javascript:") ||
		    starts_with_ci(q, vend, "data:") ||
		    starts_with_ci(q, vend, "expression(") ||
		    starts_with_ci(q, vend, "@import"))
			return fail(c, "an attribute value that could load or "
			    "run something");
		if (starts_with_ci(q, vend, "url(") && (q + 4 >= vend ||
		    q[4] != '#'))
			return fail(c, "a url() outside the document");
	}
	if (!strcmp(name, "href") || !strcmp(name, "xlink:href")) {
		if (v >= vend || *v != '#')
			return fail(c, "a link outside the document");
		strbuf_addf(out, "#%s", c->prefix);
		escape_html_keep_refs(out, v + 1, vend);
		return 0;
	}
	if (!strcmp(name, "id")) {
		strbuf_addstr(out, c->prefix);
		escape_html_keep_refs(out, v, vend);
		return 0;
	}
	if (!strcmp(name, "d") && compact_path(out, v, vend))
		return 0;
	/* url(#x) in fill, clip-path, style ... */
	for (q = v; q < vend; ) {
		const char *next = q + 1;

		if (starts_with_ci(q, vend, "url(#")) {
			strbuf_add(out, q, 5);
			strbuf_addstr(out, c->prefix);
			q += 5;
			continue;
		}
		if (*q == '&' && escape_html_ref_len(q, vend))
			next = q + escape_html_ref_len(q, vend);
		escape_html_keep_refs(out, q, next);
		q = next;
	}
	return 0;
}

/* The attributes of a start tag, up to and including its '>' or '/>'.
 * *empty says it was '/>'. */
static int
attributes(struct svg_ctx *c, bool emit, bool *empty)
{
	char name[SVG_MAX_NAME + 1];

	*empty = false;
	for (;;) {
		const char *v;
		char quote;

		while (c->p < c->end && is_space(*c->p))
			c->p++;
		if (c->p >= c->end)
			return fail(c, "a tag that does not end");
		if (*c->p == '>') {
			c->p++;
			return 0;
		}
		if (starts_with(c, "/>")) {
			c->p += 2;
			*empty = true;
			return 0;
		}
		if (read_name(c, name))
			return -1;
		if (starts_with_ci(name, name + strlen(name), "on"))
			return fail(c, "an event handler attribute");
		while (c->p < c->end && is_space(*c->p))
			c->p++;
		if (c->p >= c->end || *c->p != '=')
			return fail(c, "an attribute without a value");
		c->p++;
		while (c->p < c->end && is_space(*c->p))
			c->p++;
		if (c->p >= c->end || (*c->p != '"' && *c->p != '\''))
			return fail(c, "an attribute value without quotes");
		quote = *c->p++;
		v = c->p;
		while (c->p < c->end && *c->p != quote) {
			if (*c->p == '<')
				return fail(c, "'<' in an attribute value");
			c->p++;
		}
		if (c->p >= c->end)
			return fail(c, "an attribute value that does not end");
		if (emit) {
			strbuf_addf(c->out, " %s=\"", name);
			if (attr_value(c, name, v, c->p))
				return -1;
			strbuf_addch(c->out, '"');
		}
		c->p++;
	}
}

static bool
element_ok(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(svg_elements); i++)
		if (!strcmp(name, svg_elements[i]))
			return true;
	return false;
}

static int
start_tag(struct svg_ctx *c, const char *root_attrs)
{
	char name[SVG_MAX_NAME + 1];
	bool empty, emit;

	c->p++;		/* '<' */
	if (read_name(c, name))
		return -1;
	if (!element_ok(name))
		return fail(c, "an element a chart is not drawn with");
	if (c->root_done || (c->depth == 0 && strcmp(name, "svg")))
		return fail(c, "content outside the root <svg>");
	if (c->depth == SVG_MAX_DEPTH)
		return fail(c, "elements nested too deep");
	if (!c->skip && (!strcmp(name, "title") || !strcmp(name, "desc")))
		c->skip = c->depth + 1;
	emit = !c->skip;
	if (emit)
		strbuf_addf(c->out, "<%s", name);
	if (attributes(c, emit, &empty))
		return -1;
	if (emit && c->depth == 0)
		strbuf_addstr(c->out, root_attrs);
	if (empty) {
		if (emit)
			strbuf_addstr(c->out, "/>");
		if (c->skip == c->depth + 1)
			c->skip = 0;
		if (c->depth == 0)
			c->root_done = true;
		return 0;
	}
	if (emit)
		strbuf_addch(c->out, '>');
	memcpy(c->stack[c->depth++], name, strlen(name) + 1);
	return 0;
}

static int
end_tag(struct svg_ctx *c)
{
	char name[SVG_MAX_NAME + 1];

	c->p += 2;	/* "</" */
	if (read_name(c, name))
		return -1;
	while (c->p < c->end && is_space(*c->p))
		c->p++;
	if (c->p >= c->end || *c->p != '>')
		return fail(c, "an end tag that does not end");
	c->p++;
	if (!c->depth || strcmp(c->stack[c->depth - 1], name))
		return fail(c, "an end tag that closes nothing open");
	c->depth--;
	if (!c->skip)
		strbuf_addf(c->out, "</%s>", name);
	if (c->skip == c->depth + 1)
		c->skip = 0;
	if (c->depth == 0)
		c->root_done = true;
	return 0;
}

/* Text up to the next '<'. */
static int
text(struct svg_ctx *c)
{
	const char *t = c->p, *q;

	while (c->p < c->end && *c->p != '<')
		c->p++;
	if (c->depth == 0) {
		for (q = t; q < c->p; q++)
			if (!is_space(*q))
				return fail(c, "text outside the root <svg>");
		return 0;
	}
	if (!c->skip)
		escape_html_keep_refs(c->out, t, c->p);
	return 0;
}

int
report_svg_inline(const char *svg, size_t len, const char *prefix,
    const char *root_attrs, struct strbuf *out, struct strbuf *why)
{
	struct svg_ctx c;
	size_t start = out->len;
	int ret = 0;

	memset(&c, 0, sizeof(c));
	c.p = svg;
	c.end = svg + len;
	c.prefix = prefix;
	c.out = out;
	c.why = why;
	if (memchr(svg, '\0', len))
		ret = fail(&c, "a NUL byte");
	while (!ret && c.p < c.end) {
		if (*c.p != '<')
			ret = text(&c);
		else if (starts_with(&c, "<?"))
			ret = c.depth ? fail(&c, "a processing instruction "
			    "inside the document") : skip_past(&c, "?>",
			    "a processing instruction that does not end");
		else if (starts_with(&c, "<!--"))
			ret = skip_past(&c, "-->", "a comment that does not "
			    "end");
		else if (starts_with(&c, "<![CDATA["))
			ret = fail(&c, "a CDATA section");
		else if (starts_with_ci(c.p, c.end, "<!doctype")) {
			const char *gt = memchr(c.p, '>', (size_t)(c.end -
			    c.p));
			const char *br = memchr(c.p, '[', (size_t)(c.end -
			    c.p));

			if (c.depth || !gt || (br && br < gt))
				ret = fail(&c, "a doctype that declares "
				    "things");
			else
				c.p = gt + 1;
		} else if (starts_with(&c, "</"))
			ret = end_tag(&c);
		else
			ret = start_tag(&c, root_attrs);
	}
	if (!ret && (!c.root_done || c.depth))
		ret = fail(&c, c.root_done || c.depth ? "an element that is "
		    "never closed" : "no <svg> element");
	if (ret)
		strbuf_setlen(out, start);
	return ret;
}
