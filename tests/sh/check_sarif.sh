#!/usr/bin/env bash
# check -o sarif: SARIF 2.1.0 that Microsoft's SARIF Multitool validates
# (npm @microsoft/sarif-multitool-linux, "validate": the JSON schema and
# its rules), and that says what -o json says of the same run: one result
# per diagnostic, in order, its ruleId the diagnostic's rule and its
# ruleIndex that rule in tool.driver.rules, its level the severity, its
# location the file (as a relative URI) and line:column when the file is
# on disk, none for stdin or the command line.  Runs: the SARIF golden
# cases, a clean run, a bad profile, the cluster's nodes that do not fit,
# a manifest that does not parse.
# The Multitool comes from tests/ci/get-validators.sh (WG_NPM: its
# node_modules); without it that part says SKIP.
#   check_sarif.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
npm=${WG_NPM:-$root/build/npm/node_modules}
multitool=$npm/@microsoft/sarif-multitool-linux/Sarif.Multitool
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
command -v jq >/dev/null || { echo "SKIP: jq is not installed (Debian: apt-get install jq)"; exit 77; }

golden=$root/tests/golden
# name|folder|arguments: each run twice, -o sarif and -o json.
runs=(
	"report|$golden/check-sarif|profile.yaml -f input.yaml -f 'web app.yaml'"
	"stdin|$golden/check-sarif-stdin|profile.yaml -f - <stdin.yaml"
	"cmdline|$golden/check-sarif-no-file|profile.yaml -f input.yaml --retarget ltsc2030=ltsc2022"
	"clean|$root/examples/single-build|profile.yaml"
	"profile|$golden/profile-bad-every-problem|profile.yaml -f input.yaml"
	"nodes|$golden/check-nodes-no-build|profile.yaml -f input.yaml --nodes ../../data/nodes/ws2025-arm64.yaml"
	"yaml|$golden/bad-unclosed-quote|-f input.yaml"
)
for r in "${runs[@]}"; do
	IFS='|' read -r name dir args <<<"$r"
	for format in sarif json; do
		(cd "$dir" && eval "\"\$wingen\" check $args -o $format" \
			>"$tmp/$name.$format" 2>"$tmp/$name.$format.err")
		echo $? >"$tmp/$name.$format.rc"
	done
	[ "$(cat "$tmp/$name.sarif.rc")" = "$(cat "$tmp/$name.json.rc")" ] \
		|| no "$name: -o sarif exits $(cat "$tmp/$name.sarif.rc"), -o json $(cat "$tmp/$name.json.rc")"
	[ -s "$tmp/$name.sarif.err" ] && no "$name: -o sarif wrote to stderr: $(head -3 "$tmp/$name.sarif.err")"
	s=$tmp/$name.sarif j=$tmp/$name.json
	jq -e '.version == "2.1.0" and (.runs | length) == 1
	       and .runs[0].tool.driver.name == "wingen"
	       and (.runs[0].tool.driver.version | test("^[0-9]+\\.[0-9]+\\.[0-9]+$"))' "$s" >/dev/null \
		|| no "$name: not one SARIF 2.1.0 run of wingen with its version"
	[ "$(jq '.runs[0].results | length' "$s")" = "$(jq '.diagnostics | length' "$j")" ] \
		|| no "$name: $(jq '.runs[0].results | length' "$s") results, $(jq '.diagnostics | length' "$j") diagnostics"
	# result i against diagnostic i
	bad=$(jq -n --slurpfile s "$s" --slurpfile j "$j" '
		$s[0].runs[0] as $run | $j[0].diagnostics as $d
		| [range(0; $d | length) as $i
		   | $run.results[$i] as $r | $d[$i] as $x
		   | select($r.ruleId != $x.rule
			 or $run.tool.driver.rules[$r.ruleIndex].id != $x.rule
			 or $r.level != ({"error": "error", "warning": "warning", "info": "note"}[$x.severity])
			 or ($r.message.text | endswith($x.message) | not))
		   | "\($i): \($r.ruleId)/\($r.level) for \($x.rule)/\($x.severity)"] | .[]' -r)
	[ -z "$bad" ] || no "$name: results that are not their diagnostic: $bad"
	# locations: the file on disk, as a URI, and its line and column
	while IFS=$'\t' read -r i file line col uri sline scol; do
		if [ -n "$file" ] && (cd "$dir" && [ -e "$file" ]); then
			want=$(jq -rn --arg f "$file" '$f | @uri' | sed 's/%2F/\//g')
			[ "$uri" = "$want" ] || no "$name: result $i: uri '$uri', not '$want'"
			[ "$sline" = "$line" ] && [ "$scol" = "$col" ] \
				|| no "$name: result $i: region $sline:$scol, not $line:$col"
		else
			[ -z "$uri" ] || no "$name: result $i: a location '$uri' for '$file', which is no file"
		fi
	done < <(jq -rn --slurpfile s "$s" --slurpfile j "$j" '
		range(0; $j[0].diagnostics | length) as $i
		| $j[0].diagnostics[$i] as $d
		| $s[0].runs[0].results[$i].locations[0].physicalLocation as $p
		| [$i, $d.file // "", $d.line // "", $d.column // "",
		   $p.artifactLocation.uri // "", $p.region.startLine // "",
		   $p.region.startColumn // ""] | @tsv')
done
# The runs hold what they are meant to: results of these rules.
for want in report:node-selector report:services report:select \
	    report:windows-security stdin:node-selector cmdline:profile \
	    profile:profile nodes:placement yaml:input; do
	jq -e --arg r "${want#*:}" '.runs[0].results | any(.ruleId == $r)' \
		"$tmp/${want%%:*}.sarif" >/dev/null \
		|| no "${want%%:*}: no result of rule ${want#*:}"
done
[ "$(jq '.runs[0].results | length' "$tmp/clean.sarif")" = 0 ] \
	|| no "clean: a run with nothing to say has results"
# docs/check.md names every rule.
for id in $(jq -r '.runs[0].tool.driver.rules[].id' "$tmp/report.sarif"); do
	grep -q "\`$id\`" "$root/docs/check.md" \
		|| no "docs/check.md does not name the rule '$id'"
done
# The golden cases are what wingen writes now (tests/golden/check-sarif*).
cmp -s "$tmp/report.sarif" "$golden/check-sarif/expected.yaml" \
	|| no "tests/golden/check-sarif differs from this run"

# ---- Microsoft's SARIF Multitool --------------------------------------------
if [ ! -x "$multitool" ]; then
	echo "SKIP (the Multitool part): no $multitool" \
	     "(tests/ci/get-validators.sh puts it there)"
	exit $fail
fi
# Its own verdicts are SARIF too: every one fails the test but SARIF2005
# (no informationUri: wingen has no web page to name; docs/check.md).
(cd "$tmp" && DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 timeout 300 "$multitool" \
	validate ./*.sarif -o "$tmp/verdict.json" --log ForceOverwrite \
	>"$tmp/multitool.out" 2>&1) \
	|| { no "the Multitool failed: $(tail -5 "$tmp/multitool.out")"; exit 1; }
grep -q "^Done\. ${#runs[@]} files scanned" "$tmp/multitool.out" \
	|| no "the Multitool did not read the ${#runs[@]} logs: $(tail -3 "$tmp/multitool.out")"
bad=$(jq -r '.runs[0].results[] | select(.ruleId != "SARIF2005")
	| "\(.ruleId) \(.level // "warning"): \(.locations[0].physicalLocation.artifactLocation.uri // ""): \(.message.arguments // [] | join(", "))"' \
	"$tmp/verdict.json")
[ -z "$bad" ] || no "the Multitool says: $bad"
# A log the Multitool cannot read into its object model (a value of the
# wrong type or outside an enum) gets no verdict at all, not even
# SARIF2005: each log must have its SARIF2005, and the schema the
# Multitool ships is held to every log by ajv too.
n2005=$(jq '[.runs[0].results[] | select(.ruleId == "SARIF2005")
	     | .locations[0].physicalLocation.artifactLocation.uri] | unique
	     | length' "$tmp/verdict.json")
[ "$n2005" = "${#runs[@]}" ] \
	|| no "the Multitool analysed $n2005 of the ${#runs[@]} logs to the end"
if [ -x "$npm/.bin/ajv" ]; then
	for r in "${runs[@]}"; do cp "$tmp/${r%%|*}.sarif" "$tmp/${r%%|*}.sarif.json"; done
	(cd "$tmp" && "$npm/.bin/ajv" validate --spec=draft2020 --strict=false \
		--validate-formats=false \
		-s "${multitool%/*}/sarif-2.1.0.json" -d "*.sarif.json" >"$tmp/ajv" 2>&1)
	[ "$(grep -c ' valid$' "$tmp/ajv")" = "${#runs[@]}" ] \
		|| no "ajv, the SARIF 2.1.0 schema: $(grep -v ' valid$' "$tmp/ajv" | head -20)"
else
	echo "SKIP (ajv against the SARIF schema): no ajv under $npm"
fi
[ "$fail" = 0 ] && echo "check_sarif: ${#runs[@]} runs valid SARIF 2.1.0 (Multitool), each result its diagnostic"
exit $fail
