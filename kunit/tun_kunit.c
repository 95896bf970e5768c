// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the tun transmit model (model/tun/tun.c), suite bqlm_tun.
 *
 * The explorations run at four packets (small enough for UML) and check
 * the verdict, the violated checks, the depth of the verdict's shortest
 * witness and the exact numbers of states and transitions, the same in the
 * kernel, in userspace and in the 32-bit build. The targeted cases call
 * the actors one step at a time: the 2019 lost wakeup, the re-check that
 * the merged design adds, the store-buffering stall without the barriers.
 */
#include "bqlm_kunit.h"
#include <bqlm/tun.h>
#include <bqlm/prng.h>
#include "explore_expect.h"
#include "expect/tun_x.h"

/**
 * struct tun_x_case - one exploration of the tun model and what it must find
 * @desc: the case's name
 * @variant: the variant explored
 * @mm: the memory model
 * @reader: what consumes the ring
 * @ring: the ring's slots
 * @queues: queue files (and producer CPUs)
 * @packets: the packet bound
 * @detaches: detaches of a queue file in the bound
 * @set_iffs: TUNSETIFFs in the bound
 * @noqueue: no qdisc (noqueue) in front of the device
 * @opts: NULL, or options applied last, as on the command line
 *
 * The figures the full search must give are the case's row of
 * kunit/expect/tun_x.h, keyed by @desc (make promote).
 */
struct tun_x_case {
	const char *desc;
	enum bqlm_tun_variant variant;
	enum bqlm_mm_kind mm;
	enum bqlm_tun_reader_kind reader;
	unsigned int ring;
	unsigned int queues;
	unsigned int packets;
	unsigned int detaches;
	unsigned int set_iffs;
	bool noqueue;
	const char *opts;
};

/* one queue file, one producer CPU, four packets */
#define TUN_ONE_QUEUE	.queues = 1, .packets = 4
/* veth: the peer's NAPI consumes a ring of 2 (the profiles' bound), 4 packets */
#define TUN_VETH(v)	.variant = (v), .reader = BQLM_TUN_NAPI, .ring = 2, \
			TUN_ONE_QUEUE, .detaches = 0

static const struct tun_x_case tun_x_cases[] = {
	{ .desc = "stock-sc", .variant = BQLM_TUN_STOCK, .mm = BQLM_MM_SC,
	  .ring = 2, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "stock-tso", .variant = BQLM_TUN_STOCK, .mm = BQLM_MM_TSO,
	  .ring = 2, TUN_ONE_QUEUE, .detaches = 1 },
	/* detached while stopped, re-attached without a wake */
	{ .desc = "stop-2019-sc", .variant = BQLM_TUN_STOP_2019,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	/* the lost wakeup of the race alone: reader blocked, queue stopped */
	{ .desc = "stop-2019-race-sc", .variant = BQLM_TUN_STOP_2019,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 0 },
	{ .desc = "stop-2019-tso", .variant = BQLM_TUN_STOP_2019,
	  .mm = BQLM_MM_TSO, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	/* vhost-net's consume path has no wake at all in the 2019 patch */
	{ .desc = "stop-2019-vhost", .variant = BQLM_TUN_STOP_2019,
	  .mm = BQLM_MM_SC, .reader = BQLM_TUN_VHOST, .ring = 4, TUN_ONE_QUEUE,
	  .detaches = 1 },
	{ .desc = "backpressure-sc", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "backpressure-tso", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_TSO, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "backpressure-pso", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_PSO, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "backpressure-x86", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_X86, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "backpressure-vhost", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_SC, .reader = BQLM_TUN_VHOST, .ring = 4, TUN_ONE_QUEUE,
	  .detaches = 1 },
	{ .desc = "backpressure-noqueue", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 1,
	  .noqueue = true },
	{ .desc = "backpressure-set-iff", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 1,
	  .set_iffs = 2 },
	/* ring of 2: the half-ring wake counts a consume from before the stop */
	{ .desc = "backpressure-ring2", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_SC, .ring = 2, TUN_ONE_QUEUE, .detaches = 1 },
	/* the candidate fix: no wake into a full ring, also on weak memory */
	{ .desc = "room-ring2-sc", .variant = BQLM_TUN_BACKPRESSURE_ROOM,
	  .mm = BQLM_MM_SC, .ring = 2, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "room-ring2-pso", .variant = BQLM_TUN_BACKPRESSURE_ROOM,
	  .mm = BQLM_MM_PSO, .ring = 2, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "nobarrier-sc", .variant = BQLM_TUN_BACKPRESSURE_NOBARRIER,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "nobarrier-tso", .variant = BQLM_TUN_BACKPRESSURE_NOBARRIER,
	  .mm = BQLM_MM_TSO, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	/* x86: set_bit and spin_lock are locked instructions */
	{ .desc = "nobarrier-x86", .variant = BQLM_TUN_BACKPRESSURE_NOBARRIER,
	  .mm = BQLM_MM_X86, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	/* each barrier is needed on its own under the LKMM */
	{ .desc = "no-producer-mb-tso",
	  .variant = BQLM_TUN_BACKPRESSURE_NO_PRODUCER_MB, .mm = BQLM_MM_TSO,
	  .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "no-consumer-mb-tso",
	  .variant = BQLM_TUN_BACKPRESSURE_NO_CONSUMER_MB, .mm = BQLM_MM_TSO,
	  .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	/* as merged before the opt-in: the re-attach does not wake (Sashiko) */
	{ .desc = "backpressure-1d6e569b7d0c",
	  .variant = BQLM_TUN_BACKPRESSURE_V12, .mm = BQLM_MM_SC, .ring = 4,
	  TUN_ONE_QUEUE, .detaches = 1 },
	{ .desc = "backpressure-2q-sc", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_SC, .ring = 4, .queues = 2, .packets = 3,
	  .detaches = 1 },
	{ .desc = "backpressure-2q-tso", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_TSO, .ring = 4, .queues = 2, .packets = 3,
	  .detaches = 1 },
	/* the BQL study: one detach, one resize to 2 (the variants' default) */
	{ .desc = "bql", .variant = BQLM_TUN_BQL, .mm = BQLM_MM_SC, .ring = 4,
	  TUN_ONE_QUEUE, .detaches = 1 },
	/* sent after the produce: the reader completes first */
	{ .desc = "bql-late-sent", .variant = BQLM_TUN_BQL_LATE_SENT,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	/* reset on resize: the survivors' completion is stale */
	{ .desc = "bql-reset-resize", .variant = BQLM_TUN_BQL_RESET_RESIZE,
	  .mm = BQLM_MM_SC, .ring = 4, TUN_ONE_QUEUE, .detaches = 1 },
	/*
	 * NETDEV_TX_BUSY instead of the drop, ring of 2: the LLTX race and
	 * the early half-ring wake of backpressure-ring2 cost a requeue
	 */
	{ .desc = "backpressure-requeue-ring2", .variant = BQLM_TUN_BACKPRESSURE,
	  .mm = BQLM_MM_SC, .ring = 2, TUN_ONE_QUEUE, .detaches = 1,
	  .opts = "--on-full requeue" },
	/* veth of 6.12: stop, kick the NAPI consumer, wake per poll */
	{ .desc = "veth-sc", TUN_VETH(BQLM_TUN_VETH), .mm = BQLM_MM_SC },
	{ .desc = "veth-tso", TUN_VETH(BQLM_TUN_VETH), .mm = BQLM_MM_TSO },
	{ .desc = "veth-pso", TUN_VETH(BQLM_TUN_VETH), .mm = BQLM_MM_PSO },
	{ .desc = "veth-x86", TUN_VETH(BQLM_TUN_VETH), .mm = BQLM_MM_X86 },
	/* a poll of one entry: the consumer stays scheduled, polls again */
	{ .desc = "veth-budget1-tso", TUN_VETH(BQLM_TUN_VETH),
	  .mm = BQLM_MM_TSO, .opts = "--budget 1" },
	/* the kick without __veth_xdp_flush()'s smp_mb(): store buffering */
	{ .desc = "veth-kick-no-mb-tso", TUN_VETH(BQLM_TUN_VETH),
	  .mm = BQLM_MM_TSO, .opts = "--producer-mb off" },
	/* the kick alone: the wake before napi_complete_done() loses it */
	{ .desc = "veth-kick-wake-rcv-end-sc", TUN_VETH(BQLM_TUN_VETH),
	  .mm = BQLM_MM_SC, .opts = "--wake-at rcv-end" },
	/* dc82a33297fc: the producer re-checks __ptr_ring_empty() */
	{ .desc = "veth-dc82a33297fc-sc", TUN_VETH(BQLM_TUN_VETH_DC82A33297FC),
	  .mm = BQLM_MM_SC },
	{ .desc = "veth-dc82a33297fc-tso", TUN_VETH(BQLM_TUN_VETH_DC82A33297FC),
	  .mm = BQLM_MM_TSO },
	{ .desc = "veth-dc82a33297fc-pso", TUN_VETH(BQLM_TUN_VETH_DC82A33297FC),
	  .mm = BQLM_MM_PSO },
	{ .desc = "veth-dc82a33297fc-x86", TUN_VETH(BQLM_TUN_VETH_DC82A33297FC),
	  .mm = BQLM_MM_X86 },
	/* the consumer's barrier the review asked for closes it as well */
	{ .desc = "veth-dc82a33297fc-consumer-mb-pso",
	  TUN_VETH(BQLM_TUN_VETH_DC82A33297FC), .mm = BQLM_MM_PSO,
	  .opts = "--consumer-mb on" },
};

KUNIT_ARRAY_PARAM_DESC(tun_x, tun_x_cases, desc);

static void tun_x_cfg(struct kunit *test, const struct tun_x_case *p,
		      struct bqlm_tun_cfg *cfg)
{
	char err[160];

	bqlm_tun_cfg_default(cfg, p->variant);
	cfg->mm = p->mm;
	cfg->reader = p->reader;
	cfg->queues = p->queues;
	cfg->packets = p->packets;
	cfg->ring = p->ring;
	cfg->detaches = p->detaches;
	cfg->set_iffs = p->set_iffs;
	cfg->qdisc = !p->noqueue;
	if (p->opts)
		KUNIT_ASSERT_EQ_MSG(test, bqlm_opt_apply(bqlm_tun_options(), cfg,
							 p->opts, err,
							 sizeof(err)),
				    0, "%s: %s", p->opts, err);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_tun_cfg_why(cfg, true, err, sizeof(err)),
			    0, "%s: %s", p->desc, err);
}

static void tun_exploration(struct kunit *test)
{
	const struct tun_x_case *p = test->param_value;
	const struct explore_expect *e;
	struct bqlm_tun_stats *stats;
	struct bqlm_tun_cfg *cfg;
	struct bqlm_xresult *res;
	struct bqlm_xsys sys;

	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	res = bqlm_kunit_zalloc(test, sizeof(*res));
	stats = bqlm_kunit_zalloc(test, sizeof(*stats));
	tun_x_cfg(test, p, cfg);
	cfg->stats = stats;
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	e = explore_expect_row(test, &tun_x_expect, p->desc);
	explore_expect_full(test, &sys, NULL, res, e, p->desc);
	explore_promote(test, &tun_x_expect, p->desc, res);
	/* every state expanded once went through the figures */
	KUNIT_EXPECT_EQ(test, stats->states, res->states);
	KUNIT_EXPECT_LE(test, stats->max_delivered, p->packets);
	if (p->variant == BQLM_TUN_STOCK)
		KUNIT_EXPECT_GT(test, stats->max_drops[BQLM_TUN_DROP_FULL], 0U);
	else if (e->verdict == BQLM_CHECK_NONE)
		KUNIT_EXPECT_EQ(test, stats->max_drops[BQLM_TUN_DROP_BP], 0U);
	/* NETDEV_TX_BUSY with a qdisc: the packet waits, it is never dropped */
	if (cfg->on_full == BQLM_TUN_FULL_REQUEUE && cfg->qdisc)
		KUNIT_EXPECT_EQ(test, stats->max_drops[BQLM_TUN_DROP_FULL], 0U);
	/* the figures above are the full search's; now the reduced one */
	cfg->stats = NULL;
	explore_compare_reduced(test, &sys, NULL, res, p->desc);
}

/*
 * Every variant, as a parameter: the address of its entry of this array
 * (the entries themselves are not read), its name as the description.
 */
static const unsigned char tun_variants[BQLM_TUN_MAX_VARIANTS];

static const void *tun_variant_gen_params(const void *prev, char *desc)
{
	const unsigned char *p = prev ? (const unsigned char *)prev + 1 :
				 tun_variants;

	if (p >= tun_variants + bqlm_tun_nr_variants())
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",
		 bqlm_tun_variant_name(p - tun_variants));
	return p;
}

/*
 * The symmetry reduction's premise (explore_symmetry_walks()) for each
 * variant, on a ring of 2: under pso with a resize to 1 where the variant
 * takes that configuration, else (the BQL study: sc, its own resize) in
 * its default one.
 */
static void tun_symmetry(struct kunit *test)
{
	enum bqlm_tun_variant v = (const unsigned char *)test->param_value -
				  tun_variants;
	struct bqlm_tun_cfg *cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	struct bqlm_xsys sys;

	bqlm_tun_cfg_default(cfg, v);
	cfg->ring = 2;
	cfg->mm = BQLM_MM_PSO;
	cfg->resizes = 1;
	cfg->resize_to = 1;
	if (bqlm_tun_cfg_check(cfg)) {
		bqlm_tun_cfg_default(cfg, v);
		cfg->ring = 2;
	}
	kunit_info(test, "%s, ring 2, %s%s", bqlm_tun_variant_name(v),
		   bqlm_mm_name(cfg->mm), cfg->mm == BQLM_MM_PSO ?
		   ", a resize to 1" : " (the variant's default bound)");
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	explore_symmetry_walks(test, &sys, 20261130ULL * 3 + v);
}

/*
 * Per-case state: configuration, state (and room for a copy of it, of
 * the size the configuration gives), step record.
 */
struct tun_ctx {
	struct bqlm_tun_cfg cfg;
	struct bqlm_tun *tun;
	struct bqlm_tun *before;
	size_t size;
	struct bqlm_inv_step ev;
	struct bqlm_violation each[BQLM_CHECK_NR];
	unsigned int actions[BQLM_X_MAX_ACTIONS];
};

/* A fresh state for t->cfg, in buffers of the size it needs. */
static void tun_reinit(struct kunit *test, struct tun_ctx *t)
{
	KUNIT_ASSERT_EQ_MSG(test, bqlm_tun_cfg_check(&t->cfg), 0,
			    "variant %s, ring %u, %u packets",
			    bqlm_tun_variant_name(t->cfg.variant), t->cfg.ring,
			    t->cfg.packets);
	t->size = bqlm_tun_state_size(&t->cfg);
	t->tun = kunit_kzalloc(test, t->size, GFP_KERNEL);
	t->before = kunit_kzalloc(test, t->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL_MSG(test, t->tun, "state of %zu bytes", t->size);
	KUNIT_ASSERT_NOT_NULL_MSG(test, t->before,
				  "state of %zu bytes", t->size);
	bqlm_tun_init(t->tun, &t->cfg);
}

/* Take a copy of the state, the "from" of the explorer's step(). */
static struct bqlm_tun *tun_before(struct tun_ctx *t)
{
	memcpy(t->before, t->tun, t->size);
	return t->before;
}

static struct tun_ctx *tun_setup(struct kunit *test,
				 enum bqlm_tun_variant variant,
				 enum bqlm_mm_kind mm)
{
	struct tun_ctx *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL_MSG(test, t,
				  "variant %s", bqlm_tun_variant_name(variant));
	bqlm_tun_cfg_default(&t->cfg, variant);
	t->cfg.mm = mm;
	t->cfg.cpus = 1;
	t->cfg.ring = 2;
	t->cfg.packets = 3;
	t->cfg.detaches = 0;
	tun_reinit(test, t);
	return t;
}

static int tun_x(struct tun_ctx *t)
{
	return bqlm_tun_net_xmit(t->tun, &t->cfg, 0, &t->ev);
}

static int tun_r(struct tun_ctx *t)
{
	return bqlm_tun_do_read(t->tun, &t->cfg, 0, &t->ev);
}

/* The system's own state check on the current state: the stall bit. */
static int tun_state_check(struct tun_ctx *t)
{
	struct bqlm_xsys sys;
	unsigned int n;

	if (bqlm_tun_system(&t->cfg, &sys))
		return -EINVAL;
	n = bqlm_xenabled(&sys, t->tun, t->actions);
	return bqlm_xcheck_state(&sys, t->tun, t->actions, n, t->each);
}

/*
 * The 2019 lost wakeup, one step at a time: the producer finds the ring
 * full after its produce; before it stops the queue the reader empties the
 * ring and wakes a queue that is not stopped yet; then the stop lands and
 * the reader blocks on the empty ring.
 */
static void tun_stop2019_lost_wakeup(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOP_2019, BQLM_MM_SC);
	unsigned int i;

	for (i = 0; i < 2; i++) {
		/* stack check, ptr_ring_produce, ptr_ring_full */
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u: check", i);
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u: produce", i);
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u: full?", i);
	}
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_STOP);
	for (i = 0; i < 2; i++) {
		/* consume, wake: not stopped */
		KUNIT_ASSERT_EQ_MSG(test, tun_r(t), 0, "read %u: consume", i);
		KUNIT_ASSERT_EQ_MSG(test, tun_r(t), 0, "read %u: wake", i);
	}
	KUNIT_EXPECT_EQ(test, t->tun->delivered, 2);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);		/* the stop lands */
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);		/* empty: sleep */
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_EQ(test, tun_r(t), -EAGAIN);
	KUNIT_EXPECT_EQ(test, tun_x(t), -EAGAIN);	/* the qdisc holds pkt3 */
	KUNIT_EXPECT_EQ(test, tun_state_check(t), (int)BIT_ST);
	KUNIT_EXPECT_EQ(test, t->each[BQLM_CHECK_STALL].err, -EAGAIN);
}

/* The same interleaving with the merged design: the re-check saves it. */
static void tun_backpressure_recheck(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);

	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* pkt1: check, produce */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* not full */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* unlock, notify */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* pkt2: check, produce */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* full: stop */
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_STOP);
	/* the reader empties the ring under the consumer lock */
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* consume pkt1 */
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* stopped: cons_cnt 1 >= 1 */
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, t->tun->q[0].cons_cnt, 0);
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* unlock */
	/* the producer's re-check finds room as well and wakes (no-op) */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* unlock */
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_BP], 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 2),
			BQLM_TUN_PKT_RING);
}

/*
 * Explore t->cfg fully, which must give @states states and a stall whose
 * shortest path has @steps steps; replay that path on a fresh state.
 * Return whether the CPU's and the reader's store buffers held a store at
 * once somewhere on the way (store buffering).
 */
static bool tun_replay_stall(struct kunit *test, struct tun_ctx *t,
			     unsigned long long states, int steps)
{
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int *path;
	bool both = false;
	int n, i;

	res = bqlm_kunit_zalloc(test, sizeof(*res));
	path = explore_path_alloc(test);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	x = explore_create(test, &sys, EXPLORE_FULL);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	KUNIT_EXPECT_EQ(test, res->states, states);
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res), BQLM_CHECK_STALL);
	n = bqlm_explorer_path(x, BQLM_CHECK_STALL, path, EXPLORE_PATH_MAX);
	kunit_release_action(test, explore_destroy_action, x);
	KUNIT_ASSERT_EQ(test, n, steps);

	tun_reinit(test, t);
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_GE_MSG(test, bqlm_xstep(&sys, tun_before(t),
						   path[i], t->tun, t->each),
				    0, "step %d, action %#x", i, path[i]);
		if (t->tun->cpu[0].sb.n && t->tun->rd[0].sb.n)
			both = true;
	}
	return both;
}

/*
 * Without the barriers under tso: the explorer's shortest path to the
 * stall, replayed step by step, ends with the queue stopped, the ring
 * empty and the reader asleep.
 */
static void tun_nobarrier_tso_stall(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE_NOBARRIER,
				      BQLM_MM_TSO);

	t->cfg.ring = 4;
	t->cfg.packets = 4;
	/* store buffering: both sides had a store waiting at once */
	KUNIT_EXPECT_TRUE(test, tun_replay_stall(test, t, 1113, 33));
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].sb.n, 0);
	KUNIT_EXPECT_EQ(test, t->tun->rd[0].sb.n, 0);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), (int)BIT_ST);
}

/*
 * veth before 5442a9da6978, under tso: the explorer's shortest path to the
 * stall, replayed. The producer's stop and the consumer's zeroed slots
 * wait in the store buffers at once: the consumer's look at the queue
 * (end of veth_xdp_rcv()) misses the stop, the producer's
 * __ptr_ring_empty() misses the free slot. The end: the queue stopped,
 * the ring empty, the NAPI consumer not scheduled, the packet the qdisc
 * requeued waiting for ever. The fix, on the same bound, is clean.
 */
static void tun_veth_lost_wakeup(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_VETH_DC82A33297FC,
				      BQLM_MM_TSO);
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;

	KUNIT_EXPECT_TRUE(test, tun_replay_stall(test, t, 457, 15));
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_EQ(test, t->tun->rd[0].phase, BQLM_TUN_R_IDLE);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_REQUEUED);
	KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, 0), 3);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 3),
			BQLM_TUN_PKT_XMIT);
	KUNIT_EXPECT_EQ(test, tun_x(t), -EAGAIN);	/* the qdisc holds it */
	KUNIT_EXPECT_EQ(test, tun_r(t), -EAGAIN);	/* nobody polls */
	KUNIT_EXPECT_EQ(test, tun_state_check(t), (int)BIT_ST);

	/* 6.12: the kick after the stop, the wake after the re-arm */
	res = bqlm_kunit_zalloc(test, sizeof(*res));
	bqlm_tun_cfg_default(&t->cfg, BQLM_TUN_VETH);
	t->cfg.mm = BQLM_MM_TSO;
	t->cfg.cpus = 1;
	t->cfg.packets = 3;
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	x = explore_create(test, &sys, EXPLORE_FULL);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	KUNIT_EXPECT_EQ(test, res->states, 407ULL);
	KUNIT_EXPECT_EQ(test, bqlm_xresult_verdict(res), BQLM_CHECK_NONE);
}

/*
 * veth of 6.12, one step at a time (sc): the third packet finds the
 * ring full while the consumer is scheduled but has not run; the producer
 * stops, its kick sees rx_notify_masked and does nothing, and the packet
 * goes back to the qdisc. The poll consumes both entries, completes, and
 * wakes the queue at its end; the qdisc sends the same packet again,
 * which reaches the ring: nothing is dropped.
 */
static void tun_veth_busy_requeue(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_VETH, BQLM_MM_SC);
	unsigned int masked, i;

	masked = t->tun->q[0].ring.base + t->cfg.ring;	/* after the slots */
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);	/* not scheduled */
	KUNIT_EXPECT_EQ(test, tun_r(t), -EAGAIN);
	for (i = 0; i < 2; i++) {
		/* stack check, ptr_ring_produce(), __veth_xdp_flush() */
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u: check", i);
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u: produce", i);
		KUNIT_EXPECT_EQ_MSG(test, t->tun->cpu[0].phase,
				    BQLM_TUN_X_NOTIFY, "packet %u", i);
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u: flush", i);
		KUNIT_EXPECT_FALSE_MSG(test, t->tun->rd[0].sleeping,
				       "packet %u", i);
		KUNIT_EXPECT_EQ_MSG(test, t->tun->mem[masked], 1,
				    "packet %u", i);
	}
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* pkt3: check */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* ptr_ring_produce() fails */
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_STOP);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* netif_tx_stop_queue() */
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* kick: masked, nothing */
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_REQUEUED);
	KUNIT_EXPECT_EQ(test, tun_x(t), -EAGAIN);	/* stopped: it waits */
	KUNIT_EXPECT_EQ(test, t->tun->sent, 3);
	/* the poll: two entries, the empty ring, the completion, the wake */
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->rd[0].phase, BQLM_TUN_R_COMPLETE);
	KUNIT_EXPECT_EQ(test, t->tun->delivered, 2);
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_EQ(test, t->tun->mem[masked], 0);
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* end of the poll: wake */
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, t->tun->rd[0].phase, BQLM_TUN_R_IDLE);
	/* the qdisc sends pkt3 again: into the ring, the consumer kicked */
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "resend step %u", i);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_IDLE);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 3),
			BQLM_TUN_PKT_RING);
	KUNIT_EXPECT_FALSE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_EQ(test, t->tun->sent, 3);
	for (i = 0; i < BQLM_TUN_NR_DROPS; i++)
		KUNIT_EXPECT_EQ_MSG(test, t->tun->drops[i], 0, "drops[%s]",
				    bqlm_tun_drop_name(i));
}

/**
 * struct tun_rule_case - a property that means nothing in a design, and
 *	the reason the configuration check gives
 * @desc: the case's name
 * @variant: the profile
 * @opts: the options applied on top of it
 * @why: a part of the reason, or NULL: the configuration is taken
 */
struct tun_rule_case {
	const char *desc;
	enum bqlm_tun_variant variant;
	const char *opts;
	const char *why;
};

static const struct tun_rule_case tun_rule_cases[] = {
	{ .desc = "full-check-without-full-stop", .variant = BQLM_TUN_STOCK,
	  .opts = "--full-check ptr-ring-full",
	  .why = "--full-check ptr-ring-full needs --stop full" },
	{ .desc = "requeue-without-stop", .variant = BQLM_TUN_STOCK,
	  .opts = "--on-full requeue",
	  .why = "--on-full requeue needs a stop when the produce fails" },
	{ .desc = "recheck-without-stop", .variant = BQLM_TUN_STOCK,
	  .opts = "--recheck empty", .why = "--recheck needs a stop" },
	{ .desc = "qdisc-only-without-stop", .variant = BQLM_TUN_STOCK,
	  .opts = "--qdisc-only on", .why = "--qdisc-only on needs a stop" },
	{ .desc = "opt-in-without-stop", .variant = BQLM_TUN_BQL,
	  .opts = "--opt-in on", .why = "--opt-in on needs a stop" },
	{ .desc = "force-wake-without-stop", .variant = BQLM_TUN_STOCK,
	  .opts = "--force-wake attach", .why = "--force-wake needs a stop" },
	{ .desc = "stop-removed-under-backpressure",
	  .variant = BQLM_TUN_BACKPRESSURE, .opts = "--stop none",
	  .why = "--recheck needs a stop" },
	{ .desc = "kick-without-napi", .variant = BQLM_TUN_BACKPRESSURE,
	  .opts = "--recheck kick",
	  .why = "--recheck kick schedules a NAPI consumer" },
	{ .desc = "producer-mb-without-recheck", .variant = BQLM_TUN_STOP_2019,
	  .opts = "--producer-mb on",
	  .why = "--producer-mb on orders the stop before a re-check" },
	{ .desc = "flag-without-opt-in", .variant = BQLM_TUN_BACKPRESSURE_V12,
	  .opts = "--backpressure off",
	  .why = "IFF_BACKPRESSURE means nothing without --opt-in on" },
	{ .desc = "consumer-mb-without-wake", .variant = BQLM_TUN_STOCK,
	  .opts = "--consumer-mb on", .why = "--consumer-mb on needs a wake" },
	{ .desc = "wake-at-without-wake", .variant = BQLM_TUN_STOCK,
	  .opts = "--wake-at read-end", .why = "--wake-at needs a wake" },
	{ .desc = "napi-waking-under-the-lock", .variant = BQLM_TUN_BACKPRESSURE,
	  .opts = "--reader napi --detaches 0",
	  .why = "--reader napi wakes in its poll" },
	{ .desc = "poll-end-without-napi", .variant = BQLM_TUN_STOCK,
	  .opts = "--wake if-stopped --wake-at poll-end",
	  .why = "--wake-at poll-end is a NAPI poll's" },
	{ .desc = "half-at-read-end", .variant = BQLM_TUN_STOP_2019,
	  .opts = "--wake half",
	  .why = "--wake half counts under the consumer lock" },
	{ .desc = "budget-without-napi", .variant = BQLM_TUN_STOCK,
	  .opts = "--budget 8", .why = "--budget is a NAPI poll's" },
	{ .desc = "napi-and-detach", .variant = BQLM_TUN_VETH,
	  .opts = "--detaches 1",
	  .why = "the administrator's detach, TUNSETIFF and resize are" },
	{ .desc = "napi-and-bql", .variant = BQLM_TUN_VETH, .opts = "--bql on",
	  .why = "the BQL study is not modelled for a NAPI consumer" },
	{ .desc = "bql-sent-without-bql", .variant = BQLM_TUN_STOCK,
	  .opts = "--bql-sent after-produce",
	  .why = "--bql-sent is the BQL study's" },
	{ .desc = "len-without-bql", .variant = BQLM_TUN_BACKPRESSURE,
	  .opts = "--len 200", .why = "--len is the BQL study's" },
	{ .desc = "bql-two-queues", .variant = BQLM_TUN_BQL,
	  .opts = "--queues 2", .why = "the BQL study runs with one queue" },
	{ .desc = "resize-of-a-big-ring", .variant = BQLM_TUN_STOCK,
	  .opts = "--resizes 1 --ring 8",
	  .why = "a resize takes rings of at most 4 slots" },
	{ .desc = "store-buffer-variables", .variant = BQLM_TUN_STOCK,
	  .opts = "--memory-model tso --ring 300",
	  .why = "names at most 256 shared variables" },
	{ .desc = "explorer-ring", .variant = BQLM_TUN_STOCK,
	  .opts = "--ring 5", .why = "the explorer takes --ring and --resize-to 1..4" },
	{ .desc = "explorer-stream", .variant = BQLM_TUN_STOCK,
	  .opts = "--packets 0", .why = "the explorer takes --packets 1..8" },
	{ .desc = "stop-2019-with-detach", .variant = BQLM_TUN_STOP_2019,
	  .opts = "--detaches 1" },
	{ .desc = "veth-dc82a33297fc-with-consumer-mb",
	  .variant = BQLM_TUN_VETH_DC82A33297FC, .opts = "--consumer-mb on" },
	{ .desc = "napi-without-wake", .variant = BQLM_TUN_STOCK,
	  .opts = "--reader napi --detaches 0" },
};

KUNIT_ARRAY_PARAM_DESC(tun_rule, tun_rule_cases, desc);

/*
 * Each combination that means nothing is refused with its reason, by the
 * check every user of the model goes through (the explorer's, the CLI's):
 * no property is silently ignored.
 */
static void tun_option_rules(struct kunit *test)
{
	const struct tun_rule_case *p = test->param_value;
	struct bqlm_tun_cfg cfg;
	char err[192] = "";
	int ret;

	bqlm_tun_cfg_default(&cfg, p->variant);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_opt_apply(bqlm_tun_options(), &cfg,
						 p->opts, err, sizeof(err)),
			    0, "%s: %s", p->opts, err);
	ret = bqlm_tun_cfg_why(&cfg, true, err, sizeof(err));
	if (!p->why) {
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s %s: %s",
				    bqlm_tun_variant_name(p->variant), p->opts,
				    err);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "%s %s",
			    bqlm_tun_variant_name(p->variant), p->opts);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, p->why),
				  "the reason '%s' does not say '%s'", err,
				  p->why);
}

/* Steps a transmit may take to fill a small ring: more than it needs. */
#define TUN_FILL_STEPS	20

struct tun_attach_case {
	const char *desc;
	enum bqlm_tun_variant variant;
	bool still_stopped;	/* after the re-attach */
};

static const struct tun_attach_case tun_attach_cases[] = {
	{ .desc = "stop-2019", .variant = BQLM_TUN_STOP_2019,
	  .still_stopped = true },
	{ .desc = "backpressure", .variant = BQLM_TUN_BACKPRESSURE },
};

KUNIT_ARRAY_PARAM_DESC(tun_attach, tun_attach_cases, desc);

/* Attach wakes with the merged design, not with 6.12 or 2019. */
static void tun_attach_wakes(struct kunit *test)
{
	const struct tun_attach_case *p = test->param_value;
	struct tun_ctx *t = tun_setup(test, p->variant, BQLM_MM_SC);
	unsigned int k;

	t->cfg.detaches = 1;
	tun_reinit(test, t);
	/* fill the ring and stop */
	for (k = 0; k < TUN_FILL_STEPS && !bqlm_tun_stopped(t->tun, 0); k++)
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "transmit step %u", k);
	KUNIT_ASSERT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	while (t->tun->cpu[0].phase != BQLM_TUN_X_IDLE)
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "transmit phase %u",
				    t->tun->cpu[0].phase);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_PURGED], 2);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_stopped(t->tun, 0), p->still_stopped);
	KUNIT_EXPECT_EQ(test, t->ev.reconfig_stopped, 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg, &t->ev),
			-EINVAL);
}

/* A resize below the fill level frees entries and force-wakes a full ring. */
static void tun_resize_full(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);
	unsigned int k;

	t->cfg.resizes = 1;
	t->cfg.resize_to = 1;
	tun_reinit(test, t);
	for (k = 0; k < TUN_FILL_STEPS && !bqlm_tun_stopped(t->tun, 0); k++)
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "transmit step %u", k);
	while (t->tun->cpu[0].phase != BQLM_TUN_X_IDLE)
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "transmit phase %u",
				    t->tun->cpu[0].phase);
	KUNIT_ASSERT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_RESIZED], 1);
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_TRUE(test, t->tun->q[0].woke_full);
	/* the next packet finds the ring full: a drop the wake explains */
	for (k = 0; k < TUN_FILL_STEPS && t->tun->sent < 3; k++)
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "transmit step %u", k);
	while (t->tun->cpu[0].phase != BQLM_TUN_X_IDLE)
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "transmit phase %u",
				    t->tun->cpu[0].phase);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_WOKE_FULL], 1);
	KUNIT_EXPECT_EQ(test, t->ev.bp_drops, 0);
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			-EINVAL);
}

static void tun_refusals(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_TSO);

	KUNIT_EXPECT_EQ(test, bqlm_tun_net_xmit(t->tun, &t->cfg, 1, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_do_read(t->tun, &t->cfg, 1, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 9, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	/* an empty ring puts the reader to sleep, then it must wait */
	KUNIT_EXPECT_EQ(test, tun_r(t), 0);
	KUNIT_EXPECT_EQ(test, tun_r(t), -EAGAIN);
	/* under tso the produce waits in the buffer: flush it */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].sb.n, 1);
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[0].ring.base], 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[0].ring.base], 1);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg, 0, 0), -EINVAL);
}

static void tun_config(struct kunit *test)
{
	struct bqlm_tun_cfg cfg;
	struct bqlm_xsys sys;
	unsigned int v;
	size_t size;

	for (v = 0; v < bqlm_tun_nr_variants(); v++) {
		const char *name = bqlm_tun_variant_name(v);

		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_variant_by_name(name),
				    (int)v, "variant %u (%s)", v, name);
		KUNIT_EXPECT_STRNEQ_MSG(test, bqlm_tun_variant_desc(v),
					"unknown", "variant %u (%s)", v, name);
		bqlm_tun_cfg_default(&cfg, v);
		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_cfg_check(&cfg), 0,
				    "variant %u (%s)", v, name);
	}
	/* the design is the properties; the bound is not part of it */
	for (v = 0; v < bqlm_tun_nr_variants(); v++) {
		struct bqlm_tun_cfg other;
		unsigned int w;

		bqlm_tun_cfg_default(&cfg, v);
		for (w = 0; w < bqlm_tun_nr_variants(); w++) {
			bqlm_tun_cfg_default(&other, w);
			other.ring = 1;
			other.packets = 8;
			other.mm = BQLM_MM_PSO;
			KUNIT_EXPECT_EQ_MSG(test,
					    bqlm_tun_cfg_same_design(&cfg, &other),
					    v == w, "%s against %s",
					    bqlm_tun_variant_name(v),
					    bqlm_tun_variant_name(w));
		}
	}
	KUNIT_EXPECT_EQ(test, bqlm_tun_variant_by_name("bql-2019"), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_variant_by_name(NULL), -EINVAL);
	/* the explorer's largest ring and resize, and one slot more */
	bqlm_tun_cfg_default(&cfg, 0);
	cfg.ring = BQLM_PTR_RING_MAX;
	cfg.resize_to = BQLM_PTR_RING_MAX;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_why(&cfg, true, NULL, 0), 0);
	cfg.resize_to = BQLM_PTR_RING_MAX + 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_why(&cfg, true, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_why(&cfg, false, NULL, 0), 0);
	KUNIT_EXPECT_STREQ(test, bqlm_tun_variant_name(bqlm_tun_nr_variants()),
			   "unknown");
	/* the KUnit parameter arrays hold every variant of the table */
	KUNIT_EXPECT_LE(test, bqlm_tun_nr_variants(),
			(unsigned int)BQLM_TUN_MAX_VARIANTS);
	for (v = 0; v < BQLM_TUN_NR_READERS; v++)
		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_reader_by_name(
					    bqlm_tun_reader_name(v)), (int)v,
				    "reader %u", v);
	KUNIT_EXPECT_EQ(test, bqlm_tun_reader_by_name("poll"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, bqlm_tun_drop_name(BQLM_TUN_DROP_RACE),
			   "lltx-race");
	KUNIT_EXPECT_STREQ(test, bqlm_tun_drop_name(BQLM_TUN_NR_DROPS),
			   "unknown");
	/* a ring of 5 is for the simulator: the explorer refuses it */
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_STOCK);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), 0);
	cfg.ring = 5;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), -EINVAL);
	cfg.ring = 4;
	cfg.queues = 3;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.queues = 2;
	cfg.packets = 9;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), -EINVAL);
	cfg.packets = 8;
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), 0);
	cfg.mm = BQLM_MM_NR;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	/* the BQL study: one queue, sc; its state carries the BQL queues */
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_BQL);
	size = bqlm_tun_state_size(&cfg);
	cfg.mm = BQLM_MM_TSO;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.mm = BQLM_MM_SC;
	cfg.queues = 2;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_STOCK);
	cfg.packets = 4;
	cfg.resizes = 1;
	KUNIT_EXPECT_GE(test, size, bqlm_tun_state_size(&cfg) +
			sizeof(struct bqlm_txq) + cfg.packets);
	/* the length counts for the study only: elsewhere it is refused */
	cfg.len = 200;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_BQL);
	cfg.len = 0;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	/* up to a 64 KB GSO packet */
	BQLM_EXPECT_EDGE(test, bqlm_tun_cfg_check, &cfg,
			 len, BQLM_TUN_MAX_LEN, BQLM_TUN_MAX_LEN + 1);
}

/* Room for the description of an action or a state */
#define TUN_TEXT		512
/* Steps of the producer-first walk whose actions are described */
#define TUN_DESCRIBED_STEPS	12

/* Every action of a small exploration has a description. */
static void tun_descriptions(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_TSO);
	struct bqlm_xsys sys;
	char *buf = bqlm_kunit_zalloc(test, TUN_TEXT);
	unsigned int n, i, k;

	t->cfg.detaches = 1;
	t->cfg.set_iffs = 1;
	t->cfg.resizes = 1;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	for (k = 0; k < TUN_DESCRIBED_STEPS; k++) {
		n = bqlm_xenabled(&sys, t->tun, t->actions);
		KUNIT_ASSERT_GT_MSG(test, n, 0U, "step %u", k);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_GT_MSG(test, bqlm_xdescribe_action(&sys, t->tun, t->actions[i], buf,
					    TUN_TEXT), 10,
					    "step %u, action %#x", k,
					    t->actions[i]);
			KUNIT_EXPECT_NE_MSG(test, buf[0], '?',
					    "step %u, action %#x: %s", k,
					    t->actions[i], buf);
		}
		KUNIT_EXPECT_GT_MSG(test, bqlm_xdescribe_state(&sys, t->tun,
							     buf, TUN_TEXT),
				    10, "step %u", k);
		/* always the first enabled action: the producer first */
		KUNIT_ASSERT_GE_MSG(test, bqlm_xstep(&sys, tun_before(t),
						   t->actions[0], t->tun,
						   t->each),
				    0, "step %u, action %#x", k,
				    t->actions[0]);
	}
}

/*
 * A trace the explorer prints: the configuration explored, the check
 * whose shortest path is printed, and words the trace must contain.
 */
struct tun_trace_case {
	const char *desc;
	void (*cfg)(struct bqlm_tun_cfg *cfg);
	enum bqlm_check check;
	const char *const *want;
	unsigned int nr;
};

/* One producer CPU and no detach: only the race the case is about. */
static void tun_trace_one_cpu(struct bqlm_tun_cfg *cfg,
			      enum bqlm_tun_variant v)
{
	bqlm_tun_cfg_default(cfg, v);
	cfg->cpus = 1;
	cfg->detaches = 0;
}

/* the 2019 race: a wake before the stop lands */
static void tun_trace_race_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_STOP_2019);
	cfg->packets = 3;
	cfg->ring = 2;
}

static const char *const tun_trace_race[] = {
	"ptr_ring_full(q0)", "netif_stop_subqueue(txq0)",
	"netif_wake_subqueue(txq0)", "XOFF rd-sleeps", "!! stall",
};

/* store buffering without the barriers, under tso */
static void tun_trace_sb_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_BACKPRESSURE_NOBARRIER);
	cfg->mm = BQLM_MM_TSO;
	cfg->packets = 4;
}

static const char *const tun_trace_sb[] = {
	"sb{q0.slot", "(no barrier)", "__tun_wake_queue",
	"spin_unlock(consumer_lock)", "!! stall",
};

/* a resize wakes a full ring: the drop backpressure was to prevent */
static void tun_trace_drop_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_BACKPRESSURE);
	cfg->packets = 3;
	cfg->resizes = 1;
	cfg->resize_to = 1;
}

static const char *const tun_trace_drop[] = {
	"tun_queue_resize", "drop pkt (FULL_RING)", "cons_cnt",
	"!! backpressure-drop",
};

/* vhost-net's consume path has no wake in the 2019 patch */
static void tun_trace_vhost_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_STOP_2019);
	cfg->detaches = 1;
	cfg->reader = BQLM_TUN_VHOST;
	cfg->packets = 3;
	cfg->ring = 2;
}

static const char *const tun_trace_vhost[] = {
	"vhost0: ptr_ring_consume_batched", "socket's wakeup",
	"netif_stop_subqueue(txq0)", "!! stall",
};

/* detached while stopped, re-attached without a wake */
static void tun_trace_detach_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_STOP_2019);
	cfg->packets = 3;
	cfg->ring = 2;
	cfg->detaches = 1;
}

static const char *const tun_trace_detach[] = {
	"tun_detach: tfiles[0] = NULL", "tun_queue_purge(q0)",
	"tun_attach(q0)", "!! stall",
};

/* the BQL study, sent after the produce: the reader completes first */
static void tun_trace_late_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_BQL_LATE_SENT);
}

static const char *const tun_trace_late[] = {
	"spin_lock(producer_lock), __ptr_ring_produce(q0, pkt1)",
	"netdev_tx_completed_queue(txq0, 1, 100)", "dql queued 0",
	"!! dql-over-completion",
};

/* the BQL study, reset on resize: the survivors' completion is stale */
static void tun_trace_reset_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_BQL_RESET_RESIZE);
}

/* veth before 5442a9da6978: the store-buffering stall, under tso */
static void tun_trace_veth_cfg(struct bqlm_tun_cfg *cfg)
{
	tun_trace_one_cpu(cfg, BQLM_TUN_VETH_DC82A33297FC);
	cfg->mm = BQLM_MM_TSO;
	cfg->packets = 3;
}

static const char *const tun_trace_veth[] = {
	"netif_tx_stop_queue(txq0)", "txq0.state |= 1",
	"end of veth_xdp_rcv: (no barrier) netif_tx_queue_stopped(txq0)",
	"__ptr_ring_empty(q0) ? netif_tx_wake_queue(txq0); NETDEV_TX_BUSY",
	"napi_complete_done(2)", "napi-idle", "!! stall",
};

static const char *const tun_trace_reset[] = {
	"netdev_tx_sent_queue(100 B)", "netdev_tx_reset_queue",
	"STACK_XOFF", "!! reset-on-stop",
};

#define TUN_TRACE(d, name, c)						\
	{ .desc = (d), .cfg = tun_trace_##name##_cfg,			\
	  .check = BQLM_CHECK_##c, .want = tun_trace_##name,		\
	  .nr = ARRAY_SIZE(tun_trace_##name) }

static const struct tun_trace_case tun_trace_cases[] = {
	TUN_TRACE("stop-2019-race", race, STALL),
	TUN_TRACE("nobarrier-tso-store-buffering", sb, STALL),
	TUN_TRACE("backpressure-resize-drop", drop, BACKPRESSURE_DROP),
	TUN_TRACE("stop-2019-vhost", vhost, STALL),
	TUN_TRACE("stop-2019-detach", detach, STALL),
	TUN_TRACE("bql-late-sent", late, DQL_OVER_COMPLETION),
	TUN_TRACE("bql-reset-resize", reset, DQL_OVER_COMPLETION),
	TUN_TRACE("veth-dc82a33297fc-tso", veth, STALL),
};

KUNIT_ARRAY_PARAM_DESC(tun_trace, tun_trace_cases, desc);

/*
 * Explore the case's configuration, print the shortest path to its check
 * as the CLI does, and look for the case's words in it.
 */
static void tun_trace_words(struct kunit *test)
{
	const struct tun_trace_case *p = test->param_value;
	struct bqlm_tun_cfg *cfg;
	struct bqlm_xresult *res;
	struct bqlm_xsys sys;
	unsigned int *path, lines;
	int n;

	cfg = bqlm_kunit_zalloc(test, sizeof(*cfg));
	res = bqlm_kunit_zalloc(test, sizeof(*res));
	path = explore_path_alloc(test);
	p->cfg(cfg);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	explore_shortest(test, &sys, NULL, res, p->check, path, &n);
	KUNIT_ASSERT_GT_MSG(test, n, 0, "no path to %s",
			    bqlm_check_name(p->check));
	KUNIT_EXPECT_TRUE_MSG(test, explore_trace_words(test, &sys, path, n,
							p->want, p->nr,
							&lines) &
				    BQLM_CHECK_BIT(p->check),
			      "the trace does not end in %s",
			      bqlm_check_name(p->check));
	KUNIT_EXPECT_GT(test, lines, 2U * n);
}

/* Administrator calls wait for the ring locks and for synchronize_net(). */
static void tun_admin_waits(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);

	t->cfg.detaches = 1;
	t->cfg.set_iffs = 1;
	t->cfg.resizes = 1;
	t->cfg.resize_to = 4;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* stack check */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* producer_lock held */
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	/* synchronize_net(): the transmit must leave first */
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev),
			-EAGAIN);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_IDLE);
	KUNIT_EXPECT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_PURGED], 1);
	/* a packet for a detached queue file is dropped */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_DETACHED], 1);
	KUNIT_EXPECT_EQ(test, bqlm_tun_attach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			0);
	KUNIT_EXPECT_EQ(test, t->tun->q[0].ring.size, 4);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_FALSE(test, t->tun->backpressure);
	KUNIT_EXPECT_EQ(test, t->ev.reconfig_stopped, 0);

	/* before the opt-in: TUNSETIFF wakes a full ring without the locks */
	t = tun_setup(test, BQLM_TUN_BACKPRESSURE_V12, BQLM_MM_SC);
	t->cfg.set_iffs = 1;
	tun_reinit(test, t);
	while (!bqlm_tun_stopped(t->tun, 0))
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "%u sent", t->tun->sent);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_TRUE(test, t->tun->q[0].woke_full);
	KUNIT_EXPECT_TRUE(test, t->tun->cpu[0].raced & BQLM_TUN_RACED_RECONFIG);
	KUNIT_EXPECT_TRUE(test, t->tun->backpressure);
}

/* Readers, noqueue and refused actions in the descriptions. */
static void tun_describe_more(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOP_2019, BQLM_MM_PSO);
	char *buf = bqlm_kunit_zalloc(test, TUN_TEXT);
	struct bqlm_xsys sys;

	t->cfg.reader = BQLM_TUN_READ_NONBLOCK;
	t->cfg.qdisc = false;
	t->cfg.set_iffs = 1;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	bqlm_xdescribe_action(&sys, t->tun,
			    BQLM_X_ACTION(BQLM_TUN_A_READ, 0), buf, TUN_TEXT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "-EAGAIN, poll()"));
	bqlm_xdescribe_action(&sys, t->tun, BQLM_X_ACTION(BQLM_TUN_A_XMIT, 0),
			    buf, TUN_TEXT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "noqueue"));
	bqlm_xdescribe_action(&sys, t->tun, BQLM_X_ACTION(BQLM_TUN_A_SET_IFF, 0), buf,
			    TUN_TEXT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "netif_tx_wake_all_queues"));
	bqlm_xdescribe_action(&sys, t->tun, 0x7f00, buf, TUN_TEXT);
	KUNIT_EXPECT_EQ(test, buf[0], '?');
	bqlm_xdescribe_action(&sys, t->tun,
			    BQLM_X_ACTION(BQLM_TUN_A_FLUSH, 0xfe), buf, TUN_TEXT);
	KUNIT_EXPECT_EQ(test, buf[0], '?');
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, t->tun, 0x7f00, t->tun,
					 t->each), -EINVAL);
	/* TUNSETIFF without the flag wakes every queue */
	KUNIT_ASSERT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_set_iff(t->tun, &t->cfg, &t->ev),
			-EINVAL);
	/* noqueue and a stopped queue: the stack drops */
	t->tun->mem[BQLM_TUN_STATE_VAR(0)] = BQLM_TUN_XOFF;
	KUNIT_EXPECT_EQ(test, tun_x(t), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_NOQUEUE], 1);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 1),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[0].phase, BQLM_TUN_X_IDLE);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), 0);	/* reader runs */
	KUNIT_EXPECT_EQ(test, tun_r(t), 0);		/* -EAGAIN, poll() */
	/* pso: the reader's unlock still waits in its buffer */
	KUNIT_EXPECT_EQ(test, t->tun->rd[0].sb.n, 1);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, &t->cfg,
					     BQLM_TUN_WHO_READER(0), 0), 0);
	KUNIT_EXPECT_EQ(test, tun_state_check(t), (int)BIT_ST);
}

/*
 * The sizes outside the explorer: the state follows the configuration,
 * the simulator's bounds are taken by bqlm_tun_cfg_check() and refused by
 * bqlm_tun_system().
 */
static void tun_sizes(struct kunit *test)
{
	struct bqlm_tun_cfg cfg;
	struct bqlm_xsys sys;
	size_t small, big;

	bqlm_tun_cfg_default(&cfg, BQLM_TUN_BACKPRESSURE);
	small = bqlm_tun_state_size(&cfg);
	KUNIT_EXPECT_EQ(test, small % __alignof__(struct bqlm_tun), 0);
	/* tun's default tx_queue_len, an unbounded stream */
	cfg.ring = 500;
	cfg.packets = 0;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&cfg, &sys), -EINVAL);
	big = bqlm_tun_state_size(&cfg);
	/* the fixed variables and 500 slots, their shadows, 2 * 500 + 2 ids */
	KUNIT_EXPECT_EQ(test, big, (offsetof(struct bqlm_tun, mem) +
				    (BQLM_TUN_FIXED_VARS + 500) * 2 + 500 * 2 +
				    1002 + __alignof__(struct bqlm_tun) - 1) &
				   ~(__alignof__(struct bqlm_tun) - 1));
	KUNIT_EXPECT_EQ(test, big % __alignof__(struct bqlm_tun), 0);
	KUNIT_EXPECT_GT(test, big, small);
	BQLM_EXPECT_EDGE(test, bqlm_tun_cfg_check, &cfg,
			 ring, BQLM_TUN_MAX_RING, BQLM_TUN_MAX_RING + 1);
	cfg.ring = 25;
	/* a bounded run outside the explorer: ids up to BQLM_TUN_MAX_ID */
	BQLM_EXPECT_EDGE(test, bqlm_tun_cfg_check, &cfg,
			 packets, BQLM_TUN_MAX_ID, BQLM_TUN_MAX_ID + 1);
	cfg.packets = 0;
	/* a resize keeps what survives on the stack: explorer rings only */
	cfg.resizes = 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.ring = 4;
	cfg.resize_to = 5;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.resize_to = 4;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	cfg.resizes = 0;
	/* store buffers name at most BQLM_SB_MAX_VARS variables */
	cfg.mm = BQLM_MM_TSO;
	cfg.ring = BQLM_SB_MAX_VARS - BQLM_TUN_FIXED_VARS;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	cfg.ring++;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
	cfg.mm = BQLM_MM_SC;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), 0);
	/* the BQL study keeps its books per packet: bounded only */
	bqlm_tun_cfg_default(&cfg, BQLM_TUN_BQL);
	cfg.packets = 0;
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&cfg), -EINVAL);
}

/* A transmit, a consume: what a seeded run of one CPU and one reader saw. */
struct tun_stream {
	unsigned short fifo[64];	/* ids produced, not yet read */
	unsigned int head, tail;
	unsigned int *uses;		/* per id: packets that had it */
	unsigned int ids;
	unsigned int cur;		/* id in tun_net_xmit(), 0 if none */
	bool cur_done;			/* produced or dropped already */
	unsigned int produced, read, dropped, order_errors;
	unsigned int full_drops, stopped_waits, max_count, reused;
};

/* One step of CPU 0; a produce or drop of its packet is recorded. */
static int tun_stream_xmit(struct kunit *test, struct tun_ctx *t,
			   struct tun_stream *st)
{
	unsigned int before = bqlm_tun_ring_count(t->tun, 0);
	int where, err = tun_x(t);

	if (err)
		return err;
	if (!st->cur) {
		st->cur = bqlm_tun_xmit_pkt(t->tun, 0);
		st->cur_done = false;
		KUNIT_ASSERT_GT_MSG(test, st->cur, 0U,
				    "packet %u, %u sent", st->cur, t->tun->sent);
		KUNIT_ASSERT_LE_MSG(test, st->cur, st->ids,
				    "packet %u, %u sent", st->cur, t->tun->sent);
		KUNIT_ASSERT_EQ_MSG(test, bqlm_tun_last_pkt(t->tun, &t->cfg),
				    st->cur,
				    "packet %u, %u sent", st->cur, t->tun->sent);
		if (st->uses[st->cur]++)
			st->reused++;
		return 0;
	}
	where = bqlm_tun_pkt_where(t->tun, &t->cfg, st->cur);
	if (st->cur_done) {
		/* produced earlier: the reader may have taken it since */
		KUNIT_ASSERT_NE_MSG(test, where, BQLM_TUN_PKT_DROPPED,
				    "packet %u, %u sent", st->cur, t->tun->sent);
	} else if (where == BQLM_TUN_PKT_RING || where == BQLM_TUN_PKT_READ) {
		st->fifo[st->tail++ % ARRAY_SIZE(st->fifo)] = st->cur;
		st->produced++;
		st->cur_done = true;
	} else if (where == BQLM_TUN_PKT_DROPPED) {
		st->dropped++;
		if (before == t->cfg.ring)
			st->full_drops++;
		st->cur_done = true;
	} else {
		KUNIT_ASSERT_EQ_MSG(test, where, BQLM_TUN_PKT_XMIT,
				    "packet %u, %u sent", st->cur, t->tun->sent);
	}
	if (!bqlm_tun_xmit_pkt(t->tun, 0)) {
		/* the transmit is over: the packet is in the ring or gone */
		KUNIT_ASSERT_TRUE_MSG(test, st->cur_done,
				      "packet %u, %u sent", st->cur, t->tun->sent);
		st->cur = 0;
	}
	return 0;
}

/* One step of the reader; what it consumed must be the FIFO's head. */
static int tun_stream_read(struct kunit *test, struct tun_ctx *t,
			   struct tun_stream *st)
{
	unsigned int got[BQLM_TUN_VHOST_BATCH], nr, i;
	int err;

	err = bqlm_tun_do_read_got(t->tun, &t->cfg, 0, &t->ev, got, &nr);
	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		KUNIT_ASSERT_LT_MSG(test, st->head, st->tail,
				    "read %u: packet %u", st->read, got[i]);
		if (got[i] != st->fifo[st->head++ % ARRAY_SIZE(st->fifo)])
			st->order_errors++;
		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_pkt_where(t->tun, &t->cfg,
							     got[i]),
				    BQLM_TUN_PKT_READ,
				    "read %u: packet %u", st->read, got[i]);
		st->read++;
	}
	return 0;
}

/*
 * A seeded run of an unbounded stream through a ring of 25 (NODROP's),
 * and the figures it must end with: packets dropped (all at a full ring,
 * SKB_DROP_REASON_FULL_RING), producer steps the stopped queue refused.
 */
struct tun_stream_case {
	const char *desc;
	enum bqlm_tun_variant variant;
	unsigned int seed;
	unsigned int drops;
	unsigned int stopped_waits;
};

static const struct tun_stream_case tun_stream_cases[] = {
	{ .desc = "stock", .variant = BQLM_TUN_STOCK, .seed = 1,
	  .drops = 132, .stopped_waits = 0 },
	/* tun_do_read()'s unconditional wake can come after a refill */
	{ .desc = "stop-2019", .variant = BQLM_TUN_STOP_2019, .seed = 2,
	  .drops = 24, .stopped_waits = 211 },
	{ .desc = "backpressure", .variant = BQLM_TUN_BACKPRESSURE, .seed = 3,
	  .drops = 0, .stopped_waits = 479 },
};

KUNIT_ARRAY_PARAM_DESC(tun_stream, tun_stream_cases, desc);

#define TUN_STREAM_PACKETS	436
#define TUN_STREAM_RING		25

/*
 * One producer CPU and one reader on a ring of 25, an unbounded stream:
 * the producer steps three times out of four (seeded), so the ring fills.
 * Packet ids are recycled; every packet is read once, in order, or
 * dropped: stock drops at the full ring and never stops the queue,
 * backpressure never drops with one CPU and keeps the qdisc waiting
 * instead, the 2019 experiment does both.
 */
static void tun_unbounded_stream(struct kunit *test)
{
	const struct tun_stream_case *p = test->param_value;
	struct tun_ctx *t = tun_setup(test, p->variant, BQLM_MM_SC);
	struct tun_stream *st = bqlm_kunit_zalloc(test, sizeof(*st));
	unsigned int i, k, drops = 0;
	struct bqlm_prng r;
	int err;

	t->cfg.ring = TUN_STREAM_RING;
	t->cfg.packets = 0;
	tun_reinit(test, t);
	st->ids = 2 * TUN_STREAM_RING + 1;
	st->uses = kunit_kcalloc(test, st->ids + 1, sizeof(*st->uses),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st->uses);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, st->ids),
			BQLM_TUN_PKT_UNSENT);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg,
						 st->ids + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 0), -EINVAL);
	bqlm_prng_seed(&r, p->seed);
	for (k = 0; k < 20 * TUN_STREAM_PACKETS; k++) {
		bool xmit = bqlm_prng_next(&r) & 3;

		if (!st->cur && t->tun->sent >= TUN_STREAM_PACKETS)
			break;
		err = xmit ? tun_stream_xmit(test, t, st) :
		      tun_stream_read(test, t, st);
		if (err == -EAGAIN && xmit)
			st->stopped_waits++;
		if (err == -EAGAIN)	/* the other one can step */
			err = xmit ? tun_stream_read(test, t, st) :
			      tun_stream_xmit(test, t, st);
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "step %u: neither side steps",
				    k);
		if (bqlm_tun_ring_count(t->tun, 0) > st->max_count)
			st->max_count = bqlm_tun_ring_count(t->tun, 0);
	}
	/* the stack has no more; the reader drains the ring */
	KUNIT_ASSERT_EQ(test, st->cur, 0U);
	while (tun_stream_read(test, t, st) == 0)
		;
	kunit_info(test, "%s: sent %u read %u dropped %u, waits %u, reused %u",
		   p->desc, t->tun->sent, st->read, st->dropped,
		   st->stopped_waits, st->reused);
	KUNIT_EXPECT_EQ(test, t->tun->sent, TUN_STREAM_PACKETS);
	KUNIT_EXPECT_EQ(test, st->read + st->dropped, TUN_STREAM_PACKETS);
	KUNIT_EXPECT_EQ(test, st->produced, st->read);
	KUNIT_EXPECT_EQ(test, t->tun->delivered, st->read);
	KUNIT_EXPECT_EQ(test, st->order_errors, 0U);
	KUNIT_EXPECT_EQ(test, st->head, st->tail);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 0U);
	KUNIT_EXPECT_EQ(test, t->ev.lost, 0U);
	KUNIT_EXPECT_EQ(test, t->ev.twice, 0U);
	KUNIT_EXPECT_EQ(test, t->ev.unsent_skbs, 0U);
	KUNIT_EXPECT_EQ(test, t->ev.bp_drops, 0U);
	/* the ring filled, never beyond its size */
	KUNIT_EXPECT_EQ(test, st->max_count, TUN_STREAM_RING);
	/* every id of the 51 served, over and over */
	for (i = 1; i <= st->ids; i++)
		KUNIT_EXPECT_GT_MSG(test, st->uses[i], 0U, "id %u", i);
	/* a cursor over the ids: each one served once per round */
	KUNIT_EXPECT_EQ(test, st->reused, TUN_STREAM_PACKETS - st->ids);
	for (i = 0; i < BQLM_TUN_NR_DROPS; i++)
		drops += t->tun->drops[i];
	KUNIT_EXPECT_EQ(test, drops, st->dropped);
	KUNIT_EXPECT_EQ(test, st->dropped, p->drops);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_FULL], p->drops);
	KUNIT_EXPECT_EQ(test, st->stopped_waits, p->stopped_waits);
	if (p->variant == BQLM_TUN_STOCK) {
		/* the produce that failed saw the ring full */
		KUNIT_EXPECT_GT(test, st->dropped, 0U);
		KUNIT_EXPECT_EQ(test, st->full_drops, st->dropped);
		KUNIT_EXPECT_EQ(test, st->stopped_waits, 0U);
	} else {
		KUNIT_EXPECT_GT(test, st->stopped_waits, 0U);
	}
	if (p->variant == BQLM_TUN_BACKPRESSURE)
		KUNIT_EXPECT_EQ(test, st->dropped, 0U);
	/* nothing in flight, every id free again, no stall */
	for (i = 1; i <= st->ids; i++)
		KUNIT_EXPECT_NE_MSG(test, bqlm_tun_pkt_where(t->tun, &t->cfg, i),
				    BQLM_TUN_PKT_RING, "id %u", i);
	KUNIT_EXPECT_TRUE(test, t->tun->rd[0].sleeping);
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
}

/*
 * Packets the reader can never see (their slots cleared behind the
 * model's back) keep their ids: once every id is taken the stack's next
 * packet fails with -ENOSPC and the state is left as it was.
 */
static void tun_unbounded_ids_run_out(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOCK, BQLM_MM_SC);
	unsigned int base, i;

	t->cfg.packets = 0;
	tun_reinit(test, t);
	base = t->tun->q[0].ring.base;
	KUNIT_EXPECT_EQ(test, base, BQLM_TUN_FIXED_VARS);
	/* a ring of 2, one CPU: ids 1..5 */
	for (i = 1; i <= 5; i++) {
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u", i);
		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_xmit_pkt(t->tun, 0), i,
				    "packet %u", i);
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u", i);
		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_xmit_pkt(t->tun, 0), 0U,
				    "packet %u", i);
		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_last_pkt(t->tun, &t->cfg), i,
				    "packet %u", i);
		KUNIT_EXPECT_EQ_MSG(test, bqlm_tun_pkt_where(t->tun, &t->cfg, i),
				    BQLM_TUN_PKT_RING, "packet %u", i);
		t->tun->mem[base] = 0;
		t->tun->mem[base + 1] = 0;
	}
	/* the produces of 3, 4, 5 went over 1, 2, 3, never consumed */
	KUNIT_EXPECT_EQ(test, t->ev.lost, 3U);
	KUNIT_EXPECT_EQ(test, t->tun->sent, 5U);
	tun_before(t);
	KUNIT_EXPECT_EQ(test, tun_x(t), -ENOSPC);
	KUNIT_EXPECT_MEMEQ(test, t->tun, t->before, t->size);
	KUNIT_EXPECT_EQ(test, tun_x(t), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm_tun_last_pkt(t->tun, &t->cfg), 5U);
}

/*
 * The simulator's largest rings: two queue files of BQLM_TUN_MAX_RING
 * slots each. CPU 1 fills the ring of queue file 1 until backpressure
 * stops it, a vhost-net reader takes two packets at a time, a detach of
 * queue file 1 purges the rest, and CPU 1's next packet goes to queue 0.
 */
static void tun_max_ring(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);
	unsigned int got[BQLM_TUN_VHOST_BATCH], nr, k;
	struct bqlm_tun_cfg *cfg = &t->cfg;

	cfg->ring = BQLM_TUN_MAX_RING;
	cfg->queues = 2;
	cfg->cpus = 2;
	cfg->packets = 0;
	cfg->detaches = 1;
	cfg->reader = BQLM_TUN_VHOST;
	tun_reinit(test, t);
	KUNIT_EXPECT_EQ(test, t->tun->q[1].ring.base,
			BQLM_TUN_FIXED_VARS + BQLM_TUN_MAX_RING);
	for (k = 0; k < 5 * BQLM_TUN_MAX_RING && !bqlm_tun_stopped(t->tun, 1);
	     k++)
		KUNIT_ASSERT_EQ_MSG(test,
				    bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
				    0, "CPU 1, step %u", k);
	while (bqlm_tun_xmit_pkt(t->tun, 1))
		KUNIT_ASSERT_EQ_MSG(test,
				    bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
				    0, "CPU 1, packet %u",
				    bqlm_tun_xmit_pkt(t->tun, 1));
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 1));
	KUNIT_EXPECT_FALSE(test, bqlm_tun_stopped(t->tun, 0));
	KUNIT_EXPECT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, t->tun->sent, BQLM_TUN_MAX_RING);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 1),
			BQLM_TUN_MAX_RING);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 0U);
	/* the last slot holds the last packet */
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[1].ring.base +
					 BQLM_TUN_MAX_RING - 1],
			BQLM_TUN_MAX_RING);
	/* vhost-net: a batch of two, the oldest first */
	KUNIT_ASSERT_EQ(test, bqlm_tun_do_read_got(t->tun, cfg, 1, &t->ev,
						   got, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 2U);
	KUNIT_EXPECT_EQ(test, got[0], 1U);
	KUNIT_EXPECT_EQ(test, got[1], 2U);
	/* the wake and unlock steps consume nothing; 2 of 4096 wake nobody */
	KUNIT_ASSERT_EQ(test, bqlm_tun_do_read_got(t->tun, cfg, 1, &t->ev,
						   got, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 0U);
	KUNIT_EXPECT_EQ(test, t->tun->q[1].cons_cnt, 2);
	KUNIT_EXPECT_TRUE(test, bqlm_tun_stopped(t->tun, 1));
	KUNIT_ASSERT_EQ(test, bqlm_tun_do_read(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->rd[1].phase, BQLM_TUN_R_IDLE);
	KUNIT_EXPECT_EQ(test, t->tun->delivered, 2U);
	/* queue file 1 is detached, its ring purged */
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, cfg, &t->ev), 0);
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_PURGED],
			BQLM_TUN_MAX_RING - 2);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 1), 0U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, cfg, 3),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, t->ev.lost + t->ev.twice + t->ev.unsent_skbs,
			0U);
	/* CPU 1 falls back to txq 0; the id cursor goes on: 4097 */
	KUNIT_ASSERT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->cpu[1].txq, 0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, 1),
			BQLM_TUN_MAX_RING + 1);
	while (bqlm_tun_xmit_pkt(t->tun, 1))
		KUNIT_ASSERT_EQ_MSG(test,
				    bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev),
				    0, "CPU 1 on txq 0, packet %u",
				    bqlm_tun_xmit_pkt(t->tun, 1));
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 1U);
}

/*
 * A resize that destroys the packet with the highest id: ring 4, three
 * packets in it, resized to 2. ptr_ring_resize() keeps the two oldest and
 * frees pkt3, the last id of the bound, which must count as dropped.
 */
static void tun_resize_drops_highest(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_STOCK, BQLM_MM_SC);

	t->cfg.ring = 4;
	t->cfg.resizes = 1;
	t->cfg.resize_to = 2;
	tun_reinit(test, t);
	while (t->tun->sent < t->cfg.packets || bqlm_tun_xmit_pkt(t->tun, 0))
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "%u sent", t->tun->sent);
	KUNIT_ASSERT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 3U);
	KUNIT_ASSERT_EQ(test, bqlm_tun_nr_ids(&t->cfg), 3U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_queue_resize(t->tun, &t->cfg, &t->ev),
			0);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 2U);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_RESIZED], 1U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 3),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 2),
			BQLM_TUN_PKT_RING);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 1),
			BQLM_TUN_PKT_RING);
	/* every packet is accounted for: the invariants hold */
	KUNIT_EXPECT_EQ(test, tun_state_check(t), 0);
}

/*
 * Each range guard of model/tun/tun.c at its first invalid value: the CPU
 * after the last, the store buffer owner after the last CPU (reader 0),
 * the txq equal to numqueues after a detach, the variant after the last.
 */
static void tun_range_guards(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_TSO);
	struct bqlm_tun_cfg *cfg = &t->cfg;
	char *buf = bqlm_kunit_zalloc(test, TUN_TEXT);
	struct bqlm_tun_cfg bad;
	struct bqlm_xsys sys;
	unsigned int pkt;

	/* the variant after the last is refused, named "unknown" */
	bqlm_tun_cfg_default(&bad, BQLM_TUN_STOCK);
	bad.variant = bqlm_tun_nr_variants();
	KUNIT_EXPECT_EQ(test, bqlm_tun_cfg_check(&bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tun_system(&bad, &sys), -EINVAL);
	KUNIT_EXPECT_STREQ(test, bqlm_tun_variant_desc(bqlm_tun_nr_variants()),
			   "unknown");

	/* CPU BQLM_TUN_MAX_CPUS transmits nothing, whatever follows cpu[] */
	memset(t->tun->rd, 0xff, sizeof(t->tun->rd));
	KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, BQLM_TUN_MAX_CPUS), 0U);
	tun_reinit(test, t);

	/* reader 0's store is BQLM_TUN_WHO_READER(0) == BQLM_TUN_MAX_CPUS */
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* stack check */
	KUNIT_ASSERT_EQ(test, tun_x(t), 0);	/* produce, buffered */
	KUNIT_ASSERT_EQ(test, bqlm_tun_flush(t->tun, cfg, 0, 0), 0);
	while (bqlm_tun_xmit_pkt(t->tun, 0))
		KUNIT_ASSERT_EQ_MSG(test, tun_x(t), 0, "packet %u",
				    bqlm_tun_xmit_pkt(t->tun, 0));
	while (t->tun->cpu[0].sb.n)
		KUNIT_ASSERT_EQ_MSG(test, bqlm_tun_flush(t->tun, cfg, 0, 0), 0,
				    "%u stores buffered", t->tun->cpu[0].sb.n);
	KUNIT_ASSERT_EQ(test, tun_r(t), 0);	/* consume: slot zeroed */
	KUNIT_ASSERT_GT(test, t->tun->rd[0].sb.n, 0);
	KUNIT_ASSERT_GT(test, bqlm_xdescribe_action(&sys, t->tun,
			BQLM_X_ACTION(BQLM_TUN_A_FLUSH,
				      BQLM_TUN_WHO_READER(0) * BQLM_SB_DEPTH),
			buf, TUN_TEXT),
			0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "reader0's store"));
	KUNIT_EXPECT_EQ(test, bqlm_tun_flush(t->tun, cfg,
					     BQLM_TUN_WHO_READER(0), 0), 0);
	KUNIT_EXPECT_EQ(test, t->tun->mem[t->tun->q[0].ring.base], 0);

	/* CPU 1's txq 1 == numqueues once queue file 1 is detached */
	bqlm_tun_cfg_default(cfg, BQLM_TUN_BACKPRESSURE);
	cfg->queues = 2;
	cfg->cpus = 2;
	cfg->packets = 2;
	cfg->detaches = 1;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(cfg, &sys), 0);
	KUNIT_ASSERT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_ASSERT_EQ(test, t->tun->cpu[1].txq, 1);
	pkt = bqlm_tun_xmit_pkt(t->tun, 1);
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, cfg, &t->ev), 0);
	KUNIT_ASSERT_EQ(test, t->tun->numqueues, 1);
	KUNIT_ASSERT_GT(test, bqlm_xdescribe_action(&sys, t->tun,
			BQLM_X_ACTION(BQLM_TUN_A_XMIT, 1), buf, TUN_TEXT), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "tfiles[1] == NULL"));
	/*
	 * The guard alone lets the CPU on: shown holding ring 1's producer
	 * lock, a CPU that looked at the ring would wait; tun_net_xmit()
	 * finds no tfile and drops without touching the ring.
	 */
	t->tun->mem[BQLM_TUN_PLOCK_VAR(1)] = 1;
	KUNIT_EXPECT_EQ(test, bqlm_tun_net_xmit(t->tun, cfg, 1, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_DETACHED], 1U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, cfg, pkt),
			BQLM_TUN_PKT_DROPPED);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, 1), 0U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_xmit_pkt(t->tun, 1), 0U);
}


/*
 * What make mutate found untested: the default bound's detach, the ring
 * count of a queue past the last, the purge of the highest packet id,
 * the bytes an over-completion records, and the descriptions' CPU lines
 * and wake threshold.
 */
static void tun_mutation_gaps(struct kunit *test)
{
	struct tun_ctx *t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);
	struct bqlm_xresult *res = kunit_kzalloc(test, sizeof(*res),
						 GFP_KERNEL);
	char *buf = kunit_kzalloc(test, TUN_TEXT, GFP_KERNEL);
	struct bqlm_tun_cfg def;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;

	KUNIT_ASSERT_TRUE(test, res && buf);
	bqlm_tun_cfg_default(&def, BQLM_TUN_BACKPRESSURE);
	KUNIT_EXPECT_EQ(test, def.detaches, 1U);
	KUNIT_EXPECT_EQ(test, bqlm_tun_ring_count(t->tun, BQLM_TUN_MAX_QUEUES),
			0U);

	/* one packet, the last id, in the ring at the purge: counted */
	t->cfg.packets = 1;
	t->cfg.detaches = 1;
	tun_reinit(test, t);
	do
		KUNIT_ASSERT_EQ(test, tun_x(t), 0);
	while (t->tun->cpu[0].phase != BQLM_TUN_X_IDLE);
	KUNIT_ASSERT_EQ(test, bqlm_tun_ring_count(t->tun, 0), 1U);
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_ASSERT_EQ(test, bqlm_tun_detach(t->tun, &t->cfg, &t->ev), 0);
	KUNIT_EXPECT_EQ(test, t->tun->drops[BQLM_TUN_DROP_PURGED], 1);
	KUNIT_EXPECT_EQ(test, bqlm_tun_pkt_where(t->tun, &t->cfg, 1),
			BQLM_TUN_PKT_DROPPED);

	/* two CPUs on one line each; the reader's wake at half the ring */
	t->cfg.packets = 3;
	t->cfg.cpus = 2;
	t->cfg.ring = 4;
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	bqlm_xdescribe_state(&sys, t->tun, buf, TUN_TEXT);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "cpu0 "), "%s", buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "cpu1 "), "%s", buf);
	/* the ring's four slots, not one more (make mutate) */
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "q0[0 0 0 0]"), "%s", buf);
	t->tun->rd[0].phase = BQLM_TUN_R_WAKE;
	t->tun->rd[0].nr = 1;
	bqlm_xdescribe_action(&sys, t->tun, BQLM_X_ACTION(BQLM_TUN_A_READ, 0), buf,
			      TUN_TEXT);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "wake at 2"), "%s", buf);

	/* every kind of drop in the state's total */
	t->tun->drops[BQLM_TUN_DROP_RACE] = 1;
	t->tun->drops[BQLM_TUN_DROP_FULL] = 2;
	bqlm_xdescribe_state(&sys, t->tun, buf, TUN_TEXT);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "dropped 3"), "%s", buf);

	/* the default bound: states after a drop, purges and resizes aside */
	t = tun_setup(test, BQLM_TUN_BACKPRESSURE, BQLM_MM_SC);
	bqlm_tun_cfg_default(&t->cfg, BQLM_TUN_BACKPRESSURE);
	t->cfg.stats = kunit_kzalloc(test, sizeof(*t->cfg.stats), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->cfg.stats);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	x = explore_create(test, &sys, NULL);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	KUNIT_EXPECT_EQ(test, t->cfg.stats->states, res->states);
	KUNIT_EXPECT_EQ(test, res->states, 19106ULL);
	KUNIT_EXPECT_EQ(test, t->cfg.stats->states_with_drops, 7858ULL);
	KUNIT_EXPECT_GT(test, t->cfg.stats->max_drops[BQLM_TUN_DROP_PURGED], 0U);

	/* the BQL study's shortcut: the over-completion records its bytes */
	t = tun_setup(test, BQLM_TUN_BQL_RESET_RESIZE, BQLM_MM_SC);
	bqlm_tun_cfg_default(&t->cfg, BQLM_TUN_BQL_RESET_RESIZE);
	tun_reinit(test, t);
	KUNIT_ASSERT_EQ(test, bqlm_tun_system(&t->cfg, &sys), 0);
	x = explore_create(test, &sys, NULL);
	bqlm_explore(x, res);
	KUNIT_ASSERT_TRUE(test, res->violated & BIT_OC);
	KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_DQL_OVER_COMPLETION].v.val[0],
			(u64)t->cfg.len);
	KUNIT_EXPECT_EQ(test, res->w[BQLM_CHECK_DQL_OVER_COMPLETION].v.val[1],
			0ULL);
}

static struct kunit_case bqlm_tun_cases[] = {
	/* 27 explorations: about 2 s in UML, 4 s in userspace with ASan */
	KUNIT_CASE_PARAM_ATTR(tun_exploration, tun_x_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(tun_stop2019_lost_wakeup),
	KUNIT_CASE(tun_backpressure_recheck),
	KUNIT_CASE(tun_nobarrier_tso_stall),
	KUNIT_CASE_PARAM(tun_attach_wakes, tun_attach_gen_params),
	KUNIT_CASE(tun_resize_full),
	KUNIT_CASE(tun_refusals),
	KUNIT_CASE(tun_config),
	KUNIT_CASE(tun_descriptions),
	KUNIT_CASE_PARAM(tun_trace_words, tun_trace_gen_params),
	KUNIT_CASE(tun_describe_more),
	KUNIT_CASE(tun_admin_waits),
	KUNIT_CASE(tun_sizes),
	KUNIT_CASE_PARAM(tun_unbounded_stream, tun_stream_gen_params),
	KUNIT_CASE(tun_unbounded_ids_run_out),
	KUNIT_CASE(tun_max_ring),
	KUNIT_CASE(tun_resize_drops_highest),
	KUNIT_CASE(tun_range_guards),
	KUNIT_CASE(tun_veth_lost_wakeup),
	KUNIT_CASE(tun_veth_busy_requeue),
	KUNIT_CASE_PARAM(tun_option_rules, tun_rule_gen_params),
	KUNIT_CASE_PARAM(tun_symmetry, tun_variant_gen_params),
	KUNIT_CASE(tun_mutation_gaps),
	{}
};

BQLM_KUNIT_SUITE(bqlm_tun, bqlm_tun_cases);
