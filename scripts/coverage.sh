#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# coverage.sh BUILD MIN_LINES MIN_BRANCHES - gcov/lcov coverage of model/
# from the userspace run in BUILD/cov, an HTML report in BUILD/coverage/,
# and a gate: fail when line or branch coverage of model/ is below the
# given percentages.
set -euo pipefail

build=$1
min_lines=$2
min_branches=$3
info=$build/coverage.info

# (lcov 1.16's geninfo warns about redefined subroutines: noise)
lcov --quiet --capture --rc lcov_branch_coverage=1 \
	--directory "$build/cov/model" --base-directory . \
	--output-file "$info.all" 2> >(grep -v 'redefined at' >&2)
lcov --quiet --rc lcov_branch_coverage=1 --extract "$info.all" \
	"$PWD/model/*" --output-file "$info"
rm -f "$info.all"
genhtml --quiet --branch-coverage --legend --title "bqlmodel model/" \
	--output-directory "$build/coverage" "$info"

summary=$(lcov --rc lcov_branch_coverage=1 --summary "$info" 2>&1)
echo "$summary" | grep -E "lines|branches"
lines=$(echo "$summary" | sed -n 's/.*lines\.*: \([0-9.]*\)%.*/\1/p')
branches=$(echo "$summary" | sed -n 's/.*branches\.*: \([0-9.]*\)%.*/\1/p')
echo "coverage: HTML report in $build/coverage/index.html"

fail=0
if ! awk -v v="$lines" -v m="$min_lines" 'BEGIN { exit !(v >= m) }'; then
	echo "coverage: lines ${lines}% is below the ${min_lines}% gate" >&2
	fail=1
fi
if ! awk -v v="${branches:-0}" -v m="$min_branches" 'BEGIN { exit !(v >= m) }'; then
	echo "coverage: branches ${branches:-0}% is below the ${min_branches}% gate" >&2
	fail=1
fi
[ $fail = 0 ] && echo "coverage: gate passed (lines >= ${min_lines}%, branches >= ${min_branches}%)"
exit $fail
