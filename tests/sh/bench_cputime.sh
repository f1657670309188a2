#!/usr/bin/env bash
# bench/cputime, the bench's timer (bench/README.md): it must pass the
# command's streams and exit status through, and write its CPU time to the
# microsecond and its peak RSS.  WG_BENCH_CPUTIME (set by
# tests/CMakeLists.txt) names the program.
set -u
cputime=${WG_BENCH_CPUTIME:-}
if [ ! -x "$cputime" ]; then
	echo "FAIL: WG_BENCH_CPUTIME must name bench/cputime"
	exit 1
fi
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1
out=$tmp/time.out

# Streams pass through.
got=$(printf 'in\n' | "$cputime" "$out" cat)
[ "$got" = in ] || no "stdin/stdout not passed through: '$got'"
"$cputime" "$out" sh -c 'echo err >&2' 2>"$tmp/err" >/dev/null
[ "$(cat "$tmp/err")" = err ] || no "stderr not passed through"

# Exit status: the command's, 128 + N for signal N, 127 when it cannot run.
"$cputime" "$out" sh -c 'exit 3'; rc=$?
[ $rc = 3 ] || no "exit 3 came back as $rc"
[ -s "$out" ] || no "no times written for a command that failed"
"$cputime" "$out" sh -c 'kill -9 $$'; rc=$?
[ $rc = 137 ] || no "a SIGKILL came back as $rc, not 137"
"$cputime" "$out" "$tmp/no-such-program" 2>"$tmp/err"; rc=$?
[ $rc = 127 ] || no "a missing program came back as $rc, not 127"
grep -q 'no-such-program' "$tmp/err" || no "the error does not name the program: $(cat "$tmp/err")"
"$cputime" 2>/dev/null; [ $? = 2 ] || no "no arguments is not a usage error (2)"
"$cputime" "$tmp/no/dir/out" true 2>/dev/null; [ $? = 1 ] || no "an unwritable OUT did not fail"

# The line: user and system seconds to six decimals, peak RSS in KiB.  A
# loop that burns CPU shows user time, and over five runs at least one sum
# is not a whole number of 10 ms steps (GNU time's resolution).
fine=false
for i in 1 2 3 4 5; do
	"$cputime" "$out" awk 'BEGIN { for (i = 0; i < 2000000; i++) s += i }' \
		|| no "the loop failed"
	line=$(cat "$out")
	if ! [[ $line =~ ^([0-9]+)\.([0-9]{6})\ ([0-9]+)\.([0-9]{6})\ ([0-9]+)$ ]]; then
		no "not 'U.UUUUUU S.SSSSSS RSS': '$line'"
		break
	fi
	u_us=$((10#${BASH_REMATCH[1]} * 1000000 + 10#${BASH_REMATCH[2]}))
	s_us=$((10#${BASH_REMATCH[3]} * 1000000 + 10#${BASH_REMATCH[4]}))
	((u_us >= 5000)) || no "the loop shows only ${u_us} us of user time"
	((BASH_REMATCH[5] > 0)) || no "peak RSS is 0"
	(((u_us + s_us) % 10000 != 0)) && fine=true
done
$fine || no "every CPU time was a whole number of 10 ms: not to the microsecond"
exit $fail
