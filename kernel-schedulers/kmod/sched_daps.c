// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_daps, MPTCP scheduler "daps": delay-aware packet scheduling
 * (Sarwar et al. 2013). The decision is mpqoe_daps_select() of
 * ../core/daps.c; the rest is the shared glue.
 */
#include <linux/module.h>
#include <net/mptcp.h>

#include "mpqoe_kmod.h"

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

static struct mptcp_sched_ops mpqoe_daps_ops = {
	.get_subflow	= mpqoe_get_subflow,
	.init		= mpqoe_init,
	.release	= mpqoe_release,
	.name		= "daps",
	.owner		= THIS_MODULE,
};

static int __init mpqoe_daps_module_init(void)
{
	return mpqoe_module_init(&mpqoe_daps_ops);
}

static void __exit mpqoe_daps_module_exit(void)
{
	mpqoe_module_exit(&mpqoe_daps_ops);
}

module_init(mpqoe_daps_module_init);
module_exit(mpqoe_daps_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"daps\"");
