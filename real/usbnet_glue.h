/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what one usbnet variant's object includes before the tree's
 * (patched) usbnet.c: see docs/real-code.md.
 *
 * The including file defines BQLM_RCU_PFX (the prefix of this variant's
 * copies of usbnet.c's exported functions) and has already included the
 * generated <usbnet-exports.h> (the renames) and the variant's
 * <usbnet-VARIANT.h> (include/linux/usb/usbnet.h as the variant has it).
 *
 * After every header usbnet.c includes, the calls at which the model's
 * steps begin or end, and the USB core that UML does not have, are
 * redirected to the harness (real/usbnet_rc.c). The redirections apply to
 * the text of usbnet.c only; the kernel's own inline functions compiled
 * before them are untouched.
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

#include "usbnet_rc.h"

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

/* The USB core: the fake host controller */
#define usb_alloc_urb			bqlm_rcu_usb_alloc_urb
#define usb_free_urb			bqlm_rcu_usb_free_urb
#define usb_get_urb			bqlm_rcu_usb_get_urb
#define usb_submit_urb			bqlm_rcu_usb_submit_urb
#define usb_unlink_urb			bqlm_rcu_usb_unlink_urb
#define usb_kill_urb			bqlm_rcu_usb_kill_urb
#define usb_anchor_urb			bqlm_rcu_usb_anchor_urb
#define usb_get_from_anchor		bqlm_rcu_usb_get_from_anchor
#define usb_scuttle_anchored_urbs	bqlm_rcu_usb_scuttle_anchored_urbs
#define usb_autopm_get_interface	bqlm_rcu_usb_autopm_get_interface
#define usb_autopm_put_interface	bqlm_rcu_usb_autopm_put_interface
#define usb_autopm_get_interface_async	bqlm_rcu_usb_autopm_get_interface_async
#define usb_autopm_put_interface_async	bqlm_rcu_usb_autopm_put_interface_async
#define usb_autopm_get_interface_no_resume \
	bqlm_rcu_usb_autopm_get_interface_no_resume
#define usb_clear_halt			bqlm_rcu_usb_clear_halt
#define usb_control_msg			bqlm_rcu_usb_control_msg
#define usb_set_interface		bqlm_rcu_usb_set_interface
#define usb_string			bqlm_rcu_usb_string
#define usb_check_bulk_endpoints	bqlm_rcu_usb_check_bulk_endpoints
#define usb_get_dev			bqlm_rcu_usb_get_dev
#define usb_put_dev			bqlm_rcu_usb_put_dev
#define usb_driver_set_configuration	bqlm_rcu_usb_driver_set_configuration
/* bind-time only (cdc_ether, aqc111): the harness never binds */
#define usb_driver_claim_interface	bqlm_rcu_usb_driver_claim_interface
#define usb_driver_release_interface	bqlm_rcu_usb_driver_release_interface
#define usb_ifnum_to_if			bqlm_rcu_usb_ifnum_to_if
#define usb_reset_configuration		bqlm_rcu_usb_reset_configuration
#define cdc_parse_cdc_header		bqlm_rcu_cdc_parse_cdc_header

/* Deferred work: the schedule decides when it runs */
#define tasklet_schedule		bqlm_rcu_tasklet_schedule
#define tasklet_kill			bqlm_rcu_tasklet_kill
#define mod_timer			bqlm_rcu_mod_timer
#define timer_pending			bqlm_rcu_timer_pending
#define del_timer_sync			bqlm_rcu_del_timer_sync
#define schedule_work			bqlm_rcu_schedule_work
#define cancel_work_sync		bqlm_rcu_cancel_work_sync

/*
 * cdc_ncm's flush timer and its tasklet: the schedule runs the flush
 * (the model's ncm-timer actor) when an aggregate is pending, and the
 * HARD_TX_LOCK it takes is the schedule's order, as for the stack.
 */
#define hrtimer_start			bqlm_rcu_hrtimer_start
#define hrtimer_active(t)		bqlm_rcu_hrtimer_active(t)
#define netif_tx_lock_bh(dev)		bqlm_rcu_netif_tx_lock_bh(dev)
#define netif_tx_unlock_bh(dev)		bqlm_rcu_netif_tx_unlock_bh(dev)

/* Step boundaries */
#define skb_dequeue			bqlm_rcu_skb_dequeue
#define skb_queue_purge			bqlm_rcu_skb_queue_purge
#define add_wait_queue			bqlm_rcu_add_wait_queue
#define schedule_timeout		bqlm_rcu_schedule_timeout
#define netdev_sent_queue		bqlm_rcu_netdev_sent_queue
#define netdev_completed_queue		bqlm_rcu_netdev_completed_queue
#define netdev_reset_queue		bqlm_rcu_netdev_reset_queue

/*
 * Locks: dev->txq.lock and dev->bql_spinlock are held across steps, so
 * they are the harness's (bqlm_rcu_lock() returns true and takes it);
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
	if (bqlm_rcu_lock(l, false))					\
		(f) = 0;						\
	else								\
		raw_spin_lock_irqsave(spinlock_check(l), f);		\
} while (0)
#define spin_unlock_irqrestore(l, f) do {				\
	if (!bqlm_rcu_unlock(l, false))					\
		(spin_unlock_irqrestore)(l, f);				\
} while (0)
#define spin_lock_irq(l) do {						\
	if (!bqlm_rcu_lock(l, false))					\
		(spin_lock_irq)(l);					\
} while (0)
#define spin_unlock_irq(l) do {						\
	if (!bqlm_rcu_unlock(l, false))					\
		(spin_unlock_irq)(l);					\
} while (0)
#define spin_lock_bh(l) do {						\
	if (!bqlm_rcu_lock(l, true))					\
		(spin_lock_bh)(l);					\
} while (0)
#define spin_unlock_bh(l) do {						\
	if (!bqlm_rcu_unlock(l, true))					\
		(spin_unlock_bh)(l);					\
} while (0)

#endif /* _BQLM_REAL_USBNET_GLUE_H */
