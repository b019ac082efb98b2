// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_bnaware, MPTCP scheduler "bnaware": bottleneck-aware, a
 * max_wmem cap per subflow (Komatsu et al.). The decision is
 * mpqoe_bnaware_select() of ../core/bnaware.c; the rest is the shared glue.
 */
#include <linux/module.h>

#include "mpqoe_kmod.h"

const char *const mpqoe_sched_name = "bnaware";

void mpqoe_algo_init(union mpqoe_algo_state *st)
{
	mpqoe_bnaware_init(&st->bnaware);
}

int mpqoe_algo_select(union mpqoe_algo_state *st, const struct mpqoe_sched_input *in)
{
	return mpqoe_bnaware_select(&st->bnaware, in);
}

struct mpqoe_room mpqoe_algo_room(const union mpqoe_algo_state *st,
				  const struct mpqoe_sched_input *in, int pick)
{
	return mpqoe_bnaware_room(&st->bnaware, in, pick);
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"bnaware\"");
