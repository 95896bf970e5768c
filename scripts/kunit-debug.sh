#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kunit-debug.sh - "make kunit-debug": the KUnit suites in a UML
# kernel with the kernel's debug checks (kunit/debug.kunitconfig: KASAN,
# lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DEBUG_LIST, UBSAN, kmemleak),
# built by scripts/kunit.sh in its own directory (.cache/kunit-build-debug),
# then the kernel log scanned for what those checks print.
#
# Usage: scripts/kunit-debug.sh             build, run, scan
#        scripts/kunit-debug.sh --scan LOG  only scan a kernel log
#
# KUNIT_ARGS is passed on (a suite filter, e.g. 'bqlm_real*'); KUNIT_JOBS too.
# Results: build/kunit-debug-results.json, build/kunit-debug-test.log (the
# kernel log), build/kunit-debug-splats.txt (what the scan found); with
# KUNIT_TAG=NAME (a partial run: make kunit-debug-ci), build/kunit-debug-NAME-*.
#
# Exit status: 1 if a suite failed or the log holds a splat (a BUG, WARNING,
# KASAN or UBSAN report, lockdep report, ODEBUG report, kmemleak report) or
# the final kmemleak scan did not run; otherwise scripts/kunit.sh's.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

# A splat's first line, at the start of a console line (KUnit's own lines
# are indented or start with '#', so a test's message never matches).
SPLAT='^(\[ *[0-9.]+\] )?(BUG: |WARNING: |INFO: |ODEBUG: |UBSAN: |KASAN: |kernel BUG at |Kernel panic|DEBUG_LOCKS_WARN_ON|(kmemleak: )?unreferenced object 0x|kmemleak: [0-9]+ new suspected memory leaks|.*possible circular locking|.*sleeping function called from invalid context|.*list_(add|del) corruption|bqlm kmemleak: no scan)'

# What the suites make the kernel print on purpose, each with its reason;
# anything else that matches SPLAT fails the run.
ALLOW=(
	# kunit/netdevice_conformance_kunit.c queues an object above
	# DQL_MAX_OBJECT on a real queue, to compare the kernel's
	# WARN_ON_ONCE() with the model's -E2BIG: one warning a boot
	'WARNING: .* at include/linux/dynamic_queue_limits.h:[0-9]+ nd_conf_step'
)

# scan LOG OUT: each splat with the lines after it into OUT; prints a
# summary; returns 1 if any was found.
scan() {
	local log=$1 out=$2 n=0 allowed=0 hit ln text a kinds=""
	if [[ ! -s "$log" ]]; then
		echo "kunit-debug: no kernel log ($log)" >&2
		return 1
	fi
	: >"$out"
	while IFS= read -r hit; do
		ln=${hit%%:*}
		text=${hit#*:}
		for a in "${ALLOW[@]}"; do
			if [[ "$text" =~ $a ]]; then
				allowed=$((allowed + 1))
				continue 2
			fi
		done
		n=$((n + 1))
		kinds+=$(sed -E 's/^\[ *[0-9.]+\] //; s/(object|leaks|context|locking|at|in) .*/\1/' <<<"$text")$'\n'
		sed -n "${ln},$((ln + 14))p" "$log" >>"$out"
		echo -- >>"$out"
	done < <(grep -nE "$SPLAT" "$log")
	if ! grep -q 'bqlm kmemleak: scan done' "$log"; then
		echo "kunit-debug: the kmemleak scan after the suites did not run (the kernel did not halt normally?)" >&2
		n=$((n + 1))
	fi
	if [[ $n -eq 0 ]]; then
		echo "kunit-debug: no splat in the kernel log (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DEBUG_LIST, UBSAN, kmemleak); $allowed expected warning(s) of the conformance suite"
		return 0
	fi
	head -80 "$out"
	printf 'kunit-debug: %d splat(s) in %s (all of them in %s):\n%s' \
		"$n" "${log#"$REPO"/}" "${out#"$REPO"/}" \
		"$(printf '%s' "$kinds" | sort | uniq -c | sed 's/^ */    /')" >&2
	echo >&2
	return 1
}

if [[ "${1:-}" == --scan ]]; then
	[[ $# -eq 2 ]] || { echo "usage: scripts/kunit-debug.sh --scan LOG" >&2; exit 2; }
	scan "$2" "${TMPDIR:-/tmp}/kunit-debug-splats.$$"
	exit
fi
[[ $# -eq 0 ]] || { echo "usage: scripts/kunit-debug.sh [--scan LOG]" >&2; exit 2; }

rc=0
# KASAN and lockdep make the suites several times slower than make kunit's
# kernel: kunit.py's 300 s default timeout is not enough.
KUNIT_FLAVOUR=debug \
	KUNIT_ARGS="--timeout=3600 --kernel_args=kmemleak.verbose=1 ${KUNIT_ARGS:-}" \
	"$REPO/scripts/kunit.sh" || rc=$?
name=kunit-debug${KUNIT_TAG:+-$KUNIT_TAG}
log="$REPO/build/$name-test.log"
if [[ ! -f "$log" ]]; then
	echo "kunit-debug: no kernel ran (exit $rc); see build/$name-output.log" >&2
	exit $((rc ? rc : 1))
fi
scan "$log" "$REPO/build/$name-splats.txt" || rc=1
exit "$rc"
