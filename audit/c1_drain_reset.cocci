// SPDX-License-Identifier: GPL-2.0
/// C1: a path that frees transmit buffers without completing them must
/// reach a BQL reset after the free.
///
/// Porting rule: docs/porting-napi.md N7 ("Every path that frees tx
/// buffers without completing them resets, after the free and before the
/// queue runs"), docs/porting.md rule 4 (a sent skb freed without a
/// completion leaks bytes, and with them the queue).
///
/// What it matches: a call D(...) where D frees transmit buffers (a
/// "drain" candidate: a skb-freeing call inside a loop of a tx ring clean,
/// a virtqueue resize/reset given a freeing callback, or a function of
/// the driver that reaches one) on a path through the function on which
/// no reset is called, before or after it (netdev_tx_reset_queue(),
/// netdev_reset_queue(), netdev_tx_reset_subqueue(), a function of the
/// driver that reaches one, or a call that is given such a function as
/// its callback). audit.py decides which matched calls are drains, climbs
/// from a drain that its function does not reset to that function's
/// callers, and judges each entry point reached: ndo_stop is fine when
/// ndo_open resets, suspend when resume does; probe/remove paths are not
/// judged; a path that continues in another file is "cannot tell".
///
/// A completion after the free on the path is accepted too (the function
/// reports what it freed: a forced reclaim), and a path that leaves by an
/// error return ("return -E...;" or "goto err..."/"goto fail..."/...), or
/// reaches the free only through such a goto (an error unwind), is not one
/// the device runs on afterwards.
///
/// A reset before the free on the same path is accepted: with the queue
/// stopped it forgets the same bytes (whether the queue and the completer
/// are stopped then is rule C2's question).
///
/// Known limits: "tx" buffers are told from rx ones by names (the
/// function or the freed expression mentions tx/xmit/sq/send); a free
/// that forgets the buffers without a free call (ring indices zeroed) is
/// not seen; a reset in a function reached only through a pointer the
/// file does not assign is not seen (the path is then "cannot tell" only
/// if the drain's function is called from another file).
//
// Needs: bqlma.S("c1_drain_cands"), S("resetters"), S("completers")

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos

@c1 exists@
identifier D : script:python() { D in S("c1_drain_cands") };
identifier R : script:python() { R in S("resetters") };
identifier C : script:python() { C in S("completers") };
identifier G, fn;
identifier ERR =~ "err|fail|free|unwind|abort|undo|out_";
expression EE;
position p;
@@
fn(...) {
... when != R(...)
    when != G(..., R, ...)
    when != goto ERR;
    when any
D@p(...)
... when != R(...)
    when != G(..., R, ...)
    when != C(...)
    when != return -EE;
    when != goto ERR;
    when any
}

@script:python@
p << c1.p;
@@
fn, line, col = pos(p)
emit(r="C1", k="unreset", fn=fn, line=line, col=col, file=p[0].file)
