#!/bin/sh
# Installs what is missing, builds, and runs every test: the normal build
# and the AddressSanitizer + UndefinedBehaviorSanitizer build. Safe to run
# again; both builds are incremental.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

"$root/scripts/install-deps.sh"
"$root/scripts/install-test-clients.sh"

# Most integration tests wait on processes and sockets rather than compute,
# so running a few more than the cores at once shortens the suite.
test_jobs=$((jobs + 2))

run_suite() {
  build=$1
  shift
  exclude=$1
  shift
  started=$(date +%s)
  echo "== $(basename "$build"): configure and build" >&2
  cmake -S "$root" -B "$build" -G Ninja "$@" >/dev/null
  cmake --build "$build" -j "$jobs"
  built=$(date +%s)
  echo "== $(basename "$build"): tests (built in $((built - started)) s)" >&2
  (cd "$build" && ctest -j "$test_jobs" --output-on-failure --no-tests=error --timeout 120 ${exclude:+-E "$exclude"})
  echo "== $(basename "$build"): tests passed in $(($(date +%s) - built)) s" >&2
}

# Tests need no debug info, and without it the build takes a fifth less CPU
# time; line tables are all a sanitizer report needs (-g1, 15% less).
run_suite "$root/build" "" -DCMAKE_BUILD_TYPE=Release -DMISSION_WERROR=ON
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The sanitized suite leaves out two kinds of test, which the normal build
# runs:
# - a client pipelining 600 execution.list requests. `mission status` no
#   longer waits on it there (docs/adr/0021), but each of those requests
#   takes about 400 ms in this build, so its 600 replies take minutes and
#   ASan's own memory passes the test's RSS bound;
# - the real agent CLIs (`agents: ...`). They are node programs the
#   sanitizers do not see; the daemon paths they drive are the ones the
#   integration tests and the SDK clients drive here, and they took a
#   quarter of this suite's time;
# - the checks of the sources and the docs (docs:, format:, layering:,
#   tests:), whose verdict is the same whatever the build: under the
#   sanitizers the completion check alone took two minutes.
run_suite "$root/build-asan" "pipelines without reading|^agents: |^docs: |^format: |^layering: |^tests: " -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DMISSION_SANITIZE=ON -DMISSION_WERROR=ON

echo "all tests passed" >&2
