/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what one virtio_net variant's object includes before the
 * tree's (patched) drivers/net/virtio_net.c: see real/virtio_net/variant.h
 * and docs/real-virtio_net.md.
 *
 * After every header virtio_net.c includes, the calls at which the model's
 * steps begin or end are redirected to the harness (real/virtio_net/hooks.c),
 * in the text of virtio_net.c only: the kernel's inline functions compiled
 * before are untouched, and a hook called outside the harness's actors
 * does what the kernel's function does.
 */
#ifndef _BQLM_REAL_VIRTIO_NET_GLUE_H
#define _BQLM_REAL_VIRTIO_NET_GLUE_H

#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/virtio.h>
#include <linux/virtio_net.h>
#include <linux/bpf.h>
#include <linux/bpf_trace.h>
#include <linux/scatterlist.h>
#include <linux/if_vlan.h>
#include <linux/slab.h>
#include <linux/cpu.h>
#include <linux/average.h>
#include <linux/filter.h>
#include <linux/kernel.h>
#include <linux/dim.h>
#include <net/route.h>
#include <net/xdp.h>
#include <net/net_failover.h>
#include <net/netdev_rx_queue.h>
#include <net/netdev_queues.h>
#include <net/xdp_sock_drv.h>

#include "hooks.h"

/*
 * The harness loads and unloads the driver (struct bqlm_rvirtio_net_ops
 * .init and .exit): nothing registers at boot, and the functions stay.
 */
#undef __init
#define __init
#undef __exit
#define __exit
#undef module_init
#define module_init(fn)							\
	static initcall_t bqlm_rvnet_initcall __used __initdata = fn
#undef module_exit
#define module_exit(fn)							\
	static exitcall_t __used bqlm_rvnet_exitcall = fn
/* One copy of each module parameter is enough: their defaults are used. */
#undef module_param
#define module_param(name, type, perm)					\
	static_assert(sizeof(name) && sizeof(#type) && (perm) >= 0)
#undef MODULE_DEVICE_TABLE
#define MODULE_DEVICE_TABLE(type, name)	static_assert(sizeof(name))

/* NAPI: the schedule decides when a scheduled poll runs */
#define __napi_schedule			bqlm_rvnet_napi_schedule
#define napi_complete_done		bqlm_rvnet_napi_complete_done
#define napi_disable			bqlm_rvnet_napi_disable
#define napi_enable			bqlm_rvnet_napi_enable
#define local_bh_enable			bqlm_rvnet_local_bh_enable
#define schedule_delayed_work		bqlm_rvnet_schedule_delayed_work

/*
 * The tx locks: held across steps (the stack's HARD_TX_LOCK over its XOFF
 * handshake, the tx NAPI poll over its completion), so an actor takes the
 * harness's lock instead.
 */
#define __netif_tx_lock			bqlm_rvnet_tx_lock
#define __netif_tx_trylock		bqlm_rvnet_tx_trylock
#define __netif_tx_unlock		bqlm_rvnet_tx_unlock
#define __netif_tx_lock_bh		bqlm_rvnet_tx_lock_bh
#define __netif_tx_unlock_bh		bqlm_rvnet_tx_unlock_bh
#define netif_tx_lock_bh		bqlm_rvnet_netif_tx_lock_bh
#define netif_tx_unlock_bh		bqlm_rvnet_netif_tx_unlock_bh

/* The BQL calls, as <linux/netdevice.h> has them, with the model's steps */
#define __netdev_tx_sent_queue		bqlm_rvnet_sent_queue
#define netdev_tx_completed_queue	bqlm_rvnet_completed_queue
#define netdev_tx_reset_queue		bqlm_rvnet_reset_queue

/* Where the packets go: the ring, a completion, a drain */
#define virtqueue_add_outbuf		bqlm_rvnet_add_outbuf
#define virtqueue_detach_unused_buf	bqlm_rvnet_detach_unused_buf
#define napi_consume_skb		bqlm_rvnet_napi_consume_skb
#undef dev_kfree_skb
#define dev_kfree_skb(skb)		bqlm_rvnet_kfree_skb(skb)

#endif /* _BQLM_REAL_VIRTIO_NET_GLUE_H */
