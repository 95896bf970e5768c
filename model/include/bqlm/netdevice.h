/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the BQL transmit-queue layer: the model of the BQL and XOFF
 * parts of include/linux/netdevice.h and net/core/dev.c (Linux 6.12).
 *
 * A struct bqlm_txq stands for one struct netdev_queue: its dql and its
 * state bits. The qdisc is represented only by what the queue layer does to
 * it: __netif_schedule() raising a reschedule, counted in @sched_count and
 * flagged in @sched_pending until the driver model's qdisc actor runs.
 *
 * The whole kernel calls are here (bqlm_netdev_tx_sent_queue() and
 * friends). For the explorer, the two halves of the XOFF protocol are also
 * available as separate steps, so that another CPU can run between them:
 *
 *   netdev_tx_sent_queue():            netdev_tx_completed_queue():
 *     bqlm_txq_sent_step_queue()         bqlm_txq_completed_step_dql()
 *       (dql_queued, avail < 0 ?)          (dql_completed)
 *     bqlm_txq_sent_step_xoff()            -- smp_mb() --
 *       (trans_start, set STACK_XOFF)    bqlm_txq_completed_step_wake()
 *     -- smp_mb() --                       (avail >= 0 ? test_and_clear
 *     bqlm_txq_sent_step_recheck()          STACK_XOFF, schedule)
 *       (avail >= 0 ? clear STACK_XOFF)
 */
#ifndef _BQLM_NETDEVICE_H
#define _BQLM_NETDEVICE_H

#include <bqlm/types.h>
#include <bqlm/dql.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bit numbers in struct bqlm_txq.state, as enum netdev_queue_state_t. */
#define BQLM_QUEUE_STATE_DRV_XOFF	0
#define BQLM_QUEUE_STATE_STACK_XOFF	1
#define BQLM_QUEUE_STATE_FROZEN		2

#define BQLM_QUEUE_STATE_ANY_XOFF	((1UL << BQLM_QUEUE_STATE_DRV_XOFF) | \
					 (1UL << BQLM_QUEUE_STATE_STACK_XOFF))

/**
 * struct bqlm_txq - one transmit queue (struct netdev_queue)
 * @dql: the queue's dynamic queue limit
 * @state: DRV_XOFF, STACK_XOFF and FROZEN bits
 * @trans_start: jiffies of the last stop, as dev_watchdog() reads it
 * @sched_pending: __netif_schedule() ran and the qdisc has not run since
 * @sched_count: number of __netif_schedule() calls
 */
struct bqlm_txq {
	struct bqlm_dql dql;
	unsigned long state;
	unsigned long trans_start;
	bool sched_pending;
	unsigned int sched_count;
};

void bqlm_txq_init(struct bqlm_txq *txq, unsigned int hold_time,
		   unsigned long now);

/**
 * bqlm_txq_sched_clear() - forget the qdisc's reschedule requests
 * @txq: the queue
 *
 * For a driver model whose stack is an actor that sends whenever the
 * queue runs: a __netif_schedule() is then not part of the state, and the
 * model's explorer step clears it, so that equal states are equal byte for
 * byte.
 */
static inline void bqlm_txq_sched_clear(struct bqlm_txq *txq)
{
	txq->sched_pending = false;
	txq->sched_count = 0;
}

/* The kernel calls, whole. Return 0 or the dql_*() model's negative code. */
int bqlm_netdev_tx_sent_queue(struct bqlm_txq *txq, unsigned int bytes,
			      unsigned long now);
int bqlm___netdev_tx_sent_queue(struct bqlm_txq *txq, unsigned int bytes,
				bool xmit_more, unsigned long now,
				bool *kick);
int bqlm_netdev_tx_completed_queue(struct bqlm_txq *txq, unsigned int pkts,
				   unsigned int bytes, unsigned long now);
void bqlm_netdev_tx_reset_queue(struct bqlm_txq *txq, unsigned long now);

void bqlm_netif_tx_start_queue(struct bqlm_txq *txq);
void bqlm_netif_tx_stop_queue(struct bqlm_txq *txq, unsigned long now);
void bqlm_netif_tx_wake_queue(struct bqlm_txq *txq);
void bqlm_netif_schedule_queue(struct bqlm_txq *txq);
bool bqlm_netif_tx_queue_stopped(const struct bqlm_txq *txq);
bool bqlm_netif_xmit_stopped(const struct bqlm_txq *txq);

/* The same calls in steps, for the explorer (see the top of this file). */
int bqlm_txq_sent_step_queue(struct bqlm_txq *txq, unsigned int bytes,
			     unsigned long now, bool *over_limit);
void bqlm_txq_sent_step_xoff(struct bqlm_txq *txq, unsigned long now);
void bqlm_txq_sent_step_recheck(struct bqlm_txq *txq);
int bqlm_txq_completed_step_dql(struct bqlm_txq *txq, unsigned int bytes,
				unsigned long now);
void bqlm_txq_completed_step_wake(struct bqlm_txq *txq);

/*
 * Notes on the steps:
 *  - bqlm_txq_sent_step_xoff() and bqlm_txq_sent_step_recheck() run only
 *    when bqlm_txq_sent_step_queue() reported @over_limit;
 *  - netdev_tx_completed_queue() returns at once for 0 bytes: run no step;
 *  - bqlm_txq_completed_step_wake() runs only when the DQL step returned 0.
 * A rejected bqlm_txq_sent_step_queue() (object above DQL_MAX_OBJECT) still
 * reports @over_limit, because the kernel goes on after dql_queued()'s
 * warning: see bqlm_netdev_tx_sent_queue().
 */

/* Model only: a digest of the whole queue state (DQL, bits, scheduling). */
u64 bqlm_txq_digest(const struct bqlm_txq *txq);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_NETDEVICE_H */
