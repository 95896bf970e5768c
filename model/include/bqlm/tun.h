/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the transmit side of drivers/net/tun.c (Linux 6.12) and the
 * flow-control designs proposed for it, as an explicit state system over a
 * weak memory model (see docs/tun.md).
 *
 * The system: up to two producer CPUs running tun_net_xmit() (LLTX: they
 * serialise on the ring's producer_lock only), one reader per queue file
 * (tun_do_read() -> tun_ring_recv(), or vhost-net's batched consume), and
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
#define BQLM_TUN_VHOST_BATCH	2

/**
 * enum bqlm_tun_variant - which tun the model runs
 * @BQLM_TUN_STOCK: Linux 6.12: tail drop when the ring is full, the queue
 *	is never stopped
 * @BQLM_TUN_STOP_2019: the April 2019 experiment ("Tun congestion/BQL"):
 *	netif_stop_subqueue() when ptr_ring_produce() fails and when the ring
 *	is full after producing, netif_wake_subqueue() at the end of every
 *	tun_do_read()
 * @BQLM_TUN_BACKPRESSURE: the merged design (1d6e569b7d0c and companions,
 *	made opt-in by 485e38995cc3 / d00c7369ef24): with IFF_BACKPRESSURE and
 *	a qdisc, stop after a produce that leaves the ring full,
 *	smp_mb__after_atomic(), re-check with __ptr_ring_check_produce(); the
 *	consumer wakes after smp_mb() once half the ring was consumed since
 *	the stop; tun_force_wake_queue() on attach, TUNSETIFF and resize
 * @BQLM_TUN_BACKPRESSURE_NOBARRIER: the same without smp_mb__after_atomic()
 *	in tun_net_xmit() and smp_mb() in __tun_wake_queue()
 * @BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB: without the producer's barrier only
 * @BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB: without the consumer's barrier only
 * @BQLM_TUN_BACKPRESSURE_ROOM: backpressure whose consumer wakes only when
 *	the producer's next slot is free (__ptr_ring_check_produce()), and
 *	starts its count again whenever it finds the queue running: the
 *	candidate fix of findings 5 and 10 of docs/tun.md (not upstream)
 * @BQLM_TUN_BACKPRESSURE_V12: 1d6e569b7d0c as merged before the opt-in:
 *	no flag (stop whenever a qdisc is attached), tun_attach() only resets
 *	cons_cnt, TUNSETIFF runs netif_tx_wake_all_queues(), a resize wakes
 *	and resets under consumer_lock
 * @BQLM_TUN_BQL: design study, never proposed upstream: BQL in tun.
 *	netdev_tx_sent_queue() in tun_net_xmit() under producer_lock once
 *	__ptr_ring_check_produce() found room, before the produce makes the
 *	packet visible to the reader (LLTX: the ring lock is the only thing
 *	that serialises dql_queued()), netdev_tx_completed_queue() once per
 *	consume (batch) under consumer_lock, netdev_tx_reset_queue() after
 *	the purge of a detach, netdev_tx_completed_queue() of the entries a
 *	resize frees. Sequentially consistent only (the XOFF protocol itself
 *	over store buffers is the bql-xoff system)
 * @BQLM_TUN_BQL_LATE_SENT: the study with netdev_tx_sent_queue() after
 *	__ptr_ring_produce() (the natural place in tun_net_xmit())
 * @BQLM_TUN_BQL_RESET_RESIZE: the study with the tempting shortcut: reset
 *	the queue on resize instead of completing what the resize freed
 * @BQLM_TUN_NR_VARIANTS: number of variants
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
	BQLM_TUN_NR_VARIANTS
};

/**
 * enum bqlm_tun_reader_kind - what consumes the ring
 * @BQLM_TUN_READ: read() on the queue file, blocking: tun_do_read()
 * @BQLM_TUN_READ_NONBLOCK: read() with O_NONBLOCK, -EAGAIN then poll()
 * @BQLM_TUN_VHOST: vhost-net: ptr_ring_consume_batched() of
 *	BQLM_TUN_VHOST_BATCH entries on tun_get_tx_ring()
 * @BQLM_TUN_NR_READERS: number of kinds
 */
enum bqlm_tun_reader_kind {
	BQLM_TUN_READ,
	BQLM_TUN_READ_NONBLOCK,
	BQLM_TUN_VHOST,
	BQLM_TUN_NR_READERS
};

/**
 * struct bqlm_tun_cfg - what the model is run with
 * @variant: which tun
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
 * @backpressure: IFF_BACKPRESSURE is set at the start
 * @detaches: TUNSETQUEUE detach / attach cycles allowed (0..1)
 * @set_iffs: TUNSETIFF calls allowed; each flips IFF_BACKPRESSURE (0..2)
 * @resizes: tx_queue_len changes allowed (0..1); a resize needs @ring and
 *	@resize_to of at most BQLM_PTR_RING_MAX
 * @resize_to: the new tx_queue_len, 1..BQLM_PTR_RING_MAX for the explorer,
 *	up to BQLM_TUN_MAX_RING otherwise
 * @len: bytes per packet, 1..BQLM_TUN_MAX_LEN (the BQL study)
 * @stats: optional, mutable: figures gathered over every state explored
 *
 * Under a memory model other than sc the ring slots of every queue file
 * and the txq state words and ring locks must fit BQLM_SB_MAX_VARS
 * variables (store buffer entries name them).
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
	BQLM_TUN_NR_X
};

/* struct bqlm_tun_reader.phase */
enum bqlm_tun_read_phase {
	BQLM_TUN_R_IDLE,	/* next: consume */
	BQLM_TUN_R_WAKE,	/* consumed under consumer_lock: wake check */
	BQLM_TUN_R_UNLOCK,	/* spin_unlock(consumer_lock) */
	BQLM_TUN_R_PUT,		/* tun_put_user(), then the 2019 wake */
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
 * @sleeping: blocked in tun_ring_recv() / waiting in poll()
 * @nr: entries taken by the consume in progress
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
 * ring slots of each queue file (struct bqlm_ptr_ring.base on).
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
