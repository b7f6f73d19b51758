#!/bin/sh
# Planned work at scale: builds mission_planning_bench and runs it once.
# Usage: tests/bench/planning_bench.sh [BUILD_DIR] [RUNS]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-20}
cmake --build "$build" --target mission_planning_bench >&2
"$build/bin/mission_planning_bench" --runs "$runs"
