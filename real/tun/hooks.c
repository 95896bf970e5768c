// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real tun.c under the model's schedules: the calls that
 * real/tun/glue.h redirects to the harness (see harness.h,
 * docs/real-tun.md).
 *
 * Each hook runs the kernel's function or tells the harness what the
 * kernel's function did, and, where a model step of the calling actor
 * ends, yields. Called outside the harness's actors (device creation and
 * teardown) or for a lock the harness does not watch, a hook does what the
 * kernel does.
 */
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/skbuff.h>
#include <linux/wait.h>

#include "harness.h"

#define PRODUCED_TEXT	"tun_net_xmit: after ptr_ring_produce()"

const struct bqlm_rc_yield bqlm_rtun_yields[RTUN_NR_YIELDS] = {
	[RTUN_Y_STACK] = {
		"stack: netif_xmit_stopped() = false -> tun_net_xmit()",
		BQLM_TUN_X_START },
	[RTUN_Y_PRODUCED] = { PRODUCED_TEXT, BQLM_TUN_X_PRODUCED },
	[RTUN_Y_PRODUCE_FAILED] = { PRODUCED_TEXT, BQLM_TUN_X_STOP },
	[RTUN_Y_FULL] = {
		"tun_net_xmit: ptr_ring_full() = true",
		BQLM_TUN_X_STOP },
	[RTUN_Y_BP_PRODUCED] = {
		"tun_net_xmit: after __ptr_ring_produce()",
		BQLM_TUN_X_PRODUCED },
	[RTUN_Y_BP_STOPPED] = {
		"tun_net_xmit: after netif_tx_stop_queue()",
		BQLM_TUN_X_STOP },
	[RTUN_Y_BP_UNLOCK] = {
		"tun_net_xmit: spin_unlock(&tfile->tx_ring.producer_lock)",
		BQLM_TUN_X_UNLOCK },
	[RTUN_Y_CONSUMED] = {
		"tun_ring_recv: after ptr_ring_consume()",
		BQLM_TUN_R_PUT },
	[RTUN_Y_BP_CONSUMED] = {
		"tun_ring_consume: after __ptr_ring_consume()",
		BQLM_TUN_R_WAKE },
	[RTUN_Y_BP_CUNLOCK] = {
		"tun_ring_consume: spin_unlock(&tfile->tx_ring.consumer_lock)",
		BQLM_TUN_R_UNLOCK },
	[RTUN_Y_SLEEP] = { "tun_ring_recv: schedule()", BQLM_RC_NO_PHASE },
	[RTUN_Y_SYNC] = { "__tun_detach: synchronize_net()", BQLM_RC_NO_PHASE },
};

/* The harness running now: the hooks of the compiled tun.c find it here. */
struct bqlm_rtun *bqlm_rtun_cur;

/* IFF_TUN's header_ops (net/ipv4/, not in the test kernel): none */
const struct header_ops bqlm_rtun_ip_tunnel_header_ops;

static void bqlm_rtun_yield(struct bqlm_rc_actor *a, enum bqlm_rtun_yield y,
			    bqlm_rc_cond cond)
{
	bqlm_rc_yield(a, &bqlm_rtun_yields[y], cond);
}

/*
 * The actor running the hook, and in *@up its harness; NULL outside an
 * actor (device creation and teardown).
 */
static struct bqlm_rc_actor *bqlm_rtun_self(struct bqlm_rtun **up)
{
	*up = bqlm_rtun_cur;
	return *up ? bqlm_rc_self(&(*up)->rc) : NULL;
}


/**
 * bqlm_rtun_raced() - transmits in flight on a queue raced with something
 * @u: the harness
 * @q: the queue
 * @except: NULL, or a CPU whose transmit did not
 * @flag: BQLM_TUN_RACED_*, added to their raced
 */
void bqlm_rtun_raced(struct bqlm_rtun *u, unsigned int q,
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

/**
 * bqlm_rtun_pkt_of() - the packet id of a ring entry
 * @u: the harness
 * @ptr: the entry
 *
 * Return: the id, 0 for NULL, BQLM_TUN_MAX_ID for no packet of the harness.
 */
unsigned int bqlm_rtun_pkt_of(const struct bqlm_rtun *u, const void *ptr)
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
/* The hooks of real/tun/glue.h */

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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);

	if (!a)
		return false;
	hl = bqlm_rtun_hlock(u, l);
	if (!hl)
		return false;
	/* every step starts only once the locks it takes are free */
	if (hl->owner && hl->owner != a)
		bqlm_rc_fail(&u->rc, -EDEADLK,
			     "%s waits for %s (held by %s) in the middle of a step",
			     a->name, hl->wait.name, hl->owner->name);
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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);
	unsigned int id;

	if (!a)
		return false;
	hl = bqlm_rtun_hlock(u, l);
	if (!hl)
		return false;
	id = bqlm_rtun_id(a);
	if (bqlm_rtun_bp(u) && bqlm_rtun_is_cpu(a) &&
	    hl == &u->plock[u->cpu[id].txq]) {
		bqlm_rtun_yield(a, RTUN_Y_BP_UNLOCK, NULL);
	} else if (bqlm_rtun_bp(u) && bqlm_rtun_is_reader(a) &&
		   a->phase == BQLM_TUN_R_WAKE) {
		bqlm_rtun_rd_of(u, a)->nr = 0;
		bqlm_rtun_yield(a, RTUN_Y_BP_CUNLOCK, NULL);
	}
	bqlm_rc_unlock(a, hl);
	return true;
}

/**
 * bqlm_rtun_plock_free() - may a producer take its ring's producer_lock?
 * @a: the producer CPU's actor, whose next stretch takes it first
 *
 * Return: true if it is free (or the producer's).
 */
bool bqlm_rtun_plock_free(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);

	return bqlm_rc_lock_free(a, &u->plock[u->cpu[bqlm_rtun_id(a)].txq]);
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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);
	unsigned int pkt;
	int q;

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
	if (bqlm_rtun_2019(u) && ret)
		bqlm_rtun_yield(a, RTUN_Y_PRODUCE_FAILED, NULL);
	else if (bqlm_rtun_2019(u))
		bqlm_rtun_yield(a, RTUN_Y_PRODUCED, bqlm_rtun_plock_free);
	else if (bqlm_rtun_bp(u))
		bqlm_rtun_yield(a, RTUN_Y_BP_PRODUCED, NULL);
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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);

	if (a && full && bqlm_rtun_is_cpu(a) && bqlm_rtun_2019(u))
		bqlm_rtun_yield(a, RTUN_Y_FULL, NULL);
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
	bqlm_rtun_yield(a, RTUN_Y_BP_STOPPED, NULL);
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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);
	unsigned int pkt;
	int q;

	if (!a || !ptr)
		return ptr;
	q = bqlm_rtun_q_of_ring(u, r);
	pkt = bqlm_rtun_pkt_of(u, ptr);
	if (q < 0 || pkt > u->cfg.packets) {
		u->ev.unsent_skbs++;
		return ptr;
	}
	if (bqlm_rtun_id(a) == RTUN_ADMIN) {
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
		bqlm_rtun_yield(a, RTUN_Y_CONSUMED, NULL);
	} else if (bqlm_rtun_bp(u)) {
		u->rd[q].nr = 1;
		bqlm_rtun_yield(a, RTUN_Y_BP_CONSUMED, NULL);
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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);
	unsigned int pkt;

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
			    (u->ops->flags(u->dev) & RTUN_IFF_BACKPRESSURE)) {
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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);

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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);

	if (!a || !bqlm_rtun_is_reader(a)) {
		schedule();
		return;
	}
	rd = bqlm_rtun_rd_of(u, a);
	__set_current_state(TASK_RUNNING);
	if (!rd->woken) {
		rd->sleeping = true;
		bqlm_rtun_yield(a, RTUN_Y_SLEEP, bqlm_rtun_woken);
		rd->sleeping = false;
	}
	rd->woken = false;
}

/* synchronize_net(): no other actor in an RCU section, the ring unlocked */
static bool bqlm_rtun_quiet(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int i, q = u->admin_q;

	for (i = 0; i < RTUN_NR_ACTORS; i++)
		if (i != RTUN_ADMIN && u->rcu[i])
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
	struct bqlm_rtun *u;
	struct bqlm_rc_actor *a = bqlm_rtun_self(&u);

	if (!a) {
		synchronize_net();
		return;
	}
	if (bqlm_rtun_id(a) == RTUN_ADMIN)
		bqlm_rtun_yield(a, RTUN_Y_SYNC, bqlm_rtun_quiet);
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
	struct bqlm_rtun *u = bqlm_rtun_cur;

	bqlm_rc_rcu_read_lock(u ? &u->rc : NULL, u ? u->rcu : NULL);
}

/**
 * bqlm_rtun_rcu_read_unlock() - rcu_read_unlock() in the compiled tun.c
 */
void bqlm_rtun_rcu_read_unlock(void)
{
	struct bqlm_rtun *u = bqlm_rtun_cur;

	bqlm_rc_rcu_read_unlock(u ? &u->rc : NULL, u ? u->rcu : NULL);
}

/**
 * bqlm_rtun_rcu_held() - the condition of rcu_dereference() in the compiled tun.c
 *
 * Return: true when the calling actor is in a read-side section the
 * harness counts (the stack's or tun.c's own); lockdep's check still
 * fails a dereference outside any section.
 */
bool bqlm_rtun_rcu_held(void)
{
	struct bqlm_rtun *u = bqlm_rtun_cur;

	return bqlm_rc_rcu_held(u ? &u->rc : NULL, u ? u->rcu : NULL);
}
