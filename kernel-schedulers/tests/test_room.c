// SPDX-License-Identifier: GPL-2.0
/*
 * mpqoe_fit_burst(): the burst that keeps upstream's push, which hands a
 * subflow whole chunks of the send queue, within a scheduler's room.
 */
#include "test_util.h"

static const uint32_t chunks[] = { 16000, 16000, 16000, 16000 };

static uint32_t fit(uint64_t bytes, uint8_t hard, unsigned int n, uint32_t burst)
{
	struct mpqoe_room r = { .bytes = bytes, .hard = hard };

	return mpqoe_fit_burst(r, chunks, n, burst);
}

/* no room limit: upstream's burst as it is */
static void test_any(void **unused)
{
	(void)unused;
	assert_int_equal(fit(MPQOE_ROOM_ANY, 0, 4, 65000), 65000);
	assert_int_equal(fit(MPQOE_ROOM_ANY, 1, 4, 0), 0);
	assert_int_equal(fit(1000, 1, 0, 65000), 65000);	/* nothing pending */
}

/* a room that upstream's push fits keeps upstream's burst */
static void test_room_not_binding(void **unused)
{
	static const uint32_t big[] = { 32768, 32768, 32768 };
	struct mpqoe_room r = { .bytes = 70000, .hard = 1 };

	(void)unused;
	/* 16000 x 3 spends a burst of 40000 (48000 pushed) */
	assert_int_equal(fit(1000000, 1, 4, 40000), 40000);
	assert_int_equal(fit(48000, 1, 4, 40000), 40000);
	assert_int_equal(fit(1000000, 1, 2, 65000), 65000);	/* all there is */
	/* two 32 KB chunks (65536) spend a burst of 65428 and fit 70000 */
	assert_int_equal(mpqoe_fit_burst(r, big, 3, 65428), 65428);
	/* ... but not 65500: upstream would overshoot the burst by 108 */
	r.bytes = 65500;
	assert_int_equal(mpqoe_fit_burst(r, big, 3, 65428), 32768);
}

/* a binding room: whole chunks up to it, so that the push stops there */
static void test_whole_chunks(void **unused)
{
	(void)unused;
	assert_int_equal(fit(40000, 0, 4, 65000), 32000);
	assert_int_equal(fit(47999, 1, 4, 40000), 32000);
	assert_int_equal(fit(48000, 1, 4, 65000), 48000);
}

/* not even one chunk fits: one anyway when soft, nothing when hard */
static void test_first_chunk(void **unused)
{
	(void)unused;
	assert_int_equal(fit(15999, 0, 4, 65000), 16000);
	assert_int_equal(fit(15999, 1, 4, 65000), 0);
	assert_int_equal(fit(0, 0, 4, 65000), 16000);
	assert_int_equal(fit(0, 1, 4, 65000), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_any),
		cmocka_unit_test(test_room_not_binding),
		cmocka_unit_test(test_whole_chunks),
		cmocka_unit_test(test_first_chunk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
