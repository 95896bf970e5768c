// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - a fake USB host controller for the real-code harness
 * (usb_hcd.h, docs/real-code.md).
 *
 * URBs live as usbcore's do: a reference count, the controller's reference
 * while an URB is queued, urb->urb_list on the controller's queue from
 * usb_submit_urb() until the giveback starts (usb_unlink_urb() answers
 * -EIDRM once it has), urb->unlinked set by usb_unlink_urb(), urb->use_count
 * held until the completion handler has returned.
 */
#include <linux/kref.h>
#include <linux/slab.h>
#include <linux/usb.h>

#include "usb_hcd.h"

/* The controller the redirected calls reach, NULL when none is attached */
static struct bqlm_hcd *bqlm_hcd_cur;

/**
 * bqlm_hcd_init() - a fake host controller with one high-speed device
 * @hcd: the controller
 * @ops: its user's
 * @maxpacket: wMaxPacketSize of the device's bulk-out endpoint 1
 */
void bqlm_hcd_init(struct bqlm_hcd *hcd, const struct bqlm_hcd_ops *ops,
		   unsigned int maxpacket)
{
	struct usb_endpoint_descriptor *d = &hcd->ep_out.desc;

	memset(&hcd->udev, 0, sizeof(hcd->udev));
	memset(&hcd->intf, 0, sizeof(hcd->intf));
	memset(&hcd->ep_out, 0, sizeof(hcd->ep_out));
	hcd->ops = ops;
	hcd->udev.speed = USB_SPEED_HIGH;
	hcd->udev.devnum = 1;
	d->bLength = USB_DT_ENDPOINT_SIZE;
	d->bDescriptorType = USB_DT_ENDPOINT;
	d->bEndpointAddress = USB_DIR_OUT | BQLM_HCD_EP_OUT;
	d->bmAttributes = USB_ENDPOINT_XFER_BULK;
	d->wMaxPacketSize = cpu_to_le16(maxpacket);
	hcd->udev.ep_out[BQLM_HCD_EP_OUT] = &hcd->ep_out;
	INIT_LIST_HEAD(&hcd->queue);
}

/**
 * bqlm_hcd_attach() - make @hcd the controller the redirected calls reach
 * @hcd: the controller
 *
 * Return: 0, or -EBUSY if another one is attached.
 */
int bqlm_hcd_attach(struct bqlm_hcd *hcd)
{
	if (bqlm_hcd_cur)
		return -EBUSY;
	bqlm_hcd_cur = hcd;
	return 0;
}

/**
 * bqlm_hcd_detach() - no controller any more
 * @hcd: the attached controller
 */
void bqlm_hcd_detach(struct bqlm_hcd *hcd)
{
	if (bqlm_hcd_cur == hcd)
		bqlm_hcd_cur = NULL;
}

/**
 * bqlm_hcd_current() - the attached controller
 *
 * Return: it, or NULL (the driver's code then runs as without a device).
 */
struct bqlm_hcd *bqlm_hcd_current(void)
{
	return bqlm_hcd_cur;
}

/**
 * bqlm_hcd_queued() - is an URB on the controller's queue?
 * @urb: the URB
 *
 * Return: true from its submission until its giveback starts.
 */
bool bqlm_hcd_queued(const struct urb *urb)
{
	return !list_empty(&urb->urb_list);
}

/**
 * bqlm_hcd_giveback() - complete a queued URB, as an interrupt would
 * @hcd: the controller
 * @urb: the URB, queued
 * @status: its status (-ECONNRESET for an unlinked one)
 *
 * Runs the driver's completion handler, which may yield (the caller is an
 * actor of the harness), then drops the controller's reference.
 */
void bqlm_hcd_giveback(struct bqlm_hcd *hcd, struct urb *urb, int status)
{
	list_del_init(&urb->urb_list);
	urb->status = status;
	urb->complete(urb);
	atomic_dec(&urb->use_count);
	bqlm_hcd_usb_free_urb(urb);
}

/* The URB is freed: its user forgets it (its address may come back). */
static void bqlm_hcd_urb_release(struct kref *kref)
{
	struct urb *urb = container_of(kref, struct urb, kref);
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	if (hcd)
		hcd->ops->release(hcd, urb);
	kfree(urb);
}

struct urb *bqlm_hcd_usb_alloc_urb(int iso_packets, gfp_t mem_flags)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;
	struct urb *urb = kzalloc(sizeof(*urb), mem_flags);

	if (!urb)
		return NULL;
	kref_init(&urb->kref);
	INIT_LIST_HEAD(&urb->urb_list);
	INIT_LIST_HEAD(&urb->anchor_list);
	if (hcd)
		hcd->ops->alloc(hcd, urb);
	return urb;
}

void bqlm_hcd_usb_free_urb(struct urb *urb)
{
	if (urb)
		kref_put(&urb->kref, bqlm_hcd_urb_release);
}

struct urb *bqlm_hcd_usb_get_urb(struct urb *urb)
{
	if (urb)
		kref_get(&urb->kref);
	return urb;
}

int bqlm_hcd_usb_submit_urb(struct urb *urb, gfp_t mem_flags)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;
	int ret;

	if (!hcd)
		return -ENODEV;
	if (WARN_ONCE(bqlm_hcd_queued(urb), "URB %p submitted while active\n",
		      urb))
		return -EBUSY;
	ret = hcd->ops->submit(hcd, urb);
	if (ret)
		return ret;
	list_add_tail(&urb->urb_list, &hcd->queue);
	urb->unlinked = 0;
	urb->status = -EINPROGRESS;
	atomic_inc(&urb->use_count);
	bqlm_hcd_usb_get_urb(urb);	/* the controller's reference */
	return 0;
}

int bqlm_hcd_usb_unlink_urb(struct urb *urb)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	if (!hcd || !bqlm_hcd_queued(urb))
		return -EIDRM;	/* being given back already */
	if (urb->unlinked)
		return -EBUSY;
	urb->unlinked = -ECONNRESET;
	hcd->ops->unlink(hcd, urb);
	return -EINPROGRESS;	/* completes later with -ECONNRESET */
}

void bqlm_hcd_usb_kill_urb(struct urb *urb)
{
	WARN_ONCE(urb, "bqlm real-code harness: usb_kill_urb() is not modelled");
}

void bqlm_hcd_usb_anchor_urb(struct urb *urb, struct usb_anchor *anchor)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	bqlm_hcd_usb_get_urb(urb);
	list_add_tail(&urb->anchor_list, &anchor->urb_list);
	urb->anchor = anchor;
	if (hcd)
		hcd->ops->anchor(hcd, urb);
}

struct urb *bqlm_hcd_usb_get_from_anchor(struct usb_anchor *anchor)
{
	struct urb *urb;

	if (list_empty(&anchor->urb_list))
		return NULL;
	urb = list_first_entry(&anchor->urb_list, struct urb, anchor_list);
	list_del_init(&urb->anchor_list);
	urb->anchor = NULL;
	return urb;	/* with the anchor's reference */
}

void bqlm_hcd_usb_scuttle_anchored_urbs(struct usb_anchor *anchor)
{
	struct urb *urb;

	while ((urb = bqlm_hcd_usb_get_from_anchor(anchor)))
		bqlm_hcd_usb_free_urb(urb);
}

/* Power management: the device is always there */
int bqlm_hcd_usb_autopm_get_interface(struct usb_interface *intf)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	if (hcd && hcd->ops->autopm_get)
		hcd->ops->autopm_get(hcd, intf);
	return 0;
}

void bqlm_hcd_usb_autopm_put_interface(struct usb_interface *intf)
{
}

int bqlm_hcd_usb_autopm_get_interface_async(struct usb_interface *intf)
{
	return 0;
}

void bqlm_hcd_usb_autopm_put_interface_async(struct usb_interface *intf)
{
}

void bqlm_hcd_usb_autopm_get_interface_no_resume(struct usb_interface *i)
{
}

int bqlm_hcd_usb_clear_halt(struct usb_device *udev, int pipe)
{
	return 0;
}

/* No device behind the controller: control transfers and binding fail */
int bqlm_hcd_usb_control_msg(struct usb_device *dev, unsigned int pipe,
			     __u8 request, __u8 requesttype, __u16 value,
			     __u16 index, void *data, __u16 size, int timeout)
{
	return -ENODEV;
}

int bqlm_hcd_usb_set_interface(struct usb_device *dev, int ifnum,
			       int alternate)
{
	return -ENODEV;
}

int bqlm_hcd_usb_string(struct usb_device *dev, int index, char *buf,
			size_t size)
{
	return -ENODEV;
}

bool bqlm_hcd_usb_check_bulk_endpoints(const struct usb_interface *intf,
				       const u8 *ep_addrs)
{
	return false;
}

struct usb_device *bqlm_hcd_usb_get_dev(struct usb_device *dev)
{
	return dev;
}

void bqlm_hcd_usb_put_dev(struct usb_device *dev)
{
}

int bqlm_hcd_usb_driver_set_configuration(struct usb_device *udev,
					  int config)
{
	return -ENODEV;
}

int bqlm_hcd_usb_driver_claim_interface(struct usb_driver *driver,
					struct usb_interface *iface,
					void *data)
{
	return -ENODEV;
}

void bqlm_hcd_usb_driver_release_interface(struct usb_driver *driver,
					   struct usb_interface *iface)
{
}

struct usb_interface *bqlm_hcd_usb_ifnum_to_if(const struct usb_device *dev,
					       unsigned int ifnum)
{
	return NULL;
}

int bqlm_hcd_usb_reset_configuration(struct usb_device *dev)
{
	return -ENODEV;
}

int bqlm_hcd_cdc_parse_cdc_header(struct usb_cdc_parsed_header *hdr,
				  struct usb_interface *intf, u8 *buffer,
				  int buflen)
{
	return -ENODEV;
}
