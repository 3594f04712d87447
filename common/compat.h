/*
 * compat.h - included first by every .c file: feature macros, portability
 * shims, and the banned-function list.
 */
#ifndef PATHSTAT_COMMON_COMPAT_H
#define PATHSTAT_COMMON_COMPAT_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1	/* timegm, strsep, DT_* on glibc */
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define PATHSTAT_PRINTF(f, a)	__attribute__((format(printf, f, a)))
#define PATHSTAT_NORETURN	__attribute__((noreturn))
#define PATHSTAT_UNUSED		__attribute__((unused))
#else
#define PATHSTAT_PRINTF(f, a)
#define PATHSTAT_NORETURN
#define PATHSTAT_UNUSED
#endif

#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define PATHSTAT_FALLTHROUGH	__attribute__((fallthrough))
#endif
#endif
#ifndef PATHSTAT_FALLTHROUGH
#define PATHSTAT_FALLTHROUGH	do { } while (0)
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#include "common/banned.h"

#endif
