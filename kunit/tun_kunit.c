// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ptr_ring model (model/ptr_ring.c) and the tun
 * transmit model (model/tun.c), suite bqlm_tun.
 *
 * The explorations run at four packets (small enough for UML) and check
 * the verdict, the violated checks, the depth of the verdict's shortest
 * witness and the exact numbers of states and transitions, the same in the
 * kernel, in userspace and in the 32-bit build. The targeted cases call
 * the actors one step at a time: the 2019 lost wakeup, the re-check that
 * the merged design adds, the store-buffering stall without the barriers.
 */
#include <kunit/test.h>
#include <bqlm/tun.h>
#include <bqlm/prng.h>
#include "explore_expect.h"

#define BIT_SA	BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING)
#define BIT_ST	BQLM_CHECK_BIT(BQLM_CHECK_STALL)
#define BIT_BD	BQLM_CHECK_BIT(BQLM_CHECK_BACKPRESSURE_DROP)
#define BIT_WR	BQLM_CHECK_BIT(BQLM_CHECK_WAKE_ON_RECONFIG)
#define BIT_OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BIT_BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define BIT_RS	BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP)

/* A sequentially consistent CPU on @mem with its own buffer @sb. */
static void tun_sc_view(struct bqlm_mm_cpu *c, struct bqlm_mem *mem,
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
	tun_sc_view(&c, &mem, &sb);
	bqlm_ptr_ring_init(&r, 2, 4, BQLM_PTR_RING_BATCH);
	/* 16 entries per batch is above half the ring: batching is off */
	KUNIT_EXPECT_EQ(test, r.batch, 1);
	KUNIT_EXPECT_EQ(test, r.size, 4);
	KUNIT_EXPECT_TRUE(test, bqlm___ptr_ring_empty(&r, &c));
	for (i = 1; i <= 4; i++) {
		KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_check_produce(&r, &c), 0);
		KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_produce(&r, &c, i), 0);
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
		KUNIT_EXPECT_EQ(test, bqlm___ptr_ring_consume(&r, &c), i);
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
	tun_sc_view(&c, &mem, &sb);
	bqlm_ptr_ring_init(&r, 0, 4, 2);
	KUNIT_EXPECT_EQ(test, r.batch, 2);
	for (i = 1; i <= 4; i++)
		KUNIT_ASSERT_EQ(test, bqlm___ptr_ring_produce(&r, &c, i), 0);
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
		KUNIT_EXPECT_EQ(test, mem.v[i], 0);
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
	tun_sc_view(&c, &mem, &sb);
	bqlm_ptr_ring_init(&r, 0, 4, 1);
	for (i = 1; i <= 3; i++)
		KUNIT_ASSERT_EQ(test, bqlm___ptr_ring_produce(&r, &c, i), 0);
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

/* One exploration of the tun model and what it must find. */
struct tun_x_case {
	const char *desc;
	enum bqlm_tun_variant variant;
	enum bqlm_mm_kind mm;
	enum bqlm_tun_reader_kind reader;
	unsigned int ring;
	unsigned int detaches;
	unsigned int set_iffs;
	bool qdisc;
	unsigned int queues;
	unsigned int packets;
	unsigned long long states;
	unsigned long long transitions;
	unsigned int violated;
	enum bqlm_check verdict;
	unsigned int verdict_depth;
};

#define TUN_X(d, v, m, rd, ring, det, iff, qd, s, t, viol, verd, depth) \
	{ d, BQLM_TUN_##v, BQLM_MM_##m, BQLM_TUN_##rd, ring, det, iff, qd, \
	  1, 4, s, t, viol, verd, depth }
/* two queue files, one producer CPU each, three packets, no violation */
#define TUN_XQ(d, v, m, s, t) \
	{ d, BQLM_TUN_##v, BQLM_MM_##m, BQLM_TUN_READ, 4, 1, 0, true, 2, 3, \
	  s, t, 0, BQLM_CHECK_NONE, 0 }

static const struct tun_x_case tun_x_cases[] = {
	TUN_X("stock-sc", STOCK, SC, READ, 2, 1, 0, true, 4047, 8646, 0,
	      BQLM_CHECK_NONE, 0),
	TUN_X("stock-tso", STOCK, TSO, READ, 2, 1, 0, true, 13078, 35425, 0,
	      BQLM_CHECK_NONE, 0),
	/* detached while stopped, re-attached without a wake */
	TUN_X("stop-2019-sc", STOP_2019, SC, READ, 4, 1, 0, true, 21306, 52460,
	      BIT_ST, BQLM_CHECK_STALL, 17),
	/* the lost wakeup of the race alone: reader blocked, queue stopped */
	TUN_X("stop-2019-race-sc", STOP_2019, SC, READ, 4, 0, 0, true, 4464,
	      10364, BIT_ST, BQLM_CHECK_STALL, 22),
	TUN_X("stop-2019-tso", STOP_2019, TSO, READ, 4, 1, 0, true, 83993,
	      280340, BIT_ST, BQLM_CHECK_STALL, 18),
	/* vhost-net's consume path has no wake at all in the 2019 patch */
	TUN_X("stop-2019-vhost", STOP_2019, SC, VHOST, 4, 1, 0, true, 12556,
	      29435, BIT_ST, BQLM_CHECK_STALL, 16),
	TUN_X("backpressure-sc", BACKPRESSURE, SC, READ, 4, 1, 0, true, 26642,
	      56655, 0, BQLM_CHECK_NONE, 0),
	TUN_X("backpressure-tso", BACKPRESSURE, TSO, READ, 4, 1, 0, true,
	      67431, 188109, 0, BQLM_CHECK_NONE, 0),
	TUN_X("backpressure-pso", BACKPRESSURE, PSO, READ, 4, 1, 0, true,
	      71231, 202381, 0, BQLM_CHECK_NONE, 0),
	TUN_X("backpressure-x86", BACKPRESSURE, X86, READ, 4, 1, 0, true,
	      61199, 168585, 0, BQLM_CHECK_NONE, 0),
	TUN_X("backpressure-vhost", BACKPRESSURE, SC, VHOST, 4, 1, 0, true,
	      26824, 57643, 0, BQLM_CHECK_NONE, 0),
	TUN_X("backpressure-noqueue", BACKPRESSURE, SC, READ, 4, 1, 0, false,
	      23898, 50871, 0, BQLM_CHECK_NONE, 0),
	TUN_X("backpressure-set-iff", BACKPRESSURE, SC, READ, 4, 1, 2, true,
	      102666, 234457, 0, BQLM_CHECK_NONE, 0),
	/* ring of 2: the half-ring wake counts a consume from before the stop */
	TUN_X("backpressure-ring2", BACKPRESSURE, SC, READ, 2, 1, 0, true,
	      35444, 76623, BIT_BD, BQLM_CHECK_BACKPRESSURE_DROP, 20),
	/* the candidate fix: no wake into a full ring, also on weak memory */
	TUN_X("room-ring2-sc", BACKPRESSURE_ROOM, SC, READ, 2, 1, 0, true,
	      36534, 78939, 0, BQLM_CHECK_NONE, 0),
	TUN_X("room-ring2-pso", BACKPRESSURE_ROOM, PSO, READ, 2, 1, 0, true,
	      112079, 326763, 0, BQLM_CHECK_NONE, 0),
	TUN_X("nobarrier-sc", BACKPRESSURE_NOBARRIER, SC, READ, 4, 1, 0, true,
	      26642, 56655, 0, BQLM_CHECK_NONE, 0),
	TUN_X("nobarrier-tso", BACKPRESSURE_NOBARRIER, TSO, READ, 4, 1, 0,
	      true, 121441, 367990, BIT_ST, BQLM_CHECK_STALL, 33),
	/* x86: set_bit and spin_lock are locked instructions */
	TUN_X("nobarrier-x86", BACKPRESSURE_NOBARRIER, X86, READ, 4, 1, 0,
	      true, 77895, 226163, 0, BQLM_CHECK_NONE, 0),
	/* each barrier is needed on its own under the LKMM */
	TUN_X("no-producer-mb-tso", BACKPRESSURE_NO_PRODUCER_MB, TSO, READ, 4,
	      1, 0, true, 74671, 209273, BIT_ST, BQLM_CHECK_STALL, 31),
	TUN_X("no-consumer-mb-tso", BACKPRESSURE_NO_CONSUMER_MB, TSO, READ, 4,
	      1, 0, true, 113377, 339006, BIT_ST, BQLM_CHECK_STALL, 33),
	/* as merged before the opt-in: the re-attach does not wake (Sashiko) */
	TUN_X("backpressure-1d6e569b7d0c", BACKPRESSURE_V12, SC, READ, 4, 1, 0,
	      true, 20348, 44581, BIT_ST, BQLM_CHECK_STALL, 21),
	TUN_XQ("backpressure-2q-sc", BACKPRESSURE, SC, 29095, 88462),
	TUN_XQ("backpressure-2q-tso", BACKPRESSURE, TSO, 119663, 483709),
	/* the BQL study: one detach, one resize to 2 (the variants' default) */
	TUN_X("bql", BQL, SC, READ, 4, 1, 0, true, 118718, 252682, 0,
	      BQLM_CHECK_NONE, 0),
	/* sent after the produce: the reader completes first */
	TUN_X("bql-late-sent", BQL_LATE_SENT, SC, READ, 4, 1, 0, true, 97010,
	      207054, BIT_OC | BIT_SA | BIT_ST,
	      BQLM_CHECK_DQL_OVER_COMPLETION, 4),
	/* reset on resize: the survivors' completion is stale */
	TUN_X("bql-reset-resize", BQL_RESET_RESIZE, SC, READ, 4, 1, 0, true,
	      128928, 280816, BIT_OC | BIT_BB | BIT_RS,
	      BQLM_CHECK_DQL_OVER_COMPLETION, 7),
};

KUNIT_ARRAY_PARAM_DESC(tun_x, tun_x_cases, desc);

static void tun_x_cfg(const struct tun_x_case *p, struct bqlm_tun_cfg *cfg)
{
	bqlm_tun_cfg_default(cfg, p->variant);
	cfg->mm = p->mm;
	cfg->reader = p->reader;
	cfg->queues = p->queues;
	cfg->packets = p->packets;
	cfg->ring = p->ring;
	cfg->detaches = p->detaches;
	cfg->set_iffs = p->set_iffs;
	cfg->qdisc = p->qdisc;
}

static void tun_exploration(struct kunit *test)
{
	const struct tun_x_case *p = test->param_value;
	const struct explore_expect e = {
		p->desc, p->states, p->transitions, p->violated, p->verdict,
		p->verdict_depth,
	};
	struct bqlm_tun_stats *stats;
	struct bqlm_tun_cfg *cfg;
	struct bqlm_xresult *res;
	struct bqlm_xsys sys;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	stats = kunit_kzalloc(test, sizeof(*stats), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, stats);
	tun_x_cfg(p, cfg);
	cfg->stats = stats;
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	explore_expect_full(test, &sys, NULL, res, &e);
	/* every state expanded once went through the figures */
	KUNIT_EXPECT_EQ(test, stats->states, res->states);
	KUNIT_EXPECT_LE(test, stats->max_delivered, p->packets);
	if (p->variant == BQLM_TUN_STOCK)
		KUNIT_EXPECT_GT(test, stats->max_drops[BQLM_TUN_DROP_FULL], 0U);
	else if (p->verdict == BQLM_CHECK_NONE)
		KUNIT_EXPECT_EQ(test, stats->max_drops[BQLM_TUN_DROP_BP], 0U);
	/* the figures above are the full search's; now the reduced one */
	cfg->stats = NULL;
	explore_compare_reduced(test, &sys, NULL, res, p->desc);
}

/*
 * Per-case state: configuration, state (and room for a copy of it, of
 * the size the configuration gives), step record.
 */
struct tun_ctx {
	struct bqlm_tun_cfg cfg;
	struct bqlm_tun *tun;
	struct bqlm_tun *before;
	size_t size;
	struct bqlm_inv_step ev;
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned int actions[BQLM_X_MAX_ACTIONS];
};

/* A fresh state for t->cfg, in buffers of the size it needs. */
static void tun_reinit(struct kunit *test, struct tun_ctx *t)
{
	KUNIT_ASSERT_EQ(test, bqlm_tun_cfg_check(&t->cfg), 0);
	t->size = bqlm_tun_state_size(&t->cfg);
	t->tun = kunit_kzalloc(test, t->size, GFP_KERNEL);
	t->before = kunit_kzalloc(test, t->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->tun);
	KUNIT_ASSERT_NOT_NULL(test, t->before);
	bqlm_tun_init(t->tun, &t->cfg);
}

/* Take a copy of the state, the "from" of the explorer's step(). */
static struct bqlm_tun *tun_before(struct tun_ctx *t)
{
	memcpy(t->before, t->tun, t->size);
	return t->before;
}

static struct tun_ctx *tun_setup(struct kunit *test,
				 enum bqlm_tun_variant variant,
				 enum bqlm_mm_kind mm)
{
	struct tun_ctx *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	bqlm_tun_cfg_default(&t->cfg, variant);
	t->cfg.mm = mm;
	t->cfg.cpus = 1;
	t->cfg.ring = 2;
	t->cfg.packets = 3;
	t->cfg.detaches = 0;
	tun_reinit(test, t);
	return t;
}

static int tun_x(struct tun_ctx *t)
{
	return bqlm_tun_net_xmit(t->tun, &t->cfg, 0, &t->ev);
}

static int tun_r(struct tun_ctx *t)
{
	return bqlm_tun_do_read(t->tun, &t->cfg, 0, &t->ev);
}

/* The system's own state check on the current state: the stall bit. */
static int tun_state_check(struct tun_ctx *t)
{
	struct bqlm_xsys sys;
	unsigned int n;

	if (bqlm_tun_system(&t->cfg, &sys))
		return -EINVAL;
	n = bqlm_xenabled(&sys, t->tun, t->actions);
	return bqlm_xcheck_state(&sys, t->tun, t->actions, n, t->each);
}

/*
 * The 2019 lost wakeup, one step at a time: the producer finds the ring
 * full after its produce; before it stops the queue the reader empties the
 * ring and wakes a queue that is not stopped yet; then the stop lands and
 * the reader blocks on the empty ring.
 */
static void tun_stop2019_lost_wakeup(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOP_2019, BQLM_MM_SC);
	unsigned int i;

	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* stack check */
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* ptr_ring_produce */
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* ptr_ring_full */
	}
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_STOP);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* consume */
		KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* wake: not stopped */
	}
	KUNIT_EXPECT_EQ(test, t->tun->delivered, 2);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);		/* the stop lands */
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);		/* empty: sleep */
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_EQ(test, tun_r(t), -EAGAIN);
	KUNIT_EXPECT_EQ(test, tun_x(t), -EAGAIN);	/* the qdisc holds pkt3 */
	KUNIT_EXPECT_EQ(test, tun_state_check(t), (int)BIT_ST);
	KUNIT_EXPECT_EQ(test, t->each[BQLM_CHECK_STALL].err, -EAGAIN);
}

/* The same interleaving with the merged design: the re-check saves it. */
static void tun_backpressure_recheck(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);

	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* pkt1: check, produce */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* not full */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* unlock, notify */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* pkt2: check, produce */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* full: stop */
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_STOP);
	/* the reader empties the ring under the consumer lock */
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* consume pkt1 */
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* stopped: cons_cnt 1 >= 1 */
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, t->tun->q[0].cons_cnt, 0);
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* unlock */
	/* the producer's re-check finds room as well and wakes (no-op) */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* unlock */
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_BP], 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 2),
			BQLM_TUN_PKT_RING);
}

/*
 * Without the barriers under tso: the explorer's shortest path to the
 * stall, replayed step by step, ends with the queue stopped, the ring
 * empty and the reader asleep.
 */
static void tun_nobarrier_tso_stall(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE_NOBARRIER,
				      BQLM_MM_TSO);
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int *path;
	bool both = false;
	int n, i;

	t->cfg.ring = 4;
	t->cfg.packets = 4;
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	path = kunit_kcalloc(test, 256, sizeof(*path), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, EXPLORE_FULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	KUNIT_EXPECT_EQ(test, res->states, 1113ULL);
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res), BQLM_CHECK_STALL);
	n = bqlm_explorer_path(x, BQLM_CHECK_STALL, path, 256);
	bqlm_explorer_destroy(x);
	KUNIT_ASSERT_EQ(test, n, 33);

	tun_reinit(test, t);
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_GE(test, bqlm_xstep(&sys, tun_before(t), path[i],
						 t->tun, t->each), 0);
		if (t->tun->cpu[0].sb.n && t->tun->rd[0].sb.n)
			both = true;
	}
	/* store buffering: both sides had a store waiting at once */
	KUNIT_EXPECT_TRUE(test, both);
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].sb.n, 0);
	KUNIT_EXPECT_EQ(test, t->tun->rd[0].sb.n, 0);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), (int)BIT_ST);
}

/* Attach wakes with the merged design, not with 6.12 or 2019. */
static void tun_attach_wakes(struct kunit *test)
{
	static const enum bqlm_tun_variant v[] = {
		BQLM_TUN_STOP_2019, BQLM_TUN_BACKPRESSURE,
	};
	unsigned int i, k;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		struct tun_ctx *t = tun_setup(test, v[i], BQLM_MM_SC);

		t->cfg.detaches = 1;
		tun_reinit(test, t);
		/* fill the ring and stop */
		for (k = 0; k < 20 && !bqlm_tun_stopped(t->tun, 0); k++)
			KUNIT_ASSERT_EQ(test, tun_x(t), 0);
		KUNIT_ASSERT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
		while (t->tun->cpu[0].phase != BQLM_TUN_X_IDLE)
			KUNIT_ASSERT_EQ(test, tun_x(t), 0);
		KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg,
						      &t->ev), 0);
		KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg,
						      &t->ev), 0);
		KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_PURGED], 2);
		KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg,
						      &t->ev), -EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg,
						      &t->ev), 0);
		KUNIT_EXPECT_EQ(test, bqlm_tun_stopped(t->tun, 0),
				v[i] == BQLM_TUN_STOP_2019);
		KUNIT_EXPECT_EQ(test, t->ev.reconfig_stopped, 0);
		KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg,
						      &t->ev), -EINVAL);
	}
}

/* A resize below the fill level frees entries and force-wakes a full ring. */
static void tun_resize_full(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);
	unsigned int k;

	t->cfg.resizes = 1;
	t->cfg.resize_to = 1;
	tun_reinit(test, t);
	for (k = 0; k < 20 && !bqlm_tun_stopped(t->tun, 0); k++)
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	while (t->tun->cpu[0].phase != BQLM_TUN_X_IDLE)
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_RESIZED], 1);
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_TRUE(test, t->tun->q[0].woke_full);
	/* the next packet finds the ring full: a drop the wake explains */
	for (k = 0; k < 20 && t->tun->sent < 3; k++)
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	while (t->tun->cpu[0].phase != BQLM_TUN_X_IDLE)
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_WOKE_FULL], 1);
	KUNIT_EXPECT_EQ(test, t->ev.bp_drops, 0);
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			-EINVAL);
}

static void tun_refusals(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_TSO);

	KUNIT_EXPECT_EQ(test, bqlm_tun_net_xmit(t->tun, &t->cfg, 1, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_do_read(t->tun, &t->cfg, 1, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 9, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	/* an empty ring puts the reader to sleep, then it must wait */
	KUNIT_EXPECT_EQ(test, tun_r(t), 0);
	KUNIT_EXPECT_EQ(test, tun_r(t), -EAGAIN);
	/* under tso the produce waits in the buffer: flush it */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].sb.n, 1);
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[0].ring.base], 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[0].ring.base], 1);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 0, 0), -EINVAL);
}

static void tun_config(struct kunit *test)
{
	struct bqlm_tun_cfg cfg;
	struct bqlm_xsys sys;
	unsigned int v;
	size_t size;

	for (v = 0; v < BQLM_TUN_NR_VARIANTS; v++) {
		KUNIT_EXPECT_EQ(test, bqlm_tun_variant_by_name(
					bqlm_tun_variant_name(v)), (int)v);
		KUNIT_EXPECT_STRNEQ(test, bqlm_tun_variant_desc(v), "unknown");
		bqlm_tun_cfg_default(&cfg, v);
		KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	}
	KUNIT_EXPECT_EQ(test, bqlm_tun_variant_by_name("bql-2019"), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_variant_by_name(NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, bqlm_tun_variant_name(BQLM_TUN_NR_VARIANTS),
			   "unknown");
	for (v = 0; v < BQLM_TUN_NR_READERS; v++)
		KUNIT_EXPECT_EQ(test, bqlm_tun_reader_by_name(
					bqlm_tun_reader_name(v)), (int)v);
	KUNIT_EXPECT_EQ(test, bqlm_tun_reader_by_name("poll"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, bqlm_tun_drop_name(BQLM_TUN_DROP_RACE),
			   "lltx-race");
	KUNIT_EXPECT_STREQ(test, bqlm_tun_drop_name(BQLM_TUN_NR_DROPS),
			   "unknown");
	/* a ring of 5 is for the simulator: the explorer refuses it */
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_STOCK);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), 0);
	cfg.ring = 5;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), -EINVAL);
	cfg.ring = 4;
	cfg.queues = 3;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.queues = 2;
	cfg.packets = 9;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), -EINVAL);
	cfg.packets = 8;
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), 0);
	cfg.mm = BQLM_MM_NR;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	/* the BQL study: one queue, sc; its state carries the BQL queues */
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_BQL);
	size = bqlm_tun_state_size(&cfg);
	cfg.mm = BQLM_MM_TSO;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.mm = BQLM_MM_SC;
	cfg.queues = 2;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_STOCK);
	cfg.packets = 4;
	cfg.resizes = 1;
	KUNIT_EXPECT_GE(test, size, bqlm_tun_state_size(&cfg) +
			sizeof(struct bqlm_txq) + cfg.packets);
	cfg.len = 0;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	/* up to a 64 KB GSO packet */
	cfg.len = BQLM_TUN_MAX_LEN;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	cfg.len = BQLM_TUN_MAX_LEN + 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
}

/* Every action of a small exploration has a description. */
static void tun_descriptions(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_TSO);
	struct bqlm_xsys sys;
	char *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	unsigned int n, i, k;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	t->cfg.detaches = 1;
	t->cfg.set_iffs = 1;
	t->cfg.resizes = 1;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	for (k = 0; k < 12; k++) {
		n = bqlm_xenabled(&sys, t->tun, t->actions);
		KUNIT_ASSERT_GT(test, n, 0U);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_GT(test,
					bqlm_xdescribe_action(&sys, t->tun,
							      t->actions[i],
							      buf, 512), 10);
			KUNIT_EXPECT_NE(test, buf[0], '?');
		}
		KUNIT_EXPECT_GT(test, bqlm_xdescribe_state(&sys, t->tun, buf,
							   512), 10);
		/* always the first enabled action: the producer first */
		KUNIT_ASSERT_GE(test, bqlm_xstep(&sys, tun_before(t),
						 t->actions[0], t->tun, t->each),
				0);
	}
}

/* Words a trace must contain, each seen at least once. */
struct tun_words {
	const char *const *want;
	unsigned int nr;
	unsigned int seen;
	unsigned int lines;
};

static void tun_emit(void *arg, const char *line)
{
	struct tun_words *w = arg;
	unsigned int i;

	w->lines++;
	for (i = 0; i < w->nr; i++)
		if (strstr(line, w->want[i]))
			w->seen |= 1U << i;
}

/* Explore @cfg, print the shortest path to @check, look for @want. */
static void tun_trace_has(struct kunit *test, struct bqlm_tun_cfg *cfg,
			  enum bqlm_check check, const char *const *want,
			  unsigned int nr)
{
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	struct tun_words *w;
	unsigned int *path;
	int n;

	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	path = kunit_kcalloc(test, 256, sizeof(*path), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, NULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	n = bqlm_explorer_path(x, check, path, 256);
	bqlm_explorer_destroy(x);
	KUNIT_ASSERT_GT(test, n, 0);
	w->want = want;
	w->nr = nr;
	KUNIT_EXPECT_TRUE(test, bqlm_xtrace(&sys, path, n, tun_emit, w) &
				BQLM_CHECK_BIT(check));
	KUNIT_EXPECT_EQ(test, w->seen, (1U << nr) - 1);
	KUNIT_EXPECT_GT(test, w->lines, 2U * n);
}

static void tun_trace_words(struct kunit *test)
{
	static const char *const race[] = {
		"ptr_ring_full(q0)", "netif_stop_subqueue(txq0)",
		"netif_wake_subqueue(txq0)", "XOFF rd-sleeps", "!! stall",
	};
	static const char *const sb[] = {
		"sb{q0.slot", "(no barrier)", "__tun_wake_queue",
		"spin_unlock(consumer_lock)", "!! stall",
	};
	static const char *const drop[] = {
		"tun_queue_resize", "drop pkt (FULL_RING)", "cons_cnt",
		"!! backpressure-drop",
	};
	static const char *const vhost[] = {
		"vhost0: ptr_ring_consume_batched", "socket's wakeup",
		"netif_stop_subqueue(txq0)", "!! stall",
	};
	static const char *const late[] = {
		"spin_lock(producer_lock), __ptr_ring_produce(q0, pkt1)",
		"netdev_tx_completed_queue(txq0, 1, 100)", "dql queued 0",
		"!! dql-over-completion",
	};
	static const char *const reset[] = {
		"netdev_tx_sent_queue(100 B)", "netdev_tx_reset_queue",
		"STACK_XOFF", "!! reset-on-stop",
	};
	static const char *const detach[] = {
		"tun_detach: tfiles[0] = NULL", "tun_queue_purge(q0)",
		"tun_attach(q0)", "!! stall",
	};
	struct bqlm_tun_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	bqlm_tun_cfg_default(cfg, BQLM_TUN_STOP_2019);
	cfg->packets = 3;
	cfg->ring = 2;
	cfg->cpus = 1;
	cfg->detaches = 0;
	tun_trace_has(test, cfg, BQLM_CHECK_STALL, race, ARRAY_SIZE(race));
	bqlm_tun_cfg_default(cfg, BQLM_TUN_BACKPRESSURE_NOBARRIER);
	cfg->mm = BQLM_MM_TSO;
	cfg->packets = 4;
	cfg->cpus = 1;
	cfg->detaches = 0;
	tun_trace_has(test, cfg, BQLM_CHECK_STALL, sb, ARRAY_SIZE(sb));
	bqlm_tun_cfg_default(cfg, BQLM_TUN_BACKPRESSURE);
	cfg->packets = 3;
	cfg->cpus = 1;
	cfg->detaches = 0;
	cfg->resizes = 1;
	cfg->resize_to = 1;
	tun_trace_has(test, cfg, BQLM_CHECK_BACKPRESSURE_DROP, drop,
		      ARRAY_SIZE(drop));
	bqlm_tun_cfg_default(cfg, BQLM_TUN_STOP_2019);
	cfg->detaches = 1;
	cfg->reader = BQLM_TUN_VHOST;
	cfg->packets = 3;
	cfg->ring = 2;
	cfg->cpus = 1;
	tun_trace_has(test, cfg, BQLM_CHECK_STALL, vhost, ARRAY_SIZE(vhost));
	bqlm_tun_cfg_default(cfg, BQLM_TUN_STOP_2019);
	cfg->packets = 3;
	cfg->ring = 2;
	cfg->cpus = 1;
	cfg->detaches = 1;
	tun_trace_has(test, cfg, BQLM_CHECK_STALL, detach,
		      ARRAY_SIZE(detach));
	bqlm_tun_cfg_default(cfg, BQLM_TUN_BQL_LATE_SENT);
	cfg->cpus = 1;
	cfg->detaches = 0;
	tun_trace_has(test, cfg, BQLM_CHECK_DQL_OVER_COMPLETION, late,
		      ARRAY_SIZE(late));
	bqlm_tun_cfg_default(cfg, BQLM_TUN_BQL_RESET_RESIZE);
	cfg->cpus = 1;
	cfg->detaches = 0;
	tun_trace_has(test, cfg, BQLM_CHECK_DQL_OVER_COMPLETION, reset,
		      ARRAY_SIZE(reset));
}

/* Administrator calls wait for the ring locks and for synchronize_net(). */
static void tun_admin_waits(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);

	t->cfg.detaches = 1;
	t->cfg.set_iffs = 1;
	t->cfg.resizes = 1;
	t->cfg.resize_to = 4;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* stack check */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* producer_lock held */
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	/* synchronize_net(): the transmit must leave first */
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev),
			-EAGAIN);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_IDLE);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_PURGED], 1);
	/* a packet for a detached queue file is dropped */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_DETACHED], 1);
	KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			0);
	KUNIT_EXPECT_EQ(test, t->tun->q[0].ring.size, 4);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_FALSE(test, t->tun->backpressure);
	KUNIT_EXPECT_EQ(test, t->ev.reconfig_stopped, 0);

	/* before the opt-in: TUNSETIFF wakes a full ring without the locks */
	t = tun_setup(test, BQLM_TUN_BACKPRESSURE_V12, BQLM_MM_SC);
	t->cfg.set_iffs = 1;
	tun_reinit(test, t);
	while (!bqlm_tun_stopped(t->tun, 0))
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_TRUE(test, t->tun->q[0].woke_full);
	KUNIT_EXPECT_TRUE(test, t->tun->cpu[0].raced & BQLM_TUN_RACED_RECONFIG);
	KUNIT_EXPECT_TRUE(test, t->tun->backpressure);
}

/* Readers, noqueue and refused actions in the descriptions. */
static void tun_describe_more(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOP_2019, BQLM_MM_PSO);
	char *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	struct bqlm_xsys sys;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	t->cfg.reader = BQLM_TUN_READ_NONBLOCK;
	t->cfg.qdisc = false;
	t->cfg.set_iffs = 1;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	bqlm_xdescribe_action(&sys, t->tun,
			      (BQLM_TUN_A_READ << 8) | 0, buf, 512);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "-EAGAIN, poll()"));
	bqlm_xdescribe_action(&sys, t->tun, (BQLM_TUN_A_XMIT << 8) | 0,
			      buf, 512);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "noqueue"));
	bqlm_xdescribe_action(&sys, t->tun, BQLM_TUN_A_SET_IFF << 8, buf,
			      512);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "netif_tx_wake_all_queues"));
	bqlm_xdescribe_action(&sys, t->tun, 0x7f00, buf, 512);
	KUNIT_EXPECT_EQ(test, buf[0], '?');
	bqlm_xdescribe_action(&sys, t->tun,
			      (BQLM_TUN_A_FLUSH << 8) | 0xfe, buf, 512);
	KUNIT_EXPECT_EQ(test, buf[0], '?');
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, t->tun, 0x7f00, t->tun,
					 t->each), -EINVAL);
	/* TUNSETIFF without the flag wakes every queue */
	KUNIT_ASSERT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	/* noqueue and a stopped queue: the stack drops */
	t->tun->mem[BQLM_TUN_STATE_VAR(0)] = BQLM_TUN_XOFF;
	KUNIT_EXPECT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_NOQUEUE], 1);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 1),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_IDLE);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), 0);	/* reader runs */
	KUNIT_EXPECT_EQ(test, tun_r(t), 0);		/* -EAGAIN, poll() */
	/* pso: the reader's unlock still waits in its buffer */
	KUNIT_EXPECT_EQ(test, t->tun->rd[0].sb.n, 1);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg,
					     BQLM_TUN_WHO_READER(0), 0), 0);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), (int)BIT_ST);
}

/*
 * The sizes outside the explorer: the state follows the configuration,
 * the simulator's bounds are taken by bqlm_tun_cfg_check() and refused by
 * bqlm_tun_system().
 */
static void tun_sizes(struct kunit *test)
{
	struct bqlm_tun_cfg cfg;
	struct bqlm_xsys sys;
	size_t small, big;

	bqlm_tun_cfg_default(&cfg, BQLM_TUN_BACKPRESSURE);
	small = bqlm_tun_state_size(&cfg);
	KUNIT_EXPECT_EQ(test, small % __alignof__(struct bqlm_tun), 0);
	/* tun's default tx_queue_len, an unbounded stream */
	cfg.ring = 500;
	cfg.packets = 0;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), -EINVAL);
	big = bqlm_tun_state_size(&cfg);
	/* the fixed variables and 500 slots, their shadows, 2 * 500 + 2 ids */
	KUNIT_EXPECT_EQ(test, big, (offsetof(struct bqlm_tun, mem) +
				    (BQLM_TUN_FIXED_VARS + 500) * 2 + 500 * 2 +
				    1002 + __alignof__(struct bqlm_tun) - 1) &
				   ~(__alignof__(struct bqlm_tun) - 1));
	KUNIT_EXPECT_EQ(test, big % __alignof__(struct bqlm_tun), 0);
	KUNIT_EXPECT_GT(test, big, small);
	cfg.ring = BQLM_TUN_MAX_RING;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	cfg.ring = BQLM_TUN_MAX_RING + 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.ring = 25;
	/* a bounded run outside the explorer: ids up to BQLM_TUN_MAX_ID */
	cfg.packets = BQLM_TUN_MAX_ID;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	cfg.packets = BQLM_TUN_MAX_ID + 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.packets = 0;
	/* a resize keeps what survives on the stack: explorer rings only */
	cfg.resizes = 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.ring = 4;
	cfg.resize_to = 5;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.resize_to = 4;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	cfg.resizes = 0;
	/* store buffers name at most BQLM_SB_MAX_VARS variables */
	cfg.mm = BQLM_MM_TSO;
	cfg.ring = BQLM_SB_MAX_VARS - BQLM_TUN_FIXED_VARS;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	cfg.ring++;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.mm = BQLM_MM_SC;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	/* the BQL study keeps its books per packet: bounded only */
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_BQL);
	cfg.packets = 0;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
}

/* A transmit, a consume: what a seeded run of one CPU and one reader saw. */
struct tun_stream {
	unsigned short fifo[64];	/* ids produced, not yet read */
	unsigned int head, tail;
	unsigned int *uses;		/* per id: packets that had it */
	unsigned int ids;
	unsigned int cur;		/* id in tun_net_xmit(), 0 if none */
	bool cur_done;			/* produced or dropped already */
	unsigned int produced, read, dropped, order_errors;
	unsigned int full_drops, stopped_waits, max_count, reused;
};

/* One step of CPU 0; a produce or drop of its packet is recorded. */
static int tun_stream_xmit(struct kunit *test, struct tun_ctx *t,
			   struct tun_stream *st)
{
	unsigned int before = bqlm_tun_ring_count(t->tun, 0);
	int where, err = tun_x(t);

	if (err)
		return err;
	if (!st->cur) {
		st->cur = bqlm_tun_xmit_pkt(t->tun, 0);
		st->cur_done = false;
		KUNIT_ASSERT_GT(test, st->cur, 0U);
		KUNIT_ASSERT_LE(test, st->cur, st->ids);
		KUNIT_ASSERT_EQ(test, bqlm_tun_last_pkt(t->tun, &t->cfg),
				st->cur);
		if (st->uses[st->cur]++)
			st->reused++;
		return 0;
	}
	where = bqlm_tun_pkt_where(t->tun, &t->cfg, st->cur);
	if (st->cur_done) {
		/* produced earlier: the reader may have taken it since */
		KUNIT_ASSERT_NE(test, where, BQLM_TUN_PKT_DROPPED);
	} else if (where == BQLM_TUN_PKT_RING || where == BQLM_TUN_PKT_READ) {
		st->fifo[st->tail++ % ARRAY_SIZE(st->fifo)] = st->cur;
		st->produced++;
		st->cur_done = true;
	} else if (where == BQLM_TUN_PKT_DROPPED) {
		st->dropped++;
		if (before == t->cfg.ring)
			st->full_drops++;
		st->cur_done = true;
	} else {
		KUNIT_ASSERT_EQ(test, where, BQLM_TUN_PKT_XMIT);
	}
	if (!bqlm_tun_xmit_pkt(t->tun, 0)) {
		/* the transmit is over: the packet is in the ring or gone */
		KUNIT_ASSERT_TRUE(test, st->cur_done);
		st->cur = 0;
	}
	return 0;
}

/* One step of the reader; what it consumed must be the FIFO's head. */
static int tun_stream_read(struct kunit *test, struct tun_ctx *t,
			   struct tun_stream *st)
{
	unsigned int got[BQLM_TUN_VHOST_BATCH], nr, i;
	int err;

	err = bqlm_tun_do_read_got(t->tun, &t->cfg, 0, &t->ev, got, &nr);
	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		KUNIT_ASSERT_LT(test, st->head, st->tail);
		if (got[i] != st->fifo[st->head++ % ARRAY_SIZE(st->fifo)])
			st->order_errors++;
		KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg,
							 got[i]),
				BQLM_TUN_PKT_READ);
		st->read++;
	}
	return 0;
}

/*
 * A seeded run of an unbounded stream through a ring of 25 (NODROP's),
 * and the figures it must end with: packets dropped (all at a full ring,
 * SKB_DROP_REASON_FULL_RING), producer steps the stopped queue refused.
 */
struct tun_stream_case {
	const char *desc;
	enum bqlm_tun_variant variant;
	unsigned int seed;
	unsigned int drops;
	unsigned int stopped_waits;
};

static const struct tun_stream_case tun_stream_cases[] = {
	{ "stock", BQLM_TUN_STOCK, 1, 132, 0 },
	/* tun_do_read()'s unconditional wake can come after a refill */
	{ "stop-2019", BQLM_TUN_STOP_2019, 2, 24, 211 },
	{ "backpressure", BQLM_TUN_BACKPRESSURE, 3, 0, 479 },
};

KUNIT_ARRAY_PARAM_DESC(tun_stream, tun_stream_cases, desc);

#define TUN_STREAM_PACKETS	436
#define TUN_STREAM_RING		25

/*
 * One producer CPU and one reader on a ring of 25, an unbounded stream:
 * the producer steps three times out of four (seeded), so the ring fills.
 * Packet ids are recycled; every packet is read once, in order, or
 * dropped: stock drops at the full ring and never stops the queue,
 * backpressure never drops with one CPU and keeps the qdisc waiting
 * instead, the 2019 experiment does both.
 */
static void tun_unbounded_stream(struct kunit *test)
{
	const struct tun_stream_case *p = test->param_value;
	struct tun_ctx *t = tun_setup(test, p->variant, BQLM_MM_SC);
	struct tun_stream *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	unsigned int i, k, drops = 0;
	struct bqlm_prng r;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, st);
	t->cfg.ring = TUN_STREAM_RING;
	t->cfg.packets = 0;
	tun_reinit(test, t);
	st->ids = 2 * TUN_STREAM_RING + 1;
	st->uses = kunit_kcalloc(test, st->ids + 1, sizeof(*st->uses),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st->uses);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, st->ids),
			BQLM_TUN_PKT_UNSENT);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg,
						 st->ids + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 0), -EINVAL);
	bqlm_prng_seed(&r, p->seed);
	for (k = 0; k < 20 * TUN_STREAM_PACKETS; k++) {
		bool xmit = bqlm_prng_next(&r) & 3;

		if (!st->cur && t->tun->sent >= TUN_STREAM_PACKETS)
			break;
		err = xmit ? tun_stream_xmit(test, t, st) :
		      tun_stream_read(test, t, st);
		if (err == -EAGAIN && xmit)
			st->stopped_waits++;
		if (err == -EAGAIN)	/* the other one can step */
			err = xmit ? tun_stream_read(test, t, st) :
			      tun_stream_xmit(test, t, st);
		KUNIT_ASSERT_EQ(test, err, 0);
		if (bqlm_tun_ring_count(t->tun, 0) > st->max_count)
			st->max_count = bqlm_tun_ring_count(t->tun, 0);
	}
	/* the stack has no more; the reader drains the ring */
	KUNIT_ASSERT_EQ(test, st->cur, 0U);
	while (tun_stream_read(test, t, st) == 0)
		;
	kunit_info(test, "%s: sent %u read %u dropped %u, waits %u, reused %u",
		   p->desc, t->tun->sent, st->read, st->dropped,
		   st->stopped_waits, st->reused);
	KUNIT_EXPECT_EQ(test, t->tun->sent, TUN_STREAM_PACKETS);
	KUNIT_EXPECT_EQ(test, st->read + st->dropped, TUN_STREAM_PACKETS);
	KUNIT_EXPECT_EQ(test, st->produced, st->read);
	KUNIT_EXPECT_EQ(test, t->tun->delivered, st->read);
	KUNIT_EXPECT_EQ(test, st->order_errors, 0U);
	KUNIT_EXPECT_EQ(test, st->head, st->tail);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 0U);
	KUNIT_EXPECT_EQ(test, t->ev.lost, 0U);
	KUNIT_EXPECT_EQ(test, t->ev.twice, 0U);
	KUNIT_EXPECT_EQ(test, t->ev.unsent_skbs, 0U);
	KUNIT_EXPECT_EQ(test, t->ev.bp_drops, 0U);
	/* the ring filled, never beyond its size */
	KUNIT_EXPECT_EQ(test, st->max_count, TUN_STREAM_RING);
	/* every id of the 51 served, over and over */
	for (i = 1; i <= st->ids; i++)
		KUNIT_EXPECT_GT(test, st->uses[i], 0U);
	/* a cursor over the ids: each one served once per round */
	KUNIT_EXPECT_EQ(test, st->reused, TUN_STREAM_PACKETS - st->ids);
	for (i = 0; i < BQLM_TUN_NR_DROPS; i++)
		drops += t->tun->drops[i];
	KUNIT_EXPECT_EQ(test, drops, st->dropped);
	KUNIT_EXPECT_EQ(test, st->dropped, p->drops);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_FULL], p->drops);
	KUNIT_EXPECT_EQ(test, st->stopped_waits, p->stopped_waits);
	if (p->variant == BQLM_TUN_STOCK) {
		/* the produce that failed saw the ring full */
		KUNIT_EXPECT_GT(test, st->dropped, 0U);
		KUNIT_EXPECT_EQ(test, st->full_drops, st->dropped);
		KUNIT_EXPECT_EQ(test, st->stopped_waits, 0U);
	} else {
		KUNIT_EXPECT_GT(test, st->stopped_waits, 0U);
	}
	if (p->variant == BQLM_TUN_BACKPRESSURE)
		KUNIT_EXPECT_EQ(test, st->dropped, 0U);
	/* nothing in flight, every id free again, no stall */
	for (i = 1; i <= st->ids; i++)
		KUNIT_EXPECT_NE(test, bqlm_tun_pkt_where(t->tun, &t->cfg, i),
				BQLM_TUN_PKT_RING);
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
}

/*
 * Packets the reader can never see (their slots cleared behind the
 * model's back) keep their ids: once every id is taken the stack's next
 * packet fails with -ENOSPC and the state is left as it was.
 */
static void tun_unbounded_ids_run_out(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOCK, BQLM_MM_SC);
	unsigned int base, i;

	t->cfg.packets = 0;
	tun_reinit(test, t);
	base = t->tun->q[0].ring.base;
	KUNIT_EXPECT_EQ(test, base, BQLM_TUN_FIXED_VARS);
	/* a ring of 2, one CPU: ids 1..5 */
	for (i = 1; i <= 5; i++) {
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
		KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, 0), i);
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
		KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, 0), 0U);
		KUNIT_EXPECT_EQ(test, bqlm_tun_last_pkt(t->tun, &t->cfg), i);
		KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, i),
				BQLM_TUN_PKT_RING);
		t->tun->mem[base] = 0;
		t->tun->mem[base + 1] = 0;
	}
	/* the produces of 3, 4, 5 went over 1, 2, 3, never consumed */
	KUNIT_EXPECT_EQ(test, t->ev.lost, 3U);
	KUNIT_EXPECT_EQ(test, t->tun->sent, 5U);
	tun_before(t);
	KUNIT_EXPECT_EQ(test, tun_x(t), -ENOSPC);
	KUNIT_EXPECT_MEMEQ(test, t->tun, t->before, t->size);
	KUNIT_EXPECT_EQ(test, tun_x(t), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm_tun_last_pkt(t->tun, &t->cfg), 5U);
}

/*
 * The simulator's largest rings: two queue files of BQLM_TUN_MAX_RING
 * slots each. CPU 1 fills the ring of queue file 1 until backpressure
 * stops it, a vhost-net reader takes two packets at a time, a detach of
 * queue file 1 purges the rest, and CPU 1's next packet goes to queue 0.
 */
static void tun_max_ring(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);
	unsigned int got[BQLM_TUN_VHOST_BATCH], nr, k;
	struct bqlm_tun_cfg *cfg = &t->cfg;

	cfg->ring = BQLM_TUN_MAX_RING;
	cfg->queues = 2;
	cfg->cpus = 2;
	cfg->packets = 0;
	cfg->detaches = 1;
	cfg->reader = BQLM_TUN_VHOST;
	tun_reinit(test, t);
	KUNIT_EXPECT_EQ(test, t->tun->q[1].ring.base,
			BQLM_TUN_FIXED_VARS + BQLM_TUN_MAX_RING);
	for (k = 0; k < 5 * BQLM_TUN_MAX_RING && !bqlm_tun_stopped(t->tun, 1);
	     k++)
		KUNIT_ASSERT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
				0);
	while (bqlm_tun_xmit_pkt(t->tun, 1))
		KUNIT_ASSERT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
				0);
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 1));
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, t->tun->sent, BQLM_TUN_MAX_RING);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 1),
			BQLM_TUN_MAX_RING);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 0U);
	/* the last slot holds the last packet */
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[1].ring.base +
					 BQLM_TUN_MAX_RING - 1],
			BQLM_TUN_MAX_RING);
	/* vhost-net: a batch of two, the oldest first */
	KUNIT_ASSERT_EQ(test, bqlm_tun_do_read_got(t->tun, cfg, 1, &t->ev,
						   got, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 2U);
	KUNIT_EXPECT_EQ(test, got[0], 1U);
	KUNIT_EXPECT_EQ(test, got[1], 2U);
	/* the wake and unlock steps consume nothing; 2 of 4096 wake nobody */
	KUNIT_ASSERT_EQ(test, bqlm_tun_do_read_got(t->tun, cfg, 1, &t->ev,
						   got, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 0U);
	KUNIT_EXPECT_EQ(test, t->tun->q[1].cons_cnt, 2);
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 1));
	KUNIT_ASSERT_EQ(test, bqlm_tun_do_read(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->rd[1].phase, BQLM_TUN_R_IDLE);
	KUNIT_EXPECT_EQ(test, t->tun->delivered, 2U);
	/* queue file 1 is detached, its ring purged */
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, cfg, &t->ev), 0);
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_PURGED],
			BQLM_TUN_MAX_RING - 2);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 1), 0U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, cfg, 3),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, t->ev.lost + t->ev.twice + t->ev.unsent_skbs,
			0U);
	/* CPU 1 falls back to txq 0; the id cursor goes on: 4097 */
	KUNIT_ASSERT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[1].txq, 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, 1),
			BQLM_TUN_MAX_RING + 1);
	while (bqlm_tun_xmit_pkt(t->tun, 1))
		KUNIT_ASSERT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
				0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 1U);
}

/*
 * A resize that destroys the packet with the highest id: ring 4, three
 * packets in it, resized to 2. ptr_ring_resize() keeps the two oldest and
 * frees pkt3, the last id of the bound, which must count as dropped.
 */
static void tun_resize_drops_highest(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOCK, BQLM_MM_SC);

	t->cfg.ring = 4;
	t->cfg.resizes = 1;
	t->cfg.resize_to = 2;
	tun_reinit(test, t);
	while (t->tun->sent < t->cfg.packets || bqlm_tun_xmit_pkt(t->tun, 0))
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 3U);
	KUNIT_ASSERT_EQ(test, bqlm_tun_nr_ids(&t->cfg), 3U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 2U);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_RESIZED], 1U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 3),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 2),
			BQLM_TUN_PKT_RING);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 1),
			BQLM_TUN_PKT_RING);
	/* every packet is accounted for: the invariants hold */
	KUNIT_EXPECT_EQ(test, tun_state_check(t), 0);
}

/*
 * Each range guard of model/tun.c at its first invalid value: the CPU
 * after the last, the store buffer owner after the last CPU (reader 0),
 * the txq equal to numqueues after a detach, the variant after the last.
 */
static void tun_range_guards(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_TSO);
	struct bqlm_tun_cfg *cfg = &t->cfg;
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	struct bqlm_tun_cfg bad;
	struct bqlm_xsys sys;
	unsigned int pkt;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* the variant after the last is refused, named "unknown" */
	bqlm_tun_cfg_default(&bad, BQLM_TUN_STOCK);
	bad.variant = BQLM_TUN_NR_VARIANTS;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&bad, &sys), -EINVAL);
	KUNIT_EXPECT_STREQ(test, bqlm_tun_variant_desc(BQLM_TUN_NR_VARIANTS),
			   "unknown");

	/* CPU BQLM_TUN_MAX_CPUS transmits nothing, whatever follows cpu[] */
	memset(t->tun->rd, 0xff, sizeof(t->tun->rd));
	KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, BQLM_TUN_MAX_CPUS), 0U);
	tun_reinit(test, t);

	/* reader 0's store is BQLM_TUN_WHO_READER(0) == BQLM_TUN_MAX_CPUS */
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* stack check */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* produce, buffered */
	KUNIT_ASSERT_EQ(test, bqlm_tun_flush(t->tun, cfg, 0, 0), 0);
	while (bqlm_tun_xmit_pkt(t->tun, 0))
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	while (t->tun->cpu[0].sb.n)
		KUNIT_ASSERT_EQ(test, bqlm_tun_flush(t->tun, cfg, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* consume: slot zeroed */
	KUNIT_ASSERT_GT(test, t->tun->rd[0].sb.n, 0);
	KUNIT_ASSERT_GT(test, bqlm_xdescribe_action(&sys, t->tun,
			(BQLM_TUN_A_FLUSH << 8) |
			(BQLM_TUN_WHO_READER(0) * BQLM_SB_DEPTH), buf, 256),
			0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "reader0's store"));
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, cfg,
					     BQLM_TUN_WHO_READER(0), 0), 0);
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[0].ring.base], 0);

	/* CPU 1's txq 1 == numqueues once queue file 1 is detached */
	bqlm_tun_cfg_default(cfg, BQLM_TUN_BACKPRESSURE);
	cfg->queues = 2;
	cfg->cpus = 2;
	cfg->packets = 2;
	cfg->detaches = 1;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	KUNIT_ASSERT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_ASSERT_EQ(test, t->tun->cpu[1].txq, 1);
	pkt = bqlm_tun_xmit_pkt(t->tun, 1);
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, cfg, &t->ev), 0);
	KUNIT_ASSERT_EQ(test, t->tun->numqueues, 1);
	KUNIT_ASSERT_GT(test, bqlm_xdescribe_action(&sys, t->tun,
			(BQLM_TUN_A_XMIT << 8) | 1, buf, 256), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "tfiles[1] == NULL"));
	/*
	 * The guard alone lets the CPU on: shown holding ring 1's producer
	 * lock, a CPU that looked at the ring would wait; tun_net_xmit()
	 * finds no tfile and drops without touching the ring.
	 */
	t->tun->mem[BQLM_TUN_PLOCK_VAR(1)] = 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_DETACHED], 1U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, cfg, pkt),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 1), 0U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, 1), 0U);
}

static struct kunit_case bqlm_tun_cases[] = {
	KUNIT_CASE(ptr_ring_produce_consume),
	KUNIT_CASE(ptr_ring_batched_zeroing),
	KUNIT_CASE(ptr_ring_resize_purge),
	KUNIT_CASE_PARAM(tun_exploration, tun_x_gen_params),
	KUNIT_CASE(tun_stop2019_lost_wakeup),
	KUNIT_CASE(tun_backpressure_recheck),
	KUNIT_CASE(tun_nobarrier_tso_stall),
	KUNIT_CASE(tun_attach_wakes),
	KUNIT_CASE(tun_resize_full),
	KUNIT_CASE(tun_refusals),
	KUNIT_CASE(tun_config),
	KUNIT_CASE(tun_descriptions),
	KUNIT_CASE(tun_trace_words),
	KUNIT_CASE(tun_describe_more),
	KUNIT_CASE(tun_admin_waits),
	KUNIT_CASE(tun_sizes),
	KUNIT_CASE_PARAM(tun_unbounded_stream, tun_stream_gen_params),
	KUNIT_CASE(tun_unbounded_ids_run_out),
	KUNIT_CASE(tun_max_ring),
	KUNIT_CASE(tun_resize_drops_highest),
	KUNIT_CASE(tun_range_guards),
	{}
};

static struct kunit_suite bqlm_tun_suite = {
	.name = "bqlm_tun",
	.test_cases = bqlm_tun_cases,
};

kunit_test_suite(bqlm_tun_suite);

MODULE_LICENSE("GPL");
