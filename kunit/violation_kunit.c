// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the bqlmodel violation record (model/core/violation.c).
 */
#include <linux/if_ether.h>
#include "bqlm_kunit.h"
#include <bqlm/violation.h>

static void violation_names(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < BQLM_CHECK_NR; i++) {
		const char *name = bqlm_check_name(i);

		KUNIT_ASSERT_NOT_NULL_MSG(test, name, "check %u", i);
		KUNIT_EXPECT_GT_MSG(test, strlen(name), 0UL, "check %u", i);
		KUNIT_EXPECT_STRNEQ_MSG(test, name, "unknown", "check %u", i);
		KUNIT_EXPECT_GT_MSG(test, strlen(bqlm_check_kernel_effect(i)),
				    0UL, "check %u (%s): kernel effect", i,
				    name);
		/* names are stable identifiers: unique */
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ_MSG(test, name, bqlm_check_name(j),
						"checks %u and %u", j, i);
	}
	KUNIT_EXPECT_STREQ(test, bqlm_check_name(BQLM_CHECK_NR), "unknown");
	KUNIT_EXPECT_STREQ(test, bqlm_check_name((enum bqlm_check)-1),
			   "unknown");
	KUNIT_EXPECT_STREQ(test, bqlm_check_kernel_effect(BQLM_CHECK_NR),
			   "unknown");
}

static void violation_log_keeps_first(struct kunit *test)
{
	struct bqlm_vlog log;

	bqlm_vlog_init(&log);
	KUNIT_EXPECT_EQ(test, log.count, 0U);
	KUNIT_EXPECT_EQ(test,
			bqlm_vlog_report(&log, BQLM_CHECK_DQL_OVER_COMPLETION,
					 -ERANGE, "dql_completed", 5, 3),
			-ERANGE);
	KUNIT_EXPECT_EQ(test,
			bqlm_vlog_report(&log, BQLM_CHECK_STALL, -EAGAIN,
					 "usbnet_bh", 1, 2),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, log.count, 2U);
	KUNIT_EXPECT_EQ(test, log.first.check, BQLM_CHECK_DQL_OVER_COMPLETION);
	KUNIT_EXPECT_EQ(test, log.first.err, -ERANGE);
	KUNIT_EXPECT_STREQ(test, log.first.where, "dql_completed");
	KUNIT_EXPECT_EQ(test, log.first.val[0], 5ULL);
	KUNIT_EXPECT_EQ(test, log.first.val[1], 3ULL);
	/* no log: the code still comes back */
	KUNIT_EXPECT_EQ(test, bqlm_vlog_report(NULL, BQLM_CHECK_STALL, -EIO,
					       "x", 0, 0), -EIO);
}

static void violation_format(struct kunit *test)
{
	struct bqlm_violation v = {
		.check = BQLM_CHECK_DQL_OVER_COMPLETION, .err = -ERANGE,
		.where = "dql_completed", .val = { ETH_FRAME_LEN, 0 },
	};
	char buf[256], tiny[8];
	int len;

	len = bqlm_violation_format(buf, sizeof(buf), &v);
	KUNIT_EXPECT_EQ(test, len, (int)strlen(buf));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "dql-over-completion in dql_completed (1514 vs 0"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "kernel BUG at lib/dynamic_queue_limits.c"));

	/* truncation is safe and reports the full length, as snprintf */
	KUNIT_EXPECT_EQ(test, bqlm_violation_format(tiny, sizeof(tiny), &v), len);
	KUNIT_EXPECT_EQ(test, strlen(tiny), sizeof(tiny) - 1);

	v.where = NULL;
	bqlm_violation_format(buf, sizeof(buf), &v);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, " in ? ("));
}

static struct kunit_case bqlm_violation_cases[] = {
	KUNIT_CASE(violation_names),
	KUNIT_CASE(violation_log_keeps_first),
	KUNIT_CASE(violation_format),
	{}
};

BQLM_KUNIT_SUITE(bqlm_violation, bqlm_violation_cases);
