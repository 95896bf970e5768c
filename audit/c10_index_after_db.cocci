// SPDX-License-Identifier: GPL-2.0
/// C10: the index the completion walks to is published before the
/// doorbell.
///
/// Porting rule: docs/porting-napi.md N1 (everything the completion
/// reads about a packet is in place before the device can finish it).
/// A completion that cleans up to an index the transmit stores (a ring
/// field read with smp_load_acquire()/READ_ONCE() or compared in its
/// loop) must see the new index once the device can complete the
/// descriptors: stored after the doorbell, a fast device and poll see
/// the old index, clean nothing and leave the stopped queue stopped
/// (hns3 61a1deacc3d4).
///
/// What it matches, in the transmit path: a doorbell site (as C4 reads
/// them: bqlma.S("doorbell_sites")) followed, in the same function, by a
/// store to a field (an assignment, ++ or --, smp_store_release() or
/// WRITE_ONCE()); audit/classes.py keeps the fields the completion
/// functions and their callees read as their bound.
///
/// Known limits: the doorbell and the store must sit in one function; a
/// store through a helper is not seen.
//
// Needs: bqlma.S("doorbell_sites"), S("xmit")

@initialize:python@
@@
import os
import sys
sys.path.insert(0, os.environ.get("BQLMA_DIR", "audit"))
from bqlma import S, emit, pos, site

@c10a exists@
identifier DB10, FLD10;
expression E10, V10;
assignment operator aop10;
position p : script:python() { site(p) in S("doorbell_sites") };
position q : script:python() { q[0].current_element in S("xmit") };
@@
DB10@p(...)
...
(
E10->FLD10@q aop10 V10
|
E10->FLD10@q++
|
E10->FLD10@q--
|
smp_store_release(&E10->FLD10@q, V10)
|
WRITE_ONCE(E10->FLD10@q, V10)
)

@script:python@
p << c10a.p;
q << c10a.q;
FLD10 << c10a.FLD10;
E10 << c10a.E10;
DB10 << c10a.DB10;
@@
fn, line, col = pos(q)
emit(r="C10", k="store-after-doorbell", fn=fn, line=line, col=col,
     field=FLD10, base=str(E10), callee=DB10, db_line=int(p[0].line),
     file=q[0].file)
