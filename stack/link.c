// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the USB link of the stack suites (docs/stack.md).
 *
 * dummy_hcd emulates a host controller and a device controller wired to
 * each other. On the device side this file runs a composite gadget with
 * one network function, f_ecm (CDC ECM) or f_ncm (CDC NCM), each behind a
 * u_ether net device; on the host side it registers one usbnet variant's
 * cdc_ether or cdc_ncm driver, which binds to the gadget once the host has
 * enumerated it. Both net devices are then brought up, and the link is
 * ready when the host's queue has its qdisc (the carrier came up). The
 * gadget's maximum speed chooses the bus (SuperSpeed, high or full speed);
 * dummy_hcd's bandwidth parameter the rate of its bulk transfers.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/usb.h>
#include <linux/usb/composite.h>
#include <net/sch_generic.h>

#include "u_ether.h"
#include "u_ecm.h"
#include "u_ncm.h"

#include "stack.h"

#define BQLM_STACK_LINK_WAIT_MS	5000	/* virtual time */

static struct usb_device_descriptor bqlm_stack_dev_desc = {
	.bLength		= sizeof(bqlm_stack_dev_desc),
	.bDescriptorType	= USB_DT_DEVICE,
	.bDeviceClass		= USB_CLASS_COMM,
	.idVendor		= cpu_to_le16(0x1d6b),	/* Linux Foundation */
	.idProduct		= cpu_to_le16(0x0104),	/* composite gadget */
	.bNumConfigurations	= 1,
};

static struct usb_string bqlm_stack_strings[] = {
	[USB_GADGET_MANUFACTURER_IDX].s	= "bqlmodel",
	[USB_GADGET_PRODUCT_IDX].s	= "bqlmodel stack suites",
	[USB_GADGET_SERIAL_IDX].s	= "",
	{ }
};

static struct usb_gadget_strings bqlm_stack_stringtab = {
	.language	= 0x0409,
	.strings	= bqlm_stack_strings,
};

static struct usb_gadget_strings *bqlm_stack_dev_strings[] = {
	&bqlm_stack_stringtab,
	NULL,
};

/* the one gadget: the suites run one link at a time */
static struct {
	enum bqlm_stack_func func;
	struct usb_function_instance *fi;
	struct usb_function *f;
	struct net_device *net;
} bqlm_stack_g;

static int bqlm_stack_do_config(struct usb_configuration *c)
{
	struct usb_function *f;
	int ret;

	f = usb_get_function(bqlm_stack_g.fi);
	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = usb_add_function(c, f);
	if (ret < 0) {
		usb_put_function(f);
		return ret;
	}
	bqlm_stack_g.f = f;
	return 0;
}

static struct usb_configuration bqlm_stack_config = {
	.label			= "bqlmodel network",
	.bConfigurationValue	= 1,
	.bmAttributes		= USB_CONFIG_ATT_SELFPOWER,
};

static int bqlm_stack_bind(struct usb_composite_dev *cdev)
{
	bool ncm = bqlm_stack_g.func != BQLM_STACK_ECM;
	struct usb_function_instance *fi;
	int ret;

	fi = usb_get_function_instance(ncm ? "ncm" : "ecm");
	if (IS_ERR(fi))
		return PTR_ERR(fi);
	bqlm_stack_g.fi = fi;
	if (ncm)
		bqlm_stack_g.net = container_of(fi, struct f_ncm_opts,
						func_inst)->net;
	else
		bqlm_stack_g.net = container_of(fi, struct f_ecm_opts,
						func_inst)->net;

	ret = usb_string_ids_tab(cdev, bqlm_stack_strings);
	if (ret < 0)
		goto fail;
	bqlm_stack_dev_desc.iManufacturer =
		bqlm_stack_strings[USB_GADGET_MANUFACTURER_IDX].id;
	bqlm_stack_dev_desc.iProduct =
		bqlm_stack_strings[USB_GADGET_PRODUCT_IDX].id;
	ret = usb_add_config(cdev, &bqlm_stack_config, bqlm_stack_do_config);
	if (ret < 0)
		goto fail;
	return 0;
fail:
	usb_put_function_instance(fi);
	bqlm_stack_g.fi = NULL;
	bqlm_stack_g.net = NULL;
	return ret;
}

static int bqlm_stack_unbind(struct usb_composite_dev *cdev)
{
	if (!IS_ERR_OR_NULL(bqlm_stack_g.f))
		usb_put_function(bqlm_stack_g.f);
	if (!IS_ERR_OR_NULL(bqlm_stack_g.fi))
		usb_put_function_instance(bqlm_stack_g.fi);
	bqlm_stack_g.f = NULL;
	bqlm_stack_g.fi = NULL;
	bqlm_stack_g.net = NULL;
	return 0;
}

static struct usb_composite_driver bqlm_stack_gadget = {
	.name		= "bqlm_stack",
	.dev		= &bqlm_stack_dev_desc,
	.strings	= bqlm_stack_dev_strings,
	.max_speed	= USB_SPEED_SUPER,
	.bind		= bqlm_stack_bind,
	.unbind		= bqlm_stack_unbind,
};

/**
 * bqlm_stack_set_param() - set a built-in module parameter
 * @name: its full name, e.g. "dummy_hcd.bandwidth"
 * @val: the value, as on the kernel command line
 *
 * As the command line or /sys/module/.../parameters would set it (the
 * suites run before user space, with no sysfs mounted).
 *
 * Return: 0, -ENOENT if there is no such parameter, or what its setter
 * returned.
 */
int bqlm_stack_set_param(const char *name, const char *val)
{
	const struct kernel_param *kp;
	int ret;

	for (kp = __start___param; kp < __stop___param; kp++) {
		if (strcmp(kp->name, name))
			continue;
		kernel_param_lock(NULL);
		ret = kp->ops->set(val, kp);
		kernel_param_unlock(NULL);
		return ret;
	}
	return -ENOENT;
}

static struct usb_driver *bqlm_stack_host_driver(const struct bqlm_stack_usbnet_ops *ops,
						 enum bqlm_stack_func func)
{
	switch (func) {
	case BQLM_STACK_NCM:
		return *ops->cdc_ncm;
	case BQLM_STACK_NCM_FIX:
		return *ops->cdc_ncm_fix;
	default:
		return *ops->cdc_ether;
	}
}

static struct net_device *bqlm_stack_find_host(const struct bqlm_stack_usbnet_ops *ops)
{
	struct net_device *dev, *found = NULL;

	rtnl_lock();
	for_each_netdev(&init_net, dev) {
		if (ops->owns(dev)) {
			found = dev;
			dev_hold(found);
			break;
		}
	}
	rtnl_unlock();
	return found;
}

static bool bqlm_stack_ready(struct net_device *dev)
{
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);

	return netif_running(dev) && netif_carrier_ok(dev) &&
	       rcu_access_pointer(txq->qdisc) != &noop_qdisc;
}

/**
 * bqlm_stack_link_up() - enumerate, bind and bring up a USB Ethernet link
 * @test: the case (messages)
 * @l: filled in
 * @ops: the host's usbnet variant
 * @func: the gadget's function, and so the host's driver
 * @max_speed: the gadget's maximum speed (USB_SPEED_SUPER, _HIGH, _FULL)
 * @bandwidth: dummy_hcd's bandwidth for the run, bytes per second (0: the
 *	speed's own rate); set once the link is up
 *
 * Return: 0, or a negative errno with the link down again.
 */
int bqlm_stack_link_up(struct kunit *test, struct bqlm_stack_link *l,
		       const struct bqlm_stack_usbnet_ops *ops,
		       enum bqlm_stack_func func, int max_speed,
		       unsigned int bandwidth)
{
	return bqlm_stack_link_up_drv(test, l, ops, NULL, func, max_speed,
				      bandwidth);
}

/**
 * bqlm_stack_link_up_drv() - bqlm_stack_link_up() with a host driver of
 *	the caller's
 * @test: the case (messages)
 * @l: filled in
 * @ops: the host's usbnet variant
 * @drv: the host's driver, built on @ops's usbnet (its probe and
 *	disconnect, an id table of its own), or NULL for @ops's driver for
 *	@func
 * @func: the gadget's function
 * @max_speed: the gadget's maximum speed
 * @bandwidth: dummy_hcd's bandwidth for the run, bytes per second
 *
 * Return: 0, or a negative errno with the link down again.
 */
int bqlm_stack_link_up_drv(struct kunit *test, struct bqlm_stack_link *l,
			   const struct bqlm_stack_usbnet_ops *ops,
			   struct usb_driver *drv, enum bqlm_stack_func func,
			   int max_speed, unsigned int bandwidth)
{
	char bw[16];
	int ret, ms;

	memset(l, 0, sizeof(*l));
	if (!drv)
		drv = bqlm_stack_host_driver(ops, func);
	l->ops = ops;
	l->func = func;
	l->drv = drv;
	ret = bqlm_stack_set_param("dummy_hcd.hold_bulk_out", "0");
	if (!ret)
		ret = bqlm_stack_set_param("dummy_hcd.bandwidth", "0");
	if (ret) {
		kunit_err(test, "dummy_hcd's parameters: %d (is real/patches/dummy_hcd/ applied?)",
			  ret);
		return ret;
	}
	ret = usb_register(drv);
	if (ret) {
		kunit_err(test, "usb_register(%s): %d", drv->name, ret);
		return ret;
	}
	bqlm_stack_g.func = func;
	bqlm_stack_gadget.max_speed = max_speed;
	ret = usb_composite_probe(&bqlm_stack_gadget);
	if (ret) {
		kunit_err(test, "usb_composite_probe: %d", ret);
		usb_deregister(drv);
		return ret;
	}
	l->gadget = bqlm_stack_g.net;
	for (ms = 0; ms < BQLM_STACK_LINK_WAIT_MS && !l->host; ms += 10) {
		bqlm_stack_sleep_until(bqlm_stack_now() + 10 * NSEC_PER_MSEC);
		l->host = bqlm_stack_find_host(ops);
	}
	if (!l->host || !l->gadget) {
		kunit_err(test, "%s/%s: no %s net device after %d ms", ops->name,
			  drv->name, l->host ? "gadget" : "host", ms);
		ret = -ENODEV;
		goto down;
	}
	l->speed = interface_to_usbdev(to_usb_interface(l->host->dev.parent))->speed;
	rtnl_lock();
	ret = dev_open(l->gadget, NULL);
	if (!ret)
		ret = dev_open(l->host, NULL);
	rtnl_unlock();
	if (ret) {
		kunit_err(test, "dev_open: %d", ret);
		goto down;
	}
	for (ms = 0; ms < BQLM_STACK_LINK_WAIT_MS && !bqlm_stack_ready(l->host);
	     ms += 10)
		bqlm_stack_sleep_until(bqlm_stack_now() + 10 * NSEC_PER_MSEC);
	if (!bqlm_stack_ready(l->host) || !netif_carrier_ok(l->gadget)) {
		kunit_err(test, "%s/%s: no carrier after %d ms", ops->name,
			  drv->name, ms);
		ret = -ENOLINK;
		goto down;
	}
	l->bandwidth = bandwidth;
	snprintf(bw, sizeof(bw), "%u", bandwidth);
	ret = bqlm_stack_set_param("dummy_hcd.bandwidth", bw);
	if (ret)
		goto down;
	return 0;
down:
	bqlm_stack_link_down(l);
	return ret;
}

/**
 * bqlm_stack_link_down() - both ends down, the gadget and the driver gone
 * @l: a link bqlm_stack_link_up() filled (also after it failed)
 */
void bqlm_stack_link_down(struct bqlm_stack_link *l)
{
	struct usb_driver *drv = l->drv;

	if (!l->ops)
		return;
	bqlm_stack_set_param("dummy_hcd.bandwidth", "0");
	bqlm_stack_set_param("dummy_hcd.hold_bulk_out", "0");
	if (l->host) {
		rtnl_lock();
		dev_close(l->host);
		rtnl_unlock();
		dev_put(l->host);
		l->host = NULL;
	}
	/* the host driver unbinds (usbnet_disconnect()), then the gadget */
	usb_deregister(drv);
	if (!l->unplugged)
		usb_composite_unregister(&bqlm_stack_gadget);
	l->gadget = NULL;
	l->ops = NULL;
}

/**
 * bqlm_stack_link_unplug() - the device goes away under the host
 * @l: a link that is up; its reference to @l->host is dropped here (the
 *	disconnect frees the host's net device)
 *
 * The gadget is unregistered: dummy_hcd's pullup goes off, as if the cable
 * were pulled, so that the URBs the host still has queued fail (-EPROTO)
 * at the next tick, and the hub's work disconnects the device
 * (usb_disconnect(), usb_unbind_interface(), the driver's disconnect()).
 * The host's driver stays registered; bqlm_stack_link_down() unregisters
 * it.
 */
void bqlm_stack_link_unplug(struct bqlm_stack_link *l)
{
	if (l->host) {
		dev_put(l->host);
		l->host = NULL;
	}
	usb_composite_unregister(&bqlm_stack_gadget);
	l->gadget = NULL;
	l->unplugged = true;
}

/**
 * bqlm_stack_gadget_halt_out() - the gadget halts its bulk-out endpoint
 *
 * As a device that stalls its OUT endpoint: the host's next bulk-out URB
 * fails with -EPIPE, until the host clears the halt (usb_clear_halt()).
 *
 * Return: usb_ep_set_halt()'s result, -ENODEV with no gadget bound.
 */
int bqlm_stack_gadget_halt_out(void)
{
	struct gether *port;

	if (IS_ERR_OR_NULL(bqlm_stack_g.f))
		return -ENODEV;
	port = container_of(bqlm_stack_g.f, struct gether, func);
	return usb_ep_set_halt(port->out_ep);
}
