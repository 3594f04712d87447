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
#include "common/keycat.h"
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
	char *const		*tags;	/* the query's --by keys (borrowed
					 * from its options): columns of t */
	size_t			ntags;
	bool			*mtu_col;	/* per column: path_mtu */
	struct table		mtu;	/* analyze mtu's table, where a
					 * column is path_mtu (owned) */
	bool			has_mtu;
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
	free(pv->mtu_col);
	if (pv->has_mtu)
		table_release(&pv->mtu);
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

/* The value of key in a column's canonical "k=v,k=v" (not NUL-ended:
 * *len gets its length), NULL when the column does not name key. */
static const char *
col_value(const char *cond, const char *key, size_t *len)
{
	size_t kl = strlen(key);
	const char *p = cond;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			*len = strcspn(p + kl + 1, ",");
			return p + kl + 1;
		}
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

/* Does some condition column of pv select tag key = v? */
static bool
tag_claimed(const struct pivot *pv, const char *key, const char *v)
{
	size_t c, len;

	for (c = 0; c < pv->ncols; c++) {
		const char *cv = pv->cols[c].derive ? NULL :
		    col_value(pv->cols[c].cond, key, &len);

		if (cv && strlen(v) == len && !strncmp(cv, v, len))
			return true;
	}
	return false;
}

/* Does row r of t (column c's table) fall under column c?  A spec's
 * column selects by condition keys and by the tags (pv->tags: the rows
 * are split by them, report_pivot_by()); a row whose tag value another
 * column selects is that column's alone, never pooled into a column that
 * does not name the tag. */
static bool
pivot_fits(const struct pivot *pv, const struct table *t, size_t r,
    const struct report_pivot_col *c)
{
	const char *cond = str_at(t, r, table_col(t, "condition"));
	char *w, *p, *tok;
	bool ok = true;
	size_t k, len;

	if (pv->own)
		return !strcmp(cond, c->cond);
	for (k = 0; k < pv->ntags; k++) {
		const char *v = str_at(t, r, table_col(t, pv->tags[k]));

		if (!col_value(c->cond, pv->tags[k], &len) &&
		    tag_claimed(pv, pv->tags[k], v))
			return false;
	}
	if (!*c->cond)
		return !strcmp(cond, "");
	w = xstrdup(c->cond);
	p = w;
	while (ok && (tok = strsep(&p, ",")) != NULL) {
		char *eq = strchr(tok, '=');

		for (k = 0; eq && k < pv->ntags; k++)
			if (strlen(pv->tags[k]) == (size_t)(eq - tok) &&
			    !strncmp(tok, pv->tags[k], (size_t)(eq - tok)))
				break;
		if (eq && k < pv->ntags)
			ok = !strcmp(str_at(t, r, table_col(t, pv->tags[k])),
			    eq + 1);
		else
			ok = cond_holds(cond, tok);
	}
	free(w);
	return ok;
}

/* Row r of t as the cell it is: its condition and tag values, into sb. */
static void
row_name(const struct pivot *pv, const struct table *t, size_t r,
    struct strbuf *sb)
{
	size_t k;

	strbuf_reset(sb);
	strbuf_addstr(sb, str_at(t, r, table_col(t, "condition")));
	for (k = 0; k < pv->ntags; k++) {
		const char *v = str_at(t, r, table_col(t, pv->tags[k]));

		strbuf_addf(sb, "%s%s=%s", sb->len ? "," : "", pv->tags[k],
		    *v ? v : "(none)");
	}
}

/* What column c could have selected, for its error: the conditions and
 * tag values of the rows' paths, into sb. */
static void
pivot_exists(const struct pivot *pv, const struct table *t,
    struct strbuf *sb)
{
	struct strbuf one = STRBUF_INIT;
	long pc = table_col(t, "path");
	size_t r, q, i;

	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < pv->nrows; i++)
			if (!strcmp(str_at(t, r, pc), pv->rows[i]))
				break;
		if (i == pv->nrows)
			continue;
		row_name(pv, t, r, &one);
		for (q = 0; q < r; q++) {
			struct strbuf prev = STRBUF_INIT;
			bool same;

			row_name(pv, t, q, &prev);
			same = !strcmp(prev.buf, one.buf);
			strbuf_release(&prev);
			if (same)
				break;
		}
		if (q == r)
			strbuf_addf(sb, "%s'%s'", sb->len ? ", " : "",
			    one.buf);
	}
	strbuf_release(&one);
}

/* A spec's condition column that selects no row of any path: an error
 * naming what the paths have.  Returns 0 or -1. */
static int
pivot_empty(struct report_bundle *b, const struct report_section *s,
    const struct pivot *pv)
{
	struct strbuf sb = STRBUF_INIT;
	size_t c, i;
	char *l;

	for (c = 0; !pv->own && c < pv->ncols; c++) {
		if (pv->cols[c].derive)
			continue;
		for (i = 0; i < pv->nrows; i++)
			if (pv->hit[i * pv->ncols + c])
				break;
		if (i < pv->nrows)
			continue;
		pivot_exists(pv, pv->ct[c], &sb);
		l = xasprintf("%s.columns[%zu]", s->loc, c);
		report_spec_error(b->spec, l, "condition '%s' selects no run "
		    "of the table's paths (there: %s)", pv->cols[c].cond,
		    sb.len ? sb.buf : "no runs");
		free(l);
		strbuf_release(&sb);
		return -1;
	}
	return 0;
}

/* Find each (path, column) cell's row of t; two rows for one cell is
 * an error at the column's spec location. */
static int
pivot_match(struct report_bundle *b, const struct report_section *s,
    struct pivot *pv)
{
	struct strbuf one = STRBUF_INIT, two = STRBUF_INIT;
	size_t i, c, r, dc = 0, di = 0, dr = 0;
	bool dup = false;
	char *l;

	pv->hit = xcalloc(pv->nrows * pv->ncols + 1, sizeof(size_t));
	pv->cens = xcalloc(pv->nrows * pv->ncols + 1, sizeof(bool));
	for (c = 0; c < pv->ncols; c++) {
		const struct table *t = pv->ct[c];
		long pc = table_col(t, "path");

		if (pv->cols[c].derive)
			continue;
		for (i = 0; i < pv->nrows; i++) {
			size_t *h = &pv->hit[i * pv->ncols + c];

			for (r = 0; r < t->nrows; r++) {
				if (strcmp(str_at(t, r, pc), pv->rows[i]) ||
				    !pivot_fits(pv, t, r, &pv->cols[c]))
					continue;
				if (!*h)
					*h = r + 1;
				else if (!dup) {
					dup = true;
					dc = c;
					di = i;
					dr = r;
				}
			}
		}
	}
	/* a column that selects nothing says what there is first: its
	 * runs may be what another column pooled */
	if (pivot_empty(b, s, pv))
		return -1;
	if (!dup)
		return 0;
	l = xasprintf("%s.columns[%zu]", s->loc, dc);
	row_name(pv, pv->ct[dc], pv->hit[di * pv->ncols + dc] - 1, &one);
	row_name(pv, pv->ct[dc], dr, &two);
	report_spec_error(b->spec, l, "condition '%s' matches two cells of "
	    "path '%s' ('%s' and '%s'): add keys to the condition or a where",
	    pv->cols[dc].cond, pv->rows[di], one.buf, two.buf);
	free(l);
	strbuf_release(&one);
	strbuf_release(&two);
	return -1;
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

/*
 * An MTU cell without a number says what analyze mtu's table says for
 * the same path and condition: "could not measure" and the reason,
 * into sb.  Returns false when that table has no such row.
 */
static bool
pivot_mtu_why(const struct pivot *pv, const struct table *t, size_t r,
    struct strbuf *sb)
{
	const struct table *m = &pv->mtu;
	long mp = table_col(m, "path"), mc = table_col(m, "condition");
	long mm = table_col(m, "mtu"), mr = table_col(m, "reason");
	long tp = table_col(t, "path"), tc = table_col(t, "condition");
	const struct table_cell *c;
	size_t i;

	if (!pv->has_mtu || mp < 0 || mm < 0 || tp < 0)
		return false;
	for (i = 0; i < m->nrows; i++) {
		if (strcmp(str_at(t, r, tp), str_at(m, i, mp)) ||
		    strcmp(tc < 0 ? "" : str_at(t, r, tc),
		    mc < 0 ? "" : str_at(m, i, mc)))
			continue;
		c = &m->cells[i * m->ncols + (size_t)mm];
		if (!c->display)
			return false;
		strbuf_addstr(sb, table_cell_display(m, c));
		if (mr >= 0 && *str_at(m, i, mr))
			strbuf_addf(sb, ": %s", str_at(m, i, mr));
		return true;
	}
	return false;
}

/* A UDP cell names, as analyze's table does, which side its number is
 * and the loss beside it: ", receiver (end of test), loss 0.04 %". */
static void
pivot_udp_side(const struct table *t, size_t r, struct strbuf *sb)
{
	long sc = table_col(t, "side"), lc = table_col(t, "udp_loss_pct");
	const char *side;

	if (sc < 0)
		return;
	side = str_at(t, r, sc);
	if (!*side)
		return;
	strbuf_addf(sb, ", %s", side);
	if (lc >= 0 && t->cells[r * t->ncols + (size_t)lc].type == CELL_NUM)
		strbuf_addf(sb, ", loss %.2g %%",
		    t->cells[r * t->ncols + (size_t)lc].num);
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
		table_set_display_raw(pt, row, col, v->display ?
		    table_cell_display(t, v) : "≥ timeout");
		pv->cens[row * pv->ncols + (col - 2)] = true;
		pv->ncens++;
		pivot_count(pv, t, r);
		return;
	}
	if (v->type == CELL_NUM)
		table_set_num(pt, row, col, v->num);
	if (v->type != CELL_NUM && pv->mtu_col && pv->mtu_col[col - 2] &&
	    pivot_mtu_why(pv, t, r, &sb))
		;
	else if (v->display)
		strbuf_addstr(&sb, table_cell_display(t, v));
	else if (v->type == CELL_NUM)
		md_number(&sb, v->num, t->cols[sc].decimals);
	else
		strbuf_addstr(&sb, "not measured");
	pivot_udp_side(t, r, &sb);
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
	pv->mtu_col = xcalloc(pv->ncols + 1, sizeof(*pv->mtu_col));
	for (c = 0; c < pv->ncols; c++) {
		const char *cm = pv->own ? NULL : pv->cols[c].metric;
		struct analyze_opts o2;

		pv->mtu_col[c] = !strcmp(cm ? cm : s->metric,
		    metric_by_id(METRIC_PATH_MTU)->name);
		if (pv->mtu_col[c] && !pv->has_mtu) {
			/* borrowed pointers, nothing of o2 is released */
			o2 = *o;
			o2.metric = metric_by_id(METRIC_PATH_MTU)->name;
			table_init(&pv->mtu);
			if (report_build(b->db, "mtu", &o2, 0, NULL,
			    &pv->mtu) == 0)
				pv->has_mtu = true;
			else
				table_release(&pv->mtu);
		}
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
			if (report_build(b->db, "percentiles", &o2, 0, NULL,
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
	pv.tags = o->by;
	pv.ntags = o->nby;
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


int
report_pivot_by(struct report_bundle *b, const struct report_section *s,
    struct analyze_opts *o)
{
	size_t c, k;

	for (c = 0; c < s->ncols; c++) {
		char *w, *p, *tok;
		int rc = 0;

		if (s->cols[c].derive || !s->cols[c].cond)
			continue;
		w = xstrdup(s->cols[c].cond);
		p = w;
		while (rc >= 0 && (tok = strsep(&p, ",")) != NULL) {
			char *eq = strchr(tok, '=');

			if (!eq)
				continue;
			*eq = '\0';
			for (k = 0; k < o->nby; k++)
				if (!strcmp(o->by[k], tok))
					break;
			if (k < o->nby)
				continue;
			rc = keycat_is_condition_key(b->db, tok);
			if (rc == 0) {
				o->by = xreallocarray(o->by, o->nby + 1,
				    sizeof(char *));
				o->by[o->nby++] = xstrdup(tok);
				/* provenance's command splits rows as the
				 * table does (an engine's CSV needs it) */
				o->given |= UINT32_C(1) << ANALYZE_OPT_BY;
			}
		}
		free(w);
		if (rc < 0)
			return -1;
	}
	return 0;
}
