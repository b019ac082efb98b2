/* SPDX-License-Identifier: GPL-2.0 */
/* Synthetic subflow views for the tests of the coupled congestion control cores. */
#ifndef MPQOE_TEST_CC_UTIL_H
#define MPQOE_TEST_CC_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mpqoe_cc.h"

#define ONE_W	(1ULL << MPQOE_CC_W_SHIFT)
#define ONE_INC	(1LL << MPQOE_CC_INC_SHIFT)

/* A usable subflow in congestion avoidance: ssthresh 2, mss 1000, no clamp. */
static inline struct mpqoe_cc_path cc_path(uint32_t cwnd, uint32_t rtt_us)
{
	struct mpqoe_cc_path p;

	memset(&p, 0, sizeof(p));
	p.cwnd = cwnd;
	p.ssthresh = 2;
	p.rtt_us = rtt_us;
	p.mss = 1000;
	p.usable = 1;
	return p;
}

/* A view of @n paths with windows @cwnd[] and RTTs @rtt[] (us). */
static inline void cc_view(struct mpqoe_cc_view *v, unsigned int n,
			   const uint32_t *cwnd, const uint32_t *rtt)
{
	unsigned int i;

	memset(v, 0, sizeof(*v));
	v->n = (uint8_t)n;
	for (i = 0; i < n; i++)
		v->p[i] = cc_path(cwnd[i], rtt[i]);
}

/*
 * Linux 6.12's tcp_reno_cong_avoid() after its cwnd-limited test, with
 * tcp_slow_start() and tcp_cong_avoid_ai() inlined, transcribed from
 * net/ipv4/tcp_cong.c: the reference the cores' Reno must equal.
 */
struct linux_tp {
	uint32_t snd_cwnd, snd_ssthresh, snd_cwnd_cnt, snd_cwnd_clamp;
};

static inline uint32_t lx_min(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline void linux_reno_cong_avoid(struct linux_tp *tp, uint32_t acked)
{
	uint32_t w;

	if (tp->snd_cwnd < tp->snd_ssthresh) {		/* tcp_in_slow_start() */
		uint32_t cwnd = lx_min(tp->snd_cwnd + acked, tp->snd_ssthresh);

		acked -= cwnd - tp->snd_cwnd;
		tp->snd_cwnd = lx_min(cwnd, tp->snd_cwnd_clamp);
		if (!acked)
			return;
	}
	w = tp->snd_cwnd;				/* tcp_cong_avoid_ai() */
	if (tp->snd_cwnd_cnt >= w) {
		tp->snd_cwnd_cnt = 0;
		tp->snd_cwnd++;
	}
	tp->snd_cwnd_cnt += acked;
	if (tp->snd_cwnd_cnt >= w) {
		uint32_t delta = tp->snd_cwnd_cnt / w;

		tp->snd_cwnd_cnt -= delta * w;
		tp->snd_cwnd += delta;
	}
	tp->snd_cwnd = lx_min(tp->snd_cwnd, tp->snd_cwnd_clamp);
}

static inline uint32_t linux_reno_ssthresh(uint32_t cwnd)
{
	return cwnd >> 1U > 2U ? cwnd >> 1U : 2U;
}

/* A core's two hooks, through a test's adapter (the info argument left out). */
struct cc_hooks {
	uint32_t (*cong_avoid)(const struct mpqoe_cc_view *v, unsigned int self,
			       uint32_t acked, struct mpqoe_cc_carry *c);
	uint32_t (*ssthresh)(const struct mpqoe_cc_view *v, unsigned int self);
};

/*
 * Path 0 of @v, coupled to no other usable path, against Linux's Reno
 * ACK by ACK: 100000 ACKs of 1 to @max_acked packets (rand() after
 * srand(@seed)), a loss every @period ACKs (both halve, the core through
 * its ssthresh hook), the windows equal after every ACK. Both start
 * from path 0's cwnd and ssthresh.
 */
static inline void assert_reno_trace(struct mpqoe_cc_view *v,
				     const struct cc_hooks *h, unsigned int seed,
				     unsigned int period, unsigned int max_acked)
{
	struct linux_tp tp = { .snd_cwnd = v->p[0].cwnd,
			       .snd_ssthresh = v->p[0].ssthresh,
			       .snd_cwnd_clamp = ~0U };
	struct mpqoe_cc_carry c = { 0 };
	unsigned int k;

	srand(seed);
	for (k = 0; k < 100000; k++) {
		uint32_t acked = 1 + (uint32_t)(rand() % max_acked);

		if (k % period == 0) {
			tp.snd_ssthresh = linux_reno_ssthresh(tp.snd_cwnd);
			tp.snd_cwnd = tp.snd_ssthresh;
			tp.snd_cwnd_cnt = 0;
			v->p[0].ssthresh = h->ssthresh(v, 0);
			v->p[0].cwnd = tp.snd_cwnd;
			mpqoe_cc_carry_reset(&c);
		}
		linux_reno_cong_avoid(&tp, acked);
		v->p[0].cwnd = h->cong_avoid(v, 0, acked, &c);
		assert_int_equal(v->p[0].cwnd, tp.snd_cwnd);
	}
}

#endif
