#!/bin/sh
# Builds the libFuzzer targets (tests/fuzz) with clang in build-fuzz and runs
# each for FUZZ_SECONDS seconds (default 5: the CI run, about 25 s in all).
# The longer run: FUZZ_SECONDS=600 scripts/fuzz.sh
# Any crash, sanitizer report, leak or timeout fails; the failing input is
# printed. Needs clang and libclang-rt (scripts/install-deps.sh --with-fuzz).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${FUZZ_SECONDS:-5}
CXX=${FUZZ_CXX:-clang++} cmake -S "$root/tests/fuzz" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$build" -j"${FUZZ_JOBS:-2}"
cd "$build" && ctest -L fuzz --output-on-failure -V | grep -E "^[0-9]+: (Done|#[0-9]+)|Passed|Failed|tests passed"
