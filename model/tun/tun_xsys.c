// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the tun model (model/tun/tun.c, and its BQL design study
 * model/tun/tun_bql.c) as a system for the explorer of <bqlm/explore.h>: the
 * invariants checked after a step and in a quiescent state, the actions
 * (each producer CPU, each reader, each store-buffer entry that may reach
 * memory, the administrator) and their encoding, the step, the figures of
 * struct bqlm_tun_stats, the descriptions of actions and states for
 * traces, and the symmetry of the packet ids.
 *
 * This file has no kernel counterpart.
 */
#include "bqlm_internal.h"
#include <bqlm/tun.h>
#include "tun_internal.h"

static const char *const bqlm_tun_var_names[BQLM_TUN_FIXED_VARS] = {
	[BQLM_TUN_STATE_VAR(0)] = "txq0.state",
	[BQLM_TUN_STATE_VAR(1)] = "txq1.state",
	[BQLM_TUN_PLOCK_VAR(0)] = "q0.producer_lock",
	[BQLM_TUN_CLOCK_VAR(0)] = "q0.consumer_lock",
	[BQLM_TUN_PLOCK_VAR(1)] = "q1.producer_lock",
	[BQLM_TUN_CLOCK_VAR(1)] = "q1.consumer_lock",
};

/*
 * The name of shared variable @var in traces: as above, a ring slot, or a
 * NAPI consumer's rx_notify_masked.
 */
static int bqlm_tun_var_name(const void *arg, unsigned int var, char *buf,
			     size_t len)
{
	const struct bqlm_tun_cfg *cfg = arg;
	unsigned int cap = bqlm_tun_cap(cfg);

	if (var < BQLM_TUN_FIXED_VARS)
		return snprintf(buf, len, "%s", bqlm_tun_var_names[var]);
	if (var >= bqlm_tun_masked_var(cfg, 0))
		return snprintf(buf, len, "q%u.rx_notify_masked",
				var - bqlm_tun_masked_var(cfg, 0));
	return snprintf(buf, len, "q%u.slot[%u]",
			(var - BQLM_TUN_FIXED_VARS) / cap,
			(var - BQLM_TUN_FIXED_VARS) % cap);
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
	if (bqlm_tun_bql_on(cfg))
		bqlm_tun_bql_counters(tun, cfg, &c);
	if (ev)
		c.step = *ev;
	if (!quiescent)
		return bqlm_inv_check(&c, NULL, each);
	for (q = 0; q < tun->numqueues; q++) {
		c.quiescent = true;
		c.wants_tx = true;
		c.stopped = bqlm_tun_stopped(tun, q) ||
			    (bqlm_tun_bql_on(cfg) &&
			     bqlm_tun_bql_stopped(tun, cfg, q));
		mask |= bqlm_inv_check(&c, NULL, each);
	}
	return mask;
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

static unsigned int bqlm_tun_enabled(const void *ctx, const void *state,
				     unsigned int *a)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	const struct bqlm_tun *tun = state;
	unsigned int n = 0, i, k;

	for (i = 0; i < cfg->cpus; i++)
		if (bqlm_tun_can_xmit(tun, cfg, i))
			a[n++] = BQLM_X_ACTION(BQLM_TUN_A_XMIT, i);
	for (i = 0; i < cfg->queues; i++)
		if (bqlm_tun_can_read(tun, cfg, i))
			a[n++] = BQLM_X_ACTION(BQLM_TUN_A_READ, i);
	for (i = 0; i < BQLM_TUN_NR_WHO; i++) {
		const struct bqlm_sb *sb = i < BQLM_TUN_MAX_CPUS ?
					   &tun->cpu[i].sb :
					   &tun->rd[i - BQLM_TUN_MAX_CPUS].sb;

		for (k = 0; k < sb->n; k++)
			if (bqlm_mm_can_flush(cfg->mm, sb, k))
				a[n++] = BQLM_X_ACTION(BQLM_TUN_A_FLUSH,
					 i * BQLM_SB_DEPTH + k);
	}
	if (bqlm_tun_can_detach(tun, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_TUN_A_DETACH, 0);
	if (bqlm_tun_can_attach(tun, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_TUN_A_ATTACH, 0);
	if (bqlm_tun_can_set_iff(tun, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_TUN_A_SET_IFF, 0);
	if (bqlm_tun_can_resize(tun, cfg))
		a[n++] = BQLM_X_ACTION(BQLM_TUN_A_RESIZE, 0);
	return n;
}

/* The outside world: a new packet from the stack, an administrator. */
static bool bqlm_tun_external(const void *ctx, const void *state,
			      unsigned int action)
{
	const struct bqlm_tun *tun = state;
	unsigned int arg = BQLM_X_ARG(action);

	(void)ctx;
	switch (BQLM_X_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		return arg < BQLM_TUN_MAX_CPUS &&
		       (tun->cpu[arg].phase == BQLM_TUN_X_IDLE ||
			tun->cpu[arg].phase == BQLM_TUN_X_REQUEUED);
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

/* Run one action: the step function of its actor. */
static int bqlm_tun_run(const void *ctx, void *state, unsigned int action,
			struct bqlm_xrun *r)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	struct bqlm_tun *tun = state;
	unsigned int arg = BQLM_X_ARG(action);

	switch (BQLM_X_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		r->where = bqlm_tun_xmit_fn(cfg);
		return bqlm_tun_net_xmit(tun, cfg, arg, &r->ev);
	case BQLM_TUN_A_READ:
		r->where = bqlm_tun_napi(cfg) ? "veth_poll" :
			   cfg->reader == BQLM_TUN_VHOST ? "handle_rx" :
			   "tun_do_read";
		return bqlm_tun_do_read(tun, cfg, arg, &r->ev);
	case BQLM_TUN_A_FLUSH:
		r->where = "store buffer";
		return bqlm_tun_flush(tun, cfg, arg / BQLM_SB_DEPTH,
				      arg % BQLM_SB_DEPTH);
	case BQLM_TUN_A_DETACH:
		r->where = "tun_detach";
		return bqlm_tun_detach(tun, cfg, &r->ev);
	case BQLM_TUN_A_ATTACH:
		r->where = "tun_attach";
		return bqlm_tun_attach(tun, cfg, &r->ev);
	case BQLM_TUN_A_SET_IFF:
		r->where = "tun_set_iff";
		return bqlm_tun_set_iff(tun, cfg, &r->ev);
	case BQLM_TUN_A_RESIZE:
		r->where = "tun_queue_resize";
		return bqlm_tun_queue_resize(tun, cfg, &r->ev);
	default:
		r->where = "?";
		return -EINVAL;
	}
}

static unsigned int bqlm_tun_xcheck(const void *ctx, const void *state,
				    const struct bqlm_xrun *r,
				    struct bqlm_violation *each)
{
	return bqlm_tun_check(state, ctx, r->where, &r->ev, false, each);
}

static int bqlm_tun_xstep(const void *ctx, const void *from,
			  unsigned int action, void *to,
			  struct bqlm_violation *each)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	unsigned int q;
	int mask;

	(void)from;
	mask = bqlm_xstep_checked(ctx, to, action, each, bqlm_tun_run,
				  bqlm_tun_xcheck);
	/* the qdisc reschedule is not state (the stack actor is the qdisc) */
	if (bqlm_tun_bql_on(cfg))
		for (q = 0; q < cfg->queues; q++)
			bqlm_txq_sched_clear(bqlm_tun_txq(to, cfg, q));
	return mask;
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

/* Every state: its figures (struct bqlm_tun_stats); no check. */
static int bqlm_tun_check_state(const void *ctx, const void *state,
				const unsigned int *actions, unsigned int n,
				struct bqlm_violation *each)
{
	(void)actions;
	(void)n;
	(void)each;
	bqlm_tun_stats(state, ctx);
	return 0;
}

static int bqlm_tun_check_quiescent(const void *ctx, const void *state,
				    struct bqlm_violation *each)
{
	return bqlm_tun_check(state, ctx, "quiescent state", NULL, true, each);
}

/* What the transmit of @x does once it is through: notify, drop, requeue. */
static const char *bqlm_tun_done_text(const struct bqlm_tun_cfg *cfg,
				      const struct bqlm_tun_cpu *x)
{
	if (!x->ret)
		return bqlm_tun_napi(cfg) ? "done" : "sk_data_ready";
	if (cfg->on_full == BQLM_TUN_FULL_REQUEUE && cfg->qdisc)
		return "NETDEV_TX_BUSY: the qdisc requeues the packet";
	return "drop pkt (FULL_RING)";
}

/* The barrier and re-check (or kick) after a stop, in words. */
static int bqlm_tun_recheck_text(const struct bqlm_tun_cfg *cfg,
				 unsigned int txq, char *buf, size_t len)
{
	const char *mb = cfg->producer_mb ? "smp_mb__after_atomic(), " :
			 "(no barrier) ";

	switch (cfg->recheck) {
	case BQLM_TUN_RECHECK_PRODUCE:
		return snprintf(buf, len,
				"%s__ptr_ring_check_produce(q%u) == 0 ? netif_tx_wake_queue(txq%u)",
				mb, txq, txq);
	case BQLM_TUN_RECHECK_EMPTY:
		return snprintf(buf, len,
				"%s__ptr_ring_empty(q%u) ? netif_tx_wake_queue(txq%u)",
				mb, txq, txq);
	case BQLM_TUN_RECHECK_KICK:
		return snprintf(buf, len,
				"__veth_xdp_flush: %s!rx_notify_masked && napi_schedule_prep ? rx_notify_masked = true, __napi_schedule",
				cfg->producer_mb ? "smp_mb(), " : "(no barrier) ");
	default:
		return snprintf(buf, len, "no re-check");
	}
}

static int bqlm_tun_describe_xmit(const struct bqlm_tun *tun,
				  const struct bqlm_tun_cfg *cfg,
				  unsigned int cpu, char *buf, size_t len)
{
	const struct bqlm_tun_cpu *x = &tun->cpu[cpu % BQLM_TUN_MAX_CPUS];
	const char *fn = bqlm_tun_xmit_fn(cfg);
	const char *stop = cfg->on_full == BQLM_TUN_FULL_REQUEUE ?
			   "netif_tx_stop_queue" : "netif_stop_subqueue";
	char re[160];
	unsigned int txq;

	switch (x->phase) {
	case BQLM_TUN_X_IDLE:
		txq = bqlm_tun_txq_of(tun, cfg, cpu);
		return snprintf(buf, len,
				"cpu%u: stack: netif_xmit_stopped(txq%u) = false, dequeue pkt%u -> %s%s",
				cpu, txq, tun->sent + 1, fn,
				cfg->qdisc ? "" : " (noqueue: dropped if stopped)");
	case BQLM_TUN_X_REQUEUED:
		return snprintf(buf, len,
				"cpu%u: stack: netif_xmit_stopped(txq%u) = false, the qdisc sends the requeued pkt%u -> %s",
				cpu, x->txq, x->pkt, fn);
	case BQLM_TUN_X_START:
		if (x->txq >= tun->numqueues)
			return snprintf(buf, len,
					"cpu%u: %s: tfiles[%u] == NULL: drop pkt%u (DEV_READY)",
					cpu, fn, x->txq, x->pkt);
		if (!bqlm_tun_section(cfg) && !cfg->stop &&
		    !bqlm_tun_napi(cfg))
			return snprintf(buf, len,
					"cpu%u: %s: ptr_ring_produce(q%u, pkt%u) [producer_lock], drop if full, else sk_data_ready",
					cpu, fn, x->txq, x->pkt);
		if (!bqlm_tun_section(cfg))
			return snprintf(buf, len,
					"cpu%u: %s: ptr_ring_produce(q%u, pkt%u) [producer_lock]",
					cpu, fn, x->txq, x->pkt);
		if (bqlm_tun_bql_on(cfg) && !bqlm_tun_bql_late(cfg))
			return snprintf(buf, len,
					"cpu%u: %s: spin_lock(producer_lock), __ptr_ring_check_produce(q%u) == 0 ? netdev_tx_sent_queue(%u B), __ptr_ring_produce(pkt%u)",
					cpu, fn, x->txq, cfg->len, x->pkt);
		return snprintf(buf, len,
				"cpu%u: %s: spin_lock(producer_lock), __ptr_ring_produce(q%u, pkt%u)",
				cpu, fn, x->txq, x->pkt);
	case BQLM_TUN_X_PRODUCED:
		if (!bqlm_tun_section(cfg))
			return snprintf(buf, len,
					"cpu%u: %s: ptr_ring_full(q%u) [producer_lock]",
					cpu, fn, x->txq);
		if (!bqlm_tun_locked_stop(cfg))
			return snprintf(buf, len,
					"cpu%u: %s [producer_lock]: %s",
					cpu, fn, x->ret ? "ring full, no BQL call" :
					bqlm_tun_bql_late(cfg) ?
					"netdev_tx_sent_queue after the produce" :
					"(sent earlier) nothing more");
		return snprintf(buf, len,
				"cpu%u: %s: IFF_BACKPRESSURE %s, qdisc %s: __ptr_ring_check_produce() == -ENOSPC ? netif_tx_stop_queue(txq%u)",
				cpu, fn, bqlm_tun_flag(tun, cfg) ? "on" : "off",
				cfg->qdisc ? "yes" : "noqueue", x->txq);
	case BQLM_TUN_X_STOP:
		bqlm_tun_recheck_text(cfg, x->txq, re, sizeof(re));
		if (bqlm_tun_section(cfg))
			return snprintf(buf, len, "cpu%u: %s: %s", cpu, fn, re);
		if (cfg->recheck != BQLM_TUN_RECHECK_NONE)
			return snprintf(buf, len, "cpu%u: %s: %s(txq%u)", cpu,
					fn, stop, x->txq);
		return snprintf(buf, len, "cpu%u: %s: %s(txq%u), %s", cpu, fn,
				stop, x->txq, bqlm_tun_done_text(cfg, x));
	case BQLM_TUN_X_RECHECK:
		bqlm_tun_recheck_text(cfg, x->txq, re, sizeof(re));
		return snprintf(buf, len, "cpu%u: %s: %s; %s", cpu, fn, re,
				bqlm_tun_done_text(cfg, x));
	case BQLM_TUN_X_NOTIFY:
		return snprintf(buf, len,
				"cpu%u: %s: __veth_xdp_flush: smp_mb(), !rx_notify_masked && napi_schedule_prep ? rx_notify_masked = true, __napi_schedule",
				cpu, fn);
	default:
		return snprintf(buf, len,
				"cpu%u: %s: spin_unlock(producer_lock), %s",
				cpu, fn, bqlm_tun_done_text(cfg, x));
	}
}

/* The consumer's wake rule, in words. */
static int bqlm_tun_wake_text(const struct bqlm_tun *tun,
			      const struct bqlm_tun_cfg *cfg, unsigned int q,
			      char *buf, size_t len)
{
	const struct bqlm_tun_reader *rd = &tun->rd[q % BQLM_TUN_MAX_QUEUES];
	const char *mb = cfg->consumer_mb ? "smp_mb(), " : "(no barrier) ";

	if (!bqlm_tun_flag(tun, cfg))
		return snprintf(buf, len,
				"__tun_wake_queue: IFF_BACKPRESSURE off, return");
	switch (cfg->wake) {
	case BQLM_TUN_WAKE_ALWAYS:
		return snprintf(buf, len, "%snetif_wake_subqueue(txq%u)",
				cfg->consumer_mb ? "smp_mb(), " : "", q);
	case BQLM_TUN_WAKE_IF_STOPPED:
		return snprintf(buf, len,
				"%snetif_tx_queue_stopped(txq%u) ? netif_tx_wake_queue(txq%u)",
				mb, q, q);
	case BQLM_TUN_WAKE_HALF:
	case BQLM_TUN_WAKE_ROOM:
		return snprintf(buf, len,
				"__tun_wake_queue(%u): %snetif_tx_queue_stopped(txq%u) ? cons_cnt += %u, wake at %u%s",
				rd->nr, mb, q, rd->nr,
				tun->q[q % BQLM_TUN_MAX_QUEUES].ring.size / 2,
				cfg->wake == BQLM_TUN_WAKE_ROOM ?
				" if __ptr_ring_check_produce() == 0; running: cons_cnt = 0" :
				"");
	default:
		return snprintf(buf, len, "no wake");
	}
}

/* A NAPI consumer's next step, in words. */
static int bqlm_tun_describe_poll(const struct bqlm_tun *tun,
				  const struct bqlm_tun_cfg *cfg,
				  unsigned int q, char *buf, size_t len)
{
	const struct bqlm_tun_reader *rd = &tun->rd[q % BQLM_TUN_MAX_QUEUES];
	char w[192];

	switch (rd->phase) {
	case BQLM_TUN_R_IDLE:
	case BQLM_TUN_R_POLL:
		return snprintf(buf, len,
				"napi%u: %sveth_xdp_rcv: __ptr_ring_consume(q%u) (%u done, budget %u); if empty: end of the loop",
				q, rd->phase == BQLM_TUN_R_IDLE ? "veth_poll: " : "",
				q, rd->nr, cfg->budget);
	case BQLM_TUN_R_RCV_END:
		bqlm_tun_wake_text(tun, cfg, q, w, sizeof(w));
		return snprintf(buf, len, "napi%u: end of veth_xdp_rcv: %s",
				q, w);
	case BQLM_TUN_R_COMPLETE:
		if (rd->nr >= cfg->budget)
			return snprintf(buf, len,
					"napi%u: done %u == budget: the poll stays scheduled",
					q, rd->nr);
		return snprintf(buf, len,
				"napi%u: napi_complete_done(%u), smp_store_mb(rx_notify_masked, false), !__ptr_ring_empty(q%u) ? napi_schedule_prep, rx_notify_masked = true",
				q, rd->nr, q);
	default:
		bqlm_tun_wake_text(tun, cfg, q, w, sizeof(w));
		return snprintf(buf, len, "napi%u: end of veth_poll: smp_rmb(), %s",
				q, w);
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
	char w[192];

	if (bqlm_tun_napi(cfg))
		return bqlm_tun_describe_poll(tun, cfg, q, buf, len);
	switch (rd->phase) {
	case BQLM_TUN_R_IDLE:
		return snprintf(buf, len, "%s%u: %s(q%u)%s; %s", who, q,
				consume, q, bqlm_tun_wake_locked(cfg) ?
				" [consumer_lock held on]" : "", empty);
	case BQLM_TUN_R_WAKE:
		if (bqlm_tun_bql_on(cfg))
			return snprintf(buf, len,
					"%s%u: netdev_tx_completed_queue(txq%u, %u, %u)",
					who, q, q, rd->nr, rd->nr * cfg->len);
		bqlm_tun_wake_text(tun, cfg, q, w, sizeof(w));
		return snprintf(buf, len, "%s%u: %s", who, q, w);
	case BQLM_TUN_R_UNLOCK:
		return snprintf(buf, len, "%s%u: spin_unlock(consumer_lock)",
				who, q);
	default:
		bqlm_tun_wake_text(tun, cfg, q, w, sizeof(w));
		return snprintf(buf, len, "%s%u: tun_put_user, %s", who, q, w);
	}
}

static int bqlm_tun_describe_action(const void *ctx, const void *state,
				    unsigned int action, char *buf,
				    size_t len)
{
	const struct bqlm_tun_cfg *cfg = ctx;
	const struct bqlm_tun *tun = state;
	unsigned int arg = BQLM_X_ARG(action);
	unsigned int who = arg / BQLM_SB_DEPTH;
	char e[48];

	switch (BQLM_X_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		return bqlm_tun_describe_xmit(tun, cfg, arg, buf, len);
	case BQLM_TUN_A_READ:
		return bqlm_tun_describe_read(tun, cfg, arg, buf, len);
	case BQLM_TUN_A_FLUSH:
		if (who >= BQLM_TUN_NR_WHO)
			return snprintf(buf, len, "? flush %#x", action);
		bqlm_mm_describe_entry_by(who < BQLM_TUN_MAX_CPUS ?
					  &tun->cpu[who].sb :
					  &tun->rd[who - BQLM_TUN_MAX_CPUS].sb,
					  arg % BQLM_SB_DEPTH,
					  bqlm_tun_var_name, cfg, e, sizeof(e));
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
				tun->detaching - 1, bqlm_tun_bql_on(cfg) ?
				", netdev_tx_reset_queue" : "");
	case BQLM_TUN_A_ATTACH:
		return snprintf(buf, len,
				"admin: TUNSETQUEUE(IFF_ATTACH_QUEUE): tun_attach(q%u)%s",
				tun->numqueues,
				cfg->force_wake & BQLM_TUN_FORCE_ATTACH ?
				", tun_force_wake_queue" :
				bqlm_tun_counts(cfg) ?
				", cons_cnt = 0 [consumer_lock], no wake" : "");
	case BQLM_TUN_A_SET_IFF:
		if (cfg->force_wake & BQLM_TUN_FORCE_SET_IFF)
			return snprintf(buf, len,
					"admin: TUNSETIFF: IFF_BACKPRESSURE %s, tun_force_wake_queue on every queue",
					tun->backpressure ? "off" : "on");
		if (cfg->opt_in)
			return snprintf(buf, len,
					"admin: TUNSETIFF: IFF_BACKPRESSURE %s, netif_tx_wake_all_queues",
					tun->backpressure ? "off" : "on");
		return snprintf(buf, len,
				"admin: TUNSETIFF: netif_tx_wake_all_queues");
	case BQLM_TUN_A_RESIZE:
		return snprintf(buf, len,
				"admin: tx_queue_len = %u: tun_queue_resize: ptr_ring_resize_multiple_bh%s",
				cfg->resize_to,
				cfg->force_wake & BQLM_TUN_FORCE_RESIZE ?
				", tun_force_wake_queue" :
				!bqlm_tun_bql_on(cfg) ? "" :
				cfg->bql_resize == BQLM_TUN_RESIZE_RESET ?
				", netdev_tx_reset_queue" :
				cfg->bql_resize == BQLM_TUN_RESIZE_COMPLETE ?
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
	[BQLM_TUN_X_RECHECK] = "recheck",
	[BQLM_TUN_X_NOTIFY] = "notify",
	[BQLM_TUN_X_REQUEUED] = "requeued",
};

static const char *const bqlm_tun_r_names[BQLM_TUN_NR_R] = {
	[BQLM_TUN_R_IDLE] = "run",
	[BQLM_TUN_R_WAKE] = "wake",
	[BQLM_TUN_R_UNLOCK] = "unlock",
	[BQLM_TUN_R_PUT] = "put",
	[BQLM_TUN_R_POLL] = "poll",
	[BQLM_TUN_R_RCV_END] = "rcv-end",
	[BQLM_TUN_R_COMPLETE] = "complete",
	[BQLM_TUN_R_POLL_END] = "poll-end",
};

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
		if (n < len && bqlm_tun_napi(cfg))
			n += snprintf(buf + n, len - n,
				      "] p%u h%u%s %s%s | ",
				      tq->ring.producer,
				      tq->ring.consumer_head,
				      bqlm_tun_stopped(tun, q) ? " XOFF" : "",
				      tun->rd[q].sleeping ? "napi-idle" :
				      "napi-sched",
				      tun->mem[bqlm_tun_masked_var(cfg, q)] ?
				      " masked" : "");
		else if (n < len)
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
			n += bqlm_mm_describe_sb(&x->sb, "sb",
						 bqlm_tun_var_name, cfg,
						 buf + n, len - n);
		if (n < len)
			n += snprintf(buf + n, len - n, " | ");
	}
	for (q = 0; q < cfg->queues && n < len; q++) {
		n += snprintf(buf + n, len - n, "%s%u %s",
			      bqlm_tun_napi(cfg) ? "napi" : "rd", q,
			      bqlm_tun_r_names[tun->rd[q].phase %
					       BQLM_TUN_NR_R]);
		if (n < len)
			n += bqlm_mm_describe_sb(&tun->rd[q].sb, "sb",
						 bqlm_tun_var_name, cfg,
						 buf + n, len - n);
		if (n < len)
			n += snprintf(buf + n, len - n, " | ");
	}
	if (bqlm_tun_bql_on(cfg) && n < len) {
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
			      bqlm_tun_locked_stop(cfg) ?
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
	unsigned char *bql = bqlm_tun_bql_on(cfg) ?
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

BQLM_DEFINE_XOPS(bqlm_tun, bqlm_tun_check_state, bqlm_tun_canon);

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
 * packets (a bounded run); bqlm_tun_cfg_why() says which is not met.
 *
 * Return: 0, or -EINVAL when @cfg is invalid or beyond those bounds.
 */
int bqlm_tun_system(const struct bqlm_tun_cfg *cfg, struct bqlm_xsys *sys)
{
	if (bqlm_tun_cfg_why(cfg, true, NULL, 0))
		return -EINVAL;
	return bqlm_xsys_fill(sys, "tun", bqlm_tun_state_size(cfg), cfg,
			      &bqlm_tun_xops);
}
