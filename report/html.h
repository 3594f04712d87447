/*
 * html.h - index.html beside index.md (html.c): the same Markdown
 * rendered by libcmark-gfm into one self-contained page, the charts'
 * SVG inline (svg.c makes gnuplot's SVG fit to sit in a page).  Private
 * to report/.
 */
#ifndef PATHSTAT_REPORT_HTML_H
#define PATHSTAT_REPORT_HTML_H

#include "common/compat.h"

#include <stddef.h>

struct cmark_node;
struct report_bundle;
struct strbuf;

/* The heading ids given so far in one page (toc.c). */
struct report_slugs {
	char	**ids;
	size_t	n, alloc;
};

/* Largest SVG taken inline (bigger charts go in as their PNG). */
#define REPORT_SVG_MAX_BYTES	((size_t)16 << 20)

/*
 * Write index.html into the bundle from b->index (index.md as built):
 * tables and footnotes by libcmark-gfm; each chart image replaced by the
 * chart's SVG inline (its PNG as a data: image when the SVG cannot be
 * taken, a note when neither was rendered); links to the bundle's files
 * turned into data: downloads, or into the inline chart they show, or
 * plain text; no raw HTML from the Markdown, no script, no reference
 * outside the page.  Returns 0, or -1 after printing.
 */
int report_html_write(struct report_bundle *b);

/*
 * Append the SVG document svg (len bytes, gnuplot's output) to out as
 * an <svg> element fit to sit inside an HTML page: XML prolog, doctype,
 * comments, <title> and <desc> dropped; every id prefixed with prefix,
 * and every reference to one (href="#x", url(#x)) with it; text and
 * attribute values escaped again; root_attrs (HTML the caller made,
 * e.g. ' role="img"') added to the root element.  Only the elements a
 * chart is drawn with pass: anything else (a script, foreignObject, an
 * image, an on* attribute, a reference outside the document, CDATA, a
 * document that is not well formed) makes it refuse.  Returns 0, or -1
 * with the reason in why and out unchanged.
 */
int report_svg_inline(const char *svg, size_t len, const char *prefix,
    const char *root_attrs, struct strbuf *out, struct strbuf *why);

/*
 * The id of the next heading whose plain text is text, as GitHub makes
 * it: lowercase ASCII letters, digits, '-' and '_', a blank as '-',
 * other ASCII and Unicode punctuation dropped, letters kept; "h-" before
 * an id that could clash with the page's own (chart-*, fn*), "-1", "-2"
 * after a repeat.  Into id (reset first); s remembers it.
 */
void report_slug_add(struct report_slugs *s, const char *text,
    struct strbuf *id);
void report_slugs_release(struct report_slugs *s);

/* Append the plain text under node (its text and code) to sb. */
void report_node_text(struct cmark_node *node, struct strbuf *sb);

/*
 * Insert "Contents", a list of links to the level-2 and level-3
 * headings of index.md md, at byte at (after the title and intro).
 * Returns how many entries it listed (none, and no list, when fewer
 * than two).
 */
size_t report_toc_insert(struct strbuf *md, size_t at);

#endif
