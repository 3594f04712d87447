/*
 * probe_util.c - pathprobe's own small helpers, because it links libc
 * only: err(3)-style messages, the two clocks, the type 7 quantile,
 * errno names, and the CSV row format.  Checked number parsing is
 * common/parse.c's, compiled in.
 */
#include "common/compat.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/internal.h"

volatile sig_atomic_t collect_interrupted;

static void vmessage(const char *fmt, va_list ap, int err)
    PATHSTAT_PRINTF(1, 0);

static void
vmessage(const char *fmt, va_list ap, int err)
{
	fputs("pathprobe: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

/* Print "pathprobe: <message>" to stderr. */
void
collect_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, 0);
	va_end(ap);
}

/* Print "pathprobe: <message>: <strerror(errno)>" to stderr. */
void
collect_warn(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, err);
	va_end(ap);
}

static int64_t
clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;	/* cannot fail for these two clocks */
	return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

int64_t
collect_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int64_t
collect_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

int64_t
collect_real_offset_ns(void)
{
	int64_t best = INT64_MAX, off = 0;

	/* The pair read closest together wins: a preemption between two
	 * reads would shift every row's unix_ns by its length. */
	for (int i = 0; i < 5; i++) {
		int64_t a = collect_mono_ns(), re = collect_real_ns();
		int64_t b = collect_mono_ns();

		if (b - a < best) {
			best = b - a;
			off = re - (a + (b - a) / 2);
		}
	}
	return off;
}

void
collect_utc_iso(int64_t unix_ns, char *buf, size_t len)
{
	time_t t = (time_t)(unix_ns / NS_PER_SEC);
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "unknown");
}

double
collect_quantile7(const double *v, size_t n, double p)
{
	double h, lo;
	size_t i;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * p;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - lo) * (v[i + 1] - v[i]);
}

struct errno_name {
	int		err;
	const char	*name;
};

/* The errors a connect() or socket() can plausibly give. */
static const struct errno_name errno_names[] = {
	{ EACCES, "EACCES" },
	{ EADDRINUSE, "EADDRINUSE" },
	{ EADDRNOTAVAIL, "EADDRNOTAVAIL" },
	{ EAFNOSUPPORT, "EAFNOSUPPORT" },
	{ EAGAIN, "EAGAIN" },
	{ EALREADY, "EALREADY" },
	{ EBADF, "EBADF" },
	{ ECONNABORTED, "ECONNABORTED" },
	{ ECONNREFUSED, "ECONNREFUSED" },
	{ ECONNRESET, "ECONNRESET" },
	{ EHOSTUNREACH, "EHOSTUNREACH" },
	{ EINPROGRESS, "EINPROGRESS" },
	{ EINTR, "EINTR" },
	{ EINVAL, "EINVAL" },
	{ EISCONN, "EISCONN" },
	{ EMFILE, "EMFILE" },
	{ EMSGSIZE, "EMSGSIZE" },
	{ ENETDOWN, "ENETDOWN" },
	{ ENETRESET, "ENETRESET" },
	{ ENETUNREACH, "ENETUNREACH" },
	{ ENFILE, "ENFILE" },
	{ ENOBUFS, "ENOBUFS" },
	{ ENOMEM, "ENOMEM" },
	{ ENOPROTOOPT, "ENOPROTOOPT" },
	{ ENOTCONN, "ENOTCONN" },
	{ ENOTSOCK, "ENOTSOCK" },
	{ EPERM, "EPERM" },
	{ EPIPE, "EPIPE" },
	{ EPROTO, "EPROTO" },
	{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
	{ ETIMEDOUT, "ETIMEDOUT" },
#ifdef EHOSTDOWN
	{ EHOSTDOWN, "EHOSTDOWN" },
#endif
#ifdef ENONET
	{ ENONET, "ENONET" },
#endif
};

const char *
collect_errno_name(int err, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	snprintf(buf, len, "errno%d", err);
	return buf;
}

int
collect_classify(int err)
{
	switch (err) {
	case 0:
		return PROBE_OK;
	case ECONNREFUSED:
		return PROBE_REFUSED;
	case ETIMEDOUT:
		return PROBE_TIMEOUT;
	case ENETUNREACH:
	case EHOSTUNREACH:
#ifdef EHOSTDOWN
	case EHOSTDOWN:
#endif
		return PROBE_UNREACHABLE;
	default:
		return PROBE_ERROR;
	}
}

const char *
collect_result_text(int result, int err, const char *ename, char *buf,
    size_t len)
{
	char nbuf[32];

	switch (result) {
	case PROBE_OK:
		return "ok";
	case PROBE_TIMEOUT:
		return "timeout";
	case PROBE_REFUSED:
		return "refused";
	case PROBE_UNREACHABLE:
		return "unreachable";
	default:
		snprintf(buf, len, "error:%s", ename ? ename :
		    collect_errno_name(err, nbuf, sizeof(nbuf)));
		return buf;
	}
}

int
collect_format_row(const struct probe_row *r, char *buf, size_t len)
{
	char rbuf[48], ms[32], rtt[24];
	const char *res = collect_result_text(r->result, r->err, r->ename,
	    rbuf, sizeof(rbuf));
	int n;

	ms[0] = '\0';
	if (r->result == PROBE_OK) {
		/* Integer arithmetic: µs resolution, rounded half up. */
		long long us = (long long)((r->dur_ns + 500) / 1000);

		snprintf(ms, sizeof(ms), "%lld.%03lld", us / 1000, us % 1000);
	}
	rtt[0] = '\0';
	if (r->result == PROBE_OK && r->rtt_us >= 0)
		snprintf(rtt, sizeof(rtt), "%lld", (long long)r->rtt_us);
	n = snprintf(buf, len, "%llu,%lld,%s,%s,%s\n",
	    (unsigned long long)r->seq, (long long)r->unix_ns, ms, rtt, res);
	if (n < 0 || (size_t)n >= len)
		return -1;
	return n;
}

int64_t
collect_due_ns(int64_t start_ns, int64_t interval_ns, uint64_t seq)
{
	return start_ns + (int64_t)seq * interval_ns;
}
