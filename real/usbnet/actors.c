// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real usbnet.c under the model's schedules: the actors'
 * work, one model action on the real code, and the actions the real code
 * enables (see harness.h, docs/real-usbnet.md).
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "harness.h"

const char *const bqlm_rusbnet_names[BQLM_RC_MAX_ACTORS] = {
	"stack", "bh-work", "timer", "kevent", "ifdown", "ifup", "watchdog",
	"suspend", "resume", "ncm-timer", "link", "mtu", "disconnect", "usb0",
	"usb1", "usb2", "usb3", "usb4", "usb5", "usb6", "usb7", "usb8", "usb9",
	"usb10", "usb11",
};

/* Headroom and tailroom of the stack's skbs beyond the packet */
#define RUSBNET_SKB_HEADROOM	64
#define RUSBNET_SKB_TAILROOM	64
/* Rounds of draining a device at most */
#define RUSBNET_DRAIN_ROUNDS	1000

/* ------------------------------------------------------------------ */
/* The actors' work */

/* The stack's packet of the model's length index a->arg, as it sends it */
static void bqlm_rusbnet_do_xmit(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);
	unsigned int i = a->arg, len = u->cfg.lens[i];
	struct sk_buff *skb;

	skb = alloc_skb(RUSBNET_SKB_HEADROOM + len + RUSBNET_SKB_TAILROOM,
			GFP_KERNEL);
	if (!skb) {
		bqlm_rc_fail(&u->rc, -ENOMEM, "alloc_skb(%u)", len);
		return;
	}
	skb_reserve(skb, RUSBNET_SKB_HEADROOM);
	skb_put_zero(skb, len);
	skb_reset_mac_header(skb);
	skb->dev = u->net;
	if (u->drv->frame)
		u->drv->frame(skb, i);
	a->arg = 0;
	u->ops->start_xmit(skb, u->net);
}

/* The host controller gives the URB of the actor's slot back. */
static void bqlm_rusbnet_do_complete(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);
	struct bqlm_rusbnet_slot *s = &u->slot[bqlm_rusbnet_id(a) - RUSBNET_USB0];

	s->where = BQLM_USBNET_SKB_COMPLETED;
	bqlm_hcd_giveback(&u->hcd, s->urb, s->status);
	s->where = BQLM_USBNET_SKB_DONE;
}

static void bqlm_rusbnet_do_bh(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	a->arg = 0;	/* skb_dequeue() calls of this run */
	u->bh_pkts[bqlm_rusbnet_id(a) - RUSBNET_BH_WORK] = 0;
	if (bqlm_rusbnet_id(a) == RUSBNET_BH_WORK) {
		u->work_pending = false;
		u->ops->bh_work(u->net);
	} else {
		u->timer_pending = false;
		u->ops->bh_timer(u->net);
	}
	/* what a run that reported nothing to BQL dequeued is freed */
	bqlm_rusbnet_bh_free(u, a, false);
}

static void bqlm_rusbnet_do_kevent(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	u->kevent_pending = false;
	u->ops->kevent(u->net);
	/* a minidriver's link_reset() sized RX, __handle_link_change() RX_QLEN */
	u->ops->rx_off(u->net);
}

static void bqlm_rusbnet_do_ifdown(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	/* dev_close(): __LINK_STATE_START off, the qdisc deactivated */
	u->stops_left--;
	clear_bit(__LINK_STATE_START, &u->net->state);
	bqlm_rc_yield(a, &bqlm_rusbnet_yields[RUSBNET_Y_STOP_CLOSE],
		      bqlm_rusbnet_no_xmit);
	u->ops->stop(u->net);
}

static void bqlm_rusbnet_do_flush(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	u->drv->flush(netdev_priv(u->net));
}

static void bqlm_rusbnet_do_ifup(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	set_bit(__LINK_STATE_START, &u->net->state);
	u->ops->open(u->net);
}

/*
 * The minidriver's status() on its entry's link-up (argument 0) or
 * link-down (1) interrupt, or, without one, what a status() does:
 * usbnet_link_change(dev, up, 0)
 */
static void bqlm_rusbnet_do_link(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	if (a->arg)
		u->link_downs_left--;
	else
		u->links_left--;
	/* the device's PHY first: a link_reset() reads it */
	u->hcd.link_down = a->arg;
	u->ops->link(u->net, u->drv, !a->arg);
}

/*
 * dev_set_mtu()'s ndo_change_mtu (the minidriver's own, or
 * usbnet_change_mtu()), to the MTU whose hard_mtu gives the model's
 * mtu-qlen (usbnet_update_max_qlen())
 */
static void bqlm_rusbnet_do_change_mtu(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);
	int err;

	u->mtu_changed = true;
	err = u->ops->change_mtu(u->net, u->cfg.mtu_qlen);
	if (err)
		bqlm_rc_fail(&u->rc, err, "ndo_change_mtu() for TX_QLEN %u",
			     u->cfg.mtu_qlen);
}

static void bqlm_rusbnet_do_watchdog(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	u->timeouts_left--;
	u->ops->tx_timeout(u->net, 0);
}

/* The minidriver's own suspend(), or usbnet's */
static void bqlm_rusbnet_do_suspend(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);
	const struct usb_driver *usb = u->drv->clear & BQLM_RUSBNET_NO_PM ?
				       NULL : u->drv->usb;
	pm_message_t msg = u->cfg.autosuspend ? PMSG_AUTO_SUSPEND : PMSG_SUSPEND;
	int ret;

	u->suspends_left--;
	if (usb && usb->suspend)
		ret = usb->suspend(&u->hcd.intf, msg);
	else
		ret = u->ops->suspend(&u->hcd.intf, msg);
	/* the USB core resumes later only what suspended (autosuspend: -EBUSY) */
	u->suspended = !ret;
}

/*
 * The minidriver's own resume() (reset_resume() when the case asks for
 * it: the USB core resumes a device that was reset meanwhile), or usbnet's
 */
static void bqlm_rusbnet_do_resume(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);
	const struct usb_driver *usb = u->drv->clear & BQLM_RUSBNET_NO_PM ?
				       NULL : u->drv->usb;

	u->suspended = false;
	if (usb && u->reset_resume && usb->reset_resume)
		usb->reset_resume(&u->hcd.intf);
	else if (usb && usb->resume)
		usb->resume(&u->hcd.intf);
	else
		u->ops->resume(&u->hcd.intf);
	/* also when usbnet_resume() did nothing (its count was not 1) */
	u->ops->rx_off(u->net);
}

/*
 * usbnet_disconnect() may go on: every URB the unplug unlinked was given
 * back (dev->txq is empty: each tx_complete() and defer_bh() ran) and no
 * ifdown holds the RTNL that unregister_netdev() takes
 */
static bool bqlm_rusbnet_flushed(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	return skb_queue_empty(u->v.txq) && !u->rc.actor[RUSBNET_IFDOWN].busy;
}

/*
 * The device unplugged (usb_disconnect(), usb_disable_interface()'s flush
 * of the endpoints: the fake host controller), then unbound: the
 * minidriver's disconnect() or usbnet_disconnect(), whose
 * unregister_netdev() and free_netdev() are the harness's hooks.
 */
static void bqlm_rusbnet_do_disconnect(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	bqlm_hcd_unplug(&u->hcd);
	bqlm_rc_yield(a, &bqlm_rusbnet_yields[RUSBNET_Y_UNPLUGGED],
		      bqlm_rusbnet_flushed);
	u->ops->disconnect(&u->hcd.intf, u->drv);
	if (!u->gone)
		bqlm_rc_fail(&u->rc, -EINVAL, "%s's disconnect() did not free the device",
			     u->drv->name);
}

/* ------------------------------------------------------------------ */
/* Draining a device */

/* An URB in flight on an idle usb actor's slot completes (teardown). */
static bool bqlm_rusbnet_drain_urb(struct bqlm_rusbnet *u,
				   struct bqlm_rc_actor *a)
{
	unsigned int i = bqlm_rusbnet_id(a) - RUSBNET_USB0;
	struct bqlm_rusbnet_slot *s = &u->slot[i];

	if (i >= u->nr_slots || (s->where != BQLM_USBNET_SKB_TXQ &&
				 s->where != BQLM_USBNET_SKB_UNLINKED))
		return false;
	s->status = s->where == BQLM_USBNET_SKB_UNLINKED ? -ECONNRESET : 0;
	/* a device that stopped draining: the teardown unlinks its URB */
	if (u->hcd.out_stalled && !s->urb->unlinked)
		s->urb->unlinked = -ECONNRESET;
	bqlm_rc_start(a, bqlm_rusbnet_do_complete, 0);
	return true;
}

/**
 * bqlm_rusbnet_drain() - run what can run until every actor is idle
 * @u: the harness
 *
 * Parked actors go on, URBs in flight complete, pending bottom halves run,
 * a suspended device resumes; an actor that cannot go on stays parked.
 */
void bqlm_rusbnet_drain(struct bqlm_rusbnet *u)
{
	unsigned int i, rounds;
	bool any;

	for (rounds = 0; rounds < RUSBNET_DRAIN_ROUNDS && !u->rc.error; rounds++) {
		any = false;
		for (i = 0; i < u->rc.nr_actors; i++) {
			struct bqlm_rc_actor *a = &u->rc.actor[i];

			if (bqlm_rc_runnable(a)) {
				bqlm_rc_resume(a);
				any = true;
			} else if (!a->busy && i >= RUSBNET_USB0) {
				any |= bqlm_rusbnet_drain_urb(u, a);
			}
		}
		if (any)
			continue;
		/* skbs a cancelled bh left on dev->done: free them */
		if (!skb_queue_empty(u->v.done) &&
		    !u->rc.actor[RUSBNET_BH_WORK].busy)
			u->work_pending = true;
		if (u->work_pending || u->timer_pending) {
			if (u->work_pending)
				bqlm_rc_start(&u->rc.actor[RUSBNET_BH_WORK],
					      bqlm_rusbnet_do_bh, 0);
			if (u->timer_pending)
				bqlm_rc_start(&u->rc.actor[RUSBNET_BH_TIMER],
					      bqlm_rusbnet_do_bh, 0);
			continue;
		}
		if (u->suspended) {
			bqlm_rc_start(&u->rc.actor[RUSBNET_RESUME],
				      bqlm_rusbnet_do_resume, 0);
			continue;
		}
		break;
	}
}

/* ------------------------------------------------------------------ */
/* One model action on the real code */

static const int bqlm_rusbnet_status[BQLM_USBNET_NR_STATUS] = {
	[BQLM_USBNET_ST_OK] = 0,
	[BQLM_USBNET_ST_EPROTO] = -EPROTO,
	[BQLM_USBNET_ST_EPIPE] = -EPIPE,
	[BQLM_USBNET_ST_UNLINKED] = -ECONNRESET,
};

/* A completion's argument, as the model makes it: slot * 4 + status */
#define RUSBNET_COMPLETE_ARG(slot, st)	((slot) * BQLM_USBNET_NR_STATUS + (st))
#define RUSBNET_COMPLETE_SLOT(arg)	((arg) / BQLM_USBNET_NR_STATUS)
#define RUSBNET_COMPLETE_STATUS(arg)	((arg) % BQLM_USBNET_NR_STATUS)
static_assert(BQLM_USBNET_NR_STATUS == 4, "the model's completion encoding");

/* The model's actions that start, or resume, one actor's work */
static const struct {
	unsigned int actor;
	bqlm_rc_fn fn;
} bqlm_rusbnet_works[] = {
	[BQLM_USBNET_A_KEVENT] = { RUSBNET_KEVENT, bqlm_rusbnet_do_kevent },
	[BQLM_USBNET_A_STOP] = { RUSBNET_IFDOWN, bqlm_rusbnet_do_ifdown },
	[BQLM_USBNET_A_OPEN] = { RUSBNET_IFUP, bqlm_rusbnet_do_ifup },
	[BQLM_USBNET_A_TX_TIMEOUT] = { RUSBNET_WATCHDOG, bqlm_rusbnet_do_watchdog },
	[BQLM_USBNET_A_SUSPEND] = { RUSBNET_SUSPEND, bqlm_rusbnet_do_suspend },
	[BQLM_USBNET_A_RESUME] = { RUSBNET_RESUME, bqlm_rusbnet_do_resume },
	[BQLM_USBNET_A_LINK] = { RUSBNET_LINK, bqlm_rusbnet_do_link },
	[BQLM_USBNET_A_CHANGE_MTU] = { RUSBNET_MTU, bqlm_rusbnet_do_change_mtu },
	[BQLM_USBNET_A_DISCONNECT] = { RUSBNET_DISCONNECT,
				       bqlm_rusbnet_do_disconnect },
};

/* The actor a model action runs, or -1 */
static int bqlm_rusbnet_actor_of(unsigned int action)
{
	unsigned int kind = BQLM_X_KIND(action), arg = BQLM_X_ARG(action);

	switch (kind) {
	case BQLM_USBNET_A_XMIT:
		return RUSBNET_STACK;
	case BQLM_USBNET_A_NCM_FLUSH:
		return RUSBNET_NCM;
	case BQLM_USBNET_A_COMPLETE:
		return RUSBNET_USB0 + RUSBNET_COMPLETE_SLOT(arg);
	case BQLM_USBNET_A_DEFER_BH:
		return RUSBNET_USB0 + arg;
	case BQLM_USBNET_A_BH:
		return arg < BQLM_USBNET_NR_BH ? RUSBNET_BH_WORK + arg : -1;
	default:
		if (kind < ARRAY_SIZE(bqlm_rusbnet_works) &&
		    bqlm_rusbnet_works[kind].fn)
			return bqlm_rusbnet_works[kind].actor;
		return -1;
	}
}

/**
 * bqlm_rusbnet_step() - run one model action on the real code
 * @u: the harness
 * @action: a BQLM_X_ACTION() number
 *
 * Return: 0, -EAGAIN if the actor is parked waiting (nothing run),
 * -EINVAL for an action the real code cannot take now or at all (any
 * once the device is freed), or the harness error.
 */
int bqlm_rusbnet_step(struct bqlm_rusbnet *u, unsigned int action)
{
	unsigned int kind = BQLM_X_KIND(action), arg = BQLM_X_ARG(action);
	struct bqlm_rc_actor *act = u->rc.actor;
	unsigned int slot, len;

	memset(&u->ev, 0, sizeof(u->ev));
	u->midstep = NULL;
	u->refused = NULL;
	/* free_netdev() ran: nothing acts on the device any more */
	if (u->gone)
		return -EINVAL;
	/* a suspend the USB core would not begin: reported, not taken */
	if (kind == BQLM_USBNET_A_SUSPEND && !act[RUSBNET_SUSPEND].busy) {
		u->refused = bqlm_rusbnet_core_refuses(u);
		if (u->refused)
			return -EBUSY;
	}
	switch (kind) {
	case BQLM_USBNET_A_XMIT:
		if (arg >= u->cfg.nr_lens)
			return -EINVAL;
		if (act[RUSBNET_NCM].busy)
			return bqlm_rc_resume(&act[RUSBNET_NCM]);
		if (!act[RUSBNET_STACK].busy)
			u->pkts++;
		return bqlm_rc_go(&act[RUSBNET_STACK], bqlm_rusbnet_do_xmit,
				  arg);
	case BQLM_USBNET_A_NCM_FLUSH:
		if (!bqlm_rusbnet_pending(u, &len) || act[RUSBNET_NCM].busy ||
		    act[RUSBNET_STACK].busy)
			return -EINVAL;
		return bqlm_rc_start(&act[RUSBNET_NCM], bqlm_rusbnet_do_flush, 0);
	case BQLM_USBNET_A_COMPLETE:
		slot = RUSBNET_COMPLETE_SLOT(arg);
		if (slot >= u->nr_slots || act[RUSBNET_USB0 + slot].busy)
			return -EINVAL;
		u->slot[slot].status =
			bqlm_rusbnet_status[RUSBNET_COMPLETE_STATUS(arg)];
		return bqlm_rc_start(&act[RUSBNET_USB0 + slot],
				     bqlm_rusbnet_do_complete, 0);
	case BQLM_USBNET_A_DEFER_BH:
		if (arg >= u->nr_slots)
			return -EINVAL;
		return bqlm_rc_resume(&act[RUSBNET_USB0 + arg]);
	case BQLM_USBNET_A_BH:
		if (arg >= BQLM_USBNET_NR_BH)
			return -EINVAL;
		return bqlm_rc_go(&act[RUSBNET_BH_WORK + arg], bqlm_rusbnet_do_bh,
				  0);
	case BQLM_USBNET_A_LINK:
		if (arg > 1)
			return -EINVAL;
		return bqlm_rc_go(&act[RUSBNET_LINK], bqlm_rusbnet_do_link, arg);
	default:
		if (kind >= ARRAY_SIZE(bqlm_rusbnet_works) ||
		    !bqlm_rusbnet_works[kind].fn)
			return -EINVAL;
		return bqlm_rc_go(&act[bqlm_rusbnet_works[kind].actor],
				  bqlm_rusbnet_works[kind].fn, 0);
	}
}

/*
 * May the stack hand usbnet a packet? (the qdisc, as the model has it:
 * active while the device runs with its carrier)
 */
static bool bqlm_rusbnet_can_send(const struct bqlm_rusbnet *u)
{
	return netif_running(u->net) && netif_carrier_ok(u->net) &&
	       !netif_xmit_stopped(u->txq) && u->pkts < u->cfg.packets;
}

static bool bqlm_rusbnet_txq_unlocked(const struct bqlm_rusbnet *u)
{
	return !u->txq_lock.owner;
}

/* Which completions of the URB of @s the model offers */
static bool bqlm_rusbnet_may_complete(const struct bqlm_rusbnet *u,
				      const struct bqlm_rusbnet_slot *s,
				      unsigned int st)
{
	if (s->where == BQLM_USBNET_SKB_UNLINKED)
		return st == BQLM_USBNET_ST_UNLINKED;
	/* the fake device stopped draining bulk-out: an unlink's only */
	if (u->hcd.out_stalled)
		return false;
	return s->where == BQLM_USBNET_SKB_TXQ &&
	       st != BQLM_USBNET_ST_UNLINKED &&
	       (st == BQLM_USBNET_ST_OK || (u->cfg.statuses & BIT(st)));
}

/**
 * bqlm_rusbnet_core_refuses() - would the USB core not begin a suspend now?
 * @u: the harness
 *
 * A system suspend looks at no PM usage count. A runtime autosuspend
 * (the configuration's autosuspend) comes only to a usb_driver with
 * supports_autosuspend, and only at an interface PM usage count of 0 (the
 * USB core's autosuspend_check(): the count usbnet_open() took and keeps
 * without manage_power, usbnet_stop()'s own, each transmit URB's until
 * tx_complete(), as the fake USB core counts them).
 *
 * Return: NULL when it would, or why not.
 */
const char *bqlm_rusbnet_core_refuses(const struct bqlm_rusbnet *u)
{
	const struct usb_driver *usb = u->drv->clear & BQLM_RUSBNET_NO_PM ?
				       NULL : u->drv->usb;

	if (!u->cfg.autosuspend)
		return NULL;
	if (usb && !usb->supports_autosuspend)
		return "autosuspend refused: the usb_driver has no supports_autosuspend, the USB core never autosuspends it";
	if (bqlm_hcd_pm_usage(&u->hcd))
		return "autosuspend refused: the interface's PM usage count is above 0 (usbnet_open() without manage_power, usbnet_stop(), a transmit URB), the USB core's autosuspend_check() says -EBUSY";
	return NULL;
}

/**
 * bqlm_rusbnet_enabled() - the model actions the real code can take now
 * @u: the harness
 * @act: receives them, in the model's order
 *
 * From the real code alone: a parked actor whose wait is over, an idle
 * one whose trigger is there (a packet the qdisc may send, an URB in
 * flight, a pending bottom half or kevent, ifdown/ifup, the watchdog on a
 * stopped queue, suspend and resume, the unplug), within the configured
 * bounds; none once usbnet_disconnect() freed the device.
 *
 * Return: how many.
 */
unsigned int bqlm_rusbnet_enabled(const struct bqlm_rusbnet *u,
				  unsigned int *act)
{
	const struct bqlm_rc_actor *a = u->rc.actor;
	const struct bqlm_rc_actor *down = &a[RUSBNET_IFDOWN];
	const struct bqlm_rc_actor *unplug = &a[RUSBNET_DISCONNECT];
	unsigned int n = 0, i, st;

	/* free_netdev() ran: nothing acts on the device */
	if (u->gone)
		return 0;
	if (a[RUSBNET_STACK].busy || a[RUSBNET_NCM].busy) {
		if (bqlm_rc_runnable(bqlm_rusbnet_xmitter(u)))
			act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_XMIT, 0);
	} else if (bqlm_rusbnet_can_send(u)) {
		for (i = 0; i < u->cfg.nr_lens; i++)
			act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_XMIT, i);
	}
	if (!a[RUSBNET_STACK].busy && !a[RUSBNET_NCM].busy &&
	    bqlm_rusbnet_pending(u, &st))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_NCM_FLUSH, 0);
	for (i = 0; i < u->nr_slots; i++) {
		const struct bqlm_rc_actor *c = &a[RUSBNET_USB0 + i];

		for (st = 0; st < BQLM_USBNET_NR_STATUS && !c->busy; st++)
			if (bqlm_rusbnet_may_complete(u, &u->slot[i], st))
				act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_COMPLETE,
							      RUSBNET_COMPLETE_ARG(i, st));
		if (c->busy && bqlm_rc_runnable(c))
			act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_DEFER_BH, i);
	}
	for (i = 0; i < BQLM_USBNET_NR_BH; i++) {
		const struct bqlm_rc_actor *b = &a[RUSBNET_BH_WORK + i];
		bool pending = i ? u->timer_pending : u->work_pending;

		if (b->busy ? bqlm_rc_runnable(b) :
		    pending && (!u->v.bql_lock || !skb_queue_empty(u->v.done) ||
				!u->bql_lock.owner))
			act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_BH, i);
	}
	if (u->kevent_pending && bqlm_rusbnet_txq_unlocked(u))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_KEVENT, 0);
	if (down->busy ? bqlm_rc_runnable(down) :
	    u->stops_left && netif_running(u->net))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_STOP, 0);
	if (!down->busy && !netif_running(u->net) && !u->hcd.gone &&
	    bqlm_rusbnet_awake((struct bqlm_rc_actor *)&a[RUSBNET_IFUP]))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_OPEN, 0);
	if (u->timeouts_left && !down->busy && netif_running(u->net) &&
	    netif_device_present(u->net) && netif_carrier_ok(u->net) &&
	    netif_xmit_stopped(u->txq) &&
	    !a[RUSBNET_STACK].busy && !a[RUSBNET_NCM].busy)
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_TX_TIMEOUT, 0);
	if (a[RUSBNET_SUSPEND].busy ? bqlm_rc_runnable(&a[RUSBNET_SUSPEND]) :
	    u->suspends_left && !u->suspended && !a[RUSBNET_RESUME].busy &&
	    !u->hcd.gone &&
	    !(down->busy && (down->mark & RUSBNET_M_PM_HELD)) &&
	    !bqlm_rusbnet_core_refuses(u) && bqlm_rusbnet_txq_unlocked(u))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_SUSPEND, 0);
	if (a[RUSBNET_RESUME].busy ? bqlm_rc_runnable(&a[RUSBNET_RESUME]) :
	    u->suspended && bqlm_rusbnet_txq_unlocked(u))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_RESUME, 0);
	/*
	 * the status URB runs while the device is open and awake; status()
	 * reports a link that differs from the carrier
	 */
	if (!u->hcd.gone && !test_bit(EVENT_LINK_CARRIER_ON, u->v.flags) &&
	    !test_bit(EVENT_LINK_RESET, u->v.flags) && !down->busy &&
	    netif_running(u->net) && !u->suspended &&
	    !a[RUSBNET_SUSPEND].busy && !a[RUSBNET_RESUME].busy) {
		if (u->links_left && !netif_carrier_ok(u->net))
			act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_LINK, 0);
		if (u->link_downs_left && netif_carrier_ok(u->net))
			act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_LINK, 1);
	}
	/*
	 * dev_set_mtu(), under the RTNL: between any two steps, once, not
	 * once the disconnect's unregister_netdev() holds the RTNL
	 */
	if (u->cfg.mtu_qlen && !u->mtu_changed &&
	    !(unplug->mark & (RUSBNET_M_CLOSING | RUSBNET_M_UNREGISTERED)))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_CHANGE_MTU, 0);
	/* the unplug: once, while the device is awake; then its steps */
	if (unplug->busy ? bqlm_rc_runnable(unplug) :
	    u->cfg.disconnect && !u->hcd.gone &&
	    bqlm_rusbnet_awake((struct bqlm_rc_actor *)unplug))
		act[n++] = BQLM_X_ACTION(BQLM_USBNET_A_DISCONNECT, 0);
	return n;
}

/**
 * bqlm_rusbnet_parked_at() - where the actor of a model action is parked
 * @u: the harness
 * @action: the action
 *
 * Return: the yield point's name, "idle", "running" or "?".
 */
const char *bqlm_rusbnet_parked_at(const struct bqlm_rusbnet *u,
				   unsigned int action)
{
	int id = bqlm_rusbnet_actor_of(action);

	if (id < 0 || (unsigned int)id >= u->rc.nr_actors)
		return "?";
	return bqlm_rc_parked_at(&u->rc.actor[id]);
}
