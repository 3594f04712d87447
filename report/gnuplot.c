/*
 * gnuplot.c - talking to gnuplot safely: running gnuplot as a program
 * (fork + execvp, no shell; text reaches its scripts only through
 * escape_gnuplot, common/escape.c) from the charts folder with a timeout, its stderr captured.
 */
#include "common/compat.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "common/utf8.h"
#include "report/internal.h"
#include "report/report.h"

/* Most stderr kept from one gnuplot run; the rest is dropped. */
#define GP_STDERR_MAX	(64 * 1024)

size_t
report_utf8_len(const unsigned char *p)
{
	return utf8_len(p);
}

void
report_gp_comment_text(struct strbuf *sb, const char *s)
{
	escape_gnuplot_comment(sb, s);
}

const char *
report_gnuplot_program(void)
{
	const char *p = getenv("PATHSTAT_GNUPLOT");

	return p && *p ? p : "gnuplot";
}

double
report_gnuplot_timeout(void)
{
	const char *s = getenv("PATHSTAT_GNUPLOT_TIMEOUT");
	char *end;
	double v;

	if (!s || !*s)
		return REPORT_GNUPLOT_TIMEOUT_S;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0) || v > 86400)
		return REPORT_GNUPLOT_TIMEOUT_S;
	return v;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the child: never returns.  Reports an exec failure's errno on
 * errfd (close-on-exec, so a successful exec closes it silently). */
static void
child_exec(int dirfd, char *const argv[], int errpipe_w, int errfd)
{
	int devnull = open("/dev/null", O_RDWR);
	int e;

	if (devnull < 0 || dup2(devnull, STDIN_FILENO) < 0 ||
	    dup2(errpipe_w, STDOUT_FILENO) < 0 ||
	    dup2(errpipe_w, STDERR_FILENO) < 0)
		goto fail;
	if (dirfd >= 0 && fchdir(dirfd) < 0)
		goto fail;
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int
report_run_program(int dirfd, char *const argv[], double timeout_s,
    struct report_run_result *res)
{
	int errp[2] = { -1, -1 }, execp[2] = { -1, -1 };
	pid_t pid;
	double deadline;
	int status = 0, e = 0, ret = -1;
	bool open_err = true;
	ssize_t r;

	memset(res, 0, sizeof(*res));
	strbuf_init(&res->err, 0);
	if (pipe(errp) < 0 || pipe(execp) < 0) {
		res->exec_errno = errno;
		goto cleanup;
	}
	if (fcntl(execp[1], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(errp[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(execp[0], F_SETFD, FD_CLOEXEC) < 0) {
		res->exec_errno = errno;
		goto cleanup;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		res->exec_errno = errno;
		goto cleanup;
	}
	if (pid == 0)
		child_exec(dirfd, argv, errp[1], execp[1]);
	close(errp[1]);
	errp[1] = -1;
	close(execp[1]);
	execp[1] = -1;
	/* exec failed: the child wrote its errno before exiting */
	do {
		r = read(execp[0], &e, sizeof(e));
	} while (r < 0 && errno == EINTR);
	if (r == (ssize_t)sizeof(e))
		res->exec_errno = e;

	deadline = now_s() + timeout_s;
	while (open_err) {
		struct pollfd pfd = { errp[0], POLLIN, 0 };
		double left = deadline - now_s();
		char buf[4096];
		int pr;

		if (left <= 0 || report_interrupted()) {
			res->timed_out = !report_interrupted();
			kill(pid, SIGKILL);
			break;
		}
		pr = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			break;
		if (pr == 0)
			continue;
		r = read(errp[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;	/* stderr closed */
		if (res->err.len < GP_STDERR_MAX)
			strbuf_add(&res->err, buf, (size_t)r);
	}
	/* stderr closed: the program is exiting; still bound the wait */
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (now_s() > deadline && !res->timed_out) {
			res->timed_out = true;
			kill(pid, SIGKILL);
		}
		if (w == 0) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	if (WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	else
		res->exit_code = 128 +
		    (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	ret = res->exec_errno || res->timed_out || res->exit_code ? -1 : 0;
cleanup:
	if (errp[0] >= 0)
		close(errp[0]);
	if (errp[1] >= 0)
		close(errp[1]);
	if (execp[0] >= 0)
		close(execp[0]);
	if (execp[1] >= 0)
		close(execp[1]);
	return ret;
}

void
report_run_result_release(struct report_run_result *res)
{
	strbuf_release(&res->err);
}
