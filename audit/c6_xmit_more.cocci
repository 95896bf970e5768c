// SPDX-License-Identifier: GPL-2.0
/// C6: an xmit_more doorbell must not be lost.
///
/// Porting rule: docs/porting-napi.md N2 ("Ring the doorbell when the
/// batch ends, including when you stopped it") and N3 (the xmit_more
/// contract: a packet with xmit_more set promises another one, a drop or
/// a stop breaks the promise).
///
/// What it matches, in the transmit path:
///  a) a doorbell under a condition that tests xmit_more (netdev_xmit_more()
///     or a variable holding it) and neither netif_xmit_stopped() nor the
///     return of __netdev_tx_sent_queue(): when BQL or the ring-full stop
///     ends the batch, nothing rings;
///  b) a path from the sent call to "return NETDEV_TX_BUSY", or to a free
///     of the skb, with no doorbell between: descriptors written and
///     counted, the device never told;
///  c) in a driver that defers its doorbell for xmit_more, a drop (the skb
///     freed) followed by the end of ndo_start_xmit with no doorbell: the
///     earlier packets of the batch were never announced (mlx5e
///     5b759bf2f9d7, bnxt_en e8d8c5d80f5e);
///  d) __netdev_tx_sent_queue() / __netdev_sent_queue() whose return,
///     the doorbell decision, is thrown away;
///  e) (audit.py, from the doorbell sites and the calls of facts.cocci) a
///     ring-full stop in ndo_start_xmit after the doorbell decision of a
///     driver that defers its doorbell, with no doorbell after it (airoha
///     before 3854de7b38be).
///
/// Known limits: a doorbell rung by a helper that is given the xmit_more
/// flag as an argument is followed one call deep only; a drop path that
/// rings through a function pointer is not seen.
//
// Needs: bqlma.S("xmit"), S("xmit_roots"), S("doorbells"), S("senders")

@initialize:python@
@@
import os
import re
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos

@c6if@
expression CC;
statement S1;
position p : script:python() { p[0].current_element in S("xmit") };
@@
if@p (CC) S1

@script:python@
CC << c6if.CC;
p << c6if.p;
@@
if re.search(r"more|xmit_stopped|queue_stopped|kick|door|notify", CC):
	fn, line, col = pos(p)
	emit(r="C6", k="cond", fn=fn, cond=CC, line=line, col=col,
	     file=p[0].file)

@c6ifelse@
expression CC;
statement S1, S2;
position p : script:python() { p[0].current_element in S("xmit") };
@@
if@p (CC) S1 else S2

@script:python@
CC << c6ifelse.CC;
p << c6ifelse.p;
@@
if re.search(r"more|xmit_stopped|queue_stopped|kick|door|notify", CC):
	fn, line, col = pos(p)
	emit(r="C6", k="cond", fn=fn, cond=CC, line=line, col=col,
	     file=p[0].file)

@c6var@
expression XX;
identifier f = {netdev_xmit_more, __netdev_tx_sent_queue,
	__netdev_sent_queue, netif_xmit_stopped, netif_tx_queue_stopped};
position p : script:python() { p[0].current_element in S("xmit") };
@@
XX@p = <+... f(...) ...+>

@script:python@
XX << c6var.XX;
f << c6var.f;
p << c6var.p;
@@
fn, line, col = pos(p)
emit(r="C6", k="var", fn=fn, var=XX, src=f, line=line)

@c6decl@
type T;
identifier XX;
identifier f = {netdev_xmit_more, __netdev_tx_sent_queue,
	__netdev_sent_queue, netif_xmit_stopped, netif_tx_queue_stopped};
position p : script:python() { p[0].current_element in S("xmit") };
@@
T XX@p = <+... f(...) ...+>;

@script:python@
XX << c6decl.XX;
f << c6decl.f;
p << c6decl.p;
@@
fn, line, col = pos(p)
emit(r="C6", k="var", fn=fn, var=XX, src=f, line=line)

@c6busy exists@
identifier SE = {netdev_tx_sent_queue, __netdev_tx_sent_queue,
	netdev_sent_queue, __netdev_sent_queue};
identifier DB : script:python() { DB in S("doorbells") };
position p : script:python() { p[0].current_element in S("xmit") };
position q;
@@
SE@p(...)
... when != DB(...)
return@q NETDEV_TX_BUSY;

@script:python@
p << c6busy.p;
q << c6busy.q;
@@
fn, line, col = pos(p)
emit(r="C6", k="busy-after-sent", fn=fn, line=line, col=col,
     other_line=int(q[0].line), file=p[0].file)

@c6free exists@
identifier SE = {netdev_tx_sent_queue, __netdev_tx_sent_queue,
	netdev_sent_queue, __netdev_sent_queue};
identifier DB : script:python() { DB in S("doorbells") };
identifier FF = {dev_kfree_skb_any, dev_kfree_skb, kfree_skb,
	dev_consume_skb_any, consume_skb, dev_kfree_skb_irq, kfree_skb_list};
position p : script:python() { p[0].current_element in S("xmit") };
position q;
@@
SE@p(...)
... when != DB(...)
FF@q(...)

@script:python@
FF << c6free.FF;
p << c6free.p;
q << c6free.q;
@@
fn, line, col = pos(p)
emit(r="C6", k="free-after-sent", fn=fn, line=line, col=col, other=FF,
     other_line=int(q[0].line), file=p[0].file)

@c6drop exists@
identifier DB : script:python() { DB in S("doorbells") };
identifier FF = {dev_kfree_skb_any, dev_kfree_skb, kfree_skb,
	dev_consume_skb_any, consume_skb, dev_kfree_skb_irq, kfree_skb_list};
expression AA;
position p : script:python() { p[0].current_element in S("xmit") };
@@
FF@p(AA)
... when != DB(...)

@script:python@
FF << c6drop.FF;
AA << c6drop.AA;
p << c6drop.p;
@@
fn, line, col = pos(p)
emit(r="C6", k="drop-tail", fn=fn, callee=FF, arg=AA, line=line,
     file=p[0].file)

@c6tail exists@
identifier DB : script:python() { DB in S("doorbells") };
identifier G : script:python() { G in S("xmit") };
position p : script:python() { p[0].current_element in S("xmit") };
@@
G@p(...)
... when != DB(...)

@script:python@
p << c6tail.p;
@@
fn, line, col = pos(p)
emit(r="C6", k="call-tail", fn=fn, line=line, col=col, file=p[0].file)

@c6ign@
identifier f = {__netdev_tx_sent_queue, __netdev_sent_queue};
position p;
@@
f@p(...);

@script:python@
f << c6ign.f;
p << c6ign.p;
@@
fn, line, col = pos(p)
emit(r="C6", k="ignored-return", fn=fn, callee=f, line=line,
     file=p[0].file)
