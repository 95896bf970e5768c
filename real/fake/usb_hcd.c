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

/* A bulk endpoint of the device: its @address and wMaxPacketSize */
static void bqlm_hcd_ep_init(struct usb_host_endpoint *ep, u8 address,
			     unsigned int maxpacket)
{
	struct usb_endpoint_descriptor *d = &ep->desc;

	memset(ep, 0, sizeof(*ep));
	d->bLength = USB_DT_ENDPOINT_SIZE;
	d->bDescriptorType = USB_DT_ENDPOINT;
	d->bEndpointAddress = address;
	d->bmAttributes = USB_ENDPOINT_XFER_BULK;
	d->wMaxPacketSize = cpu_to_le16(maxpacket);
}

/**
 * bqlm_hcd_init() - a fake host controller with one high-speed device
 * @hcd: the controller
 * @ops: its user's
 * @maxpacket: wMaxPacketSize of the device's bulk-out endpoint 1
 */
void bqlm_hcd_init(struct bqlm_hcd *hcd, const struct bqlm_hcd_ops *ops,
		   unsigned int maxpacket)
{
	memset(&hcd->bus, 0, sizeof(hcd->bus));
	memset(&hcd->udev, 0, sizeof(hcd->udev));
	memset(&hcd->intf, 0, sizeof(hcd->intf));
	memset(&hcd->alt, 0, sizeof(hcd->alt));
	hcd->ops = ops;
	hcd->controls = 0;
	hcd->gone = false;
	hcd->link_down = false;
	hcd->out_stalled = false;
	atomic_set(&hcd->pm_usage, 0);
	hcd->pm_underflow = false;
	hcd->bus.bus_name = "bqlm-hcd";
	hcd->bus.busnum = 1;
	hcd->udev.bus = &hcd->bus;
	strscpy(hcd->udev.devpath, "1", sizeof(hcd->udev.devpath));
	hcd->udev.speed = USB_SPEED_HIGH;
	hcd->udev.devnum = 1;
	hcd->alt.desc.bLength = USB_DT_INTERFACE_SIZE;
	hcd->alt.desc.bDescriptorType = USB_DT_INTERFACE;
	hcd->intf.altsetting = &hcd->alt;
	hcd->intf.cur_altsetting = &hcd->alt;
	hcd->intf.num_altsetting = 1;
	bqlm_hcd_ep_init(&hcd->ep_out, USB_DIR_OUT | BQLM_HCD_EP_OUT, maxpacket);
	hcd->udev.ep_out[BQLM_HCD_EP_OUT] = &hcd->ep_out;
	bqlm_hcd_ep_init(&hcd->ep_in, USB_DIR_IN | BQLM_HCD_EP_IN, maxpacket);
	hcd->udev.ep_in[BQLM_HCD_EP_IN] = &hcd->ep_in;
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
 * @status: its status; an unlinked URB completes with urb->unlinked
 *	(-ECONNRESET, -ESHUTDOWN, -ENOENT) whatever @status is, as usbcore
 *	gives it back
 *
 * Runs the driver's completion handler, which may yield (the caller is an
 * actor of the harness), then drops the controller's reference. A device
 * whose bulk-out endpoint stopped draining (@hcd->out_stalled) gives back
 * a bulk-out URB only once it is unlinked: any other giveback of one is
 * refused with a warning, the URB left queued.
 */
void bqlm_hcd_giveback(struct bqlm_hcd *hcd, struct urb *urb, int status)
{
	if (WARN_ONCE(hcd->out_stalled && !urb->unlinked &&
		      usb_pipebulk(urb->pipe) && usb_pipeout(urb->pipe),
		      "bqlm fake HCD: bulk-out URB %p completed by a device that stopped draining\n",
		      urb))
		return;
	list_del_init(&urb->urb_list);
	urb->status = urb->unlinked ?: status;
	urb->complete(urb);
	atomic_dec(&urb->use_count);
	bqlm_hcd_usb_free_urb(urb);
}

/**
 * bqlm_hcd_unplug() - the device goes away
 * @hcd: the controller
 *
 * usb_disconnect() marks the device USB_STATE_NOTATTACHED: from now on
 * usb_submit_urb() and control transfers fail with -ENODEV. Then
 * usb_disable_interface() flushes its endpoints: every queued URB not yet
 * unlinked is, with -ESHUTDOWN (its user is told, struct
 * bqlm_hcd_ops.unlink); its user gives each back (bqlm_hcd_giveback()),
 * whose completion then sees -ESHUTDOWN. The flush waits for those
 * givebacks before the driver's disconnect() runs: the caller's to order.
 *
 * Return: the URBs unlinked.
 */
unsigned int bqlm_hcd_unplug(struct bqlm_hcd *hcd)
{
	unsigned int n = 0;
	struct urb *urb;

	hcd->gone = true;
	list_for_each_entry(urb, &hcd->queue, urb_list) {
		if (urb->unlinked)
			continue;
		urb->unlinked = -ESHUTDOWN;
		hcd->ops->unlink(hcd, urb);
		n++;
	}
	return n;
}

/*
 * The URB is freed: its user forgets it (its address may come back). As
 * usbcore's urb_destroy(), its transfer buffer goes with it when the
 * driver handed it over (URB_FREE_BUFFER: usbnet_write_cmd_async(), which
 * a minidriver's link_reset() calls through its set_rx_mode()).
 */
static void bqlm_hcd_urb_release(struct kref *kref)
{
	struct urb *urb = container_of(kref, struct urb, kref);
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	if (hcd)
		hcd->ops->release(hcd, urb);
	if (urb->transfer_flags & URB_FREE_BUFFER)
		kfree(urb->transfer_buffer);
	kfree(urb);
}

/**
 * bqlm_hcd_usb_alloc_urb() - usb_alloc_urb(): a zeroed, reference-counted URB
 * @iso_packets: isochronous packets (none here)
 * @mem_flags: allocation flags
 *
 * Return: the URB, or NULL.
 */
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

/**
 * bqlm_hcd_usb_free_urb() - usb_free_urb(): drop a reference; the last one
 *	frees the URB
 * @urb: the URB
 */
void bqlm_hcd_usb_free_urb(struct urb *urb)
{
	if (urb)
		kref_put(&urb->kref, bqlm_hcd_urb_release);
}

/**
 * bqlm_hcd_usb_get_urb() - usb_get_urb(): take a reference
 * @urb: the URB
 *
 * Return: @urb.
 */
struct urb *bqlm_hcd_usb_get_urb(struct urb *urb)
{
	if (urb)
		kref_get(&urb->kref);
	return urb;
}

/*
 * A control transfer: the device's answer (zeros for a read, unless the
 * controller's user answers); the bytes transferred or a negative errno.
 */
static int bqlm_hcd_control(struct bqlm_hcd *hcd, u8 request, u8 requesttype,
			    u16 value, u16 index, void *data, u16 size)
{
	if (!hcd || hcd->gone)
		return -ENODEV;
	hcd->controls++;
	if (data && size && (requesttype & USB_DIR_IN))
		memset(data, 0, size);
	if (hcd->ops->control)
		return hcd->ops->control(hcd, request, requesttype, value,
					 index, data, size);
	return size;
}

/* An asynchronous control URB completes at once, with the answer. */
static int bqlm_hcd_submit_control(struct bqlm_hcd *hcd, struct urb *urb)
{
	const struct usb_ctrlrequest *req = (void *)urb->setup_packet;
	int ret;

	if (!req)
		return -EINVAL;
	ret = bqlm_hcd_control(hcd, req->bRequest, req->bRequestType,
			       le16_to_cpu(req->wValue),
			       le16_to_cpu(req->wIndex), urb->transfer_buffer,
			       min_t(u32, le16_to_cpu(req->wLength),
				     urb->transfer_buffer_length));
	urb->status = ret < 0 ? ret : 0;
	urb->actual_length = ret < 0 ? 0 : ret;
	bqlm_hcd_usb_get_urb(urb);
	atomic_inc(&urb->use_count);
	urb->complete(urb);
	atomic_dec(&urb->use_count);
	bqlm_hcd_usb_free_urb(urb);
	return 0;
}

/**
 * bqlm_hcd_usb_submit_urb() - usb_submit_urb(): queue the URB until its user
 *	gives it back
 * @urb: the URB
 * @mem_flags: allocation flags
 *
 * Return: 0, -ENODEV without a controller or once the device is unplugged,
 * -EPERM while usb_kill_urb() rejects it, -EBUSY for an URB already
 * queued, or the user's error.
 */
int bqlm_hcd_usb_submit_urb(struct urb *urb, gfp_t mem_flags)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;
	int ret;

	if (!hcd || hcd->gone)
		return -ENODEV;
	if (atomic_read(&urb->reject))
		return -EPERM;
	if (WARN_ONCE(bqlm_hcd_queued(urb), "URB %p submitted while active\n",
		      urb))
		return -EBUSY;
	if (usb_pipecontrol(urb->pipe))
		return bqlm_hcd_submit_control(hcd, urb);
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

/**
 * bqlm_hcd_usb_unlink_urb() - usb_unlink_urb(): mark a queued URB; it completes
 *	later with -ECONNRESET
 * @urb: the URB
 *
 * Return: -EINPROGRESS, -EIDRM once its giveback has started (or it is not queued), -EBUSY if it is already unlinked.
 */
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

/**
 * bqlm_hcd_usb_kill_urb() - usb_kill_urb(): unlink a queued URB (-ENOENT
 *	unless it already was) and give it back at once, its submissions
 *	rejected meanwhile
 * @urb: the URB, or NULL (nothing to do)
 *
 * An URB whose giveback another actor has begun cannot be waited for
 * here: a warning (no path of the harness does that).
 */
void bqlm_hcd_usb_kill_urb(struct urb *urb)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	if (!urb)
		return;
	atomic_inc(&urb->reject);
	if (hcd && bqlm_hcd_queued(urb)) {
		if (!urb->unlinked) {
			urb->unlinked = -ENOENT;
			hcd->ops->unlink(hcd, urb);
		}
		bqlm_hcd_giveback(hcd, urb, urb->unlinked);
	} else {
		WARN_ONCE(atomic_read(&urb->use_count),
			  "bqlm real-code harness: usb_kill_urb() of an URB being given back");
	}
	atomic_dec(&urb->reject);
}

/**
 * bqlm_hcd_usb_anchor_urb() - usb_anchor_urb(): add the URB to an anchor, with
 *	a reference
 * @urb: the URB
 * @anchor: the anchor
 */
void bqlm_hcd_usb_anchor_urb(struct urb *urb, struct usb_anchor *anchor)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	bqlm_hcd_usb_get_urb(urb);
	list_add_tail(&urb->anchor_list, &anchor->urb_list);
	urb->anchor = anchor;
	if (hcd)
		hcd->ops->anchor(hcd, urb);
}

/**
 * bqlm_hcd_usb_get_from_anchor() - usb_get_from_anchor(): take the oldest URB
 *	off an anchor
 * @anchor: the anchor
 *
 * Return: it, with the anchor's reference, or NULL.
 */
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

/**
 * bqlm_hcd_usb_scuttle_anchored_urbs() - usb_scuttle_anchored_urbs(): drop
 *	every URB of an anchor
 * @anchor: the anchor
 */
void bqlm_hcd_usb_scuttle_anchored_urbs(struct usb_anchor *anchor)
{
	struct urb *urb;

	while ((urb = bqlm_hcd_usb_get_from_anchor(anchor)))
		bqlm_hcd_usb_free_urb(urb);
}

/*
 * The controller whose interface @intf is: the PM usage counts of any
 * other interface (a cdc-wdm subdriver's fake) are not kept
 */
static struct bqlm_hcd *bqlm_hcd_of_intf(struct usb_interface *intf)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	return hcd && intf == &hcd->intf ? hcd : NULL;
}

static void bqlm_hcd_pm_get(struct usb_interface *intf)
{
	struct bqlm_hcd *hcd = bqlm_hcd_of_intf(intf);

	if (hcd)
		atomic_inc(&hcd->pm_usage);
}

static void bqlm_hcd_pm_put(struct usb_interface *intf)
{
	struct bqlm_hcd *hcd = bqlm_hcd_of_intf(intf);

	if (hcd && atomic_add_unless(&hcd->pm_usage, -1, 0) == 0)
		hcd->pm_underflow = true;
}

/**
 * bqlm_hcd_pm_usage() - the interface's runtime-PM usage count
 * @hcd: the controller
 *
 * What autosuspend_check() reads: the USB core autosuspends the device only
 * when it is 0.
 *
 * Return: the count.
 */
int bqlm_hcd_pm_usage(const struct bqlm_hcd *hcd)
{
	return atomic_read(&hcd->pm_usage);
}

/**
 * bqlm_hcd_usb_autopm_get_interface() - usb_autopm_get_interface(): one more
 *	PM usage count on the interface, the device awake when it returns
 *	(its user may wait there for a suspend or resume in progress)
 * @intf: the interface
 *
 * Return: 0.
 */
int bqlm_hcd_usb_autopm_get_interface(struct usb_interface *intf)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	if (hcd && hcd->ops->autopm_get)
		hcd->ops->autopm_get(hcd, intf);
	bqlm_hcd_pm_get(intf);
	return 0;
}

/**
 * bqlm_hcd_usb_autopm_put_interface() - usb_autopm_put_interface(): one PM
 *	usage count less
 * @intf: the interface
 */
void bqlm_hcd_usb_autopm_put_interface(struct usb_interface *intf)
{
	bqlm_hcd_pm_put(intf);
}

/**
 * bqlm_hcd_usb_autopm_get_interface_async() - usb_autopm_get_interface_async():
 *	one more PM usage count; a suspended device's resume is only queued
 *	(usbnet defers the transmit while EVENT_DEV_ASLEEP is set)
 * @intf: the interface
 *
 * Return: 0.
 */
int bqlm_hcd_usb_autopm_get_interface_async(struct usb_interface *intf)
{
	bqlm_hcd_pm_get(intf);
	return 0;
}

/**
 * bqlm_hcd_usb_autopm_put_interface_async() - usb_autopm_put_interface_async():
 *	one PM usage count less
 * @intf: the interface
 */
void bqlm_hcd_usb_autopm_put_interface_async(struct usb_interface *intf)
{
	bqlm_hcd_pm_put(intf);
}

/**
 * bqlm_hcd_usb_autopm_get_interface_no_resume() -
 *	usb_autopm_get_interface_no_resume(): one more PM usage count, no
 *	resume
 * @i: the interface
 */
void bqlm_hcd_usb_autopm_get_interface_no_resume(struct usb_interface *i)
{
	bqlm_hcd_pm_get(i);
}

/**
 * bqlm_hcd_usb_clear_halt() - usb_clear_halt(): the endpoint is never halted
 * @udev: the device
 * @pipe: the endpoint
 *
 * Return: 0, or -ENODEV once the device is unplugged.
 */
int bqlm_hcd_usb_clear_halt(struct usb_device *udev, int pipe)
{
	struct bqlm_hcd *hcd = bqlm_hcd_cur;

	return hcd && hcd->gone ? -ENODEV : 0;
}

/**
 * bqlm_hcd_usb_control_msg() - usb_control_msg(): the device answers
 * @dev: the device
 * @pipe: the endpoint
 * @request: the request
 * @requesttype: its type
 * @value: its value
 * @index: its index
 * @data: its buffer
 * @size: its size
 * @timeout: its timeout
 *
 * Return: the bytes transferred (the controller's user may answer
 * otherwise), or -ENODEV without a controller.
 */
int bqlm_hcd_usb_control_msg(struct usb_device *dev, unsigned int pipe,
			     __u8 request, __u8 requesttype, __u16 value,
			     __u16 index, void *data, __u16 size, int timeout)
{
	return bqlm_hcd_control(bqlm_hcd_cur, request, requesttype, value,
				index, data, size);
}

/**
 * bqlm_hcd_usb_set_interface() - usb_set_interface(): no device answers
 * @dev: the device
 * @ifnum: the interface number
 * @alternate: the setting
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_usb_set_interface(struct usb_device *dev, int ifnum,
			       int alternate)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_usb_string() - usb_string(): no device answers
 * @dev: the device
 * @index: the string
 * @buf: the buffer
 * @size: its size
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_usb_string(struct usb_device *dev, int index, char *buf,
			size_t size)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_usb_check_bulk_endpoints() - usb_check_bulk_endpoints(): the fake
 *	device has none to bind to
 * @intf: the interface
 * @ep_addrs: the endpoints
 *
 * Return: false.
 */
bool bqlm_hcd_usb_check_bulk_endpoints(const struct usb_interface *intf,
				       const u8 *ep_addrs)
{
	return false;
}

/**
 * bqlm_hcd_usb_get_dev() - usb_get_dev(): the fake device is not counted
 * @dev: the device
 *
 * Return: @dev.
 */
struct usb_device *bqlm_hcd_usb_get_dev(struct usb_device *dev)
{
	return dev;
}

/**
 * bqlm_hcd_usb_put_dev() - usb_put_dev(): nothing to do
 * @dev: the device
 */
void bqlm_hcd_usb_put_dev(struct usb_device *dev)
{
}

/**
 * bqlm_hcd_usb_driver_set_configuration() - usb_driver_set_configuration(): no
 *	device answers
 * @udev: the device
 * @config: the configuration
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_usb_driver_set_configuration(struct usb_device *udev,
					  int config)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_usb_driver_claim_interface() - usb_driver_claim_interface(): the
 *	harness never binds
 * @driver: the driver
 * @iface: the interface
 * @data: its buffer
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_usb_driver_claim_interface(struct usb_driver *driver,
					struct usb_interface *iface,
					void *data)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_usb_driver_release_interface() - usb_driver_release_interface():
 *	nothing to do
 * @driver: the driver
 * @iface: the interface
 */
void bqlm_hcd_usb_driver_release_interface(struct usb_driver *driver,
					   struct usb_interface *iface)
{
}

/**
 * bqlm_hcd_usb_ifnum_to_if() - usb_ifnum_to_if(): the fake device has no other
 *	interface
 * @dev: the device
 * @ifnum: the interface number
 *
 * Return: NULL.
 */
struct usb_interface *bqlm_hcd_usb_ifnum_to_if(const struct usb_device *dev,
					       unsigned int ifnum)
{
	return NULL;
}

/**
 * bqlm_hcd_usb_reset_configuration() - usb_reset_configuration(): no device
 *	answers
 * @dev: the device
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_usb_reset_configuration(struct usb_device *dev)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_cdc_parse_cdc_header() - cdc_parse_cdc_header(): there are no
 *	descriptors
 * @hdr: the parsed header
 * @intf: the interface
 * @buffer: the descriptors
 * @buflen: their length
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_cdc_parse_cdc_header(struct usb_cdc_parsed_header *hdr,
				  struct usb_interface *intf, u8 *buffer,
				  int buflen)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_usb_bulk_msg() - usb_bulk_msg(): the device takes what is
 *	written and has nothing to read
 * @usb_dev: the device
 * @pipe: the endpoint
 * @data: the buffer
 * @len: its length
 * @actual_length: receives what was transferred
 * @timeout: the timeout
 *
 * Return: 0.
 */
int bqlm_hcd_usb_bulk_msg(struct usb_device *usb_dev, unsigned int pipe,
			  void *data, int len, int *actual_length, int timeout)
{
	if (actual_length)
		*actual_length = usb_pipein(pipe) ? 0 : len;
	return 0;
}

/**
 * bqlm_hcd_usb_interrupt_msg() - usb_interrupt_msg(): as
 *	bqlm_hcd_usb_bulk_msg()
 * @usb_dev: the device
 * @pipe: the endpoint
 * @data: the buffer
 * @len: its length
 * @actual_length: receives what was transferred
 * @timeout: the timeout
 *
 * Return: 0.
 */
int bqlm_hcd_usb_interrupt_msg(struct usb_device *usb_dev, unsigned int pipe,
			       void *data, int len, int *actual_length,
			       int timeout)
{
	return bqlm_hcd_usb_bulk_msg(usb_dev, pipe, data, len, actual_length,
				     timeout);
}

/**
 * bqlm_hcd_usb_reset_device() - usb_reset_device(): not modelled
 * @udev: the device
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_usb_reset_device(struct usb_device *udev)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_usb_lock_device_for_reset() - usb_lock_device_for_reset(): a
 *	reset is not modelled
 * @udev: the device
 * @iface: its interface
 *
 * Return: -ENODEV.
 */
int bqlm_hcd_usb_lock_device_for_reset(struct usb_device *udev,
				       const struct usb_interface *iface)
{
	return -ENODEV;
}

/**
 * bqlm_hcd_usb_match_id() - usb_match_id(): the fake device matches no
 *	table
 * @intf: the interface
 * @id: the table
 *
 * Return: NULL.
 */
const struct usb_device_id *bqlm_hcd_usb_match_id(struct usb_interface *intf,
						  const struct usb_device_id *id)
{
	return NULL;
}

/**
 * bqlm_hcd_usb_altnum_to_altsetting() - usb_altnum_to_altsetting(): the fake
 *	interface has no descriptors
 * @intf: the interface
 * @altnum: the setting
 *
 * Return: NULL.
 */
struct usb_host_interface *
bqlm_hcd_usb_altnum_to_altsetting(const struct usb_interface *intf,
				  unsigned int altnum)
{
	return NULL;
}

/**
 * bqlm_hcd_usb_cdc_wdm_register() - usb_cdc_wdm_register(): the fake device
 *	has no management channel (cdc-wdm is not in the test kernel)
 * @intf: the interface
 * @ep: its interrupt endpoint
 * @bufsize: the buffer size
 * @type: the WWAN port type
 * @manage_power: the minidriver's power callback
 *
 * Return: ERR_PTR(-ENODEV).
 */
struct usb_driver *
bqlm_hcd_usb_cdc_wdm_register(struct usb_interface *intf,
			      struct usb_endpoint_descriptor *ep, int bufsize,
			      enum wwan_port_type type,
			      int (*manage_power)(struct usb_interface *, int))
{
	return ERR_PTR(-ENODEV);
}

/**
 * bqlm_hcd_msleep() - msleep() of a driver waiting for the device: the fake
 *	device is ready at once
 * @msecs: the delay
 */
void bqlm_hcd_msleep(unsigned int msecs)
{
}

/**
 * bqlm_hcd_usleep_range() - usleep_range(): as bqlm_hcd_msleep()
 * @min: the shortest delay
 * @max: the longest
 */
void bqlm_hcd_usleep_range(unsigned long min, unsigned long max)
{
}
