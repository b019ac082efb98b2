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

/* whole chunks up to the room, and never beyond upstream's burst */
static void test_whole_chunks(void **unused)
{
	(void)unused;
	assert_int_equal(fit(40000, 0, 4, 65000), 32000);
	assert_int_equal(fit(48000, 1, 4, 65000), 48000);
	assert_int_equal(fit(1000000, 1, 4, 40000), 32000);
	assert_int_equal(fit(1000000, 1, 2, 65000), 32000);	/* all there is */
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
		cmocka_unit_test(test_whole_chunks),
		cmocka_unit_test(test_first_chunk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
