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
 * The queue layer is model/netdevice.c (struct bqlm_txq, its DQL and XOFF
 * steps) and the checks are <bqlm/invariants.h>: the model only keeps the
 * ground truth next to them. Its options are named after the kernel
 * patterns a driver author recognises in their driver (docs/nic.md maps
 * real drivers to them); the profiles encode upstream BQL fixes as
 * (bug, fix) pairs.
 */
#ifndef _BQLM_NIC_H
#define _BQLM_NIC_H

#include <bqlm/types.h>
#include <bqlm/netdevice.h>
#include <bqlm/invariants.h>
#include <bqlm/explore.h>
#include <bqlm/options.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BQLM_NIC_MAX_QUEUES	2
#define BQLM_NIC_MAX_RING	4	/* descriptors per tx ring */
#define BQLM_NIC_MAX_PACKETS	6
#define BQLM_NIC_MAX_DESCS	2	/* descriptors per packet */
#define BQLM_NIC_MAX_OPS	10	/* kernel calls per reset path */
#define BQLM_NIC_MAX_LEN	9000

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
 * @BQLM_NIC_NR_STOP: number of values
 */
enum bqlm_nic_stopcheck {
	BQLM_NIC_STOP_BEFORE_SENT,
	BQLM_NIC_STOP_AFTER_SENT,
	BQLM_NIC_STOP_AFTER_DOORBELL,
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
 * @BQLM_NIC_NR_BYTES: number of values
 */
enum bqlm_nic_bytes {
	BQLM_NIC_BYTES_SKB_LEN,
	BQLM_NIC_BYTES_BD_SUM,
	BQLM_NIC_NR_BYTES
};

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
 * enum bqlm_nic_irq - what a completion's interrupt does
 * @BQLM_NIC_IRQ_NAPI: every completion schedules the queue's NAPI unless
 *	NAPI is disabled; napi_complete_done() re-arms the interrupt
 * @BQLM_NIC_IRQ_VQ_CB: virtio's used-buffer notifications: the interrupt
 *	fires only while the driver has callbacks enabled, and the callback
 *	(skb_xmit_done()) disables them. The NAPI poll disables them when
 *	it starts and enables them at its end (virtqueue_enable_cb_prepare());
 *	ndo_start_xmit() disables them, and enables them again unless
 *	xmit_more is set or when it stopped the queue
 *	(virtqueue_enable_cb_delayed()); the RX poll's tx cleanup enables
 *	them. An interrupt while the NAPI is scheduled, running or disabled
 *	sets NAPIF_STATE_MISSED, which makes napi_complete_done() schedule
 *	the poll once more. napi_enable() schedules the poll and disables
 *	callbacks; the RX NAPI, enabled just before, runs its poll (and with
 *	it the tx cleanup) at once (virtnet_napi_enable()'s local_bh_enable())
 * @BQLM_NIC_NR_IRQ: number of values
 */
enum bqlm_nic_irq {
	BQLM_NIC_IRQ_NAPI,
	BQLM_NIC_IRQ_VQ_CB,
	BQLM_NIC_NR_IRQ
};

/**
 * enum bqlm_nic_poll_wake - when the NAPI poll wakes a stopped queue
 * @BQLM_NIC_WAKE_GATED: on room, and not while the device is down or a
 *	reset path runs (the driver's own flag: __E1000_DOWN)
 * @BQLM_NIC_WAKE_ROOM: on room alone (virtnet_poll_tx())
 * @BQLM_NIC_NR_WAKE: number of values
 */
enum bqlm_nic_poll_wake {
	BQLM_NIC_WAKE_GATED,
	BQLM_NIC_WAKE_ROOM,
	BQLM_NIC_NR_WAKE
};

/**
 * enum bqlm_nic_op - the kernel calls a reset path is made of
 * @BQLM_NIC_OP_STOP: netif_tx_disable(): DRV_XOFF on every queue, under
 *	each queue's tx lock
 * @BQLM_NIC_OP_NAPI_OFF: napi_disable(): waits for a running poll
 * @BQLM_NIC_OP_DMA_OFF: the device's DMA is stopped (reset, vq reset)
 * @BQLM_NIC_OP_DRAIN: every tx buffer freed without a completion
 *	(e1000_clean_tx_ring(), free_unused_bufs(), virtqueue_resize())
 * @BQLM_NIC_OP_RESET: netdev_tx_reset_queue() on every tx queue
 * @BQLM_NIC_OP_RESET0: netdev_reset_queue(dev): queue 0 only
 * @BQLM_NIC_OP_DMA_ON: the device runs again, with an empty ring
 *	if it was drained
 * @BQLM_NIC_OP_NAPI_ON: napi_enable() and napi_schedule()
 * @BQLM_NIC_OP_WAKE: netif_tx_wake_all_queues()
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
 * @batch: packets per xmit_more batch, 1..3 (1: xmit_more never set)
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
 * @irq: enum bqlm_nic_irq
 * @poll_wake: enum bqlm_nic_poll_wake
 * @xdp_frames: XDP_TX frames sent on the last queue (shared with the
 *	stack), 0..2
 * @xdp: enum bqlm_nic_xdp
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
	enum bqlm_nic_irq irq;
	enum bqlm_nic_poll_wake poll_wake;
	unsigned int xdp_frames;
	enum bqlm_nic_xdp xdp;
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
#define BQLM_NIC_PKT_SENT	0x1	/* reported by netdev_tx_sent_queue() */
#define BQLM_NIC_PKT_STALE	0x2	/* sent before the last reset */
#define BQLM_NIC_PKT_XDP	0x4	/* an XDP frame, not an skb */
#define BQLM_NIC_PKT_KICKED	0x8	/* the doorbell covers it */

/**
 * struct bqlm_nic_pkt - one packet (skb or XDP frame) on a tx ring
 * @len: its length
 * @ndesc: descriptors it takes
 * @done: descriptors the device has completed
 * @cleaned: descriptors the driver has cleaned
 * @flags: BQLM_NIC_PKT_*
 * @pad: zero
 */
struct bqlm_nic_pkt {
	unsigned short len;
	unsigned char ndesc;
	unsigned char done;
	unsigned char cleaned;
	unsigned char flags;
	unsigned char pad[2];
};

/* struct bqlm_nic_queue.napi: where the queue's NAPI poll is */
enum bqlm_nic_napi_phase {
	BQLM_NIC_NAPI_IDLE,	/* not running */
	BQLM_NIC_NAPI_DQL,	/* in netdev_tx_completed_queue: dql_completed */
	BQLM_NIC_NAPI_WAKE,	/* smp_mb, STACK_XOFF wake, tail next */
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
 * @txq: the netdev queue, with its DQL
 * @pkt: the ring, oldest first, @npkts of them
 * @napi_bytes: bytes the running poll reports
 * @napi_held: ground truth: bytes of packets reported sent in this epoch
 *	that the running poll took off the ring and has not reported yet
 * @orphan_bytes: ground truth: bytes reported sent in this epoch whose
 *	buffers were freed without a completion
 * @npkts: packets on the ring
 * @napi: enum bqlm_nic_napi_phase
 * @sched: NAPI_STATE_SCHED: a poll is due
 * @napi_pkts: packets the running poll freed
 * @lock: enum bqlm_nic_owner
 * @orphans: packets behind @orphan_bytes
 * @irq_off: BQLM_NIC_IRQ_VQ_CB: the driver has callbacks disabled (a
 *	completion raises no interrupt); 0 otherwise
 * @missed: BQLM_NIC_IRQ_VQ_CB: NAPIF_STATE_MISSED; 0 otherwise
 * @pad: zero
 */
struct bqlm_nic_queue {
	struct bqlm_txq txq;
	struct bqlm_nic_pkt pkt[BQLM_NIC_MAX_RING];
	unsigned short napi_bytes;
	unsigned short napi_held;
	unsigned short orphan_bytes;
	unsigned char npkts;
	unsigned char napi;
	unsigned char sched;
	unsigned char napi_pkts;
	unsigned char lock;
	unsigned char orphans;
	unsigned char irq_off;
	unsigned char missed;
	unsigned char pad[2];
};

/* struct bqlm_nic.xmit: where ndo_start_xmit() is */
enum bqlm_nic_xmit_phase {
	BQLM_NIC_XMIT_IDLE,
	BQLM_NIC_XMIT_XOFF,	/* over the limit: set STACK_XOFF next */
	BQLM_NIC_XMIT_RECHECK,	/* smp_mb, re-check, then the tail */
	BQLM_NIC_XMIT_SENT,	/* after the doorbell: sent_queue next */
	BQLM_NIC_NR_XMIT
};

/**
 * struct bqlm_nic - the state
 * @q: the tx queues (all BQLM_NIC_MAX_QUEUES, unused ones stay initial)
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
 * @pad: zero
 */
struct bqlm_nic {
	struct bqlm_nic_queue q[BQLM_NIC_MAX_QUEUES];
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
	unsigned char pad[5];
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
int bqlm_nic_dma_complete(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg, unsigned int q);
int bqlm_napi_poll(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
		   unsigned int q, struct bqlm_inv_step *ev);
int bqlm_ndo_xdp_xmit(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg);
int bqlm_napi_poll_cleantx(struct bqlm_nic *nic,
			   const struct bqlm_nic_cfg *cfg, unsigned int q,
			   struct bqlm_inv_step *ev);
int bqlm_nic_reset_path(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int start, struct bqlm_inv_step *ev);

unsigned int bqlm_nic_inflight(const struct bqlm_nic *nic, unsigned int q);

/* The explorer's view: action numbers are BQLM_X_ACTION(kind, argument). */
enum bqlm_nic_action_kind {
	BQLM_NIC_A_XMIT = 1,	/* the stack's ndo_start_xmit(), next step */
	BQLM_NIC_A_DMA,		/* arg: queue */
	BQLM_NIC_A_NAPI,	/* arg: queue */
	BQLM_NIC_A_XDP,
	BQLM_NIC_A_PATH,	/* arg: path to start, or NR_PATHS: next op */
	BQLM_NIC_A_CLEANTX,	/* arg: queue */
	BQLM_NIC_NR_A
};

/**
 * BQLM_NIC_ACTION() - an explorer action number: BQLM_X_ACTION()
 * @kind: enum bqlm_nic_action_kind
 * @arg: its argument
 */
#define BQLM_NIC_ACTION(kind, arg)	BQLM_X_ACTION(kind, arg)

int bqlm_nic_system(const struct bqlm_nic_cfg *cfg, struct bqlm_xsys *sys);
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
