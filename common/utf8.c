/*
 * utf8.c - UTF-8 validation and escaping for messages.
 */
#include "common/compat.h"

#include "common/strbuf.h"
#include "common/utf8.h"

size_t
utf8_len(const unsigned char *p)
{
	unsigned int c = p[0];
	size_t len, i;
	unsigned long cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	/* a NUL is not a continuation byte, so this stops at the end */
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

size_t
utf8_invalid_at(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		n = p[i] < 0x80 ? 1 : p[i] >= 0xc2 && p[i] <= 0xdf ? 2 :
		    p[i] >= 0xe0 && p[i] <= 0xef ? 3 :
		    p[i] >= 0xf0 && p[i] <= 0xf4 ? 4 : 0;
		/* utf8_len() stops at a NUL, which is no continuation byte;
		 * here the end of the buffer must stop it first */
		if (!n || n > len - i || (n > 1 && utf8_len(p + i) != n) ||
		    (n == 1 && !p[i]))
			return i;
		i += n;
	}
	return len;
}

bool
utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

uint32_t
utf8_decode(const unsigned char *p, size_t n)
{
	uint32_t cp = n == 1 ? p[0] : n == 2 ? p[0] & 0x1fu :
	    n == 3 ? p[0] & 0x0fu : p[0] & 0x07u;
	size_t i;

	for (i = 1; i < n; i++)
		cp = (cp << 6) | (p[i] & 0x3fu);
	return cp;
}

bool
utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

uint32_t
utf8_first_control(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);
		uint32_t cp;

		if (!n)
			return 0;
		cp = utf8_decode(p, n);
		if (utf8_is_control(cp))
			return cp;
		p += n;
	}
	return 0;
}

/* utf8_add_escaped(), or utf8_add_shown() when lines. */
static void
add_escaped(struct strbuf *sb, const char *s, bool lines)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (n == 1 && ((*p >= 0x20 && *p != 0x7f && *p != '\\') ||
		    (lines && (*p == '\n' || *p == '\t' || *p == '\\')))) {
			strbuf_addch(sb, (char)*p);
		} else if (n > 1 && utf8_is_control(utf8_decode(p, n))) {
			/* a C1 or bidirectional control would act on the
			 * message it is in: shown, not applied */
			strbuf_addf(sb, "\\u%04X", (unsigned)utf8_decode(p, n));
		} else if (n > 1) {
			strbuf_add(sb, p, n);
		} else {
			strbuf_addf(sb, "\\x%02x", *p);
			n = 1;
		}
		p += n;
	}
}

void
utf8_add_escaped(struct strbuf *sb, const char *s)
{
	add_escaped(sb, s, false);
}

void
utf8_add_shown(struct strbuf *sb, const char *s)
{
	add_escaped(sb, s, true);
}
