// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own drivers/net/veth.c and <linux/ptr_ring.h> under the
 * ring-consumer model's schedules (its veth profiles; real/veth/,
 * docs/real-veth.md).
 *
 * bqlm_real_veth_replay: the model's searches of the veth variants at the
 * default bound, sequentially consistent and under TSO; every witness the
 * sequentially consistent search finds replayed on the real veth.c, the
 * model in lockstep (veth-kick-rcv-end, half of 5442a9da6978: the stall
 * at the model's step); a schedule through the full ring's
 * NETDEV_TX_BUSY; and the interleaving of the TSO witness of
 * veth-dc82a33297fc (the race 5442a9da6978 closed). The real code runs one
 * step at a time: that interleaving runs there without the stall, which
 * needs the consumer's buffered store (docs/real-veth.md).
 *
 * bqlm_real_veth_equivalence: seeded random paths of the model, each
 * replayed on a fresh real veth pair, compared after every step (the
 * peer's ring, the sending txq's DRV_XOFF, the peer NAPI's
 * NAPI_STATE_SCHED and rx_notify_masked, where every packet is, sent and
 * read, what every actor is doing) with the actions each side enables.
 *
 * bqlm_real_veth_explore: a breadth-first search of the real code alone,
 * a fresh pair per expansion: the states it finds are the model's (as
 * many), and so are the verdicts. Its first case runs a search that
 * diverges from the model inside the peer's NAPI poll (injected): it stops
 * and says where, tears its pair down, and the next harness works.
 *
 * Without the harness (userspace) every case skips.
 */
#include <kunit/test.h>
#include <bqlm/explore.h>
#include <bqlm/tun.h>

#include "real_kunit.h"

/**
 * struct real_veth_param - a configuration of the real harness
 * @desc: its name in the results
 * @suites: REAL_REPLAY, REAL_EQUIVALENCE, REAL_SEARCH: which run it
 * @variant: the veth variant (a profile of the tun model)
 * @cpus: producer CPUs
 * @packets: packets the stack sends
 * @ring: the peer's ring
 * @budget: the NAPI poll's budget (0: the profile's, NAPI_POLL_WEIGHT)
 * @sc: the checks the model's sequentially consistent search finds violated
 *	(replayed on the real code)
 * @tso: the checks the model's search under TSO finds violated
 * @deep: its search is in the deep tier (make kunit-deep), not make kunit
 * @every: a row of every veth variant, at the profile's bound
 */
struct real_veth_param {
	const char *desc;
	unsigned int suites;
	enum bqlm_tun_variant variant;
	unsigned int cpus;
	unsigned int packets;
	unsigned int ring;
	unsigned int budget;
	unsigned int sc;
	unsigned int tso;
	bool deep;
	bool every;
};

#define STALL		BQLM_CHECK_BIT(BQLM_CHECK_STALL)

#define REPLAY	REAL_REPLAY
#define EQUIV	REAL_EQUIVALENCE
#define SEARCH	REAL_SEARCH

#define VETH	BQLM_TUN_VETH
#define VETH_DC	BQLM_TUN_VETH_DC82A33297FC
#define VETH_KR	BQLM_TUN_VETH_KICK_RCV_END

/*
 * The profiles' bound (5 packets, a ring of 2, 2 CPUs, budget 64) and the
 * bounds at which the model's docs (docs/tun.md) find the sequentially
 * consistent veth clean: a ring of 4 and 7 packets, one CPU, budget 1.
 */
static const struct real_veth_param real_veth_params[] = {
	{ .desc = "veth", .suites = REPLAY | SEARCH, .variant = VETH,
	  .cpus = 2, .packets = 5, .ring = 2, .deep = true },
	{ .desc = "veth-dc82a33297fc", .suites = REPLAY | SEARCH,
	  .variant = VETH_DC, .cpus = 2, .packets = 5, .ring = 2,
	  .tso = STALL, .deep = true },
	{ .desc = "veth-kick-rcv-end", .suites = REPLAY | SEARCH,
	  .variant = VETH_KR, .cpus = 2, .packets = 5, .ring = 2,
	  .sc = STALL, .tso = STALL, .deep = true },
	{ .desc = "veth ring 4, 7 packets", .suites = EQUIV, .variant = VETH,
	  .cpus = 2, .packets = 7, .ring = 4 },
	{ .desc = "veth-dc82a33297fc ring 4, 7 packets", .suites = EQUIV,
	  .variant = VETH_DC, .cpus = 2, .packets = 7, .ring = 4 },
	{ .desc = "veth one cpu", .suites = EQUIV, .variant = VETH,
	  .cpus = 1, .packets = 5, .ring = 2 },
	{ .desc = "veth budget 1", .suites = EQUIV | SEARCH, .variant = VETH,
	  .cpus = 2, .packets = 4, .ring = 2, .budget = 1, .deep = true },
	{ .desc = "veth-dc82a33297fc budget 1", .suites = EQUIV | SEARCH,
	  .variant = VETH_DC, .cpus = 2, .packets = 4, .ring = 2,
	  .budget = 1, .deep = true },
	{ .desc = "veth-dc82a33297fc ring 1", .suites = EQUIV,
	  .variant = VETH_DC, .cpus = 2, .packets = 4, .ring = 1 },
	{ .desc = "veth-kick-rcv-end budget 1", .suites = EQUIV | SEARCH,
	  .variant = VETH_KR, .cpus = 2, .packets = 4, .ring = 2,
	  .budget = 1, .sc = STALL },
};

/* The row of real_veth_params[] after @prev with a suite of @mask, or NULL */
static const void *real_veth_next(const void *prev, char *desc, unsigned int mask)
{
	const struct real_veth_param *row = prev;
	size_t i = row ? row - real_veth_params + 1 : 0;

	for (; i < ARRAY_SIZE(real_veth_params); i++)
		if (real_veth_params[i].suites & mask)
			return real_param_desc(&real_veth_params[i],
					       real_veth_params[i].desc, desc);
	return NULL;
}

static const void *real_veth_replays_gen_params(const void *prev, char *desc)
{
	return real_veth_next(prev, desc, REAL_REPLAY);
}

static const void *real_veth_options_gen_params(const void *prev, char *desc)
{
	return real_veth_next(prev, desc, REAL_EQUIVALENCE);
}

static const void *real_veth_searches_gen_params(const void *prev, char *desc)
{
	return real_veth_next(prev, desc, REAL_SEARCH);
}

/* Random paths: both veth variants at the profile's bound, then options */
static const enum bqlm_tun_variant real_veth_variants[] = {
	VETH, VETH_DC, VETH_KR
};
static struct real_veth_param real_veth_every[ARRAY_SIZE(real_veth_variants)];

static const char *real_veth_every_fill(void *row, unsigned int v)
{
	struct real_veth_param *p = row;

	*p = (struct real_veth_param) {
		.desc = bqlm_tun_variant_name(real_veth_variants[v]),
		.variant = real_veth_variants[v], .cpus = 2, .packets = 5,
		.ring = 2, .every = true,
		.sc = real_veth_variants[v] == VETH_KR ? STALL : 0,
	};
	return p->desc;
}

static const void *real_veth_every_gen_params(const void *prev, char *desc)
{
	return real_every_params(prev, desc, real_veth_every,
				 ARRAY_SIZE(real_veth_every),
				 sizeof(real_veth_every[0]),
				 real_veth_every_fill,
				 real_veth_options_gen_params);
}

#ifdef CONFIG_BQLM_REAL_HARNESS

#include "../real/veth/real.h"

/* A pair per path: a tenth of the paths under QEMU (RCU grace periods) */
#define REAL_PATHS	(IS_ENABLED(CONFIG_UML) ? 2000 : 200)
/*
 * A row whose model stalls at sc: its stall is on few random paths (8 and
 * 1 of 2000), so those rows take 2000 everywhere (200 found none on i386)
 */
#define REAL_SC_PATHS	2000
#define REAL_MAX_STATES	150000
#define REAL_SEED	(20261201ULL << 16)

static void real_veth_cfg(const struct real_veth_param *p,
			  struct bqlm_tun_cfg *cfg)
{
	bqlm_tun_cfg_default(cfg, p->variant);
	cfg->cpus = p->cpus;
	cfg->packets = p->packets;
	cfg->ring = p->ring;
	if (p->budget)
		cfg->budget = p->budget;
	cfg->batch = REAL_RING_BATCH;
}

static struct bqlm_rc_target *real_veth_harness(struct kunit *test,
						const struct bqlm_tun_cfg *cfg)
{
	return real_tun_cfg_harness(test, cfg, bqlm_rveth_supported,
				    bqlm_rveth_create);
}

/*
 * The actions of a schedule on the model, from its start: 0, or the step
 * (from 1) the model cannot take. For the hand-written schedules below.
 */
static int real_veth_takes(struct kunit *test, const struct bqlm_tun_cfg *cfg,
			   const unsigned int *path, unsigned int n)
{
	struct bqlm_xsys *sys = bqlm_kunit_zalloc(test, sizeof(*sys));
	struct bqlm_violation *each;
	void *s, *t;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, sys), 0);
	s = bqlm_kunit_zalloc(test, sys->state_size);
	t = bqlm_kunit_zalloc(test, sys->state_size);
	each = bqlm_kunit_zalloc(test, BQLM_CHECK_NR * sizeof(*each));
	bqlm_xinit(sys, s);
	for (i = 0; i < n; i++) {
		memcpy(t, s, sys->state_size);
		if (bqlm_xstep(sys, s, path[i], t, each) < 0)
			return i + 1;
		memcpy(s, t, sys->state_size);
	}
	return 0;
}

#define VX(cpu)	BQLM_X_ACTION(BQLM_TUN_A_XMIT, cpu)
#define VR	BQLM_X_ACTION(BQLM_TUN_A_READ, 0)

/*
 * cpu0 fills the ring of 2, the third packet finds it full (NETDEV_TX_BUSY,
 * the stop, the kick or the re-check, the qdisc keeps it); the poll drains
 * the ring and wakes; the qdisc sends the packet again. The fix's poll
 * wakes in a step of its own at its end, the earlier design's at the end
 * of veth_xdp_rcv().
 */
static const unsigned int real_veth_busy[] = {
	VX(0), VX(0), VX(0), VX(0), VX(0), VX(0), VX(0), VX(0), VX(0), VX(0),
	VR, VR, VR, VR, VR, VX(0), VX(0), VX(0),
};

/*
 * Each variant: the model's sequentially consistent search, every witness
 * of it replayed on the real code (the check violated at the model's step,
 * nothing else), and its search under TSO; the full ring's schedule, and
 * the interleaving of a TSO-only witness, on the real code, the model in
 * lockstep.
 */
static void real_veth_replay(struct kunit *test)
{
	const struct real_veth_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_tun_cfg *tso = bqlm_kunit_zalloc(test, sizeof(*tso));
	struct bqlm_xresult *mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	struct bqlm_rc_result *res = bqlm_kunit_zalloc(test, sizeof(*res));
	unsigned int *path = bqlm_kunit_zalloc(test, REAL_MAX_PATH * sizeof(*path));
	struct bqlm_rc_target *t;
	struct bqlm_explorer *x;
	unsigned int i, m;
	int n;

	real_veth_cfg(p, cfg);
	t = real_veth_harness(test, cfg);
	x = real_full_model(test, bqlm_tun_options(), cfg, mres);
	KUNIT_EXPECT_EQ_MSG(test, mres->violated, p->sc,
			    "sequentially consistent");
	KUNIT_EXPECT_EQ(test, real_replay(test, t, x, mres->violated, NULL,
					  NULL, true),
			(unsigned int)hweight32(p->sc));
	*tso = *cfg;
	tso->mm = BQLM_MM_TSO;
	x = real_full_model(test, bqlm_tun_options(), tso, mres);
	KUNIT_EXPECT_EQ_MSG(test, mres->violated, p->tso, "under TSO");

	n = ARRAY_SIZE(real_veth_busy);
	memcpy(path, real_veth_busy, sizeof(real_veth_busy));
	KUNIT_ASSERT_EQ_MSG(test, real_veth_takes(test, cfg, path, n), 0,
			    "the model takes the full ring's schedule");
	kunit_info(test, "the full ring's schedule, %d steps, on the real code:",
		   n);
	KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, n, 0, 0, real_line,
					       test, res), 0);
	real_report(test, res, "the full ring");
	KUNIT_EXPECT_EQ(test, res->steps, (unsigned int)n);
	KUNIT_EXPECT_EQ(test, res->real_violated, 0U);

	/* a stall that needs a store buffer: its interleaving at sc */
	if (!(mres->violated & STALL) || (p->sc & STALL))
		return;
	/* the TSO witness's interleaving: its store buffers' flushes left out */
	n = bqlm_explorer_path(x, BQLM_CHECK_STALL, path, REAL_MAX_PATH);
	KUNIT_ASSERT_GT_MSG(test, n, 0, "the TSO witness");
	for (i = 0, m = 0; i < n; i++)
		if (BQLM_X_KIND(path[i]) != BQLM_TUN_A_FLUSH)
			path[m++] = path[i];
	kunit_info(test, "the TSO witness (%d steps): its interleaving, %u steps, on the real code (sequentially consistent):",
		   n, m);
	KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, m, 0, 0, real_line,
					       test, res), 0);
	real_report(test, res, "the TSO witness at sc");
	KUNIT_EXPECT_EQ(test, res->steps, m);
	KUNIT_EXPECT_EQ_MSG(test, res->real_violated, 0U,
			    "the real code stalls without a store buffer");
	KUNIT_EXPECT_EQ(test, res->model_violated, 0U);
}

/* REAL_PATHS seeded random paths of the model, each on a fresh pair. */
static void real_veth_equivalence(struct kunit *test)
{
	const struct real_veth_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct real_paths paths;

	real_veth_cfg(p, cfg);
	real_equivalence(test, real_veth_harness(test, cfg),
			 p->sc ? REAL_SC_PATHS : REAL_PATHS,
			 real_seed(REAL_SEED, p->desc), &paths);
	/* each path's checks were compared; the stalls are the model's */
	if (p->sc)
		KUNIT_EXPECT_GT(test, paths.violating, 0U);
	else
		KUNIT_EXPECT_EQ(test, paths.violating, 0U);
}

/*
 * A search of the real code alone: as many states as the model's, the
 * same verdicts (veth-kick-rcv-end's stall at the model's depth).
 */
static void real_veth_explore(struct kunit *test)
{
	const struct real_veth_param *p = test->param_value;
	struct bqlm_tun_cfg *cfg;
	struct bqlm_xresult *mres;

	if (!IS_ENABLED(CONFIG_UML))
		kunit_skip(test, "a fresh pair per transition: UML only (each teardown waits for RCU grace periods under QEMU)");
	if (p->deep && !bqlm_rc_deep())
		kunit_skip(test, "the deep tier: make kunit-deep (10 to 30 s in UML)");
	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	real_veth_cfg(p, cfg);
	real_full_model(test, bqlm_tun_options(), cfg, mres);
	KUNIT_EXPECT_EQ(test, mres->violated, p->sc);
	real_debug_limit(test, mres, REAL_DEBUG_MAX_PAIR_STATES);
	real_search_as_model(test, real_veth_harness(test, cfg),
			     REAL_MAX_STATES, mres, p->sc);
}

/*
 * Schedules that cannot be taken. A poll before the peer's NAPI is
 * scheduled (the producer has not reached __veth_xdp_flush()): the
 * lockstep stops at that step, naming it, and the harness goes on with
 * the next schedule. The real side alone refuses it too (nothing run).
 */
static void real_veth_mismatch(struct kunit *test)
{
	static const unsigned int path[] = { VX(0), VX(0), VR, VX(0) };
	struct bqlm_tun_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_rc_result *res = bqlm_kunit_zalloc(test, sizeof(*res));
	struct bqlm_rc_target *t;
	const struct real_veth_param p = {
		.variant = VETH, .cpus = 2, .packets = 3, .ring = 2,
	};

	real_veth_cfg(&p, cfg);
	t = real_veth_harness(test, cfg);
	KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, path, ARRAY_SIZE(path), 0, 0,
					       real_line, test, res), 0);
	kunit_info(test, "step %u (%s): %s", res->err_step, res->desc,
		   res->err);
	KUNIT_EXPECT_EQ_MSG(test, res->err_step, 3U, "the poll's step");
	KUNIT_EXPECT_NOT_NULL(test, strstr(res->desc, "napi0"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(res->err, "cannot take"));
	KUNIT_EXPECT_EQ(test, res->steps, 2U);
	KUNIT_EXPECT_FALSE(test, res->diff);

	KUNIT_ASSERT_EQ(test, t->ops->start(t), 0);
	KUNIT_EXPECT_EQ(test, t->ops->step(t, path[0]), 0);
	KUNIT_EXPECT_EQ_MSG(test, t->ops->step(t, VR), -EINVAL,
			    "a poll of a NAPI not scheduled");
	KUNIT_EXPECT_EQ_MSG(test, t->ops->step(t, VX(2)), -EINVAL,
			    "a CPU the configuration does not have");
	KUNIT_EXPECT_EQ(test, t->ops->down(t), 0);

	/* a fresh pair after it: the whole full ring's schedule, equal */
	KUNIT_ASSERT_EQ(test, bqlm_rc_lockstep(t, real_veth_busy, 10, 0, 0,
					       NULL, NULL, res), 0);
	real_report(test, res, "after the refused schedules");
	KUNIT_EXPECT_EQ(test, res->steps, 10U);
}

/*
 * A search that diverges from the model in the middle of the peer's NAPI
 * poll (an injected divergence, as a patch broken so that the real code
 * departs from the model makes one), the poll's actor parked inside
 * veth_xdp_rcv() with the NAPI its own: the search stops and says where,
 * its pair is torn down, and the driver unloads with the harness; a new
 * harness of the driver then searches the model's states (the row the
 * suite searches outside make kunit-deep).
 */
static void real_veth_diverge(struct kunit *test)
{
	const struct real_veth_param *p = NULL;
	struct bqlm_tun_cfg *cfg;
	struct bqlm_xresult *mres;
	unsigned int i, states;

	if (!IS_ENABLED(CONFIG_UML))
		kunit_skip(test, "a fresh pair per transition: UML only");
	for (i = 0; i < ARRAY_SIZE(real_veth_params) && !p; i++)
		if ((real_veth_params[i].suites & SEARCH) &&
		    !real_veth_params[i].deep)
			p = &real_veth_params[i];
	KUNIT_ASSERT_NOT_NULL(test, p);
	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	mres = bqlm_kunit_zalloc(test, sizeof(*mres));
	real_veth_cfg(p, cfg);
	real_full_model(test, bqlm_tun_options(), cfg, mres);
	states = real_diverge_search(test, real_veth_harness(test, cfg),
				     BQLM_TUN_A_READ, "veth_xdp_rcv",
				     REAL_MAX_STATES);
	KUNIT_EXPECT_LT(test, (u64)states, mres->states);
	real_search_as_model(test, real_veth_harness(test, cfg),
			     REAL_MAX_STATES, mres, p->sc);
}

#else /* no real-code harness */

REAL_SKIP_CASE(real_veth_mismatch, "drivers/net/veth.c")
REAL_SKIP_CASE(real_veth_replay, "drivers/net/veth.c")
REAL_SKIP_CASE(real_veth_equivalence, "drivers/net/veth.c")
REAL_SKIP_CASE(real_veth_explore, "drivers/net/veth.c")
REAL_SKIP_CASE(real_veth_diverge, "drivers/net/veth.c")

#endif /* CONFIG_BQLM_REAL_HARNESS */

REAL_SUITE_CASES(real_veth_replay_suite, "bqlm_real_veth_replay",
		 REAL_CASE_SLOW(real_veth_replay, real_veth_replays_gen_params),
		 KUNIT_CASE(real_veth_mismatch));
REAL_SUITE(real_veth_equivalence_suite, "bqlm_real_veth_equivalence",
	   real_veth_equivalence, real_veth_every_gen_params);
REAL_SUITE_CASES(real_veth_explore_suite, "bqlm_real_veth_explore",
		 KUNIT_CASE_SLOW(real_veth_diverge),
		 REAL_CASE_SLOW(real_veth_explore,
				real_veth_searches_gen_params));

kunit_test_suites(&real_veth_replay_suite, &real_veth_equivalence_suite,
		  &real_veth_explore_suite);
