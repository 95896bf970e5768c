#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kunit-replay.sh FILE [DRIVER] - replay a usbnet schedule on the
# real usbnet.c in the KUnit kernel ("make kunit-replay SCHEDULE=FILE
# [DRIVER=NAME]").
#
# FILE is what "build/bqlm explore usbnet ... --schedule FILE" writes. Its
# comments are dropped and its lines joined with ';' (words with ',') so
# that it goes on the kernel command line as bqlm_kunit.schedule=...; the
# suite bqlm_real_usbnet_schedule parses it with the model's parser, runs
# it on the model and on the real code in lockstep and prints each step.
# DRIVER is the minidriver of real/usbnet/minidrivers.h whose code runs
# (bqlm_kunit.driver=NAME): the schedule's tx_fixup, headers, flags and
# maxpacket must be its description, or the schedule is refused with the
# reason; without DRIVER, the first minidriver the schedule describes.
# The kernel's log goes to build/kunit-replay-test.log (kunit.sh
# KUNIT_TAG=replay), never over the full run's build/kunit-test.log.
# Exit status: 0 when the real code did what the model did, 1 otherwise
# (or on a bad or refused schedule), 2 for a bad invocation.
set -euo pipefail

die() {
	printf 'kunit-replay: error: %s\n' "$2" >&2
	exit "$1"
}

[[ ($# -eq 1 || $# -eq 2) && -n "$1" ]] ||
	die 2 "usage: make kunit-replay SCHEDULE=FILE [DRIVER=NAME]"
file=$1
driver=${2:-}
[[ -f "$file" && -r "$file" ]] || die 2 "cannot read schedule '$file'"
[[ -z "$driver" || "$driver" =~ ^[a-z][a-z0-9_]*$ ]] ||
	die 2 "DRIVER=$driver is not a minidriver's name (real/usbnet/minidrivers.h: a-z, 0-9, '_')"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
if [[ -s "$file" ]] && ! grep -Iq . "$file"; then
	die 1 "$file is not a text file (a schedule is what 'bqlm explore usbnet ... --schedule FILE' writes)"
fi

# one line: comments off, blanks dropped, words ',' and lines ';' (no
# line left is not an error of the pipeline: it is said below)
line=$({ sed -e 's/#.*//' -e 's/[[:space:]]\{1,\}/,/g' -e 's/^,//' -e 's/,$//' "$file" |
	grep -v '^$' || true; } | paste -sd';' -)
[[ -n "$line" ]] || die 1 "$file holds no schedule: it is empty, or comments only"
[[ "$line" == *step,* ]] || die 1 "$file holds no steps ('step' lines)"
[[ "$line" =~ ^[A-Za-z0-9,\;._x-]+$ ]] ||
	die 1 "$file has characters a schedule does not use (words, numbers, '-', '.')"
((${#line} < 3500)) || die 1 "$file is too long for the kernel command line (${#line} bytes)"

log="$REPO/build/kunit-replay-test.log"
mkdir -p "$REPO/build"
rm -f "$log"	# never read an earlier run's log
args="--kernel_args=bqlm_kunit.schedule=$line"
[[ -z "$driver" ]] || args+=" --kernel_args=bqlm_kunit.driver=$driver"
rc=0
KUNIT_TAG=replay \
KUNIT_ARGS="'bqlm_real_usbnet_schedule' --raw_output=kunit $args" \
	"$REPO/scripts/kunit.sh" >"$REPO/build/kunit-replay.log" 2>&1 || rc=$?
# the kernel's parser refused it (the same parser as the model's): say why
if [[ -f "$log" ]] && grep -q '^bad schedule: ' "$log"; then
	die 1 "the kernel refused $file: $(grep -m1 '^bad schedule: ' "$log" | sed 's/^bad schedule: //')"
fi
if [[ ! -f "$log" ]] || ! grep -q 'real_usbnet_schedule: schedule:' "$log"; then
	tail -20 "$REPO/build/kunit-replay.log"
	grep -E 'bad schedule|Expected' "$log" 2>/dev/null | sed 's/^ *# *//' || true
	die 1 "the schedule did not run (exit $rc; build/kunit-replay.log)"
fi
grep -E 'real_usbnet_schedule|EXPECTATION|ASSERTION|Expected|bad schedule|refused|step [0-9]+' "$log" |
	sed -e 's/^ *# real_usbnet_schedule: //'
if [[ $rc -eq 0 ]] && grep -Eq '^ *ok [0-9]+ real_usbnet_schedule$' "$log"; then
	echo "kunit-replay: the real usbnet.c did what the model did"
	exit 0
fi
if grep -q 'refused: the schedule is not for' "$log"; then
	echo "kunit-replay: REFUSED: $(grep -o 'refused: the schedule is not for.*' "$log" | head -1)"
	exit 1
fi
echo "kunit-replay: FAILED (kernel log in build/kunit-replay-test.log)"
exit 1
