#!/usr/bin/env bash
# migrate --in-place, on temporary copies:
#  - every golden case tests/golden/migrate-*: --in-place leaves exactly
#    the files its --diff (expected.yaml) describes (checked with git
#    apply), a second run changes nothing and --diff is then empty; a case
#    that fails changes no file at all;
#  - file modes are kept, the RuntimeClass file is written once and left
#    alone when it already holds the same text;
#  - PROFILE is recognised by its kind; stdin and a missing mode are usage
#    errors.
#   migrate.sh WINGEN YAMLCMP CORPUS_DIR
set -u
wingen=$1
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ncases=0

bad() {
	echo "FAIL $*"
	fail=1
}

# A listing of every file under a folder with its content hash and mode.
snapshot() {
	(cd "$1" && find . -type f -print0 | sort -z \
		| xargs -0 -r stat -c '%n %a %i' && find . -type f -print0 \
		| sort -z | xargs -0 -r sha1sum)
}

for dir in "$here"/golden/migrate-*; do
	name=$(basename "$dir")
	[ -f "$dir/cmd" ] || continue
	want_rc=0
	[ -f "$dir/expected.rc" ] && want_rc=$(cat "$dir/expected.rc")
	# usage errors: golden.sh covers them
	grep -q -- --diff "$dir/cmd" || continue
	# --diff exits as kubectl diff (1 a change, 2 no answer); --in-place
	# 0 done, 1 an error
	case $want_rc in 1) want_rc=0 ;; 2) want_rc=1 ;; esac
	rm -rf "$tmp/case" "$tmp/expect"
	cp -r "$dir" "$tmp/case"
	cp -r "$dir" "$tmp/expect"
	rm -f "$tmp"/case/expected.* "$tmp"/expect/expected.*
	cmdline=$(cat "$dir/cmd")
	eval "set -- $cmdline"
	args=()
	for a in "$@"; do
		if [ "$a" = --diff ]; then args+=(--in-place); else args+=("$a"); fi
	done
	ncases=$((ncases + 1))
	before=$(snapshot "$tmp/case")
	(cd "$tmp/case" && "$wingen" "${args[@]}" >"$tmp/out" 2>"$tmp/err")
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		bad "$name: --in-place exited $rc, not $want_rc: $(head -3 "$tmp/err")"
		continue
	fi
	if [ "$rc" != 0 ]; then
		[ "$(snapshot "$tmp/case")" = "$before" ] \
			|| bad "$name: a failed run changed files"
		[ -s "$tmp/out" ] && bad "$name: a failed run printed to stdout"
		continue
	fi
	# The files now are what the golden diff says.
	if [ -s "$dir/expected.yaml" ]; then
		if ! (cd "$tmp/expect" && git apply --unidiff-zero \
			"$dir/expected.yaml" 2>"$tmp/apply"); then
			bad "$name: expected.yaml does not apply: $(cat "$tmp/apply")"
			continue
		fi
	fi
	if ! diff -r "$tmp/expect" "$tmp/case" >"$tmp/d"; then
		bad "$name: --in-place differs from the --diff output:"
		head -20 "$tmp/d"
		continue
	fi
	# Idempotence: nothing to do the second time.
	after=$(snapshot "$tmp/case")
	(cd "$tmp/case" && "$wingen" "${args[@]}" >/dev/null 2>"$tmp/err") \
		|| bad "$name: second run failed: $(head -3 "$tmp/err")"
	[ "$(snapshot "$tmp/case")" = "$after" ] \
		|| bad "$name: a second --in-place run changed files"
	eval "set -- $cmdline"
	(cd "$tmp/case" && "$wingen" "$@" >"$tmp/out" 2>/dev/null)
	[ -s "$tmp/out" ] && bad "$name: --diff after --in-place is not empty"
done

# File modes are kept; the RuntimeClass file goes into the first folder,
# and is left alone (same inode) when a rerun would write the same text.
mkdir -p "$tmp/modes/apps"
cp "$here/golden/migrate-default-chain/manifest.yaml" "$tmp/modes/apps/a.yaml"
chmod 640 "$tmp/modes/apps/a.yaml"
"$wingen" migrate "$tmp/modes" --in-place 2>/dev/null || bad "modes: run failed"
[ "$(stat -c %a "$tmp/modes/apps/a.yaml")" = 640 ] || bad "modes: mode not kept"
# the temporary is made with the file's mode, and chmod'ed where the
# umask would take bits from it (0644 under 077, setgid)
for m in 644 600 2750; do
	d="$tmp/umask$m"
	mkdir -p "$d"
	cp "$here/golden/migrate-default-chain/manifest.yaml" "$d/m.yaml"
	chmod "$m" "$d/m.yaml"
	(umask 077 && "$wingen" migrate "$d" --in-place 2>/dev/null) \
		|| bad "umask: run failed"
	[ "$(stat -c %a "$d/m.yaml")" = "$m" ] \
		|| bad "umask: mode $m became $(stat -c %a "$d/m.yaml")"
	grep -q 'runtimeClassName' "$d/m.yaml" \
		|| bad "umask: mode $m: not migrated"
	[ "$(stat -c %a "$d/00-runtimeclasses.yaml")" = 600 ] \
		|| bad "umask: a new file does not follow the umask"
	ls -a "$d" | grep -q wingen- && bad "umask: a temporary was left"
done
grep -q 'runtimeClassName: windows-ltsc2022' "$tmp/modes/apps/a.yaml" \
	|| bad "modes: file not migrated"
[ -f "$tmp/modes/00-runtimeclasses.yaml" ] \
	|| bad "modes: no 00-runtimeclasses.yaml in the first PATH"
grep -q '^kind: RuntimeClass' "$tmp/modes/00-runtimeclasses.yaml" \
	|| bad "modes: 00-runtimeclasses.yaml holds no RuntimeClass"
inode=$(stat -c %i "$tmp/modes/00-runtimeclasses.yaml")
"$wingen" migrate "$tmp/modes" --in-place 2>"$tmp/err" || bad "modes: rerun failed"
[ "$(stat -c %i "$tmp/modes/00-runtimeclasses.yaml")" = "$inode" ] \
	|| bad "modes: an unchanged 00-runtimeclasses.yaml was rewritten"
grep -q "kept .*00-runtimeclasses.yaml" "$tmp/err" \
	|| bad "modes: the summary does not say the file was kept: $(cat "$tmp/err")"
grep -q "changed 0 of 1 file" "$tmp/err" \
	|| bad "modes: the rerun changed files: $(cat "$tmp/err")"

# --runtimeclass-file, and a PROFILE told apart from a PATH by its kind.
mkdir -p "$tmp/prof"
cat >"$tmp/prof/m.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: win
spec:
  containers:
  - name: win
    image: mcr.microsoft.com/windows/nanoserver:ltsc2019
EOF
cp "$tmp/prof/m.yaml" "$tmp/m.orig"
cat >"$tmp/prof/p.yaml" <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata:
  name: two
windows:
  builds:
  - release: ltsc2019
  default: ltsc2019
  select:
  - image: 'nanoserver'
EOF
(cd "$tmp/prof" && "$wingen" migrate p.yaml . --in-place \
	--runtimeclass-file out/rc.yaml 2>"$tmp/err")
[ $? = 1 ] || bad "profile: writing into a missing folder did not fail"
[ -e "$tmp/prof/out/rc.yaml" ] && bad "profile: wrote after an error"
grep -q "windows-ltsc2022" "$tmp/prof/m.yaml" && bad "profile: default profile used"
cmp -s "$tmp/prof/m.yaml" "$tmp/m.orig" \
	|| bad "profile: a failed run changed m.yaml"
mkdir "$tmp/prof/out"
(cd "$tmp/prof" && "$wingen" migrate p.yaml . --in-place \
	--runtimeclass-file out/rc.yaml 2>"$tmp/err") \
	|| bad "profile: run failed: $(head -3 "$tmp/err")"
grep -q "windows-ltsc2019" "$tmp/prof/m.yaml" \
	|| bad "profile: the profile's build was not used"
grep -q "name: windows-ltsc2019" "$tmp/prof/out/rc.yaml" \
	|| bad "profile: --runtimeclass-file not written"
grep -q "skipped ./p.yaml: the profile" "$tmp/err" \
	|| bad "profile: the profile inside PATH was not skipped: $(cat "$tmp/err")"

# One file named three ways (a path, ./path, a symbolic link) is migrated
# once.  A hard link is a name of its own (migrate replaces each name by
# rename, which would part them), so two hard links to one manifest are
# an error naming both (each file is a stream of its own: no duplicate
# would say it), and no file changed, not one name left behind
# unmigrated.
mkdir -p "$tmp/names/sub" "$tmp/hard/sub"
cp "$tmp/m.orig" "$tmp/names/a.yaml"
ln -s ../a.yaml "$tmp/names/sub/soft.yaml"
(cd "$tmp/names" && "$wingen" migrate a.yaml ./a.yaml sub/soft.yaml \
	--in-place 2>"$tmp/err") \
	|| bad "names: run failed: $(head -3 "$tmp/err")"
grep -q "changed 1 of 1 file" "$tmp/err" \
	|| bad "names: a.yaml not migrated as one file: $(cat "$tmp/err")"
[ "$(grep -c 'runtimeClassName' "$tmp/names/a.yaml")" = 1 ] \
	|| bad "names: a.yaml migrated $(grep -c runtimeClassName "$tmp/names/a.yaml") times"
[ -L "$tmp/names/sub/soft.yaml" ] || bad "names: the symbolic link was replaced"
cp "$tmp/m.orig" "$tmp/hard/h1.yaml"
ln "$tmp/hard/h1.yaml" "$tmp/hard/sub/h2.yaml"
(cd "$tmp/hard" && "$wingen" migrate h1.yaml sub/h2.yaml --in-place \
	>"$tmp/out" 2>"$tmp/err")
[ $? = 1 ] || bad "hard links: not an error: $(cat "$tmp/err")"
grep -q "^sub/h2.yaml: error: the same file as h1.yaml (a hard link)" \
	"$tmp/err" || bad "hard links: no error naming both: $(cat "$tmp/err")"
cmp -s "$tmp/hard/h1.yaml" "$tmp/m.orig" || bad "hard links: a file changed"
[ "$(stat -c %h "$tmp/hard/h1.yaml")" = 2 ] || bad "hard links: parted"
[ -s "$tmp/out" ] && bad "hard links: the failed run printed to stdout"

# Usage errors: stdin, no mode, both modes.
for args in "migrate - --diff" "migrate x.yaml" "migrate x.yaml --diff --in-place" \
	"migrate --diff"; do
	# shellcheck disable=SC2086
	"$wingen" $args </dev/null >/dev/null 2>&1
	[ $? = 2 ] || bad "usage: '$args' did not exit 2"
done
echo "$ncases golden cases run in place"
[ "$ncases" -ge 10 ] || bad "only $ncases migrate golden cases found"
exit $fail
