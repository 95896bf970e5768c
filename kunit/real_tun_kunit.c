// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own drivers/net/tun.c and <linux/ptr_ring.h> under the
 * model's schedules (real/tun_rc.c, docs/real-code.md).
 *
 * bqlm_real_tun_replay: the explorer runs on the model (sequentially
 * consistent, as the real code runs one step at a time), in the kernel;
 * for every check it finds violated, its shortest witness is replayed on
 * the real tun.c of the same variant, the model in lockstep: the real
 * state must equal the model's after every step, and the model's
 * invariants, checked on the real state, must be violated at exactly the
 * step the model is.
 *
 * bqlm_real_tun_equivalence: seeded random paths of the model, each
 * replayed on a fresh real tun device, compared after every step (ring
 * indices and slots, the ring locks, cons_cnt, the txq XOFF bits,
 * attached queue files, where every packet is, sent, read and dropped by
 * kind, what every actor is doing) with the actions each side enables.
 *
 * bqlm_real_tun_explore: a breadth-first search of the real code alone,
 * from a fresh device per expansion: the states it finds are the model's
 * (as many), and so are the verdicts and their depths; backpressure and
 * its variants without a barrier are clean at this bound.
 *
 * In userspace there is no tun.c to run: every case skips.
 */
#include <kunit/test.h>
#include <bqlm/explore.h>
#include <bqlm/tun.h>

/**
 * struct real_tun_param - a configuration of the real harness
 * @desc: its name in the results
 * @variant: enum bqlm_tun_variant
 * @queues: queue files
 * @cpus: producer CPUs
 * @packets: packets the stack sends
 * @ring: tx_queue_len
 * @detaches: detach/attach cycles
 * @noqueue: no qdisc
 * @bp_off: IFF_BACKPRESSURE off at the start
 * @resize_to: one tx_queue_len change to this length (0: none)
 * @violated: the checks the model's search finds violated (BQLM_CHECK_BIT)
 */
struct real_tun_param {
	const char *desc;
	unsigned int variant;
	unsigned int queues;
	unsigned int cpus;
	unsigned int packets;
	unsigned int ring;
	unsigned int detaches;
	bool noqueue;
	bool bp_off;
	unsigned int violated;
	unsigned int resize_to;
};

#define STALL		BQLM_CHECK_BIT(BQLM_CHECK_STALL)
#define BP_DROP		BQLM_CHECK_BIT(BQLM_CHECK_BACKPRESSURE_DROP)

/* sequentially consistent counterexamples of docs/tun.md */
static const struct real_tun_param real_tun_replays[] = {
	{ "stop-2019 lost wakeup", BQLM_TUN_STOP_2019, 1, 2, 5, 4, 0,
	  false, false, STALL, 0 },
	{ "stop-2019 one cpu", BQLM_TUN_STOP_2019, 1, 1, 5, 4, 0,
	  false, false, STALL, 0 },
	{ "stop-2019 two queues", BQLM_TUN_STOP_2019, 2, 2, 5, 4, 0,
	  false, false, STALL, 0 },
	{ "stop-2019 noqueue", BQLM_TUN_STOP_2019, 1, 2, 5, 4, 0,
	  true, false, STALL, 0 },
	{ "stop-2019 detach", BQLM_TUN_STOP_2019, 1, 2, 5, 4, 1,
	  false, false, STALL, 0 },
	{ "backpressure ring 2", BQLM_TUN_BACKPRESSURE, 1, 1, 4, 2, 0,
	  false, false, BP_DROP, 0 },
	{ "backpressure-nobarrier ring 2", BQLM_TUN_BACKPRESSURE_NOBARRIER,
	  1, 2, 4, 2, 1, false, false, BP_DROP, 0 },
	{ "stop-2019 resize", BQLM_TUN_STOP_2019, 1, 2, 5, 4, 0, false, false,
	  STALL, 2 },
	{ "backpressure resize", BQLM_TUN_BACKPRESSURE, 1, 2, 5, 4, 1, false,
	  false, BP_DROP, 2 },
	/* the wake count kept across the producer's own wake (review) */
	{ "backpressure stale wake count", BQLM_TUN_BACKPRESSURE, 1, 1, 7, 4,
	  0, false, false, BP_DROP, 0 },
};

KUNIT_ARRAY_PARAM_DESC(real_tun_replays, real_tun_replays, desc);

/* every variant with a patch, and the options that change its steps */
static const struct real_tun_param real_tun_variants[] = {
	{ "stock", BQLM_TUN_STOCK, 1, 2, 5, 4, 1, false, false, 0, 0 },
	{ "stock two queues", BQLM_TUN_STOCK, 2, 2, 5, 4, 1, false, false, 0, 0 },
	{ "stop-2019", BQLM_TUN_STOP_2019, 1, 2, 5, 4, 1, false, false, STALL, 0 },
	{ "stop-2019 noqueue", BQLM_TUN_STOP_2019, 1, 2, 5, 4, 0, true, false,
	  STALL, 0 },
	{ "backpressure", BQLM_TUN_BACKPRESSURE, 1, 2, 5, 4, 1, false, false,
	  0, 0 },
	{ "backpressure two queues", BQLM_TUN_BACKPRESSURE, 2, 2, 5, 4, 1,
	  false, false, 0, 0 },
	{ "backpressure noqueue", BQLM_TUN_BACKPRESSURE, 1, 2, 5, 4, 1, true,
	  false, 0, 0 },
	{ "backpressure flag off", BQLM_TUN_BACKPRESSURE, 1, 2, 5, 4, 1, false,
	  true, 0, 0 },
	{ "backpressure ring 2", BQLM_TUN_BACKPRESSURE, 1, 2, 4, 2, 1, false,
	  false, BP_DROP, 0 },
	{ "backpressure-nobarrier", BQLM_TUN_BACKPRESSURE_NOBARRIER, 1, 2, 5,
	  4, 1, false, false, 0, 0 },
	{ "backpressure-no-producer-mb", BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB,
	  1, 2, 5, 4, 1, false, false, 0, 0 },
	{ "backpressure-no-consumer-mb", BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB,
	  1, 2, 5, 4, 1, false, false, 0, 0 },
	{ "stock resize", BQLM_TUN_STOCK, 1, 2, 5, 4, 1, false, false, 0, 2 },
	{ "stock resize up", BQLM_TUN_STOCK, 1, 2, 5, 2, 1, false, false, 0,
	  4 },
	{ "stop-2019 resize", BQLM_TUN_STOP_2019, 1, 2, 5, 4, 0, false, false,
	  STALL, 2 },
	{ "backpressure resize", BQLM_TUN_BACKPRESSURE, 1, 2, 5, 4, 1, false,
	  false, BP_DROP, 2 },
	{ "backpressure resize two queues", BQLM_TUN_BACKPRESSURE, 2, 1, 3, 2,
	  1, false, false, 0, 4 },
	/* the candidate fix, where backpressure drops (findings 5, 10) */
	{ "backpressure-room", BQLM_TUN_BACKPRESSURE_ROOM, 1, 2, 5, 4, 1,
	  false, false, 0, 0 },
	{ "backpressure-room ring 2", BQLM_TUN_BACKPRESSURE_ROOM, 1, 2, 4, 2,
	  1, false, false, 0, 0 },
	{ "backpressure-room 7 packets", BQLM_TUN_BACKPRESSURE_ROOM, 1, 1, 7,
	  4, 0, false, false, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(real_tun_variants, real_tun_variants, desc);

/* the real search: smaller bounds (a fresh device per transition) */
static const struct real_tun_param real_tun_searches[] = {
	{ "stock", BQLM_TUN_STOCK, 1, 2, 3, 2, 1, false, false, 0, 0 },
	{ "stop-2019", BQLM_TUN_STOP_2019, 1, 2, 3, 2, 0, false, false,
	  STALL, 0 },
	{ "backpressure", BQLM_TUN_BACKPRESSURE, 1, 2, 3, 2, 1, false, false,
	  0, 0 },
	/* the model's default bound for tun (docs/tun.md) */
	{ "backpressure default bound", BQLM_TUN_BACKPRESSURE, 1, 2, 5, 4, 1,
	  false, false, 0, 0 },
	{ "backpressure two queues", BQLM_TUN_BACKPRESSURE, 2, 1, 3, 2, 1,
	  false, false, 0, 0 },
	{ "backpressure-nobarrier", BQLM_TUN_BACKPRESSURE_NOBARRIER, 1, 2, 3,
	  2, 1, false, false, 0, 0 },
	{ "backpressure-no-producer-mb", BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB,
	  1, 2, 3, 2, 1, false, false, 0, 0 },
	{ "backpressure-no-consumer-mb", BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB,
	  1, 2, 3, 2, 1, false, false, 0, 0 },
	{ "backpressure resize two queues", BQLM_TUN_BACKPRESSURE, 2, 1, 3, 2,
	  1, false, false, 0, 4 },
	/* where backpressure drops (findings 5, 10), the candidate fix not */
	{ "backpressure-room ring 2", BQLM_TUN_BACKPRESSURE_ROOM, 1, 2, 4, 2,
	  1, false, false, 0, 0 },
	{ "backpressure-room 7 packets", BQLM_TUN_BACKPRESSURE_ROOM, 1, 1, 7,
	  4, 0, false, false, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(real_tun_searches, real_tun_searches, desc);

#ifdef __KERNEL__

#include "../real/tun_real.h"

/*
 * UML makes and tears down a tun device in tens of microseconds; under
 * QEMU (make kunit ARCH=i386, s390, ...) each teardown waits for RCU grace
 * periods, tens of milliseconds. There the equivalence runs a tenth of
 * the paths and the searches (a device per transition) are skipped.
 */
#define REAL_PATHS	(IS_ENABLED(CONFIG_UML) ? 2000 : 200)
#define REAL_MAX_STEPS	80
#define REAL_MAX_PATH	64
#define REAL_MAX_STATES	150000

static void real_tun_end(void *r)
{
	bqlm_rtun_session_destroy(r);
}

static void real_tun_cfg(const struct real_tun_param *p,
			 struct bqlm_tun_cfg *cfg)
{
	bqlm_tun_cfg_default(cfg, p->variant);
	cfg->queues = p->queues;
	cfg->cpus = p->cpus;
	cfg->packets = p->packets;
	cfg->ring = p->ring;
	cfg->detaches = p->detaches;
	cfg->qdisc = !p->noqueue;
	cfg->backpressure = !p->bp_off;
	cfg->resizes = !!p->resize_to;
	if (p->resize_to)
		cfg->resize_to = p->resize_to;
	/* the consumer batch of this kernel's __ptr_ring_set_size() */
	cfg->batch = SMP_CACHE_BYTES * 2 / sizeof(void *);
}

/* A session that ends with the case, however the case ends. */
static struct bqlm_rtun_session *real_tun_session(struct kunit *test,
						  const struct bqlm_tun_cfg *cfg)
{
	struct bqlm_rtun_session *r;
	const char *why;

	KUNIT_ASSERT_EQ_MSG(test, bqlm_rtun_supported(cfg, &why), 0,
			    "the harness cannot run %s", why);
	r = bqlm_rtun_session_create(cfg);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(r), "session: %ld", PTR_ERR(r));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, real_tun_end, r),
			0);
	return r;
}

static void real_tun_report(struct kunit *test,
			    const struct bqlm_rc_result *res,
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

static void real_tun_line(void *arg, const char *line)
{
	struct kunit *test = arg;

	kunit_info(test, "%s", line);
}

/* The model's search of a configuration, in the kernel. */
static void real_tun_model(struct kunit *test, const struct bqlm_tun_cfg *cfg,
			   struct bqlm_xsys *sys, struct bqlm_explorer **xp,
			   struct bqlm_xresult *mres)
{
	const struct bqlm_xbounds full = { .no_reduction = true };
	struct bqlm_explorer *x;

	/* the full search: shortest witnesses, every state counted */
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, sys), 0);
	x = bqlm_explorer_create(sys, &full);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_EQ(test, bqlm_explore(x, mres), 0);
	KUNIT_ASSERT_TRUE(test, mres->complete);
	*xp = x;
}

/*
 * Each sequentially consistent counterexample, replayed on the real code:
 * the same violation at the same step, and nothing else on the way.
 */
static void real_tun_replay(struct kunit *test)
{
	const struct real_tun_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						 GFP_KERNEL);
	struct bqlm_xresult *mres = kunit_kzalloc(test, sizeof(*mres),
						  GFP_KERNEL);
	struct bqlm_rc_result *res = kunit_kzalloc(test, sizeof(*res),
						     GFP_KERNEL);
	unsigned int *path = kunit_kcalloc(test, REAL_MAX_PATH, sizeof(*path),
					   GFP_KERNEL);
	struct bqlm_rtun_session *r;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int c;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, mres);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_NOT_NULL(test, path);
	real_tun_cfg(p, cfg);
	real_tun_model(test, cfg, &sys, &x, mres);
	KUNIT_EXPECT_EQ(test, mres->violated, p->violated);
	r = real_tun_session(test, cfg);
	for (c = 1; c < BQLM_CHECK_NR; c++) {
		if (!(mres->violated & BQLM_CHECK_BIT(c)))
			continue;
		n = bqlm_explorer_path(x, c, path, REAL_MAX_PATH);
		if (n <= 0) {
			KUNIT_FAIL(test, "no witness path for %s (%d)",
				   bqlm_check_name(c), n);
			continue;
		}
		kunit_info(test, "witness of %s, %d steps, on the real code:",
			   bqlm_check_name(c), n);
		KUNIT_EXPECT_EQ(test, bqlm_rtun_lockstep(r, path, n, 0, 0,
							 real_tun_line, test,
							 res), 0);
		real_tun_report(test, res, bqlm_check_name(c));
		KUNIT_EXPECT_EQ(test, res->steps, (unsigned int)n);
		KUNIT_EXPECT_EQ(test, res->real_first[c], (unsigned int)n);
		KUNIT_EXPECT_EQ(test, res->model_first[c], (unsigned int)n);
		KUNIT_EXPECT_EQ(test, res->real_violated, res->model_violated);
		KUNIT_EXPECT_EQ(test, res->real_violated, BQLM_CHECK_BIT(c));
	}
	bqlm_explorer_destroy(x);
}

/* REAL_PATHS seeded random paths of the model, each on a fresh device. */
static void real_tun_equivalence(struct kunit *test)
{
	const struct real_tun_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						 GFP_KERNEL);
	struct bqlm_rc_result *res = kunit_kzalloc(test, sizeof(*res),
						     GFP_KERNEL);
	u64 seed = 20261130ULL << 16;
	unsigned int i, violating = 0;
	unsigned long long steps = 0;
	struct bqlm_rtun_session *r;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, res);
	/* each configuration its own seeds: its name, hashed */
	for (i = 0; p->desc[i]; i++)
		seed = (seed ^ (u8)p->desc[i]) * 0x100000001b3ULL;
	real_tun_cfg(p, cfg);
	r = real_tun_session(test, cfg);
	for (i = 0; i < REAL_PATHS; i++) {
		if (bqlm_rtun_lockstep(r, NULL, 0, seed + i, REAL_MAX_STEPS,
				       NULL, NULL, res) ||
		    res->err_step || res->diff) {
			kunit_info(test, "path %u (seed %llu) differs:", i,
				   seed + i);
			real_tun_report(test, res, "random path");
			bqlm_rtun_lockstep(r, NULL, 0, seed + i, REAL_MAX_STEPS,
					   real_tun_line, test, res);
			break;
		}
		KUNIT_EXPECT_EQ(test, res->real_violated, res->model_violated);
		steps += res->steps;
		violating += !!res->model_violated;
	}
	kunit_info(test, "%u random paths, %llu steps, %u violating",
		   i, steps, violating);
	KUNIT_EXPECT_EQ(test, i, REAL_PATHS);
	if (!p->violated)
		KUNIT_EXPECT_EQ(test, violating, 0U);
}

/*
 * A search of the real code alone: as many states as the model's, the
 * same verdicts, each check first violated at the model's depth.
 */
static void real_tun_explore(struct kunit *test)
{
	const struct real_tun_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						 GFP_KERNEL);
	struct bqlm_xresult *mres = kunit_kzalloc(test, sizeof(*mres),
						  GFP_KERNEL);
	struct bqlm_rc_xresult *xr = kunit_kzalloc(test, sizeof(*xr),
						   GFP_KERNEL);
	struct bqlm_rtun_session *r;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int c;

	if (!IS_ENABLED(CONFIG_UML))
		kunit_skip(test, "a fresh device per transition: UML only (each teardown waits for RCU grace periods under QEMU)");
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, mres);
	KUNIT_ASSERT_NOT_NULL(test, xr);
	real_tun_cfg(p, cfg);
	real_tun_model(test, cfg, &sys, &x, mres);
	bqlm_explorer_destroy(x);

	r = real_tun_session(test, cfg);
	KUNIT_EXPECT_EQ(test, bqlm_rtun_explore(r, REAL_MAX_STATES, xr), 0);
	kunit_info(test, "real code: %u states, %u transitions, depth %u, %llu steps on %u fresh devices; model: %llu states, depth %u",
		   xr->states, xr->transitions, xr->max_depth, xr->steps,
		   xr->devices, mres->states, mres->max_depth);
	KUNIT_EXPECT_TRUE(test, xr->complete);
	KUNIT_EXPECT_EQ(test, (u64)xr->states, mres->states);
	KUNIT_EXPECT_EQ(test, xr->violated, mres->violated);
	KUNIT_EXPECT_EQ(test, xr->violated, p->violated);
	for (c = 1; c < BQLM_CHECK_NR; c++)
		if (mres->violated & BQLM_CHECK_BIT(c)) {
			kunit_info(test, "%s: real code depth %u, model %u",
				   bqlm_check_name(c), xr->depth[c],
				   mres->w[c].depth);
			KUNIT_EXPECT_EQ(test, xr->depth[c], mres->w[c].depth);
		}
}

#else /* userspace */

static void real_tun_replay(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's drivers/net/tun.c");
}

static void real_tun_equivalence(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's drivers/net/tun.c");
}

static void real_tun_explore(struct kunit *test)
{
	kunit_skip(test, "needs the kernel's drivers/net/tun.c");
}

#endif /* __KERNEL__ */

static struct kunit_case real_tun_replay_cases[] = {
	KUNIT_CASE_PARAM(real_tun_replay, real_tun_replays_gen_params),
	{}
};

static struct kunit_suite real_tun_replay_suite = {
	.name = "bqlm_real_tun_replay",
	.test_cases = real_tun_replay_cases,
};

static struct kunit_case real_tun_equivalence_cases[] = {
	KUNIT_CASE_PARAM(real_tun_equivalence, real_tun_variants_gen_params),
	{}
};

static struct kunit_suite real_tun_equivalence_suite = {
	.name = "bqlm_real_tun_equivalence",
	.test_cases = real_tun_equivalence_cases,
};

static struct kunit_case real_tun_explore_cases[] = {
	KUNIT_CASE_PARAM(real_tun_explore, real_tun_searches_gen_params),
	{}
};

static struct kunit_suite real_tun_explore_suite = {
	.name = "bqlm_real_tun_explore",
	.test_cases = real_tun_explore_cases,
};

kunit_test_suites(&real_tun_replay_suite, &real_tun_equivalence_suite,
		  &real_tun_explore_suite);
