#!/usr/bin/env bash
# Memory bounded by the limits, RSS measured (SECURITY.md "Limits"):
#   - a 100 MiB scalar (scalar-bytes 16M, doc-bytes 64M): refused before
#     libyaml reads it, with about the input's own pages (a 1 GiB one took
#     3.1 GB; a 100 MiB one 238 MB);
#   - a 70 MiB document after a small one: the error at the big one's
#     "---", the small one read;
#   - a 40 MiB scalar, within doc-bytes: refused by scalar-bytes within
#     a small multiple of the input;
#   - a 10 MB document of 5,000,000 one-letter items: refused at
#     doc-nodes (4,000,000), where a 30 MB one held 775 MB and a 60 MB one
#     1.4 GB; with doc-nodes=1M, within a quarter of that.
#   memory_limits.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
suite_scratch || exit 1
unset WINGEN_PROFILE WINGEN_LOG WINGEN_LIMITS

# AddressSanitizer's shadow and quarantine take memory of their own: a
# sanitized build gets four times the room
scale=1
readelf -d "$wingen" 2>/dev/null | grep -q 'libasan' && scale=4

# run CASE MAX_KIB EXPECT FILE: fmt -f FILE exits 1 with EXPECT on
# stderr, within MAX_KIB of RSS (GNU time's maximum resident set)
run() {
	local case=$1 max=$(($2 * scale)) expect=$3 file=$4 rc kb
	/usr/bin/time -f '%M' -o rss timeout 120 "$wingen" fmt -f "$file" >out 2>err
	rc=$?
	kb=$(tail -1 rss)
	echo "$case: exit $rc, RSS ${kb} KiB (at most $max)"
	[ $rc -eq 1 ] || no "$case: exit $rc, not 1"
	[ -s out ] && no "$case: something on stdout"
	grep -Eq "$expect" err || { no "$case: not '$expect'"; head -3 err; }
	[ "${kb:-99999999}" -le "$max" ] || no "$case: RSS ${kb} KiB over ${max} KiB"
}

python3 - <<'P'
with open('scalar100.yaml', 'w') as f:
    f.write('a: ' + 'x' * (100 << 20) + '\n')
with open('scalar40.yaml', 'w') as f:
    f.write('a: ' + 'x' * (40 << 20) + '\n')
with open('items5m.yaml', 'w') as f:
    f.write('a: [' + 'a,' * 5000000 + 'a]\n')
with open('second.yaml', 'w') as f:
    f.write('small: 1\n---\nbig: "' + 'y' * (70 << 20) + '"\n')
P

run "a 100 MiB scalar" 163840 \
	"scalar100.yaml:1:1: error: document is larger than the size limit" scalar100.yaml
run "a 70 MiB document after a small one" 122880 \
	"second.yaml:2:1: error: document is larger than the size limit" second.yaml
run "a 40 MiB scalar" 204800 \
	"scalar40.yaml:1:4: error: scalar is larger than the size limit" scalar40.yaml
run "5,000,000 one-letter items" 409600 \
	"items5m.yaml:[0-9]+:[0-9]+: error: document has more than 4000000 nodes \(WINGEN_LIMITS doc-nodes\)" items5m.yaml
WINGEN_LIMITS=doc-nodes=1M run "5,000,000 items, doc-nodes=1M" 131072 \
	"document has more than 1048576 nodes" items5m.yaml

[ $fail -eq 0 ] && echo "memory_limits: all passed"
exit $fail
