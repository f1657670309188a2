#!/usr/bin/env bash
# Makes the seed corpus of one fuzz target in OUTDIR (a build or a
# gitignored folder; seeds are never committed):
#   seeds.sh TARGET OUTDIR CORPUS_DIR
# roundtrip, build, migrate: every document of the real-world corpus and every
# golden input up to 16 KiB (whole small files too, to keep multi-document
# streams) and the audit's inputs (tests/fuzz/audit/*.yaml); profile: every
# profile in the repository's golden cases and examples, the built-in
# default and the audit's profiles (tests/fuzz/audit/profile-*.yaml); tgz:
# the test charts packed; krm: fn's golden ResourceLists; init: the test
# node lists; udiff: golden inputs and outputs, NUL between them;
# review: reviews of the webhook's test pods; json: those, the test pods,
# and every document of the real-world corpus as JSON (by the wingen of
# $WG_FUZZ_BUILD, when there is one), one a seed and each file's as a
# stream.
set -eu
target=$1 out=$2 corpus=$3
src=$(cd "$(dirname "$0")/../.." && pwd)
max=16384
mkdir -p "$out"

add() {	# add FILE: copy it under its content hash, when small enough
	local f=$1 size
	size=$(wc -c <"$f")
	[ "$size" -gt 0 ] && [ "$size" -le "$max" ] || return 0
	cp "$f" "$out/$(sha1sum "$f" | cut -c1-16)"
}

split_docs() {	# split_docs FILE: one seed per document
	local f=$1 tmp
	tmp=$(mktemp -d)
	awk -v dir="$tmp" '/^---/ { n++ } { print > (dir "/" n+0) }' "$f"
	for d in "$tmp"/*; do [ -f "$d" ] && add "$d"; done
	rm -rf "$tmp"
}

review_seed() {	# review_seed FILE [OP]: an AdmissionReview around FILE's object
	local f=$1 seed
	seed=$(mktemp)
	printf '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"705ab4f5-6393-11e8-b7cc-42010a800002","kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},"namespace":"win-apps","operation":"%s","userInfo":{"username":"admin"},"object":%s,"dryRun":false}}' \
		"${2:-CREATE}" "$(cat "$f")" >"$seed"
	add "$seed"
	rm -f "$seed"
}

case $target in
review)
	# the webhook's request bodies: reviews of the test pods
	for f in "$src"/tests/data/serve/*.json; do
		[ -f "$f" ] || continue
		review_seed "$f"
		review_seed "$f" UPDATE
	done
	;;
json)
	for f in "$src"/tests/data/serve/*.json; do
		[ -f "$f" ] || continue
		add "$f"
		review_seed "$f"
	done
	wingen=${WG_FUZZ_BUILD:-}/wingen
	if [ -x "$wingen" ] && [ -d "$corpus" ]; then
		tmp=$(mktemp -d)
		for f in "$corpus"/*.yaml "$corpus"/*.yml; do
			[ -f "$f" ] || continue
			"$wingen" fmt -f "$f" -o json >"$tmp/s" 2>/dev/null || continue
			add "$tmp/s"
			split -l 1 "$tmp/s" "$tmp/d."
			for d in "$tmp"/d.*; do [ -f "$d" ] && add "$d"; done
			rm -f "$tmp"/d.*
		done
		rm -rf "$tmp"
	fi
	;;
roundtrip|build|migrate)
	if [ -d "$corpus" ]; then
		for f in "$corpus"/*.yaml "$corpus"/*.yml; do
			[ -f "$f" ] || continue
			add "$f"
			split_docs "$f"
		done
	fi
	for f in "$src"/tests/golden/*/input.yaml \
		 "$src"/tests/golden/*/stdin.yaml \
		 "$src"/examples/*/*.yaml \
		 "$src"/tests/fuzz/audit/*.yaml; do
		[ -f "$f" ] || continue
		case $f in */profile.yaml|*/audit/profile-*.yaml) continue ;; esac
		add "$f"
	done
	;;
profile)
	for f in "$src"/tests/golden/*/profile.yaml \
		 "$src"/examples/*/profile.yaml \
		 "$src"/src/*.yaml "$src"/templates/*profile*.yaml \
		 "$src"/tests/fuzz/audit/profile-*.yaml; do
		[ -f "$f" ] && add "$f"
	done
	;;
tgz)
	# the test charts packed as helm packs them, and packed charts
	# holding one (a charts/X.tgz inside)
	tmp=$(mktemp -d)
	for d in "$src"/tests/data/helm/charts/*/; do
		[ -f "$d/Chart.yaml" ] || continue
		n=$(basename "$d")
		tar -C "$d/.." -czf "$tmp/$n.tgz" "$n" 2>/dev/null && add "$tmp/$n.tgz"
	done
	for t in "$tmp"/*.tgz; do
		[ -f "$t" ] || continue
		rm -rf "$tmp/o" && mkdir -p "$tmp/o/outer/charts"
		printf 'apiVersion: v2\nname: outer\nversion: 0.1.0\n' >"$tmp/o/outer/Chart.yaml"
		cp "$t" "$tmp/o/outer/charts/"
		tar -C "$tmp/o" -czf "$tmp/outer.tgz" outer && add "$tmp/outer.tgz"
		break
	done
	rm -rf "$tmp"
	;;
krm)
	# fn's golden ResourceLists and kpt's test packages' lists
	for f in "$src"/tests/golden/*/stdin.yaml "$src"/tests/data/kpt/*/*.yaml; do
		[ -f "$f" ] && grep -q 'kind: ResourceList' "$f" && add "$f"
	done
	;;
init)
	for f in "$src"/tests/data/nodes/*; do
		[ -f "$f" ] && add "$f"
	done
	;;
udiff)
	# each golden case's input and output, NUL between them
	tmp=$(mktemp)
	for d in "$src"/tests/golden/*/; do
		[ -f "$d/input.yaml" ] && [ -f "$d/expected.yaml" ] || continue
		{ cat "$d/input.yaml"; printf '\0'; cat "$d/expected.yaml"; } >"$tmp"
		add "$tmp"
	done
	rm -f "$tmp"
	;;
*)
	echo "seeds.sh: unknown target '$target'" >&2
	exit 2
	;;
esac
echo "seeds.sh: $(find "$out" -type f | wc -l) seeds for $target in $out"
