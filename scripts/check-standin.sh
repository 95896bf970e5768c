#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-standin.sh BIN - check the userspace stand-in of <kunit/test.h>
# with its own tests (userspace-tests/selftest/, built into BIN).
#
# Two of BIN's cases fail on purpose. The run must fail with exactly those
# two, and its KTAP must contain, in this order, the lines below: the
# deferred actions' order, a failed _MSG expectation and assertion with
# their messages, the speed attributes as lib/kunit prints them. Then the
# kernel's filter_glob semantics of the runner's GLOB.
set -euo pipefail

bin=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT

rc=0
"$bin" >"$out" 2>/dev/null || rc=$?
fail() {
	printf 'check-standin: %s\n' "$*" >&2
	sed 's/^/check-standin:   | /' "$out" >&2
	exit 1
}
[[ $rc -eq 1 ]] || fail "$bin exited with $rc, not 1 (two cases fail on purpose)"

# the lines that must appear, in order (each a fixed string)
want=(
	"    ok 1 standin_actions_register"
	"    ok 2 standin_actions_ran_in_reverse"
	"    ok 3 standin_action_or_reset"
	"    # standin_assert_msg_fails: ASSERTION FAILED at userspace-tests/selftest/standin_test.c:"
	"    # standin_assert_msg_fails: Expected 1 + 1 == 3, but"
	"    # standin_assert_msg_fails:     1 + 1 == 2 (0x2)"
	"    # standin_assert_msg_fails: step 7 of scenario two-queues"
	"    not ok 4 standin_assert_msg_fails"
	"    ok 5 standin_actions_ran_after_assert"
	"    # standin_expect_msg_fails: field limit"
	"    # standin_expect_msg_fails: memory model of case 2"
	"    # standin_expect_msg_fails: Expected a == b (4 bytes), first difference at byte 2: 0x63 vs 0x64"
	"    # standin_expect_msg_fails: slot 3"
	"    # standin_expect_msg_fails: pointer a"
	"    # standin_expect_msg_fails: depth 12"
	"    not ok 6 standin_expect_msg_fails"
	"    ok 7 standin_expect_went_on"
	"not ok 1 standin_actions"
	"    # Subtest: standin_attributes"
	"    # speed: slow"
	"    1..4"
	"    # standin_slow.speed: slow"
	"    ok 1 standin_slow"
	"    # standin_very_slow.speed: very_slow"
	"    ok 2 standin_very_slow"
	"        ok 2 value-2"
	"    # standin_param.speed: normal"
	"    ok 3 standin_param"
	"    ok 4 standin_unset"
	"ok 2 standin_attributes"
	"userspace: 10 passed, 2 failed, 0 skipped"
)
line=0
for w in "${want[@]}"; do
	n=$(tail -n +$((line + 1)) "$out" | grep -n -F -m1 -- "$w" | cut -d: -f1) ||
		fail "missing, or out of order: '$w'"
	line=$((line + n))
done
# nothing else fails, and no case of the unset one prints a speed
[[ $(grep -c 'not ok' "$out") -eq 3 ]] || fail "other cases fail than the two meant to"
! grep -q 'standin_unset.speed' "$out" || fail "a speed printed for a case without one"
# the message is printed once per failure, after the values
[[ $(grep -c 'step 7 of scenario two-queues' "$out") -eq 1 ]] || fail "the assertion's message is not printed once"
! grep -q 'never printed' "$out" || fail "a passing expectation printed its message"

# GLOB as the kernel's filter_glob: suite part, then case part
list=$("$bin" --list 'standin_*.*ran*')
[[ $list == $'standin_actions.standin_actions_ran_in_reverse\nstandin_actions.standin_actions_ran_after_assert' ]] ||
	fail "--list 'standin_*.*ran*' gave: $list"
list=$("$bin" --list 'standin_attr*')
[[ $(wc -l <<<"$list") -eq 4 ]] || fail "--list 'standin_attr*' gave: $list"
echo "check-standin: the stand-in's actions, messages, attributes and globs as expected (2 cases failed on purpose)"
