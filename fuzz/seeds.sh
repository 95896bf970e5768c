#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz/seeds.sh BQLM - (re)write the seed corpus fuzz/corpus/TARGET/ from
# the valid inputs of the docs and tests: the schedules bqlm writes for the
# documented command lines (and the malformed ones of the schedule suite),
# the models' profiles and descriptions, every command line of the README,
# docs/*.md and userspace-tests/cli/cases.txt. The corpus is kept in the
# repository; run this when the docs or the options change.
set -euo pipefail
cd "$(dirname "$0")/.."
bqlm=${1:-build/bqlm}
C=fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -rf "$C"
mkdir -p "$C"/{schedule,options,cli_parse,cli}

# every "bqlm ..." command line of the docs and the CLI cases
{
	grep -ho 'build/bqlm [^#`|]*' README.md docs/*.md | sed 's/^build\/bqlm //'
	grep -v '^#' userspace-tests/cli/cases.txt | awk -F'\t' 'NF >= 3 { print $3 } NF == 2 { print "" }'
} | sed 's/[[:space:]]*$//' | sed 's/\\$//' | sort -u >"$tmp/lines"

n=0
while IFS= read -r line; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # words split on blanks, as a shell would
	printf '%s\n' $line >"$C/cli/doc-$n"
	set -- $line
	# the model's part, for the table's parser: the model's name, then it
	if [[ "${1:-}" == explore && " usbnet tun bql-xoff nic " == *" ${2:-} "* ]]; then
		t=$2
		shift 2
		printf '%s\n' "$t" "$@" >"$C/cli_parse/doc-$n"
	fi
done <"$tmp/lines"

# schedules of the documented explorations (the witness of each verdict)
i=0
while IFS= read -r args; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$bqlm" explore usbnet $args --no-trace --schedule "$C/schedule/sched-$i" >/dev/null 2>&1 || true
	[[ -s "$C/schedule/sched-$i" ]] || rm -f "$C/schedule/sched-$i"
done <<'LIST'
--variant merged
--variant v1
--variant v1 --schedule-check serial-completion
--variant fix-reset
--variant fix-reset --schedule-check byte-balance
--variant fixed --avoid-unlink
--variant fixed --avoid-unlink --header 14 --packets 2
--variant fixed --fixup multi --packets 2
--variant merged --fixup pad --pad-header 8 --lens 1514,60
--variant fixed --packets 1 --depth 6 --schedule-check stall
LIST
# the schedule suite's malformed and short forms (kunit/usbnet_schedule_kunit.c)
j=0
for s in 'variant v9' $'# c\npackets 9' 'packets 3 4' 'step 0x1g0' 'lens 1514 60 40' \
	'check stal' $'variant v1\nsteps 2\nstep 0x100' 'a b c d e' \
	$'packets 2\nvariant v1' $'variant v1\nbql off' 'statuses eproto' \
	$'variant v1 # a; b\nstep 0x100 # c; TX_QLEN' 'variant,merged;packets,1;step,0x100;steps,1'; do
	j=$((j + 1))
	printf '%s\n' "$s" >"$C/schedule/text-$j"
done

# options: the model's name, a line; [profile][mode] + text: each profile's own text, then
# each table's description as the JSON report writes it
python3 - "$C/options" "$tmp/lines" <<'PY'
import os, re, sys
out = sys.argv[1]
n = 0
def seed(t, p, mode, text):
    global n
    n += 1
    with open(os.path.join(out, "seed-%d" % n), "wb") as f:
        f.write(t.encode() + b"\n" + bytes([p, mode]) + text.encode())
for t, src in (("usbnet", "model/usbnet/usbnet_options.c"), ("tun", "model/tun/tun_options.c"),
               ("bql-xoff", "model/bql_xoff/bql_xoff_options.c"), ("nic", "model/nic/nic_options.c")):
    body = open(src).read()
    for i, opts in enumerate(re.findall(r'\.opts\s*=\s*((?:"[^"]*"\s*)+)', body)):
        seed(t, i, 0, "".join(re.findall(r'"([^"]*)"', opts)))
    for name in re.findall(r'\.name\s*=\s*"([a-z0-9-]+)"', body)[:40]:
        seed(t, 255, 1, name + "\n1")
PY
# each profile's description (a profile's text may be built of macros the
# regular expressions above do not follow), as the JSON report writes it
"$bqlm" list 2>/dev/null | awk '
	/^[a-z-]+ (variants|profiles) / { m = $1; o = ($2 == "variants") ? "--variant" : "--profile"; next }
	/^[a-z]/ { m = "" }
	m != "" && NF >= 2 { print m, o, $1 }' >"$tmp/profiles"
echo "bql-xoff - default" >>"$tmp/profiles"
while read -r m o p; do
	a=()
	[[ $o == - ]] || a=("$o" "$p")
	o=$("$bqlm" explore "$m" "${a[@]}" --json - --max-states 10 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin).get("options") or "")' || true)
	[[ -z "$o" ]] || printf "%s\n\xff\x00%s" "$m" "$o" >"$C/options/describe-$m-$p"
done <"$tmp/profiles"

for d in "$C"/*; do
	echo "fuzz/seeds.sh: ${d#"$C"/}: $(find "$d" -type f | wc -l) seeds"
done
