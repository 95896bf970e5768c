#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""selftest.py - make audit-selftest: every audit/tests/*.patch re-creates a
real upstream BQL bug in a 6.12 driver; its rule must flag the patched
driver and pass the driver as it is.

    audit/selftest.py --kdir DIR [--jobs N] [--bqlm PATH] [--json FILE]
                      [--only NAME,...]

A test is audit/tests/cN-DRIVER-FIXID.patch (git format-patch form, the
upstream fix in its description): rule CN. For each test the driver's
directory is copied from the tree (with the Makefiles that group it), the
patch applied with patch(1), and audit/audit.py run on the copy and on the
tree, rule CN only. The test passes when the tree's verdict is "ok" and the
copy's is "finding". Each finding's explorer options, verdict and depth are
then compared with the case of the same name in kunit/audit_kunit.c, the
KUnit suite that pins them in both harnesses (make check, make kunit).

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


def parse_patch(path):
    with open(path) as f:
        text = f.read()
    name = os.path.basename(path)[:-len(".patch")]
    m = re.match(r"c(\d)-", name)
    rule = "C" + m.group(1) if m else None
    files = re.findall(r"^\+\+\+ b/(\S+)", text, re.M)
    fix = re.search(r"Upstream fix:\s+(?:commit\s+)?([0-9a-f]{12,40})", text)
    subj = re.search(r"^Subject: \[PATCH\] (.*(?:\n .*)*)", text, re.M)
    return {"name": name, "rule": rule, "files": files,
            "fix": fix.group(1)[:12] if fix else None,
            "subject": re.sub(r"\s+", " ", subj.group(1)) if subj else "",
            "path": path}


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


def run_audit(kdir, files, rules, jobs, bqlm, out_json):
    cmd = [sys.executable, os.path.join(HERE, "audit.py"), "--kdir", kdir,
           "--files", " ".join(files), "--rules", rules, "--jobs", str(jobs),
           "--bqlm", bqlm, "--json", out_json, "--quiet"]
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


def main(argv=None):
    ap = argparse.ArgumentParser(prog="selftest")
    ap.add_argument("--kdir", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bqlm", default=os.path.join(REPO, "build", "bqlm"))
    ap.add_argument("--json", default="")
    ap.add_argument("--only", default="")
    ap.add_argument("--tests", default=os.path.join(HERE, "tests"))
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
    if args.only:
        want = set(args.only.split(","))
        tests = [t for t in tests if t["name"] in want]
    if not tests:
        sys.stderr.write("selftest: no test in %s\n" % args.tests)
        return 2
    kcases = kunit_cases(os.path.join(REPO, "kunit", "audit_kunit.c"))
    tmp = tempfile.mkdtemp(prefix="bqlm-selftest-")
    results = []
    try:
        # the tree as it is: one audit of every directory a test touches
        orig_files = sorted({f for t in tests for f in t["files"]})
        dirs = sorted({scope(f) for f in orig_files})
        sys.stderr.write("selftest: %d tests; the unpatched drivers (%d "
                         "directories) ...\n" % (len(tests), len(dirs)))
        orig, rc, err = run_audit(args.kdir, dirs, ",".join(sorted(
            {t["rule"] for t in tests if t["rule"]})), args.jobs, args.bqlm,
            os.path.join(tmp, "orig.json"))
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
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # judge
    passed = failed = errors = 0
    for r in results:
        if r.get("status") == "error":
            errors += 1
            continue
        o = [v["verdict"] for v in r["orig"]]
        p = [v["verdict"] for v in r["patched"]]
        fails = []
        if o != ["ok"]:
            fails.append("the unpatched driver is %s for %s, not ok" % (
                "/".join(o) or "not found", r["rule"]))
            for v in r["orig"]:
                fails += ["  " + f["where"] + ": " + f["text"]
                          for f in v["findings"]]
                fails += ["  cannot tell: " + c for c in v["cannot_tell"]]
        if "finding" not in p:
            fails.append("the patched driver is %s for %s, not flagged" % (
                "/".join(p) or "not found", r["rule"]))
            for v in r["patched"]:
                fails += ["  cannot tell: " + c for c in v["cannot_tell"]]
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
    # report
    print("%-36s %-3s %-13s %-8s %-8s %s" % ("test", "rule", "upstream fix",
                                           "tree", "patched", "result"))
    for r in results:
        o = "/".join(v["verdict"] for v in r.get("orig", [])) or "-"
        p = "/".join(v["verdict"] for v in r.get("patched", [])) or "-"
        print("%-36s %-3s %-13s %-8s %-8s %s" % (
            r["name"], r["rule"] or "?", r["fix"] or "?", o, p,
            r.get("status", "?").upper()))
        for f in r.get("findings", [])[:3]:
            print("    %s: %s" % (f["where"], f["text"]))
            print("      %s" % f.get("explain", ""))
        for w in r.get("why", []):
            print("    !! %s" % w)
        if r.get("status") == "error":
            print("    !! %s" % r.get("detail"))
    per_rule = {}
    for r in results:
        per_rule.setdefault(r["rule"], [0, 0])
        per_rule[r["rule"]][0 if r.get("status") == "pass" else 1] += 1
    print()
    print("audit-selftest: %d tests, %d passed, %d failed, %d not run "
          "(%.0f s); per rule: %s" % (
              len(results), passed, failed, errors, time.time() - t0,
              ", ".join("%s %d/%d" % (k, v[0], v[0] + v[1])
                        for k, v in sorted(per_rule.items()))))
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
