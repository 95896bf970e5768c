// SPDX-License-Identifier: GPL-2.0
/*
 * Conformance of the bqlmodel DQL model with the kernel's own DQL.
 *
 * In the kernel, these cases drive the real dql_*() functions of
 * lib/dynamic_queue_limits.c and the model side by side on seeded random
 * and adversarial workloads and compare every field after every step.
 *
 * The real code reads the global jiffies. Each step snapshots the real
 * queue, reads jiffies, runs the real call and reads jiffies again: if a
 * tick fell inside the call, the real queue is restored and the step
 * retried, so the model is fed exactly the value the kernel used.
 *
 * Calls the kernel rejects (an object above DQL_MAX_OBJECT warns, an
 * over-completion hits BUG_ON) are not made on the real queue: the case
 * checks instead that the model rejects exactly those calls, by the
 * kernel's own condition evaluated on the real state.
 *
 * The "golden" cases also print every step and the resulting real state as
 * "bqlm-golden:" lines; scripts/record-golden.sh collects them into
 * userspace-tests/data/dql-golden.txt, which the userspace suite
 * bqlm_dql_golden replays against the model.
 *
 * In userspace there is no kernel DQL to compare with: the cases skip.
 */
#include "bqlm_kunit.h"
#include <bqlm/dql.h>
#include <bqlm/prng.h>

#include "dql_workload.h"

struct dql_conf_param {
	u64 seed;
	bool adversarial;
	bool golden;
	unsigned int hold_time;
	unsigned int steps;
	const char *desc;
};

static const struct dql_conf_param dql_conf_params[] = {
	{ .seed = 101, .golden = true, .hold_time = 4, .steps = 500,
	  .desc = "golden-seed-101" },
	{ .seed = 102, .adversarial = true, .golden = true, .hold_time = 2,
	  .steps = 500, .desc = "golden-adversarial-seed-102" },
	{ .seed = 103, .hold_time = 10, .steps = 400, .desc = "seed-103" },
	{ .seed = 104, .adversarial = true, .hold_time = 1, .steps = 400,
	  .desc = "adversarial-seed-104" },
	{ .seed = 105, .hold_time = 0, .steps = 400,
	  .desc = "hold-0-seed-105" },
};

KUNIT_ARRAY_PARAM_DESC(dql_conf, dql_conf_params, desc);

#ifdef __KERNEL__

#include <linux/dynamic_queue_limits.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>

#define DQL_CONF_RETRIES	1000

static_assert(DQL_HIST_LEN == BQLM_DQL_HIST_LEN);
static_assert(DQL_MAX_OBJECT == BQLM_DQL_MAX_OBJECT);
static_assert(DQL_MAX_LIMIT == BQLM_DQL_MAX_LIMIT);

static void dql_conf_compare(struct kunit *test, const struct dql *real,
			     const struct bqlm_dql *model, unsigned int step,
			     const char *op)
{
#define DQL_CONF_CMP(f) ({						\
	KUNIT_ASSERT_EQ_MSG(test, (unsigned long long)real->f,		\
			    (unsigned long long)model->f,		\
			    "field %s differs after step %u (%s)", #f,	\
			    step, op);					\
})
	BQLM_DQL_FIELDS(DQL_CONF_CMP);
#undef DQL_CONF_CMP
	KUNIT_ASSERT_EQ_MSG(test, dql_avail(real), bqlm_dql_avail(model),
			    "dql_avail() differs after step %u (%s)", step, op);
}

static void dql_conf_golden_line(const struct dql_conf_param *p,
				 unsigned int step, const char *op,
				 unsigned int arg, unsigned long now, int ret,
				 const struct dql *real)
{
	char buf[512];
	int len;

	len = scnprintf(buf, sizeof(buf), "bqlm-golden: %llu %u %s %u %lu %d",
			p->seed, step, op, arg, now, ret);
#define DQL_CONF_PRINT(f)						\
	(len += scnprintf(buf + len, sizeof(buf) - len, " %llu",	\
			  (unsigned long long)real->f))
	BQLM_DQL_FIELDS(DQL_CONF_PRINT);
#undef DQL_CONF_PRINT
	pr_info("%s\n", buf);
}

/*
 * Run one step on the real queue. Returns the jiffies value the real call
 * saw from start to end, or fails the case if ticks kept interrupting.
 */
static unsigned long dql_conf_real_step(struct kunit *test, struct dql *real,
					const struct dql_op *op,
					bool *rejected)
{
	struct dql saved;
	unsigned long j;
	int tries;

	*rejected = false;
	for (tries = 0; tries < DQL_CONF_RETRIES; tries++) {
		saved = *real;
		j = jiffies;
		switch (op->kind) {
		case DQL_OP_QUEUE:
			/* dql_queued() would WARN_ON_ONCE() and not count */
			if (op->arg > DQL_MAX_OBJECT)
				*rejected = true;
			else
				dql_queued(real, op->arg);
			break;
		case DQL_OP_COMPLETE:
			/* dql_completed() would BUG_ON() */
			if (op->arg > real->num_queued - real->num_completed)
				*rejected = true;
			else
				dql_completed(real, op->arg);
			break;
		case DQL_OP_RESET:
			dql_reset(real);
			break;
		case DQL_OP_TICK:
			/* let real time pass: at least one jiffy */
			schedule_timeout_uninterruptible(1);
			return jiffies;
		case DQL_OP_SET_STALL_THRS:
			real->stall_thrs = op->arg;
			break;
		case DQL_OP_SET_MIN_LIMIT:
			real->min_limit = op->arg;
			break;
		case DQL_OP_SET_MAX_LIMIT:
			real->max_limit = op->arg;
			break;
		}
		if (!time_after(jiffies, j))
			return j;
		*real = saved;
	}
	KUNIT_FAIL(test, "jiffies ticked inside %d attempts of one step",
		   DQL_CONF_RETRIES);
	return j;
}

static void dql_conformance(struct kunit *test)
{
	const struct dql_conf_param *p = test->param_value;
	struct bqlm_vlog vlog;
	struct bqlm_dql *model;
	struct dql *real;
	struct bqlm_prng r;
	unsigned int step, rejects = 0;
	unsigned long now;

	real = bqlm_kunit_zalloc(test, sizeof(*real));
	model = bqlm_kunit_zalloc(test, sizeof(*model));
	bqlm_vlog_init(&vlog);

	do {
		now = jiffies;
		dql_init(real, p->hold_time);
	} while (time_after(jiffies, now));
	bqlm_dql_init(model, p->hold_time, now);
	model->vlog = &vlog;
	dql_conf_compare(test, real, model, 0, "init");
	if (p->golden)
		dql_conf_golden_line(p, 0, "init", p->hold_time, now, 0, real);

	bqlm_prng_seed(&r, p->seed);
	for (step = 1; step <= p->steps; step++) {
		struct dql_op op = dql_workload_next(&r, model, p->adversarial);
		bool rejected;
		int ret;

		now = dql_conf_real_step(test, real, &op, &rejected);
		if (op.kind == DQL_OP_TICK)
			ret = 0;	/* the model just follows jiffies */
		else
			ret = dql_workload_apply(model, &op, &now);
		KUNIT_ASSERT_EQ_MSG(test, ret != 0, rejected,
				    "step %u: %s %u: model returned %d",
				    step, dql_op_name(op.kind), op.arg, ret);
		rejects += rejected;
		dql_conf_compare(test, real, model, step, dql_op_name(op.kind));
		if (p->golden)
			dql_conf_golden_line(p, step, dql_op_name(op.kind),
					     op.arg, now, ret, real);
	}
	KUNIT_EXPECT_EQ(test, vlog.count, rejects);
	if (p->adversarial)
		KUNIT_EXPECT_GT(test, rejects, 0U);
	/* history_head and the history words depend on the word size */
	kunit_info(test, "%u steps equal field by field, %u rejected calls (%d-bit unsigned long, %s-endian)",
		   p->steps, rejects, BITS_PER_LONG,
		   IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? "big" : "little");
}

#else /* userspace */

static void dql_conformance(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's lib/dynamic_queue_limits.c");
}

#endif /* __KERNEL__ */

static struct kunit_case bqlm_dql_conformance_cases[] = {
	/* 1-3 s a parameter in UML: the steps wait for jiffies to tick */
	KUNIT_CASE_PARAM_ATTR(dql_conformance, dql_conf_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

BQLM_KUNIT_SUITE(bqlm_dql_conformance, bqlm_dql_conformance_cases);
