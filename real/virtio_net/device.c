// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real virtio_net.c under the NIC model's schedules: a
 * device's life, probed on the fake virtio device, opened, and torn down
 * when every actor has finished (see harness.h,
 * docs/real-virtio_net.md).
 */
#include <linux/bottom_half.h>
#include <linux/gfp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/virtio_config.h>
#include <uapi/linux/virtio_ids.h>
#include <uapi/linux/virtio_net.h>

#include "harness.h"

/* What the device offers: see harness.h */
#define RVNET_FEATURES	(BIT_ULL(VIRTIO_F_VERSION_1) |			\
			 BIT_ULL(VIRTIO_F_RING_PACKED) |		\
			 BIT_ULL(VIRTIO_F_RING_RESET) |			\
			 BIT_ULL(VIRTIO_NET_F_CSUM))

/* A packet: 200 linear bytes (its id after the Ethernet header), 800 more */
static struct sk_buff *bqlm_rvnet_new_skb(struct bqlm_rvnet *u,
					  unsigned int pkt)
{
	struct sk_buff *skb = bqlm_rc_new_skb(u->dev, NET_SKB_PAD, RVNET_LINEAR,
					      pkt, ETH_P_IP);

	if (!skb)
		return NULL;
	get_page(u->page);
	skb_fill_page_desc(skb, 0, u->page, 0, RVNET_FRAG);
	skb->len += RVNET_FRAG;
	skb->data_len += RVNET_FRAG;
	skb->truesize += PAGE_SIZE;
	return skb;
}

/**
 * bqlm_rvnet_run_tx_poll() - a scheduled tx NAPI poll, as net_rx_action()
 *	runs it
 * @u: the harness
 * @q: the queue pair
 *
 * In the tx NAPI actor it yields where the model's steps end; outside an
 * actor (when the device is made) it runs through.
 */
void bqlm_rvnet_run_tx_poll(struct bqlm_rvnet *u, unsigned int q)
{
	struct napi_struct *n = u->ops->sq_napi(u->dev, q);

	u->q[q].pending = false;
	if (test_bit(NAPI_STATE_SCHED, &n->state))
		n->poll(n, n->weight);
	u->q[q].napi_pkts = 0;
	u->q[q].napi_bytes = 0;
	u->q[q].napi_held = 0;
	u->q[q].held = 0;
}

/**
 * bqlm_rvnet_run_rx_poll() - a scheduled RX NAPI poll, with bottom halves
 *	off as in the softirq
 * @u: the harness
 * @q: the queue pair
 */
void bqlm_rvnet_run_rx_poll(struct bqlm_rvnet *u, unsigned int q)
{
	struct napi_struct *n = u->ops->rq_napi(u->dev, q);

	u->q[q].rx_pending = false;
	local_bh_disable();
	if (test_bit(NAPI_STATE_SCHED, &n->state))
		n->poll(n, n->weight);
	local_bh_enable();
}

/* Free what the device and the packets were, the device off the bus */
static void bqlm_rvnet_release(struct bqlm_rvnet *u)
{
	if (u->vdev) {
		bqlm_vdev_unregister(u->vdev);
		u->vdev = NULL;
	}
	u->dev = NULL;
	bqlm_rc_free_skbs(u->skb, BQLM_NIC_MAX_PACKETS, u->sent);
	if (u->page)
		put_page(u->page);
	u->page = NULL;
}

/* The model's initial state: open, no poll scheduled, the DQLs fresh */
static int bqlm_rvnet_settle(struct bqlm_rvnet *u)
{
	const struct dql *d0 = &bqlm_rvnet_txq(u, 0)->dql;
	unsigned int q;

	for (q = 0; q < u->cfg.queues; q++) {
		const struct dql *d = &bqlm_rvnet_txq(u, q)->dql;

		if (u->q[q].pending)
			bqlm_rvnet_run_tx_poll(u, q);
		if (u->q[q].pending || u->q[q].rx_pending)
			return -EBUSY;
		/* all made at one jiffies value, as the model's */
		if (d->last_reap != d0->last_reap ||
		    d->slack_start_time != d0->last_reap ||
		    d->num_queued || d->num_completed)
			return -EAGAIN;
	}
	u->base = d0->last_reap;
	u->cfg.now = u->base;
	return 0;
}

/**
 * bqlm_rvnet_up() - a fresh real virtio-net device in the model's initial
 *	state
 * @u: the harness, every actor idle
 *
 * The fake virtio device goes on the bus, where the variant's driver
 * (loaded by the session) probes it; dev_open() brings it up, and the
 * polls the open scheduled run. Then the model's cfg.now is the jiffies
 * value its DQLs were made at.
 *
 * Return: 0 or a negative errno.
 */
int bqlm_rvnet_up(struct bqlm_rvnet *u)
{
	struct bqlm_vdev *d;
	unsigned int q, i, tries;
	int ret;

	for (tries = 0; tries < 5; tries++) {
		memset(u->q, 0, sizeof(u->q));
		for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++)
			bqlm_rc_lock_init(&u->q[q].lock, q ? "q1 tx lock" :
							     "q0 tx lock");
		memset(&u->ev, 0, sizeof(u->ev));
		u->sent = 0;
		u->batch_no = 0;
		u->batch_pos = 0;
		u->xmit_q = 0;
		u->xmit_more = false;
		u->path = 0;
		u->op = 0;
		u->up = true;
		u->closed = false;
		u->suspended = false;
		u->left[0] = u->cfg.stops;
		u->left[1] = u->cfg.reconfigs;
		u->left[2] = u->cfg.timeouts;
		u->left[3] = u->cfg.suspends;
		u->midstep = NULL;
		u->why[0] = 0;

		d = bqlm_vdev_alloc(VIRTIO_ID_NET, RVNET_FEATURES);
		if (!d)
			return -ENOMEM;
		for (q = 0; q < u->cfg.queues; q++) {
			d->vq_num[2 * q] = RVNET_RX_NUM;
			d->vq_num[2 * q + 1] = u->tx_num;
		}
		d->config_len = sizeof(struct virtio_net_config);
		d->ops = &bqlm_rvnet_vdev_ops;
		d->priv = u;
		ret = bqlm_vdev_register(d);
		if (ret)
			return ret;
		u->vdev = d;
		if (d->vdev.dev.driver != &u->ops->driver->driver) {
			bqlm_rvnet_release(u);
			return -ENODEV;	/* another driver took it */
		}
		u->dev = u->ops->netdev(&d->vdev);
		u->page = alloc_page(GFP_KERNEL);
		ret = u->dev && u->page ? 0 : -ENOMEM;
		if (!ret) {
			rtnl_lock();
			ret = dev_open(u->dev, NULL);
			rtnl_unlock();
		}
		if (!ret)
			ret = bqlm_rvnet_settle(u);
		for (i = 1; !ret && i <= u->cfg.packets; i++) {
			u->skb[i] = bqlm_rvnet_new_skb(u, i);
			if (!u->skb[i])
				ret = -ENOMEM;
		}
		if (!ret)
			return 0;
		bqlm_rvnet_release(u);
		if (ret != -EAGAIN)
			return ret;
	}
	return -EAGAIN;
}

/* Run the first runnable busy actor, or a pending tx poll; false if none */
static bool bqlm_rvnet_drain_one(struct bqlm_rvnet *u)
{
	unsigned int i, q;

	for (i = 0; i < RVNET_NR_ACTORS; i++) {
		struct bqlm_rc_actor *a = &u->rc.actor[i];

		if (a->busy && bqlm_rc_runnable(a))
			return !bqlm_rc_resume(a);
	}
	for (q = 0; q < u->cfg.queues; q++)
		if (u->q[q].pending && !u->q[q].lock.owner)
			return !bqlm_rc_start(&u->rc.actor[RVNET_NAPI0 + q],
					      bqlm_rvnet_do_napi, q);
	return false;
}

/**
 * bqlm_rvnet_down() - let every actor finish, bring the device back up if
 *	a path left it down, then take it off the bus
 * @u: the harness
 *
 * Return: 0, or -EBUSY if an actor could not finish (the harness failed).
 */
int bqlm_rvnet_down(struct bqlm_rvnet *u)
{
	unsigned int i, rounds;
	bool busy = true;

	for (rounds = 0; rounds < 256 && busy && !u->rc.error; rounds++) {
		busy = false;
		for (i = 0; i < RVNET_NR_ACTORS; i++)
			busy |= u->rc.actor[i].busy;
		/* a scheduled poll must run before napi_disable() can */
		for (i = 0; i < u->cfg.queues; i++)
			busy |= u->q[i].pending;
		if (busy && !bqlm_rvnet_drain_one(u))
			break;
	}
	if (bqlm_rc_finished(&u->rc, busy))
		return -EBUSY;
	bqlm_rvnet_cur = NULL;	/* the kernel's own calls from here */
	if (u->suspended)
		virtio_device_restore(&u->vdev->vdev);
	bqlm_rvnet_release(u);
	bqlm_rvnet_cur = u;
	return 0;
}
