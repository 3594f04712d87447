/*
 * internal.h - what the parts of pathprobe share: options, the probe
 * result model, the small libc-only helpers (checked number parsing,
 * err(3)-style messages, clocks, quantiles) and the two modes (connect
 * probes, path MTU).  pathprobe links nothing but libc: no common .c file.
 */
#ifndef PATHSTAT_COLLECT_INTERNAL_H
#define PATHSTAT_COLLECT_INTERNAL_H

#include "common/compat.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <signal.h>
#include <stdio.h>

/* Exit codes (common/exit.h has the same numbers for pathstat). */
#define PROBE_EXIT_OK		0	/* every probe ok */
#define PROBE_EXIT_FAIL		1	/* could not run (resolve, bind, I/O) */
#define PROBE_EXIT_USAGE	2	/* bad invocation */
#define PROBE_EXIT_LOSS		3	/* ran, but some probes failed */

#define PROBE_COUNT_DEFAULT	300
#define PROBE_INTERVAL_DEFAULT	0.2	/* seconds between probe starts */
#define PROBE_TIMEOUT_DEFAULT	0.4	/* seconds before a probe is loss */
#define PROBE_COUNT_MAX		100000000L
#define PROBE_SECONDS_MIN	0.0001	/* smallest -i or -t */
#define PROBE_INTERVAL_MAX	86400.0
#define PROBE_TIMEOUT_MAX	3600.0
#define PROBE_INFLIGHT_MAX	1024	/* probes in flight at once */
#define PROBE_FORMAT_VERSION	2	/* the "2" in "# pathprobe 2" */
/* Spin (poll without sleeping) for an answer expected within this, for
 * up to twice the expected time plus the slack; see wait_events(). */
#define PROBE_SPIN_RTT_MAX_NS	1000000LL
#define PROBE_SPIN_SLACK_NS	50000LL

#define NS_PER_SEC	1000000000LL

/* What one probe ended with; the text form is the CSV "result" column. */
enum probe_result {
	PROBE_OK = 0,
	PROBE_TIMEOUT,
	PROBE_REFUSED,
	PROBE_UNREACHABLE,
	PROBE_ERROR,		/* error:<errno name> */
};

struct probe_opts {
	const char	*host;		/* HOST as given (brackets removed) */
	const char	*port;		/* PORT as given, checked numeric */
	const char	*bind;		/* -b source address, or NULL */
	const char	*outfile;	/* -o FILE, or NULL for stdout */
	long		count;		/* -n probes */
	double		interval_s;	/* -i seconds between probe starts */
	double		timeout_s;	/* -t seconds before loss */
	int		family;		/* AF_UNSPEC, AF_INET (-4), AF_INET6 */
	bool		rst;		/* --rst: close with SO_LINGER {1,0} */
	bool		resolve_each;	/* DNS inside the timing */
	bool		quiet;		/* -q: no summary line */
	bool		mtu;		/* --mtu: path MTU mode */
	bool		no_spin;	/* --no-spin: always sleep in poll */
};

/* One finished probe, as printed in a CSV row. */
struct probe_row {
	uint64_t	seq;		/* 0-based probe number */
	int64_t		unix_ns;	/* probe start: monotonic + offset */
	int64_t		dur_ns;		/* connect time, valid when PROBE_OK */
	int64_t		rtt_us;		/* kernel's SYN->SYN/ACK RTT, or -1 */
	int		result;		/* enum probe_result */
	int		err;		/* errno for PROBE_ERROR, else 0 */
	const char	*ename;		/* static name for err, or NULL */
};

/* A resolved target or source address. */
struct probe_addr {
	struct sockaddr_storage	ss;	/* the address */
	socklen_t		len;	/* its length */
	int			family;	/* AF_INET or AF_INET6 */
	char			text[64];	/* numeric form, no brackets */
};

/* Set by the SIGINT/SIGTERM/SIGHUP handler; the loops stop when set. */
extern volatile sig_atomic_t collect_interrupted;

/* probe_util.c: messages ("pathprobe: ..."), parsing, time, stats. */
void collect_warnx(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);
void collect_warn(const char *fmt, ...) PATHSTAT_PRINTF(1, 2);
int64_t collect_mono_ns(void);
int64_t collect_real_ns(void);
/* CLOCK_REALTIME minus CLOCK_MONOTONIC now, in ns: a monotonic time plus
 * this is a Unix time.  Both clocks run at the same (NTP-slewed) rate,
 * so the offset changes only when the wall clock is stepped. */
int64_t collect_real_offset_ns(void);
/* Format a Unix time as YYYY-MM-DDTHH:MM:SSZ into buf (>= 21 bytes). */
void collect_utc_iso(int64_t unix_ns, char *buf, size_t len);
/* Type 7 quantile (linear interpolation) of sorted v[0..n-1], n >= 1. */
double collect_quantile7(const double *v, size_t n, double p);
/* "EACCES" and so on; "errno<N>" for names the table lacks.  The
 * returned string is static or written into buf. */
const char *collect_errno_name(int err, char *buf, size_t len);
/* Map a connect() errno to a result (ok for 0). */
int collect_classify(int err);
/* "ok", "timeout", "refused", "unreachable", "error:EACCES"; ename,
 * when not NULL, names the error instead of err. */
const char *collect_result_text(int result, int err, const char *ename,
    char *buf, size_t len);
/* Append one CSV row (with newline) for r to buf; returns its length
 * or -1 if it does not fit. */
int collect_format_row(const struct probe_row *r, char *buf, size_t len);
/* The monotonic time at which probe seq is due. */
int64_t collect_due_ns(int64_t start_ns, int64_t interval_ns, uint64_t seq);

/* probe_net.c: addresses and sockets. */
/* Resolve host/port (numeric port) into a; 0, or -1 after a message
 * (none when quiet).  On failure *ename (if not NULL) gets a static
 * name for the getaddrinfo error, e.g. "EAI_NONAME". */
int collect_resolve(const char *host, const char *port, int family,
    int socktype, struct probe_addr *a, bool quiet, const char **ename);
/* Parse a numeric source address for -b; 0, or -1 after a message. */
int collect_parse_bind(const char *text, int family, struct probe_addr *a);
/* Print "[v6]:port" or "v4:port" style target text into buf. */
void collect_target_text(const char *host, const char *port, char *buf,
    size_t len);
/* The kernel's RTT estimate of connected TCP socket fd, in µs (0 when it
 * has no sample), and whether a segment (the SYN) was retransmitted.
 * Returns 0, or -1 where the platform has no such figure (Linux
 * TCP_INFO only) or getsockopt fails. */
int collect_tcp_rtt(int fd, int64_t *rtt_us, bool *retrans);

/* probe_connect.c: the connect-time mode; returns a PROBE_EXIT_* code. */
int collect_run_connect(const struct probe_opts *o);

/* probe_mtu.c: the --mtu mode; returns a PROBE_EXIT_* code. */
int collect_run_mtu(const struct probe_opts *o);

#endif
