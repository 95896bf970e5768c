#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kunit-schedules: every schedule of real/schedules/ replayed on the
# real code as make kunit-replay replays it, with the minidriver its line
# "# driver: NAME" names (none: the one the harness picks by the
# schedule's configuration). The schedules are the replays that
# docs/findings.md and docs/usbnet-drivers.md quote: one that no longer
# describes its minidriver (an entry's model changed under it) or no
# longer ends in its declared check fails here, not in a reader's hands.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
n=0
fails=0
shopt -s nullglob
for f in "$REPO"/real/schedules/*.sched; do
	drv=$(sed -n 's/^# driver: *\([a-z0-9_]*\).*/\1/p' "$f" | head -1)
	n=$((n + 1))
	name=${f#"$REPO"/}
	rc=0
	out=$("$REPO/scripts/kunit-replay.sh" "$f" ${drv:+"$drv"} 2>&1) || rc=$?
	if [[ $rc -eq 0 ]] && grep -q "did what the model did" <<<"$out"; then
		printf 'ok    %s (%s): %s\n' "$name" "${drv:-by configuration}" \
			"$(grep -E 'model at step' <<<"$out" | paste -sd' ' || true)"
	else
		printf 'FAIL  %s (%s), exit %d: %s\n' "$name" "${drv:-by configuration}" \
			"$rc" "$(grep -E 'REFUSED|FAILED|differ|error' <<<"$out" | head -3 | paste -sd' ' || true)"
		fails=$((fails + 1))
	fi
done
((n)) || { echo "kunit-schedules: real/schedules/ has no schedule" >&2; exit 1; }
echo "kunit-schedules: $n schedules replayed on the real code, $fails failed"
[[ $fails -eq 0 ]]
