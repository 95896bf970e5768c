// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the transmit side of a NAPI Ethernet or virtual NIC driver
 * (see <bqlm/nic.h>), on the queue layer of model/netdevice.c.
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
 *    smp_mb + wake), as model/netdevice.c splits them; a NAPI poll is in
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
 *    netdev_tx_sent_queue() runs model/netdevice.c's over-limit, STACK_XOFF
 *    and re-check steps whatever xmit_more is; __netdev_tx_sent_queue()
 *    skips them while xmit_more is set.
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
 * resets BQL before it restarts anything. One close/open cycle.
 */
void bqlm_nic_cfg_default(struct bqlm_nic_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->queues = 1;
	cfg->map = BQLM_NIC_MAP_RR;
	cfg->packets = 3;
	cfg->len = 1000;
	cfg->descs = 1;
	cfg->ring = 2;
	cfg->batch = 2;
	cfg->budget = 2;
	cfg->sent = BQLM_NIC_SENT_BEFORE_DOORBELL;
	cfg->sent_call = BQLM_NIC_CALL_PLAIN;
	cfg->doorbell = BQLM_NIC_KICK_XMIT_STOPPED;
	cfg->stopcheck = BQLM_NIC_STOP_AFTER_SENT;
	cfg->completers = BQLM_NIC_COMPLETE_NAPI;
	cfg->bytes = BQLM_NIC_BYTES_SKB_LEN;
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_CLOSE, BQLM_NIC_DOWN_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_OPEN, BQLM_NIC_UP_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_RECONFIG, BQLM_NIC_REINIT_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_TIMEOUT, BQLM_NIC_REINIT_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_SUSPEND, BQLM_NIC_DOWN_OPS);
	bqlm_nic_set_ops(cfg, BQLM_NIC_PATH_RESUME, BQLM_NIC_UP_OPS);
	cfg->stops = 1;
	cfg->hold_time = 1000;
	cfg->now = 1000;
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
	return 0;
}

static void bqlm_nic_remove(struct bqlm_nic_queue *nq, unsigned int i)
{
	memmove(&nq->pkt[i], &nq->pkt[i + 1],
		(nq->npkts - i - 1) * sizeof(nq->pkt[0]));
	nq->npkts--;
	memset(&nq->pkt[nq->npkts], 0, sizeof(nq->pkt[0]));
}

/*
 * Clean what the device has completed, from the head of the ring, up to
 * @budget packets: the bytes to report, in cfg->bytes' way, the packets
 * freed, the bytes of those reported sent in this epoch (@held), and in
 * @ev the stale and never-reported ones.
 */
static unsigned int bqlm_nic_clean(struct bqlm_nic_queue *nq,
				   const struct bqlm_nic_cfg *cfg,
				   unsigned int budget, unsigned int *pkts,
				   unsigned int *held, struct bqlm_inv_step *ev)
{
	unsigned int bytes = 0, bd = 0;

	*pkts = 0;
	*held = 0;
	while (nq->npkts && *pkts < budget) {
		struct bqlm_nic_pkt *p = &nq->pkt[0];
		bool counted = !(p->flags & BQLM_NIC_PKT_XDP) ||
			       cfg->xdp != BQLM_NIC_XDP_UNCOUNTED;
		unsigned int per = p->len / p->ndesc;

		if (cfg->bytes == BQLM_NIC_BYTES_BD_SUM) {
			/* every completed descriptor, whole packet or not */
			while (p->cleaned < p->done) {
				p->cleaned++;
				if (counted)
					bd += p->cleaned == p->ndesc ?
					      p->len - per * (p->ndesc - 1) :
					      per;
			}
		} else if (p->done == p->ndesc) {
			p->cleaned = p->ndesc;
		}
		if (p->cleaned < p->ndesc)
			break;
		if ((p->flags & (BQLM_NIC_PKT_SENT | BQLM_NIC_PKT_STALE)) ==
		    BQLM_NIC_PKT_SENT)
			*held += p->len;
		if (counted) {
			bytes += p->len;
			if (p->flags & BQLM_NIC_PKT_STALE)
				ev->stale_bytes += p->len;
			else if (!(p->flags & BQLM_NIC_PKT_SENT))
				ev->unsent_skbs++;
		}
		(*pkts)++;
		bqlm_nic_remove(nq, 0);
	}
	if (cfg->bytes == BQLM_NIC_BYTES_BD_SUM)
		return *pkts ? bd : 0;
	return bytes;
}

/* The DRV_XOFF half of the ring: stop when full, re-check (one step). */
static void bqlm_nic_maybe_stop(struct bqlm_nic *nic,
				const struct bqlm_nic_cfg *cfg, unsigned int q)
{
	struct bqlm_nic_queue *nq = &nic->q[q];

	if (bqlm_nic_room(nq, cfg))
		return;
	bqlm_netif_tx_stop_queue(&nq->txq, cfg->now);
	/* virtio: virtqueue_enable_cb_delayed(), the completion wakes it */
	if (cfg->irq == BQLM_NIC_IRQ_VQ_CB)
		nq->irq_off = 0;
	/* smp_mb(); the poll may have made room meanwhile */
	if (bqlm_nic_room(nq, cfg))
		bqlm_netif_tx_start_queue(&nq->txq);
}

static void bqlm_nic_ring_doorbell(struct bqlm_nic_queue *nq)
{
	unsigned int i;

	for (i = 0; i < nq->npkts; i++)
		nq->pkt[i].flags |= BQLM_NIC_PKT_KICKED;
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

/* The end of ndo_start_xmit(): the batch bookkeeping, unlock. */
static void bqlm_nic_xmit_end(struct bqlm_nic *nic,
			      const struct bqlm_nic_cfg *cfg)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];

	nic->sent++;
	/* dev_hard_start_xmit() ends the batch on a stopped queue */
	if (nic->xmit_more && !bqlm_netif_xmit_stopped(&nq->txq)) {
		nic->batch_pos++;
	} else {
		nic->batch_pos = 0;
		nic->batch_no++;
	}
	nic->xmit = BQLM_NIC_XMIT_IDLE;
	nic->xmit_more = 0;
	nic->kick = 0;
	nq->lock = BQLM_NIC_LOCK_FREE;
	(void)cfg;
}

/*
 * After the sent call: the ring-full stop (e1000e's place), the doorbell,
 * the stop in mtk_eth_soc's place.
 */
static void bqlm_nic_xmit_tail(struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	bool kick;

	if (cfg->stopcheck == BQLM_NIC_STOP_AFTER_SENT)
		bqlm_nic_maybe_stop(nic, cfg, nic->xmit_q);
	switch (cfg->doorbell) {
	case BQLM_NIC_KICK_SENT_QUEUE:
		kick = nic->kick;
		break;
	case BQLM_NIC_KICK_XMIT_STOPPED:
		kick = !nic->xmit_more || bqlm_netif_xmit_stopped(&nq->txq);
		break;
	case BQLM_NIC_KICK_XMIT_MORE:
		kick = !nic->xmit_more;
		break;
	default:
		kick = true;
	}
	if (kick)
		bqlm_nic_ring_doorbell(nq);
	if (cfg->stopcheck == BQLM_NIC_STOP_AFTER_DOORBELL)
		bqlm_nic_maybe_stop(nic, cfg, nic->xmit_q);
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
	ret = bqlm_txq_sent_step_queue(&nq->txq, cfg->len, cfg->now, &over);
	bqlm_nic_dql_ev(ev, ret, &nq->txq.dql, cfg->len);
	if (!ret && p)
		p->flags |= BQLM_NIC_PKT_SENT;
	if (nic->xmit_more && cfg->sent_call == BQLM_NIC_CALL_XMIT_MORE) {
		nic->kick = bqlm_netif_tx_queue_stopped(&nq->txq);
		return;
	}
	nic->kick = 1;
	if (over)
		nic->xmit = BQLM_NIC_XMIT_XOFF;
}

/* netdev_tx_completed_queue() in one step, for ndo_start_xmit()'s cleanup. */
static void bqlm_nic_xmit_cleanup(struct bqlm_nic *nic,
				  const struct bqlm_nic_cfg *cfg,
				  struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq = &nic->q[nic->xmit_q];
	unsigned int pkts, bytes, held;
	int ret;

	bytes = bqlm_nic_clean(nq, cfg, BQLM_NIC_MAX_RING, &pkts, &held, ev);
	if (!bytes)
		return;
	ret = bqlm_txq_completed_step_dql(&nq->txq, bytes, cfg->now);
	bqlm_nic_dql_ev(ev, ret, &nq->txq.dql, bytes);
	if (!ret)
		bqlm_txq_completed_step_wake(&nq->txq);
}

/* bqlm_ndo_start_xmit()'s step, on a configuration already checked. */
int __bqlm_ndo_start_xmit(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg,
			  struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq;
	struct bqlm_nic_pkt *p;

	if (nic->xmit == BQLM_NIC_XMIT_IDLE && nic->sent >= cfg->packets)
		return -EINVAL;
	if (!bqlm_nic_can_xmit(nic, cfg))
		return -EAGAIN;
	switch (nic->xmit) {
	case BQLM_NIC_XMIT_XOFF:
		bqlm_txq_sent_step_xoff(&nic->q[nic->xmit_q].txq, cfg->now);
		nic->xmit = BQLM_NIC_XMIT_RECHECK;
		return 0;
	case BQLM_NIC_XMIT_RECHECK:
		bqlm_txq_sent_step_recheck(&nic->q[nic->xmit_q].txq);
		if (cfg->sent == BQLM_NIC_SENT_BEFORE_DOORBELL)
			bqlm_nic_xmit_tail(nic, cfg);
		bqlm_nic_xmit_end(nic, cfg);
		return 0;
	case BQLM_NIC_XMIT_SENT:
		nic->xmit = BQLM_NIC_XMIT_IDLE;
		bqlm_nic_sent_queue(nic, cfg, ev);
		if (nic->xmit == BQLM_NIC_XMIT_IDLE)
			bqlm_nic_xmit_end(nic, cfg);
		return 0;
	default:
		break;
	}
	nic->xmit_q = bqlm_nic_next_queue(nic, cfg);
	nic->xmit_more = bqlm_nic_next_more(nic, cfg);
	nq = &nic->q[nic->xmit_q];
	nq->lock = BQLM_NIC_LOCK_XMIT;
	/* virtio: virtqueue_disable_cb() around free_old_xmit() */
	if (cfg->irq == BQLM_NIC_IRQ_VQ_CB)
		nq->irq_off = 1;
	if (cfg->completers == BQLM_NIC_COMPLETE_NAPI_XMIT)
		bqlm_nic_xmit_cleanup(nic, cfg, ev);
	/* and virtqueue_enable_cb_delayed() unless xmit_more is set */
	if (cfg->irq == BQLM_NIC_IRQ_VQ_CB && !nic->xmit_more)
		nq->irq_off = 0;
	p = &nq->pkt[nq->npkts++];
	p->len = cfg->len;
	p->ndesc = cfg->descs;
	if (cfg->stopcheck == BQLM_NIC_STOP_BEFORE_SENT)
		bqlm_nic_maybe_stop(nic, cfg, nic->xmit_q);
	if (cfg->sent == BQLM_NIC_SENT_AFTER_DOORBELL) {
		/* the doorbell first: !xmit_more || netif_xmit_stopped() */
		nic->kick = 1;
		bqlm_nic_xmit_tail(nic, cfg);
		nic->xmit = BQLM_NIC_XMIT_SENT;
		return 0;
	}
	bqlm_nic_sent_queue(nic, cfg, ev);
	if (nic->xmit == BQLM_NIC_XMIT_IDLE) {
		bqlm_nic_xmit_tail(nic, cfg);
		bqlm_nic_xmit_end(nic, cfg);
	}
	return 0;
}

/**
 * bqlm_ndo_start_xmit() - the stack's transmit, one step
 * @nic: the state
 * @cfg: the configuration
 * @ev: receives what the step did
 *
 * First step: HARD_TX_LOCK; with BQLM_NIC_COMPLETE_NAPI_XMIT the ring is
 * cleaned and completed first; the packet's descriptors are written, the
 * ring-full stop runs where cfg->stopcheck puts it, and with the sent call
 * before the doorbell, dql_queued(); unless that put the queue over its
 * limit, the doorbell decision and the end follow in the same step. Over
 * the limit: set STACK_XOFF, then smp_mb() and the re-check, then the
 * tail, as model/netdevice.c's steps of netdev_tx_sent_queue(); with
 * BQLM_NIC_CALL_XMIT_MORE (__netdev_tx_sent_queue()) and xmit_more set,
 * the over-limit test is not acted on. With the sent call after the
 * doorbell, the doorbell is rung in the first step and the sent call
 * follows.
 *
 * Return: 0, -EAGAIN when the stack cannot send now, -EINVAL when every
 * packet was sent or @cfg is invalid.
 */
int bqlm_ndo_start_xmit(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			struct bqlm_inv_step *ev)
{
	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_ndo_start_xmit(nic, cfg, ev);
}

/*
 * A used-buffer notification of the queue's virtqueue, if the driver has
 * callbacks enabled: skb_xmit_done() disables them and schedules the NAPI
 * (napi_schedule_prep(): NAPIF_STATE_MISSED if it is already scheduled,
 * running, or disabled).
 */
static void bqlm_nic_vq_interrupt(struct bqlm_nic *nic,
				  struct bqlm_nic_queue *nq)
{
	if (nq->irq_off)
		return;
	nq->irq_off = 1;
	if (!nic->napi_on || nq->sched || nq->napi != BQLM_NIC_NAPI_IDLE)
		nq->missed = 1;
	else
		nq->sched = 1;
}

/* bqlm_nic_dma_complete()'s step, on a configuration already checked. */
int __bqlm_nic_dma_complete(struct bqlm_nic *nic,
			    const struct bqlm_nic_cfg *cfg,
			    unsigned int q)
{
	int i;

	if (q >= cfg->queues || !nic->dma_on)
		return -EINVAL;
	i = bqlm_nic_dma_next(&nic->q[q]);
	if (i < 0)
		return -EINVAL;
	nic->q[q].pkt[i].done++;
	if (cfg->irq == BQLM_NIC_IRQ_VQ_CB) {
		bqlm_nic_vq_interrupt(nic, &nic->q[q]);
		return 0;
	}
	if (nic->napi_on)
		nic->q[q].sched = 1;
	return 0;
}

/**
 * bqlm_nic_dma_complete() - the device completes one descriptor
 * @nic: the state
 * @cfg: the configuration
 * @q: the queue
 *
 * The next descriptor in ring order, if a doorbell covered it and the DMA
 * runs. The interrupt then schedules the queue's NAPI, if enabled.
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

/* The end of a poll: wake on room, napi_complete_done(), unlock. */
static void bqlm_nic_poll_tail(struct bqlm_nic *nic,
			       const struct bqlm_nic_cfg *cfg, unsigned int q)
{
	struct bqlm_nic_queue *nq = &nic->q[q];

	/* not on a device going down: the driver's own flag (__E1000_DOWN,
	 * virtio's sq->reset) keeps a reset path's stop in force
	 */
	if (bqlm_netif_tx_queue_stopped(&nq->txq) && bqlm_nic_room(nq, cfg) &&
	    (cfg->poll_wake == BQLM_NIC_WAKE_ROOM || (nic->up && !nic->path)))
		bqlm_netif_tx_wake_queue(&nq->txq);
	/* the re-armed interrupt fires at once for what is left */
	if (nq->napi_pkts < cfg->budget)
		nq->sched = bqlm_nic_cleanable(nq, cfg);
	if (cfg->irq == BQLM_NIC_IRQ_VQ_CB) {
		/*
		 * virtqueue_enable_cb_prepare(); napi_complete_done()
		 * schedules the poll again for NAPIF_STATE_MISSED, and
		 * callbacks are disabled again whenever it is scheduled
		 */
		nq->irq_off = 0;
		if (nq->missed)
			nq->sched = 1;
		nq->missed = 0;
		if (nq->sched)
			nq->irq_off = 1;
	}
	nq->napi = BQLM_NIC_NAPI_IDLE;
	nq->napi_pkts = 0;
	nq->napi_bytes = 0;
	if (nq->lock == BQLM_NIC_LOCK_NAPI)
		nq->lock = BQLM_NIC_LOCK_FREE;
}

/* bqlm_napi_poll()'s step, on a configuration already checked. */
int __bqlm_napi_poll(struct bqlm_nic *nic,
		     const struct bqlm_nic_cfg *cfg, unsigned int q,
		     struct bqlm_inv_step *ev)
{
	struct bqlm_nic_queue *nq;
	unsigned int pkts, bytes, held;
	int ret;

	if (q >= cfg->queues)
		return -EINVAL;
	nq = &nic->q[q];
	if (nq->napi == BQLM_NIC_NAPI_IDLE && (!nic->napi_on || !nq->sched))
		return -EINVAL;
	if (!bqlm_nic_can_poll(nic, cfg, q))
		return -EAGAIN;
	switch (nq->napi) {
	case BQLM_NIC_NAPI_DQL:
		ret = bqlm_txq_completed_step_dql(&nq->txq, nq->napi_bytes,
						  cfg->now);
		bqlm_nic_dql_ev(ev, ret, &nq->txq.dql, nq->napi_bytes);
		nq->napi_held = 0;
		nq->napi = BQLM_NIC_NAPI_WAKE;
		return 0;
	case BQLM_NIC_NAPI_WAKE:
		/* (after a refused dql_completed() nothing runs: fatal) */
		bqlm_txq_completed_step_wake(&nq->txq);
		bqlm_nic_poll_tail(nic, cfg, q);
		return 0;
	default:
		break;
	}
	if (cfg->napi_txlock)
		nq->lock = BQLM_NIC_LOCK_NAPI;
	if (cfg->irq == BQLM_NIC_IRQ_VQ_CB)
		nq->irq_off = 1;
	bytes = bqlm_nic_clean(nq, cfg, cfg->budget, &pkts, &held, ev);
	nq->napi_pkts = pkts;
	nq->napi_bytes = bytes;
	if (bytes) {
		nq->napi_held = held;
		nq->napi = BQLM_NIC_NAPI_DQL;
	} else {
		bqlm_nic_poll_tail(nic, cfg, q);
	}
	return 0;
}

/**
 * bqlm_napi_poll() - the queue's NAPI poll, one step
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
 * napi_complete_done() unless the budget was used up.
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
			const struct bqlm_nic_cfg *cfg)
{
	struct bqlm_nic_queue *nq = &nic->q[cfg->queues - 1];
	struct bqlm_nic_pkt *p;

	if (!bqlm_nic_can_xdp(nic, cfg))
		return -EINVAL;
	p = &nq->pkt[nq->npkts++];
	p->len = cfg->len;
	p->ndesc = 1;
	p->flags = BQLM_NIC_PKT_XDP;
	if (cfg->xdp == BQLM_NIC_XDP_COUNTED &&
	    !bqlm_netdev_tx_sent_queue(&nq->txq, p->len, cfg->now))
		p->flags |= BQLM_NIC_PKT_SENT;
	bqlm_nic_ring_doorbell(nq);
	nic->xdp_sent++;
	return 0;
}

/**
 * bqlm_ndo_xdp_xmit() - an XDP_TX frame on the last (shared) queue
 * @nic: the state
 * @cfg: the configuration
 *
 * Under the queue's tx lock, as drivers sharing a stack queue take it: the
 * frame goes on the ring, reported to netdev_tx_sent_queue() (whole, in
 * this step) only with BQLM_NIC_XDP_COUNTED, and the doorbell is rung.
 *
 * Return: 0, or -EINVAL when no frame may be sent now or @cfg is invalid.
 */
int bqlm_ndo_xdp_xmit(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg)
{
	if (!nic || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_ndo_xdp_xmit(nic, cfg);
}

/*
 * The RX poll's tx cleanup once it has the tx lock: clean, complete, wake
 * on room (virtio: callbacks enabled again at its end).
 */
static void bqlm_nic_cleantx(struct bqlm_nic_queue *nq,
			     const struct bqlm_nic_cfg *cfg,
			     struct bqlm_inv_step *ev)
{
	unsigned int pkts, bytes, held;
	int ret;

	bytes = bqlm_nic_clean(nq, cfg, BQLM_NIC_MAX_RING, &pkts, &held, ev);
	if (bytes) {
		ret = bqlm_txq_completed_step_dql(&nq->txq, bytes, cfg->now);
		bqlm_nic_dql_ev(ev, ret, &nq->txq.dql, bytes);
		if (!ret)
			bqlm_txq_completed_step_wake(&nq->txq);
	}
	if (bqlm_netif_tx_queue_stopped(&nq->txq) && bqlm_nic_room(nq, cfg))
		bqlm_netif_tx_wake_queue(&nq->txq);
	if (cfg->irq == BQLM_NIC_IRQ_VQ_CB)
		nq->irq_off = 0;
}

/* bqlm_napi_poll_cleantx()'s step, on a configuration already checked. */
int __bqlm_napi_poll_cleantx(struct bqlm_nic *nic,
			     const struct bqlm_nic_cfg *cfg,
			     unsigned int q, struct bqlm_inv_step *ev)
{

	if (!bqlm_nic_can_cleantx(nic, cfg, q))
		return -EINVAL;
	bqlm_nic_cleantx(&nic->q[q], cfg, ev);
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
 * meanwhile), wake the queue on room, unlock. A busy lock makes the RX
 * poll skip the cleanup, which the model shows as the step not being
 * enabled.
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
}

static void bqlm_nic_drain(struct bqlm_nic *nic,
			   const struct bqlm_nic_cfg *cfg)
{
	unsigned int q, i;

	for (q = 0; q < cfg->queues; q++) {
		struct bqlm_nic_queue *nq = &nic->q[q];

		for (i = 0; i < nq->npkts; i++) {
			if ((nq->pkt[i].flags & (BQLM_NIC_PKT_SENT |
						 BQLM_NIC_PKT_STALE)) !=
			    BQLM_NIC_PKT_SENT)
				continue;
			nq->orphan_bytes += nq->pkt[i].len;
			nq->orphans++;
		}
		nq->npkts = 0;
		memset(nq->pkt, 0, sizeof(nq->pkt));
	}
}

/* Run the path's next call. */
static void bqlm_nic_op(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			struct bqlm_inv_step *ev)
{
	unsigned int q;

	switch (cfg->ops[nic->path - 1][nic->op]) {
	case BQLM_NIC_OP_STOP:
		for (q = 0; q < cfg->queues; q++)
			bqlm_netif_tx_stop_queue(&nic->q[q].txq, cfg->now);
		break;
	case BQLM_NIC_OP_NAPI_OFF:
		nic->napi_on = 0;
		for (q = 0; q < cfg->queues; q++)
			nic->q[q].sched = 0;
		break;
	case BQLM_NIC_OP_DMA_OFF:
		nic->dma_on = 0;
		/* virtio: a virtqueue in reset has its reset state */
		for (q = 0; q < cfg->queues && cfg->irq == BQLM_NIC_IRQ_VQ_CB;
		     q++)
			nic->q[q].irq_off = 0;
		break;
	case BQLM_NIC_OP_DRAIN:
		bqlm_nic_drain(nic, cfg);
		break;
	case BQLM_NIC_OP_RESET:
		for (q = 0; q < cfg->queues; q++)
			bqlm_nic_reset_queue(nic, cfg, q);
		break;
	case BQLM_NIC_OP_RESET0:
		bqlm_nic_reset_queue(nic, cfg, 0);
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
		for (q = 0; q < cfg->queues && cfg->irq == BQLM_NIC_IRQ_VQ_CB &&
		     cfg->rx_cleanup && !nic->up; q++)
			bqlm_nic_cleantx(&nic->q[q], cfg, ev);
		nic->napi_on = 1;
		for (q = 0; q < cfg->queues; q++) {
			nic->q[q].sched = 1;
			/* virtqueue_napi_schedule(): callbacks disabled */
			if (cfg->irq == BQLM_NIC_IRQ_VQ_CB)
				nic->q[q].irq_off = 1;
		}
		break;
	default:
		/* the queues run again: what BQL still counts is lost */
		for (q = 0; q < cfg->queues; q++) {
			bqlm_netif_tx_wake_queue(&nic->q[q].txq);
			ev->lost += nic->q[q].orphans;
		}
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
	for (q = 0; q < cfg->queues && cfg->irq == BQLM_NIC_IRQ_VQ_CB &&
	     nic->path - 1 == BQLM_NIC_PATH_SUSPEND; q++)
		nic->q[q].missed = 0;
	nic->path = 0;
	nic->op = 0;
}

/* bqlm_nic_reset_path()'s step, on a configuration already checked. */
int __bqlm_nic_reset_path(struct bqlm_nic *nic,
			  const struct bqlm_nic_cfg *cfg,
			  unsigned int start, struct bqlm_inv_step *ev)
{
	if (start > BQLM_NIC_NR_PATHS)
		return -EINVAL;
	if (start < BQLM_NIC_NR_PATHS) {
		if (!bqlm_nic_can_start(nic, cfg, start))
			return -EINVAL;
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
		return 0;
	}
	if (!nic->path)
		return -EINVAL;
	if (!bqlm_nic_can_op(nic, cfg))
		return -EAGAIN;
	bqlm_nic_op(nic, cfg, ev);
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
 * (dev_close() deactivates the qdisc, the PM core detaches). Then each
 * call of cfg->ops[path] is one step; netif_tx_disable() waits for the tx
 * locks, napi_disable() for a running poll. An open or resume brings the
 * device up when its last call ran.
 *
 * Return: 0, -EAGAIN (the call waits), -EINVAL (nothing to do, @start
 * out of range, or @cfg invalid).
 */
int bqlm_nic_reset_path(struct bqlm_nic *nic, const struct bqlm_nic_cfg *cfg,
			unsigned int start, struct bqlm_inv_step *ev)
{
	if (!nic || !ev || bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return __bqlm_nic_reset_path(nic, cfg, start, ev);
}
