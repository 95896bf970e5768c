#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# libbqlm-map.sh NODE "HEADERS" OBJECTS... - the version script of
# libbqlm.so: every symbol the objects define globally that the public
# headers name is global in version node NODE, everything else is local.
set -euo pipefail

node=$1
headers=$2
shift 2

words=$(mktemp)
defs=$(mktemp)
trap 'rm -f "$words" "$defs"' EXIT
# shellcheck disable=SC2086
grep -ohE '\b[A-Za-z_][A-Za-z0-9_]*\b' $headers | sort -u > "$words"
nm -g --defined-only "$@" | awk 'NF == 3 { print $3 }' | sort -u > "$defs"

echo "$node {"
echo "	global:"
comm -12 "$words" "$defs" | sed 's/^/		/; s/$/;/'
echo "	local:"
echo "		*;"
echo "};"
