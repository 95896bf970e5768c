// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance of the bqlmodel BQL transmit-queue layer with the kernel's.
 *
 * In the kernel, these cases allocate a real Ethernet net_device and run
 * the same whole calls on its transmit queue 0 (netdev_tx_sent_queue(),
 * __netdev_tx_sent_queue(), netdev_tx_completed_queue(),
 * netdev_tx_reset_queue(), netif_tx_stop_queue(), netif_tx_start_queue(),
 * netif_tx_wake_queue()) and on the model, side by side, and compare after
 * every call: every DQL field and dql_avail(), the queue's state bits
 * (DRV_XOFF, STACK_XOFF), trans_start, the doorbell verdict of
 * __netdev_tx_sent_queue() and whether the call rescheduled the qdisc.
 *
 * The device is never registered; its queue gets a qdisc of this file's
 * own (it would otherwise have none before register_netdev(), and
 * noop_qdisc once registered but down). The qdisc holds no packets and its
 * dequeue returns nothing, so running it is harmless, and a reschedule is
 * observable: each call runs with bottom halves disabled, so the
 * __QDISC_STATE_SCHED bit that __netif_schedule() sets is still set when
 * the call returns; local_bh_enable() then runs NET_TX_SOFTIRQ, which
 * clears it and runs the qdisc once.
 *
 * The real code reads the global jiffies. Each call snapshots the queue,
 * reads jiffies, runs the real call and reads jiffies again: if a tick fell
 * inside, the queue is restored and the call retried (a reschedule by the
 * abandoned attempt only runs the empty qdisc once more), so the model is
 * fed exactly the value the kernel used.
 *
 * An over-completion is the kernel's BUG_ON() in dql_completed(): it is
 * never made on the real queue; the case checks instead that the model
 * rejects exactly those calls, by the kernel's own condition evaluated on
 * the real state. An object above DQL_MAX_OBJECT only warns, so it is made
 * on the real queue: this file makes the kernel print one "WARNING ... at
 * include/linux/dynamic_queue_limits.h" (WARN_ON_ONCE) per boot, and checks
 * that the kernel then goes on exactly as the model does.
 *
 * In userspace there is no kernel queue to compare with: the cases skip.
 */
#include "bqlm_kunit.h"
#include <bqlm/netdevice.h>
#include <bqlm/prng.h>

#include "dql_workload.h"
#include "netdevice_workload.h"

struct nd_conf_param {
	u64 seed;
	bool adversarial;
	unsigned int hold_time;	/* 0: keep the kernel's HZ */
	unsigned int steps;
	const char *desc;
};

static const struct nd_conf_param nd_conf_params[] = {
	{ .seed = 301, .hold_time = 0, .steps = 500,
	  .desc = "seed-301-hold-HZ" },
	{ .seed = 302, .hold_time = 2, .steps = 500,
	  .desc = "seed-302-hold-2" },
	{ .seed = 303, .adversarial = true, .hold_time = 1, .steps = 500,
	  .desc = "adversarial-seed-303-hold-1" },
	{ .seed = 304, .adversarial = true, .hold_time = 4, .steps = 500,
	  .desc = "adversarial-seed-304-hold-4" },
};

KUNIT_ARRAY_PARAM_DESC(nd_conf, nd_conf_params, desc);

/*
 * A fixed sequence through every rule of the layer, with the values of the
 * hand-checked cases of bqlm_netdevice.
 */
#define ND_CONF_OP(k, a)	{ .kind = BQL_OP_##k, .arg = (a) }

static const struct bql_op nd_conf_script[] = {
	ND_CONF_OP(SENT, 1000),		/* limit 0: STACK_XOFF */
	ND_CONF_OP(COMPLETE, 1000),	/* limit 1000, woken, scheduled */
	ND_CONF_OP(SENT_MORE, 600),
	ND_CONF_OP(SENT_MORE, 600),	/* 200 over, batch goes on */
	ND_CONF_OP(SENT_LAST, 100),	/* STACK_XOFF, doorbell */
	ND_CONF_OP(STOP, 0),
	ND_CONF_OP(COMPLETE, 0),	/* no-op */
	ND_CONF_OP(COMPLETE, 1301),	/* 1300 in flight: BUG, not made */
	ND_CONF_OP(COMPLETE, 1300),	/* STACK_XOFF cleared, no schedule */
	ND_CONF_OP(WAKE, 0),		/* DRV_XOFF cleared, scheduled */
	ND_CONF_OP(WAKE, 0),		/* nothing */
	ND_CONF_OP(SENT_MORE, 9000),	/* over the limit, not stopped */
	ND_CONF_OP(SENT, BQLM_DQL_MAX_OBJECT + 1),	/* warns, stops */
	ND_CONF_OP(SENT_MORE, BQLM_DQL_MAX_OBJECT + 1),	/* warned once */
	ND_CONF_OP(STOP, 0),
	ND_CONF_OP(WAKE, 0),		/* schedules despite STACK_XOFF */
	ND_CONF_OP(STOP, 0),
	ND_CONF_OP(RESET, 0),		/* DRV_XOFF stays */
	ND_CONF_OP(START, 0),		/* no schedule */
	ND_CONF_OP(TICK, 1),
	ND_CONF_OP(SENT, 5000),		/* adj_limit kept: 400 over */
	ND_CONF_OP(COMPLETE, 5000),	/* woken, scheduled */
};

#if defined(__KERNEL__) && defined(CONFIG_BQL)

#include <linux/bottom_half.h>
#include <linux/dynamic_queue_limits.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <kunit/resource.h>

#define ND_CONF_RETRIES		1000
#define ND_CONF_SETTLE_TRIES	1000

static_assert(__QUEUE_STATE_DRV_XOFF == BQLM_QUEUE_STATE_DRV_XOFF);
static_assert(__QUEUE_STATE_STACK_XOFF == BQLM_QUEUE_STATE_STACK_XOFF);
static_assert(__QUEUE_STATE_FROZEN == BQLM_QUEUE_STATE_FROZEN);
static_assert(QUEUE_STATE_ANY_XOFF == BQLM_QUEUE_STATE_ANY_XOFF);
static_assert(DQL_MAX_OBJECT == BQLM_DQL_MAX_OBJECT);

/* The test qdisc: never holds a packet, counts its runs. */
struct nd_conf_qdisc_priv {
	atomic_t runs;
};

static int nd_conf_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
				 struct sk_buff **to_free)
{
	return qdisc_drop(skb, sch, to_free);
}

static struct sk_buff *nd_conf_qdisc_dequeue(struct Qdisc *sch)
{
	struct nd_conf_qdisc_priv *priv = qdisc_priv(sch);

	atomic_inc(&priv->runs);
	return NULL;
}

static struct sk_buff *nd_conf_qdisc_peek(struct Qdisc *sch)
{
	return NULL;
}

static struct Qdisc_ops nd_conf_qdisc_ops = {
	.id		= "bqlm_conf",
	.priv_size	= sizeof(struct nd_conf_qdisc_priv),
	.enqueue	= nd_conf_qdisc_enqueue,
	.dequeue	= nd_conf_qdisc_dequeue,
	.peek		= nd_conf_qdisc_peek,
	.owner		= THIS_MODULE,
};

struct nd_conf_ctx {
	struct net_device *dev;
	struct netdev_queue *txq;
	struct Qdisc *qdisc;
	struct bqlm_txq model;
	struct bqlm_vlog vlog;
};

static bool nd_conf_sched_bit(const struct nd_conf_ctx *ctx)
{
	return test_bit(__QDISC_STATE_SCHED, &ctx->qdisc->state);
}

/* Wait until a reschedule of the test qdisc has been carried out. */
static bool nd_conf_settle(const struct nd_conf_ctx *ctx)
{
	int i;

	for (i = 0; i < ND_CONF_SETTLE_TRIES && nd_conf_sched_bit(ctx); i++)
		schedule_timeout_uninterruptible(1);
	return !nd_conf_sched_bit(ctx);
}

/* kunit action: detach and free the qdisc, free the device. */
static void nd_conf_free(void *data)
{
	struct nd_conf_ctx *ctx = data;

	if (ctx->qdisc) {
		if (!nd_conf_settle(ctx)) {
			/* the softirq would run it later: leak both */
			pr_err("bqlm_netdevice_conformance: test qdisc still scheduled, leaking it and its device\n");
			return;
		}
		RCU_INIT_POINTER(ctx->txq->qdisc, &noop_qdisc);
		/* NET_TX_SOFTIRQ walks its qdiscs under rcu_read_lock() */
		synchronize_net();
		rtnl_lock();
		qdisc_put(ctx->qdisc);
		rtnl_unlock();
	}
	free_netdev(ctx->dev);
}

/*
 * Allocate the device, note the jiffies at which its queue's DQL was
 * initialised (retrying if a tick fell inside), attach the test qdisc and
 * initialise the model to the same state.
 */
static struct nd_conf_ctx *nd_conf_setup(struct kunit *test,
					 unsigned int hold_time)
{
	struct nd_conf_ctx *ctx;
	struct net_device *dev;
	unsigned long now;
	int tries;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx, "the test device and its qdisc");
	for (tries = 0; tries < ND_CONF_RETRIES; tries++) {
		now = jiffies;
		dev = alloc_etherdev(0);
		KUNIT_ASSERT_NOT_NULL_MSG(test, dev, "alloc_etherdev(), try %d",
					  tries);
		if (!time_after(jiffies, now))
			break;
		free_netdev(dev);
	}
	KUNIT_ASSERT_LT_MSG(test, tries, ND_CONF_RETRIES,
			    "the test device and its qdisc");
	ctx->dev = dev;
	ctx->txq = netdev_get_tx_queue(dev, 0);
	KUNIT_ASSERT_EQ_MSG(test, kunit_add_action_or_reset(test, nd_conf_free,
							    ctx), 0,
			    "the test device and its qdisc");
	/* allocated, never registered: no qdisc yet */
	KUNIT_ASSERT_NULL_MSG(test, rcu_access_pointer(ctx->txq->qdisc),
			      "the test device and its qdisc");
	ctx->qdisc = qdisc_create_dflt(ctx->txq, &nd_conf_qdisc_ops, TC_H_ROOT,
				       NULL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->qdisc,
				  "the test device and its qdisc");
	rcu_assign_pointer(ctx->txq->qdisc, ctx->qdisc);

	/* as netdev_init_one_queue(): dql_init(&queue->dql, HZ) */
	bqlm_txq_init(&ctx->model, HZ, now);
	bqlm_vlog_init(&ctx->vlog);
	ctx->model.dql.vlog = &ctx->vlog;
	if (hold_time) {
		/* as a write to byte_queue_limits/hold_time in sysfs */
		ctx->txq->dql.slack_hold_time = hold_time;
		ctx->model.dql.slack_hold_time = hold_time;
	}
	return ctx;
}

static void nd_conf_compare(struct kunit *test, const struct nd_conf_ctx *ctx,
			    unsigned int step, const char *op)
{
	const struct netdev_queue *real = ctx->txq;
	const struct bqlm_txq *model = &ctx->model;

#define ND_CONF_CMP(f) ({						\
	KUNIT_ASSERT_EQ_MSG(test, (unsigned long long)real->dql.f,	\
			    (unsigned long long)model->dql.f,		\
			    "dql.%s differs after step %u (%s)", #f,	\
			    step, op);					\
})
	BQLM_DQL_FIELDS(ND_CONF_CMP);
#undef ND_CONF_CMP
	KUNIT_ASSERT_EQ_MSG(test, dql_avail(&real->dql),
			    bqlm_dql_avail(&model->dql),
			    "dql_avail() differs after step %u (%s)", step, op);
	KUNIT_ASSERT_EQ_MSG(test,
			    test_bit(__QUEUE_STATE_DRV_XOFF, &real->state),
			    !!(model->state & BIT(BQLM_QUEUE_STATE_DRV_XOFF)),
			    "DRV_XOFF differs after step %u (%s)", step, op);
	KUNIT_ASSERT_EQ_MSG(test,
			    test_bit(__QUEUE_STATE_STACK_XOFF, &real->state),
			    !!(model->state & BIT(BQLM_QUEUE_STATE_STACK_XOFF)),
			    "STACK_XOFF differs after step %u (%s)", step, op);
	KUNIT_ASSERT_EQ_MSG(test, real->state, model->state,
			    "state differs after step %u (%s)", step, op);
	KUNIT_ASSERT_EQ_MSG(test, READ_ONCE(real->trans_start),
			    model->trans_start,
			    "trans_start differs after step %u (%s)", step, op);
}

struct nd_conf_outcome {
	bool rejected;		/* not made: the kernel would BUG */
	bool kick;		/* __netdev_tx_sent_queue()'s result */
	bool scheduled;		/* the call rescheduled the qdisc */
};

/* The call itself, on the real queue, bottom halves disabled. */
static void nd_conf_real_call(struct netdev_queue *txq,
			      const struct bql_op *op,
			      struct nd_conf_outcome *out)
{
	switch (op->kind) {
	case BQL_OP_SENT:
		netdev_tx_sent_queue(txq, op->arg);
		break;
	case BQL_OP_SENT_MORE:
	case BQL_OP_SENT_LAST:
		out->kick = __netdev_tx_sent_queue(txq, op->arg,
						   op->kind == BQL_OP_SENT_MORE);
		break;
	case BQL_OP_COMPLETE:
		/* dql_completed() would BUG_ON() */
		if (op->arg > txq->dql.num_queued - txq->dql.num_completed)
			out->rejected = true;
		else
			netdev_tx_completed_queue(txq, 1, op->arg);
		break;
	case BQL_OP_RESET:
		netdev_tx_reset_queue(txq);
		break;
	case BQL_OP_STOP:
		netif_tx_stop_queue(txq);
		break;
	case BQL_OP_START:
		netif_tx_start_queue(txq);
		break;
	case BQL_OP_WAKE:
		netif_tx_wake_queue(txq);
		break;
	case BQL_OP_TICK:
		break;
	}
}

/*
 * Run one call on the real queue. Returns the jiffies value the call saw
 * from start to end, or fails the case if ticks kept interrupting.
 */
static unsigned long nd_conf_real_step(struct kunit *test,
				       struct nd_conf_ctx *ctx,
				       const struct bql_op *op,
				       struct nd_conf_outcome *out)
{
	struct netdev_queue *txq = ctx->txq;
	unsigned long state, trans_start, j;
	struct dql dql;
	int tries;

	if (op->kind == BQL_OP_TICK) {
		/* let real time pass: at least @arg jiffies */
		schedule_timeout_uninterruptible(op->arg);
		return jiffies;
	}
	for (tries = 0; tries < ND_CONF_RETRIES; tries++) {
		KUNIT_ASSERT_TRUE_MSG(test, nd_conf_settle(ctx),
				      "the test qdisc stays scheduled");
		memset(out, 0, sizeof(*out));
		local_bh_disable();
		dql = txq->dql;
		state = txq->state;
		trans_start = txq->trans_start;
		j = jiffies;
		nd_conf_real_call(txq, op, out);
		out->scheduled = nd_conf_sched_bit(ctx);
		if (!time_after(jiffies, j)) {
			local_bh_enable();
			return j;
		}
		txq->dql = dql;
		txq->state = state;
		txq->trans_start = trans_start;
		local_bh_enable();
	}
	KUNIT_FAIL(test, "jiffies ticked inside %d attempts of one call",
		   ND_CONF_RETRIES);
	return j;
}

/*
 * One call on both sides, then the comparison. Returns whether the model
 * rejected the call.
 */
static bool nd_conf_step(struct kunit *test, struct nd_conf_ctx *ctx,
			 unsigned int step, const struct bql_op *op)
{
	struct bqlm_txq *model = &ctx->model;
	unsigned int sched0 = model->sched_count;
	const char *name = bql_op_name(op->kind);
	struct nd_conf_outcome out;
	bool kick = false;
	unsigned long now;
	int ret;

	now = nd_conf_real_step(test, ctx, op, &out);
	ret = bql_workload_apply(model, op, now, &kick);

	/* the model rejects: above DQL_MAX_OBJECT (the kernel warned) ... */
	if (op->kind <= BQL_OP_SENT_LAST)
		KUNIT_ASSERT_EQ_MSG(test, ret != 0, op->arg > DQL_MAX_OBJECT,
				    "step %u: %s %u: model returned %d", step,
				    name, op->arg, ret);
	/* ... and what the kernel would BUG on, and nothing else */
	else
		KUNIT_ASSERT_EQ_MSG(test, ret != 0, out.rejected,
				    "step %u: %s %u: model returned %d", step,
				    name, op->arg, ret);
	if (op->kind == BQL_OP_SENT_MORE || op->kind == BQL_OP_SENT_LAST)
		KUNIT_ASSERT_EQ_MSG(test, kick, out.kick,
				    "step %u: %s %u: doorbell differs", step,
				    name, op->arg);
	KUNIT_ASSERT_EQ_MSG(test, model->sched_count - sched0,
			    (unsigned int)out.scheduled,
			    "step %u: %s %u: qdisc reschedule differs", step,
			    name, op->arg);
	/* the softirq ran the qdisc: so does the model's */
	model->sched_pending = false;
	nd_conf_compare(test, ctx, step, name);
	return ret != 0;
}

static void netdevice_conformance(struct kunit *test)
{
	const struct nd_conf_param *p = test->param_value;
	unsigned int step, rejects = 0, warned = 0, drops = 0;
	struct nd_conf_ctx *ctx;
	struct bqlm_prng r;

	ctx = nd_conf_setup(test, p->hold_time);
	nd_conf_compare(test, ctx, 0, "init");

	bqlm_prng_seed(&r, p->seed);
	for (step = 1; step <= p->steps; step++) {
		struct bql_op op = bql_workload_next(&r, &ctx->model,
						     p->adversarial);
		unsigned int limit = ctx->model.dql.limit;

		if (nd_conf_step(test, ctx, step, &op)) {
			rejects++;
			warned += op.kind != BQL_OP_COMPLETE;
		}
		drops += op.kind == BQL_OP_COMPLETE &&
			 ctx->model.dql.limit < limit;
	}
	KUNIT_EXPECT_EQ(test, ctx->vlog.count, rejects);
	if (p->adversarial)
		KUNIT_EXPECT_GT(test, rejects, 0U);
	else
		KUNIT_EXPECT_EQ(test, rejects, 0U);
	kunit_info(test, "%u calls equal, %u schedules, %u limit drops, %u rejected (%u oversized)",
		   p->steps, ctx->model.sched_count, drops, rejects, warned);
}

static void netdevice_conformance_script(struct kunit *test)
{
	struct nd_conf_qdisc_priv *priv;
	struct nd_conf_ctx *ctx;
	unsigned int i, rejects = 0;

	ctx = nd_conf_setup(test, 0);
	priv = qdisc_priv(ctx->qdisc);
	nd_conf_compare(test, ctx, 0, "init");
	for (i = 0; i < ARRAY_SIZE(nd_conf_script); i++)
		rejects += nd_conf_step(test, ctx, i + 1, &nd_conf_script[i]);

	/* one over-completion, two oversized objects */
	KUNIT_EXPECT_EQ(test, rejects, 3U);
	KUNIT_EXPECT_EQ(test, ctx->vlog.count, 3U);
	/* two BQL wake-ups and two driver wakes rescheduled the qdisc */
	KUNIT_EXPECT_EQ(test, ctx->model.sched_count, 4U);
	/* and it ran for each (more if a call had to be retried) */
	KUNIT_ASSERT_TRUE(test, nd_conf_settle(ctx));
	KUNIT_EXPECT_GE(test, atomic_read(&priv->runs), 4);
}

#else /* userspace, or a kernel without CONFIG_BQL */

static void netdevice_conformance(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's netdev queue with CONFIG_BQL");
}

static void netdevice_conformance_script(struct kunit *test)
{
	(void)nd_conf_script;
	kunit_skip(test, "needs the kernel's netdev queue with CONFIG_BQL");
}

#endif /* __KERNEL__ && CONFIG_BQL */

static struct kunit_case bqlm_netdevice_conformance_cases[] = {
	KUNIT_CASE(netdevice_conformance_script),
	/* 1-2 s a parameter in UML: the steps wait for jiffies to tick */
	KUNIT_CASE_PARAM_ATTR(netdevice_conformance, nd_conf_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

BQLM_KUNIT_SUITE(bqlm_netdevice_conformance, bqlm_netdevice_conformance_cases);
