// SPDX-License-Identifier: GPL-2.0
/*
 * BALIA on hand-computed values. x_k = w_k / rtt_k, m = argmax x_k,
 * y_k = x_k / x_m (2^-16, rounded up), Y = sum y_k, a_r = x_m / x_r:
 * w_r = 10 w_r Y^2 / ((y_r + 1)(4 y_r + 1)) acked packets per +1
 * (returned in 2^-16), ssthresh = w_r - ceil(w_r / 2 * min(a_r, 1.5)),
 * at least 2. The reduction to Reno, and the multipath-tcp.org
 * mptcp_balia.c arithmetic (integer alpha, integer ai) for comparison.
 */
#include <stdlib.h>

#include "test_cc_util.h"

/*
 * Two equal paths of 10: y = (1, 1), Y = 2, w = 10 * 10 * 4 / (2 * 5)
 * = 40 on both; a = 1: md = 5, ssthresh 5 (Reno's half).
 */
static void test_equal_paths(void **unused)
{
	static const uint32_t cw[] = { 10, 10 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;
	struct mpqoe_balia_info info;
	unsigned int self;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	for (self = 0; self < 2; self++) {
		assert_int_equal(mpqoe_balia_w(&v, self, &info), 40 * ONE_W);
		assert_int_equal(info.alpha, ONE_W);
		assert_false(info.reno);
		assert_int_equal(mpqoe_balia_ssthresh(&v, self, &info), 5);
		assert_int_equal(info.md, 5);
	}
}

/*
 * w (20, 16), equal RTT: y_1 = 0.8 (52428.8 -> 52429), Y = 1.8.
 * Path 1: w = 10 * 16 * 1.8^2 / (1.8 * 4.2) = 68.571 packets =
 * 4493897.1 in 2^-16; the core: ratio ceil(10 * 117965^2 * 2^16 /
 * ((52429 + 65536)(4 * 52429 + 65536))) = 280869, w = 16 * 280869 =
 * 4493904. Path 0 (the fastest, y = 1): w = 20 * Y^2 = 64.8 packets;
 * ratio ceil(117965^2 / 2^16) = 212338, w = 4246760. a_1 = 20/16 =
 * 1.25 = 81920 / 2^16.
 */
static void test_hand_w(void **unused)
{
	static const uint32_t cw[] = { 20, 16 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;
	struct mpqoe_balia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	assert_int_equal(mpqoe_balia_w(&v, 1, &info), 4493904);
	assert_int_equal(info.alpha, 81920);
	assert_int_equal(mpqoe_balia_w(&v, 0, &info), 4246760);
	assert_int_equal(info.alpha, ONE_W);
}

/*
 * Rates, not windows: w (10, 20), rtt (10 ms, 40 ms): x = (1, 0.5) per
 * ms, m = 0, y_1 = 0.5 exactly, Y = 1.5. Path 1: w = 10 * 20 * 2.25 /
 * (1.5 * 3) = 100 packets exactly; a_1 = 2: md = ceil(20 * 0.75) = 15,
 * ssthresh 5. Path 0: w = 10 * 2.25 = 22.5 packets; a_0 = 1: ssthresh 5.
 */
static void test_rates(void **unused)
{
	static const uint32_t cw[] = { 10, 20 }, rtt[] = { 10000, 40000 };
	struct mpqoe_cc_view v;
	struct mpqoe_balia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	assert_int_equal(mpqoe_balia_w(&v, 1, &info), 100 * ONE_W);
	assert_int_equal(info.alpha, 2 * ONE_W);
	assert_int_equal(mpqoe_balia_ssthresh(&v, 1, &info), 5);
	assert_int_equal(info.md, 15);
	assert_int_equal(mpqoe_balia_w(&v, 0, &info), 45 * ONE_W / 2);
	assert_int_equal(mpqoe_balia_ssthresh(&v, 0, &info), 5);
}

static uint32_t ss2(uint32_t w0, uint32_t w1, unsigned int self)
{
	uint32_t cw[2] = { w0, w1 }, rtt[2] = { 10000, 10000 };
	struct mpqoe_cc_view v;

	cc_view(&v, 2, cw, rtt);
	return mpqoe_balia_ssthresh(&v, self, NULL);
}

/*
 * The decrease w / 2 * min(a, 1.5), rounded up, with equal RTTs (a_1 =
 * w_0 / w_1): a = 1.25 (20, 16): md = 16 * 0.625 = 10, ssthresh 6; a =
 * 2.5 (40, 16): md = 16 * 0.75 = 12, ssthresh 4; a = 1.3 (13, 10): a =
 * 85196 / 2^16 (floor of 85196.8), md = ceil(6.49997) = 7, ssthresh 3;
 * a = 1.6 (32, 20): min(a, 1.5) = 1.5, md = 20 * 0.75 = 15, ssthresh
 * 5; a = 1 with an odd window (9, 9): md = ceil(4.5) = 5, ssthresh 4 =
 * Reno's 9 >> 1; a = 20 (40, 2): md = ceil(1.5) = 2, ssthresh 0 -> 2.
 */
static void test_decrease(void **unused)
{
	(void)unused;
	assert_int_equal(ss2(20, 16, 1), 6);
	assert_int_equal(ss2(20, 16, 0), 10);
	assert_int_equal(ss2(40, 16, 1), 4);
	assert_int_equal(ss2(13, 10, 1), 3);
	assert_int_equal(ss2(32, 20, 1), 5);
	assert_int_equal(ss2(9, 9, 0), 4);
	assert_int_equal(ss2(40, 2, 1), 2);
}

static uint32_t balia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
				 uint32_t acked, struct mpqoe_cc_carry *c)
{
	return mpqoe_balia_cong_avoid(v, self, acked, c, NULL);
}

static uint32_t balia_ssthresh(const struct mpqoe_cc_view *v, unsigned int self)
{
	return mpqoe_balia_ssthresh(v, self, NULL);
}

static const struct cc_hooks balia_hooks = { balia_cong_avoid, balia_ssthresh };

/* One usable path: w = cwnd << 16 and ssthresh = Reno's, exactly. */
static void test_single_path(void **unused)
{
	struct mpqoe_cc_view v;
	struct mpqoe_balia_info info;
	uint32_t w;

	(void)unused;
	memset(&v, 0, sizeof(v));
	v.n = 1;
	for (w = 0; w <= (1U << 24); w = w < 5000 ? w + 1 : w * 2 + 1) {
		uint32_t cw = w ? w : 1;

		v.p[0] = cc_path(w, 1 + w % 700000);
		assert_int_equal(mpqoe_balia_w(&v, 0, &info), (uint64_t)cw << 16);
		assert_true(info.reno);
		assert_int_equal(mpqoe_balia_ssthresh(&v, 0, &info), linux_reno_ssthresh(w));
		assert_true(info.reno);
	}
	v.p[0] = cc_path(2, 30000);
	v.p[0].ssthresh = 25;
	assert_reno_trace(&v, &balia_hooks, 5, 1013, 3);
}

/* Acked packets count: w = 40 (test_equal_paths), 20 ACKs of 2 give +1. */
static void test_counts_packets(void **unused)
{
	static const uint32_t cw[] = { 10, 10 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;
	struct mpqoe_cc_carry c = { 0 };
	unsigned int k;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	for (k = 0; k < 19; k++)
		assert_int_equal(mpqoe_balia_cong_avoid(&v, 1, 2, &c, NULL), 10);
	assert_int_equal(mpqoe_balia_cong_avoid(&v, 1, 2, &c, NULL), 11);
}

/*
 * The reference's mptcp_balia_recalc_ai() for path 1 of (20, 16), both
 * 10 ms (srtt_us 80000), mss 1000: x_k = mss * cwnd_k * (10^6 << 3) /
 * srtt_us = (2000000, 1600000) B/s, alpha = 2000000 / 1600000 = 1
 * (integer), ai = (3600000^2 * 10 / 3600000) * 16 / (6400000 +
 * 2000000) = 68 (68.57 floored), md = (16 >> 1) * min(1 << 10, 1536)
 * >> 10 = 8: ssthresh 8 where BALIA's a = 1.25 gives 6.
 */
static void test_reference(void **unused)
{
	const uint64_t x0 = 1000ULL * 20 * (1000000ULL << 3) / 80000;
	const uint64_t x1 = 1000ULL * 16 * (1000000ULL << 3) / 80000;
	uint64_t sum = x0 + x1, alpha = x0 / x1, ai, md;

	(void)unused;
	ai = (sum * sum * 10) / (x1 + x0);
	ai = ai * 16 / ((x1 << 2) + x0);
	md = ((16 >> 1) * (alpha << 10 < (3 << 10) >> 1 ? alpha << 10 : (3 << 10) >> 1)) >> 10;
	assert_int_equal(alpha, 1);
	assert_int_equal(ai, 68);
	assert_int_equal(16 - md, 8);
	assert_int_equal(ss2(20, 16, 1), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_paths),
		cmocka_unit_test(test_hand_w),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_decrease),
		cmocka_unit_test(test_single_path),
		cmocka_unit_test(test_counts_packets),
		cmocka_unit_test(test_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
