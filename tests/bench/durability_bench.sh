#!/bin/sh
# Power-loss durability against acknowledgement rate (docs/adr/0012):
# sequential `progress` calls over the control socket (the daemon's floor,
# no bridge), with missiond --synchronous normal and then full, on the state
# dir's file system. Prints calls/s, p50/p99 per call and, when strace is
# installed, the fdatasync/fsync calls per 1,000 acknowledgements.
# Usage: tests/bench/durability_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_CALLS (5000), BENCH_STRACE (1: count syncs; 0: time without
#        strace slowing the daemon), BENCH_STATE_PARENT (a dir on the disk to
#        measure; default: a temp dir under $TMPDIR).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
calls=${BENCH_CALLS:-5000}
mission="$build/bin/mission"
missiond="$build/bin/missiond"
driver="$build/bin/mission_mcp_bench"
scratch=$(mktemp -d "${BENCH_STATE_PARENT:-${TMPDIR:-/tmp}}/mission-durability.XXXXXX")
daemon_pid=""
cleanup() {
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building mission, missiond, mission_mcp_bench in $build" >&2
cmake --build "$build" --target mission missiond mission_mcp_bench >"$scratch/build.log" 2>&1 ||
  { cat "$scratch/build.log" >&2; exit 1; }

field() { sed -n "s/^$2: //p" "$1"; }

for mode in normal full; do
  export MISSION_RUNTIME_DIR="$scratch/$mode/run" MISSION_STATE_DIR="$scratch/$mode/state"
  mkdir -p "$MISSION_RUNTIME_DIR" "$MISSION_STATE_DIR"
  chmod 700 "$MISSION_RUNTIME_DIR"
  tracer=""
  if [ "${BENCH_STRACE:-1}" = 1 ] && command -v strace >/dev/null 2>&1; then
    tracer="strace -f -c -e trace=fdatasync,fsync -o $scratch/$mode.strace"
  fi
  $tracer "$missiond" --synchronous "$mode" 2>"$scratch/$mode.log" &
  daemon_pid=$!
  for _ in $(seq 100); do [ -S "$MISSION_RUNTIME_DIR/daemon.sock" ] && break; sleep 0.05; done
  created=$("$mission" --json exec create --delivery mcp-tool --print-token)
  exec_id=$(printf '%s\n' "$created" | grep -o '"id": *"ae-[A-Za-z0-9]*"' | head -n 1 | sed 's/.*"\(ae-[^"]*\)"/\1/')
  export MISSION_MCP_TOKEN=$(printf '%s\n' "$created" | sed -n 's/.*"token": *"\([0-9a-f]*\)".*/\1/p')
  "$driver" call-latency --calls "$calls" --socket "$MISSION_RUNTIME_DIR/daemon.sock" \
    --execution "$exec_id" >"$scratch/$mode.out"
  "$mission" daemon stop --force >/dev/null 2>&1 || true
  wait "$daemon_pid" 2>/dev/null || true
  daemon_pid=""
  syncs="-"
  if [ -n "$tracer" ]; then
    total=$(awk '$NF=="fdatasync"||$NF=="fsync"{s+=$4} END{print s+0}' "$scratch/$mode.strace")
    syncs=$(awk -v t="$total" -v c="$calls" 'BEGIN{printf "%.1f", t*1000/c}')
  fi
  echo "| synchronous=$mode | $(field "$scratch/$mode.out" calls_per_s) calls/s | p50 $(field "$scratch/$mode.out" p50_us) us | p99 $(field "$scratch/$mode.out" p99_us) us | $syncs syncs per 1,000 acks |"
done
