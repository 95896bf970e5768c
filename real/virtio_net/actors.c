// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real virtio_net.c under the NIC model's schedules: the
 * actors' work, one model action on the real code and the actions the
 * real code enables (see harness.h, docs/real-virtio_net.md).
 */
#include <linux/bottom_half.h>
#include <linux/ethtool.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/virtio.h>
#include <linux/virtio_net.h>

#include "harness.h"

/* The virtio-net header virtio_net pushes before a packet (VERSION_1) */
#define RVNET_HDR	sizeof(struct virtio_net_hdr_mrg_rxbuf)

/* The send virtqueue of queue pair @q on the device: rx, tx, rx, tx, ... */
static unsigned int bqlm_rvnet_sq_index(unsigned int q)
{
	return 2 * q + 1;
}

/* The queue of the stack's next packet, as the model maps it */
static unsigned int bqlm_rvnet_next_q(const struct bqlm_rvnet *u)
{
	if (u->cfg.map == BQLM_NIC_MAP_Q0)
		return 0;
	return u->batch_no % u->cfg.queues;
}

/* Its xmit_more: not the last of a batch, nor the last packet */
static bool bqlm_rvnet_next_more(const struct bqlm_rvnet *u)
{
	return u->batch_pos + 1 < u->cfg.batch &&
	       u->sent + 1 < u->cfg.packets;
}

static bool bqlm_rvnet_napi_on(const struct bqlm_rvnet *u, unsigned int q)
{
	return bqlm_rvnet_has_queues(u) &&
	       !test_bit(NAPI_STATE_NPSVC, &u->ops->sq_napi(u->dev, q)->state);
}

/* ------------------------------------------------------------------ */
/* The actors' work */

/*
 * The stack: the qdisc hands the model's next packet to the driver with
 * its xmit_more, under HARD_TX_LOCK (dev_hard_start_xmit()).
 */
static void bqlm_rvnet_do_xmit(struct bqlm_rc_actor *a)
{
	struct bqlm_rvnet *u = bqlm_rvnet_of(a);
	struct sk_buff *skb = u->skb[u->sent + 1];
	struct netdev_queue *txq = bqlm_rvnet_txq(u, u->xmit_q);
	bool more = u->xmit_more;
	netdev_tx_t ret;

	skb_set_queue_mapping(skb, u->xmit_q);
	bqlm_rvnet_tx_lock(txq, smp_processor_id());
	ret = netdev_start_xmit(skb, u->dev, txq, more);
	bqlm_rvnet_tx_unlock(txq);
	if (ret != NETDEV_TX_OK)
		bqlm_rc_fail(&u->rc, -EIO, "ndo_start_xmit(pkt %u) returned %d",
			     u->sent + 1, ret);
	u->sent++;
	/* dev_hard_start_xmit() ends the batch on a stopped queue */
	if (more && !netif_xmit_stopped(txq)) {
		u->batch_pos++;
	} else {
		u->batch_pos = 0;
		u->batch_no++;
	}
	u->xmit_more = false;
}

/* The device uses the next notified chain of a send virtqueue. */
static void bqlm_rvnet_do_dma(struct bqlm_rc_actor *a)
{
	struct bqlm_rvnet *u = bqlm_rvnet_of(a);
	unsigned int q = a->arg, i;
	struct bqlm_rvnet_q *rq = &u->q[q];
	u64 addr = 0;
	int ret;

	for (i = 0; i < rq->npkts && rq->ring[i].done; i++)
		;
	if (i == rq->npkts || !(rq->ring[i].flags & BQLM_NIC_PKT_KICKED)) {
		bqlm_rc_fail(&u->rc, -EINVAL,
			     "the device of q%u uses a chain the harness has no notified packet for",
			     q);
		return;
	}
	rq->ring[i].done = 1;
	ret = bqlm_vdev_complete(u->vdev, bqlm_rvnet_sq_index(q), &addr);
	if (ret < 0)
		bqlm_rc_fail(&u->rc, ret, "the device of q%u used nothing", q);
	else if (phys_to_virt(addr) != rq->ring[i].skb->data - RVNET_HDR)
		bqlm_rc_fail(&u->rc, -EIO,
			     "the device of q%u used another buffer than packet %u's",
			     q, bqlm_rvnet_pkt_id(u, rq->ring[i].skb));
}

/**
 * bqlm_rvnet_do_napi() - the tx NAPI actor's work: the scheduled poll
 * @a: the actor of queue pair @a->arg
 */
void bqlm_rvnet_do_napi(struct bqlm_rc_actor *a)
{
	bqlm_rvnet_run_tx_poll(bqlm_rvnet_of(a), a->arg);
}

/* An RX interrupt: the RX NAPI scheduled, its poll at once. */
static void bqlm_rvnet_do_rx(struct bqlm_rc_actor *a)
{
	struct bqlm_rvnet *u = bqlm_rvnet_of(a);
	unsigned int q = a->arg;

	if (!napi_schedule_prep(u->ops->rq_napi(u->dev, q))) {
		bqlm_rc_fail(&u->rc, -EINVAL,
			     "q%u's RX NAPI cannot be scheduled", q);
		return;
	}
	bqlm_rvnet_run_rx_poll(u, q);
}

/* ethtool -G: the send virtqueues to the other of their two sizes */
static int bqlm_rvnet_resize(struct bqlm_rvnet *u)
{
	const struct ethtool_ops *ops = u->dev->ethtool_ops;
	struct kernel_ethtool_ringparam kring = {};
	struct ethtool_ringparam ring = {};

	ops->get_ringparam(u->dev, &ring, &kring, NULL);
	ring.tx_pending = ring.tx_pending == u->tx_num ? u->tx_num - 1 :
							 u->tx_num;
	return ops->set_ringparam(u->dev, &ring, &kring, NULL);
}

/* A reset path, from its request to its end. */
static void bqlm_rvnet_do_path(struct bqlm_rc_actor *a)
{
	struct bqlm_rvnet *u = bqlm_rvnet_of(a);
	struct net_device *dev = u->dev;
	unsigned int q;
	int ret = 0;

	switch (a->arg) {
	case BQLM_NIC_PATH_CLOSE:
		/* ip link set down: the qdiscs deactivated, then ndo_stop */
		rtnl_lock();
		dev_close(dev);
		rtnl_unlock();
		break;
	case BQLM_NIC_PATH_OPEN:
		rtnl_lock();
		ret = dev_open(dev, NULL);
		rtnl_unlock();
		break;
	case BQLM_NIC_PATH_RECONFIG:
		rtnl_lock();
		if (u->reconfig == RVNET_RESIZE)
			ret = bqlm_rvnet_resize(u);
		for (q = 0; u->reconfig == RVNET_XSK && q < u->cfg.queues; q++)
			ret = ret ?: u->ops->xsk_bind(dev, q);
		rtnl_unlock();
		break;
	case BQLM_NIC_PATH_SUSPEND:
		ret = virtio_device_freeze(&u->vdev->vdev);
		break;
	case BQLM_NIC_PATH_RESUME:
		ret = virtio_device_restore(&u->vdev->vdev);
		break;
	default:
		ret = -EOPNOTSUPP;
	}
	if (ret)
		bqlm_rc_fail(&u->rc, ret, "the %s path failed: %d",
			     bqlm_nic_path_name(a->arg), ret);
	if (a->arg == BQLM_NIC_PATH_OPEN || a->arg == BQLM_NIC_PATH_RESUME)
		u->up = true;
	u->path = 0;
	u->op = 0;
}

/* ------------------------------------------------------------------ */
/* Model actions on the real code */

/* May the stack hand the driver its next packet? (model: can_xmit) */
static bool bqlm_rvnet_can_xmit(const struct bqlm_rvnet *u)
{
	unsigned int q = bqlm_rvnet_next_q(u);

	return u->up && u->sent < u->cfg.packets &&
	       !netif_xmit_stopped(bqlm_rvnet_txq(u, q)) &&
	       !u->q[q].lock.owner && bqlm_rvnet_room(u, q);
}

/* May an RX interrupt clean queue pair @q? (model: can_cleantx) */
static bool bqlm_rvnet_can_rx(const struct bqlm_rvnet *u, unsigned int q)
{
	return u->cfg.rx_cleanup && u->up && !u->path &&
	       bqlm_rvnet_napi_on(u, q) && !u->q[q].lock.owner &&
	       u->q[q].npkts && u->q[q].ring[0].done;
}

/* May reset path @p start? (model: can_start) */
static bool bqlm_rvnet_can_start(const struct bqlm_rvnet *u, unsigned int p)
{
	bool xmit_idle = !u->rc.actor[RVNET_STACK].busy;

	if (u->path || u->rc.actor[RVNET_PATH].busy)
		return false;
	switch (p) {
	case BQLM_NIC_PATH_CLOSE:
		return u->up && u->left[0] && xmit_idle;
	case BQLM_NIC_PATH_OPEN:
		return u->closed;
	case BQLM_NIC_PATH_RECONFIG:
		return u->up && u->left[1];
	case BQLM_NIC_PATH_SUSPEND:
		return u->up && u->left[3] && xmit_idle;
	case BQLM_NIC_PATH_RESUME:
		return u->suspended;
	default:
		return false;	/* the tx timeout: virtio_net only logs it */
	}
}

/* The request of path @p: what the model's start step sets. */
static void bqlm_rvnet_request(struct bqlm_rvnet *u, unsigned int p)
{
	u->path = p + 1;
	u->op = 0;
	switch (p) {
	case BQLM_NIC_PATH_CLOSE:
		u->left[0]--;
		u->up = false;
		u->closed = true;
		break;
	case BQLM_NIC_PATH_OPEN:
		u->closed = false;
		break;
	case BQLM_NIC_PATH_RECONFIG:
		u->left[1]--;
		break;
	case BQLM_NIC_PATH_SUSPEND:
		u->left[3]--;
		u->up = false;
		u->suspended = true;
		break;
	default:
		u->suspended = false;
	}
}

/**
 * bqlm_rvnet_step() - run one model action on the real code
 * @u: the harness
 * @action: a model action number (BQLM_X_ACTION())
 *
 * Return: 0, -EAGAIN if the actor is parked waiting (nothing run),
 * -EINVAL for an action the real code cannot take now or at all, or the
 * harness error.
 */
int bqlm_rvnet_step(struct bqlm_rvnet *u, unsigned int action)
{
	unsigned int arg = BQLM_X_ARG(action);
	struct bqlm_rc_actor *act = u->rc.actor;
	int ret;

	memset(&u->ev, 0, sizeof(u->ev));
	u->completing = false;
	u->evq = arg < u->cfg.queues ? arg : 0;
	switch (BQLM_X_KIND(action)) {
	case BQLM_NIC_A_XMIT:
		if (act[RVNET_STACK].busy) {
			u->evq = u->xmit_q;
			ret = bqlm_rc_resume(&act[RVNET_STACK]);
			break;
		}
		if (!bqlm_rvnet_can_xmit(u))
			return -EINVAL;
		u->xmit_q = bqlm_rvnet_next_q(u);
		u->xmit_more = bqlm_rvnet_next_more(u);
		u->evq = u->xmit_q;
		ret = bqlm_rc_start(&act[RVNET_STACK], bqlm_rvnet_do_xmit, 0);
		break;
	case BQLM_NIC_A_DMA:
		if (arg >= u->cfg.queues ||
		    !bqlm_vdev_kicked(u->vdev, bqlm_rvnet_sq_index(arg)))
			return -EINVAL;
		ret = bqlm_rc_start(&act[RVNET_DEV0 + arg], bqlm_rvnet_do_dma,
				    arg);
		break;
	case BQLM_NIC_A_NAPI:
		if (arg >= u->cfg.queues)
			return -EINVAL;
		if (act[RVNET_NAPI0 + arg].busy) {
			ret = bqlm_rc_resume(&act[RVNET_NAPI0 + arg]);
			break;
		}
		if (!u->q[arg].pending || u->q[arg].lock.owner)
			return -EINVAL;
		ret = bqlm_rc_start(&act[RVNET_NAPI0 + arg], bqlm_rvnet_do_napi,
				    arg);
		break;
	case BQLM_NIC_A_CLEANTX:
		if (arg >= u->cfg.queues || !bqlm_rvnet_can_rx(u, arg))
			return -EINVAL;
		ret = bqlm_rc_start(&act[RVNET_RX0 + arg], bqlm_rvnet_do_rx, arg);
		break;
	case BQLM_NIC_A_PATH:
		if (arg == BQLM_NIC_NR_PATHS) {
			if (!act[RVNET_PATH].busy)
				return -EINVAL;
			ret = bqlm_rc_resume(&act[RVNET_PATH]);
			break;
		}
		if (arg > BQLM_NIC_NR_PATHS || !bqlm_rvnet_can_start(u, arg))
			return -EINVAL;
		bqlm_rvnet_request(u, arg);
		ret = bqlm_rc_start(&act[RVNET_PATH], bqlm_rvnet_do_path, arg);
		break;
	default:
		return -EINVAL;
	}
	return ret ? ret : u->rc.error;
}

/**
 * bqlm_rvnet_enabled() - the model actions the real code can take now
 * @u: the harness
 * @actions: receives them, in the model's order
 *
 * A parked actor can go on if its condition holds (its path's next call
 * has its lock free and no poll to wait for); an idle one can start if
 * the real state lets it: the stack when the device is up, a packet is
 * left, the qdisc would hand it (the queue not stopped) and the driver
 * has the tx lock free and room; the device when a send virtqueue has a
 * notified chain; a tx poll when its NAPI is scheduled and the tx lock
 * free; an RX interrupt where the model's RX cleanup runs (see
 * docs/real-virtio_net.md); a path as the model's bounds allow.
 *
 * Return: how many.
 */
unsigned int bqlm_rvnet_enabled(const struct bqlm_rvnet *u,
				unsigned int *actions)
{
	const struct bqlm_rc_actor *act = u->rc.actor;
	unsigned int n = 0, q, p;

	if (act[RVNET_STACK].busy ? bqlm_rc_runnable(&act[RVNET_STACK]) :
	    bqlm_rvnet_can_xmit(u))
		actions[n++] = BQLM_X_ACTION(BQLM_NIC_A_XMIT, 0);
	for (q = 0; q < u->cfg.queues; q++) {
		const struct bqlm_rc_actor *np = &act[RVNET_NAPI0 + q];

		if (bqlm_vdev_kicked(u->vdev, bqlm_rvnet_sq_index(q)))
			actions[n++] = BQLM_X_ACTION(BQLM_NIC_A_DMA, q);
		if (np->busy ? bqlm_rc_runnable(np) :
		    u->q[q].pending && !u->q[q].lock.owner)
			actions[n++] = BQLM_X_ACTION(BQLM_NIC_A_NAPI, q);
		if (bqlm_rvnet_can_rx(u, q))
			actions[n++] = BQLM_X_ACTION(BQLM_NIC_A_CLEANTX, q);
	}
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++)
		if (bqlm_rvnet_can_start(u, p))
			actions[n++] = BQLM_X_ACTION(BQLM_NIC_A_PATH, p);
	if (act[RVNET_PATH].busy && bqlm_rc_runnable(&act[RVNET_PATH]))
		actions[n++] = BQLM_X_ACTION(BQLM_NIC_A_PATH,
					       BQLM_NIC_NR_PATHS);
	return n;
}

/**
 * bqlm_rvnet_parked_at() - where the actor of a model action is parked
 * @u: the harness
 * @action: the action
 *
 * Return: the yield point's name, "idle" or "running".
 */
const char *bqlm_rvnet_parked_at(const struct bqlm_rvnet *u,
				 unsigned int action)
{
	unsigned int arg = BQLM_X_ARG(action) % BQLM_NIC_MAX_QUEUES;
	const struct bqlm_rc_actor *a;

	switch (BQLM_X_KIND(action)) {
	case BQLM_NIC_A_XMIT:
		a = &u->rc.actor[RVNET_STACK];
		break;
	case BQLM_NIC_A_DMA:
		a = &u->rc.actor[RVNET_DEV0 + arg];
		break;
	case BQLM_NIC_A_NAPI:
		a = &u->rc.actor[RVNET_NAPI0 + arg];
		break;
	case BQLM_NIC_A_CLEANTX:
		a = &u->rc.actor[RVNET_RX0 + arg];
		break;
	default:
		a = &u->rc.actor[RVNET_PATH];
		break;
	}
	return bqlm_rc_parked_at(a);
}
