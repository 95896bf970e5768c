#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# record-golden.sh - re-record userspace-tests/data/dql-golden.txt from the
# kernel's own lib/dynamic_queue_limits.c.
#
# Runs the kernel-only suite bqlm_dql_conformance in UML (scripts/kunit.sh,
# same KDIR rules as "make kunit"); its "golden" parameters print every
# step and the real struct dql after it as "bqlm-golden:" lines, which end
# up in build/kunit-test.log. Those lines, with a header naming the kernel,
# become the golden file that the userspace suite bqlm_dql_golden replays.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo/userspace-tests/data/dql-golden.txt
log=$repo/build/kunit-test.log

KUNIT_ARGS="${KUNIT_ARGS:-} bqlm_dql_conformance" "$repo/scripts/kunit.sh"

[ -f "$log" ] || { echo "record-golden: no $log after the run" >&2; exit 1; }
kver=$(grep -m1 -o 'Linux version [^ ]*' "$log" || echo "Linux version unknown")
tmp=$(mktemp "$out.XXXXXX")
{
	echo "# DQL golden vectors: the real struct dql after every step."
	echo "# Recorded by scripts/record-golden.sh ('make kunit-golden') from"
	echo "# $kver (UML, 64-bit) running the bqlm_dql_conformance suite."
	echo "# seed step op arg now ret num_queued adj_limit last_obj_cnt stall_thrs"
	echo "#   history_head history[0..3] limit num_completed prev_ovlimit"
	echo "#   prev_num_queued prev_last_obj_cnt lowest_slack slack_start_time"
	echo "#   max_limit min_limit slack_hold_time stall_max last_reap stall_cnt"
	grep -o 'bqlm-golden: .*' "$log" | sed 's/^bqlm-golden: //'
} > "$tmp"
n=$(grep -vc '^#' "$tmp" || true)
if [ "$n" -lt 100 ]; then
	rm -f "$tmp"
	echo "record-golden: only $n golden lines in $log; not replacing $out" >&2
	exit 1
fi
mv "$tmp" "$out"
echo "record-golden: $n steps written to ${out#"$repo"/}"
