/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what model/usbnet/usbnet.c (the mirror of
 * drivers/net/usb/usbnet.c) and model/usbnet/usbnet_xsys.c (its explorer
 * adapter) share: the enabling conditions of the actors, which the actors test
 * before their step and the adapter tests to list the enabled actions, and the
 * variant's properties. Private to the model: not installed.
 */
#ifndef _BQLM_USBNET_INTERNAL_H
#define _BQLM_USBNET_INTERNAL_H

#include "bqlm_internal.h"
#include <bqlm/usbnet.h>

int bqlm_usbnet_xmit_step(struct bqlm_usbnet *dev,
			  const struct bqlm_usbnet_cfg *cfg, unsigned int len,
			  unsigned int header, struct bqlm_inv_step *ev);

/* The skb slots of a state. */
static inline unsigned int bqlm_usbnet_slots(const struct bqlm_usbnet_cfg *cfg)
{
	return cfg->skbs ? cfg->skbs : cfg->packets;
}

/* Does the variant call the BQL functions at all? */
static inline bool bqlm_usbnet_bql(const struct bqlm_usbnet_cfg *cfg)
{
	return cfg->bql;
}

/* Does usbnet_bh() take dev->bql_spinlock around the completion? */
static inline bool bqlm_usbnet_bql_locked(const struct bqlm_usbnet_cfg *cfg)
{
	return cfg->bql_lock;
}

/* dev->txq.qlen */
static inline unsigned int bqlm_usbnet_txq_qlen(const struct bqlm_usbnet *dev)
{
	return dev->nr_txq;
}

/* dev->txq.lock is held across steps only by the transmit path. */
static inline bool bqlm_usbnet_txq_locked(const struct bqlm_usbnet *dev)
{
	return dev->xmit == BQLM_USBNET_XMIT_XOFF ||
	       dev->xmit == BQLM_USBNET_XMIT_RECHECK;
}

/* dev->bql_spinlock is held by a run inside netdev_completed_queue(). */
static inline bool bqlm_usbnet_bql_lock_held(const struct bqlm_usbnet *dev)
{
	unsigned int i;

	for (i = 0; i < BQLM_USBNET_NR_BH; i++)
		if (dev->bh[i].phase == BQLM_USBNET_BH_DQL ||
		    dev->bh[i].phase == BQLM_USBNET_BH_WAKE)
			return true;
	return false;
}

static inline bool bqlm_usbnet_can_xmit(const struct bqlm_usbnet *dev,
					const struct bqlm_usbnet_cfg *cfg)
{
	if (dev->xmit != BQLM_USBNET_XMIT_IDLE)
		return true;
	/* the qdisc: device up, packets left, queue not stopped */
	return dev->running && dev->carrier &&
	       (!cfg->packets || dev->nr_pkts < cfg->packets) &&
	       !bqlm_netif_xmit_stopped(&dev->txq);
}

/*
 * A link-up report: the status URB runs while open and awake, the carrier
 * off and not already reported back on
 */
/*
 * May usbnet_change_mtu() run? Once, when the configuration has one, and
 * not once usbnet_disconnect()'s unregister_netdev() holds the RTNL.
 */
static inline bool bqlm_usbnet_can_change_mtu(const struct bqlm_usbnet *dev,
					      const struct bqlm_usbnet_cfg *cfg)
{
	return cfg->mtu_qlen && !dev->mtu_changed &&
	       dev->unplug <= BQLM_USBNET_UNPLUGGED;
}

/* free_netdev() ran: nothing may act on the device any more */
static inline bool bqlm_usbnet_gone(const struct bqlm_usbnet *dev)
{
	return dev->unplug >= BQLM_USBNET_GONE;
}

/*
 * Does the minidriver's link_reset() set the carrier to the link now? The
 * device answers its reads, or, blind, it sets it whatever they return.
 */
static inline bool bqlm_usbnet_link_reset_sets(const struct bqlm_usbnet *dev,
					       const struct bqlm_usbnet_cfg *cfg)
{
	return dev->unplug == BQLM_USBNET_ATTACHED ||
	       (cfg->pm & BQLM_USBNET_PM_LINK_RESET_BLIND);
}

/*
 * May the minidriver's status() report the link @link? Only where it
 * differs from the carrier, with no report pending, while the status URB
 * runs (open, awake, attached).
 */
static inline bool bqlm_usbnet_can_link(const struct bqlm_usbnet *dev,
					bool link)
{
	return (link ? dev->links_left && !dev->carrier :
		       dev->link_downs_left && dev->carrier) &&
	       dev->unplug == BQLM_USBNET_ATTACHED &&
	       !(dev->flags & (BQLM_USBNET_EVENT_LINK_CARRIER_ON |
			       BQLM_USBNET_EVENT_LINK_RESET)) &&
	       dev->admin == BQLM_USBNET_UP && dev->pm == BQLM_USBNET_AWAKE;
}

static inline bool bqlm_usbnet_can_flush(const struct bqlm_usbnet *dev)
{
	return dev->agg_cnt && dev->xmit == BQLM_USBNET_XMIT_IDLE;
}

static inline bool bqlm_usbnet_can_complete(const struct bqlm_usbnet *dev,
					    const struct bqlm_usbnet_cfg *cfg,
					    unsigned int skb,
					    unsigned int status)
{
	unsigned int where;

	if (skb >= dev->nr_skbs || status >= BQLM_USBNET_NR_STATUS)
		return false;
	where = dev->skb[skb].where;
	if (where == BQLM_USBNET_SKB_UNLINKED)
		return status == BQLM_USBNET_ST_UNLINKED;
	/* a device that stopped draining bulk-out: an unlink's giveback only */
	if (cfg->tx_stall)
		return false;
	return where == BQLM_USBNET_SKB_TXQ &&
	       (status == BQLM_USBNET_ST_OK ||
		(status != BQLM_USBNET_ST_UNLINKED &&
		 (cfg->statuses & (1U << status))));
}

static inline bool bqlm_usbnet_can_bh(const struct bqlm_usbnet *dev,
				      const struct bqlm_usbnet_cfg *cfg,
				      unsigned int ctx)
{
	const struct bqlm_usbnet_bh *bh = &dev->bh[ctx];

	if (bqlm_usbnet_gone(dev))
		return false;
	switch (bh->phase) {
	case BQLM_USBNET_BH_IDLE:
	case BQLM_USBNET_BH_LOOP:
		if (bh->phase == BQLM_USBNET_BH_IDLE && !bh->pending)
			return false;
		/*
		 * A dequeue that ends a run with nothing counted ends the run
		 * in the same step; merged and later take dev->bql_spinlock
		 * there too (around a netdev_completed_queue() of 0 bytes), so
		 * the step waits while the other run holds it. Found by the
		 * real-code harness (bqlm_real_usbnet_equivalence).
		 */
		return dev->nr_done || bh->bytes ||
		       !bqlm_usbnet_bql_locked(cfg) ||
		       !bqlm_usbnet_bql_lock_held(dev);
	case BQLM_USBNET_BH_ENTER:
		return !bqlm_usbnet_bql_locked(cfg) ||
		       !bqlm_usbnet_bql_lock_held(dev);
	default:
		return true;
	}
}

/*
 * Does usbnet_start_xmit() drop the skb under dev->txq.lock? When the
 * queue was stopped meanwhile (netif_queue_stopped(): DRV_XOFF), and
 * (xmit_open) when usbnet_stop() has cleared EVENT_DEV_OPEN.
 */
static inline bool bqlm_usbnet_xmit_drops(const struct bqlm_usbnet *dev,
					  const struct bqlm_usbnet_cfg *cfg)
{
	return bqlm_netif_tx_queue_stopped(&dev->txq) ||
	       (cfg->xmit_open && !(dev->flags & BQLM_USBNET_EVENT_DEV_OPEN));
}

/* Where usbnet_stop() resets the queue in this variant. */
static inline bool bqlm_usbnet_early_reset(const struct bqlm_usbnet_cfg *cfg)
{
	return cfg->stop_reset == BQLM_USBNET_RESET_EARLY;
}

/* Can usbnet_stop() (after dev_close()) make its next step? */
/* What a step of ifdown or usbnet_suspend() waits for. */
enum bqlm_usbnet_wait {
	BQLM_USBNET_WAIT_NONE,
	BQLM_USBNET_WAIT_XMIT,		/* the transmit in progress to end */
	BQLM_USBNET_WAIT_AWAKE,		/* the device to be resumed */
	BQLM_USBNET_WAIT_TXQ_LOCK,	/* dev->txq.lock */
	BQLM_USBNET_WAIT_EMPTY,		/* dev->txq and dev->done empty */
	BQLM_USBNET_WAIT_TIMER,		/* no usbnet_bh() run by the timer */
	BQLM_USBNET_WAIT_WORK,		/* no usbnet_bh() run by the bh work */
	BQLM_USBNET_WAIT_BH,		/* neither */
};

/* Must a step that waits for @wait wait in @dev? */
static inline bool bqlm_usbnet_waits(const struct bqlm_usbnet *dev,
				     unsigned int wait)
{
	bool work = dev->bh[BQLM_USBNET_BH_WORK].phase != BQLM_USBNET_BH_IDLE;
	bool timer = dev->bh[BQLM_USBNET_BH_TIMER].phase != BQLM_USBNET_BH_IDLE;

	switch (wait) {
	case BQLM_USBNET_WAIT_XMIT:
		return dev->xmit != BQLM_USBNET_XMIT_IDLE;
	case BQLM_USBNET_WAIT_AWAKE:
		return dev->pm != BQLM_USBNET_AWAKE;
	case BQLM_USBNET_WAIT_TXQ_LOCK:
		return bqlm_usbnet_txq_locked(dev);
	case BQLM_USBNET_WAIT_EMPTY:
		return bqlm_usbnet_txq_qlen(dev) || dev->nr_done;
	case BQLM_USBNET_WAIT_TIMER:
		return timer;
	case BQLM_USBNET_WAIT_WORK:
		return work;
	case BQLM_USBNET_WAIT_BH:
		return work || timer;
	default:
		return false;
	}
}

/**
 * struct bqlm_usbnet_stop_step - one step of ifdown (bqlm_usbnet_stop())
 * @wait: enum bqlm_usbnet_wait: what the step waits for
 * @call: the kernel code the step runs, as traces print it
 */
struct bqlm_usbnet_stop_step {
	unsigned char wait;
	const char *call;
};

/* The steps, indexed by the struct bqlm_usbnet.admin they are taken from. */
extern const struct bqlm_usbnet_stop_step
bqlm_usbnet_stop_steps[BQLM_USBNET_NR_ADMIN];

/* Can ifdown make its next step (0), must it wait (-EAGAIN), or none? */
static inline int bqlm_usbnet_stop_ready(const struct bqlm_usbnet *dev)
{
	/* usbnet_disconnect()'s unregister_netdev() closes the device */
	if (dev->unplug >= BQLM_USBNET_UNREGISTER)
		return -EINVAL;
	switch (dev->admin) {
	case BQLM_USBNET_UP:
		return dev->stops_left ? 0 : -EINVAL;
	case BQLM_USBNET_DOWN:
		return -EINVAL;
	default:
		return bqlm_usbnet_waits(dev,
					 bqlm_usbnet_stop_steps[dev->admin].wait) ?
		       -EAGAIN : 0;
	}
}

/**
 * bqlm_usbnet_pm_usage() - the interface's runtime-PM usage count
 * @dev: the device
 * @cfg: its configuration
 *
 * What the USB core's autosuspend_check() reads: the reference
 * usbnet_open() took with usb_autopm_get_interface(), held to the end of
 * usbnet_stop() unless the minidriver's manage_power() drops it
 * (BQLM_USBNET_PM_MANAGE_POWER; dev_close() and usbnet_stop() up to its
 * own get count as open); usbnet_stop()'s own, from its
 * usb_autopm_get_interface() to its end; and one per transmit URB, from
 * usbnet_start_xmit()'s usb_autopm_get_interface_async() to
 * tx_complete()'s usb_autopm_put_interface_async(), deferred URBs
 * included (usbnet_resume() drops the count of one it cannot submit).
 * The kevent work's get and put fall within one step.
 *
 * Return: the count.
 */
static inline unsigned int bqlm_usbnet_pm_usage(const struct bqlm_usbnet *dev,
						const struct bqlm_usbnet_cfg *cfg)
{
	unsigned int n = 0, i;

	if (dev->admin != BQLM_USBNET_DOWN &&
	    !(cfg->pm & BQLM_USBNET_PM_MANAGE_POWER))
		n++;
	if (dev->admin > BQLM_USBNET_STOP_PM && dev->admin < BQLM_USBNET_DOWN)
		n++;
	for (i = 0; i < dev->nr_skbs; i++)
		n += dev->skb[i].where >= BQLM_USBNET_SKB_DEFERRED &&
		     dev->skb[i].where <= BQLM_USBNET_SKB_UNLINKED;
	return n;
}

/*
 * Can usbnet_suspend() make its next step? A runtime autosuspend
 * (cfg->autosuspend) begins only where the USB core takes one: at a usage
 * count of 0 (autosuspend_check()); a system suspend looks at no count.
 */
static inline int bqlm_usbnet_suspend_ready(const struct bqlm_usbnet *dev,
					    const struct bqlm_usbnet_cfg *cfg)
{
	switch (dev->pm) {
	case BQLM_USBNET_AWAKE:
		/*
		 * ifdown holds a PM reference from its
		 * usb_autopm_get_interface() to its end
		 */
		if (!dev->suspends_left || dev->unplug ||
		    (dev->admin > BQLM_USBNET_STOP_PM &&
		     dev->admin < BQLM_USBNET_DOWN))
			return -EINVAL;
		if (cfg->autosuspend && bqlm_usbnet_pm_usage(dev, cfg))
			return -EINVAL;
		fallthrough;
	case BQLM_USBNET_PM_DETACHED:
		return bqlm_usbnet_waits(dev, BQLM_USBNET_WAIT_TXQ_LOCK) ?
		       -EAGAIN : 0;
	case BQLM_USBNET_PM_WAIT:
		return bqlm_usbnet_waits(dev, BQLM_USBNET_WAIT_EMPTY) ?
		       -EAGAIN : 0;
	case BQLM_USBNET_PM_UNDO:
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Can the disconnect make its next step (0), must it wait (-EAGAIN), or
 * is there none (-EINVAL)? The unplug waits for a suspend or resume in
 * progress (the USB core holds the device lock); usbnet_disconnect()
 * for the flush to give every URB back and for an ifdown in progress
 * (unregister_netdev() takes the RTNL); its usbnet_stop() steps wait as
 * ifdown's do; free_netdev() for a cdc_ncm flush in progress (the
 * minidriver's unbind() kills its tasklet), and for nothing else.
 */
static inline int bqlm_usbnet_disconnect_ready(const struct bqlm_usbnet *dev,
					       const struct bqlm_usbnet_cfg *cfg)
{
	switch (dev->unplug) {
	case BQLM_USBNET_ATTACHED:
		if (!cfg->disconnect)
			return -EINVAL;
		return dev->pm == BQLM_USBNET_AWAKE ? 0 : -EAGAIN;
	case BQLM_USBNET_UNPLUGGED:
		return bqlm_usbnet_txq_qlen(dev) ||
		       (dev->admin != BQLM_USBNET_UP &&
			dev->admin != BQLM_USBNET_DOWN) ? -EAGAIN : 0;
	case BQLM_USBNET_UNREGISTER:
		return bqlm_usbnet_waits(dev,
					 bqlm_usbnet_stop_steps[dev->admin %
								BQLM_USBNET_NR_ADMIN].wait) ?
		       -EAGAIN : 0;
	case BQLM_USBNET_UNREGISTERED:
		/* disconnect_kill: cancel_work_sync(), timer_delete_sync() wait */
		if (cfg->disconnect_kill &&
		    (dev->bh[BQLM_USBNET_BH_WORK].phase != BQLM_USBNET_BH_IDLE ||
		     dev->bh[BQLM_USBNET_BH_TIMER].phase != BQLM_USBNET_BH_IDLE))
			return -EAGAIN;
		return dev->xmit != BQLM_USBNET_XMIT_IDLE ? -EAGAIN : 0;
	case BQLM_USBNET_KILLED:
		return dev->xmit != BQLM_USBNET_XMIT_IDLE ? -EAGAIN : 0;
	default:
		return -EINVAL;
	}
}

#endif /* _BQLM_USBNET_INTERNAL_H */
