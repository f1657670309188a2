#!/usr/bin/env bash
# Runs the golden suite (tests/golden/*) with every wingen run under
# valgrind memcheck: an invalid access, a use of uninitialised memory or a
# definite or indirect leak exits 99 and fails the case (valgrind.supp:
# only PCRE2's JIT code, which memcheck cannot follow).
#   tests/ci/valgrind.sh [BUILD_DIR]  (default: build-valgrind in the checkout)
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build-valgrind}
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed" >&2; exit 1; }
cmake -S "$src" -B "$build" -DWINGEN_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target wingen
export WINGEN_RUNNER="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --track-origins=yes --suppressions=$src/tests/ci/valgrind.supp"
cd "$build"
ctest --output-on-failure -j2 -R '^golden/'
