#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-recipes.sh: follow the model-side recipes of docs/hacking.md on a
# scratch copy of the tree: a usbnet variant, a tun variant and a NIC
# profile, one row each in the model's option table, and nothing else. Then check that the
# command line, the help, the option round trip (bqlm_options) and the
# suites' parameters pick them up. Exit 1 if a recipe needs more than its
# row.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
work=$(mktemp -d "${TMPDIR:-/tmp}/bqlm-recipes.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "check-recipes: FAIL: $*"; exit 1; }

git -C "$repo" ls-files -z | (cd "$repo" && xargs -0 cp --parents -t "$work")
cd "$work"

# one row each in the model's option tables
python3 - <<'PY'
def add_row(p, table, row):
    """Append @row to the C table @table of file @p, before its '};'."""
    s = open(p).read()
    i = s.index('static const struct bqlm_profile %s[] = {' % table)
    j = s.index('\n};', i)
    open(p, 'w').write(s[:j] + row + s[j:])

# 1. a usbnet variant: one row of bqlm_usbnet_profiles[]
add_row('model/usbnet/usbnet_options.c', 'bqlm_usbnet_profiles',
        '\n\t{ .name = "recipe-early-reset", .driver = "usbnet", .commit = "-",'
        '\n\t  .desc = "fixed with the reset back before the cancels",'
        '\n\t  .opts = "--bql on --bql-lock on --stop-reset early --resume-sent on" },')
# 2. a NIC profile: one row of bqlm_nic_profiles[]
add_row('model/nic/nic_options.c', 'bqlm_nic_profiles',
        '\n\t{ .name = "recipe-reset0", .driver = "generic", .commit = "-",'
        '\n\t  .desc = "two queues, ndo_stop resets queue 0 only",'
        '\n\t  .opts = "--queues 2 --close stop,napi-off,dma-off,drain,reset0" },')
# 3. a tun variant: one row of bqlm_tun_profiles[]
add_row('model/tun/tun_options.c', 'bqlm_tun_profiles',
        '\n\t{ .name = "recipe-bp-no-mb", .driver = "tun", .commit = "-",'
        '\n\t  .desc = "backpressure without its two barriers, by its properties",'
        '\n\t  .opts = "--stop full --qdisc-only on --opt-in on --recheck check-produce '
        '--wake half --force-wake attach,set-iff,resize" },')
PY
[[ $(git -C "$repo" diff --no-index --stat "$repo/model" "$work/model" | grep -c '|') -eq 3 ]] ||
	fail "the recipes changed more than three files"

make -s -j"$(nproc)" build/bqlm build/asan/bqlm-kunit >build.log 2>&1 ||
	{ tail -20 build.log; fail "the tree with the new rows does not build"; }

b=build/bqlm
$b list | grep -q '^  recipe-early-reset ' || fail "bqlm list lacks the new usbnet variant"
$b list | grep -q '^  recipe-reset0 ' || fail "bqlm list lacks the new NIC profile"
$b list | grep -q '^  recipe-bp-no-mb ' || fail "bqlm list lacks the new tun variant"
# expect_violation WHAT WANT ARGS...: "bqlm explore ARGS" exits 1 and prints WANT
expect_violation() {
	local what=$1 want=$2 out rc
	shift 2
	set +e
	out=$($b explore "$@" --no-trace)
	rc=$?
	set -e
	[[ $rc -eq 1 && "$out" == *"$want"* ]] ||
		fail "$what: exit $rc, want $want"
}
expect_violation "--variant recipe-bp-no-mb (backpressure-nobarrier's stall)" \
	"VIOLATION: stall (depth 33)" tun --variant recipe-bp-no-mb --memory-model tso
expect_violation "--variant recipe-early-reset (the syzbot BUG)" \
	"VIOLATION: dql-over-completion (depth 11)" usbnet --variant recipe-early-reset
expect_violation "--profile recipe-reset0 (the queue-1 stall)" \
	"VIOLATION: stall" nic --profile recipe-reset0
$b help usbnet >/dev/null || fail "bqlm help usbnet"
build/asan/bqlm-kunit 'bqlm_options*' >options.ktap ||
	{ cat options.ktap; fail "the option round trip refuses a new row"; }
build/asan/bqlm-kunit 'bqlm_usbnet.usbnet_symmetry' >sym.ktap || true
grep -q 'ok [0-9]* recipe-early-reset' sym.ktap ||
	fail "usbnet_symmetry has no parameter for the new variant"
build/asan/bqlm-kunit 'bqlm_tun.tun_symmetry' >tsym.ktap || true
grep -q 'ok [0-9]* recipe-bp-no-mb' tsym.ktap ||
	fail "tun_symmetry has no parameter for the new variant"
echo "check-recipes: a usbnet variant, a tun variant and a NIC profile, one row each: listed, explored (depth 11 BUG; depth 33 stall; stall), round-tripped, parameters of the suites"
