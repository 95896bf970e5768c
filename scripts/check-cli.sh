#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-cli.sh BQLM CASES: run each command line of CASES (see its header)
# and check bqlm's exit status and output (a TEXT of "!X": it must not
# contain X). Prints one line per failure and
# a summary; exits 1 if any case failed.
set -uo pipefail
bqlm=$1
cases=$2
pass=0 fail=0 n=0
while IFS=$'\t' read -r want text args; do
	[[ -z "$want" || "$want" == \#* ]] && continue
	n=$((n + 1))
	# shellcheck disable=SC2086 # ARGS are split on blanks on purpose
	out=$("$bqlm" $args 2>&1)
	got=$?
	if [[ "$got" != "$want" ]]; then
		echo "check-cli: FAIL: bqlm $args: exit $got, want $want"
		echo "$out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	elif [[ "$text" == !* && "$out" == *"${text#!}"* ]]; then
		echo "check-cli: FAIL: bqlm $args: output has '${text#!}'"
		echo "$out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	elif [[ "$text" != !* && "$out" != *"$text"* ]]; then
		echo "check-cli: FAIL: bqlm $args: output lacks '$text'"
		echo "$out" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done <"$cases"
echo "check-cli: $n command lines: $pass as expected, $fail not"
[[ $fail -eq 0 && $n -gt 0 ]]
