#!/usr/bin/env bash
# migrate over every real-world manifest, each on a temporary copy:
#  - migrate --in-place succeeds exactly when build does (and on failure
#    leaves the file untouched);
#  - the RuntimeClass file plus the migrated file read back as exactly the
#    objects build writes (yamlcmp: same objects, same key order, same
#    scalar types);
#  - every comment line of the input is still there;
#  - the diff touches only documents whose objects changed, and only lines
#    inside the object (not the comments before or after it);
#  - a second run changes nothing.
# Twice: with the default profile, and with one that takes every workload
# for a Windows workload and fixes Services (many more edits, removals of
# Linux-only fields among them).
#   migrate_corpus.sh WINGEN YAMLCMP CORPUS_DIR
set -u
wingen=$1 yamlcmp=$2 corpus=$3
if [ ! -d "$corpus" ]; then
	echo "SKIP: corpus folder $corpus is absent"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 changed=0

# Document number (1-based) of every line: a new one starts at "---".
doc_of_lines() {
	awk 'NR == 1 { d = 1 } /^---([ \t]|$)/ && NR > 1 { d++ } { print d }' "$1"
}

# First and last line of the object of document $2 of file $1: not blank,
# not a marker, and not a comment at column 0 (an indented comment is
# inside the object).
content_range() {
	awk -v want="$2" 'NR == 1 { d = 1 } /^---([ \t]|$)/ && NR > 1 { d++ }
		d == want && !/^[ \t]*$/ && !/^#/ \
		&& !/^(---|\.\.\.)([ \t]|$)/ {
			if (!first) first = NR; last = NR }
		END { print first + 0, last + 0 }' "$1"
}

# Document $2 of file $1, alone.
doc_text() {
	awk -v want="$2" 'NR == 1 { d = 1 } /^---([ \t]|$)/ && NR > 1 { d++ }
		d == want && !/^---([ \t]|$)/' "$1"
}

cat >"$tmp/windows.yaml" <<'EOF'
apiVersion: wingen.dev/v1alpha1
kind: Profile
metadata:
  name: everything-windows
windows:
  builds:
    - release: ltsc2022
  default: ltsc2022
  select:
    - image: '.'
  services: {fix: true}
EOF

for profile in "" "$tmp/windows.yaml"; do
for f in "$corpus"/*.yaml "$corpus"/*.yml; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=$(basename "$f")
	rm -rf "$tmp/w"
	mkdir "$tmp/w"
	cp "$f" "$tmp/w/$name"
	chmod u+w "$tmp/w/$name"
	copy=$tmp/w/$name
	# shellcheck disable=SC2086
	"$wingen" build $profile -f "$f" >"$tmp/build.yaml" 2>/dev/null
	build_rc=$?
	# shellcheck disable=SC2086
	"$wingen" migrate $profile "$copy" --in-place \
		--runtimeclass-file "$tmp/w/rc.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$build_rc" ]; then
		echo "FAIL ${profile:+(windows) }$name: migrate exited $rc, build $build_rc"
		head -5 "$tmp/err"
		fail=1; continue
	fi
	if [ "$rc" != 0 ]; then
		if ! cmp -s "$f" "$copy" || [ -e "$tmp/w/rc.yaml" ] \
			|| [ -s "$tmp/out" ]; then
			echo "FAIL ${profile:+(windows) }$name: a failed migrate changed something"
			fail=1
		fi
		continue
	fi
	if grep -q "^migrate: skipped" "$tmp/err"; then
		cmp -s "$f" "$copy" || { echo "FAIL ${profile:+(windows) }$name: skipped but changed"; fail=1; }
		continue
	fi
	cmp -s "$f" "$copy" || changed=$((changed + 1))

	# Same objects as build (which puts its RuntimeClasses first).
	{
		if [ -f "$tmp/w/rc.yaml" ]; then cat "$tmp/w/rc.yaml"; echo "---"; fi
		cat "$copy"
	} >"$tmp/combined.yaml"
	if ! "$yamlcmp" --expand "$tmp/combined.yaml" "$tmp/build.yaml" \
		2>"$tmp/cmp"; then
		echo "FAIL ${profile:+(windows) }$name: migrated file differs from build: $(cat "$tmp/cmp")"
		fail=1; continue
	fi

	# Every comment line survives (as many times as it was there).
	missing=$(comm -23 <(grep -E '^[[:space:]]*#' "$f" | sort) \
			   <(grep -E '^[[:space:]]*#' "$copy" | sort))
	if [ -n "$missing" ]; then
		echo "FAIL ${profile:+(windows) }$name: comment lines lost:"; echo "$missing" | head -5
		fail=1; continue
	fi

	# Only documents whose objects changed are touched, inside them.
	doc_of_lines "$f" >"$tmp/docs"
	diff -U0 "$f" "$copy" | grep '^@@' \
		| sed -E 's/^@@ -([0-9]+)(,([0-9]+))? .*/\1 \3/' >"$tmp/hunks"
	bad=""
	while read -r start count; do
		[ -z "$count" ] && count=1
		# a pure insertion follows old line $start; a change covers
		# lines start..start+count-1
		if [ "$count" = 0 ]; then first=$start last=$start
		else first=$start last=$((start + count - 1)); fi
		[ "$first" -lt 1 ] && first=1
		d=$(sed -n "${first}p" "$tmp/docs")
		read -r lo hi <<<"$(content_range "$f" "$d")"
		if [ "$first" -lt "$lo" ] || [ "$last" -gt "$hi" ]; then
			bad="lines $first-$last are outside document $d's object (lines $lo-$hi)"
			break
		fi
		doc_text "$f" "$d" >"$tmp/d_old.yaml"
		doc_text "$copy" "$d" >"$tmp/d_new.yaml"
		if "$yamlcmp" "$tmp/d_old.yaml" "$tmp/d_new.yaml" 2>/dev/null; then
			bad="document $d was edited but its objects did not change"
			break
		fi
	done <"$tmp/hunks"
	if [ -n "$bad" ]; then
		echo "FAIL ${profile:+(windows) }$name: $bad"; fail=1; continue
	fi

	# A second run changes nothing.
	cp "$copy" "$tmp/first.yaml"
	[ -f "$tmp/w/rc.yaml" ] && cp "$tmp/w/rc.yaml" "$tmp/first_rc.yaml"
	# shellcheck disable=SC2086
	if ! "$wingen" migrate $profile "$copy" --in-place \
		--runtimeclass-file "$tmp/w/rc.yaml" >/dev/null 2>"$tmp/err"; then
		echo "FAIL ${profile:+(windows) }$name: second run failed: $(head -3 "$tmp/err")"
		fail=1; continue
	fi
	if ! cmp -s "$copy" "$tmp/first.yaml" \
		|| { [ -f "$tmp/w/rc.yaml" ] && ! cmp -s "$tmp/w/rc.yaml" "$tmp/first_rc.yaml"; }; then
		echo "FAIL ${profile:+(windows) }$name: a second run changed the file:"
		diff "$tmp/first.yaml" "$copy" | head -10
		fail=1
	fi
done
done
echo "$n corpus runs checked (two profiles), $changed changed by migrate"
[ "$n" -gt 0 ] || { echo "FAIL: no corpus files found"; exit 1; }
[ "$changed" -gt 0 ] || { echo "FAIL: migrate changed no corpus file"; exit 1; }
exit $fail
