#!/bin/sh
# Benchmark for the terminal targets (docs/adr/0014-agent-terminals.md):
#   - keystroke to echo through the daemon's pty, against the same program
#     on a pty of its own, in the same run (target: at most 1 ms p50 added);
#   - 100 MB of output through the daemon's pty with one viewer attached
#     and the log on (target: at least 100 MB/s);
#   - `mission attach` repainting a full screen (target: at most 20 ms).
# Usage: tests/bench/terminal_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_ROUND_TRIPS (2000), BENCH_THROUGHPUT_RUNS (5 of each, alternated).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)

. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon mission_terminal_bench

# 100 MB of 99-character lines.
awk 'BEGIN { line = sprintf("%099d", 0); gsub(/0/, "x", line); for (i = 0; i < 1000000; i++) print line }' \
  > "$scratch/data"
"$build/bin/mission_terminal_bench" "$mission" "$scratch/data" "${BENCH_ROUND_TRIPS:-2000}"
