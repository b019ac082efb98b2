// SPDX-License-Identifier: GPL-2.0
/* Per-connection counters: decisions, switches, bytes per subflow. */
#include "test_util.h"

static void test_zero_init(void **unused)
{
	struct mpqoe_stats s;

	(void)unused;
	memset(&s, 0xa5, sizeof(s));
	mpqoe_stats_init(&s);
	assert_int_equal(s.decisions, 0);
	assert_int_equal(s.switches, 0);
	assert_int_equal(s.injections, 0);
	assert_int_equal(s.has_last, 0);
	assert_int_equal(mpqoe_stats_count(&s), 0);
	assert_int_equal(mpqoe_stats_bytes(&s, 1), 0);
}

static void test_decisions(void **unused)
{
	struct mpqoe_stats s;
	int i;

	(void)unused;
	mpqoe_stats_init(&s);
	for (i = 0; i < 5; i++)
		mpqoe_stats_decision(&s);
	assert_int_equal(s.decisions, 5);
	assert_int_equal(s.switches, 0);
}

/* A switch is two consecutive injections on different subflows. */
static void test_switches(void **unused)
{
	static const uint32_t seq[] = { 1, 1, 2, 2, 2, 1, 3, 3, 1 };
	struct mpqoe_stats s;
	unsigned int i;

	(void)unused;
	mpqoe_stats_init(&s);
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		mpqoe_stats_inject(&s, seq[i], 100 * (i + 1));
	/* 1 1 | 2 2 2 | 1 | 3 3 | 1: four changes */
	assert_int_equal(s.switches, 4);
	assert_int_equal(s.injections, 9);
	assert_int_equal(mpqoe_stats_count(&s), 3);
	assert_int_equal(mpqoe_stats_bytes(&s, 1), 100 + 200 + 600 + 900);
	assert_int_equal(mpqoe_stats_bytes(&s, 2), 300 + 400 + 500);
	assert_int_equal(mpqoe_stats_bytes(&s, 3), 700 + 800);
	assert_int_equal(s.ids[0], 1);
	assert_int_equal(s.ids[1], 2);
	assert_int_equal(s.ids[2], 3);
	assert_int_equal(s.last_id, 1);
}

/* The first injection is no switch; decisions do not make switches. */
static void test_first_injection(void **unused)
{
	struct mpqoe_stats s;

	(void)unused;
	mpqoe_stats_init(&s);
	mpqoe_stats_inject(&s, 7, 10);
	mpqoe_stats_decision(&s);
	mpqoe_stats_decision(&s);
	mpqoe_stats_inject(&s, 7, 10);
	assert_int_equal(s.switches, 0);
	assert_int_equal(mpqoe_stats_bytes(&s, 7), 20);
}

/* An empty injection is no injection: it neither switches nor counts. */
static void test_zero_bytes(void **unused)
{
	struct mpqoe_stats s;

	(void)unused;
	mpqoe_stats_init(&s);
	mpqoe_stats_inject(&s, 1, 10);
	mpqoe_stats_inject(&s, 2, 0);
	mpqoe_stats_inject(&s, 1, 10);
	assert_int_equal(s.switches, 0);
	assert_int_equal(s.injections, 2);
	assert_int_equal(mpqoe_stats_count(&s), 1);
}

/* Subflows come and go: ids beyond the table add to bytes_other. */
static void test_many_ids(void **unused)
{
	struct mpqoe_stats s;
	uint32_t id;

	(void)unused;
	mpqoe_stats_init(&s);
	for (id = 1; id <= 10; id++)
		mpqoe_stats_inject(&s, id, id);
	assert_int_equal(mpqoe_stats_count(&s), MPQOE_MAX_SUBFLOWS);
	assert_int_equal(s.switches, 9);
	assert_int_equal(mpqoe_stats_bytes(&s, 8), 8);
	assert_int_equal(mpqoe_stats_bytes(&s, 9), 0);
	assert_int_equal(s.bytes_other, 9 + 10);
	mpqoe_stats_inject(&s, 3, 1000);
	assert_int_equal(mpqoe_stats_bytes(&s, 3), 1003);
	assert_int_equal(s.switches, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_init),
		cmocka_unit_test(test_decisions),
		cmocka_unit_test(test_switches),
		cmocka_unit_test(test_first_injection),
		cmocka_unit_test(test_zero_bytes),
		cmocka_unit_test(test_many_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
