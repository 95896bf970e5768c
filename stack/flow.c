// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the traffic of the stack suites (docs/stack.md): a saturating
 * bulk flow paced at a fixed rate, as iperf3's UDP sender, and two probes,
 * as the seed's prioritised ping: one in pfifo_fast's band 0 (priority
 * TC_PRIO_INTERACTIVE) and one in the bulk flow's band. Every frame goes
 * through dev_queue_xmit(), and so through the real qdisc; a packet
 * handler on the receiving net device stamps its arrival. Time is
 * bqlm_stack_now(), virtual under time-travel=inf-cpu.
 */
#include <linux/etherdevice.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <net/sch_generic.h>

#include "stack.h"

/**
 * bqlm_stack_now() - ktime_get_ns(), without moving virtual time
 *
 * Under time-travel=inf-cpu, UML's clocksource moves the virtual clock by
 * 256 ns at every read from process context with interrupts on (so that
 * a program polling the clock sees it move); read with interrupts off,
 * it does not. The suites' threads read it often (every frame, every
 * read of the tun reader): they must not make time pass.
 *
 * Return: CLOCK_MONOTONIC now, in ns.
 */
u64 bqlm_stack_now(void)
{
	unsigned long flags;
	u64 t;

	local_irq_save(flags);
	t = ktime_get_ns();
	local_irq_restore(flags);
	return t;
}

/**
 * bqlm_stack_sleep_until() - sleep to an absolute time
 * @t_ns: bqlm_stack_now() to wake at (no slack)
 */
void bqlm_stack_sleep_until(u64 t_ns)
{
	ktime_t t = ns_to_ktime(t_ns);

	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_hrtimeout_range(&t, 0, HRTIMER_MODE_ABS);
}

/**
 * bqlm_stack_mbps_x100() - a rate in Mbit/s, times 100
 * @bytes: bytes moved
 * @ns: in this time
 *
 * Return: 100 x bytes x 8 / (ns / 1000), 0 for a time of 0.
 */
u64 bqlm_stack_mbps_x100(u64 bytes, u64 ns)
{
	return ns ? div64_u64(bytes * 800000, ns) : 0;
}

/**
 * bqlm_stack_frame() - a test frame
 * @dev: the net device it is sent from
 * @dst: destination MAC address; NULL for a frame without an Ethernet
 *	header (a tun device's IP packets)
 * @len: frame length, with the Ethernet header if any (at least the
 *	headers)
 * @kind: BQLM_STACK_BULK, _PRIO or _SAME
 * @seq: its sequence number
 * @priority: skb->priority (pfifo_fast's band)
 *
 * Return: the skb, stamped now, or NULL.
 */
struct sk_buff *bqlm_stack_frame(struct net_device *dev, const u8 *dst,
				 unsigned int len, u32 kind, u32 seq,
				 u32 priority)
{
	unsigned int head = LL_RESERVED_SPACE(dev), hlen = dst ? ETH_HLEN : 0;
	struct bqlm_stack_hdr *h;
	struct ethhdr *eth;
	struct sk_buff *skb;

	if (len < hlen + sizeof(*h))
		return NULL;
	skb = alloc_skb(head + len + dev->needed_tailroom, GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, head);
	skb_reset_mac_header(skb);
	if (dst) {
		eth = skb_put(skb, ETH_HLEN);
		ether_addr_copy(eth->h_dest, dst);
		ether_addr_copy(eth->h_source, dev->dev_addr);
		eth->h_proto = htons(BQLM_STACK_ETHERTYPE);
	}
	skb_set_network_header(skb, hlen);
	h = skb_put_zero(skb, len - hlen);
	h->magic = htonl(BQLM_STACK_MAGIC);
	h->kind = kind;
	h->seq = seq;
	skb->protocol = htons(BQLM_STACK_ETHERTYPE);
	skb->dev = dev;
	skb->priority = priority;
	h->t_ns = bqlm_stack_now();
	return skb;
}

/* the packet handler of a flow */
struct bqlm_stack_rx {
	struct packet_type pt;
	struct bqlm_stack_flow *f;
};

static void bqlm_stack_lat_add(struct bqlm_stack_lat *l, u64 ns)
{
	if (l->n < l->max)
		l->ns[l->n++] = ns;
}

/**
 * bqlm_stack_flow_rx() - count a received frame
 * @f: the flow (bqlm_stack_flow_init())
 * @hdr: the frame's payload header (after the Ethernet header, if any)
 * @frame_len: the frame's length
 *
 * Called where the frames arrive, for every frame; frames that are not the
 * flow's are ignored.
 *
 * Return: whether the frame was the flow's.
 */
bool bqlm_stack_flow_rx(struct bqlm_stack_flow *f,
			const struct bqlm_stack_hdr *hdr, unsigned int frame_len)
{
	u64 now = bqlm_stack_now();
	struct bqlm_stack_hdr h = *hdr;

	if (h.magic != htonl(BQLM_STACK_MAGIC))
		return false;
	switch (h.kind) {
	case BQLM_STACK_BULK:
		f->rx_total++;
		if (now >= f->t_warm && now < f->t_end) {
			f->rx_frames++;
			f->rx_bytes += frame_len;
		}
		break;
	case BQLM_STACK_PRIO:
		if (h.t_ns >= f->t_warm)
			bqlm_stack_lat_add(&f->prio, now - h.t_ns);
		break;
	case BQLM_STACK_SAME:
		if (h.t_ns >= f->t_warm)
			bqlm_stack_lat_add(&f->same, now - h.t_ns);
		break;
	default:
		return false;
	}
	return true;
}

static int bqlm_stack_rcv(struct sk_buff *skb, struct net_device *dev,
			  struct packet_type *pt, struct net_device *orig)
{
	struct bqlm_stack_rx *rx = container_of(pt, struct bqlm_stack_rx, pt);
	struct bqlm_stack_hdr h;

	if (!skb_copy_bits(skb, 0, &h, sizeof(h)))
		bqlm_stack_flow_rx(rx->f, &h, skb->len + ETH_HLEN);
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

/* xorshift64*: the probes' phase jitter, from a fixed seed */
static u64 bqlm_stack_rand(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static int bqlm_stack_send(struct bqlm_stack_flow_cfg *cfg, u32 kind,
			   u32 seq, unsigned int len, u32 prio)
{
	struct sk_buff *skb;

	skb = bqlm_stack_frame(cfg->dev, cfg->dst, len, kind, seq, prio);
	if (!skb)
		return -ENOMEM;
	return dev_queue_xmit(skb);
}

/**
 * bqlm_stack_flow_init() - a flow's figures, empty, and their room
 * @f: filled in; bqlm_stack_flow_free() it after
 * @cfg: the flow it will measure
 *
 * Return: 0 or -ENOMEM.
 */
int bqlm_stack_flow_init(struct bqlm_stack_flow *f,
			 const struct bqlm_stack_flow_cfg *cfg)
{
	unsigned int n = div64_u64(cfg->duration_ns, cfg->probe_ns) + 2;

	memset(f, 0, sizeof(*f));
	f->prio.ns = kcalloc(n, sizeof(u64), GFP_KERNEL);
	f->same.ns = kcalloc(n, sizeof(u64), GFP_KERNEL);
	if (!f->prio.ns || !f->same.ns) {
		bqlm_stack_flow_free(f);
		return -ENOMEM;
	}
	f->prio.max = n;
	f->same.max = n;
	f->t_warm = U64_MAX;
	f->t_end = U64_MAX;
	return 0;
}

/**
 * bqlm_stack_flow_run() - run a flow to its end and measure it
 * @cfg: what to send, where, how long
 * @f: its figures (bqlm_stack_flow_init())
 * @midway: if not NULL, called once half-way through (from the sender,
 *	between two ticks)
 * @tick: if not NULL, called at each wake-up, after the frames due
 * @arg: for @midway, @tick and @cfg->idle
 *
 * The bulk flow sends frame n at n / @cfg->rate after the start; the
 * probes go every @cfg->probe_ns plus a jitter of up to a tenth of it.
 * Frames and probes go in the order they fall due; the sender sleeps
 * until the next one (at least @cfg->tick_ns, if not 0, between two
 * wake-ups: the frames due then go together). Once the time is over, it waits until @cfg->idle() says
 * nothing is queued any more (at most @cfg->drain_ns), and 10 ms more for
 * the last frames to be received, then stops receiving.
 *
 * Return: 0, or -ETIMEDOUT if the queues did not drain.
 */
int bqlm_stack_flow_run(const struct bqlm_stack_flow_cfg *cfg,
			struct bqlm_stack_flow *f,
			void (*midway)(void *arg), void (*tick)(void *arg),
			void *arg)
{
	struct bqlm_stack_flow_cfg c = *cfg;
	struct bqlm_stack_rx rx = { .f = f };
	u64 t0, now, t_bulk, next_probe, wake, due;
	u64 seed = 0x9e3779b97f4a7c15ULL;
	bool mid = !midway;
	u32 seq = 0;
	int ret;

	t0 = bqlm_stack_now();
	f->t_warm = t0 + c.warmup_ns;
	f->t_end = t0 + c.duration_ns;
	f->window_ns = c.duration_ns - c.warmup_ns;
	rx.pt.type = htons(BQLM_STACK_ETHERTYPE);
	rx.pt.dev = c.rx;
	rx.pt.func = bqlm_stack_rcv;
	if (c.rx)
		dev_add_pack(&rx.pt);

	next_probe = t0 + bqlm_stack_rand(&seed) % c.probe_ns;
	for (now = t0; now < f->t_end; now = bqlm_stack_now()) {
		/* what fell due by now, in the order it fell due */
		for (;;) {
			t_bulk = t0 + mul_u64_u64_div_u64(f->sent,
							  1000 * NSEC_PER_SEC,
							  c.rate);
			if (t_bulk <= now && t_bulk <= next_probe) {
				ret = bqlm_stack_send(&c, BQLM_STACK_BULK, seq++,
						      c.frame, 0);
				f->sent++;
				if (ret == NET_XMIT_DROP)
					f->qdisc_drops++;
				else if (ret)
					f->other_drops++;
			} else if (next_probe <= now) {
				if (now >= f->t_warm) {
					f->prio.warm_sent++;
					f->same.warm_sent++;
				}
				ret = bqlm_stack_send(&c, BQLM_STACK_PRIO,
						      f->prio.sent++,
						      c.probe_frame,
						      TC_PRIO_INTERACTIVE);
				if (ret)
					f->prio.drops++;
				ret = bqlm_stack_send(&c, BQLM_STACK_SAME,
						      f->same.sent++,
						      c.probe_frame, 0);
				if (ret)
					f->same.drops++;
				next_probe += c.probe_ns +
					      bqlm_stack_rand(&seed) %
					      (c.probe_ns / 10 + 1);
			} else {
				break;
			}
		}
		if (tick)
			tick(arg);
		if (!mid && now >= t0 + c.duration_ns / 2) {
			mid = true;
			midway(arg);
		}
		wake = min(t_bulk, next_probe);
		if (c.tick_ns)
			wake = max(wake, now + c.tick_ns);
		bqlm_stack_sleep_until(wake);
	}
	ret = 0;
	for (due = 0; c.idle && !c.idle(arg); due += NSEC_PER_MSEC) {
		if (due >= c.drain_ns) {
			ret = -ETIMEDOUT;
			break;
		}
		bqlm_stack_sleep_until(bqlm_stack_now() + NSEC_PER_MSEC);
	}
	bqlm_stack_sleep_until(bqlm_stack_now() + (c.idle ? 10 * NSEC_PER_MSEC :
							 c.drain_ns));
	if (c.rx)
		dev_remove_pack(&rx.pt);	/* synchronize_net() */
	return ret;
}

/**
 * bqlm_stack_flow_free() - free what bqlm_stack_flow_run() allocated
 * @f: the flow
 */
void bqlm_stack_flow_free(struct bqlm_stack_flow *f)
{
	kfree(f->prio.ns);
	kfree(f->same.ns);
	f->prio.ns = NULL;
	f->same.ns = NULL;
}

static int bqlm_stack_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * bqlm_stack_pct() - percentiles of a probe flow (nearest rank)
 * @l: the latencies; sorted in place
 * @p: filled in, all 0 if no probe arrived
 */
void bqlm_stack_pct(struct bqlm_stack_lat *l, struct bqlm_stack_pct *p)
{
	memset(p, 0, sizeof(*p));
	if (!l->n)
		return;
	sort(l->ns, l->n, sizeof(u64), bqlm_stack_cmp_u64, NULL);
	p->p50 = bqlm_stack_rank(l, 50);
	p->p90 = bqlm_stack_rank(l, 90);
	p->p99 = bqlm_stack_rank(l, 99);
	p->max = l->ns[l->n - 1];
}

/**
 * bqlm_stack_rank() - a percentile of sorted latencies (nearest rank)
 * @l: sorted latencies, at least one
 * @pct: 0..100
 *
 * Return: the smallest latency with at least @pct percent at or below it.
 */
u64 bqlm_stack_rank(const struct bqlm_stack_lat *l, unsigned int pct)
{
	unsigned int i = DIV_ROUND_UP(l->n * pct, 100);

	return l->ns[i ? i - 1 : 0];
}

/**
 * bqlm_stack_qdisc_qlen() - the packets in a device's first qdisc
 * @dev: the device; its transmit queue 0's qdisc is read under RCU
 *
 * Return: the qdisc's packet count, 0 if it has none.
 */
unsigned int bqlm_stack_qdisc_qlen(struct net_device *dev)
{
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);
	unsigned int qlen = 0;
	struct Qdisc *q;

	rcu_read_lock();
	q = rcu_dereference(txq->qdisc);
	if (q)
		qlen = qdisc_qlen_sum(q);
	rcu_read_unlock();
	return qlen;
}

/**
 * bqlm_stack_cdf() - the CDF of sorted latencies, as the figures print it
 * @l: sorted latencies (bqlm_stack_pct())
 * @buf: " MIN P5 P10 ... P100", in ns
 * @size: @buf's size
 *
 * Return: false, and @buf empty, if no probe arrived.
 */
bool bqlm_stack_cdf(const struct bqlm_stack_lat *l, char *buf, size_t size)
{
	int len = 0, i;

	buf[0] = '\0';
	if (!l->n)
		return false;
	for (i = 0; i <= 100; i += 5) {
		u64 ns = i ? bqlm_stack_rank(l, i) : l->ns[0];

		len += scnprintf(buf + len, size - len, " %llu", ns);
	}
	return true;
}
