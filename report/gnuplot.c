/*
 * gnuplot.c - talking to gnuplot safely: running gnuplot as a program
 * (fork + execvp, no shell; text reaches its scripts only through
 * escape_gnuplot, common/escape.c) from the charts folder with a timeout, its stderr captured.
 * Several can run at once (report_job_start, report_jobs_wait): one
 * poll() watches all their outputs and deadlines.
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
#include "common/xalloc.h"
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

/* Close fd if open and mark it closed. */
static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int
report_job_start(int dirfd, char *const argv[], double timeout_s,
    struct report_job *j)
{
	int errp[2] = { -1, -1 }, execp[2] = { -1, -1 };
	int e = 0, status;
	ssize_t r;

	memset(j, 0, sizeof(*j));
	j->errfd = -1;
	strbuf_init(&j->res.err, 0);
	if (pipe(errp) < 0 || pipe(execp) < 0 ||
	    fcntl(execp[1], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(errp[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(execp[0], F_SETFD, FD_CLOEXEC) < 0) {
		j->res.exec_errno = errno;
		goto cleanup;
	}
	fflush(NULL);
	j->pid = fork();
	if (j->pid < 0) {
		j->res.exec_errno = errno;
		goto cleanup;
	}
	if (j->pid == 0)
		child_exec(dirfd, argv, errp[1], execp[1]);
	close_fd(&errp[1]);
	close_fd(&execp[1]);
	/* exec failed: the child wrote its errno before exiting */
	do {
		r = read(execp[0], &e, sizeof(e));
	} while (r < 0 && errno == EINTR);
	if (r == (ssize_t)sizeof(e)) {
		j->res.exec_errno = e;
		while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
			;
		j->res.exit_code = 127;
		goto cleanup;
	}
	j->deadline = now_s() + timeout_s;
	j->errfd = errp[0];
	errp[0] = -1;
	j->running = true;
cleanup:
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	close_fd(&execp[0]);
	close_fd(&execp[1]);
	return j->running ? 0 : -1;
}

/* j's stderr is closed, or it was killed: reap it, killing it at its
 * deadline if it still runs. */
static void
job_reap(struct report_job *j)
{
	int status = 0;

	close_fd(&j->errfd);
	for (;;) {
		pid_t w = waitpid(j->pid, &status, WNOHANG);

		if (w == j->pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (now_s() > j->deadline && !j->res.timed_out) {
			j->res.timed_out = true;
			kill(j->pid, SIGKILL);
		}
		if (w == 0) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	if (WIFEXITED(status))
		j->res.exit_code = WEXITSTATUS(status);
	else
		j->res.exit_code = 128 +
		    (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	j->running = false;
}

/* Read what j wrote; reap it at the end of its output. */
static void
job_read(struct report_job *j)
{
	char buf[4096];
	ssize_t r;

	do {
		r = read(j->errfd, buf, sizeof(buf));
	} while (r < 0 && errno == EINTR);
	if (r <= 0) {
		job_reap(j);	/* stderr closed */
		return;
	}
	if (j->res.err.len < GP_STDERR_MAX)
		strbuf_add(&j->res.err, buf, (size_t)r);
}

/* Kill the running jobs past their deadline (all when interrupted);
 * the earliest deadline left, or -1 when none runs. */
static double
jobs_deadlines(struct report_job *const *jobs, size_t n)
{
	double first = -1, now = now_s();
	size_t i;

	for (i = 0; i < n; i++) {
		struct report_job *j = jobs[i];

		if (!j->running)
			continue;
		if (j->deadline <= now || report_interrupted()) {
			j->res.timed_out = !report_interrupted();
			kill(j->pid, SIGKILL);
			job_reap(j);
		} else if (first < 0 || j->deadline < first) {
			first = j->deadline;
		}
	}
	return first;
}

/* Read from the jobs whose pfd says so. */
static void
jobs_read(struct report_job *const *jobs, const struct pollfd *pfd, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pfd[i].fd >= 0 && pfd[i].revents && jobs[i]->running)
			job_read(jobs[i]);
}

void
report_jobs_wait(struct report_job *const *jobs, size_t n, bool block)
{
	struct pollfd *pfd = xcalloc(n ? n : 1, sizeof(*pfd));
	size_t i, nrun = 0, was = 0;

	for (i = 0; i < n; i++)
		was += jobs[i]->running;
	for (;;) {
		double first;
		int pr;

		for (i = nrun = 0; i < n; i++) {
			pfd[i].fd = jobs[i]->running ? jobs[i]->errfd : -1;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
			nrun += jobs[i]->running;
		}
		if (!nrun || (block && nrun < was))
			break;
		/* first what is there to read: a job that ended in
		 * time is not killed for being reaped late */
		pr = poll(pfd, (nfds_t)n, 0);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr > 0) {
			jobs_read(jobs, pfd, n);
			continue;
		}
		first = jobs_deadlines(jobs, n);
		if (!block)
			break;
		if (first < 0)
			continue;
		first -= now_s();
		pr = poll(pfd, (nfds_t)n, first > 0 ? (int)(first * 1000) + 1 :
		    0);
		if (pr > 0)
			jobs_read(jobs, pfd, n);
	}
	free(pfd);
}

int
report_run_program(int dirfd, char *const argv[], double timeout_s,
    struct report_run_result *res)
{
	struct report_job j, *jp = &j;

	report_job_start(dirfd, argv, timeout_s, &j);
	while (j.running)
		report_jobs_wait(&jp, 1, true);
	*res = j.res;
	return res->exec_errno || res->timed_out || res->exit_code ? -1 : 0;
}

void
report_run_result_release(struct report_run_result *res)
{
	strbuf_release(&res->err);
}
