/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the last lines of a virtio_net variant's object, after the
 * tree's virtio_net.c: the variant's struct bqlm_rvirtio_net_ops. This is
 * the only code of the harness that knows the variant's struct
 * virtnet_info.
 */
#ifndef _BQLM_REAL_VIRTIO_NET_POST_H
#define _BQLM_REAL_VIRTIO_NET_POST_H

static struct net_device *bqlm_rvnet_netdev(struct virtio_device *vdev)
{
	struct virtnet_info *vi = vdev->priv;

	return vi ? vi->dev : NULL;
}

static struct virtqueue *bqlm_rvnet_sq_vq(struct net_device *dev,
					  unsigned int q)
{
	struct virtnet_info *vi = netdev_priv(dev);

	return vi->sq[q].vq;
}

static struct napi_struct *bqlm_rvnet_sq_napi(struct net_device *dev,
					      unsigned int q)
{
	struct virtnet_info *vi = netdev_priv(dev);

	return &vi->sq[q].napi;
}

static struct napi_struct *bqlm_rvnet_rq_napi(struct net_device *dev,
					      unsigned int q)
{
	struct virtnet_info *vi = netdev_priv(dev);

	return &vi->rq[q].napi;
}

static bool bqlm_rvnet_sq_reset(struct net_device *dev, unsigned int q)
{
	struct virtnet_info *vi = netdev_priv(dev);

	return vi->sq[q].reset;
}

static int bqlm_rvnet_xsk_bind(struct net_device *dev, unsigned int q)
{
	struct virtnet_info *vi = netdev_priv(dev);

	return virtnet_sq_bind_xsk_pool(vi, &vi->sq[q], NULL);
}

const struct bqlm_rvirtio_net_ops BQLM_RVNET_OPS = {
	.driver		= &virtio_net_driver,
	.init		= virtio_net_driver_init,
	.exit		= virtio_net_driver_exit,
	.netdev		= bqlm_rvnet_netdev,
	.sq_vq		= bqlm_rvnet_sq_vq,
	.sq_napi	= bqlm_rvnet_sq_napi,
	.rq_napi	= bqlm_rvnet_rq_napi,
	.sq_reset	= bqlm_rvnet_sq_reset,
	.xsk_bind	= bqlm_rvnet_xsk_bind,
};

#endif /* _BQLM_REAL_VIRTIO_NET_POST_H */
