// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the bqlmodel DQL model (model/kernel/dynamic_queue_limits.c).
 *
 * The same source runs in a UML kernel under kunit.py and in userspace on
 * the CMocka-backed stand-in of <kunit/test.h>. Expected values are worked
 * out by hand from the algorithm of lib/dynamic_queue_limits.c; the
 * comments show the arithmetic.
 */
#include "bqlm_kunit.h"
#include <bqlm/dql.h>
#include <bqlm/prng.h>
#include "bqlm_internal.h"	/* hweight_long() */

#include "dql_workload.h"

#define T0	1000UL		/* a jiffies value to start from */

struct dql_test_ctx {
	struct bqlm_dql dql;
	struct bqlm_vlog vlog;
};

static int dql_test_init(struct kunit *test)
{
	struct dql_test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx),
						 GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	bqlm_vlog_init(&ctx->vlog);
	bqlm_dql_init(&ctx->dql, 10, T0);
	ctx->dql.vlog = &ctx->vlog;
	test->priv = ctx;
	return 0;
}

static struct bqlm_dql *dql_of(struct kunit *test)
{
	return &((struct dql_test_ctx *)test->priv)->dql;
}

static struct bqlm_vlog *vlog_of(struct kunit *test)
{
	return &((struct dql_test_ctx *)test->priv)->vlog;
}

/* queue @q then complete @c at @now; both must be accepted */
static void dql_qc(struct kunit *test, unsigned int q, unsigned int c,
		   unsigned long now)
{
	struct bqlm_dql *dql = dql_of(test);

	KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_queued(dql, q, now), 0,
			    "dql_queued(%u) at %lu", q, now);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_completed(dql, c, now), 0,
			    "dql_completed(%u) at %lu", c, now);
}

static void dql_init_defaults(struct kunit *test)
{
	struct bqlm_dql dql = { .adj_limit = 77, .stall_cnt = 3 };

	bqlm_dql_init(&dql, 25, T0);
	KUNIT_EXPECT_EQ(test, dql.max_limit, BQLM_DQL_MAX_LIMIT);
	KUNIT_EXPECT_EQ(test, dql.min_limit, 0U);
	KUNIT_EXPECT_EQ(test, dql.slack_hold_time, 25U);
	KUNIT_EXPECT_EQ(test, dql.stall_thrs, 0);
	KUNIT_EXPECT_EQ(test, dql.limit, 0U);
	KUNIT_EXPECT_EQ(test, dql.lowest_slack, UINT_MAX);
	KUNIT_EXPECT_EQ(test, dql.slack_start_time, T0);
	KUNIT_EXPECT_EQ(test, dql.last_reap, T0);
	KUNIT_EXPECT_EQ(test, dql.history_head, T0 / (8 * sizeof(long)));
	/* dql_init() does not touch adj_limit or the stall statistics */
	KUNIT_EXPECT_EQ(test, dql.adj_limit, 77U);
	KUNIT_EXPECT_EQ(test, dql.stall_cnt, 3UL);
	KUNIT_EXPECT_EQ(test, bqlm_dql_avail(&dql), 77);
	/* 0x7fffffff - 0x0fffffff */
	KUNIT_EXPECT_EQ(test, BQLM_DQL_MAX_LIMIT, 0x70000000U);
	KUNIT_EXPECT_EQ(test, BQLM_DQL_MAX_OBJECT, 0x0fffffffU);
}

static void dql_starvation_grows_limit(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	/*
	 * limit 0, 1000 queued and all completed: over limit by 1000 and
	 * nothing left, so starved: limit += (1000 - prev_num_queued 0) +
	 * prev_ovlimit 0.
	 */
	dql_qc(test, 1000, 1000, T0);
	KUNIT_EXPECT_EQ(test, dql->limit, 1000U);
	KUNIT_EXPECT_EQ(test, dql->adj_limit, 2000U);
	/* the limit changed, so the over-limit is not carried over */
	KUNIT_EXPECT_EQ(test, dql->prev_ovlimit, 0U);
	KUNIT_EXPECT_EQ(test, dql->prev_num_queued, 1000U);
	KUNIT_EXPECT_EQ(test, bqlm_dql_avail(dql), 1000);

	/* 2500 queued against 1000: starved again, +2500 */
	dql_qc(test, 2500, 2500, T0 + 1);
	KUNIT_EXPECT_EQ(test, dql->limit, 3500U);
	KUNIT_EXPECT_EQ(test, dql->slack_start_time, T0 + 1);
	KUNIT_EXPECT_EQ(test, dql->lowest_slack, UINT_MAX);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->count, 0U);
}

static void dql_prev_ovlimit_starvation(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	/* limit 100 from one starved round */
	dql_qc(test, 100, 100, T0);
	KUNIT_ASSERT_EQ(test, dql->limit, 100U);

	/* 300 queued, 100 done: over by 200, 200 left: no change */
	dql_qc(test, 300, 100, T0);
	KUNIT_EXPECT_EQ(test, dql->limit, 100U);
	KUNIT_EXPECT_EQ(test, dql->prev_ovlimit, 200U);
	KUNIT_EXPECT_EQ(test, dql->prev_num_queued, 400U);

	/*
	 * 100 more queued, 200 done: 100 still in flight, but all that was
	 * queued at the previous round (400) is done and that round was
	 * over limit: starved, limit += (400 - 400) + 200.
	 */
	dql_qc(test, 100, 200, T0);
	KUNIT_EXPECT_EQ(test, dql->limit, 300U);
	KUNIT_EXPECT_EQ(test, bqlm_dql_inflight(dql), 100U);
	KUNIT_EXPECT_EQ(test, dql->prev_ovlimit, 0U);
}

static void dql_slack_decrease_after_hold_time(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);
	unsigned long start, now;

	/* limit 3000, then 2000 in flight, then 500 in / 500 out rounds */
	dql_qc(test, 3000, 3000, T0);
	start = dql->slack_start_time;
	KUNIT_ASSERT_EQ(test, dql->limit, 3000U);
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 2000, T0), 0);
	/* first round: nothing was in flight at the previous one */
	dql_qc(test, 500, 500, T0 + 1);
	KUNIT_EXPECT_EQ(test, dql->lowest_slack, UINT_MAX);

	/*
	 * Busy rounds: slack = limit + prev_ovlimit - 2 * 500 = 2000. The
	 * limit stays until jiffies is after slack_start_time + hold (10).
	 */
	for (now = T0 + 2; now <= start + 10; now++) {
		dql_qc(test, 500, 500, now);
		KUNIT_EXPECT_EQ_MSG(test, dql->limit, 3000U, "round at %lu", now);
		KUNIT_EXPECT_EQ_MSG(test, dql->lowest_slack, 2000U,
				    "round at %lu", now);
	}
	dql_qc(test, 500, 500, start + 11);
	KUNIT_EXPECT_EQ(test, dql->limit, 1000U);
	KUNIT_EXPECT_EQ(test, dql->lowest_slack, UINT_MAX);
	KUNIT_EXPECT_EQ(test, dql->slack_start_time, start + 11);

	/* now over the limit: slack 1000 - 1000 = 0 */
	dql_qc(test, 500, 500, start + 12);
	KUNIT_EXPECT_EQ(test, dql->lowest_slack, 0U);
	KUNIT_EXPECT_EQ(test, dql->prev_ovlimit, 1500U);
	KUNIT_EXPECT_LT(test, bqlm_dql_avail(dql), 0);
}

static void dql_slack_of_last_object(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	/*
	 * With a previous over-limit, the slack is at least the part of the
	 * previous round's last object above that over-limit. limit 1000;
	 * 1000 in flight; a 5000 object puts it 5000 over; 1000 done.
	 */
	dql_qc(test, 1000, 1000, T0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 1000, T0), 0);
	dql_qc(test, 5000, 1000, T0);
	KUNIT_ASSERT_EQ(test, dql->limit, 1000U);
	KUNIT_ASSERT_EQ(test, dql->prev_ovlimit, 5000U);
	KUNIT_ASSERT_EQ(test, dql->prev_last_obj_cnt, 5000U);
	/*
	 * Next round, 100 more of 100 bytes, 100 done: slack =
	 * max(1000 + 5000 - 200, 5000 - 5000) = 5800.
	 */
	dql_qc(test, 100, 100, T0);
	KUNIT_EXPECT_EQ(test, dql->lowest_slack, 5800U);
	KUNIT_EXPECT_EQ(test, dql->prev_last_obj_cnt, 100U);
}

static void dql_min_max_clamp(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	dql->min_limit = 5000;
	dql_qc(test, 100, 100, T0);
	KUNIT_EXPECT_EQ(test, dql->limit, 5000U);

	dql->max_limit = 8000;
	dql_qc(test, 20000, 20000, T0);
	KUNIT_EXPECT_EQ(test, dql->limit, 8000U);
	KUNIT_EXPECT_EQ(test, bqlm_dql_check_limit(dql, "test"), 0);

	/* reset restarts from min_limit */
	bqlm_dql_reset(dql, T0 + 5);
	KUNIT_EXPECT_EQ(test, dql->limit, 5000U);
}

static void dql_min_above_max(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	/*
	 * sysfs accepts limit_min above limit_max. The kernel's clamp()
	 * gives hi when val >= hi and lo when val <= lo: a limit below
	 * both becomes min_limit, above max_limit. The model does the same
	 * and its bounds check reports it.
	 */
	dql->min_limit = 9000;
	dql->max_limit = 4000;
	dql_qc(test, 100, 100, T0);
	KUNIT_EXPECT_EQ(test, dql->limit, 9000U);
	KUNIT_EXPECT_EQ(test, bqlm_dql_check_limit(dql, "test"), -EDOM);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->first.check,
			BQLM_CHECK_DQL_LIMIT_BOUNDS);

	/* a limit at or above max_limit becomes max_limit */
	dql_qc(test, 30000, 30000, T0);
	KUNIT_EXPECT_EQ(test, dql->limit, 4000U);
}

static void dql_max_object_rejected(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);
	u64 before;

	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 10, T0), 0);
	before = bqlm_dql_digest(dql);
	KUNIT_EXPECT_EQ(test, bqlm_dql_queued(dql, BQLM_DQL_MAX_OBJECT + 1, T0),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, bqlm_dql_queued(dql, UINT_MAX, T0), -E2BIG);
	KUNIT_EXPECT_EQ(test, bqlm_dql_digest(dql), before);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->count, 2U);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->first.check,
			BQLM_CHECK_DQL_OBJECT_TOO_BIG);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->first.val[0],
			(u64)BQLM_DQL_MAX_OBJECT + 1);
	KUNIT_EXPECT_STREQ(test, vlog_of(test)->first.where, "dql_queued");

	/* the largest allowed object is counted */
	KUNIT_EXPECT_EQ(test, bqlm_dql_queued(dql, BQLM_DQL_MAX_OBJECT, T0), 0);
	KUNIT_EXPECT_EQ(test, dql->num_queued, BQLM_DQL_MAX_OBJECT + 10);
	KUNIT_EXPECT_EQ(test, dql->last_obj_cnt, BQLM_DQL_MAX_OBJECT);
}

static void dql_over_completion_rejected(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);
	u64 before;

	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, T0), 0);
	before = bqlm_dql_digest(dql);
	/* the kernel's BUG_ON(count > num_queued - num_completed) */
	KUNIT_EXPECT_EQ(test, bqlm_dql_completed(dql, 101, T0 + 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, bqlm_dql_digest(dql), before);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->count, 1U);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->first.check,
			BQLM_CHECK_DQL_OVER_COMPLETION);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->first.val[0], 101ULL);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->first.val[1], 100ULL);

	/* exactly what is in flight is fine, then nothing more */
	KUNIT_EXPECT_EQ(test, bqlm_dql_completed(dql, 100, T0 + 1), 0);
	KUNIT_EXPECT_EQ(test, bqlm_dql_completed(dql, 1, T0 + 1), -ERANGE);
	/* a zero completion is legal with nothing in flight */
	KUNIT_EXPECT_EQ(test, bqlm_dql_completed(dql, 0, T0 + 1), 0);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->count, 2U);

	/* a NULL vlog still rejects, it only records nothing */
	dql->vlog = NULL;
	KUNIT_EXPECT_EQ(test, bqlm_dql_completed(dql, 1, T0 + 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, vlog_of(test)->count, 2U);
}

static void dql_reset_state(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);
	unsigned int adj;
	unsigned int i;

	dql->stall_thrs = 2;
	dql->min_limit = 700;
	dql_qc(test, 5000, 4000, T0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 300, T0 + 70), 0);
	adj = dql->adj_limit;
	bqlm_dql_reset(dql, T0 + 300);

	KUNIT_EXPECT_EQ(test, dql->limit, 700U);
	KUNIT_EXPECT_EQ(test, dql->num_queued, 0U);
	KUNIT_EXPECT_EQ(test, dql->num_completed, 0U);
	KUNIT_EXPECT_EQ(test, dql->last_obj_cnt, 0U);
	KUNIT_EXPECT_EQ(test, dql->prev_num_queued, 0U);
	KUNIT_EXPECT_EQ(test, dql->prev_last_obj_cnt, 0U);
	KUNIT_EXPECT_EQ(test, dql->prev_ovlimit, 0U);
	KUNIT_EXPECT_EQ(test, dql->lowest_slack, UINT_MAX);
	KUNIT_EXPECT_EQ(test, dql->slack_start_time, T0 + 300);
	KUNIT_EXPECT_EQ(test, dql->last_reap, T0 + 300);
	KUNIT_EXPECT_EQ(test, dql->history_head, (T0 + 300) / (8 * sizeof(long)));
	for (i = 0; i < BQLM_DQL_HIST_LEN; i++)
		KUNIT_EXPECT_EQ_MSG(test, dql->history[i], 0UL, "history[%u]", i);
	/* kept: configuration and adj_limit (dql_reset leaves it) */
	KUNIT_EXPECT_EQ(test, dql->stall_thrs, 2);
	KUNIT_EXPECT_EQ(test, dql->min_limit, 700U);
	KUNIT_EXPECT_EQ(test, dql->adj_limit, adj);
	KUNIT_EXPECT_EQ(test, bqlm_dql_avail(dql), (int)adj);
	/* everything in flight is forgotten: completing it is a BUG */
	KUNIT_EXPECT_EQ(test, bqlm_dql_completed(dql, 1, T0 + 301), -ERANGE);
}

/*
 * Run the same script of rounds twice, from counters at 0 and from counters
 * @base just below 2^32, and check that the limit logic does not notice the
 * wrap: DQL's arithmetic is modulo 2^32 by design.
 */
static void dql_counter_wrap(struct kunit *test)
{
	static const struct {
		unsigned int queued;
		unsigned int completed;
	} script[] = {
		{ .queued = 1000, .completed = 1000 },
		{ .queued = 3000, .completed = 1000 },
		{ .queued = 500, .completed = 2500 },
		{ .queued = 4000, .completed = 1000 },
		{ .queued = 100, .completed = 3000 },
		{ .queued = 700, .completed = 700 },
		{ .queued = 9000, .completed = 600 },
		{ .queued = 0, .completed = 8500 },
		{ .queued = 2000, .completed = 100 },
		{ .queued = 2000, .completed = 3900 },
		{ .queued = 800, .completed = 800 },
	};
	const unsigned int base = UINT_MAX - 6000;
	struct bqlm_dql a = { 0 }, b = { 0 };
	unsigned int i, round;

	bqlm_dql_init(&a, 3, T0);
	bqlm_dql_init(&b, 3, T0);
	/* as if 2^32 - 6001 bytes had gone through */
	b.num_queued = b.num_completed = b.prev_num_queued = base;
	b.adj_limit = base;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < ARRAY_SIZE(script); i++) {
			unsigned long now = T0 + 4 * (round * 16 + i);

			KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_queued(&a, script[i].queued, now),
					    0, "round %u step %u", round, i);
			KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_queued(&b, script[i].queued, now),
					    0, "round %u step %u, wrapped", round, i);
			KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_completed(&a, script[i].completed, now),
					    0, "round %u step %u", round, i);
			KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_completed(&b, script[i].completed, now),
					    0, "round %u step %u, wrapped", round, i);
			KUNIT_EXPECT_EQ_MSG(test, a.limit, b.limit,
					    "round %u step %u", round, i);
			KUNIT_EXPECT_EQ_MSG(test, a.prev_ovlimit, b.prev_ovlimit,
					    "round %u step %u", round, i);
			KUNIT_EXPECT_EQ_MSG(test, a.lowest_slack, b.lowest_slack,
					    "round %u step %u", round, i);
			KUNIT_EXPECT_EQ_MSG(test, bqlm_dql_inflight(&a),
					    bqlm_dql_inflight(&b),
					    "round %u step %u", round, i);
			KUNIT_EXPECT_EQ_MSG(test, bqlm_dql_avail(&a),
					    bqlm_dql_avail(&b),
					    "round %u step %u", round, i);
		}
	}
	/* b really went through the wrap */
	KUNIT_EXPECT_LT(test, b.num_completed, base);
	KUNIT_EXPECT_GT(test, a.limit, 0U);
}

/* The same over a jiffies wrap: slack timing is modulo BITS_PER_LONG. */
#define DQL_WRAP_ROUNDS	40	/* rounds of 500 bytes, 20 before the wrap */

static void dql_jiffies_wrap(struct kunit *test)
{
	const unsigned long tb = ULONG_MAX - 20;
	struct bqlm_dql a = { 0 }, b = { 0 };
	unsigned long i;

	bqlm_dql_init(&a, 10, T0);
	bqlm_dql_init(&b, 10, tb);
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(&a, 3000, T0), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(&b, 3000, tb), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(&a, 3000, T0), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(&b, 3000, tb), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(&a, 2000, T0), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(&b, 2000, tb), 0);
	for (i = 1; i < DQL_WRAP_ROUNDS; i++) {
		KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_queued(&a, 500, T0 + i), 0,
				    "round %lu", i);
		KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_queued(&b, 500, tb + i), 0,
				    "round %lu, across the wrap", i);
		KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_completed(&a, 500, T0 + i), 0,
				    "round %lu", i);
		KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_completed(&b, 500, tb + i), 0,
				    "round %lu, across the wrap", i);
		KUNIT_EXPECT_EQ_MSG(test, a.limit, b.limit, "round %lu", i);
		KUNIT_EXPECT_EQ_MSG(test, a.lowest_slack, b.lowest_slack,
				    "round %lu", i);
		KUNIT_EXPECT_EQ_MSG(test, a.slack_start_time - T0,
				    b.slack_start_time - tb, "round %lu", i);
	}
	/* the limit did fall during the run (3000 -> 1000 at +11) */
	KUNIT_EXPECT_LT(test, a.limit, 3000U);
}

static void dql_stall_detected(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	/* T0 = 1000: queue at 1100, complete at 1110 with stall_thrs 4 */
	dql->stall_thrs = 4;
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, 1100), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 100, 1110), 0);
	/*
	 * The search runs from last_reap + 1 to now - stall_thrs / 2 =
	 * 1108 and finds the bit of 1100: one stall of 10 jiffies.
	 */
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 1UL);
	KUNIT_EXPECT_EQ(test, dql->stall_max, 10);
	KUNIT_EXPECT_EQ(test, dql->last_reap, 1110UL);

	/* no queueing since: nothing found */
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 0, 1130), 0);
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 1UL);
	KUNIT_EXPECT_EQ(test, dql->last_reap, 1130UL);

	/* a shorter stall later keeps the longest */
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, 1140), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 100, 1146), 0);
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 2UL);
	KUNIT_EXPECT_EQ(test, dql->stall_max, 10);
}

static void dql_stall_below_threshold(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	dql->stall_thrs = 8;
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, 1100), 0);
	/* completion 7 jiffies after the last one: not checked at all */
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 100, T0 + 7), 0);
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 0UL);
	KUNIT_EXPECT_EQ(test, dql->last_reap, T0 + 7);
	/*
	 * Queued at 1100, completion at 1103: checked (1103 >= 1007 + 8),
	 * but the search ends at now - 4 = 1099, before the queueing.
	 */
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, 1100), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 100, 1103), 0);
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 0UL);

	/* with the detector off, the history is not even written */
	dql->stall_thrs = 0;
	memset(dql->history, 0, sizeof(dql->history));
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, 1200), 0);
	KUNIT_EXPECT_EQ(test, dql->history[(1200 / (8 * sizeof(long))) %
					   BQLM_DQL_HIST_LEN], 0UL);
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 100, 1300), 0);
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 0UL);
	/* last_reap is only maintained while the detector is on */
	KUNIT_EXPECT_EQ(test, dql->last_reap, 1103UL);
}

static void dql_stall_history_wrap(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);
	const unsigned long bits = 8 * sizeof(long);
	const unsigned long t = 1100, t2 = t + 5 * bits;
	unsigned int i, set = 0;

	dql->stall_thrs = 4;
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, t), 0);
	/* five words later: all four history words are reused */
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, t2), 0);
	KUNIT_EXPECT_EQ(test, dql->history_head, t2 / bits);
	for (i = 0; i < BQLM_DQL_HIST_LEN; i++)
		set += hweight_long(dql->history[i]);
	KUNIT_EXPECT_EQ(test, set, 1U);
	KUNIT_EXPECT_EQ(test, dql->history[(t2 / bits) % BQLM_DQL_HIST_LEN],
			1UL << (t2 % bits));

	/* the stall is measured from the remembered queueing at t2 */
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 200, t2 + 10), 0);
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 1UL);
	KUNIT_EXPECT_EQ(test, dql->stall_max, 10);
}

static void dql_stall_max_truncated(struct kunit *test)
{
	struct bqlm_dql *dql = dql_of(test);

	/*
	 * stall_max is an unsigned short and the kernel uses
	 * max_t(unsigned short, ...): a 70000-jiffy stall is recorded as
	 * 70000 - 65536 = 4464.
	 */
	dql->stall_thrs = 4;
	KUNIT_ASSERT_EQ(test, bqlm_dql_queued(dql, 100, 1100), 0);
	KUNIT_ASSERT_EQ(test, bqlm_dql_completed(dql, 100, 1100 + 70000), 0);
	KUNIT_EXPECT_EQ(test, dql->stall_cnt, 1UL);
	KUNIT_EXPECT_EQ(test, dql->stall_max, 4464);
}

/* ---- randomised property tests --------------------------------------- */

struct dql_seed {
	u64 seed;
	bool adversarial;
	const char *desc;
};

static const struct dql_seed dql_seeds[] = {
	{ .seed = 1, .desc = "seed-1" },
	{ .seed = 42, .desc = "seed-42" },
	{ .seed = 0xdeadbeef, .desc = "seed-0xdeadbeef" },
	{ .seed = 7, .adversarial = true, .desc = "adversarial-seed-7" },
	{ .seed = 2026, .adversarial = true, .desc = "adversarial-seed-2026" },
};

KUNIT_ARRAY_PARAM_DESC(dql_seeds, dql_seeds, desc);

#define DQL_PROPERTY_STEPS	4000

static void dql_random_properties(struct kunit *test)
{
	const struct dql_seed *p = test->param_value;
	struct bqlm_dql *dql = dql_of(test);
	struct bqlm_vlog *vlog = vlog_of(test);
	u64 queued = 0, completed = 0;	/* since the last reset */
	unsigned int rejected = 0, grown = 0, shrunk = 0;
	unsigned long now = T0;
	struct bqlm_prng r;
	unsigned int i;

	bqlm_prng_seed(&r, p->seed);
	for (i = 0; i < DQL_PROPERTY_STEPS; i++) {
		struct dql_op op = dql_workload_next(&r, dql, p->adversarial);
		unsigned int limit = dql->limit;
		u64 before = bqlm_dql_digest(dql);
		int ret = dql_workload_apply(dql, &op, &now);

		if (ret) {
			/* rejected calls change nothing */
			KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_digest(dql), before,
					    "step %u: rejected %s %u", i,
					    dql_op_name(op.kind), op.arg);
			rejected++;
			continue;
		}
		if (op.kind == DQL_OP_QUEUE)
			queued += op.arg;
		else if (op.kind == DQL_OP_COMPLETE)
			completed += op.arg;
		else if (op.kind == DQL_OP_RESET)
			queued = completed = 0;

		/* byte balance against an independent 64-bit tally */
		KUNIT_ASSERT_LE_MSG(test, completed, queued, "step %u: %s %u",
				    i, dql_op_name(op.kind), op.arg);
		KUNIT_ASSERT_EQ_MSG(test, (u64)bqlm_dql_inflight(dql),
				    queued - completed, "step %u: %s %u", i,
				    dql_op_name(op.kind), op.arg);
		KUNIT_ASSERT_EQ_MSG(test, dql->num_queued, (unsigned int)queued,
				    "step %u: %s %u", i, dql_op_name(op.kind),
				    op.arg);
		if (op.kind == DQL_OP_COMPLETE) {
			KUNIT_ASSERT_EQ_MSG(test, dql->adj_limit,
					    dql->limit + dql->num_completed,
					    "step %u: complete %u", i, op.arg);
			KUNIT_ASSERT_EQ_MSG(test, bqlm_dql_avail(dql),
					    (int)(dql->limit - bqlm_dql_inflight(dql)),
					    "step %u: complete %u", i, op.arg);
			KUNIT_ASSERT_EQ_MSG(test,
					    bqlm_dql_check_limit(dql, "test"), 0,
					    "step %u: complete %u", i, op.arg);
			if (dql->stall_thrs)
				KUNIT_ASSERT_EQ_MSG(test, dql->last_reap, now,
						    "step %u: complete %u", i,
						    op.arg);
			grown += dql->limit > limit;
			shrunk += dql->limit < limit;
		}
	}
	/* every rejection was recorded, and only rejections */
	KUNIT_EXPECT_EQ(test, vlog->count, rejected);
	if (!p->adversarial)
		KUNIT_EXPECT_EQ(test, rejected, 0U);
	else
		KUNIT_EXPECT_GT(test, rejected, 0U);
	/* the workload exercised both directions of the limit */
	KUNIT_EXPECT_GT(test, grown, 0U);
	KUNIT_EXPECT_GT(test, shrunk, 0U);
}

/*
 * A fixed seeded workload whose final state digest is a constant: the same
 * in the kernel and in userspace, so the model computes the same there.
 * The history bitmap depends on BITS_PER_LONG, hence one constant each.
 */
#define DQL_TRAJECTORY_SEED	0x5eedULL
#define DQL_TRAJECTORY_STEPS	20000
#define DQL_TRAJECTORY_DIGEST64	0xda658a47cf50d120ULL
#define DQL_TRAJECTORY_DIGEST32	0xbb0212864d5d3fcfULL

static void dql_trajectory_digest(struct kunit *test)
{
	struct bqlm_dql dql = { 0 };
	unsigned long now = T0;
	struct bqlm_prng r;
	u64 digest;
	unsigned int i;

	bqlm_dql_init(&dql, 25, now);
	dql.stall_thrs = 5;
	bqlm_prng_seed(&r, DQL_TRAJECTORY_SEED);
	for (i = 0; i < DQL_TRAJECTORY_STEPS; i++) {
		struct dql_op op = dql_workload_next(&r, &dql, false);

		KUNIT_ASSERT_EQ_MSG(test, dql_workload_apply(&dql, &op, &now), 0,
				    "step %u: %s %u", i, dql_op_name(op.kind),
				    op.arg);
	}
	digest = bqlm_dql_digest(&dql);
	kunit_info(test, "digest 0x%016llx limit %u stall_cnt %lu", digest,
		   dql.limit, dql.stall_cnt);
	kunit_info(test, "expecting DQL_TRAJECTORY_DIGEST%zu: unsigned long has %zu bits, and history_head and the history words are counted in them",
		   8 * sizeof(long), 8 * sizeof(long));
	KUNIT_EXPECT_EQ(test, digest, sizeof(long) == 8 ?
			DQL_TRAJECTORY_DIGEST64 : DQL_TRAJECTORY_DIGEST32);
}

static struct kunit_case bqlm_dql_cases[] = {
	KUNIT_CASE(dql_init_defaults),
	KUNIT_CASE(dql_starvation_grows_limit),
	KUNIT_CASE(dql_prev_ovlimit_starvation),
	KUNIT_CASE(dql_slack_decrease_after_hold_time),
	KUNIT_CASE(dql_slack_of_last_object),
	KUNIT_CASE(dql_min_max_clamp),
	KUNIT_CASE(dql_min_above_max),
	KUNIT_CASE(dql_max_object_rejected),
	KUNIT_CASE(dql_over_completion_rejected),
	KUNIT_CASE(dql_reset_state),
	KUNIT_CASE(dql_counter_wrap),
	KUNIT_CASE(dql_jiffies_wrap),
	KUNIT_CASE(dql_stall_detected),
	KUNIT_CASE(dql_stall_below_threshold),
	KUNIT_CASE(dql_stall_history_wrap),
	KUNIT_CASE(dql_stall_max_truncated),
	KUNIT_CASE_PARAM(dql_random_properties, dql_seeds_gen_params),
	KUNIT_CASE(dql_trajectory_digest),
	{}
};

BQLM_KUNIT_SUITE(bqlm_dql, bqlm_dql_cases, .init = dql_test_init);
