/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - discrete-event timing simulation of a usbnet transmit path
 * with and without BQL (see docs/sim.md).
 *
 * Time is simulated in nanoseconds (u64); jiffies are derived from it
 * (HZ configurable). The BQL queue layer is model/kernel/netdevice.c with the
 * DQL model, the same code the explorer and the KUnit suites run. Everything is
 * integer arithmetic and deterministic for a given seed: no clock, no floating
 * point (the CLI formats), no allocation after bqlm_sim_create().
 *
 * The parts, each with its parameters in struct bqlm_sim_cfg:
 *   traffic   a saturating bulk sender (UDP at a fixed rate, or a simple
 *             TCP-like fixed window) and a periodic ping
 *   qdisc     pfifo_fast: the ping in band 0 ("prioritized ping"), bulk in
 *             band 1; or one FIFO for both
 *   usbnet    the usbnet model of <bqlm/usbnet.h> (model/usbnet/usbnet.c, the
 *             code the explorer runs): usbnet_start_xmit(), tx_complete(),
 *             defer_bh(), usbnet_bh() of the chosen variant, with TX_QLEN
 *             from usbnet_update_max_qlen()
 *   USB bus   serial bulk-out transfer at the bus's data rate, flow
 *             controlled by the adapter's FIFO; completion interrupts
 *             moderated (xHCI IMOD, EHCI interrupt threshold)
 *   bh        the delay from the interrupt to usbnet_bh() (batching)
 *   adapter   a byte FIFO drained at the Ethernet link rate
 *
 * Or, with @dev = BQLM_SIM_TUN, the same traffic and qdisc in front of the
 * tun model of <bqlm/tun.h> (model/tun/tun.c on model/kernel/ptr_ring.c, the
 * code the explorer runs): tun_net_xmit() producing into the tx ring (stock
 * tail drop, the 2019 stop/wake experiment, or IFF_BACKPRESSURE's stop when
 * full and wake after half the ring was consumed) and a reader that consumes
 * one packet per @len bits at @reader_bps.
 */
#ifndef _BQLM_SIM_H
#define _BQLM_SIM_H

#include <bqlm/types.h>
#include <bqlm/netdevice.h>
#include <bqlm/usbnet.h>
#include <bqlm/tun.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BQLM_NSEC_PER_SEC	1000000000ULL
#define BQLM_NSEC_PER_MSEC	1000000ULL
#define BQLM_NSEC_PER_USEC	1000ULL

/* usbnet.c's MAX_QUEUE_MEMORY: 60 full-size frames */
#define BQLM_SIM_MAX_QUEUE_MEMORY	(60 * 1518)
/* Largest TX_QLEN / qdisc band / adapter FIFO the simulation accepts. */
#define BQLM_SIM_MAX_QLEN	4096
#define BQLM_SIM_MAX_FIFO	(1024 * 1024)
#define BQLM_SIM_MAX_WINDOW	4096

/* ----- the event queue ------------------------------------------------ */

/**
 * struct bqlm_sim_event - one scheduled event
 * @time: when, in ns
 * @seq: insertion number: equal times run in insertion order
 * @type: what (the user's code)
 * @arg: its argument
 */
struct bqlm_sim_event {
	u64 time;
	u64 seq;
	unsigned int type;
	unsigned int arg;
};

/**
 * struct bqlm_evq - a binary min-heap of events, ordered by (@time, @seq)
 * @ev: the heap, @cap entries preallocated
 * @n: entries in use
 * @cap: capacity
 * @seq: the next insertion number
 */
struct bqlm_evq {
	struct bqlm_sim_event *ev;
	unsigned int n;
	unsigned int cap;
	u64 seq;
};

int bqlm_evq_init(struct bqlm_evq *q, unsigned int cap);
void bqlm_evq_free(struct bqlm_evq *q);
int bqlm_evq_push(struct bqlm_evq *q, u64 time, unsigned int type,
		  unsigned int arg);
int bqlm_evq_pop(struct bqlm_evq *q, struct bqlm_sim_event *out);

/* ----- configuration ---------------------------------------------------- */

/**
 * enum bqlm_sim_usb - the USB speed the adapter enumerated at
 * @BQLM_SIM_USB2: high speed, 480 Mbit/s (EHCI/xHCI), USB_SPEED_HIGH
 * @BQLM_SIM_USB3: SuperSpeed, 5 Gbit/s (xHCI), USB_SPEED_SUPER
 */
enum bqlm_sim_usb {
	BQLM_SIM_USB2 = 2,
	BQLM_SIM_USB3 = 3,
};

/**
 * enum bqlm_sim_traffic - the bulk sender
 * @BQLM_SIM_UDP: iperf3-like UDP: one packet every @len bytes at
 *	@udp_rate, dropped at the qdisc when its band is full
 * @BQLM_SIM_TCP: TCP-like: at most @window packets sent and not yet
 *	acknowledged; an ack comes @ack_delay after the frame left the link
 */
enum bqlm_sim_traffic {
	BQLM_SIM_UDP,
	BQLM_SIM_TCP,
};

/**
 * enum bqlm_sim_dev - the device under the qdisc
 * @BQLM_SIM_USBNET: a usbnet adapter (ax88179-like)
 * @BQLM_SIM_TUN: a tun device and its reader
 */
enum bqlm_sim_dev {
	BQLM_SIM_USBNET,
	BQLM_SIM_TUN,
};

/**
 * struct bqlm_sim_cfg - the simulation's parameters
 * @dev: enum bqlm_sim_dev
 * @tun_variant: the tun model's profile (tun only, enum
 *	bqlm_tun_variant): one whose consumer is a blocking read() and that
 *	runs an unbounded stream (not the BQL study, not veth's NAPI), e.g.
 *	BQLM_TUN_STOCK (tail drop at a full ring), BQLM_TUN_STOP_2019 (stop
 *	when full after producing, wake after every read) or
 *	BQLM_TUN_BACKPRESSURE (stop when full after producing, wake once half
 *	the ring was consumed)
 * @ring: the tun tx ring's size (tun only; dev->tx_queue_len)
 * @reader_bps: the tun reader's rate, bit/s of packet lengths (tun only)
 * @variant: the usbnet variant (the BQL variants differ only on
 *	stop/open/suspend paths, which the simulation does not take)
 * @usb: the USB speed
 * @link_bps: Ethernet link rate, bit/s (100e6, 1e9, 2.5e9)
 * @usb_bps: bulk-out data rate of the bus, bit/s (0: from @usb)
 * @mtu: the interface MTU
 * @tx_qlen: TX_QLEN (0: usbnet_update_max_qlen() for @usb and @mtu)
 * @maxpacket: bulk-out wMaxPacketSize (0: 512 for USB2, 1024 for USB3)
 * @fixup_hdr: bytes tx_fixup() prepends (ax88179: 8)
 * @fifo_bytes: the adapter's TX FIFO
 * @bus_tick_ns: 0: the bus delivers each URB's data as it is transferred
 *	(xHCI, EHCI); else a frame-scheduled bus, as dummy_hcd's: the data
 *	transferred reaches the device at the next multiple of this
 *	(dummy_hcd: 125 us), and the URBs are given back then (@irq_ns is
 *	not used)
 * @irq_ns: minimum interval between completion interrupts (0: from @usb:
 *	xHCI's default IMOD 40 us; EHCI's default threshold of 1 microframe)
 * @bh_ns: delay from the interrupt to usbnet_bh()
 * @bh_jitter_ns: plus a uniform random delay below this
 * @hz: HZ
 * @jiffies0: jiffies at time 0
 * @txqueuelen: qdisc limit per band (0: dev->tx_queue_len, 1000 for
 *	Ethernet, @ring for tun)
 * @prio_ping: the ping in pfifo_fast band 0 (true) or with the bulk
 * @traffic: enum bqlm_sim_traffic
 * @len: bulk packet length (Ethernet frame without FCS; 0: @mtu + 14;
 *	tun: 0 is 1428, a 1400-byte UDP payload in IPv4)
 * @udp_bps: UDP offered rate, bit/s of @len (0: 110% of @link_bps, or
 *	of @reader_bps for tun)
 * @window: TCP-like window in packets
 * @ack_ns: TCP-like: frame on the wire (tun: read) to ack at the sender
 * @ping_len: ping frame length (98: 56 data + ICMP + IP + Ethernet)
 * @ping_ns: ping interval (0: no ping)
 * @ping_jitter_ns: plus a uniform random delay below this before each
 *	next ping (0: strictly periodic; at most @ping_ns). A strictly
 *	periodic ping can alias with the equally periodic sender, reader and
 *	interrupts and sample only a few of their phases (docs/stack.md)
 * @duration_ns: simulated time
 * @warmup_ns: statistics ignore what happens before this
 * @sample_ns: time-series sampling interval (0: no time series)
 * @seed: the seed of the bh jitter and the ping phase
 */
struct bqlm_sim_cfg {
	enum bqlm_sim_dev dev;
	enum bqlm_tun_variant tun_variant;
	unsigned int ring;
	u64 reader_bps;
	enum bqlm_usbnet_variant variant;
	enum bqlm_sim_usb usb;
	u64 link_bps;
	u64 usb_bps;
	unsigned int mtu;
	unsigned int tx_qlen;
	unsigned int maxpacket;
	unsigned int fixup_hdr;
	unsigned int fifo_bytes;
	u64 bus_tick_ns;
	unsigned int irq_ns;
	unsigned int bh_ns;
	unsigned int bh_jitter_ns;
	unsigned int hz;
	unsigned long jiffies0;
	unsigned int txqueuelen;
	bool prio_ping;
	enum bqlm_sim_traffic traffic;
	unsigned int len;
	u64 udp_bps;
	unsigned int window;
	unsigned int ack_ns;
	unsigned int ping_len;
	u64 ping_ns;
	u64 ping_jitter_ns;
	u64 duration_ns;
	u64 warmup_ns;
	u64 sample_ns;
	u64 seed;
};

void bqlm_sim_cfg_default(struct bqlm_sim_cfg *cfg);
int bqlm_sim_cfg_resolve(struct bqlm_sim_cfg *cfg);
unsigned int bqlm_usbnet_update_max_qlen(enum bqlm_sim_usb usb,
					 unsigned int hard_mtu);
unsigned long bqlm_sim_jiffies(const struct bqlm_sim_cfg *cfg, u64 ns);

/* ----- running and results -------------------------------------------- */

/**
 * struct bqlm_sim_sample - one point of the time series
 * @t: time, ns
 * @limit: the DQL limit
 * @inflight: bytes queued and not completed (DQL)
 * @txq: URBs on dev->txq
 * @qdisc: packets in the qdisc
 * @fifo: bytes in the adapter FIFO (tun: entries in the ring)
 */
struct bqlm_sim_sample {
	u64 t;
	unsigned int limit;
	unsigned int inflight;
	unsigned int txq;
	unsigned int qdisc;
	unsigned int fifo;
};

/**
 * struct bqlm_sim_ping - one ping's transmit-path latency
 * @sent: when it entered the qdisc, ns
 * @lat: until its last bit left the adapter, ns
 */
struct bqlm_sim_ping {
	u64 sent;
	u64 lat;
};

/**
 * struct bqlm_sim_result - what a run measured (after the warm-up)
 * @events: events processed (whole run)
 * @digest: FNV-1a digest of every event and the final queue state
 * @now: simulated time reached, ns
 * @bulk_bytes: bulk frame bytes that left the link after the warm-up
 * @bulk_pkts: bulk frames that left the link after the warm-up
 * @goodput_bps: @bulk_bytes * 8 per measured second
 * @offered: bulk packets the sender produced (whole run)
 * @drops: bulk packets the qdisc dropped (whole run)
 * @ring_drops: packets tun_net_xmit() dropped at a full ring (whole run)
 * @ping_drops: pings dropped, at the qdisc or the ring (whole run)
 * @pings: pings measured
 * @ping_p50: median ping latency, ns
 * @ping_p99: 99th percentile, ns
 * @ping_max: maximum, ns
 * @limit_p50: median DQL limit over the samples after the warm-up
 * @limit_max: its maximum
 * @urbs: URBs submitted
 * @irqs: completion interrupts
 * @bh_runs: usbnet_bh() runs with completions
 * @stops: DRV_XOFF stops (TX_QLEN reached; tun: ring full)
 * @bql_stops: STACK_XOFF stops (BQL limit reached)
 * @dql_errors: DQL calls the model rejected, or driver model steps that
 *	failed (must be 0)
 * @violations: usbnet: checks of <bqlm/invariants.h> that failed after a
 *	usbnet_bh() run or a step with a DQL error; tun: runs of steps that
 *	lost, duplicated or invented a packet, or dropped one under
 *	IFF_BACKPRESSURE (must be 0)
 * @violated: their mask of BQLM_CHECK_BIT()s
 * @skb_exhausted: transmits put off because every skb slot (usbnet) or
 *	packet id (tun) of the model was in use (must be 0; they are sized
 *	from the parameters)
 * @overflows: packets the simulator's own pool or rings had no room for
 *	(must be 0: each is sized to the most its parameters allow)
 * @pkts: the packet pool's size (bqlm_sim_pool_size())
 * @pkts_max: the most packets alive at once (whole run)
 */
struct bqlm_sim_result {
	u64 events;
	u64 digest;
	u64 now;
	u64 bulk_bytes;
	u64 bulk_pkts;
	u64 goodput_bps;
	u64 offered;
	u64 drops;
	u64 ring_drops;
	u64 ping_drops;
	unsigned int pings;
	u64 ping_p50;
	u64 ping_p99;
	u64 ping_max;
	unsigned int limit_p50;
	unsigned int limit_max;
	u64 urbs;
	u64 irqs;
	u64 bh_runs;
	u64 stops;
	u64 bql_stops;
	u64 dql_errors;
	u64 violations;
	unsigned int violated;
	u64 skb_exhausted;
	u64 overflows;
	unsigned int pkts;
	unsigned int pkts_max;
};

struct bqlm_sim;

struct bqlm_sim *bqlm_sim_create(const struct bqlm_sim_cfg *cfg);
void bqlm_sim_destroy(struct bqlm_sim *sim);
int bqlm_sim_run_until(struct bqlm_sim *sim, u64 t);
int bqlm_sim_run(struct bqlm_sim *sim);
u64 bqlm_sim_now(const struct bqlm_sim *sim);
const struct bqlm_sim_cfg *bqlm_sim_get_cfg(const struct bqlm_sim *sim);
int bqlm_sim_result(struct bqlm_sim *sim, struct bqlm_sim_result *res);
unsigned int bqlm_sim_pool_size(const struct bqlm_sim_cfg *cfg);
const struct bqlm_sim_sample *bqlm_sim_samples(const struct bqlm_sim *sim,
					       unsigned int *n);
const struct bqlm_sim_ping *bqlm_sim_pings(const struct bqlm_sim *sim,
					   unsigned int *n);
u64 bqlm_sim_frame_ns(const struct bqlm_sim_cfg *cfg, unsigned int len);
const struct bqlm_usbnet *bqlm_sim_usbnet(const struct bqlm_sim *sim,
					  const struct bqlm_usbnet_cfg **cfg);
const struct bqlm_tun *bqlm_sim_tun(const struct bqlm_sim *sim,
				    const struct bqlm_tun_cfg **cfg);

#ifdef __cplusplus
}
#endif

#endif /* _BQLM_SIM_H */
