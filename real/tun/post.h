/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the last lines of a tun variant's object, after the tree's
 * tun.c: the variant's struct bqlm_rtun_ops. This is the only code of the
 * harness that knows the variant's struct tun_struct and struct tun_file.
 */
#ifndef _BQLM_REAL_TUN_POST_H
#define _BQLM_REAL_TUN_POST_H

static struct tun_file *bqlm_rtun_tfile(struct file *file)
{
	return file->private_data;
}

static struct ptr_ring *bqlm_rtun_ring(struct tun_file *tfile)
{
	return &tfile->tx_ring;
}

static unsigned int bqlm_rtun_cons_cnt(struct tun_file *tfile)
{
#ifdef IFF_BACKPRESSURE
	return tfile->cons_cnt;
#else
	return 0;
#endif
}

static bool bqlm_rtun_detached(struct tun_file *tfile)
{
	return tfile->detached;
}

static struct tun_file *bqlm_rtun_tfile_of(struct net_device *dev,
					   unsigned int txq)
{
	struct tun_struct *tun = netdev_priv(dev);

	return rcu_dereference_protected(tun->tfiles[txq], true);
}

static unsigned int bqlm_rtun_numqueues(struct net_device *dev)
{
	struct tun_struct *tun = netdev_priv(dev);

	return tun->numqueues;
}

static unsigned int bqlm_rtun_flags(struct net_device *dev)
{
	struct tun_struct *tun = netdev_priv(dev);

	return tun->flags;
}

static int bqlm_rtun_queue_resize(struct net_device *dev)
{
	return tun_queue_resize(netdev_priv(dev));
}

static struct sock *bqlm_rtun_sk(struct tun_file *tfile)
{
	return &tfile->sk;
}

const struct bqlm_rtun_ops BQLM_RTUN_OPS = {
	.open		= tun_chr_open,
	.set_iff	= tun_set_iff,
	.set_queue	= tun_set_queue,
	.close		= tun_chr_close,
	.read		= tun_chr_read_iter,
	.start_xmit	= tun_net_xmit,
	.tfile		= bqlm_rtun_tfile,
	.ring		= bqlm_rtun_ring,
	.cons_cnt	= bqlm_rtun_cons_cnt,
	.detached	= bqlm_rtun_detached,
	.tfile_of	= bqlm_rtun_tfile_of,
	.numqueues	= bqlm_rtun_numqueues,
	.flags		= bqlm_rtun_flags,
	.sk		= bqlm_rtun_sk,
	.queue_resize	= bqlm_rtun_queue_resize,
};

#endif /* _BQLM_REAL_TUN_POST_H */
