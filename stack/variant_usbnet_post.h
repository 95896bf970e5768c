/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the last lines of a usbnet variant's object, after the
 * variant's usbnet.c: the only code of the suites that knows the variant's
 * struct usbnet and struct skb_data.
 */
#ifndef _BQLM_STACK_VARIANT_USBNET_POST_H
#define _BQLM_STACK_VARIANT_USBNET_POST_H

static unsigned int bqlm_stack_inflight(struct net_device *net,
					unsigned int *urbs)
{
	struct usbnet *dev = netdev_priv(net);
	unsigned int bytes = 0, n = 0;
	struct sk_buff *skb;
	unsigned long flags;

	/* the order defer_bh() takes them in */
	spin_lock_irqsave(&dev->txq.lock, flags);
	spin_lock_nested(&dev->done.lock, SINGLE_DEPTH_NESTING);
	skb_queue_walk(&dev->txq, skb) {
		bytes += skb->len;
		n++;
	}
	skb_queue_walk(&dev->done, skb) {
		struct skb_data *entry = (struct skb_data *)skb->cb;

		if (entry->state == tx_done) {
			bytes += skb->len;
			n++;
		}
	}
	spin_unlock(&dev->done.lock);
	spin_unlock_irqrestore(&dev->txq.lock, flags);
	*urbs = n;
	return bytes;
}

static unsigned int bqlm_stack_rx_urbs(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	return skb_queue_len_lockless(&dev->rxq);
}

static unsigned int bqlm_stack_tx_qlen(struct net_device *net)
{
	struct usbnet *dev = netdev_priv(net);

	return TX_QLEN(dev);
}

static bool bqlm_stack_owns(struct net_device *net)
{
	return net->netdev_ops->ndo_start_xmit == usbnet_start_xmit &&
	       net->netdev_ops->ndo_open == usbnet_open;
}

const struct bqlm_stack_usbnet_ops BQLM_STACK_SYM(ops) = {
	.name		= BQLM_STACK_NAME,
	.cdc_ether	= &BQLM_STACK_SYM(cdc_ether),
	.cdc_ncm	= &BQLM_STACK_SYM(cdc_ncm),
	.cdc_ncm_fix	= &BQLM_STACK_SYM(cdc_ncmfix),
	.cdc_info	= &BQLM_STACK_SYM(cdc_info),
	.inflight	= bqlm_stack_inflight,
	.rx_urbs	= bqlm_stack_rx_urbs,
	.tx_qlen	= bqlm_stack_tx_qlen,
	.owns		= bqlm_stack_owns,
};

#endif /* _BQLM_STACK_VARIANT_USBNET_POST_H */
