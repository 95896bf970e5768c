// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ptr_ring model (model/ptr_ring.c), suite
 * bqlm_ptr_ring: produce and consume, the batched zeroing of consumed
 * slots, resize and purge, on a sequentially consistent CPU. The
 * comparison with the kernel's own <linux/ptr_ring.h> is the suite
 * bqlm_ptr_ring_conformance.
 */
#include "bqlm_kunit.h"
#include <bqlm/ptr_ring.h>

/* A sequentially consistent CPU on @mem with its own buffer @sb. */
static void ptr_ring_sc_view(struct bqlm_mm_cpu *c, struct bqlm_mem *mem,
			struct bqlm_sb *sb)
{
	c->kind = BQLM_MM_SC;
	c->mem = mem->v;
	c->sb = sb;
}

static void ptr_ring_produce_consume(struct kunit *test)
{
	struct bqlm_ptr_ring r;
	struct bqlm_mem mem;
	struct bqlm_sb sb;
	struct bqlm_mm_cpu c;
	unsigned int i;

	memset(&mem, 0, sizeof(mem));
	memset(&sb, 0, sizeof(sb));
	ptr_ring_sc_view(&c, &mem, &sb);
	bqlm_ptr_ring_init(&r, 2, 4, BQLM_PTR_RING_BATCH);
	/* 16 entries per batch is above half the ring: batching is off */
	KUNIT_EXPECT_EQ(test, r.batch, 1);
	KUNIT_EXPECT_EQ(test, r.size, 4);
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_empty(&r, &c));
	for (i = 1; i <= 4; i++) {
		KUNIT_EXPECT_EQ_MSG(test, bqlm___ptr_ring_check_produce(&r, &c),
				    0, "before entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, bqlm___ptr_ring_produce(&r, &c, i), 0,
				    "entry %u", i);
	}
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_full(&r, &c));
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&r, &c), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_produce(&r, &c, 9), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_count(&r, mem.v), 4);
	/* the slots are memory words 2..5 */
	KUNIT_EXPECT_EQ(test, mem.v[2], 1);
	KUNIT_EXPECT_EQ(test, mem.v[5], 4);
	KUNIT_EXPECT_EQ(test, mem.v[6], 0);
	for (i = 1; i <= 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, bqlm___ptr_ring_consume(&r, &c), i,
				    "consume %u", i);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&r, &c), 0);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_count(&r, mem.v), 0);
	KUNIT_EXPECT_FALSE(test, bqlm___ptr_ring_full(&r, &c));
	/* a ring of size 0 takes nothing and is neither full nor readable */
	bqlm_ptr_ring_init(&r, 2, 0, 1);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&r, &c), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, bqlm___ptr_ring_full(&r, &c));
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_peek(&r, &c), 0);
}

static void ptr_ring_batched_zeroing(struct kunit *test)
{
	unsigned int got[4];
	struct bqlm_ptr_ring r;
	struct bqlm_mem mem;
	struct bqlm_sb sb;
	struct bqlm_mm_cpu c;
	unsigned int i;

	memset(&mem, 0, sizeof(mem));
	memset(&sb, 0, sizeof(sb));
	ptr_ring_sc_view(&c, &mem, &sb);
	bqlm_ptr_ring_init(&r, 0, 4, 2);
	KUNIT_EXPECT_EQ(test, r.batch, 2);
	for (i = 1; i <= 4; i++)
		KUNIT_ASSERT_EQ_MSG(test, bqlm___ptr_ring_produce(&r, &c, i), 0,
				    "entry %u", i);
	/* one consumed: its slot is not zeroed yet, the producer waits */
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&r, &c), 1);
	KUNIT_EXPECT_EQ(test, mem.v[0], 1);
	KUNIT_EXPECT_EQ(test, r.consumer_head, 1);
	KUNIT_EXPECT_EQ(test, r.consumer_tail, 0);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&r, &c), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_count(&r, mem.v), 3);
	/* the second completes the batch: both slots zeroed at once */
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&r, &c), 2);
	KUNIT_EXPECT_EQ(test, mem.v[0], 0);
	KUNIT_EXPECT_EQ(test, mem.v[1], 0);
	KUNIT_EXPECT_EQ(test, r.consumer_tail, 2);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&r, &c), 0);
	/* batched consume up to the end of the ring wraps the indices */
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume_batched(&r, &c, got, 4),
			2);
	KUNIT_EXPECT_EQ(test, got[0], 3);
	KUNIT_EXPECT_EQ(test, got[1], 4);
	KUNIT_EXPECT_EQ(test, r.consumer_head, 0);
	KUNIT_EXPECT_EQ(test, r.consumer_tail, 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, mem.v[i], 0, "slot %u", i);
	/* the kernel's rule: a batch above half the ring becomes 1 */
	bqlm___ptr_ring_set_size(&r, 3, 2);
	KUNIT_EXPECT_EQ(test, r.batch, 1);
	bqlm___ptr_ring_set_size(&r, 4, 0);
	KUNIT_EXPECT_EQ(test, r.batch, 1);
}

static void ptr_ring_resize_purge(struct kunit *test)
{
	unsigned int out[4];
	struct bqlm_ptr_ring r;
	struct bqlm_mem mem;
	struct bqlm_sb sb;
	struct bqlm_mm_cpu c;
	unsigned int i;

	memset(&mem, 0, sizeof(mem));
	memset(&sb, 0, sizeof(sb));
	ptr_ring_sc_view(&c, &mem, &sb);
	bqlm_ptr_ring_init(&r, 0, 4, 1);
	for (i = 1; i <= 3; i++)
		KUNIT_ASSERT_EQ_MSG(test, bqlm___ptr_ring_produce(&r, &c, i), 0,
				    "entry %u", i);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&r, &c), 1);
	/* shrink to 1: entry 2 is kept, 3 freed; the new ring is full */
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_resize(&r, &c, 1, 1, out, 4), 1);
	KUNIT_EXPECT_EQ(test, out[0], 3);
	KUNIT_EXPECT_EQ(test, r.size, 1);
	KUNIT_EXPECT_EQ(test, r.producer, 0);
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_full(&r, &c));
	/* grow to 4: the entry stays first, room behind it */
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_resize(&r, &c, 4, 1, out, 4), 0);
	KUNIT_EXPECT_EQ(test, r.producer, 1);
	KUNIT_EXPECT_FALSE(test, bqlm___ptr_ring_full(&r, &c));
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_produce(&r, &c, 5), 0);
	/* purge frees everything in order */
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_purge(&r, &c, out, 4), 2);
	KUNIT_EXPECT_EQ(test, out[0], 2);
	KUNIT_EXPECT_EQ(test, out[1], 5);
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_empty(&r, &c));
	/* too little room to report what is freed */
	KUNIT_ASSERT_EQ(test, bqlm___ptr_ring_produce(&r, &c, 6), 0);
	KUNIT_ASSERT_EQ(test, bqlm___ptr_ring_produce(&r, &c, 7), 0);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_purge(&r, &c, out, 1), -ENOSPC);
}

static struct kunit_case bqlm_ptr_ring_cases[] = {
	KUNIT_CASE(ptr_ring_produce_consume),
	KUNIT_CASE(ptr_ring_batched_zeroing),
	KUNIT_CASE(ptr_ring_resize_purge),
	{}
};

BQLM_KUNIT_SUITE(bqlm_ptr_ring, bqlm_ptr_ring_cases);
