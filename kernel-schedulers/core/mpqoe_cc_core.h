/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe coupled congestion control: internals shared by cc_common.c,
 * cc_lia.c, cc_olia.c and cc_balia.c (not part of the glue's contract).
 */
#ifndef MPQOE_CC_CORE_H
#define MPQOE_CC_CORE_H

#include "mpqoe_cc.h"

#define MPQOE_CC_MSS_MAX	65535U
#define MPQOE_CC_ONE_W		BIT_ULL(MPQOE_CC_W_SHIFT)
#define MPQOE_CC_ONE_INC	((s64)BIT_ULL(MPQOE_CC_INC_SHIFT))
#define MPQOE_CC_ONE_FRAC	BIT_ULL(MPQOE_CC_FRAC_SHIFT)

/*
 * The usable subflows of a view, with every input clamped to its range
 * (cwnd [1, 2^24], rtt [1 us, 2^28 us], mss [1, 65535]). Only the entries
 * whose bit is set in @mask are filled.
 */
struct mpqoe_cc_norm {
	u32 cwnd[MPQOE_CC_MAX_PATHS];
	u32 rtt[MPQOE_CC_MAX_PATHS];
	u32 mss[MPQOE_CC_MAX_PATHS];
	u32 loss[MPQOE_CC_MAX_PATHS];
	u8 mask;		/* usable paths (bit = index in the view) */
	u8 count;		/* bits set in mask */
};

/* Only the low bits of @self are used: an index beyond the view's array
 * reads a valid entry rather than memory beyond it.
 */
static inline unsigned int mpqoe_cc_idx(unsigned int self)
{
	return self & (MPQOE_CC_MAX_PATHS - 1);
}

static inline u64 mpqoe_cc_min64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 mpqoe_cc_max64(u64 a, u64 b)
{
	return a > b ? a : b;
}

static inline u64 mpqoe_cc_add_sat(u64 a, u64 b)
{
	return a + b < a ? MPQOE_U64_MAX : a + b;
}

static inline u32 mpqoe_cc_clamp_cwnd(u32 cwnd)
{
	if (!cwnd)
		return 1;
	return cwnd > MPQOE_CC_CWND_MAX ? MPQOE_CC_CWND_MAX : cwnd;
}

static inline u32 mpqoe_cc_clamp_of(const struct mpqoe_cc_path *p)
{
	return p->cwnd_clamp ? p->cwnd_clamp : MPQOE_U32_MAX;
}

bool mpqoe_cc_normalize(const struct mpqoe_cc_view *v, unsigned int self,
			u32 cwnd_self, struct mpqoe_cc_norm *nm);

#endif /* MPQOE_CC_CORE_H */
