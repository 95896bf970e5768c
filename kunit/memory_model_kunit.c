// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the store buffers (model/core/memory_model.c), suite
 * bqlm_memory_model: store forwarding, the store-buffering pattern under
 * each memory model, atomics, locks, pso's reordering of stores to
 * different variables.
 */
#include "bqlm_kunit.h"
#include <bqlm/memory_model.h>

struct sb_pair {
	struct bqlm_mem mem;
	struct bqlm_sb sb0;
	struct bqlm_sb sb1;
	struct bqlm_mm_cpu c0;
	struct bqlm_mm_cpu c1;
};

static struct sb_pair *sb_setup(struct kunit *test, enum bqlm_mm_kind kind)
{
	struct sb_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL_MSG(test, p,
				  "two CPUs under %s", bqlm_mm_name(kind));
	p->c0.kind = kind;
	p->c0.mem = p->mem.v;
	p->c0.sb = &p->sb0;
	p->c1.kind = kind;
	p->c1.mem = p->mem.v;
	p->c1.sb = &p->sb1;
	return p;
}

/* A store waits in its CPU's buffer; the CPU itself reads it at once. */
static void sb_store_forwarding(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_TSO);

	bqlm_mm_store(&p->c0, 0, 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 0), 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 0);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 1);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_can_flush(BQLM_MM_TSO, &p->sb0, 0));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_TSO, &p->sb0, 1));
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(p->mem.v, &p->sb0, 0), 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(p->mem.v, &p->sb0, 0), -EINVAL);
	/* sc: no buffer at all */
	p = sb_setup(test, BQLM_MM_SC);
	bqlm_mm_store(&p->c0, 1, 7);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 1), 7);
}

/* Every memory model, as a parameter, its name as the description. */
static const enum bqlm_mm_kind sb_kinds[] = {
	BQLM_MM_SC, BQLM_MM_TSO, BQLM_MM_PSO, BQLM_MM_X86,
};

static void sb_kind_desc(const enum bqlm_mm_kind *kind, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", bqlm_mm_name(*kind));
}

KUNIT_ARRAY_PARAM(sb_kinds, sb_kinds, sb_kind_desc);

/*
 * The store-buffering pattern: both CPUs read the other's old value, but
 * under sc; with smp_mb() on both sides, one of them sees the other.
 */
static void sb_store_buffering(struct kunit *test)
{
	const enum bqlm_mm_kind *kind = test->param_value;
	struct sb_pair *p = sb_setup(test, *kind);
	unsigned int r0, r1;

	bqlm_mm_store(&p->c0, 0, 1);
	bqlm_mm_store(&p->c1, 1, 1);
	r0 = bqlm_mm_load(&p->c0, 1);
	r1 = bqlm_mm_load(&p->c1, 0);
	KUNIT_EXPECT_EQ(test, r0 || r1, *kind == BQLM_MM_SC);
	/* with smp_mb() on both sides, one of them sees the other */
	p = sb_setup(test, *kind);
	bqlm_mm_store(&p->c0, 0, 1);
	bqlm_mm_mb(&p->c0);
	bqlm_mm_store(&p->c1, 1, 1);
	bqlm_mm_mb(&p->c1);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_load(&p->c0, 1) ||
				bqlm_mm_load(&p->c1, 0));
}

/* set_bit: unordered under the LKMM models, a locked op on x86. */
static void sb_atomics(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_TSO);

	bqlm_mm_store(&p->c0, 0, 3);
	bqlm_mm_set_bits(&p->c0, 2, 0x2);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 2);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 2), 0x2);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 2), 0);
	bqlm_mm_mb_after_atomic(&p->c0);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 2), 0x2);
	/* test_and_clear: a full barrier that acts on memory */
	bqlm_mm_store(&p->c1, 0, 9);
	KUNIT_EXPECT_EQ(test, bqlm_mm_test_and_clear_bits(&p->c1, 2, 0x3),
			0x2);
	KUNIT_EXPECT_EQ(test, p->sb1.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 9);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_test_and_set_bits(&p->c1, 2, 0x1), 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0x1);
	bqlm_mm_clear_bits(&p->c0, 2, 0x1);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 2), 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0x1);
	bqlm_mm_mb(&p->c0);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0);
	/* x86: the locked instruction drains and acts on memory */
	p = sb_setup(test, BQLM_MM_X86);
	bqlm_mm_store(&p->c0, 0, 3);
	bqlm_mm_set_bits(&p->c0, 2, 0x2);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 3);
	KUNIT_EXPECT_EQ(test, p->mem.v[2], 0x2);
	bqlm_mm_store(&p->c0, 0, 4);
	bqlm_mm_mb_after_atomic(&p->c0);	/* only a compiler barrier */
	KUNIT_EXPECT_EQ(test, p->sb0.n, 1);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);	/* locked */
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[5], 1);
}

/*
 * Locks: the release waits in the buffer behind the stores made under the
 * lock; nobody else can take the lock before they are visible; the owner
 * can, and under the LKMM models its old stores may stay buffered.
 */
static void sb_locks(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_TSO);

	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	KUNIT_EXPECT_FALSE(test, bqlm_mm_lock_free(&p->c1, 5));
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c1, 5, 2), -EBUSY);
	bqlm_mm_store(&p->c0, 0, 7);
	bqlm_mm_unlock(&p->c0, 5);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 2);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_lock_free(&p->c0, 5));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_lock_free(&p->c1, 5));
	/* pso: the release goes only when it is the oldest */
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_PSO, &p->sb0, 1));
	/* the owner again: unlock and lock collapse, the store stays */
	bqlm_mm_store(&p->c0, 1, 8);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[5], 1);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 2);
	bqlm_mm_unlock(&p->c0, 5);
	while (p->sb0.n)
		KUNIT_ASSERT_EQ_MSG(test, bqlm_mm_flush(p->mem.v, &p->sb0, 0), 0,
				    "%d stores buffered", p->sb0.n);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_lock_free(&p->c1, 5));
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 7);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 1), 8);
	/* x86: the re-acquire is a locked instruction, everything drains */
	p = sb_setup(test, BQLM_MM_X86);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	bqlm_mm_store(&p->c0, 0, 7);
	bqlm_mm_unlock(&p->c0, 5);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	KUNIT_EXPECT_EQ(test, p->sb0.n, 0);
	KUNIT_EXPECT_EQ(test, p->mem.v[0], 7);
	/* sc: everything at once */
	p = sb_setup(test, BQLM_MM_SC);
	KUNIT_EXPECT_EQ(test, bqlm_mm_lock(&p->c0, 5, 1), 0);
	bqlm_mm_unlock(&p->c0, 5);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_lock_free(&p->c1, 5));
}

/* pso: stores to different variables may overtake each other. */
static void sb_pso_order(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_PSO);
	char buf[48];
	static const char *const names[] = { "a", "b" };

	bqlm_mm_store(&p->c0, 0, 1);
	bqlm_mm_store(&p->c0, 1, 2);
	bqlm_mm_store(&p->c0, 0, 3);
	KUNIT_EXPECT_TRUE(test, bqlm_mm_can_flush(BQLM_MM_PSO, &p->sb0, 1));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_PSO, &p->sb0, 2));
	KUNIT_EXPECT_FALSE(test, bqlm_mm_can_flush(BQLM_MM_TSO, &p->sb0, 1));
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c0, 0), 3);
	KUNIT_EXPECT_GT(test, bqlm_mm_describe_entry(&p->sb0, 1, names, 2,
						     buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "b = 2");
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(p->mem.v, &p->sb0, 1), 0);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 1), 2);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 0);
	/* a full buffer makes room by draining its oldest entry */
	bqlm_mm_store(&p->c0, 1, 4);
	bqlm_mm_store(&p->c0, 1, 5);
	KUNIT_EXPECT_EQ(test, p->sb0.n, BQLM_SB_DEPTH);
	KUNIT_EXPECT_EQ(test, bqlm_mm_load(&p->c1, 0), 1);
	bqlm_mm_set_bits(&p->c0, 2, 0x4);
	bqlm_mm_describe_entry(&p->sb0, 2, NULL, 0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "v2 |= 4");
	bqlm_mm_describe_entry(&p->sb0, 3, NULL, 0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "(none)");
	KUNIT_EXPECT_STREQ(test, bqlm_mm_name(BQLM_MM_PSO), "pso");
	KUNIT_EXPECT_STREQ(test, bqlm_mm_name(BQLM_MM_NR), "unknown");
	KUNIT_EXPECT_EQ(test, bqlm_mm_by_name("x86"), BQLM_MM_X86);
	KUNIT_EXPECT_EQ(test, bqlm_mm_by_name("arm"), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_mm_by_name(NULL), -EINVAL);
}


/*
 * A store buffer on a state's line: " label{entry, entry}", oldest first,
 * nothing when empty; the length is snprintf()'s even when cut short
 * (make mutate: the separators were never looked at).
 */
static void sb_describe_buffer(struct kunit *test)
{
	struct sb_pair *p = sb_setup(test, BQLM_MM_TSO);
	char buf[48], small[8];

	KUNIT_EXPECT_EQ(test, bqlm_mm_describe_sb(&p->sb0, "sb", NULL, NULL,
						  buf, sizeof(buf)), 0);
	bqlm_mm_store(&p->c0, 0, 1);
	KUNIT_EXPECT_EQ(test, bqlm_mm_describe_sb(&p->sb0, "sb", NULL, NULL,
						  buf, sizeof(buf)), 11);
	KUNIT_EXPECT_STREQ(test, buf, " sb{v0 = 1}");
	bqlm_mm_store(&p->c0, 1, 2);
	KUNIT_EXPECT_EQ(test, bqlm_mm_describe_sb(&p->sb0, "sb", NULL, NULL,
						  buf, sizeof(buf)), 19);
	KUNIT_EXPECT_STREQ(test, buf, " sb{v0 = 1, v1 = 2}");
	KUNIT_EXPECT_GE(test, bqlm_mm_describe_sb(&p->sb0, "sb", NULL, NULL,
						  small, sizeof(small)),
			(int)sizeof(small));
	KUNIT_EXPECT_STREQ(test, small, " sb{v0 ");
}

static struct kunit_case bqlm_memory_model_cases[] = {
	KUNIT_CASE(sb_store_forwarding),
	KUNIT_CASE_PARAM(sb_store_buffering, sb_kinds_gen_params),
	KUNIT_CASE(sb_atomics),
	KUNIT_CASE(sb_locks),
	KUNIT_CASE(sb_pso_order),
	KUNIT_CASE(sb_describe_buffer),
	{}
};

BQLM_KUNIT_SUITE(bqlm_memory_model, bqlm_memory_model_cases);
