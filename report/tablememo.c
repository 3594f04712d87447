/*
 * tablememo.c - the analyze tables a report builds more than once (see
 * internal.h, report_build): a no-spec report's day chart asks for the
 * percentiles by day its section has just built, and its change points
 * for the trend table the next section builds.  Each table is kept,
 * keyed on everything analyze_build() reads: the verb, its arguments and
 * every field of the options (set by hand or through the option table),
 * and a later build of the same key gets a copy.  The database does not
 * change while a report runs.
 */
#include "common/compat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/options.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/xalloc.h"
#include "report/internal.h"

struct memo_entry {
	char		*key;		/* owned */
	size_t		keylen;
	struct table	t;		/* owned */
};

static struct {
	bool		on;
	struct memo_entry *e;		/* owned */
	size_t		n, alloc;
	unsigned long	built, copied;
} memo;

void
report_table_memo_begin(bool keep)
{
	report_table_memo_end();
	memo.on = keep;
	memo.built = 0;
	memo.copied = 0;
}

void
report_table_memo_end(void)
{
	size_t i;

	for (i = 0; i < memo.n; i++) {
		free(memo.e[i].key);
		table_release(&memo.e[i].t);
	}
	free(memo.e);
	memo.e = NULL;
	memo.n = memo.alloc = 0;
	memo.on = false;
}

void
report_table_memo_counts(unsigned long *built, unsigned long *copied)
{
	*built = memo.built;
	*copied = memo.copied;
}

static void
key_str(struct strbuf *sb, const char *name, const char *s)
{
	strbuf_addf(sb, "%s=%s%s", name, s ? "'" : "", s ? s : "(null)");
	strbuf_addch(sb, '\0');
}

static void
key_list(struct strbuf *sb, const char *name, char *const *l, size_t n)
{
	size_t i;

	strbuf_addf(sb, "%s#%zu", name, n);
	strbuf_addch(sb, '\0');
	for (i = 0; i < n; i++) {
		strbuf_addstr(sb, l[i]);
		strbuf_addch(sb, '\0');
	}
}

/* Every field of o that a table may depend on, with verb and args. */
static void
memo_key(const char *verb, const struct analyze_opts *o, int nargs,
    char *const *args, struct strbuf *sb)
{
	size_t i;

	key_str(sb, "verb", verb);
	for (i = 0; i < (size_t)(nargs > 0 ? nargs : 0); i++)
		key_str(sb, "arg", args[i]);
	key_str(sb, "db", o->db_path);
	key_str(sb, "metric", o->metric);
	strbuf_addf(sb, "where#%zu", o->where.n);
	strbuf_addch(sb, '\0');
	for (i = 0; i < o->where.n; i++) {
		key_str(sb, "k", o->where.items[i].key);
		key_str(sb, "v", o->where.items[i].value);
	}
	key_list(sb, "by", o->by, o->nby);
	key_list(sb, "paths", o->paths, o->npaths);
	key_list(sb, "stats", o->stat_names, o->nstats);
	for (i = 0; i < o->nstats; i++)
		strbuf_addf(sb, "%d:%.17g,", (int)o->stats[i].kind,
		    o->stats[i].pct);
	strbuf_addf(sb, "est=%d pool=%d format=%d ci=%d level=%.17g "
	    "seed=%" PRIu64 " threshold=%.17g target=%.17g attempts=%d "
	    "given=%d resolved=%d bits=%" PRIu32, (int)o->est, (int)o->pool,
	    (int)o->format, (int)o->ci, o->level, o->seed, o->threshold_pct,
	    o->target_pct, (int)o->attempts_all, (int)o->stats_given,
	    (int)o->stats_resolved, o->given);
	strbuf_addch(sb, '\0');
	key_str(sb, "baseline", o->baseline);
	key_str(sb, "across", o->across);
	key_str(sb, "sql", o->sql);
	key_str(sb, "unit", o->unit);
	key_str(sb, "why", o->stats_why);
}

/* A deep copy of src into dst (initialised by the caller): every
 * string the copy's own (none shared); of its rows only those whose
 * column col holds the string value when col >= 0. */
static void
table_copy_rows(struct table *dst, const struct table *src, long col,
    const char *value)
{
	size_t i, r, c, n = 0, nc = src->ncols;

	dst->ncols = dst->alloc_cols = src->ncols;
	dst->cols = xcalloc(src->ncols + 1, sizeof(*dst->cols));
	for (i = 0; i < src->ncols; i++) {
		dst->cols[i] = src->cols[i];
		dst->cols[i].key = xstrdup(src->cols[i].key);
		dst->cols[i].header = xstrdup(src->cols[i].header);
	}
	dst->cells = xcalloc(src->nrows * nc + 1, sizeof(*dst->cells));
	dst->nrows = 0;
	for (r = 0; r < src->nrows; r++) {
		const char *s;

		if (col >= 0 && (!(s = table_str(src, r, col)) ||
		    strcmp(s, value)))
			continue;
		for (c = 0; c < nc; c++) {
			const struct table_cell *sc = &src->cells[r * nc + c];
			struct table_cell *dc = &dst->cells[n++];

			*dc = *sc;
			if (sc->type == CELL_STR)
				dc->str = xstrdup(sc->str);
			dc->str_shared = false;
		}
		dst->nrows++;
	}
	dst->alloc_cells = src->nrows * nc;
	/* the cells keep their display indices: the same texts, copied */
	dst->ndisplays = dst->alloc_displays = src->ndisplays;
	dst->displays = xcalloc(src->ndisplays + 1, sizeof(*dst->displays));
	for (i = 0; i < src->ndisplays; i++)
		dst->displays[i] = src->displays[i] ?
		    xstrdup(src->displays[i]) : NULL;
	dst->nnotes = dst->alloc_notes = src->nnotes;
	dst->notes = xcalloc(src->nnotes + 1, sizeof(*dst->notes));
	for (i = 0; i < src->nnotes; i++) {
		strbuf_init(&dst->notes[i], 0);
		strbuf_add(&dst->notes[i], src->notes[i].buf,
		    src->notes[i].len);
	}
	dst->nmarks = dst->alloc_marks = src->nmarks;
	dst->marks = xcalloc(src->nmarks + 1, sizeof(*dst->marks));
	for (i = 0; i < src->nmarks; i++)
		dst->marks[i] = xstrdup(src->marks[i]);
	dst->empty_why = src->empty_why ? xstrdup(src->empty_why) : NULL;
	/* the copy's strings are its cells' own: later rows share none */
	dst->share_strs = false;
	dst->shown = src->shown;
}

int
report_build(sqlite3 *db, const char *verb, const struct analyze_opts *o,
    int nargs, char **args, struct table *t)
{
	struct strbuf key = STRBUF_INIT;
	struct memo_entry *e;
	size_t i;
	int rc;

	if (!memo.on) {
		memo.built++;
		return analyze_build(db, verb, o, nargs, args, t);
	}
	memo_key(verb, o, nargs, args, &key);
	for (i = 0; i < memo.n; i++) {
		e = &memo.e[i];
		if (e->keylen == key.len && !memcmp(e->key, key.buf,
		    key.len)) {
			strbuf_release(&key);
			table_release(t);
			table_copy_rows(t, &e->t, -1, NULL);
			memo.copied++;
			return 0;
		}
	}
	memo.built++;
	rc = analyze_build(db, verb, o, nargs, args, t);
	/* a failed build is not kept: it says why each time */
	if (rc) {
		strbuf_release(&key);
		return rc;
	}
	ALLOC_GROW(memo.e, memo.n + 1, memo.alloc);
	e = &memo.e[memo.n++];
	e->keylen = key.len;
	e->key = strbuf_detach(&key, NULL);
	table_init(&e->t);
	table_copy_rows(&e->t, t, -1, NULL);
	return 0;
}

void
report_table_rows(struct table *dst, const struct table *src, long col,
    const char *value)
{
	table_init(dst);
	table_copy_rows(dst, src, col, value);
}
