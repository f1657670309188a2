#!/usr/bin/env bash
# migrate --in-place over a folder of many files: every file's temporary is
# written before any is renamed (all or nothing), so thousands stand at
# once.  5,000 Deployments, a file each (more than the 4,096 temporaries
# the first registry held): every file is edited, no temporary is left,
# and a second run changes nothing.  A failed run (one file that cannot be
# edited) leaves all 5,000 untouched and no temporary behind.
#   migrate_many.sh WINGEN YAMLCMP CORPUS_DIR
set -u
wingen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=5000

bad() {
	echo "FAIL $*"
	fail=1
}

mkdir "$tmp/m"
awk -v n=$n -v dir="$tmp/m" 'BEGIN {
	for (i = 0; i < n; i++) {
		f = sprintf("%s/d%05d.yaml", dir, i)
		printf "# app %d\napiVersion: apps/v1\nkind: Deployment\n", i > f
		printf "metadata:\n  name: app-%d\nspec:\n  template:\n", i > f
		printf "    spec:\n      containers:\n      - name: c\n", i > f
		printf "        image: nginx\n" > f
		close(f)
	}
}'
cp -r "$tmp/m" "$tmp/orig"

"$wingen" migrate "$tmp/m" --in-place >"$tmp/out" 2>"$tmp/err" \
	|| bad "migrate of $n files failed: $(head -c 400 "$tmp/err")"
changed=$(grep -l 'kubernetes.io/os: linux' "$tmp"/m/d*.yaml | wc -l)
[ "$changed" -eq $n ] || bad "$changed of $n files pinned to Linux"
grep -q '^# app 17$' "$tmp/m/d00017.yaml" || bad "a comment was lost"
left=$(find "$tmp/m" -name '.*wingen-*' | wc -l)
[ "$left" -eq 0 ] || bad "$left temporary files left"
[ "$(find "$tmp/m" -type f | wc -l)" -eq $n ] || bad "files added or lost"
[ $fail -eq 0 ] && echo "ok $n files migrated in place"

cp -r "$tmp/m" "$tmp/once"
"$wingen" migrate "$tmp/m" --in-place >/dev/null 2>"$tmp/err" \
	|| bad "second run failed: $(head -c 400 "$tmp/err")"
diff -r "$tmp/once" "$tmp/m" >/dev/null || bad "second run changed files"
[ $fail -eq 0 ] && echo "ok second run changes nothing"

# all or nothing: the last file is a Windows workload (a Windows base
# image) whose nodeSelector says Linux, an error, so no file changes
rm -rf "$tmp/m"
cp -r "$tmp/orig" "$tmp/m"
cat >"$tmp/m/d04999.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-4999
spec:
  template:
    spec:
      containers:
      - name: c
        image: mcr.microsoft.com/windows/servercore:ltsc2022
      nodeSelector:
        kubernetes.io/os: linux
EOF
cp "$tmp/m/d04999.yaml" "$tmp/last"
if "$wingen" migrate "$tmp/m" --in-place >/dev/null 2>"$tmp/err"; then
	bad "a run with a conflict succeeded"
fi
cp "$tmp/last" "$tmp/orig/d04999.yaml"
diff -r "$tmp/orig" "$tmp/m" >/dev/null || bad "a failed run changed files"
left=$(find "$tmp/m" -name '.*wingen-*' | wc -l)
[ "$left" -eq 0 ] || bad "$left temporary files left by a failed run"
[ $fail -eq 0 ] && echo "ok a failed run changes none of the $n files"
exit $fail
