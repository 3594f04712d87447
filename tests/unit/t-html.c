/*
 * t-html.c - unit tests for what index.html is made of: gnuplot's SVG
 * made fit for a page (report_svg_inline: what passes, with its ids and
 * references prefixed and its text escaped again, and what is refused,
 * leaving the output as it was).
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "report/html.h"
#include "tests/unit/harness.h"

/* Sanitize svg with prefix "p-" and root attribute ' role="img"';
 * returns the result (caller frees) or NULL when refused. */
static char *
inline_svg(const char *svg, struct strbuf *why)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_addstr(&out, "[");	/* what was there before stays */
	if (report_svg_inline(svg, strlen(svg), "p-", " role=\"img\"", &out,
	    why)) {
		CHECK_EQ_STR(out.buf, "[", "a refusal leaves the output as it "
		    "was");
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

static void
check_pass(const char *svg, const char *want, const char *what)
{
	struct strbuf why = STRBUF_INIT, w = STRBUF_INIT;
	char *got = inline_svg(svg, &why);

	strbuf_addf(&w, "[%s", want);
	CHECK_EQ_STR(got, w.buf, what);
	if (!got)
		printf("#   refused: %s\n", why.buf);
	free(got);
	strbuf_release(&why);
	strbuf_release(&w);
}

static void
check_refused(const char *svg, const char *reason, const char *what)
{
	struct strbuf why = STRBUF_INIT;
	char *got = inline_svg(svg, &why);

	CHECK(!got && strstr(why.buf, reason), what);
	if (got || !strstr(why.buf, reason))
		printf("#   got '%s', reason '%s', want a reason with '%s'\n",
		    got ? got : "(refused)", why.buf, reason);
	free(got);
	strbuf_release(&why);
}

static void
test_svg_pass(void)
{
	check_pass("<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
	    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
	    "<svg viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\">"
	    "<!-- gnuplot -->\n<title>Gnuplot</title><desc>Produced by "
	    "GNUPLOT</desc><g id=\"c\"><rect x=\"0\"/></g></svg>\n",
	    "<svg viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "role=\"img\">\n<g id=\"p-c\"><rect x=\"0\"/></g></svg>",
	    "prolog, doctype, comment, title and desc go; ids get the prefix; "
	    "the root its attributes");
	check_pass("<svg><defs><path id='gpPt0' d='M0,0'/></defs>"
	    "<use xlink:href='#gpPt0' x='1'/><use href=\"#gpPt0\"/>"
	    "<g clip-path=\"url(#clip1)\" style='fill:url(#g)'/></svg>",
	    "<svg role=\"img\"><defs><path id=\"p-gpPt0\" d=\"M0,0\"/></defs>"
	    "<use xlink:href=\"#p-gpPt0\" x=\"1\"/><use href=\"#p-gpPt0\"/>"
	    "<g clip-path=\"url(#p-clip1)\" style=\"fill:url(#p-g)\"/></svg>",
	    "references to ids get the prefix too: href, xlink:href, url(#)");
	check_pass("<svg><text>a &amp; b &lt;c> d & e &#38; &#x26; "
	    "&nbsp; \"q\" 'a'</text></svg>",
	    "<svg role=\"img\"><text>a &amp; b &lt;c&gt; d &amp; e &#38; "
	    "&#x26; &amp;nbsp; &quot;q&quot; &#39;a&#39;</text></svg>",
	    "text: references kept, a bare & or an HTML-only entity escaped, "
	    "quotes and > escaped");
	check_pass("<svg><text x='1' font-family='\"A\" &amp; B'>t</text>"
	    "</svg>", "<svg role=\"img\"><text x=\"1\" font-family=\""
	    "&quot;A&quot; &amp; B\">t</text></svg>",
	    "attribute values in either quote, written back double-quoted");
	check_pass("<svg><filter id='f'><feFlood flood-color='white'/>"
	    "<feComposite in='SourceGraphic'/></filter><g filter='url(#f)'/>"
	    "</svg>", "<svg role=\"img\"><filter id=\"p-f\"><feFlood "
	    "flood-color=\"white\"/><feComposite in=\"SourceGraphic\"/>"
	    "</filter><g filter=\"url(#p-f)\"/></svg>",
	    "gnuplot's label boxes (filter, feFlood, feComposite) pass");
	check_pass("\n  <svg></svg>\n  \n", "<svg role=\"img\"></svg>",
	    "blanks around the root go");
}

static void
test_svg_refused(void)
{
	struct strbuf deep = STRBUF_INIT;
	int i;

	check_refused("<svg><script>alert(1)</script></svg>",
	    "not drawn with", "a script");
	check_refused("<svg><foreignObject><p>x</p></foreignObject></svg>",
	    "not drawn with", "foreignObject");
	check_refused("<svg><image href='#x'/></svg>", "not drawn with",
	    "an image");
	check_refused("<svg><SCRIPT/></svg>", "not drawn with",
	    "element names are matched exactly (SCRIPT is not svg)");
	check_refused("<svg onload='alert(1)'></svg>", "event handler",
	    "an onload attribute");
	check_refused("<svg><g ONCLICK=\"x\"/></svg>", "event handler",
	    "an event handler in capitals");
	check_refused("<svg><use href='http://x/y.svg#a'/></svg>",
	    "outside the document", "a link out of the document");
	check_refused("<svg><use xlink:href='data:image/svg+xml,x'/></svg>",
	    "could load or run", "a data: link");
	check_refused("<svg><g fill='url(http://x/p)'/></svg>",
	    "url() outside", "a url() out of the document");
	check_refused("<svg><g style='x:expression(alert(1))'/></svg>",
	    "could load or run", "a CSS expression");
	check_refused("<svg><a href='javascript:alert(1)'/></svg>",
	    "not drawn with", "a link element");
	check_refused("<svg><g x='javascript:1'/></svg>", "could load or run",
	    "javascript: in any value");
	check_refused("<svg><text><![CDATA[<script>]]></text></svg>", "CDATA",
	    "a CDATA section");
	check_refused("<svg><g></svg>", "closes nothing open",
	    "an end tag that does not match");
	check_refused("<svg><g>", "never closed", "an element never closed");
	check_refused("<svg></svg><svg></svg>", "outside the root",
	    "a second root");
	check_refused("text<svg></svg>", "text outside", "text before the root");
	check_refused("<g></g>", "outside the root", "a root that is not svg");
	check_refused("", "no <svg>", "nothing at all");
	check_refused("<!DOCTYPE svg [<!ENTITY x 'y'>]><svg></svg>",
	    "declares", "a doctype with an internal subset");
	check_refused("<svg><g x=1/></svg>", "without quotes",
	    "an unquoted attribute value");
	check_refused("<svg><g x='a<b'/></svg>", "'<' in an attribute",
	    "'<' inside an attribute value");
	check_refused("<svg><g x='a", "does not end",
	    "an attribute value that never ends");
	check_refused("<svg><!-- x </svg>", "comment that does not end",
	    "a comment that never ends");
	check_refused("<svg><desc><script/></desc></svg>", "not drawn with",
	    "what a dropped element holds is checked too");
	{
		static const char nul[] = "<svg>\0</svg>";
		struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;

		CHECK(report_svg_inline(nul, sizeof(nul) - 1, "p-", "", &out,
		    &why) == -1 && !out.len, "a NUL byte is refused");
		strbuf_release(&out);
		strbuf_release(&why);
	}
	for (i = 0; i < 70; i++)
		strbuf_addstr(&deep, i ? "<g>" : "<svg>");
	for (i = 0; i < 70; i++)
		strbuf_addstr(&deep, i < 69 ? "</g>" : "</svg>");
	check_refused(deep.buf, "too deep", "elements nested 70 deep");
	strbuf_release(&deep);
}

int
main(void)
{
	test_svg_pass();
	test_svg_refused();
	return test_done();
}
