/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the last lines of a usbnet variant's object, after the tree's
 * usbnet.c: the device as usbnet_probe() builds it, minus the USB
 * descriptors, the table of the minidrivers compiled with the variant
 * (objects of their own: real/usbnet/minidriver.h), and the variant's
 * struct bqlm_rusbnet_ops. With the minidrivers' faked binds, this is the
 * only code of the harness that knows the variant's struct usbnet.
 */
#ifndef _BQLM_REAL_USBNET_POST_H
#define _BQLM_REAL_USBNET_POST_H

#include <usbnet-minidrivers.h>

/* The minidrivers of this variant: every one, or the harness's own */
#ifdef BQLM_VARIANT_MINIDRIVERS
#define BQLM_RUSBNET_LIST(x)	BQLM_RUSBNET_MINIDRIVERS_ALL(x)
#else
#define BQLM_RUSBNET_LIST(x)	BQLM_RUSBNET_MINIDRIVERS_BASE(x)
#endif
#define BQLM_RUSBNET_DECL(id)	\
	extern const struct bqlm_rusbnet_driver BQLM_RUSBNET_SYM(drv_##id);
#define BQLM_RUSBNET_REF(id)	(&BQLM_RUSBNET_SYM(drv_##id)),

BQLM_RUSBNET_LIST(BQLM_RUSBNET_DECL)

static const struct bqlm_rusbnet_driver *const bqlm_rusbnet_minidrivers[] = {
	BQLM_RUSBNET_LIST(BQLM_RUSBNET_REF)
};

/* The device's memory, freed (the kernel's free_netdev(), not the hook) */
static void bqlm_rusbnet_free_dev(struct net_device *net)
{
	free_percpu(net->tstats);
	net->tstats = NULL;
	(free_netdev)(net);
}

/*
 * The part of usbnet_probe() that does not talk to the device; TX_QLEN is
 * set through hard_mtu (usbnet_update_max_qlen() at high speed), and RX
 * is kept off by an rx_urb_size above MAX_QUEUE_MEMORY (RX_QLEN 0). Then
 * the minidriver's bind, as far as its tx_fixup() needs it.
 */
static struct net_device *bqlm_rusbnet_create(const struct bqlm_rusbnet_probe *p,
					      struct bqlm_rusbnet_view *v)
{
	struct net_device *net;
	struct usbnet *dev;

	net = alloc_etherdev(sizeof(*dev));
	if (!net)
		return NULL;
	net->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	if (!net->tstats) {
		(free_netdev)(net);
		return NULL;
	}
	net->netdev_ops = p->drv->netdev_ops ?: &usbnet_netdev_ops;
	dev = netdev_priv(net);
	dev->udev = p->udev;
	dev->intf = p->intf;
	dev->driver_info = p->info;
	dev->driver_name = "bqlm-rusbnet";
	dev->net = net;
	init_waitqueue_head(&dev->wait);
	skb_queue_head_init(&dev->rxq);
	skb_queue_head_init(&dev->txq);
	skb_queue_head_init(&dev->done);
	skb_queue_head_init(&dev->rxq_pause);
#ifdef BQLM_VARIANT_BQL_SPINLOCK
	spin_lock_init(&dev->bql_spinlock);
#endif
#ifdef BQLM_VARIANT_BH_WORK
	INIT_WORK(&dev->bh_work, usbnet_bh_work);
#else
	tasklet_setup(&dev->bh, usbnet_bh_tasklet);
#endif
	INIT_WORK(&dev->kevent, usbnet_deferred_kevent);
	init_usb_anchor(&dev->deferred);
	timer_setup(&dev->delay, usbnet_bh, 0);
	mutex_init(&dev->phy_mutex);
	mutex_init(&dev->interrupt_mutex);
	dev->in = usb_rcvbulkpipe(dev->udev, BQLM_HCD_EP_IN);
	dev->out = usb_sndbulkpipe(dev->udev, BQLM_HCD_EP_OUT);
	dev->maxpacket = usb_maxpacket(dev->udev, dev->out);
	dev->hard_mtu = MAX_QUEUE_MEMORY / p->tx_qlen;
	dev->rx_urb_size = MAX_QUEUE_MEMORY + 1;
	usbnet_update_max_qlen(dev);
	usb_set_intfdata(dev->intf, dev);
	if (p->drv->bind && p->drv->bind(dev)) {
		bqlm_rusbnet_free_dev(net);
		return NULL;
	}

	v->txq = &dev->txq;
	v->rxq = &dev->rxq;
	v->done = &dev->done;
	v->flags = &dev->flags;
	v->txq_lock = &dev->txq.lock;
	v->rxq_lock = &dev->rxq.lock;
#ifdef BQLM_VARIANT_BQL_SPINLOCK
	v->bql_lock = &dev->bql_spinlock;
#else
	v->bql_lock = NULL;
#endif
#ifdef BQLM_VARIANT_BH_WORK
	v->bh = NULL;
	v->bh_work = &dev->bh_work;
#else
	v->bh = &dev->bh;
	v->bh_work = NULL;
#endif
	v->delay = &dev->delay;
	v->kevent = &dev->kevent;
	v->rxq_pause = &dev->rxq_pause;
	v->wait = &dev->wait;
	v->tx_qlen = &dev->tx_qlen;
	v->suspend_count = &dev->suspend_count;
	return net;
}

/*
 * The minidriver's own unbind(), as usbnet_disconnect() calls it, unless
 * usbnet_disconnect() ran (@disconnected: its unbind() ran there), after
 * it frees the URBs still deferred (a suspend nothing resumed), as
 * usbnet_disconnect() does
 */
static void bqlm_rusbnet_destroy(struct net_device *net,
				 const struct bqlm_rusbnet_driver *drv,
				 bool disconnected)
{
	struct usbnet *dev = netdev_priv(net);
	struct urb *urb;

	while ((urb = usb_get_from_anchor(&dev->deferred))) {
		dev_kfree_skb(urb->context);
		kfree(urb->sg);
		usb_free_urb(urb);
	}

	if (dev->driver_info->unbind && !disconnected)
		dev->driver_info->unbind(dev, dev->intf);
	if (drv->unbind)
		drv->unbind(dev);
	bqlm_rusbnet_free_dev(net);
}

/*
 * The minidriver's usb_driver disconnect() (ax88179's marks its data,
 * then calls usbnet_disconnect()), or usbnet_disconnect()
 */
static void bqlm_rusbnet_disconnect(struct usb_interface *intf,
				    const struct bqlm_rusbnet_driver *drv)
{
	if (drv->usb && drv->usb->disconnect)
		drv->usb->disconnect(intf);
	else
		usbnet_disconnect(intf);
}

static void bqlm_rusbnet_bh_work(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

#ifdef BQLM_VARIANT_BH_WORK
	usbnet_bh_work(&dev->bh_work);
#else
	usbnet_bh_tasklet(&dev->bh);
#endif
}

static void bqlm_rusbnet_bh_timer(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	usbnet_bh(&dev->delay);
}

static void bqlm_rusbnet_kevent(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	usbnet_deferred_kevent(&dev->kevent);
}

/*
 * A link report: the minidriver's own status() on the interrupt URB of
 * its entry's bytes (as intr_complete() hands it over), when usbnet runs
 * its status(); else usbnet_link_change(dev, @up, 0)
 */
static void bqlm_rusbnet_link(struct net_device *net,
			      const struct bqlm_rusbnet_driver *drv, bool up)
{
	struct usbnet *dev = netdev_priv(net);
	const u8 *bytes = up ? drv->link_up : drv->link_down;
	u8 len = up ? drv->link_up_len : drv->link_down_len;
	u8 buf[BQLM_RUSBNET_LINK_MAX];
	struct urb urb = { };

	if (!dev->driver_info->status || !len) {
		usbnet_link_change(dev, up, 0);
		return;
	}
	/* a URB of its own: the fake controller's are the transmit path's */
	memcpy(buf, bytes, len);
	urb.transfer_buffer = buf;
	urb.transfer_buffer_length = len;
	urb.actual_length = len;
	urb.context = dev;
	dev->driver_info->status(dev, &urb);
	if (drv->status_work)
		drv->status_work(dev);
}

/*
 * dev_set_mtu() of an MTU whose hard_mtu gives TX_QLEN(dev) @tx_qlen at
 * high speed: MAX_QUEUE_MEMORY / hard_mtu, through the device's own
 * ndo_change_mtu (the minidriver's, or usbnet_change_mtu()). The largest
 * such hard_mtu is tried first, then smaller ones while it refuses one
 * (usbnet's and asix's -EDOM: the frame would fill its last packet).
 */
static int bqlm_rusbnet_change_mtu(struct net_device *net,
				   unsigned int tx_qlen)
{
	int (*change)(struct net_device *net, int mtu) =
		net->netdev_ops->ndo_change_mtu ?: usbnet_change_mtu;
	struct usbnet *dev = netdev_priv(net);
	int hard_mtu = MAX_QUEUE_MEMORY / tx_qlen;
	int err = -ERANGE;

	for (; hard_mtu > MAX_QUEUE_MEMORY / (tx_qlen + 1) &&
	       hard_mtu > net->hard_header_len; hard_mtu--) {
		err = change(net, hard_mtu - net->hard_header_len);
		if (err != -EDOM)
			break;
	}
	if (!err && dev->tx_qlen != tx_qlen)
		err = -ERANGE;
	return err;
}

/*
 * RX stays off, as usbnet_probe() left it here: an rx_urb_size above
 * MAX_QUEUE_MEMORY gives RX_QLEN 0 at the next usbnet_update_max_qlen();
 * and RX_QLEN 0 now, after a usbnet_update_max_qlen() on the size a
 * minidriver's callback set (__handle_link_change() after its
 * link_reset())
 */
static void bqlm_rusbnet_rx_off(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	dev->rx_urb_size = MAX_QUEUE_MEMORY + 1;
	dev->rx_qlen = 0;
}

const struct bqlm_rusbnet_ops BQLM_RUSBNET_OPS = {
	.create		= bqlm_rusbnet_create,
	.destroy	= bqlm_rusbnet_destroy,
	.disconnect	= bqlm_rusbnet_disconnect,
	.start_xmit	= usbnet_start_xmit,
	.stop		= usbnet_stop,
	.open		= usbnet_open,
	.tx_timeout	= usbnet_tx_timeout,
	.suspend	= usbnet_suspend,
	.resume		= usbnet_resume,
	.bh_work	= bqlm_rusbnet_bh_work,
	.bh_timer	= bqlm_rusbnet_bh_timer,
	.kevent		= bqlm_rusbnet_kevent,
	.link		= bqlm_rusbnet_link,
	.change_mtu	= bqlm_rusbnet_change_mtu,
	.rx_off		= bqlm_rusbnet_rx_off,
	.drivers	= bqlm_rusbnet_minidrivers,
	.nr_drivers	= ARRAY_SIZE(bqlm_rusbnet_minidrivers),
};

#endif /* _BQLM_REAL_USBNET_POST_H */
