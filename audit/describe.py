# SPDX-License-Identifier: GPL-2.0
"""describe - each driver's "bqlm explore nic" description, read from it.

audit/audit.py calls describe(drv, entry) once a driver's facts are in and
its rules judged. The result is the whole option list of the NIC model the
driver's code implies (every option "bqlm help nic" lists), each with the
evidence it was read from (a call site, a line), and what the model cannot
state about the driver. The transmit path is read as one sequence of
calls: ndo_start_xmit's calls in line order, each call of a function of
the driver replaced by that function's own sequence (depth-limited, each
function once), so that a doorbell in mtk_tx_map() and the stop in
mtk_start_xmit() after the call of mtk_tx_map() come out in that order.
The reset paths are read the same way from their entry points.

prove(...) runs the explorer on a finding's description (the driver's own,
with the rule's pattern stated on it), and on the fix the pattern implies;
a finding whose own description does not violate is "unproved".

Known limits: branches are merged (a sequence is line order through every
branch); the thresholds of the driver's stop and wake are not scaled to the
model's ring (the model's thresholds stay at the packet's descriptors, the
driver's values are given as evidence); dma-off/dma-on are not recognised
by effect (a device's stop is a register write like any other): a path
that drains gets dma-off before its first drain, one that enables NAPI
gets dma-on before it.
"""
import re

# the options a description gives, in "bqlm help nic" order
ORDER = ["queues", "map", "packets", "len", "descs", "ring", "batch",
         "budget", "sent", "sent-call", "doorbell", "ring-stop",
         "completers", "napi-txlock", "rx-cleanup", "completed-bytes",
         "xdp-frames", "xdp-bql", "xdp-cleans", "memory-model", "drv-stop",
         "drv-wake", "stop-thresh", "restart-thresh", "wake-thresh",
         "down-cond", "wakers", "drv-queue", "drv-steps", "tx-busy",
         "error-kick", "stop-kick", "drops", "drop", "completion", "notify",
         "complete-queue", "index", "hangs", "timeout-test", "close", "open",
         "reconfig", "timeout", "suspend", "resume", "stops", "reconfigs",
         "timeouts", "suspends"]

# the size of the search, not the driver: left at the model's defaults
# (the explorer raises --packets to fill every ring) and not compared
BOUND = {"map", "packets", "len", "descs", "ring", "batch", "budget",
         "memory-model", "drv-steps", "hangs", "timeout-test",
         "stop-thresh", "restart-thresh", "wake-thresh", "stops",
         "reconfigs", "timeouts", "suspends"}
PATHS = ["close", "open", "reconfig", "timeout", "suspend", "resume"]
CYCLES = {"close": "stops", "open": "stops", "reconfig": "reconfigs",
          "timeout": "timeouts", "suspend": "suspends", "resume": "suspends"}

# the generic profile's values: what a description starts from
DEFAULT = {
    "queues": "1", "map": "rr", "packets": "3", "len": "1000", "descs": "1",
    "ring": "2", "batch": "2", "budget": "2", "sent": "before-doorbell",
    "sent-call": "plain", "doorbell": "xmit-stopped",
    "ring-stop": "after-sent", "completers": "napi", "napi-txlock": "off",
    "rx-cleanup": "off", "completed-bytes": "skb-len", "xdp-frames": "0",
    "xdp-bql": "uncounted", "xdp-cleans": "off", "memory-model": "sc",
    "drv-stop": "helper", "drv-wake": "helper", "stop-thresh": "0",
    "restart-thresh": "0", "wake-thresh": "0", "down-cond": "path",
    "wakers": "napi,rx-cleanup", "drv-queue": "own", "drv-steps": "auto",
    "tx-busy": "none", "error-kick": "ring", "stop-kick": "none",
    "drops": "0", "drop": "before-sent", "completion": "napi",
    "notify": "irq", "complete-queue": "own", "index": "descs",
    "hangs": "0", "timeout-test": "xmit-stopped",
    "close": "stop,napi-off,dma-off,drain,reset",
    "open": "dma-on,napi-on,wake",
    "reconfig": "stop,napi-off,dma-off,drain,reset,dma-on,napi-on,wake",
    "timeout": "stop,napi-off,dma-off,drain,reset,dma-on,napi-on,wake",
    "suspend": "stop,napi-off,dma-off,drain,reset",
    "resume": "dma-on,napi-on,wake", "stops": "1", "reconfigs": "0",
    "timeouts": "0", "suspends": "0"}

# What the NIC model cannot state, whatever the driver: listed per driver
# where the audit saw it.
CANNOT = {
    "thresholds": "the driver's stop/wake thresholds in its own ring's "
    "units (the model's ring holds at most 16 descriptors; its thresholds "
    "stay at the packet's descriptors)",
    "branches": "a reset op's branches as separate sequences (the model "
    "runs one list of calls per path; the audit merges the branches in "
    "line order)",
    "path-lock": "a reset path that holds the ring lock the transmit and "
    "the completion take (path calls take no lock)",
    "other-root": "a reset path started by a NAPI poll, an interrupt or a "
    "timer (the model's paths are close, reconfiguration, timeout and "
    "suspend)",
    "len-change": "skb->len changed between the sent call and the "
    "completion (the model's packets have one length)",
    "subset": "stop/wake of the first n queues of a count that changes at "
    "run time (the model has at most 2 queues, all of them stack queues)",
    "timer-completer": "a completion in a timer or a work item beside the "
    "NAPI poll (the model's second completers are ndo_start_xmit, the RX "
    "poll's cleanup and the XDP transmit)",
}

STOP_CALLS = {"netif_stop_queue", "netif_tx_stop_queue",
              "netif_stop_subqueue", "netif_txq_maybe_stop",
              "netif_subqueue_maybe_stop", "netif_tx_stop_all_queues"}
TRY_STOP = {"netif_txq_try_stop", "netif_subqueue_try_stop"}
SENT = {"netdev_tx_sent_queue", "__netdev_tx_sent_queue",
        "netdev_sent_queue", "__netdev_sent_queue", "netif_subqueue_sent"}
SENT_MORE = {"__netdev_tx_sent_queue", "__netdev_sent_queue"}
COMPL = {"netdev_tx_completed_queue", "netdev_completed_queue",
         "netif_txq_completed_wake", "__netif_txq_completed_wake",
         "netif_subqueue_completed_wake"}
RESET_ALL = {"netdev_tx_reset_queue", "netdev_tx_reset_subqueue"}
WAKE_ALL = {"netif_tx_wake_all_queues", "netif_tx_start_all_queues"}
WAKE_Q0 = {"netif_wake_queue", "netif_start_queue"}
WAKE_ONE = {"netif_tx_wake_queue", "netif_tx_start_queue",
            "netif_wake_subqueue", "netif_start_subqueue"}
STOP_ALL = {"netif_tx_disable", "netif_tx_stop_all_queues"}
FREE = {"dev_kfree_skb", "dev_kfree_skb_any", "dev_kfree_skb_irq",
        "dev_consume_skb_any", "dev_consume_skb_irq", "kfree_skb",
        "consume_skb", "napi_consume_skb", "kfree_skb_list",
        "kfree_skb_reason", "virtqueue_resize", "virtqueue_reset",
        "xdp_return_frame", "xdp_return_frame_rx_napi"}
MMIO = {"writel", "writel_relaxed", "writeq", "writeq_relaxed", "writew",
        "writew_relaxed", "writeb", "writeb_relaxed", "iowrite8",
        "iowrite16", "iowrite32", "iowrite16be", "iowrite32be",
        "iowrite64", "__raw_writel", "__raw_writeq", "__raw_writew",
        "__raw_writeb", "out_be32", "__iowrite32_copy", "__iowrite64_copy"}
KICK = {"virtqueue_kick", "virtqueue_notify", "dma_async_issue_pending"}
TX_RE = re.compile(r"tx|xmit|(^|_)sq(_|$)|send|tpd|tbd|unused_buf|skbufs|"
                   r"ring|buf", re.I)


class Seq:
    """A function's calls in line order, the driver's own functions
    expanded: [(callee, fn, line, rel)]."""

    def __init__(self, drv, depth=6):
        self.drv = drv
        self.depth = depth
        self.by_fn = {}
        cut = {}
        for fn in drv.fns:
            text, rel, line = drv.fn_text(fn)
            m = re.search(r"^[ \t]*(\w*(?:err|fail|out|free|drop|unwind|"
                          r"undo|unmap|abort|clean|dma_error|kick_pending|"
                          r"release|exit|bail)\w*):[ \t]*$", text, re.M)
            if m:
                cut[fn] = line + text[:m.start()].count("\n")
        calls = list(drv.calls) + [
            (fn, name, line, drv.fns.get(fn, ("?", 0))[0])
            for fn, name, callee, line in drv.indirect]
        for fn, callee, line, rel in calls:
            if fn in cut and line >= cut[fn]:
                continue        # the error unwinding after a label
            self.by_fn.setdefault(fn, []).append((line, callee, rel))
        for v in self.by_fn.values():
            v.sort()

    def walk(self, root, stop_at=frozenset(), limit=4000):
        """Every call site expanded in place (a function called twice is
        read twice), recursion cut, at most @limit calls; each entry
        (callee, fn, line, rel, top): top is the line of the call in
        @root that leads to it."""
        out = []
        self._walk(root, 0, (root,), stop_at, out, None, limit)
        return out

    def _walk(self, fn, depth, chain, stop_at, out, top, limit):
        for line, callee, rel in self.by_fn.get(fn, ()):
            if len(out) >= limit:
                return
            t = ((rel, line),) if top is None else top + ((rel, line),)
            out.append((callee, fn, line, rel, t))
            if callee in stop_at or callee not in self.drv.fns or \
                    callee in chain or depth >= self.depth:
                continue
            self._walk(callee, depth + 1, chain + (callee,), stop_at, out,
                       t, limit)


def _site(c):
    return "%s() %s:%d" % (c[0], c[3], c[2])


def _fn_text(drv, fn):
    text, rel, line = drv.fn_text(fn)
    return text or ""


def _doorbells(drv):
    """Kernel calls that ring the device (by effect: an MMIO write, a
    virtqueue kick, a dmaengine issue) and the driver's functions and
    macros that reach one."""
    mmio = set(MMIO) | KICK
    for text in drv.macro_texts():
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\([^)]*\)"
                             r"[ \t]*\(?\s*(\w+)\s*\(", text, re.M):
            if m.group(2) in mmio:
                mmio.add(m.group(1))
    return mmio


def describe(drv, entry, chain_locks=None, common=None):
    """The driver's whole description: {"options": {opt: value}, "why":
    {opt: evidence}, "cannot_state": [...], "command": str}."""
    opt = dict(DEFAULT)
    why = {}
    cannot = []
    seq = Seq(drv)
    mq = drv.queues() == 2
    opt["queues"] = "2" if mq else "1"
    ev = drv.multiqueue()
    why["queues"] = {True: "several tx queues (the allocation's count read "
                     "by value, C3)", False: "one tx queue (the "
                     "allocation's count read by value, C3)",
                     None: "the allocation not read (text: %s)" % (
                         "a multiqueue allocation" if mq else "none")}[ev]
    findings = {(rid, f["pattern"]) for rid, r in entry["rules"].items()
                for f in r["findings"]}
    mmio = _doorbells(drv)
    roots = sorted(drv.xmit_roots)
    xs = []
    for r in roots:
        if "xmit" in drv.kinds.get(r, {}):
            xs.append(seq.walk(r, stop_at=set()))
    x = max(xs, key=lambda s: sum(1 for c in s if c[0] in SENT),
            default=[])
    # the transmit sequence: sent call, doorbell, stops
    sent = [c for c in x if c[0] in SENT]
    dbs = [c for c in x if c[0] in mmio and c[1] not in drv.completers]
    # the doorbell: the last device write of the transmit (earlier MMIO
    # writes fill descriptors in device memory), a kick wherever it is
    if dbs:
        kicks = [c for c in dbs if c[0] in KICK]
        dbs = kicks[-1:] if kicks else dbs[-1:]
    stops = [c for c in x if c[0] in STOP_CALLS]
    if not x:
        why["sent"] = "no ndo_start_xmit read: the transmit options are " \
            "the generic driver's"
    if sent:
        s0 = sent[0]
        opt["sent-call"] = "xmit-more" if s0[0] in SENT_MORE else "plain"
        why["sent-call"] = _site(s0)
    if sent and dbs:
        first_db = dbs[0]
        opt["sent"] = "after-doorbell" if x.index(first_db) < x.index(
            sent[0]) else "before-doorbell"
        why["sent"] = "%s, doorbell %s" % (_site(sent[0]), _site(first_db))
        why["doorbell-site"] = _site(first_db)
    elif sent:
        why["sent"] = "%s; no doorbell recognised by effect in the " \
            "transmit path" % _site(sent[0])
        cannot.append("doorbell: no MMIO write, virtqueue kick or "
                      "dmaengine issue reached from ndo_start_xmit")
    # the doorbell's condition
    xtext = "\n".join(_fn_text(drv, f) for f in
                      sorted({c[1] for c in x} | set(roots)))
    more = "netdev_xmit_more" in xtext
    if sent and opt["sent-call"] == "xmit-more":
        var = re.search(r"(\w+)\s*=[^;=]*?__netdev(?:_tx)?_sent_queue\s*\(",
                        xtext)
        if ("C6", "ignored-return") in findings or not var:
            opt["doorbell"] = "xmit-more"
            why["doorbell"] = "the return of the sent call is not used"
        elif re.search(r"\b%s\s*\|\||\|\|\s*%s\b" % (var.group(1),
                                                    var.group(1)), xtext):
            opt["doorbell"] = "xmit-stopped"
            why["doorbell"] = "if (%s || a stop): the sent call's return " \
                "or the ring-full stop" % var.group(1)
        else:
            opt["doorbell"] = "sent-queue"
            why["doorbell"] = "the return of %s() (%s) alone" % (
                sent[0][0], var.group(1))
    elif sent and dbs and any("not a driver that defers its doorbell" in n
                      for n in entry["rules"].get("C6", {}).get(
                          "notes", ())):
        opt["doorbell"] = "always"
        why["doorbell"] = "netdev_xmit_more() read, but no doorbell " \
            "depends on it (C6)"
    elif sent and not more:
        opt["doorbell"] = "always"
        why["doorbell"] = "netdev_xmit_more() not read in the transmit path"
    elif sent:
        if ("C6", "xmit-more-only") in findings:
            opt["doorbell"] = "xmit-more"
            why["doorbell"] = "C6: on !netdev_xmit_more() alone"
        elif re.search(r"xmit_stopped|queue_stopped|subqueue_stopped",
                       xtext):
            why["doorbell"] = "!netdev_xmit_more() || a stopped test"
        else:
            opt["doorbell"] = "always"
            why["doorbell"] = "netdev_xmit_more() read, no doorbell " \
                "depends on it"
    # the ring-full stop against the sent call and the doorbell decision
    busy_stops, ring_stops, try_stops = [], [], []
    root_rel = drv.fns.get(roots[0], (None, 0))[0] if roots else None

    def busy_next(rel, line):
        src = drv.src.get(rel)
        if not src or line < 1:
            return False
        nxt = src.text[src.starts[line - 1]:src.starts[min(
            line + 8, len(src.starts) - 1)]]
        m = re.search(r"\breturn\s+(\w+)", nxt)
        return bool(m) and m.group(1) == "NETDEV_TX_BUSY" and \
            nxt[:m.start()].count("}") <= 2
    for c in [c for c in x if c[0] in STOP_CALLS | TRY_STOP]:
        busy = any(busy_next(r, ln) for r, ln in c[4])
        if c[0] in TRY_STOP and busy:
            try_stops.append(c)
        elif busy:
            busy_stops.append(c)
        else:
            ring_stops.append(c)
    stops = ring_stops
    if "NETDEV_TX_BUSY" in xtext:
        if try_stops:
            opt["tx-busy"] = "try-stop"
            why["tx-busy"] = _site(try_stops[0])
        elif busy_stops:
            b0 = busy_stops[0]
            norecheck = [r for r in drv.rule_recs.get("C7", ())
                         if r.get("k") == "stop-no-recheck" and
                         (r.get("fn"), r.get("line")) == (b0[1], b0[2])]
            opt["tx-busy"] = "stop" if norecheck else "try-stop"
            why["tx-busy"] = "%s then NETDEV_TX_BUSY%s" % (
                _site(b0), " (no barrier and re-check after the stop, C7)"
                if norecheck else " (a barrier and a re-check after the "
                "stop: the model's try-stop)")
        elif ring_stops and ring_stops[0][0] in (
                "netif_txq_maybe_stop", "netif_subqueue_maybe_stop") and \
                sent and x.index(ring_stops[0]) < x.index(sent[0]):
            opt["tx-busy"] = "stop"
            why["tx-busy"] = "%s returns NETDEV_TX_BUSY" % _site(
                ring_stops[0])
        else:
            why["tx-busy"] = "NETDEV_TX_BUSY returned with no stop next " \
                "to it"
    if ring_stops and sent:
        rs = [c for c in ring_stops if x.index(c) > x.index(sent[0])] or \
            ring_stops
        ring_stops = rs
        st = rs[0]
        own = [(c, sc) for c in ring_stops for sc in sent if c[1] == sc[1]]
        if own:
            st, s_own = own[-1]
            before = st[2] < s_own[2]
        else:
            before = x.index(st) < x.index(sent[0])
        db_after_sent = [c for c in dbs if x.index(c) > x.index(sent[0])]
        if before:
            opt["ring-stop"] = "before-sent"
        elif db_after_sent and x.index(db_after_sent[0]) < x.index(st):
            opt["ring-stop"] = "after-doorbell"
            near = [c for c in dbs if c[3] == st[3] and
                    0 < st[2] - c[2] <= 3]
            if near or ("C6", "stop-after-doorbell") not in findings and \
                    opt["doorbell"] != "always" and more:
                opt["stop-kick"] = "ring"
                why["stop-kick"] = "a doorbell right before the stop " \
                    "(%s)" % (_site(near[0]) if near else
                              "C6 saw one between")
        else:
            opt["ring-stop"] = "after-sent"
        why["ring-stop"] = "%s; sent %s" % (_site(st), _site(sent[0]))
    elif sent and not ring_stops:
        opt["ring-stop"] = "none" if opt["tx-busy"] != "none" else \
            opt["ring-stop"]
        why["ring-stop"] = "no ring-full stop in the transmit path" + (
            "" if opt["tx-busy"] != "none" else
            " and no NETDEV_TX_BUSY: the generic driver's stop kept")
    if opt["ring-stop"] == "after-doorbell" and opt["doorbell"] == "always":
        opt["ring-stop"] = "after-sent"
        why["ring-stop"] += " (a doorbell for every packet: no batch " \
            "left unrung, stated after-sent)"
    # the driver's own stop: helper, or open-coded (C7's records)
    c7 = [r for r in drv.rule_recs.get("C7", ())
          if r.get("k") == "stop-no-recheck" and ring_stops and
          (r.get("fn"), r.get("line")) == (ring_stops[0][1],
                                           ring_stops[0][2])]
    if ring_stops and ring_stops[0][0] in {"netif_txq_maybe_stop",
                                           "netif_subqueue_maybe_stop"} | \
            TRY_STOP:
        why["drv-stop"] = _site(ring_stops[0])
    elif c7:
        opt["drv-stop"] = "no-recheck"
        why["drv-stop"] = "%s:%d: %s() with no full barrier and re-check " \
            "after it (C7)" % (drv.fns.get(c7[0]["fn"], ("?", 0))[0],
                              c7[0]["line"], c7[0].get("callee", "stop"))
    elif ring_stops:
        why["drv-stop"] = "%s, a barrier and a re-check after it" % _site(
            ring_stops[0])
    m = re.search(r"netif_(?:txq|subqueue)_maybe_stop\s*\(([^;]*)\)\s*;",
                  xtext)
    if m:
        why["thresholds"] = "netif_*_maybe_stop(%s)" % " ".join(
            m.group(1).split())
        cannot.append(CANNOT["thresholds"])
    # completers, their contexts and locks
    ck = set()
    for f in drv.compl_fns:
        ck |= drv.kinds_of_roots(f)
    xc = sorted(f for f in drv.compl_fns if f in drv.xmit and
                "xmit" in drv.kinds_of_roots(f))
    if xc:
        opt["completers"] = "napi+xmit"
        why["completers"] = "ndo_start_xmit reaches %s()" % xc[0]
    else:
        why["completers"] = "completion contexts: %s" % ", ".join(
            sorted(ck - {"xmit", "xdp_xmit"})) if ck else "no completion"
    if "napi" not in ck and ck & {"irq", "dma_cb", "tasklet"}:
        opt["completion"] = "irq"
        why["completion"] = "completed from %s, not a NAPI poll" % ", ".join(
            sorted(ck & {"irq", "dma_cb", "tasklet"}))
    if ck & {"timer", "work"}:
        cannot.append(CANNOT["timer-completer"])
    napi_roots = sorted({r for f in drv.compl_fns
                         for r, k in drv.roots_of(f).items() if "napi" in k})
    txr = [r for r in napi_roots if re.search(r"tx|xmit", r)]
    rxr = [r for r in napi_roots if not re.search(r"tx|xmit", r)]
    if rxr and txr:
        opt["rx-cleanup"] = "on"
        why["rx-cleanup"] = "%s() completes tx too" % rxr[0]
    # the poll's locks against the transmit's
    el = drv.edge_locks()
    if sent and chain_locks and roots:
        held = {"txlock"}
        for r in roots:
            held |= common(
                [(chain_locks(drv, r, sent[0][1], sent[0][0], el), "")])
        cl = []
        for fn, api, line, a, rel in drv.bql:
            if api not in COMPL:
                continue
            for r, ks in drv.roots_of(fn).items():
                if ks & {"xmit", "xdp_xmit", "lifecycle", "open",
                         "close", "netpoll"} or r in drv.xmit:
                    continue
                cl.append((r, common([(chain_locks(drv, r, fn, api, el),
                                       "")])))
        if cl and all(ls & held for f, ls in cl):
            both = set.intersection(*[ls & held for f, ls in cl])
            opt["napi-txlock"] = "on"
            why["napi-txlock"] = "every completer (%s) holds %s, as the " \
                "sent call does" % (", ".join(sorted({f for f, ls in cl})),
                                    ", ".join(sorted(both)))
        elif cl:
            why["napi-txlock"] = "no lock of the sent call (%s) held by " \
                "%s" % (", ".join(sorted(held)), ", ".join(sorted(
                    {f for f, ls in cl if not ls & held})))
    # XDP on a stack queue
    xdp = sorted(f for f, k in drv.kinds.items() if "xdp_xmit" in k)
    if xdp:
        xt = "\n".join(_fn_text(drv, f) for f in
                       sorted(drv.callees_closure(set(xdp))))
        shares = re.search(r"__netif_tx_lock|netif_tx_lock", xt) or any(
            "txlock" in drv.locks_in(f) for f in xdp)
        counted = any(c[0] in SENT for f in xdp for c in seq.walk(f))
        if shares:
            opt["xdp-frames"] = "1"
            opt["xdp-bql"] = "counted" if counted else (
                "completed-only" if ("C5", "completed-unsent") in findings
                else "uncounted")
            why["xdp-frames"] = "%s() transmits on a stack queue under its " \
                "tx lock; %s" % (xdp[0], {
                    "counted": "it calls the sent call",
                    "uncounted": "it calls no sent call, the completion "
                    "leaves its frames out",
                    "completed-only": "C5: the completion counts them"}[
                        opt["xdp-bql"]])
            xcl = [f for f in drv.compl_fns if f in
                   drv.callees_closure(set(xdp))]
            if xcl:
                opt["xdp-cleans"] = "on"
                why["xdp-cleans"] = "%s() completes first" % xcl[0]
        else:
            why["xdp-frames"] = "%s() on rings of its own (no tx lock of " \
                "a stack queue)" % xdp[0]
    # the completion's wake
    wake_sites = [(fn, callee, line, rel) for fn, callee, line, rel in
                  drv.calls if callee in (WAKE_Q0 | WAKE_ONE | WAKE_ALL | {
                      "netif_txq_completed_wake",
                      "__netif_txq_completed_wake",
                      "netif_subqueue_completed_wake"}) and
                  (fn in drv.completers or drv.callers_closure({fn}) &
                   set(drv.completers)) and fn not in drv.xmit and
                  not drv.kinds_of_roots(fn) <= {"lifecycle", "open",
                                                 "close"}]
    wake_sites.sort(key=lambda w: (w[0] not in drv.compl_fns, w[2]))
    helper = [w for w in wake_sites if "completed_wake" in w[1]]
    if not wake_sites and (ring_stops or busy_stops or try_stops):
        opt["wakers"] = "none"
        why["wakers"] = "no wake reachable from a completion context"
    elif helper:
        w = helper[0]
        why["drv-wake"] = "%s() %s:%d" % (w[1], w[3], w[2])
        args = [a for fn, api, line, a, rel in drv.bql
                if fn == w[0] and line == w[2]]
        if w[1] == "__netif_txq_completed_wake" and args:
            down = args[0].split(",")[-1].strip()
            if down in ("false", "0"):
                opt["down-cond"] = "none"
            elif re.search(r"^!|down|reset|stop|clos", down, re.I) or \
                    not re.search(r"run|up|active|open", down, re.I):
                opt["down-cond"] = "path"
            else:
                opt["down-cond"] = "inverted"
            why["down-cond"] = "down_cond %s" % down
        else:
            opt["down-cond"] = "none"
            why["down-cond"] = "%s() has no down condition" % w[1]
    elif wake_sites:
        w = wake_sites[0]
        t = _fn_text(drv, w[0])
        rel, l0 = drv.fns[w[0]]
        pos = drv.src[rel].offset(w[2], 0) - drv.src[rel].offset(l0, 0)
        before = t[:max(pos, 0)]
        why["drv-wake"] = "%s() %s:%d" % (w[1], w[3], w[2])
        done = [c for f, c, ln, r in drv.calls if f == w[0] and ln < w[2]
                and (c in COMPL or c in drv.completers or c == "smp_mb")]
        if not done and not re.search(r"\bsmp_mb\s*\(|completed_queue\s*\(",
                                      before):
            opt["drv-wake"] = "no-mb"
            why["drv-wake"] += ", no smp_mb() or completed call before it"
        tail = before[-400:]
        if re.search(r"DOWN|RESET|closing|netif_running|carrier_ok|"
                     r"active|running", tail):
            why["down-cond"] = "a down/running test before %s()" % w[1]
        else:
            opt["down-cond"] = "none"
            why["down-cond"] = "no down flag tested before %s()" % w[1]
        if mq and w[1] in WAKE_Q0:
            opt["drv-queue"] = "q0"
            why["drv-queue"] = "%s(dev) on a multiqueue device" % w[1]
    if mq and ring_stops and ring_stops[0][0] == "netif_stop_queue":
        opt["drv-queue"] = "q0" if opt["drv-queue"] == "q0" else "stop-q0"
        why["drv-queue"] = "netif_stop_queue(dev) %s:%d on a multiqueue " \
            "device" % (ring_stops[0][3], ring_stops[0][2])
    # drops in the transmit path, BUSY after the sent call
    frees = [c for c in x if c[0] in FREE and c[1] not in drv.completers]
    if frees:
        opt["drops"] = "1"
        f0 = frees[0]
        why["drops"] = _site(f0)
        if ("C6", "free-after-sent") in findings:
            opt["drop"] = "after-sent"
        elif sent and any(x.index(c) > x.index(sent[0]) for c in frees) \
                and any(c[0] in COMPL for c in x[x.index(sent[0]):]):
            opt["drop"] = "after-sent-complete"
        if ("C6", "drop-tail") in findings:
            opt["error-kick"] = "skip"
            why["error-kick"] = "C6: a drop ends ndo_start_xmit with the " \
                "deferred doorbell unrung"
        elif opt["doorbell"] not in ("always",):
            why["error-kick"] = "the drop rings the pending doorbell (C6 " \
                "found none left unrung)"
    if ("C6", "busy-after-sent") in findings:
        opt["tx-busy"] = "stop" if opt["tx-busy"] == "none" else \
            opt["tx-busy"]
        opt["error-kick"] = "skip"
        why["error-kick"] = "C6: NETDEV_TX_BUSY after the sent call, no " \
            "doorbell"
    # the completion's queue and bytes
    if ("C5", "queue") in findings or ("C3", "sent0") in findings:
        opt["complete-queue"] = "other"
        why["complete-queue"] = "C5/C3: the completed queue computed " \
            "from another source than the sent one"
    if ("C5", "source") in findings:
        opt["completed-bytes"] = "bd-sum"
        why["completed-bytes"] = "C5: completed from descriptor lengths"
    if ("C5", "len-after-sent") in findings:
        cannot.append(CANNOT["len-change"])
    if ("C4", "store-before-sent") in findings:
        why["index"] = "C4: a bound the completion reads stored before " \
            "the sent call (the sent call after it: --sent after-doorbell)"
        opt["sent"] = "after-doorbell"
    if re.search(r"virtqueue_enable_cb_delayed|virtqueue_disable_cb",
                 "\n".join(s.text for s in drv.src.values())):
        opt["notify"] = "vq-cb"
        why["notify"] = "virtqueue callbacks"
    # the reset paths
    paths = reset_paths(drv, seq, mq, cannot)
    for p, (ops, root) in paths.items():
        opt[p] = ops
        why[p] = root
    if "close" in paths and "open" not in paths:
        opt["open"] = ",".join(o for o in ("dma-on", "napi-on", "wake")
                               if o in opt["open"])
    if ("C1", "other") in findings:
        cannot.append(CANNOT["other-root"])
    if ("C3", "subset-loop") in findings:
        cannot.append(CANNOT["subset"])
    cannot.append(CANNOT["branches"])
    opt["stops"] = "1" if "close" in paths or "open" in paths else "0"
    why["stops"] = "ndo_stop/ndo_open read" if opt["stops"] == "1" else \
        "no ndo_stop or ndo_open read"
    for p, n in (("reconfig", "reconfigs"), ("timeout", "timeouts"),
                 ("suspend", "suspends")):
        opt[n] = "0"
        if p in paths:
            why[n] = "%s read; its cycles are the bound's (0 unless a " \
                "finding is about it)" % why[p]
    return {"options": opt, "why": why,
            "cannot_state": sorted(set(cannot)),
            "command": command(opt)}


PATH_OF = {"close": "close", "open": "open", "timeout": "timeout",
           "recovery": "timeout", "suspend": "suspend", "resume": "resume"}
# ops of a running device that reconfigure its rings (kind "op", by field)
RECONFIG_RE = re.compile(r"set_ringparam|set_channels|ndo_bpf|xsk|"
                         r"change_mtu|set_pauseparam|set_features", re.I)


def reset_paths(drv, seq, mq, cannot):
    """{path: (ops, evidence)}: each reset op's calls as path calls, in
    line order through the driver's functions (branches merged)."""
    out = {}
    for root, ks in sorted(drv.kinds.items()):
        for k, how in ks.items():
            p = PATH_OF.get(k)
            if k == "op" and RECONFIG_RE.search(how):
                p = "reconfig"
            if not p or p in out:
                continue
            ops = path_ops(drv, seq, root, mq)
            if not ops:
                continue
            out[p] = (",".join(ops), "%s() (%s)" % (root, k))
    return out


def path_ops(drv, seq, root, mq):
    ops = []
    stop_at = set(drv.compl_fns) | (set(drv.completers) - set(
        drv.resetters))

    def add(o):
        if not ops or ops[-1] != o:
            ops.append(o)
    for callee, fn, line, rel, top in seq.walk(root, stop_at=stop_at):
        if callee in STOP_ALL:
            add("stop")
        elif callee == "netif_stop_queue":
            add("stop0" if mq else "stop")
        elif callee in ("napi_disable", "napi_disable_locked"):
            add("napi-off")
        elif callee in ("napi_enable", "napi_enable_locked"):
            add("napi-on")
        elif callee in FREE and fn not in drv.xmit and TX_RE.search(fn):
            add("drain")
        elif callee in stop_at and callee in drv.fns:
            add("complete")
        elif callee == "netdev_reset_queue":
            add("reset0" if mq else "reset")
        elif callee in RESET_ALL:
            add("reset")
        elif callee in WAKE_ALL:
            add("wake")
        elif callee in WAKE_Q0:
            add("wake0" if mq else "wake")
    # dma-off before the first drain, dma-on before napi-on (not
    # recognised by effect: see the module's known limits)
    if "drain" in ops:
        i = ops.index("drain")
        ops.insert(i, "dma-off")
    if "napi-on" in ops:
        i = ops.index("napi-on")
        if "dma-on" not in ops[:i]:
            ops.insert(i, "dma-on")
    # the model's calls once each, in their first place
    seen, out = set(), []
    for o in ops:
        if o not in seen:
            seen.add(o)
            out.append(o)
    return out


def command(opt, keys=None):
    """The option list as a bqlm command line (every option)."""
    return " ".join("--%s %s" % (k, opt[k]) for k in ORDER
                    if keys is None or k in keys)


def parse(options):
    """'--a x --b y' -> {a: x, b: y}."""
    t = options.split()
    out = {}
    i = 0
    while i < len(t):
        if t[i].startswith("--") and i + 1 < len(t):
            out[t[i][2:]] = t[i + 1]
            i += 2
        else:
            i += 1
    return out


def compared(opt, runs=None):
    """The options compared with a hand-written description: all but the
    bound; a reset path (by where its reset sits) only where @runs says
    (default: the paths whose cycles @opt runs)."""
    if runs is None:
        runs = {p for p in PATHS if opt.get(CYCLES[p], "0") != "0"}
    out = {}
    for k in ORDER:
        if k in BOUND and k not in PATHS:
            continue
        if k in PATHS:
            if k not in runs:
                continue
            ops = opt.get(k, "").split(",")
            # where the reset sits is what a path is compared on
            out[k + ":reset"] = ",".join(o for o in ops if o.startswith(
                "reset")) or "none"
            continue
        if k == "wakers" and opt.get(k) != "none":
            out[k] = "napi,rx-cleanup"     # every completer wakes
            continue
        out[k] = opt.get(k)
    return out


# ---------------------------------------------------------------------------
# a finding proved on its driver's description

# The bound a pattern needs to show (the search's size, not the driver),
# and the cycles of the path it is about.
PATTERN_BOUND = {
    ("C1", "close"): "--stops 1",
    ("C1", "reconfig"): "--stops 0 --reconfigs 1",
    ("C1", "timeout"): "--stops 0 --timeouts 1",
    ("C1", "recovery"): "--stops 0 --timeouts 1",
    ("C1", "work"): "--stops 0 --timeouts 1",
    ("C1", "suspend"): "--stops 0 --suspends 1",
    ("C1", "resume"): "--stops 0 --suspends 1",
    ("C2", "reset-before-stop"): "--stops 1",
    ("C2", "open-reset-kept"): "--stops 1",
    ("C3", "reset0"): "--stops 1",
    ("C4", "doorbell-before-sent"): "--batch 1",
    ("C4", "store-before-sent"): "--batch 1",
    ("C5", "source"): "--descs 2 --ring 4 --budget 1 --batch 1",
    ("C5", "completed-unsent"): "",
    ("C5", "queue"): "",
    ("C6", "xmit-more-only"): "--batch 3",
    ("C6", "ignored-return"): "--batch 3",
    ("C6", "stop-after-doorbell"): "--packets 4 --batch 3 --budget 1",
    ("C6", "busy-after-sent"): "--batch 3 --packets 4",
    ("C6", "free-after-sent"): "",
    ("C6", "drop-tail"): "--batch 2",
    ("C7", "stop-no-recheck"): "--batch 1",
    ("C7", "no-waker"): "",
    ("C8", "napi+xmit"): "--budget 1 --packets 5 --ring 3",
    ("C8", "napi+napi"): "",
}

# The options of the path a C1 finding is about, when the description has
# no such path of its own (the rule's pattern, MODEL_MAP's).
PATTERN_PATH = {"reconfig": "reconfig", "timeout": "timeout",
                "recovery": "timeout", "work": "timeout",
                "suspend": "suspend", "resume": "resume", "close": "close"}


def _with_reset(ops, after=("drain", "dma-off", "napi-off", "stop")):
    ops = [o for o in ops.split(",") if o and not o.startswith("reset")]
    for a in after:
        if a in ops:
            ops.insert(ops.index(a) + 1, "reset")
            return ",".join(ops)
    return ",".join(["reset"] + ops)


def fix_of(rid, pattern, opt):
    """The description changed as the rule's fix says: {opt: value}, and
    the words for it."""
    if rid == "C1":
        p = PATTERN_PATH.get(pattern, "close")
        if p == "resume":
            return {"resume": _with_reset(opt["resume"], ("drain",))}, \
                "a BQL reset on resume after its drain"
        return {p: _with_reset(opt[p])}, "a BQL reset on %s after its " \
            "drain" % p
    if (rid, pattern) == ("C2", "reset-before-stop"):
        return {"close": _with_reset(opt["close"])}, "the reset after " \
            "the stop and the drain"
    if (rid, pattern) == ("C2", "open-reset-kept"):
        return {"open": ",".join(o for o in opt["open"].split(",")
                                 if not o.startswith("reset")),
                "close": _with_reset(opt["close"])}, \
            "the reset on close after the drain, none on open"
    table = {
        ("C3", "reset0"): ({"close": opt["close"].replace("reset0",
                                                          "reset")},
                           "netdev_tx_reset_queue() on every queue"),
        ("C3", "stopwake0"): ({"drv-queue": "own"},
                              "stop and wake the ring's own queue"),
        ("C3", "sent0"): ({"complete-queue": "own"},
                          "the skb's own queue on both sides"),
        ("C4", "doorbell-before-sent"): ({"sent": "before-doorbell"},
                                         "the sent call before the "
                                         "doorbell"),
        ("C4", "store-before-sent"): ({"sent": "before-doorbell"},
                                      "the sent call before the store"),
        ("C5", "source"): ({"completed-bytes": "skb-len"},
                           "complete skb->len, as sent"),
        ("C5", "completed-unsent"): ({"xdp-bql": "uncounted"},
                                     "tag what was not counted"),
        ("C5", "queue"): ({"complete-queue": "own"},
                          "one source for both queues"),
        ("C6", "xmit-more-only"): ({"doorbell": "xmit-stopped"},
                                   "ring on !xmit_more || "
                                   "netif_xmit_stopped()"),
        ("C6", "ignored-return"): ({"doorbell": "sent-queue"},
                                   "ring on the sent call's return"),
        ("C6", "stop-after-doorbell"): ({"ring-stop": "after-sent"},
                                        "the ring-full stop before the "
                                        "doorbell decision"),
        ("C6", "busy-after-sent"): ({"error-kick": "ring"},
                                    "ring the pending doorbell on BUSY"),
        ("C6", "free-after-sent"): ({"drop": "before-sent"},
                                    "drop before the sent call"),
        ("C6", "drop-tail"): ({"error-kick": "ring"},
                              "ring the pending doorbell on the drop"),
        ("C7", "stop-no-recheck"): ({"drv-stop": "helper"},
                                    "netif_txq_maybe_stop()"),
        ("C7", "no-waker"): ({"wakers": "napi,rx-cleanup"},
                             "wake from the completion"),
        ("C8", "napi+xmit"): ({"napi-txlock": "on"},
                              "one lock for both completers"),
        ("C8", "napi+napi"): ({"napi-txlock": "on"},
                              "one lock for both completers"),
    }
    return table.get((rid, pattern), ({}, ""))


def finding_options(desc, rid, pattern, model):
    """The finding's description: the driver's own, with the bound the
    pattern needs, and the pattern's own options only where the
    description says nothing of them (a path it did not read)."""
    opt = dict(desc["options"])
    given = set()
    b = parse(PATTERN_BOUND.get((rid, pattern), ""))
    opt.update(b)
    given |= set(b)
    if rid == "C1":
        p = PATTERN_PATH.get(pattern, "close")
        if p not in desc["why"] and "options" in model:
            m = parse(model["options"])
            for k in (p, "open" if p == "close" else None,
                      "resume" if p == "suspend" else None,
                      "suspend" if p == "resume" else None):
                if k and k in m and k not in desc["why"]:
                    opt[k] = m[k]
    return opt, given


def run_options(opt, given):
    """The command line of a run: every option of the description but the
    bound the pattern does not state (the explorer's fill bound)."""
    cyc = {"stops", "reconfigs", "timeouts", "suspends"}
    return " ".join("--%s %s" % (k, opt[k]) for k in ORDER
                    if (k not in BOUND or k in given or k in cyc) and
                    (k not in PATHS or opt.get(CYCLES[k], "0") != "0"))


def _unbound(options, given):
    """The options without the bound ones the pattern does not state,
    which the sweep varies (--memory-model too: the sweep tries each)."""
    t = parse(options)
    return " ".join("--%s %s" % (k, v) for k, v in t.items()
                    if k not in ("packets", "memory-model") or k in given)


def prove(explorer, desc, rid, pattern, model, sweep_s=0, others=()):
    """The explorer's verdict on a finding's own description, then on
    the description with the rule's fix; "unproved" with why when the
    finding's description does not violate. The driver's other findings
    (@others, (rule, pattern) each) are fixed in it, so that the run is
    about this one; a finding of the transmit side (C4 to C8) runs with
    no reset path (--stops 0), one of a path (C1 to C3) with that path."""
    opt, given = finding_options(desc, rid, pattern, model)
    for o in others:
        if tuple(o) != (rid, pattern):
            fx, words = fix_of(o[0], o[1], opt)
            for k, v in fx.items():
                if k not in PATHS or rid not in ("C1", "C2", "C3"):
                    opt[k] = v
    if rid not in ("C1", "C2", "C3"):
        opt["stops"] = "0"
        given.add("stops")
    if (rid, pattern) == ("C8", "other"):
        return {"status": "cannot state", "why": CANNOT["timer-completer"]}
    if (rid, pattern) in (("C5", "len-after-sent"), ("C1", "other"),
                          ("C3", "subset-loop")):
        key = {"C5": "len-change", "C1": "other-root", "C3": "subset"}[rid]
        return {"status": "cannot state", "why": CANNOT[key]}
    mms = ["sc"]
    if opt["drv-stop"] != "helper" or opt["drv-wake"] != "helper":
        mms += ["pso", "x86"]
    out = {"options": run_options(opt, given), "runs": []}
    hit = None
    for mm in mms:
        o = out["options"].replace("--memory-model sc",
                                   "--memory-model " + mm)
        ex = explorer.run(o)
        out["runs"].append({"memory_model": mm, "result": ex})
        if ex.get("verdict"):
            hit = (mm, o, ex)
            break
    if hit is None and sweep_s:
        sw = sweep(explorer, _unbound(out["options"], given), sweep_s)
        out["sweep"] = sw
        if sw.get("violation"):
            hit = ("swept", out["options"], sw)
    if hit is None:
        out["status"] = "unproved"
        ex = out["runs"][0]["result"]
        out["why"] = ("the driver's own description does not violate "
                      "(%s, %s states%s%s): %s" % (
                          ex.get("result"), ex.get("states"),
                          ", memory models " + "/".join(mms)
                          if len(mms) > 1 else "",
                          ", sweep %s" % out["sweep"].get("summary")
                          if out.get("sweep") else "",
                          unproved_reason(desc, rid, pattern)))
        return out
    mm, o, ex = hit
    out["status"] = "proved"
    out["memory_model"] = mm
    out["verdict"] = ex.get("verdict")
    out["depth"] = ex.get("depth")
    out["options"] = o
    fx, words = fix_of(rid, pattern, opt)
    if fx:
        fopt = dict(opt)
        fopt.update(fx)
        fo = run_options(fopt, given)
        if mm not in ("sc", "swept"):
            fo = fo.replace("--memory-model sc", "--memory-model " + mm)
        if mm == "swept":
            fe = sweep(explorer, _unbound(fo, given), sweep_s)
            clean = fe.get("exit") == 0
        else:
            fe = explorer.run(fo)
            clean = not fe.get("verdict") and fe.get("result") not in (
                "error", "not run")
        out["fix"] = {"what": words, "changed": " ".join(
            "--%s %s" % kv for kv in sorted(fx.items())), "options": fo,
            "result": fe, "clean": clean}
    return out


def unproved_reason(desc, rid, pattern):
    """Which options of the description keep the pattern from
    violating, with their evidence."""
    keys = {
        "C8": ["completers", "napi-txlock", "rx-cleanup", "completion"],
        "C7": ["drv-stop", "napi-txlock", "ring-stop", "wakers",
               "drv-wake"],
        "C6": ["doorbell", "ring-stop", "stop-kick", "sent-call",
               "error-kick", "drops", "drop", "tx-busy"],
        "C4": ["sent", "napi-txlock"],
        "C5": ["completed-bytes", "complete-queue", "xdp-bql"],
        "C3": ["queues", "drv-queue", "close"],
        "C2": ["close", "open"],
        "C1": ["close", "open", "reconfig", "timeout", "suspend",
               "resume"],
    }.get(rid, [])
    parts = []
    for k in keys:
        w = desc["why"].get(k)
        parts.append("--%s %s%s" % (k, desc["options"][k],
                                    " (%s)" % w if w else
                                    " (the generic driver's)"))
    return "; ".join(parts)


def prove_line(p):
    """One line of the table for a finding's proof."""
    if p["status"] == "cannot state":
        return "cannot state on its description: the NIC model has no %s" % \
            p["why"]
    if p["status"] == "unproved":
        return "unproved: %s" % p["why"]
    s = "counterexample of the driver's description: %s at depth %s" % (
        p["verdict"], p["depth"])
    if p.get("memory_model") == "swept":
        s += " (found by --sweep: %s)" % p["sweep"].get("summary")
    elif p.get("memory_model") not in (None, "sc"):
        s += " (memory model %s)" % p["memory_model"]
    f = p.get("fix")
    if f:
        s += "; fix (%s: %s): %s" % (f["what"], f["changed"], "clean" if
                                     f["clean"] else "still %s" % (
                                         f["result"].get("verdict") or
                                         f["result"].get("result")))
    return s


def markdown(report):
    """build/audit-descriptions.md: each driver's description, option by
    option with its evidence, and each finding's proof."""
    out = ["# Each driver's `bqlm explore nic` description, read by make "
           "audit", "",
           "Generated by `audit/audit.py` (audit/describe.py); "
           "docs/audit.md says how.", ""]
    for e in report:
        d = e.get("description")
        if not d:
            continue
        if "error" in d:
            out += ["## %s" % e["driver"], "", "not described: %s" %
                    d["error"], ""]
            continue
        out.append("## %s" % e["driver"])
        out.append("")
        out.append("```")
        out.append("bqlm explore nic " + d["command"])
        out.append("```")
        out.append("")
        out.append("| option | value | read from |")
        out.append("|---|---|---|")
        for k in ORDER:
            if k in BOUND:
                continue
            out.append("| `--%s` | `%s` | %s |" % (
                k, d["options"][k], d["why"].get(k, "not in the code: the "
                                                 "generic driver's")))
        if d["cannot_state"]:
            out.append("")
            out.append("The model cannot state: " + "; ".join(
                d["cannot_state"]) + ".")
        fl = []
        for rid, r in sorted(e["rules"].items()):
            for f in r["findings"]:
                if f.get("proof"):
                    fl.append("- %s %s (%s): %s" % (
                        rid, f["where"], f["pattern"],
                        prove_line(f["proof"])))
        if fl:
            out.append("")
            out += fl
        out.append("")
    return "\n".join(out) + "\n"


def sweep(explorer, options, seconds):
    """bqlm explore nic OPTIONS --sweep SECONDS: {"violation": bool,
    "summary": the last line, "verdict", "depth"}; the explorer makes
    the run (audit.py's Explorer.sweep(), which keeps it for the same
    options asked again)."""
    if not getattr(explorer, "enabled", False):
        return {"summary": "not run"}
    return explorer.sweep(options, seconds)


def sweep_result(rc, stdout):
    """What a sweep's exit status @rc and output @stdout say."""
    out = {"violation": rc == 1, "exit": rc}
    for line in stdout.splitlines():
        if line.startswith(("VIOLATION at level", "OK up to level")):
            out["summary"] = line.split(":")[0]
        m = re.match(r"VIOLATION: (\S+) \(depth (\d+)\)", line)
        if m:
            out["verdict"], out["depth"] = m.group(1), int(m.group(2))
    out.setdefault("summary", "exit %d" % rc)
    return out
