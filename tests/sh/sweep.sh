#!/usr/bin/env bash
# The one rule, held over every input the project has (issue 43): every
# file of ../shared/corpus/real and ../shared/corpus/more/manifests (the
# kustomize trees there rendered with kubectl kustomize), the charts of
# ../shared/corpus/charts and ../shared/corpus/more/charts rendered with
# Helm, and the project's examples, each built under four profiles:
#   default  the embedded default
#   one      one build (ltsc2022)
#   three    ltsc2019 + ltsc2022 + ltsc2025
#   arm      ltsc2025 on amd64 and on arm64
# Checks, per input and profile:
#   - wingen does not crash: exit 0, or exit 1 with nothing on stdout;
#   - a success built again is byte-identical and records no change;
#   - the invariants of tests/tools/sweepcheck.c: no pod with an image that
#     names Windows pinned to Linux, no Windows pod on a build whose hosts
#     cannot run its images, no node agent that reached every Windows node
#     narrowed, the API server's rules (validateWindows, validateLinux,
#     windowsOptions, HostProcess) and RuntimeClass admission;
#   - every refusal has a reason listed below, none stricter than the API
#     server (a new kind of refusal fails the sweep until it is judged).
# Prints every refusal by reason and the fixes (changes) by plugin.
# Without kubectl or Helm, those inputs are skipped, loudly.
#   sweep.sh WINGEN YAMLCMP CORPUS_DIR   (sweepcheck is next to YAMLCMP)
set -u
wingen=$1 sweepcheck=$(dirname "$2")/sweepcheck real=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$(dirname "$real")
if [ ! -d "$real" ] || [ ! -d "$corpus/more" ]; then
	echo "SKIP: no corpus at $corpus (real/ and more/)"
	exit 77
fi
[ -x "$sweepcheck" ] || { echo "FAIL: no sweepcheck at $sweepcheck"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp WINGEN_TTY=0
unset WINGEN_PROFILE WINGEN_LOG
fail=0
bad() { echo "FAIL: $*"; fail=1; }
skip() { echo "SKIP: $*"; }

# ---- the profiles -------------------------------------------------------
mkdir -p "$tmp/p"
profile() {	# profile NAME BUILDS-YAML
	printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\n' >"$tmp/p/$1.yaml"
	printf 'metadata: {name: %s}\nwindows:\n  builds: %s\n' "$1" "$2" \
		>>"$tmp/p/$1.yaml"
}
profile one '[{release: ltsc2022}]'
profile three '[{release: ltsc2019}, {release: ltsc2022}, {release: ltsc2025}]'
profile arm '[{release: ltsc2025, arch: amd64}, {release: ltsc2025, arch: arm64}]'
printf '  default: ltsc2022\n' >>"$tmp/p/three.yaml"
profiles=(default one three arm)

# ---- the inputs: one file each, named SOURCE~NAME ----------------------
in=$tmp/in
mkdir -p "$in"
add() { cp "$2" "$in/$1~$(basename "$2")"; }
for f in "$real"/*.yaml "$real"/*.yml; do [ -f "$f" ] && add real "$f"; done
for f in "$corpus"/more/manifests/*; do
	[ -f "$f" ] && case $f in *.yaml|*.yml) add more "$f" ;; esac
done
# the kustomize trees: every folder with a kustomization, rendered
kust() {	# kust LABEL DIR
	local out=$in/$1~$(basename "$2").yaml
	if ! command -v kubectl >/dev/null; then
		skip "kustomize tree $2: no kubectl"
		return
	fi
	kubectl kustomize "$2" >"$out" 2>"$tmp/kust.err" || {
		skip "kustomize tree $2: $(grep -v Warning "$tmp/kust.err" | head -1)"
		rm -f "$out"; }
}
while read -r k; do
	kust more "$(dirname "$k")"
done < <(find "$corpus"/more/manifests -mindepth 2 \
	\( -name kustomization.yaml -o -name kustomization.yml \) | sort)
# the charts
helm=${WG_HELM3:-$(command -v helm || true)}
chart() {	# chart LABEL DIR ARGS...
	local label=$1 dir=$2 out; shift 2
	out=$in/$label~$(basename "$dir").yaml
	if ! [ -x "$helm" ]; then
		skip "chart $dir: no Helm (WG_HELM3 or helm on PATH)"
		return
	fi
	"$helm" template rel "$dir" "$@" >"$out" 2>"$tmp/helm.err" || {
		skip "chart $dir: $(head -1 "$tmp/helm.err")"; rm -f "$out"; }
}
export HELM_CONFIG_HOME=$tmp/helm/config HELM_DATA_HOME=$tmp/helm/data
export HELM_CACHE_HOME=$tmp/helm/cache
while IFS=$'\t' read -r name args; do
	case $name in ''|\#*) continue ;; esac
	# shellcheck disable=SC2086  # args: words, as written in the table
	[ -d "$corpus/charts/$name" ] && chart charts "$corpus/charts/$name" $args
done <"$root/tests/data/helm/charts.tsv"
while IFS=$'\t' read -r name args; do
	case $name in ''|\#*) continue ;; esac
	case $args in skip:*) skip "chart more/charts/$name:${args#skip:}"; continue ;; esac
	args=${args//@data@/$root/tests/data/sweep}
	# shellcheck disable=SC2086
	[ -d "$corpus/more/charts/$name" ] && chart more "$corpus/more/charts/$name" $args
done <"$root/tests/data/sweep/more-charts.tsv"
# the examples: their manifests, the kustomize app, the Helm chart
for f in "$root"/examples/{single-build,three-builds,upgrade}/manifests/*.yaml \
	 "$root"/examples/kpt/pkg/{iis,api}.yaml \
	 "$root"/examples/argocd/app/manifests/*.yaml \
	 "$root"/examples/kustomize/{app,krm}/deploy.yaml; do
	[ -f "$f" ] && cp "$f" "$in/examples~$(basename "$(dirname "$f")")-$(basename "$f")"
done
chart examples "$root/examples/helm/chart"
ninputs=$(find "$in" -type f | wc -l)
[ "$ninputs" -gt 250 ] || bad "only $ninputs inputs: the corpus is incomplete"

# ---- the runs -------------------------------------------------------------
# Each profile in its own folder: out/ (stdout), err/ (--explain), rc,
# and again/ again.err/ for the second build of a success.
run_profile() {
	local name=$1 d=$tmp/r/$1 f base rc args=()
	[ "$name" = default ] || args=("$tmp/p/$name.yaml")
	mkdir -p "$d/out" "$d/err" "$d/again" "$d/again.err"
	for f in "$in"/*; do
		base=${f##*/}
		"$wingen" build "${args[@]}" -f "$f" --explain \
			>"$d/out/$base" 2>"$d/err/$base" </dev/null
		rc=$?
		echo "$rc $base" >>"$d/rc"
		[ "$rc" = 0 ] || continue
		"$wingen" build "${args[@]}" -f "$d/out/$base" --explain \
			>"$d/again/$base" 2>"$d/again.err/$base" </dev/null
	done
}
for p in "${profiles[@]}"; do run_profile "$p" & done
wait

# ---- the refusals, by reason --------------------------------------------
# REASON<TAB>extended regex on the message.  Each is the API server's own
# rule, input no client can read, or the one rule's refusal: a change
# that would put a pod where it cannot run.
cat >"$tmp/reasons" <<'REASONS'
unrendered Helm template	looks like a Helm template
unreadable YAML	(did not find expected|could not find expected|mapping key is not a scalar|duplicate mapping key|found character that cannot|found undefined tag|control characters are not allowed|mapping values are not allowed)
API: HostProcess pod rules	(is not a HostProcess container|must be true in a HostProcess pod|they must be identical)
API: windowsOptions of a linux pod	windows options cannot be set for a linux pod
API: windowsOptions values	^runAsUserName|gmsaCredentialSpec|must be a DNS subdomain \(the name of a GMSACredentialSpec
API: field types	is not (a mapping|a list|a string|a boolean|an integer)
its own OS selector says Linux	is '(linux|Linux)', but this is a Windows workload
its own selector rules out the build	(is '[^']*', but this is a Windows workload|rules out the Windows nodes of build)
its RuntimeClass is another build's	needs RuntimeClass '
an image its build's hosts cannot run	hosts cannot run
a Windows image the profile does not select	names Windows \(.*no windows.select entry takes
no object in the input	no object was read
its annotation names a build the profile lacks	annotations.\[wingen.dev/windows-builds?\]: .* is not a build of the profile
fan-out cannot copy it	(fan-out gives each|the name of its copy|names one build, but the workload targets several|fan-out names each copy)
the same object twice	(appears twice|the same object|is defined twice|also defined)
REASONS
# FILE:LINE:COL: error: [OBJECT: FIELD: ]MESSAGE -> profile<TAB>file<TAB>message
for p in "${profiles[@]}"; do
	while read -r rc base; do
		[ "$rc" = 1 ] || continue
		grep -h ': error: ' "$tmp/r/$p/err/$base" \
			| sed -E 's/^[^ ]*: error: //' \
			| awk -v p="$p" -v f="$base" -F'\t' '{ print p "\t" f "\t" $0 }'
	done <"$tmp/r/$p/rc"
done >"$tmp/refusals"
awk -F'\t' -v reasons="$tmp/reasons" -v verbose="${SWEEP_VERBOSE:-}" '
	BEGIN { while ((getline line < reasons) > 0) {
		split(line, r, "\t"); n++; name[n] = r[1]; re[n] = r[2] } }
	{ hit = 0
	  for (i = 1; i <= n && !hit; i++)
		if ($3 ~ re[i]) { count[name[i]]++; hit = i }
	  if (!hit) print "UNJUDGED\t" $1 "\t" $2 "\t" $3
	  else if (verbose) print "REFUSED\t" name[hit] "\t" $1 "\t" $2 "\t" $3 }
	END { for (k in count) print "REASON\t" count[k] "\t" k }' \
	"$tmp/refusals" >"$tmp/judged"
# SWEEP_VERBOSE=1: every refusal, with its reason
grep '^REFUSED' "$tmp/judged" | cut -f2- | sort
nref=$(wc -l <"$tmp/refusals")
echo "refusals: $nref errors in $(cut -f1,2 "$tmp/refusals" | sort -u | wc -l) runs, by reason:"
grep '^REASON' "$tmp/judged" | sort -t$'\t' -k2,2nr \
	| awk -F'\t' '{ printf "  %5d  %s\n", $2, $3 }'
if grep -q '^UNJUDGED' "$tmp/judged"; then
	bad "refusals of no listed reason (judge them: the API server's rule, or the one rule's?):"
	grep '^UNJUDGED' "$tmp/judged" | cut -f2- | head -20
fi

# ---- crashes, stdout on failure, idempotence ------------------------------
nruns=0 nok=0
for p in "${profiles[@]}"; do
	d=$tmp/r/$p
	pairs=()
	while read -r rc base; do
		nruns=$((nruns + 1))
		case $rc in
		0) ;;
		1) [ -s "$d/out/$base" ] && bad "$p $base: exit 1 with output on stdout"
		   continue ;;
		*) bad "$p $base: exit $rc: $(head -2 "$d/err/$base")"; continue ;;
		esac
		nok=$((nok + 1))
		cmp -s "$d/out/$base" "$d/again/$base" \
			|| bad "$p $base: a second build changed the output"
		grep -q ' -> \|: created (\|: dropped (' "$d/again.err/$base" \
			&& bad "$p $base: a second build recorded changes: $(grep -m1 ' -> ' "$d/again.err/$base")"
		pairs+=("$in/$base" "$d/out/$base")
	done <"$d/rc"
	# the invariants, every success of the profile in one run
	prof=-
	[ "$p" = default ] || prof=$tmp/p/$p.yaml
	if [ ${#pairs[@]} -gt 0 ]; then
		"$sweepcheck" "$prof" "${pairs[@]}" >"$tmp/check.$p" 2>&1
		rc=$?
		grep '^VIOLATION' "$tmp/check.$p" | head -20
		[ "$rc" = 0 ] || bad "$p: sweepcheck exit $rc"
		echo "$p: $(grep '^sweepcheck:' "$tmp/check.$p")"
	fi
done

# ---- the fixes, by plugin ----------------------------------------------
cat "$tmp"/r/*/err/* | sed -nE 's/.*(: created|: dropped| -> .*) \(([a-z-]+): .*/\2/p' \
	| sort | uniq -c | sort -rn >"$tmp/fixes"
echo "fixes: $(awk '{ s += $1 } END { print s + 0 }' "$tmp/fixes") changes, by plugin:"
awk '{ printf "  %5d  %s\n", $1, $2 }' "$tmp/fixes"
echo "$ninputs inputs, $nruns runs, $nok built, $((nruns - nok)) refused"
exit $fail
