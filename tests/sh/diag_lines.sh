#!/usr/bin/env bash
# A diagnostic line is one write() to stderr: written in pieces (file,
# position, severity, object, message) it cost nine system calls a line,
# and two processes sharing a log could cut into each other's lines.
# build (with --explain's records) and migrate each report warnings on a
# small stream; under strace, the writes to fd 2 must be exactly stderr's
# lines.  (check writes its report to stdout, whole.)
#   diag_lines.sh WINGEN YAMLCMP
set -u
wingen=$1
command -v strace >/dev/null 2>&1 \
	|| { echo "SKIP: strace is not installed (.ci/run installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL $*"; fail=1; }

cat >"$tmp/profile.yaml" <<'YAML'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: lines}
windows:
  builds:
    - release: ltsc2019
    - release: ltsc2022
  default: ltsc2022
  select:
    - image: '^mcr\.microsoft\.com/windows/'
    - image: '^nothing-matches-this/'
YAML
# Windows workloads on ltsc2019 behind a ClientIP Service: a warning
# per Service, and the profile's unused select entry one more.
for i in 1 2 3; do
	cat <<YAML
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: win-$i, namespace: shop}
spec:
  selector: {matchLabels: {app: a$i}}
  template:
    metadata: {labels: {app: a$i}}
    spec:
      containers:
      - name: c
        image: mcr.microsoft.com/windows/servercore:ltsc2019
---
apiVersion: v1
kind: Service
metadata: {name: web-$i, namespace: shop}
spec:
  sessionAffinity: ClientIP
  sessionAffinityConfig: {clientIP: {timeoutSeconds: 60}}
  selector: {app: a$i}
  ports: [{port: 80}]
YAML
done >"$tmp/stream.yaml"

# run NAME ARGS...: the command under strace; its stderr in NAME.err, its
# writes to fd 2 counted in NAME.writes.
run() {
	local name=$1
	shift
	strace -f -qq -e trace=write -e signal=none -o "$tmp/$name.trace" \
		"$@" >/dev/null 2>"$tmp/$name.err"
	grep -c 'write(2, ' "$tmp/$name.trace" >"$tmp/$name.writes"
}

run build "$wingen" build "$tmp/profile.yaml" -f "$tmp/stream.yaml" --explain
cp "$tmp/stream.yaml" "$tmp/edit.yaml"
run migrate "$wingen" migrate "$tmp/profile.yaml" "$tmp/edit.yaml" --in-place

for name in build migrate; do
	lines=$(wc -l <"$tmp/$name.err")
	writes=$(cat "$tmp/$name.writes")
	[ "$lines" -ge 3 ] \
		|| no "$name: expected warnings, stderr has $lines lines: $(cat "$tmp/$name.err")"
	[ "$writes" = "$lines" ] \
		|| no "$name: $lines lines of stderr took $writes writes"
done
grep -q 'select\[1\] matches no workload' "$tmp/build.err" \
	|| no "build: the unused select entry was not reported: $(cat "$tmp/build.err")"
grep -q 'nodeSelector.*(node-selector: windows.select\[0\]' "$tmp/build.err" \
	|| no "build: no --explain record: $(cat "$tmp/build.err")"

[ $fail = 0 ] && echo "a diagnostic line a write: ok"
exit $fail
