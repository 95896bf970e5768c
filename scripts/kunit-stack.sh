#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kunit-stack.sh - the seeds' experiments on the real kernel stack,
# in virtual time: the KUnit suites of stack/ (bqlm_stack_usbnet,
# bqlm_stack_tun) in a UML kernel of their own, run with time-travel=inf-cpu.
# Called by "make kunit-stack"; see docs/stack.md.
#
# Steps:
#   1. check (and, as root, apt-get install) the UML build dependencies;
#   2. unpack Debian's linux-source-6.12 into .cache/stack-linux-6.12, a tree
#      of its own (make kunit's tree, .cache/linux-source-6.12, is never
#      touched), once;
#   3. regenerate, from the tree's pristine files and the project's
#      patches: drivers/usb/gadget/udc/dummy_hcd.c (real/patches/dummy_hcd/),
#      and under lib/bqlm_stack/gen/ the usbnet variants (usbnet.c and
#      usbnet.h with real/patches/usbnet/), cdc_ncm.c with
#      real/patches/cdc_ncm/, the tun variants (tun.c with
#      real/patches/tun/) and one small wrapper per variant and driver file;
#      files are rewritten only when their content changes, so that the
#      build stays incremental;
#   4. kunit.py run with stack/.kunitconfig, build directory
#      .cache/kunit-stack-build, kernel arguments time-travel=inf-cpu and
#      dummy_hcd.is_super_speed=1;
#   5. recompile stack/'s own files with W=1 and fail on any warning;
#   6. write the figures the suites printed to build/kunit-stack-figures.txt,
#      plot them (build/kunit-stack-latency.svg, scripts/stack-plot.py) and
#      put them next to bqlm sim's with the same parameters and the seeds'
#      (build/kunit-stack-compare.md, scripts/stack-compare.py: more than
#      30 % apart fails);
#   7. unless --no-crash (or KUNIT_ARGS is set): boot the same kernel once
#      more per scenario that must report a bug (CRASH_BOOTS: usbnet v1's
#      ifdown under load, the usbnet findings on their buggy variants) and
#      check the log for its report (docs/stack.md).
#
# --kasan: the same kernel with CONFIG_KASAN=y in .cache/kunit-stack-kasan-build
# (make kunit-stack-kasan): the fixes' cases with no KASAN report, then the
# KASAN_BOOTS; no W=1 check, no comparison.
#
# Usage: scripts/kunit-stack.sh [--build-only] [--no-crash] [--kasan]
# Environment:
#   KUNIT_ARGS   extra kunit.py arguments, shell-quoted (a suite filter
#                glob such as 'bqlm_stack_tun*', --raw_output=all, ...)
#   STACK_KARGS  extra kernel arguments, shell-quoted (e.g.
#                'bqlm_stack.no_bql_limit=1', the deliberate failure of
#                docs/stack.md)
#   KUNIT_JOBS   make jobs (default: nproc)
#   BQLM         the bqlm command line for the comparison (default:
#                build/bqlm, built if missing)
#
# Exit status: kunit.py's, 1 on a W=1 warning or a crash check that did not
# see its crash, 2 if something must be installed first and we are not root.

set -euo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# die, info, elapsed, KVER, SRC_PKG, SRC_TARBALL, IS_ROOT and apt_install,
# shared with scripts/kunit.sh (its tree, .cache/linux-source-6.12, is not
# this script's)
KTREE_PROG=kunit-stack.sh
# shellcheck source=scripts/ktree.sh
source "$REPO/scripts/ktree.sh"
CACHE="$REPO/.cache"
RESULTS="$REPO/build"
KDIR="$CACHE/stack-linux-$KVER"
BUILD_DIR="$CACHE/kunit-stack-build"
PRISTINE="$CACHE/stack-pristine"
JOBS=${KUNIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die 1 "KUNIT_JOBS must be a positive integer, not '$JOBS'"

BUILD_ONLY=0
CRASH=1
KASAN=0
for arg in "$@"; do
	case $arg in
	--build-only) BUILD_ONLY=1 ;;
	--no-crash) CRASH=0 ;;
	--kasan) KASAN=1 ;;
	*) die 1 "unknown argument '$arg' (usage: scripts/kunit-stack.sh [--build-only] [--no-crash] [--kasan])" ;;
	esac
done
# --kasan: the same kernel with KASAN, in a build directory of its own
KCONFIG_ADD=()
OUT=kunit-stack
if [[ $KASAN -eq 1 ]]; then
	BUILD_DIR="$CACHE/kunit-stack-kasan-build"
	KCONFIG_ADD=(--kconfig_add=CONFIG_KASAN=y)
	OUT=kunit-stack-kasan
fi

# The variants built into the one kernel: name in real/patches, then the
# C name of its objects (stack/Kbuild lists the same). A usbnet variant is
# made as real/patches/usbnet/series says: its patch on the variant it
# names (the tree's files for "-").
USBNET_VARIANTS=(no-bql v1 fixed fixed-avoid-unlink fixed-ncm-stop)
TUN_VARIANTS=(stock stop-2019 backpressure backpressure-room)
# tun: variant:base
TUN_CHAIN=(stop-2019:stock backpressure:stock backpressure-room:backpressure)

# ---------------------------------------------------------------------------
# 1. dependencies

check_deps() {
	local missing=() pair cmd pkg
	for pair in gcc:gcc make:make ld:binutils ar:binutils flex:flex \
		bison:bison bc:bc python3:python3 perl:perl tar:tar xz:xz-utils \
		patch:patch cmp:diffutils; do
		cmd=${pair%%:*}
		pkg=${pair#*:}
		command -v "$cmd" >/dev/null ||
			[[ " ${missing[*]} " == *" $pkg "* ]] || missing+=("$pkg")
	done
	if command -v gcc >/dev/null &&
		! printf '#include <stdio.h>\n' | gcc -E -x c - >/dev/null 2>&1; then
		missing+=(libc6-dev)
	fi
	[[ -f "$SRC_TARBALL" ]] || missing+=("$SRC_PKG")
	if ((${#missing[@]})); then
		apt_install "missing for the stack kernel: ${missing[*]}" "${missing[@]}"
	fi
	[[ -f "$SRC_TARBALL" ]] || die 2 "$SRC_TARBALL is still missing after installing $SRC_PKG"
}

# ---------------------------------------------------------------------------
# 2. the tree: unpacked once, never configured in-tree

tarball_id() {
	stat -c '%s %Y' "$SRC_TARBALL"
}

unpack_tree() {
	local stamp="$KDIR/.bqlm-stack-unpacked" t0 tmp
	if [[ -f "$stamp" && "$(cat "$stamp")" == "$(tarball_id)" ]]; then
		return
	fi
	t0=$(date +%s)
	info "unpacking $SRC_TARBALL into ${KDIR#"$REPO"/} (once) ..."
	rm -rf "$KDIR" "$PRISTINE" "$BUILD_DIR"
	tmp=$(mktemp -d "$CACHE/stack-unpack.XXXXXX")
	nice tar -xJf "$SRC_TARBALL" -C "$tmp" ||
		die 1 "cannot unpack $SRC_TARBALL"
	mv "$tmp/$SRC_PKG" "$KDIR"
	rmdir "$tmp"
	# the files this script rewrites, as the tarball has them
	mkdir -p "$PRISTINE"
	cp "$KDIR/drivers/usb/gadget/udc/dummy_hcd.c" "$PRISTINE/dummy_hcd.c"
	cp "$KDIR/lib/Makefile" "$PRISTINE/lib-Makefile"
	cp "$KDIR/lib/Kconfig.debug" "$PRISTINE/lib-Kconfig.debug"
	tarball_id >"$stamp"
	info "unpacked in $(elapsed "$t0")"
}

# ---------------------------------------------------------------------------
# 3. wiring and generated sources

put_if_changed() {
	if ! cmp -s "$1" "$2"; then
		mv "$1" "$2"
	else
		rm -f "$1"
	fi
}

wire_tree() {
	local d="$KDIR/lib/bqlm_stack" work
	mkdir -p "$d/gen"
	ln -sfn "$REPO/stack/Kbuild" "$d/Kbuild"
	ln -sfn "$REPO/stack" "$d/src"
	work=$(mktemp -d "$CACHE/stack-gen.XXXXXX")
	cp "$PRISTINE/lib-Makefile" "$work/Makefile"
	# shellcheck disable=SC2016 # make syntax
	printf '\n# bqlmodel stack suites (scripts/kunit-stack.sh)\nobj-$(CONFIG_BQLM_STACK_KUNIT_TEST) += bqlm_stack/\n' >>"$work/Makefile"
	put_if_changed "$work/Makefile" "$KDIR/lib/Makefile"
	cp "$PRISTINE/lib-Kconfig.debug" "$work/Kconfig.debug"
	printf '\nsource "lib/bqlm_stack/src/Kconfig"\n' >>"$work/Kconfig.debug"
	put_if_changed "$work/Kconfig.debug" "$KDIR/lib/Kconfig.debug"
	rm -rf "$work"
}

# apply_patches DIR PATCH... : patch -p1 in DIR, or die naming the patch
apply_patches() {
	local dir=$1 p
	shift
	for p in "$@"; do
		patch -s -p1 -d "$dir" <"$p" ||
			die 1 "${p#"$REPO"/} does not apply to the tree's file (Linux $(ktree_version "$KDIR"))"
	done
}

# the C name of a variant: no-bql -> no_bql
cname() {
	printf '%s' "${1//-/_}"
}

gen_sources() {
	local gen="$KDIR/lib/bqlm_stack/gen" work v base c f
	work=$(mktemp -d "$CACHE/stack-gen.XXXXXX")

	# dummy_hcd: the pristine file and every patch of real/patches/dummy_hcd/
	mkdir -p "$work/dh/drivers/usb/gadget/udc"
	cp "$PRISTINE/dummy_hcd.c" "$work/dh/drivers/usb/gadget/udc/"
	apply_patches "$work/dh" "$REPO"/real/patches/dummy_hcd/*.patch
	put_if_changed "$work/dh/drivers/usb/gadget/udc/dummy_hcd.c" \
		"$KDIR/drivers/usb/gadget/udc/dummy_hcd.c"

	# usbnet: each line of the series is its patch on the variant it names,
	# made before it ("-": the tree's files, no patch); the copies hold
	# every file a patch may change (usbnet.c, usbnet.h, the minidrivers)
	while read -r v base _; do
		mkdir -p "$work/$v/drivers/net/usb" "$work/$v/include/linux/usb"
		if [[ $base == - ]]; then
			cp "$KDIR"/drivers/net/usb/*.c "$work/$v/drivers/net/usb/"
			cp "$KDIR/include/linux/usb/usbnet.h" "$work/$v/include/linux/usb/"
		else
			[[ -d "$work/$base" ]] ||
				die 1 "real/patches/usbnet/series: $v is on $base, which is not listed above it"
			cp -r "$work/$base/." "$work/$v/"
			apply_patches "$work/$v" "$REPO/real/patches/usbnet/$v.patch"
		fi
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO/real/patches/usbnet/series")
	for v in "${USBNET_VARIANTS[@]}"; do
		c=$(cname "$v")
		[[ -d "$work/$v" ]] ||
			die 1 "usbnet variant $v is not in real/patches/usbnet/series"
		cp "$work/$v/drivers/net/usb/usbnet.c" "$work/usbnet-$v.c"
		cp "$work/$v/include/linux/usb/usbnet.h" "$work/usbnet-$v.h"
		for f in usbnet-$v.c usbnet-$v.h; do
			put_if_changed "$work/$f" "$gen/$f"
		done
		# one object per driver file and variant
		for f in usbnet cdc_ether cdc_ncm cdc_ncmfix; do
			{
				printf '// SPDX-License-Identifier: GPL-2.0\n'
				printf '/* generated by scripts/kunit-stack.sh: %s.c of usbnet variant %s */\n' "$f" "$v"
				printf '#define BQLM_STACK_PFX\tbqlm_stack_%s_\n' "$c"
				printf '#define BQLM_STACK_NAME\t"%s"\n' "$v"
				[[ $f != cdc_ncmfix ]] ||
					printf '#define BQLM_STACK_NCM_PFX\tbqlm_stack_%s_fix_\n' "$c"
				printf '#include "variant_usbnet.h"\n'
				printf '#include <usbnet-%s.h>\n' "$v"
				if [[ $f == usbnet ]]; then
					printf '#include <usbnet-%s.c>\n' "$v"
					printf '#include "variant_usbnet_post.h"\n'
				else
					printf '#define BQLM_STACK_DRIVER\tbqlm_stack_%s_%s\n' "$c" "$f"
					printf '#include "variant_driver.h"\n'
					if [[ $f == cdc_ncmfix ]]; then
						printf '#include <cdc_ncm-fix.c>\n'
					else
						printf '#include <%s.c>\n' "$f"
					fi
					# cdc_ether's driver_info, which the suite
					# copies with a minidriver's flags added
					[[ $f != cdc_ether ]] ||
						printf 'const struct driver_info *const bqlm_stack_%s_cdc_info = &cdc_info;\n' "$c"
				fi
			} >"$work/${f}_$c.c"
			put_if_changed "$work/${f}_$c.c" "$gen/${f}_$c.c"
		done
	done
	# cdc_ncm with real/patches/cdc_ncm/ (compiled with every variant)
	mkdir -p "$work/ncm/drivers/net/usb"
	cp "$KDIR/drivers/net/usb/cdc_ncm.c" "$work/ncm/drivers/net/usb/"
	apply_patches "$work/ncm" "$REPO"/real/patches/cdc_ncm/*.patch
	put_if_changed "$work/ncm/drivers/net/usb/cdc_ncm.c" "$gen/cdc_ncm-fix.c"
	# every export of the three files, renamed per variant (cdc_ncm's
	# with a prefix of their own: two cdc_ncm copies link with a variant)
	{
		sed -n 's/^EXPORT_SYMBOL[A-Z_]*(\([a-z_0-9]*\));.*/#define \1 BQLM_STACK_SYM(\1)/p' \
			"$KDIR/drivers/net/usb/usbnet.c" "$KDIR/drivers/net/usb/cdc_ether.c"
		sed -n 's/^EXPORT_SYMBOL[A-Z_]*(\([a-z_0-9]*\));.*/#define \1 BQLM_STACK_NCM_SYM(\1)/p' \
			"$KDIR/drivers/net/usb/cdc_ncm.c"
	} | sort -u >"$work/usbnet-exports.h"
	put_if_changed "$work/usbnet-exports.h" "$gen/usbnet-exports.h"

	# tun: stock is the tree
	cp "$KDIR/drivers/net/tun.c" "$work/tun-stock.c"
	for v in "${TUN_CHAIN[@]}"; do
		base=${v#*:}
		v=${v%%:*}
		mkdir -p "$work/t-$v/drivers/net"
		cp "$work/tun-$base.c" "$work/t-$v/drivers/net/tun.c"
		apply_patches "$work/t-$v" "$REPO/real/patches/tun/$v.patch"
		cp "$work/t-$v/drivers/net/tun.c" "$work/tun-$v.c"
	done
	for v in "${TUN_VARIANTS[@]}"; do
		c=$(cname "$v")
		put_if_changed "$work/tun-$v.c" "$gen/tun-$v.c"
		{
			printf '// SPDX-License-Identifier: GPL-2.0\n'
			printf '/* generated by scripts/kunit-stack.sh: tun.c of variant %s */\n' "$v"
			printf '#define BQLM_STACK_PFX\tbqlm_stack_%s_\n' "$c"
			printf '#define BQLM_STACK_NAME\t"%s"\n' "$v"
			printf '#include "variant_tun.h"\n'
			printf '#include <tun-%s.c>\n' "$v"
			printf '#include "variant_tun_post.h"\n'
		} >"$work/tun_$c.c"
		put_if_changed "$work/tun_$c.c" "$gen/tun_$c.c"
	done
	rm -rf "$work"
}

# ---------------------------------------------------------------------------
# 5. W=1 on stack/'s own files (the generated wrappers compile kernel files,
# whose W=1 warnings are not ours)

w1_check() {
	local objs=() srcs=() f rel out rc=0 kdoc
	for f in "$REPO"/stack/*.c; do
		rel=lib/bqlm_stack/src/$(basename "${f%.c}")
		objs+=("$rel.s")
		srcs+=("$f")
		rm -f "$BUILD_DIR/$rel.s"
	done
	out=$(make -C "$KDIR" ARCH=um O="$BUILD_DIR" --jobs="$JOBS" W=1 "${objs[@]}" 2>&1) || rc=$?
	kdoc=$("$KDIR/scripts/kernel-doc" -none "${srcs[@]}" "$REPO"/stack/*.h 2>&1) || rc=$?
	printf '%s\n%s\n' "$out" "$kdoc" >"$RESULTS/kunit-stack-w1.log"
	if [[ $rc -ne 0 ]]; then
		printf '%s\n%s\n' "$out" "$kdoc" >&2
		return 1
	fi
	printf '%s\n' "$out" | sed -n '/^[[:space:]]*CC[[:space:]].*lib\/bqlm_stack\//,$p' |
		grep -E -B1 -A3 '(warning|error):' || true
	printf '%s\n' "$kdoc" | grep -E '(warning|error):' || true
}

# ---------------------------------------------------------------------------

KARGS=(time-travel=inf-cpu dummy_hcd.is_super_speed=1)
# KASAN: every report, not only the first
[[ $KASAN -eq 0 ]] || KARGS+=(kasan_multi_shot)

# run_kunit LOG CMD ARGS... : kunit.py CMD (run, or exec: no build) with
# ARGS, output to LOG
run_kunit() {
	local log=$1 cmd=$2 rc=0
	shift 2
	(
		cd "$KDIR"
		set -x
		nice python3 tools/testing/kunit/kunit.py "$cmd" \
			--kunitconfig="$REPO/stack/.kunitconfig" \
			--build_dir="$BUILD_DIR" "${KCONFIG_ADD[@]}" \
			--timeout=1800 \
			"$@"
	) 2>&1 | tee "$log" || rc=$?
	return "$rc"
}

main() {
	local t_start t0 rc=0 extra=() kextra=() kopts=() warn n
	t_start=$(date +%s)
	env_words KUNIT_ARGS extra 1
	env_words STACK_KARGS kextra 1
	mkdir -p "$RESULTS"
	run_lock kunit-stack.lock scripts/kunit-stack.sh
	check_deps
	unpack_tree
	[[ ! -f "$KDIR/.config" ]] || die 1 "$KDIR was configured in-tree: remove it (rm -rf ${KDIR#"$REPO"/}) to unpack it again"
	wire_tree
	gen_sources

	if [[ $KASAN -eq 1 ]]; then
		rm -f "$RESULTS"/kunit-stack-kasan-{results.json,test.log,output.log} \
			"$RESULTS"/kunit-stack-crash-*-kasan.log "$BUILD_DIR/test.log"
		# the fixes' cases: no KASAN report
		((${#extra[@]})) || extra=('bqlm_stack_usbnet.usbnet_avoid_unlink*')
	else
		rm -f "$RESULTS"/kunit-stack-{results.json,test.log,output.log,w1.log,figures.txt,compare.md,latency.svg,crash.log} \
			"$RESULTS"/kunit-stack-crash-{v1-ifdown,avoid-unlink-ifdown,disconnect-rx-tx,disconnect-rx,ncm-flush-stop}.log \
			"$BUILD_DIR/test.log"
	fi
	t0=$(date +%s)
	info "kernel tree ${KDIR#"$REPO"/} (Linux $(ktree_version "$KDIR")), build dir ${BUILD_DIR#"$REPO"/} (incremental)"
	if [[ $BUILD_ONLY -eq 1 ]]; then
		(
			cd "$KDIR"
			set -x
			nice python3 tools/testing/kunit/kunit.py build \
				--kunitconfig="$REPO/stack/.kunitconfig" \
				--build_dir="$BUILD_DIR" "${KCONFIG_ADD[@]}" --jobs="$JOBS"
		) 2>&1 | tee "$RESULTS/$OUT-output.log" || rc=$?
	else
		for n in "${KARGS[@]}" "${kextra[@]}"; do
			kopts+=(--kernel_args="$n")
		done
		run_kunit "$RESULTS/$OUT-output.log" run --jobs="$JOBS" \
			--json="$RESULTS/$OUT-results.json" \
			"${kopts[@]}" "${extra[@]}" || rc=$?
		[[ ! -f "$BUILD_DIR/test.log" ]] || cp "$BUILD_DIR/test.log" "$RESULTS/$OUT-test.log"
	fi
	info "kunit.py finished in $(elapsed "$t0") with exit status $rc"
	# the fixes' cases ran in it: none of finding 3's reports
	if [[ $BUILD_ONLY -eq 0 ]] && grep -Eq "$NO_UAF" "$RESULTS/$OUT-test.log" 2>/dev/null; then
		grep -E "$NO_UAF" "$RESULTS/$OUT-test.log" >&2
		printf 'kunit-stack.sh: error: a use-after-free of a struct usbnet reported in build/%s-test.log\n' "$OUT" >&2
		[[ $rc -ne 0 ]] || rc=1
	fi

	if [[ $KASAN -eq 1 ]]; then
		if [[ $BUILD_ONLY -eq 0 && $CRASH -eq 1 && -f "$BUILD_DIR/vmlinux" && -z "${KUNIT_ARGS:-}" ]]; then
			crash_check || { [[ $rc -ne 0 ]] || rc=1; }
		fi
		printf 'make kunit-stack-kasan: results in build/%s-results.json, kernel log in build/%s-test.log (exit %d, %s)\n' \
			"$OUT" "$OUT" "$rc" "$(elapsed "$t_start")"
		return "$rc"
	fi

	if [[ -f "$BUILD_DIR/vmlinux" ]]; then
		t0=$(date +%s)
		if ! warn=$(w1_check); then
			warn+=$'\n(the W=1 check could not be done, see above)'
		fi
		if [[ -n "$warn" ]]; then
			printf '%s\n' "$warn" >&2
			printf 'kunit-stack.sh: error: stack/ has W=1 or kernel-doc warnings (build/kunit-stack-w1.log)\n' >&2
			[[ $rc -ne 0 ]] || rc=1
		else
			info "W=1 check of stack/: no warnings ($(elapsed "$t0"))"
		fi
	fi
	[[ $BUILD_ONLY -eq 0 ]] || { info "build only: exit $rc ($(elapsed "$t_start"))"; return "$rc"; }

	if [[ -f "$RESULTS/kunit-stack-test.log" ]]; then
		# the figures the suites print, one "bqlm_stack:" line each
		grep -o 'bqlm_stack: .*' "$RESULTS/kunit-stack-test.log" |
			sed 's/^bqlm_stack: //' >"$RESULTS/kunit-stack-figures.txt" || true
		info "figures: build/kunit-stack-figures.txt ($(wc -l <"$RESULTS/kunit-stack-figures.txt") lines)"
		if python3 "$REPO/scripts/stack-plot.py" "$RESULTS/kunit-stack-figures.txt" \
			"$RESULTS/kunit-stack-latency.svg"; then
			info "plot: build/kunit-stack-latency.svg"
		else
			info "the plot could not be drawn"
			[[ $rc -ne 0 ]] || rc=1
		fi
		compare || { [[ $rc -ne 0 ]] || rc=1; }
	fi

	if [[ $CRASH -eq 1 && -f "$BUILD_DIR/vmlinux" && -z "${KUNIT_ARGS:-}" ]]; then
		crash_check || { [[ $rc -ne 0 ]] || rc=1; }
	fi
	printf 'make kunit-stack: results in build/kunit-stack-results.json, kernel log in build/kunit-stack-test.log (exit %d, %s)\n' \
		"$rc" "$(elapsed "$t_start")"
	return "$rc"
}

# The figures next to bqlm sim's with the same parameters (and the seeds'):
# build/kunit-stack-compare.md; more than 30 % apart fails.
compare() {
	local bqlm=${BQLM:-$REPO/build/bqlm}
	if [[ ! -x "$bqlm" ]]; then
		info "building build/bqlm for the comparison with bqlm sim ..."
		make -s -C "$REPO" build/bqlm >/dev/null || {
			printf 'kunit-stack.sh: error: cannot build build/bqlm (make build/bqlm)\n' >&2
			return 1
		}
	fi
	python3 "$REPO/scripts/stack-compare.py" "$RESULTS/kunit-stack-figures.txt" \
		"$bqlm" "$RESULTS/kunit-stack-compare.md"
}

# The boots that must report a bug, one case each (docs/stack.md, "The
# findings on the real stack"): NAME, the kernel argument that runs it,
# the case, and what the log must show: an extended regular expression
# for the report, another for the code it came from.
DQL_BUG='BUG.* at lib/dynamic_queue_limits\.c:[0-9]+'
KASAN_UAF='BUG: KASAN: [a-z-]*use-after-free'
# finding 3 without KASAN: the BH work item of the freed struct usbnet,
# still queued on system_bh_wq, taken by the BH worker (the usbnet
# variants run upstream's BH-work bottom half): UML's segfault panic in
# the worker's list walk
BH_UAF='Kernel panic - not syncing: Segfault'
BH_UAF_WHAT='bh_worker'
CRASH_BOOTS=(
	# usbnet v1 resets the queue in usbnet_stop() before the URBs in
	# flight complete: an ifdown under load
	"v1-ifdown|bqlm_stack.crash_v1=1|usbnet_v1_ifdown_crash|$DQL_BUG|usbnet_bh"
	# finding 1 (fixed, FLAG_AVOID_UNLINK_URBS): TX URBs held by a device
	# that stopped draining, ifdown, the device drains again
	"avoid-unlink-ifdown|bqlm_stack.crash=avoid-unlink-ifdown|usbnet_finding_crash|$DQL_BUG|usbnet_bh"
	# finding 3 (fixed, the flag): the closed device unplugged with its RX
	# URBs, and the held TX URBs, in flight; then with the RX URBs only
	"disconnect-rx-tx|bqlm_stack.crash=disconnect-rx-tx|usbnet_finding_crash|$BH_UAF|$BH_UAF_WHAT"
	"disconnect-rx|bqlm_stack.crash=disconnect-rx|usbnet_finding_crash|$BH_UAF|$BH_UAF_WHAT"
	# finding 2 (fixed-avoid-unlink, cdc_ncm): the kevent wakes the queue
	# during the stop, the flush's NTB outlives the ifdown, completes
	# after the next open's reset
	"ncm-flush-stop|bqlm_stack.crash=ncm-flush-stop|usbnet_finding_crash|$DQL_BUG|usbnet_bh"
)
# the KASAN kernel's (--kasan): finding 3 again, KASAN seeing usbnet_bh()
# read the freed struct usbnet (UML's KASAN keeps no free stacks)
KASAN_BOOTS=(
	"disconnect-rx-tx|bqlm_stack.crash=disconnect-rx-tx|usbnet_finding_crash|$KASAN_UAF|usbnet_bh|bh_worker"
	"disconnect-rx|bqlm_stack.crash=disconnect-rx|usbnet_finding_crash|$KASAN_UAF|usbnet_bh|bh_worker"
)
# what the fixes' runs must not show: finding 3's reports
NO_UAF="$BH_UAF|tasklet_clear_sched|WARNING: .* at kernel/time/timer\.c|BUG: KASAN"

# crash_boot "NAME|KARG|CASE|REPORT|FROM": boot the built kernel for CASE
# alone with KARG; its log (build/kunit-stack-crash-NAME.log) must match
# REPORT, and FROM after it
crash_boot() {
	local name karg case report from log t0 n kopts=() sfx
	IFS='|' read -r name karg case report from <<<"$1"
	sfx=
	[[ $KASAN -eq 0 ]] || sfx=-kasan
	log="$RESULTS/kunit-stack-crash-$name$sfx.log"
	t0=$(date +%s)
	info "crash check $name: $case with $karg (a boot of its own) ..."
	for n in "${KARGS[@]}"; do
		kopts+=(--kernel_args="$n")
	done
	run_kunit "$log" exec "${kopts[@]}" \
		--kernel_args="$karg" --raw_output=all \
		"bqlm_stack_usbnet.$case" >/dev/null 2>&1 || true
	# UML prints "BUG: failure at FILE:LINE/FUNCTION()!", others
	# "kernel BUG at FILE:LINE!"
	n=$(grep -Enm1 "$report" "$log" | cut -d: -f1) || n=
	# grep -c, not -q: -q would end tail with SIGPIPE (pipefail)
	if [[ -n $n && $(tail -n "+$n" "$log" | grep -Ec "$from") -gt 0 ]]; then
		info "crash check $name: as expected, $(grep -Eo "${report}[^!]*" "$log" | head -n1), $from after it ($(elapsed "$t0"), ${log#"$REPO"/})"
		return 0
	fi
	printf 'kunit-stack.sh: error: crash check %s: no "%s" followed by %s in %s\n' \
		"$name" "$report" "$from" "${log#"$REPO"/}" >&2
	return 1
}

crash_check() {
	local b rc=0
	if [[ $KASAN -eq 1 ]]; then
		for b in "${KASAN_BOOTS[@]}"; do
			crash_boot "$b" || rc=1
		done
	else
		for b in "${CRASH_BOOTS[@]}"; do
			crash_boot "$b" || rc=1
		done
	fi
	return "$rc"
}

main "$@"; exit
