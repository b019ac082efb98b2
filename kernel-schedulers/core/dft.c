// SPDX-License-Identifier: GPL-2.0
/*
 * dft: the default scheduler of Linux 6.12, mptcp_subflow_get_send() for
 * new data and mptcp_subflow_get_retrans() for reinjections, over the
 * glue's snapshot, so that its path switches can be counted like the
 * other schedulers'. See ALGORITHMS.md.
 */
#include "mpqoe_core.h"

void mpqoe_dft_init(struct mpqoe_dft_state *st)
{
	*st = (struct mpqoe_dft_state){ 0 };
}

int mpqoe_dft_select(struct mpqoe_dft_state *st,
		     const struct mpqoe_sched_input *in)
{
	u8 map[MPQOE_MAX_SUBFLOWS];
	unsigned int j;
	u8 fresh;

	fresh = mpqoe_slots_sync(&st->slots, in, map);
	for (j = 0; fresh && j < MPQOE_MAX_SUBFLOWS; j++) {
		if (fresh & MPQOE_BIT(j))
			st->avg_pacing_rate[j] = 0;
	}
	if (in->reinject)
		return mpqoe_retrans_pick(in);
	return mpqoe_linger_pick(st->avg_pacing_rate, map, in, MPQOE_ALL_SLOTS);
}
