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
"$wingen" migrate lx --diff >out 2>err; [ $? = 1 ] || no "Linux-only --diff (pins: exit 1): $(cat err)"
grep -q RuntimeClass out err && no "Linux-only --diff shows a RuntimeClass file: $(grep RuntimeClass out err | head -2)"
"$wingen" migrate lx --in-place >out 2>err || no "Linux-only: $(cat err)"
[ "$(ls lx)" = "$(printf 'a.yaml\nb.yaml')" ] || no "Linux-only: files now $(ls lx | tr '\n' ' ')"
grep -q 'kubernetes.io/os: linux' lx/a.yaml || no "Linux-only: the Pod was not pinned (the test is void)"
"$wingen" migrate lx --in-place --runtimeclass-file lx/rc.yaml >out 2>err
[ -e lx/rc.yaml ] && no "Linux-only: --runtimeclass-file written though nothing uses it"

# A run that generates other RuntimeClasses than the file holds keeps
# the file's (workloads migrated before name them: a Pod whose
# RuntimeClass does not exist is rejected), says so with the names, and
# replaces the ones it generates again; a second run changes nothing.
win19() {	# win19 FILE NAME: a Windows Deployment on ltsc2019 images
	win "$1" "$2"
	sed -i 's/ltsc2022/ltsc2019/' "$1"
}
mkdir mix && win19 mix/old.yaml old
"$wingen" migrate mix/old.yaml --in-place >out 2>err || no "mix, first file: $(cat err)"
grep -q 'name: windows-ltsc2019' mix/00-runtimeclasses.yaml || no "mix: no ltsc2019 RuntimeClass (the test is void)"
win mix/new.yaml new
"$wingen" migrate mix/new.yaml --diff >out 2>err; [ $? = 1 ] || no "mix --diff (a change: exit 1): $(cat err)"
grep -q '^-.*windows-ltsc2019' out && no "mix --diff would drop the ltsc2019 RuntimeClass: $(cat out)"
grep -q 'kept: RuntimeClass/windows-ltsc2019' err || no "mix --diff does not name the kept RuntimeClass: $(cat err)"
"$wingen" migrate mix/new.yaml --in-place >out 2>err || no "mix, second file: $(cat err)"
for b in ltsc2019 ltsc2022; do
	[ "$(grep -c "^  name: windows-$b\$" mix/00-runtimeclasses.yaml)" = 1 ] \
		|| no "mix: windows-$b is not in the file once: $(cat mix/00-runtimeclasses.yaml)"
done
grep -q 'and 1 object it held that this run does not generate, kept: RuntimeClass/windows-ltsc2019' err \
	|| no "mix: the summary does not say what was kept: $(cat err)"
before=$(md5sum <mix/00-runtimeclasses.yaml)
"$wingen" migrate mix/new.yaml --in-place >out 2>err || no "mix, again: $(cat err)"
[ "$(md5sum <mix/00-runtimeclasses.yaml)" = "$before" ] || no "mix: a second run changed the RuntimeClass file"
# one generated again replaces the old one: edit the file's handler
sed -i 's/handler: .*/handler: edited/' mix/00-runtimeclasses.yaml
"$wingen" migrate mix/new.yaml --in-place >out 2>err || no "mix, edited: $(cat err)"
[ "$(grep -c 'handler: edited' mix/00-runtimeclasses.yaml)" = 1 ] \
	|| no "mix: the RuntimeClass generated again was not replaced, or the other not kept: $(cat mix/00-runtimeclasses.yaml)"

# Many kept objects: the summary names three and counts the rest.
for n in a b c d e; do
	printf -- '---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: extra-%s}\nhandler: h\n' $n >>mix/00-runtimeclasses.yaml
done
"$wingen" migrate mix/new.yaml --in-place >out 2>err || no "mix, many kept: $(cat err)"
grep -q 'and 6 objects it held that this run does not generate, kept: RuntimeClass/windows-ltsc2019, RuntimeClass/extra-a, RuntimeClass/extra-b and 3 more)' err \
	|| no "mix, many kept: the summary is not bounded: $(cat err)"
[ "$(grep -c '^kind: RuntimeClass' mix/00-runtimeclasses.yaml)" = 7 ] || no "mix, many kept: not all kept"

# A file that does not read as YAML is not overwritten: an error at its
# place, nothing written.
printf 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: [\n' >mix/00-runtimeclasses.yaml
before=$(cat mix/*.yaml | md5sum)
"$wingen" migrate mix/new.yaml --in-place >out 2>err && no "mix, broken file: exit 0"
grep -q '^mix/00-runtimeclasses.yaml:[0-9]*:[0-9]*: error: .*keeps what it holds' err \
	|| no "mix, broken file: no error at its place: $(cat err)"
[ "$(cat mix/*.yaml | md5sum)" = "$before" ] || no "mix, broken file: files changed"
[ -s out ] && no "mix, broken file: stdout not empty"

[ "$fail" = 0 ] && echo "migrate_rcfile: all checks pass"
exit $fail
