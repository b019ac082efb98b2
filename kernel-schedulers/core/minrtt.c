// SPDX-License-Identifier: GPL-2.0
/*
 * minrtt: the default scheduler of the multipath-tcp.org kernel
 * (get_available_subflow() in net/mptcp/mptcp_sched.c), the "default
 * packet scheduler (shortest RTT)" that Nagayama et al. compare their
 * sticky schedulers with: among the subflows that can take data now, the
 * one with the lowest smoothed RTT. See ALGORITHMS.md.
 */
#include "mpqoe_core.h"

void mpqoe_minrtt_init(struct mpqoe_minrtt_state *st)
{
	*st = (struct mpqoe_minrtt_state){ 0 };
}

int mpqoe_minrtt_select(struct mpqoe_minrtt_state *st,
			const struct mpqoe_sched_input *in)
{
	unsigned int n = mpqoe_nr(in), i;
	u8 class, usable = 0;

	st->calls++;
	if (in->reinject)
		return mpqoe_retrans_pick(in);
	/*
	 * Backups only when no non-backup subflow is active: a non-backup
	 * subflow that is only waiting for its window keeps them out.
	 */
	class = mpqoe_class_mask(in);
	for (i = 0; i < n; i++) {
		if ((class & MPQOE_BIT(i)) && mpqoe_available(&in->sf[i]))
			usable |= MPQOE_BIT(i);
	}
	return mpqoe_min_rtt_pick(in, usable);
}
