/*
 * lines.c - the lines of a buffer (see lines.h).
 */
#include "common/compat.h"

#include <string.h>

#include "common/lines.h"

void
lines_init(struct lines *it, const char *buf, size_t len)
{
	it->p = buf;
	it->end = buf + len;
	it->line = 0;
}

void
lines_skip_bom(struct lines *it)
{
	if (it->end - it->p >= 3 && !memcmp(it->p, "\xef\xbb\xbf", 3))
		it->p += 3;
}

bool
lines_next(struct lines *it, const char **line, size_t *len)
{
	const char *nl;
	size_t n;

	if (it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	n = (size_t)((nl ? nl : it->end) - it->p);
	*line = it->p;
	if (n && it->p[n - 1] == '\r')
		n--;
	*len = n;
	it->p = nl ? nl + 1 : it->end;
	it->line++;
	return true;
}

size_t
lines_count(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	size_t n = 0;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p++;
	}
	return n;
}
