#!/usr/bin/env bash
# Chart migration as careful as build, on every change build makes: each
# real-world manifest of the corpus (../shared/corpus/real and
# ../shared/corpus/more/manifests; not the ones holding "{{") becomes a
# chart whose template is that file, literally, rendered by a stand-in
# Helm (tests/sh/lib/literal-helm: each document after "---" and
# "# Source: CHART/templates/FILE", as helm template writes it), and is
# migrated with --diff under the embedded default, a three-build profile
# and one that makes fan-out copy workloads per build (the last two for
# the files that name Windows).  Every change kind
# of the journal (a field set, an item added, a key removed, an object
# created) comes back to a literal template or is refused, and it holds:
#   - no crash (no signal), nothing on stdout on failure;
#   - success: the diff applies, and a second migrate of the result
#     needs no change;
#   - failure: exit 2, every error at a template line of the chart with
#     the object and the field, never the render's.
# The cases run in parallel (one per CPU).
#   chart_literal.sh WINGEN YAMLCMP CORPUS
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
helm=$root/tests/sh/lib/literal-helm

# One case (a file: MANIFEST PROFILE, a line each); prints its outcome.
if [ "${1:-}" = --case ]; then
	mapfile -t c <"$2"
	src=${c[0]} profile=${c[1]}
	id=$(basename "$2")
	work=$LIT_TMP/w$id
	tag="$(basename "$src") ($(basename "$profile" .yaml))"
	mkdir -p "$work/chart/templates"
	printf 'apiVersion: v2\nname: chart\nversion: 0.1.0\n' \
		>"$work/chart/Chart.yaml"
	cp -R "$src" "$work/chart/templates/"
	cd "$work" || exit 0
	prof=()
	[ "$profile" != default ] && prof=("$profile")
	"$LIT_WINGEN" migrate "${prof[@]}" chart --diff --helm "$helm" \
		>diff 2>err
	rc=$?
	if [ $rc -ge 128 ]; then
		echo "FAIL: $tag: exit $rc (a signal): $(head -3 err)"
		exit 0
	fi
	grep -E '^chart:[0-9]' err >pos \
		&& echo "FAIL: $tag: a message at a line of the render: $(head -1 pos)"
	if grep -q ': error: ' err; then
		# migrate --diff answers as kubectl diff: 2 is "could not answer"
		[ $rc = 2 ] || echo "FAIL: $tag: errors, but exit $rc"
		[ -s diff ] && echo "FAIL: $tag: errors, but a diff on stdout"
		# about an object (Kind/name: ...), or the template's YAML
		bad=$(grep ': error: ' err | grep -Ev '^chart/templates/[^:]+:[1-9][0-9]*:[0-9]+: error: ([A-Za-z]+/[^ ]+: |[a-z])')
		[ -n "$bad" ] && echo "FAIL: $tag: an error not at a template line: $(echo "$bad" | head -2)"
		echo "refused $tag: $(grep -m1 ": error: " err | sed "s/^[^ ]* error: //" | cut -c1-160)"
		exit 0
	fi
	case $rc in
	0 | 1) ;;
	*) echo "FAIL: $tag: exit $rc with no error: $(head -3 err)"; exit 0 ;;
	esac
	if [ ! -s diff ]; then
		grep -q 'needs no change' err \
			|| echo "FAIL: $tag: no diff, no 'needs no change': $(head -3 err)"
		echo "unchanged $tag"
		rm -rf "$work"
		exit 0
	fi
	git apply diff 2>apply.err \
		|| { echo "FAIL: $tag: the diff does not apply: $(head -3 apply.err)"; exit 0; }
	"$LIT_WINGEN" migrate "${prof[@]}" chart --diff --helm "$helm" \
		>diff2 2>err2
	rc=$?
	if [ $rc != 0 ] || [ -s diff2 ] || ! grep -q 'needs no change' err2; then
		echo "FAIL: $tag: a second migrate (exit $rc): $(grep -v '^migrate: ' err2 | head -3)"
	fi
	echo "migrated $tag"
	rm -rf "$work"
	exit 0
fi

wingen=$(realpath "$1")
corpus=${3:-$root/../shared/corpus/real}
more=$corpus/../more/manifests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp WINGEN_TTY=0 LIT_TMP=$tmp LIT_WINGEN=$wingen
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG
[ -d "$corpus" ] || { echo "SKIP: no corpus at $corpus"; exit 77; }
command -v git >/dev/null || { echo "SKIP: git applies the diffs"; exit 77; }

# Fan-out copies: every Windows workload on two builds, its images
# rewritten per build.
cat >"$tmp/copies.yaml" <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata:
  name: copies
windows:
  builds:
    - release: ltsc2019
    - release: ltsc2022
  default: ltsc2022
  select:
    - image: '(?i)windows|servercore|nanoserver|ltsc|mcr\.microsoft\.com/'
      builds: [ltsc2019, ltsc2022]
  images:
    - {match: '(ltsc|-)20(19|22)$', replace: '${1}$release'}
    - {match: ':(ltsc2019|ltsc2022|1809)$', replace: ':$release'}
EOF
mkdir "$tmp/cases"
n=0
for f in "$corpus"/* "$more"/*; do
	[ -e "$f" ] || continue
	# a Go template is not literal YAML; a kustomize tree is a folder
	if [ -d "$f" ] || grep -q '{{' "$f" 2>/dev/null; then
		continue
	fi
	case $f in *.yaml | *.yml) ;; *) continue ;; esac
	# every file under the default; those that name Windows under the
	# profiles of several builds too
	profiles=(default)
	grep -Eqi 'windows|mcr\.microsoft' "$f" \
		&& profiles+=("$root/tests/data/helm/three-builds.yaml" \
			      "$tmp/copies.yaml")
	for p in "${profiles[@]}"; do
		n=$((n + 1))
		printf '%s\n' "$f" "$p" >"$tmp/cases/$n"
	done
done
[ $n -gt 0 ] || { echo "SKIP: no manifest in $corpus"; exit 77; }
jobs=$(nproc 2>/dev/null || echo 2)
(cd "$tmp/cases" && printf '%s\n' *) \
	| xargs -P "$jobs" -I{} bash "$0" --case "$tmp/cases/{}" >"$tmp/out"
if grep -q '^FAIL' "$tmp/out"; then
	grep '^FAIL' "$tmp/out"
	exit 1
fi
[ -n "${LIT_VERBOSE:-}" ] && sort "$tmp/out"
echo "ok $n literal charts: $(grep -c '^migrated' "$tmp/out") migrated" \
     "and proved, $(grep -c '^unchanged' "$tmp/out") needing no change," \
     "$(grep -c '^refused' "$tmp/out") refused at template lines"
