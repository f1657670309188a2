#!/usr/bin/env bash
# docs/helm.md, "Helm 3 and Helm 4 on one machine", with the real clients
# in a scratch home (HOME only: the XDG defaults, as a user has them):
#  - Helm 4's plugin installed in the shared ~/.local/share/helm/plugins
#    breaks Helm 3's plugin list (unknown field "apiVersion") and makes
#    every Helm 3 command warn; helm plugin uninstall (Helm 4) undoes it;
#  - Helm 4's plugin install does not follow HELM_PLUGINS (if a Helm 4
#    starts to, this says so: the docs then change);
#  - the two ways around it: the plugin copied to a folder named by
#    HELM_PLUGINS, and HELM_DATA_HOME; either way Helm 3 lists its
#    plugins and Helm 4 post-renders through wingen.
#   helm_plugins.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/helm.sh"
helm_clients || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
unset HELM_CONFIG_HOME HELM_DATA_HOME HELM_CACHE_HOME HELM_PLUGINS \
	XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME
export PATH="$(dirname "$wingen"):$PATH" WINGEN_LOG=$tmp/post-render.log
plugin=$root/examples/helm/wingen
chart=$root/examples/helm/chart
profile=$root/examples/helm/profile.yaml
render4() {	# render4: Helm 4 renders the chart through the plugin
	"$helm4" template shop "$chart" --post-renderer wingen \
		--post-renderer-args "$profile" 2>"$tmp/render.err" \
		| grep -q 'runtimeClassName: windows-ltsc2022'
}

# ---- the shared folder -----------------------------------------------------------
export HOME=$tmp/shared
mkdir -p "$HOME"
shared=$("$helm3" env HELM_PLUGINS)
[ "$shared" = "$("$helm4" env HELM_PLUGINS)" ] \
	|| no "Helm 3 and 4 do not share a plugin folder by default: '$shared', '$("$helm4" env HELM_PLUGINS)'"
[ "$shared" = "$HOME/.local/share/helm/plugins" ] \
	|| no "the shared plugin folder is '$shared', not ~/.local/share/helm/plugins"
"$helm4" plugin install "$plugin" >/dev/null 2>&1 || no "Helm 4 cannot install the plugin"
"$helm3" plugin list >"$tmp/list3" 2>&1
[ $? != 0 ] || no "Helm 3's plugin list works beside Helm 4's plugin (docs/helm.md says it fails)"
grep -q 'unknown field "apiVersion"' "$tmp/list3" \
	|| no "Helm 3's plugin list fails otherwise than docs/helm.md says: $(tail -1 "$tmp/list3")"
"$helm3" version >/dev/null 2>"$tmp/warn3" || no "Helm 3's version fails beside Helm 4's plugin"
grep -q 'failed to load plugins' "$tmp/warn3" \
	|| no "Helm 3 does not warn on every command (docs/helm.md says it does)"
render4 || no "Helm 4 does not post-render through its plugin: $(tail -2 "$tmp/render.err")"
"$helm4" plugin uninstall wingen >/dev/null 2>&1
"$helm3" plugin list >/dev/null 2>&1 || no "Helm 3's plugin list still fails after helm plugin uninstall (Helm 4)"

# ---- Helm 4's plugin install and HELM_PLUGINS ---------------------------------------
export HOME=$tmp/install
mkdir -p "$HOME/own"
HELM_PLUGINS=$HOME/own "$helm4" plugin install "$plugin" >/dev/null 2>&1
if [ -e "$HOME/own/wingen" ]; then
	no "Helm 4's plugin install now follows HELM_PLUGINS: docs/helm.md says it does not"
fi

# ---- the ways around it ---------------------------------------------------------------
export HOME=$tmp/by-hand
mkdir -p "$HOME/.local/share/helm4/plugins"
cp -r "$plugin" "$HOME/.local/share/helm4/plugins/"
(export HELM_PLUGINS=$HOME/.local/share/helm4/plugins; render4) \
	|| no "HELM_PLUGINS: Helm 4 does not post-render: $(tail -2 "$tmp/render.err")"
"$helm3" plugin list >/dev/null 2>&1 || no "HELM_PLUGINS: Helm 3's plugin list fails"

export HOME=$tmp/data-home
mkdir -p "$HOME"
(export HELM_DATA_HOME=$HOME/.local/share/helm4
 "$helm4" plugin install "$plugin" >/dev/null 2>&1 && render4) \
	|| no "HELM_DATA_HOME: Helm 4 does not install and post-render: $(tail -2 "$tmp/render.err")"
"$helm3" plugin list >/dev/null 2>&1 || no "HELM_DATA_HOME: Helm 3's plugin list fails"

[ "$fail" = 0 ] && echo "helm_plugins: Helm 3 and Helm 4 as docs/helm.md says"
exit $fail
