// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - model of the transmit side of drivers/net/tun.c (Linux 6.12),
 * of the flow-control designs proposed for it, and of the other devices
 * whose transmit queue a consumer drains from a ptr_ring (veth's peer
 * NAPI; see <bqlm/tun.h> and docs/tun.md).
 *
 * What a design does is a set of properties of struct bqlm_tun_cfg (when
 * the producer stops, how it re-checks, which barriers, what the consumer
 * is, when it wakes, what the administrator's calls do); the profiles of
 * model/tun/tun_options.c name the designs. The code below tests properties
 * only.
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
 *    only (veth_xmit() too). The lock is an enabling condition; the steps
 *    inside it are cut where another CPU's step can change what this one
 *    reads next: the produce, the full check and stop, the re-check after
 *    the barrier, the unlock (a release: the CPU's buffered stores drain).
 *    A design whose stop is outside the lock (ptr_ring_produce() and
 *    ptr_ring_full() each take it on their own) stops, re-checks and
 *    kicks in steps after the unlock. NETDEV_TX_BUSY leaves the packet
 *    with the qdisc, which sends it again once the queue runs.
 *
 *  - The reader takes the consumer_lock for the consume and, where the
 *    design wakes there, for __tun_wake_queue() (cons_cnt is protected by
 *    it); the wake check and the unlock are steps of their own, so that the
 *    store-buffering window between the consumer's slot zeroing and its
 *    read of the queue state is explored. A reader that finds the ring
 *    empty sleeps (the wait-queue protocol makes the empty check and the
 *    sleep atomic against sk_data_ready()); the producer's notification
 *    after a successful produce wakes it. A non-blocking reader gets
 *    -EAGAIN and sleeps in poll() instead: the same state.
 *
 *  - A NAPI consumer (veth_poll()) is scheduled by the producer's
 *    __veth_xdp_flush() unless rx_notify_masked (a shared variable) says
 *    it is; napi_schedule_prep() and napi_complete_done()
 *    (NAPI_STATE_SCHED) are the consumer's own state. Its poll consumes one entry
 *    a step without a lock, wakes at the end of the loop or of the poll,
 *    and re-arms rx_notify_masked with smp_store_mb() before it re-checks
 *    the ring. A new poll starts only once the previous one returned.
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
 *    tun_detach_all() / device deletion, IFF_NAPI. Of veth: the peer
 *    device itself (the ring is the peer's rq, the txq this device's),
 *    the path without NAPI (__netif_rx() to the backlog), XDP frames in
 *    the ring, GRO, the NAPI's removal (veth_napi_del()) and every other
 *    reconfiguration. Packets are opaque (a number); their contents and
 *    the smp_wmb() that publishes them are not modelled.
 *
 * The BQL design study (tun has no BQL calls) is in tun_bql.c; this file
 * calls it, when it is on, where the study puts its calls
 * (bqlm_tun_bql_*()). The actors' enabling conditions and
 * the state's layout are in tun_internal.h; the invariants and the
 * explorer's view of all this are in tun_xsys.c.
 */
#include "bqlm_internal.h"
#include <bqlm/tun.h>
#include "tun_internal.h"

/* NULL-terminated: the words of the --reader option too */
const char *const bqlm_tun_reader_names[BQLM_TUN_NR_READERS + 1] = {
	[BQLM_TUN_READ] = "read",
	[BQLM_TUN_READ_NONBLOCK] = "nonblock",
	[BQLM_TUN_VHOST] = "vhost",
	[BQLM_TUN_NAPI] = "napi",
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

/**
 * bqlm_tun_reader_name() - the name of a reader kind
 * @reader: the kind
 *
 * Return: "read", "nonblock", "vhost", "napi" or "unknown".
 */
const char *bqlm_tun_reader_name(enum bqlm_tun_reader_kind reader)
{
	return bqlm_name(BQLM_NAMES(bqlm_tun_reader_names), reader, "unknown");
}

/**
 * bqlm_tun_reader_by_name() - look a reader kind up by name
 * @name: the name
 *
 * Return: the enum bqlm_tun_reader_kind, or -EINVAL.
 */
int bqlm_tun_reader_by_name(const char *name)
{
	return bqlm_name_find(BQLM_NAMES(bqlm_tun_reader_names), name);
}

/**
 * bqlm_tun_drop_name() - the name of a drop reason
 * @drop: the reason
 *
 * Return: the name, or "unknown".
 */
const char *bqlm_tun_drop_name(enum bqlm_tun_drop drop)
{
	return bqlm_name(BQLM_NAMES(bqlm_tun_drops), drop, "unknown");
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
	if (bqlm_tun_bql_on(cfg))
		return bqlm_tun_bql_state_size(cfg);
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
	if (bqlm_tun_bql_on(cfg))
		bqlm_tun_bql_init(tun, cfg);
	for (q = 0; q < BQLM_TUN_MAX_QUEUES; q++) {
		bqlm_ptr_ring_init(&tun->q[q].ring, BQLM_TUN_SLOT_VAR(cap, q),
				   q < cfg->queues ? cfg->ring : 0, cfg->batch);
		tun->q[q].attached = q < cfg->queues;
	}
	/* a NAPI consumer is not scheduled before the first produce */
	for (q = 0; q < cfg->queues && bqlm_tun_napi(cfg); q++)
		tun->rd[q].sleeping = 1;
	tun->numqueues = cfg->queues;
	tun->backpressure = cfg->backpressure;
	tun->detaches_left = cfg->detaches;
	tun->set_iffs_left = cfg->set_iffs;
	tun->resizes_left = cfg->resizes;
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

/*
 * napi_schedule_prep() of the NAPI consumer of queue @q: NAPI_STATE_SCHED
 * is test-and-set (the model's rd->sleeping is its complement).
 * NAPI_STATE_MISSED (a call while it is set: one more poll) is left out:
 * __napi_schedule() below writes rx_notify_masked through at once, so no
 * producer calls this on a scheduled consumer (none does in any state of
 * the veth profiles' explorations); it would only add a poll.
 */
static bool bqlm_napi_schedule_prep(struct bqlm_tun *tun, unsigned int q)
{
	struct bqlm_tun_reader *rd = &tun->rd[q];

	if (!rd->sleeping)
		return false;
	rd->sleeping = 0;
	return true;
}

/*
 * Once napi_schedule_prep() succeeded on @c's CPU: WRITE_ONCE() of the
 * NAPI consumer's rx_notify_masked, then __napi_schedule(): the poll runs
 * in this CPU's softirq, or in a thread woken with a full barrier, so it
 * sees every store made before; the model's consumer is a CPU of its own,
 * so the stores reach memory here.
 */
static void bqlm___napi_schedule(const struct bqlm_tun_cfg *cfg,
				 unsigned int q, const struct bqlm_mm_cpu *c)
{
	bqlm_mm_store(c, bqlm_tun_masked_var(cfg, q), 1);
	bqlm_mm_mb(c);
}

/*
 * __veth_xdp_flush() of queue @q on @c's view: smp_mb() (@mb: the model
 * can take it away after a stop, struct bqlm_tun_cfg.producer_mb), then
 * unless rx_notify_masked says the consumer is scheduled, schedule it and
 * set rx_notify_masked.
 */
static void bqlm___veth_xdp_flush(struct bqlm_tun *tun,
				  const struct bqlm_tun_cfg *cfg,
				  unsigned int q, const struct bqlm_mm_cpu *c,
				  bool mb)
{
	if (mb)
		bqlm_mm_mb(c);
	if (!bqlm_mm_load(c, bqlm_tun_masked_var(cfg, q)) &&
	    bqlm_napi_schedule_prep(tun, q))
		bqlm___napi_schedule(cfg, q, c);
}

/*
 * After the stop of the transmit of @x, on its view @c: the barrier and
 * the re-check (or the kick) of struct bqlm_tun_cfg.recheck.
 */
static void bqlm_tun_recheck(struct bqlm_tun *tun,
			     const struct bqlm_tun_cfg *cfg,
			     const struct bqlm_tun_cpu *x,
			     const struct bqlm_mm_cpu *c)
{
	struct bqlm_ptr_ring *r = &tun->q[x->txq].ring;

	switch (cfg->recheck) {
	case BQLM_TUN_RECHECK_PRODUCE:
		if (cfg->producer_mb)
			bqlm_mm_mb_after_atomic(c);
		if (!bqlm___ptr_ring_check_produce(r, c))
			bqlm_tun_wake(c, x->txq);
		break;
	case BQLM_TUN_RECHECK_EMPTY:
		/* the consumer's head, read from the producer's side */
		if (cfg->producer_mb)
			bqlm_mm_mb_after_atomic(c);
		if (bqlm___ptr_ring_empty(r, c))
			bqlm_tun_wake(c, x->txq);
		break;
	case BQLM_TUN_RECHECK_KICK:
		bqlm___veth_xdp_flush(tun, cfg, x->txq, c, cfg->producer_mb);
		break;
	default:
		break;
	}
}

/*
 * A packet passes the stack's check: who may fill its ring before it,
 * from now on (another CPU inside the transmit for the same txq, a forced
 * wake of a full ring).
 */
static void bqlm_tun_xmit_begin(struct bqlm_tun *tun,
				const struct bqlm_tun_cfg *cfg,
				unsigned int cpu)
{
	struct bqlm_tun_cpu *x = &tun->cpu[cpu];
	unsigned int i;

	x->ret = 0;
	x->raced = 0;
	/* another CPU inside tun_net_xmit() may fill the ring first */
	for (i = 0; i < cfg->cpus; i++)
		if (i != cpu && tun->cpu[i].phase != BQLM_TUN_X_IDLE &&
		    tun->cpu[i].phase != BQLM_TUN_X_REQUEUED &&
		    tun->cpu[i].txq == x->txq)
			x->raced |= BQLM_TUN_RACED_CPU;
	/* the queue runs only because it was woken by force, full */
	if (tun->q[x->txq].woke_full)
		x->raced |= BQLM_TUN_RACED_RECONFIG;
	x->phase = BQLM_TUN_X_START;
}

/**
 * bqlm_tun_net_xmit() - the next step of a producer CPU
 * @tun: the state
 * @cfg: the configuration
 * @cpu: the CPU
 * @ev: receives what the step did to packets
 *
 * From idle, the stack's netif_xmit_stopped() check and the hand-over of
 * the next packet; then the steps of the transmit the configuration
 * describes (see the top of this file): the produce, the check for a full
 * ring, the stop, the barrier and the re-check or kick, the unlock, the
 * drop, the requeue or the notification of the consumer.
 *
 * A transmit is complete when the CPU is idle again (bqlm_tun_xmit_pkt()
 * 0); then bqlm_tun_pkt_where() of its packet tells whether it reached the
 * ring (BQLM_TUN_PKT_RING, or already read) or was dropped. A packet the
 * qdisc keeps after NETDEV_TX_BUSY stays the CPU's (BQLM_TUN_X_REQUEUED)
 * until the queue runs and the CPU sends it again.
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
	unsigned int pkt;
	bool full;

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
		bqlm_tun_where(tun, cfg)[pkt - 1] = BQLM_TUN_PKT_XMIT;
		bqlm_tun_xmit_begin(tun, cfg, cpu);
		return 0;

	case BQLM_TUN_X_REQUEUED:
		/* the qdisc sends the packet it kept again */
		bqlm_tun_xmit_begin(tun, cfg, cpu);
		return 0;

	case BQLM_TUN_X_START:
		if (x->txq >= tun->numqueues) {
			/* rcu_dereference(tun->tfiles[txq]) == NULL */
			bqlm_tun_drop(tun, cfg, x->pkt, BQLM_TUN_DROP_DETACHED);
			goto idle;
		}
		bqlm_mm_lock(&c, BQLM_TUN_PLOCK_VAR(x->txq), cpu + 1);
		if (bqlm_tun_bql_on(cfg))
			bqlm_tun_bql_xmit(tun, cfg, x, &c, false, ev);
		x->ret = bqlm_tun_do_produce(tun, cfg, cpu, &c, ev);
		if (x->ret && tq->woke_full)
			x->raced |= BQLM_TUN_RACED_RECONFIG;
		if (bqlm_tun_section(cfg)) {
			x->phase = BQLM_TUN_X_PRODUCED;
			return 0;
		}
		/* ptr_ring_produce(): the lock is released with the produce */
		bqlm_mm_unlock(&c, BQLM_TUN_PLOCK_VAR(x->txq));
		if (x->ret && (cfg->stop & BQLM_TUN_STOP_FAIL) &&
		    bqlm_tun_may_stop(tun, cfg)) {
			x->phase = BQLM_TUN_X_STOP;
			return 0;
		}
		if (!x->ret && bqlm_tun_full_check(cfg)) {
			x->phase = BQLM_TUN_X_PRODUCED;
			return 0;
		}
		goto done;

	case BQLM_TUN_X_PRODUCED:
		if (!bqlm_tun_section(cfg)) {
			/* ptr_ring_full(): its own producer_lock section */
			bqlm_mm_lock(&c, BQLM_TUN_PLOCK_VAR(x->txq), cpu + 1);
			full = bqlm___ptr_ring_full(&tq->ring, &c);
			bqlm_mm_unlock(&c, BQLM_TUN_PLOCK_VAR(x->txq));
			if (full && bqlm_tun_may_stop(tun, cfg)) {
				x->phase = BQLM_TUN_X_STOP;
				return 0;
			}
			goto done;
		}
		if (bqlm_tun_bql_on(cfg))
			bqlm_tun_bql_xmit(tun, cfg, x, &c, true, ev);
		if (bqlm_tun_bp_active(tun, cfg) &&
		    bqlm___ptr_ring_check_produce(&tq->ring, &c) == -ENOSPC) {
			/* netif_tx_stop_queue() */
			bqlm_mm_set_bits(&c, BQLM_TUN_STATE_VAR(x->txq),
					 BQLM_TUN_XOFF);
			tq->woke_full = 0;
			x->phase = cfg->recheck != BQLM_TUN_RECHECK_NONE ?
				   BQLM_TUN_X_STOP : BQLM_TUN_X_UNLOCK;
			return 0;
		}
		x->phase = BQLM_TUN_X_UNLOCK;
		return 0;

	case BQLM_TUN_X_STOP:
		if (bqlm_tun_section(cfg)) {
			/* stopped under the lock: the barrier, the re-check */
			bqlm_tun_recheck(tun, cfg, x, &c);
			x->phase = BQLM_TUN_X_UNLOCK;
			return 0;
		}
		/* netif_stop_subqueue() / netif_tx_stop_queue() */
		bqlm_mm_set_bits(&c, BQLM_TUN_STATE_VAR(x->txq), BQLM_TUN_XOFF);
		if (cfg->recheck != BQLM_TUN_RECHECK_NONE) {
			x->phase = BQLM_TUN_X_RECHECK;
			return 0;
		}
		goto done;

	case BQLM_TUN_X_RECHECK:
		bqlm_tun_recheck(tun, cfg, x, &c);
		goto done;

	case BQLM_TUN_X_NOTIFY:
		/* the successful produce's __veth_xdp_flush() */
		bqlm___veth_xdp_flush(tun, cfg, x->txq, &c, true);
		goto idle;

	default:	/* BQLM_TUN_X_UNLOCK */
		bqlm_mm_unlock(&c, BQLM_TUN_PLOCK_VAR(x->txq));
		goto done;
	}

done:
	if (!x->ret) {
		if (bqlm_tun_napi(cfg)) {
			x->phase = BQLM_TUN_X_NOTIFY;
			return 0;
		}
		bqlm_tun_notify(tun, &c, x->txq);
	} else if (cfg->on_full == BQLM_TUN_FULL_REQUEUE && cfg->qdisc) {
		/* NETDEV_TX_BUSY: the qdisc keeps the packet */
		x->phase = BQLM_TUN_X_REQUEUED;
		x->ret = 0;
		x->raced = 0;
		return 0;
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
idle:
	x->phase = BQLM_TUN_X_IDLE;
	x->pkt = 0;
	x->txq = 0;
	x->ret = 0;
	x->raced = 0;
	return 0;
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

/*
 * __tun_wake_queue(tun, tfile, consumed), under consumer_lock (a NAPI
 * consumer: in its poll): once the queue is stopped, count what was
 * consumed and wake it at half the ring (the rule room: only when the
 * producer's next slot is free, and the count restarts whenever the queue
 * runs).
 */
static void bqlm___tun_wake_queue(struct bqlm_tun *tun,
				  const struct bqlm_tun_cfg *cfg,
				  unsigned int q, const struct bqlm_mm_cpu *c)
{
	struct bqlm_tun_queue *tq = &tun->q[q];
	bool room = cfg->wake == BQLM_TUN_WAKE_ROOM;

	if (bqlm_mm_load(c, BQLM_TUN_STATE_VAR(q)) & BQLM_TUN_XOFF) {
		tq->cons_cnt += tun->rd[q].nr;
		if (tq->cons_cnt >= tq->ring.size / 2 &&
		    (!room || !bqlm___ptr_ring_check_produce(&tq->ring, c))) {
			bqlm_tun_wake(c, q);
			tq->cons_cnt = 0;
		}
	} else if (room) {
		/* running: what was counted is stale */
		tq->cons_cnt = 0;
	}
}

/*
 * The consumer of queue @q, on its view @c, where struct
 * bqlm_tun_cfg.wake_at puts it: the barrier and the wake rule, while the
 * design's flag is in force.
 */
static void bqlm_tun_wake_rule(struct bqlm_tun *tun,
			       const struct bqlm_tun_cfg *cfg, unsigned int q,
			       const struct bqlm_mm_cpu *c)
{
	if (cfg->wake == BQLM_TUN_WAKE_NONE || !bqlm_tun_flag(tun, cfg))
		return;
	if (cfg->consumer_mb)
		bqlm_mm_mb(c);
	switch (cfg->wake) {
	case BQLM_TUN_WAKE_ALWAYS:
		/* netif_wake_subqueue(): test_and_clear_bit() */
		bqlm_tun_wake(c, q);
		break;
	case BQLM_TUN_WAKE_IF_STOPPED:
		if (bqlm_mm_load(c, BQLM_TUN_STATE_VAR(q)) & BQLM_TUN_XOFF)
			bqlm_tun_wake(c, q);
		break;
	default:
		bqlm___tun_wake_queue(tun, cfg, q, c);
		break;
	}
}

/* napi_complete_done() of the NAPI consumer of queue @q: not scheduled. */
static void bqlm_napi_complete_done(struct bqlm_tun *tun, unsigned int q)
{
	tun->rd[q].sleeping = 1;
}

/*
 * The next step of a NAPI consumer (veth_poll() of the peer): the consume
 * loop of veth_xdp_rcv(), one entry a step, without a lock (the poll runs
 * on one CPU at a time); the wake rule at the end of the loop or of the
 * poll; napi_complete_done() when the budget was not used up, then
 * smp_store_mb() of rx_notify_masked = false and the re-check of the ring,
 * which schedules the poll again if an entry arrived.
 */
static int bqlm_veth_poll(struct bqlm_tun *tun, const struct bqlm_tun_cfg *cfg,
			  unsigned int q, struct bqlm_inv_step *ev,
			  unsigned int *got, unsigned int *nr)
{
	struct bqlm_tun_reader *rd = &tun->rd[q];
	struct bqlm_tun_queue *tq = &tun->q[q];
	unsigned int taken[1], head, masked;
	struct bqlm_mm_cpu c;
	int n;

	bqlm_tun_view(tun, cfg, &rd->sb, &c);
	switch (rd->phase) {
	case BQLM_TUN_R_IDLE:	/* a poll begins */
	case BQLM_TUN_R_POLL:
		head = tq->ring.consumer_head;
		n = bqlm___ptr_ring_consume_batched(&tq->ring, &c, taken, 1);
		bqlm_tun_delivered(tun, cfg, q, head, taken, n, ev);
		if (n > 0) {
			if (got)
				got[0] = taken[0];
			if (nr)
				*nr = n;
			rd->nr++;
			if (rd->nr < cfg->budget) {
				rd->phase = BQLM_TUN_R_POLL;
				return 0;
			}
		}
		rd->phase = cfg->wake_at == BQLM_TUN_WAKE_AT_RCV_END ?
			    BQLM_TUN_R_RCV_END : BQLM_TUN_R_COMPLETE;
		return 0;

	case BQLM_TUN_R_RCV_END:
		bqlm_tun_wake_rule(tun, cfg, q, &c);
		rd->phase = BQLM_TUN_R_COMPLETE;
		return 0;

	case BQLM_TUN_R_COMPLETE:
		masked = bqlm_tun_masked_var(cfg, q);
		if (rd->nr < cfg->budget) {
			bqlm_napi_complete_done(tun, q);
			/* smp_store_mb(rq->rx_notify_masked, false) */
			bqlm_mm_store(&c, masked, 0);
			bqlm_mm_mb(&c);
			if (!bqlm___ptr_ring_empty(&tq->ring, &c) &&
			    bqlm_napi_schedule_prep(tun, q))
				bqlm___napi_schedule(cfg, q, &c);
		}
		if (cfg->wake_at == BQLM_TUN_WAKE_AT_POLL_END) {
			rd->phase = BQLM_TUN_R_POLL_END;
			return 0;
		}
		rd->nr = 0;
		rd->phase = BQLM_TUN_R_IDLE;
		return 0;

	default:	/* BQLM_TUN_R_POLL_END */
		/* smp_rmb(): the memory models reorder no loads */
		bqlm_tun_wake_rule(tun, cfg, q, &c);
		rd->nr = 0;
		rd->phase = BQLM_TUN_R_IDLE;
		return 0;
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
 * sk_data_ready(). Then, as the configuration says, the wake rule under
 * the consumer lock and the unlock, or tun_put_user() and the wake at the
 * end of tun_do_read(). A tun_do_read() is complete when the reader is
 * idle again (struct bqlm_tun_reader.phase BQLM_TUN_R_IDLE); a reader
 * asleep (.sleeping) waits for a produce. A NAPI consumer runs its poll
 * instead, one step a call, from idle back to idle; it runs only while
 * scheduled (not .sleeping).
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
	if (bqlm_tun_napi(cfg))
		return bqlm_veth_poll(tun, cfg, q, ev, got, nr);
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
		if (!n || !bqlm_tun_wake_locked(cfg)) {
			bqlm_mm_unlock(&c, BQLM_TUN_CLOCK_VAR(q));
			if (!n)
				rd->sleeping = 1;
			else if (bqlm_tun_wake_at_read_end(cfg))
				rd->phase = BQLM_TUN_R_PUT;
			return 0;
		}
		rd->nr = n;
		if (bqlm_tun_bql_on(cfg))
			bqlm_tun_bql_consumed(rd, taken, n);
		rd->phase = BQLM_TUN_R_WAKE;
		return 0;

	case BQLM_TUN_R_WAKE:
		if (bqlm_tun_bql_on(cfg))
			bqlm_tun_bql_read_done(tun, cfg, q, ev);
		if (cfg->wake_at == BQLM_TUN_WAKE_AT_CONSUME)
			bqlm_tun_wake_rule(tun, cfg, q, &c);
		rd->nr = 0;
		rd->phase = BQLM_TUN_R_UNLOCK;
		return 0;

	case BQLM_TUN_R_UNLOCK:
		bqlm_mm_unlock(&c, BQLM_TUN_CLOCK_VAR(q));
		rd->phase = BQLM_TUN_R_IDLE;
		return 0;

	default:	/* BQLM_TUN_R_PUT: the end of tun_do_read() */
		bqlm_tun_wake_rule(tun, cfg, q, &c);
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

/*
 * After a reconfiguration that runs tun_force_wake_queue(): the queues it
 * had to wake (mask @woken) are awake, their wake counters reset.
 */
static void bqlm_tun_check_reconfig(const struct bqlm_tun *tun,
				    unsigned int woken,
				    struct bqlm_inv_step *ev)
{
	unsigned int q;

	for (q = 0; q < tun->numqueues; q++)
		if ((woken & (1U << q)) &&
		    (bqlm_tun_stopped(tun, q) || tun->q[q].cons_cnt))
			ev->reconfig_stopped++;
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
	if (bqlm_tun_bql_on(cfg))
		bqlm_tun_bql_reset(tun, cfg, q);
	tun->detaching = 0;
	tun->detaches_left--;
	return 0;
}

/**
 * bqlm_tun_attach() - TUNSETQUEUE(IFF_ATTACH_QUEUE): tun_attach() of the
 *	detached queue file
 * @tun: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * The tfile gets queue_index = numqueues and is published. Where the
 * design has it (struct bqlm_tun_cfg.force_wake), tun_force_wake_queue()
 * wakes its txq and resets cons_cnt under both ring locks; else a design
 * that counts consumes resets the count, and the txq state is left alone
 * (6.12, the 2019 experiment, 1d6e569b7d0c).
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
	if (cfg->force_wake & BQLM_TUN_FORCE_ATTACH) {
		bqlm_tun_force_wake_queue(tun, q);
		bqlm_tun_check_reconfig(tun, 1U << q, ev);
	} else if (bqlm_tun_counts(cfg)) {
		/* cons_cnt = 0 under consumer_lock, no wake (1d6e569b7d0c) */
		tun->q[q].cons_cnt = 0;
	}
	return 0;
}

/**
 * bqlm_tun_set_iff() - TUNSETIFF on the running device
 * @tun: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * A design with the opt-in flag flips IFF_BACKPRESSURE (tun->flags takes
 * the TUN_FEATURES bits of the request); then tun_force_wake_queue() of
 * every attached queue file where the design has it (struct
 * bqlm_tun_cfg.force_wake), else netif_tx_wake_all_queues() without the
 * ring locks (6.12, the 2019 experiment, 1d6e569b7d0c: there a wake of a
 * full ring, as a forced one).
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
	if (cfg->opt_in)
		tun->backpressure = !tun->backpressure;
	if (cfg->force_wake & BQLM_TUN_FORCE_SET_IFF) {
		for (q = 0; q < tun->numqueues; q++)
			bqlm_tun_force_wake_queue(tun, q);
		bqlm_tun_check_reconfig(tun, ~0U, ev);
		return 0;
	}
	bqlm_tun_admin_view(tun, &sb, &c);
	for (q = 0; q < cfg->queues; q++) {
		bqlm_tun_wake(&c, q);
		if (bqlm_tun_locked_stop(cfg)) {
			/* a wake of a full ring, as a forced one */
			bqlm_tun_reconfigured(tun, q);
			tun->q[q].woke_full =
				bqlm___ptr_ring_full(&tun->q[q].ring, &c);
		}
	}
	return 0;
}

/**
 * bqlm_tun_queue_resize() - a tx_queue_len change: tun_queue_resize()
 * @tun: the state
 * @cfg: the configuration (the new length is cfg->resize_to)
 * @ev: receives what the step did to packets
 *
 * ptr_ring_resize_multiple_bh() of every queue file's ring under both of
 * its locks (entries that do not fit are freed), then, where the design
 * has it, tun_force_wake_queue() of every attached one.
 *
 * Return: 0, -EAGAIN while a ring lock is held, -EINVAL when no resize is
 * left in the bound.
 */
int bqlm_tun_queue_resize(struct bqlm_tun *tun,
			  const struct bqlm_tun_cfg *cfg,
			  struct bqlm_inv_step *ev)
{
	unsigned int destroyed[BQLM_PTR_RING_MAX];
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
		for (i = 0; n > 0 && i < (unsigned int)n; i++)
			if (destroyed[i] && destroyed[i] <= ids)
				bqlm_tun_drop(tun, cfg, destroyed[i],
					      BQLM_TUN_DROP_RESIZED);
		if (bqlm_tun_bql_on(cfg))
			bqlm_tun_bql_resized(tun, cfg, q, destroyed, n, ev);
		for (i = 0; i < bqlm_tun_cap(cfg); i++)
			bqlm_tun_shadow(tun, cfg, q)[i] =
				tun->mem[tq->ring.base + i];
	}
	if (cfg->force_wake & BQLM_TUN_FORCE_RESIZE) {
		for (q = 0; q < tun->numqueues; q++)
			bqlm_tun_force_wake_queue(tun, q);
		bqlm_tun_check_reconfig(tun, ~0U, ev);
	}
	return 0;
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
 * bqlm_tun_notify_masked() - a NAPI consumer's rx_notify_masked (a
 *	harness's view)
 * @tun: the state
 * @cfg: its configuration
 * @q: the queue, below @cfg->queues
 *
 * Return: its word in struct bqlm_tun.mem, or NULL when the consumer is
 * not a NAPI poll or @q is out of range.
 */
unsigned short *bqlm_tun_notify_masked(struct bqlm_tun *tun,
				       const struct bqlm_tun_cfg *cfg,
				       unsigned int q)
{
	if (!bqlm_tun_napi(cfg) || q >= cfg->queues)
		return NULL;
	return &tun->mem[bqlm_tun_masked_var(cfg, q)];
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
