/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe decision cores: the few types and helpers they need, from the
 * kernel when built into a module, from the C library otherwise.
 */
#ifndef MPQOE_TYPES_H
#define MPQOE_TYPES_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/types.h>
#include <linux/math64.h>

/* u64 / u64: div64_u64() works on every architecture the kernel has */
#define MPQOE_DIV64(a, b)	div64_u64((a), (b))
#else
#include <stdbool.h>
#include <stddef.h>

/* the kernel's own definitions (include/uapi/asm-generic/int-ll64.h) */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef signed long long s64;

#define MPQOE_DIV64(a, b)	((u64)(a) / (u64)(b))

/* include/vdso/bits.h, include/linux/bits.h */
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#endif

#define MPQOE_U64_MAX		((u64)~0ULL)
#define MPQOE_U32_MAX		((u32)~0U)
#define MPQOE_USEC_PER_SEC	1000000ULL

#endif /* MPQOE_TYPES_H */
