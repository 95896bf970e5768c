// SPDX-License-Identifier: GPL-2.0
/// C12: the queue stopped or woken is the queue that filled or drained.
///
/// Porting rule: docs/porting-napi.md N5 (every stop has a waker, of the
/// same queue). On a device with several tx queues, netif_stop_queue(),
/// netif_wake_queue() and netif_start_queue() act on queue 0 whatever
/// ring filled: the ring of queue 2 fills, queue 0 is stopped, queue 2
/// keeps sending into a full ring (NETDEV_TX_BUSY or drops); the
/// completion of queue 2 wakes queue 0, and a stopped queue 2 stays
/// stopped (tsnep 3d53aaef4332).
///
/// What it matches: the queue-0 forms in the transmit path and in any
/// function reached from a completion context (NAPI poll, interrupt,
/// timer, work, tasklet); audit/classes.py reports them when the driver
/// has several tx queues (read from its netdev allocation, as C3).
///
/// Known limits: netif_stop_subqueue(dev, i) with an index computed
/// differently from the ring's is not compared (C3 reads queue 0 only).
//
// Needs: nothing

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import emit, pos

@c12a@
identifier Q12 = {netif_stop_queue, netif_wake_queue, netif_start_queue};
expression D12;
position p;
@@
Q12@p(D12)

@script:python@
p << c12a.p;
Q12 << c12a.Q12;
@@
fn, line, col = pos(p)
emit(r="C12", k="queue0", fn=fn, callee=Q12, line=line, file=p[0].file)
