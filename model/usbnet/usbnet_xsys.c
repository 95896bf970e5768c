// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the usbnet model (model/usbnet/usbnet.c) as a system for the
 * explorer of <bqlm/explore.h>: the invariants checked on a state, the
 * actions (one per actor that can make a step) and their encoding, the
 * step, the quiescent-state check, the descriptions of actions and states
 * for traces, and the symmetry of the skb slots.
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/usbnet.h>
#include "usbnet_internal.h"

/**
 * bqlm_usbnet_inflight() - the ground truth of what is in flight
 * @dev: the state
 *
 * Return: the bytes of the skbs the device holds (submitted, and not yet
 * freed by usbnet_bh() after its netdev_completed_queue()) that were
 * submitted after the last netdev_reset_queue().
 */
unsigned int bqlm_usbnet_inflight(const struct bqlm_usbnet *dev)
{
	unsigned int i, n = 0;

	for (i = 0; i < dev->nr_skbs; i++)
		if (bqlm_usbnet_skb_held(dev->skb[i].where) &&
		    !(dev->skb[i].flags & BQLM_USBNET_SKB_STALE))
			n += dev->skb[i].len;
	return n;
}

/*
 * The device is open, running, present and awake: it should transmit.
 * Not a device that stopped draining bulk-out (tx-stall) while it holds
 * TX URBs: a queue stopped behind them waits for the watchdog's or
 * ifdown's unlink, the device's stall and not a lost wake-up.
 */
static bool bqlm_usbnet_wants_tx(const struct bqlm_usbnet *dev,
				 const struct bqlm_usbnet_cfg *cfg)
{
	if (cfg->tx_stall && bqlm_usbnet_txq_qlen(dev))
		return false;
	return dev->admin == BQLM_USBNET_UP && dev->running && dev->present &&
	       dev->carrier && dev->pm == BQLM_USBNET_AWAKE;
}

/* STACK_XOFF: only a completion clears it (DRV_XOFF has the watchdog). */
static bool bqlm_usbnet_stack_xoff(const struct bqlm_usbnet *dev)
{
	return dev->txq.state & (1UL << BQLM_QUEUE_STATE_STACK_XOFF);
}

/*
 * The suspend-count check: between PM callbacks, usbnet's suspend_count
 * must be what the USB core's view of the interface says, 1 suspended
 * and 0 awake; during one, at most 1. In a violation, val[0] is the USB
 * core's count and val[1] usbnet's, the kernel's unsigned char (-ERANGE:
 * above 1, which one suspend of the USB core cannot give: 255 is a
 * resume that took it below 0).
 */
static unsigned int bqlm_usbnet_check_pm(const struct bqlm_usbnet *dev,
					 const char *where,
					 struct bqlm_violation *each)
{
	int core = dev->pm == BQLM_USBNET_SUSPENDED, count = dev->suspend_count;
	struct bqlm_violation *v;

	/* a suspend or resume in progress: only a count above 1 is wrong */
	if (dev->pm != BQLM_USBNET_AWAKE && !core && count <= 1)
		return 0;
	if (count == core)
		return 0;
	if (each) {
		v = &each[BQLM_CHECK_SUSPEND_COUNT];
		v->check = BQLM_CHECK_SUSPEND_COUNT;
		v->err = count > 1 ? -ERANGE : -EBADMSG;
		v->where = where;
		v->val[0] = core;
		v->val[1] = count;
	}
	return BQLM_CHECK_BIT(BQLM_CHECK_SUSPEND_COUNT);
}

/**
 * bqlm_usbnet_check() - check the BQL invariants after a step
 * @dev: the state after the step
 * @cfg: the configuration
 * @where: the modelled kernel function of the step
 * @ev: what the step did
 * @quiescent: nothing but the outside world can act in @dev
 * @each: as for bqlm_inv_check(), may be NULL
 *
 * The ground truth is bqlm_usbnet_inflight(); completions in progress are
 * the usbnet_bh() runs inside dql_completed(); a producer is in progress
 * while the transmit path is inside netdev_sent_queue(). A stall is a
 * quiescent state in which the device is open, running, present and
 * awake and STACK_XOFF is set: only a completion clears it, and nothing is
 * left to complete. (DRV_XOFF alone is not a stall: the watchdog's
 * usbnet_tx_timeout() queues the bh, and usbnet_bh() wakes the queue.)
 *
 * Return: the mask of violated checks.
 */
unsigned int bqlm_usbnet_check(const struct bqlm_usbnet *dev,
			       const struct bqlm_usbnet_cfg *cfg,
			       const char *where,
			       const struct bqlm_inv_step *ev, bool quiescent,
			       struct bqlm_violation *each)
{
	struct bqlm_inv_counters c;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	c.where = where;
	c.bql = bqlm_usbnet_bql(cfg);
	c.dql = &dev->txq.dql;
	c.inflight = bqlm_usbnet_inflight(dev);
	for (i = 0; i < BQLM_USBNET_NR_BH; i++)
		c.completions += dev->bh[i].phase == BQLM_USBNET_BH_DQL;
	c.producers = bqlm_usbnet_txq_locked(dev);
	c.quiescent = quiescent;
	c.wants_tx = bqlm_usbnet_wants_tx(dev, cfg);
	c.stopped = bqlm_usbnet_stack_xoff(dev);
	if (ev)
		c.step = *ev;
	return bqlm_inv_check(&c, NULL, each) |
	       bqlm_usbnet_check_pm(dev, where, each);
}


static const char *const bqlm_usbnet_status_names[BQLM_USBNET_NR_STATUS] = {
	[BQLM_USBNET_ST_OK] = "0",
	[BQLM_USBNET_ST_EPROTO] = "-EPROTO",
	[BQLM_USBNET_ST_EPIPE] = "-EPIPE",
	[BQLM_USBNET_ST_UNLINKED] = "-ECONNRESET",
};

/**
 * bqlm_usbnet_action_valid() - is a number an action of a configuration?
 * @cfg: the configuration
 * @action: the number, BQLM_X_ACTION(kind, argument)
 *
 * Whatever the state: a kind the model has, with an argument in range for
 * it (a packet length index, an skb slot and a status, a bh context, 0
 * for the others). Whether it is enabled is the state's business
 * (bqlm_xenabled()).
 *
 * Return: true if it is.
 */
bool bqlm_usbnet_action_valid(const struct bqlm_usbnet_cfg *cfg,
			      unsigned int action)
{
	unsigned int arg = BQLM_X_ARG(action);

	if (action > 0xffff)
		return false;
	switch (BQLM_X_KIND(action)) {
	case BQLM_USBNET_A_XMIT:
		return arg < cfg->nr_lens;
	case BQLM_USBNET_A_COMPLETE:
		return arg / BQLM_USBNET_NR_STATUS < bqlm_usbnet_slots(cfg);
	case BQLM_USBNET_A_DEFER_BH:
		return arg < bqlm_usbnet_slots(cfg);
	case BQLM_USBNET_A_BH:
		return arg < BQLM_USBNET_NR_BH;
	case BQLM_USBNET_A_NCM_FLUSH:
	case BQLM_USBNET_A_KEVENT:
	case BQLM_USBNET_A_STOP:
	case BQLM_USBNET_A_OPEN:
	case BQLM_USBNET_A_TX_TIMEOUT:
	case BQLM_USBNET_A_SUSPEND:
	case BQLM_USBNET_A_RESUME:
	case BQLM_USBNET_A_CHANGE_MTU:
	case BQLM_USBNET_A_DISCONNECT:
		return !arg;
	case BQLM_USBNET_A_LINK:
		return arg <= 1;
	default:
		return false;
	}
}

/* Run one action: the step function of its actor. */
static int bqlm_usbnet_run(const void *ctx, void *state, unsigned int action,
			   struct bqlm_xrun *r)
{
	const struct bqlm_usbnet_cfg *cfg = ctx;
	struct bqlm_usbnet *dev = state;
	unsigned int arg = BQLM_X_ARG(action);

	switch (BQLM_X_KIND(action)) {
	case BQLM_USBNET_A_XMIT:
		r->where = "usbnet_start_xmit";
		if (arg >= cfg->nr_lens)
			return -EINVAL;
		return bqlm_usbnet_xmit_step(dev, cfg, cfg->lens[arg],
					     bqlm_usbnet_header(cfg, arg),
					     &r->ev);
	case BQLM_USBNET_A_NCM_FLUSH:
		r->where = "cdc_ncm_txpath_bh";
		return bqlm_cdc_ncm_txpath_bh(dev, cfg, &r->ev);
	case BQLM_USBNET_A_COMPLETE:
		r->where = "tx_complete";
		return bqlm_tx_complete(dev, cfg, arg / 4, arg % 4, &r->ev);
	case BQLM_USBNET_A_DEFER_BH:
		r->where = "defer_bh";
		return bqlm_defer_bh(dev, cfg, arg, &r->ev);
	case BQLM_USBNET_A_BH:
		r->where = "usbnet_bh";
		return bqlm_usbnet_bh(dev, cfg, arg, &r->ev);
	case BQLM_USBNET_A_KEVENT:
		r->where = "usbnet_deferred_kevent";
		return bqlm_usbnet_deferred_kevent(dev, cfg, &r->ev);
	case BQLM_USBNET_A_STOP:
		r->where = "usbnet_stop";
		return bqlm_usbnet_stop(dev, cfg, &r->ev);
	case BQLM_USBNET_A_OPEN:
		r->where = "usbnet_open";
		return bqlm_usbnet_open(dev, cfg, &r->ev);
	case BQLM_USBNET_A_TX_TIMEOUT:
		r->where = "usbnet_tx_timeout";
		return bqlm_usbnet_tx_timeout(dev, cfg, &r->ev);
	case BQLM_USBNET_A_SUSPEND:
		r->where = "usbnet_suspend";
		return bqlm_usbnet_suspend(dev, cfg, &r->ev);
	case BQLM_USBNET_A_RESUME:
		r->where = "usbnet_resume";
		return bqlm_usbnet_resume(dev, cfg, &r->ev);
	case BQLM_USBNET_A_LINK:
		r->where = "usbnet_link_change";
		return bqlm_usbnet_link_change(dev, cfg, !arg, &r->ev);
	case BQLM_USBNET_A_CHANGE_MTU:
		r->where = "usbnet_change_mtu";
		return bqlm_usbnet_change_mtu(dev, cfg, &r->ev);
	case BQLM_USBNET_A_DISCONNECT:
		r->where = "usbnet_disconnect";
		return bqlm_usbnet_disconnect(dev, cfg, &r->ev);
	default:
		r->where = "?";
		return -EINVAL;
	}
}

static unsigned int bqlm_usbnet_enabled(const void *ctx, const void *state,
					unsigned int *a)
{
	const struct bqlm_usbnet_cfg *cfg = ctx;
	const struct bqlm_usbnet *dev = state;
	unsigned int n = 0, i, st;

	if (bqlm_usbnet_gone(dev))
		return 0;	/* free_netdev(): nothing acts any more */
	if (bqlm_usbnet_can_xmit(dev, cfg)) {
		if (dev->xmit == BQLM_USBNET_XMIT_IDLE)
			for (i = 0; i < cfg->nr_lens; i++)
				a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_XMIT,
							    i);
		else
			a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_XMIT, 0);
	}
	if (bqlm_usbnet_can_flush(dev))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_NCM_FLUSH, 0);
	for (i = 0; i < dev->nr_skbs; i++) {
		for (st = 0; st < BQLM_USBNET_NR_STATUS; st++)
			if (bqlm_usbnet_can_complete(dev, cfg, i, st))
				a[n++] = BQLM_X_ACTION(
					BQLM_USBNET_A_COMPLETE, i * 4 + st);
		if (dev->skb[i].where == BQLM_USBNET_SKB_COMPLETED &&
		    !bqlm_usbnet_txq_locked(dev))
			a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_DEFER_BH, i);
	}
	for (i = 0; i < BQLM_USBNET_NR_BH; i++)
		if (bqlm_usbnet_can_bh(dev, cfg, i))
			a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_BH, i);
	if (dev->kevent && !bqlm_usbnet_txq_locked(dev))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_KEVENT, 0);
	if (!bqlm_usbnet_stop_ready(dev))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_STOP, 0);
	if (dev->admin == BQLM_USBNET_DOWN && dev->pm == BQLM_USBNET_AWAKE &&
	    !dev->unplug)
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_OPEN, 0);
	if (dev->timeouts_left && dev->admin == BQLM_USBNET_UP &&
	    dev->running && dev->present && dev->carrier &&
	    bqlm_netif_xmit_stopped(&dev->txq) &&
	    dev->xmit == BQLM_USBNET_XMIT_IDLE)
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_TX_TIMEOUT, 0);
	if (!bqlm_usbnet_suspend_ready(dev, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_SUSPEND, 0);
	if ((dev->pm == BQLM_USBNET_SUSPENDED &&
	     !bqlm_usbnet_txq_locked(dev)) ||
	    dev->pm == BQLM_USBNET_PM_RESUMING)
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_RESUME, 0);
	if (bqlm_usbnet_can_link(dev, true))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_LINK, 0);
	if (bqlm_usbnet_can_link(dev, false))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_LINK, 1);
	if (bqlm_usbnet_can_change_mtu(dev, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_CHANGE_MTU, 0);
	if (!bqlm_usbnet_disconnect_ready(dev, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_USBNET_A_DISCONNECT, 0);
	return n;
}

/*
 * Is @action the outside world's, as opposed to an actor inside the
 * kernel that will run on its own? The outside world: the stack's next
 * packet, ifdown and ifup, the watchdog, a suspend or resume request.
 */
static bool bqlm_usbnet_external(const void *ctx, const void *state,
				 unsigned int action)
{
	const struct bqlm_usbnet *dev = state;

	(void)ctx;
	switch (BQLM_X_KIND(action)) {
	case BQLM_USBNET_A_XMIT:
		return dev->xmit == BQLM_USBNET_XMIT_IDLE;
	case BQLM_USBNET_A_STOP:
		return dev->admin == BQLM_USBNET_UP;
	case BQLM_USBNET_A_SUSPEND:
		return dev->pm == BQLM_USBNET_AWAKE;
	case BQLM_USBNET_A_RESUME:
		return dev->pm == BQLM_USBNET_SUSPENDED;
	case BQLM_USBNET_A_OPEN:
	case BQLM_USBNET_A_TX_TIMEOUT:
	case BQLM_USBNET_A_LINK:
	case BQLM_USBNET_A_CHANGE_MTU:
	case BQLM_USBNET_A_DISCONNECT:
		return true;
	default:
		return false;
	}
}

static unsigned int bqlm_usbnet_xcheck(const void *ctx, const void *state,
				       const struct bqlm_xrun *r,
				       struct bqlm_violation *each)
{
	return bqlm_usbnet_check(state, ctx, r->where, &r->ev, false, each);
}

static int bqlm_usbnet_xstep(const void *ctx, const void *from,
			     unsigned int action, void *to,
			     struct bqlm_violation *each)
{
	struct bqlm_usbnet *dev = to;
	int mask;

	(void)from;
	mask = bqlm_xstep_checked(ctx, to, action, each, bqlm_usbnet_run,
				  bqlm_usbnet_xcheck);
	/* the qdisc reschedule is not state (see the top of usbnet.c) */
	bqlm_txq_sched_clear(&dev->txq);
	return mask;
}

/* Quiescent: only the stall check can fail on a state. */
static int bqlm_usbnet_check_quiescent(const void *ctx, const void *state,
				       struct bqlm_violation *each)
{
	const struct bqlm_usbnet *dev = state;

	return bqlm_inv_check_stall(&dev->txq.dql, bqlm_usbnet_inflight(dev),
				    bqlm_usbnet_wants_tx(dev, ctx),
				    bqlm_usbnet_stack_xoff(dev), each);
}

static int bqlm_usbnet_describe_xmit(const struct bqlm_usbnet *dev,
				     const struct bqlm_usbnet_cfg *cfg,
				     unsigned int arg, char *buf, size_t len)
{
	/* after tx_fixup(), the qdisc's transmit or the cdc_ncm flush's */
	const char *who = dev->xmit_ncm ? "ncm-timer" : "stack";
	bool bql = bqlm_usbnet_bql(cfg);

	switch (dev->xmit) {
	case BQLM_USBNET_XMIT_IDLE:
		return snprintf(buf, len,
				"stack: qdisc -> usbnet_start_xmit(%u bytes): tx_fixup",
				cfg->lens[arg < cfg->nr_lens ? arg : 0]);
	case BQLM_USBNET_XMIT_FIXED:
		if (bqlm_usbnet_xmit_drops(dev, cfg))
			return snprintf(buf, len,
					"%s: usbnet_start_xmit [txq.lock]: %s: drop",
					who,
					bqlm_netif_tx_queue_stopped(&dev->txq) ?
					"netif_queue_stopped" :
					"EVENT_DEV_OPEN clear");
		if (dev->flags & BQLM_USBNET_EVENT_DEV_ASLEEP)
			return snprintf(buf, len,
					"%s: usbnet_start_xmit [txq.lock]: EVENT_DEV_ASLEEP: skb%u (%u B) anchored on dev->deferred, netif_stop_queue",
					who, bqlm_usbnet_next_skb(dev, cfg),
					dev->xmit_len);
		return snprintf(buf, len,
				"%s: usbnet_start_xmit [txq.lock]: usb_submit_urb, __usbnet_queue_skb(skb%u, %u B)%s",
				who, bqlm_usbnet_next_skb(dev, cfg),
				dev->xmit_len, bql ? ", netdev_sent_queue: dql_queued" : "");
	case BQLM_USBNET_XMIT_XOFF:
		return snprintf(buf, len,
				"%s: netdev_sent_queue: over limit, set STACK_XOFF",
				who);
	default:
		return snprintf(buf, len,
				"%s: netdev_sent_queue: smp_mb, re-check avail; TX_QLEN check; unlock txq.lock",
				who);
	}
}

static int bqlm_usbnet_describe_bh(const struct bqlm_usbnet *dev,
				   const struct bqlm_usbnet_cfg *cfg,
				   unsigned int ctx, char *buf, size_t len)
{
	const struct bqlm_usbnet_bh *bh = &dev->bh[ctx];
	const char *who = ctx == BQLM_USBNET_BH_TIMER ?
			  "timer: dev->delay -> usbnet_bh" :
			  "bh-work: usbnet_bh";
	bool locked = bqlm_usbnet_bql_locked(cfg);

	switch (bh->phase) {
	case BQLM_USBNET_BH_IDLE:
	case BQLM_USBNET_BH_LOOP:
		if (!dev->nr_done && (!bqlm_usbnet_bql(cfg) || !bh->bytes))
			return snprintf(buf, len,
					"%s%s: skb_dequeue(&dev->done) = NULL, %u pkts %u bytes; tail: netif_wake_queue if txq.qlen < TX_QLEN",
					who, bh->phase ? "" : " starts",
					bh->pkts, bh->bytes);
		if (!dev->nr_done)
			return snprintf(buf, len,
					"%s: skb_dequeue(&dev->done) = NULL, %u pkts %u bytes",
					who, bh->pkts, bh->bytes);
		return snprintf(buf, len,
				"%s%s: skb_dequeue(&dev->done) = skb%u (%u B)",
				who, bh->phase ? "" : " starts",
				dev->done_head - 1,
				dev->skb[dev->done_head - 1].len);
	case BQLM_USBNET_BH_ENTER:
		if (locked)
			return snprintf(buf, len,
					"%s: spin_lock_bh(bql_spinlock), netdev_completed_queue(%u, %u): dql_completed(%u)",
					who, bh->pkts, bh->bytes, bh->bytes);
		return snprintf(buf, len,
				"%s: netdev_completed_queue(%u, %u): dql_completed begins",
				who, bh->pkts, bh->bytes);
	case BQLM_USBNET_BH_DQL:
		return snprintf(buf, len, "%s: dql_completed(%u) ends", who,
				bh->bytes);
	default:
		return snprintf(buf, len,
				"%s: smp_mb, STACK_XOFF wake if avail >= 0%s; tail: netif_wake_queue if txq.qlen < TX_QLEN",
				who, locked ? ", spin_unlock_bh(bql_spinlock)" :
					      "");
	}
}

static int bqlm_usbnet_describe_disconnect(const struct bqlm_usbnet *dev,
					   const struct bqlm_usbnet_cfg *cfg,
					   char *buf, size_t len)
{
	switch (dev->unplug) {
	case BQLM_USBNET_ATTACHED:
		return snprintf(buf, len,
				"disconnect: usb_disconnect: USB_STATE_NOTATTACHED; usb_disable_interface: usb_hcd_flush_endpoint unlinks every URB (-ESHUTDOWN)");
	case BQLM_USBNET_UNPLUGGED:
		if (dev->admin == BQLM_USBNET_UP)
			return snprintf(buf, len,
					"disconnect: usbnet_disconnect: unregister_netdev: %s",
					bqlm_usbnet_stop_steps[BQLM_USBNET_UP].call);
		return snprintf(buf, len,
				"disconnect: usbnet_disconnect: unregister_netdev (closed: no usbnet_stop)");
	case BQLM_USBNET_UNREGISTER:
		return snprintf(buf, len,
				"disconnect: unregister_netdev: %s",
				bqlm_usbnet_stop_steps[dev->admin %
						       BQLM_USBNET_NR_ADMIN].call);
	case BQLM_USBNET_UNREGISTERED:
		if (cfg->disconnect_kill)
			return snprintf(buf, len,
					"disconnect: usbnet_disconnect: usbnet_terminate_urbs, cancel_work_sync(bh_work), timer_delete_sync(delay), free dev->done");
		fallthrough;
	default:
		return snprintf(buf, len,
				"disconnect: usbnet_disconnect: cancel_work_sync(kevent), free dev->deferred, unbind, usb_kill_urb(interrupt), free_netdev");
	}
}

static int bqlm_usbnet_describe_action(const void *ctx, const void *state,
				       unsigned int action, char *buf,
				       size_t len)
{
	const struct bqlm_usbnet_cfg *cfg = ctx;
	const struct bqlm_usbnet *dev = state;
	unsigned int arg = BQLM_X_ARG(action);

	switch (BQLM_X_KIND(action)) {
	case BQLM_USBNET_A_XMIT:
		return bqlm_usbnet_describe_xmit(dev, cfg, arg, buf, len);
	case BQLM_USBNET_A_NCM_FLUSH:
		return snprintf(buf, len,
				"ncm-timer: cdc_ncm_txpath_bh -> usbnet_start_xmit(NULL): tx_fixup flushes %u pkts",
				dev->agg_cnt);
	case BQLM_USBNET_A_COMPLETE:
		return snprintf(buf, len, "usb: tx_complete(skb%u, %s)",
				arg / 4, bqlm_usbnet_status_names[arg % 4]);
	case BQLM_USBNET_A_DEFER_BH:
		return snprintf(buf, len,
				"usb: defer_bh(skb%u): dev->txq -> dev->done%s",
				arg, dev->nr_done ? "" :
				", queue_work(bh_work)");
	case BQLM_USBNET_A_BH:
		return bqlm_usbnet_describe_bh(dev, cfg, arg & 1, buf, len);
	case BQLM_USBNET_A_KEVENT:
		if (dev->flags & BQLM_USBNET_EVENT_LINK_RESET) {
			bool sets = bqlm_usbnet_link_reset_sets(dev, cfg);

			return snprintf(buf, len,
					"kevent: usbnet_deferred_kevent: EVENT_LINK_RESET: link_reset()%s%s, __handle_link_change%s",
					dev->unplug == BQLM_USBNET_ATTACHED ? "" :
					sets ? ": its reads fail with -ENODEV, taken for the link bit" :
					": its reads fail, the carrier stays as it is",
					!sets ? "" : dev->link ? ": netif_carrier_on" :
					": netif_carrier_off",
					(sets ? dev->link : dev->carrier) &&
					(dev->flags & BQLM_USBNET_EVENT_DEV_OPEN) ?
					": queue_work(bh_work)" : "");
		}
		if (!(dev->flags & BQLM_USBNET_EVENT_TX_HALT))
			return snprintf(buf, len,
					"kevent: usbnet_deferred_kevent: EVENT_LINK_CHANGE: __handle_link_change%s%s",
					(dev->flags & BQLM_USBNET_EVENT_LINK_CARRIER_ON) &&
					(dev->flags & BQLM_USBNET_EVENT_DEV_OPEN) ?
					": netif_carrier_on" : "",
					(dev->carrier ||
					 (dev->flags & BQLM_USBNET_EVENT_LINK_CARRIER_ON)) &&
					(dev->flags & BQLM_USBNET_EVENT_DEV_OPEN) ?
					", queue_work(bh_work)" : "");
		return snprintf(buf, len,
				"kevent: usbnet_deferred_kevent: EVENT_TX_HALT: unlink_urbs, usb_clear_halt, netif_wake_queue");
	case BQLM_USBNET_A_STOP:
		if (dev->admin == BQLM_USBNET_STOP_WAIT &&
		    (cfg->flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS))
			return snprintf(buf, len,
					"ifdown: usbnet_stop: FLAG_AVOID_UNLINK_URBS: wait_skb_queue_empty(txq, done), nothing unlinked");
		if (dev->admin == BQLM_USBNET_STOP_CLOSE &&
		    bqlm_usbnet_early_reset(cfg))
			return snprintf(buf, len,
					"ifdown: %s, netdev_reset_queue",
					bqlm_usbnet_stop_steps[dev->admin].call);
		return snprintf(buf, len, "ifdown: %s",
				bqlm_usbnet_stop_steps[dev->admin %
						       BQLM_USBNET_NR_ADMIN].call);
	case BQLM_USBNET_A_OPEN:
		return snprintf(buf, len,
				"ifup: usbnet_open: set EVENT_DEV_OPEN, %snetif_start_queue, queue_work(bh_work)",
				bqlm_usbnet_bql(cfg) ?
				"netdev_reset_queue, " : "");
	case BQLM_USBNET_A_TX_TIMEOUT:
		return snprintf(buf, len,
				"watchdog: usbnet_tx_timeout: unlink_urbs(&dev->txq), queue_work(bh_work)");
	case BQLM_USBNET_A_SUSPEND: {
		static const char *const steps[] = {
			"usbnet_suspend: set EVENT_DEV_ASLEEP [txq.lock], netif_device_detach",
			"usbnet_suspend: usbnet_terminate_urbs: unlink_urbs(&dev->txq)",
			"usbnet_suspend: wait_skb_queue_empty, netif_device_attach (wakes the queue)",
		};

		if (dev->pm == BQLM_USBNET_AWAKE && dev->suspend_count)
			return snprintf(buf, len,
					"pm: usbnet_suspend: dev->suspend_count++ was %u, not 0: does nothing, returns 0",
					dev->suspend_count);
		if (dev->pm == BQLM_USBNET_AWAKE && cfg->autosuspend &&
		    dev->nr_txq)
			return snprintf(buf, len,
					"pm: usbnet_suspend(PMSG_AUTO_SUSPEND) [txq.lock]: dev->txq not empty: -EBUSY, %s",
					cfg->pm & BQLM_USBNET_PM_SUSPEND_IGNORES_BUSY ?
					"the minidriver's suspend() returns 0: the USB core suspends the interface" :
					"stays awake");
		if (dev->pm == BQLM_USBNET_PM_UNDO)
			return snprintf(buf, len,
					"pm: suspend() failed, its usbnet_resume(): netif_tx_wake_all_queues, queue_work(bh_work)");
		if (dev->pm == BQLM_USBNET_PM_WAIT &&
		    (cfg->pm & BQLM_USBNET_PM_OWN_SUSPEND_FAILS))
			return snprintf(buf, len,
					"pm: %s; own suspend work fails: %s",
					steps[BQLM_USBNET_PM_WAIT],
					cfg->autosuspend ?
					"usbnet_resume() [txq.lock]: resubmit, clear ASLEEP" :
					"error, usbnet left suspended");
		return snprintf(buf, len, "pm: %s",
				steps[dev->pm < ARRAY_SIZE(steps) ?
				      dev->pm : 0]);
	}
	case BQLM_USBNET_A_RESUME:
		if (dev->pm == BQLM_USBNET_SUSPENDED && dev->suspend_count != 1)
			return snprintf(buf, len,
					"pm: %susbnet_resume: --dev->suspend_count is %u, not 0: does nothing",
					cfg->pm & BQLM_USBNET_PM_RESUME_LINK ?
					"usbnet_link_change(down): queue the kevent; " :
					"", (dev->suspend_count - 1) & 0xff);
		if (dev->pm == BQLM_USBNET_SUSPENDED)
			return snprintf(buf, len,
					"pm: %susbnet_resume [txq.lock]: submit dev->deferred onto dev->txq%s, clear EVENT_DEV_ASLEEP",
					cfg->pm & BQLM_USBNET_PM_RESUME_LINK ?
					"usbnet_link_change(down): queue the kevent; " :
					"",
					cfg->resume_sent ?
					" with netdev_sent_queue" :
					" (no netdev_sent_queue)");
		return snprintf(buf, len,
				"pm: usbnet_resume: netif_tx_wake_all_queues, queue_work(bh_work)");
	case BQLM_USBNET_A_LINK:
		if (cfg->pm & BQLM_USBNET_PM_STATUS_CARRIER)
			return snprintf(buf, len, arg ?
					"link: status(): link down, netif_carrier_off" :
					"link: status(): link up, netif_carrier_on, usbnet_defer_kevent(EVENT_LINK_RESET)");
		if (cfg->pm & BQLM_USBNET_PM_STATUS_RESET)
			return snprintf(buf, len,
					"link: status(): link %s, usbnet_defer_kevent(EVENT_LINK_RESET)",
					arg ? "down" : "up");
		if (arg)
			return snprintf(buf, len,
					"link: status(): link down, usbnet_link_change(0, %u): netif_carrier_off, EVENT_LINK_CHANGE, schedule_work(kevent)",
					cfg->pm & BQLM_USBNET_PM_LINK_RESET ? 1 : 0);
		if (cfg->pm & BQLM_USBNET_PM_LINK_RESET)
			return snprintf(buf, len,
					"link: status(): link up, usbnet_link_change(1, 1): EVENT_LINK_RESET, schedule_work(kevent)");
		return snprintf(buf, len,
				"link: status(): link up, usbnet_link_change(1, 0): EVENT_LINK_CARRIER_ON, EVENT_LINK_CHANGE, schedule_work(kevent)");
	case BQLM_USBNET_A_CHANGE_MTU:
		return snprintf(buf, len,
				"mtu: usbnet_change_mtu: usbnet_update_max_qlen(): TX_QLEN %u -> %u",
				cfg->tx_qlen, cfg->mtu_qlen);
	case BQLM_USBNET_A_DISCONNECT:
		return bqlm_usbnet_describe_disconnect(dev, cfg, buf, len);
	default:
		return snprintf(buf, len, "? action %#x", action);
	}
}

static const char *const bqlm_usbnet_where_names[BQLM_USBNET_NR_WHERE] = {
	[BQLM_USBNET_SKB_UNUSED] = "-",
	[BQLM_USBNET_SKB_DEFERRED] = "deferred",
	[BQLM_USBNET_SKB_TXQ] = "txq",
	[BQLM_USBNET_SKB_UNLINKED] = "unlinked",
	[BQLM_USBNET_SKB_COMPLETED] = "completed",
	[BQLM_USBNET_SKB_DONE] = "done",
	[BQLM_USBNET_SKB_BH] = "bh",
	[BQLM_USBNET_SKB_GONE] = "freed",
};

static const char *const bqlm_usbnet_bh_names[BQLM_USBNET_NR_BH_PHASES] = {
	[BQLM_USBNET_BH_IDLE] = "idle",
	[BQLM_USBNET_BH_LOOP] = "loop",
	[BQLM_USBNET_BH_ENTER] = "enter",
	[BQLM_USBNET_BH_DQL] = "IN-dql_completed",
	[BQLM_USBNET_BH_WAKE] = "wake",
};

static const char *const bqlm_usbnet_unplug_names[BQLM_USBNET_NR_UNPLUG] = {
	[BQLM_USBNET_ATTACHED] = "attached",
	[BQLM_USBNET_UNPLUGGED] = "unplugged",
	[BQLM_USBNET_UNREGISTER] = "unregistering",
	[BQLM_USBNET_UNREGISTERED] = "unregistered",
	[BQLM_USBNET_KILLED] = "killed",
	[BQLM_USBNET_GONE] = "freed",
};

static const char *const bqlm_usbnet_pm_names[BQLM_USBNET_NR_PM] = {
	[BQLM_USBNET_AWAKE] = "awake",
	[BQLM_USBNET_PM_DETACHED] = "suspend:1",
	[BQLM_USBNET_PM_WAIT] = "suspend:2",
	[BQLM_USBNET_SUSPENDED] = "suspended",
	[BQLM_USBNET_PM_RESUMING] = "resume:1",
	[BQLM_USBNET_PM_UNDO] = "suspend-failed:resume:1",
};

/* dev->admin in a state's line: up, stop:N (N steps of ifdown taken), down */
static const char *bqlm_usbnet_admin_name(unsigned int admin, char *buf,
					  size_t len)
{
	admin %= BQLM_USBNET_NR_ADMIN;
	if (admin == BQLM_USBNET_UP)
		return "up";
	if (admin == BQLM_USBNET_DOWN)
		return "down";
	snprintf(buf, len, "stop:%u", admin);
	return buf;
}

static int bqlm_usbnet_describe_state(const void *ctx, const void *state,
				      char *buf, size_t len)
{
	const struct bqlm_usbnet *dev = state;
	const struct bqlm_dql *dql = &dev->txq.dql;
	const struct bqlm_usbnet_bh *w = &dev->bh[BQLM_USBNET_BH_WORK];
	const struct bqlm_usbnet_bh *t = &dev->bh[BQLM_USBNET_BH_TIMER];
	unsigned long st = dev->txq.state;
	char admin[16];
	size_t n = 0;
	unsigned int i;

	(void)ctx;
	n += snprintf(buf + n, len - n,
		      "in flight %u B | dql queued %u completed %u limit %u | xoff:%s%s%s | urbs",
		      bqlm_usbnet_inflight(dev), dql->num_queued,
		      dql->num_completed, dql->limit,
		      st & BQLM_QUEUE_STATE_ANY_XOFF ? "" : " -",
		      st & (1UL << BQLM_QUEUE_STATE_DRV_XOFF) ? " DRV" : "",
		      st & (1UL << BQLM_QUEUE_STATE_STACK_XOFF) ?
		      " STACK" : "");
	for (i = 0; i < dev->nr_skbs && n < len; i++)
		n += snprintf(buf + n, len - n, " %u:%s%s%s", i,
			      bqlm_usbnet_where_names[dev->skb[i].where %
						      BQLM_USBNET_NR_WHERE],
			      dev->skb[i].flags & BQLM_USBNET_SKB_SENT ?
			      "+" : "",
			      dev->skb[i].flags & BQLM_USBNET_SKB_STALE ?
			      "*" : "");
	if (!dev->nr_skbs && n < len)
		n += snprintf(buf + n, len - n, " none");
	if (n < len)
		n += snprintf(buf + n, len - n,
			      " | bh-work %s%s timer %s%s | dev %s %s%s",
			      bqlm_usbnet_bh_names[w->phase %
						   BQLM_USBNET_NR_BH_PHASES],
			      w->pending ? "+queued" : "",
			      bqlm_usbnet_bh_names[t->phase %
						   BQLM_USBNET_NR_BH_PHASES],
			      t->pending ? "+armed" : "",
			      bqlm_usbnet_admin_name(dev->admin, admin,
						     sizeof(admin)),
			      bqlm_usbnet_pm_names[dev->pm %
						   BQLM_USBNET_NR_PM],
			      dev->carrier ? "" : " no-carrier");
	if (dev->mtu_changed && n < len)
		n += snprintf(buf + n, len - n, " mtu-changed");
	if (dev->unplug && n < len)
		n += snprintf(buf + n, len - n, " %s",
			      bqlm_usbnet_unplug_names[dev->unplug %
						       BQLM_USBNET_NR_UNPLUG]);
	if (dev->suspend_count && n < len)
		n += snprintf(buf + n, len - n, " suspend_count %u",
			      dev->suspend_count);
	return n;
}

/*
 * Symmetry: skbs are interchangeable but for what the model reads of
 * them. The order of slots matters in two places only: the deferred URBs
 * are resubmitted in slot order (the anchor's order), and dev->done is a
 * FIFO linked through the slots. Every other use (completion of any URB
 * in flight, unlink of all, the sums of what is held, stale or counted)
 * is the same under any renaming of the slots. The representative sorts
 * the slots in use by (where, rank, transmit in progress, flags, len),
 * where rank is a deferred URB's place among the deferred ones and a done
 * skb's place on dev->done, and renames the links. Slots are only reused
 * once all have been taken (dev->next_slot set), which the explorer's
 * bound never reaches; such a state is left as it is.
 */
/* The sort key of a slot: where, rank, transmit mark, flags, length. */
static u64 bqlm_usbnet_key(unsigned int where, unsigned int rank,
			   unsigned int mark, unsigned int flags,
			   unsigned int len)
{
	return (u64)where << 40 | (u64)rank << 32 | (u64)mark << 24 |
	       (u64)flags << 16 | len;
}

static void bqlm_usbnet_canon(const void *ctx, void *state)
{
	struct bqlm_usbnet *dev = state;
	struct bqlm_usbnet_skb old[BQLM_USBNET_MAX_PACKETS];
	unsigned char rank[BQLM_USBNET_MAX_PACKETS] = { 0 };
	unsigned int perm[BQLM_USBNET_MAX_PACKETS];
	unsigned int inv[BQLM_USBNET_MAX_PACKETS];
	u64 key[BQLM_USBNET_MAX_PACKETS];
	unsigned int n = dev->nr_skbs, i, j, t, r = 0;
	bool xmitting = dev->xmit == BQLM_USBNET_XMIT_XOFF ||
			dev->xmit == BQLM_USBNET_XMIT_RECHECK;

	(void)ctx;
	if (n < 2 || n > BQLM_USBNET_MAX_PACKETS || dev->next_slot)
		return;
	for (i = dev->done_head; i && i <= n && r < n; i = dev->skb[i - 1].next)
		rank[i - 1] = ++r;
	for (i = 0, r = 0, t = 1; i < n; i++) {
		if (dev->skb[i].where == BQLM_USBNET_SKB_DEFERRED)
			rank[i] = ++r;
		key[i] = bqlm_usbnet_key(dev->skb[i].where, rank[i],
					 xmitting && dev->xmit_skb == i,
					 dev->skb[i].flags, dev->skb[i].len);
		t &= !i || key[i - 1] <= key[i];
	}
	if (t)
		return;		/* in order already */
	/* insertion sort, stable: equal keys are equal skbs */
	for (i = 0; i < n; i++) {
		for (j = i; j && key[perm[j - 1]] > key[i]; j--)
			perm[j] = perm[j - 1];
		perm[j] = i;
	}
	for (i = 0; i < n; i++)
		inv[perm[i]] = i;
	memcpy(old, dev->skb, sizeof(old[0]) * n);
	for (i = 0; i < n; i++) {
		dev->skb[i] = old[perm[i]];
		t = dev->skb[i].next;
		dev->skb[i].next = t ? inv[t - 1] + 1 : 0;
	}
	if (dev->done_head)
		dev->done_head = inv[dev->done_head - 1] + 1;
	if (dev->done_tail)
		dev->done_tail = inv[dev->done_tail - 1] + 1;
	if (xmitting)
		dev->xmit_skb = inv[dev->xmit_skb];
}

BQLM_DEFINE_XOPS(bqlm_usbnet, NULL, bqlm_usbnet_canon);

/**
 * bqlm_usbnet_system() - the usbnet model as a system for the explorer
 * @cfg: the configuration; it must outlive @sys
 * @sys: receives the system
 *
 * Actions, in the order they are tried: the stack's transmit (one per
 * packet length for a new packet), the cdc_ncm flush, each URB's
 * completion with each status, each defer_bh(), the bh work's and the
 * timer's usbnet_bh(), the kevent work, usbnet_stop(), usbnet_open(), the
 * watchdog, usbnet_suspend(), usbnet_resume(), a link-up report, the MTU
 * change, the disconnect. The step
 * runs the actor's
 * step function and bqlm_usbnet_check(); the state check reports a stall
 * in a quiescent state (see bqlm_usbnet_check()).
 *
 * Return: 0, or -EINVAL when @cfg is invalid or unbounded (no packet
 * bound, or more than BQLM_USBNET_MAX_PACKETS skb slots).
 */
int bqlm_usbnet_system(const struct bqlm_usbnet_cfg *cfg,
		       struct bqlm_xsys *sys)
{
	if (bqlm_usbnet_cfg_check(cfg) || !cfg->packets ||
	    bqlm_usbnet_slots(cfg) > BQLM_USBNET_MAX_PACKETS)
		return -EINVAL;
	return bqlm_xsys_fill(sys, "usbnet", bqlm_usbnet_size(cfg), cfg,
			      &bqlm_usbnet_xops);
}
