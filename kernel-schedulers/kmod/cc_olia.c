// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_olia, TCP congestion control "olia": the opportunistic
 * linked increases algorithm (Khalili et al.) for the subflows of an MPTCP
 * connection. The arithmetic is mpqoe_olia_cong_avoid(),
 * mpqoe_olia_ssthresh() and the loss marks of ../core/cc_olia.c; the rest
 * is the shared glue (mpqoe_cc_glue.c), which keeps each member's loss
 * marks.
 *
 * /proc fields: collected=<CA ACKs with B \ M not empty>
 * eps=<id>:<+-num>/<den>,... l=<id>:<inter-loss bytes>,... (last computed).
 * Samples: eps=<+-num>/<den> of the sampled member.
 */
#include <linux/module.h>
#include <net/tcp.h>

#include "mpqoe_cc_kmod.h"

u32 mpqoe_ccm_cong_avoid(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
			 unsigned int self, u32 acked, struct mpqoe_cc_carry *c,
			 bool *reno)
{
	struct mpqoe_cc_slot *s = &conn->slot[self % MPQOE_CC_SLOTS];
	struct mpqoe_olia_info info;
	u32 cwnd = mpqoe_olia_cong_avoid(v, self, acked, c, &info);

	*reno = info.reno;
	if (info.inc && !info.reno) {
		s->eps_num = info.eps_num;
		s->eps_den = info.eps_den;
		s->inter_loss = v->p[self % MPQOE_CC_SLOTS].inter_loss;
		if (info.b_mask & ~info.m_mask)
			conn->collected++;
	}
	return cwnd;
}

u32 mpqoe_ccm_ssthresh(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
		       unsigned int self)
{
	return mpqoe_olia_ssthresh(v, self);
}

void mpqoe_ccm_show(struct seq_file *seq, const struct mpqoe_cc_conn *conn)
{
	unsigned int i, n = 0;

	seq_printf(seq, " collected=%llu eps=", conn->collected);
	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		const struct mpqoe_cc_slot *s = &conn->slot[i];

		if (s->used)
			seq_printf(seq, "%s%u:%s%d/%u", n++ ? "," : "", s->id,
				   s->eps_num > 0 ? "+" : "", s->eps_num, s->eps_den);
	}
	seq_puts(seq, " l=");
	for (i = 0, n = 0; i < MPQOE_CC_SLOTS; i++) {
		const struct mpqoe_cc_slot *s = &conn->slot[i];

		if (s->used)
			seq_printf(seq, "%s%u:%u", n++ ? "," : "", s->id, s->inter_loss);
	}
}

/* a sample: the member's eps (alpha_r), last computed, num in the low half */
u64 mpqoe_ccm_sample(const struct mpqoe_cc_conn *conn, unsigned int self)
{
	const struct mpqoe_cc_slot *s = &conn->slot[self % MPQOE_CC_SLOTS];

	return (u64)s->eps_den << 32 | (u32)s->eps_num;
}

void mpqoe_ccm_show_sample(struct seq_file *seq, u64 val)
{
	s32 num = (s32)(u32)val;

	seq_printf(seq, " eps=%s%d/%u", num > 0 ? "+" : "", num, (u32)(val >> 32));
}

void mpqoe_ccm_loss_init(struct mpqoe_cc_slot *s, u32 snd_una)
{
	mpqoe_olia_loss_init(&s->loss, snd_una);
}

void mpqoe_ccm_loss_event(struct mpqoe_cc_slot *s, u32 snd_una)
{
	mpqoe_olia_loss_event(&s->loss, snd_una);
}

u32 mpqoe_ccm_inter_loss(const struct mpqoe_cc_slot *s, u32 snd_una)
{
	return mpqoe_olia_inter_loss(&s->loss, snd_una);
}

static struct tcp_congestion_ops mpqoe_olia_ops = {
	.init		= mpqoe_cc_init,
	.release	= mpqoe_cc_release,
	.ssthresh	= mpqoe_cc_ssthresh,
	.cong_avoid	= mpqoe_cc_cong_avoid,
	.set_state	= mpqoe_cc_set_state,
	.undo_cwnd	= mpqoe_cc_undo_cwnd,
	.flags		= TCP_CONG_NON_RESTRICTED,
	.owner		= THIS_MODULE,
	.name		= "olia",
};

static int __init mpqoe_olia_module_init(void)
{
	return mpqoe_cc_module_init(&mpqoe_olia_ops);
}

static void __exit mpqoe_olia_module_exit(void)
{
	mpqoe_cc_module_exit(&mpqoe_olia_ops);
}

module_init(mpqoe_olia_module_init);
module_exit(mpqoe_olia_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe coupled congestion control \"olia\" for MPTCP subflows");
MODULE_ALIAS("tcp_olia");
