// SPDX-License-Identifier: GPL-2.0
/*
 * Random snapshots, extreme values included, for every scheduler: no
 * crash (a division by zero would kill the test), a result in range, and
 * the properties every choice must have. Seeded: reproducible.
 */
#include <stdlib.h>

#include "test_util.h"

#define ROUNDS 200000

static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* small values mostly, extremes sometimes */
static uint64_t pick_u64(uint64_t typical)
{
	switch (rnd() % 8) {
	case 0:
		return 0;
	case 1:
		return ~0ULL;
	case 2:
		return rnd();
	default:
		return typical ? rnd() % typical : 0;
	}
}

static uint32_t pick_u32(uint32_t typical)
{
	return (uint32_t)(rnd() % 8 == 0 ? (rnd() & 1 ? 0 : ~0U) :
			  (typical ? rnd() % typical : 0));
}

static void random_input(struct mpqoe_sched_input *in, struct mpqoe_sched_input *prev)
{
	unsigned int i;

	*in = *prev;
	in->n = (uint8_t)(rnd() % 11);			/* up to 10 claimed */
	in->reinject = rnd() % 5 == 0;
	in->burst = pick_u32(70000);
	in->chunk = pick_u32(40000);
	in->now_us += rnd() % 4 == 0 ? pick_u64(1000000) : rnd() % 5000;
	for (i = 0; i < MPQOE_MAX_SUBFLOWS; i++) {
		struct mpqoe_subflow_view *sf = &in->sf[i];

		if (rnd() % 6 == 0)
			sf->id = (uint32_t)(rnd() % 12);	/* duplicates happen */
		sf->active = rnd() % 5 != 0;
		sf->backup = rnd() % 4 == 0;
		sf->cwnd_space = rnd() % 3 != 0;
		sf->memory_full = rnd() % 6 == 0;
		sf->ca_loss = rnd() % 10 == 0;
		sf->stale_count = (uint8_t)(rnd() % 4);
		sf->stale_inactive = rnd() % 8 == 0;
		sf->srtt_us = pick_u32(300000);
		sf->min_rtt_us = pick_u32(300000);
		sf->snd_cwnd = pick_u32(100);
		sf->packets_in_flight = pick_u32(100);
		sf->mss = pick_u32(1500);
		sf->wmem_queued = pick_u32(4000000);
		sf->pacing_rate = pick_u64(100000000);
		if (rnd() % 2)
			sf->queued = pick_u64(4000000);
		if (rnd() % 2)
			sf->unsent = pick_u64(200000);
		sf->bytes_acked += rnd() % 3 ? rnd() % 100000 : pick_u64(1ULL << 40);
		sf->bytes_sent += rnd() % 3 ? rnd() % 100000 : pick_u64(1ULL << 40);
		/* sometimes more than was sent: the cores must not care */
		sf->bytes_retrans += rnd() % 3 ? rnd() % 10000 : pick_u64(1ULL << 40);
	}
	*prev = *in;
}

static void check(const struct mpqoe_sched_input *in, int idx, int need_space)
{
	unsigned int n = in->n > MPQOE_MAX_SUBFLOWS ? MPQOE_MAX_SUBFLOWS : in->n;
	const struct mpqoe_subflow_view *sf;

	assert_true(idx >= -1 && idx < (int)n);
	if (idx < 0)
		return;
	sf = &in->sf[idx];
	if (in->reinject) {
		assert_true(sf->active || sf->stale_inactive);
		assert_int_equal(sf->queued, 0);
		return;
	}
	assert_true(sf->active);
	assert_false(sf->memory_full);
	if (need_space)
		assert_true(sf->cwnd_space);
}

/*
 * What the glue would push on the pick, for chunks of random sizes: upstream's
 * burst when upstream's push (whole chunks until the burst is spent) fits
 * the room; else whole chunks within the room, or the first chunk alone for
 * a soft room.
 */
static void check_room(const struct mpqoe_sched_input *in, int idx,
		       struct mpqoe_room room)
{
	uint32_t len[4], b;
	uint64_t up = 0, sum = 0;
	unsigned int i, n = (unsigned int)(rnd() % 5);

	for (i = 0; i < n; i++)
		len[i] = (uint32_t)(1 + rnd() % 40000);
	b = mpqoe_fit_burst(room, len, n, in->burst);
	if (idx < 0 || room.bytes == MPQOE_ROOM_ANY || !n) {
		assert_int_equal(b, in->burst);
		return;
	}
	for (i = 0; i < n && up < in->burst; i++)
		up += len[i];
	if (up <= room.bytes) {
		assert_int_equal(b, in->burst);
		return;
	}
	assert_true(b < in->burst || b == len[0]);
	if (room.hard)
		assert_true(b <= room.bytes);
	else
		assert_true(b <= room.bytes || b == len[0]);
	for (i = 0; i < n && sum < b; i++)	/* whole chunks only */
		sum += len[i];
	assert_int_equal(sum, b);
}

static void test_random(void **unused)
{
	static struct mpqoe_sched_input in, prev;
	static struct mpqoe_dft_state dft;
	static struct mpqoe_minrtt_state minrtt;
	static struct mpqoe_gr_sty_state gr;
	static struct mpqoe_tp_sty_state tp;
	static struct mpqoe_tr_sty_state tr;
	static struct mpqoe_bnaware_state bn;
	static struct mpqoe_daps_state daps;
	static struct mpqoe_stats stats;
	unsigned int k;
	int idx;

	(void)unused;
	in_init(&prev, 8);
	for (k = 0; k < ROUNDS; k++) {
		random_input(&in, &prev);
		check(&in, mpqoe_dft_select(&dft, &in), 0);
		idx = mpqoe_minrtt_select(&minrtt, &in);
		check(&in, idx, 1);
		if (idx >= 0 && !in.reinject) {
			assert_false(in.sf[idx].ca_loss);
			assert_true(mpqoe_window_room(&in, idx).bytes > 0);
		}
		check_room(&in, idx, mpqoe_window_room(&in, idx));
		idx = mpqoe_gr_sty_select(&gr, &in);
		check(&in, idx, 1);
		check_room(&in, idx, mpqoe_window_room(&in, idx));
		check(&in, mpqoe_tp_sty_select(&tp, &in), 1);
		check(&in, mpqoe_tr_sty_select(&tr, &in), 1);
		idx = mpqoe_bnaware_select(&bn, &in);
		check(&in, idx, 0);
		check_room(&in, idx, mpqoe_bnaware_room(&bn, &in, idx));
		idx = mpqoe_daps_select(&daps, &in);
		check(&in, idx, 0);
		mpqoe_stats_decision(&stats);
		if (idx >= 0)
			mpqoe_stats_inject(&stats, in.sf[idx].id, rnd() % 3);
	}
	assert_int_equal(stats.decisions, ROUNDS);
	assert_true(stats.switches <= stats.injections);
	assert_true(mpqoe_stats_count(&stats) <= MPQOE_MAX_SUBFLOWS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
