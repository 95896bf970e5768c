#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh check|install - the Debian packages the userspace targets need.
#
# "check" installs what is missing when run as root (as CI does) and
# otherwise says exactly what to install; "install" always tries apt-get.
set -euo pipefail

mode=${1:-check}

# package:file-that-proves-it-is-installed
want=(
	"libcmocka-dev:/usr/include/cmocka.h"
	"lcov:/usr/bin/lcov"
	# gcc-12-multilib, not the gcc-multilib metapackage: that one conflicts
	# with every Debian cross compiler (make kunit ARCH=s390, make
	# kunit-build); its one file, /usr/include/asm, the Makefile replaces.
	"gcc-12-multilib:/usr/lib/gcc/x86_64-linux-gnu/12/32/libgcc.a"
	"libc6-dev-i386:/usr/include/x86_64-linux-gnu/gnu/stubs-32.h"
	"g++:/usr/bin/g++"
	"pkgconf:/usr/bin/pkg-config"
)

missing=()
for w in "${want[@]}"; do
	pkg=${w%%:*}
	file=${w#*:}
	if [ "$pkg" = gcc-12-multilib ] || [ "$pkg" = libc6-dev-i386 ]; then
		# only on x86_64 hosts; elsewhere -m32 is not attempted
		[ "$(uname -m)" = x86_64 ] || continue
		# any gcc version's 32-bit libgcc will do
		if [ "$pkg" = gcc-12-multilib ]; then
			compgen -G "/usr/lib/gcc/x86_64-linux-gnu/*/32/libgcc.a" \
				>/dev/null && continue
		fi
	fi
	[ -e "$file" ] || missing+=("$pkg")
done

# 32-bit runs of the suites link Debian's i386 libcmocka (multiarch)
i386=
if [ "$(uname -m)" = x86_64 ] && [ ! -e /usr/lib/i386-linux-gnu/libcmocka.so.0 ]; then
	i386=libcmocka0:i386
fi
# ...run natively, or under qemu-i386 where the kernel has no ia32 support
if [ "$(uname -m)" = x86_64 ] && ! command -v qemu-i386 >/dev/null; then
	missing+=(qemu-user)
fi

[ ${#missing[@]} -eq 0 ] && [ -z "$i386" ] && exit 0

if [ "$mode" = install ] || [ "$(id -u)" = 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	if [ ${#missing[@]} -gt 0 ] &&
	   ! apt-get install -y -qq "${missing[@]}" >/dev/null; then
		apt-get update -qq || true
		apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
	# The i386 library is best effort: without it the 32-bit suites
	# are only compiled (see "make m32").
	if [ -n "$i386" ]; then
		if ! dpkg --print-foreign-architectures | grep -qx i386; then
			dpkg --add-architecture i386
			apt-get update -qq || true
		fi
		apt-get install -y -qq "$i386" >/dev/null 2>&1 ||
			echo "deps: could not install $i386: 32-bit suites will be built, not run" >&2
	fi
	exit 0
fi

echo "deps: missing Debian packages: ${missing[*]} $i386" >&2
[ -n "$i386" ] && echo "deps: $i386 needs: sudo dpkg --add-architecture i386 && sudo apt-get update" >&2
echo "deps: install them with: sudo apt-get install ${missing[*]} $i386" >&2
exit 2
