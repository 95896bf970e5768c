/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the seeds' experiments on the real kernel stack, in virtual
 * time: what the stack suites share (docs/stack.md).
 *
 * The drivers are the tree's own files, compiled once per variant from the
 * copies scripts/kunit-stack.sh patches into lib/bqlm_stack/gen/, with
 * their exports renamed per variant so that the variants link into one
 * kernel. Each variant's object ends in a struct of the few functions the
 * suites need that know the variant's private structures.
 */
#ifndef _BQLM_STACK_H
#define _BQLM_STACK_H

#include <linux/types.h>
#include <linux/ktime.h>

struct net_device;
struct usb_driver;
struct file;
struct ifreq;
struct kiocb;
struct iov_iter;
struct notifier_block;
struct inode;
struct net;
struct kunit;

/**
 * struct bqlm_stack_usbnet_ops - one usbnet variant (gen/usbnet_V.c)
 * @name: the variant's name in real/patches/usbnet/ (no-bql is the tree)
 * @cdc_ether: its cdc_ether.c driver, registered by the suite
 * @cdc_ncm: its cdc_ncm.c driver
 * @cdc_ncm_fix: its cdc_ncm.c with real/patches/cdc_ncm/
 * @cdc_info: cdc_ether.c's driver_info for CDC Ethernet (the suite binds a
 *	copy with a minidriver's flags added)
 * @inflight: bytes of the transmit URBs the driver holds (in dev->txq, and
 *	completed in dev->done but not yet freed by usbnet_bh()), with their
 *	count in *@urbs; under the queues' locks
 * @rx_urbs: the receive URBs the driver has submitted (dev->rxq), unlocked
 * @tx_qlen: the driver's TX_QLEN(dev)
 * @owns: whether @net is a usbnet device of this variant
 */
struct bqlm_stack_usbnet_ops {
	const char *name;
	struct usb_driver **cdc_ether;
	struct usb_driver **cdc_ncm;
	struct usb_driver **cdc_ncm_fix;
	const struct driver_info *const *cdc_info;
	unsigned int (*inflight)(struct net_device *net, unsigned int *urbs);
	unsigned int (*rx_urbs)(struct net_device *net);
	unsigned int (*tx_qlen)(struct net_device *net);
	bool (*owns)(struct net_device *net);
};

/**
 * struct bqlm_stack_tun_ops - one tun variant (gen/tun_V.c)
 * @name: the variant's name in real/patches/tun/ (stock is the tree)
 * @iff_backpressure: the variant's IFF_BACKPRESSURE, 0 if it has none
 * @open: its tun_chr_open()
 * @release: its tun_chr_close()
 * @set_iff: its tun_set_iff() (TUNSETIFF), under rtnl_lock()
 * @read_iter: its tun_chr_read_iter() (read())
 * @notifier: its netdevice notifier (tx_queue_len changes resize the ring),
 *	which tun_init() would register
 * @ring_count: packets in the ring of @file's queue now
 * @batch: the ring's consumer batch (ptr_ring's r->batch)
 */
struct bqlm_stack_tun_ops {
	const char *name;
	unsigned int iff_backpressure;
	int (*open)(struct inode *inode, struct file *file);
	int (*release)(struct inode *inode, struct file *file);
	int (*set_iff)(struct net *net, struct file *file, struct ifreq *ifr);
	ssize_t (*read_iter)(struct kiocb *iocb, struct iov_iter *to);
	struct notifier_block *notifier;
	unsigned int (*ring_count)(struct file *file);
	unsigned int (*batch)(struct file *file);
};

#define BQLM_STACK_USBNET_DECLARE(v)					\
	extern struct usb_driver *bqlm_stack_##v##_cdc_ether;		\
	extern struct usb_driver *bqlm_stack_##v##_cdc_ncm;		\
	extern struct usb_driver *bqlm_stack_##v##_cdc_ncmfix;		\
	extern const struct driver_info *const bqlm_stack_##v##_cdc_info; \
	extern const struct bqlm_stack_usbnet_ops bqlm_stack_##v##_ops
BQLM_STACK_USBNET_DECLARE(no_bql);
BQLM_STACK_USBNET_DECLARE(v1);
BQLM_STACK_USBNET_DECLARE(fixed);
BQLM_STACK_USBNET_DECLARE(fixed_avoid_unlink);
BQLM_STACK_USBNET_DECLARE(fixed_ncm_stop);

extern const struct bqlm_stack_tun_ops bqlm_stack_stock_ops;
extern const struct bqlm_stack_tun_ops bqlm_stack_stop_2019_ops;
extern const struct bqlm_stack_tun_ops bqlm_stack_backpressure_ops;
extern const struct bqlm_stack_tun_ops bqlm_stack_backpressure_room_ops;

/* link.c: the USB link (dummy_hcd, a composite gadget, a usbnet variant) */

/**
 * enum bqlm_stack_func - the gadget's network function
 * @BQLM_STACK_ECM: CDC ECM (f_ecm), bound on the host by cdc_ether
 * @BQLM_STACK_NCM: CDC NCM (f_ncm), bound on the host by cdc_ncm
 * @BQLM_STACK_NCM_FIX: CDC NCM, bound by cdc_ncm with real/patches/cdc_ncm/
 */
enum bqlm_stack_func {
	BQLM_STACK_ECM,
	BQLM_STACK_NCM,
	BQLM_STACK_NCM_FIX,
};

/**
 * struct bqlm_stack_link - one USB Ethernet link, both ends up
 * @ops: the host's usbnet variant
 * @func: the gadget's function
 * @speed: the negotiated USB speed (enum usb_device_speed)
 * @host: the host's usbnet net_device
 * @gadget: the gadget's u_ether net_device
 * @bandwidth: dummy_hcd's bandwidth parameter for the run (bytes/s, 0 for
 *	the speed's own rate)
 * @drv: the host's driver
 * @unplugged: bqlm_stack_link_unplug() has unregistered the gadget
 */
struct bqlm_stack_link {
	const struct bqlm_stack_usbnet_ops *ops;
	struct usb_driver *drv;
	bool unplugged;
	enum bqlm_stack_func func;
	int speed;
	struct net_device *host;
	struct net_device *gadget;
	unsigned int bandwidth;
};

int bqlm_stack_link_up(struct kunit *test, struct bqlm_stack_link *l,
		       const struct bqlm_stack_usbnet_ops *ops,
		       enum bqlm_stack_func func, int max_speed,
		       unsigned int bandwidth);
int bqlm_stack_link_up_drv(struct kunit *test, struct bqlm_stack_link *l,
			   const struct bqlm_stack_usbnet_ops *ops,
			   struct usb_driver *drv, enum bqlm_stack_func func,
			   int max_speed, unsigned int bandwidth);
void bqlm_stack_link_down(struct bqlm_stack_link *l);
void bqlm_stack_link_unplug(struct bqlm_stack_link *l);
int bqlm_stack_gadget_halt_out(void);
int bqlm_stack_set_param(const char *name, const char *val);

/* flow.c: the senders, the receiver, the figures */

/**
 * struct bqlm_stack_lat - one-way latencies of a probe flow
 * @ns: each received probe's latency, in arrival order
 * @n: how many were received
 * @max: room in @ns
 * @sent: how many were sent
 * @warm_sent: of those, how many after the warm-up
 * @drops: of those, how many dev_queue_xmit() refused (the qdisc's band
 *	was full)
 */
struct bqlm_stack_lat {
	u64 *ns;
	unsigned int n;
	unsigned int max;
	unsigned int sent;
	unsigned int warm_sent;
	unsigned int drops;
};

/**
 * struct bqlm_stack_pct - percentiles of a struct bqlm_stack_lat
 * @p50: median, ns
 * @p90: 90th percentile, ns
 * @p99: 99th percentile, ns
 * @max: largest, ns
 */
struct bqlm_stack_pct {
	u64 p50, p90, p99, max;
};

/**
 * struct bqlm_stack_flow_cfg - a saturating flow with probes
 * @dev: where the flow is sent (dev_queue_xmit(), through the qdisc)
 * @dst: the destination MAC address, NULL for none (tun: IP packets)
 * @rx: where it is received (dev_add_pack() there), NULL for none
 * @frame: bulk frame length (bytes, with the Ethernet header)
 * @rate: bulk offered rate, frames per second x 1000 (millihertz)
 * @probe_frame: probe frame length
 * @probe_ns: probe interval (one band-0 and one same-band probe each)
 * @tick_ns: the sender's shortest sleep, 0 for one wake-up per frame
 * @duration_ns: how long the flow runs
 * @warmup_ns: from the start, time not measured
 * @drain_ns: after the end, how long at most to wait for what is still
 *	queued (or, without @idle, how long to wait)
 * @idle: whether nothing is queued any more, NULL if unknown
 */
struct bqlm_stack_flow_cfg {
	struct net_device *dev;
	const u8 *dst;
	struct net_device *rx;
	unsigned int frame;
	u64 rate;
	unsigned int probe_frame;
	u64 probe_ns;
	u64 tick_ns;
	u64 duration_ns;
	u64 warmup_ns;
	u64 drain_ns;
	bool (*idle)(void *arg);
};

/**
 * struct bqlm_stack_flow - what a flow measured
 * @sent: bulk frames handed to dev_queue_xmit()
 * @qdisc_drops: of those, dropped by the qdisc (NET_XMIT_DROP)
 * @other_drops: of those, refused otherwise (device down: noop qdisc)
 * @rx_frames: bulk frames received in the measured window
 * @rx_bytes: their bytes
 * @rx_total: bulk frames received in all
 * @window_ns: the measured window
 * @t_warm: bqlm_stack_now() at the end of the warm-up
 * @t_end: bqlm_stack_now() at the end of the flow
 * @prio: the band-0 probes
 * @same: the same-band probes
 */
struct bqlm_stack_flow {
	u64 sent, qdisc_drops, other_drops;
	u64 rx_frames, rx_bytes, rx_total;
	u64 window_ns, t_warm, t_end;
	struct bqlm_stack_lat prio, same;
};

/* a frame's payload starts with this header (after the Ethernet header) */
#define BQLM_STACK_ETHERTYPE	0x88b5	/* IEEE local experimental */
#define BQLM_STACK_MAGIC	0x62716c6dU
enum {
	BQLM_STACK_BULK,
	BQLM_STACK_PRIO,
	BQLM_STACK_SAME,
};

/**
 * struct bqlm_stack_hdr - the start of every test frame's payload
 * @magic: BQLM_STACK_MAGIC
 * @kind: BQLM_STACK_BULK, _PRIO or _SAME
 * @seq: sequence number within its kind
 * @t_ns: bqlm_stack_now() at dev_queue_xmit()
 */
struct bqlm_stack_hdr {
	__be32 magic;
	u32 kind;
	u32 seq;
	u64 t_ns;
} __packed;

struct sk_buff *bqlm_stack_frame(struct net_device *dev, const u8 *dst,
				 unsigned int len, u32 kind, u32 seq,
				 u32 priority);
int bqlm_stack_flow_init(struct bqlm_stack_flow *f,
			 const struct bqlm_stack_flow_cfg *cfg);
bool bqlm_stack_flow_rx(struct bqlm_stack_flow *f,
			const struct bqlm_stack_hdr *hdr, unsigned int frame_len);
int bqlm_stack_flow_run(const struct bqlm_stack_flow_cfg *cfg,
			struct bqlm_stack_flow *f,
			void (*midway)(void *arg), void (*tick)(void *arg),
			void *arg);
void bqlm_stack_flow_free(struct bqlm_stack_flow *f);
void bqlm_stack_pct(struct bqlm_stack_lat *l, struct bqlm_stack_pct *p);
u64 bqlm_stack_rank(const struct bqlm_stack_lat *l, unsigned int pct);
unsigned int bqlm_stack_qdisc_qlen(struct net_device *dev);
bool bqlm_stack_cdf(const struct bqlm_stack_lat *l, char *buf, size_t size);
u64 bqlm_stack_now(void);
void bqlm_stack_sleep_until(u64 t_ns);
u64 bqlm_stack_mbps_x100(u64 bytes, u64 ns);

#endif /* _BQLM_STACK_H */
