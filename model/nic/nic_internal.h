/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what model/nic/nic.c (the NAPI NIC driver model) and
 * model/nic/nic_xsys.c (its explorer adapter) share: the enabling conditions
 * of the actors, which the actors test before their step and the adapter
 * tests to list the enabled actions, the CPUs' views of the shared
 * variables, and the actors' steps on a configuration already checked.
 * Private to the model: not installed.
 */
#ifndef _BQLM_NIC_INTERNAL_H
#define _BQLM_NIC_INTERNAL_H

#include "bqlm_internal.h"
#include <bqlm/nic.h>
#include <bqlm/memory_model.h>

#define BQLM_NIC_DRV_XOFF	(1U << BQLM_QUEUE_STATE_DRV_XOFF)

/*
 * The shared variables under the memory model, per queue: the state word
 * (its memory is txq.state), the producer and the consumer index.
 */
#define BQLM_NIC_VAR_STATE(q)	(3 * (q))
#define BQLM_NIC_VAR_PROD(q)	(3 * (q) + 1)
#define BQLM_NIC_VAR_CONS(q)	(3 * (q) + 2)

/* The CPUs with a store buffer: the stack's, then each queue's completer. */
#define BQLM_NIC_CPU_XMIT	0
#define BQLM_NIC_CPU_POLL(q)	(1 + (q))

/* Descriptors of a packet on the ring. */
static inline unsigned int bqlm_nic_ndesc(const struct bqlm_nic_pkt *p,
					  const struct bqlm_nic_cfg *cfg)
{
	return (p->flags & BQLM_NIC_PKT_XDP) ? 1 : cfg->descs;
}

/* The bytes a packet is reported sent with (netdev_tx_sent_queue()). */
static inline unsigned int bqlm_nic_sent_len(const struct bqlm_nic_cfg *cfg)
{
	return cfg->len + (cfg->gso == BQLM_NIC_GSO_SENT_WIRE ?
			   BQLM_NIC_GSO_HDRS : 0);
}

/* The bytes the completion reports for a packet it frees. */
static inline unsigned int bqlm_nic_done_len(const struct bqlm_nic_cfg *cfg)
{
	return cfg->len + (cfg->gso == BQLM_NIC_GSO_COMPLETED_WIRE ?
			   BQLM_NIC_GSO_HDRS : 0);
}

/* Descriptors in use on a ring (not yet cleaned by the driver). */
static inline unsigned int bqlm_nic_used(const struct bqlm_nic_queue *nq,
					 const struct bqlm_nic_cfg *cfg)
{
	unsigned int i, used = 0;

	for (i = 0; i < nq->npkts; i++)
		used += bqlm_nic_ndesc(&nq->pkt[i], cfg) - nq->pkt[i].cleaned;
	return used;
}

/* Room for one more packet of cfg->descs descriptors? */
static inline bool bqlm_nic_room(const struct bqlm_nic_queue *nq,
				 const struct bqlm_nic_cfg *cfg)
{
	return nq->npkts < BQLM_NIC_MAX_RING &&
	       bqlm_nic_used(nq, cfg) + cfg->descs <= cfg->ring;
}

/* The thresholds in free descriptors, 0 in the configuration standing
 * for the packet's descriptors (or, for the re-check, the wake's).
 */
static inline unsigned int bqlm_nic_stop_thr(const struct bqlm_nic_cfg *cfg)
{
	return cfg->stop_thresh ? cfg->stop_thresh : cfg->descs;
}

static inline unsigned int bqlm_nic_wake_thr(const struct bqlm_nic_cfg *cfg)
{
	return cfg->wake_thresh ? cfg->wake_thresh : cfg->descs;
}

static inline unsigned int bqlm_nic_restart_thr(const struct bqlm_nic_cfg *cfg)
{
	return cfg->restart_thresh ? cfg->restart_thresh :
	       bqlm_nic_wake_thr(cfg);
}

/* The queue the driver's own stop acts on for ring @q. */
static inline unsigned int bqlm_nic_drv_q(const struct bqlm_nic_cfg *cfg,
					  unsigned int q)
{
	return cfg->drv_queue == BQLM_NIC_DQUEUE_OWN ? q : 0;
}

/* The queue the driver's own wake acts on for ring @q. */
static inline unsigned int bqlm_nic_wake_q(const struct bqlm_nic_cfg *cfg,
					   unsigned int q)
{
	return cfg->drv_queue == BQLM_NIC_DQUEUE_Q0 ? 0 : q;
}

/* The queue whose DQL a completion of ring @q reports to. */
static inline unsigned int bqlm_nic_bql_q(const struct bqlm_nic_cfg *cfg,
					  unsigned int q)
{
	return cfg->complete_queue == BQLM_NIC_CQUEUE_OTHER ?
	       (q + 1) % cfg->queues : q;
}

/* The store buffer of a CPU. */
static inline struct bqlm_sb *bqlm_nic_sb(struct bqlm_nic *nic,
					  unsigned int cpu)
{
	return cpu == BQLM_NIC_CPU_XMIT ? &nic->sb : &nic->q[cpu - 1].sb;
}

/* Memory: the values of the shared variables, from the state and back. */
static inline void bqlm_nic_mem_get(const struct bqlm_nic *nic,
				    unsigned short *m)
{
	unsigned int q;

	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++) {
		m[BQLM_NIC_VAR_STATE(q)] = (unsigned short)nic->q[q].txq.state;
		m[BQLM_NIC_VAR_PROD(q)] = nic->q[q].prod;
		m[BQLM_NIC_VAR_CONS(q)] = nic->q[q].cons;
	}
}

static inline void bqlm_nic_mem_put(struct bqlm_nic *nic,
				    const unsigned short *m)
{
	unsigned int q;

	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++) {
		struct bqlm_nic_queue *nq = &nic->q[q];

		nq->txq.state = (nq->txq.state & ~0xffffUL) |
				m[BQLM_NIC_VAR_STATE(q)];
		nq->prod = m[BQLM_NIC_VAR_PROD(q)] & 0xff;
		nq->cons = m[BQLM_NIC_VAR_CONS(q)] & 0xff;
	}
}

/*
 * What CPU @cpu reads of variable @var: memory, then its own stores
 * (BQLM_NIC_NR_CPUS: a CPU with nothing buffered).
 */
static inline unsigned int bqlm_nic_load(const struct bqlm_nic *nic,
					 const struct bqlm_nic_cfg *cfg,
					 unsigned int cpu, unsigned int var)
{
	unsigned short m[BQLM_NIC_NR_VARS];
	struct bqlm_mm_cpu c;

	bqlm_nic_mem_get(nic, m);
	if (cpu >= BQLM_NIC_NR_CPUS)
		return m[var];	/* a CPU with nothing buffered: memory */
	c.kind = cfg->mm;
	c.mem = m;
	c.sb = bqlm_nic_sb((struct bqlm_nic *)nic, cpu);
	return bqlm_mm_load(&c, var);
}

/* Free descriptors on ring @q as CPU @cpu sees the two indices. */
static inline int bqlm_nic_free_view(const struct bqlm_nic *nic,
				     const struct bqlm_nic_cfg *cfg,
				     unsigned int cpu, unsigned int q)
{
	unsigned int used;

	used = (bqlm_nic_load(nic, cfg, cpu, BQLM_NIC_VAR_PROD(q)) -
		bqlm_nic_load(nic, cfg, cpu, BQLM_NIC_VAR_CONS(q))) & 0xff;
	return (int)cfg->ring - (int)used;
}

/*
 * ndo_start_xmit() finds no room for a packet on ring @q and takes its
 * NETDEV_TX_BUSY path (a driver with one, --tx-busy).
 */
static inline bool bqlm_nic_xmit_no_room(const struct bqlm_nic *nic,
					 const struct bqlm_nic_cfg *cfg,
					 unsigned int q)
{
	return cfg->busy != BQLM_NIC_BUSY_NONE &&
	       bqlm_nic_free_view(nic, cfg, BQLM_NIC_CPU_XMIT, q) <
	       (int)cfg->descs;
}

/* netif_xmit_stopped() as the stack's CPU sees it (its own stop too). */
static inline bool bqlm_nic_xmit_stopped(const struct bqlm_nic *nic,
					 const struct bqlm_nic_cfg *cfg,
					 unsigned int q)
{
	if (!nic->sb.n)
		return bqlm_netif_xmit_stopped(&nic->q[q].txq);
	return bqlm_nic_load(nic, cfg, BQLM_NIC_CPU_XMIT,
			     BQLM_NIC_VAR_STATE(q)) & BQLM_QUEUE_STATE_ANY_XOFF;
}

/*
 * May another CPU take queue @q's tx lock? It is free, and the stack's
 * unlock (a release, behind every store the stack made) is in memory:
 * the stack's store buffer is empty.
 */
static inline bool bqlm_nic_lock_free(const struct bqlm_nic *nic,
				      unsigned int q)
{
	return nic->q[q].lock == BQLM_NIC_LOCK_FREE && !nic->sb.n;
}

/* The queue of the stack's next packet, and whether xmit_more is set. */
static inline unsigned int bqlm_nic_next_queue(const struct bqlm_nic *nic,
					       const struct bqlm_nic_cfg *cfg)
{
	if (cfg->map == BQLM_NIC_MAP_Q0)
		return 0;
	return nic->batch_no % cfg->queues;
}

static inline bool bqlm_nic_next_more(const struct bqlm_nic *nic,
				      const struct bqlm_nic_cfg *cfg)
{
	return nic->batch_pos + 1 < cfg->batch &&
	       nic->sent + 1 < cfg->packets;
}

static inline bool bqlm_nic_can_xmit(const struct bqlm_nic *nic,
				     const struct bqlm_nic_cfg *cfg)
{
	const struct bqlm_nic_queue *nq;
	unsigned int q;

	if (nic->xmit != BQLM_NIC_XMIT_IDLE)
		return true;
	if (!nic->up || nic->sent >= cfg->packets)
		return false;
	q = bqlm_nic_next_queue(nic, cfg);
	nq = &nic->q[q];
	/* the qdisc holds packets while the queue is stopped */
	if (bqlm_nic_xmit_stopped(nic, cfg, q) ||
	    nq->lock != BQLM_NIC_LOCK_FREE)
		return false;
	/* a full ring the driver did not stop for is its NETDEV_TX_BUSY
	 * path; without one, the requeue changes nothing: the stack waits
	 */
	if (cfg->busy != BQLM_NIC_BUSY_NONE)
		return nq->npkts < BQLM_NIC_MAX_RING;
	if (bqlm_nic_split(cfg))
		return nq->npkts < BQLM_NIC_MAX_RING &&
		       bqlm_nic_free_view(nic, cfg, BQLM_NIC_CPU_XMIT, q) >=
		       (int)cfg->descs;
	return bqlm_nic_room(nq, cfg);
}

/* The packet whose descriptor the device completes next on @nq, or -1. */
static inline int bqlm_nic_dma_next(const struct bqlm_nic_queue *nq,
				    const struct bqlm_nic_cfg *cfg)
{
	unsigned int i;

	for (i = 0; i < nq->npkts; i++) {
		const struct bqlm_nic_pkt *p = &nq->pkt[i];

		if (p->done == bqlm_nic_ndesc(p, cfg))
			continue;
		return (p->flags & BQLM_NIC_PKT_KICKED) ? (int)i : -1;
	}
	return -1;
}

/* Is there something a poll would clean (the interrupt's work)? */
static inline bool bqlm_nic_cleanable(const struct bqlm_nic_queue *nq,
				      const struct bqlm_nic_cfg *cfg)
{
	const struct bqlm_nic_pkt *p = &nq->pkt[0];

	if (nq->ghost_done)
		return true;
	if (!nq->npkts || (p->flags & BQLM_NIC_PKT_HIDDEN))
		return false;
	if (cfg->bytes == BQLM_NIC_BYTES_BD_SUM)
		return p->done > p->cleaned;
	return p->done == bqlm_nic_ndesc(p, cfg);
}

static inline bool bqlm_nic_can_poll(const struct bqlm_nic *nic,
				     const struct bqlm_nic_cfg *cfg, unsigned int q)
{
	const struct bqlm_nic_queue *nq = &nic->q[q];

	if (q >= cfg->queues)
		return false;
	if (nq->napi != BQLM_NIC_NAPI_IDLE)
		return true;
	if (!nq->sched)
		return false;
	if (cfg->completion == BQLM_NIC_COMPLETION_IRQ)
		return !nic->irq_off;
	return nic->napi_on &&
	       (!cfg->napi_txlock || bqlm_nic_lock_free(nic, q));
}

static inline bool bqlm_nic_can_xdp(const struct bqlm_nic *nic,
				    const struct bqlm_nic_cfg *cfg)
{
	const struct bqlm_nic_queue *nq = &nic->q[cfg->queues - 1];

	return nic->xdp_sent < cfg->xdp_frames && nic->up && nic->napi_on &&
	       bqlm_nic_lock_free(nic, cfg->queues - 1) &&
	       bqlm_nic_room(nq, cfg);
}

static inline bool bqlm_nic_can_cleantx(const struct bqlm_nic *nic,
					const struct bqlm_nic_cfg *cfg, unsigned int q)
{
	const struct bqlm_nic_queue *nq = &nic->q[q];

	/* __netif_tx_trylock() fails while anyone holds the tx lock; the
	 * driver's flag (virtio's sq->reset) keeps it out of a reset path
	 */
	return cfg->rx_cleanup && q < cfg->queues && nic->up &&
	       nic->napi_on && !nic->path &&
	       bqlm_nic_lock_free(nic, q) && bqlm_nic_cleanable(nq, cfg);
}

/* Is any queue stopped, by the test @ttest? */
static inline bool bqlm_nic_any_stopped(const struct bqlm_nic *nic,
					const struct bqlm_nic_cfg *cfg,
					enum bqlm_nic_timeout_test ttest)
{
	unsigned int q;

	for (q = 0; q < cfg->queues; q++)
		if (ttest == BQLM_NIC_TTEST_XMIT_STOPPED ?
		    bqlm_netif_xmit_stopped(&nic->q[q].txq) :
		    bqlm_netif_tx_queue_stopped(&nic->q[q].txq))
			return true;
	return false;
}

/* May the completion wake, by the driver's down condition? */
static inline bool bqlm_nic_wake_gate(const struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg)
{
	bool down = !nic->up || nic->path;

	switch (cfg->down) {
	case BQLM_NIC_DOWN_NONE:
		return true;
	case BQLM_NIC_DOWN_INVERTED:
		return down;
	default:
		return !down;
	}
}

/* Descriptors on ring @nq that no doorbell announced to the device? */
static inline bool bqlm_nic_unkicked(const struct bqlm_nic_queue *nq)
{
	unsigned int i;

	for (i = 0; i < nq->npkts; i++)
		if (!(nq->pkt[i].flags & BQLM_NIC_PKT_KICKED))
			return true;
	return false;
}

/* Can a path start? */
static inline bool bqlm_nic_can_start(const struct bqlm_nic *nic,
				      const struct bqlm_nic_cfg *cfg,
				      enum bqlm_nic_path path)
{
	if (nic->path)
		return false;
	switch (path) {
	case BQLM_NIC_PATH_CLOSE:
		/* dev_deactivate() waits for a transmit in flight */
		return nic->up && nic->left[0] &&
		       nic->xmit == BQLM_NIC_XMIT_IDLE;
	case BQLM_NIC_PATH_OPEN:
		return nic->closed;
	case BQLM_NIC_PATH_RECONFIG:
		return nic->up && nic->left[1];
	case BQLM_NIC_PATH_TIMEOUT:
		/* dev_watchdog(): netif_xmit_stopped() on some queue */
		/* with --hangs only a hung device times out: a queue that
		 * its device still serves is not stopped for long
		 */
		return nic->up && nic->left[2] &&
		       (!cfg->hangs || nic->hung) &&
		       bqlm_nic_any_stopped(nic, cfg,
					    BQLM_NIC_TTEST_XMIT_STOPPED);
	case BQLM_NIC_PATH_SUSPEND:
		return nic->up && nic->left[3] &&
		       nic->xmit == BQLM_NIC_XMIT_IDLE;
	case BQLM_NIC_PATH_RESUME:
		return nic->suspended;
	default:
		return false;
	}
}

/* Can the path's next call run now? */
static inline bool bqlm_nic_can_op(const struct bqlm_nic *nic,
				   const struct bqlm_nic_cfg *cfg)
{
	unsigned int q;

	if (!nic->path)
		return false;
	switch (cfg->ops[nic->path - 1][nic->op]) {
	case BQLM_NIC_OP_STOP:
		for (q = 0; q < cfg->queues; q++)
			if (!bqlm_nic_lock_free(nic, q))
				return false;
		return true;
	case BQLM_NIC_OP_STOP0:
		return bqlm_nic_lock_free(nic, 0);
	case BQLM_NIC_OP_NAPI_OFF:
		/* napi_disable() does not wait for a hard IRQ handler */
		if (cfg->completion == BQLM_NIC_COMPLETION_IRQ)
			return true;
		/* it waits until no poll is scheduled or running */
		for (q = 0; q < cfg->queues; q++)
			if (nic->q[q].napi != BQLM_NIC_NAPI_IDLE ||
			    nic->q[q].sched)
				return false;
		return true;
	case BQLM_NIC_OP_IRQ_OFF:
		/* disable_irq() waits for a running handler */
		for (q = 0; q < cfg->queues; q++)
			if (nic->q[q].napi != BQLM_NIC_NAPI_IDLE)
				return false;
		return true;
	default:
		return true;
	}
}

static inline bool bqlm_nic_can_dma(const struct bqlm_nic *nic,
				    const struct bqlm_nic_cfg *cfg,
				    unsigned int q)
{
	const struct bqlm_nic_queue *nq;

	if (q >= cfg->queues || !nic->dma_on || nic->hung)
		return false;
	nq = &nic->q[q];
	return nq->ghosts > nq->ghost_done || bqlm_nic_dma_next(nq, cfg) >= 0;
}

/**
 * struct bqlm_nic_name - a reset path or one of its calls
 * @name: its option name (bqlm_nic_parse_ops(), bqlm_nic_path_name())
 * @call: what it is in the kernel, as traces print it
 */
struct bqlm_nic_name {
	const char *name;
	const char *call;
};

extern const struct bqlm_nic_name bqlm_nic_ops[BQLM_NIC_NR_OPS];
extern const struct bqlm_nic_name bqlm_nic_paths[BQLM_NIC_NR_PATHS];

/* The actors' steps, on a configuration already checked (model/nic/nic.c). */
int __bqlm_ndo_start_xmit(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg, bool drop,
			  struct bqlm_inv_step *ev);
int __bqlm_nic_dma_complete(struct bqlm_nic *nic,
			    const struct bqlm_nic_cfg *cfg,
			    unsigned int q);
int __bqlm_napi_poll(struct bqlm_nic *nic,
		     const struct bqlm_nic_cfg *cfg, unsigned int q,
		     struct bqlm_inv_step *ev);
int __bqlm_ndo_xdp_xmit(struct bqlm_nic *nic,
			const struct bqlm_nic_cfg *cfg,
			struct bqlm_inv_step *ev);
int __bqlm_napi_poll_cleantx(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg,
			     unsigned int q, struct bqlm_inv_step *ev);
int __bqlm_nic_reset_path(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg,
			  unsigned int start, struct bqlm_inv_step *ev,
			  unsigned int *evq);
int __bqlm_nic_mm_flush(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int cpu, unsigned int k);

#endif /* _BQLM_NIC_INTERNAL_H */
