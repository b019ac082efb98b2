/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe decision cores: helpers shared by several schedulers. Each rule
 * lives here once; a module compiles only its own core file, so they are
 * static inline rather than in a separate object.
 */
#ifndef MPQOE_CORE_H
#define MPQOE_CORE_H

#include "mpqoe_sched.h"

#define MPQOE_BIT(i)		((u8)(1U << (i)))
#define MPQOE_ALL_SLOTS		((u8)((1U << MPQOE_MAX_SUBFLOWS) - 1))

static inline unsigned int mpqoe_nr(const struct mpqoe_sched_input *in)
{
	return in->n > MPQOE_MAX_SUBFLOWS ? MPQOE_MAX_SUBFLOWS : in->n;
}

static inline u64 mpqoe_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 mpqoe_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * Map each sf[i] of @in to the slot holding its state (map[i]). Slots of
 * subflows absent from @in are freed; new subflows get a free slot.
 * Returns the mask of slots allocated now: their state must be reset.
 */
static inline u8 mpqoe_slots_sync(struct mpqoe_slots *s,
				  const struct mpqoe_sched_input *in,
				  u8 map[MPQOE_MAX_SUBFLOWS])
{
	unsigned int n = mpqoe_nr(in), i, j;
	u8 seen = 0, missing = 0, fresh = 0;

	for (i = 0; i < n; i++) {
		u32 id = in->sf[i].id;

		/* fast path: same subflow at the same position as before */
		if ((s->used & MPQOE_BIT(i)) && !(seen & MPQOE_BIT(i)) &&
		    s->id[i] == id) {
			map[i] = i;
			seen |= MPQOE_BIT(i);
			continue;
		}
		for (j = 0; j < MPQOE_MAX_SUBFLOWS; j++) {
			if ((s->used & MPQOE_BIT(j)) &&
			    !(seen & MPQOE_BIT(j)) && s->id[j] == id)
				break;
		}
		if (j < MPQOE_MAX_SUBFLOWS) {
			map[i] = j;
			seen |= MPQOE_BIT(j);
		} else {
			missing |= MPQOE_BIT(i);
		}
	}
	s->used &= seen;
	for (i = 0; missing && i < n; i++) {
		if (!(missing & MPQOE_BIT(i)))
			continue;
		/* n <= MPQOE_MAX_SUBFLOWS, so a free slot always exists */
		for (j = 0; s->used & MPQOE_BIT(j); j++)
			;
		s->used |= MPQOE_BIT(j);
		s->id[j] = in->sf[i].id;
		map[i] = j;
		fresh |= MPQOE_BIT(j);
	}
	return fresh;
}

/*
 * Mask (by position in @in) of the subflows new data may use: the active
 * non-backup subflows, or the active backups when no non-backup subflow
 * is active (as mptcp_subflow_get_send() does).
 */
static inline u8 mpqoe_class_mask(const struct mpqoe_sched_input *in)
{
	unsigned int n = mpqoe_nr(in), i;
	u8 normal = 0, backup = 0;

	for (i = 0; i < n; i++) {
		if (!in->sf[i].active)
			continue;
		if (in->sf[i].backup)
			backup |= MPQOE_BIT(i);
		else
			normal |= MPQOE_BIT(i);
	}
	return normal ? normal : backup;
}

/*
 * The lowest smoothed RTT among the subflows in @mask (by position in
 * @in), the first in list order on a tie; -1 when @mask has none. A
 * subflow without an RTT sample (srtt_us 0) counts as the fastest, as in
 * the multipath-tcp.org kernel, whose srtt_us is 0 until the first sample.
 */
static inline int mpqoe_min_rtt_pick(const struct mpqoe_sched_input *in,
				     u8 mask)
{
	unsigned int n = mpqoe_nr(in), i;
	int pick = -1;

	for (i = 0; i < n; i++) {
		if (!(mask & MPQOE_BIT(i)))
			continue;
		if (pick < 0 || in->sf[i].srtt_us < in->sf[pick].srtt_us)
			pick = i;
	}
	return pick;
}

/*
 * Bytes of new data the subflow has sent: what it sent, retransmissions
 * left out (bytes_sent counts them too), i.e. how far snd_nxt has moved.
 */
static inline u64 mpqoe_new_data_sent(const struct mpqoe_subflow_view *sf)
{
	return sf->bytes_sent > sf->bytes_retrans ?
	       sf->bytes_sent - sf->bytes_retrans : 0;
}

/*
 * The congestion-window room of a subflow as the multipath-tcp.org
 * kernel's mptcp_is_temp_unavailable() sees it: the free part of the
 * window in bytes, less what is already queued on the subflow but not
 * yet sent. 0 when the window is full or its unsent bytes fill it.
 */
static inline u64 mpqoe_cwnd_room(const struct mpqoe_subflow_view *sf)
{
	u64 space;

	if (sf->packets_in_flight >= sf->snd_cwnd)
		return 0;
	space = (u64)(sf->snd_cwnd - sf->packets_in_flight) * sf->mss;
	return space > sf->unsent ? space - sf->unsent : 0;
}

/*
 * Can the subflow take new data now? The multipath-tcp.org kernel's
 * mptcp_is_available(): active, window room beyond the unsent bytes
 * (mpqoe_cwnd_room()), not in loss recovery after an RTO; and, as upstream
 * asks of every scheduler here, room in the subflow's send buffer. minrtt
 * and the sticky schedulers (whose "congestion" is its negation) share it.
 */
static inline bool mpqoe_available(const struct mpqoe_subflow_view *sf)
{
	return sf->active && sf->cwnd_space && !sf->ca_loss &&
	       !sf->memory_full && mpqoe_cwnd_room(sf);
}

static inline struct mpqoe_room mpqoe_room_of(u64 bytes, u8 hard)
{
	return (struct mpqoe_room){ .bytes = bytes, .hard = hard };
}

/*
 * mptcp_subflow_get_retrans() of Linux 6.12: the first active subflow
 * with nothing queued, a backup only when no non-backup qualifies and
 * no subflow with queued data has made progress lately.
 */
static inline int mpqoe_retrans_pick(const struct mpqoe_sched_input *in)
{
	unsigned int n = mpqoe_nr(in), i;
	u32 min_stale = MPQOE_U32_MAX;
	int pick = -1, backup = -1;

	for (i = 0; i < n; i++) {
		const struct mpqoe_subflow_view *sf = &in->sf[i];

		if (!sf->active && !sf->stale_inactive)
			continue;
		if (sf->queued) {
			if (sf->stale_count < min_stale)
				min_stale = sf->stale_count;
			continue;
		}
		if (sf->backup) {
			if (backup < 0)
				backup = i;
			continue;
		}
		if (pick < 0)
			pick = i;
	}
	if (pick >= 0)
		return pick;
	return min_stale > 1 ? backup : -1;
}

/*
 * The linger-time choice of mptcp_subflow_get_send() (Linux 6.12) over
 * the subflows in @allowed (mask by position in @in). @avg holds each
 * slot's subflow->avg_pacing_rate, @map the slot of each position.
 * Subflows outside @allowed still count as active non-backup subflows,
 * so they keep backups out as upstream's active subflows do.
 */
static inline int mpqoe_linger_pick(u64 avg[MPQOE_MAX_SUBFLOWS],
				    const u8 map[MPQOE_MAX_SUBFLOWS],
				    const struct mpqoe_sched_input *in,
				    u8 allowed)
{
	u64 best[2] = { MPQOE_U64_MAX, MPQOE_U64_MAX };
	unsigned int n = mpqoe_nr(in), i, nr_active = 0;
	int pick[2] = { -1, -1 };
	const struct mpqoe_subflow_view *sf;
	u32 pace, wmem, div;
	u64 linger;

	for (i = 0; i < n; i++) {
		unsigned int backup;

		sf = &in->sf[i];
		if (!sf->active)
			continue;
		backup = sf->backup ? 1 : 0;
		nr_active += !backup;
		if (!(allowed & MPQOE_BIT(i)))
			continue;
		/* upstream keeps the rate in a u32 here: mirror the cut */
		pace = (u32)avg[map[i]];
		if (!pace) {
			avg[map[i]] = sf->pacing_rate;
			pace = (u32)avg[map[i]];
			if (!pace)
				continue;
		}
		linger = MPQOE_DIV64((u64)sf->wmem_queued << 32, pace);
		if (linger < best[backup]) {
			best[backup] = linger;
			pick[backup] = i;
		}
	}
	if (!nr_active)
		pick[0] = pick[1];
	if (pick[0] < 0)
		return -1;

	sf = &in->sf[pick[0]];
	if (sf->memory_full)
		return -1;
	if (!in->burst)
		return pick[0];
	/* the smoothed pacing rate, weighted by queued and burst bytes */
	wmem = sf->wmem_queued;
	div = in->burst + wmem;
	if (div)	/* 0 only when upstream itself would divide by 0 */
		avg[map[pick[0]]] = MPQOE_DIV64(avg[map[pick[0]]] * wmem +
						sf->pacing_rate * in->burst,
						div);
	return pick[0];
}

#endif /* MPQOE_CORE_H */
