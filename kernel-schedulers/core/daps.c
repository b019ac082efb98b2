// SPDX-License-Identifier: GPL-2.0
/*
 * daps: Delay Aware Packet Scheduling (Sarwar et al., "Mitigating
 * receiver's buffer blocking by delay aware packet scheduling in multipath
 * data transfer", WAINA 2013), Algorithm 1, taken one decision at a time.
 *
 * A cycle spans lcm(d_i) time units, d_i being the one-way delay of path
 * i. At every time t of the cycle, each path whose delay divides t gets
 * one round of cwnd_i segments, faster paths first at equal t. Assigning
 * data in that order makes the segments arrive in order. Here the rounds
 * are not listed: each path keeps the time of its open round and the
 * bytes it still takes, and a decision picks the earliest open round.
 * See ALGORITHMS.md.
 */
#include "mpqoe_core.h"

/* The fastest path's one-way delay is this many time units (quanta) ... */
#define MPQOE_DAPS_QUANTA	4U
/* ... slower paths count at most 64 times as many ... */
#define MPQOE_DAPS_MAX_DELAY	256U
/* ... and a cycle lasts at most this many quanta. */
#define MPQOE_DAPS_MAX_CYCLE	4096U
/* segment size assumed while a subflow reports none */
#define MPQOE_DAPS_DEFAULT_MSS	1460U

static u32 mpqoe_gcd(u32 a, u32 b)
{
	while (b) {
		u32 r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* @bytes went to this subflow: fill its open round, open the next ones. */
static void mpqoe_daps_charge(struct mpqoe_daps_subflow *d, u64 bytes)
{
	u64 deficit, rounds;

	if ((u64)d->credit > bytes) {
		d->credit -= bytes;
		return;
	}
	deficit = bytes - (u64)d->credit;
	rounds = 1 + MPQOE_DIV64(deficit, d->round_bytes);
	if (rounds > MPQOE_DAPS_MAX_CYCLE)	/* beyond any cycle */
		rounds = MPQOE_DAPS_MAX_CYCLE;
	d->next += (u32)rounds * d->delay;
	d->credit = d->round_bytes - (deficit - (rounds - 1) * d->round_bytes);
	if (d->credit <= 0)
		d->credit = d->round_bytes;
}

/*
 * Data handed to each subflow since the previous call: the growth of its
 * write_seq, that is of queued + bytes_acked.
 */
static void mpqoe_daps_account(struct mpqoe_daps_state *st,
			       const struct mpqoe_sched_input *in,
			       const u8 map[MPQOE_MAX_SUBFLOWS], u8 fresh)
{
	unsigned int n = mpqoe_nr(in), i;

	for (i = 0; i < n; i++) {
		const struct mpqoe_subflow_view *sf = &in->sf[i];
		struct mpqoe_daps_subflow *d = &st->sf[map[i]];
		u64 sent;

		if (fresh & MPQOE_BIT(map[i])) {
			*d = (struct mpqoe_daps_subflow){ 0 };
			d->last_queued = sf->queued;
			d->last_acked = sf->bytes_acked;
			continue;
		}
		sent = (sf->queued - d->last_queued) +
		       (sf->bytes_acked - d->last_acked);
		d->last_queued = sf->queued;
		d->last_acked = sf->bytes_acked;
		if (sent && (st->cycle & MPQOE_BIT(map[i])))
			mpqoe_daps_charge(d, sent);
	}
}

/* A new cycle over the @eligible subflows (mask by position) with an RTT. */
static void mpqoe_daps_begin(struct mpqoe_daps_state *st,
			     const struct mpqoe_sched_input *in,
			     const u8 map[MPQOE_MAX_SUBFLOWS], u8 eligible)
{
	unsigned int n = mpqoe_nr(in), i;
	u32 dmin = MPQOE_U32_MAX, q, maxd = 1;
	u64 lcm = 1;

	st->cycle = 0;
	st->vt = 0;
	for (i = 0; i < n; i++) {
		if ((eligible & MPQOE_BIT(i)) && in->sf[i].srtt_us &&
		    in->sf[i].srtt_us / 2 < dmin)
			dmin = in->sf[i].srtt_us / 2;
	}
	if (dmin == MPQOE_U32_MAX)
		return;
	q = dmin / MPQOE_DAPS_QUANTA;
	if (!q)
		q = 1;

	for (i = 0; i < n; i++) {
		const struct mpqoe_subflow_view *sf = &in->sf[i];
		struct mpqoe_daps_subflow *d = &st->sf[map[i]];
		u32 delay, mss = sf->mss ? sf->mss : MPQOE_DAPS_DEFAULT_MSS;

		if (!(eligible & MPQOE_BIT(i)) || !sf->srtt_us)
			continue;
		/* one-way delay, assumed half the RTT, rounded to quanta */
		delay = (sf->srtt_us / 2 + q / 2) / q;
		if (delay < 1)
			delay = 1;
		if (delay > MPQOE_DAPS_MAX_DELAY)
			delay = MPQOE_DAPS_MAX_DELAY;
		d->delay = delay;
		d->next = delay;
		d->round_bytes = (u64)(sf->snd_cwnd ? sf->snd_cwnd : 1) * mss;
		d->credit = d->round_bytes;
		d->srtt_plan = sf->srtt_us;
		if (lcm <= MPQOE_DAPS_MAX_CYCLE)
			lcm = lcm / mpqoe_gcd((u32)lcm, delay) * delay;
		if (delay > maxd)
			maxd = delay;
		st->cycle |= MPQOE_BIT(map[i]);
	}
	if (lcm <= MPQOE_DAPS_MAX_CYCLE)
		st->end = (u32)lcm;
	else
		st->end = MPQOE_DAPS_MAX_CYCLE / maxd * maxd;
}

/* Is (next, srtt, position) of @i before that of @j? */
static bool mpqoe_daps_before(const struct mpqoe_daps_subflow *a,
			      const struct mpqoe_daps_subflow *b)
{
	if (a->next != b->next)
		return a->next < b->next;
	return a->srtt_plan < b->srtt_plan;
}

/* The earliest open round of this cycle among the @eligible subflows. */
static int mpqoe_daps_pick(struct mpqoe_daps_state *st,
			   const struct mpqoe_sched_input *in,
			   const u8 map[MPQOE_MAX_SUBFLOWS], u8 eligible)
{
	unsigned int n = mpqoe_nr(in), i;
	int best = -1;

	for (i = 0; i < n; i++) {
		struct mpqoe_daps_subflow *d = &st->sf[map[i]];

		if (!(st->cycle & MPQOE_BIT(map[i])) || d->next > st->end)
			continue;
		if (!(eligible & MPQOE_BIT(i))) {
			/* a path that cannot send loses its past turns */
			if (d->next <= st->vt) {
				d->next = (st->vt / d->delay + 1) * d->delay;
				d->credit = d->round_bytes;
			}
			continue;
		}
		if (best < 0 || mpqoe_daps_before(d, &st->sf[map[best]]))
			best = i;
	}
	if (best >= 0)
		st->vt = st->sf[map[best]].next;
	return best;
}

/* No round to give: the lowest-RTT subflow with window space, if any. */
static int mpqoe_daps_fallback(const struct mpqoe_sched_input *in,
			       u8 eligible)
{
	unsigned int n = mpqoe_nr(in), i;
	u8 space = 0;

	for (i = 0; i < n; i++) {
		if (in->sf[i].cwnd_space)
			space |= MPQOE_BIT(i);
	}
	return mpqoe_min_rtt_pick(in, eligible & space);
}

void mpqoe_daps_init(struct mpqoe_daps_state *st)
{
	*st = (struct mpqoe_daps_state){ 0 };
}

int mpqoe_daps_select(struct mpqoe_daps_state *st,
		      const struct mpqoe_sched_input *in)
{
	unsigned int n = mpqoe_nr(in), i;
	u8 map[MPQOE_MAX_SUBFLOWS];
	u8 fresh, class, eligible = 0, outside = 0;
	int pick;

	fresh = mpqoe_slots_sync(&st->slots, in, map);
	st->cycle &= st->slots.used & ~fresh;
	mpqoe_daps_account(st, in, map, fresh);
	if (in->reinject)
		return mpqoe_retrans_pick(in);

	class = mpqoe_class_mask(in);
	for (i = 0; i < n; i++) {
		if (!(class & MPQOE_BIT(i)) || in->sf[i].memory_full)
			continue;
		eligible |= MPQOE_BIT(i);
		if (in->sf[i].srtt_us && !(st->cycle & MPQOE_BIT(map[i])))
			outside |= MPQOE_BIT(i);
	}
	if (!eligible)
		return -1;

	pick = outside ? -1 : mpqoe_daps_pick(st, in, map, eligible);
	if (pick < 0) {
		/* cycle done, or a path joined: plan the next cycle */
		mpqoe_daps_begin(st, in, map, eligible);
		pick = mpqoe_daps_pick(st, in, map, eligible);
	}
	if (pick < 0)
		pick = mpqoe_daps_fallback(in, eligible);
	return pick;
}
