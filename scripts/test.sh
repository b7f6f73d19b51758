#!/bin/sh
# Installs what is missing, builds, and runs every test: the normal build
# and the AddressSanitizer + UndefinedBehaviorSanitizer build. Safe to run
# again; both builds are incremental.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

"$root/scripts/install-deps.sh"
"$root/scripts/install-test-clients.sh"

run_suite() {
  build=$1
  shift
  echo "== $(basename "$build"): configure and build" >&2
  cmake -S "$root" -B "$build" -G Ninja "$@" >/dev/null
  cmake --build "$build" -j "$jobs"
  echo "== $(basename "$build"): tests" >&2
  (cd "$build" && ctest -j "$jobs" --output-on-failure --no-tests=error --timeout 120)
}

run_suite "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run_suite "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DMISSION_SANITIZE=ON

echo "all tests passed" >&2
