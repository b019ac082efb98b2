// SPDX-License-Identifier: GPL-2.0
/*
 * mptcp_xfer: the smallest MPTCP bulk transfer for the smoke test (built static, runs in the
 * busybox guest).
 *
 *   mptcp_xfer server PORT BYTES [COUNT]  accept COUNT (default 1) MPTCP connections one
 *                                         after the other; on each, send BYTES (0 = until
 *                                         the peer goes away), then wait for the peer to close
 *   mptcp_xfer client ADDR PORT [COUNT]   COUNT times: connect, read until EOF (or SIGTERM)
 *
 * Both print one line "<role> bytes=<n> seconds=<s> subflows=<k> connections=<c>" (bytes
 * summed over the connections, k from MPTCP_INFO, taken while a connection is up). Exit 0 on
 * success, 1 on a failure, 2 on bad usage.
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
	fprintf(stderr, "usage: mptcp_xfer server PORT BYTES [COUNT] | "
		"mptcp_xfer client ADDR PORT [COUNT]\n");
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

/* COUNT, the optional last argument: 1 when absent, -1 when not a number from 1 to 100000 */
static long parse_count(int argc, char **argv, int at)
{
	char *end;
	long n;

	if (argc == at)
		return 1;
	n = strtol(argv[at], &end, 10);
	if (argc != at + 1 || *argv[at] == '\0' || *end != '\0' || n < 1 || n > 100000)
		return -1;
	return n;
}

/* One accepted connection: send @want bytes (0 = until the peer goes away), then wait for the
 * peer to close. Adds the bytes sent to *sent; -1 on a failure.
 */
static int serve(int fd, unsigned long long want, unsigned long long *sent, int *sf)
{
	static char buf[64 * 1024];
	unsigned long long done = 0;

	memset(buf, 'm', sizeof(buf));
	while (!stop && (want == 0 || done < want)) {
		size_t n = sizeof(buf);
		ssize_t r;

		if (want && want - done < n)
			n = want - done;
		r = send(fd, buf, n, MSG_NOSIGNAL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (want == 0) /* endless mode: the peer went away */
				break;
			perror("mptcp_xfer: send");
			return -1;
		}
		done += r;
		if (*sf < 2)
			*sf = subflows(fd);
	}
	shutdown(fd, SHUT_WR);
	while (recv(fd, buf, sizeof(buf), 0) > 0)
		;
	*sent += done;
	return 0;
}

static int server(int argc, char **argv)
{
	unsigned long long want, sent = 0;
	struct sockaddr_in sa = { 0 };
	int one = 1, lfd, sf = -1;
	long count, i;
	double t0;
	char *end;

	if (argc < 4 || parse_port(argv[2], &sa) < 0)
		return usage();
	want = strtoull(argv[3], &end, 10);
	count = parse_count(argc, argv, 4);
	if (*argv[3] == '\0' || *end != '\0' || count < 0)
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
	/* MP_JOIN SYNs arrive at the listener: keep it until the last transfer ends */
	t0 = now();
	for (i = 0; i < count && !stop; i++) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0) {
			perror("mptcp_xfer: accept");
			return 1;
		}
		if (serve(fd, want, &sent, &sf) < 0)
			return 1;
		close(fd);
	}
	close(lfd);
	printf("server bytes=%llu seconds=%.2f subflows=%d connections=%ld\n", sent, now() - t0,
	       sf, i);
	return 0;
}

/* Connects, retrying a refused connection for 10 s (the server may still be starting). */
static int connect_retry(const struct sockaddr_in *sa)
{
	double t0 = now();
	int fd;

	for (;;) {
		fd = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
		if (fd < 0) {
			perror("mptcp_xfer: socket(IPPROTO_MPTCP)");
			return -1;
		}
		if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
			return fd;
		if (errno != ECONNREFUSED || now() - t0 > 10) {
			perror("mptcp_xfer: connect");
			return -1;
		}
		close(fd);
		usleep(100 * 1000);
	}
}

/* Reads until EOF (or SIGTERM), adding to *got; -1 on a failure. */
static int drain(int fd, unsigned long long *got, int *sf)
{
	static char buf[64 * 1024];

	while (!stop) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0);

		if (r == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			perror("mptcp_xfer: recv");
			return -1;
		}
		*got += r;
		if (*sf < 3)
			*sf = subflows(fd);
	}
	return 0;
}

static int client(int argc, char **argv)
{
	struct sockaddr_in sa = { 0 };
	unsigned long long got = 0;
	int fd, sf = -1;
	long count, i;
	double t0;

	if (argc < 4 || parse_port(argv[3], &sa) < 0 ||
	    inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
		return usage();
	count = parse_count(argc, argv, 4);
	if (count < 0)
		return usage();
	t0 = now();
	for (i = 0; i < count && !stop; i++) {
		fd = connect_retry(&sa);
		if (fd < 0)
			return 1;
		if (i == 0)
			t0 = now();
		if (drain(fd, &got, &sf) < 0)
			return 1;
		close(fd);
	}
	printf("client bytes=%llu seconds=%.2f subflows=%d connections=%ld\n", got, now() - t0,
	       sf, i);
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
