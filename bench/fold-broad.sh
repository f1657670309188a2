#!/usr/bin/env bash
# Folds the monorepo pass (RESULTS-broad.md, bench/run.sh --broad) into
# RESULTS.md, so that one file holds both streams' figures and ratios
# (issue 20 asks for them in bench/RESULTS.md).
#
#   bench/fold-broad.sh [RESULTS.md [RESULTS-broad.md]]
#
# RESULTS.md's last section, "## The monorepo stream (bench/gen --broad)",
# is replaced (or added) with the broad pass's notes, the commit and date
# it measured, and its Ratios, Growth, Diagnostics and Targets sections,
# one heading level down.  Everything before that section is kept byte
# for byte, so folding twice gives the same file.  The result is written
# to a temporary beside RESULTS.md and renamed over it: a failure leaves
# RESULTS.md as it was.  Both files must begin as run.sh's results do
# ("# wingen benchmark results"); any other file is refused, untouched.
# Exit 0, or 1 with one line on stderr.
# bench/run.sh calls it after each full pass of either stream.
set -u
here=$(cd "$(dirname "$0")" && pwd)
results=${1:-$here/RESULTS.md}
broad=${2:-$here/RESULTS-broad.md}
heading='## The monorepo stream (bench/gen --broad)'

die() { echo "bench/fold-broad.sh: error: $*" >&2; exit 1; }

[ -f "$results" ] || die "$results: no such file"
[ -f "$broad" ] || die "$broad: no such file (run bench/run.sh --broad)"
# Both must be what run.sh writes (its report's first line): a fold
# never appends to some other file given by mistake.
for f in "$results" "$broad"; do
	[ "$(head -n1 "$f")" = '# wingen benchmark results' ] \
		|| die "$f: not a bench/run.sh result (its first line is not \"# wingen benchmark results\")"
done

# The broad pass's part: its notes, what it measured, and the sections
# that carry verdicts, each "## X" made "### X".
set -o pipefail
section=$(awk -v heading="$heading" -v src="${broad##*/}" '
	/^\*\*Note:\*\*/ { notes = notes $0 "\n\n"; next }
	/^- (wingen|date): / { machine = machine $0 "\n"; next }
	/^## / {
		keep = $0 ~ /^## (Ratios|Growth from|Diagnostics|Targets of)/
		if ($0 ~ /^## Targets of/) targets = 1
		if (keep) body = body "\n#" $0 "\n"
		next
	}
	keep { body = body $0 "\n" }
	END {
		if (!targets) exit 1
		sub(/\n+$/, "\n", body)
		printf "%s\n\nThe verdicts of the last full pass on the monorepo stream, from\n", heading
		printf "[%s](%s), which has its full tables.\n\n", src, src
		printf "%s%s%s", notes, machine, body
	}' "$broad" | cat -s) || die "$broad: not a bench/run.sh result (no \"## Targets of\" section)"

tmp=$(mktemp "$results.XXXXXX") || die "cannot create a temporary beside $results"
trap 'rm -f "$tmp"' EXIT
# RESULTS.md up to the section, its trailing blank lines dropped.
awk -v heading="$heading" '
	$0 == heading { exit }
	/^$/ { blanks++; next }
	{ for (; blanks > 0; blanks--) print ""; print }' "$results" >"$tmp" \
	&& printf '\n%s\n' "$section" >>"$tmp" \
	&& chmod --reference="$results" "$tmp" \
	&& mv "$tmp" "$results" || die "cannot write $results"
trap - EXIT
