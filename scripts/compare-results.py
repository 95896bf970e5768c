#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# compare-results.py [--kunit-args ARGS] KERNEL_JSON USERSPACE_JSON
#
# Compare the kernel run (kunit.py run --json) with the userspace run
# (kunit.py parse --json of the CMocka runner's KTAP): the same suites, the
# same cases and parameters, the same verdicts. Two kinds of suite are
# allowed to differ, by design:
#  - *_conformance suites compare the model with the kernel's own code,
#    and bqlm_real_* suites run the kernel's own drivers (real/); in
#    userspace every one of their cases must be reported SKIP;
#  - suites in USERSPACE_ONLY (golden-vector replay, allocation failures)
#    do not exist in the kernel run.
#
# --kunit-args gives the arguments the kernel run was made with (make
# kunit's KUNIT_ARGS, shell-quoted). When they filter what the kernel runs
# (kunit.py's filter_glob, --filter, --filter_action), only the cases the
# kernel ran are compared, and the output says so: a userspace case the
# filter left out is not a difference, one the filter_glob selects and the
# kernel did not run is. With --raw_output the kernel run has no JSON:
# nothing is compared.
#
# Prints one line per difference and exits 1 if there is any.

import argparse
import fnmatch
import json
import os
import shlex
import sys

USERSPACE_ONLY = {"bqlm_dql_golden", "bqlm_alloc_failure"}


def kernel_only(suite):
    return suite.endswith("_conformance") or suite.startswith("bqlm_real_")


def flatten(group, prefix, out):
    for case in group.get("test_cases", []):
        out[prefix + case["name"]] = case["status"]
    for sub in group.get("sub_groups", []):
        flatten(sub, prefix + sub["name"] + ".", out)
    return out


def load(path):
    try:
        with open(path) as f:
            top = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"compare-results: cannot read {path}: {e}")
    return flatten(top, "", {})


def kunit_py_args(text):
    """The filtering options of a kunit.py run command line (6.12's)."""
    p = argparse.ArgumentParser(add_help=False)
    for opt in ("--build_dir", "--kunitconfig", "--arch", "--cross_compile",
                "--qemu_config", "--jobs", "--timeout", "--filter",
                "--filter_action", "--run_isolated"):
        p.add_argument(opt)
    for opt in ("--make_options", "--kconfig_add", "--qemu_args",
                "--kernel_args"):
        p.add_argument(opt, action="append")
    for opt in ("--alltests", "--list_tests", "--list_tests_attr"):
        p.add_argument(opt, action="store_true")
    p.add_argument("--raw_output", nargs="?", const="all")
    p.add_argument("--json", nargs="?", const="stdout")
    p.add_argument("filter_glob", nargs="?")
    try:
        args, _ = p.parse_known_args(shlex.split(text))
    except (ValueError, SystemExit) as e:
        sys.exit(f"compare-results: cannot parse the kunit.py arguments '{text}': {e}")
    return args


def glob_selects(glob, name):
    """lib/kunit/executor.c's filter_glob: suite part, then case part."""
    if not glob:
        return True
    parts = name.split(".")
    sglob, _, cglob = glob.partition(".")
    if not fnmatch.fnmatchcase(parts[0], sglob):
        return False
    return not cglob or fnmatch.fnmatchcase(parts[1], cglob)


def main():
    ap = argparse.ArgumentParser(description="compare the kernel and userspace KUnit runs")
    ap.add_argument("--kunit-args", default=os.environ.get("KUNIT_ARGS", ""),
                    help="the kunit.py arguments of the kernel run (default: $KUNIT_ARGS)")
    ap.add_argument("kernel_json")
    ap.add_argument("userspace_json")
    opts = ap.parse_args()

    kargs = kunit_py_args(opts.kunit_args)
    if kargs.raw_output is not None and not os.path.exists(opts.kernel_json):
        print("compare-results: the kernel run printed raw output (--raw_output), "
              "no results: nothing compared")
        return 0
    kern, user = load(opts.kernel_json), load(opts.userspace_json)
    glob = kargs.filter_glob
    filtered = bool(glob or kargs.filter or kargs.filter_action)
    # with --filter_action=skip the filter's cases are reported skipped
    filter_skips = bool(kargs.filter_action)

    diffs = []
    left_out = 0
    for name in sorted(set(kern) | set(user)):
        suite = name.split(".")[0]
        k, u = kern.get(name), user.get(name)
        if suite in USERSPACE_ONLY:
            if k is not None:
                diffs.append(f"{name}: userspace-only suite ran in the kernel")
            continue
        if k is None and filtered:
            # the filter_glob says whether the kernel should have run it;
            # an attribute filter cannot be checked here
            if glob_selects(glob, name) and not kargs.filter:
                diffs.append(f"{name}: missing from the kernel run, though "
                             f"the filter '{glob}' selects it")
            else:
                left_out += 1
            continue
        if k is None or u is None:
            where = "kernel" if k is None else "userspace"
            diffs.append(f"{name}: missing from the {where} run")
        elif kernel_only(suite):
            if u != "SKIP":
                diffs.append(f"{name}: kernel-only case not skipped in userspace ({u})")
        elif k != u and not (filter_skips and k == "SKIP"):
            diffs.append(f"{name}: kernel {k}, userspace {u}")
    for d in diffs:
        print("compare-results: " + d)
    if filtered:
        how = " ".join(x for x in (
            f"filter_glob '{glob}'" if glob else "",
            f"--filter '{kargs.filter}'" if kargs.filter else "",
            f"--filter_action '{kargs.filter_action}'" if kargs.filter_action else "") if x)
        print(f"compare-results: the kernel run was filtered ({how}): only the "
              f"{len(kern)} cases it ran are compared; {left_out} userspace "
              f"cases it did not run are not")
    same = sum(1 for n in kern if n in user)
    kern_only = sum(1 for n in kern if kernel_only(n.split(".")[0]))
    print(f"compare-results: {same} cases in both runs, {kern_only} kernel-only "
          f"(conformance, real code), {len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
