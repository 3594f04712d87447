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

/*
 * The run starts pathstat takes, in Unix seconds: from 2000-01-01 up to
 * (not including) 2100-01-01 UTC.  A start outside is a broken clock or
 * a hostile file: ingest refuses the file, and what reads a database
 * written before takes such a stored start as unknown (so no time
 * arithmetic on it can overflow: 2100 in microseconds is 4.1e15).
 */
#define START_PLAUSIBLE_MIN	INT64_C(946684800)
#define START_PLAUSIBLE_END	INT64_C(4102444800)
bool start_plausible(int64_t unix_s);

#endif
