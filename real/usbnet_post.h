/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the last lines of a usbnet variant's object, after the tree's
 * usbnet.c: the device as usbnet_probe() builds it, minus the USB
 * descriptors, and the variant's struct bqlm_rcu_ops. This is the only
 * code of the harness that knows the variant's struct usbnet.
 */
#ifndef _BQLM_REAL_USBNET_POST_H
#define _BQLM_REAL_USBNET_POST_H

/*
 * Two minidrivers of the tree, compiled against this variant's usbnet.c:
 * the harness runs their own driver_info (flags, tx_fixup). Each names its
 * device table "products".
 */
#define products	bqlm_rcu_cdc_ether_products
#include <cdc_ether.c>
#undef products
#define products	bqlm_rcu_aqc111_products
#include <aqc111.c>
#undef products
#define wwan_info	bqlm_rcu_ncm_wwan_info
#include <cdc_ncm.c>
#undef wwan_info

/*
 * cdc_ncm_bind_common() minus the descriptors: the NTB parameters the model
 * frames with (NTB16, two datagrams, 4-byte alignment), and a tx_max above
 * what two datagrams take with min_tx_pkt at tx_max, so that an NTB goes
 * out at its length (with cdc_ncm's short-packet byte), not filled up.
 */
static int bqlm_rcu_ncm_bind(struct usbnet *dev)
{
	struct cdc_ncm_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->dev = dev;
	hrtimer_init(&ctx->tx_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	ctx->tx_timer.function = &cdc_ncm_tx_timer_cb;
	tasklet_setup(&ctx->bh, cdc_ncm_txpath_bh);
	atomic_set(&ctx->stop, 0);
	spin_lock_init(&ctx->mtx);
	ctx->is_ndp16 = 1;
	ctx->tx_max = 4096;
	ctx->tx_max_datagrams = 2;
	ctx->tx_modulus = 4;
	ctx->tx_remainder = 0;
	ctx->tx_ndp_modulus = 4;
	ctx->max_ndp_size = sizeof(struct usb_cdc_ncm_ndp16) +
			    (ctx->tx_max_datagrams + 1) *
			    sizeof(struct usb_cdc_ncm_dpe16);
	ctx->timer_interval = CDC_NCM_TIMER_INTERVAL_USEC * NSEC_PER_USEC;
	ctx->min_tx_pkt = ctx->tx_max;
	dev->data[0] = (unsigned long)ctx;
	return 0;
}

/* The timer has fired often enough: cdc_ncm_txpath_bh() flushes. */
static void bqlm_rcu_ncm_flush(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);
	struct cdc_ncm_ctx *ctx = (struct cdc_ncm_ctx *)dev->data[0];

	ctx->tx_timer_pending = 0;
	cdc_ncm_txpath_bh(&ctx->bh);
}

static unsigned int bqlm_rcu_ncm_pending(struct net_device *net,
					 unsigned int *len)
{
	struct usbnet *dev = netdev_priv(net);
	struct cdc_ncm_ctx *ctx = (struct cdc_ncm_ctx *)dev->data[0];
	unsigned int head = sizeof(struct usb_cdc_ncm_nth16);

	*len = 0;
	if (!ctx || !ctx->tx_curr_skb || !ctx->tx_curr_frame_num)
		return 0;
	head = ALIGN(head, ctx->tx_ndp_modulus) + ctx->max_ndp_size;
	*len = ctx->tx_curr_skb->len - ALIGN(head, ctx->tx_modulus);
	return ctx->tx_curr_frame_num;
}

static void bqlm_rcu_release(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);
	struct cdc_ncm_ctx *ctx = (struct cdc_ncm_ctx *)dev->data[0];

	if (!ctx)
		return;
	dev_kfree_skb_any(ctx->tx_curr_skb);
	dev_kfree_skb_any(ctx->tx_rem_skb);
	kfree(ctx);
	dev->data[0] = 0;
}

static const struct net_device_ops bqlm_rcu_netdev_ops_empty;

/*
 * The part of usbnet_probe() that does not talk to the device; TX_QLEN is
 * set through hard_mtu (usbnet_update_max_qlen() at high speed), and RX
 * is kept off by an rx_urb_size above MAX_QUEUE_MEMORY (RX_QLEN 0).
 */
static struct net_device *bqlm_rcu_create(struct bqlm_rcu *u,
					  struct bqlm_rcu_view *v)
{
	struct net_device *net;
	struct usbnet *dev;

	net = alloc_etherdev(sizeof(*dev));
	if (!net)
		return NULL;
	net->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	if (!net->tstats) {
		free_netdev(net);
		return NULL;
	}
	net->netdev_ops = &bqlm_rcu_netdev_ops_empty;
	dev = netdev_priv(net);
	dev->udev = bqlm_rcu_udev(u);
	dev->intf = bqlm_rcu_intf(u);
	dev->driver_info = bqlm_rcu_info(u);
	dev->driver_name = "bqlm-rcu";
	dev->net = net;
	init_waitqueue_head(&dev->wait);
	skb_queue_head_init(&dev->rxq);
	skb_queue_head_init(&dev->txq);
	skb_queue_head_init(&dev->done);
	skb_queue_head_init(&dev->rxq_pause);
#ifdef BQLM_RCU_BQL_SPINLOCK
	spin_lock_init(&dev->bql_spinlock);
#endif
	tasklet_setup(&dev->bh, usbnet_bh_tasklet);
	INIT_WORK(&dev->kevent, usbnet_deferred_kevent);
	init_usb_anchor(&dev->deferred);
	timer_setup(&dev->delay, usbnet_bh, 0);
	mutex_init(&dev->phy_mutex);
	mutex_init(&dev->interrupt_mutex);
	dev->maxpacket = bqlm_rcu_maxpacket(u);
	dev->out = usb_sndbulkpipe(dev->udev, 1);
	dev->hard_mtu = MAX_QUEUE_MEMORY / bqlm_rcu_tx_qlen(u);
	dev->rx_urb_size = MAX_QUEUE_MEMORY + 1;
	usbnet_update_max_qlen(dev);
	usb_set_intfdata(dev->intf, dev);
	if (dev->driver_info->tx_fixup == cdc_ncm_tx_fixup &&
	    bqlm_rcu_ncm_bind(dev)) {
		free_percpu(net->tstats);
		free_netdev(net);
		return NULL;
	}

	v->txq = &dev->txq;
	v->rxq = &dev->rxq;
	v->done = &dev->done;
	v->flags = &dev->flags;
	v->txq_lock = &dev->txq.lock;
	v->rxq_lock = &dev->rxq.lock;
#ifdef BQLM_RCU_BQL_SPINLOCK
	v->bql_lock = &dev->bql_spinlock;
#else
	v->bql_lock = NULL;
#endif
	v->bh = &dev->bh;
	v->delay = &dev->delay;
	v->kevent = &dev->kevent;
	v->rxq_pause = &dev->rxq_pause;
	v->wait = &dev->wait;
	return net;
}

static void bqlm_rcu_bh_work(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	usbnet_bh_tasklet(&dev->bh);
}

static void bqlm_rcu_bh_timer(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	usbnet_bh(&dev->delay);
}

static void bqlm_rcu_kevent(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	usbnet_deferred_kevent(&dev->kevent);
}

const struct bqlm_rcu_ops BQLM_RCU_OPS = {
	.variant	= BQLM_RCU_VARIANT,
	.create		= bqlm_rcu_create,
	.start_xmit	= usbnet_start_xmit,
	.stop		= usbnet_stop,
	.open		= usbnet_open,
	.tx_timeout	= usbnet_tx_timeout,
	.suspend	= usbnet_suspend,
	.resume		= usbnet_resume,
	.bh_work	= bqlm_rcu_bh_work,
	.bh_timer	= bqlm_rcu_bh_timer,
	.kevent		= bqlm_rcu_kevent,
	.cdc_ether_info	= &cdc_info,
	.aqc111_info	= &aqc111_info,
	.cdc_ncm_info	= &cdc_ncm_info,
	.ncm_flush	= bqlm_rcu_ncm_flush,
	.ncm_pending	= bqlm_rcu_ncm_pending,
	.release	= bqlm_rcu_release,
};

#endif /* _BQLM_REAL_USBNET_POST_H */
