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

# Checks the diff of one migrated file: reads the hunks of `diff -U0 OLD
# NEW` on stdin, then OLD, NEW, OLD and NEW.  A document starts at "---"; its
# object is its lines that are not blank, not a marker and not a comment
# at column 0 (an indented comment is inside the object).  Every hunk must
# lie inside one document's object; prints "BAD why" for the first that
# does not, or else writes each edited document of OLD and of NEW alone to
# PREFIX.D.old and PREFIX.D.new and prints the two names, for yamlcmp
# --pairs (an edited document whose objects did not change is an error).
# Before all that, "LOST line" for each comment line of OLD that NEW has
# fewer times.
check_hunks() {
	awk -v prefix="$1" '
	function docs() {
		if (FNR == 1) d = 1
		else if ($0 ~ /^---([ \t]|$)/) d++
	}
	# after a pass over OLD and NEW: lost comments, then which
	# documents the hunks edit
	function decide(   i, first, last, dd, l, h, c) {
		decided = 1
		for (c in comments)
			if (comments[c] > 0) { print "LOST " c; bad = 1 }
		if (bad)
			exit
		for (i = 1; i <= nh; i++) {
			# a pure insertion follows old line start; a change
			# covers lines start..start+count-1
			first = hstart[i] + 0
			last = hcount[i] == 0 ? first : first + hcount[i] - 1
			if (first < 1) first = 1
			dd = doc_of[first]
			l = lo[dd] + 0; h = hi[dd] + 0
			if (first < l || last > h) {
				print "BAD lines " first "-" last " are outside " \
				      "document " dd "\047s object (lines " l "-" h ")"
				bad = 1
				exit
			}
			if (!(dd in edited)) { edited[dd] = 1; order[++ne] = dd }
		}
	}
	# passes 3 and 4: the edited documents of OLD, then of NEW
	function out(ext) {
		if (d != open_d || ext != open_ext) {
			if (open_f != "") close(open_f)
			open_d = d; open_ext = ext
			open_f = prefix "." d "." ext
		}
		print > open_f
	}
	FILENAME == "-" {
		if ($0 !~ /^@@/) next
		h = $0
		sub(/^@@ -/, "", h)
		sub(/ .*/, "", h)
		nh++
		hstart[nh] = h; sub(/,.*/, "", hstart[nh])
		hcount[nh] = (h ~ /,/) ? h : 1
		sub(/^[^,]*,/, "", hcount[nh])
		next
	}
	# passes by file name (an empty file has no first line)
	FNR == 1 {
		pass = FILENAME == ARGV[2] ? 1 : FILENAME == ARGV[3] ? 2 \
		       : FILENAME == ARGV[4] ? 3 : 4
		if (pass >= 3 && !decided) decide()
	}
	/^[ \t]*#/ { if (pass == 1) comments[$0]++; else if (pass == 2) comments[$0]-- }
	pass == 1 {
		docs()
		doc_of[FNR] = d
		if ($0 !~ /^[ \t]*$/ && $0 !~ /^#/ \
		    && $0 !~ /^(---|\.\.\.)([ \t]|$)/) {
			if (!(d in lo)) lo[d] = FNR
			hi[d] = FNR
		}
		next
	}
	pass == 2 { next }
	{
		docs()
		if ((d in edited) && $0 !~ /^---([ \t]|$)/)
			out(pass == 3 ? "old" : "new")
	}
	END {
		if (bad) exit
		if (!decided) decide()
		if (bad) exit
		if (open_f != "") close(open_f)
		for (i = 1; i <= ne; i++) {
			dd = order[i]
			# a document with no line of its own is empty
			printf "" >> (prefix "." dd ".old")
			printf "" >> (prefix "." dd ".new")
			print prefix "." dd ".old"
			print prefix "." dd ".new"
		}
	}' - "$2" "$3" "${2%/*}/./${2##*/}" "${3%/*}/./${3##*/}"
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

files=()
for f in "$corpus"/*.yaml "$corpus"/*.yml; do
	[ -f "$f" ] && files+=("$f")
done

# Every file with one profile ("" or the Windows one), in folder $tmp/$2:
# a log of failures, and the counts of runs and of changed files.  The two
# profiles run side by side, and a file costs wingen's runs and a few
# other processes: file names are unique per file (nothing to clean up),
# texts are compared by the shell, and one awk and one yamlcmp check all
# the hunks and edited documents of a file.
run_profile() {
	local profile=$1 d=$tmp/$2 f name copy rc build_rc tag
	local n=0 changed=0 fail=0 bad lines l skipped same first first_rc
	local again again_rc w
	tag=${profile:+(windows) }
	mkdir -p "$d"
	for f in "${files[@]}"; do
	n=$((n + 1))
	name=${f##*/}
	w=$d/$n
	copy=$w.$name
	cat "$f" >"$copy"	# writable, whatever the corpus mode is
	# shellcheck disable=SC2086
	"$wingen" build $profile -f "$f" >"$w.build.yaml" 2>/dev/null
	build_rc=$?
	# shellcheck disable=SC2086
	"$wingen" migrate $profile "$copy" --in-place \
		--runtimeclass-file "$w.rc.yaml" >"$w.out" 2>"$w.err"
	rc=$?
	# a file migrate skips whole (no apiVersion and kind: a patch) is
	# no object read, an error; build passes such a mapping through
	if [ "$rc" = 1 ] && [ "$build_rc" = 0 ] \
		&& grep -q "error: nothing migrated: every file given was skipped" "$w.err" \
		&& cmp -s "$f" "$copy" && [ ! -e "$w.rc.yaml" ]; then
		continue
	fi
	if [ "$rc" != "$build_rc" ]; then
		echo "FAIL $tag$name: migrate exited $rc, build $build_rc"
		head -5 "$w.err"
		fail=1; continue
	fi
	diff -U0 "$f" "$copy" >"$w.hunks"
	if [ "$rc" != 0 ]; then
		if [ -s "$w.hunks" ] || [ -e "$w.rc.yaml" ] \
			|| [ -s "$w.out" ]; then
			echo "FAIL $tag$name: a failed migrate changed something"
			fail=1
		fi
		continue
	fi
	mapfile -t lines <"$w.err"
	skipped=""
	for l in "${lines[@]}"; do
		[[ $l == "migrate: skipped"* ]] && skipped=1
	done
	if [ -n "$skipped" ]; then
		[ -s "$w.hunks" ] && { echo "FAIL $tag$name: skipped but changed"; fail=1; }
		continue
	fi
	[ -s "$w.hunks" ] && changed=$((changed + 1))

	# Same objects as build (which puts its RuntimeClasses first).
	# (migrate writes none when no workload names one; build then
	# generates none either.)
	combined=$copy want=$w.build.yaml
	if [ -f "$w.rc.yaml" ]; then
		combined=$w.combined.yaml
		printf -- '---\n' | cat "$w.rc.yaml" - "$copy" >"$combined"
	else
		# build's own RuntimeClasses lead its stream: leave them out
		want=$w.build-norc.yaml
		# shellcheck disable=SC2086
		"$wingen" build $profile -f "$f" --no-runtimeclasses >"$want" 2>/dev/null
	fi
	if ! "$yamlcmp" --expand "$combined" "$want" \
		2>"$w.cmp"; then
		echo "FAIL $tag$name: migrated file differs from build: $(cat "$w.cmp")"
		fail=1; continue
	fi

	# Every comment line survives (as many times as it was there), and
	# only documents whose objects changed are touched, inside them.
	mapfile -t lines < <(check_hunks "$w.doc" "$f" "$copy" <"$w.hunks")
	bad=""
	if [ "${#lines[@]}" -gt 0 ] && [[ "${lines[0]}" == LOST* ]]; then
		echo "FAIL $tag$name: comment lines lost:"
		for l in "${lines[@]:0:5}"; do echo "${l#LOST }"; done
		fail=1; continue
	elif [ "${#lines[@]}" -gt 0 ] && [[ "${lines[0]}" == BAD* ]]; then
		bad=${lines[0]#BAD }
	elif [ "${#lines[@]}" -gt 0 ]; then
		same=$("$yamlcmp" --pairs "${lines[@]}" 2>/dev/null)
		if [ -n "$same" ]; then
			same=${same%%$'\n'*}
			same=${same%.old}
			bad="document ${same##*.} was edited but its objects did not change"
		fi
	fi
	if [ -n "$bad" ]; then
		echo "FAIL $tag$name: $bad"; fail=1; continue
	fi

	# A second run changes nothing (texts compared by the shell: read
	# keeps every byte of a file without NUL).
	IFS= read -r -d '' first <"$copy"
	first_rc=""
	[ -f "$w.rc.yaml" ] && IFS= read -r -d '' first_rc <"$w.rc.yaml"
	# shellcheck disable=SC2086
	if ! "$wingen" migrate $profile "$copy" --in-place \
		--runtimeclass-file "$w.rc.yaml" >/dev/null 2>"$w.err"; then
		echo "FAIL $tag$name: second run failed: $(head -3 "$w.err")"
		fail=1; continue
	fi
	IFS= read -r -d '' again <"$copy"
	again_rc=""
	[ -f "$w.rc.yaml" ] && IFS= read -r -d '' again_rc <"$w.rc.yaml"
	if [ "$again" != "$first" ] || [ "$again_rc" != "$first_rc" ]; then
		echo "FAIL $tag$name: a second run changed the file:"
		printf '%s' "$first" | diff - "$copy" | head -10
		fail=1
	fi
	done
	echo "$n $changed $fail" >"$d/counts"
}
run_profile "" default >"$tmp/default.log" 2>&1 &
run_profile "$tmp/windows.yaml" windows >"$tmp/windows.log" 2>&1 &
wait
cat "$tmp/default.log" "$tmp/windows.log"
for p in default windows; do
	if [ ! -f "$tmp/$p/counts" ]; then
		echo "FAIL: the $p run did not finish"; fail=1; continue
	fi
	read -r pn pc pf <"$tmp/$p/counts"
	n=$((n + pn)) changed=$((changed + pc))
	[ "$pf" = 0 ] || fail=1
done
echo "$n corpus runs checked (two profiles), $changed changed by migrate"
[ "$n" -gt 0 ] || { echo "FAIL: no corpus files found"; exit 1; }
[ "$changed" -gt 0 ] || { echo "FAIL: migrate changed no corpus file"; exit 1; }
exit $fail
