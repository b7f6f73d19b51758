#!/bin/sh
# Benchmark for the coordination targets (ADR 17), one isolated daemon, one
# raw socket client (tests/bench/coordination_bench.cpp):
#   - message_wait answers <= 5 ms after the message is committed;
#   - 100 agents heartbeating once a second each move the p99 of a signal
#     call (`progress`) by less than 10%, idle and loaded blocks
#     alternating in one run.
# Usage: tests/bench/coordination_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_ROUNDS (200), BENCH_AGENTS (100), BENCH_BLOCKS (10),
#        BENCH_BLOCK_MS (3000).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
mission="$build/bin/mission"
driver="$build/bin/mission_coordination_bench"
scratch=$(mktemp -d)
export MISSION_RUNTIME_DIR="$scratch/run" MISSION_STATE_DIR="$scratch/state"
unset MISSION_SOCKET MISSION_MCP_TOKEN
cleanup() {
  [ -x "$mission" ] && "$mission" daemon stop --force >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building mission, missiond, mission_coordination_bench in $build" >&2
if ! cmake --build "$build" --target mission missiond mission_coordination_bench >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "the build failed" >&2
  exit 1
fi
"$mission" daemon start >/dev/null
socket="$MISSION_RUNTIME_DIR/daemon.sock"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$driver" wait --socket "$socket" --rounds "${BENCH_ROUNDS:-200}"
"$driver" heartbeats --socket "$socket" --agents "${BENCH_AGENTS:-100}" \
  --blocks "${BENCH_BLOCKS:-10}" --block-ms "${BENCH_BLOCK_MS:-3000}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
