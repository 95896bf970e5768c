// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the timing simulation (model/sim/sim.c): the event queue,
 * jiffies, TX_QLEN, determinism, and the usbnet results the simulation
 * exists for, and the tun ring's flow control, on short simulated runs
 * (well under a second of CPU in UML).
 */
#include <linux/if_ether.h>
#include "bqlm_kunit.h"
#include <bqlm/sim.h>
#include <bqlm/tun.h>
#include "bqlm_internal.h"	/* min(), max(), min_t(), div64_u64() */

#define MBIT		1000000ULL		/* bit/s */
#define GBIT		(1000 * MBIT)
/* A frame on the wire: its FCS, the preamble with its SFD, the gap */
#define WIRE_LEN(len)	((len) + ETH_FCS_LEN + 8 + 12)
/* tun's ring: 25 slots, tx_queue_len and the pfifo_fast band limit */
#define SIM_TUN_RING	25U
/* 98 % of a link's rate, in full frames' payload */
#define GOODPUT_98(bps)	((bps) * 98 / 100 * ETH_FRAME_LEN / WIRE_LEN(ETH_FRAME_LEN))

/* Deferred actions: what the cases create, destroyed however they end. */
static void sim_destroy_action(void *sim)
{
	bqlm_sim_destroy(sim);
}

static void sim_evq_free_action(void *q)
{
	bqlm_evq_free(q);
}

/* A simulation of @cfg, destroyed when the case ends. */
static struct bqlm_sim *sim_create(struct kunit *test,
				   const struct bqlm_sim_cfg *cfg)
{
	struct bqlm_sim *sim = bqlm_sim_create(cfg);

	KUNIT_ASSERT_NOT_NULL_MSG(test, sim, "bqlm_sim_create()");
	KUNIT_ASSERT_EQ_MSG(test, kunit_add_action_or_reset(test,
							    sim_destroy_action,
							    sim), 0,
			    "bqlm_sim_create()");
	return sim;
}

static void sim_evq_order(struct kunit *test)
{
	static const unsigned long long t[] = { 50, 10, 30, 10, 0, 30, 10 };
	struct bqlm_evq *qp = bqlm_kunit_zalloc(test, sizeof(*qp));
	struct bqlm_sim_event e, prev;
	unsigned int i;

	/* the queue outlives the case's frame: its storage is freed after */
	KUNIT_ASSERT_EQ(test, bqlm_evq_init(qp, ARRAY_SIZE(t)), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							sim_evq_free_action,
							qp), 0);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test, bqlm_evq_push(qp, t[i], i, 100 + i),
				    0, "event %u", i);
	KUNIT_EXPECT_EQ(test, bqlm_evq_push(qp, 1, 0, 0), -ENOSPC);
	KUNIT_ASSERT_EQ(test, bqlm_evq_pop(qp, &prev), 0);
	KUNIT_EXPECT_EQ(test, prev.time, 0ULL);
	KUNIT_EXPECT_EQ(test, prev.type, 4U);
	for (i = 1; i < ARRAY_SIZE(t); i++) {
		KUNIT_ASSERT_EQ_MSG(test, bqlm_evq_pop(qp, &e), 0, "pop %u", i);
		/* time order, and insertion order among equal times */
		KUNIT_EXPECT_TRUE_MSG(test, e.time > prev.time ||
				      (e.time == prev.time && e.seq > prev.seq),
				      "pop %u: type %u at %llu after type %u at %llu",
				      i, e.type, e.time, prev.type, prev.time);
		KUNIT_EXPECT_EQ_MSG(test, e.arg, 100 + e.type, "pop %u", i);
		KUNIT_EXPECT_EQ_MSG(test, e.time, t[e.type], "pop %u", i);
		prev = e;
	}
	KUNIT_EXPECT_EQ(test, bqlm_evq_pop(qp, &e), -ENOENT);
	/* the three events at t=10 came out as pushed: types 1, 3, 6 */
	bqlm_evq_push(qp, 10, 1, 0);
	bqlm_evq_push(qp, 10, 3, 0);
	bqlm_evq_push(qp, 5, 9, 0);
	bqlm_evq_push(qp, 10, 6, 0);
	bqlm_evq_pop(qp, &e);
	KUNIT_EXPECT_EQ(test, e.type, 9U);
	bqlm_evq_pop(qp, &e);
	KUNIT_EXPECT_EQ(test, e.type, 1U);
	bqlm_evq_pop(qp, &e);
	KUNIT_EXPECT_EQ(test, e.type, 3U);
	bqlm_evq_pop(qp, &e);
	KUNIT_EXPECT_EQ(test, e.type, 6U);
}

static void sim_jiffies(struct kunit *test)
{
	struct bqlm_sim_cfg cfg;

	bqlm_sim_cfg_default(&cfg);
	KUNIT_EXPECT_EQ(test, cfg.hz, 250U);
	cfg.jiffies0 = 1000;
	/* HZ 250: a tick every 4 ms */
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 0), 1000UL);
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 3999999), 1000UL);
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 4000000), 1001UL);
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 10 * BQLM_NSEC_PER_SEC),
			3500UL);
	cfg.hz = 1000;
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 999999), 1000UL);
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 1000000), 1001UL);
	cfg.hz = 100;
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 600 * BQLM_NSEC_PER_SEC),
			61000UL);
	/* jiffies wrap as unsigned long does */
	cfg.jiffies0 = ULONG_MAX;
	KUNIT_EXPECT_EQ(test, bqlm_sim_jiffies(&cfg, 10 * BQLM_NSEC_PER_MSEC),
			0UL);
}

static void sim_tx_qlen(struct kunit *test)
{
	struct bqlm_sim_cfg cfg;

	/* MAX_QUEUE_MEMORY / hard_mtu; five times that on SuperSpeed */
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_update_max_qlen(BQLM_SIM_USB2,
							  ETH_FRAME_LEN), 60U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_update_max_qlen(BQLM_SIM_USB3,
							  ETH_FRAME_LEN), 300U);
	/* a 9000-byte MTU */
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_update_max_qlen(BQLM_SIM_USB3,
							  9000 + ETH_HLEN), 50U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_update_max_qlen(BQLM_SIM_USB3, 0),
			4U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_update_max_qlen(1, ETH_FRAME_LEN), 4U);

	bqlm_sim_cfg_default(&cfg);
	KUNIT_ASSERT_EQ(test, bqlm_sim_cfg_resolve(&cfg), 0);
	KUNIT_EXPECT_EQ(test, cfg.tx_qlen, 300U);
	KUNIT_EXPECT_EQ(test, cfg.usb_bps, 4000000000ULL);
	KUNIT_EXPECT_EQ(test, cfg.irq_ns, 40000U);
	KUNIT_EXPECT_EQ(test, cfg.maxpacket, 1024U);
	KUNIT_EXPECT_EQ(test, cfg.len, ETH_FRAME_LEN);
	bqlm_sim_cfg_default(&cfg);
	cfg.usb = BQLM_SIM_USB2;
	KUNIT_ASSERT_EQ(test, bqlm_sim_cfg_resolve(&cfg), 0);
	KUNIT_EXPECT_EQ(test, cfg.tx_qlen, 60U);
	KUNIT_EXPECT_EQ(test, cfg.usb_bps, 425984000ULL);
	KUNIT_EXPECT_EQ(test, cfg.irq_ns, 125000U);
	/* rejected parameters */
	bqlm_sim_cfg_default(&cfg);
	cfg.variant = bqlm_usbnet_nr_variants();
	KUNIT_EXPECT_EQ(test, bqlm_sim_cfg_resolve(&cfg), -EINVAL);
	bqlm_sim_cfg_default(&cfg);
	cfg.fifo_bytes = 1000;
	KUNIT_EXPECT_EQ(test, bqlm_sim_cfg_resolve(&cfg), -EINVAL);
	bqlm_sim_cfg_default(&cfg);
	cfg.warmup_ns = cfg.duration_ns;
	KUNIT_EXPECT_EQ(test, bqlm_sim_cfg_resolve(&cfg), -EINVAL);
	KUNIT_EXPECT_NULL(test, bqlm_sim_create(&cfg));
	/* WIRE_LEN(ETH_FRAME_LEN), 1538 bytes, at 1 Gbit/s */
	bqlm_sim_cfg_default(&cfg);
	cfg.link_bps = GBIT;
	KUNIT_EXPECT_EQ(test, bqlm_sim_frame_ns(&cfg, ETH_FRAME_LEN), 12304ULL);
	KUNIT_EXPECT_EQ(test, bqlm_sim_frame_ns(&cfg, 40), 672ULL);
}

/* One run at @link_bps; the result in @res. */
static void sim_run_one(struct kunit *test, struct bqlm_sim_cfg *cfg,
			struct bqlm_sim_result *res)
{
	struct bqlm_sim *sim = sim_create(test, cfg);
	char what[64];

	snprintf(what, sizeof(what), "%s %s at %llu bit/s, seed %llu",
		 cfg->dev == BQLM_SIM_TUN ? "tun" : "usbnet",
		 cfg->dev == BQLM_SIM_TUN ?
		 bqlm_tun_variant_name(cfg->tun_variant) :
		 bqlm_usbnet_variant_name(cfg->variant),
		 (unsigned long long)cfg->link_bps,
		 (unsigned long long)cfg->seed);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_sim_run(sim), 0, "%s", what);
	KUNIT_ASSERT_EQ_MSG(test, bqlm_sim_result(sim, res), 0, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_sim_now(sim), cfg->duration_ns, "%s",
			    what);
	KUNIT_EXPECT_EQ_MSG(test, res->dql_errors, 0ULL, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, res->violations, 0ULL, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, res->skb_exhausted, 0ULL, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, res->overflows, 0ULL, "%s", what);
	*cfg = *bqlm_sim_get_cfg(sim);
	kunit_release_action(test, sim_destroy_action, sim);
}

static void sim_cfg_short(struct bqlm_sim_cfg *cfg,
			  enum bqlm_usbnet_variant variant,
			  unsigned long long link_bps)
{
	bqlm_sim_cfg_default(cfg);
	cfg->variant = variant;
	cfg->link_bps = link_bps;
	cfg->duration_ns = BQLM_NSEC_PER_SEC;
	cfg->warmup_ns = BQLM_NSEC_PER_SEC / 2;
	cfg->ping_ns = BQLM_NSEC_PER_MSEC;
}

/*
 * The digest folds every event's time and type and the final BQL state:
 * the same constants in the kernel, in userspace and in the 32-bit build.
 */
#define SIM_DIGEST_EVENTS	8658ULL
#define SIM_DIGEST		0x863846cb1485c008ULL

static void sim_deterministic(struct kunit *test)
{
	struct bqlm_sim_result a, b;
	struct bqlm_sim_cfg cfg;

	bqlm_sim_cfg_default(&cfg);
	cfg.duration_ns = 200 * BQLM_NSEC_PER_MSEC;
	cfg.warmup_ns = 0;
	cfg.seed = 42;
	sim_run_one(test, &cfg, &a);
	bqlm_sim_cfg_default(&cfg);
	cfg.duration_ns = 200 * BQLM_NSEC_PER_MSEC;
	cfg.warmup_ns = 0;
	cfg.seed = 42;
	sim_run_one(test, &cfg, &b);
	KUNIT_EXPECT_EQ(test, a.events, b.events);
	KUNIT_EXPECT_EQ(test, a.digest, b.digest);
	KUNIT_EXPECT_EQ(test, a.events, SIM_DIGEST_EVENTS);
	KUNIT_EXPECT_EQ(test, a.digest, SIM_DIGEST);
	/* the seed matters (bh jitter, ping phase) */
	cfg.seed = 43;
	sim_run_one(test, &cfg, &b);
	KUNIT_EXPECT_NE(test, a.digest, b.digest);
}

/*
 * Without BQL the ping, first in the qdisc, waits for usbnet_bh() to wake
 * the queue and then behind what the device holds: the URBs on dev->txq
 * (TX_QLEN minus the few the last bh run completed) and the frames in the
 * adapter's FIFO. In frame times F of a full frame at the link rate, with
 * B = irq interval + bh delay + bh jitter (the longest wait for a bh run):
 *   lower: TX_QLEN * F - B - F  (a bh run completes at most B / F + 1)
 *   upper: (TX_QLEN + FIFO / len + 2) * F + B
 * which is "about TX_QLEN x MTU / link rate" with its tolerance.
 */
static void sim_nobql_queueing_delay(struct kunit *test)
{
	unsigned long long f, b, lo, hi;
	struct bqlm_sim_result r;
	struct bqlm_sim_cfg cfg;

	sim_cfg_short(&cfg, BQLM_USBNET_NO_BQL, GBIT);
	sim_run_one(test, &cfg, &r);
	f = bqlm_sim_frame_ns(&cfg, cfg.len);
	b = cfg.irq_ns + cfg.bh_ns + cfg.bh_jitter_ns;
	lo = cfg.tx_qlen * f - b - f;
	hi = (cfg.tx_qlen + cfg.fifo_bytes / cfg.len + 2) * f + b;
	kunit_info(test, "no-bql 1 Gbit/s: ping p50 %llu ns, max %llu ns, bounds [%llu, %llu]",
		   r.ping_p50, r.ping_max, lo, hi);
	KUNIT_EXPECT_GE(test, r.pings, 400U);
	KUNIT_EXPECT_GE(test, r.ping_p50, lo);
	KUNIT_EXPECT_LE(test, r.ping_max, hi);
	/* the link is the bottleneck and stays busy */
	KUNIT_EXPECT_GT(test, r.goodput_bps, GOODPUT_98(GBIT));
	KUNIT_EXPECT_GT(test, r.drops, 0ULL);
	KUNIT_EXPECT_GT(test, r.stops, 0ULL);
	KUNIT_EXPECT_EQ(test, r.bql_stops, 0ULL);
}

/* The links the latency is compared on: a rate, and how long to run. */
struct sim_link_case {
	const char *desc;
	unsigned long long bps;
	bool long_run;	/* the device queue takes 0.4 s to fill */
};

static const struct sim_link_case sim_link_cases[] = {
	{ .desc = "100-mbit", .bps = 100 * MBIT, .long_run = true },
	{ .desc = "1-gbit", .bps = GBIT },
};

KUNIT_ARRAY_PARAM_DESC(sim_link, sim_link_cases, desc);

/*
 * With BQL (fixed) the p99 ping latency drops to less than half, at the
 * same throughput (within 2%), at 100 Mbit/s and at 1 Gbit/s.
 */
static void sim_bql_reduces_latency(struct kunit *test)
{
	const struct sim_link_case *p = test->param_value;
	struct bqlm_sim_result nb, fx;
	struct bqlm_sim_cfg cfg;

	sim_cfg_short(&cfg, BQLM_USBNET_NO_BQL, p->bps);
	if (p->long_run) {
		cfg.duration_ns = 2 * BQLM_NSEC_PER_SEC;
		cfg.warmup_ns = BQLM_NSEC_PER_SEC;
		cfg.ping_ns = 5 * BQLM_NSEC_PER_MSEC;
	}
	sim_run_one(test, &cfg, &nb);
	cfg.variant = BQLM_USBNET_FIXED;
	sim_run_one(test, &cfg, &fx);
	kunit_info(test, "%llu bit/s: p99 no-bql %llu ns, fixed %llu ns; goodput %llu vs %llu; limit p50 %u max %u",
		   p->bps, nb.ping_p99, fx.ping_p99, nb.goodput_bps,
		   fx.goodput_bps, fx.limit_p50, fx.limit_max);
	KUNIT_EXPECT_LT(test, 2 * fx.ping_p99, nb.ping_p99);
	KUNIT_EXPECT_LE(test, 50 * fx.goodput_bps, 51 * nb.goodput_bps);
	KUNIT_EXPECT_GE(test, 50 * fx.goodput_bps, 49 * nb.goodput_bps);
	KUNIT_EXPECT_GT(test, fx.bql_stops, 0ULL);
	KUNIT_EXPECT_GT(test, fx.limit_max, 0U);
}

/*
 * The simulator drives the usbnet model of model/usbnet/usbnet.c: after a run
 * its state shows the packets went through the model's skbs, far more than it
 * has slots (so slots were recycled), dev->txq.qlen matches the skbs, and the
 * bytes the model holds are the bytes the DQL has in flight (byte balance). The
 * BQL variants between merged and fixed run the same transmit and completion
 * code here: the same results.
 */
static void sim_runs_usbnet_model(struct kunit *test)
{
	const struct bqlm_usbnet_cfg *ucfg;
	const struct bqlm_usbnet *dev;
	struct bqlm_sim_result r, m;
	struct bqlm_sim_cfg cfg;
	struct bqlm_sim *sim;
	unsigned int i, n = 0;

	sim_cfg_short(&cfg, BQLM_USBNET_FIXED, GBIT);
	sim = sim_create(test, &cfg);
	KUNIT_EXPECT_EQ(test, bqlm_sim_run(sim), 0);
	KUNIT_ASSERT_EQ(test, bqlm_sim_result(sim, &r), 0);
	dev = bqlm_sim_usbnet(sim, &ucfg);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_EQ(test, ucfg->packets, 0U);
	KUNIT_EXPECT_EQ(test, ucfg->tx_qlen, bqlm_sim_get_cfg(sim)->tx_qlen);
	KUNIT_EXPECT_GT(test, ucfg->skbs, ucfg->tx_qlen);
	KUNIT_EXPECT_EQ(test, dev->nr_skbs, ucfg->skbs);
	KUNIT_EXPECT_GT(test, r.urbs, 100ULL * ucfg->skbs);
	for (i = 0; i < dev->nr_skbs; i++)
		n += dev->skb[i].where == BQLM_USBNET_SKB_TXQ ||
		     dev->skb[i].where == BQLM_USBNET_SKB_COMPLETED;
	KUNIT_EXPECT_EQ(test, dev->nr_txq, n);
	KUNIT_EXPECT_GT(test, n, 0U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_inflight(dev),
			bqlm_dql_inflight(&dev->txq.dql));
	KUNIT_EXPECT_GT(test, bqlm_usbnet_inflight(dev), 0U);
	KUNIT_EXPECT_EQ(test, bqlm_usbnet_check(dev, ucfg, "end", NULL, false,
						NULL), 0U);
	kunit_release_action(test, sim_destroy_action, sim);
	sim_cfg_short(&cfg, BQLM_USBNET_MERGED, GBIT);
	sim_run_one(test, &cfg, &m);
	KUNIT_EXPECT_EQ(test, m.digest, r.digest);
	/* tun has no usbnet model */
	bqlm_sim_cfg_default(&cfg);
	cfg.dev = BQLM_SIM_TUN;
	sim = sim_create(test, &cfg);
	KUNIT_EXPECT_NULL(test, bqlm_sim_usbnet(sim, &ucfg));
}

/* The TCP-like sender: a window below the qdisc limit never drops. */
static void sim_tcp_window(struct kunit *test)
{
	struct bqlm_sim_result r;
	struct bqlm_sim_cfg cfg;

	sim_cfg_short(&cfg, BQLM_USBNET_FIXED, GBIT);
	cfg.traffic = BQLM_SIM_TCP;
	sim_run_one(test, &cfg, &r);
	KUNIT_EXPECT_EQ(test, r.drops, 0ULL);
	KUNIT_EXPECT_GT(test, r.goodput_bps, GOODPUT_98(GBIT));
	KUNIT_EXPECT_GT(test, r.pings, 400U);
}

static void sim_cfg_tun(struct bqlm_sim_cfg *cfg,
			enum bqlm_tun_variant variant,
			enum bqlm_sim_traffic traffic)
{
	bqlm_sim_cfg_default(cfg);
	cfg->dev = BQLM_SIM_TUN;
	cfg->tun_variant = variant;
	cfg->traffic = traffic;
	cfg->window = 40;
	cfg->duration_ns = BQLM_NSEC_PER_SEC / 2;
	cfg->warmup_ns = BQLM_NSEC_PER_SEC / 10;
	cfg->ping_ns = BQLM_NSEC_PER_MSEC;
}

/*
 * tun, ring of 25 (= tx_queue_len = the pfifo_fast band limit), a reader
 * at 1 Gbit/s and UDP offered at 110% of it: stock drops at the ring
 * (bulk and prioritized pings alike) and never fills the qdisc; with
 * IFF_BACKPRESSURE nothing is lost at the ring, the qdisc holds the
 * excess (and drops it once full: the sender sees NET_XMIT_DROP), and no
 * ping is lost. The reader runs at its full rate in both.
 */
static void sim_tun_backpressure(struct kunit *test)
{
	struct bqlm_sim_result st, bp;
	struct bqlm_sim_cfg cfg;

	sim_cfg_tun(&cfg, BQLM_TUN_STOCK, BQLM_SIM_UDP);
	sim_run_one(test, &cfg, &st);
	KUNIT_EXPECT_EQ(test, cfg.txqueuelen, SIM_TUN_RING);
	KUNIT_EXPECT_EQ(test, cfg.len, 1428U);
	sim_cfg_tun(&cfg, BQLM_TUN_BACKPRESSURE, BQLM_SIM_UDP);
	sim_run_one(test, &cfg, &bp);
	kunit_info(test, "stock: ring drops %llu, qdisc drops %llu, ping drops %llu; backpressure: %llu, %llu, %llu",
		   st.ring_drops, st.drops, st.ping_drops, bp.ring_drops,
		   bp.drops, bp.ping_drops);
	KUNIT_EXPECT_GT(test, st.ring_drops, 0ULL);
	KUNIT_EXPECT_GT(test, st.ping_drops, 0ULL);
	KUNIT_EXPECT_EQ(test, st.drops, 0ULL);
	KUNIT_EXPECT_EQ(test, st.stops, 0ULL);
	KUNIT_EXPECT_EQ(test, bp.ring_drops, 0ULL);
	KUNIT_EXPECT_EQ(test, bp.ping_drops, 0ULL);
	KUNIT_EXPECT_GT(test, bp.drops, 0ULL);
	KUNIT_EXPECT_GT(test, bp.stops, 0ULL);
	KUNIT_EXPECT_GT(test, st.goodput_bps, GBIT * 99 / 100);
	KUNIT_EXPECT_GT(test, bp.goodput_bps, GBIT * 99 / 100);

	/* a window of 40 < ring + band: backpressure loses nothing at all */
	sim_cfg_tun(&cfg, BQLM_TUN_STOCK, BQLM_SIM_TCP);
	sim_run_one(test, &cfg, &st);
	sim_cfg_tun(&cfg, BQLM_TUN_BACKPRESSURE, BQLM_SIM_TCP);
	sim_run_one(test, &cfg, &bp);
	KUNIT_EXPECT_GT(test, st.ring_drops, 0ULL);
	KUNIT_EXPECT_EQ(test, bp.ring_drops + bp.drops + bp.ping_drops, 0ULL);
	KUNIT_EXPECT_GT(test, bp.goodput_bps, GBIT * 99 / 100);
}

static const enum bqlm_tun_variant sim_tun_variants[] = {
	BQLM_TUN_STOCK, BQLM_TUN_STOP_2019, BQLM_TUN_BACKPRESSURE,
};

static void sim_tun_variant_desc(const enum bqlm_tun_variant *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", bqlm_tun_variant_name(*v));
}

KUNIT_ARRAY_PARAM(sim_tun_variants, sim_tun_variants, sim_tun_variant_desc);

/*
 * The tun simulation drives model/tun/tun.c: every packet the qdisc handed to
 * tun_net_xmit() got a model id and was produced or dropped at the ring,
 * every produced one was read or is still in the ring, the ids were
 * recycled (far more packets than ids), and nothing was lost, read twice
 * or dropped under IFF_BACKPRESSURE.
 */
static void sim_runs_tun_model(struct kunit *test)
{
	const enum bqlm_tun_variant *v = test->param_value;
	const struct bqlm_sim_sample *smp;
	const struct bqlm_usbnet_cfg *ucfg;
	const struct bqlm_tun_cfg *tcfg;
	const struct bqlm_tun *tun;
	struct bqlm_sim_result r;
	struct bqlm_sim_cfg cfg;
	struct bqlm_sim *sim;
	unsigned int n, i;

	sim_cfg_tun(&cfg, *v, BQLM_SIM_UDP);
	sim = sim_create(test, &cfg);
	KUNIT_EXPECT_EQ(test, bqlm_sim_run(sim), 0);
	KUNIT_ASSERT_EQ(test, bqlm_sim_result(sim, &r), 0);
	KUNIT_EXPECT_NULL(test, bqlm_sim_usbnet(sim, &ucfg));
	tun = bqlm_sim_tun(sim, &tcfg);
	KUNIT_ASSERT_NOT_NULL(test, tun);
	KUNIT_EXPECT_EQ(test, tcfg->ring, SIM_TUN_RING);
	KUNIT_EXPECT_EQ(test, tcfg->packets, 0U);
	/* pings are never dropped at the qdisc: band 0 stays short */
	KUNIT_EXPECT_EQ(test, (unsigned long long)tun->sent,
			r.urbs + r.ring_drops + r.ping_drops);
	KUNIT_EXPECT_EQ(test, (unsigned long long)tun->delivered +
			bqlm_tun_ring_count(tun, 0), r.urbs);
	KUNIT_EXPECT_GT(test, r.urbs, 100ULL * bqlm_tun_nr_ids(tcfg));
	KUNIT_EXPECT_LE(test, bqlm_tun_ring_count(tun, 0), SIM_TUN_RING);
	/* tun has no BQL: no limit and no bytes in flight in any sample */
	smp = bqlm_sim_samples(sim, &n);
	KUNIT_EXPECT_GT(test, n, 0U);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, smp[i].limit, 0U, "sample %u", i);
		KUNIT_EXPECT_EQ_MSG(test, smp[i].inflight, 0U, "sample %u", i);
	}
	KUNIT_EXPECT_EQ(test, r.violations, 0ULL);
	KUNIT_EXPECT_EQ(test, r.skb_exhausted, 0ULL);
	KUNIT_EXPECT_EQ(test, r.overflows, 0ULL);
}

/*
 * A ring of 250 instead of 25 holds the excess at the ring instead of the
 * qdisc: stock then still drops at the ring, later, and the latency grows
 * with the ring.
 */
static void sim_tun_big_ring(struct kunit *test)
{
	struct bqlm_sim_result r, big;
	struct bqlm_sim_cfg cfg;

	sim_cfg_tun(&cfg, BQLM_TUN_STOCK, BQLM_SIM_UDP);
	sim_run_one(test, &cfg, &r);
	sim_cfg_tun(&cfg, BQLM_TUN_STOCK, BQLM_SIM_UDP);
	cfg.ring = 10 * SIM_TUN_RING;
	cfg.txqueuelen = SIM_TUN_RING;
	sim_run_one(test, &cfg, &big);
	kunit_info(test, "stock ring 25: p50 %llu ns, ring drops %llu; ring 250: p50 %llu ns, ring drops %llu",
		   r.ping_p50, r.ring_drops, big.ping_p50, big.ring_drops);
	KUNIT_EXPECT_GT(test, big.ring_drops, 0ULL);
	KUNIT_EXPECT_GT(test, big.ping_p50, 5 * r.ping_p50);
}

/*
 * The simulator's packet pool is bqlm_sim_pool_size(): neither short (a
 * packet with no room is counted in @overflows) nor loose. Each row
 * saturates every stage at once (a 10 Mbit/s link behind a fast bus, a
 * FIFO of whole frames, the queue stopped, the qdisc full, a packet being
 * made and dropped), so the most packets alive reaches the pool's size;
 * the pings are as long as the bulk, so that the FIFO's bound is reached
 * with any mix of the two.
 */
struct sim_pool_row {
	const char *name;
	enum bqlm_sim_dev dev;
	enum bqlm_usbnet_variant variant;
	enum bqlm_tun_variant tun_variant;
	unsigned int txqueuelen;
	unsigned int tx_qlen;
	unsigned int fifo_frames;
	bool prio_ping;
	bool no_ping;
	unsigned long long bus_tick_ns;
	unsigned long long reader_bps;
	unsigned int pkts;		/* the size, worked out by hand */
	bool below;			/* and not reached */
};

static const struct sim_pool_row sim_pool_rows[] = {
	{ .name = "usbnet no-bql, prio", .dev = BQLM_SIM_USBNET,
	  .variant = BQLM_USBNET_NO_BQL, .txqueuelen = 3, .tx_qlen = 20,
	  .fifo_frames = 4, .prio_ping = true,
	  .pkts = 2 * 3 + 1 + 20 + 4 },
	{ .name = "usbnet no-bql, one band", .dev = BQLM_SIM_USBNET,
	  .variant = BQLM_USBNET_NO_BQL, .txqueuelen = 5, .tx_qlen = 7,
	  .fifo_frames = 2, .prio_ping = false,
	  .pkts = 5 + 1 + 7 + 2 },
	{ .name = "usbnet no-bql, no ping", .dev = BQLM_SIM_USBNET,
	  .variant = BQLM_USBNET_NO_BQL, .txqueuelen = 2, .tx_qlen = 10,
	  .fifo_frames = 3, .prio_ping = true, .no_ping = true,
	  .pkts = 2 + 1 + 10 + 3 },
	{ .name = "usbnet no-bql, one-frame FIFO", .dev = BQLM_SIM_USBNET,
	  .variant = BQLM_USBNET_NO_BQL, .txqueuelen = 1, .tx_qlen = 9,
	  .fifo_frames = 1, .prio_ping = true,
	  .pkts = 2 * 1 + 1 + 9 + 1 },
	{ .name = "usbnet no-bql, bus tick", .dev = BQLM_SIM_USBNET,
	  .variant = BQLM_USBNET_NO_BQL, .txqueuelen = 2, .tx_qlen = 12,
	  .fifo_frames = 5, .prio_ping = true,
	  .bus_tick_ns = 125 * BQLM_NSEC_PER_USEC,
	  .pkts = 2 * 2 + 1 + 12 + 5 },
	/*
	 * a tick far slower than the link: the FIFO's five frames wait for
	 * it on the bus side (the tick's ring full), and the pool is not
	 * reached (the queue wakes only at a tick)
	 */
	{ .name = "usbnet no-bql, slow bus tick", .dev = BQLM_SIM_USBNET,
	  .variant = BQLM_USBNET_NO_BQL, .txqueuelen = 2, .tx_qlen = 12,
	  .fifo_frames = 5, .prio_ping = true,
	  .bus_tick_ns = 20 * BQLM_NSEC_PER_MSEC, .below = true,
	  .pkts = 2 * 2 + 1 + 12 + 5 },
	{ .name = "tun backpressure, prio", .dev = BQLM_SIM_TUN,
	  .tun_variant = BQLM_TUN_BACKPRESSURE, .txqueuelen = 4,
	  .prio_ping = true, .reader_bps = MBIT,
	  .pkts = 2 * 4 + 1 + SIM_TUN_RING + 1 },
	{ .name = "tun backpressure, no ping", .dev = BQLM_SIM_TUN,
	  .tun_variant = BQLM_TUN_BACKPRESSURE, .txqueuelen = 6,
	  .prio_ping = true, .no_ping = true, .reader_bps = 10 * MBIT,
	  .pkts = 6 + 1 + SIM_TUN_RING + 1 },
};

static void sim_pool_desc(const struct sim_pool_row *row, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", row->name);
}

KUNIT_ARRAY_PARAM(sim_pool, sim_pool_rows, sim_pool_desc);

static void sim_pool_bound(struct kunit *test)
{
	const struct sim_pool_row *row = test->param_value;
	struct bqlm_sim_result r;
	struct bqlm_sim_cfg cfg;

	if (row->dev == BQLM_SIM_TUN) {
		sim_cfg_tun(&cfg, row->tun_variant, BQLM_SIM_UDP);
		/*
		 * the sender at 20 times the reader and a ping every 100 us:
		 * both bands fill before the reader's copy ends
		 */
		cfg.reader_bps = row->reader_bps;
		cfg.udp_bps = 20 * row->reader_bps;
		cfg.ping_len = 1428;
		cfg.ping_ns = 100 * BQLM_NSEC_PER_USEC;
	} else {
		sim_cfg_short(&cfg, row->variant, 10 * MBIT);
		cfg.tx_qlen = row->tx_qlen;
		cfg.fifo_bytes = row->fifo_frames * ETH_FRAME_LEN;
		cfg.bus_tick_ns = row->bus_tick_ns;
		cfg.ping_len = ETH_FRAME_LEN;
		cfg.ping_ns = BQLM_NSEC_PER_MSEC;
	}
	cfg.txqueuelen = row->txqueuelen;
	cfg.prio_ping = row->prio_ping;
	if (row->no_ping)
		cfg.ping_ns = 0;
	sim_run_one(test, &cfg, &r);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_sim_pool_size(&cfg), row->pkts,
			    "%s", row->name);
	KUNIT_EXPECT_EQ_MSG(test, r.pkts, row->pkts, "%s", row->name);
	if (row->below)
		KUNIT_EXPECT_LT_MSG(test, r.pkts_max, r.pkts, "%s", row->name);
	else
		KUNIT_EXPECT_EQ_MSG(test, r.pkts_max, r.pkts, "%s", row->name);
}

/*
 * The other configurations: USB2, a URB of a multiple of maxpacket (the
 * +1 byte), the ping in the bulk's band, the 2019 tun experiment, running
 * in steps past the end, the accessors, and a bad parameter of each kind.
 */
static void sim_configurations(struct kunit *test)
{
	const struct bqlm_sim_sample *smp;
	const struct bqlm_sim_ping *png;
	struct bqlm_sim_result r;
	struct bqlm_sim_cfg cfg;
	struct bqlm_sim *sim;
	unsigned int n;

	/* USB2: TX_QLEN 60; 1016 + 8 = 1024 bytes: padded to 1025 */
	bqlm_sim_cfg_default(&cfg);
	cfg.usb = BQLM_SIM_USB2;
	cfg.len = 1016;
	cfg.prio_ping = false;
	cfg.duration_ns = 300 * BQLM_NSEC_PER_MSEC;
	cfg.warmup_ns = 100 * BQLM_NSEC_PER_MSEC;
	sim = sim_create(test, &cfg);
	KUNIT_EXPECT_EQ(test, bqlm_sim_result(sim, &r), 0);
	KUNIT_EXPECT_EQ(test, r.goodput_bps, 0ULL);
	KUNIT_EXPECT_EQ(test, bqlm_sim_run_until(sim, cfg.duration_ns / 2), 0);
	KUNIT_EXPECT_EQ(test, bqlm_sim_now(sim), cfg.duration_ns / 2);
	KUNIT_EXPECT_EQ(test, bqlm_sim_run_until(sim, 2 * cfg.duration_ns), 0);
	KUNIT_EXPECT_EQ(test, bqlm_sim_now(sim), cfg.duration_ns);
	KUNIT_EXPECT_EQ(test, bqlm_sim_result(sim, &r), 0);
	KUNIT_EXPECT_EQ(test, bqlm_sim_get_cfg(sim)->tx_qlen, 60U);
	smp = bqlm_sim_samples(sim, &n);
	KUNIT_EXPECT_EQ(test, n, 301U);
	KUNIT_EXPECT_EQ(test, smp[300].t, cfg.duration_ns);
	KUNIT_EXPECT_LE(test, smp[300].txq, 60U);
	png = bqlm_sim_pings(sim, &n);
	KUNIT_EXPECT_EQ(test, n, r.pings);
	KUNIT_EXPECT_GT(test, n, 0U);
	KUNIT_EXPECT_GE(test, png[0].sent, cfg.warmup_ns);
	KUNIT_EXPECT_GT(test, r.urbs, 0ULL);
	KUNIT_EXPECT_EQ(test, r.dql_errors, 0ULL);
	kunit_release_action(test, sim_destroy_action, sim);
	bqlm_sim_destroy(NULL);

	/* the 2019 tun experiment: a stop per packet, no loss at the ring */
	sim_cfg_tun(&cfg, BQLM_TUN_STOP_2019, BQLM_SIM_UDP);
	cfg.duration_ns = 100 * BQLM_NSEC_PER_MSEC;
	cfg.warmup_ns = 0;
	sim_run_one(test, &cfg, &r);
	KUNIT_EXPECT_EQ(test, r.ring_drops, 0ULL);
	KUNIT_EXPECT_GT(test, r.stops, r.urbs / 2);

	/* one bad parameter at a time */
#define SIM_BAD(field, val) do {					\
		bqlm_sim_cfg_default(&cfg);				\
		cfg.field = (val);					\
		KUNIT_EXPECT_EQ_MSG(test, bqlm_sim_cfg_resolve(&cfg), -EINVAL, \
				    "%s = %s", #field, #val);		\
	} while (0)
	SIM_BAD(usb, 4);
	SIM_BAD(mtu, 60);
	SIM_BAD(dev, 2);
	SIM_BAD(link_bps, 1000);
	SIM_BAD(tx_qlen, BQLM_SIM_MAX_QLEN + 1);
	SIM_BAD(len, 2000);
	SIM_BAD(hz, 50);
	SIM_BAD(traffic, 2);
	SIM_BAD(ping_ns, 1000);
	SIM_BAD(sample_ns, 1000);
	SIM_BAD(bh_ns, 200 * BQLM_NSEC_PER_MSEC);
	SIM_BAD(duration_ns, 0);
#undef SIM_BAD
	bqlm_sim_cfg_default(&cfg);
	cfg.traffic = BQLM_SIM_TCP;
	cfg.window = 0;
	KUNIT_EXPECT_EQ(test, bqlm_sim_cfg_resolve(&cfg), -EINVAL);
	sim_cfg_tun(&cfg, BQLM_TUN_STOCK, BQLM_SIM_UDP);
	cfg.ring = 1;
	KUNIT_EXPECT_EQ(test, bqlm_sim_cfg_resolve(&cfg), -EINVAL);
}


/*
 * What make mutate found no case looking at: an event queue used after
 * bqlm_evq_free(), the default seed, the ping length and jitter
 * bounds at their boundaries, the offered count, the qdisc length the
 * samples record, the usbnet model's skb slots.
 */
static void sim_edges(struct kunit *test)
{
	struct bqlm_evq *q = bqlm_kunit_zalloc(test, sizeof(*q));
	const struct bqlm_sim_sample *smp;
	const struct bqlm_usbnet_cfg *u;
	struct bqlm_sim_result r;
	struct bqlm_sim_event e;
	struct bqlm_sim_cfg cfg;
	struct bqlm_sim *sim;
	unsigned int n, i, most = 0;
	u64 burst;

	KUNIT_ASSERT_EQ(test, bqlm_evq_init(q, 1), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							sim_evq_free_action,
							q), 0);
	KUNIT_EXPECT_EQ(test, bqlm_evq_push(q, 7, 1, 0), 0);
	bqlm_evq_free(q);
	KUNIT_EXPECT_EQ(test, q->cap, 0U);
	/* a freed queue has no room: refused, nothing written */
	KUNIT_EXPECT_EQ(test, bqlm_evq_push(q, 5, 2, 3), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bqlm_evq_pop(q, &e), -ENOENT);

	bqlm_sim_cfg_default(&cfg);
	KUNIT_EXPECT_EQ(test, cfg.seed, 1ULL);
	BQLM_EXPECT_EDGE(test, bqlm_sim_cfg_resolve, &cfg, ping_len, 60, 59);
	bqlm_sim_cfg_default(&cfg);
	BQLM_EXPECT_EDGE(test, bqlm_sim_cfg_resolve, &cfg, bh_jitter_ns,
			 100 * BQLM_NSEC_PER_MSEC, 100 * BQLM_NSEC_PER_MSEC + 1);
	/* HZ and the bulk endpoint's packet size at their least, one less */
	bqlm_sim_cfg_default(&cfg);
	cfg.maxpacket = 8;
	BQLM_EXPECT_EDGE(test, bqlm_sim_cfg_resolve, &cfg, hz, 100, 99);
	cfg.hz = 100;
	BQLM_EXPECT_EDGE(test, bqlm_sim_cfg_resolve, &cfg, maxpacket, 8, 7);
	/* HZ and the fixup's header at their largest, and one more */
	bqlm_sim_cfg_default(&cfg);
	cfg.fixup_hdr = 64;
	BQLM_EXPECT_EDGE(test, bqlm_sim_cfg_resolve, &cfg, hz, 1000, 1001);
	cfg.hz = 1000;
	BQLM_EXPECT_EDGE(test, bqlm_sim_cfg_resolve, &cfg, fixup_hdr, 64, 65);

	/* no BQL at 100 Mbit/s: the bulk band full, the ping's nearly empty */
	sim_cfg_short(&cfg, BQLM_USBNET_NO_BQL, 100 * MBIT);
	sim = sim_create(test, &cfg);
	KUNIT_ASSERT_EQ(test, bqlm_sim_run(sim), 0);
	KUNIT_ASSERT_EQ(test, bqlm_sim_result(sim, &r), 0);
	/* the bulk sender's packets: most of the URBs (pings are the rest) */
	KUNIT_EXPECT_GE(test, r.offered, r.urbs / 2);
	KUNIT_EXPECT_LE(test, r.offered,
			2 * div64_u64(cfg.duration_ns,
				      bqlm_sim_frame_ns(&cfg, cfg.len)));
	smp = bqlm_sim_samples(sim, &n);
	for (i = 0; i < n; i++)
		most = max(most, smp[i].qdisc);
	cfg = *bqlm_sim_get_cfg(sim);
	KUNIT_EXPECT_LE(test, most, cfg.txqueuelen + 1);
	KUNIT_EXPECT_GE(test, most, cfg.txqueuelen / 2);
	/* TX_QLEN and what can arrive in one bh delay, in skb slots */
	KUNIT_ASSERT_NOT_NULL(test, bqlm_sim_usbnet(sim, &u));
	burst = div64_u64((u64)(cfg.irq_ns + cfg.bh_ns + cfg.bh_jitter_ns) *
			  cfg.link_bps, 8 * BQLM_NSEC_PER_SEC);
	burst = div64_u64(burst + cfg.fifo_bytes,
			  min(cfg.len, cfg.ping_len)) + 8;
	KUNIT_EXPECT_EQ(test, (u64)u->skbs,
			min_t(u64, cfg.tx_qlen + burst, BQLM_USBNET_MAX_SKBS));
}

/*
 * What a run records, read back: the samples carry the bytes in flight
 * (some sample of a saturated link has some), the largest limit after
 * the warm-up is the largest of the samples', and the largest ping the
 * largest of the pings (make mutate: samples without their in-flight
 * bytes, and the second largest limit as the largest, unseen).
 */
static void sim_samples_and_pings(struct kunit *test)
{
	const struct bqlm_sim_sample *smp;
	const struct bqlm_sim_ping *png;
	unsigned int n, i, with_inflight = 0, limit = 0;
	struct bqlm_sim_result r;
	struct bqlm_sim_cfg cfg;
	struct bqlm_sim *sim;
	u64 max = 0;

	sim_cfg_short(&cfg, BQLM_USBNET_FIXED, GBIT);
	sim = sim_create(test, &cfg);
	KUNIT_ASSERT_EQ(test, bqlm_sim_run(sim), 0);
	KUNIT_ASSERT_EQ(test, bqlm_sim_result(sim, &r), 0);
	smp = bqlm_sim_samples(sim, &n);
	KUNIT_ASSERT_GT(test, n, 0U);
	for (i = 0; i < n; i++) {
		with_inflight += smp[i].inflight > 0;
		if (smp[i].t >= cfg.warmup_ns)
			limit = max(limit, smp[i].limit);
	}
	KUNIT_EXPECT_GT(test, with_inflight, 0U);
	KUNIT_EXPECT_EQ(test, r.limit_max, limit);
	png = bqlm_sim_pings(sim, &n);
	KUNIT_ASSERT_GT(test, n, 1U);
	for (i = 0; i < n; i++)
		max = max_t(u64, max, png[i].lat);
	KUNIT_EXPECT_EQ(test, r.ping_max, max);

	/* the limit's first growth, a sample each 10 us */
	sim_cfg_short(&cfg, BQLM_USBNET_FIXED, GBIT);
	cfg.warmup_ns = 0;
	cfg.duration_ns = 140 * BQLM_NSEC_PER_USEC;
	cfg.sample_ns = 10 * BQLM_NSEC_PER_USEC;
	sim = sim_create(test, &cfg);
	KUNIT_ASSERT_EQ(test, bqlm_sim_run(sim), 0);
	KUNIT_ASSERT_EQ(test, bqlm_sim_result(sim, &r), 0);
	smp = bqlm_sim_samples(sim, &n);
	for (i = 0, limit = 0, max = 0; i < n; i++) {
		max += smp[i].limit == r.limit_max;
		limit = max(limit, smp[i].limit);
	}
	/* a run cut while the limit grows: its largest in one sample only */
	KUNIT_EXPECT_EQ_MSG(test, max, 1ULL, "%u samples, largest limit %u",
			    n, limit);
	KUNIT_EXPECT_EQ(test, r.limit_max, limit);
}

static struct kunit_case bqlm_sim_cases[] = {
	KUNIT_CASE(sim_evq_order),
	KUNIT_CASE(sim_jiffies),
	KUNIT_CASE(sim_tx_qlen),
	KUNIT_CASE(sim_deterministic),
	KUNIT_CASE(sim_nobql_queueing_delay),
	KUNIT_CASE_PARAM(sim_bql_reduces_latency, sim_link_gen_params),
	KUNIT_CASE(sim_tcp_window),
	KUNIT_CASE(sim_runs_usbnet_model),
	KUNIT_CASE(sim_tun_backpressure),
	KUNIT_CASE_PARAM(sim_runs_tun_model, sim_tun_variants_gen_params),
	KUNIT_CASE(sim_tun_big_ring),
	KUNIT_CASE_PARAM(sim_pool_bound, sim_pool_gen_params),
	KUNIT_CASE(sim_configurations),
	KUNIT_CASE(sim_edges),
	KUNIT_CASE(sim_samples_and_pings),
	{}
};

BQLM_KUNIT_SUITE(bqlm_sim, bqlm_sim_cases);
