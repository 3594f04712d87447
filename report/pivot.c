/*
 * pivot.c - pivot tables of a bundle: one statistic of a percentiles
 * table laid out as paths down and condition columns across (the spec's
 * columns, or one per condition), with derived difference and ratio
 * columns, "not measured" cells, footnotes on the cells they concern and
 * a caption naming what each cell is.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "common/escape.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/internal.h"

/* Does the canonical condition cond hold every k=v of want? */
static bool
cond_holds(const char *cond, const char *want)
{
	char *w = xstrdup(want), *p = w, *tok;
	bool ok = true;

	while (ok && (tok = strsep(&p, ",")) != NULL) {
		size_t tl = strlen(tok);
		const char *at = cond;

		if (!tl)
			continue;
		ok = false;
		while ((at = strstr(at, tok)) != NULL) {
			if ((at == cond || at[-1] == ',') &&
			    (at[tl] == ',' || at[tl] == '\0')) {
				ok = true;
				break;
			}
			at++;
		}
	}
	free(w);
	return ok;
}

/* A string cell, "" when absent. */
static const char *
str_at(const struct table *t, size_t row, long col)
{
	const char *s = table_str(t, row, col);

	return s ? s : "";
}

static void
note_text(const struct report_note *n, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (n->trial > 0)
		strbuf_addf(sb, "trial %ld: ", n->trial);
	strbuf_addstr(sb, n->text);
}

/* A pivot being laid out from a percentiles table. */
struct pivot {
	const struct table	*t;	/* the percentiles table (borrowed) */
	struct report_pivot_col	*cols;	/* the spec's columns, or own */
	size_t			ncols;
	bool			own;	/* cols made here, one per condition */
	const char		**rows;	/* path IDs (borrowed) */
	size_t			nrows;
	size_t			*hit;	/* rows x cols: row of t + 1, 0: none */
	long			pcol, ccol;	/* path, condition in t */
	int64_t			nlo, nhi, tlo, thi;	/* n and trials used */
	bool			counted;	/* nlo..thi are set */
	size_t			missing;	/* cells not measured */
	const struct table	**ct;	/* per column: its metric's table */
	struct table		*other;	/* tables of the columns' own
					 * metrics (owned), nother */
	const char		**other_metric;
	size_t			nother;
	bool			*cens;	/* rows x cols: "≥ timeout" */
	size_t			ncens;	/* such cells */
};

static void
pivot_release(struct pivot *pv)
{
	size_t i;

	for (i = 0; pv->own && i < pv->ncols; i++) {
		free(pv->cols[i].cond);
		free(pv->cols[i].key);
		free(pv->cols[i].stat);
		free(pv->cols[i].label);
	}
	if (pv->own)
		free(pv->cols);
	free(pv->rows);
	free(pv->hit);
	free(pv->cens);
	free(pv->ct);
	for (i = 0; i < pv->nother; i++)
		table_release(&pv->other[i]);
	free(pv->other);
	free(pv->other_metric);
}

/* Rows: the spec's paths, else paths in the order t has them. */
static void
pivot_rows(const struct report_section *s, struct pivot *pv)
{
	const struct table *t = pv->t;
	size_t r, i;

	pv->rows = xcalloc(s->npaths + t->nrows + 1, sizeof(char *));
	for (i = 0; i < s->npaths; i++)
		pv->rows[pv->nrows++] = s->paths[i].id;
	for (r = 0; !s->npaths && r < t->nrows; r++) {
		const char *p = str_at(t, r, pv->pcol);

		for (i = 0; i < pv->nrows; i++)
			if (!strcmp(pv->rows[i], p))
				break;
		if (i == pv->nrows)
			pv->rows[pv->nrows++] = p;
	}
}

/* Columns: the spec's, else one per condition t holds. */
static void
pivot_cols(const struct report_section *s, struct pivot *pv)
{
	const struct table *t = pv->t;
	const char *stats = report_section_opt(s, "stats");
	size_t r, i, slen = strcspn(stats, ",");

	if (s->ncols) {
		pv->cols = s->cols;
		pv->ncols = s->ncols;
		return;
	}
	pv->own = true;
	pv->cols = xcalloc(t->nrows + 1, sizeof(*pv->cols));
	for (r = 0; r < t->nrows; r++) {
		struct report_pivot_col *c = &pv->cols[pv->ncols];
		const char *cond = str_at(t, r, pv->ccol);

		for (i = 0; i < pv->ncols; i++)
			if (!strcmp(pv->cols[i].cond, cond))
				break;
		if (i < pv->ncols)
			continue;
		c->cond = xstrdup(cond);
		c->key = xstrdup(*cond ? cond : "none");
		c->stat = xstrndup(stats, slen);
		c->label = xasprintf("%s (%s)", *cond ? cond : "no condition",
		    c->stat);
		pv->ncols++;
	}
}

/* Does row r of t (column c's table) fall under column c? */
static bool
pivot_fits(const struct pivot *pv, const struct table *t, size_t r,
    const struct report_pivot_col *c)
{
	const char *cond = str_at(t, r, table_col(t, "condition"));

	if (pv->own || !*c->cond)
		return !strcmp(cond, c->cond);
	return cond_holds(cond, c->cond);
}

/* Find each (path, column) cell's row of t; two rows for one cell is
 * an error at the column's spec location. */
static int
pivot_match(struct report_bundle *b, const struct report_section *s,
    struct pivot *pv)
{
	size_t i, c, r;

	pv->hit = xcalloc(pv->nrows * pv->ncols + 1, sizeof(size_t));
	pv->cens = xcalloc(pv->nrows * pv->ncols + 1, sizeof(bool));
	for (c = 0; c < pv->ncols; c++) {
		const struct table *t = pv->ct[c];
		long pc = table_col(t, "path"), cc = table_col(t, "condition");

		if (pv->cols[c].derive)
			continue;
		for (i = 0; i < pv->nrows; i++) {
			size_t *h = &pv->hit[i * pv->ncols + c];

			for (r = 0; r < t->nrows; r++) {
				char *l;

				if (strcmp(str_at(t, r, pc), pv->rows[i]) ||
				    !pivot_fits(pv, t, r, &pv->cols[c]))
					continue;
				if (!*h) {
					*h = r + 1;
					continue;
				}
				l = xasprintf("%s.columns[%zu]", s->loc, c);
				report_spec_error(b->spec, l, "condition '%s' "
				    "matches two cells of path '%s' ('%s' and "
				    "'%s'): add keys to the condition or a "
				    "where", pv->cols[c].cond, pv->rows[i],
				    str_at(t, *h - 1, cc), str_at(t, r, cc));
				free(l);
				return -1;
			}
		}
	}
	return 0;
}

static void
pivot_count(struct pivot *pv, const struct table *t, size_t r)
{
	long nc = table_col(t, "n"), tc = table_col(t, "trials");
	int64_t n, tr;

	if (nc < 0 || tc < 0)
		return;
	n = t->cells[r * t->ncols + (size_t)nc].type == CELL_INT ?
	    t->cells[r * t->ncols + (size_t)nc].i : 0;
	tr = t->cells[r * t->ncols + (size_t)tc].type == CELL_INT ?
	    t->cells[r * t->ncols + (size_t)tc].i : 0;
	if (!pv->counted || n < pv->nlo)
		pv->nlo = n;
	if (!pv->counted || n > pv->nhi)
		pv->nhi = n;
	if (!pv->counted || tr < pv->tlo)
		pv->tlo = tr;
	if (!pv->counted || tr > pv->thi)
		pv->thi = tr;
	pv->counted = true;
}

/* Is statistic stat of row r of t "≥ timeout" (its <stat>_ge_timeout)? */
static bool
pivot_censored(const struct table *t, size_t r, const char *stat)
{
	struct strbuf k = STRBUF_INIT;
	long gc;

	strbuf_addf(&k, "%s_ge_timeout", stat);
	gc = table_col(t, k.buf);
	strbuf_release(&k);
	return gc >= 0 && table_num(t, r, gc) == 1;
}

/* Cell (row, col) of pt from row r of t (r == SIZE_MAX: none). */
static void
pivot_value(struct pivot *pv, struct table *pt, size_t row, size_t col,
    size_t r, const char *stat)
{
	const struct table *t = pv->ct[col - 2];
	long sc = table_col(t, stat);
	const struct table_cell *v;
	struct strbuf sb = STRBUF_INIT;

	if (r == SIZE_MAX || sc < 0) {
		table_set_null(pt, row, col);
		table_set_display_raw(pt, row, col, "not measured");
		pv->missing++;
		return;
	}
	v = &t->cells[r * t->ncols + (size_t)sc];
	if (pivot_censored(t, r, stat)) {
		/* the successes' value is no value of all attempts: no
		 * number in the pivot's data, nor in its derived columns */
		table_set_null(pt, row, col);
		table_set_display_raw(pt, row, col, v->display ? v->display :
		    "≥ timeout");
		pv->cens[row * pv->ncols + (col - 2)] = true;
		pv->ncens++;
		pivot_count(pv, t, r);
		return;
	}
	if (v->type == CELL_NUM)
		table_set_num(pt, row, col, v->num);
	if (v->display)
		strbuf_addstr(&sb, v->display);
	else if (v->type == CELL_NUM)
		md_number(&sb, v->num, t->cols[sc].decimals);
	else
		strbuf_addstr(&sb, "not measured");
	table_set_display_raw(pt, row, col, sb.buf);
	strbuf_release(&sb);
	/* n and trials in the caption are the section metric's */
	if (t == pv->t)
		pivot_count(pv, t, r);
}

/* A static cell: the spec's value for this row's path, else "–". */
static void
pivot_static(struct table *pt, size_t row, size_t col,
    const struct report_pivot_col *c, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k;

	for (k = 0; k < c->nvalues; k++)
		if (!strcmp(c->vpath[k], path))
			break;
	if (k == c->nvalues) {
		table_set_null(pt, row, col);
		table_set_display_raw(pt, row, col, "–");
		return;
	}
	if (isnan(c->vnum[k]))
		table_set_str(pt, row, col, c->vtext[k]);
	else
		table_set_num(pt, row, col, c->vnum[k]);
	escape_md(&sb, c->vtext[k]);
	table_set_display_raw(pt, row, col, sb.buf);
	strbuf_release(&sb);
}

/* A derived cell: column a minus (or over) column b of the same row. */
static void
pivot_derived(const struct pivot *pv, struct table *pt, size_t row,
    size_t col, const struct report_pivot_col *c, const struct unit_choice *u)
{
	const struct table_cell *ca = table_at(pt, row, 2 + c->a);
	const struct table_cell *cb = table_at(pt, row, 2 + c->b);
	struct strbuf sb = STRBUF_INIT;
	double v;

	if (pv->cens[row * pv->ncols + c->a] ||
	    pv->cens[row * pv->ncols + c->b]) {
		table_set_null(pt, row, col);
		table_set_display_raw(pt, row, col, "–, censored");
		return;
	}
	if (ca->type != CELL_NUM || cb->type != CELL_NUM) {
		table_set_null(pt, row, col);
		table_set_display_raw(pt, row, col, "not measured");
		return;
	}
	v = c->derive == 'd' ? ca->num - cb->num : ca->num / cb->num;
	table_set_num(pt, row, col, v);
	if (c->derive == 'd') {
		strbuf_addstr(&sb, v >= 0 ? "+" : "−");
		/* in the unit of the cells it derives from */
		units_format(&sb, u, fabs(v));
	} else {
		md_number(&sb, v, 2);
		strbuf_addstr(&sb, "×");
	}
	table_set_display_raw(pt, row, col, sb.buf);
	strbuf_release(&sb);
}

/* Footnotes: on the cell whose condition a note names, else on the
 * path. */
static void
pivot_notes(struct report_bundle *b, const struct report_section *s,
    const struct pivot *pv, struct table *pt)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k, i, c;

	for (k = 0; k < s->nnotes; k++) {
		const struct report_note *n = &s->notes[k];

		if (n->metric && strcmp(n->metric, s->metric) &&
		    n->condition == NULL)
			continue;
		note_text(n, &sb);
		for (i = 0; i < pv->nrows; i++) {
			if (n->path && strcmp(n->path, pv->rows[i]))
				continue;
			if (!n->condition) {
				report_cell_mark(pt, i, 0,
				    report_footnote_ref(&b->fn, sb.buf));
				continue;
			}
			for (c = 0; c < pv->ncols; c++) {
				size_t h = pv->hit[i * pv->ncols + c];
				bool on;

				/* a derived column has no condition */
				if (pv->cols[c].derive)
					continue;
				if (n->metric && strcmp(n->metric,
				    pv->cols[c].metric ? pv->cols[c].metric :
				    s->metric))
					continue;
				on = h ? !strcmp(str_at(pv->ct[c], h - 1,
				    table_col(pv->ct[c], "condition")),
				    n->condition) :
				    cond_holds(n->condition, pv->cols[c].cond);
				if (!on)
					continue;
				report_cell_mark(pt, i, 2 + c,
				    report_footnote_ref(&b->fn, sb.buf));
			}
		}
	}
	strbuf_release(&sb);
}

static void
pivot_caption(const struct report_section *s, const struct analyze_opts *o,
    const struct pivot *pv, struct strbuf *cap)
{
	size_t c, i, k = 0;

	report_caption_method(s, o, pv->t, pv->t->shown.name, cap);
	strbuf_addstr(cap, "; each cell is the ");
	for (c = 0; c < pv->ncols; c++) {
		const struct report_pivot_col *col = &pv->cols[c];

		if (col->derive || (col->metric && strcmp(col->metric,
		    s->metric)))
			continue;
		for (i = 0; i < c; i++)
			if (!pv->cols[i].derive &&
			    !strcmp(pv->cols[i].stat, col->stat))
				break;
		if (i == c)
			strbuf_addf(cap, "%s%s", k++ ? "/" : "", col->stat);
	}
	strbuf_addstr(cap, " of one path under the column's condition");
	if (pv->counted) {
		report_caption_range(cap, "n", pv->nlo, pv->nhi,
		    pv->nlo == pv->nhi ? "samples per cell" : "samples");
		report_caption_range(cap, "trials", pv->tlo, pv->thi,
		    pv->tlo == pv->thi ? "per cell" : "");
	}
	if (pv->missing)
		strbuf_addstr(cap, "; not measured: no runs of that path under "
		    "that condition");
	if (pv->ncens)
		strbuf_addstr(cap, "; ≥ timeout: the statistic of all attempts "
		    "reads a timed-out one (no number, and none derived from "
		    "it: –, censored)");
	for (c = 0; c < pv->ncols; c++) {
		const struct report_pivot_col *col = &pv->cols[c];
		const struct metric *cm = col->metric ?
		    metric_by_name(col->metric) : NULL;

		if (cm && strcmp(col->metric, s->metric))
			strbuf_addf(cap, "; %s: the %s of %s (%s) in %s",
			    col->label, col->stat, cm->title, cm->name,
			    pv->ct[c]->shown.name ? pv->ct[c]->shown.name :
			    cm->display_unit);
		if (col->derive == 's')
			strbuf_addf(cap, "; %s: from the spec", col->label);
		if (col->derive == 'd' || col->derive == 'r')
			strbuf_addf(cap, "; %s = %s %s %s", col->label,
			    pv->cols[col->a].label, col->derive == 'd' ? "−" :
			    "/", pv->cols[col->b].label);
	}
	report_caption_where(s, cap);
}

/* Each column's table: t, or for a column with a metric of its own a
 * percentiles table of that metric with the section's options. */
static int
pivot_tables(struct report_bundle *b, const struct report_section *s,
    const struct analyze_opts *o, struct pivot *pv)
{
	size_t c, k;

	pv->ct = xcalloc(pv->ncols + 1, sizeof(*pv->ct));
	pv->other = xcalloc(pv->ncols + 1, sizeof(*pv->other));
	pv->other_metric = xcalloc(pv->ncols + 1, sizeof(char *));
	for (c = 0; c < pv->ncols; c++) {
		const char *cm = pv->own ? NULL : pv->cols[c].metric;
		struct analyze_opts o2;

		pv->ct[c] = pv->t;
		if (!cm || !strcmp(cm, s->metric))
			continue;
		for (k = 0; k < pv->nother; k++)
			if (!strcmp(pv->other_metric[k], cm))
				break;
		if (k == pv->nother) {
			/* the section's options, another metric: borrowed
			 * pointers, nothing of o2 is released */
			o2 = *o;
			o2.metric = cm;
			table_init(&pv->other[k]);
			if (analyze_build(b->db, "percentiles", &o2, 0, NULL,
			    &pv->other[k])) {
				char *l = xasprintf("%s.columns[%zu]", s->loc,
				    c);

				report_spec_error(b->spec, l, "no %s table "
				    "could be built", cm);
				free(l);
				return -1;
			}
			pv->other_metric[k] = cm;
			pv->nother++;
		}
		pv->ct[c] = &pv->other[k];
	}
	return 0;
}

/*
 * Build the pivot table pt from t (a percentiles table) and its caption.
 * Returns 0, or -1 after naming the spec location (a column that matches
 * two cells of one path).
 */
int
report_pivot_build(struct report_bundle *b, struct report_section *s,
    const struct analyze_opts *o, const struct table *t, struct table *pt,
    struct strbuf *cap)
{
	struct pivot pv;
	struct strbuf sb = STRBUF_INIT;
	const struct metric *m = metric_by_name(s->metric);
	struct unit_choice u = t->shown;
	size_t i, c, row;
	int ret = -1;

	/* a table without a chosen unit: the registry's, as before */
	if (!u.name)
		units_choose(m, NULL, NAN, true, &u);
	memset(&pv, 0, sizeof(pv));
	pv.t = t;
	pv.pcol = table_col(t, "path");
	pv.ccol = table_col(t, "condition");
	table_init(pt);
	pt->shown = u;
	pivot_rows(s, &pv);
	pivot_cols(s, &pv);
	if (pivot_tables(b, s, o, &pv))
		goto cleanup;
	if (pivot_match(b, s, &pv))
		goto cleanup;
	table_add_col(pt, "path", "Path", -1);
	table_add_hidden_col(pt, "label", "label", -1);
	for (c = 0; c < pv.ncols; c++)
		table_add_col(pt, pv.cols[c].key, pv.cols[c].label, -1);
	for (i = 0; i < pv.nrows; i++) {
		row = table_add_row(pt);
		table_set_str(pt, row, 0, pv.rows[i]);
		table_set_str(pt, row, 1, report_path_label(s, pv.rows[i]));
		strbuf_reset(&sb);
		report_path_md(&sb, pv.rows[i],
		    report_path_label(s, pv.rows[i]));
		table_set_display_raw(pt, row, 0, sb.buf);
		for (c = 0; c < pv.ncols; c++) {
			size_t h = pv.hit[i * pv.ncols + c];

			if (pv.cols[c].derive == 's')
				pivot_static(pt, row, 2 + c, &pv.cols[c],
				    pv.rows[i]);
			else if (pv.cols[c].derive)
				pivot_derived(&pv, pt, row, 2 + c, &pv.cols[c],
				    &u);
			else
				pivot_value(&pv, pt, row, 2 + c, h ? h - 1 :
				    SIZE_MAX, pv.cols[c].stat);
		}
	}
	pivot_notes(b, s, &pv, pt);
	pivot_caption(s, o, &pv, cap);
	ret = 0;
cleanup:
	pivot_release(&pv);
	strbuf_release(&sb);
	if (ret)
		table_release(pt);
	return ret;
}

