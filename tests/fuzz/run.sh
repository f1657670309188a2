#!/usr/bin/env bash
# Runs libFuzzer targets, one after the other, on their seeds.
#   tests/fuzz/run.sh [--seconds N] [--build-dir DIR] [--corpus DIR]
#                     [--work DIR] [TARGET...]
# Defaults: 600 seconds each; build-fuzz in the checkout (configure it with
# -DCMAKE_C_COMPILER=clang -DWINGEN_FUZZ=ON); the real-world corpus in
# ../shared/corpus/real; tests/fuzz/corpus-local as work folder (ignored
# by git), where each target keeps seeds-T/, the corpus it grows
# (corpus-T/), artifacts-T/ (inputs that broke an invariant) and T.log.
# TARGET: roundtrip, profile, build, migrate, review, tgz, krm, init,
# udiff, json (default: every one built).
# Exit status 0 when no target found anything, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
seconds=600 build=$src/build-fuzz corpus=$src/../shared/corpus/real
work=$here/corpus-local
targets=()
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) seconds=$2; shift 2 ;;
	--build-dir) build=$2; shift 2 ;;
	--corpus) corpus=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	-*) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
	*) targets+=("$1"); shift ;;
	esac
done
if [ ${#targets[@]} -eq 0 ]; then
	for t in roundtrip profile build migrate review tgz krm init udiff json; do
		[ -x "$build/tests/fuzz/fuzz_$t" ] && targets+=("$t")
	done
fi
[ ${#targets[@]} -gt 0 ] || { echo "run.sh: no fuzz target in $build" >&2; exit 2; }

status=0
for t in "${targets[@]}"; do
	bin=$build/tests/fuzz/fuzz_$t
	[ -x "$bin" ] || { echo "run.sh: $bin is missing" >&2; exit 2; }
	mkdir -p "$work/corpus-$t" "$work/artifacts-$t"
	rm -rf "$work/seeds-$t"
	WG_FUZZ_BUILD=$build bash "$here/seeds.sh" "$t" "$work/seeds-$t" \
		"$corpus" >/dev/null
	log=$work/$t.log
	# YAML words help every target but the one that reads gzip
	dict=-dict="$here/yaml.dict"
	[ "$t" = tgz ] && dict=-use_value_profile=1
	# One process (-jobs=1 would fork a worker and still use one core);
	# a unit slower than 10 s or an RSS over 2 GiB is a finding.
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=16384 "$dict" -print_final_stats=1 \
		-artifact_prefix="$work/artifacts-$t/" \
		"$work/corpus-$t" "$work/seeds-$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	units=$(find "$work/corpus-$t" -type f | wc -l)
	if [ $rc -eq 0 ]; then
		echo "fuzz $t: ${execs:-?} executions in ${seconds} s, corpus $units units, no finding"
	else
		echo "fuzz $t: FINDING (exit $rc) after ${execs:-?} executions; log $log"
		grep -E 'invariant broken|ERROR: |SUMMARY|^artifact_prefix|Test unit written' "$log" | head -20
		status=1
	fi
done
exit $status
