// SPDX-License-Identifier: GPL-2.0
/// C3: a multiqueue driver must reset, stop and wake every tx queue, not
/// queue 0 alone.
///
/// Porting rule: docs/porting-napi.md N6 ("netdev_reset_queue(dev) and
/// netdev_sent_queue(dev, ...) are queue 0 only") and N7 (reset every
/// queue the device has).
///
/// What it matches: the calls that act on queue 0 only -
/// netdev_reset_queue(), netdev_sent_queue(), __netdev_sent_queue(),
/// netdev_completed_queue(), netif_stop_queue(), netif_wake_queue(),
/// netif_start_queue() - and the evidence that the device has several tx
/// queues: alloc_etherdev_mq(s)(), alloc_netdev_mqs(),
/// devm_alloc_etherdev_mqs(), alloc_candev_mqs() or
/// netif_set_real_num_tx_queues() with a count that is not 1, or
/// netdev_get_tx_queue()/netif_stop_subqueue()-style calls with an index
/// that is not 0; alloc_etherdev(), alloc_netdev(), alloc_candev() and
/// alloc_hdlcdev() allocate one tx queue. audit.py reports a queue-0 call as a finding when the
/// device is multiqueue, "cannot tell" when the file has no allocation
/// and no per-queue call (the device is set up in another file).
/// It also reports per-queue stop/start/wake loops in the open and close
/// paths bounded by a driver count rather than the netdev's
/// (num_tx_queues / real_num_tx_queues) in a driver that changes its
/// queue count at run time (set_channels): after ethtool -L the loop
/// misses queues (stmmac before "use netif_tx_start|stop_all_queues()").
///
/// audit.py reads the allocation's count by value: a number, or
/// arithmetic on the object-like macros of the driver's directories
/// (rtase's alloc_etherdev_mq(..., RTASE_FUNC_TXQ_NUM) with
/// RTASE_FUNC_TXQ_NUM 1 is a one-queue device, whatever index its
/// netdev_get_tx_queue() calls use).
///
/// Known limits: a count that is a variable or a field is taken as "not
/// 1"; a driver that allocates several queues but sets one real queue in
/// a way not recognised is a false positive.
//
// Needs: nothing from audit.py

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos

@q0@
identifier f = {netdev_reset_queue, netdev_sent_queue, __netdev_sent_queue,
	netdev_completed_queue, netif_stop_queue, netif_wake_queue,
	netif_start_queue};
expression list es;
position p;
@@
f@p(es)

@script:python@
f << q0.f;
es << q0.es;
p << q0.p;
@@
fn, line, col = pos(p)
emit(r="C3", k="q0", fn=fn, callee=f, line=line, args=str(es),
     file=p[0].file)

@mq@
identifier f = {alloc_etherdev_mq, alloc_etherdev_mqs, alloc_netdev_mqs,
	devm_alloc_etherdev_mqs, alloc_candev_mqs, alloc_etherdev,
	devm_alloc_etherdev, alloc_netdev, alloc_candev, alloc_hdlcdev,
	netif_set_real_num_tx_queues, netif_set_real_num_queues,
	netdev_get_tx_queue, netif_stop_subqueue, netif_wake_subqueue,
	netif_start_subqueue, netdev_tx_reset_subqueue,
	netif_subqueue_maybe_stop, netif_subqueue_try_stop,
	netif_subqueue_completed_wake, __netif_subqueue_stopped};
expression list es;
position p;
@@
f@p(es)

@script:python@
f << mq.f;
es << mq.es;
p << mq.p;
@@
fn, line, col = pos(p)
emit(r="C3", k="mq", fn=fn, callee=f, line=line, args=str(es),
     file=p[0].file)

@qloop@
identifier f = {netif_tx_stop_queue, netif_tx_start_queue,
	netif_tx_wake_queue, netdev_tx_reset_queue};
expression E1, E2, E3, Q;
position p;
@@
for (E1; E2; E3) { <+... f@p(Q) ...+> }

@script:python@
f << qloop.f;
E2 << qloop.E2;
p << qloop.p;
@@
fn, line, col = pos(p)
emit(r="C3", k="qloop", fn=fn, callee=f, line=line, bound=E2,
     file=p[0].file)
