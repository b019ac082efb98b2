// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_tr_sty, MPTCP scheduler "tr_sty": throughput and RTT sticky.
 * The decision is mpqoe_tr_sty_select() of ../core/sticky.c; the rest is
 * the shared glue.
 */
#include <linux/module.h>

#include "mpqoe_kmod.h"

const char *const mpqoe_sched_name = "tr_sty";

void mpqoe_algo_init(union mpqoe_algo_state *st)
{
	mpqoe_tr_sty_init(&st->tr_sty);
}

int mpqoe_algo_select(union mpqoe_algo_state *st, const struct mpqoe_sched_input *in)
{
	return mpqoe_tr_sty_select(&st->tr_sty, in);
}

struct mpqoe_room mpqoe_algo_room(const union mpqoe_algo_state *st,
				  const struct mpqoe_sched_input *in, int pick)
{
	return mpqoe_window_room(in, pick);
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"tr_sty\"");
