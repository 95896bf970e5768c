/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real usbnet.c under the model's schedules.
 *
 * Each usbnet variant (6.12 as it is, and the four upstream BQL changes
 * re-created as the patches in real/patches/usbnet/) is compiled from the kernel
 * tree into an object of its own (real/usbnet_<variant>.c), with the
 * redirections of real/usbnet_glue.h. The object exports one struct
 * bqlm_rcu_ops; everything else here (the fake host controller, the
 * actors, the model in lockstep) is variant-independent and never looks
 * into struct usbnet, whose layout differs between variants.
 */
#ifndef _BQLM_REAL_USBNET_RC_H
#define _BQLM_REAL_USBNET_RC_H

#include <linux/netdevice.h>
#include <linux/pm.h>
#include <linux/spinlock.h>
#include <linux/usb.h>
#include <linux/usb/cdc.h>
#include <linux/hrtimer.h>

#include <bqlm/usbnet.h>
#include "rc.h"

struct bqlm_rcu;

/**
 * struct bqlm_rcu_view - what the harness reads of a real struct usbnet
 * @txq: &dev->txq
 * @rxq: &dev->rxq
 * @done: &dev->done
 * @flags: &dev->flags
 * @txq_lock: &dev->txq.lock
 * @rxq_lock: &dev->rxq.lock
 * @bql_lock: &dev->bql_spinlock, NULL before merged
 * @bh: &dev->bh (the bh tasklet of 6.12)
 * @delay: &dev->delay
 * @kevent: &dev->kevent
 * @rxq_pause: &dev->rxq_pause
 * @wait: &dev->wait
 */
struct bqlm_rcu_view {
	struct sk_buff_head *txq;
	struct sk_buff_head *rxq;
	struct sk_buff_head *done;
	unsigned long *flags;
	spinlock_t *txq_lock;
	spinlock_t *rxq_lock;
	spinlock_t *bql_lock;
	struct tasklet_struct *bh;
	struct timer_list *delay;
	struct work_struct *kevent;
	struct sk_buff_head *rxq_pause;
	wait_queue_head_t *wait;
};

/**
 * struct bqlm_rcu_ops - one compiled usbnet variant
 * @variant: the model's variant it is
 * @create: allocate the net_device and its struct usbnet, initialised as
 *	usbnet_probe() does minus the USB parts, and fill @view
 * @start_xmit: usbnet_start_xmit()
 * @stop: usbnet_stop()
 * @open: usbnet_open()
 * @tx_timeout: usbnet_tx_timeout()
 * @suspend: usbnet_suspend()
 * @resume: usbnet_resume()
 * @bh_work: usbnet_bh() as the bh tasklet runs it
 * @bh_timer: usbnet_bh() as the dev->delay timer runs it
 * @kevent: usbnet_deferred_kevent()
 * @cdc_ether_info: drivers/net/usb/cdc_ether.c's cdc_info
 * @aqc111_info: drivers/net/usb/aqc111.c's aqc111_info
 * @cdc_ncm_info: drivers/net/usb/cdc_ncm.c's cdc_ncm_info
 * @ncm_flush: cdc_ncm_txpath_bh() with the flush due: usbnet_start_xmit(NULL)
 * @ncm_pending: the datagrams and bytes of cdc_ncm's pending NTB (the
 *	bytes from the first datagram on, as the model counts them)
 * @release: free what create() allocated besides the net_device
 */
struct bqlm_rcu_ops {
	enum bqlm_usbnet_variant variant;
	struct net_device *(*create)(struct bqlm_rcu *u,
				     struct bqlm_rcu_view *view);
	netdev_tx_t (*start_xmit)(struct sk_buff *skb, struct net_device *net);
	int (*stop)(struct net_device *net);
	int (*open)(struct net_device *net);
	void (*tx_timeout)(struct net_device *net, unsigned int txqueue);
	int (*suspend)(struct usb_interface *intf, pm_message_t message);
	int (*resume)(struct usb_interface *intf);
	void (*bh_work)(struct net_device *net);
	void (*bh_timer)(struct net_device *net);
	void (*kevent)(struct net_device *net);
	const struct driver_info *cdc_ether_info;
	const struct driver_info *aqc111_info;
	const struct driver_info *cdc_ncm_info;
	void (*ncm_flush)(struct net_device *net);
	unsigned int (*ncm_pending)(struct net_device *net, unsigned int *len);
	void (*release)(struct net_device *net);
};

extern const struct bqlm_rcu_ops bqlm_rcu_no_bql_ops;
extern const struct bqlm_rcu_ops bqlm_rcu_v1_ops;
extern const struct bqlm_rcu_ops bqlm_rcu_merged_ops;
extern const struct bqlm_rcu_ops bqlm_rcu_fix_reset_ops;
extern const struct bqlm_rcu_ops bqlm_rcu_fixed_ops;

/* What a variant's create() needs from the harness. */
struct usb_device *bqlm_rcu_udev(struct bqlm_rcu *u);
struct usb_interface *bqlm_rcu_intf(struct bqlm_rcu *u);
const struct driver_info *bqlm_rcu_info(struct bqlm_rcu *u);
unsigned int bqlm_rcu_maxpacket(struct bqlm_rcu *u);
unsigned int bqlm_rcu_tx_qlen(struct bqlm_rcu *u);

/*
 * The redirections of real/usbnet_glue.h: every call below replaces, in
 * the compiled usbnet.c only, the kernel function of the same name
 * without the bqlm_rcu_ prefix.
 */
struct urb *bqlm_rcu_usb_alloc_urb(int iso_packets, gfp_t mem_flags);
void bqlm_rcu_usb_free_urb(struct urb *urb);
struct urb *bqlm_rcu_usb_get_urb(struct urb *urb);
int bqlm_rcu_usb_submit_urb(struct urb *urb, gfp_t mem_flags);
int bqlm_rcu_usb_unlink_urb(struct urb *urb);
void bqlm_rcu_usb_kill_urb(struct urb *urb);
void bqlm_rcu_usb_anchor_urb(struct urb *urb, struct usb_anchor *anchor);
struct urb *bqlm_rcu_usb_get_from_anchor(struct usb_anchor *anchor);
void bqlm_rcu_usb_scuttle_anchored_urbs(struct usb_anchor *anchor);
int bqlm_rcu_usb_autopm_get_interface(struct usb_interface *intf);
void bqlm_rcu_usb_autopm_put_interface(struct usb_interface *intf);
int bqlm_rcu_usb_autopm_get_interface_async(struct usb_interface *intf);
void bqlm_rcu_usb_autopm_put_interface_async(struct usb_interface *intf);
void bqlm_rcu_usb_autopm_get_interface_no_resume(struct usb_interface *i);
int bqlm_rcu_usb_clear_halt(struct usb_device *udev, int pipe);
int bqlm_rcu_usb_control_msg(struct usb_device *dev, unsigned int pipe,
			     __u8 request, __u8 requesttype, __u16 value,
			     __u16 index, void *data, __u16 size, int timeout);
int bqlm_rcu_usb_set_interface(struct usb_device *dev, int ifnum,
			       int alternate);
int bqlm_rcu_usb_string(struct usb_device *dev, int index, char *buf,
			size_t size);
bool bqlm_rcu_usb_check_bulk_endpoints(const struct usb_interface *intf,
				       const u8 *ep_addrs);
struct usb_device *bqlm_rcu_usb_get_dev(struct usb_device *dev);
void bqlm_rcu_usb_put_dev(struct usb_device *dev);
int bqlm_rcu_usb_driver_set_configuration(struct usb_device *udev,
					  int config);
int bqlm_rcu_usb_driver_claim_interface(struct usb_driver *driver,
					struct usb_interface *iface,
					void *data);
void bqlm_rcu_usb_driver_release_interface(struct usb_driver *driver,
					   struct usb_interface *iface);
struct usb_interface *bqlm_rcu_usb_ifnum_to_if(const struct usb_device *dev,
					       unsigned int ifnum);
int bqlm_rcu_usb_reset_configuration(struct usb_device *dev);
int bqlm_rcu_cdc_parse_cdc_header(struct usb_cdc_parsed_header *hdr,
				  struct usb_interface *intf, u8 *buffer,
				  int buflen);

void bqlm_rcu_tasklet_schedule(struct tasklet_struct *t);
void bqlm_rcu_tasklet_kill(struct tasklet_struct *t);
int bqlm_rcu_mod_timer(struct timer_list *timer, unsigned long expires);
int bqlm_rcu_timer_pending(const struct timer_list *timer);
int bqlm_rcu_del_timer_sync(struct timer_list *timer);
bool bqlm_rcu_schedule_work(struct work_struct *work);
bool bqlm_rcu_cancel_work_sync(struct work_struct *work);

void bqlm_rcu_hrtimer_start(struct hrtimer *timer, ktime_t tim,
			    const enum hrtimer_mode mode);
bool bqlm_rcu_hrtimer_active(const struct hrtimer *timer);
void bqlm_rcu_netif_tx_lock_bh(struct net_device *dev);
void bqlm_rcu_netif_tx_unlock_bh(struct net_device *dev);

bool bqlm_rcu_lock(spinlock_t *l, bool bh);
bool bqlm_rcu_unlock(spinlock_t *l, bool bh);
struct sk_buff *bqlm_rcu_skb_dequeue(struct sk_buff_head *list);
void bqlm_rcu_skb_queue_purge(struct sk_buff_head *list);
void bqlm_rcu_add_wait_queue(struct wait_queue_head *wq_head,
			     struct wait_queue_entry *wq_entry);
long bqlm_rcu_schedule_timeout(long timeout);

void bqlm_rcu_netdev_sent_queue(struct net_device *net, unsigned int bytes);
void bqlm_rcu_netdev_completed_queue(struct net_device *net, unsigned int pkts,
				     unsigned int bytes);
void bqlm_rcu_netdev_reset_queue(struct net_device *net);

#endif /* _BQLM_REAL_USBNET_RC_H */
