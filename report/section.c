/*
 * section.c - one table of a bundle: analyze_build() computes it (so
 * the numbers are exactly `pathstat analyze`'s), then it is dressed for
 * an article: path IDs with their labels, columns that are the same on
 * every row moved into the caption, footnotes on cells, a caption naming
 * metric, unit, estimator, pooling, n and trials; a CSV beside it.
 * Pivot sections lay one statistic out as paths x conditions (pivot.c).
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "check/check.h"
#include "common/db.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/keycat.h"
#include "common/metric.h"
#include "common/parse.h"
#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "report/internal.h"

/* Columns whose value may move into the caption when every row has the
 * same one. */
static const char *const captionable[] = {
	"condition", "n", "trials", "failures", "timeouts", "loss_pct",
	"n_minuend",
	"n_subtrahend", "trials_minuend", "trials_subtrahend", "n_numerator",
	"n_denominator", "trials_baseline", "trials_value", "baseline", "stat",
	"points", "days", "instances", "method",
};

static char **
paths_copy(char *const *from, size_t n)
{
	char **to = xcalloc(n ? n : 1, sizeof(*to));
	size_t i;

	for (i = 0; i < n; i++)
		to[i] = xstrdup(from[i]);
	return to;
}

static bool
listed(char *const *l, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return true;
	return false;
}

/* Does w only pick paths by name (path=A,B: no range, no empty value)? */
static bool
where_paths_only(const struct where *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (strcmp(w->items[i].key, "path") || !*w->items[i].value ||
		    where_range(w->items[i].value, NULL, NULL))
			return false;
	return w->n > 0;
}

static int paths_with_data(struct report_bundle *b,
    const struct report_section *s, const struct analyze_opts *o,
    char ***out, size_t *nout);

/* The paths with data of a where that only names paths: those of the
 * metric without a where that it names, in their order.  A no-spec
 * report's heatmaps each name one path, and selecting each one's runs
 * again scanned every run of the metric. */
static int
paths_named(struct report_bundle *b, const struct report_section *s,
    const struct analyze_opts *o, char ***out, size_t *nout)
{
	struct analyze_opts all = *o;	/* shallow: only read */
	char **have = NULL;
	size_t nhave = 0, i, j;

	memset(&all.where, 0, sizeof(all.where));
	if (paths_with_data(b, s, &all, &have, &nhave))
		return -1;
	for (i = 0; i < nhave; i++) {
		for (j = 0; j < o->where.n; j++)
			if (!strcmp(o->where.items[j].value, have[i]))
				break;
		if (j < o->where.n)
			have[(*nout)++] = have[i];
		else
			free(have[i]);
	}
	*out = have;
	return 0;
}

/* The paths that have data for the section's metric under its where
 * (the caller frees the list), read once a report for each metric and
 * where (b->paths_memo). */
static int
paths_with_data(struct report_bundle *b, const struct report_section *s,
    const struct analyze_opts *o, char ***out, size_t *nout)
{
	struct runsel_query q;
	struct runsel rs;
	struct strbuf key = STRBUF_INIT;
	struct report_paths_memo *pm;
	size_t alloc = 0, i;
	int rc;

	*out = NULL;
	*nout = 0;
	memset(&q, 0, sizeof(q));
	q.metric = (int)metric_by_name(s->metric)->id;
	q.where = &o->where;
	/* the runs as the section's cells select them (their order: path
	 * first), which the run selection memo then replays to them */
	q.dims = o->by;
	q.ndims = o->nby;
	q.by_start = true;
	strbuf_addf(&key, "%d|", q.metric);
	where_sql(&o->where, "r", &key);
	for (i = 0; i < b->npaths_memo; i++)
		if (!strcmp(b->paths_memo[i].key, key.buf)) {
			*out = paths_copy(b->paths_memo[i].paths,
			    b->paths_memo[i].npaths);
			*nout = b->paths_memo[i].npaths;
			strbuf_release(&key);
			return 0;
		}
	/* PATHSTAT_DEBUG_NO_PATHS_NAMED: each read (a test compares) */
	if (where_paths_only(&o->where) &&
	    !getenv("PATHSTAT_DEBUG_NO_PATHS_NAMED")) {
		rc = paths_named(b, s, o, out, nout) ? -1 : 0;
		goto memo;
	}
	if (runsel_open(&rs, b->db, &q)) {
		runsel_close(&rs);
		strbuf_release(&key);
		return -1;
	}
	while ((rc = runsel_next(&rs)) > 0) {
		for (i = 0; i < *nout; i++)
			if (!strcmp((*out)[i], rs.row.path))
				break;
		if (i < *nout)
			continue;
		ALLOC_GROW(*out, *nout + 1, alloc);
		(*out)[(*nout)++] = xstrdup(rs.row.path);
	}
	runsel_close(&rs);
memo:
	if (rc == 0) {
		ALLOC_GROW(b->paths_memo, b->npaths_memo + 1,
		    b->alloc_paths_memo);
		pm = &b->paths_memo[b->npaths_memo++];
		pm->key = strbuf_detach(&key, NULL);
		pm->paths = paths_copy(*out, *nout);
		pm->npaths = *nout;
	}
	strbuf_release(&key);
	return rc < 0 ? -1 : 0;
}

/* Split a delta pair into two paths that have data (IDs may hold '-'). */
static bool
split_pair(char *const *have, size_t nhave, const char *pair, char **a,
    char **b)
{
	const char *p;

	for (p = strchr(pair, '-'); p; p = strchr(p + 1, '-')) {
		char *l = xstrndup(pair, (size_t)(p - pair));

		if (listed(have, nhave, l) && listed(have, nhave, p + 1)) {
			*a = l;
			*b = xstrdup(p + 1);
			return true;
		}
		free(l);
	}
	return false;
}

int
report_check_paths(struct report_bundle *b, const struct report_section *s)
{
	struct analyze_opts o;
	struct strbuf w = STRBUF_INIT;
	struct keycat_query kq;
	char **have = NULL;
	size_t nhave = 0, i;
	int rc, ret = -1;

	if (report_section_opts(b->spec, s, &o))
		return -1;
	/* names no run has are the spec's mistake, said with what exists
	 * before "no data" could hide them (common/keycat.h) */
	memset(&kq, 0, sizeof(kq));
	kq.where = &o.where;
	kq.by = o.by;
	kq.nby = o.nby;
	rc = keycat_check(b->db, &kq, &w);
	if (rc) {
		/* the spec's own words: where, not --where */
		if (rc > 0)
			report_spec_error(b->spec, s->loc, "%s",
			    !strncmp(w.buf, "bad --", 6) ? w.buf + 6 : w.buf);
		goto cleanup;
	}
	if (paths_with_data(b, s, &o, &have, &nhave))
		goto cleanup;
	report_where_text(s, &w);
	if (nhave == 0) {
		report_spec_error(b->spec, s->loc, "no %s data%s%s", s->metric,
		    w.len ? " where " : "", w.buf);
		goto cleanup;
	}
	if (!strcmp(s->verb, "delta")) {
		for (i = 0; i < s->nargs; i++) {
			char *pa = NULL, *pb = NULL;

			if (!split_pair(have, nhave, s->args[i], &pa, &pb)) {
				char *l = xasprintf("%s.pairs[%zu]", s->loc, i);

				report_spec_error(b->spec, l, "pair '%s': a "
				    "path has no %s data%s%s", s->args[i],
				    s->metric, w.len ? " where " : "", w.buf);
				free(l);
				goto cleanup;
			}
			free(pa);
			free(pb);
		}
	} else {
		for (i = 0; i < s->npaths; i++) {
			if (listed(have, nhave, s->paths[i].id))
				continue;
			report_spec_error(b->spec, s->loc, "path '%s'%s has "
			    "no %s data%s%s%s", s->paths[i].id, s->paths_own ?
			    "" : " (inherited)", s->metric, w.len ? " where " :
			    "", w.buf, s->paths_own ? "" : "; list this "
			    "section's own \"paths\"");
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	for (i = 0; i < nhave; i++)
		free(have[i]);
	free(have);
	strbuf_release(&w);
	analyze_opts_release(&o);
	return ret;
}

/* ------------------------------------------------------------------
 * Dressing a table for Markdown
 */

static bool
is_captionable(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(captionable); i++)
		if (!strcmp(captionable[i], key))
			return true;
	return false;
}

/* Comparable text of a cell (value and display). */
static void
cell_key(const struct table *t, const struct table_cell *c, struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%d|", (int)c->type);
	switch (c->type) {
	case CELL_STR:
		strbuf_addstr(sb, c->str);
		break;
	case CELL_NUM:
		strbuf_add_double(sb, c->num);
		break;
	case CELL_INT:
		strbuf_addf(sb, "%lld", (long long)c->i);
		break;
	case CELL_NULL:
		break;
	}
	strbuf_addf(sb, "|%s", c->display ? table_cell_display(t, c) : "");
}

static bool
column_uniform(const struct table *t, size_t col)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t r;
	bool same = t->nrows > 0;

	if (same)
		cell_key(t, &t->cells[col], &a);
	for (r = 1; r < t->nrows && same; r++) {
		cell_key(t, &t->cells[r * t->ncols + col], &b);
		same = !strcmp(a.buf, b.buf);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return same;
}

/* min and max of an integer column; false if it holds none. */
static bool
int_range(const struct table *t, const char *key, int64_t *lo, int64_t *hi)
{
	long col = table_col(t, key);
	size_t r;
	bool any = false;

	if (col < 0)
		return false;
	for (r = 0; r < t->nrows; r++) {
		const struct table_cell *c;

		c = &t->cells[r * t->ncols + (size_t)col];

		if (c->type != CELL_INT)
			continue;
		if (!any || c->i < *lo)
			*lo = c->i;
		if (!any || c->i > *hi)
			*hi = c->i;
		any = true;
	}
	return any;
}

/* Plain text of one cell, for the caption. */
static void
cell_plain(const struct table *t, size_t row, size_t col, struct strbuf *sb)
{
	const struct table_cell *c = &t->cells[row * t->ncols + col];

	if (c->display) {
		strbuf_addstr(sb, table_cell_display(t, c));
		return;
	}
	switch (c->type) {
	case CELL_STR:
		strbuf_addstr(sb, *c->str ? c->str : "none");
		break;
	case CELL_NUM:
		md_number(sb, c->num, t->cols[col].decimals);
		break;
	case CELL_INT:
		strbuf_addf(sb, "%lld", (long long)c->i);
		break;
	case CELL_NULL:
		strbuf_addstr(sb, "–");
		break;
	}
}

/* Counts (n, trials, failures) of t for the caption. */
static void
caption_counts(const struct report_section *s, const struct table *t,
    struct strbuf *cap)
{
	static const struct {
		const char	*key, *name, *what;
	} counts[] = {
		{ "n", "n", "samples" },
		{ "n_minuend", "n", "samples (minuend)" },
		{ "n_subtrahend", "n", "samples (subtrahend)" },
		{ "n_numerator", "n", "samples (numerator)" },
		{ "n_denominator", "n", "samples (denominator)" },
		{ "trials", "trials", "" },
		{ "trials_minuend", "trials", "(minuend)" },
		{ "trials_subtrahend", "trials", "(subtrahend)" },
		{ "trials_baseline", "trials", "(baseline)" },
		{ "trials_value", "trials", "(compared)" },
		{ "failures", "failures", "" },
		{ "timeouts", "timeouts", "" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	const struct metric *m = s->metric ? metric_by_name(s->metric) : NULL;
	bool summary = m && m->source == METRIC_FROM_SUMMARY;
	int64_t lo = 0, hi = 0;
	bool trials = false;

	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		struct strbuf what = STRBUF_INIT;

		if (!int_range(t, counts[i].key, &lo, &hi))
			continue;
		/* connect tables: no timeouts needs no words */
		if (!strcmp(counts[i].key, "timeouts") && hi == 0)
			continue;
		/* an end-of-test metric's n counts runs (common/metric.h) */
		if (summary && !strncmp(counts[i].what, "samples", 7))
			strbuf_addf(&what, "runs%s", counts[i].what + 7);
		else
			strbuf_addstr(&what, counts[i].what);
		if (lo == hi && t->nrows > 1 &&
		    strcmp(counts[i].key, "failures"))
			strbuf_addf(&what, "%sper row", what.len ? " " : "");
		report_caption_range(&sb, counts[i].name, lo, hi, what.buf);
		strbuf_release(&what);
		if (!strncmp(counts[i].key, "trials", 6))
			trials = true;
	}
	if (!trials && !strcmp(s->verb, "ratio"))
		strbuf_addf(&sb, "%strials as in the percentile table of the "
		    "same cells", sb.len ? "; " : "");
	if (sb.len)
		strbuf_addf(cap, "; %s", sb.buf);
	strbuf_release(&sb);
}

/* Row r of t in Markdown: the path as "ID — label", a pair as
 * "G − G' — label". */
static void
label_row(const struct report_section *s, struct table *t, size_t r)
{
	long pcol = table_col(t, "path"), pair = table_col(t, "pair");
	long mcol = table_col(t, "minuend"), scol = table_col(t, "subtrahend");
	const struct table_cell *m, *d, *pc;
	const char *label = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (pcol >= 0) {
		pc = table_at(t, r, (size_t)pcol);
		if (pc->type == CELL_STR && !pc->display) {
			report_path_md(&sb, pc->str,
			    report_path_label(s, pc->str));
			table_set_display_raw(t, r, (size_t)pcol, sb.buf);
		}
	}
	if (pair < 0 || mcol < 0 || scol < 0)
		goto cleanup;
	m = table_at(t, r, (size_t)mcol);
	d = table_at(t, r, (size_t)scol);
	pc = table_at(t, r, (size_t)pair);
	if (m->type != CELL_STR || d->type != CELL_STR || pc->type != CELL_STR)
		goto cleanup;
	for (i = 0; i < s->nargs && s->arg_labels; i++)
		if (!strcmp(s->args[i], pc->str))
			label = s->arg_labels[i];
	strbuf_reset(&sb);
	escape_md(&sb, m->str);
	strbuf_addstr(&sb, " − ");
	escape_md(&sb, d->str);
	if (label && *label) {
		strbuf_addstr(&sb, " — ");
		escape_md(&sb, label);
	}
	table_set_display_raw(t, r, (size_t)pair, sb.buf);
cleanup:
	strbuf_release(&sb);
}

/*
 * Dress t for Markdown: path IDs with labels, pairs as "G − G' —
 * label", and every caption-worthy column that holds the same value on
 * all rows hidden and named in the caption (appended to cap).
 */
static void
dress(const struct report_section *s, const struct analyze_opts *o,
    struct table *t, struct strbuf *cap)
{
	size_t r, c, i;

	for (r = 0; r < t->nrows; r++)
		label_row(s, t, r);
	report_caption_method(s, o, t, t->shown.name, cap);
	caption_counts(s, t, cap);
	for (c = 0; c < t->ncols && t->nrows > 1; c++) {
		bool dim = false;

		for (i = 0; i < o->nby; i++)
			if (!strcmp(t->cols[c].key, o->by[i]))
				dim = true;
		if (t->cols[c].md_hidden || !(dim ||
		    is_captionable(t->cols[c].key)) || !column_uniform(t, c))
			continue;
		t->cols[c].md_hidden = true;
		/* counts are in the caption already */
		if (!strcmp(t->cols[c].key, "n") || !strncmp(t->cols[c].key,
		    "n_", 2) || !strncmp(t->cols[c].key, "trials", 6) ||
		    !strcmp(t->cols[c].key, "failures") ||
		    !strcmp(t->cols[c].key, "timeouts"))
			continue;
		strbuf_addf(cap, "; %s: ", !strcmp(t->cols[c].key,
		    "condition") ? "condition" : t->cols[c].header);
		cell_plain(t, 0, c, cap);
	}
	report_caption_where(s, cap);
}

/* A trend table as the page shows it: each series point by point (21
 * "day: value" pairs a row) left to the CSV and the charts, and a
 * mixing list every row shares said once in the caption, not in each
 * verdict.  The CSV keeps both. */
static void
trend_compact(struct table *t, struct strbuf *cap)
{
	long sc = table_col(t, "series"), vc = table_col(t, "verdict");
	long cc = table_col(t, "changed_with");
	struct strbuf tail = STRBUF_INIT;
	const char *first;
	size_t r;

	if (!t->nrows)
		return;
	if (sc >= 0) {
		t->cols[sc].md_hidden = true;
		strbuf_addstr(cap, "; each series point by point: the table's "
		    "CSV (series)");
	}
	first = cc >= 0 && vc >= 0 ? table_str(t, 0, cc) : NULL;
	if (!first || !*first)
		return;
	for (r = 1; r < t->nrows; r++) {
		const char *c = table_str(t, r, cc);

		if (!c || strcmp(c, first))
			return;
	}
	strbuf_addf(&tail, "; the series %s", first);
	for (r = 0; r < t->nrows; r++) {
		const char *v = table_str(t, r, vc);
		const char *at = v ? strstr(v, tail.buf) : NULL;
		char *nv;

		if (!at)
			continue;
		nv = xasprintf("%.*s%s", (int)(at - v), v, at + tail.len);
		table_set_str(t, r, (size_t)vc, nv);
		free(nv);
	}
	strbuf_addf(cap, "; every series %s", first);
	strbuf_release(&tail);
}

/* ------------------------------------------------------------------
 * The CSV beside the Markdown: the analyze table with label columns
 */

/* A copy of src with "label" after "path" and "<col>_label" after
 * "minuend" and "subtrahend". */
static void
labelled_copy(const struct report_section *s, const struct table *src,
    struct table *dst)
{
	size_t *from = xcalloc(src->ncols * 2 + 1, sizeof(size_t));
	const char **labelof = xcalloc(src->ncols * 2 + 1, sizeof(char *));
	size_t c, r, n = 0;

	table_init(dst);
	dst->shown = src->shown;
	for (c = 0; c < src->ncols; c++) {
		const char *k = src->cols[c].key;
		size_t col = table_add_col(dst, k, src->cols[c].header,
		    src->cols[c].decimals);

		dst->cols[col].md_hidden = src->cols[c].md_hidden;
		dst->cols[col].right = src->cols[c].right;
		from[n] = c;
		labelof[n++] = NULL;
		if (!strcmp(k, "path") || !strcmp(k, "minuend") ||
		    !strcmp(k, "subtrahend")) {
			char *key = !strcmp(k, "path") ? xstrdup("label") :
			    xasprintf("%s_label", k);

			table_add_hidden_col(dst, key, key, -1);
			from[n] = c;
			labelof[n++] = k;
			free(key);
		}
	}
	for (r = 0; r < src->nrows; r++) {
		size_t row = table_add_row(dst);

		for (c = 0; c < n; c++) {
			const struct table_cell *sc =
			    &src->cells[r * src->ncols + from[c]];

			if (labelof[c]) {
				table_set_str(dst, row, c,
				    sc->type == CELL_STR ?
				    report_path_label(s, sc->str) : "");
			} else {
				table_copy_cell(dst, row, c, src, r, from[c]);
			}
		}
	}
	for (c = 0; c < src->nnotes; c++)
		table_add_note(dst, "%s", src->notes[c].buf);
	free(from);
	free(labelof);
}

/* ------------------------------------------------------------------
 * Writing a section
 */

static void
findings_of(const struct report_section *s, struct report_finding **out,
    size_t *n)
{
	size_t i;

	*out = xcalloc(s->nnotes + 1, sizeof(**out));
	*n = 0;
	for (i = 0; i < s->nnotes; i++) {
		struct report_finding *f = &(*out)[(*n)++];

		f->path = s->notes[i].path;
		f->condition = s->notes[i].condition;
		f->trial = s->notes[i].trial;
		f->metric = s->notes[i].metric;
		f->scope = s->notes[i].scope;
		f->text = s->notes[i].text;
	}
}

void
report_md_paragraph(struct strbuf *md, const char *text)
{
	const char *p = text;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	/* what could open a block at the start of a line: a list item, a
	 * thematic break or setext underline, an ordered list ("1.") */
	if (*p == '-' || *p == '+' || *p == '=')
		strbuf_addch(md, '\\');
	if (*p >= '0' && *p <= '9') {
		size_t d = strspn(p, "0123456789");

		if (p[d] == '.' || p[d] == ')') {
			strbuf_add(md, p, d);
			strbuf_addch(md, '\\');
			p += d;
		}
	}
	escape_md(md, p);
}

void
report_section_heading(struct strbuf *md, const struct report_section *s)
{
	int level = s->depth + 2, i;

	if (s->title) {
		strbuf_addch(md, '\n');
		for (i = 0; i < level && i < 6; i++)
			strbuf_addch(md, '#');
		strbuf_addch(md, ' ');
		escape_md(md, s->title);
		strbuf_addch(md, '\n');
	}
	if (s->text) {
		strbuf_addch(md, '\n');
		report_md_paragraph(md, s->text);
		strbuf_addch(md, '\n');
	}
}

/* Do findings a and b tell of one event: the same run or runs of one
 * trial, in the same cell and campaign? */
static bool
same_event(const struct check_finding *a, const struct check_finding *b)
{
	return a->trial > 0 && a->trial == b->trial && a->nruns &&
	    a->nruns == b->nruns &&
	    !memcmp(a->runs, b->runs, a->nruns * sizeof(*a->runs)) &&
	    !strcmp(a->metric, b->metric) && !strcmp(a->path, b->path) &&
	    !strcmp(a->condition, b->condition) &&
	    !strcmp(a->scope ? a->scope : "", b->scope ? b->scope : "");
}

/*
 * The note of finding i and of every later finding about the same event
 * (marked in done), into text: one footnote naming the checks that saw
 * it ("pathstat check, burst-cliff, run-order and outlier-trial, one
 * event:"), each check's evidence, and the first one's action.
 */
static void
event_note(const struct check_findings *f, size_t i, bool *done,
    struct strbuf *text)
{
	const struct check_finding *c = &f->items[i];
	size_t j, n = 1, k = 0;

	for (j = i + 1; j < f->n; j++)
		if (!done[j] && same_event(c, &f->items[j]))
			n++;
	strbuf_addstr(text, "pathstat check, ");
	if (n == 1) {
		strbuf_addf(text, "%s: %s. What to do: %s", c->check,
		    c->evidence, c->action);
		return;
	}
	for (j = i; j < f->n; j++) {
		if (j > i && (done[j] || !same_event(c, &f->items[j])))
			continue;
		strbuf_addf(text, "%s%s", k == 0 ? "" : k + 1 == n ?
		    " and " : ", ", f->items[j].check);
		k++;
	}
	strbuf_addf(text, ", one event seen by %zu checks:", n);
	for (j = i; j < f->n; j++) {
		if (j > i && (done[j] || !same_event(c, &f->items[j])))
			continue;
		strbuf_addf(text, " %s: %s.", f->items[j].check,
		    f->items[j].evidence);
		done[j] = true;
	}
	strbuf_addf(text, " What to do: %s", c->action);
}

/* Scope s without its day ("day=D,instance_type=T": "instance_type=T")
 * into sb, the day into *day (NULL: none; it points into s). */
static void
scope_sans_day(const char *s, struct strbuf *sb, const char **day,
    size_t *dlen)
{
	bool in_day = false;

	strbuf_reset(sb);
	*day = NULL;
	*dlen = 0;
	for (s = s ? s : ""; *s; s += *s == ',') {
		size_t l = strcspn(s, ",");

		if (memchr(s, '=', l))
			in_day = l > 4 && !strncmp(s, "day=", 4);
		if (in_day && !*day) {
			*day = s + 4;
			*dlen = l - 4;
		} else if (!in_day) {
			strbuf_addf(sb, "%s%.*s", sb->len ? "," : "", (int)l, s);
		}
		s += l;
	}
}

/* Is b the same story as a on another day: one check, path, condition,
 * metric and scope but the day?  ra and rb are scratch. */
static bool
same_but_day(const struct check_finding *a, const struct check_finding *b,
    struct strbuf *ra, struct strbuf *rb)
{
	const char *da, *db;
	size_t la, lb;

	if (strcmp(a->check, b->check) || strcmp(a->metric, b->metric) ||
	    strcmp(a->path, b->path) || strcmp(a->condition, b->condition))
		return false;
	scope_sans_day(a->scope, ra, &da, &la);
	scope_sans_day(b->scope, rb, &db, &lb);
	return da && db && !strcmp(ra->buf, rb->buf) &&
	    (la != lb || strncmp(da, db, la));
}

/*
 * A trend's row spans its days: finding i and the later ones that tell
 * its story on other days (marked in done) are one note naming the
 * days, with the first day's numbers, its scope each day's (*scope,
 * owned by the caller), *trial 0 unless every day's is the same.
 * Returns false, writing nothing, when i is alone.
 */
static bool
days_note(const struct check_findings *f, size_t i, bool *done,
    struct strbuf *text, char **scope, long *trial)
{
	const struct check_finding *c = &f->items[i];
	struct strbuf ra = STRBUF_INIT, rb = STRBUF_INIT, days = STRBUF_INIT;
	struct strbuf sc = STRBUF_INIT;
	const char *d;
	size_t j, n = 0, l;

	for (j = i; j < f->n; j++) {
		if (j > i && (done[j] || !same_but_day(c, &f->items[j], &ra,
		    &rb)))
			continue;
		scope_sans_day(f->items[j].scope, &ra, &d, &l);
		strbuf_addf(&days, "%s%.*s", n ? ", " : "", (int)l, d);
		strbuf_addf(&sc, "%s%.*s", n++ ? "," : "day=", (int)l, d);
	}
	if (n > 1) {
		/* "day=D1,D2,instance_type=T": footnote.c's in_scope
		 * reads a token without '=' as another day */
		if (ra.len)
			strbuf_addf(&sc, ",%s", ra.buf);
		*scope = strbuf_detach(&sc, NULL);
		bool same = true;

		for (j = i + 1; j < f->n; j++)
			if (!done[j] && same_but_day(c, &f->items[j], &ra,
			    &rb)) {
				same = same && !strcmp(c->evidence,
				    f->items[j].evidence);
				if (f->items[j].trial != c->trial)
					*trial = 0;
				done[j] = true;
			}
		done[i] = true;
		scope_sans_day(c->scope, &rb, &d, &l);
		strbuf_addf(text, "pathstat check, %s: on %zu days (%s): %s",
		    c->check, n, days.buf, c->evidence);
		/* each day's numbers differ: the first day's, and where
		 * the others are */
		if (!same)
			strbuf_addf(text, " (numbers from %.*s; pathstat "
			    "check --per-campaign gives each day's)", (int)l,
			    d);
		strbuf_addf(text, ". What to do: %s", c->action);
	}
	strbuf_release(&sc);
	strbuf_release(&ra);
	strbuf_release(&rb);
	strbuf_release(&days);
	return n > 1;
}

/*
 * The hygiene findings (pathstat check) under the section's own filters
 * and statistics, added to its notes so they become footnotes on the
 * cells they concern, the same way a spec's own footnotes do.
 */
static void
add_check_notes(struct report_bundle *b, struct report_section *s,
    const struct analyze_opts *o)
{
	static const char *const tags[] = { "day", "instance_type", "study" };
	struct check_findings f = CHECK_FINDINGS_INIT;
	struct check_opts co;
	struct strbuf text = STRBUF_INIT;
	const char *merge[ARRAY_SIZE(tags)];
	bool *done = NULL, trend = s->verb && !strcmp(s->verb, "trend");
	char *scope;
	long trial;
	size_t i, j;

	memset(&co, 0, sizeof(co));
	co.stats = o->stats;
	co.nstats = o->nstats;
	/* a footnote describes the cell it sits on: what the table pools
	 * (campaign tags that are not its --by columns) the checks pool
	 * too, and a story told in several campaigns is one note */
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		for (j = 0; j < o->nby && strcmp(o->by[j], tags[i]); j++)
			;
		if (j == o->nby)
			merge[co.nmerge_keys++] = tags[i];
	}
	co.merge_keys = merge;
	co.pooled = true;
	co.metric = o->metric;
	if (!b->check_cache)
		b->check_cache = check_cache_new();
	if (analyze_check_cached(b->db, &o->where, &co, b->check_cache, &f)) {
		warning("%s: hygiene checks failed; the table has no check "
		    "footnotes", s->loc);
		goto cleanup;
	}
	done = xcalloc(f.n + 1, sizeof(*done));
	for (i = 0; i < f.n; i++) {
		const struct check_finding *c = &f.items[i];
		struct report_note *n;

		if (done[i] || strcmp(c->metric, o->metric))
			continue;
		strbuf_reset(&text);
		scope = NULL;
		trial = c->trial > 0 ? c->trial : 0;
		/* a trend's row spans the days: one footnote per story,
		 * naming its days; else one per event, naming every check
		 * that saw it */
		if (!trend || !days_note(&f, i, done, &text, &scope, &trial))
			event_note(&f, i, done, &text);
		s->notes = xreallocarray(s->notes, s->nnotes + 1,
		    sizeof(*s->notes));
		n = &s->notes[s->nnotes++];
		n->path = xstrdup(c->path);
		n->condition = xstrdup(c->condition);
		n->trial = trial;
		n->metric = xstrdup(c->metric);
		n->scope = scope ? scope : c->scope ? xstrdup(c->scope) :
		    NULL;
		n->text = xstrdup(text.buf);
		b->nchecked++;
	}
cleanup:
	free(done);
	check_findings_release(&f);
	strbuf_release(&text);
}

/* The table's Markdown with its caption and notes, as index.md and the
 * .md file show it. */
static void
table_markdown(const struct report_bundle *b, const struct report_section *s,
    const struct table *t, const struct table *shown, const char *cap,
    bool index, struct strbuf *md)
{
	size_t i;

	table_render_md_body(shown, md);
	if (shown->nrows == 0)
		strbuf_addstr(md, "| _(no rows)_ |\n");
	strbuf_addf(md, "\n_Table %zu: ", b->ntables);
	if (s->title) {
		size_t tl = strlen(s->title);

		escape_md(md, s->title);
		strbuf_addstr(md, tl && strchr(".?!:", s->title[tl - 1]) ?
		    " " : ". ");
	}
	escape_md(md, cap);
	/* one caption: the method details are written once per bundle,
	 * in its Methods section, and the caption links to them */
	for (i = 0; i < t->nnotes; i++)
		strbuf_addf(md, "%s[M%zu](%s#methods)", i ? ", " :
		    "; methods: ", report_methods_ref(b->methods,
		    t->notes[i].buf), index ? "" : "../index.md");
	strbuf_addstr(md, "._\n");
}

/* provenance.json's entry for the table: its files and the command that
 * prints the same numbers (as CSV). */
static void
table_provenance(struct report_bundle *b, const struct report_section *s,
    const struct analyze_opts *o, const char *stem, bool pivot)
{
	struct analyze_opts shown = *o;
	struct strbuf sb = STRBUF_INIT;
	cJSON *entry = cJSON_CreateObject(), *arr;
	char **argv;
	size_t argc, i;

	shown.db_path = b->db_path;
	/* trials and trend: the bundle's CSV holds the table's rows, which
	 * their --format json prints (their CSV is the long form) */
	shown.format = analyze_long_verb(s->verb) ? TABLE_JSON : TABLE_CSV;
	argv = analyze_opts_argv(&shown, s->verb, s->nargs, s->args, &argc);
	cJSON_AddNumberToObject(entry, "table", (double)b->ntables);
	cJSON_AddStringToObject(entry, "spec_location", s->loc);
	strbuf_addf(&sb, "tables/%s.md", stem);
	cJSON_AddStringToObject(entry, "markdown", sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "tables/%s.csv", stem);
	cJSON_AddStringToObject(entry, "csv", sb.buf);
	cJSON_AddStringToObject(entry, "shape", s->type ==
	    REPORT_SEC_CALENDAR ? (s->calendar == REPORT_CAL_WEEKS ? "the "
	    "command's rows (path x week) with the week-over-week change" :
	    "calendar of the command's rows (days x paths)") : pivot ?
	    "pivot of the command's rows (paths x columns)" : analyze_long_verb(s->verb) ?
	    "the command's JSON rows as CSV plus label columns" : "the "
	    "command's CSV plus label columns");
	/* the numbers an engine computed with the command's --sql query */
	if (s->from_csv)
		cJSON_AddStringToObject(entry, "from_csv", s->from_csv);
	arr = cJSON_AddArrayToObject(entry, "argv");
	strbuf_reset(&sb);
	for (i = 0; i < argc; i++) {
		cJSON_AddItemToArray(arr, cJSON_CreateString(argv[i]));
		if (i)
			strbuf_addch(&sb, ' ');
		escape_shell(&sb, argv[i]);
	}
	cJSON_AddStringToObject(entry, "command", sb.buf);
	cJSON_AddItemToArray(b->prov_tables, entry);
	analyze_argv_free(argv, argc);
	strbuf_release(&sb);
}

/* Write tables/STEM.csv and .md, and the table into index.md. */
static int
table_files(struct report_bundle *b, const struct report_section *s,
    const char *stem, const struct strbuf *csv, const struct strbuf *md,
    const struct strbuf *mdi, size_t neutral)
{
	struct strbuf rel = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&rel, "tables/%s.csv", stem);
	if (report_bundle_write(b, rel.buf, csv->buf, csv->len))
		goto cleanup;
	strbuf_reset(&rel);
	strbuf_addf(&rel, "tables/%s.md", stem);
	if (report_bundle_write(b, rel.buf, md->buf, md->len))
		goto cleanup;
	report_section_heading(&b->index, s);
	strbuf_addch(&b->index, '\n');
	strbuf_add(&b->index, mdi->buf, mdi->len);
	strbuf_addf(&b->index, "\nData: [tables/%s.csv](tables/%s.csv) · "
	    "[tables/%s.md](tables/%s.md)\n", stem, stem, stem, stem);
	if (neutral)
		strbuf_addf(&b->index, "\nIn the CSV, %zu text field%s "
		    "starting with =, +, - or @ begin%s with ' so that a "
		    "spreadsheet shows %s instead of running %s as a formula "
		    "(`pathstat analyze --format csv` gives the exact text).\n",
		    neutral, neutral == 1 ? "" : "s", neutral == 1 ? "s" : "",
		    neutral == 1 ? "it" : "them", neutral == 1 ? "it" : "them");
	ret = 0;
cleanup:
	strbuf_release(&rel);
	return ret;
}

int
report_section_table(struct report_bundle *b, struct report_section *s)
{
	struct analyze_opts o;
	struct table t, shown, csvt;
	struct strbuf cap = STRBUF_INIT, md = STRBUF_INIT, csv = STRBUF_INIT;
	struct strbuf stem = STRBUF_INIT, mdi = STRBUF_INIT;
	struct report_finding *f = NULL;
	size_t nf = 0, no, neutral = 0;
	bool opts = false, pivot = s->type == REPORT_SEC_PIVOT;
	bool cal = s->type == REPORT_SEC_CALENDAR;
	int rc, ret = -1;

	table_init(&t);
	table_init(&shown);
	table_init(&csvt);
	if (!s->from_csv && report_check_paths(b, s))
		goto cleanup;
	if (report_section_opts(b->spec, s, &o))
		goto cleanup;
	opts = true;
	if (pivot && report_pivot_by(b, s, &o))
		goto cleanup;
	/* an engine's table: the database may not hold its corpus, so
	 * neither paths nor hygiene checks are judged from it */
	if (b->checks && o.metric && !s->from_csv)
		add_check_notes(b, s, &o);
	if (s->from_csv)
		rc = report_table_from_csv(b->spec, s, &o, &t) ? -3 : 0;
	else
		rc = report_build(b->db, s->verb, &o, (int)s->nargs, s->args,
		    &t);
	if (rc == -3)
		goto cleanup;
	if (rc) {
		report_spec_error(b->spec, s->loc, "%s table could not be "
		    "built%s", s->verb, rc == -2 ? " (bad arguments for the "
		    "verb)" : "");
		goto cleanup;
	}
	no = ++b->nfiles_no;
	strbuf_addf(&stem, "%02zu-%s", no, s->id);
	b->ntables++;
	if (pivot) {
		if (report_pivot_build(b, s, &o, &t, &shown, &cap))
			goto cleanup;
		neutral = table_render_csv_sheet(&shown, &csv);
	} else if (cal) {
		if (report_calendar_build(b, s, &o, &t, &shown, &cap))
			goto cleanup;
		neutral = table_render_csv_sheet(&shown, &csv);
	} else {
		labelled_copy(s, &t, &csvt);
		neutral = table_render_csv_sheet(&csvt, &csv);
		labelled_copy(s, &t, &shown);
		dress(s, &o, &shown, &cap);
		if (s->verb && !strcmp(s->verb, "trend"))
			trend_compact(&shown, &cap);
		findings_of(s, &f, &nf);
		report_footnotes_attach(&b->fn, &shown, f, nf);
	}
	if (s->from_csv)
		strbuf_addf(&cap, "; numbers from %s, an engine's result of the "
		    "query `pathstat analyze … --sql` prints, not from the "
		    "database", s->from_csv);
	if (s->from_csv && !strcmp(s->verb, "delta"))
		strbuf_addstr(&cap, "; growth (Δp99 / Δp50) is left to "
		    "analyze: it is printed only where Δp50's trial-level "
		    "interval excludes 0, which needs every sample");
	table_markdown(b, s, &t, &shown, cap.buf, false, &md);
	table_markdown(b, s, &t, &shown, cap.buf, true, &mdi);
	if (table_files(b, s, stem.buf, &csv, &md, &mdi, neutral))
		goto cleanup;
	table_provenance(b, s, &o, stem.buf, pivot);
	if (s->chart && report_chart_write(b, s, pivot ? &shown : NULL, no))
		goto cleanup;
	ret = 0;
cleanup:
	if (opts)
		analyze_opts_release(&o);
	table_release(&t);
	table_release(&shown);
	table_release(&csvt);
	strbuf_release(&cap);
	strbuf_release(&md);
	strbuf_release(&mdi);
	strbuf_release(&csv);
	strbuf_release(&stem);
	free(f);
	return ret;
}
