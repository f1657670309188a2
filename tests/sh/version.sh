#!/usr/bin/env bash
# wingen version: wingen's version, the git commit it was built from,
# then libyaml, libcyaml, PCRE2, zlib, libmicrohttpd, GnuTLS and yajl, each
# with the version it was
# built with (what pkg-config reports on the building machine) and the
# one it runs with (asked of the library); -o json says the same as one
# object, --short the version and commit alone.  The commit comes from
# cmake/gitcommit.cmake at build time: the checkout's HEAD, "unknown"
# outside a git checkout (or inside another repository's).
#   version.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

out=$("$wingen" version) || no "wingen version: exit $?"
[ "$("$wingen" --version)" = "$out" ] || no "--version differs from version"
head -1 <<<"$out" | grep -qE '^wingen [0-9]+\.[0-9]+\.[0-9]+$' \
	|| no "first line is not 'wingen X.Y.Z': $(head -1 <<<"$out")"
version=$(head -1 <<<"$out" | cut -d' ' -f2)
ver='[0-9]+\.[0-9]+(\.[0-9]+)?'
libs="libyaml:yaml-0.1 libcyaml:libcyaml PCRE2:libpcre2-8 zlib:zlib
      libmicrohttpd:libmicrohttpd GnuTLS:gnutls yajl:yajl"
for lib in $libs; do
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
nlibs=$(wc -w <<<"$libs")
[ "$(wc -l <<<"$out")" = $((nlibs + 2)) ] || no "expected $((nlibs + 2)) lines: $out"
# every library the binary links itself (readelf's NEEDED) is listed,
# but the C library: one added to the link gets its row in cmd_version.c
if command -v readelf >/dev/null; then
	for so in $(readelf -d "$wingen" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		case $so in
		libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*) continue ;;
		lib[at]san.so*|libubsan.so*|libgcc_s.so*) continue ;;	# sanitizers
		libyaml-0.so*) name=libyaml ;; libcyaml.so*) name=libcyaml ;;
		libpcre2-8.so*) name=PCRE2 ;; libz.so*) name=zlib ;;
		libmicrohttpd.so*) name=libmicrohttpd ;; libgnutls.so*) name=GnuTLS ;;
		libyajl.so*) name=yajl ;;
		*) no "wingen links $so, which version does not list"; continue ;;
		esac
		grep -q "^$name " <<<"$out" || no "wingen links $so, version has no $name line"
	done
fi

# The commit: this checkout's, when the binary was built from it.
commit=$(sed -n 's/^commit  *\([0-9a-f]*\|unknown\).*/\1/p' <<<"$out")
[ -n "$commit" ] || no "no 'commit' line: $out"
if head=$(git -C "$root" rev-parse HEAD 2>/dev/null) \
	&& [ "$(git -C "$root" rev-parse --show-toplevel)" = "$root" ]; then
	# The binary may be older than HEAD (a commit since the build),
	# never from elsewhere: an ancestor of HEAD.
	git -C "$root" merge-base --is-ancestor "$commit" "$head" 2>/dev/null \
		|| no "commit '$commit' is not this checkout's HEAD or an ancestor"
fi

# -o json: the same facts.
"$wingen" version -o json >"$tmp/v.json" || no "version -o json: exit $?"
if command -v jq >/dev/null; then
	[ "$(jq -r .version "$tmp/v.json")" = "$version" ] \
		|| no "-o json: .version is not $version"
	[ "$(jq -r .gitCommit "$tmp/v.json")" = "$commit" ] \
		|| no "-o json: .gitCommit is not $commit"
	jq -e '.gitTreeState | test("^(clean|dirty|unknown)$")' "$tmp/v.json" \
		>/dev/null || no "-o json: .gitTreeState is not clean|dirty|unknown"
	for lib in $libs; do
		name=${lib%%:*}
		line=$(grep "^$name " <<<"$out")
		built=$(sed -E 's/.*built with ([^ ]+).*/\1/' <<<"$line")
		running=$(sed -E 's/.*running (.*)/\1/' <<<"$line")
		got=$(jq -r --arg n "$name" \
			'.libraries[] | select(.name == $n) | "\(.builtWith)|\(.running)"' \
			"$tmp/v.json")
		[ "$got" = "$built|$running" ] \
			|| no "-o json: $name is '$got', the text says '$built|$running'"
	done
else
	echo "SKIP (the -o json fields): no jq"
fi

# --short: as helm version --short.
short=$("$wingen" version --short)
case $commit in
unknown) want="^$version\$" ;;
*) want="^$version\\+g${commit:0:12}(\\.dirty)?\$" ;;
esac
grep -qE "$want" <<<"$short" || no "--short is '$short', not /$want/"
"$wingen" version --short -o json >/dev/null 2>&1
[ $? = 2 ] || no "--short with -o json is not a usage error"
"$wingen" version extra >/dev/null 2>&1
[ $? = 2 ] || no "wingen version extra is not a usage error"
"$wingen" version -o yaml >/dev/null 2>&1
[ $? = 2 ] || no "wingen version -o yaml is not a usage error"
"$wingen" version --help | grep -q "built with" \
	|| no "wingen version --help does not say what it prints"
"$wingen" version --output-file "$tmp/v.txt" && cmp -s "$tmp/v.txt" <(echo "$out") \
	|| no "version --output-file does not write what version prints"

# cmake/gitcommit.cmake outside a checkout, and in a folder of another
# repository (a tarball unpacked inside one): "unknown".
if command -v cmake >/dev/null && command -v git >/dev/null; then
	mkdir -p "$tmp/plain" "$tmp/repo/vendored"
	cmake -DSRC="$tmp/plain" -DOUT="$tmp/plain.h" \
		-P "$root/cmake/gitcommit.cmake" \
		&& grep -q '^#define WINGEN_GIT_COMMIT "unknown"$' "$tmp/plain.h" \
		|| no "gitcommit.cmake outside git: $(cat "$tmp/plain.h" 2>&1)"
	git -C "$tmp/repo" init -q \
		&& git -C "$tmp/repo" -c user.name=t -c user.email=t@t \
			commit -q --allow-empty -m x
	cmake -DSRC="$tmp/repo/vendored" -DOUT="$tmp/vendored.h" \
		-P "$root/cmake/gitcommit.cmake" \
		&& grep -q '^#define WINGEN_GIT_COMMIT "unknown"$' "$tmp/vendored.h" \
		|| no "gitcommit.cmake in another repository's folder: $(cat "$tmp/vendored.h" 2>&1)"
	cmake -DSRC="$tmp/repo" -DOUT="$tmp/repo.h" \
		-P "$root/cmake/gitcommit.cmake" \
		&& grep -q "^#define WINGEN_GIT_COMMIT \"$(git -C "$tmp/repo" rev-parse HEAD)\"\$" \
			"$tmp/repo.h" \
		&& grep -q '^#define WINGEN_GIT_TREE "clean"$' "$tmp/repo.h" \
		|| no "gitcommit.cmake at a repository's top: $(cat "$tmp/repo.h" 2>&1)"
	touch -d @0 "$tmp/repo.h"
	cmake -DSRC="$tmp/repo" -DOUT="$tmp/repo.h" \
		-P "$root/cmake/gitcommit.cmake"
	[ "$(stat -c %Y "$tmp/repo.h")" = 0 ] \
		|| no "gitcommit.cmake rewrote a header that did not change (every build would recompile)"
fi

[ "$fail" = 0 ] && echo "version: all checks pass"
exit $fail
