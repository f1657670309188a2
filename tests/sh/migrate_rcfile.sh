#!/usr/bin/env bash
# Where migrate puts the RuntimeClasses it generates: a file whose name
# sorts before the manifests (kubectl apply -f DIR applies files in name
# order, and a Pod naming a RuntimeClass that does not exist yet is
# rejected), --runtimeclass-file still choosing, and no file at all when
# no workload of the run uses one.
#   migrate_rcfile.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }

win() {	# win FILE NAME: a Windows Deployment
	cat >"$1" <<Y
apiVersion: apps/v1
kind: Deployment
metadata: {name: $2}
spec:
  selector: {matchLabels: {app: $2}}
  template:
    metadata: {labels: {app: $2}}
    spec:
      containers:
      - {name: c, image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022}
Y
}
lin() {	# lin FILE NAME: a Linux Pod
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers: [{name: c, image: nginx}]\n' "$2" >"$1"
}

# Names that sort early among manifests: digits, capitals, "_" (a name
# before "00-r" in byte order, "0-x" or "000", would still come first).
mkdir app
win app/01-web.yaml web; lin app/01-db.yaml db; lin app/Api.yaml api; lin app/_x.yaml x
"$wingen" migrate app --in-place >out 2>err || no "migrate: $(cat err)"
rcf=$(grep -l '^kind: RuntimeClass' app/*.yaml)
[ -n "$rcf" ] || no "no RuntimeClass file written"
first=$(cd app && find . -name '*.yaml' | sed 's#^\./##' | LC_ALL=C sort | head -1)
[ "app/$first" = "$rcf" ] || no "the RuntimeClass file $rcf is not the first in name order (that is $first)"
# kubectl's order (Go's filepath.Walk: lexical by bytes) is C sort order;
# and a second run changes nothing.
before=$(cat app/*.yaml | md5sum)
"$wingen" migrate app --in-place >out 2>err || no "second migrate: $(cat err)"
[ "$(cat app/*.yaml | md5sum)" = "$before" ] || no "a second migrate changed the files"

# --runtimeclass-file still chooses.
mkdir -p app2/cluster && win app2/web.yaml web
"$wingen" migrate app2 --in-place --runtimeclass-file app2/cluster/rc.yaml >out 2>err \
	|| no "--runtimeclass-file: $(cat err)"
grep -q '^kind: RuntimeClass' app2/cluster/rc.yaml 2>/dev/null || no "--runtimeclass-file not written"
ls app2 | grep -q runtimeclasses && no "--runtimeclass-file given, yet a default file was written"

# No workload uses a RuntimeClass: no file, in --diff or --in-place.
mkdir lx && lin lx/a.yaml a && lin lx/b.yaml b
"$wingen" migrate lx --diff >out 2>err || no "Linux-only --diff: $(cat err)"
grep -q RuntimeClass out err && no "Linux-only --diff shows a RuntimeClass file: $(grep RuntimeClass out err | head -2)"
"$wingen" migrate lx --in-place >out 2>err || no "Linux-only: $(cat err)"
[ "$(ls lx)" = "$(printf 'a.yaml\nb.yaml')" ] || no "Linux-only: files now $(ls lx | tr '\n' ' ')"
grep -q 'kubernetes.io/os: linux' lx/a.yaml || no "Linux-only: the Pod was not pinned (the test is void)"
"$wingen" migrate lx --in-place --runtimeclass-file lx/rc.yaml >out 2>err
[ -e lx/rc.yaml ] && no "Linux-only: --runtimeclass-file written though nothing uses it"

[ "$fail" = 0 ] && echo "migrate_rcfile: all checks pass"
exit $fail
