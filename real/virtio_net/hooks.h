/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real virtio_net.c under the model's schedules: what the
 * virtio_net variants' objects (the tree's drivers/net/virtio_net.c
 * patched as real/patches/virtio_net/series says, compiled with
 * real/virtio_net/glue.h by the objects scripts/kunit.sh generates) and
 * the harness share.
 */
#ifndef _BQLM_REAL_VIRTIO_NET_HOOKS_H
#define _BQLM_REAL_VIRTIO_NET_HOOKS_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/virtio.h>

struct virtio_driver;

/**
 * struct bqlm_rvirtio_net_ops - one variant's virtio_net.c, as the harness
 *	calls it
 * @driver: its struct virtio_driver (virtio_net_driver)
 * @init: virtio_net_driver_init(): the CPU hotplug states and the driver
 *	on the virtio bus, as the module's load makes them
 * @exit: virtio_net_driver_exit()
 * @netdev: the net_device of a probed virtio device (vi->dev)
 * @sq_vq: the send virtqueue of queue pair @q
 * @sq_napi: its NAPI
 * @rq_napi: the receive queue's NAPI of queue pair @q
 * @sq_reset: sq->reset, the flag virtnet_tx_pause() sets
 * @xsk_bind: virtnet_sq_bind_xsk_pool() of queue pair @q with no pool (the
 *	unbind, which runs the same virtqueue reset as a bind)
 */
struct bqlm_rvirtio_net_ops {
	struct virtio_driver *driver;
	int (*init)(void);
	void (*exit)(void);
	struct net_device *(*netdev)(struct virtio_device *vdev);
	struct virtqueue *(*sq_vq)(struct net_device *dev, unsigned int q);
	struct napi_struct *(*sq_napi)(struct net_device *dev, unsigned int q);
	struct napi_struct *(*rq_napi)(struct net_device *dev, unsigned int q);
	bool (*sq_reset)(struct net_device *dev, unsigned int q);
	int (*xsk_bind)(struct net_device *dev, unsigned int q);
};

/* Every variant's ops, and BQLM_RVIRTIO_NET_VARIANTS (generated) */
#include <virtio_net-variants.h>

/* The hooks of real/virtio_net/glue.h */
void bqlm_rvnet_napi_schedule(struct napi_struct *n);
bool bqlm_rvnet_napi_complete_done(struct napi_struct *n, int work_done);
void bqlm_rvnet_napi_disable(struct napi_struct *n);
void bqlm_rvnet_napi_enable(struct napi_struct *n);
void bqlm_rvnet_napi_consume_skb(struct sk_buff *skb, int budget);
void bqlm_rvnet_kfree_skb(struct sk_buff *skb);
void bqlm_rvnet_completed_queue(struct netdev_queue *txq, unsigned int pkts,
				unsigned int bytes);
bool bqlm_rvnet_sent_queue(struct netdev_queue *txq, unsigned int bytes,
			   bool xmit_more);
void bqlm_rvnet_reset_queue(struct netdev_queue *txq);
void bqlm_rvnet_tx_lock(struct netdev_queue *txq, int cpu);
bool bqlm_rvnet_tx_trylock(struct netdev_queue *txq);
void bqlm_rvnet_tx_unlock(struct netdev_queue *txq);
void bqlm_rvnet_tx_lock_bh(struct netdev_queue *txq);
void bqlm_rvnet_tx_unlock_bh(struct netdev_queue *txq);
void bqlm_rvnet_netif_tx_lock_bh(struct net_device *dev);
void bqlm_rvnet_netif_tx_unlock_bh(struct net_device *dev);
int bqlm_rvnet_add_outbuf(struct virtqueue *vq, struct scatterlist sg[],
			  unsigned int num, void *data, gfp_t gfp);
void *bqlm_rvnet_detach_unused_buf(struct virtqueue *vq);
void bqlm_rvnet_local_bh_enable(void);
bool bqlm_rvnet_schedule_delayed_work(struct delayed_work *dwork,
				      unsigned long delay);

#endif /* _BQLM_REAL_VIRTIO_NET_HOOKS_H */
