/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the last lines of a veth variant's object, after the tree's
 * veth.c: the variant's struct bqlm_rveth_ops. This is the only code of
 * the harness that knows the variant's struct veth_priv and veth_rq.
 */
#ifndef _BQLM_REAL_VETH_POST_H
#define _BQLM_REAL_VETH_POST_H

static struct ptr_ring *bqlm_rveth_ring(struct net_device *dev, unsigned int q)
{
	struct veth_priv *priv = netdev_priv(dev);

	return &priv->rq[q].xdp_ring;
}

static struct napi_struct *bqlm_rveth_napi(struct net_device *dev,
					   unsigned int q)
{
	struct veth_priv *priv = netdev_priv(dev);

	return &priv->rq[q].xdp_napi;
}

static bool *bqlm_rveth_masked(struct net_device *dev, unsigned int q)
{
	struct veth_priv *priv = netdev_priv(dev);

	return &priv->rq[q].rx_notify_masked;
}

static struct net_device *bqlm_rveth_peer(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	return rtnl_dereference(priv->peer);
}

const struct bqlm_rveth_ops BQLM_RVETH_OPS = {
	.link_ops	= &veth_link_ops,
	.start_xmit	= veth_xmit,
	.ring		= bqlm_rveth_ring,
	.napi		= bqlm_rveth_napi,
	.masked		= bqlm_rveth_masked,
	.peer		= bqlm_rveth_peer,
};

#endif /* _BQLM_REAL_VETH_POST_H */
