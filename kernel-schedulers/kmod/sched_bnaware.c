// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_bnaware, MPTCP scheduler "bnaware": bottleneck-aware, a
 * max_wmem cap per subflow (Komatsu et al.). The decision is
 * mpqoe_bnaware_select() of ../core/bnaware.c; the rest is the shared glue.
 */
#include <linux/module.h>
#include <net/mptcp.h>

#include "mpqoe_kmod.h"

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

static struct mptcp_sched_ops mpqoe_bnaware_ops = {
	.get_subflow	= mpqoe_get_subflow,
	.init		= mpqoe_init,
	.release	= mpqoe_release,
	.name		= "bnaware",
	.owner		= THIS_MODULE,
};

static int __init mpqoe_bnaware_module_init(void)
{
	return mpqoe_module_init(&mpqoe_bnaware_ops);
}

static void __exit mpqoe_bnaware_module_exit(void)
{
	mpqoe_module_exit(&mpqoe_bnaware_ops);
}

module_init(mpqoe_bnaware_module_init);
module_exit(mpqoe_bnaware_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe MPTCP packet scheduler \"bnaware\"");
