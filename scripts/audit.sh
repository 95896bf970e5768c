#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/audit.sh - "make audit" and "make audit-selftest" (docs/audit.md).
#
#   scripts/audit.sh            every BQL driver of drivers/net, each rule of
#                               audit/ over it (audit/audit.py)
#   scripts/audit.sh --selftest the re-created upstream bugs of audit/tests/
#                               (audit/selftest.py)
#
# Environment:
#   KDIR        a kernel tree to read instead of Debian's linux-source-6.12
#               (unpacked once into .cache/, as make kunit does); it is
#               only read
#   FILES       files or directories of the tree (relative to it) instead of
#               the whole of drivers/net
#   AUDIT_ARGS  more audit.py arguments (--options, --rules C1,C2, --jobs N,
#               --timeout S, --no-explore)
#   AUDIT_JOBS  parallel spatch runs (default: nproc)
#   AUDIT_OUT   where the outputs go (default: build/)
#
# Outputs: build/audit.txt (the table), build/audit.json (--json),
# build/audit-drivers/*.opts (each driver's pattern as the audit reads it),
# build/audit-descriptions.md (each driver's bqlm description, option by
# option with its evidence, and each finding's proof on it),
# build/audit.status (the exit status, one number);
# build/audit-selftest.txt, .json and .md (recall and false alarms per
# rule) for --selftest.
#
# Exit status: audit.py's (0 clean, 1 findings, 2 usage, 3 incomplete), or
# 2 if something must be installed first and we are not root. "make
# audit"'s recipe exits with it: make succeeds for 0 and otherwise ends on
# "Error N", N this status (docs/audit.md, "Exit status").

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# die, info, elapsed, Debian's kernel tree and the apt helpers, shared
# with scripts/kunit.sh; info on stderr (the table is on stdout)
KTREE_PROG=audit.sh
KTREE_INFO_FD=2
# shellcheck source=scripts/ktree.sh
source "$REPO/scripts/ktree.sh"
CACHE="$REPO/.cache"
RESULTS=${AUDIT_OUT:-$REPO/build}
BQLM="$REPO/build/bqlm"
SELFTEST=0

# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
	local rc=$?

	if [[ -n "$UNPACK_TMP" ]]; then
		rm -rf "$UNPACK_TMP"
	fi
	if [[ $SELFTEST -eq 0 ]] && mkdir -p "$RESULTS" 2>/dev/null; then
		echo "$rc" >"$RESULTS/audit.status"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for arg in "$@"; do
	case $arg in
	--selftest) SELFTEST=1 ;;
	*) die 2 "unknown argument '$arg' (usage: scripts/audit.sh [--selftest])" ;;
	esac
done

t_start=$(date +%s)
command -v python3 >/dev/null || apt_install "python3 is missing" python3
command -v spatch >/dev/null ||
	apt_install "spatch (Coccinelle) is missing" coccinelle
command -v patch >/dev/null || apt_install "patch is missing" patch
[[ -x "$BQLM" ]] ||
	die 2 "$BQLM is missing: run make first (make audit builds it)"

if [[ -n "${KDIR:-}" ]]; then
	[[ -d "$KDIR" ]] || die 2 "KDIR=$KDIR is not a directory"
	KDIR=$(cd "$KDIR" && pwd -P)
	info "kernel tree: $KDIR (from KDIR, read only, Linux $(ktree_version "$KDIR"))"
else
	ktree_lock
	unpack_debian_source >&2
	ktree_unlock
	KDIR="$CACHE/$SRC_PKG"
fi

extra=()
env_words AUDIT_ARGS extra 2
jobs=${AUDIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$RESULTS"
rc=0
if [[ $SELFTEST -eq 1 ]]; then
	python3 "$REPO/audit/selftest.py" --kdir "$KDIR" --jobs "$jobs" \
		--bqlm "$BQLM" --json "$RESULTS/audit-selftest.json" \
		--md "$RESULTS/audit-selftest.md" \
		"${extra[@]}" | tee "$RESULTS/audit-selftest.txt" || rc=${PIPESTATUS[0]}
	printf 'make audit-selftest: exit %d, %s; report in build/audit-selftest.txt\n' \
		"$rc" "$(elapsed "$t_start")"
	exit "$rc"
fi
files=()
[[ -z "${FILES:-}" ]] || files=(--files "$FILES")
python3 "$REPO/audit/audit.py" --kdir "$KDIR" "${files[@]}" --jobs "$jobs" \
	--bqlm "$BQLM" --json "$RESULTS/audit.json" \
	--drivers-dir "$RESULTS/audit-drivers" \
	--descriptions "$RESULTS/audit-descriptions.md" --sweep 5 \
	"${extra[@]}" |
	tee "$RESULTS/audit.txt" || rc=${PIPESTATUS[0]}
what=([0]="clean: every rule saw what it needs, no finding"
	[1]="findings, every file read"
	[2]="usage" [3]="incomplete: a file not read, or no finding and a rule that cannot tell or cannot see")
printf 'make audit: audit status %d (%s), %s; table in %s/audit.txt, %s/audit.json\n' \
	"$rc" "${what[$rc]:-?}" "$(elapsed "$t_start")" "$RESULTS" "$RESULTS"
exit "$rc"
