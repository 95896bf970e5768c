/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what model/tun/tun.c (the mirror of drivers/net/tun.c), its BQL
 * design study (model/tun/tun_bql.c) and its explorer adapter
 * (model/tun/tun_xsys.c) share: the layout of the variable-size part of the
 * state, what the configuration's properties imply, the CPUs' views of
 * memory, and the
 * enabling conditions of the actors, which the actors test before their
 * step and the adapter tests to list the enabled actions. Private to the
 * model: not installed.
 */
#ifndef _BQLM_TUN_INTERNAL_H
#define _BQLM_TUN_INTERNAL_H

#include "bqlm_internal.h"
#include <bqlm/tun.h>

/* The ring slots of queue file q, after the fixed variables (<bqlm/tun.h>). */
#define BQLM_TUN_SLOT_VAR(cap, q)	(BQLM_TUN_FIXED_VARS + (q) * (cap))
/* Owners of a store buffer: the producer CPUs, then the readers. */
#define BQLM_TUN_NR_WHO		(BQLM_TUN_MAX_CPUS + BQLM_TUN_MAX_QUEUES)

/* The transmit function, for traces: a NAPI consumer is veth's peer. */
static inline const char *bqlm_tun_xmit_fn(const struct bqlm_tun_cfg *cfg)
{
	return cfg->reader == BQLM_TUN_NAPI ? "veth_xmit" : "tun_net_xmit";
}

/* The study's netdev_tx_sent_queue() comes after the produce. */
static inline bool bqlm_tun_bql_late(const struct bqlm_tun_cfg *cfg)
{
	return cfg->bql && cfg->bql_sent == BQLM_TUN_SENT_AFTER;
}

/* The reader kinds' names, NULL-terminated (model/tun/tun.c). */
extern const char *const bqlm_tun_reader_names[];

/* Ring slots each queue file has in memory: the most a ring ever holds. */
static inline unsigned int bqlm_tun_cap(const struct bqlm_tun_cfg *cfg)
{
	if (cfg->resizes && cfg->resize_to > cfg->ring)
		return cfg->resize_to;
	return cfg->ring;
}

/*
 * Packet ids: 1..cfg->packets with a bound; an unbounded stream recycles
 * 1..twice the slots plus one per CPU. At most every slot and every CPU
 * holds a packet; the other half keeps the search for a free id short
 * when the stack drops at a full ring (see bqlm_tun_new_pkt()).
 */
static inline unsigned int bqlm_tun_ids(const struct bqlm_tun_cfg *cfg)
{
	if (cfg->packets)
		return cfg->packets;
	return 2 * cfg->queues * bqlm_tun_cap(cfg) + cfg->cpus;
}

/* A NAPI consumer's rx_notify_masked of queue q: after every slot. */
static inline unsigned int bqlm_tun_masked_var(const struct bqlm_tun_cfg *cfg,
					       unsigned int q)
{
	return BQLM_TUN_FIXED_VARS + cfg->queues * bqlm_tun_cap(cfg) + q;
}

static inline unsigned int bqlm_tun_nr_vars(const struct bqlm_tun_cfg *cfg)
{
	return BQLM_TUN_FIXED_VARS + cfg->queues * bqlm_tun_cap(cfg) +
	       (bqlm_tun_napi(cfg) ? cfg->queues : 0);
}

static inline size_t bqlm_tun_round_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

/* Byte offsets in the state: the slots' shadows, per packet where[]. */
static inline size_t bqlm_tun_shadow_off(const struct bqlm_tun_cfg *cfg)
{
	return offsetof(struct bqlm_tun, mem) +
	       bqlm_tun_nr_vars(cfg) * sizeof(unsigned short);
}

static inline size_t bqlm_tun_where_off(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_shadow_off(cfg) +
	       cfg->queues * bqlm_tun_cap(cfg) * sizeof(unsigned short);
}

/* The BQL study: bql[] after where[], then the aligned BQL queues. */
static inline size_t bqlm_tun_txq_off(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_round_up(bqlm_tun_where_off(cfg) +
				 2 * bqlm_tun_ids(cfg),
				 __alignof__(struct bqlm_txq));
}

/*
 * The variable-size parts of @tun. A const state is only read through
 * what these return.
 */
static inline unsigned short *bqlm_tun_shadow(const struct bqlm_tun *tun,
					      const struct bqlm_tun_cfg *cfg,
					      unsigned int q)
{
	return (unsigned short *)((char *)tun + bqlm_tun_shadow_off(cfg)) +
	       q * bqlm_tun_cap(cfg);
}

static inline unsigned char *bqlm_tun_where(const struct bqlm_tun *tun,
					    const struct bqlm_tun_cfg *cfg)
{
	return (unsigned char *)tun + bqlm_tun_where_off(cfg);
}

static inline unsigned char *bqlm_tun_bql(const struct bqlm_tun *tun,
					  const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_where(tun, cfg) + bqlm_tun_ids(cfg);
}

static inline struct bqlm_txq *bqlm_tun_txq(const struct bqlm_tun *tun,
					    const struct bqlm_tun_cfg *cfg,
					    unsigned int q)
{
	return (struct bqlm_txq *)((char *)tun + bqlm_tun_txq_off(cfg)) + q;
}

/* The BQL study's STACK_XOFF of txq @q: the stop of the study. */
static inline bool bqlm_tun_bql_stopped(const struct bqlm_tun *tun,
					const struct bqlm_tun_cfg *cfg,
					unsigned int q)
{
	return bqlm_netif_xmit_stopped(bqlm_tun_txq(tun, cfg, q));
}

static inline void bqlm_tun_view(struct bqlm_tun *tun,
				 const struct bqlm_tun_cfg *cfg,
				 struct bqlm_sb *sb, struct bqlm_mm_cpu *c)
{
	c->kind = cfg->mm;
	c->mem = tun->mem;
	c->sb = sb;
}

/* The txq the stack picks for @cpu (netdev_cap_txqueue() on detach). */
static inline unsigned int bqlm_tun_txq_of(const struct bqlm_tun *tun,
					   const struct bqlm_tun_cfg *cfg,
					   unsigned int cpu)
{
	unsigned int txq = cpu % cfg->queues;

	return txq < tun->numqueues ? txq : 0;
}

/* Does the CPU with buffer @sb see the lock in word @var free? */
static inline bool bqlm_tun_sees_free(const struct bqlm_tun *tun,
				      const struct bqlm_tun_cfg *cfg,
				      const struct bqlm_sb *sb,
				      unsigned int var)
{
	struct bqlm_mm_cpu c;

	c.kind = cfg->mm;
	c.mem = (unsigned short *)tun->mem;
	c.sb = (struct bqlm_sb *)sb;
	return bqlm_mm_lock_free(&c, var);
}

static inline bool bqlm_tun_can_xmit(const struct bqlm_tun *tun,
				     const struct bqlm_tun_cfg *cfg,
				     unsigned int cpu)
{
	const struct bqlm_tun_cpu *x = &tun->cpu[cpu];
	struct bqlm_mm_cpu c;
	unsigned int txq;

	if (cpu >= cfg->cpus)
		return false;
	switch (x->phase) {
	case BQLM_TUN_X_IDLE:
	case BQLM_TUN_X_REQUEUED:
		if (x->phase == BQLM_TUN_X_IDLE && cfg->packets &&
		    tun->sent >= cfg->packets)
			return false;
		if (!cfg->qdisc)	/* noqueue drops on a stopped queue */
			return true;
		txq = x->phase == BQLM_TUN_X_IDLE ?
		      bqlm_tun_txq_of(tun, cfg, cpu) : x->txq;
		if (bqlm_tun_bql_on(cfg) &&
		    bqlm_tun_bql_stopped(tun, cfg, txq))
			return false;
		c.kind = cfg->mm;
		c.mem = (unsigned short *)tun->mem;
		c.sb = (struct bqlm_sb *)&x->sb;
		return !(bqlm_mm_load(&c, BQLM_TUN_STATE_VAR(txq)) &
			 (BQLM_TUN_XOFF | BQLM_TUN_STACK_XOFF));
	case BQLM_TUN_X_START:
		if (x->txq >= tun->numqueues)
			return true;	/* no tfile: drop */
		return bqlm_tun_sees_free(tun, cfg, &x->sb,
					  BQLM_TUN_PLOCK_VAR(x->txq));
	case BQLM_TUN_X_PRODUCED:
		if (!bqlm_tun_section(cfg))	/* ptr_ring_full() locks */
			return bqlm_tun_sees_free(tun, cfg, &x->sb,
						  BQLM_TUN_PLOCK_VAR(x->txq));
		return true;
	default:
		return true;
	}
}

static inline bool bqlm_tun_can_read(const struct bqlm_tun *tun,
				     const struct bqlm_tun_cfg *cfg,
				     unsigned int q)
{
	const struct bqlm_tun_reader *rd = &tun->rd[q];

	if (q >= cfg->queues)
		return false;
	if (rd->phase != BQLM_TUN_R_IDLE)
		return true;
	if (bqlm_tun_napi(cfg))	/* a poll, once scheduled; no lock */
		return !rd->sleeping;
	return !rd->sleeping &&
	       bqlm_tun_sees_free(tun, cfg, &rd->sb, BQLM_TUN_CLOCK_VAR(q));
}

static inline struct bqlm_sb *bqlm_tun_sb(struct bqlm_tun *tun,
					  unsigned int who)
{
	if (who < BQLM_TUN_MAX_CPUS)
		return &tun->cpu[who].sb;
	return &tun->rd[who - BQLM_TUN_MAX_CPUS].sb;
}

static inline bool bqlm_tun_locks_free(const struct bqlm_tun *tun,
				       unsigned int q)
{
	/* the administrator is sequentially consistent: memory decides */
	return !tun->mem[BQLM_TUN_PLOCK_VAR(q)] &&
	       !tun->mem[BQLM_TUN_CLOCK_VAR(q)];
}

static inline bool bqlm_tun_can_detach(const struct bqlm_tun *tun,
				       const struct bqlm_tun_cfg *cfg)
{
	unsigned int q, i;

	if (!tun->detaching)
		return tun->detaches_left && tun->numqueues;
	q = tun->detaching - 1;
	/* synchronize_net() waits for every transmit (not the qdisc's) */
	for (i = 0; i < cfg->cpus; i++)
		if (tun->cpu[i].phase != BQLM_TUN_X_IDLE &&
		    tun->cpu[i].phase != BQLM_TUN_X_REQUEUED)
			return false;
	return bqlm_tun_locks_free(tun, q);
}

static inline bool bqlm_tun_can_attach(const struct bqlm_tun *tun,
				       const struct bqlm_tun_cfg *cfg)
{
	if (tun->detaching || tun->numqueues >= cfg->queues)
		return false;
	return !bqlm_tun_attach_locks(cfg) ||
	       bqlm_tun_locks_free(tun, tun->numqueues);
}

static inline bool bqlm_tun_all_locks_free(const struct bqlm_tun *tun,
					   const struct bqlm_tun_cfg *cfg)
{
	unsigned int q;

	for (q = 0; q < cfg->queues; q++)
		if (!bqlm_tun_locks_free(tun, q))
			return false;
	return true;
}

static inline bool bqlm_tun_can_set_iff(const struct bqlm_tun *tun,
					const struct bqlm_tun_cfg *cfg)
{
	if (!tun->set_iffs_left || tun->detaching)
		return false;
	return !(cfg->force_wake & BQLM_TUN_FORCE_SET_IFF) ||
	       bqlm_tun_all_locks_free(tun, cfg);
}

static inline bool bqlm_tun_can_resize(const struct bqlm_tun *tun,
				       const struct bqlm_tun_cfg *cfg)
{
	return tun->resizes_left && !tun->detaching &&
	       bqlm_tun_all_locks_free(tun, cfg);
}

/*
 * The BQL design study (model/tun/tun_bql.c), called by model/tun/tun.c at the
 * places the study puts its calls, when it is on (bqlm_tun_bql_on()).
 */
int bqlm_tun_bql_cfg_check(const struct bqlm_tun_cfg *cfg);
size_t bqlm_tun_bql_state_size(const struct bqlm_tun_cfg *cfg);
void bqlm_tun_bql_init(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg);
void bqlm_tun_bql_xmit(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		       const struct bqlm_tun_cpu *x,
		       const struct bqlm_mm_cpu *c, bool produced,
		       struct bqlm_inv_step *ev);
void bqlm_tun_bql_consumed(struct bqlm_tun_reader *rd,
			   const unsigned int *taken, int n);
void bqlm_tun_bql_read_done(struct bqlm_tun *tun,
			    const struct bqlm_tun_cfg *cfg, unsigned int q,
			    struct bqlm_inv_step *ev);
void bqlm_tun_bql_reset(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
			unsigned int q);
void bqlm_tun_bql_resized(struct bqlm_tun *tun,
			  const struct bqlm_tun_cfg *cfg, unsigned int q,
			  const unsigned int *destroyed, int n,
			  struct bqlm_inv_step *ev);
void bqlm_tun_bql_counters(const struct bqlm_tun *tun,
			   const struct bqlm_tun_cfg *cfg,
			   struct bqlm_inv_counters *c);

#endif /* _BQLM_TUN_INTERNAL_H */
