/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - a small seeded pseudo-random generator (splitmix64).
 *
 * Every randomised test, workload and simulation takes an explicit seed and
 * draws from one of these, so runs repeat exactly, in the kernel and in
 * userspace alike.
 */
#ifndef _BQLM_PRNG_H
#define _BQLM_PRNG_H

#include <bqlm/types.h>
#include "bqlm_internal.h"	/* div_u64_rem() */

/**
 * struct bqlm_prng - generator state
 * @s: the state word
 */
struct bqlm_prng {
	u64 s;
};

/**
 * bqlm_prng_seed() - start a generator
 * @r: the generator
 * @seed: the seed; every value, 0 included, is a valid seed
 */
static inline void bqlm_prng_seed(struct bqlm_prng *r, u64 seed)
{
	r->s = seed;
}

/**
 * bqlm_prng_next() - next 64 random bits
 * @r: the generator
 *
 * Return: the next value of the splitmix64 sequence.
 */
static inline u64 bqlm_prng_next(struct bqlm_prng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * bqlm_prng_below() - a value in [0, @n)
 * @r: the generator
 * @n: the bound, > 0 (0 gives 0)
 *
 * Return: a value below @n (modulo bias is irrelevant at the sizes used).
 */
static inline unsigned int bqlm_prng_below(struct bqlm_prng *r,
					   unsigned int n)
{
	unsigned int rem;

	if (!n)
		return 0;
	/* the 64-bit value modulo @n, without a 64-bit "%" (32-bit kernels) */
	div_u64_rem(bqlm_prng_next(r), n, &rem);
	return rem;
}

#endif /* _BQLM_PRNG_H */
