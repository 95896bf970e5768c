/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what one usbnet variant's object includes before the tree's
 * (patched) usbnet.c and the minidrivers: see real/usbnet/variant.h and
 * docs/real-usbnet.md.
 *
 * After every header usbnet.c and the minidrivers include, the calls at
 * which the model's steps begin or end (real/usbnet/hooks.c), and the USB
 * core that UML does not have (real/fake/usb_hcd.c), are redirected to the
 * harness. The redirections apply to the text of usbnet.c and the
 * minidrivers only; the kernel's own inline functions compiled before them
 * are untouched.
 */
#ifndef _BQLM_REAL_USBNET_GLUE_H
#define _BQLM_REAL_USBNET_GLUE_H

#include <linux/ctype.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/mii.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/pm_runtime.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/usb.h>
#include <linux/usb/cdc.h>
#include <linux/usb/cdc_ncm.h>
#include <linux/usb/usbnet.h>
#include <linux/hrtimer.h>
#include <linux/kstrtox.h>
#include <linux/crc32.h>
#include <linux/if_vlan.h>
#include <linux/linkmode.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "hooks.h"

/* One copy of the module parameter is enough: the harness sets none. */
#undef module_param
#define module_param(name, type, perm)					\
	static_assert(sizeof(name) && sizeof(#type) && (perm) >= 0)
#undef MODULE_PARM_DESC
#define MODULE_PARM_DESC(name, desc)					\
	static_assert(sizeof(name) && sizeof(desc))
/* The minidrivers compiled with it register nothing: the harness binds */
#undef module_usb_driver
#define module_usb_driver(drv)		static_assert(sizeof(drv))
#undef MODULE_DEVICE_TABLE
#define MODULE_DEVICE_TABLE(type, name)	static_assert(sizeof(name))
/* one object, many minidrivers: their versions are not the object's */
#undef MODULE_VERSION
#define MODULE_VERSION(v)		static_assert(sizeof(v))

/* The USB core: the fake host controller */
#include "../fake/usb_glue.h"

/* Deferred work: the schedule decides when it runs */
#define tasklet_schedule		bqlm_rusbnet_tasklet_schedule
#define tasklet_kill			bqlm_rusbnet_tasklet_kill
#define mod_timer			bqlm_rusbnet_mod_timer
#define timer_pending			bqlm_rusbnet_timer_pending
#define del_timer_sync			bqlm_rusbnet_del_timer_sync
#define schedule_work			bqlm_rusbnet_schedule_work
#define cancel_work_sync		bqlm_rusbnet_cancel_work_sync
/* the BH-work variants' bottom half (bh-work.patch) and its timer call */
#define queue_work			bqlm_rusbnet_queue_work
#define disable_work_sync		bqlm_rusbnet_disable_work_sync
#define enable_work			bqlm_rusbnet_enable_work
#define timer_delete_sync		bqlm_rusbnet_del_timer_sync

/*
 * cdc_ncm's flush timer and its tasklet: the schedule runs the flush
 * (the model's ncm-timer actor) when an aggregate is pending, and the
 * HARD_TX_LOCK it takes is the schedule's order, as for the stack.
 */
#define hrtimer_start			bqlm_rusbnet_hrtimer_start
#define hrtimer_active(t)		bqlm_rusbnet_hrtimer_active(t)
#define netif_tx_lock_bh(dev)		bqlm_rusbnet_netif_tx_lock_bh(dev)
#define netif_tx_unlock_bh(dev)		bqlm_rusbnet_netif_tx_unlock_bh(dev)

/*
 * usbnet_disconnect() on the harness's device, which is never registered:
 * unregister_netdev() closes it as dev_close() would, under the
 * disconnect's steps, and free_netdev() reports what would still act on
 * the freed device (the harness frees it at its teardown). Function-like,
 * so that the harness's own "(free_netdev)(net)" is the kernel's.
 */
#define unregister_netdev(net)		bqlm_rusbnet_unregister_netdev(net)
#define free_netdev(net)		bqlm_rusbnet_free_netdev(net)

/* Step boundaries */
#define skb_dequeue			bqlm_rusbnet_skb_dequeue
#define skb_queue_purge			bqlm_rusbnet_skb_queue_purge
#define add_wait_queue			bqlm_rusbnet_add_wait_queue
#define schedule_timeout		bqlm_rusbnet_schedule_timeout
#define netdev_sent_queue		bqlm_rusbnet_netdev_sent_queue
#define netdev_completed_queue		bqlm_rusbnet_netdev_completed_queue
#define netdev_reset_queue		bqlm_rusbnet_netdev_reset_queue

/*
 * Locks: dev->txq.lock and dev->bql_spinlock are held across steps, so
 * they are the harness's (bqlm_rusbnet_lock() returns true and takes it);
 * every other lock is the kernel's, taken as usbnet.c takes it. The
 * parenthesised names call the kernel's inline functions of these names.
 * spin_lock_nested() and spin_lock() are never redirected: usbnet takes
 * dev->done.lock and cdc_ncm its ctx->mtx with them. A lock is found by
 * its address and by how it is taken: on a uniprocessor kernel without
 * lock debugging a spinlock_t has no size, and dev->done.lock then has the
 * address of the field after it (bql_spinlock in merged and later); but
 * only bql_spinlock is taken with spin_lock_bh(), and dev->txq.lock only
 * with spin_lock_irqsave() and spin_lock_irq().
 */
#undef spin_lock_irqsave
#define spin_lock_irqsave(l, f) do {					\
	if (bqlm_rusbnet_lock(l, false))					\
		(f) = 0;						\
	else								\
		raw_spin_lock_irqsave(spinlock_check(l), f);		\
} while (0)
/* the kernel's @call, unless bqlm_rusbnet_@op() took the harness's lock */
#define BQLM_RUSBNET_SPIN(op, l, bh, call) do {				\
	if (!bqlm_rusbnet_##op(l, bh))					\
		call;							\
} while (0)
#define spin_unlock_irqrestore(l, f)					\
	BQLM_RUSBNET_SPIN(unlock, l, false, (spin_unlock_irqrestore)(l, f))
#define spin_lock_irq(l) BQLM_RUSBNET_SPIN(lock, l, false, (spin_lock_irq)(l))
#define spin_unlock_irq(l) BQLM_RUSBNET_SPIN(unlock, l, false, (spin_unlock_irq)(l))
#define spin_lock_bh(l) BQLM_RUSBNET_SPIN(lock, l, true, (spin_lock_bh)(l))
#define spin_unlock_bh(l) BQLM_RUSBNET_SPIN(unlock, l, true, (spin_unlock_bh)(l))

#endif /* _BQLM_REAL_USBNET_GLUE_H */
