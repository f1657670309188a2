#!/usr/bin/env bash
# A post-renderer (and fn) transforms what it is given, never more.
#  - wingen post-render reads the release on stdin alone: with
#    examples/single-build/profile.yaml (whose resources: name five
#    manifests) a release gains nothing, no object and no RuntimeClass
#    (through the examples/helm wrapper it gained those five, exit 0);
#    build, which composes the profile's resources: with -f -, adds them;
#  - an empty release (Helm 3 sends none of a chart of hooks alone) comes
#    back empty, exit 0; -f, a PROFILE of - and --nodes - are usage
#    errors (stdin holds the release);
#  - fn with that profile as its functionConfig gives back its items;
#  - the real Helm 3 (wingen itself, and the wrapper) and Helm 4 (the
#    plugin) render examples/helm/chart post-rendered with exactly the
#    objects helm template renders without, and a chart of hooks alone
#    post-renders.
#   post_render.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1
single=$root/examples/single-build/profile.yaml
example=$root/examples/helm
wrapper=$example/wingen/wingen-post-render
rendered=$root/tests/data/helm/rendered.yaml
export WINGEN_LOG=$tmp/post-render.log WINGEN_TTY=0 WINGEN=$wingen

# names FILE: "Kind/name" of every object, sorted
names() {
	"$wingen" fmt -f "$1" -o json 2>/dev/null \
		| jq -r '"\(.kind)/\(.metadata.name)"' | sort
}

# --- the command ---------------------------------------------------------
"$wingen" post-render "$single" <"$rendered" >out 2>err \
	|| no "post-render with single-build's profile failed: $(cat err)"
diff <(names "$rendered") <(names out) >d \
	|| no "post-render added or dropped objects: $(cat d)"
grep -q '^kind: RuntimeClass' out && no "post-render wrote a RuntimeClass"
grep -q 'runtimeClassName: windows-ltsc2022' out \
	|| no "post-render did not transform the Windows storefront"
# build composes: the profile's resources: and stdin (the reason a
# post-renderer is its own command)
"$wingen" build "$single" -f - <"$rendered" >built 2>/dev/null
[ "$(names built | wc -l)" -gt "$(names "$rendered" | wc -l)" ] \
	|| no "build PROFILE -f - did not add the profile's resources:"
# the wrapper (Helm 3's executable, Helm 4's plugin command)
"$wrapper" "$single" <"$rendered" >out.w 2>err \
	|| no "the wrapper failed: $(cat err)"
cmp -s out out.w || no "the wrapper gives another result than post-render"
# an empty release comes back empty
: | "$wingen" post-render "$single" >out 2>err \
	|| no "post-render of an empty release: exit $?: $(cat err)"
[ -s out ] && no "post-render of an empty release wrote: $(cat out)"
: | "$wingen" build "$single" -f - >/dev/null 2>&1 </dev/null
# usage errors: stdin holds the release
for args in "$single -f x.yaml" "-" "$single --nodes -"; do
	# shellcheck disable=SC2086
	"$wingen" post-render $args <"$rendered" >out 2>err
	rc=$?
	[ $rc = 2 ] && [ ! -s out ] || no "post-render $args: exit $rc (want 2)"
done
grep -q "stdin holds the release" err || no "post-render --nodes -: $(cat err)"

# --- fn: the items, never the functionConfig profile's resources: ---------
{
	echo "apiVersion: config.kubernetes.io/v1"
	echo "kind: ResourceList"
	echo "items:"
	"$wingen" fmt -f "$rendered" -o json | sed 's/^/- /'
	echo "functionConfig:"
	sed 's/^/  /' "$single"
} >rl.yaml
"$wingen" fn <rl.yaml >rl.out 2>err || no "fn with single-build's profile failed: $(cat err)"
# (fmt reads a ResourceList as the List it is: its items)
items() { names "$1" | grep -v '^RuntimeClass/'; }
diff <(items rl.yaml) <(items rl.out) >d || no "fn added or dropped items: $(cat d)"

# --- the real clients ----------------------------------------------------
# shellcheck source=lib/helm.sh
. "$root/tests/sh/lib/helm.sh"
if ! helm_clients; then
	echo "post_render: $([ $fail = 0 ] && echo ok || echo FAILED) (no Helm)"
	exit $fail
fi
mkdir bin && ln -s "$wingen" bin/wingen
# a chart of hooks alone: Helm 3 post-renders an empty stream
mkdir -p hooks/templates
printf 'apiVersion: v2\nname: hooks\nversion: 0.1.0\n' >hooks/Chart.yaml
cat >hooks/templates/job.yaml <<'EOF'
apiVersion: batch/v1
kind: Job
metadata:
  name: setup
  annotations: {"helm.sh/hook": pre-install}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
EOF
# same WHAT: the release post-rendered holds what helm renders without
same() {
	diff <(names plain.yaml) <(names out) >d \
		|| no "$1: the release is not what helm renders without: $(cat d)"
}
( helm_env 3 "$tmp"
  "$helm3" template shop "$example/chart" >plain.yaml 2>err </dev/null \
	|| no "helm 3 template failed: $(cat err)"
  PATH="$tmp/bin:$PATH" "$helm3" template shop "$example/chart" \
	--post-renderer wingen --post-renderer-args post-render \
	--post-renderer-args "$single" >out 2>err </dev/null \
	|| no "helm 3 with wingen post-render failed: $(cat err)"
  same "helm 3 + wingen post-render"
  grep -q 'runtimeClassName: windows-ltsc2022' out \
	|| no "helm 3 + wingen post-render: nothing transformed"
  WINGEN=$wingen "$helm3" template shop "$example/chart" \
	--post-renderer "$wrapper" --post-renderer-args "$single" \
	>out 2>err </dev/null || no "helm 3 with the wrapper failed: $(cat err)"
  same "helm 3 + wrapper"
  PATH="$tmp/bin:$PATH" "$helm3" template h hooks --post-renderer wingen \
	--post-renderer-args post-render --post-renderer-args "$single" \
	>out 2>err </dev/null \
	|| no "helm 3, a chart of hooks alone, post-rendered: $(cat err)"
  exit $fail ) || fail=1
helm_env 4 "$tmp"
"$helm4" plugin install "$example/wingen" >err 2>&1 \
	|| no "helm 4 plugin install failed: $(cat err)"
"$helm4" template shop "$example/chart" >plain.yaml 2>err </dev/null \
	|| no "helm 4 template failed: $(cat err)"
WINGEN=$wingen "$helm4" template shop "$example/chart" --post-renderer wingen \
	--post-renderer-args "$single" >out 2>err </dev/null \
	|| no "helm 4 with the plugin failed: $(cat err)"
same "helm 4 + plugin"
grep -q 'runtimeClassName: windows-ltsc2022' out \
	|| no "helm 4 + plugin: nothing transformed"

echo "post_render: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
