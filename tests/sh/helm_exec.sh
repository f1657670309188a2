#!/usr/bin/env bash
# No command from input (SECURITY.md "It never runs a program named by its
# input"), with the real Helm 3 and Helm 4:
#   - a profile's resources: entry "--post-renderer=sh" (a folder holding
#     a Chart.yaml, beside a chart folder named like wingen's release)
#     reaches helm as a path, never as a flag: build, check, migrate
#     --diff and migrate --in-place, run from the profile's folder, create
#     no marker file (the render, piped into sh, would create it);
#   - helm gets the chart and the values files as unambiguous paths
#     ("./" in front, after "--");
#   - "helm" is looked up in the absolute folders of PATH only: a helm in
#     the current folder reached through a relative PATH entry never runs;
#   - a --helm file that is not a program is an error, never handed to
#     /bin/sh (execvp would).
#   helm_exec.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/helm.sh
. "$root/tests/sh/lib/helm.sh"
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
helm_clients || exit 77
suite_scratch || exit 1
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG
marker=$tmp/MARKER

# chart DIR: a chart whose render, run as a shell script, creates $marker
# (a line of a block scalar is a command to sh), with a Windows workload
# so migrate has values to write and renders a second time.
chart() {
	mkdir -p "$1/templates"
	cat >"$1/Chart.yaml" <<'Y'
apiVersion: v2
name: evil
version: 0.1.0
Y
	cat >"$1/values.yaml" <<'Y'
image: nginx:1.27
nodeSelector: {}
Y
	cat >"$1/templates/cm.yaml" <<Y
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
data:
  a: |
    touch $marker
Y
	cat >"$1/templates/deploy.yaml" <<'Y'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {{- toYaml .Values.nodeSelector | nindent 8 }}
      containers:
        - name: web
          image: {{ .Values.image }}
Y
}

mkdir -p repo
cd repo || exit 1
chart ./--post-renderer=sh
# helm template wingen --post-renderer=sh: the chart "wingen", here
chart ./wingen
cat >profile.yaml <<'Y'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: p}
resources: ["--post-renderer=sh"]
windows:
  builds: [{release: ltsc2022}]
Y
cp -R ./--post-renderer=sh pristine

for n in 3 4; do
	eval "helm=\$helm$n"
	helm_env "$n" "$tmp"
	mkdir -p "$tmp/bin$n"
	ln -sf "$helm" "$tmp/bin$n/helm"
	for cmd in "build profile.yaml" "check profile.yaml" \
		"migrate profile.yaml --diff" "migrate profile.yaml --in-place"
	do
		rm -f "$marker"
		rm -rf ./--post-renderer=sh
		cp -R pristine ./--post-renderer=sh
		# shellcheck disable=SC2086  # cmd: words
		PATH=$tmp/bin$n:$PATH "$wingen" $cmd >out 2>err
		rc=$?
		[ -e "$marker" ] && no "helm $n: '$cmd' ran the render as a" \
			"command (the marker exists)"
		case $cmd in
		# (migrate --diff exits 1 with a diff, as kubectl diff)
		migrate*--diff) [ $rc = 1 ] || { no "helm $n: '$cmd' exit $rc"; cat err; } ;;
		migrate*) [ $rc = 0 ] || { no "helm $n: '$cmd' exit $rc"; cat err; } ;;
		esac
	done
	grep -q 'nodeSelector' ./--post-renderer=sh/values.yaml \
		&& ! cmp -s pristine/values.yaml ./--post-renderer=sh/values.yaml \
		|| no "helm $n: migrate --in-place did not migrate the chart"

	# what helm gets: every path unambiguous, the operands after --
	cat >"$tmp/bin$n/loghelm" <<S
#!/bin/sh
printf '%s\n' "\$@" >>"$tmp/argv$n"
exec "$helm" "\$@"
S
	chmod +x "$tmp/bin$n/loghelm"
	rm -f "$tmp/argv$n"
	"$wingen" migrate ./--post-renderer=sh --diff -f pristine/values.yaml \
		--set image=nginx:1.28 \
		--helm "$tmp/bin$n/loghelm" >out 2>err
	[ $? -le 1 ] || { no "helm $n: migrate with a logging helm failed"; cat err; }
	grep -qx -- '--' "$tmp/argv$n" \
		|| no "helm $n: no '--' before the operands"
	grep -qx -- './--post-renderer=sh' "$tmp/argv$n" \
		|| no "helm $n: the chart is not './--post-renderer=sh'"
	grep -qx -- '--values=./pristine/values.yaml' "$tmp/argv$n" \
		|| no "helm $n: the user's values file is not one argument with ./"
	grep -qx -- '--set=image=nginx:1.28' \
		"$tmp/argv$n" || no "helm $n: --set is not one argument"
	grep -q -- '^--post-renderer' "$tmp/argv$n" \
		&& no "helm $n: an argument starts with --post-renderer"
	[ -e "$marker" ] && no "helm $n: the logged run created the marker"
done

# "helm" in the current folder, reached through a relative PATH entry
# ("." or an empty one): never run
cat >helm <<S
#!/bin/sh
touch $marker
S
chmod +x helm
for p in . "" "::"; do
	rm -f "$marker"
	PATH=$p "$wingen" migrate ./--post-renderer=sh --diff >out 2>err
	rc=$?
	[ -e "$marker" ] && no "PATH='$p': ran ./helm"
	[ $rc = 2 ] && grep -q "cannot run helm 'helm'" err \
		|| { no "PATH='$p': exit $rc, no 'cannot run helm'"; cat err; }
done

# a --helm file that is no program: an error, not a shell script
printf 'touch %s\n' "$marker" >"$tmp/notaprogram"
chmod +x "$tmp/notaprogram"
rm -f "$marker"
"$wingen" migrate ./--post-renderer=sh --diff --helm "$tmp/notaprogram" \
	>out 2>err
rc=$?
[ -e "$marker" ] && no "a --helm file with no #! line was run by a shell"
[ $rc = 2 ] && grep -q 'Exec format error' err \
	|| { no "a --helm file with no #! line: exit $rc"; cat err; }

[ $fail = 0 ] && echo "ok no command from input"
exit $fail
