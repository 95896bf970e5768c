// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real tun.c under the model's schedules: the actors' work,
 * one model action on the real code and the actions the real code enables
 * (see harness.h, docs/real-tun.md).
 */
#include <linux/etherdevice.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/if_tun.h>
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/rtnetlink.h>
#include <linux/skb_array.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/unaligned.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <net/sock.h>

#include "harness.h"

/* ------------------------------------------------------------------ */
/* The actors' work */

/**
 * bqlm_rtun_cap() - the slots a ring keeps with a resize allowed
 * @cfg: the model's configuration
 *
 * Return: the model's cap.
 */
unsigned int bqlm_rtun_cap(const struct bqlm_tun_cfg *cfg)
{
	if (cfg->resizes && cfg->resize_to > cfg->ring)
		return cfg->resize_to;
	return cfg->ring;
}

/* netdev_cap_txqueue() of the queue the model's CPU sends on */
static unsigned int bqlm_rtun_txq_of(const struct bqlm_rtun *u,
				     unsigned int cpu)
{
	unsigned int txq = cpu % u->cfg.queues;

	return txq < u->ops->numqueues(u->dev) ? txq : 0;
}

/**
 * bqlm_rtun_stopped() - is a txq stopped (for the stack)?
 * @u: the harness
 * @txq: the queue
 *
 * Return: netif_xmit_stopped().
 */
bool bqlm_rtun_stopped(const struct bqlm_rtun *u, unsigned int txq)
{
	return netif_xmit_stopped(netdev_get_tx_queue(u->dev, txq));
}

static void bqlm_rtun_cpu_idle(struct bqlm_rtun_cpu *x)
{
	memset(x, 0, sizeof(*x));
}

/* The stack hands the packet over: is tun->tfiles[txq] there, unlocked? */
static bool bqlm_rtun_xmit_ready(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	struct bqlm_rtun_cpu *x = &u->cpu[bqlm_rtun_id(a)];

	if (!u->ops->tfile_of(u->dev, x->txq))
		return true;	/* tun_net_xmit() drops it */
	return bqlm_rtun_plock_free(a);
}

/* The stack of a producer CPU, then tun_net_xmit(). */
static void bqlm_rtun_do_xmit(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int id = bqlm_rtun_id(a), i;
	struct bqlm_rtun_cpu *x = &u->cpu[id];
	unsigned int pkt = ++u->sent;
	struct sk_buff *skb = u->skb[pkt];

	x->txq = bqlm_rtun_txq_of(u, id);
	if (!u->cfg.qdisc && bqlm_rtun_stopped(u, x->txq)) {
		/* __dev_queue_xmit() of noqueue on a stopped queue */
		kfree_skb(skb);
		u->where[pkt] = BQLM_TUN_PKT_DROPPED;
		u->drops[BQLM_TUN_DROP_NOQUEUE]++;
		bqlm_rtun_cpu_idle(x);
		return;
	}
	u->rcu[id]++;		/* the stack's rcu_read_lock_bh() */
	x->pkt = pkt;
	x->ret = 0;
	x->raced = 0;
	for (i = 0; i < u->cfg.cpus; i++)
		if (i != id && u->cpu[i].pkt && u->cpu[i].txq == x->txq)
			x->raced |= BQLM_TUN_RACED_CPU;	/* may fill it first */
	if (u->woke_full[x->txq])
		x->raced |= BQLM_TUN_RACED_RECONFIG;
	u->where[pkt] = BQLM_TUN_PKT_XMIT;
	bqlm_rc_yield(a, &bqlm_rtun_yields[RTUN_Y_STACK], bqlm_rtun_xmit_ready);

	skb_set_queue_mapping(skb, x->txq);
	u->ops->start_xmit(skb, u->dev);
	u->rcu[id]--;
	bqlm_rtun_cpu_idle(x);
}

/* read() on the queue file, blocking: tun_chr_read_iter(). */
static void bqlm_rtun_do_read(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int q = bqlm_rtun_id(a) - RTUN_RD0;
	struct bqlm_rtun_rd *rd = &u->rd[q];
	struct kvec kv = { .iov_base = rd->buf, .iov_len = sizeof(rd->buf) };
	struct iov_iter to;
	struct kiocb iocb;
	ssize_t ret;

	rd->pkt = 0;
	memset(rd->buf, 0, sizeof(rd->buf));
	iov_iter_kvec(&to, ITER_DEST, &kv, 1, sizeof(rd->buf));
	init_sync_kiocb(&iocb, u->file[q]);
	ret = u->ops->read(&iocb, &to);
	if (ret > 0) {
		/* the bytes read are the packet consumed */
		if (ret != RTUN_PKT_LEN ||
		    get_unaligned_be16(rd->buf + ETH_HLEN) != rd->pkt)
			bqlm_rc_fail(&u->rc, -EIO,
				     "rd%u read %zd bytes of pkt %u, consumed pkt %u",
				     q, ret, get_unaligned_be16(rd->buf + ETH_HLEN),
				     rd->pkt);
	} else if (ret != -EFAULT) {
		/* only the teardown's shutdown ends a read without data */
		bqlm_rc_fail(&u->rc, -EIO, "rd%u: read returned %zd", q, ret);
	}
	rd->nr = 0;
}

static void bqlm_rtun_do_detach(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	struct ifreq ifr = { .ifr_flags = IFF_DETACH_QUEUE };
	int ret;

	ret = u->ops->set_queue(u->file[u->admin_q], &ifr);
	if (ret)
		bqlm_rc_fail(&u->rc, ret, "TUNSETQUEUE detach of q%u: %d",
			     u->admin_q, ret);
	u->detached_q = u->admin_q + 1;
	u->detaches_left--;
}

static void bqlm_rtun_do_attach(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	struct ifreq ifr = { .ifr_flags = IFF_ATTACH_QUEUE };
	unsigned int q = u->admin_q;
	int ret;

	ret = u->ops->set_queue(u->file[q], &ifr);
	if (ret)
		bqlm_rc_fail(&u->rc, ret, "TUNSETQUEUE attach of q%u: %d", q,
			     ret);
	u->detached_q = 0;
	if (!bqlm_rtun_bp(u))
		return;
	/* tun_force_wake_queue() ran under both ring locks */
	u->woke_full[q] = __ptr_ring_full(u->ring[q]);
	bqlm_rtun_raced(u, q, NULL, BQLM_TUN_RACED_RECONFIG);
	if (bqlm_rtun_stopped(u, q) || u->ops->cons_cnt(u->tfile[q]))
		u->ev.reconfig_stopped++;
}

/*
 * A tx_queue_len change: tun_queue_resize() re-sizes every queue file's
 * ring (ptr_ring_resize_multiple_bh(): the entries that do not fit are
 * freed) and, with backpressure, wakes every attached queue by force.
 */
static void bqlm_rtun_do_resize(struct bqlm_rc_actor *a)
{
	struct bqlm_rtun *u = bqlm_rtun_of(a);
	unsigned int q, i, pkt, cap = bqlm_rtun_cap(&u->cfg);
	int ret;

	rtnl_lock();
	u->dev->tx_queue_len = u->cfg.resize_to;
	ret = u->ops->queue_resize(u->dev);
	rtnl_unlock();
	if (ret)
		bqlm_rc_fail(&u->rc, ret, "tun_queue_resize() to %u: %d",
			     u->cfg.resize_to, ret);
	u->resizes_left--;
	for (q = 0; q < u->cfg.queues; q++) {
		const struct ptr_ring *r = u->ring[q];

		bqlm_rtun_raced(u, q, NULL, BQLM_TUN_RACED_RECONFIG);
		/* what the swap did not keep, it freed */
		for (pkt = 1; pkt <= u->cfg.packets; pkt++) {
			bool kept = false;

			if (u->where[pkt] != BQLM_TUN_PKT_RING ||
			    u->pkt_q[pkt] != q)
				continue;
			for (i = 0; i < r->size; i++)
				kept |= r->queue[i] == u->skb[pkt];
			if (!kept) {
				u->where[pkt] = BQLM_TUN_PKT_DROPPED;
				u->drops[BQLM_TUN_DROP_RESIZED]++;
			}
		}
		for (i = 0; i < cap; i++)
			u->shadow[q][i] = i < r->size ?
				bqlm_rtun_pkt_of(u, r->queue[i]) : 0;
	}
	if (!bqlm_rtun_bp(u))
		return;
	for (q = 0; q < u->ops->numqueues(u->dev); q++) {
		u->woke_full[q] = __ptr_ring_full(u->ring[q]);
		if (bqlm_rtun_stopped(u, q) || u->ops->cons_cnt(u->tfile[q]))
			u->ev.reconfig_stopped++;
	}
}

/* ------------------------------------------------------------------ */
/* Model actions on the real code */

/**
 * bqlm_rtun_step() - run one model action on the real code
 * @u: the harness
 * @action: a model action number, BQLM_X_ACTION(kind, argument)
 *
 * Return: 0, -EAGAIN if the actor is parked waiting (nothing run),
 * -EINVAL for an action the real code cannot take now or at all, or the
 * harness error.
 */
int bqlm_rtun_step(struct bqlm_rtun *u, unsigned int action)
{
	unsigned int arg = BQLM_X_ARG(action);
	struct bqlm_rc_actor *act = u->rc.actor;
	int ret;

	memset(&u->ev, 0, sizeof(u->ev));
	switch (BQLM_X_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		if (arg >= u->cfg.cpus ||
		    (!act[RTUN_CPU0 + arg].busy && u->sent >= u->cfg.packets))
			return -EINVAL;
		ret = bqlm_rc_go(&act[RTUN_CPU0 + arg], bqlm_rtun_do_xmit, 0);
		break;
	case BQLM_TUN_A_READ:
		if (arg >= u->cfg.queues)
			return -EINVAL;
		ret = bqlm_rc_go(&act[RTUN_RD0 + arg], bqlm_rtun_do_read, 0);
		break;
	case BQLM_TUN_A_DETACH:
		if (act[RTUN_ADMIN].busy) {
			ret = bqlm_rc_resume(&act[RTUN_ADMIN]);
			break;
		}
		if (!u->detaches_left || u->detached_q ||
		    !u->ops->numqueues(u->dev))
			return -EINVAL;
		u->admin_q = u->ops->numqueues(u->dev) - 1;
		ret = bqlm_rc_start(&act[RTUN_ADMIN], bqlm_rtun_do_detach, 0);
		break;
	case BQLM_TUN_A_ATTACH:
		if (act[RTUN_ADMIN].busy || !u->detached_q)
			return -EINVAL;
		u->admin_q = u->detached_q - 1;
		ret = bqlm_rc_start(&act[RTUN_ADMIN], bqlm_rtun_do_attach, 0);
		break;
	case BQLM_TUN_A_RESIZE:
		if (act[RTUN_ADMIN].busy || !u->resizes_left)
			return -EINVAL;
		ret = bqlm_rc_start(&act[RTUN_ADMIN], bqlm_rtun_do_resize, 0);
		break;
	default:
		return -EINVAL;
	}
	return ret ? ret : u->rc.error;
}

/* tun_force_wake_queue() would wait for a ring lock of queue file @q. */
static bool bqlm_rtun_locked(const struct bqlm_rtun *u, unsigned int q)
{
	return u->plock[q].owner || u->clock[q].owner;
}

/**
 * bqlm_rtun_enabled() - the model actions the real code can take now
 * @u: the harness
 * @actions: receives them, in the model's order
 *
 * An actor that is parked can go on if its condition holds (the lock its
 * next stretch takes is free, its wake-up came, synchronize_net() would
 * return); an idle one can start if the model's bound and the stack let
 * it: a packet left to send on a queue a qdisc would hand it to (noqueue
 * hands it over whatever the state: the stack drops it), a detach left
 * with a queue file attached, a detached queue file to attach (with
 * backpressure, once tun_force_wake_queue() can take its ring locks), a
 * resize left once every ring lock is free.
 *
 * Return: how many.
 */
unsigned int bqlm_rtun_enabled(const struct bqlm_rtun *u,
				      unsigned int *actions)
{
	const struct bqlm_rc_actor *act = u->rc.actor;
	const struct bqlm_rc_actor *adm = &act[RTUN_ADMIN];
	unsigned int n = 0, i;

	for (i = 0; i < u->cfg.cpus; i++) {
		const struct bqlm_rc_actor *a = &act[RTUN_CPU0 + i];

		if (a->busy ? bqlm_rc_runnable(a) :
		    u->sent < u->cfg.packets &&
		    (!u->cfg.qdisc ||
		     !bqlm_rtun_stopped(u, bqlm_rtun_txq_of(u, i))))
			actions[n++] = BQLM_X_ACTION(BQLM_TUN_A_XMIT, i);
	}
	for (i = 0; i < u->cfg.queues; i++) {
		const struct bqlm_rc_actor *a = &act[RTUN_RD0 + i];

		if (!a->busy || bqlm_rc_runnable(a))
			actions[n++] = BQLM_X_ACTION(BQLM_TUN_A_READ, i);
	}
	if (adm->busy ? bqlm_rc_runnable(adm) :
	    u->detaches_left && !u->detached_q && u->ops->numqueues(u->dev))
		actions[n++] = BQLM_X_ACTION(BQLM_TUN_A_DETACH, 0);
	if (!adm->busy && u->detached_q &&
	    (!bqlm_rtun_bp(u) || !bqlm_rtun_locked(u, u->detached_q - 1)))
		actions[n++] = BQLM_X_ACTION(BQLM_TUN_A_ATTACH, 0);
	/* ptr_ring_resize_multiple_bh() takes every ring's locks */
	for (i = 0; i < u->cfg.queues && !bqlm_rtun_locked(u, i); i++)
		;
	if (!adm->busy && u->resizes_left && i == u->cfg.queues)
		actions[n++] = BQLM_X_ACTION(BQLM_TUN_A_RESIZE, 0);
	return n;
}


/**
 * bqlm_rtun_parked_at() - where the actor of a model action is parked
 * @u: the harness
 * @action: the action
 *
 * Return: the yield point's name, "idle" or "running".
 */
const char *bqlm_rtun_parked_at(const struct bqlm_rtun *u,
				unsigned int action)
{
	unsigned int arg = BQLM_X_ARG(action);
	const struct bqlm_rc_actor *a;

	switch (BQLM_X_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		a = &u->rc.actor[RTUN_CPU0 + (arg % BQLM_TUN_MAX_CPUS)];
		break;
	case BQLM_TUN_A_READ:
		a = &u->rc.actor[RTUN_RD0 + (arg % BQLM_TUN_MAX_QUEUES)];
		break;
	default:
		a = &u->rc.actor[RTUN_ADMIN];
		break;
	}
	return bqlm_rc_parked_at(a);
}

