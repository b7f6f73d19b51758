#!/bin/sh
# How long `mission status` waits while the daemon works for others on
# large data (docs/adr/0033). Target: status p99 <= 10 ms in both loads:
#   - tasks: a client adds tasks (create_task, back to back) to a plan of
#     9,000 tasks;
#   - messages: an agent with 100,000 unread messages makes tool calls
#     back to back, each result carrying the unread notice.
# Each build gets a daemon of its own, one after the other in one sitting:
# OLD_BUILD_DIR (optional, any build with bin/mission and bin/missiond, such
# as the commit before, built in another directory) first, then BUILD_DIR.
# The driver, tests/bench/loop_bench.cpp, is built from BUILD_DIR.
# Usage: tests/bench/loop_bench.sh [BUILD_DIR] [OLD_BUILD_DIR]
# Knobs: BENCH_RUNS (300 status runs a load), BENCH_TASKS (9000),
#        BENCH_MESSAGES (100000), BENCH_PARTS ("idle tasks messages").
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
old=${2:+$(cd "$2" && pwd)}
driver="$build/bin/mission_loop_bench"
scratch=$(mktemp -d)
unset MISSION_SOCKET MISSION_MCP_TOKEN
running=""
cleanup() {
  [ -n "$running" ] && "$running" daemon stop --force >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building mission, missiond, mission_loop_bench in $build" >&2
if ! cmake --build "$build" --target mission missiond mission_loop_bench >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "the build failed" >&2
  exit 1
fi

# bench LABEL DIR: every part against a fresh daemon of DIR's build.
bench() {
  label=$1 mission="$2/bin/mission"
  export MISSION_RUNTIME_DIR="$scratch/$label/run" MISSION_STATE_DIR="$scratch/$label/state"
  "$mission" daemon start >/dev/null
  running=$mission
  socket="$MISSION_RUNTIME_DIR/daemon.sock"
  echo "== $label: $2"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  runs=${BENCH_RUNS:-300}
  for part in ${BENCH_PARTS:-idle tasks messages}; do
    case $part in
      idle) "$driver" idle --socket "$socket" --mission "$mission" --runs "$runs" ;;
      tasks) "$driver" tasks --socket "$socket" --mission "$mission" --runs "$runs" --tasks "${BENCH_TASKS:-9000}" ;;
      messages) "$driver" messages --socket "$socket" --mission "$mission" --runs "$runs" \
        --messages "${BENCH_MESSAGES:-100000}" ;;
    esac
  done
  "$mission" daemon stop >/dev/null
  running=""
}

[ -n "$old" ] && bench before "$old"
bench after "$build"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
