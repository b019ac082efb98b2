// SPDX-License-Identifier: GPL-2.0
/*
 * Per-connection counters shared by every scheduler: decisions, path
 * switches (two consecutive data injections on different subflows, the
 * papers' definition) and bytes per subflow.
 */
#include "mpqoe_sched.h"

void mpqoe_stats_init(struct mpqoe_stats *s)
{
	*s = (struct mpqoe_stats){ 0 };
}

void mpqoe_stats_decision(struct mpqoe_stats *s)
{
	s->decisions++;
}

void mpqoe_stats_inject(struct mpqoe_stats *s, u32 id, u64 bytes)
{
	unsigned int i;

	if (!bytes)
		return;
	s->injections++;
	if (s->has_last && s->last_id != id)
		s->switches++;
	s->last_id = id;
	s->has_last = 1;

	for (i = 0; i < s->n_ids; i++) {
		if (s->ids[i] == id) {
			s->bytes[i] += bytes;
			return;
		}
	}
	if (s->n_ids < MPQOE_MAX_SUBFLOWS) {
		s->ids[s->n_ids] = id;
		s->bytes[s->n_ids] = bytes;
		s->n_ids++;
		return;
	}
	s->bytes_other += bytes;
}

unsigned int mpqoe_stats_count(const struct mpqoe_stats *s)
{
	return s->n_ids;
}

u64 mpqoe_stats_bytes(const struct mpqoe_stats *s, u32 id)
{
	unsigned int i;

	for (i = 0; i < s->n_ids; i++) {
		if (s->ids[i] == id)
			return s->bytes[i];
	}
	return 0;
}
