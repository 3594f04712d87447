/*
 * parse.h - checked number parsing (no atoi anywhere: style(9), ministat).
 * Each returns 0 on success and -1 on failure without printing; callers
 * name the subject in their own message.
 */
#ifndef PATHSTAT_COMMON_PARSE_H
#define PATHSTAT_COMMON_PARSE_H

#include "common/compat.h"

/* The whole string must be a base-10 integer within [min, max]. */
int parse_long(const char *s, long min, long max, long *out);
int parse_int64(const char *s, int64_t *out);
/* The whole string must be a finite decimal number within [min, max]
 * (no hex float such as 0x1p3, no inf or nan). */
int parse_double(const char *s, double min, double max, double *out);
/* Like parse_double but the string may end with '%' (then divided by 100
 * only when percent_to_fraction is true). */
int parse_percent(const char *s, double *out, bool percent_to_fraction);
/* Parse "<n>" of length len (not NUL-terminated) as a double; finite only. */
int parse_double_n(const char *s, size_t len, double *out);

#endif
