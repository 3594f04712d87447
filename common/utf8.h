/*
 * utf8.h - checking text for valid UTF-8 (RFC 3629: no overlong forms,
 * no surrogates, nothing past U+10FFFF), and showing bytes that are not
 * in messages.  Names and keys from a synced tree reach JSON output,
 * which must be valid UTF-8.
 */
#ifndef PATHSTAT_COMMON_UTF8_H
#define PATHSTAT_COMMON_UTF8_H

#include "common/compat.h"

struct strbuf;

/* Length of the valid UTF-8 sequence at p (1 to 4; 1 for ASCII,
 * including NUL), or 0 when the bytes there are not one (overlong,
 * surrogate, past U+10FFFF, truncated by a NUL). */
size_t utf8_len(const unsigned char *p);
/* Is the NUL-terminated s valid UTF-8 throughout? */
bool utf8_valid(const char *s);
/* The offset of the first byte of s[0..len) (which need not end in a
 * NUL) that is not valid UTF-8, or is a NUL; len when there is none. */
size_t utf8_invalid_at(const char *s, size_t len);
/* Append s to sb with each byte that is not part of valid UTF-8, and
 * each control character, written as \xNN: for messages. */
void utf8_add_escaped(struct strbuf *sb, const char *s);

#endif
