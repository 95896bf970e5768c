/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - a transmit queue drained by a consumer from a ptr_ring: the
 * transmit side of drivers/net/tun.c (Linux 6.12), the flow-control
 * designs proposed for it, and veth's (the peer's NAPI poll consumes), as
 * an explicit state system over a weak memory model (see docs/tun.md).
 * A design is a set of properties of struct bqlm_tun_cfg, each an option
 * of bqlm_tun_options(); the variants are its profiles.
 *
 * The system: up to two producer CPUs running tun_net_xmit() (LLTX: they
 * serialise on the ring's producer_lock only), one reader per queue file
 * (tun_do_read() -> tun_ring_recv(), vhost-net's batched consume, or a
 * NAPI poll), and
 * an administrator who detaches and re-attaches a queue file
 * (TUNSETQUEUE), calls TUNSETIFF again (tun_set_iff(), flipping
 * IFF_BACKPRESSURE) or changes tx_queue_len (tun_queue_resize()). Every
 * actor is a function named after the kernel function it models, with the
 * prefix bqlm_; a call runs the actor's next step. The ring slots and the
 * queue state words are shared variables behind per-CPU store buffers
 * (<bqlm/memory_model.h>); a buffered store reaching memory is a step of
 * its own.
 *
 * The explorer runs small bounds (a ring of up to BQLM_PTR_RING_MAX slots,
 * up to BQLM_TUN_MAX_PACKETS packets); the timing simulator runs the same
 * steps on a ring of up to BQLM_TUN_MAX_RING slots and an unbounded stream
 * of packets (struct bqlm_tun_cfg.packets 0), whose ids are recycled. The
 * state's size follows from the configuration (bqlm_tun_state_size()).
 */
#ifndef _BQLM_TUN_H
#define _BQLM_TUN_H

#include <bqlm/types.h>
#include <bqlm/memory_model.h>
#include <bqlm/ptr_ring.h>
#include <bqlm/netdevice.h>
#include <bqlm/invariants.h>
#include <bqlm/explore.h>
#include <bqlm/options.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BQLM_TUN_MAX_QUEUES	2
#define BQLM_TUN_MAX_CPUS	2
/* packets of a bounded run the explorer takes (bqlm_tun_system()) */
#define BQLM_TUN_MAX_PACKETS	8
/* largest ring (tx_queue_len) outside the explorer: the simulator's */
#define BQLM_TUN_MAX_RING	BQLM_PTR_RING_LIMIT
/* largest packet id, and largest bound of a bounded run */
#define BQLM_TUN_MAX_ID		0xffff
/*
 * Longest packet (struct bqlm_tun_cfg.len): a 64 KB GSO skb less one byte.
 * Only the BQL study counts bytes, in the DQL's 32-bit counters; no state
 * field holds a length.
 */
#define BQLM_TUN_MAX_LEN	0xffff
/* entries vhost-net takes per ptr_ring_consume_batched() in the model */
/* Most variants the table may hold (arrays of the KUnit parameters). */
#define BQLM_TUN_MAX_VARIANTS	32
#define BQLM_TUN_VHOST_BATCH	2

/**
 * enum bqlm_tun_variant - the profiles of the model (its named
 *	configurations, model/tun/tun_options.c)
 * @BQLM_TUN_STOCK: Linux 6.12: tail drop when the ring is full, the queue
 *	is never stopped
 * @BQLM_TUN_STOP_2019: the April 2019 experiment ("Tun congestion/BQL")
 * @BQLM_TUN_BACKPRESSURE: the merged design (1d6e569b7d0c and companions,
 *	made opt-in by 485e38995cc3 / d00c7369ef24)
 * @BQLM_TUN_BACKPRESSURE_NOBARRIER: the same without both barriers
 * @BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB: without the producer's barrier only
 * @BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB: without the consumer's barrier only
 * @BQLM_TUN_BACKPRESSURE_ROOM: backpressure whose consumer wakes only into
 *	room (a candidate fix written here, not upstream)
 * @BQLM_TUN_BACKPRESSURE_V12: 1d6e569b7d0c as merged before the opt-in
 * @BQLM_TUN_BQL: design study, never proposed upstream: BQL in tun
 * @BQLM_TUN_BQL_LATE_SENT: the study with netdev_tx_sent_queue() after the
 *	produce
 * @BQLM_TUN_BQL_RESET_RESIZE: the study resetting the queue on resize
 * @BQLM_TUN_VETH: drivers/net/veth.c of 6.12 (5442a9da6978): a NAPI
 *	consumer, NETDEV_TX_BUSY and a kick of the consumer on a full ring
 * @BQLM_TUN_VETH_DC82A33297FC: veth as dc82a33297fc made it, before
 *	5442a9da6978: the producer re-checks with __ptr_ring_empty()
 * @BQLM_TUN_VETH_KICK_RCV_END: half of 5442a9da6978 (written here, not
 *	upstream): the producer's kick, the wake still at the end of
 *	veth_xdp_rcv(); stalls under sc
 *
 * What a design does is in the properties of struct bqlm_tun_cfg; the
 * model tests those, never a profile's id. A profile is a row of
 * model/tun/tun_options.c: the options it sets on top of the model's defaults.
 * The id says which row a configuration was made from (the real-code
 * harness picks its compiled tun.c by it); new profiles are appended, and
 * the order means nothing else. The enum names the rows code refers to;
 * a new row needs no name here (bqlm_tun_nr_variants() counts them).
 */
enum bqlm_tun_variant {
	BQLM_TUN_STOCK,
	BQLM_TUN_STOP_2019,
	BQLM_TUN_BACKPRESSURE,
	BQLM_TUN_BACKPRESSURE_NOBARRIER,
	BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB,
	BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB,
	BQLM_TUN_BACKPRESSURE_ROOM,
	BQLM_TUN_BACKPRESSURE_V12,
	BQLM_TUN_BQL,
	BQLM_TUN_BQL_LATE_SENT,
	BQLM_TUN_BQL_RESET_RESIZE,
	BQLM_TUN_VETH,
	BQLM_TUN_VETH_DC82A33297FC,
	BQLM_TUN_VETH_KICK_RCV_END
};

/**
 * enum bqlm_tun_reader_kind - what consumes the ring
 * @BQLM_TUN_READ: read() on the queue file, blocking: tun_do_read()
 * @BQLM_TUN_READ_NONBLOCK: read() with O_NONBLOCK, -EAGAIN then poll()
 * @BQLM_TUN_VHOST: vhost-net: ptr_ring_consume_batched() of
 *	BQLM_TUN_VHOST_BATCH entries on tun_get_tx_ring()
 * @BQLM_TUN_NAPI: a NAPI poll (veth_poll() of the peer): scheduled by the
 *	producer's __veth_xdp_flush() unless rx_notify_masked says it is,
 *	__ptr_ring_consume() up to struct bqlm_tun_cfg.budget entries
 *	without the consumer lock, napi_complete_done(), the re-arm of
 *	rx_notify_masked and the re-check of the ring
 * @BQLM_TUN_NR_READERS: number of kinds
 */
enum bqlm_tun_reader_kind {
	BQLM_TUN_READ,
	BQLM_TUN_READ_NONBLOCK,
	BQLM_TUN_VHOST,
	BQLM_TUN_NAPI,
	BQLM_TUN_NR_READERS
};

/* struct bqlm_tun_cfg.stop: when the producer stops its queue (a mask) */
#define BQLM_TUN_STOP_FULL	0x1	/* the produce that fills the ring */
#define BQLM_TUN_STOP_FAIL	0x2	/* a produce that fails */

/**
 * enum bqlm_tun_full_check - how the producer finds the ring full after
 *	its produce (struct bqlm_tun_cfg.stop has BQLM_TUN_STOP_FULL)
 * @BQLM_TUN_CHECK_PRODUCE: __ptr_ring_check_produce() of the next slot,
 *	in the produce's producer_lock section: the stop, its barrier and
 *	the re-check run before the unlock
 * @BQLM_TUN_CHECK_FULL: ptr_ring_full() after ptr_ring_produce(), each in
 *	a producer_lock section of its own; the stop after both
 * @BQLM_TUN_NR_CHECKS: number of checks
 */
enum bqlm_tun_full_check {
	BQLM_TUN_CHECK_PRODUCE,
	BQLM_TUN_CHECK_FULL,
	BQLM_TUN_NR_CHECKS
};

/**
 * enum bqlm_tun_on_full - what becomes of the packet that finds the ring full
 * @BQLM_TUN_FULL_DROP: freed (SKB_DROP_REASON_FULL_RING)
 * @BQLM_TUN_FULL_REQUEUE: NETDEV_TX_BUSY: the qdisc keeps it and sends it
 *	again once the queue runs (without a qdisc it is dropped)
 * @BQLM_TUN_NR_ON_FULL: number of choices
 */
enum bqlm_tun_on_full {
	BQLM_TUN_FULL_DROP,
	BQLM_TUN_FULL_REQUEUE,
	BQLM_TUN_NR_ON_FULL
};

/**
 * enum bqlm_tun_recheck - what the producer does after its stop
 * @BQLM_TUN_RECHECK_NONE: nothing
 * @BQLM_TUN_RECHECK_PRODUCE: __ptr_ring_check_produce(): wake the queue
 *	if the producer's slot is free (reads what the producer owns)
 * @BQLM_TUN_RECHECK_EMPTY: __ptr_ring_empty(): wake the queue if the slot
 *	at the consumer head is free (reads what the consumer owns)
 * @BQLM_TUN_RECHECK_KICK: __veth_xdp_flush(): schedule the NAPI consumer
 *	unless rx_notify_masked says it is scheduled; the consumer wakes
 * @BQLM_TUN_NR_RECHECKS: number of kinds
 *
 * struct bqlm_tun_cfg.producer_mb puts smp_mb__after_atomic() (the kick:
 * the smp_mb() of __veth_xdp_flush()) between the stop and this.
 */
enum bqlm_tun_recheck {
	BQLM_TUN_RECHECK_NONE,
	BQLM_TUN_RECHECK_PRODUCE,
	BQLM_TUN_RECHECK_EMPTY,
	BQLM_TUN_RECHECK_KICK,
	BQLM_TUN_NR_RECHECKS
};

/**
 * enum bqlm_tun_wake_rule - when the consumer wakes the queue
 * @BQLM_TUN_WAKE_NONE: never
 * @BQLM_TUN_WAKE_ALWAYS: netif_wake_subqueue() at every chance, without
 *	looking at the queue first (test_and_clear_bit(): fully ordered)
 * @BQLM_TUN_WAKE_IF_STOPPED: if netif_tx_queue_stopped() (a load), wake
 * @BQLM_TUN_WAKE_HALF: if stopped, count what was consumed (cons_cnt) and
 *	wake once half the ring was consumed since the stop
 * @BQLM_TUN_WAKE_ROOM: as half, but only when __ptr_ring_check_produce()
 *	finds the producer's slot free, and the count restarts whenever the
 *	queue is found running
 * @BQLM_TUN_NR_WAKES: number of rules
 *
 * struct bqlm_tun_cfg.consumer_mb puts smp_mb() before the rule; with the
 * opt-in flag (struct bqlm_tun_cfg.opt_in) the rule runs only while
 * IFF_BACKPRESSURE is set.
 */
enum bqlm_tun_wake_rule {
	BQLM_TUN_WAKE_NONE,
	BQLM_TUN_WAKE_ALWAYS,
	BQLM_TUN_WAKE_IF_STOPPED,
	BQLM_TUN_WAKE_HALF,
	BQLM_TUN_WAKE_ROOM,
	BQLM_TUN_NR_WAKES
};

/**
 * enum bqlm_tun_wake_at - where the consumer runs its wake rule
 * @BQLM_TUN_WAKE_AT_CONSUME: after each consume, under consumer_lock (a
 *	step of its own before the unlock; vhost-net too)
 * @BQLM_TUN_WAKE_AT_READ_END: at the end of tun_do_read(), after
 *	tun_put_user(), outside the lock (vhost-net never gets there)
 * @BQLM_TUN_WAKE_AT_RCV_END: a NAPI consumer: at the end of the consume
 *	loop (veth_xdp_rcv()), before napi_complete_done()
 * @BQLM_TUN_WAKE_AT_POLL_END: a NAPI consumer: at the end of the poll,
 *	after napi_complete_done() and the re-arm of rx_notify_masked
 * @BQLM_TUN_NR_WAKE_AT: number of places
 */
enum bqlm_tun_wake_at {
	BQLM_TUN_WAKE_AT_CONSUME,
	BQLM_TUN_WAKE_AT_READ_END,
	BQLM_TUN_WAKE_AT_RCV_END,
	BQLM_TUN_WAKE_AT_POLL_END,
	BQLM_TUN_NR_WAKE_AT
};

/* struct bqlm_tun_cfg.force_wake: tun_force_wake_queue() after (a mask) */
#define BQLM_TUN_FORCE_ATTACH	0x1	/* tun_attach() */
#define BQLM_TUN_FORCE_SET_IFF	0x2	/* TUNSETIFF, every attached queue */
#define BQLM_TUN_FORCE_RESIZE	0x4	/* tun_queue_resize() */

/**
 * enum bqlm_tun_bql_sent - where the BQL study reports a packet sent
 * @BQLM_TUN_SENT_BEFORE: under producer_lock once
 *	__ptr_ring_check_produce() found room, before the produce
 * @BQLM_TUN_SENT_AFTER: after the produce
 * @BQLM_TUN_NR_SENT: number of places
 */
enum bqlm_tun_bql_sent {
	BQLM_TUN_SENT_BEFORE,
	BQLM_TUN_SENT_AFTER,
	BQLM_TUN_NR_SENT
};

/**
 * enum bqlm_tun_bql_resize - what the BQL study does after a resize
 * @BQLM_TUN_RESIZE_COMPLETE: netdev_tx_completed_queue() of the entries
 *	the resize freed
 * @BQLM_TUN_RESIZE_RESET: netdev_tx_reset_queue()
 * @BQLM_TUN_RESIZE_NONE: nothing: the freed entries' bytes stay in flight
 * @BQLM_TUN_NR_RESIZE: number of choices
 */
enum bqlm_tun_bql_resize {
	BQLM_TUN_RESIZE_COMPLETE,
	BQLM_TUN_RESIZE_RESET,
	BQLM_TUN_RESIZE_NONE,
	BQLM_TUN_NR_RESIZE
};

/* struct bqlm_tun_cfg.budget: NAPI_POLL_WEIGHT, the default and the most */
#define BQLM_TUN_NAPI_BUDGET	64

/**
 * struct bqlm_tun_cfg - what the model is run with
 * @variant: the profile the configuration was made from (enum
 *	bqlm_tun_variant); read by nothing in the model
 * @mm: the memory model
 * @reader: what consumes the rings
 * @queues: queue files attached at the start, 1..BQLM_TUN_MAX_QUEUES
 * @cpus: producer CPUs, 1..BQLM_TUN_MAX_CPUS; CPU i sends on txq i %
 *	@queues (the stack falls back to txq 0 when that one is detached)
 * @packets: packets the stack sends: 1..BQLM_TUN_MAX_PACKETS for the
 *	explorer (packet ids 1, 2, ... in the order the stack hands them
 *	over), up to BQLM_TUN_MAX_ID otherwise; 0: an unbounded stream (not
 *	for the explorer nor the BQL study), whose ids are recycled: a new
 *	packet takes the first id after the one handed out last (cyclically,
 *	over 1..2 * @queues * ring slots + @cpus) whose packet was read or
 *	dropped, or was never used
 * @ring: dev->tx_queue_len, the ring size: 1..BQLM_PTR_RING_MAX for the
 *	explorer, up to BQLM_TUN_MAX_RING otherwise
 * @batch: the consumer batch __ptr_ring_set_size() starts from
 * @qdisc: a qdisc is attached (false: noqueue)
 * @backpressure: IFF_BACKPRESSURE is set at the start (with @opt_in)
 * @detaches: TUNSETQUEUE detach / attach cycles allowed (0..1)
 * @set_iffs: TUNSETIFF calls allowed (0..2); each flips IFF_BACKPRESSURE
 *	(with @opt_in)
 * @resizes: tx_queue_len changes allowed (0..1); a resize needs @ring and
 *	@resize_to of at most BQLM_PTR_RING_MAX
 * @resize_to: the new tx_queue_len, 1..BQLM_PTR_RING_MAX for the explorer,
 *	up to BQLM_TUN_MAX_RING otherwise
 * @len: bytes per packet, 1..BQLM_TUN_MAX_LEN (the BQL study)
 * @budget: a NAPI consumer's poll budget, 1..BQLM_TUN_NAPI_BUDGET
 * @stop: BQLM_TUN_STOP_*: when the producer stops its queue (0: never)
 * @full_check: enum bqlm_tun_full_check, with BQLM_TUN_STOP_FULL
 * @qdisc_only: stop only when a qdisc is attached
 *	(!qdisc_txq_has_no_queue())
 * @opt_in: the stop and the consumer's wake need IFF_BACKPRESSURE
 *	(tun->flags); TUNSETIFF flips it. False: in force whenever there is
 *	a stop
 * @on_full: enum bqlm_tun_on_full
 * @recheck: enum bqlm_tun_recheck
 * @producer_mb: a full barrier between the stop and the re-check or kick
 * @wake: enum bqlm_tun_wake_rule
 * @wake_at: enum bqlm_tun_wake_at
 * @consumer_mb: smp_mb() between the consume and the wake rule
 * @force_wake: BQLM_TUN_FORCE_*: the administrator's calls that run
 *	tun_force_wake_queue() (wake and cons_cnt = 0 under both ring locks)
 * @bql: the BQL design study (model/tun/tun_bql.c)
 * @bql_sent: enum bqlm_tun_bql_sent
 * @bql_resize: enum bqlm_tun_bql_resize
 * @stats: optional, mutable: figures gathered over every state explored
 *
 * Every field is an option of bqlm_tun_options(), which also says which
 * combinations mean something (bqlm_tun_cfg_check()). Under a memory
 * model other than sc the ring slots of every queue file and the txq
 * state words and ring locks must fit BQLM_SB_MAX_VARS variables (store
 * buffer entries name them).
 */
struct bqlm_tun_cfg {
	enum bqlm_tun_variant variant;
	enum bqlm_mm_kind mm;
	enum bqlm_tun_reader_kind reader;
	unsigned int queues;
	unsigned int cpus;
	unsigned int packets;
	unsigned int ring;
	unsigned int batch;
	bool qdisc;
	bool backpressure;
	unsigned int detaches;
	unsigned int set_iffs;
	unsigned int resizes;
	unsigned int resize_to;
	unsigned int len;
	unsigned int budget;
	unsigned int stop;
	enum bqlm_tun_full_check full_check;
	bool qdisc_only;
	bool opt_in;
	enum bqlm_tun_on_full on_full;
	enum bqlm_tun_recheck recheck;
	bool producer_mb;
	enum bqlm_tun_wake_rule wake;
	enum bqlm_tun_wake_at wake_at;
	bool consumer_mb;
	unsigned int force_wake;
	bool bql;
	enum bqlm_tun_bql_sent bql_sent;
	enum bqlm_tun_bql_resize bql_resize;
	struct bqlm_tun_stats *stats;
};

/* Why a packet did not reach the reader (struct bqlm_tun.drops). */
enum bqlm_tun_drop {
	BQLM_TUN_DROP_FULL,	/* SKB_DROP_REASON_FULL_RING, tail drop */
	BQLM_TUN_DROP_RACE,	/* full ring under backpressure: LLTX race */
	BQLM_TUN_DROP_WOKE_FULL, /* full ring after a resize / forced wake */
	BQLM_TUN_DROP_BP,	/* full ring under backpressure, no excuse */
	BQLM_TUN_DROP_DETACHED,	/* SKB_DROP_REASON_DEV_READY, no tfile */
	BQLM_TUN_DROP_NOQUEUE,	/* noqueue: __dev_queue_xmit() on a stopped queue */
	BQLM_TUN_DROP_PURGED,	/* tun_queue_purge() on detach */
	BQLM_TUN_DROP_RESIZED,	/* did not fit the resized ring */
	BQLM_TUN_NR_DROPS
};

/**
 * struct bqlm_tun_stats - figures over every explored state
 * @max_drops: for each enum bqlm_tun_drop, the most packets one execution
 *	lost that way
 * @states_with_drops: states reached after at least one drop of any kind
 *	except purge and resize
 * @max_delivered: the most packets one execution delivered to a reader
 * @states: states counted
 */
struct bqlm_tun_stats {
	unsigned int max_drops[BQLM_TUN_NR_DROPS];
	u64 states_with_drops;
	unsigned int max_delivered;
	u64 states;
};

/* struct bqlm_tun_cpu.phase: where a tun_net_xmit() is */
enum bqlm_tun_xmit_phase {
	BQLM_TUN_X_IDLE,	/* no packet: next, the stack's queue check */
	BQLM_TUN_X_START,	/* passed netif_xmit_stopped(): tun_net_xmit() */
	BQLM_TUN_X_PRODUCED,	/* produce done: the full/stop check next */
	BQLM_TUN_X_STOP,	/* stop next (2019) / stopped, re-check next */
	BQLM_TUN_X_UNLOCK,	/* spin_unlock(producer_lock), drop or notify */
	BQLM_TUN_X_RECHECK,	/* stopped outside the lock: re-check or kick */
	BQLM_TUN_X_NOTIFY,	/* produced: __veth_xdp_flush() of the consumer */
	BQLM_TUN_X_REQUEUED,	/* NETDEV_TX_BUSY: the qdisc holds the packet */
	BQLM_TUN_NR_X
};

/* struct bqlm_tun_reader.phase */
enum bqlm_tun_read_phase {
	BQLM_TUN_R_IDLE,	/* next: consume */
	BQLM_TUN_R_WAKE,	/* consumed under consumer_lock: wake check */
	BQLM_TUN_R_UNLOCK,	/* spin_unlock(consumer_lock) */
	BQLM_TUN_R_PUT,		/* tun_put_user(), then the wake at read end */
	BQLM_TUN_R_POLL,	/* NAPI: in the consume loop (nr: done so far) */
	BQLM_TUN_R_RCV_END,	/* NAPI: end of the loop: the wake there */
	BQLM_TUN_R_COMPLETE,	/* NAPI: napi_complete_done(), re-arm */
	BQLM_TUN_R_POLL_END,	/* NAPI: end of the poll: the wake there */
	BQLM_TUN_NR_R
};

/* where a packet is (bqlm_tun_pkt_where()) */
enum bqlm_tun_where {
	BQLM_TUN_PKT_UNSENT,
	BQLM_TUN_PKT_XMIT,
	BQLM_TUN_PKT_RING,
	BQLM_TUN_PKT_READ,
	BQLM_TUN_PKT_DROPPED,
	BQLM_TUN_NR_WHERE
};

/**
 * struct bqlm_tun_cpu - one producer CPU
 * @sb: its store buffer
 * @pkt: the packet id (1-based) in tun_net_xmit(), 0 while idle (see
 *	bqlm_tun_xmit_pkt())
 * @phase: enum bqlm_tun_xmit_phase
 * @txq: its queue
 * @ret: what the produce returned (0 or 1 for -ENOSPC)
 * @raced: BQLM_TUN_RACED_*: since this CPU passed the stack's stopped
 *	check, another CPU produced into its ring, or the ring was resized or
 *	its queue woken by force
 * @pad: zero
 */
struct bqlm_tun_cpu {
	struct bqlm_sb sb;
	unsigned short pkt;
	unsigned char phase;
	unsigned char txq;
	unsigned char ret;
	unsigned char raced;
	unsigned char pad[2];
};

#define BQLM_TUN_RACED_CPU	0x1
#define BQLM_TUN_RACED_RECONFIG	0x2

/**
 * struct bqlm_tun_reader - the reader of one queue file
 * @sb: its store buffer
 * @got: the BQL study: the packets of the consume in progress
 * @phase: enum bqlm_tun_read_phase
 * @sleeping: blocked in tun_ring_recv() / waiting in poll(); a NAPI
 *	consumer: not scheduled (NAPI_STATE_SCHED clear)
 * @nr: entries taken by the consume in progress; a NAPI consumer: entries
 *	its poll consumed so far
 * @pad: zero
 */
struct bqlm_tun_reader {
	struct bqlm_sb sb;
	unsigned short got[BQLM_TUN_VHOST_BATCH];
	unsigned char phase;
	unsigned char sleeping;
	unsigned char nr;
	unsigned char pad;
};

/**
 * struct bqlm_tun_queue - one queue file (struct tun_file) and its txq
 * @ring: tfile->tx_ring
 * @cons_cnt: tfile->cons_cnt (consumer_lock)
 * @attached: the tfile is in tun->tfiles[]
 * @woke_full: the queue was woken by force with the ring full (model only)
 *
 * The packet each slot was last produced with (model only) is in the
 * variable-size part of struct bqlm_tun.
 */
struct bqlm_tun_queue {
	struct bqlm_ptr_ring ring;
	unsigned short cons_cnt;
	unsigned char attached;
	unsigned char woke_full;
};

/*
 * The shared variables (struct bqlm_tun.mem): the txq state words, the
 * ring locks (producer_lock, consumer_lock of each queue file), then the
 * ring slots of each queue file (struct bqlm_ptr_ring.base on), then,
 * with a NAPI consumer only, its rx_notify_masked.
 */
#define BQLM_TUN_STATE_VAR(q)	(q)
#define BQLM_TUN_PLOCK_VAR(q)	(BQLM_TUN_MAX_QUEUES + 2 * (q))
#define BQLM_TUN_CLOCK_VAR(q)	(BQLM_TUN_PLOCK_VAR(q) + 1)
#define BQLM_TUN_FIXED_VARS	(3 * BQLM_TUN_MAX_QUEUES)

/**
 * struct bqlm_tun - the whole state
 * @q: the queue files
 * @cpu: the producer CPUs
 * @rd: the readers, one per queue file
 * @sent: packets the stack took so far (modulo 2^32)
 * @delivered: packets read (modulo 2^32)
 * @drops: packets lost, by enum bqlm_tun_drop (saturating at UINT_MAX)
 * @last_pkt: an unbounded stream: the packet id handed out last (0 before
 *	the first); 0 with a bound, where the ids are 1..@sent
 * @numqueues: tun->numqueues
 * @backpressure: IFF_BACKPRESSURE in tun->flags
 * @detaching: queue file being detached + 1 (between the two steps)
 * @detaches_left: detach cycles left in the bound
 * @set_iffs_left: TUNSETIFF calls left
 * @resizes_left: resizes left
 * @mem: the start of the variable-size part, whose layout follows from
 *	the configuration (bqlm_tun_state_size()): the shared variables
 *	(BQLM_TUN_FIXED_VARS words, then struct bqlm_tun_cfg.queues times
 *	the ring's slots: cfg->ring, or cfg->resize_to if larger and a resize
 *	is allowed) that struct bqlm_mm_cpu.mem points at; then, per slot,
 *	the packet it was last produced with (unsigned short, model only;
 *	with an unbounded stream cleared when the slot's packet is
 *	consumed); then the enum bqlm_tun_where of each packet id (unsigned
 *	char; see bqlm_tun_pkt_where()); then, in the BQL study only, the
 *	enum bqlm_tun_bql of each packet id and, aligned, the BQL queue
 *	(struct bqlm_txq) of each txq, whose STACK_XOFF is the stop of the
 *	study
 *
 * Build it with bqlm_tun_init() in bqlm_tun_state_size() bytes and change
 * it only through the step functions, so that equal states are equal byte
 * for byte. It holds no pointer: the explorer copies and compares states
 * as bytes.
 */
struct bqlm_tun {
	struct bqlm_tun_queue q[BQLM_TUN_MAX_QUEUES];
	struct bqlm_tun_cpu cpu[BQLM_TUN_MAX_CPUS];
	struct bqlm_tun_reader rd[BQLM_TUN_MAX_QUEUES];
	unsigned int sent;
	unsigned int delivered;
	unsigned int drops[BQLM_TUN_NR_DROPS];
	unsigned short last_pkt;
	unsigned char numqueues;
	unsigned char backpressure;
	unsigned char detaching;
	unsigned char detaches_left;
	unsigned char set_iffs_left;
	unsigned char resizes_left;
#ifdef __cplusplus
	__extension__	/* a flexible array member: a GNU extension in C++ */
#endif
	unsigned short mem[];
};

/* The BQL study: where a packet is in BQL's books */
enum bqlm_tun_bql {
	BQLM_TUN_BQL_NONE,	/* never reported sent */
	BQLM_TUN_BQL_SENT,	/* netdev_tx_sent_queue(), not completed */
	BQLM_TUN_BQL_STALE,	/* sent, then forgotten by a reset */
	BQLM_TUN_BQL_DONE,	/* netdev_tx_completed_queue() counted it */
};

/*
 * What a configuration's properties imply for the steps: the model's
 * actors test these (and the fields of struct bqlm_tun_cfg), never a
 * profile's id; so can a harness that runs real code beside the model.
 */

/**
 * bqlm_tun_napi() - is the consumer a NAPI poll?
 * @cfg: the configuration
 *
 * Return: true for --reader napi.
 */
static inline bool bqlm_tun_napi(const struct bqlm_tun_cfg *cfg)
{
	return cfg->reader == BQLM_TUN_NAPI;
}

/**
 * bqlm_tun_bql_on() - is the BQL design study on?
 * @cfg: the configuration
 *
 * Return: true for --bql on.
 */
static inline bool bqlm_tun_bql_on(const struct bqlm_tun_cfg *cfg)
{
	return cfg->bql;
}

/**
 * bqlm_tun_locked_stop() - does the stop sit in the produce's lock section?
 * @cfg: the configuration
 *
 * The produce that fills the ring stops the queue before the unlock
 * (__ptr_ring_check_produce()), and its barrier and re-check come before
 * the unlock too; a full-ring drop is then the backpressure-drop check's
 * business.
 *
 * Return: true for --stop full with --full-check check-produce.
 */
static inline bool bqlm_tun_locked_stop(const struct bqlm_tun_cfg *cfg)
{
	return (cfg->stop & BQLM_TUN_STOP_FULL) &&
	       cfg->full_check == BQLM_TUN_CHECK_PRODUCE;
}

/**
 * bqlm_tun_section() - does the producer hold producer_lock after the
 *	produce, for steps of its own?
 * @cfg: the configuration
 *
 * Otherwise the produce is ptr_ring_produce(): lock, produce, unlock in
 * one step.
 *
 * Return: true with a locked stop or the BQL study.
 */
static inline bool bqlm_tun_section(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_bql_on(cfg) || bqlm_tun_locked_stop(cfg);
}

/**
 * bqlm_tun_full_check() - does the producer check ptr_ring_full() after
 *	its produce, in a lock section of its own?
 * @cfg: the configuration
 *
 * Return: true for --stop full with --full-check ptr-ring-full.
 */
static inline bool bqlm_tun_full_check(const struct bqlm_tun_cfg *cfg)
{
	return (cfg->stop & BQLM_TUN_STOP_FULL) &&
	       cfg->full_check == BQLM_TUN_CHECK_FULL;
}

/**
 * bqlm_tun_counts() - does the wake rule count consumes (cons_cnt)?
 * @cfg: the configuration
 *
 * Return: true for --wake half or room.
 */
static inline bool bqlm_tun_counts(const struct bqlm_tun_cfg *cfg)
{
	return cfg->wake == BQLM_TUN_WAKE_HALF ||
	       cfg->wake == BQLM_TUN_WAKE_ROOM;
}

/**
 * bqlm_tun_flag() - is the design's flag in force?
 * @tun: the state
 * @cfg: the configuration
 *
 * Return: IFF_BACKPRESSURE with --opt-in on, else true.
 */
static inline bool bqlm_tun_flag(const struct bqlm_tun *tun,
				 const struct bqlm_tun_cfg *cfg)
{
	return tun->backpressure || !cfg->opt_in;
}

/**
 * bqlm_tun_may_stop() - may the producer stop the queue now?
 * @tun: the state
 * @cfg: the configuration
 *
 * Return: the flag in force, and a qdisc where --qdisc-only says so.
 */
static inline bool bqlm_tun_may_stop(const struct bqlm_tun *tun,
				     const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_flag(tun, cfg) && (cfg->qdisc || !cfg->qdisc_only);
}

/**
 * bqlm_tun_bp_active() - is the stop in the producer's lock section in
 *	force (so that a full-ring drop must be explained)?
 * @tun: the state
 * @cfg: the configuration
 *
 * Return: bqlm_tun_locked_stop() and bqlm_tun_may_stop().
 */
static inline bool bqlm_tun_bp_active(const struct bqlm_tun *tun,
				      const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_locked_stop(cfg) && bqlm_tun_may_stop(tun, cfg);
}

/**
 * bqlm_tun_wake_locked() - does the reader take one more step under
 *	consumer_lock after its consume?
 * @cfg: the configuration
 *
 * The wake rule there (__tun_wake_queue() of the backpressure designs),
 * or the completion of the BQL study.
 *
 * Return: true with a wake at --wake-at consume, or the study.
 */
static inline bool bqlm_tun_wake_locked(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_bql_on(cfg) ||
	       (!bqlm_tun_napi(cfg) && cfg->wake != BQLM_TUN_WAKE_NONE &&
		cfg->wake_at == BQLM_TUN_WAKE_AT_CONSUME);
}

/**
 * bqlm_tun_wake_at_read_end() - does the reader wake at the end of
 *	tun_do_read(), after tun_put_user()?
 * @cfg: the configuration
 *
 * Return: true with a wake at --wake-at read-end, but not for vhost-net,
 * which never runs tun_do_read().
 */
static inline bool bqlm_tun_wake_at_read_end(const struct bqlm_tun_cfg *cfg)
{
	return cfg->reader != BQLM_TUN_VHOST && !bqlm_tun_napi(cfg) &&
	       cfg->wake != BQLM_TUN_WAKE_NONE &&
	       cfg->wake_at == BQLM_TUN_WAKE_AT_READ_END;
}

/**
 * bqlm_tun_attach_locks() - does tun_attach() take the ring locks?
 * @cfg: the configuration
 *
 * It does when it runs tun_force_wake_queue(), or resets cons_cnt under
 * consumer_lock (a design that counts consumes).
 *
 * Return: true if the attach waits for the ring locks.
 */
static inline bool bqlm_tun_attach_locks(const struct bqlm_tun_cfg *cfg)
{
	return (cfg->force_wake & BQLM_TUN_FORCE_ATTACH) ||
	       bqlm_tun_counts(cfg);
}

/* The txq state bit the models use, as in enum netdev_queue_state_t. */
#define BQLM_TUN_XOFF		(1U << BQLM_QUEUE_STATE_DRV_XOFF)
#define BQLM_TUN_STACK_XOFF	(1U << BQLM_QUEUE_STATE_STACK_XOFF)

const char *bqlm_tun_variant_name(enum bqlm_tun_variant variant);
const char *bqlm_tun_variant_desc(enum bqlm_tun_variant variant);
int bqlm_tun_variant_by_name(const char *name);
const char *bqlm_tun_reader_name(enum bqlm_tun_reader_kind reader);
int bqlm_tun_reader_by_name(const char *name);
const char *bqlm_tun_drop_name(enum bqlm_tun_drop drop);
void bqlm_tun_cfg_default(struct bqlm_tun_cfg *cfg,
			  enum bqlm_tun_variant variant);
int bqlm_tun_cfg_check(const struct bqlm_tun_cfg *cfg);
int bqlm_tun_cfg_why(const struct bqlm_tun_cfg *cfg, bool explore, char *err,
		     size_t len);
const struct bqlm_opts *bqlm_tun_options(void);
unsigned int bqlm_tun_nr_variants(void);
bool bqlm_tun_cfg_same_design(const struct bqlm_tun_cfg *a,
			      const struct bqlm_tun_cfg *b);
size_t bqlm_tun_state_size(const struct bqlm_tun_cfg *cfg);
void bqlm_tun_init(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg);

/*
 * The actors, one step per call; 0, -EAGAIN (must wait) or -EINVAL;
 * bqlm_tun_net_xmit() also -ENOSPC (an unbounded stream has no free id).
 */
int bqlm_tun_net_xmit(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		      unsigned int cpu, struct bqlm_inv_step *ev);
int bqlm_tun_do_read(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		     unsigned int q, struct bqlm_inv_step *ev);
int bqlm_tun_do_read_got(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
			 unsigned int q, struct bqlm_inv_step *ev,
			 unsigned int *got, unsigned int *nr);
int bqlm_tun_flush(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		   unsigned int who, unsigned int k);
int bqlm_tun_detach(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		    struct bqlm_inv_step *ev);
int bqlm_tun_attach(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		    struct bqlm_inv_step *ev);
int bqlm_tun_set_iff(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		     struct bqlm_inv_step *ev);
int bqlm_tun_queue_resize(struct bqlm_tun *tun,
			  const struct bqlm_tun_cfg *cfg,
			  struct bqlm_inv_step *ev);

bool bqlm_tun_stopped(const struct bqlm_tun *tun, unsigned int q);
unsigned int bqlm_tun_xmit_pkt(const struct bqlm_tun *tun, unsigned int cpu);
unsigned int bqlm_tun_last_pkt(const struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg);
int bqlm_tun_pkt_where(const struct bqlm_tun *tun,
		       const struct bqlm_tun_cfg *cfg, unsigned int pkt);
unsigned int bqlm_tun_ring_count(const struct bqlm_tun *tun, unsigned int q);
unsigned int bqlm_tun_nr_ids(const struct bqlm_tun_cfg *cfg);
unsigned short *bqlm_tun_slot_pkts(struct bqlm_tun *tun,
				   const struct bqlm_tun_cfg *cfg, unsigned int q);
unsigned short *bqlm_tun_notify_masked(struct bqlm_tun *tun,
				       const struct bqlm_tun_cfg *cfg,
				       unsigned int q);
int bqlm_tun_pkt_set_where(struct bqlm_tun *tun,
			   const struct bqlm_tun_cfg *cfg, unsigned int pkt,
			   unsigned int where);
unsigned int bqlm_tun_check_step(const struct bqlm_tun *tun,
				 const struct bqlm_tun_cfg *cfg,
				 const char *where,
				 const struct bqlm_inv_step *ev,
				 struct bqlm_violation *each);

/* The explorer's view: action numbers are BQLM_X_ACTION(kind, argument). */
enum bqlm_tun_action_kind {
	BQLM_TUN_A_XMIT = 1,	/* arg: cpu */
	BQLM_TUN_A_READ,	/* arg: queue */
	BQLM_TUN_A_FLUSH,	/* arg: who * BQLM_SB_DEPTH + entry */
	BQLM_TUN_A_DETACH,
	BQLM_TUN_A_ATTACH,
	BQLM_TUN_A_SET_IFF,
	BQLM_TUN_A_RESIZE,
	BQLM_TUN_NR_A
};

/* store buffer owners for BQLM_TUN_A_FLUSH: cpus, then readers */
#define BQLM_TUN_WHO_READER(q)	(BQLM_TUN_MAX_CPUS + (q))

int bqlm_tun_system(const struct bqlm_tun_cfg *cfg, struct bqlm_xsys *sys);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_TUN_H */
