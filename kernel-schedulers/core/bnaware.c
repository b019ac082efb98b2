// SPDX-License-Identifier: GPL-2.0
/*
 * bnaware: the bottleneck-aware scheduler of Komatsu et al., "On the
 * FullMesh Path Selection of Multipath TCP Video Streaming". The default
 * linger-time choice, restricted to subflows whose queued bytes stay
 * under a per-subflow cap max_wmem. See ALGORITHMS.md.
 */
#include "mpqoe_core.h"

/* max_wmem starts at ini_pace * 0.5 s ... */
#define MPQOE_BN_INI_SHIFT	1
/* ... and falls back to at most ini_pace * 1 s */
#define MPQOE_BN_FALLBACK_SEC	1

/* srtt and min_rtt both measured? */
static bool mpqoe_bn_rtt_known(const struct mpqoe_subflow_view *sf)
{
	return sf->srtt_us && sf->min_rtt_us && sf->min_rtt_us != MPQOE_U32_MAX;
}

static bool mpqoe_bn_below(const struct mpqoe_subflow_view *sf)
{
	return (u64)sf->srtt_us < 2 * (u64)sf->min_rtt_us;
}

/* Rules that follow every snapshot of a subflow: ini_pace, fall-back. */
static void mpqoe_bn_observe(struct mpqoe_bn_subflow *b,
			     const struct mpqoe_subflow_view *sf)
{
	if (!b->ini_pace) {
		/* the first pacing rate computed from an RTT sample */
		if (!sf->srtt_us || !sf->pacing_rate ||
		    sf->pacing_rate == MPQOE_U64_MAX)
			return;
		b->ini_pace = sf->pacing_rate;
		b->max_wmem = b->ini_pace >> MPQOE_BN_INI_SHIFT;
	}
	if (!mpqoe_bn_rtt_known(sf))
		return;
	if (!mpqoe_bn_below(sf)) {
		b->reached = 1;
	} else if (b->reached) {
		/* srtt fell back under 2 * min_rtt */
		b->max_wmem = mpqoe_min64(b->max_wmem,
					  b->ini_pace * MPQOE_BN_FALLBACK_SEC);
		b->reached = 0;
	}
}

/* The rule applied when the subflow is selected: growth by snd_data. */
static void mpqoe_bn_selected(struct mpqoe_bn_subflow *b,
			      const struct mpqoe_subflow_view *sf)
{
	/*
	 * snd_data: of the data sent since the previous selection, what has
	 * been acknowledged, i.e. how far snd_una has moved past where snd_nxt
	 * stood then (acknowledgements of older data do not count)
	 */
	if (b->ini_pace && b->was_selected && mpqoe_bn_rtt_known(sf) &&
	    mpqoe_bn_below(sf) && sf->bytes_acked > b->sent_at_sel)
		b->max_wmem = mpqoe_max64(b->max_wmem,
					  2 * (sf->bytes_acked - b->sent_at_sel));
	b->sent_at_sel = mpqoe_new_data_sent(sf);
	b->was_selected = 1;
}

/*
 * Room under the cap for the send queue's next chunk (at least one byte
 * when its size is unknown)? No cap before ini_pace is known. A subflow
 * with nothing queued may always take one chunk: a chunk cannot be split,
 * and a cap smaller than one chunk would otherwise starve the subflow (and
 * the connection, if it has no other).
 */
static bool mpqoe_bn_under_cap(const struct mpqoe_bn_subflow *b,
			       const struct mpqoe_subflow_view *sf, u32 chunk)
{
	return !b->ini_pace || !sf->queued ||
	       sf->queued + mpqoe_max64(chunk, 1) <= b->max_wmem;
}

void mpqoe_bnaware_init(struct mpqoe_bnaware_state *st)
{
	*st = (struct mpqoe_bnaware_state){ 0 };
}

int mpqoe_bnaware_select(struct mpqoe_bnaware_state *st,
			 const struct mpqoe_sched_input *in)
{
	unsigned int n = mpqoe_nr(in), i;
	u8 map[MPQOE_MAX_SUBFLOWS];
	u8 fresh, allowed = 0;
	int pick;

	fresh = mpqoe_slots_sync(&st->slots, in, map);
	for (i = 0; i < n; i++) {
		struct mpqoe_bn_subflow *b = &st->sf[map[i]];

		if (fresh & MPQOE_BIT(map[i])) {
			*b = (struct mpqoe_bn_subflow){ 0 };
			st->avg_pacing_rate[map[i]] = 0;
		}
		if (!in->sf[i].active)
			continue;
		mpqoe_bn_observe(b, &in->sf[i]);
		if (mpqoe_bn_under_cap(b, &in->sf[i], in->chunk))
			allowed |= MPQOE_BIT(i);
	}
	if (in->reinject)
		return mpqoe_retrans_pick(in);

	pick = mpqoe_linger_pick(st->avg_pacing_rate, map, in, allowed);
	if (pick >= 0)
		mpqoe_bn_selected(&st->sf[map[pick]], &in->sf[pick]);
	return pick;
}

/*
 * The cap is hard: what is pushed never takes the queue beyond max_wmem,
 * except one chunk onto an empty subflow (see mpqoe_bn_under_cap()).
 */
struct mpqoe_room mpqoe_bnaware_room(const struct mpqoe_bnaware_state *st,
				     const struct mpqoe_sched_input *in,
				     int pick)
{
	const struct mpqoe_subflow_view *sf;
	unsigned int j;

	if (in->reinject || pick < 0 || pick >= (int)mpqoe_nr(in))
		return mpqoe_room_of(MPQOE_ROOM_ANY, 0);
	sf = &in->sf[pick];
	for (j = 0; j < MPQOE_MAX_SUBFLOWS; j++) {
		const struct mpqoe_bn_subflow *b = &st->sf[j];

		if (!(st->slots.used & MPQOE_BIT(j)) || st->slots.id[j] != sf->id)
			continue;
		if (!b->ini_pace)
			break;
		return mpqoe_room_of(b->max_wmem > sf->queued ?
				     b->max_wmem - sf->queued : 0,
				     sf->queued != 0);
	}
	return mpqoe_room_of(MPQOE_ROOM_ANY, 0);
}
