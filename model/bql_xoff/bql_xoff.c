// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the BQL XOFF protocol over store buffers (see
 * <bqlm/bql_xoff.h>): netdev_tx_sent_queue() and
 * netdev_tx_completed_queue() of include/linux/netdevice.h, cut into the
 * steps between which the other CPU can run, every access to num_queued,
 * adj_limit and the queue state word through the CPU's view of memory.
 *
 * Packets go to the device at dql_queued() time; the completer completes
 * one at a time. A stall is a quiescent state (producer idle, nothing in
 * flight, buffers drained) with STACK_XOFF set. The explorer's view is in
 * bql_xoff_xsys.c.
 */
#include "bqlm_internal.h"
#include <bqlm/bql_xoff.h>
#include <bqlm/netdevice.h>
#include "bql_xoff_internal.h"

/**
 * bqlm_xoff_init() - nothing sent, adj_limit = limit, queue running
 * @s: receives the state
 * @cfg: the configuration
 */
void bqlm_xoff_init(struct bqlm_xoff *s, const struct bqlm_xoff_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	s->mem.v[BQLM_XOFF_VAR_ADJ] = cfg->limit;
}

/**
 * bqlm_xoff_stopped() - STACK_XOFF as memory holds it
 * @s: the state
 *
 * Return: true if the bit is set in memory.
 */
bool bqlm_xoff_stopped(const struct bqlm_xoff *s)
{
	return s->mem.v[BQLM_XOFF_VAR_STATE] & BQLM_XOFF_BIT;
}

static void bqlm_xoff_view(struct bqlm_xoff *s, const struct bqlm_xoff_cfg *cfg,
			   struct bqlm_sb *sb, struct bqlm_mm_cpu *c)
{
	c->kind = cfg->mm;
	c->mem = s->mem.v;
	c->sb = sb;
}

/* dql_avail(): READ_ONCE(adj_limit) - READ_ONCE(num_queued), as a CPU sees */
static int bqlm_xoff_avail(const struct bqlm_mm_cpu *c)
{
	return (int)bqlm_mm_load(c, BQLM_XOFF_VAR_ADJ) -
	       (int)bqlm_mm_load(c, BQLM_XOFF_VAR_QUEUED);
}

/**
 * bqlm_xoff_netdev_tx_sent_queue() - the producer's next step
 * @s: the state
 * @cfg: the configuration
 *
 * Idle: the qdisc hands over a packet, dql_queued() stores num_queued,
 * the device gets the packet, dql_avail() is read; over the limit the
 * next step sets STACK_XOFF (after smp_mb__before_atomic(), which drains
 * the buffer under the LKMM models), and the one after runs smp_mb()
 * (unless @cfg drops it: --no-barrier, --no-mb sent) and the re-check.
 *
 * Return: 0, -EAGAIN while the queue is stopped, -EINVAL when every packet
 * was sent.
 */
int bqlm_xoff_netdev_tx_sent_queue(struct bqlm_xoff *s,
				   const struct bqlm_xoff_cfg *cfg)
{
	struct bqlm_mm_cpu c;

	if (s->pphase == BQLM_XOFF_IDLE && s->sent >= cfg->packets)
		return -EINVAL;
	if (!bqlm_xoff_can_send(s, cfg))
		return -EAGAIN;
	bqlm_xoff_view(s, cfg, &s->psb, &c);
	switch (s->pphase) {
	case BQLM_XOFF_IDLE:
		s->queued += cfg->len;
		bqlm_mm_store(&c, BQLM_XOFF_VAR_QUEUED, s->queued);
		s->sent++;
		if (bqlm_xoff_avail(&c) < 0)
			s->pphase = BQLM_XOFF_SET;
		return 0;
	case BQLM_XOFF_SET:
		bqlm_mm_mb_after_atomic(&c);	/* smp_mb__before_atomic() */
		bqlm_mm_set_bits(&c, BQLM_XOFF_VAR_STATE, BQLM_XOFF_BIT);
		s->pphase = BQLM_XOFF_RECHECK;
		return 0;
	default:
		if (bqlm_xoff_mb(cfg, true))
			bqlm_mm_mb(&c);
		if (bqlm_xoff_avail(&c) >= 0)
			bqlm_mm_clear_bits(&c, BQLM_XOFF_VAR_STATE,
					   BQLM_XOFF_BIT);
		s->pphase = BQLM_XOFF_IDLE;
		return 0;
	}
}

/**
 * bqlm_xoff_netdev_tx_completed_queue() - the completer's next step
 * @s: the state
 * @cfg: the configuration
 *
 * Idle: one packet completes, dql_completed() stores adj_limit = limit +
 * num_completed. Next step: smp_mb() (unless @cfg drops it: --no-barrier,
 * --no-mb completed), dql_avail(), and if there is room
 * test_and_clear_bit(STACK_XOFF) (a full barrier in every model), which
 * reschedules the queue when the bit was set.
 *
 * Return: 0, or -EINVAL when nothing is in flight.
 */
int bqlm_xoff_netdev_tx_completed_queue(struct bqlm_xoff *s,
					const struct bqlm_xoff_cfg *cfg)
{
	struct bqlm_mm_cpu c;

	if (!bqlm_xoff_can_complete(s))
		return -EINVAL;
	bqlm_xoff_view(s, cfg, &s->csb, &c);
	if (s->cphase == BQLM_XOFF_IDLE) {
		s->done++;
		s->completed += cfg->len;
		bqlm_mm_store(&c, BQLM_XOFF_VAR_ADJ, cfg->limit + s->completed);
		s->cphase = BQLM_XOFF_WAKE;
		return 0;
	}
	if (bqlm_xoff_mb(cfg, false))
		bqlm_mm_mb(&c);
	if (bqlm_xoff_avail(&c) >= 0 &&
	    bqlm_mm_test_and_clear_bits(&c, BQLM_XOFF_VAR_STATE,
					BQLM_XOFF_BIT))
		s->scheduled++;
	s->cphase = BQLM_XOFF_IDLE;
	return 0;
}
