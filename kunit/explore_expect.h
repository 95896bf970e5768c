/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - one exploration and the figures it must give, shared by the
 * driver model suites (usbnet, tun).
 */
#ifndef _BQLM_KUNIT_EXPLORE_EXPECT_H
#define _BQLM_KUNIT_EXPLORE_EXPECT_H

#include <bqlm/explore.h>

/*
 * The full search's bounds: what the figures the suites pin (exact state
 * counts, shortest paths) are measured with.
 */
#define EXPLORE_FULL	(&(const struct bqlm_xbounds){ .no_reduction = true })

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
 * Does @path (@n actions from the initial state) end in a violation of
 * check @c: its last step violates @c, or the state it reaches does?
 * Replays the path through the system's own steps.
 */
static inline bool explore_replays(struct kunit *test,
				   const struct bqlm_xsys *sys,
				   const unsigned int *path, unsigned int n,
				   unsigned int c)
{
	unsigned char *cur = kunit_kzalloc(test, sys->state_size, GFP_KERNEL);
	unsigned char *next = kunit_kzalloc(test, sys->state_size,
					    GFP_KERNEL);
	unsigned int *en = kunit_kcalloc(test, BQLM_X_MAX_ACTIONS,
					 sizeof(*en), GFP_KERNEL);
	struct bqlm_violation *each = kunit_kcalloc(test, BQLM_CHECK_NR,
						    sizeof(*each),
						    GFP_KERNEL);
	unsigned int k, ne;
	int mask = 0;
	bool ok = false;

	if (!cur || !next || !en || !each)
		return false;
	bqlm_xinit(sys, cur);
	for (k = 0; k < n; k++) {
		memcpy(next, cur, sys->state_size);
		mask = bqlm_xstep(sys, cur, path[k], next, each);
		if (mask < 0)
			return false;
		memcpy(cur, next, sys->state_size);
	}
	if (n && (mask & BQLM_CHECK_BIT(c))) {
		ok = true;
	} else {
		ne = bqlm_xenabled(sys, cur, en);
		mask = bqlm_xcheck_state(sys, cur, en, ne, each);
		ok = mask > 0 && (mask & BQLM_CHECK_BIT(c));
	}
	return ok;
}

/*
 * The reduced search of @sys within @bounds against the full search's
 * result @full: the same checks violated, no more states, and a path to
 * each violation that replays from the initial state to it. Returns the
 * reduced search's states (0 when @sys has no reduction hook).
 */
static inline unsigned long long
explore_compare_reduced(struct kunit *test, const struct bqlm_xsys *sys,
			const struct bqlm_xbounds *bounds,
			const struct bqlm_xresult *full, const char *desc)
{
	struct bqlm_xbounds b = { 0 };
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	unsigned int *path, c;
	unsigned long long states;
	int n;

	if (!sys->ops->canon)
		return 0;
	if (bounds)
		b = *bounds;
	b.no_reduction = false;
	b.max_depth = 0;	/* a depth bound turns the reduction off */
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	path = kunit_kcalloc(test, 1024, sizeof(*path), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, path);
	x = bqlm_explorer_create(sys, &b);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	KUNIT_EXPECT_TRUE(test, res->reduced);
	kunit_info(test, "%s: reduced %llu states (full %llu), %s",
		   desc, res->states, full->states,
		   bqlm_check_name(bqlm_xresult_verdict(res)));
	KUNIT_EXPECT_EQ(test, res->violated, full->violated);
	KUNIT_EXPECT_LE(test, res->states, full->states);
	for (c = 0; c < BQLM_CHECK_NR; c++) {
		if (!(res->violated & BQLM_CHECK_BIT(c)))
			continue;
		n = bqlm_explorer_path(x, c, path, 1024);
		KUNIT_EXPECT_GE(test, n, (int)full->w[c].depth);
		if (n >= 0)
			KUNIT_EXPECT_TRUE_MSG(test,
					      explore_replays(test, sys, path, n, c),
					      "%s: the path to %s does not replay",
					      desc, bqlm_check_name(c));
	}
	states = res->states;
	bqlm_explorer_destroy(x);
	return states;
}

/*
 * Explore @sys within @bounds (may be NULL) into @res, completely, without
 * reduction, and expect the figures of @e: the explorer is deterministic,
 * so they are the same in the kernel, in userspace and in the 32-bit
 * build. Every violated check has a witness of that check.
 */
static inline void explore_expect_full(struct kunit *test,
				       const struct bqlm_xsys *sys,
				       const struct bqlm_xbounds *bounds,
				       struct bqlm_xresult *res,
				       const struct explore_expect *e)
{
	struct bqlm_xbounds b = { 0 };
	struct bqlm_explorer *x;
	unsigned int c;
	int err;

	if (bounds)
		b = *bounds;
	b.no_reduction = true;
	x = bqlm_explorer_create(sys, &b);
	KUNIT_ASSERT_NOT_NULL(test, x);
	err = bqlm_explore(x, res);
	bqlm_explorer_destroy(x);

	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_TRUE(test, res->complete);
	KUNIT_EXPECT_FALSE(test, res->reduced);
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

/*
 * explore_expect_full(), then the reduced search, which must find the
 * same checks violated (explore_compare_reduced()); a depth bound turns
 * the reduction off, so there is nothing to compare then.
 */
static inline void explore_expect(struct kunit *test,
				  const struct bqlm_xsys *sys,
				  const struct bqlm_xbounds *bounds,
				  struct bqlm_xresult *res,
				  const struct explore_expect *e)
{
	explore_expect_full(test, sys, bounds, res, e);
	if (!bounds || !bounds->max_depth)
		explore_compare_reduced(test, sys, bounds, res, e->desc);
}

#endif /* _BQLM_KUNIT_EXPLORE_EXPECT_H */
