// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real veth.c under the ring-consumer model's schedules: a
 * pair's life, made as `ip link add type veth` makes it, and torn down
 * when every actor has finished (see harness.h, docs/real-veth.md).
 */
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/pkt_sched.h>
#include <net/rtnetlink.h>
#include <net/sch_generic.h>

#include "harness.h"

/* ethtool -K: @dev's wanted features with @on set and @off cleared */
static void bqlm_rveth_features(struct net_device *dev,
				netdev_features_t on, netdev_features_t off)
{
	dev->wanted_features = (dev->wanted_features | on) & ~off;
	netdev_update_features(dev);
}

/* ip link del: the link ops' dellink takes both devices (rtnl held). */
static void bqlm_rveth_del(struct bqlm_rveth *u)
{
	LIST_HEAD(list);

	if (!u->dev)
		return;
	u->ops->link_ops->dellink(u->dev, &list);
	unregister_netdevice_many(&list);
	u->dev = NULL;
	u->peer = NULL;
	u->ring = NULL;
}

static void bqlm_rveth_release(struct bqlm_rveth *u)
{
	rtnl_lock();
	if (u->qdisc) {
		struct netdev_queue *txq = netdev_get_tx_queue(u->dev, 0);

		rcu_assign_pointer(txq->qdisc_sleeping, u->old_qdisc);
		rcu_assign_pointer(txq->qdisc, u->old_qdisc);
		qdisc_put(u->qdisc);
		u->qdisc = NULL;
	}
	bqlm_rveth_del(u);
	rtnl_unlock();
	bqlm_rc_free_skbs(u->skb, BQLM_TUN_MAX_PACKETS, u->sent);
}

/* `ip link add type veth`: rtnl_newlink()'s part for a new link */
static int bqlm_rveth_newlink(struct bqlm_rveth *u)
{
	const struct rtnl_link_ops *ops = u->ops->link_ops;
	struct nlattr *tb[IFLA_MAX + 1] = {};
	struct net_device *dev;
	int err;

	dev = rtnl_create_link(&init_net, "bqlmveth%d", NET_NAME_ENUM, ops,
			       tb, NULL);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	err = ops->newlink(&init_net, dev, tb, NULL, NULL);
	if (err) {
		if (dev->reg_state == NETREG_UNINITIALIZED)
			free_netdev(dev);
		return err;
	}
	u->dev = dev;
	u->peer = u->ops->peer(dev);
	return rtnl_configure_link(dev, NULL, 0, NULL);
}

/**
 * bqlm_rveth_up() - a fresh real veth pair in the model's initial state
 * @u: the harness, every actor idle
 *
 * The pair as `ip link add type veth` makes it; TSO off on the sending
 * device and GRO on its peer (ethtool -K), so that veth_xmit() hands the
 * packets to the peer's NAPI through its ring; both up; the peer's ring
 * resized to the model's and its NAPI's weight (the poll's budget) set to
 * the model's; a qdisc on the sending txq (veth has noqueue),
 * which holds nothing (the harness's stack requeues).
 *
 * Return: 0 or a negative errno.
 */
int bqlm_rveth_up(struct bqlm_rveth *u)
{
	struct netdev_queue *txq;
	unsigned int i;
	int ret;

	memset(u->where, 0, sizeof(u->where));
	memset(u->shadow, 0, sizeof(u->shadow));
	memset(u->cpu, 0, sizeof(u->cpu));
	memset(u->rcu, 0, sizeof(u->rcu));
	memset(&u->ev, 0, sizeof(u->ev));
	u->sent = 0;
	u->delivered = 0;
	u->pending = false;
	u->nr = 0;
	u->holding = 0;

	rtnl_lock();
	ret = bqlm_rveth_newlink(u);
	if (!ret) {
		bqlm_rveth_features(u->dev, 0, NETIF_F_ALL_TSO);
		bqlm_rveth_features(u->peer, NETIF_F_GRO, 0);
		ret = dev_open(u->peer, NULL) ?: dev_open(u->dev, NULL);
	}
	if (!ret) {
		u->ring = u->ops->ring(u->peer, 0);
		ret = ptr_ring_resize(u->ring, u->cfg.ring, GFP_KERNEL, NULL);
		/* the model's budget: veth's NAPI_POLL_WEIGHT by default */
		u->ops->napi(u->peer, 0)->weight = u->cfg.budget;
	}
	if (!ret) {
		txq = netdev_get_tx_queue(u->dev, 0);
		u->qdisc = qdisc_create_dflt(txq, &bqlm_rc_qdisc_ops,
					     TC_H_ROOT, NULL);
		if (!u->qdisc) {
			ret = -ENOMEM;
		} else {
			/*
			 * As the sleeping one too: the linkwatch's
			 * dev_activate() of the carrier that veth_open()
			 * turned on puts that one in place, later.
			 */
			u->old_qdisc = rtnl_dereference(txq->qdisc_sleeping);
			rcu_assign_pointer(txq->qdisc_sleeping, u->qdisc);
			rcu_assign_pointer(txq->qdisc, u->qdisc);
		}
	}
	rtnl_unlock();
	/* the peer's NAPI enabled (GRO), idle, and the ring the model's */
	if (!ret && (test_bit(NAPI_STATE_SCHED,
			      &u->ops->napi(u->peer, 0)->state) ||
		     u->ring->size != u->cfg.ring))
		ret = -EIO;
	for (i = 1; !ret && i <= u->cfg.packets; i++) {
		u->skb[i] = bqlm_rc_new_skb(u->dev, NET_IP_ALIGN,
					     RVETH_PKT_LEN, i, ETH_P_802_EX1);
		if (!u->skb[i])
			ret = -ENOMEM;
	}
	if (ret)
		bqlm_rveth_release(u);
	return ret;
}

/**
 * bqlm_rveth_down() - let every actor finish, then delete the pair
 * @u: the harness
 *
 * After a schedule that ends in a stall (the txq stopped for good, a
 * packet kept by the qdisc), the txq is woken so that its CPU can finish.
 *
 * Return: 0, or -EBUSY if an actor could not finish (the harness failed).
 */
int bqlm_rveth_down(struct bqlm_rveth *u)
{
	unsigned int rounds;
	bool busy = true, ran;

	for (rounds = 0; rounds < 256 && busy && !u->rc.error; rounds++) {
		busy = u->pending;
		ran = bqlm_rc_resume_busy(&u->rc, false, &busy);
		if (!ran && u->pending && !u->rc.actor[RVETH_NAPI0].busy)
			ran = !bqlm_rc_start(&u->rc.actor[RVETH_NAPI0],
					     bqlm_rveth_do_poll, 0);
		/*
		 * A stall: a packet the qdisc keeps for a txq stopped for
		 * good. Deleting the pair would purge the qdisc; the
		 * teardown wakes the txq instead, so that the CPU finishes.
		 */
		if (!ran && busy && bqlm_rveth_stopped(u)) {
			netif_tx_wake_queue(netdev_get_tx_queue(u->dev, 0));
			ran = true;
		}
		if (busy && !ran)
			break;
	}
	if (bqlm_rc_finished(&u->rc, busy))
		return -EBUSY;
	bqlm_rveth_release(u);
	return 0;
}
