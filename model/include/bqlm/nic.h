/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the transmit side of a NAPI Ethernet or virtual NIC driver as
 * an explicit state system, configurable to stand for a real driver.
 *
 * No single kernel file is modelled: the model is the pattern most BQL
 * users share (e1000e, igb, bnxt_en, mtk_eth_soc, virtio_net, ...), and
 * each of its actors is named after the kernel function, or the driver
 * hook, it stands for:
 *
 *   bqlm_ndo_start_xmit()      the stack's ndo_start_xmit(): descriptors,
 *                              netdev_tx_sent_queue() or
 *                              __netdev_tx_sent_queue() with xmit_more,
 *                              the doorbell, the ring-full stop
 *   bqlm_nic_dma_complete()    the device: DMA completes one descriptor,
 *                              in ring order, only after the doorbell;
 *                              the interrupt calls napi_schedule()
 *   bqlm_napi_poll()           the NAPI poll: clean up to a budget, one
 *                              netdev_tx_completed_queue() with the sum,
 *                              wake on room, napi_complete_done()
 *   bqlm_ndo_xdp_xmit()        XDP_TX / ndo_xdp_xmit() on a stack queue
 *   bqlm_napi_poll_cleantx()   the RX poll's tx cleanup under a trylock
 *   bqlm_nic_reset_path()      ndo_stop/ndo_open, ring reconfiguration
 *                              (ethtool -G, XDP or XSK attach), the tx
 *                              timeout recovery, suspend/resume: each a
 *                              configurable list of kernel calls
 *
 * The queue layer is model/kernel/netdevice.c (struct bqlm_txq, its DQL and
 * XOFF steps) and the checks are <bqlm/invariants.h>: the model only keeps the
 * ground truth next to them. Its options are named after the kernel patterns a
 * driver author recognises in their driver (docs/nic.md maps real drivers to
 * them); the profiles encode upstream BQL fixes as (bug, fix) pairs.
 */
#ifndef _BQLM_NIC_H
#define _BQLM_NIC_H

#include <bqlm/types.h>
#include <bqlm/netdevice.h>
#include <bqlm/invariants.h>
#include <bqlm/explore.h>
#include <bqlm/options.h>
#include <bqlm/memory_model.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BQLM_NIC_MAX_QUEUES	2
#define BQLM_NIC_MAX_RING	16	/* descriptors per tx ring */
#define BQLM_NIC_MAX_PACKETS	32
#define BQLM_NIC_MAX_DESCS	2	/* descriptors per packet */
#define BQLM_NIC_MAX_OPS	10	/* kernel calls per reset path */
#define BQLM_NIC_MAX_LEN	9000
/* the largest stop, restart or wake threshold, in free descriptors */
#define BQLM_NIC_MAX_THRESH	32
/* shared variables under the memory model: per queue, see BQLM_NIC_VAR() */
#define BQLM_NIC_NR_VARS	(3 * BQLM_NIC_MAX_QUEUES)
/* CPUs with a store buffer: the stack's, one per queue's completer */
#define BQLM_NIC_NR_CPUS	(1 + BQLM_NIC_MAX_QUEUES)

/**
 * enum bqlm_nic_sent - where netdev_tx_sent_queue() sits
 * @BQLM_NIC_SENT_BEFORE_DOORBELL: counted before the doorbell write, so no
 *	completion of the packet can precede it
 * @BQLM_NIC_SENT_AFTER_DOORBELL: counted after the doorbell: the device
 *	and the NAPI poll may complete the packet first
 * @BQLM_NIC_NR_SENT: number of values
 */
enum bqlm_nic_sent {
	BQLM_NIC_SENT_BEFORE_DOORBELL,
	BQLM_NIC_SENT_AFTER_DOORBELL,
	BQLM_NIC_NR_SENT
};

/**
 * enum bqlm_nic_sent_call - which sent call the driver makes
 * @BQLM_NIC_CALL_PLAIN: netdev_tx_sent_queue() (or netdev_sent_queue()):
 *	over the limit it sets STACK_XOFF, then smp_mb() and the re-check,
 *	whatever netdev_xmit_more() says (e1000e, igb, bnxt_en, mtk_eth_soc)
 * @BQLM_NIC_CALL_XMIT_MORE: __netdev_tx_sent_queue(txq, bytes, xmit_more)
 *	(or __netdev_sent_queue()): with xmit_more set it only counts, and
 *	returns whether the queue is stopped (mlx4_en, r8169, virtio_net)
 * @BQLM_NIC_NR_CALL: number of values
 */
enum bqlm_nic_sent_call {
	BQLM_NIC_CALL_PLAIN,
	BQLM_NIC_CALL_XMIT_MORE,
	BQLM_NIC_NR_CALL
};

/**
 * enum bqlm_nic_doorbell - when ndo_start_xmit() rings the doorbell
 * @BQLM_NIC_KICK_SENT_QUEUE: when __netdev_tx_sent_queue() returns true
 *	(evaluated where the sent call sits; needs BQLM_NIC_CALL_XMIT_MORE)
 * @BQLM_NIC_KICK_XMIT_STOPPED: !netdev_xmit_more() ||
 *	netif_xmit_stopped(txq), evaluated after the ring-full stop
 * @BQLM_NIC_KICK_XMIT_MORE: !netdev_xmit_more() only
 * @BQLM_NIC_KICK_ALWAYS: every packet (xmit_more ignored: stmmac)
 * @BQLM_NIC_NR_KICK: number of values
 */
enum bqlm_nic_doorbell {
	BQLM_NIC_KICK_SENT_QUEUE,
	BQLM_NIC_KICK_XMIT_STOPPED,
	BQLM_NIC_KICK_XMIT_MORE,
	BQLM_NIC_KICK_ALWAYS,
	BQLM_NIC_NR_KICK
};

/**
 * enum bqlm_nic_stopcheck - where the ring-full netif_tx_stop_queue() sits
 * @BQLM_NIC_STOP_BEFORE_SENT: before netdev_tx_sent_queue() (virtio_net)
 * @BQLM_NIC_STOP_AFTER_SENT: after it, before the doorbell (e1000e)
 * @BQLM_NIC_STOP_AFTER_DOORBELL: after the doorbell decision (mtk_eth_soc:
 *	mtk_start_xmit() stops after mtk_tx_map() rang or skipped it)
 * @BQLM_NIC_STOP_NONE: no stop after a packet: only the NETDEV_TX_BUSY
 *	path at the start of ndo_start_xmit() stops the queue (idpf's
 *	maybe-stop before the descriptors; see enum bqlm_nic_busy)
 * @BQLM_NIC_NR_STOP: number of values
 */
enum bqlm_nic_stopcheck {
	BQLM_NIC_STOP_BEFORE_SENT,
	BQLM_NIC_STOP_AFTER_SENT,
	BQLM_NIC_STOP_AFTER_DOORBELL,
	BQLM_NIC_STOP_NONE,
	BQLM_NIC_NR_STOP
};

/**
 * enum bqlm_nic_xdp - how XDP_TX frames on a stack queue meet BQL
 * @BQLM_NIC_XDP_UNCOUNTED: neither reported sent nor completed (the
 *	completion tells them from skbs by a per-buffer tag: virtio_net's
 *	is_xdp_frame(), stmmac's STMMAC_TXBUF_T_XDP_TX)
 * @BQLM_NIC_XDP_COUNTED: reported sent and completed like skbs (igb)
 * @BQLM_NIC_XDP_COMPLETED_ONLY: not reported sent, but the completion
 *	counts their bytes: no tag tells them from skbs
 * @BQLM_NIC_NR_XDP: number of values
 */
enum bqlm_nic_xdp {
	BQLM_NIC_XDP_UNCOUNTED,
	BQLM_NIC_XDP_COUNTED,
	BQLM_NIC_XDP_COMPLETED_ONLY,
	BQLM_NIC_NR_XDP
};

/**
 * enum bqlm_nic_completers - who calls netdev_tx_completed_queue()
 * @BQLM_NIC_COMPLETE_NAPI: the NAPI poll only
 * @BQLM_NIC_COMPLETE_NAPI_XMIT: the NAPI poll, and ndo_start_xmit()
 *	cleans the ring first (virtio_net's free_old_xmit())
 * @BQLM_NIC_NR_COMPLETE: number of values
 */
enum bqlm_nic_completers {
	BQLM_NIC_COMPLETE_NAPI,
	BQLM_NIC_COMPLETE_NAPI_XMIT,
	BQLM_NIC_NR_COMPLETE
};

/**
 * enum bqlm_nic_bytes - what the poll reports to netdev_tx_completed_queue()
 * @BQLM_NIC_BYTES_SKB_LEN: skb->len of each skb freed in the poll
 * @BQLM_NIC_BYTES_BD_SUM: the per-descriptor lengths of every descriptor
 *	cleaned in the poll, reported only if a whole packet was freed
 *	(axienet before d1978d03e867)
 * @BQLM_NIC_BYTES_ZERO_SOME: a length stored per buffer at transmit time,
 *	which one packet in two lacks (0 is reported for it): the completed
 *	bytes come from another source than the sent ones (mcp251xfd's echo
 *	skb length before 2afe72ead5ab)
 * @BQLM_NIC_NR_BYTES: number of values
 */
enum bqlm_nic_bytes {
	BQLM_NIC_BYTES_SKB_LEN,
	BQLM_NIC_BYTES_BD_SUM,
	BQLM_NIC_BYTES_ZERO_SOME,
	BQLM_NIC_NR_BYTES
};

/**
 * enum bqlm_nic_gso - the byte count of a GSO/TSO packet on each side
 * @BQLM_NIC_GSO_SAME: netdev_tx_sent_queue() and the completion count the
 *	same bytes for a packet (skb->len on both, or the wire bytes on
 *	both)
 * @BQLM_NIC_GSO_COMPLETED_WIRE: sent skb->len, completed the segmented
 *	wire bytes: skb->len plus the headers of the segments after the
 *	first (BQLM_NIC_GSO_HDRS)
 * @BQLM_NIC_GSO_SENT_WIRE: the reverse: sent the wire bytes, completed
 *	skb->len
 * @BQLM_NIC_NR_GSO: number of values
 */
enum bqlm_nic_gso {
	BQLM_NIC_GSO_SAME,
	BQLM_NIC_GSO_COMPLETED_WIRE,
	BQLM_NIC_GSO_SENT_WIRE,
	BQLM_NIC_NR_GSO
};

/*
 * The headers a GSO packet of two segments carries once more on the wire
 * than in skb->len: Ethernet, IPv4 and TCP with timestamps (14 + 20 + 32)
 */
#define BQLM_NIC_GSO_HDRS	66

/**
 * enum bqlm_nic_map - how the stack's packets map to the tx queues
 * @BQLM_NIC_MAP_RR: one flow per xmit_more batch, the batches spread over
 *	the queues in turn (skb_tx_hash() of distinct flows)
 * @BQLM_NIC_MAP_Q0: every packet on queue 0 (one flow)
 * @BQLM_NIC_NR_MAP: number of values
 */
enum bqlm_nic_map {
	BQLM_NIC_MAP_RR,
	BQLM_NIC_MAP_Q0,
	BQLM_NIC_NR_MAP
};

/**
 * enum bqlm_nic_drv_stop - how ndo_start_xmit()'s ring-full stop is written
 * @BQLM_NIC_DSTOP_HELPER: netif_txq_maybe_stop(): netif_tx_stop_queue(),
 *	smp_mb__after_atomic(), re-check the free descriptors and
 *	netif_tx_start_queue() if another CPU made room (netdev_queues.h)
 * @BQLM_NIC_DSTOP_NO_MB: the same without the barrier (tg3 before
 *	1b2a720506cc)
 * @BQLM_NIC_DSTOP_NO_RECHECK: netif_tx_stop_queue() alone (bgmac)
 * @BQLM_NIC_DSTOP_IGNORE_RESTART: the helper, but its "restarted" result
 *	(-1) read as "stopped": the queue is stopped again (idpf before
 *	e4b398dd82f5)
 * @BQLM_NIC_NR_DSTOP: number of values
 */
enum bqlm_nic_drv_stop {
	BQLM_NIC_DSTOP_HELPER,
	BQLM_NIC_DSTOP_NO_MB,
	BQLM_NIC_DSTOP_NO_RECHECK,
	BQLM_NIC_DSTOP_IGNORE_RESTART,
	BQLM_NIC_NR_DSTOP
};

/**
 * enum bqlm_nic_drv_wake - how the completion's wake is written
 * @BQLM_NIC_DWAKE_HELPER: netif_txq_completed_wake(): the consumer index
 *	is stored before netdev_tx_completed_queue(), whose smp_mb() orders
 *	it before the netif_tx_queue_stopped() test (netdev_queues.h)
 * @BQLM_NIC_DWAKE_NO_MB: netdev_tx_completed_queue() first, then the
 *	consumer index store and the test with no barrier between them (tg3
 *	before 1b2a720506cc)
 * @BQLM_NIC_NR_DWAKE: number of values
 */
enum bqlm_nic_drv_wake {
	BQLM_NIC_DWAKE_HELPER,
	BQLM_NIC_DWAKE_NO_MB,
	BQLM_NIC_NR_DWAKE
};

/**
 * enum bqlm_nic_down - the down condition of the completion's wake
 *	(__netif_txq_completed_wake()'s down_cond)
 * @BQLM_NIC_DOWN_PATH: no wake while the device is down or a reset path
 *	runs (the driver's own flag: __E1000_DOWN, tx_queues_active,
 *	BNXT_DEV_STATE_CLOSING)
 * @BQLM_NIC_DOWN_NONE: no such flag: the completion wakes a queue the
 *	reset path stopped (ibmvnic before 4219196d1f66)
 * @BQLM_NIC_DOWN_INVERTED: the test inverted: a wake only while down
 * @BQLM_NIC_NR_DOWN: number of values
 */
enum bqlm_nic_down {
	BQLM_NIC_DOWN_PATH,
	BQLM_NIC_DOWN_NONE,
	BQLM_NIC_DOWN_INVERTED,
	BQLM_NIC_NR_DOWN
};

/* struct bqlm_nic_cfg.wakers: the completers that test and wake the queue */
#define BQLM_NIC_WAKER_NAPI	0x1	/* the tx NAPI poll (or IRQ handler) */
#define BQLM_NIC_WAKER_RX	0x2	/* the RX poll's tx cleanup */
#define BQLM_NIC_WAKERS_ALL	0x3

/**
 * enum bqlm_nic_drv_queue - which queue the driver's stop and wake act on
 * @BQLM_NIC_DQUEUE_OWN: the ring's own (netif_stop_subqueue(dev, ring))
 * @BQLM_NIC_DQUEUE_Q0: queue 0 whatever the ring (netif_stop_queue(dev),
 *	netif_wake_queue(dev) in a multiqueue driver)
 * @BQLM_NIC_DQUEUE_STOP_Q0: the stop on queue 0, the wake on the ring's
 *	own (a multiqueue driver whose BUSY path calls netif_stop_queue(dev))
 * @BQLM_NIC_NR_DQUEUE: number of values
 */
enum bqlm_nic_drv_queue {
	BQLM_NIC_DQUEUE_OWN,
	BQLM_NIC_DQUEUE_Q0,
	BQLM_NIC_DQUEUE_STOP_Q0,
	BQLM_NIC_NR_DQUEUE
};

/**
 * enum bqlm_nic_steps - how finely the driver's stop and wake are cut
 * @BQLM_NIC_STEPS_AUTO: at their barriers whenever they can go wrong:
 *	under a memory model weaker than sc, or with any stop or wake option
 *	other than the helpers'; the helpers under sc run as one step each
 *	(the model before the split, with its state counts); the completers
 *	that wake (--wakers) cut too when not all of them wake
 * @BQLM_NIC_STEPS_SPLIT: at their barriers always
 * @BQLM_NIC_NR_STEPS: number of values
 */
enum bqlm_nic_steps {
	BQLM_NIC_STEPS_AUTO,
	BQLM_NIC_STEPS_SPLIT,
	BQLM_NIC_NR_STEPS
};

/**
 * enum bqlm_nic_busy - ndo_start_xmit() called with no room
 * @BQLM_NIC_BUSY_NONE: the stack holds the packet until there is room (a
 *	requeue with no effect on the model's state; the default)
 * @BQLM_NIC_BUSY_STOP: netif_tx_stop_queue() and NETDEV_TX_BUSY, no
 *	re-check (bnxt_en before 3c603136c9f8)
 * @BQLM_NIC_BUSY_TRY_STOP: netif_txq_try_stop(): stop, barrier, re-check;
 *	NETDEV_TX_BUSY if still full, else the packet is sent
 * @BQLM_NIC_NR_BUSY: number of values
 */
enum bqlm_nic_busy {
	BQLM_NIC_BUSY_NONE,
	BQLM_NIC_BUSY_STOP,
	BQLM_NIC_BUSY_TRY_STOP,
	BQLM_NIC_NR_BUSY
};

/**
 * enum bqlm_nic_stop_kick - a doorbell xmit_more deferred, at the ring-full
 *	stop
 * @BQLM_NIC_SKICK_NONE: the stop rings nothing: the doorbell decision
 *	(cfg->doorbell) alone rings, before or after the stop as
 *	cfg->stopcheck puts it
 * @BQLM_NIC_SKICK_RING: the ring-full stop rings a doorbell xmit_more
 *	deferred (a driver that kicks the pending descriptors when it stops)
 * @BQLM_NIC_NR_SKICK: number of values
 */
enum bqlm_nic_stop_kick {
	BQLM_NIC_SKICK_NONE,
	BQLM_NIC_SKICK_RING,
	BQLM_NIC_NR_SKICK
};

/**
 * enum bqlm_nic_kick_on_err - a doorbell xmit_more deferred, on an error exit
 * @BQLM_NIC_EKICK_RING: rung on every error exit, drop or NETDEV_TX_BUSY
 *	(mlx5e_tx_flush(), bnxt's kick_pending)
 * @BQLM_NIC_EKICK_SKIP: not rung: the batch's descriptors wait for a
 *	doorbell that never comes (mlx5e before 5b759bf2f9d7, bnxt_en
 *	before e8d8c5d80f5e)
 * @BQLM_NIC_NR_EKICK: number of values
 */
enum bqlm_nic_kick_on_err {
	BQLM_NIC_EKICK_RING,
	BQLM_NIC_EKICK_SKIP,
	BQLM_NIC_NR_EKICK
};

/**
 * enum bqlm_nic_drop - where a dropped packet (a DMA mapping error) is
 *	dropped, for the cfg->drops packets the explorer may drop
 * @BQLM_NIC_DROP_BEFORE_SENT: before any descriptor or the sent call: the
 *	packet is freed, NETDEV_TX_OK
 * @BQLM_NIC_DROP_AFTER_SENT: after netdev_tx_sent_queue(): the
 *	descriptors are unwound and the skb freed, its bytes stay counted
 * @BQLM_NIC_DROP_AFTER_SENT_COMPLETE: the same, and the unwind reports
 *	the bytes with netdev_tx_completed_queue() from ndo_start_xmit()
 * @BQLM_NIC_NR_DROP: number of values
 */
enum bqlm_nic_drop {
	BQLM_NIC_DROP_BEFORE_SENT,
	BQLM_NIC_DROP_AFTER_SENT,
	BQLM_NIC_DROP_AFTER_SENT_COMPLETE,
	BQLM_NIC_NR_DROP
};

/**
 * enum bqlm_nic_notify - what a completion's notification does
 * @BQLM_NIC_NOTIFY_IRQ: every completion schedules the queue's NAPI unless
 *	NAPI is disabled; napi_complete_done() re-arms the interrupt
 * @BQLM_NIC_NOTIFY_VQ_CB: virtio's used-buffer notifications: one fires
 *	only while the driver has callbacks enabled, and its callback
 *	(skb_xmit_done()) disables them. The NAPI poll disables them when it
 *	starts and enables them at its end (virtqueue_enable_cb_prepare());
 *	ndo_start_xmit() disables them, and enables them again unless
 *	xmit_more is set, and when it stops the queue
 *	(virtqueue_enable_cb_delayed()); the RX poll's tx cleanup enables
 *	them. A notification while the NAPI is scheduled, running or
 *	disabled sets NAPIF_STATE_MISSED, which makes napi_complete_done()
 *	schedule the poll once more. napi_enable() schedules the poll and
 *	disables callbacks; when the device comes up, the RX NAPI, enabled
 *	just before, runs its poll, and with it the tx cleanup, at once
 *	(virtnet_napi_enable()'s local_bh_enable()). A freeze deletes the
 *	NAPIs (a missed notification is forgotten); a virtqueue in reset has
 *	callbacks enabled
 * @BQLM_NIC_NR_NOTIFY: number of values
 */
enum bqlm_nic_notify {
	BQLM_NIC_NOTIFY_IRQ,
	BQLM_NIC_NOTIFY_VQ_CB,
	BQLM_NIC_NR_NOTIFY
};

/**
 * enum bqlm_nic_completion - where the tx completion runs
 * @BQLM_NIC_COMPLETION_NAPI: a NAPI poll, scheduled by the interrupt,
 *	stopped by napi_disable()
 * @BQLM_NIC_COMPLETION_IRQ: the hard IRQ handler itself (ibmvnic's
 *	ibmvnic_interrupt_tx(), a dmaengine callback): no tx lock, not
 *	stopped by napi_disable(), only by the path call irq-off
 * @BQLM_NIC_NR_COMPLETION: number of values
 */
enum bqlm_nic_completion {
	BQLM_NIC_COMPLETION_NAPI,
	BQLM_NIC_COMPLETION_IRQ,
	BQLM_NIC_NR_COMPLETION
};

/**
 * enum bqlm_nic_complete_queue - the queue a completion reports to
 * @BQLM_NIC_CQUEUE_OWN: the queue whose ring it cleaned
 * @BQLM_NIC_CQUEUE_OTHER: the next queue: the completion computes its
 *	netdev queue another way than the transmit (airoha before
 *	2d9f5a118205: sent on queue_mapping % rings, completed on
 *	queue_mapping)
 * @BQLM_NIC_NR_CQUEUE: number of values
 */
enum bqlm_nic_complete_queue {
	BQLM_NIC_CQUEUE_OWN,
	BQLM_NIC_CQUEUE_OTHER,
	BQLM_NIC_NR_CQUEUE
};

/**
 * enum bqlm_nic_index - when the producer index the completion is bounded
 *	by is published
 * @BQLM_NIC_INDEX_DESCS: with the descriptors, before the doorbell
 * @BQLM_NIC_INDEX_AFTER_DOORBELL: in a step of its own after the doorbell:
 *	a poll between sees the device's completion but cleans nothing
 *	(hns3 before 61a1deacc3d4)
 * @BQLM_NIC_NR_INDEX: number of values
 */
enum bqlm_nic_index {
	BQLM_NIC_INDEX_DESCS,
	BQLM_NIC_INDEX_AFTER_DOORBELL,
	BQLM_NIC_NR_INDEX
};

/**
 * enum bqlm_nic_timeout_test - which queues ndo_tx_timeout() takes as hung
 * @BQLM_NIC_TTEST_XMIT_STOPPED: netif_xmit_stopped(): DRV_XOFF or
 *	STACK_XOFF, as dev_watchdog() and hns3_get_timeout_queue() test
 * @BQLM_NIC_TTEST_QUEUE_STOPPED: netif_tx_queue_stopped(): DRV_XOFF only;
 *	a queue BQL stopped is not found and the handler returns
 * @BQLM_NIC_NR_TTEST: number of values
 */
enum bqlm_nic_timeout_test {
	BQLM_NIC_TTEST_XMIT_STOPPED,
	BQLM_NIC_TTEST_QUEUE_STOPPED,
	BQLM_NIC_NR_TTEST
};

/**
 * enum bqlm_nic_op - the kernel calls a reset path is made of
 * @BQLM_NIC_OP_STOP: netif_tx_disable(): DRV_XOFF on every queue, under
 *	each queue's tx lock
 * @BQLM_NIC_OP_NAPI_OFF: napi_disable(): waits for a running poll
 * @BQLM_NIC_OP_DMA_OFF: the device's DMA is stopped (reset, vq reset,
 *	the per-queue ring disable); a hung device runs again after it
 * @BQLM_NIC_OP_DRAIN: every tx buffer freed without a completion
 *	(e1000_clean_tx_ring(), free_unused_bufs(), virtqueue_resize()); if
 *	the DMA still runs, the device keeps the descriptors it was given
 *	and may still complete them
 * @BQLM_NIC_OP_RESET: netdev_tx_reset_queue() on every tx queue
 * @BQLM_NIC_OP_RESET0: netdev_reset_queue(dev): queue 0 only
 * @BQLM_NIC_OP_DMA_ON: the device runs again, with an empty ring
 *	if it was drained
 * @BQLM_NIC_OP_NAPI_ON: napi_enable() and napi_schedule()
 * @BQLM_NIC_OP_WAKE: netif_tx_wake_all_queues()
 * @BQLM_NIC_OP_STOP0: netif_stop_queue(dev): queue 0 only
 * @BQLM_NIC_OP_WAKE0: netif_wake_queue(dev): queue 0 only
 * @BQLM_NIC_OP_DRAIN0: queue 0's ring freed without a completion (a
 *	per-queue reconfiguration)
 * @BQLM_NIC_OP_RESET_IDLE: netdev_tx_reset_queue() on each queue whose
 *	ring holds nothing ("reset only if idle")
 * @BQLM_NIC_OP_COMPLETE: every tx buffer freed and reported with
 *	netdev_tx_completed_queue() (a forced reclaim: bcm_enet_tx_reclaim()
 *	with force, hip04_tx_reclaim())
 * @BQLM_NIC_OP_IRQ_OFF: disable_irq(): waits for a running tx IRQ
 *	handler (with --completion irq)
 * @BQLM_NIC_OP_IRQ_ON: enable_irq(): a pending interrupt fires
 * @BQLM_NIC_NR_OPS: number of calls
 */
enum bqlm_nic_op {
	BQLM_NIC_OP_STOP,
	BQLM_NIC_OP_NAPI_OFF,
	BQLM_NIC_OP_DMA_OFF,
	BQLM_NIC_OP_DRAIN,
	BQLM_NIC_OP_RESET,
	BQLM_NIC_OP_RESET0,
	BQLM_NIC_OP_DMA_ON,
	BQLM_NIC_OP_NAPI_ON,
	BQLM_NIC_OP_WAKE,
	BQLM_NIC_OP_STOP0,
	BQLM_NIC_OP_WAKE0,
	BQLM_NIC_OP_DRAIN0,
	BQLM_NIC_OP_RESET_IDLE,
	BQLM_NIC_OP_COMPLETE,
	BQLM_NIC_OP_IRQ_OFF,
	BQLM_NIC_OP_IRQ_ON,
	BQLM_NIC_NR_OPS
};

/**
 * enum bqlm_nic_path - the reset paths
 * @BQLM_NIC_PATH_CLOSE: ndo_stop() (after dev_close() deactivated the qdisc)
 * @BQLM_NIC_PATH_OPEN: ndo_open() after a close
 * @BQLM_NIC_PATH_RECONFIG: a ring reconfiguration on a running device:
 *	ethtool -G, XDP program or XSK pool attach/detach
 * @BQLM_NIC_PATH_TIMEOUT: ndo_tx_timeout() recovery (the watchdog fires
 *	while a queue is stopped)
 * @BQLM_NIC_PATH_SUSPEND: the suspend (or freeze) callback
 * @BQLM_NIC_PATH_RESUME: the resume (or restore) callback
 * @BQLM_NIC_NR_PATHS: number of paths
 */
enum bqlm_nic_path {
	BQLM_NIC_PATH_CLOSE,
	BQLM_NIC_PATH_OPEN,
	BQLM_NIC_PATH_RECONFIG,
	BQLM_NIC_PATH_TIMEOUT,
	BQLM_NIC_PATH_SUSPEND,
	BQLM_NIC_PATH_RESUME,
	BQLM_NIC_NR_PATHS
};

/**
 * struct bqlm_nic_cfg - the driver pattern and the bound
 * @queues: tx queues, 1..BQLM_NIC_MAX_QUEUES, each with its DQL
 * @map: enum bqlm_nic_map
 * @packets: packets the stack sends, 1..BQLM_NIC_MAX_PACKETS
 * @len: bytes per packet (skb->len), 1..BQLM_NIC_MAX_LEN
 * @descs: descriptors per packet, 1..BQLM_NIC_MAX_DESCS
 * @ring: descriptors per tx ring, @descs..BQLM_NIC_MAX_RING
 * @batch: packets per xmit_more batch, 1..BQLM_NIC_MAX_RING (1: xmit_more
 *	never set)
 * @budget: packets a NAPI poll cleans at most, 1..BQLM_NIC_MAX_RING
 * @sent: enum bqlm_nic_sent
 * @sent_call: enum bqlm_nic_sent_call
 * @doorbell: enum bqlm_nic_doorbell
 * @stopcheck: enum bqlm_nic_stopcheck
 * @completers: enum bqlm_nic_completers
 * @napi_txlock: the NAPI poll holds the queue's tx lock (__netif_tx_lock)
 * @rx_cleanup: the RX poll also cleans the tx ring and completes, under
 *	__netif_tx_trylock(), skipping when the lock is busy (virtio_net's
 *	virtnet_poll_cleantx())
 * @bytes: enum bqlm_nic_bytes
 * @gso: enum bqlm_nic_gso
 * @xdp_frames: XDP_TX frames sent on the last queue (shared with the
 *	stack), 0..2
 * @xdp: enum bqlm_nic_xdp
 * @xdp_cleans: the XDP transmit first cleans and completes the queue's
 *	ring under its tx lock (virtio_net's __free_old_xmit() in
 *	virtnet_xdp_xmit())
 * @mm: enum bqlm_mm_kind: the memory model of the driver's stop and wake
 * @drv_stop: enum bqlm_nic_drv_stop
 * @drv_wake: enum bqlm_nic_drv_wake
 * @stop_thresh: ndo_start_xmit() stops below this many free descriptors
 *	(netif_txq_maybe_stop()'s stop_thrs); 0: @descs
 * @restart_thresh: its re-check restarts at this many (start_thrs); 0:
 *	the wake threshold
 * @wake_thresh: the completion wakes at this many
 *	(netif_txq_completed_wake()'s start_thrs); 0: @descs
 * @down: enum bqlm_nic_down
 * @wakers: BQLM_NIC_WAKER_* of the completers that wake the queue
 * @drv_queue: enum bqlm_nic_drv_queue
 * @steps: enum bqlm_nic_steps
 * @busy: enum bqlm_nic_busy
 * @err_kick: enum bqlm_nic_kick_on_err
 * @stop_kick: enum bqlm_nic_stop_kick
 * @drops: packets the explorer may drop in ndo_start_xmit(), 0..2
 * @drop: enum bqlm_nic_drop
 * @completion: enum bqlm_nic_completion
 * @notify: enum bqlm_nic_notify
 * @complete_queue: enum bqlm_nic_complete_queue
 * @index: enum bqlm_nic_index
 * @hangs: times the device may hang (complete nothing until its DMA is
 *	reset), 0..1; the tx watchdog is then relied on to recover it
 * @timeout_test: enum bqlm_nic_timeout_test
 * @ops: for each enum bqlm_nic_path, its enum bqlm_nic_op calls in order
 * @nr_ops: for each path, how many of @ops
 * @stops: close/open cycles allowed, 0..2
 * @reconfigs: ring reconfigurations allowed, 0..2
 * @timeouts: tx timeout recoveries allowed, 0..2
 * @suspends: suspend/resume cycles allowed, 0..2
 * @hold_time: the DQL slack hold time (jiffies)
 * @now: the jiffies value of every step
 */
struct bqlm_nic_cfg {
	unsigned int queues;
	enum bqlm_nic_map map;
	unsigned int packets;
	unsigned int len;
	unsigned int descs;
	unsigned int ring;
	unsigned int batch;
	unsigned int budget;
	enum bqlm_nic_sent sent;
	enum bqlm_nic_sent_call sent_call;
	enum bqlm_nic_doorbell doorbell;
	enum bqlm_nic_stopcheck stopcheck;
	enum bqlm_nic_completers completers;
	bool napi_txlock;
	bool rx_cleanup;
	enum bqlm_nic_bytes bytes;
	enum bqlm_nic_gso gso;
	unsigned int xdp_frames;
	enum bqlm_nic_xdp xdp;
	bool xdp_cleans;
	enum bqlm_mm_kind mm;
	enum bqlm_nic_drv_stop drv_stop;
	enum bqlm_nic_drv_wake drv_wake;
	unsigned int stop_thresh;
	unsigned int restart_thresh;
	unsigned int wake_thresh;
	enum bqlm_nic_down down;
	unsigned int wakers;
	enum bqlm_nic_drv_queue drv_queue;
	enum bqlm_nic_steps steps;
	enum bqlm_nic_busy busy;
	enum bqlm_nic_kick_on_err err_kick;
	enum bqlm_nic_stop_kick stop_kick;
	unsigned int drops;
	enum bqlm_nic_drop drop;
	enum bqlm_nic_completion completion;
	enum bqlm_nic_notify notify;
	enum bqlm_nic_complete_queue complete_queue;
	enum bqlm_nic_index index;
	unsigned int hangs;
	enum bqlm_nic_timeout_test timeout_test;
	unsigned char ops[BQLM_NIC_NR_PATHS][BQLM_NIC_MAX_OPS];
	unsigned int nr_ops[BQLM_NIC_NR_PATHS];
	unsigned int stops;
	unsigned int reconfigs;
	unsigned int timeouts;
	unsigned int suspends;
	unsigned int hold_time;
	unsigned long now;
};

/* struct bqlm_nic_pkt.flags */
#define BQLM_NIC_PKT_SENT	0x01	/* reported by netdev_tx_sent_queue() */
#define BQLM_NIC_PKT_STALE	0x02	/* sent before the last reset */
#define BQLM_NIC_PKT_XDP	0x04	/* an XDP frame, not an skb */
#define BQLM_NIC_PKT_KICKED	0x08	/* the doorbell covers it */
#define BQLM_NIC_PKT_HIDDEN	0x10	/* not yet published by the producer
					 * index (BQLM_NIC_INDEX_AFTER_DOORBELL)
					 */
#define BQLM_NIC_PKT_NOLEN	0x20	/* completes with 0 bytes
					 * (BQLM_NIC_BYTES_ZERO_SOME)
					 */

/**
 * struct bqlm_nic_pkt - one packet (skb or XDP frame) on a tx ring
 * @done: descriptors the device has completed
 * @cleaned: descriptors the driver has cleaned
 * @flags: BQLM_NIC_PKT_*
 *
 * Its length is the configuration's (cfg->len), its descriptors
 * cfg->descs, or one for an XDP frame.
 */
struct bqlm_nic_pkt {
	unsigned char done;
	unsigned char cleaned;
	unsigned char flags;
};

/* struct bqlm_nic_queue.napi: where the queue's NAPI poll is */
enum bqlm_nic_napi_phase {
	BQLM_NIC_NAPI_IDLE,	/* not running */
	BQLM_NIC_NAPI_DQL,	/* in netdev_tx_completed_queue: dql_completed */
	BQLM_NIC_NAPI_WAKE,	/* smp_mb, STACK_XOFF wake, tail next */
	BQLM_NIC_NAPI_TAIL,	/* napi_complete_done next (split steps) */
	BQLM_NIC_NR_NAPI
};

/* struct bqlm_nic_queue.lock: who holds the queue's tx lock */
enum bqlm_nic_owner {
	BQLM_NIC_LOCK_FREE,
	BQLM_NIC_LOCK_XMIT,
	BQLM_NIC_LOCK_NAPI,
	BQLM_NIC_NR_LOCK
};

/**
 * struct bqlm_nic_queue - one tx queue: the netdev queue and its ring
 * @txq: the netdev queue, with its DQL; its state word is the memory of
 *	the shared variable BQLM_NIC_VAR_STATE
 * @pkt: the ring, oldest first, @npkts of them
 * @sb: the store buffer of the CPU completing this queue
 * @napi_bytes: bytes the running poll reports
 * @napi_held: ground truth: bytes of packets reported sent in this epoch
 *	that the running poll took off the ring and has not reported yet
 * @orphan_bytes: ground truth: bytes reported sent in this epoch whose
 *	buffers were freed without a completion
 * @npkts: packets on the ring
 * @napi: enum bqlm_nic_napi_phase
 * @sched: NAPI_STATE_SCHED (or, with an IRQ completion, the interrupt
 *	pending): a poll is due
 * @napi_pkts: packets the running poll freed
 * @lock: enum bqlm_nic_owner
 * @orphans: packets behind @orphan_bytes
 * @prod: memory of BQLM_NIC_VAR_PROD: the producer index, descriptors
 *	written (mod 256), kept with split steps only
 * @cons: memory of BQLM_NIC_VAR_CONS: the consumer index, descriptors
 *	cleaned (mod 256), kept with split steps only
 * @napi_descs: descriptors the running poll cleaned and has not yet
 *	published in the consumer index (BQLM_NIC_DWAKE_NO_MB)
 * @ghosts: packets a drain freed while the DMA ran: the device still
 *	owns their descriptors
 * @ghost_done: of those, the ones the device has completed since
 * @ghost_stale: a reset ran since the drain: their bytes are of the old
 *	epoch
 * @cb_off: BQLM_NIC_NOTIFY_VQ_CB: the driver has callbacks disabled (a
 *	completion raises no notification); 0 otherwise
 * @missed: BQLM_NIC_NOTIFY_VQ_CB: NAPIF_STATE_MISSED; 0 otherwise
 * @pad: zero
 */
struct bqlm_nic_queue {
	struct bqlm_txq txq;
	struct bqlm_nic_pkt pkt[BQLM_NIC_MAX_RING];
	struct bqlm_sb sb;
	unsigned int napi_bytes;
	unsigned int napi_held;
	unsigned int orphan_bytes;
	unsigned char npkts;
	unsigned char napi;
	unsigned char sched;
	unsigned char napi_pkts;
	unsigned char lock;
	unsigned char orphans;
	unsigned char prod;
	unsigned char cons;
	unsigned char napi_descs;
	unsigned char ghosts;
	unsigned char ghost_done;
	unsigned char ghost_stale;
	unsigned char cb_off;
	unsigned char missed;
	unsigned char pad[2];
};

/* struct bqlm_nic.xmit: where ndo_start_xmit() is */
enum bqlm_nic_xmit_phase {
	BQLM_NIC_XMIT_IDLE,
	BQLM_NIC_XMIT_XOFF,	/* over the limit: set STACK_XOFF next */
	BQLM_NIC_XMIT_RECHECK,	/* smp_mb, re-check, then the tail */
	BQLM_NIC_XMIT_SENT,	/* after the doorbell: sent_queue next */
	BQLM_NIC_XMIT_DRV_STOP,	/* the ring is full: netif_tx_stop_queue next */
	BQLM_NIC_XMIT_DRV_RECHECK, /* smp_mb__after_atomic, re-check next */
	BQLM_NIC_XMIT_INDEX,	/* after the doorbell: the producer index next */
	BQLM_NIC_NR_XMIT
};

/* struct bqlm_nic.xflags: what the xmit in progress is doing */
#define BQLM_NIC_XF_BUSY	0x1	/* on the NETDEV_TX_BUSY path */
#define BQLM_NIC_XF_DROP	0x2	/* the packet will be dropped */

/**
 * struct bqlm_nic - the state
 * @q: the tx queues (all BQLM_NIC_MAX_QUEUES, unused ones stay initial)
 * @sb: the store buffer of the stack's CPU (ndo_start_xmit())
 * @sent: packets the stack has handed to ndo_start_xmit()
 * @xdp_sent: XDP frames sent
 * @xmit: enum bqlm_nic_xmit_phase
 * @xmit_q: the queue of the xmit in progress
 * @xmit_more: the xmit in progress has netdev_xmit_more()
 * @kick: the doorbell decision __netdev_tx_sent_queue() returned
 * @batch_no: xmit_more batches the stack has finished
 * @batch_pos: packets of the current batch already sent
 * @path: the reset path in progress plus one, 0 for none
 * @op: the index of its next call
 * @up: the stack may transmit: open, running and present
 * @closed: ndo_stop() ran, ndo_open() is due
 * @suspended: suspended, resume is due
 * @napi_on: NAPI enabled
 * @dma_on: the device's DMA runs
 * @left: per path kind the cycles left (close, reconfig, timeout, suspend)
 * @xflags: BQLM_NIC_XF_* of the xmit in progress
 * @drops: packets the explorer may still drop
 * @irq_off: the tx interrupt is disabled (disable_irq())
 * @hung: the device hangs: it completes nothing until its DMA is reset
 * @hangs: hangs left
 * @len: the packets' length (cfg->len), for bqlm_nic_inflight()
 */
struct bqlm_nic {
	struct bqlm_nic_queue q[BQLM_NIC_MAX_QUEUES];
	struct bqlm_sb sb;
	unsigned short len;
	unsigned char sent;
	unsigned char xdp_sent;
	unsigned char xmit;
	unsigned char xmit_q;
	unsigned char xmit_more;
	unsigned char kick;
	unsigned char batch_no;
	unsigned char batch_pos;
	unsigned char path;
	unsigned char op;
	unsigned char up;
	unsigned char closed;
	unsigned char suspended;
	unsigned char napi_on;
	unsigned char dma_on;
	unsigned char left[4];
	unsigned char xflags;
	unsigned char drops;
	unsigned char irq_off;
	unsigned char hung;
	unsigned char hangs;
};

unsigned int bqlm_nic_nr_profiles(void);
const struct bqlm_profile *bqlm_nic_profile(unsigned int id);
const struct bqlm_opts *bqlm_nic_options(void);
int bqlm_nic_profile_by_name(const char *name);
int bqlm_nic_cfg_profile(struct bqlm_nic_cfg *cfg, unsigned int id);
void bqlm_nic_cfg_default(struct bqlm_nic_cfg *cfg);
int bqlm_nic_cfg_check(const struct bqlm_nic_cfg *cfg);
int bqlm_nic_parse_ops(const char *s, unsigned char *ops, unsigned int *n);
int bqlm_nic_format_ops(const unsigned char *ops, unsigned int n, char *buf,
			size_t len);
const char *bqlm_nic_op_name(enum bqlm_nic_op op);
const char *bqlm_nic_path_name(enum bqlm_nic_path path);
int bqlm_nic_init(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg);

/*
 * The actors, one step per call: 0, -EAGAIN (waits), -EINVAL (nothing, or
 * a configuration bqlm_nic_cfg_check() refuses).
 */
int bqlm_ndo_start_xmit(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			struct bqlm_inv_step *ev);
int bqlm_ndo_start_xmit_drop(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg,
			     struct bqlm_inv_step *ev);
int bqlm_nic_mm_flush(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
		      unsigned int cpu, unsigned int k);
int bqlm_nic_dma_hang(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg);
bool bqlm_nic_split(const struct bqlm_nic_cfg *cfg);
int bqlm_nic_dma_complete(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg, unsigned int q);
int bqlm_napi_poll(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
		   unsigned int q, struct bqlm_inv_step *ev);
int bqlm_ndo_xdp_xmit(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
		      struct bqlm_inv_step *ev);
int bqlm_napi_poll_cleantx(struct bqlm_nic *nic,
			   const struct bqlm_nic_cfg *cfg, unsigned int q,
			   struct bqlm_inv_step *ev);
int bqlm_nic_reset_path(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int start, struct bqlm_inv_step *ev);

unsigned int bqlm_nic_inflight(const struct bqlm_nic *nic, unsigned int q);

/* The explorer's view: action numbers are BQLM_X_ACTION(kind, argument). */
enum bqlm_nic_action_kind {
	BQLM_NIC_A_XMIT = 1,	/* the stack's ndo_start_xmit(), next step;
				 * arg: BQLM_NIC_XMIT_OK or _DROPPED
				 */
	BQLM_NIC_A_DMA,		/* arg: queue */
	BQLM_NIC_A_NAPI,	/* arg: queue */
	BQLM_NIC_A_XDP,
	BQLM_NIC_A_PATH,	/* arg: path to start, or NR_PATHS: next op */
	BQLM_NIC_A_CLEANTX,	/* arg: queue */
	BQLM_NIC_A_FLUSH,	/* arg: CPU * BQLM_SB_DEPTH + entry */
	BQLM_NIC_A_HANG,	/* the device hangs */
	BQLM_NIC_NR_A
};

/* BQLM_NIC_A_XMIT's argument: the packet goes through, or is dropped */
#define BQLM_NIC_XMIT_OK	0
#define BQLM_NIC_XMIT_DROPPED	1

int bqlm_nic_system(const struct bqlm_nic_cfg *cfg, struct bqlm_xsys *sys);

/*
 * What an exploration reached of the code paths a configuration states
 * (struct bqlm_nic_reach): each a bit, BQLM_NIC_R_*(q) per queue.
 */
enum bqlm_nic_reach_bit {
	BQLM_NIC_R_FULL0,	/* queue 0's ring full after a transmit */
	BQLM_NIC_R_FULL1,
	BQLM_NIC_R_GROWN0,	/* queue 0's DQL limit above its first */
	BQLM_NIC_R_GROWN1,
	BQLM_NIC_R_WAKE0,	/* a completer woke queue 0 the driver stopped */
	BQLM_NIC_R_WAKE1,
	BQLM_NIC_R_BUSY,	/* the NETDEV_TX_BUSY path (--tx-busy) */
	BQLM_NIC_R_ERR_KICK,	/* an error exit with a deferred doorbell */
	BQLM_NIC_R_DROP,	/* a packet dropped (--drops) */
	BQLM_NIC_R_TIMEOUT,	/* the watchdog's ndo_tx_timeout() */
	BQLM_NIC_R_DOWN,	/* the down test kept a wake from a queue */
	BQLM_NIC_NR_REACH
};

/**
 * struct bqlm_nic_reach - the stated paths, and those an exploration took
 * @stated: BIT(enum bqlm_nic_reach_bit) of the paths the configuration
 *	states (bqlm_nic_reach_stated())
 * @reached: those a step of the exploration took
 * @ops_stated: per reset path, bit i: its call i may run (a cycle of it
 *	is allowed)
 * @ops_reached: per reset path, bit i: its call i ran
 */
struct bqlm_nic_reach {
	unsigned int stated;
	unsigned int reached;
	unsigned int ops_stated[BQLM_NIC_NR_PATHS];
	unsigned int ops_reached[BQLM_NIC_NR_PATHS];
};

/**
 * struct bqlm_nic_xctx - a configuration explored with its reach recorded
 * @cfg: the configuration (first: the system's callbacks read it)
 * @reach: receives what the steps took
 */
struct bqlm_nic_xctx {
	struct bqlm_nic_cfg cfg;
	struct bqlm_nic_reach *reach;
};

int bqlm_nic_system_reach(const struct bqlm_nic_xctx *x,
			  struct bqlm_xsys *sys);
void bqlm_nic_reach_stated(const struct bqlm_nic_cfg *cfg,
			   struct bqlm_nic_reach *r);
bool bqlm_nic_reach_all(const struct bqlm_nic_reach *r);
int bqlm_nic_reach_describe(const struct bqlm_nic_reach *r,
			    const struct bqlm_nic_cfg *cfg, bool missing,
			    char *buf, size_t len);
unsigned int bqlm_nic_fill_packets(const struct bqlm_nic_cfg *cfg);
unsigned int bqlm_nic_check_step(const struct bqlm_nic *nic,
				 const struct bqlm_nic_cfg *cfg,
				 const char *where,
				 const struct bqlm_inv_step *ev,
				 unsigned int q, bool completing,
				 struct bqlm_violation *each);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_NIC_H */
