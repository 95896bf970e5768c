// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own drivers/net/tun.c and <linux/ptr_ring.h> under the
 * model's schedules (real/tun/, docs/real-tun.md).
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
 * Without the harness (userspace) every case skips.
 */
#include <kunit/test.h>
#include <bqlm/explore.h>
#include <bqlm/tun.h>

#include "real_kunit.h"

/**
 * struct real_tun_param - a configuration of the real harness
 * @desc: its name in the results
 * @suites: REAL_REPLAY, REAL_EQUIVALENCE, REAL_SEARCH: which run it
 * @variant: the tun variant
 * @queues: queue files
 * @cpus: producer CPUs
 * @packets: packets the stack sends
 * @ring: tx_queue_len
 * @detaches: detach/attach cycles
 * @noqueue: no qdisc
 * @bp_off: IFF_BACKPRESSURE off at the start
 * @resize_to: one tx_queue_len change to this length (0: none)
 * @violated: the checks the model's search finds violated (BQLM_CHECK_BIT)
 * @every: a row of every variant: no expectation of its own, and it skips
 *	for a variant the harness does not have
 */
struct real_tun_param {
	const char *desc;
	unsigned int suites;
	enum bqlm_tun_variant variant;
	unsigned int queues;
	unsigned int cpus;
	unsigned int packets;
	unsigned int ring;
	unsigned int detaches;
	bool noqueue;
	bool bp_off;
	unsigned int violated;
	unsigned int resize_to;
	bool every;
};

#define STALL		BQLM_CHECK_BIT(BQLM_CHECK_STALL)
#define BP_DROP		BQLM_CHECK_BIT(BQLM_CHECK_BACKPRESSURE_DROP)

/* Replayed, compared on random paths, searched */
#define REPLAY	REAL_REPLAY
#define EQUIV	REAL_EQUIVALENCE
#define SEARCH	REAL_SEARCH

/*
 * The sequentially consistent counterexamples of docs/tun.md (replayed);
 * the options that change a variant's steps (random paths, after every
 * variant at the default bound: real_tun_variants_gen_params()); the real
 * search at smaller bounds (a fresh device per transition).
 */
static const struct real_tun_param real_tun_params[] = {
	{ .desc = "stop-2019 lost wakeup", .suites = REPLAY,
	  .variant = BQLM_TUN_STOP_2019, .queues = 1, .cpus = 2, .packets = 5,
	  .ring = 4, .violated = STALL },
	{ .desc = "stop-2019 one cpu", .suites = REPLAY,
	  .variant = BQLM_TUN_STOP_2019, .queues = 1, .cpus = 1, .packets = 5,
	  .ring = 4, .violated = STALL },
	{ .desc = "stop-2019 two queues", .suites = REPLAY,
	  .variant = BQLM_TUN_STOP_2019, .queues = 2, .cpus = 2, .packets = 5,
	  .ring = 4, .violated = STALL },
	{ .desc = "stop-2019 noqueue", .suites = REPLAY | EQUIV,
	  .variant = BQLM_TUN_STOP_2019, .queues = 1, .cpus = 2, .packets = 5,
	  .ring = 4, .noqueue = true, .violated = STALL },
	{ .desc = "stop-2019 detach", .suites = REPLAY,
	  .variant = BQLM_TUN_STOP_2019, .queues = 1, .cpus = 2, .packets = 5,
	  .ring = 4, .detaches = 1, .violated = STALL },
	{ .desc = "backpressure ring 2", .suites = REPLAY,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 1,
	  .packets = 4, .ring = 2, .violated = BP_DROP },
	{ .desc = "backpressure-nobarrier ring 2", .suites = REPLAY,
	  .variant = BQLM_TUN_BACKPRESSURE_NOBARRIER, .queues = 1, .cpus = 2,
	  .packets = 4, .ring = 2, .detaches = 1, .violated = BP_DROP },
	{ .desc = "stop-2019 resize", .suites = REPLAY | EQUIV,
	  .variant = BQLM_TUN_STOP_2019, .queues = 1, .cpus = 2, .packets = 5,
	  .ring = 4, .resize_to = 2, .violated = STALL },
	{ .desc = "backpressure resize", .suites = REPLAY | EQUIV,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 2,
	  .packets = 5, .ring = 4, .detaches = 1, .resize_to = 2,
	  .violated = BP_DROP },
	/* the wake count kept across the producer's own wake (review) */
	{ .desc = "backpressure stale wake count", .suites = REPLAY,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 1,
	  .packets = 7, .ring = 4, .violated = BP_DROP },
	{ .desc = "stock two queues", .suites = EQUIV,
	  .variant = BQLM_TUN_STOCK, .queues = 2, .cpus = 2, .packets = 5,
	  .ring = 4, .detaches = 1 },
	{ .desc = "backpressure two queues", .suites = EQUIV,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 2, .cpus = 2,
	  .packets = 5, .ring = 4, .detaches = 1 },
	{ .desc = "backpressure noqueue", .suites = EQUIV,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 2,
	  .packets = 5, .ring = 4, .detaches = 1, .noqueue = true },
	{ .desc = "backpressure flag off", .suites = EQUIV,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 2,
	  .packets = 5, .ring = 4, .detaches = 1, .bp_off = true },
	{ .desc = "backpressure ring 2", .suites = EQUIV,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 2,
	  .packets = 4, .ring = 2, .detaches = 1, .violated = BP_DROP },
	{ .desc = "stock resize", .suites = EQUIV, .variant = BQLM_TUN_STOCK,
	  .queues = 1, .cpus = 2, .packets = 5, .ring = 4, .detaches = 1,
	  .resize_to = 2 },
	{ .desc = "stock resize up", .suites = EQUIV, .variant = BQLM_TUN_STOCK,
	  .queues = 1, .cpus = 2, .packets = 5, .ring = 2, .detaches = 1,
	  .resize_to = 4 },
	{ .desc = "backpressure resize two queues", .suites = EQUIV | SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 2, .cpus = 1,
	  .packets = 3, .ring = 2, .detaches = 1, .resize_to = 4 },
	/* the candidate fix, where backpressure drops (findings 5, 10) */
	{ .desc = "backpressure-room ring 2", .suites = EQUIV | SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE_ROOM, .queues = 1, .cpus = 2,
	  .packets = 4, .ring = 2, .detaches = 1 },
	{ .desc = "backpressure-room 7 packets", .suites = EQUIV | SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE_ROOM, .queues = 1, .cpus = 1,
	  .packets = 7, .ring = 4 },
	{ .desc = "stock", .suites = SEARCH, .variant = BQLM_TUN_STOCK,
	  .queues = 1, .cpus = 2, .packets = 3, .ring = 2, .detaches = 1 },
	{ .desc = "stop-2019", .suites = SEARCH, .variant = BQLM_TUN_STOP_2019,
	  .queues = 1, .cpus = 2, .packets = 3, .ring = 2, .violated = STALL },
	{ .desc = "backpressure", .suites = SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 2,
	  .packets = 3, .ring = 2, .detaches = 1 },
	/* the model's default bound for tun (docs/tun.md) */
	{ .desc = "backpressure default bound", .suites = SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 1, .cpus = 2,
	  .packets = 5, .ring = 4, .detaches = 1 },
	{ .desc = "backpressure two queues", .suites = SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE, .queues = 2, .cpus = 1,
	  .packets = 3, .ring = 2, .detaches = 1 },
	{ .desc = "backpressure-nobarrier", .suites = SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE_NOBARRIER, .queues = 1, .cpus = 2,
	  .packets = 3, .ring = 2, .detaches = 1 },
	{ .desc = "backpressure-no-producer-mb", .suites = SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB, .queues = 1,
	  .cpus = 2, .packets = 3, .ring = 2, .detaches = 1 },
	{ .desc = "backpressure-no-consumer-mb", .suites = SEARCH,
	  .variant = BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB, .queues = 1,
	  .cpus = 2, .packets = 3, .ring = 2, .detaches = 1 },
};

/* The row of real_tun_params[] after @prev with a suite of @mask, or NULL */
static const void *real_tun_next(const void *prev, char *desc, unsigned int mask)
{
	const struct real_tun_param *row = prev;
	size_t i = row ? row - real_tun_params + 1 : 0;

	for (; i < ARRAY_SIZE(real_tun_params); i++)
		if (real_tun_params[i].suites & mask)
			return real_param_desc(&real_tun_params[i],
					       real_tun_params[i].desc, desc);
	return NULL;
}

static const void *real_tun_replays_gen_params(const void *prev, char *desc)
{
	return real_tun_next(prev, desc, REAL_REPLAY);
}

static const void *real_tun_options_gen_params(const void *prev, char *desc)
{
	return real_tun_next(prev, desc, REAL_EQUIVALENCE);
}

static const void *real_tun_searches_gen_params(const void *prev, char *desc)
{
	return real_tun_next(prev, desc, REAL_SEARCH);
}

/*
 * Random paths: every variant at the model's default bound (5 packets,
 * ring 4, 2 CPUs, a detach; those without a patch skip), then the options
 * that change a variant's steps.
 */
static struct real_tun_param real_tun_every[BQLM_TUN_MAX_VARIANTS];

static const char *real_tun_every_fill(void *row, unsigned int v)
{
	struct real_tun_param *p = row;

	*p = (struct real_tun_param) {
		.desc = bqlm_tun_variant_name(v), .variant = v, .queues = 1,
		.cpus = 2, .packets = 5, .ring = 4, .detaches = 1,
		.every = true,
	};
	return p->desc;
}

static const void *real_tun_variants_gen_params(const void *prev, char *desc)
{
	return real_every_params(prev, desc, real_tun_every,
				 bqlm_tun_nr_variants(),
				 sizeof(real_tun_every[0]), real_tun_every_fill,
				 real_tun_options_gen_params);
}

#ifdef CONFIG_BQLM_REAL_HARNESS

#include "../real/tun/real.h"

/*
 * UML makes and tears down a tun device in tens of microseconds; under
 * QEMU (make kunit ARCH=i386, s390, ...) each teardown waits for RCU grace
 * periods, tens of milliseconds. There the equivalence runs a tenth of
 * the paths and the searches (a device per transition) are skipped.
 */
#define REAL_PATHS	(IS_ENABLED(CONFIG_UML) ? 2000 : 200)
/* States the search stores at most */
#define REAL_MAX_STATES	150000
/* The seeds of a configuration: this base and its name (real_seed()) */
#define REAL_SEED	(20261130ULL << 16)

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
	cfg->batch = REAL_RING_BATCH;
}

/* The harness of a configuration, ending with the case. */
static struct bqlm_rc_target *real_tun_harness(struct kunit *test,
					       const struct bqlm_tun_cfg *cfg)
{
	return real_tun_cfg_harness(test, cfg, bqlm_rtun_supported,
				    bqlm_rtun_create);
}

/*
 * Each sequentially consistent counterexample, replayed on the real code:
 * the same violation at the same step, and nothing else on the way.
 */
static void real_tun_replay(struct kunit *test)
{
	const struct real_tun_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_xresult *mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	struct bqlm_explorer *x;

	real_tun_cfg(p, cfg);
	x = real_full_model(test, bqlm_tun_options(), cfg, mres);
	KUNIT_EXPECT_EQ(test, mres->violated, p->violated);
	real_replay(test, real_tun_harness(test, cfg), x, mres->violated,
		    NULL, NULL, true);
}

/* REAL_PATHS seeded random paths of the model, each on a fresh device. */
static void real_tun_equivalence(struct kunit *test)
{
	const struct real_tun_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct real_paths paths;
	const char *why;

	real_tun_cfg(p, cfg);
	if (p->every && bqlm_rtun_supported(cfg, &why))
		kunit_skip(test, "the harness cannot run %s: %s", p->desc, why);
	real_equivalence(test, real_tun_harness(test, cfg), REAL_PATHS,
			 real_seed(REAL_SEED, p->desc), &paths);
	if (!p->every && !p->violated)
		KUNIT_EXPECT_EQ(test, paths.violating, 0U);
}

/*
 * A search of the real code alone: as many states as the model's, the
 * same verdicts, each check first violated at the model's depth.
 */
static void real_tun_explore(struct kunit *test)
{
	const struct real_tun_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg;
	struct bqlm_xresult *mres;

	if (!IS_ENABLED(CONFIG_UML))
		kunit_skip(test, "a fresh device per transition: UML only (each teardown waits for RCU grace periods under QEMU)");
	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	real_tun_cfg(p, cfg);
	real_full_model(test, bqlm_tun_options(), cfg, mres);
	real_debug_limit(test, mres, REAL_DEBUG_MAX_STATES);
	real_search_as_model(test, real_tun_harness(test, cfg), REAL_MAX_STATES,
			     mres, p->violated);
}

#else /* no real-code harness */

REAL_SKIP_CASE(real_tun_replay, "drivers/net/tun.c")
REAL_SKIP_CASE(real_tun_equivalence, "drivers/net/tun.c")
REAL_SKIP_CASE(real_tun_explore, "drivers/net/tun.c")

#endif /* CONFIG_BQLM_REAL_HARNESS */

REAL_SUITE(real_tun_replay_suite, "bqlm_real_tun_replay", real_tun_replay,
	   real_tun_replays_gen_params);
REAL_SUITE(real_tun_equivalence_suite, "bqlm_real_tun_equivalence",
	   real_tun_equivalence, real_tun_variants_gen_params);
REAL_SUITE(real_tun_explore_suite, "bqlm_real_tun_explore", real_tun_explore,
	   real_tun_searches_gen_params);

kunit_test_suites(&real_tun_replay_suite, &real_tun_equivalence_suite,
		  &real_tun_explore_suite);
