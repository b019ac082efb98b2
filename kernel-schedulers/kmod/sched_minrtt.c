// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_minrtt, MPTCP scheduler "minrtt": the multipath-tcp.org
 * kernel's default, lowest smoothed RTT among the subflows with window
 * room, each decision giving at most that room. The decision is
 * mpqoe_minrtt_select() of ../core/minrtt.c; the rest is the shared glue.
 */
#include <linux/module.h>
#include <net/mptcp.h>

#include "mpqoe_kmod.h"

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

static struct mptcp_sched_ops mpqoe_minrtt_ops = {
	.get_subflow	= mpqoe_get_subflow,
	.init		= mpqoe_init,
	.release	= mpqoe_release,
	.name		= "minrtt",
	.owner		= THIS_MODULE,
};

static int __init mpqoe_minrtt_module_init(void)
{
	return mpqoe_module_init(&mpqoe_minrtt_ops);
}

static void __exit mpqoe_minrtt_module_exit(void)
{
	mpqoe_module_exit(&mpqoe_minrtt_ops);
}

module_init(mpqoe_minrtt_module_init);
module_exit(mpqoe_minrtt_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"minrtt\"");
