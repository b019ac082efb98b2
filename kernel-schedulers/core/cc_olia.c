// SPDX-License-Identifier: GPL-2.0
/*
 * OLIA, the opportunistic linked increases algorithm (Khalili, Gast,
 * Popovic, Le Boudec, "MPTCP is not Pareto-optimal: performance issues
 * and a possible solution"). Per acked packet on path r (windows in
 * packets, R the usable paths):
 *
 *   w_r += (w_r / rtt_r^2) / (sum_p w_p / rtt_p)^2 + a_r / w_r
 *
 * M = paths with the largest window, B = paths with the largest
 * l_r / rtt_r^2 (l_r: bytes between the last two losses, or since the
 * last one if more), and when B \ M is not empty
 *   a_r = +1 / (|R| |B \ M|) on B \ M,  -1 / (|R| |M|) on M,  0 else;
 * otherwise a_r = 0. The decrease is Reno's. See ALGORITHMS.md.
 */
#include "mpqoe_cc_core.h"

/* E = sum_p w_p * rtt_r / rtt_p is kept in 2^-16 packet */
#define MPQOE_OLIA_E_SHIFT	16

static unsigned int mpqoe_olia_bits(u8 mask)
{
	unsigned int n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

/* is l_i / rtt_i^2 (>0, 0, <0) l_j / rtt_j^2? */
static int mpqoe_olia_cmp(const struct mpqoe_cc_norm *nm, unsigned int i,
			  unsigned int j)
{
	return mpqoe_cc_cmp_mul(nm->loss[i], (u64)nm->rtt[j] * nm->rtt[j],
				nm->loss[j], (u64)nm->rtt[i] * nm->rtt[i]);
}

/* a_r: the sets M and B of the usable paths, and self's share */
static void mpqoe_olia_eps(const struct mpqoe_cc_norm *nm, unsigned int self,
			   struct mpqoe_olia_info *info)
{
	unsigned int i, best = MPQOE_CC_MAX_PATHS, nbm;
	u32 max_w = 0;
	u8 bm, me = (u8)(1U << self);

	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		if (!(nm->mask & (1U << i)))
			continue;
		if (nm->cwnd[i] > max_w)
			max_w = nm->cwnd[i];
		if (best == MPQOE_CC_MAX_PATHS || mpqoe_olia_cmp(nm, i, best) > 0)
			best = i;
	}
	info->m_mask = 0;
	info->b_mask = 0;
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		if (!(nm->mask & (1U << i)))
			continue;
		if (nm->cwnd[i] == max_w)
			info->m_mask |= (u8)(1U << i);
		if (!mpqoe_olia_cmp(nm, i, best))
			info->b_mask |= (u8)(1U << i);
	}

	bm = info->b_mask & ~info->m_mask;
	nbm = mpqoe_olia_bits(bm);
	info->eps_num = 0;
	info->eps_den = 1;
	if (!nbm)
		return;
	if (bm & me) {
		info->eps_num = 1;
		info->eps_den = nm->count * nbm;
	} else if (info->m_mask & me) {
		info->eps_num = -1;
		info->eps_den = nm->count * mpqoe_olia_bits(info->m_mask);
	}
}

static s64 mpqoe_olia_inc_at(const struct mpqoe_cc_view *v, unsigned int self,
			     u32 cwnd_self, struct mpqoe_olia_info *info)
{
	struct mpqoe_cc_norm nm;
	u64 e = 0, q, t1, den;
	unsigned int i;
	s64 inc;

	self = mpqoe_cc_idx(self);
	*info = (struct mpqoe_olia_info){ .eps_den = 1 };
	if (!mpqoe_cc_normalize(v, self, cwnd_self, &nm)) {
		info->reno = 1;
		info->inc = (s64)MPQOE_DIV64(1ULL << MPQOE_CC_INC_SHIFT,
					     mpqoe_cc_clamp_cwnd(cwnd_self));
		return info->inc;
	}
	mpqoe_olia_eps(&nm, self, info);
	info->reno = nm.count < 2;

	/*
	 * First term w_r / E^2 with E = sum_p w_p * rtt_r / rtt_p, as
	 * (w_r / E) / E: E >= w_r (self's own term), so each quotient is
	 * at most 2^32. A saturated E only means the term is 0.
	 */
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		if (!(nm.mask & (1U << i)))
			continue;
		q = mpqoe_cc_muldiv((u64)nm.cwnd[i] << MPQOE_OLIA_E_SHIFT,
				    nm.rtt[self], nm.rtt[i]);
		e = mpqoe_cc_add_sat(e, q);
	}
	q = mpqoe_cc_muldiv((u64)nm.cwnd[self] << MPQOE_OLIA_E_SHIFT,
			    1ULL << MPQOE_CC_INC_SHIFT, e);
	t1 = mpqoe_cc_muldiv(q, 1ULL << MPQOE_OLIA_E_SHIFT, e);
	inc = (s64)t1;

	/* a_r / w_r, rounded towards -infinity (den <= 2^6, w <= 2^24) */
	den = (u64)info->eps_den * nm.cwnd[self];
	if (info->eps_num > 0)
		inc += (s64)MPQOE_DIV64(1ULL << MPQOE_CC_INC_SHIFT, den);
	else if (info->eps_num < 0)
		inc -= (s64)MPQOE_DIV64((1ULL << MPQOE_CC_INC_SHIFT) + den - 1,
					den);
	info->inc = inc;
	return inc;
}

/*
 * The increase of cwnd per acked packet on @self, in 2^-32 packet,
 * signed (paths in M may shrink). 2^32 / cwnd (floor) when @self is the
 * only usable path.
 */
s64 mpqoe_olia_inc(const struct mpqoe_cc_view *v, unsigned int self,
		   struct mpqoe_olia_info *info)
{
	struct mpqoe_olia_info tmp;

	return mpqoe_olia_inc_at(v, self, v->p[mpqoe_cc_idx(self)].cwnd,
				 info ? info : &tmp);
}

/*
 * The cong_avoid hook after the glue's tcp_is_cwnd_limited() test.
 * Slow start is uncoupled; the packets left over get the coupled
 * increase, accumulated with its remainder in c->frac. Reno (exactly,
 * with c->cnt) when @self is not coupled to another usable path.
 * Returns the new cwnd.
 */
u32 mpqoe_olia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
			  u32 acked, struct mpqoe_cc_carry *c,
			  struct mpqoe_olia_info *info)
{
	struct mpqoe_olia_info tmp;
	enum mpqoe_cc_step step;
	u32 cwnd;

	if (!info)
		info = &tmp;
	step = mpqoe_cc_ca_begin(v, self, &acked, c, &cwnd);
	*info = (struct mpqoe_olia_info){ .eps_den = 1, .reno = step == MPQOE_CC_RENO };
	if (step != MPQOE_CC_COUPLED)
		return cwnd;
	return mpqoe_cc_add(cwnd, &c->frac, mpqoe_olia_inc_at(v, self, cwnd, info), acked,
			    mpqoe_cc_clamp_of(&v->p[mpqoe_cc_idx(self)]));
}

/* OLIA halves on a loss, as TCP (min 2). */
u32 mpqoe_olia_ssthresh(const struct mpqoe_cc_view *v, unsigned int self)
{
	return mpqoe_cc_reno_ssthresh(v->p[mpqoe_cc_idx(self)].cwnd);
}

/* At init: no loss yet, l_r counts from here. */
void mpqoe_olia_loss_init(struct mpqoe_olia_loss *l, u32 snd_una)
{
	l->loss1 = snd_una;
	l->loss2 = snd_una;
}

/*
 * A loss event (entering Loss, Recovery or CWR; not a repeated RTO): the
 * marks shift, unless nothing was acknowledged since the previous event.
 */
void mpqoe_olia_loss_event(struct mpqoe_olia_loss *l, u32 snd_una)
{
	if (snd_una == l->loss2)
		return;
	l->loss1 = l->loss2;
	l->loss2 = snd_una;
}

/* l_r: bytes acknowledged since the last loss or between the last two,
 * whichever is more (sequence-number arithmetic, modulo 2^32).
 */
u32 mpqoe_olia_inter_loss(const struct mpqoe_olia_loss *l, u32 snd_una)
{
	u32 since = snd_una - l->loss2, between = l->loss2 - l->loss1;

	return since > between ? since : between;
}
