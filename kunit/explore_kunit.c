// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the explorer (model/core/explore.c), suite bqlm_explore.
 *
 * The explorer is tested on a toy system whose state space is known in
 * closed form: a grid of (x, y), 0 <= x, y <= n, where action 0 increments
 * x and action 1 increments y. The toy reports
 *  - a byte-balance violation (not fatal) on the step (0, 0) -> (1, 0),
 *  - an over-completion (fatal) on any step into (n, n),
 *  - a stall (fatal, a property of the state) in (0, n).
 * So there are (n + 1)^2 - 1 states ((n, n) is never stored), the stall is
 * the verdict at depth n, the over-completion is at depth 2n.
 */
#include "bqlm_kunit.h"
#include <bqlm/explore.h>
#include <bqlm/options.h>
#include <bqlm/prng.h>
#include <bqlm/nic.h>
#include <bqlm/usbnet.h>
#include <bqlm/tun.h>
#include "explore_expect.h"

struct toy_state {
	unsigned char x;
	unsigned char y;
	unsigned char pad[2];
};

enum toy_mode {
	TOY_GOOD,
	TOY_BAD_STEP,		/* refuses an action it enabled */
	TOY_TOO_MANY,		/* claims too many actions */
	TOY_BAD_CHECK,		/* the state check fails */
};

struct toy_cfg {
	unsigned int n;
	enum toy_mode mode;
};

#define OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define ST	BQLM_CHECK_BIT(BQLM_CHECK_STALL)

static void toy_init(const void *ctx, void *state)
{
	(void)ctx;
	(void)state;
}

static unsigned int toy_enabled(const void *ctx, const void *state,
				unsigned int *actions)
{
	const struct toy_cfg *cfg = ctx;
	const struct toy_state *s = state;
	unsigned int n = 0;

	if (cfg->mode == TOY_TOO_MANY)
		return BQLM_X_MAX_ACTIONS + 1;
	if (s->x < cfg->n)
		actions[n++] = 0;
	if (s->y < cfg->n)
		actions[n++] = 1;
	return n;
}

static void toy_violation(struct bqlm_violation *each, enum bqlm_check c,
			  int err, const struct toy_state *s)
{
	each[c].check = c;
	each[c].err = err;
	each[c].where = "toy";
	each[c].val[0] = s->x;
	each[c].val[1] = s->y;
}

static int toy_step(const void *ctx, const void *from, unsigned int action,
		    void *to, struct bqlm_violation *each)
{
	const struct toy_cfg *cfg = ctx;
	const struct toy_state *f = from;
	struct toy_state *t = to;
	int mask = 0;

	if (action > 1 || (action == 0 && f->x >= cfg->n) ||
	    (action == 1 && f->y >= cfg->n))
		return -EINVAL;
	if (cfg->mode == TOY_BAD_STEP && action == 1)
		return -EINVAL;
	if (action == 0)
		t->x++;
	else
		t->y++;
	if (t->x == 1 && t->y == 0) {
		toy_violation(each, BQLM_CHECK_BYTE_BALANCE, -EBADMSG, t);
		mask |= BB;
	}
	if (t->x == cfg->n && t->y == cfg->n) {
		toy_violation(each, BQLM_CHECK_DQL_OVER_COMPLETION, -ERANGE, t);
		mask |= OC;
	}
	return mask;
}

static int toy_check_state(const void *ctx, const void *state,
			   const unsigned int *actions, unsigned int n,
			   struct bqlm_violation *each)
{
	const struct toy_cfg *cfg = ctx;
	const struct toy_state *s = state;

	(void)actions;
	(void)n;
	if (cfg->mode == TOY_BAD_CHECK)
		return -EIO;
	if (s->x == 0 && s->y == cfg->n) {
		toy_violation(each, BQLM_CHECK_STALL, -EAGAIN, s);
		return ST;
	}
	return 0;
}

static int toy_describe_action(const void *ctx, const void *state,
			       unsigned int action, char *buf, size_t len)
{
	(void)ctx;
	(void)state;
	return snprintf(buf, len, "toy: %s++", action ? "y" : "x");
}

static int toy_describe_state(const void *ctx, const void *state, char *buf,
			      size_t len)
{
	const struct toy_state *s = state;

	(void)ctx;
	return snprintf(buf, len, "x %u y %u", s->x, s->y);
}

static const struct bqlm_xops toy_ops = {
	.init = toy_init,
	.enabled = toy_enabled,
	.step = toy_step,
	.check_state = toy_check_state,
	.describe_action = toy_describe_action,
	.describe_state = toy_describe_state,
};

static void toy_sys(struct bqlm_xsys *sys, const struct toy_cfg *cfg)
{
	sys->name = "toy";
	sys->state_size = sizeof(struct toy_state);
	sys->ctx = cfg;
	sys->ops = &toy_ops;
}

/* Explore the toy; the result in @res, the return value of bqlm_explore. */
static int toy_explore(struct kunit *test, const struct toy_cfg *cfg,
		       const struct bqlm_xbounds *bounds,
		       struct bqlm_xresult *res, unsigned int *path,
		       enum bqlm_check check, int *path_len)
{
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	int err;

	toy_sys(&sys, cfg);
	x = bqlm_explorer_create(&sys, bounds);
	KUNIT_EXPECT_NOT_NULL_MSG(test, x, "toy n %u mode %d", cfg->n,
				  cfg->mode);
	if (!x)
		return -ENOMEM;
	err = bqlm_explore(x, res);
	if (path)
		*path_len = bqlm_explorer_path(x, check, path,
					       EXPLORE_PATH_MAX);
	bqlm_explorer_destroy(x);
	return err;
}

static void explore_grid(struct kunit *test)
{
	struct toy_cfg cfg = { .n = 40 };
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));
	unsigned int *path = explore_path_alloc(test);
	int n, i;

	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, NULL, res, path,
					  BQLM_CHECK_DQL_OVER_COMPLETION, &n),
			0);
	KUNIT_EXPECT_TRUE(test, res->complete);
	KUNIT_EXPECT_FALSE(test, res->depth_bounded);
	KUNIT_EXPECT_EQ(test, res->states, 41ULL * 41 - 1);
	/* every stored state but (0, 40) (a stall) expands its actions */
	KUNIT_EXPECT_EQ(test, res->transitions, 2ULL * 40 * 41 - 1);
	KUNIT_EXPECT_EQ(test, res->max_depth, 79U);
	KUNIT_EXPECT_EQ(test, res->violated, OC | BB | ST);
	KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_BYTE_BALANCE].depth, 1U);
	KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_STALL].depth, 40U);
	KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_STALL].action,
			BQLM_X_NO_ACTION);
	KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_DQL_OVER_COMPLETION].depth,
			80U);
	KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_DQL_OVER_COMPLETION].v.err,
			-ERANGE);
	/* fatal beats shallow: the stall (depth 40), not byte balance */
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res), BQLM_CHECK_STALL);
	/* a shortest path to (40, 40): 80 steps, 40 of each */
	KUNIT_ASSERT_EQ(test, n, 80);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_LE_MSG(test, path[i], 1U, "step %d", i);
}

static void explore_strict(struct kunit *test)
{
	struct toy_cfg cfg = { .n = 5 };
	struct bqlm_xbounds bounds = { .strict = true };
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));
	unsigned int *path = explore_path_alloc(test);
	int n, i;

	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, &bounds, res, path,
					  BQLM_CHECK_STALL, &n), 0);
	/* (1, 0) is not stored, so neither is the rest of the row y == 0 */
	KUNIT_EXPECT_EQ(test, res->states, 6ULL * 6 - 1 - 5);
	KUNIT_EXPECT_EQ(test, res->violated, OC | BB | ST);
	/* the stall is a state: its path ends in it, all y++ */
	KUNIT_ASSERT_EQ(test, n, 5);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, path[i], 1U, "step %d", i);
}

static void explore_bounds(struct kunit *test)
{
	struct toy_cfg cfg = { .n = 5 };
	struct bqlm_xbounds depth = { .max_depth = 3 };
	struct bqlm_xbounds states = { .max_states = 5 };
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));

	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, &depth, res, NULL, 0,
					  NULL), 0);
	/* x + y <= 3 */
	KUNIT_EXPECT_EQ(test, res->states, 10ULL);
	KUNIT_EXPECT_EQ(test, res->max_depth, 3U);
	KUNIT_EXPECT_TRUE(test, res->depth_bounded);
	KUNIT_EXPECT_TRUE(test, res->complete);

	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, &states, res, NULL, 0,
					  NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, res->states, 5ULL);
	KUNIT_EXPECT_FALSE(test, res->complete);
}

static void explore_contract(struct kunit *test)
{
	struct toy_cfg cfg = { .n = 3 };
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));
	struct bqlm_explorer *x;
	struct bqlm_xops ops = toy_ops;
	struct bqlm_xsys sys;

	cfg.mode = TOY_BAD_STEP;
	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, NULL, res, NULL, 0,
					  NULL), -EINVAL);
	cfg.mode = TOY_TOO_MANY;
	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, NULL, res, NULL, 0,
					  NULL), -E2BIG);
	cfg.mode = TOY_BAD_CHECK;
	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, NULL, res, NULL, 0,
					  NULL), -EIO);

	/* an explorer explores once */
	cfg.mode = TOY_GOOD;
	toy_sys(&sys, &cfg);
	x = bqlm_explorer_create(&sys, NULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_explorer_path(x, BQLM_CHECK_NR, NULL, 0),
			-ENOENT);
	bqlm_explorer_destroy(x);
	bqlm_explorer_destroy(NULL);

	/* a system without a step is refused, and one without ops */
	ops.step = NULL;
	sys.ops = &ops;
	KUNIT_EXPECT_NULL(test, bqlm_explorer_create(&sys, NULL));
	sys.ops = NULL;
	KUNIT_EXPECT_NULL(test, bqlm_explorer_create(&sys, NULL));
}

struct toy_lines {
	unsigned int n;
	unsigned int marks;
};

static void toy_line(void *arg, const char *line)
{
	struct toy_lines *l = arg;

	l->n++;
	if (strstr(line, "!! "))
		l->marks++;
}

static void explore_trace(struct kunit *test)
{
	static const unsigned int to_stall[] = { 1, 1, 1 };
	static const unsigned int to_bug[] = { 0, 1, 0, 1, 0, 1 };
	static const unsigned int too_far[] = { 0, 0, 0, 0 };
	struct toy_cfg cfg = { .n = 3 };
	struct toy_lines l = { 0 };
	struct bqlm_xsys sys;

	toy_sys(&sys, &cfg);
	/* a path to a stalled state: the state check is reported at the end */
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, to_stall, 3, toy_line, &l),
			(int)ST);
	KUNIT_EXPECT_EQ(test, l.n, 2U + 2U * 3 + 1);
	KUNIT_EXPECT_EQ(test, l.marks, 1U);
	/* byte balance on the first step, the bug on the last */
	memset(&l, 0, sizeof(l));
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, to_bug, 6, toy_line, &l),
			(int)OC);
	KUNIT_EXPECT_EQ(test, l.marks, 2U);
	/* a step that is not enabled */
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, too_far, 4, toy_line, &l),
			-EINVAL);
}

static void explore_verdict(struct kunit *test)
{
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));

	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res), BQLM_CHECK_NONE);
	res->violated = BB | BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING);
	res->w[BQLM_CHECK_BYTE_BALANCE].depth = 7;
	res->w[BQLM_CHECK_SKB_ACCOUNTING].depth = 6;
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res),
			BQLM_CHECK_SKB_ACCOUNTING);
	res->violated |= OC;
	res->w[BQLM_CHECK_DQL_OVER_COMPLETION].depth = 9;
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res),
			BQLM_CHECK_DQL_OVER_COMPLETION);
	/* equal depth: the check listed first */
	res->violated |= BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION);
	res->w[BQLM_CHECK_SERIAL_COMPLETION].depth = 9;
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res),
			BQLM_CHECK_DQL_OVER_COMPLETION);
}

/* Symmetry on the grid toy: (x, y) and (y, x) are one state. */
static void toy_canon(const void *ctx, void *state)
{
	struct toy_state *s = state;
	unsigned char t;

	(void)ctx;
	if (s->x > s->y) {
		t = s->x;
		s->x = s->y;
		s->y = t;
	}
}

/* A symmetry that does not hold: the trace cannot be mapped back. */
static void explore_symmetry(struct kunit *test)
{
	struct toy_cfg cfg = { .n = 6 };
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));
	unsigned int *path = explore_path_alloc(test);
	struct bqlm_xops ops = toy_ops;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;

	toy_sys(&sys, &cfg);
	ops.canon = toy_canon;
	sys.ops = &ops;
	x = explore_create(test, &sys, NULL);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	/* x <= y only: the stall (0, n) is kept, (n, 0)'s twin */
	KUNIT_EXPECT_TRUE(test, res->reduced);
	KUNIT_EXPECT_EQ(test, res->states, 7ULL * 8 / 2 - 1);
	KUNIT_EXPECT_TRUE(test, res->violated & ST);
	/*
	 * The toy's checks are not symmetric (the stall is at (0, n) only):
	 * the stored path to the stall went through representatives, the
	 * real states it maps back to end in (n, 0), which is no stall, and
	 * the explorer says so instead of printing a false trace.
	 */
	KUNIT_EXPECT_EQ(test, bqlm_explorer_path(x, BQLM_CHECK_STALL, path,
						 EXPLORE_PATH_MAX), -EIO);
	/* byte balance is on the first step: that path maps back */
	KUNIT_EXPECT_EQ(test, bqlm_explorer_path(x, BQLM_CHECK_BYTE_BALANCE,
						 path, EXPLORE_PATH_MAX), 1);
}

/* The memory bound stops the search cleanly, with -ENOBUFS. */
#define TOY_SMALL_MEMORY	(1ULL << 20)	/* 1 MiB: not enough */
#define TOY_LARGE_MEMORY	(64ULL << 20)	/* 64 MiB: enough */

static void explore_memory_bound(struct kunit *test)
{
	struct toy_cfg cfg = { .n = 200 };
	struct bqlm_xbounds b = { .max_memory = TOY_SMALL_MEMORY };
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));

	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, &b, res, NULL, 0, NULL),
			-ENOBUFS);
	KUNIT_EXPECT_FALSE(test, res->complete);
	KUNIT_EXPECT_GT(test, res->states, 0ULL);
	KUNIT_EXPECT_LT(test, res->states, 201ULL * 201 - 1);
	KUNIT_EXPECT_LE(test, res->memory, TOY_SMALL_MEMORY);
	/* the same search within 64 MiB completes */
	b.max_memory = TOY_LARGE_MEMORY;
	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, &b, res, NULL, 0, NULL),
			0);
	KUNIT_EXPECT_EQ(test, res->states, 201ULL * 201 - 1);
	KUNIT_EXPECT_LE(test, res->memory, TOY_LARGE_MEMORY);
}

/*
 * The state store's blocks (BQLM_X_BLOCK states each, 16384): a bound
 * just past one block stores into the second; and the memory a search
 * counts, exactly: the toy's 200 x 200 grid grows the hash set several times
 * from its 1024 slots, each growth counting the new set and giving the
 * old one back (make mutate: a wrong give-back and a block count rounded
 * down went unseen). The figures depend on the size of a pointer.
 */
#define TOY_MEMORY64	1654784ULL
#define TOY_MEMORY32	1646592ULL

static void explore_blocks_and_memory(struct kunit *test)
{
	struct toy_cfg cfg = { .n = 200 };
	struct bqlm_xbounds b = { .max_states = 16384 + 1 };
	struct bqlm_xresult *res = bqlm_kunit_zalloc(test, sizeof(*res));

	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, &b, res, NULL, 0, NULL),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, res->states, 16384ULL + 1);
	KUNIT_EXPECT_EQ(test, toy_explore(test, &cfg, NULL, res, NULL, 0, NULL),
			0);
	KUNIT_EXPECT_EQ(test, res->states, 201ULL * 201 - 1);
	kunit_info(test, "memory %llu bytes (%zu-byte pointers)", res->memory,
		   sizeof(void *));
	KUNIT_EXPECT_EQ(test, res->memory, sizeof(void *) == 8 ?
			TOY_MEMORY64 : TOY_MEMORY32);
}

/*
 * Every profile of every model with an explorer system, walked at random
 * (seeded by the profile's number): every action a state enables steps
 * and describes itself, every state describes itself, and the state
 * checks run; a walk that stops early is a state that enables nothing.
 * The describers are what a counterexample is read through.
 */
#define WALKS		4
#define WALK_STEPS	64

static void explore_profiles_walk(struct kunit *test)
{
	const struct bqlm_opts *const models[] = {
		bqlm_nic_options(), bqlm_usbnet_options(), bqlm_tun_options(),
	};
	struct {
		unsigned char cfg[512];
		unsigned int actions[BQLM_X_MAX_ACTIONS];
		char text[256];
		char err[160];
	} *buf = bqlm_kunit_zalloc(test, sizeof(*buf));
	unsigned int m, p, w, s, i, n, steps = 0;
	struct bqlm_prng prng;
	struct bqlm_xsys sys;
	void *from, *to;

	for (m = 0; m < ARRAY_SIZE(models); m++) {
		const struct bqlm_opts *t = models[m];

		KUNIT_ASSERT_NOT_NULL(test, t->system);
		KUNIT_ASSERT_LE(test, t->cfg_size, sizeof(buf->cfg));
		for (p = 0; p < t->nr_profiles; p++) {
			const char *name = t->profiles[p].name;

			memset(buf->cfg, 0, sizeof(buf->cfg));
			KUNIT_ASSERT_EQ_MSG(test, bqlm_opt_profile(t, buf->cfg, p, buf->err,
								   sizeof(buf->err)),
					    0, "%s %s: %s", t->model, name, buf->err);
			KUNIT_ASSERT_EQ_MSG(test, t->system(buf->cfg, &sys), 0,
					    "%s %s", t->model, name);
			from = bqlm_kunit_zalloc(test, sys.state_size);
			to = bqlm_kunit_zalloc(test, sys.state_size);
			bqlm_prng_seed(&prng, p + 1);
			for (w = 0; w < WALKS; w++) {
				memset(from, 0, sys.state_size);
				bqlm_xinit(&sys, from);
				for (s = 0; s < WALK_STEPS; s++) {
					n = bqlm_xenabled(&sys, from, buf->actions);
					KUNIT_ASSERT_LE(test, n, (unsigned int)BQLM_X_MAX_ACTIONS);
					KUNIT_EXPECT_GE_MSG(test,
							    bqlm_xcheck_state(&sys, from, buf->actions,
									      n, NULL),
							    0, "%s %s", t->model, name);
					KUNIT_EXPECT_GT_MSG(test,
							    bqlm_xdescribe_state(&sys, from, buf->text,
										 sizeof(buf->text)),
							    0, "%s %s", t->model, name);
					if (!n)
						break;
					for (i = 0; i < n; i++) {
						buf->text[0] = '\0';
						KUNIT_EXPECT_GT_MSG(test,
								    bqlm_xdescribe_action(&sys, from,
											  buf->actions[i],
											  buf->text,
											  sizeof(buf->text)),
								    0, "%s %s: action %#x", t->model,
								    name, buf->actions[i]);
						/* "? ..." is a describer's unknown action */
						KUNIT_EXPECT_NE_MSG(test, buf->text[0], '?',
								    "%s %s: '%s'", t->model, name,
								    buf->text);
					}
					i = buf->actions[bqlm_prng_below(&prng, n)];
					memcpy(to, from, sys.state_size);
					KUNIT_ASSERT_GE_MSG(test, bqlm_xstep(&sys, from, i, to, NULL), 0,
							    "%s %s: enabled action %#x refused",
							    t->model, name, i);
					memcpy(from, to, sys.state_size);
					steps++;
				}
			}
		}
	}
	KUNIT_EXPECT_GT(test, steps, 0U);
}

static struct kunit_case bqlm_explore_cases[] = {
	KUNIT_CASE(explore_grid),
	KUNIT_CASE(explore_strict),
	KUNIT_CASE(explore_bounds),
	KUNIT_CASE(explore_contract),
	KUNIT_CASE(explore_trace),
	KUNIT_CASE(explore_verdict),
	KUNIT_CASE(explore_symmetry),
	KUNIT_CASE(explore_memory_bound),
	KUNIT_CASE(explore_blocks_and_memory),
	KUNIT_CASE(explore_profiles_walk),
	{}
};

BQLM_KUNIT_SUITE(bqlm_explore, bqlm_explore_cases);
