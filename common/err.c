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
#include <unistd.h>

#include "common/err.h"
#include "common/exit.h"
#include "common/strbuf.h"

static const char *msg_prefix = "pathstat";
static unsigned long errors_reported;
static bool quiet;		/* warning() and note() print nothing */
/* Where this thread's messages go instead of stderr, or NULL. */
static _Thread_local struct err_capture *capture;

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

static void vreport(const char *tag, const char *fmt, va_list ap, int errnum,
    bool direct) PATHSTAT_PRINTF(2, 0);

static void
vreport(const char *tag, const char *fmt, va_list ap, int errnum, bool direct)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (capture && !direct) {
		if (errnum)
			strbuf_addf(&capture->text, "%s: %s%s: %s\n",
			    msg_prefix, tag, msg, strerror(errnum));
		else
			strbuf_addf(&capture->text, "%s: %s%s\n",
			    msg_prefix, tag, msg);
		return;
	}
	if (errnum)
		fprintf(stderr, "%s: %s%s: %s\n", msg_prefix, tag, msg,
		    strerror(errnum));
	else
		fprintf(stderr, "%s: %s%s\n", msg_prefix, tag, msg);
}

static void
count_error(void)
{
	if (capture)
		capture->errors++;
	else
		errors_reported++;
}

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0, false);
	va_end(ap);
	count_error();
	return -1;
}

int
error_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, saved, false);
	va_end(ap);
	count_error();
	return -1;
}

void
err_set_quiet(bool q)
{
	quiet = q;
}

bool
err_quiet(void)
{
	return quiet;
}

void
warning(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, 0, false);
	va_end(ap);
}

void
note(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap, 0, false);
	va_end(ap);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0, true);
	va_end(ap);
	exit(PATHSTAT_EXIT_FAIL);
}

void
bug_at(const char *file, int line, const char *fmt, ...)
{
	/* Formatted into a buffer and written with write(2): an invariant
	 * may break where stdio itself is in a bad state. */
	char buf[1024];
	int n, m;
	va_list ap;

	fflush(stdout);
	n = snprintf(buf, sizeof(buf), "%s: BUG: %s:%d: ", err_prefix(), file,
	    line);
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		m = 0;
	n += m;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0) {
		/* nothing left to tell it with */
	}
	abort();
}

void
die_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, saved, true);
	va_end(ap);
	exit(PATHSTAT_EXIT_FAIL);
}

void
err_capture_begin(struct err_capture *c)
{
	capture = c;
}

void
err_capture_end(void)
{
	capture = NULL;
}

void
err_capture_flush(struct err_capture *c)
{
	fputs(c->text.buf, stderr);
	errors_reported += c->errors;
	strbuf_reset(&c->text);
	c->errors = 0;
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
