// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - model of the BQL transmit-queue layer: the byte queue limits
 * and XOFF parts of include/linux/netdevice.h and netif_tx_wake_queue(),
 * netif_schedule_queue() and the queue set-up of net/core/dev.c (Linux
 * 6.12), on a struct bqlm_txq that stands for one struct netdev_queue.
 *
 * The model is single-threaded: the kernel's atomic bit operations are
 * plain read-modify-writes of @state here, and a concurrent interleaving is
 * expressed by running the step functions of two calls in the chosen order.
 * The whole calls are built from the steps and from nothing else, so that a
 * schedule that runs the steps back to back is exactly the whole call.
 *
 * The XOFF protocol the steps expose (the barrier pairing of the kernel):
 *
 *   sender                             completer
 *   dql_queued()                       dql_completed()
 *   avail < 0: set STACK_XOFF          smp_mb()
 *   smp_mb()                           avail >= 0 and STACK_XOFF was set:
 *   avail >= 0: clear STACK_XOFF         clear it, reschedule the qdisc
 *
 * Each side writes its variable before its barrier and reads the other's
 * after it, so at least one of them sees the other's write: either the
 * sender's re-check sees the room the completion made, or the completion
 * sees STACK_XOFF and wakes the queue. Without the re-check a completion
 * that ran between the sender's avail check and its set_bit() would find
 * STACK_XOFF clear, and the queue would stay stopped with nothing in flight
 * to wake it.
 */
#include "bqlm_internal.h"
#include <bqlm/netdevice.h>

/*
 * The state word's bit operations. The kernel's are atomic; the model runs
 * one step at a time, so ordinary read-modify-writes give the same result.
 * Likewise the kernel's barriers and WRITE_ONCE()s have no counterpart in
 * the code: a barrier that matters is a boundary between two steps.
 */
static void bqlm_txq_set_bit(unsigned int nr, struct bqlm_txq *txq)
{
	txq->state |= 1UL << nr;
}

static void bqlm_txq_clear_bit(unsigned int nr, struct bqlm_txq *txq)
{
	txq->state &= ~(1UL << nr);
}

static bool bqlm_txq_test_bit(unsigned int nr, const struct bqlm_txq *txq)
{
	return txq->state & (1UL << nr);
}

static bool bqlm_txq_test_and_clear_bit(unsigned int nr, struct bqlm_txq *txq)
{
	bool was = bqlm_txq_test_bit(nr, txq);

	bqlm_txq_clear_bit(nr, txq);
	return was;
}

/*
 * Model of __netif_schedule() on the queue's qdisc: the qdisc is put on the
 * softirq's output list (unless it already is) and will be run. The model
 * keeps only the fact that a run is due and how often this happened.
 */
static void bqlm___netif_schedule(struct bqlm_txq *txq)
{
	txq->sched_pending = true;
	txq->sched_count++;
}

/**
 * bqlm_txq_init() - model of netdev_init_one_queue() for the BQL state
 * @txq: the queue
 * @hold_time: slack hold time of the queue's DQL, in jiffies (the kernel
 *	passes HZ)
 * @now: jiffies at the call
 *
 * The kernel allocates its transmit queues zeroed and initialises each
 * queue's DQL with a hold time of one second; every state bit starts clear.
 * The model does the same: the whole structure is zeroed (including
 * @txq->dql.vlog, so attach a violation log afterwards) and the DQL is
 * initialised.
 */
void bqlm_txq_init(struct bqlm_txq *txq, unsigned int hold_time,
		   unsigned long now)
{
	memset(txq, 0, sizeof(*txq));
	bqlm_dql_init(&txq->dql, hold_time, now);
}

/**
 * bqlm_netif_tx_queue_stopped() - model of netif_tx_queue_stopped()
 * @txq: the queue
 *
 * Return: true if the driver stopped the queue (DRV_XOFF); the stack's
 * STACK_XOFF does not count here.
 */
bool bqlm_netif_tx_queue_stopped(const struct bqlm_txq *txq)
{
	return bqlm_txq_test_bit(BQLM_QUEUE_STATE_DRV_XOFF, txq);
}

/**
 * bqlm_netif_xmit_stopped() - model of netif_xmit_stopped()
 * @txq: the queue
 *
 * Return: true if either the driver (DRV_XOFF) or BQL (STACK_XOFF) stopped
 * the queue. FROZEN is not looked at.
 */
bool bqlm_netif_xmit_stopped(const struct bqlm_txq *txq)
{
	return txq->state & BQLM_QUEUE_STATE_ANY_XOFF;
}

/**
 * bqlm_netif_schedule_queue() - model of netif_schedule_queue()
 * @txq: the queue
 *
 * Reschedules the queue's qdisc, unless the queue is stopped by either XOFF
 * bit: then whoever clears that bit is responsible for the reschedule.
 */
void bqlm_netif_schedule_queue(struct bqlm_txq *txq)
{
	if (!bqlm_netif_xmit_stopped(txq))
		bqlm___netif_schedule(txq);
}

/**
 * bqlm_netif_tx_start_queue() - model of netif_tx_start_queue()
 * @txq: the queue
 *
 * Clears DRV_XOFF. Unlike bqlm_netif_tx_wake_queue() it does not reschedule
 * the qdisc: drivers use it when the device is being opened.
 */
void bqlm_netif_tx_start_queue(struct bqlm_txq *txq)
{
	bqlm_txq_clear_bit(BQLM_QUEUE_STATE_DRV_XOFF, txq);
}

/**
 * bqlm_netif_tx_stop_queue() - model of netif_tx_stop_queue()
 * @txq: the queue
 * @now: jiffies at the call
 *
 * Records @now in @trans_start (what dev_watchdog() measures a stop from)
 * and sets DRV_XOFF.
 */
void bqlm_netif_tx_stop_queue(struct bqlm_txq *txq, unsigned long now)
{
	txq->trans_start = now;
	bqlm_txq_set_bit(BQLM_QUEUE_STATE_DRV_XOFF, txq);
}

/**
 * bqlm_netif_tx_wake_queue() - model of netif_tx_wake_queue()
 * @txq: the queue
 *
 * If DRV_XOFF was set, clears it and reschedules the qdisc. As in the
 * kernel, the reschedule does not depend on STACK_XOFF: it goes straight to
 * __netif_schedule(), not through netif_schedule_queue(). A wake of a queue
 * that was not stopped does nothing.
 */
void bqlm_netif_tx_wake_queue(struct bqlm_txq *txq)
{
	if (bqlm_txq_test_and_clear_bit(BQLM_QUEUE_STATE_DRV_XOFF, txq))
		bqlm___netif_schedule(txq);
}

/**
 * bqlm_txq_sent_step_queue() - first step of netdev_tx_sent_queue()
 * @txq: the queue
 * @bytes: bytes handed to the device
 * @now: jiffies at the call
 * @over_limit: set to whether the queue is now over its limit (avail < 0)
 *
 * Counts @bytes in the DQL and checks the room left. When the DQL model
 * rejects @bytes (above DQL_MAX_OBJECT), nothing is counted, as in the
 * kernel, but @over_limit is still computed from the unchanged DQL: the
 * kernel's dql_queued() returns after its WARN_ON_ONCE() and the caller
 * goes on to check dql_avail() all the same.
 *
 * Return: 0, or the negative code of bqlm_dql_queued().
 */
int bqlm_txq_sent_step_queue(struct bqlm_txq *txq, unsigned int bytes,
			     unsigned long now, bool *over_limit)
{
	int ret = bqlm_dql_queued(&txq->dql, bytes, now);

	*over_limit = bqlm_dql_avail(&txq->dql) < 0;
	return ret;
}

/**
 * bqlm_txq_sent_step_xoff() - second step of netdev_tx_sent_queue()
 * @txq: the queue
 * @now: jiffies at the call
 *
 * Run when bqlm_txq_sent_step_queue() found the queue over its limit:
 * records @now in @trans_start and sets STACK_XOFF. The full barrier that
 * follows in the kernel separates this step from the re-check.
 */
void bqlm_txq_sent_step_xoff(struct bqlm_txq *txq, unsigned long now)
{
	txq->trans_start = now;
	bqlm_txq_set_bit(BQLM_QUEUE_STATE_STACK_XOFF, txq);
}

/**
 * bqlm_txq_sent_step_recheck() - last step of netdev_tx_sent_queue()
 * @txq: the queue
 *
 * Reads the room left again, after STACK_XOFF is visible: a completion
 * that ran on another CPU since the first check may have made room without
 * seeing STACK_XOFF (so without waking the queue). If there is room now,
 * STACK_XOFF is cleared again.
 */
void bqlm_txq_sent_step_recheck(struct bqlm_txq *txq)
{
	if (bqlm_dql_avail(&txq->dql) >= 0)
		bqlm_txq_clear_bit(BQLM_QUEUE_STATE_STACK_XOFF, txq);
}

/**
 * bqlm_netdev_tx_sent_queue() - model of netdev_tx_sent_queue()
 * @txq: the queue
 * @bytes: bytes handed to the device
 * @now: jiffies at the call
 *
 * Counts @bytes; if that put the queue over its limit, stops it with
 * STACK_XOFF (recording @now in @trans_start) and, after a full barrier,
 * re-checks and restarts it if room appeared meanwhile.
 *
 * When @bytes is above DQL_MAX_OBJECT the kernel warns once and does not
 * count it, but the rest of netdev_tx_sent_queue() still runs on the
 * unchanged DQL: a queue that an earlier xmit_more batch left over its
 * limit is stopped by the rejected call all the same. The model does that
 * too, and returns the rejection code.
 *
 * Return: 0, or the negative code of bqlm_dql_queued() (the violation is
 * recorded in the DQL's vlog).
 */
int bqlm_netdev_tx_sent_queue(struct bqlm_txq *txq, unsigned int bytes,
			      unsigned long now)
{
	bool over_limit;
	int ret;

	ret = bqlm_txq_sent_step_queue(txq, bytes, now, &over_limit);
	if (likely(!over_limit))
		return ret;

	bqlm_txq_sent_step_xoff(txq, now);
	/*
	 * The kernel's smp_mb() is here, paired with the one in
	 * netdev_tx_completed_queue(): in the model it is the boundary
	 * between this step and the next.
	 */
	bqlm_txq_sent_step_recheck(txq);
	return ret;
}

/**
 * bqlm___netdev_tx_sent_queue() - model of __netdev_tx_sent_queue()
 * @txq: the queue
 * @bytes: bytes handed to the device
 * @xmit_more: more packets of the same batch follow
 * @now: jiffies at the call
 * @kick: set to whether the driver must ring the device's doorbell
 *
 * Within a batch (@xmit_more) only counts @bytes, leaving STACK_XOFF alone,
 * and asks for a doorbell only if the driver has stopped the queue (the
 * batch will not be continued). The last packet of a batch goes through
 * bqlm_netdev_tx_sent_queue() and always asks for the doorbell. @kick is
 * set as the kernel computes it even when @bytes is rejected.
 *
 * Return: 0, or the negative code of bqlm_dql_queued().
 */
int bqlm___netdev_tx_sent_queue(struct bqlm_txq *txq, unsigned int bytes,
				bool xmit_more, unsigned long now,
				bool *kick)
{
	bool over_limit;
	int ret;

	if (xmit_more) {
		/* the over-limit verdict is not acted on within a batch */
		ret = bqlm_txq_sent_step_queue(txq, bytes, now, &over_limit);
		*kick = bqlm_netif_tx_queue_stopped(txq);
		return ret;
	}
	ret = bqlm_netdev_tx_sent_queue(txq, bytes, now);
	*kick = true;
	return ret;
}

/**
 * bqlm_txq_completed_step_dql() - first step of netdev_tx_completed_queue()
 * @txq: the queue
 * @bytes: bytes the device finished with
 * @now: jiffies at the call
 *
 * Retires @bytes in the DQL, which also adapts the limit. The whole call
 * returns before this step when @bytes is 0; a schedule of steps must do
 * the same.
 *
 * Return: 0, or the negative code of bqlm_dql_completed() (more than in
 * flight: the kernel's BUG_ON()); then nothing changed.
 */
int bqlm_txq_completed_step_dql(struct bqlm_txq *txq, unsigned int bytes,
				unsigned long now)
{
	return bqlm_dql_completed(&txq->dql, bytes, now);
}

/**
 * bqlm_txq_completed_step_wake() - last step of netdev_tx_completed_queue()
 * @txq: the queue
 *
 * Runs after the full barrier that follows the DQL update. If the queue is
 * below its limit and BQL had stopped it (STACK_XOFF), clears STACK_XOFF
 * and reschedules the qdisc, unless the driver's DRV_XOFF still holds the
 * queue. STACK_XOFF is cleared in either case.
 */
void bqlm_txq_completed_step_wake(struct bqlm_txq *txq)
{
	if (unlikely(bqlm_dql_avail(&txq->dql) < 0))
		return;

	if (bqlm_txq_test_and_clear_bit(BQLM_QUEUE_STATE_STACK_XOFF, txq))
		bqlm_netif_schedule_queue(txq);
}

/**
 * bqlm_netdev_tx_completed_queue() - model of netdev_tx_completed_queue()
 * @txq: the queue
 * @pkts: packets completed (ignored, as by the kernel)
 * @bytes: bytes completed
 * @now: jiffies at the call
 *
 * A completion of zero bytes does nothing at all. Otherwise the bytes are
 * retired, and after a full barrier the queue is woken if BQL had stopped
 * it and there is room again.
 *
 * Return: 0, or the negative code of bqlm_dql_completed() when @bytes is
 * more than is in flight: the kernel hits BUG_ON() there; the model leaves
 * the queue untouched and records the violation in the DQL's vlog.
 */
int bqlm_netdev_tx_completed_queue(struct bqlm_txq *txq, unsigned int pkts,
				   unsigned int bytes, unsigned long now)
{
	int ret;

	(void)pkts;
	if (unlikely(!bytes))
		return 0;

	ret = bqlm_txq_completed_step_dql(txq, bytes, now);
	if (ret)
		return ret;
	/* the smp_mb() paired with netdev_tx_sent_queue()'s: a step boundary */
	bqlm_txq_completed_step_wake(txq);
	return 0;
}

/**
 * bqlm_netdev_tx_reset_queue() - model of netdev_tx_reset_queue()
 * @txq: the queue
 * @now: jiffies at the call
 *
 * Clears STACK_XOFF and resets the DQL, forgetting everything in flight.
 * DRV_XOFF is the driver's and stays as it is. Nothing is rescheduled.
 */
void bqlm_netdev_tx_reset_queue(struct bqlm_txq *txq, unsigned long now)
{
	bqlm_txq_clear_bit(BQLM_QUEUE_STATE_STACK_XOFF, txq);
	bqlm_dql_reset(&txq->dql, now);
}

/**
 * bqlm_txq_digest() - a host-independent digest of the queue's state
 * @txq: the queue
 *
 * Folds the DQL (as bqlm_dql_digest()), the state bits, @trans_start,
 * @sched_pending and @sched_count into one 64-bit FNV-1a digest, so that a
 * test can check that a call changed nothing at all.
 *
 * Return: the digest.
 */
u64 bqlm_txq_digest(const struct bqlm_txq *txq)
{
	u64 h = BQLM_FNV_OFFSET;

	h = bqlm_fnv_u64(h, bqlm_dql_digest(&txq->dql));
	h = bqlm_fnv_u64(h, txq->state);
	h = bqlm_fnv_u64(h, txq->trans_start);
	h = bqlm_fnv_u64(h, txq->sched_pending);
	h = bqlm_fnv_u64(h, txq->sched_count);
	return h;
}
