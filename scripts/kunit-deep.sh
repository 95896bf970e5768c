#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kunit-deep.sh - the deep tier of the real-code suites ("make
# kunit-deep", docs/real-code.md): the bqlm_real_* suites in the UML kernel
# with bqlm_kunit.deep=1 on its command line, which adds the searches of
# the real code at their models' full bounds that "make kunit" skips (they
# take minutes). Same kernel as make kunit: no rebuild if it is built.
#
# Exit status: kunit.sh's, or 1 if a case of the deep tier still skipped
# (the parameter did not reach the kernel).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
log="$REPO/build/kunit-test.log"
mkdir -p "$REPO/build"
rm -f "$log"	# never read an earlier run's log
rc=0
KUNIT_ARGS="'bqlm_real_*' --kernel_args=bqlm_kunit.deep=1" \
	"$REPO/scripts/kunit.sh" || rc=$?
if [[ ! -f "$log" ]]; then
	echo "kunit-deep: no kernel log (exit $rc)" >&2
	exit 1
fi
if grep -q 'SKIP the deep tier' "$log"; then
	grep 'SKIP the deep tier' "$log" >&2
	echo "kunit-deep: cases of the deep tier skipped: bqlm_kunit.deep=1 did not reach the kernel" >&2
	exit 1
fi

echo "kunit-deep: exit $rc"
exit "$rc"
