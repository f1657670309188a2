#!/usr/bin/env bash
# Fan-out under the real kpt (kpt fn eval --exec): kpt refuses two objects
# at one path and index, so copies must get indexes of their own; they are
# written into their original's file, and a second run changes nothing.
#   fan_out_kpt.sh WINGEN YAMLCMP CORPUS
set -u
if ! command -v kpt >/dev/null 2>&1; then
	echo "SKIP: kpt is not installed (Debian package google-cloud-cli-kpt)"
	exit 77
fi
wingen=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/pkg"
ln -s "$wingen" "$tmp/bin/wingen"
export PATH="$tmp/bin:$PATH" HOME="$tmp"
fail=0
no() { echo "FAIL: $*"; fail=1; }

cat >"$tmp/fn.yaml" <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: upgrade}
windows:
  builds: [{release: ltsc2019}, {release: ltsc2022}]
  default: ltsc2022
  select: [{image: '^mcr\.microsoft\.com/windows/'}]
EOF
cat >"$tmp/pkg/web.yaml" <<'EOF'
# the web tier, on both pools
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    wingen.dev/windows-builds: ltsc2019,ltsc2022
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: iis
        image: mcr.microsoft.com/windows/servercore:ltsc2019
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
EOF

run() {
	(cd "$tmp" && kpt fn eval pkg --exec wingen --fn-config fn.yaml) \
		>"$tmp/log" 2>&1 || { no "kpt fn eval failed:"; cat "$tmp/log"; }
}

run
names=$(sed -n 's/^  name: //p' "$tmp/pkg/web.yaml" | tr '\n' ' ')
[ "$names" = "web-ltsc2019 web-ltsc2019 web-ltsc2022 web-ltsc2022 " ] \
	|| no "web.yaml holds '$names'"
grep -q 'image: mcr.microsoft.com/windows/servercore:ltsc2022' \
	"$tmp/pkg/web.yaml" || no "the 2022 copy's image was not rewritten"
grep -q '^# the web tier, on both pools' "$tmp/pkg/web.yaml" \
	|| no "the file's comment is gone"
[ -f "$tmp/pkg/runtimeclasses.yaml" ] || no "no runtimeclasses.yaml"
grep -q 'config.kubernetes.io' "$tmp/pkg/web.yaml" \
	&& no "kpt's bookkeeping annotations were left in the file"
cp -r "$tmp/pkg" "$tmp/once"
run
diff -r "$tmp/once" "$tmp/pkg" >"$tmp/diff" || { no "a second run changed the package:"; cat "$tmp/diff"; }
[ $fail = 0 ] && echo "ok"
exit $fail
