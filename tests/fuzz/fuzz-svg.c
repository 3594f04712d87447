/*
 * fuzz-svg.c - libFuzzer target: any bytes as gnuplot's SVG, through
 * report_svg_inline() (report/html.h), which decides what of a chart may
 * sit inside index.html.  Nothing may crash or leak; a refusal leaves
 * the output as it was; and what it lets through must pass it again
 * (its output is itself a document it accepts), holding no script.
 * Seeds: tests/fuzz/corpus/svg/.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "report/html.h"

/* Does s hold needle, ignoring ASCII case? */
static int
has_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++) {
		size_t i;

		for (i = 0; i < n; i++) {
			char c = s[i];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[i])
				break;
		}
		if (i == n)
			return 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;

	strbuf_addstr(&out, "x");
	if (report_svg_inline((const char *)data, size, "f1-", "", &out,
	    &why)) {
		if (out.len != 1 || !why.len)
			abort();	/* a refusal changes nothing, says why */
		goto done;
	}
	/* text has its '<' escaped: a "<script" could only be a tag */
	if (has_ci(out.buf, "<script") || has_ci(out.buf, "javascript:"))
		abort();
	/* what passed must pass again (so no on* attribute, no outside
	 * reference, well formed) */
	strbuf_reset(&why);
	if (report_svg_inline(out.buf + 1, out.len - 1, "f2-", "", &again,
	    &why))
		abort();
done:
	strbuf_release(&out);
	strbuf_release(&again);
	strbuf_release(&why);
	return 0;
}
