#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-patches.sh [KDIR] - every patch of real/patches/ applies on the
# kernel tree present, in the order the builds apply them:
#  - real/patches/DRIVER/series (usbnet, tun, virtio_net, veth): each
#    variant's NAME.patch on the copy of the variant ON it names, as
#    scripts/kunit.sh makes them;
#  - real/patches/cdc_ncm/ and real/patches/dummy_hcd/: their *.patch in
#    name order on the tree's file, as scripts/kunit-stack.sh does.
# The tree is only read. KDIR: the argument, else $KDIR, else make kunit's
# unpack of Debian's linux-source-6.12 (.cache/linux-source-6.12, unpacked
# now if missing). make kunit runs this before it builds; make
# check-patches runs it alone.
#
# Prints the tree's version (its Makefile's VERSION, PATCHLEVEL and
# SUBLEVEL) and, for a patch that does not apply, the patch, the variant it
# applies on, the tree's version and patch(1)'s words. Exit 1 if one does
# not apply, 2 on bad usage or a missing tree.
set -euo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
KTREE_PROG=check-patches
# shellcheck source=scripts/ktree.sh
source "$REPO/scripts/ktree.sh"
CACHE="$REPO/.cache"
PATCHES="$REPO/real/patches"

[[ $# -le 1 ]] || die 2 "usage: scripts/check-patches.sh [KDIR]"
KDIR=${1:-${KDIR:-}}
if [[ -z "$KDIR" ]]; then
	ktree_lock
	unpack_debian_source >&2
	ktree_unlock
	KDIR="$CACHE/$SRC_PKG"
fi
[[ -f "$KDIR/Makefile" ]] || die 2 "$KDIR is not a kernel tree (no Makefile)"
KDIR=$(cd "$KDIR" && pwd -P)
KVERSION=$(ktree_version "$KDIR")
command -v patch >/dev/null || apt_install "patch(1) is missing" patch

work=$(mktemp -d "${TMPDIR:-/tmp}/bqlm-check-patches.XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0 fuzzed=()

# apply DIR PATCH ON: PATCH (a path under real/patches/) on the copy DIR,
# the files it changes taken from the tree where DIR has none; dies naming
# the patch, ON and the tree's version if it does not apply
apply() {
	local dir=$1 p=$2 on=$3 f out
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$PATCHES/$p"); do
		[[ -f "$dir/$f" ]] && continue
		[[ -f "$KDIR/$f" ]] ||
			die 1 "real/patches/$p changes $f, which Linux $KVERSION ($KDIR) does not have"
		mkdir -p "$dir/${f%/*}"
		cp "$KDIR/$f" "$dir/$f"
	done
	# --forward: a patch already in the tree is a failure, not a revert
	if ! out=$(patch -p1 --forward --force --no-backup-if-mismatch \
		--reject-file=- -d "$dir" <"$PATCHES/$p" 2>&1); then
		printf '%s\n' "$out" >&2
		die 1 "real/patches/$p does not apply on $on of Linux $KVERSION ($KDIR)"
	fi
	[[ "$out" != *"with fuzz"* ]] || fuzzed+=("$p")
	n=$((n + 1))
}

# the series: one variant a line, "NAME ON [PROPERTY...]"
for series in "$PATCHES"/*/series; do
	driver=$(basename "$(dirname "$series")")
	names=" "
	while IFS= read -r line || [[ -n "$line" ]]; do
		line=${line%%#*}
		read -r name on _ <<<"$line" || true
		[[ -n "$name" ]] || continue
		[[ -n "$on" ]] || die 1 "real/patches/$driver/series: '$name' names no variant it applies on"
		mkdir -p "$work/$driver"
		if [[ "$on" == - ]]; then
			mkdir -p "$work/$driver/$name"
		else
			[[ "$names" == *" $on "* ]] ||
				die 1 "real/patches/$driver/series: '$name' applies on '$on', which is not listed above it"
			cp -r "$work/$driver/$on" "$work/$driver/$name"
			apply "$work/$driver/$name" "$driver/$name.patch" "$driver's variant $on"
		fi
		names+="$name "
	done <"$series"
done

# the stack's own patches, in name order on the tree's file
for d in cdc_ncm dummy_hcd; do
	compgen -G "$PATCHES/$d/*.patch" >/dev/null ||
		die 1 "real/patches/$d/ has no patch"
	mkdir -p "$work/$d"
	for p in "$PATCHES/$d"/*.patch; do
		apply "$work/$d" "$d/${p##*/}" "the tree's file (and the patches of $d/ before it)"
	done
done

printf 'check-patches: %d patches of real/patches/ apply on Linux %s (%s)' \
	"$n" "$KVERSION" "${KDIR#"$REPO"/}"
if ((${#fuzzed[@]})); then
	printf '; with fuzz: %s' "${fuzzed[*]}"
fi
printf '\n'
