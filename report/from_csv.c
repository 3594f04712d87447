/*
 * from_csv.c - a section's table from a CSV an engine wrote: the result
 * of `pathstat analyze ... --sql ENGINE`'s query (Athena's result file,
 * DuckDB's COPY ... TO, a Spark or Trino CSV), for a corpus the local
 * database does not hold.  The file must have every column analyze
 * prints for the section (by name, in any order, extra ones ignored) and
 * the section's metric, estimator and pooling; its rows are then typed
 * as analyze types them and shown like any other table.
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyze/analyze.h"
#include "common/err.h"
#include "common/infile.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/internal.h"

/* A result file larger than this is not a table for an article. */
#define FROM_CSV_MAX	(64 * 1024 * 1024)

/* One CSV field: its text and whether it was quoted ("" is an empty
 * string, nothing at all a NULL). */
struct field {
	char	*text;		/* owned */
	bool	quoted;
};

struct record {
	struct field	*f;
	size_t		n, alloc;
};

static void
record_release(struct record *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->f[i].text);
	free(r->f);
	memset(r, 0, sizeof(*r));
}

/*
 * The next record of RFC 4180 text at *p (CRLF or LF; "" inside quotes
 * for a quote).  Returns 1 with a record, 0 at the end, -1 on an
 * unterminated quote or junk after a closing quote.
 */
static int
next_record(const char **p, const char *end, struct record *r)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = *p;
	bool quoted = false;
	int ret = -1;

	record_release(r);
	if (s >= end)
		return 0;
	for (;;) {
		if (s < end && *s == '"' && sb.len == 0 && !quoted) {
			quoted = true;
			for (s++;; s++) {
				if (s >= end)
					goto cleanup;
				if (*s == '"' && s + 1 < end && s[1] == '"') {
					strbuf_addch(&sb, '"');
					s++;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					strbuf_addch(&sb, *s);
				}
			}
			if (s < end && *s != ',' && *s != '\n' && *s != '\r')
				goto cleanup;
			continue;
		}
		if (s >= end || *s == ',' || *s == '\n' || *s == '\r') {
			ALLOC_GROW(r->f, r->n + 1, r->alloc);
			r->f[r->n].text = strbuf_detach(&sb, NULL);
			r->f[r->n++].quoted = quoted;
			quoted = false;
			if (s < end && *s == ',') {
				s++;
				continue;
			}
			if (s < end && *s == '\r')
				s++;
			if (s < end && *s == '\n')
				s++;
			break;
		}
		strbuf_addch(&sb, *s++);
	}
	*p = s;
	ret = 1;
cleanup:
	strbuf_release(&sb);
	return ret;
}

/* The file's path: relative to the spec's folder unless absolute
 * (caller frees). */
static char *
csv_path(const struct report_spec *spec, const char *name)
{
	const char *slash = strrchr(spec->file, '/');

	if (name[0] == '/' || !slash)
		return xstrdup(name);
	return xasprintf("%.*s/%s", (int)(slash - spec->file), spec->file,
	    name);
}

/* Is key a column of verb's table that `--sql` leaves to analyze
 * (export/sql.c says why in the query's header)?  Only delta's growth:
 * compare has no from_csv form. */
static bool
left_to_analyze(const char *verb, const char *key)
{
	return !strcmp(verb, "delta") && (!strcmp(key, "growth") ||
	    !strcmp(key, "growth_ge_timeout"));
}

/* Column c of the table: the index of its field in the header (the k-th
 * of its name for the k-th such column; names compared without case, as
 * Trino writes them lower case), or -1. */
static long
header_index(const struct record *h, const struct table *t, size_t c)
{
	size_t i, k = 0, seen = 0;
	long first = -1;

	for (i = 0; i < c; i++)
		k += !strcmp(t->cols[i].key, t->cols[c].key);
	for (i = 0; i < h->n; i++) {
		if (strcasecmp(h->f[i].text, t->cols[c].key))
			continue;
		if (first < 0)
			first = (long)i;
		if (seen++ == k)
			return (long)i;
	}
	return first;
}

/* A number a CSV holds: NaN and infinities (Trino, Spark) are no value. */
static int
cell_number(const char *s, enum cell_type type, double *d, int64_t *i,
    bool *null)
{
	*null = false;
	if (!strcasecmp(s, "nan") || !strcasecmp(s, "infinity") ||
	    !strcasecmp(s, "-infinity") || !strcasecmp(s, "inf") ||
	    !strcasecmp(s, "-inf")) {
		*null = true;
		return 0;
	}
	if (type == CELL_INT)
		return parse_int64(s, i);
	return parse_double(s, -HUGE_VAL, HUGE_VAL, d);
}

/* Set row r, column c of t from field f; -1 with the reason in why. */
static int
set_cell(struct table *t, size_t r, size_t c, enum cell_type type,
    const struct field *f, struct strbuf *why)
{
	double d = 0;
	int64_t i = 0;
	bool null;

	if (!*f->text && !f->quoted) {
		/* NULL; the key columns analyze fills with "" */
		if (type == CELL_STR && (!strcmp(t->cols[c].key, "condition") ||
		    !strcmp(t->cols[c].key, "values")))
			table_set_str(t, r, c, "");
		return 0;
	}
	if (type == CELL_STR) {
		table_set_str(t, r, c, f->text);
		return 0;
	}
	if (!*f->text)
		return 0;
	if (cell_number(f->text, type, &d, &i, &null)) {
		strbuf_addf(why, "'%s' is not %s", f->text, type == CELL_INT ?
		    "an integer" : "a number");
		return -1;
	}
	if (null)
		return 0;
	if (type == CELL_INT)
		table_set_int(t, r, c, i);
	else
		table_set_num(t, r, c, d);
	return 0;
}

/* The row's metric, estimator and pool are the section's. */
static int
row_method(const struct report_section *s, const struct analyze_opts *o,
    const struct table *t, size_t r, struct strbuf *why)
{
	const char *m = table_str(t, r, table_col(t, "metric"));
	const char *e = table_str(t, r, table_col(t, "estimator"));
	const char *p = table_str(t, r, table_col(t, "pool"));
	const char *est = stats_estimator_name(o->est);
	const char *pool = o->pool == STATS_POOL_POOLED ? "pooled" : "trials";
	size_t len = strlen(est);

	/* delta's row for a path with no cells has none of them */
	if (!m && !e && !p && table_col(t, "pair") >= 0)
		return 0;
	if (!m || strcmp(m, s->metric)) {
		strbuf_addf(why, "metric '%s', not the section's %s", m ? m :
		    "", s->metric);
		return -1;
	}
	if (!e || !(!strcmp(e, "tool") || (!strncmp(e, est, len) &&
	    (!e[len] || !strcmp(e + len, "+tool"))))) {
		strbuf_addf(why, "estimator '%s', not the section's %s", e ?
		    e : "", est);
		return -1;
	}
	if (!p || strcmp(p, pool)) {
		strbuf_addf(why, "pool '%s', not the section's %s", p ? p : "",
		    pool);
		return -1;
	}
	return 0;
}

/* Keep the rows of the section's paths, in its order (analyze's
 * --paths); a listed path without rows is an error. */
static int
keep_paths(const struct report_spec *spec, const struct report_section *s,
    const char *file, struct table *t)
{
	long pcol = table_col(t, "path");
	struct table_cell *cells;
	size_t i, r, n = 0;

	if (!s->npaths || pcol < 0 || !strcmp(s->verb, "delta"))
		return 0;
	cells = xcalloc(t->nrows * t->ncols + 1, sizeof(*cells));
	for (i = 0; i < s->npaths; i++) {
		size_t before = n;

		for (r = 0; r < t->nrows; r++) {
			const char *p = table_str(t, r, pcol);

			if (!p || strcmp(p, s->paths[i].id))
				continue;
			memcpy(&cells[n * t->ncols], &t->cells[r * t->ncols],
			    t->ncols * sizeof(*cells));
			memset(&t->cells[r * t->ncols], 0, t->ncols *
			    sizeof(*cells));
			n++;
		}
		if (n == before) {
			/* rows not kept are freed by table_release */
			for (r = 0; r < n * t->ncols; r++) {
				free((char *)table_cell_str(&cells[r]));
			}
			free(cells);
			return report_spec_error(spec, s->loc, "from_csv '%s': "
			    "path '%s' has no rows", file, s->paths[i].id);
		}
	}
	for (r = 0; r < t->nrows * t->ncols; r++) {
		free((char *)table_cell_str(&t->cells[r]));
	}
	free(t->cells);
	t->cells = cells;
	t->nrows = n;
	t->alloc_cells = t->nrows * t->ncols + 1;
	return 0;
}

int
report_table_from_csv(const struct report_spec *spec,
    const struct report_section *s, const struct analyze_opts *o,
    struct table *t)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct record head = { NULL, 0, 0 }, rec = { NULL, 0, 0 };
	char *file = csv_path(spec, s->from_csv);
	const char *p, *end;
	long *at = NULL;
	size_t c, line = 1;
	int rc, ret = -1;

	if (analyze_columns(s->verb, o, t))
		goto cleanup;
	if (infile_read(file, FROM_CSV_MAX, &text, &why) < 0) {
		report_spec_error(spec, s->loc, "from_csv '%s': %s", file,
		    why.buf);
		goto cleanup;
	}
	p = text.buf;
	end = text.buf + text.len;
	if (end - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	if (next_record(&p, end, &head) != 1) {
		report_spec_error(spec, s->loc, "from_csv '%s': no header "
		    "line", file);
		goto cleanup;
	}
	at = xcalloc(t->ncols + 1, sizeof(*at));
	for (c = 0; c < t->ncols; c++) {
		at[c] = header_index(&head, t, c);
		if (at[c] >= 0)
			continue;
		if (left_to_analyze(s->verb, t->cols[c].key)) {
			/* the query has no such column: left empty and out
			 * of the Markdown; the caption says why
			 * (report/section.c) */
			t->cols[c].md_hidden = true;
			continue;
		}
		for (size_t k = 0; k < t->ncols; k++)
			strbuf_addf(&why, "%s%s", k ? ", " : "",
			    t->cols[k].key);
		report_spec_error(spec, s->loc, "from_csv '%s': no column "
		    "'%s' (analyze %s --format csv has: %s)", file,
		    t->cols[c].key, s->verb, why.buf);
		goto cleanup;
	}
	while ((rc = next_record(&p, end, &rec)) == 1) {
		size_t r;

		line++;
		if (rec.n == 1 && !*rec.f[0].text && !rec.f[0].quoted)
			continue;	/* a blank line */
		if (rec.n != head.n) {
			report_spec_error(spec, s->loc, "from_csv '%s': line "
			    "%zu has %zu fields, the header %zu", file, line,
			    rec.n, head.n);
			goto cleanup;
		}
		r = table_add_row(t);
		for (c = 0; c < t->ncols; c++) {
			if (at[c] < 0) {
				table_set_null(t, r, c);
				continue;
			}
			strbuf_reset(&why);
			if (set_cell(t, r, c, analyze_column_type(s->verb, o,
			    t->cols[c].key), &rec.f[at[c]], &why)) {
				report_spec_error(spec, s->loc,
				    "from_csv '%s': line %zu, column '%s': %s",
				    file, line, t->cols[c].key, why.buf);
				goto cleanup;
			}
		}
		strbuf_reset(&why);
		if (row_method(s, o, t, r, &why)) {
			report_spec_error(spec, s->loc, "from_csv '%s': line "
			    "%zu: %s", file, line, why.buf);
			goto cleanup;
		}
	}
	if (rc < 0) {
		report_spec_error(spec, s->loc, "from_csv '%s': line %zu: bad "
		    "quoting", file, line + 1);
		goto cleanup;
	}
	if (keep_paths(spec, s, file, t) || analyze_replay(s->verb, o, t))
		goto cleanup;
	ret = 0;
cleanup:
	record_release(&head);
	record_release(&rec);
	strbuf_release(&text);
	strbuf_release(&why);
	free(at);
	free(file);
	return ret;
}
