#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-install.sh headers "HEADERS"
#	every public header alone, compiled as C (c99 and c11) and as C++
#	(c++11 and c++17), -Wall -Wextra -pedantic -Werror
# check-install.sh json BQLM
#	bqlm explore --json parses and agrees with the verdict and trace
# check-install.sh svg BQLM
#	bqlm sim --svg draws the variants on the same axes
# check-install.sh install STAGE
#	make install DESTDIR=STAGE, then: the installed files are there, the
#	shared library has its soname and exports only what the public
#	headers name, examples/ builds through pkg-config against the stage
#	(static and shared) and gives its verdicts, make uninstall leaves
#	nothing behind
set -euo pipefail

MAKE=${MAKE:-make}
CC=${CC:-cc}
CXX=${CXX:-g++}
fail() { echo "check-install: FAILED: $*" >&2; exit 1; }

headers() {
	local t h n=0
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	for h in $1; do
		printf '#include <bqlm/%s>\nint main(void) { return 0; }\n' \
			"$(basename "$h")" > "$t/h.c"
		cp "$t/h.c" "$t/h.cc"
		for std in c99 c11; do
			"$CC" -std=$std -Wall -Wextra -pedantic -Werror \
				-Imodel/include -fsyntax-only "$t/h.c" ||
				fail "$h as C ($std)"
		done
		for std in c++11 c++17; do
			"$CXX" -std=$std -Wall -Wextra -pedantic -Werror \
				-Imodel/include -fsyntax-only "$t/h.cc" ||
				fail "$h as C++ ($std)"
		done
		n=$((n + 1))
	done
	echo "check-headers: $n public headers compile alone as C (c99, c11) and C++ (c++11, c++17), -Wall -Wextra -pedantic -Werror"
}

install_check() {
	local stage=$1 prefix=/usr/local lib inc pc f n
	rm -rf "$stage"
	$MAKE -s install DESTDIR="$stage" PREFIX=$prefix >/dev/null
	lib=$stage$prefix/lib
	inc=$stage$prefix/include/bqlm
	for f in "$stage$prefix/bin/bqlm" "$lib/libbqlm.a" "$lib/libbqlm.so" \
		 "$lib/libbqlm.so.0" "$inc/dql.h" "$inc/explore.h" \
		 "$lib/pkgconfig/bqlm.pc" "$stage$prefix/share/man/man1/bqlm.1"; do
		[ -e "$f" ] || fail "$f not installed"
	done
	readelf -d "$lib/libbqlm.so" | grep -q 'SONAME.*\[libbqlm\.so\.0\]' ||
		fail "soname of libbqlm.so is not libbqlm.so.0"
	# exports: defined dynamic symbols, each named by a public header
	nm -D --defined-only "$lib/libbqlm.so" | awk '{ sub(/@.*/, "", $3); print $3 }' |
		grep -v '^BQLM_' | sort -u > "$stage/exports"
	grep -ohE '\b[A-Za-z_][A-Za-z0-9_]*\b' "$inc"/*.h | sort -u > "$stage/words"
	n=$(comm -23 "$stage/exports" "$stage/words" | wc -l)
	[ "$n" -eq 0 ] || fail "libbqlm.so exports symbols no public header names: $(comm -23 "$stage/exports" "$stage/words" | head -5 | tr '\n' ' ')"
	grep -qx bqlm_explore "$stage/exports" || fail "bqlm_explore not exported"
	man -l "$stage$prefix/share/man/man1/bqlm.1" >/dev/null 2>&1 ||
		[ ! -x /usr/bin/man ] || fail "bqlm.1 does not format"

	# the example, built as a driver author would, through pkg-config
	pc="env PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage pkg-config"
	[ "$($pc --modversion bqlm)" = "$($MAKE -s --no-print-directory print-version)" ] ||
		fail "pkg-config --modversion bqlm"
	# shellcheck disable=SC2046
	"$CC" -Wall -Wextra -pedantic -Werror -o "$stage/ringdrv" \
		examples/ringdrv.c $($pc --cflags bqlm) $($pc --libs bqlm)
	# shellcheck disable=SC2046
	"$CC" -Wall -Wextra -pedantic -Werror -o "$stage/ringdrv-static" \
		examples/ringdrv.c $($pc --cflags bqlm) "$lib/libbqlm.a"
	readelf -d "$stage/ringdrv" | grep -q 'NEEDED.*libbqlm\.so\.0' ||
		fail "examples/ringdrv is not linked against libbqlm.so.0"
	for bin in ringdrv ringdrv-static; do
		LD_LIBRARY_PATH=$lib "$stage/$bin" > "$stage/$bin.out" ||
			fail "$bin: exit $? on the correct driver (want 0)"
		grep -q '^OK' "$stage/$bin.out" || fail "$bin: no OK verdict"
		if LD_LIBRARY_PATH=$lib "$stage/$bin" --buggy > "$stage/$bin-buggy.out"; then
			fail "$bin --buggy: exit 0 (want 1, a violation)"
		fi
		grep -q '^VIOLATION: dql-over-completion' "$stage/$bin-buggy.out" ||
			fail "$bin --buggy: not the over-completion"
	done
	LD_LIBRARY_PATH=$lib "$stage$prefix/bin/bqlm" list > /dev/null ||
		fail "installed bqlm list"

	$MAKE -s uninstall DESTDIR="$stage" PREFIX=$prefix >/dev/null
	n=$(find "$stage$prefix" -type f -o -type l | wc -l)
	[ "$n" -eq 0 ] || fail "make uninstall left $n files: $(find "$stage$prefix" -type f -o -type l | head -3 | tr '\n' ' ')"
	echo "check-install: make install DESTDIR=$stage: $(wc -l < "$stage/exports") symbols exported by libbqlm.so.0, all named by a public header; examples/ringdrv via pkg-config (shared and static): $(head -c -1 < <(sed -n 2p "$stage/ringdrv.out")), --buggy: $(sed -n 2p "$stage/ringdrv-buggy.out" | cut -d: -f1-2); uninstall left nothing"
}

# bqlm explore --json: parses, and says what the text says
json_check() {
	local bqlm=$1 out st
	out=$(mktemp)
	trap 'rm -f "$out"' RETURN
	st=0
	"$bqlm" explore usbnet --variant merged --json "$out" >/dev/null || st=$?
	[ "$st" -eq 1 ] || fail "bqlm explore usbnet --variant merged: exit $st, want 1"
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "bqlm-explore/1" and d["system"] == "usbnet", d
assert d["result"] == "violation" and d["exit_status"] == 1, d["result"]
assert d["verdict"] == "dql-over-completion", d["verdict"]
w = {v["check"]: v for v in d["violations"]}
depth = w["dql-over-completion"]["depth"]
steps = d["trace"]["steps"]
assert d["trace"]["check"] == d["verdict"]
assert [s["step"] for s in steps] == list(range(depth + 1)), "steps"
assert any(v.startswith("dql-over-completion in usbnet_bh")
           for v in steps[-1]["violations"]), steps[-1]
assert not any(s["violations"] for s in steps[:-1]), "early violation"
' < "$out" || fail "bqlm explore usbnet --variant merged --json FILE"
	"$bqlm" explore usbnet --variant fixed --json - 2>/dev/null > "$out" ||
		fail "bqlm explore usbnet --variant fixed: exit $?, want 0"
	python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["result"] == "ok" and d["exit_status"] == 0 and d["verdict"] is None
assert d["trace"] is None and d["violations"] == [] and d["states"] > 0
' < "$out" || fail "bqlm explore usbnet --variant fixed --json -"
	echo "check-json: bqlm explore --json parsed: the merged trace ends in its verdict at its depth; fixed: ok, no trace"
}

# bqlm sim --svg: both usbnet variants on the CDF's log axis, with legends
svg_check() {
	local bqlm=$1 out
	out=$(mktemp)
	trap 'rm -f "$out"' RETURN
	"$bqlm" sim usbnet --variant fixed --duration 2s --svg "$out" >/dev/null ||
		fail "bqlm sim usbnet --svg: exit $?"
	python3 -c '
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
texts = [t.firstChild.data for t in d.getElementsByTagName("text")]
lines = d.getElementsByTagName("polyline")
assert "no-bql" in texts and "fixed" in texts, texts
assert "1 ms" in texts and "10 ms" in texts, "decade ticks"
cdf = [l for l in lines if l.getAttribute("stroke-width") == "1.5"]
assert len(cdf) == 2, "one CDF per variant"
tick = {t.firstChild.data: float(t.getAttribute("x"))
        for t in d.getElementsByTagName("text") if t.firstChild.data.endswith(" ms")}
med = [float(p[len(p) // 2].split(",")[0])
       for p in (l.getAttribute("points").split() for l in cdf)]
# a log axis: the decades equally spaced
assert abs(2 * tick["10 ms"] - tick["1 ms"] - tick["100 ms"]) < 1, tick
# medians: no-bql about 38 ms, fixed about 2.3 ms (README table)
assert tick["10 ms"] < med[0] < tick["100 ms"], ("no-bql", med, tick)
assert tick["1 ms"] < med[1] < tick["10 ms"], ("fixed", med, tick)
' "$out" || fail "bqlm sim usbnet --svg: the drawing"
	echo "check-svg: bqlm sim --svg draws no-bql and fixed on one log axis, each median between the right decade ticks"
}

case ${1:-} in
headers)	headers "$2" ;;
install)	install_check "$2" ;;
json)		json_check "$2" ;;
svg)		svg_check "$2" ;;
*)		echo "usage: $0 headers \"HEADERS\" | install STAGE" >&2; exit 2 ;;
esac
