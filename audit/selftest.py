#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""selftest.py - make audit-selftest: every audit/tests/*.patch re-creates a
real upstream BQL bug in a 6.12 driver; its rule must flag the patched
driver and pass the driver as it is.

    audit/selftest.py --kdir DIR [--jobs N] [--bqlm PATH] [--json FILE]
                      [--md FILE] [--only NAME,...] [--no-cache]

A test is audit/tests/cN-DRIVER-FIXID.patch (git format-patch form, the
upstream fix in its description): rule CN. For each test the driver's
directory is copied from the tree (with the Makefiles that group it), the
patch applied with patch(1), and audit/audit.py run on the copy and on the
tree, rule CN only. The test passes when the tree's verdict is "ok" and the
copy's is "finding" (the tree may also say "cannot see" for something no
hunk of the patch touches: printed, not a false alarm). Each finding's explorer options, verdict and depth are
then compared with the case of the same name in kunit/audit_kunit.c, the
KUnit suite that pins them in both harnesses (make check, make kunit).

Then the "seeing" cases (SEEING below): a made-up driver,
audit/tests/seeing/fake_ring.c, in variants the audit must not call "ok":
a doorbell it does not recognise, an ndo_start_xmit in a file it does not
read, a ring-full stop it sets aside for the warning next to it; each
with a control variant that shows the check can fail. And "make audit"'s
exit on four small trees (clean, findings, incomplete, usage): make
succeeds for the audit's 0 and 1, fails for 2 and 3, and
build/audit.status holds the audit's own status.

Then the porting exercise (port_cases() below): audit/tests/port/DRIVER/
holds a correct BQL port of a 6.12 driver without BQL, port.patch, and
variants cN-WHAT.patch, each the port plus one mistake of class CN (each a
whole patch against 6.12). Every rule is run on each patched copy: the port
must get no finding and no "cannot tell" of any rule (a false alarm of
that rule); a variant must be flagged by rule CN (the recall of CN), and
what the other rules flag is reported beside it.

A patch whose description has a line "Audit-known-miss: why" is a bug its
rule is known not to flag: not flagged, it counts as a miss in the recall
and the run passes; flagged, the case fails until the line is removed.
--md FILE writes the recall and false alarms per rule
(selftest_report.py). The audits of one run share a cache of spatch runs
(spcache.py): a case's unpatched files are not parsed again.

Exit status: 0 every test passed, 1 a test failed, 2 usage, 3 a test could
not be run (the patch does not apply, a file is missing).
"""

import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import selftest_describe  # noqa: E402


def parse_patch(path):
    with open(path) as f:
        text = f.read()
    name = os.path.basename(path)[:-len(".patch")]
    m = re.match(r"c(\d+)-", name)
    rule = "C" + m.group(1) if m else None
    files = re.findall(r"^\+\+\+ b/(\S+)", text, re.M)
    # the lines of the tree each hunk changes: {file: [(first, last)]}
    hunks = {}
    cur = None
    for m in re.finditer(r"^(?:\+\+\+ b/(\S+)|@@ -(\d+)(?:,(\d+))? )",
                         text, re.M):
        if m.group(1):
            cur = m.group(1)
        elif cur:
            first = int(m.group(2))
            hunks.setdefault(cur, []).append(
                (first, first + int(m.group(3) or 1) - 1))
    fix = re.search(r"Upstream fix:\s+(?:commit\s+)?([0-9a-f]{12,40})", text)
    # "Audit-known-miss: why": the rule is known not to flag the bug; the
    # case counts in the recall as a miss and does not fail the run
    miss = re.search(r"^Audit-known-miss:\s*(.+)$", text, re.M)
    subj = re.search(r"^Subject: \[PATCH\] (.*(?:\n .*)*)", text, re.M)
    return {"name": name, "rule": rule, "files": files,
            "fix": fix.group(1)[:12] if fix else None,
            "subject": re.sub(r"\s+", " ", subj.group(1)) if subj else "",
            "path": path, "hunks": hunks,
            "known_miss": miss.group(1).strip() if miss else None}


# A "cannot see" of the unpatched driver is not a false alarm, but it must
# not be about the code the test is about: no site it names within a hunk
# of the patch (its changed lines and their three lines of context), or
# this many lines beyond it.
NEAR = 0


def near_hunk(t, text):
    """The "file:line" of @text that lies near a hunk of test @t."""
    for f, line in re.findall(r"([\w./-]+\.[ch]):(\d+)", text):
        for hf, ranges in t["hunks"].items():
            if not (hf.endswith(f) or f.endswith(hf)):
                continue
            for a, b in ranges:
                if a - NEAR <= int(line) <= b + NEAR:
                    return "%s:%s" % (f, line)
    return None


KDIR = None


def scope(f):
    """What the audit reads for a patched file: the file alone when its
    Makefile builds it as a module of its own, else its directory (the
    files of its module)."""
    sys.path.insert(0, HERE)
    from audit import driver_of
    drv, d = driver_of(KDIR, f, {})
    return f if drv == f[:-2] else os.path.dirname(f)


def copy_tree(kdir, files, dst):
    """The scope of each of @files, and every Makefile/Kbuild from it up to
    drivers/, copied from @kdir into @dst."""
    dirs = sorted({scope(f) for f in files})
    for d in dirs:
        if os.path.isfile(os.path.join(kdir, d)):
            os.makedirs(os.path.dirname(os.path.join(dst, d)), exist_ok=True)
            shutil.copy(os.path.join(kdir, d), os.path.join(dst, d))
            up = os.path.dirname(d)
        else:
            shutil.copytree(os.path.join(kdir, d), os.path.join(dst, d),
                            dirs_exist_ok=True)
            up = d
        while up and up != "drivers":
            for mk in ("Makefile", "Kbuild"):
                src = os.path.join(kdir, up, mk)
                if os.path.exists(src):
                    os.makedirs(os.path.join(dst, up), exist_ok=True)
                    shutil.copy(src, os.path.join(dst, up, mk))
            up = os.path.dirname(up)
    return dirs


# The spatch runs of one self-test, kept for its later audits
# (audit/spcache.py): a patched copy differs from the tree in one file.
CACHE = ""


def run_audit(kdir, files, rules, jobs, bqlm, out_json):
    cmd = [sys.executable, os.path.join(HERE, "audit.py"), "--kdir", kdir,
           "--files", " ".join(files), "--rules", rules, "--jobs", str(jobs),
           "--bqlm", bqlm, "--json", out_json, "--quiet"]
    if CACHE:
        cmd += ["--cache", CACHE]
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        with open(out_json) as f:
            return json.load(f), r.returncode, r.stderr
    except (OSError, ValueError):
        return None, r.returncode, r.stderr + r.stdout[-2000:]


def verdict(doc, rule, files):
    """The verdict of @rule for the driver(s) owning @files."""
    out = []
    for d in doc["drivers"]:
        if set(d["files"]) & set(files):
            out.append(d["rules"][rule])
    return out


def kunit_cases(path):
    """The cases of kunit/audit_kunit.c: name -> (options, verdict,
    depth)."""
    cases = {}
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return cases
    for m in re.finditer(
            r'AUDIT_CASE\(\s*"([^"]+)",\s*"([^"]*)",\s*BQLM_CHECK_(\w+),'
            r'\s*(\d+)', text):
        cases[m.group(1)] = (m.group(2), m.group(3).lower().replace(
            "_", "-"), int(m.group(4)))
    return cases


# The made-up driver's variants: the text put in place of each FAKE_*
# word of audit/tests/seeing/fake_ring.c.
FAKE_OPS = """static const struct net_device_ops fake_ops = {
	.ndo_open = fake_open,
	.ndo_stop = fake_stop,
	.ndo_start_xmit = fake_xmit,
};"""
FAKE_FULL = """if (fake_room(priv) < 2) {
		netif_stop_queue(dev);
		%s
		return NETDEV_TX_BUSY;
	}"""
FAKE_BASE = {"FAKE_XMIT_STATIC": "static", "FAKE_RING_FULL_CHECK": "",
             "FAKE_DOORBELL": "iowrite16(priv->head, priv->regs + "
             "FAKE_TX_TAIL)", "FAKE_OPS_TABLE": FAKE_OPS, "FAKE_DEFINES": "",
             "FAKE_ALLOC": "alloc_etherdev(sizeof(struct fake_priv))"}
FAKE_MQ = "alloc_etherdev_mq(sizeof(struct fake_priv), FAKE_TXQ_NUM)"

# name: (variant, [(rule, verdict, text the rule's "cannot see" lines must
# contain, or None: no "cannot see" line may contain the word)])
SEEING = {
    # a transmit path none of whose MMIO writes is named a doorbell: C4
    # and C6 take them for the doorbell (by effect, r6040's iowrite16())
    "seeing-doorbell-unnamed": (
        {"FAKE_DOORBELL": "iowrite16(priv->head, priv->regs + 0x38)"},
        [("C4", "ok", None), ("C6", "ok", None)]),
    "seeing-doorbell-indirect": (
        {"FAKE_DOORBELL": "priv->hw->go(priv)"},
        [("C4", "cannot see", "doorbell"), ("C6", "cannot see",
                                            "doorbell")]),
    "seeing-doorbell-named": (
        {}, [("C4", "ok", None), ("C6", "ok", None), ("C7", "ok", None)]),
    "seeing-xmit-elsewhere": (
        {"FAKE_XMIT_STATIC": "", "FAKE_OPS_TABLE": ""},
        [("C6", "cannot see", "transmit path"),
         ("C7", "cannot see", "transmit path")]),
    "seeing-c7-warn": (
        {"FAKE_RING_FULL_CHECK": FAKE_FULL % (
            'netdev_warn(dev, "ring full when queue awake\\n");')},
        [("C7", "cannot see", "netdev_warn")]),
    "seeing-c7-nowarn": (
        {"FAKE_RING_FULL_CHECK": FAKE_FULL % ""},
        [("C7", "finding", None)]),
    # C3 reads the queue count by value (rtase's RTASE_FUNC_TXQ_NUM is 1):
    # netif_stop_queue(dev) of a one-queue device is fine
    "seeing-c3-one-queue": (
        {"FAKE_DEFINES": "#define FAKE_TXQ_NUM\t1", "FAKE_ALLOC": FAKE_MQ},
        [("C3", "ok", None)]),
    "seeing-c3-four-queues": (
        {"FAKE_DEFINES": "#define FAKE_TXQ_NUM\t(2 * 2)",
         "FAKE_ALLOC": FAKE_MQ},
        [("C3", "finding", None)]),
}
# make audit on the variants: (variant, rules, the audit's status, make's
# exit is 0); the recipe exits with the audit's status, which make names
# in its "Error N" (GNU make's own exit is 0 or 2)
MAKE_EXIT = [("seeing-doorbell-named", "C4,C6,C7", 0, True),
             ("seeing-c7-nowarn", "C7", 1, False),
             ("seeing-doorbell-indirect", "C4", 3, False),
             (None, "C4", 2, False)]


def fake_tree(dst, name):
    """A kernel tree under @dst with the variant @name of the made-up
    driver in drivers/net/fake/ (the ops table in fake_ops.c, a file with
    no BQL call, for seeing-xmit-elsewhere)."""
    with open(os.path.join(HERE, "tests", "seeing", "fake_ring.c")) as f:
        text = f.read()
    subst = dict(FAKE_BASE)
    subst.update(SEEING[name][0])
    text = text.replace("#define FAKE_RING\t64", "#define FAKE_RING\t64\n"
                        "#define FAKE_TX_TAIL\t0x38")
    for k in sorted(subst, key=len, reverse=True):
        text = text.replace(k, subst[k])
    d = os.path.join(dst, "drivers", "net", "fake")
    os.makedirs(d)
    objs = "fake_ring.o"
    if not subst["FAKE_OPS_TABLE"]:
        text = text.replace("static int fake_open", "int fake_open").replace(
            "static int fake_stop", "int fake_stop").replace(
            "dev->netdev_ops = &fake_ops;", "")
        with open(os.path.join(d, "fake_ops.c"), "w") as f:
            f.write("// SPDX-License-Identifier: GPL-2.0\n"
                    "#include <linux/netdevice.h>\n\n"
                    "netdev_tx_t fake_xmit(struct sk_buff *skb, "
                    "struct net_device *dev);\n"
                    "int fake_open(struct net_device *dev);\n"
                    "int fake_stop(struct net_device *dev);\n\n" +
                    FAKE_OPS.replace("static const", "const") + "\n")
        objs += " fake_ops.o"
    with open(os.path.join(d, "fake_ring.c"), "w") as f:
        f.write(text)
    with open(os.path.join(d, "Makefile"), "w") as f:
        f.write("obj-m += fake.o\nfake-y := %s\n" % objs)
    return "drivers/net/fake"


def _last_line(text):
    lines = text.strip().splitlines()
    return lines[-1][:200] if lines else ""


def seeing(args, tmp):
    """The SEEING cases and MAKE_EXIT: result dicts as the patch tests'."""
    out = []
    for name, (subst, want) in SEEING.items():
        tree = os.path.join(tmp, name)
        d = fake_tree(tree, name)
        rules = ",".join(w[0] for w in want)
        res = {"name": name, "rule": "see", "rules": rules,
               "fix": "-", "orig": [], "patched": [], "findings": []}
        doc, rc, err = run_audit(tree, [d], rules, 1, args.bqlm,
                                 os.path.join(tmp, name + ".json"))
        if doc is None or len(doc["drivers"]) != 1:
            res["status"] = "error"
            res["detail"] = "audit failed: " + err.strip()[-300:]
            out.append(res)
            continue
        rules = doc["drivers"][0]["rules"]
        fails = []
        for rid, verdict_want, text in want:
            r = rules[rid]
            res["patched"].append(r)
            unseen = r.get("cannot_see", [])
            res["findings"] += [{"where": rid + " cannot see",
                                 "text": u, "explain": ""} for u in unseen]
            if r["verdict"] != verdict_want:
                fails.append("%s is %s, want %s" % (rid, r["verdict"],
                                                    verdict_want))
            if text and not any(text in u for u in unseen):
                fails.append("%s says no \"cannot see\" with %r" % (
                    rid, text))
        res["status"] = "fail" if fails else "pass"
        res["why"] = fails
        out.append(res)
    # make audit's exit, and build/audit.status (AUDIT_OUT)
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES")}
    for name, rules, status, make_ok in MAKE_EXIT:
        res = {"name": "make-audit-exit-%d" % status, "rule": "make",
               "rules": rules,
               "fix": "-", "orig": [], "patched": [], "findings": []}
        if name:
            tree = os.path.join(tmp, name)   # made by the loop above
        else:
            tree = os.path.join(tmp, "no-such-tree")
        outd = os.path.join(tmp, "out-%d" % status)
        env["AUDIT_OUT"] = outd
        r = subprocess.run(
            ["make", "-s", "--no-print-directory", "-C", REPO, "audit",
             "KDIR=" + tree, "FILES=drivers/net/fake",
             "AUDIT_ARGS=--rules %s --quiet --no-explore" % rules],
            env=env, capture_output=True, text=True)
        try:
            with open(os.path.join(outd, "audit.status")) as f:
                got = int(f.read().strip())
        except (OSError, ValueError):
            got = None
        fails = []
        if got != status:
            fails.append("build/audit.status says %s, want %d" % (got,
                                                                  status))
        if (r.returncode == 0) != make_ok:
            fails.append("make audit exited %d, want %s" % (
                r.returncode, "0" if make_ok else "non-zero"))
        if status and "] Error %d" % status not in r.stderr:
            fails.append("make audit's recipe did not exit %d (make "
                         "says: %s)" % (status, _last_line(r.stderr)))
        res["findings"] = [{"where": "make", "text": "exit %d, audit "
                            "status %s" % (r.returncode, got),
                            "explain": _last_line(r.stdout) or
                            _last_line(r.stderr)}]
        res["status"] = "fail" if fails else "pass"
        res["why"] = fails
        out.append(res)
    return out


def port_cases(tests):
    """The porting exercise of @tests/port/: per driver directory, its
    port.patch and its variants cN-*.patch, as parse_patch() dicts with
    "kind" ("port" or "variant") and "driver"."""
    out = []
    for d in sorted(glob.glob(os.path.join(tests, "port", "*", ""))):
        drv = os.path.basename(os.path.dirname(d))
        for p in sorted(glob.glob(os.path.join(d, "*.patch")),
                        key=lambda p: (not p.endswith("/port.patch"), p)):
            t = parse_patch(p)
            stem = t["name"]
            t["name"] = "%s-%s" % (drv, stem)
            t["driver"] = drv
            t["kind"] = "port" if stem == "port" else "variant"
            if t["kind"] == "port":
                t["rule"] = None
            out.append(t)
    return out


def rule_ids():
    """Every rule of the audit, in its order."""
    sys.path.insert(0, HERE)
    from audit import RULE_IDS
    return list(RULE_IDS)


def run_port_case(args, tmp, t, rules):
    """Audit the copy of @t's driver with @t applied, every rule; judge it
    (a port: no finding and no "cannot tell" of any rule; a variant: rule
    CN flags it). The result dict as the patch tests' with "verdicts"
    ({rule: verdict}), "flagged" (the rules with a finding) and "why"."""
    res = dict(t, orig=[], patched=[], findings=[], seen=[], why=[],
               fix="-")
    tree = os.path.join(tmp, t["name"])
    if not t["files"]:
        res["status"] = "error"
        res["detail"] = "the patch names no file"
        return res
    tdirs = copy_tree(args.kdir, t["files"], tree)
    p = subprocess.run(["patch", "-p1", "-s", "-d", tree, "-i", t["path"]],
                       capture_output=True, text=True)
    if p.returncode:
        res["status"] = "error"
        res["detail"] = "patch does not apply: " + (
            p.stdout + p.stderr).strip()[:300]
        return res
    doc, rc, err = run_audit(tree, tdirs, ",".join(rules), 1, args.bqlm,
                             os.path.join(tmp, t["name"] + ".json"))
    if doc is None:
        res["status"] = "error"
        res["detail"] = "audit failed: " + err.strip()[-300:]
        return res
    drvs = [d for d in doc["drivers"] if set(d["files"]) & set(t["files"])]
    if len(drvs) != 1:
        res["status"] = "error"
        res["detail"] = "%d drivers own %s" % (len(drvs), t["files"])
        return res
    vr = drvs[0]["rules"]
    res["verdicts"] = {r: vr[r]["verdict"] for r in rules if r in vr}
    res["flagged"] = [r for r in rules if vr.get(r, {}).get("verdict") ==
                      "finding"]
    res["patched"] = [vr[t["rule"]]] if t["rule"] in vr else []
    fails = []
    for r in rules:
        v = vr.get(r, {})
        res["findings"] += [dict(f, where=r + " " + f["where"])
                            for f in v.get("findings", [])]
        res["seen"] += ["%s cannot see: %s" % (r, c)
                        for c in v.get("cannot_see", [])]
        if t["kind"] == "port" and v.get("verdict") in ("finding",
                                                        "cannot tell"):
            fails.append("%s says %s on the correct port" % (
                r, v["verdict"]))
            fails += ["  " + f["where"] + ": " + f["text"]
                      for f in v.get("findings", [])]
            fails += ["  cannot tell: " + c for c in v.get("cannot_tell",
                                                          [])]
    if t["kind"] == "variant":
        got = res["verdicts"].get(t["rule"], "not run")
        if got != "finding" and t.get("known_miss"):
            res["seen"].append("known miss, not flagged (%s): %s" % (
                got, t["known_miss"]))
        elif got != "finding":
            fails.append("%s is %s, not flagged" % (t["rule"], got))
            fails += ["  cannot tell: " + c for c in vr.get(
                t["rule"], {}).get("cannot_tell", [])]
        elif t.get("known_miss"):
            fails.append("flagged, but the patch says Audit-known-miss: "
                         "remove that line")
    res["status"] = "fail" if fails else "pass"
    res["why"] = fails
    return res


def port_exercise(args, cases):
    """Run the porting exercise's @cases, @args.jobs at a time."""
    rules = rule_ids()
    tmp = tempfile.mkdtemp(prefix="bqlm-selftest-port-")
    try:
        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            return list(ex.map(lambda t: run_port_case(args, tmp, t, rules),
                               cases))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class _NoPatchTests(Exception):
    """--only named no patch test: the seeing cases alone."""


def main(argv=None):
    ap = argparse.ArgumentParser(prog="selftest")
    ap.add_argument("--kdir", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bqlm", default=os.path.join(REPO, "build", "bqlm"))
    ap.add_argument("--json", default="")
    ap.add_argument("--only", default="",
                    help="test names, comma-separated; \"seeing\" for the "
                    "seeing cases and make audit's exit, \"port\" for the "
                    "whole porting exercise, DRIVER-port or DRIVER-cN-... "
                    "for one of its cases")
    ap.add_argument("--tests", default=os.path.join(HERE, "tests"))
    ap.add_argument("--md", default="",
                    help="write recall and false alarms per rule here "
                    "(Markdown, audit/selftest_report.py)")
    ap.add_argument("--no-cache", action="store_true",
                    help="run spatch on every file of every copy (no "
                    "audit/spcache.py)")
    ap.add_argument("--no-seeing", action="store_true",
                    help="skip the seeing cases and make audit's exit")
    ap.add_argument("--no-describe", action="store_true",
                    help="skip the descriptions of docs/nic.md's drivers")
    ap.add_argument("--no-port", action="store_true",
                    help="skip the porting exercise (tests/port/)")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    if not os.path.isdir(os.path.join(args.kdir, "drivers")):
        sys.stderr.write("selftest: %s is not a kernel tree\n" % args.kdir)
        return 2
    global KDIR
    KDIR = args.kdir
    t0 = time.time()
    tests = [parse_patch(p) for p in sorted(glob.glob(
        os.path.join(args.tests, "*.patch")))]
    run_seeing = not args.no_seeing
    run_describe = not args.no_describe
    ports = [] if args.no_port else port_cases(args.tests)
    if args.only:
        want = set(args.only.split(","))
        tests = [t for t in tests if t["name"] in want]
        run_seeing = run_seeing and "seeing" in want
        run_describe = run_describe and "describe" in want
        ports = [t for t in ports if "port" in want or t["name"] in want]
    if not tests and not run_seeing and not run_describe and not ports:
        sys.stderr.write("selftest: no test in %s\n" % args.tests)
        return 2
    kcases = kunit_cases(os.path.join(REPO, "kunit", "audit_kunit.c"))
    tmp = tempfile.mkdtemp(prefix="bqlm-selftest-")
    results = []
    try:
        if not tests:
            raise _NoPatchTests()
        # the tree as it is: one audit of every directory a test touches
        orig_files = sorted({f for t in tests for f in t["files"]})
        dirs = sorted({scope(f) for f in orig_files})
        sys.stderr.write("selftest: %d tests; the unpatched drivers (%d "
                         "directories) ...\n" % (len(tests), len(dirs)))
        # the facts pass of a case's unpatched files comes from the cache
        # (its rule's pass runs again: the tree's rules on the patched
        # file cost more than the cache saves, measured)
        all_rules = ",".join(sorted({t["rule"] for t in tests
                                     if t["rule"]}))
        if not args.no_cache:
            global CACHE
            CACHE = os.path.join(tmp, "spcache")
        orig, rc, err = run_audit(args.kdir, dirs, all_rules, args.jobs,
                                  args.bqlm, os.path.join(tmp, "orig.json"))
        if orig is None:
            sys.stderr.write("selftest: the audit of the tree failed:\n%s\n"
                             % err)
            return 3

        def one(t):
            res = dict(t)
            if not t["rule"] or not t["files"]:
                res["status"] = "error"
                res["detail"] = "the name says no rule or the patch no file"
                return res
            tree = os.path.join(tmp, t["name"])
            tdirs = copy_tree(args.kdir, t["files"], tree)
            p = subprocess.run(["patch", "-p1", "-s", "-d", tree, "-i",
                                t["path"]], capture_output=True, text=True)
            if p.returncode:
                res["status"] = "error"
                res["detail"] = "patch does not apply: " + (
                    p.stdout + p.stderr).strip()[:300]
                return res
            doc, rc, err = run_audit(tree, tdirs, t["rule"], 1, args.bqlm,
                                     os.path.join(tmp, t["name"] + ".json"))
            if doc is None:
                res["status"] = "error"
                res["detail"] = "audit failed: " + err.strip()[-300:]
                return res
            res["patched"] = verdict(doc, t["rule"], t["files"])
            res["orig"] = verdict(orig, t["rule"], t["files"])
            return res

        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            for res in ex.map(one, tests):
                results.append(res)
                sys.stderr.write("selftest: %s done (%.0f s)\n" % (
                    res["name"], time.time() - t0))
    except _NoPatchTests:
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # judge
    passed = failed = errors = 0

    def take(res):
        """Record @res, a seeing or description case's result."""
        nonlocal passed, failed, errors
        results.append(res)
        if res["status"] == "error":
            errors += 1
        elif res["status"] == "fail":
            failed += 1
        else:
            passed += 1

    for r in results:
        if r.get("status") == "error":
            errors += 1
            continue
        o = [v["verdict"] for v in r["orig"]]
        p = [v["verdict"] for v in r["patched"]]
        fails = []
        r["seen"] = []
        if o == ["cannot see"]:
            # not a false alarm; shown, and it must not be about the
            # patched code
            for c in r["orig"][0].get("cannot_see", []):
                at = near_hunk(r, c)
                r["seen"].append(c)
                if at:
                    fails.append("the unpatched driver cannot see %s, "
                                 "next to the patched lines: %s" % (at, c))
        elif o != ["ok"]:
            fails.append("the unpatched driver is %s for %s, not ok" % (
                "/".join(o) or "not found", r["rule"]))
            for v in r["orig"]:
                fails += ["  " + f["where"] + ": " + f["text"]
                          for f in v["findings"]]
                fails += ["  cannot tell: " + c for c in v["cannot_tell"]]
        if "finding" not in p and r.get("known_miss"):
            r["seen"].append("known miss, not flagged (%s): %s" % (
                "/".join(p) or "not found", r["known_miss"]))
        elif "finding" not in p:
            fails.append("the patched driver is %s for %s, not flagged" % (
                "/".join(p) or "not found", r["rule"]))
            for v in r["patched"]:
                fails += ["  cannot tell: " + c for c in v["cannot_tell"]]
        elif r.get("known_miss"):
            fails.append("flagged, but the patch says Audit-known-miss: "
                         "remove that line")
        r["findings"] = [f for v in r["patched"] for f in v["findings"]]
        # the KUnit pin of the first finding's explorer result
        k = kcases.get(r["name"])
        with_opts = [f for f in r["findings"] if "options" in f.get(
            "model", {})]
        f0 = with_opts[0] if with_opts else None
        if f0 is not None:
            m = f0.get("model", {})
            ex = f0.get("explorer", {})
            got = (m.get("options", ""), ex.get("verdict") or "none",
                   ex.get("depth") or 0)
            r["kunit"] = {"got": got, "pinned": k}
            if k is None:
                fails.append("no case %s in kunit/audit_kunit.c (want %s)"
                             % (r["name"], got))
            elif k != got:
                fails.append("kunit/audit_kunit.c pins %s, the audit gives "
                             "%s" % (k, got))
        r["status"] = "fail" if fails else "pass"
        r["why"] = fails
        if fails:
            failed += 1
        else:
            passed += 1
    if run_seeing:
        tmp = tempfile.mkdtemp(prefix="bqlm-selftest-seeing-")
        try:
            for res in seeing(args, tmp):
                take(res)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        sys.stderr.write("selftest: seeing cases done (%.0f s)\n" % (
            time.time() - t0))
    if ports:
        for res in port_exercise(args, ports):
            take(res)
        sys.stderr.write("selftest: porting exercise done (%.0f s)\n" % (
            time.time() - t0))
    if run_describe:
        # the audit's descriptions against docs/nic.md's drivers table
        for res in selftest_describe.run(args.kdir, args.jobs, args.bqlm):
            take(res)
        sys.stderr.write("selftest: descriptions done (%.0f s)\n" % (
            time.time() - t0))
    # report
    print("%-36s %-3s %-13s %-8s %-8s %s" % ("test", "rule", "upstream fix",
                                           "tree", "patched", "result"))
    for r in results:
        o = "/".join(v["verdict"] for v in r.get("orig", [])) or "-"
        p = "/".join(v["verdict"] for v in r.get("patched", [])) or "-"
        if r.get("kind") in ("port", "variant"):
            o = "-"
            p = "/".join(r.get("flagged", [])) or "none"
        print("%-36s %-3s %-13s %-8s %-8s %s" % (
            r["name"], r["rule"] or ("port" if r.get("kind") == "port"
                                     else "?"), r["fix"] or "?", o, p,
            r.get("status", "?").upper()))
        if r.get("kind") in ("port", "variant"):
            print("    %s; flagged by: %s" % (
                "the port" if r["kind"] == "port" else
                "wants " + r["rule"], ", ".join(r.get("flagged", []))
                or "none"))
        for f in r.get("findings", [])[:3]:
            print("    %s: %s" % (f["where"], f["text"]))
            print("      %s" % f.get("explain", ""))
        for c in r.get("seen", []):
            print("    %s%s" % ("" if c.startswith("known miss") or
                                r.get("kind") else "tree: cannot see: ", c))
        for w in r.get("why", []):
            print("    !! %s" % w)
        if r.get("status") == "error":
            print("    !! %s" % r.get("detail"))
    per_rule = {}
    for r in results:
        key = "port" if r.get("kind") else r["rule"]
        per_rule.setdefault(key, [0, 0])
        per_rule[key][0 if r.get("status") == "pass" else 1] += 1
    print()
    print("audit-selftest: %d tests, %d passed, %d failed, %d not run "
          "(%.0f s); per rule: %s" % (
              len(results), passed, failed, errors, time.time() - t0,
              ", ".join("%s %d/%d" % (k, v[0], v[0] + v[1])
                        for k, v in sorted(per_rule.items()))))
    if args.md:
        sys.path.insert(0, HERE)
        import selftest_report
        rules, tot = selftest_report.write(results, args.md,
                                           time.time() - t0, args.jobs)
        print("recall %d/%d, false alarms %d (per rule: %s); in %s" % (
            tot["flagged"], tot["cases"], tot["false_alarms"], ", ".join(
                "%s %d/%d fa %d" % (k, v["flagged"], v["cases"],
                                    v["false_alarms"])
                for k, v in sorted(rules.items(), key=lambda kv:
                                   selftest_report._rule_key(kv[0]))),
            args.md))
        prules, ptot, pcases = selftest_report.port(results)
        if pcases:
            print("porting exercise: recall %d/%d (known misses %d), false "
                  "alarms %d on the ports (per rule: %s)" % (
                      ptot["flagged"], ptot["variants"],
                      ptot["known_misses"], ptot["false_alarms"],
                      ", ".join("%s %d/%d fa %d" % (
                          k, v["flagged"], v["variants"], v["false_alarms"])
                          for k, v in sorted(
                              prules.items(), key=lambda kv:
                              selftest_report._rule_key(kv[0])))))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"schema": "bqlm-audit-selftest/1", "tests": results,
                       "passed": passed, "failed": failed,
                       "errors": errors}, f, indent=1, default=str)
    if errors:
        return 3
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
