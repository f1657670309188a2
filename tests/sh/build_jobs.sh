#!/usr/bin/env bash
# build --jobs: a large input is read and the output written on several
# threads, with the same bytes and messages for every thread count
# (corpus, a large stream, a broken one, -o), and a bad count is a usage
# error.  fmt --jobs: the parser on a thread of its own, the same again.
#   build_jobs.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1 corpus=${3:-}
. "$(dirname "$0")/lib/suite.sh"
suite_scratch || exit 1

# A stream large enough to be read in pieces (over 2 MB) and written in
# many batches: Windows and Linux workloads, ConfigMaps with blocks kept
# open ("|+").
awk 'BEGIN {
	for (i = 1; i <= 8000; i++) {
		image = i % 3 ? "nginx:1.27" \
			: "mcr.microsoft.com/windows/servercore:ltsc2022"
		printf "---\napiVersion: apps/v1\nkind: Deployment\n"
		printf "metadata: {name: web-%d, namespace: ns-%d}\n", i, i % 7
		printf "spec:\n  selector: {matchLabels: {app: web-%d}}\n", i
		printf "  template:\n    metadata: {labels: {app: web-%d}}\n", i
		printf "    spec:\n      containers:\n      - name: c\n"
		printf "        image: %s\n", image
		printf "---\napiVersion: v1\nkind: ConfigMap\n"
		printf "metadata: {name: cm-%d}\ndata:\n  conf: |+\n", i
		printf "    line %d\n\n", i
	}
}' >big.yaml

"$wingen" build -f big.yaml -j1 >one.yaml 2>err || no "-j1: exit $?: $(cat err)"
[ "$(wc -c <big.yaml)" -gt 2200000 ] || no "big.yaml is too small to be cut"
grep -c '^kind: Deployment$' one.yaml | grep -qx 8000 || no "-j1: Deployments lost"
for j in 2 3 4 16; do
	"$wingen" build -f big.yaml --jobs "$j" >out.yaml 2>err \
		|| no "-j$j: exit $?: $(cat err)"
	cmp -s one.yaml out.yaml || no "-j$j: output differs from -j1"
done
# Messages with positions from late in the stream: the same.
"$wingen" build -f big.yaml --strict -j1 >/dev/null 2>err1; r1=$?
"$wingen" build -f big.yaml --strict -j4 >out 2>err4; r4=$?
[ $r1 = $r4 ] || no "--strict: exit $r1 with -j1, $r4 with -j4"
cmp -s err1 err4 || no "--strict: messages differ with -j4"
# Broken YAML near the end: one error, the one -j1 gives, nothing written.
{ cat big.yaml; printf -- '---\nbroken: [a,\n---\nlast: 1\n'; } >broken.yaml
"$wingen" build -f broken.yaml -j1 >out 2>err1; r1=$?
"$wingen" build -f broken.yaml -j4 >out 2>err4; r4=$?
[ $r1 = 1 ] && [ $r4 = 1 ] || no "broken: exit $r1 with -j1, $r4 with -j4"
[ -s out ] && no "broken: wrote to stdout"
cmp -s err1 err4 || no "broken: messages differ: $(cat err1) / $(cat err4)"
n=$(wc -l <big.yaml)
grep -Eq "^broken.yaml:($((n + 2))|$((n + 3))):" err4 \
	|| no "broken: not at its line: $(cat err4)"
"$wingen" build -f big.yaml >out.yaml 2>err || no "default jobs: exit $?"
cmp -s one.yaml out.yaml || no "default jobs: output differs from -j1"
"$wingen" build -f big.yaml -j 3 --output-file file.yaml 2>err || no "--output-file: exit $?"
cmp -s one.yaml file.yaml || no "-j3 -o: file differs from -j1"
# A closed pipe ends the run quietly, threads and all.
"$wingen" build -f big.yaml -j4 2>err | head -c 100 >/dev/null
[ -s err ] && no "closed pipe: stderr: $(cat err)"

# fmt: the parser on its own thread gives the same bytes and messages.
"$wingen" fmt -f big.yaml -j1 >fone.yaml 2>err || no "fmt -j1: exit $?"
for j in 2 4; do
	"$wingen" fmt -f big.yaml -j "$j" >out.yaml 2>err || no "fmt -j$j: exit $?"
	cmp -s fone.yaml out.yaml || no "fmt -j$j: output differs from -j1"
done
"$wingen" fmt -f broken.yaml -j1 >out 2>err1; r1=$?
"$wingen" fmt -f broken.yaml -j2 >out 2>err2; r2=$?
[ $r1 = 1 ] && [ $r2 = 1 ] || no "fmt broken: exit $r1 with -j1, $r2 with -j2"
[ -s out ] && no "fmt broken: wrote to stdout"
cmp -s err1 err2 || no "fmt broken: messages differ: $(cat err1) / $(cat err2)"
"$wingen" fmt -f big.yaml -j2 2>err | head -c 100 >/dev/null
[ -s err ] && no "fmt closed pipe: stderr: $(cat err)"

# Values larger than a block's text buffer (64 KB), among small ones.
awk 'BEGIN {
	for (d = 0; d < 3; d++) {
		printf "---\nkind: ConfigMap\nmetadata: {name: big-%d}\ndata:\n", d
		printf "  small: x\n  block: |\n"
		for (i = 0; i < 4000; i++)
			printf "    line %d of a large literal block\n", i
		printf "  plain: "
		for (i = 0; i < 9000; i++)
			printf "word%d ", i
		printf "end\n  after: y\n"
	}
}' >large-values.yaml
"$wingen" fmt -f large-values.yaml -j1 >a 2>err || no "large values -j1: $(cat err)"
"$wingen" fmt -f large-values.yaml -j2 >b 2>err || no "large values -j2: $(cat err)"
cmp -s a b || no "large values: fmt -j1 and -j2 differ"
[ "$(wc -c <a)" -gt 300000 ] || no "large values: output too small"

# Every real manifest: -j1 and -j4 agree byte for byte.
if [ -d "$corpus" ]; then
	n=0
	for f in "$corpus"/*.yaml "$corpus"/*.yml; do
		[ -f "$f" ] || continue
		"$wingen" build -f "$f" -j1 >a 2>/dev/null; ra=$?
		"$wingen" build -f "$f" -j4 >b 2>/dev/null; rb=$?
		[ $ra = $rb ] || no "$f: exit $ra with -j1, $rb with -j4"
		cmp -s a b || no "$f: -j1 and -j4 differ"
		"$wingen" fmt -f "$f" -j1 >a 2>/dev/null; ra=$?
		"$wingen" fmt -f "$f" -j2 >b 2>/dev/null; rb=$?
		[ $ra = $rb ] || no "$f: fmt exit $ra with -j1, $rb with -j2"
		cmp -s a b || no "$f: fmt -j1 and -j2 differ"
		n=$((n + 1))
	done
	[ $n -gt 100 ] || no "corpus: only $n files"
fi

# Bad counts: usage error (exit 2), nothing on stdout.
for bad in 0 17 x 2x -1 ""; do
	"$wingen" build -f big.yaml --jobs "$bad" >out 2>err; rc=$?
	[ $rc = 2 ] || no "--jobs '$bad': exit $rc, not 2"
	[ -s out ] && no "--jobs '$bad': wrote to stdout"
	grep -q -- "--jobs takes a number from 1 to 16" err \
		|| no "--jobs '$bad': message: $(cat err)"
done
"$wingen" fmt -f big.yaml -j 0 >out 2>err; rc=$?
[ $rc = 2 ] && [ ! -s out ] || no "fmt -j 0: exit $rc"
grep -q "^wingen fmt: --jobs takes a number" err || no "fmt -j 0: $(cat err)"
exit $fail
