#!/usr/bin/env bash
# wingen's Argo CD Config Management Plugin (examples/argocd): the
# generate command run as Argo CD runs it (its environment, the app's
# folder as working directory, the command plugin.yaml names), with
# settings from ARGOCD_ENV_* and PARAM_*.  Above all: on ANY error it exits
# non-zero with nothing on stdout, and it never succeeds with an empty
# stream (Argo CD would prune the app).  helm is a stand-in script here.
#   argocd.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
example=$root/examples/argocd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

no() { echo "FAIL: $*"; fail=1; }

# The sidecar: wingen, the generate command and helm on PATH.
cmd=$(sed -n 's/^ *command: \[\(.*\)\]$/\1/p' "$example/plugin.yaml")
[ "$cmd" = wingen-argocd-generate ] \
	|| no "plugin.yaml: generate command '$cmd', expected wingen-argocd-generate"
grep -q '^kind: ConfigManagementPlugin$' "$example/plugin.yaml" \
	&& grep -q '^apiVersion: argoproj.io/v1alpha1$' "$example/plugin.yaml" \
	|| no "plugin.yaml: not an argoproj.io/v1alpha1 ConfigManagementPlugin"
mkdir "$tmp/bin"
ln -s "$wingen" "$tmp/bin/wingen"
ln -s "$example/wingen-argocd-generate" "$tmp/bin/$cmd"
cat >"$tmp/bin/helm" <<'EOF'
#!/bin/sh
# helm template RELEASE CHART --namespace NS, as far as the test needs
[ "$1" = template ] || exit 2
cat <<YAML
---
# Source: shop/templates/web.yaml
apiVersion: v1
kind: Pod
metadata:
  name: $2-web
  namespace: $5
spec:
  containers:
    - name: web
      image: mcr.microsoft.com/windows/nanoserver:ltsc2022
YAML
# "partial": the chart fails half-way, after writing some of it
[ "${FAKE_HELM:-}" = partial ] && { echo "Error: template: boom" >&2; exit 1; }
exit 0
EOF
chmod +x "$tmp/bin/helm"

app() {	# app NAME: a fresh copy of the example app
	rm -rf "${tmp:?}/$1"
	cp -r "$example/app" "$tmp/$1"
}

# generate DIR [VAR=VALUE...]: runs the plugin's command in DIR with Argo
# CD's environment plus the given variables; $tmp/out, $tmp/err, $rc
generate() {
	local dir=$1
	shift
	(cd "$dir" && env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp" \
		ARGOCD_APP_NAME=shop ARGOCD_APP_NAMESPACE=shop-ns \
		ARGOCD_APP_SOURCE_PATH=apps/shop ARGOCD_APP_REVISION=abc123 \
		KUBE_VERSION=1.32.4 "$@" "$cmd") >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

ok() {	# ok WHAT: the run succeeded with a valid, non-empty stream
	if [ "$rc" != 0 ]; then
		no "$1: exit $rc: $(cat "$tmp/err")"
		return
	fi
	grep -q '^kind:' "$tmp/out" || no "$1: no object on stdout"
	"$wingen" fmt -f "$tmp/out" >/dev/null 2>&1 \
		|| no "$1: stdout is not a valid stream"
}

failed() {	# failed WHAT PATTERN: non-zero, nothing on stdout, why
	[ "$rc" != 0 ] || no "$1: exit status 0"
	[ -s "$tmp/out" ] && no "$1: wrote to stdout: $(head -3 "$tmp/out")"
	grep -q -- "$2" "$tmp/err" \
		|| no "$1: stderr does not say '$2': $(cat "$tmp/err")"
}

# --- success -------------------------------------------------------------

# The app's wingen.yaml, found by name (as discover.fileName finds it).
app a1
generate "$tmp/a1"
ok "wingen.yaml"
[ "$(grep -c '^kind:' "$tmp/out")" = 3 ] \
	|| no "wingen.yaml: RuntimeClass, Deployment and Service expected"
grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/out" \
	|| no "wingen.yaml: the storefront was not made a Windows workload"
grep -q 'wingen.dev/v1alpha1' "$tmp/out" \
	&& no "wingen.yaml: the profile itself was deployed"

# Settings as parameters, no profile file: PARAM_* wins over ARGOCD_ENV_*.
app a2
rm "$tmp/a2/wingen.yaml"
generate "$tmp/a2" PARAM_RELEASE=ltsc2022 ARGOCD_ENV_WINGEN_RELEASE=ltsc2019 \
	PARAM_TAINT=node-role/windows=true:NoExecute PARAM_ARCH=amd64
ok "PARAM_RELEASE"
grep -q 'node.kubernetes.io/windows-build: "10.0.20348"' "$tmp/out" \
	|| no "PARAM_RELEASE did not win over ARGOCD_ENV_WINGEN_RELEASE"
grep -q 'key: node-role/windows' "$tmp/out" \
	&& grep -q 'effect: NoExecute' "$tmp/out" \
	|| no "PARAM_TAINT was not applied"

# The profile named by the app's env, manifests by a path.
app a3
mv "$tmp/a3/wingen.yaml" "$tmp/a3/profile.yaml"
sed -i '/^resources:/,/manifests\//d' "$tmp/a3/profile.yaml"
generate "$tmp/a3" ARGOCD_ENV_WINGEN_PROFILE=profile.yaml \
	ARGOCD_ENV_WINGEN_PATH=manifests
ok "ARGOCD_ENV_WINGEN_PROFILE"
grep -q 'runtimeClassName' "$tmp/out" || no "the env's profile was not used"

# A chart: helm template, then wingen.
app a4
rm "$tmp/a4/wingen.yaml"
generate "$tmp/a4" ARGOCD_ENV_WINGEN_HELM=true
ok "helm"
grep -q 'name: shop-web' "$tmp/out" && grep -q 'namespace: shop-ns' "$tmp/out" \
	|| no "helm: not rendered with the app's name and namespace"
grep -q 'runtimeClassName' "$tmp/out" || no "helm: the chart was not built"

# --- failure: never a stream, never an empty success ----------------------

app b1
generate "$tmp/b1" PARAM_PROFILE=missing.yaml
failed "missing profile" "missing.yaml"

app b2
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: [x\n' \
	>"$tmp/b2/manifests/broken.yaml"
generate "$tmp/b2"
failed "invalid YAML" "broken.yaml"

app b3
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pinned\nspec:\n  nodeSelector: {kubernetes.io/os: linux}\n  containers:\n  - name: c\n    image: mcr.microsoft.com/windows/nanoserver:ltsc2022\n' \
	>"$tmp/b3/manifests/pinned.yaml"
generate "$tmp/b3"
failed "a conflict wingen reports" "pinned"

app b4
rm "$tmp/b4/wingen.yaml"
generate "$tmp/b4" ARGOCD_ENV_WINGEN_HELM=true FAKE_HELM=partial
failed "helm failing after half the chart" "helm template failed"

mkdir "$tmp/b5"
generate "$tmp/b5"
failed "an app with no manifests" "no object was read"

app b6
rm "$tmp/b6/wingen.yaml"
generate "$tmp/b6" PARAM_RELEASE="ltsc2022'
  evil: true"
failed "a release that tries to write YAML" "is not a release name"

app b7
generate "$tmp/b7" PARAM_RELEASE=ltsc2022
failed "a profile and settings at once" "not both"

app b8
generate "$tmp/b8" PARAM_PATH=../../etc
failed "a path out of the app" "outside the app"

app b9
generate "$tmp/b9" WINGEN="$tmp/no-such-wingen"
failed "no wingen binary" "wingen failed"

app b10
rm "$tmp/b10/wingen.yaml"
generate "$tmp/b10" PARAM_RELEASE=ltsc2033
failed "an unknown release" "ltsc2033"

[ "$fail" = 0 ] && echo "argocd: all cases pass"
exit $fail
