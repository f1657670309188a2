#!/usr/bin/env bash
# Every chart source of the corpus ($WG_CHARTS, ../shared/corpus/charts;
# the arguments each needs in tests/data/helm/charts.tsv) with the real
# Helm 3 and Helm 4 ($WG_HELM3, $WG_HELM4: tests/ci/get-helm.sh), the two
# clients side by side, each with its own HELM_*_HOME:
#   - through the post-renderer (the Helm 3 executable, the Helm 4
#     plugin): Helm succeeds, every object comes out, none is a
#     RuntimeClass, and the result needs no further change;
# Without the clients or the charts: exit 77 (skip), saying how to get
# them.
#   helm_charts.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
plugin=$root/examples/helm/wingen
table=$root/tests/data/helm/charts.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp XDG_STATE_HOME=$tmp/state WINGEN_TTY=0 WINGEN=$wingen
unset WINGEN_LOG WINGEN_PROFILE

# shellcheck source=lib/helm.sh
. "$root/tests/sh/lib/helm.sh"
helm_clients || exit 77
helm_corpus "$root" || exit 77

# no_hooks < STREAM: the documents that are not Helm hooks.
no_hooks() {
	awk 'function flush() { if (!hook) for (i = 0; i < n; i++) print l[i]
				n = 0; hook = 0 }
	     /^---/ { flush() }
	     /^    "?helm.sh\/hook"?:/ { hook = 1 }
	     { l[n++] = $0 }
	     END { flush() }'
}

# run_client N HELM: every chart with Helm N; FAIL lines on stdout.
run_client() {
	local n=$1 helm=$2 dir=$tmp/h$1 chart args pr
	helm_env "$n" "$tmp"
	export XDG_STATE_HOME=$dir/state	# the wrapper's log, per client
	if [ "$n" = 4 ]; then
		"$helm" plugin install "$plugin" >"$dir/err" 2>&1 \
			|| { echo "FAIL: helm 4 plugin install: $(cat "$dir/err")"
			     return; }
		pr=(--post-renderer wingen)
	else
		pr=(--post-renderer "$plugin/wingen-post-render")
	fi
	grep -v '^#' "$table" | while IFS=$'\t' read -r chart args; do
		local out=$dir/$chart
		# shellcheck disable=SC2086  # args: words, as written
		"$helm" template rel "$charts/$chart" $args \
			>"$out.plain" 2>"$out.err" </dev/null \
			|| { echo "FAIL: helm $n template $chart: $(head -3 "$out.err")"
			     continue; }
		# shellcheck disable=SC2086
		"$helm" template rel "$charts/$chart" $args "${pr[@]}" \
			>"$out.post" 2>"$out.err" </dev/null \
			|| { echo "FAIL: helm $n $chart post-rendered:" \
				  "$(head -5 "$out.err")"; continue; }
		[ "$(grep -c '^kind:' "$out.post")" = \
		  "$(grep -c '^kind:' "$out.plain")" ] \
			|| echo "FAIL: helm $n $chart: post-rendered, the" \
				"number of objects changed"
		grep -q '^kind: RuntimeClass' "$out.post" \
			&& echo "FAIL: helm $n $chart: a RuntimeClass in the release"
		# Helm 3 post-renders no hooks and test Pods: leave them out.
		if [ "$n" = 3 ]; then
			no_hooks <"$out.post" >"$out.check"
		else
			cp "$out.post" "$out.check"
		fi
		"$wingen" build --no-runtimeclasses --check -f "$out.check" \
			>/dev/null 2>"$out.err" \
			|| echo "FAIL: helm $n $chart: the post-rendered" \
				"release still needs changes: $(head -3 "$out.err")"
	done
}

run_client 3 "$helm3" >"$tmp/report3" 2>&1 &
run_client 4 "$helm4" >"$tmp/report4" 2>&1 &
wait
cat "$tmp/report3" "$tmp/report4"
if grep -q . "$tmp/report3" "$tmp/report4"; then
	exit 1
fi
echo "helm_charts: $(grep -vc '^#' "$table") charts pass with Helm 3 and 4"
