// SPDX-License-Identifier: GPL-2.0
/*
 * bqlmodel - the real tun.c under the model's schedules: a device's life,
 * made as TUNSETIFF makes it, and torn down when every actor has finished
 * (see harness.h, docs/real-tun.md).
 */
#include <linux/fs.h>
#include <linux/if_tun.h>
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/rtnetlink.h>
#include <linux/skb_array.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <net/sock.h>

#include "harness.h"

/*
 * Free the device and its files; a test qdisc that did not go idle keeps
 * the device (its TX softirq may still run on it): leaked, and the
 * harness failed
 */
static int bqlm_rtun_release(struct bqlm_rtun *u)
{
	unsigned int q;
	int err = 0;

	for (q = 0; q < u->cfg.queues && u->dev; q++) {
		if (!u->qdisc[q])
			continue;
		if (bqlm_rc_qdisc_put(netdev_get_tx_queue(u->dev, q),
				      u->qdisc[q]))
			err = -EBUSY;
		u->qdisc[q] = NULL;
	}
	if (err) {
		bqlm_rc_fail(&u->rc, err, "a test qdisc did not go idle: device leaked");
		memset(u->file, 0, sizeof(u->file));
		memset(u->tfile, 0, sizeof(u->tfile));
		u->dev = NULL;
		return err;
	}
	u->dev = NULL;
	memset(u->ring, 0, sizeof(u->ring));
	/* the last close unregisters the device (not IFF_PERSIST) */
	for (q = 0; q < u->cfg.queues; q++) {
		if (!u->file[q])
			continue;
		if (u->tfile[q])
			u->ops->close(NULL, u->file[q]);
		kfree(u->file[q]);
		u->file[q] = NULL;
		u->tfile[q] = NULL;
	}
	bqlm_rc_free_skbs(u->skb, BQLM_TUN_MAX_PACKETS, u->sent);
	return 0;
}

/**
 * bqlm_rtun_up() - a fresh real tun device in the model's initial state
 * @u: the harness, every actor idle
 *
 * Return: 0 or a negative errno.
 */
int bqlm_rtun_up(struct bqlm_rtun *u)
{
	struct ifreq ifr;
	unsigned int q, i;
	int ret = 0;

	memset(u->where, 0, sizeof(u->where));
	memset(u->shadow, 0, sizeof(u->shadow));
	memset(u->woke_full, 0, sizeof(u->woke_full));
	memset(u->drops, 0, sizeof(u->drops));
	memset(u->rcu, 0, sizeof(u->rcu));
	memset(u->rd, 0, sizeof(u->rd));
	memset(&u->ev, 0, sizeof(u->ev));
	memset(u->cpu, 0, sizeof(u->cpu));
	u->sent = 0;
	u->delivered = 0;
	u->detached_q = 0;
	u->detaches_left = u->cfg.detaches;
	u->resizes_left = u->cfg.resizes;

	for (q = 0; q < u->cfg.queues; q++) {
		u->file[q] = kzalloc(sizeof(*u->file[q]), GFP_KERNEL);
		if (!u->file[q])
			goto nomem;
		ret = u->ops->open(NULL, u->file[q]);
		if (ret) {
			kfree(u->file[q]);
			u->file[q] = NULL;
			goto fail;
		}
		u->tfile[q] = u->ops->tfile(u->file[q]);
	}
	memset(&ifr, 0, sizeof(ifr));
	strscpy(ifr.ifr_name, "bqlmtun%d", IFNAMSIZ);
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_MULTI_QUEUE |
			(u->cfg.backpressure ? RTUN_IFF_BACKPRESSURE : 0);
	rtnl_lock();
	for (q = 0; q < u->cfg.queues && !ret; q++)
		ret = u->ops->set_iff(&init_net, u->file[q], &ifr);
	if (!ret) {
		u->dev = __dev_get_by_name(&init_net, ifr.ifr_name);
		if (!u->dev)
			ret = -ENODEV;
	}
	if (!ret) {
		/* tx_queue_len as the model's ring, as tun_queue_resize() */
		struct ptr_ring *rings[BQLM_TUN_MAX_QUEUES];

		u->dev->tx_queue_len = u->cfg.ring;
		for (q = 0; q < u->cfg.queues; q++)
			rings[q] = u->ops->ring(u->tfile[q]);
		ret = ptr_ring_resize_multiple_bh(rings, u->cfg.queues,
						  u->cfg.ring, GFP_KERNEL,
						  __skb_array_destroy_skb);
	}
	for (q = 0; q < u->cfg.queues && !ret; q++) {
		struct netdev_queue *txq = netdev_get_tx_queue(u->dev, q);

		u->qdisc[q] = qdisc_create_dflt(txq, u->cfg.qdisc ?
						&bqlm_rc_qdisc_ops :
						&bqlm_rc_noqueue_ops,
						TC_H_ROOT, NULL);
		if (!u->qdisc[q])
			ret = -ENOMEM;
		else
			rcu_assign_pointer(txq->qdisc, u->qdisc[q]);
	}
	rtnl_unlock();
	if (ret)
		goto fail;
	for (q = 0; q < u->cfg.queues; q++) {
		u->ring[q] = u->ops->ring(u->tfile[q]);
		u->plock[q].owner = NULL;
		u->clock[q].owner = NULL;
	}
	for (i = 1; i <= u->cfg.packets; i++) {
		u->skb[i] = bqlm_rc_new_skb(u->dev, NET_IP_ALIGN,
					    RTUN_PKT_LEN, i, ETH_P_IP);
		if (!u->skb[i])
			goto nomem;
	}
	return 0;
nomem:
	ret = -ENOMEM;
fail:
	return bqlm_rtun_release(u) ?: ret;
}

/* A reader that sleeps ends its read when its socket is shut down. */
static void bqlm_rtun_shutdown_readers(struct bqlm_rtun *u)
{
	unsigned int q;

	for (q = 0; q < u->cfg.queues; q++) {
		struct sock *sk;

		if (!u->rd[q].sleeping)
			continue;
		sk = u->ops->sk(u->tfile[q]);
		sk->sk_shutdown |= RCV_SHUTDOWN;
		sk->sk_data_ready(sk);
	}
}

/**
 * bqlm_rtun_down() - let every actor finish, then free the device
 * @u: the harness
 *
 * Return: 0, or -EBUSY if an actor could not finish or a test qdisc did
 * not go idle (the harness failed; the device is leaked).
 */
int bqlm_rtun_down(struct bqlm_rtun *u)
{
	unsigned int rounds;
	bool busy = true;

	for (rounds = 0; rounds < 64 && busy && !u->rc.error; rounds++) {
		bool ran;

		busy = false;
		ran = bqlm_rc_resume_busy(&u->rc, true, &busy);
		if (busy && !ran)
			bqlm_rtun_shutdown_readers(u);
	}
	if (bqlm_rc_finished(&u->rc, busy))
		return -EBUSY;
	return bqlm_rtun_release(u);
}
