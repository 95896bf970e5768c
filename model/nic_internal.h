/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what model/nic.c (the NAPI NIC driver model) and
 * model/nic_xsys.c (its explorer adapter) share: the enabling conditions
 * of the actors, which the actors test before their step and the adapter
 * tests to list the enabled actions, and the actors' steps on a
 * configuration already checked. Private to the model: not installed.
 */
#ifndef _BQLM_NIC_INTERNAL_H
#define _BQLM_NIC_INTERNAL_H

#include "bqlm_internal.h"
#include <bqlm/nic.h>

/* Descriptors in use on a ring (not yet cleaned by the driver). */
static inline unsigned int bqlm_nic_used(const struct bqlm_nic_queue *nq)
{
	unsigned int i, used = 0;

	for (i = 0; i < nq->npkts; i++)
		used += nq->pkt[i].ndesc - nq->pkt[i].cleaned;
	return used;
}

/* Room for one more packet of cfg->descs descriptors? */
static inline bool bqlm_nic_room(const struct bqlm_nic_queue *nq,
				 const struct bqlm_nic_cfg *cfg)
{
	return nq->npkts < BQLM_NIC_MAX_RING &&
	       bqlm_nic_used(nq) + cfg->descs <= cfg->ring;
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

	if (nic->xmit != BQLM_NIC_XMIT_IDLE)
		return true;
	if (!nic->up || nic->sent >= cfg->packets)
		return false;
	nq = &nic->q[bqlm_nic_next_queue(nic, cfg)];
	/* the qdisc holds packets while the queue is stopped; a full ring
	 * the driver did not stop for would be NETDEV_TX_BUSY: requeued
	 */
	return !bqlm_netif_xmit_stopped(&nq->txq) &&
	       nq->lock == BQLM_NIC_LOCK_FREE && bqlm_nic_room(nq, cfg);
}

/* The packet whose descriptor the device completes next on @nq, or -1. */
static inline int bqlm_nic_dma_next(const struct bqlm_nic_queue *nq)
{
	unsigned int i;

	for (i = 0; i < nq->npkts; i++) {
		const struct bqlm_nic_pkt *p = &nq->pkt[i];

		if (p->done == p->ndesc)
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

	if (!nq->npkts)
		return false;
	if (cfg->bytes == BQLM_NIC_BYTES_BD_SUM)
		return p->done > p->cleaned;
	return p->done == p->ndesc;
}

static inline bool bqlm_nic_can_poll(const struct bqlm_nic *nic,
				     const struct bqlm_nic_cfg *cfg, unsigned int q)
{
	const struct bqlm_nic_queue *nq = &nic->q[q];

	if (q >= cfg->queues)
		return false;
	if (nq->napi != BQLM_NIC_NAPI_IDLE)
		return true;
	return nic->napi_on && nq->sched &&
	       (!cfg->napi_txlock || nq->lock == BQLM_NIC_LOCK_FREE);
}

static inline bool bqlm_nic_can_xdp(const struct bqlm_nic *nic,
				    const struct bqlm_nic_cfg *cfg)
{
	const struct bqlm_nic_queue *nq = &nic->q[cfg->queues - 1];

	return nic->xdp_sent < cfg->xdp_frames && nic->up && nic->napi_on &&
	       nq->lock == BQLM_NIC_LOCK_FREE && bqlm_nic_room(nq, cfg);
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
	       nq->lock == BQLM_NIC_LOCK_FREE && bqlm_nic_cleanable(nq, cfg);
}

/* Can a path start? */
static inline bool bqlm_nic_can_start(const struct bqlm_nic *nic,
				      const struct bqlm_nic_cfg *cfg,
				      enum bqlm_nic_path path)
{
	unsigned int q;
	bool stopped = false;

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
		for (q = 0; q < cfg->queues; q++)
			stopped |= bqlm_netif_xmit_stopped(&nic->q[q].txq);
		return nic->up && nic->left[2] && stopped;
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
			if (nic->q[q].lock != BQLM_NIC_LOCK_FREE)
				return false;
		return true;
	case BQLM_NIC_OP_NAPI_OFF:
		/* napi_disable() waits until no poll is scheduled or running */
		for (q = 0; q < cfg->queues; q++)
			if (nic->q[q].napi != BQLM_NIC_NAPI_IDLE ||
			    nic->q[q].sched)
				return false;
		return true;
	default:
		return true;
	}
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

/* The actors' steps, on a configuration already checked (model/nic.c). */
int __bqlm_ndo_start_xmit(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg,
			  struct bqlm_inv_step *ev);
int __bqlm_nic_dma_complete(struct bqlm_nic *nic,
			    const struct bqlm_nic_cfg *cfg,
			    unsigned int q);
int __bqlm_napi_poll(struct bqlm_nic *nic,
		     const struct bqlm_nic_cfg *cfg, unsigned int q,
		     struct bqlm_inv_step *ev);
int __bqlm_ndo_xdp_xmit(struct bqlm_nic *nic,
			const struct bqlm_nic_cfg *cfg);
int __bqlm_napi_poll_cleantx(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg,
			     unsigned int q, struct bqlm_inv_step *ev);
int __bqlm_nic_reset_path(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg,
			  unsigned int start, struct bqlm_inv_step *ev);

#endif /* _BQLM_NIC_INTERNAL_H */
