/*
 * footnote.c - GitHub-flavoured Markdown footnotes on table cells: a
 * finding (from the spec today, from `pathstat check` later) names a
 * path, condition, trial and metric; the matching rows get a [^n]
 * marker and index.md ends with the numbered definitions.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/xalloc.h"
#include "report/internal.h"
#include "report/report.h"

void
report_footnotes_init(struct report_footnotes *fn)
{
	memset(fn, 0, sizeof(*fn));
}

void
report_footnotes_release(struct report_footnotes *fn)
{
	size_t i;

	for (i = 0; i < fn->n; i++)
		free(fn->texts[i]);
	free(fn->texts);
	report_footnotes_init(fn);
}

size_t
report_footnote_ref(struct report_footnotes *fn, const char *text)
{
	size_t i;

	for (i = 0; i < fn->n; i++)
		if (!strcmp(fn->texts[i], text))
			return i + 1;
	ALLOC_GROW(fn->texts, fn->n + 1, fn->alloc);
	fn->texts[fn->n++] = xstrdup(text);
	return fn->n;
}

void
report_cell_mark(struct table *t, size_t row, size_t col, size_t n)
{
	struct table_cell *c = table_at(t, row, col);
	struct strbuf sb = STRBUF_INIT;
	char mark[32];

	snprintf(mark, sizeof(mark), "[^%zu]", n);
	if (c->display && c->display_raw)
		strbuf_addstr(&sb, table_cell_display(t, c));
	else if (c->display)
		escape_md(&sb, table_cell_display(t, c));
	else if (c->type == CELL_STR)
		escape_md(&sb, *c->str ? c->str : "–");
	else if (c->type == CELL_NUM)
		md_number(&sb, c->num, t->cols[col].decimals);
	else if (c->type == CELL_INT)
		strbuf_addf(&sb, "%lld", (long long)c->i);
	else
		strbuf_addstr(&sb, "–");
	/* the first mark stands apart from the value ("36.3 [^8]"), so
	 * no renderer can set it against the number's last digit */
	if (!strstr(sb.buf, mark)) {
		if (!strstr(sb.buf, "[^"))
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, mark);
	}
	table_set_display_raw(t, row, col, sb.buf);
	strbuf_release(&sb);
}


static bool
same(const char *want, const char *have)
{
	return !want || (have && !strcmp(want, have));
}

/* Does row r agree with every k=v of scope whose k is a column of t?
 * A merged finding's scope lists alternatives, "day=D1,D2,study=S": a
 * token without '=' is another value of the key before it. */
static bool
in_scope(const struct table *t, size_t r, const char *scope)
{
	char *copy, *p, *kv;
	const char *have = NULL;
	bool ok = true, key_ok = true, in_key = false;

	if (!scope)
		return true;
	copy = xstrdup(scope);
	p = copy;
	while ((kv = strsep(&p, ",")) != NULL) {
		char *eq = strchr(kv, '=');
		const char *v = kv;

		if (eq) {
			long col;

			if (in_key && !key_ok)
				ok = false;
			*eq = '\0';
			col = table_col(t, kv);
			in_key = col >= 0;
			have = in_key ? table_str(t, r, col) : NULL;
			key_ok = false;
			v = eq + 1;
		}
		if (in_key && have && !strcmp(v, have))
			key_ok = true;
	}
	if (in_key && !key_ok)
		ok = false;
	free(copy);
	return ok;
}

/* Is finding text advice that t has taken already: "split the cell
 * with --by KEY" (check pooled-groups) on a table with a KEY column,
 * split that way?  Each footnote belongs to the tables it can help. */
static bool
advice_taken(const struct table *t, const char *text)
{
	static const char by[] = "split the cell with --by ";
	const char *p = text ? strstr(text, by) : NULL;
	char key[64];
	size_t n;
	long by_col;

	if (!p)
		return false;
	p += sizeof(by) - 1;
	n = strcspn(p, " ,;)");
	if (!n || n >= sizeof(key))
		return false;
	memcpy(key, p, n);
	key[n] = '\0';
	/* a --by column of its own, or compare's "by" naming the key */
	by_col = table_col(t, "by");
	return table_col(t, key) >= 0 || (by_col >= 0 && t->nrows &&
	    table_str(t, 0, by_col) && !strcmp(table_str(t, 0, by_col), key));
}

size_t
report_footnotes_attach(struct report_footnotes *fn, struct table *t,
    const struct report_finding *f, size_t nf)
{
	long pcol = table_col(t, "path"), ccol = table_col(t, "condition");
	long mcol = table_col(t, "metric"), pair = table_col(t, "pair");
	long min = table_col(t, "minuend"), sub = table_col(t, "subtrahend");
	long mark = pcol >= 0 ? pcol : pair;
	struct strbuf text = STRBUF_INIT;
	size_t r, i, n = 0;

	if (mark < 0)
		return 0;
	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < nf; i++) {
			const char *metric = table_str(t, r, mcol);
			bool path_ok;

			if (f[i].metric && metric &&
			    strcmp(f[i].metric, metric))
				continue;
			if (!same(f[i].condition, table_str(t, r, ccol)) ||
			    !in_scope(t, r, f[i].scope) ||
			    advice_taken(t, f[i].text))
				continue;
			if (pcol >= 0)
				path_ok = same(f[i].path, table_str(t, r, pcol));
			else
				path_ok = same(f[i].path, table_str(t, r, min)) ||
				    same(f[i].path, table_str(t, r, sub));
			if (!path_ok)
				continue;
			strbuf_reset(&text);
			if (f[i].trial > 0)
				strbuf_addf(&text, "trial %ld: ", f[i].trial);
			strbuf_addstr(&text, f[i].text ? f[i].text : "");
			report_cell_mark(t, r, (size_t)mark,
			    report_footnote_ref(fn, text.buf));
			n++;
		}
	}
	strbuf_release(&text);
	return n;
}

void
report_footnotes_render(const struct report_footnotes *fn, struct strbuf *md)
{
	size_t i;

	if (!fn->n)
		return;
	strbuf_addch(md, '\n');
	for (i = 0; i < fn->n; i++) {
		strbuf_addf(md, "[^%zu]: ", i + 1);
		escape_md(md, fn->texts[i]);
		strbuf_addch(md, '\n');
	}
}

size_t
report_methods_ref(struct report_footnotes *m, const char *text)
{
	return report_footnote_ref(m, text);
}

void
report_methods_render(const struct report_footnotes *m, struct strbuf *md)
{
	size_t i;

	if (!m->n)
		return;
	strbuf_addstr(md, "\n## Methods\n\nHow the numbers of the tables "
	    "above were made; each caption names the entries it follows.\n");
	for (i = 0; i < m->n; i++) {
		strbuf_addf(md, "\n**M%zu.** ", i + 1);
		escape_md(md, m->texts[i]);
		strbuf_addch(md, '\n');
	}
}
