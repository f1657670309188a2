#!/usr/bin/env bash
# wingen as a KRM exec function under the real kpt, on examples/kpt:
#   kpt fn eval --exec (with --fn-config, with -- key=value and
#   --match-kind, the error path, -o stdout, the source|eval|sink pipe)
#   and kpt fn render --allow-exec with the Kptfile's pipeline.
# After each run the package is compared file by file with
# tests/data/kpt/<case>/: names, comments and layout must be exactly so.
# WINGEN_UPDATE=1 rewrites those folders from what happens now.
#   kpt.sh WINGEN YAMLCMP CORPUS
set -u
if ! command -v kpt >/dev/null 2>&1; then
	echo "SKIP: kpt is not installed (Debian package google-cloud-cli-kpt)"
	exit 77
fi
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
example=$root/examples/kpt
expected=$root/tests/data/kpt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# kpt runs "wingen" from PATH, as the example's Kptfile says.
mkdir "$tmp/bin"
ln -s "$wingen" "$tmp/bin/wingen"
export PATH="$tmp/bin:$PATH" HOME="$tmp"
fail=0

no() { echo "FAIL: $*"; fail=1; }

fresh() {	# fresh NAME: a copy of the example package
	rm -rf "${tmp:?}/$1"
	cp -r "$example/pkg" "$tmp/$1"
}

# same CASE DIR: DIR is exactly tests/data/kpt/CASE
same() {
	if [ "${WINGEN_UPDATE:-}" = 1 ]; then
		rm -rf "${expected:?}/$1"
		mkdir -p "$expected"
		cp -r "$2" "$expected/$1"
		return
	fi
	if ! diff -r "$expected/$1" "$2" >"$tmp/diff"; then
		no "$1: the package differs from tests/data/kpt/$1:"
		head -40 "$tmp/diff"
	fi
}

# kpt_run WANT_RC ARGS...: runs kpt, output in $tmp/out
kpt_run() {
	local want=$1 rc
	shift
	kpt "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" != "$want" ]; then
		no "kpt $* exited $rc, expected $want:"
		head -30 "$tmp/out"
	fi
}

# 1. --fn-config: a wingen Profile as the functionConfig.
fresh p1
kpt_run 0 fn eval "$tmp/p1" --exec wingen --fn-config "$example/profile.yaml"
same eval-fn-config "$tmp/p1"
grep -q 'created by runtime-class' "$tmp/out" \
	|| no "eval --fn-config: kpt did not print the results"

# 2. -- key=value settings, only the Deployments sent ("wingen fn" this
# time; plain "wingen" above: no command and a ResourceList is fn).
fresh p2
kpt_run 0 fn eval "$tmp/p2" --exec "wingen fn" --match-kind Deployment \
	-- runtimeClass=win2022
same eval-settings-match-kind "$tmp/p2"
grep -q 'on 2 resource(s)' "$tmp/out" \
	|| no "--match-kind Deployment: kpt did not send just the 2 Deployments"
# Filtered again, with the generator left out (the package's RuntimeClass
# is not sent): nothing changes, no second RuntimeClass.
kpt_run 0 fn eval "$tmp/p2" --exec wingen --match-kind Deployment \
	-- runtimeClass=win2022 transforms=fan-out,node-selector,tolerations,runtime-class-name,pod-os,windows-security,linux-pin,services
same eval-settings-match-kind "$tmp/p2"

# 3. An error: exit 1, files untouched, the results kept by kpt.
fresh p3
kpt_run 1 fn eval "$tmp/p3" --exec wingen --results-dir "$tmp/r3" \
	-- release=ltsc2033
diff -r "$example/pkg" "$tmp/p3" >/dev/null \
	|| no "a failed eval changed the package"
grep -q "unknown release 'ltsc2033'" "$tmp/r3/results.yaml" 2>/dev/null \
	&& grep -q 'path: data.release' "$tmp/r3/results.yaml" \
	|| no "the error result is not in --results-dir (data.release)"

# 4. -o stdout: a dry run.
fresh p4
kpt_run 0 fn eval "$tmp/p4" --exec wingen -o stdout
diff -r "$example/pkg" "$tmp/p4" >/dev/null \
	|| no "-o stdout changed the package"
grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/out" \
	|| no "-o stdout did not print the result"

# 5. kpt fn render: the Kptfile's pipeline runs wingen with its configMap.
fresh p5
kpt_run 1 fn render "$tmp/p5"
grep -q 'allow-exec' "$tmp/out" || no "render without --allow-exec ran"
kpt_run 0 fn render "$tmp/p5" --allow-exec
same render "$tmp/p5"
# A second render changes nothing.
kpt_run 0 fn render "$tmp/p5" --allow-exec
same render "$tmp/p5"

# 6. The pipe: source | eval - | sink gives what render gave (the default
# profile is the Kptfile's configMap).
fresh p6
(set -o pipefail
 kpt fn source "$tmp/p6" | kpt fn eval - --exec wingen | kpt fn sink "$tmp/o6"
) >"$tmp/out" 2>&1 || { no "source | eval | sink failed:"; head -20 "$tmp/out"; }
same render "$tmp/o6"

# 7. The cluster's nodes in the package, as local-config Node objects
# (tests/data/kpt-nodes/nodes.yaml): checked against, and kept by kpt as
# they were.
fresh p7
cp "$root/tests/data/kpt-nodes/nodes.yaml" "$tmp/p7/"
kpt_run 0 fn eval "$tmp/p7" --exec wingen -- release=ltsc2022 \
	taint=os=windows:NoSchedule
cmp -s "$root/tests/data/kpt-nodes/nodes.yaml" "$tmp/p7/nodes.yaml" \
	|| no "the local-config nodes were not kept as they were"
grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/p7/iis.yaml" \
	|| no "eval with nodes that fit did not render"
# The same nodes against a build they do not run: exit 1, files kept.
fresh p8
cp "$root/tests/data/kpt-nodes/nodes.yaml" "$tmp/p8/"
kpt_run 1 fn eval "$tmp/p8" --exec wingen --results-dir "$tmp/r8" \
	-- release=ltsc2022 arch=arm64 taint=os=windows:NoSchedule
diff -r "$example/pkg" "$tmp/p8" 2>&1 | grep -v 'Only in.*nodes.yaml' \
	| grep -q . && no "a failed eval with nodes changed the package"
grep -q 'has no node: no node has kubernetes.io/arch=arm64' \
	"$tmp/r8/results.yaml" 2>/dev/null \
	|| no "the nodes error is not in --results-dir"

[ "$fail" = 0 ] && echo "kpt: all cases pass ($(kpt version 2>/dev/null))"
exit $fail
