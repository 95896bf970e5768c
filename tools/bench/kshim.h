/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel definitions lib/dynamic_queue_limits.c and
 * include/linux/dynamic_queue_limits.h use, for building the kernel's own
 * DQL in userspace next to the model (make bench: instructions per
 * operation). Forced in with -include; the kernel headers those two files
 * include are empty stubs in the build directory, but for
 * <linux/dynamic_queue_limits.h>, which is the tree's. x86 semantics: the
 * SMP barriers the DQL uses are compiler barriers there. jiffies and
 * READ_ONCE()/WRITE_ONCE() are volatile accesses, as in the kernel: their
 * cost is part of what is measured.
 */
#ifndef _BQLM_KSHIM_H
#define _BQLM_KSHIM_H

#include <limits.h>
#include <stdbool.h>
#include <string.h>

#define BITS_PER_LONG		(__SIZEOF_LONG__ * 8)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return 1UL & (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG));
}

extern volatile unsigned long jiffies;

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define barrier()		do { __asm__ __volatile__("" : : : "memory"); } while (0)
/* x86: loads are not reordered with loads, nor stores with stores */
#define smp_rmb()		barrier()
#define smp_wmb()		barrier()
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define BUG_ON(c)		do { if (unlikely(c)) __builtin_trap(); } while (0)
#define WARN_ON_ONCE(c)		unlikely(c)

#define max(a, b)		((a) > (b) ? (a) : (b))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max_t(t, a, b)		max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)

#define EXPORT_SYMBOL(s)
#define ____cacheline_aligned_in_smp	__attribute__((__aligned__(64)))
#define trace_dql_stall_detected(...)	do { } while (0)

#endif /* _BQLM_KSHIM_H */
