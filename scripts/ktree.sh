# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/ktree.sh - sourced by scripts/kunit.sh (make kunit),
# scripts/audit.sh (make audit) and scripts/kunit-stack.sh (make
# kunit-stack): the messages and exits they share (die, info, elapsed),
# Debian's linux-source-6.12, unpacked once into .cache/linux-source-6.12
# of the checkout, the apt helpers that install what is missing, and the
# lock the scripts prepare the tree under.
#
# The caller sets KTREE_PROG (its name in messages), KTREE_INFO_FD (the
# file descriptor info writes to, default 1) and, before it calls a
# function, CACHE (the checkout's .cache).

KVER=6.12
SRC_PKG="linux-source-${KVER}"
SRC_TARBALL="/usr/src/${SRC_PKG}.tar.xz"
# The build directories a new kernel tarball makes stale.
ALL_BUILD_DIRS=(kunit-build kunit-build-i386 kunit-build-x86_64 kunit-build-s390
	kunit-build-arm kunit-build-arm64 kunit-build-debug)
KTREE_PROG=${KTREE_PROG:-$(basename "$0")}

# die RC MSG...: the message on stderr, exit RC
die() {
	local rc=$1
	shift
	printf '%s: error: %s\n' "$KTREE_PROG" "$*" >&2
	exit "$rc"
}

# info MSG...: a progress line
info() {
	printf '%s: %s\n' "$KTREE_PROG" "$*" >&"${KTREE_INFO_FD:-1}"
}

# elapsed T0: the time since T0 (date +%s) as 1m05s
elapsed() {
	local s=$(($(date +%s) - $1))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# ktree_version DIR: the version of the kernel tree DIR as its Makefile
# states it (VERSION.PATCHLEVEL.SUBLEVEL, then EXTRAVERSION, as the tree's
# "make kernelversion" prints it), e.g. 6.12.118; "unknown" without one.
# The project names no sublevel of its own: it reads the tree's.
ktree_version() {
	awk -F '[ \t]*=[ \t]*' '
		$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { e = $2 }
		$1 ~ /^NAME/ { exit }
		END {
			if (v == "") { print "unknown"; exit }
			printf "%s%s%s%s\n", v, p == "" ? "" : "." p,
				p == "" || s == "" ? "" : "." s, e
		}' "$1/Makefile" 2>/dev/null || echo unknown
}

IS_ROOT=0
[[ "$(id -u)" -eq 0 ]] && IS_ROOT=1
# A temporary unpack in progress: the caller's EXIT trap removes it.
# shellcheck disable=SC2034 # read by the caller's trap
UNPACK_TMP=

# apt helpers (Debian's registry only; nothing else is ever downloaded)

# apt helpers (Debian's registry only; nothing else is ever downloaded)

apt_lists_empty() {
	! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null
}

# apt_install WHY PKG... : install as root, else say what to install and exit 2
apt_install() {
	local why=$1
	shift
	if [[ $IS_ROOT -ne 1 ]] || ! command -v apt-get >/dev/null; then
		printf '%s: error: %s\n' "$KTREE_PROG" "$why" >&2
		printf '%s: install it first, e.g. as root:\n' "$KTREE_PROG" >&2
		printf '    apt-get update && apt-get install -y %s\n' "$*" >&2
		exit 2
	fi
	info "$why: apt-get install -y $*"
	export DEBIAN_FRONTEND=noninteractive
	if apt_lists_empty; then
		apt-get update -q || die 2 "apt-get update failed"
	fi
	if ! apt-get install -y -q --no-install-recommends "$@"; then
		info "apt-get install failed; refreshing package lists and retrying"
		apt-get update -q || die 2 "apt-get update failed"
		apt-get install -y -q --no-install-recommends "$@" ||
			die 2 "apt-get install -y $* failed"
	fi
}

# Unpack $SRC_TARBALL into $CACHE/$SRC_PKG unless an unpack of the same
# tarball is already there.  Unpacks to a temporary directory first, so an
# interrupted unpack is never taken for a complete tree.
unpack_debian_source() {
	local dest="$CACHE/$SRC_PKG" stamp want tmp t0
	if [[ ! -f "$SRC_TARBALL" ]]; then
		# --reinstall: the package may be installed with the file deleted.
		apt_install "kernel source $SRC_TARBALL is not installed" --reinstall "$SRC_PKG"
		[[ -f "$SRC_TARBALL" ]] ||
			die 1 "$SRC_PKG is installed but $SRC_TARBALL does not exist"
	fi
	want="$(stat -c '%s %Y' "$SRC_TARBALL") $SRC_TARBALL"
	stamp="$dest/.bqlm-unpacked"
	if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
		info "kernel tree: $dest (cached unpack of $SRC_TARBALL, Linux $(ktree_version "$dest"))"
		return
	fi
	mkdir -p "$CACHE"
	rm -rf "$CACHE/$SRC_PKG".tmp.*
	tmp=$(mktemp -d "$CACHE/$SRC_PKG.tmp.XXXXXX")
	UNPACK_TMP=$tmp
	info "unpacking $SRC_TARBALL into $dest ..."
	t0=$(date +%s)
	# The tarball is multi-block: xz can decompress it on all cores.
	xz -dc -T0 "$SRC_TARBALL" | tar -x -C "$tmp" ||
		die 1 "could not unpack $SRC_TARBALL into $tmp (disk full?)"
	[[ -f "$tmp/$SRC_PKG/Makefile" ]] ||
		die 1 "$SRC_TARBALL does not contain $SRC_PKG/Makefile"
	printf '%s\n' "$want" >"$tmp/$SRC_PKG/.bqlm-unpacked"
	# A stale tree or its build would mix old objects with new sources.
	rm -rf "$dest" "${ALL_BUILD_DIRS[@]/#/$CACHE/}"
	mv "$tmp/$SRC_PKG" "$dest"
	rm -rf "$tmp"
	# shellcheck disable=SC2034 # read by the caller's trap
	UNPACK_TMP=
	info "unpacked in $(elapsed "$t0"): Linux $(ktree_version "$dest")"
}

# ktree_lock: wait for, and hold on fd 8, the lock under which scripts
# prepare the tree (unpack it, wire lib/bqlm/ into it); ktree_unlock
# releases it. Without flock(1) both do nothing.
ktree_lock() {
	command -v flock >/dev/null || return 0
	mkdir -p "$CACHE"
	exec 8>"$CACHE/kunit-tree.lock"
	flock 8 || die 1 "cannot lock $CACHE/kunit-tree.lock"
}

ktree_unlock() {
	command -v flock >/dev/null || return 0
	exec 8>&-
}

# run_lock FILE WHAT: hold fd 9 on $CACHE/FILE, the lock of one run at a
# time in this checkout, and wait for it (saying so) while another WHAT
# holds it. Without flock(1) it does nothing.
run_lock() {
	local file=$1 what=$2
	mkdir -p "$CACHE"
	command -v flock >/dev/null || return 0
	exec 9>"$CACHE/$file"
	if ! flock -n 9; then
		info "another $what is running in ${REPO:-this checkout}; waiting for it ..."
		flock 9 || die 1 "cannot lock $CACHE/$file"
	fi
}

# env_words VAR ARRAY RC: the words of the environment variable VAR into
# the array named ARRAY, split with shell-like quoting (xargs: without
# globbing or expansion); unbalanced quotes: die RC.
env_words() {
	local -n words_=$2
	local value=${!1:-}
	words_=()
	[[ -n "$value" ]] || return 0
	xargs -r printf '' <<<"$value" >/dev/null 2>&1 ||
		die "$3" "cannot split $1=$value into words (unbalanced quotes?)"
	# shellcheck disable=SC2034 # a nameref: the caller's array
	mapfile -d '' words_ < <(xargs -r printf '%s\0' <<<"$value")
}
