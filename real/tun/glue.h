/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what one tun variant's object includes before the tree's
 * (patched) drivers/net/tun.c: see real/tun/variant.h and docs/real-tun.md.
 *
 * The including file defines BQLM_RTUN_PFX (the prefix of this variant's
 * copies of tun.c's exported functions).
 *
 * Order matters:
 *  1. the kernel headers tun.c includes, <linux/ptr_ring.h> excepted, so
 *     that <linux/if_tun.h>'s stubs (CONFIG_TUN is off in the test kernel)
 *     keep their names;
 *  2. the renames of tun.c's exports, with their prototypes;
 *  3. the lock redirections, and only then <linux/skb_array.h>, which
 *     includes <linux/ptr_ring.h>: the ring's own inline functions
 *     (ptr_ring_produce(), ptr_ring_consume(), ptr_ring_resize(), ...)
 *     take their producer_lock and consumer_lock through the harness;
 *  4. the calls at which the model's steps begin or end, redirected in the
 *     text of tun.c only.
 */
#ifndef _BQLM_REAL_TUN_GLUE_H
#define _BQLM_REAL_TUN_GLUE_H

#ifdef _LINUX_PTR_RING_H
#error "<linux/ptr_ring.h> must be compiled after the lock redirections"
#endif

#include <linux/module.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sched/signal.h>
#include <linux/major.h>
#include <linux/slab.h>
#include <linux/poll.h>
#include <linux/fcntl.h>
#include <linux/init.h>
#include <linux/skbuff.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/miscdevice.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <linux/compat.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_tun.h>
#include <linux/if_vlan.h>
#include <linux/crc32.h>
#include <linux/math.h>
#include <linux/nsproxy.h>
#include <linux/virtio_net.h>
#include <linux/rcupdate.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/rtnetlink.h>
#include <net/sock.h>
#include <net/xdp.h>
#include <net/ip_tunnels.h>
#include <linux/seq_file.h>
#include <linux/uio.h>
#include <linux/bpf.h>
#include <linux/bpf_trace.h>
#include <linux/mutex.h>
#include <net/rps.h>
#include <net/sch_generic.h>

#ifdef _LINUX_PTR_RING_H
#error "a kernel header included <linux/ptr_ring.h> before the redirections"
#endif

#include "hooks.h"

/* tun.c names its messages itself */
#undef pr_fmt

#include <linux/args.h>

#define BQLM_RTUN_SYM(n)	CONCATENATE(BQLM_RTUN_PFX, n)

/* 2. tun.c's exports, renamed per variant (the stubs above keep theirs) */
#define tun_get_socket		BQLM_RTUN_SYM(tun_get_socket)
#define tun_get_tx_ring		BQLM_RTUN_SYM(tun_get_tx_ring)
#define tun_ptr_free		BQLM_RTUN_SYM(tun_ptr_free)
struct socket *tun_get_socket(struct file *file);
struct ptr_ring *tun_get_tx_ring(struct file *file);
void tun_ptr_free(void *ptr);

/* The harness opens the devices: nothing registers at boot. */
#undef module_init
#define module_init(fn)							\
	static initcall_t __used __initdata BQLM_RTUN_SYM(initcall) = fn

/* IFF_TUN's header_ops live in net/ipv4/, which the test kernel lacks. */
#if !IS_ENABLED(CONFIG_INET)
#define ip_tunnel_header_ops	bqlm_rtun_ip_tunnel_header_ops
#endif

/*
 * 3. Locks. A ring's producer_lock and consumer_lock are the harness's
 * (bqlm_rtun_lock() returns true and takes its lock) when an actor takes
 * them on a ring the harness watches; every other lock, and every lock
 * taken outside an actor (device creation and teardown), is the
 * kernel's. The parenthesised names call the kernel's inline functions.
 */
#undef spin_lock
#define spin_lock(l) do {						\
	if (!bqlm_rtun_lock(l))						\
		(spin_lock)(l);						\
} while (0)
#undef spin_unlock
#define spin_unlock(l) do {						\
	if (!bqlm_rtun_unlock(l))					\
		(spin_unlock)(l);					\
} while (0)
#undef spin_lock_bh
#define spin_lock_bh(l) do {						\
	if (!bqlm_rtun_lock(l))						\
		(spin_lock_bh)(l);					\
} while (0)
#undef spin_unlock_bh
#define spin_unlock_bh(l) do {						\
	if (!bqlm_rtun_unlock(l))					\
		(spin_unlock_bh)(l);					\
} while (0)
#undef spin_lock_irqsave
#define spin_lock_irqsave(l, f) do {					\
	if (bqlm_rtun_lock(l))						\
		(f) = 0;						\
	else								\
		raw_spin_lock_irqsave(spinlock_check(l), f);		\
} while (0)
#undef spin_unlock_irqrestore
#define spin_unlock_irqrestore(l, f) do {				\
	if (!bqlm_rtun_unlock(l))					\
		(spin_unlock_irqrestore)(l, f);				\
} while (0)

#include <linux/skb_array.h>

/*
 * 4. Step boundaries. Each hook runs the kernel's function (the
 * parenthesised name) and tells the harness what it did; the harness
 * yields where the variant's model step ends.
 */
#define ptr_ring_produce(r, p)						\
	bqlm_rtun_produced(r, p, (ptr_ring_produce)(r, p))
#define __ptr_ring_produce(r, p)					\
	bqlm_rtun_produced(r, p, (__ptr_ring_produce)(r, p))
#define ptr_ring_consume(r)						\
	bqlm_rtun_consumed(r, (ptr_ring_consume)(r))
#define __ptr_ring_consume(r)						\
	bqlm_rtun_consumed(r, (__ptr_ring_consume)(r))
#define ptr_ring_full(r)						\
	bqlm_rtun_full(r, (ptr_ring_full)(r))
#define netif_tx_stop_queue(q)		bqlm_rtun_tx_stop_queue(q)
#define kfree_skb_reason(skb, why)	bqlm_rtun_kfree_skb_reason(skb, why)
#define add_wait_queue			bqlm_rtun_add_wait_queue
#define schedule()			bqlm_rtun_schedule()
#define synchronize_net()		bqlm_rtun_synchronize_net()
/*
 * RCU: an actor may yield inside tun_net_xmit()'s read-side section, so
 * the section is the harness's count, and synchronize_net() waits, as a
 * yield, until no actor is inside one. Lockdep does not see that count:
 * rcu_dereference() is checked against it (or a section of the kernel's),
 * so a dereference outside every section still warns.
 */
#define rcu_read_lock()			bqlm_rtun_rcu_read_lock()
#define rcu_read_unlock()		bqlm_rtun_rcu_read_unlock()
#undef rcu_dereference
#define rcu_dereference(p)	rcu_dereference_check(p, bqlm_rtun_rcu_held())

#endif /* _BQLM_REAL_TUN_GLUE_H */
