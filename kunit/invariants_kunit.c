// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the BQL invariants (model/core/invariants.c), suite
 * bqlm_invariants: each check, one at a time, on hand-made observations.
 */
#include <linux/if_ether.h>
#include "bqlm_kunit.h"
#include <bqlm/invariants.h>

#define OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define ST	BQLM_CHECK_BIT(BQLM_CHECK_STALL)

struct inv_ctx {
	struct bqlm_dql dql;
	struct bqlm_inv_counters c;
	struct bqlm_violation each[BQLM_CHECK_NR];
	struct bqlm_vlog log;
};

static struct inv_ctx *inv_setup(struct kunit *test)
{
	struct inv_ctx *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL_MSG(test, v, "the observation");
	bqlm_dql_init(&v->dql, 100, 1000);
	bqlm_dql_queued(&v->dql, 300, 1000);
	bqlm_dql_completed(&v->dql, 100, 1000);
	v->c.where = "test";
	v->c.bql = true;
	v->c.dql = &v->dql;
	v->c.inflight = 200;
	bqlm_vlog_init(&v->log);
	return v;
}

static unsigned int inv_run(struct inv_ctx *v)
{
	memset(v->each, 0, sizeof(v->each));
	return bqlm_inv_check(&v->c, &v->log, v->each);
}

static void invariants_hold(struct kunit *test)
{
	struct inv_ctx *v = inv_setup(test);

	KUNIT_EXPECT_EQ(test, inv_run(v), 0U);
	KUNIT_EXPECT_EQ(test, v->log.count, 0U);
	/* without a log or a per-check array */
	KUNIT_EXPECT_EQ(test, bqlm_inv_check(&v->c, NULL, NULL), 0U);
}

static void invariants_step_events(struct kunit *test)
{
	struct inv_ctx *v = inv_setup(test);
	const unsigned int sa = BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING);

	v->c.step.dql_err = -ERANGE;
	v->c.step.dql_val[0] = ETH_FRAME_LEN;
	KUNIT_EXPECT_EQ(test, inv_run(v), OC);
	KUNIT_EXPECT_EQ(test, v->log.first.check,
			BQLM_CHECK_DQL_OVER_COMPLETION);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_DQL_OVER_COMPLETION].val[0],
			(u64)ETH_FRAME_LEN);
	v->c.step.dql_err = -E2BIG;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_DQL_OBJECT_TOO_BIG));
	v->c.step.dql_err = 0;
	v->c.step.stale_bytes = 60;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP));
	v->c.step.stale_bytes = 0;
	v->c.step.unsent_skbs = 1;
	KUNIT_EXPECT_EQ(test, inv_run(v), sa);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SKB_ACCOUNTING].err, -ENOENT);
	v->c.step.unsent_skbs = 0;
	v->c.step.len_mismatch = 1;
	KUNIT_EXPECT_EQ(test, inv_run(v), sa);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SKB_ACCOUNTING].err, -EINVAL);
	v->c.step.len_mismatch = 0;
	v->c.step.twice = 1;
	KUNIT_EXPECT_EQ(test, inv_run(v), sa);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SKB_ACCOUNTING].err, -EEXIST);
	/* two skb problems in one step: reported once, the first described */
	v->c.step.lost = 1;
	KUNIT_EXPECT_EQ(test, inv_run(v), sa);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SKB_ACCOUNTING].err, -EEXIST);
	v->c.step.twice = 0;
	KUNIT_EXPECT_EQ(test, inv_run(v), sa);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SKB_ACCOUNTING].err, -ENOENT);
}

static void invariants_concurrency(struct kunit *test)
{
	struct inv_ctx *v = inv_setup(test);

	v->c.completions = 1;
	v->c.producers = 1;
	KUNIT_EXPECT_EQ(test, inv_run(v), 0U);
	v->c.completions = 2;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION));
	v->c.completions = 1;
	v->c.producers = 2;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_PRODUCER));
}

static void invariants_balance_and_limit(struct kunit *test)
{
	struct inv_ctx *v = inv_setup(test);

	/* queued - completed = 200, the driver says 250 */
	v->c.inflight = 250;
	KUNIT_EXPECT_EQ(test, inv_run(v), BB);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_BYTE_BALANCE].err, -EBADMSG);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_BYTE_BALANCE].val[0], 200ULL);
	/* completed beyond queued */
	v->dql.num_completed = 400;
	KUNIT_EXPECT_EQ(test, inv_run(v), BB);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_BYTE_BALANCE].err, -ERANGE);
	v->dql.num_completed = 100;
	v->c.inflight = 200;
	/* a limit out of its bounds, both ways */
	v->dql.limit = v->dql.max_limit + 1;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_DQL_LIMIT_BOUNDS));
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_DQL_LIMIT_BOUNDS].val[1],
			(unsigned long long)v->dql.max_limit);
	v->dql.min_limit = 100;
	v->dql.limit = 50;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_DQL_LIMIT_BOUNDS));
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_DQL_LIMIT_BOUNDS].val[1],
			100ULL);
}

static void invariants_stall(struct kunit *test)
{
	struct inv_ctx *v = inv_setup(test);

	v->c.quiescent = true;
	v->c.wants_tx = true;
	KUNIT_EXPECT_EQ(test, inv_run(v), 0U);
	v->c.stopped = true;
	KUNIT_EXPECT_EQ(test, inv_run(v), ST);
	/* without BQL only the stall is checked */
	v->c.bql = false;
	v->c.inflight = 12345;
	v->c.completions = 3;
	KUNIT_EXPECT_EQ(test, inv_run(v), ST);
	v->c.dql = NULL;
	KUNIT_EXPECT_EQ(test, inv_run(v), ST);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_STALL].val[0], 0ULL);
	v->c.wants_tx = false;
	KUNIT_EXPECT_EQ(test, inv_run(v), 0U);
}

static void invariants_fatal(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test,
			  bqlm_inv_fatal(BQLM_CHECK_DQL_OVER_COMPLETION));
	KUNIT_EXPECT_TRUE(test, bqlm_inv_fatal(BQLM_CHECK_SERIAL_COMPLETION));
	KUNIT_EXPECT_TRUE(test, bqlm_inv_fatal(BQLM_CHECK_SERIAL_PRODUCER));
	KUNIT_EXPECT_TRUE(test, bqlm_inv_fatal(BQLM_CHECK_STALL));
	KUNIT_EXPECT_FALSE(test, bqlm_inv_fatal(BQLM_CHECK_BYTE_BALANCE));
	KUNIT_EXPECT_FALSE(test, bqlm_inv_fatal(BQLM_CHECK_RESET_ON_STOP));
	KUNIT_EXPECT_FALSE(test, bqlm_inv_fatal(BQLM_CHECK_SKB_ACCOUNTING));
	KUNIT_EXPECT_FALSE(test, bqlm_inv_fatal(BQLM_CHECK_DQL_LIMIT_BOUNDS));
}


/*
 * What a serialisation violation records: the number of contexts inside
 * and the one allowed (make mutate: the bound recorded was never read).
 */
static void invariants_concurrency_values(struct kunit *test)
{
	struct inv_ctx *v = inv_setup(test);

	v->c.completions = 3;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION));
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SERIAL_COMPLETION].err, -EBUSY);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SERIAL_COMPLETION].val[0], 3ULL);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SERIAL_COMPLETION].val[1], 1ULL);
	v->c.completions = 0;
	v->c.producers = 2;
	KUNIT_EXPECT_EQ(test, inv_run(v),
			BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_PRODUCER));
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SERIAL_PRODUCER].val[0], 2ULL);
	KUNIT_EXPECT_EQ(test, v->each[BQLM_CHECK_SERIAL_PRODUCER].val[1], 1ULL);
}

static struct kunit_case bqlm_invariants_cases[] = {
	KUNIT_CASE(invariants_hold),
	KUNIT_CASE(invariants_step_events),
	KUNIT_CASE(invariants_concurrency),
	KUNIT_CASE(invariants_balance_and_limit),
	KUNIT_CASE(invariants_stall),
	KUNIT_CASE(invariants_fatal),
	KUNIT_CASE(invariants_concurrency_values),
	{}
};

BQLM_KUNIT_SUITE(bqlm_invariants, bqlm_invariants_cases);
