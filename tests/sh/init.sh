#!/usr/bin/env bash
# wingen init on the node lists of tests/data/nodes: the profile it writes
# loads as it is and builds a real example; output to a file, stdin, usage.
#   init.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
nodes=$here/tests/data/nodes
example=$here/examples/single-build/manifests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL $*"; fail=1; }

# Every cluster with Windows nodes gives a profile that build loads and
# runs on the single-build example; one RuntimeClass per build written.
for f in ws2022-containerd.json ws2025-arm64.yaml ws2025-arm64-stream.yaml \
	mixed-pools.json differing-taints.json unknown-build.json ws2019-docker.json; do
	"$wingen" init -f "$nodes/$f" >"$f.profile.yaml" 2>err || no "$f: init exit $?: $(cat err)"
	want=$(grep -c '^    - \(release\|build\):' "$f.profile.yaml")
	[ "$want" -ge 1 ] || no "$f: no build in the profile"
	"$wingen" build "$f.profile.yaml" --print-profile >/dev/null 2>err \
		|| no "$f: the profile does not load: $(cat err)"
	"$wingen" build "$f.profile.yaml" -f "$example" >out 2>err
	rc=$?
	if [ "$f" = ws2019-docker.json ]; then
		# The example's ltsc2022 images cannot run on a 2019-only
		# cluster: the profile from the nodes says so.
		[ $rc = 1 ] && grep -q "which ltsc2019 hosts cannot run" err \
			|| no "$f: ltsc2022 images on 2019 nodes: exit $rc: $(cat err)"
		continue
	fi
	[ $rc = 0 ] || no "$f: build exit $rc: $(cat err)"
	[ "$(grep -c '^kind: RuntimeClass$' out)" = "$want" ] \
		|| no "$f: $want builds but $(grep -c '^kind: RuntimeClass$' out) RuntimeClasses"
done

# kubectl's pipe: JSON on stdin; the same profile as from -f.
"$wingen" init <"$nodes/ws2022-containerd.json" >stdin.yaml 2>err || no "stdin: exit $?"
cmp -s stdin.yaml ws2022-containerd.json.profile.yaml || no "stdin and -f differ"

# --output-file writes the file and nothing on stdout; a failing run
# leaves an existing file alone.
"$wingen" init -f "$nodes/mixed-pools.json" --output-file p.yaml >out 2>/dev/null \
	|| no "--output-file: exit $?"
[ -s out ] && no "--output-file: wrote to stdout"
cmp -s p.yaml mixed-pools.json.profile.yaml || no "--output-file: not the profile"
"$wingen" init -f "$nodes/linux-only.json" --output-file p.yaml >out 2>err
[ $? = 1 ] || no "linux-only: exit status"
[ -s out ] && no "linux-only: wrote to stdout"
cmp -s p.yaml mixed-pools.json.profile.yaml || no "linux-only: the old file changed"

# Usage errors exit 2; help exits 0.
"$wingen" init --bogus </dev/null >/dev/null 2>err
[ $? = 2 ] && grep -q "unknown option '--bogus'" err || no "init --bogus: $(cat err)"
"$wingen" init -o profile.yaml </dev/null >/dev/null 2>err
[ $? = 2 ] && grep -q -- "--output-file" err || no "init -o FILE: $(cat err)"
"$wingen" init -o yaml -f "$nodes/mixed-pools.json" >out 2>/dev/null || no "init -o yaml: exit $?"
cmp -s out mixed-pools.json.profile.yaml || no "init -o yaml: not the profile"
"$wingen" init extra </dev/null >/dev/null 2>err
[ $? = 2 ] || no "init with an argument"
"$wingen" init --help >out || no "init --help: exit $?"
grep -q "kubectl get nodes -o json | wingen init > profile.yaml" out || no "init --help: no start line"
exit $fail
