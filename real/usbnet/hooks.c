// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real usbnet.c under the model's schedules: the calls that
 * real/usbnet/glue.h redirects to the harness, and what the fake host
 * controller reports of the URBs (see harness.h, docs/real-usbnet.md).
 *
 * Each hook does what the kernel's function does for the harness's device
 * and, where a model step of the calling actor ends, yields. Called
 * outside the harness's actors (device creation and teardown) or for
 * another object, a hook does what the kernel does.
 */
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>

#include <bqlm/dql.h>

#include "harness.h"

#define UNLINK_TEXT	"usbnet_terminate_urbs: unlink_urbs(&dev->txq)"
#define WAIT_TEXT	"usbnet_terminate_urbs: wait_skb_queue_empty(rxq, txq, done)"
#define TIMEOUT_TEXT	"wait_skb_queue_empty: schedule_timeout"

const struct bqlm_rc_yield bqlm_rusbnet_yields[RUSBNET_NR_YIELDS] = {
	[RUSBNET_Y_XMIT_LOCK] = {
		"usbnet_start_xmit: spin_lock_irqsave(&dev->txq.lock)",
		BQLM_USBNET_XMIT_FIXED },
	[RUSBNET_Y_XMIT_OVER] = {
		"netdev_sent_queue: over the limit",
		BQLM_USBNET_XMIT_XOFF },
	[RUSBNET_Y_XMIT_SMP_MB] = {
		"netdev_sent_queue: smp_mb",
		BQLM_USBNET_XMIT_RECHECK },
	[RUSBNET_Y_DEFER] = {
		"defer_bh: spin_lock_irqsave(&dev->txq.lock)",
		BQLM_RC_NO_PHASE },
	[RUSBNET_Y_BH_DEQUEUE] = {
		"usbnet_bh: skb_dequeue(&dev->done)",
		BQLM_USBNET_BH_LOOP },
	[RUSBNET_Y_BH_BQL_LOCK] = {
		"usbnet_bh: spin_lock_bh(&dev->bql_spinlock)",
		BQLM_USBNET_BH_ENTER },
	[RUSBNET_Y_BH_ENTER] = {
		"usbnet_bh: netdev_completed_queue",
		BQLM_USBNET_BH_ENTER },
	[RUSBNET_Y_BH_DQL] = {
		"netdev_completed_queue: dql_completed",
		BQLM_USBNET_BH_DQL },
	[RUSBNET_Y_BH_WAKE] = {
		"netdev_completed_queue: smp_mb, STACK_XOFF wake",
		BQLM_USBNET_BH_WAKE },
	[RUSBNET_Y_STOP_CLOSE] = {
		"dev_close: clear __LINK_STATE_START",
		BQLM_USBNET_STOP_CLOSE },
	[RUSBNET_Y_STOP_PM] = {
		"usbnet_stop: usb_autopm_get_interface",
		BQLM_USBNET_STOP_PM },
	[RUSBNET_Y_STOP_UNLINK] = { UNLINK_TEXT, BQLM_USBNET_STOP_UNLINK },
	[RUSBNET_Y_STOP_WAIT] = { WAIT_TEXT, BQLM_USBNET_STOP_WAIT },
	[RUSBNET_Y_STOP_DRAIN] = {
		"usbnet_terminate_urbs: FLAG_AVOID_UNLINK_URBS: wait_skb_queue_empty(txq, done)",
		BQLM_USBNET_STOP_WAIT },
	[RUSBNET_Y_STOP_TIMEOUT] = { TIMEOUT_TEXT, BQLM_USBNET_STOP_WAIT },
	[RUSBNET_Y_STOP_TIMER] = {
		"usbnet_stop: dev->flags = 0, del_timer_sync(&dev->delay)",
		BQLM_USBNET_STOP_TIMER },
	[RUSBNET_Y_STOP_WORK] = {
		"usbnet_stop: cancel_work_sync(&dev->bh_work), cancel_work_sync(&dev->kevent)",
		BQLM_USBNET_STOP_WORK },
	[RUSBNET_Y_STOP_AGAIN] = {
		"usbnet_stop: cancel_work_sync(bh_work), del_timer_sync, cancel_work_sync(kevent) again",
		BQLM_USBNET_STOP_AGAIN },
	[RUSBNET_Y_STOP_RESET] = {
		"usbnet_stop: netdev_reset_queue",
		BQLM_USBNET_STOP_RESET },
	[RUSBNET_Y_SUSPEND_UNLINK] = { UNLINK_TEXT, BQLM_USBNET_PM_DETACHED },
	[RUSBNET_Y_SUSPEND_WAIT] = { WAIT_TEXT, BQLM_USBNET_PM_WAIT },
	[RUSBNET_Y_SUSPEND_TIMEOUT] = { TIMEOUT_TEXT, BQLM_USBNET_PM_WAIT },
	[RUSBNET_Y_RESUMED] = {
		"usbnet_resume: spin_unlock_irq(&dev->txq.lock)",
		BQLM_USBNET_PM_RESUMING },
	/* the disconnect's step is its actor's marks (view.c) */
	[RUSBNET_Y_UNPLUGGED] = {
		"usb_disable_interface: URBs unlinked, usbnet_disconnect next",
		BQLM_RC_NO_PHASE },
	[RUSBNET_Y_UNREGISTERED] = {
		"usbnet_disconnect: unregister_netdev returned",
		BQLM_RC_NO_PHASE },
	[RUSBNET_Y_KILLED] = {
		"usbnet_disconnect: URBs killed, cancel_work_sync(bh_work), timer_delete_sync, dev->done freed",
		BQLM_RC_NO_PHASE },
};

static void bqlm_rusbnet_yield(struct bqlm_rc_actor *a,
			       enum bqlm_rusbnet_yield y, bqlm_rc_cond cond)
{
	bqlm_rc_yield(a, &bqlm_rusbnet_yields[y], cond);
}

/*
 * usbnet_terminate_urbs() runs in ifdown (or the disconnect's usbnet_stop())
 * and in suspend, whose steps it ends; in fixed-avoid-unlink's
 * usbnet_disconnect() too, inside the disconnect's kill step
 */
static bool bqlm_rusbnet_terminate_steps(const struct bqlm_rc_actor *a)
{
	return bqlm_rusbnet_is_down(a) || bqlm_rusbnet_id(a) == RUSBNET_SUSPEND;
}

/* usbnet_terminate_urbs() runs in ifdown and in suspend: whose step ends */
static void bqlm_rusbnet_terminate_yield(struct bqlm_rc_actor *a,
					 enum bqlm_rusbnet_yield stop,
					 enum bqlm_rusbnet_yield suspend,
					 bqlm_rc_cond cond)
{
	bqlm_rusbnet_yield(a, bqlm_rusbnet_id(a) == RUSBNET_SUSPEND ?
			   suspend : stop, cond);
}

/* The harness in use; NULL outside a run (usbnet.c then runs as usual). */
static struct bqlm_rusbnet *bqlm_rusbnet_cur(void)
{
	struct bqlm_hcd *hcd = bqlm_hcd_current();

	if (!hcd || hcd->ops != &bqlm_rusbnet_hcd_ops)
		return NULL;
	return container_of(hcd, struct bqlm_rusbnet, hcd);
}

/* The actor running the hook, or NULL outside an actor. */
static struct bqlm_rc_actor *bqlm_rusbnet_self(struct bqlm_rusbnet **up)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_cur();

	*up = u;
	return u ? bqlm_rc_self(&u->rc) : NULL;
}

/* The stack's transmit or cdc_ncm's flush: usbnet_start_xmit() runs */
static bool bqlm_rusbnet_is_xmit(const struct bqlm_rc_actor *a)
{
	return bqlm_rusbnet_id(a) == RUSBNET_STACK ||
	       bqlm_rusbnet_id(a) == RUSBNET_NCM;
}

static bool bqlm_rusbnet_is_bh(const struct bqlm_rc_actor *a)
{
	return bqlm_rusbnet_id(a) == RUSBNET_BH_WORK ||
	       bqlm_rusbnet_id(a) == RUSBNET_BH_TIMER;
}

static bool bqlm_rusbnet_is_usb(const struct bqlm_rc_actor *a)
{
	return bqlm_rusbnet_id(a) >= RUSBNET_USB0;
}

/* ------------------------------------------------------------------ */
/* The URBs, as the fake host controller reports them: the model's skbs */

/**
 * bqlm_rusbnet_slot_of() - the skb of an URB
 * @u: the harness
 * @urb: the URB
 *
 * Return: its slot, or -1.
 */
int bqlm_rusbnet_slot_of(const struct bqlm_rusbnet *u, const struct urb *urb)
{
	unsigned int i;

	for (i = 0; i < u->nr_slots; i++)
		if (u->slot[i].urb == urb)
			return i;
	return -1;
}

/* A new skb: the next slot, as the model numbers them. */
static int bqlm_rusbnet_new_slot(struct bqlm_rusbnet *u, struct urb *urb,
				 unsigned int where)
{
	struct bqlm_rusbnet_slot *s;

	if (u->nr_slots >= RUSBNET_MAX_SLOTS ||
	    u->nr_slots >= (u->cfg.skbs ? u->cfg.skbs : u->cfg.packets)) {
		bqlm_rc_fail(&u->rc, -ENOSPC, "more skbs than the model's %u slots",
			     u->nr_slots);
		return -ENOSPC;
	}
	s = &u->slot[u->nr_slots];
	s->urb = urb;
	s->len = urb->transfer_buffer_length;
	s->where = where;
	s->flags = 0;
	u->last_slot = u->nr_slots;
	return u->nr_slots++;
}

static struct bqlm_rusbnet *bqlm_rusbnet_of_hcd(struct bqlm_hcd *hcd)
{
	return container_of(hcd, struct bqlm_rusbnet, hcd);
}

/* usbnet_start_xmit()'s URB: its length is what BQL counts */
static void bqlm_rusbnet_urb_alloc(struct bqlm_hcd *hcd, struct urb *urb)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of_hcd(hcd);
	struct bqlm_rc_actor *a = bqlm_rc_self(&u->rc);

	if (a && bqlm_rusbnet_is_xmit(a))
		u->xmit_urb = urb;
}

/* Only the bulk-out endpoint's URBs are the model's skbs: no other is taken */
static int bqlm_rusbnet_urb_submit(struct bqlm_hcd *hcd, struct urb *urb)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of_hcd(hcd);
	int i;

	if (!usb_pipebulk(urb->pipe) || usb_pipein(urb->pipe) ||
	    usb_pipeendpoint(urb->pipe) != BQLM_HCD_EP_OUT)
		return -ENODEV;
	i = bqlm_rusbnet_slot_of(u, urb);

	if (i < 0)
		i = bqlm_rusbnet_new_slot(u, urb, BQLM_USBNET_SKB_TXQ);
	if (i < 0)
		return -ENOMEM;
	u->slot[i].where = BQLM_USBNET_SKB_TXQ;
	u->last_slot = i;
	return 0;
}

static void bqlm_rusbnet_urb_unlink(struct bqlm_hcd *hcd, struct urb *urb)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of_hcd(hcd);
	int i = bqlm_rusbnet_slot_of(u, urb);

	if (i >= 0)
		u->slot[i].where = BQLM_USBNET_SKB_UNLINKED;
}

/* usbnet_start_xmit() defers an URB while the device sleeps */
static void bqlm_rusbnet_urb_anchor(struct bqlm_hcd *hcd, struct urb *urb)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of_hcd(hcd);

	if (bqlm_rusbnet_slot_of(u, urb) < 0)
		bqlm_rusbnet_new_slot(u, urb, BQLM_USBNET_SKB_DEFERRED);
}

/* The URB is freed: its address may come back for a new skb. */
static void bqlm_rusbnet_urb_release(struct bqlm_hcd *hcd, struct urb *urb)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of_hcd(hcd);
	struct bqlm_rc_actor *a = bqlm_rc_self(&u->rc);
	int i = bqlm_rusbnet_slot_of(u, urb);

	if (i >= 0) {
		struct bqlm_rusbnet_slot *s = &u->slot[i];

		s->urb = NULL;
		/*
		 * usbnet_disconnect() frees the URBs of dev->deferred, and
		 * (fixed-avoid-unlink) the skbs left on dev->done
		 */
		if ((s->where == BQLM_USBNET_SKB_DEFERRED ||
		     s->where == BQLM_USBNET_SKB_DONE) && a &&
		    bqlm_rusbnet_id(a) == RUSBNET_DISCONNECT) {
			s->where = BQLM_USBNET_SKB_GONE;
			s->flags = 0;
			s->len = 0;
		}
	}
	if (u->xmit_urb == urb)
		u->xmit_urb = NULL;
}

/**
 * bqlm_rusbnet_awake() - may ifdown go on past usb_autopm_get_interface()?
 * @a: the actor
 *
 * Return: true when the device is not suspended, suspending or resuming
 * (the model's step 3 of ifdown waits for it).
 */
bool bqlm_rusbnet_awake(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	return !u->suspended && !u->rc.actor[RUSBNET_SUSPEND].busy &&
	       !u->rc.actor[RUSBNET_RESUME].busy;
}

static void bqlm_rusbnet_autopm_get(struct bqlm_hcd *hcd,
				    struct usb_interface *intf)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of_hcd(hcd);
	struct bqlm_rc_actor *a = bqlm_rc_self(&u->rc);

	if (a && bqlm_rusbnet_is_down(a) &&
	    !(a->mark & RUSBNET_M_PM_HELD)) {
		bqlm_rusbnet_yield(a, RUSBNET_Y_STOP_PM, bqlm_rusbnet_awake);
		a->mark |= RUSBNET_M_PM_HELD;
	}
}

/*
 * The device's answer to a control transfer: the minidriver's, or zeros,
 * or the failure the configuration asks for
 */
static int bqlm_rusbnet_control(struct bqlm_hcd *hcd, u8 request,
				u8 requesttype, u16 value, u16 index, void *data,
				u16 size)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of_hcd(hcd);
	struct bqlm_rc_actor *a = bqlm_rc_self(&u->rc);

	/* the model's pm own-suspend-fails: the entry's transfer fails */
	if ((u->cfg.pm & BQLM_USBNET_PM_OWN_SUSPEND_FAILS) &&
	    u->drv->fail_request && request == u->drv->fail_request &&
	    index == u->drv->fail_index && a &&
	    bqlm_rusbnet_id(a) == RUSBNET_SUSPEND) {
		a->mark |= RUSBNET_M_OWN_FAILED;
		return -EIO;
	}
	if (u->drv->control && u->net)
		return u->drv->control(netdev_priv(u->net), request,
				       requesttype, value, index, data, size);
	return size;
}

const struct bqlm_hcd_ops bqlm_rusbnet_hcd_ops = {
	.alloc		= bqlm_rusbnet_urb_alloc,
	.submit		= bqlm_rusbnet_urb_submit,
	.unlink		= bqlm_rusbnet_urb_unlink,
	.anchor		= bqlm_rusbnet_urb_anchor,
	.release	= bqlm_rusbnet_urb_release,
	.autopm_get	= bqlm_rusbnet_autopm_get,
	.control	= bqlm_rusbnet_control,
};

/**
 * bqlm_rusbnet_hrtimer_start() - hrtimer_start() of cdc_ncm's flush timer: the
 *	schedule flushes
 * @timer: the timer
 * @tim: its expiry
 * @mode: its mode
 */
void bqlm_rusbnet_hrtimer_start(struct hrtimer *timer, ktime_t tim,
				const enum hrtimer_mode mode)
{
}

/**
 * bqlm_rusbnet_hrtimer_active() - hrtimer_active(): the flush timer is the
 *	schedule's
 * @timer: the timer
 *
 * Return: false.
 */
bool bqlm_rusbnet_hrtimer_active(const struct hrtimer *timer)
{
	return false;
}

/**
 * bqlm_rusbnet_netif_tx_lock_bh() - netif_tx_lock_bh() around cdc_ncm's flush:
 *	the schedule serialises it
 * @dev: the net_device
 */
void bqlm_rusbnet_netif_tx_lock_bh(struct net_device *dev)
{
}

/**
 * bqlm_rusbnet_netif_tx_unlock_bh() - netif_tx_unlock_bh(): as
 *	bqlm_rusbnet_netif_tx_lock_bh()
 * @dev: the net_device
 */
void bqlm_rusbnet_netif_tx_unlock_bh(struct net_device *dev)
{
}

/* ------------------------------------------------------------------ */
/* Deferred work */

/**
 * bqlm_rusbnet_tasklet_schedule() - tasklet_schedule(): the bh is pending, the
 *	schedule runs it
 * @t: the tasklet
 */
void bqlm_rusbnet_tasklet_schedule(struct tasklet_struct *t)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_cur();

	if (u && t == u->v.bh)
		u->work_pending = true;
}

/* Set or clear a pending bottom half; return whether it was pending. */
static bool bqlm_rusbnet_pend(bool *pending, bool now)
{
	bool was = *pending;

	*pending = now;
	return was;
}

static bool bqlm_rusbnet_work_idle(struct bqlm_rc_actor *a)
{
	return !bqlm_rusbnet_of(a)->rc.actor[RUSBNET_BH_WORK].busy;
}

static bool bqlm_rusbnet_bh_idle(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	return !u->rc.actor[RUSBNET_BH_WORK].busy &&
	       !u->rc.actor[RUSBNET_BH_TIMER].busy;
}

static bool bqlm_rusbnet_timer_idle(struct bqlm_rc_actor *a)
{
	return !bqlm_rusbnet_of(a)->rc.actor[RUSBNET_BH_TIMER].busy;
}

/*
 * The bh cancelled, as cancel_work_sync(&dev->bh_work) does: a run in
 * progress is waited for (usbnet_stop()'s two cancels are its steps), a
 * queued one is dropped, not run. @what names the call for a failure.
 */
static void bqlm_rusbnet_bh_cancel(struct bqlm_rusbnet *u,
				   struct bqlm_rc_actor *a, const char *what)
{
	if (a && bqlm_rusbnet_is_down(a)) {
		if (!(a->mark & RUSBNET_M_KILL1)) {
			bqlm_rusbnet_yield(a, RUSBNET_Y_STOP_WORK,
					   bqlm_rusbnet_work_idle);
			a->mark |= RUSBNET_M_KILL1;
		} else if (!(a->mark & RUSBNET_M_KILL2)) {
			bqlm_rusbnet_yield(a, RUSBNET_Y_STOP_AGAIN,
					   bqlm_rusbnet_bh_idle);
			a->mark |= RUSBNET_M_KILL2;
		}
	}
	if (u->rc.actor[RUSBNET_BH_WORK].busy && a)
		bqlm_rc_fail(&u->rc, -EDEADLK, "%s with the bh running", what);
	u->work_pending = false;
}

/**
 * bqlm_rusbnet_tasklet_kill() - tasklet_kill() of 6.12's bh tasklet (the
 *	variant no-bql), given the semantics of cancel_work_sync() as the
 *	model has them: a scheduled bh is dropped, where the kernel's
 *	tasklet_kill() runs it first
 * @t: the tasklet
 */
void bqlm_rusbnet_tasklet_kill(struct tasklet_struct *t)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (!u || !t || t != u->v.bh)
		return;
	bqlm_rusbnet_bh_cancel(u, a, "tasklet_kill()");
}

/**
 * bqlm_rusbnet_queue_work() - queue_work() of the bh work (the BH-work
 *	variants): pending, the schedule runs it, unless disable_work_sync()
 *	disabled it
 * @wq: the workqueue (system_bh_wq)
 * @work: the work
 *
 * Return: whether it was queued now (it was neither pending nor disabled).
 */
bool bqlm_rusbnet_queue_work(struct workqueue_struct *wq,
			     struct work_struct *work)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_cur();

	if (!u || !work || work != u->v.bh_work || u->bh_disabled)
		return false;
	return !bqlm_rusbnet_pend(&u->work_pending, true);
}

/**
 * bqlm_rusbnet_disable_work_sync() - disable_work_sync() of the bh work:
 *	cancelled as by cancel_work_sync(), and queue_work() refuses it until
 *	enable_work()
 * @work: the work
 *
 * Return: whether it was pending.
 */
bool bqlm_rusbnet_disable_work_sync(struct work_struct *work)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);
	bool was;

	if (!u || !work || work != u->v.bh_work)
		return false;
	was = u->work_pending;
	bqlm_rusbnet_bh_cancel(u, a, "disable_work_sync(&dev->bh_work)");
	u->bh_disabled++;
	return was;
}

/**
 * bqlm_rusbnet_enable_work() - enable_work() of the bh work: one disable
 *	undone
 * @work: the work
 *
 * Return: whether it is enabled now.
 */
bool bqlm_rusbnet_enable_work(struct work_struct *work)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_cur();

	if (!u || !work || work != u->v.bh_work)
		return true;
	if (!u->bh_disabled) {
		bqlm_rc_fail(&u->rc, -EINVAL,
			     "enable_work(&dev->bh_work) without a disable");
		return true;
	}
	return !--u->bh_disabled;
}

/**
 * bqlm_rusbnet_mod_timer() - mod_timer() of dev->delay: pending, the schedule
 *	runs it
 * @timer: the timer
 * @expires: its expiry
 *
 * Return: whether it was pending.
 */
int bqlm_rusbnet_mod_timer(struct timer_list *timer, unsigned long expires)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_cur();

	if (!u || timer != u->v.delay)
		return 0;
	return bqlm_rusbnet_pend(&u->timer_pending, true);
}

/**
 * bqlm_rusbnet_timer_pending() - timer_pending() of dev->delay
 * @timer: the timer
 *
 * Return: whether it is pending.
 */
int bqlm_rusbnet_timer_pending(const struct timer_list *timer)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_cur();

	return u && timer == u->v.delay && u->timer_pending;
}

/**
 * bqlm_rusbnet_del_timer_sync() - del_timer_sync() of dev->delay: no longer
 *	pending
 * @timer: the timer
 *
 * Return: whether it was pending.
 */
int bqlm_rusbnet_del_timer_sync(struct timer_list *timer)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (!u || timer != u->v.delay)
		return 0;
	if (u->rc.actor[RUSBNET_BH_TIMER].busy && a)
		bqlm_rc_fail(&u->rc, -EDEADLK, "del_timer_sync() with the timer running");
	return bqlm_rusbnet_pend(&u->timer_pending, false);
}

/**
 * bqlm_rusbnet_schedule_work() - schedule_work() of the kevent: pending, the
 *	schedule runs it
 * @work: the work
 *
 * Return: whether it was idle.
 */
bool bqlm_rusbnet_schedule_work(struct work_struct *work)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_cur();

	if (!u || work != u->v.kevent)
		return false;
	return !bqlm_rusbnet_pend(&u->kevent_pending, true);
}

/**
 * bqlm_rusbnet_cancel_work_sync() - cancel_work_sync() of the bh work (the
 *	BH-work variants: a queued run dropped, a running one waited for) or
 *	of the kevent: no longer pending
 * @work: the work
 *
 * Return: whether it was pending.
 */
bool bqlm_rusbnet_cancel_work_sync(struct work_struct *work)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);
	bool was;

	if (u && work && work == u->v.bh_work) {
		was = u->work_pending;
		bqlm_rusbnet_bh_cancel(u, a, "cancel_work_sync(&dev->bh_work)");
		return was;
	}
	if (!u || work != u->v.kevent)
		return false;
	/*
	 * fixed-avoid-unlink's usbnet_disconnect(): its kill ran, the
	 * disconnect's step (the model's disconnect_kill) ends
	 */
	if (a && bqlm_rusbnet_id(a) == RUSBNET_DISCONNECT &&
	    u->cfg.disconnect_kill &&
	    (a->mark & RUSBNET_M_UNREGISTERED) &&
	    !(a->mark & RUSBNET_M_KILLED)) {
		a->mark |= RUSBNET_M_KILLED;
		bqlm_rusbnet_yield(a, RUSBNET_Y_KILLED, bqlm_rusbnet_no_xmit);
	}
	return bqlm_rusbnet_pend(&u->kevent_pending, false);
}

/* ------------------------------------------------------------------ */
/* Locks and the other step boundaries */

static bool bqlm_rusbnet_txq_free(struct bqlm_rc_actor *a)
{
	return bqlm_rc_lock_free(a, &bqlm_rusbnet_of(a)->txq_lock);
}

static bool bqlm_rusbnet_bql_free(struct bqlm_rc_actor *a)
{
	return bqlm_rc_lock_free(a, &bqlm_rusbnet_of(a)->bql_lock);
}

/*
 * ifdown's usbnet_terminate_urbs() without the RX URBs (the fix of
 * fixed-avoid-unlink under FLAG_AVOID_UNLINK_URBS), in the unlink of
 * dev->txq: the next dev->txq.lock, if every URB on it is unlinked, ends
 * the unlink
 */
static bool bqlm_rusbnet_tx_only(const struct bqlm_rusbnet *u)
{
	struct sk_buff *skb;

	if (!(u->cfg.flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS) ||
	    u->cfg.stop_drain != BQLM_USBNET_DRAIN_UNLINK)
		return false;
	skb_queue_walk(u->v.txq, skb)
		if (((struct skb_data *)skb->cb)->state != unlink_start)
			return false;
	return true;
}

static bool bqlm_rusbnet_queues_empty(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	return skb_queue_empty(u->v.txq) && skb_queue_empty(u->v.rxq) &&
	       skb_queue_empty(u->v.done);
}

/**
 * bqlm_rusbnet_lock() - spin_lock_irqsave() and its kin in the compiled
 *	usbnet.c and minidrivers
 * @l: the lock
 * @bh: taken with spin_lock_bh()
 *
 * Return: true if @l is dev->txq.lock or dev->bql_spinlock taken by an
 * actor: the harness's lock was taken instead, at the end of a model step
 * of a transmit, a completion or a bh.
 */
bool bqlm_rusbnet_lock(spinlock_t *l, bool bh)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (!a)
		return false;
	if (!bh && l == u->v.txq_lock) {
		/* the transmit path and defer_bh() start a step here */
		if (bqlm_rusbnet_is_xmit(a)) {
			/* the URB is filled: its length is what BQL counts */
			u->xmit_len = u->xmit_urb ?
				      u->xmit_urb->transfer_buffer_length : 0;
			bqlm_rusbnet_yield(a, RUSBNET_Y_XMIT_LOCK,
					   bqlm_rusbnet_txq_free);
		} else if (bqlm_rusbnet_is_usb(a)) {
			bqlm_rusbnet_yield(a, RUSBNET_Y_DEFER,
					   bqlm_rusbnet_txq_free);
		} else if (bqlm_rusbnet_is_down(a) &&
			   (a->mark & RUSBNET_M_TERMINATE) &&
			   !(a->mark & RUSBNET_M_DRAIN) &&
			   bqlm_rusbnet_tx_only(u)) {
			/*
			 * fixed-avoid-unlink's usbnet_terminate_urbs() without
			 * the RX URBs: the first dev->txq.lock taken with
			 * every URB of dev->txq unlinked is unlink_urbs()'s
			 * last (it finds none left) or its wait's
			 */
			bqlm_rusbnet_yield(a, RUSBNET_Y_STOP_DRAIN,
					   bqlm_rusbnet_queues_empty);
			a->mark |= RUSBNET_M_DRAIN;
		} else if (!bqlm_rc_lock_free(a, &u->txq_lock)) {
			u->midstep = "dev->txq.lock held in the middle of a step";
		}
		bqlm_rc_lock(a, &u->txq_lock);
		return true;
	}
	if (bh && u->v.bql_lock && l == u->v.bql_lock) {
		/* with bytes to report, the end of the skb_dequeue() loop */
		if (bqlm_rusbnet_is_bh(a) && a->count)
			bqlm_rusbnet_yield(a, RUSBNET_Y_BH_BQL_LOCK,
					   bqlm_rusbnet_bql_free);
		else if (!bqlm_rc_lock_free(a, &u->bql_lock))
			u->midstep = "dev->bql_spinlock held in the middle of a step";
		bqlm_rc_lock(a, &u->bql_lock);
		return true;
	}
	/* wait_skb_queue_empty(&dev->done): the real code waits for it */
	if (!bh && l == &u->v.done->lock && (a->mark & RUSBNET_M_TERMINATE))
		a->mark |= RUSBNET_M_WAITED_DONE;
	if (!bh && l == u->v.rxq_lock && (a->mark & RUSBNET_M_TERMINATE) &&
	    bqlm_rusbnet_terminate_steps(a) && ++a->count == 2)
		/* unlink_urbs(rxq) took it once; wait_skb_queue_empty() next */
		bqlm_rusbnet_terminate_yield(a, RUSBNET_Y_STOP_WAIT,
					     RUSBNET_Y_SUSPEND_WAIT,
					     bqlm_rusbnet_queues_empty);
	return false;
}

/**
 * bqlm_rusbnet_unlock() - the unlocks of bqlm_rusbnet_lock()'s locks
 * @l: the lock
 * @bh: released with spin_unlock_bh()
 *
 * Return: true if the harness's lock was released instead of @l.
 */
bool bqlm_rusbnet_unlock(spinlock_t *l, bool bh)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (!a)
		return false;
	if (!bh && l == u->v.txq_lock) {
		bqlm_rc_unlock(a, &u->txq_lock);
		/* usbnet_resume(): the resume's, or a failed suspend()'s */
		if (bqlm_rusbnet_id(a) == RUSBNET_RESUME ||
		    (a->mark & RUSBNET_M_OWN_FAILED)) {
			/* a minidriver's reset in its resume sized RX */
			u->ops->rx_off(u->net);
			bqlm_rusbnet_yield(a, RUSBNET_Y_RESUMED, NULL);
		}
		return true;
	}
	if (bh && u->v.bql_lock && l == u->v.bql_lock) {
		bqlm_rc_unlock(a, &u->bql_lock);
		return true;
	}
	return false;
}

/*
 * A bh run that will find dev->done empty with nothing counted ends in
 * one step; under dev->bql_spinlock (merged and later) that step also
 * takes the lock, so it must be free.
 */
static bool bqlm_rusbnet_bh_can_end(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	if (!u->v.bql_lock || a->count || !skb_queue_empty(u->v.done))
		return true;
	return bqlm_rusbnet_bql_free(a);
}

/**
 * bqlm_rusbnet_bh_free() - the skbs a bh context dequeued are freed
 * @u: the harness
 * @a: the bh's actor
 * @reported: their bytes were reported to BQL (the model's accounting of
 *	stale and unsent skbs)
 */
void bqlm_rusbnet_bh_free(struct bqlm_rusbnet *u, struct bqlm_rc_actor *a,
			  bool reported)
{
	unsigned char mark = bqlm_rusbnet_id(a) == RUSBNET_BH_TIMER ?
			     BQLM_USBNET_SKB_TIMER : 0;
	unsigned int i;

	for (i = 0; i < u->nr_slots; i++) {
		struct bqlm_rusbnet_slot *s = &u->slot[i];

		if (s->where != BQLM_USBNET_SKB_BH ||
		    (s->flags & BQLM_USBNET_SKB_TIMER) != mark)
			continue;
		if (reported && (s->flags & BQLM_USBNET_SKB_STALE))
			u->ev.stale_bytes += s->len;
		if (reported && !(s->flags & BQLM_USBNET_SKB_SENT))
			u->ev.unsent_skbs++;
		s->where = BQLM_USBNET_SKB_GONE;
		s->flags = 0;
		s->len = 0;
	}
}

/**
 * bqlm_rusbnet_skb_dequeue() - skb_dequeue(): a bh's loop on dev->done, one
 *	model step per further skb
 * @list: the queue
 *
 * Return: the skb, or NULL.
 */
struct sk_buff *bqlm_rusbnet_skb_dequeue(struct sk_buff_head *list)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);
	struct skb_data *entry;
	struct sk_buff *skb;
	int i;

	if (!a || list != u->v.done || !bqlm_rusbnet_is_bh(a))
		return skb_dequeue(list);
	if (a->arg++)
		bqlm_rusbnet_yield(a, RUSBNET_Y_BH_DEQUEUE,
				   bqlm_rusbnet_bh_can_end);
	skb = skb_dequeue(list);
	if (!skb)
		return NULL;	/* the loop ends (the run frees what it took) */
	entry = (struct skb_data *)skb->cb;
	if (entry->state != tx_done)
		return skb;
	i = bqlm_rusbnet_slot_of(u, entry->urb);
	if (i >= 0) {
		u->slot[i].where = BQLM_USBNET_SKB_BH;
		if (bqlm_rusbnet_id(a) == RUSBNET_BH_TIMER)
			u->slot[i].flags |= BQLM_USBNET_SKB_TIMER;
	}
	a->count += skb->len;
	u->bh_pkts[bqlm_rusbnet_id(a) - RUSBNET_BH_WORK]++;
	return skb;
}

/**
 * bqlm_rusbnet_skb_queue_purge() - skb_queue_purge(): ifdown's purge of
 *	dev->rxq_pause ends a step
 * @list: the queue
 */
void bqlm_rusbnet_skb_queue_purge(struct sk_buff_head *list)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (a && list == u->v.rxq_pause && bqlm_rusbnet_is_down(a)) {
		/*
		 * The step of the waits parked the stop until dev->txq,
		 * dev->rxq and dev->done were empty, as the model's does: the
		 * real code must have waited for dev->done too, or the
		 * harness's wait hid a stop that does not (a bh the stop's
		 * cancel then drops)
		 */
		if ((a->mark & RUSBNET_M_TERMINATE) &&
		    !(a->mark & RUSBNET_M_WAITED_DONE))
			bqlm_rc_fail(&u->rc, -EPROTO,
				     "usbnet_terminate_urbs() of the stop returned without waiting for dev->done, which the step's wait waited for");
		bqlm_rusbnet_yield(a, RUSBNET_Y_STOP_TIMER,
				   bqlm_rusbnet_timer_idle);
	}
	skb_queue_purge(list);
}

/**
 * bqlm_rusbnet_add_wait_queue() - add_wait_queue(): usbnet_terminate_urbs()
 *	starts, a step ends
 * @wq_head: the wait queue
 * @wq_entry: the entry
 */
void bqlm_rusbnet_add_wait_queue(struct wait_queue_head *wq_head,
				 struct wait_queue_entry *wq_entry)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (a && wq_head == u->v.wait && bqlm_rusbnet_terminate_steps(a)) {
		bqlm_rusbnet_terminate_yield(a, RUSBNET_Y_STOP_UNLINK,
					     RUSBNET_Y_SUSPEND_UNLINK,
					     bqlm_rusbnet_txq_free);
		a->mark |= RUSBNET_M_TERMINATE;
		a->count = 0;
	}
	add_wait_queue(wq_head, wq_entry);
}

/**
 * bqlm_rusbnet_schedule_timeout() - schedule_timeout() in
 *	wait_skb_queue_empty(): a wait the step did not foresee
 * @timeout: its timeout
 *
 * Return: 0.
 */
long bqlm_rusbnet_schedule_timeout(long timeout)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (!a)
		return schedule_timeout(timeout);
	/* the schedule resumed it with a queue not yet empty */
	u->midstep = "wait_skb_queue_empty() waits in the middle of a step";
	__set_current_state(TASK_RUNNING);
	bqlm_rusbnet_terminate_yield(a, RUSBNET_Y_STOP_TIMEOUT,
				     RUSBNET_Y_SUSPEND_TIMEOUT,
				     bqlm_rusbnet_queues_empty);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The BQL calls, as <linux/netdevice.h> has them, with the model's steps */

/**
 * bqlm_rusbnet_netdev_sent_queue() - netdev_sent_queue(), as 6.12's, with the
 *	transmit's model steps
 * @net: the net_device
 * @bytes: bytes
 */
void bqlm_rusbnet_netdev_sent_queue(struct net_device *net, unsigned int bytes)
{
	struct netdev_queue *q = netdev_get_tx_queue(net, 0);
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);
	bool split = a && bqlm_rusbnet_is_xmit(a);

	dql_queued(&q->dql, bytes);
	if (u && u->last_slot < u->nr_slots)
		u->slot[u->last_slot].flags |= BQLM_USBNET_SKB_SENT;
	if (likely(dql_avail(&q->dql) >= 0))
		return;
	if (split)
		bqlm_rusbnet_yield(a, RUSBNET_Y_XMIT_OVER, NULL);
	WRITE_ONCE(q->trans_start, jiffies);
	/* as netdev_tx_sent_queue(): pairs with dev_watchdog()'s smp_mb() */
	smp_mb__before_atomic();
	set_bit(__QUEUE_STATE_STACK_XOFF, &q->state);
	/* STACK_XOFF before the re-check; pairs with the completion's */
	smp_mb();
	if (split)
		bqlm_rusbnet_yield(a, RUSBNET_Y_XMIT_SMP_MB, NULL);
	if (unlikely(dql_avail(&q->dql) >= 0))
		clear_bit(__QUEUE_STATE_STACK_XOFF, &q->state);
}

/**
 * bqlm_rusbnet_netdev_completed_queue() - netdev_completed_queue(), as 6.12's,
 *	with the bh's model steps; an over-completion is reported, not made
 * @net: the net_device
 * @pkts: packets
 * @bytes: bytes
 */
void bqlm_rusbnet_netdev_completed_queue(struct net_device *net,
					 unsigned int pkts, unsigned int bytes)
{
	struct netdev_queue *q = netdev_get_tx_queue(net, 0);
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (unlikely(!bytes))
		return;
	if (a && bqlm_rusbnet_is_bh(a) && u->bql_lock.owner != a) {
		/* v1: the end of the loop, then entering is a step */
		bqlm_rusbnet_yield(a, RUSBNET_Y_BH_ENTER, NULL);
		bqlm_rusbnet_yield(a, RUSBNET_Y_BH_DQL, NULL);
	}
	bqlm_rc_dql_completed(q, bytes, u ? &u->ev : NULL);
	if (a) {
		bqlm_rusbnet_bh_free(u, a, true);
		bqlm_rusbnet_yield(a, RUSBNET_Y_BH_WAKE, NULL);
	}
	bqlm_rc_completed_wake(q);
}

/**
 * bqlm_rusbnet_netdev_reset_queue() - netdev_reset_queue(), at the end of
 *	ifdown's model step
 * @net: the net_device
 */
void bqlm_rusbnet_netdev_reset_queue(struct net_device *net)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);
	unsigned int i;

	if (a && bqlm_rusbnet_is_down(a) &&
	    (a->mark & RUSBNET_M_KILL2))
		bqlm_rusbnet_yield(a, RUSBNET_Y_STOP_RESET, NULL);
	if (u)
		for (i = 0; i < u->nr_slots; i++)
			if (bqlm_usbnet_skb_held(u->slot[i].where))
				u->slot[i].flags |= BQLM_USBNET_SKB_STALE;
	netdev_reset_queue(net);
}

/* ------------------------------------------------------------------ */
/* usbnet_disconnect() on a device that was never registered */

/**
 * bqlm_rusbnet_no_xmit() - is no usbnet_start_xmit() in progress?
 * @a: the actor waiting for it
 *
 * Return: true when neither the stack nor cdc_ncm's flush transmits.
 */
bool bqlm_rusbnet_no_xmit(struct bqlm_rc_actor *a)
{
	struct bqlm_rusbnet *u = bqlm_rusbnet_of(a);

	return !u->rc.actor[RUSBNET_STACK].busy && !u->rc.actor[RUSBNET_NCM].busy;
}

/*
 * fixed-avoid-unlink's usbnet_disconnect() may kill: no transmit, and no
 * bh run in progress (tasklet_kill() and del_timer_sync() would wait)
 */
static bool bqlm_rusbnet_can_kill(struct bqlm_rc_actor *a)
{
	return bqlm_rusbnet_no_xmit(a) && bqlm_rusbnet_bh_idle(a);
}

/**
 * bqlm_rusbnet_unregister_netdev() - unregister_netdev() of
 *	usbnet_disconnect(): close an open device as dev_close() does, with
 *	the model's steps, and end the disconnect's step
 * @net: the net_device
 *
 * The RTNL it takes is the disconnect actor's wait for an ifdown in
 * progress (the condition of the step that got here). An open device:
 * __LINK_STATE_START cleared (a step, as ifdown's first), then
 * usbnet_stop() under the disconnect actor, whose yields are ifdown's.
 * Then the step ends once no transmit is in progress. The harness's device
 * is not registered: nothing else of unregister_netdevice() applies.
 * Outside the harness's disconnect it does nothing but warn.
 */
void bqlm_rusbnet_unregister_netdev(struct net_device *net)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (WARN_ONCE(!a || net != u->net ||
		      bqlm_rusbnet_id(a) != RUSBNET_DISCONNECT,
		      "bqlm real-code harness: unregister_netdev() outside the disconnect"))
		return;
	if (netif_running(net)) {
		a->mark |= RUSBNET_M_CLOSING;
		clear_bit(__LINK_STATE_START, &net->state);
		bqlm_rusbnet_yield(a, RUSBNET_Y_STOP_CLOSE,
				   bqlm_rusbnet_no_xmit);
		u->ops->stop(net);
	}
	a->mark |= RUSBNET_M_UNREGISTERED;
	bqlm_rusbnet_yield(a, RUSBNET_Y_UNREGISTERED,
			   u->cfg.disconnect_kill ? bqlm_rusbnet_can_kill :
						    bqlm_rusbnet_no_xmit);
}

/**
 * bqlm_rusbnet_left_behind() - what could still act on the device, from
 *	the real state: the model's freed-busy count
 * @u: the harness
 *
 * Return: each bh context (the bh tasklet, the dev->delay timer) that is
 * scheduled, armed or running, plus the skbs still on dev->txq, dev->rxq
 * and dev->done and those a bh run holds.
 */
unsigned int bqlm_rusbnet_left_behind(const struct bqlm_rusbnet *u)
{
	unsigned int i, n;

	n = (u->work_pending || u->rc.actor[RUSBNET_BH_WORK].busy) +
	    (u->timer_pending || u->rc.actor[RUSBNET_BH_TIMER].busy);
	n += skb_queue_len(u->v.txq) + skb_queue_len(u->v.rxq) +
	     skb_queue_len(u->v.done);
	for (i = 0; i < u->nr_slots; i++)
		n += u->slot[i].where == BQLM_USBNET_SKB_BH;
	return n;
}

/**
 * bqlm_rusbnet_free_netdev() - free_netdev() of usbnet_disconnect(): the
 *	freed-busy check on the real state, and the device is gone
 * @net: the net_device
 *
 * What would still act on the freed device is counted into the step's
 * event (the model's checks report it as freed-busy); the memory itself
 * is kept until the harness's teardown, so that nothing runs on freed
 * memory. Any other net_device is freed as free_netdev() does.
 */
void bqlm_rusbnet_free_netdev(struct net_device *net)
{
	struct bqlm_rusbnet *u;
	struct bqlm_rc_actor *a = bqlm_rusbnet_self(&u);

	if (!u || net != u->net) {
		free_netdev(net);
		return;
	}
	if (WARN_ONCE(!a || bqlm_rusbnet_id(a) != RUSBNET_DISCONNECT,
		      "bqlm real-code harness: free_netdev() outside the disconnect"))
		return;
	u->ev.after_free = bqlm_rusbnet_left_behind(u);
	u->gone = true;
}
