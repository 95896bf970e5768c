// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real virtio_net.c under the NIC model's schedules: the
 * real state in the model's terms, and its comparison with the model's
 * (see harness.h, docs/real-virtio_net.md).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/sprintf.h>
#include <linux/virtio.h>

#include <bqlm/dql.h>

#include "harness.h"

#define RVNET_STATE_BITS	(BIT(BQLM_QUEUE_STATE_DRV_XOFF) |	\
				 BIT(BQLM_QUEUE_STATE_STACK_XOFF) |	\
				 BIT(BQLM_QUEUE_STATE_FROZEN))

/* Who holds queue pair @q's tx lock, in the model's terms */
static unsigned char bqlm_rvnet_owner(const struct bqlm_rvnet *u,
				      unsigned int q)
{
	const struct bqlm_rc_actor *o = u->q[q].lock.owner;

	if (!o)
		return BQLM_NIC_LOCK_FREE;
	if (o == &u->rc.actor[RVNET_STACK])
		return BQLM_NIC_LOCK_XMIT;
	if (o == &u->rc.actor[RVNET_NAPI0 + q])
		return BQLM_NIC_LOCK_NAPI;
	return BQLM_NIC_NR_LOCK;	/* no one else holds it across steps */
}

static void bqlm_rvnet_view_q(const struct bqlm_rvnet *u, unsigned int q,
			      struct bqlm_nic_queue *nq)
{
	const struct netdev_queue *txq = bqlm_rvnet_txq(u, q);
	const struct napi_struct *n = bqlm_rvnet_has_queues(u) ?
				      u->ops->sq_napi(u->dev, q) : NULL;
	const struct bqlm_rc_actor *np = &u->rc.actor[RVNET_NAPI0 + q];
	const struct bqlm_rvnet_q *rq = &u->q[q];
	const struct dql *r = &txq->dql;
	unsigned int i, index = 2 * q + 1;

#define RVNET_COPY(f)	(nq->txq.dql.f = r->f)
	BQLM_DQL_FIELDS(RVNET_COPY);
#undef RVNET_COPY
	nq->txq.state = txq->state & RVNET_STATE_BITS;
	for (i = 0; i < rq->npkts; i++) {
		nq->pkt[i].done = rq->ring[i].done;
		nq->pkt[i].flags = rq->ring[i].flags;
	}
	nq->npkts = rq->npkts;
	nq->napi = np->busy && np->phase ? np->phase : BQLM_NIC_NAPI_IDLE;
	if (nq->napi != BQLM_NIC_NAPI_IDLE) {
		nq->napi_bytes = rq->napi_bytes;
		nq->napi_pkts = rq->napi_pkts;
		nq->napi_held = rq->napi_held;
	}
	nq->orphan_bytes = rq->orphan_bytes;
	nq->orphans = rq->orphans;
	/*
	 * NAPI_STATE_SCHED and not disabled (napi_disable() holds it); a
	 * NAPI deleted by a freeze is a disabled one
	 */
	if (n) {
		nq->sched = test_bit(NAPI_STATE_SCHED, &n->state) &&
			    !test_bit(NAPI_STATE_NPSVC, &n->state);
		nq->missed = test_bit(NAPI_STATE_MISSED, &n->state);
	}
	nq->lock = bqlm_rvnet_owner(u, q);
	/* a virtqueue in reset has its reset state: callbacks enabled */
	nq->cb_off = u->vdev->q[index].live &&
		     !bqlm_vdev_cb_enabled(u->vdev, index);
}

/**
 * bqlm_rvnet_view() - the real state, in the model's terms
 * @u: the harness
 * @v: receives it
 *
 * Every field of struct bqlm_nic: from the real device, each queue's DQL
 * (its 22 fields) and XOFF bits, its tx NAPI's SCHED and MISSED bits (not
 * while disabled), its send virtqueue's notification suppression, who
 * holds its tx lock, whether its send virtqueue runs and its NAPI is
 * enabled; from the real code's events as the hooks saw them, the packets
 * on each ring in order (used by the device, notified, counted by BQL
 * before or after the last reset), what a running poll holds and reports,
 * the drained packets that BQL still counts; from where each actor is
 * parked, its phase; and the model's own bookkeeping of the outside
 * world, kept by the harness as the model keeps it (the stack's batches,
 * the paths' requests and cycles). trans_start and the qdisc reschedule
 * are left 0: bqlm_rvnet_compare() takes the model's.
 */
void bqlm_rvnet_view(const struct bqlm_rvnet *u, struct bqlm_nic *v)
{
	const struct bqlm_rc_actor *st = &u->rc.actor[RVNET_STACK];
	unsigned int q;

	memset(v, 0, sizeof(*v));
	for (q = 0; q < u->cfg.queues; q++)
		bqlm_rvnet_view_q(u, q, &v->q[q]);
	/* the model's queues the device does not have stay initial */
	for (; q < BQLM_NIC_MAX_QUEUES; q++)
		bqlm_txq_init(&v->q[q].txq, u->cfg.hold_time, u->base);
	v->sent = u->sent;
	v->xmit = st->busy && st->phase ? st->phase : BQLM_NIC_XMIT_IDLE;
	v->xmit_q = u->xmit_q;
	v->xmit_more = st->busy && u->xmit_more;
	/* the doorbell decision of the plain sent call, while over the limit */
	v->kick = v->xmit != BQLM_NIC_XMIT_IDLE;
	v->batch_no = u->batch_no;
	v->batch_pos = u->batch_pos;
	v->path = u->path;
	v->op = u->op;
	v->up = u->up;
	v->closed = u->closed;
	v->suspended = u->suspended;
	v->napi_on = bqlm_rvnet_has_queues(u) &&
		     !test_bit(NAPI_STATE_NPSVC,
			       &u->ops->sq_napi(u->dev, 0)->state);
	v->dma_on = u->vdev->q[1].live;
	memcpy(v->left, u->left, sizeof(v->left));
	/* the packets' length: every packet of the harness is cfg.len */
	v->len = u->cfg.len;
}

/**
 * bqlm_rvnet_compare() - the real state against the model's
 * @u: the harness
 * @model: the model's state
 * @view: the real state (bqlm_rvnet_view()); its trans_start and qdisc
 *	reschedule fields are set to the model's
 * @what: receives the first field that differs
 * @len: its size
 * @real: receives its real value
 * @mval: and the model's
 *
 * The queues' DQL fields and state bits by name, then every byte.
 *
 * Return: true when the states are equal.
 */
bool bqlm_rvnet_compare(const struct bqlm_rvnet *u,
			const struct bqlm_nic *model, struct bqlm_nic *view,
			char *what, size_t len, unsigned long long *real,
			unsigned long long *mval)
{
	const u8 *a = (const u8 *)view, *b = (const u8 *)model;
	unsigned int q;
	size_t i;

	for (q = 0; q < BQLM_NIC_MAX_QUEUES; q++) {
		const struct bqlm_txq *m = &model->q[q].txq;
		struct bqlm_txq *r = &view->q[q].txq;

		r->trans_start = m->trans_start;
		r->sched_pending = m->sched_pending;
		r->sched_count = m->sched_count;
#define RVNET_CMP(f)							\
		do {							\
			if (r->dql.f != m->dql.f && !*what) {		\
				scnprintf(what, len, "q%u dql." #f, q);	\
				*real = r->dql.f;			\
				*mval = m->dql.f;			\
			}						\
		} while (0)
		BQLM_DQL_FIELDS(RVNET_CMP);
#undef RVNET_CMP
		if (r->state != m->state && !*what) {
			scnprintf(what, len, "q%u state bits", q);
			*real = r->state;
			*mval = m->state;
		}
	}
	if (*what)
		return false;
	for (i = 0; i < sizeof(*view) && a[i] == b[i]; i++)
		;
	if (i == sizeof(*view))
		return true;
	scnprintf(what, len, "the states (first at byte %zu)", i);
	*real = a[i];
	*mval = b[i];
	return false;
}
