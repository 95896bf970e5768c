// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - KUnit suite bqlm_stack_tun: the 2019 tun stop/wake experiment
 * on the real tun.c, in virtual time (docs/stack.md).
 *
 * A tun device (IFF_TUN, IFF_NO_PI; IFF_BACKPRESSURE on the variants that
 * have it) is made as TUNSETIFF makes it, its ring sized through
 * tx_queue_len as "ip link set txqueuelen" sizes it. A sender pushes
 * 1428-byte IP packets (netperf UDP_STREAM's 1400 bytes) at a fixed
 * 1.1 Gbit/s through dev_queue_xmit() and pfifo_fast, with the band-0 and
 * same-band probes; an in-kernel reader read()s the queue file and needs
 * the packet's time at its own rate before it reads again: 1 Gbit/s (a
 * slower reader, as netperf's receiver was) or 2 Gbit/s (a faster one).
 * Counted: sent, delivered, dropped at the ring (tx_dropped), dropped by
 * the qdisc, held in the qdisc and the ring when the sender stops.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sch_generic.h>

#include "../kunit/bqlm_kunit.h"
#include "stack.h"

/* net/core/dev.h: what SIOCSIFTXQLEN and "ip link set txqueuelen" call */
int dev_change_tx_queue_len(struct net_device *dev, unsigned long new_len);

#define TUN_PACKET	1428	/* IPv4 20 + UDP 8 + 1400 */
#define TUN_SENDER_BPS	1100000000ULL

static const struct bqlm_stack_tun_ops *const bqlm_stack_tun_variants[] = {
	&bqlm_stack_stock_ops, &bqlm_stack_stop_2019_ops,
	&bqlm_stack_backpressure_ops, &bqlm_stack_backpressure_room_ops,
};

enum { T_STOCK, T_STOP_2019, T_BP, T_BP_ROOM, T_NR };

struct bqlm_stack_tun_run {
	struct kunit *test;
	const struct bqlm_stack_tun_ops *ops;
	unsigned int ring;
	u64 reader_bps;
	struct file *file;
	struct net_device *dev;
	struct task_struct *reader;
	struct bqlm_stack_flow f;
	struct bqlm_stack_pct prio, same;
	/* the reader's */
	u64 delivered, others, read_errors;
	/* at the end */
	u64 ring_drops, sent_all, qdisc_drops_all;
	unsigned int held_qdisc, held_ring, max_qdisc, max_ring, batch;
	u64 read_mbps_x100;
	bool stopped_seen;
};

/* the reader: read(), then the packet's time at its rate, and again */
static int bqlm_stack_tun_reader(void *arg)
{
	struct bqlm_stack_tun_run *r = arg;
	u64 next = 0, now, t;
	struct kiocb kiocb;
	struct iov_iter it;
	struct kvec kv;
	ssize_t n;
	void *buf;

	buf = kmalloc(2048, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	allow_signal(SIGINT);
	while (!kthread_should_stop() && !signal_pending(current)) {
		kv.iov_base = buf;
		kv.iov_len = 2048;
		init_sync_kiocb(&kiocb, r->file);
		iov_iter_kvec(&it, ITER_DEST, &kv, 1, kv.iov_len);
		t = bqlm_stack_now();
		n = r->ops->read_iter(&kiocb, &it);	/* blocks */
		now = bqlm_stack_now();
		if (n < 0) {
			if (n != -ERESTARTSYS)
				r->read_errors++;
			break;
		}
		if (n >= sizeof(struct bqlm_stack_hdr) &&
		    bqlm_stack_flow_rx(&r->f, buf, n))
			r->delivered++;
		else
			r->others++;	/* the stack's own (IGMP, ...) */
		/*
		 * The reader's own clock: the next read is one packet time
		 * after this one began, or after it returned if it had to
		 * wait for a packet. (Virtual time has a 256-ns grain, so a
		 * wake-up is up to 256 ns late: not counted against it.)
		 */
		if (now > t || !next)
			next = now;
		next += div64_u64((u64)n * 8 * NSEC_PER_SEC, r->reader_bps);
		bqlm_stack_sleep_until(next);
	}
	kfree(buf);
	/* kthread_stop() comes after the signal */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static void bqlm_stack_tun_tick(void *arg)
{
	struct bqlm_stack_tun_run *r = arg;

	r->held_qdisc = bqlm_stack_qdisc_qlen(r->dev);
	r->held_ring = r->ops->ring_count(r->file);
	r->max_qdisc = max(r->max_qdisc, r->held_qdisc);
	r->max_ring = max(r->max_ring, r->held_ring);
	if (netif_tx_queue_stopped(netdev_get_tx_queue(r->dev, 0)))
		r->stopped_seen = true;
}

static bool bqlm_stack_tun_idle(void *arg)
{
	struct bqlm_stack_tun_run *r = arg;

	return !bqlm_stack_qdisc_qlen(r->dev) && !r->ops->ring_count(r->file);
}

static int bqlm_stack_tun_up(struct bqlm_stack_tun_run *r)
{
	struct ifreq ifr;
	int ret, ms;

	r->file = kzalloc(sizeof(*r->file), GFP_KERNEL);
	if (!r->file)
		return -ENOMEM;
	ret = r->ops->open(NULL, r->file);
	if (ret) {
		kfree(r->file);
		r->file = NULL;
		return ret;
	}
	ret = register_netdevice_notifier(r->ops->notifier);
	if (ret)
		return ret;
	memset(&ifr, 0, sizeof(ifr));
	strscpy(ifr.ifr_name, "bqlmtun%d", IFNAMSIZ);
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI | r->ops->iff_backpressure;
	rtnl_lock();
	ret = r->ops->set_iff(&init_net, r->file, &ifr);
	if (!ret) {
		r->dev = __dev_get_by_name(&init_net, ifr.ifr_name);
		if (r->dev)
			dev_hold(r->dev);
		else
			ret = -ENODEV;
	}
	/* the ring follows tx_queue_len (tun's notifier), as the qdisc's bands */
	if (!ret)
		ret = dev_change_tx_queue_len(r->dev, r->ring);
	if (!ret)
		ret = dev_open(r->dev, NULL);
	rtnl_unlock();
	if (ret)
		return ret;
	for (ms = 0; ms < 1000; ms++) {
		if (rcu_access_pointer(netdev_get_tx_queue(r->dev, 0)->qdisc) !=
		    &noop_qdisc)
			break;
		bqlm_stack_sleep_until(bqlm_stack_now() + NSEC_PER_MSEC);
	}
	r->batch = r->ops->batch(r->file);
	return ms < 1000 ? 0 : -ENOLINK;
}

static void bqlm_stack_tun_down(struct bqlm_stack_tun_run *r)
{
	if (r->reader) {
		send_sig(SIGINT, r->reader, 1);
		kthread_stop(r->reader);
		put_task_struct(r->reader);
		r->reader = NULL;
	}
	if (r->dev) {
		dev_put(r->dev);
		r->dev = NULL;
	}
	if (r->file) {
		/* the last queue file: tun_detach() unregisters the device */
		r->ops->release(NULL, r->file);
		kfree(r->file);
		r->file = NULL;
		unregister_netdevice_notifier(r->ops->notifier);
	}
}

static void bqlm_stack_tun_print_cdf(struct bqlm_stack_tun_run *r)
{
	char buf[512];

	if (bqlm_stack_cdf(&r->f.prio, buf, sizeof(buf)))
		kunit_info(r->test, "bqlm_stack: cdf tun ring%u reader%llu %s prio%s",
			   r->ring, div_u64(r->reader_bps, 1000000),
			   r->ops->name, buf);
}

static void bqlm_stack_tun_print(struct bqlm_stack_tun_run *r)
{
	kunit_info(r->test,
		   "bqlm_stack: tun variant=%s ring=%u batch=%u reader_mbps=%llu sender_mbps=%llu sent=%llu delivered=%llu others=%llu prio_n=%u/%u ring_drops=%llu qdisc_drops=%llu held_qdisc=%u held_ring=%u max_qdisc=%u max_ring=%u read_mbps=%llu.%02llu prio_us=%llu/%llu/%llu/%llu same_us=%llu/%llu/%llu/%llu stopped=%d",
		   r->ops->name, r->ring, r->batch,
		   div_u64(r->reader_bps, 1000000),
		   div_u64(TUN_SENDER_BPS, 1000000), r->sent_all, r->delivered,
		   r->others, r->f.prio.n, r->f.prio.warm_sent,
		   r->ring_drops, r->qdisc_drops_all, r->held_qdisc,
		   r->held_ring, r->max_qdisc, r->max_ring,
		   div_u64(r->read_mbps_x100, 100), r->read_mbps_x100 % 100,
		   div_u64(r->prio.p50, 1000), div_u64(r->prio.p90, 1000),
		   div_u64(r->prio.p99, 1000), div_u64(r->prio.max, 1000),
		   div_u64(r->same.p50, 1000), div_u64(r->same.p90, 1000),
		   div_u64(r->same.p99, 1000), div_u64(r->same.max, 1000),
		   r->stopped_seen);
	bqlm_stack_tun_print_cdf(r);
}

static int bqlm_stack_tun_run(struct bqlm_stack_tun_run *r)
{
	struct bqlm_stack_flow_cfg cfg = {
		.dst		= NULL,
		.rx		= NULL,
		.frame		= TUN_PACKET,
		.probe_frame	= 84,	/* ping -s 56 without Ethernet */
		.probe_ns	= 2 * NSEC_PER_MSEC,
		.tick_ns	= 0,
		.duration_ns	= NSEC_PER_SEC,
		.warmup_ns	= NSEC_PER_SEC / 2,
		.drain_ns	= 5 * NSEC_PER_SEC,
		.idle		= bqlm_stack_tun_idle,
		/* frames per second x 1000 */
		.rate		= div64_u64(TUN_SENDER_BPS * 1000, TUN_PACKET * 8),
	};
	struct rtnl_link_stats64 st;
	int ret;

	ret = bqlm_stack_tun_up(r);
	if (ret)
		goto out;
	cfg.dev = r->dev;
	ret = bqlm_stack_flow_init(&r->f, &cfg);
	if (ret)
		goto out;
	r->reader = kthread_create(bqlm_stack_tun_reader, r, "bqlm_tun_rd");
	if (IS_ERR(r->reader)) {
		ret = PTR_ERR(r->reader);
		r->reader = NULL;
		goto out;
	}
	get_task_struct(r->reader);
	wake_up_process(r->reader);
	ret = bqlm_stack_flow_run(&cfg, &r->f, NULL, bqlm_stack_tun_tick, r);
	dev_get_stats(r->dev, &st);
	r->ring_drops = st.tx_dropped;
	r->sent_all = r->f.sent + r->f.prio.sent + r->f.same.sent;
	r->qdisc_drops_all = r->f.qdisc_drops + r->f.prio.drops +
			     r->f.same.drops;
	bqlm_stack_pct(&r->f.prio, &r->prio);
	bqlm_stack_pct(&r->f.same, &r->same);
	r->read_mbps_x100 = bqlm_stack_mbps_x100(r->f.rx_bytes, r->f.window_ns);
	bqlm_stack_tun_print(r);
out:
	bqlm_stack_tun_down(r);
	return ret;
}

/**
 * struct bqlm_stack_tun_ring - a ring and its reader
 * @desc: the parameter's name in the results
 * @ring: the ring's size (tx_queue_len)
 * @reader_bps: the reader's rate, bit/s
 */
struct bqlm_stack_tun_ring {
	const char *desc;
	unsigned int ring;
	u64 reader_bps;
};

static const struct bqlm_stack_tun_ring bqlm_stack_tun_rings[] = {
	{ .desc = "tun_ring_25_slow_reader", .ring = 25,
	  .reader_bps = 1000000000ULL },
	{ .desc = "tun_ring_500_slow_reader", .ring = 500,
	  .reader_bps = 1000000000ULL },
	{ .desc = "tun_ring_25_fast_reader", .ring = 25,
	  .reader_bps = 2000000000ULL },
	{ .desc = "tun_ring_500_fast_reader", .ring = 500,
	  .reader_bps = 2000000000ULL },
};

KUNIT_ARRAY_PARAM_DESC(bqlm_stack_tun_rings, bqlm_stack_tun_rings, desc);

/* every variant with one ring and one reader (a parameter) */
static void tun_ring_reader(struct kunit *test)
{
	const struct bqlm_stack_tun_ring *p = test->param_value;
	unsigned int ring = p->ring;
	u64 reader_bps = p->reader_bps;
	struct bqlm_stack_tun_run *runs;
	int v;

	runs = kunit_kcalloc(test, T_NR, sizeof(*runs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, runs);
	for (v = 0; v < T_NR; v++) {
		struct bqlm_stack_tun_run *r = &runs[v];
		bool bp = v == T_BP || v == T_BP_ROOM;

		r->test = test;
		r->ops = bqlm_stack_tun_variants[v];
		r->ring = ring;
		r->reader_bps = reader_bps;
		KUNIT_ASSERT_EQ_MSG(test, bqlm_stack_tun_run(r), 0,
				    "tun %s, ring %u", r->ops->name, ring);
		KUNIT_EXPECT_EQ(test, r->read_errors, 0);
		KUNIT_EXPECT_EQ(test, r->f.other_drops, 0);
		/* nothing lost or invented: sent = dropped + delivered */
		KUNIT_EXPECT_EQ_MSG(test, r->sent_all,
				    r->qdisc_drops_all + r->ring_drops + r->delivered,
				    "tun %s, ring %u: sent %llu, qdisc drops %llu, ring drops %llu, delivered %llu",
				    r->ops->name, ring, r->sent_all,
				    r->qdisc_drops_all, r->ring_drops, r->delivered);
		if (reader_bps > TUN_SENDER_BPS) {
			/* a faster reader: nothing dropped anywhere */
			KUNIT_EXPECT_EQ(test, r->ring_drops, 0);
			KUNIT_EXPECT_EQ(test, r->qdisc_drops_all, 0);
			continue;
		}
		/* a slower reader reads at its full rate */
		KUNIT_EXPECT_GE(test, r->read_mbps_x100 * 1000000,
				r->reader_bps * 99);
		if (bp) {
			/* IFF_BACKPRESSURE: the qdisc drops, never the ring */
			KUNIT_EXPECT_EQ(test, r->ring_drops, 0);
			KUNIT_EXPECT_GT(test, r->f.qdisc_drops, 0);
		} else if (v == T_STOCK) {
			/* the ring drops; the queue never stops */
			KUNIT_EXPECT_GT(test, r->ring_drops, 0);
			KUNIT_EXPECT_EQ(test, r->qdisc_drops_all, 0);
			KUNIT_EXPECT_FALSE(test, r->stopped_seen);
		} else if (r->batch == 1) {
			/*
			 * the 2019 experiment: with a consumer batch of 1
			 * (rings below 32) every read frees the slot the
			 * woken producer needs: no ring drop
			 */
			KUNIT_EXPECT_EQ(test, r->ring_drops, 0);
			KUNIT_EXPECT_GT(test, r->f.qdisc_drops, 0);
		} else {
			/*
			 * with a batch of 16 a read frees no slot until the
			 * batch is done: the woken producer finds the ring
			 * full and drops, as stock does (bqlm sim predicted
			 * it, docs/sim.md)
			 */
			KUNIT_EXPECT_GT(test, r->ring_drops * 2,
					runs[T_STOCK].ring_drops);
		}
	}
	for (v = 0; v < T_NR; v++)
		bqlm_stack_flow_free(&runs[v].f);
}

static struct kunit_case bqlm_stack_tun_cases[] = {
	KUNIT_CASE_PARAM_ATTR(tun_ring_reader,
			      bqlm_stack_tun_rings_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

BQLM_KUNIT_SUITE(bqlm_stack_tun, bqlm_stack_tun_cases);
