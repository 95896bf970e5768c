/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - seeded DQL workloads shared by the DQL suites.
 *
 * A workload is a sequence of operations on one queue, drawn from a seeded
 * generator, that looks like a driver's: bursts of queued objects, completion
 * rounds that retire part of what is in flight, the clock moving on, and now
 * and then a reset or a sysfs-style change of limit_min, limit_max or
 * stall_thrs. An adversarial workload also makes calls the kernel rejects
 * (objects above DQL_MAX_OBJECT, completions of more than is in flight).
 */
#ifndef _BQLM_KUNIT_DQL_WORKLOAD_H
#define _BQLM_KUNIT_DQL_WORKLOAD_H

#include <bqlm/dql.h>
#include <bqlm/prng.h>

enum dql_op_kind {
	DQL_OP_QUEUE,
	DQL_OP_COMPLETE,
	DQL_OP_RESET,
	DQL_OP_TICK,
	DQL_OP_SET_STALL_THRS,
	DQL_OP_SET_MIN_LIMIT,
	DQL_OP_SET_MAX_LIMIT,
};

struct dql_op {
	enum dql_op_kind kind;
	unsigned int arg;
};

static inline const char *dql_op_name(enum dql_op_kind kind)
{
	static const char * const names[] = {
		[DQL_OP_QUEUE] = "queue", [DQL_OP_COMPLETE] = "complete",
		[DQL_OP_RESET] = "reset", [DQL_OP_TICK] = "tick",
		[DQL_OP_SET_STALL_THRS] = "stall_thrs",
		[DQL_OP_SET_MIN_LIMIT] = "min_limit",
		[DQL_OP_SET_MAX_LIMIT] = "max_limit",
	};

	return names[kind];
}

/*
 * Draw the next operation for @dql. Completions retire at most what is in
 * flight unless @adversarial, which also draws oversized objects.
 */
static inline struct dql_op dql_workload_next(struct bqlm_prng *r,
					      const struct bqlm_dql *dql,
					      bool adversarial)
{
	unsigned int inflight = bqlm_dql_inflight(dql);
	unsigned int dice = bqlm_prng_below(r, 1000);
	struct dql_op op;

	if (dice < 430) {
		op.kind = DQL_OP_QUEUE;
		op.arg = 60 + bqlm_prng_below(r, 9000);
		if (adversarial && dice < 10)
			op.arg = BQLM_DQL_MAX_OBJECT + bqlm_prng_below(r, 3);
	} else if (dice < 800) {
		op.kind = DQL_OP_COMPLETE;
		/* Often everything, as a completion round after a lull. */
		op.arg = bqlm_prng_below(r, 3) ? bqlm_prng_below(r, inflight + 1)
					       : inflight;
		if (adversarial && dice >= 790)
			op.arg = inflight + 1 + bqlm_prng_below(r, 100);
	} else if (dice < 980) {
		op.kind = DQL_OP_TICK;
		op.arg = 1 + bqlm_prng_below(r, 3);
	} else if (dice < 985) {
		op.kind = DQL_OP_RESET;
		op.arg = 0;
	} else if (dice < 990) {
		op.kind = DQL_OP_SET_STALL_THRS;
		op.arg = bqlm_prng_below(r, 8);
	} else if (dice < 995) {
		op.kind = DQL_OP_SET_MIN_LIMIT;
		op.arg = bqlm_prng_below(r, 4) ? 0 : bqlm_prng_below(r, 20000);
	} else {
		op.kind = DQL_OP_SET_MAX_LIMIT;
		op.arg = bqlm_prng_below(r, 4) ? BQLM_DQL_MAX_LIMIT :
			 20000 + bqlm_prng_below(r, 200000);
	}
	return op;
}

/*
 * Apply @op to the model at time *@now (a tick advances it). Returns what
 * the model call returned (0 or a negative code).
 */
static inline int dql_workload_apply(struct bqlm_dql *dql,
				     const struct dql_op *op,
				     unsigned long *now)
{
	switch (op->kind) {
	case DQL_OP_QUEUE:
		return bqlm_dql_queued(dql, op->arg, *now);
	case DQL_OP_COMPLETE:
		return bqlm_dql_completed(dql, op->arg, *now);
	case DQL_OP_RESET:
		bqlm_dql_reset(dql, *now);
		return 0;
	case DQL_OP_TICK:
		*now += op->arg;
		return 0;
	case DQL_OP_SET_STALL_THRS:
		dql->stall_thrs = op->arg;
		return 0;
	case DQL_OP_SET_MIN_LIMIT:
		dql->min_limit = op->arg;
		return 0;
	case DQL_OP_SET_MAX_LIMIT:
		dql->max_limit = op->arg;
		return 0;
	}
	return 0;
}

#endif /* _BQLM_KUNIT_DQL_WORKLOAD_H */
