/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real tun.c under the model's schedules: the harness's own
 * state, shared by its rooms (see docs/real-tun.md):
 *
 *   hooks.c		the redirected calls: ring locks, the step ends of
 *			the produce and the consume, drops, sleeping, RCU
 *   actors.c		the actors' work, one model action on the real
 *			code, the actions it enables
 *   device.c		a device's life
 *   view.c		the real state in the model's terms
 *   session.c		the harness beside the model (struct
 *			bqlm_rc_target), the variants by name
 *
 * A tun device of the tree's drivers/net/tun.c (one copy per variant), made
 * in the kernel as TUNSETIFF makes it: one struct file per queue file,
 * tun_chr_open(), tun_set_iff() (IFF_TAP, IFF_NO_PI, IFF_MULTI_QUEUE and,
 * for the variants that know it, IFF_BACKPRESSURE), its tx_queue_len set
 * as the model's ring through tun_queue_resize()'s path
 * (ptr_ring_resize_multiple_bh()). The device is not opened: the stack is
 * the harness, so nothing else transmits on it.
 *
 * Actors (struct bqlm_rc threads), one per model actor:
 *  - cpu0, cpu1: the stack of a producer CPU. From idle, the model's first
 *    step: inside the stack's RCU section, the queue check (a qdisc never
 *    hands a packet to a stopped queue; noqueue drops it), the packet with
 *    skb->queue_mapping as netdev_cap_txqueue() picks it; then the real
 *    tun_net_xmit();
 *  - rd0, rd1: the reader of each queue file: tun_chr_read_iter() into a
 *    kernel buffer, blocking;
 *  - admin: TUNSETQUEUE detach and attach through tun_set_queue(), and a
 *    tx_queue_len change: dev->tx_queue_len, then tun_queue_resize() as
 *    the NETDEV_CHANGE_TX_QUEUE_LEN notifier calls it.
 * The yields (real/tun/glue.h) are where the variant's model steps end
 * (enum bqlm_rtun_yield, each naming the model's phase of its actor):
 *  - stop-2019 steps: after ptr_ring_produce(), after a ptr_ring_full()
 *    that found the ring full, after ptr_ring_consume();
 *  - backpressure steps: after __ptr_ring_produce(), after
 *    netif_tx_stop_queue(), before the producer_lock is released; in the
 *    reader, after a __ptr_ring_consume() that took an entry and before
 *    its consumer_lock is released;
 *  - every variant: tun_ring_recv()'s schedule() (a reader that sleeps
 *    until the wait queue entry tun_ring_recv() added is woken), and
 *    __tun_detach()'s synchronize_net() (until no actor is inside an RCU
 *    read-side section: the stack's, or tun_net_xmit()'s).
 *
 * A yield may carry a condition: the lock the next stretch takes first
 * (the model's step is enabled only when it is free) or the wake-up.
 *
 * The packets are skbs made by the harness, one per packet id, with an
 * extra reference each: tun.c frees its reference, the memory stays, so a
 * ring slot's pointer always names one packet. Where each packet is, how
 * many were read and dropped and why, are the real code's events as the
 * hooks see them: a produce that returned 0, a consume that returned the
 * skb, kfree_skb_reason() with its reason, tun_queue_purge()'s consumes.
 */
#ifndef _BQLM_REAL_TUN_HARNESS_H
#define _BQLM_REAL_TUN_HARNESS_H

#include <linux/if_ether.h>

#include <bqlm/invariants.h>
#include <bqlm/tun.h>

#include "../core/rc.h"
#include "hooks.h"

/* the flag of the backpressure patches (not in this tree's uapi header) */
#define RTUN_IFF_BACKPRESSURE	0x0080
/* a packet: the minimum Ethernet frame, its id after the header */
#define RTUN_PKT_LEN		ETH_ZLEN
/* a reader's buffer */
#define RTUN_BUF		128

enum {
	RTUN_CPU0,
	RTUN_CPU1,
	RTUN_RD0,
	RTUN_RD1,
	RTUN_ADMIN,
	RTUN_NR_ACTORS
};

/**
 * enum bqlm_rtun_yield - the yield points, each where a model step of its
 *	actor ends (bqlm_rtun_yields[]: its text and the model's phase)
 * @RTUN_Y_STACK: the stack passed the queue check, tun_net_xmit() next
 * @RTUN_Y_PRODUCED: stop-2019: ptr_ring_produce() took the packet
 * @RTUN_Y_PRODUCE_FAILED: stop-2019: ptr_ring_produce() found it full
 * @RTUN_Y_FULL: stop-2019: ptr_ring_full() after the produce is true
 * @RTUN_Y_BP_PRODUCED: backpressure: __ptr_ring_produce() done
 * @RTUN_Y_BP_STOPPED: backpressure: netif_tx_stop_queue() done
 * @RTUN_Y_BP_UNLOCK: backpressure: at the producer_lock's release
 * @RTUN_Y_CONSUMED: stop-2019: ptr_ring_consume() took an entry
 * @RTUN_Y_BP_CONSUMED: backpressure: __ptr_ring_consume() took one
 * @RTUN_Y_BP_CUNLOCK: backpressure: at the consumer_lock's release
 * @RTUN_Y_SLEEP: a reader in tun_ring_recv()'s schedule()
 * @RTUN_Y_SYNC: a detach in __tun_detach()'s synchronize_net()
 * @RTUN_NR_YIELDS: how many
 */
enum bqlm_rtun_yield {
	RTUN_Y_STACK,
	RTUN_Y_PRODUCED,
	RTUN_Y_PRODUCE_FAILED,
	RTUN_Y_FULL,
	RTUN_Y_BP_PRODUCED,
	RTUN_Y_BP_STOPPED,
	RTUN_Y_BP_UNLOCK,
	RTUN_Y_CONSUMED,
	RTUN_Y_BP_CONSUMED,
	RTUN_Y_BP_CUNLOCK,
	RTUN_Y_SLEEP,
	RTUN_Y_SYNC,
	RTUN_NR_YIELDS
};

extern const struct bqlm_rc_yield bqlm_rtun_yields[RTUN_NR_YIELDS];

/**
 * struct bqlm_rtun_cpu - what the harness knows of a producer CPU
 * @pkt: the packet it transmits, 0 while idle
 * @txq: its queue
 * @ret: the produce failed
 * @raced: BQLM_TUN_RACED_*, as the model keeps it
 */
struct bqlm_rtun_cpu {
	unsigned int pkt;
	unsigned int txq;
	unsigned int ret;
	unsigned int raced;
};

/**
 * struct bqlm_rtun_rd - what the harness knows of a reader
 * @woken: its wait queue entry was woken since the reader last slept
 * @sleeping: parked in schedule()
 * @nr: entries taken by the consume in progress (backpressure)
 * @pkt: the packet the read in progress consumed, 0 if none
 * @buf: what the read copied out
 */
struct bqlm_rtun_rd {
	bool woken;
	bool sleeping;
	unsigned int nr;
	unsigned int pkt;
	u8 buf[RTUN_BUF];
};

/**
 * struct bqlm_rtun - the harness
 * @rc: the scheduler and actors
 * @cfg: the model's configuration
 * @ops: the variant
 * @dev: the tun device
 * @file: the struct file of each queue file
 * @tfile: its struct tun_file
 * @ring: its tx_ring
 * @plock: the harness's producer_lock of each ring
 * @clock: the harness's consumer_lock of each ring
 * @qdisc: the test qdisc of each txq
 * @skb: the skb of each packet id
 * @where: enum bqlm_tun_where of each packet id
 * @pkt_q: the queue file each packet was produced into
 * @shadow: the packet each slot was last produced with
 * @woke_full: the queue was woken by force with its ring full
 * @sent: packets handed to tun_net_xmit() or dropped by the stack
 * @delivered: packets consumed by a reader
 * @drops: by enum bqlm_tun_drop
 * @cpu: the producer CPUs
 * @rd: the readers
 * @rcu: RCU read-side nesting of each actor
 * @admin_q: the queue file the administrator works on
 * @detached_q: the queue file detached + 1, 0 if none
 * @detaches_left: detach cycles left
 * @resizes_left: tx_queue_len changes left
 * @ev: what the current step did to packets
 */
struct bqlm_rtun {
	struct bqlm_rc rc;
	struct bqlm_tun_cfg cfg;
	const struct bqlm_rtun_ops *ops;
	struct net_device *dev;
	struct file *file[BQLM_TUN_MAX_QUEUES];
	struct tun_file *tfile[BQLM_TUN_MAX_QUEUES];
	struct ptr_ring *ring[BQLM_TUN_MAX_QUEUES];
	struct bqlm_rc_lock plock[BQLM_TUN_MAX_QUEUES];
	struct bqlm_rc_lock clock[BQLM_TUN_MAX_QUEUES];
	struct Qdisc *qdisc[BQLM_TUN_MAX_QUEUES];
	struct sk_buff *skb[BQLM_TUN_MAX_PACKETS + 1];
	unsigned char where[BQLM_TUN_MAX_PACKETS + 1];
	unsigned char pkt_q[BQLM_TUN_MAX_PACKETS + 1];
	unsigned short shadow[BQLM_TUN_MAX_QUEUES][BQLM_PTR_RING_MAX];
	unsigned char woke_full[BQLM_TUN_MAX_QUEUES];
	unsigned int sent;
	unsigned int delivered;
	unsigned int drops[BQLM_TUN_NR_DROPS];
	struct bqlm_rtun_cpu cpu[BQLM_TUN_MAX_CPUS];
	struct bqlm_rtun_rd rd[BQLM_TUN_MAX_QUEUES];
	unsigned int rcu[RTUN_NR_ACTORS];
	unsigned int admin_q;
	unsigned int detached_q;
	unsigned int detaches_left;
	unsigned int resizes_left;
	struct bqlm_inv_step ev;
};

/*
 * How the variant takes the model's steps, read from the model's design
 * (the one place the harness asks): a stop in the produce's lock section
 * (backpressure), a ptr_ring_full() check of its own after the produce
 * (the 2019 experiment), or tun_net_xmit() whole (stock).
 */
static inline enum bqlm_rtun_steps
bqlm_rtun_steps_of(const struct bqlm_tun_cfg *cfg)
{
	if (bqlm_tun_locked_stop(cfg))
		return BQLM_VARIANT_STEPS_BACKPRESSURE;
	if (bqlm_tun_full_check(cfg))
		return BQLM_VARIANT_STEPS_STOP_2019;
	return BQLM_VARIANT_STEPS_STOCK;
}

static inline enum bqlm_rtun_steps bqlm_rtun_steps(const struct bqlm_rtun *u)
{
	return bqlm_rtun_steps_of(&u->cfg);
}

static inline bool bqlm_rtun_bp(const struct bqlm_rtun *u)
{
	return bqlm_rtun_steps(u) == BQLM_VARIANT_STEPS_BACKPRESSURE;
}

static inline bool bqlm_rtun_2019(const struct bqlm_rtun *u)
{
	return bqlm_rtun_steps(u) == BQLM_VARIANT_STEPS_STOP_2019;
}

static inline struct bqlm_rtun *bqlm_rtun_of(const struct bqlm_rc_actor *a)
{
	return container_of(a->rc, struct bqlm_rtun, rc);
}

static inline unsigned int bqlm_rtun_id(const struct bqlm_rc_actor *a)
{
	return a - a->rc->actor;
}

static inline bool bqlm_rtun_is_cpu(const struct bqlm_rc_actor *a)
{
	return bqlm_rtun_id(a) < RTUN_RD0;
}

static inline bool bqlm_rtun_is_reader(const struct bqlm_rc_actor *a)
{
	return bqlm_rtun_id(a) >= RTUN_RD0 && bqlm_rtun_id(a) < RTUN_ADMIN;
}

/* What the harness knows of the reader @a is. */
static inline struct bqlm_rtun_rd *bqlm_rtun_rd_of(struct bqlm_rtun *u,
						   const struct bqlm_rc_actor *a)
{
	return &u->rd[bqlm_rtun_id(a) - RTUN_RD0];
}

/* real/tun/hooks.c */
extern struct bqlm_rtun *bqlm_rtun_cur;
void bqlm_rtun_raced(struct bqlm_rtun *u, unsigned int q,
		     const struct bqlm_rtun_cpu *except, unsigned int flag);
unsigned int bqlm_rtun_pkt_of(const struct bqlm_rtun *u, const void *ptr);
bool bqlm_rtun_plock_free(struct bqlm_rc_actor *a);

/* real/tun/device.c (up, down), real/tun/actors.c (step, enabled, parked_at) */
int bqlm_rtun_up(struct bqlm_rtun *u);
int bqlm_rtun_down(struct bqlm_rtun *u);
int bqlm_rtun_step(struct bqlm_rtun *u, unsigned int action);
unsigned int bqlm_rtun_enabled(const struct bqlm_rtun *u,
			       unsigned int *actions);
const char *bqlm_rtun_parked_at(const struct bqlm_rtun *u, unsigned int action);

/* real/tun/actors.c */
unsigned int bqlm_rtun_cap(const struct bqlm_tun_cfg *cfg);
bool bqlm_rtun_stopped(const struct bqlm_rtun *u, unsigned int txq);

/* real/tun/view.c */
void bqlm_rtun_view(const struct bqlm_rtun *u, struct bqlm_tun *v);
void bqlm_rtun_audit(struct bqlm_rtun *u);

#endif /* _BQLM_REAL_TUN_HARNESS_H */
