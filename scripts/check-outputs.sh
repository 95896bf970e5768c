#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-outputs.sh BQLM: the files bqlm writes (--json, --schedule, --csv,
# --svg) are written whole or not at all (tools/cli_out.c):
#  - a write that fails half way (the file size limit, as a full disk
#    would: ulimit -f with SIGXFSZ ignored gives EFBIG) exits 4 with the
#    error and leaves no file and no temporary file;
#  - Ctrl-C (SIGINT) during a long search leaves no file, and an earlier
#    report of the same name as it was.
# Prints one line per failure and a summary; exits 1 if any check failed.
set -uo pipefail
bqlm=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() {
	echo "check-outputs: FAIL: $*"
	fail=$((fail + 1))
}

# limited OPT FILE ARGS...: bqlm ARGS OPT FILE under a 1 KiB file size limit
limited() {
	local opt=$1 file=$2 out rc
	shift 2
	out=$(cd "$dir" && trap '' XFSZ && ulimit -f 1 && "$bqlm" "$@" "$opt" "$file" 2>&1 >/dev/null)
	rc=$?
	if [[ $rc -ne 4 ]]; then
		bad "bqlm $* $opt $file over the size limit: exit $rc, want 4"
	elif [[ "$out" != *"writing $file failed: File too large (nothing written)"* ]]; then
		bad "bqlm $* $opt $file: no error naming the file: $out"
	elif compgen -G "$dir/$file*" >/dev/null; then
		bad "bqlm $* $opt $file left $(cd "$dir" && echo "$file"*)"
	else
		ok
	fi
}

limited --json r.json explore usbnet --variant merged
limited --schedule s.sched explore usbnet --variant merged
limited --csv t.csv sim usbnet --duration 300ms
limited --svg p.svg sim usbnet --duration 300ms

# the same commands within the limit write their files
(cd "$dir" && "$bqlm" explore usbnet --variant merged --no-trace --json ok.json >/dev/null 2>&1)
if [[ -s "$dir/ok.json" ]] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$dir/ok.json"; then
	ok
else
	bad "bqlm explore ... --json ok.json: no valid JSON written"
fi
if compgen -G "$dir/*.bqlm-*" >/dev/null; then
	bad "a temporary file was left: $(cd "$dir" && echo *.bqlm-*)"
else
	ok
fi

# Ctrl-C during a search of several seconds. bqlm leaves a signal its
# caller ignores ignored (nohup), and make check may be started with
# SIGINT ignored (a background job of a script, "trap '' INT"); a
# non-interactive bash cannot undo that for its children (a signal ignored
# at entry cannot be trapped or reset), so the search runs under
# env --default-signal, which gives it SIGINT's default disposition, as
# a terminal's Ctrl-C would find it.
interrupt() {
	local file=$1
	(cd "$dir" && exec env --default-signal=INT "$bqlm" explore usbnet \
		--variant fixed --packets 6 --json "$file") >/dev/null 2>&1 &
	local pid=$!
	sleep 2
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	return $?
}
interrupt int.json
rc=$?
if [[ $rc -ne 130 ]]; then
	bad "SIGINT during the search: exit $rc, want 130 (killed by SIGINT)"
elif compgen -G "$dir/int.json*" >/dev/null; then
	bad "SIGINT during the search left $(cd "$dir" && echo int.json*)"
else
	ok
fi
echo '{"earlier": true}' >"$dir/old.json"
interrupt old.json
if [[ "$(cat "$dir/old.json")" != '{"earlier": true}' ]] || compgen -G "$dir/old.json.*" >/dev/null; then
	bad "SIGINT during the search changed the earlier old.json"
else
	ok
fi

echo "check-outputs: $((pass + fail)) checks of written files: $pass as expected, $fail not"
[[ $fail -eq 0 ]]
