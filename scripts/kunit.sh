#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kunit.sh - build and run the bqlmodel KUnit suites in a UML kernel,
# or in a QEMU kernel of another architecture.
#
# Called by "make kunit" and "make kunit-build" (see docs/kunit.md).  Steps:
#   1. find a kernel tree: $KDIR if set, else Debian's linux-source-6.12,
#      unpacked once into .cache/linux-source-6.12;
#   2. check (and, as root, apt-get install) the UML build dependencies;
#   3. wire the project into the tree: lib/bqlm/{Kbuild,model,kunit} are
#      symlinks into this repository, lib/Makefile and lib/Kconfig.debug
#      get one line each;
#   4. run tools/testing/kunit/kunit.py with kunit/.kunitconfig, building in
#      a per-tree directory under .cache/ so that later runs are incremental;
#   5. recompile our files with W=1 and fail on any warning in lib/bqlm/.
#
# Usage: scripts/kunit.sh [--build-only]
#   --build-only  build the kernel and W=1-check our files, run nothing.
#
# Environment:
#   ARCH        um (the default, UML), or i386, x86_64, s390 (a kernel of
#               that architecture under QEMU, booted by kunit.py); arm and
#               arm64 are build-only. Each has its own build directory,
#               .cache/kunit-build-ARCH, and results build/kunit-ARCH-*.
#   KDIR        kernel source tree to use instead of linux-source-6.12.
#               It is modified (see step 3) and must be clean (mrproper).
#   KUNIT_ARGS  extra kunit.py arguments, shell-quoted, e.g. 'bqlm_dql*'
#               (a suite filter glob) or --raw_output=all.
#   KUNIT_JOBS  make jobs (default: nproc).
#   KUNIT_TAG   a name for a partial run (make kunit-replay, make
#               kunit-driver): its results go to build/kunit[-ARCH]-TAG-*
#               instead of the full run's, and it skips the W=1 check.
#   BQLM_REPO   project tree to link into the kernel (default: this repo;
#               meant for testing this script). Caches and results always
#               go to this repository's .cache/ and build/.
#   KUNIT_W1    0: no W=1 check (make mutate-real's runs of mutants).
#   KUNIT_FLAVOUR  a kernel configured differently, with its own build
#               directory (.cache/kunit-build-FLAVOUR[-ARCH]) and results
#               (build/kunit-FLAVOUR[-ARCH]-*): kunit/FLAVOUR.kunitconfig
#               is merged with kunit/.kunitconfig ("debug": make kunit-debug).
#
# Exit status: kunit.py's (non-zero on a build failure or a failed test),
# 1 if our files have compiler/kernel-doc warnings, 2 if something must be
# installed first and we are not root.

set -euo pipefail

# The kernel build must not inherit "make kunit"'s flags and variables
# (make -j, V=, W=, KDIR=, ...): they would change its command lines.
unset MAKEFLAGS MFLAGS MAKELEVEL

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# die, info, elapsed, Debian's kernel tree and the apt helpers, shared
# with scripts/audit.sh and scripts/kunit-stack.sh
KTREE_PROG=kunit.sh
# shellcheck source=scripts/ktree.sh
source "$REPO/scripts/ktree.sh"
if [[ -n "${BQLM_REPO:-}" ]]; then
	[[ -d "$BQLM_REPO" ]] || die 1 "BQLM_REPO=$BQLM_REPO is not a directory"
	SRC=$(cd "$BQLM_REPO" && pwd -P)
else
	SRC=$REPO
fi
CACHE="$REPO/.cache"
RESULTS="$REPO/build"
JOBS=${KUNIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die 1 "KUNIT_JOBS must be a positive integer, not '$JOBS'"

BUILD_ONLY=0
for arg in "$@"; do
	case $arg in
	--build-only) BUILD_ONLY=1 ;;
	*) die 1 "unknown argument '$arg' (usage: scripts/kunit.sh [--build-only])" ;;
	esac
done

# The architecture: kunit.py's --arch (a qemu_configs/ARCH.py of the tree),
# its --cross_compile prefix, the QEMU that boots it, and what the build and
# the boot need beyond the UML build dependencies, as FILE-OR-COMMAND:PACKAGE.
# The build-only ones get the same configuration, from their qemu_configs.
KARCH=${ARCH:-um}
unset ARCH CROSS_COMPILE
CROSS=
QEMU=
NEEDS=()
case $KARCH in
um) ;;
i386)
	QEMU=qemu-system-i386
	NEEDS=(qemu-system-i386:qemu-system-x86)
	;;
x86_64)
	QEMU=qemu-system-x86_64
	# objtool links libelf; kunit.py boots with -bios qboot.rom
	NEEDS=(qemu-system-x86_64:qemu-system-x86 /usr/include/gelf.h:libelf-dev
		/usr/share/qemu/qboot.rom:qemu-system-data)
	;;
s390)
	CROSS=s390x-linux-gnu-
	QEMU=qemu-system-s390x
	NEEDS=(s390x-linux-gnu-gcc:gcc-s390x-linux-gnu
		qemu-system-s390x:qemu-system-misc
		/usr/share/qemu/s390-ccw.img:qemu-system-data)
	;;
arm)
	CROSS=arm-linux-gnueabihf-
	NEEDS=(arm-linux-gnueabihf-gcc:gcc-arm-linux-gnueabihf)
	;;
arm64)
	CROSS=aarch64-linux-gnu-
	NEEDS=(aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu)
	;;
*)
	die 1 "ARCH=$KARCH is not supported: um, i386, x86_64, s390 (run), arm, arm64 (build only)"
	;;
esac
if [[ $KARCH != um && -z $QEMU && $BUILD_ONLY -eq 0 ]]; then
	die 1 "ARCH=$KARCH is build-only: make kunit-build ARCH=$KARCH"
fi
# UML keeps the names it always had; other architectures get their own.
if [[ $KARCH == um ]]; then
	SUFFIX=
	LABEL="make kunit"
else
	SUFFIX=-$KARCH
	LABEL="make kunit ARCH=$KARCH"
fi
[[ $BUILD_ONLY -eq 0 ]] || LABEL="make kunit-build ARCH=$KARCH"
# A flavour: one more config fragment, its own build directory and results.
FRAGMENT=()
if [[ -n "${KUNIT_FLAVOUR:-}" ]]; then
	[[ "$KUNIT_FLAVOUR" =~ ^[a-z0-9]+$ ]] ||
		die 1 "KUNIT_FLAVOUR must be a word of a-z and 0-9, not '$KUNIT_FLAVOUR'"
	SUFFIX=-$KUNIT_FLAVOUR$SUFFIX
	LABEL="make kunit-$KUNIT_FLAVOUR${LABEL#make kunit}"
	FRAGMENT=(--kunitconfig="$SRC/kunit/$KUNIT_FLAVOUR.kunitconfig")
	[[ -f "$SRC/kunit/$KUNIT_FLAVOUR.kunitconfig" ]] ||
		die 1 "KUNIT_FLAVOUR=$KUNIT_FLAVOUR: kunit/$KUNIT_FLAVOUR.kunitconfig is missing"
fi

for f in Kbuild kunit/Kconfig kunit/.kunitconfig; do
	[[ -f "$SRC/$f" ]] || die 1 "project file $SRC/$f is missing"
done
for d in model kunit; do
	[[ -d "$SRC/$d" ]] || die 1 "project directory $SRC/$d is missing"
done

# ---------------------------------------------------------------------------
# 1. build dependencies

check_build_deps() {
	local missing=() cmd pkg
	# command:package
	for pair in gcc:gcc make:make ld:binutils ar:binutils flex:flex \
		bison:bison bc:bc python3:python3 perl:perl tar:tar xz:xz-utils; do
		cmd=${pair%%:*}
		pkg=${pair#*:}
		command -v "$cmd" >/dev/null ||
			[[ " ${missing[*]} " == *" $pkg "* ]] || missing+=("$pkg")
	done
	# UML links against the C library: its headers must be there.
	if [[ $KARCH == um ]] && command -v gcc >/dev/null &&
		! printf '#include <stdio.h>\n' | gcc -E -x c - >/dev/null 2>&1; then
		missing+=(libc6-dev)
	fi
	for pair in "${NEEDS[@]}"; do
		cmd=${pair%%:*}
		pkg=${pair#*:}
		if [[ $cmd == /* ]]; then
			[[ -e "$cmd" ]] && continue
		else
			command -v "$cmd" >/dev/null && continue
		fi
		# a build needs no QEMU
		if [[ $BUILD_ONLY -eq 1 && ($cmd == qemu* || $cmd == /usr/share/qemu/*) ]]; then
			continue
		fi
		[[ " ${missing[*]} " == *" $pkg "* ]] || missing+=("$pkg")
	done
	if ((${#missing[@]})) && [[ $KARCH == um ]]; then
		apt_install "missing UML build dependencies: ${missing[*]}" "${missing[@]}"
	elif ((${#missing[@]})); then
		# Debian's cross compilers conflict with the gcc-multilib
		# metapackage: apt removes it (make check's -m32 build does not
		# need it, see the Makefile).
		apt_install "missing build dependencies for ARCH=$KARCH: ${missing[*]}" "${missing[@]}"
	fi
	python3 -c 'import sys; sys.exit(sys.version_info < (3, 7))' ||
		die 2 "kunit.py needs python3 >= 3.7 ($(python3 --version 2>&1))"
}

# ---------------------------------------------------------------------------
# 2. kernel tree

# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
	if [[ -n "$UNPACK_TMP" ]]; then
		rm -rf "$UNPACK_TMP"
	fi
}
trap cleanup EXIT
trap 'printf "kunit.sh: interrupted; the build directory stays and the next run goes on from it\n" >&2; exit 130' INT
trap 'printf "kunit.sh: terminated\n" >&2; exit 143' TERM

# ---------------------------------------------------------------------------
# 3. wire the project into the tree (idempotent)

# link NAME TARGET: make $KDIR/lib/bqlm/NAME a symlink to TARGET
link() {
	local l="$KDIR/lib/bqlm/$1"
	if [[ -L "$l" && "$(readlink "$l")" == "$2" ]]; then
		return
	fi
	if [[ -e "$l" && ! -L "$l" ]]; then
		die 1 "$l exists and is not a symlink; move it away (it belongs to no kernel release)"
	fi
	ln -sfn "$2" "$l" || die 1 "cannot create symlink $l"
	RELINKED=1
}

wire_project() {
	local mk="$KDIR/lib/Makefile" kc="$KDIR/lib/Kconfig.debug"
	[[ -w "$KDIR/lib" && -w "$mk" && -w "$kc" ]] ||
		die 1 "$KDIR/lib is not writable: cannot add lib/bqlm/ to the kernel tree"
	mkdir -p "$KDIR/lib/bqlm"
	RELINKED=0
	link Kbuild "$SRC/Kbuild"
	link model "$SRC/model"
	link kunit "$SRC/kunit"
	link real "$SRC/real"
	if [[ $RELINKED -eq 1 ]]; then
		info "linked $KDIR/lib/bqlm/{Kbuild,model,kunit} -> $SRC"
		# make compares mtimes through the symlinks; objects built from
		# another checkout could look newer than these sources.
		rm -rf "$BUILD_DIR/lib/bqlm"
	fi
	if ! grep -Eq '^[[:space:]]*obj-[^[:space:]]*[[:space:]]*\+=[[:space:]]*bqlm/' "$mk"; then
		# shellcheck disable=SC2016 # $(CONFIG_...) is make syntax
		printf '\n# bqlmodel KUnit tests (added by bqlmodel scripts/kunit.sh)\nobj-$(CONFIG_BQLM_KUNIT_TEST) += bqlm/\n' >>"$mk"
		info "added obj-\$(CONFIG_BQLM_KUNIT_TEST) += bqlm/ to lib/Makefile"
	fi
	if ! grep -Fq 'source "lib/bqlm/kunit/Kconfig"' "$kc"; then
		if grep -Fqx 'source "lib/kunit/Kconfig"' "$kc"; then
			sed -i '0,/^source "lib\/kunit\/Kconfig"$/s//&\nsource "lib\/bqlm\/kunit\/Kconfig"/' "$kc"
		else
			printf '\nsource "lib/bqlm/kunit/Kconfig"\n' >>"$kc"
		fi
		grep -Fq 'source "lib/bqlm/kunit/Kconfig"' "$kc" ||
			die 1 "could not add source \"lib/bqlm/kunit/Kconfig\" to $kc"
		info "added source \"lib/bqlm/kunit/Kconfig\" to lib/Kconfig.debug"
	fi
}

# ---------------------------------------------------------------------------
# 3b. the real-code harness: what real/patches/DRIVER/series describes
# (see docs/real-code.md), generated into $KDIR/lib/bqlm/gen/

# put_if_changed NEW DEST: move NEW to DEST unless DEST has that content
# (the kernel build then stays incremental); note DEST as generated.
put_if_changed() {
	if ! cmp -s "$1" "$2"; then
		mv "$1" "$2"
	else
		rm -f "$1"
	fi
	GEN_FILES+=("${2##*/}")
}

# gen_real_driver DRIVER FILE...: one variant per line "NAME ON PROPERTY..."
# of real/patches/DRIVER/series. For each, in $GEN:
#   DRIVER-NAME.EXT  each tree FILE (one per extension) with NAME.patch
#                    applied on ON's copy ("-": the tree's file as it is);
#   DRIVER_ID.c      the variant's object (ID: NAME with '_' for '-'): its
#                    name and properties as BQLM_VARIANT_* macros, then
#                    real/DRIVER/variant.h, which compiles the copy;
#   DRIVER-NAME+F.c  for DRIVER usbnet, each minidriver file F.c of
#                    drivers/net/usb/ that NAME.patch or a patch under it
#                    changes (VARIANT_MINI[usbnet:NAME] lists them): the
#                    variant's minidriver objects include it instead of
#                    the tree's (gen_usbnet_minidrivers());
# and DRIVER-variants.h, the harness's table of them: each variant's
# struct bqlm_rDRIVER_ops declared, and BQLM_RDRIVER_VARIANTS, the
# initialiser of an array of struct bqlm_rc_variant (the model's name, the
# ops). The objects are added to GEN_OBJS, for the Kbuild fragment.
# A patch may change the FILEs and, for usbnet, the minidrivers' .c files
# of drivers/net/usb/ (not their headers: every copy includes the tree's);
# anything else is an error.
gen_real_driver() {
	local driver=$1 pdir="$SRC/real/patches/$1" work f ext name on id prop
	local line lineno=0 props defs names=" " ops="bqlm_r$1" table=""
	local mini="drivers/net/usb/" ours
	shift
	ours=" $* "
	[[ -f "$pdir/series" ]] || die 1 "real/patches/$driver/series is missing"
	work=$(mktemp -d "$CACHE/gen.XXXXXX")
	for f in "$@"; do
		[[ -f "$KDIR/$f" ]] || die 1 "$KDIR has no $f"
		mkdir -p "$work/.tree/${f%/*}"
		cp "$KDIR/$f" "$work/.tree/$f"
	done
	printf '/* SPDX-License-Identifier: GPL-2.0 */\n/* Generated by scripts/kunit.sh from real/patches/%s/series */\n' \
		"$driver" >"$work/variants.h"
	while IFS= read -r line || [[ -n "$line" ]]; do
		lineno=$((lineno + 1))
		line=${line%%#*}
		read -r name on props <<<"$line" || true
		[[ -n "$name" ]] || continue
		f="real/patches/$driver/series:$lineno"
		[[ "$name" =~ ^[a-z0-9][a-z0-9-]*$ ]] ||
			die 1 "$f: '$name' is not a variant name (a-z, 0-9, '-')"
		[[ "$names" != *" $name "* ]] || die 1 "$f: variant '$name' listed twice"
		[[ -n "$on" ]] || die 1 "$f: '$name' needs the variant it applies on ('-': the tree as it is)"
		id=${name//-/_}
		if [[ "$on" == - ]]; then
			cp -r "$work/.tree" "$work/$name"
		else
			[[ "$names" == *" $on "* ]] ||
				die 1 "$f: '$name' applies on '$on', which is not listed above it"
			[[ -f "$pdir/$name.patch" ]] || die 1 "$f: real/patches/$driver/$name.patch is missing"
			cp -r "$work/$on" "$work/$name"
			# the minidriver files it changes, from the tree unless ON's
			for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$pdir/$name.patch"); do
				[[ "$ours" != *" $f "* && ! -f "$work/$name/$f" ]] || continue
				[[ "$driver" == usbnet && "$f" =~ ^drivers/net/usb/[a-z0-9_-]+\.c$ &&
					-f "$KDIR/$f" ]] ||
					die 1 "real/patches/$driver/$name.patch changes $f: a $driver patch may change only $*$([[ $driver != usbnet ]] || printf ' and the .c files of %s' "$mini")"
				mkdir -p "$work/$name/${f%/*}"
				cp "$KDIR/$f" "$work/$name/$f"
			done
			patch -s -p1 -d "$work/$name" <"$pdir/$name.patch" ||
				die 1 "real/patches/$driver/$name.patch does not apply to $* (on $on)"
		fi
		names+="$name "
		defs=$(printf '#define BQLM_VARIANT_ID\t\t%s\n#define BQLM_VARIANT_NAME\t"%s"' "$id" "$name")
		for f in "$@"; do
			ext=${f##*.}
			cp "$work/$name/$f" "$work/$driver-$name.$ext.new"
			put_if_changed "$work/$driver-$name.$ext.new" "$GEN/$driver-$name.$ext"
			defs+=$(printf '\n#define BQLM_VARIANT_%s\t\t<%s-%s.%s>' "${ext^^}" "$driver" "$name" "$ext")
		done
		VARIANT_MINI[$driver:$name]=" "
		for f in "$work/$name/$mini"*.c; do
			[[ -f "$f" && "$ours" != *" $mini${f##*/} "* ]] || continue
			cp "$f" "$work/$driver-$name+${f##*/}.new"
			put_if_changed "$work/$driver-$name+${f##*/}.new" "$GEN/$driver-$name+${f##*/}"
			VARIANT_MINI[$driver:$name]+="${f##*/} "
		done
		for prop in $props; do
			[[ "$prop" =~ ^[a-z][a-z0-9_]*(=[a-z0-9][a-z0-9-]*)?$ ]] ||
				die 1 "real/patches/$driver/series: '$name': '$prop' is not a property (word or word=value)"
			if [[ "$prop" == *=* ]]; then
				f=${prop%%=*}
				f=${f^^}
				ext=${prop#*=}
				ext=${ext^^}
				defs+=$(printf '\n#define BQLM_VARIANT_%s\tBQLM_VARIANT_%s_%s' "$f" "$f" "${ext//-/_}")
			else
				defs+=$(printf '\n#define BQLM_VARIANT_%s\t1' "${prop^^}")
			fi
		done
		cat >"$work/${driver}_$id.c.new" <<-EOT
		// SPDX-License-Identifier: GPL-2.0
		/*
		 * The $driver variant "$name" of the real-code harness, generated by
		 * scripts/kunit.sh from real/patches/$driver/series (docs/real-code.md).
		 */
		$defs
		#include "../real/${driver}/variant.h"
		EOT
		put_if_changed "$work/${driver}_$id.c.new" "$GEN/${driver}_$id.c"
		GEN_OBJS+=("gen/${driver}_$id.o")
		VARIANT_DEFS[$driver:$name]=$defs
		VARIANT_PROPS[$driver:$name]=" $props "
		printf 'extern const struct %s_ops %s_%s_ops;\n' "$ops" "$ops" "$id" \
			>>"$work/variants.h"
		table+=$(printf '\t{ "%s", &%s_%s_ops },\t\\\n' "$name" "$ops" "$id")
		table+=$'\n'
	done <"$pdir/series"
	[[ "$names" != " " ]] || die 1 "real/patches/$driver/series lists no variant"
	VARIANT_NAMES=$names
	printf '/* the variants by the model'"'"'s names: struct bqlm_rc_variant entries */\n#define %s_VARIANTS {\t\\\n%s}\n' \
		"${ops^^}" "$table" >>"$work/variants.h"
	put_if_changed "$work/variants.h" "$GEN/$driver-variants.h"
	rm -rf "$work"
}

# The usbnet minidrivers of real/usbnet/minidrivers.h: one line
# "BQLM_RUSBNET_MINIDRIVER(ID, "FILE...")" each (FILE: the tree's
# drivers/net/usb/ files it is made of; "" for the harness's own
# driver_info; "@OTHER" for one more entry of OTHER's module, compiled in
# OTHER's object). Each variant compiles every minidriver without a file, and
# a variant with the series property "minidrivers" every one: an object
# DRIVER_VARIANT__ID.c each (the variant's definitions, the minidriver's
# files with the variant's usbnet.h and the glue, then its entry of the
# table); and usbnet-minidrivers.h lists them for the variants' tables:
# BQLM_RUSBNET_MINIDRIVERS_ALL(X) and _BASE(X) (those without a file).
gen_usbnet_minidrivers() {
	local table="$SRC/real/usbnet/minidrivers.h" line id files name vid f
	local all=() base=() lineno=0 ids=" " out
	[[ -f "$table" ]] || die 1 "real/usbnet/minidrivers.h is missing"
	declare -A mfiles=()
	while IFS= read -r line || [[ -n "$line" ]]; do
		lineno=$((lineno + 1))
		[[ "$line" == BQLM_RUSBNET_MINIDRIVER\(* ]] || continue
		[[ "$line" =~ ^BQLM_RUSBNET_MINIDRIVER\(([a-z][a-z0-9_]*),\ *\"([^\"]*)\"\)$ ]] ||
			die 1 "real/usbnet/minidrivers.h:$lineno: not BQLM_RUSBNET_MINIDRIVER(id, \"file.c ...\")"
		id=${BASH_REMATCH[1]}
		files=${BASH_REMATCH[2]}
		[[ "$ids" != *" $id "* ]] ||
			die 1 "real/usbnet/minidrivers.h:$lineno: minidriver '$id' listed twice"
		if [[ "$files" == @* ]]; then
			[[ -n "${mfiles[${files#@}]:-}" ]] ||
				die 1 "real/usbnet/minidrivers.h:$lineno: '$id' is compiled in '${files#@}', which is not a minidriver with files listed above it"
		else
			for f in $files; do
				[[ "$f" =~ ^[a-z0-9_-]+\.c$ && -f "$KDIR/drivers/net/usb/$f" ]] ||
					die 1 "real/usbnet/minidrivers.h:$lineno: '$id': $KDIR has no drivers/net/usb/$f"
			done
		fi
		ids+="$id "
		mfiles[$id]=$files
		all+=("$id")
		[[ -n "$files" ]] || base+=("$id")
	done <"$table"
	((${#all[@]})) || die 1 "real/usbnet/minidrivers.h lists no minidriver"
	for name in $USBNET_VARIANTS; do
		vid=${name//-/_}
		for id in "${all[@]}"; do
			if [[ -n "${mfiles[$id]}" &&
				"${VARIANT_PROPS[usbnet:$name]}" != *" minidrivers "* ]]; then
				continue
			fi
			# in the object of the entry it names
			[[ "${mfiles[$id]}" != @* ]] || continue
			out="$GEN/usbnet_${vid}__$id.c"
			{
				printf '// SPDX-License-Identifier: GPL-2.0
'
				printf '/*
 * The usbnet minidriver %s in the variant "%s" of the real-code
' "$id" "$name"
				printf ' * harness, generated by scripts/kunit.sh from real/usbnet/minidrivers.h.
 */
'
				printf '%s
' "${VARIANT_DEFS[usbnet:$name]}"
				printf '#define BQLM_RUSBNET_THIS_%s	1
' "$id"
				printf '#include "../real/usbnet/minidriver.h"
'
				for f in ${mfiles[$id]}; do
					if [[ "${VARIANT_MINI[usbnet:$name]}" == *" $f "* ]]; then
						# the variant's patched copy
						printf '#include "usbnet-%s+%s"
' "$name" "$f"
					else
						printf '#include <%s>
' "$f"
					fi
				done
				printf '#include "../real/usbnet/minidriver_entry.h"
'
			} >"$out.new"
			put_if_changed "$out.new" "$out"
			GEN_OBJS+=("gen/usbnet_${vid}__$id.o")
		done
	done
	{
		printf '/* SPDX-License-Identifier: GPL-2.0 */
'
		printf '/* Generated by scripts/kunit.sh from real/usbnet/minidrivers.h */
'
		printf '#define BQLM_RUSBNET_MINIDRIVERS_ALL(X)'
		printf ' X(%s)' "${all[@]}"
		printf '
#define BQLM_RUSBNET_MINIDRIVERS_BASE(X)'
		printf ' X(%s)' "${base[@]}"
		printf '
'
	} >"$GEN/usbnet-minidrivers.h.new"
	put_if_changed "$GEN/usbnet-minidrivers.h.new" "$GEN/usbnet-minidrivers.h"
}

# Every generated file of the harness: the variants of each driver, the
# renames of drivers/net/usb/'s exports (each usbnet variant's object
# compiles usbnet.c and the minidrivers with them, so that the copies link
# into one kernel), and the Kbuild fragment that lists the variants'
# objects (included by the top-level Kbuild). Nothing is copied into this
# repository; files of variants no longer listed are removed.
gen_real_sources() {
	local f
	command -v patch >/dev/null || apt_install "patch(1) is needed to build the real-code variants" patch
	GEN="$KDIR/lib/bqlm/gen"
	GEN_FILES=()
	GEN_OBJS=()
	mkdir -p "$GEN"
	declare -gA VARIANT_DEFS=() VARIANT_PROPS=() VARIANT_MINI=()
	gen_real_driver usbnet drivers/net/usb/usbnet.c include/linux/usb/usbnet.h
	USBNET_VARIANTS=$VARIANT_NAMES
	gen_usbnet_minidrivers
	gen_real_driver tun drivers/net/tun.c
	gen_real_driver virtio_net drivers/net/virtio_net.c
	gen_real_driver veth drivers/net/veth.c
	sed -n 's/^EXPORT_SYMBOL[A-Z_]*(\([a-z_0-9]*\));.*/#define \1 BQLM_RUSBNET_SYM(\1)/p' \
		"$KDIR"/drivers/net/usb/*.c | sort -u >"$GEN/usbnet-exports.h.new"
	put_if_changed "$GEN/usbnet-exports.h.new" "$GEN/usbnet-exports.h"
	{
		printf '# SPDX-License-Identifier: GPL-2.0\n'
		printf '# Generated by scripts/kunit.sh from real/patches/*/series\n'
		printf 'bqlm_kunit-$(CONFIG_BQLM_REAL_HARNESS) +='
		printf ' \\\n\t%s' "${GEN_OBJS[@]}"
		printf '\n'
	} >"$GEN/real.mk.new"
	put_if_changed "$GEN/real.mk.new" "$GEN/real.mk"
	for f in "$GEN"/*; do
		[[ " ${GEN_FILES[*]} " == *" ${f##*/} "* ]] || rm -rf "$f"
	done
}

# ---------------------------------------------------------------------------
# 4. W=1 check of our own files

# Compile each of our C files again with W=1 to an assembler file (.s):
# this shows every W=1 warning without touching the .o files that the
# kernel is linked from, so the kunit.py build stays incremental. Kbuild
# recompiles a .s only when its sources or command changed (a .s that had
# warnings is removed, so that it is checked again next time).  W=1's
# kernel-doc check (done by Kbuild only for .o builds) is run by hand.
# Prints the warnings found (if any) to stdout, and saves the full output
# in build/kunit[-ARCH]-w1.log.  Returns 1 if the check itself could not be done.
w1_check() {
	local objs=() srcs=() o rel out kdoc rc=0 list mk warned f
	# The objects linked into the kernel are the members of the thin
	# archive built-in.a (ar prints them relative to the current directory);
	# stale objects of files no longer in Kbuild are not.  For a module
	# (=m), all the objects found.
	if list=$(cd "$BUILD_DIR" && ar t lib/bqlm/built-in.a 2>/dev/null) && [[ -n "$list" ]]; then
		:
	else
		list=$(cd "$BUILD_DIR" && find lib/bqlm -name '*.o' 2>/dev/null | sort)
	fi
	while IFS= read -r o; do
		rel=${o%.o}
		[[ -f "$KDIR/$rel.c" ]] || continue # composite objects, .mod.o
		objs+=("$rel.s")
		srcs+=("$KDIR/$rel.c")
	done <<<"$list"
	if ((${#objs[@]} == 0)); then
		printf 'kunit.sh: error: no objects under %s/lib/bqlm after the build: is CONFIG_BQLM_KUNIT_TEST=y in kunit/.kunitconfig?\n' "$BUILD_DIR" >&2
		return 1
	fi
	mk=(make -C "$KDIR" ARCH="$KARCH" O="$BUILD_DIR")
	[[ -z "$CROSS" ]] || mk+=(CROSS_COMPILE="$CROSS")
	out=$("${mk[@]}" --jobs="$JOBS" W=1 "${objs[@]}" 2>&1) || rc=$?
	kdoc=$("$KDIR/scripts/kernel-doc" -none "${srcs[@]}" 2>&1) || rc=$?
	printf '%s\n%s\n' "$out" "$kdoc" >"$OUT_W1"
	# Kbuild rebuilds a .s only when its source, a header it includes or
	# its command changed, so a warm run compiles nothing again; a file
	# that warned loses its .s, so that it is compiled, and warns, again
	# (a warning in one of our headers: every file).
	warned=$(printf '%s\n' "$out" |
		sed -n -E 's#^([^: ]*lib/bqlm/[^: ]*\.[ch]):[0-9]+:[0-9]+: (warning|error):.*#\1#p' |
		sort -u)
	if [[ "$warned" == *.h* ]]; then
		for o in "${objs[@]}"; do rm -f "$BUILD_DIR/$o"; done
	elif [[ -n "$warned" ]]; then
		while IFS= read -r f; do
			f=${f#"$KDIR"/}
			rm -f "$BUILD_DIR/${f%.c}.s"
		done <<<"$warned"
	fi
	if [[ $rc -ne 0 ]]; then
		printf '%s\n%s\n' "$out" "$kdoc" >&2
		printf 'kunit.sh: error: the W=1 compile of lib/bqlm/ failed (exit %d)\n' "$rc" >&2
		return 1
	fi
	# make builds "prepare" (with W=1 too) before it descends into lib/:
	# everything from the first "CC lib/bqlm/..." on comes from our files,
	# including warnings located in kernel headers that our code triggers.
	printf '%s\n' "$out" |
		sed -n '/^[[:space:]]*CC[[:space:]].*lib\/bqlm\//,$p' |
		grep -E -B1 -A3 '(warning|error):' || true
	printf '%s\n' "$kdoc" | grep -E '(warning|error):' || true
	return 0
}

# ---------------------------------------------------------------------------

main() {
	local t_start t0 kunitpy rc=0 warn w1 extra=() kcmd kopts
	t_start=$(date +%s)

	env_words KUNIT_ARGS extra 1

	# One run at a time per checkout and architecture: such runs share a
	# build directory and build/ files. Runs for different architectures
	# share the kernel tree: each prepares it under a second lock.
	run_lock "kunit$SUFFIX.lock" "scripts/kunit.sh (ARCH=$KARCH)"
	ktree_lock

	check_build_deps

	if [[ -n "${KDIR:-}" ]]; then
		[[ -d "$KDIR" ]] || die 1 "KDIR=$KDIR is not a directory"
		KDIR=$(cd "$KDIR" && pwd -P)
		BUILD_DIR="$CACHE/kunit-build$SUFFIX-$(printf '%s' "$KDIR" | sha1sum | cut -c1-12)"
		info "kernel tree: $KDIR (from KDIR, Linux $(ktree_version "$KDIR"); lib/bqlm/, lib/Makefile and lib/Kconfig.debug will be modified)"
	else
		unpack_debian_source
		KDIR="$CACHE/$SRC_PKG"
		BUILD_DIR="$CACHE/kunit-build$SUFFIX"
	fi
	kunitpy="$KDIR/tools/testing/kunit/kunit.py"
	[[ -f "$KDIR/Makefile" && -f "$KDIR/lib/Kconfig.debug" ]] ||
		die 1 "$KDIR does not look like a kernel source tree (no Makefile or lib/Kconfig.debug)"
	[[ -f "$kunitpy" ]] || die 1 "$KDIR has no tools/testing/kunit/kunit.py (KUnit needs Linux >= 5.5)"
	[[ $KARCH == um || -f "$KDIR/tools/testing/kunit/qemu_configs/$KARCH.py" ]] ||
		die 1 "$KDIR has no tools/testing/kunit/qemu_configs/$KARCH.py: kunit.py cannot build ARCH=$KARCH"
	if [[ -f "$KDIR/.config" || -d "$KDIR/include/config" ]]; then
		die 1 "$KDIR has been configured or built in-tree; the out-of-tree build" \
			"in $BUILD_DIR needs a clean tree: run 'make -C $KDIR mrproper' first"
	fi

	# every patch of real/patches/ on this tree first: a new kernel
	# release that breaks one is named as such, not as a build error
	"$SRC/scripts/check-patches.sh" "$KDIR" || exit 1

	wire_project
	gen_real_sources

	# The tree is ready; other architectures may prepare it now.
	ktree_unlock

	local tag=${KUNIT_TAG:+-$KUNIT_TAG}
	[[ -z "${KUNIT_TAG:-}" || "$KUNIT_TAG" =~ ^[a-z0-9][a-z0-9_-]*$ ]] ||
		die 1 "KUNIT_TAG=$KUNIT_TAG is not a name (a-z, 0-9, '-', '_')"
	OUT_JSON="$RESULTS/kunit$SUFFIX$tag-results.json"
	OUT_TEST="$RESULTS/kunit$SUFFIX$tag-test.log"
	OUT_LOG="$RESULTS/kunit$SUFFIX$tag-output.log"
	OUT_W1="$RESULTS/kunit$SUFFIX$tag-w1.log"
	OUT_KERNEL="$RESULTS/kunit$SUFFIX$tag-kernel.txt"
	mkdir -p "$RESULTS" "$BUILD_DIR"
	rm -f "$OUT_JSON" "$OUT_TEST" \
		"$OUT_LOG" "$OUT_W1" "$BUILD_DIR/test.log"
	# the version this run read, for make results (docs/results.md)
	printf '%s %s\n' "$(ktree_version "$KDIR")" "${KDIR#"$REPO"/}" >"$OUT_KERNEL"

	kcmd=run
	kopts=(--json="$OUT_JSON")
	if [[ $BUILD_ONLY -eq 1 ]]; then
		kcmd=build
		kopts=()
	fi

	# take about half of that on an idle 2-core machine, and several
	# times it on a loaded one (UML runs on one CPU). A limit is for a
	# hung kernel, not a slow one (KUNIT_ARGS=--timeout=N overrides).
	[[ $BUILD_ONLY -eq 1 ]] || kopts+=(--timeout=1200)
	if [[ $KARCH != um ]]; then
		kopts+=(--arch="$KARCH")
		[[ -z "$CROSS" ]] || kopts+=(--cross_compile="$CROSS")
		# QEMU emulates the CPU: more time still
		[[ $BUILD_ONLY -eq 1 ]] || kopts+=(--timeout=1800)
	fi

	info "build dir: $BUILD_DIR (incremental)"
	# Kbuild's "source" link names the tree that last built there; a make
	# run by hand with another tree makes the next build a long one.
	if [[ -L "$BUILD_DIR/source" ]] &&
		[[ "$(readlink -f "$BUILD_DIR/source")" != "$KDIR" ]]; then
		info "note: $BUILD_DIR was last built from $(readlink -f "$BUILD_DIR/source"), not $KDIR: much will be rebuilt"
	fi
	t0=$(date +%s)
	(
		cd "$KDIR"
		set -x
		python3 "$kunitpy" "$kcmd" \
			--kunitconfig="$SRC/kunit/.kunitconfig" \
			"${FRAGMENT[@]}" \
			--build_dir="$BUILD_DIR" \
			"${kopts[@]}" \
			--jobs="$JOBS" \
			"${extra[@]}"
	) 2>&1 | tee "$OUT_LOG" || rc=$?
	info "kunit.py finished in $(elapsed "$t0") with exit status $rc"

	if [[ -f "$BUILD_DIR/test.log" ]]; then
		cp "$BUILD_DIR/test.log" "$OUT_TEST"
	fi

	# Once the kernel is built: warnings in our files that the normal
	# build printed (kunit.py shows make's stderr), then the W=1 check.
	if [[ -f "$BUILD_DIR/vmlinux" && -z "${KUNIT_TAG:-}" ]] &&
		[[ $rc -eq 0 || -f "$OUT_TEST" ]] &&
		[[ "${KUNIT_W1:-1}" != 0 ]]; then
		t0=$(date +%s)
		info "W=1 check of lib/bqlm/ ..."
		warn=$(grep -E -A3 '(^|/)lib/bqlm/[^:]*:[0-9:]*[[:space:]]*(warning|error):' \
			"$OUT_LOG" || true)
		if w1=$(w1_check); then
			warn+=$w1
		else
			warn+=$'\n(the W=1 check could not be done, see above)'
		fi
		if [[ -n "$warn" ]]; then
			printf '%s\n' "$warn" >&2
			printf 'kunit.sh: error: the kernel build of lib/bqlm/ has warnings (see above, W=1 output in build/%s)\n' \
				"${OUT_W1##*/}" >&2
			[[ $rc -ne 0 ]] || rc=1
		else
			info "W=1 check of lib/bqlm/: no warnings ($(elapsed "$t0"))"
		fi
	fi

	if [[ $BUILD_ONLY -eq 1 ]]; then
		if [[ $rc -eq 0 ]]; then
			printf '%s: built in %s, lib/bqlm/ links and is W=1 clean (exit 0, %s)\n' \
				"$LABEL" "${BUILD_DIR#"$REPO"/}" "$(elapsed "$t_start")"
		else
			printf '%s: FAILED; kunit.py output in build/%s (exit %d, %s)\n' \
				"$LABEL" "${OUT_LOG##*/}" "$rc" "$(elapsed "$t_start")"
		fi
		return "$rc"
	fi
	if [[ $rc -ne 0 && ! -f "$OUT_JSON" ]]; then
		printf 'kunit.sh: error: no test results: the build or the kernel boot failed; output in build/%s\n' \
			"${OUT_LOG##*/}" >&2
	fi
	if [[ -f "$OUT_JSON" ]]; then
		# One plain summary line, counted from the JSON results.
		python3 - "$OUT_JSON" <<'EOF' || true
import json, sys
counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
def walk(g):
    for t in g.get("test_cases", []):
        s = t.get("status", "FAIL")
        counts[s if s in counts else "FAIL"] += 1
    for sub in g.get("sub_groups", []):
        walk(sub)
with open(sys.argv[1]) as f:
    walk(json.load(f))
print("kunit: %d passed, %d failed, %d skipped"
      % (counts["PASS"], counts["FAIL"], counts["SKIP"]))
EOF
	fi
	if [[ -f "$OUT_JSON" ]]; then
		printf '%s: results in build/%s, kernel log in build/%s (exit %d, %s)\n' \
			"$LABEL" "${OUT_JSON##*/}" "${OUT_TEST##*/}" "$rc" "$(elapsed "$t_start")"
	elif [[ $rc -eq 0 ]]; then # kunit.py --raw_output writes no JSON
		printf '%s: no JSON results (raw output), kernel log in build/%s (exit 0, %s)\n' \
			"$LABEL" "${OUT_TEST##*/}" "$(elapsed "$t_start")"
	else
		printf '%s: FAILED, no results; kunit.py output in build/%s (exit %d, %s)\n' \
			"$LABEL" "${OUT_LOG##*/}" "$rc" "$(elapsed "$t_start")"
	fi
	return "$rc"
}

# On one line: bash must not read this file further once main returns.
main "$@"; exit
