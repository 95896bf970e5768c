// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real veth.c under the ring-consumer model's schedules:
 * the calls that real/veth/glue.h redirects to the harness (see
 * harness.h, docs/real-veth.md).
 *
 * Each hook runs the kernel's function or tells the harness what the
 * kernel's function did, and, where a model step of the calling actor
 * ends, yields. Called outside the harness's actors (a pair's creation and
 * teardown) or on an object the harness does not watch, a hook does what
 * the kernel does.
 */
#include <linux/bottom_half.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>

#include "harness.h"

const struct bqlm_rc_yield bqlm_rveth_yields[RVETH_NR_YIELDS] = {
	[RVETH_Y_STACK] = {
		"stack: netif_xmit_stopped() = false -> veth_xmit()",
		BQLM_TUN_X_START },
	[RVETH_Y_PRODUCED] = {
		"veth_xdp_rx: ptr_ring_produce() = 0", BQLM_TUN_X_NOTIFY },
	[RVETH_Y_FULL] = {
		"veth_xdp_rx: ptr_ring_produce() = -ENOSPC", BQLM_TUN_X_STOP },
	[RVETH_Y_STOPPED] = {
		"veth_xmit: after netif_tx_stop_queue()", BQLM_TUN_X_RECHECK },
	[RVETH_Y_REQUEUED] = {
		"stack: NETDEV_TX_BUSY, the qdisc keeps the packet",
		BQLM_TUN_X_REQUEUED },
	[RVETH_Y_CONSUMED] = {
		"veth_xdp_rcv: after __ptr_ring_consume()", BQLM_TUN_R_POLL },
	[RVETH_Y_LOOP_END] = {
		"veth_xdp_rcv: the loop ends", BQLM_TUN_R_RCV_END },
	[RVETH_Y_LOOP_DONE] = {
		"veth_xdp_rcv: the loop ends", BQLM_TUN_R_COMPLETE },
	[RVETH_Y_RCV_WOKEN] = {
		"veth_poll: after veth_xdp_rcv()", BQLM_TUN_R_COMPLETE },
	[RVETH_Y_COMPLETED] = {
		"veth_poll: after napi_complete_done() and the re-arm",
		BQLM_TUN_R_POLL_END },
};

/* The harness running now: the hooks of the compiled veth.c find it here. */
struct bqlm_rveth *bqlm_rveth_cur;

static struct bqlm_rc_actor *bqlm_rveth_self(struct bqlm_rveth **up)
{
	*up = bqlm_rveth_cur;
	return *up ? bqlm_rc_self(&(*up)->rc) : NULL;
}

static bool bqlm_rveth_is_cpu(const struct bqlm_rc_actor *a)
{
	return bqlm_rveth_id(a) < RVETH_NAPI0;
}

/**
 * bqlm_rveth_pkt_of() - the packet id of a ring entry
 * @u: the harness
 * @ptr: the entry
 *
 * Return: the id, 0 for NULL, BQLM_TUN_MAX_ID for no packet of the harness.
 */
unsigned int bqlm_rveth_pkt_of(const struct bqlm_rveth *u, const void *ptr)
{
	unsigned int i;

	if (!ptr)
		return 0;
	for (i = 1; i <= u->cfg.packets; i++)
		if (u->skb[i] == ptr)
			return i;
	return BQLM_TUN_MAX_ID;
}

/**
 * bqlm_rveth_stopped() - is the sending device's txq stopped (for the
 *	stack)?
 * @u: the harness
 *
 * Return: netif_xmit_stopped().
 */
bool bqlm_rveth_stopped(const struct bqlm_rveth *u)
{
	return netif_xmit_stopped(netdev_get_tx_queue(u->dev, 0));
}

/**
 * bqlm_rveth_raced() - another CPU may fill the ring first (the model's
 *	raced flag)
 * @u: the harness
 * @except: the CPU that does not count
 * @requeued_too: a CPU whose packet the qdisc keeps counts
 *
 * Every CPU with a packet in the transmit, other than @except, gets
 * BQLM_TUN_RACED_CPU.
 */
void bqlm_rveth_raced(struct bqlm_rveth *u, unsigned int except,
		      bool requeued_too)
{
	unsigned int i;

	for (i = 0; i < u->cfg.cpus; i++) {
		const struct bqlm_rc_actor *a = &u->rc.actor[RVETH_CPU0 + i];

		if (i == except || !u->cpu[i].pkt)
			continue;
		if (!requeued_too &&
		    a->at == &bqlm_rveth_yields[RVETH_Y_REQUEUED])
			continue;
		u->cpu[i].raced |= BQLM_TUN_RACED_CPU;
	}
}

/**
 * bqlm_rveth_produced() - after veth_xdp_rx()'s ptr_ring_produce()
 * @r: the ring
 * @ptr: the entry
 * @ret: what the produce returned
 *
 * Return: @ret.
 */
int bqlm_rveth_produced(struct ptr_ring *r, void *ptr, int ret)
{
	struct bqlm_rveth *u;
	struct bqlm_rc_actor *a = bqlm_rveth_self(&u);
	struct bqlm_rveth_cpu *x;
	unsigned int pkt, slot, id;

	if (!a || r != u->ring)
		return ret;
	id = bqlm_rveth_id(a);
	pkt = bqlm_rveth_pkt_of(u, ptr);
	if (!bqlm_rveth_is_cpu(a) || pkt != u->cpu[id].pkt) {
		bqlm_rc_fail(&u->rc, -EINVAL, "%s produced %p (pkt %u)",
			     a->name, ptr, pkt);
		return ret;
	}
	x = &u->cpu[id];
	x->ret = !!ret;
	if (!ret) {
		slot = r->producer ? r->producer - 1 : r->size - 1;
		if (u->shadow[slot] &&
		    u->where[u->shadow[slot]] == BQLM_TUN_PKT_RING)
			u->ev.lost++;
		u->shadow[slot] = pkt;
		u->where[pkt] = BQLM_TUN_PKT_RING;
		bqlm_rveth_raced(u, id, true);
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_PRODUCED], NULL);
	} else {
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_FULL], NULL);
	}
	return ret;
}

/**
 * bqlm_rveth_tx_stop_queue() - netif_tx_stop_queue() in the compiled veth.c
 * @txq: the queue
 */
void bqlm_rveth_tx_stop_queue(struct netdev_queue *txq)
{
	struct bqlm_rveth *u;
	struct bqlm_rc_actor *a;

	netif_tx_stop_queue(txq);
	a = bqlm_rveth_self(&u);
	if (a && bqlm_rveth_is_cpu(a))
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_STOPPED], NULL);
}

/**
 * bqlm_rveth_consumed() - after veth_xdp_rcv()'s __ptr_ring_consume()
 * @r: the ring
 * @ptr: what it returned
 *
 * A consume that took an entry delivers the packet (the model counts it
 * there); the poll's step ends after each consume.
 *
 * Return: @ptr.
 */
void *bqlm_rveth_consumed(struct ptr_ring *r, void *ptr)
{
	struct bqlm_rveth *u;
	struct bqlm_rc_actor *a = bqlm_rveth_self(&u);
	unsigned int pkt;
	bool more;

	if (!a || r != u->ring)
		return ptr;
	if (bqlm_rveth_id(a) != RVETH_NAPI0) {
		bqlm_rc_fail(&u->rc, -EINVAL, "%s consumes", a->name);
		return ptr;
	}
	pkt = bqlm_rveth_pkt_of(u, ptr);
	if (ptr) {
		if (pkt > u->cfg.packets || u->where[pkt] == BQLM_TUN_PKT_UNSENT)
			u->ev.unsent_skbs++;
		else if (u->where[pkt] != BQLM_TUN_PKT_RING)
			u->ev.twice++;
		if (pkt <= u->cfg.packets)
			u->where[pkt] = BQLM_TUN_PKT_READ;
		u->delivered++;
		u->nr++;
	}
	u->holding = pkt <= u->cfg.packets ? pkt : 0;
	more = ptr && u->nr < u->cfg.budget;
	if (more)
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_CONSUMED], NULL);
	else if (u->cfg.wake_at == BQLM_TUN_WAKE_AT_RCV_END)
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_LOOP_END], NULL);
	else
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_LOOP_DONE], NULL);
	return ptr;
}

/**
 * bqlm_rveth_tx_queue_stopped() - netif_tx_queue_stopped() in veth.c
 * @txq: the queue
 *
 * The wake test at the end of veth_poll() begins the model's wake step
 * there; elsewhere (the end of veth_xdp_rcv()) a plain test.
 *
 * Return: the kernel's.
 */
bool bqlm_rveth_tx_queue_stopped(const struct netdev_queue *txq)
{
	struct bqlm_rveth *u;
	struct bqlm_rc_actor *a = bqlm_rveth_self(&u);

	if (a && bqlm_rveth_id(a) == RVETH_NAPI0 &&
	    a->phase == BQLM_TUN_R_COMPLETE)
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_COMPLETED], NULL);
	return netif_tx_queue_stopped(txq);
}

/**
 * bqlm_rveth_napi_schedule() - __napi_schedule() in the compiled veth.c
 * @n: the NAPI, NAPI_STATE_SCHED set by napi_schedule_prep()
 *
 * The peer's NAPI is marked pending, not put on the CPU's poll list: its
 * poll runs when the schedule says.
 */
void bqlm_rveth_napi_schedule(struct napi_struct *n)
{
	struct bqlm_rveth *u = bqlm_rveth_cur;

	if (!u || !u->peer || n != u->ops->napi(u->peer, 0)) {
		__napi_schedule(n);
		return;
	}
	u->pending = true;
}

/**
 * bqlm_rveth_rcv_done() - xdp_clear_return_frame_no_direct() in veth.c
 *
 * veth_poll() calls it once veth_xdp_rcv() returned, every packet the
 * loop consumed passed up (a loop that ended at its budget consumed no
 * NULL after its last): where the variant that wakes at the end of
 * veth_xdp_rcv() ends the step of that wake.
 */
void bqlm_rveth_rcv_done(void)
{
	struct bqlm_rveth *u;
	struct bqlm_rc_actor *a = bqlm_rveth_self(&u);

	xdp_clear_return_frame_no_direct();
	if (!a || bqlm_rveth_id(a) != RVETH_NAPI0)
		return;
	/* a loop that ended at its budget passed its last packet up too */
	u->holding = 0;
	if (a->phase == BQLM_TUN_R_RCV_END)
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_RCV_WOKEN], NULL);
}

/**
 * bqlm_rveth_napi_complete_done() - napi_complete_done() in veth.c
 * @n: the NAPI
 * @work_done: what its poll did
 *
 * The kernel's function; a poll it scheduled again (NAPIF_STATE_MISSED)
 * is taken off the CPU's poll list and marked pending.
 *
 * Return: what the kernel's function returned.
 */
bool bqlm_rveth_napi_complete_done(struct napi_struct *n, int work_done)
{
	struct bqlm_rveth *u = bqlm_rveth_cur;
	bool done, ours = u && u->peer && n == u->ops->napi(u->peer, 0);

	local_bh_disable();
	done = napi_complete_done(n, work_done);
	if (!done && ours && test_bit(NAPI_STATE_SCHED, &n->state) &&
	    !list_empty(&n->poll_list)) {
		local_irq_disable();
		list_del_init(&n->poll_list);
		local_irq_enable();
		u->pending = true;
	}
	local_bh_enable();
	return done;
}

/**
 * bqlm_rveth_rcu_read_lock() - rcu_read_lock() in the compiled veth.c
 *
 * An actor's section is counted by the harness (it may yield inside);
 * outside an actor, the kernel's.
 */
void bqlm_rveth_rcu_read_lock(void)
{
	struct bqlm_rveth *u = bqlm_rveth_cur;

	bqlm_rc_rcu_read_lock(u ? &u->rc : NULL, u ? u->rcu : NULL);
}

/**
 * bqlm_rveth_rcu_read_unlock() - rcu_read_unlock() in the compiled veth.c
 */
void bqlm_rveth_rcu_read_unlock(void)
{
	struct bqlm_rveth *u = bqlm_rveth_cur;

	bqlm_rc_rcu_read_unlock(u ? &u->rc : NULL, u ? u->rcu : NULL);
}

/**
 * bqlm_rveth_rcu_held() - the condition of rcu_dereference() in the compiled veth.c
 *
 * Return: true when the calling actor is in a read-side section the
 * harness counts (the stack's or veth.c's own); lockdep's check still
 * fails a dereference outside any section.
 */
bool bqlm_rveth_rcu_held(void)
{
	struct bqlm_rveth *u = bqlm_rveth_cur;

	return bqlm_rc_rcu_held(u ? &u->rc : NULL, u ? u->rcu : NULL);
}
