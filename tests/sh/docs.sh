#!/usr/bin/env bash
# The documentation: the man page renders (man -l, groff without
# warnings) and covers every command, build's and check's options and fn's
# settings; every command has --help; the bash completion knows every
# command and option; cmake --install puts both in place.
#   docs.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
man_page=$root/docs/wingen.1
completion=$root/docs/wingen.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

no() { echo "FAIL: $*"; fail=1; }

commands=$("$wingen" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ -n "$commands" ] || no "wingen help lists no command"

options() {	# options CMD: the long options of CMD's --help
	"$wingen" help "$1" | sed -n '/^options:/,$p' \
		| grep -o -- '--[a-z][a-z-]*' | sort -u
}

# --help for every command.
for c in $commands; do
	"$wingen" "$c" --help >"$tmp/help" 2>&1 \
		|| no "wingen $c --help: exit status $?"
	want="^usage: wingen $c"
	[ "$c" = help ] && want="^usage: wingen COMMAND"
	grep -q "$want" "$tmp/help" \
		|| no "wingen $c --help does not start with its usage"
done

# The docs stand on their own: nothing cites the design notes or fact
# sheets outside the repository (their facts are in docs/windows-facts.md).
if grep -rnE 'DESIGN\.md|reference/(windows|ecosystem)\.md' "$root/docs" "$root/src" \
	"$root/include" "$root/transforms" "$root/gen" "$root/templates" "$root/tests" \
	"$root/examples" "$root/README.md" "$root/SECURITY.md" \
	| grep -v "^$root/tests/sh/docs.sh:" >"$tmp/cites"; then
	no "cites outside the repository: $(cat "$tmp/cites")"
fi
[ -s "$root/docs/windows-facts.md" ] && grep -q '^## 6\. Services' "$root/docs/windows-facts.md" \
	|| no "docs/windows-facts.md lacks its sections"

# fmt drops comments: its --help says so (a user expects a formatter to
# keep them).
"$wingen" fmt --help | grep -q "^Comments are dropped" \
	|| no "wingen fmt --help does not say that comments are dropped"

# The man page: rendered, and without formatter warnings.
if command -v man >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$man_page" >"$tmp/man.txt" \
		2>"$tmp/man.err" || no "man -l docs/wingen.1 failed"
	[ -s "$tmp/man.err" ] && no "man -l: $(cat "$tmp/man.err")"
elif command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 "$man_page" >"$tmp/man.txt" 2>/dev/null
else
	echo "SKIP: neither man nor groff is installed (Debian package man-db)"
	exit 77
fi
if command -v groff >/dev/null 2>&1; then
	groff -man -ww -z "$man_page" 2>"$tmp/groff.err"
	[ -s "$tmp/groff.err" ] && no "groff warns: $(cat "$tmp/groff.err")"
fi
grep -q '^NAME' "$tmp/man.txt" && grep -q '^EXIT STATUS' "$tmp/man.txt" \
	|| no "the rendered man page lacks NAME or EXIT STATUS"
for c in $commands; do
	grep -q "^       $c\b" "$tmp/man.txt" \
		|| no "the man page does not describe '$c' under COMMANDS"
done
for c in build check; do
	for opt in $(options "$c"); do
		grep -q -- "$opt" "$tmp/man.txt" \
			|| no "the man page does not mention $c's $opt"
	done
done
for key in $("$wingen" help fn | sed -n 's/^    \([a-zA-Z-]*\)=.*/\1/p'); do
	grep -qE -- "^ +$key=" "$tmp/man.txt" \
		|| no "the man page does not list fn's setting $key"
done
# ENVIRONMENT: every variable wingen reads (getenv in the sources) and
# every one the wrappers in examples/ read, with each WINGEN_LIMITS name.
envs=$(grep -rhoE 'getenv\("[A-Z_]+"\)' "$root/src" "$root/gen" "$root/transforms" \
	| sed 's/getenv("\(.*\)")/\1/'; grep -rhoE '\$\{WINGEN[A-Z_]*:-' "$root/examples" \
	| sed 's/^..\(.*\):-$/\1/')
[ -n "$envs" ] || no "found no environment variable in the sources (the grep is wrong)"
env_part=$(sed -n '/^ENVIRONMENT/,/^[A-Z]/p' "$tmp/man.txt")
for v in $(printf '%s\n' $envs | sort -u); do
	grep -qE "^       $v\b" <<<"$env_part" \
		|| no "the man page's ENVIRONMENT does not describe \$$v"
done
for n in $(sed -n 's/^\t{ "\([a-z-]*\)", offsetof(struct wg_limits.*/\1/p' "$root/src/base/ctx.c"); do
	grep -q -- "$n" <<<"$env_part" \
		|| no "the man page's ENVIRONMENT does not name the limit $n"
done
for tool in kubectl "Helm 3" "Helm 4" kustomize kpt "Argo CD" Flux; do
	grep -q "^       $tool" "$tmp/man.txt" \
		|| no "the man page has no INTEGRATIONS entry for $tool"
done

# Bash completion, driven as bash drives it.
complete_words() {	# complete_words WORD...: the candidates for the last
	bash -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_wingen; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@"
}
got=$(complete_words wingen '' | sort | tr '\n' ' ')
for c in $commands; do
	case " $got " in *" $c "*) ;; *) no "completion lacks the command $c" ;; esac
done
for c in $commands; do
	want=$(options "$c")
	have=" $(complete_words wingen "$c" -- | tr '\n' ' ') "
	for opt in $want; do
		case $have in *" $opt "*) ;; *) no "completion of '$c' lacks $opt" ;; esac
	done
done
# -o is a format on every command, never a file; --output-file is a file.
[ "$(complete_words wingen check -o '' | tr '\n' ' ')" = "text json sarif " ] \
	|| no "completion: check -o is not text|json|sarif"
[ "$(complete_words wingen build -o '' | tr '\n' ' ')" = "yaml json " ] \
	|| no "completion: build -o is not yaml|json"
[ "$(complete_words wingen fmt --output '' | tr '\n' ' ')" = "yaml json " ] \
	|| no "completion: fmt --output is not yaml|json"
[ "$(complete_words wingen builds -o '' | tr '\n' ' ')" = "table json " ] \
	|| no "completion: builds -o is not table|json"
( cd "$tmp" && : >out.yaml
  [ "$(complete_words wingen build --output-file ou)" = out.yaml ] ) \
	|| no "completion: build --output-file does not offer files"
( cd "$tmp" && : >4.yaml
  [ -z "$(complete_words wingen build -j '')" ] ) \
	|| no "completion: build -j offers something (file names?)"
[ "$(complete_words wingen help pl)" = plugins ] \
	|| no "completion: help pl is not plugins"
[ "$(complete_words wingen help bu | tr '\n' ' ')" = "build builds " ] \
	|| no "completion: help bu is not build, builds"

# cmake --install puts the page and the completion in place.
build=$(dirname "$wingen")
if [ -f "$build/cmake_install.cmake" ] && command -v cmake >/dev/null; then
	cmake --install "$build" --prefix "$tmp/inst" >/dev/null \
		|| no "cmake --install failed"
	cmp -s "$tmp/inst/share/man/man1/wingen.1" "$man_page" \
		|| no "cmake --install did not install the man page"
	cmp -s "$tmp/inst/share/bash-completion/completions/wingen" \
		"$completion" || no "cmake --install did not install the completion"
fi

[ "$fail" = 0 ] && echo "docs: all checks pass"
exit $fail
