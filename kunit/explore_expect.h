/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one exploration and the figures it must give, shared by the
 * driver model suites (usbnet, tun).
 */
#ifndef _BQLM_KUNIT_EXPLORE_EXPECT_H
#define _BQLM_KUNIT_EXPLORE_EXPECT_H

#include <bqlm/explore.h>

/**
 * struct explore_expect - what an exploration must find
 * @desc: the case, for the log line
 * @states: exact number of states
 * @transitions: exact number of transitions
 * @violated: exact mask of violated checks
 * @verdict: the verdict (bqlm_xresult_verdict())
 * @verdict_depth: the depth of the verdict's shortest witness
 */
struct explore_expect {
	const char *desc;
	unsigned long long states;
	unsigned long long transitions;
	unsigned int violated;
	enum bqlm_check verdict;
	unsigned int verdict_depth;
};

/*
 * Explore @sys within @bounds (may be NULL) into @res, completely, and
 * expect the figures of @e: the explorer is deterministic, so they are the
 * same in the kernel, in userspace and in the 32-bit build. Every violated
 * check has a witness of that check.
 */
static inline void explore_expect(struct kunit *test,
				  const struct bqlm_xsys *sys,
				  const struct bqlm_xbounds *bounds,
				  struct bqlm_xresult *res,
				  const struct explore_expect *e)
{
	struct bqlm_explorer *x;
	unsigned int c;
	int err;

	x = bqlm_explorer_create(sys, bounds);
	KUNIT_ASSERT_NOT_NULL(test, x);
	err = bqlm_explore(x, res);
	bqlm_explorer_destroy(x);

	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_TRUE(test, res->complete);
	kunit_info(test, "%s: %llu states, %llu transitions, depth %u, %s",
		   e->desc, res->states, res->transitions, res->max_depth,
		   bqlm_check_name(bqlm_xresult_verdict(res)));
	KUNIT_EXPECT_EQ(test, res->states, e->states);
	KUNIT_EXPECT_EQ(test, res->transitions, e->transitions);
	KUNIT_EXPECT_EQ(test, res->violated, e->violated);
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res), e->verdict);
	if (e->verdict != BQLM_CHECK_NONE)
		KUNIT_EXPECT_EQ(test, res->w[e->verdict].depth,
				e->verdict_depth);
	for (c = 0; c < BQLM_CHECK_NR; c++)
		if (res->violated & BQLM_CHECK_BIT(c))
			KUNIT_EXPECT_EQ(test, res->w[c].v.check, c);
}

#endif /* _BQLM_KUNIT_EXPLORE_EXPECT_H */
