#!/usr/bin/env bash
# bench/replace, the filesystem's floor for migrate over a folder
# (bench/README.md): it must replace exactly the files it is given, at
# their sizes and modes, leave no temporary, and on a failure replace
# nothing and remove what it made.  WG_BENCH_REPLACE (set by
# tests/CMakeLists.txt) names the program.
set -u
replace=${WG_BENCH_REPLACE:-}
if [ ! -x "$replace" ]; then
	echo "FAIL: WG_BENCH_REPLACE must name bench/replace"
	exit 1
fi
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

d=$tmp/d
mkdir "$d"
printf 'a: 1\n' >"$d/a.yaml"
printf 'bb: 22\nc: 3\n' >"$d/b.yaml"
printf 'kept\n' >"$d/c.yaml"
chmod 600 "$d/b.yaml"
ino_a=$(stat -c %i "$d/a.yaml")
ino_c=$(stat -c %i "$d/c.yaml")
printf 'a.yaml\nb.yaml\n' >"$tmp/list"

"$replace" "$d" "$tmp/list" || bad "replace DIR LIST exited non-zero"
[ "$(stat -c %i "$d/a.yaml")" != "$ino_a" ] || bad "a.yaml was not replaced"
[ "$(stat -c %i "$d/c.yaml")" = "$ino_c" ] || bad "c.yaml, not listed, was replaced"
[ "$(stat -c %s "$d/a.yaml")" = 5 ] || bad "a.yaml's size changed"
[ "$(stat -c %s "$d/b.yaml")" = 12 ] || bad "b.yaml's size changed"
[ "$(stat -c %a "$d/b.yaml")" = 600 ] || bad "b.yaml's mode 600 was not kept"
[ "$(cat "$d/c.yaml")" = kept ] || bad "c.yaml's bytes changed"
left=$(find "$d" -name '.*.replace' | wc -l)
[ "$left" = 0 ] || bad "$left temporaries left"

# Without LIST: every regular file.
ino_c=$(stat -c %i "$d/c.yaml")
"$replace" "$d" || bad "replace DIR exited non-zero"
[ "$(stat -c %i "$d/c.yaml")" != "$ino_c" ] || bad "replace DIR skipped c.yaml"
[ "$(ls -A "$d" | wc -l)" = 3 ] || bad "replace DIR left other files: $(ls -A "$d")"

# A name that is not there: exit 1, nothing replaced, no temporary left.
ino_a=$(stat -c %i "$d/a.yaml")
printf 'a.yaml\nmissing.yaml\n' >"$tmp/list2"
"$replace" "$d" "$tmp/list2" 2>"$tmp/err" && bad "a missing file did not fail"
grep -q 'missing.yaml' "$tmp/err" || bad "the error does not name the file: $(cat "$tmp/err")"
[ "$(stat -c %i "$d/a.yaml")" = "$ino_a" ] || bad "a.yaml was replaced although the run failed"
[ "$(ls -A "$d" | wc -l)" = 3 ] || bad "a failed run left files: $(ls -A "$d")"

"$replace" 2>/dev/null; [ $? = 2 ] || bad "no arguments is not a usage error (2)"
exit $fail
