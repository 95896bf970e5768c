// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - tests of the userspace stand-in of <kunit/test.h> itself.
 *
 * A binary of its own (build/asan/standin-selftest), not part of the
 * suites: some of its cases fail on purpose, to show what a failure
 * prints. scripts/check-standin.sh runs it and checks its KTAP line by
 * line against what lib/kunit would print, and that no other case than
 * those two fails. The cases run in order: a case may check what the
 * cleanup of the case before it did.
 */
#include <kunit/test.h>

/* What the deferred actions did, in the order they ran. */
static char standin_log[64];

static void standin_note(void *ctx)
{
	size_t n = strlen(standin_log);

	if (n + 1 < sizeof(standin_log)) {
		standin_log[n] = *(const char *)ctx;
		standin_log[n + 1] = '\0';
	}
}

/* An action that reads memory registered before it: still there. */
static void standin_read(void *ctx)
{
	standin_note(ctx);
}

static void standin_actions_register(struct kunit *test)
{
	char *mem;

	standin_log[0] = '\0';
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_note, "a"), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_note, "b"), 0);
	/* memory, then an action that reads it at the end: reverse order */
	mem = kunit_kzalloc(test, 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mem);
	mem[0] = 'm';
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_read, mem), 0);
	/* released now, once: it does not run again at the end */
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_note, "d"), 0);
	kunit_release_action(test, standin_note, "d");
	kunit_release_action(test, standin_note, "d");
	KUNIT_EXPECT_STREQ(test, standin_log, "d");
	/* removed: never runs */
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_note, "e"), 0);
	kunit_remove_action(test, standin_note, "e");
	/* registered twice, released once: the older stays */
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_note, "f"), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_note, "f"), 0);
	kunit_release_action(test, standin_note, "f");
	KUNIT_EXPECT_STREQ(test, standin_log, "df");
	/* kunit_kfree() frees one allocation, not the actions */
	kunit_kfree(test, kunit_kzalloc(test, 8, GFP_KERNEL));
}

/* The actions of the case before ran when it ended, the newest first. */
static void standin_actions_ran_in_reverse(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, standin_log, "dffmba");
}

/* A registration that fails runs the action at once (..._or_reset). */
static void standin_action_or_reset(struct kunit *test)
{
	standin_log[0] = '\0';
	kunit_ustub_fail_next_resources(1);
	KUNIT_EXPECT_EQ(test, kunit_add_action_or_reset(test, standin_note,
							"r"), -ENOMEM);
	KUNIT_EXPECT_STREQ(test, standin_log, "r");
	kunit_ustub_fail_next_resources(1);
	KUNIT_EXPECT_EQ(test, kunit_add_action(test, standin_note, "x"),
			-ENOMEM);
	kunit_ustub_fail_next_resources(1);
	KUNIT_EXPECT_NULL(test, kunit_kzalloc(test, 8, GFP_KERNEL));
	KUNIT_EXPECT_STREQ(test, standin_log, "r");
	KUNIT_EXPECT_EQ(test, kunit_add_action(test, NULL, NULL), -EINVAL);
}

/* Fails on purpose: the assertion's message, then the case ends. */
static void standin_assert_msg_fails(struct kunit *test)
{
	standin_log[0] = '\0';
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, standin_note, "z"), 0);
	KUNIT_ASSERT_EQ_MSG(test, 1 + 1, 3, "step %u of scenario %s",
			    7U, "two-queues");
	standin_note("!");	/* not reached */
}

/* The failed assertion ended the case, and its action still ran. */
static void standin_actions_ran_after_assert(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, standin_log, "z");
}

/* Fails on purpose: each kind of expectation's message; the case goes on. */
static void standin_expect_msg_fails(struct kunit *test)
{
	static const char a[] = "abc", b[] = "abd";

	standin_log[0] = '\0';
	KUNIT_EXPECT_NE_MSG(test, 5, 5, "field %s", "limit");
	KUNIT_EXPECT_STREQ_MSG(test, "sc", "tso", "memory model of case %d", 2);
	KUNIT_EXPECT_MEMEQ_MSG(test, a, b, sizeof(a), "slot %d", 3);
	KUNIT_EXPECT_NULL_MSG(test, a, "pointer %s", "a");
	KUNIT_EXPECT_TRUE_MSG(test, 0, "depth %u", 12U);
	standin_note("g");
}

static void standin_expect_went_on(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, standin_log, "g");
	/* the passing forms of each kind */
	KUNIT_EXPECT_MEMNEQ(test, "abc", "abd", 3);
	KUNIT_EXPECT_PTR_NE(test, standin_log, NULL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, standin_log);
	KUNIT_EXPECT_STRNEQ_MSG(test, "sc", "tso", "never printed");
}

static struct kunit_case standin_action_cases[] = {
	KUNIT_CASE(standin_actions_register),
	KUNIT_CASE(standin_actions_ran_in_reverse),
	KUNIT_CASE(standin_action_or_reset),
	KUNIT_CASE(standin_assert_msg_fails),
	KUNIT_CASE(standin_actions_ran_after_assert),
	KUNIT_CASE(standin_expect_msg_fails),
	KUNIT_CASE(standin_expect_went_on),
	{}
};

static struct kunit_suite standin_action_suite = {
	.name = "standin_actions",
	.test_cases = standin_action_cases,
};

/* Attributes: printed as lib/kunit/attributes.c prints them. */
static void standin_slow(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, test->param_index, 0);
}

static void standin_very_slow(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, test->param_value);
}

/* No speed of its own: none printed (the suite's applies). */
static void standin_unset(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, test->param_value);
}

static const int standin_params[] = { 1, 2 };

static void standin_param_desc(const int *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "value-%d", *p);
}

KUNIT_ARRAY_PARAM(standin_params, standin_params, standin_param_desc);

static void standin_param(struct kunit *test)
{
	const int *p = test->param_value;

	KUNIT_EXPECT_EQ(test, *p, test->param_index + 1);
}

static struct kunit_case standin_attr_cases[] = {
	KUNIT_CASE_SLOW(standin_slow),
	KUNIT_CASE_ATTR(standin_very_slow,
			{ .speed = KUNIT_SPEED_VERY_SLOW }),
	KUNIT_CASE_PARAM_ATTR(standin_param, standin_params_gen_params,
			      { .speed = KUNIT_SPEED_NORMAL }),
	KUNIT_CASE(standin_unset),
	{}
};

static struct kunit_suite standin_attr_suite = {
	.name = "standin_attributes",
	.test_cases = standin_attr_cases,
	.attr = { .speed = KUNIT_SPEED_SLOW },
};

kunit_test_suites(&standin_action_suite, &standin_attr_suite);
