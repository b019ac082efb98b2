// SPDX-License-Identifier: GPL-2.0
/*
 * daps (Sarwar et al. 2013, Algorithm 1) on synthetic snapshots. After
 * each decision the test hands @chunk bytes to the chosen subflow (its
 * queued grows), as the glue's push does; the next call accounts them.
 */
#include "test_util.h"

static struct mpqoe_daps_state st;
static struct mpqoe_sched_input in;

static int setup(void **unused)
{
	(void)unused;
	mpqoe_daps_init(&st);
	in_init(&in, 2);
	in.sf[0].srtt_us = 50000;		/* one-way 25 ms */
	in.sf[1].srtt_us = 100000;		/* one-way 50 ms */
	return 0;			/* cwnd 10 x 1000 B: 10 kB rounds */
}

/* @n decisions; ids chosen go to @out (0 for none) */
static void run(uint32_t *out, unsigned int n, uint64_t chunk)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		int idx = mpqoe_daps_select(&st, &in);

		out[k] = id_of(&in, idx);
		if (idx >= 0)
			in.sf[idx].queued += chunk;
	}
}

static void expect(const uint32_t *got, const uint32_t *want, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (got[k] != want[k])
			fail_msg("decision %u: subflow %u, expected %u", k,
				 got[k], want[k]);
	}
}

/*
 * RTT 50/100 ms: delays 4 and 8 quanta, cycle lcm = 8. Rounds at t = 4
 * (fast), t = 8 (fast, then slow): the RTT ratio 2 of rounds.
 */
static void test_two_paths_ratio(void **unused)
{
	static const uint32_t want[] = { 1, 1, 2, 1, 1, 2, 1, 1, 2 };
	uint32_t got[9];

	(void)unused;
	run(got, 9, 10000);
	expect(got, want, 9);
	assert_int_equal(st.end, 8);
}

/* half-round pushes: each round takes two decisions */
static void test_rounds_are_cwnd_bytes(void **unused)
{
	static const uint32_t want[] = { 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2 };
	uint32_t got[12];

	(void)unused;
	run(got, 12, 5000);
	expect(got, want, 12);
}

/* rounds are cwnd-proportional: a slow path with twice the window */
static void test_cwnd_proportional(void **unused)
{
	static const uint32_t want[] = { 1, 1, 2, 2, 1, 1, 2, 2 };
	uint32_t got[8];

	(void)unused;
	in.sf[1].snd_cwnd = 20;
	run(got, 8, 10000);
	expect(got, want, 8);
}

/* RTT 50/150 ms: delays 4 and 12, three fast rounds per slow one */
static void test_ratio_three(void **unused)
{
	static const uint32_t want[] = { 1, 1, 1, 2, 1, 1, 1, 2 };
	uint32_t got[8];

	(void)unused;
	in.sf[1].srtt_us = 150000;
	run(got, 8, 10000);
	expect(got, want, 8);
}

/* three paths of the smoke test, 50/100/100 ms: equal times, lower RTT first, then list order */
static void test_three_paths(void **unused)
{
	static const uint32_t want[] = { 1, 1, 2, 3, 1, 1, 2, 3 };
	uint32_t got[8];

	(void)unused;
	in_init(&in, 3);
	in.sf[0].srtt_us = 50000;
	in.sf[1].srtt_us = 100000;
	in.sf[2].srtt_us = 100000;
	run(got, 8, 10000);
	expect(got, want, 8);
	/* the slower of two equal-time rounds goes second */
	mpqoe_daps_init(&st);
	in.sf[1].srtt_us = 101000;
	in.sf[2].srtt_us = 99000;
	run(got, 4, 10000);
	assert_int_equal(got[2], 3);
	assert_int_equal(got[3], 2);
}

/* A push bigger than the open round uses up the path's next rounds too. */
static void test_excess_carried(void **unused)
{
	static const uint32_t want[] = { 1, 2, 1, 2 };
	uint32_t got[4];

	(void)unused;
	run(got, 4, 25000);
	expect(got, want, 4);
	/* fast: 25 kB = its rounds at 4 and 8 and half of 12 */
	assert_int_equal(st.sf[slot_of(&st.slots, 1)].next, 12);
	assert_int_equal(st.sf[slot_of(&st.slots, 1)].credit, 5000);
}

/* a path that cannot take data loses its turn in this cycle */
static void test_unavailable_forfeits(void **unused)
{
	static const uint32_t want[] = { 1, 1, 1, 1, 2 };
	uint32_t got[5];

	(void)unused;
	run(got, 2, 10000);			/* fast rounds at 4 and 8 */
	in.sf[1].memory_full = 1;		/* slow's turn at 8 */
	run(got, 2, 10000);			/* new cycle: fast again */
	in.sf[1].memory_full = 0;
	run(got + 2, 3, 10000);
	/* 1 1 | 1 1 (slow skipped) | 1 1 2 */
	assert_int_equal(got[0], 1);
	assert_int_equal(got[1], 1);
	expect(got + 2, want + 2, 3);
	in.sf[0].active = 0;
	in.sf[1].memory_full = 1;
	run(got, 1, 10000);
	assert_int_equal(got[0], 0);
}

/*
 * RTT 50/100/150 ms: delays 4, 8, 12, cycle 24. The 100 ms path cannot
 * take data at its turn at t = 8: its round is skipped, it does not catch
 * up later in the cycle.
 */
static void test_forfeit_mid_cycle(void **unused)
{
	static const uint32_t want[] = { 1, 1, 1, 3, 1, 2, 1, 1, 2, 3 };
	uint32_t got[10];

	(void)unused;
	in_init(&in, 3);
	in.sf[0].srtt_us = 50000;
	in.sf[1].srtt_us = 100000;
	in.sf[2].srtt_us = 150000;
	run(got, 2, 10000);			/* t = 4, 8 fast */
	in.sf[1].memory_full = 1;
	run(got + 2, 1, 10000);			/* t = 12 fast */
	in.sf[1].memory_full = 0;
	run(got + 3, 7, 10000);			/* 12 T, 16 F S, 20 F, 24 F S T */
	expect(got, want, 10);
	assert_int_equal(st.end, 24);
}

/* segments are assigned in the order of their arrival times */
static void test_eight_paths_in_order(void **unused)
{
	unsigned int count[8] = { 0 }, k, i;
	uint32_t prev = 0, cycle_end;

	(void)unused;
	in_init(&in, 8);
	for (i = 0; i < 8; i++)
		in.sf[i].srtt_us = 20000 * (i + 1);	/* one-way 10..80 ms */
	/* delays 4, 8, ..., 32 quanta: lcm 3360, 840 / k rounds of path k */
	for (k = 0; ; k++) {
		int idx = mpqoe_daps_select(&st, &in);

		assert_true(idx >= 0);
		if (k == 0)
			cycle_end = st.end;
		if (st.vt < prev)
			break;		/* the next cycle began */
		prev = st.vt;
		count[idx]++;
		in.sf[idx].queued += 10000;
	}
	assert_int_equal(cycle_end, 3360);
	for (i = 0; i < 8; i++)
		assert_int_equal(count[i], 840 / (i + 1));
}

/* A subflow joining starts a new cycle that includes it. */
static void test_join_and_leave(void **unused)
{
	uint32_t got[4];
	int s;

	(void)unused;
	run(got, 1, 10000);
	in.n = 3;
	in.sf[2] = sf_default(3);
	in.sf[2].srtt_us = 50000;
	run(got, 4, 10000);
	s = slot_of(&st.slots, 3);
	assert_true(st.cycle & (1U << s));
	/* fast paths 1 and 3 share the rounds of time 4 */
	assert_int_equal(got[0], 1);
	assert_int_equal(got[1], 3);
	/* id 1 leaves: its slot and its cycle bit go */
	s = slot_of(&st.slots, 1);
	in.sf[0] = in.sf[2];
	in.n = 2;
	run(got, 1, 10000);
	assert_int_equal(slot_of(&st.slots, 1), -1);
	assert_false(st.cycle & (1U << s));
}

/* no RTT anywhere: the lowest-RTT subflow with window space */
static void test_fallback_without_rtt(void **unused)
{
	uint32_t got[1];

	(void)unused;
	in.sf[0].srtt_us = 0;
	in.sf[1].srtt_us = 0;
	in.sf[0].cwnd_space = 0;
	run(got, 1, 10000);
	assert_int_equal(got[0], 2);
	in.sf[1].cwnd_space = 0;
	run(got, 1, 10000);
	assert_int_equal(got[0], 0);
}

/* daps queues ahead: a full window does not stop it */
static void test_cwnd_full_everywhere(void **unused)
{
	static const uint32_t want[] = { 1, 1, 2 };
	uint32_t got[3];

	(void)unused;
	in.sf[0].cwnd_space = 0;
	in.sf[1].cwnd_space = 0;
	run(got, 3, 10000);
	expect(got, want, 3);
}

static void test_backup_and_none(void **unused)
{
	uint32_t got[2];

	(void)unused;
	in.sf[0].backup = 1;
	run(got, 2, 10000);
	assert_int_equal(got[0], 2);		/* the only non-backup */
	assert_int_equal(got[1], 2);
	in.sf[1].active = 0;
	run(got, 2, 10000);
	assert_int_equal(got[0], 1);		/* backup-only */
	in.sf[0].active = 0;
	run(got, 1, 10000);
	assert_int_equal(got[0], 0);
	in.n = 0;
	assert_int_equal(mpqoe_daps_select(&st, &in), -1);
}

/* reinjections follow upstream and are charged like any data */
static void test_reinject(void **unused)
{
	uint32_t got[2];

	(void)unused;
	run(got, 1, 0);
	in.reinject = 1;
	in.sf[0].queued = 10000;		/* 10 kB went to path 1 */
	assert_int_equal(mpqoe_daps_select(&st, &in), 1);
	in.reinject = 0;
	run(got, 2, 10000);
	assert_int_equal(got[0], 1);		/* its round at 8 */
	assert_int_equal(got[1], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_two_paths_ratio, setup),
		cmocka_unit_test_setup(test_rounds_are_cwnd_bytes, setup),
		cmocka_unit_test_setup(test_cwnd_proportional, setup),
		cmocka_unit_test_setup(test_ratio_three, setup),
		cmocka_unit_test_setup(test_three_paths, setup),
		cmocka_unit_test_setup(test_excess_carried, setup),
		cmocka_unit_test_setup(test_unavailable_forfeits, setup),
		cmocka_unit_test_setup(test_forfeit_mid_cycle, setup),
		cmocka_unit_test_setup(test_eight_paths_in_order, setup),
		cmocka_unit_test_setup(test_join_and_leave, setup),
		cmocka_unit_test_setup(test_fallback_without_rtt, setup),
		cmocka_unit_test_setup(test_cwnd_full_everywhere, setup),
		cmocka_unit_test_setup(test_backup_and_none, setup),
		cmocka_unit_test_setup(test_reinject, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
