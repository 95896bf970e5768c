/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real veth.c under the ring-consumer model's schedules
 * (the tun model's veth profiles): the harness's own state, shared by its
 * rooms (see docs/real-veth.md):
 *
 *   hooks.c		the redirected calls: the produce, the stop, the
 *			consume, NAPI, RCU
 *   actors.c		the actors' work, one model action on the real
 *			code, the actions it enables
 *   device.c		a pair's life
 *   view.c		the real state in the model's terms
 *   session.c		the harness beside the model (struct
 *			bqlm_rc_target), the variants by name
 *
 * A veth pair of the variant's veth.c, made as `ip link add type veth`
 * makes it (rtnl_create_link() and the link ops' newlink, then
 * rtnl_configure_link()), with TSO off on the sending device and GRO on
 * its peer (ethtool -K), so that the peer's NAPI consumes (veth_xmit()
 * produces into the peer's rq->xdp_ring), both up, and a qdisc on the
 * sending device's txq that holds nothing (the harness's stack requeues).
 * The peer's ring is resized from VETH_RING_SIZE to the model's ring
 * (ptr_ring_resize()).
 *
 * Actors (struct bqlm_rc threads), one per model actor:
 *  - cpu0, cpu1: the stack of a producer CPU: the qdisc's check of the
 *    txq, the packet handed to the real veth_xmit() (LLTX: no tx lock),
 *    and after NETDEV_TX_BUSY the qdisc keeping it until the txq runs;
 *  - napi0: the peer's NAPI poll (veth_poll()), run once scheduled.
 * The yields (real/veth/glue.h) are where the model's steps end
 * (enum bqlm_rveth_yield, each naming the model's phase of its actor).
 */
#ifndef _BQLM_REAL_VETH_HARNESS_H
#define _BQLM_REAL_VETH_HARNESS_H

#include <linux/if_ether.h>

#include <bqlm/invariants.h>
#include <bqlm/tun.h>

#include "../core/rc.h"
#include "hooks.h"

/* a packet: the minimum Ethernet frame, its id after the header */
#define RVETH_PKT_LEN		ETH_ZLEN

enum {
	RVETH_CPU0,
	RVETH_CPU1,
	RVETH_NAPI0,
	RVETH_NR_ACTORS
};

/**
 * enum bqlm_rveth_yield - the yield points, each where a model step of its
 *	actor ends (bqlm_rveth_yields[]: its text and the model's phase)
 * @RVETH_Y_STACK: the qdisc hands the packet over: veth_xmit() next
 * @RVETH_Y_PRODUCED: ptr_ring_produce() took it: __veth_xdp_flush() next
 * @RVETH_Y_FULL: ptr_ring_produce() found the ring full: the stop next
 * @RVETH_Y_STOPPED: netif_tx_stop_queue() done: the kick or re-check next
 * @RVETH_Y_REQUEUED: NETDEV_TX_BUSY: the qdisc holds the packet
 * @RVETH_Y_CONSUMED: __ptr_ring_consume() took an entry: the next consume next
 * @RVETH_Y_LOOP_END: the consume loop ends, the wake there next
 * @RVETH_Y_LOOP_DONE: the consume loop ends: napi_complete_done() next
 * @RVETH_Y_RCV_WOKEN: the wake at the end of veth_xdp_rcv() done: back in
 *	veth_poll(), napi_complete_done() next
 * @RVETH_Y_COMPLETED: napi_complete_done() and the re-arm done: the wake
 *	at the end of veth_poll() next
 * @RVETH_NR_YIELDS: how many
 */
enum bqlm_rveth_yield {
	RVETH_Y_STACK,
	RVETH_Y_PRODUCED,
	RVETH_Y_FULL,
	RVETH_Y_STOPPED,
	RVETH_Y_REQUEUED,
	RVETH_Y_CONSUMED,
	RVETH_Y_LOOP_END,
	RVETH_Y_LOOP_DONE,
	RVETH_Y_RCV_WOKEN,
	RVETH_Y_COMPLETED,
	RVETH_NR_YIELDS
};

extern const struct bqlm_rc_yield bqlm_rveth_yields[RVETH_NR_YIELDS];

/**
 * struct bqlm_rveth_cpu - what the harness knows of a producer CPU
 * @pkt: the packet it transmits, 0 while idle
 * @ret: its last produce failed
 * @raced: BQLM_TUN_RACED_*, as the model keeps it
 */
struct bqlm_rveth_cpu {
	unsigned int pkt;
	unsigned int ret;
	unsigned int raced;
};

/**
 * struct bqlm_rveth - the harness
 * @rc: the scheduler and actors
 * @cfg: the model's configuration
 * @ops: the variant
 * @dev: the sending device (veth_xmit() runs on it)
 * @peer: its peer, whose NAPI consumes
 * @ring: the peer's rq->xdp_ring
 * @qdisc: the test qdisc on the sending device's txq
 * @old_qdisc: the qdisc it replaced
 * @skb: the skb of each packet id, with the harness's reference
 * @where: enum bqlm_tun_where of each packet id
 * @shadow: the packet each slot was last produced with
 * @sent: packets the stack handed over
 * @delivered: packets the consumer took
 * @cpu: the producer CPUs
 * @pending: the peer's NAPI is scheduled and its poll has not started
 * @nr: entries the running poll consumed
 * @holding: the packet the running poll consumed last and still holds
 *	(it passes it up the stack in its next step), 0 if none
 * @rcu: RCU read-side nesting of each actor
 * @ev: what the current step did to packets
 */
struct bqlm_rveth {
	struct bqlm_rc rc;
	struct bqlm_tun_cfg cfg;
	const struct bqlm_rveth_ops *ops;
	struct net_device *dev;
	struct net_device *peer;
	struct ptr_ring *ring;
	struct Qdisc *qdisc;
	struct Qdisc *old_qdisc;
	struct sk_buff *skb[BQLM_TUN_MAX_PACKETS + 1];
	unsigned char where[BQLM_TUN_MAX_PACKETS + 1];
	unsigned short shadow[BQLM_PTR_RING_MAX];
	unsigned int sent;
	unsigned int delivered;
	struct bqlm_rveth_cpu cpu[BQLM_TUN_MAX_CPUS];
	bool pending;
	unsigned int nr;
	unsigned int holding;
	unsigned int rcu[RVETH_NR_ACTORS];
	struct bqlm_inv_step ev;
};

static inline struct bqlm_rveth *bqlm_rveth_of(const struct bqlm_rc_actor *a)
{
	return container_of(a->rc, struct bqlm_rveth, rc);
}

static inline unsigned int bqlm_rveth_id(const struct bqlm_rc_actor *a)
{
	return a - a->rc->actor;
}

/* real/veth/hooks.c */
extern struct bqlm_rveth *bqlm_rveth_cur;
unsigned int bqlm_rveth_pkt_of(const struct bqlm_rveth *u, const void *ptr);
bool bqlm_rveth_stopped(const struct bqlm_rveth *u);
void bqlm_rveth_raced(struct bqlm_rveth *u, unsigned int except,
		      bool requeued_too);

/* device.c (up, down), actors.c (step, enabled, parked_at) */
int bqlm_rveth_up(struct bqlm_rveth *u);
int bqlm_rveth_down(struct bqlm_rveth *u);
int bqlm_rveth_step(struct bqlm_rveth *u, unsigned int action);
unsigned int bqlm_rveth_enabled(const struct bqlm_rveth *u,
				unsigned int *actions);
const char *bqlm_rveth_parked_at(const struct bqlm_rveth *u,
				 unsigned int action);

/* real/veth/actors.c */
void bqlm_rveth_do_poll(struct bqlm_rc_actor *a);

/* real/veth/view.c */
void bqlm_rveth_view(const struct bqlm_rveth *u, struct bqlm_tun *v);
void bqlm_rveth_audit(struct bqlm_rveth *u);

#endif /* _BQLM_REAL_VETH_HARNESS_H */
