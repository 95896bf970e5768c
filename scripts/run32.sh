#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run32.sh PROGRAM [ARGS...] - run a 32-bit (i386) program: natively when
# the running kernel can, else under Debian's qemu-i386 (package qemu-user).
set -euo pipefail

if "$1" --help >/dev/null 2>&1; then
	exec "$@"
fi
if command -v qemu-i386 >/dev/null; then
	exec qemu-i386 -L / "$@"
fi
echo "run32: this kernel does not run i386 programs and qemu-i386 is missing" >&2
echo "run32: install it with: sudo apt-get install qemu-user" >&2
exit 2
