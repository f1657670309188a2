#!/usr/bin/env bash
# Every chart of the chart corpus (../shared/corpus/charts and
# ../shared/corpus/more/charts; rows and helm arguments in
# tests/data/helm/sweep.tsv), under the embedded default profile and a
# three-build one (tests/data/helm/three-builds.yaml), with the real
# Helm 3 and Helm 4: `wingen migrate --diff` on a copy, and it holds:
#   - no crash (no signal), nothing on stdout on failure;
#   - success: the diff applies, and a second migrate of the result says
#     the chart needs no change (its render goes through the chain with
#     nothing left to change);
#   - failure: exit 1, and every error names a template of the chart and
#     a line (CHART/templates/FILE:LINE:COL: error: ...), never the render
#     nobody sees, and says why (a Kind/name: field: reason message).
# The cases run in parallel (one per CPU): about 400 helm renders.
#   helm_sweep.sh WINGEN YAMLCMP CORPUS
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)

# One case (a file: N HELM FOLDER CHART PROFILE ARGS..., a line each);
# prints FAIL lines.
if [ "${1:-}" = --case ]; then
	mapfile -t c <"$2"
	set -- "${c[@]}"
	n=$1 helm=$2 src=$3 name=$4 profile=$5; shift 5
	export HELM_CONFIG_HOME=$SWEEP_TMP/h$n/config
	export HELM_DATA_HOME=$SWEEP_TMP/h$n/data
	export HELM_CACHE_HOME=$SWEEP_TMP/h$n/cache
	export XDG_STATE_HOME=$SWEEP_TMP/h$n/state
	id=$(printf '%s' "$n-$name-$profile-$*" | tr -c 'A-Za-z0-9.-' _)
	work=$SWEEP_TMP/$id
	tag="helm $n $name${*:+ $*} ($profile)"
	mkdir -p "$work" && cp -R "$src" "$work/$name" || {
		echo "FAIL: $tag: cannot copy the chart"; exit 0; }
	cd "$work" || exit 0
	prof=()
	[ "$profile" = three-builds ] && prof=("$root/tests/data/helm/three-builds.yaml")
	ha=()
	for a in "$@"; do ha+=(--helm-arg "$a"); done
	"$SWEEP_WINGEN" migrate "${prof[@]}" "$name" --diff --helm "$helm" \
		"${ha[@]}" >diff 2>err
	rc=$?
	if [ $rc -ge 128 ]; then
		echo "FAIL: $tag: exit $rc (a signal): $(head -3 err)"
		exit 0
	fi
	# no message at a line of the render nobody sees (CHART:LINE)
	grep -E "^$name:[0-9]" err >render.pos \
		&& echo "FAIL: $tag: a message at a line of the render: $(head -1 render.pos)"
	if grep -q ': error: ' err; then
		# migrate --diff answers as kubectl diff: 2 is "could not answer"
		[ $rc = 2 ] || echo "FAIL: $tag: errors, but exit $rc"
		[ -s diff ] && echo "FAIL: $tag: errors, but a diff on stdout"
		# every error at a template line of this chart, with a reason
		bad=$(grep ': error: ' err | grep -Ev "^$name/([^:]*/)?templates/[^:]+:[1-9][0-9]*:[0-9]+: error: [A-Za-z]+/[^ ]+: [^ ]+.*[a-z].*$")
		[ -n "$bad" ] && echo "FAIL: $tag: an error not at a template line with a reason: $(echo "$bad" | head -2)"
		echo "refused $tag: $(grep -c ': error: ' err) errors"
		exit 0
	fi
	case $rc in
	0 | 1) ;;
	*) echo "FAIL: $tag: exit $rc with no error: $(head -3 err)"; exit 0 ;;
	esac
	# exit 1 exactly when there is a diff (kubectl diff)
	if { [ $rc = 1 ] && [ ! -s diff ]; } || { [ $rc = 0 ] && [ -s diff ]; }; then
		echo "FAIL: $tag: exit $rc does not say whether there is a diff"
		exit 0
	fi
	if [ ! -s diff ]; then
		grep -q 'needs no change' err \
			|| echo "FAIL: $tag: no diff, no 'needs no change': $(head -3 err)"
		echo "unchanged $tag"
		exit 0
	fi
	git apply diff 2>apply.err \
		|| { echo "FAIL: $tag: the diff does not apply: $(head -3 apply.err)"; exit 0; }
	"$SWEEP_WINGEN" migrate "${prof[@]}" "$name" --diff --helm "$helm" \
		"${ha[@]}" >diff2 2>err2
	rc=$?
	if [ $rc != 0 ] || [ -s diff2 ] || ! grep -q 'needs no change' err2; then
		echo "FAIL: $tag: a second migrate (exit $rc): $(grep -v '^migrate: no RuntimeClass' err2 | head -3)"
	fi
	echo "migrated $tag"
	rm -rf "$work"
	exit 0
fi

wingen=$(realpath "$1")
table=$root/tests/data/helm/sweep.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp WINGEN_TTY=0 SWEEP_TMP=$tmp SWEEP_WINGEN=$wingen
unset WINGEN_HELM WINGEN_PROFILE WINGEN_LOG

# shellcheck source=lib/helm.sh
. "$root/tests/sh/lib/helm.sh"
helm_clients || exit 77
helm_corpus "$root" || exit 77
more=${WG_MORE_CHARTS:-$charts/../more/charts}
[ -d "$more" ] || { echo "SKIP: no chart corpus at $more"; exit 77; }
command -v git >/dev/null || { echo "SKIP: git applies the diffs"; exit 77; }

# The cases, one file each: "N HELM-HOMES HELM FOLDER CHART PROFILE
# ARGS...", one argument a line.
mkdir -p "$tmp/cases"
skipped=0 total=0
while IFS=$'\t' read -r -a row; do
	[ "${#row[@]}" -ge 2 ] || continue
	case ${row[0]} in \#*) continue ;; charts) dir=$charts ;; *) dir=$more ;; esac
	if [ "${row[2]:-}" = skip ]; then
		echo "skipped ${row[1]}: ${row[*]:3}"
		skipped=$((skipped + 1))
		continue
	fi
	[ -d "$dir/${row[1]}" ] || { echo "FAIL: no chart $dir/${row[1]}"; exit 1; }
	for n in 3 4; do
		helm=$helm3; [ $n = 4 ] && helm=$helm4
		for p in default three-builds; do
			total=$((total + 1))
			printf '%s\n' "$n" "$helm" "$dir/${row[1]}" "${row[1]}" \
				"$p" "${row[@]:2}" >"$tmp/cases/$total"
		done
	done
done <"$table"

# Each Helm gets its own homes (helm_env), shared by its cases.
for n in 3 4; do
	helm_env $n "$tmp"
done
jobs=$(nproc 2>/dev/null || echo 2)
(cd "$tmp/cases" && printf '%s\n' *) \
	| xargs -P "$jobs" -I{} bash "$0" --case "$tmp/cases/{}" >"$tmp/out"
if grep -q '^FAIL' "$tmp/out"; then
	grep '^FAIL' "$tmp/out"
	exit 1
fi
[ -n "${SWEEP_VERBOSE:-}" ] && sort "$tmp/out"
echo "ok $total chart migrations (Helm 3 and 4, two profiles):" \
     "$(grep -c '^migrated' "$tmp/out") migrated and proved," \
     "$(grep -c '^unchanged' "$tmp/out") needing no change," \
     "$(grep -c '^refused' "$tmp/out") refused at template lines;" \
     "$skipped charts skipped"
