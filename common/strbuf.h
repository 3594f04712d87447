/*
 * strbuf.h - growable NUL-terminated byte buffer (git's strbuf).
 * STRBUF_INIT or strbuf_init() before use; strbuf_release() frees.
 * buf is never NULL after init; sb->buf[sb->len] == '\0' always.
 */
#ifndef PATHSTAT_COMMON_STRBUF_H
#define PATHSTAT_COMMON_STRBUF_H

#include "common/compat.h"

#include <stdarg.h>
#include <stdio.h>

struct strbuf {
	size_t	alloc;	/* bytes allocated for buf (0: buf is the static empty string) */
	size_t	len;	/* bytes used, not counting the terminating NUL */
	char	*buf;	/* the data, always NUL-terminated */
};

extern char strbuf_empty[];
#define STRBUF_INIT { 0, 0, strbuf_empty }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Returns the buffer, which the caller must free(); sb is re-initialised. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PATHSTAT_PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
    PATHSTAT_PRINTF(2, 0);
/* Appends a double with the shortest %.17g form that reads back equal. */
void strbuf_add_double(struct strbuf *sb, double v);
/* Read the whole stream; returns 0, or -1 with errno set (sb keeps what was
 * read).  Stops with -1/EFBIG when more than max bytes would be read. */
int strbuf_read_fp(struct strbuf *sb, FILE *fp, size_t max);
/* Read the whole file at path; same return convention. */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t max);
/* Read from fd to its end (retrying EINTR); same return convention.  The
 * caller keeps and closes fd. */
int strbuf_read_fd(struct strbuf *sb, int fd, size_t max);

#endif
