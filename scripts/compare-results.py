#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# compare-results.py KERNEL_JSON USERSPACE_JSON
#
# Compare the kernel run (kunit.py run --json) with the userspace run
# (kunit.py parse --json of the CMocka runner's KTAP): the same suites, the
# same cases and parameters, the same verdicts. Two kinds of suite are
# allowed to differ, by design:
#  - *_conformance suites compare the model with the kernel's own code,
#    and bqlm_real_* suites run the kernel's own drivers (real/); in
#    userspace every one of their cases must be reported SKIP;
#  - suites in USERSPACE_ONLY (golden-vector replay) do not exist in the
#    kernel run.
# Prints one line per difference and exits 1 if there is any.

import json
import sys

USERSPACE_ONLY = {"bqlm_dql_golden"}


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


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare-results.py KERNEL_JSON USERSPACE_JSON")
    kern, user = load(sys.argv[1]), load(sys.argv[2])
    diffs = []
    for name in sorted(set(kern) | set(user)):
        suite = name.split(".")[0]
        k, u = kern.get(name), user.get(name)
        if suite in USERSPACE_ONLY:
            if k is not None:
                diffs.append(f"{name}: userspace-only suite ran in the kernel")
            continue
        if k is None or u is None:
            where = "kernel" if k is None else "userspace"
            diffs.append(f"{name}: missing from the {where} run")
        elif kernel_only(suite):
            if u != "SKIP":
                diffs.append(f"{name}: kernel-only case not skipped in userspace ({u})")
        elif k != u:
            diffs.append(f"{name}: kernel {k}, userspace {u}")
    for d in diffs:
        print("compare-results: " + d)
    same = sum(1 for n in kern if n in user)
    kern_only = sum(1 for n in kern if kernel_only(n.split(".")[0]))
    print(f"compare-results: {same} cases in both runs, {kern_only} kernel-only "
          f"(conformance, real code), {len(diffs)} differences")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
