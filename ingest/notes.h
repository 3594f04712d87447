/*
 * notes.h - messages that many files share ("keys say dir=bidir but the
 * file says dir=bidir-up", "condition token 'weird' kept as a tag"),
 * said once with the number of files and the first of them, after the
 * files are done, instead of once per file.
 */
#ifndef PATHSTAT_INGEST_NOTES_H
#define PATHSTAT_INGEST_NOTES_H

#include "common/compat.h"

enum notes_level {
	NOTES_NOTE,		/* note(): silenced by -q */
	NOTES_WARNING,		/* warning(): silenced by -q */
	NOTES_ERROR,		/* error(): always said, counted */
};

struct notes;

struct notes *notes_new(void);
void notes_free(struct notes *n);
/*
 * Count one file (relpath) under the message text, whose tail (may be
 * NULL) follows it once: said as "relpath: text: tail" for one file,
 * "text: N files (first 'relpath'): tail" for more.  Messages of one
 * level and text are one message; they are said in the order first
 * met.
 */
void notes_add(struct notes *n, enum notes_level level, const char *text,
    const char *tail, const char *relpath);
/* Say every message, then forget them. */
void notes_flush(struct notes *n);

#endif
