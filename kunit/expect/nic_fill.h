/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures of table nic_fill: one row a case, what the case's
 * search gives (struct explore_expect). Written by make promote
 * (scripts/promote.py) from a run of the suites; review it as a
 * diff, do not edit it by hand.
 */
#ifndef _BQLM_KUNIT_EXPECT_NIC_FILL_H
#define _BQLM_KUNIT_EXPECT_NIC_FILL_H

static const struct explore_expect nic_fill_rows[] = {
	{ .key = "generic",
	  .states = 236, .transitions = 314,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "inverted-wake-old-bound",
	  .states = 773, .transitions = 1453,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "inverted-wake",
	  .states = 8083, .transitions = 17964,
	  .violated = BIT_ST,
	  .verdict = BQLM_CHECK_STALL, .verdict_depth = 24 },
	{ .key = "inverted-wake-fixed",
	  .states = 11711, .transitions = 28829,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "stop-q0",
	  .states = 11917, .transitions = 28720,
	  .violated = BIT_ST | BIT_WQ,
	  .verdict = BQLM_CHECK_STALL, .verdict_depth = 34 },
	{ .key = "tsnep-stop-queue0",
	  .states = 7019, .transitions = 15366,
	  .violated = BIT_WQ,
	  .verdict = BQLM_CHECK_WRONG_QUEUE, .verdict_depth = 22 },
	{ .key = "tsnep-3d53aaef4332",
	  .states = 6427, .transitions = 13901,
	  .verdict = BQLM_CHECK_NONE },
	{ .key = "tg3-busy-unreached",
	  .states = 947, .transitions = 1939,
	  .verdict = BQLM_CHECK_NONE },
};

static const struct explore_expect_table nic_fill_expect = {
	.name = "nic_fill",
	.rows = nic_fill_rows,
	.nr = ARRAY_SIZE(nic_fill_rows),
};

#endif /* _BQLM_KUNIT_EXPECT_NIC_FILL_H */
