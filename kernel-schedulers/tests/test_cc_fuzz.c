// SPDX-License-Identifier: GPL-2.0
/*
 * Random views, extreme values included, for the three congestion
 * control cores: no crash (a division by zero or an out-of-bounds read
 * would kill the test), every result in its range, agreement with the
 * formulas in long double where they are defined, the monotonicity the
 * formulas have, and independence of the order of the paths. Seeded:
 * reproducible.
 */
#include <math.h>
#include <stdio.h>

#include "test_cc_util.h"

#define ROUNDS 300000

typedef long double ld;

static uint64_t rng = 0x853c49e6748fea9bULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* small values mostly, extremes sometimes */
static uint32_t pick(uint32_t typical)
{
	switch (rnd() % 10) {
	case 0:
		return 0;
	case 1:
		return ~0U - (uint32_t)(rnd() % 2);
	case 2:
		return (uint32_t)rnd();
	case 3:
		return 1 + (uint32_t)(rnd() % 3);
	default:
		return 1 + (uint32_t)(rnd() % typical);
	}
}

static void random_view(struct mpqoe_cc_view *v)
{
	unsigned int i;

	memset(v, 0, sizeof(*v));
	v->n = (uint8_t)(rnd() % 11);			/* up to 10 claimed */
	for (i = 0; i < MPQOE_CC_MAX_PATHS; i++) {
		struct mpqoe_cc_path *p = &v->p[i];

		p->cwnd = pick(rnd() % 2 ? 100 : 100000);
		p->ssthresh = rnd() % 3 ? 2 : pick(200);
		p->cwnd_clamp = rnd() % 4 ? 0 : pick(2000);
		p->rtt_us = pick(rnd() % 2 ? 300000 : 3000);
		p->mss = rnd() % 2 ? 1000 + (uint32_t)(rnd() % 500) : pick(9000);
		p->inter_loss = rnd() % 3 ? pick(10000000) : (uint32_t)(rnd() % 3) * 1000;
		p->usable = rnd() % 6 != 0;
	}
}

/* the core's input clamps */
static uint32_t ccwnd(uint32_t c)
{
	return !c ? 1 : c > (1U << 24) ? 1U << 24 : c;
}

static uint32_t crtt(uint32_t r)
{
	return r > (1U << 28) ? 1U << 28 : r;
}

static uint32_t cmss(uint32_t m)
{
	return !m ? 1 : m > 65535 ? 65535 : m;
}

static int usable(const struct mpqoe_cc_view *v, unsigned int i)
{
	return i < v->n && v->p[i].usable && v->p[i].rtt_us;
}

/* RFC 6356's w_i = S^2 / (mss_i C_b) in packets, long double */
static ld lia_exact(const struct mpqoe_cc_view *v, unsigned int self, ld *s_bytes)
{
	unsigned int i, b = 8;
	ld s = 0, best = -1;

	for (i = 0; i < 8; i++) {
		ld c, r;

		if (!usable(v, i))
			continue;
		c = (ld)ccwnd(v->p[i].cwnd) * cmss(v->p[i].mss);
		r = crtt(v->p[i].rtt_us);
		if (c / (r * r) > best) {
			best = c / (r * r);
			b = i;
		}
	}
	for (i = 0; i < 8; i++) {
		if (usable(v, i))
			s += (ld)ccwnd(v->p[i].cwnd) * cmss(v->p[i].mss) *
			     crtt(v->p[b].rtt_us) / crtt(v->p[i].rtt_us);
	}
	*s_bytes = s;
	return s * s / ((ld)cmss(v->p[self].mss) * ccwnd(v->p[b].cwnd) * cmss(v->p[b].mss));
}

static void check_lia(const struct mpqoe_cc_view *v, unsigned int self)
{
	struct mpqoe_lia_info info, info2;
	struct mpqoe_cc_view v2;
	uint64_t w = mpqoe_lia_w(v, self, &info), w2, cap;
	unsigned int s = self & 7, j;

	cap = (uint64_t)ccwnd(v->p[s].cwnd) << 16;
	assert_true(w >= cap);
	if (!mpqoe_cc_coupled(v, self)) {
		assert_int_equal(w, cap);
		return;
	}
	assert_true(usable(v, s));
	assert_true(usable(v, info.best));
	if (info.w != ~0ULL) {
		ld s_bytes, exact = lia_exact(v, s, &s_bytes) * 65536;

		/* rounded up (never more aggressive than the RFC), by little */
		assert_true((ld)info.w >= exact * (1 - 1e-15L));
		assert_true((ld)info.w <= exact * (1 + 0.07L / s_bytes + 1e-12L) + 1);
	}
	/* a window of a path other than the best one grows: w does not fall */
	j = (unsigned int)(rnd() % 8);
	if (j == info.best || !usable(v, j) || v->p[j].cwnd >= (1U << 24) - 1000)
		return;
	v2 = *v;
	v2.p[j].cwnd = ccwnd(v2.p[j].cwnd) + 1 + (uint32_t)(rnd() % 1000);
	w2 = mpqoe_lia_w(&v2, self, &info2);
	if (info2.best == info.best)
		assert_true(w2 >= w);
}

/* M: the usable paths with the largest (clamped) window */
static uint8_t olia_m(const struct mpqoe_cc_view *v, uint8_t mask)
{
	uint32_t max = 0;
	uint8_t m = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		if (mask & (1U << i) && ccwnd(v->p[i].cwnd) > max)
			max = ccwnd(v->p[i].cwnd);
	for (i = 0; i < 8; i++)
		if (mask & (1U << i) && ccwnd(v->p[i].cwnd) == max)
			m |= (uint8_t)(1U << i);
	return m;
}

/* B: the usable paths with the largest l / rtt^2, compared in 128 bits */
static uint8_t olia_b(const struct mpqoe_cc_view *v, uint8_t mask)
{
	unsigned __int128 key[8], best_l = 0, best_r = 1;
	uint8_t b = 0;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		unsigned __int128 l, r;

		if (!(mask & (1U << i)))
			continue;
		l = v->p[i].inter_loss;
		r = (unsigned __int128)crtt(v->p[i].rtt_us) * crtt(v->p[i].rtt_us);
		key[i] = r;
		if (l * best_r > best_l * r || !b) {
			best_l = l;
			best_r = r;
			b = 1;
		}
	}
	b = 0;
	for (i = 0; i < 8; i++)
		if (mask & (1U << i) &&
		    (unsigned __int128)v->p[i].inter_loss * best_r == best_l * key[i])
			b |= (uint8_t)(1U << i);
	return b;
}

static void check_olia(const struct mpqoe_cc_view *v, unsigned int self)
{
	struct mpqoe_olia_info info, other;
	int64_t inc = mpqoe_olia_inc(v, self, &info), one = 1LL << 32;
	unsigned int s = self & 7, i;
	uint32_t c = ccwnd(v->p[s].cwnd);
	uint8_t mask = 0;
	ld sum = 0;

	assert_true(inc >= -(one / 2 / c) - 1);
	assert_true(inc <= one / c + one / 2 / c);
	if (!mpqoe_cc_coupled(v, self)) {
		assert_int_equal(inc, one / c);
		return;
	}
	for (i = 0; i < 8; i++)
		if (usable(v, i))
			mask |= (uint8_t)(1U << i);
	assert_int_equal(info.m_mask, olia_m(v, mask));
	assert_int_equal(info.b_mask, olia_b(v, mask));
	/* the first term is at most Reno's 1/w */
	if (info.eps_num <= 0)
		assert_true(inc <= one / c);
	if (!(info.b_mask & ~info.m_mask))
		assert_int_equal(info.eps_num, 0);
	/* every path sees the same sets; the a_r sum to 0 */
	for (i = 0; i < 8; i++) {
		if (!(mask & (1U << i)))
			continue;
		mpqoe_olia_inc(v, i, &other);
		assert_int_equal(other.m_mask, info.m_mask);
		assert_int_equal(other.b_mask, info.b_mask);
		assert_true(other.eps_den > 0);
		sum += (ld)other.eps_num / other.eps_den;
	}
	assert_true(fabsl(sum) < 1e-12L);
}

static void check_balia(const struct mpqoe_cc_view *v, unsigned int self)
{
	struct mpqoe_balia_info info;
	struct mpqoe_cc_view v2;
	uint64_t w = mpqoe_balia_w(v, self, &info), cap;
	unsigned int s = self & 7;
	uint32_t raw = v->p[s].cwnd, ss, ss2, lo, hi;

	cap = (uint64_t)ccwnd(raw) << 16;
	assert_true(w >= cap);
	assert_true(w <= 640 * cap + ccwnd(raw));
	if (!mpqoe_cc_coupled(v, self))
		assert_int_equal(w, cap);

	/* Reno's cut at least, 3/4 of the window at most */
	ss = mpqoe_balia_ssthresh(v, self, &info);
	hi = raw >> 1 > 2 ? raw >> 1 : 2;
	lo = raw - (uint32_t)(((uint64_t)raw * 3 + 3) / 4);
	lo = lo > 2 ? lo : 2;
	assert_true(ss >= lo && ss <= hi);
	if (!mpqoe_cc_coupled(v, self)) {
		assert_int_equal(ss, hi);
		return;
	}
	/* a slower self (longer RTT) is cut at least as much */
	v2 = *v;
	v2.p[s].rtt_us = v->p[s].rtt_us + 1 + (uint32_t)(rnd() % 100000);
	if (v2.p[s].rtt_us < v->p[s].rtt_us)
		return;
	ss2 = mpqoe_balia_ssthresh(&v2, self, NULL);
	assert_true(ss2 <= ss);
}

/* the composites: cwnd moves only as far as the acked packets allow */
static void check_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self)
{
	const struct mpqoe_cc_path *p = &v->p[self & 7];
	uint32_t acked = rnd() % 4 ? 1 + (uint32_t)(rnd() % 3) : pick(100000);
	uint64_t clamp = p->cwnd_clamp ? p->cwnd_clamp : ~0U;
	uint64_t lo = p->cwnd < clamp ? p->cwnd : clamp;
	uint64_t hi = (uint64_t)p->cwnd + acked + 1;
	struct mpqoe_cc_carry c = { rnd() % 2 ? 0 : rnd() >> 20, 0 }, c2 = c;
	uint32_t r, r2;

	hi = hi < clamp ? hi : clamp;
	r = mpqoe_lia_cong_avoid(v, self, acked, &c, NULL);
	assert_true(r >= lo && r <= hi);
	/* more acked packets never give a smaller window */
	if (acked < (1U << 31)) {
		r2 = mpqoe_lia_cong_avoid(v, self, acked + 1 + (uint32_t)(rnd() % 10), &c2, NULL);
		assert_true(r2 >= r);
	}

	c = (struct mpqoe_cc_carry){ rnd() % 2 ? 0 : rnd() >> 20, 0 };
	r = mpqoe_balia_cong_avoid(v, self, acked, &c, NULL);
	assert_true(r >= lo && r <= hi);

	c = (struct mpqoe_cc_carry){ 0, (int64_t)(rnd() % (1ULL << 33)) - (1LL << 32) + 1 };
	r = mpqoe_olia_cong_avoid(v, self, acked, &c, NULL);
	assert_true(c.frac > -(1LL << 32) && c.frac < (1LL << 32));
	assert_true(r >= 1 || !p->cwnd);
	assert_true(r <= (uint64_t)p->cwnd + 2 * (uint64_t)acked + 1);
}

/* the same paths in another order give the same results */
static void check_order(const struct mpqoe_cc_view *v, unsigned int self)
{
	struct mpqoe_cc_view v2 = *v;
	unsigned int perm[8], i, s = self & 7, n = v->n < 8 ? v->n : 8;
	uint64_t a, b;

	if (s >= n)
		return;
	for (i = 0; i < 8; i++)
		perm[i] = i;
	for (i = n; i > 1; i--) {
		unsigned int j = (unsigned int)(rnd() % i), t = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++)
		v2.p[perm[i]] = v->p[i];
	assert_int_equal(mpqoe_olia_inc(v, s, NULL), mpqoe_olia_inc(&v2, perm[s], NULL));
	a = mpqoe_balia_w(v, s, NULL);
	assert_int_equal(a, mpqoe_balia_w(&v2, perm[s], NULL));
	/*
	 * LIA: a tie for the best path may pick another one in the new
	 * order, with the same w in exact arithmetic but other roundings
	 * of S (each term up by at most 2^-8 byte)
	 */
	a = mpqoe_lia_w(v, s, NULL);
	b = mpqoe_lia_w(&v2, perm[s], NULL);
	if (mpqoe_cc_coupled(v, s)) {
		ld s_bytes, tol;

		lia_exact(v, s, &s_bytes);
		tol = (ld)a * 0.07L / s_bytes + 2;
		assert_true((ld)(a > b ? a - b : b - a) <= tol);
	} else {
		assert_int_equal(a, b);
	}
	assert_int_equal(mpqoe_balia_ssthresh(v, s, NULL),
			 mpqoe_balia_ssthresh(&v2, perm[s], NULL));
}

static void test_random(void **unused)
{
	struct mpqoe_cc_view v;
	unsigned int k, coupled = 0;

	(void)unused;
	for (k = 0; k < ROUNDS; k++) {
		unsigned int self = (unsigned int)(rnd() % 10);	/* >= 8: masked */

		random_view(&v);
		coupled += mpqoe_cc_coupled(&v, self);
		check_lia(&v, self);
		check_olia(&v, self);
		check_balia(&v, self);
		check_cong_avoid(&v, self);
		check_order(&v, self);
	}
	print_message("%u of %u random views coupled\n", coupled, ROUNDS);
	assert_true(coupled > ROUNDS / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
