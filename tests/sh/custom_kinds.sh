#!/usr/bin/env bash
# Custom resources with pod templates (the kinds table, src/k8s/kinds.c)
# through migrate --in-place: the file is rewritten with its comments, and
# build then finds nothing left to change; the same objects through build
# give the same result as migrate wrote.
#   custom_kinds.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 yamlcmp=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0

case=$src/tests/golden/cr-migrate
cp "$case/profile.yaml" "$case/manifest.yaml" .

if "$wingen" migrate profile.yaml manifest.yaml --in-place >out 2>err; then
	echo "ok migrate --in-place"
else
	echo "FAIL migrate --in-place:"; cat err; fail=1
fi
if grep -q "# comments stay" manifest.yaml; then
	echo "ok comments kept"
else
	echo "FAIL the comment is gone"; fail=1
fi
# every kind of the file was rewritten: one os.name per pod template
# (nine of the built-in custom kinds, two of the declared kind: an object
# is selected as a whole, so both pools of the PodFarm are Windows pods)
n=$(grep -A1 "^ *os:$" manifest.yaml | grep -c "name: windows$")
if [ "$n" = 11 ]; then
	echo "ok every Windows pod template rewritten ($n)"
else
	echo "FAIL $n pod templates say os.name windows, want 11"; fail=1
fi
if grep -q "kubernetes.io/os: linux" manifest.yaml; then
	echo "ok the Linux Rollout pinned"
else
	echo "FAIL nothing pinned to Linux"; fail=1
fi
# what migrate wrote is what build gives
"$wingen" build profile.yaml -f "$case/manifest.yaml" >built.yaml 2>/dev/null
{ cat 00-runtimeclasses.yaml; echo ---; cat manifest.yaml; } >migrated.yaml
if "$yamlcmp" built.yaml migrated.yaml >/dev/null 2>&1; then
	echo "ok migrate and build agree"
else
	echo "FAIL migrate and build differ:"; "$yamlcmp" built.yaml migrated.yaml | head; fail=1
fi
# and a second run has nothing to do
if "$wingen" build profile.yaml -f 00-runtimeclasses.yaml -f manifest.yaml \
	--check >/dev/null 2>err; then
	echo "ok build --check after migrate: nothing pending"
else
	echo "FAIL build --check after migrate:"; cat err; fail=1
fi
exit $fail
