// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_tr_sty, MPTCP scheduler "tr_sty": throughput and RTT sticky.
 * The decision is mpqoe_tr_sty_select() of ../core/sticky.c; the rest is
 * the shared glue.
 */
#include <linux/module.h>
#include <net/mptcp.h>

#include "mpqoe_kmod.h"

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

static struct mptcp_sched_ops mpqoe_tr_sty_ops = {
	.get_subflow	= mpqoe_get_subflow,
	.init		= mpqoe_init,
	.release	= mpqoe_release,
	.name		= "tr_sty",
	.owner		= THIS_MODULE,
};

static int __init mpqoe_tr_sty_module_init(void)
{
	return mpqoe_module_init(&mpqoe_tr_sty_ops);
}

static void __exit mpqoe_tr_sty_module_exit(void)
{
	mpqoe_module_exit(&mpqoe_tr_sty_ops);
}

module_init(mpqoe_tr_sty_module_init);
module_exit(mpqoe_tr_sty_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"tr_sty\"");
