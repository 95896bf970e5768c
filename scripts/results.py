#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# results.py [--out FILE] [--bqlm PATH] [--build DIR]
#
# "make results": write docs/results.md, the project's measured figures,
# from the runs themselves, so that no figure is copied by hand:
#  - the test runs found in build/ (make check, make kunit for each
#    architecture that was run, and their comparison);
#  - the explorer's verdicts, state counts and depths for the variants and
#    profiles the docs discuss, run now with build/bqlm;
#  - the simulator's latency and throughput for the seeds' links, run now;
#  - the fragments other targets leave in build/results/*.md (make lkmm,
#    make audit, make kunit-stack, make fuzz, make mutate, ...), each
#    included as it is.
# State counts, depths and verdicts are exact and the same on every host;
# times are this machine's, under whatever load it had.

import argparse
import glob
import json
import os
import platform
import re
import subprocess
import sys
import time

# What the explorer tables run: (model, label, options).
EXPLORE = {
    "usbnet": [
        ("no-bql", "--variant no-bql"),
        ("v1", "--variant v1"),
        ("merged", "--variant merged"),
        ("fix-reset", "--variant fix-reset"),
        ("fixed", "--variant fixed"),
        ("fixed, 5 packets", "--variant fixed --packets 5"),
    ],
    "tun": [
        ("stock, sc", "--variant stock --memory-model sc"),
        ("stop-2019, sc", "--variant stop-2019 --memory-model sc"),
        ("backpressure, sc", "--variant backpressure --memory-model sc"),
        ("backpressure, tso", "--variant backpressure --memory-model tso"),
        ("backpressure-nobarrier, tso",
         "--variant backpressure-nobarrier --memory-model tso"),
        ("backpressure-room, tso", "--variant backpressure-room --memory-model tso"),
        ("veth (linux-source-6.12's), tso", "--variant veth --memory-model tso"),
        ("veth before 5442a9da6978, tso",
         "--variant veth-dc82a33297fc --memory-model tso"),
    ],
    "bql-xoff": [
        ("with the barriers, tso", "--memory-model tso"),
        ("--no-barrier, tso", "--memory-model tso --no-barrier"),
    ],
    "nic": None,        # every profile of 'bqlm list'
}

# The sweeps (bqlm explore MODEL --sweep TIME): (label, options). The two
# bugs whose counterexamples need bounds above the defaults, and the
# generic driver for as long as the budget lets it deepen.
SWEEPS = [
    ("airoha, stop after the doorbell decision",
     "nic --profile airoha-stop-after-doorbell --sweep 60"),
    ("mvpp2, unserialised completers", "nic --profile mvpp2-txq-done-unlocked --sweep 60"),
    ("the generic driver, 30 s", "nic --profile generic --sweep 30"),
]

# The simulator runs: (label, options).
SIM = [
    ("100 Mbit/s, no-bql", "usbnet --link 100mbit --usb 3 --variant no-bql --duration 10s"),
    ("100 Mbit/s, fixed", "usbnet --link 100mbit --usb 3 --variant fixed --duration 10s"),
    ("2.5 Gbit/s, no-bql", "usbnet --link 2.5gbit --usb 3 --variant no-bql --duration 10s"),
    ("2.5 Gbit/s, fixed", "usbnet --link 2.5gbit --usb 3 --variant fixed --duration 10s"),
]


def run(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr, time.monotonic() - t0


def explore_row(bqlm, model, label, opts):
    rc, out, secs = run([bqlm, "explore", model] + opts.split() + ["--no-trace"])
    m = re.search(r"states (\d+), transitions (\d+), max depth (\d+)", out)
    v = re.search(r"^(VIOLATION: [a-z-]+ \(depth \d+\)|OK: no invariant violated)",
                  out, re.M)
    if not m or not v or rc not in (0, 1):
        return f"| {label} | `{opts}` | - | - | - | run failed (exit {rc}) | - |"
    verdict = v.group(1).replace("VIOLATION: ", "").replace(
        "OK: no invariant violated", "OK")
    return (f"| {label} | `{opts}` | {m.group(1)} | {m.group(2)} | "
            f"{m.group(3)} | {verdict} | {secs:.2f} |")


def nic_profiles(bqlm):
    rc, out, _ = run([bqlm, "list"])
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("nic profiles"):
            on = True
        elif on and line.startswith("  "):
            names.append(line.split()[0])
        elif on:
            break
    return [(n, f"--profile {n}") for n in names]


def explorer_section(bqlm):
    out = ["## Explorer verdicts", "",
           "Run now with `build/bqlm explore MODEL OPTIONS --no-trace`; "
           "states, transitions, depths and verdicts are exact (the KUnit "
           "suites assert them), the time is this run's wall time.", ""]
    for model, rows in EXPLORE.items():
        if rows is None:
            rows = nic_profiles(bqlm)
        out += [f"### {model}", "",
                "| run | options | states | transitions | max depth | verdict | time s |",
                "|---|---|---|---|---|---|---|"]
        out += [explore_row(bqlm, model, label, opts) for label, opts in rows]
        out.append("")
    return out


def sweep_section(bqlm):
    out = ["## Sweeps (`bqlm explore ... --sweep`)", "",
           "Every bound from the smallest up, level by level, until a "
           "violation or the time budget; the levels reached depend on this "
           "machine's speed, the smallest counterexample does not.", "",
           "| sweep | command | levels run | configurations | result | time s |",
           "|---|---|---|---|---|---|"]
    for label, opts in SWEEPS:
        rc, text, secs = run([bqlm, "explore"] + opts.split() + ["--no-trace"])
        rows = re.findall(r"^ +(\d+) +(\d+) +\d+ +\d+ +\d+ +[\d.]+  (.*)$", text, re.M)
        configs = sum(int(r[1]) for r in rows)
        v = re.search(r"^(VIOLATION at level \d+|OK up to level \d+)", text, re.M)
        b = re.search(r"^bound: (.*)$", text, re.M)
        result = v.group(1) if v else f"run failed (exit {rc})"
        if v and v.group(1).startswith("VIOLATION") and b:
            result += f": {b.group(1)}"
        out.append(f"| {label} | `bqlm explore {opts}` | {len(rows)} | "
                   f"{configs} | {result} | {secs:.1f} |")
    return out + [""]


def sim_section(bqlm):
    out = ["## Simulation (`bqlm sim`)", "",
           "Seeded and deterministic: the figures are the same on every host.",
           "", "| link, variant | ping p50 | ping p99 | throughput | command |",
           "|---|---|---|---|---|"]
    for label, opts in SIM:
        rc, text, _ = run([bqlm, "sim"] + opts.split())
        m = re.search(r"^\s+\S+\s+([\d.]+ ms)\s+([\d.]+ ms)\s+[\d.]+ ms\s+"
                      r"([\d.]+ Mb/s)", text, re.M)
        if rc or not m:
            out.append(f"| {label} | - | - | - | run failed (exit {rc}) |")
        else:
            out.append(f"| {label} | {m.group(1)} | {m.group(2)} | "
                       f"{m.group(3)} | `bqlm sim {opts}` |")
    return out + [""]


def count_json(path):
    def walk(g, acc):
        for c in g.get("test_cases", []):
            acc[c["status"]] = acc.get(c["status"], 0) + 1
        for s in g.get("sub_groups", []):
            walk(s, acc)
        return acc
    with open(path) as f:
        acc = walk(json.load(f), {})
    total = sum(acc.values())
    return (f"{total} cases: {acc.get('PASS', 0)} passed, "
            f"{acc.get('FAILURE', 0)} failed, {acc.get('SKIP', 0)} skipped")


def kernel_read(results_json):
    """The kernel version (and tree) the make kunit run of @results_json
    read from its tree's Makefile (scripts/kunit.sh writes it beside)."""
    p = results_json[:-len("-results.json")] + "-kernel.txt"
    try:
        words = open(p).read().split()
    except OSError:
        return None
    return words[0] if words else None


def tree_version(kdir):
    """VERSION.PATCHLEVEL.SUBLEVEL and EXTRAVERSION of @kdir's Makefile."""
    f = {}
    try:
        for line in open(os.path.join(kdir, "Makefile")):
            m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(\S*)",
                         line)
            if m:
                f.setdefault(m.group(1), m.group(2))
            elif line.startswith("NAME"):
                break
    except OSError:
        return None
    if not f.get("VERSION"):
        return None
    v = f["VERSION"]
    if f.get("PATCHLEVEL"):
        v += "." + f["PATCHLEVEL"]
        if f.get("SUBLEVEL"):
            v += "." + f["SUBLEVEL"]
    return v + f.get("EXTRAVERSION", "")


def kernel_section(build):
    """Which kernel the runs read: the project names no sublevel of its
    own, this page carries the one the last make kunit read."""
    out = ["## The kernel", ""]
    read = kernel_read(os.path.join(build, "kunit-results.json"))
    kdir = os.path.join(os.path.dirname(os.path.abspath(build)), ".cache",
                        "linux-source-6.12")
    if read:
        out.append(f"Linux {read}: Debian's `linux-source-6.12` as the last "
                   "`make kunit` read it (the VERSION, PATCHLEVEL and SUBLEVEL "
                   "of the unpacked tree's Makefile); every real-code suite, "
                   "conformance case and patch of `real/patches/` ran on it.")
    elif tree_version(kdir):
        out.append(f"Linux {tree_version(kdir)}: the unpacked "
                   "`.cache/linux-source-6.12` (its Makefile); no `make kunit` "
                   "run was found in `build/`.")
    else:
        out.append("No kernel tree was found: `make kunit` unpacks Debian's "
                   "`linux-source-6.12`.")
    return out + [""]


def tests_section(build):
    out = ["## Test runs", "",
           "The last run of each target found in `build/` (a target that "
           "was not run is left out); a kernel run names the kernel version "
           "it read.", "",
           "| run | result | file date |", "|---|---|---|"]
    for name, path in [("make check (userspace, ASan+UBSan)", "userspace.ktap"),
                       ("make check (32-bit)", "m32.ktap")]:
        p = os.path.join(build, path)
        if os.path.exists(p):
            last = open(p).read().strip().splitlines()[-1]
            out.append(f"| {name} | {last.split(':', 1)[-1].strip()} | "
                       f"{time.strftime('%Y-%m-%d', time.localtime(os.path.getmtime(p)))} |")
    for p in sorted(glob.glob(os.path.join(build, "kunit*-results.json"))):
        arch = os.path.basename(p)[len("kunit"):-len("-results.json")].strip("-") or "um"
        try:
            res = count_json(p)
        except (OSError, ValueError):
            continue
        kver = kernel_read(p)
        if kver:
            res += f" (Linux {kver})"
        out.append(f"| make kunit ARCH={arch} | {res} | "
                   f"{time.strftime('%Y-%m-%d', time.localtime(os.path.getmtime(p)))} |")
        us = os.path.join(build, "m32-results.json" if arch in ("i386", "arm")
                          else "userspace-results.json")
        if os.path.exists(us):
            rc, text, _ = run([sys.executable, os.path.join(
                os.path.dirname(__file__), "compare-results.py"), p, us])
            line = text.strip().splitlines()[-1] if text.strip() else f"exit {rc}"
            out.append(f"| compare-results ({arch}) | {line} | |")
    return out + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="docs/results.md")
    ap.add_argument("--bqlm", default="build/bqlm")
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    if not os.access(a.bqlm, os.X_OK):
        sys.exit(f"results: {a.bqlm} missing: run make first")
    lines = ["<!-- generated by make results (scripts/results.py): do not edit -->",
             "# Results", "",
             f"Generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on "
             f"{platform.machine()}, {os.cpu_count()} CPUs. `make results` "
             "writes this page again; the README and the docs link here "
             "instead of copying figures.", ""]
    lines += kernel_section(a.build)
    lines += tests_section(a.build)
    lines += explorer_section(a.bqlm)
    lines += sweep_section(a.bqlm)
    lines += sim_section(a.bqlm)
    for frag in sorted(glob.glob(os.path.join(a.build, "results", "*.md"))):
        lines += [open(frag).read().rstrip(), ""]
    tmp = a.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    os.replace(tmp, a.out)
    print(f"results: wrote {a.out}")


if __name__ == "__main__":
    main()
