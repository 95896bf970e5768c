#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/fuzz.sh run SECONDS TARGET...   (make fuzz FUZZ_TIME=SECONDS)
# scripts/fuzz.sh regress 0 TARGET...     (make fuzz-regress)
# scripts/fuzz.sh deps                    clang's libFuzzer, or what to install
#
# run: each libFuzzer target build/fuzz/fuzz_TARGET for SECONDS, one after
# the other, niced, from its seeds (fuzz/corpus/TARGET/, kept in the
# repository), the fixed crashes (fuzz/regress/TARGET/) and what earlier
# runs found (build/fuzz/corpus/TARGET/, where new inputs go). Prints per
# target the executions, the coverage (libFuzzer's covered edges of all
# instrumented, and features), the corpus, and the crashes, whose inputs
# are in build/fuzz/crashes/. regress: every seed and fixed crash once.
#
# Exit status: 0, 1 if a target crashed (or an oracle failed, or an input
# took over 10 s), 2 for bad usage or a missing compiler.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

die() {
	echo "fuzz: $2" >&2
	exit "$1"
}

deps() {
	local probe=${TMPDIR:-/tmp}/fuzz-probe.$$
	if printf 'int LLVMFuzzerTestOneInput(const char *d, long s) { return d && s; }\n' |
		clang -x c - -fsanitize=fuzzer,address,undefined -o "$probe" 2>/dev/null; then
		rm -f "$probe"
		return 0
	fi
	rm -f "$probe"
	if [[ $(id -u) -eq 0 ]]; then
		echo "fuzz: installing clang and its libFuzzer runtime" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev >/dev/null ||
			die 2 "apt-get install -y clang libclang-rt-dev failed"
		return 0
	fi
	die 2 "clang with libFuzzer is missing; install it first, e.g. as root: apt-get install -y clang libclang-rt-dev"
}

mode=${1:-}
case $mode in
deps)
	deps
	exit 0
	;;
run | regress) ;;
*) die 2 "usage: scripts/fuzz.sh run SECONDS TARGET... | regress 0 TARGET... | deps" ;;
esac
secs=${2:-}
[[ "$secs" =~ ^[0-9]+$ ]] || die 2 "FUZZ_TIME must be a number of seconds, not '$secs'"
[[ $mode == regress || $secs -gt 0 ]] || die 2 "FUZZ_TIME must be at least 1"
shift 2
[[ $# -gt 0 ]] || die 2 "no target"

B=build/fuzz
mkdir -p "$B/crashes"
crashed=0
for t in "$@"; do
	bin=$B/fuzz_$t
	[[ -x $bin ]] || die 2 "$bin is not built (make fuzz-build)"
	seeds=(fuzz/corpus/"$t")
	[[ -d fuzz/regress/$t ]] && seeds+=(fuzz/regress/"$t")
	if [[ $mode == regress ]]; then
		mapfile -t files < <(find "${seeds[@]}" -type f | sort)
		if "$bin" -close_fd_mask=3 "${files[@]}" >"$B/$t-regress.log" 2>&1; then
			echo "fuzz-regress $t: ${#files[@]} inputs, no crash"
		else
			echo "fuzz-regress $t: CRASH (build/fuzz/$t-regress.log):"
			grep -E -A12 'ERROR|fuzz: |SUMMARY|Running:' "$B/$t-regress.log" | tail -30
			crashed=$((crashed + 1))
		fi
		continue
	fi
	mkdir -p "$B/corpus/$t"
	log=$B/$t.log
	t0=$(date +%s)
	nice -n 10 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$B/crashes/$t-" \
		"$B/corpus/$t" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	edges=$(sed -n 's/^INFO: Loaded 1 modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
	arts=$(grep -o "$B/crashes/$t-[a-z]*-[0-9a-f]*" "$log" | sort -u)
	if [[ $rc -ne 0 || -n "$arts" ]]; then
		crashed=$((crashed + 1))
		status="CRASH (exit $rc): ${arts:-see $log}"
	else
		status="0 crashes"
	fi
	printf 'fuzz %-10s %4ss: %10s execs (%s/s), cov %s of %s edges, ft %s, corpus %s; %s\n' \
		"$t" "$(($(date +%s) - t0))" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
		"${edges:-?}" "${ft:-?}" "${corp:-?}" "$status"
	if [[ $rc -ne 0 ]]; then
		grep -E -A14 '^==[0-9]+==ERROR|^fuzz: |runtime error|SUMMARY|ALARM' "$log" | head -30 | sed 's/^/    /'
	fi
done
if [[ $crashed -ne 0 ]]; then
	echo "fuzz: $crashed target(s) crashed: the inputs are in $B/crashes/ (reproduce: $B/fuzz_TARGET FILE)"
	exit 1
fi
[[ $mode == regress ]] || echo "fuzz: no crash in $# target(s), $secs s each"
exit 0
