// SPDX-License-Identifier: GPL-2.0
/*
 * BALIA, the balanced linked adaptation algorithm (Peng, Walid, Hwang,
 * Low, "Multipath TCP: analysis, design and implementation"). With
 * x_k = w_k / rtt_k (packets per unit time) and a_r = max_k x_k / x_r:
 *
 *   per acked packet on r:  w_r += x_r / (rtt_r (sum_k x_k)^2)
 *                                  * (1 + a_r) / 2 * (4 + a_r) / 5
 *   per loss on r:          w_r -= w_r / 2 * min(a_r, 1.5)
 *
 * The increase is computed as w, acked packets per +1 packet: with
 * y_k = x_k / max_k x_k (so y = 1 on the fastest path),
 *
 *   w_r = 10 w_r (sum_k y_k)^2 / ((y_r + 1) (4 y_r + 1))
 *
 * which is w_r (Reno) on a single path. See ALGORITHMS.md.
 */
#include "mpqoe_cc_core.h"

/* y_k is kept in 2^-16 */
#define MPQOE_BALIA_Y_SHIFT	16
#define MPQOE_BALIA_ONE_Y	BIT_ULL(MPQOE_BALIA_Y_SHIFT)

/* index of the largest x_k = w_k / rtt_k (the first on a tie) */
static unsigned int mpqoe_balia_fastest(const struct mpqoe_cc_norm *nm)
{
	unsigned int i, m = MPQOE_CC_MAX_PATHS;

	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		if (!(nm->mask & (1U << i)))
			continue;
		/* w_i / rtt_i > w_m / rtt_m; products < 2^52 */
		if (m == MPQOE_CC_MAX_PATHS ||
		    (u64)nm->cwnd[i] * nm->rtt[m] > (u64)nm->cwnd[m] * nm->rtt[i])
			m = i;
	}
	return m;
}

/* a_r = x_m / x_r in 2^-16 (>= 2^16), saturating */
static u64 mpqoe_balia_alpha(const struct mpqoe_cc_norm *nm, unsigned int m,
			     unsigned int r)
{
	return mpqoe_cc_muldiv((u64)nm->cwnd[m] * nm->rtt[r], MPQOE_CC_ONE_FRAC,
			       (u64)nm->cwnd[r] * nm->rtt[m]);
}

static u64 mpqoe_balia_w_at(const struct mpqoe_cc_view *v, unsigned int self,
			    u32 cwnd_self, struct mpqoe_balia_info *info)
{
	struct mpqoe_cc_norm nm;
	u64 y, y_r = 0, sum = 0, den, ratio;
	unsigned int i, m;

	self = mpqoe_cc_idx(self);
	*info = (struct mpqoe_balia_info){ 0 };
	if (!mpqoe_cc_normalize(v, self, cwnd_self, &nm)) {
		info->reno = 1;
		info->alpha = MPQOE_CC_ONE_FRAC;
		info->w = (u64)mpqoe_cc_clamp_cwnd(cwnd_self) << MPQOE_CC_W_SHIFT;
		return info->w;
	}
	m = mpqoe_balia_fastest(&nm);

	/* y_k = x_k / x_m in 2^-16, rounded up; y_m = 1 exactly */
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		if (!(nm.mask & (1U << i)))
			continue;
		y = i == m ? MPQOE_BALIA_ONE_Y :
		    mpqoe_cc_muldiv_up((u64)nm.cwnd[i] * nm.rtt[m],
				       MPQOE_BALIA_ONE_Y,
				       (u64)nm.cwnd[m] * nm.rtt[i]);
		sum += y;
		if (i == self)
			y_r = y;
	}

	/*
	 * ratio = 10 Y^2 / ((y_r + 1)(4 y_r + 1)) in 2^-16, rounded up:
	 * Y <= 2^19, so 10 Y^2 < 2^42; den is in [2^32, 10 * 2^32]. The
	 * ratio is at least 1 (Y >= 1 + y_r when r is not the fastest,
	 * Y >= 1 when it is) and at most 640.
	 */
	den = (y_r + MPQOE_BALIA_ONE_Y) * (4 * y_r + MPQOE_BALIA_ONE_Y);
	ratio = mpqoe_cc_muldiv_up(10 * sum * sum, MPQOE_BALIA_ONE_Y, den);

	info->w = (u64)nm.cwnd[self] * ratio;
	info->alpha = mpqoe_balia_alpha(&nm, m, self);
	info->reno = nm.count < 2;
	return info->w;
}

/*
 * Acked packets per +1 packet of cwnd for an ACK on @self, in 2^-16
 * packet; cwnd << 16 (Reno) when @self is the only usable path, never
 * less than that.
 */
u64 mpqoe_balia_w(const struct mpqoe_cc_view *v, unsigned int self,
		  struct mpqoe_balia_info *info)
{
	struct mpqoe_balia_info tmp;

	return mpqoe_balia_w_at(v, self, v->p[mpqoe_cc_idx(self)].cwnd,
				info ? info : &tmp);
}

/*
 * The cong_avoid hook after the glue's tcp_is_cwnd_limited() test, as
 * mpqoe_lia_cong_avoid() with BALIA's w. Returns the new cwnd.
 */
u32 mpqoe_balia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
			   u32 acked, struct mpqoe_cc_carry *c,
			   struct mpqoe_balia_info *info)
{
	struct mpqoe_balia_info tmp;
	enum mpqoe_cc_step step;
	u32 cwnd;

	if (!info)
		info = &tmp;
	step = mpqoe_cc_ca_begin(v, self, &acked, c, &cwnd);
	*info = (struct mpqoe_balia_info){ .reno = step == MPQOE_CC_RENO };
	if (step != MPQOE_CC_COUPLED)
		return cwnd;
	return mpqoe_cc_ai(cwnd, &c->cnt, mpqoe_balia_w_at(v, self, cwnd, info), acked,
			   mpqoe_cc_clamp_of(&v->p[mpqoe_cc_idx(self)]));
}

/*
 * The ssthresh hook: cwnd - md with md = cwnd / 2 * min(a_r, 1.5),
 * a_r in 2^-16 (not floored to an integer), md rounded up; at least 2.
 * With a_r = 1 this is Reno's max(cwnd / 2, 2) exactly.
 */
u32 mpqoe_balia_ssthresh(const struct mpqoe_cc_view *v, unsigned int self,
			 struct mpqoe_balia_info *info)
{
	const struct mpqoe_cc_path *p = &v->p[mpqoe_cc_idx(self)];
	struct mpqoe_balia_info tmp;
	struct mpqoe_cc_norm nm;
	u64 a = MPQOE_CC_ONE_FRAC, md, num, den;
	u32 cwnd = p->cwnd, ss;
	unsigned int m;

	if (!info)
		info = &tmp;
	self = mpqoe_cc_idx(self);
	*info = (struct mpqoe_balia_info){ .alpha = MPQOE_CC_ONE_FRAC };
	if (mpqoe_cc_coupled(v, self) &&
	    mpqoe_cc_normalize(v, self, cwnd, &nm)) {
		m = mpqoe_balia_fastest(&nm);
		num = (u64)nm.cwnd[m] * nm.rtt[self];
		den = (u64)nm.cwnd[self] * nm.rtt[m];
		info->alpha = mpqoe_balia_alpha(&nm, m, self);
		/* min(a_r, 1.5); num, den < 2^52 */
		a = 2 * num >= 3 * den ? 3 * MPQOE_CC_ONE_FRAC / 2 :
		    mpqoe_cc_muldiv(num, MPQOE_CC_ONE_FRAC, den);
	} else {
		info->reno = 1;
	}
	/* cwnd * a < 2^32 * 1.5 * 2^16 */
	md = ((u64)cwnd * a + (2 * MPQOE_CC_ONE_FRAC - 1)) >>
	     (MPQOE_CC_FRAC_SHIFT + 1);
	ss = md < cwnd ? cwnd - (u32)md : 0;
	info->md = (u32)md;
	return ss > 2 ? ss : 2;
}
