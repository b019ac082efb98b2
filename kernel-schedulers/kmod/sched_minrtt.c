// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_minrtt, MPTCP scheduler "minrtt": the multipath-tcp.org
 * kernel's default, lowest smoothed RTT among the subflows with window
 * room, each decision giving at most that room. The decision is
 * mpqoe_minrtt_select() of ../core/minrtt.c; the rest is the shared glue.
 */
#include <linux/module.h>

#include "mpqoe_kmod.h"

const char *const mpqoe_sched_name = "minrtt";

void mpqoe_algo_init(union mpqoe_algo_state *st)
{
	mpqoe_minrtt_init(&st->minrtt);
}

int mpqoe_algo_select(union mpqoe_algo_state *st, const struct mpqoe_sched_input *in)
{
	return mpqoe_minrtt_select(&st->minrtt, in);
}

struct mpqoe_room mpqoe_algo_room(const union mpqoe_algo_state *st,
				  const struct mpqoe_sched_input *in, int pick)
{
	return mpqoe_window_room(in, pick);
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"minrtt\"");
