#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# parse-ktap.sh FILE - check FILE with the kernel's own KTAP parser.
#
# When a kernel tree is at hand (KDIR, or the one "make kunit" unpacked),
# run tools/testing/kunit/kunit.py parse on the userspace KTAP, write the
# JSON next to it and fail if kunit.py does not accept it or sees failures.
# Without a tree, say so and succeed: make check needs no kernel.
set -euo pipefail

ktap=$(realpath "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
kdir=${KDIR:-$repo/.cache/linux-source-6.12}
parser=$kdir/tools/testing/kunit/kunit.py

if [ ! -f "$parser" ]; then
	echo "parse-ktap: no kernel tree at $kdir; kunit.py parse not run (make kunit unpacks one)"
	exit 0
fi
json=${ktap%.ktap}-results.json
if ! python3 "$parser" parse --json="$json" "$ktap" >"${ktap%.ktap}.parsed" 2>&1; then
	tail -n 20 "${ktap%.ktap}.parsed"
	echo "parse-ktap: kunit.py parse rejected $ktap or found failures" >&2
	exit 1
fi
echo "parse-ktap: kunit.py parse accepted $ktap: $(grep -E 'Testing complete' "${ktap%.ktap}.parsed" | tail -n 1)"
