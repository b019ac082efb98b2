// SPDX-License-Identifier: GPL-2.0
/*
 * dft: mptcp_subflow_get_send() / mptcp_subflow_get_retrans() of Linux 6.12
 * on synthetic snapshots.
 */
#include "test_util.h"

static struct mpqoe_dft_state st;
static struct mpqoe_sched_input in;

static int setup(void **unused)
{
	(void)unused;
	mpqoe_dft_init(&st);
	in_init(&in, 3);
	return 0;
}

/* linger = wmem_queued / pacing rate: the lowest wins */
static void test_lowest_linger(void **unused)
{
	(void)unused;
	in.sf[0].wmem_queued = 30000;	/* 30 ms at 1 MB/s */
	in.sf[1].wmem_queued = 40000;
	in.sf[1].pacing_rate = 2000000;	/* 20 ms */
	in.sf[2].wmem_queued = 50000;
	in.sf[2].pacing_rate = 2000000;	/* 25 ms */
	assert_int_equal(mpqoe_dft_select(&st, &in), 1);
}

/* RTT and window space do not matter to upstream's choice */
static void test_ignores_rtt_and_cwnd(void **unused)
{
	(void)unused;
	in.sf[0].wmem_queued = 1000;
	in.sf[0].srtt_us = 500000;
	in.sf[0].cwnd_space = 0;
	in.sf[1].wmem_queued = 2000;
	in.sf[2].wmem_queued = 3000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
}

/* equal linger times: the first subflow of the list */
static void test_tie_first(void **unused)
{
	(void)unused;
	in.sf[0].wmem_queued = 9000;
	in.sf[1].wmem_queued = 1000;
	in.sf[2].wmem_queued = 1000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 1);
	in_init(&in, 3);
	mpqoe_dft_init(&st);
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
}

static void test_backup_not_used_while_active(void **unused)
{
	(void)unused;
	in.sf[0].wmem_queued = 90000;
	in.sf[1].backup = 1;		/* empty backup: linger 0 */
	in.sf[2].active = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
}

static void test_backup_only(void **unused)
{
	(void)unused;
	in.sf[0].active = 0;
	in.sf[1].backup = 1;
	in.sf[1].wmem_queued = 5000;
	in.sf[2].backup = 1;
	in.sf[2].wmem_queued = 4000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 2);
}

static void test_no_active(void **unused)
{
	(void)unused;
	in.sf[0].active = 0;
	in.sf[1].active = 0;
	in.sf[2].active = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), -1);
	in.n = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), -1);
}

/*
 * Upstream quirk: an active non-backup subflow without a pacing rate is
 * skipped but still keeps the backups out, so nothing is picked.
 */
static void test_active_without_rate_blocks_backup(void **unused)
{
	(void)unused;
	in.sf[0].pacing_rate = 0;
	in.sf[1].backup = 1;
	in.sf[2].active = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), -1);
}

/* The best subflow's send buffer is full: nothing, not the second best. */
static void test_memory_full(void **unused)
{
	(void)unused;
	in.sf[0].wmem_queued = 100;
	in.sf[0].memory_full = 1;
	in.sf[1].wmem_queued = 200;
	in.sf[2].wmem_queued = 300;
	assert_int_equal(mpqoe_dft_select(&st, &in), -1);
	in.sf[0].memory_full = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
}

/* "Window full everywhere" does not stop dft: it never looks at cwnd. */
static void test_cwnd_full_everywhere(void **unused)
{
	unsigned int i;

	(void)unused;
	for (i = 0; i < 3; i++) {
		in.sf[i].cwnd_space = 0;
		in.sf[i].wmem_queued = 3000 - 1000 * i;
	}
	assert_int_equal(mpqoe_dft_select(&st, &in), 2);
}

/* avg_pacing_rate = (avg * wmem + pacing * burst) / (burst + wmem) */
static void test_avg_pacing_update(void **unused)
{
	int s;

	(void)unused;
	in.n = 2;
	in.burst = 60000;
	in.sf[0].wmem_queued = 20000;		/* linger 20 ms at 1 MB/s */
	in.sf[1].wmem_queued = 30000;		/* 30 ms */
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
	s = slot_of(&st.slots, 1);
	assert_true(s >= 0);
	/* the rate grew to 5 MB/s meanwhile: avg moves by burst/(burst+wmem) */
	in.sf[0].pacing_rate = 5000000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
	assert_int_equal(st.avg_pacing_rate[s],
			 (1000000ULL * 20000 + 5000000ULL * 60000) / 80000);
	/* 4 MB/s: 60000 B linger 15 ms, now below subflow 2's 20 ms */
	in.sf[0].wmem_queued = 60000;
	in.sf[1].wmem_queued = 20000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
	/* without burst the average stays */
	in.burst = 0;
	in.sf[0].pacing_rate = 1;
	s = slot_of(&st.slots, 1);
	{
		uint64_t before = st.avg_pacing_rate[s];

		assert_int_equal(mpqoe_dft_select(&st, &in), 0);
		assert_int_equal(st.avg_pacing_rate[s], before);
	}
}

/* the average is read as a u32, as upstream's "u32 pace" does */
static void test_pace_u32_cut(void **unused)
{
	(void)unused;
	in.n = 2;
	in.sf[0].pacing_rate = (1ULL << 32) + 5;	/* seen as 5 B/s */
	in.sf[0].wmem_queued = 1000;
	in.sf[1].wmem_queued = 900000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 1);
	/* exactly 2^32 reads as 0: no rate, skipped */
	mpqoe_dft_init(&st);
	in.sf[0].pacing_rate = 1ULL << 32;
	in.sf[0].wmem_queued = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), 1);
}

static void test_eight_subflows(void **unused)
{
	unsigned int i;

	(void)unused;
	in_init(&in, 8);
	for (i = 0; i < 8; i++)
		in.sf[i].wmem_queued = 10000 + 1000 * ((i * 5) % 8);
	/* (i * 5) % 8 == 0 only for i = 0; make 6 the best */
	in.sf[0].wmem_queued = 50000;
	in.sf[6].wmem_queued = 100;
	assert_int_equal(mpqoe_dft_select(&st, &in), 6);
	/* more than 8 entries claimed: only the first 8 count */
	in.n = 12;
	assert_int_equal(mpqoe_dft_select(&st, &in), 6);
}

/* the smoothed rate belongs to the subflow id, wherever it sits in the list */
static void test_ids_move(void **unused)
{
	struct mpqoe_subflow_view a;
	int s;

	(void)unused;
	in.burst = 10000;
	in.sf[1].wmem_queued = 0;
	in.sf[0].wmem_queued = 5000;
	in.sf[2].wmem_queued = 5000;
	in.sf[1].pacing_rate = 3000000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 1);	/* id 2 */
	s = slot_of(&st.slots, 2);
	assert_int_equal(st.avg_pacing_rate[s], 3000000);
	/* id 1 leaves, id 9 arrives first, id 2 moves to the end */
	a = in.sf[1];
	in.sf[0] = sf_default(9);
	in.sf[0].wmem_queued = 5000;
	in.sf[1] = in.sf[2];
	in.sf[2] = a;
	in.sf[2].pacing_rate = 1;	/* the average, not this, counts */
	in.sf[2].wmem_queued = 1000;
	assert_int_equal(mpqoe_dft_select(&st, &in), 2);
	assert_int_equal(slot_of(&st.slots, 2), s);
	assert_int_equal(slot_of(&st.slots, 1), -1);
	assert_true(slot_of(&st.slots, 9) >= 0);
	/* a subflow that returns with a known id starts afresh */
	in.sf[2].id = 1;
	in.sf[2].pacing_rate = 1000;
	in.sf[2].wmem_queued = 0;
	in.sf[0].wmem_queued = 1;
	in.sf[1].wmem_queued = 1;
	assert_int_equal(mpqoe_dft_select(&st, &in), 2);
	/* initialised from its own pacing rate, not id 2's average */
	assert_int_equal(st.avg_pacing_rate[slot_of(&st.slots, 1)], 1000);
}

/* reinjection: first active subflow with nothing queued, non-backup first */
static void test_retrans(void **unused)
{
	(void)unused;
	in.reinject = 1;
	in.sf[0].queued = 100;
	in.sf[1].backup = 1;
	assert_int_equal(mpqoe_dft_select(&st, &in), 2);
	in.sf[2].queued = 5;
	/* the backup only if no subflow with data made progress lately */
	in.sf[0].stale_count = 1;
	in.sf[2].stale_count = 3;
	assert_int_equal(mpqoe_dft_select(&st, &in), -1);
	in.sf[0].stale_count = 2;
	assert_int_equal(mpqoe_dft_select(&st, &in), 1);
	/* a stale-but-alive subflow is usable for reinjection, a dead one not */
	in.sf[0].queued = 0;
	in.sf[0].active = 0;
	in.sf[0].stale_inactive = 1;
	assert_int_equal(mpqoe_dft_select(&st, &in), 0);
	in.sf[0].stale_inactive = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), 1);
	in.sf[1].active = 0;
	assert_int_equal(mpqoe_dft_select(&st, &in), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_lowest_linger, setup),
		cmocka_unit_test_setup(test_ignores_rtt_and_cwnd, setup),
		cmocka_unit_test_setup(test_tie_first, setup),
		cmocka_unit_test_setup(test_backup_not_used_while_active, setup),
		cmocka_unit_test_setup(test_backup_only, setup),
		cmocka_unit_test_setup(test_no_active, setup),
		cmocka_unit_test_setup(test_active_without_rate_blocks_backup, setup),
		cmocka_unit_test_setup(test_memory_full, setup),
		cmocka_unit_test_setup(test_cwnd_full_everywhere, setup),
		cmocka_unit_test_setup(test_avg_pacing_update, setup),
		cmocka_unit_test_setup(test_pace_u32_cut, setup),
		cmocka_unit_test_setup(test_eight_subflows, setup),
		cmocka_unit_test_setup(test_ids_move, setup),
		cmocka_unit_test_setup(test_retrans, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
