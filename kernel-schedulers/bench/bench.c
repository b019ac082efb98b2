// SPDX-License-Identifier: GPL-2.0
/*
 * Decision cost of each scheduler core with 8 subflows. Every decision
 * sees a slightly different snapshot (time advances, the chosen subflow's
 * queue and counters grow, windows open and close), as in a connection
 * that keeps sending. Prints nanoseconds per decision: the best of
 * several runs, and the same loop around a selector that does nothing
 * (the harness), which the net figure subtracts. Then the same for the
 * coupled congestion control cores: one call per ACK (or loss) on one of
 * 8 subflows in turn, whose windows move with the results.
 *
 *   bench [decisions per run]      default 1000000
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpqoe_cc.h"
#include "mpqoe_sched.h"

#define RUNS 9

static union {
	struct mpqoe_dft_state dft;
	struct mpqoe_minrtt_state minrtt;
	struct mpqoe_gr_sty_state gr;
	struct mpqoe_tp_sty_state tp;
	struct mpqoe_tr_sty_state tr;
	struct mpqoe_bnaware_state bn;
	struct mpqoe_daps_state daps;
} st;

static int sel_none(const struct mpqoe_sched_input *in)
{
	return (int)(in->now_us & 7);
}

static int sel_dft(const struct mpqoe_sched_input *in)
{
	return mpqoe_dft_select(&st.dft, in);
}

static int sel_minrtt(const struct mpqoe_sched_input *in)
{
	return mpqoe_minrtt_select(&st.minrtt, in);
}

static int sel_gr(const struct mpqoe_sched_input *in)
{
	return mpqoe_gr_sty_select(&st.gr, in);
}

static int sel_tp(const struct mpqoe_sched_input *in)
{
	return mpqoe_tp_sty_select(&st.tp, in);
}

static int sel_tr(const struct mpqoe_sched_input *in)
{
	return mpqoe_tr_sty_select(&st.tr, in);
}

static int sel_bn(const struct mpqoe_sched_input *in)
{
	return mpqoe_bnaware_select(&st.bn, in);
}

static int sel_daps(const struct mpqoe_sched_input *in)
{
	return mpqoe_daps_select(&st.daps, in);
}

static const struct {
	const char *name;
	int (*select)(const struct mpqoe_sched_input *in);
} scheds[] = {
	{ "harness", sel_none },
	{ "dft", sel_dft },
	{ "minrtt", sel_minrtt },
	{ "gr_sty", sel_gr },
	{ "tp_sty", sel_tp },
	{ "tr_sty", sel_tr },
	{ "bnaware", sel_bn },
	{ "daps", sel_daps },
};

static void setup(struct mpqoe_sched_input *in)
{
	unsigned int i;

	memset(in, 0, sizeof(*in));
	memset(&st, 0, sizeof(st));
	in->n = MPQOE_MAX_SUBFLOWS;
	in->now_us = 1000000;
	in->burst = 65428;
	for (i = 0; i < MPQOE_MAX_SUBFLOWS; i++) {
		struct mpqoe_subflow_view *sf = &in->sf[i];

		sf->id = i + 1;
		sf->active = 1;
		sf->cwnd_space = 1;
		sf->srtt_us = 20000 + 7000 * i;
		sf->min_rtt_us = 18000 + 7000 * i;
		sf->snd_cwnd = 10 + i;
		sf->mss = 1448;
		sf->pacing_rate = 2000000 + 100000 * i;
		sf->wmem_queued = 4096 * (i + 1);
		sf->queued = 1448 * (i + 1);
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile int sink;

static double run(int (*select)(const struct mpqoe_sched_input *in),
		  unsigned long n)
{
	struct mpqoe_sched_input in;
	unsigned long k;
	double t0;
	int sum = 0;

	setup(&in);
	t0 = now_ns();
	for (k = 0; k < n; k++) {
		unsigned int j = k & 7;
		int idx;

		in.now_us += 50;
		/* one window opens or closes per decision */
		in.sf[j].cwnd_space = !((k >> 3) & 1) || j == 0;
		idx = select(&in);
		sum += idx;
		if (idx >= 0 && idx < MPQOE_MAX_SUBFLOWS) {
			struct mpqoe_subflow_view *sf = &in.sf[idx];

			sf->queued += 1448;
			sf->bytes_sent += 1448;
			sf->wmem_queued += 2048;
		}
		/* acks drain a queue */
		if (in.sf[j].queued >= 2896) {
			in.sf[j].queued -= 2896;
			in.sf[j].bytes_acked += 2896;
			in.sf[j].wmem_queued -= in.sf[j].wmem_queued / 4;
		}
	}
	sink = sum;
	return (now_ns() - t0) / (double)n;
}

static struct mpqoe_cc_view ccv;
static struct mpqoe_cc_carry carry[MPQOE_CC_MAX_PATHS];

static u32 cc_none(unsigned int i, u32 acked)
{
	return ccv.p[i].cwnd + (acked & 1);
}

static u32 cc_lia(unsigned int i, u32 acked)
{
	return mpqoe_lia_cong_avoid(&ccv, i, acked, &carry[i], NULL);
}

static u32 cc_olia(unsigned int i, u32 acked)
{
	return mpqoe_olia_cong_avoid(&ccv, i, acked, &carry[i], NULL);
}

static u32 cc_balia(unsigned int i, u32 acked)
{
	return mpqoe_balia_cong_avoid(&ccv, i, acked, &carry[i], NULL);
}

/* a loss: BALIA's ssthresh (the window itself only drifts, by acked) */
static u32 cc_balia_loss(unsigned int i, u32 acked)
{
	return ccv.p[i].cwnd + (mpqoe_balia_ssthresh(&ccv, i, NULL) & acked);
}

static const struct {
	const char *name;
	u32 (*call)(unsigned int i, u32 acked);
} ccs[] = {
	{ "harness", cc_none },
	{ "lia ack", cc_lia },
	{ "olia ack", cc_olia },
	{ "balia ack", cc_balia },
	{ "balia loss", cc_balia_loss },
};

static double run_cc(u32 (*call)(unsigned int i, u32 acked), unsigned long n)
{
	unsigned long k;
	unsigned int i;
	double t0;
	u32 sum = 0;

	memset(&ccv, 0, sizeof(ccv));
	memset(carry, 0, sizeof(carry));
	ccv.n = MPQOE_CC_MAX_PATHS;
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		struct mpqoe_cc_path *p = &ccv.p[i];

		p->cwnd = 10 + 7 * i;
		p->ssthresh = 2;
		p->rtt_us = 20000 + 7000 * i;
		p->mss = 1448;
		p->inter_loss = 100000 * (i + 1);
		p->usable = 1;
	}
	t0 = now_ns();
	for (k = 0; k < n; k++) {
		u32 cwnd;

		i = k & 7;
		cwnd = call(i, 1 + ((k >> 3) & 1));
		sum += cwnd;
		/* a loss now and then keeps the windows in a steady range */
		if (cwnd > 400 + 50 * i) {
			cwnd /= 2;
			carry[i] = (struct mpqoe_cc_carry){ 0 };
		}
		ccv.p[i].cwnd = cwnd ? cwnd : 1;
	}
	sink = (int)sum;
	return (now_ns() - t0) / (double)n;
}

int main(int argc, char **argv)
{
	unsigned long n = 1000000;
	double harness = 0;
	unsigned int s, r;

	if (argc > 2 || (argc == 2 && (n = strtoul(argv[1], NULL, 10)) == 0)) {
		fprintf(stderr, "usage: %s [decisions per run, > 0]\n", argv[0]);
		return 2;
	}
	printf("# decision cost, %d subflows, %lu decisions per run, best of %d runs\n",
	       MPQOE_MAX_SUBFLOWS, n, RUNS);
	printf("%-10s %12s %12s\n", "scheduler", "ns/decision", "net ns");
	for (s = 0; s < sizeof(scheds) / sizeof(scheds[0]); s++) {
		double best = 1e30;

		for (r = 0; r < RUNS; r++) {
			double t = run(scheds[s].select, n);

			if (t < best)
				best = t;
		}
		if (s == 0)
			harness = best;
		printf("%-10s %12.1f %12.1f\n", scheds[s].name, best,
		       s ? best - harness : 0.0);
	}
	printf("# congestion control, %d subflows, %lu calls per run, best of %d runs\n",
	       MPQOE_CC_MAX_PATHS, n, RUNS);
	printf("%-10s %12s %12s\n", "core", "ns/call", "net ns");
	for (s = 0; s < sizeof(ccs) / sizeof(ccs[0]); s++) {
		double best = 1e30;

		for (r = 0; r < RUNS; r++) {
			double t = run_cc(ccs[s].call, n);

			if (t < best)
				best = t;
		}
		if (s == 0)
			harness = best;
		printf("%-10s %12.1f %12.1f\n", ccs[s].name, best,
		       s ? best - harness : 0.0);
	}
	return 0;
}
