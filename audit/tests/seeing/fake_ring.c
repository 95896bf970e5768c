// SPDX-License-Identifier: GPL-2.0
/*
 * fake_ring.c - a made-up one-queue NIC for make audit-selftest's "what
 * the audit sees" cases (audit/selftest.py, SEEING). Never built: the
 * audit only reads it. Its transmit path counts the packet, then
 * announces it (the doorbell line the test sets: an iowrite16() of the
 * producer index to a register named FAKE_TX_TAIL, to a bare offset, or
 * a call through a function pointer); the tests also move the ops table
 * to another file, add a ring-full stop next to a warning or allocate
 * the netdev with a queue count given by a macro.
 */
#include <linux/netdevice.h>
#include <linux/io.h>

#define FAKE_RING	64
FAKE_DEFINES

struct fake_priv;

struct fake_hw_ops {
	void (*go)(struct fake_priv *priv);
};

struct fake_priv {
	struct net_device *dev;
	struct napi_struct napi;
	void __iomem *regs;
	const struct fake_hw_ops *hw;
	struct sk_buff *skbs[FAKE_RING];
	unsigned int head;
	unsigned int tail;
};

static unsigned int fake_room(struct fake_priv *priv)
{
	return FAKE_RING - (READ_ONCE(priv->head) - READ_ONCE(priv->tail));
}

static int fake_poll(struct napi_struct *napi, int budget)
{
	struct fake_priv *priv = container_of(napi, struct fake_priv, napi);
	unsigned int pkts = 0, bytes = 0;
	unsigned int done = ioread16(priv->regs + 0x3a);

	while (priv->tail != done) {
		struct sk_buff *skb = priv->skbs[priv->tail % FAKE_RING];

		pkts++;
		bytes += skb->len;
		napi_consume_skb(skb, budget);
		priv->tail++;
	}
	netif_txq_completed_wake(netdev_get_tx_queue(priv->dev, 0), pkts,
				 bytes, fake_room(priv), 2);
	napi_complete_done(napi, 0);
	return 0;
}

FAKE_XMIT_STATIC netdev_tx_t fake_xmit(struct sk_buff *skb,
				       struct net_device *dev)
{
	struct fake_priv *priv = netdev_priv(dev);
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);

	FAKE_RING_FULL_CHECK;
	priv->skbs[priv->head % FAKE_RING] = skb;
	netdev_tx_sent_queue(txq, skb->len);
	priv->head++;
	FAKE_DOORBELL;
	netif_txq_maybe_stop(txq, fake_room(priv), 2, 2);
	return NETDEV_TX_OK;
}

static int fake_open(struct net_device *dev)
{
	struct fake_priv *priv = netdev_priv(dev);

	priv->head = 0;
	priv->tail = 0;
	netdev_tx_reset_queue(netdev_get_tx_queue(dev, 0));
	napi_enable(&priv->napi);
	netif_start_queue(dev);
	return 0;
}

static int fake_stop(struct net_device *dev)
{
	struct fake_priv *priv = netdev_priv(dev);

	netif_stop_queue(dev);
	napi_disable(&priv->napi);
	return 0;
}

FAKE_OPS_TABLE

static int fake_probe(struct device *d)
{
	struct net_device *dev = FAKE_ALLOC;
	struct fake_priv *priv = netdev_priv(dev);

	priv->dev = dev;
	dev->netdev_ops = &fake_ops;
	netif_napi_add(dev, &priv->napi, fake_poll);
	return register_netdev(dev);
}
