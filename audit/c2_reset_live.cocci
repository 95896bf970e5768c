// SPDX-License-Identifier: GPL-2.0
/// C2: a BQL reset must not run while a completion can still run.
///
/// Porting rule: docs/porting.md rule 8 ("Reset only when no completion
/// can run any more") and rule 9, docs/porting-napi.md N7 (stop NAPI and
/// the DMA before the reset) and N8 ("Do not reset on open what you did
/// not free on close").
///
/// What it matches, on one path of one function (each call may be a
/// function of the driver that reaches it; a function counts as a reset
/// here only if it resets on a path that does not stop the completion
/// source first, which audit.py works out from the "reset-unstopped"
/// matches of every function):
///  a) a reset with no stop of the completion source before it (no
///     napi_disable(), free_irq()/synchronize_irq(), del_timer_sync(),
///     cancel_work_sync(), tasklet_kill() of the contexts that complete in
///     this driver) and one after it: the completer was live at the reset;
///  b) a reset followed by a completion (a forced reclaim that reports to
///     netdev_completed_queue()): bytes counted before the reset are
///     completed after it;
///  c) a reset after napi_enable() with no napi_disable() between, in a
///     driver whose completion wakes the queue: the poll may already have
///     woken the queue and a packet been counted.
/// audit.py adds d): ndo_open resets while ndo_stop neither frees the tx
/// buffers nor resets (the close keeps buffers the device may still
/// complete after the open's reset: virtio_net before 3ddccbefebdb).
///
/// Only functions that run while the device may transmit are judged (not
/// those reached from ndo_open or probe alone), a stop on an error path
/// ("goto err...") is no evidence, nor is a function that also starts the
/// completer (an unload-then-load); c) needs a second NAPI poll that
/// completes (an RX poll that cleans the tx ring, as virtio_net's).
///
/// Known limits: the stop of the completion source is recognised by the
/// kernel calls above and the driver functions that reach them, not by
/// the driver's own flags (a "down" bit the poll tests); a hardware queue
/// still running at the reset (igc before d4a7ce642100) is not seen.
//
// Needs: bqlma.S("resetters"), S("stoppers"), S("all_stoppers"),
// S("c2_stop_after"),
// S("completers_only"), S("starters")

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos

@c2u exists@
identifier R : script:python() { R in S("resetters") };
identifier ST2 : script:python() { ST2 in S("all_stoppers") };
identifier fn;
position p;
@@
fn(...) {
... when != ST2(...)
R@p(...)
... when any
}

@script:python@
p << c2u.p;
@@
fn, line, col = pos(p)
emit(r="C2", k="reset-unstopped", fn=fn, line=line, col=col,
     file=p[0].file)

@c2a exists@
identifier R : script:python() { R in S("resetters") };
identifier ST : script:python() { ST in S("c2_stop_after") };
identifier ERR =~ "err|fail|free|unwind|abort|undo|out_";
identifier ST2 : script:python() { ST2 in S("all_stoppers") };
identifier fn;
position p, q;
@@
fn(...) {
... when != ST2(...)
R@p(...)
... when != goto ERR;
ST@q(...)
... when any
}

@script:python@
p << c2a.p;
q << c2a.q;
@@
fn, line, col = pos(p)
emit(r="C2", k="reset-before-stop", fn=fn, line=line, col=col,
     other_line=int(q[0].line), other_col=int(q[0].column),
     file=p[0].file)

@c2b exists@
identifier R : script:python() { R in S("resetters") };
identifier C : script:python() { C in S("completers_only") };
identifier ERR =~ "err|fail|free|unwind|abort|undo|out_";
position p, q;
@@
R@p(...)
... when != goto ERR;
C@q(...)

@script:python@
p << c2b.p;
q << c2b.q;
@@
fn, line, col = pos(p)
emit(r="C2", k="reset-before-completion", fn=fn, line=line, col=col,
     other_line=int(q[0].line), other_col=int(q[0].column),
     file=p[0].file)

@c2c exists@
identifier R : script:python() { R in S("resetters") };
identifier EN : script:python() { EN in S("starters") };
identifier ST : script:python() { ST in S("stoppers") };
position p, q;
@@
EN@q(...)
... when != ST(...)
R@p(...)

@script:python@
p << c2c.p;
q << c2c.q;
@@
fn, line, col = pos(p)
emit(r="C2", k="reset-after-start", fn=fn, line=line, col=col,
     other_line=int(q[0].line), other_col=int(q[0].column),
     file=p[0].file)
