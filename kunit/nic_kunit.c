// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the NAPI / virtual NIC transmit model (model/nic.c),
 * suite bqlm_nic.
 *
 * The explorations run every profile (each upstream fix as a bug and a
 * fix side) and the options one at a time on top of the generic driver,
 * and check the verdict, the depth of its shortest witness, the mask of
 * violated checks and the exact numbers of states and transitions: the
 * explorer is deterministic, so the figures are the same in the kernel,
 * in userspace and in the 32-bit build. The targeted cases replay the
 * counterexamples one actor step at a time.
 */
#include <kunit/test.h>
#include <bqlm/nic.h>
#include "explore_expect.h"

#define BIT_OC	BQLM_CHECK_BIT(BQLM_CHECK_DQL_OVER_COMPLETION)
#define BIT_BB	BQLM_CHECK_BIT(BQLM_CHECK_BYTE_BALANCE)
#define BIT_RS	BQLM_CHECK_BIT(BQLM_CHECK_RESET_ON_STOP)
#define BIT_SC	BQLM_CHECK_BIT(BQLM_CHECK_SERIAL_COMPLETION)
#define BIT_SA	BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING)
#define BIT_ST	BQLM_CHECK_BIT(BQLM_CHECK_STALL)

#define A(kind, arg)	BQLM_NIC_ACTION(BQLM_NIC_A_##kind, (arg))

/* Option changes on top of a profile, one per exploration case. */
enum nic_tweak {
	NONE,
	SENT_AFTER,		/* --sent after-doorbell --batch 1 */
	SENT_AFTER_BATCH,	/* --sent after-doorbell */
	KICK_XMIT_MORE,		/* --doorbell xmit-more --batch 3 */
	KICK_SENT_LATE_STOP,	/* --sent-call xmit-more --doorbell sent-queue
				 * --batch 3
				 */
	KICK_SENT_EARLY_STOP,	/* ... --ring-stop before-sent */
	TWO_COMPLETERS,		/* --completers napi+xmit, ring 3, budget 1 */
	TWO_COMPLETERS_LOCKED,	/* ... --napi-txlock on */
	UNLOCK_POLL,		/* --napi-txlock off, ring 3, budget 1 */
	SMALL_BUDGET,		/* ring 3, budget 1, 5 packets */
	XDP_UNTAGGED,		/* --xdp-frames 1 --xdp-bql completed-only */
	XDP_TAGGED,		/* --xdp-frames 1 */
	CLOSE_NO_RESET,		/* --close stop,napi-off,dma-off,drain */
	CLOSE_EARLY_RESET,	/* --close stop,reset,napi-off,dma-off,drain */
	RECONFIG_NO_STOP,	/* --reconfig without the stop */
	TWO_QUEUES,		/* --queues 2 --packets 4 --reconfigs 1 */
	RX_CLEANUP,		/* --rx-cleanup on */
	RX_CLEANUP_LOCKED,	/* --rx-cleanup on --napi-txlock on */
	TIMEOUT_SUSPEND,	/* --stops 0 --timeouts 1 --suspends 1 */
	SUSPEND_NO_RESET,	/* ... --suspend stop,napi-off,dma-off,drain */
	TIMEOUT_NO_RESET,	/* ... --timeout without the reset */
	BATCH_FILLS_RING,	/* --queues 1 --packets 3 --batch 3 */
	BATCH_FILLS_RING_STOP,	/* ... --ring-stop after-sent */
	BATCH_FILLS_RING_XMIT_MORE, /* ... --sent-call xmit-more (wrong) */
	BATCH_AFTER_RESET,	/* --queues 1 --packets 4 --batch 3 --budget 1 */
	BATCH_AFTER_RESET_STOP,	/* ... --ring-stop after-sent */
};

struct nic_x_case {
	const char *desc;
	const char *profile;
	enum nic_tweak tweak;
	unsigned long long states;
	unsigned long long transitions;
	unsigned int violated;
	enum bqlm_check verdict;
	unsigned int verdict_depth;
};

static const struct nic_x_case nic_x_cases[] = {
	{ "generic", "generic", NONE, 236, 319, 0, BQLM_CHECK_NONE, 0 },
	/* 3ddccbefebdb: the reset in ndo_open meets the old epoch */
	{ "virtio-net-open-reset", "virtio-net-open-reset", NONE, 232, 383,
	  BIT_OC | BIT_BB | BIT_RS, BQLM_CHECK_DQL_OVER_COMPLETION, 12 },
	{ "virtio-net-3ddccbefebdb", "virtio-net-3ddccbefebdb", NONE, 163,
	  281, 0, BQLM_CHECK_NONE, 0 },
	/* 1480f0f61b67 and 76a771ec4c9a: buffers freed, no reset */
	{ "virtio-net-resize", "virtio-net-resize", NONE, 180, 277,
	  BIT_SA | BIT_ST, BQLM_CHECK_STALL, 13 },
	{ "virtio-net-1480f0f61b67", "virtio-net-1480f0f61b67", NONE, 226,
	  340, 0, BQLM_CHECK_NONE, 0 },
	{ "virtio-net-xsk-bind", "virtio-net-xsk-bind", NONE, 180, 277,
	  BIT_SA | BIT_ST, BQLM_CHECK_STALL, 13 },
	{ "virtio-net-76a771ec4c9a", "virtio-net-76a771ec4c9a", NONE, 226,
	  340, 0, BQLM_CHECK_NONE, 0 },
	/* 4db6c75124d8: netdev_reset_queue() resets queue 0 only */
	{ "mtk-eth-reset0", "mtk-eth-reset0", NONE, 331, 634,
	  BIT_SA | BIT_ST, BQLM_CHECK_STALL, 18 },
	{ "mtk-eth-4db6c75124d8", "mtk-eth-4db6c75124d8", NONE, 335, 636, 0,
	  BQLM_CHECK_NONE, 0 },
	/* d1978d03e867: a packet's descriptors complete in two polls */
	{ "axienet-bd-sum", "axienet-bd-sum", NONE, 158, 215, BIT_BB | BIT_ST,
	  BQLM_CHECK_STALL, 9 },
	{ "axienet-d1978d03e867", "axienet-d1978d03e867", NONE, 74, 110, 0,
	  BQLM_CHECK_NONE, 0 },
	/* the options, one at a time on top of the generic driver */
	{ "sent-after-doorbell", "generic", SENT_AFTER, 657, 1174,
	  BIT_OC | BIT_BB | BIT_SA, BQLM_CHECK_DQL_OVER_COMPLETION, 4 },
	/* the plain call's STACK_XOFF ends a batch the doorbell skipped */
	{ "sent-after-doorbell-batch", "generic", SENT_AFTER_BATCH, 25, 29,
	  BIT_ST, BQLM_CHECK_STALL, 4 },
	{ "doorbell-xmit-more-only", "generic", KICK_XMIT_MORE, 22, 25,
	  BIT_ST, BQLM_CHECK_STALL, 3 },
	{ "doorbell-sent-queue-stop-after", "generic", KICK_SENT_LATE_STOP,
	  53, 64, BIT_ST, BQLM_CHECK_STALL, 2 },
	{ "doorbell-sent-queue-stop-before", "generic", KICK_SENT_EARLY_STOP,
	  374, 592, 0, BQLM_CHECK_NONE, 0 },
	{ "two-completers-unlocked", "generic", TWO_COMPLETERS, 1012, 1703,
	  BIT_SC, BQLM_CHECK_SERIAL_COMPLETION, 23 },
	{ "two-completers-tx-lock", "generic", TWO_COMPLETERS_LOCKED, 812,
	  1239, 0, BQLM_CHECK_NONE, 0 },
	{ "xdp-untagged", "generic", XDP_UNTAGGED, 1769, 3081,
	  BIT_OC | BIT_BB | BIT_SA, BQLM_CHECK_DQL_OVER_COMPLETION, 4 },
	{ "xdp-tagged", "generic", XDP_TAGGED, 1529, 2570, 0,
	  BQLM_CHECK_NONE, 0 },
	{ "close-no-reset", "generic", CLOSE_NO_RESET, 198, 282,
	  BIT_SA | BIT_ST, BQLM_CHECK_STALL, 13 },
	{ "close-early-reset", "generic", CLOSE_EARLY_RESET, 256, 361,
	  BIT_OC | BIT_BB | BIT_RS, BQLM_CHECK_DQL_OVER_COMPLETION, 9 },
	{ "two-queues", "generic", TWO_QUEUES, 7236, 17021, 0,
	  BQLM_CHECK_NONE, 0 },
	/* virtnet_poll_cleantx(): a trylock only serialises with a lock */
	{ "rx-cleanup-poll-unlocked", "generic", RX_CLEANUP, 265, 402, BIT_SC,
	  BQLM_CHECK_SERIAL_COMPLETION, 13 },
	{ "rx-cleanup-poll-locked", "generic", RX_CLEANUP_LOCKED, 265, 376, 0,
	  BQLM_CHECK_NONE, 0 },
	/* the watchdog's recovery and suspend/resume, right and without reset */
	{ "timeout-and-suspend", "generic", TIMEOUT_SUSPEND, 923, 1365, 0,
	  BQLM_CHECK_NONE, 0 },
	{ "suspend-no-reset", "generic", SUSPEND_NO_RESET, 198, 282,
	  BIT_SA | BIT_ST, BQLM_CHECK_STALL, 13 },
	{ "timeout-no-reset", "generic", TIMEOUT_NO_RESET, 167, 235,
	  BIT_SA | BIT_ST, BQLM_CHECK_STALL, 12 },
	/*
	 * mtk_eth_soc decides the doorbell before its ring-full stop. With
	 * its plain netdev_tx_sent_queue() a batch at limit 0 stops on
	 * STACK_XOFF and rings: clean. The same with the wrong call,
	 * __netdev_tx_sent_queue(), stalls at depth 2: the --sent-call check
	 * can fail. A batch that fills the ring within dql_avail() still
	 * stalls: after a reset, which leaves adj_limit (depth 20).
	 */
	{ "mtk-eth-batch-fills-ring", "mtk-eth-4db6c75124d8", BATCH_FILLS_RING,
	  236, 319, 0, BQLM_CHECK_NONE, 0 },
	{ "mtk-eth-batch-fills-ring-xmit-more", "mtk-eth-4db6c75124d8",
	  BATCH_FILLS_RING_XMIT_MORE, 53, 64, BIT_ST, BQLM_CHECK_STALL, 2 },
	{ "mtk-eth-batch-stop-first", "mtk-eth-4db6c75124d8",
	  BATCH_FILLS_RING_STOP, 236, 319, 0, BQLM_CHECK_NONE, 0 },
	{ "mtk-eth-batch-after-reset", "mtk-eth-4db6c75124d8",
	  BATCH_AFTER_RESET, 447, 730, BIT_ST, BQLM_CHECK_STALL, 20 },
	{ "mtk-eth-batch-after-reset-stop-first", "mtk-eth-4db6c75124d8",
	  BATCH_AFTER_RESET_STOP, 500, 820, 0, BQLM_CHECK_NONE, 0 },
	/* fix profiles with one option flipped: the checks can fail */
	{ "virtio-net-3ddccbefebdb-poll-unlocked", "virtio-net-3ddccbefebdb",
	  UNLOCK_POLL, 670, 1419, BIT_SC, BQLM_CHECK_SERIAL_COMPLETION, 8 },
	{ "virtio-net-3ddccbefebdb-poll-locked", "virtio-net-3ddccbefebdb",
	  SMALL_BUDGET, 503, 972, 0, BQLM_CHECK_NONE, 0 },
	{ "virtio-net-1480f0f61b67-no-stop", "virtio-net-1480f0f61b67",
	  RECONFIG_NO_STOP, 464, 765, BIT_OC | BIT_BB | BIT_RS,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 12 },
	{ "mtk-eth-4db6c75124d8-sent-after", "mtk-eth-4db6c75124d8",
	  SENT_AFTER, 787, 1847, BIT_OC | BIT_BB | BIT_SA,
	  BQLM_CHECK_DQL_OVER_COMPLETION, 4 },
};

KUNIT_ARRAY_PARAM_DESC(nic_x, nic_x_cases, desc);

static void nic_set(struct kunit *test, struct bqlm_nic_cfg *cfg,
		    enum bqlm_nic_path path, const char *ops)
{
	KUNIT_ASSERT_EQ(test, bqlm_nic_parse_ops(ops, cfg->ops[path],
						 &cfg->nr_ops[path]), 0);
}

static void nic_x_cfg(struct kunit *test, const struct nic_x_case *p,
		      struct bqlm_nic_cfg *cfg)
{
	int id = bqlm_nic_profile_by_name(p->profile);

	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_EQ(test, bqlm_nic_cfg_profile(cfg, id), 0);
	switch (p->tweak) {
	case SENT_AFTER:
	case SENT_AFTER_BATCH:
		cfg->sent = BQLM_NIC_SENT_AFTER_DOORBELL;
		if (p->tweak == SENT_AFTER)
			cfg->batch = 1;
		break;
	case KICK_XMIT_MORE:
		cfg->doorbell = BQLM_NIC_KICK_XMIT_MORE;
		cfg->batch = 3;
		break;
	case KICK_SENT_LATE_STOP:
	case KICK_SENT_EARLY_STOP:
		cfg->sent_call = BQLM_NIC_CALL_XMIT_MORE;
		cfg->doorbell = BQLM_NIC_KICK_SENT_QUEUE;
		cfg->batch = 3;
		if (p->tweak == KICK_SENT_EARLY_STOP)
			cfg->stopcheck = BQLM_NIC_STOP_BEFORE_SENT;
		break;
	case TWO_COMPLETERS:
	case TWO_COMPLETERS_LOCKED:
	case UNLOCK_POLL:
	case SMALL_BUDGET:
		if (p->tweak == TWO_COMPLETERS ||
		    p->tweak == TWO_COMPLETERS_LOCKED)
			cfg->completers = BQLM_NIC_COMPLETE_NAPI_XMIT;
		if (p->tweak == TWO_COMPLETERS_LOCKED)
			cfg->napi_txlock = true;
		if (p->tweak == UNLOCK_POLL)
			cfg->napi_txlock = false;
		cfg->budget = 1;
		cfg->packets = 5;
		cfg->ring = 3;
		break;
	case XDP_UNTAGGED:
	case XDP_TAGGED:
		cfg->xdp_frames = 1;
		cfg->xdp = p->tweak == XDP_UNTAGGED ?
			   BQLM_NIC_XDP_COMPLETED_ONLY : BQLM_NIC_XDP_UNCOUNTED;
		break;
	case CLOSE_NO_RESET:
		nic_set(test, cfg, BQLM_NIC_PATH_CLOSE,
			"stop,napi-off,dma-off,drain");
		break;
	case CLOSE_EARLY_RESET:
		nic_set(test, cfg, BQLM_NIC_PATH_CLOSE,
			"stop,reset,napi-off,dma-off,drain");
		break;
	case RECONFIG_NO_STOP:
		nic_set(test, cfg, BQLM_NIC_PATH_RECONFIG,
			"napi-off,dma-off,drain,reset,dma-on,wake,napi-on");
		break;
	case TWO_QUEUES:
		cfg->queues = 2;
		cfg->packets = 4;
		cfg->reconfigs = 1;
		break;
	case RX_CLEANUP:
	case RX_CLEANUP_LOCKED:
		cfg->rx_cleanup = true;
		cfg->napi_txlock = p->tweak == RX_CLEANUP_LOCKED;
		break;
	case TIMEOUT_SUSPEND:
		cfg->stops = 0;
		cfg->timeouts = 1;
		cfg->suspends = 1;
		break;
	case SUSPEND_NO_RESET:
		cfg->stops = 0;
		cfg->suspends = 1;
		nic_set(test, cfg, BQLM_NIC_PATH_SUSPEND,
			"stop,napi-off,dma-off,drain");
		break;
	case BATCH_FILLS_RING:
	case BATCH_FILLS_RING_STOP:
	case BATCH_FILLS_RING_XMIT_MORE:
	case BATCH_AFTER_RESET:
	case BATCH_AFTER_RESET_STOP:
		cfg->queues = 1;
		cfg->packets = 3;
		cfg->batch = 3;
		if (p->tweak == BATCH_FILLS_RING_STOP ||
		    p->tweak == BATCH_AFTER_RESET_STOP)
			cfg->stopcheck = BQLM_NIC_STOP_AFTER_SENT;
		if (p->tweak == BATCH_FILLS_RING_XMIT_MORE)
			cfg->sent_call = BQLM_NIC_CALL_XMIT_MORE;
		if (p->tweak == BATCH_AFTER_RESET ||
		    p->tweak == BATCH_AFTER_RESET_STOP) {
			cfg->packets = 4;
			cfg->budget = 1;
		}
		break;
	case TIMEOUT_NO_RESET:
		cfg->stops = 0;
		cfg->timeouts = 1;
		nic_set(test, cfg, BQLM_NIC_PATH_TIMEOUT,
			"stop,napi-off,dma-off,drain,dma-on,napi-on,wake");
		break;
	case NONE:
		break;
	}
}

static void nic_exploration(struct kunit *test)
{
	const struct nic_x_case *p = test->param_value;
	const struct explore_expect e = {
		p->desc, p->states, p->transitions, p->violated, p->verdict,
		p->verdict_depth,
	};
	struct bqlm_nic_cfg *cfg;
	struct bqlm_xresult *res;
	struct bqlm_xsys sys;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	res = kunit_kzalloc(test, sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, res);
	nic_x_cfg(test, p, cfg);
	KUNIT_ASSERT_EQ(test, bqlm_nic_system(cfg, &sys), 0);
	explore_expect(test, &sys, NULL, res, &e);
	KUNIT_EXPECT_FALSE(test, res->depth_bounded);
}

/* Per-case state: the configuration and the device. */
struct nic_ctx {
	struct bqlm_nic_cfg cfg;
	struct bqlm_nic nic;
	struct bqlm_inv_step ev;
};

static struct nic_ctx *nic_setup(struct kunit *test, const char *profile)
{
	struct nic_ctx *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	int id = bqlm_nic_profile_by_name(profile);

	KUNIT_ASSERT_NOT_NULL(test, u);
	KUNIT_ASSERT_GE(test, id, 0);
	KUNIT_ASSERT_EQ(test, bqlm_nic_cfg_profile(&u->cfg, id), 0);
	KUNIT_ASSERT_EQ(test, bqlm_nic_init(&u->nic, &u->cfg), 0);
	return u;
}

/* Run one step, which must be possible; forget the last step's events. */
#define STEP(test, u, call) do {					\
	memset(&(u)->ev, 0, sizeof((u)->ev));				\
	KUNIT_ASSERT_EQ(test, (call), 0);				\
} while (0)

/* One packet through ndo_start_xmit(), every step. */
static void nic_send(struct kunit *test, struct nic_ctx *u)
{
	STEP(test, u, bqlm_ndo_start_xmit(&u->nic, &u->cfg, &u->ev));
	while (u->nic.xmit != BQLM_NIC_XMIT_IDLE)
		STEP(test, u, bqlm_ndo_start_xmit(&u->nic, &u->cfg, &u->ev));
}

/* Run the path in progress to its end. */
static void nic_finish_path(struct kunit *test, struct nic_ctx *u)
{
	while (u->nic.path)
		STEP(test, u, bqlm_nic_reset_path(&u->nic, &u->cfg,
						  BQLM_NIC_NR_PATHS, &u->ev));
}

/*
 * 3ddccbefebdb, the crash it fixed, step by step: a packet is on the vq
 * and the host completes it while the device is closed (ndo_stop only
 * disabled NAPI); ndo_open resets BQL, enables NAPI, and the first poll
 * reports the old packet's bytes to a DQL that holds nothing: BUG_ON() in
 * dql_completed(). Without the reset (the fix) the same schedule is clean.
 */
static void nic_virtio_open_reset_replay(struct kunit *test)
{
	static const char *const profiles[] = {
		"virtio-net-open-reset", "virtio-net-3ddccbefebdb",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		struct nic_ctx *u = nic_setup(test, profiles[i]);
		struct bqlm_nic *nic = &u->nic;
		bool bug = i == 0;

		u->cfg.packets = 1;
		nic_send(test, u);
		KUNIT_EXPECT_EQ(test, nic->q[0].txq.dql.num_queued, 1000U);
		KUNIT_EXPECT_EQ(test, bqlm_nic_inflight(nic, 0), 1000U);
		STEP(test, u, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_CLOSE, &u->ev));
		KUNIT_EXPECT_FALSE(test, nic->up);
		nic_finish_path(test, u);
		KUNIT_EXPECT_FALSE(test, nic->napi_on);
		/* the host completes it; NAPI is off: nothing polls */
		STEP(test, u, bqlm_nic_dma_complete(nic, &u->cfg, 0));
		KUNIT_EXPECT_EQ(test, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev),
				-EINVAL);
		STEP(test, u, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_OPEN, &u->ev));
		nic_finish_path(test, u);
		KUNIT_EXPECT_TRUE(test, nic->up);
		KUNIT_EXPECT_EQ(test, nic->q[0].txq.dql.num_queued,
				bug ? 0U : 1000U);
		KUNIT_EXPECT_EQ(test, !!(nic->q[0].pkt[0].flags &
					 BQLM_NIC_PKT_STALE), bug);
		STEP(test, u, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev));
		KUNIT_EXPECT_EQ(test, u->ev.stale_bytes, bug ? 1000U : 0U);
		KUNIT_EXPECT_EQ(test, nic->q[0].napi, BQLM_NIC_NAPI_DQL);
		STEP(test, u, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev));
		KUNIT_EXPECT_EQ(test, u->ev.dql_err, bug ? -ERANGE : 0);
		KUNIT_EXPECT_EQ(test, u->ev.dql_val[0], bug ? 1000ULL : 0ULL);
		KUNIT_EXPECT_EQ(test, nic->q[0].txq.dql.num_completed,
				bug ? 0U : 1000U);
	}
}

/*
 * d1978d03e867: the device completes the first descriptor of a packet, a
 * poll cleans it and frees no packet, so axienet reported nothing and its
 * bytes were gone; the second poll reports only the last descriptor's.
 * With skb->len at the last descriptor the poll reports the whole packet.
 */
static void nic_axienet_split_poll(struct kunit *test)
{
	static const char *const profiles[] = {
		"axienet-bd-sum", "axienet-d1978d03e867",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		struct nic_ctx *u = nic_setup(test, profiles[i]);
		struct bqlm_nic *nic = &u->nic;
		bool bug = i == 0;

		nic_send(test, u);
		STEP(test, u, bqlm_nic_dma_complete(nic, &u->cfg, 0));
		KUNIT_EXPECT_EQ(test, nic->q[0].sched, 1);
		STEP(test, u, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev));
		/* nothing to report: straight to napi_complete_done() */
		KUNIT_EXPECT_EQ(test, nic->q[0].napi, BQLM_NIC_NAPI_IDLE);
		KUNIT_EXPECT_EQ(test, nic->q[0].sched, 0);
		KUNIT_EXPECT_EQ(test, nic->q[0].pkt[0].cleaned, bug ? 1 : 0);
		STEP(test, u, bqlm_nic_dma_complete(nic, &u->cfg, 0));
		STEP(test, u, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev));
		KUNIT_EXPECT_EQ(test, nic->q[0].napi_bytes,
				bug ? 500U : 1000U);
		STEP(test, u, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev));
		STEP(test, u, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev));
		KUNIT_EXPECT_EQ(test, nic->q[0].npkts, 0);
		KUNIT_EXPECT_EQ(test, bqlm_nic_inflight(nic, 0), 0U);
		KUNIT_EXPECT_EQ(test,
				bqlm_dql_inflight(&nic->q[0].txq.dql),
				bug ? 500U : 0U);
		/* the 500 bytes stay: STACK_XOFF is never cleared */
		KUNIT_EXPECT_EQ(test, bqlm_netif_xmit_stopped(&nic->q[0].txq),
				bug);
	}
}

/*
 * 4db6c75124d8: two queues each with a packet in flight; ndo_stop frees
 * the rings and calls netdev_reset_queue(dev), which resets queue 0 only:
 * queue 1 keeps its packet's bytes, reported lost when ndo_open wakes the
 * queues. The fix resets every queue.
 */
static void nic_mtk_reset_queue0(struct kunit *test)
{
	static const char *const profiles[] = {
		"mtk-eth-reset0", "mtk-eth-4db6c75124d8",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		struct nic_ctx *u = nic_setup(test, profiles[i]);
		struct bqlm_nic *nic = &u->nic;
		bool bug = i == 0;

		nic_send(test, u);
		nic_send(test, u);
		KUNIT_EXPECT_EQ(test, bqlm_nic_inflight(nic, 0), 1000U);
		KUNIT_EXPECT_EQ(test, bqlm_nic_inflight(nic, 1), 1000U);
		STEP(test, u, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_CLOSE, &u->ev));
		nic_finish_path(test, u);
		KUNIT_EXPECT_EQ(test, nic->q[0].npkts, 0);
		KUNIT_EXPECT_EQ(test, nic->q[1].npkts, 0);
		KUNIT_EXPECT_EQ(test, nic->q[0].txq.dql.num_queued, 0U);
		KUNIT_EXPECT_EQ(test, nic->q[1].txq.dql.num_queued,
				bug ? 1000U : 0U);
		KUNIT_EXPECT_EQ(test, nic->q[1].orphans, bug ? 1 : 0);
		STEP(test, u, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_OPEN, &u->ev));
		while (nic->path)
			STEP(test, u, bqlm_nic_reset_path(nic, &u->cfg,
							  BQLM_NIC_NR_PATHS,
							  &u->ev));
		/* the last call, netif_tx_wake_all_queues(), found it */
		KUNIT_EXPECT_EQ(test, u->ev.lost, bug ? 1U : 0U);
		KUNIT_EXPECT_EQ(test, bqlm_netif_xmit_stopped(&nic->q[1].txq),
				bug);
	}
}

/*
 * xmit_more: the doorbell after the ring-full stop, not before it
 * (__netdev_tx_sent_queue(), as mlx4_en and r8169 call it); with the plain
 * netdev_tx_sent_queue() the first packet at limit 0 sets STACK_XOFF
 * although xmit_more is set, which rings the doorbell and ends the batch.
 */
static void nic_xmit_more_doorbell(struct kunit *test)
{
	struct nic_ctx *u = nic_setup(test, "generic");
	struct bqlm_nic *nic = &u->nic;

	u->cfg.batch = 3;
	STEP(test, u, bqlm_ndo_start_xmit(nic, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, nic->xmit, BQLM_NIC_XMIT_XOFF);
	nic_send(test, u);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_xmit_stopped(&nic->q[0].txq));
	KUNIT_EXPECT_FALSE(test, bqlm_netif_tx_queue_stopped(&nic->q[0].txq));
	KUNIT_EXPECT_TRUE(test, nic->q[0].pkt[0].flags &
			  BQLM_NIC_PKT_KICKED);
	KUNIT_EXPECT_EQ(test, nic->batch_pos, 0);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_start_xmit(nic, &u->cfg, &u->ev),
			-EAGAIN);
	STEP(test, u, bqlm_nic_dma_complete(nic, &u->cfg, 0));

	u = nic_setup(test, "generic");
	nic = &u->nic;
	u->cfg.batch = 3;
	u->cfg.sent_call = BQLM_NIC_CALL_XMIT_MORE;
	nic_send(test, u);
	KUNIT_EXPECT_EQ(test, nic->batch_pos, 1);
	KUNIT_EXPECT_FALSE(test, nic->q[0].pkt[0].flags &
			   BQLM_NIC_PKT_KICKED);
	/* nothing to complete before the doorbell */
	KUNIT_EXPECT_EQ(test, bqlm_nic_dma_complete(nic, &u->cfg, 0),
			-EINVAL);
	/* the ring is full after the second: stop, and ring the doorbell
	 * although xmit_more is set (netif_xmit_stopped())
	 */
	nic_send(test, u);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(&nic->q[0].txq));
	KUNIT_EXPECT_TRUE(test, nic->q[0].pkt[1].flags &
			  BQLM_NIC_PKT_KICKED);
	KUNIT_EXPECT_EQ(test, nic->batch_pos, 0);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_start_xmit(nic, &u->cfg, &u->ev),
			-EAGAIN);
	/* the same with !xmit_more only: never rung, nothing completes */
	u = nic_setup(test, "generic");
	nic = &u->nic;
	u->cfg.batch = 3;
	u->cfg.sent_call = BQLM_NIC_CALL_XMIT_MORE;
	u->cfg.doorbell = BQLM_NIC_KICK_XMIT_MORE;
	nic_send(test, u);
	nic_send(test, u);
	KUNIT_EXPECT_TRUE(test, bqlm_netif_tx_queue_stopped(&nic->q[0].txq));
	KUNIT_EXPECT_EQ(test, bqlm_nic_dma_complete(nic, &u->cfg, 0),
			-EINVAL);
}

/* A commit id as the profiles give it: 12 lower-case hex digits, then ^. */
static bool nic_commit_ok(const char *c)
{
	unsigned int i;

	for (i = 0; i < 12; i++)
		if (!((c[i] >= '0' && c[i] <= '9') ||
		      (c[i] >= 'a' && c[i] <= 'f')))
			return false;
	return !c[12] || !strcmp(c + 12, "^");
}

/* Configurations, option strings and the profiles table. */
static void nic_config(struct kunit *test)
{
	struct bqlm_nic_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg),
						 GFP_KERNEL);
	unsigned char ops[BQLM_NIC_MAX_OPS];
	struct bqlm_xsys sys;
	unsigned int n = 99, i;
	char buf[96];

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	bqlm_nic_cfg_default(cfg);
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), 0);
	cfg->ring = 1;
	cfg->descs = 2;
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), -EINVAL);
	bqlm_nic_cfg_default(cfg);
	cfg->queues = BQLM_NIC_MAX_QUEUES + 1;
	KUNIT_EXPECT_EQ(test, bqlm_nic_system(cfg, &sys), -EINVAL);
	bqlm_nic_cfg_default(cfg);
	cfg->ops[BQLM_NIC_PATH_OPEN][0] = BQLM_NIC_NR_OPS;
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), -EINVAL);
	bqlm_nic_cfg_default(cfg);
	cfg->batch = 0;
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), -EINVAL);
	bqlm_nic_cfg_default(cfg);
	KUNIT_EXPECT_EQ(test, cfg->sent_call, BQLM_NIC_CALL_PLAIN);
	cfg->sent_call = BQLM_NIC_NR_CALL;
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), -EINVAL);
	/* the plain call returns nothing to ring the doorbell on */
	cfg->sent_call = BQLM_NIC_CALL_PLAIN;
	cfg->doorbell = BQLM_NIC_KICK_SENT_QUEUE;
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), -EINVAL);
	cfg->sent_call = BQLM_NIC_CALL_XMIT_MORE;
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), 0);
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(NULL), -EINVAL);

	KUNIT_EXPECT_EQ(test, bqlm_nic_parse_ops("stop,drain,reset0", ops,
						 &n), 0);
	KUNIT_EXPECT_EQ(test, n, 3U);
	KUNIT_EXPECT_EQ(test, ops[2], BQLM_NIC_OP_RESET0);
	bqlm_nic_format_ops(ops, n, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "stop,drain,reset0");
	KUNIT_EXPECT_EQ(test, bqlm_nic_parse_ops("none", ops, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 0U);
	bqlm_nic_format_ops(ops, n, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "none");
	n = 7;
	KUNIT_EXPECT_EQ(test, bqlm_nic_parse_ops("stop,", ops, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_parse_ops("stop,,reset", ops, &n),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_parse_ops("rest", ops, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_parse_ops(
			"stop,stop,stop,stop,stop,stop,stop,stop,stop,stop,stop",
			ops, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_parse_ops("", ops, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, n, 7U);
	KUNIT_EXPECT_STREQ(test, bqlm_nic_op_name(BQLM_NIC_NR_OPS), "?");
	KUNIT_EXPECT_STREQ(test, bqlm_nic_path_name(BQLM_NIC_PATH_RECONFIG),
			   "reconfig");

	/*
	 * every profile: valid, named, with a driver and a commit id of 12
	 * hex digits (X^: the bug X fixes); "-" for the generic driver only
	 */
	for (i = 0; i < bqlm_nic_nr_profiles(); i++) {
		const struct bqlm_nic_profile *p = bqlm_nic_profile(i);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, bqlm_nic_profile_by_name(p->name), (int)i);
		KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_profile(cfg, i), 0);
		KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(cfg), 0);
		KUNIT_EXPECT_NE(test, p->driver[0], 0);
		if (!strcmp(p->name, "generic"))
			KUNIT_EXPECT_STREQ(test, p->commit, "-");
		else
			KUNIT_EXPECT_TRUE_MSG(test, nic_commit_ok(p->commit),
					      "profile %s: commit '%s'",
					      p->name, p->commit);
	}
	KUNIT_EXPECT_TRUE(test, nic_commit_ok("4db6c75124d8^"));
	KUNIT_EXPECT_FALSE(test, nic_commit_ok("-"));
	KUNIT_EXPECT_FALSE(test, nic_commit_ok("4db6c75124d"));
	KUNIT_EXPECT_FALSE(test, nic_commit_ok("4db6c75124d8x"));
	KUNIT_EXPECT_FALSE(test, nic_commit_ok("4dB6c75124d8"));
	KUNIT_EXPECT_NULL(test, bqlm_nic_profile(i));
	KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_profile(cfg, i), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_profile_by_name("e1000"), -ENOENT);
}

/* What the actors refuse, and the system's step on bad actions. */
static void nic_refusals(struct kunit *test)
{
	struct nic_ctx *u = nic_setup(test, "generic");
	struct bqlm_nic *nic = &u->nic;
	struct bqlm_xsys sys;
	char buf[64];

	KUNIT_EXPECT_EQ(test, bqlm_nic_dma_complete(nic, &u->cfg, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_dma_complete(nic, &u->cfg, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_napi_poll(nic, &u->cfg, 1, &u->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_xdp_xmit(nic, &u->cfg), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_NR_PATHS, &u->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_OPEN, &u->ev),
			-EINVAL);
	/* no timeout while no queue is stopped, no second close */
	KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_TIMEOUT,
						  &u->ev), -EINVAL);
	/* a close waits in netif_tx_disable() for the transmit's tx lock */
	u->cfg.packets = 1;
	STEP(test, u, bqlm_ndo_start_xmit(nic, &u->cfg, &u->ev));
	KUNIT_EXPECT_EQ(test, nic->xmit, BQLM_NIC_XMIT_XOFF);
	KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_CLOSE, &u->ev),
			-EINVAL);
	nic_send(test, u);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_start_xmit(nic, &u->cfg, &u->ev),
			-EINVAL);
	STEP(test, u, bqlm_nic_reset_path(nic, &u->cfg, BQLM_NIC_PATH_CLOSE,
					  &u->ev));
	KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_CLOSE, &u->ev),
			-EINVAL);
	/* napi_disable() waits for a running poll */
	STEP(test, u, bqlm_nic_reset_path(nic, &u->cfg, BQLM_NIC_NR_PATHS,
					  &u->ev));
	STEP(test, u, bqlm_nic_dma_complete(nic, &u->cfg, 0));
	STEP(test, u, bqlm_napi_poll(nic, &u->cfg, 0, &u->ev));
	KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_NR_PATHS, &u->ev),
			-EAGAIN);
	KUNIT_ASSERT_EQ(test, bqlm_nic_system(&u->cfg, &sys), 0);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, nic, A(XDP, 0), nic, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, nic, 0x900, nic, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, nic,
					 A(PATH, BQLM_NIC_NR_PATHS + 1), nic,
					 NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_xstep(&sys, nic, A(NAPI, 7), nic, NULL),
			-EINVAL);
	bqlm_xdescribe_action(&sys, nic, 0x900, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, buf[0], '?');
}

/*
 * A configuration bqlm_nic_cfg_check() refuses, or a NULL argument, at
 * every public entry point: -EINVAL, and the state is not touched (no
 * division by cfg->queues, no q[cfg->queues - 1]).
 */
static void nic_bad_config(struct kunit *test)
{
	struct nic_ctx *u = nic_setup(test, "generic");
	struct bqlm_nic_cfg *bad = kunit_kzalloc(test, sizeof(*bad),
						 GFP_KERNEL);
	struct bqlm_nic *before = kunit_kzalloc(test, sizeof(*before),
						GFP_KERNEL);
	struct bqlm_nic *nic = &u->nic;
	struct bqlm_xsys sys;
	unsigned int k;

	KUNIT_ASSERT_NOT_NULL(test, bad);
	KUNIT_ASSERT_NOT_NULL(test, before);
	u->cfg.xdp_frames = 1;
	/* k = 0: all zero (queues 0); 1: too many queues; 2: sent-queue
	 * doorbell with the plain call
	 */
	for (k = 0; k < 3; k++) {
		memset(bad, 0, sizeof(*bad));
		if (k) {
			*bad = u->cfg;
			if (k == 1)
				bad->queues = BQLM_NIC_MAX_QUEUES + 1;
			else
				bad->doorbell = BQLM_NIC_KICK_SENT_QUEUE;
		}
		*before = *nic;
		KUNIT_EXPECT_EQ(test, bqlm_nic_cfg_check(bad), -EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_nic_init(nic, bad), -EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_ndo_start_xmit(nic, bad, &u->ev),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_nic_dma_complete(nic, bad, 0),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_napi_poll(nic, bad, 0, &u->ev),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_ndo_xdp_xmit(nic, bad), -EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_napi_poll_cleantx(nic, bad, 0,
							     &u->ev), -EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, bad,
							  BQLM_NIC_PATH_CLOSE,
							  &u->ev), -EINVAL);
		KUNIT_EXPECT_EQ(test, bqlm_nic_system(bad, &sys), -EINVAL);
		KUNIT_EXPECT_EQ(test, memcmp(before, nic, sizeof(*nic)), 0);
	}
	/* NULL state, configuration or event */
	KUNIT_EXPECT_EQ(test, bqlm_nic_init(nic, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_start_xmit(NULL, &u->cfg, &u->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_start_xmit(nic, NULL, &u->ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_start_xmit(nic, &u->cfg, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_dma_complete(NULL, &u->cfg, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_napi_poll(nic, &u->cfg, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_ndo_xdp_xmit(NULL, &u->cfg), -EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_napi_poll_cleantx(nic, &u->cfg, 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bqlm_nic_reset_path(nic, &u->cfg,
						  BQLM_NIC_PATH_CLOSE, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(before, nic, sizeof(*nic)), 0);
	KUNIT_EXPECT_EQ(test, bqlm_nic_inflight(nic, BQLM_NIC_MAX_QUEUES), 0U);
	/* and the valid configuration still works on the same state */
	STEP(test, u, bqlm_ndo_xdp_xmit(nic, &u->cfg));
	KUNIT_EXPECT_EQ(test, nic->q[0].npkts, 1);
}

struct nic_grep {
	const char *needle[3];
	bool found[3];
	unsigned int lines;
};

static void nic_grep_line(void *arg, const char *line)
{
	struct nic_grep *g = arg;
	unsigned int i;

	g->lines++;
	for (i = 0; i < ARRAY_SIZE(g->needle); i++)
		if (g->needle[i] && strstr(line, g->needle[i]))
			g->found[i] = true;
}

/* The shortest counterexample of the open-reset bug, as the CLI prints it. */
static void nic_trace_words(struct kunit *test)
{
	struct nic_ctx *u = nic_setup(test, "virtio-net-open-reset");
	struct nic_grep *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	unsigned int *path = kunit_kcalloc(test, 64, sizeof(*path),
					   GFP_KERNEL);
	struct bqlm_xresult *res = kunit_kzalloc(test, sizeof(*res),
						 GFP_KERNEL);
	struct bqlm_explorer *x;
	struct bqlm_xsys sys;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_ASSERT_NOT_NULL(test, res);
	KUNIT_ASSERT_EQ(test, bqlm_nic_system(&u->cfg, &sys), 0);
	x = bqlm_explorer_create(&sys, NULL);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, bqlm_explore(x, res), 0);
	n = bqlm_explorer_path(x, BQLM_CHECK_DQL_OVER_COMPLETION, path, 64);
	bqlm_explorer_destroy(x);
	KUNIT_ASSERT_EQ(test, n, 12);
	g->needle[0] = "netdev_tx_reset_queue (every queue)";
	g->needle[1] = "DMA completes a descriptor";
	g->needle[2] = "!! dql-over-completion in napi_poll (1000 vs 0";
	KUNIT_EXPECT_EQ(test, bqlm_xtrace(&sys, path, n, nic_grep_line, g),
			(int)(BIT_OC));
	KUNIT_EXPECT_TRUE(test, g->found[0]);
	KUNIT_EXPECT_TRUE(test, g->found[1]);
	KUNIT_EXPECT_TRUE(test, g->found[2]);
	KUNIT_EXPECT_GE(test, g->lines, 2U + 2U * n);
}

static struct kunit_case bqlm_nic_cases[] = {
	KUNIT_CASE_PARAM(nic_exploration, nic_x_gen_params),
	KUNIT_CASE(nic_virtio_open_reset_replay),
	KUNIT_CASE(nic_axienet_split_poll),
	KUNIT_CASE(nic_mtk_reset_queue0),
	KUNIT_CASE(nic_xmit_more_doorbell),
	KUNIT_CASE(nic_config),
	KUNIT_CASE(nic_refusals),
	KUNIT_CASE(nic_bad_config),
	KUNIT_CASE(nic_trace_words),
	{}
};

static struct kunit_suite bqlm_nic_suite = {
	.name = "bqlm_nic",
	.test_cases = bqlm_nic_cases,
};

kunit_test_suite(bqlm_nic_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the bqlmodel NAPI / virtual NIC model");
