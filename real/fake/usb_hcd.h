/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - a fake USB host controller for the real-code harness.
 *
 * The test kernel has no USB core. A USB driver compiled from the tree with
 * real/fake/usb_glue.h calls these functions instead of usbcore's: URBs are
 * allocated and reference counted as usbcore does, anchors are lists, a
 * submitted URB is held (on the controller's queue) until its user gives it
 * back with the status the schedule names, calling the driver's own
 * completion handler; usb_unlink_urb() marks it, and it completes later
 * with urb->unlinked as its status. Unplugged (bqlm_hcd_unplug()), the
 * device refuses every submission, and the URBs queued then are unlinked
 * with -ESHUTDOWN, as usb_disable_interface() flushes the endpoints
 * before the driver's disconnect(). usb_kill_urb() of a queued URB
 * unlinks it and gives it back at once.
 * The device behind the controller answers control transfers (zeros for
 * a read, unless its user answers, struct bqlm_hcd_ops.control), at once:
 * a synchronous one returns, an asynchronous one (usb_submit_urb() of a
 * control URB) completes before usb_submit_urb() returns. Bind-time
 * calls fail with -ENODEV, power management calls succeed, and the
 * delays a driver waits for the device (msleep()) take no time.
 *
 * The controller tells its user (a driver's harness, struct bqlm_hcd_ops)
 * what the driver does with URBs; one controller at a time is attached
 * (bqlm_hcd_attach()), the one the redirected calls reach.
 *
 * Kernel only (real/, see docs/real-code.md).
 */
#ifndef _BQLM_REAL_USB_HCD_H
#define _BQLM_REAL_USB_HCD_H

#include <linux/list.h>
#include <linux/usb.h>
#include <linux/usb/cdc.h>
#include <linux/usb/cdc-wdm.h>

struct bqlm_hcd;

/**
 * struct bqlm_hcd_ops - what the fake host controller tells its user
 * @alloc: usb_alloc_urb() made @urb
 * @submit: usb_submit_urb() of @urb: 0 to take it (the controller queues
 *	it), or the error usb_submit_urb() returns
 * @unlink: usb_unlink_urb() marked @urb, queued and not being given back
 * @anchor: usb_anchor_urb() anchored @urb
 * @release: the last reference to @urb is gone; its memory is freed next
 * @autopm_get: usb_autopm_get_interface() (optional)
 * @control: a control transfer to the device (optional): @data is what a
 *	read returns, zeroed; returns the bytes transferred or a negative
 *	errno. Without it, every transfer succeeds and reads zeros
 */
struct bqlm_hcd_ops {
	void (*alloc)(struct bqlm_hcd *hcd, struct urb *urb);
	int (*submit)(struct bqlm_hcd *hcd, struct urb *urb);
	void (*unlink)(struct bqlm_hcd *hcd, struct urb *urb);
	void (*anchor)(struct bqlm_hcd *hcd, struct urb *urb);
	void (*release)(struct bqlm_hcd *hcd, struct urb *urb);
	void (*autopm_get)(struct bqlm_hcd *hcd, struct usb_interface *intf);
	int (*control)(struct bqlm_hcd *hcd, u8 request, u8 requesttype,
		       u16 value, u16 index, void *data, u16 size);
};

/**
 * struct bqlm_hcd - a fake host controller and the one device behind it
 * @ops: its user's
 * @bus: its bus, for the messages that name it (usbnet's "link reset
 *	failed", open and probe failures: bus_name and devpath)
 * @udev: the device (high speed, address 1)
 * @intf: its interface
 * @alt: the interface's one setting, number 0 (its endpoints are not
 *	described: the minidrivers' binds, which read them, are faked)
 * @ep_out: its bulk-out endpoint 1 (usb_maxpacket() reads it)
 * @ep_in: its bulk-in endpoint 2
 * @queue: the URBs submitted and not yet given back (urb->urb_list)
 * @controls: control transfers answered
 * @gone: the device is unplugged (USB_STATE_NOTATTACHED,
 *	bqlm_hcd_unplug()): every later submission and control transfer
 *	fails with -ENODEV
 * @link_down: the device's PHY has no link (its user's ops->control
 *	answers so); false from bqlm_hcd_init()
 * @out_stalled: the device has stopped draining its bulk-out endpoint: a
 *	bulk-out URB is given back only once unlinked; false from
 *	bqlm_hcd_init()
 * @pm_usage: the interface's runtime-PM usage count, as the USB core keeps
 *	it (intf->dev.power.usage_count): each usb_autopm_get_interface(),
 *	its _async and _no_resume forms add one, each put takes one away;
 *	autosuspend_check() refuses an autosuspend while it is above 0
 * @pm_underflow: a put found the count at 0 (the PM core's "usage count
 *	underflow"); the count stays 0
 */
struct bqlm_hcd {
	const struct bqlm_hcd_ops *ops;
	struct usb_bus bus;
	struct usb_device udev;
	struct usb_interface intf;
	struct usb_host_interface alt;
	struct usb_host_endpoint ep_out;
	struct usb_host_endpoint ep_in;
	struct list_head queue;
	unsigned long controls;
	bool gone;
	bool link_down;
	bool out_stalled;
	atomic_t pm_usage;
	bool pm_underflow;
};

/* The bulk-out and bulk-in endpoints of the device behind the controller */
#define BQLM_HCD_EP_OUT		1
#define BQLM_HCD_EP_IN		2

void bqlm_hcd_init(struct bqlm_hcd *hcd, const struct bqlm_hcd_ops *ops,
		   unsigned int maxpacket);
int bqlm_hcd_attach(struct bqlm_hcd *hcd);
void bqlm_hcd_detach(struct bqlm_hcd *hcd);
struct bqlm_hcd *bqlm_hcd_current(void);
void bqlm_hcd_giveback(struct bqlm_hcd *hcd, struct urb *urb, int status);
unsigned int bqlm_hcd_unplug(struct bqlm_hcd *hcd);
bool bqlm_hcd_queued(const struct urb *urb);
int bqlm_hcd_pm_usage(const struct bqlm_hcd *hcd);

/*
 * The redirections of real/fake/usb_glue.h: every call below replaces, in the
 * driver's text only, usbcore's function of the same name without the
 * bqlm_hcd_ prefix.
 */
struct urb *bqlm_hcd_usb_alloc_urb(int iso_packets, gfp_t mem_flags);
void bqlm_hcd_usb_free_urb(struct urb *urb);
struct urb *bqlm_hcd_usb_get_urb(struct urb *urb);
int bqlm_hcd_usb_submit_urb(struct urb *urb, gfp_t mem_flags);
int bqlm_hcd_usb_unlink_urb(struct urb *urb);
void bqlm_hcd_usb_kill_urb(struct urb *urb);
void bqlm_hcd_usb_anchor_urb(struct urb *urb, struct usb_anchor *anchor);
struct urb *bqlm_hcd_usb_get_from_anchor(struct usb_anchor *anchor);
void bqlm_hcd_usb_scuttle_anchored_urbs(struct usb_anchor *anchor);
int bqlm_hcd_usb_autopm_get_interface(struct usb_interface *intf);
void bqlm_hcd_usb_autopm_put_interface(struct usb_interface *intf);
int bqlm_hcd_usb_autopm_get_interface_async(struct usb_interface *intf);
void bqlm_hcd_usb_autopm_put_interface_async(struct usb_interface *intf);
void bqlm_hcd_usb_autopm_get_interface_no_resume(struct usb_interface *i);
int bqlm_hcd_usb_clear_halt(struct usb_device *udev, int pipe);
int bqlm_hcd_usb_control_msg(struct usb_device *dev, unsigned int pipe,
			     __u8 request, __u8 requesttype, __u16 value,
			     __u16 index, void *data, __u16 size, int timeout);
int bqlm_hcd_usb_set_interface(struct usb_device *dev, int ifnum,
			       int alternate);
int bqlm_hcd_usb_string(struct usb_device *dev, int index, char *buf,
			size_t size);
bool bqlm_hcd_usb_check_bulk_endpoints(const struct usb_interface *intf,
				       const u8 *ep_addrs);
struct usb_device *bqlm_hcd_usb_get_dev(struct usb_device *dev);
void bqlm_hcd_usb_put_dev(struct usb_device *dev);
int bqlm_hcd_usb_driver_set_configuration(struct usb_device *udev,
					  int config);
int bqlm_hcd_usb_driver_claim_interface(struct usb_driver *driver,
					struct usb_interface *iface,
					void *data);
void bqlm_hcd_usb_driver_release_interface(struct usb_driver *driver,
					   struct usb_interface *iface);
struct usb_interface *bqlm_hcd_usb_ifnum_to_if(const struct usb_device *dev,
					       unsigned int ifnum);
int bqlm_hcd_usb_reset_configuration(struct usb_device *dev);
int bqlm_hcd_cdc_parse_cdc_header(struct usb_cdc_parsed_header *hdr,
				  struct usb_interface *intf, u8 *buffer,
				  int buflen);
int bqlm_hcd_usb_bulk_msg(struct usb_device *usb_dev, unsigned int pipe,
			  void *data, int len, int *actual_length,
			  int timeout);
int bqlm_hcd_usb_interrupt_msg(struct usb_device *usb_dev, unsigned int pipe,
			       void *data, int len, int *actual_length,
			       int timeout);
int bqlm_hcd_usb_reset_device(struct usb_device *udev);
int bqlm_hcd_usb_lock_device_for_reset(struct usb_device *udev,
				       const struct usb_interface *iface);
const struct usb_device_id *bqlm_hcd_usb_match_id(struct usb_interface *intf,
						  const struct usb_device_id *id);
struct usb_host_interface *
bqlm_hcd_usb_altnum_to_altsetting(const struct usb_interface *intf,
				  unsigned int altnum);
struct usb_driver *
bqlm_hcd_usb_cdc_wdm_register(struct usb_interface *intf,
			      struct usb_endpoint_descriptor *ep, int bufsize,
			      enum wwan_port_type type,
			      int (*manage_power)(struct usb_interface *, int));
void bqlm_hcd_msleep(unsigned int msecs);
void bqlm_hcd_usleep_range(unsigned long min, unsigned long max);

#endif /* _BQLM_REAL_USB_HCD_H */
