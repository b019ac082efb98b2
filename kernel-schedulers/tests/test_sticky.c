// SPDX-License-Identifier: GPL-2.0
/*
 * gr_sty, tp_sty, tr_sty (Nagayama et al.) on synthetic snapshots. Subflow
 * ids 1, 2, 3 are paths A, B, C with srtt 10, 20, 30 ms unless a test says
 * otherwise. lambda comes from the growth of the new data sent (bytes_sent
 * less bytes_retrans) fed by warm().
 */
#include "test_util.h"

enum rule { GR, TP, TR };

static struct {
	struct mpqoe_gr_sty_state gr;
	struct mpqoe_tp_sty_state tp;
	struct mpqoe_tr_sty_state tr;
} st;
static struct mpqoe_sched_input in;

static struct mpqoe_sticky_state *core(enum rule r)
{
	return r == GR ? &st.gr.s : r == TP ? &st.tp.s : &st.tr.s;
}

static int sel(enum rule r)
{
	switch (r) {
	case GR:
		return mpqoe_gr_sty_select(&st.gr, &in);
	case TP:
		return mpqoe_tp_sty_select(&st.tp, &in);
	case TR:
		return mpqoe_tr_sty_select(&st.tr, &in);
	}
	return -2;
}

/* the subflow id chosen by rule @r */
static uint32_t pick(enum rule r)
{
	return id_of(&in, sel(r));
}

static int setup(void **unused)
{
	(void)unused;
	mpqoe_gr_sty_init(&st.gr);
	mpqoe_tp_sty_init(&st.tp);
	mpqoe_tr_sty_init(&st.tr);
	in_init(&in, 3);
	in.sf[0].srtt_us = 10000;
	in.sf[1].srtt_us = 20000;
	in.sf[2].srtt_us = 30000;
	return 0;
}

/*
 * @windows windows of 40 ms (longer than any srtt here) during which
 * subflow i sends rate[i] bytes/s, seen through reinjection calls, which
 * measure but leave the sticky state alone.
 */
static void warm(enum rule r, const uint64_t *rate, unsigned int windows)
{
	unsigned int w, i;

	in.reinject = 1;
	for (w = 0; w < windows; w++) {
		in.now_us += 40000;
		for (i = 0; i < in.n; i++)
			in.sf[i].bytes_sent += rate[i] * 40000 / 1000000;
		sel(r);
	}
	in.reinject = 0;
}

static uint64_t lambda_of(enum rule r, uint32_t id)
{
	struct mpqoe_sticky_state *s = core(r);

	return s->rate[slot_of(&s->slots, id)].lambda;
}

static void test_onset_min_rtt(void **unused)
{
	enum rule r;

	(void)unused;
	for (r = GR; r <= TR; r++) {
		assert_int_equal(pick(r), 1);
		assert_int_equal(pick(r), 1);
		assert_int_equal(core(r)->sticking, 0);
	}
	/* the lowest RTT, wherever it is in the list */
	in.sf[2].srtt_us = 5000;
	for (r = GR; r <= TR; r++)
		assert_int_equal(pick(r), 3);
}

static void test_tie_lowest_index(void **unused)
{
	(void)unused;
	in.sf[1].srtt_us = 10000;
	assert_int_equal(pick(GR), 1);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(GR), 2);
}

/*
 * Before the first congestion the choice follows the lowest RTT both
 * ways: a faster path taking over is not a congestion switch.
 */
static void test_default_until_congestion(void **unused)
{
	enum rule r;

	(void)unused;
	for (r = GR; r <= TR; r++) {
		assert_int_equal(pick(r), 1);
		in.sf[0].srtt_us = 25000;
		assert_int_equal(pick(r), 2);
		in.sf[0].srtt_us = 10000;
		assert_int_equal(pick(r), 1);
		assert_int_equal(core(r)->sticking, 0);
	}
}

/* GR-STY stays on the new path until that path is congested. */
static void test_gr_sticks(void **unused)
{
	(void)unused;
	assert_int_equal(pick(GR), 1);
	in.sf[0].cwnd_space = 0;		/* A congested */
	assert_int_equal(pick(GR), 2);
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(GR), 2);		/* stays on B */
	assert_int_equal(pick(GR), 2);
	in.sf[1].cwnd_space = 0;		/* B congested, A and C free */
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(GR), 3);
	in.sf[0].cwnd_space = 1;
	in.sf[1].cwnd_space = 1;
	assert_int_equal(pick(GR), 3);		/* stays on C */
	in.sf[2].cwnd_space = 0;
	assert_int_equal(pick(GR), 1);		/* lowest RTT again, sticky */
	in.sf[2].cwnd_space = 1;
	in.sf[0].srtt_us = 90000;
	assert_int_equal(pick(GR), 1);
}

/* TP-STY sticks only if lambda_old / lambda_new < 1 */
static void test_tp_commits_when_new_path_faster(void **unused)
{
	static const uint64_t rate[] = { 1000000, 2000000, 0 };

	(void)unused;
	assert_int_equal(pick(TP), 1);
	warm(TP, rate, 3);
	assert_true(lambda_of(TP, 1) < lambda_of(TP, 2));
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(TP), 2);
	assert_int_equal(core(TP)->sticking, 1);
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(TP), 2);
}

static void test_tp_no_commit_when_old_path_faster(void **unused)
{
	static const uint64_t rate[] = { 2000000, 1000000, 0 };

	(void)unused;
	assert_int_equal(pick(TP), 1);
	warm(TP, rate, 3);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(TP), 2);		/* A cannot send */
	assert_int_equal(core(TP)->sticking, 0);
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(TP), 1);		/* back to A: no commitment */
	/* GR in the same situation stays on B */
	assert_int_equal(pick(GR), 1);
	warm(GR, rate, 3);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(GR), 2);
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(GR), 2);
}

/* equal rates: the ratio is 1, not < 1 */
static void test_tp_equal_rates(void **unused)
{
	static const uint64_t rate[] = { 1500000, 1500000, 0 };

	(void)unused;
	assert_int_equal(pick(TP), 1);
	warm(TP, rate, 2);
	assert_int_equal(lambda_of(TP, 1), lambda_of(TP, 2));
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(TP), 2);
	assert_int_equal(core(TP)->sticking, 0);
}

/* A new path never used (lambda_j = 0) has no ratio: no commitment. */
static void test_tp_unmeasured_new_path(void **unused)
{
	static const uint64_t rate[] = { 1000000, 0, 0 };

	(void)unused;
	assert_int_equal(pick(TP), 1);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(TP), 2);		/* no lambda at all yet */
	assert_int_equal(core(TP)->sticking, 0);
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(TP), 1);
	warm(TP, rate, 2);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(TP), 2);
	assert_int_equal(core(TP)->sticking, 0);
}

/* TR-STY: the rate condition and rtt_old < rtt_new */
static void test_tr_commits(void **unused)
{
	static const uint64_t rate[] = { 1000000, 2000000, 0 };

	(void)unused;
	assert_int_equal(pick(TR), 1);
	warm(TR, rate, 3);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(TR), 2);
	assert_int_equal(core(TR)->sticking, 1);
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(TR), 2);
}

/*
 * Rates favour the new path but the old path's RTT is not below the new
 * one's: TP sticks, TR does not.
 */
static void test_tr_rtt_condition(void **unused)
{
	static const uint64_t rate[] = { 1000000, 2000000, 3000000 };
	enum rule r;

	(void)unused;
	for (r = TP; r <= TR; r++) {
		assert_int_equal(pick(r), 1);
		warm(r, rate, 3);
		in.sf[0].cwnd_space = 0;
		assert_int_equal(pick(r), 2);	/* A -> B: both commit */
		assert_int_equal(core(r)->sticking, 1);
		in.sf[1].srtt_us = 40000;	/* B slows down, stays chosen */
		in.sf[0].cwnd_space = 1;
		assert_int_equal(pick(r), 2);
		in.sf[0].cwnd_space = 0;
		in.sf[1].cwnd_space = 0;	/* B congested: C (30 ms) */
		assert_int_equal(pick(r), 3);
		in.sf[0].cwnd_space = 1;
		in.sf[1].cwnd_space = 1;
		in.sf[1].srtt_us = 20000;
		in.sf[0].srtt_us = 10000;
	}
	/* rtt_B 40 ms < rtt_C 30 ms fails for TR only */
	assert_int_equal(core(TP)->sticking, 1);
	assert_int_equal(core(TR)->sticking, 0);
	assert_int_equal(pick(TP), 3);
	assert_int_equal(pick(TR), 1);
}

/* Nothing can send: no choice, and the commitment survives. */
static void test_cwnd_full_everywhere(void **unused)
{
	unsigned int i;

	(void)unused;
	assert_int_equal(pick(GR), 1);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(GR), 2);
	for (i = 0; i < 3; i++)
		in.sf[i].cwnd_space = 0;
	assert_int_equal(sel(GR), -1);
	assert_int_equal(sel(TP), -1);
	assert_int_equal(sel(TR), -1);
	in.sf[0].cwnd_space = 1;
	in.sf[1].cwnd_space = 1;
	assert_int_equal(pick(GR), 2);
	/* a full send buffer counts like a full window */
	in.sf[1].memory_full = 1;
	assert_int_equal(pick(GR), 1);
}

static void test_no_active(void **unused)
{
	enum rule r;

	(void)unused;
	in.sf[0].active = 0;
	in.sf[1].active = 0;
	in.sf[2].active = 0;
	for (r = GR; r <= TR; r++)
		assert_int_equal(sel(r), -1);
	in.n = 0;
	for (r = GR; r <= TR; r++)
		assert_int_equal(sel(r), -1);
}

/* Backups only when no non-backup subflow is active. */
static void test_backup(void **unused)
{
	(void)unused;
	in.sf[0].srtt_us = 50000;
	in.sf[1].backup = 1;
	in.sf[2].backup = 1;
	assert_int_equal(pick(GR), 1);
	in.sf[0].cwnd_space = 0;		/* congested, still active */
	assert_int_equal(sel(GR), -1);
	in.sf[0].active = 0;
	assert_int_equal(pick(GR), 2);		/* backup-only: lowest RTT */
	in.sf[0].active = 1;
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(GR), 1);		/* the backup is left at once */
}

static void test_eight_subflows(void **unused)
{
	static const uint32_t rtt[8] = { 80, 70, 60, 15, 50, 12, 40, 30 };
	unsigned int i;

	(void)unused;
	in_init(&in, 8);
	for (i = 0; i < 8; i++)
		in.sf[i].srtt_us = rtt[i] * 1000;
	assert_int_equal(pick(GR), 6);		/* 12 ms */
	in.sf[5].cwnd_space = 0;
	assert_int_equal(pick(GR), 4);		/* 15 ms */
	in.sf[5].cwnd_space = 1;
	assert_int_equal(pick(GR), 4);		/* sticks */
	in.sf[3].cwnd_space = 0;
	in.sf[5].cwnd_space = 0;
	assert_int_equal(pick(GR), 8);		/* 30 ms */
}

/* The sticky path is found by id when the list changes. */
static void test_ids_move(void **unused)
{
	struct mpqoe_subflow_view a, b, c;

	(void)unused;
	assert_int_equal(pick(GR), 1);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(GR), 2);
	in.sf[0].cwnd_space = 1;
	a = in.sf[0];
	b = in.sf[1];
	c = in.sf[2];
	in.n = 4;
	in.sf[0] = sf_default(7);		/* a new 1 ms path first */
	in.sf[0].srtt_us = 1000;
	in.sf[1] = c;
	in.sf[2] = a;
	in.sf[3] = b;
	assert_int_equal(pick(GR), 2);		/* still B, now at index 3 */
	assert_int_equal(sel(GR), 3);
	/* B leaves: start over from the lowest RTT, not sticking */
	in.n = 3;
	assert_int_equal(pick(GR), 7);
	assert_int_equal(core(GR)->sticking, 0);
	in.sf[0].srtt_us = 100000;
	assert_int_equal(pick(GR), 1);
}

/* lambda: one sample per window of >= 1 srtt, EWMA with weight 1/4 */
static void test_lambda_measurement(void **unused)
{
	struct mpqoe_sticky_state *s = core(GR);
	uint64_t l;

	(void)unused;
	in.n = 1;
	in.sf[0].srtt_us = 50000;
	assert_int_equal(sel(GR), 0);		/* window opens at t0 */
	assert_int_equal(lambda_of(GR, 1), 0);
	in.now_us += 49999;			/* shorter than srtt: no sample */
	in.sf[0].bytes_sent += 100000;
	sel(GR);
	assert_int_equal(s->rate[0].has_lambda, 0);
	in.now_us += 1;				/* 50 ms, 100 kB: 2 MB/s */
	sel(GR);
	assert_int_equal(lambda_of(GR, 1), 2000000);
	in.now_us += 100000;			/* 100 ms, 40 kB: 400 kB/s */
	in.sf[0].bytes_sent += 40000;
	sel(GR);
	l = 2000000 - 2000000 / 4 + 400000 / 4;
	assert_int_equal(lambda_of(GR, 1), l);
	in.now_us += 50000;			/* idle window: sample 0 */
	sel(GR);
	assert_int_equal(lambda_of(GR, 1), l - l / 4);
	/* short srtt: windows of at least 1 ms */
	in.sf[0].srtt_us = 100;
	in.now_us += 999;
	in.sf[0].bytes_sent += 1000;
	l = lambda_of(GR, 1);
	sel(GR);
	assert_int_equal(lambda_of(GR, 1), l);
	in.now_us += 1;
	sel(GR);
	assert_int_equal(lambda_of(GR, 1), l - l / 4 + 1000000 / 4);
}

/* retransmitted bytes are not injected video data: they do not count */
static void test_lambda_leaves_out_retransmissions(void **unused)
{
	(void)unused;
	in.n = 1;
	in.sf[0].srtt_us = 50000;
	sel(GR);
	in.now_us += 50000;			/* 100 kB sent, 40 kB again */
	in.sf[0].bytes_sent += 100000;
	in.sf[0].bytes_retrans += 40000;
	sel(GR);
	assert_int_equal(lambda_of(GR, 1), 1200000);	/* 60 kB / 50 ms */
}

/*
 * A subflow in loss recovery after an RTO cannot take data, as for minrtt:
 * it is skipped at the onset and in every uncommitted decision, and it
 * ends a commitment like a full window does.
 */
static void test_rto_recovery_is_congestion(void **unused)
{
	enum rule r;

	(void)unused;
	in.sf[0].ca_loss = 1;
	for (r = GR; r <= TR; r++)
		assert_int_equal(pick(r), 2);
	in.sf[0].ca_loss = 0;
	assert_int_equal(pick(GR), 1);		/* uncommitted: back to A */
	in.sf[0].ca_loss = 1;
	assert_int_equal(pick(GR), 2);		/* A congested: GR-STY commits */
	assert_int_equal(core(GR)->sticking, 1);
	in.sf[0].ca_loss = 0;
	assert_int_equal(pick(GR), 2);		/* and stays on B */
	in.sf[1].ca_loss = 1;
	assert_int_equal(pick(GR), 1);		/* until B is in recovery */
}

/* A reinjection is chosen as upstream does and changes no commitment. */
static void test_reinject(void **unused)
{
	(void)unused;
	assert_int_equal(pick(GR), 1);
	in.sf[0].cwnd_space = 0;
	assert_int_equal(pick(GR), 2);
	in.reinject = 1;
	in.sf[1].queued = 1000;
	assert_int_equal(pick(GR), 1);		/* first with nothing queued */
	in.reinject = 0;
	in.sf[0].cwnd_space = 1;
	assert_int_equal(pick(GR), 2);
	assert_int_equal(core(GR)->sticking, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_onset_min_rtt, setup),
		cmocka_unit_test_setup(test_tie_lowest_index, setup),
		cmocka_unit_test_setup(test_default_until_congestion, setup),
		cmocka_unit_test_setup(test_gr_sticks, setup),
		cmocka_unit_test_setup(test_tp_commits_when_new_path_faster, setup),
		cmocka_unit_test_setup(test_tp_no_commit_when_old_path_faster, setup),
		cmocka_unit_test_setup(test_tp_equal_rates, setup),
		cmocka_unit_test_setup(test_tp_unmeasured_new_path, setup),
		cmocka_unit_test_setup(test_tr_commits, setup),
		cmocka_unit_test_setup(test_tr_rtt_condition, setup),
		cmocka_unit_test_setup(test_cwnd_full_everywhere, setup),
		cmocka_unit_test_setup(test_no_active, setup),
		cmocka_unit_test_setup(test_backup, setup),
		cmocka_unit_test_setup(test_eight_subflows, setup),
		cmocka_unit_test_setup(test_ids_move, setup),
		cmocka_unit_test_setup(test_lambda_measurement, setup),
		cmocka_unit_test_setup(test_lambda_leaves_out_retransmissions, setup),
		cmocka_unit_test_setup(test_rto_recovery_is_congestion, setup),
		cmocka_unit_test_setup(test_reinject, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
