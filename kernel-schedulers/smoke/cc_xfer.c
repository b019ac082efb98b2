// SPDX-License-Identifier: GPL-2.0
/*
 * cc_xfer: bulk transfers with a chosen TCP congestion control, for the congestion control
 * checks of the smoke test and for the fairness experiment (built static, runs in the busybox
 * guest). The client sends, the server receives.
 *
 *   cc_xfer recv [-m] [-w WARM] [-s MEASURE] [-n COUNT] PORT
 *       accept COUNT (default 1) connections one after the other (MPTCP listener with -m,
 *       which also accepts plain TCP), read each until EOF; print one line per connection:
 *       "recv conn=<i> bytes=<n> seconds=<s> window_bytes=<n> window_mbps=<x>", the window
 *       being [WARM, WARM + MEASURE) s after the accept (default: the whole connection)
 *   cc_xfer send [-m] [-c CC] [-C CC] [-b ADDR] [-S SNDBUF] [-t SECONDS | -B BYTES] [-n COUNT]
 *           ADDR PORT
 *       COUNT times: connect (MPTCP with -m, from ADDR with -b, SO_SNDBUF SNDBUF with -S),
 *       send for SECONDS (default 5) or BYTES, close and wait for the receiver's close. -c sets TCP_CONGESTION before connect and fails if refused; -C tries
 *       it and goes on without. Prints "send bytes=<n> seconds=<s> cc=<getsockopt> subflows=<k>
 *       connections=<c> cc_refused=<r>" (cc and subflows from the last connection, while up).
 *
 * SIGTERM ends a send at once: the connection is reset, not drained (its line is still printed). Exit 0 on success, 1 on a failure,
 * 2 on bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/mptcp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

static int usage(void)
{
	fprintf(stderr, "usage: cc_xfer recv [-m] [-w WARM] [-s MEASURE] [-n COUNT] PORT\n"
		"       cc_xfer send [-m] [-c CC|-C CC] [-b ADDR] [-S SNDBUF] [-t SECONDS|-B BYTES]"
		" [-n COUNT] ADDR PORT\n");
	return 2;
}

static int num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (*s == '\0' || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_port(const char *s, struct sockaddr_in *sa)
{
	double p;

	if (num(s, 1, 65535, &p) < 0 || p != (int)p)
		return -1;
	sa->sin_family = AF_INET;
	sa->sin_port = htons((unsigned short)p);
	return 0;
}

static int subflows(int fd)
{
	struct mptcp_info info;
	socklen_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (getsockopt(fd, SOL_MPTCP, MPTCP_INFO, &info, &len) < 0)
		return 1; /* plain TCP */
	return info.mptcpi_subflows + 1;
}

static int do_recv(int argc, char **argv)
{
	static char buf[256 * 1024];
	double warm = 0, measure = 1e9, n = 1;
	struct sockaddr_in sa = { 0 };
	int mptcp = 0, one = 1, lfd, c, i;

	while ((c = getopt(argc, argv, "mw:s:n:")) != -1) {
		switch (c) {
		case 'm': mptcp = 1; break;
		case 'w': if (num(optarg, 0, 3600, &warm) < 0) return usage(); break;
		case 's': if (num(optarg, 0.1, 3600, &measure) < 0) return usage(); break;
		case 'n': if (num(optarg, 1, 100000, &n) < 0) return usage(); break;
		default: return usage();
		}
	}
	if (optind != argc - 1 || parse_port(argv[optind], &sa) < 0)
		return usage();
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	lfd = socket(AF_INET, SOCK_STREAM, mptcp ? IPPROTO_MPTCP : IPPROTO_TCP);
	if (lfd < 0) {
		perror("cc_xfer: socket");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 16) < 0) {
		perror("cc_xfer: bind/listen");
		return 1;
	}
	for (i = 0; i < (int)n; i++) {
		unsigned long long total = 0, win = 0;
		double t0, t, tend;
		ssize_t r;
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0) {
			perror("cc_xfer: accept");
			return 1;
		}
		t0 = now();
		tend = t0;
		while ((r = recv(fd, buf, sizeof(buf), 0)) != 0) {
			if (r < 0) {
				if (errno == EINTR)
					continue;
				perror("cc_xfer: recv");
				break;
			}
			t = now() - t0;
			total += r;
			if (t >= warm && t < warm + measure) {
				win += r;
				tend = t;
			}
		}
		close(fd);
		if (measure > 1e8) /* no window: the whole connection */
			measure = tend > warm ? tend - warm : 1e-9;
		printf("recv conn=%d bytes=%llu seconds=%.3f window_bytes=%llu window_mbps=%.4f\n",
		       i, total, now() - t0, win, win * 8 / measure / 1e6);
		fflush(stdout);
	}
	close(lfd);
	return 0;
}

static int do_send(int argc, char **argv)
{
	static char buf[64 * 1024];
	double seconds = 5, bytes = 0, n = 1, sndbuf = 0, t0, tstart;
	struct sockaddr_in sa = { 0 }, src = { 0 };
	const char *cc = NULL, *bind_addr = NULL;
	int mptcp = 0, must = 0, c, i, sf = 0, refused = 0;
	unsigned long long sent = 0;
	char got[32] = "none";

	while ((c = getopt(argc, argv, "mc:C:b:S:t:B:n:")) != -1) {
		switch (c) {
		case 'm': mptcp = 1; break;
		case 'c': cc = optarg; must = 1; break;
		case 'C': cc = optarg; must = 0; break;
		case 'b': bind_addr = optarg; break;
		case 'S': if (num(optarg, 4096, 1 << 30, &sndbuf) < 0) return usage(); break;
		case 't': if (num(optarg, 0.1, 3600, &seconds) < 0) return usage(); break;
		case 'B': if (num(optarg, 1, 1e12, &bytes) < 0) return usage(); break;
		case 'n': if (num(optarg, 1, 100000, &n) < 0) return usage(); break;
		default: return usage();
		}
	}
	if (optind != argc - 2 || inet_pton(AF_INET, argv[optind], &sa.sin_addr) != 1 ||
	    parse_port(argv[optind + 1], &sa) < 0)
		return usage();
	if (bind_addr && inet_pton(AF_INET, bind_addr, &src.sin_addr) != 1)
		return usage();
	src.sin_family = AF_INET;
	memset(buf, 'c', sizeof(buf));
	signal(SIGPIPE, SIG_IGN);
	tstart = now();
	for (i = 0; i < (int)n && !stop; i++) {
		unsigned long long done = 0;
		socklen_t len = sizeof(got);
		int fd = socket(AF_INET, SOCK_STREAM, mptcp ? IPPROTO_MPTCP : IPPROTO_TCP);

		if (fd < 0) {
			perror("cc_xfer: socket");
			return 1;
		}
		if (cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc)) < 0) {
			refused++;
			if (must) {
				fprintf(stderr, "cc_xfer: TCP_CONGESTION %s: %s\n", cc, strerror(errno));
				return 1;
			}
		}
		if (sndbuf) {
			int v = (int)sndbuf;

			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
		}
		if (bind_addr && bind(fd, (struct sockaddr *)&src, sizeof(src)) < 0) {
			perror("cc_xfer: bind");
			return 1;
		}
		t0 = now();
		while (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			if (errno != ECONNREFUSED || now() - t0 > 10) {
				perror("cc_xfer: connect");
				return 1;
			}
			usleep(100 * 1000); /* the receiver may still be starting */
		}
		t0 = now();
		while (!stop && (bytes ? done < bytes : now() - t0 < seconds)) {
			size_t want = sizeof(buf);
			ssize_t r;

			if (bytes && bytes - done < want)
				want = bytes - done;
			r = send(fd, buf, want, MSG_NOSIGNAL);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				perror("cc_xfer: send");
				return 1;
			}
			done += r;
			if (sf < 2)
				sf = subflows(fd);
		}
		len = sizeof(got) - 1;
		memset(got, 0, sizeof(got));
		if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, got, &len) < 0)
			strcpy(got, "error");
		sent += done;
		if (stop) { /* no drain: reset */
			struct linger lg = { .l_onoff = 1, .l_linger = 0 };

			setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
			close(fd);
			i++;
			break;
		}
		shutdown(fd, SHUT_WR);
		while (recv(fd, buf, sizeof(buf), 0) > 0)
			;
		close(fd);
	}
	printf("send bytes=%llu seconds=%.3f cc=%s subflows=%d connections=%d cc_refused=%d\n",
	       sent, now() - tstart, got, sf, i, refused);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "recv"))
		return do_recv(argc - 1, argv + 1);
	if (!strcmp(argv[1], "send"))
		return do_send(argc - 1, argv + 1);
	return usage();
}
