#!/usr/bin/env bash
# Builds wingen and runs every test: the ctest suite in a normal build
# (warnings as errors), the same suite under AddressSanitizer and UBSan,
# the golden cases under valgrind memcheck, and a short run of each fuzz
# target (clang's libFuzzer; 20 s each).
#   tests/run-all.sh            everything
#   tests/run-all.sh --quick    the normal build's ctest only
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

echo "== build and test (build/)"
cmake -S . -B build -DWINGEN_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
[ "${1:-}" = --quick ] && exit 0

echo "== AddressSanitizer + UBSan (build-asan/)"
tests/ci/asan.sh build-asan
echo "== golden cases under valgrind memcheck (build-valgrind/)"
tests/ci/valgrind.sh build-valgrind
echo "== fuzz targets, short runs (build-fuzz/)"
tests/ci/fuzz.sh build-fuzz "${WINGEN_FUZZ_SECONDS:-20}"
echo "all tests passed"
