#!/bin/sh
# Benchmark for the foundation targets:
#   - `mission status --json` against a running daemon: median wall time
#     (target: at most 3 ms), measured with hyperfine;
#   - missiond idle RSS (target: at most 8 MiB), read from /proc after the
#     timed runs, so the daemon has served a few hundred clients first.
# Usage: tests/bench/status_bench.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${BENCH_RUNS:-300}

. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon

# /bin/true in the same run shows what merely starting a process costs here.
hyperfine --style basic -N --warmup 20 --runs "$runs" \
  --export-json "$scratch/status.json" \
  "$mission --no-autostart status --json" /bin/true >&2

sleep 1
rss_kib=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
hwm_kib=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")

echo "mission status --json median: $(median_ms "$scratch/status.json" 1 3) ms (target <= 3 ms, $runs runs)"
echo "/bin/true median (process start floor): $(median_ms "$scratch/status.json" 2 3) ms"
echo "missiond idle RSS: $((rss_kib / 1024)).$(( (rss_kib % 1024) * 10 / 1024 )) MiB (${rss_kib} KiB; peak ${hwm_kib} KiB; target <= 8 MiB)"
