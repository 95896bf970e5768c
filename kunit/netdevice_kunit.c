// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the bqlmodel BQL transmit-queue layer
 * (model/kernel/netdevice.c).
 *
 * The same source runs in a UML kernel under kunit.py and in userspace on
 * the CMocka-backed stand-in of <kunit/test.h>. Expected values are worked
 * out by hand from include/linux/netdevice.h and lib/dynamic_queue_limits.c;
 * the comments show the arithmetic. Interleavings of two CPUs are written
 * with the step functions of <bqlm/netdevice.h>.
 */
#include "bqlm_kunit.h"
#include <bqlm/netdevice.h>
#include <bqlm/prng.h>

#include "netdevice_workload.h"

#define T0		1000UL	/* a jiffies value to start from */
#define HOLD		10U	/* slack hold time (the kernel uses HZ) */

#define DRV_XOFF	(1UL << BQLM_QUEUE_STATE_DRV_XOFF)
#define STACK_XOFF	(1UL << BQLM_QUEUE_STATE_STACK_XOFF)

struct nd_test_ctx {
	struct bqlm_txq txq;
	struct bqlm_vlog vlog;
};

static int nd_test_init(struct kunit *test)
{
	struct nd_test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx),
						GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	bqlm_vlog_init(&ctx->vlog);
	bqlm_txq_init(&ctx->txq, HOLD, T0);
	ctx->txq.dql.vlog = &ctx->vlog;
	test->priv = ctx;
	return 0;
}

static struct bqlm_txq *txq_of(struct kunit *test)
{
	return &((struct nd_test_ctx *)test->priv)->txq;
}

static struct bqlm_vlog *vlog_of(struct kunit *test)
{
	return &((struct nd_test_ctx *)test->priv)->vlog;
}

/* Awake: no XOFF bit, and the @n-th __netif_schedule() still pending */
static void nd_expect_woken(struct kunit *test, const struct bqlm_txq *txq,
			    unsigned int n)
{
	KUNIT_EXPECT_EQ_MSG(test, txq->state, 0UL, "woken: the XOFF bits");
	KUNIT_EXPECT_EQ_MSG(test, txq->sched_count, n, "woken: schedules");
	KUNIT_EXPECT_TRUE_MSG(test, txq->sched_pending,
			      "woken: a schedule pending");
}

static int nd_avail(const struct bqlm_txq *txq)
{
	return bqlm_dql_avail(&txq->dql);
}

/*
 * Give the fresh queue a limit of @limit: one object of @limit bytes goes
 * over the initial limit 0 (STACK_XOFF), its completion starves the queue,
 * so the limit grows by @limit, the queue is woken and the qdisc scheduled
 * once. Ends with avail == limit == @limit, no bit set, the schedule
 * consumed (as if the qdisc had run).
 */
static void nd_prime(struct kunit *test, unsigned int limit)
{
	struct bqlm_txq *txq = txq_of(test);

	KUNIT_ASSERT_EQ_MSG(test, bqlm_netdev_tx_sent_queue(txq, limit, T0), 0,
			    "priming to %u", limit);
	KUNIT_ASSERT_EQ_MSG(test, txq->state, STACK_XOFF,
			    "priming to %u", limit);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_netdev_tx_completed_queue(txq, 1, limit, T0),
			    0, "priming to %u", limit);
	KUNIT_ASSERT_EQ_MSG(test, txq->dql.limit, limit,
			    "priming to %u", limit);
	KUNIT_ASSERT_EQ_MSG(test, nd_avail(txq), (int)limit,
			    "priming to %u", limit);
	KUNIT_ASSERT_EQ_MSG(test, txq->state, 0UL, "priming to %u", limit);
	KUNIT_ASSERT_EQ_MSG(test, txq->sched_count, 1U, "priming to %u", limit);
	KUNIT_ASSERT_TRUE_MSG(test, txq->sched_pending, "priming to %u", limit);
	txq->sched_pending = false;
}

static void netdevice_init_state(struct kunit *test)
{
	struct bqlm_txq txq;

	/* whatever was there before is wiped, as kvzalloc() gives zeroes */
	memset(&txq, 0x5a, sizeof(txq));
	bqlm_txq_init(&txq, 100, T0);
	KUNIT_EXPECT_EQ(test, txq.state, 0UL);
	KUNIT_EXPECT_EQ(test, txq.trans_start, 0UL);
	KUNIT_EXPECT_FALSE(test, txq.sched_pending);
	KUNIT_EXPECT_EQ(test, txq.sched_count, 0U);
	KUNIT_EXPECT_PTR_EQ(test, txq.dql.vlog, NULL);
	KUNIT_EXPECT_EQ(test, txq.dql.slack_hold_time, 100U);
	KUNIT_EXPECT_EQ(test, txq.dql.max_limit, BQLM_DQL_MAX_LIMIT);
	KUNIT_EXPECT_EQ(test, txq.dql.min_limit, 0U);
	KUNIT_EXPECT_EQ(test, txq.dql.limit, 0U);
	KUNIT_EXPECT_EQ(test, txq.dql.adj_limit, 0U);
	KUNIT_EXPECT_EQ(test, txq.dql.slack_start_time, T0);
	/* limit 0: room for nothing, yet not stopped */
	KUNIT_EXPECT_EQ(test, bqlm_dql_avail(&txq.dql), 0);
	KUNIT_EXPECT_FALSE(test, bqlm_netif_xmit_stopped(&txq));
	KUNIT_EXPECT_FALSE(test, bqlm_netif_tx_queue_stopped(&txq));
}

static void netdevice_sent_below_and_above_limit(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);

	nd_prime(test, 1000);
	/* the priming send went over the limit at T0 */
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0);

	/* 600 of 1000: avail 1000 - 600 = 400, nothing else happens */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 600, T0 + 5), 0);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), 400);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0);

	/* exactly at the limit is not over it: avail 0 */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 400, T0 + 6), 0);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), 0);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);

	/* 200 more: avail 0 - 200 = -200, BQL stops the queue */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 200, T0 + 7), 0);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), -200);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0 + 7);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_xmit_stopped(txq));
	/* the driver's view: not stopped by the driver */
	KUNIT_EXPECT_FALSE(test, bqlm_netif_tx_queue_stopped(txq));
	KUNIT_EXPECT_EQ(test, txq->dql.num_queued, 2200U);
	KUNIT_EXPECT_EQ(test, txq->dql.last_obj_cnt, 200U);
	/* sending never schedules */
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);
	KUNIT_EXPECT_FALSE(test, txq->sched_pending);
}

static void netdevice_sent_recheck_clears_xoff(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	bool over;

	nd_prime(test, 1000);
	KUNIT_ASSERT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 600, T0 + 1), 0);

	/* CPU0 sends 600: avail 400 - 600 = -200, over the limit */
	KUNIT_ASSERT_EQ(test, bqlm_txq_sent_step_queue(txq, 600, T0 + 2, &over),
			0);
	KUNIT_EXPECT_TRUE(test, over);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);

	/*
	 * CPU1 completes all 1200 in flight (whole call). 2200 queued, 1000
	 * completed: over the limit by 200 and now empty, so starved: limit
	 * 1000 + (2200 - 1000) = 2200, adj_limit 2200 + 2200, avail 2200.
	 * STACK_XOFF is not set yet: no wake, no schedule.
	 */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 2, 1200,
							     T0 + 2), 0);
	KUNIT_EXPECT_EQ(test, txq->dql.limit, 2200U);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), 2200);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);

	/* CPU0 goes on with what it saw: STACK_XOFF with room available */
	bqlm_txq_sent_step_xoff(txq, T0 + 2);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0 + 2);

	/* after its barrier it reads avail again, and restarts the queue */
	bqlm_txq_sent_step_recheck(txq);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);
	KUNIT_EXPECT_FALSE(test, bqlm_netif_xmit_stopped(txq));
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);
	KUNIT_EXPECT_FALSE(test, txq->sched_pending);

	/* with no room, the re-check leaves STACK_XOFF alone */
	KUNIT_ASSERT_EQ(test, bqlm_txq_sent_step_queue(txq, 2300, T0 + 3, &over),
			0);
	KUNIT_ASSERT_TRUE(test, over);
	bqlm_txq_sent_step_xoff(txq, T0 + 3);
	bqlm_txq_sent_step_recheck(txq);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), -100);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
}

/* 1000 limit, 1200 in flight over it: avail -200 and STACK_XOFF */
static void nd_over_limit(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);

	nd_prime(test, 1000);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_netdev_tx_sent_queue(txq, 600, T0 + 1), 0,
			    "over the limit");
	KUNIT_ASSERT_EQ_MSG(test, bqlm_netdev_tx_sent_queue(txq, 600, T0 + 1), 0,
			    "over the limit");
	KUNIT_ASSERT_EQ_MSG(test, nd_avail(txq), -200, "over the limit");
	KUNIT_ASSERT_EQ_MSG(test, txq->state, STACK_XOFF, "over the limit");
}

static void netdevice_completed_wakes_queue(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);

	nd_over_limit(test);
	/*
	 * 100 of the 1200 done: 1100 still in flight; the previous round
	 * had nothing in flight, so no slack and no starvation: limit stays
	 * 1000, adj_limit 1000 + 1100, avail 2100 - 2200 = -100. Still
	 * over: STACK_XOFF stays, nothing scheduled.
	 */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 1, 100,
							     T0 + 2), 0);
	KUNIT_EXPECT_EQ(test, txq->dql.limit, 1000U);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), -100);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);
	KUNIT_EXPECT_FALSE(test, txq->sched_pending);

	/*
	 * 300 more done: 800 in flight, adj_limit 1000 + 1400, avail
	 * 2400 - 2200 = 200 (the round before was over by 200 but not all
	 * of it is done, and the limit was not busy long enough to drop).
	 * STACK_XOFF cleared, DRV_XOFF clear: the qdisc is scheduled.
	 */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 3, 300,
							     T0 + 3), 0);
	KUNIT_EXPECT_EQ(test, txq->dql.limit, 1000U);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), 200);
	nd_expect_woken(test, txq, 2U);

	/* the next completion finds STACK_XOFF clear: no second schedule */
	txq->sched_pending = false;
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 1, 100,
							     T0 + 4), 0);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 2U);
	KUNIT_EXPECT_FALSE(test, txq->sched_pending);
}

static void netdevice_completed_drv_xoff_no_schedule(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);

	nd_over_limit(test);
	bqlm_netif_tx_stop_queue(txq, T0 + 2);
	KUNIT_ASSERT_EQ(test, txq->state, DRV_XOFF | STACK_XOFF);

	/*
	 * Everything done: starved, avail 2200 (as in the re-check case).
	 * STACK_XOFF is cleared, but netif_schedule_queue() finds DRV_XOFF
	 * and leaves the reschedule to the driver's wake.
	 */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 2, 1200,
							     T0 + 3), 0);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), 2200);
	KUNIT_EXPECT_EQ(test, txq->state, DRV_XOFF);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);
	KUNIT_EXPECT_FALSE(test, txq->sched_pending);

	bqlm_netif_tx_wake_queue(txq);
	nd_expect_woken(test, txq, 2U);
}

static void netdevice_zero_completion_noop(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	u64 before;

	/* over the limit and stopped by both */
	nd_over_limit(test);
	bqlm_netif_tx_stop_queue(txq, T0 + 2);
	before = bqlm_txq_digest(txq);
	/*
	 * dql_completed(0) would move prev_num_queued, prev_last_obj_cnt
	 * and the slack measurement: the whole call must not get there.
	 */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 5, 0,
							     T0 + 50), 0);
	KUNIT_EXPECT_EQ(test, bqlm_txq_digest(txq), before);

	/* nor with nothing in flight and everything clear */
	bqlm_netdev_tx_reset_queue(txq, T0 + 60);
	bqlm_netif_tx_start_queue(txq);
	before = bqlm_txq_digest(txq);
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 0, 0,
							     T0 + 70), 0);
	KUNIT_EXPECT_EQ(test, bqlm_txq_digest(txq), before);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->count, 0U);

	/* the DQL step on its own is not a no-op: that is the point */
	KUNIT_EXPECT_EQ(test, bqlm_txq_completed_step_dql(txq, 0, T0 + 70), 0);
	KUNIT_EXPECT_NE(test, bqlm_txq_digest(txq), before);
}

static void netdevice_xmit_more(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	bool kick = false;

	nd_prime(test, 1000);

	/* within a batch: counted, no doorbell, STACK_XOFF untouched */
	KUNIT_EXPECT_EQ(test, bqlm___netdev_tx_sent_queue(txq, 600, true,
							  T0 + 1, &kick), 0);
	KUNIT_EXPECT_FALSE(test, kick);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), 400);
	/* over the limit by 200, but the batch goes on */
	kick = true;
	KUNIT_EXPECT_EQ(test, bqlm___netdev_tx_sent_queue(txq, 600, true,
							  T0 + 2, &kick), 0);
	KUNIT_EXPECT_FALSE(test, kick);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), -200);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0);

	/* the last packet: netdev_tx_sent_queue() stops it; doorbell */
	kick = false;
	KUNIT_EXPECT_EQ(test, bqlm___netdev_tx_sent_queue(txq, 100, false,
							  T0 + 3, &kick), 0);
	KUNIT_EXPECT_TRUE(test, kick);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), -300);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0 + 3);

	/* a batch on a driver-stopped queue asks for the doorbell */
	bqlm_netif_tx_stop_queue(txq, T0 + 4);
	kick = false;
	KUNIT_EXPECT_EQ(test, bqlm___netdev_tx_sent_queue(txq, 10, true,
							  T0 + 5, &kick), 0);
	KUNIT_EXPECT_TRUE(test, kick);
	/* STACK_XOFF alone does not */
	bqlm_netif_tx_start_queue(txq);
	KUNIT_EXPECT_EQ(test, bqlm___netdev_tx_sent_queue(txq, 10, true,
							  T0 + 6, &kick), 0);
	KUNIT_EXPECT_FALSE(test, kick);

	/* 1000 primed + 600 + 600 + 100 + 10 + 10, all accounted */
	KUNIT_EXPECT_EQ(test, txq->dql.num_queued, 2320U);
	KUNIT_EXPECT_EQ(test, bqlm_dql_inflight(&txq->dql), 1320U);
	KUNIT_EXPECT_EQ(test, txq->dql.last_obj_cnt, 10U);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);
}

static void netdevice_reset_keeps_drv_xoff(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	unsigned int adj;

	nd_over_limit(test);
	bqlm_netif_tx_stop_queue(txq, T0 + 2);
	adj = txq->dql.adj_limit;
	KUNIT_ASSERT_EQ(test, adj, 2000U);

	bqlm_netdev_tx_reset_queue(txq, T0 + 9);
	/* the stack's bit goes, the driver's stays */
	KUNIT_EXPECT_EQ(test, txq->state, DRV_XOFF);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(txq));
	KUNIT_EXPECT_EQ(test, txq->dql.num_queued, 0U);
	KUNIT_EXPECT_EQ(test, txq->dql.num_completed, 0U);
	KUNIT_EXPECT_EQ(test, txq->dql.limit, 0U);
	KUNIT_EXPECT_EQ(test, txq->dql.slack_start_time, T0 + 9);
	/* dql_reset() keeps adj_limit: avail is its old value */
	KUNIT_EXPECT_EQ(test, nd_avail(txq), (int)adj);
	/* no schedule, trans_start as the stop left it */
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0 + 2);
	/* what was in flight is forgotten */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 1, 1, T0 + 9),
			-ERANGE);
}

static void netdevice_wake_needs_drv_xoff(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	u64 before;

	/* a wake of a running queue does nothing at all */
	before = bqlm_txq_digest(txq);
	bqlm_netif_tx_wake_queue(txq);
	KUNIT_EXPECT_EQ(test, bqlm_txq_digest(txq), before);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 0U);

	bqlm_netif_tx_stop_queue(txq, T0 + 3);
	KUNIT_EXPECT_EQ(test, txq->state, DRV_XOFF);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0 + 3);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(txq));
	KUNIT_EXPECT_TRUE(test, bqlm_netif_xmit_stopped(txq));
	bqlm_netif_tx_wake_queue(txq);
	nd_expect_woken(test, txq, 1U);
	/* once only */
	bqlm_netif_tx_wake_queue(txq);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);

	/* start clears DRV_XOFF without a schedule */
	bqlm_netif_tx_stop_queue(txq, T0 + 4);
	bqlm_netif_tx_start_queue(txq);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);

	/*
	 * With STACK_XOFF also set, the wake still schedules: the kernel
	 * calls __netif_schedule() directly, while netif_schedule_queue()
	 * would have held back.
	 */
	KUNIT_ASSERT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 10, T0 + 5), 0);
	bqlm_netif_tx_stop_queue(txq, T0 + 5);
	KUNIT_ASSERT_EQ(test, txq->state, DRV_XOFF | STACK_XOFF);
	bqlm_netif_schedule_queue(txq);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 1U);
	bqlm_netif_tx_wake_queue(txq);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 2U);
	bqlm_netif_schedule_queue(txq);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 2U);
	/* with neither bit, netif_schedule_queue() schedules */
	bqlm_netdev_tx_reset_queue(txq, T0 + 6);
	bqlm_netif_schedule_queue(txq);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 3U);
}

static void netdevice_over_completion_rejected(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	struct bqlm_vlog *vlog = vlog_of(test);
	u64 before;

	nd_over_limit(test);
	/* 1200 in flight; 1201 is the kernel's BUG_ON() */
	before = bqlm_txq_digest(txq);
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 1, 1201,
							     T0 + 5), -ERANGE);
	KUNIT_EXPECT_EQ(test, bqlm_txq_digest(txq), before);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
	KUNIT_EXPECT_EQ(test, vlog->count, 1U);
	KUNIT_EXPECT_EQ(test, vlog->first.check, BQLM_CHECK_DQL_OVER_COMPLETION);
	KUNIT_EXPECT_EQ(test, vlog->first.err, -ERANGE);
	KUNIT_EXPECT_STREQ(test, vlog->first.where, "dql_completed");
	KUNIT_EXPECT_EQ(test, vlog->first.val[0], 1201ULL);
	KUNIT_EXPECT_EQ(test, vlog->first.val[1], 1200ULL);

	/* the DQL step rejects the same, and changes nothing either */
	KUNIT_EXPECT_EQ(test, bqlm_txq_completed_step_dql(txq, UINT_MAX, T0 + 5),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, bqlm_txq_digest(txq), before);
	KUNIT_EXPECT_EQ(test, vlog->count, 2U);

	/* exactly what is in flight is accepted and wakes the queue */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 1, 1200,
							     T0 + 5), 0);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);
	KUNIT_EXPECT_EQ(test, txq->sched_count, 2U);
}

static void netdevice_oversized_object(struct kunit *test)
{
	const unsigned int big = BQLM_DQL_MAX_OBJECT + 1;
	struct bqlm_txq *txq = txq_of(test);
	struct bqlm_vlog *vlog = vlog_of(test);
	u64 before;
	bool kick = false;

	nd_prime(test, 1000);
	/* room left: the rejected object changes nothing at all */
	before = bqlm_txq_digest(txq);
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_sent_queue(txq, big, T0 + 1),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, bqlm_txq_digest(txq), before);
	KUNIT_EXPECT_EQ(test, vlog->count, 1U);
	KUNIT_EXPECT_EQ(test, vlog->first.check, BQLM_CHECK_DQL_OBJECT_TOO_BIG);
	KUNIT_EXPECT_EQ(test, vlog->first.val[0], (u64)big);

	/* an xmit_more batch leaves the queue 500 over, not stopped */
	KUNIT_ASSERT_EQ(test, bqlm___netdev_tx_sent_queue(txq, 1500, true,
							  T0 + 2, &kick), 0);
	KUNIT_ASSERT_EQ(test, nd_avail(txq), -500);
	KUNIT_ASSERT_EQ(test, txq->state, 0UL);

	/*
	 * In the batch, a rejected object: dql_queued() warns and returns,
	 * kick is still computed (driver not stopped: no doorbell).
	 */
	kick = true;
	before = bqlm_txq_digest(txq);
	KUNIT_EXPECT_EQ(test, bqlm___netdev_tx_sent_queue(txq, big, true,
							  T0 + 3, &kick),
			-E2BIG);
	KUNIT_EXPECT_FALSE(test, kick);
	KUNIT_EXPECT_EQ(test, bqlm_txq_digest(txq), before);

	/*
	 * The batch's last object is rejected too. The kernel's
	 * netdev_tx_sent_queue() goes on after dql_queued()'s warning: it
	 * finds avail -500 and stops the queue, though nothing was counted.
	 */
	kick = false;
	KUNIT_EXPECT_EQ(test, bqlm___netdev_tx_sent_queue(txq, big, false,
							  T0 + 4, &kick),
			-E2BIG);
	KUNIT_EXPECT_TRUE(test, kick);
	KUNIT_EXPECT_EQ(test, txq->dql.num_queued, 2500U);
	KUNIT_EXPECT_EQ(test, txq->dql.last_obj_cnt, 1500U);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), -500);
	KUNIT_EXPECT_EQ(test, txq->state, STACK_XOFF);
	KUNIT_EXPECT_EQ(test, txq->trans_start, T0 + 4);
	KUNIT_EXPECT_EQ(test, vlog->count, 3U);
}

/*
 * The lost wake-up that the re-check in netdev_tx_sent_queue() prevents.
 * The queue has a limit of 1000 and 600 in flight; CPU0 sends 600 more and
 * finds itself 200 over. Before it sets STACK_XOFF, CPU1 completes all
 * 1200 and runs its whole wake step: STACK_XOFF is not set yet, so nothing
 * is woken. Then CPU0 sets STACK_XOFF.
 *  - With the re-check, CPU0 sees the room (avail 2200) and clears it.
 *  - Without it, the queue stays stopped with room to spare and nothing
 *    in flight: no completion will ever come to wake it.
 * The same interleaving with CPU1's wake step after CPU0's set_bit() is
 * saved by CPU1 instead.
 */
static void nd_lost_wakeup_run(struct kunit *test, struct bqlm_txq *txq,
			       bool recheck)
{
	bool over;

	KUNIT_ASSERT_EQ_MSG(test, bqlm_txq_sent_step_queue(txq, 600, T0 + 2, &over),
			    0, "recheck %d", recheck);
	KUNIT_ASSERT_TRUE_MSG(test, over, "recheck %d", recheck);
	/* CPU1: dql_completed(), barrier, then the wake check */
	KUNIT_ASSERT_EQ_MSG(test, bqlm_txq_completed_step_dql(txq, 1200, T0 + 2), 0,
			    "recheck %d", recheck);
	bqlm_txq_completed_step_wake(txq);
	KUNIT_EXPECT_EQ_MSG(test, txq->sched_count, 1U, "recheck %d", recheck);
	/* CPU0: set_bit(), barrier, maybe the re-check */
	bqlm_txq_sent_step_xoff(txq, T0 + 2);
	if (recheck)
		bqlm_txq_sent_step_recheck(txq);
}

static void netdevice_lost_wakeup(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	struct bqlm_txq without;
	bool over;

	nd_prime(test, 1000);
	KUNIT_ASSERT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 600, T0 + 1), 0);
	without = *txq;

	/* the kernel's protocol: the re-check saves the queue */
	nd_lost_wakeup_run(test, txq, true);
	KUNIT_EXPECT_EQ(test, nd_avail(txq), 2200);
	KUNIT_EXPECT_EQ(test, bqlm_dql_inflight(&txq->dql), 0U);
	KUNIT_EXPECT_FALSE(test, bqlm_netif_xmit_stopped(txq));
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);

	/* the protocol without the re-check: stopped forever */
	nd_lost_wakeup_run(test, &without, false);
	KUNIT_EXPECT_EQ(test, without.state, STACK_XOFF);
	KUNIT_EXPECT_GE(test, bqlm_dql_avail(&without.dql), 0);
	KUNIT_EXPECT_EQ(test, bqlm_dql_inflight(&without.dql), 0U);
	KUNIT_EXPECT_EQ(test, without.sched_count, 1U);
	KUNIT_EXPECT_FALSE(test, without.sched_pending);
	/* ...and a zero-byte completion, all that can come, does not help */
	KUNIT_EXPECT_EQ(test, bqlm_netdev_tx_completed_queue(&without, 0, 0,
							     T0 + 99), 0);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_xmit_stopped(&without));

	/*
	 * The other order, CPU1's wake after CPU0's set_bit(): CPU1 clears
	 * STACK_XOFF and schedules, and CPU0's re-check has nothing to do.
	 */
	bqlm_netdev_tx_reset_queue(txq, T0 + 10);
	/*
	 * After the reset, adj_limit is still 4400 from before: one round
	 * of 2000 brings the limit to 2000 (starved), avail 2000.
	 */
	KUNIT_ASSERT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 2000, T0 + 10), 0);
	KUNIT_ASSERT_EQ(test, bqlm_netdev_tx_completed_queue(txq, 1, 2000,
							     T0 + 10), 0);
	KUNIT_ASSERT_EQ(test, nd_avail(txq), 2000);
	KUNIT_ASSERT_EQ(test, bqlm_netdev_tx_sent_queue(txq, 1500, T0 + 10), 0);
	KUNIT_ASSERT_EQ(test, bqlm_txq_sent_step_queue(txq, 700, T0 + 10, &over),
			0);
	KUNIT_ASSERT_TRUE(test, over);
	KUNIT_ASSERT_EQ(test, bqlm_txq_completed_step_dql(txq, 2200, T0 + 11), 0);
	bqlm_txq_sent_step_xoff(txq, T0 + 10);
	KUNIT_ASSERT_EQ(test, txq->state, STACK_XOFF);
	bqlm_txq_completed_step_wake(txq);
	nd_expect_woken(test, txq, 2U);
	bqlm_txq_sent_step_recheck(txq);
	KUNIT_EXPECT_EQ(test, txq->state, 0UL);
	KUNIT_EXPECT_EQ(test, bqlm_dql_inflight(&txq->dql), 0U);
}

/* ---- randomised property tests --------------------------------------- */

struct nd_seed {
	u64 seed;
	bool adversarial;
	unsigned int hold_time;
	const char *desc;
};

static const struct nd_seed nd_seeds[] = {
	{ .seed = 1, .hold_time = 10, .desc = "seed-1" },
	{ .seed = 42, .hold_time = 2, .desc = "seed-42-hold-2" },
	{ .seed = 0xdeadbeef, .hold_time = 100,
	  .desc = "seed-0xdeadbeef-hold-100" },
	{ .seed = 7, .adversarial = true, .hold_time = 3,
	  .desc = "adversarial-seed-7" },
	{ .seed = 2026, .adversarial = true, .hold_time = 1,
	  .desc = "adversarial-seed-2026" },
};

KUNIT_ARRAY_PARAM_DESC(nd_seeds, nd_seeds, desc);

#define ND_PROPERTY_STEPS	6000

static bool nd_bit(const struct bqlm_txq *txq, unsigned long bit)
{
	return txq->state & bit;
}

static void netdevice_random_properties(struct kunit *test)
{
	const struct nd_seed *p = test->param_value;
	struct bqlm_txq *txq = txq_of(test);
	struct bqlm_vlog *vlog = vlog_of(test);
	u64 sent = 0, completed = 0;	/* since the last reset */
	unsigned int rejected = 0, stack_stops = 0, wakes = 0, shrunk = 0;
	unsigned int i;
	unsigned long now = T0;
	struct bqlm_prng r;

	txq->dql.slack_hold_time = p->hold_time;
	bqlm_prng_seed(&r, p->seed);
	for (i = 0; i < ND_PROPERTY_STEPS; i++) {
		struct bql_op op = bql_workload_next(&r, txq, p->adversarial);
		bool stack0 = nd_bit(txq, STACK_XOFF);
		bool drv0 = nd_bit(txq, DRV_XOFF);
		unsigned int count0 = txq->sched_count;
		bool pending0 = txq->sched_pending;
		unsigned long trans0 = txq->trans_start;
		u64 dql0 = bqlm_dql_digest(&txq->dql);
		u64 all0 = bqlm_txq_digest(txq);
		unsigned int limit0 = txq->dql.limit;
		bool stack, drv, sched = false, kick = false, kick_want;
		unsigned long trans = trans0;
		char step[48];
		int ret, avail;

		if (op.kind == BQL_OP_TICK)
			now += op.arg;
		snprintf(step, sizeof(step), "step %u: %s %u", i,
			 bql_op_name(op.kind), op.arg);
		kick_want = op.kind == BQL_OP_SENT_LAST || drv0;
		ret = bql_workload_apply(txq, &op, now, &kick);
		avail = bqlm_dql_avail(&txq->dql);

		/* what the call must have done, worked out independently */
		stack = stack0;
		drv = drv0;
		switch (op.kind) {
		case BQL_OP_SENT:
		case BQL_OP_SENT_LAST:
			if (avail < 0) {
				stack = true;
				trans = now;
			}
			break;
		case BQL_OP_COMPLETE:
			if (ret || !op.arg)
				break;
			if (avail >= 0) {
				stack = false;
				sched = stack0 && !drv0;
			}
			break;
		case BQL_OP_RESET:
			stack = false;
			break;
		case BQL_OP_STOP:
			drv = true;
			trans = now;
			break;
		case BQL_OP_START:
			drv = false;
			break;
		case BQL_OP_WAKE:
			drv = false;
			sched = drv0;
			break;
		default:
			break;
		}
		KUNIT_ASSERT_EQ_MSG(test, nd_bit(txq, STACK_XOFF), stack,
				    "%s: STACK_XOFF", step);
		KUNIT_ASSERT_EQ_MSG(test, nd_bit(txq, DRV_XOFF), drv,
				    "%s", step);
		KUNIT_ASSERT_EQ_MSG(test, txq->trans_start, trans, "%s", step);
		if (op.kind == BQL_OP_SENT_MORE || op.kind == BQL_OP_SENT_LAST)
			KUNIT_ASSERT_EQ_MSG(test, kick, kick_want, "%s", step);

		/* the qdisc is scheduled exactly when due, through schedule */
		KUNIT_ASSERT_EQ_MSG(test, txq->sched_count, count0 + sched,
				    "%s", step);
		KUNIT_ASSERT_EQ_MSG(test, txq->sched_pending, sched || pending0,
				    "%s", step);
		wakes += sched;
		stack_stops += stack && !stack0;

		/* STACK_XOFF only ever stands for a queue over its limit */
		if (nd_bit(txq, STACK_XOFF))
			KUNIT_ASSERT_LT_MSG(test, avail, 0, "%s", step);

		if (ret) {
			/* rejected: the DQL is untouched */
			KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_digest(&txq->dql), dql0,
					    "%s", step);
			if (op.kind == BQL_OP_COMPLETE)
				KUNIT_ASSERT_EQ_MSG(test, bqlm_txq_digest(txq),
						    all0, "%s", step);
			rejected++;
		} else if (op.kind == BQL_OP_COMPLETE) {
			completed += op.arg;
			shrunk += txq->dql.limit < limit0;
			if (!op.arg)
				KUNIT_ASSERT_EQ_MSG(test, bqlm_txq_digest(txq),
						    all0, "%s", step);
		} else if (op.kind == BQL_OP_RESET) {
			sent = 0;
			completed = 0;
		} else if (op.kind <= BQL_OP_SENT_LAST) {
			sent += op.arg;
		}

		/* byte balance against an independent 64-bit tally */
		KUNIT_ASSERT_LE_MSG(test, completed, sent, "%s", step);
		KUNIT_ASSERT_EQ_MSG(test, (u64)bqlm_dql_inflight(&txq->dql),
				    sent - completed, "%s", step);
		KUNIT_ASSERT_EQ_MSG(test, txq->dql.num_queued, (unsigned int)sent,
				    "%s", step);
		KUNIT_ASSERT_EQ_MSG(test, txq->dql.num_completed,
				    (unsigned int)completed, "%s", step);

		/* the qdisc runs now and then, consuming the schedule */
		if (!bqlm_prng_below(&r, 3))
			txq->sched_pending = false;
	}
	KUNIT_EXPECT_EQ(test, vlog->count, rejected);
	if (p->adversarial)
		KUNIT_EXPECT_GT(test, rejected, 0U);
	else
		KUNIT_EXPECT_EQ(test, rejected, 0U);
	/* the workload did stop the queue and wake it through BQL */
	KUNIT_EXPECT_GT(test, stack_stops, 0U);
	KUNIT_EXPECT_GT(test, wakes, 0U);
	/* and, with a short hold time, the limit fell now and then */
	if (p->hold_time <= 10)
		KUNIT_EXPECT_GT(test, shrunk, 0U);
	kunit_info(test, "%u STACK_XOFF stops, %u BQL wakes, %u limit drops, %u rejected",
		   stack_stops, wakes, shrunk, rejected);
}

/*
 * A fixed seeded workload whose final state digest is a constant, the same
 * in the kernel and in userspace. history_head depends on BITS_PER_LONG,
 * hence one constant each.
 */
#define ND_TRAJECTORY_SEED	0xb95ULL
#define ND_TRAJECTORY_STEPS	20000
#define ND_TRAJECTORY_DIGEST64	0x7c259292e83c5ed3ULL
#define ND_TRAJECTORY_DIGEST32	0x2d21c7dc045a0c19ULL

static void netdevice_trajectory_digest(struct kunit *test)
{
	struct bqlm_txq *txq = txq_of(test);
	unsigned long now = T0;
	struct bqlm_prng r;
	u64 digest;
	unsigned int i;

	bqlm_prng_seed(&r, ND_TRAJECTORY_SEED);
	for (i = 0; i < ND_TRAJECTORY_STEPS; i++) {
		struct bql_op op = bql_workload_next(&r, txq, false);
		bool kick;

		if (op.kind == BQL_OP_TICK)
			now += op.arg;
		KUNIT_ASSERT_EQ_MSG(test, bql_workload_apply(txq, &op, now, &kick),
				    0, "step %u: %s %u", i,
				    bql_op_name(op.kind), op.arg);
		if (i % 5 == 0)
			txq->sched_pending = false;
	}
	digest = bqlm_txq_digest(txq);
	kunit_info(test, "digest 0x%016llx limit %u schedules %u", digest,
		   txq->dql.limit, txq->sched_count);
	kunit_info(test, "expecting ND_TRAJECTORY_DIGEST%zu: unsigned long has %zu bits, and the queue's DQL history_head is counted in them",
		   8 * sizeof(long), 8 * sizeof(long));
	KUNIT_EXPECT_EQ(test, digest, sizeof(long) == 8 ?
			ND_TRAJECTORY_DIGEST64 : ND_TRAJECTORY_DIGEST32);
}

static struct kunit_case bqlm_netdevice_cases[] = {
	KUNIT_CASE(netdevice_init_state),
	KUNIT_CASE(netdevice_sent_below_and_above_limit),
	KUNIT_CASE(netdevice_sent_recheck_clears_xoff),
	KUNIT_CASE(netdevice_completed_wakes_queue),
	KUNIT_CASE(netdevice_completed_drv_xoff_no_schedule),
	KUNIT_CASE(netdevice_zero_completion_noop),
	KUNIT_CASE(netdevice_xmit_more),
	KUNIT_CASE(netdevice_reset_keeps_drv_xoff),
	KUNIT_CASE(netdevice_wake_needs_drv_xoff),
	KUNIT_CASE(netdevice_over_completion_rejected),
	KUNIT_CASE(netdevice_oversized_object),
	KUNIT_CASE(netdevice_lost_wakeup),
	KUNIT_CASE_PARAM(netdevice_random_properties, nd_seeds_gen_params),
	KUNIT_CASE(netdevice_trajectory_digest),
	{}
};

BQLM_KUNIT_SUITE(bqlm_netdevice, bqlm_netdevice_cases, .init = nd_test_init);
