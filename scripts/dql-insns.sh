#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# dql-insns.sh KSRC - instructions per DQL operation round (dql_queued,
# dql_avail, dql_completed) on the model and on the kernel's own DQL built
# in userspace from KSRC, counted by callgrind; part of make bench.
set -euo pipefail

ksrc=$1
rounds=${DQL_INSNS_ROUNDS:-200000}
MAKE=${MAKE:-make}

if [ ! -f "$ksrc/lib/dynamic_queue_limits.c" ]; then
	echo "DQL instructions: skipped, no kernel tree at $ksrc (make kunit unpacks one; or KDIR=)"
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	echo "DQL instructions: skipped, valgrind is not installed (apt-get install valgrind)"
	exit 0
fi
$MAKE -s build/dql-insns KSRC="$ksrc" >/dev/null

# callgrind's count of the loop, and the part of it in the DQL code alone
# (out-of-line completion plus the inlined queue and avail, by source file)
count() {
	local out
	out=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file="$out" \
		--toggle-collect="$2" build/dql-insns "$1" "$rounds" >/dev/null 2>&1
	callgrind_annotate --auto=no "$out" 2>/dev/null | awk -v fn="$2" -v re="$3" '
		/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
		$0 ~ re { gsub(",", "", $1); dql += $1 }
		END { print total, dql }'
	rm -f "$out"
}

read -r m mdql < <(count model mdql_loop \
	'dynamic_queue_limits.c:bqlm_dql_completed |include/bqlm/dql.h:mdql_loop')
read -r k kdql < <(count kernel kdql_loop \
	'lib/dynamic_queue_limits.c:dql_completed |include/linux/dynamic_queue_limits.h:kdql_loop')
[ -n "$m" ] && [ -n "$k" ] && [ "${k:-0}" -gt 0 ] && [ "${kdql:-0}" -gt 0 ] || {
	echo "DQL instructions: callgrind gave no count" >&2
	exit 1
}
# The target (the model at most 1.05 times the kernel) is on the
# whole round: everything the loop executes, the model's passing of its
# explicit clock included. The DQL-code line is the part by source file.
awk -v m="$m" -v k="$k" -v md="$mdql" -v kd="$kdql" -v n="$rounds" 'BEGIN {
	target = 1.05
	printf "DQL instructions, callgrind: %d rounds of dql_queued + dql_avail + dql_completed of 1514 B,\n", n
	printf "a jiffy every 1024 rounds, the same loop source on both sides (tools/bench/dql_loop.h):\n"
	printf "  %-50s %8s %8s %7s\n", "", "model", "kernel", "ratio"
	printf "  %-50s %8.2f %8.2f %7.3f  target <= %.2f: %s\n", "whole round (TARGET RATIO)", m / n, k / n, m / k, target, m / k <= target ? "met" : "NOT MET"
	printf "  %-50s %8.2f %8.2f\n", "  the same per operation (3 a round)", m / n / 3, k / n / 3
	printf "  %-50s %8.2f %8.2f %7.3f\n", "DQL code only (completed + inlined queued, avail)", md / n, kd / n, md / kd
}'
