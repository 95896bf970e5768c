// SPDX-License-Identifier: GPL-2.0
/// C9: the completion's wake condition says when not to wake.
///
/// Porting rule: docs/porting-napi.md N4 (the completion wakes the queue
/// when room is back and the device is not going down).
/// __netif_txq_completed_wake(txq, pkts, bytes, get_desc, start_thrs,
/// down_cond) of include/net/netdev_queues.h wakes when get_desc >=
/// start_thrs and down_cond is false: down_cond must be true while the
/// device goes down. A driver that moves its old "if (up && wake)" test
/// into the helper without negating it passes "up" as down_cond: the
/// queue is never woken while the device runs (bnxt 649c3fed3673,
/// ixgbe f0d751973f73).
///
/// What it matches: every call of __netif_txq_completed_wake(), with its
/// start threshold and down condition; audit/classes.py reads the
/// condition (each operand of its || and &&: one that says "up"
/// without a negation, or "down"/"closing" with one, is a finding).
///
/// Known limits: an open-coded wake ("if (netif_queue_stopped() &&
/// avail > thresh) netif_wake_queue()") is not read; a condition whose
/// names say neither up nor down is not judged (a note).
//
// Needs: nothing

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import emit, pos

@c9a@
expression Q9, P9, B9, D9, THRS9, DOWN9;
position p;
@@
__netif_txq_completed_wake@p(Q9, P9, B9, D9, THRS9, DOWN9)

@script:python@
p << c9a.p;
THRS9 << c9a.THRS9;
DOWN9 << c9a.DOWN9;
@@
fn, line, col = pos(p)
emit(r="C9", k="down-cond", fn=fn, line=line, file=p[0].file,
     thrs=str(THRS9), cond=str(DOWN9))
