#!/usr/bin/env bash
# The profile on the command line: the embedded default, --print-profile,
# "build -", usage errors, and "wingen builds".
#   profile_cli.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 yamlcmp=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL $*"; fail=1; }

# The default profile prints, and what it prints loads back to the same.
"$wingen" build --print-profile >default.yaml 2>err || no "print-profile: exit $?"
[ -s err ] && no "print-profile wrote to stderr: $(cat err)"
grep -q "^kind: Profile$" default.yaml || no "print-profile: not a profile"
grep -q "runtimeClass: windows-ltsc2022" default.yaml || no "print-profile: no ltsc2022"
"$wingen" build default.yaml --print-profile >again.yaml 2>err || no "reload: $(cat err)"
sed 's/^  name: default$/  name: X/' default.yaml >a
sed 's/^  name: default$/  name: X/' again.yaml >b
cmp -s a b || no "printed default profile does not load back the same"
# --print-profile never reads manifests (stdin stays untouched).
echo "not: [yaml" | "$wingen" build --print-profile >/dev/null 2>err \
	|| no "print-profile read stdin: $(cat err)"

# "build -": the profile from stdin, as kubectl reads "-" (it was the
# embedded default, silently, and a Windows Deployment of a profile's
# select went to Linux); the manifests then come from -f.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: "mcr.microsoft.com/windows/nanoserver:ltsc2022"}]\n' >cm.yaml
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: shop}\nspec:\n  selector: {matchLabels: {app: shop}}\n  template:\n    metadata: {labels: {app: shop, os: windows}}\n    spec:\n      containers: [{name: c, image: example.com/shop:1}]\n' >shop.yaml
cat >byl.yaml <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: p}
windows:
  builds: [{release: ltsc2022}]
  select: [{name: '^shop$'}]
EOF
"$wingen" build - -f shop.yaml <byl.yaml >out 2>err || no "build - -f: exit $?: $(cat err)"
grep -q "kubernetes.io/os: windows" out || no "build - -f: the profile on stdin was not used: $(cat out)"
grep -q "kubernetes.io/os: linux" out && no "build - -f: pinned to Linux (the default profile)"
"$wingen" build byl.yaml -f shop.yaml >out2 2>/dev/null
cmp -s out out2 || no "build - <P and build P differ"
"$wingen" check - -f shop.yaml <byl.yaml >out 2>err || no "check - -f: exit $?: $(cat out err)"
"$wingen" runtimeclasses - <byl.yaml >out 2>err && grep -q "name: windows-ltsc2022" out \
	|| no "runtimeclasses -: $(cat out err)"
# a bad profile on stdin is an error at <stdin>, never the default
printf 'kind: profile\n' | "$wingen" build - -f shop.yaml >out 2>err
[ $? = 1 ] && [ ! -s out ] && grep -q "^<stdin>:" err || no "bad profile on stdin: $(cat out err)"
# stdin holds one thing: no -f, -f - and --nodes - are usage errors
for args in "" "-f -" "-f shop.yaml --nodes -"; do
	# shellcheck disable=SC2086
	"$wingen" build - $args <byl.yaml >out 2>err
	rc=$?
	[ $rc = 2 ] && [ ! -s out ] || no "build - $args: exit $rc (want 2): $(cat out err)"
done
grep -q "cannot hold the nodes" err || no "build - --nodes -: $(cat err)"
"$wingen" build - <byl.yaml 2>&1 | grep -q "give the manifests with -f PATH" \
	|| no "build - alone does not say to give -f"
# with no PROFILE the embedded default, manifests on stdin
"$wingen" build <cm.yaml >out 2>err || no "build: exit $?: $(cat err)"
head -2 out | grep -q "kind: RuntimeClass" || no "build: RuntimeClass not first"
grep -q "name: c}" out || no "build: input lost"
# The printed profile is a profile of the user's: it means every build it
# lists (all three RuntimeClasses), where the embedded one generates those
# the stream uses; the bootstrap (no stream) is the same.
"$wingen" build default.yaml <cm.yaml >out3 2>/dev/null
[ "$(grep -c '^kind: RuntimeClass' out)" = 1 ] \
	|| no "build: not only the RuntimeClass of the build used"
[ "$(grep -c '^kind: RuntimeClass' out3)" = 3 ] \
	|| no "build with the printed default profile: not every build"
"$wingen" runtimeclasses >rc1 2>/dev/null
"$wingen" runtimeclasses default.yaml >rc2 2>/dev/null
cmp -s rc1 rc2 || no "runtimeclasses with the printed default profile differs"

# A bad profile: exit 1, nothing on stdout, also with --print-profile.
printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\nwindows: {builds: [{release: x}]}\n' >bad.yaml
"$wingen" build bad.yaml --print-profile <cm.yaml >out 2>err
[ $? = 1 ] || no "bad profile: exit status"
[ -s out ] && no "bad profile: wrote to stdout"
grep -q "^bad.yaml:3:30: error: windows.builds\[0\].release: unknown release 'x'" err \
	|| no "bad profile: message: $(cat err)"

# Usage errors exit 2.
"$wingen" build --load-restrictor sometimes </dev/null >/dev/null 2>err
[ $? = 2 ] && grep -q "must be 'rootonly' or 'none'" err || no "--load-restrictor usage"
"$wingen" build --templates </dev/null >/dev/null 2>&1
[ $? = 2 ] || no "--templates without a value"
"$wingen" build a.yaml b.yaml </dev/null >/dev/null 2>&1
[ $? = 2 ] || no "two profiles"
"$wingen" build --templates /nonexistent </dev/null >/dev/null 2>err
[ $? = 1 ] && grep -q "not a folder" err || no "--templates missing folder"
"$wingen" build --load-restrictor LoadRestrictionsNone --print-profile >/dev/null \
	|| no "kustomize spelling of --load-restrictor"

# wingen builds: a table and JSON with one entry per release.
"$wingen" builds >table || no "builds: exit $?"
[ "$(wc -l <table)" = 12 ] || no "builds: $(wc -l <table) lines"
grep -Eq "^ltsc2022 +10\.0\.20348 +2022,21H2 +ltsc2022 +ltsc2022 +ltsc2022 +ltsc2022 +supported$" table \
	|| no "builds: ltsc2022 row: $(grep ^ltsc2022 table)"
grep -Eq "^ltsc2025 .* ltsc2022,ltsc2025 +supported$" table || no "builds: ltsc2025 runs ltsc2022 images"
"$wingen" builds -o json >json || no "builds -o json: exit $?"
[ "$(grep -c '"name":' json)" = 11 ] || no "builds -o json: entries"
# JSON is YAML: it parses, and the table's facts are in it.
"$yamlcmp" json json >/dev/null 2>&1 || no "builds -o json does not parse"
grep -q '"name": "23H2", "aliases": \[\], "build": "10.0.25398", "number": 25398, "ltsc": false, "supported": false, "endOfLife": true' json \
	|| no "builds -o json: 23H2: $(grep 23H2 json)"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; d=json.load(open("json")); assert len(d)==11 and d[8]["name"]=="ltsc2022" and d[8]["runs"]==["ltsc2022"]' \
		|| no "builds -o json is not the JSON expected"
fi
"$wingen" builds -o yaml >/dev/null 2>&1
[ $? = 2 ] || no "builds -o yaml: usage error expected"
"$wingen" help | grep -q "^  builds " || no "help lists builds"
# help plugins: the registry, retarget first (it rewrites what the rest
# select by), then the runtime-class generator; every name it lists is a
# name a profile's transforms: accepts.
"$wingen" help plugins >plugins || no "help plugins: exit $?"
sed -n 2p plugins | grep -q "^  retarget  " || no "help plugins: $(head -3 plugins)"
sed -n 3p plugins | grep -q "^  runtime-class  *(generator) " || no "help plugins: $(head -3 plugins)"
names=$(sed -n 's/^  \([a-z-]*\) .*/\1/p' plugins | paste -sd, -)
printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\ntransforms: [%s]\n' "$names" >chain.yaml
"$wingen" build chain.yaml --print-profile >/dev/null 2>err || no "help plugins names: $(cat err)"

exit $fail
