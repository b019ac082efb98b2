// SPDX-License-Identifier: GPL-2.0
/*
 * minrtt (the multipath-tcp.org kernel's default scheduler) on synthetic
 * snapshots. Default subflows: window 10 x 1000 bytes, nothing in flight
 * or unsent, srtt 10 ms.
 */
#include "test_util.h"

static struct mpqoe_minrtt_state st;
static struct mpqoe_sched_input in;

static int setup(void **unused)
{
	(void)unused;
	mpqoe_minrtt_init(&st);
	in_init(&in, 3);
	in.sf[0].srtt_us = 30000;
	in.sf[1].srtt_us = 20000;
	in.sf[2].srtt_us = 40000;
	return 0;
}

static uint32_t sel(void)
{
	return id_of(&in, mpqoe_minrtt_select(&st, &in));
}

/* the lowest smoothed RTT among the subflows that can take data */
static void test_lowest_rtt(void **unused)
{
	(void)unused;
	assert_int_equal(sel(), 2);
	in.sf[0].srtt_us = 19999;
	assert_int_equal(sel(), 1);
	in.sf[2].srtt_us = 19999;		/* tie: first in list order */
	assert_int_equal(sel(), 1);
	in.sf[2].srtt_us = 0;			/* no sample yet: counts as fastest */
	assert_int_equal(sel(), 3);
}

/* a full window, or unsent bytes that fill its free part, make a subflow wait */
static void test_window(void **unused)
{
	(void)unused;
	in.sf[1].packets_in_flight = 10;	/* cwnd 10: full */
	assert_int_equal(sel(), 1);
	in.sf[1].packets_in_flight = 7;		/* 3000 bytes free ... */
	in.sf[1].unsent = 3000;			/* ... already queued */
	assert_int_equal(sel(), 1);
	in.sf[1].unsent = 2999;
	assert_int_equal(sel(), 2);
	assert_int_equal(mpqoe_window_room(&in, in_index(&in, 2)).bytes, 1);
}

/* no new data on a subflow in loss recovery after an RTO, nor with a full send buffer */
static void test_loss_and_memory(void **unused)
{
	(void)unused;
	in.sf[1].ca_loss = 1;
	assert_int_equal(sel(), 1);
	in.sf[0].memory_full = 1;
	assert_int_equal(sel(), 3);
	in.sf[2].active = 0;
	assert_int_equal(sel(), 0);
}

/* backups carry data only when no non-backup subflow is active */
static void test_backup(void **unused)
{
	(void)unused;
	in.sf[2].backup = 1;
	in.sf[2].srtt_us = 1000;
	assert_int_equal(sel(), 2);
	in.sf[0].packets_in_flight = 10;
	in.sf[1].packets_in_flight = 10;
	assert_int_equal(sel(), 0);		/* waiting for a window, not a backup */
	in.sf[0].active = 0;
	in.sf[1].active = 0;
	assert_int_equal(sel(), 3);
}

/* reinjections: upstream's choice (first active subflow with nothing queued) */
static void test_reinject(void **unused)
{
	(void)unused;
	in.reinject = 1;
	in.sf[0].queued = 5000;
	assert_int_equal(sel(), 2);
	assert_true(mpqoe_window_room(&in, 1).bytes == MPQOE_ROOM_ANY);
}

/* the room it gives: the free window beyond the unsent bytes, never hard */
static void test_room(void **unused)
{
	struct mpqoe_room r;

	(void)unused;
	in.sf[1].packets_in_flight = 4;
	in.sf[1].unsent = 2500;
	r = mpqoe_window_room(&in, 1);
	assert_int_equal(r.bytes, 6 * 1000 - 2500);
	assert_int_equal(r.hard, 0);
	assert_true(mpqoe_window_room(&in, -1).bytes == MPQOE_ROOM_ANY);
	assert_true(mpqoe_window_room(&in, 3).bytes == MPQOE_ROOM_ANY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_lowest_rtt, setup),
		cmocka_unit_test_setup(test_window, setup),
		cmocka_unit_test_setup(test_loss_and_memory, setup),
		cmocka_unit_test_setup(test_backup, setup),
		cmocka_unit_test_setup(test_reinject, setup),
		cmocka_unit_test_setup(test_room, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
