#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kunit-driver.sh NAME|all - the three real-code suites of usbnet
# (bqlm_real_usbnet_replay, _equivalence, _explore) for one minidriver of
# real/usbnet/minidrivers.h ("make kunit-driver DRIVER=NAME"), or for all
# of them ("make kunit-drivers"), in the KUnit kernel, then a summary
# table of what each case ran.
#
# The kernel gets bqlm_kunit.driver=NAME: the suites then run that
# minidriver's own rows (real_usbnet_driver_rows() in
# kunit/real_usbnet_kunit.c): the model's witnesses on merged and fixed
# replayed on its code, nothing found with both fixes, random paths and
# the search on fixed and with the fixes, its reset_resume(), its
# suspend() under autosuspend on fixed and with the fixes. The log goes
# to build/kunit-driver-NAME-test.log (KUNIT_TAG); with all, the table is
# also written as markdown to build/usbnet-drivers.md.
# Exit status: 0 when every case passed, 1 otherwise, 2 for a bad
# invocation (an unknown minidriver: the known ones are listed).
set -euo pipefail

die() {
	printf 'kunit-driver: error: %s\n' "$2" >&2
	exit "$1"
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
table="$REPO/real/usbnet/minidrivers.h"
[[ $# -eq 1 && -n "$1" ]] || die 2 "usage: make kunit-driver DRIVER=NAME (or make kunit-drivers)"
name=$1
known=$(sed -n 's/^BQLM_RUSBNET_MINIDRIVER(\([a-z0-9_]*\),.*/\1/p' "$table")
if [[ "$name" != all ]] && ! grep -qx -- "$name" <<<"$known"; then
	die 2 "unknown minidriver '$name'; real/usbnet/minidrivers.h has: $(paste -sd' ' <<<"$known")"
fi

tag=driver-$name
[[ "$name" != all ]] || tag=drivers
log="$REPO/build/kunit-$tag-test.log"
mkdir -p "$REPO/build"
rm -f "$log"
rc=0
t0=$(date +%s)
# KUNIT_DRIVER_SUITES: which of the three (a KUnit glob after
# bqlm_real_usbnet_): '[re]*' all, '[re][eq]*' replay and equivalence
suites=${KUNIT_DRIVER_SUITES:-[re]*}
[[ "$suites" =~ ^[][a-z*?_]+$ ]] ||
	die 2 "KUNIT_DRIVER_SUITES=$suites is not a suite glob (e.g. '[re][eq]*')"
KUNIT_TAG=$tag \
KUNIT_ARGS="'bqlm_real_usbnet_$suites' --raw_output=kunit --kernel_args=bqlm_kunit.driver=$name" \
	"$REPO/scripts/kunit.sh" >"$REPO/build/kunit-$tag.log" 2>&1 || rc=$?
secs=$(($(date +%s) - t0))
if [[ ! -f "$log" ]] || ! grep -q "bqlm_real_usbnet_" "$log"; then
	tail -20 "$REPO/build/kunit-$tag.log"
	die 1 "the suites did not run (exit $rc; build/kunit-$tag.log)"
fi
md=
[[ "$name" != all ]] || md="$REPO/build/usbnet-drivers.md"
python3 - "$log" "$md" <<'EOF'
import re, sys

log, md = sys.argv[1], sys.argv[2]
rows, order, info, suite, about, skips = {}, [], [], None, {}, {}
for line in open(log, errors="replace"):
    line = line.rstrip("\n")
    m = re.search(r"# real_usbnet_\w+: minidriver (\S+): (.*?), flags (.*?); model: (.*?); runs: (.*?); not run: (.*)$", line)
    if m:
        about[m.group(1)] = dict(zip(("info", "flags", "model", "runs", "not"), m.groups()[1:]))
        continue
    m = re.search(r"# Subtest: (bqlm_real_usbnet_\w+)", line)
    if m:
        suite = m.group(1).replace("bqlm_real_usbnet_", "")
        info = []
        continue
    m = re.search(r"# real_usbnet_\w+: (.*)", line)
    if m:
        info.append(m.group(1))
        continue
    m = re.match(r"\s*(not ok|ok) \d+ (\S+)(.*)", line)
    if not m or not suite or m.group(2).startswith("real_usbnet"):
        continue
    desc, status = m.group(2), m.group(1)
    if "# SKIP" in m.group(3):
        status = "skip"
        skips[desc] = m.group(3).split("# SKIP", 1)[1].strip().split(": ", 1)[-1]
    if desc not in rows:
        rows[desc] = {}
        order.append(desc)
    text = " ".join(info)
    cell = ""
    if suite == "replay":
        wit = re.findall(r"witness of (\S+), (\d+) steps", text)
        ref = re.findall(r"refuses step (\d+)", text)
        viol = re.search(r"model: (\d+) states, violated (0x[0-9a-f]+|0)", text)
        if wit:
            cell = ", ".join(f"{c} ({n})" for c, n in wit)
        elif ref:
            cell = "refused at step " + "/".join(ref)
        elif viol:
            cell = f"none ({viol.group(1)} model states)"
    elif suite == "equivalence":
        e = re.search(r"(\d+) random paths, (\d+) steps", text)
        if e:
            cell = f"{e.group(1)} paths, {e.group(2)} steps"
    elif suite == "explore":
        e = re.search(r"real code: (\d+) states", text)
        v = re.findall(r"(\S+): real code depth (\d+)", text)
        if e:
            cell = f"{e.group(1)} states" + ("".join(f", {c} at {d}" for c, d in v) if v else ", clean")
    rows[desc][suite] = (status, cell)
    info = []

head = ["case", "replay (witness, steps)", "equivalence", "search (1 packet)", "result"]
out = []
fails = 0
for d in order:
    r = rows[d]
    st = [s for s, _ in r.values()]
    res = "FAIL" if "not ok" in st else ("skip" if all(s == "skip" for s in st) else "ok")
    fails += res == "FAIL"
    out.append([d] + [r.get(s, ("", ""))[1] or ("skip" if r.get(s, ("",))[0] == "skip" else "")
                      for s in ("replay", "equivalence", "explore")] + [res])
w = [max(len(str(x[i])) for x in out + [head]) for i in range(len(head))]
for x in [head] + out:
    print("  ".join(str(c).ljust(w[i]) for i, c in enumerate(x)))
print(f"kunit-driver: {len(out)} cases, {fails} failed")

# One row per minidriver: what the kernel says it runs (the line
# "minidriver NAME: ..." of its first case), then its cases' figures.
drows = []
for name, dsc in about.items():
    def cell(what, suite):
        return rows.get(f"{what}-{name}", {}).get(suite, ("", ""))[1]
    res = [rows.get(f"{w}-{name}", {}) for w in ("merged", "fixed", "fixes", "fixed-reset-resume", "fixed-mtu-qlen-1",
                                                   "fixed-disconnect", "fixes-disconnect",
                                                   "fixed-autosuspend", "fixes-autosuspend",
                                                   "fixed-suspend-fails",
                                                   "fixed-autosuspend-fails")]
    st = [s for r in res for s, _ in r.values()]
    ok = "FAIL" if "not ok" in st or not st else "ok"
    def skipped(what):
        r = rows.get(f"{what}-{name}", {})
        return bool(r) and all(s == "skip" for s, _ in r.values())
    def side(what):
        if skipped(what):
            return ["skip", "skip"]
        rep, eq, ex = cell(what, "replay"), cell(what, "equivalence"), cell(what, "explore")
        bad = ("(" in rep and "none" not in rep) or ("at " in ex)
        return [" · ".join(c for c in (rep, eq, ex) if c),
                "violated" if bad else "clean"]
    mtu = "skip: " + skips.get(f"fixed-mtu-qlen-1-{name}", "") if skipped("fixed-mtu-qlen-1") \
        else side("fixed-mtu-qlen-1")[0]
    drows.append([name, dsc["info"] + ": " + dsc["flags"], dsc["model"], dsc["runs"], dsc["not"],
                  side("merged")[0]] + side("fixed") + side("fixes") +
                 [mtu, side("fixed-disconnect")[0], side("fixes-disconnect")[0]] +
                 side("fixed-autosuspend") + side("fixes-autosuspend") + [ok])
dhead = ["minidriver", "driver_info: flags", "model (bqlm explore usbnet)",
         "own code run", "not run", "merged: witnesses (steps) · equivalence · search",
         "fixed: replay · equivalence · search", "fixed",
         "fixes: replay · equivalence · search", "fixes",
         "fixed, TX_QLEN 2 -> 1 by its ndo_change_mtu: equivalence · search",
         "fixed, unplugged: equivalence · search", "fixes, unplugged: equivalence · search",
         "fixed --autosuspend on: replay · equivalence · search", "autosuspend",
         "fixes --autosuspend on: replay · equivalence · search", "fixes, autosuspend",
         "result"]
for x in drows:
    print(f"{x[0]}: fixed {x[7]}, with the fixes {x[9]}, autosuspend {x[14]}, "
          f"with the fixes {x[16]}: {x[-1]}")
if md:
    with open(md, "w") as f:
        f.write("| " + " | ".join(dhead) + " |\n|" + "---|" * len(dhead) + "\n")
        for x in drows:
            f.write("| " + " | ".join(c.replace("|", "\\|") for c in x) + " |\n")
    with open(md.replace(".md", "-cases.md"), "w") as f:
        f.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
        for x in out:
            f.write("| " + " | ".join(x) + " |\n")
EOF
fails=$(grep -c '^ *not ok [0-9]' "$log" || true)
# A kernel that dies in a case (a panic, an oops) leaves its suite without
# a result line: kunit.py with --raw_output still exits 0.
for suite in replay equivalence explore; do
	# shellcheck disable=SC2053 # a glob: the suites asked for
	[[ $suite == $suites ]] || continue
	if ! grep -Eq "^ *(not )?ok [0-9]+ bqlm_real_usbnet_$suite\b" "$log"; then
		grep -m1 -E 'Kernel panic|BUG:|Oops' "$log" >&2 || true
		echo "kunit-driver: suite bqlm_real_usbnet_$suite did not finish (the last case ran above)" >&2
		fails=$((fails + 1))
	fi
done
echo "kunit-driver $name: kernel log in build/kunit-$tag-test.log (${secs}s, kunit.py exit $rc)"
[[ $rc -eq 0 && $fails -eq 0 ]]
