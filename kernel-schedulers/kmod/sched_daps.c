// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_daps, MPTCP scheduler "daps": delay-aware packet scheduling
 * (Sarwar et al. 2013). The decision is mpqoe_daps_select() of
 * ../core/daps.c; the rest is the shared glue.
 */
#include <linux/module.h>

#include "mpqoe_kmod.h"

const char *const mpqoe_sched_name = "daps";

void mpqoe_algo_init(union mpqoe_algo_state *st)
{
	mpqoe_daps_init(&st->daps);
}

int mpqoe_algo_select(union mpqoe_algo_state *st, const struct mpqoe_sched_input *in)
{
	return mpqoe_daps_select(&st->daps, in);
}

struct mpqoe_room mpqoe_algo_room(const union mpqoe_algo_state *st,
				  const struct mpqoe_sched_input *in, int pick)
{
	/* no limit of its own: upstream's burst */
	return (struct mpqoe_room){ .bytes = MPQOE_ROOM_ANY };
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"daps\"");
