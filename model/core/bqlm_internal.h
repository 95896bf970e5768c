/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the portability layer.
 *
 * Every model source includes this header and nothing else from the
 * platform, in the manner of tools/testing/vma/vma_internal.h: built as part
 * of a kernel (__KERNEL__) it maps onto the real <linux/...> headers; built in
 * userspace it provides small stand-ins with the same names and the same
 * semantics for the subset the model uses.
 *
 * The model is single-threaded by construction. Concurrency is explicit: the
 * explorer chooses which modelled CPU runs which step. The model therefore
 * uses no barriers, READ_ONCE() or atomics: where a barrier matters to the
 * modelled protocol, the model represents it as a step of its own.
 */
#ifndef _BQLM_INTERNAL_H
#define _BQLM_INTERNAL_H

#include <bqlm/types.h>

#ifdef __KERNEL__

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/prefetch.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/types.h>

#else /* userspace */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BITS_PER_LONG		(__SIZEOF_LONG__ * 8)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define noinline		__attribute_noinline__	/* <sys/cdefs.h> */
#define fallthrough		__attribute__((__fallthrough__))


#define min(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
			   (void)(&_a == &_b); _a < _b ? _a : _b; })
#define max(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
			   (void)(&_a == &_b); _a > _b ? _a : _b; })
#define min_t(t, a, b)	({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b)	({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
/*
 * As the kernel's __clamp(): the high bound wins when @v reaches it, so
 * that with lo > hi (limit_min above limit_max, which sysfs allows) the
 * result is hi for v >= hi and lo otherwise, not min(max(v, lo), hi).
 */
#define clamp(v, lo, hi) ({						\
	__typeof__(v) _v = (v);						\
	__typeof__(lo) _lo = (lo);					\
	__typeof__(hi) _hi = (hi);					\
	_v >= _hi ? _hi : _v <= _lo ? _lo : _v;				\
})

/* The jiffies comparisons of <linux/jiffies.h>, on explicit values. */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[BIT_WORD(nr)] & BIT_MASK(nr);
}

/* <linux/bitops.h>: the number of bits set in a word. */
static inline unsigned long hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

/*
 * <linux/math64.h>. A 32-bit kernel has no 64-bit "/" or "%" (no libgcc
 * __udivdi3 and __umoddi3): 64-bit division goes through these, here plain
 * C with the same results.
 */
static inline u64 div_u64_rem(u64 dividend, unsigned int divisor,
			      unsigned int *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, unsigned int divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#endif /* __KERNEL__ */

/*
 * Memory for the model's large, long-lived structures (the explorer's state
 * store and hash table): zeroed, possibly large, freed with bqlm_free().
 * The kernel side may sleep (GFP_KERNEL) and falls back to vmalloc.
 */
#ifdef __KERNEL__
static inline void *bqlm_alloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static inline void bqlm_free(void *p)
{
	kvfree(p);
}

/* A long loop in process context gives the CPU up now and then. */
static inline void bqlm_cond_resched(void)
{
	cond_resched();
}

/* A hint that @p will be read soon (the explorer's hash set). */
static inline void bqlm_prefetch(const void *p)
{
	prefetch(p);
}
#else
static inline void *bqlm_alloc(size_t size)
{
	return calloc(1, size);
}

static inline void bqlm_free(void *p)
{
	free(p);
}

static inline void bqlm_cond_resched(void)
{
}

static inline void bqlm_prefetch(const void *p)
{
	__builtin_prefetch(p);
}
#endif

/*
 * Name tables: the name of value i of an enum is element i of an array,
 * a string or a struct whose field names it. BQLM_NAMES() describes an
 * array of strings, BQLM_NAMES_OF() an array of structs by their @field;
 * bqlm_name() gives the name of a value, bqlm_name_find() the value of a
 * name.
 */
struct bqlm_names {
	const char *const *first;
	size_t stride;
	unsigned int nr;
};

#define BQLM_NAMES(table)						\
	((struct bqlm_names){ &(table)[0], sizeof((table)[0]),		\
			      ARRAY_SIZE(table) })
#define BQLM_NAMES_OF(table, field)					\
	((struct bqlm_names){ &(table)[0].field, sizeof((table)[0]),	\
			      ARRAY_SIZE(table) })

/* The name of value @i, or @dflt when @i is out of range or unnamed. */
static inline const char *bqlm_name(struct bqlm_names t, unsigned int i,
				    const char *dflt)
{
	const char *s;

	if (i >= t.nr)
		return dflt;
	s = *(const char *const *)((const char *)t.first + i * t.stride);
	return s ? s : dflt;
}

/* The value named by the @len characters at @name, or -EINVAL. */
static inline int bqlm_name_findn(struct bqlm_names t, const char *name,
				  size_t len)
{
	const char *s;
	unsigned int i;

	for (i = 0; name && i < t.nr; i++) {
		s = bqlm_name(t, i, NULL);
		if (s && !strncmp(s, name, len) && !s[len])
			return i;
	}
	return -EINVAL;
}

/* The value named @name (NULL: none), or -EINVAL. */
static inline int bqlm_name_find(struct bqlm_names t, const char *name)
{
	return name ? bqlm_name_findn(t, name, strlen(name)) : -EINVAL;
}

/* The memory models' names, NULL-terminated (model/core/memory_model.c). */
extern const char *const bqlm_mm_names[];

#define BQLM_FNV_OFFSET		0xcbf29ce484222325ULL
#define BQLM_FNV_PRIME		0x100000001b3ULL

/*
 * bqlm_fnv_u64() - fold one 64-bit value into an FNV-1a digest, byte by
 * byte, little end first, so that digests do not depend on the host.
 */
static inline unsigned long long bqlm_fnv_u64(unsigned long long h,
					      unsigned long long v)
{
	int i;

	for (i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= BQLM_FNV_PRIME;
	}
	return h;
}

#endif /* _BQLM_INTERNAL_H */
