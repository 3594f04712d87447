/*
 * err.c - "pathstat <cmd>: what: why" messages on stderr (git's usage.c,
 * OpenBSD err(3)), and the final stdout check every command runs.
 */
#include "common/compat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/exit.h"

static const char *msg_prefix = "pathstat";
static unsigned long errors_reported;

void
err_set_prefix(const char *prefix)
{
	msg_prefix = prefix;
}

const char *
err_prefix(void)
{
	return msg_prefix;
}

static void vreport(const char *tag, const char *fmt, va_list ap, int errnum)
    PATHSTAT_PRINTF(2, 0);

static void
vreport(const char *tag, const char *fmt, va_list ap, int errnum)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (errnum)
		fprintf(stderr, "%s: %s%s: %s\n", msg_prefix, tag, msg,
		    strerror(errnum));
	else
		fprintf(stderr, "%s: %s%s\n", msg_prefix, tag, msg);
}

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	errors_reported++;
	return -1;
}

int
error_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, saved);
	va_end(ap);
	errors_reported++;
	return -1;
}

void
warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, 0);
	va_end(ap);
}

void
note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	exit(PATHSTAT_EXIT_FAIL);
}

void
die_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, saved);
	va_end(ap);
	exit(PATHSTAT_EXIT_FAIL);
}

unsigned long
err_count(void)
{
	return errors_reported;
}

int
err_finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		error_errno("write to standard output");
		fclose(stdout);
		return -1;
	}
	if (fclose(stdout) != 0)
		return error_errno("close standard output");
	return 0;
}
