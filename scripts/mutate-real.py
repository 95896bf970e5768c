#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# scripts/mutate-real.py - "make mutate-real": every mutant of
# scripts/mutate-real.txt (real/patches/ and the real-code harness) applied
# to this checkout in turn, the kernel rebuilt incrementally and the real
# suites it names run in UML (scripts/kunit.sh with a KUNIT_ARGS filter, no
# W=1 check); the files are restored after each, whatever happens. A
# mutant is
#   caught      a suite failed (the failed cases are listed);
#   missed      every case of the suites passed;
#   stillborn   it does not apply (its text is not in the file exactly once,
#               or a patch series no longer applies) or does not build.
# The unmutated suites run first and must pass.
#
# With --mutants scripts/kunit-debug-inject.txt (make kunit-debug-selftest)
# the mutants are harness bugs for the debug kernel: each names what its
# kernel log must hold ("expect REGEX"), the suites run in the debug
# kernel (scripts/kunit-debug.sh), and a mutant is caught when the log
# scan fails and the log matches (no unmutated run first: that is make
# kunit-debug itself).
#
# Usage: scripts/mutate-real.py [--mutants FILE] [--only NAME]... [--list]
# Exit status: 0 when every mutant was caught, 1 otherwise.

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(REPO, "scripts", "mutate-real.txt")
KDIR = os.environ.get("KDIR") or os.path.join(REPO, ".cache", "linux-source-6.12")
RESULTS = os.path.join(REPO, "build", "kunit-results.json")
DEBUG_RESULTS = os.path.join(REPO, "build", "kunit-debug-results.json")
# kunit.py's time limit for a run of the suites, in seconds
try:
    TIMEOUT = int(os.environ.get("MUTATE_REAL_TIMEOUT", "1800"))
except ValueError:
    sys.exit("mutate-real: MUTATE_REAL_TIMEOUT must be a number of seconds, not '%s'" %
             os.environ["MUTATE_REAL_TIMEOUT"])
DEBUG_LOG = os.path.join(REPO, "build", "kunit-debug-test.log")
TREE_FILES = {"usbnet": ["drivers/net/usb/usbnet.c", "include/linux/usb/usbnet.h"],
              "tun": ["drivers/net/tun.c"]}


def parse(path):
    mutants, m, f = [], None, None
    for n, ln in enumerate(open(path), 1):
        ln = ln.rstrip("\n")
        if not ln.strip() or ln.startswith("#"):
            continue
        key, _, rest = ln.partition(" ")
        if key == "mutant":
            m = {"name": rest.strip(), "files": [], "line": n}
            mutants.append(m)
        elif key in ("what", "suites", "expect"):
            m[key] = rest.strip()
        elif key == "file":
            f = {"path": rest.strip(), "subs": []}
            m["files"].append(f)
        elif ln.startswith("- ") or ln == "-":
            if not f["subs"] or f["subs"][-1][1]:
                f["subs"].append([[], []])
            f["subs"][-1][0].append(ln[2:])
        elif ln.startswith("+ ") or ln == "+":
            f["subs"][-1][1].append(ln[2:])
        else:
            sys.exit("%s:%d: cannot read '%s'" % (path, n, ln))
    for m in mutants:
        for k in ("what", "suites"):
            if k not in m:
                sys.exit("%s: mutant %s has no '%s'" % (path, m["name"], k))
        for f in m["files"]:
            for old, new in f["subs"]:
                if len(old) != len(new):
                    sys.exit("%s: mutant %s: %d lines replaced by %d" %
                             (path, m["name"], len(old), len(new)))
    return mutants


def apply(m, saved):
    """Apply @m, keeping each file's original text in @saved; raise
    ValueError naming what is wrong."""
    for f in m["files"]:
        p = os.path.join(REPO, f["path"])
        if p not in saved:
            saved[p] = open(p).read()
        new = open(p).read()
        for old, rep in f["subs"]:
            o, r = "\n".join(old), "\n".join(rep)
            if new.count(o) != 1:
                raise ValueError("%s: the text to replace occurs %d times: %s" %
                                 (f["path"], new.count(o), old[0].strip()))
            new = new.replace(o, r)
        with open(p, "w") as out:
            out.write(new)


def restore(saved):
    for p, text in saved.items():
        with open(p, "w") as out:
            out.write(text)


def series_applies(driver):
    """Does real/patches/DRIVER/series still apply to the tree? ('' or why)"""
    pdir = os.path.join(REPO, "real", "patches", driver)
    work = tempfile.mkdtemp(prefix="mutate-real.")
    try:
        base = os.path.join(work, "-")
        for f in TREE_FILES[driver]:
            os.makedirs(os.path.join(base, os.path.dirname(f)), exist_ok=True)
            shutil.copy(os.path.join(KDIR, f), os.path.join(base, f))
        for ln in open(os.path.join(pdir, "series")):
            w = ln.split("#")[0].split()
            if len(w) < 2:
                continue
            name, on = w[0], w[1]
            dst = os.path.join(work, name)
            shutil.copytree(os.path.join(work, on), dst)
            if on == "-":
                continue
            r = subprocess.run(["patch", "-s", "-p1", "-d", dst, "-i",
                                os.path.join(pdir, name + ".patch")],
                               capture_output=True, text=True)
            if r.returncode:
                return "%s.patch does not apply: %s" % (name, r.stdout.strip()[:200])
        return ""
    finally:
        shutil.rmtree(work)


def timed_out(log):
    """Did kunit.py stop the kernel at its time limit?"""
    try:
        return "timed out after" in open(log, errors="replace").read()
    except OSError:
        return False


def failed_cases(path):
    try:
        top = json.load(open(path))
    except (OSError, ValueError):
        return None
    out = []

    def walk(g, prefix):
        for c in g.get("test_cases", []):
            if c.get("status") not in ("PASS", "SKIP"):
                out.append(prefix + c["name"])
        for s in g.get("sub_groups", []):
            walk(s, prefix + s["name"] + ".")
    walk(top, "")
    return out


def run_suites(glob, log, debug=False):
    # kunit.py's 300 s default is too short on a loaded machine: a suite
    # cut off by it would read as a failure, that is as a mutant caught
    args = "'%s'" % glob if debug else "--timeout=%d '%s'" % (TIMEOUT, glob)
    env = dict(os.environ, KUNIT_W1="0", KUNIT_ARGS=args)
    env.pop("KUNIT_FLAVOUR", None)
    script = "kunit-debug.sh" if debug else "kunit.sh"
    results = DEBUG_RESULTS if debug else RESULTS
    if os.path.exists(results):
        os.remove(results)
    t0 = time.time()
    with open(log, "w") as f:
        r = subprocess.run(["nice", "-n", "10", os.path.join(REPO, "scripts", script)],
                           stdout=f, stderr=subprocess.STDOUT, env=env, cwd=REPO)
    return r.returncode, failed_cases(results), time.time() - t0


def fast_glob(glob):
    """The suites of @glob less the explorations (real_*_explore, minutes
    each): replay and equivalence, "[re][eq]" after the driver's name."""
    if glob.endswith("_*"):
        return glob[:-1] + "*_[re][eq]*"
    return glob.rstrip("*") + "_[re][eq]*"


def debug_verdict(m, rc, log):
    """A debug-kernel mutant: caught when the scan failed and the log
    holds what the mutant expects; the first such line as the detail."""
    try:
        text = open(DEBUG_LOG, errors="replace").read()
    except OSError:
        return "stillborn", "no kernel log (the build failed?), see %s" % os.path.relpath(log, REPO)
    hit = re.search(r"^.*(%s).*$" % m["expect"], text, re.M)
    if rc and hit:
        return "caught", "the log: " + hit.group(0).strip()[:160]
    return "missed", "exit %d, %s" % (rc, "the log has it but the scan passed" if hit else
                                     "no '%s' in the log" % m["expect"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mutants", default=LIST, help="the list (default scripts/mutate-real.txt)")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--fast-first", action="store_true",
                    help="run each mutant against the replay and equivalence suites "
                    "first, and the explorations only if those pass")
    a = ap.parse_args()
    mutants = parse(a.mutants)
    debug = any("expect" in m for m in mutants)
    if a.only:
        mutants = [m for m in mutants if m["name"] in a.only]
        if not mutants:
            sys.exit("mutate-real: no mutant named %s" % ", ".join(a.only))
    if a.list:
        for m in mutants:
            print("%-36s %-18s %s" % (m["name"], m["suites"], m["what"]))
        return 0
    outdir = os.path.join(REPO, "build", "mutate-real")
    os.makedirs(outdir, exist_ok=True)

    saved = {}

    def on_signal(sig, frame):
        restore(saved)
        sys.exit("mutate-real: interrupted; files restored")
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)

    globs = sorted({m["suites"] for m in mutants})
    glob = globs[0] if len(globs) == 1 else "bqlm_real_*"
    if not debug:
        if a.fast_first:
            glob = fast_glob(glob)
        print("mutate-real: the unmutated suites (%s) first ..." % glob, flush=True)
        rc, failed, secs = run_suites(glob, os.path.join(outdir, "base.log"))
        if rc or failed is None or failed:
            print("mutate-real: the unmutated suites fail (exit %d, %s): fix them first; "
                  "build/mutate-real/base.log" % (rc, failed), file=sys.stderr)
            return 1
        print("mutate-real: unmutated: pass (%.0f s)" % secs, flush=True)
    counts = {"caught": 0, "missed": 0, "stillborn": 0, "timeout": 0}
    t0 = time.time()
    for m in mutants:
        log = os.path.join(outdir, m["name"] + ".log")
        verdict, detail, secs = "stillborn", "", 0.0
        try:
            apply(m, saved)
            drivers = {f["path"].split("/")[2] for f in m["files"]
                       if f["path"].startswith("real/patches/")}
            why = "; ".join(filter(None, (series_applies(d) for d in sorted(drivers))))
            if why:
                detail = why
            else:
                tier = ""
                if a.fast_first and not debug:
                    rc, failed, secs = run_suites(fast_glob(m["suites"]), log)
                    tier = " (replay and equivalence suites)"
                    if not failed and not timed_out(log):
                        rc, failed, more = run_suites(m["suites"], log)
                        secs += more
                        tier = " (the explorations too)"
                else:
                    rc, failed, secs = run_suites(m["suites"], log, debug)
                if debug:
                    verdict, detail = debug_verdict(m, rc, log)
                elif timed_out(log):
                    verdict = "timeout"
                    detail = ("the kernel ran past %d s (MUTATE_REAL_TIMEOUT): a hang, "
                              "or a loaded machine; not counted as caught, see %s" %
                              (TIMEOUT, os.path.relpath(log, REPO)))
                elif failed is None:
                    detail = "no results (exit %d): the build or the boot failed, see %s" % (
                        rc, os.path.relpath(log, REPO))
                elif failed:
                    verdict = "caught"
                    detail = "%d failed%s: %s%s" % (len(failed), tier, ", ".join(failed[:3]),
                                                   ", ..." if len(failed) > 3 else "")
                else:
                    verdict = "missed"
                    detail = "every case passed"
        except ValueError as e:
            detail = str(e)
        finally:
            restore(saved)
            saved.clear()
        counts[verdict] += 1
        print("%-9s %-34s %s\n          %s (%.0f s)" % (verdict.upper(), m["name"], m["what"],
                                                     detail, secs), flush=True)
    print("\nmutate-real: %d mutants: %d caught, %d missed, %d stillborn, %d timed out (%.0f s)" %
          (len(mutants), counts["caught"], counts["missed"], counts["stillborn"],
           counts["timeout"], time.time() - t0))
    return 0 if counts["caught"] == len(mutants) else 1


if __name__ == "__main__":
    sys.exit(main())
