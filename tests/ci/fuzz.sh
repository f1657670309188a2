#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (-DWINGEN_FUZZ=ON) and runs the
# short ctest entries (WINGEN_FUZZ_SECONDS each, 30 by default, one at a
# time).  tests/fuzz/run.sh runs them longer.
#   tests/ci/fuzz.sh [BUILD_DIR] [SECONDS]   (default: build-fuzz, 30)
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build-fuzz}
seconds=${2:-30}
command -v clang >/dev/null || { echo "fuzz.sh: clang is not installed" >&2; exit 1; }
cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DWINGEN_FUZZ=ON \
	-DWINGEN_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$build" -j2
cd "$build"
ctest --output-on-failure -R '^fuzz/'
