#!/usr/bin/env bash
# Builds wingen with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DWINGEN_SANITIZE=ON) and runs the whole ctest suite with it: any
# memory error, leak or undefined behaviour fails the test it happens in.
#   tests/ci/asan.sh [BUILD_DIR]     (default: build-asan in the checkout)
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build-asan}
cmake -S "$src" -B "$build" -DWINGEN_SANITIZE=ON -DWINGEN_WERROR=ON >/dev/null
cmake --build "$build" -j2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$build"
ctest --output-on-failure -j2
