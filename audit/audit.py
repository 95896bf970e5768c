#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""audit.py - every BQL driver of a kernel tree, read with Coccinelle, each
finding tied to a counterexample of the bqlm explorer.

    audit/audit.py [--kdir DIR] [--files "PATH..."] [--json FILE]
                   [--jobs N] [--timeout S] [--options] [--no-explore]
                   [--rules C1,C2,...] [--quiet] [--drivers-dir DIR]

Steps (docs/audit.md):
  1. find every file under drivers/net (or of --files) that calls a BQL
     function, and group the files into drivers by the kernel Makefiles;
  2. pass 1, audit/facts.cocci on every file: functions, calls, loops,
     callbacks, BQL calls, calls made under a lock;
  3. per driver, the call graph and the sets the rules need (functions that
     reach a reset, a completion, a drain, the transmit path, ...);
  4. pass 2, the rules audit/c1_*.cocci .. c8_*.cocci on every file, with
     the driver's sets (BQLMA_SETS);
  5. per driver and rule: ok, finding (file:line) or cannot tell (why);
  6. each finding mapped to "bqlm explore nic" options (the table
     MODEL_MAP below), the explorer run, its first violation and depth
     printed next to the finding, or the model capability it lacks.

Exit status: 0 clean (every verdict "ok": each rule saw what it needs),
1 findings (every file read), 2 usage, 3 incomplete (a file or a rule
could not be read, or no finding and a verdict "cannot tell" or "cannot
see": the table says what).
"""

import argparse
import concurrent.futures as cf
import functools
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bqlma import DB_WORDS  # noqa: E402
import classes  # noqa: E402
import describe  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_INCOMPLETE = 0, 1, 2, 3

# The rules: id, semantic patch, what it checks (docs/audit.md).
RULES = [
    ("C1", "c1_drain_reset.cocci", "tx buffers freed, no reset after"),
    ("C2", "c2_reset_live.cocci", "reset while a completion can run"),
    ("C3", "c3_queue0.cocci", "queue 0 only on a multiqueue device"),
    ("C4", "c4_sent_order.cocci", "counted after the device can see it"),
    ("C5", "c5_bytes.cocci", "completed bytes are not the sent bytes"),
    ("C6", "c6_xmit_more.cocci", "an xmit_more doorbell can be lost"),
    ("C7", "c7_stop_wake.cocci", "ring-full stop without re-check/waker"),
    ("C8", "c8_completers.cocci", "completers not serialised"),
]
# the stop/wake classes and the scope of the stop/wake rules: classes.py
RULES += classes.RULES
RULE_IDS = [r[0] for r in RULES]

SENT_API = {"netdev_tx_sent_queue", "__netdev_tx_sent_queue",
            "netdev_sent_queue", "__netdev_sent_queue"}
COMPL_API = {"netdev_tx_completed_queue", "netdev_completed_queue",
             "netif_txq_completed_wake", "__netif_txq_completed_wake",
             "netif_subqueue_completed_wake"}
RESET_API = {"netdev_tx_reset_queue", "netdev_reset_queue",
             "netdev_tx_reset_subqueue"}
HELPER_API = {"netif_txq_maybe_stop", "netif_txq_try_stop",
              "netif_subqueue_maybe_stop", "netif_subqueue_try_stop",
              "netif_subqueue_sent"}
BQL_API = SENT_API | COMPL_API | RESET_API | HELPER_API
BQL_RE = re.compile(r"\b(%s)\s*\(" % "|".join(
    sorted(BQL_API, key=len, reverse=True)))

# Kernel calls that free an skb (a tx buffer when a ring clean does it).
SKB_FREE_API = {"dev_kfree_skb", "dev_kfree_skb_any", "dev_kfree_skb_irq",
                "dev_consume_skb_any", "dev_consume_skb_irq", "kfree_skb",
                "consume_skb", "napi_consume_skb", "kfree_skb_list",
                "kfree_skb_reason"}
# Kernel calls that free every buffer of a ring through a callback given
# to them (virtqueue_resize(vq, n, recycle, recycle_done)).
RING_RECYCLE_API = {"virtqueue_resize", "virtqueue_reset"}
# The device sees new descriptors: MMIO writes, virtio and dmaengine kicks.
ALWAYS_DOORBELL = {"virtqueue_kick", "virtqueue_notify", "dmaengine_submit",
                   "dma_async_issue_pending"}
DOORBELL_API = {"writel", "writel_relaxed", "writeq", "writeq_relaxed",
                "writew", "writew_relaxed", "writeb", "iowrite32",
                "iowrite16", "iowrite32be", "iowrite64", "__raw_writel",
                "__raw_writeq", "__iowrite32_copy", "__iowrite64_copy",
                "virtqueue_kick", "virtqueue_notify", "virtqueue_kick_prepare",
                "dmaengine_submit", "dma_async_issue_pending", "out_be32",
                "iowrite32_rep", "mmiowb", "__raw_writew", "bus_write"}
# Stop a completion source, per context kind.
STOP_API = {
    "napi": {"napi_disable", "napi_synchronize", "napi_disable_locked"},
    "irq": {"free_irq", "devm_free_irq", "disable_irq", "synchronize_irq"},
    "timer": {"del_timer_sync", "timer_delete_sync", "hrtimer_cancel",
              "timer_shutdown_sync"},
    "work": {"cancel_work_sync", "cancel_delayed_work_sync", "flush_work",
             "flush_delayed_work", "flush_workqueue", "destroy_workqueue"},
    "tasklet": {"tasklet_kill", "tasklet_disable"},
    "dma_cb": {"dmaengine_terminate_sync", "dmaengine_terminate_all",
               "dmaengine_synchronize"},
}
START_API = {"napi_enable", "napi_enable_locked"}
WAKE_API = {"netif_wake_queue", "netif_tx_wake_queue", "netif_wake_subqueue",
            "netif_tx_wake_all_queues", "netif_txq_completed_wake",
            "__netif_txq_completed_wake", "netif_subqueue_completed_wake",
            "netif_txq_maybe_stop", "netif_subqueue_maybe_stop",
            "netif_txq_try_stop", "netif_subqueue_try_stop",
            "netif_start_queue", "netif_tx_start_queue",
            "netif_start_subqueue", "netif_tx_start_all_queues"}
STOP_QUEUE_API = {"netif_stop_queue", "netif_tx_stop_queue",
                  "netif_stop_subqueue", "netif_tx_stop_all_queues"}

# Entry points: the initialiser field (or the field assigned) that names a
# function, and the registration call that is given one, to its kind.
FIELD_KIND = {"ndo_start_xmit": "xmit", "ndo_xdp_xmit": "xdp_xmit",
              "ndo_open": "open", "ndo_stop": "close",
              "enable": "open", "disable": "close",
              "ndo_tx_timeout": "timeout", "ndo_poll_controller": "netpoll",
              "probe": "lifecycle", "remove": "lifecycle",
              "remove_new": "lifecycle", "shutdown": "lifecycle",
              "ndo_init": "lifecycle", "ndo_uninit": "lifecycle",
              "disconnect": "lifecycle", "remove_slave": "lifecycle",
              "callback": "dma_cb", "function": "timer",
              "error_detected": "recovery", "slot_reset": "recovery",
              "reset_prepare": "recovery", "reset_done": "recovery",
              "mmio_enabled": "recovery"}
for _f in ("suspend", "suspend_late", "suspend_noirq", "freeze",
           "freeze_late", "freeze_noirq", "poweroff", "poweroff_late",
           "poweroff_noirq", "runtime_suspend", "prepare"):
    FIELD_KIND[_f] = "suspend"
for _f in ("resume", "resume_early", "resume_noirq", "thaw", "thaw_early",
           "thaw_noirq", "restore", "restore_early", "restore_noirq",
           "runtime_resume", "complete"):
    FIELD_KIND[_f] = "resume"
REG_KIND = {"netif_napi_add": "napi", "netif_napi_add_weight": "napi",
            "netif_napi_add_tx": "napi", "netif_napi_add_tx_weight": "napi",
            "netif_napi_add_config": "napi", "netif_threaded_napi_add": "napi",
            "request_irq": "irq", "devm_request_irq": "irq",
            "request_threaded_irq": "irq",
            "devm_request_threaded_irq": "irq",
            "request_any_context_irq": "irq", "timer_setup": "timer",
            "setup_timer": "timer", "hrtimer_setup": "timer",
            "INIT_WORK": "work", "INIT_DELAYED_WORK": "work",
            "INIT_WORK_ONSTACK": "work", "tasklet_setup": "tasklet",
            "tasklet_init": "tasklet", "kthread_run": "work",
            "kthread_create": "work"}
PM_MACRO_RE = re.compile(
    r"\b(?:SIMPLE_DEV_PM_OPS|DEFINE_SIMPLE_DEV_PM_OPS|"
    r"SET_SYSTEM_SLEEP_PM_OPS|SYSTEM_SLEEP_PM_OPS|SET_LATE_SYSTEM_SLEEP_PM_OPS|"
    r"SET_NOIRQ_SYSTEM_SLEEP_PM_OPS|NOIRQ_SYSTEM_SLEEP_PM_OPS|"
    r"SET_RUNTIME_PM_OPS|RUNTIME_PM_OPS|DEFINE_RUNTIME_DEV_PM_OPS|"
    r"_DEFINE_DEV_PM_OPS)\s*\(([^;]*?)\)\s*;?", re.S)
# Contexts that run concurrently with the others in normal operation
# (C8); the reset paths are C2's business.
ASYNC_KINDS = {"napi", "irq", "timer", "work", "tasklet", "dma_cb", "xmit",
               "xdp_xmit", "netpoll"}
# Reset-path kinds of C1, and the paths that are not judged.
NOT_JUDGED = {"lifecycle", "open"}

# A byte count read from a descriptor (what the device wrote back, or the
# per-buffer DMA length), not from the skb.
DESC_RE = re.compile(r"desc|\bbd\b|_bd\b|bd_|status|cntrl|ctrl|LEN_MASK|"
                     r"dma_unmap_len|dma_len|len_mask", re.I)
TXISH_RE = re.compile(r"tx|xmit|(^|_)sq(_|$)|send|tpd|tbd|unused_buf", re.I)
RXISH_RE = re.compile(r"(^|_)rx|rx(_|$)|recv|receive|(^|_)rq(_|$)", re.I)


# ---------------------------------------------------------------------------
# the model mapping: one table, one row per finding pattern

# Each pattern a rule reports maps either to explorer options (on top of
# "--profile generic"; {queues} is the driver's number of queues, 1 or 2)
# or to the model capability it needs. Adding a model option later is one
# line: replace the "missing" entry by an "options" one.
MODEL_MAP = {
    ("C1", "close"): {"options": "--queues {queues} --close stop,napi-off,dma-off,drain --open dma-on,napi-on,wake"},
    ("C1", "reconfig"): {"options": "--queues {queues} --stops 0 --reconfigs 1 --reconfig stop,napi-off,dma-off,drain,dma-on,napi-on,wake"},
    ("C1", "timeout"): {"options": "--queues {queues} --stops 0 --timeouts 1 --timeout stop,napi-off,dma-off,drain,dma-on,napi-on,wake"},
    ("C1", "recovery"): {"options": "--queues {queues} --stops 0 --timeouts 1 --timeout stop,napi-off,dma-off,drain,dma-on,napi-on,wake"},
    ("C1", "work"): {"options": "--queues {queues} --stops 0 --timeouts 1 --timeout stop,napi-off,dma-off,drain,dma-on,napi-on,wake"},
    ("C1", "suspend"): {"options": "--queues {queues} --stops 0 --suspends 1 --suspend stop,napi-off,dma-off,drain --resume dma-on,napi-on,wake"},
    ("C1", "resume"): {"options": "--queues {queues} --stops 0 --suspends 1 --suspend stop,napi-off,dma-off --resume drain,dma-on,napi-on,wake"},
    ("C1", "other"): {"missing": "a reset path started by a callback other than close, reconfiguration, timeout or suspend"},
    ("C2", "reset-before-stop"): {"options": "--queues {queues} --close stop,reset,napi-off,dma-off,drain"},
    ("C2", "reset-before-completion"): {"options": "--queues {queues} --close stop,napi-off,dma-off,reset,complete"},
    ("C2", "reset-after-start"): {"missing": "a reset path that enables a second NAPI poll (an RX poll that cleans tx) before its reset: the RX poll's cleanup is kept out of every path (bqlm_napi_poll_cleantx(), !nic->path)"},
    ("C2", "open-reset-kept"): {"options": "--queues {queues} --close napi-off --open reset,napi-on,wake"},
    ("C2", "timeout-reset-kept"): {"options": "--queues {queues} --stops 0 --timeouts 1 --timeout reset"},
    ("C3", "reset0"): {"options": "--queues 2 --close stop,napi-off,dma-off,drain,reset0"},
    ("C3", "stopwake0"): {"options": "--queues 2 --drv-queue stop-q0"},
    ("C3", "sent0"): {"options": "--queues 2 --complete-queue other", "note": "queue 0 on one side, the skb's queue on the other: a completion on another queue than the sent one"},
    ("C3", "subset-loop"): {"missing": "a queue count that changes at run time and a path over its first n queues (the model has 2 queues, both stack queues, fixed)"},
    ("C4", "doorbell-before-sent"): {"options": "--queues {queues} --sent after-doorbell --batch 1"},
    ("C4", "store-before-sent"): {"options": "--queues {queues} --sent after-doorbell --batch 1", "note": "the index the poll walks to stands for the doorbell; exact with a separate index step"},
    ("C5", "source"): {"options": "--queues 1 --descs 2 --ring 4 --budget 1 --completed-bytes bd-sum --batch 1"},
    ("C5", "len-after-sent"): {"missing": "a packet whose length changes between the sent call and the completion (the model's packets have one length, --len)"},
    ("C5", "len-before-pad"): {"missing": "a packet whose length changes between the sent call and the completion (the model's packets have one length, --len)"},
    ("C5", "completed-unsent"): {"options": "--queues 1 --xdp-frames 1 --xdp-bql completed-only"},
    ("C5", "queue"): {"options": "--queues 2 --complete-queue other"},
    ("C6", "xmit-more-only"): {"options": "--queues {queues} --doorbell xmit-more --batch 3"},
    ("C6", "ignored-return"): {"options": "--queues {queues} --sent-call xmit-more --doorbell xmit-more --batch 3"},
    ("C6", "stop-after-doorbell"): {"options": "--queues 1 --ring-stop after-doorbell --packets 4 --batch 3 --budget 1"},
    ("C6", "busy-after-sent"): {"options": "--queues {queues} --drops 1 --drop after-sent", "note": "the packet BQL counted and returned to the stack is stated as a drop after the sent call: its counted bytes never complete"},
    ("C6", "free-after-sent"): {"options": "--queues {queues} --drops 1 --drop after-sent"},
    ("C6", "drop-tail"): {"options": "--queues {queues} --map q0 --drops 1 --error-kick skip"},
    ("C7", "stop-no-recheck"): {"options": "--queues {queues} --map q0 --drv-stop no-recheck --ring-stop after-doorbell --batch 1"},
    ("C7", "no-waker"): {"options": "--queues {queues} --wakers none"},
    ("C8", "napi+xmit"): {"options": "--completers napi+xmit --budget 1 --packets 5 --ring 3"},
    ("C8", "napi+napi"): {"options": "--rx-cleanup on"},
    ("C8", "other"): {"missing": "a second completer in hard-IRQ, timer or work context beside a NAPI poll (the model's completion is a NAPI poll or, --completion irq, the hard IRQ handler, not both; its second completers are ndo_start_xmit, the RX poll's cleanup and the XDP transmit)"},
}


MODEL_MAP.update(classes.MODEL_MAP)


def model_entry(rule, pattern, queues):
    """The explorer options (or the missing capability) of a finding."""
    e = MODEL_MAP.get((rule, pattern))
    if e is None:
        return {"missing": "no mapping for %s/%s" % (rule, pattern)}
    if "options" in e:
        out = dict(e)
        q = min(max(queues, 1), 2)
        out["options"] = e["options"].format(queues=q)
        if q == 1:
            # with one queue every packet is on queue 0: the explorer
            # refuses --map without a second queue
            out["options"] = out["options"].replace(" --map q0", "")
        return out
    return dict(e)


# ---------------------------------------------------------------------------
# text helpers

_STRIP_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                       r"'(?:\\.|[^'\\\n])*'", re.S)


def strip_comments(text):
    """The text with comments and string/char literals blanked (newlines
    kept, so line numbers and columns stay)."""
    def blank(m):
        s = m.group(0)
        if s[0] in "\"'":
            return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1]
        return re.sub(r"[^\n]", " ", s)
    return _STRIP_RE.sub(blank, text)


def _strip_comments_slow(text):
    """strip_comments() one character at a time (kept for the tests)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c
                       if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


# Constructs Coccinelle 1.1.1 cannot parse, blanked in the copy it reads
# (same lines and columns): the scope-based cleanup attribute.
SANITIZE_RE = re.compile(r"\b__free\s*\(\s*\w+\s*\)")


def sanitized_copy(kdir, rel, tmp):
    """A copy of @rel for spatch, under @tmp, with SANITIZE_RE blanked."""
    dst = os.path.join(tmp, "src", rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(os.path.join(kdir, rel), errors="replace") as f:
        text = f.read()
    text = SANITIZE_RE.sub(lambda m: " " * len(m.group(0)), text)
    with open(dst, "w") as f:
        f.write(text)
    return dst


def norm(expr):
    """An expression as spatch prints it, without blanks."""
    return re.sub(r"\s+", "", str(expr))


class Source:
    """A file's stripped text, with line/column offsets and bracket
    matching (loop bodies)."""

    def __init__(self, path):
        with open(path, errors="replace") as f:
            self.raw = f.read()
        self.text = strip_comments(self.raw)
        self.starts = [0]
        for m in re.finditer("\n", self.text):
            self.starts.append(m.end())

    def offset(self, line, col):
        if line - 1 >= len(self.starts):
            return len(self.text)
        return self.starts[line - 1] + col

    def line_of(self, off):
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def match(self, off):
        """Offset after the bracket group that starts at @off."""
        pairs = {"(": ")", "{": "}", "[": "]"}
        stack = []
        i = off
        while i < len(self.text):
            c = self.text[i]
            if c in pairs:
                stack.append(pairs[c])
            elif stack and c == stack[-1]:
                stack.pop()
                if not stack:
                    return i + 1
            i += 1
        return len(self.text)

    def statement_end(self, off):
        """Offset after the statement that starts at @off."""
        i = off
        t = self.text
        while i < len(t) and t[i].isspace():
            i += 1
        if i < len(t) and t[i] == "{":
            return self.match(i)
        m = re.match(r"(if|for|while|switch)\b\s*", t[i:])
        if m:
            j = self.match(i + m.end())
            end = self.statement_end(j)
            if m.group(1) == "if":
                k = end
                while k < len(t) and t[k].isspace():
                    k += 1
                if t.startswith("else", k) and not (t[k + 4:k + 5].isalnum()
                                                    or t[k + 4:k + 5] == "_"):
                    end = self.statement_end(k + 4)
            return end
        if t.startswith("do", i) and not t[i + 2:i + 3].isalnum():
            j = self.statement_end(i + 2)
            k = t.find(";", j)
            return len(t) if k < 0 else k + 1
        depth = 0
        while i < len(t):
            c = t[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth < 0:
                    return i
            elif c == ";" and depth == 0:
                return i + 1
            i += 1
        return len(t)

    def loop_body_lines(self, line, col, kw):
        """(first, last) line of the body of the loop whose keyword is at
        (@line, @col)."""
        off = self.offset(line, col)
        t = self.text
        if kw == "do":
            end = self.statement_end(off + 2)
        else:
            p = t.find("(", off)
            if p < 0:
                return (line, line)
            end = self.statement_end(self.match(p))
        return (line, self.line_of(max(off, end - 1)))

    def do_loops(self):
        """(line, col) of every do { } while loop (facts.cocci cannot
        position them)."""
        for m in re.finditer(r"\bdo\s*\{", self.text):
            ln = self.line_of(m.start())
            yield ln, m.start() - self.starts[ln - 1]

    def cond_and_branches(self, line, col):
        """The condition text of the if at (@line, @col), and the line
        ranges of its then and else branches."""
        off = self.offset(line, col)
        t = self.text
        p = t.find("(", off)
        if p < 0:
            return "", (line, line), None
        q = self.match(p)
        cond = t[p + 1:q - 1]
        tend = self.statement_end(q)
        then = (self.line_of(q), self.line_of(max(q, tend - 1)))
        k = tend
        while k < len(t) and t[k].isspace():
            k += 1
        els = None
        if t.startswith("else", k) and not (t[k + 4:k + 5].isalnum() or
                                             t[k + 4:k + 5] == "_"):
            eend = self.statement_end(k + 4)
            els = (self.line_of(k), self.line_of(max(k, eend - 1)))
        return cond, then, els


# ---------------------------------------------------------------------------
# finding the BQL drivers

def parse_makefile(path):
    """Composite objects {name: set(objs)} and direct objects of a kbuild
    Makefile."""
    comp, direct = {}, set()
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return comp, direct
    text = re.sub(r"\\\n", " ", text)
    for line in text.split("\n"):
        line = line.split("#")[0]
        m = re.match(r"\s*obj-(?:y|m|\$\([^)]*\))\s*[:+]?=\s*(.*)", line)
        if m:
            direct.update(w for w in m.group(1).split() if w.endswith(".o"))
            continue
        m = re.match(r"\s*([\w.-]+?)-(?:y|objs|\$\([^)]*\))\s*[:+]?=\s*(.*)",
                     line)
        if m and m.group(1) not in ("ccflags", "subdir-ccflags", "asflags",
                                    "ldflags", "CFLAGS", "obj"):
            comp.setdefault(m.group(1), set()).update(
                w for w in m.group(2).split() if w.endswith(".o"))
    return comp, direct


def driver_of(kdir, rel, cache):
    """The module a file is built into: (driver id, directory)."""
    obj = rel[:-2] + ".o"
    d = os.path.dirname(rel)
    while d and d != "drivers" and d.startswith("drivers"):
        if d not in cache:
            mk = os.path.join(kdir, d, "Makefile")
            if not os.path.exists(mk):
                mk = os.path.join(kdir, d, "Kbuild")
            cache[d] = parse_makefile(mk)
        comp, direct = cache[d]
        relobj = os.path.relpath(obj, d)
        for name, objs in sorted(comp.items()):
            if relobj in objs:
                return os.path.join(d, name), d
        if relobj in direct:
            return rel[:-2], os.path.dirname(rel)
        d = os.path.dirname(d)
    return rel[:-2], os.path.dirname(rel)


def display_name(drv_id):
    """drivers/net/ethernet/intel/e1000e/e1000e -> ethernet/intel/e1000e."""
    s = drv_id[len("drivers/net/"):] if drv_id.startswith("drivers/net/") \
        else drv_id
    d, b = os.path.dirname(s), os.path.basename(s)
    if os.path.basename(d) == b:
        return d
    return s


def discover(kdir, files, problems):
    """The files that call BQL: {rel: [(api, line)]}. Explicit files that
    are missing or make no BQL call become report lines in @problems."""
    found = {}
    paths = []
    walked = set()
    if files:
        for tok in files:
            p = tok if os.path.isabs(tok) else os.path.join(kdir, tok)
            if os.path.isdir(p):
                for root, _, names in os.walk(p):
                    walked.update(os.path.join(root, n) for n in names
                                  if n.endswith((".c", ".h")))
                    paths += [os.path.join(root, n) for n in sorted(names)
                              if n.endswith((".c", ".h"))]
            elif os.path.isfile(p):
                paths.append(p)
            else:
                problems.append({"file": tok, "problem": "missing",
                                 "detail": "no such file in %s" % kdir})
    else:
        base = os.path.join(kdir, "drivers", "net")
        for root, dirs, names in os.walk(base):
            dirs.sort()
            paths += [os.path.join(root, n) for n in sorted(names)
                      if n.endswith((".c", ".h"))]
    explicit = bool(files)
    quick = re.compile(r"_queue\s*\(|netif_txq_|netif_subqueue_")
    for p in paths:
        rel = os.path.relpath(p, kdir)
        if not explicit or p in walked:
            try:
                with open(p, errors="replace") as f:
                    if not quick.search(f.read()):
                        continue    # no BQL call can be in it
            except OSError:
                pass
        try:
            src = Source(p)
        except OSError as e:
            problems.append({"file": rel, "problem": "unreadable",
                             "detail": str(e)})
            continue
        calls = [(m.group(1), src.line_of(m.start()))
                 for m in BQL_RE.finditer(src.text)]
        if calls:
            found[rel] = calls
        elif classes.stopwake_file(src.text):
            found[rel] = []     # read by the stop/wake rules only
        elif explicit and p not in walked:
            problems.append({"file": rel, "problem": "no BQL call",
                             "detail": "none of the BQL functions is called "
                             "(mentions in comments do not count)"})
    return found


# ---------------------------------------------------------------------------
# timing: each child's CPU (os.wait4), each phase's wall and CPU


class _Popen(subprocess.Popen):
    """subprocess.Popen that keeps the child's resource usage."""
    rusage = None

    def _try_wait(self, wait_flags):
        try:
            pid, sts, ru = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            return self.pid, 0
        if pid == self.pid:
            self.rusage = ru
        return pid, sts


def run_timed(cmd, timeout, env=None):
    """Run @cmd: (stdout, stderr, exit status or None when killed after
    @timeout s, wall s, CPU s of the child)."""
    t0 = time.monotonic()
    with _Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, errors="replace", env=env) as p:
        try:
            out, err = p.communicate(timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            err, rc = "timeout (killed)", None
    ru = p.rusage
    cpu = ru.ru_utime + ru.ru_stime if ru else 0.0
    return out, err, rc, time.monotonic() - t0, cpu


def _cpu_now():
    """CPU seconds of this process and of its children waited for."""
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


class Phases:
    """The wall and CPU seconds of each phase (this process and its
    children), for the totals: start(name) ends the phase before."""

    def __init__(self):
        self.out = {}
        self.cur = None

    def start(self, name):
        self.stop()
        self.cur = (name, time.monotonic(), _cpu_now())

    def stop(self, **extra):
        if self.cur:
            name, w, c = self.cur
            d = self.out.setdefault(name, {"wall": 0.0, "cpu": 0.0})
            d["wall"] = round(d["wall"] + time.monotonic() - w, 1)
            d["cpu"] = round(d["cpu"] + _cpu_now() - c, 1)
            self.cur = None
        return self


# ---------------------------------------------------------------------------
# running spatch

class Runner:
    """spatch runs in parallel, with progress on stderr."""

    def __init__(self, jobs, timeout, quiet, spatch="spatch", cache=""):
        self.cache = cache      # spcache.py's directory, or ""
        self.jobs = jobs
        self.timeout = timeout
        self.quiet = quiet
        self.spatch = spatch
        self.lock = threading.Lock()
        self.done = 0
        self.total = 0
        self.t0 = time.time()
        self.runs = []          # (wall s, CPU s) of each spatch run made
        self.kept = 0           # runs taken from the cache (--cache)

    def progress(self, what):
        with self.lock:
            self.done += 1
            if not self.quiet:
                sys.stderr.write("audit: [%3d/%3d] %5.0fs %s\n" % (
                    self.done, self.total, time.time() - self.t0, what))
                sys.stderr.flush()

    def run(self, sp, path, sets=None, label=""):
        """Records of one spatch run and its status: ok, timeout, error;
        from the cache (--cache) when the same run was made before."""
        if not self.cache:
            return self._run(sp, path, sets, label)
        import spcache
        rel = path.split(os.sep + "src" + os.sep, 1)[-1]
        k = spcache.key(sp, path, rel, sets, [
            self.spatch, "--timeout", str(self.timeout)])
        got = spcache.get(self.cache, k)
        if got is not None:
            with self.lock:
                self.kept += 1
            self.progress("%s %s (cached)" % (label, os.path.basename(path)))
            return tuple(got)
        recs, status, detail = self._run(sp, path, sets, label)
        spcache.put(self.cache, k, recs, status, detail)
        return recs, status, detail

    def _run(self, sp, path, sets=None, label=""):
        """One spatch run: its records and status."""
        env = dict(os.environ)
        env["BQLMA_DIR"] = HERE
        if sets:
            env["BQLMA_SETS"] = sets
        cmd = [self.spatch, "--very-quiet", "--no-includes",
               "--timeout", str(self.timeout), "--sp-file", sp, path]
        wall = cpu = 0.0
        try:
            out, err, rc, wall, cpu = run_timed(cmd, self.timeout + 60, env)
            rc = -1 if rc is None else rc
        except OSError as e:
            out, err, rc = "", str(e), -1
        with self.lock:
            self.runs.append((wall, cpu))
        recs = []
        for line in out.splitlines():
            if line.startswith("BQLMA "):
                try:
                    recs.append(json.loads(line[6:]))
                except ValueError:
                    pass
        if "timeout" in err.lower() and ("abort" in err.lower() or
                                         "killed" in err.lower() or
                                         "Timeout" in err):
            status = "timeout"
        elif rc != 0:
            status = "error"
        else:
            status = "ok"
        detail = ""
        if status != "ok":
            lines = [ln for ln in err.strip().splitlines() if ln.strip()]
            detail = lines[-1][:200] if lines else "exit %d" % rc
        self.progress("%s %s (%.1fs)%s" % (
            label, os.path.basename(path), wall,
            "" if status == "ok" else " " + status.upper()))
        return recs, status, detail

    def map(self, items):
        """items: (key, sp, path, sets, label) -> {key: (recs, st, det)}"""
        res = {}
        self.total += len(items)
        with cf.ThreadPoolExecutor(max_workers=self.jobs) as ex:
            futs = {ex.submit(self.run, sp, path, sets, label): key
                    for key, sp, path, sets, label in items}
            for f in cf.as_completed(futs):
                res[futs[f]] = f.result()
        return res


# ---------------------------------------------------------------------------
# the driver: facts, call graph, entry points


class Driver:
    def __init__(self, drv_id, kdir):
        self.id = drv_id
        self.name = display_name(drv_id)
        self.kdir = kdir
        self.files = []          # rel paths
        self.text_calls = {}     # rel -> [(api, line)]
        self.src = {}            # rel -> Source
        self.fns = {}            # name -> (rel, line)
        self.calls = []          # (fn, callee, line, rel)
        self.loops = []          # (fn, first, last, rel)
        self.edges = {}          # caller -> {callee}
        self.redges = {}         # callee -> {caller}
        self.kinds = {}          # fn -> {kind: "field/registration"}
        self.bql = []            # (fn, api, line, args, rel)
        self.indirect = set()    # functions passed as callbacks to calls
        self.problems = []       # per-file problems (parse, timeout)
        self.file_status = {}    # rel -> status of the facts pass
        self.rule_recs = {r: [] for r in RULE_IDS}
        self.rule_status = {r: [] for r in RULE_IDS}
        self.sets = {}
        self.at = {}             # (rel, line, col) -> callee
        self.call_args = {}      # (rel, line, col) -> args (doorbell-ish)
        self.lockcalls = []      # (fn, lock, line)
        self.unlockcalls = []    # (fn, lock, line)
        self._fn_at = {}
        self.held_at = {}        # (fn, line) -> lock keys held there
        self._refs = []

    def callee_at(self, rel, line, col):
        """The function called at a position a rule reported."""
        return self.at.get((rel, line, col), "?")

    # -- facts -----------------------------------------------------------
    def add_facts(self, rel, recs):
        src = self.src[rel]
        for r in recs:
            k = r.get("k")
            if k == "fn":
                self.fns.setdefault(r["name"], (rel, r["line"]))
            elif k == "call":
                self.calls.append((r["fn"], r["callee"], r["line"], rel))
                self.at[(rel, r["line"], r["col"])] = r["callee"]
                self._fn_at[(rel, r["line"], r["col"])] = r["fn"]
                if "args" in r:
                    self.call_args[(rel, r["line"], r["col"])] = norm(
                        r["args"])
            elif k == "lockcall":
                self.lockcalls.append((r["fn"], norm(r["lock"]), r["line"]))
            elif k == "unlockcall":
                self.unlockcalls.append((r["fn"], norm(r["lock"]),
                                         r["line"]))
            elif k == "loop":
                first, last = src.loop_body_lines(r["line"], r["col"],
                                                  r["kw"])
                self.loops.append((r["fn"], first, last, rel))
            elif k == "bql":
                self.bql.append((r["fn"], r["api"], r["line"],
                                 norm(r["args"]), rel))
            elif k in ("ref", "refarg", "init"):
                self._refs.append((k, r, rel))
        for ln, col in src.do_loops():
            first, last = src.loop_body_lines(ln, col, "do")
            self.loops.append((None, first, last, rel))

    def build(self):
        """The call graph and the entry points, once every file's facts
        are in."""
        defined = set(self.fns)
        for fn, callee, line, rel in self.calls:
            if callee in defined and fn:
                self.edges.setdefault(fn, set()).add(callee)
                self.redges.setdefault(callee, set()).add(fn)
        for k, r, rel in self._refs:
            name = r["name"]
            if name not in defined:
                continue
            if k == "init":
                self._kind(name, FIELD_KIND.get(r["field"], "op"),
                           "." + r["field"], rel, r["line"])
            elif k == "ref":
                fld = re.split(r"->|\.", norm(r["lhs"]))[-1]
                kind = FIELD_KIND.get(fld)
                if kind:
                    self._kind(name, kind, "->" + fld, rel, r["line"])
                elif re.search(r"->|\.", norm(r["lhs"])):
                    self._kind(name, "op", "->" + fld, rel, r["line"])
            elif k == "refarg":
                kind = REG_KIND.get(r["callee"])
                if kind:
                    self._kind(name, kind, r["callee"] + "()", rel, r["line"])
                elif r.get("fn") and r["callee"] not in defined:
                    # given to a kernel call that will call it back
                    # (virtqueue_resize()'s recycle): an edge from the caller
                    self.indirect.add((r["fn"], name, r["callee"], r["line"]))
                    self.edges.setdefault(r["fn"], set()).add(name)
                    self.redges.setdefault(name, set()).add(r["fn"])
        # PM callbacks given by macros Coccinelle does not parse
        for rel, src in self.src.items():
            for m in PM_MACRO_RE.finditer(src.text):
                args = [a.strip() for a in m.group(1).split(",")]
                for i, a in enumerate(args):
                    if a in defined:
                        kind = "suspend" if i % 2 == 1 else "resume"
                        if "RUNTIME" in m.group(0) and i == 3:
                            kind = "op"
                        self._kind(a, kind, "PM macro", rel,
                                   src.line_of(m.start()))
        # functions named nowhere but in the text (a table the parser
        # missed): an entry point of unknown kind
        for name, (rel, line) in self.fns.items():
            if name in self.kinds or name in self.redges:
                continue
            src = self.src[rel]
            for m in re.finditer(r"\b%s\b(?!\s*\()" % re.escape(name),
                                 src.text):
                ln = src.line_of(m.start())
                before = src.text[src.starts[ln - 1]:m.start()]
                if re.search(r"EXPORT_SYMBOL\w*\s*\(\s*$", before):
                    continue
                if ln != line:
                    self._kind(name, "op", "referenced", rel, ln)
                    break

    def _kind(self, name, kind, how, rel, line):
        self.kinds.setdefault(name, {})[kind] = "%s %s:%d" % (how, rel, line)

    # -- graph queries -----------------------------------------------------
    def callers_closure(self, seeds):
        """Every function of the driver that reaches one of @seeds (names
        of functions or kernel calls) by its own calls; @seeds included."""
        out = set(seeds)
        work = [s for s in seeds]
        direct = {}
        for fn, callee, line, rel in self.calls:
            if callee in seeds and fn:
                direct.setdefault(callee, set()).add(fn)
        for s in seeds:
            for fn in direct.get(s, ()):
                if fn not in out:
                    out.add(fn)
                    work.append(fn)
        return self._reach(out, work, self.redges)

    def callees_closure(self, roots):
        """Every function @roots reach by the driver's own calls; @roots
        included."""
        return self._reach(set(roots), list(roots), self.edges)

    @staticmethod
    def _reach(out, work, edges):
        """Add to @out every node @edges lead to from the nodes of @work
        (already in @out), transitively; return @out."""
        while work:
            f = work.pop()
            for c in edges.get(f, ()):
                if c not in out:
                    out.add(c)
                    work.append(c)
        return out

    def roots_of(self, fn):
        """The entry points that reach @fn: {root: set(kinds)}; a function
        with no caller and no kind is its own root, kind "extern" when not
        static (called from another file) or "unreferenced"."""
        seen = {fn}
        work = [fn]
        roots = {}
        while work:
            f = work.pop()
            if f in self.kinds:
                roots[f] = set(self.kinds[f])
            callers = self.redges.get(f, set())
            if not callers and f not in self.kinds:
                roots[f] = {"extern" if not self.is_static(f) else
                            "unreferenced"}
            for c in callers:
                if c not in seen:
                    seen.add(c)
                    work.append(c)
        return roots

    def is_static(self, fn):
        rel, line = self.fns.get(fn, (None, 0))
        if not rel:
            return False
        src = self.src[rel]
        start = src.starts[max(0, line - 3)]
        end = src.offset(line, 0) + 200
        m = re.search(r"\bstatic\b[^;{]*\b%s\s*\(" % re.escape(fn),
                      src.text[start:end])
        return bool(m)

    def in_loop(self, fn, line, rel):
        return any(f in (fn, None) and r == rel and a < line <= b
                   for f, a, b, r in self.loops)

    def same_loop(self, fn, l1, l2, rel):
        return any(f in (fn, None) and r == rel and a < l1 <= b and
                   a < l2 <= b for f, a, b, r in self.loops)

    def kinds_of_roots(self, fn):
        ks = set()
        for r, k in self.roots_of(fn).items():
            ks |= k
        return ks

    # -- the sets the rules need ----------------------------------------------
    def compute_sets(self):
        xmit_roots = {f for f, k in self.kinds.items() if "xmit" in k}
        xdp_roots = {f for f, k in self.kinds.items() if "xdp_xmit" in k}
        xmit = self.callees_closure(xmit_roots | xdp_roots)
        completers = self.callers_closure(COMPL_API)
        resetters = self.callers_closure(RESET_API)
        senders = self.callers_closure(SENT_API)
        compl_fns = {fn for fn, api, line, args, rel in self.bql
                     if api in COMPL_API}
        # what can complete, and what stops it
        ckinds = set()
        for f in compl_fns:
            ckinds |= self.kinds_of_roots(f)
        stop_api = set()
        for k in ckinds:
            stop_api |= STOP_API.get(k, set())
        if not stop_api:
            stop_api = set(STOP_API["napi"])
        stoppers = self.callers_closure(stop_api)
        all_stoppers = self.callers_closure(set().union(*STOP_API.values()))
        napi_completers = {r for f in compl_fns
                           for r, k in self.roots_of(f).items()
                           if "napi" in k}
        starters = self.callers_closure(START_API) if \
            self.wakes_from_completion() and len(napi_completers) > 1 \
            else set()
        stop_after = (stoppers - self.callers_closure(START_API)) | stop_api
        # doorbells: kernel calls, and functions of the transmit path
        # (other than the whole ndo_start_xmit) that reach one; a doorbell
        # site is such a call whose callee or arguments name a doorbell
        # function-like macros of the driver (its files and the headers
        # of its directories) that write a register: writel() directly,
        # through another such macro (atl1c's AT_WRITE_REGW()) or through
        # a function of the driver (airoha_qdma_rmw() -> airoha_rmw() ->
        # writel())
        mmio = set(DOORBELL_API)
        defs = []
        for text in self.macro_texts():
            for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\([^)]*\)"
                                 r"[ \t\n]*\(?\s*(\w+)\s*\(", text, re.M):
                defs.append((m.group(1), m.group(2)))
        changed = True
        while changed:
            changed = False
            for name, tgt in defs:
                if name not in mmio and (tgt in mmio or (
                        tgt in self.fns and self._reaches(tgt, mmio))):
                    mmio.add(name)
                    changed = True
        # doorbells: kernel calls, and functions of the transmit path
        # (other than the whole ndo_start_xmit) that reach one; a doorbell
        # site is such a call whose callee or arguments name a doorbell
        db_real = set(mmio)
        for f in xmit:
            if f in xmit_roots:
                continue
            if self._reaches(f, mmio) and not self._reaches(f, SENT_API):
                db_real.add(f)
        # for "no doorbell between" (C6): also any callee named as one
        db = db_real | {c for f, c, l, r in self.calls
                        if f in xmit and c not in SENT_API and
                        DB_WORDS.search(c)}
        sites = set()
        writes = set()
        for (rel, line, col), callee in self.at.items():
            fn = self._fn_at.get((rel, line, col))
            if fn not in xmit or callee not in db_real:
                continue
            at = "%s:%d:%d" % (os.path.basename(rel), line, col)
            writes.add(at)
            if callee in ALWAYS_DOORBELL or DB_WORDS.search(callee) or \
                    DB_WORDS.search(self.call_args.get((rel, line, col), "")):
                sites.add(at)
        # by effect: a transmit path whose one MMIO write is not named a
        # doorbell rings with it (r6040's iowrite16(TM2TX, ioaddr + MTPR),
        # ftgmac100's iowrite32(1, priv->base + FTGMAC100_OFFSET_NPTXPD));
        # with several (3c59x's PIO writes) which one rings is not known
        self.db_by_effect = sorted(writes) if not sites and \
            len(writes) == 1 else []
        if self.db_by_effect:
            sites = set(writes)
        # C1: skb-freeing functions and drain candidates
        freers = self.callers_closure(SKB_FREE_API) - xmit - compl_fns
        # a helper that frees one tx packet, shared by the transmit path's
        # error unwinding and a ring clean outside it
        # (ftgmac100_free_tx_packet() from ftgmac100_free_buffers())
        self.shared_freers = {
            f for f in (self.callers_closure(SKB_FREE_API) & xmit) -
            xmit_roots - compl_fns
            if not self._reaches(f, SENT_API) and TXISH_RE.search(f) and
            not RXISH_RE.search(f) and
            any(c not in xmit for c in self.redges.get(f, ()))}
        freers |= self.shared_freers
        drains = set(SKB_FREE_API) | (freers - completers) | RING_RECYCLE_API
        drain_cands = self.callers_closure(drains) - xmit
        drain_cands |= drains
        bound = self.bound_fields({f for f in compl_fns if self.kinds_of_roots(
            f) & (ASYNC_KINDS - {"xmit", "xdp_xmit"})})
        self.sets = {
            "c4_bound_fields": sorted(bound),
            "xmit": sorted(xmit), "xmit_roots": sorted(xmit_roots),
            "completers": sorted(completers),
            "completers_only": sorted(completers - resetters),
            "resetters": sorted(resetters), "senders": sorted(senders),
            "compl_fns": sorted(compl_fns), "stoppers": sorted(stoppers),
            "all_stoppers": sorted(all_stoppers),
            "c2_stop_after": sorted(stop_after),
            "starters": sorted(starters), "doorbells": sorted(db),
            "doorbell_sites": sorted(sites),
            "c1_drain_cands": sorted(drain_cands),
        }
        self.freers = freers
        self.db_sites = sites
        self.db_calls = {c for f, c, l, r in self.calls
                         if f in xmit and c in db}
        self.xmit = xmit
        self.xmit_roots = xmit_roots
        self.completers = completers
        self.resetters = resetters
        self.senders = senders
        self.compl_fns = compl_fns
        self.ckinds = ckinds
        self.stop_api = stop_api

    def macro_texts(self):
        """The driver's files and the headers of their directories,
        comments removed and continued lines joined (for its macros)."""
        if getattr(self, "_mtexts", None) is None:
            out = [re.sub(r"\\\n", " ", s.text) for s in self.src.values()]
            for d in sorted({os.path.dirname(rel) for rel in self.files}):
                try:
                    names = sorted(os.listdir(os.path.join(self.kdir, d)))
                except OSError:
                    continue
                for n in names:
                    rel = os.path.join(d, n)
                    if not n.endswith(".h") or rel in self.src:
                        continue
                    try:
                        with open(os.path.join(self.kdir, rel),
                                  errors="replace") as f:
                            out.append(re.sub(r"\\\n", " ",
                                              strip_comments(f.read())))
                    except OSError:
                        pass
            self._mtexts = out
        return self._mtexts

    def _reaches(self, fn, apis):
        for f in self.callees_closure({fn}):
            for c in self._direct_callees(f):
                if c in apis:
                    return True
        return False

    def _direct_callees(self, fn):
        if not hasattr(self, "_dc"):
            self._dc = {}
            for f, callee, line, rel in self.calls:
                self._dc.setdefault(f, set()).add(callee)
        return self._dc.get(fn, set())

    def wakes_from_completion(self):
        """Does a completion context (NAPI, interrupt, timer, work,
        tasklet) wake a tx queue?"""
        for fn, callee, line, rel in self.calls:
            if callee in WAKE_API and self.kinds_of_roots(fn) & (
                    ASYNC_KINDS - {"xmit", "xdp_xmit"}):
                return True
        return False

    def edge_locks(self):
        """(caller, callee) -> the lock keys held at that call: the locks
        taken in the caller before it (facts.cocci's locked calls), and the
        lock of a helper that returns with a lock held (it takes a lock and
        releases none), until a helper that releases one."""
        if getattr(self, "_el", None) is not None:
            return self._el
        el = {}
        events = {}
        for fn, lock, line in self.lockcalls:
            events.setdefault(fn, []).append((line, 1, _lockkey(lock)))
        for fn, lock, line in self.unlockcalls:
            ex = self._early_exit(fn, line)
            if ex is True:
                continue        # an unlock before a return: a branch
            events.setdefault(fn, []).append((line, 0, _lockkey(lock)))
            if ex:              # released to the end of its block only
                events[fn].append((ex, 1, _lockkey(lock)))
        for fn, callee, line, rel in self.calls:
            evs = events.get(fn)
            if not evs:
                continue
            held = self._held_before(evs, line)
            if held:
                el.setdefault((fn, callee), set()).update(held)
                self.held_at[(fn, line)] = set(held)
        locks = {}
        unlocks = set(fn for fn, lock, line in self.unlockcalls)
        for fn, lock, line in self.lockcalls:
            locks.setdefault(fn, set()).add(_lockkey(lock))
        lockers = {f: k for f, k in locks.items() if f not in unlocks}
        unlockers = unlocks - set(locks)
        # function-like macros of the driver's files that take a lock and
        # release none (virtio_net's virtnet_xdp_get_sq()), or the reverse
        for src in self.src.values():
            for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(",
                                 src.text, re.M):
                end = m.end()
                while True:
                    nl = src.text.find("\n", end)
                    if nl < 0 or not src.text[:nl].rstrip().endswith("\\"):
                        break
                    end = nl + 1
                body = src.text[m.end():nl if nl >= 0 else len(src.text)]
                lk = re.findall(r"\b(?:__netif_tx_lock(?:_bh)?|netif_tx_lock"
                                r"(?:_bh)?|spin_lock\w*|mutex_lock)\s*\(\s*"
                                r"([^,)]*)", body)
                ul = re.search(r"unlock", body)
                if lk and not ul:
                    lockers[m.group(1)] = {_lockkey(x) for x in lk}
                elif ul and not lk:
                    unlockers.add(m.group(1))
        bycaller = {}
        for fn, callee, line, rel in self.calls:
            bycaller.setdefault(fn, []).append((line, callee))
        for fn, lst in bycaller.items():
            held = set()
            for line, callee in sorted(lst):
                if held:
                    el.setdefault((fn, callee), set()).update(held)
                if callee in lockers:
                    held = held | lockers[callee]
                elif callee in unlockers:
                    held = set()
        self._el = el
        return el

    def site_locks(self, fn, callee, line):
        """The lock keys held at the call of @callee at @line of @fn.
        edge_locks() merges every call of @callee in @fn: with one call
        that is its value; with several, the locks @fn holds at this line
        and those every caller of @fn holds (r6040's ring-full stop after
        the unlock and its NETDEV_TX_BUSY stop under the lock, in one
        function)."""
        el = self.edge_locks()
        if sum(1 for f, c, ln, r in self.calls
               if f == fn and c == callee) < 2:
            return set(el.get((fn, callee), set()))
        held = set(self.held_at.get((fn, line), set()))
        callers = [keys for (f, c), keys in el.items() if c == fn]
        if callers and len(callers) >= len(self.redges.get(fn, ())):
            held |= set.intersection(*callers)
        return held

    def locks_at(self, fn, line):
        """The lock keys held at line @line of @fn (taken before it in @fn
        and not released, line order)."""
        self.edge_locks()
        evs = []
        for f, lock, ln in self.lockcalls:
            if f == fn:
                evs.append((ln, 1, _lockkey(lock)))
        for f, lock, ln in self.unlockcalls:
            ex = self._early_exit(f, ln) if f == fn else True
            if ex is True:
                continue
            evs.append((ln, 0, _lockkey(lock)))
            if ex:
                evs.append((ex, 1, _lockkey(lock)))
        return self._held_before(evs, line)

    @staticmethod
    def _held_before(evs, line):
        """The locks held just before @line, after the lock (take 1) and
        unlock (take 0) events @evs, (line, take, key) each."""
        held = set()
        for ln, take, key in sorted(evs):
            if ln >= line:
                break
            if take:
                held.add(key)
            else:
                held.discard(key)
        return held

    def locks_in(self, fn):
        """The locks every caller holds when calling @fn, with the locks
        @fn takes itself."""
        el = self.edge_locks()
        own = {_lockkey(lock) for f, lock, ln in self.lockcalls if f == fn}
        callers = [keys for (f, c), keys in el.items() if c == fn]
        ncallers = len(self.redges.get(fn, ()))
        common = set.intersection(*callers) if callers and \
            len(callers) >= ncallers else set()
        return own | common

    def fn_at_line(self, rel, line):
        """The function of @rel whose definition is the last before
        @line."""
        best, bl = None, 0
        for name, (r, ln) in self.fns.items():
            if r == rel and bl < ln <= line:
                best, bl = name, ln
        return best

    def fn_text(self, fn):
        """The text of a function of the driver (from its name to its
        closing brace), and its file and first line."""
        rel, line = self.fns.get(fn, (None, 0))
        if not rel:
            return "", None, 0
        src = self.src[rel]
        off = src.offset(line, 0)
        b = src.text.find("{", off)
        if b < 0:
            return "", rel, line
        return src.text[off:src.match(b)], rel, line

    def bound_fields(self, fns):
        """Fields the completion functions @fns read as the bound of their
        clean: in a loop condition, a comparison, READ_ONCE() or
        smp_load_acquire()."""
        out = {}
        for fn in sorted(fns):
            text, rel, line = self.fn_text(fn)
            if not text:
                continue
            pats = [r"(?:READ_ONCE|smp_load_acquire)\s*\(\s*&?[\w>.\-\[\]]*"
                    r"(?:->|\.)(\w+)\s*\)",
                    r"(?:->|\.)(\w+)\s*(?:!=|==|<=|>=|<|>)[^=]",
                    r"(?:!=|==|<=|>=|<|>)\s*[\w>.\-\[\]]*(?:->|\.)(\w+)\b"
                    r"(?!\s*(?:->|\.|\[|\())"]
            for p in pats:
                for m in re.finditer(p, text):
                    if not INDEX_RE.search(m.group(1)):
                        continue    # a descriptor word, not an index
                    pre = text[max(0, m.start() - 1):m.start() + 1]
                    if "]" in pre:
                        continue    # read from one ring slot
                    out.setdefault(m.group(1), "%s %s:%d" % (
                        fn, rel, line + text[:m.start()].count("\n")))
        self.bound_where = out
        return set(out)

    def params(self, fn):
        """The parameter names of a function of the driver."""
        rel, line = self.fns.get(fn, (None, 0))
        if not rel:
            return []
        src = self.src[rel]
        head = src.text[src.starts[max(0, line - 3)]:src.offset(line, 0) +
                        600]
        m = re.search(r"\b%s\s*\(([^)]*)\)" % re.escape(fn), head)
        if not m:
            return []
        return [re.findall(r"\w+", p)[-1] if re.findall(r"\w+", p) else ""
                for p in m.group(1).split(",")]

    def _early_exit(self, fn, line):
        """True if the statement after line @line of @fn is a return or a
        goto; the line of the closing brace of its block if that block
        ends in a return or a goto after other statements (within ten
        lines, not the function's end: r6040's unlock, stop, netdev_err()
        and return NETDEV_TX_BUSY), the lock held again after it; else
        False."""
        rel = self.fns.get(fn, (None, 0))[0]
        if not rel:
            return False
        src = self.src[rel]
        rest = src.text[src.starts[line - 1]:src.starts[min(
            line + 10, len(src.starts) - 1)]]
        rest = rest.split(";", 1)[1] if ";" in rest else ""
        if re.match(r"\s*(?:return\b|goto\b)", rest):
            return True
        depth, top, end = 0, [], None
        for i, ch in enumerate(rest):
            if ch == "{":
                depth += 1
            elif ch == "}":
                if depth == 0:
                    end = i
                    break
                depth -= 1
            elif depth == 0:
                top.append(ch)
        if end is None or not re.search(r"(?:^|;)\s*(?:return\b|goto\b)",
                                        "".join(top)):
            return False
        # a block that ends the function is not a branch: its unlock is
        # the function's own (r6040's unlock, store, return at the end)
        text, frel, first = self.fn_text(fn)
        fn_end = src.offset(first, 0) + len(text.rstrip())
        brace = src.starts[line - 1] + len(
            src.text[src.starts[line - 1]:].split(";", 1)[0]) + 1 + end
        if brace + 1 >= fn_end:
            return False
        return src.line_of(brace)

    def api_calls(self, apis):
        return [(fn, callee, line, rel) for fn, callee, line, rel in self.calls
                if callee in apis]

    def bql_summary(self):
        """The BQL calls the driver makes: api -> [file:line]."""
        out = {}
        for rel, calls in sorted(self.text_calls.items()):
            for api, line in calls:
                out.setdefault(api, []).append("%s:%d" % (rel, line))
        return out

    def queues(self):
        """1 or 2, the explorer's --queues for this driver: 2 when the
        driver has several tx queues (C3's evidence, or the same calls
        found in the text when C3 did not run)."""
        mq = self.multiqueue()
        if mq is None and getattr(self, "_mq_text", None) is None:
            self._mq_text = any(re.search(
                r"\b(?:alloc_etherdev_mqs?|alloc_netdev_mqs|"
                r"devm_alloc_etherdev_mqs|alloc_candev_mqs)\s*\(|"
                r"netdev_get_tx_queue\s*\([^,]+,\s*[a-z_]", s.text)
                for s in self.src.values())
        return 2 if mq is True or (mq is None and self._mq_text) else 1

    def multiqueue(self):
        """True, False, or None (cannot tell) from C3's evidence."""
        return getattr(self, "_mq", None)


# ---------------------------------------------------------------------------
# verdicts

class Verdict:
    def __init__(self, rule):
        self.rule = rule
        self.findings = []   # dicts: where, pattern, text, model...
        self.cannot = []     # reasons
        self.unseen = []     # what the rule needed and did not see
        self.notes = []      # ok with a remark

    def state(self):
        """finding, cannot tell, cannot see or ok: "ok" only when the rule
        saw every part it needs and set no match aside."""
        if self.findings:
            return "finding"
        if self.cannot:
            return "cannot tell"
        if self.unseen:
            return "cannot see"
        return "ok"

    def finding(self, where, pattern, text, **kw):
        key = (where, pattern)
        if any((f["where"], f["pattern"]) == key for f in self.findings):
            return
        d = {"where": where, "pattern": pattern, "text": text}
        d.update(kw)
        self.findings.append(d)

    def cannot_tell(self, reason):
        if reason not in self.cannot:
            self.cannot.append(reason)

    def cannot_see(self, what):
        """The rule did not see @what (a part of the driver it needs, or a
        match it set aside on a heuristic): its verdict is not "ok"."""
        if what not in self.unseen:
            self.unseen.append(what)


def loc(rel, line):
    return "%s:%d" % (rel, line)


def rel_of(drv, fn):
    return drv.fns.get(fn, ("?", 0))[0]


def recs(drv, rule, k):
    return [r for r in drv.rule_recs[rule] if r.get("k") == k]


def rfile(drv, r):
    """The rel path of a rule record (spatch prints the path it got)."""
    f = r.get("file")
    if f:
        for rr in drv.src:
            if f.endswith("/" + rr) or f == rr:
                return rr
    return rel_of(drv, r.get("fn"))


def judge_c1(drv, v):
    """Drains without a reset after them, climbed to their entry points."""
    # a drain site: an skb-freeing call inside a loop of a function of the
    # tx side (not the transmit path, not a completion), or a ring recycle
    # given a freeing callback and no resetting one
    unreset = {}
    for r in recs(drv, "C1", "unreset"):
        if _reset_in_later_loop(drv, r):
            continue
        unreset.setdefault(r["fn"], []).append(r)
    reported = {}   # function -> (site, why): leaves drained buffers
    for fn, rs in unreset.items():
        if fn in drv.xmit or fn in drv.compl_fns:
            continue
        for r in rs:
            callee, line = r["callee"], r["line"]
            rel = rfile(drv, r)
            base = False
            if callee in RING_RECYCLE_API:
                passed = [n for f, n, c, l in drv.indirect
                          if f == fn and c == callee and
                          line <= l <= line + 6]
                if any(n in drv.freers or n in SKB_FREE_API for n in passed) \
                        and not any(n in drv.resetters for n in passed):
                    base = True
            elif callee in SKB_FREE_API:
                if drv.in_loop(fn, line, rel) and _txish(drv, fn, rel, line):
                    base = True
            elif callee in (drv.freers - drv.resetters - drv.completers):
                if callee in getattr(drv, "shared_freers", ()) and \
                        fn in drv.resetters:
                    continue    # the clean resets itself (iavf's, after a
                    # return on one branch the paths do not tell apart)
                if drv.in_loop(fn, line, rel) and not RXISH_RE.search(
                        callee) and (TXISH_RE.search(callee) or _txish(
                            drv, fn, rel, line, loops=False)):
                    base = True
            if base:
                reported.setdefault(fn, (rel, line, callee))
    # climb: a function that calls a reported one and does not reset after
    # (a function named as a bring-up climbs only through a callee that
    # stops the completion source first: that tears down a live queue, as
    # virtio_net's AF_XDP pool enable does, not an error unwind)
    quiesce = set(drv.sets.get("stoppers", ()))
    openers = {f for f, k in drv.kinds.items() if "open" in k and (
        f in drv.resetters or drv._reaches(f, RESET_API))}
    changed = True
    while changed:
        changed = False
        for fn, rs in unreset.items():
            if fn in reported or fn in drv.xmit or fn in drv.compl_fns:
                continue
            kinds = set(drv.kinds.get(fn, {}))
            if kinds and kinds <= NOT_JUDGED:
                continue
            bring = _bringup(drv, fn)
            for r in rs:
                if bring and any(f == fn and c in openers and l > r["line"]
                                 for f, c, l, _ in drv.calls):
                    continue    # a re-init: a resetting ndo_open follows
                if r["callee"] in reported and (
                        not bring or r["callee"] in quiesce):
                    reported[fn] = (rfile(drv, r), r["line"], r["callee"])
                    changed = True
                    break
    if not reported:
        return
    open_resets = any(f in drv.resetters for f, k in drv.kinds.items()
                      if "open" in k) or any(
        drv._reaches(f, RESET_API) for f, k in drv.kinds.items()
        if "open" in k)
    resume_resets = any(drv._reaches(f, RESET_API)
                        for f, k in drv.kinds.items() if "resume" in k)
    for fn in sorted(reported):
        kinds = drv.kinds.get(fn)
        if kinds is None and drv.redges.get(fn):
            continue        # judged at its callers
        rel, line, callee = reported[fn]
        chain = _chain(drv, reported, fn)
        if kinds is None and not drv.is_static(fn) and CLOSELIKE_RE.search(fn):
            # called from another file, named as a close: judged as one
            kinds = {"close": "extern, named as a close"}
        if kinds is None:
            if drv.is_static(fn):
                continue    # unreferenced static function: dead code
            v.cannot_tell("%s frees tx buffers (%s) and does not reset; it "
                          "is called from another file" % (fn, chain))
            continue
        for kind in sorted(kinds):
            if kind in NOT_JUDGED:
                continue
            if kind == "close" and open_resets:
                v.notes.append("%s frees without reset; ndo_open resets" % fn)
                continue
            if kind == "suspend" and (resume_resets or open_resets):
                v.notes.append("%s frees without reset; resume resets" % fn)
                continue
            pat = kind if ("C1", kind) in MODEL_MAP else "other"
            if kind in ("op", "napi", "irq", "xmit", "timer", "tasklet",
                        "dma_cb", "netpoll"):
                pat = "reconfig" if kind == "op" else "other"
            v.finding(loc(rel, line), pat,
                      "%s (%s, %s) frees tx buffers (%s) and no BQL reset "
                      "follows on that path" % (fn, kind, kinds[kind], chain))


# The names of a ring's software indices and counters (what a completion
# can walk up to), as opposed to descriptor words (status, flags, opts).
INDEX_RE = re.compile(r"head|tail|end|start|cur|dirty|prod|cons|next|idx|"
                      r"index|count|cnt|used|^pc$|^cc$|wr|rd|put|get|queued|"
                      r"pending|num|free|avail|last|first|watch|ptr|pointer",
                      re.I)
CLOSELIKE_RE = re.compile(r"release|close|stop|(^|_)down$|disable", re.I)
BRINGUP_RE = re.compile(r"open|setup|alloc|init|probe|create|start|(^|_)up$|"
                        r"activate|(^|_)load|enable|login", re.I)


def _bringup(drv, fn):
    """A function that brings the device or a ring up (ndo_open, probe, a
    function named *open*/*setup*/*alloc*/*init*/*start*/...): a free on
    its path unwinds an error before anything was sent."""
    kinds = set(drv.kinds.get(fn, {}))
    if kinds and kinds <= NOT_JUDGED:
        return True
    return bool(BRINGUP_RE.search(fn))


def _chain(drv, reported, fn):
    out = [fn]
    seen = {fn}
    while True:
        rel, line, callee = reported[out[-1]]
        out.append(callee)
        if callee not in reported or callee in seen:
            break
        seen.add(callee)
    return " -> ".join(out)


def _reset_in_later_loop(drv, r):
    """A reset inside a loop of the drain's function, before or after it
    (Coccinelle's path through the loop's zero iterations is not taken
    for a path without reset), or a reset after it skipped only for XDP
    rings (which BQL does not count: ena, nfp, ixgbe)."""
    rel = rfile(drv, r)
    src = drv.src[rel]
    for fn, callee, line, rr in drv.calls:
        if fn != r["fn"] or rr != rel or line == r["line"] or not (
                callee in drv.resetters or callee in RESET_API):
            continue
        if drv.in_loop(fn, line, rel):
            return True
        before = src.text[src.starts[max(0, line - 3)]:src.starts[
            min(line, len(src.starts) - 1)]]
        if line > r["line"] and re.search(r"\bif\s*\(\s*!\s*[\w>.\-()]*xdp",
                                          before, re.I):
            return True
    return False


def _txish(drv, fn, rel, line, loops=True):
    """Does a free at @line of @fn free a transmit buffer: by the function's
    name, the freed expression's line, or the header and body of the loop
    it is in (the ring the loop walks)?"""
    if RXISH_RE.search(fn) and not re.search(r"tx|xmit", fn, re.I):
        return False
    if TXISH_RE.search(fn):
        return True
    src = drv.src[rel]
    text = src.text[src.starts[line - 1]:src.starts[min(line,
                                                        len(src.starts) - 1)]]
    if TXISH_RE.search(text):
        return True
    if not loops:
        return False
    for f, first, last, rr in drv.loops:
        if f in (fn, None) and rr == rel and first <= line <= last:
            head = src.text[src.starts[first - 1]:src.starts[min(
                last, len(src.starts) - 1)]]
            if TXISH_RE.search(head) and not RXISH_RE.search(
                    head.split("\n")[0]):
                return True
    return False


def _running(drv, fn):
    """Can @fn run while the device transmits: is it reached from an entry
    point other than ndo_open, resume and probe/remove?"""
    kinds = drv.kinds_of_roots(fn)
    return bool(kinds - NOT_JUDGED - {"unreferenced", "resume"})


def judge_c2(drv, v):
    # the functions that reset on a path with no stop of the completion
    # source before the reset (their own, or a callee's)
    unstopped = {}
    for r in recs(drv, "C2", "reset-unstopped"):
        unstopped.setdefault(r["fn"], set()).add(r["callee"])
    ru = set()
    changed = True
    while changed:
        changed = False
        for fn, callees in unstopped.items():
            if fn not in ru and callees & (RESET_API | ru):
                ru.add(fn)
                changed = True
    for r in recs(drv, "C2", "reset-before-stop"):
        if r["fn"] in drv.xmit or r["callee"] not in RESET_API | ru or \
                not _running(drv, r["fn"]):
            continue
        if drv.same_loop(r["fn"], r["line"], r["other_line"], rfile(drv, r)):
            continue
        v.finding(loc(rfile(drv, r), r["line"]), "reset-before-stop",
                  "%s: %s() resets BQL, then %s() (line %d) stops the "
                  "completion source: a completion can run at the reset" % (
                      r["fn"], r["callee"], r["other"], r["other_line"]))
    for r in recs(drv, "C2", "reset-before-completion"):
        rel = rfile(drv, r)
        if r["other_line"] <= r["line"] and drv.same_loop(
                r["fn"], r["line"], r["other_line"], rel):
            continue        # the next queue's completion, in a loop
        if drv.same_loop(r["fn"], r["line"], r["other_line"], rel):
            continue
        if r["fn"] in drv.compl_fns or r["other"] in drv.senders or \
                not _running(drv, r["fn"]) or _bringup(drv, r["other"]):
            continue
        v.finding(loc(rel, r["line"]), "reset-before-completion",
                  "%s: %s() resets BQL, then %s() (line %d) reports "
                  "completions of bytes counted before the reset" % (
                      r["fn"], r["callee"], r["other"], r["other_line"]))
    for r in recs(drv, "C2", "reset-after-start"):
        if drv.same_loop(r["fn"], r["line"], r["other_line"], rfile(drv, r)):
            continue        # the next queue's reset after this one's start
        if r["callee"] not in RESET_API | ru:
            continue        # it stops the completer itself before resetting
        v.finding(loc(rfile(drv, r), r["line"]), "reset-after-start",
                  "%s: %s() resets BQL after %s() (line %d) restarted a "
                  "poll that completes and wakes the queue" % (
                      r["fn"], r["callee"], r["other"], r["other_line"]))
    # d) open resets, close keeps the buffers
    opens = [f for f, k in drv.kinds.items() if "open" in k]
    closes = [f for f, k in drv.kinds.items() if "close" in k]
    if opens and closes:
        o_reset = [f for f in opens if drv._reaches(f, RESET_API)]
        c_free = [f for f in closes if drv._reaches(
            f, SKB_FREE_API | RESET_API | RING_RECYCLE_API | COMPL_API)]
        if o_reset and not c_free:
            site = [(fn, line, rel) for fn, api, line, a, rel in drv.bql
                    if api in RESET_API and fn in drv.callees_closure(
                        set(o_reset))]
            fn, line, rel = site[0] if site else (o_reset[0], 0,
                                                  rel_of(drv, o_reset[0]))
            v.finding(loc(rel, line), "open-reset-kept",
                      "ndo_open (%s) resets BQL but ndo_stop (%s) neither "
                      "frees the tx buffers nor resets: completions of the "
                      "closed epoch come after the reset" % (
                          ", ".join(o_reset), ", ".join(closes)))
    elif not opens and drv.resetters & set(drv.fns):
        pass
    # e) a tx timeout that resets and keeps its buffers: it frees,
    # completes and recycles nothing (r6040's re-init of its registers,
    # ibmvnic's NON_FATAL reset): the kept packets complete after the
    # reset (porting-napi.md N7, N15)
    for t in sorted(f for f, k in drv.kinds.items() if "timeout" in k):
        if not drv._reaches(t, RESET_API) or drv._reaches(
                t, SKB_FREE_API | RING_RECYCLE_API | COMPL_API):
            continue
        site = [(fn, line, rel) for fn, api, line, a, rel in drv.bql
                if api in RESET_API and fn in drv.callees_closure({t})]
        fn, line, rel = site[0] if site else (t, 0, rel_of(drv, t))
        v.finding(loc(rel, line), "timeout-reset-kept",
                  "ndo_tx_timeout (%s) resets BQL in %s() and neither frees "
                  "nor completes the tx buffers: the packets it keeps "
                  "complete after the reset" % (t, fn))


_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n]*?)"
                        r"[ \t]*$", re.M)


def macro_values(drv):
    """The object-like macros of the driver's directories (every .c and .h
    under the directory of each of its files, comments removed):
    {name: text}."""
    if getattr(drv, "_macros", None) is not None:
        return drv._macros
    out = {}
    dirs = sorted({os.path.dirname(rel) for rel in drv.files})
    for d in dirs:
        base = os.path.join(drv.kdir, d)
        for root, _, names in os.walk(base):
            for n in sorted(names):
                if not n.endswith((".c", ".h")):
                    continue
                try:
                    with open(os.path.join(root, n), errors="replace") as f:
                        text = strip_comments(f.read())
                except OSError:
                    continue
                text = re.sub(r"\\\n", " ", text)
                for m in _DEFINE_RE.finditer(text):
                    out.setdefault(m.group(1), m.group(2))
    drv._macros = out
    return out


def const_value(drv, expr, depth=0):
    """The integer value of @expr: a number, or arithmetic on numbers and
    the driver's macros (macro_values()); None when it depends on
    anything else (a variable, a field, a function)."""
    e = norm(expr)
    if depth > 8 or not e:
        return None
    macros = macro_values(drv)
    names = set(re.findall(r"(?<!\w)[A-Za-z_]\w*", e))
    for n in sorted(names, key=len, reverse=True):
        if n not in macros:
            return None
        v = const_value(drv, macros[n], depth + 1)
        if v is None:
            return None
        e = re.sub(r"\b%s\b" % n, "(%d)" % v, e)
    e = re.sub(r"(?<=\d)[uUlL]+\b", "", e)
    if not re.fullmatch(r"[\d()+\-*/<>x%a-fA-F ]*", e) or re.search(
            r"[<>](?![<>])", e.replace("<<", "").replace(">>", "")):
        return None
    try:
        v = eval(e.replace("/", "//"), {"__builtins__": {}}, {})
    except Exception:
        return None
    return v if isinstance(v, int) else None


def judge_c3(drv, v):
    q0 = recs(drv, "C3", "q0")
    mqr = recs(drv, "C3", "mq")
    evidence = []
    single = []
    for r in mqr:
        args = _split_args(r["args"])
        f = r["callee"]
        cnt = None
        if f == "alloc_etherdev_mq" and len(args) >= 2:
            cnt = args[1]
        elif f == "alloc_etherdev_mqs" and len(args) >= 2:
            cnt = args[1]
        elif f == "alloc_netdev_mqs" and len(args) >= 5:
            cnt = args[4]
        elif f in ("devm_alloc_etherdev_mqs", "alloc_candev_mqs") and \
                len(args) >= 3:
            cnt = args[2]
        elif f in ("netif_set_real_num_tx_queues",
                   "netif_set_real_num_queues") and len(args) >= 2:
            cnt = args[1]
            if const_value(drv, cnt) == 1:
                single.append(loc(rfile(drv, r), r["line"]))
                continue
        elif f in ("netdev_get_tx_queue", "netif_stop_subqueue",
                   "netif_wake_subqueue", "netif_start_subqueue",
                   "netdev_tx_reset_subqueue", "netif_subqueue_maybe_stop",
                   "netif_subqueue_try_stop", "netif_subqueue_completed_wake",
                   "__netif_subqueue_stopped") and len(args) >= 2:
            cnt = None if args[1] == "0" else args[1]
            if cnt is not None:
                evidence.append("%s(%s) %s" % (f, ", ".join(args), loc(
                    rfile(drv, r), r["line"])))
            continue
        if cnt is not None and f.startswith(("alloc_", "devm_")) and \
                const_value(drv, cnt) == 1:
            # the count read by value: RTASE_FUNC_TXQ_NUM is 1
            single.append("%s(.., %s = 1, ..) %s" % (f, cnt, loc(
                rfile(drv, r), r["line"])))
            continue
        if cnt is not None and const_value(drv, cnt) != 1:
            evidence.append("%s(.., %s, ..) %s" % (f, cnt, loc(
                rfile(drv, r), r["line"])))
    alloc = [r for r in mqr if r["callee"].startswith(("alloc_", "devm_"))]
    if alloc and all(r["callee"] in ("alloc_etherdev", "devm_alloc_etherdev",
                                     "alloc_netdev", "alloc_candev",
                                     "alloc_hdlcdev") for r in alloc):
        single.append(loc(rfile(drv, alloc[0]), alloc[0]["line"]))
    if evidence and not (single and not any(
            e.startswith(("alloc", "devm", "netif_set")) for e in evidence)):
        drv._mq = True
    elif alloc or single:
        drv._mq = False
    else:
        drv._mq = None
    for r in q0:
        f = r["callee"]
        where = loc(rfile(drv, r), r["line"])
        pat = {"netdev_reset_queue": "reset0", "netdev_sent_queue": "sent0",
               "__netdev_sent_queue": "sent0",
               "netdev_completed_queue": "sent0"}.get(f, "stopwake0")
        if drv._mq is True:
            v.finding(where, pat, "%s(%s) in %s acts on queue 0 only; the "
                      "device has several tx queues (%s)" % (
                          f, r["args"], r["fn"], evidence[0]))
        elif drv._mq is None:
            v.cannot_tell("%s at %s acts on queue 0 only; the number of tx "
                          "queues is set in another file" % (f, where))
    # per-queue loops over a driver count in open/close, with set_channels
    # or an assignment of the count outside probe
    if True:
        oc = set()
        for f, k in drv.kinds.items():
            if k.keys() & {"open", "close"}:
                oc |= drv.callees_closure({f})
        for r in recs(drv, "C3", "qloop"):
            b = norm(r["bound"])
            if r["fn"] in oc and r["callee"] != "netdev_tx_reset_queue" and \
                    not re.search(r"num_tx_queues|real_num_tx_queues", b) and \
                    _count_changes(drv, b):
                v.finding(loc(rfile(drv, r), r["line"]), "subset-loop",
                          "%s: %s() in a loop bounded by %s, not the "
                          "netdev's queue count; the count changes with "
                          "set_channels" % (r["fn"], r["callee"], b))


def _count_changes(drv, bound):
    """Is the field that bounds a queue loop assigned at run time (in a
    function that is not reached from probe alone), or does the driver
    have set_channels?"""
    if any("set_channels" in str(k) for k in drv.kinds.values()):
        return True
    m = re.search(r"(?:->|\.)(\w+)\s*$",
                  re.split(r"<=?|(?<!-)>=?|!=", bound)[-1])
    if not m:
        return False
    fld = m.group(1)
    for rel, src in drv.src.items():
        for mm in re.finditer(r"(?:->|\.)%s\s*=[^=]" % re.escape(fld),
                              src.text):
            fn = drv.fn_at_line(rel, src.line_of(mm.start()))
            if fn and drv.kinds_of_roots(fn) - {"lifecycle",
                                                "unreferenced"}:
                return True
    return False


def _split_args(s):
    out, depth, cur = [], 0, ""
    for c in norm(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    if cur:
        out.append(cur)
    return out


def judge_c4(drv, v):
    for r in recs(drv, "C4", "store-before-sent") + recs(
            drv, "C4", "store-after-sent"):
        src = drv.src[rfile(drv, r)]
        m = re.match(r"\w+", src.text[src.offset(r["line"], r["col"]):])
        r["field"] = m.group(0) if m else "?"
    gated = {r["fn"] for r in recs(drv, "C4", "store-after-sent")}
    for r in recs(drv, "C4", "doorbell-before-sent"):
        if r["fn"] in gated or set(drv.xmit_roots) & gated:
            v.notes.append("%s: doorbell before the sent call, but the "
                           "completion's bound is published after it" %
                           r["fn"])
            continue
        # the sent call under a lock every completion takes (the tx lock
        # of hix5hd2's reclaim): the completion cannot run before it
        held = drv.locks_at(r["fn"], r["other_line"]) | (
            {"txlock"} if r["fn"] in drv.xmit_roots else set())
        compl = [f for f in drv.compl_fns if f not in drv.xmit]

        def takes(f):
            # netif_tx_lock(dev) is every queue's tx lock: "txlock"
            return drv.locks_in(f) | ({"txlock"} if re.search(
                r"\bnetif_tx_lock(?:_bh)?\s*\(", drv.fn_text(f)[0]) else
                set())
        if held and compl and all(takes(f) & held for f in compl):
            v.notes.append("%s: doorbell before the sent call, both under "
                           "a lock the completion takes" % r["fn"])
            continue
        v.finding(loc(rfile(drv, r), r["line"]), "doorbell-before-sent",
                  "%s: %s() (the device can see the descriptors) before "
                  "%s() (line %d)" % (r["fn"], r["callee"], r["other"],
                                     r["other_line"]))
    bound = drv.bound_where
    for r in recs(drv, "C4", "store-before-sent"):
        fld = r["field"]
        base = norm(r.get("base", ""))
        if fld not in bound or "[" in base:
            continue
        reader = bound[fld].split()[0]
        held = drv.locks_at(r["fn"], r["line"]) | ({"txlock"} if set(
            drv.roots_of(r["fn"])) <= drv.xmit_roots | set(drv.kinds) and
            drv.kinds_of_roots(r["fn"]) <= {"xmit"} else set())
        if drv.locks_in(reader) & held:
            v.notes.append("%s: %s->%s before the sent call, but %s reads it "
                           "under a lock the store holds" % (
                               r["fn"], base, fld, reader))
            continue
        if re.search(r"buf|desc|info|first|slot|entry|bd$|cb$|skb|frag|"
                     r"tx_buffer|txb|tb$|ctx|pkt", base, re.I):
            v.cannot_see("a match set aside: %s: %s->%s stored at %s, "
                         "before %s() (line %d), and read by the completion "
                         "as its bound (%s); dropped because the name %s "
                         "reads as one slot's record, not the ring's (a "
                         "name, not a proof)" % (
                             r["fn"], base, fld, loc(rfile(drv, r),
                                                     r["line"]),
                             r["other"], r["other_line"], bound[fld], base))
            continue
        v.finding(loc(rfile(drv, r), r["line"]), "store-before-sent",
                  "%s: %s->%s stored before %s() (line %d); the completion "
                  "reads it as its bound (%s)" % (
                      r["fn"], base, fld, r["other"], r["other_line"],
                      bound[fld]))


# quantity keys of C5: what a byte count is made of
LEN_FNS = {"can_skb_get_frame_len": "can.frame_len",
           "can_get_echo_skb": "can.frame_len",
           "can_rx_offload_get_echo_skb": "can.frame_len",
           "can_rx_offload_get_echo_skb_queue_tail": "can.frame_len",
           "can_rx_offload_get_echo_skb_queue_timestamp": "can.frame_len",
           "qdisc_pkt_len": "skb.len"}


# a part of an skb's bytes (C5)
PART_FNS = {"skb_headlen", "skb_frag_size"}
# calls that change skb->len (C5, as c5_bytes.cocci's c5mod)
LEN_MOD_RE = re.compile(r"\b(skb_put|__skb_put|skb_push|__skb_push|skb_pad|"
                        r"__skb_pad|skb_padto|skb_put_padto|eth_skb_pad|"
                        r"skb_trim|pskb_trim|__skb_trim|skb_pull|__skb_pull)"
                        r"\s*\(")


def judge_c5(drv, v):
    asg = {}
    for r in recs(drv, "C5", "asg") + recs(drv, "C5", "acc"):
        asg.setdefault(norm(r["lhs"]), []).append((r["fn"], norm(r["rhs"])))
    # a count passed by address: f(.., &x, ..) sums into f's parameter
    for r in recs(drv, "C5", "outarg"):
        params = drv.params(r["callee"])
        if r["n"] < len(params):
            for f2, rhs in asg.get("*" + params[r["n"]], []):
                if f2 == r["callee"]:
                    asg.setdefault(norm(r["var"]), []).append(
                        (r["fn"], rhs))
    txfns = drv.xmit | drv.completers | drv.compl_fns
    field_asg = {}
    for lhs, lst in asg.items():
        m = re.search(r"(?:->|\.)(\w+)$", lhs)
        if m:
            field_asg.setdefault(m.group(1), []).extend(
                x for x in lst if x[0] in txfns)

    def keys(expr, fn, depth=0):
        e = norm(expr)
        e = re.sub(r"^\(\w+(?:\*)?\)", "", e)
        while e.startswith("(") and e.endswith(")"):
            e = e[1:-1]
        if depth > 6:
            return {"expr:" + e}
        m = re.match(r"^(\w+)\(", e)
        if m and m.group(1) in LEN_FNS:
            return {LEN_FNS[m.group(1)]}
        if m and m.group(1) in PART_FNS:
            return {"skb.part"}
        if re.fullmatch(r"(?:.*(?:->|\.))?\w*skb\w*(?:->|\.)len", e):
            return {"skb.len"}
        if re.fullmatch(r"\d+", e):
            return {"const"}
        m = re.fullmatch(r"(?:le|be)(?:16|32|64)_to_cpu\((.*)\)", e)
        if m:
            return {"desc:" + norm(m.group(1))}
        if DESC_RE.search(e) and not re.search(r"skb", e) and re.search(
                r"&|status|_to_cpu|LEN_MASK", e):
            return {"desc:" + e}
        m = re.fullmatch(r"[\w>.\-\[\]]*(?:->|\.)(\w+)", e)
        if m:
            out = {"field:" + m.group(1)}
            for f2, rhs in field_asg.get(m.group(1), []):
                if norm(rhs) != e:
                    out |= keys(rhs, f2, depth + 1)
            return out
        if re.fullmatch(r"\w+", e):
            out = set()
            for f2, rhs in asg.get(e, []):
                if f2 == fn and norm(rhs) != e:
                    out |= keys(rhs, f2, depth + 1)
            return out or {"var:" + e}
        m = re.fullmatch(r"(.*?)\+(.*)", e)
        if m and depth < 4:
            return keys(m.group(1), fn, depth + 1) | keys(m.group(2), fn,
                                                          depth + 1)
        return {"expr:" + e}

    sent = recs(drv, "C5", "sent")
    compl = recs(drv, "C5", "completed")
    if sent and compl:
        skeys = set()
        for r in sent:
            skeys |= keys(r["bytes"], r["fn"])
        for r in compl:
            ck = keys(r["bytes"], r["fn"])
            where = loc(rfile(drv, r), r["line"])
            if ck & skeys or ck <= {"const"}:
                continue
            strong = {k for k in ck if k.startswith("desc:")}
            # one side skb->len, the other a part of the skb only (its
            # head or a fragment: ftgmac100's len, the last one mapped)
            cpart = ck - {"const"}
            summed = any(norm(a["lhs"]) in {norm(x["bytes"]) for x in sent}
                         for a in recs(drv, "C5", "acc"))
            if not summed and (
                    ("skb.len" in cpart and skeys and skeys <= {"skb.part"})
                    or ("skb.len" in skeys and cpart and
                        cpart <= {"skb.part"})):
                v.finding(where, "source",
                          "%s: completes %s (from %s), sent %s (from %s): "
                          "one side counts a part of the skb (its head or a "
                          "fragment), the other all of it" % (
                              r["fn"], norm(r["bytes"]), _fmt(ck),
                              _sent_txt(sent), _fmt(skeys)))
                continue
            if "skb.len" in skeys and strong and not (ck & {"skb.len"}):
                v.finding(where, "source",
                          "%s: completes %s (from %s), sent %s (from %s)" % (
                              r["fn"], norm(r["bytes"]), _fmt(ck),
                              _sent_txt(sent), _fmt(skeys)))
            else:
                v.cannot_tell("%s: completion of %s (%s) not shown equal to "
                              "the sent %s (%s)" % (
                                  where, norm(r["bytes"]), _fmt(ck),
                                  _sent_txt(sent), _fmt(skeys)))
        # d) the queue: sent and completed from different sources
        sq = {_qkey(drv, r["q"], r["fn"], asg) for r in sent}
        cq = {_qkey(drv, r["q"], r["fn"], asg) for r in compl}
        if "mod" in sq and "skb" in cq or "skb" in sq and "mod" in cq:
            r = compl[0]
            v.finding(loc(rfile(drv, sent[0]), sent[0]["line"]), "queue",
                      "sent on %s (the skb's queue folded onto a ring), "
                      "completed on %s (%s): the queues differ when the "
                      "netdev has more queues than rings" % (
                          norm(sent[0]["q"]), norm(r["q"]),
                          loc(rfile(drv, r), r["line"])))
    skb_len_completion = any("skb.len" in keys(r["bytes"], r["fn"])
                             for r in compl)
    for r in recs(drv, "C5", "len-after-sent"):
        if not skb_len_completion:
            continue
        v.finding(loc(rfile(drv, r), r["other_line"]), "len-after-sent",
                  "%s: %s() changes skb->len after the sent call (line %d); "
                  "the completion reports skb->len" % (
                      r["fn"], r["other"], r["line"]))
    # the sent count is a copy of skb->len taken before a call that
    # changes skb->len (r6040's len read before skb_put_padto())
    for r in sent if skb_len_completion else []:
        b = norm(r["bytes"])
        text, rel, first = drv.fn_text(r["fn"])
        if not re.fullmatch(r"\w+", b) or not text:
            continue
        upto = "\n".join(text.split("\n")[:max(0, r["line"] - first)])
        name = r"(?<![\w>.])%s" % re.escape(b)
        asg = list(re.finditer(name + r"\s*=\s*[\w>.\-]*skb\w*(?:->|\.)len"
                               r"\s*[;,]", upto))
        if not asg:
            continue
        after = upto[asg[-1].end():]
        if re.search(name + r"\s*(?:[-+*/|&]?=[^=]|\+\+|--)", after):
            continue
        mm = LEN_MOD_RE.search(after)
        if mm:
            v.finding(loc(rfile(drv, r), r["line"]), "len-before-pad",
                      "%s: %s() counts %s, read from skb->len before %s() "
                      "(line %d) changes it; the completion reports "
                      "skb->len" % (r["fn"], r["callee"], b, mm.group(1),
                                    first + upto[:asg[-1].end() + mm.start(
                                    )].count("\n")))
    for r in recs(drv, "C5", "completed-unsent"):
        v.finding(loc(rfile(drv, r), r["line"]), "completed-unsent",
                  "%s: %s() on a path of ndo_start_xmit with no sent call "
                  "before it" % (r["fn"], r["callee"]))


def _qkey(drv, q, fn, asg):
    e = norm(q)
    if re.fullmatch(r"\w+", e):
        for f2, rhs in asg.get(e, []):
            if f2 == fn:
                e = norm(rhs)
                break
    if re.search(r"skb_get_tx_queue|skb_get_queue_mapping|queue_mapping", e):
        return "skb"
    m = re.search(r"netdev_get_tx_queue\([^,]+,(.*)\)$", e)
    if m:
        idx = m.group(1)
        if re.fullmatch(r"\w+", idx):
            for f2, rhs in asg.get(idx, []):
                if f2 == fn:
                    idx = norm(rhs)
                    break
        if re.search(r"skb_get_queue_mapping|queue_mapping", idx):
            return "mod" if "%" in idx else "skb"
        return "ring"
    return "other"


def _fmt(keys):
    return ", ".join(sorted(keys)) or "?"


def _sent_txt(sent):
    return ", ".join(sorted({norm(r["bytes"]) for r in sent}))


def judge_c6(drv, v):
    defers = False
    vars_more, vars_ok = set(), set()
    for r in recs(drv, "C6", "var"):
        name = norm(r["var"])
        if r["src"] == "netdev_xmit_more":
            vars_more.add(name)
            defers = True
        else:
            vars_ok.add(name)
    for r in drv.calls:
        if r[1] == "netdev_xmit_more" and r[0] in drv.xmit:
            defers = True
    db_lines = {}
    for fn, callee, line, rel in drv.calls:
        if callee in set(drv.sets.get("doorbells", ())):
            db_lines.setdefault((rel, fn), []).append(line)
    # the driver defers its doorbell when one depends on xmit_more: the
    # return of __netdev_tx_sent_queue(), or a test of xmit_more (or of
    # a variable set from it) with a doorbell in a branch; reading
    # netdev_xmit_more() for something else (stmmac's interrupt-on-
    # completion bit) defers nothing
    gates = sorted({"%s()" % c for f, c, l, rr in drv.calls
                    if f in drv.xmit and c in ("__netdev_tx_sent_queue",
                                               "__netdev_sent_queue")})
    for r in recs(drv, "C6", "cond"):
        cond = norm(r["cond"])
        if not ("xmit_more" in cond or any(
                re.search(r"\b%s\b" % re.escape(x), cond)
                for x in vars_more | vars_ok) or re.search(r"more", cond)):
            continue
        rel = rfile(drv, r)
        cond_txt, then, els = drv.src[rel].cond_and_branches(r["line"],
                                                              r["col"])
        lines = db_lines.get((rel, r["fn"]), [])
        if any(b and b[0] <= ln <= b[1] for b in (then, els) for ln in lines):
            gates.append("if (%s) at %s" % (cond, loc(rel, r["line"])))
    if defers and not gates:
        v.notes.append("netdev_xmit_more() is read in the transmit path, "
                       "but no doorbell the rule recognises depends on it: "
                       "not a driver that defers its doorbell")
    defers = bool(gates)
    for r in recs(drv, "C6", "cond"):
        rel = rfile(drv, r)
        cond = norm(r["cond"])
        more = "netdev_xmit_more()" in cond or any(
            re.search(r"\b%s\b" % re.escape(x), cond) for x in vars_more) \
            or "xmit_more" in cond
        if not more:
            continue
        ok = re.search(r"xmit_stopped|queue_stopped|subqueue_stopped|"
                       r"__netdev_tx_sent_queue|__netdev_sent_queue", cond) \
            or any(re.search(r"\b%s\b" % re.escape(x), cond) for x in vars_ok)
        if ok:
            continue
        cond_txt, then, els = drv.src[rel].cond_and_branches(r["line"],
                                                              r["col"])
        lines = db_lines.get((rel, r["fn"]), [])
        negated = cond.startswith("!") or "==0" in cond or "!more" in cond
        branch = then if negated else els
        if branch and any(branch[0] <= ln <= branch[1] for ln in lines):
            v.finding(loc(rel, r["line"]), "xmit-more-only",
                      "%s: the doorbell is rung on %s alone; a batch ended "
                      "by a stop is never rung" % (r["fn"], cond))
    # e) a ring-full stop after the doorbell decision of a driver that
    # defers its doorbell, with no doorbell between them (airoha before
    # 3854de7b38be): the stop ends the batch the decision skipped
    if defers:
        sites = {}
        for s in drv.sets.get("doorbell_sites", ()):
            base, line, col = s.rsplit(":", 2)
            sites.setdefault(base, []).append(int(line))
        dbfn = {fn for fn, callee, line, rel in drv.calls
                if int(line) in sites.get(os.path.basename(rel), ())}
        for fn, callee, line, rel in sorted(drv.calls, key=lambda c: c[2]):
            if fn not in drv.xmit_roots or callee not in (
                    STOP_QUEUE_API | {"netif_txq_maybe_stop",
                                      "netif_subqueue_maybe_stop"}):
                continue
            before = [(l, c) for f, c, l, rr in drv.calls
                      if f == fn and rr == rel and l < line and (
                          c in dbfn or l in sites.get(
                              os.path.basename(rel), ()))]
            if not before:
                continue
            last = max(before)[0]
            if line - last <= 3:
                continue    # it rings the pending doorbell, then stops
            between = [c for f, c, l, rr in drv.calls
                       if f == fn and rr == rel and last < l < line and
                       c in set(drv.sets.get("doorbells", ()))]
            after = [c for f, c, l, rr in drv.calls
                     if f == fn and rr == rel and l > line and
                     c in set(drv.sets.get("doorbells", ()))]
            hard = _hard_error_path(drv, {"fn": fn, "line": line,
                                          "file": rel})
            if not between and not after and hard:
                _set_aside(v, {"fn": fn, "line": line, "file_rel": rel},
                           callee, "after the doorbell decision; dropped "
                           "because %s next to it (a message, not a proof "
                           "that the branch cannot run)" % hard)
            elif not between and not after:
                v.finding(loc(rel, line), "stop-after-doorbell",
                          "%s: %s() after the doorbell decision (line %d), "
                          "no doorbell after it: a batch the decision "
                          "deferred ends unrung" % (fn, callee, last))
    for r in recs(drv, "C6", "ignored-return"):
        v.finding(loc(rfile(drv, r), r["line"]), "ignored-return",
                  "%s: the return of %s() (ring the doorbell) is ignored" % (
                      r["fn"], r["callee"]))
    for r in recs(drv, "C6", "busy-after-sent"):
        v.finding(loc(rfile(drv, r), r["other_line"]), "busy-after-sent",
                  "%s: NETDEV_TX_BUSY after %s() (line %d) with no doorbell "
                  "between" % (r["fn"], r["callee"], r["line"]))
    for r in recs(drv, "C6", "free-after-sent"):
        rel = rfile(drv, r)
        balanced = [c for f, c, l, rr in drv.calls
                    if f == r["fn"] and rr == rel and
                    r["line"] < l < r["other_line"] and c in COMPL_API]
        if balanced and not defers:
            v.notes.append("%s:%d: the drop after the sent call completes "
                           "what it counted (%s()) and the doorbell is not "
                           "deferred: nothing is left pending" % (
                               rel, r["other_line"], balanced[0]))
            continue
        v.finding(loc(rfile(drv, r), r["other_line"]), "free-after-sent",
                  "%s: %s() drops the skb after %s() (line %d) counted it, "
                  "no doorbell between" % (r["fn"], r["other"], r["callee"],
                                           r["line"]))
    if defers:
        tails = {}
        for r in recs(drv, "C6", "call-tail"):
            tails.setdefault(r["callee"], []).append(r)
        drops = {}
        for r in recs(drv, "C6", "drop-tail"):
            drops.setdefault(r["fn"], []).append(r)
        # a drop reaches the end of ndo_start_xmit with no doorbell: in the
        # root itself, or in a helper whose caller chain has no doorbell
        for fn, rs in sorted(drops.items()):
            if not _tail_reaches_root(drv, fn, tails, set()):
                continue
            for r in sorted(rs, key=lambda x: x["line"]):
                if _replaced_skb(drv, r):
                    v.notes.append("%s:%d: the skb freed is replaced by a "
                                   "copy that is sent: not a drop" % (
                                       rfile(drv, r), r["line"]))
                    continue
                down = _teardown_drop(drv, r)
                if down:
                    _set_aside(v, dict(r, file_rel=rfile(drv, r)),
                               r["callee"], "a drop with no doorbell after "
                               "it; dropped because it is under %s, taken "
                               "for a teardown whose ring clean discards "
                               "what is pending (a flag's name, not a "
                               "proof)" % down)
                    continue
                rung = [c for f, c, l, rr in drv.calls
                        if f == r["fn"] and rr == rfile(drv, r) and
                        r["line"] - 2 <= l < r["line"] and
                        c in set(drv.sets.get("doorbells", ()))]
                if rung:
                    v.notes.append("%s:%d: the drop rings the doorbell "
                                   "(%s()) just before it" % (
                                       rfile(drv, r), r["line"], rung[0]))
                    continue
                if _pending_rung(drv, r):
                    v.notes.append("%s:%d: the drop rings the pending "
                                   "doorbell after it" % (rfile(drv, r),
                                                          r["line"]))
                    continue
                if _no_ring_yet(drv, r):
                    v.notes.append("%s:%d: a drop before the tx ring is "
                                   "known: no doorbell of it can be pending"
                                   % (rfile(drv, r), r["line"]))
                    continue
                if _skb_arg_is_drop(drv, r):
                    v.finding(loc(rfile(drv, r), r["line"]), "drop-tail",
                              "%s: %s() drops a packet and ndo_start_xmit "
                              "returns with no doorbell; the driver defers "
                              "its doorbell for xmit_more" % (fn, r["callee"]))
                    break


def _replaced_skb(drv, r):
    """Is the skb freed at @r replaced by another right after (skb =
    nskb: a copy with more room is sent instead)?"""
    src = drv.src[rfile(drv, r)]
    nxt = src.text[src.starts[r["line"] - 1]:src.starts[min(
        r["line"] + 1, len(src.starts) - 1)]]
    arg = norm(r.get("arg", ""))
    return bool(arg) and bool(re.search(
        r";\s*%s\s*=\s*\w+\s*;" % re.escape(arg), nxt))


def _teardown_drop(drv, r):
    """The test a drop sits under when it reads as "the device is going
    down" (a DOWN or RESETTING flag, queues not active, not running): the
    condition's text, or None."""
    src = drv.src[rfile(drv, r)]
    text = src.text[src.starts[max(0, r["line"] - 4)]:src.starts[
        min(r["line"], len(src.starts) - 1)]]
    ifs = list(re.finditer(r"\bif\s*\(", text))
    if not ifs:
        return None
    p = ifs[-1].end() - 1
    depth, i = 0, p
    while i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            break
        i += 1
    cond = norm(text[p + 1:i])
    if re.search(r"test_bit\(_*\w*(?:DOWN|RESETTING|REMOVING)\b|"
                 r"^!\S*(?:queues_active|running)\b|^!netif_running",
                 cond):
        return "if (%s)" % cond
    return None


def _no_ring_yet(drv, r):
    """Is the drop under a test that the ring or queue does not exist (a
    NULL ring, an index beyond the rings): the nearest if above it?"""
    src = drv.src[rfile(drv, r)]
    text = src.text[src.starts[max(0, r["line"] - 12)]:src.starts[
        min(r["line"], len(src.starts) - 1)]]
    ifs = list(re.finditer(r"\bif\s*\(", text))
    if not ifs:
        return False
    cond = text[ifs[-1].end():ifs[-1].end() + 120]
    return bool(re.match(r"\s*(?:unlikely\s*\()?\s*(?:!\s*\w*(?:sq|ring|txq|txr|"
                         r"q)\b|[\w>.\-\[\]]*\s*>=\s*[\w>.\-]*(?:nr_rings|"
                         r"num_tx|real_num|tx_nr_rings|num_queues))", cond))


def _pending_rung(drv, r):
    """Does the function ring a pending doorbell after the drop, under a
    test of its own "doorbell pending" state (bnxt's kick_pending)?"""
    rel = rfile(drv, r)
    src = drv.src[rel]
    dbs = set(drv.sets.get("doorbells", ()))
    for fn, callee, line, rr in drv.calls:
        if fn != r["fn"] or rr != rel or line <= r["line"] or \
                callee not in dbs:
            continue
        text = src.text[src.starts[max(0, line - 3)]:src.starts[
            min(line, len(src.starts) - 1)]]
        if re.search(r"\bif\s*\([^;{]*(?:pending|kick|deferred|db_)", text):
            return True
    return False


def _skb_arg_is_drop(drv, r):
    """A drop of the packet being sent: any free in ndo_start_xmit itself;
    in a helper, a free of its own skb parameter in a void function (one
    that returns the skb it made, like a headroom copy, drops nothing)."""
    fn = r["fn"]
    if fn in drv.xmit_roots:
        # the packet handed to ndo_start_xmit (its first parameter), not
        # a stale skb found in a slot (ibmvnic's tx_buff->skb)
        params = drv.params(fn)
        arg = norm(r.get("arg", ""))
        return not params or not arg or arg == params[0]
    rel, line = drv.fns.get(fn, (None, 0))
    if not rel:
        return False
    src = drv.src[rel]
    head = src.text[src.starts[max(0, line - 3)]:src.offset(line, 0) + 400]
    m = re.search(r"\bvoid\s+%s\s*\(([^)]*)\)" % re.escape(fn), head)
    if not m:
        return False
    params = re.findall(r"(\w+)\s*(?:,|$)", m.group(1))
    return norm(r.get("arg", "")) in params


def _tail_reaches_root(drv, fn, tails, seen):
    if fn in drv.xmit_roots:
        return True
    if fn in seen:
        return False
    seen.add(fn)
    for r in tails.get(fn, []):
        if _tail_reaches_root(drv, r["fn"], tails, seen):
            return True
    return False


def judge_c7(drv, v):
    wakes = recs(drv, "C7", "wake")
    stops = recs(drv, "C7", "stop-no-recheck")
    locks_of = drv.edge_locks()
    # the locks the completion's wakes hold (in the function, or the tx
    # lock taken around the call of the completion)
    wake_locks = []
    for r in wakes:
        # the wakes of the completion path (a function that reaches a
        # completion, run from a completion context); not a reset's wake
        if r["fn"] in drv.xmit or r["fn"] not in drv.completers or \
                not drv.kinds_of_roots(r["fn"]) & (
                    ASYNC_KINDS - {"xmit", "xdp_xmit"}):
            continue
        if r["callee"] in ("netif_start_queue", "netif_tx_start_queue",
                           "netif_start_subqueue",
                           "netif_tx_start_all_queues"):
            continue
        ls = set(locks_of.get((r["fn"], r["callee"]), set()))
        for (fn, callee), keys in locks_of.items():
            if callee == r["fn"]:
                ls |= keys
        # a stopped test before the wake outside the lock: the lock does
        # not order the test with the stop (tg3's check before its lock)
        drv.edge_locks()
        for fn, callee, line, rel in drv.calls:
            if fn == r["fn"] and line < r["line"] and callee in (
                    "netif_tx_queue_stopped", "netif_queue_stopped",
                    "__netif_subqueue_stopped", "netif_xmit_stopped") and \
                    not drv.held_at.get((fn, line), set()) & ls:
                ls = set()
        wake_locks.append(ls)
    for r in stops:
        held = drv.site_locks(r["fn"], r["callee"], r["line"]) | {"txlock"}
        if wake_locks and all(w & held for w in wake_locks):
            continue
        hard = _hard_error_path(drv, r)
        if hard:
            _set_aside(v, dict(r, file_rel=rfile(drv, r)), r["callee"],
                       "no barrier and re-check after it; dropped because "
                       "%s next to it (a message, not a proof that the "
                       "branch cannot run)" % hard)
            continue
        v.finding(loc(rfile(drv, r), r["line"]), "stop-no-recheck",
                  "%s: %s() with no full barrier and re-check after it on a "
                  "path; the completion's wake does not hold a lock in "
                  "common with it" % (r["fn"], r["callee"]))
    # b) a stop in the transmit path and no wake from a completion context
    own_stop = [c for c in drv.calls if c[1] in STOP_QUEUE_API and
                c[0] in drv.xmit]
    if own_stop:
        ok = False
        for r in wakes:
            ks = drv.kinds_of_roots(r["fn"])
            if ks & (ASYNC_KINDS - {"xmit", "xdp_xmit"}) or ks & {"extern",
                                                                "op"}:
                ok = True
        if not ok:
            fn, callee, line, rel = own_stop[0]
            v.finding(loc(rel, line), "no-waker",
                      "%s: %s() in the transmit path, and no wake is "
                      "reachable from a completion context" % (fn, callee))


def _hard_error_path(drv, r):
    """Is the stop next to a report that the branch cannot be taken
    (WARN(), or netdev_err()/netdev_warn() saying "BUG", "unexpected",
    "queue awake", ...)? The report's call and line ("netif_warn() at
    file:line"), or None. This reads a message, not the code: a match it
    sets aside is a "cannot see" of the rule, not an "ok"."""
    rel = rfile(drv, r)
    raw = drv.src[rel].raw.split("\n")
    for fn, callee, line, rr in drv.calls:
        if fn == r["fn"] and rr == rel and abs(line - r["line"]) <= 4 and \
                re.match(r"(netdev|netif|dev|pr|net)_(err|crit|alert|emerg|"
                         r"warn)|WARN|BUG|netdev_WARN", callee):
            msg = " ".join(raw[line - 1:line + 2])
            m = re.search(r"BUG|unexpected|awake|should|must not|never|"
                          r"called with|ring full|ring is full", msg, re.I)
            if callee.startswith(("WARN", "BUG", "netdev_WARN")) or m:
                return "%s() at %s:%d%s" % (
                    callee, rel, line,
                    ' says "%s"' % m.group(0) if m else "")
    return None


def _set_aside(v, r, callee, why):
    """A match the rule dropped on a heuristic: said in the table as a
    "cannot see", with the site and the reason."""
    v.cannot_see("a match set aside: %s: %s() at %s:%d, %s" % (
        r["fn"], callee, r.get("file_rel") or r.get("file") or "?",
        r["line"], why))


def _lockkey(lock):
    e = norm(lock)
    if re.search(r"netdev_get_tx_queue|txq|\btx_queue\b|nq$|dev_queue",
                 e) and not re.search(r"lock", e):
        return "txlock"
    e = e.lstrip("&")
    m = re.search(r"((?:->|\.)\w+(?:\[[^\]]*\])?)+$", e)
    return m.group(0) if m else e


def judge_c8(drv, v):
    lltx = any(re.search(r"\blltx\s*=\s*true|NETIF_F_LLTX", s.text)
               for s in drv.src.values())
    edge_locks = drv.edge_locks()
    # every context (root) that reaches a direct completion, with the locks
    # held on every chain from it
    sites = [(fn, api, line, rel) for fn, api, line, a, rel in drv.bql
             if api in COMPL_API]
    ctx = {}
    for fn, api, line, rel in sites:
        for root, kinds in drv.roots_of(fn).items():
            ks = kinds & ASYNC_KINDS
            if not ks:
                continue
            ls = _chain_locks(drv, root, fn, api, edge_locks)
            if "xmit" in ks and not lltx:
                ls = {frozenset(x | {"txlock"}) for x in ls}
            cur = ctx.setdefault((root, tuple(sorted(ks))), [])
            cur.append((ls, loc(rel, line)))
    keys = sorted(ctx)
    seen = set()
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a[0] == b[0]:
                continue
            ka, kb = set(a[1]), set(b[1])
            if ka <= {"netpoll"} or kb <= {"netpoll"}:
                continue
            la = _common(ctx[a])
            lb = _common(ctx[b])
            if la & lb:
                continue
            if ("napi" in ka) != ("napi" in kb):
                other = b[0] if "napi" in ka else a[0]
                okinds = kb if "napi" in ka else ka
                if okinds & {"work", "timer", "tasklet"} and drv._reaches(
                        other, STOP_API["napi"]):
                    continue    # it disables NAPI before it completes
            if {"xmit"} & ka and {"xmit"} & kb:
                continue
            pat = "other"
            kinds = ka | kb
            if kinds <= {"napi", "xmit"} and (("xmit" in ka) != (
                    "xmit" in kb)):
                pat = "napi+xmit"
            elif kinds <= {"napi"}:
                pat = "napi+napi"
            key = tuple(sorted([a[0], b[0]]))
            if key in seen:
                continue
            seen.add(key)
            where = ctx[b][0][1]
            v.finding(where, pat,
                      "%s (%s) and %s (%s) both complete (%s, %s) with no "
                      "lock in common" % (
                          a[0], "/".join(a[1]), b[0], "/".join(b[1]),
                          ctx[a][0][1], ctx[b][0][1]))


def _common(lst):
    out = None
    for ls, where in lst:
        for s in ls:
            out = set(s) if out is None else out & s
    return out or set()


def _chain_locks(drv, root, target, api, edge_locks):
    """The lock sets of the call chains from @root to the completion call
    @api in @target (one set per chain, at most 16 chains)."""
    out = set()

    def walk(f, held, seen):
        if len(out) > 16:
            return
        if f == target:
            out.add(frozenset(held | edge_locks.get((f, api), set())))
        for c in drv.edges.get(f, ()):
            if c in seen:
                continue
            if target not in drv.callees_closure({c}):
                continue
            walk(c, held | edge_locks.get((f, c), set()), seen | {c})
    walk(root, set(), {root})
    return out or {frozenset()}


# What a rule must see in the driver to say "ok": the transmit path
# (ndo_start_xmit and the sent call reached from it), and the doorbell of
# that path. A rule that misses one says "cannot see: <what>".
NEEDS_XMIT = {"C4", "C5", "C6", "C7", "C8"}
NEEDS_DOORBELL = {"C4", "C6"}


def check_seen(drv, rid, v):
    """Add to @v what rule @rid needed in @drv and did not see."""
    sent = sorted({(fn, rel, line) for fn, api, line, a, rel in drv.bql
                   if api in SENT_API | {"netif_subqueue_sent"}},
                  key=lambda x: (x[1], x[2]))
    if rid in NEEDS_XMIT:
        if not drv.xmit_roots:
            where = ", ".join("%s (%s)" % (fn, loc(rel, line))
                              for fn, rel, line in sent[:2])
            v.cannot_see("transmit path: no ndo_start_xmit in the files "
                         "read%s" % (
                             "; the sent call in %s is reached from no "
                             "transmit entry point (its ops table is in a "
                             "file that calls no BQL function, not read)"
                             % where if where else ""))
            return
        outside = [(fn, rel, line) for fn, rel, line in sent
                   if fn not in drv.xmit]
        if outside and rid in ("C4", "C6"):
            fn, rel, line = outside[0]
            v.cannot_see("transmit path of the sent call in %s (%s): "
                         "reached from %s, not from ndo_start_xmit" % (
                             fn, loc(rel, line), ", ".join(sorted(
                                 drv.kinds_of_roots(fn))) or "nothing"))
    if rid in NEEDS_DOORBELL and sent and drv.xmit_roots:
        # C4 and C6's stop after the doorbell decision need the doorbell
        # itself; C6's "no doorbell between" takes any MMIO write of the
        # transmit path for one
        defers = any(c == "netdev_xmit_more" and f in drv.xmit
                     for f, c, l, r in drv.calls)
        if rid == "C4" or defers:
            seen = drv.db_sites
            what = "an MMIO write counts only when its register or " \
                "helper name says doorbell (bqlma.DB_WORDS)"
        else:
            seen = drv.db_sites or drv.db_calls
            what = "no MMIO write at all"
        if getattr(drv, "db_by_effect", None):
            v.notes.append("doorbell by effect: no MMIO write of the "
                           "transmit path is named a doorbell; each is taken "
                           "for one (%s)" % ", ".join(drv.db_by_effect))
        if not seen:
            v.cannot_see("doorbell: no MMIO write, virtqueue kick or "
                         "dmaengine issue recognised in the transmit path "
                         "(%s): %s" % (", ".join(sorted(drv.xmit_roots)),
                                       what))


JUDGES = {"C1": judge_c1, "C2": judge_c2, "C3": judge_c3, "C4": judge_c4,
          "C5": judge_c5, "C6": judge_c6, "C7": judge_c7, "C8": judge_c8}
JUDGES.update(classes.judges(sys.modules[__name__]))

# ---------------------------------------------------------------------------
# the explorer

class Explorer:
    """bqlm explore nic runs, each made once: a run (or a sweep) asked
    again, by another finding or from another thread, takes the first
    one's result (in flight: waits for it)."""

    def __init__(self, bqlm, enabled):
        self.bqlm = bqlm
        self.enabled = enabled and os.path.exists(bqlm)
        self.cache = {}
        self.lock = threading.Lock()
        self.runs = []          # ("run" or "sweep", wall s, CPU s) made
        self.hits = 0
        self.sweep_s = 0        # a sweep's budget: its wall time when idle
        self.mine = threading.local()
        self.tasks = []         # each task's runs, in seconds when idle

    def task(self, fn):
        """@fn run as one task of the pool; its runs' time on an idle
        machine (a run's CPU, the budget of a sweep that used it up) is
        kept for the critical path."""
        self.mine.idle = 0.0
        try:
            fn()
        finally:
            with self.lock:
                self.tasks.append(self.mine.idle)

    def _once(self, key, fn):
        with self.lock:
            slot = self.cache.get(key)
            mine = slot is None
            if mine:
                slot = self.cache[key] = [threading.Event(), None]
            else:
                self.hits += 1
        if mine:
            try:
                slot[1] = fn()
            finally:
                slot[0].set()
        slot[0].wait()
        return slot[1]

    def _call(self, kind, cmd, timeout):
        wall = cpu = 0.0
        try:
            out, err, rc, wall, cpu = run_timed(cmd, timeout)
        finally:
            # a sweep that ran out of its budget takes the budget on an
            # idle machine too; one that ended first (a violation, every
            # bound done) its CPU
            idle = self.sweep_s if kind == "sweep" and \
                wall >= 0.95 * self.sweep_s else cpu
            with self.lock:
                self.runs.append((kind, wall, cpu))
            self.mine.idle = getattr(self.mine, "idle", 0.0) + idle
        if rc is None:
            raise subprocess.TimeoutExpired(cmd, timeout)
        return out, rc

    def run(self, options):
        if not self.enabled:
            return {"result": "not run"}
        return self._once(("run", options), lambda: self._run(options))

    def _run(self, options):
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        try:
            cmd = [self.bqlm, "explore", "nic"] + options.split() + [
                "--no-trace", "--json", path]
            out, rc = self._call("run", cmd, 600)
            with open(path) as f:
                d = json.load(f)
            vs = sorted(d.get("violations", []), key=lambda x: x["depth"])
            res = {"result": d.get("result"), "verdict": d.get("verdict"),
                   "states": d.get("states"), "exit": rc}
            if d.get("verdict"):
                w = [x for x in vs if x["check"] == d["verdict"]]
                res["depth"] = w[0]["depth"] if w else None
                res["first"] = vs[0]["check"] if vs else None
                res["first_depth"] = vs[0]["depth"] if vs else None
                res["first_detail"] = vs[0].get("detail") if vs else None
        except (OSError, ValueError, subprocess.TimeoutExpired) as e:
            res = {"result": "error", "detail": str(e)}
        finally:
            os.unlink(path)
        return res

    def sweep(self, options, seconds):
        """bqlm explore nic OPTIONS --sweep SECONDS, as describe.sweep()
        reads it."""
        if not self.enabled:
            return {"summary": "not run"}
        cmd = [self.bqlm, "explore", "nic"] + options.split() + [
            "--no-trace", "--sweep", str(seconds)]

        def one():
            try:
                out, rc = self._call("sweep", cmd, seconds * 4 + 60)
            except (OSError, subprocess.TimeoutExpired) as e:
                return {"summary": "error: %s" % e}
            return describe.sweep_result(rc, out)
        return self._once(("sweep", options, seconds), one)

    def stats(self):
        """The explorer's figures for the totals."""
        n = [r for r in self.runs if r[0] == "run"]
        sw = [r for r in self.runs if r[0] == "sweep"]
        wall = sum(r[1] for r in self.runs)
        return {"explorer_runs": len(self.runs), "sweeps": len(sw),
                "cached": self.hits,
                "explorer_wall": round(wall, 1),
                "explorer_cpu": round(sum(r[2] for r in self.runs), 1),
                "run_wall": round(sum(r[1] for r in n), 1),
                "sweep_wall": round(sum(r[1] for r in sw), 1),
                "sweep_cpu": round(sum(r[2] for r in sw), 1),
                "sweep_share": round(sum(r[1] for r in sw) / wall, 3)
                if wall else 0.0,
                "longest_wall": round(max([r[1] for r in self.runs] or
                                          [0]), 1),
                "tasks": len(self.tasks),
                "tasks_idle": round(sum(self.tasks), 1),
                "longest_task_idle": round(max(self.tasks or [0]), 1)}


def explain(model, ex):
    """One line: the counterexample, or what the model lacks."""
    if "missing" in model:
        return "not reproduced by the model: needs %s" % model["missing"]
    if ex.get("result") == "not run":
        return "model: bqlm explore nic %s (not run)" % model["options"]
    if ex.get("result") == "error":
        return "model: bqlm explore nic %s: %s" % (model["options"],
                                                   ex.get("detail"))
    if not ex.get("verdict"):
        return ("not reproduced by the model: bqlm explore nic %s is OK "
                "(%s states)" % (model["options"], ex.get("states")))
    s = "counterexample: %s at depth %s" % (ex["verdict"], ex.get("depth"))
    if ex.get("first") and (ex["first"] != ex["verdict"] or
                            ex.get("first_depth") != ex.get("depth")):
        s += " (first violation %s at depth %s)" % (ex["first"],
                                                    ex["first_depth"])
    return s


# ---------------------------------------------------------------------------
# the run

def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="audit", description="BQL drivers against the porting rules")
    ap.add_argument("--kdir", required=True, help="kernel tree")
    ap.add_argument("--files", default="",
                    help="files or directories (relative to --kdir)")
    ap.add_argument("--json", default="", help="write the report as JSON "
                    "(- for stdout)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds per spatch run")
    ap.add_argument("--options", action="store_true",
                    help="print each finding's bqlm command line")
    ap.add_argument("--no-explore", action="store_true")
    ap.add_argument("--rules", default=",".join(RULE_IDS))
    ap.add_argument("--bqlm", default=os.path.join(REPO, "build", "bqlm"))
    ap.add_argument("--drivers-dir", default="",
                    help="write each driver's derived options here")
    ap.add_argument("--descriptions", default="",
                    help="write each driver's derived bqlm description "
                    "and its findings' proofs here (markdown)")
    ap.add_argument("--sweep", type=int, default=0, metavar="SECONDS",
                    help="sweep the bounds of a finding whose own "
                    "description is OK at the fill bound (seconds a run)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--spatch", default="spatch")
    ap.add_argument("--cache", default="",
                    help="keep and reuse spatch runs in this directory "
                    "(audit/spcache.py; make audit-selftest uses one)")
    ap.add_argument("--dump", default="",
                    help="write every driver's sets and rule records here "
                    "(JSON, for debugging a rule)")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return EXIT_USAGE if e.code else 0
    rules = [r.strip().upper() for r in args.rules.split(",") if r.strip()]
    bad = [r for r in rules if r not in RULE_IDS]
    if bad or args.jobs < 1 or args.timeout < 1:
        sys.stderr.write("audit: bad --rules %s (known: %s), --jobs or "
                         "--timeout\n" % (",".join(bad), ",".join(RULE_IDS)))
        return EXIT_USAGE
    if not os.path.isdir(args.kdir) or not os.path.isdir(
            os.path.join(args.kdir, "drivers")):
        sys.stderr.write("audit: %s is not a kernel tree (no drivers/)\n" %
                         args.kdir)
        return EXIT_USAGE
    if not shutil.which(args.spatch):
        sys.stderr.write("audit: %s not found: apt-get install -y "
                         "coccinelle\n" % args.spatch)
        return EXIT_USAGE
    t_start = time.time()
    phases = Phases()
    phases.start("facts")
    kdir = os.path.abspath(args.kdir)
    problems = []
    files = args.files.split()
    found = discover(kdir, files, problems)
    cache = {}
    drivers = {}
    for rel in sorted(found):
        did, d = driver_of(kdir, rel, cache)
        drv = drivers.get(did)
        if drv is None:
            drv = drivers[did] = Driver(did, kdir)
        drv.files.append(rel)
        drv.text_calls[rel] = found[rel]
        drv.src[rel] = Source(os.path.join(kdir, rel))
    runner = Runner(args.jobs, args.timeout, args.quiet, args.spatch,
                    args.cache)
    tmp = tempfile.mkdtemp(prefix="bqlm-audit-")
    copies = {rel: sanitized_copy(kdir, rel, tmp) for rel in found}
    if not args.quiet:
        sys.stderr.write("audit: %d files of %d BQL drivers, %d rules, %d "
                         "jobs\n" % (len(found), len(drivers), len(rules),
                                     args.jobs))
    # pass 1: facts
    items = [((did, rel), os.path.join(HERE, "facts.cocci"),
              copies[rel], None, "facts")
             for did, drv in drivers.items() for rel in drv.files]
    res = runner.map(items)
    spatch_runs = {"facts": len(runner.runs)}
    phases.start("rules")
    for (did, rel), (rs, st, det) in res.items():
        drv = drivers[did]
        drv.file_status[rel] = st
        if st != "ok":
            drv.problems.append({"file": rel, "problem": "spatch " + st,
                                 "detail": det})
        drv.add_facts(rel, rs)
    try:
        for did, drv in drivers.items():
            drv.build()
            drv.compute_sets()
            classes.extend_sets(drv, WAKE_API)
            # BQL calls the parser did not see (an unparsed function)
            seen = {(rel, line) for fn, api, line, a, rel in drv.bql}
            for rel, calls in drv.text_calls.items():
                for api, line in calls:
                    if (rel, line) not in seen and drv.file_status.get(
                            rel) == "ok":
                        drv.problems.append({
                            "file": "%s:%d" % (rel, line),
                            "problem": "not parsed",
                            "detail": "spatch could not parse the function "
                            "with this %s() call; no rule sees it" % api})
            path = os.path.join(tmp, hashlib.sha1(
                did.encode()).hexdigest() + ".json")
            with open(path, "w") as f:
                json.dump(drv.sets, f)
            drv.sets_path = path
        # pass 2: the rules, all in one spatch run per file; a file whose
        # run fails is run again rule by rule, to say which rule failed
        combined = os.path.join(tmp, "rules.cocci")
        with open(combined, "w") as out:
            for rid, fname, title in RULES:
                if rid in rules:
                    with open(os.path.join(HERE, fname)) as f:
                        out.write(f.read() + "\n")
        # a driver read for its stop/wake only: those rules alone
        combined_sw = os.path.join(tmp, "rules-stopwake.cocci")
        with open(combined_sw, "w") as out:
            for rid, fname, title in RULES:
                if rid in rules and rid in classes.STOPWAKE_RULES:
                    with open(os.path.join(HERE, fname)) as f:
                        out.write(f.read() + "\n")
        sw_rules = [r for r in rules if r in classes.STOPWAKE_RULES]
        items = [((did, rel), combined if any(
            drv.text_calls.values()) else combined_sw, copies[rel],
                  drv.sets_path, "rules")
                 for did, drv in drivers.items() for rel in drv.files
                 if sw_rules or any(drv.text_calls.values())]
        res = runner.map(items)
        again = []
        for (did, rel), (rs, st, det) in res.items():
            drv = drivers[did]
            if st == "ok":
                for r in rs:
                    if r.get("r") in drv.rule_recs:
                        drv.rule_recs[r["r"]].append(r)
            else:
                for rid, fname, title in RULES:
                    if rid in rules and (any(drv.text_calls.values()) or
                                         rid in classes.STOPWAKE_RULES):
                        again.append(((did, rel, rid),
                                      os.path.join(HERE, fname),
                                      copies[rel], drv.sets_path, rid))
        if again:
            res = runner.map(again)
            for (did, rel, rid), (rs, st, det) in res.items():
                drv = drivers[did]
                if st == "ok":
                    drv.rule_recs[rid] += [r for r in rs if r.get("r") ==
                                           rid]
                else:
                    drv.rule_status[rid].append("%s: spatch %s (%s)" % (
                        rel, st, det))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    phases.start("descriptions")
    for drv in drivers.values():
        for rid in RULE_IDS:
            for r in drv.rule_recs[rid]:
                rel = rfile(drv, r)
                if "col" in r and "callee" not in r:
                    r["callee"] = drv.callee_at(rel, r["line"], r["col"])
                if "other_col" in r and "other" not in r:
                    r["other"] = drv.callee_at(rel, r["other_line"],
                                               r["other_col"])
    # verdicts
    explorer = Explorer(args.bqlm, not args.no_explore)
    explorer.sweep_s = args.sweep
    report = []
    jobs = []
    for did in sorted(drivers, key=lambda d: drivers[d].name):
        drv = drivers[did]
        entry = {"driver": drv.name, "id": did, "files": drv.files,
                 "bql_calls": drv.bql_summary(), "problems": drv.problems,
                 "rules": {}}
        for rid in rules:
            v = Verdict(rid)
            for p in drv.problems:
                if p["problem"] in ("not parsed",) or \
                        p["problem"].startswith("spatch"):
                    v.cannot_tell("%s: %s (%s)" % (p["file"], p["problem"],
                                                   p["detail"]))
            for s in drv.rule_status[rid]:
                v.cannot_tell(s)
            apis = {x for calls in drv.text_calls.values() for x, l in calls}
            skip = classes.skip_reason(rid, apis)
            if skip or rid in ("C1", "C2", "C4", "C5", "C6", "C8") and not (
                    apis & (SENT_API | {"netif_subqueue_sent"})):
                v.notes.append(skip or "no sent call: the driver counts "
                               "nothing BQL could lose or over-complete")
                entry["rules"][rid] = {"verdict": v.state(), "findings": [],
                                       "cannot_tell": v.cannot,
                                       "cannot_see": v.unseen,
                                       "notes": v.notes}
                continue
            try:
                JUDGES[rid](drv, v)
                check_seen(drv, rid, v)
            except Exception as e:      # a rule's bug is a report line
                v.cannot_tell("the rule failed on this driver: %s: %s" % (
                    type(e).__name__, e))
            for f in v.findings:
                f["model"] = model_entry(rid, f["pattern"], drv.queues())
            entry["rules"][rid] = {"verdict": v.state(),
                                   "findings": v.findings,
                                   "cannot_tell": v.cannot,
                                   "cannot_see": v.unseen, "notes": v.notes}
        entry["derived"] = derived_options(drv)
        jobs += describe_entry(drv, entry, explorer, args)
        report.append(entry)
    # the explorer runs of every finding, --jobs at a time; each job
    # writes its own finding, so the report is in the drivers' order
    phases.start("proofs")
    runner.total += len(jobs)

    def prove_job(job):
        explorer.task(job[1])
        runner.progress("proof " + job[0])
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for _ in ex.map(prove_job, jobs):
            pass
    phases.stop()
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump({d.name: {"sets": d.sets, "kinds": d.kinds,
                                "records": d.rule_recs}
                       for d in drivers.values()}, f, indent=1, default=str)
    elapsed = time.time() - t_start
    totals = summarize(report, rules, problems, elapsed)
    totals["times"] = times(phases, runner, spatch_runs, explorer, args.jobs)
    print_table(report, rules, problems, totals, args.options)
    if args.drivers_dir:
        os.makedirs(args.drivers_dir, exist_ok=True)
        for e in report:
            name = re.sub(r"[^\w.-]", "_", e["driver"])
            with open(os.path.join(args.drivers_dir, name + ".opts"),
                      "w") as f:
                f.write(format_derived(e))
    if args.descriptions:
        with open(args.descriptions, "w") as f:
            f.write(describe.markdown(report))
    if args.json:
        doc = {"schema": "bqlm-audit/1", "kdir": kdir, "rules": {
            r[0]: r[2] for r in RULES if r[0] in rules},
            "drivers": report, "problems": problems, "totals": totals}
        if args.json == "-":
            json.dump(doc, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            with open(args.json, "w") as f:
                json.dump(doc, f, indent=1)
    return exit_status(report, problems, totals)


def describe_entry(drv, entry, explorer, args):
    """The driver's whole bqlm description (audit/describe.py), and a job
    a finding that proves it on it: entry["description"], then, when the
    job runs, finding["explorer"] (the rule's pattern on the generic
    driver) and finding["proof"]; the finding's explain line becomes the
    proof's. Returns the jobs (functions of no argument)."""
    try:
        d = describe.describe(drv, entry, _chain_locks, _common)
    except Exception as e:      # a describer's bug is a report line
        entry["description"] = {"error": "%s: %s" % (type(e).__name__, e)}
        d = None
    else:
        entry["description"] = d
    others = [(r2, g["pattern"]) for r2, rr in entry["rules"].items()
              for g in rr["findings"]]
    return [("%s %s %s" % (entry["driver"], rid, f["where"]),
             functools.partial(prove_finding, f, rid, d, others, explorer,
                               args.sweep))
            for rid, r in entry["rules"].items() for f in r["findings"]]


def prove_finding(f, rid, d, others, explorer, sweep_s):
    """One finding's explorer runs: the rule's pattern on the generic
    driver, then, with the driver's description @d, the proof on it."""
    m = f["model"]
    f["explorer"] = explorer.run(m["options"]) if "options" in m else {}
    f["explain"] = explain(m, f["explorer"])
    if d is None or not explorer.enabled:
        return
    try:
        f["proof"] = describe.prove(explorer, d, rid, f["pattern"], m,
                                    sweep_s, others)
    except Exception as e:  # a describer's bug is a report line
        f["proof"] = {"status": "unproved", "why": "the proof "
                      "failed: %s: %s" % (type(e).__name__, e)}
    f["pattern_explain"] = f["explain"]
    f["explain"] = describe.prove_line(f["proof"])


def times(phases, runner, spatch_runs, explorer, jobs):
    """The totals' "times": each phase's wall and CPU seconds (this
    process and its children), the spatch and explorer runs, and the
    critical path on @jobs cores of an idle machine (a phase of runs:
    the longer of its longest run and its runs' CPU over @jobs; a sweep
    counts its budget; the Python between the passes counts whole)."""
    out = {"jobs": jobs, "phases": phases.out}
    if runner.kept:
        out["spatch_kept"] = runner.kept
    cp = 0.0
    for name, rs in (("facts", runner.runs[:spatch_runs["facts"]]),
                     ("rules", runner.runs[spatch_runs["facts"]:])):
        ph = phases.out.get(name, {"wall": 0.0, "cpu": 0.0})
        cpu = sum(r[1] for r in rs)
        longest = max([r[1] for r in rs] or [0.0])
        ph.update({"spatch_runs": len(rs), "spatch_cpu": round(cpu, 1),
                   "longest_cpu": round(longest, 1)})
        cp += max(longest, cpu / jobs) + max(ph["cpu"] - cpu, 0.0)
    st = explorer.stats()
    ph = phases.out.get("proofs", {"wall": 0.0, "cpu": 0.0})
    ph.update(st)
    cp += phases.out.get("descriptions", {"cpu": 0.0})["cpu"]
    cp += max(st["longest_task_idle"], st["tasks_idle"] / jobs)
    out["critical_path"] = round(cp, 1)
    return out


def exit_status(report, problems, totals):
    """0 only when every verdict of every driver is "ok"; 1 findings (and
    every file read); 3 incomplete: a file not read, or no finding and a
    verdict "cannot tell" or "cannot see"."""
    if problems or any(e["problems"] for e in report):
        return EXIT_INCOMPLETE
    if totals["findings"]:
        return EXIT_FINDINGS
    if any(r["verdict"] != "ok" for e in report
           for r in e["rules"].values()):
        return EXIT_INCOMPLETE
    return EXIT_CLEAN


def derived_options(drv):
    """The driver as the audit reads it: the start of "the model of my
    driver, read from my driver" (docs/audit.md)."""
    apis = {a for calls in drv.text_calls.values() for a, l in calls}
    sent = sorted(apis & SENT_API)
    d = {"queues": {True: "several", False: "one", None: "cannot tell"}[
        drv.multiqueue()],
        "sent_call": ("xmit-more" if apis & {"__netdev_tx_sent_queue",
                                            "__netdev_sent_queue"}
                      else "plain") if sent else "none",
        "completers": sorted({k for f in drv.compl_fns
                              for k in drv.kinds_of_roots(f)}),
        "doorbell": sorted({norm(r["cond"]) for r in recs(drv, "C6", "cond")
                            if re.search(r"more|stopped|kick|door",
                                         r["cond"])})[:4],
        "ring_stop": _ring_stop_place(drv),
        "completed_bytes": sorted({norm(r["bytes"]) for r in recs(
            drv, "C5", "completed")}),
        "sent_bytes": sorted({norm(r["bytes"]) for r in recs(
            drv, "C5", "sent")}),
        "reset_paths": {}}
    for f, ks in sorted(drv.kinds.items()):
        for k in ks:
            if k in ("close", "open", "timeout", "suspend", "resume",
                     "recovery", "op"):
                calls = []
                for g in sorted(drv.callees_closure({f})):
                    for fn, api, line, a, rel in drv.bql:
                        if fn == g and api in RESET_API:
                            calls.append("%s %s:%d" % (api, rel, line))
                if calls:
                    d["reset_paths"]["%s (%s)" % (f, k)] = calls
    return d


def _ring_stop_place(drv):
    """Where the transmit path's own stop sits relative to the sent call
    (line order in the function that has both)."""
    out = set()
    for fn in drv.xmit:
        stops = [l for f, c, l, r in drv.calls if f == fn and c in (
            STOP_QUEUE_API | {"netif_txq_maybe_stop",
                              "netif_subqueue_maybe_stop"})]
        sents = [l for f, c, l, r in drv.calls if f == fn and c in SENT_API]
        if stops and sents:
            out.add("after-sent" if max(stops) > min(sents) else
                    "before-sent")
    return sorted(out) or ["none in the sent call's function"]


def format_derived(e):
    d = e["derived"]
    lines = ["# %s: the driver's pattern as make audit reads it" % e["driver"],
             "queues: %s" % d["queues"], "sent call: %s" % d["sent_call"],
             "completers: %s" % (", ".join(d["completers"]) or "none"),
             "sent bytes: %s" % (", ".join(d["sent_bytes"]) or "?"),
             "completed bytes: %s" % (", ".join(d["completed_bytes"]) or "?"),
             "doorbell on: %s" % ("; ".join(d["doorbell"]) or "?"),
             "ring-full stop: %s" % ", ".join(d["ring_stop"])]
    for p, calls in sorted(d["reset_paths"].items()):
        lines.append("reset on %s: %s" % (p, "; ".join(calls)))
    if "command" in e.get("description", {}):
        lines.append("description: bqlm explore nic %s" %
                     e["description"]["command"])
    for rid, r in sorted(e["rules"].items()):
        for f in r["findings"]:
            if "options" in f["model"]:
                lines.append("%s %s: bqlm explore nic %s" % (
                    rid, f["where"], f["model"]["options"]))
    return "\n".join(lines) + "\n"


def summarize(report, rules, problems, elapsed):
    t = {"drivers": len(report), "files": sum(len(e["files"]) for e in report),
         "findings": 0, "per_rule": {}, "seconds": round(elapsed, 1),
         "problems": len(problems) + sum(len(e["problems"]) for e in report)}
    for rid in rules:
        c = {"ok": 0, "finding": 0, "cannot tell": 0, "cannot see": 0,
             "findings": 0}
        for e in report:
            r = e["rules"][rid]
            c[r["verdict"]] += 1
            c["findings"] += len(r["findings"])
        t["per_rule"][rid] = c
        t["findings"] += c["findings"]
    return t


def print_table(report, rules, problems, totals, show_options):
    w = max([len(e["driver"]) for e in report] + [6])
    hdr = "%-*s  %s  calls" % (w, "driver", " ".join("%-2s" % r for r in rules))
    print(hdr)
    print("-" * len(hdr))
    legend = "(ok: the rule saw every part it needs; F: finding; ?: cannot " \
        "tell; -: cannot see, what is said below the table)"
    mark = {"ok": "ok", "finding": "F", "cannot tell": "?",
            "cannot see": "-"}
    for e in report:
        apis = sorted(e["bql_calls"])
        print("%-*s  %s  %s" % (w, e["driver"], " ".join(
            "%-2s" % mark[e["rules"][r]["verdict"]] for r in rules),
            ", ".join("%s x%d" % (a, len(e["bql_calls"][a])) for a in apis)))
    print(legend)
    print()
    for e in report:
        lines = []
        for p in e["problems"]:
            lines.append("  !! %s: %s (%s)" % (p["file"], p["problem"],
                                                p["detail"]))
        for r in rules:
            rr = e["rules"][r]
            for f in rr["findings"]:
                lines.append("  %s finding %s: %s" % (r, f["where"],
                                                      f["text"]))
                lines.append("     %s" % f["explain"])
                if show_options and "options" in f["model"]:
                    lines.append("     $ build/bqlm explore nic %s" %
                                 f["model"]["options"])
            for c in rr["cannot_tell"]:
                lines.append("  %s cannot tell: %s" % (r, c))
            for c in rr.get("cannot_see", []):
                lines.append("  %s cannot see: %s" % (r, c))
        if lines:
            print("%s (%s)" % (e["driver"], ", ".join(e["files"])))
            print("\n".join(lines))
    for p in problems:
        print("!! %s: %s (%s)" % (p["file"], p["problem"], p["detail"]))
    print()
    print("totals: %d drivers (%d files), %d findings, %d problems, %.0f s" % (
        totals["drivers"], totals["files"], totals["findings"],
        totals["problems"], totals["seconds"]))
    for r in rules:
        c = totals["per_rule"][r]
        print("  %s %-40s ok %3d  finding %3d (%3d findings)  cannot tell %3d"
              "  cannot see %3d" % (
                  r, dict((x[0], x[2]) for x in RULES)[r], c["ok"],
                  c["finding"], c["findings"], c["cannot tell"],
                  c["cannot see"]))
    print_times(totals.get("times"))


def print_times(t):
    """The totals' "times" (times()): the last lines of the table."""
    if not t:
        return
    ph = t["phases"]
    print("times (--jobs %d; wall and CPU s, the audit and its children):" %
          t["jobs"])
    for name in ("facts", "rules", "descriptions", "proofs"):
        p = ph.get(name)
        if not p:
            continue
        more = ""
        if "spatch_runs" in p:
            more = "  %d spatch runs, %.1f s CPU, the longest %.1f s" % (
                p["spatch_runs"], p["spatch_cpu"], p["longest_cpu"])
        elif "explorer_runs" in p:
            more = ("  %d explorer runs (%d asked again, kept), %.1f s wall"
                    " %.1f s CPU; %d sweeps %.1f s wall (%.0f%%)" % (
                        p["explorer_runs"], p["cached"], p["explorer_wall"],
                        p["explorer_cpu"], p["sweeps"], p["sweep_wall"],
                        100 * p["sweep_share"]))
        print("  %-12s wall %7.1f  cpu %7.1f%s" % (name, p["wall"], p["cpu"],
                                                    more))
    if t.get("spatch_kept"):
        print("  %d spatch runs taken from the cache (--cache)" %
              t["spatch_kept"])
    print("  critical path on %d cores of an idle machine: %.0f s" % (
        t["jobs"], t["critical_path"]))


if __name__ == "__main__":
    sys.exit(main())
