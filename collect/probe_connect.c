/*
 * probe_connect.c - the connect-time mode: non-blocking connect() probes
 * started on an absolute schedule (start + seq * interval), several in
 * flight when the timeout is longer than the interval, each timed with
 * CLOCK_MONOTONIC, the kernel's own handshake RTT read with TCP_INFO,
 * and written as one CSV row, in order, to stdout or to a temporary file
 * renamed into place at the end (also after SIGINT).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1	/* ppoll() on Linux */
#endif
#include "common/compat.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/internal.h"
#include "common/version.h"

#if defined(__linux__)
#define HAVE_PPOLL 1	/* ns timeout and an atomic signal mask */
#endif

struct slot {
	bool		busy;		/* holds a probe not yet printed */
	bool		done;		/* the probe has its result */
	int		fd;		/* socket while connecting, else -1 */
	int64_t		t0;		/* CLOCK_MONOTONIC at connect() */
	int64_t		t_ret;		/* ... when connect() returned */
	int64_t		t_wait;		/* ... when the last wait began */
	int64_t		t_wake;		/* ... when that wait returned */
	int64_t		deadline;	/* t0 + timeout */
	struct probe_row row;		/* what gets printed */
};

struct output {
	FILE		*fp;		/* stdout or the temporary file */
	char		*tmp;		/* temporary path (owned), or NULL */
	const char	*final;		/* -o FILE, or NULL for stdout */
	bool		failed;		/* a write failed */
	int		err;		/* errno of the first failure, or 0 */
};

struct run {
	const struct probe_opts	*o;
	struct probe_addr	target;		/* resolved before timing */
	struct probe_addr	src;		/* -b address */
	bool			have_src;	/* -b given */
	int64_t			interval_ns;	/* -i */
	int64_t			timeout_ns;	/* -t */
	int64_t			start_ns;	/* monotonic time of probe 0 */
	int64_t			real_off;	/* Unix time - monotonic */
	struct slot		*slots;		/* ring, index seq % nslots */
	size_t			nslots;
	int64_t			spin_ns;	/* spin after t0, or 0 */
	uint64_t		next_seq;	/* next probe to start */
	uint64_t		next_out;	/* next probe to print */
	struct output		out;
	double			*ok_ms;		/* connect times of ok probes */
	size_t			nok, alloc_ok;
	uint64_t		nresult[PROBE_ERROR + 1];	/* per result */
	uint64_t		recorded;	/* rows printed */
	double			*rtt_us;	/* kernel RTTs of ok probes */
	size_t			nrtt, alloc_rtt;
	double			*late_us;	/* each start past its due */
	size_t			nlate, alloc_late;
	uint64_t		syn_retrans;	/* ok after a SYN retransmit */
	bool			pipe_ignored;	/* SIGPIPE ignored on entry */
};

static void
on_signal(int sig)
{
	(void)sig;
	collect_interrupted = 1;
}

static int
install_signals(sigset_t *blocked, sigset_t *orig, bool *pipe_ignored)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: let the wait return */
	sigemptyset(blocked);
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		struct sigaction old;

		/* A signal ignored on entry stays ignored: "nohup pathprobe"
		 * must survive the SSH session's SIGHUP. */
		if (sigaction(sigs[i], NULL, &old))
			return -1;
		if (old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(sigs[i], &sa, NULL))
			return -1;
		sigaddset(blocked, sigs[i]);
	}
	/* EPIPE instead of death, so a closed pipe is noticed where it
	 * can be handled (see sigpipe_exit). */
	*pipe_ignored = signal(SIGPIPE, SIG_IGN) == SIG_IGN;
#ifdef HAVE_PPOLL
	/* Signals stay blocked except inside ppoll(), so one arriving
	 * between the check and the wait is never missed. */
	if (sigprocmask(SIG_BLOCK, blocked, orig))
		return -1;
#else
	sigemptyset(orig);
#endif
	return 0;
}

/*
 * Open the output: stdout, or a hidden temporary file beside FILE that
 * output_commit() renames to FILE.  Returns 0, or -1 after a message.
 */
static int
output_open(struct output *out, const char *file)
{
	const char *slash, *base;
	size_t dirlen, len;
	mode_t mask;
	int fd;

	memset(out, 0, sizeof(*out));
	if (!file || !strcmp(file, "-")) {
		out->fp = stdout;
		if (isatty(fileno(stdout)))
			setvbuf(stdout, NULL, _IOLBF, 0);
		return 0;
	}
	slash = strrchr(file, '/');
	base = slash ? slash + 1 : file;
	dirlen = (size_t)(base - file);
	len = strlen(file) + 16;
	out->tmp = malloc(len);
	if (!out->tmp) {
		collect_warnx("out of memory");
		return -1;
	}
	snprintf(out->tmp, len, "%.*s.%s.XXXXXX", (int)dirlen, file, base);
	fd = mkstemp(out->tmp);
	if (fd < 0) {
		collect_warn("cannot create '%s'", out->tmp);
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		collect_warn("cannot set the mode of '%s'", out->tmp);
	out->fp = fdopen(fd, "w");
	if (!out->fp) {
		collect_warn("cannot open '%s'", out->tmp);
		close(fd);
		unlink(out->tmp);
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
	out->final = file;
	return 0;
}

/* Note the first write failure with its errno: a later message must not
 * print whatever errno a later connect() left behind. */
static void
output_fail(struct output *out)
{
	out->err = errno ? errno : EIO;
	out->failed = true;
}

/*
 * The reader of standard output went away (pathprobe ... | head -1):
 * like git and the other filters, die silently of SIGPIPE, so the shell
 * sees 128 + SIGPIPE and prints nothing.  If SIGPIPE was ignored when
 * pathprobe started, the invoker asked for EPIPE instead: say so and
 * exit 1.
 */
static int
sigpipe_exit(bool ignored)
{
	if (ignored) {
		collect_warnx("cannot write to standard output: %s",
		    strerror(EPIPE));
		return PROBE_EXIT_FAIL;
	}
	signal(SIGPIPE, SIG_DFL);
	raise(SIGPIPE);
	return PROBE_EXIT_FAIL;	/* SIGPIPE blocked by the invoker */
}

/* Flush and close the output and, for -o, rename it into place.
 * Returns 0, or -1 after a message (the temporary file is removed). */
static int
output_commit(struct output *out)
{
	int ret = 0;

	if (!out->failed && (fflush(out->fp) || ferror(out->fp)))
		output_fail(out);
	if (out->tmp) {
		if (!out->failed && fsync(fileno(out->fp)))
			output_fail(out);
		if (fclose(out->fp) && !out->failed)
			output_fail(out);
		if (out->failed) {
			collect_warnx("cannot write '%s': %s", out->final,
			    strerror(out->err));
			unlink(out->tmp);
			ret = -1;
		} else if (rename(out->tmp, out->final)) {
			collect_warn("cannot rename '%s' to '%s'", out->tmp,
			    out->final);
			unlink(out->tmp);
			ret = -1;
		}
		free(out->tmp);
		out->tmp = NULL;
	} else if (out->failed && out->err != EPIPE) {
		collect_warnx("cannot write to standard output: %s",
		    strerror(out->err));
		ret = -1;
	} else if (out->failed) {
		ret = -1;	/* the caller's sigpipe_exit() */
	}
	return ret;
}

static void
emit(struct output *out, const char *s, size_t len)
{
	if (!out->failed && fwrite(s, 1, len, out->fp) != len)
		output_fail(out);
}

static void
write_header(struct run *r, int64_t start_real)
{
	const struct probe_opts *o = r->o;
	char target[320], when[32], line[1024];
	int n;

	collect_target_text(o->host, o->port, target, sizeof(target));
	collect_utc_iso(start_real, when, sizeof(when));
	n = snprintf(line, sizeof(line),
	    "# pathprobe %d target=%s addr=%s count=%ld interval_s=%g "
	    "timeout_s=%g start=%s rst=%d resolve_each=%d spin=%d%s%s "
	    "version=%s\nseq,unix_ns,connect_ms,rtt_us,result\n",
	    PROBE_FORMAT_VERSION, target, r->target.text, o->count,
	    o->interval_s, o->timeout_s, when, o->rst ? 1 : 0,
	    o->resolve_each ? 1 : 0, o->no_spin ? 0 : 1,
	    r->have_src ? " bind=" : "",
	    r->have_src ? r->src.text : "", PATHSTAT_VERSION);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		errno = ENAMETOOLONG;
		output_fail(&r->out);
		return;
	}
	emit(&r->out, line, (size_t)n);
}

/* Keep an ok probe's figure x for the summary in *v (*n of *alloc,
 * owned by the run); out of memory is fatal. */
static void
add_value(double **v, size_t *n, size_t *alloc, double x)
{
	if (*n == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 1024;
		double *p = realloc(*v, na * sizeof(*p));

		if (!p) {
			collect_warnx("out of memory (%zu results)", na);
			exit(PROBE_EXIT_FAIL);
		}
		*v = p;
		*alloc = na;
	}
	(*v)[(*n)++] = x;
}

/*
 * The kernel's RTT of the handshake just completed on s->fd.  Linux
 * takes it from the SYN's send time to the SYN/ACK's arrival, unless
 * the SYN was retransmitted: then Karn's rule forbids that sample and
 * the kernel falls back to the TCP timestamps option, in milliseconds
 * (1 ms at least), or has none (0).  Such a figure is not the same
 * measurement, so the row leaves rtt_us empty (pathprobe(1), CAVEATS).
 */
static void
read_rtt(struct run *r, struct slot *s)
{
	int64_t rtt;
	bool retrans = false;

	if (collect_tcp_rtt(s->fd, &rtt, &retrans))
		return;
	if (retrans)
		r->syn_retrans++;
	if (rtt > 0 && !retrans)
		s->row.rtt_us = rtt;
#ifdef PROBE_TRACE
	fprintf(stderr, "trace %llu %lld %lld %lld %lld %lld %lld %d\n",
	    (unsigned long long)s->row.seq, (long long)s->t0,
	    (long long)s->t_ret, (long long)s->t_wait, (long long)s->t_wake,
	    (long long)(s->t0 + s->row.dur_ns), (long long)rtt,
	    retrans ? 1 : 0);
#endif
}

/* The next probes' answer is expected after about this probe's RTT
 * (the kernel's, else connect_ms): spin for it when it is short. */
static void
expect(struct run *r, const struct slot *s)
{
	int64_t rtt = s->row.rtt_us > 0 ? s->row.rtt_us * 1000 :
	    s->row.dur_ns;

	r->spin_ns = 0;
	if (!r->o->no_spin && rtt <= PROBE_SPIN_RTT_MAX_NS)
		r->spin_ns = 2 * rtt + PROBE_SPIN_SLACK_NS;
}

/* Finish the probe in s with err (0 = connected) observed at t1. */
static void
finish(struct run *r, struct slot *s, int err, int64_t t1)
{
	s->row.dur_ns = t1 - s->t0;
	s->row.result = collect_classify(err);
	s->row.err = s->row.result == PROBE_ERROR ? err : 0;
	/* Noticed at or past the timeout: loss, never an RTT. */
	if (s->row.result == PROBE_OK && s->row.dur_ns >= r->timeout_ns)
		s->row.result = PROBE_TIMEOUT;
	if (s->fd >= 0) {
		if (s->row.result == PROBE_OK) {
			read_rtt(r, s);
			expect(r, s);
		}
		if (s->row.result == PROBE_OK && r->o->rst) {
			struct linger lg = { 1, 0 };

			(void)setsockopt(s->fd, SOL_SOCKET, SO_LINGER, &lg,
			    sizeof(lg));
		}
		close(s->fd);
		s->fd = -1;
	}
	s->done = true;
}

static void
finish_result(struct slot *s, int result, int err)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->row.result = result;
	s->row.err = err;
	s->done = true;
}

static int
open_socket(struct run *r, int family)
{
	int fd, flags;

	fd = socket(family, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		goto fail;
	if (r->have_src && bind(fd, (const struct sockaddr *)&r->src.ss,
	    r->src.len))
		goto fail;
	return fd;
fail:
	{
		int e = errno;

		close(fd);
		errno = e;
	}
	return -1;
}

/*
 * Start probe seq, due now or earlier.  Its start is stamped on the
 * monotonic clock that the schedule runs on, so unix_ns - probe 0's
 * unix_ns - seq * interval is exactly how late it started (never
 * negative), whatever the wall clock does meanwhile; probe 0's start
 * is the schedule's origin.
 */
static void
start_probe(struct run *r, uint64_t seq)
{
	struct slot *s = &r->slots[seq % r->nslots];
	struct probe_addr each;
	const struct probe_addr *a = &r->target;
	int64_t t0 = 0, now = collect_mono_ns();

	memset(s, 0, sizeof(*s));
	s->busy = true;
	s->fd = -1;
	s->row.seq = seq;
	s->row.rtt_us = -1;
	if (seq == 0)
		r->start_ns = now;
	s->row.unix_ns = r->real_off + now;
	add_value(&r->late_us, &r->nlate, &r->alloc_late, (double)(now -
	    collect_due_ns(r->start_ns, r->interval_ns, seq)) / 1000.0);
	if (r->o->resolve_each) {
		t0 = collect_mono_ns();
		if (collect_resolve(r->o->host, r->o->port, r->target.family,
		    SOCK_STREAM, &each, true, &s->row.ename)) {
			finish_result(s, PROBE_ERROR, 0);
			return;
		}
		a = &each;
	}
	s->fd = open_socket(r, a->family);
	if (s->fd < 0) {
		finish_result(s, PROBE_ERROR, errno);
		return;
	}
	if (!r->o->resolve_each)
		t0 = collect_mono_ns();
	s->t0 = t0;
	s->deadline = t0 + r->timeout_ns;
	if (connect(s->fd, (const struct sockaddr *)&a->ss, a->len) == 0) {
		s->t_ret = s->t_wake = collect_mono_ns();
		finish(r, s, 0, s->t_ret);
		return;
	}
	s->t_ret = collect_mono_ns();
	if (errno != EINPROGRESS) {
		int e = errno;

		finish(r, s, e, collect_mono_ns());
	}
}

/* Print the finished probes that are next in order. */
static void
flush_rows(struct run *r)
{
	char line[160];
	int n;

	while (r->next_out < r->next_seq) {
		struct slot *s = &r->slots[r->next_out % r->nslots];

		if (!s->done)
			break;
		n = collect_format_row(&s->row, line, sizeof(line));
		if (n > 0)
			emit(&r->out, line, (size_t)n);
		r->nresult[s->row.result]++;
		if (s->row.result == PROBE_OK) {
			long long us = (long long)((s->row.dur_ns + 500) /
			    1000);

			add_value(&r->ok_ms, &r->nok, &r->alloc_ok,
			    (double)us / 1000.0);
			if (s->row.rtt_us >= 0)
				add_value(&r->rtt_us, &r->nrtt, &r->alloc_rtt,
				    (double)s->row.rtt_us);
		}
		r->recorded++;
		s->busy = false;
		s->done = false;
		r->next_out++;
	}
}

static void
wait_events(struct run *r, int64_t wake, const sigset_t *orig)
{
	struct pollfd pfd[PROBE_INFLIGHT_MAX];
	struct slot *who[PROBE_INFLIGHT_MAX];
	size_t i, n = 0;
	int64_t now, wait, spin_until = 0;
	int rc = 0;

	for (i = 0; i < r->nslots; i++) {
		struct slot *s = &r->slots[i];

		if (!s->busy || s->done)
			continue;
		pfd[n].fd = s->fd;
		pfd[n].events = POLLOUT;
		pfd[n].revents = 0;
		who[n++] = s;
		if (s->deadline < wake)
			wake = s->deadline;
		if (r->spin_ns && s->t0 + r->spin_ns > spin_until)
			spin_until = s->t0 + r->spin_ns;
	}
	now = collect_mono_ns();
	for (i = 0; i < n; i++)
		who[i]->t_wait = now;
	/* Spin first when the answer is due within microseconds: a sleeping
	 * process is woken 30-100 us after the SYN/ACK
	 * (docs/research/bench.md).
	 * Bounded by spin_ns and by the next probe's start or deadline. */
	if (spin_until > wake)
		spin_until = wake;
	while (n && now < spin_until) {
		rc = poll(pfd, (nfds_t)n, 0);
		now = collect_mono_ns();
		if (rc)
			goto ready;
	}
	wait = wake > now ? wake - now : 0;
#ifdef HAVE_PPOLL
	{
		struct timespec ts;

		ts.tv_sec = (time_t)(wait / NS_PER_SEC);
		ts.tv_nsec = (long)(wait % NS_PER_SEC);
		rc = ppoll(pfd, (nfds_t)n, &ts, orig);
	}
#else
	(void)orig;
	/* Round up so a deadline is never checked early. */
	rc = poll(pfd, (nfds_t)n, (int)((wait + 999999) / 1000000));
#endif
	now = collect_mono_ns();
ready:
	if (rc < 0 && errno != EINTR)
		collect_warn("poll");
	for (i = 0; rc > 0 && i < n; i++) {
		int err = 0;
		socklen_t elen = sizeof(err);

		if (!pfd[i].revents)
			continue;
		if (getsockopt(who[i]->fd, SOL_SOCKET, SO_ERROR, &err, &elen))
			err = errno;
		who[i]->t_wake = now;
		finish(r, who[i], err, now);
	}
	for (i = 0; i < n; i++) {
		if (!who[i]->done && now >= who[i]->deadline)
			finish_result(who[i], PROBE_TIMEOUT, 0);
	}
}

static void
abandon_inflight(struct run *r)
{
	size_t i;

	for (i = 0; i < r->nslots; i++) {
		if (r->slots[i].fd >= 0)
			close(r->slots[i].fd);
		r->slots[i].fd = -1;
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
print_summary(struct run *r)
{
	const struct probe_opts *o = r->o;
	char target[320], fails[256] = "";
	static const char *names[] = { "ok", "timeout", "refused",
	    "unreachable", "error" };
	uint64_t failed = r->recorded - r->nresult[PROBE_OK];
	double loss = r->recorded ? 100.0 * (double)failed /
	    (double)r->recorded : 0.0;
	size_t off = 0;
	int i;

	collect_target_text(o->host, o->port, target, sizeof(target));
	for (i = PROBE_TIMEOUT; i <= PROBE_ERROR; i++) {
		int n;

		if (!r->nresult[i])
			continue;
		n = snprintf(fails + off, sizeof(fails) - off, "%s%llu %s",
		    off ? ", " : " (", (unsigned long long)r->nresult[i],
		    names[i]);
		if (n > 0 && (size_t)n < sizeof(fails) - off)
			off += (size_t)n;
	}
	if (off && off + 1 < sizeof(fails)) {
		fails[off] = ')';
		fails[off + 1] = '\0';
	}
	fprintf(stderr, "pathprobe: %s (%s) %llu sent, %llu ok, %.1f%% loss%s",
	    target, r->target.text, (unsigned long long)r->recorded,
	    (unsigned long long)r->nresult[PROBE_OK], loss, fails);
	if (r->nok) {
		qsort(r->ok_ms, r->nok, sizeof(double), cmp_double);
		fprintf(stderr, "; connect_ms p50 %.3f p95 %.3f p99 %.3f "
		    "max %.3f (type7, n=%zu)",
		    collect_quantile7(r->ok_ms, r->nok, 0.50),
		    collect_quantile7(r->ok_ms, r->nok, 0.95),
		    collect_quantile7(r->ok_ms, r->nok, 0.99),
		    r->ok_ms[r->nok - 1], r->nok);
	}
	if (r->nrtt) {
		qsort(r->rtt_us, r->nrtt, sizeof(double), cmp_double);
		fprintf(stderr, "; kernel rtt_us p50 %.1f p99 %.1f (n=%zu)",
		    collect_quantile7(r->rtt_us, r->nrtt, 0.50),
		    collect_quantile7(r->rtt_us, r->nrtt, 0.99), r->nrtt);
	}
	if (r->nlate) {
		qsort(r->late_us, r->nlate, sizeof(double), cmp_double);
		fprintf(stderr, "; started late p50 %.0f max %.0f us",
		    collect_quantile7(r->late_us, r->nlate, 0.50),
		    r->late_us[r->nlate - 1]);
	}
	if (r->syn_retrans)
		fprintf(stderr, "; %llu ok after a SYN retransmit (no rtt_us)",
		    (unsigned long long)r->syn_retrans);
	if (collect_interrupted)
		fprintf(stderr, "; interrupted after %llu of %ld probes",
		    (unsigned long long)r->recorded, o->count);
	fputc('\n', stderr);
}

/* Check once, before timing, that -b can be bound at all. */
static int
check_bind(struct run *r)
{
	int fd = socket(r->target.family, SOCK_STREAM, 0);
	int ret = 0;

	if (fd < 0) {
		collect_warn("cannot create a socket");
		return -1;
	}
	if (bind(fd, (const struct sockaddr *)&r->src.ss, r->src.len)) {
		collect_warn("cannot bind to '%s'", r->o->bind);
		ret = -1;
	}
	close(fd);
	return ret;
}

int
collect_run_connect(const struct probe_opts *o)
{
	struct run r;
	sigset_t blocked, orig;
	int64_t now, wake;
	int ret = PROBE_EXIT_FAIL;
	double inflight;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.interval_ns = llround(o->interval_s * 1e9);
	r.timeout_ns = llround(o->timeout_s * 1e9);
	if (collect_resolve(o->host, o->port, o->family, SOCK_STREAM,
	    &r.target, false, NULL))
		return PROBE_EXIT_FAIL;
	if (o->bind) {
		if (collect_parse_bind(o->bind, r.target.family, &r.src))
			return PROBE_EXIT_FAIL;
		r.have_src = true;
		if (check_bind(&r))
			return PROBE_EXIT_FAIL;
	}
	/* Enough slots that a probe on schedule always finds one free. */
	inflight = ceil(o->timeout_s / o->interval_s) + 2;
	r.nslots = inflight > PROBE_INFLIGHT_MAX ? PROBE_INFLIGHT_MAX :
	    (size_t)inflight;
	r.slots = calloc(r.nslots, sizeof(*r.slots));
	if (!r.slots) {
		collect_warnx("out of memory");
		return PROBE_EXIT_FAIL;
	}
	for (size_t i = 0; i < r.nslots; i++)
		r.slots[i].fd = -1;
	if (install_signals(&blocked, &orig, &r.pipe_ignored)) {
		collect_warn("cannot install signal handlers");
		goto cleanup;
	}
	if (output_open(&r.out, o->outfile))
		goto cleanup;
#ifdef __OpenBSD__
	/* Set up; from here on: sockets, the output (rename needs cpath),
	 * and DNS only for --resolve-each.  Not yet tried on OpenBSD. */
	if (pledge(o->resolve_each ? "stdio inet dns cpath" :
	    "stdio inet cpath", NULL) == -1) {
		collect_warn("pledge");
		goto cleanup;
	}
#endif

	write_header(&r, collect_real_ns());
	r.real_off = collect_real_offset_ns();
	/* After the header: the first write may be slow (stdio, a cold
	 * page cache, an emulator), and the schedule starts now (exactly:
	 * at probe 0's start, see start_probe). */
	r.start_ns = collect_mono_ns();
#ifdef PROBE_TRACE
	/* The rows' own mapping: unix_ns = monotonic + real_off. */
	fprintf(stderr, "clock %lld %lld\n", (long long)(r.real_off +
	    r.start_ns), (long long)r.start_ns);
#endif
	while (!collect_interrupted) {
		struct slot *next;

		now = collect_mono_ns();
		while (!collect_interrupted &&
		    r.next_seq < (uint64_t)o->count &&
		    !r.slots[r.next_seq % r.nslots].busy &&
		    now >= collect_due_ns(r.start_ns, r.interval_ns,
		    r.next_seq)) {
			start_probe(&r, r.next_seq++);
			now = collect_mono_ns();
		}
		flush_rows(&r);
		/* The rows can no longer be delivered: stop probing. */
		if (r.next_out == (uint64_t)o->count || r.out.failed)
			break;
		wake = INT64_MAX;
		next = &r.slots[r.next_seq % r.nslots];
		if (r.next_seq < (uint64_t)o->count && !next->busy)
			wake = collect_due_ns(r.start_ns, r.interval_ns,
			    r.next_seq);
		wait_events(&r, wake, &orig);
	}
	abandon_inflight(&r);
	flush_rows(&r);
	if (output_commit(&r.out)) {
		ret = PROBE_EXIT_FAIL;
		if (r.out.err == EPIPE && !r.out.final)
			ret = sigpipe_exit(r.pipe_ignored);
	} else {
		if (!o->quiet)
			print_summary(&r);
		ret = r.recorded == r.nresult[PROBE_OK] ? PROBE_EXIT_OK :
		    PROBE_EXIT_LOSS;
	}
cleanup:
	free(r.slots);
	free(r.ok_ms);
	free(r.rtt_us);
	free(r.late_us);
	return ret;
}
