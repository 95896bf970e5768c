// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - store buffers (see <bqlm/memory_model.h>).
 *
 * This file has no kernel counterpart: it stands for the hardware (and for
 * tools/memory-model, the LKMM) under the kernel code the models mirror.
 */
#include "bqlm_internal.h"
#include <bqlm/memory_model.h>

/* NULL-terminated: the options of the models that take a memory model */
const char *const bqlm_mm_names[BQLM_MM_NR + 1] = {
	[BQLM_MM_SC] = "sc",
	[BQLM_MM_TSO] = "tso",
	[BQLM_MM_PSO] = "pso",
	[BQLM_MM_X86] = "x86",
};

/**
 * bqlm_mm_name() - the name of a memory model
 * @kind: the model
 *
 * Return: "sc", "tso", "pso", "x86", or "unknown".
 */
const char *bqlm_mm_name(enum bqlm_mm_kind kind)
{
	return bqlm_name(BQLM_NAMES(bqlm_mm_names), kind, "unknown");
}

/**
 * bqlm_mm_by_name() - look a memory model up by name
 * @name: "sc", "tso", "pso" or "x86"
 *
 * Return: the enum bqlm_mm_kind, or -EINVAL.
 */
int bqlm_mm_by_name(const char *name)
{
	return bqlm_name_find(BQLM_NAMES(bqlm_mm_names), name);
}

static unsigned int bqlm_mm_apply(unsigned int old,
				  const struct bqlm_sb_entry *e)
{
	switch (e->op) {
	case BQLM_SB_SET_BITS:
		return old | e->val;
	case BQLM_SB_CLEAR_BITS:
		return old & ~(unsigned int)e->val;
	default:
		return e->val;
	}
}

/**
 * bqlm_mm_load() - a CPU reads a shared variable
 * @c: the CPU's view
 * @var: the variable
 *
 * The value memory holds, with the CPU's own buffered stores to @var
 * applied oldest first (store forwarding).
 *
 * Return: the value the CPU reads.
 */
unsigned int bqlm_mm_load(const struct bqlm_mm_cpu *c, unsigned int var)
{
	unsigned int v = c->mem[var];
	unsigned int i;

	for (i = 0; i < c->sb->n; i++)
		if (c->sb->e[i].var == var)
			v = bqlm_mm_apply(v, &c->sb->e[i]);
	return v;
}

/**
 * bqlm_mm_flush() - make one buffered store visible
 * @mem: memory (the values of the shared variables)
 * @sb: the buffer
 * @k: the entry; the caller checked bqlm_mm_can_flush()
 *
 * Return: 0, or -EINVAL if there is no entry @k.
 */
int bqlm_mm_flush(unsigned short *mem, struct bqlm_sb *sb, unsigned int k)
{
	unsigned int i;

	if (k >= sb->n)
		return -EINVAL;
	mem[sb->e[k].var] = bqlm_mm_apply(mem[sb->e[k].var], &sb->e[k]);
	for (i = k; i + 1 < sb->n; i++)
		sb->e[i] = sb->e[i + 1];
	sb->n--;
	memset(&sb->e[sb->n], 0, sizeof(sb->e[0]));
	return 0;
}

/**
 * bqlm_mm_can_flush() - may entry @k reach memory next?
 * @kind: the memory model
 * @sb: the buffer
 * @k: the entry
 *
 * FIFO models flush the oldest entry only; pso any entry that has no older
 * entry for the same variable, except a release, which goes only when it
 * is the oldest.
 *
 * Return: true if bqlm_mm_flush() of @k is a step the hardware may take.
 */
bool bqlm_mm_can_flush(enum bqlm_mm_kind kind, const struct bqlm_sb *sb,
		       unsigned int k)
{
	unsigned int i;

	if (k >= sb->n)
		return false;
	if (kind != BQLM_MM_PSO || sb->e[k].op == BQLM_SB_RELEASE)
		return k == 0;
	for (i = 0; i < k; i++)
		if (sb->e[i].var == sb->e[k].var)
			return false;
	return true;
}

static void bqlm_mm_drain(const struct bqlm_mm_cpu *c)
{
	while (c->sb->n)
		bqlm_mm_flush(c->mem, c->sb, 0);
}

static void bqlm_mm_push(const struct bqlm_mm_cpu *c, unsigned int var,
			 unsigned int op, unsigned int val)
{
	struct bqlm_sb_entry *e;

	if (c->kind == BQLM_MM_SC) {
		struct bqlm_sb_entry now = { .var = var, .op = op, .val = val };

		c->mem[var] = bqlm_mm_apply(c->mem[var], &now);
		return;
	}
	/* a full buffer stalls the CPU until its oldest entry drains */
	if (c->sb->n == BQLM_SB_DEPTH)
		bqlm_mm_flush(c->mem, c->sb, 0);
	e = &c->sb->e[c->sb->n++];
	e->var = var;
	e->op = op;
	e->val = val;
}

/**
 * bqlm_mm_store() - a CPU stores to a shared variable (WRITE_ONCE())
 * @c: the CPU's view
 * @var: the variable
 * @val: the value (16 bits)
 */
void bqlm_mm_store(const struct bqlm_mm_cpu *c, unsigned int var,
		   unsigned int val)
{
	bqlm_mm_push(c, var, BQLM_SB_STORE, val);
}

/*
 * A non-value-returning atomic (@op on @var): buffered as a store under
 * the LKMM models, a locked instruction on x86 (the buffer drains before
 * and after).
 */
static void bqlm_mm_atomic(const struct bqlm_mm_cpu *c, unsigned int var,
			   unsigned int op, unsigned int val)
{
	if (c->kind == BQLM_MM_X86)
		bqlm_mm_drain(c);
	bqlm_mm_push(c, var, op, val);
	if (c->kind == BQLM_MM_X86)
		bqlm_mm_drain(c);
}

/**
 * bqlm_mm_set_bits() - set_bit(): a non-value-returning atomic
 * @c: the CPU's view
 * @var: the word
 * @bits: the bits to set
 *
 * Atomic on memory, unordered under the LKMM (tso, pso: buffered until a
 * barrier), a locked instruction on x86 (drains the buffer, then acts on
 * memory).
 */
void bqlm_mm_set_bits(const struct bqlm_mm_cpu *c, unsigned int var,
		      unsigned int bits)
{
	bqlm_mm_atomic(c, var, BQLM_SB_SET_BITS, bits);
}

/**
 * bqlm_mm_clear_bits() - clear_bit(): as bqlm_mm_set_bits()
 * @c: the CPU's view
 * @var: the word
 * @bits: the bits to clear
 */
void bqlm_mm_clear_bits(const struct bqlm_mm_cpu *c, unsigned int var,
			unsigned int bits)
{
	bqlm_mm_atomic(c, var, BQLM_SB_CLEAR_BITS, bits);
}

/**
 * bqlm_mm_test_and_clear_bits() - test_and_clear_bit(): a full barrier
 * @c: the CPU's view
 * @var: the word
 * @bits: the bits to clear
 *
 * Return: the bits of @bits that were set in memory.
 */
unsigned int bqlm_mm_test_and_clear_bits(const struct bqlm_mm_cpu *c,
					 unsigned int var, unsigned int bits)
{
	unsigned int old;

	bqlm_mm_drain(c);
	old = c->mem[var];
	c->mem[var] = old & ~bits;
	return old & bits;
}

/**
 * bqlm_mm_test_and_set_bits() - test_and_set_bit(): a full barrier
 * @c: the CPU's view
 * @var: the word
 * @bits: the bits to set
 *
 * Return: the bits of @bits that were set in memory.
 */
unsigned int bqlm_mm_test_and_set_bits(const struct bqlm_mm_cpu *c,
				       unsigned int var, unsigned int bits)
{
	unsigned int old;

	bqlm_mm_drain(c);
	old = c->mem[var];
	c->mem[var] = old | bits;
	return old & bits;
}

/**
 * bqlm_mm_mb() - smp_mb(): every earlier store is visible before any
 *	later load
 * @c: the CPU's view
 */
void bqlm_mm_mb(const struct bqlm_mm_cpu *c)
{
	bqlm_mm_drain(c);
}

/**
 * bqlm_mm_mb_after_atomic() - smp_mb__after_atomic()
 * @c: the CPU's view
 *
 * Together with the atomic before it, a full barrier: drains the buffer
 * under the LKMM models; nothing to do on x86 (the locked instruction
 * already drained) or under sc.
 */
void bqlm_mm_mb_after_atomic(const struct bqlm_mm_cpu *c)
{
	if (c->kind == BQLM_MM_TSO || c->kind == BQLM_MM_PSO)
		bqlm_mm_drain(c);
}

/**
 * bqlm_mm_lock_free() - may this CPU take the lock in word @var now?
 * @c: the CPU's view
 * @var: the lock word (0: free)
 *
 * Return: true if the CPU sees the lock free (its own pending release
 * included).
 */
bool bqlm_mm_lock_free(const struct bqlm_mm_cpu *c, unsigned int var)
{
	return !bqlm_mm_load(c, var);
}

/**
 * bqlm_mm_lock() - spin_lock(): an atomic read-modify-write, an acquire
 * @c: the CPU's view
 * @var: the lock word (0: free)
 * @owner: the non-zero value the holder writes
 *
 * On x86 a locked instruction: the buffer drains first. Under the LKMM
 * models the acquire orders nothing that came before it: if the CPU's own
 * release of this lock is still buffered, the unlock and this lock
 * collapse (the release never reaches memory, nobody else could have seen
 * the lock free) and the stores made before the unlock stay buffered; an
 * unlock followed by a lock is not a full barrier. The read-modify-write
 * acts on memory.
 *
 * Return: 0, or -EBUSY when the CPU sees the lock held (nothing changes).
 */
int bqlm_mm_lock(const struct bqlm_mm_cpu *c, unsigned int var,
		 unsigned int owner)
{
	unsigned int i;

	bool own = false;

	if (!bqlm_mm_lock_free(c, var))
		return -EBUSY;
	if (c->kind == BQLM_MM_X86)
		bqlm_mm_drain(c);
	for (i = 0; i < c->sb->n;) {
		if (c->sb->e[i].var != var) {
			i++;
			continue;
		}
		/* our own pending release: drop it, keep the lock */
		own = true;
		memmove(&c->sb->e[i], &c->sb->e[i + 1],
			(c->sb->n - i - 1) * sizeof(c->sb->e[0]));
		c->sb->n--;
		memset(&c->sb->e[c->sb->n], 0, sizeof(c->sb->e[0]));
	}
	if (c->mem[var] && !own)
		return -EBUSY;	/* cannot happen: the CPU saw it free */
	c->mem[var] = owner;
	return 0;
}

/**
 * bqlm_mm_unlock() - spin_unlock(): a release store of 0 to the lock word
 * @c: the CPU's view
 * @var: the lock word
 *
 * The store waits in the buffer behind every earlier store (see
 * bqlm_mm_can_flush()), so whoever takes the lock next sees them all.
 */
void bqlm_mm_unlock(const struct bqlm_mm_cpu *c, unsigned int var)
{
	bqlm_mm_push(c, var, BQLM_SB_RELEASE, 0);
}

/**
 * bqlm_mm_describe_entry_as() - "name = value" (or "|=", "&= ~") of entry
 *	@k, with the variable's name given
 * @sb: the buffer
 * @k: the entry
 * @name: the name of the entry's variable, NULL for "v<index>"
 * @buf: the output
 * @len: its size
 *
 * For a model whose variables are too many for a table of names.
 *
 * Return: as snprintf().
 */
int bqlm_mm_describe_entry_as(const struct bqlm_sb *sb, unsigned int k,
			      const char *name, char *buf, size_t len)
{
	const struct bqlm_sb_entry *e;
	const char *op;

	if (k >= sb->n)
		return snprintf(buf, len, "(none)");
	e = &sb->e[k];
	op = e->op == BQLM_SB_SET_BITS ? "|=" :
	     e->op == BQLM_SB_CLEAR_BITS ? "&= ~" :
	     e->op == BQLM_SB_RELEASE ? "= (release)" : "=";
	if (name)
		return snprintf(buf, len, "%s %s %u", name, op, e->val);
	return snprintf(buf, len, "v%u %s %u", e->var, op, e->val);
}

/**
 * bqlm_mm_describe_entry() - "name = value" (or "|=", "&= ~") of entry @k
 * @sb: the buffer
 * @k: the entry
 * @names: names of the variables, may be NULL
 * @nr_names: entries in @names
 * @buf: the output
 * @len: its size
 *
 * Return: as snprintf().
 */
int bqlm_mm_describe_entry(const struct bqlm_sb *sb, unsigned int k,
			   const char *const *names, unsigned int nr_names,
			   char *buf, size_t len)
{
	const char *name = NULL;

	if (k < sb->n && names && sb->e[k].var < nr_names)
		name = names[sb->e[k].var];
	return bqlm_mm_describe_entry_as(sb, k, name, buf, len);
}

/**
 * bqlm_mm_describe_entry_by() - "name = value" (or "|=", "&= ~") of entry
 *	@k, the variable named by the model
 * @sb: the buffer
 * @k: the entry
 * @name: the model's names of its variables, may be NULL
 * @arg: passed to @name
 * @buf: the output
 * @len: its size
 *
 * Return: as snprintf().
 */
int bqlm_mm_describe_entry_by(const struct bqlm_sb *sb, unsigned int k,
			      bqlm_mm_name_t name, const void *arg,
			      char *buf, size_t len)
{
	char tmp[32];

	if (k < sb->n && name &&
	    name(arg, sb->e[k].var, tmp, sizeof(tmp)) > 0)
		return bqlm_mm_describe_entry_as(sb, k, tmp, buf, len);
	return bqlm_mm_describe_entry_as(sb, k, NULL, buf, len);
}

/**
 * bqlm_mm_describe_sb() - a CPU's store buffer, for the line of a state
 * @sb: the buffer
 * @label: what the line calls it ("sb", "producer-sb")
 * @name: the model's names of its variables, may be NULL
 * @arg: passed to @name
 * @buf: the output
 * @len: its size
 *
 * Nothing for an empty buffer, else " label{entry, entry}", oldest first.
 *
 * Return: as snprintf().
 */
int bqlm_mm_describe_sb(const struct bqlm_sb *sb, const char *label,
			bqlm_mm_name_t name, const void *arg, char *buf,
			size_t len)
{
	unsigned int k;
	size_t n;

	if (!sb->n)
		return 0;
	n = snprintf(buf, len, " %s{", label);
	for (k = 0; k < sb->n && n < len; k++) {
		n += bqlm_mm_describe_entry_by(sb, k, name, arg, buf + n,
					       len - n);
		if (n < len)
			n += snprintf(buf + n, len - n, "%s",
				      k + 1 < sb->n ? ", " : "}");
	}
	return n;
}
