#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make lkmm: every barrier claim of the project, checked by the Linux-kernel
# memory model (tools/memory-model in the kernel tree, run by herd7) and
# compared, claim by claim, with the explorer's verdict under its weakest
# memory model (pso), run live.
#
#   scripts/lkmm.sh [FILE.litmus ...]      (default: every lkmm/*.litmus,
#                                           then a self-test: a barrier
#                                           removed must be caught)
#
# Each litmus test's header names its claim and how to judge it:
#   Result: Never|Sometimes     LKMM's verdict the project states
#   Flags: data-race            flags herd7 must raise (default: none)
#   Explorer: explore ...       the bqlm command whose verdict must agree:
#                               exit 0 (no violation) <=> Never, exit 1
#                               with the Explorer-check violated <=>
#                               Sometimes
#   Explorer-check: NAME        the explorer's check that stands for the
#                               test's exists clause (stall, ...)
#   Explorer: none              a model assumption, not a verdict of the
#   Assumes: TEXT               explorer: LKMM must give Result
#   Explained: TEXT             a documented reason why a disagreement is
#                               right (it is then reported, not fatal)
#
# Environment (make variables pass through):
#   HERD7               herd7 to run (else herd7 on PATH, else built from
#                       HERDTOOLS_TARBALL)
#   HERDTOOLS_TARBALL   a herdtools7 source tarball; built once with dune
#                       into ${XDG_CACHE_HOME:-$HOME/.cache}/<tarball name>
#   KDIR                kernel tree whose tools/memory-model to use (else
#                       .cache/linux-source-6.12, unpacked by make kunit,
#                       else tools/memory-model out of Debian's
#                       linux-source-6.12 tarball)
#
# Exit: 0 every claim agrees, 1 a disagreement not explained (or a test
# herd7 or the explorer could not run), 2 herd7, the kernel's memory model
# or the explorer is missing (the message says what to install or pass).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
BQLM="$REPO/build/bqlm"
SRC_PKG=linux-source-6.12
SRC_TARBALL=/usr/src/$SRC_PKG.tar.xz
OCAML_PKGS=(ocaml-nox ocaml-dune menhir libmenhir-ocaml-dev libzarith-ocaml-dev ocaml-findlib)

info() { printf 'lkmm: %s\n' "$*" >&2; }
die() {
	local rc=$1
	shift
	printf 'lkmm: %s\n' "$*" >&2
	exit "$rc"
}

now_ms() { date +%s%3N; }
secs() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

# ---------------------------------------------------------------------------
# herd7

HERD=()

# The Debian packages the herdtools7 build needs: install them as root,
# else say which are missing and exit 2.
need_ocaml() {
	local p missing=()
	for p in "${OCAML_PKGS[@]}"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	if [[ $(id -u) != 0 ]]; then
		die 2 "building herd7 needs the Debian packages ${missing[*]}: apt-get install them as root, or pass HERD7=/path/to/herd7"
	fi
	info "installing ${missing[*]}"
	apt-get update -qq >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null ||
		die 2 "could not install ${missing[*]}"
}

# Build herd7 from $HERDTOOLS_TARBALL once; later runs reuse the build.
build_herd7() {
	local tb=$HERDTOOLS_TARBALL name dst bin tmp top t0
	[[ -f "$tb" ]] ||
		die 2 "HERDTOOLS_TARBALL=$tb does not exist (a herdtools7 source tarball, e.g. ../shared/tools/herdtools7-7.57.tar.gz)"
	name=$(basename "$tb")
	name=${name%.tar.gz}
	name=${name%.tgz}
	dst="${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/$name"
	bin="$dst/_build/default/herd/herd.exe"
	if [[ ! -x "$bin" ]]; then
		need_ocaml
		info "building herd7 from $tb into $dst (a few minutes) ..."
		t0=$(now_ms)
		mkdir -p "$(dirname "$dst")"
		rm -rf "$dst" "$dst".tmp.*
		tmp=$(mktemp -d "$dst.tmp.XXXXXX")
		tar -xzf "$tb" -C "$tmp" || die 2 "could not unpack $tb"
		top=$tmp
		# a tarball with one top directory, or the tree itself
		if [[ ! -f "$top/dune-project" ]]; then
			top=$(find "$tmp" -mindepth 2 -maxdepth 2 -name dune-project -printf '%h\n' | head -n 1)
			[[ -n "$top" ]] || die 2 "$tb is not a herdtools7 source tarball (no dune-project)"
		fi
		mv "$top" "$dst"
		rm -rf "$tmp"
		(cd "$dst" && sh ./version-gen.sh "$dst" >/dev/null &&
			dune build -j "$(nproc 2>/dev/null || echo 2)" \
				--profile release herd/herd.exe) >&2 ||
			die 2 "the herd7 build in $dst failed"
		info "herd7 built in $(secs $(($(now_ms) - t0))) s"
	fi
	HERD=("$bin" -I "$dst/herd/libdir")
}

find_herd7() {
	if [[ -n "${HERD7:-}" ]]; then
		[[ -x "$HERD7" ]] || die 2 "HERD7=$HERD7 is not an executable"
		HERD=("$HERD7")
	elif command -v herd7 >/dev/null 2>&1; then
		HERD=("$(command -v herd7)")
	elif [[ -n "${HERDTOOLS_TARBALL:-}" ]]; then
		build_herd7
	else
		die 2 "no herd7: pass HERD7=/path/to/herd7, put herd7 on PATH (herdtools7, e.g. 'opam install herdtools7'), or pass HERDTOOLS_TARBALL=/path/to/herdtools7-7.57.tar.gz to build it here (Debian packages: ${OCAML_PKGS[*]})"
	fi
	"${HERD[@]}" -version >/dev/null 2>&1 ||
		die 2 "${HERD[0]} does not run ('herd7 -version' failed)"
}

# ---------------------------------------------------------------------------
# the kernel's memory model

MMDIR=

find_lkmm() {
	local cache="$REPO/.cache/lkmm-$SRC_PKG" tmp
	if [[ -n "${KDIR:-}" ]]; then
		MMDIR="$KDIR/tools/memory-model"
		[[ -f "$MMDIR/linux-kernel.cfg" ]] ||
			die 2 "KDIR=$KDIR has no tools/memory-model/linux-kernel.cfg"
		return
	fi
	MMDIR="$REPO/.cache/$SRC_PKG/tools/memory-model"
	[[ -f "$MMDIR/linux-kernel.cfg" ]] && return
	MMDIR="$cache/tools/memory-model"
	[[ -f "$MMDIR/linux-kernel.cfg" ]] && return
	[[ -f "$SRC_TARBALL" ]] ||
		die 2 "no kernel memory model: run 'make kunit' (it unpacks $SRC_PKG), apt-get install $SRC_PKG, or pass KDIR=<kernel tree>"
	info "unpacking tools/memory-model from $SRC_TARBALL ..."
	mkdir -p "$REPO/.cache"
	rm -rf "$cache" "$cache".tmp.*
	tmp=$(mktemp -d "$cache.tmp.XXXXXX")
	xz -dc -T0 "$SRC_TARBALL" | tar -x -C "$tmp" "$SRC_PKG/tools/memory-model" ||
		die 2 "could not unpack tools/memory-model from $SRC_TARBALL"
	mv "$tmp/$SRC_PKG" "$cache"
	rm -rf "$tmp"
	[[ -f "$MMDIR/linux-kernel.cfg" ]] ||
		die 2 "$SRC_TARBALL has no tools/memory-model/linux-kernel.cfg"
}

# ---------------------------------------------------------------------------
# one litmus test

# header FILE KEY: the value of " * KEY: ..." in FILE's header comment,
# continuation lines (" *   ...") joined; empty if absent.
header() {
	awk -v key="$2" '
		/^ \*\)/ { exit }
		found && /^ \*   / { sub(/^ \*   /, ""); v = v " " $0; next }
		found { exit }
		index($0, " * " key ": ") == 1 {
			v = substr($0, length(key) + 6); found = 1
		}
		END { print v }' "$1"
}

ROWS=()
NR_CLAIMS=0
NR_AGREE=0
NR_EXPLAINED=0
NR_BAD=0
NR_EXPLORER=0
HERD_MS=0
EXPLORER_MS=0

# verdict_of OUTPUT: Never, Sometimes or Always from herd7's Observation line
verdict_of() {
	sed -n 's/^Observation [^ ]* \(Never\|Sometimes\|Always\) .*/\1/p' <<<"$1" | head -n 1
}

run_one() {
	local f=$1 name result flags ex check assumes explained
	local out rc=0 t0 ms lkmm got_flags exout exrc=0 exv ex_short agree note
	local exargs=() states depth
	name=$(basename "$f" .litmus)
	result=$(header "$f" Result)
	flags=$(header "$f" Flags | tr -s ', ' '\n' | sed '/^$/d' | sort -u | paste -sd, -)
	ex=$(header "$f" Explorer)
	check=$(header "$f" Explorer-check)
	assumes=$(header "$f" Assumes)
	explained=$(header "$f" Explained)
	NR_CLAIMS=$((NR_CLAIMS + 1))

	if [[ "$result" != Never && "$result" != Sometimes ]] ||
	   [[ -z "$ex" ]] ||
	   [[ "$ex" == none && -z "$assumes" ]] ||
	   [[ "$ex" != none && ( "$ex" != "explore "* || -z "$check" ) ]] ||
	   [[ "$ex" != none && " $ex " != *" --memory-model pso "* ]]; then
		ROWS+=("$name|?|?|bad header (Result, Explorer with --memory-model pso, Explorer-check or Assumes)|NO")
		NR_BAD=$((NR_BAD + 1))
		return
	fi

	t0=$(now_ms)
	out=$(cd "$MMDIR" && "${HERD[@]}" -conf linux-kernel.cfg "$f" 2>&1) || rc=$?
	ms=$(($(now_ms) - t0))
	HERD_MS=$((HERD_MS + ms))
	lkmm=$(verdict_of "$out")
	got_flags=$(sed -n 's/^Flag \(.*\)/\1/p' <<<"$out" | sort -u | paste -sd, -)
	if ((rc)) || [[ -z "$lkmm" ]]; then
		printf '%s\n' "$out" >&2
		ROWS+=("$name|error|-|herd7 gave no verdict (exit $rc)|NO")
		NR_BAD=$((NR_BAD + 1))
		return
	fi

	note=
	if [[ "$ex" == none ]]; then
		ex_short="model assumes $result"
		[[ "$lkmm" == "$result" ]] && agree=yes || agree=no
	else
		read -r -a exargs <<<"$ex"
		t0=$(now_ms)
		exout=$("$BQLM" "${exargs[@]}" --no-trace 2>&1) || exrc=$?
		EXPLORER_MS=$((EXPLORER_MS + $(now_ms) - t0))
		NR_EXPLORER=$((NR_EXPLORER + 1))
		states=$(sed -n 's/^states \([0-9]*\),.*/\1/p' <<<"$exout" | head -n 1)
		depth=$(sed -n "s/^  violated $check  *first at depth  *\([0-9]*\):.*/\1/p" <<<"$exout" | head -n 1)
		case $exrc in
		0) exv=ok ;;
		1)
			if grep -Eq "^  violated $check( |$)" <<<"$exout"; then
				exv="$check"
			else
				exv="other: $(sed -n 's/^  violated \([^ ]*\).*/\1/p' <<<"$exout" | paste -sd, -)"
			fi
			;;
		3) exv="bound stopped the search" ;;
		*)
			printf '%s\n' "$exout" >&2
			exv="error (exit $exrc)"
			;;
		esac
		ex_short="${ex#explore }"
		ex_short="${ex_short/ --memory-model pso/}: $exv"
		if [[ "$exv" == ok ]]; then
			ex_short="$ex_short ($states states)"
		elif [[ "$exv" == "$check" ]]; then
			ex_short="$ex_short (depth $depth)"
		fi
		if [[ "$exv" == ok && "$lkmm" == Never ]] ||
		   [[ "$exv" == "$check" && "$lkmm" != Never ]]; then
			agree=yes
		else
			agree=no
		fi
		# the header's own statement of LKMM's verdict must hold too
		if [[ "$agree" == yes && "$lkmm" != "$result" ]]; then
			agree=no
			note=" (header says $result)"
		fi
	fi
	if [[ "$got_flags" != "$flags" ]]; then
		agree=no
		note="$note (flags '${got_flags:-none}', header says '${flags:-none}')"
	fi
	case $agree in
	yes) NR_AGREE=$((NR_AGREE + 1)) ;;
	*)
		if [[ -n "$explained" ]]; then
			agree=explained
			NR_EXPLAINED=$((NR_EXPLAINED + 1))
		else
			agree=NO
			NR_BAD=$((NR_BAD + 1))
		fi
		;;
	esac
	ROWS+=("$name|$lkmm$note|${got_flags:--}|$ex_short|$agree $(secs "$ms")s")
}

# The comparison must be able to fail: tun-backpressure.litmus with the
# consumer's smp_mb() taken out and its explorer command unchanged
# (backpressure, which has the barrier) must come out as a disagreement.
self_test() {
	local src="$REPO/lkmm/tun-backpressure.litmus" tmp mutant out rc=0
	tmp=$(mktemp -d)
	mutant="$tmp/tun-backpressure-mutant.litmus"
	awk '/^P1\(/ { p1 = 1 }
		p1 && !done && /smp_mb\(\);/ { done = 1; next }
		{ print }' "$src" >"$mutant"
	if cmp -s "$src" "$mutant"; then
		rm -rf "$tmp"
		printf 'lkmm: self-test FAILED: no smp_mb() in P1 of %s\n' "$src"
		return 1
	fi
	out=$("$0" "$mutant" 2>&1) || rc=$?
	rm -rf "$tmp"
	if ((rc == 1)) &&
	   grep -Eq '^tun-backpressure-mutant +Sometimes .* NO ' <<<"$out"; then
		printf "lkmm: self-test: tun-backpressure without the consumer's smp_mb(): LKMM Sometimes, explorer ok: disagreement caught\n"
		return 0
	fi
	printf '%s\n' "$out" >&2
	printf 'lkmm: self-test FAILED: a barrier removed from a litmus test went unnoticed (exit %d)\n' "$rc"
	return 1
}

# ---------------------------------------------------------------------------

main() {
	local files=("$@") f row all=0 self=0
	if ((${#files[@]} == 0)); then
		files=("$REPO"/lkmm/*.litmus)
		all=1
	fi
	[[ -x "$BQLM" ]] || die 2 "$BQLM is missing: run make (make lkmm builds it)"
	find_herd7
	find_lkmm
	info "herd7: ${HERD[0]} ($("${HERD[@]}" -version 2>&1 | head -n 1))"
	info "model: $MMDIR"
	for f in "${files[@]}"; do
		[[ -f "$f" ]] || die 2 "no such litmus test: $f"
		run_one "$(cd "$(dirname "$f")" && pwd -P)/$(basename "$f")"
	done
	printf '%-38s %-10s %-25s %-66s %s\n' claim LKMM "LKMM flags" \
		"bqlm explore ... --memory-model pso (live), or assumption" \
		"agree herd7"
	for row in "${ROWS[@]}"; do
		IFS='|' read -r -a c <<<"$row"
		printf '%-38s %-10s %-25s %-66s %s\n' "${c[@]}"
	done
	if ((all)); then
		self_test || self=1
	fi
	printf 'lkmm: %d claims, %d agree, %d disagree' "$NR_CLAIMS" \
		"$NR_AGREE" "$((NR_BAD + NR_EXPLAINED))"
	if ((NR_EXPLAINED)); then
		printf ' (%d explained)' "$NR_EXPLAINED"
	fi
	printf '; %d against the explorer; herd7 %s s, explorer %s s\n' \
		"$NR_EXPLORER" "$(secs "$HERD_MS")" "$(secs "$EXPLORER_MS")"
	((NR_BAD == 0 && self == 0))
}

main "$@"
