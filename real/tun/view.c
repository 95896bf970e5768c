// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real tun.c under the model's schedules: the real state in
 * the model's terms (see harness.h, docs/real-tun.md).
 */
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/skbuff.h>

#include "harness.h"

static unsigned int bqlm_rtun_owner(const struct bqlm_rtun *u,
				    const struct bqlm_rc_lock *l)
{
	unsigned int id;

	if (!l->owner)
		return 0;
	id = bqlm_rtun_id(l->owner);
	if (id < RTUN_RD0)
		return id + 1;
	if (id < RTUN_ADMIN)
		return BQLM_TUN_WHO_READER(id - RTUN_RD0) + 1;
	return 0xffff;	/* the administrator never holds one across steps */
}

/**
 * bqlm_rtun_view() - the real state, in the model's terms
 * @u: the harness
 * @v: receives it, bqlm_tun_state_size() bytes
 *
 * Read from the real code: every ring's indices, size, batch and slots
 * (as packet ids), its locks' holders, cons_cnt, whether its tfile is
 * attached, the txq state bits, tun->numqueues and IFF_BACKPRESSURE; from
 * the real code's events as the hooks saw them: where each packet is, how
 * many were sent, read and dropped (and why), what each actor is doing
 * (the yield point it is parked at). The model's own bookkeeping that the
 * real code has no counterpart of (which packet each slot was last
 * produced with, the raced flags, woke_full) is kept by the harness from
 * the same events.
 */
void bqlm_rtun_view(const struct bqlm_rtun *u, struct bqlm_tun *v)
{
	const struct bqlm_tun_cfg *cfg = &u->cfg;
	unsigned int q, i, pkt, cap = bqlm_rtun_cap(cfg);

	bqlm_tun_init(v, cfg);
	for (q = 0; q < cfg->queues; q++) {
		const struct ptr_ring *r = u->ring[q];
		struct bqlm_ptr_ring *m = &v->q[q].ring;
		unsigned short *slots = bqlm_tun_slot_pkts(v, cfg, q);

		m->producer = r->producer;
		m->consumer_head = r->consumer_head;
		m->consumer_tail = r->consumer_tail;
		m->size = r->size;
		m->batch = r->batch;
		for (i = 0; i < r->size && i < cap; i++)
			v->mem[m->base + i] = bqlm_rtun_pkt_of(u, r->queue[i]);
		for (i = 0; i < cap; i++)
			slots[i] = u->shadow[q][i];
		v->q[q].cons_cnt = u->ops->cons_cnt(u->tfile[q]);
		v->q[q].attached = !u->ops->detached(u->tfile[q]);
		v->q[q].woke_full = u->woke_full[q];
		if (bqlm_rtun_stopped(u, q))
			v->mem[BQLM_TUN_STATE_VAR(q)] = BQLM_TUN_XOFF;
		v->mem[BQLM_TUN_PLOCK_VAR(q)] = bqlm_rtun_owner(u, &u->plock[q]);
		v->mem[BQLM_TUN_CLOCK_VAR(q)] = bqlm_rtun_owner(u, &u->clock[q]);
	}
	for (i = 0; i < cfg->cpus; i++) {
		const struct bqlm_rtun_cpu *x = &u->cpu[i];

		v->cpu[i].pkt = x->pkt;
		v->cpu[i].phase = u->rc.actor[RTUN_CPU0 + i].phase;
		v->cpu[i].txq = x->txq;
		v->cpu[i].ret = x->ret;
		v->cpu[i].raced = x->raced;
	}
	for (q = 0; q < cfg->queues; q++) {
		const struct bqlm_rtun_rd *rd = &u->rd[q];

		v->rd[q].phase = u->rc.actor[RTUN_RD0 + q].phase;
		v->rd[q].nr = rd->nr;
		v->rd[q].sleeping = rd->sleeping && !rd->woken;
	}
	v->sent = u->sent;
	v->delivered = u->delivered;
	memcpy(v->drops, u->drops, sizeof(v->drops));
	v->numqueues = u->ops->numqueues(u->dev);
	if (bqlm_rtun_bp(u))
		v->backpressure = !!(u->ops->flags(u->dev) &
				     RTUN_IFF_BACKPRESSURE);
	if (u->rc.actor[RTUN_ADMIN].at == &bqlm_rtun_yields[RTUN_Y_SYNC])
		v->detaching = u->admin_q + 1;
	v->detaches_left = u->detaches_left;
	v->resizes_left = u->resizes_left;
	for (pkt = 1; pkt <= cfg->packets; pkt++)
		bqlm_tun_pkt_set_where(v, cfg, pkt, u->where[pkt]);
}

/**
 * bqlm_rtun_audit() - every packet's references after a step
 * @u: the harness
 *
 * The harness holds one, and tun.c one while the packet is handed over, in
 * a ring, or consumed by a reader that has not finished with it. Fewer:
 * tun.c freed a packet it still holds (counted lost, as the model counts
 * an overwritten one); more: it kept one it let go of (a harness failure).
 */
void bqlm_rtun_audit(struct bqlm_rtun *u)
{
	unsigned int pkt, q;

	for (pkt = 1; pkt <= u->cfg.packets; pkt++) {
		bool held = u->where[pkt] == BQLM_TUN_PKT_UNSENT ||
			    u->where[pkt] == BQLM_TUN_PKT_XMIT ||
			    u->where[pkt] == BQLM_TUN_PKT_RING;

		for (q = 0; q < u->cfg.queues; q++)
			held |= u->rd[q].pkt == pkt &&
				u->rc.actor[RTUN_RD0 + q].busy;
		bqlm_rc_audit_skb(&u->rc, u->skb[pkt], pkt, held, &u->ev);
	}
}
