/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bqlmodel - what one veth variant's object includes before the tree's
 * (patched) drivers/net/veth.c: see real/veth/variant.h and
 * docs/real-veth.md.
 *
 * After every header veth.c includes, the calls at which the model's steps
 * begin or end are redirected to the harness (real/veth/hooks.c), in the
 * text of veth.c only; a hook called outside the harness's actors does
 * what the kernel's function does.
 */
#ifndef _BQLM_REAL_VETH_GLUE_H
#define _BQLM_REAL_VETH_GLUE_H

#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/ethtool.h>
#include <linux/etherdevice.h>
#include <linux/u64_stats_sync.h>
#include <net/rtnetlink.h>
#include <net/dst.h>
#include <net/xfrm.h>
#include <net/xdp.h>
#include <linux/veth.h>
#include <linux/module.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/ptr_ring.h>
#include <linux/bpf_trace.h>
#include <linux/net_tstamp.h>
#include <linux/skbuff_ref.h>
#include <net/page_pool/helpers.h>

#include "hooks.h"

/* The harness makes the pairs: the link kind is not registered at boot. */
#undef module_init
#define module_init(fn)							\
	static initcall_t bqlm_rveth_initcall __used __initdata = fn

/*
 * Step boundaries: the producer's ptr_ring_produce() and stop, the
 * consumer's __ptr_ring_consume(), the return of veth_xdp_rcv() and the
 * wake test at the end of its poll. Each hook runs the kernel's function.
 */
#define ptr_ring_produce(r, p)						\
	bqlm_rveth_produced(r, p, (ptr_ring_produce)(r, p))
#define __ptr_ring_consume(r)						\
	bqlm_rveth_consumed(r, (__ptr_ring_consume)(r))
#define netif_tx_stop_queue		bqlm_rveth_tx_stop_queue
#define netif_tx_queue_stopped		bqlm_rveth_tx_queue_stopped
#define xdp_clear_return_frame_no_direct bqlm_rveth_rcv_done
/* NAPI: the schedule decides when a scheduled poll runs */
#define __napi_schedule			bqlm_rveth_napi_schedule
#define napi_complete_done		bqlm_rveth_napi_complete_done
/*
 * RCU: the producer yields inside veth_xmit()'s read-side section, so the
 * section is the harness's (no one changes the pair while actors run).
 * Lockdep does not see it: rcu_dereference() is checked against the
 * harness's count (or a section of the kernel's), so a dereference outside
 * every section still warns.
 */
#define rcu_read_lock()			bqlm_rveth_rcu_read_lock()
#define rcu_read_unlock()		bqlm_rveth_rcu_read_unlock()
#undef rcu_dereference
#define rcu_dereference(p)	rcu_dereference_check(p, bqlm_rveth_rcu_held())
/* veth_poll() checks for the softirq's RCU-bh section, counted likewise */
#define rcu_read_lock_bh_held()	(bqlm_rveth_rcu_held() || (rcu_read_lock_bh_held)())

#endif /* _BQLM_REAL_VETH_GLUE_H */
