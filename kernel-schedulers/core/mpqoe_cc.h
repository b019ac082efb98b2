/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe coupled congestion control: the contract between the
 * tcp_congestion_ops modules (../kmod/cc_<name>.c) and the pure-C arithmetic of LIA (RFC 6356),
 * OLIA (Khalili et al.) and BALIA (Peng et al.), also used by the
 * userspace tests.
 *
 * The glue takes a snapshot of the subflows of one MPTCP connection that
 * run the same algorithm (struct mpqoe_cc_view, at most 8) and, for one
 * ACK or one loss on subflow @self, calls the core directly. The core
 * returns the new congestion window, or the new slow-start threshold; the
 * glue writes it back. All arithmetic is integer with the fixed-point
 * scales below, every division has a non-zero divisor by construction and
 * every intermediate product fits its type (128-bit products are formed
 * from 64-bit halves, see mpqoe_cc_muldiv()). See ALGORITHMS.md.
 */
#ifndef MPQOE_CC_H
#define MPQOE_CC_H

#include "mpqoe_types.h"

#define MPQOE_CC_MAX_PATHS	8	/* = MPTCP_SUBFLOWS_MAX in 6.12 */

/*
 * w: acknowledged packets per +1 packet of cwnd (LIA, BALIA, Reno), in
 * units of 2^-16 packet. Reno is w = cwnd << 16.
 */
#define MPQOE_CC_W_SHIFT	16
/* OLIA: signed increase per acknowledged packet, in 2^-32 packet */
#define MPQOE_CC_INC_SHIFT	32
/* alpha values reported in the info structs, in 2^-16 */
#define MPQOE_CC_FRAC_SHIFT	16

/* Inputs are clamped to these ranges before any arithmetic. */
#define MPQOE_CC_CWND_MAX	BIT(24)	/* packets: 2^30 B window / 64 B */
#define MPQOE_CC_RTT_MAX_US	BIT(28)	/* about 268 s */
#define MPQOE_CC_ACKED_MAX	BIT(24)	/* packets acknowledged by one ACK */

/* One subflow as the glue sees it at the time of the call. */
struct mpqoe_cc_path {
	/*
	 * Packets: tcp_snd_cwnd(). For a sibling in CWR or Recovery, its
	 * snd_ssthresh instead (where PRR is taking the window), as the
	 * multipath-tcp.org OLIA does; self is never in those states when
	 * cong_avoid runs. 0 counts as 1.
	 */
	u32 cwnd;
	u32 ssthresh;		/* snd_ssthresh: self's slow-start test */
	u32 cwnd_clamp;		/* snd_cwnd_clamp (self), 0 = no clamp */
	u32 rtt_us;		/* srtt_us >> 3; 0 = no sample: not usable */
	u32 mss;		/* mss_cache, bytes (LIA works in bytes); 0 counts as 1 */
	u32 inter_loss;		/* OLIA: l_r in bytes, mpqoe_olia_inter_loss() */
	u8 usable;		/* established, not a pending join, can send */
};

struct mpqoe_cc_view {
	u8 n;			/* valid entries of p[] (more are ignored) */
	struct mpqoe_cc_path p[MPQOE_CC_MAX_PATHS];
};

/*
 * What one subflow carries from one ACK to the next (the glue keeps it in
 * its icsk_ca_priv). Zero is the initial state; mpqoe_cc_carry_reset()
 * where the kernel zeroes snd_cwnd_cnt: in the ssthresh hook (called by
 * tcp_init_cwnd_reduction() and tcp_enter_loss()) and on
 * set_state(TCP_CA_Loss) (tcp_enter_loss() on a repeated RTO).
 */
struct mpqoe_cc_carry {
	u64 cnt;	/* acked packets toward the next +1, 2^-16 (w form) */
	s64 frac;	/* OLIA: accumulated change of cwnd, 2^-32 packet */
};

/* OLIA's loss marks of one subflow: snd_una at its last two loss events. */
struct mpqoe_olia_loss {
	u32 loss1;
	u32 loss2;
};

/*
 * What a call computed, for counters and /proc (optional: NULL is fine).
 * A cong_avoid call whose ACK went entirely to slow start leaves it zero.
 */
struct mpqoe_lia_info {
	u64 w;		/* acked packets per +1, 2^-16, before the 1/cwnd cap */
	u64 alpha;	/* RFC 6356 alpha, 2^-16 */
	u8 best;	/* index maximising cwnd*mss / rtt^2 */
	u8 reno;	/* Reno: self not usable or no other usable path */
	u8 capped;	/* the result is the 1/cwnd_i cap */
};

struct mpqoe_olia_info {
	s64 inc;	/* increase per acked packet, 2^-32 (signed) */
	s32 eps_num;	/* alpha_r of the paper = eps_num / eps_den */
	u32 eps_den;
	u8 m_mask;	/* M: paths with the largest window (bit = index) */
	u8 b_mask;	/* B: paths with the largest l_r / rtt_r^2 */
	u8 reno;
};

struct mpqoe_balia_info {
	u64 w;		/* acked packets per +1, 2^-16 */
	u64 alpha;	/* alpha_r = max_k x_k / x_r, 2^-16, saturating */
	u32 md;		/* mpqoe_balia_ssthresh(): packets taken off cwnd */
	u8 reno;
};

/* What mpqoe_cc_ca_begin() left to the algorithm's cong_avoid */
enum mpqoe_cc_step {
	MPQOE_CC_RENO,		/* not coupled: Reno did it all */
	MPQOE_CC_SLOW_START,	/* slow start took every acked packet */
	MPQOE_CC_COUPLED,	/* the coupled increase for the packets left */
};

/* cc_common.c: arithmetic shared by the three algorithms */
u64 mpqoe_cc_muldiv(u64 a, u64 b, u64 d);
u64 mpqoe_cc_muldiv_up(u64 a, u64 b, u64 d);
int mpqoe_cc_cmp_mul(u64 a, u64 b, u64 c, u64 d);
bool mpqoe_cc_coupled(const struct mpqoe_cc_view *v, unsigned int self);
u32 mpqoe_cc_slow_start(u32 *cwnd, u32 ssthresh, u32 acked, u32 clamp);
u32 mpqoe_cc_ai(u32 cwnd, u64 *cnt, u64 w, u32 acked, u32 clamp);
u32 mpqoe_cc_add(u32 cwnd, s64 *frac, s64 inc, u32 acked, u32 clamp);
u32 mpqoe_cc_reno_ssthresh(u32 cwnd);
u32 mpqoe_cc_reno_cong_avoid(const struct mpqoe_cc_path *p, u32 acked,
			     struct mpqoe_cc_carry *c);
enum mpqoe_cc_step mpqoe_cc_ca_begin(const struct mpqoe_cc_view *v, unsigned int self,
				     u32 *acked, struct mpqoe_cc_carry *c, u32 *cwnd);
void mpqoe_cc_carry_reset(struct mpqoe_cc_carry *c);

/* cc_lia.c */
u64 mpqoe_lia_w(const struct mpqoe_cc_view *v, unsigned int self,
		struct mpqoe_lia_info *info);
u32 mpqoe_lia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
			 u32 acked, struct mpqoe_cc_carry *c,
			 struct mpqoe_lia_info *info);
u32 mpqoe_lia_ssthresh(const struct mpqoe_cc_view *v, unsigned int self);

/* cc_olia.c */
s64 mpqoe_olia_inc(const struct mpqoe_cc_view *v, unsigned int self,
		   struct mpqoe_olia_info *info);
u32 mpqoe_olia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
			  u32 acked, struct mpqoe_cc_carry *c,
			  struct mpqoe_olia_info *info);
u32 mpqoe_olia_ssthresh(const struct mpqoe_cc_view *v, unsigned int self);
void mpqoe_olia_loss_init(struct mpqoe_olia_loss *l, u32 snd_una);
void mpqoe_olia_loss_event(struct mpqoe_olia_loss *l, u32 snd_una);
u32 mpqoe_olia_inter_loss(const struct mpqoe_olia_loss *l, u32 snd_una);

/* cc_balia.c */
u64 mpqoe_balia_w(const struct mpqoe_cc_view *v, unsigned int self,
		  struct mpqoe_balia_info *info);
u32 mpqoe_balia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
			   u32 acked, struct mpqoe_cc_carry *c,
			   struct mpqoe_balia_info *info);
u32 mpqoe_balia_ssthresh(const struct mpqoe_cc_view *v, unsigned int self,
			 struct mpqoe_balia_info *info);

#endif /* MPQOE_CC_H */
