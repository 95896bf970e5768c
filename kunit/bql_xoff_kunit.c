// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the BQL XOFF protocol over store buffers
 * (model/bql_xoff/bql_xoff.c), suite bqlm_bql_xoff. The store buffers
 * themselves are bqlm_memory_model's.
 *
 * The explorations check, for each memory model with and without the two
 * smp_mb() of netdev_tx_sent_queue() / netdev_tx_completed_queue(), the
 * verdict and the exact numbers of states and transitions.
 */
#include "bqlm_kunit.h"
#include <bqlm/bql_xoff.h>
#include "explore_expect.h"
#include "expect/xoff_x.h"

/* which smp_mb() a case drops: --no-barrier, --no-mb sent, --no-mb completed */
#define XOFF_NO_MB_SENT		1U
#define XOFF_NO_MB_COMPLETED	2U
#define XOFF_NO_MB_BOTH		(XOFF_NO_MB_SENT | XOFF_NO_MB_COMPLETED)

/**
 * struct xoff_x_case - one exploration of the XOFF protocol
 * @desc: the case's name
 * @mm: the memory model
 * @no_mb: the smp_mb() dropped (XOFF_NO_MB_*)
 *
 * The figures the search must give are the case's row of
 * kunit/expect/xoff_x.h, keyed by @desc (make promote).
 */
struct xoff_x_case {
	const char *desc;
	enum bqlm_mm_kind mm;
	unsigned int no_mb;
};

static const struct xoff_x_case xoff_x_cases[] = {
	{ .desc = "sc", .mm = BQLM_MM_SC },
	/* under sc the re-check alone closes the window */
	{ .desc = "sc-no-barrier", .mm = BQLM_MM_SC, .no_mb = XOFF_NO_MB_BOTH },
	{ .desc = "tso", .mm = BQLM_MM_TSO },
	{ .desc = "tso-no-barrier", .mm = BQLM_MM_TSO,
	  .no_mb = XOFF_NO_MB_BOTH },
	{ .desc = "pso", .mm = BQLM_MM_PSO },
	{ .desc = "pso-no-barrier", .mm = BQLM_MM_PSO,
	  .no_mb = XOFF_NO_MB_BOTH },
	{ .desc = "x86", .mm = BQLM_MM_X86 },
	/* x86: the locked set_bit / test_and_clear_bit order on their own */
	{ .desc = "x86-no-barrier", .mm = BQLM_MM_X86,
	  .no_mb = XOFF_NO_MB_BOTH },
	/* one barrier at a time: the sender's is the one that matters */
	{ .desc = "tso-no-sent-mb", .mm = BQLM_MM_TSO,
	  .no_mb = XOFF_NO_MB_SENT },
	{ .desc = "pso-no-sent-mb", .mm = BQLM_MM_PSO,
	  .no_mb = XOFF_NO_MB_SENT },
	/* test_and_clear_bit() is fully ordered: the store is out before it */
	{ .desc = "tso-no-completed-mb", .mm = BQLM_MM_TSO,
	  .no_mb = XOFF_NO_MB_COMPLETED },
	{ .desc = "pso-no-completed-mb", .mm = BQLM_MM_PSO,
	  .no_mb = XOFF_NO_MB_COMPLETED },
};

KUNIT_ARRAY_PARAM_DESC(xoff_x, xoff_x_cases, desc);

static void xoff_exploration(struct kunit *test)
{
	const struct xoff_x_case *p = test->param_value;
	const struct explore_expect *e;
	struct bqlm_xoff_cfg cfg;
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;

	res = bqlm_kunit_zalloc(test, sizeof(*res));
	bqlm_xoff_cfg_default(&cfg);
	cfg.mm = p->mm;
	/* both dropped: what --no-barrier sets */
	cfg.sent_mb = p->no_mb != XOFF_NO_MB_BOTH && p->no_mb != XOFF_NO_MB_SENT;
	cfg.completed_mb = p->no_mb != XOFF_NO_MB_BOTH &&
			   p->no_mb != XOFF_NO_MB_COMPLETED;
	KUNIT_ASSERT_EQ(test, bqlm_xoff_system(&cfg, &sys), 0);
	e = explore_expect_row(test, &xoff_x_expect, p->desc);
	x = explore_create(test, &sys, NULL);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	kunit_release_action(test, explore_destroy_action, x);
	explore_promote(test, &xoff_x_expect, p->desc, res);
	kunit_info(test, "%s: %llu states, %llu transitions, %s", p->desc,
		   res->states, res->transitions,
		   bqlm_check_name(bqlm_xresult_verdict(res)));
	KUNIT_EXPECT_TRUE(test, res->complete);
	KUNIT_EXPECT_EQ_MSG(test, res->states, e->states,
			    "states" EXPLORE_PROMOTE_HINT);
	KUNIT_EXPECT_EQ_MSG(test, res->transitions, e->transitions,
			    "transitions" EXPLORE_PROMOTE_HINT);
	KUNIT_EXPECT_EQ_MSG(test, res->violated, e->violated,
			    "violated checks" EXPLORE_PROMOTE_HINT);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_xresult_verdict(res), e->verdict,
			    "verdict" EXPLORE_PROMOTE_HINT);
	if (e->verdict != BQLM_CHECK_NONE && e->verdict < BQLM_CHECK_NR)
		KUNIT_EXPECT_EQ_MSG(test, res->w[e->verdict].depth,
				    e->verdict_depth,
				    "the %s witness's depth" EXPLORE_PROMOTE_HINT,
				    bqlm_check_name(e->verdict));
}

/*
 * The forever-stopped queue, step by step (tso, no barriers): the
 * producer's set_bit waits in its buffer while its re-check reads the old
 * adj_limit; the completer's test_and_clear_bit finds the bit clear.
 */
/* Completions until all that was sent is done and the completer idle */
static void xoff_complete_all(struct kunit *test, struct bqlm_xoff *s,
			      const struct bqlm_xoff_cfg *cfg, const char *what)
{
	while (s->done < s->sent || s->cphase != BQLM_XOFF_IDLE)
		KUNIT_ASSERT_EQ_MSG(test,
				    bqlm_xoff_netdev_tx_completed_queue(s, cfg),
				    0, "%s: %d of %d done, phase %d", what,
				    s->done, s->sent, s->cphase);
}

static void xoff_lost_wakeup(struct kunit *test)
{
	struct bqlm_xoff_cfg cfg;
	struct bqlm_xoff *s = bqlm_kunit_zalloc(test, sizeof(*s));

	bqlm_xoff_cfg_default(&cfg);
	cfg.sent_mb = false;
	cfg.completed_mb = false;
	bqlm_xoff_init(s, &cfg);
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, s->pphase, BQLM_XOFF_SET);
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, s->psb.n, 1);	/* state |= STACK_XOFF waits */
	KUNIT_ASSERT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, s->pphase, BQLM_XOFF_IDLE);
	/* the qdisc sees its own stop: nothing more is sent */
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg),
			-EAGAIN);
	xoff_complete_all(test, s, &cfg, "no barriers");
	KUNIT_EXPECT_EQ(test, s->scheduled, 0);
	KUNIT_EXPECT_FALSE(test, bqlm_xoff_stopped(s));
	KUNIT_EXPECT_EQ(test, bqlm_mm_flush(s->mem.v, &s->psb, 0), 0);
	KUNIT_EXPECT_TRUE(test, bqlm_xoff_stopped(s));
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_completed_queue(s, &cfg),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg),
			-EAGAIN);
	/* with the barriers the same schedule ends with the queue awake */
	cfg.sent_mb = true;
	cfg.completed_mb = true;
	bqlm_xoff_init(s, &cfg);
	while (s->pphase != BQLM_XOFF_IDLE || s->sent < 2)
		KUNIT_ASSERT_EQ_MSG(test,
				    bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0,
				    "barriers: %d sent, phase %d", s->sent,
				    s->pphase);
	xoff_complete_all(test, s, &cfg, "barriers");
	KUNIT_EXPECT_EQ(test, s->scheduled, 1);
	KUNIT_EXPECT_FALSE(test, bqlm_xoff_stopped(s));
	KUNIT_EXPECT_EQ(test, s->psb.n, 0);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_cfg_check(&cfg), 0);
	cfg.packets = 0;
	KUNIT_EXPECT_EQ(test, bqlm_xoff_cfg_check(&cfg), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_system(&cfg, NULL), -EINVAL);
}

/* The words of the next step of kind @kind contain @want. */
static void xoff_expect_words(struct kunit *test, const struct bqlm_xsys *sys,
			      const struct bqlm_xoff *s, unsigned int kind,
			      const char *want)
{
	char line[160];

	bqlm_xdescribe_action(sys, s, BQLM_X_ACTION(kind, 0), line, sizeof(line));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, want),
				  "action kind %u: \"%s\" in \"%s\"", kind, want,
				  line);
}

/* The explorer's shortest path, printed as the CLI prints it. */
static void xoff_trace(struct kunit *test)
{
	static const char *const want[] = {
		"set_bit(STACK_XOFF)", "reaches memory: state |= 2",
		"!! stall", "test_and_clear_bit(STACK_XOFF)",
	};
	struct bqlm_xoff_cfg cfg;
	struct bqlm_xresult *res;
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	unsigned int *path, lines;
	struct bqlm_xoff *s;
	char buf[64];
	int n;

	res = bqlm_kunit_zalloc(test, sizeof(*res));
	s = bqlm_kunit_zalloc(test, sizeof(*s));
	path = explore_path_alloc(test);
	bqlm_xoff_cfg_default(&cfg);
	cfg.sent_mb = false;
	cfg.completed_mb = false;
	KUNIT_ASSERT_EQ(test, bqlm_xoff_system(&cfg, &sys), 0);
	x = explore_shortest(test, &sys, NULL, res, BQLM_CHECK_STALL, path, &n);
	kunit_release_action(test, explore_destroy_action, x);
	KUNIT_ASSERT_EQ(test, n, 9);
	KUNIT_EXPECT_EQ(test, explore_trace_words(test, &sys, path, n, want,
						  ARRAY_SIZE(want), &lines),
			(int)BIT_ST);
	KUNIT_EXPECT_EQ(test, lines, 2U + 2 * 9 + 1);
	/* refusals of the system's step */
	bqlm_xoff_init(s, &cfg);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s, 0x900, s, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s, BQLM_X_ACTION(BQLM_XOFF_A_FLUSH, 0),
					 s, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s,
					 BQLM_X_ACTION(BQLM_XOFF_A_FLUSH,
						       2 * BQLM_SB_DEPTH), s, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, s, BQLM_X_ACTION(BQLM_XOFF_A_COMPLETED, 0),
					 s, NULL), -EINVAL);
	bqlm_xdescribe_action(&sys, s, 0x900, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, buf[0], '?');
	cfg.packets = 1;
	bqlm_xoff_init(s, &cfg);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_netdev_tx_sent_queue(s, &cfg),
			-EINVAL);
	/* one smp_mb() dropped: each side's step says whether it has its own */
	cfg.packets = 3;
	cfg.sent_mb = false;
	cfg.completed_mb = true;
	bqlm_xoff_init(s, &cfg);
	/* the first packet is pkt1 (make mutate: pkt4294967295 unseen) */
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_SENT, "xmit pkt1 (100 B)");
	s->pphase = BQLM_XOFF_RECHECK;
	s->cphase = BQLM_XOFF_WAKE;
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_SENT, "(no smp_mb) dql");
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_COMPLETED, "smp_mb(), dql");
	cfg.sent_mb = true;
	cfg.completed_mb = false;
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_SENT, "smp_mb(), dql");
	xoff_expect_words(test, &sys, s, BQLM_XOFF_A_COMPLETED,
			  "(no smp_mb) dql");
}

/*
 * bqlm_xoff_cfg_check() at each boundary of each range, both sides
 * (make mutate: the ranges were only tested inside).
 */
static void xoff_cfg_bounds(struct kunit *test)
{
	struct bqlm_xoff_cfg cfg;

	bqlm_xoff_cfg_default(&cfg);
	KUNIT_EXPECT_EQ(test, bqlm_xoff_cfg_check(&cfg), 0);
	/* the defaults bqlm(1) and the docs give (make mutate: a limit of 101
	 * explores the same graph with 100-byte packets, unseen)
	 */
	KUNIT_EXPECT_EQ(test, cfg.packets, 3U);
	KUNIT_EXPECT_EQ(test, cfg.len, 100U);
	KUNIT_EXPECT_EQ(test, cfg.limit, 100U);
	KUNIT_EXPECT_EQ(test, (int)cfg.mm, (int)BQLM_MM_TSO);
	KUNIT_EXPECT_TRUE(test, cfg.sent_mb && cfg.completed_mb);
	BQLM_EXPECT_EDGE(test, bqlm_xoff_cfg_check, &cfg, packets, 1, 0);
	BQLM_EXPECT_EDGE(test, bqlm_xoff_cfg_check, &cfg,
			 packets, BQLM_XOFF_MAX_PACKETS, BQLM_XOFF_MAX_PACKETS + 1);
	bqlm_xoff_cfg_default(&cfg);
	BQLM_EXPECT_EDGE(test, bqlm_xoff_cfg_check, &cfg, len, 1, 0);
	BQLM_EXPECT_EDGE(test, bqlm_xoff_cfg_check, &cfg, len, 1000, 1001);
	bqlm_xoff_cfg_default(&cfg);
	BQLM_EXPECT_EDGE(test, bqlm_xoff_cfg_check, &cfg, limit, 2000, 2001);
	bqlm_xoff_cfg_default(&cfg);
	BQLM_EXPECT_EDGE(test, bqlm_xoff_cfg_check, &cfg,
			 mm, BQLM_MM_NR - 1, BQLM_MM_NR);
}

static struct kunit_case bqlm_bql_xoff_cases[] = {
	KUNIT_CASE_PARAM(xoff_exploration, xoff_x_gen_params),
	KUNIT_CASE(xoff_lost_wakeup),
	KUNIT_CASE(xoff_trace),
	KUNIT_CASE(xoff_cfg_bounds),
	{}
};

BQLM_KUNIT_SUITE(bqlm_bql_xoff, bqlm_bql_xoff_cases);
