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
/*
 * Controls no name may hold: C0 and DEL, C1 (U+0080..U+009F, NEL
 * among them) and Unicode's Bidi_Control characters (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069), which make one name render
 * like another (U+202E turns the text after it around).
 */
bool utf8_is_control(uint32_t cp);
/* The code point of the valid sequence of n = utf8_len(p) bytes at p. */
uint32_t utf8_decode(const unsigned char *p, size_t n);
/* The first such control in the valid UTF-8 s, or 0 when there is none
 * (or s is not valid UTF-8 before one). */
uint32_t utf8_first_control(const char *s);
/* Append s to sb with each byte that is not part of valid UTF-8, and
 * each C0 control, written as \xNN, and each C1 or bidirectional
 * control as \uXXXX: for messages. */
void utf8_add_escaped(struct strbuf *sb, const char *s);
/* Append s to sb for a terminal: as utf8_add_escaped(), but line
 * breaks, tabs and backslashes stay themselves (a message's own lines;
 * a name's ESC, U+0085 or U+202E is shown, not applied). */
void utf8_add_shown(struct strbuf *sb, const char *s);

#endif
