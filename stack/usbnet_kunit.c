// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - KUnit suite bqlm_stack_usbnet: the usbnet BQL seed's
 * experiment on the real stack, in virtual time (docs/stack.md).
 *
 * A saturating bulk flow and the two probes (flow.c) go from the host's
 * usbnet device through pfifo_fast, usbnet and dummy_hcd to the gadget's
 * u_ether device (link.c), once per usbnet variant, bus and function. The
 * suite asserts the seed's claims against the no-bql run of the same link:
 * the band-0 probe's median at least 5 times lower with BQL at 100 Mbit/s,
 * lower at 2.5 Gbit/s, the throughput within 3 %. On every BQL run it
 * checks the model's invariants on the real struct dql: byte balance (what
 * DQL has in flight is what the driver holds) half-way and at the end, the
 * limit within its bounds, and reset-on-stop after an ifdown under load.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/dynamic_queue_limits.h>
#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/usb.h>
#include <linux/usb/cdc.h>
#include <linux/usb/usbnet.h>
#include <net/sch_generic.h>

#include "../kunit/bqlm_kunit.h"
#include "stack.h"

/*
 * The deliberate failure of docs/stack.md: BQL's minimum limit raised to
 * DQL_MAX_LIMIT on the BQL variants (as writing "max" to
 * byte_queue_limits/limit_min would), so that BQL never stops the queue.
 */
static bool no_bql_limit;
module_param(no_bql_limit, bool, 0444);
MODULE_PARM_DESC(no_bql_limit, "disable BQL's limit (the claims must fail)");

/* usbnet v1's ifdown under load, which ends in a BUG_ON(): its own boot */
static bool crash_v1;
module_param(crash_v1, bool, 0444);
MODULE_PARM_DESC(crash_v1, "run usbnet_v1_ifdown_crash (the kernel dies)");

/* a finding's reproducer on its buggy variant: a boot of its own each */
static char *crash;
module_param(crash, charp, 0444);
MODULE_PARM_DESC(crash, "run usbnet_finding_crash with this scenario (the kernel reports a bug)");

#define FRAME		1514	/* bulk: a full Ethernet frame, no FCS */
#define PROBE_FRAME	98	/* ping -s 56: 14 + 20 + 8 + 56 */
#define WIRE_EXTRA	24	/* preamble+SFD 8, FCS 4, gap 12 */

/**
 * struct bqlm_stack_bus - the link a run emulates
 * @name: as the figures name it
 * @speed: the gadget's maximum speed, so the bus's
 * @link_bps: the USB Ethernet adapter's link rate, bit/s, which dummy_hcd's
 *	bandwidth is set to (in frame bytes: a 1514-byte frame takes 1538
 *	byte times on the wire); 0: the bus's own rate is the bottleneck
 * @bus_rate: the bottleneck in bytes per second of bulk data
 * @duration_ms: the run, virtual time
 * @warmup_ms: of it, not measured
 * @claim_factor: the seed's claim on this link: the band-0 probe's p50
 *	with BQL at least @claim_factor times lower than without (5 at
 *	100 Mbit/s); 1: lower; 0: none (the throughput's claim only)
 */
struct bqlm_stack_bus {
	const char *name;
	int speed;
	u64 link_bps;
	u64 bus_rate;
	unsigned int duration_ms, warmup_ms;
	unsigned int claim_factor;
};

/*
 * The buses' own rates are those of real/patches/dummy_hcd/: high speed
 * 13 x 512 bytes per 125-us microframe, full speed 19 x 64 bytes per
 * 1-ms frame.
 */
static const struct bqlm_stack_bus bqlm_stack_buses[] = {
	{ "100mbit", USB_SPEED_SUPER, 100000000ULL,
	  100000000ULL / 8 * FRAME / (FRAME + WIRE_EXTRA), 2000, 1000, 5 },
	{ "2500mbit", USB_SPEED_SUPER, 2500000000ULL,
	  2500000000ULL / 8 * FRAME / (FRAME + WIRE_EXTRA), 2000, 1000, 1 },
	{ "usb2-hs", USB_SPEED_HIGH, 0, 512 * 13 * 8000, 2000, 1000, 0 },
	{ "usb1-fs", USB_SPEED_FULL, 0, 64 * 19 * 1000, 4000, 2000, 0 },
};

enum { BUS_100M, BUS_2500M, BUS_HS, BUS_FS };

static const struct bqlm_stack_usbnet_ops *const bqlm_stack_variants[] = {
	&bqlm_stack_no_bql_ops, &bqlm_stack_v1_ops, &bqlm_stack_fixed_ops,
};

enum { V_NO_BQL, V_V1, V_FIXED, V_NR };

/* the run's checks and figures */
struct bqlm_stack_run {
	struct kunit *test;
	const struct bqlm_stack_usbnet_ops *ops;
	const struct bqlm_stack_bus *bus;
	enum bqlm_stack_func func;
	struct bqlm_stack_link l;
	struct dql *dql;
	bool bql;
	bool ifdown;		/* ifdown and ifup half-way */
	struct bqlm_stack_flow f;
	struct bqlm_stack_pct prio, same;
	u64 mbps_x100;
	u64 tx_dropped;
	s64 lost;		/* bulk frames the driver took and never sent */
	unsigned int tx_qlen;
	/* sampled after each sender tick, after the warm-up */
	u64 limit_sum, samples;
	unsigned int limit_max, inflight_max;
	/* half-way snapshot */
	unsigned int mid_bytes, mid_urbs;
	int violations;
	bool done;
};

static const char *bqlm_stack_func_name(enum bqlm_stack_func func)
{
	static const char *const names[] = {
		[BQLM_STACK_ECM] = "ecm",
		[BQLM_STACK_NCM] = "ncm",
		[BQLM_STACK_NCM_FIX] = "ncm-fix",
	};

	return names[func];
}

/*
 * The model's byte balance on the real queue: DQL's bytes in flight
 * (queued - completed, in sequence space) are what the driver holds, and
 * the limit is within its bounds. Softirqs are off, so that no completion
 * or transmit runs between the two reads (UML has one CPU).
 */
static bool bqlm_stack_balance(struct bqlm_stack_run *r, const char *where,
			       unsigned int *bytes, unsigned int *urbs)
{
	unsigned int held, n, q, c, limit, min_limit, max_limit;

	local_bh_disable();
	held = r->ops->inflight(r->l.host, &n);
	q = READ_ONCE(r->dql->num_queued);
	c = READ_ONCE(r->dql->num_completed);
	limit = READ_ONCE(r->dql->limit);
	min_limit = r->dql->min_limit;
	max_limit = r->dql->max_limit;
	local_bh_enable();
	if (bytes)
		*bytes = held;
	if (urbs)
		*urbs = n;
	if (!r->bql) {
		/* 6.12's usbnet never calls BQL: the queue stays untouched */
		if (q || c) {
			kunit_err(r->test, "%s %s: no-bql, yet DQL counted %u queued, %u completed",
				  r->ops->name, where, q, c);
			r->violations++;
			return false;
		}
		return true;
	}
	if ((int)(q - c) < 0 || q - c != held) {
		kunit_err(r->test, "%s %s: byte-balance: DQL has %u in flight (%u queued, %u completed), the driver holds %u in %u URBs",
			  r->ops->name, where, q - c, q, c, held, n);
		r->violations++;
		return false;
	}
	if (!no_bql_limit && (limit < min_limit || limit > max_limit)) {
		kunit_err(r->test, "%s %s: dql-limit-bounds: limit %u outside [%u, %u]",
			  r->ops->name, where, limit, min_limit, max_limit);
		r->violations++;
		return false;
	}
	return true;
}

static bool bqlm_stack_usbnet_idle(void *arg)
{
	struct bqlm_stack_run *r = arg;
	unsigned int n, qlen = bqlm_stack_qdisc_qlen(r->l.host);

	local_bh_disable();
	r->ops->inflight(r->l.host, &n);
	local_bh_enable();
	return !qlen && !n;
}

static void bqlm_stack_usbnet_tick(void *arg)
{
	struct bqlm_stack_run *r = arg;
	unsigned int limit, inflight;

	if (bqlm_stack_now() < r->f.t_warm || !r->bql || !netif_running(r->l.host))
		return;
	limit = READ_ONCE(r->dql->limit);
	inflight = READ_ONCE(r->dql->num_queued) -
		   READ_ONCE(r->dql->num_completed);
	r->limit_sum += limit;
	r->samples++;
	r->limit_max = max(r->limit_max, limit);
	r->inflight_max = max(r->inflight_max, inflight);
}

/* ifdown under load: reset-on-stop; then ifup and wait for the carrier */
static void bqlm_stack_usbnet_ifdown(struct bqlm_stack_run *r)
{
	unsigned int held, n, q, c, limit;
	int ret, ms;

	rtnl_lock();
	dev_close(r->l.host);
	rtnl_unlock();
	/* usbnet_stop() has returned: every URB is back, the queue reset */
	local_bh_disable();
	held = r->ops->inflight(r->l.host, &n);
	q = r->dql->num_queued;
	c = r->dql->num_completed;
	limit = r->dql->limit;
	local_bh_enable();
	if (held || n || (r->bql && (q || c || limit != r->dql->min_limit))) {
		kunit_err(r->test, "%s after ifdown: reset-on-stop: the driver holds %u bytes in %u URBs; DQL %u queued, %u completed, limit %u (min %u)",
			  r->ops->name, held, n, q, c, limit, r->dql->min_limit);
		r->violations++;
	}
	kunit_info(r->test, "bqlm_stack: ifdown %s %s: DQL %u queued, %u completed, limit %u after usbnet_stop()",
		   r->ops->name, bqlm_stack_func_name(r->func), q, c, limit);
	rtnl_lock();
	ret = dev_open(r->l.host, NULL);
	rtnl_unlock();
	for (ms = 0; !ret && ms < 5000 && !netif_carrier_ok(r->l.host); ms += 1)
		bqlm_stack_sleep_until(bqlm_stack_now() + NSEC_PER_MSEC);
	if (ret || !netif_carrier_ok(r->l.host)) {
		kunit_err(r->test, "%s: ifup: %d, carrier %d after %d ms",
			  r->ops->name, ret, netif_carrier_ok(r->l.host), ms);
		r->violations++;
	}
}

static void bqlm_stack_usbnet_midway(void *arg)
{
	struct bqlm_stack_run *r = arg;

	bqlm_stack_balance(r, "half-way", &r->mid_bytes, &r->mid_urbs);
	if (r->ifdown)
		bqlm_stack_usbnet_ifdown(r);
}

static void bqlm_stack_print_cdf(struct bqlm_stack_run *r, const char *probe,
				 const struct bqlm_stack_lat *l)
{
	char buf[512];

	if (bqlm_stack_cdf(l, buf, sizeof(buf)))
		kunit_info(r->test, "bqlm_stack: cdf usbnet %s %s %s %s%s",
			   bqlm_stack_func_name(r->func), r->bus->name,
			   r->ops->name, probe, buf);
}

static void bqlm_stack_print(struct bqlm_stack_run *r)
{
	u64 limit_avg = r->samples ? div64_u64(r->limit_sum, r->samples) : 0;

	kunit_info(r->test,
		   "bqlm_stack: usbnet func=%s bus=%s speed=%s variant=%s tx_qlen=%u prio_us=%llu/%llu/%llu/%llu same_us=%llu/%llu/%llu/%llu n=%u same_drops=%u mbps=%llu.%02llu sent=%llu qdisc_drops=%llu received=%llu lost=%lld tx_dropped=%llu bql_limit_avg=%llu bql_limit_max=%u inflight_max=%u mid_bytes=%u mid_urbs=%u%s",
		   bqlm_stack_func_name(r->func), r->bus->name,
		   usb_speed_string(r->l.speed), r->ops->name, r->tx_qlen,
		   div_u64(r->prio.p50, 1000), div_u64(r->prio.p90, 1000),
		   div_u64(r->prio.p99, 1000), div_u64(r->prio.max, 1000),
		   div_u64(r->same.p50, 1000), div_u64(r->same.p90, 1000),
		   div_u64(r->same.p99, 1000), div_u64(r->same.max, 1000),
		   r->f.prio.n, r->f.same.drops, div_u64(r->mbps_x100, 100), r->mbps_x100 % 100,
		   r->f.sent, r->f.qdisc_drops, r->f.rx_total, r->lost,
		   r->tx_dropped,
		   limit_avg,
		   r->limit_max, r->inflight_max, r->mid_bytes, r->mid_urbs,
		   r->ifdown ? " ifdown=1" : "");
	if (r->ifdown)	/* not a steady load */
		return;
	bqlm_stack_print_cdf(r, "prio", &r->f.prio);
	bqlm_stack_print_cdf(r, "same", &r->f.same);
}

/**
 * bqlm_stack_usbnet_run() - one variant on one link, measured and checked
 * @r: the run: @r->test, @r->ops, @r->bus, @r->func, @r->ifdown set
 *
 * Return: 0 when the run was measured (its checks may still have failed:
 * @r->violations), a negative errno when the link did not come up.
 */
static int bqlm_stack_usbnet_run(struct bqlm_stack_run *r)
{
	const struct bqlm_stack_bus *bus = r->bus;
	struct bqlm_stack_flow_cfg cfg = {
		.frame		= FRAME,
		.probe_frame	= PROBE_FRAME,
		.probe_ns	= 2 * NSEC_PER_MSEC,
		.tick_ns	= 0,
		.duration_ns	= (u64)bus->duration_ms * NSEC_PER_MSEC,
		.warmup_ns	= (u64)bus->warmup_ms * NSEC_PER_MSEC,
		.drain_ns	= 5 * NSEC_PER_SEC,
		.idle		= bqlm_stack_usbnet_idle,
	};
	struct rtnl_link_stats64 st;
	unsigned int bw = 0;
	int ret;

	r->bql = r->ops != &bqlm_stack_no_bql_ops;
	if (bus->link_bps)
		bw = bus->bus_rate;
	ret = bqlm_stack_link_up(r->test, &r->l, r->ops, r->func, bus->speed,
				 bw);
	if (ret)
		return ret;
	r->dql = &netdev_get_tx_queue(r->l.host, 0)->dql;
	r->tx_qlen = r->ops->tx_qlen(r->l.host);
	if (no_bql_limit && r->bql)
		WRITE_ONCE(r->dql->min_limit, DQL_MAX_LIMIT);
	cfg.dev = r->l.host;
	cfg.dst = r->l.gadget->dev_addr;
	cfg.rx = r->l.gadget;
	/* 110 % of the bottleneck's rate of full frames, in millihertz */
	cfg.rate = div64_u64(bus->bus_rate * 1100, FRAME);

	ret = bqlm_stack_flow_init(&r->f, &cfg);
	if (ret)
		goto out;
	ret = bqlm_stack_flow_run(&cfg, &r->f, bqlm_stack_usbnet_midway,
				  bqlm_stack_usbnet_tick, r);
	if (ret)
		kunit_err(r->test, "%s: the queues did not drain in 5 s",
			  r->ops->name);
	/* the end: nothing in flight, every byte completed */
	if (!bqlm_stack_balance(r, "at the end", NULL, NULL))
		ret = ret ?: -EBADMSG;
	dev_get_stats(r->l.host, &st);
	r->tx_dropped = st.tx_dropped;
	r->lost = r->f.sent - r->f.qdisc_drops - r->f.other_drops - r->f.rx_total;
	bqlm_stack_pct(&r->f.prio, &r->prio);
	bqlm_stack_pct(&r->f.same, &r->same);
	r->mbps_x100 = bqlm_stack_mbps_x100(r->f.rx_bytes, r->f.window_ns);
	bqlm_stack_print(r);
	r->done = true;
	ret = 0;
out:
	bqlm_stack_link_down(&r->l);
	return ret;
}

/* every variant on one bus and function */
static void bqlm_stack_usbnet_all(struct kunit *test, struct bqlm_stack_run *runs,
				  const struct bqlm_stack_bus *bus,
				  enum bqlm_stack_func func)
{
	int v;

	for (v = 0; v < V_NR; v++) {
		struct bqlm_stack_run *r = &runs[v];

		r->test = test;
		r->ops = bqlm_stack_variants[v];
		r->bus = bus;
		r->func = func;
		KUNIT_ASSERT_EQ_MSG(test, bqlm_stack_usbnet_run(r), 0,
				    "%s on %s/%s: the link did not come up",
				    r->ops->name, r->bus->name,
				    bqlm_stack_func_name(func));
		KUNIT_EXPECT_EQ_MSG(test, r->violations, 0,
				    "%s: invariants violated (see above)",
				    r->ops->name);
		/* band 0 is never full, and every probe arrives */
		KUNIT_EXPECT_EQ(test, r->f.prio.drops, 0);
		KUNIT_EXPECT_GT(test, r->f.prio.n, 0);
		KUNIT_EXPECT_EQ(test, r->f.prio.n, r->f.prio.warm_sent);
		KUNIT_EXPECT_GT(test, r->f.same.n, 0);
		/*
		 * what the driver took, it sent (cdc_ncm as in the tree
		 * may not: usbnet_ncm_flush_drops)
		 */
		if (func != BQLM_STACK_NCM)
			KUNIT_EXPECT_EQ_MSG(test, r->lost, 0,
					    "%s: %lld frames lost in the driver (tx_dropped %llu)",
					    r->ops->name, r->lost, r->tx_dropped);
	}
}

static void bqlm_stack_usbnet_free(struct bqlm_stack_run *runs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		bqlm_stack_flow_free(&runs[i].f);
}

/* throughput of a BQL run within 3 % of no-bql's */
static void bqlm_stack_expect_throughput(struct kunit *test,
					 const struct bqlm_stack_run *bql,
					 const struct bqlm_stack_run *base)
{
	KUNIT_EXPECT_GE_MSG(test, bql->mbps_x100 * 100, base->mbps_x100 * 97,
			    "%s: %llu.%02llu Mb/s against no-bql's %llu.%02llu",
			    bql->ops->name, div_u64(bql->mbps_x100, 100),
			    bql->mbps_x100 % 100, div_u64(base->mbps_x100, 100),
			    base->mbps_x100 % 100);
	KUNIT_EXPECT_LE(test, bql->mbps_x100 * 100, base->mbps_x100 * 103);
}

KUNIT_ARRAY_PARAM_DESC(bqlm_stack_buses, bqlm_stack_buses, name);

/* every variant on one bus (the parameter): the seed's claims */
static void bqlm_stack_usbnet_claims(struct kunit *test,
				     enum bqlm_stack_func func)
{
	const struct bqlm_stack_bus *bus = test->param_value;
	unsigned int factor = bus->claim_factor;
	struct bqlm_stack_run *runs;
	int v;

	runs = kunit_kcalloc(test, V_NR, sizeof(*runs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, runs);
	bqlm_stack_usbnet_all(test, runs, bus, func);
	for (v = V_V1; v < V_NR; v++) {
		const struct bqlm_stack_run *r = &runs[v], *b = &runs[V_NO_BQL];

		if (factor > 1)
			KUNIT_EXPECT_LE_MSG(test, r->prio.p50 * factor, b->prio.p50,
					    "%s/%s: band-0 probe p50 %llu us with %s, %llu us without BQL: not %u times lower",
					    r->bus->name, bqlm_stack_func_name(func),
					    div_u64(r->prio.p50, 1000), r->ops->name,
					    div_u64(b->prio.p50, 1000), factor);
		else if (factor == 1)
			KUNIT_EXPECT_LT_MSG(test, r->prio.p50, b->prio.p50,
					    "%s/%s: band-0 probe p50 %llu us with %s, %llu us without BQL: not lower",
					    r->bus->name, bqlm_stack_func_name(func),
					    div_u64(r->prio.p50, 1000), r->ops->name,
					    div_u64(b->prio.p50, 1000));
		bqlm_stack_expect_throughput(test, r, b);
	}
	bqlm_stack_usbnet_free(runs, V_NR);
}

static void usbnet_ecm_claims(struct kunit *test)
{
	bqlm_stack_usbnet_claims(test, BQLM_STACK_ECM);
}

static void usbnet_ncm_claims(struct kunit *test)
{
	bqlm_stack_usbnet_claims(test, BQLM_STACK_NCM);
}

/*
 * cdc_ncm's flush timer hands usbnet an aggregate while TX_QLEN has the
 * queue stopped, and usbnet_start_xmit() drops it whole: frames the qdisc
 * handed over are lost, one tx_dropped per aggregate. Without BQL, at full
 * speed (TX_QLEN 4) and on the 100 Mbit/s link (TX_QLEN 27), the tree's
 * cdc_ncm loses frames; with real/patches/cdc_ncm/ it loses none.
 */
static void usbnet_ncm_flush_drops(struct kunit *test)
{
	static const int buses[] = { BUS_FS, BUS_100M };
	struct bqlm_stack_run *runs;
	int i, fix;

	runs = kunit_kcalloc(test, 2 * ARRAY_SIZE(buses), sizeof(*runs),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, runs);
	for (i = 0; i < ARRAY_SIZE(buses); i++) {
		for (fix = 0; fix < 2; fix++) {
			struct bqlm_stack_run *r = &runs[2 * i + fix];

			r->test = test;
			r->ops = &bqlm_stack_no_bql_ops;
			r->bus = &bqlm_stack_buses[buses[i]];
			r->func = fix ? BQLM_STACK_NCM_FIX : BQLM_STACK_NCM;
			KUNIT_ASSERT_EQ(test, bqlm_stack_usbnet_run(r), 0);
			KUNIT_EXPECT_EQ(test, r->violations, 0);
			if (fix) {
				KUNIT_EXPECT_EQ(test, r->lost, 0);
				KUNIT_EXPECT_EQ(test, r->tx_dropped, 0);
			} else {
				KUNIT_EXPECT_GT(test, r->lost, 0);
				KUNIT_EXPECT_GT(test, r->tx_dropped, 0);
			}
		}
	}
	bqlm_stack_usbnet_free(runs, 2 * ARRAY_SIZE(buses));
}

static const enum bqlm_stack_func bqlm_stack_ifdown_funcs[] = {
	BQLM_STACK_ECM, BQLM_STACK_NCM,
};

static void bqlm_stack_func_desc(const enum bqlm_stack_func *func,
				 char *desc)
{
	strscpy(desc, bqlm_stack_func_name(*func), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bqlm_stack_ifdown, bqlm_stack_ifdown_funcs,
		  bqlm_stack_func_desc);

/* ifdown and ifup half-way through the load (a function): no-bql, fixed */
static void usbnet_ifdown_under_load(struct kunit *test)
{
	const enum bqlm_stack_func *func = test->param_value;
	static const int vs[] = { V_NO_BQL, V_FIXED };
	struct bqlm_stack_run *runs;
	int i;

	runs = kunit_kcalloc(test, ARRAY_SIZE(vs), sizeof(*runs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, runs);
	for (i = 0; i < ARRAY_SIZE(vs); i++) {
		struct bqlm_stack_run *r = &runs[i];

		r->test = test;
		r->ops = bqlm_stack_variants[vs[i]];
		r->bus = &bqlm_stack_buses[BUS_100M];
		r->func = *func;
		r->ifdown = true;
		KUNIT_ASSERT_EQ(test, bqlm_stack_usbnet_run(r), 0);
		KUNIT_EXPECT_EQ_MSG(test, r->violations, 0,
				    "%s: invariants violated (see above)",
				    r->ops->name);
		/* the load went on after the ifup */
		KUNIT_EXPECT_GT(test, r->f.rx_frames, 0);
	}
	bqlm_stack_usbnet_free(runs, ARRAY_SIZE(vs));
}

/*
 * usbnet v1 resets the queue in usbnet_stop() before the URBs still in
 * flight come back: their completion finds nothing in flight and
 * dql_completed()'s BUG_ON() fires. scripts/kunit-stack.sh boots a kernel
 * for this case alone, with bqlm_stack.crash_v1=1, and checks the BUG.
 */
static void usbnet_v1_ifdown_crash(struct kunit *test)
{
	struct bqlm_stack_run *r;

	if (!crash_v1)
		kunit_skip(test, "kills the kernel: scripts/kunit-stack.sh boots it alone with bqlm_stack.crash_v1=1");
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->test = test;
	r->ops = &bqlm_stack_v1_ops;
	r->bus = &bqlm_stack_buses[BUS_100M];
	r->func = BQLM_STACK_ECM;
	r->ifdown = true;
	KUNIT_ASSERT_EQ(test, bqlm_stack_usbnet_run(r), 0);
	bqlm_stack_flow_free(&r->f);
	KUNIT_FAIL(test, "usbnet v1 survived an ifdown under load");
}

/*
 * The findings of docs/findings.md on the real stack. Each is named by the
 * variant (real/patches/usbnet/series) on which it shows, and the one that
 * fixes it.
 */
#define FINDING_BUGGY		"fixed"		/* 6.19's BQL code */
#define AVOID_UNLINK_FIX	"fixed-avoid-unlink"	/* the stop's TX unlink */
#define DISCONNECT_FIX		"fixed-avoid-unlink"	/* the disconnect's kill */
#define NCM_STOP_BUGGY		"fixed-avoid-unlink"	/* before 2/2 */
#define NCM_STOP_FIX		"fixed-ncm-stop"	/* no xmit once stopping */

static const struct bqlm_stack_usbnet_ops *const bqlm_stack_all_variants[] = {
	&bqlm_stack_no_bql_ops, &bqlm_stack_v1_ops, &bqlm_stack_fixed_ops,
	&bqlm_stack_fixed_avoid_unlink_ops, &bqlm_stack_fixed_ncm_stop_ops,
};

static const struct bqlm_stack_usbnet_ops *bqlm_stack_variant(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(bqlm_stack_all_variants); i++)
		if (!strcmp(bqlm_stack_all_variants[i]->name, name))
			return bqlm_stack_all_variants[i];
	return NULL;
}

/*
 * No gadget speaks aqc111's protocol: usbnet's part of the findings is
 * driven through cdc_ether's own driver_info with aqc111's
 * FLAG_AVOID_UNLINK_URBS added, bound to the gadget's CDC ECM function.
 * Everything else is the variant's cdc_ether (bind, unbind, status, its
 * usb_driver's callbacks) and usbnet.
 */
struct bqlm_stack_flagged {
	struct usb_device_id ids[2];
	struct usb_driver drv;
};

static struct usb_driver *bqlm_stack_flagged_driver(struct kunit *test,
						    const struct bqlm_stack_usbnet_ops *ops,
						    int flags)
{
	const struct usb_driver *base = *ops->cdc_ether;
	const struct driver_info *info = *ops->cdc_info;
	struct bqlm_stack_flagged *d;
	void *copy;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	copy = kunit_kmalloc(test, sizeof(*info), GFP_KERNEL);
	if (!d || !copy)
		return NULL;
	/* cdc_ether's driver_info, and the minidriver's flags in the copy */
	memcpy(copy, info, sizeof(*info));
	*(int *)(copy + offsetof(typeof(*info), flags)) |= flags;
	d->ids[0] = (struct usb_device_id) {
		USB_INTERFACE_INFO(USB_CLASS_COMM, USB_CDC_SUBCLASS_ETHERNET,
				   USB_CDC_PROTO_NONE),
		.driver_info = (unsigned long)copy,
	};
	d->drv.name = "bqlm_avoid_unlink";
	d->drv.id_table = d->ids;
	d->drv.probe = base->probe;
	d->drv.disconnect = base->disconnect;
	d->drv.suspend = base->suspend;
	d->drv.resume = base->resume;
	d->drv.reset_resume = base->reset_resume;
	d->drv.supports_autosuspend = base->supports_autosuspend;
	d->drv.disable_hub_initiated_lpm = base->disable_hub_initiated_lpm;
	return &d->drv;
}

/* an ifdown in a thread of its own, so that a stop that hangs is seen */
struct bqlm_stack_closer {
	struct net_device *dev;
	struct completion done;
	u64 t_end;
};

static int bqlm_stack_close_fn(void *arg)
{
	struct bqlm_stack_closer *c = arg;

	rtnl_lock();
	dev_close(c->dev);
	rtnl_unlock();
	c->t_end = bqlm_stack_now();
	complete(&c->done);
	return 0;
}

#define STALL_FRAMES		8	/* handed to the qdisc, device stalled */
#define IFDOWN_BOUND_MS		100	/* virtual: the unlink takes a tick */
#define UNPLUG_WAIT_MS		1000	/* virtual: hub_wq, dev->delay (HZ/8) */

/**
 * struct bqlm_stack_stall - a finding's scenario on the flagged CDC link
 * @name: as bqlm_stack.crash names it
 * @variant: the usbnet variant it runs on
 * @frames: frames sent while the device has stopped draining bulk-out
 *	(they stay in flight); 0: none
 * @unplug: unplug the device once it is closed (else the device drains
 *	again after the ifdown)
 * @report: what the kernel must report on @variant (scripts/kunit-stack.sh
 *	greps for it), NULL for nothing
 */
struct bqlm_stack_stall {
	const char *name;
	const char *variant;
	unsigned int frames;
	bool unplug;
	const char *report;
};

static const struct bqlm_stack_stall bqlm_stack_stalls[] = {
	/* finding 1: the ifdown's reset, then the held TX URBs complete */
	{ "avoid-unlink-ifdown", FINDING_BUGGY, STALL_FRAMES, false,
	  "dql_completed() BUG_ON() from usbnet_bh()" },
	/*
	 * finding 3: the closed device unplugged with its RX URBs (the flag
	 * leaves them) and the held TX URBs in flight
	 */
	{ "disconnect-rx-tx", FINDING_BUGGY, STALL_FRAMES, true,
	  "the bh or dev->delay run on the freed struct usbnet" },
	/* finding 3 with the RX URBs only */
	{ "disconnect-rx", FINDING_BUGGY, 0, true,
	  "the bh or dev->delay run on the freed struct usbnet" },
	/* the fixes: the same scenarios end cleanly, the ifdown bounded */
	{ "fix-ifdown", AVOID_UNLINK_FIX, STALL_FRAMES, false, NULL },
	{ "fix-disconnect-rx-tx", DISCONNECT_FIX, STALL_FRAMES, true, NULL },
};

static const struct bqlm_stack_stall *bqlm_stack_stall(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(bqlm_stack_stalls); i++)
		if (!strcmp(bqlm_stack_stalls[i].name, name))
			return &bqlm_stack_stalls[i];
	return NULL;
}

static void bqlm_stack_sleep_ms(unsigned int ms)
{
	bqlm_stack_sleep_until(bqlm_stack_now() + (u64)ms * NSEC_PER_MSEC);
}

/*
 * The scenario: the flagged link up (100 Mbit/s); the device stops
 * draining bulk-out (dummy_hcd's hold_bulk_out, as a device that NAKs
 * every OUT token); frames sent, their URBs held in flight; ifdown
 * (dev_close() under RTNL, in a thread, within IFDOWN_BOUND_MS of virtual
 * time or the case fails); then either the device drains again, or it is
 * unplugged with the URBs the host still has queued. On a fixed variant
 * every check holds; on a buggy one the kernel reports the bug at the
 * completion after the reset, or when dev->delay fires on the freed
 * struct usbnet.
 */
static void bqlm_stack_stall_run(struct kunit *test,
				 const struct bqlm_stack_stall *sc)
{
	const struct bqlm_stack_bus *bus = &bqlm_stack_buses[BUS_100M];
	const struct bqlm_stack_usbnet_ops *ops;
	unsigned int held, urbs, rx_urbs, i, q, c;
	struct bqlm_stack_closer *cl;
	struct task_struct *t;
	struct bqlm_stack_link l;
	struct usb_driver *drv;
	struct dql *dql;
	u64 t0, ifdown_ns;
	bool bql;

	KUNIT_ASSERT_NOT_NULL(test, sc);
	ops = bqlm_stack_variant(sc->variant);
	KUNIT_ASSERT_NOT_NULL_MSG(test, ops, "variant %s is not built in",
				  sc->variant);
	bql = ops != &bqlm_stack_no_bql_ops;
	drv = bqlm_stack_flagged_driver(test, ops, FLAG_AVOID_UNLINK_URBS);
	KUNIT_ASSERT_NOT_NULL(test, drv);
	KUNIT_ASSERT_EQ(test, bqlm_stack_link_up_drv(test, &l, ops, drv,
						     BQLM_STACK_ECM, bus->speed,
						     bus->bus_rate), 0);
	/* not the case's: a stuck ifdown thread may outlive it */
	cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	if (!cl) {
		bqlm_stack_link_down(&l);
		KUNIT_FAIL(test, "out of memory");
		return;
	}
	dql = &netdev_get_tx_queue(l.host, 0)->dql;

	KUNIT_EXPECT_EQ(test, bqlm_stack_set_param("dummy_hcd.hold_bulk_out", "1"), 0);
	for (i = 0; i < sc->frames; i++) {
		struct sk_buff *skb = bqlm_stack_frame(l.host, l.gadget->dev_addr,
						       FRAME, BQLM_STACK_BULK,
						       i, 0);

		if (skb)
			dev_queue_xmit(skb);
	}
	bqlm_stack_sleep_ms(10);
	local_bh_disable();
	held = ops->inflight(l.host, &urbs);
	local_bh_enable();
	rx_urbs = ops->rx_urbs(l.host);
	kunit_info(test, "bqlm_stack: stall %s variant=%s before ifdown: tx_urbs=%u tx_bytes=%u rx_urbs=%u",
		   sc->name, ops->name, urbs, held, rx_urbs);
	if (sc->frames)
		KUNIT_EXPECT_GT_MSG(test, urbs, 0,
				    "no TX URB held in flight: is dummy_hcd's hold_bulk_out applied?");
	KUNIT_EXPECT_GT(test, rx_urbs, 0);

	/* ifdown, bounded */
	cl->dev = l.host;
	init_completion(&cl->done);
	t0 = bqlm_stack_now();
	t = kthread_run(bqlm_stack_close_fn, cl, "bqlm-ifdown");
	if (IS_ERR(t)) {
		kfree(cl);
		bqlm_stack_link_down(&l);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	for (i = 0; i < IFDOWN_BOUND_MS && !completion_done(&cl->done); i++)
		bqlm_stack_sleep_ms(1);
	if (!completion_done(&cl->done)) {
		KUNIT_FAIL(test, "%s: ifdown with the device not draining has not returned after %u ms (virtual): the stop waits for the device",
			   ops->name, IFDOWN_BOUND_MS);
		/* a defined end: the device drains again, the stop ends */
		bqlm_stack_set_param("dummy_hcd.hold_bulk_out", "0");
		if (!wait_for_completion_timeout(&cl->done, 10 * HZ)) {
			KUNIT_FAIL(test, "the ifdown did not end once the device drained: abandoned with RTNL held");
			return;	/* cl, l and RTNL left to the stuck thread */
		}
	}
	ifdown_ns = cl->t_end - t0;
	kfree(cl);

	local_bh_disable();
	held = ops->inflight(l.host, &urbs);
	q = dql->num_queued;
	c = dql->num_completed;
	local_bh_enable();
	rx_urbs = ops->rx_urbs(l.host);
	kunit_info(test, "bqlm_stack: stall %s variant=%s ifdown_us=%llu after ifdown: tx_urbs=%u tx_bytes=%u rx_urbs=%u dql_queued=%u dql_completed=%u",
		   sc->name, ops->name, div_u64(ifdown_ns, NSEC_PER_USEC),
		   urbs, held, rx_urbs, q, c);
	if (!sc->report) {
		/* the stop unlinked the TX URBs: none left after the reset */
		KUNIT_EXPECT_EQ(test, urbs, 0);
		KUNIT_EXPECT_EQ(test, q, 0);
		KUNIT_EXPECT_EQ(test, c, 0);
		/* the flag still keeps the RX URBs submitted */
		KUNIT_EXPECT_GT(test, rx_urbs, 0);
	}

	if (sc->unplug) {
		bqlm_stack_link_unplug(&l);
		/* hub_wq disconnects it; dev->delay would fire after HZ/8 */
		bqlm_stack_sleep_ms(UNPLUG_WAIT_MS);
	} else {
		/* the device drains again: the held URBs complete, if any */
		bqlm_stack_set_param("dummy_hcd.hold_bulk_out", "0");
		bqlm_stack_sleep_ms(50);
		if (bql && !sc->report)
			KUNIT_EXPECT_EQ_MSG(test, dql->num_completed, 0,
					    "a TX completion reached BQL after the stop's reset");
	}
	bqlm_stack_link_down(&l);
	if (sc->report)
		KUNIT_FAIL(test, "%s: %s on %s did not happen", sc->name,
			   sc->report, ops->name);
}

/*
 * Finding 1's fix: ifdown with TX URBs held by a device that stopped
 * draining bulk-out returns within IFDOWN_BOUND_MS (the stop unlinks them),
 * and no completion reaches BQL after its reset.
 */
static void usbnet_avoid_unlink_stalled_ifdown(struct kunit *test)
{
	bqlm_stack_stall_run(test, bqlm_stack_stall("fix-ifdown"));
}

/*
 * Finding 3's fix: the closed device unplugged with RX URBs (and the
 * stalled TX URBs, which the stop unlinked) in flight; the disconnect
 * stops the bh and dev->delay before free_netdev(). Under KASAN
 * (make kunit-stack-kasan) a use-after-free would be reported.
 */
static void usbnet_avoid_unlink_disconnect(struct kunit *test)
{
	bqlm_stack_stall_run(test, bqlm_stack_stall("fix-disconnect-rx-tx"));
}

/*
 * Finding 2: cdc_ncm's flush after the kevent woke the queue during
 * usbnet_stop(). The gadget halts bulk-out; a frame's NTB (the timer's
 * flush) fails with -EPIPE, which queues the kevent's EVENT_TX_HALT
 * (usb_clear_halt(), then netif_wake_queue()); at that tick the device
 * stops draining, one more frame is handed over (a partial NTB, the flush
 * timer armed) and the ifdown begins. The kevent runs while the stop waits
 * for its unlinked URBs and wakes the queue; the flush then submits its
 * NTB to the stopping device. Returns the TX URBs the closed device holds
 * 5 ms after the ifdown. With @crash, the device is brought up again
 * (usbnet_open() resets the queue) and drains: the NTB's completion is
 * then reported to DQL, which never counted it.
 */
static unsigned int bqlm_stack_ncm_flush_stop_run(struct kunit *test,
						  const struct bqlm_stack_usbnet_ops *ops,
						  bool crash)
{
	const struct bqlm_stack_bus *bus = &bqlm_stack_buses[BUS_100M];
	struct bqlm_stack_link l;
	unsigned int urbs, held;
	struct sk_buff *skb;
	unsigned long err0;
	bool awake;
	int k, ret;

	if (bqlm_stack_link_up(test, &l, ops, BQLM_STACK_NCM, bus->speed,
			       bus->bus_rate)) {
		KUNIT_FAIL(test, "%s: the link did not come up", ops->name);
		return 0;
	}
	err0 = l.host->stats.tx_errors;
	KUNIT_EXPECT_EQ(test, bqlm_stack_gadget_halt_out(), 0);
	skb = bqlm_stack_frame(l.host, l.gadget->dev_addr, FRAME,
			       BQLM_STACK_BULK, 0, 0);
	if (skb)
		dev_queue_xmit(skb);
	/* the tick of the -EPIPE: the NTB's flush comes after ~1.2 ms */
	for (k = 0; k < 200 && l.host->stats.tx_errors == err0; k++)
		bqlm_stack_sleep_until(bqlm_stack_now() + 125 * NSEC_PER_USEC);
	KUNIT_EXPECT_NE_MSG(test, l.host->stats.tx_errors, err0,
			    "no -EPIPE: did the gadget halt bulk-out?");
	bqlm_stack_set_param("dummy_hcd.hold_bulk_out", "1");
	skb = bqlm_stack_frame(l.host, l.gadget->dev_addr, FRAME,
			       BQLM_STACK_BULK, 1, 0);
	if (skb)
		dev_queue_xmit(skb);
	rtnl_lock();
	dev_close(l.host);
	rtnl_unlock();
	awake = !netif_queue_stopped(l.host);
	bqlm_stack_sleep_ms(5);
	local_bh_disable();
	held = ops->inflight(l.host, &urbs);
	local_bh_enable();
	kunit_info(test, "bqlm_stack: ncm-flush-stop variant=%s epipe_after_us=%d queue_awake_after_ifdown=%d tx_urbs_after_ifdown=%u tx_bytes=%u",
		   ops->name, k * 125, awake, urbs, held);
	if (crash) {
		rtnl_lock();
		ret = dev_open(l.host, NULL);
		rtnl_unlock();
		KUNIT_EXPECT_EQ(test, ret, 0);
	}
	/* the device drains again: a held NTB completes */
	bqlm_stack_set_param("dummy_hcd.hold_bulk_out", "0");
	bqlm_stack_sleep_ms(50);
	bqlm_stack_link_down(&l);
	return urbs;
}

/*
 * Finding 2's fix: the NTB the flush hands over once usbnet_stop() has
 * begun is dropped; the closed device holds no TX URB.
 */
static void usbnet_ncm_flush_stop(struct kunit *test)
{
	const struct bqlm_stack_usbnet_ops *ops = bqlm_stack_variant(NCM_STOP_FIX);

	KUNIT_ASSERT_NOT_NULL(test, ops);
	KUNIT_EXPECT_EQ_MSG(test, bqlm_stack_ncm_flush_stop_run(test, ops, false), 0,
			    "%s: a TX URB submitted once usbnet_stop() had begun",
			    ops->name);
}

/*
 * A finding on its buggy variant (bqlm_stack.crash=NAME): the kernel
 * reports it (a BUG_ON() that kills it, or KASAN). scripts/kunit-stack.sh
 * boots a kernel per scenario and checks the report.
 */
static void usbnet_finding_crash(struct kunit *test)
{
	const struct bqlm_stack_stall *sc;

	if (!crash || !*crash)
		kunit_skip(test, "reports a bug: scripts/kunit-stack.sh boots it alone with bqlm_stack.crash=NAME");
	if (!strcmp(crash, "ncm-flush-stop")) {
		const struct bqlm_stack_usbnet_ops *ops = bqlm_stack_variant(NCM_STOP_BUGGY);

		KUNIT_ASSERT_NOT_NULL(test, ops);
		bqlm_stack_ncm_flush_stop_run(test, ops, true);
		KUNIT_FAIL(test, "ncm-flush-stop: no dql_completed() BUG_ON() on %s",
			   ops->name);
		return;
	}
	sc = bqlm_stack_stall(crash);
	KUNIT_ASSERT_NOT_NULL_MSG(test, sc, "no scenario %s", crash);
	bqlm_stack_stall_run(test, sc);
}

static struct kunit_case bqlm_stack_usbnet_cases[] = {
	KUNIT_CASE_PARAM_ATTR(usbnet_ecm_claims, bqlm_stack_buses_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(usbnet_ncm_claims, bqlm_stack_buses_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(usbnet_ncm_flush_drops),
	KUNIT_CASE_PARAM_ATTR(usbnet_ifdown_under_load,
			      bqlm_stack_ifdown_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(usbnet_v1_ifdown_crash),
	KUNIT_CASE(usbnet_avoid_unlink_stalled_ifdown),
	KUNIT_CASE(usbnet_avoid_unlink_disconnect),
	KUNIT_CASE_SLOW(usbnet_finding_crash),
	KUNIT_CASE(usbnet_ncm_flush_stop),
	{}
};

BQLM_KUNIT_SUITE(bqlm_stack_usbnet, bqlm_stack_usbnet_cases);
