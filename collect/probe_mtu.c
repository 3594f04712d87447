/*
 * probe_mtu.c - the --mtu mode: find the largest packet that reaches
 * HOST with the DF bit set, like "ping -M do -s SIZE", using UDP
 * datagrams to a closed port (IP_PMTUDISC_PROBE) and the ICMP port
 * unreachable or fragmentation-needed answers read from the socket's
 * error queue (IP_RECVERR).  Best effort: where ICMP is filtered (an NLB
 * behind PrivateLink forwards none) there are no answers to go by.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1	/* IP_MTU_DISCOVER, IP_RECVERR, MSG_ERRQUEUE */
#endif
#include "common/compat.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect/internal.h"

#define MTU_PORT_DEFAULT	"33434"	/* traceroute's: usually closed */
#define MTU_TRIES		3	/* sends per size before "no answer" */
#define MTU_MAX			65535	/* largest IP packet we try */
#define MTU_MAGIC		0x70707262u	/* "pprb" at payload start */

#if defined(__linux__) && defined(IP_MTU_DISCOVER) && \
    defined(IP_PMTUDISC_PROBE) && defined(IP_RECVERR) && \
    defined(MSG_ERRQUEUE)

/* Linux's struct sock_extended_err (linux/errqueue.h), declared here so
 * that the build needs no kernel headers (musl toolchains lack them). */
struct mtu_ee {
	uint32_t	ee_errno;	/* ECONNREFUSED, EMSGSIZE, ... */
	uint8_t		ee_origin;	/* local, ICMP, ICMP6 */
	uint8_t		ee_type;	/* ICMP type */
	uint8_t		ee_code;	/* ICMP code */
	uint8_t		ee_pad;
	uint32_t	ee_info;	/* the MTU for EMSGSIZE */
	uint32_t	ee_data;
};

enum mtu_answer {
	MTU_PASS,	/* the host answered: this size got through */
	MTU_TOOBIG,	/* a router or the local stack said too big */
	MTU_NOANSWER,	/* nothing within the timeout, MTU_TRIES times */
	MTU_OTHER,	/* another error (host unreachable, ...) */
};

struct mtu_probe {
	int		fd;		/* connected UDP socket */
	int		family;		/* AF_INET or AF_INET6 */
	int		hdr;		/* IP + UDP header bytes */
	int64_t		timeout_ns;	/* per send */
	uint32_t	seq;		/* id written into each datagram */
	unsigned	sent;		/* datagrams sent */
	int		hint;		/* MTU reported with the last TOOBIG */
	int		other_err;	/* errno of the last MTU_OTHER */
};

static unsigned char buf[MTU_MAX];

/*
 * Read one queued error.  Returns 1 and fills ee and *id (UINT32_MAX
 * when the quoted datagram is too short to carry one), 0 when the
 * queue is empty, -1 on a read error.
 */
static int
read_errqueue(int fd, struct mtu_ee *ee, uint32_t *id)
{
	unsigned char data[64];
	union {
		char		buf[512];
		struct cmsghdr	align;
	} ctl;
	struct iovec iov;
	struct msghdr msg;
	struct cmsghdr *c;
	ssize_t n;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = data;
	iov.iov_len = sizeof(data);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	n = recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	*id = UINT32_MAX;
	if (n >= 8) {
		uint32_t magic, v;

		memcpy(&magic, data, 4);
		memcpy(&v, data + 4, 4);
		if (magic == MTU_MAGIC)
			*id = v;
	}
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if ((c->cmsg_level == IPPROTO_IP &&
		    c->cmsg_type == IP_RECVERR) ||
		    (c->cmsg_level == IPPROTO_IPV6 &&
		    c->cmsg_type == IPV6_RECVERR)) {
			memcpy(ee, CMSG_DATA(c), sizeof(*ee));
			return 1;
		}
	}
	return 0;
}

/* Drop stale answers to earlier datagrams and any pending socket error. */
static void
drain(struct mtu_probe *p)
{
	struct mtu_ee ee;
	uint32_t id;
	int err;
	socklen_t len = sizeof(err);

	while (read_errqueue(p->fd, &ee, &id) == 1)
		;
	while (recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	(void)getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &len);
}

/* Send one datagram of total packet size `size` and wait for its fate. */
static enum mtu_answer
probe_once(struct mtu_probe *p, int size)
{
	size_t payload = (size_t)(size - p->hdr);
	uint32_t magic = MTU_MAGIC, id = ++p->seq;
	int64_t deadline;

	drain(p);
	memset(buf, 0, payload);
	if (payload >= 8) {
		memcpy(buf, &magic, 4);
		memcpy(buf + 4, &id, 4);
	}
	p->sent++;
	if (send(p->fd, buf, payload, 0) < 0) {
		if (errno == EMSGSIZE) {
			int mtu = 0;
			socklen_t len = sizeof(mtu);

			(void)getsockopt(p->fd, p->family == AF_INET ?
			    IPPROTO_IP : IPPROTO_IPV6, p->family == AF_INET ?
			    IP_MTU : IPV6_MTU, &mtu, &len);
			p->hint = mtu;
			return MTU_TOOBIG;
		}
		if (errno == ECONNREFUSED)	/* an old answer: try again */
			return MTU_NOANSWER;
		p->other_err = errno;
		return MTU_OTHER;
	}
	deadline = collect_mono_ns() + p->timeout_ns;
	for (;;) {
		struct pollfd pfd;
		struct mtu_ee ee;
		uint32_t got;
		int64_t now = collect_mono_ns();
		int rc;

		if (now >= deadline || collect_interrupted)
			return MTU_NOANSWER;
		pfd.fd = p->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		rc = poll(&pfd, 1, (int)((deadline - now + 999999) / 1000000));
		if (rc <= 0)
			continue;
		if (pfd.revents & POLLERR) {
			rc = read_errqueue(p->fd, &ee, &got);
			if (rc <= 0) {
				drain(p);
				continue;
			}
			if (got != UINT32_MAX && got != id)
				continue;	/* answers an older one */
			if (ee.ee_errno == ECONNREFUSED)
				return MTU_PASS;
			if (ee.ee_errno == EMSGSIZE) {
				p->hint = (int)ee.ee_info;
				return MTU_TOOBIG;
			}
			p->other_err = (int)ee.ee_errno;
			return MTU_OTHER;
		}
		if (pfd.revents & POLLIN) {
			/* Something listens there and replied (an echo). */
			if (recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
				return MTU_PASS;
		}
	}
}

static enum mtu_answer
probe_size(struct mtu_probe *p, int size)
{
	enum mtu_answer a = MTU_NOANSWER;
	int i;

	for (i = 0; i < MTU_TRIES && !collect_interrupted; i++) {
		a = probe_once(p, size);
		if (a != MTU_NOANSWER)
			break;
	}
	return a;
}

static int
setup_socket(const struct probe_opts *o, const struct probe_addr *target,
    struct mtu_probe *p, int *route_mtu)
{
	int v4 = target->family == AF_INET;
	int lvl = v4 ? IPPROTO_IP : IPPROTO_IPV6;
	int pmtu = v4 ? IP_PMTUDISC_PROBE : IPV6_PMTUDISC_PROBE;
	int on = 1, mtu = 0;
	socklen_t len = sizeof(mtu);
	struct probe_addr src;

	p->family = target->family;
	p->hdr = v4 ? 20 + 8 : 40 + 8;
	p->fd = socket(target->family, SOCK_DGRAM, 0);
	if (p->fd < 0) {
		collect_warn("cannot create a UDP socket");
		return -1;
	}
	if (o->bind) {
		if (collect_parse_bind(o->bind, target->family, &src))
			return -1;
		if (bind(p->fd, (const struct sockaddr *)&src.ss, src.len)) {
			collect_warn("cannot bind to '%s'", o->bind);
			return -1;
		}
	}
	if (setsockopt(p->fd, lvl, v4 ? IP_MTU_DISCOVER : IPV6_MTU_DISCOVER,
	    &pmtu, sizeof(pmtu)) ||
	    setsockopt(p->fd, lvl, v4 ? IP_RECVERR : IPV6_RECVERR, &on,
	    sizeof(on))) {
		collect_warn("cannot set the DF bit on a UDP socket");
		return -1;
	}
	if (connect(p->fd, (const struct sockaddr *)&target->ss,
	    target->len)) {
		collect_warn("cannot reach '%s'", o->host);
		return -1;
	}
	if (getsockopt(p->fd, lvl, v4 ? IP_MTU : IPV6_MTU, &mtu, &len) ||
	    mtu <= p->hdr) {
		collect_warn("cannot read the route MTU toward '%s'", o->host);
		return -1;
	}
	*route_mtu = mtu > MTU_MAX ? MTU_MAX : mtu;
	return 0;
}

int
collect_run_mtu(const struct probe_opts *o)
{
	struct probe_addr target;
	struct mtu_probe p;
	const char *port = o->port ? o->port : MTU_PORT_DEFAULT;
	char tt[320], when[32], nb[32];
	int route_mtu = 0, floor_size, pass = 0, fail, ret = PROBE_EXIT_FAIL;
	enum mtu_answer a;

	memset(&p, 0, sizeof(p));
	p.fd = -1;
	p.timeout_ns = llround(o->timeout_s * 1e9);
	signal(SIGPIPE, SIG_IGN);
	if (collect_resolve(o->host, port, o->family, SOCK_DGRAM, &target,
	    false, NULL))
		return PROBE_EXIT_FAIL;
	if (setup_socket(o, &target, &p, &route_mtu))
		goto cleanup;
	collect_target_text(o->host, port, tt, sizeof(tt));
	collect_utc_iso(collect_real_ns(), when, sizeof(when));
	floor_size = target.family == AF_INET ? 576 : 1280;
	if (floor_size > route_mtu)
		floor_size = route_mtu;

	/* Largest first: on most paths it passes and we are done. */
	fail = route_mtu + 1;
	a = probe_size(&p, route_mtu);
	if (a == MTU_PASS) {
		pass = route_mtu;
	} else {
		fail = route_mtu;
		a = probe_size(&p, floor_size);
		if (a == MTU_PASS)
			pass = floor_size;
		else
			fail = floor_size;
	}
	while (pass && fail - pass > 1 && !collect_interrupted) {
		int size = pass + (fail - pass) / 2;
		bool told = false;

		/* A router's "fragmentation needed" names the next hop MTU:
		 * when that size passes, nothing larger can (tracepath). */
		if (p.hint > pass && p.hint < fail) {
			size = p.hint;
			told = true;
		}
		p.hint = 0;
		a = probe_size(&p, size);
		if (a == MTU_PASS) {
			pass = size;
			if (told)
				fail = size + 1;
		} else {
			fail = size;	/* too big, or silently dropped */
		}
	}
	if (collect_interrupted) {
		collect_warnx("interrupted");
		ret = PROBE_EXIT_LOSS;
	} else if (!pass) {
		/* reason: one token, so the line stays key=value pairs */
		printf("mtu=unknown target=%s addr=%s route_mtu=%d probes=%u "
		    "method=udp-df start=%s reason=%s%s\n", tt, target.text,
		    route_mtu, p.sent, when, a == MTU_OTHER ? "error:" :
		    "no-answer", a == MTU_OTHER ? collect_errno_name(p.other_err,
		    nb, sizeof(nb)) : "");
		if (a == MTU_OTHER) {
			collect_warnx("path MTU to '%s' unknown: %s answered "
			    "%s", o->host, target.text,
			    collect_errno_name(p.other_err, nb, sizeof(nb)));
		} else {
			collect_warnx("path MTU to '%s' unknown: no answer to "
			    "UDP probes with DF set (ICMP or UDP filtered? an "
			    "NLB behind PrivateLink forwards no ICMP); this "
			    "mode is best effort", o->host);
		}
		ret = PROBE_EXIT_LOSS;
	} else {
		printf("mtu=%d target=%s addr=%s route_mtu=%d probes=%u "
		    "method=udp-df start=%s\n", pass, tt, target.text,
		    route_mtu, p.sent, when);
		if (!o->quiet)
			collect_warnx("path MTU to %s (%s): %d bytes (like "
			    "ping -M do -s %d; best effort)", o->host,
			    target.text, pass, pass - (target.family ==
			    AF_INET ? 28 : 48));
		ret = PROBE_EXIT_OK;
	}
	if (fflush(stdout) || ferror(stdout)) {
		collect_warn("cannot write to standard output");
		ret = PROBE_EXIT_FAIL;
	}
cleanup:
	if (p.fd >= 0)
		close(p.fd);
	return ret;
}

#else	/* not Linux */

int
collect_run_mtu(const struct probe_opts *o)
{
	(void)o;
	collect_warnx("--mtu needs Linux (IP_PMTUDISC_PROBE, IP_RECVERR)");
	return PROBE_EXIT_FAIL;
}

#endif
