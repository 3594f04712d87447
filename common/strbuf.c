/*
 * strbuf.c - growable string buffer.
 */
#include "common/compat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

char strbuf_empty[1];

void
strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = 0;
	sb->len = 0;
	sb->buf = strbuf_empty;
	if (hint)
		strbuf_grow(sb, hint);
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *
strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX - sb->len - 1)
		die("strbuf: %zu + %zu bytes overflows", sb->len, extra);
	need = sb->len + extra + 1;
	if (!sb->alloc) {
		size_t n = need < 64 ? 64 : need;

		sb->buf = xmalloc(n);
		sb->buf[0] = '\0';
		sb->alloc = n;
		sb->len = 0;
	} else if (need > sb->alloc) {
		size_t n = sb->alloc * 2;

		if (n < need)
			n = need;
		sb->buf = xrealloc(sb->buf, n);
		sb->alloc = n;
	}
}

void
strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (len)
			BUG("strbuf_setlen: %zu beyond empty buffer", len);
		return;
	}
	if (len >= sb->alloc)
		BUG("strbuf_setlen: %zu beyond %zu", len, sb->alloc);
	sb->len = len;
	sb->buf[len] = '\0';
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int len;

	va_copy(cp, ap);
	len = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (len < 0)
		die("strbuf_addf: bad format '%s'", fmt);
	strbuf_grow(sb, (size_t)len);
	vsnprintf(sb->buf + sb->len, (size_t)len + 1, fmt, ap);
	sb->len += (size_t)len;
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void
strbuf_add_double(struct strbuf *sb, double v)
{
	char tmp[40];
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	strbuf_addstr(sb, tmp);
}

int
strbuf_read_fp(struct strbuf *sb, FILE *fp, size_t max)
{
	for (;;) {
		size_t got;

		strbuf_grow(sb, 65536);
		got = fread(sb->buf + sb->len, 1, sb->alloc - sb->len - 1, fp);
		sb->len += got;
		sb->buf[sb->len] = '\0';
		if (sb->len > max) {
			errno = EFBIG;
			return -1;
		}
		if (got == 0) {
			if (ferror(fp)) {
				if (!errno)
					errno = EIO;
				return -1;
			}
			return 0;
		}
	}
}

int
strbuf_read_file(struct strbuf *sb, const char *path, size_t max)
{
	FILE *fp = fopen(path, "rb");
	int ret, saved;

	if (!fp)
		return -1;
	ret = strbuf_read_fp(sb, fp, max);
	saved = errno;
	fclose(fp);
	errno = saved;
	return ret;
}

int
strbuf_read_fd(struct strbuf *sb, int fd, size_t max)
{
	for (;;) {
		ssize_t got;

		strbuf_grow(sb, 65536);
		got = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		sb->len += (size_t)got;
		sb->buf[sb->len] = '\0';
		if (sb->len > max) {
			errno = EFBIG;
			return -1;
		}
		if (got == 0)
			return 0;
	}
}
