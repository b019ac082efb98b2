// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_lia, TCP congestion control "lia": the linked increases
 * algorithm of RFC 6356 for the subflows of an MPTCP connection. The
 * arithmetic is mpqoe_lia_cong_avoid() and mpqoe_lia_ssthresh() of
 * ../core/cc_lia.c; the rest is the shared glue (mpqoe_cc_glue.c).
 *
 * /proc fields: alpha=<RFC 6356 alpha, last computed> w=<id>:<acked
 * packets per +1 of cwnd>,... (before the 1/cwnd cap, last computed).
 * Samples: alpha=<alpha of the connection>.
 */
#include <linux/module.h>
#include <net/tcp.h>

#include "mpqoe_cc_kmod.h"

u32 mpqoe_ccm_cong_avoid(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
			 unsigned int self, u32 acked, struct mpqoe_cc_carry *c,
			 bool *reno)
{
	struct mpqoe_lia_info info;
	u32 cwnd = mpqoe_lia_cong_avoid(v, self, acked, c, &info);

	*reno = info.reno;
	if (info.w && !info.reno) {
		conn->alpha = info.alpha;
		conn->slot[self % MPQOE_CC_SLOTS].w = info.w;
	}
	return cwnd;
}

u32 mpqoe_ccm_ssthresh(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
		       unsigned int self)
{
	return mpqoe_lia_ssthresh(v, self);
}

void mpqoe_ccm_show(struct seq_file *seq, const struct mpqoe_cc_conn *conn)
{
	unsigned int i, n = 0;

	seq_puts(seq, " alpha=");
	mpqoe_cc_show_frac(seq, conn->alpha, MPQOE_CC_FRAC_SHIFT);
	seq_puts(seq, " w=");
	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		if (!conn->slot[i].used)
			continue;
		seq_printf(seq, "%s%u:", n++ ? "," : "", conn->slot[i].id);
		mpqoe_cc_show_frac(seq, conn->slot[i].w, MPQOE_CC_W_SHIFT);
	}
}

/* a sample: alpha (of the connection), last computed */
u64 mpqoe_ccm_sample(const struct mpqoe_cc_conn *conn, unsigned int self)
{
	return conn->alpha;
}

void mpqoe_ccm_show_sample(struct seq_file *seq, u64 val)
{
	seq_puts(seq, " alpha=");
	mpqoe_cc_show_frac(seq, val, MPQOE_CC_FRAC_SHIFT);
}

void mpqoe_ccm_loss_init(struct mpqoe_cc_slot *s, u32 snd_una)
{
}

/* LIA keeps no loss marks */
void mpqoe_ccm_loss_event(struct mpqoe_cc_slot *s, u32 snd_una)
{
}

u32 mpqoe_ccm_inter_loss(const struct mpqoe_cc_slot *s, u32 snd_una)
{
	return 0;
}

static struct tcp_congestion_ops mpqoe_lia_ops = {
	.init		= mpqoe_cc_init,
	.release	= mpqoe_cc_release,
	.ssthresh	= mpqoe_cc_ssthresh,
	.cong_avoid	= mpqoe_cc_cong_avoid,
	.set_state	= mpqoe_cc_set_state,
	.undo_cwnd	= mpqoe_cc_undo_cwnd,
	.flags		= TCP_CONG_NON_RESTRICTED,
	.owner		= THIS_MODULE,
	.name		= "lia",
};

static int __init mpqoe_lia_module_init(void)
{
	return mpqoe_cc_module_init(&mpqoe_lia_ops);
}

static void __exit mpqoe_lia_module_exit(void)
{
	mpqoe_cc_module_exit(&mpqoe_lia_ops);
}

module_init(mpqoe_lia_module_init);
module_exit(mpqoe_lia_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe coupled congestion control \"lia\" (RFC 6356) for MPTCP subflows");
MODULE_ALIAS("tcp_lia");
