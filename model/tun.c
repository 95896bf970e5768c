// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - model of the transmit side of drivers/net/tun.c (Linux 6.12)
 * and of the flow-control designs proposed for it (see <bqlm/tun.h> and
 * docs/tun.md).
 *
 * How the kernel maps onto steps:
 *
 *  - The stack's netif_xmit_stopped() check before ndo_start_xmit() (in
 *    sch_direct_xmit() with a qdisc, in __dev_queue_xmit() with noqueue)
 *    is the first step of a transmit; it reads the txq state word through
 *    the CPU's view of memory. With a qdisc a stopped queue keeps the
 *    packet (the step is not enabled); with noqueue the packet is dropped.
 *
 *  - tun_net_xmit() is LLTX: no HARD_TX_LOCK, two CPUs may be inside it
 *    for the same queue at once and serialise on the ring's producer_lock
 *    only. The lock is an enabling condition; the steps inside it are cut
 *    where another CPU's step can change what this one reads next: the
 *    produce, the full check and stop, the re-check after the barrier,
 *    the unlock (a release: the CPU's buffered stores drain).
 *
 *  - The reader takes the consumer_lock for the consume and, in the
 *    backpressure designs, for __tun_wake_queue() (cons_cnt is protected by
 *    it); the wake check and the unlock are steps of their own, so that the
 *    store-buffering window between the consumer's slot zeroing and its
 *    read of the queue state is explored. A reader that finds the ring
 *    empty sleeps (the wait-queue protocol makes the empty check and the
 *    sleep atomic against sk_data_ready()); the producer's notification
 *    after a successful produce wakes it. A non-blocking reader gets
 *    -EAGAIN and sleeps in poll() instead: the same state.
 *
 *  - The administrator (under RTNL) is one sequentially consistent CPU:
 *    each of its calls is one step that waits for the ring locks it takes;
 *    tun_detach() is two (unpublish the tfile; then, after
 *    synchronize_net(), purge the ring).
 *
 *  - Ground truth: where each packet is (struct bqlm_tun.where[]) and which
 *    packet each slot was last produced with (shadow). A produce over a slot
 *    whose packet was never consumed loses it; a consume of a packet that is
 *    not in a ring counts it twice (skb-accounting). The drop counters are
 *    figures, except a full-ring drop under backpressure that neither the
 *    LLTX race nor a forced wake of a full ring explains
 *    (backpressure-drop).
 *
 *  - Left out: XDP frames, filters, the flow table and automq, the
 *    sk_write_queue, signals, tun_chr_poll()'s other wakeups, carrier,
 *    tun_detach_all() / device deletion, IFF_NAPI. Packets are opaque (a
 *    number); their contents and the smp_wmb() that publishes them are not
 *    modelled.
 */
#include "bqlm_internal.h"
#include <bqlm/tun.h>

/* The ring slots of queue file q, after the fixed variables (<bqlm/tun.h>). */
#define BQLM_TUN_SLOT_VAR(cap, q)	(BQLM_TUN_FIXED_VARS + (q) * (cap))

#define BQLM_TUN_KIND(a)	((a) >> 8)
#define BQLM_TUN_ARG(a)		((a) & 0xff)
#define BQLM_TUN_ACTION(k, a)	(((k) << 8) | (a))
#define BQLM_TUN_NR_WHO		(BQLM_TUN_MAX_CPUS + BQLM_TUN_MAX_QUEUES)
#define BQLM_TUN_ADMIN		0xff	/* lock owner id of the administrator */
/* The BQL study has no clock: every call runs at this jiffies value. */
#define BQLM_TUN_NOW		1000UL
#define BQLM_TUN_HZ		1000U

static const struct {
	const char *name;
	const char *desc;
} bqlm_tun_variants[BQLM_TUN_NR_VARIANTS] = {
	[BQLM_TUN_STOCK] = {
		"stock",
		"Linux 6.12 tun: tail drop on a full ring, the queue is never stopped" },
	[BQLM_TUN_STOP_2019] = {
		"stop-2019",
		"April 2019 experiment: stop when produce fails or the ring is full, wake after every tun_do_read" },
	[BQLM_TUN_BACKPRESSURE] = {
		"backpressure",
		"1d6e569b7d0c + IFF_BACKPRESSURE opt-in (485e38995cc3, d00c7369ef24): stop when full, barrier, re-check; wake at half" },
	[BQLM_TUN_BACKPRESSURE_NOBARRIER] = {
		"backpressure-nobarrier",
		"backpressure without smp_mb__after_atomic() (producer) and smp_mb() (consumer)" },
	[BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB] = {
		"backpressure-no-producer-mb",
		"backpressure without the producer's smp_mb__after_atomic() only" },
	[BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB] = {
		"backpressure-no-consumer-mb",
		"backpressure without the consumer's smp_mb() only" },
	[BQLM_TUN_BACKPRESSURE_ROOM] = {
		"backpressure-room",
		"backpressure whose consumer wakes only when the producer's slot is free, and restarts its count when it finds the queue running (candidate fix)" },
	[BQLM_TUN_BACKPRESSURE_V12] = {
		"backpressure-1d6e569b7d0c",
		"as merged before the opt-in: no flag, attach only resets cons_cnt, TUNSETIFF wakes without the ring locks" },
	[BQLM_TUN_BQL] = {
		"bql",
		"design study: BQL in tun: sent under producer_lock, completed per consume, reset after purge, resize completes what it frees" },
	[BQLM_TUN_BQL_LATE_SENT] = {
		"bql-late-sent",
		"design study with netdev_tx_sent_queue() after __ptr_ring_produce(): the reader may complete first" },
	[BQLM_TUN_BQL_RESET_RESIZE] = {
		"bql-reset-resize",
		"design study with the shortcut: netdev_tx_reset_queue() on resize" },
};

static const char *const bqlm_tun_readers[BQLM_TUN_NR_READERS] = {
	[BQLM_TUN_READ] = "read",
	[BQLM_TUN_READ_NONBLOCK] = "nonblock",
	[BQLM_TUN_VHOST] = "vhost",
};

static const char *const bqlm_tun_drops[BQLM_TUN_NR_DROPS] = {
	[BQLM_TUN_DROP_FULL] = "full-ring",
	[BQLM_TUN_DROP_RACE] = "lltx-race",
	[BQLM_TUN_DROP_WOKE_FULL] = "reconfig",
	[BQLM_TUN_DROP_BP] = "backpressure",
	[BQLM_TUN_DROP_DETACHED] = "detached",
	[BQLM_TUN_DROP_NOQUEUE] = "noqueue-stopped",
	[BQLM_TUN_DROP_PURGED] = "purged",
	[BQLM_TUN_DROP_RESIZED] = "resized-out",
};

static const char *const bqlm_tun_var_names[BQLM_TUN_FIXED_VARS] = {
	[BQLM_TUN_STATE_VAR(0)] = "txq0.state",
	[BQLM_TUN_STATE_VAR(1)] = "txq1.state",
	[BQLM_TUN_PLOCK_VAR(0)] = "q0.producer_lock",
	[BQLM_TUN_CLOCK_VAR(0)] = "q0.consumer_lock",
	[BQLM_TUN_PLOCK_VAR(1)] = "q1.producer_lock",
	[BQLM_TUN_CLOCK_VAR(1)] = "q1.consumer_lock",
};

static unsigned int bqlm_tun_cap(const struct bqlm_tun_cfg *cfg);

/* "name op value" of store buffer entry @k, the variable named as above. */
static int bqlm_tun_describe_entry(const struct bqlm_tun_cfg *cfg,
				   const struct bqlm_sb *sb, unsigned int k,
				   char *buf, size_t len)
{
	unsigned int var, cap = bqlm_tun_cap(cfg);
	char name[32];

	if (k >= sb->n)
		return bqlm_mm_describe_entry_as(sb, k, NULL, buf, len);
	var = sb->e[k].var;
	if (var < BQLM_TUN_FIXED_VARS)
		snprintf(name, sizeof(name), "%s", bqlm_tun_var_names[var]);
	else
		snprintf(name, sizeof(name), "q%u.slot[%u]",
			 (var - BQLM_TUN_FIXED_VARS) / cap,
			 (var - BQLM_TUN_FIXED_VARS) % cap);
	return bqlm_mm_describe_entry_as(sb, k, name, buf, len);
}

/**
 * bqlm_tun_variant_name() - the name of a variant, as the CLI takes it
 * @variant: the variant
 *
 * Return: the name, or "unknown".
 */
const char *bqlm_tun_variant_name(enum bqlm_tun_variant variant)
{
	if ((unsigned int)variant >= BQLM_TUN_NR_VARIANTS)
		return "unknown";
	return bqlm_tun_variants[variant].name;
}

/**
 * bqlm_tun_variant_desc() - one line on what a variant is
 * @variant: the variant
 *
 * Return: the description, or "unknown".
 */
const char *bqlm_tun_variant_desc(enum bqlm_tun_variant variant)
{
	if ((unsigned int)variant >= BQLM_TUN_NR_VARIANTS)
		return "unknown";
	return bqlm_tun_variants[variant].desc;
}

/**
 * bqlm_tun_variant_by_name() - look a variant up by name
 * @name: the name
 *
 * Return: the enum bqlm_tun_variant, or -EINVAL.
 */
int bqlm_tun_variant_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < BQLM_TUN_NR_VARIANTS; i++)
		if (!strcmp(name, bqlm_tun_variants[i].name))
			return i;
	return -EINVAL;
}

/**
 * bqlm_tun_reader_name() - the name of a reader kind
 * @reader: the kind
 *
 * Return: "read", "nonblock", "vhost" or "unknown".
 */
const char *bqlm_tun_reader_name(enum bqlm_tun_reader_kind reader)
{
	if ((unsigned int)reader >= BQLM_TUN_NR_READERS)
		return "unknown";
	return bqlm_tun_readers[reader];
}

/**
 * bqlm_tun_reader_by_name() - look a reader kind up by name
 * @name: the name
 *
 * Return: the enum bqlm_tun_reader_kind, or -EINVAL.
 */
int bqlm_tun_reader_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < BQLM_TUN_NR_READERS; i++)
		if (!strcmp(name, bqlm_tun_readers[i]))
			return i;
	return -EINVAL;
}

/**
 * bqlm_tun_drop_name() - the name of a drop reason
 * @drop: the reason
 *
 * Return: the name, or "unknown".
 */
const char *bqlm_tun_drop_name(enum bqlm_tun_drop drop)
{
	if ((unsigned int)drop >= BQLM_TUN_NR_DROPS)
		return "unknown";
	return bqlm_tun_drops[drop];
}

/**
 * bqlm_tun_cfg_default() - the default bound of a variant
 * @cfg: receives the configuration
 * @variant: the variant
 *
 * One queue file, two producer CPUs, a ring of four, five packets, a
 * blocking reader, a qdisc, IFF_BACKPRESSURE set, one detach/attach cycle
 * (none for stop-2019, whose detach stall would hide its lost wakeup), no
 * TUNSETIFF, no resize (a resize would take the ring below four slots,
 * where the half-ring wake has a drop of its own: see docs/tun.md); under
 * sc. The BQL study: four packets and one resize.
 */
void bqlm_tun_cfg_default(struct bqlm_tun_cfg *cfg,
			  enum bqlm_tun_variant variant)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->variant = variant;
	cfg->mm = BQLM_MM_SC;
	cfg->reader = BQLM_TUN_READ;
	cfg->queues = 1;
	cfg->cpus = 2;
	cfg->packets = 5;
	cfg->ring = 4;
	cfg->batch = BQLM_PTR_RING_BATCH;
	cfg->qdisc = true;
	cfg->backpressure = true;
	cfg->detaches = 1;
	cfg->set_iffs = 0;
	cfg->resizes = 0;
	cfg->resize_to = 2;
	cfg->len = 100;
	/* the 2019 race alone; --detaches 1 adds the re-attach stall */
	if (variant == BQLM_TUN_STOP_2019)
		cfg->detaches = 0;
	if (variant >= BQLM_TUN_BQL) {
		/* the study: one queue, the resize is the point */
		cfg->packets = 4;
		cfg->resizes = 1;
	}
}

static bool bqlm_tun_bql_variant(const struct bqlm_tun_cfg *cfg)
{
	return cfg->variant == BQLM_TUN_BQL ||
	       cfg->variant == BQLM_TUN_BQL_LATE_SENT ||
	       cfg->variant == BQLM_TUN_BQL_RESET_RESIZE;
}

/* The study's netdev_tx_sent_queue() comes after the produce. */
static bool bqlm_tun_bql_late(const struct bqlm_tun_cfg *cfg)
{
	return cfg->variant == BQLM_TUN_BQL_LATE_SENT;
}

/* Ring slots each queue file has in memory: the most a ring ever holds. */
static unsigned int bqlm_tun_cap(const struct bqlm_tun_cfg *cfg)
{
	if (cfg->resizes && cfg->resize_to > cfg->ring)
		return cfg->resize_to;
	return cfg->ring;
}

/*
 * Packet ids: 1..cfg->packets with a bound; an unbounded stream recycles
 * 1..twice the slots plus one per CPU. At most every slot and every CPU
 * holds a packet; the other half keeps the search for a free id short
 * when the stack drops at a full ring (see bqlm_tun_new_pkt()).
 */
static unsigned int bqlm_tun_ids(const struct bqlm_tun_cfg *cfg)
{
	if (cfg->packets)
		return cfg->packets;
	return 2 * cfg->queues * bqlm_tun_cap(cfg) + cfg->cpus;
}

/**
 * bqlm_tun_nr_ids() - how many packet ids a configuration uses
 * @cfg: the configuration (valid: bqlm_tun_cfg_check())
 *
 * Return: the largest packet id: cfg->packets with a bound, else the size
 * of the pool of recycled ids.
 */
unsigned int bqlm_tun_nr_ids(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_ids(cfg);
}

static unsigned int bqlm_tun_nr_vars(const struct bqlm_tun_cfg *cfg)
{
	return BQLM_TUN_FIXED_VARS + cfg->queues * bqlm_tun_cap(cfg);
}

static size_t bqlm_tun_round_up(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

/* Byte offsets in the state: the slots' shadows, per packet where[]. */
static size_t bqlm_tun_shadow_off(const struct bqlm_tun_cfg *cfg)
{
	return offsetof(struct bqlm_tun, mem) +
	       bqlm_tun_nr_vars(cfg) * sizeof(unsigned short);
}

static size_t bqlm_tun_where_off(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_shadow_off(cfg) +
	       cfg->queues * bqlm_tun_cap(cfg) * sizeof(unsigned short);
}

/* The BQL study: bql[] after where[], then the aligned BQL queues. */
static size_t bqlm_tun_txq_off(const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_round_up(bqlm_tun_where_off(cfg) +
				 2 * bqlm_tun_ids(cfg),
				 __alignof__(struct bqlm_txq));
}

/*
 * The variable-size parts of @tun. A const state is only read through
 * what these return.
 */
static unsigned short *bqlm_tun_shadow(const struct bqlm_tun *tun,
				       const struct bqlm_tun_cfg *cfg,
				       unsigned int q)
{
	return (unsigned short *)((char *)tun + bqlm_tun_shadow_off(cfg)) +
	       q * bqlm_tun_cap(cfg);
}

static unsigned char *bqlm_tun_where(const struct bqlm_tun *tun,
				     const struct bqlm_tun_cfg *cfg)
{
	return (unsigned char *)tun + bqlm_tun_where_off(cfg);
}

static unsigned char *bqlm_tun_bql(const struct bqlm_tun *tun,
				   const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_where(tun, cfg) + bqlm_tun_ids(cfg);
}

static struct bqlm_txq *bqlm_tun_txq(const struct bqlm_tun *tun,
				     const struct bqlm_tun_cfg *cfg,
				     unsigned int q)
{
	return (struct bqlm_txq *)((char *)tun + bqlm_tun_txq_off(cfg)) + q;
}

/**
 * bqlm_tun_cfg_check() - is a configuration within the model's bounds?
 * @cfg: the configuration
 *
 * The bounds of struct bqlm_tun_cfg: a ring of up to BQLM_TUN_MAX_RING
 * slots, an unbounded stream of packets (@cfg->packets 0) outside the BQL
 * study. bqlm_tun_system() takes the explorer's smaller bounds only.
 *
 * Return: 0, or -EINVAL.
 */
int bqlm_tun_cfg_check(const struct bqlm_tun_cfg *cfg)
{
	if ((unsigned int)cfg->variant >= BQLM_TUN_NR_VARIANTS ||
	    (unsigned int)cfg->mm >= BQLM_MM_NR ||
	    (unsigned int)cfg->reader >= BQLM_TUN_NR_READERS ||
	    cfg->queues < 1 || cfg->queues > BQLM_TUN_MAX_QUEUES ||
	    cfg->cpus < 1 || cfg->cpus > BQLM_TUN_MAX_CPUS ||
	    cfg->packets > BQLM_TUN_MAX_ID ||
	    cfg->ring < 1 || cfg->ring > BQLM_TUN_MAX_RING ||
	    cfg->batch > 64 || cfg->detaches > 1 || cfg->set_iffs > 2 ||
	    cfg->resizes > 1 || cfg->resize_to < 1 ||
	    cfg->resize_to > BQLM_TUN_MAX_RING || cfg->len < 1 ||
	    cfg->len > BQLM_TUN_MAX_LEN)
		return -EINVAL;
	/* bqlm_ptr_ring_resize() keeps what survives on the stack */
	if (cfg->resizes && (cfg->ring > BQLM_PTR_RING_MAX ||
			     cfg->resize_to > BQLM_PTR_RING_MAX))
		return -EINVAL;
	/* store buffer entries name variables in a byte */
	if (cfg->mm != BQLM_MM_SC && bqlm_tun_nr_vars(cfg) > BQLM_SB_MAX_VARS)
		return -EINVAL;
	/* the BQL study: one queue file, sequentially consistent, bounded */
	if (cfg->variant >= BQLM_TUN_BQL &&
	    (cfg->queues != 1 || cfg->mm != BQLM_MM_SC || !cfg->packets))
		return -EINVAL;
	return 0;
}

/**
 * bqlm_tun_state_size() - bytes of the state a configuration uses
 * @cfg: the configuration, valid (bqlm_tun_cfg_check())
 *
 * The fixed part of struct bqlm_tun, then what @cfg sizes (see struct
 * bqlm_tun.mem): memory of cfg->queues rings, the slots' shadows, where
 * each packet id is; only the BQL study carries the packets' BQL books
 * and the BQL queues. The size is a multiple of the alignment of the
 * state, so that states stored one after the other stay aligned.
 *
 * Return: the size.
 */
size_t bqlm_tun_state_size(const struct bqlm_tun_cfg *cfg)
{
	if (bqlm_tun_bql_variant(cfg))
		return bqlm_tun_round_up(bqlm_tun_txq_off(cfg) + cfg->queues *
					 sizeof(struct bqlm_txq),
					 __alignof__(struct bqlm_txq));
	return bqlm_tun_round_up(bqlm_tun_where_off(cfg) + bqlm_tun_ids(cfg),
				 __alignof__(struct bqlm_tun));
}

/**
 * bqlm_tun_init() - the state at the start
 * @tun: receives the state, bqlm_tun_state_size() bytes
 * @cfg: the configuration, valid (bqlm_tun_cfg_check())
 *
 * cfg->queues queue files attached, empty rings of cfg->ring slots, every
 * queue awake, readers running, nothing sent. Only the first
 * bqlm_tun_state_size() bytes of @tun are touched.
 */
void bqlm_tun_init(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg)
{
	unsigned int cap = bqlm_tun_cap(cfg);
	unsigned int q;

	memset(tun, 0, bqlm_tun_state_size(cfg));
	if (bqlm_tun_bql_variant(cfg))
		for (q = 0; q < cfg->queues; q++)
			bqlm_txq_init(bqlm_tun_txq(tun, cfg, q), BQLM_TUN_HZ,
				      BQLM_TUN_NOW);
	for (q = 0; q < BQLM_TUN_MAX_QUEUES; q++) {
		bqlm_ptr_ring_init(&tun->q[q].ring, BQLM_TUN_SLOT_VAR(cap, q),
				   q < cfg->queues ? cfg->ring : 0, cfg->batch);
		tun->q[q].attached = q < cfg->queues;
	}
	tun->numqueues = cfg->queues;
	tun->backpressure = cfg->backpressure;
	tun->detaches_left = cfg->detaches;
	tun->set_iffs_left = cfg->set_iffs;
	tun->resizes_left = cfg->resizes;
}

static bool bqlm_tun_bp_variant(const struct bqlm_tun_cfg *cfg)
{
	return cfg->variant >= BQLM_TUN_BACKPRESSURE &&
	       cfg->variant <= BQLM_TUN_BACKPRESSURE_V12;
}

/* 1d6e569b7d0c before the opt-in: stops whenever a qdisc is there. */
static bool bqlm_tun_v12(const struct bqlm_tun_cfg *cfg)
{
	return cfg->variant == BQLM_TUN_BACKPRESSURE_V12;
}

/* IFF_BACKPRESSURE in force (always, before the opt-in) */
static bool bqlm_tun_flag(const struct bqlm_tun *tun,
			  const struct bqlm_tun_cfg *cfg)
{
	return tun->backpressure || bqlm_tun_v12(cfg);
}

/* smp_mb__after_atomic() after the stop in tun_net_xmit() */
static bool bqlm_tun_producer_mb(const struct bqlm_tun_cfg *cfg)
{
	return cfg->variant != BQLM_TUN_BACKPRESSURE_NOBARRIER &&
	       cfg->variant != BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB;
}

/* smp_mb() in __tun_wake_queue() */
static bool bqlm_tun_consumer_mb(const struct bqlm_tun_cfg *cfg)
{
	return cfg->variant != BQLM_TUN_BACKPRESSURE_NOBARRIER &&
	       cfg->variant != BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB;
}

/* The stop logic of tun_net_xmit() is in force (flag and qdisc). */
static bool bqlm_tun_bp_active(const struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg)
{
	return bqlm_tun_bp_variant(cfg) && bqlm_tun_flag(tun, cfg) &&
	       cfg->qdisc;
}

static void bqlm_tun_view(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
			  struct bqlm_sb *sb, struct bqlm_mm_cpu *c)
{
	c->kind = cfg->mm;
	c->mem = tun->mem;
	c->sb = sb;
}

/**
 * bqlm_tun_stopped() - netif_tx_queue_stopped() as memory holds it
 * @tun: the state
 * @q: the txq
 *
 * Return: true if DRV_XOFF of txq @q is set in memory (buffered stores
 * not counted).
 */
bool bqlm_tun_stopped(const struct bqlm_tun *tun, unsigned int q)
{
	return tun->mem[BQLM_TUN_STATE_VAR(q)] & BQLM_TUN_XOFF;
}

/**
 * bqlm_tun_xmit_pkt() - the packet a producer CPU is transmitting
 * @tun: the state
 * @cpu: the CPU, below BQLM_TUN_MAX_CPUS
 *
 * A transmit runs from the step that takes the packet from the stack to
 * the step that produces or drops it; the CPU is idle (enum
 * bqlm_tun_xmit_phase) before and after.
 *
 * Return: the packet's id, or 0 while the CPU is idle.
 */
unsigned int bqlm_tun_xmit_pkt(const struct bqlm_tun *tun, unsigned int cpu)
{
	return cpu < BQLM_TUN_MAX_CPUS ? tun->cpu[cpu].pkt : 0;
}

/**
 * bqlm_tun_last_pkt() - the packet id the stack handed over last
 * @tun: the state
 * @cfg: the configuration
 *
 * The id of the packet the last transmit step from idle took, including
 * one the stack dropped at once (noqueue and a stopped queue) and so
 * never showed in bqlm_tun_xmit_pkt().
 *
 * Return: the id, 0 before the first packet.
 */
unsigned int bqlm_tun_last_pkt(const struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg)
{
	return cfg->packets ? tun->sent : tun->last_pkt;
}

/**
 * bqlm_tun_pkt_where() - where a packet is
 * @tun: the state
 * @cfg: the configuration
 * @pkt: the packet id, 1-based
 *
 * With an unbounded stream an id names the packet that has it now: once
 * that packet is read or dropped, the next packet may take the id again.
 *
 * Return: its enum bqlm_tun_where (BQLM_TUN_PKT_UNSENT for an id not used
 * yet), or -EINVAL for an id the configuration does not have.
 */
int bqlm_tun_pkt_where(const struct bqlm_tun *tun,
		       const struct bqlm_tun_cfg *cfg, unsigned int pkt)
{
	if (!pkt || pkt > bqlm_tun_ids(cfg))
		return -EINVAL;
	return bqlm_tun_where(tun, cfg)[pkt - 1];
}

/**
 * bqlm_tun_ring_count() - packets in the ring of queue file @q
 * @tun: the state
 * @q: the queue file, below BQLM_TUN_MAX_QUEUES
 *
 * As bqlm_ptr_ring_count() on memory: under sc the ring's occupancy;
 * under the other memory models stores still buffered are not counted.
 *
 * Return: the number of entries a consumer would get.
 */
unsigned int bqlm_tun_ring_count(const struct bqlm_tun *tun, unsigned int q)
{
	if (q >= BQLM_TUN_MAX_QUEUES)
		return 0;
	return bqlm_ptr_ring_count(&tun->q[q].ring, tun->mem);
}

/* The txq the stack picks for @cpu (netdev_cap_txqueue() on detach). */
static unsigned int bqlm_tun_txq_of(const struct bqlm_tun *tun,
				    const struct bqlm_tun_cfg *cfg,
				    unsigned int cpu)
{
	unsigned int txq = cpu % cfg->queues;

	return txq < tun->numqueues ? txq : 0;
}

/*
 * sk_data_ready() of the tfile: wake its reader. sock_def_readable()'s
 * skwq_has_sleeper() is an smp_mb() (paired with the sleeper's
 * set_current_state()): the produced entry is visible to the woken reader.
 */
static void bqlm_tun_notify(struct bqlm_tun *tun, const struct bqlm_mm_cpu *c,
			    unsigned int q)
{
	bqlm_mm_mb(c);
	tun->rd[q].sleeping = 0;
}

static void bqlm_tun_drop(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
			  unsigned int pkt, enum bqlm_tun_drop why)
{
	bqlm_tun_where(tun, cfg)[pkt - 1] = BQLM_TUN_PKT_DROPPED;
	if (tun->drops[why] < UINT_MAX)
		tun->drops[why]++;
}

/*
 * The stack hands a new packet over: with a bound the next id; in an
 * unbounded stream the first id after the last one handed out whose
 * packet is gone (read, dropped) or that was never used. The caller sets
 * where the packet is. Returns 0, changing nothing, if every id is in use.
 */
static unsigned int bqlm_tun_new_pkt(struct bqlm_tun *tun,
				     const struct bqlm_tun_cfg *cfg)
{
	const unsigned char *where = bqlm_tun_where(tun, cfg);
	unsigned int ids = bqlm_tun_ids(cfg);
	unsigned int i, pkt = tun->last_pkt;

	if (cfg->packets)
		return ++tun->sent;
	for (i = 0; i < ids; i++) {
		if (++pkt > ids)
			pkt = 1;
		if (where[pkt - 1] == BQLM_TUN_PKT_UNSENT ||
		    where[pkt - 1] == BQLM_TUN_PKT_READ ||
		    where[pkt - 1] == BQLM_TUN_PKT_DROPPED) {
			tun->sent++;
			tun->last_pkt = pkt;
			return pkt;
		}
	}
	return 0;
}

/* Bookkeeping of a successful produce of @pkt by @cpu into queue @q. */
static void bqlm_tun_produced(struct bqlm_tun *tun,
			      const struct bqlm_tun_cfg *cfg, unsigned int cpu,
			      unsigned int q, unsigned int slot,
			      unsigned int pkt, struct bqlm_inv_step *ev)
{
	unsigned short *shadow = bqlm_tun_shadow(tun, cfg, q);
	unsigned char *where = bqlm_tun_where(tun, cfg);
	unsigned int old = shadow[slot];
	unsigned int i;

	if (old && where[old - 1] == BQLM_TUN_PKT_RING)
		ev->lost++;	/* overwritten before it was consumed */
	shadow[slot] = pkt;
	where[pkt - 1] = BQLM_TUN_PKT_RING;
	for (i = 0; i < cfg->cpus; i++)
		if (i != cpu && tun->cpu[i].phase != BQLM_TUN_X_IDLE &&
		    tun->cpu[i].txq == q)
			tun->cpu[i].raced |= BQLM_TUN_RACED_CPU;
}

/* Produce the packet of @cpu; its view @c; the producer lock is held. */
static int bqlm_tun_do_produce(struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg, unsigned int cpu,
			       const struct bqlm_mm_cpu *c,
			       struct bqlm_inv_step *ev)
{
	struct bqlm_tun_cpu *x = &tun->cpu[cpu];
	struct bqlm_ptr_ring *r = &tun->q[x->txq].ring;
	unsigned int slot = r->producer;

	if (bqlm___ptr_ring_produce(r, c, x->pkt))
		return 1;
	bqlm_tun_produced(tun, cfg, cpu, x->txq, slot, x->pkt, ev);
	return 0;
}

/* netif_tx_wake_queue() on @c's view: test_and_clear DRV_XOFF. */
static void bqlm_tun_wake(const struct bqlm_mm_cpu *c, unsigned int q)
{
	/* a set bit means __netif_schedule(): the qdisc runs again */
	bqlm_mm_test_and_clear_bits(c, BQLM_TUN_STATE_VAR(q), BQLM_TUN_XOFF);
}

/* The BQL study: netdev_tx_sent_queue() of one packet. */
static void bqlm_tun_bql_sent(struct bqlm_tun *tun,
			      const struct bqlm_tun_cfg *cfg, unsigned int q,
			      unsigned int pkt, struct bqlm_inv_step *ev)
{
	unsigned char *bql = bqlm_tun_bql(tun, cfg);
	int err = bqlm_netdev_tx_sent_queue(bqlm_tun_txq(tun, cfg, q), cfg->len,
					    BQLM_TUN_NOW);

	if (err) {
		ev->dql_err = err;
		ev->dql_val[0] = cfg->len;
	}
	if (bql[pkt - 1] != BQLM_TUN_BQL_NONE)
		ev->twice++;
	bql[pkt - 1] = BQLM_TUN_BQL_SENT;
}

/*
 * The BQL study: netdev_tx_completed_queue() of @n packets @got; a packet
 * forgotten by a reset counts as stale bytes, one never reported sent as
 * unsent.
 */
static void bqlm_tun_bql_completed(struct bqlm_tun *tun,
				   const struct bqlm_tun_cfg *cfg,
				   unsigned int q, const unsigned short *got,
				   unsigned int n, struct bqlm_inv_step *ev)
{
	struct bqlm_txq *txq = bqlm_tun_txq(tun, cfg, q);
	unsigned char *bql = bqlm_tun_bql(tun, cfg);
	unsigned int i, bytes = n * cfg->len;
	int err;

	for (i = 0; i < n; i++) {
		unsigned char *b = &bql[got[i] - 1];

		if (*b == BQLM_TUN_BQL_STALE)
			ev->stale_bytes += cfg->len;
		else if (*b == BQLM_TUN_BQL_NONE)
			ev->unsent_skbs++;
		else if (*b == BQLM_TUN_BQL_DONE)
			ev->twice++;
	}
	err = bqlm_netdev_tx_completed_queue(txq, n, bytes, BQLM_TUN_NOW);
	if (err) {
		/* the kernel's BUG_ON(): nothing changed */
		ev->dql_err = err;
		ev->dql_val[0] = bytes;
		ev->dql_val[1] = bqlm_dql_inflight(&txq->dql);
		return;
	}
	for (i = 0; i < n; i++)
		bql[got[i] - 1] = BQLM_TUN_BQL_DONE;
}

/* The BQL study: netdev_tx_reset_queue(); what was in flight is stale. */
static void bqlm_tun_bql_reset(struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg, unsigned int q)
{
	unsigned char *bql = bqlm_tun_bql(tun, cfg);
	unsigned int i, ids = bqlm_tun_ids(cfg);

	bqlm_netdev_tx_reset_queue(bqlm_tun_txq(tun, cfg, q), BQLM_TUN_NOW);
	for (i = 0; i < ids; i++)
		if (bql[i] == BQLM_TUN_BQL_SENT)
			bql[i] = BQLM_TUN_BQL_STALE;
}

/* Does the CPU with buffer @sb see the lock in word @var free? */
static bool bqlm_tun_sees_free(const struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg,
			       const struct bqlm_sb *sb, unsigned int var)
{
	struct bqlm_mm_cpu c;

	c.kind = cfg->mm;
	c.mem = (unsigned short *)tun->mem;
	c.sb = (struct bqlm_sb *)sb;
	return bqlm_mm_lock_free(&c, var);
}

static bool bqlm_tun_can_xmit(const struct bqlm_tun *tun,
			      const struct bqlm_tun_cfg *cfg, unsigned int cpu)
{
	const struct bqlm_tun_cpu *x = &tun->cpu[cpu];
	struct bqlm_mm_cpu c;
	unsigned int txq;

	if (cpu >= cfg->cpus)
		return false;
	switch (x->phase) {
	case BQLM_TUN_X_IDLE:
		if (cfg->packets && tun->sent >= cfg->packets)
			return false;
		if (!cfg->qdisc)
			return true;	/* noqueue drops on a stopped queue */
		txq = bqlm_tun_txq_of(tun, cfg, cpu);
		if (bqlm_tun_bql_variant(cfg) &&
		    bqlm_netif_xmit_stopped(bqlm_tun_txq(tun, cfg, txq)))
			return false;
		c.kind = cfg->mm;
		c.mem = (unsigned short *)tun->mem;
		c.sb = (struct bqlm_sb *)&x->sb;
		return !(bqlm_mm_load(&c, BQLM_TUN_STATE_VAR(txq)) &
			 (BQLM_TUN_XOFF | BQLM_TUN_STACK_XOFF));
	case BQLM_TUN_X_START:
		if (x->txq >= tun->numqueues)
			return true;	/* no tfile: drop */
		return bqlm_tun_sees_free(tun, cfg, &x->sb,
					  BQLM_TUN_PLOCK_VAR(x->txq));
	case BQLM_TUN_X_PRODUCED:
		if (cfg->variant == BQLM_TUN_STOP_2019)
			return bqlm_tun_sees_free(tun, cfg, &x->sb,
						  BQLM_TUN_PLOCK_VAR(x->txq));
		return true;
	default:
		return true;
	}
}

/**
 * bqlm_tun_net_xmit() - the next step of a producer CPU
 * @tun: the state
 * @cfg: the configuration
 * @cpu: the CPU
 * @ev: receives what the step did to packets
 *
 * From idle, the stack's netif_xmit_stopped() check and the hand-over of
 * the next packet; then the steps of tun_net_xmit() of the variant (see
 * the top of this file).
 *
 * A transmit is complete when the CPU is idle again (bqlm_tun_xmit_pkt()
 * 0); then bqlm_tun_pkt_where() of its packet tells whether it reached the
 * ring (BQLM_TUN_PKT_RING, or already read) or was dropped.
 *
 * Return: 0, -EAGAIN when the step must wait (stopped queue, lock held),
 * -EINVAL when the CPU has nothing to do (a bound's packets all sent),
 * -ENOSPC when an unbounded stream has no free packet id (nothing
 * changed).
 */
int bqlm_tun_net_xmit(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		      unsigned int cpu, struct bqlm_inv_step *ev)
{
	struct bqlm_tun_cpu *x;
	struct bqlm_tun_queue *tq;
	struct bqlm_mm_cpu c;
	unsigned int pkt, i;

	if (cpu >= cfg->cpus)
		return -EINVAL;
	x = &tun->cpu[cpu];
	if (x->phase == BQLM_TUN_X_IDLE && cfg->packets &&
	    tun->sent >= cfg->packets)
		return -EINVAL;
	if (!bqlm_tun_can_xmit(tun, cfg, cpu))
		return -EAGAIN;
	bqlm_tun_view(tun, cfg, &x->sb, &c);
	tq = &tun->q[x->txq];

	switch (x->phase) {
	case BQLM_TUN_X_IDLE:
		pkt = bqlm_tun_new_pkt(tun, cfg);
		if (!pkt)
			return -ENOSPC;
		x->txq = bqlm_tun_txq_of(tun, cfg, cpu);
		if (!cfg->qdisc &&
		    (bqlm_mm_load(&c, BQLM_TUN_STATE_VAR(x->txq)) &
		     (BQLM_TUN_XOFF | BQLM_TUN_STACK_XOFF))) {
			bqlm_tun_drop(tun, cfg, pkt, BQLM_TUN_DROP_NOQUEUE);
			x->txq = 0;
			return 0;
		}
		x->pkt = pkt;
		x->ret = 0;
		x->raced = 0;
		/* another CPU inside tun_net_xmit() may fill the ring first */
		for (i = 0; i < cfg->cpus; i++)
			if (i != cpu && tun->cpu[i].phase != BQLM_TUN_X_IDLE &&
			    tun->cpu[i].txq == x->txq)
				x->raced |= BQLM_TUN_RACED_CPU;
		/* the queue runs only because it was woken by force, full */
		if (tun->q[x->txq].woke_full)
			x->raced |= BQLM_TUN_RACED_RECONFIG;
		bqlm_tun_where(tun, cfg)[pkt - 1] = BQLM_TUN_PKT_XMIT;
		x->phase = BQLM_TUN_X_START;
		return 0;

	case BQLM_TUN_X_START:
		if (x->txq >= tun->numqueues) {
			/* rcu_dereference(tun->tfiles[txq]) == NULL */
			bqlm_tun_drop(tun, cfg, x->pkt, BQLM_TUN_DROP_DETACHED);
			goto idle;
		}
		bqlm_mm_lock(&c, BQLM_TUN_PLOCK_VAR(x->txq), cpu + 1);
		/* the study: report the bytes before the reader can see them */
		if (bqlm_tun_bql_variant(cfg) && !bqlm_tun_bql_late(cfg) &&
		    !bqlm___ptr_ring_check_produce(&tq->ring, &c))
			bqlm_tun_bql_sent(tun, cfg, x->txq, x->pkt, ev);
		x->ret = bqlm_tun_do_produce(tun, cfg, cpu, &c, ev);
		if (x->ret && tq->woke_full)
			x->raced |= BQLM_TUN_RACED_RECONFIG;
		if (cfg->variant == BQLM_TUN_STOCK) {
			bqlm_mm_unlock(&c, BQLM_TUN_PLOCK_VAR(x->txq));
			goto done;
		}
		if (cfg->variant == BQLM_TUN_STOP_2019) {
			bqlm_mm_unlock(&c, BQLM_TUN_PLOCK_VAR(x->txq));
			x->phase = x->ret ? BQLM_TUN_X_STOP :
				   BQLM_TUN_X_PRODUCED;
			return 0;
		}
		x->phase = BQLM_TUN_X_PRODUCED;
		return 0;

	case BQLM_TUN_X_PRODUCED:
		if (cfg->variant == BQLM_TUN_STOP_2019) {
			bool full;

			/* ptr_ring_full(): its own producer_lock section */
			bqlm_mm_lock(&c, BQLM_TUN_PLOCK_VAR(x->txq), cpu + 1);
			full = bqlm___ptr_ring_full(&tq->ring, &c);
			bqlm_mm_unlock(&c, BQLM_TUN_PLOCK_VAR(x->txq));
			if (full) {
				x->phase = BQLM_TUN_X_STOP;
				return 0;
			}
			goto done;
		}
		if (bqlm_tun_bql_variant(cfg)) {
			if (!x->ret && bqlm_tun_bql_late(cfg))
				bqlm_tun_bql_sent(tun, cfg, x->txq, x->pkt, ev);
			x->phase = BQLM_TUN_X_UNLOCK;
			return 0;
		}
		if (bqlm_tun_bp_active(tun, cfg) &&
		    bqlm___ptr_ring_check_produce(&tq->ring, &c) == -ENOSPC) {
			/* netif_tx_stop_queue() */
			bqlm_mm_set_bits(&c, BQLM_TUN_STATE_VAR(x->txq),
					 BQLM_TUN_XOFF);
			tq->woke_full = 0;
			x->phase = BQLM_TUN_X_STOP;
			return 0;
		}
		x->phase = BQLM_TUN_X_UNLOCK;
		return 0;

	case BQLM_TUN_X_STOP:
		if (cfg->variant == BQLM_TUN_STOP_2019) {
			/* netif_stop_subqueue() */
			bqlm_mm_set_bits(&c, BQLM_TUN_STATE_VAR(x->txq),
					 BQLM_TUN_XOFF);
			goto done;
		}
		if (bqlm_tun_producer_mb(cfg))
			bqlm_mm_mb_after_atomic(&c);
		if (!bqlm___ptr_ring_check_produce(&tq->ring, &c))
			bqlm_tun_wake(&c, x->txq);
		x->phase = BQLM_TUN_X_UNLOCK;
		return 0;

	default:	/* BQLM_TUN_X_UNLOCK */
		bqlm_mm_unlock(&c, BQLM_TUN_PLOCK_VAR(x->txq));
		if (!x->ret) {
			bqlm_tun_notify(tun, &c, x->txq);
		} else if (!bqlm_tun_bp_active(tun, cfg)) {
			bqlm_tun_drop(tun, cfg, x->pkt, BQLM_TUN_DROP_FULL);
		} else if (x->raced & BQLM_TUN_RACED_CPU) {
			bqlm_tun_drop(tun, cfg, x->pkt, BQLM_TUN_DROP_RACE);
		} else if (x->raced & BQLM_TUN_RACED_RECONFIG) {
			bqlm_tun_drop(tun, cfg, x->pkt, BQLM_TUN_DROP_WOKE_FULL);
		} else {
			bqlm_tun_drop(tun, cfg, x->pkt, BQLM_TUN_DROP_BP);
			ev->bp_drops++;
		}
		goto idle;
	}

done:
	if (x->ret)
		bqlm_tun_drop(tun, cfg, x->pkt, BQLM_TUN_DROP_FULL);
	else
		bqlm_tun_notify(tun, &c, x->txq);
idle:
	x->phase = BQLM_TUN_X_IDLE;
	x->pkt = 0;
	x->txq = 0;
	x->ret = 0;
	x->raced = 0;
	return 0;
}

static bool bqlm_tun_can_read(const struct bqlm_tun *tun,
			      const struct bqlm_tun_cfg *cfg, unsigned int q)
{
	const struct bqlm_tun_reader *rd = &tun->rd[q];

	if (q >= cfg->queues)
		return false;
	if (rd->phase == BQLM_TUN_R_IDLE)
		return !rd->sleeping &&
		       bqlm_tun_sees_free(tun, cfg, &rd->sb,
					  BQLM_TUN_CLOCK_VAR(q));
	return true;
}

/*
 * An unbounded stream: the packet consumed from @slot of queue file @q
 * left the ring, its id may be recycled; the slot's shadow forgets it, so
 * that a later produce into the slot does not take the id's next packet
 * for one overwritten.
 */
static void bqlm_tun_forget(struct bqlm_tun *tun,
			    const struct bqlm_tun_cfg *cfg, unsigned int q,
			    unsigned int slot)
{
	if (!cfg->packets)
		bqlm_tun_shadow(tun, cfg, q)[slot] = 0;
}

/* Account the packets a consume from slot @head of queue @q returned. */
static void bqlm_tun_delivered(struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg, unsigned int q,
			       unsigned int head, const unsigned int *got,
			       int n, struct bqlm_inv_step *ev)
{
	unsigned char *where = bqlm_tun_where(tun, cfg);
	unsigned int ids = bqlm_tun_ids(cfg);
	int i;

	for (i = 0; i < n; i++) {
		unsigned int pkt = got[i];

		bqlm_tun_forget(tun, cfg, q, head);
		if (++head >= tun->q[q].ring.size)
			head = 0;
		if (!pkt || pkt > ids) {
			ev->unsent_skbs++;
			continue;
		}
		if (where[pkt - 1] == BQLM_TUN_PKT_READ)
			ev->twice++;
		else if (where[pkt - 1] != BQLM_TUN_PKT_RING)
			ev->unsent_skbs++;
		where[pkt - 1] = BQLM_TUN_PKT_READ;
		tun->delivered++;
	}
}

/**
 * bqlm_tun_do_read_got() - the next step of the reader of queue file @q,
 *	and the packets it took
 * @tun: the state
 * @cfg: the configuration
 * @q: the queue file
 * @ev: receives what the step did to packets
 * @got: NULL, or receives the ids of the packets the step consumed (room
 *	for BQLM_TUN_VHOST_BATCH)
 * @nr: NULL, or receives how many: 1 (vhost-net: up to
 *	BQLM_TUN_VHOST_BATCH) from a consume, 0 from every other step
 *
 * From idle: tun_ring_recv()'s consume (vhost-net: a batched consume);
 * an empty ring puts the reader to sleep until the producer's
 * sk_data_ready(). Then, per variant, __tun_wake_queue() and the unlock,
 * or tun_put_user() and the 2019 netif_wake_subqueue(). A tun_do_read()
 * is complete when the reader is idle again (struct bqlm_tun_reader.phase
 * BQLM_TUN_R_IDLE); a reader asleep (.sleeping) waits for a produce.
 *
 * Return: 0, -EAGAIN when the reader sleeps or waits for the lock, -EINVAL
 * for a queue file the configuration does not have.
 */
int bqlm_tun_do_read_got(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
			 unsigned int q, struct bqlm_inv_step *ev,
			 unsigned int *got, unsigned int *nr)
{
	unsigned int taken[BQLM_TUN_VHOST_BATCH];
	struct bqlm_tun_reader *rd;
	struct bqlm_tun_queue *tq;
	struct bqlm_mm_cpu c;
	unsigned int head;
	int n, want, i;

	if (nr)
		*nr = 0;
	if (q >= cfg->queues)
		return -EINVAL;
	if (!bqlm_tun_can_read(tun, cfg, q))
		return -EAGAIN;
	rd = &tun->rd[q];
	tq = &tun->q[q];
	bqlm_tun_view(tun, cfg, &rd->sb, &c);

	switch (rd->phase) {
	case BQLM_TUN_R_IDLE:
		want = cfg->reader == BQLM_TUN_VHOST ? BQLM_TUN_VHOST_BATCH : 1;
		bqlm_mm_lock(&c, BQLM_TUN_CLOCK_VAR(q),
			     BQLM_TUN_WHO_READER(q) + 1);
		head = tq->ring.consumer_head;
		n = bqlm___ptr_ring_consume_batched(&tq->ring, &c, taken,
						    want);
		bqlm_tun_delivered(tun, cfg, q, head, taken, n, ev);
		for (i = 0; got && i < n; i++)
			got[i] = taken[i];
		if (nr)
			*nr = n;
		if (!n || !(bqlm_tun_bp_variant(cfg) ||
			    bqlm_tun_bql_variant(cfg))) {
			bqlm_mm_unlock(&c, BQLM_TUN_CLOCK_VAR(q));
			if (!n)
				rd->sleeping = 1;
			else if (cfg->variant == BQLM_TUN_STOP_2019 &&
				 cfg->reader != BQLM_TUN_VHOST)
				rd->phase = BQLM_TUN_R_PUT;
			return 0;
		}
		rd->nr = n;
		if (bqlm_tun_bql_variant(cfg))
			for (i = 0; i < n; i++)
				rd->got[i] = taken[i];
		rd->phase = BQLM_TUN_R_WAKE;
		return 0;

	case BQLM_TUN_R_WAKE:
		if (bqlm_tun_bql_variant(cfg)) {
			bqlm_tun_bql_completed(tun, cfg, q, rd->got, rd->nr,
					       ev);
			memset(rd->got, 0, sizeof(rd->got));
		} else if (bqlm_tun_flag(tun, cfg)) {
			/* __tun_wake_queue(tun, tfile, consumed) */
			if (bqlm_tun_consumer_mb(cfg))
				bqlm_mm_mb(&c);
			if (bqlm_mm_load(&c, BQLM_TUN_STATE_VAR(q)) &
			    BQLM_TUN_XOFF) {
				tq->cons_cnt += rd->nr;
				if (tq->cons_cnt >= tq->ring.size / 2 &&
				    (cfg->variant != BQLM_TUN_BACKPRESSURE_ROOM ||
				     !bqlm___ptr_ring_check_produce(&tq->ring,
								    &c))) {
					bqlm_tun_wake(&c, q);
					tq->cons_cnt = 0;
				}
			} else if (cfg->variant ==
				   BQLM_TUN_BACKPRESSURE_ROOM) {
				/* running: what was counted is stale */
				tq->cons_cnt = 0;
			}
		}
		rd->nr = 0;
		rd->phase = BQLM_TUN_R_UNLOCK;
		return 0;

	case BQLM_TUN_R_UNLOCK:
		bqlm_mm_unlock(&c, BQLM_TUN_CLOCK_VAR(q));
		rd->phase = BQLM_TUN_R_IDLE;
		return 0;

	default:	/* BQLM_TUN_R_PUT: end of tun_do_read(), 2019 */
		bqlm_tun_wake(&c, q);
		rd->phase = BQLM_TUN_R_IDLE;
		return 0;
	}
}

/**
 * bqlm_tun_do_read() - the next step of the reader of queue file @q
 * @tun: the state
 * @cfg: the configuration
 * @q: the queue file
 * @ev: receives what the step did to packets
 *
 * As bqlm_tun_do_read_got(), without the packets it took.
 *
 * Return: as bqlm_tun_do_read_got().
 */
int bqlm_tun_do_read(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		     unsigned int q, struct bqlm_inv_step *ev)
{
	return bqlm_tun_do_read_got(tun, cfg, q, ev, NULL, NULL);
}

static struct bqlm_sb *bqlm_tun_sb(struct bqlm_tun *tun, unsigned int who)
{
	if (who < BQLM_TUN_MAX_CPUS)
		return &tun->cpu[who].sb;
	return &tun->rd[who - BQLM_TUN_MAX_CPUS].sb;
}

/**
 * bqlm_tun_flush() - a buffered store of a CPU reaches memory
 * @tun: the state
 * @cfg: the configuration
 * @who: the CPU: producer CPU i, or BQLM_TUN_WHO_READER(q)
 * @k: the buffer entry
 *
 * Return: 0, or -EINVAL when the memory model does not let entry @k go
 * next (or there is none).
 */
int bqlm_tun_flush(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		   unsigned int who, unsigned int k)
{
	struct bqlm_sb *sb;

	if (who >= BQLM_TUN_NR_WHO)
		return -EINVAL;
	sb = bqlm_tun_sb(tun, who);
	if (!bqlm_mm_can_flush(cfg->mm, sb, k))
		return -EINVAL;
	return bqlm_mm_flush(tun->mem, sb, k);
}

/* The administrator's view: sequentially consistent. */
static void bqlm_tun_admin_view(struct bqlm_tun *tun, struct bqlm_sb *sb,
				struct bqlm_mm_cpu *c)
{
	memset(sb, 0, sizeof(*sb));
	c->kind = BQLM_MM_SC;
	c->mem = tun->mem;
	c->sb = sb;
}

/* Transmits in flight on queue @q saw the ring before a reconfiguration. */
static void bqlm_tun_reconfigured(struct bqlm_tun *tun, unsigned int q)
{
	unsigned int i;

	for (i = 0; i < BQLM_TUN_MAX_CPUS; i++)
		if (tun->cpu[i].phase != BQLM_TUN_X_IDLE &&
		    tun->cpu[i].txq == q)
			tun->cpu[i].raced |= BQLM_TUN_RACED_RECONFIG;
}

/* tun_force_wake_queue(): both ring locks held, wake, cons_cnt = 0. */
static void bqlm_tun_force_wake_queue(struct bqlm_tun *tun, unsigned int q)
{
	struct bqlm_mm_cpu c;
	struct bqlm_sb sb;

	bqlm_tun_reconfigured(tun, q);
	bqlm_tun_admin_view(tun, &sb, &c);
	bqlm_tun_wake(&c, q);
	tun->q[q].cons_cnt = 0;
	tun->q[q].woke_full = bqlm___ptr_ring_full(&tun->q[q].ring, &c);
}

static bool bqlm_tun_locks_free(const struct bqlm_tun *tun, unsigned int q)
{
	/* the administrator is sequentially consistent: memory decides */
	return !tun->mem[BQLM_TUN_PLOCK_VAR(q)] &&
	       !tun->mem[BQLM_TUN_CLOCK_VAR(q)];
}

/*
 * After a reconfiguration with backpressure: the queues it had to wake
 * (mask @woken) are awake, their wake counters reset.
 */
static void bqlm_tun_check_reconfig(const struct bqlm_tun *tun,
				    const struct bqlm_tun_cfg *cfg,
				    unsigned int woken,
				    struct bqlm_inv_step *ev)
{
	unsigned int q;

	if (!bqlm_tun_bp_variant(cfg))
		return;
	for (q = 0; q < tun->numqueues; q++)
		if ((woken & (1U << q)) &&
		    (bqlm_tun_stopped(tun, q) || tun->q[q].cons_cnt))
			ev->reconfig_stopped++;
}

static bool bqlm_tun_can_detach(const struct bqlm_tun *tun,
				const struct bqlm_tun_cfg *cfg)
{
	unsigned int q, i;

	if (!tun->detaching)
		return tun->detaches_left && tun->numqueues;
	q = tun->detaching - 1;
	for (i = 0; i < cfg->cpus; i++)
		if (tun->cpu[i].phase != BQLM_TUN_X_IDLE)
			return false;	/* synchronize_net() waits */
	return bqlm_tun_locks_free(tun, q);
}

/**
 * bqlm_tun_detach() - TUNSETQUEUE(IFF_DETACH_QUEUE): tun_detach(tfile,
 *	false) of the last attached queue file, one step at a time
 * @tun: the state
 * @cfg: the configuration
 * @ev: receives what the step did to packets
 *
 * First step: tun->tfiles[index] = NULL, --tun->numqueues. Second step,
 * once synchronize_net() let every tun_net_xmit() finish: tun_queue_purge()
 * under the consumer lock. Nothing touches the txq state: a queue stopped
 * at detach stays stopped.
 *
 * Return: 0, -EAGAIN when the second step must wait, -EINVAL when no
 * detach is left in the bound or nothing is attached.
 */
int bqlm_tun_detach(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		    struct bqlm_inv_step *ev)
{
	unsigned char *where = bqlm_tun_where(tun, cfg);
	unsigned int q, slot, ptr, ids = bqlm_tun_ids(cfg);
	struct bqlm_ptr_ring *r;
	struct bqlm_mm_cpu c;
	struct bqlm_sb sb;

	if (!tun->detaching && !(tun->detaches_left && tun->numqueues))
		return -EINVAL;
	if (!bqlm_tun_can_detach(tun, cfg))
		return -EAGAIN;
	if (!tun->detaching) {
		q = tun->numqueues - 1;
		tun->q[q].attached = 0;
		tun->numqueues--;
		tun->detaching = q + 1;
		return 0;
	}
	q = tun->detaching - 1;
	r = &tun->q[q].ring;
	bqlm_tun_admin_view(tun, &sb, &c);
	/* tun_queue_purge(): bqlm_ptr_ring_purge(), one entry at a time */
	for (;;) {
		slot = r->consumer_head;
		ptr = bqlm___ptr_ring_consume(r, &c);
		if (!ptr)
			break;
		bqlm_tun_forget(tun, cfg, q, slot);
		if (ptr <= ids) {
			if (where[ptr - 1] != BQLM_TUN_PKT_RING)
				ev->twice++;
			bqlm_tun_drop(tun, cfg, ptr, BQLM_TUN_DROP_PURGED);
		}
	}
	if (bqlm_tun_bql_variant(cfg))
		bqlm_tun_bql_reset(tun, cfg, q);
	tun->detaching = 0;
	tun->detaches_left--;
	return 0;
}

static bool bqlm_tun_can_attach(const struct bqlm_tun *tun,
				const struct bqlm_tun_cfg *cfg)
{
	if (tun->detaching || tun->numqueues >= cfg->queues)
		return false;
	return !bqlm_tun_bp_variant(cfg) ||
	       bqlm_tun_locks_free(tun, tun->numqueues);
}

/**
 * bqlm_tun_attach() - TUNSETQUEUE(IFF_ATTACH_QUEUE): tun_attach() of the
 *	detached queue file
 * @tun: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * The tfile gets queue_index = numqueues and is published. With the
 * backpressure designs tun_force_wake_queue() wakes its txq and resets
 * cons_cnt under both ring locks; 6.12 and the 2019 experiment leave the
 * txq state alone.
 *
 * Return: 0, -EAGAIN while a ring lock is held, -EINVAL when no queue
 * file is detached.
 */
int bqlm_tun_attach(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		    struct bqlm_inv_step *ev)
{
	unsigned int q = tun->numqueues;

	if (tun->detaching || q >= cfg->queues)
		return -EINVAL;
	if (!bqlm_tun_can_attach(tun, cfg))
		return -EAGAIN;
	tun->q[q].attached = 1;
	tun->numqueues++;
	if (bqlm_tun_v12(cfg)) {
		/* cons_cnt = 0 under consumer_lock, no wake */
		tun->q[q].cons_cnt = 0;
		return 0;
	}
	if (bqlm_tun_bp_variant(cfg))
		bqlm_tun_force_wake_queue(tun, q);
	bqlm_tun_check_reconfig(tun, cfg, 1U << q, ev);
	return 0;
}

static bool bqlm_tun_all_locks_free(const struct bqlm_tun *tun,
				    const struct bqlm_tun_cfg *cfg)
{
	unsigned int q;

	for (q = 0; q < cfg->queues; q++)
		if (!bqlm_tun_locks_free(tun, q))
			return false;
	return true;
}

static bool bqlm_tun_can_set_iff(const struct bqlm_tun *tun,
				 const struct bqlm_tun_cfg *cfg)
{
	if (!tun->set_iffs_left || tun->detaching)
		return false;
	return !bqlm_tun_bp_variant(cfg) || bqlm_tun_v12(cfg) ||
	       bqlm_tun_all_locks_free(tun, cfg);
}

/**
 * bqlm_tun_set_iff() - TUNSETIFF on the running device
 * @tun: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * The backpressure designs flip IFF_BACKPRESSURE (tun->flags takes the
 * TUN_FEATURES bits of the request) and tun_force_wake_queue() every
 * attached queue file; 6.12 and the 2019 experiment run
 * netif_tx_wake_all_queues().
 *
 * Return: 0, -EAGAIN while a ring lock is held, -EINVAL when no call is
 * left in the bound.
 */
int bqlm_tun_set_iff(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		     struct bqlm_inv_step *ev)
{
	struct bqlm_mm_cpu c;
	struct bqlm_sb sb;
	unsigned int q;

	if (!tun->set_iffs_left || tun->detaching)
		return -EINVAL;
	if (!bqlm_tun_can_set_iff(tun, cfg))
		return -EAGAIN;
	tun->set_iffs_left--;
	if (bqlm_tun_bp_variant(cfg) && !bqlm_tun_v12(cfg)) {
		tun->backpressure = !tun->backpressure;
		for (q = 0; q < tun->numqueues; q++)
			bqlm_tun_force_wake_queue(tun, q);
		bqlm_tun_check_reconfig(tun, cfg, ~0U, ev);
		return 0;
	}
	bqlm_tun_admin_view(tun, &sb, &c);
	for (q = 0; q < cfg->queues; q++) {
		bqlm_tun_wake(&c, q);
		if (bqlm_tun_v12(cfg)) {
			/* a wake of a full ring, as a forced one */
			bqlm_tun_reconfigured(tun, q);
			tun->q[q].woke_full =
				bqlm___ptr_ring_full(&tun->q[q].ring, &c);
		}
	}
	return 0;
}

static bool bqlm_tun_can_resize(const struct bqlm_tun *tun,
				const struct bqlm_tun_cfg *cfg)
{
	return tun->resizes_left && !tun->detaching &&
	       bqlm_tun_all_locks_free(tun, cfg);
}

/**
 * bqlm_tun_queue_resize() - a tx_queue_len change: tun_queue_resize()
 * @tun: the state
 * @cfg: the configuration (the new length is cfg->resize_to)
 * @ev: receives what the step did to packets
 *
 * ptr_ring_resize_multiple_bh() of every queue file's ring under both of
 * its locks (entries that do not fit are freed), then, with the
 * backpressure designs, tun_force_wake_queue() of every attached one.
 *
 * Return: 0, -EAGAIN while a ring lock is held, -EINVAL when no resize is
 * left in the bound.
 */
int bqlm_tun_queue_resize(struct bqlm_tun *tun,
			  const struct bqlm_tun_cfg *cfg,
			  struct bqlm_inv_step *ev)
{
	unsigned int destroyed[BQLM_PTR_RING_MAX];
	unsigned short freed[BQLM_PTR_RING_MAX];
	unsigned int ids = bqlm_tun_ids(cfg);
	struct bqlm_mm_cpu c;
	struct bqlm_sb sb;
	unsigned int q, i;
	int n;

	if (!tun->resizes_left || tun->detaching)
		return -EINVAL;
	if (!bqlm_tun_can_resize(tun, cfg))
		return -EAGAIN;
	tun->resizes_left--;
	bqlm_tun_admin_view(tun, &sb, &c);
	for (q = 0; q < cfg->queues; q++) {
		struct bqlm_tun_queue *tq = &tun->q[q];

		bqlm_tun_reconfigured(tun, q);
		n = bqlm_ptr_ring_resize(&tq->ring, &c, cfg->resize_to,
					 cfg->batch, destroyed,
					 ARRAY_SIZE(destroyed));
		for (i = 0; n > 0 && i < (unsigned int)n; i++) {
			if (destroyed[i] && destroyed[i] <= ids)
				bqlm_tun_drop(tun, cfg, destroyed[i],
					      BQLM_TUN_DROP_RESIZED);
			freed[i] = destroyed[i];
		}
		if (cfg->variant == BQLM_TUN_BQL && n > 0)
			bqlm_tun_bql_completed(tun, cfg, q, freed, n, ev);
		else if (cfg->variant == BQLM_TUN_BQL_RESET_RESIZE)
			bqlm_tun_bql_reset(tun, cfg, q);
		for (i = 0; i < bqlm_tun_cap(cfg); i++)
			bqlm_tun_shadow(tun, cfg, q)[i] =
				tun->mem[tq->ring.base + i];
	}
	if (bqlm_tun_bp_variant(cfg)) {
		for (q = 0; q < tun->numqueues; q++)
			bqlm_tun_force_wake_queue(tun, q);
		bqlm_tun_check_reconfig(tun, cfg, ~0U, ev);
	}
	return 0;
}

/**
 * bqlm_tun_check() - check the invariants after a step
 * @tun: the state after the step
 * @cfg: the configuration
 * @where: the modelled kernel function of the step
 * @ev: what the step did (NULL for a state check)
 * @quiescent: nothing but the outside world can act in @tun
 * @each: as for bqlm_inv_check(), may be NULL
 *
 * Packet accounting and the backpressure checks go through
 * bqlm_inv_check() as step figures; outside the BQL study the DQL handed
 * to the checker stays at rest, in the study it is the queue's own, with
 * the bytes of the packets reported sent and not completed (nor forgotten
 * by a reset) as the ground truth. A stall is a quiescent state in which an
 * attached queue file's txq has DRV_XOFF set: no reader is running (the
 * rings are empty or look empty to their sleeping readers), no transmit is
 * in progress, every store buffer has drained.
 *
 * Return: the mask of violated checks.
 */
static unsigned int bqlm_tun_check(const struct bqlm_tun *tun,
				   const struct bqlm_tun_cfg *cfg,
				   const char *where,
				   const struct bqlm_inv_step *ev,
				   bool quiescent, struct bqlm_violation *each)
{
	struct bqlm_inv_counters c;
	struct bqlm_dql rest;
	unsigned int q, mask = 0;

	memset(&rest, 0, sizeof(rest));
	memset(&c, 0, sizeof(c));
	c.where = where;
	c.bql = true;	/* the accounting checks; the DQL stays at rest */
	c.dql = &rest;
	if (bqlm_tun_bql_variant(cfg)) {
		/* the study: the one queue's DQL against the packets' books */
		const unsigned char *bql = bqlm_tun_bql(tun, cfg);
		unsigned int i, ids = bqlm_tun_ids(cfg);

		c.dql = &bqlm_tun_txq(tun, cfg, 0)->dql;
		for (i = 0; i < ids; i++)
			if (bql[i] == BQLM_TUN_BQL_SENT)
				c.inflight += cfg->len;
	}
	if (ev)
		c.step = *ev;
	if (!quiescent)
		return bqlm_inv_check(&c, NULL, each);
	for (q = 0; q < tun->numqueues; q++) {
		c.quiescent = true;
		c.wants_tx = true;
		c.stopped = bqlm_tun_stopped(tun, q) ||
			    (bqlm_tun_bql_variant(cfg) &&
			     bqlm_netif_xmit_stopped(bqlm_tun_txq(tun, cfg,
							       q)));
		mask |= bqlm_inv_check(&c, NULL, each);
	}
	return mask;
}

/**
 * bqlm_tun_slot_pkts() - the packet each ring slot of a queue file was
 *	last produced with (the model's own record, for a harness's view)
 * @tun: the state
 * @cfg: its configuration
 * @q: the queue file, below BQLM_TUN_MAX_QUEUES
 *
 * Return: the array of that queue file's slots, in struct bqlm_tun.mem.
 */
unsigned short *bqlm_tun_slot_pkts(struct bqlm_tun *tun,
				   const struct bqlm_tun_cfg *cfg, unsigned int q)
{
	return bqlm_tun_shadow(tun, cfg, q);
}

/**
 * bqlm_tun_pkt_set_where() - say where a packet is (a harness's view)
 * @tun: the state
 * @cfg: its configuration
 * @pkt: the packet id, 1..bqlm_tun_nr_ids()
 * @where: enum bqlm_tun_where
 *
 * Return: 0, or -EINVAL for a packet id or place out of range.
 */
int bqlm_tun_pkt_set_where(struct bqlm_tun *tun,
			   const struct bqlm_tun_cfg *cfg, unsigned int pkt,
			   unsigned int where)
{
	if (!pkt || pkt > bqlm_tun_ids(cfg) || where >= BQLM_TUN_NR_WHERE)
		return -EINVAL;
	bqlm_tun_where(tun, cfg)[pkt - 1] = where;
	return 0;
}

/**
 * bqlm_tun_check_step() - the invariants of a step, on any state
 * @tun: the state after the step (the model's, or a view of the real code)
 * @cfg: the configuration
 * @where: the kernel function of the step, for messages
 * @ev: what the step did to packets
 * @each: as for bqlm_inv_check(), may be NULL
 *
 * The checks the explorer makes after each step (the state's own checks,
 * such as the stall, are the system's check_state()).
 *
 * Return: the mask of violated checks.
 */
unsigned int bqlm_tun_check_step(const struct bqlm_tun *tun,
				 const struct bqlm_tun_cfg *cfg,
				 const char *where,
				 const struct bqlm_inv_step *ev,
				 struct bqlm_violation *each)
{
	return bqlm_tun_check(tun, cfg, where, ev, false, each);
}

/* The explorer's view. */

static unsigned int bqlm_tun_enabled(const void *ctx, const void *state,
				     unsigned int *a)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	const struct bqlm_tun *tun = state;
	unsigned int n = 0, i, k;

	for (i = 0; i < cfg->cpus; i++)
		if (bqlm_tun_can_xmit(tun, cfg, i))
			a[n++] = BQLM_TUN_ACTION(BQLM_TUN_A_XMIT, i);
	for (i = 0; i < cfg->queues; i++)
		if (bqlm_tun_can_read(tun, cfg, i))
			a[n++] = BQLM_TUN_ACTION(BQLM_TUN_A_READ, i);
	for (i = 0; i < BQLM_TUN_NR_WHO; i++) {
		const struct bqlm_sb *sb = i < BQLM_TUN_MAX_CPUS ?
					   &tun->cpu[i].sb :
					   &tun->rd[i - BQLM_TUN_MAX_CPUS].sb;

		for (k = 0; k < sb->n; k++)
			if (bqlm_mm_can_flush(cfg->mm, sb, k))
				a[n++] = BQLM_TUN_ACTION(BQLM_TUN_A_FLUSH,
					 i * BQLM_SB_DEPTH + k);
	}
	if (bqlm_tun_can_detach(tun, cfg))
		a[n++] = BQLM_TUN_ACTION(BQLM_TUN_A_DETACH, 0);
	if (bqlm_tun_can_attach(tun, cfg))
		a[n++] = BQLM_TUN_ACTION(BQLM_TUN_A_ATTACH, 0);
	if (bqlm_tun_can_set_iff(tun, cfg))
		a[n++] = BQLM_TUN_ACTION(BQLM_TUN_A_SET_IFF, 0);
	if (bqlm_tun_can_resize(tun, cfg))
		a[n++] = BQLM_TUN_ACTION(BQLM_TUN_A_RESIZE, 0);
	return n;
}

/* The outside world: a new packet from the stack, an administrator. */
static bool bqlm_tun_external(const struct bqlm_tun *tun, unsigned int action)
{
	unsigned int arg = BQLM_TUN_ARG(action);

	switch (BQLM_TUN_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		return arg < BQLM_TUN_MAX_CPUS &&
		       tun->cpu[arg].phase == BQLM_TUN_X_IDLE;
	case BQLM_TUN_A_DETACH:
		return !tun->detaching;
	case BQLM_TUN_A_ATTACH:
	case BQLM_TUN_A_SET_IFF:
	case BQLM_TUN_A_RESIZE:
		return true;
	default:
		return false;
	}
}

static int bqlm_tun_do(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
		       unsigned int action, struct bqlm_inv_step *ev,
		       const char **where)
{
	unsigned int arg = BQLM_TUN_ARG(action);

	switch (BQLM_TUN_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		*where = "tun_net_xmit";
		return bqlm_tun_net_xmit(tun, cfg, arg, ev);
	case BQLM_TUN_A_READ:
		*where = cfg->reader == BQLM_TUN_VHOST ? "handle_rx" :
			 "tun_do_read";
		return bqlm_tun_do_read(tun, cfg, arg, ev);
	case BQLM_TUN_A_FLUSH:
		*where = "store buffer";
		return bqlm_tun_flush(tun, cfg, arg / BQLM_SB_DEPTH,
				      arg % BQLM_SB_DEPTH);
	case BQLM_TUN_A_DETACH:
		*where = "tun_detach";
		return bqlm_tun_detach(tun, cfg, ev);
	case BQLM_TUN_A_ATTACH:
		*where = "tun_attach";
		return bqlm_tun_attach(tun, cfg, ev);
	case BQLM_TUN_A_SET_IFF:
		*where = "tun_set_iff";
		return bqlm_tun_set_iff(tun, cfg, ev);
	case BQLM_TUN_A_RESIZE:
		*where = "tun_queue_resize";
		return bqlm_tun_queue_resize(tun, cfg, ev);
	default:
		*where = "?";
		return -EINVAL;
	}
}

static int bqlm_tun_xstep(const void *ctx, const void *from,
			  unsigned int action, void *to,
			  struct bqlm_violation *each)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	struct bqlm_tun *tun = to;
	struct bqlm_inv_step ev;
	const char *where;
	unsigned int q;

	(void)from;
	memset(&ev, 0, sizeof(ev));
	if (bqlm_tun_do(tun, cfg, action, &ev, &where))
		return -EINVAL;
	/* the qdisc reschedule is not state (the stack actor is the qdisc) */
	if (bqlm_tun_bql_variant(cfg))
		for (q = 0; q < cfg->queues; q++) {
			struct bqlm_txq *txq = bqlm_tun_txq(tun, cfg, q);

			txq->sched_pending = false;
			txq->sched_count = 0;
		}
	return bqlm_tun_check(tun, cfg, where, &ev, false, each);
}

static void bqlm_tun_stats(const struct bqlm_tun *tun,
			   const struct bqlm_tun_cfg *cfg)
{
	struct bqlm_tun_stats *st = cfg->stats;
	unsigned int i, any = 0;

	if (!st)
		return;
	st->states++;
	for (i = 0; i < BQLM_TUN_NR_DROPS; i++) {
		if (tun->drops[i] > st->max_drops[i])
			st->max_drops[i] = tun->drops[i];
		if (i != BQLM_TUN_DROP_PURGED && i != BQLM_TUN_DROP_RESIZED)
			any += tun->drops[i];
	}
	if (any)
		st->states_with_drops++;
	if (tun->delivered > st->max_delivered)
		st->max_delivered = tun->delivered;
}

static int bqlm_tun_check_state(const void *ctx, const void *state,
				const unsigned int *actions, unsigned int n,
				struct bqlm_violation *each)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	const struct bqlm_tun *tun = state;
	unsigned int i;

	bqlm_tun_stats(tun, cfg);
	for (i = 0; i < n; i++)
		if (!bqlm_tun_external(tun, actions[i]))
			return 0;
	return bqlm_tun_check(tun, cfg, "quiescent state", NULL, true, each);
}

static int bqlm_tun_describe_xmit(const struct bqlm_tun *tun,
				  const struct bqlm_tun_cfg *cfg,
				  unsigned int cpu, char *buf, size_t len)
{
	const struct bqlm_tun_cpu *x = &tun->cpu[cpu % BQLM_TUN_MAX_CPUS];
	bool bp = bqlm_tun_bp_variant(cfg);
	unsigned int txq;

	switch (x->phase) {
	case BQLM_TUN_X_IDLE:
		txq = bqlm_tun_txq_of(tun, cfg, cpu);
		return snprintf(buf, len,
				"cpu%u: stack: netif_xmit_stopped(txq%u) = false, dequeue pkt%u -> tun_net_xmit%s",
				cpu, txq, tun->sent + 1,
				cfg->qdisc ? "" : " (noqueue: dropped if stopped)");
	case BQLM_TUN_X_START:
		if (x->txq >= tun->numqueues)
			return snprintf(buf, len,
					"cpu%u: tun_net_xmit: tfiles[%u] == NULL: drop pkt%u (DEV_READY)",
					cpu, x->txq, x->pkt);
		if (cfg->variant == BQLM_TUN_STOCK)
			return snprintf(buf, len,
					"cpu%u: tun_net_xmit: ptr_ring_produce(q%u, pkt%u) [producer_lock], drop if full, else sk_data_ready",
					cpu, x->txq, x->pkt);
		if (cfg->variant == BQLM_TUN_STOP_2019)
			return snprintf(buf, len,
					"cpu%u: tun_net_xmit: ptr_ring_produce(q%u, pkt%u) [producer_lock]",
					cpu, x->txq, x->pkt);
		if (bqlm_tun_bql_variant(cfg) && !bqlm_tun_bql_late(cfg))
			return snprintf(buf, len,
					"cpu%u: tun_net_xmit: spin_lock(producer_lock), __ptr_ring_check_produce(q%u) == 0 ? netdev_tx_sent_queue(%u B), __ptr_ring_produce(pkt%u)",
					cpu, x->txq, cfg->len, x->pkt);
		return snprintf(buf, len,
				"cpu%u: tun_net_xmit: spin_lock(producer_lock), __ptr_ring_produce(q%u, pkt%u)",
				cpu, x->txq, x->pkt);
	case BQLM_TUN_X_PRODUCED:
		if (bqlm_tun_bql_variant(cfg))
			return snprintf(buf, len,
					"cpu%u: tun_net_xmit [producer_lock]: %s",
					cpu, x->ret ? "ring full, no BQL call" :
					bqlm_tun_bql_late(cfg) ?
					"netdev_tx_sent_queue after the produce" :
					"(sent earlier) nothing more");
		if (!bp)
			return snprintf(buf, len,
					"cpu%u: tun_net_xmit: ptr_ring_full(q%u) [producer_lock]",
					cpu, x->txq);
		return snprintf(buf, len,
				"cpu%u: tun_net_xmit: IFF_BACKPRESSURE %s, qdisc %s: __ptr_ring_check_produce() == -ENOSPC ? netif_tx_stop_queue(txq%u)",
				cpu, bqlm_tun_flag(tun, cfg) ? "on" : "off",
				cfg->qdisc ? "yes" : "noqueue", x->txq);
	case BQLM_TUN_X_STOP:
		if (!bp)
			return snprintf(buf, len,
					"cpu%u: tun_net_xmit: netif_stop_subqueue(txq%u)%s",
					cpu, x->txq, x->ret ?
					", drop pkt (FULL_RING)" :
					", sk_data_ready");
		return snprintf(buf, len,
				"cpu%u: tun_net_xmit: %s__ptr_ring_check_produce(q%u) == 0 ? netif_tx_wake_queue(txq%u)",
				cpu, bqlm_tun_producer_mb(cfg) ?
				"smp_mb__after_atomic(), " :
				"(no barrier) ", x->txq, x->txq);
	default:
		return snprintf(buf, len,
				"cpu%u: tun_net_xmit: spin_unlock(producer_lock), %s",
				cpu, x->ret ? "drop pkt (FULL_RING)" :
				"sk_data_ready");
	}
}

static int bqlm_tun_describe_read(const struct bqlm_tun *tun,
				  const struct bqlm_tun_cfg *cfg,
				  unsigned int q, char *buf, size_t len)
{
	const struct bqlm_tun_reader *rd = &tun->rd[q % BQLM_TUN_MAX_QUEUES];
	const char *who = cfg->reader == BQLM_TUN_VHOST ? "vhost" : "reader";
	const char *consume = cfg->reader == BQLM_TUN_VHOST ?
			      "ptr_ring_consume_batched" :
			      "tun_do_read: tun_ring_recv: ptr_ring_consume";
	const char *empty = cfg->reader == BQLM_TUN_READ ?
			    "if empty: sleep in tun_ring_recv" :
			    cfg->reader == BQLM_TUN_READ_NONBLOCK ?
			    "if empty: -EAGAIN, poll()" :
			    "if empty: wait for the socket's wakeup";

	switch (rd->phase) {
	case BQLM_TUN_R_IDLE:
		return snprintf(buf, len, "%s%u: %s(q%u)%s; %s", who, q,
				consume, q,
				bqlm_tun_bp_variant(cfg) ||
				bqlm_tun_bql_variant(cfg) ?
				" [consumer_lock held on]" : "", empty);
	case BQLM_TUN_R_WAKE:
		if (bqlm_tun_bql_variant(cfg))
			return snprintf(buf, len,
					"%s%u: netdev_tx_completed_queue(txq%u, %u, %u)",
					who, q, q, rd->nr, rd->nr * cfg->len);
		if (!bqlm_tun_flag(tun, cfg))
			return snprintf(buf, len,
					"%s%u: __tun_wake_queue: IFF_BACKPRESSURE off, return",
					who, q);
		return snprintf(buf, len,
				"%s%u: __tun_wake_queue(%u): %snetif_tx_queue_stopped(txq%u) ? cons_cnt += %u, wake at %u",
				who, q, rd->nr,
				bqlm_tun_consumer_mb(cfg) ? "smp_mb(), " :
				"(no barrier) ", q, rd->nr,
				tun->q[q % BQLM_TUN_MAX_QUEUES].ring.size / 2);
	case BQLM_TUN_R_UNLOCK:
		return snprintf(buf, len, "%s%u: spin_unlock(consumer_lock)",
				who, q);
	default:
		return snprintf(buf, len,
				"%s%u: tun_put_user, netif_wake_subqueue(txq%u)",
				who, q, q);
	}
}

static int bqlm_tun_describe_action(const void *ctx, const void *state,
				    unsigned int action, char *buf,
				    size_t len)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	const struct bqlm_tun *tun = state;
	unsigned int arg = BQLM_TUN_ARG(action);
	unsigned int who = arg / BQLM_SB_DEPTH;
	char e[48];

	switch (BQLM_TUN_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		return bqlm_tun_describe_xmit(tun, cfg, arg, buf, len);
	case BQLM_TUN_A_READ:
		return bqlm_tun_describe_read(tun, cfg, arg, buf, len);
	case BQLM_TUN_A_FLUSH:
		if (who >= BQLM_TUN_NR_WHO)
			return snprintf(buf, len, "? flush %#x", action);
		bqlm_tun_describe_entry(cfg, who < BQLM_TUN_MAX_CPUS ?
					&tun->cpu[who].sb :
					&tun->rd[who - BQLM_TUN_MAX_CPUS].sb,
					arg % BQLM_SB_DEPTH, e, sizeof(e));
		if (who < BQLM_TUN_MAX_CPUS)
			return snprintf(buf, len,
					"memory: cpu%u's store reaches memory: %s",
					who, e);
		return snprintf(buf, len,
				"memory: reader%u's store reaches memory: %s",
				who - BQLM_TUN_MAX_CPUS, e);
	case BQLM_TUN_A_DETACH:
		if (!tun->detaching)
			return snprintf(buf, len,
					"admin: TUNSETQUEUE(IFF_DETACH_QUEUE): tun_detach: tfiles[%u] = NULL, --numqueues",
					tun->numqueues - 1);
		return snprintf(buf, len,
				"admin: tun_detach: synchronize_net, tun_queue_purge(q%u) [consumer_lock]%s",
				tun->detaching - 1, bqlm_tun_bql_variant(cfg) ?
				", netdev_tx_reset_queue" : "");
	case BQLM_TUN_A_ATTACH:
		return snprintf(buf, len,
				"admin: TUNSETQUEUE(IFF_ATTACH_QUEUE): tun_attach(q%u)%s",
				tun->numqueues, bqlm_tun_v12(cfg) ?
				", cons_cnt = 0 [consumer_lock], no wake" :
				bqlm_tun_bp_variant(cfg) ?
				", tun_force_wake_queue" : "");
	case BQLM_TUN_A_SET_IFF:
		if (bqlm_tun_bp_variant(cfg) && !bqlm_tun_v12(cfg))
			return snprintf(buf, len,
					"admin: TUNSETIFF: IFF_BACKPRESSURE %s, tun_force_wake_queue on every queue",
					tun->backpressure ? "off" : "on");
		return snprintf(buf, len,
				"admin: TUNSETIFF: netif_tx_wake_all_queues");
	case BQLM_TUN_A_RESIZE:
		return snprintf(buf, len,
				"admin: tx_queue_len = %u: tun_queue_resize: ptr_ring_resize_multiple_bh%s",
				cfg->resize_to, bqlm_tun_bp_variant(cfg) ?
				", tun_force_wake_queue" :
				cfg->variant == BQLM_TUN_BQL_RESET_RESIZE ?
				", netdev_tx_reset_queue" :
				bqlm_tun_bql_variant(cfg) ?
				", netdev_tx_completed_queue(what it freed)" : "");
	default:
		return snprintf(buf, len, "? action %#x", action);
	}
}

static const char *const bqlm_tun_x_names[BQLM_TUN_NR_X] = {
	[BQLM_TUN_X_IDLE] = "idle",
	[BQLM_TUN_X_START] = "start",
	[BQLM_TUN_X_PRODUCED] = "produced",
	[BQLM_TUN_X_STOP] = "stop",
	[BQLM_TUN_X_UNLOCK] = "unlock",
};

static const char *const bqlm_tun_r_names[BQLM_TUN_NR_R] = {
	[BQLM_TUN_R_IDLE] = "run",
	[BQLM_TUN_R_WAKE] = "wake",
	[BQLM_TUN_R_UNLOCK] = "unlock",
	[BQLM_TUN_R_PUT] = "put",
};

static size_t bqlm_tun_describe_sb(const struct bqlm_tun_cfg *cfg,
				   const struct bqlm_sb *sb, char *buf,
				   size_t len)
{
	size_t n = 0;
	unsigned int k;

	if (!sb->n)
		return 0;
	n += snprintf(buf + n, len - n, " sb{");
	for (k = 0; k < sb->n && n < len; k++) {
		n += bqlm_tun_describe_entry(cfg, sb, k, buf + n, len - n);
		if (n < len)
			n += snprintf(buf + n, len - n, "%s",
				      k + 1 < sb->n ? ", " : "}");
	}
	return n;
}

static int bqlm_tun_describe_state(const void *ctx, const void *state,
				   char *buf, size_t len)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	const struct bqlm_tun *tun = state;
	size_t n = 0;
	unsigned int q, i;

	for (q = 0; q < cfg->queues && n < len; q++) {
		const struct bqlm_tun_queue *tq = &tun->q[q];

		n += snprintf(buf + n, len - n, "q%u[", q);
		for (i = 0; i < tq->ring.size && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%u", i ? " " : "",
				      tun->mem[tq->ring.base + i]);
		if (n < len)
			n += snprintf(buf + n, len - n,
				      "] p%u h%u cc%u%s%s%s | ",
				      tq->ring.producer,
				      tq->ring.consumer_head, tq->cons_cnt,
				      bqlm_tun_stopped(tun, q) ? " XOFF" : "",
				      tq->attached ? "" : " detached",
				      tun->rd[q].sleeping ? " rd-sleeps" :
				      "");
	}
	for (i = 0; i < cfg->cpus && n < len; i++) {
		const struct bqlm_tun_cpu *x = &tun->cpu[i];

		n += snprintf(buf + n, len - n, "cpu%u %s", i,
			      bqlm_tun_x_names[x->phase % BQLM_TUN_NR_X]);
		if (x->phase != BQLM_TUN_X_IDLE && n < len)
			n += snprintf(buf + n, len - n, " pkt%u", x->pkt);
		if (n < len)
			n += bqlm_tun_describe_sb(cfg, &x->sb, buf + n,
						  len - n);
		if (n < len)
			n += snprintf(buf + n, len - n, " | ");
	}
	for (q = 0; q < cfg->queues && n < len; q++) {
		n += snprintf(buf + n, len - n, "rd%u %s", q,
			      bqlm_tun_r_names[tun->rd[q].phase %
					       BQLM_TUN_NR_R]);
		if (n < len)
			n += bqlm_tun_describe_sb(cfg, &tun->rd[q].sb, buf + n,
						  len - n);
		if (n < len)
			n += snprintf(buf + n, len - n, " | ");
	}
	if (bqlm_tun_bql_variant(cfg) && n < len) {
		const struct bqlm_txq *txq = bqlm_tun_txq(tun, cfg, 0);

		n += snprintf(buf + n, len - n,
			      "dql queued %u completed %u limit %u%s | ",
			      txq->dql.num_queued, txq->dql.num_completed,
			      txq->dql.limit, bqlm_netif_xmit_stopped(txq) ?
			      " STACK_XOFF" : "");
	}
	if (n < len)
		n += snprintf(buf + n, len - n, "sent %u read %u dropped %u%s",
			      tun->sent, tun->delivered,
			      tun->drops[BQLM_TUN_DROP_FULL] +
			      tun->drops[BQLM_TUN_DROP_RACE] +
			      tun->drops[BQLM_TUN_DROP_WOKE_FULL] +
			      tun->drops[BQLM_TUN_DROP_BP] +
			      tun->drops[BQLM_TUN_DROP_DETACHED] +
			      tun->drops[BQLM_TUN_DROP_NOQUEUE] +
			      tun->drops[BQLM_TUN_DROP_PURGED] +
			      tun->drops[BQLM_TUN_DROP_RESIZED],
			      bqlm_tun_bp_variant(cfg) ?
			      (bqlm_tun_flag(tun, cfg) ? " bp:on" : " bp:off") :
			      "");
	return n;
}

/*
 * Symmetry: a packet id is an identity, nothing else. The model compares
 * ids for equality and indexes where[] (and the study's bql[]) by them,
 * and hands out the next id as tun->sent + 1; it never orders them. Two
 * states that differ by a renaming of the ids handed out so far behave the
 * same, so the representative renames them in the order they are first
 * met: the CPUs' packets, the readers' batches, each ring's slots in
 * memory order, the store buffers' pending slot stores, each ring's
 * shadow; then the ids referred to nowhere (read or dropped, their slot
 * reused), by where[] and bql[], which is all that is left of them.
 */
struct bqlm_tun_canon {
	unsigned short map[BQLM_TUN_MAX_PACKETS + 1];
	unsigned int next;
};

static void bqlm_tun_canon_meet(struct bqlm_tun_canon *m, unsigned int id,
				unsigned int sent)
{
	if (id && id <= sent && !m->map[id])
		m->map[id] = ++m->next;
}

static unsigned short bqlm_tun_canon_id(const struct bqlm_tun_canon *m,
					unsigned int id)
{
	return id && id < ARRAY_SIZE(m->map) && m->map[id] ? m->map[id] : id;
}

/* Is @var one of the ring slots of the state? */
static bool bqlm_tun_slot_var(const struct bqlm_tun *tun,
			      const struct bqlm_tun_cfg *cfg, unsigned int var)
{
	unsigned int q;

	for (q = 0; q < cfg->queues; q++)
		if (var >= tun->q[q].ring.base &&
		    var < tun->q[q].ring.base + bqlm_tun_cap(cfg))
			return true;
	return false;
}

/*
 * Meet every id field of @tun in the canonical order (@rename false), or
 * rename each by @m (@rename true).
 */
static void bqlm_tun_canon_walk(struct bqlm_tun *tun,
				const struct bqlm_tun_cfg *cfg,
				struct bqlm_tun_canon *m, bool rename)
{
	unsigned int i, k, q, sent = tun->sent;
	struct bqlm_sb *sb;
	unsigned short *p;

#define BQLM_TUN_CANON(field)						\
	do {								\
		if (rename)						\
			(field) = bqlm_tun_canon_id(m, (field));	\
		else							\
			bqlm_tun_canon_meet(m, (field), sent);		\
	} while (0)

	for (i = 0; i < BQLM_TUN_MAX_CPUS; i++)
		BQLM_TUN_CANON(tun->cpu[i].pkt);
	for (q = 0; q < BQLM_TUN_MAX_QUEUES; q++)
		for (k = 0; k < BQLM_TUN_VHOST_BATCH; k++)
			BQLM_TUN_CANON(tun->rd[q].got[k]);
	for (q = 0; q < cfg->queues; q++)
		for (k = 0; k < bqlm_tun_cap(cfg); k++)
			BQLM_TUN_CANON(tun->mem[tun->q[q].ring.base + k]);
	for (i = 0; i < BQLM_TUN_NR_WHO; i++) {
		sb = i < BQLM_TUN_MAX_CPUS ? &tun->cpu[i].sb :
		     &tun->rd[i - BQLM_TUN_MAX_CPUS].sb;
		for (k = 0; k < sb->n && k < BQLM_SB_DEPTH; k++)
			if (sb->e[k].op == BQLM_SB_STORE &&
			    bqlm_tun_slot_var(tun, cfg, sb->e[k].var))
				BQLM_TUN_CANON(sb->e[k].val);
	}
	for (q = 0; q < cfg->queues; q++) {
		p = bqlm_tun_shadow(tun, cfg, q);
		for (k = 0; k < bqlm_tun_cap(cfg); k++)
			BQLM_TUN_CANON(p[k]);
	}
#undef BQLM_TUN_CANON
}

static void bqlm_tun_canon(const void *ctx, void *state)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	struct bqlm_tun *tun = state;
	unsigned char *where = bqlm_tun_where(tun, cfg);
	unsigned char *bql = bqlm_tun_bql_variant(cfg) ?
			     bqlm_tun_bql(tun, cfg) : NULL;
	unsigned char w[BQLM_TUN_MAX_PACKETS], b[BQLM_TUN_MAX_PACKETS];
	unsigned int sent = tun->sent, i, j, best;
	struct bqlm_tun_canon m;

	if (!cfg->packets || sent > BQLM_TUN_MAX_PACKETS || sent < 2)
		return;
	memset(&m, 0, sizeof(m));
	bqlm_tun_canon_walk(tun, cfg, &m, false);
	/* the ids met nowhere: by (where, bql), smallest first */
	for (;;) {
		best = 0;
		for (i = 1; i <= sent; i++) {
			if (m.map[i])
				continue;
			if (!best || where[i - 1] < where[best - 1] ||
			    (where[i - 1] == where[best - 1] && bql &&
			     bql[i - 1] < bql[best - 1]))
				best = i;
		}
		if (!best)
			break;
		m.map[best] = ++m.next;
	}
	for (i = 1, j = 0; i <= sent; i++)
		j |= m.map[i] != i;
	if (!j)
		return;		/* the names are canonical already */
	bqlm_tun_canon_walk(tun, cfg, &m, true);
	for (i = 1; i <= sent; i++) {
		w[m.map[i] - 1] = where[i - 1];
		if (bql)
			b[m.map[i] - 1] = bql[i - 1];
	}
	memcpy(where, w, sent);
	if (bql)
		memcpy(bql, b, sent);
}

static void bqlm_tun_xinit(const void *ctx, void *state)
{
	bqlm_tun_init(state, ctx);
}

static const struct bqlm_xops bqlm_tun_xops = {
	.init = bqlm_tun_xinit,
	.enabled = bqlm_tun_enabled,
	.step = bqlm_tun_xstep,
	.check_state = bqlm_tun_check_state,
	.describe_action = bqlm_tun_describe_action,
	.describe_state = bqlm_tun_describe_state,
	.canon = bqlm_tun_canon,
};

/**
 * bqlm_tun_system() - the tun model as a system for the explorer
 * @cfg: the configuration; it must outlive @sys
 * @sys: receives the system
 *
 * Actions, in the order they are tried: each producer CPU's next step,
 * each reader's next step, each store-buffer entry that may reach memory,
 * the detach, attach, TUNSETIFF and resize of the administrator. The step
 * checks packet accounting and the backpressure rules; the state check
 * reports a stopped attached queue in a quiescent state (stall) and
 * gathers the figures of cfg->stats.
 *
 * The explorer's bounds are smaller than bqlm_tun_cfg_check()'s: a ring
 * (and a resize) of at most BQLM_PTR_RING_MAX slots, 1..BQLM_TUN_MAX_PACKETS
 * packets (a bounded run).
 *
 * Return: 0, or -EINVAL when @cfg is invalid or beyond those bounds.
 */
int bqlm_tun_system(const struct bqlm_tun_cfg *cfg, struct bqlm_xsys *sys)
{
	if (bqlm_tun_cfg_check(cfg) || cfg->packets < 1 ||
	    cfg->packets > BQLM_TUN_MAX_PACKETS ||
	    cfg->ring > BQLM_PTR_RING_MAX ||
	    cfg->resize_to > BQLM_PTR_RING_MAX)
		return -EINVAL;
	sys->name = "tun";
	sys->state_size = bqlm_tun_state_size(cfg);
	sys->ctx = cfg;
	sys->ops = &bqlm_tun_xops;
	return 0;
}
