// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own drivers/net/virtio_net.c and drivers/virtio/virtio_ring.c
 * under the NIC model's schedules, on a fake virtio device
 * (real/virtio_net/, real/fake/virtio_dev.c, docs/real-virtio_net.md).
 *
 * bqlm_real_virtio_net_replay: the NIC model's explorer runs on a
 * virtio_net profile, in the kernel; for every check it finds violated,
 * its shortest witness is replayed on the real virtio_net.c of the same
 * side of the fix (the bug re-created by real/patches/virtio_net/, or
 * the tree's for the fix), the model in lockstep: the real state must equal
 * the model's after every step, and the model's invariants, checked on
 * the real state, must be violated at exactly the model's step.
 *
 * bqlm_real_virtio_net_equivalence: seeded random paths of the model, each
 * replayed on a fresh real device, compared after every step (the real
 * DQL, XOFF bits, NAPI state and virtqueue notification state, the
 * packets on each virtqueue, the tx lock, what every actor is doing) with
 * the actions each side enables: every virtio_net profile of the model,
 * then the options it leaves at their defaults (freeze and restore, an XSK
 * bind, longer batches).
 *
 * bqlm_real_virtio_net_explore: a breadth-first search of the real code
 * alone, from a fresh device per transition: the model's verdicts, each
 * check first violated at the model's depth.
 *
 * bqlm_real_virtio_net_replay also runs a schedule the real code cannot
 * take: it stops at the step, naming the call. bqlm_real_virtio_net_explore
 * first runs a search that diverges from the model inside ifdown (injected):
 * it stops and says where, tears its device down, and the next harness
 * works.
 *
 * Without the harness (userspace) every case skips.
 */
#include <kunit/test.h>
#include <bqlm/explore.h>
#include <bqlm/nic.h>

#include "real_kunit.h"

/**
 * struct real_vnet_param - a configuration of the real harness
 * @desc: its name in the results
 * @suites: REAL_REPLAY, REAL_EQUIVALENCE, REAL_SEARCH: which run it
 * @profile: the NIC model's virtio_net profile
 * @xsk: the reconfiguration is an XSK pool (un)bind (else ethtool -G)
 * @packets: packets the stack sends (0: the profile's)
 * @batch: packets per xmit_more batch (0: the profile's)
 * @stops: close/open cycles (-1: the profile's)
 * @reconfigs: reconfigurations (-1: the profile's)
 * @suspends: freeze/restore cycles
 * @violated: the checks the model's search finds violated (BQLM_CHECK_BIT)
 * @every: a row of every virtio_net profile: no expectation of its own
 */
struct real_vnet_param {
	const char *desc;
	unsigned int suites;
	const char *profile;
	bool xsk;
	unsigned int packets;
	unsigned int batch;
	int stops;
	int reconfigs;
	unsigned int suspends;
	unsigned int violated;
	bool every;
};

#define OVER		BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define RESET_STOP	BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP)
#define STALL		BQLM_CHECK_BIT(BQLM_CHECK_STALL)
#define SKB_ACC		BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING)
#define BALANCE		BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)

/* Replayed, compared on random paths, searched */
#define REPLAY	REAL_REPLAY
#define EQUIV	REAL_EQUIVALENCE
#define SEARCH	REAL_SEARCH

#define PROFILE(d, s, p, x, v)						\
	{ .desc = d, .suites = s, .profile = p, .xsk = x, .stops = -1,	\
	  .reconfigs = -1, .violated = v }

/*
 * The (bug, fix) pairs of docs/nic.md at their profiles' bounds, replayed
 * and searched; then the options the profiles leave at their defaults, on
 * random paths (after every profile: real_vnet_every_gen_params()).
 */
static const struct real_vnet_param real_vnet_params[] = {
	PROFILE("open-reset (3ddccbefebdb^)", REPLAY | SEARCH,
		"virtio-net-open-reset", false, OVER | BALANCE | RESET_STOP),
	PROFILE("3ddccbefebdb", REPLAY | SEARCH, "virtio-net-3ddccbefebdb",
		false, 0),
	PROFILE("resize (1480f0f61b67^)", REPLAY | SEARCH,
		"virtio-net-resize", false, STALL | SKB_ACC),
	PROFILE("1480f0f61b67", REPLAY | SEARCH, "virtio-net-1480f0f61b67",
		false, 0),
	PROFILE("xsk-bind (76a771ec4c9a^)", REPLAY | SEARCH,
		"virtio-net-xsk-bind", true, STALL | SKB_ACC),
	PROFILE("76a771ec4c9a", REPLAY | SEARCH, "virtio-net-76a771ec4c9a",
		true, 0),
	{ .desc = "3ddccbefebdb freeze and restore", .suites = EQUIV,
	  .profile = "virtio-net-3ddccbefebdb", .stops = 0, .reconfigs = 0,
	  .suspends = 1 },
	{ .desc = "1480f0f61b67 with ifdown and a freeze", .suites = EQUIV,
	  .profile = "virtio-net-1480f0f61b67", .stops = 1, .reconfigs = 1,
	  .suspends = 1 },
	{ .desc = "76a771ec4c9a two binds", .suites = EQUIV,
	  .profile = "virtio-net-76a771ec4c9a", .xsk = true, .stops = -1,
	  .reconfigs = 2 },
	{ .desc = "3ddccbefebdb 5 packets, batches of 3", .suites = EQUIV,
	  .profile = "virtio-net-3ddccbefebdb", .packets = 5, .batch = 3,
	  .stops = -1, .reconfigs = 1 },
	{ .desc = "open-reset 4 packets", .suites = EQUIV,
	  .profile = "virtio-net-open-reset", .packets = 4, .stops = -1,
	  .reconfigs = -1, .violated = OVER | BALANCE | RESET_STOP },
};

/* The row of real_vnet_params[] after @prev with a suite of @mask, or NULL */
static const void *real_vnet_next(const void *prev, char *desc, unsigned int mask)
{
	const struct real_vnet_param *row = prev;
	size_t i = row ? row - real_vnet_params + 1 : 0;

	for (; i < ARRAY_SIZE(real_vnet_params); i++)
		if (real_vnet_params[i].suites & mask)
			return real_param_desc(&real_vnet_params[i],
					       real_vnet_params[i].desc, desc);
	return NULL;
}

static const void *real_vnet_replays_gen_params(const void *prev, char *desc)
{
	return real_vnet_next(prev, desc, REAL_REPLAY);
}

static const void *real_vnet_options_gen_params(const void *prev, char *desc)
{
	return real_vnet_next(prev, desc, REAL_EQUIVALENCE);
}

static const void *real_vnet_searches_gen_params(const void *prev, char *desc)
{
	return real_vnet_next(prev, desc, REAL_SEARCH);
}

/* Random paths: every virtio_net profile first (6, found by driver) */
#define REAL_VNET_PROFILES	6
static struct real_vnet_param real_vnet_every[REAL_VNET_PROFILES];

static const char *real_vnet_every_fill(void *row, unsigned int v)
{
	struct real_vnet_param *p = row;
	unsigned int id, k = 0;

	for (id = 0; id < bqlm_nic_nr_profiles(); id++) {
		const struct bqlm_profile *pr = bqlm_nic_profile(id);

		if (strcmp(pr->driver, "virtio_net") || k++ != v)
			continue;
		*p = (struct real_vnet_param) {
			.desc = pr->name, .profile = pr->name,
			.xsk = strstr(pr->name, "xsk") ||
			       strstr(pr->commit, "76a771ec4c9a"),
			.stops = -1, .reconfigs = -1, .every = true,
		};
		return p->desc;
	}
	*p = (struct real_vnet_param) { .desc = "(no such profile)",
					.every = true };
	return p->desc;
}

static const void *real_vnet_every_gen_params(const void *prev, char *desc)
{
	return real_every_params(prev, desc, real_vnet_every,
				 ARRAY_SIZE(real_vnet_every),
				 sizeof(real_vnet_every[0]),
				 real_vnet_every_fill,
				 real_vnet_options_gen_params);
}

#ifdef CONFIG_BQLM_REAL_HARNESS

#include "../real/virtio_net/real.h"

/*
 * Each path, replay and transition is a fresh virtio device, probed and
 * opened: cheap in UML, slow under QEMU, where the equivalence runs a
 * tenth of the paths and the searches are skipped.
 */
#define REAL_PATHS	(IS_ENABLED(CONFIG_UML) ? 2000 : 200)
/* States the search stores at most */
#define REAL_MAX_STATES	20000
/* The seeds of a configuration: this base and its name (real_seed()) */
#define REAL_SEED	(20261204ULL << 16)

static void real_vnet_cfg(struct kunit *test, const struct real_vnet_param *p,
			  struct bqlm_nic_cfg *cfg)
{
	int id = bqlm_nic_profile_by_name(p->profile);

	KUNIT_ASSERT_GE_MSG(test, id, 0, "profile %s", p->profile);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_nic_cfg_profile(cfg, id), 0,
			    "profile %s", p->profile);
	if (p->packets)
		cfg->packets = p->packets;
	if (p->batch)
		cfg->batch = p->batch;
	if (p->stops >= 0)
		cfg->stops = p->stops;
	if (p->reconfigs >= 0)
		cfg->reconfigs = p->reconfigs;
	cfg->suspends = p->suspends;
}

/* The harness of a configuration, ending with the case. */
static struct bqlm_rc_target *real_vnet_harness(struct kunit *test,
						const struct real_vnet_param *p,
						const struct bqlm_nic_cfg *cfg)
{
	const char *variant = bqlm_rvnet_variant_of(p->profile);
	const char *why;

	KUNIT_ASSERT_NOT_NULL_MSG(test, variant, "%s is not virtio_net's",
				  p->profile);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_rvnet_supported(cfg, variant, &why), 0,
			    "the harness cannot run %s: %s", p->desc, why);
	kunit_info(test, "%s on the real virtio_net.c variant %s", p->profile,
		   variant);
	return real_keep(test, bqlm_rvnet_create(cfg, variant, p->xsk));
}

/*
 * Each counterexample of a profile, replayed on the real code: the same
 * violations at the same step; a fix's profile has none.
 */
static void real_vnet_replay(struct kunit *test)
{
	const struct real_vnet_param *p = test->param_value;
	struct bqlm_nic_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_xresult *mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	struct bqlm_explorer *x;
	unsigned int n;

	real_vnet_cfg(test, p, cfg);
	x = real_full_model(test, bqlm_nic_options(), cfg, mres);
	KUNIT_EXPECT_EQ_MSG(test, mres->violated, p->violated,
			    "the model's verdict on %s", p->profile);
	n = real_replay(test, real_vnet_harness(test, p, cfg), x,
			mres->violated, NULL, NULL, false);
	KUNIT_EXPECT_EQ_MSG(test, n, (unsigned int)hweight32(p->violated),
			    "witnesses replayed");
}

/* REAL_PATHS seeded random paths of the model, each on a fresh device. */
static void real_vnet_equivalence(struct kunit *test)
{
	const struct real_vnet_param *p = test->param_value;
	struct bqlm_nic_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct real_paths paths;

	real_vnet_cfg(test, p, cfg);
	real_equivalence(test, real_vnet_harness(test, p, cfg), REAL_PATHS,
			 real_seed(REAL_SEED, p->desc), &paths);
	if (!p->every && !p->violated)
		KUNIT_EXPECT_EQ(test, paths.violating, 0U);
}

/*
 * A search of the real code alone: the model's verdicts, each check first
 * violated at the model's depth.
 */
static void real_vnet_explore(struct kunit *test)
{
	const struct real_vnet_param *p = test->param_value;
	struct bqlm_nic_cfg *cfg;
	struct bqlm_xresult *mres;

	if (!IS_ENABLED(CONFIG_UML))
		kunit_skip(test, "a fresh device per transition: UML only");
	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	real_vnet_cfg(test, p, cfg);
	real_full_model(test, bqlm_nic_options(), cfg, mres);
	real_search_as_model(test, real_vnet_harness(test, p, cfg),
			     REAL_MAX_STATES, mres, p->violated);
}

/*
 * A schedule the real code cannot take: virtio-net-resize's
 * reconfiguration (no reset) on the tree's, whose virtnet_tx_resize()
 * resets BQL after the drain. The lockstep stops at the drain's step,
 * naming the call, and the harness runs the next schedule.
 */
static void real_vnet_mismatch(struct kunit *test)
{
	static const unsigned int path[] = {
		BQLM_X_ACTION(BQLM_NIC_A_PATH, BQLM_NIC_PATH_RECONFIG),
		BQLM_X_ACTION(BQLM_NIC_A_PATH, BQLM_NIC_NR_PATHS), /* napi-off */
		BQLM_X_ACTION(BQLM_NIC_A_PATH, BQLM_NIC_NR_PATHS), /* stop */
		BQLM_X_ACTION(BQLM_NIC_A_PATH, BQLM_NIC_NR_PATHS), /* dma-off */
		BQLM_X_ACTION(BQLM_NIC_A_PATH, BQLM_NIC_NR_PATHS), /* drain */
	};
	struct bqlm_nic_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_rc_result *res = bqlm_kunit_zalloc(test, sizeof(*res));
	int id = bqlm_nic_profile_by_name("virtio-net-resize");
	struct bqlm_rc_target *t;

	KUNIT_ASSERT_EQ(test, bqlm_nic_cfg_profile(cfg, id), 0);
	t = real_keep(test, bqlm_rvnet_create(cfg, "stock", false));
	KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, ARRAY_SIZE(path), 0, 0,
					       real_line, test, res), 0);
	kunit_info(test, "step %u: %s", res->err_step, res->err);
	KUNIT_EXPECT_EQ_MSG(test, res->err_step, 5U, "the drain's step");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(res->err,
					       "reaches netdev_tx_reset_queue() where the model's next call is dma-on"),
				  "%s", res->err);
	KUNIT_EXPECT_FALSE(test, res->diff);
	/* the steps before it, on a fresh device: taken, equal */
	KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, ARRAY_SIZE(path) - 1,
					       0, 0, NULL, NULL, res), 0);
	real_report(test, res, "the steps before the drain");
	KUNIT_EXPECT_EQ(test, res->steps, (unsigned int)ARRAY_SIZE(path) - 1);
}

/*
 * A search that diverges from the model in the middle of ifdown (an
 * injected divergence, as a patch broken so that the real code departs
 * from the model makes one: bqlm_rvnet_op()), with the path's actor
 * parked inside dev_close() under the RTNL: the search stops and says
 * where, its device is torn down, and the driver unloads with the
 * harness; a new harness of the driver then searches as the model does.
 * Before the search tore its device down, the unload waited for the RTNL
 * for ever and the run ended at kunit.py's timeout.
 */
static void real_vnet_diverge(struct kunit *test)
{
	const struct real_vnet_param *p = &real_vnet_params[0];
	struct bqlm_nic_cfg *cfg;
	struct bqlm_xresult *mres;
	unsigned int states;

	if (!IS_ENABLED(CONFIG_UML))
		kunit_skip(test, "a fresh device per transition: UML only");
	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	real_vnet_cfg(test, p, cfg);
	real_full_model(test, bqlm_nic_options(), cfg, mres);
	states = real_diverge_search(test, real_vnet_harness(test, p, cfg),
				     BQLM_NIC_A_PATH, NULL, REAL_MAX_STATES);
	KUNIT_EXPECT_LT(test, (u64)states, mres->states);
	real_search_as_model(test, real_vnet_harness(test, p, cfg),
			     REAL_MAX_STATES, mres, p->violated);
}

#else /* no real-code harness */

REAL_SKIP_CASE(real_vnet_mismatch, "drivers/net/virtio_net.c")
REAL_SKIP_CASE(real_vnet_replay, "drivers/net/virtio_net.c")
REAL_SKIP_CASE(real_vnet_equivalence, "drivers/net/virtio_net.c")
REAL_SKIP_CASE(real_vnet_explore, "drivers/net/virtio_net.c")
REAL_SKIP_CASE(real_vnet_diverge, "drivers/net/virtio_net.c")

#endif /* CONFIG_BQLM_REAL_HARNESS */

REAL_SUITE_CASES(real_vnet_replay_suite, "bqlm_real_virtio_net_replay",
		 REAL_CASE_SLOW(real_vnet_replay, real_vnet_replays_gen_params),
		 KUNIT_CASE(real_vnet_mismatch));
REAL_SUITE(real_vnet_equivalence_suite, "bqlm_real_virtio_net_equivalence",
	   real_vnet_equivalence, real_vnet_every_gen_params);
REAL_SUITE_CASES(real_vnet_explore_suite, "bqlm_real_virtio_net_explore",
		 KUNIT_CASE(real_vnet_diverge),
		 REAL_CASE_SLOW(real_vnet_explore,
				real_vnet_searches_gen_params));

kunit_test_suites(&real_vnet_replay_suite, &real_vnet_equivalence_suite,
		  &real_vnet_explore_suite);
