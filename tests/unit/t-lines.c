/*
 * t-lines.c - unit tests for common/lines.c, the line splitter of the
 * ingest parsers: "\n" and "\r\n" end a line, a last line may have no
 * terminator, a lone "\r" inside a line is kept, NUL bytes are part of
 * a line, a BOM is skipped only where asked; and, over random buffers of
 * those bytes, the same lines as a byte-at-a-time splitter written here
 * independently.
 */
#include "common/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lines.h"
#include "tests/unit/harness.h"

/* The line number the last split() ended on. */
static size_t last_line;

/* The lines of buf joined with '|' into out (NUL shown as '0'), and
 * how many there were. */
static size_t
split(const char *buf, size_t len, bool bom, char *out, size_t outlen)
{
	struct lines it;
	const char *line;
	size_t n, k = 0, count = 0;

	lines_init(&it, buf, len);
	if (bom)
		lines_skip_bom(&it);
	while (lines_next(&it, &line, &n)) {
		if (count++ && k + 1 < outlen)
			out[k++] = '|';
		for (size_t i = 0; i < n && k + 1 < outlen; i++)
			out[k++] = line[i] ? line[i] : '0';
	}
	out[k] = '\0';
	last_line = it.line;
	return count;
}

static void
test_cases(void)
{
	static const struct {
		const char	*buf;
		size_t		len;
		const char	*want;
		size_t		nlines;
		size_t		nl;
	} cases[] = {
		{ "", 0, "", 0, 0 },
		{ "a", 1, "a", 1, 0 },
		{ "a\n", 2, "a", 1, 1 },
		{ "a\nb", 3, "a|b", 2, 1 },
		{ "a\r\nb\r\n", 6, "a|b", 2, 2 },
		{ "a\n\nb\n", 5, "a||b", 3, 3 },
		{ "\n", 1, "", 1, 1 },
		{ "\r\n", 2, "", 1, 1 },
		{ "a\r", 2, "a", 1, 0 },
		{ "a\rb\n", 4, "a\rb", 1, 1 },
		{ "a\r\r\n", 4, "a\r", 1, 1 },
		{ "a\0b\nc", 5, "a0b|c", 2, 1 },
		{ "\0\n\0", 3, "0|0", 2, 1 },
	};
	char out[64], what[96];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = split(cases[i].buf, cases[i].len, false, out,
		    sizeof(out));

		snprintf(what, sizeof(what), "case %zu: the lines", i);
		CHECK_EQ_STR(out, cases[i].want, what);
		snprintf(what, sizeof(what), "case %zu: how many", i);
		CHECK_EQ_INT((long long)n, (long long)cases[i].nlines, what);
		snprintf(what, sizeof(what), "case %zu: the line number", i);
		CHECK_EQ_INT((long long)last_line, (long long)n, what);
		snprintf(what, sizeof(what), "case %zu: lines_count", i);
		CHECK_EQ_INT((long long)lines_count(cases[i].buf, cases[i].len),
		    (long long)cases[i].nl, what);
	}
}

static void
test_bom(void)
{
	char out[64];

	split("\xef\xbb\xbf" "a\nb", 6, true, out, sizeof(out));
	CHECK_EQ_STR(out, "a|b", "a BOM is skipped when asked");
	split("\xef\xbb\xbf" "a", 4, false, out, sizeof(out));
	CHECK_EQ_STR(out, "\xef\xbb\xbf" "a", "... and kept otherwise");
	split("\xef\xbb", 2, true, out, sizeof(out));
	CHECK_EQ_STR(out, "\xef\xbb", "half a BOM is a line");
	split("x\xef\xbb\xbf", 4, true, out, sizeof(out));
	CHECK_EQ_STR(out, "x\xef\xbb\xbf", "a BOM only at the start");
}

/* The reference: a byte at a time, the line kept in its own buffer. */
static size_t
split_ref(const char *buf, size_t len, char *out, size_t outlen)
{
	char line[512];
	size_t n = 0, k = 0, count = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && buf[i] != '\n') {
			line[n++] = buf[i];
			continue;
		}
		if (i == len && n == 0)
			break;
		if (n && line[n - 1] == '\r')
			n--;
		if (count++ && k + 1 < outlen)
			out[k++] = '|';
		for (size_t j = 0; j < n && k + 1 < outlen; j++)
			out[k++] = line[j] ? line[j] : '0';
		n = 0;
	}
	out[k] = '\0';
	return count;
}

static void
test_random(void)
{
	static const char bytes[] = { 'a', 'b', '\n', '\r', '\0', ' ' };
	char buf[200], got[512], want[512];
	unsigned int seed = 12345;
	int bad = 0;

	for (int round = 0; round < 20000; round++) {
		size_t len;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % sizeof(buf);
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = bytes[(seed >> 16) % sizeof(bytes)];
		}
		if (split(buf, len, false, got, sizeof(got)) !=
		    split_ref(buf, len, want, sizeof(want)) ||
		    strcmp(got, want))
			bad++;
	}
	CHECK_EQ_INT(bad, 0, "20000 random buffers: the reference's lines");
}

int
main(void)
{
	test_cases();
	test_bom();
	test_random();
	return test_done();
}
