// SPDX-License-Identifier: GPL-2.0
/*
 * How much one decision hands the chosen subflow: the window room of
 * minrtt and the sticky schedulers, and the burst that the glue sets so
 * that upstream's push stays within a scheduler's room. Compiled into
 * every module. See ALGORITHMS.md, "Room".
 */
#include "mpqoe_core.h"

struct mpqoe_room mpqoe_window_room(const struct mpqoe_sched_input *in,
				    int pick)
{
	if (in->reinject || pick < 0 || pick >= (int)mpqoe_nr(in))
		return mpqoe_room_of(MPQOE_ROOM_ANY, 0);
	return mpqoe_room_of(mpqoe_cwnd_room(&in->sf[pick]), 0);
}

u32 mpqoe_fit_burst(struct mpqoe_room room, const u32 *len, unsigned int n,
		    u32 burst)
{
	u64 up = 0, fit = 0;
	unsigned int i;

	if (room.bytes == MPQOE_ROOM_ANY || !n)
		return burst;
	/* what upstream pushes: whole chunks until the burst is spent */
	for (i = 0; i < n && up < burst; i++)
		up += len[i];
	if (up <= room.bytes)
		return burst;
	/* the room binds: the whole chunks that fit it (fewer than upstream's) */
	for (i = 0; i < n && fit + len[i] <= room.bytes; i++)
		fit += len[i];
	if (!fit && !room.hard)
		return len[0];
	return (u32)fit;
}
