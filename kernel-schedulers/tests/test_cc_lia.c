// SPDX-License-Identifier: GPL-2.0
/*
 * LIA (RFC 6356) on hand-computed values, its reduction to Reno, and a
 * comparison with the integer arithmetic of the multipath-tcp.org
 * kernel's mptcp_coupled.c (4.x, srtt in us << 3), transcribed below.
 *
 * Notation: C_k = cwnd_k * mss_k (bytes), b = argmax C_k / rtt_k^2,
 * S = sum_k C_k rtt_b / rtt_k, w_i = max(S^2 / (mss_i C_b), cwnd_i)
 * acked packets per +1 (returned << 16), alpha = C_total C_b / S^2.
 */
#include <stdlib.h>

#include "test_cc_util.h"

static uint64_t lia_w(const struct mpqoe_cc_view *v, unsigned int self,
		      struct mpqoe_lia_info *info)
{
	return mpqoe_lia_w(v, self, info);
}

/*
 * Two equal paths, cwnd 10, 10 ms, mss 1000: C = 10000 each, b = 0
 * (tie: the first), S = 20000, w = 20000^2 / (1000 * 10000) = 40
 * (= 2621440 << 16 units); alpha = 20000 * 10000 / 20000^2 = 0.5.
 */
static void test_equal_paths(void **unused)
{
	static const uint32_t cw[] = { 10, 10 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;
	struct mpqoe_lia_info info;
	unsigned int self;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	for (self = 0; self < 2; self++) {
		assert_int_equal(lia_w(&v, self, &info), 40 * ONE_W);
		assert_int_equal(info.alpha, 32768);
		assert_int_equal(info.best, 0);
		assert_false(info.reno);
		assert_false(info.capped);
	}
}

/*
 * cwnd (10, 20), rtt (10 ms, 20 ms): C/rtt^2 = 1e-4 vs 5e-5 (per us^2
 * * 1000), b = 0; S = 10000 + 20000 * 10/20 = 20000 bytes; w = 40 on
 * both (the caps 10 and 20 do not bind); alpha = 30000 * 10000 /
 * 20000^2 = 0.75 = 49152 / 2^16.
 */
static void test_rtt_weighting(void **unused)
{
	static const uint32_t cw[] = { 10, 20 }, rtt[] = { 10000, 20000 };
	struct mpqoe_cc_view v;
	struct mpqoe_lia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	assert_int_equal(lia_w(&v, 0, &info), 40 * ONE_W);
	assert_int_equal(info.alpha, 49152);
	assert_int_equal(lia_w(&v, 1, &info), 40 * ONE_W);
	assert_int_equal(info.best, 0);
}

/*
 * cwnd (10, 3), rtt (10 ms, 25 ms): b = 0; S = 10000 + 3000 * 10/25 =
 * 11200 bytes; w = 11200^2 / (1000 * 10000) = 12.544 packets =
 * 822083.584 << 16 units, rounded up: 822084. alpha = 13000 * 10000 /
 * 11200^2 = 1.0363520 = 67918.4 / 2^16, rounded down: 67918.
 */
static void test_rounding(void **unused)
{
	static const uint32_t cw[] = { 10, 3 }, rtt[] = { 10000, 25000 };
	struct mpqoe_cc_view v;
	struct mpqoe_lia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	assert_int_equal(lia_w(&v, 0, &info), 822084);
	assert_int_equal(info.alpha, 67918);
	assert_int_equal(lia_w(&v, 1, &info), 822084);
}

/*
 * Bytes, not packets: cwnd (10, 10), equal RTT, mss (1000, 500).
 * C = (10000, 5000), b = 0, S = 15000 bytes. Path 0: w = 15000^2 /
 * (1000 * 10000) = 22.5; path 1: 15000^2 / (500 * 10000) = 45 (the
 * same increase in bytes per acked byte). alpha = 15000 * 10000 /
 * 15000^2 = 2/3 = 43690.67 / 2^16 -> 43690.
 */
static void test_mss_in_bytes(void **unused)
{
	static const uint32_t cw[] = { 10, 10 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;
	struct mpqoe_lia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	v.p[1].mss = 500;
	assert_int_equal(lia_w(&v, 0, &info), 45 * ONE_W / 2);
	assert_int_equal(info.alpha, 43690);
	assert_int_equal(lia_w(&v, 1, &info), 45 * ONE_W);
}

/*
 * The 1/cwnd_i cap: cwnd (10, 1000), rtt (10 ms, 1100 ms). C/rtt^2:
 * 1e-4 vs 8.26e-7, b = 0; S = 10 + 1000 * 10/1100 = 19.09 packets;
 * S^2 / C_b = 36.45 packets (2388544 << 16 units, as the core rounds)
 * < cwnd_1 = 1000: path 1 gets Reno's 1/1000, path 0 the coupled 36.45.
 */
static void test_cap(void **unused)
{
	static const uint32_t cw[] = { 10, 1000 }, rtt[] = { 10000, 1100000 };
	struct mpqoe_cc_view v;
	struct mpqoe_lia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	assert_int_equal(lia_w(&v, 1, &info), 1000 * ONE_W);
	assert_true(info.capped);
	assert_int_equal(info.w, 2388544);
	assert_int_equal(lia_w(&v, 0, &info), 2388544);
	assert_false(info.capped);
}

/*
 * One usable path: S = C, w = C^2 / (mss C) = cwnd exactly, alpha = 1,
 * for every window, RTT and mss; also when the other paths are not
 * usable (flag, no RTT sample, beyond n).
 */
static void test_single_path_is_reno(void **unused)
{
	static const uint32_t rtts[] = { 1, 16, 999, 10000, 123457, 1U << 28 };
	static const uint32_t mss[] = { 1, 536, 1448, 9000, 65535 };
	struct mpqoe_cc_view v;
	struct mpqoe_lia_info info;
	uint32_t c;
	unsigned int r, m;

	(void)unused;
	for (c = 1; c < (1U << 24); c = c < 3000 ? c + 1 : c * 3 + 7) {
		for (r = 0; r < 6; r++) {
			for (m = 0; m < 5; m++) {
				memset(&v, 0, sizeof(v));
				v.n = 1;
				v.p[0] = cc_path(c, rtts[r]);
				v.p[0].mss = mss[m];
				assert_int_equal(lia_w(&v, 0, &info), (uint64_t)c << 16);
				assert_int_equal(info.alpha, ONE_W);
				assert_true(info.reno);
			}
		}
	}
	v.n = 4;
	v.p[0] = cc_path(50, 20000);
	v.p[1] = cc_path(50, 5000);
	v.p[1].usable = 0;
	v.p[2] = cc_path(50, 0);
	v.p[4] = cc_path(50, 5000);
	assert_false(mpqoe_cc_coupled(&v, 0));
	assert_int_equal(lia_w(&v, 0, &info), 50 * ONE_W);
	assert_true(info.reno);
}

static uint32_t lia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
			       uint32_t acked, struct mpqoe_cc_carry *c)
{
	return mpqoe_lia_cong_avoid(v, self, acked, c, NULL);
}

static const struct cc_hooks lia_hooks = { lia_cong_avoid, mpqoe_lia_ssthresh };

/* The composite with no other usable path is Linux's Reno, ACK by ACK. */
static void test_cong_avoid_single_is_linux(void **unused)
{
	struct mpqoe_cc_view v;

	(void)unused;
	memset(&v, 0, sizeof(v));
	v.n = 2;
	v.p[0] = cc_path(3, 20000);
	v.p[0].ssthresh = 40;
	v.p[1] = cc_path(30, 0);		/* no RTT sample yet */
	assert_reno_trace(&v, &lia_hooks, 7, 997, 3);
}

/*
 * Acked packets count, not ACK events: with w = 40 (two equal paths of
 * 10), 40 ACKs of 1 packet or 20 ACKs of 2 packets each give +1; 39
 * packets do not.
 */
static void test_counts_packets(void **unused)
{
	static const uint32_t cw[] = { 10, 10 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;
	struct mpqoe_cc_carry c = { 0 };
	unsigned int k;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	for (k = 0; k < 39; k++)
		assert_int_equal(mpqoe_lia_cong_avoid(&v, 0, 1, &c, NULL), 10);
	assert_int_equal(mpqoe_lia_cong_avoid(&v, 0, 1, &c, NULL), 11);

	mpqoe_cc_carry_reset(&c);
	for (k = 0; k < 19; k++)
		assert_int_equal(mpqoe_lia_cong_avoid(&v, 0, 2, &c, NULL), 10);
	assert_int_equal(mpqoe_lia_cong_avoid(&v, 0, 2, &c, NULL), 11);
	assert_int_equal(c.cnt, 0);
}

/*
 * Slow start is uncoupled and its leftover goes to CA: cwnd 5, ssthresh
 * 8, 5 acked: +3 to 8, the 2 left are counted towards the coupled +1
 * (w at cwnd 8 with the sibling's 10 is > 2): cwnd 8, counter 2 packets.
 */
static void test_slow_start_leftover(void **unused)
{
	static const uint32_t cw[] = { 5, 10 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;
	struct mpqoe_cc_carry c = { 0 };
	struct mpqoe_lia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	v.p[0].ssthresh = 8;
	assert_int_equal(mpqoe_lia_cong_avoid(&v, 0, 5, &c, &info), 8);
	assert_int_equal(c.cnt, 2 * ONE_W);
	/* b = 1 (cwnd 10), S = 18, w = 18^2 / 10 = 32.4 */
	assert_int_equal(info.w, 2123367);	/* ceil(32.4 * 2^16) = 2123366.4 -> 2123367 */
	assert_int_equal(mpqoe_lia_ssthresh(&v, 1), 5);
}

/*
 * The reference (multipath-tcp.org mptcp_coupled.c, 4.x): alpha' =
 * (c_b << 32) / (sum_i (c_i << 10) * srtt_b / srtt_i)^2 with srtt in
 * us << 3 and b the last path with the largest (c << 32) / srtt^2; if
 * alpha' is 0 it is 1; ACK events per +1: max((1 << 12) / alpha', c_self).
 */
static uint64_t ref_lia_thr(const uint32_t *cw, const uint32_t *rtt_us, unsigned int n,
			    unsigned int self)
{
	uint64_t max_num = 0, sum = 0, alpha, thr, best_rtt = 0, best_cwnd = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t srtt = (uint64_t)rtt_us[i] << 3;
		uint64_t tmp = ((uint64_t)cw[i] << 32) / (srtt * srtt);

		if (tmp >= max_num) {
			max_num = tmp;
			best_cwnd = cw[i];
			best_rtt = srtt;
		}
	}
	for (i = 0; i < n; i++)
		sum += (((uint64_t)cw[i] << 10) * best_rtt) / ((uint64_t)rtt_us[i] << 3);
	sum *= sum;
	alpha = (best_cwnd << 32) / sum;
	if (!alpha)
		alpha = 1;
	thr = (1ULL << 12) / alpha;
	return thr < cw[self] ? cw[self] : thr;
}

/* Small windows, sound arithmetic: the reference and the core agree (40). */
static void test_reference_agrees(void **unused)
{
	static const uint32_t cw[] = { 10, 10 }, rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	assert_int_equal(ref_lia_thr(cw, rtt, 2, 0), 40);
	assert_int_equal(lia_w(&v, 0, NULL), 40 * ONE_W);
}

/*
 * alpha' is floored to 2^-12 of alpha / cwnd_total. Two equal paths of
 * 500: RFC w = 1000^2 / 500 = 2000; alpha' = 500 * 2^32 / (1000 *
 * 1024)^2 = 2.048 -> 2, w = 4096 / 2 = 2048 (2.4 % too slow). Of 2500:
 * RFC 10000; alpha' = 0.41 -> 0 -> 1, w = 4096 (2.44 times too fast).
 */
static void test_reference_alpha_floor(void **unused)
{
	static const uint32_t c1[] = { 500, 500 }, c2[] = { 2500, 2500 };
	static const uint32_t rtt[] = { 10000, 10000 };
	struct mpqoe_cc_view v;

	(void)unused;
	cc_view(&v, 2, c1, rtt);
	assert_int_equal(ref_lia_thr(c1, rtt, 2, 0), 2048);
	assert_int_equal(lia_w(&v, 0, NULL), 2000 * ONE_W);
	cc_view(&v, 2, c2, rtt);
	assert_int_equal(ref_lia_thr(c2, rtt, 2, 0), 4096);
	assert_int_equal(lia_w(&v, 0, NULL), 10000 * ONE_W);
}

/*
 * Underflow of the reference's best-path choice with us RTTs: cwnd
 * (20, 10), rtt (100 ms, 120 ms). (20 << 32) / 800000^2 = 0.13 and
 * (10 << 32) / 960000^2 = 0.05 both floor to 0, so the last path is
 * "best": sum = 20*1024*1.2 + 10*1024 = 34816, alpha' = (10 << 32) /
 * 34816^2 = 35.4 -> 35, w = 4096 / 35 = 117. The true best is path 0
 * (20 / 100^2 > 10 / 120^2): S = 20 + 10 * 100/120 = 28.33, w = S^2 /
 * 20 = 40.139 (2630542.2 in 2^-16, the core's rounding up gives 2630543).
 */
static void test_reference_us_underflow(void **unused)
{
	static const uint32_t cw[] = { 20, 10 }, rtt[] = { 100000, 120000 };
	struct mpqoe_cc_view v;
	struct mpqoe_lia_info info;

	(void)unused;
	cc_view(&v, 2, cw, rtt);
	assert_int_equal(ref_lia_thr(cw, rtt, 2, 0), 117);
	assert_int_equal(lia_w(&v, 0, &info), 2630543);
	assert_int_equal(info.best, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_paths),
		cmocka_unit_test(test_rtt_weighting),
		cmocka_unit_test(test_rounding),
		cmocka_unit_test(test_mss_in_bytes),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_single_path_is_reno),
		cmocka_unit_test(test_cong_avoid_single_is_linux),
		cmocka_unit_test(test_counts_packets),
		cmocka_unit_test(test_slow_start_leftover),
		cmocka_unit_test(test_reference_agrees),
		cmocka_unit_test(test_reference_alpha_floor),
		cmocka_unit_test(test_reference_us_underflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
