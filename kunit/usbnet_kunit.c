// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the usbnet transmit model (model/usbnet.c) and its
 * exploration.
 *
 * The explorations run at a bound small enough for UML (two packets) and
 * check the verdict, every violated check with the depth of its shortest
 * witness, and the exact number of states and transitions: the explorer is
 * deterministic, so the same figures hold in the kernel, in userspace and
 * in the 32-bit build. The targeted cases replay the counterexamples by
 * calling the actors one step at a time.
 */
#include <kunit/test.h>
#include <bqlm/usbnet.h>
#include <bqlm/prng.h>
#include "explore_expect.h"
#include "schedule_text.h"

#define BIT_OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BIT_BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define BIT_RS	BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP)
#define BIT_SC	BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION)
#define BIT_SA	BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING)
#define BIT_ST	BQLM_CHECK_BIT(BQLM_CHECK_STALL)

#define A(kind, arg)	BQLM_USBNET_ACTION(BQLM_USBNET_A_##kind, (arg))

/* One exploration and what it must find. */
struct usbnet_x_case {
	const char *desc;
	enum bqlm_usbnet_variant variant;
	unsigned int packets;
	enum bqlm_usbnet_fixup fixup;
	unsigned int lens0;
	unsigned int flags;
	unsigned int stops;
	unsigned int suspends;
	bool strict;
	unsigned long long states;
	unsigned long long transitions;
	unsigned int violated;
	enum bqlm_check verdict;
	unsigned int verdict_depth;
};

static const struct usbnet_x_case usbnet_x_cases[] = {
	{ "no-bql", BQLM_USBNET_NO_BQL, 2, BQLM_USBNET_FIXUP_NONE, 1514, 0,
	  1, 1, false, 20324, 70467, 0, BQLM_CHECK_NONE, 0 },
	{ "v1", BQLM_USBNET_V1, 2, BQLM_USBNET_FIXUP_NONE, 1514, 0, 1, 1,
	  false, 48698, 163755, BIT_OC | BIT_BB | BIT_RS | BIT_SC | BIT_SA,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 12 },
	/* the pure race: no ifdown, no suspend, three packets */
	{ "v1-race-only", BQLM_USBNET_V1, 3, BQLM_USBNET_FIXUP_NONE, 1514, 0,
	  0, 0, false, 4432, 13417, BIT_SC,
	  BQLM_CHECK_SERIAL_COMPLETION, 27 },
	{ "merged", BQLM_USBNET_MERGED, 2, BQLM_USBNET_FIXUP_NONE, 1514, 0,
	  1, 1, false, 36890, 121744, BIT_OC | BIT_BB | BIT_RS | BIT_SA,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 11 },
	{ "fix-reset", BQLM_USBNET_FIX_RESET, 2, BQLM_USBNET_FIXUP_NONE, 1514,
	  0, 1, 1, false, 35859, 118486, BIT_OC | BIT_BB | BIT_SA,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 11 },
	{ "fix-reset-strict", BQLM_USBNET_FIX_RESET, 2,
	  BQLM_USBNET_FIXUP_NONE, 1514, 0, 1, 1, true, 10142, 28877, BIT_BB,
	  BQLM_CHECK_BYTE_BALANCE, 6 },
	{ "fixed", BQLM_USBNET_FIXED, 2, BQLM_USBNET_FIXUP_NONE, 1514, 0, 1,
	  1, false, 22428, 71317, 0, BQLM_CHECK_NONE, 0 },
	{ "fixed-pad", BQLM_USBNET_FIXED, 2, BQLM_USBNET_FIXUP_PAD, 60, 0, 1,
	  1, false, 22428, 71317, 0, BQLM_CHECK_NONE, 0 },
	/* asix: FLAG_MULTI_PACKET, the minidriver pads (64 + 4 bytes) */
	{ "fixed-asix", BQLM_USBNET_FIXED, 2, BQLM_USBNET_FIXUP_PAD, 60,
	  BQLM_USBNET_FLAG_MULTI_PACKET, 1, 1, false, 22428, 71317, 0,
	  BQLM_CHECK_NONE, 0 },
	/* aqc111: usbnet_stop() leaves the tx URBs in flight */
	{ "fixed-avoid-unlink", BQLM_USBNET_FIXED, 2, BQLM_USBNET_FIXUP_NONE,
	  1514, BQLM_USBNET_FLAG_AVOID_UNLINK_URBS, 1, 1, false, 40492,
	  125508, BIT_OC | BIT_BB | BIT_RS,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 16 },
	/* cdc_ncm: the flush timer transmits while usbnet_stop() runs */
	{ "fixed-multi", BQLM_USBNET_FIXED, 2, BQLM_USBNET_FIXUP_MULTI, 1514,
	  0, 1, 1, false, 30973, 94791, BIT_OC | BIT_RS,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 29 },
};

KUNIT_ARRAY_PARAM_DESC(usbnet_x, usbnet_x_cases, desc);

static void usbnet_x_cfg(const struct usbnet_x_case *p,
			 struct bqlm_usbnet_cfg *cfg)
{
	bqlm_usbnet_cfg_default(cfg, p->variant);
	cfg->packets = p->packets;
	cfg->fixup = p->fixup;
	cfg->lens[0] = p->lens0;
	cfg->flags = p->flags;
	cfg->stops = p->stops;
	cfg->suspends = p->suspends;
}

static void usbnet_exploration(struct kunit *test)
{
	const struct usbnet_x_case *p = test->param_value;
	struct bqlm_usbnet_cfg *cfg;
	struct bqlm_xresult *res;
	struct bqlm_xbounds bounds = { .strict = p->strict };
	const struct explore_expect e = {
		p->desc, p->states, p->transitions, p->violated, p->verdict,
		p->verdict_depth,
	};
	struct bqlm_xsys sys;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, res);
	usbnet_x_cfg(p, cfg);
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, &sys), 0);
	explore_expect(test, &sys, &bounds, res, &e);
	KUNIT_EXPECT_FALSE(test, res->depth_bounded);
}

/* Per-case state: the configuration and the device. */
struct usbnet_ctx {
	struct bqlm_usbnet_cfg cfg;
	struct bqlm_usbnet *dev;
	struct bqlm_inv_step ev;
	struct bqlm_violation each[BQLM_CHECK_NR];
};

static struct usbnet_ctx *usbnet_setup(struct kunit *test,
				       enum bqlm_usbnet_variant variant)
{
	struct usbnet_ctx *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, u);
	/* room for the largest bound, whatever a case sets cfg.packets to */
	bqlm_usbnet_cfg_default(&u->cfg, variant);
	u->cfg.packets = BQLM_USBNET_MAX_PACKETS;
	u->dev = kunit_kzalloc(test, bqlm_usbnet_size(&u->cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u->dev);
	u->cfg.packets = 2;
	bqlm_usbnet_init(u->dev, &u->cfg);
	return u;
}

/* The checks of the state after a step, with what the step did. */
static unsigned int usbnet_check(struct usbnet_ctx *u, const char *where)
{
	return bqlm_usbnet_check(u->dev, &u->cfg, where, &u->ev, false,
				 u->each);
}

/* Run one step, which must be possible; forget its events. */
#define STEP(test, u, call) do {					\
	memset(&(u)->ev, 0, sizeof((u)->ev));				\
	KUNIT_ASSERT_EQ(test, (call), 0);				\
} while (0)

/* One packet from the stack through usbnet_start_xmit(), all four steps. */
static void usbnet_send(struct kunit *test, struct usbnet_ctx *u)
{
	STEP(test, u, bqlm_usbnet_start_xmit(u->dev, &u->cfg, 1514, &u->ev));
	while (u->dev->xmit != BQLM_USBNET_XMIT_IDLE)
		STEP(test, u, bqlm_usbnet_start_xmit(u->dev, &u->cfg, 0,
						     &u->ev));
}

/*
 * The syzbot crash of 7ff14c52049e, step by step: an skb completes and is
 * dequeued by usbnet_bh() from the bh work; ifdown's usbnet_stop() resets
 * the queue right after netif_stop_queue(); usbnet_bh() then reports the
 * skb's bytes to a DQL that holds nothing: BUG_ON() in dql_completed().
 */
static void usbnet_merged_syzbot_replay(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_MERGED);
	struct bqlm_usbnet *dev = u->dev;
	const unsigned int w = BQLM_USBNET_BH_WORK;

	usbnet_send(test, u);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, 1514U);
	/* limit 0: the first packet stops the queue (STACK_XOFF) */
	KUNIT_EXPECT_TRUE(test, bqlm_netif_xmit_stopped(&dev->txq));
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 0, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_defer_bh(dev, &u->cfg, 0, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->bh[w].pending, 1);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->bh[w].phase, BQLM_USBNET_BH_ENTER);
	KUNIT_EXPECT_EQ(test, dev->bh[w].bytes, 1514);
	/* ifdown: dev_close(), then usbnet_stop() with the early reset */
	STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, 0U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_inflight(dev), 0U);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_stop"), 0U);
	/* usbnet_bh(): spin_lock_bh(), netdev_completed_queue(1, 1514) */
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	KUNIT_EXPECT_EQ(test, u->ev.dql_err, -ERANGE);
	KUNIT_EXPECT_EQ(test, u->ev.dql_val[0], 1514ULL);
	KUNIT_EXPECT_EQ(test, u->ev.dql_val[1], 0ULL);
	KUNIT_EXPECT_EQ(test, u->ev.stale_bytes, 1514U);
	/* an assertion: each[].where below is NULL unless it was reported */
	KUNIT_ASSERT_EQ(test, usbnet_check(u, "usbnet_bh"), BIT_OC | BIT_RS);
	KUNIT_EXPECT_EQ(test, u->each[BQLM_CHECK_DQL_OVER_COMPLETION].err,
			-ERANGE);
	KUNIT_EXPECT_STREQ(test,
			   u->each[BQLM_CHECK_DQL_OVER_COMPLETION].where,
			   "usbnet_bh");
}

/*
 * The explorer's shortest counterexample for merged is the replay above,
 * action for action, and the trace printer replays it to the same BUG.
 */
static const unsigned int usbnet_merged_path[] = {
	A(XMIT, 0), A(XMIT, 0), A(XMIT, 0), A(XMIT, 0),
	A(COMPLETE, 0 * 4 + BQLM_USBNET_ST_OK), A(DEFER_BH, 0),
	A(BH, BQLM_USBNET_BH_WORK), A(BH, BQLM_USBNET_BH_WORK),
	A(STOP, 0), A(STOP, 0), A(BH, BQLM_USBNET_BH_WORK),
};

struct usbnet_lines {
	unsigned int n;
	bool bug;
};

static void usbnet_count_line(void *arg, const char *line)
{
	struct usbnet_lines *l = arg;

	l->n++;
	if (strstr(line, "!! dql-over-completion in usbnet_bh (1514 vs 0"))
		l->bug = true;
}

static void usbnet_merged_shortest_path(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_MERGED);
	unsigned int *path = kunit_kzalloc(test, 64 * sizeof(*path),
					   GFP_KERNEL);
	struct bqlm_xresult *res = kunit_kzalloc(test, sizeof(*res),
						 GFP_KERNEL);
	struct usbnet_lines lines = { 0 };
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	int n, i;

	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_ASSERT_NOT_NULL(test, res);
	u->cfg.packets = 1;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(&u->cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, EXPLORE_FULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	n = bqlm_explorer_path(x, BQLM_CHECK_DQL_OVER_COMPLETION, path, 64);
	KUNIT_EXPECT_EQ(test, bqlm_explorer_path(x, BQLM_CHECK_STALL, path,
						 64), -ENOENT);
	KUNIT_EXPECT_EQ(test, bqlm_explorer_path(x,
						 BQLM_CHECK_DQL_OVER_COMPLETION,
						 path, 3), -ENOSPC);
	bqlm_explorer_destroy(x);
	KUNIT_EXPECT_EQ(test, res->states, 4078ULL);
	KUNIT_ASSERT_EQ(test, n, (int)ARRAY_SIZE(usbnet_merged_path));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, path[i], usbnet_merged_path[i]);

	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, usbnet_merged_path, n,
					  usbnet_count_line, &lines),
			(int)(BIT_OC | BIT_RS));
	/* initial state: 2 lines; each step: 2 lines; the last: 2 more */
	KUNIT_EXPECT_EQ(test, lines.n, 2U + 2U * n + 2U);
	KUNIT_EXPECT_TRUE(test, lines.bug);
}

/*
 * e34f0df3d81a: usbnet_stop() resets only after cancel_work_sync(), which
 * waits for the usbnet_bh() run in progress; the same schedule as above is
 * then harmless.
 */
static void usbnet_fix_reset_waits_for_bh(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIX_RESET);
	struct bqlm_usbnet *dev = u->dev;
	const unsigned int w = BQLM_USBNET_BH_WORK;
	int i;

	usbnet_send(test, u);
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 0, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_defer_bh(dev, &u->cfg, 0, &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	/* dev_close, stop_queue, autopm, unlink, wait, timer_delete_sync */
	for (i = 0; i < 6; i++)
		STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->admin, BQLM_USBNET_STOP_WORK);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, 1514U);
	/* cancel_work_sync() waits for the running bh work */
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_stop(dev, &u->cfg, &u->ev), -EAGAIN);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	KUNIT_EXPECT_EQ(test, u->ev.dql_err, 0);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"), 0U);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	while (dev->admin != BQLM_USBNET_DOWN)
		STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, 0U);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_completed, 0U);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_stop"), 0U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_stop(dev, &u->cfg, &u->ev), -EINVAL);
	/* ifup again: reset, started, bh queued */
	STEP(test, u, bqlm_usbnet_open(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_FALSE(test, bqlm_netif_xmit_stopped(&dev->txq));
	KUNIT_EXPECT_EQ(test, dev->bh[w].pending, 1);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_open(dev, &u->cfg, &u->ev), -EINVAL);
}

/*
 * The resume accounting bug (c4efd7a770c5): a packet transmitted while the
 * device sleeps is deferred; usbnet_resume() submits it without
 * netdev_sent_queue() in fix-reset, so its completion over-completes; with
 * the fix it is accounted and completes cleanly.
 */
static void usbnet_resume_case(struct kunit *test,
			       enum bqlm_usbnet_variant variant)
{
	struct usbnet_ctx *u = usbnet_setup(test, variant);
	struct bqlm_usbnet *dev = u->dev;
	const unsigned int w = BQLM_USBNET_BH_WORK;
	bool fixed = variant == BQLM_USBNET_FIXED;

	/* usbnet_suspend(): asleep + detach, unlink, wait + attach */
	STEP(test, u, bqlm_usbnet_suspend(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(&dev->txq));
	STEP(test, u, bqlm_usbnet_suspend(dev, &u->cfg, &u->ev));
	STEP(test, u, bqlm_usbnet_suspend(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->pm, BQLM_USBNET_SUSPENDED);
	KUNIT_EXPECT_FALSE(test, bqlm_netif_xmit_stopped(&dev->txq));
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_suspend(dev, &u->cfg, &u->ev),
			-EINVAL);
	/* the attach woke the queue: the stack's packet is deferred */
	usbnet_send(test, u);
	KUNIT_EXPECT_EQ(test, dev->skb[0].where, BQLM_USBNET_SKB_DEFERRED);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, 0U);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(&dev->txq));

	STEP(test, u, bqlm_usbnet_resume(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->skb[0].where, BQLM_USBNET_SKB_TXQ);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, fixed ? 1514U : 0U);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_resume"),
			fixed ? 0U : BIT_BB);
	STEP(test, u, bqlm_usbnet_resume(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->pm, BQLM_USBNET_AWAKE);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_resume(dev, &u->cfg, &u->ev),
			-EINVAL);

	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 0, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_defer_bh(dev, &u->cfg, 0, &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	KUNIT_EXPECT_EQ(test, u->ev.dql_err, fixed ? 0 : -ERANGE);
	KUNIT_EXPECT_EQ(test, u->ev.unsent_skbs, fixed ? 0U : 1U);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"),
			fixed ? 0U : BIT_OC | BIT_SA);
}

static void usbnet_resume_unaccounted(struct kunit *test)
{
	usbnet_resume_case(test, BQLM_USBNET_FIX_RESET);
}

static void usbnet_resume_accounted(struct kunit *test)
{
	usbnet_resume_case(test, BQLM_USBNET_FIXED);
}

/* Two skbs completed and dequeued, one by each usbnet_bh() context. */
static void usbnet_two_runs(struct kunit *test, struct usbnet_ctx *u)
{
	struct bqlm_usbnet *dev = u->dev;
	unsigned int s;

	/* the first packet grows the limit to 1514: then two fit */
	usbnet_send(test, u);
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 0, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_defer_bh(dev, &u->cfg, 0, &u->ev));
	while (dev->bh[BQLM_USBNET_BH_WORK].pending ||
	       dev->bh[BQLM_USBNET_BH_WORK].phase)
		STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_WORK,
					     &u->ev));
	KUNIT_EXPECT_EQ(test, dev->txq.dql.limit, 1514U);
	usbnet_send(test, u);
	usbnet_send(test, u);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_inflight(dev), 3028U);
	/* skb1 completes normally, skb2 with -EPROTO: the timer is armed */
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 1, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 2, BQLM_USBNET_ST_EPROTO,
				       &u->ev));
	KUNIT_EXPECT_EQ(test, dev->bh[BQLM_USBNET_BH_TIMER].pending, 1);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(&dev->txq));
	for (s = 1; s <= 2; s++)
		STEP(test, u, bqlm_defer_bh(dev, &u->cfg, s, &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_WORK,
				     &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_TIMER,
				     &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_WORK,
				     &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_TIMER,
				     &u->ev));
	KUNIT_EXPECT_EQ(test, dev->bh[BQLM_USBNET_BH_WORK].bytes, 1514);
	KUNIT_EXPECT_EQ(test, dev->bh[BQLM_USBNET_BH_TIMER].bytes, 1514);
}

/* The v1 review point: the bh work and the timer complete at once. */
static void usbnet_v1_unserialised(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_V1);
	struct bqlm_usbnet *dev = u->dev;

	u->cfg.packets = 3;
	usbnet_two_runs(test, u);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_WORK,
				     &u->ev));
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"), 0U);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_TIMER,
				     &u->ev));
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"), BIT_SC);
	KUNIT_EXPECT_EQ(test, u->each[BQLM_CHECK_SERIAL_COMPLETION].val[0],
			2ULL);
}

/* merged: the timer's run waits for dev->bql_spinlock. */
static void usbnet_merged_serialised(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_MERGED);
	struct bqlm_usbnet *dev = u->dev;
	const unsigned int t = BQLM_USBNET_BH_TIMER;

	u->cfg.packets = 3;
	usbnet_two_runs(test, u);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_WORK,
				     &u->ev));
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_bh(dev, &u->cfg, t, &u->ev),
			-EAGAIN);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_WORK,
				     &u->ev));
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, t, &u->ev));
	KUNIT_EXPECT_EQ(test, u->ev.dql_err, 0);
	STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, t, &u->ev));
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"), 0U);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_completed, 4542U);
	/* the timer is pending no more: its tail woke the queue */
	KUNIT_EXPECT_FALSE(test, bqlm_netif_xmit_stopped(&dev->txq));
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_bh(dev, &u->cfg, t, &u->ev),
			-EINVAL);
}

/* A quiescent state with STACK_XOFF set is a stall; DRV_XOFF alone not. */
static void usbnet_stall_check(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	unsigned int actions[BQLM_X_MAX_ACTIONS];
	struct bqlm_xsys sys;
	unsigned int n;

	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(&u->cfg, &sys), 0);
	u->dev->nr_pkts = u->cfg.packets;
	u->dev->txq.state = 1UL << BQLM_QUEUE_STATE_DRV_XOFF;
	n = bqlm_xenabled(&sys, u->dev, actions);
	KUNIT_EXPECT_EQ(test, bqlm_xcheck_state(&sys, u->dev, actions, n,
						u->each), 0);
	u->dev->txq.state = 1UL << BQLM_QUEUE_STATE_STACK_XOFF;
	n = bqlm_xenabled(&sys, u->dev, actions);
	KUNIT_EXPECT_EQ(test, bqlm_xcheck_state(&sys, u->dev, actions, n,
						u->each), (int)BIT_ST);
	/* not quiescent while the bh work is queued */
	u->dev->bh[BQLM_USBNET_BH_WORK].pending = 1;
	n = bqlm_xenabled(&sys, u->dev, actions);
	KUNIT_EXPECT_EQ(test, bqlm_xcheck_state(&sys, u->dev, actions, n,
						u->each), 0);
}

/* Every actor refuses what it cannot do. */
static void usbnet_refusals(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	struct bqlm_usbnet *dev = u->dev;
	struct bqlm_usbnet_cfg *cfg = &u->cfg;

	KUNIT_EXPECT_EQ(test, bqlm_tx_complete(dev, cfg, 0, BQLM_USBNET_ST_OK,
					       NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_defer_bh(dev, cfg, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_bh(dev, cfg, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_bh(dev, cfg, 2, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_deferred_kevent(dev, cfg, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_open(dev, cfg, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_resume(dev, cfg, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_tx_timeout(dev, cfg, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_cdc_ncm_txpath_bh(dev, cfg, NULL), -EAGAIN);

	/* an URB in flight, netdev_sent_queue() over the limit */
	STEP(test, u, bqlm_usbnet_start_xmit(dev, cfg, 1514, NULL));
	STEP(test, u, bqlm_usbnet_start_xmit(dev, cfg, 0, NULL));
	KUNIT_EXPECT_EQ(test, dev->xmit, BQLM_USBNET_XMIT_XOFF);
	STEP(test, u, bqlm_usbnet_start_xmit(dev, cfg, 0, NULL));
	KUNIT_EXPECT_EQ(test, dev->xmit, BQLM_USBNET_XMIT_RECHECK);
	/* txq.lock is held: defer_bh(), the kevent, suspend, watchdog wait */
	STEP(test, u, bqlm_tx_complete(dev, cfg, 0, BQLM_USBNET_ST_EPIPE,
				       NULL));
	KUNIT_EXPECT_EQ(test, dev->kevent, 1);
	KUNIT_EXPECT_EQ(test, bqlm_defer_bh(dev, cfg, 0, NULL), -EAGAIN);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_deferred_kevent(dev, cfg, NULL),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_resume(dev, cfg, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_suspend(dev, cfg, NULL), -EAGAIN);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_tx_timeout(dev, cfg, NULL), -EAGAIN);
	STEP(test, u, bqlm_usbnet_start_xmit(dev, cfg, 0, NULL));
	/* queue stopped by STACK_XOFF: the qdisc does not send */
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_start_xmit(dev, cfg, 1514, NULL),
			-EAGAIN);
	STEP(test, u, bqlm_usbnet_deferred_kevent(dev, cfg, NULL));
	KUNIT_EXPECT_EQ(test, dev->skb[0].where, BQLM_USBNET_SKB_COMPLETED);
	/* the watchdog fires on the stopped queue, once in the bound */
	STEP(test, u, bqlm_usbnet_tx_timeout(dev, cfg, NULL));
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_tx_timeout(dev, cfg, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tx_complete(dev, cfg, 0,
					       BQLM_USBNET_ST_OK, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_tx_complete(dev, cfg, 0,
					       BQLM_USBNET_NR_STATUS, NULL),
			-EINVAL);
	/* suspend waits for dev->txq to drain */
	STEP(test, u, bqlm_usbnet_suspend(dev, cfg, NULL));
	STEP(test, u, bqlm_usbnet_suspend(dev, cfg, NULL));
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_suspend(dev, cfg, NULL), -EAGAIN);
	/* ifdown: usb_autopm_get_interface() waits for the resume */
	STEP(test, u, bqlm_usbnet_stop(dev, cfg, NULL));
	STEP(test, u, bqlm_usbnet_stop(dev, cfg, NULL));
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_stop(dev, cfg, NULL), -EAGAIN);
}

/*
 * Model finding on the fixed code (not reproduced on hardware): with
 * FLAG_AVOID_UNLINK_URBS (aqc111 in 6.12) usbnet_stop() neither unlinks
 * nor waits for the tx URBs, so one can complete after its final
 * netdev_reset_queue(); defer_bh() queues the bh work again after
 * cancel_work_sync(), and usbnet_bh() over-completes. Without the flag
 * usbnet_stop() waits for the URB before it resets.
 */
static void usbnet_avoid_unlink_late_completion(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	struct bqlm_usbnet *dev = u->dev;
	const unsigned int w = BQLM_USBNET_BH_WORK;
	int i;

	/* without the flag: usbnet_terminate_urbs() waits for skb0 */
	usbnet_send(test, u);
	for (i = 0; i < 4; i++)
		STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->admin, BQLM_USBNET_STOP_WAIT);
	KUNIT_EXPECT_EQ(test, dev->skb[0].where, BQLM_USBNET_SKB_UNLINKED);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_stop(dev, &u->cfg, &u->ev), -EAGAIN);

	/* aqc111: the whole of usbnet_stop() runs with skb0 in flight */
	u->cfg.flags = BQLM_USBNET_FLAG_AVOID_UNLINK_URBS;
	bqlm_usbnet_init(dev, &u->cfg);
	usbnet_send(test, u);
	while (dev->admin != BQLM_USBNET_DOWN)
		STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->skb[0].where, BQLM_USBNET_SKB_TXQ);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, 0U);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_stop"), 0U);
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 0, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_defer_bh(dev, &u->cfg, 0, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->bh[w].pending, 1);
	for (i = 0; i < 3; i++)
		STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	KUNIT_EXPECT_EQ(test, u->ev.dql_err, -ERANGE);
	KUNIT_EXPECT_EQ(test, u->ev.dql_val[0], 1514ULL);
	KUNIT_EXPECT_EQ(test, u->ev.stale_bytes, 1514U);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"), BIT_OC | BIT_RS);
}

/*
 * Model finding on the fixed code (not reproduced on hardware), cdc_ncm:
 * an -EPIPE left the kevent work queued; ifdown's usbnet_stop() stops the
 * queue, the cdc_ncm timer flushes a partial NTB with
 * usbnet_start_xmit(NULL), and the kevent work's netif_wake_queue() lets
 * it through after usbnet_terminate_urbs() has waited. Its completion is
 * reported after the final netdev_reset_queue(). Without the -EPIPE the
 * flush is dropped (netif_queue_stopped()) and ifdown is clean.
 */
static void usbnet_ncm_flush_case(struct kunit *test, bool halt)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	struct bqlm_usbnet *dev = u->dev;
	const unsigned int w = BQLM_USBNET_BH_WORK;
	struct bqlm_xsys sys;
	char buf[160];
	int i;

	u->cfg.fixup = BQLM_USBNET_FIXUP_MULTI;
	/* packet 0: collected, flushed by the timer, completed */
	STEP(test, u, bqlm_usbnet_start_xmit(dev, &u->cfg, 1514, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->agg_cnt, 1);
	KUNIT_EXPECT_EQ(test, dev->xmit, BQLM_USBNET_XMIT_IDLE);
	STEP(test, u, bqlm_cdc_ncm_txpath_bh(dev, &u->cfg, &u->ev));
	while (dev->xmit != BQLM_USBNET_XMIT_IDLE)
		STEP(test, u, bqlm_usbnet_start_xmit(dev, &u->cfg, 0, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->skb[0].len, 1546);
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 0,
				       halt ? BQLM_USBNET_ST_EPIPE :
					      BQLM_USBNET_ST_OK, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->kevent, halt ? 1 : 0);
	STEP(test, u, bqlm_defer_bh(dev, &u->cfg, 0, &u->ev));
	while (dev->bh[w].pending || dev->bh[w].phase)
		STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	/* packet 1 collected; ifdown: dev_close(), netif_stop_queue() */
	STEP(test, u, bqlm_usbnet_start_xmit(dev, &u->cfg, 1514, &u->ev));
	STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(&dev->txq));
	/* the flush does not look at the queue state or the qdisc */
	STEP(test, u, bqlm_cdc_ncm_txpath_bh(dev, &u->cfg, &u->ev));
	if (halt) {
		STEP(test, u, bqlm_usbnet_deferred_kevent(dev, &u->cfg,
							  &u->ev));
		KUNIT_EXPECT_FALSE(test,
				   bqlm_netif_tx_queue_stopped(&dev->txq));
	}
	/* usb_autopm_get_interface(), unlink_urbs(), the wait */
	for (i = 0; i < 3; i++)
		STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->admin, BQLM_USBNET_STOP_TIMER);
	/* the flush's usbnet_start_xmit() takes txq.lock; traces say so */
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(&u->cfg, &sys), 0);
	KUNIT_EXPECT_GT(test, bqlm_xdescribe_action(&sys, dev, A(XMIT, 0),
						    buf, sizeof(buf)), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, halt ?
		"ncm-timer: usbnet_start_xmit [txq.lock]: usb_submit_urb" :
		"ncm-timer: usbnet_start_xmit [txq.lock]: netif_queue_stopped: drop"));
	STEP(test, u, bqlm_usbnet_start_xmit(dev, &u->cfg, 0, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->xmit, BQLM_USBNET_XMIT_IDLE);
	if (!halt) {
		KUNIT_EXPECT_EQ(test, dev->nr_skbs, 1);
		while (dev->admin != BQLM_USBNET_DOWN)
			STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
		KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_stop"), 0U);
		return;
	}
	KUNIT_ASSERT_EQ(test, dev->nr_skbs, 2);
	KUNIT_EXPECT_EQ(test, dev->skb[1].where, BQLM_USBNET_SKB_TXQ);
	KUNIT_EXPECT_EQ(test, dev->txq.dql.num_queued, 3092U);
	/* timer_delete_sync(), cancel_work_sync(), the second round */
	for (i = 0; i < 3; i++)
		STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->admin, BQLM_USBNET_STOP_RESET);
	STEP(test, u, bqlm_tx_complete(dev, &u->cfg, 1, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_defer_bh(dev, &u->cfg, 1, &u->ev));
	STEP(test, u, bqlm_usbnet_stop(dev, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->admin, BQLM_USBNET_DOWN);
	for (i = 0; i < 3; i++)
		STEP(test, u, bqlm_usbnet_bh(dev, &u->cfg, w, &u->ev));
	KUNIT_EXPECT_EQ(test, u->ev.dql_err, -ERANGE);
	KUNIT_EXPECT_EQ(test, u->ev.stale_bytes, 1546U);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"), BIT_OC | BIT_RS);
}

static void usbnet_ncm_flush_woken_during_stop(struct kunit *test)
{
	usbnet_ncm_flush_case(test, true);
}

static void usbnet_ncm_flush_dropped_during_stop(struct kunit *test)
{
	usbnet_ncm_flush_case(test, false);
}

/* Configurations and names. */
static void usbnet_config(struct kunit *test)
{
	struct bqlm_usbnet_cfg cfg;
	unsigned int v;

	for (v = 0; v < BQLM_USBNET_NR_VARIANTS; v++) {
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_variant_by_name(
				bqlm_usbnet_variant_name(v)), (int)v);
		KUNIT_EXPECT_STRNEQ(test, bqlm_usbnet_variant_desc(v),
				    "unknown");
		bqlm_usbnet_cfg_default(&cfg, v);
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), 0);
	}
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_variant_by_name("v3"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, bqlm_usbnet_variant_name(99), "unknown");
	KUNIT_EXPECT_STREQ(test, bqlm_usbnet_variant_desc(99), "unknown");

	bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIXED);
	cfg.packets = BQLM_USBNET_MAX_PACKETS + 1;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIXED);
	cfg.lens[0] = 0;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIXED);
	cfg.statuses |= 1U << BQLM_USBNET_ST_UNLINKED;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIXED);
	cfg.flags = 0x80;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	{
		struct bqlm_xsys sys;

		KUNIT_EXPECT_EQ(test, bqlm_usbnet_system(&cfg, &sys), -EINVAL);
		/* the explorer needs a packet bound and few slots */
		bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIXED);
		cfg.packets = 0;
		cfg.skbs = 4;
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), 0);
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_system(&cfg, &sys), -EINVAL);
		cfg.packets = 3;
		cfg.skbs = BQLM_USBNET_MAX_PACKETS + 1;
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), 0);
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_system(&cfg, &sys), -EINVAL);
	}
	/* slots: no fewer than the packet bound, none without one */
	bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIXED);
	cfg.skbs = cfg.packets - 1;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	cfg.packets = 0;
	cfg.skbs = 0;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	cfg.skbs = BQLM_USBNET_MAX_SKBS + 1;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	cfg.skbs = BQLM_USBNET_MAX_SKBS;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), 0);
	cfg.pad_header = 65;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	cfg.pad_header = 8;
	cfg.lens[0] = BQLM_USBNET_MAX_LEN + 1;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(&cfg), -EINVAL);
	/* the state holds a struct bqlm_usbnet_skb per slot, aligned */
	cfg.lens[0] = 1514;
	cfg.skbs = 10;
	KUNIT_EXPECT_GE(test, bqlm_usbnet_size(&cfg),
			sizeof(struct bqlm_usbnet) +
			10 * sizeof(struct bqlm_usbnet_skb));
	KUNIT_EXPECT_LT(test, bqlm_usbnet_size(&cfg),
			sizeof(struct bqlm_usbnet) +
			11 * sizeof(struct bqlm_usbnet_skb) + 8);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_size(&cfg) %
			__alignof__(struct bqlm_usbnet), 0UL);
}

/* Complete the URB of @skb with status 0 and hand it to dev->done. */
static void usbnet_complete(struct kunit *test, struct usbnet_ctx *u,
			    unsigned int skb)
{
	STEP(test, u, bqlm_tx_complete(u->dev, &u->cfg, skb, BQLM_USBNET_ST_OK,
				       &u->ev));
	STEP(test, u, bqlm_defer_bh(u->dev, &u->cfg, skb, &u->ev));
}

/* A whole usbnet_bh() run of the bh work; its checks must pass. */
static void usbnet_run_bh(struct kunit *test, struct usbnet_ctx *u)
{
	const unsigned int w = BQLM_USBNET_BH_WORK;

	memset(&u->ev, 0, sizeof(u->ev));
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_bh(u->dev, &u->cfg, w, &u->ev), 0);
	while (u->dev->bh[w].phase != BQLM_USBNET_BH_IDLE)
		KUNIT_ASSERT_EQ(test, bqlm_usbnet_bh(u->dev, &u->cfg, w,
						     &u->ev), 0);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_bh"), 0U);
}

/* One packet of @len bytes through every step of usbnet_start_xmit(). */
static void usbnet_send_len(struct kunit *test, struct usbnet_ctx *u,
			    unsigned int len)
{
	STEP(test, u, bqlm_usbnet_start_xmit(u->dev, &u->cfg, len, &u->ev));
	while (u->dev->xmit != BQLM_USBNET_XMIT_IDLE)
		STEP(test, u, bqlm_usbnet_start_xmit(u->dev, &u->cfg, 0,
						     &u->ev));
}

/*
 * Lengths up to 64 KB: skb->len is 16 bits in the state, so the longest
 * packet is the one whose URB, after tx_fixup() and usbnet's one-byte ZLP
 * pad, still fits: 65534 bytes bare, less the header with the pad fixup,
 * two datagrams behind cdc_ncm's NTB16 headers with the multi fixup.
 */
static void usbnet_max_lengths(struct kunit *test)
{
	static const struct {
		enum bqlm_usbnet_fixup fixup;
		unsigned int pad_header;
		unsigned int max;
	} lim[] = {
		{ BQLM_USBNET_FIXUP_NONE, 4, 65534 },
		{ BQLM_USBNET_FIXUP_PAD, 8, 65526 },
		{ BQLM_USBNET_FIXUP_MULTI, 8, 32749 },
	};
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	struct bqlm_usbnet_cfg *cfg = &u->cfg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lim); i++) {
		cfg->fixup = lim[i].fixup;
		cfg->pad_header = lim[i].pad_header;
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_max_len(cfg), lim[i].max);
		cfg->lens[0] = lim[i].max + 1;
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(cfg), -EINVAL);
		cfg->lens[0] = lim[i].max;
		KUNIT_ASSERT_EQ(test, bqlm_usbnet_cfg_check(cfg), 0);
	}

	/* two of them: an NTB of 32 + 32752 + 32749 bytes, no pad byte */
	bqlm_usbnet_init(u->dev, cfg);
	usbnet_send_len(test, u, 32749);
	KUNIT_EXPECT_EQ(test, u->dev->nr_skbs, 0);
	usbnet_send_len(test, u, 32749);
	KUNIT_EXPECT_EQ(test, u->dev->skb[0].len, 65533);
	KUNIT_EXPECT_EQ(test, u->dev->txq.dql.num_queued, 65533U);

	/* bare: 65534 B as is; 1023 * 64 B gets usbnet's pad byte */
	cfg->fixup = BQLM_USBNET_FIXUP_NONE;
	bqlm_usbnet_init(u->dev, cfg);
	usbnet_send_len(test, u, 65534);
	KUNIT_EXPECT_EQ(test, u->dev->skb[0].len, 65534);
	KUNIT_EXPECT_EQ(test, u->dev->txq.dql.num_queued, 65534U);
	usbnet_complete(test, u, 0);
	usbnet_run_bh(test, u);
	KUNIT_EXPECT_EQ(test, u->dev->txq.dql.num_completed, 65534U);
	usbnet_send_len(test, u, 1023 * 64);
	KUNIT_EXPECT_EQ(test, u->dev->skb[1].len, 1023 * 64 + 1);
	KUNIT_EXPECT_EQ(test, usbnet_check(u, "usbnet_start_xmit"), 0U);

	/* FLAG_MULTI_PACKET, asix: its tx_fixup() pads by 4, usbnet not */
	cfg->fixup = BQLM_USBNET_FIXUP_PAD;
	cfg->pad_header = 4;
	cfg->flags = BQLM_USBNET_FLAG_MULTI_PACKET;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_max_len(cfg), 65527U);
	cfg->lens[0] = 60;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_cfg_check(cfg), 0);
	bqlm_usbnet_init(u->dev, cfg);
	usbnet_send_len(test, u, 60);
	KUNIT_EXPECT_EQ(test, u->dev->skb[0].len, 60 + 4 + 4);
	usbnet_complete(test, u, 0);
	usbnet_run_bh(test, u);
	KUNIT_EXPECT_EQ(test, u->dev->txq.dql.num_completed, 68U);
	usbnet_send_len(test, u, 61);
	KUNIT_EXPECT_EQ(test, u->dev->skb[1].len, 61 + 4);
	cfg->flags = 0x4;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_cfg_check(cfg), -EINVAL);
}

/*
 * The range guards of model/usbnet.c at their first invalid value: the
 * length index nr_lens, the skb number nr_skbs. The slot after the last
 * used one is made to look like an URB in flight (then like a completed
 * one): only the guard tells it was never created.
 */
static void usbnet_range_guards(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	struct bqlm_usbnet *dev = u->dev;
	struct bqlm_usbnet_cfg *cfg = &u->cfg;
	size_t size = bqlm_usbnet_size(cfg);
	struct bqlm_usbnet *to;
	struct bqlm_xsys sys;

	cfg->lens[1] = 1000;		/* nr_lens stays 1 */
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(cfg, &sys), 0);
	to = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, to);
	/* the explorer steps a copy of the state */
	memcpy(to, dev, size);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, dev, A(XMIT, cfg->nr_lens), to,
					 u->each), -EINVAL);
	memcpy(to, dev, size);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, dev, A(XMIT, 0), to, u->each),
			0);
	KUNIT_EXPECT_EQ(test, to->nr_pkts, 1);

	usbnet_send(test, u);
	KUNIT_ASSERT_EQ(test, dev->nr_skbs, 1);
	dev->skb[1].len = 1515;
	dev->skb[1].where = BQLM_USBNET_SKB_TXQ;
	KUNIT_EXPECT_EQ(test, bqlm_tx_complete(dev, cfg, dev->nr_skbs,
					       BQLM_USBNET_ST_OK, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dev->skb[1].where, BQLM_USBNET_SKB_TXQ);
	dev->skb[1].where = BQLM_USBNET_SKB_COMPLETED;
	KUNIT_EXPECT_EQ(test, bqlm_defer_bh(dev, cfg, dev->nr_skbs, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dev->nr_done, 0);
	/* the real one completes */
	memset(&dev->skb[1], 0, sizeof(dev->skb[1]));
	usbnet_complete(test, u, 0);
	KUNIT_EXPECT_EQ(test, dev->nr_done, 1);
}

/*
 * Without a packet bound (the simulator's configuration) skbs take the
 * slots in order, then the first freed slot after the last one taken; a
 * transmit that finds every slot in use fails with -ENOSPC and changes
 * nothing, and goes on once a usbnet_bh() run freed a slot.
 */
static void usbnet_slots_recycled(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_NO_BQL);
	struct bqlm_usbnet *dev = u->dev;
	unsigned char *copy;
	size_t size;
	unsigned int i;

	u->cfg.packets = 0;
	u->cfg.skbs = 3;
	u->cfg.tx_qlen = 8;
	size = bqlm_usbnet_size(&u->cfg);
	bqlm_usbnet_init(dev, &u->cfg);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, bqlm_usbnet_next_skb(dev, &u->cfg), i);
		usbnet_send(test, u);
		KUNIT_EXPECT_EQ(test, dev->skb[i].where, BQLM_USBNET_SKB_TXQ);
	}
	KUNIT_EXPECT_EQ(test, dev->nr_txq, 3);
	KUNIT_EXPECT_EQ(test, dev->nr_pkts, 0);	/* not counted unbounded */
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_next_skb(dev, &u->cfg), 3U);
	/* tx_fixup() runs, then there is no slot for the skb */
	STEP(test, u, bqlm_usbnet_start_xmit(dev, &u->cfg, 1514, &u->ev));
	copy = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, dev, size);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_start_xmit(dev, &u->cfg, 0, &u->ev),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, memcmp(copy, dev, size), 0);
	/* skb1 completes; the bh frees it; the transmit takes its slot */
	usbnet_complete(test, u, 1);
	KUNIT_EXPECT_EQ(test, dev->nr_txq, 2);
	KUNIT_EXPECT_EQ(test, dev->nr_done, 1);
	usbnet_run_bh(test, u);
	KUNIT_EXPECT_EQ(test, dev->skb[1].where, BQLM_USBNET_SKB_GONE);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_next_skb(dev, &u->cfg), 1U);
	while (dev->xmit != BQLM_USBNET_XMIT_IDLE)
		STEP(test, u, bqlm_usbnet_start_xmit(dev, &u->cfg, 0, &u->ev));
	KUNIT_EXPECT_EQ(test, dev->skb[1].where, BQLM_USBNET_SKB_TXQ);
	KUNIT_EXPECT_EQ(test, dev->next_slot, 2);
	/* skb0 and skb2 free: the search starts after slot 1, at 2 */
	usbnet_complete(test, u, 2);
	usbnet_complete(test, u, 0);
	KUNIT_EXPECT_EQ(test, dev->done_head, 3);	/* skb2 first */
	KUNIT_EXPECT_EQ(test, dev->done_tail, 1);
	usbnet_run_bh(test, u);
	KUNIT_EXPECT_EQ(test, dev->nr_done, 0);
	KUNIT_EXPECT_EQ(test, dev->done_head, 0);
	KUNIT_EXPECT_EQ(test, dev->done_tail, 0);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_next_skb(dev, &u->cfg), 2U);
	usbnet_send(test, u);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_next_skb(dev, &u->cfg), 0U);
	KUNIT_EXPECT_EQ(test, dev->nr_txq, 2);
}

/*
 * The fixed variant on a stream of packets through four recycled slots,
 * in a seeded random order of transmit steps, completions (oldest URB
 * first, as a host controller does), defer_bh() and bh steps: every step
 * keeps the invariants, and at the end dev->txq.qlen and the DQL's bytes
 * in flight match the skbs.
 */
static void usbnet_unbounded_stream(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	struct bqlm_usbnet *dev = u->dev;
	unsigned int step, sent = 0, freed = 0, i, n, slot;
	unsigned int fifo[4], head = 0, nr = 0;
	struct bqlm_prng prng;
	bool fixed;
	int ret;

	u->cfg.packets = 0;
	u->cfg.skbs = 4;
	u->cfg.tx_qlen = 3;
	bqlm_usbnet_init(dev, &u->cfg);
	bqlm_prng_seed(&prng, 20261130);
	for (step = 0; step < 4000; step++) {
		memset(&u->ev, 0, sizeof(u->ev));
		switch (bqlm_prng_below(&prng, 3)) {
		case 0:
			fixed = dev->xmit == BQLM_USBNET_XMIT_FIXED;
			slot = bqlm_usbnet_next_skb(dev, &u->cfg);
			ret = bqlm_usbnet_start_xmit(dev, &u->cfg, 1514,
						     &u->ev);
			KUNIT_ASSERT_TRUE(test, !ret || ret == -EAGAIN ||
					  ret == -ENOSPC);
			if (ret || !fixed)
				break;
			/* submitted: the host controller's queue, in order */
			KUNIT_ASSERT_LT(test, slot, 4U);
			KUNIT_EXPECT_EQ(test, dev->skb[slot].where,
					BQLM_USBNET_SKB_TXQ);
			KUNIT_ASSERT_LT(test, nr, 4U);
			fifo[(head + nr++) % 4] = slot;
			sent++;
			break;
		case 1:
			if (!nr || (dev->xmit != BQLM_USBNET_XMIT_IDLE &&
				    dev->xmit != BQLM_USBNET_XMIT_FIXED))
				break;	/* defer_bh() waits for txq.lock */
			usbnet_complete(test, u, fifo[head]);
			head = (head + 1) % 4;
			nr--;
			break;
		default:
			n = dev->nr_done;
			ret = bqlm_usbnet_bh(dev, &u->cfg, BQLM_USBNET_BH_WORK,
					     &u->ev);
			KUNIT_ASSERT_TRUE(test, !ret || ret == -EINVAL);
			if (!ret && dev->nr_done < n)
				freed++;
			break;
		}
		KUNIT_ASSERT_EQ(test, usbnet_check(u, "stream"), 0U);
	}
	kunit_info(test, "%u packets sent, %u dequeued by usbnet_bh", sent,
		   freed);
	/* many more packets than slots went through */
	KUNIT_EXPECT_GT(test, sent, 100U);
	KUNIT_EXPECT_GT(test, freed, 100U);
	KUNIT_EXPECT_EQ(test, dev->nr_skbs, 4);
	for (i = 0, n = 0; i < dev->nr_skbs; i++)
		n += dev->skb[i].where == BQLM_USBNET_SKB_TXQ ||
		     dev->skb[i].where == BQLM_USBNET_SKB_COMPLETED;
	KUNIT_EXPECT_EQ(test, dev->nr_txq, n);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_inflight(dev),
			bqlm_dql_inflight(&dev->txq.dql));
}

/* Every action of a two-length, aggregating run can be described. */
static void usbnet_descriptions(struct kunit *test)
{
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_V1);
	struct bqlm_xsys sys;
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	unsigned int a;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(&u->cfg, &sys), 0);
	for (a = 0; a < (BQLM_USBNET_NR_A + 1) << 8; a += 0x100) {
		KUNIT_EXPECT_GT(test, bqlm_xdescribe_action(&sys, u->dev, a,
							    buf, 256), 0);
		KUNIT_EXPECT_GT(test, strlen(buf), 0UL);
	}
	KUNIT_EXPECT_GT(test, bqlm_xdescribe_state(&sys, u->dev, buf, 256),
			0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "urbs none"));
	/* an unknown action is refused by the step */
	KUNIT_EXPECT_LT(test, bqlm_xstep(&sys, u->dev, 0, u->dev, u->each),
			0);
	KUNIT_EXPECT_LT(test, bqlm_xstep(&sys, u->dev, A(XMIT, 5), u->dev,
					 u->each), 0);
}

struct usbnet_grep {
	const char *needle[4];
	bool found[4];
};

static void usbnet_grep_line(void *arg, const char *line)
{
	struct usbnet_grep *g = arg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(g->needle); i++)
		if (g->needle[i] && strstr(line, g->needle[i]))
			g->found[i] = true;
}

/*
 * Traces name what each step does: a transmit deferred while asleep and
 * resubmitted with netdev_sent_queue() (fixed), a transmit dropped because
 * a suspend stopped the queue meanwhile, and the unlocked
 * completion's two steps (v1, the explorer's shortest race).
 */
static void usbnet_trace_words(struct kunit *test)
{
	static const unsigned int resume_path[] = {
		A(SUSPEND, 0), A(SUSPEND, 0), A(SUSPEND, 0), A(XMIT, 0),
		A(XMIT, 0), A(RESUME, 0), A(RESUME, 0),
	};
	/* the suspend's netif_device_detach() stops the queue meanwhile */
	static const unsigned int drop_path[] = {
		A(XMIT, 0), A(SUSPEND, 0), A(XMIT, 0),
	};
	struct usbnet_ctx *u = usbnet_setup(test, BQLM_USBNET_FIXED);
	struct usbnet_grep *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	unsigned int *path = kunit_kzalloc(test, 64 * sizeof(*path),
					   GFP_KERNEL);
	struct bqlm_xresult *res = kunit_kzalloc(test, sizeof(*res),
						 GFP_KERNEL);
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(&u->cfg, &sys), 0);
	g->needle[0] = "anchored on dev->deferred";
	g->needle[1] = "with netdev_sent_queue";
	g->needle[2] = "netif_queue_stopped: drop";
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, resume_path,
					  ARRAY_SIZE(resume_path),
					  usbnet_grep_line, g), 0);
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, drop_path,
					  ARRAY_SIZE(drop_path),
					  usbnet_grep_line, g), 0);
	KUNIT_EXPECT_TRUE(test, g->found[0]);
	KUNIT_EXPECT_TRUE(test, g->found[1]);
	KUNIT_EXPECT_TRUE(test, g->found[2]);

	/* v1, three packets, no ifdown or suspend: the pure race */
	memset(g, 0, sizeof(*g));
	g->needle[0] = "dql_completed begins";
	g->needle[1] = "dql_completed(1514) ends";
	g->needle[2] = "!! serial-completion";
	u->cfg.variant = BQLM_USBNET_V1;
	u->cfg.packets = 3;
	u->cfg.stops = 0;
	u->cfg.suspends = 0;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_system(&u->cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, EXPLORE_FULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	n = bqlm_explorer_path(x, BQLM_CHECK_SERIAL_COMPLETION, path, 64);
	bqlm_explorer_destroy(x);
	KUNIT_ASSERT_EQ(test, n, 27);
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, path, n, usbnet_grep_line, g),
			(int)BIT_SC);
	KUNIT_EXPECT_TRUE(test, g->found[0]);
	KUNIT_EXPECT_TRUE(test, g->found[1]);
	KUNIT_EXPECT_TRUE(test, g->found[2]);
}

/* A schedule file: what write() writes, parse() reads back exactly. */
static void usbnet_schedule_roundtrip(struct kunit *test)
{
	static const unsigned int path[] = {
		BQLM_USBNET_ACTION(BQLM_USBNET_A_XMIT, 1),
		BQLM_USBNET_ACTION(BQLM_USBNET_A_XMIT, 0),
		BQLM_USBNET_ACTION(BQLM_USBNET_A_XMIT, 0),
		BQLM_USBNET_ACTION(BQLM_USBNET_A_COMPLETE, 0 * 4 + 2),
	};
	struct schedule_text *t = kunit_kzalloc(test, sizeof(*t),
						    GFP_KERNEL);
	struct bqlm_usbnet_cfg cfg, back;
	unsigned int got[8];
	enum bqlm_check check;
	char err[96];
	int n;

	KUNIT_ASSERT_NOT_NULL(test, t);
	bqlm_usbnet_cfg_default(&cfg, BQLM_USBNET_FIX_RESET);
	cfg.nr_lens = 2;
	cfg.lens[1] = 60;
	cfg.flags = BQLM_USBNET_FLAG_AVOID_UNLINK_URBS;
	cfg.timeouts = 0;
	KUNIT_ASSERT_EQ(test, bqlm_usbnet_schedule_write(&cfg,
			BQLM_CHECK_STALL, path, ARRAY_SIZE(path),
			schedule_text_line, t), 0);
	KUNIT_ASSERT_FALSE(test, t->overflow);
	KUNIT_EXPECT_NOT_NULL(test, strstr(t->buf, "variant fix-reset\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(t->buf, "lens 1514 60\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(t->buf, "step 0x101\t# stack: qdisc -> usbnet_start_xmit(60 bytes)"));
	n = bqlm_usbnet_schedule_parse(t->buf, &back, &check, got,
				       ARRAY_SIZE(got), err, sizeof(err));
	KUNIT_ASSERT_EQ_MSG(test, n, (int)ARRAY_SIZE(path), "%s", err);
	KUNIT_EXPECT_EQ(test, memcmp(got, path, sizeof(path)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&back, &cfg, sizeof(cfg)), 0);
	KUNIT_EXPECT_EQ(test, check, BQLM_CHECK_STALL);

	/* a ';' inside a comment does not end the line */
	n = bqlm_usbnet_schedule_parse("variant v1 # a; b\nstep 0x100 # c; TX_QLEN",
				       &back, &check, got, ARRAY_SIZE(got),
				       err, sizeof(err));
	KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s", err);

	/* as the command line has it: ';' ends a line, ',' splits words */
	n = bqlm_usbnet_schedule_parse("variant,merged;packets,1;step,0x100;steps,1",
				       &back, &check, got, ARRAY_SIZE(got),
				       err, sizeof(err));
	KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s", err);
	KUNIT_EXPECT_EQ(test, back.variant, BQLM_USBNET_MERGED);
	KUNIT_EXPECT_EQ(test, back.packets, 1U);
	KUNIT_EXPECT_EQ(test, check, BQLM_CHECK_NONE);

	/* a step the model cannot take where the trace takes it */
	t->len = 0;
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_schedule_write(&cfg,
			BQLM_CHECK_NONE, &path[3], 1, schedule_text_line, t),
			-EINVAL);
}

static const struct {
	const char *text;
	const char *err;
} usbnet_sched_bad[] = {
	{ "variant v9", "line 1: unknown variant 'v9'" },
	{ "# c\npackets 9", "line 2: not a number in range: '9'" },
	{ "packets 3 4", "line 1: expected one value after 'packets'" },
	{ "packetz 3", "line 1: unknown key 'packetz'" },
	{ "step 0x1g0", "line 1: not a number in range: '0x1g0'" },
	{ "step 0x10000", "line 1: not a number in range: '0x10000'" },
	{ "lens 1514 60 40", "line 1: expected one or two lengths after 'lens'" },
	{ "lens 0", "the configuration is out of range" },
	{ "check stal", "line 1: unknown check 'stal'" },
	{ "fixup zero", "line 1: unknown fixup 'zero'" },
	{ "variant v1\nsteps 2\nstep 0x100", "declares 2 steps and has 1" },
	{ "steps 1\nstep 0x100", "no 'variant' line" },
	{ "step 1;step 2;step 3;step 4;step 5", "line 5: too many steps" },
	{ "a b c d e", "line 1: too many words" },
	{ "tx-qlen 0", "the configuration is out of range" },
	{ "packets 99999999999", "line 1: not a number in range" },
};

static void usbnet_schedule_errors(struct kunit *test)
{
	struct bqlm_usbnet_cfg cfg;
	enum bqlm_check check;
	unsigned int got[4];
	char err[96];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(usbnet_sched_bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, bqlm_usbnet_schedule_parse(
				    usbnet_sched_bad[i].text, &cfg, &check,
				    got, ARRAY_SIZE(got), err, sizeof(err)),
				    -EINVAL, "%s", usbnet_sched_bad[i].text);
		KUNIT_EXPECT_TRUE_MSG(test, strstr(err, usbnet_sched_bad[i].err),
				      "%s: got '%s'", usbnet_sched_bad[i].text,
				      err);
	}
	/* empty and comment-only text is a valid, empty schedule */
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_schedule_parse("# nothing\n\n",
			&cfg, &check, got, ARRAY_SIZE(got), err, sizeof(err)),
			0);
}

static struct kunit_case bqlm_usbnet_cases[] = {
	KUNIT_CASE_PARAM(usbnet_exploration, usbnet_x_gen_params),
	KUNIT_CASE(usbnet_merged_syzbot_replay),
	KUNIT_CASE(usbnet_merged_shortest_path),
	KUNIT_CASE(usbnet_fix_reset_waits_for_bh),
	KUNIT_CASE(usbnet_resume_unaccounted),
	KUNIT_CASE(usbnet_resume_accounted),
	KUNIT_CASE(usbnet_v1_unserialised),
	KUNIT_CASE(usbnet_merged_serialised),
	KUNIT_CASE(usbnet_avoid_unlink_late_completion),
	KUNIT_CASE(usbnet_ncm_flush_woken_during_stop),
	KUNIT_CASE(usbnet_ncm_flush_dropped_during_stop),
	KUNIT_CASE(usbnet_stall_check),
	KUNIT_CASE(usbnet_refusals),
	KUNIT_CASE(usbnet_config),
	KUNIT_CASE(usbnet_slots_recycled),
	KUNIT_CASE(usbnet_range_guards),
	KUNIT_CASE(usbnet_max_lengths),
	KUNIT_CASE(usbnet_unbounded_stream),
	KUNIT_CASE(usbnet_descriptions),
	KUNIT_CASE(usbnet_trace_words),
	KUNIT_CASE(usbnet_schedule_roundtrip),
	KUNIT_CASE(usbnet_schedule_errors),
	{}
};

static struct kunit_suite bqlm_usbnet_suite = {
	.name = "bqlm_usbnet",
	.test_cases = bqlm_usbnet_cases,
};

kunit_test_suite(bqlm_usbnet_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the bqlmodel usbnet transmit model");
