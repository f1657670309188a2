#!/usr/bin/env bash
# The benchmark's programs (bench/): gen is deterministic and writes a
# valid, varied stream; wingen fmt and the libyaml floor both read it back
# losslessly; and the floor emits exactly the bytes wingen fmt does, so it
# really uses wingen's emitter settings.  WG_BENCH_GEN and WG_BENCH_FLOOR
# (set by tests/CMakeLists.txt) name the two programs.
set -u
wingen=$1 yamlcmp=$2
gen=${WG_BENCH_GEN:-} floor=${WG_BENCH_FLOOR:-}
if [ ! -x "$gen" ] || [ ! -x "$floor" ]; then
	echo "FAIL: WG_BENCH_GEN and WG_BENCH_FLOOR must name the bench programs"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$gen" 50 >"$tmp/a.yaml" || bad "gen 50 exited non-zero"
"$gen" 50 >"$tmp/b.yaml" || bad "gen 50 exited non-zero (second run)"
cmp -s "$tmp/a.yaml" "$tmp/b.yaml" || bad "two runs of gen 50 differ"
"$gen" 60 >"$tmp/c.yaml"
cmp -s "$tmp/a.yaml" <(head -c "$(wc -c <"$tmp/a.yaml")" "$tmp/c.yaml") \
	|| bad "gen 60 does not start with the output of gen 50"

# 50 objects of about 2 KB each, of several kinds, Windows and Linux images.
docs=$(grep -c '^kind: ' "$tmp/a.yaml")
[ "$docs" -eq 50 ] || bad "gen 50 wrote $docs objects"
size=$(wc -c <"$tmp/a.yaml")
[ "$size" -ge 50000 ] && [ "$size" -le 200000 ] \
	|| bad "gen 50 wrote $size bytes, not about 2 KB per object"
kinds=$(grep '^kind: ' "$tmp/a.yaml" | sort -u | wc -l)
[ "$kinds" -ge 6 ] || bad "gen 50 wrote only $kinds kinds"
grep -q 'image: mcr.microsoft.com/windows/' "$tmp/a.yaml" \
	|| bad "no Windows image in the stream"
grep -q 'image: nginx\|image: ghcr.io/\|image: postgres' "$tmp/a.yaml" \
	|| bad "no Linux image in the stream"
[ "$("$gen" 0 | wc -c)" -eq 0 ] || bad "gen 0 wrote something"
# --resourcelist: the same objects as the items of one ResourceList, the
# profile as functionConfig; wingen fn gives the objects build gives.
prof=$(dirname "$WG_BENCH_GEN")/../../bench/profile-3builds.yaml
[ -f "$prof" ] || prof=$(cd "$(dirname "$0")/../.." && pwd)/bench/profile-3builds.yaml
WINGEN_BENCH_PROFILE=$prof "$gen" --resourcelist 50 >"$tmp/rl.yaml" \
	|| bad "gen --resourcelist 50 exited non-zero"
items=$(grep -c '^- ' "$tmp/rl.yaml")
[ "$items" -eq 50 ] || bad "gen --resourcelist 50 wrote $items items"
"$wingen" fn <"$tmp/rl.yaml" >"$tmp/rl.out" 2>"$tmp/rl.err" \
	|| bad "wingen fn on gen --resourcelist 50 failed: $(head -c 300 "$tmp/rl.err")"
"$wingen" build "$prof" -f "$tmp/a.yaml" >"$tmp/a.out" 2>/dev/null \
	|| bad "wingen build on gen 50 failed"
[ "$(grep -c '^  kind: ' "$tmp/rl.out")" -eq "$(grep -c '^kind: ' "$tmp/a.out")" ] \
	|| bad "fn on the ResourceList and build on the stream give different object counts"
"$gen" x >/dev/null 2>&1
[ $? -eq 2 ] || bad "gen x did not exit 2"

# --broad: the same guarantees; workloads and Services only, pods with
# shared labels, and Services selecting by them (not by instance only).
"$gen" --broad 200 >"$tmp/broad.yaml" || bad "gen --broad 200 exited non-zero"
"$gen" --broad 200 | cmp -s - "$tmp/broad.yaml" \
	|| bad "two runs of gen --broad 200 differ"
"$gen" --broad 250 | head -c "$(wc -c <"$tmp/broad.yaml")" \
	| cmp -s - "$tmp/broad.yaml" \
	|| bad "gen --broad 250 does not start with the output of gen --broad 200"
[ "$(grep -c '^kind: ' "$tmp/broad.yaml")" -eq 200 ] \
	|| bad "gen --broad 200 did not write 200 objects"
[ "$(grep '^kind: ' "$tmp/broad.yaml" | sort -u | tr '\n' ' ')" \
	= "kind: DaemonSet kind: Deployment kind: Job kind: Service " ] \
	|| bad "gen --broad wrote other kinds: $(grep '^kind: ' "$tmp/broad.yaml" | sort -u)"
grep -q '^    tier: web$' "$tmp/broad.yaml" \
	|| bad "no Service of gen --broad selects a tier"
grep -q '^    app.kubernetes.io/part-of: ' "$tmp/broad.yaml" \
	|| bad "no Service of gen --broad selects a chart"
grep -q '^        tier: ' "$tmp/broad.yaml" \
	|| bad "the pods of gen --broad have no tier label"
"$wingen" fmt -f "$tmp/broad.yaml" >"$tmp/fmt.yaml" 2>"$tmp/err" \
	|| bad "wingen fmt failed on the --broad stream: $(cat "$tmp/err")"
"$yamlcmp" "$tmp/broad.yaml" "$tmp/fmt.yaml" 2>"$tmp/err" \
	|| bad "wingen fmt output differs from the --broad stream: $(cat "$tmp/err")"
"$gen" --broad >/dev/null 2>&1
[ $? -eq 2 ] || bad "gen --broad without N did not exit 2"

"$wingen" fmt -f "$tmp/a.yaml" >"$tmp/fmt.yaml" 2>"$tmp/err" \
	|| bad "wingen fmt failed on the stream: $(cat "$tmp/err")"
"$yamlcmp" "$tmp/a.yaml" "$tmp/fmt.yaml" 2>"$tmp/err" \
	|| bad "wingen fmt output differs from the stream: $(cat "$tmp/err")"
"$floor" "$tmp/a.yaml" >"$tmp/floor.yaml" 2>"$tmp/err" \
	|| bad "floor failed on the stream: $(cat "$tmp/err")"
"$yamlcmp" "$tmp/a.yaml" "$tmp/floor.yaml" 2>"$tmp/err" \
	|| bad "floor output differs from its input: $(cat "$tmp/err")"
"$floor" <"$tmp/a.yaml" | cmp -s - "$tmp/floor.yaml" \
	|| bad "floor reading stdin differs from floor reading the file"
# wingen fmt keeps Helm's "# Source:" line on the object it heads (found
# in the input's text; libyaml, and so the floor, reports no comments).
grep -v '^# Source: ' "$tmp/fmt.yaml" | cmp -s - "$tmp/floor.yaml" \
	|| bad "floor and wingen fmt write different bytes (emitter settings?)"
[ "$(grep -c '^# Source: ' "$tmp/fmt.yaml")" -eq 50 ] \
	|| bad "wingen fmt did not keep the 50 '# Source:' lines of gen 50"

printf 'a: [1, 2\n' >"$tmp/broken.yaml"
"$floor" "$tmp/broken.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || bad "floor did not exit 1 on invalid YAML"
grep -q 'broken.yaml:' "$tmp/err" || bad "floor did not name the file: $(cat "$tmp/err")"

[ $fail -eq 0 ] && echo "bench gen and floor: ok"
exit $fail
