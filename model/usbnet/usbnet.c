// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - model of the transmit side of drivers/net/usb/usbnet.c
 * (Linux 6.12) and of the BQL variants that followed it upstream.
 *
 * What is modelled, and how (see also docs/usbnet.md):
 *
 *  - Locks become step boundaries and enabling conditions. dev->txq.lock
 *    is held by usbnet_start_xmit() from its queue-stopped check to its
 *    end; the model's transmit path holds it over several steps (so that
 *    netdev_sent_queue()'s XOFF protocol can interleave with a completion
 *    on another CPU), and every other user of the lock (defer_bh(),
 *    unlink_urbs(), usbnet_suspend(), usbnet_resume()) is one step that
 *    waits while the transmit path holds it. The netif_tx_lock
 *    (HARD_TX_LOCK) serialises the transmit path with itself, the
 *    watchdog and the cdc_ncm flush. dev->bql_spinlock (merged and later)
 *    makes a usbnet_bh() run wait before netdev_completed_queue() while
 *    the other run is inside it.
 *
 *  - usbnet_bh() runs from two contexts at once: the bh work item (a
 *    tasklet in 6.12, dev->bh_work on system_bh_wq since 6.17:
 *    2c04d279e857) and the dev->delay timer. usbnet_stop() cancels a
 *    queued bh as cancel_work_sync(&dev->bh_work) does (6dfcbd7d1d65, the
 *    code the BQL variants patch): the queued run is dropped. 6.12's
 *    tasklet_kill() would run it first, which matters only for the skbs
 *    left on dev->done. Each context runs at most one usbnet_bh()
 *    at a time, the two may overlap. Each skb_dequeue() is a step, so the
 *    two runs can split dev->done between them.
 *
 *  - netdev_completed_queue() is four steps: entering it (taking the lock
 *    where there is one), dql_completed() itself, the smp_mb() and STACK_XOFF
 *    wake, and the rest of usbnet_bh(). "In progress" for the serialised
 *    completion invariant is the span from entering to the end of
 *    dql_completed(); the model does not compute what two overlapping
 *    dql_completed() calls would leave in the DQL (the kernel's fields race),
 *    so such a state is a fatal violation and is not explored further.
 *
 *  - Time is not modelled: every step runs at jiffies cfg->now, so the
 *    DQL limit grows on starvation but never shrinks (its slack hold time
 *    never elapses), timers fire at any moment they are armed, and the
 *    watchdog fires at any moment the queue is stopped.
 *
 *  - Left out: the receive side (rx URBs, rxq, rx_alloc_submit(), which
 *    only re-schedule the bh), carrier changes, usb_submit_urb() failures
 *    other than an unplugged device's and
 *    usb_autopm_get_interface_async()'s (they drop the skb before any BQL
 *    call), tx_fixup() failures, statistics,
 *    scatter-gather. Submission always succeeds; a submitted URB completes
 *    with a status of cfg->statuses, an unlinked one with -ECONNRESET (an
 *    URB the hardware finished before the unlink completes with its own
 *    status: that is the order "completion, then unlink").
 *
 *  - The qdisc is the stack actor itself: it sends the next packet whenever
 *    the queue is not stopped and packets are left. __netif_schedule() is
 *    therefore not state; bqlm_txq.sched_* are cleared after every step.
 *
 *  - Reset epochs: netdev_reset_queue() marks every skb the device holds as
 *    stale. The ground truth "in flight" counts the bytes of the skbs the
 *    device holds that are not stale; a completion of a stale skb violates
 *    reset-on-stop.
 *
 * The actors' enabling conditions are in usbnet_internal.h; the invariants
 * and the explorer's view of all this are in usbnet_xsys.c.
 */
#include "bqlm_internal.h"
#include <bqlm/usbnet.h>
#include "usbnet_internal.h"

/*
 * cdc_ncm's NTB16 as cdc_ncm_fill_tx_frame() builds it for this many
 * datagrams (ctx->tx_max_datagrams): the 12-byte NTH16, then one NDP16
 * with room for every datagram and the terminating entry (8 + 4 * (n + 1)
 * bytes, ctx->max_ndp_size) at a 4-byte boundary (tx_ndp_modulus), then
 * each datagram at a 4-byte boundary (tx_modulus 4, tx_remainder 0).
 */
#define BQLM_USBNET_NCM_MAX	2	/* packets per aggregate */
#define BQLM_USBNET_NCM_ALIGN	4
#define BQLM_USBNET_NCM_HEADER	(12 + 8 + 4 * (BQLM_USBNET_NCM_MAX + 1))

/**
 * bqlm_usbnet_header() - the bytes the pad tx_fixup() adds to a packet
 * @cfg: the configuration (its pad_header)
 * @i: the packet's length index, into cfg->lens
 *
 * Return: cfg->pad_header[@i] when there is one count per length, else
 * the one count of every packet (capped at 64, the option's range).
 */
unsigned int bqlm_usbnet_header(const struct bqlm_usbnet_cfg *cfg,
				unsigned int i)
{
	unsigned int h = cfg->nr_pad_headers > 1 && i < BQLM_USBNET_MAX_LENS ?
			 cfg->pad_header[i] : cfg->pad_header[0];

	return min(h, 64U);
}

/**
 * bqlm_usbnet_max_len() - the longest packet a configuration's tx_fixup()
 *	can take
 * @cfg: the configuration (its fixup and pad_header)
 * @i: the index of the packet length (the pad tx_fixup's count for it)
 *
 * The URB usbnet_start_xmit() submits must fit BQLM_USBNET_MAX_SKB_LEN
 * after tx_fixup() and the pad of a transfer that fills its last packet
 * (usbnet's byte, or BQLM_USBNET_ASIX_FILL with FLAG_MULTI_PACKET):
 * without a tx_fixup() 65534 bytes; with the pad fixup that less its
 * header; with the multi fixup BQLM_USBNET_NCM_MAX datagrams, each but
 * the last rounded up to the NTB's alignment, behind the NTB16 headers
 * (the model does not split an NTB at the device's dwNtbOutMaxSize).
 *
 * Return: the length in bytes.
 */
unsigned int bqlm_usbnet_max_len(const struct bqlm_usbnet_cfg *cfg,
				 unsigned int i)
{
	unsigned int room = BQLM_USBNET_MAX_SKB_LEN - 1;

	switch (cfg->fixup) {
	case BQLM_USBNET_FIXUP_MULTI:
		/* cdc_ncm's own short-packet byte */
		return (room - BQLM_USBNET_NCM_HEADER -
			(BQLM_USBNET_NCM_MAX - 1) * (BQLM_USBNET_NCM_ALIGN - 1)) /
		       BQLM_USBNET_NCM_MAX;
	default:
		if (cfg->flags & BQLM_USBNET_FLAG_MULTI_PACKET)
			room = BQLM_USBNET_MAX_SKB_LEN - BQLM_USBNET_ASIX_FILL;
		if (cfg->fixup == BQLM_USBNET_FIXUP_PAD)
			room -= bqlm_usbnet_header(cfg, i);
		return room;
	}
}

/**
 * bqlm_usbnet_size() - bytes of the state of a configuration
 * @cfg: the configuration (valid: bqlm_usbnet_cfg_check())
 *
 * Return: the size of struct bqlm_usbnet with its cfg->skbs slots (or
 * cfg->packets, when cfg->skbs is 0), rounded up to the struct's
 * alignment: the explorer stores states back to back.
 */
size_t bqlm_usbnet_size(const struct bqlm_usbnet_cfg *cfg)
{
	size_t a = __alignof__(struct bqlm_usbnet);
	size_t n = sizeof(struct bqlm_usbnet) +
		   sizeof(struct bqlm_usbnet_skb) *
		   (size_t)bqlm_usbnet_slots(cfg);

	return (n + a - 1) / a * a;
}

/**
 * bqlm_usbnet_init() - the device as usbnet_probe() and usbnet_open() left it
 * @dev: the state, bqlm_usbnet_size() bytes, overwritten
 * @cfg: the configuration
 *
 * The netdev queue is initialised (DQL limit 0, nothing queued), the device
 * is present, open and awake, the queue started, nothing in flight.
 */
void bqlm_usbnet_init(struct bqlm_usbnet *dev,
		      const struct bqlm_usbnet_cfg *cfg)
{
	memset(dev, 0, bqlm_usbnet_size(cfg));
	bqlm_txq_init(&dev->txq, cfg->hold_time, cfg->now);
	dev->admin = BQLM_USBNET_UP;
	dev->pm = BQLM_USBNET_AWAKE;
	dev->flags = BQLM_USBNET_EVENT_DEV_OPEN;
	dev->running = 1;
	dev->present = 1;
	dev->carrier = 1;
	dev->stops_left = cfg->stops;
	dev->suspends_left = cfg->suspends;
	dev->timeouts_left = cfg->timeouts;
	dev->links_left = cfg->links;
	dev->link_downs_left = cfg->link_downs;
	dev->link = 1;
}

/* Helpers on the state. */

static bool bqlm_usbnet_on_txq(unsigned int where)
{
	return where == BQLM_USBNET_SKB_TXQ ||
	       where == BQLM_USBNET_SKB_UNLINKED ||
	       where == BQLM_USBNET_SKB_COMPLETED;
}

/* Move skb @i to @where, keeping dev->txq.qlen. */
static void bqlm_usbnet_move(struct bqlm_usbnet *dev, unsigned int i,
			     unsigned int where)
{
	dev->nr_txq -= bqlm_usbnet_on_txq(dev->skb[i].where);
	dev->nr_txq += bqlm_usbnet_on_txq(where);
	dev->skb[i].where = where;
}

/* waitqueue_active(&dev->wait): usbnet_terminate_urbs() is waiting. */
static bool bqlm_usbnet_waiter(const struct bqlm_usbnet *dev)
{
	return dev->admin == BQLM_USBNET_STOP_WAIT ||
	       dev->pm == BQLM_USBNET_PM_WAIT;
}

/* queue_work(system_bh_wq, &dev->bh_work) / tasklet_schedule(&dev->bh) */
static void bqlm_usbnet_queue_bh(struct bqlm_usbnet *dev)
{
	dev->bh[BQLM_USBNET_BH_WORK].pending = 1;
}

/* netdev_reset_queue(): also the start of a new reset epoch */
static void bqlm_usbnet_reset_queue(struct bqlm_usbnet *dev,
				    const struct bqlm_usbnet_cfg *cfg)
{
	unsigned int i;

	bqlm_netdev_tx_reset_queue(&dev->txq, cfg->now);
	for (i = 0; i < dev->nr_skbs; i++)
		if (bqlm_usbnet_skb_held(dev->skb[i].where))
			dev->skb[i].flags |= BQLM_USBNET_SKB_STALE;
}

/* Free an skb: its fields no longer matter, so they are cleared. */
static void bqlm_usbnet_free_skb(struct bqlm_usbnet *dev, unsigned int i)
{
	bqlm_usbnet_move(dev, i, BQLM_USBNET_SKB_GONE);
	dev->skb[i].len = 0;
	dev->skb[i].flags = 0;
}

/*
 * Model of unlink_urbs(dev, &dev->txq): every URB on dev->txq that is not
 * being unlinked yet is, so it will complete with -ECONNRESET. One step:
 * the kernel drops txq.lock around each usb_unlink_urb(), but what another
 * CPU can do meanwhile (complete an URB, move it to dev->done) the model
 * covers by the order of steps. Return the number of URBs unlinked.
 */
static unsigned int bqlm_unlink_urbs(struct bqlm_usbnet *dev)
{
	unsigned int i, n = 0;

	for (i = 0; i < dev->nr_skbs; i++) {
		if (dev->skb[i].where != BQLM_USBNET_SKB_TXQ)
			continue;
		bqlm_usbnet_move(dev, i, BQLM_USBNET_SKB_UNLINKED);
		n++;
	}
	return n;
}

/**
 * bqlm_usbnet_next_skb() - the slot the next skb will take
 * @dev: the state
 * @cfg: the configuration
 *
 * Slots are taken in order until all have been used (the explorer's
 * bound never gets further); then the first freed slot from
 * dev->next_slot on, round the slots.
 *
 * Return: the slot, or cfg->skbs (or cfg->packets) when every slot holds
 * an skb.
 */
unsigned int bqlm_usbnet_next_skb(const struct bqlm_usbnet *dev,
				  const struct bqlm_usbnet_cfg *cfg)
{
	unsigned int n = bqlm_usbnet_slots(cfg), i, k;

	if (dev->nr_skbs < n)
		return dev->nr_skbs;
	for (k = 0, i = dev->next_slot; k < n; k++, i = i + 1 < n ? i + 1 : 0)
		if (dev->skb[i].where == BQLM_USBNET_SKB_GONE)
			return i;
	return n;
}

/* A new skb in slot @i, from bqlm_usbnet_next_skb(). */
static void bqlm_usbnet_new_skb(struct bqlm_usbnet *dev,
				const struct bqlm_usbnet_cfg *cfg,
				unsigned int i, unsigned int len,
				unsigned int where)
{
	if (i == dev->nr_skbs)
		dev->nr_skbs++;
	else
		dev->next_slot = i + 1 < bqlm_usbnet_slots(cfg) ? i + 1 : 0;
	dev->skb[i].len = len;
	dev->skb[i].flags = 0;
	bqlm_usbnet_move(dev, i, where);
}

/* Stop if dev->txq.qlen >= TX_QLEN(dev), as usbnet_start_xmit() ends. */
static void bqlm_usbnet_check_qlen(struct bqlm_usbnet *dev,
				   const struct bqlm_usbnet_cfg *cfg)
{
	if (bqlm_usbnet_txq_qlen(dev) >= bqlm_usbnet_tx_qlen(dev, cfg))
		bqlm_netif_tx_stop_queue(&dev->txq, cfg->now);
}

static struct bqlm_inv_step *bqlm_usbnet_ev(struct bqlm_inv_step *ev,
					    struct bqlm_inv_step *dummy)
{
	return ev ? ev : dummy;
}

/*
 * tx_fixup() of the configured kind, on a packet of @len bytes (0: the
 * cdc_ncm timer's NULL skb). Return the length of the skb usbnet transmits
 * or 0 when tx_fixup() returned NULL (FLAG_MULTI_PACKET: still collecting).
 * Then usbnet_start_xmit()'s own zero-length-packet padding.
 */
static unsigned int bqlm_usbnet_tx_fixup(struct bqlm_usbnet *dev,
					 const struct bqlm_usbnet_cfg *cfg,
					 unsigned int len, unsigned int header)
{
	unsigned int out;

	switch (cfg->fixup) {
	case BQLM_USBNET_FIXUP_MULTI:
		if (len) {
			/* the datagram (cdc_mbim: its Ethernet header off) */
			len -= min(cfg->strip, len - 1);
			/* @agg_len: from the first datagram to the end */
			if (dev->agg_cnt++)
				dev->agg_len = ((BQLM_USBNET_NCM_HEADER +
						 dev->agg_len +
						 BQLM_USBNET_NCM_ALIGN - 1) &
						~(BQLM_USBNET_NCM_ALIGN - 1U)) -
					       BQLM_USBNET_NCM_HEADER;
			dev->agg_len += len;
			if (dev->agg_cnt < BQLM_USBNET_NCM_MAX)
				return 0;
		}
		out = dev->agg_len + BQLM_USBNET_NCM_HEADER;
		dev->agg_cnt = 0;
		dev->agg_len = 0;
		/*
		 * FLAG_MULTI_PACKET: usbnet does not pad, cdc_ncm does: an NTB
		 * shorter than its tx_max that fills its last packet gets a
		 * zero byte (a short packet); the model's NTBs stay below
		 * min_tx_pkt, so cdc_ncm does not fill them up to tx_max.
		 */
		if (out % cfg->maxpacket == 0)
			out++;
		return out;
	case BQLM_USBNET_FIXUP_PAD:
		out = len + header;
		break;
	default:
		out = len;
		break;
	}
	/*
	 * No FLAG_SEND_ZLP: a transfer that fills its last packet gets one
	 * byte more from usbnet; with FLAG_MULTI_PACKET, usbnet leaves it to
	 * the minidriver, whose tx_fixup() (asix's) appends four. With
	 * FLAG_SEND_ZLP the host controller sends a zero-length packet.
	 */
	if (out % cfg->maxpacket == 0 &&
	    !(cfg->flags & BQLM_USBNET_FLAG_SEND_ZLP))
		out += cfg->flags & BQLM_USBNET_FLAG_MULTI_PACKET ?
		       BQLM_USBNET_ASIX_FILL : 1;
	return out;
}

/* usbnet_start_xmit() from txq.lock on: submit, queue, account. */
static void bqlm_usbnet_xmit_locked(struct bqlm_usbnet *dev,
				    const struct bqlm_usbnet_cfg *cfg,
				    struct bqlm_inv_step *ev)
{
	unsigned int len = dev->xmit_len;
	unsigned int i = bqlm_usbnet_next_skb(dev, cfg);
	bool over = false;
	int ret;

	dev->xmit_len = 0;
	dev->xmit = BQLM_USBNET_XMIT_IDLE;
	if (bqlm_usbnet_xmit_drops(dev, cfg))
		return;		/* drop: the queue was stopped meanwhile */
	if (dev->flags & BQLM_USBNET_EVENT_DEV_ASLEEP) {
		/* transmission will be done in resume: no BQL call */
		bqlm_usbnet_new_skb(dev, cfg, i, len,
				    BQLM_USBNET_SKB_DEFERRED);
		bqlm_netif_tx_stop_queue(&dev->txq, cfg->now);
		return;
	}
	/* unplugged: usb_submit_urb() fails (-ENODEV): drop, no BQL call */
	if (dev->unplug)
		return;
	/* usb_submit_urb() == 0, netif_trans_update(), __usbnet_queue_skb() */
	bqlm_usbnet_new_skb(dev, cfg, i, len, BQLM_USBNET_SKB_TXQ);
	if (bqlm_usbnet_bql(cfg)) {
		/* netdev_sent_queue(net, skb->len): dql_queued, avail check */
		ret = bqlm_txq_sent_step_queue(&dev->txq, len, cfg->now, &over);
		if (ret) {
			ev->dql_err = ret;
			ev->dql_val[0] = len;
			ev->dql_val[1] = BQLM_DQL_MAX_OBJECT;
		} else {
			dev->skb[i].flags |= BQLM_USBNET_SKB_SENT;
		}
	}
	if (over) {
		dev->xmit = BQLM_USBNET_XMIT_XOFF;
		dev->xmit_skb = i;
		return;
	}
	bqlm_usbnet_check_qlen(dev, cfg);
}

/**
 * bqlm_usbnet_start_xmit() - next step of the transmit path
 * @dev: the state
 * @cfg: the configuration
 * @len: the packet's length, for the first step (otherwise ignored)
 * @ev: receives what the step did; may be NULL
 *
 * The stack's transmit of one packet, in steps:
 *  1. the qdisc dequeues the packet (the device is running, the queue not
 *     stopped: !netif_xmit_stopped()), takes the netif_tx_lock and calls
 *     usbnet_start_xmit(), which runs tx_fixup() (which may collect the
 *     packet and return NULL under FLAG_MULTI_PACKET: done) and pads;
 *  2. under dev->txq.lock: drop if netif_queue_stopped() (DRV_XOFF) was set
 *     meanwhile; if EVENT_DEV_ASLEEP, anchor the URB on dev->deferred and
 *     stop the queue; otherwise submit it, __usbnet_queue_skb() onto
 *     dev->txq and (BQL variants) netdev_sent_queue(), whose dql_queued()
 *     and avail check is this step; if the queue is still under its limit,
 *     the TX_QLEN check ends the path;
 *  3. over the limit: netdev_sent_queue() sets STACK_XOFF;
 *  4. after its smp_mb(): the re-check, then the TX_QLEN check, unlock.
 *
 * Return: 0, -EAGAIN when the stack cannot send now, -ENOSPC (nothing
 * changed) when step 2 needs a new skb and every slot holds one.
 */
int bqlm_usbnet_start_xmit(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg, unsigned int len,
			   struct bqlm_inv_step *ev)
{
	return bqlm_usbnet_xmit_step(dev, cfg, len, bqlm_usbnet_header(cfg, 0),
				     ev);
}

/**
 * bqlm_usbnet_xmit_step() - bqlm_usbnet_start_xmit() with the pad
 *	tx_fixup's count for this packet
 * @dev: the state
 * @cfg: the configuration
 * @len: the packet's length, for the first step (otherwise ignored)
 * @header: the bytes the pad tx_fixup() adds to it (first step only)
 * @ev: receives what the step did; may be NULL
 *
 * Return: as bqlm_usbnet_start_xmit().
 */
int bqlm_usbnet_xmit_step(struct bqlm_usbnet *dev,
			  const struct bqlm_usbnet_cfg *cfg, unsigned int len,
			  unsigned int header, struct bqlm_inv_step *ev)
{
	struct bqlm_inv_step dummy;

	ev = bqlm_usbnet_ev(ev, &dummy);
	if (bqlm_usbnet_gone(dev))
		return -ENODEV;
	if (!bqlm_usbnet_can_xmit(dev, cfg))
		return -EAGAIN;
	if (dev->xmit == BQLM_USBNET_XMIT_FIXED &&
	    !bqlm_netif_tx_queue_stopped(&dev->txq) &&
	    bqlm_usbnet_next_skb(dev, cfg) >= bqlm_usbnet_slots(cfg))
		return -ENOSPC;
	switch (dev->xmit) {
	case BQLM_USBNET_XMIT_IDLE:
		if (cfg->packets)
			dev->nr_pkts++;
		len = bqlm_usbnet_tx_fixup(dev, cfg, len, header);
		if (len) {
			dev->xmit = BQLM_USBNET_XMIT_FIXED;
			dev->xmit_len = len;
		}
		break;
	case BQLM_USBNET_XMIT_FIXED:
		bqlm_usbnet_xmit_locked(dev, cfg, ev);
		break;
	case BQLM_USBNET_XMIT_XOFF:
		bqlm_txq_sent_step_xoff(&dev->txq, cfg->now);
		dev->xmit = BQLM_USBNET_XMIT_RECHECK;
		break;
	default:
		bqlm_txq_sent_step_recheck(&dev->txq);
		bqlm_usbnet_check_qlen(dev, cfg);
		dev->xmit = BQLM_USBNET_XMIT_IDLE;
		dev->xmit_skb = 0;
		break;
	}
	if (dev->xmit == BQLM_USBNET_XMIT_IDLE)
		dev->xmit_ncm = 0;
	return 0;
}

/**
 * bqlm_cdc_ncm_txpath_bh() - the FLAG_MULTI_PACKET flush timer
 * @dev: the state
 * @cfg: the configuration
 * @ev: receives what the step did; may be NULL
 *
 * Model of cdc_ncm_txpath_bh(): under the netif_tx_lock, calls
 * usbnet_start_xmit(NULL), whose tx_fixup() returns the partial aggregate.
 * It does not look at the queue state: usbnet_start_xmit() drops the skb
 * if DRV_XOFF is set, and sends it past a STACK_XOFF. The rest of the
 * transmit is bqlm_usbnet_start_xmit()'s steps 2 to 4.
 *
 * Return: 0, or -EAGAIN when nothing is collected or a transmit is running.
 */
int bqlm_cdc_ncm_txpath_bh(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev)
{
	(void)ev;
	if (bqlm_usbnet_gone(dev))
		return -ENODEV;
	if (!bqlm_usbnet_can_flush(dev))
		return -EAGAIN;
	dev->xmit_len = bqlm_usbnet_tx_fixup(dev, cfg, 0, 0);
	dev->xmit = BQLM_USBNET_XMIT_FIXED;
	dev->xmit_ncm = 1;
	return 0;
}

/**
 * bqlm_tx_complete() - the host controller completes an URB
 * @dev: the state
 * @cfg: the configuration
 * @skb: the skb whose URB completes
 * @status: with which status
 * @ev: receives what the step did; may be NULL
 *
 * Model of tx_complete() up to its defer_bh() call, which needs
 * dev->txq.lock and is bqlm_defer_bh(). -EPIPE sets EVENT_TX_HALT and
 * queues the kevent work; -EPROTO/-ETIME/-EILSEQ arm the dev->delay timer
 * unless it is pending and stop the queue; other statuses only count.
 *
 * Return: 0, or -EINVAL when the URB is not in flight or cannot complete
 * with @status (an unlinked URB completes with -ECONNRESET only).
 */
int bqlm_tx_complete(struct bqlm_usbnet *dev,
		     const struct bqlm_usbnet_cfg *cfg, unsigned int skb,
		     enum bqlm_usbnet_status status,
		     struct bqlm_inv_step *ev)
{
	(void)ev;
	if (bqlm_usbnet_gone(dev))
		return -ENODEV;
	if (!bqlm_usbnet_can_complete(dev, cfg, skb, status))
		return -EINVAL;
	switch (status) {
	case BQLM_USBNET_ST_EPIPE:
		/* usbnet_defer_kevent(dev, EVENT_TX_HALT) */
		dev->flags |= BQLM_USBNET_EVENT_TX_HALT;
		dev->kevent = 1;
		break;
	case BQLM_USBNET_ST_EPROTO:
		/* mod_timer(&dev->delay) unless timer_pending() */
		dev->bh[BQLM_USBNET_BH_TIMER].pending = 1;
		bqlm_netif_tx_stop_queue(&dev->txq, cfg->now);
		break;
	default:
		break;
	}
	bqlm_usbnet_move(dev, skb, BQLM_USBNET_SKB_COMPLETED);
	return 0;
}

/**
 * bqlm_defer_bh() - tx_complete() hands the skb to the bottom half
 * @dev: the state
 * @cfg: the configuration
 * @skb: the skb
 * @ev: receives what the step did; may be NULL
 *
 * Model of defer_bh(dev, skb, &dev->txq, tx_done): under dev->txq.lock
 * and dev->done.lock, moves the skb from dev->txq to the tail of
 * dev->done and, if dev->done was empty, queues the bh work.
 *
 * Return: 0, -EAGAIN while the transmit path holds dev->txq.lock, -EINVAL
 * when the skb's tx_complete() has not run.
 */
int bqlm_defer_bh(struct bqlm_usbnet *dev, const struct bqlm_usbnet_cfg *cfg,
		  unsigned int skb, struct bqlm_inv_step *ev)
{
	(void)cfg;
	(void)ev;
	if (bqlm_usbnet_gone(dev))
		return -ENODEV;
	if (skb >= dev->nr_skbs ||
	    dev->skb[skb].where != BQLM_USBNET_SKB_COMPLETED)
		return -EINVAL;
	if (bqlm_usbnet_txq_locked(dev))
		return -EAGAIN;
	bqlm_usbnet_move(dev, skb, BQLM_USBNET_SKB_DONE);
	if (dev->done_tail)
		dev->skb[dev->done_tail - 1].next = skb + 1;
	else
		dev->done_head = skb + 1;
	dev->done_tail = skb + 1;
	if (++dev->nr_done == 1)
		bqlm_usbnet_queue_bh(dev);
	return 0;
}

/* The skbs of a run: freed, and their completion checked. */
static void bqlm_usbnet_bh_free(struct bqlm_usbnet *dev, unsigned int ctx,
				bool reported, struct bqlm_inv_step *ev)
{
	unsigned char mark = ctx == BQLM_USBNET_BH_TIMER ?
			     BQLM_USBNET_SKB_TIMER : 0;
	struct bqlm_usbnet_skb *s;
	unsigned int i;

	for (i = 0; i < dev->nr_skbs; i++) {
		s = &dev->skb[i];
		if (s->where != BQLM_USBNET_SKB_BH ||
		    (s->flags & BQLM_USBNET_SKB_TIMER) != mark)
			continue;
		if (reported && (s->flags & BQLM_USBNET_SKB_STALE))
			ev->stale_bytes += s->len;
		if (reported && !(s->flags & BQLM_USBNET_SKB_SENT))
			ev->unsent_skbs++;
		bqlm_usbnet_free_skb(dev, i);
	}
}

/* The end of usbnet_bh(): maybe netif_wake_queue(). */
static void bqlm_usbnet_bh_tail(struct bqlm_usbnet *dev,
				const struct bqlm_usbnet_cfg *cfg,
				unsigned int ctx)
{
	struct bqlm_usbnet_bh *bh = &dev->bh[ctx];

	/*
	 * If usbnet_terminate_urbs() waits, it is woken (the model's waits
	 * are conditions, nothing to do). Otherwise, with the device running
	 * and present and no throttling timer pending, the queue is woken
	 * while dev->txq is below TX_QLEN. RX refill is not modelled.
	 */
	if (!bqlm_usbnet_waiter(dev) && dev->running && dev->present &&
	    dev->carrier && !dev->bh[BQLM_USBNET_BH_TIMER].pending &&
	    bqlm_usbnet_txq_qlen(dev) < bqlm_usbnet_tx_qlen(dev, cfg))
		bqlm_netif_tx_wake_queue(&dev->txq);
	bh->phase = BQLM_USBNET_BH_IDLE;
	bh->bytes = 0;
	bh->pkts = 0;
}

/* One skb_dequeue(&dev->done), or the end of the loop. */
static void bqlm_usbnet_bh_dequeue(struct bqlm_usbnet *dev,
				   const struct bqlm_usbnet_cfg *cfg,
				   unsigned int ctx, struct bqlm_inv_step *ev)
{
	struct bqlm_usbnet_bh *bh = &dev->bh[ctx];
	unsigned int s;

	if (!dev->nr_done) {
		if (bqlm_usbnet_bql(cfg) && bh->bytes) {
			bh->phase = BQLM_USBNET_BH_ENTER;
		} else {
			/* netdev_completed_queue(dev->net, 0, 0) is a no-op */
			bqlm_usbnet_bh_free(dev, ctx, false, ev);
			bqlm_usbnet_bh_tail(dev, cfg, ctx);
		}
		return;
	}
	s = dev->done_head - 1;
	dev->done_head = dev->skb[s].next;
	dev->skb[s].next = 0;
	if (!--dev->nr_done)
		dev->done_tail = 0;
	/* case tx_done: bytes_compl += skb->len; pkts_compl++; free */
	bqlm_usbnet_move(dev, s, BQLM_USBNET_SKB_BH);
	if (ctx == BQLM_USBNET_BH_TIMER)
		dev->skb[s].flags |= BQLM_USBNET_SKB_TIMER;
	bh->bytes += dev->skb[s].len;
	bh->pkts++;
}

/* dql_completed() of netdev_completed_queue() */
static void bqlm_usbnet_bh_dql(struct bqlm_usbnet *dev,
			       const struct bqlm_usbnet_cfg *cfg,
			       unsigned int ctx, struct bqlm_inv_step *ev)
{
	struct bqlm_usbnet_bh *bh = &dev->bh[ctx];
	unsigned int inflight = bqlm_dql_inflight(&dev->txq.dql);
	int ret;

	ret = bqlm_txq_completed_step_dql(&dev->txq, bh->bytes, cfg->now);
	if (ret) {
		ev->dql_err = ret;
		ev->dql_val[0] = bh->bytes;
		ev->dql_val[1] = inflight;
	}
	bqlm_usbnet_bh_free(dev, ctx, true, ev);
	bh->phase = BQLM_USBNET_BH_WAKE;
}

/**
 * bqlm_usbnet_bh() - next step of a usbnet_bh() run
 * @dev: the state
 * @cfg: the configuration
 * @ctx: BQLM_USBNET_BH_WORK (the bh work item) or BQLM_USBNET_BH_TIMER
 *	(the dev->delay timer, armed by a throttled completion)
 * @ev: receives what the step did; may be NULL
 *
 * A run starts when its context is pending (work queued, timer armed and
 * expired) and steps through usbnet_bh():
 *  - skb_dequeue(&dev->done), one skb per step (the first together with
 *    the start), summing bytes_compl and pkts_compl; a dequeue that finds
 *    dev->done empty ends the loop;
 *  - BQL variants with bytes to report: enter netdev_completed_queue()
 *    (merged and later: spin_lock_bh(&dev->bql_spinlock), which waits while
 *    the other context holds it); the completion is now in progress;
 *  - dql_completed(): the over-completion BUG_ON() is here;
 *  - smp_mb() and the STACK_XOFF wake; spin_unlock_bh();
 *  - the rest of usbnet_bh(): netif_wake_queue() if dev->txq is short.
 *
 * Return: 0, -EAGAIN when the run waits for dev->bql_spinlock, -EINVAL
 * when the context is neither running nor pending.
 */
int bqlm_usbnet_bh(struct bqlm_usbnet *dev, const struct bqlm_usbnet_cfg *cfg,
		   unsigned int ctx, struct bqlm_inv_step *ev)
{
	struct bqlm_inv_step dummy;
	struct bqlm_usbnet_bh *bh;

	ev = bqlm_usbnet_ev(ev, &dummy);
	if (bqlm_usbnet_gone(dev))
		return -ENODEV;
	if (ctx >= BQLM_USBNET_NR_BH)
		return -EINVAL;
	bh = &dev->bh[ctx];
	if (bh->phase == BQLM_USBNET_BH_IDLE && !bh->pending)
		return -EINVAL;
	if (!bqlm_usbnet_can_bh(dev, cfg, ctx))
		return -EAGAIN;
	switch (bh->phase) {
	case BQLM_USBNET_BH_IDLE:
		bh->pending = 0;
		bh->phase = BQLM_USBNET_BH_LOOP;
		bqlm_usbnet_bh_dequeue(dev, cfg, ctx, ev);
		break;
	case BQLM_USBNET_BH_LOOP:
		bqlm_usbnet_bh_dequeue(dev, cfg, ctx, ev);
		break;
	case BQLM_USBNET_BH_ENTER:
		/*
		 * Under dev->bql_spinlock nothing but the other completion
		 * cares that the call has begun, and it waits for the lock:
		 * entering and dql_completed() are one step. Without the
		 * lock, entering is a step of its own, so that the other run
		 * can enter while this one is inside.
		 */
		if (!bqlm_usbnet_bql_locked(cfg)) {
			bh->phase = BQLM_USBNET_BH_DQL;
			break;
		}
		bqlm_usbnet_bh_dql(dev, cfg, ctx, ev);
		break;
	case BQLM_USBNET_BH_DQL:
		bqlm_usbnet_bh_dql(dev, cfg, ctx, ev);
		break;
	default:
		/* the tail of usbnet_bh() follows in the same step */
		bqlm_txq_completed_step_wake(&dev->txq);
		bqlm_usbnet_bh_tail(dev, cfg, ctx);
		break;
	}
	return 0;
}

/*
 * Model of __handle_link_change(): nothing (the bits stay) unless open;
 * the carrier on if usbnet_link_change() asked for it; with the carrier,
 * the bh is queued (to refill RX, which the model does not have);
 * without, the RX URBs are unlinked (none); EVENT_LINK_CHANGE cleared.
 */
static void bqlm_handle_link_change(struct bqlm_usbnet *dev)
{
	if (!(dev->flags & BQLM_USBNET_EVENT_DEV_OPEN))
		return;
	if (dev->flags & BQLM_USBNET_EVENT_LINK_CARRIER_ON) {
		dev->flags &= ~BQLM_USBNET_EVENT_LINK_CARRIER_ON;
		dev->carrier = 1;
	}
	if (dev->carrier)
		bqlm_usbnet_queue_bh(dev);
	dev->flags &= ~BQLM_USBNET_EVENT_LINK_CHANGE;
}

/**
 * bqlm_usbnet_deferred_kevent() - the kevent work, EVENT_TX_HALT part
 * @dev: the state
 * @cfg: the configuration
 * @ev: receives what the step did; may be NULL
 *
 * Model of usbnet_deferred_kevent() for EVENT_TX_HALT: unlink_urbs() of
 * dev->txq, usb_clear_halt() (it succeeds unless the device is unplugged),
 * clear EVENT_TX_HALT and netif_wake_queue(); for EVENT_LINK_RESET: clear
 * it, the minidriver's link_reset(), which sets the carrier to the link
 * its status() saw unless the device is unplugged (its reads fail; with
 * pm link-reset-blind, also then), then __handle_link_change(); and for
 * EVENT_LINK_CHANGE:
 * __handle_link_change(), which, if the device is open, queues the bh
 * when the carrier is on and clears the bit. One step; the other events
 * are receive-side and not modelled.
 *
 * Return: 0, -EAGAIN while dev->txq.lock is held, -EINVAL when the work
 * is not queued.
 */
int bqlm_usbnet_deferred_kevent(struct bqlm_usbnet *dev,
				const struct bqlm_usbnet_cfg *cfg,
				struct bqlm_inv_step *ev)
{
	(void)ev;
	if (!dev->kevent || bqlm_usbnet_gone(dev))
		return -EINVAL;
	if (bqlm_usbnet_txq_locked(dev))
		return -EAGAIN;
	dev->kevent = 0;
	/*
	 * unplugged: usb_clear_halt() fails (-ENODEV), EVENT_TX_HALT stays
	 * and the queue is not woken
	 */
	if (dev->flags & BQLM_USBNET_EVENT_TX_HALT) {
		bqlm_unlink_urbs(dev);
		if (!dev->unplug) {
			dev->flags &= ~BQLM_USBNET_EVENT_TX_HALT;
			bqlm_netif_tx_wake_queue(&dev->txq);
		}
	}
	/*
	 * EVENT_LINK_RESET: the minidriver's link_reset() finds the link
	 * status() saw and sets the carrier to it, open or not, if the
	 * device answers its reads (or, blind, also if not); then
	 * __handle_link_change(), as for EVENT_LINK_CHANGE
	 */
	if (dev->flags & BQLM_USBNET_EVENT_LINK_RESET) {
		dev->flags &= ~BQLM_USBNET_EVENT_LINK_RESET;
		if (bqlm_usbnet_link_reset_sets(dev, cfg))
			dev->carrier = dev->link;
		bqlm_handle_link_change(dev);
	}
	if (dev->flags & BQLM_USBNET_EVENT_LINK_CHANGE)
		bqlm_handle_link_change(dev);
	return 0;
}

/*
 * ifdown, one row per step, indexed by the struct bqlm_usbnet.admin the
 * step is taken from: what it waits for, what it does as traces print it.
 * v1 and merged add netdev_reset_queue() to usbnet_stop()'s first step;
 * FLAG_AVOID_UNLINK_URBS skips usbnet_terminate_urbs(); only fix-reset and
 * fixed take the last step.
 */
const struct bqlm_usbnet_stop_step bqlm_usbnet_stop_steps[BQLM_USBNET_NR_ADMIN] = {
	[BQLM_USBNET_UP] = { BQLM_USBNET_WAIT_NONE,
		"dev_close: clear __LINK_STATE_START, deactivate the qdisc" },
	/* dev_deactivate_many() waits for the transmit in progress */
	[BQLM_USBNET_STOP_CLOSE] = { BQLM_USBNET_WAIT_XMIT,
		"usbnet_stop: clear EVENT_DEV_OPEN, netif_stop_queue" },
	/* usb_autopm_get_interface() resumes a suspended device */
	[BQLM_USBNET_STOP_PM] = { BQLM_USBNET_WAIT_AWAKE,
		"usbnet_stop: usb_autopm_get_interface" },
	/* unlink_urbs() takes dev->txq.lock (cdc_ncm flush) */
	[BQLM_USBNET_STOP_UNLINK] = { BQLM_USBNET_WAIT_TXQ_LOCK,
		"usbnet_terminate_urbs: unlink_urbs(&dev->txq)" },
	[BQLM_USBNET_STOP_WAIT] = { BQLM_USBNET_WAIT_EMPTY,
		"usbnet_terminate_urbs: wait_skb_queue_empty(txq, done)" },
	[BQLM_USBNET_STOP_TIMER] = { BQLM_USBNET_WAIT_TIMER,
		"usbnet_stop: dev->flags = 0, timer_delete_sync(&dev->delay)" },
	[BQLM_USBNET_STOP_WORK] = { BQLM_USBNET_WAIT_WORK,
		"usbnet_stop: cancel_work_sync(&dev->bh_work), cancel_work_sync(&dev->kevent)" },
	/* the same again, timer included ("cyclic dependencies") */
	[BQLM_USBNET_STOP_AGAIN] = { BQLM_USBNET_WAIT_BH,
		"usbnet_stop: cancel_work_sync(bh_work), timer_delete_sync(delay), cancel_work_sync(kevent)" },
	[BQLM_USBNET_STOP_RESET] = { BQLM_USBNET_WAIT_NONE,
		"usbnet_stop: netdev_reset_queue" },
};

/* Does usbnet_stop() reset the queue in its last step? */
static bool bqlm_usbnet_late_reset(const struct bqlm_usbnet_cfg *cfg)
{
	return cfg->stop_reset == BQLM_USBNET_RESET_LATE;
}

static void bqlm_usbnet_stop_step(struct bqlm_usbnet *dev,
				  const struct bqlm_usbnet_cfg *cfg);

/**
 * bqlm_usbnet_stop() - next step of ifdown: dev_close() and usbnet_stop()
 * @dev: the state
 * @cfg: the configuration
 * @ev: receives what the step did; may be NULL
 *
 * The steps are the rows of bqlm_usbnet_stop_steps[] above, in order,
 * each once what it waits for is done.
 *
 * Return: 0, -EAGAIN while the next step waits, -EINVAL when the device
 * is closed, no ifdown is left in the bound, or usbnet_disconnect() has
 * unregistered it (or is doing so).
 */
int bqlm_usbnet_stop(struct bqlm_usbnet *dev,
		     const struct bqlm_usbnet_cfg *cfg,
		     struct bqlm_inv_step *ev)
{
	int ret = bqlm_usbnet_stop_ready(dev);

	(void)ev;
	if (ret)
		return ret;
	if (dev->admin == BQLM_USBNET_UP)
		dev->stops_left--;
	bqlm_usbnet_stop_step(dev, cfg);
	return 0;
}

/*
 * The step of ifdown taken from dev->admin, which may take it (its wait
 * is over): for ifdown (bqlm_usbnet_stop()) and for the unregister_netdev()
 * of usbnet_disconnect() alike.
 */
static void bqlm_usbnet_stop_step(struct bqlm_usbnet *dev,
				  const struct bqlm_usbnet_cfg *cfg)
{
	switch (dev->admin) {
	case BQLM_USBNET_UP:
		dev->running = 0;
		dev->admin = BQLM_USBNET_STOP_CLOSE;
		break;
	case BQLM_USBNET_STOP_CLOSE:
		dev->flags &= ~BQLM_USBNET_EVENT_DEV_OPEN;
		bqlm_netif_tx_stop_queue(&dev->txq, cfg->now);
		if (bqlm_usbnet_early_reset(cfg))
			bqlm_usbnet_reset_queue(dev, cfg);
		dev->admin = BQLM_USBNET_STOP_PM;
		break;
	case BQLM_USBNET_STOP_PM:
		/* the minidriver's stop() (aqc111: netif_carrier_off()) */
		if (cfg->pm & BQLM_USBNET_PM_STOP_CARRIER)
			dev->carrier = 0;
		/*
		 * FLAG_AVOID_UNLINK_URBS: no usbnet_terminate_urbs(); with
		 * stop_drain wait, its waits only; with unlink, its unlink of
		 * dev->txq and its waits (the RX URBs are not modelled)
		 */
		if (!(cfg->flags & BQLM_USBNET_FLAG_AVOID_UNLINK_URBS) ||
		    cfg->stop_drain == BQLM_USBNET_DRAIN_UNLINK)
			dev->admin = BQLM_USBNET_STOP_UNLINK;
		else if (cfg->stop_drain == BQLM_USBNET_DRAIN_WAIT)
			dev->admin = BQLM_USBNET_STOP_WAIT;
		else
			dev->admin = BQLM_USBNET_STOP_TIMER;
		break;
	case BQLM_USBNET_STOP_UNLINK:
		bqlm_unlink_urbs(dev);
		dev->admin = BQLM_USBNET_STOP_WAIT;
		break;
	case BQLM_USBNET_STOP_WAIT:
		dev->admin = BQLM_USBNET_STOP_TIMER;
		break;
	case BQLM_USBNET_STOP_TIMER:
		dev->flags = 0;	/* EVENT_LINK_CHANGE too */
		dev->bh[BQLM_USBNET_BH_TIMER].pending = 0;
		dev->admin = BQLM_USBNET_STOP_WORK;
		break;
	case BQLM_USBNET_STOP_WORK:
		dev->bh[BQLM_USBNET_BH_WORK].pending = 0;
		dev->kevent = 0;
		dev->admin = BQLM_USBNET_STOP_AGAIN;
		break;
	case BQLM_USBNET_STOP_AGAIN:
		dev->bh[BQLM_USBNET_BH_WORK].pending = 0;
		dev->bh[BQLM_USBNET_BH_TIMER].pending = 0;
		dev->kevent = 0;
		dev->admin = bqlm_usbnet_late_reset(cfg) ?
			     BQLM_USBNET_STOP_RESET : BQLM_USBNET_DOWN;
		break;
	default:
		bqlm_usbnet_reset_queue(dev, cfg);
		dev->admin = BQLM_USBNET_DOWN;
		break;
	}
}

/**
 * bqlm_usbnet_open() - ifup: dev_open() and usbnet_open()
 * @dev: the state
 * @cfg: the configuration
 * @ev: receives what the step did; may be NULL
 *
 * One step: set __LINK_STATE_START; usb_autopm_get_interface() (the step
 * waits until the device is resumed); set EVENT_DEV_OPEN; BQL variants:
 * netdev_reset_queue(); netif_start_queue(); queue the bh work; then
 * dev_activate() lets the qdisc send.
 *
 * Return: 0, -EAGAIN while the device is suspended, -EINVAL unless closed
 * (or once unplugged: an ifup after the unplug is not modelled).
 */
int bqlm_usbnet_open(struct bqlm_usbnet *dev,
		     const struct bqlm_usbnet_cfg *cfg,
		     struct bqlm_inv_step *ev)
{
	(void)ev;
	if (dev->admin != BQLM_USBNET_DOWN || dev->unplug)
		return -EINVAL;
	if (dev->pm != BQLM_USBNET_AWAKE)
		return -EAGAIN;
	dev->running = 1;
	dev->flags |= BQLM_USBNET_EVENT_DEV_OPEN;
	if (bqlm_usbnet_bql(cfg))
		bqlm_usbnet_reset_queue(dev, cfg);
	bqlm_netif_tx_start_queue(&dev->txq);
	bqlm_usbnet_queue_bh(dev);
	dev->admin = BQLM_USBNET_UP;
	return 0;
}

/**
 * bqlm_usbnet_tx_timeout() - the watchdog calls usbnet_tx_timeout()
 * @dev: the state
 * @cfg: the configuration
 * @ev: receives what the step did; may be NULL
 *
 * dev_watchdog() fires while the device is running and present and the
 * queue is stopped (either XOFF bit; the 5 s are not modelled), under the
 * netif_tx_lock. usbnet_tx_timeout(): unlink_urbs(&dev->txq) and queue the
 * bh work.
 *
 * Return: 0, -EAGAIN while a transmit or dev->txq.lock is in the way,
 * -EINVAL when the watchdog would not fire or no timeout is left.
 */
int bqlm_usbnet_tx_timeout(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev)
{
	(void)cfg;
	(void)ev;
	if (bqlm_usbnet_gone(dev) || !dev->timeouts_left ||
	    dev->admin != BQLM_USBNET_UP ||
	    !dev->running || !dev->present || !dev->carrier ||
	    !bqlm_netif_xmit_stopped(&dev->txq))
		return -EINVAL;
	if (dev->xmit != BQLM_USBNET_XMIT_IDLE)
		return -EAGAIN;
	dev->timeouts_left--;
	bqlm_unlink_urbs(dev);
	bqlm_usbnet_queue_bh(dev);
	return 0;
}

/* usbnet_resume() under txq.lock: resubmit what was deferred. */
static void bqlm_usbnet_resubmit(struct bqlm_usbnet *dev,
				 const struct bqlm_usbnet_cfg *cfg,
				 struct bqlm_inv_step *ev)
{
	unsigned int i;
	int ret;

	/* usb_get_from_anchor() returns the URBs in the order anchored */
	for (i = 0; i < dev->nr_skbs; i++) {
		if (dev->skb[i].where != BQLM_USBNET_SKB_DEFERRED)
			continue;
		/* usb_submit_urb() == 0, __skb_queue_tail(&dev->txq) */
		bqlm_usbnet_move(dev, i, BQLM_USBNET_SKB_TXQ);
		if (!cfg->resume_sent)
			continue;
		ret = bqlm_netdev_tx_sent_queue(&dev->txq, dev->skb[i].len,
						cfg->now);
		if (ret) {
			ev->dql_err = ret;
			ev->dql_val[0] = dev->skb[i].len;
			ev->dql_val[1] = BQLM_DQL_MAX_OBJECT;
		} else {
			dev->skb[i].flags |= BQLM_USBNET_SKB_SENT;
		}
	}
	dev->flags &= ~BQLM_USBNET_EVENT_DEV_ASLEEP;
}

/*
 * usbnet_resume()'s first step: --dev->suspend_count; only when that
 * reaches 0, under dev->txq.lock, resubmit and clear EVENT_DEV_ASLEEP.
 * Return: true when the body ran (its wake is the next step).
 */
static bool bqlm_usbnet_resume_first(struct bqlm_usbnet *dev,
				     const struct bqlm_usbnet_cfg *cfg,
				     struct bqlm_inv_step *ev)
{
	if (--dev->suspend_count)
		return false;
	bqlm_usbnet_resubmit(dev, cfg, ev);
	return true;
}

/* usbnet_resume()'s second step: wake the queue, queue the bh work. */
static void bqlm_usbnet_resume_wake(struct bqlm_usbnet *dev,
				    const struct bqlm_usbnet_cfg *cfg)
{
	if (dev->flags & BQLM_USBNET_EVENT_DEV_OPEN) {
		if (bqlm_usbnet_txq_qlen(dev) < bqlm_usbnet_tx_qlen(dev, cfg))
			bqlm_netif_tx_wake_queue(&dev->txq);
		bqlm_usbnet_queue_bh(dev);
	}
	dev->pm = BQLM_USBNET_AWAKE;
}

/*
 * usbnet_suspend() returned 0: the minidriver's own suspend work, and
 * what its suspend() tells the USB core. OWN_SUSPEND_FAILS (smsc95xx):
 * the work fails; for an autosuspend it calls usbnet_resume(), whose
 * wake is the suspend's next step (BQLM_USBNET_PM_UNDO); for a system
 * suspend it returns the error: the USB core holds the interface awake
 * and resumes nothing, and usbnet stays suspended.
 */
static void bqlm_usbnet_suspended(struct bqlm_usbnet *dev,
				  const struct bqlm_usbnet_cfg *cfg,
				  struct bqlm_inv_step *ev)
{
	if (!(cfg->pm & BQLM_USBNET_PM_OWN_SUSPEND_FAILS))
		dev->pm = BQLM_USBNET_SUSPENDED;
	else if (cfg->autosuspend && bqlm_usbnet_resume_first(dev, cfg, ev))
		dev->pm = BQLM_USBNET_PM_UNDO;
	else
		dev->pm = BQLM_USBNET_AWAKE;
}

/**
 * bqlm_usbnet_suspend() - next step of the minidriver's suspend() and
 *	usbnet_suspend()
 * @dev: the state
 * @cfg: the configuration
 * @ev: receives what the step did; may be NULL
 *
 * usbnet_suspend() increments dev->suspend_count; unless it was 0 before,
 * it does nothing more and returns 0. A system suspend (PMSG_SUSPEND, so
 * no -EBUSY for a busy dev->txq):
 *  1. under dev->txq.lock: set EVENT_DEV_ASLEEP; netif_device_detach():
 *     not present; if running, stop the queue;
 *  2. usbnet_terminate_urbs(): unlink_urbs(&dev->txq);
 *  3. once dev->txq and dev->done are empty: netif_device_attach():
 *     present again; if running, netif_tx_wake_all_queues() (which clears
 *     DRV_XOFF only). From here on a transmit is deferred. Then the
 *     minidriver's own work (bqlm_usbnet_suspended()).
 * An autosuspend (cfg->autosuspend) begins only at an interface PM usage
 * count of 0 (bqlm_usbnet_pm_usage(): the USB core's autosuspend_check());
 * then dev->txq can still hold an URB whose tx_complete() has dropped its
 * count and whose defer_bh() has not run. Such an autosuspend is refused in
 * step 1 (-EBUSY, the count restored): the device stays awake, unless
 * the minidriver's suspend() ignores it (SUSPEND_IGNORES_BUSY) and the USB
 * core holds the interface suspended with usbnet awake.
 * With OWN_SUSPEND_FAILS under autosuspend, a 4th step: the wake of the
 * usbnet_resume() the minidriver's suspend() calls.
 *
 * Return: 0, -EAGAIN while the next step waits, -EINVAL when there is no
 * suspend to make (already suspended, none left in the bound,
 * usbnet_stop() holds a PM reference, or an autosuspend at a usage count
 * above 0, which the USB core never begins).
 */
int bqlm_usbnet_suspend(struct bqlm_usbnet *dev,
			const struct bqlm_usbnet_cfg *cfg,
			struct bqlm_inv_step *ev)
{
	struct bqlm_inv_step dummy;
	int ret = bqlm_usbnet_suspend_ready(dev, cfg);

	ev = bqlm_usbnet_ev(ev, &dummy);
	if (ret)
		return ret;
	switch (dev->pm) {
	case BQLM_USBNET_AWAKE:
		dev->suspends_left--;
		/* dev->suspend_count was not 0: usbnet_suspend() skips all */
		if (dev->suspend_count++) {
			bqlm_usbnet_suspended(dev, cfg, ev);
			break;
		}
		/*
		 * PMSG_AUTO: "don't autosuspend while transmitting", under
		 * dev->txq.lock; -EBUSY to the USB core, which keeps the
		 * device awake, unless the minidriver's suspend() returns 0
		 */
		if (cfg->autosuspend && bqlm_usbnet_txq_qlen(dev)) {
			dev->suspend_count--;
			if (cfg->pm & BQLM_USBNET_PM_SUSPEND_IGNORES_BUSY)
				dev->pm = BQLM_USBNET_SUSPENDED;
			break;
		}
		/*
		 * EVENT_DEV_ASLEEP under dev->txq.lock, then
		 * netif_device_detach(), in one step: a packet the stack
		 * takes between the two is deferred, as it is when taken
		 * just before and transmitted after.
		 */
		dev->flags |= BQLM_USBNET_EVENT_DEV_ASLEEP;
		dev->present = 0;
		if (dev->running)
			bqlm_netif_tx_stop_queue(&dev->txq, cfg->now);
		dev->pm = BQLM_USBNET_PM_DETACHED;
		break;
	case BQLM_USBNET_PM_DETACHED:
		bqlm_unlink_urbs(dev);
		dev->pm = BQLM_USBNET_PM_WAIT;
		break;
	case BQLM_USBNET_PM_UNDO:
		bqlm_usbnet_resume_wake(dev, cfg);
		break;
	default:
		dev->present = 1;
		if (dev->running)
			bqlm_netif_tx_wake_queue(&dev->txq);
		bqlm_usbnet_suspended(dev, cfg, ev);
		break;
	}
	return 0;
}

/**
 * bqlm_usbnet_resume() - next step of the minidriver's resume() and
 *	usbnet_resume()
 * @dev: the state
 * @cfg: the configuration
 * @ev: receives what the step did; may be NULL
 *
 * The steps:
 *  1. (a minidriver's resume() that reports the link down: queue the
 *     kevent work;) usbnet_resume() decrements dev->suspend_count; unless
 *     that gives 0 (it was not usbnet that suspended), it does nothing
 *     more and this was the only step. Else under dev->txq.lock: submit
 *     every URB anchored on dev->deferred and put its skb on dev->txq
 *     (fixed: with netdev_sent_queue(); before c4efd7a770c5 without);
 *     clear EVENT_DEV_ASLEEP;
 *  2. if EVENT_DEV_OPEN: netif_tx_wake_all_queues() unless dev->txq is at
 *     TX_QLEN, and queue the bh work.
 *
 * Return: 0, -EAGAIN while dev->txq.lock is held, -EINVAL unless suspended.
 */
int bqlm_usbnet_resume(struct bqlm_usbnet *dev,
		       const struct bqlm_usbnet_cfg *cfg,
		       struct bqlm_inv_step *ev)
{
	struct bqlm_inv_step dummy;

	ev = bqlm_usbnet_ev(ev, &dummy);
	switch (dev->pm) {
	case BQLM_USBNET_SUSPENDED:
		if (bqlm_usbnet_txq_locked(dev))
			return -EAGAIN;
		/* ax88179: usbnet_link_change(dev, 0, 0) first */
		if (cfg->pm & BQLM_USBNET_PM_RESUME_LINK) {
			dev->carrier = 0;
			dev->flags &= ~BQLM_USBNET_EVENT_LINK_CARRIER_ON;
			dev->flags |= BQLM_USBNET_EVENT_LINK_CHANGE;
			dev->kevent = 1;
		}
		/* aqc111: netif_carrier_off() first */
		if (cfg->pm & BQLM_USBNET_PM_RESUME_CARRIER)
			dev->carrier = 0;
		dev->pm = bqlm_usbnet_resume_first(dev, cfg, ev) ?
			  BQLM_USBNET_PM_RESUMING : BQLM_USBNET_AWAKE;
		return 0;
	case BQLM_USBNET_PM_RESUMING:
		bqlm_usbnet_resume_wake(dev, cfg);
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * bqlm_usbnet_link_change() - the minidriver's status() sees the link
 *	change
 * @dev: the state
 * @cfg: the configuration
 * @link: the link it sees: up (true) or down
 * @ev: receives what the step did; may be NULL
 *
 * Its status interrupt, whose URB is submitted while the device is open
 * and awake, reports the link. Up: usbnet_link_change(dev, 1, 0) sets
 * EVENT_LINK_CARRIER_ON and queues the kevent work with EVENT_LINK_CHANGE,
 * which turns the carrier on (6.12); with pm link-reset,
 * usbnet_link_change(dev, 1, 1) turns the carrier off and queues it with
 * EVENT_LINK_RESET instead, and the minidriver's link_reset() turns the
 * carrier on. Down: usbnet_link_change(dev, 0, x) clears
 * EVENT_LINK_CARRIER_ON, turns the carrier off at once and queues the
 * kevent work with EVENT_LINK_CHANGE. With pm status-reset, up and down
 * only queue it with EVENT_LINK_RESET (the link_reset() sets the carrier
 * to the link); with pm status-carrier, up turns the carrier on and
 * queues it with EVENT_LINK_RESET, down turns the carrier off and queues
 * nothing. One step; a status() that compares
 * the link with netif_carrier_ok() acts only when they differ, so only
 * then, with no report pending and reports of that kind left in the
 * bound.
 *
 * Return: 0, or -EINVAL when there is no such report to make.
 */
int bqlm_usbnet_link_change(struct bqlm_usbnet *dev,
			    const struct bqlm_usbnet_cfg *cfg, bool link,
			    struct bqlm_inv_step *ev)
{
	(void)ev;
	if (!bqlm_usbnet_can_link(dev, link))
		return -EINVAL;
	if (link)
		dev->links_left--;
	else
		dev->link_downs_left--;
	dev->link = link;
	if (cfg->pm & BQLM_USBNET_PM_STATUS_CARRIER) {
		/* ch9200: netif_carrier_on/off() itself */
		dev->carrier = link;
		if (!link)
			return 0;
		dev->flags |= BQLM_USBNET_EVENT_LINK_RESET;
	} else if (cfg->pm & BQLM_USBNET_PM_STATUS_RESET) {
		/* usbnet_defer_kevent(dev, EVENT_LINK_RESET) only */
		dev->flags |= BQLM_USBNET_EVENT_LINK_RESET;
	} else if (!link) {
		dev->carrier = 0;
		dev->flags |= BQLM_USBNET_EVENT_LINK_CHANGE;
	} else if (cfg->pm & BQLM_USBNET_PM_LINK_RESET) {
		/* the carrier stays off for the minidriver's link_reset() */
		dev->flags |= BQLM_USBNET_EVENT_LINK_RESET;
	} else {
		dev->flags |= BQLM_USBNET_EVENT_LINK_CARRIER_ON |
			      BQLM_USBNET_EVENT_LINK_CHANGE;
	}
	dev->kevent = 1;
	return 0;
}

/**
 * bqlm_usbnet_tx_qlen() - TX_QLEN(dev) in a state
 * @dev: the state
 * @cfg: the configuration
 *
 * Return: cfg->mtu_qlen once usbnet_change_mtu() ran, else cfg->tx_qlen.
 */
unsigned int bqlm_usbnet_tx_qlen(const struct bqlm_usbnet *dev,
				 const struct bqlm_usbnet_cfg *cfg)
{
	return dev->mtu_changed ? cfg->mtu_qlen : cfg->tx_qlen;
}

/**
 * bqlm_usbnet_change_mtu() - usbnet_change_mtu(): a run-time MTU change
 * @dev: the state
 * @cfg: the configuration (its @mtu_qlen)
 * @ev: receives what the step did; may be NULL
 *
 * dev_set_mtu() calls it under the RTNL, which no other actor of the
 * model takes: it runs between any two steps. It sets dev->hard_mtu and
 * usbnet_update_max_qlen() sets dev->tx_qlen from it, plain stores under
 * no lock of usbnet's; nothing stops or wakes the queue. The new TX_QLEN
 * counts from the next usbnet_start_xmit()'s check and usbnet_bh()'s
 * wake on: a queue stopped at the old TX_QLEN stays stopped until a
 * usbnet_bh() run finds dev->txq below the new one. One step, once.
 *
 * Return: 0, or -EINVAL when no change is configured or it was made.
 */
int bqlm_usbnet_change_mtu(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev)
{
	(void)ev;
	if (!bqlm_usbnet_can_change_mtu(dev, cfg))
		return -EINVAL;
	dev->mtu_changed = 1;
	return 0;
}

/*
 * disconnect_kill: usbnet_terminate_urbs(dev, true, false) (nothing is
 * queued after the flush), cancel_work_sync(&dev->bh_work) and
 * timer_delete_sync(&dev->delay), which drop a queued run (the step waits
 * for one in progress), and the skbs left on dev->done freed.
 */
static void bqlm_usbnet_disconnect_kill(struct bqlm_usbnet *dev)
{
	unsigned int i;

	bqlm_unlink_urbs(dev);
	for (i = 0; i < BQLM_USBNET_NR_BH; i++)
		dev->bh[i].pending = 0;
	for (i = 0; i < dev->nr_skbs; i++)
		if (dev->skb[i].where == BQLM_USBNET_SKB_DONE) {
			dev->skb[i].next = 0;
			bqlm_usbnet_free_skb(dev, i);
		}
	dev->done_head = 0;
	dev->done_tail = 0;
	dev->nr_done = 0;
}

/* What could still act on the device when free_netdev() frees it. */
static unsigned int bqlm_usbnet_left_behind(const struct bqlm_usbnet *dev)
{
	unsigned int i, n = 0;

	for (i = 0; i < BQLM_USBNET_NR_BH; i++)
		n += dev->bh[i].pending ||
		     dev->bh[i].phase != BQLM_USBNET_BH_IDLE;
	for (i = 0; i < dev->nr_skbs; i++)
		n += bqlm_usbnet_skb_held(dev->skb[i].where);
	return n;
}

/**
 * bqlm_usbnet_disconnect() - next step of the device going away
 * @dev: the state
 * @cfg: the configuration (its @disconnect)
 * @ev: receives what the step did; may be NULL
 *
 * The device is unplugged (or its driver unbound) once, at any step, while
 * it is awake; the steps:
 *  1. usb_disconnect(): USB_STATE_NOTATTACHED, so every later
 *     usb_submit_urb() fails (usbnet_start_xmit() drops, usb_clear_halt()
 *     fails); usb_unbind_interface()'s usb_disable_interface() flushes the
 *     endpoints: every URB still queued is unlinked (-ESHUTDOWN, which
 *     tx_complete() only counts, as -ECONNRESET);
 *  2. once every URB is given back (its tx_complete() and defer_bh()
 *     ran) and no ifdown holds the RTNL: usbnet_disconnect(),
 *     unregister_netdev(): an open device is closed, dev_close()'s step;
 *  3. usbnet_stop()'s steps, as ifdown takes them (bqlm_usbnet_stop());
 *  4. with @disconnect_kill, once no bh runs: what is queued unlinked,
 *     the bh and dev->delay stopped, dev->done freed;
 *  5. cancel_work_sync(&dev->kevent), the URBs of dev->deferred freed,
 *     the minidriver's unbind() (cdc_ncm's kills its flush, whose
 *     aggregate goes), usb_kill_urb(dev->interrupt), free_netdev(). A
 *     bottom half queued or running, the dev->delay timer armed or an skb
 *     the device still holds then acts on freed memory: ev->after_free.
 * From then on nothing acts on the device: every actor refuses (-ENODEV).
 *
 * Return: 0, -EAGAIN while the next step waits, -EINVAL when no
 * disconnect is configured or the device is gone.
 */
int bqlm_usbnet_disconnect(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev)
{
	struct bqlm_inv_step dummy;
	int ret = bqlm_usbnet_disconnect_ready(dev, cfg);
	unsigned int i;

	ev = bqlm_usbnet_ev(ev, &dummy);
	if (ret)
		return ret;
	switch (dev->unplug) {
	case BQLM_USBNET_ATTACHED:
		bqlm_unlink_urbs(dev);
		dev->unplug = BQLM_USBNET_UNPLUGGED;
		break;
	case BQLM_USBNET_UNPLUGGED:
		if (dev->admin == BQLM_USBNET_UP) {
			bqlm_usbnet_stop_step(dev, cfg);
			dev->unplug = BQLM_USBNET_UNREGISTER;
		} else {
			dev->unplug = BQLM_USBNET_UNREGISTERED;
		}
		break;
	case BQLM_USBNET_UNREGISTER:
		bqlm_usbnet_stop_step(dev, cfg);
		if (dev->admin == BQLM_USBNET_DOWN)
			dev->unplug = BQLM_USBNET_UNREGISTERED;
		break;
	case BQLM_USBNET_UNREGISTERED:
		if (cfg->disconnect_kill) {
			bqlm_usbnet_disconnect_kill(dev);
			dev->unplug = BQLM_USBNET_KILLED;
			break;
		}
		fallthrough;
	default:
		dev->kevent = 0;
		for (i = 0; i < dev->nr_skbs; i++)
			if (dev->skb[i].where == BQLM_USBNET_SKB_DEFERRED)
				bqlm_usbnet_free_skb(dev, i);
		dev->agg_cnt = 0;
		dev->agg_len = 0;
		ev->after_free = bqlm_usbnet_left_behind(dev);
		dev->unplug = BQLM_USBNET_GONE;
		break;
	}
	return 0;
}
