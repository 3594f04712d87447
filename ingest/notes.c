/*
 * notes.c - messages shared by many files, said once each with a count
 * (see notes.h).  A hash table on (level, text) finds a message again;
 * an array keeps the order they were first met.
 */
#include "common/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xalloc.h"
#include "ingest/notes.h"

struct note_msg {
	enum notes_level	level;
	char		*text;		/* owned */
	char		*tail;		/* owned, or NULL */
	char		*first;		/* the first file's stored name, owned */
	size_t		count;		/* files */
};

struct notes {
	struct note_msg	*msgs;		/* in the order first met */
	size_t		n, alloc;
	size_t		*slots;		/* index + 1 into msgs; 0 = empty */
	size_t		nslots;		/* a power of two */
};

struct notes *
notes_new(void)
{
	struct notes *n = xcalloc(1, sizeof(*n));

	n->nslots = 64;
	n->slots = xcalloc(n->nslots, sizeof(n->slots[0]));
	return n;
}

static void
notes_clear(struct notes *n)
{
	size_t i;

	for (i = 0; i < n->n; i++) {
		free(n->msgs[i].text);
		free(n->msgs[i].tail);
		free(n->msgs[i].first);
	}
	n->n = 0;
	memset(n->slots, 0, n->nslots * sizeof(n->slots[0]));
}

void
notes_free(struct notes *n)
{
	if (!n)
		return;
	notes_clear(n);
	free(n->msgs);
	free(n->slots);
	free(n);
}

static uint64_t
msg_hash(enum notes_level level, const char *s)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)level;	/* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The slot of (level, text): its message's, or the empty one to use. */
static size_t *
find_slot(struct notes *n, enum notes_level level, const char *text)
{
	size_t i = (size_t)(msg_hash(level, text) & (n->nslots - 1));

	while (n->slots[i]) {
		const struct note_msg *m = &n->msgs[n->slots[i] - 1];

		if (m->level == level && !strcmp(m->text, text))
			break;
		i = (i + 1) & (n->nslots - 1);
	}
	return &n->slots[i];
}

static void
grow(struct notes *n)
{
	size_t i;

	free(n->slots);
	n->nslots *= 2;
	n->slots = xcalloc(n->nslots, sizeof(n->slots[0]));
	for (i = 0; i < n->n; i++)
		*find_slot(n, n->msgs[i].level, n->msgs[i].text) = i + 1;
}

void
notes_add(struct notes *n, enum notes_level level, const char *text,
    const char *tail, const char *relpath)
{
	size_t *slot = find_slot(n, level, text);
	struct note_msg *m;

	if (*slot) {
		n->msgs[*slot - 1].count++;
		return;
	}
	ALLOC_GROW(n->msgs, n->n + 1, n->alloc);
	m = &n->msgs[n->n++];
	m->level = level;
	m->text = xstrdup(text);
	m->tail = tail ? xstrdup(tail) : NULL;
	m->first = xstrdup(relpath);
	m->count = 1;
	*slot = n->n;
	if (n->n * 2 > n->nslots)
		grow(n);
}

void
notes_flush(struct notes *n)
{
	size_t i;

	for (i = 0; i < n->n; i++) {
		const struct note_msg *m = &n->msgs[i];
		const char *sep = m->tail ? ": " : "", *tail = m->tail ?
		    m->tail : "";

		if (m->count == 1 && m->level == NOTES_ERROR)
			error("%s: %s%s%s", m->first, m->text, sep, tail);
		else if (m->count == 1 && m->level == NOTES_WARNING)
			warning("%s: %s%s%s", m->first, m->text, sep, tail);
		else if (m->count == 1)
			note("%s: %s%s%s", m->first, m->text, sep, tail);
		else if (m->level == NOTES_ERROR)
			error("%s: %zu files (first '%s'; --dry-run lists "
			    "each)%s%s", m->text, m->count, m->first, sep, tail);
		else if (m->level == NOTES_WARNING)
			warning("%s: %zu files (first '%s')%s%s", m->text,
			    m->count, m->first, sep, tail);
		else
			note("%s: %zu files (first '%s')%s%s", m->text,
			    m->count, m->first, sep, tail);
	}
	notes_clear(n);
}
