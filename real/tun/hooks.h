/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - the real tun.c under the model's schedules: what the tun
 * variants' objects (the tree's drivers/net/tun.c patched as
 * real/patches/tun/series says, compiled with real/tun/glue.h by the
 * objects scripts/kunit.sh generates) and the harness share.
 */
#ifndef _BQLM_REAL_TUN_HOOKS_H
#define _BQLM_REAL_TUN_HOOKS_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/uio.h>
#include <linux/wait.h>

struct file;
struct ifreq;
struct ptr_ring;
struct tun_file;

/**
 * enum bqlm_rtun_steps - how a variant's tun.c takes the model's steps,
 *	read from the model's design (bqlm_rtun_steps_of())
 * @BQLM_VARIANT_STEPS_STOCK: the stack's step, then tun_net_xmit() whole;
 *	a read whole
 * @BQLM_VARIANT_STEPS_STOP_2019: the 2019 experiment: a step after
 *	ptr_ring_produce() and after a ptr_ring_full() that is true; a read
 *	ends its step after ptr_ring_consume()
 * @BQLM_VARIANT_STEPS_BACKPRESSURE: the producer's and the reader's steps
 *	under the ring locks, with IFF_BACKPRESSURE and tun_force_wake_queue()
 */
enum bqlm_rtun_steps {
	BQLM_VARIANT_STEPS_STOCK,
	BQLM_VARIANT_STEPS_STOP_2019,
	BQLM_VARIANT_STEPS_BACKPRESSURE,
};

/**
 * struct bqlm_rtun_ops - one variant's tun.c, as the harness calls it
 * @open: tun_chr_open()
 * @set_iff: tun_set_iff(), rtnl held
 * @set_queue: tun_set_queue() (TUNSETQUEUE)
 * @close: tun_chr_close()
 * @read: tun_chr_read_iter()
 * @start_xmit: tun_net_xmit()
 * @tfile: the struct tun_file of an open file
 * @ring: the tx_ring of a struct tun_file
 * @cons_cnt: its cons_cnt (0 in variants without one)
 * @detached: it is detached (TUNSETQUEUE)
 * @tfile_of: rcu_dereference(tun->tfiles[@txq]), NULL if none
 * @numqueues: tun->numqueues
 * @flags: tun->flags
 * @sk: the socket of a struct tun_file
 * @queue_resize: tun_queue_resize() (NETDEV_CHANGE_TX_QUEUE_LEN), rtnl held
 */
struct bqlm_rtun_ops {
	int (*open)(struct inode *inode, struct file *file);
	int (*set_iff)(struct net *net, struct file *file, struct ifreq *ifr);
	int (*set_queue)(struct file *file, struct ifreq *ifr);
	int (*close)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct kiocb *iocb, struct iov_iter *to);
	netdev_tx_t (*start_xmit)(struct sk_buff *skb, struct net_device *dev);
	struct tun_file *(*tfile)(struct file *file);
	struct ptr_ring *(*ring)(struct tun_file *tfile);
	unsigned int (*cons_cnt)(struct tun_file *tfile);
	bool (*detached)(struct tun_file *tfile);
	struct tun_file *(*tfile_of)(struct net_device *dev, unsigned int txq);
	unsigned int (*numqueues)(struct net_device *dev);
	unsigned int (*flags)(struct net_device *dev);
	struct sock *(*sk)(struct tun_file *tfile);
	int (*queue_resize)(struct net_device *dev);
};

/* Every variant's ops, and BQLM_RTUN_VARIANTS (generated) */
#include <tun-variants.h>

extern const struct header_ops bqlm_rtun_ip_tunnel_header_ops;

/* The hooks of real/tun/glue.h */
bool bqlm_rtun_lock(spinlock_t *l);
bool bqlm_rtun_unlock(spinlock_t *l);
int bqlm_rtun_produced(struct ptr_ring *r, void *ptr, int ret);
void *bqlm_rtun_consumed(struct ptr_ring *r, void *ptr);
bool bqlm_rtun_full(struct ptr_ring *r, bool full);
void bqlm_rtun_tx_stop_queue(struct netdev_queue *q);
void bqlm_rtun_kfree_skb_reason(struct sk_buff *skb,
				enum skb_drop_reason reason);
void bqlm_rtun_add_wait_queue(struct wait_queue_head *wq_head,
			      struct wait_queue_entry *wq_entry);
void bqlm_rtun_schedule(void);
void bqlm_rtun_synchronize_net(void);
void bqlm_rtun_rcu_read_lock(void);
void bqlm_rtun_rcu_read_unlock(void);
bool bqlm_rtun_rcu_held(void);

#endif /* _BQLM_REAL_TUN_HOOKS_H */
