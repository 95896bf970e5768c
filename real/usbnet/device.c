// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real usbnet.c under the model's schedules: the harness's
 * life and a device's, as usbnet_probe() and usbnet_open() make it and as
 * it is torn down (see harness.h, docs/real-usbnet.md).
 */
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/usb/usbnet.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "harness.h"

/* Tries at making a device within one jiffy */
#define RUSBNET_UP_TRIES	100

/*
 * A minidriver's own driver_info, as the harness runs it: its flags, and
 * its own tx_fixup(), stop(), unbind() and manage_power(); its status()
 * and link_reset() when its entry has the bytes of a link interrupt
 * (the link actor hands them to status()). Cleared: bind (the table's
 * entry fakes it), reset and check_connect (the fake device is always in
 * its known state and connected), status and link_reset without those
 * bytes (there is no interrupt endpoint), and the receive side
 * (set_rx_mode, rx_fixup, recover, early_init).
 */
static const struct driver_info *
bqlm_rusbnet_info(const struct bqlm_rusbnet_driver *drv)
{
	struct driver_info *d = kmemdup((const void *)drv->info, sizeof(*d),
					GFP_KERNEL);

	if (!d)
		return NULL;
	/* and what the entry says the harness cannot run */
	if (drv->clear & BQLM_RUSBNET_NO_STOP)
		d->stop = NULL;
	if (drv->clear & BQLM_RUSBNET_NO_UNBIND)
		d->unbind = NULL;
	if (drv->clear & BQLM_RUSBNET_NO_POWER)
		d->manage_power = NULL;
	d->bind = NULL;
	d->reset = NULL;
	d->check_connect = NULL;
	if (!bqlm_rusbnet_runs_status(drv)) {
		d->status = NULL;
		d->link_reset = NULL;
	}
	d->set_rx_mode = NULL;
	d->recover = NULL;
	d->early_init = NULL;
	d->rx_fixup = NULL;
	return d;
}

/**
 * bqlm_rusbnet_init() - the harness of a configuration, with its actors
 * @u: the harness, zeroed
 * @cfg: the model's configuration (valid: bqlm_usbnet_cfg_check())
 * @ops: the variant
 * @drv: the minidriver, one of @ops' (its description: @cfg's)
 *
 * The actors' threads live as long as the harness; each schedule runs on
 * a device of its own (bqlm_rusbnet_up()).
 *
 * Return: 0, -EBUSY if another harness is in use, -ENOMEM, or the error
 * of starting the threads.
 */
int bqlm_rusbnet_init(struct bqlm_rusbnet *u, const struct bqlm_usbnet_cfg *cfg,
		      const struct bqlm_rusbnet_ops *ops,
		      const struct bqlm_rusbnet_driver *drv)
{
	unsigned int skbs = cfg->skbs ? cfg->skbs : cfg->packets;
	int err;

	u->cfg = *cfg;
	u->ops = ops;
	u->drv = drv;
	u->info = bqlm_rusbnet_info(drv);
	if (!u->info)
		return -ENOMEM;
	bqlm_rc_lock_init(&u->txq_lock, "dev->txq.lock");
	bqlm_rc_lock_init(&u->bql_lock, "dev->bql_spinlock");
	bqlm_hcd_init(&u->hcd, &bqlm_rusbnet_hcd_ops, cfg->maxpacket);
	/* the model's tx-stall: the device gives back unlinked URBs only */
	u->hcd.out_stalled = cfg->tx_stall;
	err = bqlm_hcd_attach(&u->hcd);
	if (err) {
		pr_err("bqlm real-code harness: another harness is in use\n");
		goto fail;
	}
	err = bqlm_rc_init(&u->rc, RUSBNET_USB0 +
			   min_t(unsigned int, RUSBNET_MAX_SLOTS, skbs),
			   bqlm_rusbnet_names);
	if (err) {
		bqlm_hcd_detach(&u->hcd);
		goto fail;
	}
	return 0;
fail:
	kfree(u->info);
	u->info = NULL;
	return err;
}

/**
 * bqlm_rusbnet_release() - end the harness
 * @u: the harness, its device down (bqlm_rusbnet_down())
 *
 * Return: 0, or -EBUSY after a harness failure: actors' threads may still
 * hold the device, and the harness's memory must be left to them.
 */
int bqlm_rusbnet_release(struct bqlm_rusbnet *u)
{
	bqlm_hcd_detach(&u->hcd);
	bqlm_rc_destroy(&u->rc);
	if (u->rc.error)
		return -EBUSY;
	kfree(u->info);
	u->info = NULL;
	return 0;
}

/*
 * The device's watchdog timer, set up as register_netdevice() does
 * (dev_init_scheduler()), which the harness's unregistered device skips:
 * netif_device_attach() at the end of usbnet_suspend() arms it on a running
 * device (__netdev_watchdog_up(), with a reference to the device). The
 * transmit timeout is the harness's watchdog actor, where the schedule puts
 * it; the timer's expiry only drops that reference, as dev_watchdog() does
 * when it does not re-arm.
 */
static void bqlm_rusbnet_watchdog(struct timer_list *t)
{
	struct net_device *net = from_timer(net, t, watchdog_timer);

	netdev_put(net, &net->watchdog_dev_tracker);
}

/* dev_watchdog_down(), before the device is freed */
static void bqlm_rusbnet_free(struct bqlm_rusbnet *u)
{
	if (timer_delete_sync(&u->net->watchdog_timer))
		netdev_put(u->net, &u->net->watchdog_dev_tracker);
	u->ops->destroy(u->net, u->drv, u->gone);
	u->net = NULL;
}

/**
 * bqlm_rusbnet_up() - a fresh real usbnet device, open, in the model's start
 * @u: the harness, every actor idle; its @cfg.now receives the jiffies
 *	value the device's DQL was last reset at
 *
 * Return: 0, -ENOMEM, -EINVAL if the harness cannot tell its locks apart,
 * or -EAGAIN if jiffies kept ticking during creation.
 */
int bqlm_rusbnet_up(struct bqlm_rusbnet *u)
{
	const struct bqlm_rusbnet_probe probe = {
		.udev = &u->hcd.udev,
		.intf = &u->hcd.intf,
		.info = u->info,
		.drv = u->drv,
		.tx_qlen = u->cfg.tx_qlen,
	};
	int tries;

	u->work_pending = false;
	u->bh_disabled = 0;
	u->timer_pending = false;
	u->kevent_pending = false;
	u->suspended = false;
	u->pkts = 0;
	u->xmit_len = 0;
	memset(u->bh_pkts, 0, sizeof(u->bh_pkts));
	u->stops_left = u->cfg.stops;
	u->suspends_left = u->cfg.suspends;
	u->timeouts_left = u->cfg.timeouts;
	u->links_left = u->cfg.links;
	u->link_downs_left = u->cfg.link_downs;
	u->mtu_changed = false;
	u->gone = false;
	u->hcd.gone = false;
	u->hcd.link_down = false;
	memset(u->slot, 0, sizeof(u->slot));
	u->nr_slots = 0;
	u->last_slot = 0;
	u->midstep = NULL;
	u->refused = NULL;
	memset(&u->ev, 0, sizeof(u->ev));
	for (tries = 0; tries < RUSBNET_UP_TRIES; tries++) {
		/* a fresh interface: no PM usage count before usbnet_open() */
		atomic_set(&u->hcd.pm_usage, 0);
		u->hcd.pm_underflow = false;
		u->cfg.now = jiffies;
		u->net = u->ops->create(&probe, &u->v);
		if (!u->net)
			return -ENOMEM;
		timer_setup(&u->net->watchdog_timer, bqlm_rusbnet_watchdog, 0);
		u->txq = netdev_get_tx_queue(u->net, 0);
		set_bit(__LINK_STATE_PRESENT, &u->net->state);
		set_bit(__LINK_STATE_START, &u->net->state);
		u->ops->open(u->net);	/* not an actor: runs as usual */
		if (!time_after(jiffies, u->cfg.now))
			break;
		bqlm_rusbnet_free(u);
	}
	if (!u->net)
		return -EAGAIN;
	/* the bh run usbnet_open() queued has run: the model's start */
	u->work_pending = false;
	u->qdisc = qdisc_create_dflt(u->txq, &bqlm_rc_qdisc_ops, TC_H_ROOT,
				     NULL);
	if (!u->qdisc) {
		bqlm_rusbnet_free(u);
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
 * bqlm_rusbnet_down() - drain the device and free it
 * @u: the harness
 *
 * Every parked actor is run to its end and every URB still in flight
 * completed, so that nothing is left behind.
 *
 * Return: 0, or -EBUSY when the device could not be drained, or its
 * interface's PM usage count went below 0 (a harness failure): it is
 * leaked, and the harness must not be used again.
 */
int bqlm_rusbnet_down(struct bqlm_rusbnet *u)
{
	unsigned int i;
	bool busy = false;

	if (!u->net)
		return 0;
	bqlm_rusbnet_drain(u);
	if (u->hcd.pm_underflow)
		bqlm_rc_fail(&u->rc, -EINVAL,
			     "the interface's PM usage count went below 0: a usb_autopm_put_interface() without its get");
	for (i = 0; i < u->rc.nr_actors; i++) {
		const struct bqlm_rc_actor *a = &u->rc.actor[i];

		if (a->busy && !busy)
			bqlm_rc_fail(&u->rc, -EBUSY,
				     "device not drained: %s parked at %s%s",
				     a->name, bqlm_rc_parked_at(a),
				     bqlm_rc_runnable(a) ? "" : " (waiting)");
		busy |= a->busy;
	}
	if (busy || u->rc.error) {
		pr_err("bqlm real-code harness: %s: device leaked\n",
		       u->rc.msg);
		return -EBUSY;
	}
	if (bqlm_rc_qdisc_put(u->txq, u->qdisc)) {
		/* its softirq may still run on the device's txq */
		bqlm_rc_fail(&u->rc, -EBUSY, "the test qdisc did not go idle: device leaked");
		return -EBUSY;
	}
	skb_queue_purge(u->v.done);
	bqlm_rusbnet_free(u);
	return 0;
}
