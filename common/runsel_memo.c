/*
 * runsel_memo.c - the run selections a report reads again (see
 * runsel.h, runsel_memo_begin): a no-spec report's sections, charts,
 * hygiene checks and pooling captions select the same runs many times
 * (the percentiles by day of a metric five times over a team campaign),
 * and each selection joins and sorts every run again.  While the memo is
 * on, a selection read to its end is kept, keyed on its SQL text (which
 * holds the metric, the --where values as literals, the dimension and
 * tag keys and the order) and the path list runsel_next filters by, and
 * a later runsel_open of the same key replays its rows without SQLite.
 * The database must not change while the memo is on.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/runsel.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* The most bytes the memo keeps; a selection that would pass it is not
 * kept (read from the database each time, as without the memo). */
#define RUNSEL_MEMO_MAX_BYTES	((size_t)256 << 20)

/* A string of a kept row: its offset in the entry's text, NONE: NULL. */
#define NONE	SIZE_MAX

enum { S_PATH, S_COND, S_TOOL, S_REASON, S_FILE, S_SUMMARY, S_COUNT };

struct memo_row {
	int64_t		id, started_at, failures, attempts;
	long		trial;
	int		metric;
	bool		partial;
	size_t		str[S_COUNT];
};

struct runsel_memo_entry {
	sqlite3		*db;		/* borrowed: the key's database */
	char		*key;		/* SQL, then each path, NUL-separated
					 * (owned) */
	size_t		keylen;
	size_t		ndims, ntags;	/* a row's dims and tags */
	size_t		nextra;		/* their sum */
	struct memo_row	*rows;		/* owned */
	size_t		nrows, alloc;
	size_t		*extra;		/* nrows x nextra offsets (owned) */
	struct strbuf	text;		/* the rows' strings, NUL-ended */
	size_t		bytes;		/* what it holds, for the cap */
	bool		done;		/* read to its end: replayable */
};

static struct {
	bool		on;		/* keeping selections */
	bool		counting;	/* between begin and end */
	struct runsel_memo_entry **e;	/* owned */
	size_t		n, alloc;
	size_t		bytes;		/* over every entry */
	unsigned long	read, replayed;
} memo;

void
runsel_memo_begin(bool keep)
{
	runsel_memo_end();
	memo.on = keep;
	memo.counting = true;
	memo.read = 0;
	memo.replayed = 0;
}

static void
entry_free(struct runsel_memo_entry *e)
{
	if (!e)
		return;
	free(e->key);
	free(e->rows);
	free(e->extra);
	strbuf_release(&e->text);
	free(e);
}

void
runsel_memo_end(void)
{
	size_t i;

	for (i = 0; i < memo.n; i++)
		entry_free(memo.e[i]);
	free(memo.e);
	memo.e = NULL;
	memo.n = memo.alloc = 0;
	memo.bytes = 0;
	memo.on = false;
	memo.counting = false;
}

void
runsel_memo_counts(unsigned long *read, unsigned long *replayed)
{
	*read = memo.read;
	*replayed = memo.replayed;
}

/* The key of q with this SQL text into sb. */
static void
memo_key(const struct runsel_query *q, const char *sql, struct strbuf *sb)
{
	size_t i;

	strbuf_addstr(sb, sql);
	strbuf_addch(sb, '\0');
	strbuf_addf(sb, "%zu paths", q->npaths);
	for (i = 0; i < q->npaths; i++) {
		strbuf_addch(sb, '\0');
		strbuf_addstr(sb, q->paths[i]);
	}
}

struct runsel_memo_entry *
runsel_memo_open(sqlite3 *db, const struct runsel_query *q, const char *sql,
    bool *replay)
{
	struct strbuf key = STRBUF_INIT;
	struct runsel_memo_entry *e = NULL;
	size_t i;

	*replay = false;
	if (!memo.on) {
		memo.read += memo.counting;
		return NULL;
	}
	memo_key(q, sql, &key);
	for (i = 0; i < memo.n; i++) {
		struct runsel_memo_entry *m = memo.e[i];

		if (m->done && m->db == db && m->keylen == key.len &&
		    !memcmp(m->key, key.buf, key.len)) {
			*replay = true;
			memo.replayed++;
			strbuf_release(&key);
			return m;
		}
	}
	memo.read++;
	/* a new entry, kept once read to its end (runsel_memo_done) */
	e = xcalloc(1, sizeof(*e));
	e->db = db;
	e->keylen = key.len;
	e->key = strbuf_detach(&key, NULL);
	e->ndims = q->ndims;
	e->ntags = q->ntags;
	e->nextra = q->ndims + q->ntags;
	e->bytes = e->keylen;
	strbuf_init(&e->text, 0);
	return e;
}

static size_t
add_str(struct runsel_memo_entry *e, const char *s)
{
	size_t off = e->text.len;

	if (!s)
		return NONE;
	strbuf_add(&e->text, s, strlen(s) + 1);
	return off;
}

bool
runsel_memo_add(struct runsel_memo_entry *e, const struct runsel_row *r)
{
	struct memo_row *m;
	size_t i, before = e->text.len;

	if (e->nrows + 1 > e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 64;
		e->rows = xreallocarray(e->rows, e->alloc, sizeof(*e->rows));
		e->extra = xreallocarray(e->extra,
		    e->alloc * (e->nextra ? e->nextra : 1), sizeof(size_t));
	}
	m = &e->rows[e->nrows];
	m->id = r->id;
	m->started_at = r->started_at;
	m->failures = r->failures;
	m->attempts = r->attempts;
	m->trial = r->trial;
	m->metric = r->metric;
	m->partial = r->partial;
	m->str[S_PATH] = add_str(e, r->path);
	m->str[S_COND] = add_str(e, r->cond);
	m->str[S_TOOL] = add_str(e, r->tool);
	m->str[S_REASON] = add_str(e, r->reason);
	m->str[S_FILE] = add_str(e, r->file);
	m->str[S_SUMMARY] = add_str(e, r->summary_file);
	for (i = 0; i < e->nextra; i++)
		e->extra[e->nrows * e->nextra + i] = add_str(e,
		    i < e->ndims ? r->dims[i] : r->tags[i - e->ndims]);
	e->nrows++;
	e->bytes += sizeof(*m) + e->nextra * sizeof(size_t) +
	    (e->text.len - before);
	return memo.bytes + e->bytes <= RUNSEL_MEMO_MAX_BYTES;
}

void
runsel_memo_done(struct runsel_memo_entry *e)
{
	if (!memo.on) {
		entry_free(e);
		return;
	}
	e->done = true;
	memo.bytes += e->bytes;
	if (memo.n + 1 > memo.alloc) {
		memo.alloc = memo.alloc ? 2 * memo.alloc : 16;
		memo.e = xreallocarray(memo.e, memo.alloc, sizeof(*memo.e));
	}
	memo.e[memo.n++] = e;
}

void
runsel_memo_drop(struct runsel_memo_entry *e)
{
	if (e && !e->done)
		entry_free(e);
}

static const char *
str_at(const struct runsel_memo_entry *e, size_t off)
{
	return off == NONE ? NULL : e->text.buf + off;
}

int
runsel_memo_row(const struct runsel_memo_entry *e, size_t i,
    struct runsel_row *r)
{
	const struct memo_row *m;
	size_t j;

	if (i >= e->nrows)
		return 0;
	m = &e->rows[i];
	r->id = m->id;
	r->started_at = m->started_at;
	r->failures = m->failures;
	r->attempts = m->attempts;
	r->trial = m->trial;
	r->metric = m->metric;
	r->partial = m->partial;
	r->path = str_at(e, m->str[S_PATH]);
	r->cond = str_at(e, m->str[S_COND]);
	r->tool = str_at(e, m->str[S_TOOL]);
	r->reason = str_at(e, m->str[S_REASON]);
	r->file = str_at(e, m->str[S_FILE]);
	r->summary_file = str_at(e, m->str[S_SUMMARY]);
	for (j = 0; j < e->ndims; j++)
		r->dims[j] = str_at(e, e->extra[i * e->nextra + j]);
	for (j = 0; j < e->ntags; j++)
		r->tags[j] = str_at(e, e->extra[i * e->nextra + e->ndims + j]);
	return 1;
}
