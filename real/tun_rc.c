// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real tun.c under the model's schedules.
 *
 * A tun device of the tree's drivers/net/tun.c (one copy per variant,
 * real/tun_*.c), made in the kernel as TUNSETIFF makes it: one struct file
 * per queue file, tun_chr_open(), tun_set_iff() (IFF_TAP, IFF_NO_PI,
 * IFF_MULTI_QUEUE and, for the variants that know it, IFF_BACKPRESSURE),
 * its tx_queue_len set as the model's ring through tun_queue_resize()'s
 * path (ptr_ring_resize_multiple_bh()). The device is not opened: the
 * stack is the harness (below), so nothing else transmits on it.
 *
 * Actors (struct bqlm_rc threads), one per model actor:
 *  - cpu0, cpu1: the stack of a producer CPU. From idle, the model's first
 *    step: inside the stack's RCU section, the queue check (a qdisc never
 *    hands a packet to a stopped queue; noqueue drops it), the packet with
 *    skb->queue_mapping as netdev_cap_txqueue() picks it; then the real
 *    tun_net_xmit();
 *  - rd0, rd1: the reader of each queue file: tun_chr_read_iter() into a
 *    kernel buffer, blocking;
 *  - admin: TUNSETQUEUE detach and attach through tun_set_queue(), and a
 *    tx_queue_len change: dev->tx_queue_len, then tun_queue_resize() as
 *    the NETDEV_CHANGE_TX_QUEUE_LEN notifier calls it.
 * The yields (real/tun_glue.h) are where the variant's model steps end:
 *  - stop-2019: after ptr_ring_produce(), after a ptr_ring_full() that
 *    found the ring full;
 *  - backpressure variants: after __ptr_ring_produce(), after
 *    netif_tx_stop_queue(), before the producer_lock is released; in the
 *    reader, after a __ptr_ring_consume() that took an entry and before
 *    its consumer_lock is released;
 *  - every variant: tun_ring_recv()'s schedule() (a reader that sleeps
 *    until the wait queue entry tun_ring_recv() added is woken), and
 *    __tun_detach()'s synchronize_net() (until no actor is inside an RCU
 *    read-side section: the stack's, or tun_net_xmit()'s).
 *
 * A yield may carry a condition: the lock the next stretch takes first
 * (the model's step is enabled only when it is free) or the wake-up.
 *
 * The packets are skbs made by the harness, one per packet id, with an
 * extra reference each: tun.c frees its reference, the memory stays, so a
 * ring slot's pointer always names one packet. Where each packet is, how
 * many were read and dropped and why, are the real code's events as the
 * hooks see them: a produce that returned 0, a consume that returned the
 * skb, kfree_skb_reason() with its reason, tun_queue_purge()'s consumes.
 *
 * bqlm_rtun_view() reads all of it, and the ring indices, slots, locks,
 * cons_cnt and txq state bits, into a struct bqlm_tun; the lockstep
 * compares it with the model's state byte for byte after every step.
 *
 * Kernel only. See docs/real-code.md.
 */
#include <linux/etherdevice.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/if_tun.h>
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/rtnetlink.h>
#include <linux/skb_array.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/unaligned.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <net/sock.h>

#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/prng.h>
#include <bqlm/tun.h>

#include "rc.h"
#include "tun_rc.h"
#include "tun_real.h"

#define RT_ACTION(k, a)		(((k) << 8) | (a))
#define RT_KIND(a)		((a) >> 8)
#define RT_ARG(a)		((a) & 0xff)

/* the flag of the backpressure patches (not in this tree's uapi header) */
#define RT_IFF_BACKPRESSURE	0x0080
#define RT_PKT_LEN		ETH_ZLEN
#define RT_BUF			128

enum {
	RT_CPU0,
	RT_CPU1,
	RT_RD0,
	RT_RD1,
	RT_ADMIN,
	RT_NR_ACTORS
};

static const char *const bqlm_rtun_names[RT_NR_ACTORS] = {
	"cpu0", "cpu1", "rd0", "rd1", "admin",
};

/* yield points */
static const char Y_STACK[] = "stack: netif_xmit_stopped() = false -> tun_net_xmit()";
static const char Y_PRODUCED[] = "tun_net_xmit: after ptr_ring_produce()";
static const char Y_FULL[] = "tun_net_xmit: ptr_ring_full() = true";
static const char Y_BP_PRODUCED[] = "tun_net_xmit: after __ptr_ring_produce()";
static const char Y_BP_STOPPED[] = "tun_net_xmit: after netif_tx_stop_queue()";
static const char Y_BP_UNLOCK[] = "tun_net_xmit: spin_unlock(&tfile->tx_ring.producer_lock)";
static const char Y_CONSUMED[] = "tun_ring_recv: after ptr_ring_consume()";
static const char Y_BP_CONSUMED[] = "tun_ring_consume: after __ptr_ring_consume()";
static const char Y_BP_CUNLOCK[] = "tun_ring_consume: spin_unlock(&tfile->tx_ring.consumer_lock)";
static const char Y_SLEEP[] = "tun_ring_recv: schedule()";
static const char Y_SYNC[] = "__tun_detach: synchronize_net()";

/**
 * struct bqlm_rtun_cpu - what the harness knows of a producer CPU
 * @pkt: the packet it transmits, 0 while idle
 * @txq: its queue
 * @ret: the produce failed
 * @raced: BQLM_TUN_RACED_*, as the model keeps it
 * @phase: enum bqlm_tun_xmit_phase, from the yield point it is parked at
 */
struct bqlm_rtun_cpu {
	unsigned int pkt;
	unsigned int txq;
	unsigned int ret;
	unsigned int raced;
	unsigned int phase;
};

/**
 * struct bqlm_rtun_rd - what the harness knows of a reader
 * @woken: that entry was woken since the reader last slept
 * @sleeping: parked in schedule()
 * @phase: enum bqlm_tun_read_phase, from the yield point
 * @nr: entries taken by the consume in progress (backpressure)
 * @pkt: the packet the read in progress consumed, 0 if none
 * @buf: what the read copied out
 */
struct bqlm_rtun_rd {
	bool woken;
	bool sleeping;
	unsigned int phase;
	unsigned int nr;
	unsigned int pkt;
	u8 buf[RT_BUF];
};

/**
 * struct bqlm_rtun - the harness
 * @rc: the scheduler and actors
 * @cfg: the model's configuration
 * @ops: the variant
 * @dev: the tun device
 * @file: the struct file of each queue file
 * @tfile: its struct tun_file
 * @ring: its tx_ring
 * @plock: the harness's producer_lock of each ring
 * @clock: the harness's consumer_lock of each ring
 * @qdisc: the test qdisc of each txq
 * @skb: the skb of each packet id
 * @where: enum bqlm_tun_where of each packet id
 * @pkt_q: the queue file each packet was produced into
 * @shadow: the packet each slot was last produced with
 * @woke_full: the queue was woken by force with its ring full
 * @sent: packets handed to tun_net_xmit() or dropped by the stack
 * @delivered: packets consumed by a reader
 * @drops: by enum bqlm_tun_drop
 * @cpu: the producer CPUs
 * @rd: the readers
 * @rcu: RCU read-side nesting of each actor
 * @admin_q: the queue file the administrator works on
 * @detached_q: the queue file detached + 1, 0 if none
 * @detaches_left: detach cycles left
 * @resizes_left: tx_queue_len changes left
 * @ev: what the current step did to packets
 */
struct bqlm_rtun {
	struct bqlm_rc rc;
	struct bqlm_tun_cfg cfg;
	const struct bqlm_rtun_ops *ops;
	struct net_device *dev;
	struct file *file[BQLM_TUN_MAX_QUEUES];
	struct tun_file *tfile[BQLM_TUN_MAX_QUEUES];
	struct ptr_ring *ring[BQLM_TUN_MAX_QUEUES];
	struct bqlm_rc_lock plock[BQLM_TUN_MAX_QUEUES];
	struct bqlm_rc_lock clock[BQLM_TUN_MAX_QUEUES];
	struct Qdisc *qdisc[BQLM_TUN_MAX_QUEUES];
	struct sk_buff *skb[BQLM_TUN_MAX_PACKETS + 1];
	unsigned char where[BQLM_TUN_MAX_PACKETS + 1];
	unsigned char pkt_q[BQLM_TUN_MAX_PACKETS + 1];
	unsigned short shadow[BQLM_TUN_MAX_QUEUES][BQLM_PTR_RING_MAX];
	unsigned char woke_full[BQLM_TUN_MAX_QUEUES];
	unsigned int sent;
	unsigned int delivered;
	unsigned int drops[BQLM_TUN_NR_DROPS];
	struct bqlm_rtun_cpu cpu[BQLM_TUN_MAX_CPUS];
	struct bqlm_rtun_rd rd[BQLM_TUN_MAX_QUEUES];
	unsigned int rcu[RT_NR_ACTORS];
	unsigned int admin_q;
	unsigned int detached_q;
	unsigned int detaches_left;
	unsigned int resizes_left;
	struct bqlm_inv_step ev;
};

/* The harness running now: the hooks of the compiled tun.c find it here. */
static struct bqlm_rtun *bqlm_rtun_cur;

const struct header_ops bqlm_rtun_ip_tunnel_header_ops;

static const struct bqlm_rtun_ops *const bqlm_rtun_variants[] = {
	&bqlm_rtun_stock_ops,
	&bqlm_rtun_stop_2019_ops,
	&bqlm_rtun_bp_ops,
	&bqlm_rtun_bp_nobarrier_ops,
	&bqlm_rtun_bp_no_producer_mb_ops,
	&bqlm_rtun_bp_no_consumer_mb_ops,
	&bqlm_rtun_bp_room_ops,
};

static bool bqlm_rtun_bp(const struct bqlm_rtun *u)
{
	return u->cfg.variant >= BQLM_TUN_BACKPRESSURE &&
	       u->cfg.variant <= BQLM_TUN_BACKPRESSURE_ROOM;
}

static bool bqlm_rtun_2019(const struct bqlm_rtun *u)
{
	return u->cfg.variant == BQLM_TUN_STOP_2019;
}

static unsigned int bqlm_rtun_id(const struct bqlm_rc_actor *a)
{
	return a - a->rc->actor;
}

static struct bqlm_rtun *bqlm_rtun_of(const struct bqlm_rc_actor *a)
{
	return a->rc->priv;
}

/* The actor running the hook, or NULL outside an actor (setup, teardown). */
static struct bqlm_rc_actor *bqlm_rtun_self(struct bqlm_rtun **up)
{
	struct bqlm_rtun *u = bqlm_rtun_cur;

	*up = u;
	return u ? bqlm_rc_self(&u->rc) : NULL;
}

static bool bqlm_rtun_is_cpu(const struct bqlm_rc_actor *a)
{
	return bqlm_rtun_id(a) < RT_RD0;
}

static bool bqlm_rtun_is_reader(const struct bqlm_rc_actor *a)
{
	return bqlm_rtun_id(a) >= RT_RD0 && bqlm_rtun_id(a) < RT_ADMIN;
}

/* What the harness knows of the reader @a is. */
static struct bqlm_rtun_rd *bqlm_rtun_rd_of(struct bqlm_rtun *u,
					    const struct bqlm_rc_actor *a)
{
	return &u->rd[bqlm_rtun_id(a) - RT_RD0];
}

/* Transmits in flight on queue @q but @except get @flag in their raced. */
static void bqlm_rtun_raced(struct bqlm_rtun *u, unsigned int q,
			    const struct bqlm_rtun_cpu *except,
			    unsigned int flag)
{
	unsigned int i;

	for (i = 0; i < u->cfg.cpus; i++)
		if (&u->cpu[i] != except && u->cpu[i].pkt &&
		    u->cpu[i].txq == q)
			u->cpu[i].raced |= flag;
}

/* The queue file of a ring the harness watches, or -1. */
static int bqlm_rtun_q_of_ring(const struct bqlm_rtun *u,
			       const struct ptr_ring *r)
{
	unsigned int q;

	for (q = 0; q < u->cfg.queues; q++)
		if (u->ring[q] == r)
			return q;
	return -1;
}

static unsigned int bqlm_rtun_pkt_of(const struct bqlm_rtun *u,
				     const void *ptr)
{
	unsigned int i;

	if (!ptr)
		return 0;
	for (i = 1; i <= u->cfg.packets; i++)
		if (u->skb[i] == ptr)
			return i;
	return BQLM_TUN_MAX_ID;	/* not a packet of the harness */
}

static struct bqlm_rc_lock *bqlm_rtun_hlock(struct bqlm_rtun *u,
					    const spinlock_t *l)
{
	unsigned int q;

	for (q = 0; q < u->cfg.queues; q++) {
		if (!u->ring[q])
			continue;
		if (l == &u->ring[q]->producer_lock)
			return &u->plock[q];
		if (l == &u->ring[q]->consumer_lock)
			return &u->clock[q];
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The hooks of real/tun_glue.h */

/**
 * bqlm_rtun_lock() - spin_lock() and its kin in the compiled tun.c
 * @l: the lock
 *
 * Return: true if @l is a watched ring's lock taken by an actor: the
 * harness's lock was taken instead (the actor may have waited for it).
 */
bool bqlm_rtun_lock(spinlock_t *l)
{
	struct bqlm_rc_lock *hl;
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	a = bqlm_rtun_self(&u);
	if (!a)
		return false;
	hl = bqlm_rtun_hlock(u, l);
	if (!hl)
		return false;
	/* every step starts only once the locks it takes are free */
	if (hl->owner && hl->owner != a)
		bqlm_rc_fail(&u->rc, -EDEADLK,
			     "%s waits for %s (held by %s) in the middle of a step",
			     a->name, hl->name, hl->owner->name);
	bqlm_rc_lock(a, hl);
	return true;
}

/**
 * bqlm_rtun_unlock() - spin_unlock() and its kin in the compiled tun.c
 * @l: the lock
 *
 * In the backpressure variants a producer yields before it releases its
 * ring's producer_lock, and a reader that took an entry before it
 * releases the consumer_lock: the model's last step of each.
 *
 * Return: true if the harness's lock was released instead of @l.
 */
bool bqlm_rtun_unlock(spinlock_t *l)
{
	struct bqlm_rc_lock *hl;
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;
	unsigned int id;

	a = bqlm_rtun_self(&u);
	if (!a)
		return false;
	hl = bqlm_rtun_hlock(u, l);
	if (!hl)
		return false;
	id = bqlm_rtun_id(a);
	if (bqlm_rtun_bp(u) && bqlm_rtun_is_cpu(a) &&
	    hl == &u->plock[u->cpu[id].txq]) {
		u->cpu[id].phase = BQLM_TUN_X_UNLOCK;
		bqlm_rc_yield(a, Y_BP_UNLOCK, NULL);
	} else if (bqlm_rtun_bp(u) && bqlm_rtun_is_reader(a) &&
		   bqlm_rtun_rd_of(u, a)->phase == BQLM_TUN_R_WAKE) {
		bqlm_rtun_rd_of(u, a)->phase = BQLM_TUN_R_UNLOCK;
		bqlm_rtun_rd_of(u, a)->nr = 0;
		bqlm_rc_yield(a, Y_BP_CUNLOCK, NULL);
	}
	bqlm_rc_unlock(a, hl);
	return true;
}

/* A producer's next stretch takes its ring's producer_lock: is it free? */
static bool bqlm_rtun_plock_free(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	struct bqlm_rtun_cpu *x = &u->cpu[bqlm_rtun_id(a)];
	struct bqlm_rc_lock *l = &u->plock[x->txq];

	return !l->owner || l->owner == a;
}

/* The stack hands the packet over: is tun->tfiles[txq] there, unlocked? */
static bool bqlm_rtun_xmit_ready(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	struct bqlm_rtun_cpu *x = &u->cpu[bqlm_rtun_id(a)];

	if (!u->ops->tfile_of(u->dev, x->txq))
		return true;	/* tun_net_xmit() drops it */
	return bqlm_rtun_plock_free(a);
}

/**
 * bqlm_rtun_produced() - after ptr_ring_produce() / __ptr_ring_produce()
 * @r: the ring
 * @ptr: the entry
 * @ret: what the produce returned
 *
 * Return: @ret.
 */
int bqlm_rtun_produced(struct ptr_ring *r, void *ptr, int ret)
{
	struct bqlm_rtun_cpu *x;
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;
	unsigned int pkt;
	int q;

	a = bqlm_rtun_self(&u);
	if (!a)
		return ret;
	if (!bqlm_rtun_is_cpu(a)) {
		bqlm_rc_fail(&u->rc, -EINVAL, "%s produces into a ring",
			     a->name);
		return ret;
	}
	q = bqlm_rtun_q_of_ring(u, r);
	x = &u->cpu[bqlm_rtun_id(a)];
	pkt = bqlm_rtun_pkt_of(u, ptr);
	if (q < 0 || pkt != x->pkt) {
		bqlm_rc_fail(&u->rc, -EINVAL,
			     "%s produced %p (pkt %u) into an unknown ring",
			     a->name, ptr, pkt);
		return ret;
	}
	x->ret = !!ret;
	if (!ret) {
		unsigned int slot = r->producer ? r->producer - 1 : r->size - 1;

		u->shadow[q][slot] = pkt;
		u->where[pkt] = BQLM_TUN_PKT_RING;
		u->pkt_q[pkt] = q;
		bqlm_rtun_raced(u, q, x, BQLM_TUN_RACED_CPU);
	} else if (u->woke_full[q]) {
		x->raced |= BQLM_TUN_RACED_RECONFIG;
	}
	if (bqlm_rtun_2019(u)) {
		if (ret) {
			x->phase = BQLM_TUN_X_STOP;
			bqlm_rc_yield(a, Y_PRODUCED, NULL);
		} else {
			x->phase = BQLM_TUN_X_PRODUCED;
			bqlm_rc_yield(a, Y_PRODUCED, bqlm_rtun_plock_free);
		}
	} else if (bqlm_rtun_bp(u)) {
		x->phase = BQLM_TUN_X_PRODUCED;
		bqlm_rc_yield(a, Y_BP_PRODUCED, NULL);
	}
	return ret;
}

/**
 * bqlm_rtun_full() - after ptr_ring_full()
 * @r: the ring
 * @full: what it returned
 *
 * Return: @full.
 */
bool bqlm_rtun_full(struct ptr_ring *r, bool full)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	a = bqlm_rtun_self(&u);
	if (a && full && bqlm_rtun_is_cpu(a) && bqlm_rtun_2019(u)) {
		u->cpu[bqlm_rtun_id(a)].phase = BQLM_TUN_X_STOP;
		bqlm_rc_yield(a, Y_FULL, NULL);
	}
	return full;
}

/**
 * bqlm_rtun_tx_stop_queue() - netif_tx_stop_queue() in the compiled tun.c
 * @txq: the queue
 */
void bqlm_rtun_tx_stop_queue(struct netdev_queue *txq)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	netif_tx_stop_queue(txq);
	a = bqlm_rtun_self(&u);
	if (!a || !bqlm_rtun_is_cpu(a) || !bqlm_rtun_bp(u))
		return;
	u->woke_full[u->cpu[bqlm_rtun_id(a)].txq] = 0;
	u->cpu[bqlm_rtun_id(a)].phase = BQLM_TUN_X_STOP;
	bqlm_rc_yield(a, Y_BP_STOPPED, NULL);
}

/**
 * bqlm_rtun_consumed() - after ptr_ring_consume() / __ptr_ring_consume()
 * @r: the ring
 * @ptr: what it returned
 *
 * A reader's consume delivers the packet (the model counts it there); the
 * administrator's is tun_queue_purge() on detach.
 *
 * Return: @ptr.
 */
void *bqlm_rtun_consumed(struct ptr_ring *r, void *ptr)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;
	unsigned int pkt;
	int q;

	a = bqlm_rtun_self(&u);
	if (!a || !ptr)
		return ptr;
	q = bqlm_rtun_q_of_ring(u, r);
	pkt = bqlm_rtun_pkt_of(u, ptr);
	if (q < 0 || pkt > u->cfg.packets) {
		u->ev.unsent_skbs++;
		return ptr;
	}
	if (bqlm_rtun_id(a) == RT_ADMIN) {
		if (u->where[pkt] != BQLM_TUN_PKT_RING)
			u->ev.twice++;
		u->where[pkt] = BQLM_TUN_PKT_DROPPED;
		u->drops[BQLM_TUN_DROP_PURGED]++;
		return ptr;
	}
	if (!bqlm_rtun_is_reader(a)) {
		bqlm_rc_fail(&u->rc, -EINVAL, "%s consumes pkt %u", a->name,
			     pkt);
		return ptr;
	}
	if (u->where[pkt] == BQLM_TUN_PKT_READ)
		u->ev.twice++;
	else if (u->where[pkt] != BQLM_TUN_PKT_RING)
		u->ev.unsent_skbs++;
	u->where[pkt] = BQLM_TUN_PKT_READ;
	u->delivered++;
	u->rd[q].pkt = pkt;
	if (bqlm_rtun_2019(u)) {
		u->rd[q].phase = BQLM_TUN_R_PUT;
		bqlm_rc_yield(a, Y_CONSUMED, NULL);
	} else if (bqlm_rtun_bp(u)) {
		u->rd[q].phase = BQLM_TUN_R_WAKE;
		u->rd[q].nr = 1;
		bqlm_rc_yield(a, Y_BP_CONSUMED, NULL);
	}
	return ptr;
}

/**
 * bqlm_rtun_kfree_skb_reason() - tun.c drops a packet
 * @skb: the packet
 * @reason: why
 *
 * The model's kinds of drop: SKB_DROP_REASON_DEV_READY is "detached", a
 * full ring is a tail drop, or, with backpressure in force, told apart as
 * the model does (another CPU produced meanwhile, a forced wake of a full
 * ring, or neither: a drop backpressure should have prevented).
 */
void bqlm_rtun_kfree_skb_reason(struct sk_buff *skb,
				enum skb_drop_reason reason)
{
	struct bqlm_rtun_cpu *x;
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;
	unsigned int pkt;

	a = bqlm_rtun_self(&u);
	if (a && bqlm_rtun_is_cpu(a)) {
		x = &u->cpu[bqlm_rtun_id(a)];
		pkt = bqlm_rtun_pkt_of(u, skb);
		if (pkt != x->pkt) {
			bqlm_rc_fail(&u->rc, -EINVAL, "%s drops pkt %u, holds %u",
				     a->name, pkt, x->pkt);
		} else if (reason == SKB_DROP_REASON_DEV_READY) {
			u->drops[BQLM_TUN_DROP_DETACHED]++;
			u->where[pkt] = BQLM_TUN_PKT_DROPPED;
		} else if (reason == SKB_DROP_REASON_FULL_RING) {
			enum bqlm_tun_drop why = BQLM_TUN_DROP_FULL;

			if (bqlm_rtun_bp(u) && u->cfg.qdisc &&
			    (u->ops->flags(u->dev) & RT_IFF_BACKPRESSURE)) {
				if (x->raced & BQLM_TUN_RACED_CPU) {
					why = BQLM_TUN_DROP_RACE;
				} else if (x->raced & BQLM_TUN_RACED_RECONFIG) {
					why = BQLM_TUN_DROP_WOKE_FULL;
				} else {
					why = BQLM_TUN_DROP_BP;
					u->ev.bp_drops++;
				}
			}
			u->drops[why]++;
			u->where[pkt] = BQLM_TUN_PKT_DROPPED;
		} else {
			bqlm_rc_fail(&u->rc, -EINVAL,
				     "%s: tun.c drops pkt %u for reason %d",
				     a->name, pkt, reason);
		}
	}
	kfree_skb_reason(skb, reason);
}

static int bqlm_rtun_wake_fn(struct wait_queue_entry *wq_entry,
			     unsigned int mode, int flags, void *key)
{
	struct bqlm_rtun_rd *rd = wq_entry->private;

	rd->woken = true;
	return 1;
}

/**
 * bqlm_rtun_add_wait_queue() - tun_ring_recv() is about to sleep
 * @wq_head: the queue file's socket wait queue
 * @wq_entry: the reader's entry
 *
 * A reader's entry is woken into the harness (the reader is a harness
 * thread parked at a yield, not a task to wake).
 */
void bqlm_rtun_add_wait_queue(struct wait_queue_head *wq_head,
			      struct wait_queue_entry *wq_entry)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	a = bqlm_rtun_self(&u);
	if (a && bqlm_rtun_is_reader(a)) {
		struct bqlm_rtun_rd *rd = bqlm_rtun_rd_of(u, a);

		rd->woken = false;
		wq_entry->private = rd;
		wq_entry->func = bqlm_rtun_wake_fn;
	}
	add_wait_queue(wq_head, wq_entry);
}

static bool bqlm_rtun_woken(struct bqlm_rc_actor *a)
{
	return bqlm_rtun_rd_of(bqlm_rtun_of(a), a)->woken;
}

/**
 * bqlm_rtun_schedule() - tun_ring_recv() sleeps
 *
 * The reader parks until its wait queue entry is woken (the producer's
 * sk_data_ready(), or a shutdown).
 */
void bqlm_rtun_schedule(void)
{
	struct bqlm_rtun_rd *rd;
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	a = bqlm_rtun_self(&u);
	if (!a || !bqlm_rtun_is_reader(a)) {
		schedule();
		return;
	}
	rd = bqlm_rtun_rd_of(u, a);
	__set_current_state(TASK_RUNNING);
	if (!rd->woken) {
		rd->sleeping = true;
		bqlm_rc_yield(a, Y_SLEEP, bqlm_rtun_woken);
		rd->sleeping = false;
	}
	rd->woken = false;
}

/* synchronize_net(): no other actor in an RCU section, the ring unlocked */
static bool bqlm_rtun_quiet(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int i, q = u->admin_q;

	for (i = 0; i < RT_NR_ACTORS; i++)
		if (i != RT_ADMIN && u->rcu[i])
			return false;
	/* what __tun_detach() takes next: tun_queue_purge()'s consumer_lock */
	return !u->plock[q].owner && !u->clock[q].owner;
}

/**
 * bqlm_rtun_synchronize_net() - synchronize_net() in the compiled tun.c
 *
 * The administrator parks until no other actor is inside an RCU read-side
 * section; outside an actor, the kernel's synchronize_net().
 */
void bqlm_rtun_synchronize_net(void)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	a = bqlm_rtun_self(&u);
	if (!a) {
		synchronize_net();
		return;
	}
	if (bqlm_rtun_id(a) == RT_ADMIN)
		bqlm_rc_yield(a, Y_SYNC, bqlm_rtun_quiet);
	else
		bqlm_rc_fail(&u->rc, -EINVAL, "%s calls synchronize_net()",
			     a->name);
}

/**
 * bqlm_rtun_rcu_read_lock() - rcu_read_lock() in the compiled tun.c
 *
 * An actor's section is counted by the harness (it may yield inside);
 * outside an actor, the kernel's.
 */
void bqlm_rtun_rcu_read_lock(void)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	a = bqlm_rtun_self(&u);
	if (a)
		u->rcu[bqlm_rtun_id(a)]++;
	else
		rcu_read_lock();
}

/**
 * bqlm_rtun_rcu_read_unlock() - rcu_read_unlock() in the compiled tun.c
 */
void bqlm_rtun_rcu_read_unlock(void)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rtun *u;

	a = bqlm_rtun_self(&u);
	if (!a) {
		rcu_read_unlock();
		return;
	}
	if (!u->rcu[bqlm_rtun_id(a)])
		bqlm_rc_fail(&u->rc, -EINVAL, "%s: unbalanced rcu_read_unlock()",
			     a->name);
	else
		u->rcu[bqlm_rtun_id(a)]--;
}

/* ------------------------------------------------------------------ */
/* The actors' work */

/* The slots a ring keeps with a resize allowed: the model's cap. */
static unsigned int bqlm_rtun_cap(const struct bqlm_tun_cfg *cfg)
{
	if (cfg->resizes && cfg->resize_to > cfg->ring)
		return cfg->resize_to;
	return cfg->ring;
}

/* netdev_cap_txqueue() of the queue the model's CPU sends on */
static unsigned int bqlm_rtun_txq_of(const struct bqlm_rtun *u,
				     unsigned int cpu)
{
	unsigned int txq = cpu % u->cfg.queues;

	return txq < u->ops->numqueues(u->dev) ? txq : 0;
}

static bool bqlm_rtun_stopped(const struct bqlm_rtun *u, unsigned int txq)
{
	return netif_xmit_stopped(netdev_get_tx_queue(u->dev, txq));
}

static void bqlm_rtun_cpu_idle(struct bqlm_rtun_cpu *x)
{
	memset(x, 0, sizeof(*x));
	x->phase = BQLM_TUN_X_IDLE;
}

/* The stack of a producer CPU, then tun_net_xmit(). */
static void bqlm_rtun_do_xmit(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int id = bqlm_rtun_id(a), i;
	struct bqlm_rtun_cpu *x = &u->cpu[id];
	unsigned int pkt = ++u->sent;
	struct sk_buff *skb = u->skb[pkt];

	x->txq = bqlm_rtun_txq_of(u, id);
	if (!u->cfg.qdisc && bqlm_rtun_stopped(u, x->txq)) {
		/* __dev_queue_xmit() of noqueue on a stopped queue */
		kfree_skb(skb);
		u->where[pkt] = BQLM_TUN_PKT_DROPPED;
		u->drops[BQLM_TUN_DROP_NOQUEUE]++;
		bqlm_rtun_cpu_idle(x);
		return;
	}
	u->rcu[id]++;		/* the stack's rcu_read_lock_bh() */
	x->pkt = pkt;
	x->ret = 0;
	x->raced = 0;
	for (i = 0; i < u->cfg.cpus; i++)
		if (i != id && u->cpu[i].pkt && u->cpu[i].txq == x->txq)
			x->raced |= BQLM_TUN_RACED_CPU;	/* may fill it first */
	if (u->woke_full[x->txq])
		x->raced |= BQLM_TUN_RACED_RECONFIG;
	u->where[pkt] = BQLM_TUN_PKT_XMIT;
	x->phase = BQLM_TUN_X_START;
	bqlm_rc_yield(a, Y_STACK, bqlm_rtun_xmit_ready);

	skb_set_queue_mapping(skb, x->txq);
	u->ops->start_xmit(skb, u->dev);
	u->rcu[id]--;
	bqlm_rtun_cpu_idle(x);
}

/* read() on the queue file, blocking: tun_chr_read_iter(). */
static void bqlm_rtun_do_read(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int q = bqlm_rtun_id(a) - RT_RD0;
	struct bqlm_rtun_rd *rd = &u->rd[q];
	struct kvec kv = { .iov_base = rd->buf, .iov_len = sizeof(rd->buf) };
	struct iov_iter to;
	struct kiocb iocb;
	ssize_t ret;

	rd->pkt = 0;
	memset(rd->buf, 0, sizeof(rd->buf));
	iov_iter_kvec(&to, ITER_DEST, &kv, 1, sizeof(rd->buf));
	init_sync_kiocb(&iocb, u->file[q]);
	ret = u->ops->read(&iocb, &to);
	if (ret > 0) {
		/* the bytes read are the packet consumed */
		if (ret != RT_PKT_LEN ||
		    get_unaligned_be16(rd->buf + ETH_HLEN) != rd->pkt)
			bqlm_rc_fail(&u->rc, -EIO,
				     "rd%u read %zd bytes of pkt %u, consumed pkt %u",
				     q, ret, get_unaligned_be16(rd->buf + ETH_HLEN),
				     rd->pkt);
	} else if (ret != -EFAULT) {
		/* only the teardown's shutdown ends a read without data */
		bqlm_rc_fail(&u->rc, -EIO, "rd%u: read returned %zd", q, ret);
	}
	rd->phase = BQLM_TUN_R_IDLE;
	rd->nr = 0;
}

static void bqlm_rtun_do_detach(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	struct ifreq ifr = { .ifr_flags = IFF_DETACH_QUEUE };
	int ret;

	ret = u->ops->set_queue(u->file[u->admin_q], &ifr);
	if (ret)
		bqlm_rc_fail(&u->rc, ret, "TUNSETQUEUE detach of q%u: %d",
			     u->admin_q, ret);
	u->detached_q = u->admin_q + 1;
	u->detaches_left--;
}

static void bqlm_rtun_do_attach(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	struct ifreq ifr = { .ifr_flags = IFF_ATTACH_QUEUE };
	unsigned int q = u->admin_q;
	int ret;

	ret = u->ops->set_queue(u->file[q], &ifr);
	if (ret)
		bqlm_rc_fail(&u->rc, ret, "TUNSETQUEUE attach of q%u: %d", q,
			     ret);
	u->detached_q = 0;
	if (!bqlm_rtun_bp(u))
		return;
	/* tun_force_wake_queue() ran under both ring locks */
	u->woke_full[q] = __ptr_ring_full(u->ring[q]);
	bqlm_rtun_raced(u, q, NULL, BQLM_TUN_RACED_RECONFIG);
	if (bqlm_rtun_stopped(u, q) || u->ops->cons_cnt(u->tfile[q]))
		u->ev.reconfig_stopped++;
}

/*
 * A tx_queue_len change: tun_queue_resize() re-sizes every queue file's
 * ring (ptr_ring_resize_multiple_bh(): the entries that do not fit are
 * freed) and, with backpressure, wakes every attached queue by force.
 */
static void bqlm_rtun_do_resize(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int q, i, pkt, cap = bqlm_rtun_cap(&u->cfg);
	int ret;

	rtnl_lock();
	u->dev->tx_queue_len = u->cfg.resize_to;
	ret = u->ops->queue_resize(u->dev);
	rtnl_unlock();
	if (ret)
		bqlm_rc_fail(&u->rc, ret, "tun_queue_resize() to %u: %d",
			     u->cfg.resize_to, ret);
	u->resizes_left--;
	for (q = 0; q < u->cfg.queues; q++) {
		const struct ptr_ring *r = u->ring[q];

		bqlm_rtun_raced(u, q, NULL, BQLM_TUN_RACED_RECONFIG);
		/* what the swap did not keep, it freed */
		for (pkt = 1; pkt <= u->cfg.packets; pkt++) {
			bool kept = false;

			if (u->where[pkt] != BQLM_TUN_PKT_RING ||
			    u->pkt_q[pkt] != q)
				continue;
			for (i = 0; i < r->size; i++)
				kept |= r->queue[i] == u->skb[pkt];
			if (!kept) {
				u->where[pkt] = BQLM_TUN_PKT_DROPPED;
				u->drops[BQLM_TUN_DROP_RESIZED]++;
			}
		}
		for (i = 0; i < cap; i++)
			u->shadow[q][i] = i < r->size ?
				bqlm_rtun_pkt_of(u, r->queue[i]) : 0;
	}
	if (!bqlm_rtun_bp(u))
		return;
	for (q = 0; q < u->ops->numqueues(u->dev); q++) {
		u->woke_full[q] = __ptr_ring_full(u->ring[q]);
		if (bqlm_rtun_stopped(u, q) || u->ops->cons_cnt(u->tfile[q]))
			u->ev.reconfig_stopped++;
	}
}

/* ------------------------------------------------------------------ */
/* Device life */

static struct sk_buff *bqlm_rtun_new_skb(struct net_device *dev,
					 unsigned int pkt)
{
	struct sk_buff *skb = alloc_skb(RT_PKT_LEN + NET_IP_ALIGN, GFP_KERNEL);
	u8 *p;

	if (!skb)
		return NULL;
	skb_reserve(skb, NET_IP_ALIGN);
	p = skb_put_zero(skb, RT_PKT_LEN);
	eth_broadcast_addr(p);
	p[6] = 0x02;			/* a locally administered source */
	p[11] = pkt;
	put_unaligned_be16(ETH_P_IP, p + 12);
	put_unaligned_be16(pkt, p + ETH_HLEN);
	skb->dev = dev;
	skb->protocol = htons(ETH_P_IP);
	skb_reset_mac_header(skb);
	skb_get(skb);			/* the harness's reference */
	return skb;
}

static void bqlm_rtun_release(struct bqlm_rtun *u)
{
	unsigned int q, i;

	rtnl_lock();
	for (q = 0; q < u->cfg.queues && u->dev; q++) {
		struct netdev_queue *txq = netdev_get_tx_queue(u->dev, q);

		if (!u->qdisc[q])
			continue;
		rcu_assign_pointer(txq->qdisc, &noop_qdisc);
		qdisc_put(u->qdisc[q]);
		u->qdisc[q] = NULL;
	}
	rtnl_unlock();
	u->dev = NULL;
	memset(u->ring, 0, sizeof(u->ring));
	/* the last close unregisters the device (not IFF_PERSIST) */
	for (q = 0; q < u->cfg.queues; q++) {
		if (!u->file[q])
			continue;
		if (u->tfile[q])
			u->ops->close(NULL, u->file[q]);
		kfree(u->file[q]);
		u->file[q] = NULL;
		u->tfile[q] = NULL;
	}
	for (i = 1; i <= BQLM_TUN_MAX_PACKETS; i++) {
		kfree_skb(u->skb[i]);
		u->skb[i] = NULL;
	}
}

/**
 * bqlm_rtun_up() - a fresh real tun device in the model's initial state
 * @u: the harness, every actor idle
 *
 * Return: 0 or a negative errno.
 */
static int bqlm_rtun_up(struct bqlm_rtun *u)
{
	struct ifreq ifr;
	unsigned int q, i;
	int ret = 0;

	memset(u->where, 0, sizeof(u->where));
	memset(u->shadow, 0, sizeof(u->shadow));
	memset(u->woke_full, 0, sizeof(u->woke_full));
	memset(u->drops, 0, sizeof(u->drops));
	memset(u->rcu, 0, sizeof(u->rcu));
	memset(u->rd, 0, sizeof(u->rd));
	memset(&u->ev, 0, sizeof(u->ev));
	for (i = 0; i < BQLM_TUN_MAX_CPUS; i++)
		bqlm_rtun_cpu_idle(&u->cpu[i]);
	u->sent = 0;
	u->delivered = 0;
	u->detached_q = 0;
	u->detaches_left = u->cfg.detaches;
	u->resizes_left = u->cfg.resizes;

	for (q = 0; q < u->cfg.queues; q++) {
		u->file[q] = kzalloc(sizeof(*u->file[q]), GFP_KERNEL);
		if (!u->file[q])
			goto nomem;
		ret = u->ops->open(NULL, u->file[q]);
		if (ret) {
			kfree(u->file[q]);
			u->file[q] = NULL;
			goto fail;
		}
		u->tfile[q] = u->ops->tfile(u->file[q]);
	}
	memset(&ifr, 0, sizeof(ifr));
	strscpy(ifr.ifr_name, "bqlmtun%d", IFNAMSIZ);
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_MULTI_QUEUE |
			(u->cfg.backpressure ? RT_IFF_BACKPRESSURE : 0);
	rtnl_lock();
	for (q = 0; q < u->cfg.queues && !ret; q++)
		ret = u->ops->set_iff(&init_net, u->file[q], &ifr);
	if (!ret) {
		u->dev = __dev_get_by_name(&init_net, ifr.ifr_name);
		if (!u->dev)
			ret = -ENODEV;
	}
	if (!ret) {
		/* tx_queue_len as the model's ring, as tun_queue_resize() */
		struct ptr_ring *rings[BQLM_TUN_MAX_QUEUES];

		u->dev->tx_queue_len = u->cfg.ring;
		for (q = 0; q < u->cfg.queues; q++)
			rings[q] = u->ops->ring(u->tfile[q]);
		ret = ptr_ring_resize_multiple_bh(rings, u->cfg.queues,
						  u->cfg.ring, GFP_KERNEL,
						  __skb_array_destroy_skb);
	}
	for (q = 0; q < u->cfg.queues && !ret; q++) {
		struct netdev_queue *txq = netdev_get_tx_queue(u->dev, q);

		u->qdisc[q] = qdisc_create_dflt(txq, u->cfg.qdisc ?
						&bqlm_rc_qdisc_ops :
						&bqlm_rc_noqueue_ops,
						TC_H_ROOT, NULL);
		if (!u->qdisc[q])
			ret = -ENOMEM;
		else
			rcu_assign_pointer(txq->qdisc, u->qdisc[q]);
	}
	rtnl_unlock();
	if (ret)
		goto fail;
	for (q = 0; q < u->cfg.queues; q++) {
		u->ring[q] = u->ops->ring(u->tfile[q]);
		u->plock[q].owner = NULL;
		u->clock[q].owner = NULL;
	}
	for (i = 1; i <= u->cfg.packets; i++) {
		u->skb[i] = bqlm_rtun_new_skb(u->dev, i);
		if (!u->skb[i])
			goto nomem;
	}
	return 0;
nomem:
	ret = -ENOMEM;
fail:
	bqlm_rtun_release(u);
	return ret;
}

/* A reader that sleeps ends its read when its socket is shut down. */
static void bqlm_rtun_shutdown_readers(struct bqlm_rtun *u)
{
	unsigned int q;

	for (q = 0; q < u->cfg.queues; q++) {
		struct sock *sk;

		if (!u->rd[q].sleeping)
			continue;
		sk = u->ops->sk(u->tfile[q]);
		sk->sk_shutdown |= RCV_SHUTDOWN;
		sk->sk_data_ready(sk);
	}
}

/**
 * bqlm_rtun_down() - let every actor finish, then free the device
 * @u: the harness
 *
 * Return: 0, or -EBUSY if an actor could not finish (the harness failed).
 */
static int bqlm_rtun_down(struct bqlm_rtun *u)
{
	unsigned int i, rounds;
	bool busy = true;

	for (rounds = 0; rounds < 64 && busy && !u->rc.error; rounds++) {
		bool ran = false;

		busy = false;
		for (i = 0; i < RT_NR_ACTORS; i++) {
			struct bqlm_rc_actor *a = &u->rc.actor[i];

			if (!a->busy)
				continue;
			busy = true;
			if (bqlm_rc_runnable(a) && !bqlm_rc_resume(a))
				ran = true;
		}
		if (busy && !ran)
			bqlm_rtun_shutdown_readers(u);
	}
	if (busy || u->rc.error) {
		if (!u->rc.error)
			bqlm_rc_fail(&u->rc, -EBUSY,
				     "an actor cannot finish at teardown");
		return -EBUSY;
	}
	bqlm_rtun_release(u);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Model actions on the real code */

static int bqlm_rtun_go(struct bqlm_rc_actor *a, bqlm_rc_fn fn)
{
	return a->busy ? bqlm_rc_resume(a) : bqlm_rc_start(a, fn, 0);
}

/**
 * bqlm_rtun_step() - run one model action on the real code
 * @u: the harness
 * @action: a model action number ((kind << 8) | argument)
 *
 * Return: 0, -EAGAIN if the actor is parked waiting (nothing run),
 * -EINVAL for an action the real code cannot take now or at all, or the
 * harness error.
 */
static int bqlm_rtun_step(struct bqlm_rtun *u, unsigned int action)
{
	unsigned int arg = RT_ARG(action);
	struct bqlm_rc_actor *act = u->rc.actor;
	int ret;

	memset(&u->ev, 0, sizeof(u->ev));
	switch (RT_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		if (arg >= u->cfg.cpus ||
		    (!act[RT_CPU0 + arg].busy && u->sent >= u->cfg.packets))
			return -EINVAL;
		ret = bqlm_rtun_go(&act[RT_CPU0 + arg], bqlm_rtun_do_xmit);
		break;
	case BQLM_TUN_A_READ:
		if (arg >= u->cfg.queues)
			return -EINVAL;
		ret = bqlm_rtun_go(&act[RT_RD0 + arg], bqlm_rtun_do_read);
		break;
	case BQLM_TUN_A_DETACH:
		if (act[RT_ADMIN].busy) {
			ret = bqlm_rc_resume(&act[RT_ADMIN]);
			break;
		}
		if (!u->detaches_left || u->detached_q ||
		    !u->ops->numqueues(u->dev))
			return -EINVAL;
		u->admin_q = u->ops->numqueues(u->dev) - 1;
		ret = bqlm_rc_start(&act[RT_ADMIN], bqlm_rtun_do_detach, 0);
		break;
	case BQLM_TUN_A_ATTACH:
		if (act[RT_ADMIN].busy || !u->detached_q)
			return -EINVAL;
		u->admin_q = u->detached_q - 1;
		ret = bqlm_rc_start(&act[RT_ADMIN], bqlm_rtun_do_attach, 0);
		break;
	case BQLM_TUN_A_RESIZE:
		if (act[RT_ADMIN].busy || !u->resizes_left)
			return -EINVAL;
		ret = bqlm_rc_start(&act[RT_ADMIN], bqlm_rtun_do_resize, 0);
		break;
	default:
		return -EINVAL;
	}
	return ret ? ret : u->rc.error;
}

/* tun_force_wake_queue() would wait for a ring lock of queue file @q. */
static bool bqlm_rtun_locked(const struct bqlm_rtun *u, unsigned int q)
{
	return u->plock[q].owner || u->clock[q].owner;
}

/**
 * bqlm_rtun_enabled() - the model actions the real code can take now
 * @u: the harness
 * @actions: receives them, in the model's order
 *
 * An actor that is parked can go on if its condition holds (the lock its
 * next stretch takes is free, its wake-up came, synchronize_net() would
 * return); an idle one can start if the model's bound and the stack let
 * it: a packet left to send on a queue a qdisc would hand it to (noqueue
 * hands it over whatever the state: the stack drops it), a detach left
 * with a queue file attached, a detached queue file to attach (with
 * backpressure, once tun_force_wake_queue() can take its ring locks), a
 * resize left once every ring lock is free.
 *
 * Return: how many.
 */
static unsigned int bqlm_rtun_enabled(const struct bqlm_rtun *u,
				      unsigned int *actions)
{
	const struct bqlm_rc_actor *act = u->rc.actor;
	const struct bqlm_rc_actor *adm = &act[RT_ADMIN];
	unsigned int n = 0, i;

	for (i = 0; i < u->cfg.cpus; i++) {
		const struct bqlm_rc_actor *a = &act[RT_CPU0 + i];

		if (a->busy ? bqlm_rc_runnable(a) :
		    u->sent < u->cfg.packets &&
		    (!u->cfg.qdisc ||
		     !bqlm_rtun_stopped(u, bqlm_rtun_txq_of(u, i))))
			actions[n++] = RT_ACTION(BQLM_TUN_A_XMIT, i);
	}
	for (i = 0; i < u->cfg.queues; i++) {
		const struct bqlm_rc_actor *a = &act[RT_RD0 + i];

		if (!a->busy || bqlm_rc_runnable(a))
			actions[n++] = RT_ACTION(BQLM_TUN_A_READ, i);
	}
	if (adm->busy ? bqlm_rc_runnable(adm) :
	    u->detaches_left && !u->detached_q && u->ops->numqueues(u->dev))
		actions[n++] = RT_ACTION(BQLM_TUN_A_DETACH, 0);
	if (!adm->busy && u->detached_q &&
	    (!bqlm_rtun_bp(u) || !bqlm_rtun_locked(u, u->detached_q - 1)))
		actions[n++] = RT_ACTION(BQLM_TUN_A_ATTACH, 0);
	/* ptr_ring_resize_multiple_bh() takes every ring's locks */
	for (i = 0; i < u->cfg.queues && !bqlm_rtun_locked(u, i); i++)
		;
	if (!adm->busy && u->resizes_left && i == u->cfg.queues)
		actions[n++] = RT_ACTION(BQLM_TUN_A_RESIZE, 0);
	return n;
}

/* The owner id the model stores in a lock word. */
static unsigned int bqlm_rtun_owner(const struct bqlm_rtun *u,
				    const struct bqlm_rc_lock *l)
{
	unsigned int id;

	if (!l->owner)
		return 0;
	id = bqlm_rtun_id(l->owner);
	if (id < RT_RD0)
		return id + 1;
	if (id < RT_ADMIN)
		return BQLM_TUN_WHO_READER(id - RT_RD0) + 1;
	return 0xffff;	/* the administrator never holds one across steps */
}

/**
 * bqlm_rtun_view() - the real state, in the model's terms
 * @u: the harness
 * @v: receives it, bqlm_tun_state_size() bytes
 *
 * Read from the real code: every ring's indices, size, batch and slots
 * (as packet ids), its locks' holders, cons_cnt, whether its tfile is
 * attached, the txq state bits, tun->numqueues and IFF_BACKPRESSURE; from
 * the real code's events as the hooks saw them: where each packet is, how
 * many were sent, read and dropped (and why), what each actor is doing
 * (the yield point it is parked at). The model's own bookkeeping that the
 * real code has no counterpart of (which packet each slot was last
 * produced with, the raced flags, woke_full) is kept by the harness from
 * the same events.
 */
static void bqlm_rtun_view(const struct bqlm_rtun *u, struct bqlm_tun *v)
{
	const struct bqlm_tun_cfg *cfg = &u->cfg;
	unsigned int q, i, pkt, cap = bqlm_rtun_cap(cfg);

	bqlm_tun_init(v, cfg);
	for (q = 0; q < cfg->queues; q++) {
		const struct ptr_ring *r = u->ring[q];
		struct bqlm_ptr_ring *m = &v->q[q].ring;
		unsigned short *slots = bqlm_tun_slot_pkts(v, cfg, q);

		m->producer = r->producer;
		m->consumer_head = r->consumer_head;
		m->consumer_tail = r->consumer_tail;
		m->size = r->size;
		m->batch = r->batch;
		for (i = 0; i < r->size && i < cap; i++)
			v->mem[m->base + i] = bqlm_rtun_pkt_of(u, r->queue[i]);
		for (i = 0; i < cap; i++)
			slots[i] = u->shadow[q][i];
		v->q[q].cons_cnt = u->ops->cons_cnt(u->tfile[q]);
		v->q[q].attached = !u->ops->detached(u->tfile[q]);
		v->q[q].woke_full = u->woke_full[q];
		if (bqlm_rtun_stopped(u, q))
			v->mem[BQLM_TUN_STATE_VAR(q)] = BQLM_TUN_XOFF;
		v->mem[BQLM_TUN_PLOCK_VAR(q)] = bqlm_rtun_owner(u, &u->plock[q]);
		v->mem[BQLM_TUN_CLOCK_VAR(q)] = bqlm_rtun_owner(u, &u->clock[q]);
	}
	for (i = 0; i < cfg->cpus; i++) {
		const struct bqlm_rtun_cpu *x = &u->cpu[i];

		v->cpu[i].pkt = x->pkt;
		v->cpu[i].phase = x->phase;
		v->cpu[i].txq = x->txq;
		v->cpu[i].ret = x->ret;
		v->cpu[i].raced = x->raced;
	}
	for (q = 0; q < cfg->queues; q++) {
		const struct bqlm_rtun_rd *rd = &u->rd[q];

		v->rd[q].phase = rd->phase;
		v->rd[q].nr = rd->nr;
		v->rd[q].sleeping = rd->sleeping && !rd->woken;
	}
	v->sent = u->sent;
	v->delivered = u->delivered;
	memcpy(v->drops, u->drops, sizeof(v->drops));
	v->numqueues = u->ops->numqueues(u->dev);
	if (bqlm_rtun_bp(u))
		v->backpressure = !!(u->ops->flags(u->dev) &
				     RT_IFF_BACKPRESSURE);
	if (u->rc.actor[RT_ADMIN].at == Y_SYNC)
		v->detaching = u->admin_q + 1;
	v->detaches_left = u->detaches_left;
	v->resizes_left = u->resizes_left;
	for (pkt = 1; pkt <= cfg->packets; pkt++)
		bqlm_tun_pkt_set_where(v, cfg, pkt, u->where[pkt]);
}

/* Where the actor of a model action is parked, for messages. */
static const char *bqlm_rtun_parked_at(const struct bqlm_rtun *u,
				       unsigned int action)
{
	unsigned int arg = RT_ARG(action);
	const struct bqlm_rc_actor *a;

	switch (RT_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		a = &u->rc.actor[RT_CPU0 + (arg % BQLM_TUN_MAX_CPUS)];
		break;
	case BQLM_TUN_A_READ:
		a = &u->rc.actor[RT_RD0 + (arg % BQLM_TUN_MAX_QUEUES)];
		break;
	default:
		a = &u->rc.actor[RT_ADMIN];
		break;
	}
	if (!a->busy)
		return "done";
	return a->at ? a->at : "running";
}

/* ------------------------------------------------------------------ */
/* Sessions: the harness and the model side by side */

/**
 * struct bqlm_rtun_session - a harness, the model beside it, and buffers
 * @u: the harness
 * @sys: the model as a system
 * @from: the model's state
 * @to: the model's next state
 * @view: the real state in the model's terms
 * @each: violations of one step
 * @mact: the actions the model enables
 * @ract: the actions the real code enables
 */
struct bqlm_rtun_session {
	struct bqlm_rtun *u;
	struct bqlm_xsys sys;
	void *from;
	void *to;
	struct bqlm_tun *view;
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned int mact[BQLM_X_MAX_ACTIONS];
	unsigned int ract[BQLM_X_MAX_ACTIONS];
};

/**
 * bqlm_rtun_supported() - can the harness run a configuration?
 * @cfg: the model's configuration
 * @why: receives what it cannot run, or NULL
 *
 * Return: 0, or -EOPNOTSUPP with what it cannot run in @why.
 */
int bqlm_rtun_supported(const struct bqlm_tun_cfg *cfg, const char **why)
{
	*why = NULL;
	if (bqlm_tun_cfg_check(cfg))
		*why = "an invalid configuration";
	else if (cfg->variant > BQLM_TUN_BACKPRESSURE_ROOM)
		*why = "a variant without a patch (1d6e569b7d0c, the BQL study)";
	else if (cfg->mm != BQLM_MM_SC)
		*why = "a weak memory model (the real code runs one step at a time: sc)";
	else if (cfg->reader != BQLM_TUN_READ)
		*why = "a reader other than a blocking read()";
	else if (!cfg->packets)
		*why = "an unbounded stream";
	else if (cfg->set_iffs)
		*why = "TUNSETIFF on the running device (reached only by re-attaching a persistent device)";
	else if (cfg->batch != SMP_CACHE_BYTES * 2 / sizeof(void *))
		*why = "a consumer batch other than this kernel's";
	return *why ? -EOPNOTSUPP : 0;
}

/**
 * bqlm_rtun_session_create() - a harness for one configuration
 * @cfg: the model's configuration (bqlm_rtun_supported())
 *
 * Return: the session or an ERR_PTR().
 */
struct bqlm_rtun_session *bqlm_rtun_session_create(const struct bqlm_tun_cfg *cfg)
{
	struct bqlm_rtun_session *r;
	const char *why;
	size_t size;
	int ret;

	if (bqlm_rtun_supported(cfg, &why))
		return ERR_PTR(-EOPNOTSUPP);
	if (bqlm_rtun_cur)
		return ERR_PTR(-EBUSY);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	size = bqlm_tun_state_size(cfg);
	r->from = kzalloc(size, GFP_KERNEL);
	r->to = kzalloc(size, GFP_KERNEL);
	r->view = kzalloc(size, GFP_KERNEL);
	r->u = kzalloc(sizeof(*r->u), GFP_KERNEL);
	if (!r->from || !r->to || !r->view || !r->u) {
		bqlm_rtun_session_destroy(r);
		return ERR_PTR(-ENOMEM);
	}
	r->u->cfg = *cfg;
	r->u->ops = bqlm_rtun_variants[cfg->variant];
	r->u->plock[0].name = "q0 producer_lock";
	r->u->plock[1].name = "q1 producer_lock";
	r->u->clock[0].name = "q0 consumer_lock";
	r->u->clock[1].name = "q1 consumer_lock";
	ret = bqlm_rc_init(&r->u->rc, RT_NR_ACTORS, bqlm_rtun_names, r->u);
	if (ret) {
		kfree(r->u);
		r->u = NULL;
		bqlm_rtun_session_destroy(r);
		return ERR_PTR(ret);
	}
	bqlm_tun_system(&r->u->cfg, &r->sys);
	bqlm_rtun_cur = r->u;
	return r;
}

/**
 * bqlm_rtun_session_destroy() - end a session
 * @r: the session, or NULL
 */
void bqlm_rtun_session_destroy(struct bqlm_rtun_session *r)
{
	if (!r)
		return;
	if (r->u) {
		bqlm_rc_destroy(&r->u->rc);
		if (bqlm_rtun_cur == r->u)
			bqlm_rtun_cur = NULL;
		kfree(r->u);
	}
	kfree(r->from);
	kfree(r->to);
	kfree(r->view);
	kfree(r);
}

/* A fresh device and the model at its start. */
static int bqlm_rtun_start(struct bqlm_rtun_session *r)
{
	int ret = bqlm_rtun_up(r->u);

	if (ret)
		return ret;
	memset(r->from, 0, r->sys.state_size);
	bqlm_xinit(&r->sys, r->from);
	return 0;
}

/*
 * Every packet's references after a step: the harness's own, and tun.c's
 * while the packet is handed over, in a ring, or consumed by a reader that
 * has not finished with it. Fewer: tun.c freed a packet it still holds
 * (counted lost, as the model counts an overwritten one); more: it kept
 * one it let go of (a harness failure).
 */
static void bqlm_rtun_audit(struct bqlm_rtun *u)
{
	unsigned int pkt, q, want, have;

	for (pkt = 1; pkt <= u->cfg.packets; pkt++) {
		bool held = u->where[pkt] == BQLM_TUN_PKT_UNSENT ||
			    u->where[pkt] == BQLM_TUN_PKT_XMIT ||
			    u->where[pkt] == BQLM_TUN_PKT_RING;

		for (q = 0; q < u->cfg.queues; q++)
			held |= u->rd[q].pkt == pkt &&
				u->rc.actor[RT_RD0 + q].busy;
		want = held ? 2 : 1;
		have = refcount_read(&u->skb[pkt]->users);
		if (have < want)
			u->ev.lost++;
		else if (have > want)
			bqlm_rc_fail(&u->rc, -EINVAL,
				     "pkt %u has %u references, %u expected",
				     pkt, have, want);
	}
}

/*
 * The model's invariants on the real state after a step: the step's
 * checks on the view with what the real step did to packets, and the
 * state's (the stall) with the actions the real code enables.
 */
static unsigned int bqlm_rtun_check(struct bqlm_rtun_session *r,
				    unsigned int *nract, unsigned int *smask)
{
	unsigned int mask, state;

	bqlm_rtun_audit(r->u);
	bqlm_rtun_view(r->u, r->view);
	memset(r->each, 0, sizeof(r->each));
	mask = bqlm_tun_check_step(r->view, &r->u->cfg, "real code",
				   &r->u->ev, r->each);
	*nract = bqlm_rtun_enabled(r->u, r->ract);
	state = bqlm_xcheck_state(&r->sys, r->view, r->ract, *nract,
				  r->each);
	if (smask)
		*smask = state;
	return mask | state;
}

/* The real state against the model's: the first differing byte, named. */
static bool bqlm_rtun_same(struct bqlm_rtun_session *r,
			   struct bqlm_rc_result *res)
{
	const u8 *a = (const u8 *)r->view, *b = r->from;
	size_t i, n = r->sys.state_size;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	if (i == n)
		return true;
	scnprintf(res->diff_what, sizeof(res->diff_what),
		  "the states (first at byte %zu)", i);
	bqlm_xdescribe_state(&r->sys, r->view, res->diff_real,
			     sizeof(res->diff_real));
	bqlm_xdescribe_state(&r->sys, r->from, res->diff_model,
			     sizeof(res->diff_model));
	return false;
}

/*
 * The adapter bqlm_rc_lockstep() and bqlm_rc_explore() drive; each
 * callback takes the session.
 */
static int bqlm_rtun_t_start(void *priv)
{
	return bqlm_rtun_start(priv);
}

static int bqlm_rtun_t_step(void *priv, unsigned int action)
{
	struct bqlm_rtun_session *r = priv;

	return bqlm_rtun_step(r->u, action);
}

static const char *bqlm_rtun_t_error(void *priv)
{
	struct bqlm_rtun_session *r = priv;

	return r->u->rc.error ? r->u->rc.msg : NULL;
}

static const char *bqlm_rtun_t_parked_at(void *priv, unsigned int action)
{
	struct bqlm_rtun_session *r = priv;

	return bqlm_rtun_parked_at(r->u, action);
}

static unsigned int bqlm_rtun_t_enabled(void *priv, unsigned int *actions)
{
	struct bqlm_rtun_session *r = priv;

	return bqlm_rtun_enabled(r->u, actions);
}

static unsigned int bqlm_rtun_t_check(void *priv, unsigned int *nr,
				      unsigned int *smask)
{
	return bqlm_rtun_check(priv, nr, smask);
}

static bool bqlm_rtun_t_same(void *priv, struct bqlm_rc_result *res)
{
	return bqlm_rtun_same(priv, res);
}

static int bqlm_rtun_t_down(void *priv)
{
	struct bqlm_rtun_session *r = priv;

	return bqlm_rtun_down(r->u);
}

static void bqlm_rtun_target(struct bqlm_rtun_session *r,
			     struct bqlm_rc_target *t)
{
	*t = (struct bqlm_rc_target) {
		.priv = r,
		.sys = &r->sys,
		.from = r->from,
		.to = r->to,
		.each = r->each,
		.mact = r->mact,
		.ract = r->ract,
		.view = r->view,
		.view_size = r->sys.state_size,
		.start = bqlm_rtun_t_start,
		.step = bqlm_rtun_t_step,
		.error = bqlm_rtun_t_error,
		.parked_at = bqlm_rtun_t_parked_at,
		.enabled = bqlm_rtun_t_enabled,
		.check = bqlm_rtun_t_check,
		.same = bqlm_rtun_t_same,
		.down = bqlm_rtun_t_down,
	};
}

/**
 * bqlm_rtun_lockstep() - run a schedule on the model and the real tun.c
 * @r: the session
 * @actions: the schedule, model action numbers; NULL for a random path
 * @n: its length
 * @seed: for a random path, its seed
 * @max_steps: for a random path, its longest length
 * @emit: NULL, or receives each step as "N. model step | real: yield point"
 * @arg: @emit's argument
 * @res: the result
 *
 * bqlm_rc_lockstep() with the real state read by bqlm_rtun_view() and
 * compared with the model's byte for byte.
 *
 * Return: as bqlm_rc_lockstep().
 */
int bqlm_rtun_lockstep(struct bqlm_rtun_session *r,
		       const unsigned int *actions, unsigned int n, u64 seed,
		       unsigned int max_steps, bqlm_rc_emit_t emit,
		       void *arg, struct bqlm_rc_result *res)
{
	struct bqlm_rc_target t;

	bqlm_rtun_target(r, &t);
	return bqlm_rc_lockstep(&t, actions, n, seed, max_steps, emit, arg,
				res);
}

/**
 * bqlm_rtun_explore() - every schedule of the real tun.c within a bound
 * @r: the session
 * @max_states: bound on the states stored
 * @xr: the result
 *
 * bqlm_rc_explore() over the real code of the session's variant: the
 * actions the real code enables, the states as bqlm_rtun_view() reads
 * them, the model's invariants on each. The model is not consulted.
 *
 * Return: as bqlm_rc_explore().
 */
int bqlm_rtun_explore(struct bqlm_rtun_session *r, unsigned int max_states,
		      struct bqlm_rc_xresult *xr)
{
	struct bqlm_rc_target t;

	bqlm_rtun_target(r, &t);
	return bqlm_rc_explore(&t, max_states, xr);
}
