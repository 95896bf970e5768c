// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the NAPI NIC model (model/nic/nic.c) as a system for the
 * explorer of <bqlm/explore.h>: the invariants checked on every queue, the
 * actions (the stack, the device, the NAPI polls, XDP, the reset paths)
 * and their encoding, the step, the quiescent-state check, and the
 * descriptions of actions and states for traces.
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/nic.h>
#include "nic_internal.h"

#define BQLM_NIC_STACK_XOFF	(1UL << BQLM_QUEUE_STATE_STACK_XOFF)

/**
 * bqlm_nic_inflight() - ground truth: bytes BQL must count as in flight
 * @nic: the state
 * @q: the queue
 *
 * Return: bytes of the packets reported sent since the last reset that are
 * on the ring or in a running poll's hands, plus those freed since without
 * a completion; 0 for a queue out of range.
 */
unsigned int bqlm_nic_inflight(const struct bqlm_nic *nic, unsigned int q)
{
	const struct bqlm_nic_queue *nq;
	unsigned int i, b;

	if (q >= BQLM_NIC_MAX_QUEUES)
		return 0;
	nq = &nic->q[q];
	b = nq->orphan_bytes + nq->napi_held;

	for (i = 0; i < nq->npkts; i++)
		if ((nq->pkt[i].flags & (BQLM_NIC_PKT_SENT |
					 BQLM_NIC_PKT_STALE)) ==
		    BQLM_NIC_PKT_SENT)
			b += nic->len;
	return b;
}

/*
 * The invariants on every queue: the step's events count on @evq's check
 * (the queue it acted on), @completing adds a dql_completed() of this
 * step to the ones in progress there.
 */
static unsigned int bqlm_nic_check(const struct bqlm_nic *nic,
				   const struct bqlm_nic_cfg *cfg,
				   const char *where,
				   const struct bqlm_inv_step *ev,
				   unsigned int evq, bool completing,
				   bool quiescent,
				   struct bqlm_violation *each)
{
	struct bqlm_violation tmp[BQLM_CHECK_NR];
	unsigned int completions[BQLM_NIC_MAX_QUEUES] = { 0 };
	unsigned int q, c, mask = 0, m;

	/* a poll in dql_completed() counts on the queue it reports to */
	for (q = 0; q < cfg->queues; q++)
		if (nic->q[q].napi == BQLM_NIC_NAPI_DQL)
			completions[bqlm_nic_bql_q(cfg, q)]++;
	for (q = 0; q < cfg->queues; q++) {
		const struct bqlm_nic_queue *nq = &nic->q[q];
		struct bqlm_inv_counters k;

		memset(&k, 0, sizeof(k));
		k.where = where;
		k.bql = !quiescent;
		k.dql = &nq->txq.dql;
		k.inflight = bqlm_nic_inflight(nic, q);
		k.completions = completions[q];
		if (q == evq) {
			k.completions += completing;
			if (ev)
				k.step = *ev;
		}
		k.quiescent = quiescent;
		k.wants_tx = nic->up;
		/* stopped, or, with nothing more to send, descriptors that
		 * no doorbell will ever announce
		 */
		k.stopped = bqlm_netif_xmit_stopped(&nq->txq);
		if (!k.stopped && quiescent && nic->sent >= cfg->packets &&
		    bqlm_nic_unkicked(nq)) {
			k.stopped = true;
			k.where = "quiescent state: descriptors no doorbell announced";
		}
		m = bqlm_inv_check(&k, NULL, each ? tmp : NULL);
		for (c = 0; each && c < BQLM_CHECK_NR; c++)
			if ((m & ~mask) & BQLM_CHECK_BIT(c))
				each[c] = tmp[c];
		mask |= m;
	}
	return mask;
}

/**
 * bqlm_nic_check_step() - the invariants after a step, on every queue
 * @nic: the state after the step (the model's, or a real driver's view)
 * @cfg: the configuration
 * @where: the step, for the violations' text
 * @ev: what the step did (counted on queue @q), or NULL
 * @q: the queue the step acted on
 * @completing: the step ran a dql_completed() on queue @q
 * @each: NULL, or receives each violation by check
 *
 * The step's checks the explorer runs after each model step; the real-code
 * harness runs them on the real state read in the model's terms.
 *
 * Return: the mask of violated checks (BQLM_CHECK_BIT()).
 */
unsigned int bqlm_nic_check_step(const struct bqlm_nic *nic,
				 const struct bqlm_nic_cfg *cfg,
				 const char *where,
				 const struct bqlm_inv_step *ev,
				 unsigned int q, bool completing,
				 struct bqlm_violation *each)
{
	return bqlm_nic_check(nic, cfg, where, ev, q, completing, false, each);
}

/*
 * Run one action: the step function of its actor; @r->queue is the queue
 * whose check counts the step's events, @r->completing a dql_completed()
 * the step ran there.
 */
static int bqlm_nic_run(const void *ctx, void *state, unsigned int action,
			struct bqlm_xrun *r)
{
	const struct bqlm_nic_cfg *cfg = ctx;
	struct bqlm_nic *nic = state;
	unsigned int arg = BQLM_X_ARG(action), done[BQLM_NIC_MAX_QUEUES], q;
	unsigned int evq = 0;
	bool completes = true;
	int ret;

	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++)
		done[q] = nic->q[q].txq.dql.num_completed;
	switch (BQLM_X_KIND(action)) {
	case BQLM_NIC_A_XMIT:
		r->where = "ndo_start_xmit";
		r->queue = nic->xmit == BQLM_NIC_XMIT_IDLE ?
			   bqlm_nic_next_queue(nic, cfg) : nic->xmit_q;
		if (arg > BQLM_NIC_XMIT_DROPPED)
			return -EINVAL;
		ret = __bqlm_ndo_start_xmit(nic, cfg,
					    arg == BQLM_NIC_XMIT_DROPPED, &r->ev);
		break;
	case BQLM_NIC_A_DMA:
		r->where = "device DMA completion";
		r->queue = arg;
		return __bqlm_nic_dma_complete(nic, cfg, arg);
	case BQLM_NIC_A_NAPI:
		r->where = cfg->completion == BQLM_NIC_COMPLETION_IRQ ?
			   "tx irq handler" : "napi_poll";
		r->queue = arg;
		return __bqlm_napi_poll(nic, cfg, arg, &r->ev);
	case BQLM_NIC_A_XDP:
		r->where = "XDP_TX";
		r->queue = cfg->queues - 1;
		ret = __bqlm_ndo_xdp_xmit(nic, cfg, &r->ev);
		break;
	case BQLM_NIC_A_CLEANTX:
		r->where = "virtnet_poll_cleantx";
		r->queue = arg < cfg->queues ? bqlm_nic_bql_q(cfg, arg) : 0;
		ret = __bqlm_napi_poll_cleantx(nic, cfg, arg, &r->ev);
		break;
	case BQLM_NIC_A_PATH:
		r->where = bqlm_nic_path_name(arg < BQLM_NIC_NR_PATHS ? arg :
					      nic->path - 1);
		/* of the calls, only the reclaim completes (a reset zeroes) */
		completes = arg == BQLM_NIC_NR_PATHS && nic->path &&
			    cfg->ops[nic->path - 1][nic->op] ==
			    BQLM_NIC_OP_COMPLETE;
		ret = __bqlm_nic_reset_path(nic, cfg, arg, &r->ev, &evq);
		r->queue = evq;
		break;
	case BQLM_NIC_A_FLUSH:
		r->where = "memory";
		return __bqlm_nic_mm_flush(nic, cfg, arg / BQLM_SB_DEPTH,
					   arg % BQLM_SB_DEPTH);
	case BQLM_NIC_A_HANG:
		r->where = "device hang";
		return bqlm_nic_dma_hang(nic, cfg);
	default:
		r->where = "?";
		return -EINVAL;
	}
	/* a dql_completed() of this step (done, or refused) on r->queue */
	if (!ret && completes)
		r->completing = done[r->queue] !=
				nic->q[r->queue].txq.dql.num_completed ||
				r->ev.dql_err == -ERANGE;
	return ret;
}

static unsigned int bqlm_nic_enabled(const void *ctx, const void *state,
				     unsigned int *a)
{
	const struct bqlm_nic_cfg *cfg = ctx;
	const struct bqlm_nic *nic = state;
	unsigned int n = 0, q, p;

	unsigned int cpu, k;

	if (bqlm_nic_can_xmit(nic, cfg)) {
		a[n++] = BQLM_X_ACTION(BQLM_NIC_A_XMIT, BQLM_NIC_XMIT_OK);
		if (nic->xmit == BQLM_NIC_XMIT_IDLE && nic->drops)
			a[n++] = BQLM_X_ACTION(BQLM_NIC_A_XMIT,
						 BQLM_NIC_XMIT_DROPPED);
	}
	for (q = 0; q < cfg->queues; q++) {
		if (bqlm_nic_can_dma(nic, cfg, q))
			a[n++] = BQLM_X_ACTION(BQLM_NIC_A_DMA, q);
		if (bqlm_nic_can_poll(nic, cfg, q))
			a[n++] = BQLM_X_ACTION(BQLM_NIC_A_NAPI, q);
		if (bqlm_nic_can_cleantx(nic, cfg, q))
			a[n++] = BQLM_X_ACTION(BQLM_NIC_A_CLEANTX, q);
	}
	if (bqlm_nic_can_xdp(nic, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_NIC_A_XDP, 0);
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++)
		if (bqlm_nic_can_start(nic, cfg, p))
			a[n++] = BQLM_X_ACTION(BQLM_NIC_A_PATH, p);
	if (bqlm_nic_can_op(nic, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_NIC_A_PATH, BQLM_NIC_NR_PATHS);
	if (nic->hangs && !nic->hung && nic->dma_on)
		a[n++] = BQLM_X_ACTION(BQLM_NIC_A_HANG, 0);
	for (cpu = 0; cpu < BQLM_NIC_NR_CPUS; cpu++) {
		struct bqlm_sb *sb = bqlm_nic_sb((struct bqlm_nic *)nic, cpu);

		for (k = 0; k < sb->n; k++)
			if (bqlm_mm_can_flush(cfg->mm, sb, k))
				a[n++] = BQLM_X_ACTION(BQLM_NIC_A_FLUSH,
							 cpu * BQLM_SB_DEPTH +
							 k);
	}
	return n;
}

/* The outside world's actions: the stack, XDP traffic, the requests. */
static bool bqlm_nic_external(const void *ctx, const void *state,
			      unsigned int action)
{
	const struct bqlm_nic *nic = state;

	(void)ctx;
	switch (BQLM_X_KIND(action)) {
	case BQLM_NIC_A_XMIT:
		return nic->xmit == BQLM_NIC_XMIT_IDLE;
	case BQLM_NIC_A_XDP:
	case BQLM_NIC_A_HANG:
		return true;
	case BQLM_NIC_A_PATH:
		return BQLM_X_ARG(action) < BQLM_NIC_NR_PATHS;
	default:
		return false;
	}
}

static unsigned int bqlm_nic_xcheck(const void *ctx, const void *state,
				    const struct bqlm_xrun *r,
				    struct bqlm_violation *each)
{
	return bqlm_nic_check(state, ctx, r->where, &r->ev, r->queue,
			      r->completing, false, each);
}

static int bqlm_nic_xstep(const void *ctx, const void *from,
			  unsigned int action, void *to,
			  struct bqlm_violation *each)
{
	struct bqlm_nic *nic = to;
	unsigned int q;
	int mask;

	(void)from;
	mask = bqlm_xstep_checked(ctx, to, action, each, bqlm_nic_run,
				  bqlm_nic_xcheck);
	/* the qdisc reschedule is not state: the stack actor is the qdisc */
	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++)
		bqlm_txq_sched_clear(&nic->q[q].txq);
	return mask;
}

static int bqlm_nic_check_quiescent(const void *ctx, const void *state,
				    struct bqlm_violation *each)
{
	const struct bqlm_nic_cfg *cfg = ctx;

	/* a device that may hang has the tx watchdog to recover it: a
	 * stopped queue it can still act on is its to handle
	 */
	if (cfg->hangs && bqlm_nic_can_start(state, cfg, BQLM_NIC_PATH_TIMEOUT))
		return 0;
	return bqlm_nic_check(state, ctx, "quiescent state", NULL, 0, false,
			      true, each);
}

static const char *const bqlm_nic_bytes_names[BQLM_NIC_NR_BYTES] = {
	"skb->len sum", "descriptor sum (if a packet ended)",
	"stored lengths (0 for some)",
};

static const char *const bqlm_nic_var_kinds[3] = {
	"state", "prod", "cons",
};

static int bqlm_nic_var_name(const void *arg, unsigned int var, char *buf,
			     size_t len)
{
	(void)arg;
	if (var >= BQLM_NIC_NR_VARS)
		return 0;
	return snprintf(buf, len, "q%u.%s", var / 3,
			bqlm_nic_var_kinds[var % 3]);
}

static const char *const bqlm_nic_cpu_names[BQLM_NIC_NR_CPUS] = {
	"stack", "completer q0", "completer q1",
};

static int bqlm_nic_describe_flush(const struct bqlm_nic *nic,
				   const struct bqlm_nic_cfg *cfg,
				   unsigned int arg, char *buf, size_t len)
{
	unsigned int cpu = arg / BQLM_SB_DEPTH;
	char e[48];

	(void)cfg;
	if (cpu >= BQLM_NIC_NR_CPUS)
		return snprintf(buf, len, "? flush %u", arg);
	bqlm_mm_describe_entry_by(bqlm_nic_sb((struct bqlm_nic *)nic, cpu),
				  arg % BQLM_SB_DEPTH, bqlm_nic_var_name, NULL,
				  e, sizeof(e));
	return snprintf(buf, len, "memory: the %s's store reaches memory: %s",
			bqlm_nic_cpu_names[cpu], e);
}

static const char *const bqlm_nic_kick_names[BQLM_NIC_NR_KICK] = {
	"__netdev_tx_sent_queue()", "!xmit_more || netif_xmit_stopped()",
	"!xmit_more", "every packet",
};

/*
 * The stack's next packet: ndo_start_xmit()'s first step, which writes
 * its descriptors, drops it (@drop) or finds no room (the BUSY path).
 */
static int bqlm_nic_describe_xmit_next(const struct bqlm_nic *nic,
				       const struct bqlm_nic_cfg *cfg,
				       bool drop, const char *call,
				       char *buf, size_t len)
{
	unsigned int q = bqlm_nic_next_queue(nic, cfg);
	const char *clean = cfg->completers == BQLM_NIC_COMPLETE_NAPI_XMIT ?
			    " free_old_xmit + netdev_tx_completed_queue," : "";
	const char *kick = cfg->err_kick == BQLM_NIC_EKICK_RING ?
			   ", ring a deferred doorbell" : ", no doorbell";
	bool before = cfg->sent == BQLM_NIC_SENT_BEFORE_DOORBELL;
	size_t n;

	n = snprintf(buf, len,
		     "stack: qdisc -> ndo_start_xmit(pkt%u, %u B, q%u, xmit_more=%u) [tx lock]:",
		     nic->sent + 1, cfg->len, q, bqlm_nic_next_more(nic, cfg));
	buf += min(n, len);
	len -= min(n, len);
	/* as bqlm_nic_xmit_start(): no room is the BUSY path */
	if (!drop && bqlm_nic_xmit_no_room(nic, cfg, q))
		return n + snprintf(buf, len,
				    "%s no room for %u desc: NETDEV_TX_BUSY path%s",
				    clean, cfg->descs, kick);
	if (drop)
		return n + snprintf(buf, len,
				    " DMA mapping error: drop %s%s",
				    cfg->drop == BQLM_NIC_DROP_BEFORE_SENT ?
				    "before the sent call" :
				    "after netdev_tx_sent_queue", kick);
	return n + snprintf(buf, len, "%s write %u desc%s%s%s%s", clean,
			    cfg->descs,
			    cfg->stopcheck == BQLM_NIC_STOP_BEFORE_SENT ?
			    ", ring-full stop" : "",
			    before ? ", " : ", doorbell", before ? call : "",
			    before ? ": dql_queued" : "");
}

static int bqlm_nic_describe_xmit(const struct bqlm_nic *nic,
				  const struct bqlm_nic_cfg *cfg, bool drop,
				  char *buf, size_t len)
{
	const char *call = cfg->sent_call == BQLM_NIC_CALL_XMIT_MORE ?
			   "__netdev_tx_sent_queue" : "netdev_tx_sent_queue";
	unsigned int q = nic->xmit_q;

	switch (nic->xmit) {
	case BQLM_NIC_XMIT_DRV_STOP:
		return snprintf(buf, len,
				"stack: ndo_start_xmit [q%u tx lock]: %s: netif_tx_stop_queue(q%u)%s",
				q, (nic->xflags & BQLM_NIC_XF_BUSY) ?
				"no room, NETDEV_TX_BUSY path" :
				"ring full", bqlm_nic_drv_q(cfg, q),
				(nic->xflags & BQLM_NIC_XF_BUSY) &&
				cfg->busy == BQLM_NIC_BUSY_STOP ?
				", return NETDEV_TX_BUSY; unlock" :
				cfg->drv_stop == BQLM_NIC_DSTOP_NO_RECHECK &&
				!(nic->xflags & BQLM_NIC_XF_BUSY) ?
				" (no re-check)" : "");
	case BQLM_NIC_XMIT_DRV_RECHECK:
		return snprintf(buf, len,
				"stack: ndo_start_xmit [q%u tx lock]: %sre-check: free >= %u ? netif_tx_start_queue%s",
				q, cfg->drv_stop == BQLM_NIC_DSTOP_NO_MB ?
				"(no smp_mb__after_atomic) " :
				"smp_mb__after_atomic, ",
				bqlm_nic_restart_thr(cfg),
				cfg->drv_stop == BQLM_NIC_DSTOP_IGNORE_RESTART ?
				", then stop again (-1 read as stopped)" :
				(nic->xflags & BQLM_NIC_XF_BUSY) ?
				" and write the packet, else NETDEV_TX_BUSY" :
				"");
	case BQLM_NIC_XMIT_INDEX:
		return snprintf(buf, len,
				"stack: ndo_start_xmit [q%u tx lock]: after the doorbell: publish the producer index",
				q);
	case BQLM_NIC_XMIT_XOFF:
		return snprintf(buf, len,
				"stack: ndo_start_xmit [q%u tx lock]: %s: over limit, set STACK_XOFF",
				q, call);
	case BQLM_NIC_XMIT_RECHECK:
		return snprintf(buf, len,
				"stack: ndo_start_xmit [q%u tx lock]: smp_mb, re-check avail; doorbell if %s; unlock",
				q, bqlm_nic_kick_names[cfg->doorbell]);
	case BQLM_NIC_XMIT_SENT:
		return snprintf(buf, len,
				"stack: ndo_start_xmit [q%u tx lock]: after the doorbell: %s(%u B)",
				q, call, cfg->len);
	default:
		return bqlm_nic_describe_xmit_next(nic, cfg, drop, call, buf,
						   len);
	}
}

static int bqlm_nic_describe_napi(const struct bqlm_nic *nic,
				  const struct bqlm_nic_cfg *cfg,
				  unsigned int q, char *buf, size_t len)
{
	const struct bqlm_nic_queue *nq = &nic->q[q];
	bool irq = cfg->completion == BQLM_NIC_COMPLETION_IRQ;
	const char *who = irq ? "tx irq" : "napi";

	switch (nq->napi) {
	case BQLM_NIC_NAPI_DQL:
		return snprintf(buf, len,
				"%s q%u: netdev_tx_completed_queue(q%u, %u, %u): dql_completed ends",
				who, q, bqlm_nic_bql_q(cfg, q), nq->napi_pkts,
				nq->napi_bytes);
	case BQLM_NIC_NAPI_WAKE:
		if (bqlm_nic_split(cfg))
			return snprintf(buf, len,
					"%s q%u: smp_mb, STACK_XOFF wake if avail >= 0; %sfree >= %u && netif_tx_queue_stopped(q%u) ? netif_tx_wake_queue",
					who, q,
					cfg->drv_wake == BQLM_NIC_DWAKE_NO_MB ?
					"consumer index, (no smp_mb) " :
					"", bqlm_nic_wake_thr(cfg),
					bqlm_nic_wake_q(cfg, q));
		if (bqlm_nic_wake_q(cfg, q) != q)
			return snprintf(buf, len,
					"%s q%u: smp_mb, STACK_XOFF wake if avail >= 0; q%u stopped and ring q%u has room ? netif_tx_wake_queue(q%u); napi_complete_done",
					who, q, bqlm_nic_wake_q(cfg, q), q,
					bqlm_nic_wake_q(cfg, q));
		return snprintf(buf, len,
				"%s q%u: smp_mb, STACK_XOFF wake if avail >= 0; wake on room; napi_complete_done",
				who, q);
	case BQLM_NIC_NAPI_TAIL:
		return snprintf(buf, len, "%s q%u: napi_complete_done",
				who, q);
	default:
		return snprintf(buf, len,
				"%s q%u: %s%s: clean up to %u packets, %snetdev_tx_completed_queue with the %s",
				who, q, irq ? "handler" : "poll",
				cfg->napi_txlock ? " [tx lock]" : "",
				cfg->budget,
				bqlm_nic_split(cfg) &&
				cfg->drv_wake == BQLM_NIC_DWAKE_HELPER ?
				"consumer index, " : "",
				cfg->gso == BQLM_NIC_GSO_COMPLETED_WIRE ?
				"wire bytes sum (skb->len + a segment's headers)" :
				bqlm_nic_bytes_names[cfg->bytes]);
	}
}

/*
 * A transmit step whose ring-full stop, run inside it (the helpers as one
 * step), stops another queue than its ring's (--drv-queue): the step is
 * run on a copy to name the queue it stopped.
 */
static int bqlm_nic_describe_other_stop(const struct bqlm_nic *nic,
					const struct bqlm_nic_cfg *cfg,
					unsigned int action, char *buf,
					size_t len)
{
	struct bqlm_nic after = *nic;
	struct bqlm_xrun r;
	unsigned int q;

	if (cfg->drv_queue == BQLM_NIC_DQUEUE_OWN || bqlm_nic_split(cfg) ||
	    nic->xmit == BQLM_NIC_XMIT_DRV_STOP)
		return 0;
	memset(&r, 0, sizeof(r));
	if (bqlm_nic_run(cfg, &after, action, &r) || !r.ev.wrong_queue)
		return 0;
	q = r.ev.wrong_queue_q;
	return snprintf(buf, len, "; ring q%u full: netif_tx_stop_queue(q%u)",
			r.ev.wrong_queue_ring, q);
}

static int bqlm_nic_describe_action(const void *ctx, const void *state,
				    unsigned int action, char *buf, size_t len)
{
	const struct bqlm_nic_cfg *cfg = ctx;
	const struct bqlm_nic *nic = state;
	unsigned int arg = BQLM_X_ARG(action);
	size_t n;

	switch (BQLM_X_KIND(action)) {
	case BQLM_NIC_A_XMIT:
		n = bqlm_nic_describe_xmit(nic, cfg,
					   arg == BQLM_NIC_XMIT_DROPPED,
					   buf, len);
		return n + bqlm_nic_describe_other_stop(nic, cfg, action,
							buf + min(n, len),
							len - min(n, len));
	case BQLM_NIC_A_FLUSH:
		return bqlm_nic_describe_flush(nic, cfg, arg, buf, len);
	case BQLM_NIC_A_HANG:
		return snprintf(buf, len,
				"device: hangs (completes nothing until its DMA is reset)");
	case BQLM_NIC_A_DMA:
		return snprintf(buf, len,
				"device q%u: DMA completes a descriptor, irq -> napi_schedule",
				arg);
	case BQLM_NIC_A_NAPI:
		return bqlm_nic_describe_napi(nic, cfg, arg %
					      BQLM_NIC_MAX_QUEUES, buf, len);
	case BQLM_NIC_A_CLEANTX:
		return snprintf(buf, len,
				"rx-napi: virtnet_poll_cleantx q%u [tx trylock]: clean, netdev_tx_completed_queue, wake on room",
				arg);
	case BQLM_NIC_A_XDP:
		return snprintf(buf, len,
				"xdp: XDP_TX frame on q%u [tx lock], %sdoorbell",
				cfg->queues - 1, cfg->xdp == BQLM_NIC_XDP_COUNTED ?
				"netdev_tx_sent_queue, " : "");
	case BQLM_NIC_A_PATH:
		if (arg < BQLM_NIC_NR_PATHS)
			return snprintf(buf, len, "%s",
					bqlm_nic_paths[arg].call);
		if (!nic->path)
			return snprintf(buf, len, "? no path");
		return snprintf(buf, len, "%s: %s",
				bqlm_nic_path_name(nic->path - 1),
				bqlm_nic_ops[cfg->ops[nic->path - 1]
					     [nic->op] % BQLM_NIC_NR_OPS].call);
	default:
		return snprintf(buf, len, "? action %#x", action);
	}
}

static int bqlm_nic_describe_state(const void *ctx, const void *state,
				   char *buf, size_t len)
{
	const struct bqlm_nic_cfg *cfg = ctx;
	const struct bqlm_nic *nic = state;
	size_t n = 0;
	unsigned int q, i;

	for (q = 0; q < cfg->queues && n < len; q++) {
		const struct bqlm_nic_queue *nq = &nic->q[q];
		unsigned long st = nq->txq.state;

		n += snprintf(buf + n, len - n,
			      "%sq%u: in flight %u dql %u/%u limit %u%s%s ring[",
			      q ? " | " : "", q, bqlm_nic_inflight(nic, q),
			      nq->txq.dql.num_queued,
			      nq->txq.dql.num_completed, nq->txq.dql.limit,
			      st & (1UL << BQLM_QUEUE_STATE_DRV_XOFF) ?
			      " DRV_XOFF" : "",
			      st & BQLM_NIC_STACK_XOFF ? " STACK_XOFF" : "");
		for (i = 0; i < nq->npkts && n < len; i++) {
			const struct bqlm_nic_pkt *p = &nq->pkt[i];

			n += snprintf(buf + n, len - n, "%s%s%u/%u%s%s",
				      i ? " " : "",
				      p->flags & BQLM_NIC_PKT_XDP ? "xdp" : "",
				      p->done, bqlm_nic_ndesc(p, cfg),
				      p->flags & BQLM_NIC_PKT_SENT ? "+" : "",
				      p->flags & BQLM_NIC_PKT_STALE ? "*" :
				      p->flags & BQLM_NIC_PKT_KICKED ? "" :
				      "~");
		}
		if (n < len)
			n += snprintf(buf + n, len - n, "]%s%s%s%s",
				      nq->sched ? " napi-sched" : "",
				      nq->missed ? " missed" : "",
				      nq->cb_off ? " cb-off" : "",
				      nq->orphans ? " orphans" : "");
		if (nq->ghosts && n < len)
			n += snprintf(buf + n, len - n,
				      " device-owned %u (%u done)%s",
				      nq->ghosts, nq->ghost_done,
				      nq->ghost_stale ? " stale" : "");
		if (bqlm_nic_split(cfg) && n < len)
			n += snprintf(buf + n, len - n, " prod %u cons %u",
				      nq->prod, nq->cons);
		if (n < len)
			n += bqlm_mm_describe_sb(&nq->sb, "completer-sb",
						 bqlm_nic_var_name, NULL,
						 buf + n, len - n);
	}
	if (n < len)
		n += bqlm_mm_describe_sb(&nic->sb, "stack-sb",
					 bqlm_nic_var_name, NULL, buf + n,
					 len - n);
	if (n < len)
		n += snprintf(buf + n, len - n, " | %s%s%s%s%s%s",
			      nic->up ? "up" : nic->closed ? "closed" :
			      nic->suspended ? "suspended" : "down",
			      nic->napi_on ? "" : " napi-off",
			      nic->dma_on ? "" : " dma-off",
			      nic->irq_off ? " irq-off" : "",
			      nic->hung ? " hung" : "",
			      nic->path ? " (path running)" : "");
	return n;
}

BQLM_DEFINE_XOPS(bqlm_nic, NULL, NULL);

#define BQLM_NIC_RBIT(b)	(1U << (b))

/* The queue of the stack's transmit in progress, or of its next one. */
static unsigned int bqlm_nic_reach_xq(const struct bqlm_nic *nic,
				      const struct bqlm_nic_cfg *cfg)
{
	return nic->xmit == BQLM_NIC_XMIT_IDLE ?
	       bqlm_nic_next_queue(nic, cfg) : nic->xmit_q;
}

/* Descriptors of @nq no doorbell announced, the newest left out if @skip. */
static unsigned int bqlm_nic_reach_deferred(const struct bqlm_nic_queue *nq,
					    bool skip)
{
	unsigned int i, n = 0;

	for (i = 0; i + skip < nq->npkts; i++)
		if (!(nq->pkt[i].flags & BQLM_NIC_PKT_KICKED))
			n++;
	return n;
}

/* What the stack's step @from -> @to took. */
static unsigned int bqlm_nic_reach_xmit(const struct bqlm_nic_cfg *cfg,
					const struct bqlm_nic *from,
					const struct bqlm_nic *to,
					unsigned int arg)
{
	unsigned int q = bqlm_nic_reach_xq(from, cfg), r = 0;
	bool busy = (to->xflags & BQLM_NIC_XF_BUSY) &&
		    !(from->xflags & BQLM_NIC_XF_BUSY);
	bool drop = to->drops < from->drops;

	if (busy)
		r |= BQLM_NIC_RBIT(BQLM_NIC_R_BUSY);
	if (drop)
		r |= BQLM_NIC_RBIT(BQLM_NIC_R_DROP);
	/* an error exit (a drop, NETDEV_TX_BUSY) after xmit_more deferred
	 * a doorbell: the dropped packet itself is not one
	 */
	if ((busy || drop) &&
	    bqlm_nic_reach_deferred(&from->q[q],
				    arg != BQLM_NIC_XMIT_DROPPED &&
				    (from->xflags & BQLM_NIC_XF_DROP)))
		r |= BQLM_NIC_RBIT(BQLM_NIC_R_ERR_KICK);
	if (!bqlm_nic_room(&to->q[q], cfg))
		r |= BQLM_NIC_RBIT(BQLM_NIC_R_FULL0 + q);
	return r;
}

/* Record in x->reach what the step @from --@action--> @to took. */
static void bqlm_nic_reach_step(const struct bqlm_nic_xctx *x,
				const struct bqlm_nic *from,
				unsigned int action,
				const struct bqlm_nic *to)
{
	const struct bqlm_nic_cfg *cfg = &x->cfg;
	struct bqlm_nic_reach *r = x->reach;
	unsigned int kind = BQLM_X_KIND(action), arg = BQLM_X_ARG(action);
	unsigned int q, got = 0;

	switch (kind) {
	case BQLM_NIC_A_XMIT:
		got = bqlm_nic_reach_xmit(cfg, from, to, arg);
		break;
	case BQLM_NIC_A_PATH:
		if (arg == BQLM_NIC_PATH_TIMEOUT)
			got |= BQLM_NIC_RBIT(BQLM_NIC_R_TIMEOUT);
		else if (arg == BQLM_NIC_NR_PATHS && from->path &&
			 from->path <= BQLM_NIC_NR_PATHS)
			r->ops_reached[from->path - 1] |= 1U << from->op;
		break;
	case BQLM_NIC_A_NAPI:
	case BQLM_NIC_A_CLEANTX:
		q = bqlm_nic_wake_q(cfg, arg % BQLM_NIC_MAX_QUEUES);
		if ((from->q[q].txq.state & BQLM_NIC_DRV_XOFF) &&
		    !bqlm_nic_wake_gate(from, cfg))
			got |= BQLM_NIC_RBIT(BQLM_NIC_R_DOWN);
		break;
	default:
		break;
	}
	for (q = 0; q < cfg->queues; q++) {
		/* a completer's wake reaches memory in its step or a flush */
		if ((from->q[q].txq.state & BQLM_NIC_DRV_XOFF) &&
		    !(to->q[q].txq.state & BQLM_NIC_DRV_XOFF) &&
		    kind != BQLM_NIC_A_XMIT && kind != BQLM_NIC_A_PATH &&
		    !(kind == BQLM_NIC_A_FLUSH &&
		      arg / BQLM_SB_DEPTH == BQLM_NIC_CPU_XMIT))
			got |= BQLM_NIC_RBIT(BQLM_NIC_R_WAKE0 + q);
		if (to->q[q].txq.dql.limit > from->q[q].txq.dql.limit)
			got |= BQLM_NIC_RBIT(BQLM_NIC_R_GROWN0 + q);
	}
	r->reached |= got;
}

static int bqlm_nic_reach_xstep(const void *ctx, const void *from,
				unsigned int action, void *to,
				struct bqlm_violation *each)
{
	int mask = bqlm_nic_xstep(ctx, from, action, to, each);

	if (mask >= 0)
		bqlm_nic_reach_step(ctx, from, action, to);
	return mask;
}

static const struct bqlm_xops bqlm_nic_reach_xops = {
	.init = bqlm_nic_xinit,
	.enabled = bqlm_nic_enabled,
	.step = bqlm_nic_reach_xstep,
	.describe_action = bqlm_nic_describe_action,
	.describe_state = bqlm_nic_describe_state,
	.external = bqlm_nic_external,
	.check_quiescent = bqlm_nic_check_quiescent,
};

/* The cycles that let reset path @p run. */
static unsigned int bqlm_nic_path_cycles(const struct bqlm_nic_cfg *cfg,
					 unsigned int p)
{
	switch (p) {
	case BQLM_NIC_PATH_CLOSE:
	case BQLM_NIC_PATH_OPEN:
		return cfg->stops;
	case BQLM_NIC_PATH_RECONFIG:
		return cfg->reconfigs;
	case BQLM_NIC_PATH_TIMEOUT:
		return cfg->timeouts;
	default:
		return cfg->suspends;
	}
}

/**
 * bqlm_nic_reach_stated() - the code paths a configuration states
 * @cfg: the configuration (checked)
 * @r: receives them, with nothing reached yet
 *
 * Per queue the stack sends to: its ring full after a transmit, its DQL
 * limit grown by a completion, and, with a ring-full stop or a
 * NETDEV_TX_BUSY path, the completion's wake of the queue the driver
 * stopped; the NETDEV_TX_BUSY path (--tx-busy), a drop (--drops), an
 * error exit with an xmit_more-deferred doorbell (--error-kick skip),
 * the watchdog (--timeouts), the down test
 * keeping a wake from a stopped queue (--down-cond other than none, with
 * a reset path to run), and every call of each reset path a cycle lets
 * run.
 */
void bqlm_nic_reach_stated(const struct bqlm_nic_cfg *cfg,
			   struct bqlm_nic_reach *r)
{
	unsigned int q, p, nq, st = 0, cycles = 0;

	memset(r, 0, sizeof(*r));
	nq = cfg->map == BQLM_NIC_MAP_Q0 ? 1 : cfg->queues;
	for (q = 0; q < nq; q++) {
		st |= BQLM_NIC_RBIT(BQLM_NIC_R_FULL0 + q) |
		      BQLM_NIC_RBIT(BQLM_NIC_R_GROWN0 + q);
		if ((cfg->stopcheck != BQLM_NIC_STOP_NONE ||
		     cfg->busy != BQLM_NIC_BUSY_NONE) && cfg->wakers)
			st |= BQLM_NIC_RBIT(BQLM_NIC_R_WAKE0 +
					    bqlm_nic_wake_q(cfg, q));
	}
	if (cfg->busy != BQLM_NIC_BUSY_NONE)
		st |= BQLM_NIC_RBIT(BQLM_NIC_R_BUSY);
	if (cfg->drops)
		st |= BQLM_NIC_RBIT(BQLM_NIC_R_DROP);
	if (cfg->err_kick == BQLM_NIC_EKICK_SKIP)
		st |= BQLM_NIC_RBIT(BQLM_NIC_R_ERR_KICK);
	if (cfg->timeouts)
		st |= BQLM_NIC_RBIT(BQLM_NIC_R_TIMEOUT);
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++) {
		if (!bqlm_nic_path_cycles(cfg, p) || !cfg->nr_ops[p])
			continue;
		r->ops_stated[p] = (1U << cfg->nr_ops[p]) - 1;
		cycles++;
	}
	if (cfg->down != BQLM_NIC_DOWN_NONE && cycles)
		st |= BQLM_NIC_RBIT(BQLM_NIC_R_DOWN);
	r->stated = st;
}

/**
 * bqlm_nic_reach_all() - did an exploration take every stated path?
 * @r: what it recorded
 *
 * Return: true if it did.
 */
bool bqlm_nic_reach_all(const struct bqlm_nic_reach *r)
{
	unsigned int p;

	if (r->stated & ~r->reached)
		return false;
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++)
		if (r->ops_stated[p] & ~r->ops_reached[p])
			return false;
	return true;
}

static const char *const bqlm_nic_reach_names[BQLM_NIC_NR_REACH] = {
	"q0 ring full", "q1 ring full", "q0 DQL limit grown",
	"q1 DQL limit grown", "q0 woken by a completion",
	"q1 woken by a completion", "NETDEV_TX_BUSY path (--tx-busy)",
	"error exit with a deferred doorbell (--error-kick)",
	"drop (--drops)", "tx timeout (--timeouts)",
	"down test kept a wake (--down-cond)",
};

/**
 * bqlm_nic_reach_describe() - the stated paths reached, or those not
 * @r: what an exploration recorded
 * @cfg: its configuration
 * @missing: list those not reached (else those reached)
 * @buf: where to write, "; "-separated ("none" for none)
 * @len: its size
 *
 * Return: how many paths it listed.
 */
int bqlm_nic_reach_describe(const struct bqlm_nic_reach *r,
			    const struct bqlm_nic_cfg *cfg, bool missing,
			    char *buf, size_t len)
{
	unsigned int b, p, i, set;
	size_t n = 0;
	int count = 0;

	if (len)
		buf[0] = '\0';
	for (b = 0; b < BQLM_NIC_NR_REACH; b++) {
		set = r->reached & BQLM_NIC_RBIT(b);
		if (!(r->stated & BQLM_NIC_RBIT(b)) || !set != missing)
			continue;
		n += snprintf(buf + min(n, len), len - min(n, len), "%s%s",
			      count++ ? "; " : "", bqlm_nic_reach_names[b]);
	}
	for (p = 0; p < BQLM_NIC_NR_PATHS; p++) {
		if (!missing && r->ops_stated[p] &&
		    !(r->ops_stated[p] & ~r->ops_reached[p])) {
			/* every call of the path: the path once */
			n += snprintf(buf + min(n, len), len - min(n, len),
				      "%s--%s (every call)",
				      count++ ? "; " : "",
				      bqlm_nic_path_name(p));
			continue;
		}
		for (i = 0; i < BQLM_NIC_MAX_OPS; i++) {
			set = r->ops_reached[p] & (1U << i);
			if (!(r->ops_stated[p] & (1U << i)) || !set != missing)
				continue;
			n += snprintf(buf + min(n, len), len - min(n, len),
				      "%s--%s %s (call %u)",
				      count++ ? "; " : "",
				      bqlm_nic_path_name(p),
				      bqlm_nic_op_name(cfg->ops[p][i]), i + 1);
		}
	}
	if (!count)
		snprintf(buf, len, "none");
	return count;
}

/**
 * bqlm_nic_system_reach() - the NIC model as a system that records reach
 * @x: the configuration and where to record; it must outlive @sys
 * @sys: receives the system
 *
 * As bqlm_nic_system(), and each step ORs what it took into *@x->reach
 * (set its stated paths first: bqlm_nic_reach_stated()).
 *
 * Return: 0, or -EINVAL when the configuration is invalid or @x->reach
 * is NULL.
 */
int bqlm_nic_system_reach(const struct bqlm_nic_xctx *x, struct bqlm_xsys *sys)
{
	if (!x || !x->reach || bqlm_nic_cfg_check(&x->cfg))
		return -EINVAL;
	return bqlm_xsys_fill(sys, "nic", sizeof(struct bqlm_nic), x,
			      &bqlm_nic_reach_xops);
}

/**
 * bqlm_nic_system() - the NIC model as a system for the explorer
 * @cfg: the configuration; it must outlive @sys
 * @sys: receives the system
 *
 * Actions, in the order they are tried: the stack's ndo_start_xmit() step,
 * per queue the device's next completion and the NAPI poll's step, an
 * XDP_TX frame, the start of each reset path, the next call of the path in
 * progress. After each step every queue is checked against
 * <bqlm/invariants.h>; a quiescent state (only the outside world may act)
 * with the device up and a queue stopped is a stall.
 *
 * Return: 0, or -EINVAL when @cfg is invalid.
 */
int bqlm_nic_system(const struct bqlm_nic_cfg *cfg, struct bqlm_xsys *sys)
{
	if (bqlm_nic_cfg_check(cfg))
		return -EINVAL;
	return bqlm_xsys_fill(sys, "nic", sizeof(struct bqlm_nic), cfg,
			      &bqlm_nic_xops);
}
