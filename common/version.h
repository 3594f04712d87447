/*
 * version.h - the pathstat version string (set by the Makefile).
 */
#ifndef PATHSTAT_COMMON_VERSION_H
#define PATHSTAT_COMMON_VERSION_H

/* One home: VERSION in the Makefile, passed as -DPATHSTAT_VERSION to
 * every compile (pathstat, pathprobe, the tests, fuzz targets). */
#ifndef PATHSTAT_VERSION
#error "PATHSTAT_VERSION is set by the Makefile (-DPATHSTAT_VERSION=...)"
#endif

#endif
