// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - a design study, never proposed upstream: BQL in tun (struct
 * bqlm_tun_cfg.bql and its choices; the profiles bql, bql-late-sent and
 * bql-reset-resize of model/tun/tun_options.c; tun has no BQL calls in the
 * kernel).
 *
 * netdev_tx_sent_queue() in tun_net_xmit() under producer_lock once
 * __ptr_ring_check_produce() found room, before the produce makes the
 * packet visible to the reader (LLTX: the ring lock is the only thing that
 * serialises dql_queued()); netdev_tx_completed_queue() once per consume
 * (batch) under consumer_lock; netdev_tx_reset_queue() after the purge of
 * a detach; netdev_tx_completed_queue() of the entries a resize frees.
 * bql-late-sent reports the bytes after the produce instead (and does
 * nothing about a resize), bql-reset-resize resets the queue on resize.
 * One queue file, sequentially consistent.
 *
 * model/tun/tun.c calls these functions at the places the study puts its
 * calls; the state holds, after the packets' where[], the study's books:
 * the enum bqlm_tun_bql of each packet id and the BQL queue of each txq
 * (struct bqlm_tun.mem).
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/tun.h>
#include "tun_internal.h"

/* The study has no clock: every call runs at this jiffies value. */
#define BQLM_TUN_NOW		1000UL
#define BQLM_TUN_HZ		1000U

/* The study's bounds: one queue file, sequentially consistent, bounded. */
int bqlm_tun_bql_cfg_check(const struct bqlm_tun_cfg *cfg)
{
	if (cfg->queues != 1 || cfg->mm != BQLM_MM_SC || !cfg->packets)
		return -EINVAL;
	return 0;
}

/* The state with the study's books: bql[] after where[], the txqs. */
size_t bqlm_tun_bql_state_size(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_round_up(bqlm_tun_txq_off(cfg) + cfg->queues *
				 sizeof(struct bqlm_txq),
				 __alignof__(struct bqlm_txq));
}

/* Every txq's BQL queue as after register_netdev(). */
void bqlm_tun_bql_init(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg)
{
	unsigned int q;

	for (q = 0; q < cfg->queues; q++)
		bqlm_txq_init(bqlm_tun_txq(tun, cfg, q), BQLM_TUN_HZ,
			      BQLM_TUN_NOW);
}

/* netdev_tx_sent_queue() of one packet. */
static void bqlm_tun_bql_sent(struct bqlm_tun *tun,
			      const struct bqlm_tun_cfg *cfg, unsigned int q,
			      unsigned int pkt, struct bqlm_inv_step *ev)
{
	unsigned char *bql = bqlm_tun_bql(tun, cfg);
	int err = bqlm_netdev_tx_sent_queue(bqlm_tun_txq(tun, cfg, q), cfg->len,
					    BQLM_TUN_NOW);

	if (err) {
		ev->dql_err = err;
		ev->dql_val[0] = cfg->len;
	}
	if (bql[pkt - 1] != BQLM_TUN_BQL_NONE)
		ev->twice++;
	bql[pkt - 1] = BQLM_TUN_BQL_SENT;
}

/*
 * netdev_tx_completed_queue() of @n packets @got; a packet forgotten by a
 * reset counts as stale bytes, one never reported sent as unsent.
 */
static void bqlm_tun_bql_completed(struct bqlm_tun *tun,
				   const struct bqlm_tun_cfg *cfg,
				   unsigned int q, const unsigned short *got,
				   unsigned int n, struct bqlm_inv_step *ev)
{
	struct bqlm_txq *txq = bqlm_tun_txq(tun, cfg, q);
	unsigned char *bql = bqlm_tun_bql(tun, cfg);
	unsigned int i, bytes = n * cfg->len;
	int err;

	for (i = 0; i < n; i++) {
		unsigned char *b = &bql[got[i] - 1];

		if (*b == BQLM_TUN_BQL_STALE)
			ev->stale_bytes += cfg->len;
		else if (*b == BQLM_TUN_BQL_NONE)
			ev->unsent_skbs++;
		else if (*b == BQLM_TUN_BQL_DONE)
			ev->twice++;
	}
	err = bqlm_netdev_tx_completed_queue(txq, n, bytes, BQLM_TUN_NOW);
	if (err) {
		/* the kernel's BUG_ON(): nothing changed */
		ev->dql_err = err;
		ev->dql_val[0] = bytes;
		ev->dql_val[1] = bqlm_dql_inflight(&txq->dql);
		return;
	}
	for (i = 0; i < n; i++)
		bql[got[i] - 1] = BQLM_TUN_BQL_DONE;
}

/*
 * netdev_tx_reset_queue() of txq @q, after the purge of a detach: what
 * was in flight is stale.
 */
void bqlm_tun_bql_reset(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
			unsigned int q)
{
	unsigned char *bql = bqlm_tun_bql(tun, cfg);
	unsigned int i, ids = bqlm_tun_ids(cfg);

	bqlm_netdev_tx_reset_queue(bqlm_tun_txq(tun, cfg, q), BQLM_TUN_NOW);
	for (i = 0; i < ids; i++)
		if (bql[i] == BQLM_TUN_BQL_SENT)
			bql[i] = BQLM_TUN_BQL_STALE;
}

/*
 * tun_net_xmit() under producer_lock, before the produce (@produced false)
 * and after it (@produced true): netdev_tx_sent_queue() where struct
 * bqlm_tun_cfg.bql_sent puts it: before the reader can see the packet,
 * once __ptr_ring_check_produce() found room, or after a successful
 * __ptr_ring_produce().
 */
void bqlm_tun_bql_xmit(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		       const struct bqlm_tun_cpu *x,
		       const struct bqlm_mm_cpu *c, bool produced,
		       struct bqlm_inv_step *ev)
{
	if (produced != bqlm_tun_bql_late(cfg))
		return;
	if (produced ? x->ret :
	    bqlm___ptr_ring_check_produce(&tun->q[x->txq].ring, c))
		return;
	bqlm_tun_bql_sent(tun, cfg, x->txq, x->pkt, ev);
}

/* A consume took @n packets: the reader's next step completes them. */
void bqlm_tun_bql_consumed(struct bqlm_tun_reader *rd,
			   const unsigned int *taken, int n)
{
	int i;

	for (i = 0; i < n; i++)
		rd->got[i] = taken[i];
}

/* The reader's step after its consume, still under consumer_lock. */
void bqlm_tun_bql_read_done(struct bqlm_tun *tun,
			    const struct bqlm_tun_cfg *cfg, unsigned int q,
			    struct bqlm_inv_step *ev)
{
	struct bqlm_tun_reader *rd = &tun->rd[q];

	bqlm_tun_bql_completed(tun, cfg, q, rd->got, rd->nr, ev);
	memset(rd->got, 0, sizeof(rd->got));
}

/*
 * tun_queue_resize() of queue file @q freed the @n entries @destroyed:
 * complete them, or reset the queue, or nothing (struct
 * bqlm_tun_cfg.bql_resize).
 */
void bqlm_tun_bql_resized(struct bqlm_tun *tun,
			  const struct bqlm_tun_cfg *cfg, unsigned int q,
			  const unsigned int *destroyed, int n,
			  struct bqlm_inv_step *ev)
{
	unsigned short freed[BQLM_PTR_RING_MAX];
	int i;

	if (cfg->bql_resize == BQLM_TUN_RESIZE_RESET) {
		bqlm_tun_bql_reset(tun, cfg, q);
		return;
	}
	if (cfg->bql_resize != BQLM_TUN_RESIZE_COMPLETE || n <= 0)
		return;
	for (i = 0; i < n; i++)
		freed[i] = destroyed[i];
	bqlm_tun_bql_completed(tun, cfg, q, freed, n, ev);
}

/*
 * What the invariants check: the one queue's DQL against the packets'
 * books, the bytes reported sent and neither completed nor forgotten by a
 * reset being the ground truth of what is in flight.
 */
void bqlm_tun_bql_counters(const struct bqlm_tun *tun,
			   const struct bqlm_tun_cfg *cfg,
			   struct bqlm_inv_counters *c)
{
	const unsigned char *bql = bqlm_tun_bql(tun, cfg);
	unsigned int i, ids = bqlm_tun_ids(cfg);

	c->dql = &bqlm_tun_txq(tun, cfg, 0)->dql;
	for (i = 0; i < ids; i++)
		if (bql[i] == BQLM_TUN_BQL_SENT)
			c->inflight += cfg->len;
}
