/*
 * probe_net.c - turning pathprobe's HOST, PORT and -b arguments into
 * socket addresses (IPv4 or IPv6), once, before anything is timed, and
 * reading the kernel's own handshake RTT of a connected socket.
 */
/* musl declares struct tcp_info only under _GNU_SOURCE (glibc under
 * _DEFAULT_SOURCE too): the static pathprobe is built against musl */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "common/compat.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <netdb.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "collect/internal.h"

static void
addr_from_ai(const struct addrinfo *ai, struct probe_addr *a)
{
	memset(a, 0, sizeof(*a));
	memcpy(&a->ss, ai->ai_addr, ai->ai_addrlen);
	a->len = (socklen_t)ai->ai_addrlen;
	a->family = ai->ai_family;
	if (getnameinfo(ai->ai_addr, (socklen_t)ai->ai_addrlen, a->text,
	    sizeof(a->text), NULL, 0, NI_NUMERICHOST))
		snprintf(a->text, sizeof(a->text), "?");
}

static const char *
gai_name(int rc)
{
	switch (rc) {
	case EAI_AGAIN:
		return "EAI_AGAIN";
	case EAI_FAIL:
		return "EAI_FAIL";
	case EAI_FAMILY:
		return "EAI_FAMILY";
	case EAI_MEMORY:
		return "EAI_MEMORY";
	case EAI_NONAME:
		return "EAI_NONAME";
	case EAI_SYSTEM:
		return "EAI_SYSTEM";
	default:
		return "EAI";
	}
}

int
collect_resolve(const char *host, const char *port, int family,
    int socktype, struct probe_addr *a, bool quiet, const char **ename)
{
	struct addrinfo hints, *res = NULL;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc || !res) {
		if (!quiet)
			collect_warnx("cannot resolve '%s': %s", host,
			    rc ? gai_strerror(rc) : "no address");
		if (ename)
			*ename = rc ? gai_name(rc) : "EAI_NONAME";
		if (res)
			freeaddrinfo(res);
		return -1;
	}
	addr_from_ai(res, a);
	freeaddrinfo(res);
	return 0;
}

int
collect_parse_bind(const char *text, int family, struct probe_addr *a)
{
	struct addrinfo hints, *res = NULL;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE | AI_NUMERICSERV;
	rc = getaddrinfo(text, "0", &hints, &res);
	if (rc || !res) {
		collect_warnx("invalid bind address '%s': %s", text,
		    rc ? gai_strerror(rc) : "no address");
		if (res)
			freeaddrinfo(res);
		return -1;
	}
	addr_from_ai(res, a);
	freeaddrinfo(res);
	return 0;
}

void
collect_target_text(const char *host, const char *port, char *buf,
    size_t len)
{
	if (strchr(host, ':'))
		snprintf(buf, len, "[%s]:%s", host, port);
	else
		snprintf(buf, len, "%s:%s", host, port);
}

int
collect_tcp_rtt(int fd, int64_t *rtt_us, bool *retrans)
{
#if defined(__linux__) && defined(TCP_INFO)
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) ||
	    len < offsetof(struct tcp_info, tcpi_total_retrans) +
	    sizeof(ti.tcpi_total_retrans))
		return -1;
	/* Right after the handshake srtt is the one SYN->SYN/ACK sample
	 * (tcp_rtt_estimator: srtt = m), or 0 when there was none. */
	*rtt_us = ti.tcpi_rtt;
	*retrans = ti.tcpi_total_retrans > 0;
	return 0;
#else
	(void)fd;
	(void)rtt_us;
	(void)retrans;
	return -1;
#endif
}
