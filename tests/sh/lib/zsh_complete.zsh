#!/usr/bin/env zsh
# zsh_complete.zsh SCRIPT LINE...: the candidates zsh's completion system
# offers for each LINE (what is typed before the cursor) once SCRIPT is
# loaded: for each, a line "== LINE", then its candidates one a line, in
# the order offered.  A real interactive zsh runs in a
# pseudo-terminal (the zsh/zpty module), with compinit, SCRIPT sourced as
# a user would, Tab bound to complete-word; LINE and a Tab are typed into
# it.  compadd is wrapped: each call prints, before it adds them, the
# matches it would add (builtin compadd -O: matched as for real), and a
# post-completion hook ends the list.  Exit status 2 when zsh could not
# be driven.
emulate -L zsh
zmodload zsh/zpty || exit 2
local script=$1 line setup out l
shift
setup=$(mktemp) || exit 2
# The setup goes in a file so that what the terminal echoes of typed
# commands stays short.
cat >$setup <<EOF
PS1= PROMPT= RPS1= RPROMPT=
autoload -Uz compinit && compinit -u -D
source ${(q)script}
bindkey '^I' complete-word
zstyle ':completion:*' list-prompt ''
zstyle ':completion:*' select-prompt ''
compadd() {
	# a caller collecting matches itself (-O, -A, -D) is left alone
	if (( \${@[(I)-[OAD]]} )); then
		builtin compadd "\$@"
		return
	fi
	local -a __wg
	builtin compadd -O __wg "\$@"
	(( \$#__wg )) && print -rl -- "" "<wg>"\${^__wg}
	builtin compadd "\$@"
}
# (zsh empties comppostfuncs after each completion: it adds itself again)
__wg_end() { print -r -- "<wg-end>"; comppostfuncs=(__wg_end) }
comppostfuncs=(__wg_end)
print -r -- "<wg-ready>"
EOF
zpty wgz zsh -f -i || exit 2
zpty -w wgz "source ${(q)setup}"
zpty -r wgz out '*<wg-ready>*' || { rm -f $setup; exit 2 }
for line in "$@"; do
	print -r -- "== $line"
	# the line, Tab; then Ctrl-U empties it for the next one
	zpty -w -n wgz "$line"$'\t'
	zpty -r wgz out '*<wg-end>*' || { rm -f $setup; exit 2 }
	zpty -w -n wgz $'\C-u'
	for l in ${(f)out}; do
		l=${l%$'\r'}
		[[ $l == '<wg>'* ]] && print -r -- ${l#'<wg>'}
	done
done
zpty -d wgz
rm -f $setup
return 0
