// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_gr_sty, MPTCP scheduler "gr_sty": greedy sticky (Nagayama
 * et al.). The decision is mpqoe_gr_sty_select() of ../core/sticky.c; the
 * rest is the shared glue.
 */
#include <linux/module.h>

#include "mpqoe_kmod.h"

const char *const mpqoe_sched_name = "gr_sty";

void mpqoe_algo_init(union mpqoe_algo_state *st)
{
	mpqoe_gr_sty_init(&st->gr_sty);
}

int mpqoe_algo_select(union mpqoe_algo_state *st, const struct mpqoe_sched_input *in)
{
	return mpqoe_gr_sty_select(&st->gr_sty, in);
}

struct mpqoe_room mpqoe_algo_room(const union mpqoe_algo_state *st,
				  const struct mpqoe_sched_input *in, int pick)
{
	return mpqoe_window_room(in, pick);
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"gr_sty\"");
