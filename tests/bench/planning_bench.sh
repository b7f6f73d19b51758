#!/bin/sh
# Planned work at scale, in one run:
#   1. mission_planning_bench: the daemon's own code in-process on a real
#      SQLite file, beside the naive reference algorithm (a full scan per
#      call) on the same data;
#   2. the same queries through the bridge: an isolated daemon, the MCP
#      SDK v1 client (tests/clients/node_modules) over `mission mcp
#      connect`, tests/bench/planning_bridge.mjs.
# 10,000 tasks, 30,000 depends_on edges. Targets (issue 16): set_plan
# <= 200 ms; next_tasks and progress <= 2 ms each through the bridge;
# task_load_context at 8,000 tokens <= 5 ms.
# Usage: tests/bench/planning_bench.sh [BUILD_DIR] [RUNS]
# Knobs: BENCH_SKIP_BRIDGE=1, BENCH_DONE_STAGES (50).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${2:-20}
mission="$build/bin/mission"
cmake --build "$build" --target mission missiond mission_planning_bench >&2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== in-process, beside the naive reference"
"$build/bin/mission_planning_bench" --runs "$runs"

if [ "${BENCH_SKIP_BRIDGE:-0}" = 1 ]; then exit 0; fi
if ! command -v node >/dev/null || ! [ -d "$root/tests/clients/node_modules/@modelcontextprotocol/sdk" ]; then
  echo "node or the SDK is missing: run scripts/install-test-clients.sh (skipping the bridge figures)" >&2
  exit 0
fi
scratch=$(mktemp -d /tmp/mission-planning-bench-XXXXXX)
export MISSION_RUNTIME_DIR="$scratch/run" MISSION_STATE_DIR="$scratch/state"
unset MISSION_SOCKET MISSION_MCP_TOKEN
cleanup() {
  "$mission" daemon stop >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$mission" daemon start >/dev/null
created=$("$mission" --json exec create --delivery mcp-tool --print-token --toolsets planning)
exec_id=$(printf '%s\n' "$created" | grep -o '"id": *"ae-[A-Za-z0-9]*"' | head -n 1 | sed 's/.*"\(ae-[^"]*\)"/\1/')
MISSION_MCP_TOKEN=$(printf '%s\n' "$created" | sed -n 's/.*"token": *"\([0-9a-f]*\)".*/\1/p')
export MISSION_MCP_TOKEN
echo "== through the bridge (SDK v1 client, mission mcp connect)"
node "$root/tests/bench/planning_bridge.mjs" "$mission" "$exec_id" --runs "$runs" \
  --done-stages "${BENCH_DONE_STAGES:-50}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
