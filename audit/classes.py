# SPDX-License-Identifier: GPL-2.0
"""classes.py - the audit's rules for the stop/wake classes C7 did not
cover, and the scope of the stop/wake rules (docs/audit.md, "Scope and
the stop/wake classes").

    C9   the completion's wake condition (the down_cond of
         __netif_txq_completed_wake()) says "up" where it must say "down";
         or an open-coded wake of a completion context guarded by "no
         room" (!free, free == 0, avail < thresh) or by "not stopped"
    C10  the index the completion walks to is stored after the doorbell
         (or a slot's flag the completion tests and clears to clean it)
    C12  queue 0 stopped or woken on a device with several tx queues

audit.py adds RULES, MODEL_MAP and judges(audit) to its own tables; the
judges take the audit module for its helpers (loc(), rfile(), ...), so
this module imports nothing of it.

Scope: the stop/wake rules (STOPWAKE_RULES) also read the drivers of
drivers/net that stop a queue and call no BQL function (stopwake_file());
the other rules need a sent call and say so for those drivers.
"""

import os
import re

RULES = [
    ("C9", "c9_wake_cond.cocci", "wake condition inverted"),
    ("C10", "c10_index_after_db.cocci", "completion bound stored after "
     "the doorbell"),
    ("C12", "c12_queue.cocci", "queue 0 stopped/woken on a multiqueue "
     "device"),
]

# Rules that run on a driver that stops a queue without BQL.
STOPWAKE_RULES = {"C7", "C9", "C12"}

MODEL_MAP = {
    ("C9", "down-cond"): {"missing": "a completion whose wake condition "
                          "is false while the device runs (--wake-cond)"},
    ("C9", "wake-guard"): {"missing": "a completion whose wake condition "
                           "is false while the device runs (--wake-cond)"},
    ("C10", "store-after-doorbell"): {"missing": "the completion's bound "
                                      "published as a step after the "
                                      "doorbell"},
    ("C12", "queue0"): {"missing": "stop/wake of queue 0 while another "
                        "queue fills (a stop-queue and wake-queue that "
                        "differ from the filled one)"},
}

_STOP_RE = re.compile(r"\bnetif_(?:tx_)?stop_(?:sub)?queue\s*\(|"
                      r"\bnetif_tx_stop_all_queues\s*\(|"
                      r"\bnetif_(?:txq|subqueue)_(?:maybe|try)_stop\s*\(")
_WAKE_RE = re.compile(r"\bnetif_(?:tx_)?wake_(?:sub)?queue\s*\(|"
                      r"\bnetif_tx_wake_all_queues\s*\(")


def stopwake_file(text):
    """Does the (comment-stripped) text of a file stop or wake a tx queue?
    Such files are read by the stop/wake rules whether or not they call
    BQL."""
    return bool(_STOP_RE.search(text) or _WAKE_RE.search(text))


def skip_reason(rid, bql_apis):
    """Why rule @rid does not run on a driver whose BQL calls are
    @bql_apis (empty: a driver read only for its stop/wake), or None."""
    if not bql_apis and rid not in STOPWAKE_RULES:
        return "not a BQL driver: read for the stop/wake rules (%s) only" \
            % ", ".join(sorted(STOPWAKE_RULES))
    return None


def extend_sets(drv, wake_api):
    """A driver read for its stop/wake only has no completion call: its
    completers, for C7's locks, are the functions that wake a queue
    outside the transmit path."""
    if any(drv.text_calls.values()):
        return
    wakers = drv.callers_closure(set(wake_api)) - drv.xmit
    drv.completers = wakers
    drv.sets["completers"] = sorted(wakers)


# ---------------------------------------------------------------------------
# C9: the down condition

UP_RE = re.compile(r"carrier_ok|running|RUNNING|(^|_)up($|_)|_UP\b|is_up|"
                   r"\bOPEN\b|_OPEN$|STATE_OPEN|ready|READY|enabled|"
                   r"present|active|ACTIVE", re.I)
DOWN_RE = re.compile(r"down|DOWN|closing|CLOSING|closed|CLOSED|stopping|"
                     r"STOPPING|reset|RESET|remov|REMOV|detach|DETACH|"
                     r"disabl|DISABL|tx_disable", re.I)


def _operands(cond):
    """The operands of the top-level || and && of @cond."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(cond):
        c = cond[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if depth == 0 and cond[i:i + 2] in ("||", "&&"):
            out.append(cur.strip())
            cur = ""
            i += 2
            continue
        cur += c
        i += 1
    out.append(cur.strip())
    # one level of outer parentheses around the whole condition
    if len(out) == 1 and out[0].startswith("(") and out[0].endswith(")"):
        return _operands(out[0][1:-1])
    return [o for o in out if o]


def _negated(op):
    """Is @op a negation (!x) or an inequality (a != b)?"""
    s = op.strip()
    while s.startswith("(") and s.endswith(")"):
        s = s[1:-1].strip()
    if s.startswith("!") and not s.startswith("!="):
        return True
    return "!=" in s


def down_cond_verdict(cond):
    """(wrong operand, why) when @cond, a down_cond, says "up", or None."""
    for op in _operands(cond):
        neg = _negated(op)
        words = re.sub(r"[^\w]", " ", op)
        if UP_RE.search(words) and not DOWN_RE.search(words) and not neg:
            return op, "says the device is up, not going down"
        if DOWN_RE.search(words) and neg:
            return op, "is true while the device is not going down"
    return None


# An operand that names the ring's free room (not its use).
ROOM_RE = re.compile(r"free|avail|room|space|vacant|unused", re.I)
# Completion contexts of an open-coded wake.
WAKE_KINDS = {"napi", "irq", "timer", "work", "tasklet", "dma_cb"}
_WAKE_CALLS = {"netif_wake_queue", "netif_tx_wake_queue",
               "netif_wake_subqueue"}


def _guard(text, off):
    """The condition of the if whose then-branch starts at @off of @text
    (only blanks or "{" between its ")" and @off), or None."""
    i = off - 1
    while i >= 0 and text[i] in " \t\n{":
        i -= 1
    if i < 0 or text[i] != ")":
        return None
    depth, j = 0, i
    while j >= 0:
        if text[j] == ")":
            depth += 1
        elif text[j] == "(":
            depth -= 1
            if depth == 0:
                break
        j -= 1
    if j < 0 or not re.search(r"\bif\s*$", text[max(0, j - 12):j]):
        return None
    return text[j + 1:i]


def room_guard_verdict(cond):
    """(operand, why) when @cond, the guard of a wake, is true only when
    the ring has no room, or only when the queue runs; else None."""
    for op in _operands(cond):
        s = re.sub(r"\s+", " ", op.strip())
        while s.startswith("(") and s.endswith(")"):
            s = s[1:-1].strip()
        m = re.match(r"^(?:unlikely|likely)\((.*)\)$", s)
        if m:
            s = m.group(1).strip()
        if len(_operands(s)) > 1:
            sub = room_guard_verdict(s)
            if sub:
                return sub
            continue
        if re.match(r"^!\s*netif_(?:tx_)?queue_stopped\(|"
                    r"^!\s*__netif_subqueue_stopped\(", s):
            return op, "is true only while the queue runs"
        words = re.sub(r"[^\w]", " ", s)
        if not ROOM_RE.search(words):
            continue
        # a call's zero may mean "room" (axienet_check_tx_bd_space()
        # returns 0 when there is): only a count read from a variable or
        # a field is judged for "none free"
        count = re.sub(r"^!|==\s*0$|^0\s*==", "", s).strip()
        if "(" in count:
            pass
        elif s.startswith("!") and not s.startswith("!="):
            return op, "is true only when no descriptor is free"
        elif re.search(r"==\s*0\b", s) or re.match(r"^0\s*==", s):
            return op, "is true only when no descriptor is free"
        m = re.match(r"^(.*?[^<])(<=?)([^<].*)$", s)
        if m and ROOM_RE.search(m.group(1)) and "<<" not in s:
            return op, "is true only when little room is free"
    return None


def _judge_wake_guards(A, drv, v):
    """C9 on open-coded wakes: a wake in a completion context guarded by
    a condition that says "no room" or "queue running" (r6040's
    if (!priv->tx_free_desc) netif_wake_queue())."""
    for fn, callee, line, rel in sorted(drv.calls, key=lambda c: c[2]):
        if callee not in _WAKE_CALLS or fn in drv.xmit or \
                not drv.kinds_of_roots(fn) & WAKE_KINDS:
            continue
        src = drv.src.get(rel)
        if src is None:
            continue
        start = src.offset(line, 0)
        off = src.text.find(callee, start)
        if off < 0:
            continue
        cond = _guard(src.text, off)
        if cond is None:
            continue
        bad = room_guard_verdict(cond)
        if not bad:
            continue
        op, why = bad
        # the count raised right after the wake: the wake of its 0 -> 1
        # step (ucan's if (!up->available_tx_urbs) wake; ...++)
        m = re.search(r"(\w+)\W*$", A.norm(op).rstrip(") "))
        after = src.text[off:src.offset(min(line + 3, len(src.starts) - 1),
                                         0)]
        if m and re.search(r"\b%s\s*(?:\+\+|\+=)|\+\+\s*[\w>.\-]*\b%s\b"
                           % (re.escape(m.group(1)), re.escape(m.group(1))),
                           after):
            v.notes.append("%s: %s() under if (%s), and the count is "
                           "raised right after: the wake of its first free "
                           "slot" % (fn, callee, A.norm(cond)))
            continue
        v.finding(A.loc(rel, line), "wake-guard",
                  "%s: %s() under if (%s): %r %s; the queue is not woken "
                  "when the completion frees room" % (
                      fn, callee, A.norm(cond), A.norm(op), why))


def judge_c9(A, drv, v):
    _judge_wake_guards(A, drv, v)
    for r in A.recs(drv, "C9", "down-cond"):
        cond = r.get("cond", "")
        bad = down_cond_verdict(cond)
        if not bad:
            if not (UP_RE.search(cond) or DOWN_RE.search(cond)) and \
                    cond.strip() not in ("false", "0"):
                v.notes.append("%s: down condition %r names neither up nor "
                               "down" % (r["fn"], cond))
            continue
        op, why = bad
        v.finding(A.loc(A.rfile(drv, r), r["line"]), "down-cond",
                  "%s: __netif_txq_completed_wake()'s down condition %r: "
                  "%r %s; the queue is not woken while the device runs" % (
                      r["fn"], A.norm(cond), A.norm(op), why))


# ---------------------------------------------------------------------------
# C10: the completion's bound stored after the doorbell

def _completion_bounds(A, drv):
    """{field: "reader file:line"}: fields the completion functions and
    the functions they call read as the bound of their clean."""
    fns = set(drv.compl_fns)
    fns |= drv.callees_closure(fns) - drv.xmit
    save = getattr(drv, "bound_where", None)
    try:
        drv.bound_fields(fns)
        out = dict(drv.bound_where)
    finally:
        drv.bound_where = save
    return out


# A flag of a slot's software record that the completion tests and then
# clears ("if (buf->is_push) { buf->is_push = 0; ... }"): it decides how
# the completion cleans the slot (bnxt's is_push, b9a8460a08a1).
_FLAG_TEST = r"\bif\s*\(\s*(?:unlikely\s*\(\s*)?(\w+)->(\w+)\s*\)"


def _completion_flags(A, drv):
    """{field: "reader file:line"}: per-slot flags the completion
    functions and their callees test and then clear."""
    fns = set(drv.compl_fns)
    fns |= drv.callees_closure(fns) - drv.xmit
    out = {}
    for fn in sorted(fns):
        text, rel, line = drv.fn_text(fn)
        if not text:
            continue
        for m in re.finditer(_FLAG_TEST, text):
            base, fld = m.group(1), m.group(2)
            clear = re.compile(r"\b%s->%s\s*=\s*(?:0|false)\s*;" % (
                re.escape(base), re.escape(fld)))
            if clear.search(text, m.end(), m.end() + 200):
                out.setdefault(fld, "%s %s:%d" % (
                    fn, rel, line + text[:m.start()].count("\n")))
    return out


def judge_c10(A, drv, v):
    rs = A.recs(drv, "C10", "store-after-doorbell")
    if not rs:
        return
    bound = _completion_bounds(A, drv)
    effect = {tuple(s.rsplit(":", 2)[:2]) for s in getattr(
        drv, "db_by_effect", ())}
    flags = _completion_flags(A, drv)
    seen = set()
    for r in rs:
        fld = r.get("field")
        base = A.norm(r.get("base", ""))
        if fld in flags and fld not in bound:
            if (r["fn"], r["line"], fld) in seen:
                continue
            seen.add((r["fn"], r["line"], fld))
            held = drv.locks_at(r["fn"], r["line"])
            reader = flags[fld].split()[0]
            if held and drv.locks_in(reader) & held:
                v.notes.append("%s: %s->%s after the doorbell, under a "
                               "lock %s also takes" % (r["fn"], base, fld,
                                                        reader))
                continue
            v.finding(A.loc(A.rfile(drv, r), r["line"]),
                      "store-after-doorbell",
                      "%s: %s->%s stored after %s() (line %d); the "
                      "completion tests and clears it to clean the slot "
                      "(%s): a completion run between the two cleans the "
                      "slot the wrong way" % (
                          r["fn"], base, fld, r.get("callee", "?"),
                          r.get("db_line", 0), flags[fld]))
            continue
        if fld not in bound:
            continue
        if (os.path.basename(r.get("file", "")), str(r.get("db_line"))) \
                in effect:
            # a doorbell by effect: on 6.12 it would add hip04_eth's
            # tx_head and bcm4908_enet's write_idx, not triaged
            v.notes.append("%s: %s stored after %s() (line %s), a doorbell "
                           "by effect: not judged" % (
                               r["fn"], fld, r.get("callee", "?"),
                               r.get("db_line")))
            continue
        if "[" in base:
            continue    # one slot's record, not the ring's index
        held = drv.locks_at(r["fn"], r["line"])
        reader = bound[fld].split()[0]
        if held and drv.locks_in(reader) & held:
            v.notes.append("%s: %s->%s after the doorbell, under a lock "
                           "%s also takes" % (r["fn"], base, fld, reader))
            continue
        v.finding(A.loc(A.rfile(drv, r), r["line"]), "store-after-doorbell",
                  "%s: %s->%s stored after %s() (line %d); the completion "
                  "reads it as the bound of its clean (%s): a completion "
                  "run between the two sees the old bound" % (
                      r["fn"], base, fld, r.get("callee", "?"),
                      r.get("db_line", 0), bound[fld]))


# ---------------------------------------------------------------------------
# C12: queue 0 on a multiqueue device

QUEUE_KINDS = {"xmit", "xdp_xmit", "napi", "irq", "timer", "work",
               "tasklet", "dma_cb"}


def judge_c12(A, drv, v):
    rs = A.recs(drv, "C12", "queue0")
    if not rs:
        return
    if drv.queues() < 2:
        v.notes.append("one tx queue: netif_stop_queue() and "
                       "netif_wake_queue() act on it")
        return
    for r in rs:
        kinds = drv.kinds_of_roots(r["fn"])
        if r["fn"] not in drv.xmit and not kinds & QUEUE_KINDS:
            continue    # open, close, timeout: queue 0 among the others
        where = "the transmit path" if r["fn"] in drv.xmit else \
            "a completion context (%s)" % ", ".join(sorted(
                kinds & QUEUE_KINDS))
        v.finding(A.loc(A.rfile(drv, r), r["line"]), "queue0",
                  "%s: %s() in %s of a device with several tx queues acts "
                  "on queue 0, not on the queue of the ring that filled "
                  "or drained" % (r["fn"], r["callee"], where))


def judges(A):
    """The judges of RULES bound to the audit module @A."""
    return {"C9": lambda drv, v: judge_c9(A, drv, v),
            "C10": lambda drv, v: judge_c10(A, drv, v),
            "C12": lambda drv, v: judge_c12(A, drv, v)}
