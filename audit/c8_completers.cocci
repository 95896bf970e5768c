// SPDX-License-Identifier: GPL-2.0
/// C8: one completion at a time per queue.
///
/// Porting rule: docs/porting.md rule 5 ("One completion at a time per
/// queue": dql_completed() is a read-modify-write without a lock of its
/// own), docs/porting-napi.md N5 (several completers share one lock: the
/// tx lock a trylock can only serialise with if the others hold it).
///
/// What it matches: every call on the way to a completion
/// (netdev_tx_completed_queue(), netdev_completed_queue(),
/// netif_txq_completed_wake() and friends, or a function of the driver
/// that reaches one) that a path reaches from the start of its function
/// without taking a lock. audit.py takes the contexts that reach a
/// completion (NAPI polls, interrupt handlers, timers, work items,
/// tasklets, dmaengine callbacks, ndo_start_xmit with its tx lock,
/// ndo_xdp_xmit) with the locks held on the way (facts.cocci's locked
/// calls, the tx lock of ndo_start_xmit unless the driver is LLTX), and
/// reports two different contexts that complete with no lock in common.
///
/// Known limits: locks are compared by their expression with the base
/// variable dropped (&priv->lock and &bp->lock are the same lock); a
/// driver flag or an atomic test-and-set that keeps the contexts apart
/// (NAPI_STATE_SCHED, a "busy" bit) is not seen: such cases are found in
/// the triage; a context that can only run while another cannot (an
/// interrupt that is masked while the poll runs) is reported.
//
// Needs: bqlma.S("completers")

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos

@c8u exists@
identifier C : script:python() { C in S("completers") };
identifier LK = {spin_lock, spin_lock_irqsave, spin_lock_bh, spin_lock_irq,
	raw_spin_lock, raw_spin_lock_irqsave, raw_spin_lock_bh,
	raw_spin_lock_irq, __netif_tx_lock, __netif_tx_lock_bh,
	netif_tx_lock, netif_tx_lock_bh, mutex_lock, spin_trylock,
	spin_trylock_irqsave, spin_trylock_bh, __netif_tx_trylock,
	mutex_trylock};
identifier fn;
position p;
@@
fn(...) {
... when != LK(...)
C@p(...)
... when any
}

@script:python@
p << c8u.p;
@@
fn, line, col = pos(p)
emit(r="C8", k="unlocked-call", fn=fn, line=line, col=col,
     file=p[0].file)
