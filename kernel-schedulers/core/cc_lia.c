// SPDX-License-Identifier: GPL-2.0
/*
 * LIA, the linked increases algorithm of RFC 6356. Per acked packet on
 * subflow i (windows in bytes, C_k = cwnd_k * mss_k):
 *
 *   cwnd_i += min(alpha * mss_i / C_total, 1 / cwnd_i)      (packets)
 *   alpha   = C_total * max_k(C_k / rtt_k^2) / (sum_k C_k / rtt_k)^2
 *
 * computed here as w_i, the acked packets per +1 packet:
 *
 *   b   = argmax_k C_k / rtt_k^2
 *   S   = sum_k C_k * rtt_b / rtt_k                             (bytes)
 *   w_i = max(S^2 / (mss_i * C_b), cwnd_i)
 *
 * (alpha * mss_i / C_total = mss_i * C_b / S^2). The decrease is Reno's.
 * See ALGORITHMS.md.
 */
#include "mpqoe_cc_core.h"

/* S is kept in 2^-8 byte */
#define MPQOE_LIA_S_SHIFT	8

static u64 mpqoe_lia_w_at(const struct mpqoe_cc_view *v, unsigned int self,
			  u32 cwnd_self, struct mpqoe_lia_info *info)
{
	struct mpqoe_cc_norm nm;
	u64 bytes[MPQOE_CC_MAX_PATHS], total = 0, s = 0, w, cap, t;
	unsigned int i, b = MPQOE_CC_MAX_PATHS;

	self = mpqoe_cc_idx(self);
	*info = (struct mpqoe_lia_info){ 0 };
	if (!mpqoe_cc_normalize(v, self, cwnd_self, &nm)) {
		info->reno = 1;
		info->alpha = MPQOE_CC_ONE_FRAC;
		info->best = (u8)self;
		info->w = (u64)mpqoe_cc_clamp_cwnd(cwnd_self) << MPQOE_CC_W_SHIFT;
		return info->w;
	}

	/* the best path: largest C_k / rtt_k^2, compared exactly */
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		if (!(nm.mask & (1U << i)))
			continue;
		bytes[i] = (u64)nm.cwnd[i] * nm.mss[i];
		total += bytes[i];
		if (b == MPQOE_CC_MAX_PATHS ||
		    mpqoe_cc_cmp_mul(bytes[i], (u64)nm.rtt[b] * nm.rtt[b],
				     bytes[b], (u64)nm.rtt[i] * nm.rtt[i]) > 0)
			b = i;
	}

	/*
	 * S in 2^-8 byte, each term rounded up. As C_k / rtt_k^2 <=
	 * C_b / rtt_b^2, a term is at most sqrt(C_k * C_b) <= 2^40 bytes,
	 * so S < 2^51 here; the term of b is exactly C_b << 8.
	 */
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		if (nm.mask & (1U << i))
			s += mpqoe_cc_muldiv_up(bytes[i],
						(u64)nm.rtt[b] << MPQOE_LIA_S_SHIFT,
						nm.rtt[i]);
	}

	/* w = S^2 / (mss_i * C_b) in 2^-16 packet (S^2 carries 2^16), up */
	w = mpqoe_cc_muldiv_up(s, s, (u64)nm.mss[self] * bytes[b]);

	/* alpha = C_total * C_b / S^2, in 2^-16: two steps, each < 2^64 */
	t = mpqoe_cc_muldiv(total << 16, bytes[b], s);
	info->alpha = mpqoe_cc_muldiv(t, 1ULL << 16, s);
	info->best = (u8)b;
	info->reno = nm.count < 2;
	info->w = w;

	cap = (u64)nm.cwnd[self] << MPQOE_CC_W_SHIFT;
	if (w <= cap) {
		info->capped = w < cap;
		w = cap;
	}
	return w;
}

/*
 * Acked packets per +1 packet of cwnd for an ACK on @self, in 2^-16
 * packet: at least self's cwnd << 16 (the 1/cwnd_i cap). Exactly
 * cwnd << 16 when @self is the only usable path.
 */
u64 mpqoe_lia_w(const struct mpqoe_cc_view *v, unsigned int self,
		struct mpqoe_lia_info *info)
{
	struct mpqoe_lia_info tmp;

	return mpqoe_lia_w_at(v, self, v->p[mpqoe_cc_idx(self)].cwnd,
			      info ? info : &tmp);
}

/*
 * The cong_avoid hook, after the glue's tcp_is_cwnd_limited() test: an
 * ACK of @acked packets on @self. Slow start is uncoupled (RFC 6356);
 * the packets left over go to the coupled increase. Reno when @self is
 * not coupled to another usable path. Returns the new cwnd.
 */
u32 mpqoe_lia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
			 u32 acked, struct mpqoe_cc_carry *c,
			 struct mpqoe_lia_info *info)
{
	struct mpqoe_lia_info tmp;
	enum mpqoe_cc_step step;
	u32 cwnd;

	if (!info)
		info = &tmp;
	step = mpqoe_cc_ca_begin(v, self, &acked, c, &cwnd);
	*info = (struct mpqoe_lia_info){ .reno = step == MPQOE_CC_RENO };
	if (step != MPQOE_CC_COUPLED)
		return cwnd;
	return mpqoe_cc_ai(cwnd, &c->cnt, mpqoe_lia_w_at(v, self, cwnd, info), acked,
			   mpqoe_cc_clamp_of(&v->p[mpqoe_cc_idx(self)]));
}

/* RFC 6356 keeps TCP's decrease: the ssthresh hook halves (min 2). */
u32 mpqoe_lia_ssthresh(const struct mpqoe_cc_view *v, unsigned int self)
{
	return mpqoe_cc_reno_ssthresh(v->p[mpqoe_cc_idx(self)].cwnd);
}
