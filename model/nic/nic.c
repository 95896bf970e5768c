// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the transmit side of a NAPI Ethernet or virtual NIC driver
 * (see <bqlm/nic.h>), on the queue layer of model/kernel/netdevice.c.
 *
 * What is modelled, and how (see also docs/nic.md):
 *
 *  - Locks are step boundaries and enabling conditions. ndo_start_xmit()
 *    holds its queue's tx lock (HARD_TX_LOCK) from its first step to its
 *    last; netif_tx_disable() and, with cfg->napi_txlock, the NAPI poll
 *    wait for it. XDP_TX takes the same lock for one step.
 *
 *  - netdev_tx_sent_queue() is three steps (dql_queued, set STACK_XOFF,
 *    smp_mb + re-check) and netdev_tx_completed_queue() two (dql_completed,
 *    smp_mb + wake), as model/kernel/netdevice.c splits them; a NAPI poll is in
 *    dql_completed() between its first and second step, which is what the
 *    serialised-completion check counts.
 *
 *  - The device completes one descriptor per step, in ring order, and only
 *    descriptors a doorbell covered; each completion raises the interrupt,
 *    which schedules NAPI unless NAPI is disabled. napi_complete_done()
 *    re-arms it: a poll that leaves completed descriptors behind is
 *    scheduled again at once.
 *
 *  - The stack is one CPU running the qdisc: it sends cfg->packets packets
 *    in batches of cfg->batch with netdev_xmit_more() set on all but the
 *    last, to a queue only while netif_xmit_stopped() is false; a batch
 *    ends early when the queue stops (dev_hard_start_xmit()), by the
 *    driver's ring-full stop or by STACK_XOFF. It is not bounded by
 *    dql_avail() as the qdisc's bulk dequeue is: an over-approximation.
 *
 *  - cfg->sent_call says which sent call the driver makes: the plain
 *    netdev_tx_sent_queue() runs model/kernel/netdevice.c's over-limit,
 *    STACK_XOFF and re-check steps whatever xmit_more is;
 *    __netdev_tx_sent_queue() skips them while xmit_more is set.
 *
 *  - Ground truth per queue: the bytes of packets reported sent since the
 *    last reset that are still on the ring or were freed without a
 *    completion (orphans). A reset forgets both and marks what is on the
 *    ring stale; completing a stale packet breaks reset-on-stop. Orphans
 *    still there when a reset path wakes the queues are skbs lost to BQL
 *    (skb accounting); they also end in a stall.
 *
 *  - Time is not modelled (every step at jiffies cfg->now), as in the
 *    usbnet model. Left out: TSO/GSO segmentation, fragments beyond
 *    cfg->descs, DMA mapping failures, the receive side, interrupt
 *    coalescing, per-CPU XDP queues, weak memory (bql-xoff covers it),
 *    locks held by a reset path (bcmgenet's ring->lock), and the
 *    interleavings inside the driver's own stop and re-check, which is one
 *    step (docs/nic.md, "Known limits").
 *
 * The actors' enabling conditions are in nic_internal.h; the invariants
 * and the explorer's view of all this are in nic_xsys.c.
 */
#include "bqlm_internal.h"
#include <bqlm/nic.h>
#include "nic_internal.h"

/* Each call of a reset path: its option name, and what it is in the kernel. */
const struct bqlm_nic_name bqlm_nic_ops[BQLM_NIC_NR_OPS] = {
	[BQLM_NIC_OP_STOP] = { "stop", "netif_tx_disable" },
	[BQLM_NIC_OP_NAPI_OFF] = { "napi-off", "napi_disable" },
	[BQLM_NIC_OP_DMA_OFF] = { "dma-off", "stop the device's DMA" },
	[BQLM_NIC_OP_DRAIN] = { "drain",
		"free the tx buffers (no completion)" },
	[BQLM_NIC_OP_RESET] = { "reset",
		"netdev_tx_reset_queue (every queue)" },
	[BQLM_NIC_OP_RESET0] = { "reset0",
		"netdev_reset_queue(dev) (queue 0 only)" },
	[BQLM_NIC_OP_DMA_ON] = { "dma-on", "restart the device's DMA" },
	[BQLM_NIC_OP_NAPI_ON] = { "napi-on", "napi_enable, napi_schedule" },
	[BQLM_NIC_OP_WAKE] = { "wake", "netif_tx_wake_all_queues" },
	[BQLM_NIC_OP_STOP0] = { "stop0", "netif_stop_queue(dev) (queue 0 only)" },
	[BQLM_NIC_OP_WAKE0] = { "wake0", "netif_wake_queue(dev) (queue 0 only)" },
	[BQLM_NIC_OP_DRAIN0] = { "drain0",
		"free queue 0's tx buffers (no completion)" },
	[BQLM_NIC_OP_RESET_IDLE] = { "reset-idle",
		"netdev_tx_reset_queue (each queue whose ring is empty)" },
	[BQLM_NIC_OP_COMPLETE] = { "complete",
		"reclaim every tx buffer, netdev_tx_completed_queue" },
	[BQLM_NIC_OP_IRQ_OFF] = { "irq-off", "disable_irq (waits for the handler)" },
	[BQLM_NIC_OP_IRQ_ON] = { "irq-on", "enable_irq" },
};

/* Each reset path: its option name, and its kernel entry point. */
const struct bqlm_nic_name bqlm_nic_paths[BQLM_NIC_NR_PATHS] = {
	[BQLM_NIC_PATH_CLOSE] = { "close", "ifdown: dev_close -> ndo_stop" },
	[BQLM_NIC_PATH_OPEN] = { "open", "ifup: ndo_open" },
	[BQLM_NIC_PATH_RECONFIG] = { "reconfig",
		"ethtool -G / XDP or XSK attach: ring reconfiguration" },
	[BQLM_NIC_PATH_TIMEOUT] = { "timeout",
		"watchdog: ndo_tx_timeout recovery" },
	[BQLM_NIC_PATH_SUSPEND] = { "suspend", "pm: suspend" },
	[BQLM_NIC_PATH_RESUME] = { "resume", "pm: resume" },
};

/**
 * bqlm_nic_op_name() - the option name of a reset-path call
 * @op: the call
 *
 * Return: its name, "?" if out of range.
 */
const char *bqlm_nic_op_name(enum bqlm_nic_op op)
{
	return bqlm_name(BQLM_NAMES_OF(bqlm_nic_ops, name), op, "?");
}

/**
 * bqlm_nic_path_name() - the option name of a reset path
 * @path: the path
 *
 * Return: its name, "?" if out of range.
 */
const char *bqlm_nic_path_name(enum bqlm_nic_path path)
{
	return bqlm_name(BQLM_NAMES_OF(bqlm_nic_paths, name), path, "?");
}

/**
 * bqlm_nic_parse_ops() - a comma-separated list of reset-path calls
 * @s: e.g. "stop,napi-off,dma-off,drain,reset"; "none" for no call
 * @ops: receives BQLM_NIC_MAX_OPS calls at most
 * @n: receives how many
 *
 * Return: 0, or -EINVAL (unknown name, too many, empty); nothing is stored
 * then.
 */
int bqlm_nic_parse_ops(const char *s, unsigned char *ops, unsigned int *n)
{
	unsigned char tmp[BQLM_NIC_MAX_OPS];
	unsigned int k = 0;
	size_t len;
	int op;

	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "none")) {
		*n = 0;
		return 0;
	}
	while (*s) {
		len = strcspn(s, ",");
		op = bqlm_name_findn(BQLM_NAMES_OF(bqlm_nic_ops, name), s, len);
		if (op < 0 || k == BQLM_NIC_MAX_OPS)
			return -EINVAL;
		tmp[k++] = op;
		s += len;
		if (*s == ',' && !*++s)
			return -EINVAL;
	}
	memcpy(ops, tmp, k);
	*n = k;
	return 0;
}

/**
 * bqlm_nic_format_ops() - the inverse of bqlm_nic_parse_ops()
 * @ops: the calls
 * @n: how many
 * @buf: where to write
 * @len: its size
 *
 * Return: as snprintf().
 */
int bqlm_nic_format_ops(const unsigned char *ops, unsigned int n, char *buf,
			size_t len)
{
	size_t w = 0;
	unsigned int i;

	if (!n)
		return snprintf(buf, len, "none");
	if (len)
		buf[0] = 0;
	for (i = 0; i < n; i++)
		w += snprintf(buf + min(w, len), len - min(w, len), "%s%s",
			      i ? "," : "",
			      bqlm_nic_op_name((enum bqlm_nic_op)ops[i]));
	return w;
}

static void bqlm_nic_set_ops(struct bqlm_nic_cfg *cfg, enum bqlm_nic_path p,
			     const char *s)
{
	/* the strings below are the model's own: they always parse */
	if (bqlm_nic_parse_ops(s, cfg->ops[p], &cfg->nr_ops[p]))
		cfg->nr_ops[p] = 0;
}

#define BQLM_NIC_DOWN_OPS	"stop,napi-off,dma-off,drain,reset"
#define BQLM_NIC_UP_OPS		"dma-on,napi-on,wake"
#define BQLM_NIC_REINIT_OPS	BQLM_NIC_DOWN_OPS "," BQLM_NIC_UP_OPS

/* bqlm_nic_cfg_default() but the paths' calls; what is not named is 0 */
static const struct bqlm_nic_cfg bqlm_nic_defaults = {
	.queues = 1,
	.map = BQLM_NIC_MAP_RR,
	.packets = 3,
	.len = 1000,
	.descs = 1,
	.ring = 2,
	.batch = 2,
	.budget = 2,
	.sent = BQLM_NIC_SENT_BEFORE_DOORBELL,
	.sent_call = BQLM_NIC_CALL_PLAIN,
	.doorbell = BQLM_NIC_KICK_XMIT_STOPPED,
	.stopcheck = BQLM_NIC_STOP_AFTER_SENT,
	.completers = BQLM_NIC_COMPLETE_NAPI,
	.bytes = BQLM_NIC_BYTES_SKB_LEN,
	.wakers = BQLM_NIC_WAKERS_ALL,
	.stops = 1,
	.hold_time = 1000,
	.now = 1000,
};

/**
 * bqlm_nic_cfg_default() - the generic NAPI Ethernet driver, correct
 * @cfg: receives it
 *
 * One queue, three 1000-byte packets of one descriptor, a ring of two,
 * xmit_more batches of two; netdev_tx_sent_queue() (the plain call,
 * e1000e's netdev_sent_queue()) before the doorbell, the ring-full stop
 * after it, the doorbell on !xmit_more ||
 * netif_xmit_stopped() (e1000e); completions in NAPI only, budget 2. Every
 * path stops the queues, disables NAPI, stops the DMA, frees the ring and
 * resets BQL before it restarts anything. One close/open cycle. The
 * driver's own stop and wake are the netdev_queues.h helpers, under sc.
 */
void bqlm_nic_cfg_default(struct bqlm_nic_cfg *cfg)
{
	memcpy(cfg, &bqlm_nic_defaults, sizeof(bqlm_nic_defaults));
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_CLOSE, BQLM_NIC_DOWN_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_OPEN, BQLM_NIC_UP_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_RECONFIG, BQLM_NIC_REINIT_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_TIMEOUT, BQLM_NIC_REINIT_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_SUSPEND, BQLM_NIC_DOWN_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_RESUME, BQLM_NIC_UP_OPS);
}

/**
 * bqlm_nic_split() - are the driver's stop and wake cut at their barriers?
 * @cfg: the configuration (checked)
 *
 * Yes under a memory model weaker than sc, with any stop or wake form,
 * threshold or NETDEV_TX_BUSY path other than the helpers', with a
 * completer that does not wake, or with BQLM_NIC_STEPS_SPLIT. Then the producer and consumer indices are kept
 * as shared variables, and each CPU reads them through its store buffer.
 *
 * Return: true if they are.
 */
bool bqlm_nic_split(const struct bqlm_nic_cfg *cfg)
{
	return cfg->steps == BQLM_NIC_STEPS_SPLIT || cfg->mm != BQLM_MM_SC ||
	       cfg->drv_stop != BQLM_NIC_DSTOP_HELPER ||
	       cfg->drv_wake != BQLM_NIC_DWAKE_HELPER || cfg->stop_thresh ||
	       cfg->restart_thresh || cfg->wake_thresh ||
	       cfg->busy != BQLM_NIC_BUSY_NONE ||
	       cfg->wakers != BQLM_NIC_WAKERS_ALL;
}

/**
 * bqlm_nic_init() - the device open and idle, every queue running
 * @nic: receives the state
 * @cfg: the configuration
 *
 * Return: 0, or -EINVAL when @cfg is invalid (@nic is left alone then).
 */
int bqlm_nic_init(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg)
{
	unsigned int q;

	if (bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	memset(nic, 0, sizeof(*nic));
	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++)
		bqlm_txq_init(&nic->q[q].txq, cfg->hold_time, cfg->now);
	nic->up = 1;
	nic->napi_on = 1;
	nic->dma_on = 1;
	nic->left[0] = cfg->stops;
	nic->left[1] = cfg->reconfigs;
	nic->left[2] = cfg->timeouts;
	nic->left[3] = cfg->suspends;
	nic->drops = cfg->drops;
	nic->hangs = cfg->hangs;
	nic->len = bqlm_nic_sent_len(cfg);
	return 0;
}

/* The operations of a CPU on the shared variables (<bqlm/memory_model.h>). */
enum bqlm_nic_mm_op {
	BQLM_NIC_MM_STORE,	/* WRITE_ONCE() */
	BQLM_NIC_MM_SET,	/* set_bit() */
	BQLM_NIC_MM_CLEAR,	/* clear_bit() */
	BQLM_NIC_MM_MB,		/* smp_mb(), or a fully ordered atomic */
	BQLM_NIC_MM_MB_AFTER_ATOMIC,	/* smp_mb__after_atomic() */
};

/* CPU @cpu runs @op on variable @var (@val: the value or the bits). */
static void bqlm_nic_mm(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int cpu, enum bqlm_nic_mm_op op,
			unsigned int var, unsigned int val)
{
	unsigned short m[BQLM_NIC_NR_VARS];
	struct bqlm_mm_cpu c;

	bqlm_nic_mem_get(nic, m);
	c.kind = cfg->mm;
	c.mem = m;
	c.sb = bqlm_nic_sb(nic, cpu);
	switch (op) {
	case BQLM_NIC_MM_STORE:
		bqlm_mm_store(&c, var, val & 0xff);
		break;
	case BQLM_NIC_MM_SET:
		bqlm_mm_set_bits(&c, var, val);
		break;
	case BQLM_NIC_MM_CLEAR:
		bqlm_mm_clear_bits(&c, var, val);
		break;
	case BQLM_NIC_MM_MB:
		bqlm_mm_mb(&c);
		break;
	default:
		bqlm_mm_mb_after_atomic(&c);
	}
	bqlm_nic_mem_put(nic, m);
}

/* A full barrier of CPU @cpu: its buffered stores reach memory. */
static void bqlm_nic_mb(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int cpu)
{
	if (cpu < BQLM_NIC_NR_CPUS && bqlm_nic_sb(nic, cpu)->n)
		bqlm_nic_mm(nic, cfg, cpu, BQLM_NIC_MM_MB, 0, 0);
}

/* An index of ring @q moves by @n descriptors, stored by CPU @cpu. */
static void bqlm_nic_index_add(struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg,
			       unsigned int cpu, unsigned int var, int n)
{
	if (!n)
		return;
	bqlm_nic_mm(nic, cfg, cpu, BQLM_NIC_MM_STORE, var,
		    bqlm_nic_load(nic, cfg, cpu, var) + n);
}

/* The consumer index of ring @q is set to its producer index (in memory:
 * a reset path's ring re-initialisation, with nobody else running).
 */
static void bqlm_nic_index_reset(struct bqlm_nic *nic, unsigned int q)
{
	nic->q[q].cons = nic->q[q].prod;
}

/* bqlm_nic_mm_flush()'s step, on a configuration already checked. */
int __bqlm_nic_mm_flush(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int cpu, unsigned int k)
{
	unsigned short m[BQLM_NIC_NR_VARS];
	struct bqlm_sb *sb;

	if (cpu >= BQLM_NIC_NR_CPUS)
		return -EINVAL;
	sb = bqlm_nic_sb(nic, cpu);
	if (!bqlm_mm_can_flush(cfg->mm, sb, k))
		return -EINVAL;
	bqlm_nic_mem_get(nic, m);
	bqlm_mm_flush(m, sb, k);
	bqlm_nic_mem_put(nic, m);
	return 0;
}

/**
 * bqlm_nic_mm_flush() - one buffered store of a CPU reaches memory
 * @nic: the state
 * @cfg: the configuration
 * @cpu: the CPU: 0 the stack's (ndo_start_xmit()), 1 + q the one that
 *	completes queue q
 * @k: the entry of its store buffer, oldest first
 *
 * Under tso and x86 only the oldest entry may go; under pso any entry
 * with no older one for the same variable.
 *
 * Return: 0, or -EINVAL (no such entry, one that may not go yet, or @cfg
 * invalid).
 */
int bqlm_nic_mm_flush(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
		      unsigned int cpu, unsigned int k)
{
	if (!nic || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_nic_mm_flush(nic, cfg, cpu, k);
}

static void bqlm_nic_remove(struct bqlm_nic_queue *nq, unsigned int i)
{
	memmove(&nq->pkt[i], &nq->pkt[i + 1],
		(nq->npkts - i - 1) * sizeof(nq->pkt[0]));
	nq->npkts--;
	memset(&nq->pkt[nq->npkts], 0, sizeof(nq->pkt[0]));
}

/*
 * The bytes a freed buffer's packet reports to BQL (0 for one whose length
 * is not stored); @ev counts them as stale when sent before the last
 * reset, or the packet as unsent when it never reached the sent call.
 */
static unsigned int bqlm_nic_reported(const struct bqlm_nic_pkt *p,
				      const struct bqlm_nic_cfg *cfg,
				      struct bqlm_inv_step *ev)
{
	unsigned int rep = (p->flags & BQLM_NIC_PKT_NOLEN) ? 0 :
			   bqlm_nic_done_len(cfg);

	if (p->flags & BQLM_NIC_PKT_STALE)
		ev->stale_bytes += rep;
	else if (!(p->flags & BQLM_NIC_PKT_SENT))
		ev->unsent_skbs++;
	else if (rep > bqlm_nic_sent_len(cfg) && !ev->above_sent++) {
		/* the per-packet balance: more than it was sent with */
		ev->above_sent_done = rep;
		ev->above_sent_len = bqlm_nic_sent_len(cfg);
	}
	return rep;
}

/*
 * Clean what the device has completed, up to @budget packets: first the
 * descriptors of drained buffers the device still completed (their old
 * lengths are reported), then from the head of the ring as far as the
 * producer index is published. Returns the bytes to report, in
 * cfg->bytes' way; @pkts receives the packets freed, @held the bytes of
 * those reported sent in this epoch, @descs the ring's descriptors
 * cleaned, and @ev the stale and never-reported ones.
 */
static unsigned int bqlm_nic_clean(struct bqlm_nic_queue *nq,
				   const struct bqlm_nic_cfg *cfg,
				   unsigned int budget, unsigned int *pkts,
				   unsigned int *held, unsigned int *descs,
				   struct bqlm_inv_step *ev)
{
	unsigned int bytes = 0, bd = 0;

	*pkts = 0;
	*held = 0;
	*descs = 0;
	while (nq->ghost_done && *pkts < budget) {
		nq->ghost_done--;
		nq->ghosts--;
		bytes += bqlm_nic_done_len(cfg);
		bd += cfg->len;
		if (nq->ghost_stale) {
			ev->stale_bytes += bqlm_nic_done_len(cfg);
		} else if (nq->orphans) {
			/* freed without a completion, completed after all */
			nq->orphans--;
			nq->orphan_bytes -= bqlm_nic_sent_len(cfg);
			*held += bqlm_nic_sent_len(cfg);
		}
		(*pkts)++;
	}
	if (!nq->ghosts)
		nq->ghost_stale = 0;
	while (nq->npkts && *pkts < budget) {
		struct bqlm_nic_pkt *p = &nq->pkt[0];
		bool counted = !(p->flags & BQLM_NIC_PKT_XDP) ||
			       cfg->xdp != BQLM_NIC_XDP_UNCOUNTED;
		unsigned int nd = bqlm_nic_ndesc(p, cfg);
		unsigned int per = cfg->len / nd;

		if (p->flags & BQLM_NIC_PKT_HIDDEN)
			break;
		if (cfg->bytes == BQLM_NIC_BYTES_BD_SUM) {
			/* every completed descriptor, whole packet or not */
			while (p->cleaned < p->done) {
				p->cleaned++;
				(*descs)++;
				if (counted)
					bd += p->cleaned == nd ?
					      cfg->len - per * (nd - 1) : per;
			}
		} else if (p->done == nd) {
			*descs += nd - p->cleaned;
			p->cleaned = nd;
		}
		if (p->cleaned < nd)
			break;
		if ((p->flags & (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE)) ==
		    BQLM_NIC_PKT_SENT)
			*held += bqlm_nic_sent_len(cfg);
		if (counted)
			bytes += bqlm_nic_reported(p, cfg, ev);
		(*pkts)++;
		bqlm_nic_remove(nq, 0);
	}
	if (cfg->bytes == BQLM_NIC_BYTES_BD_SUM)
		return *pkts ? bd : 0;
	return bytes;
}

/*
 * netif_tx_stop_queue() by CPU @cpu: smp_mb__before_atomic() (the earlier
 * stores first), set_bit(DRV_XOFF), which may wait in the buffer.
 */
static void bqlm_nic_stop_queue(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg,
				unsigned int cpu, unsigned int q)
{
	nic->q[q].txq.trans_start = cfg->now;
	bqlm_nic_mm(nic, cfg, cpu, BQLM_NIC_MM_MB_AFTER_ATOMIC, 0, 0);
	bqlm_nic_mm(nic, cfg, cpu, BQLM_NIC_MM_SET, BQLM_NIC_VAR_STATE(q),
		    BQLM_NIC_DRV_XOFF);
}

/* The driver's stop or wake for ring @q acted on queue @dq: the right one? */
static void bqlm_nic_which_queue(struct bqlm_inv_step *ev, unsigned int dq,
				 unsigned int q)
{
	if (dq == q || ev->wrong_queue++)
		return;
	ev->wrong_queue_q = dq;
	ev->wrong_queue_ring = q;
}

/* netif_tx_wake_queue() by CPU @cpu: test_and_clear_bit(), fully ordered. */
static void bqlm_nic_wake_queue(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg,
				unsigned int cpu, unsigned int q)
{
	bqlm_nic_mb(nic, cfg, cpu);
	bqlm_netif_tx_wake_queue(&nic->q[q].txq);
}

/*
 * The DRV_XOFF half of the ring, as one step: stop when full, re-check
 * (the helpers under sc: bqlm_nic_split() is false).
 */
static void bqlm_nic_maybe_stop(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg, unsigned int q,
				struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int dq = bqlm_nic_drv_q(cfg, q);

	if (bqlm_nic_room(nq, cfg))
		return;
	bqlm_netif_tx_stop_queue(&nic->q[dq].txq, cfg->now);
	bqlm_nic_which_queue(ev, dq, q);	/* ring q is full */
	/* virtio: virtqueue_enable_cb_delayed(), the completion wakes it */
	if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB)
		nq->cb_off = 0;
	/* smp_mb(); the poll may have made room meanwhile */
	if (bqlm_nic_room(nq, cfg))
		bqlm_netif_tx_start_queue(&nic->q[dq].txq);
}

/* The doorbell: the device may complete every descriptor written. Its
 * MMIO write comes after a wmb(): the stack's stores reach memory first.
 */
static void bqlm_nic_ring_doorbell(struct bqlm_nic *nic,
				   const struct bqlm_nic_cfg *cfg,
				   struct bqlm_nic_queue *nq)
{
	unsigned int i;

	for (i = 0; i < nq->npkts; i++)
		nq->pkt[i].flags |= BQLM_NIC_PKT_KICKED;
	bqlm_nic_mb(nic, cfg, BQLM_NIC_CPU_XMIT);
}

/* A doorbell xmit_more deferred on the stack's queue, if any, is rung. */
static void bqlm_nic_kick_pending(struct bqlm_nic *nic,
				  const struct bqlm_nic_cfg *cfg)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	unsigned int i;

	for (i = 0; i < nq->npkts; i++)
		if (!(nq->pkt[i].flags & BQLM_NIC_PKT_KICKED)) {
			bqlm_nic_ring_doorbell(nic, cfg, nq);
			return;
		}
}

/* An error exit (a drop, NETDEV_TX_BUSY): a doorbell xmit_more deferred. */
static void bqlm_nic_err_kick(struct bqlm_nic *nic,
			      const struct bqlm_nic_cfg *cfg)
{
	if (cfg->err_kick == BQLM_NIC_EKICK_RING)
		bqlm_nic_kick_pending(nic, cfg);
}

/* The ring-full stop (not NETDEV_TX_BUSY's): cfg->stop_kick's doorbell. */
static void bqlm_nic_stop_kick(struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg)
{
	if (cfg->stop_kick == BQLM_NIC_SKICK_RING)
		bqlm_nic_kick_pending(nic, cfg);
}

/* Record a DQL call's refusal in @ev. */
static void bqlm_nic_dql_ev(struct bqlm_inv_step *ev, int ret,
			    const struct bqlm_dql *dql, unsigned int count)
{
	if (!ret)
		return;
	ev->dql_err = ret;
	ev->dql_val[0] = count;
	ev->dql_val[1] = bqlm_dql_inflight(dql);
}

/* netdev_tx_completed_queue() whole, by a completer holding the tx lock. */
static void bqlm_nic_completed(struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg,
			       unsigned int cpu, unsigned int q,
			       unsigned int bytes, struct bqlm_inv_step *ev)
{
	struct bqlm_txq *txq = &nic->q[q].txq;
	int ret;

	if (!bytes)
		return;
	ret = bqlm_txq_completed_step_dql(txq, bytes, cfg->now);
	bqlm_nic_dql_ev(ev, ret, &txq->dql, bytes);
	if (ret)
		return;
	bqlm_nic_mb(nic, cfg, cpu);
	bqlm_txq_completed_step_wake(txq);
}

/* The end of ndo_start_xmit() (NETDEV_TX_OK): the batch, unlock. */
static void bqlm_nic_xmit_end(struct bqlm_nic *nic,
			      const struct bqlm_nic_cfg *cfg)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];

	nic->sent++;
	/* dev_hard_start_xmit() ends the batch on a stopped queue */
	if (nic->xmit_more && !bqlm_nic_xmit_stopped(nic, cfg, nic->xmit_q)) {
		nic->batch_pos++;
	} else {
		nic->batch_pos = 0;
		nic->batch_no++;
	}
	nic->xmit = BQLM_NIC_XMIT_IDLE;
	nic->xmit_more = 0;
	nic->kick = 0;
	nic->xflags = 0;
	nq->lock = BQLM_NIC_LOCK_FREE;
}

/* NETDEV_TX_BUSY: the packet is requeued, the batch ends, unlock. */
static void bqlm_nic_xmit_busy(struct bqlm_nic *nic)
{
	nic->batch_pos = 0;
	nic->xmit = BQLM_NIC_XMIT_IDLE;
	nic->xmit_more = 0;
	nic->kick = 0;
	nic->xflags = 0;
	nic->q[nic->xmit_q].lock = BQLM_NIC_LOCK_FREE;
}

/*
 * The sent call's first step on the newest packet: dql_queued() and the
 * over-limit test, as bqlm_txq_sent_step_queue(). With
 * __netdev_tx_sent_queue() and xmit_more set, that is all (its return
 * value in nic->kick); otherwise, the plain netdev_tx_sent_queue() always
 * and __netdev_tx_sent_queue() at the end of a batch, an over-limit queue
 * goes on to bqlm_txq_sent_step_xoff() and bqlm_txq_sent_step_recheck() in
 * the next two steps.
 */
static void bqlm_nic_sent_queue(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg,
				struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	struct bqlm_nic_pkt *p = NULL;
	bool over;
	int ret;

	/*
	 * The packet is the newest on the ring (the tx lock keeps others
	 * off), unless, counted after the doorbell, it already completed.
	 */
	if (nq->npkts && !(nq->pkt[nq->npkts - 1].flags &
			   (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE |
			    BQLM_NIC_PKT_XDP)))
		p = &nq->pkt[nq->npkts - 1];
	ret = bqlm_txq_sent_step_queue(&nq->txq, bqlm_nic_sent_len(cfg),
				       cfg->now, &over);
	bqlm_nic_dql_ev(ev, ret, &nq->txq.dql, bqlm_nic_sent_len(cfg));
	if (!ret && p)
		p->flags |= BQLM_NIC_PKT_SENT;
	if (nic->xmit_more && cfg->sent_call == BQLM_NIC_CALL_XMIT_MORE) {
		nic->kick = !!(bqlm_nic_load(nic, cfg, BQLM_NIC_CPU_XMIT,
					     BQLM_NIC_VAR_STATE(nic->xmit_q)) &
			       BQLM_NIC_DRV_XOFF);
		return;
	}
	nic->kick = 1;
	if (over)
		nic->xmit = BQLM_NIC_XMIT_XOFF;
}

/*
 * The points of ndo_start_xmit() after the descriptors are written, in
 * the order the configuration puts them (bqlm_nic_next_point()).
 */
enum bqlm_nic_point {
	BQLM_NIC_P_STOP_BS,	/* the ring-full stop before the sent call */
	BQLM_NIC_P_SENT,	/* netdev_tx_sent_queue() */
	BQLM_NIC_P_DROP,	/* a drop after the sent call */
	BQLM_NIC_P_STOP_AS,	/* the ring-full stop after it */
	BQLM_NIC_P_KICK,	/* the doorbell decision */
	BQLM_NIC_P_INDEX,	/* the producer index, after the doorbell */
	BQLM_NIC_P_STOP_AD,	/* the ring-full stop after the doorbell */
	BQLM_NIC_P_END,
};

static const unsigned char bqlm_nic_points[BQLM_NIC_NR_SENT][8] = {
	[BQLM_NIC_SENT_BEFORE_DOORBELL] = {
		BQLM_NIC_P_STOP_BS, BQLM_NIC_P_SENT, BQLM_NIC_P_DROP,
		BQLM_NIC_P_STOP_AS, BQLM_NIC_P_KICK, BQLM_NIC_P_INDEX,
		BQLM_NIC_P_STOP_AD, BQLM_NIC_P_END },
	[BQLM_NIC_SENT_AFTER_DOORBELL] = {
		BQLM_NIC_P_STOP_BS, BQLM_NIC_P_STOP_AS, BQLM_NIC_P_KICK,
		BQLM_NIC_P_INDEX, BQLM_NIC_P_STOP_AD, BQLM_NIC_P_SENT,
		BQLM_NIC_P_END, BQLM_NIC_P_END },
};

static unsigned int bqlm_nic_next_point(const struct bqlm_nic_cfg *cfg,
					unsigned int p)
{
	const unsigned char *order = bqlm_nic_points[cfg->sent];
	unsigned int i;

	for (i = 0; i + 1 < ARRAY_SIZE(bqlm_nic_points[0]); i++)
		if (order[i] == p)
			return order[i + 1];
	return BQLM_NIC_P_END;
}

/* The point of the configured ring-full stop. */
static unsigned int bqlm_nic_stop_point(const struct bqlm_nic_cfg *cfg)
{
	switch (cfg->stopcheck) {
	case BQLM_NIC_STOP_BEFORE_SENT:
		return BQLM_NIC_P_STOP_BS;
	case BQLM_NIC_STOP_AFTER_SENT:
		return BQLM_NIC_P_STOP_AS;
	case BQLM_NIC_STOP_AFTER_DOORBELL:
		return BQLM_NIC_P_STOP_AD;
	default:
		return BQLM_NIC_P_END;
	}
}

/* The doorbell decision, where cfg->doorbell says. */
static void bqlm_nic_kick(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	bool kick;

	switch (cfg->doorbell) {
	case BQLM_NIC_KICK_SENT_QUEUE:
		kick = nic->kick;
		break;
	case BQLM_NIC_KICK_XMIT_STOPPED:
		kick = !nic->xmit_more ||
		       bqlm_nic_xmit_stopped(nic, cfg, nic->xmit_q);
		break;
	case BQLM_NIC_KICK_XMIT_MORE:
		kick = !nic->xmit_more;
		break;
	default:
		kick = true;
	}
	if (kick)
		bqlm_nic_ring_doorbell(nic, cfg, nq);
}

/* The producer index covers the newest packet (hns3's last_to_use). */
static void bqlm_nic_publish(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	unsigned int i;

	for (i = 0; i < nq->npkts; i++)
		nq->pkt[i].flags &= ~BQLM_NIC_PKT_HIDDEN;
	if (bqlm_nic_split(cfg))
		bqlm_nic_index_add(nic, cfg, BQLM_NIC_CPU_XMIT,
				   BQLM_NIC_VAR_PROD(nic->xmit_q), cfg->descs);
}

/*
 * A drop after the sent call: the descriptors unwound, the skb freed; its
 * bytes stay counted (an orphan), or the unwind completes them.
 */
static void bqlm_nic_drop_after(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg,
				struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	struct bqlm_nic_pkt *p = &nq->pkt[nq->npkts - 1];
	bool sent = (p->flags & (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE)) ==
		    BQLM_NIC_PKT_SENT;

	nic->drops--;
	bqlm_nic_remove(nq, nq->npkts - 1);
	if (bqlm_nic_split(cfg))
		bqlm_nic_index_add(nic, cfg, BQLM_NIC_CPU_XMIT,
				   BQLM_NIC_VAR_PROD(nic->xmit_q),
				   -(int)cfg->descs);
	if (cfg->drop == BQLM_NIC_DROP_AFTER_SENT_COMPLETE)
		bqlm_nic_completed(nic, cfg, BQLM_NIC_CPU_XMIT, nic->xmit_q,
				   bqlm_nic_sent_len(cfg), ev);
	else if (sent) {
		nq->orphan_bytes += bqlm_nic_sent_len(cfg);
		nq->orphans++;
	}
	bqlm_nic_err_kick(nic, cfg);
	bqlm_nic_xmit_end(nic, cfg);
}

/*
 * The driver's ring-full test at a stop point, cut at its barriers: true
 * when the ring is full and the stop is the next step.
 */
static bool bqlm_nic_stop_check(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg,
				struct bqlm_inv_step *ev)
{
	if (!bqlm_nic_split(cfg)) {
		if (!bqlm_nic_room(&nic->q[nic->xmit_q], cfg))
			bqlm_nic_stop_kick(nic, cfg);
		bqlm_nic_maybe_stop(nic, cfg, nic->xmit_q, ev);
		return false;
	}
	if (bqlm_nic_free_view(nic, cfg, BQLM_NIC_CPU_XMIT, nic->xmit_q) >=
	    (int)bqlm_nic_stop_thr(cfg))
		return false;
	nic->xmit = BQLM_NIC_XMIT_DRV_STOP;
	return true;
}

/*
 * Run ndo_start_xmit() from point @p to the next step boundary: the sent
 * call's STACK_XOFF, the driver's stop, the sent call or the producer
 * index after the doorbell; or to its end. @p itself runs first, without
 * the boundary before it.
 */
static void bqlm_nic_xmit_run(struct bqlm_nic *nic,
			      const struct bqlm_nic_cfg *cfg,
			      struct bqlm_inv_step *ev, unsigned int p)
{
	bool first = true;

	for (;; p = bqlm_nic_next_point(cfg, p), first = false) {
		switch (p) {
		case BQLM_NIC_P_STOP_BS:
		case BQLM_NIC_P_STOP_AS:
		case BQLM_NIC_P_STOP_AD:
			if (p == bqlm_nic_stop_point(cfg) &&
			    bqlm_nic_stop_check(nic, cfg, ev))
				return;
			break;
		case BQLM_NIC_P_SENT:
			if (!first) {
				if (cfg->sent == BQLM_NIC_SENT_AFTER_DOORBELL) {
					nic->xmit = BQLM_NIC_XMIT_SENT;
					return;
				}
			}
			nic->xmit = BQLM_NIC_XMIT_IDLE;
			bqlm_nic_sent_queue(nic, cfg, ev);
			if (nic->xmit != BQLM_NIC_XMIT_IDLE)
				return;
			break;
		case BQLM_NIC_P_DROP:
			if (nic->xflags & BQLM_NIC_XF_DROP) {
				bqlm_nic_drop_after(nic, cfg, ev);
				return;
			}
			break;
		case BQLM_NIC_P_KICK:
			bqlm_nic_kick(nic, cfg);
			break;
		case BQLM_NIC_P_INDEX:
			if (cfg->index != BQLM_NIC_INDEX_AFTER_DOORBELL)
				break;
			if (!first) {
				nic->xmit = BQLM_NIC_XMIT_INDEX;
				return;
			}
			bqlm_nic_publish(nic, cfg);
			break;
		default:
			bqlm_nic_xmit_end(nic, cfg);
			return;
		}
	}
}

/*
 * The descriptors of the stack's packet go on the ring; those beyond its
 * free descriptors go over ones still in use (a ring overrun).
 */
static void bqlm_nic_write(struct bqlm_nic *nic,
			   const struct bqlm_nic_cfg *cfg,
			   struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	unsigned int used = bqlm_nic_used(nq, cfg);
	struct bqlm_nic_pkt *p;

	if (used + cfg->descs > cfg->ring) {
		ev->overrun += used + cfg->descs - cfg->ring;
		ev->overrun_free = used < cfg->ring ? cfg->ring - used : 0;
	}
	p = &nq->pkt[nq->npkts++];

	memset(p, 0, sizeof(*p));
	if (cfg->bytes == BQLM_NIC_BYTES_ZERO_SOME && (nic->sent & 1))
		p->flags |= BQLM_NIC_PKT_NOLEN;
	if (cfg->index == BQLM_NIC_INDEX_AFTER_DOORBELL)
		p->flags |= BQLM_NIC_PKT_HIDDEN;
	else if (bqlm_nic_split(cfg))
		bqlm_nic_index_add(nic, cfg, BQLM_NIC_CPU_XMIT,
				   BQLM_NIC_VAR_PROD(nic->xmit_q), cfg->descs);
}

/* The packet goes through: descriptors, then the points. */
static void bqlm_nic_transmit(struct bqlm_nic *nic,
			      const struct bqlm_nic_cfg *cfg,
			      struct bqlm_inv_step *ev)
{
	bqlm_nic_write(nic, cfg, ev);
	if (cfg->sent == BQLM_NIC_SENT_AFTER_DOORBELL)
		nic->kick = 1;	/* the doorbell first: its decision alone */
	bqlm_nic_xmit_run(nic, cfg, ev, BQLM_NIC_P_STOP_BS);
}

/* ndo_start_xmit()'s cleanup: clean, netdev_tx_completed_queue() whole. */
static void bqlm_nic_xmit_cleanup(struct bqlm_nic *nic,
				  const struct bqlm_nic_cfg *cfg,
				  struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	unsigned int pkts, bytes, held, descs;

	bytes = bqlm_nic_clean(nq, cfg, BQLM_NIC_MAX_RING, &pkts, &held,
			       &descs, ev);
	if (bqlm_nic_split(cfg))
		bqlm_nic_index_add(nic, cfg, BQLM_NIC_CPU_XMIT,
				   BQLM_NIC_VAR_CONS(nic->xmit_q), descs);
	bqlm_nic_completed(nic, cfg, BQLM_NIC_CPU_XMIT, nic->xmit_q, bytes, ev);
}

/* The driver's stop, after its test found the ring full. */
static void bqlm_nic_drv_stop(struct bqlm_nic *nic,
			      const struct bqlm_nic_cfg *cfg,
			      struct bqlm_inv_step *ev)
{
	bool busy = nic->xflags & BQLM_NIC_XF_BUSY;

	if (!busy)
		bqlm_nic_stop_kick(nic, cfg);
	bqlm_nic_stop_queue(nic, cfg, BQLM_NIC_CPU_XMIT,
			    bqlm_nic_drv_q(cfg, nic->xmit_q));
	/* for ring xmit_q, full (or with no room for the packet) */
	bqlm_nic_which_queue(ev, bqlm_nic_drv_q(cfg, nic->xmit_q), nic->xmit_q);
	if (busy ? cfg->busy == BQLM_NIC_BUSY_STOP :
	    cfg->drv_stop == BQLM_NIC_DSTOP_NO_RECHECK) {
		if (busy)
			bqlm_nic_xmit_busy(nic);
		else
			bqlm_nic_xmit_run(nic, cfg, ev,
					  bqlm_nic_next_point(cfg,
						bqlm_nic_stop_point(cfg)));
		return;
	}
	nic->xmit = BQLM_NIC_XMIT_DRV_RECHECK;
}

/* The driver's re-check after its stop: restart if room appeared. */
static void bqlm_nic_drv_recheck(struct bqlm_nic *nic,
				 const struct bqlm_nic_cfg *cfg,
				 struct bqlm_inv_step *ev)
{
	unsigned int dq = bqlm_nic_drv_q(cfg, nic->xmit_q);
	bool busy = nic->xflags & BQLM_NIC_XF_BUSY, room;

	if (cfg->drv_stop != BQLM_NIC_DSTOP_NO_MB)
		bqlm_nic_mm(nic, cfg, BQLM_NIC_CPU_XMIT,
			    BQLM_NIC_MM_MB_AFTER_ATOMIC, 0, 0);
	room = bqlm_nic_free_view(nic, cfg, BQLM_NIC_CPU_XMIT, nic->xmit_q) >=
	       (int)bqlm_nic_restart_thr(cfg);
	if (room)
		bqlm_nic_mm(nic, cfg, BQLM_NIC_CPU_XMIT, BQLM_NIC_MM_CLEAR,
			    BQLM_NIC_VAR_STATE(dq), BQLM_NIC_DRV_XOFF);
	if (room && cfg->drv_stop == BQLM_NIC_DSTOP_IGNORE_RESTART) {
		/* -1 ("restarted") taken for "stopped": stop again */
		bqlm_nic_stop_queue(nic, cfg, BQLM_NIC_CPU_XMIT, dq);
		room = false;
	}
	nic->xmit = BQLM_NIC_XMIT_IDLE;
	if (!busy) {
		bqlm_nic_xmit_run(nic, cfg, ev,
				  bqlm_nic_next_point(cfg,
						      bqlm_nic_stop_point(cfg)));
		return;
	}
	nic->xflags &= ~BQLM_NIC_XF_BUSY;
	if (room)
		bqlm_nic_transmit(nic, cfg, ev);	/* raced with the poll */
	else
		bqlm_nic_xmit_busy(nic);
}

/* ndo_start_xmit()'s first step. */
static void bqlm_nic_xmit_start(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg, bool drop,
				struct bqlm_inv_step *ev)
{
	nic->xmit_q = bqlm_nic_next_queue(nic, cfg);
	nic->xmit_more = bqlm_nic_next_more(nic, cfg);
	nic->q[nic->xmit_q].lock = BQLM_NIC_LOCK_XMIT;
	/* virtio: virtqueue_disable_cb() around free_old_xmit() */
	if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB)
		nic->q[nic->xmit_q].cb_off = 1;
	if (cfg->completers == BQLM_NIC_COMPLETE_NAPI_XMIT)
		bqlm_nic_xmit_cleanup(nic, cfg, ev);
	/* and virtqueue_enable_cb_delayed() unless xmit_more is set */
	if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB && !nic->xmit_more)
		nic->q[nic->xmit_q].cb_off = 0;
	if (drop && cfg->drop == BQLM_NIC_DROP_BEFORE_SENT) {
		/* a mapping error before anything was written */
		nic->drops--;
		bqlm_nic_err_kick(nic, cfg);
		bqlm_nic_xmit_end(nic, cfg);
		return;
	}
	if (drop)
		nic->xflags |= BQLM_NIC_XF_DROP;
	if (bqlm_nic_xmit_no_room(nic, cfg, nic->xmit_q)) {
		/* NETDEV_TX_BUSY: the stop is the next step */
		bqlm_nic_err_kick(nic, cfg);
		nic->xflags = BQLM_NIC_XF_BUSY;
		nic->xmit = BQLM_NIC_XMIT_DRV_STOP;
		return;
	}
	bqlm_nic_transmit(nic, cfg, ev);
}

/* bqlm_ndo_start_xmit()'s step, on a configuration already checked. */
int __bqlm_ndo_start_xmit(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg, bool drop,
			  struct bqlm_inv_step *ev)
{
	if (nic->xmit == BQLM_NIC_XMIT_IDLE && nic->sent >= cfg->packets)
		return -EINVAL;
	if (drop && (nic->xmit != BQLM_NIC_XMIT_IDLE || !nic->drops))
		return -EINVAL;
	if (!bqlm_nic_can_xmit(nic, cfg))
		return -EAGAIN;
	switch (nic->xmit) {
	case BQLM_NIC_XMIT_XOFF:
		/* smp_mb__before_atomic(), set_bit(STACK_XOFF) */
		bqlm_nic_mb(nic, cfg, BQLM_NIC_CPU_XMIT);
		bqlm_txq_sent_step_xoff(&nic->q[nic->xmit_q].txq, cfg->now);
		nic->xmit = BQLM_NIC_XMIT_RECHECK;
		return 0;
	case BQLM_NIC_XMIT_RECHECK:
		bqlm_nic_mb(nic, cfg, BQLM_NIC_CPU_XMIT);
		bqlm_txq_sent_step_recheck(&nic->q[nic->xmit_q].txq);
		nic->xmit = BQLM_NIC_XMIT_IDLE;
		bqlm_nic_xmit_run(nic, cfg, ev,
				  bqlm_nic_next_point(cfg, BQLM_NIC_P_SENT));
		return 0;
	case BQLM_NIC_XMIT_SENT:
		bqlm_nic_xmit_run(nic, cfg, ev, BQLM_NIC_P_SENT);
		return 0;
	case BQLM_NIC_XMIT_DRV_STOP:
		bqlm_nic_drv_stop(nic, cfg, ev);
		return 0;
	case BQLM_NIC_XMIT_DRV_RECHECK:
		bqlm_nic_drv_recheck(nic, cfg, ev);
		return 0;
	case BQLM_NIC_XMIT_INDEX:
		nic->xmit = BQLM_NIC_XMIT_IDLE;
		bqlm_nic_xmit_run(nic, cfg, ev, BQLM_NIC_P_INDEX);
		return 0;
	default:
		break;
	}
	bqlm_nic_xmit_start(nic, cfg, drop, ev);
	return 0;
}

/**
 * bqlm_ndo_start_xmit() - the stack's transmit, one step
 * @nic: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * First step: HARD_TX_LOCK; with BQLM_NIC_COMPLETE_NAPI_XMIT the ring is
 * cleaned and completed first; with a NETDEV_TX_BUSY path (cfg->busy) a
 * ring the stack's CPU sees full goes to it; else the packet's
 * descriptors are written, and the points follow in the order cfg->sent
 * gives: the ring-full stop where cfg->stopcheck puts it, the sent call
 * (dql_queued(), and over the limit STACK_XOFF and the re-check as two
 * more steps, as model/kernel/netdevice.c's steps of netdev_tx_sent_queue();
 * with BQLM_NIC_CALL_XMIT_MORE and xmit_more set the over-limit test is not
 * acted on), the doorbell decision, the producer index with
 * BQLM_NIC_INDEX_AFTER_DOORBELL (a step of its own), the end. With the sent
 * call after the doorbell the sent call is a step of its own.
 *
 * The driver's ring-full stop is one step under bqlm_nic_split() false;
 * else the test, netif_tx_stop_queue() and smp_mb__after_atomic() with the
 * re-check are three (cfg->drv_stop's form), every access to the state
 * word and the indices through the stack's store buffer.
 *
 * Return: 0, -EAGAIN when the stack cannot send now, -EINVAL when every
 * packet was sent or @cfg is invalid.
 */
int bqlm_ndo_start_xmit(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			struct bqlm_inv_step *ev)
{
	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_ndo_start_xmit(nic, cfg, false, ev);
}

/**
 * bqlm_ndo_start_xmit_drop() - the stack's transmit of a packet the
 *	driver drops (a DMA mapping error), its first step
 * @nic: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * As bqlm_ndo_start_xmit(), for one of the cfg->drops packets: dropped
 * where cfg->drop says, the doorbell xmit_more deferred rung or not as
 * cfg->err_kick says; the later steps are bqlm_ndo_start_xmit()'s.
 *
 * Return: 0, -EAGAIN when the stack cannot send now, -EINVAL when no drop
 * is left, a transmit is in progress, or @cfg is invalid.
 */
int bqlm_ndo_start_xmit_drop(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg,
			     struct bqlm_inv_step *ev)
{
	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_ndo_start_xmit(nic, cfg, true, ev);
}

/* bqlm_nic_dma_complete()'s step, on a configuration already checked. */
/*
 * A used-buffer notification of the queue's virtqueue, if the driver has
 * callbacks enabled: skb_xmit_done() disables them and schedules the NAPI
 * (napi_schedule_prep(): NAPIF_STATE_MISSED if it is already scheduled,
 * running, or disabled).
 */
static void bqlm_nic_vq_notify(struct bqlm_nic *nic,
			       struct bqlm_nic_queue *nq)
{
	if (nq->cb_off)
		return;
	nq->cb_off = 1;
	if (!nic->napi_on || nq->sched || nq->napi != BQLM_NIC_NAPI_IDLE)
		nq->missed = 1;
	else
		nq->sched = 1;
}

int __bqlm_nic_dma_complete(struct bqlm_nic *nic,
			    const struct bqlm_nic_cfg *cfg,
			    unsigned int q)
{
	struct bqlm_nic_queue *nq;
	int i;

	if (!bqlm_nic_can_dma(nic, cfg, q))
		return -EINVAL;
	nq = &nic->q[q];
	if (nq->ghosts > nq->ghost_done) {
		nq->ghost_done++;
	} else {
		i = bqlm_nic_dma_next(nq, cfg);
		nq->pkt[i].done++;
	}
	if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB)
		bqlm_nic_vq_notify(nic, nq);
	else if (nic->napi_on || cfg->completion == BQLM_NIC_COMPLETION_IRQ)
		nq->sched = 1;
	return 0;
}

/**
 * bqlm_nic_dma_complete() - the device completes one descriptor
 * @nic: the state
 * @cfg: the configuration
 * @q: the queue
 *
 * The next descriptor in ring order, if a doorbell covered it, the DMA
 * runs and the device does not hang; descriptors of buffers a drain freed
 * while the DMA ran come first. The interrupt then schedules the queue's
 * NAPI, if enabled, or (BQLM_NIC_COMPLETION_IRQ) is pending for the
 * handler.
 *
 * Return: 0, or -EINVAL when there is nothing the device may complete
 * or @cfg is invalid.
 */
int bqlm_nic_dma_complete(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			  unsigned int q)
{
	if (!nic || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_nic_dma_complete(nic, cfg, q);
}

/**
 * bqlm_nic_dma_hang() - the device hangs
 * @nic: the state
 * @cfg: the configuration
 *
 * One of the cfg->hangs hangs: the device completes nothing until a reset
 * path stops its DMA (the path call dma-off), which the tx watchdog's
 * ndo_tx_timeout() is there for.
 *
 * Return: 0, or -EINVAL (no hang left, the device already hangs or is
 * stopped, or @cfg invalid).
 */
int bqlm_nic_dma_hang(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg)
{
	if (!nic || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	if (!nic->hangs || nic->hung || !nic->dma_on)
		return -EINVAL;
	nic->hangs--;
	nic->hung = 1;
	return 0;
}

/*
 * The completion's wake, cut at its barriers: CPU 1 + q tests the room
 * and DRV_XOFF as it sees them, netif_tx_wake_queue() (fully ordered).
 */
static void bqlm_nic_poll_wake_split(struct bqlm_nic *nic,
				     const struct bqlm_nic_cfg *cfg,
				     unsigned int q, struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int cpu = BQLM_NIC_CPU_POLL(q), dq = bqlm_nic_wake_q(cfg, q);

	if (cfg->drv_wake == BQLM_NIC_DWAKE_NO_MB) {
		/* the consumer index after netdev_tx_completed_queue() */
		bqlm_nic_index_add(nic, cfg, cpu, BQLM_NIC_VAR_CONS(q),
				   nq->napi_descs);
		nq->napi_descs = 0;
	}
	if (!(cfg->wakers & BQLM_NIC_WAKER_NAPI) || !nq->napi_pkts)
		return;
	if (bqlm_nic_free_view(nic, cfg, cpu, q) < (int)bqlm_nic_wake_thr(cfg))
		return;
	if (!(bqlm_nic_load(nic, cfg, cpu, BQLM_NIC_VAR_STATE(dq)) &
	      BQLM_NIC_DRV_XOFF) || !bqlm_nic_wake_gate(nic, cfg))
		return;
	bqlm_nic_wake_queue(nic, cfg, cpu, dq);
	bqlm_nic_which_queue(ev, dq, q);	/* ring q cleaned */
}

/* napi_complete_done() (fully ordered), re-arm, unlock. */
static void bqlm_nic_poll_done(struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg, unsigned int q)
{
	struct bqlm_nic_queue *nq = &nic->q[q];

	bqlm_nic_mb(nic, cfg, BQLM_NIC_CPU_POLL(q));
	/* the re-armed interrupt fires at once for what is left */
	if (nq->napi_pkts < cfg->budget)
		nq->sched = bqlm_nic_cleanable(nq, cfg);
	if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB) {
		/*
		 * virtqueue_enable_cb_prepare(); napi_complete_done()
		 * schedules the poll again for NAPIF_STATE_MISSED, and
		 * callbacks are disabled again whenever it is scheduled
		 */
		nq->cb_off = 0;
		if (nq->missed)
			nq->sched = 1;
		nq->missed = 0;
		if (nq->sched)
			nq->cb_off = 1;
	}
	nq->napi = BQLM_NIC_NAPI_IDLE;
	nq->napi_pkts = 0;
	nq->napi_bytes = 0;
	nq->napi_descs = 0;
	if (nq->lock == BQLM_NIC_LOCK_NAPI)
		nq->lock = BQLM_NIC_LOCK_FREE;
}

/* The end of a poll as one step: wake on room, napi_complete_done(). */
static void bqlm_nic_poll_tail(struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg, unsigned int q,
			       struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int dq = bqlm_nic_wake_q(cfg, q);

	/* not on a device going down: the driver's own flag (__E1000_DOWN,
	 * virtio's sq->reset) keeps a reset path's stop in force
	 */
	if ((cfg->wakers & BQLM_NIC_WAKER_NAPI) &&
	    bqlm_netif_tx_queue_stopped(&nic->q[dq].txq) &&
	    bqlm_nic_room(nq, cfg) && bqlm_nic_wake_gate(nic, cfg)) {
		bqlm_netif_tx_wake_queue(&nic->q[dq].txq);
		bqlm_nic_which_queue(ev, dq, q);
	}
	bqlm_nic_poll_done(nic, cfg, q);
}

/* bqlm_napi_poll()'s first step: clean, enter netdev_tx_completed_queue(). */
static void bqlm_nic_poll_clean(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg, unsigned int q,
				struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int pkts, bytes, held, descs;
	bool split = bqlm_nic_split(cfg);

	if (cfg->napi_txlock)
		nq->lock = BQLM_NIC_LOCK_NAPI;
	if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB)
		nq->cb_off = 1;
	bytes = bqlm_nic_clean(nq, cfg, cfg->budget, &pkts, &held, &descs, ev);
	nq->napi_pkts = pkts;
	nq->napi_bytes = bytes;
	if (split && cfg->drv_wake == BQLM_NIC_DWAKE_HELPER)
		bqlm_nic_index_add(nic, cfg, BQLM_NIC_CPU_POLL(q),
				   BQLM_NIC_VAR_CONS(q), descs);
	else if (split)
		nq->napi_descs = descs;
	if (bytes) {
		nq->napi_held = held;
		nq->napi = BQLM_NIC_NAPI_DQL;
	} else if (!split) {
		bqlm_nic_poll_tail(nic, cfg, q, ev);
	} else {
		/* netdev_tx_completed_queue(txq, pkts, 0): no barrier */
		bqlm_nic_poll_wake_split(nic, cfg, q, ev);
		if (nq->sb.n)
			nq->napi = BQLM_NIC_NAPI_TAIL;
		else
			bqlm_nic_poll_done(nic, cfg, q);
	}
}

/* bqlm_napi_poll()'s step, on a configuration already checked. */
int __bqlm_napi_poll(struct bqlm_nic *nic,
		     const struct bqlm_nic_cfg *cfg, unsigned int q,
		     struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq;
	struct bqlm_txq *txq;
	int ret;

	if (q >= cfg->queues)
		return -EINVAL;
	nq = &nic->q[q];
	if (nq->napi == BQLM_NIC_NAPI_IDLE &&
	    (!nq->sched || (cfg->completion == BQLM_NIC_COMPLETION_NAPI ?
			    !nic->napi_on : nic->irq_off)))
		return -EINVAL;
	if (!bqlm_nic_can_poll(nic, cfg, q))
		return -EAGAIN;
	txq = &nic->q[bqlm_nic_bql_q(cfg, q)].txq;
	switch (nq->napi) {
	case BQLM_NIC_NAPI_DQL:
		ret = bqlm_txq_completed_step_dql(txq, nq->napi_bytes,
						  cfg->now);
		bqlm_nic_dql_ev(ev, ret, &txq->dql, nq->napi_bytes);
		nq->napi_held = 0;
		nq->napi = BQLM_NIC_NAPI_WAKE;
		return 0;
	case BQLM_NIC_NAPI_WAKE:
		/* (after a refused dql_completed() nothing runs: fatal) */
		bqlm_nic_mb(nic, cfg, BQLM_NIC_CPU_POLL(q));
		bqlm_txq_completed_step_wake(txq);
		if (!bqlm_nic_split(cfg)) {
			bqlm_nic_poll_tail(nic, cfg, q, ev);
			return 0;
		}
		bqlm_nic_poll_wake_split(nic, cfg, q, ev);
		nq->napi = BQLM_NIC_NAPI_TAIL;
		return 0;
	case BQLM_NIC_NAPI_TAIL:
		bqlm_nic_poll_done(nic, cfg, q);
		return 0;
	default:
		break;
	}
	bqlm_nic_poll_clean(nic, cfg, q, ev);
	return 0;
}

/**
 * bqlm_napi_poll() - the queue's NAPI poll (or tx IRQ handler), one step
 * @nic: the state
 * @cfg: the configuration
 * @q: the queue
 * @ev: receives what the step did
 *
 * First step: (the tx lock with cfg->napi_txlock,) clean up to the budget
 * and enter netdev_tx_completed_queue() with the sum; a poll with nothing
 * to report goes straight to its tail. Second: dql_completed() ends.
 * Third: smp_mb(), the STACK_XOFF wake, then the tail: netif_tx_wake_queue()
 * if the driver had stopped the queue and there is room,
 * napi_complete_done() unless the budget was used up. With
 * bqlm_nic_split() the wake is netif_txq_completed_wake()'s, in
 * cfg->drv_wake's form, through the completing CPU's store buffer, and
 * napi_complete_done() a fourth step. With cfg->complete_queue
 * BQLM_NIC_CQUEUE_OTHER the bytes go to the next queue's DQL.
 *
 * Return: 0, -EAGAIN (waits for the tx lock), -EINVAL (not scheduled, or
 * @cfg invalid).
 */
int bqlm_napi_poll(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
		   unsigned int q, struct bqlm_inv_step *ev)
{
	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_napi_poll(nic, cfg, q, ev);
}

/* bqlm_ndo_xdp_xmit()'s step, on a configuration already checked. */
int __bqlm_ndo_xdp_xmit(struct bqlm_nic *nic,
			const struct bqlm_nic_cfg *cfg,
			struct bqlm_inv_step *ev)
{
	unsigned int q = cfg->queues - 1, pkts, bytes, held, descs;
	struct bqlm_nic_queue *nq = &nic->q[q];
	struct bqlm_nic_pkt *p;

	if (!bqlm_nic_can_xdp(nic, cfg))
		return -EINVAL;
	if (cfg->xdp_cleans) {
		/* __free_old_xmit() under the tx lock */
		bytes = bqlm_nic_clean(nq, cfg, BQLM_NIC_MAX_RING, &pkts,
				       &held, &descs, ev);
		if (bqlm_nic_split(cfg))
			nq->cons += descs;
		bqlm_nic_completed(nic, cfg, BQLM_NIC_NR_CPUS, q, bytes, ev);
	}
	p = &nq->pkt[nq->npkts++];
	memset(p, 0, sizeof(*p));
	p->flags = BQLM_NIC_PKT_XDP;
	if (cfg->xdp == BQLM_NIC_XDP_COUNTED &&
	    !bqlm_netdev_tx_sent_queue(&nq->txq, cfg->len, cfg->now))
		p->flags |= BQLM_NIC_PKT_SENT;
	if (bqlm_nic_split(cfg))
		nq->prod++;
	bqlm_nic_ring_doorbell(nic, cfg, nq);
	nic->xdp_sent++;
	return 0;
}

/**
 * bqlm_ndo_xdp_xmit() - an XDP_TX frame on the last (shared) queue
 * @nic: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * Under the queue's tx lock, as drivers sharing a stack queue take it:
 * with cfg->xdp_cleans the ring is cleaned and completed first; the frame
 * goes on the ring, reported to netdev_tx_sent_queue() (whole, in this
 * step) only with BQLM_NIC_XDP_COUNTED, and the doorbell is rung.
 *
 * Return: 0, or -EINVAL when no frame may be sent now or @cfg is invalid.
 */
int bqlm_ndo_xdp_xmit(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
		      struct bqlm_inv_step *ev)
{
	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_ndo_xdp_xmit(nic, cfg, ev);
}

/*
 * The RX poll's tx cleanup once it has the tx lock: clean, complete, wake
 * on room (virtio: callbacks enabled again at its end).
 */
static void bqlm_nic_cleantx(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg, unsigned int q,
			     struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int pkts, bytes, held, descs, dq = bqlm_nic_wake_q(cfg, q);
	bool room;

	bytes = bqlm_nic_clean(nq, cfg, BQLM_NIC_MAX_RING, &pkts, &held,
			       &descs, ev);
	if (bqlm_nic_split(cfg))
		nq->cons += descs;
	bqlm_nic_completed(nic, cfg, BQLM_NIC_NR_CPUS, bqlm_nic_bql_q(cfg, q),
			   bytes, ev);
	room = bqlm_nic_split(cfg) ?
	       bqlm_nic_free_view(nic, cfg, BQLM_NIC_NR_CPUS, q) >=
	       (int)bqlm_nic_wake_thr(cfg) : bqlm_nic_room(nq, cfg);
	if ((cfg->wakers & BQLM_NIC_WAKER_RX) &&
	    bqlm_netif_tx_queue_stopped(&nic->q[dq].txq) && room) {
		bqlm_netif_tx_wake_queue(&nic->q[dq].txq);
		bqlm_nic_which_queue(ev, dq, q);
	}
	if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB)
		nq->cb_off = 0;
}

/* bqlm_napi_poll_cleantx()'s step, on a configuration already checked. */
int __bqlm_napi_poll_cleantx(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg,
			     unsigned int q, struct bqlm_inv_step *ev)
{
	if (!bqlm_nic_can_cleantx(nic, cfg, q))
		return -EINVAL;
	bqlm_nic_cleantx(nic, cfg, q, ev);
	return 0;
}

/**
 * bqlm_napi_poll_cleantx() - the RX poll cleans the tx ring, one step
 * @nic: the state
 * @cfg: the configuration
 * @q: the queue
 * @ev: receives what the step did
 *
 * With cfg->rx_cleanup, as virtnet_poll_cleantx(): if __netif_tx_trylock()
 * succeeds, clean what the device completed, netdev_tx_completed_queue()
 * with the sum (both of its steps: no one else can take the lock
 * meanwhile), wake the queue on room (unless cfg->wakers leaves the RX
 * poll out), unlock. A busy lock makes the RX poll skip the cleanup,
 * which the model shows as the step not being enabled.
 *
 * Return: 0, or -EINVAL when the cleanup would not run or find nothing,
 * or @cfg is invalid.
 */
int bqlm_napi_poll_cleantx(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			   unsigned int q, struct bqlm_inv_step *ev)
{
	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_napi_poll_cleantx(nic, cfg, q, ev);
}

/* netdev_tx_reset_queue(): mark what the ring holds, forget the rest. */
static void bqlm_nic_reset_queue(struct bqlm_nic *nic,
				 const struct bqlm_nic_cfg *cfg,
				 unsigned int q)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int i;

	bqlm_netdev_tx_reset_queue(&nq->txq, cfg->now);
	for (i = 0; i < nq->npkts; i++)
		if (nq->pkt[i].flags & BQLM_NIC_PKT_SENT)
			nq->pkt[i].flags = (nq->pkt[i].flags &
					    ~BQLM_NIC_PKT_SENT) |
					   BQLM_NIC_PKT_STALE;
	nq->orphan_bytes = 0;
	nq->orphans = 0;
	if (nq->ghosts)
		nq->ghost_stale = 1;
}

/*
 * Every buffer of ring @q freed without a completion: those reported sent
 * in this epoch are orphans; with the DMA running, the device keeps the
 * descriptors it was given and not yet completed (ghosts).
 */
static void bqlm_nic_drain(struct bqlm_nic *nic,
			   const struct bqlm_nic_cfg *cfg, unsigned int q)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int i;

	for (i = 0; i < nq->npkts; i++) {
		const struct bqlm_nic_pkt *p = &nq->pkt[i];

		if ((p->flags & (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE)) !=
		    BQLM_NIC_PKT_SENT)
			continue;
		nq->orphan_bytes += bqlm_nic_sent_len(cfg);
		nq->orphans++;
		if (nic->dma_on && (p->flags & BQLM_NIC_PKT_KICKED) &&
		    p->done < bqlm_nic_ndesc(p, cfg))
			nq->ghosts++;
	}
	nq->npkts = 0;
	memset(nq->pkt, 0, sizeof(nq->pkt));
	bqlm_nic_index_reset(nic, q);
}

/* The forced reclaim: every buffer of ring @q freed and completed. */
static void bqlm_nic_complete_all(struct bqlm_nic *nic,
				  const struct bqlm_nic_cfg *cfg,
				  unsigned int q, struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[q];
	unsigned int i, bytes = 0;

	for (i = 0; i < nq->npkts; i++) {
		const struct bqlm_nic_pkt *p = &nq->pkt[i];

		if ((p->flags & BQLM_NIC_PKT_XDP) &&
		    cfg->xdp == BQLM_NIC_XDP_UNCOUNTED)
			continue;
		bytes += bqlm_nic_reported(p, cfg, ev);
	}
	nq->npkts = 0;
	memset(nq->pkt, 0, sizeof(nq->pkt));
	bqlm_nic_index_reset(nic, q);
	bqlm_nic_completed(nic, cfg, BQLM_NIC_NR_CPUS, q, bytes, ev);
}

/* The device's DMA stops: a hang ends, drained descriptors are gone. */
static void bqlm_nic_dma_off(struct bqlm_nic *nic)
{
	unsigned int q;

	nic->dma_on = 0;
	nic->hung = 0;
	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++) {
		nic->q[q].ghosts = 0;
		nic->q[q].ghost_done = 0;
		nic->q[q].ghost_stale = 0;
	}
}

/* netif_tx_wake_queue() by a reset path: what BQL still counts is lost. */
static void bqlm_nic_path_wake(struct bqlm_nic *nic, unsigned int q,
			       struct bqlm_inv_step *ev)
{
	bqlm_netif_tx_wake_queue(&nic->q[q].txq);
	ev->lost += nic->q[q].orphans;
}

/* Run the path's next call; *@evq: the queue its events belong to. */
static void bqlm_nic_op(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			struct bqlm_inv_step *ev, unsigned int *evq)
{
	bool napi = cfg->completion == BQLM_NIC_COMPLETION_NAPI;
	unsigned int q, done;

	switch (cfg->ops[nic->path - 1][nic->op]) {
	case BQLM_NIC_OP_STOP:
		for (q = 0; q < cfg->queues; q++)
			bqlm_netif_tx_stop_queue(&nic->q[q].txq, cfg->now);
		break;
	case BQLM_NIC_OP_STOP0:
		bqlm_netif_tx_stop_queue(&nic->q[0].txq, cfg->now);
		break;
	case BQLM_NIC_OP_NAPI_OFF:
		nic->napi_on = 0;
		for (q = 0; q < cfg->queues && napi; q++)
			nic->q[q].sched = 0;
		break;
	case BQLM_NIC_OP_DMA_OFF:
		bqlm_nic_dma_off(nic);
		/* virtio: a virtqueue in reset has its reset state */
		for (q = 0; q < cfg->queues &&
		     cfg->notify == BQLM_NIC_NOTIFY_VQ_CB; q++)
			nic->q[q].cb_off = 0;
		break;
	case BQLM_NIC_OP_DRAIN:
		for (q = 0; q < cfg->queues; q++)
			bqlm_nic_drain(nic, cfg, q);
		break;
	case BQLM_NIC_OP_DRAIN0:
		bqlm_nic_drain(nic, cfg, 0);
		break;
	case BQLM_NIC_OP_RESET:
		for (q = 0; q < cfg->queues; q++)
			bqlm_nic_reset_queue(nic, cfg, q);
		break;
	case BQLM_NIC_OP_RESET0:
		bqlm_nic_reset_queue(nic, cfg, 0);
		break;
	case BQLM_NIC_OP_RESET_IDLE:
		for (q = 0; q < cfg->queues; q++)
			if (!nic->q[q].npkts)
				bqlm_nic_reset_queue(nic, cfg, q);
		break;
	case BQLM_NIC_OP_COMPLETE:
		for (q = 0; q < cfg->queues; q++) {
			done = nic->q[q].txq.dql.num_completed;
			bqlm_nic_complete_all(nic, cfg, q, ev);
			if (ev->dql_err ||
			    done != nic->q[q].txq.dql.num_completed) {
				*evq = q;
				break;
			}
		}
		break;
	case BQLM_NIC_OP_DMA_ON:
		nic->dma_on = 1;
		break;
	case BQLM_NIC_OP_NAPI_ON:
		/*
		 * virtio: a device coming up enables the RX NAPI first, and
		 * its poll runs the tx cleanup at once (virtnet_open());
		 * a ring reconfiguration enables the TX NAPI alone
		 */
		for (q = 0; q < cfg->queues &&
		     cfg->notify == BQLM_NIC_NOTIFY_VQ_CB && cfg->rx_cleanup &&
		     !nic->up; q++)
			bqlm_nic_cleantx(nic, cfg, q, ev);
		nic->napi_on = 1;
		for (q = 0; q < cfg->queues && napi; q++) {
			nic->q[q].sched = 1;
			/* virtqueue_napi_schedule(): callbacks disabled */
			if (cfg->notify == BQLM_NIC_NOTIFY_VQ_CB)
				nic->q[q].cb_off = 1;
		}
		break;
	case BQLM_NIC_OP_WAKE0:
		bqlm_nic_path_wake(nic, 0, ev);
		break;
	case BQLM_NIC_OP_IRQ_OFF:
		nic->irq_off = 1;
		break;
	case BQLM_NIC_OP_IRQ_ON:
		nic->irq_off = 0;
		break;
	default:
		/* the queues run again: what BQL still counts is lost */
		for (q = 0; q < cfg->queues; q++)
			bqlm_nic_path_wake(nic, q, ev);
		break;
	}
}

/* The path is done. */
static void bqlm_nic_path_end(struct bqlm_nic *nic,
			      const struct bqlm_nic_cfg *cfg)
{
	unsigned int q;

	if (nic->path - 1 == BQLM_NIC_PATH_OPEN ||
	    nic->path - 1 == BQLM_NIC_PATH_RESUME)
		nic->up = 1;
	/*
	 * virtio: the freeze deletes the NAPIs with the queues
	 * (virtnet_free_queues()), the restore adds new ones: a missed
	 * notification is forgotten
	 */
	for (q = 0; q < cfg->queues && cfg->notify == BQLM_NIC_NOTIFY_VQ_CB &&
	     nic->path - 1 == BQLM_NIC_PATH_SUSPEND; q++)
		nic->q[q].missed = 0;
	nic->path = 0;
	nic->op = 0;
}

/* Start path @start: the request. */
static void bqlm_nic_path_start(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg,
				unsigned int start)
{
	nic->path = start + 1;
	nic->op = 0;
	switch (start) {
	case BQLM_NIC_PATH_CLOSE:
		nic->left[0]--;
		nic->up = 0;
		nic->closed = 1;
		break;
	case BQLM_NIC_PATH_OPEN:
		nic->closed = 0;
		break;
	case BQLM_NIC_PATH_RECONFIG:
		nic->left[1]--;
		break;
	case BQLM_NIC_PATH_TIMEOUT:
		nic->left[2]--;
		/* the handler looks for the hung queue its own way */
		if (!bqlm_nic_any_stopped(nic, cfg, cfg->timeout_test)) {
			bqlm_nic_path_end(nic, cfg);
			return;
		}
		break;
	case BQLM_NIC_PATH_SUSPEND:
		nic->left[3]--;
		nic->up = 0;
		nic->suspended = 1;
		break;
	default:
		nic->suspended = 0;
	}
	if (!cfg->nr_ops[start])
		bqlm_nic_path_end(nic, cfg);
}

/* bqlm_nic_reset_path()'s step, on a configuration already checked. */
int __bqlm_nic_reset_path(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg,
			  unsigned int start, struct bqlm_inv_step *ev,
			  unsigned int *evq)
{
	if (start > BQLM_NIC_NR_PATHS)
		return -EINVAL;
	if (start < BQLM_NIC_NR_PATHS) {
		if (!bqlm_nic_can_start(nic, cfg, start))
			return -EINVAL;
		bqlm_nic_path_start(nic, cfg, start);
		return 0;
	}
	if (!nic->path)
		return -EINVAL;
	if (!bqlm_nic_can_op(nic, cfg))
		return -EAGAIN;
	bqlm_nic_op(nic, cfg, ev, evq);
	if (++nic->op == cfg->nr_ops[nic->path - 1])
		bqlm_nic_path_end(nic, cfg);
	return 0;
}

/**
 * bqlm_nic_reset_path() - start a reset path, or run its next call
 * @nic: the state
 * @cfg: the configuration
 * @start: an enum bqlm_nic_path to start, or BQLM_NIC_NR_PATHS for the
 *	next call of the path in progress
 * @ev: receives what the step did
 *
 * Starting a path is the request (ifdown, ifup, ethtool, the watchdog, the
 * PM core); a close or suspend first takes the device down for the stack
 * (dev_close() deactivates the qdisc, the PM core detaches); a tx timeout
 * handler that finds no hung queue by cfg->timeout_test returns at once.
 * Then each call of cfg->ops[path] is one step; netif_tx_disable() waits
 * for the tx locks, napi_disable() for a running poll, disable_irq() for
 * a running handler. An open or resume brings the device up when its last
 * call ran.
 *
 * Return: 0, -EAGAIN (the call waits), -EINVAL (nothing to do, @start
 * out of range, or @cfg invalid).
 */
int bqlm_nic_reset_path(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int start, struct bqlm_inv_step *ev)
{
	unsigned int evq = 0;

	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_nic_reset_path(nic, cfg, start, ev, &evq);
}
