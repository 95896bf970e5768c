/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real usbnet.c under the model's schedules: the harness's
 * own state, shared by its rooms (see docs/real-usbnet.md):
 *
 *   hooks.c			the redirected calls: deferred work, locks,
 *				step boundaries, the BQL calls, and what the
 *				fake host controller reports of URBs
 *   actors.c			the actors' work, one model action on the
 *				real code, the actions it enables
 *   device.c			the harness's life and a device's
 *   view.c			the real state in the model's terms
 *   session.c			the harness beside the model (struct
 *				bqlm_rc_target), the variants and the
 *				minidrivers by name
 *
 * One model action is one real step: the actor the action names runs real
 * code from where it is parked to its next yield point. The yield points
 * sit exactly where the model's steps of that actor end, and each names
 * the model's phase of its actor (enum bqlm_rusbnet_yield):
 *
 *   stack	tx_fixup | txq.lock, submit, queue, netdev_sent_queue:
 *		dql_queued | set STACK_XOFF, smp_mb | re-check, TX_QLEN, unlock
 *   usb N	tx_complete() | defer_bh() (from txq.lock on) and giveback
 *   bh-work,	start + 1st skb_dequeue(&dev->done) | each further dequeue |
 *   timer	(BQL, bytes) [v1: enter |] dql_completed | smp_mb, wake, tail
 *   ifdown	dev_close | usbnet_stop() to usb_autopm_get_interface() |
 *		to usbnet_terminate_urbs() | unlink | waits (or, for
 *		FLAG_AVOID_UNLINK_URBS with the fix, the drain) | flags = 0,
 *		del_timer_sync | tasklet_kill, cancel kevent | again |
 *		(fix-reset, fixed) netdev_reset_queue
 *   suspend	EVENT_DEV_ASLEEP, detach | unlink | waits, attach
 *   resume	resubmit under txq.lock | wake, schedule the bh
 *   disconnect	unplug: every queued URB unlinked (-ESHUTDOWN) | (once
 *		each is given back and no ifdown holds the RTNL)
 *		usbnet_disconnect(), unregister_netdev(): an open device is
 *		closed (dev_close), then usbnet_stop()'s steps as ifdown's |
 *		unregister_netdev() returned | cancel_work_sync, the
 *		deferred URBs, unbind(), free_netdev()
 *   open, watchdog, kevent: one step each
 *
 * The bh of 6.12 is a tasklet; the BQL changes were made on the BH work
 * item upstream has had since 6.17 (2c04d279e857), which bh-work.patch
 * re-creates under every BQL variant: queue_work(system_bh_wq) makes it
 * pending and the schedule runs it, cancel_work_sync() waits for a
 * running bh and drops a queued one, disable_work_sync() does the same and
 * keeps queue_work() from queueing it until enable_work(). tasklet_kill()
 * runs a scheduled tasklet before it returns; the harness's (no-bql only)
 * drops it as cancel_work_sync() does, as the model does.
 */
#ifndef _BQLM_REAL_USBNET_HARNESS_H
#define _BQLM_REAL_USBNET_HARNESS_H

#include <linux/netdevice.h>

#include <bqlm/invariants.h>
#include <bqlm/usbnet.h>

#include "../core/rc.h"
#include "../fake/usb_hcd.h"
#include "hooks.h"

/* The actors */
enum {
	RUSBNET_STACK,
	RUSBNET_BH_WORK,
	RUSBNET_BH_TIMER,
	RUSBNET_KEVENT,
	RUSBNET_IFDOWN,
	RUSBNET_IFUP,
	RUSBNET_WATCHDOG,
	RUSBNET_SUSPEND,
	RUSBNET_RESUME,
	RUSBNET_NCM,
	RUSBNET_LINK,
	RUSBNET_MTU,
	RUSBNET_DISCONNECT,
	RUSBNET_USB0,
};

#define RUSBNET_MAX_SLOTS	(BQLM_RC_MAX_ACTORS - RUSBNET_USB0)

/**
 * enum bqlm_rusbnet_yield - the yield points, each where a model step of
 *	its actor ends (bqlm_rusbnet_yields[]: its text and the model's phase)
 * @RUSBNET_Y_XMIT_LOCK: usbnet_start_xmit(), tx_fixup() done, at txq.lock
 * @RUSBNET_Y_XMIT_OVER: netdev_sent_queue() over the limit
 * @RUSBNET_Y_XMIT_SMP_MB: netdev_sent_queue() after STACK_XOFF, smp_mb()
 * @RUSBNET_Y_DEFER: tx_complete() done, defer_bh() at txq.lock
 * @RUSBNET_Y_BH_DEQUEUE: usbnet_bh() at a further skb_dequeue()
 * @RUSBNET_Y_BH_BQL_LOCK: usbnet_bh() at dev->bql_spinlock
 * @RUSBNET_Y_BH_ENTER: usbnet_bh() at netdev_completed_queue() (v1)
 * @RUSBNET_Y_BH_DQL: netdev_completed_queue() at dql_completed() (v1)
 * @RUSBNET_Y_BH_WAKE: netdev_completed_queue() at its smp_mb() and wake
 * @RUSBNET_Y_STOP_CLOSE: dev_close() cleared __LINK_STATE_START
 * @RUSBNET_Y_STOP_PM: usbnet_stop() at usb_autopm_get_interface()
 * @RUSBNET_Y_STOP_UNLINK: usbnet_terminate_urbs() at unlink_urbs()
 * @RUSBNET_Y_STOP_WAIT: usbnet_terminate_urbs() at its waits
 * @RUSBNET_Y_STOP_DRAIN: usbnet_terminate_urbs() under
 *	FLAG_AVOID_UNLINK_URBS with the fix of fixed-avoid-unlink (no RX
 *	unlink): its unlink of dev->txq done, its waits next
 * @RUSBNET_Y_STOP_TIMEOUT: wait_skb_queue_empty() at schedule_timeout()
 * @RUSBNET_Y_STOP_TIMER: usbnet_stop() at dev->flags = 0, del_timer_sync()
 * @RUSBNET_Y_STOP_WORK: usbnet_stop() at the first tasklet_kill()
 * @RUSBNET_Y_STOP_AGAIN: usbnet_stop() at the second one
 * @RUSBNET_Y_STOP_RESET: usbnet_stop() at netdev_reset_queue()
 * @RUSBNET_Y_SUSPEND_UNLINK: usbnet_suspend(), as @RUSBNET_Y_STOP_UNLINK
 * @RUSBNET_Y_SUSPEND_WAIT: usbnet_suspend(), as @RUSBNET_Y_STOP_WAIT
 * @RUSBNET_Y_SUSPEND_TIMEOUT: usbnet_suspend(), as @RUSBNET_Y_STOP_TIMEOUT
 * @RUSBNET_Y_RESUMED: usbnet_resume() released txq.lock
 * @RUSBNET_Y_UNPLUGGED: the device is unplugged, its URBs unlinked;
 *	usbnet_disconnect() next
 * @RUSBNET_Y_UNREGISTERED: usbnet_disconnect()'s unregister_netdev()
 *	returned; free_netdev() and what precedes it next (with the fix of
 *	fixed-avoid-unlink: the kill of the URBs, the bh and the timer)
 * @RUSBNET_Y_KILLED: fixed-avoid-unlink's usbnet_disconnect() killed the
 *	URBs, the bh and the timer and freed dev->done; free_netdev() and
 *	what precedes it next
 * @RUSBNET_NR_YIELDS: how many
 */
enum bqlm_rusbnet_yield {
	RUSBNET_Y_XMIT_LOCK,
	RUSBNET_Y_XMIT_OVER,
	RUSBNET_Y_XMIT_SMP_MB,
	RUSBNET_Y_DEFER,
	RUSBNET_Y_BH_DEQUEUE,
	RUSBNET_Y_BH_BQL_LOCK,
	RUSBNET_Y_BH_ENTER,
	RUSBNET_Y_BH_DQL,
	RUSBNET_Y_BH_WAKE,
	RUSBNET_Y_STOP_CLOSE,
	RUSBNET_Y_STOP_PM,
	RUSBNET_Y_STOP_UNLINK,
	RUSBNET_Y_STOP_WAIT,
	RUSBNET_Y_STOP_DRAIN,
	RUSBNET_Y_STOP_TIMEOUT,
	RUSBNET_Y_STOP_TIMER,
	RUSBNET_Y_STOP_WORK,
	RUSBNET_Y_STOP_AGAIN,
	RUSBNET_Y_STOP_RESET,
	RUSBNET_Y_SUSPEND_UNLINK,
	RUSBNET_Y_SUSPEND_WAIT,
	RUSBNET_Y_SUSPEND_TIMEOUT,
	RUSBNET_Y_RESUMED,
	RUSBNET_Y_UNPLUGGED,
	RUSBNET_Y_UNREGISTERED,
	RUSBNET_Y_KILLED,
	RUSBNET_NR_YIELDS
};

extern const struct bqlm_rc_yield bqlm_rusbnet_yields[RUSBNET_NR_YIELDS];

/* actor->mark bits */
#define RUSBNET_M_PM_HELD	0x01	/* ifdown: usb_autopm_get_interface() done */
#define RUSBNET_M_TERMINATE	0x02	/* ifdown/suspend: in usbnet_terminate_urbs() */
#define RUSBNET_M_KILL1		0x04	/* ifdown: first tasklet_kill() done */
#define RUSBNET_M_KILL2		0x08	/* ifdown: second tasklet_kill() done */
#define RUSBNET_M_DRAIN		0x10	/* ifdown: the drain's wait began */
#define RUSBNET_M_CLOSING	0x20	/* disconnect: unregister_netdev() closes */
#define RUSBNET_M_UNREGISTERED	0x40	/* disconnect: unregister_netdev() returned */
#define RUSBNET_M_OWN_FAILED	0x80	/* suspend: the device refused its own work */
#define RUSBNET_M_KILLED	0x100	/* disconnect: URBs, bh, timer stopped */
#define RUSBNET_M_WAITED_DONE	0x200	/* ifdown: terminate's wait for dev->done */

/**
 * struct bqlm_rusbnet_slot - what the harness knows of an skb (its URB)
 * @urb: its URB
 * @len: the URB's length (skb->len after padding)
 * @where: enum bqlm_usbnet_where, as the model names it
 * @flags: BQLM_USBNET_SKB_SENT, _STALE, _TIMER
 * @status: the status its completion runs with
 */
struct bqlm_rusbnet_slot {
	struct urb *urb;
	unsigned int len;
	unsigned char where;
	unsigned char flags;
	int status;
};

/**
 * struct bqlm_rusbnet - the harness of one configuration
 * @rc: the scheduler and the actors
 * @hcd: the fake host controller
 * @ops: the variant
 * @drv: the minidriver
 * @info: the driver_info usbnet runs with (a copy of @drv's)
 * @cfg: the model's configuration; @cfg.now is the jiffies value of the
 *	model's current step
 * @net: the device
 * @txq: its queue
 * @qdisc: the test qdisc on it
 * @v: the fields of its struct usbnet the harness reads
 * @txq_lock: the harness's dev->txq.lock
 * @bql_lock: the harness's dev->bql_spinlock
 * @work_pending: the bh is scheduled (the tasklet, or the bh work queued)
 * @bh_disabled: the bh work's disable count (disable_work_sync() less
 *	enable_work()); queue_work() does not queue it while above 0
 * @timer_pending: dev->delay is armed
 * @kevent_pending: the kevent work is queued
 * @suspended: usbnet_suspend() returned, no resume yet
 * @reset_resume: the resume is the minidriver's reset_resume()
 * @pkts: packets the stack handed to usbnet_start_xmit()
 * @xmit_len: the length of the URB usbnet_start_xmit() filled
 * @xmit_urb: that URB
 * @bh_pkts: packets each bh context dequeued in its current run
 * @stops_left: ifdowns left
 * @suspends_left: suspends left
 * @timeouts_left: watchdog timeouts left
 * @links_left: link-up reports left
 * @link_downs_left: link-down reports left
 * @mtu_changed: usbnet_change_mtu() ran (the model's mtu-qlen)
 * @gone: usbnet_disconnect()'s free_netdev() ran: nothing may act on the
 *	device, and nothing the minidriver's unbind() freed is read; the
 *	harness keeps the device's own memory until its teardown
 *	(bqlm_rusbnet_down()), so that what the check reported still
 *	holding it never runs on freed memory
 * @slot: the skbs, numbered as the model numbers them
 * @nr_slots: how many
 * @last_slot: the one submitted or created last
 * @ev: what the current step did (the model's step checks read it)
 * @midstep: a wait in the middle of a step, if any (a harness failure)
 * @refused: the last step was refused, and why: an action the USB core
 *	would not take (an autosuspend at a PM usage count above 0); the
 *	device is as it was before it
 */
struct bqlm_rusbnet {
	struct bqlm_rc rc;
	struct bqlm_hcd hcd;
	const struct bqlm_rusbnet_ops *ops;
	const struct bqlm_rusbnet_driver *drv;
	const struct driver_info *info;
	struct bqlm_usbnet_cfg cfg;
	struct net_device *net;
	struct netdev_queue *txq;
	struct Qdisc *qdisc;
	struct bqlm_rusbnet_view v;
	struct bqlm_rc_lock txq_lock;
	struct bqlm_rc_lock bql_lock;
	bool work_pending;
	unsigned int bh_disabled;
	bool timer_pending;
	bool kevent_pending;
	bool suspended;
	bool reset_resume;
	unsigned int pkts;
	unsigned int xmit_len;
	struct urb *xmit_urb;
	unsigned int bh_pkts[BQLM_USBNET_NR_BH];
	unsigned int stops_left;
	unsigned int suspends_left;
	unsigned int timeouts_left;
	unsigned int links_left;
	unsigned int link_downs_left;
	bool mtu_changed;
	bool gone;
	struct bqlm_rusbnet_slot slot[RUSBNET_MAX_SLOTS];
	unsigned int nr_slots;
	unsigned int last_slot;
	struct bqlm_inv_step ev;
	const char *midstep;
	const char *refused;
};

extern const char *const bqlm_rusbnet_names[BQLM_RC_MAX_ACTORS];
extern const struct bqlm_hcd_ops bqlm_rusbnet_hcd_ops;

static inline struct bqlm_rusbnet *bqlm_rusbnet_of(const struct bqlm_rc_actor *a)
{
	return container_of(a->rc, struct bqlm_rusbnet, rc);
}

static inline unsigned int bqlm_rusbnet_id(const struct bqlm_rc_actor *a)
{
	return a - a->rc->actor;
}

/* The actor in usbnet_start_xmit(), if any (HARD_TX_LOCK: at most one) */
static inline const struct bqlm_rc_actor *
bqlm_rusbnet_xmitter(const struct bqlm_rusbnet *u)
{
	if (u->rc.actor[RUSBNET_NCM].busy)
		return &u->rc.actor[RUSBNET_NCM];
	return &u->rc.actor[RUSBNET_STACK];
}

/*
 * The datagrams (and in *@len the bytes) of the minidriver's aggregate;
 * none once the device is freed (its unbind() freed the aggregate)
 */
static inline unsigned int bqlm_rusbnet_pending(const struct bqlm_rusbnet *u,
						unsigned int *len)
{
	*len = 0;
	if (!u->drv->pending || u->gone)
		return 0;
	return u->drv->pending(netdev_priv(u->net), len);
}

/*
 * Does the actor run usbnet_stop()? ifdown, or the disconnect while its
 * unregister_netdev() closes the device
 */
static inline bool bqlm_rusbnet_is_down(const struct bqlm_rc_actor *a)
{
	unsigned int id = a - a->rc->actor;

	return id == RUSBNET_IFDOWN ||
	       (id == RUSBNET_DISCONNECT &&
		(a->mark & (RUSBNET_M_CLOSING | RUSBNET_M_UNREGISTERED)) ==
		RUSBNET_M_CLOSING);
}

/* real/usbnet/hooks.c */
int bqlm_rusbnet_slot_of(const struct bqlm_rusbnet *u, const struct urb *urb);
bool bqlm_rusbnet_awake(struct bqlm_rc_actor *a);
bool bqlm_rusbnet_no_xmit(struct bqlm_rc_actor *a);
unsigned int bqlm_rusbnet_left_behind(const struct bqlm_rusbnet *u);
void bqlm_rusbnet_bh_free(struct bqlm_rusbnet *u, struct bqlm_rc_actor *a,
			  bool reported);

/* real/usbnet/device.c and real/usbnet/actors.c */
int bqlm_rusbnet_up(struct bqlm_rusbnet *u);
int bqlm_rusbnet_down(struct bqlm_rusbnet *u);
int bqlm_rusbnet_step(struct bqlm_rusbnet *u, unsigned int action);
unsigned int bqlm_rusbnet_enabled(const struct bqlm_rusbnet *u,
				  unsigned int *actions);
const char *bqlm_rusbnet_parked_at(const struct bqlm_rusbnet *u,
				   unsigned int action);

/* real/usbnet/actors.c */
void bqlm_rusbnet_drain(struct bqlm_rusbnet *u);
const char *bqlm_rusbnet_core_refuses(const struct bqlm_rusbnet *u);

/* real/usbnet/device.c */
int bqlm_rusbnet_init(struct bqlm_rusbnet *u, const struct bqlm_usbnet_cfg *cfg,
		      const struct bqlm_rusbnet_ops *ops,
		      const struct bqlm_rusbnet_driver *drv);
int bqlm_rusbnet_release(struct bqlm_rusbnet *u);

/* real/usbnet/view.c */
void bqlm_rusbnet_view(const struct bqlm_rusbnet *u, struct bqlm_usbnet *m);
bool bqlm_rusbnet_compare(const struct bqlm_rusbnet *u,
			  const struct bqlm_usbnet *m, struct bqlm_usbnet *view,
			  const char **what, unsigned long long *real,
			  unsigned long long *model);

#endif /* _BQLM_REAL_USBNET_HARNESS_H */
