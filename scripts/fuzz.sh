#!/bin/sh
# The coverage-guided fuzzing run (docs/adr/0021): configures the project
# with clang and libFuzzer in build-fuzz, builds only the fuzz targets
# (tests/fuzz) and runs each for FUZZ_SECONDS seconds (default 60).
# The long run: FUZZ_SECONDS=600 scripts/fuzz.sh
# CI fuzzes the same targets differently: the ASan + UBSan build of
# scripts/test.sh links them with a standalone driver (ctest -R "fuzz: ").
# Any crash, sanitizer report, leak or timeout fails; the failing input is
# printed. Needs clang and libclang-rt (scripts/install-deps.sh --with-fuzz).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${FUZZ_SECONDS:-60}
CXX=${FUZZ_CXX:-clang++} cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMISSION_LIBFUZZER=ON -DMISSION_STATIC_CLI=OFF \
  -DFUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target fuzz_targets
cd "$build"
status=0
ctest -L libfuzzer --output-on-failure -V ${FUZZ_TARGETS:+-R "$FUZZ_TARGETS"} >fuzz.log 2>&1 || status=$?
grep -E "^[0-9]+: (Done|#[0-9]+ +DONE)|Test +#|tests passed|tests failed" fuzz.log || true
[ "$status" -eq 0 ] || { echo "fuzzing failed: see $build/fuzz.log" >&2; exit "$status"; }
