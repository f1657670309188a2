#!/usr/bin/env bash
# For every real-world manifest: `wingen fmt` exits 0, its output is
# semantically equal to the input (after List expansion and dropping empty
# documents; checked by yamlcmp, which uses libyaml's document API), and
# formatting the output again gives the same bytes.
set -u
wingen=$1 yamlcmp=$2 corpus=$3
if [ ! -d "$corpus" ]; then
	echo "SKIP: corpus folder $corpus is absent"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in "$corpus"/*.yaml "$corpus"/*.yml; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=$(basename "$f")
	if ! "$wingen" fmt -f "$f" >"$tmp/out1" 2>"$tmp/err"; then
		echo "FAIL $name: fmt exited non-zero: $(cat "$tmp/err")"
		fail=1; continue
	fi
	if ! "$yamlcmp" --expand "$f" "$tmp/out1" 2>"$tmp/cmp"; then
		echo "FAIL $name: output differs from input: $(cat "$tmp/cmp")"
		fail=1; continue
	fi
	"$wingen" fmt -f "$tmp/out1" >"$tmp/out2" 2>/dev/null
	if ! cmp -s "$tmp/out1" "$tmp/out2"; then
		echo "FAIL $name: second fmt changed the output"
		diff "$tmp/out1" "$tmp/out2" | head -5
		fail=1
	fi
done
echo "$n corpus files checked"
[ "$n" -gt 0 ] || { echo "FAIL: no corpus files found"; exit 1; }
exit $fail
