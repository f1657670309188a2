#!/usr/bin/env bash
# build --jobs: the output is written on several threads and is the same
# bytes for every thread count (corpus, a large stream, -o), and a bad
# count is a usage error.
#   build_jobs.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 corpus=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL $*"; fail=1; }

# A stream large enough for many batches: Windows and Linux workloads,
# Services, ConfigMaps with blocks kept open ("|+").
for i in $(seq 1 1500); do
	cat <<YAML
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-$i, namespace: ns-$((i % 7))}
spec:
  selector: {matchLabels: {app: web-$i}}
  template:
    metadata: {labels: {app: web-$i}}
    spec:
      containers:
      - name: c
        image: $([ $((i % 3)) = 0 ] && echo mcr.microsoft.com/windows/servercore:ltsc2022 || echo nginx:1.27)
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm-$i}
data:
  conf: |+
    line $i

YAML
done >big.yaml

"$wingen" build -f big.yaml -j1 >one.yaml 2>err || no "-j1: exit $?: $(cat err)"
grep -c '^kind: Deployment$' one.yaml | grep -qx 1500 || no "-j1: Deployments lost"
for j in 2 3 4 16; do
	"$wingen" build -f big.yaml --jobs "$j" >out.yaml 2>err \
		|| no "-j$j: exit $?: $(cat err)"
	cmp -s one.yaml out.yaml || no "-j$j: output differs from -j1"
done
"$wingen" build -f big.yaml >out.yaml 2>err || no "default jobs: exit $?"
cmp -s one.yaml out.yaml || no "default jobs: output differs from -j1"
"$wingen" build -f big.yaml -j 3 -o file.yaml 2>err || no "-o: exit $?"
cmp -s one.yaml file.yaml || no "-j3 -o: file differs from -j1"
# A closed pipe ends the run quietly, threads and all.
"$wingen" build -f big.yaml -j4 2>err | head -c 100 >/dev/null
[ -s err ] && no "closed pipe: stderr: $(cat err)"

# Every real manifest: -j1 and -j4 agree byte for byte.
if [ -d "$corpus" ]; then
	n=0
	for f in "$corpus"/*.yaml "$corpus"/*.yml; do
		[ -f "$f" ] || continue
		"$wingen" build -f "$f" -j1 >a 2>/dev/null; ra=$?
		"$wingen" build -f "$f" -j4 >b 2>/dev/null; rb=$?
		[ $ra = $rb ] || no "$f: exit $ra with -j1, $rb with -j4"
		cmp -s a b || no "$f: -j1 and -j4 differ"
		n=$((n + 1))
	done
	[ $n -gt 100 ] || no "corpus: only $n files"
fi

# Bad counts: usage error (exit 2), nothing on stdout.
for bad in 0 17 x 2x -1 ""; do
	"$wingen" build -f big.yaml --jobs "$bad" >out 2>err; rc=$?
	[ $rc = 2 ] || no "--jobs '$bad': exit $rc, not 2"
	[ -s out ] && no "--jobs '$bad': wrote to stdout"
	grep -q -- "--jobs takes a number from 1 to 16" err \
		|| no "--jobs '$bad': message: $(cat err)"
done
exit $fail
