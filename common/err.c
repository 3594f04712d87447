/*
 * err.c - "pathstat <cmd>: what: why" messages on stderr (git's usage.c,
 * OpenBSD err(3)), and the final stdout check every command runs.
 */
#ifdef __linux__
#define _GNU_SOURCE 1	/* fopencookie (glibc, musl) */
#endif
#include "common/compat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/exit.h"
#include "common/strbuf.h"
#include "common/utf8.h"

static const char *msg_prefix = "pathstat";
static unsigned long errors_reported;
static bool quiet;		/* warning() and note() print nothing */
/* errno of the first write to standard output that failed, 0 if none
 * (err_watch_stdout). */
static int stdout_errno;
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
	char raw[4096];
	struct strbuf msg = STRBUF_INIT;	/* freed here */
	const unsigned char *p;
	const char *shown;

	vsnprintf(raw, sizeof(raw), fmt, ap);
	/* names from a synced tree (folders, files, keys) reach messages:
	 * an ESC sequence, a C1 or a bidirectional control in one is shown
	 * as \x1b or \u202E, never applied to the terminal.  Plain ASCII
	 * needs no copy: die() for a failed allocation allocates nothing. */
	for (p = (const unsigned char *)raw; *p; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p >= 0x7f)
			break;
	if (*p)
		utf8_add_shown(&msg, raw);
	shown = *p ? msg.buf : raw;
	if (capture && !direct) {
		if (errnum)
			strbuf_addf(&capture->text, "%s: %s%s: %s\n",
			    msg_prefix, tag, shown, strerror(errnum));
		else
			strbuf_addf(&capture->text, "%s: %s%s\n",
			    msg_prefix, tag, shown);
	} else if (errnum) {
		fprintf(stderr, "%s: %s%s: %s\n", msg_prefix, tag, shown,
		    strerror(errnum));
	} else {
		fprintf(stderr, "%s: %s%s\n", msg_prefix, tag, shown);
	}
	strbuf_release(&msg);
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

#ifdef __linux__
/* Standard output's writes, through stdio's buffer: the first failure's
 * errno is kept, since stdio keeps only "an error happened". */
static ssize_t
stdout_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	(void)cookie;
	while (done < len) {
		n = write(STDOUT_FILENO, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (!stdout_errno)
				stdout_errno = errno;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int
stdout_close(void *cookie)
{
	(void)cookie;
	if (close(STDOUT_FILENO) == 0)
		return 0;
	if (!stdout_errno)
		stdout_errno = errno;
	return -1;
}

void
err_watch_stdout(void)
{
	cookie_io_functions_t io = { .write = stdout_write,
		.close = stdout_close };
	struct stat st;
	size_t size = BUFSIZ;
	FILE *fp;

	/* stdio's own choice: line-buffered on a terminal, else the
	 * file's block size */
	if (fstat(STDOUT_FILENO, &st) == 0 && st.st_blksize > 0)
		size = (size_t)st.st_blksize;
	fp = fopencookie(NULL, "w", io);
	if (!fp)
		return;		/* the plain stdout: errno read late */
	if (setvbuf(fp, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, size)) {
		fclose(fp);
		return;
	}
	stdout = fp;	/* glibc and musl: stdout is a plain variable */
}
#else
void
err_watch_stdout(void)
{
}
#endif

int
err_finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* the failed write's errno, not whatever errno is now (a
		 * later sqlite3 call on a closed handle leaves EBADF) */
		if (stdout_errno)
			errno = stdout_errno;
		error_errno("write to standard output");
		fclose(stdout);
		return -1;
	}
	if (fclose(stdout) != 0) {
		if (stdout_errno)
			errno = stdout_errno;
		return error_errno("close standard output");
	}
	return 0;
}
