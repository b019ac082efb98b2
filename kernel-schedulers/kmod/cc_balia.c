// SPDX-License-Identifier: GPL-2.0
/*
 * Module mpqoe_balia, TCP congestion control "balia": the balanced linked
 * adaptation algorithm (Peng et al.) for the subflows of an MPTCP
 * connection. The arithmetic is mpqoe_balia_cong_avoid() and
 * mpqoe_balia_ssthresh() of ../core/cc_balia.c (the decrease computed from
 * the members' windows at the moment of the loss); the rest is the shared
 * glue (mpqoe_cc_glue.c).
 *
 * /proc fields: alpha_r=<id>:<max_k x_k / x_r>,... w=<id>:<acked packets
 * per +1>,... md=<id>:<packets taken off at the last loss>,...
 * Samples: alpha_r=<alpha_r of the sampled member>.
 */
#include <linux/module.h>
#include <net/tcp.h>

#include "mpqoe_cc_kmod.h"

u32 mpqoe_ccm_cong_avoid(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
			 unsigned int self, u32 acked, struct mpqoe_cc_carry *c,
			 bool *reno)
{
	struct mpqoe_cc_slot *s = &conn->slot[self % MPQOE_CC_SLOTS];
	struct mpqoe_balia_info info;
	u32 cwnd = mpqoe_balia_cong_avoid(v, self, acked, c, &info);

	*reno = info.reno;
	if (info.w && !info.reno) {
		s->w = info.w;
		s->alpha = info.alpha;
	}
	return cwnd;
}

u32 mpqoe_ccm_ssthresh(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
		       unsigned int self)
{
	struct mpqoe_cc_slot *s = &conn->slot[self % MPQOE_CC_SLOTS];
	struct mpqoe_balia_info info;
	u32 ss = mpqoe_balia_ssthresh(v, self, &info);

	s->md = info.md;
	s->alpha = info.alpha;
	return ss;
}

void mpqoe_ccm_show(struct seq_file *seq, const struct mpqoe_cc_conn *conn)
{
	unsigned int i, n = 0;

	seq_puts(seq, " alpha_r=");
	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		if (!conn->slot[i].used)
			continue;
		seq_printf(seq, "%s%u:", n++ ? "," : "", conn->slot[i].id);
		mpqoe_cc_show_frac(seq, conn->slot[i].alpha, MPQOE_CC_FRAC_SHIFT);
	}
	seq_puts(seq, " w=");
	for (i = 0, n = 0; i < MPQOE_CC_SLOTS; i++) {
		if (!conn->slot[i].used)
			continue;
		seq_printf(seq, "%s%u:", n++ ? "," : "", conn->slot[i].id);
		mpqoe_cc_show_frac(seq, conn->slot[i].w, MPQOE_CC_W_SHIFT);
	}
	seq_puts(seq, " md=");
	for (i = 0, n = 0; i < MPQOE_CC_SLOTS; i++) {
		if (conn->slot[i].used)
			seq_printf(seq, "%s%u:%u", n++ ? "," : "", conn->slot[i].id,
				   conn->slot[i].md);
	}
}

/* a sample: the member's alpha_r, last computed */
u64 mpqoe_ccm_sample(const struct mpqoe_cc_conn *conn, unsigned int self)
{
	return conn->slot[self % MPQOE_CC_SLOTS].alpha;
}

void mpqoe_ccm_show_sample(struct seq_file *seq, u64 val)
{
	seq_puts(seq, " alpha_r=");
	mpqoe_cc_show_frac(seq, val, MPQOE_CC_FRAC_SHIFT);
}

void mpqoe_ccm_loss_init(struct mpqoe_cc_slot *s, u32 snd_una)
{
}

void mpqoe_ccm_loss_event(struct mpqoe_cc_slot *s, u32 snd_una)
{
}

u32 mpqoe_ccm_inter_loss(const struct mpqoe_cc_slot *s, u32 snd_una)
{
	return 0;
}

static struct tcp_congestion_ops mpqoe_balia_ops = {
	.init		= mpqoe_cc_init,
	.release	= mpqoe_cc_release,
	.ssthresh	= mpqoe_cc_ssthresh,
	.cong_avoid	= mpqoe_cc_cong_avoid,
	.set_state	= mpqoe_cc_set_state,
	.undo_cwnd	= mpqoe_cc_undo_cwnd,
	.flags		= TCP_CONG_NON_RESTRICTED,
	.owner		= THIS_MODULE,
	.name		= "balia",
};

static int __init mpqoe_balia_module_init(void)
{
	return mpqoe_cc_module_init(&mpqoe_balia_ops);
}

static void __exit mpqoe_balia_module_exit(void)
{
	mpqoe_cc_module_exit(&mpqoe_balia_ops);
}

module_init(mpqoe_balia_module_init);
module_exit(mpqoe_balia_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mpqoe coupled congestion control \"balia\" for MPTCP subflows");
MODULE_ALIAS("tcp_balia");
