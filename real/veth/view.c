// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real veth.c under the ring-consumer model's schedules:
 * the real state in the model's terms (see harness.h,
 * docs/real-veth.md).
 */
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/skbuff.h>

#include "harness.h"

/**
 * bqlm_rveth_view() - the real state, in the model's terms
 * @u: the harness
 * @v: receives it, bqlm_tun_state_size() bytes
 *
 * Read from the real code: the peer's ring (indices, size, batch, slots as
 * packet ids), the sending txq's DRV_XOFF, the peer NAPI's
 * NAPI_STATE_SCHED (a consumer not scheduled is the model's sleeping
 * one) and rx_notify_masked; from the real code's events as the hooks saw
 * them: where each packet is, how many were sent and read, what each actor
 * is doing (the yield point it is parked at), how many entries the running
 * poll consumed. The model's own bookkeeping the real code has no
 * counterpart of (which packet each slot was last produced with, the
 * raced flags) is kept by the harness from the same events. veth has no
 * ring lock held across steps, no queue file to detach and no
 * IFF_BACKPRESSURE: those stay as the model starts them.
 */
void bqlm_rveth_view(const struct bqlm_rveth *u, struct bqlm_tun *v)
{
	const struct bqlm_tun_cfg *cfg = &u->cfg;
	const struct bqlm_rc_actor *np = &u->rc.actor[RVETH_NAPI0];
	const struct napi_struct *n = u->ops->napi(u->peer, 0);
	struct bqlm_tun *w = v;
	const struct ptr_ring *r = u->ring;
	struct bqlm_ptr_ring *m = &v->q[0].ring;
	unsigned short *slots;
	unsigned int i, pkt;

	bqlm_tun_init(v, cfg);
	slots = bqlm_tun_slot_pkts(v, cfg, 0);
	m->producer = r->producer;
	m->consumer_head = r->consumer_head;
	m->consumer_tail = r->consumer_tail;
	m->size = r->size;
	m->batch = r->batch;
	for (i = 0; i < r->size && i < cfg->ring; i++) {
		v->mem[m->base + i] = bqlm_rveth_pkt_of(u, r->queue[i]);
		slots[i] = u->shadow[i];
	}
	if (bqlm_rveth_stopped(u))
		v->mem[BQLM_TUN_STATE_VAR(0)] = BQLM_TUN_XOFF;
	*bqlm_tun_notify_masked(w, cfg, 0) = READ_ONCE(*u->ops->masked(u->peer,
								       0));
	for (i = 0; i < cfg->cpus; i++) {
		const struct bqlm_rveth_cpu *x = &u->cpu[i];

		v->cpu[i].pkt = x->pkt;
		v->cpu[i].phase = u->rc.actor[RVETH_CPU0 + i].phase;
		v->cpu[i].txq = 0;
		v->cpu[i].ret = x->ret;
		v->cpu[i].raced = x->raced;
	}
	v->rd[0].phase = np->phase;
	v->rd[0].nr = np->busy ? u->nr : 0;
	v->rd[0].sleeping = !test_bit(NAPI_STATE_SCHED, &n->state);
	v->sent = u->sent;
	v->delivered = u->delivered;
	for (pkt = 1; pkt <= cfg->packets; pkt++)
		bqlm_tun_pkt_set_where(v, cfg, pkt, u->where[pkt]);
}

/**
 * bqlm_rveth_audit() - every packet's references after a step
 * @u: the harness
 *
 * The harness holds one, and veth.c one while the packet is handed over,
 * in the ring, or consumed by a poll that has yet to pass it up. Fewer:
 * veth.c freed a packet it still holds (counted lost, as the model counts
 * an overwritten one); more: it kept one it let go of (a harness
 * failure).
 */
void bqlm_rveth_audit(struct bqlm_rveth *u)
{
	unsigned int pkt;

	for (pkt = 1; pkt <= u->cfg.packets; pkt++) {
		bool held = u->where[pkt] == BQLM_TUN_PKT_UNSENT ||
			    u->where[pkt] == BQLM_TUN_PKT_XMIT ||
			    u->where[pkt] == BQLM_TUN_PKT_RING ||
			    u->holding == pkt;

		bqlm_rc_audit_skb(&u->rc, u->skb[pkt], pkt, held, &u->ev);
	}
}
