#!/usr/bin/env bash
# No write outside the paths given (SECURITY.md "It never writes outside
# the paths it was given"): migrate --in-place refuses, naming the link,
# every file it would write through a symbolic link below a PATH, and the
# files outside keep their checksums:
#   - a file link, a folder link, a 00-runtimeclasses.yaml link, a file
#     PATH that is a link;
#   - a file with a second hard link (the rename would split them);
#   - a chart's linked values.yaml and linked template (real Helm 3, when
#     $WG_HELM3 is set);
# while a PATH that is itself a link (the user's folder), a link whose
# file (or hard-linked file) needs no change, and --runtimeclass-file naming a link (the user's
# own output file, as --output-file) still work.  Nothing is written on a
# refusal, no temporary is left in the tree or outside it.
#   migrate_links.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
suite_scratch || exit 1
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG

dep() {	# dep NAME IMAGE: a Deployment migrate changes
	cat <<Y
# $1, kept as written
apiVersion: apps/v1
kind: Deployment
metadata: {name: $1}
spec:
  template:
    spec:
      containers: [{name: c, image: $2}]
Y
}
sums() { find "$tmp/outside" -type f -exec md5sum {} + | sort; }
temps() { find "$tmp" -name '.*.wingen-*' | head -3; }

# refused NAME WANT PATH [ARG...]: migrate PATH ARG... --in-place exits 1
# with WANT on stderr; nothing outside or in PATH changed, no temporary
# anywhere
refused() {
	local name=$1 want=$2 path=$3 before tree
	shift 3
	before=$(sums)
	tree=$(find "$path" -type f -exec md5sum {} + 2>/dev/null | sort)
	"$wingen" migrate "$path" "$@" --in-place >out 2>err
	rc=$?
	[ $rc = 1 ] || no "$name: exit $rc, want 1"
	grep -qF -- "$want" err || { no "$name: stderr lacks '$want'"; cat err; }
	[ "$(sums)" = "$before" ] || no "$name: a file outside the tree changed"
	[ "$(find "$path" -type f -exec md5sum {} + 2>/dev/null | sort)" \
		= "$tree" ] || no "$name: the tree changed (all or nothing)"
	[ -z "$(temps)" ] || no "$name: a temporary is left: $(temps)"
	[ -s out ] && no "$name: wrote on stdout"
}

mkdir -p outside/dir
dep out nginx >outside/dep.yaml
dep out2 nginx >outside/dir/d2.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: victim}\n' \
	>outside/victim.yaml
fresh() { rm -rf "$1"; mkdir -p "$1"; dep "in-$1" nginx >"$1/in.yaml"; }

fresh t1
ln -s ../outside/dep.yaml t1/link.yaml
refused "file link" "'t1/link.yaml' is a symbolic link (to '../outside/dep.yaml')" t1

fresh t2
ln -s ../outside/dir t2/linkdir
refused "folder link" "'t2/linkdir' is a symbolic link (to '../outside/dir')" t2

fresh t3
dep win mcr.microsoft.com/windows/servercore:ltsc2022 >t3/in.yaml
ln -s ../outside/victim.yaml t3/00-runtimeclasses.yaml
refused "RuntimeClass file link" \
	"'t3/00-runtimeclasses.yaml' is a symbolic link (to '../outside/victim.yaml')" t3

fresh t4
ln -s ../outside/dep.yaml t4/named.yaml
refused "a file PATH that is a link" \
	"'t4/named.yaml' is a symbolic link (to '../outside/dep.yaml')" t4/named.yaml

# a hard link: its other name, outside the tree, would keep the old text
fresh t8
dep hard nginx >outside/hard.yaml
ln outside/hard.yaml t8/hard.yaml
ino=$(stat -c %i t8/hard.yaml)
refused "a hard-linked file" "t8/hard.yaml: error: has 2 hard links" t8
[ "$(stat -c %i t8/hard.yaml)" = "$ino" ] && [ "$(stat -c %h t8/hard.yaml)" = 2 ] \
	|| no "a hard-linked file: the link was split"
# one that needs no change: read only
fresh t9
ln outside/victim.yaml t9/cm.yaml
"$wingen" migrate t9 --in-place >out 2>err \
	|| { no "an unchanged hard-linked file: exit $?"; cat err; }

# a PATH that is itself a link: the user's folder, written
fresh real5
ln -s real5 t5
"$wingen" migrate t5 --in-place >out 2>err \
	|| { no "a PATH that is a link: exit $?"; cat err; }
grep -q 'kubernetes.io/os: linux' real5/in.yaml \
	|| no "a PATH that is a link: its file not migrated"
[ -L t5 ] || no "a PATH that is a link: the link is gone"

# a link whose file needs no change: nothing to write, no refusal
fresh t6
ln -s ../outside/victim.yaml t6/cm.yaml
before=$(sums)
"$wingen" migrate t6 --in-place >out 2>err \
	|| { no "an unchanged linked file: exit $?"; cat err; }
[ "$(sums)" = "$before" ] || no "an unchanged linked file: outside changed"

# --runtimeclass-file naming a link: the user's own file; its target is
# replaced and the link stays (as --output-file)
fresh t7
dep win mcr.microsoft.com/windows/servercore:ltsc2022 >t7/in.yaml
: >outside/rc.yaml
ln -s outside/rc.yaml rc-link.yaml
"$wingen" migrate t7 --in-place --runtimeclass-file rc-link.yaml >out 2>err \
	|| { no "--runtimeclass-file link: exit $?"; cat err; }
[ -L rc-link.yaml ] && grep -q 'kind: RuntimeClass' outside/rc.yaml \
	|| no "--runtimeclass-file link: the target was not written"

# a chart's linked values.yaml and template, with the real Helm 3
if [ -x "${WG_HELM3:-}" ]; then
	export HELM_CONFIG_HOME=$tmp/hc HELM_DATA_HOME=$tmp/hd \
		HELM_CACHE_HOME=$tmp/hk
	chart() {
		rm -rf ch; mkdir -p ch/templates outside/tpl
		printf 'apiVersion: v2\nname: c\nversion: 0.1.0\n' >ch/Chart.yaml
		printf '# values\nnodeSelector: {}\n' >outside/vals.yaml
		cp outside/vals.yaml ch/values.yaml
		cat >ch/templates/d.yaml <<'Y'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {{- toYaml .Values.nodeSelector | nindent 8 }}
      containers: [{name: web, image: nginx}]
Y
	}
	chart
	ln -sf ../outside/vals.yaml ch/values.yaml
	refused "a chart's linked values.yaml" \
		"'ch/values.yaml' is a symbolic link (to '../outside/vals.yaml')" \
		ch --helm "$WG_HELM3"
	chart
	cat >outside/tpl/t.yaml <<'Y'
apiVersion: apps/v1
kind: Deployment
metadata: {name: lit}
spec:
  selector: {matchLabels: {app: lit}}
  template:
    metadata: {labels: {app: lit}}
    spec:
      containers:
        - name: web
          image: nginx
Y
	ln -s ../../outside/tpl/t.yaml ch/templates/t.yaml
	refused "a chart's linked template" \
		"'ch/templates/t.yaml' is a symbolic link (to '../../outside/tpl/t.yaml')" \
		ch --helm "$WG_HELM3"
else
	echo "note: no \$WG_HELM3: the chart links are not tried"
fi

[ $fail = 0 ] && echo "ok no write outside the paths given"
exit $fail
