#!/usr/bin/env bash
# The calls between the files of wingen's library, read off its object
# files (nm): what each file defines and what it takes from others.  The
# layers of docs/architecture.md hold for calls as for includes (a file
# calls its own layer and those below, never one above: a declaration
# written by hand would pass layers.sh; the order: lib/layers.sh), and no
# files call each other in a circle, however long.  Each violation is
# printed with the symbols that make it.
#   calls.sh WINGEN YAMLCMP CORPUS   (the objects are beside WINGEN)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/sh/lib/layers.sh"
objdir=$(dirname "$1")/CMakeFiles/wingen_core.dir
if [ ! -d "$objdir" ]; then
	echo "SKIP no object folder $objdir (not a CMake build?)"
	exit 77
fi
command -v nm >/dev/null 2>&1 || { echo "SKIP no nm"; exit 77; }

# One line a symbol: FILE LAYER RANK D SYMBOL (defined) or ... U SYMBOL
# (taken).  An object whose source is gone (moved since the build folder
# was made) is left out; templates.c is made at build time from
# templates/, the embedded files base/template.c reads.
symbols=$(find "$objdir" -name '*.c.o' | sort | while IFS= read -r o; do
	f=${o#"$objdir"/}
	f=${f%.o}
	if [ "$f" = templates.c ]; then
		l=base
	elif [ -f "$src/$f" ]; then
		l=$(layer_of "$f")
	else
		continue
	fi
	r=$(layer_rank "$l")
	nm -P "$o" | awk -v f="$f" -v l="$l" -v r="${r:--1}" '
		$2 ~ /^[TDBRVW]$/ { print f, l, r, "D", $1 }
		$2 == "U" { print f, l, r, "U", $1 }'
done)
nfiles=$(printf '%s\n' "$symbols" | awk '{ print $1 }' | sort -u | wc -l)
if [ "$nfiles" -lt 100 ]; then
	echo "FAIL only $nfiles object files in $objdir: the tree moved?"
	exit 1
fi

printf '%s\n' "$symbols" | awk '
# Tarjan: the strongly connected components of the call graph.
function visit(v,   i, w, c, n) {
	index_[v] = low[v] = counter++
	stack[++sp] = v; onstack[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in index_)) {
			visit(w)
			if (low[w] < low[v]) low[v] = low[w]
		} else if (onstack[w] && index_[w] < low[v]) {
			low[v] = index_[w]
		}
	}
	if (low[v] == index_[v]) {
		n = 0
		do {
			w = stack[sp--]; onstack[w] = 0
			comp[w] = v; n++
		} while (w != v)
		size[v] = n
	}
}
{ layer[$1] = $2; rank[$1] = $3; files[$1] = 1 }
$4 == "D" { def[$5] = $1; next }
$4 == "U" { taken[++nt] = $1 SUBSEP $5 }
END {
	fail = 0
	for (t = 1; t <= nt; t++) {
		split(taken[t], p, SUBSEP)
		a = p[1]; s = p[2]
		if (!(s in def) || def[s] == a) continue
		b = def[s]
		if (!((a, b) in why)) { out[a, ++nout[a]] = b; why[a, b] = s }
		else if (length(why[a, b]) < 60) why[a, b] = why[a, b] " " s
	}
	for (e in why) {
		split(e, p, SUBSEP)
		la = layer[p[1]]; lb = layer[p[2]]
		ra = rank[p[1]]; rb = rank[p[2]]
		if (ra < 0 || rb < 0) {
			printf "FAIL %s or %s: no layer of lib/layers.sh\n",
			       p[1], p[2]
			fail = 1
		} else if (rb > ra || (rb == ra && la != lb)) {
			printf "FAIL %s (%s) calls %s (%s): %s\n", p[1], la,
			       p[2], lb, why[e]
			fail = 1
		}
	}
	counter = 0; sp = 0
	for (f in files) if (!(f in index_)) visit(f)
	for (f in files) {
		if (size[comp[f]] < 2) continue
		for (i = 1; i <= nout[f]; i++) {
			w = out[f, i]
			if (comp[w] == comp[f])
				printf "FAIL circle of %d files: %s calls %s (%s)\n",
				       size[comp[f]], f, w, why[f, w]
		}
		fail = 1
	}
	if (!fail) printf "ok %d files call down the layers, in no circle\n",
			  length(files)
	exit fail
}'
