// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real usbnet.c under the model's schedules: the fake host
 * controller, the redirected calls, the actors, and the model run in
 * lockstep with the real code (see docs/real-code.md).
 *
 * One model action is one real step: the actor the action names runs real
 * code from where it is parked to its next yield point. The yield points
 * (the hooks below) sit exactly where the model's steps of that actor end:
 *
 *   stack	tx_fixup | txq.lock, submit, queue, netdev_sent_queue:
 *		dql_queued | set STACK_XOFF, smp_mb | re-check, TX_QLEN, unlock
 *   usb N	tx_complete() | defer_bh() (from txq.lock on) and giveback
 *   bh-work,	start + 1st skb_dequeue(&dev->done) | each further dequeue |
 *   timer	(BQL, bytes) [v1: enter |] dql_completed | smp_mb, wake, tail
 *   ifdown	dev_close | usbnet_stop() to usb_autopm_get_interface() |
 *		to usbnet_terminate_urbs() | unlink | waits | flags = 0,
 *		del_timer_sync | tasklet_kill, cancel kevent | again |
 *		(fix-reset, fixed) netdev_reset_queue
 *   suspend	EVENT_DEV_ASLEEP, detach | unlink | waits, attach
 *   resume	resubmit under txq.lock | wake, schedule the bh
 *   open, watchdog, kevent: one step each
 *
 * The bh of 6.12 is a tasklet; the BQL changes were made on the BH work
 * item of 6.14. tasklet_kill() runs a scheduled tasklet before it returns,
 * cancel_work_sync() cancels a queued work: the harness's tasklet_kill()
 * does what cancel_work_sync() does (waits for a running bh, cancels a
 * queued one), which is what the upstream fixes were written against.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <bqlm/dql.h>
#include <bqlm/explore.h>
#include <bqlm/invariants.h>
#include <bqlm/prng.h>

#include "usbnet_rc.h"
#include "usbnet_real.h"

/* The actors */
enum {
	RCU_STACK,
	RCU_BH_WORK,
	RCU_BH_TIMER,
	RCU_KEVENT,
	RCU_IFDOWN,
	RCU_IFUP,
	RCU_WATCHDOG,
	RCU_SUSPEND,
	RCU_RESUME,
	RCU_USB0,
};

#define RCU_MAX_SLOTS	(BQLM_RC_MAX_ACTORS - RCU_USB0)

static const char *const bqlm_rcu_names[BQLM_RC_MAX_ACTORS] = {
	"stack", "bh-work", "timer", "kevent", "ifdown", "ifup", "watchdog",
	"suspend", "resume", "usb0", "usb1", "usb2", "usb3", "usb4", "usb5",
	"usb6", "usb7", "usb8", "usb9", "usb10", "usb11", "usb12", "usb13",
	"usb14",
};

/* actor->mark bits */
#define M_XOFF		0x01	/* stack: over the limit, STACK_XOFF next */
#define M_RECHECK	0x02	/* stack: after smp_mb(), re-check next */
#define M_IN_DQL	0x08	/* bh (v1): entered, dql_completed() next */
#define M_PM_HELD	0x10	/* ifdown: usb_autopm_get_interface() done */
#define M_TERMINATE	0x20	/* ifdown/suspend: in usbnet_terminate_urbs() */
#define M_KILL1		0x40	/* ifdown: first tasklet_kill() done */
#define M_KILL2		0x80	/* ifdown: second tasklet_kill() done */

/**
 * struct bqlm_rcu_slot - what the fake host controller knows of an skb
 * @urb: its URB
 * @len: the URB's length (skb->len after padding)
 * @where: enum bqlm_usbnet_where, as the model names it
 * @flags: BQLM_USBNET_SKB_SENT, _STALE, _TIMER
 * @status: the status its completion runs with
 */
struct bqlm_rcu_slot {
	struct urb *urb;
	unsigned int len;
	unsigned char where;
	unsigned char flags;
	int status;
};

struct bqlm_rcu {
	struct bqlm_rc rc;
	const struct bqlm_rcu_ops *ops;
	struct bqlm_usbnet_cfg cfg;
	struct driver_info info;
	struct usb_device *udev;
	struct usb_interface *intf;
	struct net_device *net;
	struct netdev_queue *txq;
	struct Qdisc *qdisc;
	struct bqlm_rcu_view v;
	struct bqlm_rc_lock txq_lock;
	struct bqlm_rc_lock bql_lock;
	bool work_pending;
	bool timer_pending;
	bool kevent_pending;
	bool suspended;
	unsigned int pkts;
	unsigned int stops_left;
	unsigned int suspends_left;
	unsigned int timeouts_left;
	struct bqlm_rcu_slot slot[RCU_MAX_SLOTS];
	unsigned int nr_slots;
	unsigned int last_slot;
	struct bqlm_inv_step ev;
	const char *midstep;
};

/* The harness in use; NULL outside a run (usbnet.c then runs as usual). */
static struct bqlm_rcu *bqlm_rcu_cur;

static struct bqlm_rc_actor *bqlm_rcu_self(struct bqlm_rcu *u)
{
	return u ? bqlm_rc_self(&u->rc) : NULL;
}

static unsigned int bqlm_rcu_id(const struct bqlm_rc_actor *a)
{
	return a - a->rc->actor;
}

static struct bqlm_rcu *bqlm_rcu_of(const struct bqlm_rc_actor *a)
{
	return a->rc->priv;
}

struct usb_device *bqlm_rcu_udev(struct bqlm_rcu *u)
{
	return u->udev;
}

struct usb_interface *bqlm_rcu_intf(struct bqlm_rcu *u)
{
	return u->intf;
}

const struct driver_info *bqlm_rcu_info(struct bqlm_rcu *u)
{
	return &u->info;
}

unsigned int bqlm_rcu_maxpacket(struct bqlm_rcu *u)
{
	return u->cfg.maxpacket;
}

unsigned int bqlm_rcu_tx_qlen(struct bqlm_rcu *u)
{
	return u->cfg.tx_qlen;
}

/* ------------------------------------------------------------------ */
/* The fake host controller */

static int bqlm_rcu_slot_of(struct bqlm_rcu *u, const struct urb *urb)
{
	unsigned int i;

	for (i = 0; i < u->nr_slots; i++)
		if (u->slot[i].urb == urb)
			return i;
	return -1;
}

/* A new skb: the next slot, as the model numbers them. */
static int bqlm_rcu_new_slot(struct bqlm_rcu *u, struct urb *urb,
			     unsigned int where)
{
	struct bqlm_rcu_slot *s;

	if (u->nr_slots >= RCU_MAX_SLOTS ||
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

/* The URB is freed: its address may come back for a new skb. */
static void bqlm_rcu_urb_release(struct kref *kref)
{
	struct urb *urb = container_of(kref, struct urb, kref);
	struct bqlm_rcu *u = bqlm_rcu_cur;
	int i = u ? bqlm_rcu_slot_of(u, urb) : -1;

	if (i >= 0)
		u->slot[i].urb = NULL;
	kfree(urb);
}

struct urb *bqlm_rcu_usb_alloc_urb(int iso_packets, gfp_t mem_flags)
{
	struct urb *urb = kzalloc(sizeof(*urb), mem_flags);

	if (!urb)
		return NULL;
	kref_init(&urb->kref);
	INIT_LIST_HEAD(&urb->urb_list);
	INIT_LIST_HEAD(&urb->anchor_list);
	return urb;
}

void bqlm_rcu_usb_free_urb(struct urb *urb)
{
	if (urb)
		kref_put(&urb->kref, bqlm_rcu_urb_release);
}

struct urb *bqlm_rcu_usb_get_urb(struct urb *urb)
{
	if (urb)
		kref_get(&urb->kref);
	return urb;
}

int bqlm_rcu_usb_submit_urb(struct urb *urb, gfp_t mem_flags)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	int i;

	if (!u)
		return -ENODEV;
	i = bqlm_rcu_slot_of(u, urb);
	if (i < 0)
		i = bqlm_rcu_new_slot(u, urb, BQLM_USBNET_SKB_TXQ);
	if (i < 0)
		return -ENOMEM;
	u->slot[i].where = BQLM_USBNET_SKB_TXQ;
	u->last_slot = i;
	urb->status = -EINPROGRESS;
	bqlm_rcu_usb_get_urb(urb);	/* the host controller's reference */
	return 0;
}

int bqlm_rcu_usb_unlink_urb(struct urb *urb)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	int i = u ? bqlm_rcu_slot_of(u, urb) : -1;

	if (i < 0 || u->slot[i].where != BQLM_USBNET_SKB_TXQ)
		return -EIDRM;	/* being given back already */
	u->slot[i].where = BQLM_USBNET_SKB_UNLINKED;
	return -EINPROGRESS;	/* completes later with -ECONNRESET */
}

void bqlm_rcu_usb_kill_urb(struct urb *urb)
{
	WARN_ONCE(urb, "bqlm real-code harness: usb_kill_urb() is not modelled");
}

void bqlm_rcu_usb_anchor_urb(struct urb *urb, struct usb_anchor *anchor)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	bqlm_rcu_usb_get_urb(urb);
	list_add_tail(&urb->anchor_list, &anchor->urb_list);
	urb->anchor = anchor;
	if (u && bqlm_rcu_slot_of(u, urb) < 0)
		bqlm_rcu_new_slot(u, urb, BQLM_USBNET_SKB_DEFERRED);
}

struct urb *bqlm_rcu_usb_get_from_anchor(struct usb_anchor *anchor)
{
	struct urb *urb;

	if (list_empty(&anchor->urb_list))
		return NULL;
	urb = list_first_entry(&anchor->urb_list, struct urb, anchor_list);
	list_del_init(&urb->anchor_list);
	urb->anchor = NULL;
	return urb;	/* with the anchor's reference */
}

void bqlm_rcu_usb_scuttle_anchored_urbs(struct usb_anchor *anchor)
{
	struct urb *urb;

	while ((urb = bqlm_rcu_usb_get_from_anchor(anchor)))
		bqlm_rcu_usb_free_urb(urb);
}

/* ifdown parks before it, until the device is resumed (model step 3) */
static bool bqlm_rcu_awake(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	return !u->suspended && !u->rc.actor[RCU_SUSPEND].busy &&
	       !u->rc.actor[RCU_RESUME].busy;
}

int bqlm_rcu_usb_autopm_get_interface(struct usb_interface *intf)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (a && bqlm_rcu_id(a) == RCU_IFDOWN && !(a->mark & M_PM_HELD)) {
		bqlm_rc_yield(a, "usbnet_stop: usb_autopm_get_interface",
			      bqlm_rcu_awake);
		a->mark |= M_PM_HELD;
	}
	return 0;
}

void bqlm_rcu_usb_autopm_put_interface(struct usb_interface *intf)
{
}

int bqlm_rcu_usb_autopm_get_interface_async(struct usb_interface *intf)
{
	return 0;
}

void bqlm_rcu_usb_autopm_put_interface_async(struct usb_interface *intf)
{
}

void bqlm_rcu_usb_autopm_get_interface_no_resume(struct usb_interface *i)
{
}

int bqlm_rcu_usb_clear_halt(struct usb_device *udev, int pipe)
{
	return 0;
}

int bqlm_rcu_usb_control_msg(struct usb_device *dev, unsigned int pipe,
			     __u8 request, __u8 requesttype, __u16 value,
			     __u16 index, void *data, __u16 size, int timeout)
{
	return -ENODEV;	/* the harness has no device behind the HCD */
}

int bqlm_rcu_usb_set_interface(struct usb_device *dev, int ifnum,
			       int alternate)
{
	return -ENODEV;
}

int bqlm_rcu_usb_string(struct usb_device *dev, int index, char *buf,
			size_t size)
{
	return -ENODEV;
}

bool bqlm_rcu_usb_check_bulk_endpoints(const struct usb_interface *intf,
				       const u8 *ep_addrs)
{
	return false;
}

struct usb_device *bqlm_rcu_usb_get_dev(struct usb_device *dev)
{
	return dev;
}

void bqlm_rcu_usb_put_dev(struct usb_device *dev)
{
}

int bqlm_rcu_usb_driver_set_configuration(struct usb_device *udev,
					  int config)
{
	return -ENODEV;
}

/* ------------------------------------------------------------------ */
/* Deferred work */

void bqlm_rcu_tasklet_schedule(struct tasklet_struct *t)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	if (u && t == u->v.bh)
		u->work_pending = true;
}

static bool bqlm_rcu_work_idle(struct bqlm_rc_actor *a)
{
	return !bqlm_rcu_of(a)->rc.actor[RCU_BH_WORK].busy;
}

static bool bqlm_rcu_bh_idle(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	return !u->rc.actor[RCU_BH_WORK].busy &&
	       !u->rc.actor[RCU_BH_TIMER].busy;
}

static bool bqlm_rcu_timer_idle(struct bqlm_rc_actor *a)
{
	return !bqlm_rcu_of(a)->rc.actor[RCU_BH_TIMER].busy;
}

/* As cancel_work_sync(&dev->bh_work): wait for a run, cancel a queued one */
void bqlm_rcu_tasklet_kill(struct tasklet_struct *t)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (!u || t != u->v.bh)
		return;
	if (a && bqlm_rcu_id(a) == RCU_IFDOWN) {
		if (!(a->mark & M_KILL1)) {
			bqlm_rc_yield(a, "usbnet_stop: tasklet_kill(&dev->bh), cancel_work_sync(&dev->kevent)",
				      bqlm_rcu_work_idle);
			a->mark |= M_KILL1;
		} else if (!(a->mark & M_KILL2)) {
			bqlm_rc_yield(a, "usbnet_stop: tasklet_kill, del_timer_sync, cancel_work_sync again",
				      bqlm_rcu_bh_idle);
			a->mark |= M_KILL2;
		}
	}
	if (u->rc.actor[RCU_BH_WORK].busy && a)
		bqlm_rc_fail(&u->rc, -EDEADLK, "tasklet_kill() with the bh running");
	u->work_pending = false;
}

int bqlm_rcu_mod_timer(struct timer_list *timer, unsigned long expires)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	bool was;

	if (!u || timer != u->v.delay)
		return 0;
	was = u->timer_pending;
	u->timer_pending = true;
	return was;
}

int bqlm_rcu_timer_pending(const struct timer_list *timer)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	return u && timer == u->v.delay && u->timer_pending;
}

int bqlm_rcu_del_timer_sync(struct timer_list *timer)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	bool was;

	if (!u || timer != u->v.delay)
		return 0;
	if (u->rc.actor[RCU_BH_TIMER].busy && bqlm_rcu_self(u))
		bqlm_rc_fail(&u->rc, -EDEADLK, "del_timer_sync() with the timer running");
	was = u->timer_pending;
	u->timer_pending = false;
	return was;
}

bool bqlm_rcu_schedule_work(struct work_struct *work)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	bool was;

	if (!u || work != u->v.kevent)
		return false;
	was = u->kevent_pending;
	u->kevent_pending = true;
	return !was;
}

bool bqlm_rcu_cancel_work_sync(struct work_struct *work)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	bool was;

	if (!u || work != u->v.kevent)
		return false;
	was = u->kevent_pending;
	u->kevent_pending = false;
	return was;
}

/* ------------------------------------------------------------------ */
/* Locks and the other step boundaries */

static bool bqlm_rcu_txq_free(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	return !u->txq_lock.owner || u->txq_lock.owner == a;
}

static bool bqlm_rcu_bql_free(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	return !u->bql_lock.owner || u->bql_lock.owner == a;
}

static bool bqlm_rcu_queues_empty(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	return skb_queue_empty(u->v.txq) && skb_queue_empty(u->v.rxq) &&
	       skb_queue_empty(u->v.done);
}

static bool bqlm_rcu_is_bh(const struct bqlm_rc_actor *a)
{
	return bqlm_rcu_id(a) == RCU_BH_WORK || bqlm_rcu_id(a) == RCU_BH_TIMER;
}

static bool bqlm_rcu_is_usb(const struct bqlm_rc_actor *a)
{
	return bqlm_rcu_id(a) >= RCU_USB0;
}

bool bqlm_rcu_lock(spinlock_t *l)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (!a)
		return false;
	if (l == u->v.txq_lock) {
		/* the transmit path and defer_bh() start a step here */
		if (bqlm_rcu_id(a) == RCU_STACK)
			bqlm_rc_yield(a, "usbnet_start_xmit: spin_lock_irqsave(&dev->txq.lock)",
				      bqlm_rcu_txq_free);
		else if (bqlm_rcu_is_usb(a))
			bqlm_rc_yield(a, "defer_bh: spin_lock_irqsave(&dev->txq.lock)",
				      bqlm_rcu_txq_free);
		else if (u->txq_lock.owner && u->txq_lock.owner != a)
			u->midstep = "dev->txq.lock held in the middle of a step";
		bqlm_rc_lock(a, &u->txq_lock);
		return true;
	}
	if (u->v.bql_lock && l == u->v.bql_lock) {
		/* with bytes to report, the end of the skb_dequeue() loop */
		if (bqlm_rcu_is_bh(a) && a->count)
			bqlm_rc_yield(a, "usbnet_bh: spin_lock_bh(&dev->bql_spinlock)",
				      bqlm_rcu_bql_free);
		else if (u->bql_lock.owner && u->bql_lock.owner != a)
			u->midstep = "dev->bql_spinlock held in the middle of a step";
		bqlm_rc_lock(a, &u->bql_lock);
		return true;
	}
	if (l == u->v.rxq_lock && (a->mark & M_TERMINATE) && ++a->count == 2)
		/* unlink_urbs(rxq) took it once; wait_skb_queue_empty() next */
		bqlm_rc_yield(a, "usbnet_terminate_urbs: wait_skb_queue_empty(rxq, txq, done)",
			      bqlm_rcu_queues_empty);
	return false;
}

bool bqlm_rcu_unlock(spinlock_t *l)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (!a)
		return false;
	if (l == u->v.txq_lock) {
		bqlm_rc_unlock(a, &u->txq_lock);
		if (bqlm_rcu_id(a) == RCU_RESUME)
			bqlm_rc_yield(a, "usbnet_resume: spin_unlock_irq(&dev->txq.lock)",
				      NULL);
		return true;
	}
	if (u->v.bql_lock && l == u->v.bql_lock) {
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
static bool bqlm_rcu_bh_can_end(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	if (!u->v.bql_lock || a->count || !skb_queue_empty(u->v.done))
		return true;
	return bqlm_rcu_bql_free(a);
}

static void bqlm_rcu_bh_free(struct bqlm_rcu *u, struct bqlm_rc_actor *a,
			     bool reported)
{
	unsigned char mark = bqlm_rcu_id(a) == RCU_BH_TIMER ?
			     BQLM_USBNET_SKB_TIMER : 0;
	unsigned int i;

	for (i = 0; i < u->nr_slots; i++) {
		struct bqlm_rcu_slot *s = &u->slot[i];

		if (s->where != BQLM_USBNET_SKB_BH ||
		    (s->flags & BQLM_USBNET_SKB_TIMER) != mark)
			continue;
		if (reported && (s->flags & BQLM_USBNET_SKB_STALE))
			u->ev.stale_bytes += s->len;
		if (reported && !(s->flags & BQLM_USBNET_SKB_SENT))
			u->ev.unsent_skbs++;
		s->where = BQLM_USBNET_SKB_GONE;
		s->flags = 0;
	}
}

struct sk_buff *bqlm_rcu_skb_dequeue(struct sk_buff_head *list)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);
	struct sk_buff *skb;
	struct skb_data *entry;
	int i;

	if (!a || list != u->v.done || !bqlm_rcu_is_bh(a))
		return skb_dequeue(list);
	if (a->arg++)
		bqlm_rc_yield(a, "usbnet_bh: skb_dequeue(&dev->done)",
			      bqlm_rcu_bh_can_end);
	skb = skb_dequeue(list);
	if (!skb) {
		/* the loop ends: without bytes to report, so does the run */
		if (!a->count || u->ops->variant == BQLM_USBNET_NO_BQL)
			bqlm_rcu_bh_free(u, a, false);
		return NULL;
	}
	entry = (struct skb_data *)skb->cb;
	if (entry->state != tx_done)
		return skb;
	i = bqlm_rcu_slot_of(u, entry->urb);
	if (i >= 0) {
		u->slot[i].where = BQLM_USBNET_SKB_BH;
		if (bqlm_rcu_id(a) == RCU_BH_TIMER)
			u->slot[i].flags |= BQLM_USBNET_SKB_TIMER;
	}
	a->count += skb->len;
	return skb;
}

void bqlm_rcu_skb_queue_purge(struct sk_buff_head *list)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (a && list == u->v.rxq_pause && bqlm_rcu_id(a) == RCU_IFDOWN)
		bqlm_rc_yield(a, "usbnet_stop: dev->flags = 0, del_timer_sync(&dev->delay)",
			      bqlm_rcu_timer_idle);
	skb_queue_purge(list);
}

void bqlm_rcu_add_wait_queue(struct wait_queue_head *wq_head,
			     struct wait_queue_entry *wq_entry)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (a && wq_head == u->v.wait) {
		bqlm_rc_yield(a, "usbnet_terminate_urbs: unlink_urbs(&dev->txq)",
			      bqlm_rcu_txq_free);
		a->mark |= M_TERMINATE;
		a->count = 0;
	}
	add_wait_queue(wq_head, wq_entry);
}

long bqlm_rcu_schedule_timeout(long timeout)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (!a)
		return schedule_timeout(timeout);
	/* the schedule resumed it with a queue not yet empty */
	u->midstep = "wait_skb_queue_empty() waits in the middle of a step";
	__set_current_state(TASK_RUNNING);
	bqlm_rc_yield(a, "wait_skb_queue_empty: schedule_timeout",
		      bqlm_rcu_queues_empty);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The BQL calls, as <linux/netdevice.h> has them, with the model's steps */

void bqlm_rcu_netdev_sent_queue(struct net_device *net, unsigned int bytes)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);
	struct netdev_queue *q = netdev_get_tx_queue(net, 0);
	bool split = a && bqlm_rcu_id(a) == RCU_STACK;

	dql_queued(&q->dql, bytes);
	if (u && u->last_slot < u->nr_slots)
		u->slot[u->last_slot].flags |= BQLM_USBNET_SKB_SENT;
	if (likely(dql_avail(&q->dql) >= 0))
		return;
	if (split) {
		a->mark |= M_XOFF;
		bqlm_rc_yield(a, "netdev_sent_queue: over the limit", NULL);
	}
	WRITE_ONCE(q->trans_start, jiffies);
	smp_mb__before_atomic();
	set_bit(__QUEUE_STATE_STACK_XOFF, &q->state);
	smp_mb();
	if (split) {
		a->mark = (a->mark & ~M_XOFF) | M_RECHECK;
		bqlm_rc_yield(a, "netdev_sent_queue: smp_mb", NULL);
		a->mark &= ~M_RECHECK;
	}
	if (unlikely(dql_avail(&q->dql) >= 0))
		clear_bit(__QUEUE_STATE_STACK_XOFF, &q->state);
}

void bqlm_rcu_netdev_completed_queue(struct net_device *net, unsigned int pkts,
				     unsigned int bytes)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);
	struct netdev_queue *q = netdev_get_tx_queue(net, 0);
	unsigned int inflight;

	if (unlikely(!bytes))
		return;
	if (a && bqlm_rcu_is_bh(a) && u->bql_lock.owner != a) {
		/* v1: the end of the loop, then entering is a step */
		bqlm_rc_yield(a, "usbnet_bh: netdev_completed_queue", NULL);
		a->mark |= M_IN_DQL;
		bqlm_rc_yield(a, "netdev_completed_queue: dql_completed", NULL);
	} else if (a) {
		a->mark |= M_IN_DQL;
	}
	inflight = q->dql.num_queued - q->dql.num_completed;
	if (bytes > inflight) {
		/* dql_completed() would BUG_ON(): not made, reported */
		if (u) {
			u->ev.dql_err = -ERANGE;
			u->ev.dql_val[0] = bytes;
			u->ev.dql_val[1] = inflight;
		}
	} else {
		dql_completed(&q->dql, bytes);
	}
	if (u && a)
		bqlm_rcu_bh_free(u, a, true);
	if (a) {
		a->mark &= ~M_IN_DQL;
		bqlm_rc_yield(a, "netdev_completed_queue: smp_mb, STACK_XOFF wake",
			      NULL);
	}
	smp_mb();
	if (unlikely(dql_avail(&q->dql) < 0))
		return;
	if (test_and_clear_bit(__QUEUE_STATE_STACK_XOFF, &q->state))
		netif_schedule_queue(q);
}

void bqlm_rcu_netdev_reset_queue(struct net_device *net)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);
	unsigned int i;

	if (a && bqlm_rcu_id(a) == RCU_IFDOWN && (a->mark & M_KILL2))
		bqlm_rc_yield(a, "usbnet_stop: netdev_reset_queue", NULL);
	if (u)
		for (i = 0; i < u->nr_slots; i++)
			if (u->slot[i].where >= BQLM_USBNET_SKB_TXQ &&
			    u->slot[i].where <= BQLM_USBNET_SKB_BH)
				u->slot[i].flags |= BQLM_USBNET_SKB_STALE;
	netdev_reset_queue(net);
}

/* ------------------------------------------------------------------ */
/* The actors' work */

static void bqlm_rcu_do_xmit(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);
	struct sk_buff *skb;

	skb = alloc_skb(a->arg + 64, GFP_KERNEL);
	if (!skb) {
		bqlm_rc_fail(&u->rc, -ENOMEM, "alloc_skb(%lu)", a->arg);
		return;
	}
	skb_put_zero(skb, a->arg);
	skb->dev = u->net;
	a->arg = 0;
	u->ops->start_xmit(skb, u->net);
}

static void bqlm_rcu_do_complete(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);
	struct bqlm_rcu_slot *s = &u->slot[bqlm_rcu_id(a) - RCU_USB0];
	struct urb *urb = s->urb;

	s->where = BQLM_USBNET_SKB_COMPLETED;
	urb->status = s->status;
	urb->complete(urb);
	s->where = BQLM_USBNET_SKB_DONE;
	bqlm_rcu_usb_free_urb(urb);	/* the host controller's reference */
}

static void bqlm_rcu_do_bh(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	a->arg = 0;	/* skb_dequeue() calls of this run */
	if (bqlm_rcu_id(a) == RCU_BH_WORK) {
		u->work_pending = false;
		u->ops->bh_work(u->net);
	} else {
		u->timer_pending = false;
		u->ops->bh_timer(u->net);
	}
}

static void bqlm_rcu_do_kevent(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	u->kevent_pending = false;
	u->ops->kevent(u->net);
}

static bool bqlm_rcu_no_xmit(struct bqlm_rc_actor *a)
{
	return !bqlm_rcu_of(a)->rc.actor[RCU_STACK].busy;
}

static void bqlm_rcu_do_ifdown(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	/* dev_close(): __LINK_STATE_START off, the qdisc deactivated */
	u->stops_left--;
	clear_bit(__LINK_STATE_START, &u->net->state);
	bqlm_rc_yield(a, "dev_close: clear __LINK_STATE_START", bqlm_rcu_no_xmit);
	u->ops->stop(u->net);
}

static void bqlm_rcu_do_ifup(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	set_bit(__LINK_STATE_START, &u->net->state);
	u->ops->open(u->net);
}

static void bqlm_rcu_do_watchdog(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	u->timeouts_left--;
	u->ops->tx_timeout(u->net, 0);
}

static void bqlm_rcu_do_suspend(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	u->suspends_left--;
	u->ops->suspend(u->intf, PMSG_SUSPEND);
	u->suspended = true;
}

static void bqlm_rcu_do_resume(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	u->suspended = false;
	u->ops->resume(u->intf);
}

/* ------------------------------------------------------------------ */
/* The test qdisc: holds nothing, so a reschedule runs nothing */

static int bqlm_rcu_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
				  struct sk_buff **to_free)
{
	return qdisc_drop(skb, sch, to_free);
}

static struct sk_buff *bqlm_rcu_qdisc_dequeue(struct Qdisc *sch)
{
	return NULL;
}

static struct Qdisc_ops bqlm_rcu_qdisc_ops = {
	.id		= "bqlm_rcu",
	.enqueue	= bqlm_rcu_qdisc_enqueue,
	.dequeue	= bqlm_rcu_qdisc_dequeue,
	.peek		= bqlm_rcu_qdisc_dequeue,
	.owner		= THIS_MODULE,
};

static const struct bqlm_rcu_ops *bqlm_rcu_variant_ops(enum bqlm_usbnet_variant v)
{
	switch (v) {
	case BQLM_USBNET_NO_BQL:
		return &bqlm_rcu_no_bql_ops;
	case BQLM_USBNET_V1:
		return &bqlm_rcu_v1_ops;
	case BQLM_USBNET_MERGED:
		return &bqlm_rcu_merged_ops;
	case BQLM_USBNET_FIX_RESET:
		return &bqlm_rcu_fix_reset_ops;
	case BQLM_USBNET_FIXED:
		return &bqlm_rcu_fixed_ops;
	default:
		return NULL;
	}
}

/* Is every actor idle, or stuck? Run what can run until all are idle. */
static void bqlm_rcu_drain(struct bqlm_rcu *u)
{
	unsigned int i, rounds;
	bool any;

	for (rounds = 0; rounds < 1000 && !u->rc.error; rounds++) {
		any = false;
		for (i = 0; i < u->rc.nr_actors; i++) {
			struct bqlm_rc_actor *a = &u->rc.actor[i];

			if (bqlm_rc_runnable(a)) {
				bqlm_rc_resume(a);
				any = true;
			} else if (!a->busy && i >= RCU_USB0 &&
				   i - RCU_USB0 < u->nr_slots &&
				   (u->slot[i - RCU_USB0].where == BQLM_USBNET_SKB_TXQ ||
				    u->slot[i - RCU_USB0].where == BQLM_USBNET_SKB_UNLINKED)) {
				u->slot[i - RCU_USB0].status =
					u->slot[i - RCU_USB0].where == BQLM_USBNET_SKB_UNLINKED ?
					-ECONNRESET : 0;
				bqlm_rc_start(a, bqlm_rcu_do_complete, 0);
				any = true;
			}
		}
		if (!any) {
			if (u->work_pending || u->timer_pending) {
				if (u->work_pending)
					bqlm_rc_start(&u->rc.actor[RCU_BH_WORK],
						      bqlm_rcu_do_bh, 0);
				if (u->timer_pending)
					bqlm_rc_start(&u->rc.actor[RCU_BH_TIMER],
						      bqlm_rcu_do_bh, 0);
				continue;
			}
			if (u->suspended) {
				bqlm_rc_start(&u->rc.actor[RCU_RESUME],
					      bqlm_rcu_do_resume, 0);
				continue;
			}
			break;
		}
	}
}

/**
 * bqlm_rcu_create() - a real usbnet device of the configured variant
 * @cfg: the model's configuration (valid: bqlm_usbnet_cfg_check())
 * @now: receives the jiffies value the device's DQL was reset at
 *
 * Return: the harness, or an ERR_PTR(): -EOPNOTSUPP for what the harness
 * does not run yet (the cdc_ncm-like FLAG_MULTI_PACKET fixup), -EBUSY if
 * another harness is in use, -ENOMEM.
 */
static struct bqlm_rcu *bqlm_rcu_create(const struct bqlm_usbnet_cfg *cfg,
				 unsigned long *now)
{
	struct bqlm_rcu *u;
	int err = -ENOMEM, tries;

	if (cfg->fixup != BQLM_USBNET_FIXUP_NONE)
		return ERR_PTR(-EOPNOTSUPP);
	if (bqlm_rcu_cur)
		return ERR_PTR(-EBUSY);
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return ERR_PTR(-ENOMEM);
	u->cfg = *cfg;
	u->ops = bqlm_rcu_variant_ops(cfg->variant);
	u->info.description = "bqlmodel real-code harness";
	u->info.flags = FLAG_ETHER;
	if (cfg->flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS)
		u->info.flags |= FLAG_AVOID_UNLINK_URBS;
	u->txq_lock.name = "dev->txq.lock";
	u->bql_lock.name = "dev->bql_spinlock";
	u->stops_left = cfg->stops;
	u->suspends_left = cfg->suspends;
	u->timeouts_left = cfg->timeouts;
	u->udev = kzalloc(sizeof(*u->udev), GFP_KERNEL);
	u->intf = kzalloc(sizeof(*u->intf), GFP_KERNEL);
	if (!u->ops || !u->udev || !u->intf)
		goto fail;
	u->udev->speed = USB_SPEED_HIGH;
	u->udev->devnum = 1;
	err = bqlm_rc_init(&u->rc, RCU_USB0 + min_t(unsigned int, RCU_MAX_SLOTS,
			   cfg->skbs ? cfg->skbs : cfg->packets),
			   bqlm_rcu_names, u);
	if (err)
		goto fail;
	bqlm_rcu_cur = u;
	for (tries = 0; tries < 100; tries++) {
		*now = jiffies;
		u->net = u->ops->create(u, &u->v);
		if (!u->net) {
			err = -ENOMEM;
			goto fail_rc;
		}
		u->txq = netdev_get_tx_queue(u->net, 0);
		set_bit(__LINK_STATE_PRESENT, &u->net->state);
		set_bit(__LINK_STATE_START, &u->net->state);
		u->ops->open(u->net);	/* not an actor: runs as usual */
		if (*now == jiffies)
			break;
		free_percpu(u->net->tstats);
		free_netdev(u->net);
		u->net = NULL;
	}
	if (!u->net) {
		err = -EAGAIN;
		goto fail_rc;
	}
	/* the bh run usbnet_open() queued has run: the model's start */
	u->work_pending = false;
	u->qdisc = qdisc_create_dflt(u->txq, &bqlm_rcu_qdisc_ops, TC_H_ROOT,
				     NULL);
	if (!u->qdisc) {
		err = -ENOMEM;
		goto fail_net;
	}
	rcu_assign_pointer(u->txq->qdisc, u->qdisc);
	return u;
fail_net:
	free_percpu(u->net->tstats);
	free_netdev(u->net);
fail_rc:
	bqlm_rcu_cur = NULL;
	bqlm_rc_destroy(&u->rc);
fail:
	kfree(u->udev);
	kfree(u->intf);
	kfree(u);
	return ERR_PTR(err);
}

/**
 * bqlm_rcu_destroy() - drain the device and free it
 * @u: the harness
 *
 * Every parked actor is run to its end and every URB still in flight
 * completed, so that nothing is left behind; a device that cannot be
 * drained (a harness failure) is leaked with its threads.
 */
static void bqlm_rcu_destroy(struct bqlm_rcu *u)
{
	unsigned int i;
	bool busy = false;

	bqlm_rcu_drain(u);
	for (i = 0; i < u->rc.nr_actors; i++)
		busy |= u->rc.actor[i].busy;
	bqlm_rcu_cur = NULL;
	if (busy || u->rc.error) {
		pr_err("bqlm real-code harness: device not drained (%s): leaked\n",
		       u->rc.error ? u->rc.msg : "actors parked");
		bqlm_rc_destroy(&u->rc);
		return;
	}
	bqlm_rc_destroy(&u->rc);
	RCU_INIT_POINTER(u->txq->qdisc, &noop_qdisc);
	synchronize_net();
	rtnl_lock();
	qdisc_put(u->qdisc);
	rtnl_unlock();
	skb_queue_purge(u->v.done);
	free_percpu(u->net->tstats);
	u->net->tstats = NULL;
	free_netdev(u->net);
	kfree(u->udev);
	kfree(u->intf);
	kfree(u);
}

/* ------------------------------------------------------------------ */
/* One model action on the real code */

static const int bqlm_rcu_status[BQLM_USBNET_NR_STATUS] = {
	[BQLM_USBNET_ST_OK] = 0,
	[BQLM_USBNET_ST_EPROTO] = -EPROTO,
	[BQLM_USBNET_ST_EPIPE] = -EPIPE,
	[BQLM_USBNET_ST_UNLINKED] = -ECONNRESET,
};

static int bqlm_rcu_go(struct bqlm_rc_actor *a, bqlm_rc_fn fn,
		       unsigned long arg)
{
	return a->busy ? bqlm_rc_resume(a) : bqlm_rc_start(a, fn, arg);
}

/**
 * bqlm_rcu_step() - run one model action on the real code
 * @u: the harness
 * @action: a BQLM_USBNET_ACTION() number
 *
 * Return: 0, -EAGAIN if the actor is parked waiting (nothing run),
 * -EINVAL for an action the real code cannot take now or at all, or the
 * harness error.
 */
static int bqlm_rcu_step(struct bqlm_rcu *u, unsigned int action)
{
	unsigned int kind = action >> 8, arg = action & 0xff;
	struct bqlm_rc_actor *act = u->rc.actor;
	unsigned int slot;

	memset(&u->ev, 0, sizeof(u->ev));
	u->midstep = NULL;
	switch (kind) {
	case BQLM_USBNET_A_XMIT:
		if (arg >= u->cfg.nr_lens)
			return -EINVAL;
		if (!act[RCU_STACK].busy)
			u->pkts++;
		return bqlm_rcu_go(&act[RCU_STACK], bqlm_rcu_do_xmit,
				   u->cfg.lens[arg]);
	case BQLM_USBNET_A_COMPLETE:
		slot = arg / 4;
		if (slot >= u->nr_slots || arg % 4 >= BQLM_USBNET_NR_STATUS ||
		    act[RCU_USB0 + slot].busy)
			return -EINVAL;
		u->slot[slot].status = bqlm_rcu_status[arg % 4];
		return bqlm_rc_start(&act[RCU_USB0 + slot],
				     bqlm_rcu_do_complete, 0);
	case BQLM_USBNET_A_DEFER_BH:
		if (arg >= u->nr_slots)
			return -EINVAL;
		return bqlm_rc_resume(&act[RCU_USB0 + arg]);
	case BQLM_USBNET_A_BH:
		if (arg >= BQLM_USBNET_NR_BH)
			return -EINVAL;
		return bqlm_rcu_go(&act[RCU_BH_WORK + arg], bqlm_rcu_do_bh, 0);
	case BQLM_USBNET_A_KEVENT:
		return bqlm_rcu_go(&act[RCU_KEVENT], bqlm_rcu_do_kevent, 0);
	case BQLM_USBNET_A_STOP:
		return bqlm_rcu_go(&act[RCU_IFDOWN], bqlm_rcu_do_ifdown, 0);
	case BQLM_USBNET_A_OPEN:
		return bqlm_rcu_go(&act[RCU_IFUP], bqlm_rcu_do_ifup, 0);
	case BQLM_USBNET_A_TX_TIMEOUT:
		return bqlm_rcu_go(&act[RCU_WATCHDOG], bqlm_rcu_do_watchdog, 0);
	case BQLM_USBNET_A_SUSPEND:
		return bqlm_rcu_go(&act[RCU_SUSPEND], bqlm_rcu_do_suspend, 0);
	case BQLM_USBNET_A_RESUME:
		return bqlm_rcu_go(&act[RCU_RESUME], bqlm_rcu_do_resume, 0);
	default:
		return -EINVAL;	/* the cdc_ncm flush: not run yet */
	}
}

/* ------------------------------------------------------------------ */
/* Reading the real state, comparing it with the model's */

static unsigned int bqlm_rcu_inflight(const struct bqlm_rcu *u)
{
	unsigned int i, n = 0;

	for (i = 0; i < u->nr_slots; i++)
		if (u->slot[i].where >= BQLM_USBNET_SKB_TXQ &&
		    u->slot[i].where <= BQLM_USBNET_SKB_BH &&
		    !(u->slot[i].flags & BQLM_USBNET_SKB_STALE))
			n += u->slot[i].len;
	return n;
}

/**
 * bqlm_rcu_check() - the model's invariants on the real state
 * @u: the harness, after a step
 * @where: the step's kernel function
 * @each: as for bqlm_inv_check()
 *
 * Return: the mask of violated checks.
 */
static unsigned int bqlm_rcu_check(struct bqlm_rcu *u, const char *where,
			    struct bqlm_violation *each)
{
	struct bqlm_inv_counters c;
	struct bqlm_dql d;
	const struct dql *r = &u->txq->dql;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
#define RCU_COPY(f)	(d.f = r->f)
	BQLM_DQL_FIELDS(RCU_COPY);
#undef RCU_COPY
	c.where = where;
	c.bql = u->cfg.variant != BQLM_USBNET_NO_BQL;
	c.dql = &d;
	c.inflight = bqlm_rcu_inflight(u);
	for (i = RCU_BH_WORK; i <= RCU_BH_TIMER; i++)
		c.completions += !!(u->rc.actor[i].mark & M_IN_DQL);
	c.producers = !!(u->rc.actor[RCU_STACK].mark & (M_XOFF | M_RECHECK));
	c.stopped = test_bit(__QUEUE_STATE_STACK_XOFF, &u->txq->state);
	c.step = u->ev;
	return bqlm_inv_check(&c, NULL, each);
}

/* Where the model's actors are, as the real actors' positions show it. */
static void bqlm_rcu_positions(const struct bqlm_rcu *u, bool *busy)
{
	unsigned int i;

	for (i = 0; i < u->rc.nr_actors; i++)
		busy[i] = u->rc.actor[i].busy;
}

static void bqlm_rcu_model_positions(const struct bqlm_rcu *u,
				     const struct bqlm_usbnet *m, bool *busy)
{
	unsigned int i;

	memset(busy, 0, sizeof(bool) * BQLM_RC_MAX_ACTORS);
	busy[RCU_STACK] = m->xmit != BQLM_USBNET_XMIT_IDLE;
	busy[RCU_BH_WORK] = m->bh[BQLM_USBNET_BH_WORK].phase != BQLM_USBNET_BH_IDLE;
	busy[RCU_BH_TIMER] = m->bh[BQLM_USBNET_BH_TIMER].phase != BQLM_USBNET_BH_IDLE;
	busy[RCU_IFDOWN] = m->admin != BQLM_USBNET_UP && m->admin != BQLM_USBNET_DOWN;
	busy[RCU_SUSPEND] = m->pm == BQLM_USBNET_PM_DETACHED ||
			    m->pm == BQLM_USBNET_PM_WAIT;
	busy[RCU_RESUME] = m->pm == BQLM_USBNET_PM_RESUMING;
	for (i = 0; i < m->nr_skbs && RCU_USB0 + i < u->rc.nr_actors; i++)
		busy[RCU_USB0 + i] = m->skb[i].where == BQLM_USBNET_SKB_COMPLETED;
}

/**
 * bqlm_rcu_compare() - the real state against the model's
 * @u: the harness
 * @m: the model's state after the same steps
 * @what: receives the name of the first field that differs
 * @real: its real value
 * @model: its model value
 *
 * Compares the 22 fields of struct dql, both XOFF bits, dev->txq and
 * dev->done lengths, EVENT_TX_HALT, EVENT_DEV_ASLEEP, EVENT_DEV_OPEN,
 * netif_running(), netif_device_present(), the three pending bottom
 * halves, and which actors are in the middle of their work.
 *
 * Return: true when all are equal.
 */
static bool bqlm_rcu_compare(const struct bqlm_rcu *u, const struct bqlm_usbnet *m,
		      const char **what, unsigned long long *real,
		      unsigned long long *model)
{
	const struct dql *r = &u->txq->dql;
	unsigned long flags = READ_ONCE(*u->v.flags);
	bool rb[BQLM_RC_MAX_ACTORS], mb[BQLM_RC_MAX_ACTORS];
	unsigned int i;

#define RCU_CMP(name, rv, mv) do {					\
	if ((unsigned long long)(rv) != (unsigned long long)(mv)) {	\
		*what = name;						\
		*real = (rv);						\
		*model = (mv);						\
		return false;						\
	}								\
} while (0)
#define RCU_CMP_DQL(f)	RCU_CMP("dql." #f, r->f, m->txq.dql.f)
	BQLM_DQL_FIELDS(RCU_CMP_DQL);
#undef RCU_CMP_DQL
	RCU_CMP("DRV_XOFF", test_bit(__QUEUE_STATE_DRV_XOFF, &u->txq->state),
		!!(m->txq.state & BIT(BQLM_QUEUE_STATE_DRV_XOFF)));
	RCU_CMP("STACK_XOFF", test_bit(__QUEUE_STATE_STACK_XOFF, &u->txq->state),
		!!(m->txq.state & BIT(BQLM_QUEUE_STATE_STACK_XOFF)));
	RCU_CMP("dev->txq.qlen", skb_queue_len(u->v.txq), m->nr_txq);
	RCU_CMP("dev->done.qlen", skb_queue_len(u->v.done), m->nr_done);
	RCU_CMP("EVENT_TX_HALT", !!(flags & BIT(EVENT_TX_HALT)),
		!!(m->flags & BQLM_USBNET_EVENT_TX_HALT));
	RCU_CMP("EVENT_DEV_ASLEEP", !!(flags & BIT(EVENT_DEV_ASLEEP)),
		!!(m->flags & BQLM_USBNET_EVENT_DEV_ASLEEP));
	RCU_CMP("EVENT_DEV_OPEN", !!(flags & BIT(EVENT_DEV_OPEN)),
		!!(m->flags & BQLM_USBNET_EVENT_DEV_OPEN));
	RCU_CMP("netif_running", netif_running(u->net), m->running);
	RCU_CMP("netif_device_present", netif_device_present(u->net),
		m->present);
	RCU_CMP("bh work pending", u->work_pending,
		m->bh[BQLM_USBNET_BH_WORK].pending);
	RCU_CMP("dev->delay pending", u->timer_pending,
		m->bh[BQLM_USBNET_BH_TIMER].pending);
	RCU_CMP("kevent pending", u->kevent_pending, m->kevent);
	bqlm_rcu_positions(u, rb);
	bqlm_rcu_model_positions(u, m, mb);
	for (i = 0; i < u->rc.nr_actors; i++)
		RCU_CMP(bqlm_rcu_names[i], rb[i], mb[i]);
#undef RCU_CMP
	return true;
}

/**
 * bqlm_rcu_error() - the harness failure, if any
 * @u: the harness
 *
 * Return: NULL, or what went wrong (an actor lost, a wait in the middle
 * of a step that the model does not have).
 */
static const char *bqlm_rcu_error(const struct bqlm_rcu *u)
{
	if (u->rc.error)
		return u->rc.msg;
	return u->midstep;
}

/**
 * bqlm_rcu_parked_at() - where an actor of a model action is parked
 * @u: the harness
 * @action: the action
 *
 * Return: the yield point's name, "idle" or "running".
 */
static const char *bqlm_rcu_parked_at(const struct bqlm_rcu *u, unsigned int action)
{
	unsigned int kind = action >> 8, arg = action & 0xff, id;

	switch (kind) {
	case BQLM_USBNET_A_XMIT:
		id = RCU_STACK;
		break;
	case BQLM_USBNET_A_COMPLETE:
		id = RCU_USB0 + arg / 4;
		break;
	case BQLM_USBNET_A_DEFER_BH:
		id = RCU_USB0 + arg;
		break;
	case BQLM_USBNET_A_BH:
		id = RCU_BH_WORK + (arg & 1);
		break;
	case BQLM_USBNET_A_KEVENT:
		id = RCU_KEVENT;
		break;
	case BQLM_USBNET_A_STOP:
		id = RCU_IFDOWN;
		break;
	case BQLM_USBNET_A_OPEN:
		id = RCU_IFUP;
		break;
	case BQLM_USBNET_A_TX_TIMEOUT:
		id = RCU_WATCHDOG;
		break;
	case BQLM_USBNET_A_SUSPEND:
		id = RCU_SUSPEND;
		break;
	case BQLM_USBNET_A_RESUME:
		id = RCU_RESUME;
		break;
	default:
		return "?";
	}
	if (id >= u->rc.nr_actors)
		return "?";
	if (!u->rc.actor[id].busy)
		return "idle";
	return u->rc.actor[id].at ? u->rc.actor[id].at : "running";
}

/* ------------------------------------------------------------------ */
/* The model and the real code in lockstep */

struct bqlm_rcu_run {
	struct bqlm_xsys sys;
	struct bqlm_usbnet_cfg cfg;
	void *from;
	void *to;
	struct bqlm_violation each[BQLM_CHECK_NR];
	char line[2 * BQLM_RCU_DESC];
};

static void bqlm_rcu_first(unsigned int *first, unsigned int mask,
			   unsigned int step)
{
	unsigned int c;

	for (c = 0; c < BQLM_CHECK_NR; c++)
		if ((mask & BQLM_CHECK_BIT(c)) && !first[c])
			first[c] = step;
}

/* One schedule on a fresh device; -EAGAIN if jiffies ticked meanwhile. */
static int bqlm_rcu_once(struct bqlm_rcu_run *r, const unsigned int *actions,
			 unsigned int n, u64 seed, unsigned int max_steps,
			 bqlm_rcu_emit_t emit, void *arg,
			 struct bqlm_rcu_result *res)
{
	unsigned int act[BQLM_X_MAX_ACTIONS], nact, step, action, mask;
	struct bqlm_prng rng;
	struct bqlm_rcu *u;
	unsigned long now;
	const char *what;
	int ret;

	bqlm_prng_seed(&rng, seed);
	u = bqlm_rcu_create(&r->cfg, &now);
	if (IS_ERR(u)) {
		res->err_step = 1;
		scnprintf(res->err, sizeof(res->err),
			  "cannot create the real device (%ld)", PTR_ERR(u));
		return PTR_ERR(u);
	}
	r->cfg.now = now;
	r->cfg.hold_time = HZ;
	bqlm_usbnet_system(&r->cfg, &r->sys);
	memset(r->from, 0, r->sys.state_size);
	r->sys.init(r->sys.ctx, r->from);
	for (step = 1; step <= (actions ? n : max_steps); step++) {
		if (actions) {
			action = actions[step - 1];
		} else {
			nact = r->sys.enabled(r->sys.ctx, r->from, act);
			if (!nact)
				break;
			action = act[bqlm_prng_below(&rng, nact)];
		}
		r->sys.describe_action(r->sys.ctx, r->from, action, res->desc,
				       sizeof(res->desc));
		memcpy(r->to, r->from, r->sys.state_size);
		memset(r->each, 0, sizeof(r->each));
		ret = r->sys.step(r->sys.ctx, r->from, action, r->to, r->each);
		if (ret < 0) {
			res->err_step = step;
			scnprintf(res->err, sizeof(res->err),
				  "the model cannot take action %#x (%d)",
				  action, ret);
			break;
		}
		mask = ret;
		res->model_violated |= mask;
		bqlm_rcu_first(res->model_first, mask, step);
		ret = bqlm_rcu_step(u, action);
		if (ret || bqlm_rcu_error(u)) {
			res->err_step = step;
			scnprintf(res->err, sizeof(res->err),
				  "the real code cannot take it (%d): %s; actor at %s",
				  ret, bqlm_rcu_error(u) ? bqlm_rcu_error(u) : "-",
				  bqlm_rcu_parked_at(u, action));
			break;
		}
		mask = bqlm_rcu_check(u, "real", r->each);
		res->real_violated |= mask;
		bqlm_rcu_first(res->real_first, mask, step);
		res->steps = step;
		if (emit) {
			scnprintf(r->line, sizeof(r->line), "%3u. %s | real: %s",
				  step, res->desc,
				  bqlm_rcu_parked_at(u, action));
			emit(arg, r->line);
		}
		memcpy(r->from, r->to, r->sys.state_size);
		if (!bqlm_rcu_compare(u, r->from, &what, &res->diff_real,
				      &res->diff_model)) {
			res->diff_step = step;
			res->diff_what = what;
			break;
		}
		/* stop where the kernel would have crashed */
		if (res->model_violated & (BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION) |
					   BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION)))
			break;
	}
	ret = now != jiffies && res->diff_step ? -EAGAIN : 0;
	bqlm_rcu_destroy(u);
	return ret;
}

/**
 * bqlm_rcu_lockstep() - run a schedule on the model and the real code
 * @cfg: the model's configuration (now and hold_time are set here from
 *	the real device: the jiffies value of its creation and HZ)
 * @actions: the schedule, model action numbers; NULL for a random path
 * @n: its length
 * @seed: for a random path, its seed
 * @max_steps: for a random path, its longest length
 * @emit: NULL, or receives each step as "N. model step | real: yield point"
 * @arg: @emit's argument
 * @res: the result
 *
 * After every step both states are compared (bqlm_rcu_compare()) and the
 * model's invariants are checked on the real state (bqlm_rcu_check());
 * the schedule stops at the first difference, at a harness failure, and
 * after a step at which the kernel would have crashed (the over-completion
 * is reported, never made). A schedule during which jiffies ticked and the
 * states differed is run again on a fresh device (the model runs at one
 * jiffies value), up to 5 times.
 *
 * Return: 0, or a negative errno if the harness could not run at all.
 */
int bqlm_rcu_lockstep(const struct bqlm_usbnet_cfg *cfg,
		      const unsigned int *actions, unsigned int n,
		      u64 seed, unsigned int max_steps,
		      bqlm_rcu_emit_t emit, void *arg,
		      struct bqlm_rcu_result *res)
{
	struct bqlm_rcu_run *r;
	unsigned int tries;
	int ret = -EAGAIN;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->cfg = *cfg;
	r->cfg.hold_time = HZ;
	r->from = kzalloc(bqlm_usbnet_size(&r->cfg), GFP_KERNEL);
	r->to = kzalloc(bqlm_usbnet_size(&r->cfg), GFP_KERNEL);
	if (!r->from || !r->to) {
		ret = -ENOMEM;
		goto out;
	}
	for (tries = 0; tries < 5 && ret == -EAGAIN; tries++) {
		memset(res, 0, sizeof(*res));
		res->retries = tries;
		r->cfg = *cfg;
		r->cfg.hold_time = HZ;
		ret = bqlm_rcu_once(r, actions, n, seed, max_steps, emit, arg,
				    res);
	}
	if (ret == -EAGAIN)
		ret = 0;	/* keep the last difference: it is reported */
out:
	kfree(r->from);
	kfree(r->to);
	kfree(r);
	return ret;
}
