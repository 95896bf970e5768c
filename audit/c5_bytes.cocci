// SPDX-License-Identifier: GPL-2.0
/// C5: the bytes completed must be the bytes sent, on the same queue.
///
/// Porting rule: docs/porting.md rule 3 ("Report the same length, for the
/// same skb, on both sides") and rule 1 (complete only what was reported
/// sent), docs/porting-napi.md N9 (XDP frames on both sides or neither).
///
/// What it matches:
///  a) the byte argument of every sent call and of every completion call,
///     the sums that build the completion's count (x += E) and the stores
///     that give a variable or a field its value (x = E): audit.py
///     follows each count to its source (skb->len, a per-buffer field
///     stored from skb->len, a descriptor length, a CAN echo length, ...)
///     and reports a completion whose sources are not the sent call's;
///  b) a change of skb->len (skb_put(), skb_padto(), eth_skb_pad(), ...)
///     after the sent call on a path, in a driver that completes with
///     skb->len;
///  c) a completion call in the transmit path that a path reaches
///     without the sent call before it (completing what was never sent);
///  d) the queue given to the sent call and to the completion, when they
///     are computed from different sources (a driver ring index on one
///     side, the skb's queue mapping on the other: airoha 2d9f5a118205).
///
/// Known limits: a count kept in a per-packet structure filled by a
/// helper of another file is "cannot tell"; equal sources computed by
/// different expressions (two helpers returning the same length) are
/// reported as "cannot tell", not as findings.
//
// Needs: bqlma.S("xmit"), S("senders")

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos

@c5s@
identifier f = {netdev_tx_sent_queue, __netdev_tx_sent_queue,
	netdev_sent_queue, __netdev_sent_queue};
expression QQ, BB;
expression list es;
position p;
@@
f@p(QQ, BB, es)

@script:python@
f << c5s.f;
QQ << c5s.QQ;
BB << c5s.BB;
p << c5s.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="sent", fn=fn, callee=f, line=line, q=QQ, bytes=BB,
     file=p[0].file)

@c5c@
identifier f = {netdev_tx_completed_queue, netdev_completed_queue,
	netif_txq_completed_wake, __netif_txq_completed_wake};
expression QQ, P, BB;
expression list es;
position p;
@@
f@p(QQ, P, BB, es)

@script:python@
f << c5c.f;
QQ << c5c.QQ;
BB << c5c.BB;
p << c5c.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="completed", fn=fn, callee=f, line=line, q=QQ, bytes=BB,
     file=p[0].file)

@c5c2@
expression DEV, IDX, P, BB;
expression list es;
position p;
@@
netif_subqueue_completed_wake@p(DEV, IDX, P, BB, es)

@script:python@
DEV << c5c2.DEV;
IDX << c5c2.IDX;
BB << c5c2.BB;
p << c5c2.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="completed", fn=fn, callee="netif_subqueue_completed_wake",
     line=line, q="netdev_get_tx_queue(%s,%s)" % (DEV, IDX), bytes=BB,
     file=p[0].file)

@c5acc@
expression XX, EE;
position p;
@@
(
XX@p += EE
|
XX@p = XX + EE
)

@script:python@
XX << c5acc.XX;
EE << c5acc.EE;
p << c5acc.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="acc", fn=fn, lhs=XX, rhs=EE, line=line)

@c5asg@
expression XX, EE;
position p;
@@
XX@p = EE

@script:python@
XX << c5asg.XX;
EE << c5asg.EE;
p << c5asg.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="asg", fn=fn, lhs=XX, rhs=EE, line=line)

@c5decl@
type T;
identifier XX;
expression EE;
position p;
@@
T XX@p = EE;

@script:python@
XX << c5decl.XX;
EE << c5decl.EE;
p << c5decl.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="asg", fn=fn, lhs=XX, rhs=EE, line=line)

@c5out@
identifier f = {can_get_echo_skb, can_rx_offload_get_echo_skb,
	can_rx_offload_get_echo_skb_queue_tail,
	can_rx_offload_get_echo_skb_queue_timestamp};
identifier XX;
expression list es;
position p;
@@
f@p(es, &XX)

@script:python@
f << c5out.f;
XX << c5out.XX;
p << c5out.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="asg", fn=fn, lhs=XX, rhs="%s(...)" % f, line=line)

@c5outarg@
identifier f;
identifier XX;
expression list[n] es1;
expression list es2;
position p;
@@
f@p(es1, &XX, es2)

@script:python@
f << c5outarg.f;
XX << c5outarg.XX;
n << c5outarg.n;
p << c5outarg.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="outarg", fn=fn, callee=f, var=XX, n=int(n), line=line)

@c5mod exists@
identifier SE = {netdev_tx_sent_queue, __netdev_tx_sent_queue,
	netdev_sent_queue, __netdev_sent_queue};
identifier MM = {skb_put, __skb_put, skb_push, __skb_push, skb_pad,
	__skb_pad, skb_padto, skb_put_padto, eth_skb_pad, skb_trim,
	pskb_trim, __skb_trim, skb_pull, __skb_pull};
expression SKB;
expression list es;
position p, q;
@@
SE@p(es)
...
MM@q(SKB, ...)

@script:python@
MM << c5mod.MM;
p << c5mod.p;
q << c5mod.q;
@@
fn, line, col = pos(p)
emit(r="C5", k="len-after-sent", fn=fn, line=line, other=MM,
     other_line=int(q[0].line), file=p[0].file)

@c5never exists@
identifier SE : script:python() { SE in S("senders") };
identifier CC = {netdev_tx_completed_queue, netdev_completed_queue};
identifier fn : script:python() { fn in S("xmit_roots") };
position p;
@@
fn(...) {
... when != SE(...)
CC@p(...)
... when any
}

@script:python@
CC << c5never.CC;
p << c5never.p;
@@
fn, line, col = pos(p)
emit(r="C5", k="completed-unsent", fn=fn, callee=CC, line=line,
     file=p[0].file)
