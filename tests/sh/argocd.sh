#!/usr/bin/env bash
# wingen's Argo CD Config Management Plugin (examples/argocd): the
# generate command run as Argo CD runs it (its environment, the app's
# folder as working directory, the command plugin.yaml names), with
# settings from ARGOCD_ENV_* and PARAM_*.  Above all: on ANY error it exits
# non-zero with nothing on stdout, and it never succeeds with an empty
# stream (Argo CD would prune the app).  helm is a stand-in script that
# logs its arguments (the chart's helm template arguments are checked one
# by one), and the real Helm 3 and Helm 4 ($WG_HELM3, $WG_HELM4) render a
# chart that asks .Capabilities when they are there.
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
#!/usr/bin/env bash
# helm template [FLAGS] -- RELEASE CHART, as far as the test needs: the
# arguments go to $TEST_TMP/helm.args, one a line
[ "$1" = template ] || exit 2
printf '%s\n' "$@" >"$TEST_TMP/helm.args"
ns=default
for a; do case $a in --namespace=*) ns=${a#--namespace=} ;; esac; done
rel=${*: -2:1}
sel=
[ "${FAKE_HELM:-}" = pinned ] && sel='  nodeSelector: {kubernetes.io/os: linux}'
cat <<YAML
---
# Source: shop/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: $rel-web
  namespace: $ns
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
# Source: shop/templates/web.yaml
apiVersion: v1
kind: Pod
metadata:
  name: $rel-web
  namespace: $ns
  labels: {app: web}
spec:
$sel
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

chart() {	# chart NAME: the example app as a chart (a Chart.yaml, no profile)
	app "$1"
	rm "$tmp/$1/wingen.yaml"
	printf 'apiVersion: v2\nname: shop\nversion: 0.1.0\n' \
		>"$tmp/$1/Chart.yaml"
}

# generate DIR [VAR=VALUE...]: runs the plugin's command in DIR with Argo
# CD's environment plus the given variables; $tmp/out, $tmp/err, $rc
generate() {
	local dir=$1
	shift
	(cd "$dir" && env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp" \
		ARGOCD_APP_NAME=shop ARGOCD_APP_NAMESPACE=shop-ns \
		ARGOCD_APP_SOURCE_PATH=apps/shop ARGOCD_APP_REVISION=abc123 \
		TEST_TMP="$tmp" "$@" "$cmd") >"$tmp/out" 2>"$tmp/err"
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
chart a4
generate "$tmp/a4" ARGOCD_ENV_WINGEN_HELM=true
ok "helm"
grep -q 'name: shop-web' "$tmp/out" && grep -q 'namespace: shop-ns' "$tmp/out" \
	|| no "helm: not rendered with the app's name and namespace"
grep -q 'runtimeClassName' "$tmp/out" || no "helm: the chart was not built"

# helm template gets the cluster Argo CD deploys to and the values the
# app's parameters name, each as one argument, in order; the operands
# after "--".  A parameter wins over the app's env.
chart a5
printf 'replicas: 2\n' >"$tmp/a5/values-prod.yaml"
printf 'windows: true\n' >"$tmp/a5/values-win.yaml"
generate "$tmp/a5" PARAM_HELM=true KUBE_VERSION=1.32.4 \
	KUBE_API_VERSIONS=apps/v1,apps/v1/Deployment,monitoring.coreos.com/v1 \
	PARAM_VALUES_0=values-prod.yaml PARAM_VALUES_1=values-win.yaml \
	PARAM_SET_0=replicas=3 PARAM_SET_1=a=b,c=d PARAM_SET_STRING_0=tag=010 \
	ARGOCD_ENV_WINGEN_SET=ignored=1
ok "helm arguments"
printf '%s\n' template --namespace=shop-ns --kube-version=1.32.4 \
	--api-versions=apps/v1 --api-versions=apps/v1/Deployment \
	--api-versions=monitoring.coreos.com/v1 --values=./values-prod.yaml \
	--values=./values-win.yaml --set=replicas=3 --set=a=b,c=d \
	--set-string=tag=010 -- shop ./. >"$tmp/want.args"
diff "$tmp/want.args" "$tmp/helm.args" >"$tmp/args.diff" \
	|| no "helm arguments: $(cat "$tmp/args.diff")"

# The same from the app's env (values comma-separated, one --set), the
# chart in a folder of the app; no KUBE_*: helm's own defaults.
chart a6
mkdir "$tmp/a6/chart"
mv "$tmp/a6/Chart.yaml" "$tmp/a6/chart/"
printf 'a: 1\n' >"$tmp/a6/v1.yaml"
printf 'b: 2\n' >"$tmp/a6/v2.yaml"
generate "$tmp/a6" ARGOCD_ENV_WINGEN_HELM=true ARGOCD_ENV_WINGEN_PATH=chart \
	ARGOCD_ENV_WINGEN_VALUES=v1.yaml,v2.yaml ARGOCD_ENV_WINGEN_SET=x=1,y=2
ok "helm arguments from the env"
printf '%s\n' template --namespace=shop-ns --values=./v1.yaml \
	--values=./v2.yaml --set=x=1,y=2 -- shop ./chart >"$tmp/want.args"
diff "$tmp/want.args" "$tmp/helm.args" >"$tmp/args.diff" \
	|| no "helm arguments from the env: $(cat "$tmp/args.diff")"

# runtimeclasses=false: no RuntimeClass in the app (several apps must not
# own one cluster-scoped object).
app a7
generate "$tmp/a7" PARAM_RUNTIMECLASSES=false
ok "runtimeclasses=false"
grep -q '^kind: RuntimeClass' "$tmp/out" \
	&& no "runtimeclasses=false: a RuntimeClass in the app"
grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/out" \
	|| no "runtimeclasses=false: the workload lost its RuntimeClass name"
generate "$tmp/a7"
grep -q '^kind: RuntimeClass' "$tmp/out" \
	|| no "runtimeclasses (default): no RuntimeClass in the app"

# Messages name the app's files: a chart's template for a line of its
# render, the settings for the profile made of them; never this
# script's temporary files.
chart m1
generate "$tmp/m1" PARAM_HELM=true FAKE_HELM=pinned
failed "a conflict in a chart" "^templates/web.yaml: error: Pod/shop-ns/shop-web"
grep -q '/tmp\|chart\.yaml' "$tmp/err" \
	&& no "a conflict in a chart: a temporary file named: $(cat "$tmp/err")"
app m2
rm "$tmp/m2/wingen.yaml"
generate "$tmp/m2" PARAM_RELEASE=ltsc2019
grep -q "^the settings (release 'ltsc2019'): warning: " "$tmp/err" \
	|| no "a warning about the settings: $(cat "$tmp/err")"
grep -q '/tmp\|profile\.yaml' "$tmp/err" \
	&& no "a warning about the settings: a temporary file named: $(cat "$tmp/err")"

# The real Helm 3 and Helm 4, when there: a chart that asks
# .Capabilities renders for the cluster Argo CD names (KUBE_VERSION as
# Argo CD 2 sets it, major.minor).
for n in 3 4; do
	real=${WG_HELM3:-}
	[ $n = 4 ] && real=${WG_HELM4:-}
	if ! [ -x "$real" ]; then
		echo "argocd: no Helm $n (\$WG_HELM$n): its case is skipped"
		continue
	fi
	chart r$n
	rm -r "$tmp/r$n/manifests"
	mkdir "$tmp/r$n/templates"
	cat >"$tmp/r$n/templates/caps.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: caps
data:
  kube: {{ .Capabilities.KubeVersion.Version | quote }}
  monitoring: {{ .Capabilities.APIVersions.Has "monitoring.coreos.com/v1" | quote }}
  deployments: {{ .Capabilities.APIVersions.Has "apps/v1/Deployment" | quote }}
  replicas: {{ .Values.replicas | default 1 | quote }}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: web
      image: mcr.microsoft.com/windows/nanoserver:ltsc2022
YAML
	printf 'replicas: 2\n' >"$tmp/r$n/values-prod.yaml"
	generate "$tmp/r$n" HELM_BIN="$real" HELM_CONFIG_HOME="$tmp/h$n/c" \
		HELM_DATA_HOME="$tmp/h$n/d" HELM_CACHE_HOME="$tmp/h$n/k" \
		PARAM_HELM=true KUBE_VERSION=1.29 \
		KUBE_API_VERSIONS=monitoring.coreos.com/v1,apps/v1/Deployment \
		PARAM_VALUES_0=values-prod.yaml PARAM_SET_0=replicas=5
	ok "Helm $n"
	grep -Eq 'kube: "v1\.29(\.0)?"' "$tmp/out" \
		|| no "Helm $n: KUBE_VERSION did not reach .Capabilities: $(grep kube: "$tmp/out")"
	grep -q 'monitoring: "true"' "$tmp/out" \
		&& grep -q 'deployments: "true"' "$tmp/out" \
		|| no "Helm $n: KUBE_API_VERSIONS did not reach .Capabilities"
	grep -q 'replicas: "5"' "$tmp/out" \
		|| no "Helm $n: the --set parameter did not win over the values file"
	grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/out" \
		|| no "Helm $n: the chart was not built"
done

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

chart b4
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

chart b11
generate "$tmp/b11" PARAM_HELM=true PARAM_VALUES_0=../secrets.yaml
failed "a values file out of the app" "outside the app"

chart b12
generate "$tmp/b12" PARAM_HELM=true PARAM_VALUES_0=missing.yaml
failed "a missing values file" "'missing.yaml' is not a file of the app"

app b13
generate "$tmp/b13" PARAM_SET_0=replicas=3
failed "--set without helm" "give helm=true"

app b14
generate "$tmp/b14" PARAM_RUNTIMECLASSES=no
failed "runtimeclasses not a boolean" "is not true or false"

app b15
generate "$tmp/b15" PARAM_HELM=true
failed "helm=true on a folder that is no chart" "is not a chart"

[ "$fail" = 0 ] && echo "argocd: all cases pass"
exit $fail
