/*
 * harness.h - a tiny TAP-style unit test harness (git's t/unit-tests,
 * without assert): every CHECK prints "ok N - what" or "not ok N - what"
 * with the values, and test_done() returns non-zero if any failed.
 * Checks survive -DNDEBUG.
 */
#ifndef PATHSTAT_TESTS_HARNESS_H
#define PATHSTAT_TESTS_HARNESS_H

#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int harness_n, harness_failed;

static void PATHSTAT_UNUSED
harness_report(int ok, const char *file, int line, const char *what)
{
	harness_n++;
	if (ok) {
		printf("ok %d - %s\n", harness_n, what);
	} else {
		harness_failed++;
		printf("not ok %d - %s (%s:%d)\n", harness_n, what, file, line);
	}
}

#define CHECK(cond, what) harness_report(!!(cond), __FILE__, __LINE__, (what))

#define CHECK_EQ_INT(got, want, what) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	harness_report(g_ == w_, __FILE__, __LINE__, (what)); \
	if (g_ != w_) \
		printf("#   got %lld, want %lld\n", g_, w_); \
} while (0)

#define CHECK_EQ_STR(got, want, what) do { \
	const char *g_ = (got), *w_ = (want); \
	int ok_ = g_ && w_ ? !strcmp(g_, w_) : g_ == w_; \
	harness_report(ok_, __FILE__, __LINE__, (what)); \
	if (!ok_) \
		printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", \
		    w_ ? w_ : "(null)"); \
} while (0)

/* |got - want| <= tol, or both NaN. */
#define CHECK_NEAR(got, want, tol, what) do { \
	double g_ = (got), w_ = (want); \
	int ok_ = (isnan(g_) && isnan(w_)) || fabs(g_ - w_) <= (tol); \
	harness_report(ok_, __FILE__, __LINE__, (what)); \
	if (!ok_) \
		printf("#   got %.17g, want %.17g (tol %g)\n", g_, w_, \
		    (double)(tol)); \
} while (0)

static int PATHSTAT_UNUSED
test_done(void)
{
	printf("1..%d\n", harness_n);
	if (harness_failed)
		printf("# %d of %d checks failed\n", harness_failed, harness_n);
	return harness_failed ? 1 : 0;
}

#endif
