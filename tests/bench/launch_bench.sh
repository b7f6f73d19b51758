#!/bin/sh
# Benchmark for the launch-overhead target: `mission run --adapter generic
# -- true` against a warm daemon takes at most 10 ms (median) more than
# running `true` directly. Both run in the same hyperfine session, without a
# shell (-N); each `mission run` is a whole launch: connect, create the
# execution, spawn `true`, follow its output until it has ended, and exit
# with its status.
# Usage: tests/bench/launch_bench.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${BENCH_RUNS:-300}

. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon

hyperfine --style basic -N --warmup 20 --runs "$runs" --export-json "$scratch/launch.json" \
  "$mission --no-autostart run --adapter generic -- true" true >&2

launch=$(median_ms "$scratch/launch.json" 1)
direct=$(median_ms "$scratch/launch.json" 2)
overhead=$(echo "$launch $direct" | awk '{printf "%.2f", $1 - $2}')
verdict=$(echo "$overhead" | awk '{print ($1 <= 10) ? "met" : "MISSED"}')

cat <<REPORT

| what | target | measured |
|------|--------|----------|
| mission run --adapter generic -- true, median of $runs (warm daemon) | | $launch ms |
| true, run directly, median of $runs | | $direct ms |
| launch overhead (difference of the medians) | <= 10 ms | $overhead ms ($verdict) |
REPORT
