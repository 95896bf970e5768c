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

count() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		--toggle-collect="$2" build/dql-insns "$1" "$rounds" 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

m=$(count model mdql_loop)
k=$(count kernel kdql_loop)
[ -n "$m" ] && [ -n "$k" ] && [ "$k" -gt 0 ] || {
	echo "DQL instructions: callgrind gave no count" >&2
	exit 1
}
awk -v m="$m" -v k="$k" -v n="$rounds" 'BEGIN {
	printf "DQL instructions per round (dql_queued + dql_avail + dql_completed, %d rounds, callgrind):\n", n
	printf "  model %.2f, kernel lib/dynamic_queue_limits.c %.2f, ratio %.3f\n", m / n, k / n, m / k
}'
