// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - what every driver's harness of the real code does alike to
 * packets and queues (rc.h): the harness's packets and their references,
 * the completion side of 6.12's BQL calls, and the test qdiscs.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/unaligned.h>

#include <net/sch_generic.h>

#include <bqlm/invariants.h>

#include "rc.h"

/* ------------------------------------------------------------------ */
/* What every driver's harness does alike */

/**
 * bqlm_rc_new_skb() - a harness's packet, its id in its header and data
 * @dev: the device it is sent on
 * @headroom: bytes reserved before the frame
 * @len: the frame's linear length (at least ETH_HLEN + 2)
 * @pkt: the packet's id (1 to 255)
 * @proto: its ethertype (host order)
 *
 * A broadcast Ethernet frame from a locally administered source whose last
 * byte is @pkt, @pkt (big-endian) after the header, the rest zero; the
 * harness holds a reference besides the one it hands over.
 *
 * Return: the packet, or NULL without memory.
 */
struct sk_buff *bqlm_rc_new_skb(struct net_device *dev, unsigned int headroom,
				unsigned int len, unsigned int pkt, u16 proto)
{
	struct sk_buff *skb = alloc_skb(headroom + len, GFP_KERNEL);
	u8 *p;

	if (!skb)
		return NULL;
	skb_reserve(skb, headroom);
	p = skb_put_zero(skb, len);
	eth_broadcast_addr(p);
	p[6] = 0x02;			/* a locally administered source */
	p[11] = pkt;
	put_unaligned_be16(proto, p + 12);
	put_unaligned_be16(pkt, p + ETH_HLEN);
	skb->dev = dev;
	skb->protocol = htons(proto);
	skb_reset_mac_header(skb);
	skb_get(skb);			/* the harness's reference */
	return skb;
}

/**
 * bqlm_rc_free_skbs() - free a harness's packets (bqlm_rc_new_skb())
 * @skb: the packets, by id 1..@max; each set to NULL
 * @max: the last id
 * @sent: the packets handed to the driver (ids 1..@sent)
 *
 * Drops the harness's reference of every packet, and the stack's too of
 * one never handed to the driver (the driver owns that one otherwise).
 */
void bqlm_rc_free_skbs(struct sk_buff **skb, unsigned int max,
		       unsigned int sent)
{
	unsigned int i;

	for (i = 1; i <= max; i++) {
		if (skb[i] && i > sent)
			kfree_skb(skb[i]);
		kfree_skb(skb[i]);
		skb[i] = NULL;
	}
}

/**
 * bqlm_rc_audit_skb() - a packet's references against what holds it
 * @rc: the scheduler, failed on a reference too many
 * @skb: the packet (bqlm_rc_new_skb())
 * @pkt: its id, for the message
 * @held: whether the driver (or an actor) still holds it
 * @ev: the step's events: a reference too few counts in @ev->lost
 *
 * The harness holds one reference, the driver one while it holds the
 * packet. Fewer: the driver freed a packet it still holds (counted lost,
 * as the models count an overwritten one); more: it kept one it let go of
 * (a harness failure).
 */
void bqlm_rc_audit_skb(struct bqlm_rc *rc, struct sk_buff *skb,
		       unsigned int pkt, bool held, struct bqlm_inv_step *ev)
{
	unsigned int want = held ? 2 : 1;
	unsigned int have = refcount_read(&skb->users);

	if (have < want)
		ev->lost++;
	else if (have > want)
		bqlm_rc_fail(rc, -EINVAL, "pkt %u has %u references, %u expected",
			     pkt, have, want);
}

/**
 * bqlm_rc_dql_completed() - dql_completed() as 6.12's
 *	netdev_tx_completed_queue() calls it; an over-completion is reported,
 *	never made
 * @q: the queue
 * @bytes: the bytes completed
 * @ev: receives an over-completion (dql_completed() would BUG_ON()), or
 *	NULL when the call is not the harness's to report
 */
void bqlm_rc_dql_completed(struct netdev_queue *q, unsigned int bytes,
			   struct bqlm_inv_step *ev)
{
	unsigned int inflight = q->dql.num_queued - q->dql.num_completed;

	if (bytes <= inflight) {
		dql_completed(&q->dql, bytes);
	} else if (ev) {
		ev->dql_err = -ERANGE;
		ev->dql_val[0] = bytes;
		ev->dql_val[1] = inflight;
	}
}

/**
 * bqlm_rc_completed_wake() - the end of 6.12's netdev_tx_completed_queue():
 *	the barrier, and the wake of a queue that its DQL lets run again
 * @q: the queue
 */
void bqlm_rc_completed_wake(struct netdev_queue *q)
{
	/* dql_completed() before the STACK_XOFF test; pairs with the sender's */
	smp_mb();
	if (unlikely(dql_avail(&q->dql) < 0))
		return;
	if (test_and_clear_bit(__QUEUE_STATE_STACK_XOFF, &q->state))
		netif_schedule_queue(q);
}

/* ------------------------------------------------------------------ */
/* The test qdiscs: they hold nothing, so a reschedule runs nothing */

/* Jiffies a test qdisc may stay running or scheduled at its put, at most */
#define BQLM_RC_QDISC_IDLE_TIMEOUT	(10 * HZ)

/**
 * bqlm_rc_qdisc_put() - free a test qdisc of a txq, as dev_deactivate() would
 * @txq: the txq, which gets &noop_qdisc
 * @q: its qdisc
 *
 * A wake of the txq may have scheduled the qdisc for the TX softirq
 * (__netif_schedule()); freed then, net_tx_action() would lock it after
 * qdisc_put() unregistered its lock's class (lockdep: "bad unlock
 * balance") and might run on freed memory. As dev_deactivate_many(): the
 * txq first leaves the qdisc, then the qdisc must be neither running nor
 * scheduled before it is put.
 *
 * The wake that scheduled it raised the TX softirq from an actor's thread:
 * the spin_unlock_bh() after the first look runs it on this CPU, so the
 * second look normally finds the qdisc idle at once. Only then does the
 * caller sleep a jiffy between looks (a softirq run elsewhere). Sleeping
 * after the first look, as the first version did, cost a jiffy (10 ms in
 * UML) on every device whose last step woke the queue, 4 in 10 of a
 * search's fresh devices: aqc111's search took 161 s instead of 2 s, and
 * make kunit-drivers ran into kunit.py's limit in its third search.
 *
 * Return: 0, or -ETIMEDOUT when the qdisc stayed busy: it is left to its
 * softirq (leaked, with a message) rather than freed under it.
 */
int bqlm_rc_qdisc_put(struct netdev_queue *txq, struct Qdisc *q)
{
	unsigned long start = jiffies;
	unsigned int looks;
	bool busy;

	rcu_assign_pointer(txq->qdisc, &noop_qdisc);
	synchronize_net();
	for (looks = 0; ; looks++) {
		spin_lock_bh(qdisc_lock(q));
		busy = qdisc_is_running(q) ||
		       test_bit(__QDISC_STATE_SCHED, &q->state);
		spin_unlock_bh(qdisc_lock(q));	/* a pending TX softirq runs */
		if (!busy)
			break;
		if (time_after(jiffies, start + BQLM_RC_QDISC_IDLE_TIMEOUT)) {
			pr_err("bqlm real-code harness: a test qdisc stayed %s for %d s: leaked\n",
			       qdisc_is_running(q) ? "running" : "scheduled",
			       BQLM_RC_QDISC_IDLE_TIMEOUT / HZ);
			return -ETIMEDOUT;
		}
		if (looks)
			schedule_timeout_uninterruptible(1);
	}
	rtnl_lock();
	qdisc_put(q);
	rtnl_unlock();
	return 0;
}

static int bqlm_rc_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
				 struct sk_buff **to_free)
{
	return qdisc_drop(skb, sch, to_free);
}

static struct sk_buff *bqlm_rc_qdisc_dequeue(struct Qdisc *sch)
{
	return NULL;
}

/*
 * A qdisc the harness's stack stands for: the driver sees a txq with a
 * queue (qdisc_txq_has_no_queue() false); the harness hands it packets.
 */
#define BQLM_RC_QDISC_OPS(name)					\
	.id		= name,						\
	.enqueue	= bqlm_rc_qdisc_enqueue,			\
	.dequeue	= bqlm_rc_qdisc_dequeue,			\
	.peek		= bqlm_rc_qdisc_dequeue,			\
	.owner		= THIS_MODULE

struct Qdisc_ops bqlm_rc_qdisc_ops = {
	BQLM_RC_QDISC_OPS("bqlm_rc"),
};

static int bqlm_rc_noqueue_init(struct Qdisc *sch, struct nlattr *opt,
				struct netlink_ext_ack *extack)
{
	sch->enqueue = NULL;	/* as noqueue's: qdisc_txq_has_no_queue() */
	return 0;
}

/* noqueue, as the driver sees it */
struct Qdisc_ops bqlm_rc_noqueue_ops = {
	BQLM_RC_QDISC_OPS("bqlm_rc_noq"),
	.init		= bqlm_rc_noqueue_init,
};
