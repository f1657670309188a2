#!/usr/bin/env bash
# Runs every examples/*/ that has a profile.yaml and an expected.yaml:
# "wingen build profile.yaml" in that folder must print expected.yaml
# exactly (and expected.err on stderr, empty when absent), and the output,
# used as the example's only manifests, must come out unchanged
# (idempotence).  Other examples (kpt, Helm, Argo CD) have tests of their
# own.
#   examples.sh WINGEN YAMLCMP CORPUS
# WINGEN_UPDATE=1 rewrites expected.yaml and expected.err (for a new
# example, create an empty expected.yaml first).
set -u
wingen=$1
examples=$(cd "$(dirname "$0")/../../examples" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ran=0

for dir in "$examples"/*/; do
	name=$(basename "$dir")
	[ -f "$dir/profile.yaml" ] || continue	# other kinds of examples
	if [ ! -f "$dir/expected.yaml" ]; then
		echo "skip $name: no expected.yaml"
		continue
	fi
	ran=$((ran + 1))
	(cd "$dir" && "$wingen" build profile.yaml >"$tmp/out" 2>"$tmp/err")
	rc=$?
	if [ "${WINGEN_UPDATE:-}" = 1 ]; then
		cp "$tmp/out" "$dir/expected.yaml"
		if [ -s "$tmp/err" ]; then cp "$tmp/err" "$dir/expected.err"
		else rm -f "$dir/expected.err"; fi
		echo "updated $name (exit $rc)"
		continue
	fi
	if [ $rc != 0 ]; then
		echo "FAIL $name: exit $rc"; cat "$tmp/err"; fail=1; continue
	fi
	if ! cmp -s "$tmp/out" "$dir/expected.yaml"; then
		echo "FAIL $name: output differs from expected.yaml:"
		diff -u "$dir/expected.yaml" "$tmp/out" | head -40; fail=1
	fi
	want_err=/dev/null
	[ -f "$dir/expected.err" ] && want_err="$dir/expected.err"
	if ! cmp -s "$tmp/err" "$want_err"; then
		echo "FAIL $name: stderr differs:"; diff -u "$want_err" "$tmp/err"; fail=1
	fi
	# Idempotence: the same profile with its own output as manifests.
	mkdir -p "$tmp/$name/manifests"
	cp -R "$dir/." "$tmp/$name/"
	rm -rf "$tmp/$name/manifests"
	mkdir "$tmp/$name/manifests"
	cp "$tmp/out" "$tmp/$name/manifests/out.yaml"
	if ! (cd "$tmp/$name" && "$wingen" build profile.yaml >"$tmp/again" 2>/dev/null) \
		|| ! cmp -s "$tmp/out" "$tmp/again"; then
		echo "FAIL $name: not idempotent:"
		diff -u "$tmp/out" "$tmp/again" | head -20; fail=1
	fi
	[ $fail = 0 ] && echo "ok $name"
done
if [ $ran -lt 2 ]; then
	echo "FAIL: expected at least two examples with a profile, found $ran"; fail=1
fi
exit $fail
