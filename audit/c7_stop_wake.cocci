// SPDX-License-Identifier: GPL-2.0
/// C7: the driver's own ring-full stop needs a full barrier and a
/// re-check, and something must wake what it stops.
///
/// Porting rule: docs/porting-napi.md N4 (the ring-full stop: stop, full
/// barrier, re-check, wake yourself if the ring drained meanwhile; the
/// completion frees, full barrier, then tests the stopped bit) and N5
/// (every stop has a waker), docs/porting-consumer.md C2/C3 (the same
/// handshake for consumer rings). netif_txq_maybe_stop(),
/// netif_txq_try_stop() and netif_txq_completed_wake() of
/// include/net/netdev_queues.h are the reference.
///
/// What it matches, in the transmit path:
///  a) netif_stop_queue(), netif_tx_stop_queue(), netif_stop_subqueue()
///     or netif_tx_stop_all_queues() followed by a path to the end of the
///     function with neither smp_mb()/smp_mb__after_atomic() (nor
///     virtqueue_enable_cb_delayed(), whose barrier orders the stop with
///     virtio_net's re-check of the used ring) nor a wake
///     (a stop with no barrier and no re-check, including the stop before
///     "return NETDEV_TX_BUSY": bnxt_en 3c603136c9f8, tg3 1b2a720506cc);
///     audit.py does not report it when the completion's stopped test and
///     wake hold a lock the stop also holds (the driver's spinlock, or the
///     tx lock the completion takes with __netif_tx_lock()), which
///     excludes the race, nor on the branch the driver reports as a bug
///     with netdev_err()/netdev_warn()/WARN() ("ring full when queue
///     awake": the stop at the end of the transmit makes it unreachable);
///  b) the wakes (netif_wake_queue(), netif_tx_wake_queue(),
///     netif_wake_subqueue(), netif_tx_wake_all_queues(),
///     netif_txq_completed_wake() and friends) anywhere in the driver:
///     audit.py reports a driver that stops in its transmit path and has
///     no wake reachable from a completion context (NAPI poll, interrupt,
///     timer, work, tasklet).
///
/// Known limits: a re-check that reads a stale index (veth 5442a9da6978)
/// and a misread helper return (idpf e4b398dd82f5) are not matched; the
/// wake threshold is not compared with the stop threshold.
//
// Needs: bqlm S("xmit")

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos

@c7a exists@
identifier STOPQ = {netif_stop_queue, netif_tx_stop_queue, netif_stop_subqueue,
	netif_tx_stop_all_queues};
identifier WW = {netif_wake_queue, netif_tx_wake_queue, netif_wake_subqueue,
	netif_start_queue, netif_tx_start_queue, netif_start_subqueue,
	netif_tx_wake_all_queues, netif_tx_start_all_queues};
position p : script:python() { p[0].current_element in S("xmit") };
@@
STOPQ@p(...)
... when != smp_mb()
    when != smp_mb__after_atomic()
    when != virtqueue_enable_cb_delayed(...)
    when != WW(...)

@script:python@
STOPQ << c7a.STOPQ;
p << c7a.p;
@@
fn, line, col = pos(p)
emit(r="C7", k="stop-no-recheck", fn=fn, callee=STOPQ, line=line,
     file=p[0].file)

@c7w@
identifier WW = {netif_wake_queue, netif_tx_wake_queue, netif_wake_subqueue,
	netif_tx_wake_all_queues, netif_txq_completed_wake,
	__netif_txq_completed_wake, netif_subqueue_completed_wake,
	netif_txq_maybe_stop, netif_subqueue_maybe_stop, netif_txq_try_stop,
	netif_subqueue_try_stop, netif_start_queue, netif_tx_start_queue,
	netif_start_subqueue, netif_tx_start_all_queues};
position p;
@@
WW@p(...)

@script:python@
WW << c7w.WW;
p << c7w.p;
@@
fn, line, col = pos(p)
emit(r="C7", k="wake", fn=fn, callee=WW, line=line, file=p[0].file)
