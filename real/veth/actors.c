// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real veth.c under the ring-consumer model's schedules:
 * the actors' work, one model action on the real code and the actions
 * the real code enables (see harness.h, docs/real-veth.md).
 */
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "harness.h"

/*
 * A packet passes the qdisc: who may fill the ring before it (another CPU
 * with a packet in veth_xmit(), not one whose packet the qdisc keeps).
 */
static void bqlm_rveth_begin(struct bqlm_rveth *u, unsigned int id)
{
	unsigned int i;

	u->cpu[id].ret = 0;
	u->cpu[id].raced = 0;
	for (i = 0; i < u->cfg.cpus; i++) {
		const struct bqlm_rc_actor *a = &u->rc.actor[RVETH_CPU0 + i];

		if (i != id && u->cpu[i].pkt &&
		    a->at != &bqlm_rveth_yields[RVETH_Y_REQUEUED])
			u->cpu[id].raced |= BQLM_TUN_RACED_CPU;
	}
}

/* The qdisc hands a packet over again once the txq runs. */
static bool bqlm_rveth_txq_runs(struct bqlm_rc_actor *a)
{
	return !bqlm_rveth_stopped(bqlm_rveth_of(a));
}

/*
 * The stack of a producer CPU: the qdisc's check, veth_xmit() (LLTX: no tx
 * lock), and after NETDEV_TX_BUSY the qdisc keeping the packet until the
 * txq runs, then handing it over again.
 */
static void bqlm_rveth_do_xmit(struct bqlm_rc_actor *a)
{
	struct bqlm_rveth *u = bqlm_rveth_of(a);
	unsigned int id = bqlm_rveth_id(a) - RVETH_CPU0;
	struct bqlm_rveth_cpu *x = &u->cpu[id];
	unsigned int pkt = ++u->sent;
	struct sk_buff *skb = u->skb[pkt];
	netdev_tx_t ret;

	x->pkt = pkt;
	u->where[pkt] = BQLM_TUN_PKT_XMIT;
	bqlm_rveth_begin(u, id);
	for (;;) {
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_STACK], NULL);
		skb_set_queue_mapping(skb, 0);
		u->rcu[bqlm_rveth_id(a)]++;	/* the stack's rcu_read_lock_bh() */
		ret = u->ops->start_xmit(skb, u->dev);
		u->rcu[bqlm_rveth_id(a)]--;
		if (ret != NETDEV_TX_BUSY)
			break;
		/* dev_requeue_skb(): the qdisc keeps it */
		x->ret = 0;
		x->raced = 0;
		bqlm_rc_yield(a, &bqlm_rveth_yields[RVETH_Y_REQUEUED],
			      bqlm_rveth_txq_runs);
		bqlm_rveth_begin(u, id);
	}
	if (ret != NETDEV_TX_OK)
		bqlm_rc_fail(&u->rc, -EIO, "veth_xmit(pkt %u) returned %d",
			     pkt, ret);
	memset(x, 0, sizeof(*x));
}

/**
 * bqlm_rveth_do_poll() - the NAPI actor's work: the peer's scheduled poll,
 *	as net_rx_action() runs it (its bpf_net_context set, the NAPI's
 *	weight its budget)
 * @a: the actor
 *
 * A poll that used its whole budget stays scheduled: net_rx_action() polls
 * it again (pending).
 */
void bqlm_rveth_do_poll(struct bqlm_rc_actor *a)
{
	struct bqlm_rveth *u = bqlm_rveth_of(a);
	struct napi_struct *n = u->ops->napi(u->peer, 0);
	struct bpf_net_context __bpf_net_ctx, *bpf_net_ctx;
	int work = 0;

	u->pending = false;
	u->nr = 0;

	bpf_net_ctx = bpf_net_ctx_set(&__bpf_net_ctx);
	u->rcu[bqlm_rveth_id(a)]++;	/* net_rx_action()'s softirq: RCU-bh */
	if (test_bit(NAPI_STATE_SCHED, &n->state))
		work = n->poll(n, n->weight);
	u->rcu[bqlm_rveth_id(a)]--;
	bpf_net_ctx_clear(bpf_net_ctx);
	if (work >= n->weight && test_bit(NAPI_STATE_SCHED, &n->state))
		u->pending = true;
	u->nr = 0;
	u->holding = 0;
}

/**
 * bqlm_rveth_step() - run one model action on the real code
 * @u: the harness
 * @action: a model action number (BQLM_X_ACTION())
 *
 * Return: 0, -EAGAIN if the actor is parked waiting (nothing run),
 * -EINVAL for an action the real code cannot take now or at all, or the
 * harness error.
 */
int bqlm_rveth_step(struct bqlm_rveth *u, unsigned int action)
{
	unsigned int arg = BQLM_X_ARG(action);
	struct bqlm_rc_actor *act = u->rc.actor;
	int ret;

	memset(&u->ev, 0, sizeof(u->ev));
	switch (BQLM_X_KIND(action)) {
	case BQLM_TUN_A_XMIT:
		if (arg >= u->cfg.cpus ||
		    (!act[RVETH_CPU0 + arg].busy &&
		     (u->sent >= u->cfg.packets || bqlm_rveth_stopped(u))))
			return -EINVAL;
		ret = bqlm_rc_go(&act[RVETH_CPU0 + arg], bqlm_rveth_do_xmit, 0);
		break;
	case BQLM_TUN_A_READ:
		if (arg || (!act[RVETH_NAPI0].busy && !u->pending))
			return -EINVAL;
		ret = bqlm_rc_go(&act[RVETH_NAPI0], bqlm_rveth_do_poll, 0);
		break;
	default:
		return -EINVAL;
	}
	return ret ? ret : u->rc.error;
}

/**
 * bqlm_rveth_enabled() - the model actions the real code can take now
 * @u: the harness
 * @actions: receives them, in the model's order
 *
 * A CPU can start when a packet is left and the qdisc would hand it over
 * (the txq not stopped), go on when its condition holds (the packet the
 * qdisc keeps: the txq runs again); the poll when the peer's NAPI is
 * scheduled, or to go on with a poll in progress.
 *
 * Return: how many.
 */
unsigned int bqlm_rveth_enabled(const struct bqlm_rveth *u,
				unsigned int *actions)
{
	const struct bqlm_rc_actor *act = u->rc.actor;
	unsigned int n = 0, i;

	for (i = 0; i < u->cfg.cpus; i++) {
		const struct bqlm_rc_actor *a = &act[RVETH_CPU0 + i];

		if (a->busy ? bqlm_rc_runnable(a) :
		    u->sent < u->cfg.packets && !bqlm_rveth_stopped(u))
			actions[n++] = BQLM_X_ACTION(BQLM_TUN_A_XMIT, i);
	}
	if (act[RVETH_NAPI0].busy ? bqlm_rc_runnable(&act[RVETH_NAPI0]) :
	    u->pending)
		actions[n++] = BQLM_X_ACTION(BQLM_TUN_A_READ, 0);
	return n;
}

/**
 * bqlm_rveth_parked_at() - where the actor of a model action is parked
 * @u: the harness
 * @action: the action
 *
 * Return: the yield point's name, "idle" or "running".
 */
const char *bqlm_rveth_parked_at(const struct bqlm_rveth *u,
				 unsigned int action)
{
	unsigned int arg = BQLM_X_ARG(action);

	if (BQLM_X_KIND(action) == BQLM_TUN_A_XMIT)
		return bqlm_rc_parked_at(&u->rc.actor[RVETH_CPU0 +
						       arg % BQLM_TUN_MAX_CPUS]);
	return bqlm_rc_parked_at(&u->rc.actor[RVETH_NAPI0]);
}
