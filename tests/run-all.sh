#!/usr/bin/env bash
# Builds wingen and runs every test: the ctest suite in a normal build
# (warnings as errors), the same suite under AddressSanitizer and UBSan,
# and the golden cases under valgrind memcheck.
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
cmake -S . -B build-asan -DWINGEN_WERROR=ON -DWINGEN_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure -j"$jobs"

echo "== golden cases under valgrind memcheck (build/)"
WINGEN_RUNNER="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99" \
	ctest --test-dir build --output-on-failure -j"$jobs" -R '^golden/'
echo "all tests passed"
