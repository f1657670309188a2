#!/usr/bin/env bash
# wingen as a Helm post-renderer (examples/helm), with the real Helm 3
# and Helm 4.
#
# First the wrapper's contract, with no Helm: it is fed the stream Helm
# hands a post-renderer (tests/data/helm/rendered.yaml: "# Source:"
# comments, hooks, Helm 4's postrenderer.helm.sh/postrender-filename
# annotations): a valid stream out, every annotation kept, no
# RuntimeClass (they are installed once per cluster), Helm 3's "build"
# argument accepted, other commands refused; on any error a non-zero exit,
# nothing on stdout, and the messages in $WINGEN_LOG and on the terminal
# (Helm 4 shows a plugin's stderr to nobody).
#
# Then the real clients ($WG_HELM3, $WG_HELM4: tests/ci/get-helm.sh),
# each with its own HELM_CONFIG_HOME, HELM_DATA_HOME and HELM_CACHE_HOME:
# Helm 3 with the wrapper as an executable and with "wingen build",
# Helm 4 with the plugin installed, hooks included, and a bad profile
# whose message reaches the user.  Without them: exit 77 (skip), saying
# how to get them.
#   helm.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
example=$root/examples/helm
plugin=$example/wingen
wrapper=$plugin/wingen-post-render
rendered=$root/tests/data/helm/rendered.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp XDG_STATE_HOME=$tmp/state WINGEN_TTY=0
unset WINGEN_LOG WINGEN_PROFILE
fail=0

no() { echo "FAIL: $*"; fail=1; }
count() { grep -c -- "$1" "$2"; }

# post ARGS... < stream: the wrapper, as Helm runs it; $tmp/out, $tmp/err
post() {
	WINGEN=$wingen "$wrapper" "$@" >"$tmp/out" 2>"$tmp/err"
}
deflog=$tmp/state/wingen/post-render.log

# The plugin manifest names an executable of the plugin folder.
grep -q '^type: postrenderer/v1$' "$plugin/plugin.yaml" \
	|| no "plugin.yaml: not a postrenderer/v1 plugin"
grep -q '^runtime: subprocess$' "$plugin/plugin.yaml" \
	|| no "plugin.yaml: runtime is not subprocess"
cmd=$(sed -n 's/^ *- command: \${HELM_PLUGIN_DIR}\///p' "$plugin/plugin.yaml")
[ -n "$cmd" ] && [ -x "$plugin/$cmd" ] \
	|| no "plugin.yaml: command '$cmd' is not an executable of the plugin"

# 1. The example profile: no RuntimeClass in the release.
post "$example/profile.yaml" <"$rendered" \
	|| { no "the wrapper failed:"; cat "$tmp/err"; }
[ -s "$tmp/err" ] && no "the wrapper wrote to stderr: $(cat "$tmp/err")"
[ -s "$deflog" ] && no "a clean run left messages in the log"
"$wingen" fmt -f "$tmp/out" >/dev/null \
	|| no "the output is not a valid YAML stream"
[ "$(count '^kind:' "$tmp/out")" = 4 ] \
	|| no "4 objects expected out (no RuntimeClass in post-renderer mode)"
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
# Helm's "# Source:" comment stays on the object it heads (Helm 3's
# helm template --show-only splits the result on it).
[ "$(count '^# Source: shop/templates/' "$tmp/out")" = 4 ] \
	&& [ "$(grep -A1 '^---$' "$tmp/out" | grep -c '^# Source: ')" = 3 ] \
	&& [ "$(head -1 "$tmp/out" | grep -c '^# Source: ')" = 1 ] \
	|| no "an object lost the '# Source:' line above it: $(grep -n -B1 '^# Source' "$tmp/out")"
for f in api storefront migrate-hook tests/test-connection; do
	awk -v f="# Source: shop/templates/$f.yaml" '
		$0 == f { s = 1; next }
		s && /postrender-filename:/ { print; exit }' "$tmp/out" \
		| grep -q "shop/templates/$f.yaml" \
		|| no "the '# Source:' line of $f.yaml heads another object"
done
cp "$tmp/out" "$tmp/plugin.yaml"

# 2. WINGEN_PROFILE instead of an argument, and Helm 3's habit of a
# first argument "build": the same result.
WINGEN_PROFILE=$example/profile.yaml post <"$rendered" \
	&& cmp -s "$tmp/out" "$tmp/plugin.yaml" \
	|| no "WINGEN_PROFILE does not give what the argument gives"
post build "$example/profile.yaml" <"$rendered" \
	&& cmp -s "$tmp/out" "$tmp/plugin.yaml" \
	|| no "'build PROFILE' (Helm 3's arguments) is not taken as PROFILE"
post check "$example/profile.yaml" <"$rendered"
[ $? = 2 ] || no "'check' given to the post-renderer: exit 2 expected"
grep -q "'check' is not something a post-renderer can run" "$tmp/err" \
	|| no "'check' given to the post-renderer: no message"
[ -s "$tmp/out" ] && no "'check' given to the post-renderer: output"

# 3. No profile: the embedded default; still no RuntimeClass, which
# "wingen runtimeclasses" (and build --only-runtimeclasses) give instead.
post <"$rendered" || no "the wrapper failed without a profile"
grep -q '^kind: RuntimeClass' "$tmp/out" \
	&& no "the default profile put a RuntimeClass into the release"
[ "$(count 'runtimeClassName: windows-ltsc2022' "$tmp/out")" = 2 ] \
	|| no "default profile: the Windows workloads lost runtimeClassName"
"$wingen" runtimeclasses >"$tmp/rc.yaml" || no "wingen runtimeclasses failed"
# with no stream, every build the default routes to: the bootstrap
[ "$(count '^kind: RuntimeClass' "$tmp/rc.yaml")" = 3 ] \
	&& grep -q '^  name: windows-ltsc2022$' "$tmp/rc.yaml" \
	&& grep -q '^  name: windows-ltsc2019$' "$tmp/rc.yaml" \
	&& grep -q '^  name: windows-ltsc2025$' "$tmp/rc.yaml" \
	|| no "wingen runtimeclasses: not the default's three RuntimeClasses"
[ "$(count '^kind:' "$tmp/rc.yaml")" = 3 ] \
	|| no "wingen runtimeclasses printed more than RuntimeClasses"
"$wingen" build --only-runtimeclasses </dev/null >"$tmp/rc2.yaml" \
	&& cmp -s "$tmp/rc.yaml" "$tmp/rc2.yaml" \
	|| no "build --only-runtimeclasses differs from runtimeclasses"

# 4. Helm 3's form with wingen itself: --post-renderer wingen
# --post-renderer-args build --post-renderer-args --no-runtimeclasses ...
"$wingen" build --no-runtimeclasses "$example/profile.yaml" <"$rendered" \
	>"$tmp/out3" 2>"$tmp/err" || no "wingen build PROFILE on stdin failed"
cmp -s "$tmp/out3" "$tmp/plugin.yaml" \
	|| no "Helm 3's form gives another result than the Helm 4 plugin"

# 5. Errors: non-zero, nothing on stdout, the reason on stderr and in
# the log.
{
	cat "$rendered"
	printf -- '---\n# Source: shop/templates/pinned.yaml\n'
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pinned\n'
	printf 'spec:\n  nodeSelector:\n    kubernetes.io/os: linux\n'
	printf '  containers:\n  - name: c\n'
	printf '    image: mcr.microsoft.com/windows/nanoserver:ltsc2022\n'
} >"$tmp/conflict.yaml"
{
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: hpc\nspec:\n'
	printf '  runtimeClassName: windows-custom\n  hostNetwork: true\n'
	printf '  securityContext:\n    windowsOptions:\n'
	printf '      hostProcess: true\n'
	printf '      runAsUserName: "NT AUTHORITY\\\\SYSTEM"\n'
	printf '  containers:\n  - name: c\n'
	printf '    image: mcr.microsoft.com/windows/nanoserver:ltsc2022\n'
} >"$tmp/unknown-rc.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: [broken\n' >"$tmp/bad.yaml"
printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\nwindows:\n  builds:\n    - release: ltsc2033\n' \
	>"$tmp/badprofile.yaml"
check_fails() {	# check_fails RC WHAT: after a post, the failure contract
	local rc=$1 what=$2
	[ "$rc" != 0 ] || no "$what: exit status 0"
	[ -s "$tmp/out" ] && no "$what: something on stdout"
	[ -s "$tmp/err" ] || no "$what: no reason on stderr"
}
post <"$tmp/conflict.yaml"
check_fails $? "a Windows workload pinned to Linux"
grep -q "pinned" "$tmp/err" || no "the conflict message does not name the Pod"
grep -q "pinned" "$deflog" || no "the conflict message is not in the log"
post <"$tmp/unknown-rc.yaml"
check_fails $? "a RuntimeClass the profile does not define"
grep -q "RuntimeClass 'windows-custom' is not one of the profile's" \
	"$tmp/err" || no "an unknown RuntimeClass: not named: $(cat "$tmp/err")"
post <"$tmp/bad.yaml"
check_fails $? "invalid YAML"
WINGEN_LOG=$tmp/my.log post "$tmp/badprofile.yaml" <"$rendered"
check_fails $? "a bad profile"
grep -q "unknown release 'ltsc2033'" "$tmp/my.log" \
	|| no "WINGEN_LOG does not hold the profile's error"
WINGEN=$tmp/no-such-wingen "$wrapper" <"$rendered" >"$tmp/out" 2>"$tmp/err"
check_fails $? "no wingen binary"
grep -q "put wingen on PATH or set WINGEN" "$tmp/err" \
	|| no "no wingen binary: no hint: $(cat "$tmp/err")"

# 6. Warnings of a run that succeeds are kept in the log too (Helm drops
# a successful post-renderer's stderr).
sed 's/^    - image: .*/&\n    - name: nothing-is-called-this/' \
	"$example/profile.yaml" >"$tmp/warn.yaml"
post "$tmp/warn.yaml" <"$rendered" || no "a profile with a warning failed"
grep -q "warning: windows.select\[1\] matches no workload" "$deflog" \
	|| no "the warning of a successful run is not in the log"

# 7. The real clients.
# shellcheck source=lib/helm.sh
. "$root/tests/sh/lib/helm.sh"
if ! helm_clients; then
	[ "$fail" = 0 ] && exit 77
	exit 1
fi
mkdir -p "$tmp/bin"
ln -s "$wingen" "$tmp/bin/wingen"
storefront_ok() {	# storefront_ok WHAT N: N objects with the runtimeClassName
	[ "$(count 'runtimeClassName: windows-ltsc2022' "$tmp/out")" = "$2" ] \
		|| no "$1: $2 Windows workloads expected post-rendered"
	grep -q '^kind: RuntimeClass' "$tmp/out" \
		&& no "$1: a RuntimeClass went into the release"
}

( helm_env 3 "$tmp"
  export WINGEN=$wingen
  # Helm 3: the wrapper as an executable (hooks are not post-rendered:
  # only the storefront changes), and wingen itself on PATH.
  "$helm3" template shop "$example/chart" --post-renderer "$wrapper" \
	--post-renderer-args "$example/profile.yaml" \
	>"$tmp/out" 2>"$tmp/err" </dev/null \
	|| no "helm 3 with the wrapper failed: $(cat "$tmp/err")"
  storefront_ok "helm 3 + wrapper" 1
  PATH="$tmp/bin:$PATH" WINGEN= "$helm3" template shop "$example/chart" \
	--post-renderer wingen --post-renderer-args build \
	--post-renderer-args --no-runtimeclasses \
	--post-renderer-args "$example/profile.yaml" \
	>"$tmp/out" 2>"$tmp/err" </dev/null \
	|| no "helm 3 with wingen build failed: $(cat "$tmp/err")"
  storefront_ok "helm 3 + wingen build" 1
  # --show-only splits the post-rendered stream on "# Source:"
  "$helm3" template shop "$example/chart" --post-renderer "$wrapper" \
	--post-renderer-args "$example/profile.yaml" \
	--show-only templates/storefront.yaml \
	>"$tmp/out" 2>"$tmp/err" </dev/null \
	|| no "helm 3 --show-only with the wrapper failed: $(cat "$tmp/err")"
  [ "$(count '^kind:' "$tmp/out")" = 1 ] \
	&& grep -q '^# Source: shop/templates/storefront.yaml$' "$tmp/out" \
	|| no "helm 3 --show-only: not the storefront alone: $(cat "$tmp/out")"
  storefront_ok "helm 3 --show-only" 1
  "$helm3" template shop "$example/chart" --post-renderer "$wrapper" \
	--post-renderer-args "$tmp/badprofile.yaml" \
	>"$tmp/out" 2>"$tmp/err" </dev/null
  [ $? != 0 ] && grep -q "unknown release 'ltsc2033'" "$tmp/err" \
	|| no "helm 3: a bad profile's error is not shown: $(cat "$tmp/err")"
  exit $fail ) || fail=1

helm_env 4 "$tmp"
"$helm4" plugin install "$plugin" >"$tmp/err" 2>&1 \
	|| no "helm 4 plugin install failed: $(cat "$tmp/err")"
export WINGEN=$wingen
# Helm 4 post-renders hooks: the storefront and the migrate Job.
"$helm4" template shop "$example/chart" --post-renderer wingen \
	--post-renderer-args "$example/profile.yaml" \
	>"$tmp/out" 2>"$tmp/err" </dev/null \
	|| no "helm 4 with the plugin failed: $(cat "$tmp/err")"
storefront_ok "helm 4 + plugin" 2
"$helm4" template shop "$example/chart" --post-renderer wingen \
	--post-renderer-args build --post-renderer-args "$example/profile.yaml" \
	>"$tmp/out" 2>"$tmp/err" </dev/null \
	|| no "helm 4 with Helm 3's 'build' argument failed: $(cat "$tmp/err")"
storefront_ok "helm 4 + plugin, build PROFILE" 2
# --show-only: Helm 4 splits on its own annotation; the "# Source:" lines
# wingen keeps do not get in its way.
"$helm4" template shop "$example/chart" --post-renderer wingen \
	--post-renderer-args "$example/profile.yaml" \
	--show-only templates/storefront.yaml \
	>"$tmp/out" 2>"$tmp/err" </dev/null \
	|| no "helm 4 --show-only with the plugin failed: $(cat "$tmp/err")"
[ "$(count '^kind:' "$tmp/out")" = 1 ] \
	&& [ "$(count '^# Source: shop/templates/storefront.yaml$' "$tmp/out")" = 1 ] \
	|| no "helm 4 --show-only: not the storefront alone: $(cat "$tmp/out")"
storefront_ok "helm 4 --show-only" 1
# A failing profile: Helm 4 says only that the plugin failed; the
# message is in the log, and on the user's terminal.
rm -f "$deflog"
"$helm4" template shop "$example/chart" --post-renderer wingen \
	--post-renderer-args "$tmp/badprofile.yaml" \
	>"$tmp/out" 2>"$tmp/err" </dev/null
[ $? != 0 ] || no "helm 4 with a bad profile: exit status 0"
grep -q "unknown release 'ltsc2033'" "$deflog" \
	|| no "helm 4: the bad profile's error is not in the log"
if command -v script >/dev/null 2>&1; then
	WINGEN_TTY=1 script -qec "'$helm4' template shop '$example/chart' \
		--post-renderer wingen --post-renderer-args \
		'$tmp/badprofile.yaml'" /dev/null </dev/null >"$tmp/tty" 2>&1
	grep -q "unknown release 'ltsc2033'" "$tmp/tty" \
		|| no "helm 4 at a terminal: the error is not shown: $(cat "$tmp/tty")"
else
	echo "note: no 'script' (util-linux): the terminal is not tried"
fi

[ "$fail" = 0 ] && echo "helm: all cases pass"
exit $fail
