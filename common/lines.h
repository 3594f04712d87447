/*
 * lines.h - the lines of a buffer, one at a time: the one line splitter
 * the parsers in ingest/ share.  A line ends at "\n" or "\r\n" (a "\r"
 * before the end of the buffer is dropped too), the last line may have
 * no terminator, and every other byte -- NUL among them -- is part of a
 * line: a line is a pointer and a length into the buffer, never a C
 * string, and nothing is copied.
 */
#ifndef PATHSTAT_COMMON_LINES_H
#define PATHSTAT_COMMON_LINES_H

#include "common/compat.h"

struct lines {
	const char	*p;	/* the next line's start */
	const char	*end;	/* the buffer's end */
	size_t		line;	/* lines returned so far: the last one's
				 * number, from 1 */
};

/* Start at buf (len bytes). */
void lines_init(struct lines *it, const char *buf, size_t len);
/* Skip a UTF-8 byte order mark at the current position, if any. */
void lines_skip_bom(struct lines *it);
/*
 * The next line: true with *line its start and *len its length without
 * the terminator; false when the buffer is used up.  A buffer that ends
 * in a terminator has no empty line after it ("a\n" is one line).
 */
bool lines_next(struct lines *it, const char **line, size_t *len);
/* How many "\n" buf holds: its lines, less a last one without one. */
size_t lines_count(const char *buf, size_t len);

#endif
