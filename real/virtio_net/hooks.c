// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real virtio_net.c under the NIC model's schedules: the
 * calls that real/virtio_net/glue.h redirects to the harness, and what the
 * fake virtio device tells it (see harness.h,
 * docs/real-virtio_net.md).
 *
 * Each hook runs the kernel's function or the statements of the kernel's
 * inline function, tells the harness what it did, and yields where a model
 * step of the calling actor ends. Called outside the harness's actors
 * (the device's creation and teardown) or for an object the harness does
 * not watch, a hook does what the kernel does.
 */
#include <linux/bottom_half.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/sprintf.h>
#include <linux/virtio.h>
#include <linux/workqueue.h>

#include "harness.h"

const struct bqlm_rc_yield bqlm_rvnet_yields[RVNET_NR_YIELDS] = {
	[RVNET_Y_XOFF] = {
		"__netdev_tx_sent_queue: over the limit",
		BQLM_NIC_XMIT_XOFF },
	[RVNET_Y_RECHECK] = {
		"__netdev_tx_sent_queue: STACK_XOFF set, smp_mb next",
		BQLM_NIC_XMIT_RECHECK },
	[RVNET_Y_NAPI_DQL] = {
		"virtnet_poll_tx: netdev_tx_completed_queue: dql_completed next",
		BQLM_NIC_NAPI_DQL },
	[RVNET_Y_NAPI_WAKE] = {
		"virtnet_poll_tx: netdev_tx_completed_queue: smp_mb next",
		BQLM_NIC_NAPI_WAKE },
	[RVNET_Y_OP + BQLM_NIC_OP_STOP] = {
		"next: the tx lock, stop the queue", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_NAPI_OFF] = {
		"next: napi_disable()", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_DMA_OFF] = {
		"next: the transport's reset", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_DRAIN] = {
		"next: the unused buffers freed", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_RESET] = {
		"next: netdev_tx_reset_queue()", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_RESET0] = {
		"next: netdev_reset_queue()", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_DMA_ON] = {
		"next: the transport's enable", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_NAPI_ON] = {
		"next: napi_enable()", BQLM_RC_NO_PHASE },
	[RVNET_Y_OP + BQLM_NIC_OP_WAKE] = {
		"next: the tx lock, wake the queue", BQLM_RC_NO_PHASE },
};

/* The harness running now: the hooks of the compiled driver find it here. */
struct bqlm_rvnet *bqlm_rvnet_cur;

/**
 * bqlm_rvnet_self() - the actor running a hook, and its harness
 * @up: receives the harness, NULL if none runs
 *
 * Return: the actor, NULL outside an actor (creation and teardown).
 */
struct bqlm_rc_actor *bqlm_rvnet_self(struct bqlm_rvnet **up)
{
	*up = bqlm_rvnet_cur;
	return *up ? bqlm_rc_self(&(*up)->rc) : NULL;
}

/**
 * bqlm_rvnet_txq() - the netdev queue of queue pair @q
 * @u: the harness
 * @q: the queue pair
 *
 * Return: the queue.
 */
struct netdev_queue *bqlm_rvnet_txq(const struct bqlm_rvnet *u, unsigned int q)
{
	return netdev_get_tx_queue(u->dev, q);
}

/**
 * bqlm_rvnet_txq_of() - the queue pair of a netdev queue the harness watches
 * @u: the harness, or NULL
 * @txq: the queue
 *
 * Return: its index, or -1.
 */
int bqlm_rvnet_txq_of(const struct bqlm_rvnet *u,
		      const struct netdev_queue *txq)
{
	unsigned int q;

	for (q = 0; u && u->dev && q < u->cfg.queues; q++)
		if (txq == bqlm_rvnet_txq(u, q))
			return q;
	return -1;
}

static int bqlm_rvnet_napi_q(const struct bqlm_rvnet *u,
			     const struct napi_struct *n, bool *rx)
{
	unsigned int q;

	for (q = 0; u && u->dev && q < u->cfg.queues; q++) {
		*rx = n == u->ops->rq_napi(u->dev, q);
		if (*rx || n == u->ops->sq_napi(u->dev, q))
			return q;
	}
	return -1;
}

static int bqlm_rvnet_vq_q(const struct bqlm_rvnet *u,
			   const struct virtqueue *vq)
{
	unsigned int q;

	for (q = 0; u && u->dev && bqlm_rvnet_has_queues(u) &&
	     q < u->cfg.queues; q++)
		if (vq == u->ops->sq_vq(u->dev, q))
			return q;
	return -1;
}

/**
 * bqlm_rvnet_pkt_id() - the id of a packet of the harness
 * @u: the harness
 * @skb: the skb
 *
 * Return: its id, or 0 for an skb the harness did not make.
 */
unsigned int bqlm_rvnet_pkt_id(const struct bqlm_rvnet *u,
			       const struct sk_buff *skb)
{
	unsigned int i;

	for (i = 1; skb && i <= u->cfg.packets; i++)
		if (u->skb[i] == skb)
			return i;
	return 0;
}

/**
 * bqlm_rvnet_room() - is there room on a send virtqueue?
 * @u: the harness
 * @q: the queue pair
 *
 * Return: what virtnet_poll_tx() tests before its wake: num_free >= 2 +
 * MAX_SKB_FRAGS, the model's room for one more packet on its ring.
 */
bool bqlm_rvnet_room(const struct bqlm_rvnet *u, unsigned int q)
{
	return bqlm_rvnet_has_queues(u) &&
	       u->ops->sq_vq(u->dev, q)->num_free >= 2 + MAX_SKB_FRAGS;
}

/**
 * bqlm_rvnet_polling() - is the tx NAPI of a queue pair scheduled or running?
 * @u: the harness
 * @q: the queue pair
 *
 * Return: true if its poll is pending or its actor is inside it.
 */
bool bqlm_rvnet_polling(const struct bqlm_rvnet *u, unsigned int q)
{
	return u->q[q].pending || u->rc.actor[RVNET_NAPI0 + q].busy;
}

/* ------------------------------------------------------------------ */
/* The path: where the real code begins the model's next call */

/* The model's next call may run: its locks free, no poll it waits for */
static bool bqlm_rvnet_op_ready(struct bqlm_rc_actor *a)
{
	struct bqlm_rvnet *u = bqlm_rvnet_of(a);
	unsigned int q, op;

	if (!u->path || u->op >= u->cfg.nr_ops[u->path - 1])
		return true;
	op = u->cfg.ops[u->path - 1][u->op];
	for (q = 0; q < u->cfg.queues; q++) {
		if (op == BQLM_NIC_OP_STOP && u->q[q].lock.owner &&
		    u->q[q].lock.owner != a)
			return false;
		if (op == BQLM_NIC_OP_NAPI_OFF && bqlm_rvnet_polling(u, q))
			return false;
	}
	return true;
}

/*
 * The path's actor reaches a call that begins one of the model's calls in
 * @ops (a mask of BIT(enum bqlm_nic_op)): if it is the model's next call,
 * the step before it ends here; a call of the one running goes on; any
 * other is a call the model's list does not have there.
 */
static void bqlm_rvnet_op(struct bqlm_rvnet *u, struct bqlm_rc_actor *a,
			  unsigned int ops, const char *call)
{
	const unsigned char *list;
	unsigned int n, q, op;

	if (!a || bqlm_rvnet_id(a) != RVNET_PATH || !u->path)
		return;
	list = u->cfg.ops[u->path - 1];
	n = u->cfg.nr_ops[u->path - 1];
	if (u->op < n && (ops & BIT(list[u->op]))) {
		op = list[u->op];
		bqlm_rc_yield(a, &bqlm_rvnet_yields[RVNET_Y_OP + op],
			      bqlm_rvnet_op_ready);
		if (!bqlm_rvnet_op_ready(a))
			u->midstep = "a path's call waits in the middle of a step";
		u->op++;
		/* the queues run again: what BQL still counts is lost */
		for (q = 0; op == BQLM_NIC_OP_WAKE && q < u->cfg.queues; q++)
			u->ev.lost += u->q[q].orphans;
		return;
	}
	if (u->op && u->op <= n && (ops & BIT(list[u->op - 1])))
		return;
	/* the real code goes on: the schedule ends at this step */
	if (!u->why[0])
		scnprintf(u->why, sizeof(u->why),
			  "the %s path reaches %s where the model's next call is %s",
			  bqlm_nic_path_name(u->path - 1), call,
			  u->op < n ? bqlm_nic_op_name(list[u->op]) : "none");
}

/* ------------------------------------------------------------------ */
/* NAPI */

/**
 * bqlm_rvnet_napi_schedule() - __napi_schedule() in the compiled driver
 * @n: the NAPI, NAPI_STATE_SCHED set by napi_schedule_prep()
 *
 * A NAPI of the harness's device is marked pending, not put on the CPU's
 * poll list: its poll runs when the schedule says (a TX poll) or at the
 * next local_bh_enable() (an RX poll).
 */
void bqlm_rvnet_napi_schedule(struct napi_struct *n)
{
	struct bqlm_rvnet *u = bqlm_rvnet_cur;
	bool rx;
	int q = bqlm_rvnet_napi_q(u, n, &rx);

	if (q < 0) {
		__napi_schedule(n);
		return;
	}
	if (rx)
		u->q[q].rx_pending = true;
	else
		u->q[q].pending = true;
}

/**
 * bqlm_rvnet_napi_complete_done() - napi_complete_done() in the driver
 * @n: the NAPI
 * @work_done: what its poll did
 *
 * The kernel's function; if it scheduled the poll again
 * (NAPIF_STATE_MISSED), the NAPI is taken off the CPU's poll list and
 * marked pending, as bqlm_rvnet_napi_schedule() does.
 *
 * Return: what the kernel's function returned.
 */
bool bqlm_rvnet_napi_complete_done(struct napi_struct *n, int work_done)
{
	struct bqlm_rvnet *u = bqlm_rvnet_cur;
	bool done, rx;
	int q = bqlm_rvnet_napi_q(u, n, &rx);

	local_bh_disable();
	done = napi_complete_done(n, work_done);
	if (!done && q >= 0 && test_bit(NAPI_STATE_SCHED, &n->state) &&
	    !list_empty(&n->poll_list)) {
		local_irq_disable();
		list_del_init(&n->poll_list);
		local_irq_enable();
		if (rx)
			u->q[q].rx_pending = true;
		else
			u->q[q].pending = true;
	}
	local_bh_enable();
	return done;
}

/**
 * bqlm_rvnet_napi_disable() - napi_disable() in the compiled driver
 * @n: the NAPI
 *
 * In a path, begins the model's napi-off. napi_disable() waits for a
 * scheduled or running poll: the model's call runs only once there is
 * none, so a wait here is a harness failure, not a wait.
 */
void bqlm_rvnet_napi_disable(struct napi_struct *n)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	bool rx;
	int q = bqlm_rvnet_napi_q(u, n, &rx);

	bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_NAPI_OFF), "napi_disable()");
	if (a && q >= 0 && (rx ? u->q[q].rx_pending : bqlm_rvnet_polling(u, q)))
		bqlm_rc_fail(&u->rc, -EDEADLK,
			     "napi_disable() of q%d's %s NAPI waits for its poll in the middle of a step",
			     q, rx ? "RX" : "TX");
	napi_disable(n);
}

/**
 * bqlm_rvnet_napi_enable() - napi_enable() in the compiled driver
 * @n: the NAPI
 *
 * In a path, begins the model's napi-on.
 */
void bqlm_rvnet_napi_enable(struct napi_struct *n)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);

	bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_NAPI_ON), "napi_enable()");
	napi_enable(n);
}

/**
 * bqlm_rvnet_local_bh_enable() - local_bh_enable() in the compiled driver
 *
 * The kernel's; then the RX polls scheduled meanwhile run, as the
 * softirq it lets run would run them.
 */
void bqlm_rvnet_local_bh_enable(void)
{
	struct bqlm_rvnet *u = bqlm_rvnet_cur;
	unsigned int q;

	local_bh_enable();
	for (q = 0; u && u->dev && q < u->cfg.queues; q++)
		if (u->q[q].rx_pending)
			bqlm_rvnet_run_rx_poll(u, q);
}

/**
 * bqlm_rvnet_schedule_delayed_work() - schedule_delayed_work() in the driver
 * @dwork: the work (virtio_net's refill)
 * @delay: its delay
 *
 * virtio_net schedules its refill work only when an RX buffer could not
 * be allocated; the work would enable an RX NAPI outside the schedule.
 * On the harness's device it is a harness failure, and not scheduled.
 *
 * Return: what schedule_delayed_work() returns, false when not scheduled.
 */
bool bqlm_rvnet_schedule_delayed_work(struct delayed_work *dwork,
				      unsigned long delay)
{
	struct bqlm_rvnet *u = bqlm_rvnet_cur;

	if (!u || !u->dev)
		return schedule_delayed_work(dwork, delay);
	bqlm_rc_fail(&u->rc, -ENOMEM,
		     "virtio_net scheduled its refill work (an RX buffer allocation failed)");
	return false;
}

/* ------------------------------------------------------------------ */
/* The tx locks */

static bool bqlm_rvnet_lock_q(struct bqlm_rvnet *u, struct bqlm_rc_actor *a,
			      struct netdev_queue *txq, bool take)
{
	int q = bqlm_rvnet_txq_of(u, txq);
	struct bqlm_rc_lock *l;

	if (!a || q < 0)
		return false;
	l = &u->q[q].lock;
	if (!take) {
		WRITE_ONCE(txq->xmit_lock_owner, -1);
		bqlm_rc_unlock(a, l);
		return true;
	}
	/* every step starts only once the locks it takes are free */
	if (l->owner && l->owner != a)
		bqlm_rc_fail(&u->rc, -EDEADLK,
			     "%s waits for q%d's tx lock (held by %s) in the middle of a step",
			     a->name, q, l->owner->name);
	bqlm_rc_lock(a, l);
	WRITE_ONCE(txq->xmit_lock_owner, smp_processor_id());
	return true;
}

/* bqlm_rvnet_lock_q() for the calling actor, if it is one */
static bool bqlm_rvnet_lock_txq(struct netdev_queue *txq, bool take)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);

	return bqlm_rvnet_lock_q(u, a, txq, take);
}

/**
 * bqlm_rvnet_tx_lock() - __netif_tx_lock() in the compiled driver
 * @txq: the queue
 * @cpu: the CPU
 */
void bqlm_rvnet_tx_lock(struct netdev_queue *txq, int cpu)
{
	if (!bqlm_rvnet_lock_txq(txq, true))
		__netif_tx_lock(txq, cpu);
}

/**
 * bqlm_rvnet_tx_trylock() - __netif_tx_trylock() in the compiled driver
 * @txq: the queue
 *
 * Return: true if the lock was taken.
 */
bool bqlm_rvnet_tx_trylock(struct netdev_queue *txq)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	int q = bqlm_rvnet_txq_of(u, txq);

	if (!a || q < 0)
		return __netif_tx_trylock(txq);
	if (u->q[q].lock.owner && u->q[q].lock.owner != a)
		return false;
	return bqlm_rvnet_lock_q(u, a, txq, true);
}

/**
 * bqlm_rvnet_tx_unlock() - __netif_tx_unlock() in the compiled driver
 * @txq: the queue
 */
void bqlm_rvnet_tx_unlock(struct netdev_queue *txq)
{
	if (!bqlm_rvnet_lock_txq(txq, false))
		__netif_tx_unlock(txq);
}

/**
 * bqlm_rvnet_tx_lock_bh() - __netif_tx_lock_bh() in the compiled driver
 * @txq: the queue
 *
 * virtnet_tx_pause() takes it to stop the queue, virtnet_tx_resume() to
 * wake it: in a path, the model's stop or wake begins.
 */
void bqlm_rvnet_tx_lock_bh(struct netdev_queue *txq)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);

	bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_STOP) | BIT(BQLM_NIC_OP_WAKE),
		      "__netif_tx_lock_bh()");
	if (!bqlm_rvnet_lock_q(u, a, txq, true)) {
		__netif_tx_lock_bh(txq);
		return;
	}
	local_bh_disable();
}

/**
 * bqlm_rvnet_tx_unlock_bh() - __netif_tx_unlock_bh() in the compiled driver
 * @txq: the queue
 */
void bqlm_rvnet_tx_unlock_bh(struct netdev_queue *txq)
{
	if (bqlm_rvnet_lock_txq(txq, false))
		local_bh_enable();
	else
		__netif_tx_unlock_bh(txq);
}

/**
 * bqlm_rvnet_netif_tx_lock_bh() - netif_tx_lock_bh() in the compiled driver
 * @dev: the device
 *
 * Every queue's harness lock for an actor, then the kernel's (which no
 * actor holds). The freeze takes it to detach the device (the model's
 * stop), the restore to attach it (wake).
 */
void bqlm_rvnet_netif_tx_lock_bh(struct net_device *dev)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	unsigned int q;

	if (a && u->dev == dev) {
		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_STOP) |
			      BIT(BQLM_NIC_OP_WAKE), "netif_tx_lock_bh()");
		for (q = 0; q < u->cfg.queues; q++)
			bqlm_rvnet_lock_q(u, a, bqlm_rvnet_txq(u, q), true);
	}
	netif_tx_lock_bh(dev);
}

/**
 * bqlm_rvnet_netif_tx_unlock_bh() - netif_tx_unlock_bh() in the driver
 * @dev: the device
 */
void bqlm_rvnet_netif_tx_unlock_bh(struct net_device *dev)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	unsigned int q;

	netif_tx_unlock_bh(dev);
	for (q = 0; a && u->dev == dev && q < u->cfg.queues; q++)
		bqlm_rvnet_lock_q(u, a, bqlm_rvnet_txq(u, q), false);
}

/* ------------------------------------------------------------------ */
/* The BQL calls, as 6.12's <linux/netdevice.h> has them */

static struct bqlm_rvnet_pkt *bqlm_rvnet_newest(struct bqlm_rvnet *u, int q)
{
	struct bqlm_rvnet_q *rq;

	if (q < 0 || !u->q[q].npkts)
		return NULL;
	rq = &u->q[q];
	return &rq->ring[rq->npkts - 1];
}

/**
 * bqlm_rvnet_sent_queue() - __netdev_tx_sent_queue(), as 6.12's, with the
 *	stack's model steps
 * @txq: the queue
 * @bytes: the packet's length
 * @xmit_more: netdev_xmit_more()
 *
 * Return: whether the doorbell is due, as the kernel's.
 */
bool bqlm_rvnet_sent_queue(struct netdev_queue *txq, unsigned int bytes,
			   bool xmit_more)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	int q = bqlm_rvnet_txq_of(u, txq);
	bool split = a && q >= 0 && bqlm_rvnet_id(a) == RVNET_STACK;
	struct bqlm_rvnet_pkt *p = split ? bqlm_rvnet_newest(u, q) : NULL;

	dql_queued(&txq->dql, bytes);
	if (p && !(p->flags & (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE)))
		p->flags |= BQLM_NIC_PKT_SENT;
	if (xmit_more)
		return netif_tx_queue_stopped(txq);
	if (likely(dql_avail(&txq->dql) >= 0))
		return true;
	if (split)
		bqlm_rc_yield(a, &bqlm_rvnet_yields[RVNET_Y_XOFF], NULL);
	/* paired with READ_ONCE() from dev_watchdog() */
	WRITE_ONCE(txq->trans_start, jiffies);
	/* paired with smp_mb() from dev_watchdog() */
	smp_mb__before_atomic();
	set_bit(__QUEUE_STATE_STACK_XOFF, &txq->state);
	if (split)
		bqlm_rc_yield(a, &bqlm_rvnet_yields[RVNET_Y_RECHECK], NULL);
	/* STACK_XOFF before the re-check; pairs with the completion's */
	smp_mb__after_atomic();
	if (unlikely(dql_avail(&txq->dql) >= 0))
		clear_bit(__QUEUE_STATE_STACK_XOFF, &txq->state);
	return true;
}

/**
 * bqlm_rvnet_completed_queue() - netdev_tx_completed_queue(), as 6.12's,
 *	with the tx poll's model steps; an over-completion is reported, not
 *	made
 * @txq: the queue
 * @pkts: packets
 * @bytes: their bytes
 */
void bqlm_rvnet_completed_queue(struct netdev_queue *txq, unsigned int pkts,
				unsigned int bytes)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	int q = bqlm_rvnet_txq_of(u, txq);
	bool poll = a && q >= 0 && bqlm_rvnet_id(a) == RVNET_NAPI0 + q;

	if (unlikely(!bytes))
		return;
	if (poll) {
		u->q[q].napi_pkts = pkts;
		u->q[q].napi_bytes = bytes;
		u->q[q].napi_held = u->q[q].held;
		bqlm_rc_yield(a, &bqlm_rvnet_yields[RVNET_Y_NAPI_DQL], NULL);
	}
	bqlm_rc_dql_completed(txq, bytes, q >= 0 ? &u->ev : NULL);
	if (q >= 0 && a && !poll && bqlm_rvnet_id(a) != RVNET_PATH)
		u->completing = true;
	if (poll) {
		u->q[q].napi_held = 0;
		u->q[q].held = 0;
		bqlm_rc_yield(a, &bqlm_rvnet_yields[RVNET_Y_NAPI_WAKE], NULL);
	}
	bqlm_rc_completed_wake(txq);
}

/**
 * bqlm_rvnet_reset_queue() - netdev_tx_reset_queue() in the driver
 * @txq: the queue
 *
 * In a path, begins the model's reset. What the ring still holds of the
 * packets sent before it is stale, and the drained ones are forgotten.
 */
void bqlm_rvnet_reset_queue(struct netdev_queue *txq)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	int q = bqlm_rvnet_txq_of(u, txq);
	unsigned int i;

	if (q >= 0) {
		struct bqlm_rvnet_q *rq = &u->q[q];

		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_RESET),
			      "netdev_tx_reset_queue()");
		for (i = 0; i < rq->npkts; i++)
			if (rq->ring[i].flags & BQLM_NIC_PKT_SENT)
				rq->ring[i].flags = (rq->ring[i].flags &
						     ~BQLM_NIC_PKT_SENT) |
						    BQLM_NIC_PKT_STALE;
		rq->orphan_bytes = 0;
		rq->orphans = 0;
	}
	netdev_tx_reset_queue(txq);
}

/* ------------------------------------------------------------------ */
/* Where the packets go */

/* Take packet @skb off queue pair @q's ring; its index there, or -1. */
static int bqlm_rvnet_unring(struct bqlm_rvnet *u, unsigned int q,
			     const struct sk_buff *skb,
			     struct bqlm_rvnet_pkt *out)
{
	struct bqlm_rvnet_q *rq = &u->q[q];
	unsigned int i;

	for (i = 0; i < rq->npkts; i++)
		if (rq->ring[i].skb == skb)
			break;
	if (i == rq->npkts)
		return -1;
	*out = rq->ring[i];
	memmove(&rq->ring[i], &rq->ring[i + 1],
		(rq->npkts - i - 1) * sizeof(rq->ring[0]));
	rq->npkts--;
	memset(&rq->ring[rq->npkts], 0, sizeof(rq->ring[0]));
	return i;
}

/* Which queue pair's ring holds @skb, or -1. */
static int bqlm_rvnet_ring_of(const struct bqlm_rvnet *u,
			      const struct sk_buff *skb)
{
	unsigned int q, i;

	for (q = 0; q < u->cfg.queues; q++)
		for (i = 0; i < u->q[q].npkts; i++)
			if (u->q[q].ring[i].skb == skb)
				return q;
	return -1;
}

/**
 * bqlm_rvnet_add_outbuf() - virtqueue_add_outbuf() in the compiled driver
 * @vq: the virtqueue
 * @sg: the buffer's scatterlist
 * @num: its entries
 * @data: the token (the skb)
 * @gfp: allocation flags
 *
 * A packet the stack hands over goes on the harness's view of the ring.
 *
 * Return: what the kernel's function returned.
 */
int bqlm_rvnet_add_outbuf(struct virtqueue *vq, struct scatterlist sg[],
			  unsigned int num, void *data, gfp_t gfp)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);
	int q = bqlm_rvnet_vq_q(u, vq);
	int ret = virtqueue_add_outbuf(vq, sg, num, data, gfp);
	struct bqlm_rvnet_q *rq;

	if (ret || q < 0)
		return ret;
	rq = &u->q[q];
	if (!a || bqlm_rvnet_id(a) != RVNET_STACK || num != RVNET_DESCS ||
	    data != u->skb[u->sent + 1] || rq->npkts == BQLM_NIC_MAX_RING) {
		bqlm_rc_fail(&u->rc, -EINVAL,
			     "a buffer of %u descriptors (%p) added to q%d by %s, not the stack's packet %u",
			     num, data, q, a ? a->name : "no actor", u->sent + 1);
		return ret;
	}
	rq->ring[rq->npkts].skb = data;
	rq->ring[rq->npkts].flags = 0;
	rq->ring[rq->npkts].done = 0;
	rq->npkts++;
	return ret;
}

/**
 * bqlm_rvnet_detach_unused_buf() - virtqueue_detach_unused_buf() in the
 *	driver
 * @vq: the virtqueue
 *
 * The freeze's free_unused_bufs(): on a send virtqueue, in a path, the
 * model's drain begins.
 *
 * Return: what the kernel's function returned.
 */
void *bqlm_rvnet_detach_unused_buf(struct virtqueue *vq)
{
	struct bqlm_rvnet *u;
	struct bqlm_rc_actor *a = bqlm_rvnet_self(&u);

	if (bqlm_rvnet_vq_q(u, vq) >= 0)
		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_DRAIN),
			      "virtqueue_detach_unused_buf()");
	return virtqueue_detach_unused_buf(vq);
}

/**
 * bqlm_rvnet_napi_consume_skb() - napi_consume_skb() in the driver
 * @skb: a packet free_old_xmit() took off its virtqueue
 * @budget: the poll's budget, 0 outside NAPI
 *
 * The packet leaves the harness's ring (in order: the device used it),
 * with what the model counts of it; then the kernel's function, with
 * bottom halves off as in a softirq.
 */
void bqlm_rvnet_napi_consume_skb(struct sk_buff *skb, int budget)
{
	struct bqlm_rvnet *u = bqlm_rvnet_cur;
	struct bqlm_rc_actor *a = u ? bqlm_rc_self(&u->rc) : NULL;
	struct bqlm_rvnet_pkt p;
	int q = u ? bqlm_rvnet_ring_of(u, skb) : -1;

	if (q >= 0) {
		if (bqlm_rvnet_unring(u, q, skb, &p) != 0 || !p.done)
			bqlm_rc_fail(&u->rc, -EINVAL,
				     "q%d: packet %u freed before those used before it",
				     q, bqlm_rvnet_pkt_id(u, skb));
		if ((p.flags & (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE)) ==
		    BQLM_NIC_PKT_SENT && a &&
		    bqlm_rvnet_id(a) == RVNET_NAPI0 + q)
			u->q[q].held += skb->len;
		if (p.flags & BQLM_NIC_PKT_STALE)
			u->ev.stale_bytes += skb->len;
		else if (!(p.flags & BQLM_NIC_PKT_SENT))
			u->ev.unsent_skbs++;
	} else if (u && u->dev && bqlm_rvnet_pkt_id(u, skb)) {
		bqlm_rc_fail(&u->rc, -EINVAL, "packet %u freed twice",
			     bqlm_rvnet_pkt_id(u, skb));
	}
	local_bh_disable();
	napi_consume_skb(skb, budget);
	local_bh_enable();
}

/**
 * bqlm_rvnet_kfree_skb() - dev_kfree_skb() in the compiled driver
 * @skb: the skb
 *
 * virtnet_sq_free_unused_buf() frees a packet still on a send virtqueue
 * without a completion: the drain. A packet sent since the last reset is
 * an orphan: its bytes stay counted by BQL.
 */
void bqlm_rvnet_kfree_skb(struct sk_buff *skb)
{
	struct bqlm_rvnet *u = bqlm_rvnet_cur;
	struct bqlm_rvnet_pkt p;
	int q = u ? bqlm_rvnet_ring_of(u, skb) : -1;

	if (q >= 0 && bqlm_rvnet_unring(u, q, skb, &p) >= 0 &&
	    (p.flags & (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE)) ==
	    BQLM_NIC_PKT_SENT) {
		u->q[q].orphan_bytes += skb->len;
		u->q[q].orphans++;
	}
	consume_skb(skb);
}

/* ------------------------------------------------------------------ */
/* What the fake virtio device tells the harness */

static struct bqlm_rvnet *bqlm_rvnet_vdev_user(struct bqlm_vdev *d,
					       struct bqlm_rc_actor **a)
{
	struct bqlm_rvnet *u;

	*a = bqlm_rvnet_self(&u);
	return u && u->vdev == d ? u : NULL;
}

/* A send virtqueue's index is 2 * q + 1 (rx, tx, rx, tx, ..., cvq). */
static int bqlm_rvnet_vq_index_q(const struct bqlm_rvnet *u,
				 unsigned int index)
{
	return index % 2 && index / 2 < u->cfg.queues ? (int)(index / 2) : -1;
}

static void bqlm_rvnet_vdev_reset(struct bqlm_vdev *d)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rvnet *u = bqlm_rvnet_vdev_user(d, &a);

	if (u && u->path == BQLM_NIC_PATH_SUSPEND + 1)
		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_DMA_OFF),
			      "virtio_reset_device()");
}

static void bqlm_rvnet_vdev_find_vqs(struct bqlm_vdev *d)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rvnet *u = bqlm_rvnet_vdev_user(d, &a);

	if (u && u->path == BQLM_NIC_PATH_RESUME + 1)
		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_DMA_ON), "find_vqs()");
}

static void bqlm_rvnet_vdev_vq_reset(struct bqlm_vdev *d, unsigned int index)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rvnet *u = bqlm_rvnet_vdev_user(d, &a);

	if (u && bqlm_rvnet_vq_index_q(u, index) >= 0)
		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_DMA_OFF),
			      "disable_vq_and_reset()");
}

static void bqlm_rvnet_vdev_vq_reset_done(struct bqlm_vdev *d,
					  unsigned int index)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rvnet *u = bqlm_rvnet_vdev_user(d, &a);

	if (u && bqlm_rvnet_vq_index_q(u, index) >= 0)
		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_DRAIN),
			      "the recycling of the unused buffers");
}

static void bqlm_rvnet_vdev_vq_enable(struct bqlm_vdev *d, unsigned int index)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rvnet *u = bqlm_rvnet_vdev_user(d, &a);

	if (u && bqlm_rvnet_vq_index_q(u, index) >= 0)
		bqlm_rvnet_op(u, a, BIT(BQLM_NIC_OP_DMA_ON),
			      "enable_vq_after_reset()");
}

/* The doorbell covers every packet on the ring. */
static void bqlm_rvnet_vdev_notify(struct bqlm_vdev *d, unsigned int index)
{
	struct bqlm_rc_actor *a;
	struct bqlm_rvnet *u = bqlm_rvnet_vdev_user(d, &a);
	int q = u ? bqlm_rvnet_vq_index_q(u, index) : -1;
	unsigned int i, waiting = 0;

	if (q < 0)
		return;
	for (i = 0; i < u->q[q].npkts; i++) {
		u->q[q].ring[i].flags |= BQLM_NIC_PKT_KICKED;
		waiting += !u->q[q].ring[i].done;
	}
	if (bqlm_vdev_kicked(d, index) != waiting)
		bqlm_rc_fail(&u->rc, -EIO,
			     "q%d: the device sees %u chains to use, the harness %u packets",
			     q, bqlm_vdev_kicked(d, index), waiting);
}

/* What the fake virtio device of the harness tells it */
const struct bqlm_vdev_ops bqlm_rvnet_vdev_ops = {
	.reset		= bqlm_rvnet_vdev_reset,
	.find_vqs	= bqlm_rvnet_vdev_find_vqs,
	.vq_reset	= bqlm_rvnet_vdev_vq_reset,
	.vq_reset_done	= bqlm_rvnet_vdev_vq_reset_done,
	.vq_enable	= bqlm_rvnet_vdev_vq_enable,
	.notify		= bqlm_rvnet_vdev_notify,
};
