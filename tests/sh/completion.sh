#!/usr/bin/env bash
# wingen completion bash|zsh|fish: the scripts are made from wingen's own
# tables, so what the real shells complete is held against what wingen
# itself says (wingen help, COMMAND --help, the usage error of a bad -o,
# wingen builds -o json), never against a list written here:
#  - docs/wingen.bash (what cmake --install installs) is what wingen
#    completion bash writes now;
#  - each shell parses its script (bash -n, zsh -n, fish -n);
#  - zsh (driven in a pseudo-terminal: lib/zsh_complete.zsh), fish
#    (complete -C) and bash (its completion function, as bash calls it)
#    complete every command, every option of each command's --help, the
#    formats -o takes, file names where a file goes, the release names of
#    the catalogue for --retarget OLD= and =NEW, help's and completion's
#    words;
#  - every value offered for an option with a fixed set is one wingen
#    accepts (and a made-up one it refuses).
# A shell that is not installed is skipped, said loudly.
#   completion.sh WINGEN YAMLCMP CORPUS
set -u
wingen=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
export PATH="$(dirname "$wingen"):$PATH"

# ---- what wingen says ------------------------------------------------------
commands=$("$wingen" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ -n "$commands" ] || no "wingen help lists no command"
options() {	# options CMD [VALUE]: the long options of CMD's --help
		# (VALUE: those taking a value)
	"$wingen" help "$1" | sed -n '/^options:/,$p' \
		| grep -oE -- "^ {2,6}(-[a-zA-Z], )?--[a-z][a-z-]*${2:+ [A-Z]}" \
		| grep -o -- '--[a-z-]*' | sort -u
}
formats() {	# formats CMD: what -o takes, from the usage error of a bad one
	"$wingen" "$1" -o no-such-format 2>&1 >/dev/null \
		| sed -n "s/.*is a format, \(.*\), not 'no-such-format'.*/\1/p" \
		| grep -o "'[a-z]*'" | tr -d "'" | sort
}
releases=$("$wingen" builds -o json | jq -r '.. | objects | select(has("aliases")) | .name' 2>/dev/null)
[ -n "$releases" ] || releases=$("$wingen" builds | awk 'NR > 1 { print $1 }')
[ -n "$releases" ] || no "found no release name in wingen builds"

# ---- the installed bash script is the generated one -------------------------
for shell in bash zsh fish; do
	"$wingen" completion "$shell" >"$tmp/script.$shell" \
		|| no "wingen completion $shell: exit status $?"
done
if ! cmp -s "$tmp/script.bash" "$root/docs/wingen.bash"; then
	no "docs/wingen.bash is not what 'wingen completion bash' writes now;" \
	   "regenerate it: cmake --build build --target generated-docs"
	diff -u "$root/docs/wingen.bash" "$tmp/script.bash" | head -20
fi
"$wingen" completion tcsh >/dev/null 2>&1
[ $? = 2 ] || no "wingen completion tcsh is not a usage error"
"$wingen" completion >/dev/null 2>&1
[ $? = 2 ] || no "wingen completion (no shell) is not a usage error"

# ---- each shell: parse, then complete ----------------------------------------
# complete SHELL LINE...: "== LINE" then the candidates of each LINE, in
# $tmp/got.SHELL, run in $cwd ($tmp/work holds out.yaml and a folder).
mkdir -p "$tmp/work/folder" && : >"$tmp/work/out.yaml"
cwd=$tmp/work
complete() {
	local shell=$1 line
	shift
	case $shell in
	zsh) (cd "$cwd" && timeout 60 zsh "$root/tests/sh/lib/zsh_complete.zsh" \
		"$tmp/script.zsh" "$@") ;;
	fish) for line in "$@"; do
		echo "== $line"
		(cd "$cwd" && fish --no-config -c "source $tmp/script.fish; complete -C '$line'") \
			| cut -f1
	      done ;;
	bash) for line in "$@"; do
		echo "== $line"
		# bash's own word splitting (COMP_WORDBREAKS: "=" is a word)
		(cd "$cwd" && bash --norc -c '
			source "$1"; line=$2
			read -ra COMP_WORDS <<<"$(sed "s/=/ = /g" <<<"$line")"
			[[ $line == *" " || $line == *= ]] && COMP_WORDS+=("")
			[[ $line == *= ]] && unset "COMP_WORDS[-1]" \
				&& COMP_WORDS[-1]="="
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			_wingen; printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp/script.bash" "$line")
	      done ;;
	esac >"$tmp/got.$shell"
}
got() {	# got SHELL LINE: the candidates of LINE, sorted, one a line
	awk -v l="== $2" '$0 == l { on = 1; next } /^== / { on = 0 } on' \
		"$tmp/got.$1" | sed 's/=$//' | sort -u
}
lacks() {	# lacks SHELL LINE WORD...: the WORDs LINE does not offer
	local shell=$1 line=$2 w
	shift 2
	for w in "$@"; do
		got "$shell" "$line" | grep -qxF -- "$w" || printf '%s ' "$w"
	done
}

lines=("wingen " "wingen help b" "wingen completion "
       "wingen build --retarget " "wingen build --retarget ltsc2019="
       "wingen build --output-file ou" "wingen check --templates fo")
for c in $commands; do
	lines+=("wingen $c -")
	[ -n "$(formats "$c")" ] && lines+=("wingen $c -o " "wingen $c --output=")
done
for shell in bash zsh fish; do
	if ! command -v "$shell" >/dev/null; then
		echo "SKIP ($shell): $shell is not installed (Debian: apt-get install $shell)"
		continue
	fi
	"$shell" -n "$tmp/script.$shell" || no "$shell -n: its script does not parse"
	complete "$shell" "${lines[@]}" || { no "$shell could not be driven"; continue; }
	missing=$(lacks "$shell" "wingen " $commands)
	[ -z "$missing" ] || no "$shell: 'wingen <Tab>' lacks the commands $missing"
	for c in $commands; do
		missing=$(lacks "$shell" "wingen $c -" $(options "$c"))
		[ -z "$missing" ] || no "$shell: 'wingen $c -<Tab>' lacks $missing"
		want=$(formats "$c")
		[ -n "$want" ] || continue
		for line in "wingen $c -o " "wingen $c --output="; do
			have=$(got "$shell" "$line" | sed 's/^--output=//')
			[ "$(sort <<<"$have")" = "$want" ] \
				|| no "$shell: '$line<Tab>' offers '$(echo $have)', -o takes '$(echo $want)'"
		done
	done
	missing=$(lacks "$shell" "wingen build --retarget " $releases)
	[ -z "$missing" ] || no "$shell: '--retarget <Tab>' lacks the releases $missing"
	new=$(got "$shell" "wingen build --retarget ltsc2019=" | sed 's/^ltsc2019=//')
	missing=$(for r in $releases; do
		[ "$r" = ltsc2019 ] || grep -qxF "$r" <<<"$new" || printf '%s ' "$r"; done)
	[ -z "$missing" ] || no "$shell: '--retarget ltsc2019=<Tab>' lacks $missing"
	grep -qxF ltsc2019 <<<"$new" && no "$shell: '--retarget ltsc2019=<Tab>' offers ltsc2019 itself"
	[ "$(got "$shell" "wingen help b" | tr '\n' ' ')" = "build builds " ] \
		|| no "$shell: 'wingen help b<Tab>' is not build, builds: $(got "$shell" "wingen help b" | tr '\n' ' ')"
	[ "$(got "$shell" "wingen completion " | tr '\n' ' ')" = "bash fish zsh " ] \
		|| no "$shell: 'wingen completion <Tab>' is not bash, fish, zsh"
	got "$shell" "wingen build --output-file ou" | grep -qx 'out.yaml' \
		|| no "$shell: '--output-file ou<Tab>' does not offer out.yaml"
	got "$shell" "wingen check --templates fo" | grep -qx 'folder/\?' \
		|| no "$shell: '--templates fo<Tab>' does not offer the folder"
	echo "$shell: completes $(wc -w <<<"$commands") commands, their options, -o, files, releases"
done

# ---- what is offered is accepted ---------------------------------------------
# Every fixed value of every option (bash's script, in an empty folder so
# no file name comes in): wingen's parser takes it (--help after it: the
# value is parsed, nothing is run).
if command -v bash >/dev/null; then
	mkdir -p "$tmp/empty"
	cwd=$tmp/empty
	checked=0
	for c in $commands; do
		for o in $(options "$c" value); do
			[ "$o" = --retarget ] && continue	# checked with the profile
			line="wingen $c $o "
			values=$(complete bash "$line" && got bash "$line")
			[ -n "$values" ] && checked=$((checked + 1))
			for v in $values; do
				"$wingen" "$c" "$o" "$v" --help >/dev/null 2>"$tmp/err" \
					|| no "'wingen $c $o $v' is offered and refused: $(cat "$tmp/err")"
			done
			if [ -n "$values" ]; then
				"$wingen" "$c" "$o" no-such-value --help >/dev/null 2>&1
				[ $? = 2 ] || no "'wingen $c $o no-such-value' is not refused (the check is empty)"
			fi
		done
	done
	[ "$checked" -gt 5 ] || no "only $checked options with a fixed set of values (the check is empty)"
fi

[ "$fail" = 0 ] && echo "completion: all checks pass"
exit $fail
