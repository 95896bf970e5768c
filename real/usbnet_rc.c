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
#include <linux/moduleparam.h>
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
	RCU_NCM,
	RCU_USB0,
};

#define RCU_MAX_SLOTS	(BQLM_RC_MAX_ACTORS - RCU_USB0)

static const char *const bqlm_rcu_names[BQLM_RC_MAX_ACTORS] = {
	"stack", "bh-work", "timer", "kevent", "ifdown", "ifup", "watchdog",
	"suspend", "resume", "ncm-timer", "usb0", "usb1", "usb2", "usb3",
	"usb4", "usb5", "usb6", "usb7", "usb8", "usb9", "usb10", "usb11",
	"usb12", "usb13",
};

/* The yield points, named after where the actor stops */
static const char Y_AUTOPM[] = "usbnet_stop: usb_autopm_get_interface";
static const char Y_KILL1[] = "usbnet_stop: tasklet_kill(&dev->bh), cancel_work_sync(&dev->kevent)";
static const char Y_KILL2[] = "usbnet_stop: tasklet_kill, del_timer_sync, cancel_work_sync again";
static const char Y_XMIT_LOCK[] = "usbnet_start_xmit: spin_lock_irqsave(&dev->txq.lock)";
static const char Y_DEFER[] = "defer_bh: spin_lock_irqsave(&dev->txq.lock)";
static const char Y_BQL_LOCK[] = "usbnet_bh: spin_lock_bh(&dev->bql_spinlock)";
static const char Y_WAIT[] = "usbnet_terminate_urbs: wait_skb_queue_empty(rxq, txq, done)";
static const char Y_RESUMED[] = "usbnet_resume: spin_unlock_irq(&dev->txq.lock)";
static const char Y_DEQUEUE[] = "usbnet_bh: skb_dequeue(&dev->done)";
static const char Y_FLAGS0[] = "usbnet_stop: dev->flags = 0, del_timer_sync(&dev->delay)";
static const char Y_UNLINK[] = "usbnet_terminate_urbs: unlink_urbs(&dev->txq)";
static const char Y_TIMEOUT[] = "wait_skb_queue_empty: schedule_timeout";
static const char Y_OVER[] = "netdev_sent_queue: over the limit";
static const char Y_SMP_MB[] = "netdev_sent_queue: smp_mb";
static const char Y_ENTER[] = "usbnet_bh: netdev_completed_queue";
static const char Y_DQL[] = "netdev_completed_queue: dql_completed";
static const char Y_WAKE[] = "netdev_completed_queue: smp_mb, STACK_XOFF wake";
static const char Y_RESET[] = "usbnet_stop: netdev_reset_queue";
static const char Y_CLOSE[] = "dev_close: clear __LINK_STATE_START";

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
	const struct driver_info *info;
	void *own_info;
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
	unsigned int xmit_len;
	struct urb *xmit_urb;
	unsigned int bh_pkts[BQLM_USBNET_NR_BH];
	unsigned int stops_left;
	unsigned int suspends_left;
	unsigned int timeouts_left;
	struct bqlm_rcu_slot slot[RCU_MAX_SLOTS];
	unsigned int nr_slots;
	unsigned int last_slot;
	struct bqlm_inv_step ev;
	const char *midstep;
};

/*
 * A schedule to replay, given on the kernel command line by
 * "make kunit-replay SCHEDULE=FILE" (bqlm_kunit.schedule=...).
 */
static char *bqlm_rcu_schedule;
module_param_named(schedule, bqlm_rcu_schedule, charp, 0444);
MODULE_PARM_DESC(schedule, "a usbnet schedule to replay on the real code");

/**
 * bqlm_rcu_schedule_param() - the schedule given on the command line
 *
 * Return: its text (';' between lines), or NULL.
 */
const char *bqlm_rcu_schedule_param(void)
{
	return bqlm_rcu_schedule && *bqlm_rcu_schedule ? bqlm_rcu_schedule :
							  NULL;
}

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

/* The stack's transmit or cdc_ncm's flush: usbnet_start_xmit() runs */
static bool bqlm_rcu_is_xmit(const struct bqlm_rc_actor *a)
{
	return bqlm_rcu_id(a) == RCU_STACK || bqlm_rcu_id(a) == RCU_NCM;
}

/* The actor in usbnet_start_xmit(), if any (HARD_TX_LOCK: at most one) */
static const struct bqlm_rc_actor *bqlm_rcu_xmitter(const struct bqlm_rcu *u)
{
	if (u->rc.actor[RCU_NCM].busy)
		return &u->rc.actor[RCU_NCM];
	return &u->rc.actor[RCU_STACK];
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
	return u->info;
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
	if (u && u->xmit_urb == urb)
		u->xmit_urb = NULL;
	kfree(urb);
}

struct urb *bqlm_rcu_usb_alloc_urb(int iso_packets, gfp_t mem_flags)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);
	struct urb *urb = kzalloc(sizeof(*urb), mem_flags);

	if (!urb)
		return NULL;
	kref_init(&urb->kref);
	INIT_LIST_HEAD(&urb->urb_list);
	INIT_LIST_HEAD(&urb->anchor_list);
	if (a && bqlm_rcu_is_xmit(a))
		u->xmit_urb = urb;	/* usbnet_start_xmit()'s */
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
		bqlm_rc_yield(a, Y_AUTOPM,
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

/* Bind-time USB core calls of the minidrivers: the harness never binds */
int bqlm_rcu_usb_driver_claim_interface(struct usb_driver *driver,
					struct usb_interface *iface,
					void *data)
{
	return -ENODEV;
}

void bqlm_rcu_usb_driver_release_interface(struct usb_driver *driver,
					   struct usb_interface *iface)
{
}

struct usb_interface *bqlm_rcu_usb_ifnum_to_if(const struct usb_device *dev,
					       unsigned int ifnum)
{
	return NULL;
}

int bqlm_rcu_usb_reset_configuration(struct usb_device *dev)
{
	return -ENODEV;
}

int bqlm_rcu_cdc_parse_cdc_header(struct usb_cdc_parsed_header *hdr,
				  struct usb_interface *intf, u8 *buffer,
				  int buflen)
{
	return -ENODEV;
}

/* cdc_ncm's flush timer: the schedule flushes when an NTB is pending */
void bqlm_rcu_hrtimer_start(struct hrtimer *timer, ktime_t tim,
			    const enum hrtimer_mode mode)
{
}

bool bqlm_rcu_hrtimer_active(const struct hrtimer *timer)
{
	return false;
}

/* HARD_TX_LOCK around cdc_ncm's flush: the schedule serialises it */
void bqlm_rcu_netif_tx_lock_bh(struct net_device *dev)
{
}

void bqlm_rcu_netif_tx_unlock_bh(struct net_device *dev)
{
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
			bqlm_rc_yield(a, Y_KILL1,
				      bqlm_rcu_work_idle);
			a->mark |= M_KILL1;
		} else if (!(a->mark & M_KILL2)) {
			bqlm_rc_yield(a, Y_KILL2,
				      bqlm_rcu_bh_idle);
			a->mark |= M_KILL2;
		}
	}
	if (u->rc.actor[RCU_BH_WORK].busy && a)
		bqlm_rc_fail(&u->rc, -EDEADLK, "tasklet_kill() with the bh running");
	u->work_pending = false;
}

/* Set or clear a pending bottom half; return whether it was pending. */
static bool bqlm_rcu_pend(bool *pending, bool now)
{
	bool was = *pending;

	*pending = now;
	return was;
}

int bqlm_rcu_mod_timer(struct timer_list *timer, unsigned long expires)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	if (!u || timer != u->v.delay)
		return 0;
	return bqlm_rcu_pend(&u->timer_pending, true);
}

int bqlm_rcu_timer_pending(const struct timer_list *timer)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	return u && timer == u->v.delay && u->timer_pending;
}

int bqlm_rcu_del_timer_sync(struct timer_list *timer)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	if (!u || timer != u->v.delay)
		return 0;
	if (u->rc.actor[RCU_BH_TIMER].busy && bqlm_rcu_self(u))
		bqlm_rc_fail(&u->rc, -EDEADLK, "del_timer_sync() with the timer running");
	return bqlm_rcu_pend(&u->timer_pending, false);
}

bool bqlm_rcu_schedule_work(struct work_struct *work)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	if (!u || work != u->v.kevent)
		return false;
	return !bqlm_rcu_pend(&u->kevent_pending, true);
}

bool bqlm_rcu_cancel_work_sync(struct work_struct *work)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;

	if (!u || work != u->v.kevent)
		return false;
	return bqlm_rcu_pend(&u->kevent_pending, false);
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

bool bqlm_rcu_lock(spinlock_t *l, bool bh)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (!a)
		return false;
	if (!bh && l == u->v.txq_lock) {
		/* the transmit path and defer_bh() start a step here */
		if (bqlm_rcu_is_xmit(a)) {
			/* the URB is filled: its length is what BQL counts */
			u->xmit_len = u->xmit_urb ?
				      u->xmit_urb->transfer_buffer_length : 0;
			bqlm_rc_yield(a, Y_XMIT_LOCK, bqlm_rcu_txq_free);
		} else if (bqlm_rcu_is_usb(a)) {
			bqlm_rc_yield(a, Y_DEFER, bqlm_rcu_txq_free);
		} else if (u->txq_lock.owner && u->txq_lock.owner != a) {
			u->midstep = "dev->txq.lock held in the middle of a step";
		}
		bqlm_rc_lock(a, &u->txq_lock);
		return true;
	}
	if (bh && u->v.bql_lock && l == u->v.bql_lock) {
		/* with bytes to report, the end of the skb_dequeue() loop */
		if (bqlm_rcu_is_bh(a) && a->count)
			bqlm_rc_yield(a, Y_BQL_LOCK,
				      bqlm_rcu_bql_free);
		else if (u->bql_lock.owner && u->bql_lock.owner != a)
			u->midstep = "dev->bql_spinlock held in the middle of a step";
		bqlm_rc_lock(a, &u->bql_lock);
		return true;
	}
	if (!bh && l == u->v.rxq_lock && (a->mark & M_TERMINATE) &&
	    ++a->count == 2)
		/* unlink_urbs(rxq) took it once; wait_skb_queue_empty() next */
		bqlm_rc_yield(a, Y_WAIT,
			      bqlm_rcu_queues_empty);
	return false;
}

bool bqlm_rcu_unlock(spinlock_t *l, bool bh)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (!a)
		return false;
	if (!bh && l == u->v.txq_lock) {
		bqlm_rc_unlock(a, &u->txq_lock);
		if (bqlm_rcu_id(a) == RCU_RESUME)
			bqlm_rc_yield(a, Y_RESUMED,
				      NULL);
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
		s->len = 0;
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
		bqlm_rc_yield(a, Y_DEQUEUE,
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
	u->bh_pkts[bqlm_rcu_id(a) - RCU_BH_WORK]++;
	return skb;
}

void bqlm_rcu_skb_queue_purge(struct sk_buff_head *list)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (a && list == u->v.rxq_pause && bqlm_rcu_id(a) == RCU_IFDOWN)
		bqlm_rc_yield(a, Y_FLAGS0,
			      bqlm_rcu_timer_idle);
	skb_queue_purge(list);
}

void bqlm_rcu_add_wait_queue(struct wait_queue_head *wq_head,
			     struct wait_queue_entry *wq_entry)
{
	struct bqlm_rcu *u = bqlm_rcu_cur;
	struct bqlm_rc_actor *a = bqlm_rcu_self(u);

	if (a && wq_head == u->v.wait) {
		bqlm_rc_yield(a, Y_UNLINK,
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
	bqlm_rc_yield(a, Y_TIMEOUT,
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
	bool split = a && bqlm_rcu_is_xmit(a);

	dql_queued(&q->dql, bytes);
	if (u && u->last_slot < u->nr_slots)
		u->slot[u->last_slot].flags |= BQLM_USBNET_SKB_SENT;
	if (likely(dql_avail(&q->dql) >= 0))
		return;
	if (split) {
		a->mark |= M_XOFF;
		bqlm_rc_yield(a, Y_OVER, NULL);
	}
	WRITE_ONCE(q->trans_start, jiffies);
	/* as netdev_tx_sent_queue(): pairs with dev_watchdog()'s smp_mb() */
	smp_mb__before_atomic();
	set_bit(__QUEUE_STATE_STACK_XOFF, &q->state);
	/* STACK_XOFF before the re-check; pairs with the completion's */
	smp_mb();
	if (split) {
		a->mark = (a->mark & ~M_XOFF) | M_RECHECK;
		bqlm_rc_yield(a, Y_SMP_MB, NULL);
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
		bqlm_rc_yield(a, Y_ENTER, NULL);
		a->mark |= M_IN_DQL;
		bqlm_rc_yield(a, Y_DQL, NULL);
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
		bqlm_rc_yield(a, Y_WAKE,
			      NULL);
	}
	/* dql_completed() before the STACK_XOFF test; pairs with the sender's */
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
		bqlm_rc_yield(a, Y_RESET, NULL);
	if (u)
		for (i = 0; i < u->nr_slots; i++)
			if (bqlm_usbnet_skb_held(u->slot[i].where))
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
	u->bh_pkts[bqlm_rcu_id(a) - RCU_BH_WORK] = 0;
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
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	return !u->rc.actor[RCU_STACK].busy && !u->rc.actor[RCU_NCM].busy;
}

static void bqlm_rcu_do_ifdown(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	/* dev_close(): __LINK_STATE_START off, the qdisc deactivated */
	u->stops_left--;
	clear_bit(__LINK_STATE_START, &u->net->state);
	bqlm_rc_yield(a, Y_CLOSE, bqlm_rcu_no_xmit);
	u->ops->stop(u->net);
}

static void bqlm_rcu_do_ncm(struct bqlm_rc_actor *a)
{
	struct bqlm_rcu *u = bqlm_rcu_of(a);

	u->ops->ncm_flush(u->net);
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

/* The minidrivers' driver_info: what usbnet.c reads of it */
static const struct driver_info bqlm_rcu_info_plain = {
	.description	= "bqlmodel real-code harness",
	.flags		= FLAG_ETHER,
};

static const struct driver_info bqlm_rcu_info_avoid_unlink = {
	.description	= "bqlmodel real-code harness, FLAG_AVOID_UNLINK_URBS",
	.flags		= FLAG_ETHER | FLAG_AVOID_UNLINK_URBS,
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
			/* skbs a cancelled bh left on dev->done: free them */
			if (!skb_queue_empty(u->v.done) &&
			    !u->rc.actor[RCU_BH_WORK].busy)
				u->work_pending = true;
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

/*
 * A minidriver's own driver_info, as the harness runs it: its flags and
 * tx_fixup; the callbacks that talk to the device (bind, reset, stop,
 * status, power, link, rx) are cleared, as there is no device.
 */
static void *bqlm_rcu_minidriver(const struct driver_info *src)
{
	struct driver_info *d = kmemdup((const void *)src, sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->bind = NULL;
	d->unbind = NULL;
	d->reset = NULL;
	d->stop = NULL;
	d->check_connect = NULL;
	d->manage_power = NULL;
	d->status = NULL;
	d->link_reset = NULL;
	d->set_rx_mode = NULL;
	d->recover = NULL;
	d->early_init = NULL;
	d->rx_fixup = NULL;
	return d;
}

/* Does the model's configuration describe the minidriver's TX path? */
static bool bqlm_rcu_describes(const struct bqlm_usbnet_cfg *cfg,
			       enum bqlm_rcu_driver drv)
{
	bool avoid = cfg->flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS;

	switch (drv) {
	case BQLM_RCU_DRV_HARNESS:
		return cfg->fixup == BQLM_USBNET_FIXUP_NONE;
	case BQLM_RCU_DRV_CDC_ETHER:
		return cfg->fixup == BQLM_USBNET_FIXUP_NONE && !avoid;
	case BQLM_RCU_DRV_AQC111:
		/* an 8-byte descriptor, padded to 8 bytes: pad-header */
		return cfg->fixup == BQLM_USBNET_FIXUP_PAD && avoid;
	case BQLM_RCU_DRV_CDC_NCM:
		/* NTB16 aggregation of two datagrams, flushed by a timer */
		return cfg->fixup == BQLM_USBNET_FIXUP_MULTI && !avoid;
	default:
		return false;
	}
}

/**
 * bqlm_rcu_alloc() - the harness of a configuration, with its actors
 * @cfg: the model's configuration (valid: bqlm_usbnet_cfg_check())
 * @drv: whose driver_info usbnet runs with
 *
 * The actors' threads live as long as the harness; each schedule runs on
 * a device of its own (bqlm_rcu_up()).
 *
 * Return: the harness, or an ERR_PTR(): -EOPNOTSUPP for a configuration
 * that does not describe @drv (the cdc_ncm-like FLAG_MULTI_PACKET
 * aggregation is not run yet), -EBUSY if another harness is in use,
 * -ENOMEM.
 */
static struct bqlm_rcu *bqlm_rcu_alloc(const struct bqlm_usbnet_cfg *cfg,
				       enum bqlm_rcu_driver drv)
{
	struct bqlm_rcu *u;
	int err = -ENOMEM;

	if (!bqlm_rcu_describes(cfg, drv))
		return ERR_PTR(-EOPNOTSUPP);
	if (bqlm_rcu_cur) {
		pr_err("bqlm real-code harness: another harness is in use\n");
		return ERR_PTR(-EBUSY);
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return ERR_PTR(-ENOMEM);
	u->cfg = *cfg;
	u->ops = bqlm_rcu_variant_ops(cfg->variant);
	if (!u->ops)
		goto fail;
	switch (drv) {
	case BQLM_RCU_DRV_CDC_ETHER:
		u->own_info = bqlm_rcu_minidriver(u->ops->cdc_ether_info);
		u->info = u->own_info;
		break;
	case BQLM_RCU_DRV_AQC111:
		u->own_info = bqlm_rcu_minidriver(u->ops->aqc111_info);
		u->info = u->own_info;
		break;
	case BQLM_RCU_DRV_CDC_NCM:
		u->own_info = bqlm_rcu_minidriver(u->ops->cdc_ncm_info);
		u->info = u->own_info;
		break;
	default:
		u->info = cfg->flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS ?
			  &bqlm_rcu_info_avoid_unlink : &bqlm_rcu_info_plain;
		break;
	}
	u->txq_lock.name = "dev->txq.lock";
	u->bql_lock.name = "dev->bql_spinlock";
	u->udev = kzalloc(sizeof(*u->udev), GFP_KERNEL);
	u->intf = kzalloc(sizeof(*u->intf), GFP_KERNEL);
	if (!u->info || !u->udev || !u->intf)
		goto fail;
	u->udev->speed = USB_SPEED_HIGH;
	u->udev->devnum = 1;
	err = bqlm_rc_init(&u->rc, RCU_USB0 + min_t(unsigned int, RCU_MAX_SLOTS,
			   cfg->skbs ? cfg->skbs : cfg->packets),
			   bqlm_rcu_names, u);
	if (err)
		goto fail;
	bqlm_rcu_cur = u;
	return u;
fail:
	kfree(u->own_info);
	kfree(u->udev);
	kfree(u->intf);
	kfree(u);
	return ERR_PTR(err);
}

/**
 * bqlm_rcu_free() - end the harness
 * @u: the harness, its device down (bqlm_rcu_down())
 */
static void bqlm_rcu_free(struct bqlm_rcu *u)
{
	bqlm_rcu_cur = NULL;
	bqlm_rc_destroy(&u->rc);
	if (u->rc.error)
		return;		/* threads may still hold the device */
	kfree(u->own_info);
	kfree(u->udev);
	kfree(u->intf);
	kfree(u);
}

/**
 * bqlm_rcu_up() - a fresh real usbnet device, open, in the model's start
 * @u: the harness, every actor idle
 * @now: receives the jiffies value its DQL was last reset at
 *
 * Return: 0, -ENOMEM, or -EAGAIN if jiffies kept ticking during creation.
 */
static int bqlm_rcu_up(struct bqlm_rcu *u, unsigned long *now)
{
	int tries;

	u->work_pending = false;
	u->timer_pending = false;
	u->kevent_pending = false;
	u->suspended = false;
	u->pkts = 0;
	u->xmit_len = 0;
	memset(u->bh_pkts, 0, sizeof(u->bh_pkts));
	u->stops_left = u->cfg.stops;
	u->suspends_left = u->cfg.suspends;
	u->timeouts_left = u->cfg.timeouts;
	memset(u->slot, 0, sizeof(u->slot));
	u->nr_slots = 0;
	u->last_slot = 0;
	u->midstep = NULL;
	memset(&u->ev, 0, sizeof(u->ev));
	for (tries = 0; tries < 100; tries++) {
		*now = jiffies;
		u->net = u->ops->create(u, &u->v);
		if (!u->net)
			return -ENOMEM;
		u->txq = netdev_get_tx_queue(u->net, 0);
		set_bit(__LINK_STATE_PRESENT, &u->net->state);
		set_bit(__LINK_STATE_START, &u->net->state);
		u->ops->open(u->net);	/* not an actor: runs as usual */
		if (!time_after(jiffies, *now))
			break;
		free_percpu(u->net->tstats);
		free_netdev(u->net);
		u->net = NULL;
	}
	if (!u->net)
		return -EAGAIN;
	/* the bh run usbnet_open() queued has run: the model's start */
	u->work_pending = false;
	u->qdisc = qdisc_create_dflt(u->txq, &bqlm_rc_qdisc_ops, TC_H_ROOT,
				     NULL);
	if (!u->qdisc) {
		free_percpu(u->net->tstats);
		free_netdev(u->net);
		u->net = NULL;
		return -ENOMEM;
	}
	rcu_assign_pointer(u->txq->qdisc, u->qdisc);
	/* the harness tells its locks from the kernel's by address */
	if (u->v.txq_lock == u->v.bql_lock || u->v.txq_lock == u->v.rxq_lock) {
		bqlm_rc_fail(&u->rc, -EINVAL,
			     "dev->txq.lock shares its address with another lock (spinlock_t of size %zu)",
			     sizeof(spinlock_t));
		return -EINVAL;
	}
	return 0;
}

/**
 * bqlm_rcu_down() - drain the device and free it
 * @u: the harness
 *
 * Every parked actor is run to its end and every URB still in flight
 * completed, so that nothing is left behind.
 *
 * Return: 0, or -EBUSY when the device could not be drained (a harness
 * failure): it is leaked, and the harness must not be used again.
 */
static int bqlm_rcu_down(struct bqlm_rcu *u)
{
	unsigned int i;
	bool busy = false;

	if (!u->net)
		return 0;
	bqlm_rcu_drain(u);
	for (i = 0; i < u->rc.nr_actors; i++) {
		const struct bqlm_rc_actor *a = &u->rc.actor[i];

		if (a->busy && !busy)
			bqlm_rc_fail(&u->rc, -EBUSY,
				     "device not drained: %s parked at %s%s",
				     a->name, a->at ? a->at : "?",
				     bqlm_rc_runnable(a) ? "" : " (waiting)");
		busy |= a->busy;
	}
	if (busy || u->rc.error) {
		pr_err("bqlm real-code harness: %s: device leaked\n",
		       u->rc.msg);
		return -EBUSY;
	}
	RCU_INIT_POINTER(u->txq->qdisc, &noop_qdisc);
	synchronize_net();
	rtnl_lock();
	qdisc_put(u->qdisc);
	rtnl_unlock();
	skb_queue_purge(u->v.done);
	u->ops->release(u->net);
	free_percpu(u->net->tstats);
	u->net->tstats = NULL;
	free_netdev(u->net);
	u->net = NULL;
	return 0;
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
		if (act[RCU_NCM].busy)
			return bqlm_rc_resume(&act[RCU_NCM]);
		if (!act[RCU_STACK].busy)
			u->pkts++;
		return bqlm_rcu_go(&act[RCU_STACK], bqlm_rcu_do_xmit,
				   u->cfg.lens[arg]);
	case BQLM_USBNET_A_NCM_FLUSH:
		if (!u->ops->ncm_pending(u->net, &slot) || act[RCU_NCM].busy ||
		    act[RCU_STACK].busy)
			return -EINVAL;
		return bqlm_rc_start(&act[RCU_NCM], bqlm_rcu_do_ncm, 0);
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
		return -EINVAL;
	}
}

/* ------------------------------------------------------------------ */
/* Reading the real state, comparing it with the model's */

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
	busy[RCU_STACK] = m->xmit != BQLM_USBNET_XMIT_IDLE && !m->xmit_ncm;
	busy[RCU_NCM] = m->xmit != BQLM_USBNET_XMIT_IDLE && m->xmit_ncm;
	busy[RCU_BH_WORK] = m->bh[BQLM_USBNET_BH_WORK].phase != BQLM_USBNET_BH_IDLE;
	busy[RCU_BH_TIMER] = m->bh[BQLM_USBNET_BH_TIMER].phase != BQLM_USBNET_BH_IDLE;
	busy[RCU_IFDOWN] = m->admin != BQLM_USBNET_UP && m->admin != BQLM_USBNET_DOWN;
	busy[RCU_SUSPEND] = m->pm == BQLM_USBNET_PM_DETACHED ||
			    m->pm == BQLM_USBNET_PM_WAIT;
	busy[RCU_RESUME] = m->pm == BQLM_USBNET_PM_RESUMING;
	for (i = 0; i < m->nr_skbs && RCU_USB0 + i < u->rc.nr_actors; i++)
		busy[RCU_USB0 + i] = m->skb[i].where == BQLM_USBNET_SKB_COMPLETED;
}

struct bqlm_rcu_diff {
	const char *what;
	unsigned long long real;
	unsigned long long model;
};

/* Note the first of the fields that differ. */
static void bqlm_rcu_cmp(struct bqlm_rcu_diff *d, const char *what,
			 unsigned long long real, unsigned long long model)
{
	if (d->what || real == model)
		return;
	d->what = what;
	d->real = real;
	d->model = model;
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

	struct bqlm_rcu_diff d = { .what = NULL };

#define RCU_CMP_DQL(f)	bqlm_rcu_cmp(&d, "dql." #f, r->f, m->txq.dql.f)
	BQLM_DQL_FIELDS(RCU_CMP_DQL);
#undef RCU_CMP_DQL
	bqlm_rcu_cmp(&d, "DRV_XOFF",
		     test_bit(__QUEUE_STATE_DRV_XOFF, &u->txq->state),
		     !!(m->txq.state & BIT(BQLM_QUEUE_STATE_DRV_XOFF)));
	bqlm_rcu_cmp(&d, "STACK_XOFF",
		     test_bit(__QUEUE_STATE_STACK_XOFF, &u->txq->state),
		     !!(m->txq.state & BIT(BQLM_QUEUE_STATE_STACK_XOFF)));
	bqlm_rcu_cmp(&d, "dev->txq.qlen", skb_queue_len(u->v.txq), m->nr_txq);
	bqlm_rcu_cmp(&d, "dev->done.qlen", skb_queue_len(u->v.done),
		     m->nr_done);
	bqlm_rcu_cmp(&d, "EVENT_TX_HALT", !!(flags & BIT(EVENT_TX_HALT)),
		     !!(m->flags & BQLM_USBNET_EVENT_TX_HALT));
	bqlm_rcu_cmp(&d, "EVENT_DEV_ASLEEP", !!(flags & BIT(EVENT_DEV_ASLEEP)),
		     !!(m->flags & BQLM_USBNET_EVENT_DEV_ASLEEP));
	bqlm_rcu_cmp(&d, "EVENT_DEV_OPEN", !!(flags & BIT(EVENT_DEV_OPEN)),
		     !!(m->flags & BQLM_USBNET_EVENT_DEV_OPEN));
	bqlm_rcu_cmp(&d, "netif_running", netif_running(u->net), m->running);
	bqlm_rcu_cmp(&d, "netif_device_present", netif_device_present(u->net),
		     m->present);
	bqlm_rcu_cmp(&d, "bh work pending", u->work_pending,
		     m->bh[BQLM_USBNET_BH_WORK].pending);
	bqlm_rcu_cmp(&d, "dev->delay pending", u->timer_pending,
		     m->bh[BQLM_USBNET_BH_TIMER].pending);
	bqlm_rcu_cmp(&d, "kevent pending", u->kevent_pending, m->kevent);
	bqlm_rcu_positions(u, rb);
	bqlm_rcu_model_positions(u, m, mb);
	for (i = 0; i < u->rc.nr_actors; i++)
		bqlm_rcu_cmp(&d, bqlm_rcu_names[i], rb[i], mb[i]);
	if (!d.what)
		return true;
	*what = d.what;
	*real = d.real;
	*model = d.model;
	return false;
}

/**
 * bqlm_rcu_compare_view() - every other field of the model's state
 * @u: the harness
 * @m: the model's state
 * @view: bqlm_rcu_view() of the real state, bqlm_usbnet_size() bytes
 * @what: as bqlm_rcu_compare()
 * @real: as bqlm_rcu_compare()
 * @model: as bqlm_rcu_compare()
 *
 * Return: true when @view equals @m (trans_start and the reschedule
 * counters aside), field by field and then byte by byte.
 */
static bool bqlm_rcu_compare_view(const struct bqlm_rcu *u,
				  const struct bqlm_usbnet *m,
				  struct bqlm_usbnet *view, const char **what,
				  unsigned long long *real,
				  unsigned long long *model)
{
	static const char *const skbf[] = { "skb.len", "skb.where",
					    "skb.flags", "skb.next" };
	struct bqlm_rcu_diff d = { .what = NULL };
	unsigned int i;

	bqlm_rcu_cmp(&d, "xmit phase", view->xmit, m->xmit);
	bqlm_rcu_cmp(&d, "xmit_len", view->xmit_len, m->xmit_len);
	bqlm_rcu_cmp(&d, "xmit_skb", view->xmit_skb, m->xmit_skb);
	bqlm_rcu_cmp(&d, "admin (ifdown step)", view->admin, m->admin);
	bqlm_rcu_cmp(&d, "pm (suspend/resume step)", view->pm, m->pm);
	for (i = 0; i < BQLM_USBNET_NR_BH; i++) {
		bqlm_rcu_cmp(&d, "bh phase", view->bh[i].phase, m->bh[i].phase);
		bqlm_rcu_cmp(&d, "bh bytes", view->bh[i].bytes, m->bh[i].bytes);
		bqlm_rcu_cmp(&d, "bh pkts", view->bh[i].pkts, m->bh[i].pkts);
	}
	bqlm_rcu_cmp(&d, "packets sent", view->nr_pkts, m->nr_pkts);
	bqlm_rcu_cmp(&d, "skbs", view->nr_skbs, m->nr_skbs);
	bqlm_rcu_cmp(&d, "dev->done head", view->done_head, m->done_head);
	bqlm_rcu_cmp(&d, "dev->done tail", view->done_tail, m->done_tail);
	for (i = 0; i < m->nr_skbs; i++) {
		bqlm_rcu_cmp(&d, skbf[0], view->skb[i].len, m->skb[i].len);
		bqlm_rcu_cmp(&d, skbf[1], view->skb[i].where, m->skb[i].where);
		bqlm_rcu_cmp(&d, skbf[2], view->skb[i].flags, m->skb[i].flags);
		bqlm_rcu_cmp(&d, skbf[3], view->skb[i].next, m->skb[i].next);
	}
	bqlm_rcu_cmp(&d, "ifdowns left", view->stops_left, m->stops_left);
	bqlm_rcu_cmp(&d, "suspends left", view->suspends_left,
		     m->suspends_left);
	bqlm_rcu_cmp(&d, "timeouts left", view->timeouts_left,
		     m->timeouts_left);
	if (!d.what) {
		view->txq.trans_start = m->txq.trans_start;
		view->txq.sched_pending = m->txq.sched_pending;
		view->txq.sched_count = m->txq.sched_count;
		for (i = 0; i < bqlm_usbnet_size(&u->cfg); i++)
			if (((const u8 *)view)[i] != ((const u8 *)m)[i]) {
				d.what = "struct bqlm_usbnet (byte)";
				d.real = i;
				d.model = i;
				break;
			}
	}
	if (!d.what)
		return true;
	*what = d.what;
	*real = d.real;
	*model = d.model;
	return false;
}

/* The phase of a bh context, from where its actor is parked */
static unsigned char bqlm_rcu_bh_phase(const struct bqlm_rc_actor *a)
{
	if (!a->busy)
		return BQLM_USBNET_BH_IDLE;
	if (a->at == Y_BQL_LOCK || a->at == Y_ENTER)
		return BQLM_USBNET_BH_ENTER;
	if (a->at == Y_DQL)
		return BQLM_USBNET_BH_DQL;
	if (a->at == Y_WAKE)
		return BQLM_USBNET_BH_WAKE;
	return BQLM_USBNET_BH_LOOP;
}

static unsigned char bqlm_rcu_admin(const struct bqlm_rcu *u)
{
	const struct bqlm_rc_actor *a = &u->rc.actor[RCU_IFDOWN];

	if (!a->busy)
		return netif_running(u->net) ? BQLM_USBNET_UP :
					       BQLM_USBNET_DOWN;
	if (a->at == Y_CLOSE)
		return BQLM_USBNET_STOP_CLOSE;
	if (a->at == Y_AUTOPM)
		return BQLM_USBNET_STOP_PM;
	if (a->at == Y_UNLINK)
		return BQLM_USBNET_STOP_UNLINK;
	if (a->at == Y_WAIT || a->at == Y_TIMEOUT)
		return BQLM_USBNET_STOP_WAIT;
	if (a->at == Y_FLAGS0)
		return BQLM_USBNET_STOP_TIMER;
	if (a->at == Y_KILL1)
		return BQLM_USBNET_STOP_WORK;
	if (a->at == Y_KILL2)
		return BQLM_USBNET_STOP_AGAIN;
	if (a->at == Y_RESET)
		return BQLM_USBNET_STOP_RESET;
	return BQLM_USBNET_NR_ADMIN;	/* nowhere the model has */
}

static unsigned char bqlm_rcu_pm(const struct bqlm_rcu *u)
{
	const struct bqlm_rc_actor *s = &u->rc.actor[RCU_SUSPEND];

	if (u->rc.actor[RCU_RESUME].busy)
		return BQLM_USBNET_PM_RESUMING;
	if (!s->busy)
		return u->suspended ? BQLM_USBNET_SUSPENDED : BQLM_USBNET_AWAKE;
	if (s->at == Y_UNLINK)
		return BQLM_USBNET_PM_DETACHED;
	if (s->at == Y_WAIT || s->at == Y_TIMEOUT)
		return BQLM_USBNET_PM_WAIT;
	return BQLM_USBNET_NR_PM;
}

/**
 * bqlm_rcu_view() - the real state, in the model's terms
 * @u: the harness
 * @m: receives it, bqlm_usbnet_size() bytes
 *
 * Every field of struct bqlm_usbnet, read from the real device: the
 * queue's DQL and state bits, dev->txq, dev->done (in its order), the
 * event flags, netif_running() and netif_device_present(), the pending
 * bottom halves, and each actor's phase from where its thread is parked;
 * the skbs from the fake host controller. trans_start and the qdisc
 * reschedule are left 0: the model keeps neither as the kernel does.
 */
static void bqlm_rcu_view(const struct bqlm_rcu *u, struct bqlm_usbnet *m)
{
	const struct bqlm_rc_actor *st = bqlm_rcu_xmitter(u);
	unsigned long flags = READ_ONCE(*u->v.flags);
	const struct dql *r = &u->txq->dql;
	struct sk_buff *skb;
	unsigned int i, prev = 0;

	memset(m, 0, bqlm_usbnet_size(&u->cfg));
#define RCU_COPY(f)	(m->txq.dql.f = r->f)
	BQLM_DQL_FIELDS(RCU_COPY);
#undef RCU_COPY
	m->txq.state = u->txq->state & (BIT(BQLM_QUEUE_STATE_DRV_XOFF) |
					BIT(BQLM_QUEUE_STATE_STACK_XOFF) |
					BIT(BQLM_QUEUE_STATE_FROZEN));
	for (i = 0; i < BQLM_USBNET_NR_BH; i++) {
		const struct bqlm_rc_actor *a = &u->rc.actor[RCU_BH_WORK + i];

		m->bh[i].phase = bqlm_rcu_bh_phase(a);
		if (a->busy) {
			m->bh[i].bytes = a->count;
			m->bh[i].pkts = u->bh_pkts[i];
		}
	}
	m->bh[BQLM_USBNET_BH_WORK].pending = u->work_pending;
	m->bh[BQLM_USBNET_BH_TIMER].pending = u->timer_pending;
	if (st->busy && st->at == Y_XMIT_LOCK) {
		m->xmit = BQLM_USBNET_XMIT_FIXED;
		m->xmit_len = u->xmit_len;
	} else if (st->busy && (st->mark & M_XOFF)) {
		m->xmit = BQLM_USBNET_XMIT_XOFF;
		m->xmit_skb = u->last_slot;
	} else if (st->busy && (st->mark & M_RECHECK)) {
		m->xmit = BQLM_USBNET_XMIT_RECHECK;
		m->xmit_skb = u->last_slot;
	} else if (st->busy) {
		m->xmit = BQLM_USBNET_NR_XMIT;	/* nowhere the model has */
	}
	m->xmit_ncm = u->rc.actor[RCU_NCM].busy;
	if (u->ops->ncm_pending) {
		unsigned int len;

		m->agg_cnt = u->ops->ncm_pending(u->net, &len);
		m->agg_len = len;
	}
	m->nr_skbs = u->nr_slots;
	for (i = 0; i < u->nr_slots; i++) {
		m->skb[i].len = u->slot[i].len;
		m->skb[i].where = u->slot[i].where;
		m->skb[i].flags = u->slot[i].flags;
	}
	skb_queue_walk(u->v.done, skb) {
		int k = bqlm_rcu_slot_of((struct bqlm_rcu *)u,
					 ((struct skb_data *)skb->cb)->urb);

		if (k < 0)
			continue;
		if (prev)
			m->skb[prev - 1].next = k + 1;
		else
			m->done_head = k + 1;
		prev = k + 1;
	}
	m->done_tail = prev;
	m->nr_done = skb_queue_len(u->v.done);
	m->nr_txq = skb_queue_len(u->v.txq);
	m->nr_pkts = u->pkts;
	m->admin = bqlm_rcu_admin(u);
	m->pm = bqlm_rcu_pm(u);
	if (flags & BIT(EVENT_TX_HALT))
		m->flags |= BQLM_USBNET_EVENT_TX_HALT;
	if (flags & BIT(EVENT_DEV_ASLEEP))
		m->flags |= BQLM_USBNET_EVENT_DEV_ASLEEP;
	if (flags & BIT(EVENT_DEV_OPEN))
		m->flags |= BQLM_USBNET_EVENT_DEV_OPEN;
	m->running = netif_running(u->net);
	m->present = netif_device_present(u->net);
	m->kevent = u->kevent_pending;
	m->stops_left = u->stops_left;
	m->suspends_left = u->suspends_left;
	m->timeouts_left = u->timeouts_left;
}

/* May the stack hand usbnet a packet? (the qdisc, as the model has it) */
static bool bqlm_rcu_can_send(const struct bqlm_rcu *u)
{
	return netif_running(u->net) && !netif_xmit_stopped(u->txq) &&
	       u->pkts < u->cfg.packets;
}

static bool bqlm_rcu_txq_unlocked(const struct bqlm_rcu *u)
{
	return !u->txq_lock.owner;
}

/**
 * bqlm_rcu_enabled() - the model actions the real code can take now
 * @u: the harness
 * @act: receives them, in the model's order
 *
 * From the real code alone: a parked actor whose wait is over, an idle
 * one whose trigger is there (a packet the qdisc may send, an URB in
 * flight, a pending bottom half or kevent, ifdown/ifup, the watchdog on a
 * stopped queue, suspend and resume), within the configured bounds.
 *
 * Return: how many.
 */
static unsigned int bqlm_rcu_enabled(const struct bqlm_rcu *u,
				     unsigned int *act)
{
	const struct bqlm_rc_actor *a = u->rc.actor;
	unsigned int n = 0, i, st;

	if (a[RCU_STACK].busy || a[RCU_NCM].busy) {
		if (bqlm_rc_runnable(bqlm_rcu_xmitter(u)))
			act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_XMIT, 0);
	} else if (bqlm_rcu_can_send(u)) {
		for (i = 0; i < u->cfg.nr_lens; i++)
			act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_XMIT, i);
	}
	if (!a[RCU_STACK].busy && !a[RCU_NCM].busy &&
	    u->ops->ncm_pending(u->net, &st))
		act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_NCM_FLUSH, 0);
	for (i = 0; i < u->nr_slots; i++) {
		const struct bqlm_rc_actor *c = &a[RCU_USB0 + i];

		for (st = 0; st < BQLM_USBNET_NR_STATUS && !c->busy; st++) {
			if (u->slot[i].where == BQLM_USBNET_SKB_UNLINKED ?
			    st != BQLM_USBNET_ST_UNLINKED :
			    u->slot[i].where != BQLM_USBNET_SKB_TXQ ||
			    st == BQLM_USBNET_ST_UNLINKED ||
			    (st && !(u->cfg.statuses & BIT(st))))
				continue;
			act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_COMPLETE,
						      i * 4 + st);
		}
		if (c->busy && bqlm_rc_runnable(c))
			act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_DEFER_BH, i);
	}
	for (i = 0; i < BQLM_USBNET_NR_BH; i++) {
		const struct bqlm_rc_actor *b = &a[RCU_BH_WORK + i];
		bool pending = i ? u->timer_pending : u->work_pending;

		if (b->busy ? bqlm_rc_runnable(b) :
		    pending && (!u->v.bql_lock || !skb_queue_empty(u->v.done) ||
				!u->bql_lock.owner))
			act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_BH, i);
	}
	if (u->kevent_pending && bqlm_rcu_txq_unlocked(u))
		act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_KEVENT, 0);
	if (a[RCU_IFDOWN].busy ? bqlm_rc_runnable(&a[RCU_IFDOWN]) :
	    u->stops_left && netif_running(u->net))
		act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_STOP, 0);
	if (!a[RCU_IFDOWN].busy && !netif_running(u->net) &&
	    bqlm_rcu_awake((struct bqlm_rc_actor *)&a[RCU_IFUP]))
		act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_OPEN, 0);
	if (u->timeouts_left && !a[RCU_IFDOWN].busy && netif_running(u->net) &&
	    netif_device_present(u->net) && netif_xmit_stopped(u->txq) &&
	    !a[RCU_STACK].busy && !a[RCU_NCM].busy)
		act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_TX_TIMEOUT, 0);
	if (a[RCU_SUSPEND].busy ? bqlm_rc_runnable(&a[RCU_SUSPEND]) :
	    u->suspends_left && !u->suspended && !a[RCU_RESUME].busy &&
	    !(a[RCU_IFDOWN].busy && (a[RCU_IFDOWN].mark & M_PM_HELD)) &&
	    bqlm_rcu_txq_unlocked(u))
		act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_SUSPEND, 0);
	if (a[RCU_RESUME].busy ? bqlm_rc_runnable(&a[RCU_RESUME]) :
	    u->suspended && bqlm_rcu_txq_unlocked(u))
		act[n++] = BQLM_USBNET_ACTION(BQLM_USBNET_A_RESUME, 0);
	return n;
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

/**
 * struct bqlm_rcu_session - a harness, the model beside it, and buffers
 * @u: the harness (actors and fake host controller)
 * @cfg: the model's configuration, now and hold_time from the device
 * @sys: the model as a system
 * @from: the model's state
 * @to: the model's next state
 * @view: the real state in the model's terms
 * @pre: the model's state before the step being taken
 * @each: violations of one step
 * @mact: the actions the model enables
 * @ract: the actions the real code enables
 * @ticked: jiffies ticked during the last real step
 */
struct bqlm_rcu_session {
	struct bqlm_rcu *u;
	struct bqlm_usbnet_cfg cfg;
	struct bqlm_xsys sys;
	void *from;
	void *to;
	struct bqlm_usbnet *view;
	void *pre;
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned int mact[BQLM_X_MAX_ACTIONS];
	unsigned int ract[BQLM_X_MAX_ACTIONS];
	bool ticked;
};

/**
 * bqlm_rcu_session_create() - a harness for one configuration
 * @cfg: the model's configuration
 * @drv: whose driver_info usbnet runs with: the harness's own (flags from
 *	@cfg, no tx_fixup), or a minidriver's from the tree
 *
 * Return: the session or an ERR_PTR() (see bqlm_rcu_alloc()).
 */
struct bqlm_rcu_session *bqlm_rcu_session_create(const struct bqlm_usbnet_cfg *cfg,
						 enum bqlm_rcu_driver drv)
{
	struct bqlm_rcu_session *r;
	size_t size;

	if (bqlm_usbnet_cfg_check(cfg))
		return ERR_PTR(-EINVAL);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->cfg = *cfg;
	r->cfg.hold_time = HZ;
	size = bqlm_usbnet_size(&r->cfg);
	r->from = kzalloc(size, GFP_KERNEL);
	r->to = kzalloc(size, GFP_KERNEL);
	r->view = kzalloc(size, GFP_KERNEL);
	r->pre = kzalloc(size, GFP_KERNEL);
	if (!r->from || !r->to || !r->view || !r->pre) {
		bqlm_rcu_session_destroy(r);
		return ERR_PTR(-ENOMEM);
	}
	r->u = bqlm_rcu_alloc(&r->cfg, drv);
	if (IS_ERR(r->u)) {
		long err = PTR_ERR(r->u);

		r->u = NULL;
		bqlm_rcu_session_destroy(r);
		return ERR_PTR(err);
	}
	return r;
}

/**
 * bqlm_rcu_session_destroy() - end a session
 * @r: the session, or NULL
 */
void bqlm_rcu_session_destroy(struct bqlm_rcu_session *r)
{
	if (!r)
		return;
	if (r->u)
		bqlm_rcu_free(r->u);
	kfree(r->from);
	kfree(r->to);
	kfree(r->view);
	kfree(r->pre);
	kfree(r);
}

/* A fresh device and the model at its start. */
static int bqlm_rcu_start(struct bqlm_rcu_session *r)
{
	unsigned long now;
	int ret;

	ret = bqlm_rcu_up(r->u, &now);
	if (ret)
		return ret;
	r->cfg.now = now;
	r->u->cfg.now = now;
	bqlm_usbnet_system(&r->cfg, &r->sys);
	memset(r->from, 0, r->sys.state_size);
	bqlm_xinit(&r->sys, r->from);
	return 0;
}

/*
 * The model's invariants on the real state after a step: the step's
 * checks (bqlm_usbnet_check() on the view) and, when only the outside
 * world can act, the stall check.
 */
static unsigned int bqlm_rcu_check(struct bqlm_rcu_session *r,
				   unsigned int *nract, unsigned int *smask)
{
	unsigned int mask, state;

	bqlm_rcu_view(r->u, r->view);
	mask = bqlm_usbnet_check(r->view, &r->cfg, "real code", &r->u->ev,
				 false, r->each);
	*nract = bqlm_rcu_enabled(r->u, r->ract);
	state = bqlm_xcheck_state(&r->sys, r->view, r->ract, *nract,
				  r->each);
	if (smask)
		*smask = state;
	return mask | state;
}

/* Is the real state the model's (bqlm_rcu_view() already taken)? */
static bool bqlm_rcu_same(struct bqlm_rcu_session *r,
			  struct bqlm_rc_result *res)
{
	unsigned long long real = 0, model = 0;
	const char *what = NULL;

	if (bqlm_rcu_compare(r->u, r->from, &what, &real, &model) &&
	    bqlm_rcu_compare_view(r->u, r->from, r->view, &what, &real,
				  &model))
		return true;
	strscpy(res->diff_what, what ?: "?", sizeof(res->diff_what));
	scnprintf(res->diff_real, sizeof(res->diff_real), "%llu", real);
	scnprintf(res->diff_model, sizeof(res->diff_model), "%llu", model);
	return false;
}

static int bqlm_rcu_t_start(void *priv)
{
	return bqlm_rcu_start(priv);
}

/* The model's step is taken at the jiffies value the real one starts at. */
static void bqlm_rcu_t_before(void *priv)
{
	struct bqlm_rcu_session *r = priv;
	unsigned long now = jiffies;

	r->cfg.now = now;
	r->u->cfg.now = now;
	memcpy(r->pre, r->from, r->sys.state_size);
}

static int bqlm_rcu_t_step(void *priv, unsigned int action)
{
	struct bqlm_rcu_session *r = priv;
	int ret = bqlm_rcu_step(r->u, action);

	r->ticked = time_after(jiffies, r->cfg.now);
	return ret;
}

static const char *bqlm_rcu_t_error(void *priv)
{
	struct bqlm_rcu_session *r = priv;

	return bqlm_rcu_error(r->u);
}

static const char *bqlm_rcu_t_parked_at(void *priv, unsigned int action)
{
	struct bqlm_rcu_session *r = priv;

	return bqlm_rcu_parked_at(r->u, action);
}

static unsigned int bqlm_rcu_t_enabled(void *priv, unsigned int *actions)
{
	struct bqlm_rcu_session *r = priv;

	return bqlm_rcu_enabled(r->u, actions);
}

static unsigned int bqlm_rcu_t_check(void *priv, unsigned int *nr,
				     unsigned int *smask)
{
	return bqlm_rcu_check(priv, nr, smask);
}

static bool bqlm_rcu_t_same(void *priv, struct bqlm_rc_result *res)
{
	return bqlm_rcu_same(priv, res);
}

/*
 * A tick fell inside the real step, so the real code may have read the
 * later jiffies value: take the model's step again at that value.
 */
static bool bqlm_rcu_t_retime(void *priv, unsigned int action,
			      unsigned int *nm)
{
	struct bqlm_rcu_session *r = priv;
	unsigned long now = jiffies;

	if (!r->ticked)
		return false;
	r->cfg.now = now;
	r->u->cfg.now = now;
	memcpy(r->to, r->pre, r->sys.state_size);
	memset(r->each, 0, sizeof(r->each));
	if (bqlm_xstep(&r->sys, r->pre, action, r->to, r->each) < 0)
		return false;
	memcpy(r->from, r->to, r->sys.state_size);
	*nm = bqlm_xenabled(&r->sys, r->from, r->mact);
	return true;
}

/* A tick inside the differing real step: the model saw another now. */
static bool bqlm_rcu_t_retry(void *priv, const struct bqlm_rc_result *res)
{
	struct bqlm_rcu_session *r = priv;

	return r->ticked;
}

static int bqlm_rcu_t_down(void *priv)
{
	struct bqlm_rcu_session *r = priv;

	return bqlm_rcu_down(r->u);
}

/*
 * Before hashing: the jiffies values the DQL keeps, relative to the
 * device's creation (each fresh device is made at another jiffies value).
 */
static void bqlm_rcu_t_hash(void *priv)
{
	struct bqlm_rcu_session *r = priv;
	struct bqlm_dql *d = &r->view->txq.dql;

	d->slack_start_time -= r->cfg.now;
	d->last_reap -= r->cfg.now;
	d->history_head -= r->cfg.now / BITS_PER_LONG;
}

/* The adapter bqlm_rc_lockstep() and bqlm_rc_explore() drive. */
static void bqlm_rcu_target(struct bqlm_rcu_session *r,
			    struct bqlm_rc_target *t)
{
	*t = (struct bqlm_rc_target) {
		.priv = r,
		.sys = &r->sys,
		.from = r->from,
		.to = r->to,
		.each = r->each,
		.mact = r->mact,
		.ract = r->ract,
		.view = r->view,
		.view_size = bqlm_usbnet_size(&r->cfg),
		.start = bqlm_rcu_t_start,
		.before = bqlm_rcu_t_before,
		.step = bqlm_rcu_t_step,
		.error = bqlm_rcu_t_error,
		.parked_at = bqlm_rcu_t_parked_at,
		.enabled = bqlm_rcu_t_enabled,
		.check = bqlm_rcu_t_check,
		.same = bqlm_rcu_t_same,
		.retime = bqlm_rcu_t_retime,
		.retry = bqlm_rcu_t_retry,
		.hash = bqlm_rcu_t_hash,
		.down = bqlm_rcu_t_down,
	};
}

/**
 * bqlm_rcu_lockstep() - run a schedule on the model and the real code
 * @r: the session
 * @actions: the schedule, model action numbers; NULL for a random path
 * @n: its length
 * @seed: for a random path, its seed
 * @max_steps: for a random path, its longest length
 * @emit: NULL, or receives each step as "N. model step | real: yield point"
 * @arg: @emit's argument
 * @res: the result
 *
 * bqlm_rc_lockstep() with the real state read by bqlm_rcu_view() and
 * compared field by field, then byte by byte, with the model's. The model
 * runs at one jiffies value per step: a step during which jiffies ticked
 * is taken again on the model at the later value, and a schedule during
 * which jiffies ticked and the states differed is run again on a fresh
 * device, up to 5 times.
 *
 * Return: as bqlm_rc_lockstep().
 */
int bqlm_rcu_lockstep(struct bqlm_rcu_session *r, const unsigned int *actions,
		      unsigned int n, u64 seed, unsigned int max_steps,
		      bqlm_rc_emit_t emit, void *arg,
		      struct bqlm_rc_result *res)
{
	struct bqlm_rc_target t;

	bqlm_rcu_target(r, &t);

	return bqlm_rc_lockstep(&t, actions, n, seed, max_steps, emit, arg,
				res);
}


/**
 * bqlm_rcu_explore() - every schedule of the real usbnet.c within a bound
 * @r: the session
 * @max_states: bound on the states stored
 * @xr: the result
 *
 * bqlm_rc_explore() over the real code of the session's variant: the
 * actions the real code enables (bqlm_rcu_enabled()), the states as
 * bqlm_rcu_view() reads them, the model's invariants on each. The model is
 * not consulted.
 *
 * Return: as bqlm_rc_explore().
 */
int bqlm_rcu_explore(struct bqlm_rcu_session *r, unsigned int max_states,
		     struct bqlm_rc_xresult *xr)
{
	struct bqlm_rc_target t;

	bqlm_rcu_target(r, &t);
	return bqlm_rc_explore(&t, max_states, xr);
}
