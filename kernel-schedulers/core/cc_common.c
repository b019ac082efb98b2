// SPDX-License-Identifier: GPL-2.0
/*
 * Coupled congestion control: the arithmetic LIA, OLIA and BALIA share.
 * 128-bit products and a 128/64 division built from 64-bit operations
 * (no compiler helper, so the same code runs in a module and in the
 * tests), the usable-path snapshot, and Reno's slow start, additive
 * increase and halving as Linux 6.12 does them (tcp_slow_start(),
 * tcp_cong_avoid_ai(), tcp_reno_ssthresh()), here in 2^-16 packet units.
 */
#include "mpqoe_cc_core.h"

#define MPQOE_LO32(x)	((x) & 0xffffffffULL)

/* a * b as the 128-bit value hi:lo */
static void mpqoe_mul128(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 a0 = MPQOE_LO32(a), a1 = a >> 32;
	u64 b0 = MPQOE_LO32(b), b1 = b >> 32;
	u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	u64 mid = (p00 >> 32) + MPQOE_LO32(p01) + MPQOE_LO32(p10);

	*lo = (mid << 32) | MPQOE_LO32(p00);
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* leading zero bits of v != 0 */
static unsigned int mpqoe_clz64(u64 v)
{
	unsigned int s = 0;

	if (!(v >> 32)) {
		s += 32;
		v <<= 32;
	}
	if (!(v >> 48)) {
		s += 16;
		v <<= 16;
	}
	if (!(v >> 56)) {
		s += 8;
		v <<= 8;
	}
	if (!(v >> 60)) {
		s += 4;
		v <<= 4;
	}
	if (!(v >> 62)) {
		s += 2;
		v <<= 2;
	}
	if (!(v >> 63))
		s += 1;
	return s;
}

/*
 * hi:lo / v for hi < v (so the quotient fits in 64 bits): schoolbook
 * division in 32-bit digits (Knuth's algorithm D, in the two-digit form
 * of Hacker's Delight "divlu"). Sets *rem.
 */
static u64 mpqoe_div128(u64 hi, u64 lo, u64 v, u64 *rem)
{
	const u64 b = 1ULL << 32;
	u64 vn1, vn0, un32, un21, un10, un1, un0, q1, q0, rhat;
	unsigned int s = mpqoe_clz64(v);

	v <<= s;
	vn1 = v >> 32;
	vn0 = MPQOE_LO32(v);
	un32 = s ? (hi << s) | (lo >> (64 - s)) : hi;
	un10 = lo << s;
	un1 = un10 >> 32;
	un0 = MPQOE_LO32(un10);

	q1 = MPQOE_DIV64(un32, vn1);
	rhat = un32 - q1 * vn1;
	while (q1 >= b || q1 * vn0 > b * rhat + un1) {
		q1--;
		rhat += vn1;
		if (rhat >= b)
			break;
	}
	un21 = un32 * b + un1 - q1 * v;

	q0 = MPQOE_DIV64(un21, vn1);
	rhat = un21 - q0 * vn1;
	while (q0 >= b || q0 * vn0 > b * rhat + un0) {
		q0--;
		rhat += vn1;
		if (rhat >= b)
			break;
	}
	*rem = (un21 * b + un0 - q0 * v) >> s;
	return q1 * b + q0;
}

/* floor(a * b / d) and its remainder; U64_MAX when it does not fit */
static u64 mpqoe_muldiv_rem(u64 a, u64 b, u64 d, u64 *rem)
{
	u64 hi, lo, q;

	if (!d)		/* no caller passes 0; do not trap if one does */
		d = 1;
	mpqoe_mul128(a, b, &hi, &lo);
	if (!hi) {
		q = MPQOE_DIV64(lo, d);
		*rem = lo - q * d;
		return q;
	}
	if (hi >= d) {
		*rem = 0;
		return MPQOE_U64_MAX;
	}
	return mpqoe_div128(hi, lo, d, rem);
}

/* floor(a * b / d) with a 128-bit product; U64_MAX if the quotient
 * does not fit in 64 bits.
 */
u64 mpqoe_cc_muldiv(u64 a, u64 b, u64 d)
{
	u64 rem;

	return mpqoe_muldiv_rem(a, b, d, &rem);
}

/* ceil(a * b / d), saturating at U64_MAX */
u64 mpqoe_cc_muldiv_up(u64 a, u64 b, u64 d)
{
	u64 rem, q = mpqoe_muldiv_rem(a, b, d, &rem);

	return rem && q != MPQOE_U64_MAX ? q + 1 : q;
}

/* sign of a * b - c * d, exactly */
int mpqoe_cc_cmp_mul(u64 a, u64 b, u64 c, u64 d)
{
	u64 h1, l1, h2, l2;

	mpqoe_mul128(a, b, &h1, &l1);
	mpqoe_mul128(c, d, &h2, &l2);
	if (h1 != h2)
		return h1 < h2 ? -1 : 1;
	if (l1 != l2)
		return l1 < l2 ? -1 : 1;
	return 0;
}

static bool mpqoe_cc_usable(const struct mpqoe_cc_view *v, unsigned int i)
{
	return i < v->n && v->p[i].usable && v->p[i].rtt_us;
}

bool mpqoe_cc_normalize(const struct mpqoe_cc_view *v, unsigned int self,
			u32 cwnd_self, struct mpqoe_cc_norm *nm)
{
	unsigned int i;

	self = mpqoe_cc_idx(self);
	nm->mask = 0;
	nm->count = 0;
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		const struct mpqoe_cc_path *p = &v->p[i];

		if (!mpqoe_cc_usable(v, i))
			continue;
		nm->mask |= (u8)(1U << i);
		nm->count++;
		nm->cwnd[i] = mpqoe_cc_clamp_cwnd(i == self ? cwnd_self : p->cwnd);
		nm->rtt[i] = p->rtt_us > MPQOE_CC_RTT_MAX_US ?
			     MPQOE_CC_RTT_MAX_US : p->rtt_us;
		nm->mss[i] = !p->mss ? 1 : p->mss > MPQOE_CC_MSS_MAX ?
			     MPQOE_CC_MSS_MAX : p->mss;
		nm->loss[i] = p->inter_loss;
	}
	return nm->mask & (1U << self);
}

/*
 * Coupled arithmetic applies when @self and at least one other subflow
 * are usable; otherwise every algorithm is Reno.
 */
bool mpqoe_cc_coupled(const struct mpqoe_cc_view *v, unsigned int self)
{
	unsigned int i, n = 0;

	self = mpqoe_cc_idx(self);
	if (!mpqoe_cc_usable(v, self))
		return false;
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++)
		n += mpqoe_cc_usable(v, i);
	return n >= 2;
}

/*
 * tcp_slow_start() of Linux 6.12: cwnd grows by the acked packets up to
 * ssthresh (and the clamp); returns the acked packets left over for
 * congestion avoidance.
 */
u32 mpqoe_cc_slow_start(u32 *cwnd, u32 ssthresh, u32 acked, u32 clamp)
{
	u32 c;

	if (*cwnd >= ssthresh)	/* not in slow start: all left for CA */
		return acked;
	c = (u32)mpqoe_cc_min64((u64)*cwnd + acked, ssthresh);
	acked -= c - *cwnd;
	*cwnd = c < clamp ? c : clamp;
	return acked;
}

/*
 * tcp_cong_avoid_ai() of Linux 6.12 with w and the counter in 2^-16
 * packet: +1 per w acked packets, carrying the remainder in *cnt. With
 * w = cwnd << 16 this is Reno's +1/cwnd per acked packet, exactly.
 */
u32 mpqoe_cc_ai(u32 cwnd, u64 *cnt, u64 w, u32 acked, u32 clamp)
{
	u64 c = cwnd, delta;

	if (w < MPQOE_CC_ONE_W)		/* never below +1 per acked packet */
		w = MPQOE_CC_ONE_W;
	/* credits accumulated at a larger w: one step now, as the kernel */
	if (*cnt >= w) {
		*cnt = 0;
		c++;
	}
	*cnt += (u64)acked << MPQOE_CC_W_SHIFT;
	if (*cnt >= w) {
		delta = MPQOE_DIV64(*cnt, w);
		*cnt -= delta * w;
		c += delta;
	}
	return (u32)mpqoe_cc_min64(c, clamp);
}

/*
 * OLIA's signed increase: add @inc (2^-32 packet) per acked packet to
 * *frac; whole packets move cwnd up (to the clamp) or down (not below
 * 1), the remainder stays in *frac, |*frac| < 1 packet afterwards.
 */
u32 mpqoe_cc_add(u32 cwnd, s64 *frac, s64 inc, u32 acked, u32 clamp)
{
	s64 f = *frac;
	u64 c = cwnd, steps;

	if (acked > MPQOE_CC_ACKED_MAX)
		acked = MPQOE_CC_ACKED_MAX;
	/* |inc| <= 1.5 * 2^32 and acked <= 2^24: no overflow */
	f += (s64)acked * inc;
	if (f >= MPQOE_CC_ONE_INC) {
		steps = (u64)f >> MPQOE_CC_INC_SHIFT;
		f -= (s64)(steps << MPQOE_CC_INC_SHIFT);
		c += steps;
	} else if (f <= -MPQOE_CC_ONE_INC) {
		steps = (u64)(-f) >> MPQOE_CC_INC_SHIFT;
		f += (s64)(steps << MPQOE_CC_INC_SHIFT);
		c = c > steps ? c - steps : 1;
	}
	*frac = f;
	return (u32)mpqoe_cc_min64(c, clamp);
}

/* tcp_reno_ssthresh(): half the window, at least 2 */
u32 mpqoe_cc_reno_ssthresh(u32 cwnd)
{
	return cwnd >> 1 > 2 ? cwnd >> 1 : 2;
}

/*
 * tcp_reno_cong_avoid() after its cwnd-limited test (which stays with
 * the glue): slow start below ssthresh, then +1 per cwnd acked packets.
 * Returns the new cwnd.
 */
u32 mpqoe_cc_reno_cong_avoid(const struct mpqoe_cc_path *p, u32 acked,
			     struct mpqoe_cc_carry *c)
{
	u32 cwnd = p->cwnd, clamp = mpqoe_cc_clamp_of(p);

	if (cwnd < p->ssthresh) {
		acked = mpqoe_cc_slow_start(&cwnd, p->ssthresh, acked, clamp);
		if (!acked)
			return cwnd;
	}
	return mpqoe_cc_ai(cwnd, &c->cnt, (u64)cwnd << MPQOE_CC_W_SHIFT,
			   acked, clamp);
}

/*
 * The start of cong_avoid, the same for LIA, OLIA and BALIA: Reno when
 * @self is not coupled to another usable path (*@cwnd is its result);
 * else slow start, uncoupled (RFC 6356, Section 3), below ssthresh. *@cwnd
 * is then the window after it and *@acked the packets left for the
 * algorithm's coupled increase.
 */
enum mpqoe_cc_step mpqoe_cc_ca_begin(const struct mpqoe_cc_view *v, unsigned int self,
				     u32 *acked, struct mpqoe_cc_carry *c, u32 *cwnd)
{
	const struct mpqoe_cc_path *p = &v->p[mpqoe_cc_idx(self)];

	if (!mpqoe_cc_coupled(v, self)) {
		*cwnd = mpqoe_cc_reno_cong_avoid(p, *acked, c);
		return MPQOE_CC_RENO;
	}
	*cwnd = p->cwnd;
	if (*cwnd < p->ssthresh) {
		*acked = mpqoe_cc_slow_start(cwnd, p->ssthresh, *acked, mpqoe_cc_clamp_of(p));
		if (!*acked)
			return MPQOE_CC_SLOW_START;
	}
	return MPQOE_CC_COUPLED;
}

void mpqoe_cc_carry_reset(struct mpqoe_cc_carry *c)
{
	c->cnt = 0;
	c->frac = 0;
}
