#!/usr/bin/env bash
# wingen as a Helm post-renderer (examples/helm).  No helm binary is
# needed: the plugin's wrapper is fed the stream Helm hands a
# post-renderer (tests/data/helm/rendered.yaml: "# Source:" comments,
# hooks, Helm 4's postrenderer.helm.sh/postrender-filename annotations)
# and its contract is checked: a valid stream out, every annotation kept,
# hooks transformed too; on any error a non-zero exit and nothing on
# stdout.  Helm 3's form (--post-renderer wingen --post-renderer-args
# build ...) is "wingen build" reading stdin, checked the same way.  When
# a helm binary is installed, the chart is rendered for real as well.
#   helm.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
example=$root/examples/helm
plugin=$example/wingen
rendered=$root/tests/data/helm/rendered.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
fail=0

no() { echo "FAIL: $*"; fail=1; }
count() { grep -c -- "$1" "$2"; }

# post ARGS... < stream: the wrapper, as Helm runs it; $tmp/out, $tmp/err
post() {
	WINGEN=$wingen "$plugin/wingen-post-render" "$@" >"$tmp/out" \
		2>"$tmp/err"
}

# The plugin manifest names an executable of the plugin folder.
grep -q '^type: postrenderer/v1$' "$plugin/plugin.yaml" \
	|| no "plugin.yaml: not a postrenderer/v1 plugin"
grep -q '^runtime: subprocess$' "$plugin/plugin.yaml" \
	|| no "plugin.yaml: runtime is not subprocess"
cmd=$(sed -n 's/^ *- command: \${HELM_PLUGIN_DIR}\///p' "$plugin/plugin.yaml")
[ -n "$cmd" ] && [ -x "$plugin/$cmd" ] \
	|| no "plugin.yaml: command '$cmd' is not an executable of the plugin"

# 1. The example profile (no RuntimeClass generated: see its comment).
post "$example/profile.yaml" <"$rendered" \
	|| { no "the wrapper failed:"; cat "$tmp/err"; }
[ -s "$tmp/err" ] && no "the wrapper wrote to stderr: $(cat "$tmp/err")"
"$wingen" fmt -f "$tmp/out" >/dev/null \
	|| no "the output is not a valid YAML stream"
[ "$(count '^kind:' "$tmp/out")" = 4 ] \
	|| no "4 objects expected out (no RuntimeClass with this profile)"
[ "$(count 'postrenderer.helm.sh/postrender-filename:' "$tmp/out")" = 4 ] \
	|| no "an object lost its postrender-filename annotation"
for f in api storefront migrate-hook tests/test-connection; do
	grep -q "postrender-filename: 'shop/templates/$f.yaml'" "$tmp/out" \
		|| no "the annotation of $f.yaml changed"
done
grep -q '"helm.sh/hook": pre-install,pre-upgrade' "$tmp/out" \
	&& grep -q '"helm.sh/hook": test' "$tmp/out" \
	|| no "a hook annotation changed"
# The Windows hook Job is a Windows workload like any other.
[ "$(count 'runtimeClassName: windows-ltsc2022' "$tmp/out")" = 2 ] \
	|| no "the storefront and the migrate hook need runtimeClassName"
# The Linux test Pod and API are pinned to Linux.
[ "$(count 'kubernetes.io/os: linux' "$tmp/out")" = 2 ] \
	|| no "the API and the test hook are not pinned to Linux"
cp "$tmp/out" "$tmp/plugin.yaml"

# 2. WINGEN_PROFILE instead of an argument: the same result.
WINGEN_PROFILE=$example/profile.yaml post <"$rendered" \
	&& cmp -s "$tmp/out" "$tmp/plugin.yaml" \
	|| no "WINGEN_PROFILE does not give what the argument gives"

# 3. No profile: the embedded default, which generates the RuntimeClass
# first and keeps every annotation.
post <"$rendered" || no "the wrapper failed without a profile"
[ "$(sed -n '1,2p' "$tmp/out" | tr '\n' ' ')" = \
  "apiVersion: node.k8s.io/v1 kind: RuntimeClass " ] \
	|| no "the generated RuntimeClass is not first"
[ "$(count 'postrenderer.helm.sh/postrender-filename:' "$tmp/out")" = 4 ] \
	|| no "default profile: an annotation was lost"

# 4. Helm 3: --post-renderer wingen --post-renderer-args build
# --post-renderer-args profile.yaml runs "wingen build profile.yaml" with
# the stream on stdin.
"$wingen" build "$example/profile.yaml" <"$rendered" >"$tmp/out3" \
	2>"$tmp/err" || no "wingen build PROFILE on stdin failed"
cmp -s "$tmp/out3" "$tmp/plugin.yaml" \
	|| no "Helm 3's form gives another result than the Helm 4 plugin"

# 5. Errors: non-zero, nothing on stdout, the reason on stderr.
{
	cat "$rendered"
	printf -- '---\n# Source: shop/templates/pinned.yaml\n'
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pinned\n'
	printf 'spec:\n  nodeSelector:\n    kubernetes.io/os: linux\n'
	printf '  containers:\n  - name: c\n'
	printf '    image: mcr.microsoft.com/windows/nanoserver:ltsc2022\n'
} >"$tmp/conflict.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: [broken\n' >"$tmp/bad.yaml"
printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\nwindows:\n  builds:\n    - release: ltsc2033\n' \
	>"$tmp/badprofile.yaml"
check_fails() {	# check_fails WHAT: after a post, the failure contract
	local rc=$1 what=$2
	[ "$rc" != 0 ] || no "$what: exit status 0"
	[ -s "$tmp/out" ] && no "$what: something on stdout"
	[ -s "$tmp/err" ] || no "$what: no reason on stderr"
}
post <"$tmp/conflict.yaml"
check_fails $? "a Windows workload pinned to Linux"
grep -q "pinned" "$tmp/err" || no "the conflict message does not name the Pod"
post <"$tmp/bad.yaml"
check_fails $? "invalid YAML"
post "$tmp/badprofile.yaml" <"$rendered"
check_fails $? "a bad profile"
WINGEN=$tmp/no-such-wingen "$plugin/wingen-post-render" <"$rendered" \
	>"$tmp/out" 2>"$tmp/err"
check_fails $? "no wingen binary"

# 6. A real helm, when there is one.
if command -v helm >/dev/null 2>&1; then
	version=$(helm version --short 2>/dev/null)
	mkdir -p "$tmp/bin"
	ln -s "$wingen" "$tmp/bin/wingen"
	case $version in
	v3.*)
		PATH="$tmp/bin:$PATH" helm template shop "$example/chart" \
			--post-renderer wingen --post-renderer-args build \
			--post-renderer-args "$example/profile.yaml" \
			>"$tmp/out" 2>"$tmp/err" \
			|| no "helm 3 template with wingen failed: $(cat "$tmp/err")"
		;;
	*)
		export HELM_PLUGINS=$tmp/plugins
		helm plugin install "$plugin" >/dev/null 2>&1 \
			|| no "helm plugin install failed"
		WINGEN=$wingen WINGEN_PROFILE=$example/profile.yaml \
			helm template shop "$example/chart" \
			--post-renderer wingen >"$tmp/out" 2>"$tmp/err" \
			|| no "helm template with the plugin failed: $(cat "$tmp/err")"
		;;
	esac
	grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/out" \
		|| no "helm $version: the storefront was not post-rendered"
else
	echo "note: no helm binary; the post-renderer contract was checked" \
	     "without it"
fi

[ "$fail" = 0 ] && echo "helm: all cases pass"
exit $fail
