#!/usr/bin/env bash
# wingen migrate on Helm chart sources, with the real Helm 3 and Helm 4
# ($WG_HELM3, $WG_HELM4: tests/ci/get-helm.sh): every corpus chart
# ($WG_CHARTS, ../shared/corpus/charts, read in place and copied only to
# a temporary folder for --in-place; its helm arguments in
# tests/data/helm/charts.tsv) and the test charts of
# tests/data/helm/charts, in both modes, each against the outcome
# tests/data/helm/migrate.tsv expects.  A chart that migrates:
#   - helm template of the result | wingen build --check exits 0;
#   - helm lint passes; a second migrate says it needs no change;
#   - --in-place keeps every comment line of values.yaml and changes
#     nothing but values.yaml and templates;
#   - --values-out leaves the chart untouched.
# One that does not: exit 1, an error naming its template, nothing written.
# Without the clients or the charts: exit 77 (skip), saying how to get them.
#   helm_migrate.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
args_table=$root/tests/data/helm/charts.tsv
want_table=$root/tests/data/helm/migrate.tsv
own=$root/tests/data/helm/charts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG

# shellcheck source=lib/helm.sh
. "$root/tests/sh/lib/helm.sh"
helm_clients || exit 77
helm_corpus "$root" || exit 77
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# comments FILE: its comment lines, sorted (a migrate may move none away).
comments() { grep -E '^[[:space:]]*#' "$1" | sort; }

# one N HELM CHART MODE WANT ARGS...: one chart, one mode, one client.
# ARGS are helm template's; $va (words) are values arguments given to
# wingen migrate as its own (-f, --set, --set-string) and to helm alike.
one() {
	local n=$1 helm=$2 name=$3 mode=$4 want=$5; shift 5
	local src out=$tmp/out rc ha=() a work
	for a in "$@"; do ha+=(--helm-arg "$a"); done
	# shellcheck disable=SC2206  # va: words, as written in the table
	local vv=($va) pf=()
	ha+=("${vv[@]}")
	[ -n "$pr" ] && pf=("$pr")
	set -- "$@" "${vv[@]}"
	case $name in ./*) src=$own/${name#./} ;; *) src=$charts/$name ;; esac
	rm -rf "$tmp/work" "$tmp/over.yaml"
	mkdir -p "$tmp/work"
	cp -R "$src" "$tmp/work/chart"
	work=$tmp/work/chart
	if [ "$mode" = values-out ]; then
		"$wingen" migrate "${pf[@]}" "$src" --values-out \
			"$tmp/over.yaml" --helm "$helm" "${ha[@]}" >"$out" \
			2>"$out.err"
	else
		"$wingen" migrate "${pf[@]}" "$work" --in-place --helm "$helm" \
			"${ha[@]}" >"$out" 2>"$out.err"
	fi
	rc=$?
	local tag="helm $n $name${va:+ $va}${pr:+ ($(basename "$pr"))} --$mode"
	[ -s "$out" ] && bad "$tag: wrote on stdout"
	local noos=
	if [ "$want" = no-os ]; then
		noos=1
		grep -q 'templates/[^:]*:[0-9]*:[0-9]*: warning: .*spec.os.name is left out.*templates/[^:]*:[0-9]' \
			"$out.err" || bad "$tag: no 'os.name is left out' warning naming template lines"
		want=ok
	fi
	if [ "$want" != ok ]; then
		[ $rc = 1 ] || { bad "$tag: exit $rc, want 1 ($want)"; return; }
		case $want in
		no-hook) grep -q 'templates/.*: error: .*no values hook' \
				"$out.err" \
				|| bad "$tag: no per-template 'no values hook' error" ;;
		conflict) grep -q 'error: .*need different values' "$out.err" \
				|| bad "$tag: no conflict error" ;;
		proof) grep -q 'error: .*rendered with the new values' \
				"$out.err" || bad "$tag: no proof error" ;;
		range) grep -q 'templates/.*:[0-9]*:[0-9]*: error: .*these template lines also render' \
				"$out.err" || bad "$tag: no 'template lines also render' error" ;;
		shared) grep -q 'templates/.*:[0-9]*:[0-9]*: error: .*the values key .* feeds it and also .*templates/.*:[0-9]' \
				"$out.err" \
				|| bad "$tag: no 'values key also feeds' error at a template line" ;;
		esac
		[ -e "$tmp/over.yaml" ] && bad "$tag: wrote the overlay"
		diff -r "$src" "$work" >/dev/null || bad "$tag: changed the chart"
		return
	fi
	[ $rc = 0 ] || { bad "$tag: exit $rc: $(head -3 "$out.err")"; return; }
	local vals=()
	if [ "$mode" = values-out ]; then
		work=$src
		[ -e "$tmp/over.yaml" ] && vals=(-f "$tmp/over.yaml")
		grep -q 'needs no change' "$out.err" || [ -e "$tmp/over.yaml" ] \
			|| bad "$tag: neither an overlay nor 'needs no change'"
	else
		if ! cmp -s "$src/values.yaml" "$work/values.yaml"; then
			[ "$(comments "$src/values.yaml")" = \
			  "$(comments "$work/values.yaml")" ] \
				|| bad "$tag: values.yaml lost a comment"
		fi
		# beyond values.yaml, only templates' literal YAML
		diff -rq -x values.yaml "$src" "$work" | grep -v '/templates/' \
			| grep -q . && bad "$tag: changed more than values.yaml and templates"
	fi
	"$helm" template rel "$work" "$@" "${vals[@]}" >"$out.render" \
		2>"$out.err" || { bad "$tag: helm template: $(head -3 "$out.err")"; return; }
	# (an object migrated without os.name: build still adds it; under
	# several builds, build --no-runtimeclasses still adds the -multi
	# RuntimeClass of a workload on several builds: the second migrate
	# below is the check)
	[ -n "$noos$pr" ] || "$wingen" build "${pf[@]}" --no-runtimeclasses \
		--check -f "$out.render" 2>"$out.err" >/dev/null \
		|| bad "$tag: the render still needs changes: $(head -3 "$out.err")"
	"$helm" lint "$work" "$@" "${vals[@]}" >"$out.err" 2>&1 \
		|| bad "$tag: helm lint: $(grep -i error "$out.err" | head -3)"
	# a second migrate changes nothing
	if [ "$mode" = values-out ]; then
		local again=()
		[ -e "$tmp/over.yaml" ] && again=(--helm-arg -f --helm-arg "$tmp/over.yaml")
		"$wingen" migrate "${pf[@]}" "$src" --values-out \
			"$tmp/over2.yaml" --helm "$helm" "${ha[@]}" \
			"${again[@]}" 2>"$out.err"
	else
		"$wingen" migrate "${pf[@]}" "$work" --in-place --helm "$helm" \
			"${ha[@]}" 2>"$out.err"
	fi
	grep -q 'needs no change' "$out.err" \
		|| bad "$tag: a second migrate: $(head -3 "$out.err")"
	rm -f "$tmp/over2.yaml"
}

for n in 3 4; do
	helm=$helm3; [ $n = 4 ] && helm=$helm4
	helm_env $n "$tmp"
	export XDG_STATE_HOME=$tmp/h$n/state
	while IFS=$'\t' read -r name vo ip va pr; do
		va=${va//@data@/$root/tests/data/helm}
		pr=${pr//@data@/$root/tests/data/helm}
		[ "$va" = - ] && va=
		args=$(awk -F'\t' -v c="$name" '$1 == c { print $2 }' "$args_table")
		# shellcheck disable=SC2086  # args: words, as written
		one $n "$helm" "$name" values-out "$vo" $args
		# shellcheck disable=SC2086
		one $n "$helm" "$name" in-place "$ip" $args
	done < <(grep -v '^#' "$want_table")
done

# A named template included once per DaemonSet (two, with the extra
# one): the edit goes into templates/_node-windows.tpl, once, and the
# summary counts it as "the literal YAML of 1 template".
cp -R "$own/named" "$tmp/named"
(cd "$tmp" && "$wingen" migrate named --diff --helm "$helm3" \
	--set additionalDaemonSets.extra=true >named.diff 2>named.err)
grep -q '^+++ b/named/templates/_node-windows.tpl$' "$tmp/named.diff" \
	&& ! grep -q '^+++ b/named/templates/node-windows.yaml' "$tmp/named.diff" \
	&& [ "$(grep -c '^+ *kubernetes.io/arch: amd64$' "$tmp/named.diff")" = 1 ] \
	|| bad "named template: not one edit of _node-windows.tpl: $(cat "$tmp/named.diff")"
grep -q 'would edit the literal YAML of 1 template (' "$tmp/named.err" \
	|| bad "named template: the summary: $(grep chart "$tmp/named.err")"
# A range whose objects need different edits: the error is at the
# template's line, naming both objects and what each needs.
"$wingen" migrate "$own/ranged" --diff --helm "$helm3" \
	-f "$root/tests/data/helm/values/ranged-two-builds.yaml" \
	>"$tmp/out" 2>"$tmp/err"
grep -Eq "^$own/ranged/templates/daemonset-windows.yaml:[0-9]+:[0-9]+: error: DaemonSet/wingen-metrics-windows: spec[^ ]*: these template lines also render DaemonSet/wingen-logs-windows .*needs another change here \((nothing more|'[^']+') for it, (nothing more|'[^']+') for this one\)" \
	"$tmp/err" || bad "range: $(grep error "$tmp/err" | head -3)"
# Linux-only fields written literally: migrated without os.name, and the
# warning names the template lines of privileged and capabilities.
"$wingen" migrate "$own/hardcoded" --diff --helm "$helm3" >"$tmp/out" \
	2>"$tmp/err"
grep -q "^$own/hardcoded/templates/daemonset.yaml:23:[0-9]*: warning: DaemonSet/wingen-agent-win: spec.os.name is left out .*securityContext.capabilities (templates/daemonset.yaml:23), .*securityContext.privileged (templates/daemonset.yaml:28)" \
	"$tmp/err" && ! grep -q '^+.*os:' "$tmp/out" \
	|| bad "hard-coded fields: $(cat "$tmp/err")"

# No helm at all: the message says how to name one.
"$wingen" migrate "$own/hooks" --diff --helm "$tmp/no-such-helm" \
	>"$tmp/out" 2>"$tmp/err"
# (--diff answers as kubectl diff: 2, no answer)
[ $? = 2 ] && grep -q 'cannot run helm .*--helm PATH' "$tmp/err" \
	|| bad "a missing helm: $(cat "$tmp/err")"
[ $fail = 0 ] && echo "ok chart migration with Helm 3 and Helm 4"
exit $fail
