/*
 * parse.c - strtol/strtod with full end-pointer, errno and range checks.
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"

int
parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
parse_int64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*out = (int64_t)v;
	return 0;
}

int
parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	/* decimal only: strtod also reads C's hex floats ("0x1p3" = 8),
	 * which no tool we read writes */
	if (strpbrk(s, "xX"))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
		return -1;
	if (end == s || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
parse_percent(const char *s, double *out, bool percent_to_fraction)
{
	char tmp[64];
	size_t len;
	double v;

	if (!s)
		return -1;
	len = strlen(s);
	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len + 1);
	if (tmp[len - 1] == '%') {
		tmp[len - 1] = '\0';
		if (parse_double(tmp, -1e300, 1e300, &v))
			return -1;
		*out = percent_to_fraction ? v / 100.0 : v;
		return 0;
	}
	return parse_double(tmp, -1e300, 1e300, out);
}

int
parse_double_n(const char *s, size_t len, double *out)
{
	char tmp[128];

	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	return parse_double(tmp, -HUGE_VAL, HUGE_VAL, out);
}

bool
start_plausible(int64_t unix_s)
{
	return unix_s >= START_PLAUSIBLE_MIN && unix_s < START_PLAUSIBLE_END;
}
