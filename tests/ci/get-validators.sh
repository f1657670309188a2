#!/usr/bin/env bash
# Puts the outside validators the tests use into a folder (default:
# build/npm of the checkout), never system-wide, from npm at fixed
# versions:
#   ajv-cli 5.0.0          JSON Schema 2020-12 (docs/profile.schema.json
#                          against the example and bad profiles)
#   yaml 2.9.1             YAML 1.2 to JSON, as yaml-language-server reads
#                          a profile in an editor
#   @microsoft/sarif-multitool-linux 5.7.0
#                          Microsoft's SARIF Multitool (validate), for
#                          check -o sarif
#   kubernetes-models 5.1.0, @kubernetes-models/cert-manager 6.0.0
#                          the Kubernetes API's and cert-manager's JSON
#                          Schemas, for the webhook's Helm chart
# The tests find them in DIR/node_modules and say SKIP without them.
#   tests/ci/get-validators.sh [DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$src/build/npm}
packages=(ajv-cli@5.0.0 yaml@2.9.1 @microsoft/sarif-multitool-linux@5.7.0
          kubernetes-models@5.1.0 @kubernetes-models/cert-manager@6.0.0)

command -v npm >/dev/null 2>&1 || {
	echo "get-validators: npm is needed (Debian: apt-get install npm)" >&2
	exit 1
}
mkdir -p "$dir"
have() {	# have NAME@VERSION: installed at that version already
	local name=${1%@*} version=${1##*@}
	[ -f "$dir/node_modules/$name/package.json" ] \
		&& grep -q "\"version\": *\"$version\"" \
			"$dir/node_modules/$name/package.json"
}
missing=()
for p in "${packages[@]}"; do have "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
	# Every package at once: npm keeps what an earlier install put there.
	npm install --silent --no-audit --no-fund --no-save --prefix "$dir" \
		"${packages[@]}"
fi
# npm may skip the package's own postinstall (chmod u+x).
chmod u+x "$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
for p in "${packages[@]}"; do
	have "$p" || { echo "get-validators: $p did not install" >&2; exit 1; }
done
echo "get-validators: ${packages[*]} in $dir"
