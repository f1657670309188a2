#!/usr/bin/env bash
# The layers of src/ (docs/architecture.md): a file includes headers of its
# own layer and of the layers below it, never of one above, and no source
# file sits directly in src/.  Order, lowest first:
#   base < yaml < k8s < profile < krm, migrate < core < gen, transforms
#   < serve < cli
# krm and migrate share a rank (neither includes the other); so do gen and
# transforms.
#   layers.sh WINGEN YAMLCMP CORPUS   (only the source tree is read)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src" || exit 1
fail=0

rank() {	# rank LAYER: its height, or nothing for an unknown layer
	case $1 in
	base) echo 0 ;; yaml) echo 1 ;; k8s) echo 2 ;; profile) echo 3 ;;
	krm|migrate) echo 4 ;; core) echo 5 ;; gen|transforms) echo 6 ;;
	serve) echo 7 ;; cli) echo 8 ;;
	esac
}

layer_of() {	# layer_of PATH: the layer a file belongs to
	case $1 in
	src/*/*) p=${1#src/}; echo "${p%%/*}" ;;
	include/wingen/*/*) p=${1#include/wingen/}; echo "${p%%/*}" ;;
	gen/*) echo gen ;;
	transforms/*) echo transforms ;;
	esac
}

stray=$(find src -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \))
if [ -n "$stray" ]; then
	echo "FAIL files directly in src/ (put them in their layer's folder):"
	echo "$stray"; fail=1
fi

checked=0
while IFS= read -r f; do
	from=$(layer_of "$f")
	[ -n "$from" ] || continue
	fr=$(rank "$from")
	if [ -z "$fr" ]; then
		echo "FAIL $f: folder '$from' is no layer of layers.sh"; fail=1
		continue
	fi
	checked=$((checked + 1))
	while IFS= read -r inc; do
		case $inc in
		wingen/*/*) to=${inc#wingen/}; to=${to%%/*} ;;
		profile/*|core/*|krm/*|migrate/*|yaml/*|k8s/*|base/*|serve/*|cli/*)
			to=${inc%%/*} ;;	# a layer's private header
		*) continue ;;
		esac
		tr=$(rank "$to")
		if [ -z "$tr" ]; then
			echo "FAIL $f includes $inc: no such layer"; fail=1
		elif [ "$tr" -gt "$fr" ] \
			|| { [ "$tr" = "$fr" ] && [ "$to" != "$from" ]; }; then
			echo "FAIL $f ($from) includes $inc ($to)"; fail=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find src include gen transforms -type f \( -name '*.c' -o -name '*.h' \) | sort)

if [ "$checked" -lt 50 ]; then
	echo "FAIL only $checked files checked: the tree moved?"; fail=1
fi
[ "$fail" = 0 ] && echo "ok $checked files keep to their layers"
exit $fail
