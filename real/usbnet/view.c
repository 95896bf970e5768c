// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real usbnet.c under the model's schedules: the real state
 * in the model's terms, and its comparison with the model's (see
 * harness.h, docs/real-usbnet.md).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>

#include <bqlm/dql.h>

#include "harness.h"

/*
 * The model's phase of a busy actor: where it is parked. An actor parked
 * where its model has no phase (idle is not a phase of a busy actor) is
 * @nowhere.
 */
static unsigned char bqlm_rusbnet_phase(const struct bqlm_rc_actor *a,
					unsigned char nowhere)
{
	return a->phase ? a->phase : nowhere;
}

/* The phase of a bh context (idle; a run parked out of the loop's end) */
static unsigned char bqlm_rusbnet_bh_phase(const struct bqlm_rc_actor *a)
{
	if (!a->busy)
		return BQLM_USBNET_BH_IDLE;
	return bqlm_rusbnet_phase(a, BQLM_USBNET_BH_LOOP);
}

/* The disconnect's step (enum bqlm_usbnet_unplug), from its actor's marks */
static unsigned char bqlm_rusbnet_unplug(const struct bqlm_rusbnet *u)
{
	const struct bqlm_rc_actor *d = &u->rc.actor[RUSBNET_DISCONNECT];

	if (u->gone)
		return BQLM_USBNET_GONE;
	if (!d->busy)
		return BQLM_USBNET_ATTACHED;
	if (d->mark & RUSBNET_M_KILLED)
		return BQLM_USBNET_KILLED;
	if (d->mark & RUSBNET_M_UNREGISTERED)
		return BQLM_USBNET_UNREGISTERED;
	if (d->mark & RUSBNET_M_CLOSING)
		return BQLM_USBNET_UNREGISTER;
	return BQLM_USBNET_UNPLUGGED;
}

/* ifdown's step, or that of the disconnect's usbnet_stop() */
static unsigned char bqlm_rusbnet_admin(const struct bqlm_rusbnet *u)
{
	const struct bqlm_rc_actor *a = &u->rc.actor[RUSBNET_IFDOWN];

	if (bqlm_rusbnet_unplug(u) == BQLM_USBNET_UNREGISTER)
		a = &u->rc.actor[RUSBNET_DISCONNECT];
	if (!a->busy)
		return netif_running(u->net) ? BQLM_USBNET_UP :
					       BQLM_USBNET_DOWN;
	return bqlm_rusbnet_phase(a, BQLM_USBNET_NR_ADMIN);
}

static unsigned char bqlm_rusbnet_pm(const struct bqlm_rusbnet *u)
{
	const struct bqlm_rc_actor *s = &u->rc.actor[RUSBNET_SUSPEND];

	if (u->rc.actor[RUSBNET_RESUME].busy)
		return BQLM_USBNET_PM_RESUMING;
	if (!s->busy)
		return u->suspended ? BQLM_USBNET_SUSPENDED : BQLM_USBNET_AWAKE;
	/* the usbnet_resume() of a minidriver's suspend() that failed */
	if (s->phase == BQLM_USBNET_PM_RESUMING)
		return BQLM_USBNET_PM_UNDO;
	return bqlm_rusbnet_phase(s, BQLM_USBNET_NR_PM);
}

/**
 * bqlm_rusbnet_view() - the real state, in the model's terms
 * @u: the harness
 * @m: receives it, bqlm_usbnet_size() bytes
 *
 * Every field of struct bqlm_usbnet, read from the real device: the
 * queue's DQL and state bits, dev->txq, dev->done (in its order), the
 * event flags, netif_running() and netif_device_present(), the pending
 * bottom halves, and each actor's phase from where its thread is parked;
 * the skbs from the fake host controller. trans_start and the qdisc
 * reschedule are left 0: the model keeps neither as the kernel does.
 */
void bqlm_rusbnet_view(const struct bqlm_rusbnet *u, struct bqlm_usbnet *m)
{
	const struct bqlm_rc_actor *st = bqlm_rusbnet_xmitter(u);
	unsigned long flags = READ_ONCE(*u->v.flags);
	const struct dql *r = &u->txq->dql;
	struct sk_buff *skb;
	unsigned int i, len, prev = 0;

	memset(m, 0, bqlm_usbnet_size(&u->cfg));
#define RUSBNET_COPY(f)	(m->txq.dql.f = r->f)
	BQLM_DQL_FIELDS(RUSBNET_COPY);
#undef RUSBNET_COPY
	m->txq.state = u->txq->state & (BIT(BQLM_QUEUE_STATE_DRV_XOFF) |
					BIT(BQLM_QUEUE_STATE_STACK_XOFF) |
					BIT(BQLM_QUEUE_STATE_FROZEN));
	for (i = 0; i < BQLM_USBNET_NR_BH; i++) {
		const struct bqlm_rc_actor *a = &u->rc.actor[RUSBNET_BH_WORK + i];

		m->bh[i].phase = bqlm_rusbnet_bh_phase(a);
		if (a->busy) {
			m->bh[i].bytes = a->count;
			m->bh[i].pkts = u->bh_pkts[i];
		}
	}
	m->bh[BQLM_USBNET_BH_WORK].pending = u->work_pending;
	m->bh[BQLM_USBNET_BH_TIMER].pending = u->timer_pending;
	m->xmit = st->busy ? bqlm_rusbnet_phase(st, BQLM_USBNET_NR_XMIT) :
			     BQLM_USBNET_XMIT_IDLE;
	if (m->xmit == BQLM_USBNET_XMIT_FIXED)
		m->xmit_len = u->xmit_len;
	else if (m->xmit == BQLM_USBNET_XMIT_XOFF ||
		 m->xmit == BQLM_USBNET_XMIT_RECHECK)
		m->xmit_skb = u->last_slot;
	m->xmit_ncm = u->rc.actor[RUSBNET_NCM].busy;
	m->agg_cnt = bqlm_rusbnet_pending(u, &len);
	m->agg_len = len;
	m->nr_skbs = u->nr_slots;
	for (i = 0; i < u->nr_slots; i++) {
		m->skb[i].len = u->slot[i].len;
		m->skb[i].where = u->slot[i].where;
		m->skb[i].flags = u->slot[i].flags;
	}
	skb_queue_walk(u->v.done, skb) {
		int k = bqlm_rusbnet_slot_of(u, ((struct skb_data *)skb->cb)->urb);

		if (k < 0)
			continue;
		if (prev)
			m->skb[prev - 1].next = k + 1;
		else
			m->done_head = k + 1;
		prev = k + 1;
	}
	m->done_tail = prev;
	m->nr_done = skb_queue_len(u->v.done);
	m->nr_txq = skb_queue_len(u->v.txq);
	m->nr_pkts = u->pkts;
	m->admin = bqlm_rusbnet_admin(u);
	m->unplug = bqlm_rusbnet_unplug(u);
	m->pm = bqlm_rusbnet_pm(u);
	if (flags & BIT(EVENT_TX_HALT))
		m->flags |= BQLM_USBNET_EVENT_TX_HALT;
	if (flags & BIT(EVENT_DEV_ASLEEP))
		m->flags |= BQLM_USBNET_EVENT_DEV_ASLEEP;
	if (flags & BIT(EVENT_DEV_OPEN))
		m->flags |= BQLM_USBNET_EVENT_DEV_OPEN;
	if (flags & BIT(EVENT_LINK_CHANGE))
		m->flags |= BQLM_USBNET_EVENT_LINK_CHANGE;
	if (flags & BIT(EVENT_LINK_CARRIER_ON))
		m->flags |= BQLM_USBNET_EVENT_LINK_CARRIER_ON;
	if (flags & BIT(EVENT_LINK_RESET))
		m->flags |= BQLM_USBNET_EVENT_LINK_RESET;
	m->running = netif_running(u->net);
	m->carrier = netif_carrier_ok(u->net);
	m->links_left = u->links_left;
	m->link_downs_left = u->link_downs_left;
	/* the link of the last report, which the fake device's PHY has */
	m->link = !u->hcd.link_down;
	/* TX_QLEN(dev) as the real device has it: 0xff when neither */
	if (*u->v.tx_qlen == u->cfg.tx_qlen)
		m->mtu_changed = 0;
	else if (u->cfg.mtu_qlen && *u->v.tx_qlen == u->cfg.mtu_qlen)
		m->mtu_changed = 1;
	else
		m->mtu_changed = 0xff;
	m->present = netif_device_present(u->net);
	m->kevent = u->kevent_pending;
	m->stops_left = u->stops_left;
	m->suspends_left = u->suspends_left;
	m->timeouts_left = u->timeouts_left;
	m->suspend_count = *u->v.suspend_count;
}

/* Which actors of the harness the model has in the middle of their work */
static void bqlm_rusbnet_model_busy(const struct bqlm_rusbnet *u,
				    const struct bqlm_usbnet *m, bool *busy)
{
	unsigned int i;

	memset(busy, 0, sizeof(bool) * BQLM_RC_MAX_ACTORS);
	busy[RUSBNET_STACK] = m->xmit != BQLM_USBNET_XMIT_IDLE && !m->xmit_ncm;
	busy[RUSBNET_NCM] = m->xmit != BQLM_USBNET_XMIT_IDLE && m->xmit_ncm;
	busy[RUSBNET_BH_WORK] = m->bh[BQLM_USBNET_BH_WORK].phase != BQLM_USBNET_BH_IDLE;
	busy[RUSBNET_BH_TIMER] = m->bh[BQLM_USBNET_BH_TIMER].phase != BQLM_USBNET_BH_IDLE;
	busy[RUSBNET_DISCONNECT] = m->unplug != BQLM_USBNET_ATTACHED &&
				   m->unplug != BQLM_USBNET_GONE;
	busy[RUSBNET_IFDOWN] = m->admin != BQLM_USBNET_UP &&
			       m->admin != BQLM_USBNET_DOWN &&
			       m->unplug != BQLM_USBNET_UNREGISTER;
	busy[RUSBNET_SUSPEND] = m->pm == BQLM_USBNET_PM_DETACHED ||
				m->pm == BQLM_USBNET_PM_WAIT ||
				m->pm == BQLM_USBNET_PM_UNDO;
	busy[RUSBNET_RESUME] = m->pm == BQLM_USBNET_PM_RESUMING;
	for (i = 0; i < m->nr_skbs && RUSBNET_USB0 + i < u->rc.nr_actors; i++)
		busy[RUSBNET_USB0 + i] = m->skb[i].where == BQLM_USBNET_SKB_COMPLETED;
}

struct bqlm_rusbnet_diff {
	const char *what;
	unsigned long long real;
	unsigned long long model;
};

/* Note the first of the fields that differ. */
static void bqlm_rusbnet_cmp(struct bqlm_rusbnet_diff *d, const char *what,
			     unsigned long long real, unsigned long long model)
{
	if (d->what || real == model)
		return;
	d->what = what;
	d->real = real;
	d->model = model;
}

/*
 * The 22 fields of struct dql, both XOFF bits, dev->txq and dev->done
 * lengths, EVENT_TX_HALT, EVENT_DEV_ASLEEP, EVENT_DEV_OPEN,
 * EVENT_LINK_CHANGE, netif_running(), netif_device_present(),
 * netif_carrier_ok(), the three pending bottom
 * halves, dev->suspend_count, and which actors are in the middle of their work: read from the
 * real objects, not from the view.
 */
static void bqlm_rusbnet_cmp_real(struct bqlm_rusbnet_diff *d,
				  const struct bqlm_rusbnet *u,
				  const struct bqlm_usbnet *m)
{
	const struct dql *r = &u->txq->dql;
	unsigned long flags = READ_ONCE(*u->v.flags);
	bool mb[BQLM_RC_MAX_ACTORS];
	unsigned int i;

#define RUSBNET_CMP_DQL(f)	bqlm_rusbnet_cmp(d, "dql." #f, r->f, m->txq.dql.f)
	BQLM_DQL_FIELDS(RUSBNET_CMP_DQL);
#undef RUSBNET_CMP_DQL
	bqlm_rusbnet_cmp(d, "DRV_XOFF",
			 test_bit(__QUEUE_STATE_DRV_XOFF, &u->txq->state),
			 !!(m->txq.state & BIT(BQLM_QUEUE_STATE_DRV_XOFF)));
	bqlm_rusbnet_cmp(d, "STACK_XOFF",
			 test_bit(__QUEUE_STATE_STACK_XOFF, &u->txq->state),
			 !!(m->txq.state & BIT(BQLM_QUEUE_STATE_STACK_XOFF)));
	bqlm_rusbnet_cmp(d, "dev->txq.qlen", skb_queue_len(u->v.txq),
			 m->nr_txq);
	bqlm_rusbnet_cmp(d, "dev->done.qlen", skb_queue_len(u->v.done),
			 m->nr_done);
	bqlm_rusbnet_cmp(d, "EVENT_TX_HALT", !!(flags & BIT(EVENT_TX_HALT)),
			 !!(m->flags & BQLM_USBNET_EVENT_TX_HALT));
	bqlm_rusbnet_cmp(d, "EVENT_DEV_ASLEEP",
			 !!(flags & BIT(EVENT_DEV_ASLEEP)),
			 !!(m->flags & BQLM_USBNET_EVENT_DEV_ASLEEP));
	bqlm_rusbnet_cmp(d, "EVENT_DEV_OPEN", !!(flags & BIT(EVENT_DEV_OPEN)),
			 !!(m->flags & BQLM_USBNET_EVENT_DEV_OPEN));
	bqlm_rusbnet_cmp(d, "EVENT_LINK_CHANGE",
			 !!(flags & BIT(EVENT_LINK_CHANGE)),
			 !!(m->flags & BQLM_USBNET_EVENT_LINK_CHANGE));
	bqlm_rusbnet_cmp(d, "EVENT_LINK_CARRIER_ON",
			 !!(flags & BIT(EVENT_LINK_CARRIER_ON)),
			 !!(m->flags & BQLM_USBNET_EVENT_LINK_CARRIER_ON));
	bqlm_rusbnet_cmp(d, "EVENT_LINK_RESET",
			 !!(flags & BIT(EVENT_LINK_RESET)),
			 !!(m->flags & BQLM_USBNET_EVENT_LINK_RESET));
	bqlm_rusbnet_cmp(d, "netif_carrier_ok", netif_carrier_ok(u->net),
			 m->carrier);
	bqlm_rusbnet_cmp(d, "netif_running", netif_running(u->net),
			 m->running);
	bqlm_rusbnet_cmp(d, "netif_device_present",
			 netif_device_present(u->net), m->present);
	bqlm_rusbnet_cmp(d, "bh work pending", u->work_pending,
			 m->bh[BQLM_USBNET_BH_WORK].pending);
	bqlm_rusbnet_cmp(d, "dev->delay pending", u->timer_pending,
			 m->bh[BQLM_USBNET_BH_TIMER].pending);
	bqlm_rusbnet_cmp(d, "kevent pending", u->kevent_pending, m->kevent);
	bqlm_rusbnet_cmp(d, "dev->suspend_count", *u->v.suspend_count,
			 m->suspend_count);
	bqlm_rusbnet_model_busy(u, m, mb);
	for (i = 0; i < u->rc.nr_actors; i++)
		bqlm_rusbnet_cmp(d, bqlm_rusbnet_names[i], u->rc.actor[i].busy,
				 mb[i]);
}

/* Every other field of the model's state, from the view */
static void bqlm_rusbnet_cmp_view(struct bqlm_rusbnet_diff *d,
				  const struct bqlm_usbnet *m,
				  const struct bqlm_usbnet *view)
{
	unsigned int i;

	bqlm_rusbnet_cmp(d, "xmit phase", view->xmit, m->xmit);
	bqlm_rusbnet_cmp(d, "xmit_len", view->xmit_len, m->xmit_len);
	bqlm_rusbnet_cmp(d, "xmit_skb", view->xmit_skb, m->xmit_skb);
	bqlm_rusbnet_cmp(d, "admin (ifdown step)", view->admin, m->admin);
	bqlm_rusbnet_cmp(d, "pm (suspend/resume step)", view->pm, m->pm);
	bqlm_rusbnet_cmp(d, "unplug (disconnect step)", view->unplug,
			 m->unplug);
	for (i = 0; i < BQLM_USBNET_NR_BH; i++) {
		bqlm_rusbnet_cmp(d, "bh phase", view->bh[i].phase,
				 m->bh[i].phase);
		bqlm_rusbnet_cmp(d, "bh bytes", view->bh[i].bytes,
				 m->bh[i].bytes);
		bqlm_rusbnet_cmp(d, "bh pkts", view->bh[i].pkts, m->bh[i].pkts);
	}
	bqlm_rusbnet_cmp(d, "packets sent", view->nr_pkts, m->nr_pkts);
	bqlm_rusbnet_cmp(d, "skbs", view->nr_skbs, m->nr_skbs);
	bqlm_rusbnet_cmp(d, "dev->done head", view->done_head, m->done_head);
	bqlm_rusbnet_cmp(d, "dev->done tail", view->done_tail, m->done_tail);
	for (i = 0; i < m->nr_skbs; i++) {
		bqlm_rusbnet_cmp(d, "skb.len", view->skb[i].len, m->skb[i].len);
		bqlm_rusbnet_cmp(d, "skb.where", view->skb[i].where,
				 m->skb[i].where);
		bqlm_rusbnet_cmp(d, "skb.flags", view->skb[i].flags,
				 m->skb[i].flags);
		bqlm_rusbnet_cmp(d, "skb.next", view->skb[i].next,
				 m->skb[i].next);
	}
	bqlm_rusbnet_cmp(d, "ifdowns left", view->stops_left, m->stops_left);
	bqlm_rusbnet_cmp(d, "suspends left", view->suspends_left,
			 m->suspends_left);
	bqlm_rusbnet_cmp(d, "timeouts left", view->timeouts_left,
			 m->timeouts_left);
	bqlm_rusbnet_cmp(d, "link reports left", view->links_left,
			 m->links_left);
	bqlm_rusbnet_cmp(d, "link-down reports left", view->link_downs_left,
			 m->link_downs_left);
	bqlm_rusbnet_cmp(d, "the link of the last report", view->link,
			 m->link);
	bqlm_rusbnet_cmp(d, "TX_QLEN changed (usbnet_change_mtu)",
			 view->mtu_changed, m->mtu_changed);
}

/**
 * bqlm_rusbnet_compare() - the real state against the model's
 * @u: the harness
 * @m: the model's state after the same steps
 * @view: bqlm_rusbnet_view() of the real state, bqlm_usbnet_size() bytes
 * @what: receives the name of the first field that differs
 * @real: its real value
 * @model: its model value
 *
 * Field by field, first from the real objects, then from @view; then,
 * trans_start and the reschedule counters aside, byte by byte.
 *
 * Return: true when all are equal.
 */
bool bqlm_rusbnet_compare(const struct bqlm_rusbnet *u,
			  const struct bqlm_usbnet *m, struct bqlm_usbnet *view,
			  const char **what, unsigned long long *real,
			  unsigned long long *model)
{
	struct bqlm_rusbnet_diff d = { .what = NULL };
	unsigned int i;

	bqlm_rusbnet_cmp_real(&d, u, m);
	if (!d.what)
		bqlm_rusbnet_cmp_view(&d, m, view);
	if (!d.what) {
		view->txq.trans_start = m->txq.trans_start;
		view->txq.sched_pending = m->txq.sched_pending;
		view->txq.sched_count = m->txq.sched_count;
		for (i = 0; i < bqlm_usbnet_size(&u->cfg); i++)
			if (((const u8 *)view)[i] != ((const u8 *)m)[i]) {
				d.what = "struct bqlm_usbnet (byte)";
				d.real = i;
				d.model = i;
				break;
			}
	}
	if (!d.what)
		return true;
	*what = d.what;
	*real = d.real;
	*model = d.model;
	return false;
}
