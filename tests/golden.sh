#!/usr/bin/env bash
# Runs one golden case: tests/golden/<case>/ (format in tests/golden/README.md).
#   golden.sh CASE_DIR WINGEN
# WINGEN_UPDATE=1 rewrites the expected files from what wingen does now.
# WINGEN_RUNNER (e.g. "valgrind -q --error-exitcode=99 --leak-check=full")
# prefixes every wingen run.
set -u
dir=$1 wingen=$2
cd "$dir" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2206
runner=(${WINGEN_RUNNER:-})

if [ -f cmd ]; then
	cmdline=$(cat cmd)
elif [ -f profile.yaml ]; then
	cmdline="build profile.yaml -f input.yaml"
else
	cmdline="fmt -f input.yaml"
fi

run() {	# run ARGS... : stdout > $tmp/out, stderr > $tmp/err, status > $tmp/rc
	local stdin=/dev/null
	[ -f stdin.yaml ] && stdin=stdin.yaml
	"${runner[@]}" "$wingen" "$@" <"$stdin" >"$tmp/out" 2>"$tmp/err"
	echo $? >"$tmp/rc"
}

eval "set -- $cmdline"
run "$@"
rc=$(cat "$tmp/rc")
want_rc=0
[ -f expected.rc ] && want_rc=$(cat expected.rc)

if [ "${WINGEN_UPDATE:-}" = 1 ]; then
	cp "$tmp/out" expected.yaml
	if [ -s "$tmp/err" ]; then cp "$tmp/err" expected.err; else rm -f expected.err; fi
	if [ "$rc" != 0 ]; then echo "$rc" >expected.rc; else rm -f expected.rc; fi
	echo "updated $(basename "$dir")"
	exit 0
fi

fail=0
if [ "$rc" != "$want_rc" ]; then
	echo "exit status $rc, expected $want_rc"; fail=1
fi
if ! cmp -s "$tmp/out" expected.yaml; then
	echo "stdout differs from expected.yaml:"; diff -u expected.yaml "$tmp/out" | head -40; fail=1
fi
if [ -f expected.err ]; then
	if ! cmp -s "$tmp/err" expected.err; then
		echo "stderr differs from expected.err:"; diff -u expected.err "$tmp/err" | head -20; fail=1
	fi
elif [ -s "$tmp/err" ]; then
	echo "unexpected stderr:"; head -20 "$tmp/err"; fail=1
fi
# (A KRM function writes its ResourceList, results and all, even when it
# fails: cases with an output-on-failure file.)
if [ "$rc" != 0 ] && [ -s "$tmp/out" ] && [ ! -f output-on-failure ]; then
	echo "failed run wrote to stdout"; fail=1
fi

# Idempotence: the output fed back in (in place of input.yaml) comes out
# byte-identical.
if [ "$fail" = 0 ] && [ "$rc" = 0 ] && [ ! -f no-idempotence ] \
	&& [[ " $cmdline " == *" input.yaml "* ]]; then
	cp "$tmp/out" "$tmp/again.yaml"
	first=$(cat "$tmp/out"; echo x)
	eval "set -- $cmdline"
	args=()
	for a in "$@"; do
		if [ "$a" = input.yaml ]; then args+=("$tmp/again.yaml"); else args+=("$a"); fi
	done
	run "${args[@]}"
	if [ "$(cat "$tmp/rc")" != 0 ] || [ "$(cat "$tmp/out"; echo x)" != "$first" ]; then
		echo "not idempotent: a second run changed the output:"
		diff -u "$tmp/again.yaml" "$tmp/out" | head -20; cat "$tmp/err"; fail=1
	fi
fi
exit $fail
