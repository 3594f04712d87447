/*
 * err.h - message helpers with the "pathstat <cmd>: " prefix.
 * error() and warning() print and return -1 / nothing; die() exits 1.
 * Library code calls error() and returns; only cmd_*() and main() exit.
 */
#ifndef PATHSTAT_COMMON_ERR_H
#define PATHSTAT_COMMON_ERR_H

#include "common/compat.h"

#include "common/strbuf.h"

/* Set the prefix used by every message, e.g. "pathstat ingest".  The
 * string is borrowed and must outlive the command. */
void err_set_prefix(const char *prefix);
const char *err_prefix(void);

/* Print "<prefix>: <message>" to stderr; return -1. */
int error(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);
/* Like error() with ": <strerror(errno)>" appended. */
int error_errno(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);
/* Print "<prefix>: warning: <message>". */
void warning(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);
/* Print "<prefix>: <message>" (no "warning:" tag): notes and progress. */
void note(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);
/*
 * Quiet (a command's -q): from now on warning() and note() print
 * nothing, in every thread; error() and die() still print.  Set it
 * before any thread starts.
 */
void err_set_quiet(bool quiet);
bool err_quiet(void);
/*
 * BUG(fmt, ...): an internal invariant does not hold (never the user's
 * input): print "<prefix>: BUG: file:line: <message>" and abort(), so it
 * is told apart from a user error (exit 1) and leaves a core to read.
 */
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
PATHSTAT_NORETURN void bug_at(const char *file, int line, const char *fmt,
    ...) PATHSTAT_PRINTF(3, 4);
/* Print and exit(PATHSTAT_EXIT_FAIL). */
PATHSTAT_NORETURN void die(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);
PATHSTAT_NORETURN void die_errno(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);

/*
 * Capture this thread's messages: between err_capture_begin() and
 * err_capture_end(), error(), warning() and note() append their lines to
 * c->text and count errors in c->errors instead of printing (die() still
 * prints).  err_capture_flush() prints the text, adds the errors to
 * err_count() and empties c.  Ingest's producer thread uses this so that
 * each file's messages come out in walk order.
 */
struct err_capture {
	struct strbuf	text;		/* the captured lines */
	unsigned long	errors;		/* error() calls in text */
};
#define ERR_CAPTURE_INIT { STRBUF_INIT, 0 }
void err_capture_begin(struct err_capture *c);
void err_capture_end(void);
void err_capture_flush(struct err_capture *c);

/* Count of error() calls since start: commands use it to pick exit 1. */
unsigned long err_count(void);

/*
 * Route stdout through a stream that keeps the errno of its first failed
 * write (on Linux; elsewhere a no-op), so err_finish_stdout() says why
 * the write failed rather than what errno holds by then.  main() calls
 * it first, before anything is printed.
 */
void err_watch_stdout(void);
/* Flush and close stdout; report and return -1 on a write error (full
 * disk, closed pipe), so "pathstat ... > file" never fails silently. */
int err_finish_stdout(void);

#endif
