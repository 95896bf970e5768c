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
#      more for the one case that must crash (usbnet v1, ifdown under load)
#      and check that the kernel died of the BUG_ON() in dql_completed(),
#      from usbnet_bh() (docs/stack.md).
#
# Usage: scripts/kunit-stack.sh [--build-only] [--no-crash]
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
for arg in "$@"; do
	case $arg in
	--build-only) BUILD_ONLY=1 ;;
	--no-crash) CRASH=0 ;;
	*) die 1 "unknown argument '$arg' (usage: scripts/kunit-stack.sh [--build-only] [--no-crash])" ;;
	esac
done

# The variants built into the one kernel: name in real/patches, then the
# C name of its objects (stack/Kbuild lists the same).
USBNET_VARIANTS=(no-bql v1 fixed)
TUN_VARIANTS=(stock stop-2019 backpressure backpressure-room)
# the usbnet patch chain: each variant is the one before plus its patch
USBNET_CHAIN=(no-bql bh-work v1 merged fix-reset fixed)
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
	local gen="$KDIR/lib/bqlm_stack/gen" work v prev base c f
	work=$(mktemp -d "$CACHE/stack-gen.XXXXXX")

	# dummy_hcd: the pristine file and every patch of real/patches/dummy_hcd/
	mkdir -p "$work/dh/drivers/usb/gadget/udc"
	cp "$PRISTINE/dummy_hcd.c" "$work/dh/drivers/usb/gadget/udc/"
	apply_patches "$work/dh" "$REPO"/real/patches/dummy_hcd/*.patch
	put_if_changed "$work/dh/drivers/usb/gadget/udc/dummy_hcd.c" \
		"$KDIR/drivers/usb/gadget/udc/dummy_hcd.c"

	# usbnet: no-bql is the tree; each later variant patches the one before
	prev=
	for v in "${USBNET_CHAIN[@]}"; do
		mkdir -p "$work/$v/drivers/net/usb" "$work/$v/include/linux/usb"
		if [[ -z $prev ]]; then
			cp "$KDIR/drivers/net/usb/usbnet.c" "$work/$v/drivers/net/usb/"
			cp "$KDIR/include/linux/usb/usbnet.h" "$work/$v/include/linux/usb/"
		else
			cp -r "$work/$prev/." "$work/$v/"
			apply_patches "$work/$v" "$REPO/real/patches/usbnet/$v.patch"
		fi
		prev=$v
	done
	for v in "${USBNET_VARIANTS[@]}"; do
		c=$(cname "$v")
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
			--build_dir="$BUILD_DIR" \
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

	rm -f "$RESULTS"/kunit-stack-{results.json,test.log,output.log,w1.log,figures.txt,compare.md,latency.svg,crash.log} \
		"$BUILD_DIR/test.log"
	t0=$(date +%s)
	info "kernel tree ${KDIR#"$REPO"/} (Linux $(ktree_version "$KDIR")), build dir ${BUILD_DIR#"$REPO"/} (incremental)"
	if [[ $BUILD_ONLY -eq 1 ]]; then
		(
			cd "$KDIR"
			set -x
			nice python3 tools/testing/kunit/kunit.py build \
				--kunitconfig="$REPO/stack/.kunitconfig" \
				--build_dir="$BUILD_DIR" --jobs="$JOBS"
		) 2>&1 | tee "$RESULTS/kunit-stack-output.log" || rc=$?
	else
		for n in "${KARGS[@]}" "${kextra[@]}"; do
			kopts+=(--kernel_args="$n")
		done
		run_kunit "$RESULTS/kunit-stack-output.log" run --jobs="$JOBS" \
			--json="$RESULTS/kunit-stack-results.json" \
			"${kopts[@]}" "${extra[@]}" || rc=$?
		[[ ! -f "$BUILD_DIR/test.log" ]] || cp "$BUILD_DIR/test.log" "$RESULTS/kunit-stack-test.log"
	fi
	info "kunit.py finished in $(elapsed "$t0") with exit status $rc"

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

# usbnet v1 resets the queue in usbnet_stop() before the URBs in flight
# complete: an ifdown under load must end in the BUG_ON() of
# dql_completed(). The case runs alone, in a boot of its own.
crash_check() {
	local log="$RESULTS/kunit-stack-crash.log" t0
	t0=$(date +%s)
	info "crash check: usbnet v1, ifdown under load (a boot of its own) ..."
	run_kunit "$log" exec --kernel_args=time-travel=inf-cpu \
		--kernel_args=dummy_hcd.is_super_speed=1 \
		--kernel_args=bqlm_stack.crash_v1=1 --raw_output=all \
		'bqlm_stack_usbnet.usbnet_v1_ifdown_crash' >/dev/null 2>&1 || true
	# UML prints "BUG: failure at FILE:LINE/FUNCTION()!", others
	# "kernel BUG at FILE:LINE!"; usbnet_bh() must be on the stack
	if grep -Eq 'BUG.* at lib/dynamic_queue_limits\.c:[0-9]+' "$log" &&
		grep -q 'usbnet_bh' "$log"; then
		info "crash check: as expected, $(grep -Eo 'BUG.* at lib/dynamic_queue_limits\.c:[0-9]+[^!]*' "$log" | head -n1), usbnet_bh() on the stack ($(elapsed "$t0"), build/kunit-stack-crash.log)"
		return 0
	fi
	printf 'kunit-stack.sh: error: usbnet v1 survived an ifdown under load: no BUG at lib/dynamic_queue_limits.c from usbnet_bh() in build/kunit-stack-crash.log\n' >&2
	return 1
}

main "$@"; exit
