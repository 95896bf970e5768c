// SPDX-License-Identifier: GPL-2.0
/// C4: count the bytes sent before the device, or the completer, can see
/// the descriptor.
///
/// Porting rule: docs/porting-napi.md N1 ("Count the packet before the
/// doorbell"), docs/porting.md rule 2 (the completion of an skb must not
/// be able to run before its netdev_sent_queue()).
///
/// What it matches, in the transmit path (ndo_start_xmit and the
/// functions it calls), on one path:
///  a) a doorbell - an MMIO write (writel()/iowrite32()/... or a driver
///     function of the transmit path that reaches one) whose register or
///     helper name says doorbell (tail, producer index, kick, notify, ...:
///     bqlma.DB_WORDS), virtqueue_kick()/virtqueue_notify(),
///     dmaengine_submit()/dma_async_issue_pending() - followed by the sent
///     call (or a function that reaches it);
///  b) a store to a field that the completion reads as the bound of its
///     clean (audit.py finds them in the text of the functions that
///     report completions: a field in a loop condition, a comparison,
///     READ_ONCE() or smp_load_acquire()) followed by the sent call: the
///     completion, run from another
///     interrupt, walks up to the new index and completes bytes not yet
///     counted (bgmac 1b7680c6c1f6, hip04_eth 90b3b339364c).
/// A doorbell before the sent call is not reported when the transmit path
/// publishes such a bound after the sent call (c4w2): the completion
/// cannot reach the packet before it (hip04_eth rings first and gates its
/// clean with tx_head).
///
/// Known limits: a doorbell register whose name says nothing of the
/// kind is taken by effect only where it is the one MMIO write of the
/// transmit path (r6040's iowrite16(TM2TX, ioaddr + MTPR)), else missed; an unrelated register
/// whose name does is a false positive (found by the triage); an index published after the doorbell (hns3
/// 61a1deacc3d4) is not matched; a bound read through a helper function
/// of the completion is not seen.
//
// Needs: bqlma.S("xmit"), S("doorbell_sites"), S("senders"),
// S("c4_bound_fields")

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos, site

@c4a exists@
identifier DB;
identifier SE : script:python() { SE in S("senders") };
position p : script:python() { site(p) in S("doorbell_sites") };
position q;
@@
DB@p(...)
...
SE@q(...)

@script:python@
p << c4a.p;
q << c4a.q;
@@
fn, line, col = pos(p)
emit(r="C4", k="doorbell-before-sent", fn=fn, line=line, col=col,
     other_line=int(q[0].line), other_col=int(q[0].column),
     file=p[0].file)

@c4w exists@
identifier SE : script:python() { SE in S("senders") };
expression EE, VV;
identifier fld : script:python() { fld in S("c4_bound_fields") };
assignment operator aop;
position p : script:python() { p[0].current_element in S("xmit") };
position q;
@@
(
EE->fld@p aop VV
|
EE->fld@p++
)
...
SE@q(...)

@script:python@
EE << c4w.EE;
p << c4w.p;
q << c4w.q;
@@
fn, line, col = pos(p)
emit(r="C4", k="store-before-sent", fn=fn, base=EE, line=line, col=col,
     other_line=int(q[0].line), other_col=int(q[0].column),
     file=p[0].file)

@c4w2 exists@
identifier SE : script:python() { SE in S("senders") };
expression EE, VV;
identifier fld : script:python() { fld in S("c4_bound_fields") };
assignment operator aop;
position p : script:python() { p[0].current_element in S("xmit") };
position q;
@@
SE@q(...)
...
(
EE->fld@p aop VV
|
EE->fld@p++
)

@script:python@
p << c4w2.p;
@@
fn, line, col = pos(p)
emit(r="C4", k="store-after-sent", fn=fn, line=line, col=col,
     file=p[0].file)
