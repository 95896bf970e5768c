/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real veth.c under the ring-consumer model's schedules:
 * what the veth variants' objects (the tree's drivers/net/veth.c patched
 * as real/patches/veth/series says, compiled with real/veth/glue.h by the
 * objects scripts/kunit.sh generates) and the harness share.
 */
#ifndef _BQLM_REAL_VETH_HOOKS_H
#define _BQLM_REAL_VETH_HOOKS_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>

struct ptr_ring;
struct rtnl_link_ops;

/**
 * struct bqlm_rveth_ops - one variant's veth.c, as the harness calls it
 * @link_ops: its struct rtnl_link_ops (veth_link_ops): what `ip link add
 *	type veth` creates the pair with
 * @start_xmit: veth_xmit()
 * @ring: the ptr_ring of receive queue @q of a veth device (rq->xdp_ring)
 * @napi: its NAPI (rq->xdp_napi)
 * @masked: its rx_notify_masked
 * @peer: a veth device's peer
 */
struct bqlm_rveth_ops {
	const struct rtnl_link_ops *link_ops;
	netdev_tx_t (*start_xmit)(struct sk_buff *skb, struct net_device *dev);
	struct ptr_ring *(*ring)(struct net_device *dev, unsigned int q);
	struct napi_struct *(*napi)(struct net_device *dev, unsigned int q);
	bool *(*masked)(struct net_device *dev, unsigned int q);
	struct net_device *(*peer)(struct net_device *dev);
};

/* Every variant's ops, and BQLM_RVETH_VARIANTS (generated) */
#include <veth-variants.h>

/* The hooks of real/veth/glue.h */
int bqlm_rveth_produced(struct ptr_ring *r, void *ptr, int ret);
void *bqlm_rveth_consumed(struct ptr_ring *r, void *ptr);
void bqlm_rveth_tx_stop_queue(struct netdev_queue *txq);
bool bqlm_rveth_tx_queue_stopped(const struct netdev_queue *txq);
void bqlm_rveth_rcv_done(void);
void bqlm_rveth_napi_schedule(struct napi_struct *n);
bool bqlm_rveth_napi_complete_done(struct napi_struct *n, int work_done);
void bqlm_rveth_rcu_read_lock(void);
void bqlm_rveth_rcu_read_unlock(void);
bool bqlm_rveth_rcu_held(void);

#endif /* _BQLM_REAL_VETH_HOOKS_H */
