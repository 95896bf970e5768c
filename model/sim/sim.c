// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - discrete-event timing simulation of the usbnet transmit path
 * over the BQL queue layer model (see <bqlm/sim.h> and docs/sim.md).
 *
 * The driver is the model the explorer runs: model/usbnet/usbnet.c (with
 * model/kernel/netdevice.c's BQL layer and
 * model/kernel/dynamic_queue_limits.c's DQL), or model/tun/tun.c on
 * model/kernel/ptr_ring.c, configured with an unbounded packet stream and
 * enough recycled skb slots or packet ids, its invariants checked as it runs.
 * The simulator is its environment: the qdisc, the USB host controller and bus,
 * the adapter's FIFO and link, the interrupt and the bh scheduling, tun's
 * reader, the traffic.
 *
 * Each part has at most one event pending at a time (bus transfer, link
 * frame, interrupt, bh, each sender, the sampler), so the event heap is
 * small; packets live in a preallocated pool and move between rings of
 * pool indices. Nothing is allocated after bqlm_sim_create().
 */
#include "bqlm_internal.h"
#include <bqlm/sim.h>
#include <bqlm/prng.h>
#include <bqlm/tun.h>

/* Ethernet: preamble + SFD 8, inter-frame gap 12, FCS 4, minimum frame 64 */
#define BQLM_SIM_ETH_OVERHEAD	20
#define BQLM_SIM_ETH_FCS	4
#define BQLM_SIM_ETH_MIN	64
#define BQLM_SIM_ETH_HLEN	14

/* The events; each part has at most one pending. */
enum {
	BQLM_SIM_EV_BULK,	/* the bulk sender's next packet (UDP) */
	BQLM_SIM_EV_ACK,	/* the oldest outstanding ack (TCP-like) */
	BQLM_SIM_EV_PING,	/* the next ping */
	BQLM_SIM_EV_BUS,	/* the bulk-out transfer in progress ends */
	BQLM_SIM_EV_IRQ,	/* the host controller's completion interrupt */
	BQLM_SIM_EV_BH,		/* usbnet_bh() runs */
	BQLM_SIM_EV_LINK,	/* the frame on the wire ends */
	BQLM_SIM_EV_SAMPLE,	/* time-series sample */
	BQLM_SIM_EV_TICK,	/* a frame-scheduled bus delivers (--bus-tick) */
	BQLM_SIM_NR_EV
};

#define BQLM_SIM_NONE	UINT_MAX

struct bqlm_sim_pkt {
	u64 t_enq;
	unsigned int len;
	unsigned int urb_len;
	unsigned int skb;
	bool ping;
};

/* A FIFO of unsigned ints (pool indices or lengths), fixed capacity. */
struct bqlm_sim_ring {
	unsigned int *slot;
	unsigned int head;
	unsigned int n;
	unsigned int cap;
};

struct bqlm_sim {
	struct bqlm_sim_cfg cfg;
	struct bqlm_evq evq;
	struct bqlm_prng prng;
	u64 now;
	u64 digest;
	u64 events;

	/* the packet pool */
	struct bqlm_sim_pkt *pkt;
	unsigned int *free;
	unsigned int nr_free;

	/* qdisc: band 0 and band 1 of pfifo_fast */
	struct bqlm_sim_ring band[2];

	/* the usbnet model's netdev queue, with its BQL (NULL for tun) */
	struct bqlm_txq *txq;

	/* usbnet: the model of model/usbnet/usbnet.c, its configuration */
	struct bqlm_usbnet *dev;
	struct bqlm_usbnet_cfg ucfg;
	bool bh_event;			/* the usbnet_bh() event is scheduled */

	/* host controller: URBs not yet transferred, completed ones */
	struct bqlm_sim_ring hcq;	/* pool indices */
	struct bqlm_sim_ring hc_done;	/* skb slots, interrupt not yet run */
	unsigned int hc_pkt;		/* on the bus, or BQLM_SIM_NONE */
	struct bqlm_sim_ring hc_ticked;	/* transferred, delivered at the tick */
	bool tick_event;		/* the tick event is scheduled */
	bool irq_pending;
	u64 last_irq;

	/* adapter */
	struct bqlm_sim_ring fifo;
	unsigned int fifo_used;
	unsigned int link_pkt;		/* on the wire, or BQLM_SIM_NONE */

	/* tun: the model of model/tun/tun.c, its configuration, id -> pool */
	struct bqlm_tun *tun;
	struct bqlm_tun_cfg tcfg;
	unsigned int *id_pkt;
	unsigned int nr_ids;

	/* traffic */
	u64 bulk_interval;
	unsigned int outstanding;
	struct bqlm_sim_ring acks;	/* TCP-like: ack times, low 32 bits */
	u64 *ack_time;

	/* results */
	struct bqlm_sim_ping *pings;
	unsigned int nr_pings;
	unsigned int cap_pings;
	struct bqlm_sim_sample *samples;
	unsigned int nr_samples;
	unsigned int cap_samples;
	struct bqlm_sim_result res;
};

/* ----- the event queue ------------------------------------------------ */

/**
 * bqlm_evq_init() - allocate an empty event queue
 * @q: the queue
 * @cap: how many events it can hold at once
 *
 * Return: 0 or -ENOMEM.
 */
int bqlm_evq_init(struct bqlm_evq *q, unsigned int cap)
{
	memset(q, 0, sizeof(*q));
	q->ev = bqlm_alloc(sizeof(*q->ev) * (size_t)cap);
	if (!q->ev)
		return -ENOMEM;
	q->cap = cap;
	return 0;
}

/**
 * bqlm_evq_free() - free an event queue's memory
 * @q: the queue
 */
void bqlm_evq_free(struct bqlm_evq *q)
{
	bqlm_free(q->ev);
	q->ev = NULL;
	q->n = 0;
	q->cap = 0;
}

static inline bool bqlm_evq_before(const struct bqlm_sim_event *a,
				   const struct bqlm_sim_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/**
 * bqlm_evq_push() - schedule an event
 * @q: the queue
 * @time: when, ns
 * @type: what
 * @arg: its argument
 *
 * Events run in the order of @time, and events of equal @time in the order
 * they were pushed.
 *
 * Return: 0, or -ENOSPC when the queue is full.
 */
int bqlm_evq_push(struct bqlm_evq *q, u64 time, unsigned int type,
		  unsigned int arg)
{
	struct bqlm_sim_event e = {
		.time = time, .seq = q->seq++, .type = type, .arg = arg,
	};
	unsigned int i, p;

	if (q->n >= q->cap)
		return -ENOSPC;
	i = q->n++;
	while (i) {
		p = (i - 1) / 2;
		if (!bqlm_evq_before(&e, &q->ev[p]))
			break;
		q->ev[i] = q->ev[p];
		i = p;
	}
	q->ev[i] = e;
	return 0;
}

/**
 * bqlm_evq_pop() - take the earliest event
 * @q: the queue
 * @out: receives it
 *
 * Return: 0, or -ENOENT when the queue is empty.
 */
int bqlm_evq_pop(struct bqlm_evq *q, struct bqlm_sim_event *out)
{
	struct bqlm_sim_event last;
	unsigned int i = 0, c;

	if (!q->n)
		return -ENOENT;
	*out = q->ev[0];
	last = q->ev[--q->n];
	for (;;) {
		c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && bqlm_evq_before(&q->ev[c + 1], &q->ev[c]))
			c++;
		if (!bqlm_evq_before(&q->ev[c], &last))
			break;
		q->ev[i] = q->ev[c];
		i = c;
	}
	if (q->n)
		q->ev[i] = last;
	return 0;
}

/* ----- configuration ---------------------------------------------------- */

/**
 * bqlm_usbnet_update_max_qlen() - TX_QLEN as usbnet_update_max_qlen() sets it
 * @usb: the USB speed
 * @hard_mtu: dev->hard_mtu (MTU plus the Ethernet header)
 *
 * High speed: MAX_QUEUE_MEMORY / hard_mtu; SuperSpeed: five times that;
 * anything else (or a zero @hard_mtu): 4.
 *
 * Return: the transmit queue length in URBs.
 */
unsigned int bqlm_usbnet_update_max_qlen(enum bqlm_sim_usb usb,
					 unsigned int hard_mtu)
{
	if (!hard_mtu)
		return 4;
	switch (usb) {
	case BQLM_SIM_USB2:
		return BQLM_SIM_MAX_QUEUE_MEMORY / hard_mtu;
	case BQLM_SIM_USB3:
		return 5 * BQLM_SIM_MAX_QUEUE_MEMORY / hard_mtu;
	default:
		return 4;
	}
}

/**
 * bqlm_sim_cfg_default() - the default parameters
 * @cfg: receives them
 *
 * The fixed variant, USB3, a 100 Mbit/s link, MTU 1500, the ax88179's
 * 8-byte TX header, a 24 KiB adapter FIFO, a bh delay of 10 us plus up
 * to 10 us of jitter, HZ 250, pfifo_fast with the ping in band 0, UDP at
 * 110% of the link rate, a ping every 10 ms, 10 s with 1 s of warm-up,
 * a sample every ms, seed 1; for tun, a ring of 25 and a 1 Gbit/s reader. Zero fields are derived by
 * bqlm_sim_cfg_resolve().
 */
void bqlm_sim_cfg_default(struct bqlm_sim_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->variant = BQLM_USBNET_FIXED;
	cfg->usb = BQLM_SIM_USB3;
	cfg->link_bps = 100000000ULL;
	cfg->mtu = 1500;
	cfg->fixup_hdr = 8;
	cfg->fifo_bytes = 24 * 1024;
	cfg->bh_ns = 10000;
	cfg->bh_jitter_ns = 10000;
	cfg->hz = 250;
	cfg->ring = 25;
	cfg->reader_bps = 1000000000ULL;
	cfg->prio_ping = true;
	cfg->traffic = BQLM_SIM_UDP;
	cfg->window = 256;
	cfg->ack_ns = 100000;
	cfg->ping_len = 98;
	cfg->ping_ns = 10 * BQLM_NSEC_PER_MSEC;
	cfg->duration_ns = 10 * BQLM_NSEC_PER_SEC;
	cfg->warmup_ns = BQLM_NSEC_PER_SEC;
	cfg->sample_ns = BQLM_NSEC_PER_MSEC;
	cfg->seed = 1;
}

/*
 * The tun model's configuration the simulation runs @cfg's variant with
 * (see bqlm_sim_tun_create()); -EINVAL for a design it cannot run: one
 * that needs a consumer other than a blocking read(), or a bounded run
 * (the BQL study).
 */
static int bqlm_sim_tun_cfg(const struct bqlm_sim_cfg *cfg,
			    struct bqlm_tun_cfg *t)
{
	bqlm_tun_cfg_default(t, cfg->tun_variant);
	if (t->reader != BQLM_TUN_READ)
		return -EINVAL;
	t->mm = BQLM_MM_SC;
	t->queues = 1;
	t->cpus = 1;
	t->packets = 0;
	t->ring = cfg->ring;
	t->qdisc = true;
	t->backpressure = true;
	t->detaches = 0;
	t->set_iffs = 0;
	t->resizes = 0;
	return bqlm_tun_cfg_check(t);
}

/**
 * bqlm_sim_cfg_resolve() - derive the zero fields and validate
 * @cfg: the parameters
 *
 * Fills in @tx_qlen (usbnet_update_max_qlen()), @usb_bps (USB2: 13 bulk
 * packets of 512 bytes per 125 us microframe, 425.984 Mbit/s; USB3:
 * 5 Gbit/s after 8b/10b coding, 4 Gbit/s), @maxpacket, @irq_ns (xHCI
 * 40 us, EHCI 125 us), @len and @udp_bps.
 *
 * Return: 0, or -EINVAL when a parameter is out of range.
 */
int bqlm_sim_cfg_resolve(struct bqlm_sim_cfg *cfg)
{
	unsigned int hard_mtu = cfg->mtu + BQLM_SIM_ETH_HLEN;
	struct bqlm_tun_cfg tcfg;

	if ((unsigned int)cfg->variant >= bqlm_usbnet_nr_variants())
		return -EINVAL;
	if (cfg->usb != BQLM_SIM_USB2 && cfg->usb != BQLM_SIM_USB3)
		return -EINVAL;
	if (cfg->mtu < 68 || cfg->mtu > 9000)
		return -EINVAL;
	if (!cfg->tx_qlen)
		cfg->tx_qlen = bqlm_usbnet_update_max_qlen(cfg->usb, hard_mtu);
	if (!cfg->usb_bps)
		cfg->usb_bps = cfg->usb == BQLM_SIM_USB2 ?
			       13ULL * 512 * 8 * 8000 : 4000000000ULL;
	if (!cfg->maxpacket)
		cfg->maxpacket = cfg->usb == BQLM_SIM_USB2 ? 512 : 1024;
	if (!cfg->irq_ns)
		cfg->irq_ns = cfg->usb == BQLM_SIM_USB2 ? 125000 : 40000;
	if (cfg->dev != BQLM_SIM_USBNET && cfg->dev != BQLM_SIM_TUN)
		return -EINVAL;
	if (!cfg->txqueuelen)
		cfg->txqueuelen = cfg->dev == BQLM_SIM_TUN ? cfg->ring : 1000;
	if (!cfg->len)
		cfg->len = cfg->dev == BQLM_SIM_TUN ? 1428 : hard_mtu;
	if (!cfg->udp_bps && cfg->dev == BQLM_SIM_TUN)
		cfg->udp_bps = cfg->reader_bps +
			       div64_u64(cfg->reader_bps, 10);
	if (!cfg->udp_bps)
		cfg->udp_bps = cfg->link_bps + div64_u64(cfg->link_bps, 10);
	if (cfg->dev == BQLM_SIM_TUN &&
	    (cfg->ring < 2 || cfg->ring > BQLM_SIM_MAX_QLEN ||
	     cfg->reader_bps < 1000000 || cfg->reader_bps > 10000000000ULL ||
	     bqlm_sim_tun_cfg(cfg, &tcfg)))
		return -EINVAL;
	if (cfg->link_bps < 1000000 || cfg->link_bps > 10000000000ULL ||
	    cfg->usb_bps < 1000000 || cfg->usb_bps > 20000000000ULL ||
	    cfg->udp_bps < 1000 || cfg->udp_bps > 1000000000000ULL)
		return -EINVAL;
	if (cfg->tx_qlen > BQLM_SIM_MAX_QLEN || !cfg->txqueuelen ||
	    cfg->txqueuelen > BQLM_SIM_MAX_QLEN)
		return -EINVAL;
	if (cfg->len < 60 || cfg->len > hard_mtu || cfg->ping_len < 60 ||
	    cfg->ping_len > hard_mtu)
		return -EINVAL;
	/* the FIFO must hold a whole URB's frame, or the bus deadlocks */
	if (cfg->fifo_bytes < hard_mtu || cfg->fifo_bytes > BQLM_SIM_MAX_FIFO)
		return -EINVAL;
	if (cfg->hz < 100 || cfg->hz > 1000 || cfg->maxpacket < 8 ||
	    cfg->fixup_hdr > 64)
		return -EINVAL;
	if (cfg->traffic != BQLM_SIM_UDP && cfg->traffic != BQLM_SIM_TCP)
		return -EINVAL;
	if (cfg->traffic == BQLM_SIM_TCP &&
	    (!cfg->window || cfg->window > BQLM_SIM_MAX_WINDOW ||
	     cfg->ack_ns < BQLM_NSEC_PER_USEC))
		return -EINVAL;
	if (!cfg->duration_ns || cfg->duration_ns > 600 * BQLM_NSEC_PER_SEC ||
	    cfg->warmup_ns >= cfg->duration_ns)
		return -EINVAL;
	if (cfg->ping_ns && cfg->ping_ns < 100 * BQLM_NSEC_PER_USEC)
		return -EINVAL;
	if (cfg->ping_jitter_ns > cfg->ping_ns)
		return -EINVAL;
	if (cfg->bus_tick_ns > 100 * BQLM_NSEC_PER_MSEC)
		return -EINVAL;
	if (cfg->sample_ns && cfg->sample_ns < 10 * BQLM_NSEC_PER_USEC)
		return -EINVAL;
	if (cfg->bh_ns > 100 * BQLM_NSEC_PER_MSEC ||
	    cfg->bh_jitter_ns > 100 * BQLM_NSEC_PER_MSEC ||
	    cfg->irq_ns > 100 * BQLM_NSEC_PER_MSEC)
		return -EINVAL;
	return 0;
}

/**
 * bqlm_sim_jiffies() - the jiffies value at a simulated time
 * @cfg: the parameters (@hz, @jiffies0)
 * @ns: the time
 *
 * Return: @jiffies0 plus the whole ticks of 1/@hz s elapsed by @ns.
 */
unsigned long bqlm_sim_jiffies(const struct bqlm_sim_cfg *cfg, u64 ns)
{
	return cfg->jiffies0 +
	       (unsigned long)div64_u64(ns * cfg->hz, BQLM_NSEC_PER_SEC);
}

/**
 * bqlm_sim_frame_ns() - time a frame takes on the Ethernet link
 * @cfg: the parameters (@link_bps)
 * @len: frame length without FCS
 *
 * Return: (max(@len + FCS, 64) + preamble, SFD and gap) bits at the link
 * rate, in ns, rounded down.
 */
u64 bqlm_sim_frame_ns(const struct bqlm_sim_cfg *cfg, unsigned int len)
{
	unsigned int wire = max_t(unsigned int, len + BQLM_SIM_ETH_FCS,
				  BQLM_SIM_ETH_MIN) + BQLM_SIM_ETH_OVERHEAD;

	return div64_u64((u64)wire * 8 * BQLM_NSEC_PER_SEC, cfg->link_bps);
}

/* ----- rings and the pool ----------------------------------------------- */

static int bqlm_sim_ring_init(struct bqlm_sim_ring *r, unsigned int cap)
{
	r->slot = bqlm_alloc(sizeof(*r->slot) * (size_t)cap);
	r->cap = cap;
	r->head = 0;
	r->n = 0;
	return r->slot ? 0 : -ENOMEM;
}

/*
 * Every ring is sized to the most its parameters let it hold: a push into
 * a full one is a simulator bug, counted (the run fails) and not made.
 */
static inline void bqlm_sim_ring_push(struct bqlm_sim *sim,
				      struct bqlm_sim_ring *r, unsigned int v)
{
	unsigned int i = r->head + r->n;

	if (r->n == r->cap) {
		sim->res.overflows++;
		return;
	}
	r->n++;
	if (i >= r->cap)
		i -= r->cap;
	r->slot[i] = v;
}

static inline unsigned int bqlm_sim_ring_pop(struct bqlm_sim_ring *r)
{
	unsigned int v = r->slot[r->head];

	if (++r->head == r->cap)
		r->head = 0;
	r->n--;
	return v;
}

static inline unsigned int bqlm_sim_ring_peek(const struct bqlm_sim_ring *r)
{
	return r->slot[r->head];
}

/*
 * A packet from the pool, or BQLM_SIM_NONE when it is empty: the pool is
 * sized to the most packets the parameters let live at once
 * (bqlm_sim_pool_size()), so that is a simulator bug, counted.
 */
static inline unsigned int bqlm_sim_pkt_new(struct bqlm_sim *sim,
					    unsigned int len, bool ping)
{
	unsigned int i;

	if (!sim->nr_free) {
		sim->res.overflows++;
		return BQLM_SIM_NONE;
	}
	i = sim->free[--sim->nr_free];
	if (sim->res.pkts - sim->nr_free > sim->res.pkts_max)
		sim->res.pkts_max = sim->res.pkts - sim->nr_free;
	sim->pkt[i].t_enq = sim->now;
	sim->pkt[i].len = len;
	sim->pkt[i].urb_len = 0;
	sim->pkt[i].ping = ping;
	return i;
}

static inline void bqlm_sim_pkt_free(struct bqlm_sim *sim, unsigned int i)
{
	sim->free[sim->nr_free++] = i;
}

/*
 * A random value below @n, as bqlm_prng_below() but without a 64-bit
 * modulo (which 32-bit kernels do not link).
 */
static u64 bqlm_sim_below(struct bqlm_sim *sim, u64 n)
{
	u64 r = bqlm_prng_next(&sim->prng);

	return r - div64_u64(r, n) * n;
}

static void bqlm_sim_schedule(struct bqlm_sim *sim, u64 t,
			      unsigned int type)
{
	/* at most one event per part: the heap cannot overflow */
	if (bqlm_evq_push(&sim->evq, t, type, 0))
		sim->res.dql_errors++;
}

static inline unsigned long bqlm_sim_now_jiffies(const struct bqlm_sim *sim)
{
	return bqlm_sim_jiffies(&sim->cfg, sim->now);
}

/* ----- USB bus and adapter -------------------------------------------- */

static u64 bqlm_sim_bytes_ns(u64 bytes, u64 bps)
{
	return div64_u64(bytes * 8 * BQLM_NSEC_PER_SEC, bps);
}

/* Start the next bulk-out transfer if the bus is idle and the FIFO has room. */
static void bqlm_sim_bus_kick(struct bqlm_sim *sim)
{
	unsigned int i;

	if (sim->hc_pkt != BQLM_SIM_NONE || !sim->hcq.n)
		return;
	i = bqlm_sim_ring_peek(&sim->hcq);
	/* the adapter NAKs (USB2) / sends NRDY (USB3) while it has no room */
	if (sim->fifo_used + sim->pkt[i].len > sim->cfg.fifo_bytes)
		return;
	bqlm_sim_ring_pop(&sim->hcq);
	sim->hc_pkt = i;
	/* the adapter reserves the room as the transfer starts */
	sim->fifo_used += sim->pkt[i].len;
	bqlm_sim_schedule(sim, sim->now +
			  bqlm_sim_bytes_ns(sim->pkt[i].urb_len,
					    sim->cfg.usb_bps),
			  BQLM_SIM_EV_BUS);
}

static void bqlm_sim_link_kick(struct bqlm_sim *sim);

/*
 * URB @i completed: its frame is in the adapter's FIFO, its skb waits for
 * the completion interrupt (at most one per irq interval; with a
 * frame-scheduled bus, the tick that delivered it).
 */
static void bqlm_sim_urb_done(struct bqlm_sim *sim, unsigned int i)
{
	bqlm_sim_ring_push(sim, &sim->fifo, i);
	bqlm_sim_ring_push(sim, &sim->hc_done, sim->pkt[i].skb);
	/* a frame-scheduled bus gives the URBs back at its tick */
	if (!sim->irq_pending && !sim->cfg.bus_tick_ns) {
		u64 t = sim->last_irq + sim->cfg.irq_ns;

		sim->irq_pending = true;
		bqlm_sim_schedule(sim, max_t(u64, t, sim->now),
				  BQLM_SIM_EV_IRQ);
	}
	bqlm_sim_link_kick(sim);
}

static void bqlm_sim_link_kick(struct bqlm_sim *sim)
{
	unsigned int i;

	if (sim->link_pkt != BQLM_SIM_NONE || !sim->fifo.n)
		return;
	i = bqlm_sim_ring_pop(&sim->fifo);
	sim->link_pkt = i;
	bqlm_sim_schedule(sim, sim->now +
			  bqlm_sim_frame_ns(&sim->cfg, sim->pkt[i].len),
			  BQLM_SIM_EV_LINK);
}

/* ----- usbnet ------------------------------------------------------------- */

static void bqlm_sim_drop(struct bqlm_sim *sim, unsigned int i);

/*
 * The usbnet driver is model/usbnet/usbnet.c, the code the explorer runs, with
 * the simulator as its environment: the qdisc calls its transmit path,
 * the host controller completes its URBs in order with status 0, and its
 * bh work runs when the simulator's bh event fires. Nothing interleaves
 * inside an actor here, so each runs its steps to the end; the invariants
 * of <bqlm/invariants.h> are checked after every usbnet_bh() run (a check
 * reads every skb slot) and DQL errors after every step.
 */

/* What an actor's run did: DQL errors, invariant violations. */
static void bqlm_sim_usbnet_check(struct bqlm_sim *sim, const char *where,
				  const struct bqlm_inv_step *ev, bool all)
{
	unsigned int v = 0;

	if (ev->dql_err)
		sim->res.dql_errors++;
	if (all || ev->dql_err)
		v = bqlm_usbnet_check(sim->dev, &sim->ucfg, where, ev, false,
				      NULL);
	if (v) {
		sim->res.violations++;
		sim->res.violated |= v;
	}
}

/*
 * The qdisc hands a packet to usbnet_start_xmit(): tx_fixup() prepends its
 * header, a transfer that is a multiple of maxpacket gets one byte more
 * (no FLAG_SEND_ZLP), the URB is submitted and queued on dev->txq,
 * netdev_sent_queue() (BQL variants), and the queue stops at TX_QLEN.
 * Return false, the packet not taken, when every skb slot is in use.
 */
static bool bqlm_sim_usbnet_start_xmit(struct bqlm_sim *sim, unsigned int i)
{
	struct bqlm_usbnet *dev = sim->dev;
	unsigned long before = dev->txq.state;
	struct bqlm_inv_step ev;
	unsigned int slot;
	int ret;

	slot = bqlm_usbnet_next_skb(dev, &sim->ucfg);
	if (slot >= sim->ucfg.skbs) {
		sim->res.skb_exhausted++;
		return false;
	}
	memset(&ev, 0, sizeof(ev));
	sim->ucfg.now = bqlm_sim_now_jiffies(sim);
	ret = bqlm_usbnet_start_xmit(dev, &sim->ucfg, sim->pkt[i].len, &ev);
	while (!ret && dev->xmit != BQLM_USBNET_XMIT_IDLE)
		ret = bqlm_usbnet_start_xmit(dev, &sim->ucfg, 0, &ev);
	bqlm_sim_usbnet_check(sim, "usbnet_start_xmit", &ev, false);
	if (ret || dev->skb[slot].where != BQLM_USBNET_SKB_TXQ) {
		/* cannot happen with nothing interleaving: a model error */
		sim->res.dql_errors++;
		bqlm_sim_drop(sim, i);
		return true;
	}
	sim->pkt[i].skb = slot;
	sim->pkt[i].urb_len = dev->skb[slot].len;
	bqlm_sim_ring_push(sim, &sim->hcq, i);
	sim->res.urbs++;
	if (!(before & (1UL << BQLM_QUEUE_STATE_STACK_XOFF)) &&
	    (dev->txq.state & (1UL << BQLM_QUEUE_STATE_STACK_XOFF)))
		sim->res.bql_stops++;
	if (!(before & (1UL << BQLM_QUEUE_STATE_DRV_XOFF)) &&
	    (dev->txq.state & (1UL << BQLM_QUEUE_STATE_DRV_XOFF)))
		sim->res.stops++;
	bqlm_sim_bus_kick(sim);
	return true;
}

/* ----- tun ---------------------------------------------------------------- */

/*
 * The ack of a TCP-like packet (or the notice of its loss) reaches the
 * sender @ack_ns from now; times are pushed in order, so a ring will do.
 */
static void bqlm_sim_ack_later(struct bqlm_sim *sim)
{
	u64 t = sim->now + sim->cfg.ack_ns;

	sim->ack_time[(sim->acks.head + sim->acks.n) % sim->acks.cap] = t;
	sim->acks.n++;
	if (sim->acks.n == 1)
		bqlm_sim_schedule(sim, t, BQLM_SIM_EV_ACK);
}

/*
 * A packet is lost: a TCP-like sender learns it one ack delay later and
 * gets its window slot back then (not at once, which would spin).
 */
static void bqlm_sim_drop(struct bqlm_sim *sim, unsigned int i)
{
	if (sim->cfg.traffic == BQLM_SIM_TCP && !sim->pkt[i].ping)
		bqlm_sim_ack_later(sim);
	bqlm_sim_pkt_free(sim, i);
}

static void bqlm_sim_tun_read_kick(struct bqlm_sim *sim);
static void bqlm_sim_qdisc_run(struct bqlm_sim *sim);

/*
 * The tun driver is model/tun/tun.c on model/kernel/ptr_ring.c, the code the
 * explorer runs, with one queue file, one producer CPU, the sequentially
 * consistent memory model and a blocking reader, an unbounded packet stream and
 * a ring of cfg->ring slots. Each actor runs its steps to the end; a packet's
 * id in the model maps to its pool index here.
 */

/*
 * What a run of tun steps did to packets, as the tun explorer checks it: a
 * packet overwritten in the ring, read twice or read without being sent
 * (skb accounting), or dropped at a full ring under IFF_BACKPRESSURE with
 * no other CPU to race with.
 */
static void bqlm_sim_tun_check(struct bqlm_sim *sim,
			       const struct bqlm_inv_step *ev)
{
	unsigned int v = 0;

	if (ev->lost || ev->twice || ev->unsent_skbs)
		v |= BQLM_CHECK_BIT(BQLM_CHECK_SKB_ACCOUNTING);
	if (ev->bp_drops)
		v |= BQLM_CHECK_BIT(BQLM_CHECK_BACKPRESSURE_DROP);
	if (v) {
		sim->res.violations++;
		sim->res.violated |= v;
	}
}

/* Is the queue stopped (DRV_XOFF, or BQL's STACK_XOFF for usbnet)? */
static bool bqlm_sim_stopped(const struct bqlm_sim *sim)
{
	if (sim->tun)
		return bqlm_tun_stopped(sim->tun, 0);
	return bqlm_netif_xmit_stopped(sim->txq);
}

/*
 * The qdisc hands a packet to tun_net_xmit(), run to its end: produce into
 * the ring, or drop at a full ring (stock; the 2019 experiment stops the
 * queue then too); the 2019 experiment and IFF_BACKPRESSURE stop the queue
 * when the produce left the ring full. Return false, the packet not taken,
 * when the model has no free packet id.
 */
static bool bqlm_sim_tun_net_xmit(struct bqlm_sim *sim, unsigned int i)
{
	struct bqlm_tun *tun = sim->tun;
	struct bqlm_inv_step ev;
	unsigned int id;
	int ret;

	memset(&ev, 0, sizeof(ev));
	ret = bqlm_tun_net_xmit(tun, &sim->tcfg, 0, &ev);
	if (ret) {
		/* -ENOSPC: every id in use (the ids are sized not to) */
		sim->res.skb_exhausted++;
		return false;
	}
	id = bqlm_tun_xmit_pkt(tun, 0);
	while (!ret && bqlm_tun_xmit_pkt(tun, 0))
		ret = bqlm_tun_net_xmit(tun, &sim->tcfg, 0, &ev);
	if (ret || !id || id > sim->nr_ids)
		sim->res.dql_errors++;	/* a model error */
	bqlm_sim_tun_check(sim, &ev);
	if (bqlm_sim_stopped(sim))
		sim->res.stops++;
	if (ret || !id || id > sim->nr_ids ||
	    bqlm_tun_pkt_where(tun, &sim->tcfg, id) == BQLM_TUN_PKT_DROPPED) {
		if (sim->pkt[i].ping)
			sim->res.ping_drops++;
		else
			sim->res.ring_drops++;
		bqlm_sim_drop(sim, i);
		return true;
	}
	sim->id_pkt[id] = i;
	sim->res.urbs++;
	bqlm_sim_tun_read_kick(sim);
	return true;
}

/*
 * The reader: tun_do_read() run to its end consumes the head of the ring
 * and makes the variant's wake (__tun_wake_queue() once half the ring was
 * consumed since the stop; the 2019 experiment after every read); the copy
 * to the reader then takes @len bits at @reader_bps (an event, like a
 * frame on a link). A wake makes the qdisc run.
 */
static void bqlm_sim_tun_read_kick(struct bqlm_sim *sim)
{
	unsigned int got[BQLM_TUN_VHOST_BATCH], nr, i = BQLM_SIM_NONE;
	struct bqlm_tun *tun = sim->tun;
	bool stopped = bqlm_tun_stopped(tun, 0);
	struct bqlm_inv_step ev;
	int ret;

	if (sim->link_pkt != BQLM_SIM_NONE || !bqlm_tun_ring_count(tun, 0))
		return;
	memset(&ev, 0, sizeof(ev));
	do {
		ret = bqlm_tun_do_read_got(tun, &sim->tcfg, 0, &ev, got, &nr);
		if (!ret && nr == 1 && got[0] && got[0] <= sim->nr_ids)
			i = sim->id_pkt[got[0]];
	} while (!ret && tun->rd[0].phase != BQLM_TUN_R_IDLE);
	bqlm_sim_tun_check(sim, &ev);
	if (ret || i == BQLM_SIM_NONE) {
		sim->res.dql_errors++;	/* a model error */
		return;
	}
	sim->link_pkt = i;
	bqlm_sim_schedule(sim, sim->now +
			  bqlm_sim_bytes_ns(sim->pkt[i].len,
					    sim->cfg.reader_bps),
			  BQLM_SIM_EV_LINK);
	if (stopped && !bqlm_tun_stopped(tun, 0))
		bqlm_sim_qdisc_run(sim);
}

/* qdisc_run(): dequeue band 0 first, while the queue is not stopped. */
static void bqlm_sim_qdisc_run(struct bqlm_sim *sim)
{
	struct bqlm_sim_ring *b;
	bool taken;

	if (sim->txq)
		sim->txq->sched_pending = false;
	while (!bqlm_sim_stopped(sim)) {
		if (sim->band[0].n)
			b = &sim->band[0];
		else if (sim->band[1].n)
			b = &sim->band[1];
		else
			break;
		/* no skb slot or id: the packet stays (a reported error) */
		if (sim->tun)
			taken = bqlm_sim_tun_net_xmit(sim,
						      bqlm_sim_ring_peek(b));
		else
			taken = bqlm_sim_usbnet_start_xmit(sim,
							   bqlm_sim_ring_peek(b));
		if (!taken)
			break;
		bqlm_sim_ring_pop(b);
	}
}

static void bqlm_sim_enqueue(struct bqlm_sim *sim, unsigned int i,
			     unsigned int band)
{
	if (i == BQLM_SIM_NONE)		/* the pool was empty (counted) */
		return;
	if (sim->band[band].n >= sim->cfg.txqueuelen) {
		if (sim->pkt[i].ping)
			sim->res.ping_drops++;
		else
			sim->res.drops++;
		bqlm_sim_drop(sim, i);
		return;
	}
	bqlm_sim_ring_push(sim, &sim->band[band], i);
	bqlm_sim_qdisc_run(sim);
}

/*
 * The host controller's completion interrupt: tx_complete() and defer_bh()
 * of every URB it finished since the last one, in order. The first skb on
 * an empty dev->done queues the bh work: its event fires after the bh
 * delay plus jitter.
 */
static void bqlm_sim_irq(struct bqlm_sim *sim)
{
	struct bqlm_usbnet *dev = sim->dev;
	struct bqlm_inv_step ev;
	unsigned int skb;
	u64 d = sim->cfg.bh_ns;

	sim->irq_pending = false;
	sim->last_irq = sim->now;
	sim->res.irqs++;
	memset(&ev, 0, sizeof(ev));
	sim->ucfg.now = bqlm_sim_now_jiffies(sim);
	while (sim->hc_done.n) {
		skb = bqlm_sim_ring_pop(&sim->hc_done);
		if (bqlm_tx_complete(dev, &sim->ucfg, skb, BQLM_USBNET_ST_OK,
				     &ev) ||
		    bqlm_defer_bh(dev, &sim->ucfg, skb, &ev))
			sim->res.dql_errors++;	/* a model error */
	}
	bqlm_sim_usbnet_check(sim, "tx_complete", &ev, false);
	if (dev->bh[BQLM_USBNET_BH_WORK].pending && !sim->bh_event) {
		if (sim->cfg.bh_jitter_ns)
			d += bqlm_sim_below(sim, sim->cfg.bh_jitter_ns);
		sim->bh_event = true;
		bqlm_sim_schedule(sim, sim->now + d, BQLM_SIM_EV_BH);
	}
}

/*
 * The bh work runs usbnet_bh(): it sums dev->done, makes one
 * netdev_completed_queue() call (BQL variants) and wakes the queue when
 * dev->txq is below TX_QLEN; then the qdisc runs if the queue layer
 * rescheduled it.
 */
static void bqlm_sim_usbnet_bh(struct bqlm_sim *sim)
{
	struct bqlm_usbnet *dev = sim->dev;
	struct bqlm_inv_step ev;
	int ret;

	sim->bh_event = false;
	if (dev->nr_done)
		sim->res.bh_runs++;
	memset(&ev, 0, sizeof(ev));
	sim->ucfg.now = bqlm_sim_now_jiffies(sim);
	ret = bqlm_usbnet_bh(dev, &sim->ucfg, BQLM_USBNET_BH_WORK, &ev);
	while (!ret && dev->bh[BQLM_USBNET_BH_WORK].phase != BQLM_USBNET_BH_IDLE)
		ret = bqlm_usbnet_bh(dev, &sim->ucfg, BQLM_USBNET_BH_WORK,
				     &ev);
	if (ret)
		sim->res.dql_errors++;	/* a model error */
	bqlm_sim_usbnet_check(sim, "usbnet_bh", &ev, true);
	if (dev->txq.sched_pending)
		bqlm_sim_qdisc_run(sim);
}

/* ----- traffic ------------------------------------------------------------ */

static void bqlm_sim_tcp_fill(struct bqlm_sim *sim)
{
	unsigned int i;

	while (sim->outstanding < sim->cfg.window) {
		i = bqlm_sim_pkt_new(sim, sim->cfg.len, false);
		if (i == BQLM_SIM_NONE)
			break;
		sim->outstanding++;
		sim->res.offered++;
		bqlm_sim_enqueue(sim, i, 1);
	}
}

static void bqlm_sim_link_done(struct bqlm_sim *sim)
{
	unsigned int i = sim->link_pkt;
	struct bqlm_sim_pkt *p = &sim->pkt[i];

	sim->link_pkt = BQLM_SIM_NONE;
	if (sim->cfg.dev == BQLM_SIM_USBNET)
		sim->fifo_used -= p->len;
	if (p->ping) {
		if (p->t_enq >= sim->cfg.warmup_ns &&
		    sim->nr_pings < sim->cap_pings) {
			sim->pings[sim->nr_pings].sent = p->t_enq;
			sim->pings[sim->nr_pings].lat = sim->now - p->t_enq;
			sim->nr_pings++;
		}
	} else {
		if (sim->now >= sim->cfg.warmup_ns) {
			sim->res.bulk_bytes += p->len;
			sim->res.bulk_pkts++;
		}
		if (sim->cfg.traffic == BQLM_SIM_TCP)
			bqlm_sim_ack_later(sim);
	}
	bqlm_sim_pkt_free(sim, i);
	if (sim->cfg.dev == BQLM_SIM_TUN) {
		bqlm_sim_tun_read_kick(sim);
		return;
	}
	bqlm_sim_link_kick(sim);
	bqlm_sim_bus_kick(sim);
}

static void bqlm_sim_ack(struct bqlm_sim *sim)
{
	sim->acks.head = (sim->acks.head + 1) % sim->acks.cap;
	sim->acks.n--;
	sim->outstanding--;
	if (sim->acks.n)
		bqlm_sim_schedule(sim, sim->ack_time[sim->acks.head],
				  BQLM_SIM_EV_ACK);
	bqlm_sim_tcp_fill(sim);
}

static void bqlm_sim_sample(struct bqlm_sim *sim)
{
	struct bqlm_sim_sample *s;

	if (sim->nr_samples < sim->cap_samples) {
		s = &sim->samples[sim->nr_samples++];
		s->t = sim->now;
		s->limit = sim->txq ? sim->txq->dql.limit : 0;
		s->inflight = sim->txq ? bqlm_dql_inflight(&sim->txq->dql) : 0;
		s->txq = sim->dev ? sim->dev->nr_txq : 0;
		s->qdisc = sim->band[0].n + sim->band[1].n;
		s->fifo = sim->tun ? bqlm_tun_ring_count(sim->tun, 0) :
			  sim->fifo_used;
	}
	bqlm_sim_schedule(sim, sim->now + sim->cfg.sample_ns,
			  BQLM_SIM_EV_SAMPLE);
}

static void bqlm_sim_dispatch(struct bqlm_sim *sim,
			      const struct bqlm_sim_event *e)
{
	unsigned int i;

	switch (e->type) {
	case BQLM_SIM_EV_BULK:
		sim->res.offered++;
		bqlm_sim_enqueue(sim, bqlm_sim_pkt_new(sim, sim->cfg.len,
						       false), 1);
		bqlm_sim_schedule(sim, sim->now + sim->bulk_interval,
				  BQLM_SIM_EV_BULK);
		break;
	case BQLM_SIM_EV_ACK:
		bqlm_sim_ack(sim);
		break;
	case BQLM_SIM_EV_PING:
		i = bqlm_sim_pkt_new(sim, sim->cfg.ping_len, true);
		bqlm_sim_enqueue(sim, i, sim->cfg.prio_ping ? 0 : 1);
		bqlm_sim_schedule(sim, sim->now + sim->cfg.ping_ns +
				  (sim->cfg.ping_jitter_ns ?
				   bqlm_sim_below(sim, sim->cfg.ping_jitter_ns) :
				   0),
				  BQLM_SIM_EV_PING);
		break;
	case BQLM_SIM_EV_BUS:
		if (sim->cfg.bus_tick_ns) {
			/* a frame-scheduled bus: delivered at the next tick */
			bqlm_sim_ring_push(sim, &sim->hc_ticked, sim->hc_pkt);
			if (!sim->tick_event) {
				u64 t = sim->cfg.bus_tick_ns;

				sim->tick_event = true;
				bqlm_sim_schedule(sim, div64_u64(sim->now + t - 1,
								 t) * t,
						  BQLM_SIM_EV_TICK);
			}
		} else {
			bqlm_sim_urb_done(sim, sim->hc_pkt);
		}
		sim->hc_pkt = BQLM_SIM_NONE;
		bqlm_sim_bus_kick(sim);
		break;
	case BQLM_SIM_EV_TICK:
		sim->tick_event = false;
		while (sim->hc_ticked.n)
			bqlm_sim_urb_done(sim,
					  bqlm_sim_ring_pop(&sim->hc_ticked));
		bqlm_sim_irq(sim);
		break;
	case BQLM_SIM_EV_IRQ:
		bqlm_sim_irq(sim);
		break;
	case BQLM_SIM_EV_BH:
		bqlm_sim_usbnet_bh(sim);
		break;
	case BQLM_SIM_EV_LINK:
		bqlm_sim_link_done(sim);
		break;
	default:
		bqlm_sim_sample(sim);
		break;
	}
}

/* ----- create, run, results ------------------------------------------ */

/**
 * bqlm_sim_destroy() - free a simulation
 * @sim: the simulation, or NULL
 */
void bqlm_sim_destroy(struct bqlm_sim *sim)
{
	if (!sim)
		return;
	bqlm_evq_free(&sim->evq);
	bqlm_free(sim->pkt);
	bqlm_free(sim->free);
	bqlm_free(sim->band[0].slot);
	bqlm_free(sim->band[1].slot);
	bqlm_free(sim->dev);
	bqlm_free(sim->hc_done.slot);
	bqlm_free(sim->hcq.slot);
	bqlm_free(sim->hc_ticked.slot);
	bqlm_free(sim->fifo.slot);
	bqlm_free(sim->tun);
	bqlm_free(sim->id_pkt);
	bqlm_free(sim->ack_time);
	bqlm_free(sim->pings);
	bqlm_free(sim->samples);
	bqlm_free(sim);
}

/*
 * The usbnet model's configuration and state: the variant, an unbounded
 * packet stream, TX_QLEN, maxpacket and the tx_fixup() header of the
 * simulation, completions with status 0 only, the DQL's slack hold time
 * HZ as netdev_queue_init() sets it. The skb slots: TX_QLEN on dev->txq,
 * plus what can complete before a bh run frees it, at most the adapter
 * FIFO's frames and what the link drains in the longest interrupt-to-bh
 * window. Then the hardware's view: the URBs not yet on the bus, and the
 * skbs completed before the next interrupt.
 */
static int bqlm_sim_usbnet_create(struct bqlm_sim *sim)
{
	const struct bqlm_sim_cfg *cfg = &sim->cfg;
	struct bqlm_usbnet_cfg *u = &sim->ucfg;
	u64 window = (u64)cfg->irq_ns + cfg->bh_ns + cfg->bh_jitter_ns;
	u64 burst;

	bqlm_usbnet_cfg_default(u, cfg->variant);
	u->fixup = BQLM_USBNET_FIXUP_PAD;
	u->pad_header[0] = cfg->fixup_hdr;
	u->nr_pad_headers = 1;
	u->packets = 0;
	u->tx_qlen = cfg->tx_qlen;
	u->lens[0] = cfg->len;
	u->maxpacket = cfg->maxpacket;
	u->statuses = 1U << BQLM_USBNET_ST_OK;
	u->stops = 0;
	u->suspends = 0;
	u->timeouts = 0;
	u->hold_time = cfg->hz;
	u->now = bqlm_sim_jiffies(cfg, 0);
	burst = div64_u64(window * cfg->link_bps, 8 * BQLM_NSEC_PER_SEC);
	burst = div64_u64(burst + cfg->fifo_bytes,
			  min(cfg->len, cfg->ping_len)) + 8;
	u->skbs = (unsigned int)min_t(u64, cfg->tx_qlen + burst,
				      BQLM_USBNET_MAX_SKBS);
	if (bqlm_usbnet_cfg_check(u))
		return -EINVAL;
	sim->dev = bqlm_alloc(bqlm_usbnet_size(u));
	if (!sim->dev)
		return -ENOMEM;
	bqlm_usbnet_init(sim->dev, u);
	sim->txq = &sim->dev->txq;
	return bqlm_sim_ring_init(&sim->hc_done, u->skbs);
}

/*
 * The tun model's configuration and state: the variant, one queue file
 * with a ring of cfg->ring slots, one producer CPU, sequentially
 * consistent memory, a blocking reader, a qdisc, IFF_BACKPRESSURE set (it
 * only matters to that variant), an unbounded stream, no reconfiguration.
 */
static int bqlm_sim_tun_create(struct bqlm_sim *sim)
{
	struct bqlm_tun_cfg *t = &sim->tcfg;

	if (bqlm_sim_tun_cfg(&sim->cfg, t))
		return -EINVAL;
	sim->tun = bqlm_alloc(bqlm_tun_state_size(t));
	sim->nr_ids = bqlm_tun_nr_ids(t);
	sim->id_pkt = bqlm_alloc(sizeof(*sim->id_pkt) *
				 ((size_t)sim->nr_ids + 1));
	if (!sim->tun || !sim->id_pkt)
		return -ENOMEM;
	bqlm_tun_init(sim->tun, t);
	return 0;
}

/*
 * The frames the adapter's FIFO can hold: every frame on the bus, waiting
 * for the bus tick, in the FIFO or on the wire has its length reserved in
 * it, and none is shorter than the shortest packet of the run.
 */
static unsigned int bqlm_sim_fifo_pkts(const struct bqlm_sim_cfg *cfg)
{
	unsigned int shortest = cfg->ping_ns ? min(cfg->len, cfg->ping_len) :
				cfg->len;

	return cfg->fifo_bytes / shortest;
}

/**
 * bqlm_sim_pool_size() - the most packets a run can have alive at once
 * @cfg: resolved parameters (bqlm_sim_cfg_resolve())
 *
 * A packet lives from its sender to the end of its frame on the wire (or
 * of its copy to tun's reader). At most: a full qdisc band for each band
 * in use (band 0 holds the ping when it has priority), the one packet the
 * sender is making when they are full; then for usbnet the URBs of
 * dev->txq (TX_QLEN, the queue stops there) and the frames whose URBs
 * completed but that still hold the adapter's FIFO
 * (bqlm_sim_fifo_pkts()); for tun a full ring and the packet being copied
 * to the reader. The simulation's pool has this size, and a run that
 * saturates every stage reaches it (@pkts_max of the result).
 *
 * Return: that number.
 */
unsigned int bqlm_sim_pool_size(const struct bqlm_sim_cfg *cfg)
{
	unsigned int bands = cfg->ping_ns && cfg->prio_ping ? 2 : 1;
	unsigned int n = bands * cfg->txqueuelen + 1;

	if (cfg->dev == BQLM_SIM_TUN)
		return n + cfg->ring + 1;
	return n + cfg->tx_qlen + bqlm_sim_fifo_pkts(cfg);
}

/*
 * Room for one record every @period_ns of the run, and two spare, of
 * @size bytes each; *@cap receives how many. None (NULL, 0) when
 * @period_ns is 0; NULL also when the memory cannot be had.
 */
static void *bqlm_sim_series(const struct bqlm_sim_cfg *cfg, u64 period_ns,
			     size_t size, unsigned int *cap)
{
	*cap = 0;
	if (!period_ns)
		return NULL;
	*cap = (unsigned int)div64_u64(cfg->duration_ns, period_ns) + 2;
	return bqlm_alloc(size * (size_t)*cap);
}

/**
 * bqlm_sim_create() - set a simulation up at time 0
 * @cfg: the parameters; resolved (bqlm_sim_cfg_resolve()) into a copy
 *
 * Allocates every pool, ring and result array the run needs, and
 * schedules the first event of each source. The ping starts at a random
 * phase within its interval, drawn from @cfg->seed.
 *
 * Return: the simulation, or NULL for bad parameters or no memory.
 */
struct bqlm_sim *bqlm_sim_create(const struct bqlm_sim_cfg *cfg)
{
	struct bqlm_sim *sim;
	unsigned int nr_pkts, fifo_pkts, i;
	int err = 0;

	sim = bqlm_alloc(sizeof(*sim));
	if (!sim)
		return NULL;
	sim->cfg = *cfg;
	if (bqlm_sim_cfg_resolve(&sim->cfg)) {
		bqlm_free(sim);
		return NULL;
	}
	cfg = &sim->cfg;
	bqlm_prng_seed(&sim->prng, cfg->seed);
	sim->digest = BQLM_FNV_OFFSET;
	sim->hc_pkt = BQLM_SIM_NONE;
	sim->link_pkt = BQLM_SIM_NONE;
	if (cfg->dev == BQLM_SIM_TUN) {
		/* netdev_queue_init() holds slack for HZ */
		if (bqlm_sim_tun_create(sim))
			goto fail;
	} else if (bqlm_sim_usbnet_create(sim)) {
		goto fail;
	}

	fifo_pkts = bqlm_sim_fifo_pkts(cfg);
	nr_pkts = bqlm_sim_pool_size(cfg);
	sim->res.pkts = nr_pkts;
	sim->pkt = bqlm_alloc(sizeof(*sim->pkt) * (size_t)nr_pkts);
	sim->free = bqlm_alloc(sizeof(*sim->free) * (size_t)nr_pkts);
	if (!sim->pkt || !sim->free)
		goto fail;
	for (i = 0; i < nr_pkts; i++)
		sim->free[i] = nr_pkts - 1 - i;
	sim->nr_free = nr_pkts;
	err |= bqlm_sim_ring_init(&sim->band[0], cfg->txqueuelen);
	err |= bqlm_sim_ring_init(&sim->band[1], cfg->txqueuelen);
	/*
	 * URBs not yet on the bus: TX_QLEN at most; frames waiting for the
	 * bus tick hold the FIFO's room too
	 */
	err |= bqlm_sim_ring_init(&sim->hcq, cfg->tx_qlen);
	if (cfg->bus_tick_ns)
		err |= bqlm_sim_ring_init(&sim->hc_ticked,
					  min(cfg->tx_qlen, fifo_pkts));
	err |= bqlm_sim_ring_init(&sim->fifo, fifo_pkts);
	err |= bqlm_evq_init(&sim->evq, 2 * BQLM_SIM_NR_EV);
	if (err)
		goto fail;
	if (cfg->traffic == BQLM_SIM_TCP) {
		sim->ack_time = bqlm_alloc(sizeof(*sim->ack_time) *
					   (size_t)cfg->window);
		if (!sim->ack_time)
			goto fail;
		sim->acks.cap = cfg->window;
	}
	sim->pings = bqlm_sim_series(cfg, cfg->ping_ns, sizeof(*sim->pings),
				     &sim->cap_pings);
	sim->samples = bqlm_sim_series(cfg, cfg->sample_ns,
				       sizeof(*sim->samples),
				       &sim->cap_samples);
	if ((cfg->ping_ns && !sim->pings) ||
	    (cfg->sample_ns && !sim->samples))
		goto fail;

	sim->bulk_interval = bqlm_sim_bytes_ns(cfg->len, cfg->udp_bps);
	if (!sim->bulk_interval)
		sim->bulk_interval = 1;
	if (cfg->traffic == BQLM_SIM_UDP)
		bqlm_sim_schedule(sim, 0, BQLM_SIM_EV_BULK);
	else
		bqlm_sim_schedule(sim, 0, BQLM_SIM_EV_ACK + BQLM_SIM_NR_EV);
	if (cfg->ping_ns)
		bqlm_sim_schedule(sim, bqlm_sim_below(sim, cfg->ping_ns),
				  BQLM_SIM_EV_PING);
	if (cfg->sample_ns)
		bqlm_sim_schedule(sim, 0, BQLM_SIM_EV_SAMPLE);
	return sim;
fail:
	bqlm_sim_destroy(sim);
	return NULL;
}

/**
 * bqlm_sim_run_until() - process events up to a time
 * @sim: the simulation
 * @t: run every event at or before @t, then set the clock to @t (capped
 *	at the configured duration)
 *
 * Return: 0, or -ERANGE when a DQL call was rejected or the event queue
 * overflowed (the run goes on; see bqlm_sim_result.dql_errors).
 */
int bqlm_sim_run_until(struct bqlm_sim *sim, u64 t)
{
	struct bqlm_sim_event e;

	if (t > sim->cfg.duration_ns)
		t = sim->cfg.duration_ns;
	while (sim->evq.n && sim->evq.ev[0].time <= t) {
		bqlm_evq_pop(&sim->evq, &e);
		sim->now = e.time;
		sim->events++;
		sim->digest = bqlm_fnv_u64(sim->digest, (e.time << 4) | e.type);
		if (e.type == BQLM_SIM_EV_ACK + BQLM_SIM_NR_EV)
			bqlm_sim_tcp_fill(sim);	/* the TCP-like start */
		else
			bqlm_sim_dispatch(sim, &e);
	}
	if (sim->now < t)
		sim->now = t;
	return sim->res.dql_errors || sim->res.violations ||
	       sim->res.skb_exhausted ? -ERANGE : 0;
}

/**
 * bqlm_sim_run() - run to the configured duration
 * @sim: the simulation
 *
 * Return: as bqlm_sim_run_until().
 */
int bqlm_sim_run(struct bqlm_sim *sim)
{
	return bqlm_sim_run_until(sim, sim->cfg.duration_ns);
}

/**
 * bqlm_sim_now() - the simulated time reached
 * @sim: the simulation
 *
 * Return: ns since the start.
 */
u64 bqlm_sim_now(const struct bqlm_sim *sim)
{
	return sim->now;
}

/**
 * bqlm_sim_get_cfg() - the resolved parameters of a simulation
 * @sim: the simulation
 *
 * Return: its parameters, every derived field filled in.
 */
const struct bqlm_sim_cfg *bqlm_sim_get_cfg(const struct bqlm_sim *sim)
{
	return &sim->cfg;
}

/* In-place heapsort of @n u64 values (no libc/kernel sort needed). */
static void bqlm_sim_sift(u64 *a, unsigned int i, unsigned int n)
{
	u64 v = a[i];
	unsigned int c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[c] <= v)
			break;
		a[i] = a[c];
		i = c;
	}
	a[i] = v;
}

static void bqlm_sim_sort(u64 *a, unsigned int n)
{
	unsigned int i;
	u64 t;

	for (i = n / 2; i-- > 0;)
		bqlm_sim_sift(a, i, n);
	for (i = n; i-- > 1;) {
		t = a[0];
		a[0] = a[i];
		a[i] = t;
		bqlm_sim_sift(a, 0, i);
	}
}

/* nearest-rank percentile of sorted @a */
static u64 bqlm_sim_pct(const u64 *a, unsigned int n,
			     unsigned int pct)
{
	unsigned int r;

	if (!n)
		return 0;
	/* n is at most 600 s / 100 us: n * pct fits in 32 bits */
	r = (n * pct + 99) / 100;
	return a[r ? r - 1 : 0];
}

/**
 * bqlm_sim_result() - compute the statistics of the run so far
 * @sim: the simulation
 * @res: receives them
 *
 * Sorts copies of the ping latencies and of the sampled limits (one
 * allocation each, outside the event loop). The digest folds every
 * event's time and type, the final queue state and the counters.
 *
 * Return: 0, or -ENOMEM.
 */
int bqlm_sim_result(struct bqlm_sim *sim, struct bqlm_sim_result *res)
{
	unsigned int n = max(sim->nr_pings, sim->nr_samples), i, k;
	u64 *tmp = NULL;
	u64 span;

	if (n) {
		tmp = bqlm_alloc(sizeof(*tmp) * (size_t)n);
		if (!tmp)
			return -ENOMEM;
	}
	*res = sim->res;
	res->events = sim->events;
	res->now = sim->now;
	span = sim->now > sim->cfg.warmup_ns ?
	       sim->now - sim->cfg.warmup_ns : 0;
	/* bytes * 8e9 overflows beyond 2.3 GB: then divide by whole us */
	if (!span)
		res->goodput_bps = 0;
	else if (res->bulk_bytes < (1ULL << 31))
		res->goodput_bps = div64_u64(res->bulk_bytes * 8 *
					     BQLM_NSEC_PER_SEC, span);
	else
		res->goodput_bps = div64_u64(res->bulk_bytes * 8 * 1000000,
					     div64_u64(span, 1000) ? : 1);
	res->pings = sim->nr_pings;
	for (i = 0; i < sim->nr_pings; i++)
		tmp[i] = sim->pings[i].lat;
	bqlm_sim_sort(tmp, sim->nr_pings);
	res->ping_p50 = bqlm_sim_pct(tmp, sim->nr_pings, 50);
	res->ping_p99 = bqlm_sim_pct(tmp, sim->nr_pings, 99);
	res->ping_max = sim->nr_pings ? tmp[sim->nr_pings - 1] : 0;
	for (i = 0, k = 0; i < sim->nr_samples; i++)
		if (sim->samples[i].t >= sim->cfg.warmup_ns)
			tmp[k++] = sim->samples[i].limit;
	bqlm_sim_sort(tmp, k);
	res->limit_p50 = (unsigned int)bqlm_sim_pct(tmp, k, 50);
	res->limit_max = k ? (unsigned int)tmp[k - 1] : 0;
	bqlm_free(tmp);

	if (sim->txq)
		res->digest = bqlm_fnv_u64(sim->digest,
					   bqlm_txq_digest(sim->txq));
	else
		res->digest = bqlm_fnv_u64(sim->digest,
					   ((u64)sim->tun->sent << 32) |
					   sim->tun->delivered);
	res->digest = bqlm_fnv_u64(res->digest, res->bulk_bytes);
	res->digest = bqlm_fnv_u64(res->digest, res->drops);
	res->digest = bqlm_fnv_u64(res->digest, res->ping_p99);
	return 0;
}

/**
 * bqlm_sim_samples() - the time series
 * @sim: the simulation
 * @n: receives the number of samples
 *
 * Return: the samples, oldest first (valid until bqlm_sim_destroy()).
 */
const struct bqlm_sim_sample *bqlm_sim_samples(const struct bqlm_sim *sim,
					       unsigned int *n)
{
	*n = sim->nr_samples;
	return sim->samples;
}

/**
 * bqlm_sim_pings() - the pings measured after the warm-up
 * @sim: the simulation
 * @n: receives their number
 *
 * Return: the pings, in the order they left the link.
 */
const struct bqlm_sim_ping *bqlm_sim_pings(const struct bqlm_sim *sim,
					   unsigned int *n)
{
	*n = sim->nr_pings;
	return sim->pings;
}

/**
 * bqlm_sim_tun() - the tun model a simulation drives
 * @sim: the simulation
 * @cfg: receives the model's configuration (unless the result is NULL)
 *
 * Return: the state of the model of <bqlm/tun.h> (valid until
 * bqlm_sim_destroy()), or NULL for a usbnet simulation.
 */
const struct bqlm_tun *bqlm_sim_tun(const struct bqlm_sim *sim,
				    const struct bqlm_tun_cfg **cfg)
{
	if (!sim->tun)
		return NULL;
	*cfg = &sim->tcfg;
	return sim->tun;
}

/**
 * bqlm_sim_usbnet() - the usbnet model a simulation drives
 * @sim: the simulation
 * @cfg: receives the model's configuration (unless the result is NULL)
 *
 * Return: the state of the model of <bqlm/usbnet.h> (valid until
 * bqlm_sim_destroy()), or NULL for a tun simulation.
 */
const struct bqlm_usbnet *bqlm_sim_usbnet(const struct bqlm_sim *sim,
					  const struct bqlm_usbnet_cfg **cfg)
{
	if (!sim->dev)
		return NULL;
	*cfg = &sim->ucfg;
	return sim->dev;
}
