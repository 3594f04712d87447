/*
 * html.c - `pathstat report --html`: index.html, the bundle's index.md
 * as one self-contained page.  libcmark-gfm parses the same Markdown
 * (tables and footnotes are its GFM extensions); before rendering, the
 * tree is rewritten so the page stands alone: every chart image becomes
 * the chart's SVG inline, links to the bundle's files become data:
 * downloads (or the inline chart they show), headings get ids for the
 * page's own anchors, and raw HTML the Markdown might hold is shown as
 * text.  Nothing is fetched from anywhere: the page says so to the
 * browser (Content-Security-Policy), and holds no script.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/version.h"
#include "common/xalloc.h"
#include "report/html.h"
#include "report/internal.h"

/* A bundle file larger than this (an ECDF's samples, say) is named, not
 * embedded, so the page stays small enough to attach to a ticket. */
#define HTML_EMBED_MAX_BYTES	((size_t)64 << 10)

static const char html_css[] =
	"body{margin:0;background:#fff;color:#1b1f24;"
	"font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,"
	"'DejaVu Sans',sans-serif}\n"
	"main{max-width:1200px;margin:0 auto;padding:1.5rem}\n"
	"h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.6em 0 .6em}\n"
	"table{border-collapse:collapse;margin:1em 0;display:block;"
	"overflow-x:auto;max-width:100%;font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid #d0d7de;padding:.3em .6em}\n"
	"th{background:#f6f8fa}\n"
	"tbody tr:nth-child(2n) td{background:#fafbfc}\n"
	"p em{color:#424a53}\n"
	"code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
	"font-size:.9em;background:#f6f8fa;padding:0 .2em}\n"
	".chart{display:block;margin:1em 0}\n"
	".chart svg,.chart img{display:block;width:100%;height:auto}\n"
	".missing{display:block;border:1px dashed #d0d7de;padding:1em;"
	"color:#424a53}\n"
	".footnotes{font-size:.9em;border-top:1px solid #d0d7de;"
	"margin-top:2em}\n"
	/* a note's mark is "[8]" on the line, apart from the number it
	 * follows, never an exponent-like superscript */
	".fnmark{font-size:.8em;white-space:nowrap}\n"
	".fnmark sup{vertical-align:baseline;font-size:1em}\n"
	".fnmark a{text-decoration:none}\n"
	".toc{font-size:.95em}\n.toc ul{margin:.2em 0}\n"
	"hr{border:0;border-top:1px solid #d0d7de}\n"
	"@media print{main{max-width:none}}\n";

static void
base64(struct strbuf *sb, const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 |
		    p[i + 2];

		strbuf_addch(sb, tab[v >> 18 & 63]);
		strbuf_addch(sb, tab[v >> 12 & 63]);
		strbuf_addch(sb, tab[v >> 6 & 63]);
		strbuf_addch(sb, tab[v & 63]);
	}
	if (i < n) {
		unsigned v = (unsigned)p[i] << 16 |
		    (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);

		strbuf_addch(sb, tab[v >> 18 & 63]);
		strbuf_addch(sb, tab[v >> 12 & 63]);
		strbuf_addch(sb, i + 1 < n ? tab[v >> 6 & 63] : '=');
		strbuf_addch(sb, '=');
	}
}

/* An inline HTML node holding html (ours), before node. */
static void
insert_html_before(cmark_node *node, const char *html)
{
	cmark_node *h = cmark_node_new(CMARK_NODE_HTML_INLINE);

	cmark_node_set_literal(h, html);
	cmark_node_insert_before(node, h);
}

/* Replace node by its children (a link that cannot stay a link). */
static void
unwrap(cmark_node *node)
{
	cmark_node *c;

	while ((c = cmark_node_first_child(node)) != NULL)
		cmark_node_insert_before(node, c);
	cmark_node_free(node);
}

/* Is rel "charts/NAME.EXT" with a plain NAME?  *stem gets NAME (the
 * caller frees). */
static bool
chart_file(const char *rel, const char *ext, char **stem)
{
	size_t n = strlen(rel), e = strlen(ext);
	const char *name = rel + strlen("charts/");

	if (strncmp(rel, "charts/", strlen("charts/")) || n <= 7 + e ||
	    strcmp(rel + n - e, ext))
		return false;
	if (strspn(name, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != strlen(name) ||
	    *name == '.')
		return false;
	*stem = xstrndup(name, n - 7 - e);
	return true;
}

struct html_ctx {
	struct report_bundle	*b;
	char		**inlined;	/* chart stems shown inline (owned) */
	size_t		ninlined, alloc;
	struct report_slugs	slugs;	/* heading ids given */
	size_t		nfig;
	size_t		nsvg, npng, nmissing;	/* how the charts went in */
};

static bool
inlined(const struct html_ctx *x, const char *stem)
{
	size_t i;

	for (i = 0; i < x->ninlined; i++)
		if (!strcmp(x->inlined[i], stem))
			return true;
	return false;
}

/* An image of the Markdown: a chart (charts/NAME.png) as its SVG
 * inline, else its PNG as a data: image, else a note saying it was not
 * rendered. */
static int
rewrite_image(struct html_ctx *x, cmark_node *img)
{
	struct strbuf alt = STRBUF_INIT, data = STRBUF_INIT, h = STRBUF_INIT;
	struct strbuf attrs = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf prefix = STRBUF_INIT, rel = STRBUF_INIT;
	const char *url = cmark_node_get_url(img);
	char *stem = NULL;
	int rc, ret = -1;

	report_node_text(img, &alt);
	x->nfig++;
	if (!url || !(chart_file(url, ".png", &stem) ||
	    chart_file(url, ".svg", &stem))) {
		/* not one of ours: show what it says */
		strbuf_addstr(&h, "<span class=\"missing\">Image not included: ");
		escape_html(&h, alt.buf);
		strbuf_addstr(&h, "</span>");
		x->nmissing++;
		goto done;
	}
	strbuf_addf(&rel, "charts/%s.svg", stem);
	rc = report_bundle_read(x->b, rel.buf, REPORT_SVG_MAX_BYTES, &data);
	if (rc == -1)
		goto cleanup;
	if (rc == 0) {
		strbuf_addstr(&attrs, " role=\"img\" aria-label=\"");
		escape_html(&attrs, alt.buf);
		strbuf_addch(&attrs, '"');
		strbuf_addf(&prefix, "f%zu-", x->nfig);
		strbuf_addstr(&h, "<span class=\"chart\" id=\"chart-");
		escape_html(&h, stem);
		strbuf_addstr(&h, "\">");
		if (report_svg_inline(data.buf, data.len, prefix.buf,
		    attrs.buf, &h, &why) == 0) {
			strbuf_addstr(&h, "</span>");
			ALLOC_GROW(x->inlined, x->ninlined + 1, x->alloc);
			x->inlined[x->ninlined++] = xstrdup(stem);
			x->nsvg++;
			goto done;
		}
		warning("index.html: %s not inline (%s); its PNG instead",
		    rel.buf, why.buf);
		strbuf_reset(&h);
	}
	strbuf_reset(&data);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "charts/%s.png", stem);
	rc = report_bundle_read(x->b, rel.buf, REPORT_SVG_MAX_BYTES, &data);
	if (rc == -1)
		goto cleanup;
	if (rc == 0) {
		strbuf_addstr(&h, "<span class=\"chart\" id=\"chart-");
		escape_html(&h, stem);
		strbuf_addstr(&h, "\"><img alt=\"");
		escape_html(&h, alt.buf);
		strbuf_addstr(&h, "\" src=\"data:image/png;base64,");
		base64(&h, (const unsigned char *)data.buf, data.len);
		strbuf_addstr(&h, "\"></span>");
		x->npng++;
	} else {
		strbuf_addstr(&h, "<span class=\"missing\">Chart not rendered: ");
		escape_html(&h, alt.buf);
		strbuf_addstr(&h, " (the bundle holds its gnuplot script, "
		    "charts/");
		escape_html(&h, stem);
		strbuf_addstr(&h, ".gp)</span>");
		x->nmissing++;
	}
done:
	insert_html_before(img, h.buf);
	cmark_node_free(img);
	ret = 0;
cleanup:
	free(stem);
	strbuf_release(&alt);
	strbuf_release(&data);
	strbuf_release(&h);
	strbuf_release(&attrs);
	strbuf_release(&why);
	strbuf_release(&prefix);
	strbuf_release(&rel);
	return ret;
}

static const char *
mime_of(const char *rel)
{
	static const struct {
		const char	*ext, *mime;
	} types[] = {
		{ ".csv", "text/csv;charset=utf-8" },
		{ ".md", "text/markdown;charset=utf-8" },
		{ ".json", "application/json" },
		{ ".svg", "image/svg+xml" },
		{ ".png", "image/png" },
	};
	size_t i, n = strlen(rel);

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		size_t e = strlen(types[i].ext);

		if (n > e && !strcmp(rel + n - e, types[i].ext))
			return types[i].mime;
	}
	return "text/plain;charset=utf-8";	/* .gp, .dat */
}

/* How large a bundle file may be to go into the page as a download:
 * a table's CSV (what a reader takes into a spreadsheet) up to
 * HTML_EMBED_MAX_BYTES; a chart's data and script, and a table's
 * Markdown copy (the page shows the table), stay in the bundle, named:
 * they are for re-running, and made the page megabytes. */
static size_t
embed_max(const char *rel)
{
	static const char *const kept[] = { ".dat", ".gp", ".md" };
	size_t i, n = strlen(rel);

	for (i = 0; i < ARRAY_SIZE(kept); i++) {
		size_t e = strlen(kept[i]);

		if (n > e && !strcmp(rel + n - e, kept[i]))
			return 0;
	}
	return HTML_EMBED_MAX_BYTES;
}

/* A link of the Markdown: within the page it stays; to a bundle file it
 * becomes the inline chart it shows or a data: download; anything else
 * becomes plain text, so no link leaves the page. */
static int
rewrite_link(struct html_ctx *x, cmark_node *link)
{
	struct strbuf data = STRBUF_INIT, h = STRBUF_INIT;
	const char *url = cmark_node_get_url(link), *base;
	char *stem = NULL;
	int rc = -2, ret = -1;

	if (url && url[0] == '#' && url[1]) {
		ret = 0;	/* the page's own anchors: headings, notes */
		goto cleanup;
	}
	if (url && chart_file(url, ".svg", &stem) && inlined(x, stem)) {
		strbuf_addstr(&h, "<a href=\"#chart-");
		escape_html(&h, stem);
		strbuf_addstr(&h, "\">");
	} else {
		rc = url ? report_bundle_read(x->b, url, embed_max(url),
		    &data) : -2;
		if (rc == -1)
			goto cleanup;
		if (rc == 0) {
			base = strrchr(url, '/');
			strbuf_addf(&h, "<a href=\"data:%s;base64,",
			    mime_of(url));
			base64(&h, (const unsigned char *)data.buf, data.len);
			strbuf_addstr(&h, "\" download=\"");
			escape_html(&h, base ? base + 1 : url);
			strbuf_addstr(&h, "\">");
		}
	}
	if (!h.len) {
		/* too large, or not a file: say where it is instead */
		if (rc == -3) {
			cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
			struct strbuf text = STRBUF_INIT;

			/* "tables/x.md (in the bundle)", not its name twice */
			report_node_text(link, &text);
			if (!strcmp(text.buf, url))
				strbuf_addstr(&data, " (in the bundle)");
			else
				strbuf_addf(&data, " (%s in the bundle)", url);
			strbuf_release(&text);
			cmark_node_set_literal(t, data.buf);
			cmark_node_insert_after(link, t);
		}
		unwrap(link);
		ret = 0;
		goto cleanup;
	}
	insert_html_before(link, h.buf);
	{
		cmark_node *close = cmark_node_new(CMARK_NODE_HTML_INLINE);

		cmark_node_set_literal(close, "</a>");
		cmark_node_insert_after(link, close);
	}
	unwrap(link);
	ret = 0;
cleanup:
	free(stem);
	strbuf_release(&data);
	strbuf_release(&h);
	return ret;
}

/* An id for a heading (report_slug_add: the ids the contents list of
 * index.md links to), unique in the page. */
static void
heading_id(struct html_ctx *x, cmark_node *hd)
{
	struct strbuf text = STRBUF_INIT, id = STRBUF_INIT, h = STRBUF_INIT;
	cmark_node *s;

	report_node_text(hd, &text);
	report_slug_add(&x->slugs, text.buf, &id);
	strbuf_addstr(&h, "<span id=\"");
	escape_html(&h, id.buf);
	strbuf_addstr(&h, "\"></span>");
	s = cmark_node_new(CMARK_NODE_HTML_INLINE);
	cmark_node_set_literal(s, h.buf);
	cmark_node_prepend_child(hd, s);
	strbuf_release(&text);
	strbuf_release(&id);
	strbuf_release(&h);
}

/* A footnote's mark reads "[8]", brackets around cmark's link on the
 * line (the CSS keeps it off the superscript position), so "36.3 [8]"
 * can never be read as 36.3 to the 8th.  cmark writes the link, its
 * ids and back links; its label is escaped as a URL, so the brackets
 * go around it. */
static void
bracket_mark(cmark_node *n)
{
	cmark_node *close = cmark_node_new(CMARK_NODE_HTML_INLINE);

	insert_html_before(n, "<span class=\"fnmark\">[");
	cmark_node_set_literal(close, "]</span>");
	cmark_node_insert_after(n, close);
}

/* Raw HTML in the Markdown is shown as the text it is: the page renders
 * only the HTML this file writes. */
static void
defuse_html(cmark_node *n)
{
	const char *lit = cmark_node_get_literal(n);
	cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);

	cmark_node_set_literal(t, lit ? lit : "");
	if (cmark_node_get_type(n) == CMARK_NODE_HTML_BLOCK) {
		cmark_node *para = cmark_node_new(CMARK_NODE_PARAGRAPH);

		cmark_node_append_child(para, t);
		t = para;
	}
	cmark_node_insert_before(n, t);
	cmark_node_free(n);
}

/* Rewrite the tree (see the top of the file).  The nodes are collected
 * first: cmark's iterator must not see the tree change under it. */
static int
rewrite(struct html_ctx *x, cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_node **todo = NULL;
	cmark_event_type ev;
	size_t n = 0, alloc = 0, i;
	int ret = 0;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);

		if (ev != CMARK_EVENT_ENTER)
			continue;
		switch (cmark_node_get_type(node)) {
		case CMARK_NODE_IMAGE:
		case CMARK_NODE_LINK:
		case CMARK_NODE_HEADING:
		case CMARK_NODE_HTML_INLINE:
		case CMARK_NODE_HTML_BLOCK:
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			ALLOC_GROW(todo, n + 1, alloc);
			todo[n++] = node;
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	/* images first: links to an SVG point at the inline chart */
	for (i = 0; i < n && !ret; i++) {
		if (cmark_node_get_type(todo[i]) == CMARK_NODE_IMAGE) {
			ret = rewrite_image(x, todo[i]);
			todo[i] = NULL;
		}
	}
	for (i = 0; i < n && !ret; i++) {
		if (!todo[i])
			continue;
		switch (cmark_node_get_type(todo[i])) {
		case CMARK_NODE_LINK:
			ret = rewrite_link(x, todo[i]);
			break;
		case CMARK_NODE_HEADING:
			heading_id(x, todo[i]);
			break;
		case CMARK_NODE_HTML_INLINE:
		case CMARK_NODE_HTML_BLOCK:
			defuse_html(todo[i]);
			break;
		case CMARK_NODE_FOOTNOTE_REFERENCE:
			bracket_mark(todo[i]);
			break;
		default:
			break;
		}
	}
	free(todo);
	return ret;
}

int
report_html_write(struct report_bundle *b)
{
	struct html_ctx x;
	struct strbuf page = STRBUF_INIT;
	cmark_parser *parser = NULL;
	cmark_node *doc = NULL;
	char *body = NULL;
	size_t i;
	int ret = -1;
	const int opts = CMARK_OPT_FOOTNOTES | CMARK_OPT_VALIDATE_UTF8;

	memset(&x, 0, sizeof(x));
	x.b = b;
	cmark_gfm_core_extensions_ensure_registered();
	parser = cmark_parser_new(opts);
	if (!parser) {
		error("index.html: cannot start the Markdown parser");
		goto cleanup;
	}
	if (!cmark_find_syntax_extension("table") ||
	    !cmark_parser_attach_syntax_extension(parser,
	    cmark_find_syntax_extension("table"))) {
		error("index.html: libcmark-gfm has no table extension");
		goto cleanup;
	}
	cmark_parser_feed(parser, b->index.buf, b->index.len);
	doc = cmark_parser_finish(parser);
	if (!doc) {
		error("index.html: cannot parse index.md");
		goto cleanup;
	}
	if (rewrite(&x, doc))
		goto cleanup;
	/* unsafe: the raw HTML left in the tree is only what rewrite()
	 * wrote; every link is our own too */
	body = cmark_render_html(doc, opts | CMARK_OPT_UNSAFE,
	    cmark_parser_get_syntax_extensions(parser));
	if (!body) {
		error("index.html: cannot render the page");
		goto cleanup;
	}
	strbuf_addstr(&page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\""
	    "default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n"
	    "<meta name=\"generator\" content=\"pathstat ");
	escape_html(&page, PATHSTAT_VERSION);
	strbuf_addstr(&page, "\">\n<title>");
	escape_html(&page, b->spec->title);
	strbuf_addstr(&page, "</title>\n<style>\n");
	strbuf_addstr(&page, html_css);
	strbuf_addstr(&page, "</style>\n</head>\n<body>\n<main>\n");
	strbuf_addstr(&page, body);
	strbuf_addstr(&page, "</main>\n</body>\n</html>\n");
	if (report_bundle_write(b, "index.html", page.buf, page.len))
		goto cleanup;
	if (x.npng || x.nmissing)
		note("index.html: %zu chart%s inline as SVG, %zu as PNG, %zu "
		    "not rendered", x.nsvg, x.nsvg == 1 ? "" : "s", x.npng,
		    x.nmissing);
	ret = 0;
cleanup:
	free(body);
	if (doc)
		cmark_node_free(doc);
	if (parser)
		cmark_parser_free(parser);
	for (i = 0; i < x.ninlined; i++)
		free(x.inlined[i]);
	free(x.inlined);
	report_slugs_release(&x.slugs);
	strbuf_release(&page);
	return ret;
}
