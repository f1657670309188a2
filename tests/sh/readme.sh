#!/usr/bin/env bash
# Every command block of README.md (a fenced ```sh block), run as a user
# would run it, in a scratch folder, with wingen installed by the README's
# own install step.  A README command that breaks fails this test.
#   readme.sh WINGEN YAMLCMP CORPUS
#
# Which blocks run, and how a block opts out: an HTML comment on the line
# before the fence (GitHub shows nothing of it) says what to do:
#   (none)                            run the block: bash -e -o pipefail,
#                                     in the scratch folder, wingen on
#                                     PATH, exit status 0
#   <!-- readme-test: install -->     the quick start (exactly one block):
#                                     its ' && ' steps, each as below
#   <!-- readme-test: needs TOOL... --> run only when every TOOL is on
#                                     PATH (else SKIP, said per block)
#   <!-- readme-test: skip REASON --> never run; REASON is required (a
#                                     block that needs a cluster, a
#                                     registry or root)
# Any other readme-test comment is a failure, and so is a block without
# one whose commands fail.
#
# The install block's steps, in the README's order:
#   apt-get update          not run (root and the network); each package
#   apt-get install -y ...  apt-get install names must be known to
#                           apt-cache, when apt-cache has package lists
#   cmake -S . -B build     not run: this test runs from a build folder
#   cmake --build build -j  configured and built from this tree (ctest's);
#                           configuring again costs seconds, building
#                           again minutes
#   cmake --install build   run on that build with the README's documented
#                           --prefix DIR (a scratch prefix), then wingen is
#                           taken from DIR/bin on PATH, and the man page
#                           and completion must be where the README says
#   wingen ...              run from a copy of the repository's examples/;
#                           the single-build render must equal the
#                           example's expected.yaml (RuntimeClass first)
# A step of another shape fails the test: the README changed, so must this.
#
# The scratch folder is a user's repository as the README's blocks name
# it: profile.yaml written by `wingen init` from a cluster's nodes (the
# README's "Start here", with tests/data/nodes/ws2022-containerd.json for
# the cluster), manifests/ and apps/shop/ (the single-build example's
# manifests), an empty deploy/shop/, pkg/ (the kpt example's package),
# examples/ (a copy).  Blocks run in README order in that one folder, as a
# reader would run them; what the README says a block prints or writes is
# checked after it (see expect_* below).
set -u
# The wrappers read these; a user's own would change what the blocks do.
unset WINGEN WINGEN_PROFILE WINGEN_LOG WINGEN_LIMITS WINGEN_TTY
wingen=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
readme=${WG_README:-$src/README.md}	# WG_README: try the test on a copy
build=$(dirname "$wingen")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ran=0 skipped=0
no() { echo "FAIL: $*"; fail=1; }

[ -f "$build/cmake_install.cmake" ] \
	|| { echo "FAIL: $build is not a CMake build folder"; exit 1; }

# ---- the blocks ------------------------------------------------------------
# blocks/N.sh (the text), blocks/N.how (the directive), blocks/N.line.
mkdir "$tmp/blocks"
awk -v dir="$tmp/blocks" '
	/^```sh[[:space:]]*$/ && !inblk {
		n++; inblk = 1
		how = (prev ~ /^<!-- readme-test:/) ? prev : ""
		print how > (dir "/" n ".how"); close(dir "/" n ".how")
		print NR + 1 > (dir "/" n ".line"); close(dir "/" n ".line")
		printf "" > (dir "/" n ".sh")
		next
	}
	/^```/ && inblk { inblk = 0; close(dir "/" n ".sh"); next }
	inblk { print > (dir "/" n ".sh"); next }
	/[^[:space:]]/ { prev = $0 }
' "$readme"
nblocks=$(ls "$tmp/blocks" | grep -c '\.sh$')
[ "$nblocks" -gt 0 ] || { echo "FAIL: no sh block in $readme"; exit 1; }

# ---- the scratch folder ----------------------------------------------------
work=$tmp/work prefix=$tmp/prefix
mkdir -p "$work/deploy/shop" "$work/apps" "$tmp/home"
cp -r "$src/examples" "$work/examples"
cp -r "$src/examples/single-build/manifests" "$work/manifests"
cp -r "$src/examples/single-build/manifests" "$work/apps/shop"
cp -r "$src/examples/kpt/pkg" "$work/pkg"
export HOME=$tmp/home	# kpt, helm and the wrappers keep state there
# Once the install step ran: its wingen, and nothing else of that name.
path_with_wingen() { echo "$prefix/bin:$PATH"; }

# ---- the install block -----------------------------------------------------
install_step() {	# install_step STEP
	local step=$1 pkgs p out
	case $step in
	"apt-get update")
		echo "  not run (root, network): $step" ;;
	"apt-get install -y "*)
		pkgs=${step#apt-get install -y }
		# One apt-cache call (each reads every package list: seconds);
		# it prints "NAME:" and a Candidate for each name it knows.
		if command -v apt-cache >/dev/null 2>&1 \
			&& out=$(apt-cache policy $pkgs 2>/dev/null) \
			&& grep -q '^  Candidate: [^(]' <<<"$out"; then
			for p in $pkgs; do
				awk -v p="$p:" '$0 == p { f = 1; next }
					/^[^ ]/ { f = 0 }
					f && /^  Candidate: [^(]/ { ok = 1 }
					END { exit !ok }' <<<"$out" \
					|| no "quick start installs '$p', which apt does not know"
			done
			echo "  not run (root, network); every package is known to apt: $pkgs"
		else
			echo "  not run (root, network); no apt package lists here to check the names"
		fi ;;
	"cmake -S . -B build"|"cmake --build build -j")
		echo "  not run (this test runs from ctest's build, configured and built from this tree): $step" ;;
	"cmake --install build")
		cmake --install "$build" --prefix "$prefix" >"$tmp/inst.log" 2>&1 \
			|| { no "quick start: '$step --prefix DIR' fails:"; cat "$tmp/inst.log"; }
		echo "  run (with --prefix, as the README documents): $step"
		[ -x "$prefix/bin/wingen" ] || no "'$step' installs no bin/wingen"
		[ -f "$prefix/share/man/man1/wingen.1" ] \
			|| no "'$step' installs no man page under share/man/man1"
		[ -f "$prefix/share/bash-completion/completions/wingen" ] \
			|| no "'$step' installs no bash completion under share/bash-completion"
		[ "$(PATH=$(path_with_wingen) command -v wingen)" = "$prefix/bin/wingen" ] \
			|| no "the installed wingen is not the one on PATH" ;;
	"wingen "*)
		out=$tmp/quick.yaml
		(cd "$work" && PATH=$(path_with_wingen) bash -e -o pipefail \
			-c "$step" >"$out" 2>"$tmp/quick.err") \
			|| { no "quick start: '$step' fails:"; cat "$tmp/quick.err"; }
		echo "  run: $step"
		case $step in
		*examples/single-build/profile.yaml*)
			cmp -s "$out" "$src/examples/single-build/expected.yaml" \
				|| no "quick start: '$step' does not print examples/single-build/expected.yaml"
			[ "$(sed -n 2p "$out")" = "kind: RuntimeClass" ] \
				|| no "quick start: the RuntimeClass is not first" ;;
		esac ;;
	*)
		no "the quick start has a step this test does not know: '$step'" ;;
	esac
}

run_install() {	# run_install N
	local text steps step
	text=$(tr '\n' ' ' <"$tmp/blocks/$1.sh" | sed 's/[[:space:]]*$//')
	steps=$(sed 's/ && /\n/g' <<<"$text")
	while IFS= read -r step; do
		install_step "$step"
	done <<<"$steps"
	[ -x "$prefix/bin/wingen" ] || { no "the quick start installed no wingen: stopping"; exit 1; }
}

# ---- what the README says a block prints or writes -------------------------
expect_after() {	# expect_after N: checks the block just run
	local text=$tmp/blocks/$1.sh
	if grep -q -- '--output-file deploy/shop/all.yaml' "$text"; then
		# "the CI gate: the committed render is what the sources give now"
		grep -q '^kind: RuntimeClass' "$work/deploy/shop/all.yaml" \
			|| no "block $1: deploy/shop/all.yaml holds no RuntimeClass"
	fi
	if grep -q -- 'kubectl kustomize --enable-alpha-plugins' "$text"; then
		# "the example's sortOptions puts it first"
		[ "$(grep -m1 '^kind:' "$tmp/out.$1")" = "kind: RuntimeClass" ] \
			|| no "block $1: the RuntimeClass is not first in kustomize's output"
	fi
	if grep -q -- 'kpt fn eval pkg' "$text"; then
		# "the RuntimeClass goes to runtimeclasses.yaml", once
		grep -q '^kind: RuntimeClass' "$work/pkg/runtimeclasses.yaml" \
			|| no "block $1: pkg/runtimeclasses.yaml holds no RuntimeClass"
		[ "$(cat "$work"/pkg/*.yaml | grep -c '^kind: RuntimeClass')" = 1 ] \
			|| no "block $1: pkg does not hold exactly one RuntimeClass"
	fi
	if grep -q -- '--output-file wingen-report.json' "$text"; then
		grep -q '"kind": *"CheckReport"' "$work/wingen-report.json" \
			|| no "block $1: wingen-report.json is not a CheckReport"
	fi
}

# ---- every block, in order ---------------------------------------------------
(cd "$work" && "$wingen" init >profile.yaml \
	<"$src/tests/data/nodes/ws2022-containerd.json") \
	|| no "wingen init (the README's Start here) fails"
installed=0
for ((n = 1; n <= nblocks; n++)); do
	how=$(cat "$tmp/blocks/$n.how")
	line=$(cat "$tmp/blocks/$n.line")
	first=$(grep -m1 . "$tmp/blocks/$n.sh")
	dir=$(sed -E 's/^<!-- readme-test: *(.*[^ ]) *-->$/\1/' <<<"$how")
	echo "block $n (README line $line): $first"
	t0=$(date +%s%N)
	case $how in
	"")	;;
	"<!-- readme-test: install -->")
		[ "$installed" = 0 ] || no "block $n: a second install block"
		[ "$n" = 1 ] || no "block $n: the install block is not the first"
		run_install "$n"
		echo "  ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
		installed=1 ran=$((ran + 1))
		continue ;;
	"<!-- readme-test: skip "*" -->")
		echo "  skipped: ${dir#skip }"
		skipped=$((skipped + 1))
		continue ;;
	"<!-- readme-test: skip -->")
		no "block $n: skip without a reason"
		continue ;;
	"<!-- readme-test: needs "*" -->")
		missing=
		for t in ${dir#needs }; do
			command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
		done
		if [ -n "$missing" ]; then
			echo "  SKIP: needs$missing (not installed)"
			skipped=$((skipped + 1))
			continue
		fi ;;
	*)
		no "block $n: unknown directive '$how'"
		continue ;;
	esac
	[ "$installed" = 1 ] || { no "block $n runs before the install block"; continue; }
	(cd "$work" && PATH=$(path_with_wingen) timeout 60 \
		bash -e -o pipefail "$tmp/blocks/$n.sh" >"$tmp/out.$n" 2>"$tmp/err.$n")
	rc=$?
	ran=$((ran + 1))
	if [ "$rc" != 0 ]; then
		no "block $n (README line $line) exits $rc:"
		sed 's/^/    /' "$tmp/blocks/$n.sh"
		tail -20 "$tmp/err.$n" | sed 's/^/  stderr: /'
		continue
	fi
	echo "  ok ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
	expect_after "$n"
done
[ "$installed" = 1 ] || no "no block is marked <!-- readme-test: install -->"

echo "readme: $nblocks blocks, $ran run, $skipped skipped"
[ "$fail" = 0 ] && echo "readme: all checks pass"
exit $fail
