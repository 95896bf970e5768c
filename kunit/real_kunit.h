/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the real-code suites (real_{usbnet,tun,veth,virtio_net}_kunit.c) share:
 * their tables' and suites' macros, a harness and the model's search that
 * end with the case, the replay of every witness, the equivalence of
 * seeded random paths and the search of the real code, all on a struct
 * bqlm_rc_target of real/core/rc.h (docs/real-code.md).
 *
 * The harness is kernel only (CONFIG_BQLM_REAL_HARNESS): without it, in
 * userspace too, every case skips with real_skip().
 */
#ifndef _BQLM_KUNIT_REAL_KUNIT_H
#define _BQLM_KUNIT_REAL_KUNIT_H

#include <kunit/test.h>

#include "bqlm_kunit.h"

/*
 * A parameterised case that takes seconds: KUnit's speed attribute (the
 * userspace stand-in has no attributes: there it is a plain case).
 */
#ifdef KUNIT_CASE_PARAM_ATTR
#define REAL_CASE_SLOW(test_name, gen_params)				\
	KUNIT_CASE_PARAM_ATTR(test_name, gen_params,			\
			      { .speed = KUNIT_SPEED_SLOW })
#else
#define REAL_CASE_SLOW(test_name, gen_params)				\
	KUNIT_CASE_PARAM(test_name, gen_params)
#endif

/* Which suites of a driver run a configuration (its .suites) */
#define REAL_REPLAY		0x1	/* every witness replayed */
#define REAL_EQUIVALENCE	0x2	/* random paths compared */
#define REAL_SEARCH		0x4	/* the real code searched */

static inline const void *real_param_desc(const void *p, const char *name,
					  char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", name);
	return p;
}

/*
 * The parameters of a suite that runs every variant the model has first
 * (@every: @n rows of @size bytes, each filled by @fill(row, variant) when
 * its turn comes, which returns its name), then the rows @next gives
 * (the suite file's own gen_params). A variant is its model's row and its
 * patch: the suite runs it without a row of its own.
 */
static inline const void *
real_every_params(const void *prev, char *desc, void *every, size_t n,
		  size_t size, const char *(*fill)(void *row, unsigned int v),
		  const void *(*next)(const void *prev, char *desc))
{
	char *row = every;
	size_t v = 0;

	if (prev && ((const char *)prev < row ||
		     (const char *)prev >= row + n * size))
		return next(prev, desc);
	if (prev)
		v = ((const char *)prev - row) / size + 1;
	if (v >= n)
		return next(NULL, desc);
	row += v * size;
	return real_param_desc(row, fill(row, v), desc);
}

/* A suite of the cases that follow its name */
#define REAL_SUITE_CASES(suite, suite_name, ...)			\
	static struct kunit_case suite##_cases[] = {			\
		__VA_ARGS__,						\
		{}							\
	};								\
	static struct kunit_suite suite = {				\
		.name = suite_name,					\
		.test_cases = suite##_cases,				\
	}

/* A suite of one parameterised case that takes seconds */
#define REAL_SUITE(suite, suite_name, test_name, gen_params)		\
	REAL_SUITE_CASES(suite, suite_name,				\
			 REAL_CASE_SLOW(test_name, gen_params))

/* Without the harness (userspace too): a case that skips, saying why */
#define REAL_SKIP_CASE(test_name, what)					\
	static void test_name(struct kunit *test)			\
	{								\
		kunit_skip(test,					\
			   "needs the kernel's %s (CONFIG_BQLM_REAL_HARNESS)", \
			   what);					\
	}

/* A random path's steps at most */
#define REAL_MAX_STEPS		80
/* A witness's steps at most */
#define REAL_MAX_PATH		64
/* The consumer batch of this kernel's __ptr_ring_set_size() */
#define REAL_RING_BATCH		(SMP_CACHE_BYTES * 2 / sizeof(void *))

#ifdef CONFIG_BQLM_REAL_HARNESS

#include <bqlm/explore.h>
#include <bqlm/options.h>
#include <bqlm/tun.h>

#include "../real/core/rc.h"

static void real_end(void *t)
{
	bqlm_rc_target_destroy(t);
}

static void real_explorer_end(void *x)
{
	bqlm_explorer_destroy(x);
}

/* The model's complete search of @sys, in the kernel; ends with the case. */
static struct bqlm_explorer *real_model(struct kunit *test,
					const struct bqlm_xsys *sys,
					const struct bqlm_xbounds *bounds,
					struct bqlm_xresult *mres)
{
	struct bqlm_explorer *x = bqlm_explorer_create(sys, bounds);

	KUNIT_ASSERT_NOT_NULL_MSG(test, x, "the model's explorer");
	KUNIT_ASSERT_EQ_MSG(test, kunit_add_action_or_reset(test,
							    real_explorer_end,
							    x), 0,
			    "the model's explorer");
	KUNIT_ASSERT_EQ_MSG(test, bqlm_explore(x, mres), 0, "the model's search");
	KUNIT_ASSERT_TRUE_MSG(test, mres->complete,
			      "the model's search within its bounds");
	kunit_info(test, "model: %llu states, violated %#x", mres->states,
		   mres->violated);
	return x;
}

/*
 * The model's full search (shortest witnesses, every state counted) of
 * @cfg, a configuration of the model whose option table is @model.
 */
static inline struct bqlm_explorer *
real_full_model(struct kunit *test, const struct bqlm_opts *model,
		const void *cfg, struct bqlm_xresult *mres)
{
	static const struct bqlm_xbounds full = { .no_reduction = true };
	struct bqlm_xsys *sys = bqlm_kunit_zalloc(test, sizeof(*sys));

	KUNIT_ASSERT_EQ_MSG(test, model->system(cfg, sys), 0,
			    "the %s model's system", model->model);
	return real_model(test, sys, &full, mres);
}

/*
 * make kunit-debug: KASAN and lockdep make a fresh device per transition
 * several times slower; a search of more states than this outlasts
 * KUnit's 300 s a case there (tun's largest, 36534 states, two million
 * steps; a veth pair, two devices and their NAPI, costs more: 13514
 * states took the whole 300 s). make kunit and make kunit-deep run them.
 */
#define REAL_DEBUG_MAX_STATES		20000
#define REAL_DEBUG_MAX_PAIR_STATES	10000

/*
 * End the case under make kunit-debug when the model's search has more
 * than @max states.
 */
static inline void real_debug_limit(struct kunit *test,
				    const struct bqlm_xresult *mres,
				    unsigned long long max)
{
	if (IS_ENABLED(CONFIG_KASAN) && IS_ENABLED(CONFIG_PROVE_LOCKING) &&
	    mres->states > max)
		kunit_skip(test, "%llu states: too long for KUnit's time limit under KASAN and lockdep (make kunit runs it)",
			   (unsigned long long)mres->states);
}

/* The seeds of a configuration: @base and its name, hashed (FNV-1a) */
static inline u64 real_seed(u64 base, const char *desc)
{
	u64 seed = base;

	while (*desc)
		seed = (seed ^ (u8)*desc++) * 0x100000001b3ULL;
	return seed;
}

/* A harness (bqlm_rusbnet_create(), ...) that ends with the case. */
static struct bqlm_rc_target *real_keep(struct kunit *test,
					struct bqlm_rc_target *t)
{
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "the real-code harness: %ld",
			       PTR_ERR(t));
	KUNIT_ASSERT_EQ_MSG(test, kunit_add_action_or_reset(test, real_end, t),
			    0, "the real-code harness");
	return t;
}

/*
 * A harness of a tun configuration (tun's, veth's) that ends with the
 * case: @supported says why it cannot run @cfg, and the case ends then;
 * @create makes it.
 */
static inline struct bqlm_rc_target *
real_tun_cfg_harness(struct kunit *test, const struct bqlm_tun_cfg *cfg,
		     int (*supported)(const struct bqlm_tun_cfg *cfg,
				      const char **why),
		     struct bqlm_rc_target *(*create)(const struct bqlm_tun_cfg *cfg))
{
	const char *why;

	KUNIT_ASSERT_EQ_MSG(test, supported(cfg, &why), 0,
			    "the harness cannot run %s", why);
	return real_keep(test, create(cfg));
}

static void real_report(struct kunit *test, const struct bqlm_rc_result *res,
			const char *what)
{
	if (res->err_step)
		KUNIT_FAIL(test, "%s: step %u (%s): %s", what, res->err_step,
			   res->desc, res->err);
	if (res->diff)
		KUNIT_FAIL(test, "%s: after step %u (%s): %s differ:\n real:  %s\n model: %s",
			   what, res->diff_step, res->desc, res->diff_what,
			   res->diff_real, res->diff_model);
}

/* A bqlm_rc_emit_t: each step of a schedule in the case's log */
static void real_line(void *arg, const char *line)
{
	struct kunit *test = arg;

	kunit_info(test, "%s", line);
}

/*
 * Prepares a witness before its replay: returns its length (a schedule
 * file's text and back, for usbnet).
 */
typedef int (*real_prep_t)(struct kunit *test, const void *arg,
			   enum bqlm_check check, unsigned int *path, int n);

/*
 * The shortest witness of every check the model's search @x found
 * violated, on the real code, the model in lockstep: the same states
 * after every step, and the check violated at the witness's last step on
 * both sides, with the same checks violated on the way (with @alone,
 * nothing else). Returns how many were replayed.
 */
static unsigned int real_replay(struct kunit *test, struct bqlm_rc_target *t,
				struct bqlm_explorer *x, unsigned int violated,
				real_prep_t prep, const void *arg, bool alone)
{
	struct bqlm_rc_result *res = bqlm_kunit_zalloc(test, sizeof(*res));
	unsigned int *path = bqlm_kunit_zalloc(test, REAL_MAX_PATH * sizeof(*path));
	unsigned int c, replayed = 0;
	const char *name;
	int n, ret;

	for (c = 1; c < BQLM_CHECK_NR; c++) {
		if (!(violated & BQLM_CHECK_BIT(c)))
			continue;
		name = bqlm_check_name(c);
		n = bqlm_explorer_path(x, c, path, REAL_MAX_PATH);
		if (n <= 0) {
			KUNIT_FAIL(test, "no witness path for %s (%d)", name, n);
			continue;
		}
		if (prep)
			n = prep(test, arg, c, path, n);
		kunit_info(test, "witness of %s, %d steps, on the real code:",
			   name, n);
		ret = bqlm_rc_lockstep(t, path, n, 0, 0, real_line, test, res);
		real_report(test, res, name);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0,
				    "%s: the harness could not run or end", name);
		KUNIT_EXPECT_EQ_MSG(test, res->steps, (unsigned int)n,
				    "%s: steps run", name);
		KUNIT_EXPECT_EQ_MSG(test, res->model_first[c], (unsigned int)n,
				    "%s: the model's step", name);
		KUNIT_EXPECT_EQ_MSG(test, res->real_first[c], (unsigned int)n,
				    "%s: the real code violates it at another step",
				    name);
		KUNIT_EXPECT_EQ_MSG(test, res->real_violated,
				    res->model_violated,
				    "%s: checks violated on the way", name);
		if (alone)
			KUNIT_EXPECT_EQ_MSG(test, res->real_violated,
					    BQLM_CHECK_BIT(c),
					    "%s: nothing else violated", name);
		replayed++;
	}
	kunit_info(test, "%u witnesses replayed on the real code", replayed);
	return replayed;
}

/*
 * A search of the real code alone within @max_states states: it completes,
 * with the model's verdicts (@mres), each check first violated at the
 * model's depth.
 */
static void real_search(struct kunit *test, struct bqlm_rc_target *t,
			unsigned int max_states,
			const struct bqlm_xresult *mres,
			struct bqlm_rc_xresult *xr)
{
	unsigned int c;

	KUNIT_EXPECT_EQ_MSG(test, bqlm_rc_explore(t, max_states, xr), 0,
			    "the search of the real code (bound %u states)",
			    max_states);
	if (xr->err[0])
		kunit_info(test, "the search stopped at %s", xr->err);
	kunit_info(test, "real code: %u states, %u transitions, depth %u, %llu steps on %u fresh devices; model: %llu states, depth %u",
		   xr->states, xr->transitions, xr->max_depth, xr->steps,
		   xr->devices, mres->states, mres->max_depth);
	KUNIT_EXPECT_TRUE_MSG(test, xr->complete,
			      "the search of the real code within its bound");
	KUNIT_EXPECT_EQ_MSG(test, xr->violated, mres->violated,
			    "the checks violated: real code, model");
	for (c = 1; c < BQLM_CHECK_NR; c++)
		if (mres->violated & BQLM_CHECK_BIT(c)) {
			kunit_info(test, "%s: real code depth %u, model %u",
				   bqlm_check_name(c), xr->depth[c],
				   mres->w[c].depth);
			KUNIT_EXPECT_EQ_MSG(test, xr->depth[c], mres->w[c].depth,
					    "%s: depth", bqlm_check_name(c));
		}
}

/*
 * real_search() that finds as many states as the model's search (@mres)
 * and the checks @violated violated.
 */
static inline void real_search_as_model(struct kunit *test,
					struct bqlm_rc_target *t,
					unsigned int max_states,
					const struct bqlm_xresult *mres,
					unsigned int violated)
{
	struct bqlm_rc_xresult *xr = bqlm_kunit_zalloc(test, sizeof(*xr));

	real_search(test, t, max_states, mres, xr);
	KUNIT_EXPECT_EQ_MSG(test, (u64)xr->states, mres->states,
			    "states: real code, model");
	KUNIT_EXPECT_EQ(test, xr->violated, violated);
}

/**
 * struct real_paths - what real_equivalence() ran
 * @paths: paths that ran equal to the end
 * @steps: their steps
 * @violating: paths on which the model violated a check
 * @retries: runs started again on a fresh device (a jiffies tick)
 */
struct real_paths {
	unsigned int paths;
	unsigned long long steps;
	unsigned int violating;
	unsigned int retries;
};

/*
 * @n seeded random paths of the model (seeds @seed to @seed + @n - 1), each
 * on a fresh real device, compared after every step; the first that
 * differs is reported and run again with its steps in the log.
 */
static void real_equivalence(struct kunit *test, struct bqlm_rc_target *t,
			     unsigned int n, u64 seed, struct real_paths *out)
{
	struct bqlm_rc_result *res = bqlm_kunit_zalloc(test, sizeof(*res));
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (bqlm_rc_lockstep(t, NULL, 0, seed + i, REAL_MAX_STEPS,
				     NULL, NULL, res) ||
		    res->err_step || res->diff) {
			kunit_info(test, "path %u (seed %llu) differs:", i,
				   seed + i);
			real_report(test, res, "random path");
			bqlm_rc_lockstep(t, NULL, 0, seed + i, REAL_MAX_STEPS,
					 real_line, test, res);
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, res->real_violated,
				    res->model_violated,
				    "path %u (seed %llu): checks violated", i,
				    seed + i);
		out->steps += res->steps;
		out->retries += res->retries;
		out->violating += !!res->model_violated;
	}
	out->paths = i;
	kunit_info(test, "%u random paths, %llu steps, %u violating, %u restarted (jiffies ticked)",
		   i, out->steps, out->violating, out->retries);
	KUNIT_EXPECT_EQ_MSG(test, i, n, "paths equal to their end");
}

/**
 * struct real_diverge - a divergence injected into a harness (test only)
 * @ops: the harness's ops, with @step and @error replaced
 * @real: the harness's own ops
 * @kind: the model action kind (BQLM_X_KIND()) whose step diverges
 * @at: where its actor must be parked after the step (a part of the text
 *	of parked_at()), or NULL: anywhere but idle
 * @msg: what the injected divergence says, once made
 */
struct real_diverge {
	struct bqlm_rc_target_ops ops;
	const struct bqlm_rc_target_ops *real;
	unsigned int kind;
	const char *at;
	char msg[BQLM_RC_DESC];
};

/* The one injection at a time (a case runs alone) */
static struct real_diverge *real_diverge_cur;

/*
 * The real step, then the divergence: at the first step of an action of
 * the kind that leaves its actor parked in the middle of its work (at the
 * place asked for, if one is), as a call the model's list does not have
 * leaves a path of the real code.
 */
static int real_diverge_step(struct bqlm_rc_target *t, unsigned int action)
{
	struct real_diverge *d = real_diverge_cur;
	int ret = d->real->step(t, action);
	const char *at = d->real->parked_at(t, action);

	if (!d->msg[0] && BQLM_X_KIND(action) == d->kind &&
	    strcmp(at, "idle") && (!d->at || strstr(at, d->at)))
		scnprintf(d->msg, sizeof(d->msg),
			  "injected divergence after action %#x, its actor parked at %s",
			  action, at);
	return ret;
}

static const char *real_diverge_error(struct bqlm_rc_target *t)
{
	struct real_diverge *d = real_diverge_cur;

	if (d->msg[0])
		return d->msg;
	return d->real->error ? d->real->error(t) : NULL;
}

/*
 * A search of @t that diverges at the first step of an action of @kind
 * leaving its actor parked, at a place whose text has @at in it unless
 * @at is NULL (real_diverge_step()): it stops there and says why, then
 * tears its device down (bqlm_rc_explore()): no actor may be left parked
 * after it. The harness is ended in the case (@t must come from
 * real_keep()). Returns the states searched. The next harness of the
 * driver, made after it, must work: a device left with an actor parked in
 * real code (holding the RTNL, say) hung the next teardown or the next
 * case instead.
 */
static inline unsigned int real_diverge_search(struct kunit *test,
					       struct bqlm_rc_target *t,
					       unsigned int kind,
					       const char *at,
					       unsigned int max_states)
{
	struct bqlm_rc_xresult *xr = bqlm_kunit_zalloc(test, sizeof(*xr));
	struct real_diverge *d = bqlm_kunit_zalloc(test, sizeof(*d));
	unsigned int i;
	int ret;

	d->real = t->ops;
	d->ops = *t->ops;
	d->ops.step = real_diverge_step;
	d->ops.error = real_diverge_error;
	d->kind = kind;
	d->at = at;
	real_diverge_cur = d;
	t->ops = &d->ops;
	ret = bqlm_rc_explore(t, max_states, xr);
	t->ops = d->real;
	real_diverge_cur = NULL;
	kunit_info(test, "search: %d after %u states; stopped at %s", ret,
		   xr->states, xr->err);
	KUNIT_EXPECT_TRUE_MSG(test, d->msg[0], "no step of kind %#x left its actor parked at %s",
			      kind, at ?: "a place");
	KUNIT_EXPECT_EQ_MSG(test, ret, -EIO, "the search stops at the divergence");
	KUNIT_EXPECT_FALSE(test, xr->complete);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(xr->err, "injected divergence"),
				  "the search's report: %s", xr->err);
	/* its device torn down: no actor left in the middle of real code */
	for (i = 0; i < t->rc->nr_actors; i++)
		KUNIT_EXPECT_FALSE_MSG(test, t->rc->actor[i].busy,
				       "after the search, actor %s parked at %s",
				       t->rc->actor[i].name,
				       bqlm_rc_parked_at(&t->rc->actor[i]));
	/* the harness ends here: its driver unloaded, nothing left parked */
	kunit_release_action(test, real_end, t);
	return xr->states;
}

#endif /* CONFIG_BQLM_REAL_HARNESS */

#endif /* _BQLM_KUNIT_REAL_KUNIT_H */
