/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - store buffers: a small operational weak memory model for the
 * explorer.
 *
 * A model that wants to see what a lost wakeup looks like on real hardware
 * keeps the variables two CPUs share without a common lock in an array of
 * unsigned short (a struct bqlm_mem for a handful of them, or an array of
 * its own size, as the tun model's ring slots), gives every modelled CPU a
 * struct bqlm_sb (its store buffer), and does every access to a shared
 * variable through the functions below, passing the memory model in force:
 *
 *  - sc: sequential consistency, stores reach memory at once; the buffer
 *    stays empty;
 *  - tso: a FIFO store buffer per CPU (the store->load reordering of x86,
 *    SPARC TSO and of the LKMM's store-buffering pattern); loads read the
 *    CPU's own youngest buffered store first, then memory. Atomic
 *    operations follow the LKMM: value-returning atomics (test_and_set_bit,
 *    test_and_clear_bit, xchg, ...) are full barriers; non-value-returning
 *    ones (set_bit, clear_bit) are atomic on memory but unordered: their
 *    effect waits in the buffer like a store, until smp_mb() or
 *    smp_mb__after_atomic();
 *  - pso: as tso, but stores to different variables may reach memory out
 *    of order (only stores to the same variable stay in order);
 *  - x86: x86-TSO exactly: as tso, but every locked instruction (all
 *    atomic bitops, spin_lock()) drains the buffer first, and
 *    smp_mb__after_atomic() is only a compiler barrier.
 *
 * Making a buffered store visible is a step of its own (bqlm_mm_flush(),
 * one explorer action per flushable entry). smp_mb() and the
 * value-returning atomics drain the whole buffer inside the step that
 * issues them: the interleavings in which other CPUs run between two of
 * those flushes are reached through the flush actions before the barrier.
 *
 * Locks are shared words too: spin_unlock() is a release store of 0 that
 * waits in the buffer like any store (it reaches memory after every
 * earlier store; under pso a release entry goes only when it is the
 * oldest), and another CPU can take the lock only once that store is in
 * memory, so it sees everything done under the lock. spin_lock() is an
 * atomic read-modify-write on memory: on x86 a locked instruction that
 * drains the whole buffer; under the LKMM models (an acquire) it first
 * commits the CPU's own pending stores to the lock word (and, FIFO, the
 * older ones) and orders nothing else, so stores made under an earlier
 * hold of the lock may stay buffered across an unlock/lock pair.
 * Variables only ever accessed under one lock are not kept here at all
 * (the lock orders them).
 */
#ifndef _BQLM_MEMORY_MODEL_H
#define _BQLM_MEMORY_MODEL_H

#include <bqlm/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum bqlm_mm_kind - the memory model in force
 * @BQLM_MM_SC: sequential consistency
 * @BQLM_MM_TSO: FIFO store buffers, LKMM atomics
 * @BQLM_MM_PSO: per-variable store buffers, LKMM atomics
 * @BQLM_MM_X86: x86-TSO: FIFO store buffers, locked instructions drain
 * @BQLM_MM_NR: number of models
 */
enum bqlm_mm_kind {
	BQLM_MM_SC,
	BQLM_MM_TSO,
	BQLM_MM_PSO,
	BQLM_MM_X86,
	BQLM_MM_NR
};

/* Shared variables a struct bqlm_mem holds. */
#define BQLM_MM_MAX_VARS	16
/*
 * Variables a buffered store can name (struct bqlm_sb_entry.var): a memory
 * of more variables is fine under sc, which buffers nothing; a model that
 * runs under another memory model keeps its variables below this.
 */
#define BQLM_SB_MAX_VARS	256
/* Entries a store buffer holds; a store into a full buffer flushes one. */
#define BQLM_SB_DEPTH		3

/* struct bqlm_sb_entry.op */
#define BQLM_SB_STORE		1	/* var = val */
#define BQLM_SB_SET_BITS	2	/* var |= val (set_bit()) */
#define BQLM_SB_CLEAR_BITS	3	/* var &= ~val (clear_bit()) */
#define BQLM_SB_RELEASE		4	/* var = val, a release (unlock) */

/**
 * struct bqlm_sb_entry - one buffered store
 * @var: the variable's index in the memory, below BQLM_SB_MAX_VARS
 * @op: BQLM_SB_*
 * @val: the value stored, or the bits set or cleared
 */
struct bqlm_sb_entry {
	unsigned char var;
	unsigned char op;
	unsigned short val;
};

/**
 * struct bqlm_sb - one CPU's store buffer, oldest entry first
 * @e: the entries; unused ones are zero
 * @n: entries in use
 * @pad: zero
 */
struct bqlm_sb {
	struct bqlm_sb_entry e[BQLM_SB_DEPTH];
	unsigned char n;
	unsigned char pad[3];
};

/**
 * struct bqlm_mem - a small memory: BQLM_MM_MAX_VARS shared variables
 * @v: the values; struct bqlm_mm_cpu.mem points at them
 */
struct bqlm_mem {
	unsigned short v[BQLM_MM_MAX_VARS];
};

/**
 * struct bqlm_mm_cpu - one CPU's view of memory, for one step
 * @kind: the memory model
 * @mem: memory: the values of the shared variables, indexed by variable
 *	(as many as the model has; the functions below never look beyond
 *	the variables they are given)
 * @sb: the CPU's store buffer
 */
struct bqlm_mm_cpu {
	enum bqlm_mm_kind kind;
	unsigned short *mem;
	struct bqlm_sb *sb;
};

const char *bqlm_mm_name(enum bqlm_mm_kind kind);
int bqlm_mm_by_name(const char *name);

unsigned int bqlm_mm_load(const struct bqlm_mm_cpu *c, unsigned int var);
void bqlm_mm_store(const struct bqlm_mm_cpu *c, unsigned int var,
		   unsigned int val);
void bqlm_mm_set_bits(const struct bqlm_mm_cpu *c, unsigned int var,
		      unsigned int bits);
void bqlm_mm_clear_bits(const struct bqlm_mm_cpu *c, unsigned int var,
			unsigned int bits);
unsigned int bqlm_mm_test_and_clear_bits(const struct bqlm_mm_cpu *c,
					 unsigned int var, unsigned int bits);
unsigned int bqlm_mm_test_and_set_bits(const struct bqlm_mm_cpu *c,
				       unsigned int var, unsigned int bits);
void bqlm_mm_mb(const struct bqlm_mm_cpu *c);
void bqlm_mm_mb_after_atomic(const struct bqlm_mm_cpu *c);
bool bqlm_mm_lock_free(const struct bqlm_mm_cpu *c, unsigned int var);
int bqlm_mm_lock(const struct bqlm_mm_cpu *c, unsigned int var,
		 unsigned int owner);
void bqlm_mm_unlock(const struct bqlm_mm_cpu *c, unsigned int var);

bool bqlm_mm_can_flush(enum bqlm_mm_kind kind, const struct bqlm_sb *sb,
		       unsigned int k);
int bqlm_mm_flush(unsigned short *mem, struct bqlm_sb *sb, unsigned int k);
int bqlm_mm_describe_entry(const struct bqlm_sb *sb, unsigned int k,
			   const char *const *names, unsigned int nr_names,
			   char *buf, size_t len);
int bqlm_mm_describe_entry_as(const struct bqlm_sb *sb, unsigned int k,
			      const char *name, char *buf, size_t len);

/**
 * typedef bqlm_mm_name_t - how a model names its shared variables in traces
 * @arg: the model's argument (its configuration)
 * @var: the variable
 * @buf: receives the name
 * @len: room in @buf
 *
 * Return: as snprintf(); 0 for a variable without a name ("v<index>").
 */
typedef int (*bqlm_mm_name_t)(const void *arg, unsigned int var, char *buf,
			      size_t len);

int bqlm_mm_describe_entry_by(const struct bqlm_sb *sb, unsigned int k,
			      bqlm_mm_name_t name, const void *arg,
			      char *buf, size_t len);
int bqlm_mm_describe_sb(const struct bqlm_sb *sb, const char *label,
			bqlm_mm_name_t name, const void *arg, char *buf,
			size_t len);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_MEMORY_MODEL_H */
