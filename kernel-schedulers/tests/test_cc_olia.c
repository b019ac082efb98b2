// SPDX-License-Identifier: GPL-2.0
/*
 * OLIA on hand-computed values: the sets M (largest window) and B
 * (largest l_r / rtt_r^2), a_r = eps_num / eps_den, the increase
 * inc_r = w_r / E_r^2 + a_r / w_r with E_r = sum_p w_p rtt_r / rtt_p,
 * in 2^-32 packet per acked packet; the reduction to Reno, the loss
 * marks, and the multipath-tcp.org mptcp_olia.c arithmetic (2^-10
 * packet per ACK event, remainder dropped at each step) for comparison.
 */
#include <stdlib.h>

#include "test_cc_util.h"

static void olia_view(struct mpqoe_cc_view *v, unsigned int n, const uint32_t *cw,
		      const uint32_t *rtt, const uint32_t *loss)
{
	unsigned int i;

	cc_view(v, n, cw, rtt);
	for (i = 0; i < n; i++)
		v->p[i].inter_loss = loss[i];
}

/*
 * w (10, 5), equal RTT, l (1000, 5000) bytes: M = {0}, B = {1}, B \ M
 * = {1}, |R| = 2: a_0 = -1/2, a_1 = +1/2. E = 15 on both paths.
 * Path 0: w/E^2 = 10/225 = 0.0444444 -> 190887435 (floor of the two
 * chained quotients), a/w = -1/20 = -214748364.8 -> -214748365 (down):
 * inc = -23860930 (< 0: the larger window shrinks). Path 1: 5/225 ->
 * 95443717, +1/10 -> 429496729: inc = 524940446 (0.1222 packet).
 */
static void test_two_paths(void **unused)
{
	static const uint32_t cw[] = { 10, 5 }, rtt[] = { 10000, 10000 };
	static const uint32_t loss[] = { 1000, 5000 };
	struct mpqoe_cc_view v;
	struct mpqoe_olia_info info;

	(void)unused;
	olia_view(&v, 2, cw, rtt, loss);
	assert_int_equal(mpqoe_olia_inc(&v, 0, &info), -23860930);
	assert_int_equal(info.m_mask, 0x1);
	assert_int_equal(info.b_mask, 0x2);
	assert_int_equal(info.eps_num, -1);
	assert_int_equal(info.eps_den, 2);
	assert_int_equal(mpqoe_olia_inc(&v, 1, &info), 524940446);
	assert_int_equal(info.eps_num, 1);
	assert_int_equal(info.eps_den, 2);
}

/*
 * M holds only the largest window: w (10, 9), l (1000, 5000): M = {0},
 * B = {1}, a = (-1/2, +1/2) as in test_two_paths. E = 19: path 1: 9/361
 * = 0.0249307 -> 107076746, +1/18 -> 238609294: inc 345686040.
 */
static void test_m_is_exact(void **unused)
{
	static const uint32_t cw[] = { 10, 9 }, rtt[] = { 10000, 10000 };
	static const uint32_t loss[] = { 1000, 5000 };
	struct mpqoe_cc_view v;
	struct mpqoe_olia_info info;

	(void)unused;
	olia_view(&v, 2, cw, rtt, loss);
	assert_int_equal(mpqoe_olia_inc(&v, 1, &info), 345686040);
	assert_int_equal(info.m_mask, 0x1);
	assert_int_equal(info.eps_num, 1);
	assert_int_equal(info.eps_den, 2);
}

/*
 * The RTT term: w (10, 10), rtt (10 ms, 20 ms), l equal: B = {0}
 * (shorter RTT), M = {0, 1}, B \ M empty: a = 0. E_0 = 10 + 10 * 10/20
 * = 15: 10/225 -> 190887435; E_1 = 10 * 20/10 + 10 = 30: 10/900 =
 * 0.0111111 -> 47721858.
 */
static void test_rtt_term(void **unused)
{
	static const uint32_t cw[] = { 10, 10 }, rtt[] = { 10000, 20000 };
	static const uint32_t loss[] = { 1000, 1000 };
	struct mpqoe_cc_view v;
	struct mpqoe_olia_info info;

	(void)unused;
	olia_view(&v, 2, cw, rtt, loss);
	assert_int_equal(mpqoe_olia_inc(&v, 0, &info), 190887435);
	assert_int_equal(info.eps_num, 0);
	assert_int_equal(info.m_mask, 0x3);
	assert_int_equal(info.b_mask, 0x1);
	assert_int_equal(mpqoe_olia_inc(&v, 1, &info), 47721858);
	assert_int_equal(info.eps_num, 0);
}

/*
 * Three paths, w (20, 20, 8), equal RTT, l (1000, 1000, 9000): M = {0,
 * 1}, B = {2}: a = (-1/6, -1/6, +1/3), sum 0. E = 48. Path 0 and 1:
 * 20/2304 -> 37282702, -1/120 -> -35791395: 1491307. Path 2: 8/2304 ->
 * 14913080, +1/24 -> 178956970: 193870050.
 */
static void test_three_paths_sum_zero(void **unused)
{
	static const uint32_t cw[] = { 20, 20, 8 }, rtt[] = { 10000, 10000, 10000 };
	static const uint32_t loss[] = { 1000, 1000, 9000 };
	static const int64_t inc[] = { 1491307, 1491307, 193870050 };
	struct mpqoe_cc_view v;
	struct mpqoe_olia_info info;
	unsigned int i;
	int64_t sum = 0;	/* sum of a_r in units of 1/6 */

	(void)unused;
	olia_view(&v, 3, cw, rtt, loss);
	for (i = 0; i < 3; i++) {
		assert_int_equal(mpqoe_olia_inc(&v, i, &info), inc[i]);
		assert_int_equal(info.m_mask, 0x3);
		assert_int_equal(info.b_mask, 0x4);
		assert_int_equal(6 % info.eps_den, 0);
		sum += info.eps_num * (6 / (int64_t)info.eps_den);
	}
	assert_int_equal(sum, 0);
}

/* B inside M: no path is collected, a = 0 everywhere (T1 only). */
static void test_best_is_largest(void **unused)
{
	static const uint32_t cw[] = { 10, 5 }, rtt[] = { 10000, 10000 };
	static const uint32_t loss[] = { 5000, 1000 };
	struct mpqoe_cc_view v;
	struct mpqoe_olia_info info;

	(void)unused;
	olia_view(&v, 2, cw, rtt, loss);
	assert_int_equal(mpqoe_olia_inc(&v, 0, &info), 190887435);
	assert_int_equal(info.eps_num, 0);
	assert_int_equal(mpqoe_olia_inc(&v, 1, &info), 95443717);
	assert_int_equal(info.eps_num, 0);
}

static uint32_t olia_cong_avoid(const struct mpqoe_cc_view *v, unsigned int self,
				uint32_t acked, struct mpqoe_cc_carry *c)
{
	return mpqoe_olia_cong_avoid(v, self, acked, c, NULL);
}

static const struct cc_hooks olia_hooks = { olia_cong_avoid, mpqoe_olia_ssthresh };

/*
 * One usable path: E = w, w / w^2 = 1/w: 2^32 / w, floored (the chained
 * quotients are exact here), for every window; the composite is then
 * Linux's Reno, ACK by ACK.
 */
static void test_single_path(void **unused)
{
	struct mpqoe_cc_view v;
	struct mpqoe_olia_info info;
	uint32_t w;

	(void)unused;
	memset(&v, 0, sizeof(v));
	v.n = 1;
	for (w = 1; w <= (1U << 24); w = w < 5000 ? w + 1 : w * 2 + 1) {
		v.p[0] = cc_path(w, 1 + w % 300000);
		assert_int_equal(mpqoe_olia_inc(&v, 0, &info), (int64_t)((1ULL << 32) / w));
		assert_int_equal(info.eps_num, 0);
		assert_true(info.reno);
	}
	v.p[0] = cc_path(2, 40000);
	v.p[0].ssthresh = 30;
	assert_reno_trace(&v, &olia_hooks, 3, 1009, 4);
}

/*
 * A path in M shrinks in congestion avoidance: w (10, 5) as in
 * test_two_paths, inc_0 = -23860930 per acked packet: 179 packets sum
 * to -4271106470 > -2^32 (no step), the 180th to -4294967400: cwnd 9.
 */
static void test_shrinks_in_m(void **unused)
{
	static const uint32_t cw[] = { 10, 5 }, rtt[] = { 10000, 10000 };
	static const uint32_t loss[] = { 1000, 5000 };
	struct mpqoe_cc_view v;
	struct mpqoe_cc_carry c = { 0 };

	(void)unused;
	olia_view(&v, 2, cw, rtt, loss);
	assert_int_equal(mpqoe_olia_cong_avoid(&v, 0, 179, &c, NULL), 10);
	assert_int_equal(c.frac, -4271106470LL);
	assert_int_equal(mpqoe_olia_cong_avoid(&v, 0, 1, &c, NULL), 9);
	assert_int_equal(c.frac, -4294967400LL + (1LL << 32));
	assert_int_equal(mpqoe_olia_ssthresh(&v, 0), 5);
}

/* l_r = max(bytes since the last loss, bytes between the last two) */
static void test_loss_marks(void **unused)
{
	struct mpqoe_olia_loss l;

	(void)unused;
	mpqoe_olia_loss_init(&l, 1000);
	assert_int_equal(mpqoe_olia_inter_loss(&l, 5000), 4000);
	mpqoe_olia_loss_event(&l, 5000);		/* marks 1000, 5000 */
	assert_int_equal(mpqoe_olia_inter_loss(&l, 6000), 4000);
	mpqoe_olia_loss_event(&l, 6000);		/* marks 5000, 6000 */
	assert_int_equal(mpqoe_olia_inter_loss(&l, 16000), 10000);
	mpqoe_olia_loss_event(&l, 6000);		/* nothing acked since: no shift */
	assert_int_equal(l.loss1, 5000);
	assert_int_equal(mpqoe_olia_inter_loss(&l, 6000), 1000);
	mpqoe_olia_loss_init(&l, 0xffffff00U);		/* sequence wrap */
	assert_int_equal(mpqoe_olia_inter_loss(&l, 0x100), 0x200);
}

/*
 * The reference's increment per ACK event in 2^-10 packet, for the
 * fixed set values of test_two_paths (path 1: eps 1/2, w 5): rate =
 * (1 + sum_p (w_p << 10) srtt_1 / srtt_p)^2 = 15361^2, inc = ((rate +
 * 2 * 5120^2) << 10) / (2 * 5 * rate) = 125 (0.1222 * 1024 = 125.15);
 * the counter steps at 1023 and restarts from 0: +1 per 9 ACK events.
 */
static int64_t ref_olia_cnt_inc(void)
{
	uint64_t rate = 1 + (10ULL << 10) + (5ULL << 10), cs = 5ULL << 10;

	rate *= rate;
	return (int64_t)(((1 * rate + 2 * cs * cs) << 10) / (2 * 5 * rate));
}

/*
 * 1000 packets acked one per ACK: the core steps floor(1000 *
 * 524940446 / 2^32) = 122 times, the reference 1000 / 9 = 111 times;
 * with delayed ACKs (500 ACKs of 2 packets) the core still 122, the
 * reference 500 / 9 = 55.
 */
static void test_reference_steps(void **unused)
{
	s64 inc = 524940446, frac = 0;
	int64_t ref_cnt = 0, step = ref_olia_cnt_inc();
	uint32_t cwnd = 5, ref_cwnd = 5;
	unsigned int k;

	(void)unused;
	assert_int_equal(step, 125);
	for (k = 0; k < 1000; k++) {
		cwnd = mpqoe_cc_add(cwnd, &frac, inc, 1, ~0U);
		ref_cnt += step;
		if (ref_cnt >= 1023) {
			ref_cwnd++;
			ref_cnt = 0;
		}
	}
	assert_int_equal(cwnd - 5, 122);
	assert_int_equal(ref_cwnd - 5, 111);

	frac = 0;
	ref_cnt = 0;
	cwnd = 5;
	ref_cwnd = 5;
	for (k = 0; k < 500; k++) {
		cwnd = mpqoe_cc_add(cwnd, &frac, inc, 2, ~0U);
		ref_cnt += step;		/* one event, whatever was acked */
		if (ref_cnt >= 1023) {
			ref_cwnd++;
			ref_cnt = 0;
		}
	}
	assert_int_equal(cwnd - 5, 122);
	assert_int_equal(ref_cwnd - 5, 55);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_paths),
		cmocka_unit_test(test_m_is_exact),
		cmocka_unit_test(test_rtt_term),
		cmocka_unit_test(test_three_paths_sum_zero),
		cmocka_unit_test(test_best_is_largest),
		cmocka_unit_test(test_single_path),
		cmocka_unit_test(test_shrinks_in_m),
		cmocka_unit_test(test_loss_marks),
		cmocka_unit_test(test_reference_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
