# The layers of wingen, lowest first (docs/architecture.md): a file may
# use its own layer and those below it, never one above.  Layers on one
# line share a rank and use neither of each other.  Sourced by
# tests/sh/layers.sh (includes) and tests/sh/calls.sh (calls).
wg_layers='
base
yaml
k8s
profile
krm migrate
core
gen
transforms
chain
serve
cli
'

# layer_rank LAYER: its height, or nothing for a folder that is no layer.
layer_rank() {
	local r=0 line l
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		for l in $line; do
			[ "$l" = "$1" ] && { echo "$r"; return; }
		done
		r=$((r + 1))
	done <<<"$wg_layers"
}

# layer_of PATH: the layer a source file or header belongs to.
layer_of() {
	local p
	case $1 in
	src/*/*) p=${1#src/}; echo "${p%%/*}" ;;
	include/wingen/*/*) p=${1#include/wingen/}; echo "${p%%/*}" ;;
	gen/*) echo gen ;;
	transforms/*) echo transforms ;;
	esac
}
