// SPDX-License-Identifier: GPL-2.0
/*
 * The arithmetic shared by the coupled congestion control cores: 128-bit
 * multiply-divide and compare against the compiler's unsigned __int128,
 * and Reno's slow start, increase and halving against a transcription of
 * Linux 6.12's tcp_reno_cong_avoid() (exact equality, every ACK).
 */
#include "test_cc_util.h"

typedef unsigned __int128 u128;

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* values of every magnitude, edges included */
static uint64_t any_u64(void)
{
	switch (rnd() % 6) {
	case 0:
		return rnd() % 4;
	case 1:
		return ~0ULL - rnd() % 4;
	case 2:
		return 1ULL << (rnd() % 64);
	default:
		return rnd() >> (rnd() % 64);
	}
}

static uint64_t ref_muldiv(uint64_t a, uint64_t b, uint64_t d, int up)
{
	u128 p = (u128)a * b, q = p / d;

	if (up && p % d)
		q++;
	return q > ~0ULL ? ~0ULL : (uint64_t)q;
}

/* floor and ceil of a * b / d equal __int128's, saturating at 2^64 - 1 */
static void test_muldiv_random(void **unused)
{
	unsigned int k;

	(void)unused;
	for (k = 0; k < 1000000; k++) {
		uint64_t a = any_u64(), b = any_u64(), d = any_u64();

		if (!d)
			d = 1;
		assert_int_equal(mpqoe_cc_muldiv(a, b, d), ref_muldiv(a, b, d, 0));
		assert_int_equal(mpqoe_cc_muldiv_up(a, b, d), ref_muldiv(a, b, d, 1));
	}
}

/* hand-picked edges of the two-digit division */
static void test_muldiv_edges(void **unused)
{
	(void)unused;
	/* 2^64 * 2^63 / 2^63 = 2^64: does not fit */
	assert_int_equal(mpqoe_cc_muldiv(1ULL << 63, 2, 1), ~0ULL);
	/* (2^64 - 1)^2 / (2^64 - 1) = 2^64 - 1 exactly */
	assert_int_equal(mpqoe_cc_muldiv(~0ULL, ~0ULL, ~0ULL), ~0ULL);
	/* (2^64 - 1)^2 / 2^64 = 2^64 - 2 (remainder 1) */
	assert_int_equal(mpqoe_cc_muldiv(~0ULL, ~0ULL, 1ULL << 63), ~0ULL);
	assert_int_equal(mpqoe_cc_muldiv(~0ULL, 1ULL << 32, 1ULL << 33),
			 (~0ULL) >> 1);
	/* 10 * 10 / 3 = 33.3: floor 33, ceil 34; exact stays exact */
	assert_int_equal(mpqoe_cc_muldiv(10, 10, 3), 33);
	assert_int_equal(mpqoe_cc_muldiv_up(10, 10, 3), 34);
	assert_int_equal(mpqoe_cc_muldiv_up(10, 10, 4), 25);
	/* 2^40 * 2^40 / (2^48 + 1): quotient 2^32 - 1 (2^80 / 2^48 = 2^32, minus) */
	assert_int_equal(mpqoe_cc_muldiv(1ULL << 40, 1ULL << 40, (1ULL << 48) + 1),
			 (1ULL << 32) - 1);
	/* d = 0 is treated as 1 rather than trapping */
	assert_int_equal(mpqoe_cc_muldiv(7, 6, 0), 42);
}

static int ref_cmp(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	u128 x = (u128)a * b, y = (u128)c * d;

	return x < y ? -1 : x > y;
}

static void test_cmp_mul(void **unused)
{
	unsigned int k;

	(void)unused;
	for (k = 0; k < 1000000; k++) {
		uint64_t a = any_u64(), b = any_u64(), c = any_u64(), d = any_u64();

		assert_int_equal(mpqoe_cc_cmp_mul(a, b, c, d), ref_cmp(a, b, c, d));
		assert_int_equal(mpqoe_cc_cmp_mul(a, b, b, a), 0);
	}
	/* (2^64-1) * 2 vs 2^63 * 4: 2^65 - 2 < 2^65 */
	assert_int_equal(mpqoe_cc_cmp_mul(~0ULL, 2, 1ULL << 63, 4), -1);
}

/*
 * mpqoe_cc_ai() with a fractional w: w = 2.5 packets. Acked one at a
 * time: 3 acks reach 3 >= 2.5 (+1, 0.5 left), 2 more reach 2.5 (+1, 0).
 */
static void test_ai_fraction(void **unused)
{
	u64 cnt = 0, w = 5 * ONE_W / 2;
	uint32_t cwnd = 10;
	unsigned int k;
	static const uint32_t after[5] = { 10, 10, 11, 11, 12 };

	(void)unused;
	for (k = 0; k < 5; k++) {
		cwnd = mpqoe_cc_ai(cwnd, &cnt, w, 1, ~0U);
		assert_int_equal(cwnd, after[k]);
	}
	assert_int_equal(cnt, 0);
	/* 7 acks in one call: 7 / 2.5 = 2 steps, 2 packets (2 << 16) left */
	cwnd = mpqoe_cc_ai(cwnd, &cnt, w, 7, ~0U);
	assert_int_equal(cwnd, 14);
	assert_int_equal(cnt, 2 * ONE_W);
	/* credits left from a larger w: one step, counter restarts (as the kernel) */
	cnt = 30 * ONE_W;
	cwnd = mpqoe_cc_ai(20, &cnt, 20 * ONE_W, 1, ~0U);
	assert_int_equal(cwnd, 21);
	assert_int_equal(cnt, ONE_W);
	/* the clamp holds */
	cnt = 0;
	assert_int_equal(mpqoe_cc_ai(10, &cnt, ONE_W, 100, 50), 50);
}

/*
 * mpqoe_cc_add(): inc = 0.3 packet per ack (floor(0.3 * 2^32) =
 * 1288490188). 3 acks: 0.9 (no step); 4th: 1.2 -> +1, 0.2 left.
 * Negative: -0.75 per ack from cwnd 3: 2 acks -1.5 -> -1, -0.5 left;
 * 4 more: -3.5 -> -3 would go to 0: the floor is 1.
 */
static void test_add_signed(void **unused)
{
	s64 frac = 0, inc = 1288490188;
	uint32_t cwnd = 10;

	(void)unused;
	cwnd = mpqoe_cc_add(cwnd, &frac, inc, 3, ~0U);
	assert_int_equal(cwnd, 10);
	assert_int_equal(frac, 3 * inc);
	cwnd = mpqoe_cc_add(cwnd, &frac, inc, 1, ~0U);
	assert_int_equal(cwnd, 11);
	assert_int_equal(frac, 4 * inc - ONE_INC);

	frac = 0;
	cwnd = mpqoe_cc_add(3, &frac, -3 * (ONE_INC / 4), 2, ~0U);
	assert_int_equal(cwnd, 2);
	assert_int_equal(frac, -ONE_INC / 2);
	cwnd = mpqoe_cc_add(cwnd, &frac, -3 * (ONE_INC / 4), 4, ~0U);
	assert_int_equal(cwnd, 1);
	assert_int_equal(frac, -ONE_INC / 2);
	/* clamp */
	frac = 0;
	assert_int_equal(mpqoe_cc_add(10, &frac, ONE_INC, 5, 12), 12);
	assert_int_equal(frac, 0);
}

/* cwnd 10, ssthresh 15: 8 acked -> 15, 3 left for CA; clamp 12 -> 12 */
static void test_slow_start(void **unused)
{
	uint32_t cwnd = 10;

	(void)unused;
	assert_int_equal(mpqoe_cc_slow_start(&cwnd, 15, 8, ~0U), 3);
	assert_int_equal(cwnd, 15);
	cwnd = 10;
	assert_int_equal(mpqoe_cc_slow_start(&cwnd, 15, 4, ~0U), 0);
	assert_int_equal(cwnd, 14);
	cwnd = 10;
	assert_int_equal(mpqoe_cc_slow_start(&cwnd, 15, 8, 12), 3);
	assert_int_equal(cwnd, 12);
	cwnd = 20;	/* not in slow start: everything left */
	assert_int_equal(mpqoe_cc_slow_start(&cwnd, 15, 8, ~0U), 8);
	assert_int_equal(cwnd, 20);
}

/* tcp_reno_ssthresh(): cwnd / 2, at least 2 */
static void test_reno_ssthresh(void **unused)
{
	static const uint32_t cw[] = { 0, 1, 2, 3, 4, 5, 6, 7, 100, 101, ~0U };
	static const uint32_t ss[] = { 2, 2, 2, 2, 2, 2, 3, 3, 50, 50, 0x7fffffff };
	unsigned int i;

	(void)unused;
	for (i = 0; i < sizeof(cw) / sizeof(cw[0]); i++) {
		assert_int_equal(mpqoe_cc_reno_ssthresh(cw[i]), ss[i]);
		assert_int_equal(mpqoe_cc_reno_ssthresh(cw[i]), linux_reno_ssthresh(cw[i]));
	}
}

/*
 * Reno as the cores run it equals Linux's, ACK by ACK, over random
 * ACK sizes, losses (halving, counter reset as tcp_init_cwnd_reduction()
 * does) and clamps; the counter is Linux's snd_cwnd_cnt << 16.
 */
static void test_reno_equals_linux(void **unused)
{
	struct mpqoe_cc_carry c = { 0 };
	struct mpqoe_cc_path p = cc_path(2, 10000);
	struct linux_tp tp = { .snd_cwnd = 2, .snd_ssthresh = 0x7fffffff,
			       .snd_cwnd_clamp = ~0U };
	unsigned int k;

	(void)unused;
	p.ssthresh = tp.snd_ssthresh;
	for (k = 0; k < 2000000; k++) {
		uint32_t acked = rnd() % 8 ? 1 + rnd() % 3 : (uint32_t)(rnd() % 200);

		if (rnd() % 500 == 0) {			/* a loss */
			tp.snd_ssthresh = linux_reno_ssthresh(tp.snd_cwnd);
			tp.snd_cwnd = rnd() % 4 ? tp.snd_ssthresh : 1;
			tp.snd_cwnd_cnt = 0;
			p.ssthresh = mpqoe_cc_reno_ssthresh(p.cwnd);
			p.cwnd = tp.snd_cwnd;
			mpqoe_cc_carry_reset(&c);
		}
		if (rnd() % 100000 == 0)
			tp.snd_cwnd_clamp = rnd() % 2 ? 50 + rnd() % 1000 : ~0U;
		p.cwnd_clamp = tp.snd_cwnd_clamp;
		linux_reno_cong_avoid(&tp, acked);
		p.cwnd = mpqoe_cc_reno_cong_avoid(&p, acked, &c);
		assert_int_equal(p.cwnd, tp.snd_cwnd);
		assert_int_equal(c.cnt, (uint64_t)tp.snd_cwnd_cnt << MPQOE_CC_W_SHIFT);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_muldiv_random),
		cmocka_unit_test(test_muldiv_edges),
		cmocka_unit_test(test_cmp_mul),
		cmocka_unit_test(test_ai_fraction),
		cmocka_unit_test(test_add_signed),
		cmocka_unit_test(test_slow_start),
		cmocka_unit_test(test_reno_ssthresh),
		cmocka_unit_test(test_reno_equals_linux),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
