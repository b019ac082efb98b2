// SPDX-License-Identifier: GPL-2.0
/*
 * The sticky schedulers of Nagayama et al., "Managing Path Switching in
 * Multipath Video Streaming": gr_sty, tp_sty and tr_sty. They share one
 * decision procedure and differ only in mpqoe_sty_commit(), the test made
 * before committing to stay on a newly selected path. See ALGORITHMS.md.
 */
#include "mpqoe_core.h"

enum mpqoe_sty_rule {
	MPQOE_GR_STY,	/* stay on the new path until it is congested */
	MPQOE_TP_STY,	/* ... only if lambda_i / lambda_j < 1 */
	MPQOE_TR_STY,	/* ... only if lambda_i / lambda_j < 1 and rtt_i < rtt_j */
};

/*
 * lambda: growth of the new data sent (retransmissions left out) over
 * windows of one srtt (at least 1 ms)
 */
#define MPQOE_LAMBDA_MIN_WIN_US	1000ULL
/* EWMA: the newest window weighs 1/4 */
#define MPQOE_LAMBDA_SHIFT	2

static void mpqoe_rate_reset(struct mpqoe_rate *r,
			     const struct mpqoe_subflow_view *sf, u64 now)
{
	r->win_start_us = now;
	r->win_start_sent = mpqoe_new_data_sent(sf);
	r->lambda = 0;
	r->has_lambda = 0;
}

/* Close the measuring window once it lasted one srtt: one rate sample. */
static void mpqoe_rate_update(struct mpqoe_rate *r,
			      const struct mpqoe_subflow_view *sf, u64 now)
{
	u64 win = mpqoe_max64(sf->srtt_us, MPQOE_LAMBDA_MIN_WIN_US);
	u64 data = mpqoe_new_data_sent(sf);
	u64 dt, sent, sample;

	if (now < r->win_start_us || data < r->win_start_sent) {
		/* clock or counter went back: restart the window */
		r->win_start_us = now;
		r->win_start_sent = data;
		return;
	}
	dt = now - r->win_start_us;
	if (dt < win)
		return;
	sent = data - r->win_start_sent;
	if (sent > MPQOE_U64_MAX / MPQOE_USEC_PER_SEC)
		sample = MPQOE_U64_MAX >> MPQOE_LAMBDA_SHIFT;
	else
		sample = MPQOE_DIV64(sent * MPQOE_USEC_PER_SEC, dt);
	if (r->has_lambda)
		r->lambda = r->lambda - (r->lambda >> MPQOE_LAMBDA_SHIFT) +
			    (sample >> MPQOE_LAMBDA_SHIFT);
	else
		r->lambda = sample;
	r->has_lambda = 1;
	r->win_start_us = now;
	r->win_start_sent = data;
}

/*
 * The only difference between the three schedulers: after a switch from
 * path i to path j caused by the congestion of i, do we stick to j?
 */
static bool mpqoe_sty_commit(enum mpqoe_sty_rule rule,
			     const struct mpqoe_subflow_view *vi,
			     const struct mpqoe_rate *ri,
			     const struct mpqoe_subflow_view *vj,
			     const struct mpqoe_rate *rj)
{
	/* lambda_i / lambda_j < 1; false when lambda_j = 0 (no ratio) */
	bool tp = ri->lambda < rj->lambda;

	switch (rule) {
	case MPQOE_GR_STY:
		return true;
	case MPQOE_TP_STY:
		return tp;
	case MPQOE_TR_STY:
		return tp && vi->srtt_us < vj->srtt_us;
	}
	return false;
}

static int mpqoe_sty_select(struct mpqoe_sticky_state *st,
			    const struct mpqoe_sched_input *in,
			    enum mpqoe_sty_rule rule)
{
	unsigned int n = mpqoe_nr(in), i;
	u8 map[MPQOE_MAX_SUBFLOWS];
	u8 fresh, class, usable = 0;
	int cur = -1, pick;

	fresh = mpqoe_slots_sync(&st->slots, in, map);
	for (i = 0; i < n; i++) {
		struct mpqoe_rate *r = &st->rate[map[i]];

		if (fresh & MPQOE_BIT(map[i]))
			mpqoe_rate_reset(r, &in->sf[i], in->now_us);
		else
			mpqoe_rate_update(r, &in->sf[i], in->now_us);
	}
	if (in->reinject)
		return mpqoe_retrans_pick(in);

	class = mpqoe_class_mask(in);
	for (i = 0; i < n; i++) {
		/* "congestion" of a path: mpqoe_available() says no, as for minrtt */
		if ((class & MPQOE_BIT(i)) && mpqoe_available(&in->sf[i]))
			usable |= MPQOE_BIT(i);
		if (st->has_cur && in->sf[i].id == st->cur_id)
			cur = i;
	}

	/* committed: stay until the path is congested */
	if (st->sticking && cur >= 0 && (usable & MPQOE_BIT(cur)))
		return cur;

	/* the onset choice, "as with the default path scheduler" */
	pick = mpqoe_min_rtt_pick(in, usable);
	if (pick < 0)
		return -1;	/* nothing can send: wait, keep the state */

	if (cur < 0 || !(class & MPQOE_BIT(cur))) {
		/* previous path gone or unusable: start over as at onset */
		st->sticking = 0;
	} else if (pick != cur && !(usable & MPQOE_BIT(cur))) {
		/* a new path is selected due to congestion of the previous */
		st->sticking = mpqoe_sty_commit(rule, &in->sf[cur],
						&st->rate[map[cur]],
						&in->sf[pick],
						&st->rate[map[pick]]);
	}
	st->cur_id = in->sf[pick].id;
	st->has_cur = 1;
	return pick;
}

void mpqoe_gr_sty_init(struct mpqoe_gr_sty_state *st)
{
	*st = (struct mpqoe_gr_sty_state){ 0 };
}

int mpqoe_gr_sty_select(struct mpqoe_gr_sty_state *st,
			const struct mpqoe_sched_input *in)
{
	return mpqoe_sty_select(&st->s, in, MPQOE_GR_STY);
}

void mpqoe_tp_sty_init(struct mpqoe_tp_sty_state *st)
{
	*st = (struct mpqoe_tp_sty_state){ 0 };
}

int mpqoe_tp_sty_select(struct mpqoe_tp_sty_state *st,
			const struct mpqoe_sched_input *in)
{
	return mpqoe_sty_select(&st->s, in, MPQOE_TP_STY);
}

void mpqoe_tr_sty_init(struct mpqoe_tr_sty_state *st)
{
	*st = (struct mpqoe_tr_sty_state){ 0 };
}

int mpqoe_tr_sty_select(struct mpqoe_tr_sty_state *st,
			const struct mpqoe_sched_input *in)
{
	return mpqoe_sty_select(&st->s, in, MPQOE_TR_STY);
}
