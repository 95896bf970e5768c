#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-help.sh README: every make target README names ("make TARGET"
# anywhere, and each command of its "## Targets" table) has its line in
# "make help", which is made of the "## " comments beside the targets.
# Exit 1 naming each target that has none.
set -euo pipefail
readme=${1:?usage: scripts/check-help.sh README.md}
cd "$(dirname "${BASH_SOURCE[0]}")/.."

help=$(${MAKE:-make} -s --no-print-directory help)
listed=$(sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p' <<<"$help" | sort -u)
[[ -n "$listed" ]] || { echo "check-help: FAIL: make help lists no target"; exit 1; }

# "make TARGET" anywhere; in the table's first column also a bare
# `TARGET` (as in "`make install` / `uninstall`")
named=$({
	grep -o 'make [a-z][a-z0-9-]*' "$readme" | cut -d' ' -f2
	awk '/^## Targets/ { on = 1; next } /^## / { on = 0 }
		on && /^\| `/ { split($0, col, "|"); print col[2] }' "$readme" |
		grep -o '`[a-z][a-z0-9-]*' | tr -d '`' | grep -vx make
} | sort -u)
[[ -n "$named" ]] || { echo "check-help: FAIL: $readme names no target"; exit 1; }

missing=$(comm -23 <(printf '%s\n' "$named") <(printf '%s\n' "$listed"))
if [[ -n "$missing" ]]; then
	for t in $missing; do
		echo "check-help: FAIL: $readme names 'make $t', which make help does not list (no '## ' on its target's line, or no such target)"
	done
	exit 1
fi
echo "check-help: $(wc -l <<<"$named") targets named by $readme, each listed by make help ($(wc -l <<<"$listed") targets)"
