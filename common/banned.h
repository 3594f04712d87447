/*
 * banned.h - turns unsafe libc functions into compile errors (git's
 * banned.h).  Included by compat.h, after the system headers a file needs
 * would otherwise declare them, so use the safe replacements named below.
 */
#ifndef PATHSTAT_COMMON_BANNED_H
#define PATHSTAT_COMMON_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

/* Declare the real prototypes first so the macros only catch our uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)		/* use strbuf or snprintf */
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef sprintf
#define sprintf(...) BANNED(sprintf)		/* use snprintf */
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef strtok_r
#define strtok_r(x, y, z) BANNED(strtok_r)
#undef atoi
#define atoi(x) BANNED(atoi)			/* use parse_long() */
#undef atol
#define atol(x) BANNED(atol)
#undef gets
#define gets(x) BANNED(gets)
#undef gmtime
#define gmtime(x) BANNED(gmtime)		/* use gmtime_r */
#undef localtime
#define localtime(x) BANNED(localtime)

#endif
