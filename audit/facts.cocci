// SPDX-License-Identifier: GPL-2.0
/// facts.cocci - the facts the rules of audit/ are computed from
///
/// Not a rule: the first pass of "make audit" over each file of a BQL
/// driver. It prints one record a line ("BQLMA {json}"): every function
/// defined, every call (caller, callee, line), every loop (the position of
/// its keyword; audit.py finds its body in the text), every function used
/// as a value (an initialiser field, an assignment, an argument: the
/// driver's entry points and callbacks), every BQL call with its
/// arguments, the arguments of calls that may ring a doorbell (a register
/// or callee name of bqlma.DB_WORDS), and every lock taken or released
/// (audit.py takes a call as made under a lock when the function took the
/// lock on an earlier line and has not released it on a line between:
/// line order, not paths). audit/audit.py builds the driver's call graph from them and
/// gives each rule the sets it needs (the functions that reach a reset, a
/// completion, a drain, ...), through bqlma.S().
///
/// Known limits: do { } while loops are found by audit.py in the text
/// (Coccinelle 1.1.1 cannot put a position on them); functions stored by
/// macros Coccinelle does not parse (SIMPLE_DEV_PM_OPS, ...) are found by
/// audit.py's text scan of the file.
//
// Options: --no-includes --very-quiet

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import emit, pos, DB_WORDS

@fdef@
identifier f;
type T;
position p;
@@
T f@p(...) { ... }

@script:python@
f << fdef.f;
p << fdef.p;
@@
emit(k="fn", name=f, line=int(p[0].line))

@call@
identifier f;
expression list es;
position p;
@@
f@p(es)

@script:python@
f << call.f;
es << call.es;
p << call.p;
@@
fn, line, col = pos(p)
if DB_WORDS.search(f) or DB_WORDS.search(str(es)):
	emit(k="call", fn=fn, callee=f, line=line, col=col, args=str(es))
else:
	emit(k="call", fn=fn, callee=f, line=line, col=col)

@floop@
position p;
statement S;
@@
for@p (...;...;...) S

@script:python@
p << floop.p;
@@
fn, line, col = pos(p)
emit(k="loop", kw="for", fn=fn, line=line, col=col)

@wloop@
position p;
statement S;
expression EE;
@@
while@p (EE) S

@script:python@
p << wloop.p;
@@
fn, line, col = pos(p)
emit(k="loop", kw="while", fn=fn, line=line, col=col)

@iloop@
position p;
statement S;
iterator II;
@@
II@p(...) S

@script:python@
II << iloop.II;
p << iloop.p;
@@
fn, line, col = pos(p)
emit(k="loop", kw=II, fn=fn, line=line, col=col)

@ref@
identifier f;
expression EE;
position p;
@@
EE = f@p

@script:python@
f << ref.f;
EE << ref.EE;
p << ref.p;
@@
fn, line, col = pos(p)
emit(k="ref", name=f, lhs=EE, fn=fn, line=line)

@refarg@
identifier f, g;
position p;
@@
g(..., f@p, ...)

@script:python@
f << refarg.f;
g << refarg.g;
p << refarg.p;
@@
fn, line, col = pos(p)
emit(k="refarg", name=f, callee=g, fn=fn, line=line)

@ini@
identifier f, fld, x, s;
position p;
@@
struct s x = { ..., .fld = f@p, ...};

@script:python@
f << ini.f;
fld << ini.fld;
p << ini.p;
@@
emit(k="init", name=f, field=fld, line=int(p[0].line))

@bql@
identifier api = {netdev_tx_sent_queue, __netdev_tx_sent_queue,
	netdev_sent_queue, __netdev_sent_queue, netdev_tx_completed_queue,
	netdev_completed_queue, netdev_tx_reset_queue, netdev_reset_queue,
	netdev_tx_reset_subqueue, netif_txq_maybe_stop, netif_txq_try_stop,
	netif_txq_completed_wake, __netif_txq_completed_wake,
	netif_subqueue_maybe_stop, netif_subqueue_try_stop,
	netif_subqueue_completed_wake, netif_subqueue_sent};
expression list es;
position p;
@@
api@p(es)

@script:python@
api << bql.api;
es << bql.es;
p << bql.p;
@@
fn, line, col = pos(p)
emit(k="bql", api=api, fn=fn, line=line, args=str(es))

@lockcall@
identifier LK = {spin_lock, spin_lock_irqsave, spin_lock_bh, spin_lock_irq,
	raw_spin_lock, raw_spin_lock_irqsave, raw_spin_lock_bh,
	raw_spin_lock_irq, __netif_tx_lock, __netif_tx_lock_bh,
	netif_tx_lock, netif_tx_lock_bh, mutex_lock, spin_trylock,
	spin_trylock_irqsave, spin_trylock_bh, raw_spin_trylock,
	__netif_tx_trylock, mutex_trylock};
expression LL;
position p;
@@
LK@p(LL, ...)

@script:python@
LK << lockcall.LK;
LL << lockcall.LL;
p << lockcall.p;
@@
fn, line, col = pos(p)
emit(k="lockcall", fn=fn, lock=LL, line=line, api=LK)

@unlockcall@
identifier UL = {spin_unlock, spin_unlock_irqrestore, spin_unlock_bh,
	spin_unlock_irq, raw_spin_unlock, raw_spin_unlock_irqrestore,
	raw_spin_unlock_bh, raw_spin_unlock_irq, __netif_tx_unlock,
	__netif_tx_unlock_bh, netif_tx_unlock, netif_tx_unlock_bh,
	mutex_unlock};
expression LL;
position p;
@@
UL@p(LL, ...)

@script:python@
LL << unlockcall.LL;
p << unlockcall.p;
@@
fn, line, col = pos(p)
emit(k="unlockcall", fn=fn, lock=LL, line=line)
