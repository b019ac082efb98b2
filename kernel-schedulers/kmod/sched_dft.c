// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_dft, MPTCP scheduler "dft": upstream's default of Linux 6.12
 * (linger time), with its path switches counted. The decision is
 * mpqoe_dft_select() of ../core/dft.c; the rest is the shared glue.
 */
#include <linux/module.h>

#include "mpqoe_kmod.h"

const char *const mpqoe_sched_name = "dft";

void mpqoe_algo_init(union mpqoe_algo_state *st)
{
	mpqoe_dft_init(&st->dft);
}

int mpqoe_algo_select(union mpqoe_algo_state *st, const struct mpqoe_sched_input *in)
{
	return mpqoe_dft_select(&st->dft, in);
}

struct mpqoe_room mpqoe_algo_room(const union mpqoe_algo_state *st,
				  const struct mpqoe_sched_input *in, int pick)
{
	/* no limit of its own: upstream's burst */
	return (struct mpqoe_room){ .bytes = MPQOE_ROOM_ANY };
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"dft\"");
