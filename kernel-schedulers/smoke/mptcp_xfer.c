// SPDX-License-Identifier: GPL-2.0
/*
 * mptcp_xfer: the smallest MPTCP bulk transfer for the smoke test (built static, runs in the
 * busybox guest).
 *
 *   mptcp_xfer server PORT BYTES   accept one MPTCP connection, send BYTES (0 = until the peer
 *                                  goes away), then wait for the peer to close
 *   mptcp_xfer client ADDR PORT    connect, read until EOF (or SIGTERM), print what arrived
 *
 * Both print one line "<role> bytes=<n> seconds=<s> subflows=<k>" (k from MPTCP_INFO, taken
 * while the connection is up). Exit 0 on success, 1 on a failure, 2 on bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/mptcp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef SOL_MPTCP
#define SOL_MPTCP 284
#endif

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int subflows(int fd)
{
	struct mptcp_info info;
	socklen_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (getsockopt(fd, SOL_MPTCP, MPTCP_INFO, &info, &len) < 0)
		return -1;
	return info.mptcpi_subflows + 1; /* mptcpi_subflows counts the joined ones */
}

static int usage(void)
{
	fprintf(stderr, "usage: mptcp_xfer server PORT BYTES | mptcp_xfer client ADDR PORT\n");
	return 2;
}

static int parse_port(const char *s, struct sockaddr_in *sa)
{
	char *end;
	long p = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || p <= 0 || p > 65535)
		return -1;
	sa->sin_family = AF_INET;
	sa->sin_port = htons((unsigned short)p);
	return 0;
}

static int server(int argc, char **argv)
{
	static char buf[64 * 1024];
	unsigned long long want, sent = 0;
	struct sockaddr_in sa = { 0 };
	int one = 1, lfd, fd, sf = -1;
	double t0;
	char *end;

	if (argc != 4 || parse_port(argv[2], &sa) < 0)
		return usage();
	want = strtoull(argv[3], &end, 10);
	if (*argv[3] == '\0' || *end != '\0')
		return usage();
	sa.sin_addr.s_addr = htonl(INADDR_ANY);

	lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
	if (lfd < 0) {
		perror("mptcp_xfer: socket(IPPROTO_MPTCP)");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0) {
		perror("mptcp_xfer: bind/listen");
		return 1;
	}
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		perror("mptcp_xfer: accept");
		return 1;
	}
	/* MP_JOIN SYNs arrive at the listener: keep it until the transfer ends */
	memset(buf, 'm', sizeof(buf));
	t0 = now();
	while (!stop && (want == 0 || sent < want)) {
		size_t n = sizeof(buf);
		ssize_t r;

		if (want && want - sent < n)
			n = want - sent;
		r = send(fd, buf, n, MSG_NOSIGNAL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (want == 0) /* endless mode: the peer went away */
				break;
			perror("mptcp_xfer: send");
			return 1;
		}
		sent += r;
		if (sf < 2)
			sf = subflows(fd);
	}
	shutdown(fd, SHUT_WR);
	while (recv(fd, buf, sizeof(buf), 0) > 0)
		;
	close(fd);
	close(lfd);
	printf("server bytes=%llu seconds=%.2f subflows=%d\n", sent, now() - t0, sf);
	return 0;
}

static int client(int argc, char **argv)
{
	static char buf[64 * 1024];
	struct sockaddr_in sa = { 0 };
	unsigned long long got = 0;
	int fd, sf = -1;
	double t0;

	if (argc != 4 || parse_port(argv[3], &sa) < 0 ||
	    inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
		return usage();
	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
	if (fd < 0) {
		perror("mptcp_xfer: socket(IPPROTO_MPTCP)");
		return 1;
	}
	t0 = now();
	/* the server may still be starting: retry a refused connection for 10 s */
	while (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (errno != ECONNREFUSED || now() - t0 > 10) {
			perror("mptcp_xfer: connect");
			return 1;
		}
		close(fd);
		usleep(100 * 1000);
		fd = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
		if (fd < 0) {
			perror("mptcp_xfer: socket(IPPROTO_MPTCP)");
			return 1;
		}
	}
	t0 = now();
	while (!stop) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0);

		if (r == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			perror("mptcp_xfer: recv");
			return 1;
		}
		got += r;
		if (sf < 3)
			sf = subflows(fd);
	}
	close(fd);
	printf("client bytes=%llu seconds=%.2f subflows=%d\n", got, now() - t0, sf);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction act;

	memset(&act, 0, sizeof(act));
	act.sa_handler = on_term;
	sigaction(SIGTERM, &act, NULL);
	sigaction(SIGINT, &act, NULL);
	if (argc >= 2 && !strcmp(argv[1], "server"))
		return server(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "client"))
		return client(argc, argv);
	return usage();
}
