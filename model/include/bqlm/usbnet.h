/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the transmit side of drivers/net/usb/usbnet.c as an explicit
 * state system: the Linux 6.12 driver and the four BQL variants that
 * followed it upstream (see docs/usbnet.md).
 *
 * The whole driver state the transmit path touches is one fixed-size,
 * hashable struct bqlm_usbnet: the netdev queue (struct bqlm_txq, with its
 * DQL), where each skb/URB is (dev->deferred, dev->txq, completed by the
 * host controller, dev->done, in a usbnet_bh() run, gone), the two
 * contexts usbnet_bh() runs in (the bh work item and the dev->delay timer),
 * the transmit path in progress, the kevent work, the event flags, and the
 * progress of usbnet_stop(), usbnet_open(), usbnet_suspend() and
 * usbnet_resume(). Nothing in it is a pointer.
 *
 * Every actor of the kernel is a function named after the kernel function
 * it models, with the prefix bqlm_. A call runs the actor's next step: one
 * stretch of kernel code that no other actor can interleave with in the
 * kernel (because of the locks it holds) or in which interleaving does not
 * change the outcome. A call returns -EAGAIN when the actor cannot make its
 * next step now (it waits for a lock or a condition), and -EINVAL when it
 * has nothing to do. What a step did that the invariants need (a DQL call
 * that failed, skbs completed that were sent before a reset, ...) goes into
 * a struct bqlm_inv_step; bqlm_usbnet_check() then checks the invariants
 * of <bqlm/invariants.h> on the result.
 *
 * bqlm_usbnet_system() presents all of it to the explorer of
 * <bqlm/explore.h>: each actor that can make a step is one action.
 */
#ifndef _BQLM_USBNET_H
#define _BQLM_USBNET_H

#include <bqlm/types.h>
#include <bqlm/netdevice.h>
#include <bqlm/invariants.h>
#include <bqlm/explore.h>
#include <bqlm/options.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most variants the table may hold (arrays of the KUnit parameters). */
#define BQLM_USBNET_MAX_VARIANTS	32
/* Bound on the number of packets (and so of skbs) one exploration sends. */
#define BQLM_USBNET_MAX_PACKETS	6
/* Bound on the skb slots of a state (struct bqlm_usbnet_cfg.skbs). */
#define BQLM_USBNET_MAX_SKBS	16384
/*
 * skb->len, the transmit's and the aggregate's lengths are 16 bits in the
 * state (struct bqlm_usbnet_skb.len): the longest URB the model holds.
 */
#define BQLM_USBNET_MAX_SKB_LEN	0xffff
/*
 * Longest packet without a tx_fixup() (64 KB TSO less two bytes: the URB
 * gets usbnet's one-byte ZLP pad); bqlm_usbnet_max_len() is the limit of a
 * configuration's tx_fixup().
 */
#define BQLM_USBNET_MAX_LEN	(BQLM_USBNET_MAX_SKB_LEN - 1)
/* Bound on the number of packet lengths the stack chooses from. */
#define BQLM_USBNET_MAX_LENS	2

/**
 * enum bqlm_usbnet_variant - the variants code names: rows of
 *	bqlm_usbnet_options()'s profiles, which may hold more (a new variant
 *	is a row; bqlm_usbnet_nr_variants() counts them)
 * @BQLM_USBNET_NO_BQL: Linux 6.12, no BQL calls at all
 * @BQLM_USBNET_V1: the v1 patch: netdev_reset_queue() right after
 *	netif_stop_queue() in usbnet_stop() and in usbnet_open(),
 *	netdev_sent_queue() after __usbnet_queue_skb(), one summed
 *	netdev_completed_queue() per usbnet_bh() pass, without a lock
 * @BQLM_USBNET_MERGED: 7ff14c52049e (v2): v1 plus dev->bql_spinlock
 *	around the netdev_completed_queue() of usbnet_bh()
 * @BQLM_USBNET_FIX_RESET: merged plus e34f0df3d81a: the reset of
 *	usbnet_stop() moved after timer_delete_sync() and cancel_work_sync()
 * @BQLM_USBNET_FIXED: fix-reset plus c4efd7a770c5: usbnet_resume() calls
 *	netdev_sent_queue() for each deferred skb it puts on dev->txq
 * @BQLM_USBNET_FIXED_AVOID_UNLINK: fixed plus this project's fix of the
 *	FLAG_AVOID_UNLINK_URBS finding: usbnet_stop() waits for dev->txq and
 *	dev->done to drain without unlinking (docs/findings.md)
 * @BQLM_USBNET_FIXED_NCM_STOP: fixed-avoid-unlink plus the fix of the
 *	cdc_ncm finding: usbnet_start_xmit() drops unless EVENT_DEV_OPEN
 */
enum bqlm_usbnet_variant {
	BQLM_USBNET_NO_BQL,
	BQLM_USBNET_V1,
	BQLM_USBNET_MERGED,
	BQLM_USBNET_FIX_RESET,
	BQLM_USBNET_FIXED,
	BQLM_USBNET_FIXED_AVOID_UNLINK,
	BQLM_USBNET_FIXED_NCM_STOP
};

/**
 * enum bqlm_usbnet_fixup - what the minidriver's tx_fixup() does
 * @BQLM_USBNET_FIXUP_NONE: no tx_fixup() (cdc_ether, ...)
 * @BQLM_USBNET_FIXUP_PAD: tx_fixup() adds struct bqlm_usbnet_cfg.pad_header
 *	bytes (a header, a trailer, its own padding; cx82310_eth: 2), one
 *	count for every packet or one per packet length, so the URB is
 *	longer than the packet; usbnet then pads a transfer that is a
 *	multiple of maxpacket by one byte (no FLAG_MULTI_PACKET or
 *	FLAG_SEND_ZLP)
 * @BQLM_USBNET_FIXUP_MULTI: FLAG_MULTI_PACKET aggregation (cdc_ncm-like):
 *	tx_fixup() collects packets and returns NULL until it has two, then
 *	returns one aggregate skb framed as cdc_ncm's NTB16 (NTH16, an NDP16
 *	for two datagrams, 4-byte alignment); a timer flushes a
 *	partial aggregate by calling usbnet_start_xmit(NULL)
 * @BQLM_USBNET_NR_FIXUPS: number of fixup kinds
 */
enum bqlm_usbnet_fixup {
	BQLM_USBNET_FIXUP_NONE,
	BQLM_USBNET_FIXUP_PAD,
	BQLM_USBNET_FIXUP_MULTI,
	BQLM_USBNET_NR_FIXUPS
};

/**
 * enum bqlm_usbnet_status - URB completion statuses, by what tx_complete()
 *	does with them
 * @BQLM_USBNET_ST_OK: 0 (and -ESHUTDOWN, or any other status tx_complete()
 *	only counts): nothing but statistics
 * @BQLM_USBNET_ST_EPROTO: -EPROTO, -ETIME or -EILSEQ: throttle, i.e. arm
 *	dev->delay unless pending and netif_stop_queue()
 * @BQLM_USBNET_ST_EPIPE: -EPIPE: endpoint halted, EVENT_TX_HALT for the
 *	kevent work
 * @BQLM_USBNET_ST_UNLINKED: -ECONNRESET, the status of an URB that
 *	usb_unlink_urb() cancelled; only such URBs complete with it
 * @BQLM_USBNET_NR_STATUS: number of statuses
 */
enum bqlm_usbnet_status {
	BQLM_USBNET_ST_OK,
	BQLM_USBNET_ST_EPROTO,
	BQLM_USBNET_ST_EPIPE,
	BQLM_USBNET_ST_UNLINKED,
	BQLM_USBNET_NR_STATUS
};

/* The two contexts usbnet_bh() runs in. */
#define BQLM_USBNET_BH_WORK	0	/* dev->bh_work (a tasklet in 6.12) */
#define BQLM_USBNET_BH_TIMER	1	/* the dev->delay timer */
#define BQLM_USBNET_NR_BH	2

/* struct bqlm_usbnet_cfg.flags: the driver_info flags that matter here */
#define BQLM_USBNET_FLAG_AVOID_UNLINK_URBS	0x1
/*
 * FLAG_MULTI_PACKET without aggregation (asix, ax88172a): usbnet adds no
 * ZLP byte, the minidriver's tx_fixup() appends BQLM_USBNET_ASIX_FILL
 * bytes to a transfer that would fill its last packet. The multi fixup
 * (aggregation) implies the flag whether it is set or not.
 */
#define BQLM_USBNET_FLAG_MULTI_PACKET		0x2
#define BQLM_USBNET_ASIX_FILL			4
/*
 * FLAG_SEND_ZLP: the host controller ends a transfer that fills its last
 * packet with a zero-length packet (URB_ZERO_PACKET); usbnet adds no byte
 */
#define BQLM_USBNET_FLAG_SEND_ZLP		0x4

/*
 * struct bqlm_usbnet_cfg.pm: what a minidriver's own callbacks do around
 * usbnet's. RESUME_LINK: its resume() reports the link down first
 * (usbnet_link_change(dev, 0, 0), ax88179_178a): the carrier is off and
 * the kevent work queued (EVENT_LINK_CHANGE), with the resubmission.
 * RESUME_CARRIER: its resume() turns the carrier off (aqc111).
 * STOP_CARRIER: its stop() does (aqc111), in usbnet_stop()'s step after
 * usb_autopm_get_interface().
 * SUSPEND_IGNORES_BUSY: its suspend() returns 0 whatever usbnet_suspend()
 * returned (ax88179_178a): an autosuspend usbnet refused with -EBUSY is
 * one the USB core thinks done, and resumes later.
 * OWN_SUSPEND_FAILS: its own suspend work after a usbnet_suspend() that
 * succeeded fails (the device refuses a control transfer; smsc95xx): it
 * calls usbnet_resume() itself for an autosuspend, and for a system
 * suspend returns the error with usbnet left suspended.
 * LINK_RESET: its status() reports the link up with a reset
 * (usbnet_link_change(dev, 1, 1): EVENT_LINK_RESET, no
 * EVENT_LINK_CARRIER_ON), and the kevent work runs its link_reset(),
 * which reads the PHY and turns the carrier on when the device answers
 * (not once it is unplugged), before __handle_link_change()
 * (ax88179_178a).
 * LINK_RESET_BLIND: with LINK_RESET, STATUS_RESET or STATUS_CARRIER, its
 * link_reset() sets the carrier to the link also once the device is
 * unplugged (without it, the carrier stays as it is): its PHY read fails
 * with -ENODEV, which mii_link_ok() takes for a BMSR with BMSR_LSTATUS
 * (asix, sr9700, ch9200), or its carrier follows no read (aqc111: what
 * status() stored).
 * STATUS_RESET: its status() turns no carrier on or off: for the link up
 * and down alike it queues EVENT_LINK_RESET (usbnet_defer_kevent()), and
 * its link_reset() sets the carrier to the link the device reports
 * (smsc75xx: the PHY; aqc111: what status() stored); unplugged, its
 * first write fails and it returns, the carrier as it was (smsc75xx;
 * aqc111 is blind).
 * STATUS_CARRIER: its status() sets the carrier itself: on, and
 * EVENT_LINK_RESET queued, for the link up; off, and nothing queued, for
 * the link down (ch9200).
 * MANAGE_POWER: its driver_info's manage_power() leaves the interface
 * idle while it is open: usbnet_open() drops the PM usage count it took
 * (usb_autopm_put_interface()), and the USB core may autosuspend the open
 * device once no transmit holds the count (cdc_ncm, cdc_mbim, qmi_wwan,
 * cdc_ether, r8153_ecm, smsc75xx). Without it (no manage_power, or one
 * that keeps a count: smsc95xx on a chip without remote wakeup) the count
 * usbnet_open() took is held until the end of usbnet_stop(), and an
 * autosuspend comes only while the device is down
 * (bqlm_usbnet_pm_usage()).
 */
#define BQLM_USBNET_PM_RESUME_LINK		0x1
#define BQLM_USBNET_PM_RESUME_CARRIER		0x2
#define BQLM_USBNET_PM_STOP_CARRIER		0x4
#define BQLM_USBNET_PM_SUSPEND_IGNORES_BUSY	0x8
#define BQLM_USBNET_PM_OWN_SUSPEND_FAILS	0x10
#define BQLM_USBNET_PM_LINK_RESET		0x20
#define BQLM_USBNET_PM_LINK_RESET_BLIND		0x40
#define BQLM_USBNET_PM_STATUS_RESET		0x80
#define BQLM_USBNET_PM_STATUS_CARRIER		0x100
#define BQLM_USBNET_PM_MANAGE_POWER		0x200
/* The ways a minidriver's status() reports the link, one at most */
#define BQLM_USBNET_PM_LINK_REPORT					\
	(BQLM_USBNET_PM_LINK_RESET | BQLM_USBNET_PM_STATUS_RESET |	\
	 BQLM_USBNET_PM_STATUS_CARRIER)
/* The properties by which a minidriver's callbacks turn the carrier off */
#define BQLM_USBNET_PM_CARRIER_OFF					\
	(BQLM_USBNET_PM_RESUME_LINK | BQLM_USBNET_PM_RESUME_CARRIER |	\
	 BQLM_USBNET_PM_STOP_CARRIER)

/**
 * enum bqlm_usbnet_reset - where usbnet_stop() calls netdev_reset_queue()
 * @BQLM_USBNET_RESET_NONE: nowhere (no BQL)
 * @BQLM_USBNET_RESET_EARLY: right after netif_stop_queue(), before the
 *	URBs are unlinked and the bh, timer and kevent are stopped (v1,
 *	7ff14c52049e)
 * @BQLM_USBNET_RESET_LATE: after timer_delete_sync() and
 *	cancel_work_sync(), when no completion can run any more (e34f0df3d81a)
 * @BQLM_USBNET_NR_RESETS: number of places
 */
enum bqlm_usbnet_reset {
	BQLM_USBNET_RESET_NONE,
	BQLM_USBNET_RESET_EARLY,
	BQLM_USBNET_RESET_LATE,
	BQLM_USBNET_NR_RESETS
};

/**
 * enum bqlm_usbnet_drain - what usbnet_stop() does with the URBs of a
 *	FLAG_AVOID_UNLINK_URBS device (struct bqlm_usbnet_cfg.stop_drain)
 * @BQLM_USBNET_DRAIN_OFF: nothing (the kernel's usbnet_stop())
 * @BQLM_USBNET_DRAIN_WAIT: waits for dev->txq and dev->done to drain,
 *	unlinking nothing (the first fix proposed: ifdown waits for the
 *	device to complete its TX URBs)
 * @BQLM_USBNET_DRAIN_UNLINK: unlinks the TX URBs and waits for dev->txq
 *	and dev->done, as without the flag (the RX URBs, not modelled, stay
 *	submitted): the fix of real/patches/usbnet/fixed-avoid-unlink.patch
 */
enum bqlm_usbnet_drain {
	BQLM_USBNET_DRAIN_OFF,
	BQLM_USBNET_DRAIN_WAIT,
	BQLM_USBNET_DRAIN_UNLINK,
};

/**
 * struct bqlm_usbnet_cfg - what the model is run with
 * @variant: the variant (row of bqlm_usbnet_options()'s profiles) the
 *	configuration was made from; the model reads the properties below,
 *	never this
 * @fixup: what tx_fixup() does
 * @flags: BQLM_USBNET_FLAG_* (the multi fixup implies FLAG_MULTI_PACKET)
 * @packets: packets the stack sends at most, 1..BQLM_USBNET_MAX_PACKETS;
 *	0 is no bound (the simulator: its qdisc decides when a packet comes,
 *	and the explorer refuses such a configuration)
 * @skbs: skb slots in the state, 0 for @packets; at most
 *	BQLM_USBNET_MAX_SKBS. Slots are taken in order; once all have been
 *	used, a new skb takes the next freed slot after the last one taken
 * @tx_qlen: TX_QLEN(dev): usbnet stops the queue at this many URBs
 * @mtu_qlen: 0, or the TX_QLEN(dev) a run-time MTU change gives
 *	(usbnet_change_mtu() -> usbnet_update_max_qlen()): one such change
 *	may happen at any point of a run
 * @lens: the packet lengths the stack chooses from, in bytes, each
 *	1..bqlm_usbnet_max_len()
 * @nr_lens: how many of @lens, 1..BQLM_USBNET_MAX_LENS
 * @maxpacket: the bulk-out endpoint's wMaxPacketSize (ZLP padding)
 * @pad_header: bytes a BQLM_USBNET_FIXUP_PAD tx_fixup() adds, 0..64: one
 *	count for every packet, or one per length of @lens (smsc95xx: 8 for
 *	a packet, 12 for one with a checksum to offload)
 * @nr_pad_headers: how many of @pad_header, 1 or @nr_lens
 * @strip: bytes a BQLM_USBNET_FIXUP_MULTI tx_fixup() takes off each packet
 *	before framing it, 0..64 (cdc_mbim: the Ethernet header, 14)
 * @pm: BQLM_USBNET_PM_*: what the minidriver's suspend() and resume() add
 * @statuses: mask of BIT(enum bqlm_usbnet_status) a submitted URB may
 *	complete with; BQLM_USBNET_ST_OK is always included
 * @stops: usbnet_stop() calls (ifdown) allowed
 * @suspends: usbnet_suspend() calls allowed
 * @autosuspend: the suspends are runtime autosuspends (PMSG_AUTO_SUSPEND):
 *	usbnet_suspend() refuses one with -EBUSY while dev->txq holds an
 *	URB, and the device stays awake
 * @disconnect: the device may be unplugged at any step, once
 *	(usbnet_disconnect(), bqlm_usbnet_disconnect()); after it nothing
 *	may act on the device
 * @timeouts: usbnet_tx_timeout() calls (watchdog) allowed
 * @links: link-up reports allowed: the minidriver's status() sees the
 *	link up (usbnet_link_change(dev, 1, 0), or with pm link-reset
 *	usbnet_link_change(dev, 1, 1)) while its carrier is off; the kevent
 *	work turns the carrier on (with pm link-reset: its link_reset())
 * @link_downs: link-down reports allowed: the minidriver's status() sees
 *	the link down while its carrier is on: usbnet_link_change(dev, 0, x)
 *	turns the carrier off at once and queues the kevent work with
 *	EVENT_LINK_CHANGE (with pm status-reset or status-carrier, as they
 *	say)
 * @bql: usbnet calls the BQL functions (netdev_sent_queue(),
 *	netdev_completed_queue() in usbnet_bh(), netdev_reset_queue() in
 *	usbnet_stop() and usbnet_open())
 * @bql_lock: usbnet_bh() holds dev->bql_spinlock around
 *	netdev_completed_queue()
 * @stop_reset: enum bqlm_usbnet_reset
 * @resume_sent: usbnet_resume() calls netdev_sent_queue() for each
 *	deferred skb it puts on dev->txq
 * @stop_drain: enum bqlm_usbnet_drain: usbnet_stop() under
 *	FLAG_AVOID_UNLINK_URBS
 * @tx_stall: the device has stopped draining its bulk-out endpoint: a
 *	submitted TX URB completes only once unlinked (-ECONNRESET, or the
 *	flush's -ESHUTDOWN)
 * @disconnect_kill: usbnet_disconnect(), once unregister_netdev()
 *	returned, kills what is still queued, stops the bh and dev->delay
 *	(waiting for a run in progress) and frees the skbs left on dev->done
 * @xmit_open: usbnet_start_xmit() drops the skb, under dev->txq.lock,
 *	unless EVENT_DEV_OPEN is set
 * @hold_time: the DQL's slack hold time (jiffies)
 * @now: the jiffies value of every step (the model has no clock)
 */
struct bqlm_usbnet_cfg {
	enum bqlm_usbnet_variant variant;
	enum bqlm_usbnet_fixup fixup;
	unsigned int flags;
	unsigned int packets;
	unsigned int skbs;
	unsigned int tx_qlen;
	unsigned int mtu_qlen;
	unsigned int lens[BQLM_USBNET_MAX_LENS];
	unsigned int nr_lens;
	unsigned int maxpacket;
	unsigned int pad_header[BQLM_USBNET_MAX_LENS];
	unsigned int nr_pad_headers;
	unsigned int strip;
	unsigned int pm;
	unsigned int statuses;
	unsigned int stops;
	unsigned int suspends;
	unsigned int timeouts;
	unsigned int links;
	unsigned int link_downs;
	bool bql;
	bool bql_lock;
	bool resume_sent;
	enum bqlm_usbnet_drain stop_drain;
	bool tx_stall;
	bool disconnect_kill;
	bool xmit_open;
	bool autosuspend;
	bool disconnect;
	enum bqlm_usbnet_reset stop_reset;
	unsigned int hold_time;
	unsigned long now;
};

/**
 * struct bqlm_usbnet_skb - one skb with its URB
 * @len: skb->len as usbnet_start_xmit() left it (after tx_fixup() and ZLP
 *	padding): what netdev_sent_queue() and usbnet_bh() both count
 * @where: enum bqlm_usbnet_where, below
 * @flags: BQLM_USBNET_SKB_*
 * @next: on dev->done, the next skb's number plus one (0: the last);
 *	0 anywhere else
 */
struct bqlm_usbnet_skb {
	unsigned short len;
	unsigned char where;
	unsigned char flags;
	unsigned short next;
};

/* struct bqlm_usbnet_skb.where */
enum bqlm_usbnet_where {
	BQLM_USBNET_SKB_UNUSED,		/* not created yet */
	BQLM_USBNET_SKB_DEFERRED,	/* URB on dev->deferred (asleep) */
	BQLM_USBNET_SKB_TXQ,		/* submitted, on dev->txq */
	BQLM_USBNET_SKB_UNLINKED,	/* on dev->txq, usb_unlink_urb() done */
	BQLM_USBNET_SKB_COMPLETED,	/* tx_complete() ran, defer_bh() not */
	BQLM_USBNET_SKB_DONE,		/* on dev->done */
	BQLM_USBNET_SKB_BH,		/* dequeued and counted by usbnet_bh() */
	BQLM_USBNET_SKB_GONE,		/* freed */
	BQLM_USBNET_NR_WHERE
};

/**
 * bqlm_usbnet_skb_held() - does the device hold an skb at @where?
 * @where: enum bqlm_usbnet_where
 *
 * Return: true from submission (on dev->txq) until usbnet_bh() frees it:
 * what a netdev_reset_queue() makes stale and the ground truth counts.
 */
static inline bool bqlm_usbnet_skb_held(unsigned int where)
{
	return where >= BQLM_USBNET_SKB_TXQ && where <= BQLM_USBNET_SKB_BH;
}

/* struct bqlm_usbnet_skb.flags */
#define BQLM_USBNET_SKB_SENT	0x1	/* reported by netdev_sent_queue() */
#define BQLM_USBNET_SKB_STALE	0x2	/* in flight at the last reset */
#define BQLM_USBNET_SKB_TIMER	0x4	/* BH: counted by the timer's run */

/**
 * struct bqlm_usbnet_bh - one context usbnet_bh() runs in
 * @bytes: bytes_compl of the run in progress
 * @pkts: pkts_compl of the run in progress
 * @phase: enum bqlm_usbnet_bh_phase, below
 * @pending: the work is queued / the timer is armed (timer_pending())
 */
struct bqlm_usbnet_bh {
	unsigned int bytes;
	unsigned short pkts;
	unsigned char phase;
	unsigned char pending;
};

/* struct bqlm_usbnet_bh.phase: where a usbnet_bh() run is */
enum bqlm_usbnet_bh_phase {
	BQLM_USBNET_BH_IDLE,	/* not running */
	BQLM_USBNET_BH_LOOP,	/* skb_dequeue(&dev->done) loop */
	BQLM_USBNET_BH_ENTER,	/* about to call netdev_completed_queue() */
	BQLM_USBNET_BH_DQL,	/* in it, dql_completed() in progress */
	BQLM_USBNET_BH_WAKE,	/* in it, after dql_completed(): smp_mb() */
	BQLM_USBNET_NR_BH_PHASES
};

/* struct bqlm_usbnet.xmit: where the transmit path in progress is */
enum bqlm_usbnet_xmit_phase {
	BQLM_USBNET_XMIT_IDLE,		/* no usbnet_start_xmit() running */
	BQLM_USBNET_XMIT_FIXED,		/* tx_fixup() done, txq.lock next */
	BQLM_USBNET_XMIT_XOFF,		/* netdev_sent_queue(): over limit */
	BQLM_USBNET_XMIT_RECHECK,	/* netdev_sent_queue(): after smp_mb() */
	BQLM_USBNET_NR_XMIT
};

/*
 * struct bqlm_usbnet.admin: open (UP), closed (DOWN), or ifdown in
 * progress, each STOP_ value naming the step bqlm_usbnet_stop() takes next
 * (dev_close(), then usbnet_stop()'s steps, in order).
 */
enum bqlm_usbnet_admin {
	BQLM_USBNET_UP,
	BQLM_USBNET_STOP_CLOSE,
	BQLM_USBNET_STOP_PM,
	BQLM_USBNET_STOP_UNLINK,
	BQLM_USBNET_STOP_WAIT,
	BQLM_USBNET_STOP_TIMER,
	BQLM_USBNET_STOP_WORK,
	BQLM_USBNET_STOP_AGAIN,
	BQLM_USBNET_STOP_RESET,
	BQLM_USBNET_DOWN,
	BQLM_USBNET_NR_ADMIN
};

/* struct bqlm_usbnet.pm: usbnet_suspend() / usbnet_resume() progress */
enum bqlm_usbnet_pm {
	BQLM_USBNET_AWAKE,		/* resumed */
	BQLM_USBNET_PM_DETACHED,	/* EVENT_DEV_ASLEEP, detached */
	BQLM_USBNET_PM_WAIT,		/* tx URBs unlinked, waiting */
	BQLM_USBNET_SUSPENDED,		/* usbnet_suspend() returned */
	BQLM_USBNET_PM_RESUMING,	/* deferred URBs resubmitted */
	BQLM_USBNET_PM_UNDO,		/* own suspend failed, resubmitted */
	BQLM_USBNET_NR_PM
};

/*
 * struct bqlm_usbnet.unplug: the device going away (bqlm_usbnet_disconnect()),
 * each value naming the step the disconnect takes next
 */
enum bqlm_usbnet_unplug {
	BQLM_USBNET_ATTACHED,		/* plugged in */
	BQLM_USBNET_UNPLUGGED,		/* NOTATTACHED, every URB unlinked */
	BQLM_USBNET_UNREGISTER,		/* unregister_netdev() in usbnet_stop() */
	BQLM_USBNET_UNREGISTERED,	/* unregister_netdev() returned */
	BQLM_USBNET_KILLED,		/* disconnect_kill: bh, timer stopped */
	BQLM_USBNET_GONE,		/* free_netdev(): nothing may act */
	BQLM_USBNET_NR_UNPLUG
};

/* struct bqlm_usbnet.flags: the dev->flags bits the model uses */
#define BQLM_USBNET_EVENT_TX_HALT	0x1
#define BQLM_USBNET_EVENT_DEV_ASLEEP	0x2
#define BQLM_USBNET_EVENT_DEV_OPEN	0x4
#define BQLM_USBNET_EVENT_LINK_CHANGE	0x8
#define BQLM_USBNET_EVENT_LINK_CARRIER_ON	0x10
#define BQLM_USBNET_EVENT_LINK_RESET	0x20

/**
 * struct bqlm_usbnet - the state of one usbnet device's transmit side
 * @txq: the netdev queue, with its DQL
 * @bh: the usbnet_bh() contexts, BQLM_USBNET_BH_WORK and _TIMER
 * @xmit_len: the length tx_fixup() gave the skb being transmitted
 * @agg_len: bytes collected by a FLAG_MULTI_PACKET tx_fixup()
 * @done_head: dev->done, a FIFO linked through struct bqlm_usbnet_skb.next:
 *	the first skb's number plus one, 0 when empty
 * @done_tail: the last skb's number plus one, 0 when empty
 * @nr_done: skbs on dev->done
 * @nr_txq: skbs on dev->txq (dev->txq.qlen), kept with the skbs' @where
 * @nr_skbs: skb slots used so far (slots from @nr_skbs on are unused)
 * @next_slot: once every slot has been used, where the search for a freed
 *	slot starts; 0 until then
 * @xmit_skb: the skb whose netdev_sent_queue() is in progress
 * @nr_pkts: packets the stack sent so far (counted only with a bound)
 * @xmit: enum bqlm_usbnet_xmit_phase
 * @admin: enum bqlm_usbnet_admin
 * @pm: enum bqlm_usbnet_pm
 * @flags: BQLM_USBNET_EVENT_*
 * @running: netif_running(): __LINK_STATE_START, and the qdisc is active
 * @present: netif_device_present()
 * @kevent: the kevent work is queued
 * @agg_cnt: packets collected by a FLAG_MULTI_PACKET tx_fixup()
 * @stops_left: usbnet_stop() calls left in the bound
 * @suspends_left: usbnet_suspend() calls left in the bound
 * @timeouts_left: usbnet_tx_timeout() calls left in the bound
 * @xmit_ncm: the transmit in progress is the cdc_ncm flush's
 *	usbnet_start_xmit(NULL), not the qdisc's (it only names the steps)
 * @carrier: netif_carrier_ok(): the qdisc sends, the watchdog and the
 *	wake at the end of usbnet_bh() act, only with it
 * @links_left: link-up reports left in the bound
 * @link_downs_left: link-down reports left in the bound
 * @link: the link the minidriver's status() last saw (1 at the start),
 *	which a link_reset() sets the carrier to
 * @mtu_changed: usbnet_change_mtu() ran: TX_QLEN(dev) is cfg->mtu_qlen
 * @unplug: enum bqlm_usbnet_unplug
 * @suspend_count: usbnet's dev->suspend_count, the kernel's unsigned char
 *	(6.12): 1 from usbnet_suspend() to usbnet_resume(), 0 otherwise; out
 *	of step with @pm when a minidriver's suspend() tells the USB core
 *	otherwise, and 255 when a resume took it below 0
 * @skb: the skbs, cfg->skbs slots (bqlm_usbnet_size())
 *
 * Build it with bqlm_usbnet_init() in bqlm_usbnet_size() bytes and change
 * it only through the step functions: they keep padding and unused fields
 * zero, so that two equal states are equal byte for byte.
 */
struct bqlm_usbnet {
	struct bqlm_txq txq;
	struct bqlm_usbnet_bh bh[BQLM_USBNET_NR_BH];
	unsigned short xmit_len;
	unsigned short agg_len;
	unsigned short done_head;
	unsigned short done_tail;
	unsigned short nr_done;
	unsigned short nr_txq;
	unsigned short nr_skbs;
	unsigned short next_slot;
	unsigned short xmit_skb;
	unsigned char nr_pkts;
	unsigned char xmit;
	unsigned char admin;
	unsigned char pm;
	unsigned char flags;
	unsigned char running;
	unsigned char present;
	unsigned char kevent;
	unsigned char agg_cnt;
	unsigned char stops_left;
	unsigned char suspends_left;
	unsigned char timeouts_left;
	unsigned char xmit_ncm;
	unsigned char carrier;
	unsigned char links_left;
	unsigned char mtu_changed;
	unsigned char unplug;
	unsigned char suspend_count;
	unsigned char link_downs_left;
	unsigned char link;
#ifdef __cplusplus
	__extension__	/* a flexible array member: a GNU extension in C++ */
#endif
	struct bqlm_usbnet_skb skb[];
};

const struct bqlm_opts *bqlm_usbnet_options(void);
unsigned int bqlm_usbnet_nr_variants(void);
const char *bqlm_usbnet_variant_name(enum bqlm_usbnet_variant variant);
const char *bqlm_usbnet_variant_desc(enum bqlm_usbnet_variant variant);
int bqlm_usbnet_variant_by_name(const char *name);
void bqlm_usbnet_cfg_default(struct bqlm_usbnet_cfg *cfg,
			     enum bqlm_usbnet_variant variant);
int bqlm_usbnet_cfg_check(const struct bqlm_usbnet_cfg *cfg);
unsigned int bqlm_usbnet_max_len(const struct bqlm_usbnet_cfg *cfg,
				 unsigned int i);
unsigned int bqlm_usbnet_header(const struct bqlm_usbnet_cfg *cfg,
				unsigned int i);
size_t bqlm_usbnet_size(const struct bqlm_usbnet_cfg *cfg);
void bqlm_usbnet_init(struct bqlm_usbnet *dev,
		      const struct bqlm_usbnet_cfg *cfg);

/* The actors, one step per call. */
int bqlm_usbnet_start_xmit(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg, unsigned int len,
			   struct bqlm_inv_step *ev);
int bqlm_cdc_ncm_txpath_bh(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev);
int bqlm_tx_complete(struct bqlm_usbnet *dev,
		     const struct bqlm_usbnet_cfg *cfg, unsigned int skb,
		     enum bqlm_usbnet_status status,
		     struct bqlm_inv_step *ev);
int bqlm_defer_bh(struct bqlm_usbnet *dev, const struct bqlm_usbnet_cfg *cfg,
		  unsigned int skb, struct bqlm_inv_step *ev);
int bqlm_usbnet_bh(struct bqlm_usbnet *dev, const struct bqlm_usbnet_cfg *cfg,
		   unsigned int ctx, struct bqlm_inv_step *ev);
int bqlm_usbnet_deferred_kevent(struct bqlm_usbnet *dev,
				const struct bqlm_usbnet_cfg *cfg,
				struct bqlm_inv_step *ev);
int bqlm_usbnet_stop(struct bqlm_usbnet *dev,
		     const struct bqlm_usbnet_cfg *cfg,
		     struct bqlm_inv_step *ev);
int bqlm_usbnet_open(struct bqlm_usbnet *dev,
		     const struct bqlm_usbnet_cfg *cfg,
		     struct bqlm_inv_step *ev);
int bqlm_usbnet_tx_timeout(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev);
int bqlm_usbnet_suspend(struct bqlm_usbnet *dev,
			const struct bqlm_usbnet_cfg *cfg,
			struct bqlm_inv_step *ev);
int bqlm_usbnet_resume(struct bqlm_usbnet *dev,
		       const struct bqlm_usbnet_cfg *cfg,
		       struct bqlm_inv_step *ev);
int bqlm_usbnet_link_change(struct bqlm_usbnet *dev,
			    const struct bqlm_usbnet_cfg *cfg, bool link,
			    struct bqlm_inv_step *ev);
int bqlm_usbnet_change_mtu(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev);
unsigned int bqlm_usbnet_tx_qlen(const struct bqlm_usbnet *dev,
				 const struct bqlm_usbnet_cfg *cfg);
int bqlm_usbnet_disconnect(struct bqlm_usbnet *dev,
			   const struct bqlm_usbnet_cfg *cfg,
			   struct bqlm_inv_step *ev);

unsigned int bqlm_usbnet_inflight(const struct bqlm_usbnet *dev);
unsigned int bqlm_usbnet_next_skb(const struct bqlm_usbnet *dev,
				  const struct bqlm_usbnet_cfg *cfg);
unsigned int bqlm_usbnet_check(const struct bqlm_usbnet *dev,
			       const struct bqlm_usbnet_cfg *cfg,
			       const char *where,
			       const struct bqlm_inv_step *ev, bool quiescent,
			       struct bqlm_violation *each);

/* The explorer's view: action numbers are BQLM_X_ACTION(kind, argument). */
enum bqlm_usbnet_action_kind {
	BQLM_USBNET_A_XMIT = 1,		/* arg: length index (first step) */
	BQLM_USBNET_A_NCM_FLUSH,	/* cdc_ncm timer: start_xmit(NULL) */
	BQLM_USBNET_A_COMPLETE,		/* arg: skb * 4 + status */
	BQLM_USBNET_A_DEFER_BH,		/* arg: skb */
	BQLM_USBNET_A_BH,		/* arg: BQLM_USBNET_BH_* */
	BQLM_USBNET_A_KEVENT,
	BQLM_USBNET_A_STOP,
	BQLM_USBNET_A_OPEN,
	BQLM_USBNET_A_TX_TIMEOUT,
	BQLM_USBNET_A_SUSPEND,
	BQLM_USBNET_A_RESUME,
	BQLM_USBNET_A_LINK,		/* status(): arg 0 link up, 1 down */
	BQLM_USBNET_A_CHANGE_MTU,	/* usbnet_change_mtu(): new TX_QLEN */
	BQLM_USBNET_A_DISCONNECT,	/* unplug: usbnet_disconnect() */
	BQLM_USBNET_NR_A
};

int bqlm_usbnet_system(const struct bqlm_usbnet_cfg *cfg,
		       struct bqlm_xsys *sys);
bool bqlm_usbnet_action_valid(const struct bqlm_usbnet_cfg *cfg,
			      unsigned int action);

/* Schedules: a trace and its configuration as text (usbnet_schedule.c) */
int bqlm_usbnet_schedule_write(const struct bqlm_usbnet_cfg *cfg,
			       enum bqlm_check check,
			       const unsigned int *actions, unsigned int n,
			       bqlm_xemit_t emit, void *arg);
int bqlm_usbnet_schedule_parse(const char *text, struct bqlm_usbnet_cfg *cfg,
			       enum bqlm_check *check, unsigned int *actions,
			       unsigned int max, char *err, size_t errlen);
int bqlm_usbnet_schedule_parse_lines(const char *text,
				     struct bqlm_usbnet_cfg *cfg,
				     enum bqlm_check *check,
				     unsigned int *actions,
				     unsigned int *lines, unsigned int max,
				     char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_USBNET_H */
