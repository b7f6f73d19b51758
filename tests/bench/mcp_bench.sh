#!/bin/sh
# Benchmark for the MCP targets, all driven by one raw client
# (tests/bench/mcp_bench.cpp, no SDK) against an isolated daemon:
#   - bridge cold start (spawn, initialize, tools/list answered): median
#     <= 5 ms, and >= 30x faster than @modelcontextprotocol/server-everything
#     (tests/bench/package-lock.json pins it) under the same client;
#   - a durable signal's tools/call round trip (`progress`): p50 <= 150 us,
#     through the bridge, and through a direct socket client as the floor;
#   - 1,000 concurrent bridge sessions on one daemon with no failed call,
#     then missiond's RSS;
#   - the default catalog's tools/list size: <= 12 KB, under 800 B per tool.
# Usage: tests/bench/mcp_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_COLD_RUNS (200), BENCH_REF_RUNS (20), BENCH_CALLS (10000),
#        BENCH_SESSIONS (1000), BENCH_CONCURRENT_MODE (shared: one execution
#        and its token for all sessions; attached: `mission mcp connect`
#        without an id, one execution per session), BENCH_SKIP_REFERENCE=1.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
bench_dir="$root/tests/bench"
build=$(cd "${1:-$root/build}" && pwd)
cold_runs=${BENCH_COLD_RUNS:-200}
ref_runs=${BENCH_REF_RUNS:-20}
calls=${BENCH_CALLS:-10000}
sessions=${BENCH_SESSIONS:-1000}
concurrent_mode=${BENCH_CONCURRENT_MODE:-shared}
reference_js="$bench_dir/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

mission="$build/bin/mission"
driver="$build/bin/mission_mcp_bench"
scratch=$(mktemp -d)
# An isolated daemon; set before the trap, which stops "the" daemon.
export MISSION_RUNTIME_DIR="$scratch/run" MISSION_STATE_DIR="$scratch/state"
unset MISSION_SOCKET MISSION_MCP_TOKEN
cleanup() {
  [ -x "$mission" ] && "$mission" daemon stop --force >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building mission, missiond, mission_mcp_bench in $build" >&2
if ! cmake --build "$build" --target mission missiond mission_mcp_bench >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "the build failed" >&2
  exit 1
fi

# The reference server, exactly as the lock file pins it.
run_reference=1
if [ "${BENCH_SKIP_REFERENCE:-0}" = 1 ]; then
  run_reference=0
elif ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node/npm not found: skipping the reference server (scripts/install-deps.sh installs them)" >&2
  run_reference=0
elif ! [ -f "$reference_js" ] ||
     ! cmp -s "$bench_dir/package-lock.json" "$bench_dir/node_modules/.mission-lock-copy" 2>/dev/null; then
  echo "== npm ci in tests/bench" >&2
  (cd "$bench_dir" && timeout 600 npm ci --no-audit --no-fund --loglevel=error >&2)
  cp "$bench_dir/package-lock.json" "$bench_dir/node_modules/.mission-lock-copy"
fi
if [ "$run_reference" = 1 ]; then
  reference_version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' \
    "$bench_dir/node_modules/@modelcontextprotocol/server-everything/package.json")
fi

# Room for every session at once: by default the daemon serves 240 agents'
# sessions and keeps 16 connections for people's commands.
MISSION_MAX_CONNECTIONS=$((sessions + 64)) "$mission" daemon start >/dev/null
status_json=$("$mission" --json daemon status)
daemon_pid=$(printf '%s\n' "$status_json" | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
socket=$(printf '%s\n' "$status_json" | sed -n 's/.*"socket": "\([^"]*\)".*/\1/p')

# Creates an execution delivered over MCP; sets exec_id and exec_token.
new_execution() {
  created=$("$mission" --json exec create --delivery mcp-tool --print-token)
  exec_id=$(printf '%s\n' "$created" | grep -o '"id": *"ae-[A-Za-z0-9]*"' | head -n 1 | sed 's/.*"\(ae-[^"]*\)"/\1/')
  exec_token=$(printf '%s\n' "$created" | sed -n 's/.*"token": *"\([0-9a-f]*\)".*/\1/p')
  if [ -z "$exec_id" ] || [ -z "$exec_token" ]; then
    echo "cannot read the execution id and token from: $created" >&2
    exit 1
  fi
}

# field FILE KEY: the value of a `key: value` line of the driver's output.
field() { awk -F': ' -v key="$2" '$1 == key { print $2; exit }' "$1"; }

# run NAME ARGS...: runs the driver, keeps its stdout in $scratch/NAME.out,
# shows it, and records a failure instead of stopping the benchmark.
failed_steps=""
run() {
  name=$1
  shift
  if ! "$driver" "$@" >"$scratch/$name.out"; then
    failed_steps="$failed_steps $name"
    echo "!! $name failed (see above)" >&2
  fi
  sed "s/^/   $name: /" "$scratch/$name.out" >&2
}

echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# 1. Cold start: our bridge, then the reference under the same client.
new_execution
echo "== cold start: mission mcp connect ($cold_runs runs)" >&2
export MISSION_MCP_TOKEN="$exec_token"
run bridge-cold cold-start --runs "$cold_runs" --warmup 5 -- \
  "$mission" mcp connect --agent-execution "$exec_id"
if [ "$run_reference" = 1 ]; then
  echo "== cold start: server-everything $reference_version ($ref_runs runs)" >&2
  run reference-cold cold-start --runs "$ref_runs" --warmup 2 -- node "$reference_js" stdio
fi

# 2. tools/call round trip, a fresh execution per run so eventIds never
# collide; then the direct socket client as the floor under the bridge.
new_execution
echo "== call latency: $calls progress calls through the bridge" >&2
export MISSION_MCP_TOKEN="$exec_token"
run bridge-calls call-latency --calls "$calls" -- \
  "$mission" mcp connect --agent-execution "$exec_id"
new_execution
echo "== call latency: $calls progress calls over the control socket (no bridge)" >&2
export MISSION_MCP_TOKEN="$exec_token"
run socket-calls call-latency --calls "$calls" \
  --socket "$socket" --execution "$exec_id"

# 3. Concurrent sessions; the driver reads missiond's RSS while all are open.
echo "== concurrent: $sessions bridge sessions ($concurrent_mode)" >&2
if [ "$concurrent_mode" = attached ]; then
  unset MISSION_MCP_TOKEN
  run concurrent concurrent --sessions "$sessions" --watch-pid "$daemon_pid" -- "$mission" mcp connect
else
  new_execution
  export MISSION_MCP_TOKEN="$exec_token"
  run concurrent concurrent --sessions "$sessions" \
    --watch-pid "$daemon_pid" -- "$mission" mcp connect --agent-execution "$exec_id"
fi
sleep 1
rss_kib=$(awk '/^VmRSS:/ {print $2}' "/proc/$daemon_pid/status")
hwm_kib=$(awk '/^VmHWM:/ {print $2}' "/proc/$daemon_pid/status")

# Summary ---------------------------------------------------------------------
# mib KIB (a number, or "N kB" as /proc writes it)
mib() { awk -v k="${1%% *}" 'BEGIN { if (k == "" || k == "?") print "?"; else printf "%.1f MiB", k / 1024 }'; }
# verdict VALUE OP LIMIT: "met" or "MISSED" (awk does the float compare).
verdict() {
  if [ -z "$1" ]; then echo "no figure"; return; fi
  awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
    ok = (op == "<=") ? (v <= l) : (v >= l); print ok ? "met" : "MISSED" }'
}
num() { awk -v v="${1:-0}" 'BEGIN { printf "%d", v }' | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }

b=$scratch/bridge-cold.out
cold_median=$(field "$b" median_ms)
list_bytes=$(field "$b" tools_list_bytes)
tools=$(field "$b" tools)
per_tool=$(field "$b" bytes_per_tool)
ratio=""
if [ "$run_reference" = 1 ] && [ -s "$scratch/reference-cold.out" ] && [ -n "$cold_median" ]; then
  ref_median=$(field "$scratch/reference-cold.out" median_ms)
  ratio=$(awk -v r="$ref_median" -v m="$cold_median" 'BEGIN { if (m > 0) printf "%.0f", r / m }')
fi
c=$scratch/bridge-calls.out
s=$scratch/socket-calls.out
k=$scratch/concurrent.out
catalog_ok=$(verdict "$list_bytes" "<=" 12000)
[ "$catalog_ok" = met ] && catalog_ok=$(verdict "$per_tool" "<=" 800)
concurrent_failed=$(field "$k" failed)
concurrent_verdict=$( [ "$(field "$k" ok)" = "$sessions" ] && [ "${concurrent_failed:-x}" = 0 ] && echo met || echo MISSED)

echo
echo "MCP benchmark, $(date -u +%Y-%m-%d), $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(tests/bench/mcp_bench.sh: one raw client, mcp_bench.cpp, for every figure)"
echo
echo "| what | target | measured | verdict |"
echo "|------|--------|----------|---------|"
echo "| bridge cold start (spawn, initialize, tools/list answered), median | ≤ 5 ms | $cold_median ms (p90 $(field "$b" p90_ms) ms, min $(field "$b" min_ms) ms; $(field "$b" runs) runs) | $(verdict "$cold_median" "<=" 5) |"
if [ -n "$ratio" ]; then
  echo "| same for \`@modelcontextprotocol/server-everything\` $reference_version (node $(node --version)) | bridge ≥ 30× faster | $ref_median ms median ($(field "$scratch/reference-cold.out" runs) runs): bridge ${ratio}× faster | $(verdict "$ratio" ">=" 30) |"
else
  echo "| same for \`@modelcontextprotocol/server-everything\` | bridge ≥ 30× faster | not measured | no figure |"
fi
echo "| durable \`progress\` tools/call round trip through the bridge, p50 | ≤ 150 µs | $(field "$c" p50_us) µs (p90 $(field "$c" p90_us), p99 $(field "$c" p99_us) µs; $(num "$(field "$c" calls)") calls, $(field "$c" failures) failed) | $(verdict "$(field "$c" p50_us)" "<=" 150) |"
echo "| same over the control socket, no bridge (floor) | — | $(field "$s" p50_us) µs (p90 $(field "$s" p90_us), p99 $(field "$s" p99_us) µs; $(field "$s" failures) failed) | — |"
echo "| $(num "$sessions") concurrent bridge sessions on one daemon ($concurrent_mode), each initialize + tools/list + tools/call | no failed call | $(field "$k" ok) OK, ${concurrent_failed:-?} failed, $(field "$k" open_at_peak) open at once; $(field "$k" wall_ms) ms wall | $concurrent_verdict |"
echo "| missiond RSS with all $(num "$sessions") sessions open / 1 s after they closed | — | $(mib "$(field "$k" watched_rss_at_peak)") / $(mib "$rss_kib") (peak $(mib "$hwm_kib")) | — |"
echo "| default catalog tools/list response | ≤ 12 KB, < 800 B per tool | $list_bytes B for $tools tools = $per_tool B per tool | $catalog_ok |"

if [ -n "$failed_steps" ]; then
  echo
  echo "failed steps:$failed_steps" >&2
  exit 1
fi
