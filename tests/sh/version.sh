#!/usr/bin/env bash
# wingen version: wingen's version, then libyaml, libcyaml and PCRE2, each
# with the version it was built with (what pkg-config reports on the
# building machine) and the one it runs with (asked of the library).
#   version.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1
fail=0
no() { echo "FAIL: $*"; fail=1; }

out=$("$wingen" version) || no "wingen version: exit $?"
[ "$("$wingen" --version)" = "$out" ] || no "--version differs from version"
head -1 <<<"$out" | grep -qE '^wingen [0-9]+\.[0-9]+\.[0-9]+$' \
	|| no "first line is not 'wingen X.Y.Z': $(head -1 <<<"$out")"
ver='[0-9]+\.[0-9]+(\.[0-9]+)?'
for lib in libyaml:yaml-0.1 libcyaml:libcyaml PCRE2:libpcre2-8; do
	name=${lib%%:*} pc=${lib#*:}
	line=$(grep "^$name " <<<"$out") || { no "no line for $name"; continue; }
	grep -qE "^$name +built with $ver +running $ver" <<<"$line" \
		|| no "$name: not 'built with V running V': $line"
	if command -v pkg-config >/dev/null 2>&1 \
		&& want=$(pkg-config --modversion "$pc" 2>/dev/null); then
		built=$(sed -E 's/.*built with ([^ ]+).*/\1/' <<<"$line")
		[ "$built" = "$want" ] || no "$name built with '$built', pkg-config says '$want'"
	fi
done
[ "$(wc -l <<<"$out")" = 4 ] || no "expected 4 lines: $out"
"$wingen" version extra >/dev/null 2>&1
[ $? = 2 ] || no "wingen version extra is not a usage error"
"$wingen" version --help | grep -q "built with" \
	|| no "wingen version --help does not say what it prints"

[ "$fail" = 0 ] && echo "version: all checks pass"
exit $fail
