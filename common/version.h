/*
 * version.h - the pathstat version string (set by the Makefile).
 */
#ifndef PATHSTAT_COMMON_VERSION_H
#define PATHSTAT_COMMON_VERSION_H

#ifndef PATHSTAT_VERSION
#define PATHSTAT_VERSION "0.1.0"
#endif

#endif
