/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures of table xoff_x: one row a case, what the case's
 * search gives (struct explore_expect). Written by make promote
 * (scripts/promote.py) from a run of the suites; review it as a
 * diff, do not edit it by hand.
 */
#ifndef _BQLM_KUNIT_EXPECT_XOFF_X_H
#define _BQLM_KUNIT_EXPECT_XOFF_X_H

static const struct explore_expect xoff_x_rows[] = {
	{ .key = "sc",
	  .states = 70, .transitions = 106,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "sc-no-barrier",
	  .states = 70, .transitions = 106,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "tso",
	  .states = 242, .transitions = 581,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "tso-no-barrier",
	  .states = 309, .transitions = 723,
	  .violated = BIT_ST,
	  .verdict = BQLM_CHECK_STALL, .verdict_depth = 9 },
	{ .key = "pso",
	  .states = 254, .transitions = 638,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "pso-no-barrier",
	  .states = 333, .transitions = 835,
	  .violated = BIT_ST,
	  .verdict = BQLM_CHECK_STALL, .verdict_depth = 9 },
	{ .key = "x86",
	  .states = 173, .transitions = 395,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "x86-no-barrier",
	  .states = 173, .transitions = 395,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "tso-no-sent-mb",
	  .states = 309, .transitions = 723,
	  .violated = BIT_ST,
	  .verdict = BQLM_CHECK_STALL, .verdict_depth = 9 },
	{ .key = "pso-no-sent-mb",
	  .states = 333, .transitions = 835,
	  .violated = BIT_ST,
	  .verdict = BQLM_CHECK_STALL, .verdict_depth = 9 },
	{ .key = "tso-no-completed-mb",
	  .states = 242, .transitions = 581,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "pso-no-completed-mb",
	  .states = 254, .transitions = 638,
	  .verdict = BQLM_CHECK_NONE },
};

static const struct explore_expect_table xoff_x_expect = {
	.name = "xoff_x",
	.rows = xoff_x_rows,
	.nr = ARRAY_SIZE(xoff_x_rows),
};

#endif /* _BQLM_KUNIT_EXPECT_XOFF_X_H */
