// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ptr_ring model (model/kernel/ptr_ring.c), suite
 * bqlm_ptr_ring: produce and consume, the batched zeroing of consumed
 * slots, resize and purge, on a sequentially consistent CPU. The
 * comparison with the kernel's own <linux/ptr_ring.h> is the suite
 * bqlm_ptr_ring_conformance.
 */
#include "bqlm_kunit.h"
#include <bqlm/ptr_ring.h>

/* A ring, its memory and a sequentially consistent CPU on it */
struct ptr_ring_sc {
	struct bqlm_ptr_ring r;
	struct bqlm_mem mem;
	struct bqlm_sb sb;
	struct bqlm_mm_cpu c;
};

/*
 * Zeroed memory and store buffer, the CPU on them, and a ring of @size
 * slots from memory word @base that zeroes consumed slots by @batch.
 */
static void ptr_ring_sc_init(struct ptr_ring_sc *t, unsigned int base,
			     unsigned int size, unsigned int batch)
{
	memset(t, 0, sizeof(*t));
	t->c.kind = BQLM_MM_SC;
	t->c.mem = t->mem.v;
	t->c.sb = &t->sb;
	bqlm_ptr_ring_init(&t->r, base, size, batch);
}

/* Entries 1..@n produced, each one asserted */
static void ptr_ring_fill(struct kunit *test, struct ptr_ring_sc *t,
			  unsigned int n)
{
	unsigned int i;

	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_EQ_MSG(test, bqlm___ptr_ring_produce(&t->r, &t->c, i),
				    0, "entry %u", i);
}

static void ptr_ring_produce_consume(struct kunit *test)
{
	struct ptr_ring_sc t;
	unsigned int i;

	ptr_ring_sc_init(&t, 2, 4, BQLM_PTR_RING_BATCH);
	/* 16 entries per batch is above half the ring: batching is off */
	KUNIT_EXPECT_EQ(test, t.r.batch, 1);
	KUNIT_EXPECT_EQ(test, t.r.size, 4);
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_empty(&t.r, &t.c));
	for (i = 1; i <= 4; i++) {
		KUNIT_EXPECT_EQ_MSG(test, bqlm___ptr_ring_check_produce(&t.r, &t.c),
				    0, "before entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, bqlm___ptr_ring_produce(&t.r, &t.c, i), 0,
				    "entry %u", i);
	}
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_full(&t.r, &t.c));
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&t.r, &t.c), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_produce(&t.r, &t.c, 9), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_count(&t.r, t.mem.v), 4);
	/* the slots are memory words 2..5 */
	KUNIT_EXPECT_EQ(test, t.mem.v[2], 1);
	KUNIT_EXPECT_EQ(test, t.mem.v[5], 4);
	KUNIT_EXPECT_EQ(test, t.mem.v[6], 0);
	for (i = 1; i <= 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, bqlm___ptr_ring_consume(&t.r, &t.c), i,
				    "consume %u", i);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&t.r, &t.c), 0);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_count(&t.r, t.mem.v), 0);
	KUNIT_EXPECT_FALSE(test, bqlm___ptr_ring_full(&t.r, &t.c));
	/* a ring of size 0 takes nothing and is neither full nor readable */
	bqlm_ptr_ring_init(&t.r, 2, 0, 1);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&t.r, &t.c), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, bqlm___ptr_ring_full(&t.r, &t.c));
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_peek(&t.r, &t.c), 0);
}

static void ptr_ring_batched_zeroing(struct kunit *test)
{
	unsigned int got[4];
	struct ptr_ring_sc t;
	unsigned int i;

	ptr_ring_sc_init(&t, 0, 4, 2);
	KUNIT_EXPECT_EQ(test, t.r.batch, 2);
	ptr_ring_fill(test, &t, 4);
	/* one consumed: its slot is not zeroed yet, the producer waits */
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&t.r, &t.c), 1);
	KUNIT_EXPECT_EQ(test, t.mem.v[0], 1);
	KUNIT_EXPECT_EQ(test, t.r.consumer_head, 1);
	KUNIT_EXPECT_EQ(test, t.r.consumer_tail, 0);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&t.r, &t.c), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_count(&t.r, t.mem.v), 3);
	/* the second completes the batch: both slots zeroed at once */
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&t.r, &t.c), 2);
	KUNIT_EXPECT_EQ(test, t.mem.v[0], 0);
	KUNIT_EXPECT_EQ(test, t.mem.v[1], 0);
	KUNIT_EXPECT_EQ(test, t.r.consumer_tail, 2);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&t.r, &t.c), 0);
	/* batched consume up to the end of the ring wraps the indices */
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume_batched(&t.r, &t.c, got, 4),
			2);
	KUNIT_EXPECT_EQ(test, got[0], 3);
	KUNIT_EXPECT_EQ(test, got[1], 4);
	KUNIT_EXPECT_EQ(test, t.r.consumer_head, 0);
	KUNIT_EXPECT_EQ(test, t.r.consumer_tail, 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, t.mem.v[i], 0, "slot %u", i);
	/* the kernel's rule: a batch above half the ring becomes 1 */
	bqlm___ptr_ring_set_size(&t.r, 3, 2);
	KUNIT_EXPECT_EQ(test, t.r.batch, 1);
	bqlm___ptr_ring_set_size(&t.r, 4, 0);
	KUNIT_EXPECT_EQ(test, t.r.batch, 1);
}

static void ptr_ring_resize_purge(struct kunit *test)
{
	unsigned int out[4];
	struct ptr_ring_sc t;

	ptr_ring_sc_init(&t, 0, 4, 1);
	ptr_ring_fill(test, &t, 3);
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&t.r, &t.c), 1);
	/* shrink to 1: entry 2 is kept, 3 freed; the new ring is full */
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_resize(&t.r, &t.c, 1, 1, out, 4), 1);
	KUNIT_EXPECT_EQ(test, out[0], 3);
	KUNIT_EXPECT_EQ(test, t.r.size, 1);
	KUNIT_EXPECT_EQ(test, t.r.producer, 0);
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_full(&t.r, &t.c));
	/* grow to 4: the entry stays first, room behind it */
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_resize(&t.r, &t.c, 4, 1, out, 4), 0);
	KUNIT_EXPECT_EQ(test, t.r.producer, 1);
	KUNIT_EXPECT_FALSE(test, bqlm___ptr_ring_full(&t.r, &t.c));
	KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_produce(&t.r, &t.c, 5), 0);
	/* purge frees everything in order */
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_purge(&t.r, &t.c, out, 4), 2);
	KUNIT_EXPECT_EQ(test, out[0], 2);
	KUNIT_EXPECT_EQ(test, out[1], 5);
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_empty(&t.r, &t.c));
	/* too little room to report what is freed */
	KUNIT_ASSERT_EQ(test, bqlm___ptr_ring_produce(&t.r, &t.c, 6), 0);
	KUNIT_ASSERT_EQ(test, bqlm___ptr_ring_produce(&t.r, &t.c, 7), 0);
	KUNIT_EXPECT_EQ(test, bqlm_ptr_ring_purge(&t.r, &t.c, out, 1), -ENOSPC);
}

static struct kunit_case bqlm_ptr_ring_cases[] = {
	KUNIT_CASE(ptr_ring_produce_consume),
	KUNIT_CASE(ptr_ring_batched_zeroing),
	KUNIT_CASE(ptr_ring_resize_purge),
	{}
};

BQLM_KUNIT_SUITE(bqlm_ptr_ring, bqlm_ptr_ring_cases);
