/* SPDX-License-Identifier: GPL-2.0 */
/* Synthetic subflow snapshots for the scenario tests of the decision cores. */
#ifndef MPQOE_TEST_UTIL_H
#define MPQOE_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mpqoe_sched.h"

/* A healthy subflow: active, window space, 10 ms RTT, 1 MB/s, nothing queued. */
static inline struct mpqoe_subflow_view sf_default(uint32_t id)
{
	struct mpqoe_subflow_view v;

	memset(&v, 0, sizeof(v));
	v.id = id;
	v.active = 1;
	v.cwnd_space = 1;
	v.srtt_us = 10000;
	v.min_rtt_us = 10000;
	v.snd_cwnd = 10;
	v.mss = 1000;
	v.pacing_rate = 1000000;
	return v;
}

/* An input of @n default subflows with ids 1..n. */
static inline void in_init(struct mpqoe_sched_input *in, unsigned int n)
{
	unsigned int i;

	memset(in, 0, sizeof(*in));
	in->n = (uint8_t)n;
	in->now_us = 1000000;
	for (i = 0; i < n; i++)
		in->sf[i] = sf_default(i + 1);
}

/* index of subflow @id in @in, or -1 */
static inline int in_index(const struct mpqoe_sched_input *in, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < in->n; i++)
		if (in->sf[i].id == id)
			return (int)i;
	return -1;
}

/* id of the subflow at @idx, or 0 for -1 (ids in tests start at 1) */
static inline uint32_t id_of(const struct mpqoe_sched_input *in, int idx)
{
	return idx < 0 ? 0 : in->sf[idx].id;
}

/* slot of subflow @id in a slot table, or -1 */
static inline int slot_of(const struct mpqoe_slots *s, uint32_t id)
{
	int j;

	for (j = 0; j < MPQOE_MAX_SUBFLOWS; j++)
		if ((s->used & (1U << j)) && s->id[j] == id)
			return j;
	return -1;
}

#endif
