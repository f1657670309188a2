#!/usr/bin/env bash
# stdin, as every command sees it: named <stdin> in every message; input
# piped in that the run does not read is a warning naming -f - (and an
# empty pipe or /dev/null is not); a terminal wingen waits on says so on
# stderr (driven on a pseudo-terminal by tests/tools/onpty.py).
#   stdin.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

cat >in.yaml <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
YAML
cp "$root/tests/data/nodes/ws2022-containerd.json" nodes.json
printf 'a: [\n' >bad.yaml
mkdir prof && cp in.yaml prof/ && cat >prof/profile.yaml <<'YAML'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: p}
resources: [in.yaml]
YAML

# 1. A parse error on stdin: <stdin>:LINE:COL in every command.
for cmd in build check fmt init "build -f -" "check -f -" "build --diff" fn; do
	# shellcheck disable=SC2086
	"$wingen" $cmd <bad.yaml >out 2>err
	grep -qE '^<stdin>:2:1: error: ' err out \
		|| no "$cmd: stdin is not named <stdin>: $(cat err out | head -3)"
	grep -qE '(^|[^a-z])-:[0-9]' err out && no "$cmd: stdin named '-': $(cat err)"
done
# and in build --diff's headers (a Pod gets pinned to Linux: a change)
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: nginx}]\n' >pod.yaml
"$wingen" build --diff <pod.yaml >out 2>err
grep -q '^+++ b/<stdin> (Pod/p)' out || no "build --diff: $(grep '^+++' out)"

# 2. Piped input that is not read: a warning naming -f -.
unread='^<stdin>: warning: holds input that is not read: .*add -f - to read stdin too$'
for cmd in "build -f in.yaml" "check -f in.yaml" "fmt -f in.yaml" \
	"init -f nodes.json" "build prof/profile.yaml"; do
	# (wingen looks at what waits in the pipe: give cat the time to write)
	# shellcheck disable=SC2086
	cat in.yaml | { sleep 1; "$wingen" $cmd; } >out 2>err
	grep -q "$unread" err out || no "$cmd with a pipe not read: no warning: $(cat err)"
	# shellcheck disable=SC2086
	"$wingen" $cmd <in.yaml >out 2>err
	grep -q "$unread" err out || no "$cmd with a file on stdin not read: no warning"
	# Nothing to say about /dev/null, an empty pipe or a consumed file.
	# shellcheck disable=SC2086
	"$wingen" $cmd </dev/null >out 2>err
	grep -q '<stdin>' err out && no "$cmd </dev/null: $(cat err)"
	# shellcheck disable=SC2086
	: | "$wingen" $cmd >out 2>err
	grep -q '<stdin>' err out && no "$cmd with an empty pipe: $(cat err)"
	# shellcheck disable=SC2086
	(cat >/dev/null; "$wingen" $cmd) <in.yaml >out 2>err
	grep -q '<stdin>' err out && no "$cmd with stdin at its end: $(cat err)"
done
# -f - reads it: no warning, and the objects are there.
cat in.yaml | "$wingen" build prof/profile.yaml -f - >out 2>err || true
grep -q '<stdin>: warning' err && no "build -f - warned about stdin it reads"
# --strict makes it an error (a gate that would otherwise pass on a mistake).
cat in.yaml | { sleep 1; "$wingen" check -f in.yaml --strict; } >out 2>err
[ $? = 1 ] || no "check --strict passed with stdin not read"

# 3. A terminal on stdin: a note before wingen waits, none when it reads files.
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP part 3: no python3 for the pseudo-terminal"
else
	onpty="python3 $root/tests/tools/onpty.py"
	note='^wingen: waiting for manifests on stdin (a terminal): paste them and end with Ctrl-D, or give -f PATH'
	for cmd in build "build -f -" check fmt init; do
		# shellcheck disable=SC2086
		$onpty "$wingen" $cmd <in.yaml >shown 2>&1
		grep -q "$note" shown || no "$cmd on a terminal: no note: $(head -3 shown)"
	done
	$onpty "$wingen" fn </dev/null >shown 2>&1
	grep -q '^wingen: waiting for a ResourceList on stdin (a terminal)' shown \
		|| no "fn on a terminal: no note: $(head -3 shown)"
	for cmd in "build -f in.yaml" "fmt -f in.yaml" "build prof/profile.yaml"; do
		# shellcheck disable=SC2086
		$onpty "$wingen" $cmd </dev/null >shown 2>&1
		grep -q 'waiting for' shown && no "$cmd on a terminal that is not read: a note"
		grep -q 'kind: ConfigMap' shown || no "$cmd on a terminal: no output: $(head -3 shown)"
	done
fi

[ "$fail" = 0 ] && echo "stdin: all checks pass"
exit $fail
