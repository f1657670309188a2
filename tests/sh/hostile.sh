#!/usr/bin/env bash
# Hostile input: every limit of SECURITY.md is a clear error with a
# position (file:line:col), never a crash, a hang or partial output; the
# documented ways to raise a limit work.  Each run gets 30 s (timeout).
#   hostile.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
unset WINGEN_LIMITS

# expect_error NAME PATTERN ARGS...: exit 1, nothing on stdout, and stderr
# matches PATTERN (an extended regex).
expect_error() {
	local name=$1 pat=$2 rc
	shift 2
	timeout 30 "$wingen" "$@" >out 2>err
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s out ] && grep -Eq -- "$pat" err; then
		echo "ok $name"
	else
		echo "FAIL $name: exit $rc, stdout $(wc -c <out) bytes, stderr:"
		head -c 600 err; echo; fail=1
	fi
}

# expect_ok NAME ARGS...: exit 0 within the time limit.
expect_ok() {
	local name=$1 rc
	shift
	timeout 30 "$wingen" "$@" >out 2>err
	rc=$?
	if [ $rc -eq 0 ]; then echo "ok $name"
	else echo "FAIL $name: exit $rc"; head -c 600 err; echo; fail=1; fi
}

# nest N OPEN MID CLOSE
nest() { awk -v n="$1" -v o="$2" -v m="$3" -v c="$4" 'BEGIN {
	for (i = 0; i < n; i++) printf "%s", o; printf "%s", m
	for (i = 0; i < n; i++) printf "%s", c; print "" }'; }
nest 10000 "[" "x" "]" >seq.yaml
nest 10000 "{a: " "x" "}" >map.yaml
awk 'BEGIN { for (i = 0; i < 10000; i++) { for (j = 0; j < i; j++) printf " "
	print "k:" } }' >block.yaml
cp seq.yaml seq.json

# --- nesting depth ---------------------------------------------------------------
pos='^[^:]+:[0-9]+:[0-9]+: error: '
expect_error "10,000 [" "seq.yaml:1:513: error: nesting deeper than 512 levels" fmt -f seq.yaml
expect_error "10,000 {" "${pos}nesting deeper than 512 levels" fmt -f map.yaml
expect_error "10,000 block mappings" "block.yaml:513:513: error: nesting deeper than 512 levels" fmt -f block.yaml
expect_error "10,000 [ in JSON" "${pos}nesting deeper" fmt -f seq.json
expect_error "10,000 [ through build" "${pos}nesting deeper" build -f seq.yaml
expect_error "10,000 { on stdin" "^<stdin>:1:[0-9]+: error: nesting deeper" build -f - <map.yaml
nest 200 "[" "x" "]" >d200.yaml
WINGEN_LIMITS=depth=100 expect_error "depth lowered to 100" "${pos}nesting deeper than 100 levels" fmt -f d200.yaml
# Raised to the cap, 9,999 levels go through every writer (the stack holds).
nest 9999 "[" "x" "]" >deep.yaml
export WINGEN_LIMITS=depth=10000
expect_ok "9,999 levels, fmt" fmt -f deep.yaml
expect_ok "9,999 levels, JSON" fmt -f deep.yaml -o json
expect_ok "9,999 levels, build --explain" build -f deep.yaml --explain
unset WINGEN_LIMITS
WINGEN_LIMITS=depth=10001 expect_error "depth above the cap" "WINGEN_LIMITS: 'depth' needs a number from 1 to 10000" fmt -f deep.yaml

# --- aliases ---------------------------------------------------------------------
cat >laughs.yaml <<'Y'
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
Y
expect_error "billion laughs" "laughs.yaml:6:[0-9]+: error: alias '\*e' expands the document past 100000 nodes" fmt -f laughs.yaml
expect_error "billion laughs through build" "${pos}alias '\*.' expands" build -f laughs.yaml
WINGEN_LIMITS=alias-nodes=5 expect_error "alias budget lowered" "${pos}alias '\*a' expands the document past 5 nodes" fmt -f laughs.yaml
{ printf 'a: &a '; nest 300 "[" "x" "]"; printf 'b: '; nest 300 "[" "*a" "]"; } >aliasdeep.yaml
expect_error "alias copy deeper than the limit" "aliasdeep.yaml:2:[0-9]+: error: alias '\*a' nests deeper than 512 levels" fmt -f aliasdeep.yaml
printf 'a: &a [*a]\n' >recursive.yaml
expect_error "recursive alias" "${pos}alias '\*a' refers to a node that contains it" fmt -f recursive.yaml
awk 'BEGIN { printf "a:\n  <<: {"; for (i = 0; i < 100000; i++) printf "%sk%d: %d", i ? ", " : "", i, i; print "}" }' >merge.yaml
expect_ok "merge of 100,000 keys in time" fmt -f merge.yaml

# --- sizes and counts ----------------------------------------------------------
head -c $((17 << 20)) /dev/zero | tr '\0' 'x' | { printf 'a: 1\nb: '; cat; echo; } >bigscalar.yaml
expect_error "17 MiB scalar" "bigscalar.yaml:2:4: error: scalar is larger than the size limit" fmt -f bigscalar.yaml
printf 'a: 1\nb: "%s"\n' "$(head -c 2000 /dev/zero | tr '\0' y)" >scalar2k.yaml
WINGEN_LIMITS=scalar-bytes=1k expect_error "scalar cap lowered" "scalar2k.yaml:2:4: error: scalar is larger" fmt -f scalar2k.yaml
WINGEN_LIMITS=scalar-bytes=2k expect_ok "scalar cap raised" fmt -f scalar2k.yaml
{ echo "a: 1"; echo "---"; for i in $(seq 200); do echo "k$i: value-$i"; done; } >doc.yaml
WINGEN_LIMITS=doc-bytes=1k expect_error "document cap" "doc.yaml:2:1: error: document is larger than the size limit" fmt -f doc.yaml
for i in $(seq 11); do printf -- '---\nn: %d\n' "$i"; done >docs.yaml
WINGEN_LIMITS=documents=10 expect_error "document count" "docs.yaml:21:1: error: more documents than the limit" fmt -f docs.yaml
for i in $(seq 6); do printf -- '---\nn: %d\n' "$i"; done >six.yaml
cp six.yaml six2.yaml
WINGEN_LIMITS=documents=10 expect_error "document count across files" "${pos}more documents than the limit" build -f six.yaml -f six2.yaml
WINGEN_LIMITS=input-bytes=1k expect_error "input size cap" "doc.yaml: error: input is larger than the limit of 1024 bytes" fmt -f doc.yaml
WINGEN_LIMITS=input-bytes=1k expect_error "input size cap on stdin" "^<stdin>: error: input is larger than the limit" fmt <doc.yaml
printf 'a: "x\0y"\n' >nul.yaml
expect_error "NUL byte" "nul.yaml:1:[0-9]+: error: .*(control characters|input must be UTF-8)" fmt -f nul.yaml
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "k%d: %d\n", i, i; print "k7: dup" }' >keys.yaml
expect_error "200,000 keys, one duplicate" "keys.yaml:200001:1: error: duplicate mapping key 'k7'" fmt -f keys.yaml

# --- PCRE2 limits ------------------------------------------------------------------
mkdir prof
cat >prof/profile.yaml <<'Y'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata: {name: catastrophic}
windows:
  builds: [{release: ltsc2022}]
  select:
    - image: '^(a+)+$'
Y
cat >pod.yaml <<Y
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: $(head -c 40 /dev/zero | tr '\0' a)!
Y
expect_error "catastrophic pattern stops at the match limit" \
	"pod.yaml:7:12: error: Pod/p: .*pattern '\^\(a\+\)\+\\$' gave up on 'a+!' \(PCRE2 match or depth limit\)" \
	build prof/profile.yaml -f pod.yaml
WINGEN_LIMITS=regex-match=100 expect_error "match limit lowered" "${pos}.*gave up" build prof/profile.yaml -f pod.yaml

# A profile is read by the same reader first: its limits hold there too.
{ printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\nmetadata: {name: t}\n'
  printf 'windows:\n  builds: [{release: ltsc2022}]\n  select:\n'
  printf '  - kinds: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n'
  prev=a
  for c in b c d e f g h i; do
	printf '  - kinds: &%s [' $c
	for k in 1 2 3 4 5 6 7 8; do printf '*%s,' $prev; done
	printf '*%s]\n' $prev
	prev=$c
  done; } >prof/bomb.yaml
expect_error "billion laughs in a profile" "prof/bomb.yaml:[0-9]+:[0-9]+: error: alias '\*.' expands" build prof/bomb.yaml -f pod.yaml
{ printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\nmetadata: {name: t}\nx: '
  nest 10000 "[" "x" "]"; } >prof/deep.yaml
expect_error "10,000 [ in a profile" "prof/deep.yaml:4:[0-9]+: error: nesting deeper than 512 levels" build prof/deep.yaml -f pod.yaml

# --- folders ---------------------------------------------------------------------
mkdir -p loop/sub
cp pod.yaml loop/sub/pod.yaml
ln -s .. loop/sub/up
expect_error "symbolic link loop" "loop/sub/up(/sub)?: error: symbolic link loop" fmt -f loop
mkdir deep65
( cd deep65 && for i in $(seq 66); do mkdir d && cd d || exit 1; done )
expect_error "folders 66 deep" "error: folders nested more than 64 deep" fmt -f deep65
long=$(head -c 250 /dev/zero | tr '\0' n)
mkdir longpath
( cd longpath && for i in $(seq 17); do mkdir "$long" && cd "$long" || exit 1; done
  printf 'a: 1\n' >x.yaml )
expect_error "path longer than PATH_MAX" "error: path is too long" fmt -f longpath

# --- a ResourceList is one document: the size limit is per item -------------------
{
	echo "apiVersion: config.kubernetes.io/v1"
	echo "kind: ResourceList"
	echo "items:"
	for i in $(seq 20); do
		printf -- '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c%s\n  data:\n    k: "%s"\n' \
			"$i" "$(head -c 400 /dev/zero | tr '\0' x)"
	done
} >rl.yaml
export WINGEN_LIMITS=doc-bytes=4096
timeout 30 "$wingen" fn <rl.yaml >out 2>err
if [ $? -eq 0 ] && [ "$(grep -c 'kind: ConfigMap' out)" -eq 20 ]; then
	echo "ok fn: a ResourceList larger than doc-bytes, items within it"
else echo "FAIL fn: items within doc-bytes refused"; head -c 600 err; echo; fail=1; fi
line=$(($(wc -l <rl.yaml) + 1))
printf -- '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: big\n  data:\n    k: "%s"\n' \
	"$(head -c 5000 /dev/zero | tr '\0' x)" >>rl.yaml
timeout 30 "$wingen" fn <rl.yaml >out 2>err
if [ $? -eq 1 ] && grep -Eq ":$line:3: error: this item is larger than the size limit" err; then
	echo "ok fn: one item over doc-bytes, at its line"
else echo "FAIL fn: an item over doc-bytes"; head -c 600 err; echo; fail=1; fi
unset WINGEN_LIMITS

exit $fail
