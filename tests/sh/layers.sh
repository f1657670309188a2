#!/usr/bin/env bash
# The layers of src/ (docs/architecture.md): a file includes headers of its
# own layer and of the layers below it, never of one above, and no source
# file sits directly in src/.  The order: tests/sh/lib/layers.sh.
#   layers.sh WINGEN YAMLCMP CORPUS   (only the source tree is read)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src" || exit 1
fail=0

. "$src/tests/sh/lib/layers.sh"

stray=$(find src -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \))
if [ -n "$stray" ]; then
	echo "FAIL files directly in src/ (put them in their layer's folder):"
	echo "$stray"; fail=1
fi

checked=0
while IFS= read -r f; do
	from=$(layer_of "$f")
	[ -n "$from" ] || continue
	fr=$(layer_rank "$from")
	if [ -z "$fr" ]; then
		echo "FAIL $f: folder '$from' is no layer of layers.sh"; fail=1
		continue
	fi
	checked=$((checked + 1))
	while IFS= read -r inc; do
		case $inc in
		wingen/*/*) to=${inc#wingen/}; to=${to%%/*} ;;
		profile/*|core/*|krm/*|migrate/*|yaml/*|k8s/*|base/*|serve/*|cli/*|chain/*)
			to=${inc%%/*} ;;	# a layer's private header
		*) continue ;;
		esac
		tr=$(layer_rank "$to")
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
