/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real virtio_net.c under the NIC model's schedules: the
 * harness's own state, shared by its rooms (see docs/real-virtio_net.md):
 *
 *   ../fake/virtio_dev.c	the fake virtio device and its transport
 *   hooks.c			the redirected calls: NAPI, the tx locks,
 *				the BQL calls, where the packets go
 *   actors.c			the actors' work, one model action on the
 *				real code, the actions it enables
 *   device.c			a device's life
 *   view.c			the real state in the model's terms
 *   session.c			the harness beside the model (struct
 *				bqlm_rc_target), the variants by name
 *
 * A virtio-net device on the fake transport, bound on the real virtio bus
 * by the variant's own virtio_net_driver (loaded by the harness as its
 * module would be) and opened with dev_open(). Packed rings, no indirect
 * descriptors, no event indices: the features offered are VERSION_1,
 * RING_PACKED, RING_RESET and VIRTIO_NET_F_CSUM (for the scatter-gather a
 * packet of two descriptors needs). Each packet is 1000 bytes in two
 * descriptors: the virtio-net header pushed before 200 linear bytes, and
 * one page fragment of 800. The send virtqueue has 2 + MAX_SKB_FRAGS + 2 *
 * (ring - 1) + 1 descriptors, so that check_sq_full_and_disable() stops
 * the queue when the model's ring of @ring packets is full, and a resize
 * (ethtool -G) goes to one descriptor less and back, which leaves that
 * unchanged.
 *
 * Actors (struct bqlm_rc threads), one per model actor:
 *  - stack: the qdisc's dequeue of the model's next packet (its queue and
 *    xmit_more), HARD_TX_LOCK, netdev_start_xmit(), the unlock;
 *  - dev0, dev1: the device uses the next notified chain of a send
 *    virtqueue and raises its notification (skb_xmit_done());
 *  - napi0, napi1: the send queue's NAPI poll (virtnet_poll_tx()), as
 *    net_rx_action() runs it once it is scheduled;
 *  - rx0, rx1: an RX interrupt: the receive queue's NAPI is scheduled and
 *    its poll (virtnet_poll()) runs at once, with its tx cleanup
 *    (virtnet_poll_cleantx());
 *  - path: ifdown (dev_close(): __LINK_STATE_START off, ndo_stop), ifup,
 *    ethtool -G (virtnet_set_ringparam()) or an XSK pool (un)bind
 *    (virtnet_sq_bind_xsk_pool()), and freeze and restore
 *    (virtio_device_freeze(), virtio_device_restore()).
 * The yields (real/virtio_net/glue.h) are where the model's steps end:
 * __netdev_tx_sent_queue() over the limit, before set_bit(STACK_XOFF)
 * and before its smp_mb(); netdev_tx_completed_queue() in the tx poll,
 * before and after dql_completed(); and in a path, where the real code
 * begins the model's next call (enum bqlm_nic_op): napi_disable(),
 * the tx lock of virtnet_tx_pause() or of netif_device_detach() (stop) and
 * of virtnet_tx_resume() or netif_device_attach() (wake), the
 * transport's queue or device reset (dma-off), its return or the first
 * virtqueue_detach_unused_buf() (drain), netdev_tx_reset_queue() (reset),
 * the transport's queue enable or find_vqs (dma-on), napi_enable().
 *
 * A scheduled NAPI is never on the CPU's poll list: __napi_schedule() only
 * marks it pending for the schedule, and napi_complete_done()'s own
 * reschedule (NAPIF_STATE_MISSED) is taken off the list again. The RX
 * NAPI's poll runs at the local_bh_enable() that follows its scheduling,
 * as net_rx_action() would; a TX poll waits for the schedule (ksoftirqd
 * may defer it).
 */
#ifndef _BQLM_REAL_VIRTIO_NET_HARNESS_H
#define _BQLM_REAL_VIRTIO_NET_HARNESS_H

#include <bqlm/invariants.h>
#include <bqlm/nic.h>

#include "../core/rc.h"
#include "../fake/virtio_dev.h"
#include "hooks.h"

/* a packet: 200 linear bytes and a fragment of 800 */
#define RVNET_LINEAR		200
#define RVNET_FRAG		800
#define RVNET_PKT_LEN		(RVNET_LINEAR + RVNET_FRAG)
/* its descriptors: the linear part with the pushed header, the fragment */
#define RVNET_DESCS		2
/* the receive virtqueues' size (their buffers are never used) */
#define RVNET_RX_NUM		8

enum {
	RVNET_STACK,
	RVNET_DEV0,
	RVNET_DEV1,
	RVNET_NAPI0,
	RVNET_NAPI1,
	RVNET_RX0,
	RVNET_RX1,
	RVNET_PATH,
	RVNET_NR_ACTORS
};

/**
 * enum bqlm_rvnet_reconfig - what the model's reconfiguration runs
 * @RVNET_RESIZE: ethtool -G: virtnet_set_ringparam(), virtnet_tx_resize()
 * @RVNET_XSK: virtnet_sq_bind_xsk_pool() (virtqueue_reset())
 */
enum bqlm_rvnet_reconfig {
	RVNET_RESIZE,
	RVNET_XSK,
};

/**
 * enum bqlm_rvnet_yield - the yield points, each where a model step of its
 *	actor ends (bqlm_rvnet_yields[]: its text and the model's phase)
 * @RVNET_Y_XOFF: the stack: over the limit, STACK_XOFF next
 * @RVNET_Y_RECHECK: the stack: STACK_XOFF set, smp_mb() and re-check next
 * @RVNET_Y_NAPI_DQL: the tx poll: dql_completed() next
 * @RVNET_Y_NAPI_WAKE: the tx poll: smp_mb(), STACK_XOFF wake next
 * @RVNET_Y_OP: the path: the real code begins call (enum bqlm_nic_op)
 *	RVNET_Y_OP + op next
 * @RVNET_NR_YIELDS: how many
 */
enum bqlm_rvnet_yield {
	RVNET_Y_XOFF,
	RVNET_Y_RECHECK,
	RVNET_Y_NAPI_DQL,
	RVNET_Y_NAPI_WAKE,
	RVNET_Y_OP,
	RVNET_NR_YIELDS = RVNET_Y_OP + BQLM_NIC_NR_OPS
};

extern const struct bqlm_rc_yield bqlm_rvnet_yields[RVNET_NR_YIELDS];

/**
 * struct bqlm_rvnet_pkt - a packet on a send virtqueue, as the hooks saw it
 * @skb: the packet
 * @flags: BQLM_NIC_PKT_* (the ground truth: sent, stale, kicked)
 * @done: the device used it
 */
struct bqlm_rvnet_pkt {
	struct sk_buff *skb;
	unsigned char flags;
	unsigned char done;
};

/**
 * struct bqlm_rvnet_q - a queue pair's send side, as the harness knows it
 * @ring: the packets on the send virtqueue, oldest first
 * @npkts: how many
 * @lock: the harness's tx lock (txq->_xmit_lock for an actor)
 * @pending: the tx NAPI is scheduled and its poll has not started
 * @rx_pending: the RX NAPI is scheduled and its poll has not run
 * @napi_pkts: packets the running tx poll reported
 * @napi_bytes: their bytes
 * @napi_held: bytes of packets sent since the last reset that it holds
 * @held: what it took off the ring so far (the same, being counted)
 * @orphan_bytes: bytes sent since the last reset freed by a drain
 * @orphans: packets behind them
 */
struct bqlm_rvnet_q {
	struct bqlm_rvnet_pkt ring[BQLM_NIC_MAX_RING];
	unsigned int npkts;
	struct bqlm_rc_lock lock;
	bool pending;
	bool rx_pending;
	unsigned int napi_pkts;
	unsigned int napi_bytes;
	unsigned int napi_held;
	unsigned int held;
	unsigned int orphan_bytes;
	unsigned int orphans;
};

/**
 * struct bqlm_rvnet - the harness
 * @rc: the scheduler and actors
 * @cfg: the model's configuration (its @now is the step's jiffies)
 * @ops: the variant
 * @reconfig: what the model's reconfiguration runs
 * @vdev: the fake virtio device, NULL between devices
 * @dev: its net_device
 * @tx_num: the send virtqueues' size at the start
 * @base: the jiffies value the device's DQLs were made at
 * @page: the page the packets' fragments are in
 * @skb: each packet, by id (1 to cfg.packets), with the harness's reference
 * @q: the send side of each queue pair
 * @sent: packets handed to ndo_start_xmit()
 * @batch_no: xmit_more batches the stack has finished
 * @batch_pos: packets of the current batch sent
 * @xmit_q: the queue of the transmit in progress
 * @xmit_more: its xmit_more
 * @path: the path in progress + 1, 0 for none
 * @op: the index of its next call in the model's list
 * @up: the stack may transmit (the model's "up")
 * @closed: ifdown ran, ifup is due
 * @suspended: frozen, restore is due
 * @left: per path kind the cycles left (close, reconfig, timeout, suspend)
 * @ev: what the current step did
 * @evq: the queue the current step acted on
 * @completing: the current step ran a dql_completed() outside the tx poll
 * @midstep: a wait in the middle of a step, or NULL
 * @why: the first call of a path the model's list does not have there
 *	(the real code cannot take the schedule), or empty
 */
struct bqlm_rvnet {
	struct bqlm_rc rc;
	struct bqlm_nic_cfg cfg;
	const struct bqlm_rvirtio_net_ops *ops;
	enum bqlm_rvnet_reconfig reconfig;
	struct bqlm_vdev *vdev;
	struct net_device *dev;
	unsigned int tx_num;
	unsigned long base;
	struct page *page;
	struct sk_buff *skb[BQLM_NIC_MAX_PACKETS + 1];
	struct bqlm_rvnet_q q[BQLM_NIC_MAX_QUEUES];
	unsigned int sent;
	unsigned int batch_no;
	unsigned int batch_pos;
	unsigned int xmit_q;
	bool xmit_more;
	unsigned int path;
	unsigned int op;
	bool up;
	bool closed;
	bool suspended;
	unsigned char left[4];
	struct bqlm_inv_step ev;
	unsigned int evq;
	bool completing;
	const char *midstep;
	char why[BQLM_RC_MSG];
};

static inline struct bqlm_rvnet *bqlm_rvnet_of(const struct bqlm_rc_actor *a)
{
	return container_of(a->rc, struct bqlm_rvnet, rc);
}

static inline unsigned int bqlm_rvnet_id(const struct bqlm_rc_actor *a)
{
	return a - a->rc->actor;
}

/*
 * The device has its queues: between a freeze and its restore virtio_net
 * has freed them (virtnet_free_queues()), and its send queues' NAPIs too.
 */
static inline bool bqlm_rvnet_has_queues(const struct bqlm_rvnet *u)
{
	return u->vdev && u->vdev->q[1].vq;
}

/* real/virtio_net/hooks.c */
extern struct bqlm_rvnet *bqlm_rvnet_cur;
struct bqlm_rc_actor *bqlm_rvnet_self(struct bqlm_rvnet **up);
struct netdev_queue *bqlm_rvnet_txq(const struct bqlm_rvnet *u, unsigned int q);
int bqlm_rvnet_txq_of(const struct bqlm_rvnet *u,
		      const struct netdev_queue *txq);
unsigned int bqlm_rvnet_pkt_id(const struct bqlm_rvnet *u,
			       const struct sk_buff *skb);
bool bqlm_rvnet_room(const struct bqlm_rvnet *u, unsigned int q);
bool bqlm_rvnet_polling(const struct bqlm_rvnet *u, unsigned int q);
extern const struct bqlm_vdev_ops bqlm_rvnet_vdev_ops;

/* real/virtio_net/device.c and real/virtio_net/actors.c */
int bqlm_rvnet_up(struct bqlm_rvnet *u);
int bqlm_rvnet_down(struct bqlm_rvnet *u);
int bqlm_rvnet_step(struct bqlm_rvnet *u, unsigned int action);
unsigned int bqlm_rvnet_enabled(const struct bqlm_rvnet *u,
				unsigned int *actions);
const char *bqlm_rvnet_parked_at(const struct bqlm_rvnet *u,
				 unsigned int action);

/* real/virtio_net/device.c */
void bqlm_rvnet_run_tx_poll(struct bqlm_rvnet *u, unsigned int q);
void bqlm_rvnet_run_rx_poll(struct bqlm_rvnet *u, unsigned int q);

/* real/virtio_net/actors.c */
void bqlm_rvnet_do_napi(struct bqlm_rc_actor *a);

/* real/virtio_net/view.c */
void bqlm_rvnet_view(const struct bqlm_rvnet *u, struct bqlm_nic *v);
bool bqlm_rvnet_compare(const struct bqlm_rvnet *u,
			const struct bqlm_nic *model, struct bqlm_nic *view,
			char *what, size_t len, unsigned long long *real,
			unsigned long long *mval);

#endif /* _BQLM_REAL_VIRTIO_NET_HARNESS_H */
