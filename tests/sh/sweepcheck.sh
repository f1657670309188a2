#!/usr/bin/env bash
# tests/tools/sweepcheck, the sweep's judge, fails what breaks the one
# rule: a Windows image pinned to Linux, in a Deployment and in a Tekton
# TaskRun whose Task (in the same stream) runs it; and passes what
# wingen build makes of them.
#   sweepcheck.sh WINGEN YAMLCMP   (sweepcheck is next to YAMLCMP)
set -u
wingen=$1 sweepcheck=$(dirname "$2")/sweepcheck
[ -x "$sweepcheck" ] || { echo "FAIL: no sweepcheck at $sweepcheck"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_PROFILE WINGEN_LOG
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat >"$tmp/deploy.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: iis}
spec:
  selector: {matchLabels: {app: iis}}
  template:
    metadata: {labels: {app: iis}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: iis, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022}]
YAML
cat >"$tmp/taskrun.yaml" <<'YAML'
apiVersion: tekton.dev/v1
kind: Task
metadata: {name: msbuild}
spec:
  steps:
  - name: build
    image: mcr.microsoft.com/dotnet/framework/sdk:4.8-windowsservercore-ltsc2022
---
apiVersion: tekton.dev/v1
kind: TaskRun
metadata: {name: msbuild-run}
spec:
  taskRef: {name: msbuild}
  podTemplate:
    nodeSelector: {kubernetes.io/os: linux}
YAML
for f in deploy taskrun; do
	# the file as its own output: pinned to Linux
	"$sweepcheck" - "$tmp/$f.yaml" "$tmp/$f.yaml" >"$tmp/$f.out" 2>&1
	rc=$?
	[ "$rc" = 1 ] || bad "$f pinned to Linux: sweepcheck exit $rc, want 1"
	grep -q '^VIOLATION image-on-linux: ' "$tmp/$f.out" \
		|| bad "$f pinned to Linux: no image-on-linux violation: $(cat "$tmp/$f.out")"
	# what wingen makes of it without the Linux selector passes
	sed '/kubernetes.io\/os: linux/d; s/, *nodeSelector: {kubernetes.io\/os: linux}//' \
		"$tmp/$f.yaml" >"$tmp/$f.in.yaml"
	"$wingen" build -f "$tmp/$f.in.yaml" >"$tmp/$f.built.yaml" 2>"$tmp/$f.err" \
		|| bad "$f: wingen build failed: $(cat "$tmp/$f.err")"
	"$sweepcheck" - "$tmp/$f.in.yaml" "$tmp/$f.built.yaml" >"$tmp/$f.out" 2>&1 \
		|| bad "$f built: sweepcheck: $(cat "$tmp/$f.out")"
	grep -q 'sweepcheck: .* [1-9][0-9]* Windows pods' "$tmp/$f.out" \
		|| bad "$f built: no Windows pod seen: $(cat "$tmp/$f.out")"
done
[ "$fail" = 0 ] && echo "ok: sweepcheck judges Deployments and TaskRuns joined to their Task"
exit $fail
