#!/usr/bin/env bash
# The run's regex budget (SECURITY.md "Limits", regex-seconds): 20 slow
# select patterns over 3,000 images, each match within the PCRE2 match
# limit, ran for minutes and exited 0.  With the budget they stop once
# its CPU time is spent: exit 1, nothing on stdout, the error naming a
# pattern and the limit; a profile of quick patterns over the same
# images is not slowed (all its matches pass the cheap first try).
#   regex_budget.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/suite.sh
. "$root/tests/sh/lib/suite.sh"
suite_scratch || exit 1
unset WINGEN_PROFILE WINGEN_LOG WINGEN_LIMITS

# 3,000 Deployments, each with an image of 18 'a's that no pattern
# takes: (a+)+b backtracks through every split of them, some 0.4 ms a
# match, within the match limit (25 s of CPU in all, exit 0, before)
awk 'BEGIN {
	for (i = 0; i < 3000; i++)
		printf "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w%d}\nspec:\n  selector: {matchLabels: {app: w}}\n  template:\n    metadata: {labels: {app: w}}\n    spec:\n      containers: [{name: c, image: \"example.com/aaaaaaaaaaaaaaaaaa%d:1\"}]\n", i, i
}' >many.yaml
{
	printf 'apiVersion: wingen.dev/v1alpha1\nkind: Profile\nmetadata: {name: slow}\n'
	printf 'windows:\n  builds: [{release: ltsc2022}]\n  select:\n'
	for i in $(seq 1 20); do printf "  - image: '(a+)+b%d'\n" "$i"; done
} >slow.yaml
sed -e 's|(a+)+b|^example[.]com/b|' -e 's/name: slow/name: quick/' slow.yaml >quick.yaml

# the budget lowered to 1 s: the slow profile stops within it
start=$(date +%s)
WINGEN_LIMITS=regex-seconds=1 timeout 120 "$wingen" build slow.yaml -f many.yaml >out 2>err
rc=$? took=$(($(date +%s) - start))
[ $rc -eq 1 ] || no "slow patterns: exit $rc, not 1"
[ -s out ] && no "slow patterns: something on stdout"
grep -Eq "many.yaml:[0-9]+:[0-9]+: error: Deployment/w[0-9]+: .*windows.select\[[0-9]+\].image: pattern '\(a\+\)\+b[0-9]+' spent the run's regex budget \(WINGEN_LIMITS regex-seconds: 1 s of matching\)" err \
	|| { no "slow patterns: no error naming the pattern and the budget"; head -3 err; }
[ "$(grep -c "regex budget" err)" -eq 1 ] || no "the budget said more than once"
grep -q "gave up" err && no "a match gave up: the patterns are meant to end within the match limit"
echo "20 slow patterns over 3,000 images, regex-seconds=1: exit $rc after ${took} s"
[ $took -lt 60 ] || no "slow patterns: ${took} s with a budget of 1 s"

# quick patterns over the same images (none matches): no budget error,
# and the run ends as it would without one
start=$(date +%s)
WINGEN_LIMITS=regex-seconds=1 timeout 120 "$wingen" build quick.yaml -f many.yaml >out 2>err
rc=$? took=$(($(date +%s) - start))
grep -q "regex budget" err && no "quick patterns spent the budget"
{ [ $rc -eq 0 ] && [ "$(grep -c '^kind: Deployment' out)" -eq 3000 ]; } \
	|| { no "quick patterns: exit $rc, or not 3,000 Deployments out"; head -3 err; }
echo "20 quick patterns over 3,000 images: exit $rc after ${took} s"

# the name is known, and a bad value refused
WINGEN_LIMITS=regex-seconds=0 "$wingen" build quick.yaml -f many.yaml >/dev/null 2>err
grep -q "regex-seconds" err || no "regex-seconds=0 not refused by name"

[ $fail -eq 0 ] && echo "regex_budget: all passed"
exit $fail
