/*
 * toc.c - the contents list at the top of index.md, and the heading ids
 * both the Markdown and the HTML page link to.  An id is made as GitHub
 * makes a heading's anchor ("## Methods" is #methods), so the list's
 * links work on a forge that renders index.md and in index.html, whose
 * headings html.c gives the same ids (report_slug_add).
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/html.h"
#include "report/internal.h"

/* Length of the UTF-8 punctuation or symbol at p that an anchor drops,
 * as GitHub drops them (— – ↔ × · ± …: U+2000-U+2BFF, U+00A1-U+00BF but
 * µ, ×, ÷), else 0. */
static size_t
dropped_symbol(const unsigned char *p)
{
	if (p[0] == 0xe2 && p[1] >= 0x80 && p[1] <= 0xaf && p[2])
		return 3;
	if (p[0] == 0xc2 && p[1] >= 0xa1 && p[1] <= 0xbf && p[1] != 0xb5)
		return 2;
	if (p[0] == 0xc3 && (p[1] == 0x97 || p[1] == 0xb7))
		return 2;
	return 0;
}

void
report_slug_add(struct report_slugs *s, const char *text, struct strbuf *id)
{
	const unsigned char *p;
	size_t i, n = 0, len, skip;

	strbuf_reset(id);
	for (p = (const unsigned char *)text; *p; p++) {
		if ((skip = dropped_symbol(p)) != 0)
			p += skip - 1;
		else if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '_' || *p >= 0x80)
			strbuf_addch(id, (char)*p);
		else if (*p >= 'A' && *p <= 'Z')
			strbuf_addch(id, (char)(*p - 'A' + 'a'));
		else if (*p == ' ')
			strbuf_addch(id, '-');
	}
	/* the page's other ids: chart-*, fn-*, fnref-*, toc */
	if (!id->len || !strncmp(id->buf, "chart-", 6) ||
	    !strncmp(id->buf, "fn", 2) || !strcmp(id->buf, "contents")) {
		struct strbuf h = STRBUF_INIT;

		strbuf_addf(&h, "h-%s", id->buf);
		strbuf_reset(id);
		strbuf_addstr(id, h.buf);
		strbuf_release(&h);
	}
	len = id->len;
	for (;;) {
		for (i = 0; i < s->n; i++)
			if (!strcmp(s->ids[i], id->buf))
				break;
		if (i == s->n)
			break;
		strbuf_setlen(id, len);
		strbuf_addf(id, "-%zu", ++n);
	}
	ALLOC_GROW(s->ids, s->n + 1, s->alloc);
	s->ids[s->n++] = xstrdup(id->buf);
}

void
report_slugs_release(struct report_slugs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->ids[i]);
	free(s->ids);
	memset(s, 0, sizeof(*s));
}

void
report_node_text(cmark_node *node, struct strbuf *sb)
{
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		const char *lit;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) {
			lit = cmark_node_get_literal(n);
			if (lit)
				strbuf_addstr(sb, lit);
		} else if (t == CMARK_NODE_SOFTBREAK ||
		    t == CMARK_NODE_LINEBREAK) {
			strbuf_addch(sb, ' ');
		}
	}
	cmark_iter_free(it);
}

size_t
report_toc_insert(struct strbuf *md, size_t at)
{
	cmark_parser *parser;
	cmark_node *doc;
	cmark_iter *it;
	cmark_event_type ev;
	struct report_slugs slugs = { 0 };
	struct strbuf toc = STRBUF_INIT, text = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	size_t n = 0;

	if (at > md->len)
		BUG("contents list after the end of index.md");
	parser = cmark_parser_new(CMARK_OPT_FOOTNOTES);
	if (!parser)
		die("out of memory");
	cmark_parser_feed(parser, md->buf, md->len);
	doc = cmark_parser_finish(parser);
	if (!doc)
		die("out of memory");
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *node = cmark_iter_get_node(it);
		int level;

		if (ev != CMARK_EVENT_ENTER ||
		    cmark_node_get_type(node) != CMARK_NODE_HEADING)
			continue;
		strbuf_reset(&text);
		report_node_text(node, &text);
		report_slug_add(&slugs, text.buf, &id);	/* every heading */
		level = cmark_node_get_heading_level(node);
		if (level < 2 || level > 3)
			continue;
		strbuf_addstr(&toc, level == 2 ? "- [" : "  - [");
		escape_md(&toc, text.buf);
		strbuf_addf(&toc, "](#%s)\n", id.buf);
		n++;
	}
	cmark_iter_free(it);
	cmark_node_free(doc);
	cmark_parser_free(parser);
	if (n >= 2) {
		struct strbuf old;

		strbuf_add(&out, md->buf, at);
		strbuf_addstr(&out, "\n**Contents**\n\n");
		strbuf_add(&out, toc.buf, toc.len);
		strbuf_add(&out, md->buf + at, md->len - at);
		old = *md;
		*md = out;
		out = old;
	} else {
		n = 0;
	}
	report_slugs_release(&slugs);
	strbuf_release(&toc);
	strbuf_release(&text);
	strbuf_release(&id);
	strbuf_release(&out);
	return n;
}
